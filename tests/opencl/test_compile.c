/*
 * test_compile.c — tests of compile/clc_compile.c (OpenCL C -> SPIR-V, SPIR-V linking).
 *
 *   make build/cltests/test_compile && build/cltests/test_compile
 *   (it links the compile layer's objects, compile/clc_compile.c and clc_cache.c, alone)
 *
 * Where the tests load a module with `spvi info` or run it with `spvi run`, the spvi command is
 * $SPVI, else $SPVI_BUILD/spvi (tests/opencl/run.sh sets it), build/spvi, spvi on the PATH;
 * without one those checks are skipped.
 *
 * The same binary is the driver of tests/opencl/compile_corpus.py:
 *   test_compile --compile FILE.cl [--options STR] [-o OUT.spv]
 *   test_compile --link OUT.spv [--options STR] IN.spv...
 * prints the build log on stderr, `optimized: 0|1` and `opt_level: N` on stdout, and exits
 * with the clc_* result (0 ok, 1 failed, 2 invalid options).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clc_cache.h"
#include "clc_compile.h"

/* ---------------------------------------------------------------------------------------- */
/* helpers                                                                                    */
/* ---------------------------------------------------------------------------------------- */

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  if (!buf) {
    fclose(f);
    return NULL;
  }
  for (;;) {
    if (n + 1 >= cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = nb;
    }
    size_t k = fread(buf + n, 1, cap - n - 1, f);
    if (k == 0) break;
    n += k;
  }
  fclose(f);
  buf[n] = 0;
  if (len) *len = n;
  return buf;
}

static bool spit(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, len, f) == len;
  return fclose(f) == 0 && ok;
}

static const char *spvi_command(void) {
  static char buf[4096];
  const char *e = getenv("SPVI");
  if (e && *e) return e;
  e = getenv("SPVI_BUILD"); /* tests/opencl/run.sh: the build directory */
  if (e && *e && strlen(e) < sizeof buf - 8) {
    snprintf(buf, sizeof buf, "%s/spvi", e);
    if (access(buf, X_OK) == 0) return buf;
  }
  if (access("build/spvi", X_OK) == 0) {
    if (!getcwd(buf, sizeof buf - 16)) return NULL;
    strcat(buf, "/build/spvi");
    return buf;
  }
  if (system("command -v spvi >/dev/null 2>&1") == 0) return "spvi";
  return NULL;
}

/* Runs a shell command line built from trusted test strings; returns its exit status and, when
 * out != NULL, its standard output (malloc'd). */
static int sh(char **out, const char *fmt, ...) {
  char cmd[8192], path[] = "/tmp/spvi-test-compile-XXXXXX";
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cmd, sizeof cmd, fmt, ap);
  va_end(ap);
  int fd = mkstemp(path);
  if (fd < 0) return -1;
  close(fd);
  char full[8400];
  snprintf(full, sizeof full, "%s > %s 2>&1", cmd, path);
  int st = system(full);
  if (out) *out = slurp(path, NULL);
  unlink(path);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Writes the module of r to a temporary file (path in buf). */
static void module_file(const clc_result *r, char *buf) {
  strcpy(buf, "/tmp/spvi-test-compile-XXXXXX");
  int fd = mkstemp(buf);
  assert_true(fd >= 0);
  close(fd);
  assert_true(spit(buf, r->spirv, r->bytes));
}

/* `spvi info` of r's module: its output (malloc'd), or NULL when there is no spvi. Fails the
 * test when spvi cannot load the module. */
static char *spvi_info(const clc_result *r) {
  const char *spvi = spvi_command();
  if (!spvi) return NULL;
  char f[64], *out = NULL;
  module_file(r, f);
  int st = sh(&out, "'%s' info %s", spvi, f);
  unlink(f);
  if (st != 0) fprintf(stderr, "spvi info failed:\n%s\n", out ? out : "");
  assert_int_equal(st, 0);
  return out;
}

/* `spvi run MODULE ARGS` of r's module (spvi_command() must exist): its output (malloc'd, stdout
 * and stderr); fails the test when the run fails. */
static char *spvi_run(const clc_result *r, const char *args) {
  char f[64], *out = NULL;
  module_file(r, f);
  int st = sh(&out, "'%s' run %s %s", spvi_command(), f, args);
  unlink(f);
  if (st != 0) fprintf(stderr, "spvi run: %s\n", out ? out : "");
  assert_int_equal(st, 0);
  assert_non_null(out);
  return out;
}

static void assert_compiles(const char *src, const char *options, clc_result *r) {
  int rc = clc_compile(src, options, NULL, 0, r);
  if (rc != CLC_OK) fprintf(stderr, "build log:\n%s\n", r->log);
  assert_int_equal(rc, CLC_OK);
  assert_non_null(r->spirv);
  assert_true(r->bytes >= 20 && r->bytes % 4 == 0);
  assert_int_equal(((const uint32_t *)r->spirv)[0], 0x07230203u);
  assert_non_null(r->log);
}

/* ---------------------------------------------------------------------------------------- */
/* tests                                                                                      */
/* ---------------------------------------------------------------------------------------- */

static const char vadd_src[] = "kernel void vadd(global const float *a, global const float *b, global float *c) {\n"
                               "  size_t i = get_global_id(0);\n"
                               "  c[i] = a[i] + b[i];\n"
                               "}\n";

static void test_simple_kernel_loads(void **state) {
  (void)state;
  clc_result r;
  assert_compiles(vadd_src, NULL, &r);
  assert_string_equal(r.log, "");
  assert_int_equal(r.cl_std, 120); /* no -cl-std: OpenCL C 1.2 */
  assert_true(r.optimized);
  assert_false(r.kernel_arg_info);
  char *info = spvi_info(&r);
  if (info) {
    assert_non_null(strstr(info, "kernel vadd (3 parameters)"));
    /* parameter names are always kept */
    assert_non_null(strstr(info, "float* c"));
  }
  free(info);
  clc_result_free(&r);
  assert_null(r.spirv);
  assert_null(r.log);
}

static void test_null_arguments(void **state) {
  (void)state;
  clc_result r;
  assert_int_equal(clc_compile(NULL, NULL, NULL, 0, &r), CLC_FAILED);
  assert_null(r.spirv);
  assert_non_null(strstr(r.log, "no source"));
  clc_result_free(&r);
  assert_int_equal(clc_compile(vadd_src, NULL, NULL, 0, NULL), CLC_FAILED);
  assert_int_equal(clc_compile(vadd_src, NULL, NULL, 2, &r), CLC_FAILED);
  assert_non_null(strstr(r.log, "headers"));
  clc_result_free(&r);
  assert_int_equal(clc_link(NULL, NULL, 0, NULL, &r), CLC_FAILED);
  assert_non_null(strstr(r.log, "no modules"));
  clc_result_free(&r);
  uint32_t junk[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const void *mods[1] = {junk};
  size_t sizes[1] = {sizeof junk};
  assert_int_equal(clc_link(mods, sizes, 1, NULL, &r), CLC_FAILED);
  assert_non_null(strstr(r.log, "not a SPIR-V module"));
  clc_result_free(&r);
  clc_result_free(NULL);
}

static void test_syntax_error_has_line(void **state) {
  (void)state;
  clc_result r;
  const char *src = "kernel void k(global int *p) {\n"
                    "  int x = 1;\n"
                    "  p[0] = x +;\n"
                    "}\n";
  assert_int_equal(clc_compile(src, NULL, NULL, 0, &r), CLC_FAILED);
  assert_null(r.spirv);
  assert_int_equal(r.bytes, 0);
  assert_non_null(strstr(r.log, "input.cl:3:"));
  assert_non_null(strstr(r.log, "error:"));
  /* no private path leaks into the log */
  assert_null(strstr(r.log, "spvi-clc-"));
  clc_result_free(&r);
}

static void test_warnings_and_werror(void **state) {
  (void)state;
  const char *src = "kernel void k(global int *p) { int x = 1.5e10f; p[0] = x; }\n";
  clc_result r;
  assert_compiles(src, NULL, &r);
  assert_non_null(strstr(r.log, "input.cl:1:"));
  assert_non_null(strstr(r.log, "warning:"));
  clc_result_free(&r);
  assert_compiles(src, "-w", &r);
  assert_string_equal(r.log, "");
  clc_result_free(&r);
  assert_int_equal(clc_compile(src, "-Werror", NULL, 0, &r), CLC_FAILED);
  assert_non_null(strstr(r.log, "error:"));
  clc_result_free(&r);
}

static void test_invalid_options(void **state) {
  (void)state;
  static const struct {
    const char *options, *named;
  } cases[] = {
    {"-cl-bogus", "-cl-bogus"},
    {"-O3", "-O3"},
    {"-cl-std=CL4.0", "-cl-std=CL4.0"},
    {"-cl-std=CL1.2 -fno-builtin", "-fno-builtin"},
    {"-D", "-D"},
    {"-I", "-I"},
    {"-x spir -spir-std=1.2", "-x spir"},
    {"-spir-std=1.2", "-spir-std=1.2"},
    {"-create-library", "-create-library"},
    {"-DX=\"unterminated", "quote"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    clc_result r;
    assert_int_equal(clc_compile(vadd_src, cases[i].options, NULL, 0, &r), CLC_INVALID_OPTIONS);
    assert_null(r.spirv);
    if (!strstr(r.log, cases[i].named)) fprintf(stderr, "options `%s`: log `%s`\n", cases[i].options, r.log);
    assert_non_null(strstr(r.log, cases[i].named));
    clc_result_free(&r);
  }
}

static void test_all_valid_options(void **state) {
  (void)state;
  clc_result r;
  assert_compiles(vadd_src,
                  "-cl-std=CL2.0 -cl-opt-disable -cl-fast-relaxed-math -cl-denorms-are-zero "
                  "-cl-mad-enable -cl-no-signed-zeros -cl-unsafe-math-optimizations "
                  "-cl-finite-math-only -cl-single-precision-constant "
                  "-cl-fp32-correctly-rounded-divide-sqrt -cl-uniform-work-group-size "
                  "-cl-no-subgroup-ifp -cl-kernel-arg-info -g -w -Werror -cl-strict-aliasing "
                  "-D A -DB=2 -D C=3 -I . -I/tmp",
                  &r);
  assert_int_equal(r.cl_std, 200);
  assert_true(r.denorms_are_zero);
  assert_true(r.kernel_arg_info);
  assert_true(r.uniform_work_group_size);
  assert_false(r.optimized); /* -cl-opt-disable */
  free(spvi_info(&r));
  clc_result_free(&r);
  static const struct {
    const char *opt;
    int v;
  } stds[] = {{"-cl-std=CL1.0", 100},
              {"-cl-std=CL1.1", 110},
              {"-cl-std=CL1.2", 120},
              {"-cl-std=CL2.0", 200},
              {"-cl-std=CL3.0", 300}};
  for (size_t i = 0; i < sizeof stds / sizeof *stds; i++) {
    const char *src = "kernel void k(global int *p) { p[0] = __OPENCL_C_VERSION__; }\n";
    assert_compiles(src, stds[i].opt, &r);
    assert_int_equal(r.cl_std, stds[i].v);
    clc_result_free(&r);
  }
}

static void test_defines(void **state) {
  (void)state;
  const char *src = "#if !defined(A) || B != 2 || C != 3\n#error defines missing\n#endif\n"
                    "#ifndef __FAST_RELAXED_MATH__\n#error __FAST_RELAXED_MATH__\n#endif\n"
                    "#if __OPENCL_VERSION__ != 300\n#error __OPENCL_VERSION__\n#endif\n"
                    "kernel void k(global int *p) { p[0] = STR[1] + B; }\n";
  clc_result r;
  assert_compiles(src, "-D A -DB=2 -D C=3 '-DSTR=\"a b\"' -cl-fast-relaxed-math", &r);
  clc_result_free(&r);
  assert_int_equal(clc_compile(src, "-DB=2 -DC=3", NULL, 0, &r), CLC_FAILED);
  assert_non_null(strstr(r.log, "defines missing"));
  assert_non_null(strstr(r.log, "input.cl:2:"));
  clc_result_free(&r);
}

/* The macros a kernel sees are exactly clc_features.h. */
static void test_extension_macros(void **state) {
  (void)state;
  clc_result r;
  const char *fp64 = "#ifndef cl_khr_fp64\n#error no cl_khr_fp64\n#endif\n"
                     "#ifndef cl_khr_fp16\n#error no cl_khr_fp16\n#endif\n"
                     "#ifndef cl_khr_subgroups\n#error no cl_khr_subgroups\n#endif\n"
                     "#ifdef cl_khr_gl_sharing\n#error cl_khr_gl_sharing\n#endif\n"
                     "#ifdef cl_khr_depth_images\n#error cl_khr_depth_images\n#endif\n"
                     "#ifdef cl_intel_subgroups\n#error cl_intel_subgroups\n#endif\n"
                     "#ifdef cl_khr_extended_bit_ops\n#error cl_khr_extended_bit_ops\n#endif\n"
                     "#ifdef cl_ext_float_atomics\n#error cl_ext_float_atomics\n#endif\n"
                     "#ifdef cl_amd_media_ops\n#error cl_amd_media_ops\n#endif\n"
                     "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                     "kernel void k(global double *p) {\n"
                     "  p[0] = sqrt(p[1]) + get_sub_group_size();\n"
                     "}\n";
  for (int v = 0; v < 4; v++) {
    static const char *const std[] = {"-cl-std=CL1.1", "", "-cl-std=CL2.0", "-cl-std=CL3.0"};
    assert_compiles(fp64, std[v], &r);
    free(spvi_info(&r));
    clc_result_free(&r);
  }
  /* a macro the user defines is the user's, even when it names an extension */
  assert_compiles("#ifndef cl_khr_gl_sharing\n#error gone\n#endif\nkernel void k() {}\n", "-D cl_khr_gl_sharing", &r);
  clc_result_free(&r);
  /* 1.x: no feature macros (except __opencl_c_int64, which clang-14 always defines) */
  const char *no_features = "#ifdef __opencl_c_generic_address_space\n#error generic\n#endif\n"
                            "#ifdef __opencl_c_fp64\n#error fp64\n#endif\n"
                            "kernel void k(global int *p) { p[0] = 1; }\n";
  assert_compiles(no_features, "-cl-std=CL1.2", &r);
  clc_result_free(&r);
  /* 3.0: the device's features, nothing else; their built-ins are declared */
  const char *features = "#if !defined(__opencl_c_generic_address_space) || !defined(__opencl_c_fp64) || "
                         "!defined(__opencl_c_subgroups) || !defined(__opencl_c_images) || "
                         "!defined(__opencl_c_int64) || !defined(__opencl_c_read_write_images) || "
                         "!defined(__opencl_c_3d_image_writes) || !defined(__opencl_c_atomic_order_seq_cst) || "
                         "!defined(__opencl_c_atomic_order_acq_rel) || !defined(__opencl_c_atomic_scope_device) || "
                         "!defined(__opencl_c_atomic_scope_all_devices) || "
                         "!defined(__opencl_c_program_scope_global_variables) || "
                         "!defined(__opencl_c_work_group_collective_functions)\n#error feature missing\n#endif\n"
                         "#if defined(__opencl_c_pipes) || defined(__opencl_c_device_enqueue) || "
                         "defined(__opencl_c_integer_dot_product_input_4x8bit) || "
                         "defined(__opencl_c_ext_fp32_global_atomic_add)\n#error feature not advertised\n#endif\n"
                         "global int counter = 0;\n"
                         "int twice(generic int *q) { return 2 * *q; }\n"
                         "kernel void k(global int *p) {\n"
                         "  local int l; l = 1; barrier(CLK_LOCAL_MEM_FENCE);\n"
                         "  p[0] = twice(p) + work_group_reduce_add(p[1]) + sub_group_reduce_add(l) + counter++;\n"
                         "  p[2] = (int)(p[3] * 0.5);\n"
                         "}\n";
  assert_compiles(features, "-cl-std=CL3.0", &r);
  free(spvi_info(&r));
  clc_result_free(&r);
}

static void test_headers_and_include_dirs(void **state) {
  (void)state;
  /* embedded headers, by name, also in subdirectories */
  clc_header h[2] = {{"my_header.h", "#define SCALE 3\n#include \"sub/inner.h\"\n"},
                     {"sub/inner.h", "int inner(int x) { return x + OFFSET; }\n"}};
  const char *src = "#include \"my_header.h\"\n"
                    "kernel void k(global int *p) { p[0] = inner(SCALE); }\n";
  clc_result r;
  int rc = clc_compile(src, "-DOFFSET=1", h, 2, &r);
  if (rc != CLC_OK) fprintf(stderr, "%s\n", r.log);
  assert_int_equal(rc, CLC_OK);
  clc_result_free(&r);
  /* an error in a header names the header and its line */
  clc_header bad = {"bad.h", "\n\nint f( { }\n"};
  assert_int_equal(clc_compile("#include \"bad.h\"\nkernel void k() {}\n", NULL, &bad, 1, &r), CLC_FAILED);
  assert_non_null(strstr(r.log, "bad.h:3:"));
  clc_result_free(&r);
  /* header names may not leave the private directory */
  clc_header evil = {"../evil.h", "int x;"};
  assert_int_equal(clc_compile(src, NULL, &evil, 1, &r), CLC_FAILED);
  assert_non_null(strstr(r.log, "invalid header name"));
  clc_result_free(&r);
  /* -I with a relative directory (relative to our working directory) */
  char dir[] = "/tmp/spvi-test-inc-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char hpath[128], cwd[4096];
  snprintf(hpath, sizeof hpath, "%s/sub", dir);
  assert_int_equal(mkdir(hpath, 0700), 0);
  snprintf(hpath, sizeof hpath, "%s/sub/inc_test.h", dir);
  assert_true(spit(hpath, "#define FROM_DIR 7\n", 19));
  assert_non_null(getcwd(cwd, sizeof cwd));
  assert_int_equal(chdir(dir), 0);
  const char *isrc = "#include \"inc_test.h\"\n#include <inc_test.h>\n"
                     "kernel void k(global int *p) { p[0] = FROM_DIR; }\n";
  rc = clc_compile(isrc, "-I sub", NULL, 0, &r);
  if (rc != CLC_OK) fprintf(stderr, "%s\n", r.log);
  assert_int_equal(rc, CLC_OK);
  clc_result_free(&r);
  rc = clc_compile(isrc, "-Isub", NULL, 0, &r);
  assert_int_equal(rc, CLC_OK);
  clc_result_free(&r);
  assert_int_equal(clc_compile(isrc, NULL, NULL, 0, &r), CLC_FAILED);
  assert_non_null(strstr(r.log, "inc_test.h"));
  clc_result_free(&r);
  assert_int_equal(chdir(cwd), 0);
  unlink(hpath);
  snprintf(hpath, sizeof hpath, "%s/sub", dir);
  rmdir(hpath);
  rmdir(dir);
}

/* clCompileProgram x 2 + clLinkProgram: a kernel in one module calls a function of the other. */
static void test_compile_and_link(void **state) {
  (void)state;
  const char *lib = "int helper(int x) { return 3 * x + 1; }\n"
                    "global int shared_counter = 5;\n";
  const char *main_src = "extern int helper(int x);\n"
                         "extern global int shared_counter;\n"
                         "kernel void use(global int *p) { p[get_global_id(0)] = "
                         "helper(p[get_global_id(0)]) + shared_counter; }\n";
  clc_result a, b, l, lib_r;
  assert_compiles(lib, "-cl-std=CL2.0", &a);
  assert_compiles(main_src, "-cl-std=CL2.0", &b);
  const void *mods[2] = {b.spirv, a.spirv};
  size_t sizes[2] = {b.bytes, a.bytes};
  /* a library keeps the unresolved import of `helper` (partial link) */
  int rc = clc_link(mods, sizes, 1, "-create-library", &lib_r);
  if (rc != CLC_OK) fprintf(stderr, "%s\n", lib_r.log);
  assert_int_equal(rc, CLC_OK);
  /* an executable may not */
  assert_int_equal(clc_link(mods, sizes, 1, NULL, &l), CLC_FAILED);
  assert_non_null(strstr(l.log, "Unresolved external reference"));
  clc_result_free(&l);
  /* library + the other module -> executable */
  const void *mods2[2] = {lib_r.spirv, a.spirv};
  size_t sizes2[2] = {lib_r.bytes, a.bytes};
  rc = clc_link(mods2, sizes2, 2, "-cl-denorms-are-zero", &l);
  if (rc != CLC_OK) fprintf(stderr, "%s\n", l.log);
  assert_int_equal(rc, CLC_OK);
  assert_true(l.denorms_are_zero);
  assert_int_equal(l.cl_std, 200);
  char *info = spvi_info(&l);
  if (info) {
    assert_non_null(strstr(info, "kernel use"));
    /* run it: p = {1, 2} -> {3*1+1+5, 3*2+1+5} */
    char *out = spvi_run(&l, "-k use -g 2 'int[2]=1,2' --print");
    assert_non_null(strstr(out, "9"));
    assert_non_null(strstr(out, "12"));
    free(out);
  }
  free(info);
  clc_result_free(&l);
  /* both sources directly */
  rc = clc_link(mods, sizes, 2, NULL, &l);
  assert_int_equal(rc, CLC_OK);
  clc_result_free(&l);
  /* link options */
  assert_int_equal(clc_link(mods, sizes, 2, "-enable-link-options", &l), CLC_INVALID_OPTIONS);
  assert_non_null(strstr(l.log, "-enable-link-options"));
  clc_result_free(&l);
  assert_int_equal(clc_link(mods, sizes, 2, "-cl-std=CL2.0", &l), CLC_INVALID_OPTIONS);
  assert_non_null(strstr(l.log, "-cl-std=CL2.0"));
  clc_result_free(&l);
  assert_int_equal(clc_link(mods, sizes, 2,
                            "-create-library -enable-link-options -cl-no-signed-zeros "
                            "-cl-unsafe-math-optimizations -cl-finite-math-only "
                            "-cl-fast-relaxed-math -cl-no-subgroup-ifp",
                            &l),
                   CLC_OK);
  clc_result_free(&l);
  clc_result_free(&lib_r);
  clc_result_free(&a);
  clc_result_free(&b);
}

/* clc_link of modules of different SPIR-V versions: the older one is raised to the newer's
 * version, and when that crosses 1.4 its entry points list the module-scope variables (SPIR-V
 * 1.6 §3.32.6 OpEntryPoint: from 1.4 the interface names every global variable the entry point's
 * call tree uses). The older module here is SPIR-V 1.0 assembled by spirv-as (llvm-spirv-14 itself
 * goes to 1.4 for a kernel that uses a program-scope variable): its kernel stores
 * twice_plus(bias) with `global int bias = 7`; twice_plus comes from a clc_compile'd module whose
 * `nsw` makes it 1.4. Expected: 2 * 7 + 1 = 15, and spvi loads the linked module without a
 * validation warning. */
static void test_link_raises_version(void **state) {
  (void)state;
  const char *spvi = spvi_command();
  if (!spvi || system("command -v spirv-as >/dev/null 2>&1") != 0) skip();
  static const char asm_src[] = "OpCapability Addresses\n"
                                "OpCapability Linkage\n"
                                "OpCapability Kernel\n"
                                "OpMemoryModel Physical64 OpenCL\n"
                                "OpEntryPoint Kernel %k \"k\"\n"
                                "OpDecorate %f LinkageAttributes \"twice_plus\" Import\n"
                                "%uint = OpTypeInt 32 0\n"
                                "%void = OpTypeVoid\n"
                                "%gptr = OpTypePointer CrossWorkgroup %uint\n"
                                "%kty = OpTypeFunction %void %gptr\n"
                                "%fty = OpTypeFunction %uint %uint\n"
                                "%c7 = OpConstant %uint 7\n"
                                "%bias = OpVariable %gptr CrossWorkgroup %c7\n"
                                "%f = OpFunction %uint None %fty\n"
                                "%x = OpFunctionParameter %uint\n"
                                "OpFunctionEnd\n"
                                "%k = OpFunction %void None %kty\n"
                                "%out = OpFunctionParameter %gptr\n"
                                "%e = OpLabel\n"
                                "%b = OpLoad %uint %bias\n"
                                "%r = OpFunctionCall %uint %f %b\n"
                                "OpStore %out %r\n"
                                "OpReturn\n"
                                "OpFunctionEnd\n";
  char as_path[] = "/tmp/spvi-test-compile-XXXXXX", spv_path[64];
  int fd = mkstemp(as_path);
  assert_true(fd >= 0);
  close(fd);
  assert_true(spit(as_path, asm_src, strlen(asm_src)));
  snprintf(spv_path, sizeof spv_path, "%s.spv", as_path);
  int st = sh(NULL, "spirv-as --target-env spv1.0 %s -o %s", as_path, spv_path);
  unlink(as_path);
  assert_int_equal(st, 0);
  size_t len = 0;
  char *old = slurp(spv_path, &len);
  unlink(spv_path);
  assert_non_null(old);
  clc_result lib, l;
  assert_compiles("int twice_plus(int x) { return 2 * x + 1; }\n", "-cl-std=CL3.0", &lib);
  const uint32_t *lw = lib.spirv, *ow = (const uint32_t *)(const void *)old;
  assert_int_equal(ow[1], 0x00010000u);
  assert_int_equal(lw[1], 0x00010400u); /* the premise: the versions differ across 1.4 */
  const void *mods[2] = {old, lib.spirv};
  size_t sizes[2] = {len, lib.bytes};
  int rc = clc_link(mods, sizes, 2, NULL, &l);
  if (rc != CLC_OK) fprintf(stderr, "%s\n", l.log);
  assert_int_equal(rc, CLC_OK);
  assert_int_equal(((const uint32_t *)l.spirv)[1], 0x00010400u);
  char *out = spvi_run(&l, "-k k -g 1 'int[1]' --print");
  assert_non_null(strstr(out, "int[1]: 15"));
  /* valid: no "validation: ... is not listed as an interface" warning */
  assert_null(strstr(out, "warning"));
  free(out);
  free(old);
  clc_result_free(&l);
  clc_result_free(&lib);
}

/* IR that llvm-spirv-14 refuses when made by LLVM's plain -O2: freeze, odd integer widths from
 * switch narrowing, vector reductions. The pipeline keeps these optimised. */
static void test_optimised_ir_is_translatable(void **state) {
  (void)state;
  static const char *const srcs[] = {
    /* switch on a narrowed value (i63 / i3 with LLVM's -O2) */
    "kernel void k(global long *p) {\n"
    "  long v = p[0] >> 1; long r;\n"
    "  switch (v) { case 2: case 4: r = 1; break; case 6: r = 5; break; default: r = 0; }\n"
    "  p[1] = r;\n"
    "}\n",
    /* vector select / min/max patterns that create freeze */
    "kernel void k(global int4 *p, global uint *q) {\n"
    "  int4 a = p[0], b = p[1];\n"
    "  p[2] = a > b ? a : b; p[3] = abs_diff(a, b) > 3 ? a : b;\n"
    "  q[0] = q[1] / q[2]; q[3] = q[1] % q[2];\n"
    "}\n",
    /* a reduction loop (the vectorizers would make llvm.vector.reduce.add) */
    "kernel void k(global int *p, int n) {\n"
    "  int s = 0; for (int i = 0; i < n; i++) s += p[i] * p[i];\n"
    "  p[n] = s;\n"
    "}\n",
  };
  for (size_t i = 0; i < sizeof srcs / sizeof *srcs; i++) {
    clc_result r;
    assert_compiles(srcs[i], NULL, &r);
    if (!r.optimized) fprintf(stderr, "source %zu not optimised:\n%s\n", i, r.log);
    assert_true(r.optimized);
    free(spvi_info(&r));
    clc_result_free(&r);
  }
}

/* Runs `src` built optimised and with -cl-opt-disable on the same arguments; the printed
 * buffers must be equal (and the optimised build must really be optimised). Returns the
 * output (malloc'd), NULL without spvi. */
static char *run_both_ways(const char *src, const char *args) {
  const char *spvi = spvi_command();
  if (!spvi) return NULL;
  char *outs[2];
  for (int o = 0; o < 2; o++) {
    clc_result r;
    assert_compiles(src, o ? "-cl-opt-disable" : "", &r);
    if (o == 0 && r.opt_level != 1) fprintf(stderr, "opt_level %d:\n%s\n", r.opt_level, r.log);
    assert_int_equal(r.opt_level, o ? 0 : 1);
    char f[64];
    module_file(&r, f);
    int st = sh(&outs[o], "'%s' run %s %s --print", spvi, f, args);
    if (st != 0) fprintf(stderr, "spvi run: %s\n", outs[o]);
    assert_int_equal(st, 0);
    unlink(f);
    clc_result_free(&r);
  }
  assert_string_equal(outs[0], outs[1]);
  free(outs[1]);
  return outs[0];
}

/* An optimised and an unoptimised build compute the same results. */
static void test_optimised_matches_unoptimised(void **state) {
  (void)state;
  const char *src = "kernel void k(global int *p) {\n"
                    "  int i = get_global_id(0); int v = p[i]; int r;\n"
                    "  switch (v & 7) { case 1: r = v * 3; break; case 2: case 5: r = -v; break;\n"
                    "    case 6: r = v / 3; break; default: r = v ^ 0x55; }\n"
                    "  p[i] = r + (v > 10 ? v % 7 : 1);\n"
                    "}\n";
  free(run_both_ways(src, "-g 12 'int[12]=0,1,2,3,4,5,6,7,13,14,-9,99'"));
}

/* Saturating arithmetic written out in C: InstCombine turns it into llvm.sadd.sat,
 * llvm.ssub.sat, llvm.usub.sat ..., which llvm-spirv-14 refuses; they are lowered back to plain
 * IR, so the build stays optimised and computes the same values. */
static void test_saturating_patterns(void **state) {
  (void)state;
  const char *src = "kernel void k(global int *a, global int *b, global int *o, global uint *u) {\n"
                    "  int i = get_global_id(0);\n"
                    "  long s = (long)a[i] + b[i];\n"
                    "  o[4*i] = s > INT_MAX ? INT_MAX : s < INT_MIN ? INT_MIN : (int)s;\n"
                    "  long t = (long)a[i] - b[i];\n"
                    "  o[4*i+1] = t > INT_MAX ? INT_MAX : t < INT_MIN ? INT_MIN : (int)t;\n"
                    "  uint p = a[i], q = b[i], r = p + q;\n"
                    "  o[4*i+2] = r < p ? 0xffffffffu : r;\n"
                    "  o[4*i+3] = p - q > p;\n"
                    "  u[i] = (p - q) > p ? 0 : p - q;\n"
                    "}\n";
  char *out = run_both_ways(src, "-g 64 'int[64]=random(1)' 'int[64]=random(2)' 'int[256]' "
                                 "'uint[64]'");
  if (out) assert_non_null(strstr(out, "2147483647")); /* some sums saturate */
  free(out);
}

/* get_global_id(3) is 0 and get_global_size(3) is 1; after unrolling, the constant dimension
 * would make llvm-spirv-14 emit an out-of-range OpCompositeExtract that spvi refuses. */
static void test_workitem_dimension_3(void **state) {
  (void)state;
  const char *src = "kernel void k(global uint *o) {\n"
                    "  if (get_global_id(0) == 1)\n"
                    "    for (int d = 0; d < 4; d++)\n"
                    "      o[d] = get_global_id(d) + 10 * get_global_size(d)\n"
                    "             + 100 * get_local_id(d)\n"
                    "             + 1000 * get_num_groups(d) + 10000 * get_local_size(d);\n"
                    "}\n";
  char *out = run_both_ways(src, "-g 2 -l 1 'uint[4]'");
  if (out) assert_non_null(strstr(out, "arg0 uint[4]: 12021 11010 11010 11010"));
  free(out);
}

/* atomic_compare_exchange on atomic_float / atomic_double: llvm-spirv-14 aborts on them; they go
 * through the integer built-ins on the same bits. */
static void test_float_compare_exchange(void **state) {
  (void)state;
  const char *src = "kernel void k(volatile global atomic_float *obj, global float *exp, global int *ok,\n"
                    "              volatile global atomic_double *dobj, global double *dexp) {\n"
                    "  float e = exp[0];\n"
                    "  ok[0] = atomic_compare_exchange_strong(obj, &e, 2.5f);\n"
                    "  float e2 = 100.0f;\n"
                    "  ok[1] = atomic_compare_exchange_weak_explicit(obj, &e2, 7.0f, memory_order_seq_cst,\n"
                    "                                                memory_order_relaxed);\n"
                    "  exp[1] = e2;\n"
                    "  double de = dexp[0];\n"
                    "  ok[2] = atomic_compare_exchange_strong_explicit(dobj, &de, -1.25, memory_order_acq_rel,\n"
                    "                                   memory_order_relaxed, memory_scope_device);\n"
                    "}\n";
  const char *spvi = spvi_command();
  for (int o = 0; o < 2; o++) {
    clc_result r;
    assert_compiles(src, o ? "-cl-std=CL2.0 -cl-opt-disable" : "-cl-std=CL2.0", &r);
    assert_int_equal(r.opt_level, o ? 0 : 1);
    if (spvi) {
      char f[64], *out = NULL;
      module_file(&r, f);
      int st = sh(&out,
                  "'%s' run %s -g 1 'float[1]=1.5' 'float[2]=1.5,0' 'int[3]' "
                  "'double[1]=0.75' 'double[1]=0.75' --print",
                  spvi, f);
      unlink(f);
      assert_int_equal(st, 0);
      /* first exchange succeeds (1.5 -> 2.5), the second fails and reads back 2.5 */
      assert_non_null(strstr(out, "arg0 float[1]: 2.5\n"));
      assert_non_null(strstr(out, "arg1 float[2]: 1.5 2.5\n"));
      assert_non_null(strstr(out, "arg2 int[3]: 1 0 1\n"));
      assert_non_null(strstr(out, "arg3 double[1]: -1.25\n"));
      free(out);
    }
    clc_result_free(&r);
  }
}

/* Inline assembly: a clear message (llvm-spirv-14 would crash on it). */
static void test_inline_asm_fails_cleanly(void **state) {
  (void)state;
  clc_result r;
  const char *src = "kernel void k(global int *p) { __asm__ volatile(\"\"); p[0] = 1; }\n";
  assert_int_equal(clc_compile(src, NULL, NULL, 0, &r), CLC_FAILED);
  assert_non_null(strstr(r.log, "inline assembly"));
  assert_null(r.spirv);
  clc_result_free(&r);
}

/* A pocl kernel (if the corpus is there) that needs the second optimisation level: GVN forwards
 * vector stores to scalar loads through an i128. */
static void test_level_2_kernel(void **state) {
  (void)state;
  const char *dir = "../shared/corpus/pocl/kernel";
  char path[256];
  snprintf(path, sizeof path, "%s/test_bitselect.cl", dir);
  char *src = slurp(path, NULL);
  if (!src) skip();
  char opts[300];
  snprintf(opts, sizeof opts, "-I %s", dir);
  clc_result r;
  int rc = clc_compile(src, opts, NULL, 0, &r);
  free(src);
  if (rc != CLC_OK) fprintf(stderr, "%s\n", r.log);
  assert_int_equal(rc, CLC_OK);
  assert_true(r.optimized);
  assert_int_equal(r.opt_level, 2);
  assert_string_equal(r.log, "");
  free(spvi_info(&r));
  clc_result_free(&r);
}

/* Many threads compiling at once (the CTS does): every build succeeds on its own source. */
#define THREADS 6
static void *compile_thread(void *arg) {
  intptr_t id = (intptr_t)arg;
  char src[256];
  snprintf(src, sizeof src, "kernel void k%d(global int *p) { p[0] = %d; }\n", (int)id, (int)id);
  for (int i = 0; i < 2; i++) {
    clc_result r;
    int rc = clc_compile(src, i ? "-cl-std=CL3.0" : NULL, NULL, 0, &r);
    bool ok = rc == CLC_OK && r.spirv && r.log && r.log[0] == 0;
    clc_result_free(&r);
    if (!ok) return (void *)1;
  }
  return NULL;
}

static void test_threads(void **state) {
  (void)state;
  pthread_t t[THREADS];
  for (intptr_t i = 0; i < THREADS; i++) assert_int_equal(pthread_create(&t[i], NULL, compile_thread, (void *)i), 0);
  for (int i = 0; i < THREADS; i++) {
    void *ret;
    assert_int_equal(pthread_join(t[i], &ret), 0);
    assert_null(ret);
  }
}

/* ---------------------------------------------------------------------------------------- */
/* the build cache (compile/clc_cache.c)                                                        */
/* ---------------------------------------------------------------------------------------- */

/* SHA-256 of the FIPS 180-4 examples (NIST's "SHA256.pdf" and "SHA2_Additional.pdf"). */
static void test_sha256_vectors(void **state) {
  (void)state;
  static const struct {
    const char *msg;
    size_t repeat;
    const char *hex;
  } v[] = {
    {"", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    {"abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    {"a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
  };
  for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
    clcache_sha256 s;
    clcache_sha256_init(&s);
    for (size_t k = 0; k < v[i].repeat; k++) clcache_sha256_add(&s, v[i].msg, strlen(v[i].msg));
    uint8_t out[CLCACHE_KEY];
    char hex[2 * CLCACHE_KEY + 1];
    clcache_sha256_final(&s, out);
    for (int k = 0; k < CLCACHE_KEY; k++) snprintf(hex + 2 * k, 3, "%02x", out[k]);
    assert_string_equal(hex, v[i].hex);
  }
}

/* The cache tests' setting: a private cache directory, and clang behind a wrapper that counts its
 * runs (so a hit is a build that did not run clang). */
typedef struct {
  char dir[64];    /* the temporary directory: cache/, bin/, inc/, clang-runs */
  char cache[96];  /* SPVI_CACHE_DIR */
  char runs[96];   /* one line per clang run */
  char *saved_bin; /* SPVI_LLVM_BIN before */
} cache_env;

static void cache_env_init(cache_env *e) {
  strcpy(e->dir, "/tmp/spvi-test-cache-XXXXXX");
  assert_non_null(mkdtemp(e->dir));
  snprintf(e->cache, sizeof e->cache, "%s/cache", e->dir);
  snprintf(e->runs, sizeof e->runs, "%s/clang-runs", e->dir);
  char path[160], script[512];
  snprintf(path, sizeof path, "%s/bin", e->dir);
  assert_int_equal(mkdir(path, 0700), 0);
  static const char *const tools[][2] = {{"clang", "/usr/lib/llvm-14/bin/clang"},
                                         {"opt", "/usr/lib/llvm-14/bin/opt"},
                                         {"llvm-spirv", "llvm-spirv-14"}};
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/bin/%s", e->dir, tools[i][0]);
    snprintf(script, sizeof script, "#!/bin/sh\n%s%s%sexec %s \"$@\"\n", i == 0 ? "echo run >> " : "",
             i == 0 ? e->runs : "", i == 0 ? "\n" : "", tools[i][1]);
    assert_true(spit(path, script, strlen(script)));
    assert_int_equal(chmod(path, 0700), 0);
  }
  const char *old = getenv("SPVI_LLVM_BIN");
  e->saved_bin = old ? strdup(old) : NULL;
  snprintf(path, sizeof path, "%s/bin", e->dir);
  setenv("SPVI_LLVM_BIN", path, 1);
  setenv("SPVI_CACHE_DIR", e->cache, 1);
  unsetenv("SPVI_CACHE");
  clcache_forget_memory();
}

static void cache_env_free(cache_env *e) {
  if (e->saved_bin) setenv("SPVI_LLVM_BIN", e->saved_bin, 1);
  else unsetenv("SPVI_LLVM_BIN");
  free(e->saved_bin);
  unsetenv("SPVI_CACHE_DIR");
  unsetenv("SPVI_CACHE");
  clcache_forget_memory();
  sh(NULL, "rm -rf '%s'", e->dir);
}

static int clang_runs(const cache_env *e) {
  char *t = slurp(e->runs, NULL);
  int n = 0;
  for (char *p = t; p && (p = strstr(p, "run")); p += 3) n++;
  free(t);
  return n;
}

/* The files under the cache directory whose name contains `part` (NULL: all); the last one's
 * path into last (may be NULL). */
static int cache_files(const cache_env *e, const char *part, char *last, size_t cap) {
  char *out = NULL;
  sh(&out, "if [ -d '%s' ]; then find '%s' -type f; fi", e->cache, e->cache);
  int n = 0;
  for (char *p = out, *nl; p && *p; p = nl + 1) {
    nl = strchr(p, '\n');
    if (!nl) break;
    *nl = 0;
    if (!part || strstr(p, part)) {
      n++;
      if (last) snprintf(last, cap, "%s", p);
    }
  }
  free(out);
  return n;
}

static void assert_same_result(const clc_result *a, const clc_result *b) {
  assert_int_equal(a->bytes, b->bytes);
  assert_memory_equal(a->spirv, b->spirv, a->bytes);
  assert_string_equal(a->log, b->log);
  assert_int_equal(a->optimized, b->optimized);
  assert_int_equal(a->opt_level, b->opt_level);
  assert_int_equal(a->cl_std, b->cl_std);
}

/* A warning in the log: a hit must give the same log as the build it stored. */
static const char cached_src[] = "kernel void k(global int *p) { int x = 1.5e10f; p[get_global_id(0)] = x; }\n";

/* A second build of the same source is served from memory, a third (memory forgotten, as in a
 * new process) from disk; the same module, log and flags each time. Other options miss. */
static void test_cache_hit(void **state) {
  (void)state;
  cache_env e;
  cache_env_init(&e);
  clc_result a, b, c, d;
  assert_compiles(cached_src, "-cl-std=CL2.0", &a);
  assert_non_null(strstr(a.log, "warning"));
  assert_int_equal(clang_runs(&e), 1);
  assert_int_equal(cache_files(&e, NULL, NULL, 0), 1);
  assert_compiles(cached_src, "-cl-std=CL2.0", &b);
  assert_int_equal(clang_runs(&e), 1);
  assert_same_result(&a, &b);
  clcache_forget_memory();
  assert_compiles(cached_src, "-cl-std=CL2.0", &c);
  assert_int_equal(clang_runs(&e), 1);
  assert_same_result(&a, &c);
  /* different options, different key */
  assert_compiles(cached_src, "-cl-std=CL2.0 -DX=1", &d);
  assert_int_equal(clang_runs(&e), 2);
  clc_result_free(&a);
  clc_result_free(&b);
  clc_result_free(&c);
  clc_result_free(&d);
  cache_env_free(&e);
}

static bool has_word(const clc_result *r, uint32_t v) {
  const uint32_t *w = r->spirv;
  for (size_t i = 5; i < r->bytes / 4; i++)
    if (w[i] == v) return true;
  return false;
}

/* A header found through -I is in the entry's dependency list: after it is edited the entry is
 * stale (in memory and on disk) and the build runs again with the new header. */
static void test_cache_edited_header(void **state) {
  (void)state;
  cache_env e;
  cache_env_init(&e);
  char inc[128], hdr[160], opts[200];
  snprintf(inc, sizeof inc, "%s/inc", e.dir);
  assert_int_equal(mkdir(inc, 0700), 0);
  snprintf(hdr, sizeof hdr, "%s/value.h", inc);
  snprintf(opts, sizeof opts, "-I %s", inc);
  const char *src = "#include \"value.h\"\nkernel void k(global int *p) { p[0] = VALUE; }\n";
  assert_true(spit(hdr, "#define VALUE 1111\n", 19));
  clc_result a, b, c;
  assert_compiles(src, opts, &a);
  assert_compiles(src, opts, &b);
  assert_int_equal(clang_runs(&e), 1);
  assert_same_result(&a, &b);
  assert_true(spit(hdr, "#define VALUE 2222\n", 19)); /* same size: only the contents tell */
  assert_compiles(src, opts, &c);
  assert_int_equal(clang_runs(&e), 2);
  /* the constant 2222 (0x8ae) is in the new module, not 1111 (0x457) */
  assert_true(has_word(&c, 2222));
  assert_false(has_word(&c, 1111));
  clc_result_free(&b);
  clcache_forget_memory(); /* and on disk: the rebuilt entry replaced the stale one */
  assert_compiles(src, opts, &b);
  assert_int_equal(clang_runs(&e), 2);
  assert_same_result(&b, &c);
  clc_result_free(&a);
  clc_result_free(&b);
  clc_result_free(&c);
  cache_env_free(&e);
}

/* A damaged entry (a flipped byte, a truncated file, garbage) is never trusted: the build runs
 * again, gives the right module and writes a good entry. */
static void test_cache_corrupt_entry(void **state) {
  (void)state;
  cache_env e;
  cache_env_init(&e);
  clc_result a, b;
  assert_compiles(cached_src, "-cl-std=CL2.0", &a);
  char path[256];
  assert_int_equal(cache_files(&e, NULL, path, sizeof path), 1);
  size_t len;
  char *good = slurp(path, &len);
  assert_non_null(good);
  for (int damage = 0; damage < 3; damage++) {
    char *bad = malloc(len);
    memcpy(bad, good, len);
    size_t n = len;
    if (damage == 0) bad[len / 2] ^= 1;
    else if (damage == 1) n = len - 7;
    else memset(bad, 'x', n = 40);
    assert_true(spit(path, bad, n));
    free(bad);
    clcache_forget_memory();
    int runs = clang_runs(&e);
    assert_compiles(cached_src, "-cl-std=CL2.0", &b);
    assert_int_equal(clang_runs(&e), runs + 1);
    assert_same_result(&a, &b);
    clc_result_free(&b);
    char *now = slurp(path, NULL);
    assert_memory_equal(now, good, len); /* rewritten */
    free(now);
  }
  free(good);
  clc_result_free(&a);
  cache_env_free(&e);
}

/* SPVI_CACHE=0: every build runs the compiler and nothing is written; `memory` writes nothing
 * to disk either. */
static void test_cache_disabled(void **state) {
  (void)state;
  cache_env e;
  cache_env_init(&e);
  clc_result a;
  setenv("SPVI_CACHE", "0", 1);
  for (int i = 1; i <= 2; i++) {
    assert_compiles(cached_src, "-cl-std=CL2.0", &a);
    assert_int_equal(clang_runs(&e), i);
    clc_result_free(&a);
  }
  assert_int_equal(cache_files(&e, NULL, NULL, 0), 0);
  setenv("SPVI_CACHE", "memory", 1);
  assert_compiles(cached_src, "-cl-std=CL2.0", &a);
  clc_result_free(&a);
  assert_compiles(cached_src, "-cl-std=CL2.0", &a);
  clc_result_free(&a);
  assert_int_equal(clang_runs(&e), 3);
  assert_int_equal(cache_files(&e, NULL, NULL, 0), 0);
  cache_env_free(&e);
}

/* Builds of one source from several threads of two processes at once, with an empty cache: every
 * result is the module built without the cache, and the directory ends with one entry and no
 * temporary file. */
#define CACHE_THREADS 4
static const clc_result *cache_expected;

static void *cached_build_thread(void *arg) {
  (void)arg;
  for (int i = 0; i < 3; i++) {
    clc_result r;
    if (clc_compile(cached_src, "-cl-std=CL2.0", NULL, 0, &r) != CLC_OK) return "build failed";
    bool same = r.bytes == cache_expected->bytes && memcmp(r.spirv, cache_expected->spirv, r.bytes) == 0 &&
                strcmp(r.log, cache_expected->log) == 0;
    clc_result_free(&r);
    if (!same) return "different result";
  }
  return NULL;
}

static void test_cache_concurrent(void **state) {
  (void)state;
  cache_env e;
  cache_env_init(&e);
  clc_result ref;
  setenv("SPVI_CACHE", "0", 1);
  assert_compiles(cached_src, "-cl-std=CL2.0", &ref);
  unsetenv("SPVI_CACHE");
  cache_expected = &ref;
  pid_t child = fork();
  assert_true(child >= 0);
  pthread_t t[CACHE_THREADS];
  bool ok = true;
  for (int i = 0; i < CACHE_THREADS; i++) assert_int_equal(pthread_create(&t[i], NULL, cached_build_thread, NULL), 0);
  for (int i = 0; i < CACHE_THREADS; i++) {
    void *ret;
    pthread_join(t[i], &ret);
    if (ret) {
      fprintf(stderr, "%s: %s\n", child ? "parent" : "child", (const char *)ret);
      ok = false;
    }
  }
  if (child == 0) _exit(ok ? 0 : 1);
  int st;
  assert_int_equal(waitpid(child, &st, 0), child);
  assert_true(ok);
  assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  assert_int_equal(cache_files(&e, NULL, NULL, 0), 1);
  assert_int_equal(cache_files(&e, ".tmp.", NULL, 0), 0);
  clc_result_free(&ref);
  cache_env_free(&e);
}

/* A compiler that crashes or is missing gives a failed build with a log, not a crash. */
static void test_compiler_crash_is_isolated(void **state) {
  (void)state;
  char dir[] = "/tmp/spvi-test-bin-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[128];
  snprintf(path, sizeof path, "%s/clang", dir);
  assert_true(spit(path, "#!/bin/sh\nkill -SEGV $$\n", 24));
  assert_int_equal(chmod(path, 0700), 0);
  const char *old = getenv("SPVI_LLVM_BIN");
  char *saved = old ? strdup(old) : NULL;
  setenv("SPVI_LLVM_BIN", dir, 1);
  clc_result r;
  assert_int_equal(clc_compile(vadd_src, NULL, NULL, 0, &r), CLC_FAILED);
  assert_non_null(strstr(r.log, "crashed"));
  clc_result_free(&r);
  /* a hang is killed after SPVI_COMPILE_TIMEOUT seconds */
  assert_true(spit(path, "#!/bin/sh\nexec sleep 30\n", 24));
  setenv("SPVI_COMPILE_TIMEOUT", "0.5", 1);
  assert_int_equal(clc_compile(vadd_src, NULL, NULL, 0, &r), CLC_FAILED);
  assert_non_null(strstr(r.log, "was killed"));
  clc_result_free(&r);
  unsetenv("SPVI_COMPILE_TIMEOUT");
  unlink(path);
  rmdir(dir);
  /* missing linker */
  setenv("SPVI_SPIRV_LINK", "/nonexistent/spirv-link", 1);
  assert_compiles(vadd_src, NULL, &r);
  clc_result l;
  const void *m[1] = {r.spirv};
  size_t s[1] = {r.bytes};
  assert_int_equal(clc_link(m, s, 1, NULL, &l), CLC_FAILED);
  /* "cannot run /nonexistent/spirv-link: No such file ..." (or, where exec failures show as
   * exit statuses, e.g. under valgrind, "spirv-link failed ...") */
  assert_non_null(strstr(l.log, "spirv-link"));
  clc_result_free(&l);
  clc_result_free(&r);
  unsetenv("SPVI_SPIRV_LINK");
  if (saved) setenv("SPVI_LLVM_BIN", saved, 1);
  else unsetenv("SPVI_LLVM_BIN");
  free(saved);
}

static void test_debug_info(void **state) {
  (void)state;
  clc_result r;
  assert_compiles(vadd_src, "-g", &r);
  free(spvi_info(&r));
  clc_result_free(&r);
  assert_compiles(vadd_src, "-g -cl-opt-disable", &r);
  free(spvi_info(&r));
  clc_result_free(&r);
}

/* ---------------------------------------------------------------------------------------- */
/* driver mode for tests/opencl/compile_corpus.py                                             */
/* ---------------------------------------------------------------------------------------- */

static int driver(int argc, char **argv) {
  const char *options = NULL, *out = NULL;
  const char *inputs[256];
  int ninputs = 0;
  bool link = strcmp(argv[1], "--link") == 0;
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "--options") == 0 && i + 1 < argc) options = argv[++i];
    else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out = argv[++i];
    else if (link && !out) out = argv[i];
    else if (ninputs < 256) inputs[ninputs++] = argv[i];
  }
  clc_result r;
  int rc;
  if (!link) {
    if (ninputs != 1) {
      fprintf(stderr, "usage: %s --compile FILE.cl [--options STR] [-o OUT.spv]\n", argv[0]);
      return 2;
    }
    char *src = slurp(inputs[0], NULL);
    if (!src) {
      fprintf(stderr, "%s: cannot read %s\n", argv[0], inputs[0]);
      return 1;
    }
    rc = clc_compile(src, options, NULL, 0, &r);
    free(src);
  } else {
    const void *mods[256] = {0};
    size_t sizes[256] = {0};
    for (int i = 0; i < ninputs; i++) {
      mods[i] = slurp(inputs[i], &sizes[i]);
      if (!mods[i]) {
        fprintf(stderr, "%s: cannot read %s\n", argv[0], inputs[i]);
        return 1;
      }
    }
    rc = clc_link(mods, sizes, (unsigned)ninputs, options, &r);
    for (int i = 0; i < ninputs; i++) free((void *)mods[i]);
  }
  fputs(r.log, stderr);
  printf("optimized: %d\nopt_level: %d\n", r.optimized ? 1 : 0, r.opt_level);
  if (rc == CLC_OK && out && !spit(out, r.spirv, r.bytes)) {
    fprintf(stderr, "%s: cannot write %s\n", argv[0], out);
    rc = 1;
  }
  clc_result_free(&r);
  return rc;
}

int main(int argc, char **argv) {
  if (argc > 1 && (strcmp(argv[1], "--compile") == 0 || strcmp(argv[1], "--link") == 0)) return driver(argc, argv);
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_simple_kernel_loads),
    cmocka_unit_test(test_null_arguments),
    cmocka_unit_test(test_syntax_error_has_line),
    cmocka_unit_test(test_warnings_and_werror),
    cmocka_unit_test(test_invalid_options),
    cmocka_unit_test(test_all_valid_options),
    cmocka_unit_test(test_defines),
    cmocka_unit_test(test_extension_macros),
    cmocka_unit_test(test_headers_and_include_dirs),
    cmocka_unit_test(test_compile_and_link),
    cmocka_unit_test(test_link_raises_version),
    cmocka_unit_test(test_optimised_ir_is_translatable),
    cmocka_unit_test(test_optimised_matches_unoptimised),
    cmocka_unit_test(test_saturating_patterns),
    cmocka_unit_test(test_workitem_dimension_3),
    cmocka_unit_test(test_level_2_kernel),
    cmocka_unit_test(test_float_compare_exchange),
    cmocka_unit_test(test_inline_asm_fails_cleanly),
    cmocka_unit_test(test_threads),
    cmocka_unit_test(test_compiler_crash_is_isolated),
    cmocka_unit_test(test_sha256_vectors),
    cmocka_unit_test(test_cache_hit),
    cmocka_unit_test(test_cache_edited_header),
    cmocka_unit_test(test_cache_corrupt_entry),
    cmocka_unit_test(test_cache_disabled),
    cmocka_unit_test(test_cache_concurrent),
    cmocka_unit_test(test_debug_info),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
