/*
 * test_load_source.c — spvi_load_source (compile/clc_source.c) through the public API alone: a
 * source file with an include next to it, a compile error (SPVI_E_BUILD, the log's first error line
 * in the message, the whole log through on_message), a SPIR-V file with build options, a NUL byte,
 * a missing file. The files are written here; the expected lines are those of the text written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spvi.h"

static char dir[64];

/* dir/name with `len` bytes of text (len 0: strlen); the path in out (cap bytes). */
static void put(const char *name, const char *text, size_t len, char *out, size_t cap) {
  snprintf(out, cap, "%s/%s", dir, name);
  FILE *f = fopen(out, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, len ? len : strlen(text), f), len ? len : strlen(text));
  fclose(f);
}

/* on_message: keeps the notes (the compiler's log) */
static void keep(void *user, spvi_severity s, const char *msg) {
  if (s == SPVI_NOTE) snprintf(user, 4096, "%s", msg);
}

static void test_source_with_include(void **state) {
  (void)state;
  char h[128], cl[128];
  put("value.h", "#define VALUE 7\n", 0, h, sizeof h);
  put("k.cl", "#include \"value.h\"\nkernel void k(global int *o) { o[0] = VALUE; }\n", 0, cl, sizeof cl);
  spvi_error err;
  spvi_module *m = spvi_load_source(cl, "-cl-std=CL2.0", NULL, &err);
  assert_non_null(m);
  assert_int_equal(err.status, SPVI_OK);
  assert_int_equal(spvi_find_kernel(m, "k"), 0);
  spvi_launch *l = spvi_launch_new(m, 0, &err);
  int out = 0;
  size_t one = 1;
  assert_int_equal(spvi_set_arg_buffer(l, 0, &out, sizeof out, &err), SPVI_OK);
  assert_int_equal(spvi_set_ndrange(l, 1, &one, NULL, NULL, &err), SPVI_OK);
  spvi_run_options ro = {0};
  spvi_fault f;
  assert_int_equal(spvi_run(l, &ro, &f, &err), SPVI_OK);
  assert_int_equal(*(const int *)spvi_arg_buffer(l, 0, NULL), 7); /* VALUE from the header beside k.cl */
  spvi_launch_free(l);
  spvi_module_free(m);
}

static void test_compile_error(void **state) {
  (void)state;
  char cl[128], want[512], log[4096] = "";
  put("bad.cl", "kernel void k(global int *o) {\n  o[0] = nope;\n}\n", 0, cl, sizeof cl);
  spvi_load_options lo = {.on_message = keep, .user = log};
  spvi_error err;
  assert_null(spvi_load_source(cl, NULL, &lo, &err));
  assert_int_equal(err.status, SPVI_E_BUILD);
  snprintf(want, sizeof want, "`%s` did not compile: %s:2:10: error: use of undeclared identifier 'nope'", cl, cl);
  assert_string_equal(err.message, want);
  assert_non_null(strstr(log, "error: use of undeclared identifier 'nope'"));
}

static void test_refusals(void **state) {
  (void)state;
  char spv[128], nul[128];
  /* a SPIR-V header (magic, version 1.0, generator, bound, schema): loaded as a module, so build
   * options cannot apply */
  static const uint32_t words[5] = {0x07230203, 0x00010000, 0, 1, 0};
  put("m.spv", (const char *)words, sizeof words, spv, sizeof spv);
  spvi_error err;
  assert_null(spvi_load_source(spv, "-g", NULL, &err));
  assert_int_equal(err.status, SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "is a SPIR-V module, not OpenCL C source"));
  put("nul.cl", "kernel\0", 7, nul, sizeof nul);
  assert_null(spvi_load_source(nul, NULL, NULL, &err));
  assert_int_equal(err.status, SPVI_E_MODULE);
  assert_non_null(strstr(err.message, "has a NUL byte at offset 6"));
  assert_null(spvi_load_source("/nonexistent/k.cl", NULL, NULL, &err));
  assert_int_equal(err.status, SPVI_E_IO);
  assert_string_equal(err.message, "cannot read `/nonexistent/k.cl`: No such file or directory");
}

static int setup(void **state) {
  (void)state;
  snprintf(dir, sizeof dir, "/tmp/spvi-load-source.XXXXXX");
  return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  static const char *const names[] = {"value.h", "k.cl", "bad.cl", "m.spv", "nul.cl"};
  char p[128];
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    snprintf(p, sizeof p, "%s/%s", dir, names[i]);
    unlink(p);
  }
  return rmdir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_source_with_include),
    cmocka_unit_test(test_compile_error),
    cmocka_unit_test(test_refusals),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
