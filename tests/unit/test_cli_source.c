/*
 * test_cli_source.c — unit tests of what spvi makes of an input file (cli/cli_source.c: by its first
 * bytes, the name only for text) and of the compile options (cli/cli_clopts.c), linked with the
 * command's modules like test_cli_args.c. The magic numbers are the formats' own (SPIR-V 2.3, the
 * ELF gABI header, LLVM's bitcode magic, the NumPy format), written out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "cli_clopts.h"
#include "cli_source.h"

/* The kind of `text` (len bytes) named `name`, and its description in *what. */
static cli_in_kind sniff(const char *text, size_t len, const char *name, const char **what) {
  return cli_source_sniff((const unsigned char *)text, len, name, what);
}

static void test_spirv_either_byte_order(void **state) {
  (void)state;
  const char *what;
  /* 0x07230203 little-endian, then big-endian: a module whatever the name */
  assert_int_equal(sniff("\x03\x02\x23\x07\0\0\1\0", 8, "k.cl", &what), CLI_IN_SPIRV);
  assert_int_equal(sniff("\x07\x23\x02\x03\0\1\0\0", 8, "k.bin", &what), CLI_IN_SPIRV);
  /* three bytes of the magic are not a module */
  assert_int_equal(sniff("\x03\x02\x23", 3, "k.spv", &what), CLI_IN_OTHER);
  assert_string_equal(what, "binary data");
}

static void test_other_formats(void **state) {
  (void)state;
  const char *what;
  assert_int_equal(sniff("", 0, "k.cl", &what), CLI_IN_OTHER);
  assert_string_equal(what, "an empty file");
  /* ELF: e_type at offset 16 in the byte order of EI_DATA (byte 5: 1 little, 2 big) */
  static const char elf_exec_le[18] = "\x7f"
                                      "ELF\2\1\1\0\0\0\0\0\0\0\0\0\2\0";
  assert_int_equal(sniff(elf_exec_le, 18, "a.out", &what), CLI_IN_OTHER);
  assert_string_equal(what, "an ELF executable");
  static const char elf_so_be[18] = "\x7f"
                                    "ELF\2\2\1\0\0\0\0\0\0\0\0\0\0\3";
  assert_int_equal(sniff(elf_so_be, 18, "lib.so", &what), CLI_IN_OTHER);
  assert_string_equal(what, "an ELF shared object (a library or a position-independent executable)");
  assert_int_equal(sniff("BC\xc0\xde\x35\x14", 6, "k.cl", &what), CLI_IN_OTHER);
  assert_string_equal(what, "LLVM bitcode (translate it to SPIR-V with llvm-spirv-14)");
  assert_int_equal(sniff("\x93NUMPY\1\0", 8, "a.npy", &what), CLI_IN_OTHER);
  assert_string_equal(what, "a NumPy array file (.npy: give it as an argument, TYPE[N]=@FILE)");
  const char *asm_text = "; SPIR-V\nOpCapability Kernel\n";
  assert_int_equal(sniff(asm_text, strlen(asm_text), "k.spvasm", &what), CLI_IN_OTHER);
  assert_string_equal(what, "SPIR-V assembly text (assemble it with spirv-as)");
  const char *ir = "; ModuleID = 'k.cl'\ntarget triple = \"spir64\"\n";
  assert_int_equal(sniff(ir, strlen(ir), "k.ll", &what), CLI_IN_OTHER);
  assert_string_equal(what, "LLVM IR text (assemble it with llvm-as-14, then translate it with llvm-spirv-14)");
  /* a NUL or a control character: binary, even named .cl */
  assert_int_equal(sniff("kernel\0", 7, "k.cl", &what), CLI_IN_OTHER);
  assert_string_equal(what, "binary data");
}

static void test_opencl_c_text(void **state) {
  (void)state;
  const char *what;
  /* by name: any text named .cl or .clc (clang then says what is wrong with it) */
  assert_int_equal(sniff("int x;\n", 7, "lib.cl", &what), CLI_IN_SOURCE);
  assert_int_equal(sniff("int x;\n", 7, "lib.clc", &what), CLI_IN_SOURCE);
  /* by content: `kernel` or `__kernel` as a token */
  const char *k1 = "/* c */\n__kernel void f(void) {}\n", *k2 = "kernel void f(void) {}", *k3 = "x;\tkernel\n";
  assert_int_equal(sniff(k1, strlen(k1), "f", &what), CLI_IN_SOURCE);
  assert_int_equal(sniff(k2, strlen(k2), "f", &what), CLI_IN_SOURCE);
  assert_int_equal(sniff(k3, strlen(k3), "f", &what), CLI_IN_SOURCE);
  /* not a token: kernels, mykernel, ___kernel, kernel_x */
  const char *no[] = {"the kernels run", "void mykernel(void)", "___kernel void f()", "int kernel_x;"};
  for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
    assert_int_equal(sniff(no[i], strlen(no[i]), "notes.txt", &what), CLI_IN_OTHER);
    assert_string_equal(what, "text without an OpenCL C kernel (no `kernel` or `__kernel` function)");
  }
}

/* Parses argv as a command line of compile options alone; the build option string, or NULL on a
 * mistake (message in *e). */
static char *options_of(int argc, char **argv, bool debug, cli_error *e) {
  cli_clopts o;
  cli_clopts_init(&o);
  for (int i = 0; i < argc;) {
    int used = cli_clopts_take(&o, argc, argv, i, e);
    if (used <= 0) {
      if (used == 0) strcpy(e->msg, "not a compile option");
      cli_clopts_free(&o);
      return NULL;
    }
    i += used;
  }
  char *s = cli_clopts_string(&o, debug);
  cli_clopts_free(&o);
  return s;
}

static void test_build_options(void **state) {
  (void)state;
  cli_error e;
  char *a[] = {"-D", "N=1", "-DM", "-I", "inc dir", "-Iq'd", "--cl-std=CL2.0", "-O3", "--build-options", "-w"};
  char *s = options_of(10, a, false, &e);
  assert_non_null(s);
  /* -O3: the optimising pipeline, so no -cl-opt-disable; every value quoted for the tokenizer */
  assert_string_equal(s, " -cl-std='CL2.0' -D 'N=1' -D 'M' -I 'inc dir' -I 'q'\\''d' -w");
  free(s);
  /* defaults: run and info optimise, debug is -O0 -g; -O2 in debug keeps -g */
  s = options_of(0, NULL, false, &e);
  assert_string_equal(s, "");
  free(s);
  s = options_of(0, NULL, true, &e);
  assert_string_equal(s, " -cl-opt-disable -g");
  free(s);
  char *o2[] = {"-O2"}, *o0[] = {"-O0"};
  s = options_of(1, o2, true, &e);
  assert_string_equal(s, " -g");
  free(s);
  s = options_of(1, o0, false, &e);
  assert_string_equal(s, " -cl-opt-disable");
  free(s);
}

static void test_option_mistakes(void **state) {
  (void)state;
  cli_error e;
  char *o4[] = {"-O4"}, *twice[] = {"-O1", "-O2"}, *bare[] = {"-D"}, *std2[] = {"--cl-std", "CL1.2", "-cl-std=CL2.0"};
  assert_null(options_of(1, o4, false, &e));
  assert_string_equal(e.msg, "-O4: the levels are -O0, -O1, -O2 and -O3");
  assert_null(options_of(2, twice, false, &e));
  assert_string_equal(e.msg, "-O given twice");
  assert_null(options_of(1, bare, false, &e));
  assert_string_equal(e.msg, "option -D needs a value");
  assert_null(options_of(3, std2, false, &e));
  assert_string_equal(e.msg, "option -cl-std given twice");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_spirv_either_byte_order), cmocka_unit_test(test_other_formats),
    cmocka_unit_test(test_opencl_c_text),           cmocka_unit_test(test_build_options),
    cmocka_unit_test(test_option_mistakes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
