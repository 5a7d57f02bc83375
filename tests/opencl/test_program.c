/*
 * test_program.c — OpenCL programs through the ICD loader (opencl/cl_program.c): builds from
 * source (options, errors with their log), from SPIR-V (IL, specialization constants), binaries
 * and their round trip, clCompileProgram/clLinkProgram (headers, libraries, link errors), the
 * program queries and the error codes of OpenCL 3.0 API 5.8.
 *
 * Expected values come from the spec or from plain C; IL modules are made at test time with
 * clang-14/llvm-spirv-14 or spirv-as (the tests that need them are skipped without the tools).
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS /* clSetProgramReleaseCallback */
#include "cltest.h"

/* The group's objects (cltest_group_setup). */
#define platform cltest.platform
#define device cltest.device
#define ctx cltest.context
#define queue cltest.queue

/* ---- helpers ------------------------------------------------------------------------------ */

static cl_program source_program(const char *src) {
  cl_int e;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  return p;
}

static cl_program built(const char *src, const char *options) { return cltest_build(ctx, device, src, options); }

static char *build_log(cl_program p) {
  size_t n = 0;
  assert_int_equal(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n), CL_SUCCESS);
  char *log = malloc(n);
  assert_int_equal(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, n, log, NULL), CL_SUCCESS);
  assert_int_equal(log[n - 1], 0);
  return log;
}

static cl_program_binary_type binary_type(cl_program p) {
  cl_program_binary_type t = 12345;
  assert_int_equal(clGetProgramBuildInfo(p, device, CL_PROGRAM_BINARY_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
  return t;
}

static cl_build_status build_status(cl_program p) {
  cl_build_status s = 12345;
  assert_int_equal(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof s, &s, NULL), CL_SUCCESS);
  return s;
}

/* Runs kernel `name` of p with one int buffer argument of n elements over n work-items; the
 * buffer's contents after the run are returned in out. */
static void run_int_kernel(cl_program p, const char *name, size_t n, cl_int *out) {
  cl_int e;
  cl_kernel k = clCreateKernel(p, name, &e);
  assert_int_equal(e, CL_SUCCESS);
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(cl_int), NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(clEnqueueFillBuffer(queue, m, &(cl_int){0}, sizeof(cl_int), 0, n * sizeof(cl_int), 0, NULL, NULL),
                   CL_SUCCESS);
  assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, n * sizeof(cl_int), out, 0, NULL, NULL), CL_SUCCESS);
  clReleaseMemObject(m);
  clReleaseKernel(k);
}

static unsigned char *binary_of(cl_program p, size_t *size) {
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL), CL_SUCCESS);
  assert_true(*size > 0);
  unsigned char *bin = malloc(*size);
  unsigned char *bins[1] = {bin};
  size_t ret = 0;
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARIES, 0, NULL, &ret), CL_SUCCESS);
  assert_int_equal(ret, sizeof bins);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL), CL_SUCCESS);
  return bin;
}

static bool have_tool(const char *tool) {
  char cmd[256];
  snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
  return system(cmd) == 0;
}

/* SPIR-V that shell command `cmd` (run in a fresh directory holding `text` as file `name`)
 * writes to k.spv there; NULL when the command fails. */
static void *spirv_by(const char *text, const char *name, const char *cmd_fmt, size_t *len) {
  char dir[] = "/tmp/spvi-test-program-XXXXXX";
  if (!mkdtemp(dir)) return NULL;
  char path[300], cmd[1200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
  snprintf(cmd, sizeof cmd, cmd_fmt, dir);
  void *spv = NULL;
  if (system(cmd) == 0) {
    snprintf(path, sizeof path, "%s/k.spv", dir);
    spv = cltest_read_file(path, len);
  }
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
  return spv;
}

/* SPIR-V of OpenCL C `src` made with clang-14 and llvm-spirv-14 (NULL without them). */
static void *spirv_of_source(const char *src, size_t *len) {
  if (!have_tool("clang-14") || !have_tool("llvm-spirv-14")) return NULL;
  return spirv_by(src, "k.cl",
                  "cd %s && clang-14 -cc1 -triple spir64 -cl-std=CL2.0 -finclude-default-header -O2 -emit-llvm-bc "
                  "-o k.bc k.cl && llvm-spirv-14 k.bc -o k.spv",
                  len);
}

/* SPIR-V assembled from text with spirv-as (NULL without it). */
static void *spirv_of_asm(const char *text, size_t *len) {
  if (!have_tool("spirv-as")) return NULL;
  return spirv_by(text, "k.spvasm", "cd %s && spirv-as --target-env spv1.2 k.spvasm -o k.spv", len);
}

/* ---- source builds ------------------------------------------------------------------------ */

static const char *defines_src =
  "kernel void first(global int *out) { out[get_global_id(0)] = VALUE + (int)get_global_id(0); }\n"
  "kernel void second(global int *out) {\n"
  "#ifdef TWICE\n"
  "  out[get_global_id(0)] = 2 * VALUE;\n"
  "#else\n"
  "  out[get_global_id(0)] = -1;\n"
  "#endif\n"
  "}\n";

/* -D options reach the preprocessor; the queries describe the built program (API 5.8.9). */
static void test_source_build_defines(void **state) {
  (void)state;
  const char *opts = "-DVALUE=42 -D TWICE";
  cl_program p = source_program(defines_src);
  assert_int_equal(build_status(p), CL_BUILD_NONE);
  assert_int_equal(binary_type(p), CL_PROGRAM_BINARY_TYPE_NONE);
  size_t nk;
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL), CL_INVALID_PROGRAM_EXECUTABLE);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &nk), CL_INVALID_PROGRAM_EXECUTABLE);
  assert_int_equal(clBuildProgram(p, 1, &device, opts, NULL, NULL), CL_SUCCESS);
  assert_int_equal(build_status(p), CL_BUILD_SUCCESS);
  assert_int_equal(binary_type(p), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  char buf[256];
  assert_int_equal(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_OPTIONS, sizeof buf, buf, NULL), CL_SUCCESS);
  assert_string_equal(buf, opts);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL), CL_SUCCESS);
  assert_int_equal(nk, 2);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof buf, buf, NULL), CL_SUCCESS);
  assert_string_equal(buf, "first;second");
  cl_int out[8];
  run_int_kernel(p, "first", 8, out);
  for (int i = 0; i < 8; i++) assert_int_equal(out[i], 42 + i);
  run_int_kernel(p, "second", 8, out);
  for (int i = 0; i < 8; i++) assert_int_equal(out[i], 84);
  /* a rebuild with other options, once no kernel is left (CTS compiler/multiple_build_program) */
  assert_int_equal(clBuildProgram(p, 0, NULL, "-DVALUE=1", NULL, NULL), CL_SUCCESS);
  run_int_kernel(p, "second", 8, out);
  for (int i = 0; i < 8; i++) assert_int_equal(out[i], -1);
  clReleaseProgram(p);
}

static cl_build_status callback_status;
static int callback_calls;
static void CL_CALLBACK on_built(cl_program p, void *user) {
  assert_ptr_equal(user, &callback_calls);
  callback_status = build_status(p); /* queries work from the callback */
  callback_calls++;
}

/* A compile error: CL_BUILD_PROGRAM_FAILURE, status CL_BUILD_ERROR, the log names the line, the
 * callback still runs (API 5.8.3). */
static void test_build_error_log(void **state) {
  (void)state;
  cl_program p = source_program("kernel void k(global int *out) {\n"
                                "  out[0] = 1;\n"
                                "  out[1] = undeclared_thing;\n"
                                "}\n");
  callback_calls = 0;
  assert_int_equal(clBuildProgram(p, 1, &device, NULL, on_built, &callback_calls), CL_BUILD_PROGRAM_FAILURE);
  assert_int_equal(callback_calls, 1);
  assert_int_equal(callback_status, CL_BUILD_ERROR);
  assert_int_equal(build_status(p), CL_BUILD_ERROR);
  char *log = build_log(p);
  assert_non_null(strstr(log, ":3:"));
  assert_non_null(strstr(log, "undeclared_thing"));
  free(log);
  cl_int e;
  assert_null(clCreateKernel(p, "k", &e));
  assert_int_equal(e, CL_INVALID_PROGRAM_EXECUTABLE);
  /* the failed program still answers queries */
  size_t n;
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL), CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(p);
}

static void test_build_options_invalid(void **state) {
  (void)state;
  cl_program p = source_program("kernel void k(global int *o) { o[0] = 1; }");
  assert_int_equal(clBuildProgram(p, 1, &device, "-no-such-option", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
  assert_int_equal(clBuildProgram(p, 1, &device, "-cl-std=CL9.9", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
  /* and it builds afterwards with good ones */
  assert_int_equal(clBuildProgram(p, 1, &device, "-cl-opt-disable", NULL, NULL), CL_SUCCESS);
  assert_int_equal(clCompileProgram(p, 1, &device, "-bogus", 0, NULL, NULL, NULL, NULL), CL_INVALID_COMPILER_OPTIONS);
  clReleaseProgram(p);
}

/* ---- IL ----------------------------------------------------------------------------------- */

static const char *il_src =
  "kernel void twice(global int *out) { out[get_global_id(0)] = 2 * (int)get_global_id(0); }\n";

static void test_il_program(void **state) {
  (void)state;
  size_t len;
  void *spv = spirv_of_source(il_src, &len);
  if (!spv) skip();
  cl_int e;
  cl_program p = clCreateProgramWithIL(ctx, spv, len, &e);
  assert_int_equal(e, CL_SUCCESS);
  /* CL_PROGRAM_IL gives the IL back; CL_PROGRAM_SOURCE is empty */
  size_t n = 0;
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &n), CL_SUCCESS);
  assert_int_equal(n, len);
  void *back = malloc(n);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_IL, n, back, NULL), CL_SUCCESS);
  assert_memory_equal(back, spv, len);
  free(back);
  char src[8];
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof src, src, &n), CL_SUCCESS);
  assert_int_equal(n, 1);
  assert_int_equal(clBuildProgram(p, 1, &device, "-cl-kernel-arg-info -DUNUSED=1", NULL, NULL), CL_SUCCESS);
  cl_int out[16];
  run_int_kernel(p, "twice", 16, out);
  for (int i = 0; i < 16; i++) assert_int_equal(out[i], 2 * i);
  /* options of API 5.8.6 are checked for IL too */
  clReleaseProgram(p);
  p = clCreateProgramWithIL(ctx, spv, len, &e);
  assert_int_equal(clBuildProgram(p, 1, &device, "-no-such-option", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
  clReleaseProgram(p);
  /* not SPIR-V: CL_INVALID_VALUE */
  static const uint32_t junk[8] = {0xdeadbeef, 1, 2, 3, 4, 5, 6, 7};
  assert_null(clCreateProgramWithIL(ctx, junk, sizeof junk, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clCreateProgramWithIL(ctx, spv, len - 2, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clCreateProgramWithIL(ctx, NULL, len, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clCreateProgramWithIL(ctx, spv, 0, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  free(spv);
}

/* A kernel writing specialization constant 3 (uint, default 7) and 4 (bool, default false). */
static const char *spec_asm = "OpCapability Addresses\n"
                              "OpCapability Kernel\n"
                              "OpMemoryModel Physical64 OpenCL\n"
                              "OpEntryPoint Kernel %k \"spec\"\n"
                              "OpName %out \"out\"\n"
                              "OpDecorate %sc SpecId 3\n"
                              "OpDecorate %sb SpecId 4\n"
                              "%uint = OpTypeInt 32 0\n"
                              "%bool = OpTypeBool\n"
                              "%void = OpTypeVoid\n"
                              "%ptr = OpTypePointer CrossWorkgroup %uint\n"
                              "%fn = OpTypeFunction %void %ptr\n"
                              "%sc = OpSpecConstant %uint 7\n"
                              "%sb = OpSpecConstantFalse %bool\n"
                              "%u0 = OpConstant %uint 0\n"
                              "%u1 = OpConstant %uint 1\n"
                              "%k = OpFunction %void None %fn\n"
                              "%out = OpFunctionParameter %ptr\n"
                              "%entry = OpLabel\n"
                              "OpStore %out %sc Aligned 4\n"
                              "%p1 = OpInBoundsPtrAccessChain %ptr %out %u1\n"
                              "%b = OpSelect %uint %sb %u1 %u0\n"
                              "OpStore %p1 %b Aligned 4\n"
                              "OpReturn\n"
                              "OpFunctionEnd\n";

static void test_spec_constants(void **state) {
  (void)state;
  size_t len;
  void *spv = spirv_of_asm(spec_asm, &len);
  if (!spv) skip();
  cl_int e;
  cl_program p = clCreateProgramWithIL(ctx, spv, len, &e);
  assert_int_equal(e, CL_SUCCESS);
  cl_int out[2];
  assert_int_equal(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
  run_int_kernel(p, "spec", 2, out);
  assert_int_equal(out[0], 7);
  assert_int_equal(out[1], 0);
  /* API 5.8.2 errors: bad id, size not the constant's (1 for a bool), NULL value */
  cl_uint v = 99;
  cl_uchar t = 1;
  assert_int_equal(clSetProgramSpecializationConstant(p, 5, sizeof v, &v), CL_INVALID_SPEC_ID);
  assert_int_equal(clSetProgramSpecializationConstant(p, 3, 8, &v), CL_INVALID_VALUE);
  assert_int_equal(clSetProgramSpecializationConstant(p, 3, sizeof v, NULL), CL_INVALID_VALUE);
  assert_int_equal(clSetProgramSpecializationConstant(p, 4, sizeof(cl_uint), &v), CL_INVALID_VALUE);
  assert_int_equal(clSetProgramSpecializationConstant(p, 3, sizeof v, &v), CL_SUCCESS);
  assert_int_equal(clSetProgramSpecializationConstant(p, 4, 1, &t), CL_SUCCESS);
  assert_int_equal(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
  run_int_kernel(p, "spec", 2, out);
  assert_int_equal(out[0], 99);
  assert_int_equal(out[1], 1);
  clReleaseProgram(p);
  /* only IL programs have specialization constants */
  p = source_program("kernel void k(global int *o) { o[0] = 1; }");
  assert_int_equal(clSetProgramSpecializationConstant(p, 3, sizeof v, &v), CL_INVALID_PROGRAM);
  clReleaseProgram(p);
  free(spv);
}

/* ---- binaries ----------------------------------------------------------------------------- */

/* An executable's binary gives an executable again (CTS api/binary_create), with its options. */
static void test_binary_round_trip(void **state) {
  (void)state;
  cl_program p = built(defines_src, "-DVALUE=5 -DTWICE");
  size_t size;
  unsigned char *bin = binary_of(p, &size);
  const uint32_t magic = 0x07230203;
  assert_memory_equal(bin, &magic, 4); /* the binary is SPIR-V */
  cl_int e, status = 1;
  const unsigned char *bins[1] = {bin};
  cl_program q = clCreateProgramWithBinary(ctx, 1, &device, &size, bins, &status, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(status, CL_SUCCESS);
  assert_int_equal(binary_type(q), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  assert_int_equal(build_status(q), CL_BUILD_NONE);
  assert_null(clCreateKernel(q, "first", &e));
  assert_int_equal(e, CL_INVALID_PROGRAM_EXECUTABLE);
  assert_int_equal(clBuildProgram(q, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
  cl_int out[4];
  run_int_kernel(q, "second", 4, out);
  for (int i = 0; i < 4; i++) assert_int_equal(out[i], 10);
  /* the binary of the rebuilt program round-trips too, without binary_status */
  size_t size2;
  unsigned char *bin2 = binary_of(q, &size2);
  bins[0] = bin2;
  cl_program r = clCreateProgramWithBinary(ctx, 1, &device, &size2, bins, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(clBuildProgram(r, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
  run_int_kernel(r, "first", 4, out);
  for (int i = 0; i < 4; i++) assert_int_equal(out[i], 5 + i);
  /* a binary program cannot be compiled (it has no source or IL) */
  assert_int_equal(clCompileProgram(r, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
  clReleaseProgram(r);
  clReleaseProgram(q);
  clReleaseProgram(p);
  free(bin2);

  /* bad binaries: CL_INVALID_BINARY with its status; bad arguments: CL_INVALID_VALUE */
  static const unsigned char junk[16] = "not a binary!!!";
  size_t jsize = sizeof junk;
  bins[0] = junk;
  status = 0;
  assert_null(clCreateProgramWithBinary(ctx, 1, &device, &jsize, bins, &status, &e));
  assert_int_equal(e, CL_INVALID_BINARY);
  assert_int_equal(status, CL_INVALID_BINARY);
  size_t zero = 0;
  bins[0] = bin;
  assert_null(clCreateProgramWithBinary(ctx, 1, &device, &zero, bins, &status, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_int_equal(status, CL_INVALID_VALUE);
  assert_null(clCreateProgramWithBinary(ctx, 1, &device, NULL, bins, NULL, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clCreateProgramWithBinary(ctx, 0, &device, &size, bins, NULL, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  cl_device_id bogus = (cl_device_id)&e;
  assert_null(clCreateProgramWithBinary(ctx, 1, &bogus, &size, bins, NULL, &e));
  assert_int_equal(e, CL_INVALID_DEVICE);
  assert_null(clCreateProgramWithBinary(NULL, 1, &device, &size, bins, NULL, &e));
  assert_int_equal(e, CL_INVALID_CONTEXT);
  free(bin);
}

/* ---- compile and link --------------------------------------------------------------------- */

static const char *user_src =
  "int helper(int x);\n"
  "kernel void use(global int *out) { int i = (int)get_global_id(0); out[i] = helper(i) + HV; }\n";
static const char *helper_src = "int helper(int x) { return 3 * x; }\n";

/* Two files with an extern function, an input header, a library; the binary types of each step
 * (CTS compiler/program_binary_type). */
static void test_compile_link(void **state) {
  (void)state;
  cl_program hdr = source_program("#define HV 100\n");
  char *full = malloc(strlen(user_src) + 64);
  sprintf(full, "#include \"inc/values.h\"\n%s", user_src);
  cl_program user = source_program(full);
  free(full);
  const char *names[1] = {"inc/values.h"};
  callback_calls = 0;
  assert_int_equal(clCompileProgram(user, 1, &device, NULL, 1, &hdr, names, on_built, &callback_calls), CL_SUCCESS);
  assert_int_equal(callback_calls, 1);
  assert_int_equal(callback_status, CL_BUILD_SUCCESS);
  assert_int_equal(binary_type(user), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  size_t n;
  assert_int_equal(clGetProgramInfo(user, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL), CL_INVALID_PROGRAM_EXECUTABLE);
  cl_program helper = source_program(helper_src);
  assert_int_equal(clCompileProgram(helper, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);

  /* object + object -> executable */
  cl_int e;
  cl_program both[2] = {user, helper};
  cl_program exe = clLinkProgram(ctx, 1, &device, NULL, 2, both, NULL, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(binary_type(exe), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  assert_int_equal(build_status(exe), CL_BUILD_SUCCESS);
  cl_int out[8];
  run_int_kernel(exe, "use", 8, out);
  for (int i = 0; i < 8; i++) assert_int_equal(out[i], 3 * i + 100);
  /* a linked program cannot be built again (it has no source, IL or binary to build from) */
  assert_int_equal(clBuildProgram(exe, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
  clReleaseProgram(exe);

  /* helper -> library (whose binary round-trips as a library) -> linked with user */
  cl_program lib = clLinkProgram(ctx, 0, NULL, "-create-library", 1, &helper, NULL, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(binary_type(lib), CL_PROGRAM_BINARY_TYPE_LIBRARY);
  size_t size;
  unsigned char *bin = binary_of(lib, &size);
  const unsigned char *bins[1] = {bin};
  cl_program lib2 = clCreateProgramWithBinary(ctx, 1, &device, &size, bins, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(binary_type(lib2), CL_PROGRAM_BINARY_TYPE_LIBRARY);
  free(bin);
  /* and the compiled object's binary is a compiled object */
  bin = binary_of(user, &size);
  bins[0] = bin;
  cl_program user2 = clCreateProgramWithBinary(ctx, 1, &device, &size, bins, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(binary_type(user2), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  free(bin);
  cl_program parts[2] = {user2, lib2};
  exe = clLinkProgram(ctx, 1, &device, "", 2, parts, NULL, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  run_int_kernel(exe, "use", 8, out);
  for (int i = 0; i < 8; i++) assert_int_equal(out[i], 3 * i + 100);
  clReleaseProgram(exe);

  /* a missing function: CL_LINK_PROGRAM_FAILURE, and still a program with a log (API 5.8.5) */
  cl_program failed = clLinkProgram(ctx, 1, &device, NULL, 1, &user, NULL, NULL, &e);
  assert_int_equal(e, CL_LINK_PROGRAM_FAILURE);
  assert_non_null(failed);
  assert_int_equal(build_status(failed), CL_BUILD_ERROR);
  char *log = build_log(failed);
  assert_true(strlen(log) > 0);
  free(log);
  clReleaseProgram(failed);

  /* errors: bad options, no inputs, an input that is not compiled, a bad program */
  assert_null(clLinkProgram(ctx, 1, &device, "-no-such-link-option", 2, both, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_LINKER_OPTIONS);
  assert_null(clLinkProgram(ctx, 1, &device, NULL, 0, both, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clLinkProgram(ctx, 1, &device, NULL, 1, NULL, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clLinkProgram(ctx, 1, &device, NULL, 1, &hdr, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_OPERATION);
  cl_program nothing = NULL;
  assert_null(clLinkProgram(ctx, 1, &device, NULL, 1, &nothing, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_PROGRAM);
  assert_null(clLinkProgram(NULL, 1, &device, NULL, 2, both, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_CONTEXT);
  assert_null(clLinkProgram(ctx, 1, &device, NULL, 2, both, NULL, &e, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  /* headers and names come together (API 5.8.4) */
  assert_int_equal(clCompileProgram(helper, 0, NULL, NULL, 1, NULL, names, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clCompileProgram(helper, 0, NULL, NULL, 0, &hdr, NULL, NULL, NULL), CL_INVALID_VALUE);
  /* a compile error */
  cl_program bad = source_program("int f(void) { return nope; }\n");
  assert_int_equal(clCompileProgram(bad, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_COMPILE_PROGRAM_FAILURE);
  assert_int_equal(build_status(bad), CL_BUILD_ERROR);
  clReleaseProgram(bad);

  clReleaseProgram(user2);
  clReleaseProgram(lib2);
  clReleaseProgram(lib);
  clReleaseProgram(helper);
  clReleaseProgram(user);
  clReleaseProgram(hdr);
}

/* ---- LinkOnceODR (cl_khr_spirv_linkonce_odr) ---------------------------------------------- */

#define LO_HEAD                                                                             \
  "OpCapability Addresses\nOpCapability Linkage\nOpCapability Kernel\nOpCapability Int64\n" \
  "OpExtension \"SPV_KHR_linkonce_odr\"\nOpMemoryModel Physical64 OpenCL\n"
#define LO_TYPES                                                                           \
  "%uint = OpTypeInt 32 0\n%ulong = OpTypeInt 64 0\n%void = OpTypeVoid\n"                  \
  "%ptr = OpTypePointer CrossWorkgroup %uint\n%fn = OpTypeFunction %uint %uint\n"          \
  "%kfn = OpTypeFunction %void %ptr\n%u3 = OpConstant %uint 3\n%u7 = OpConstant %uint 7\n" \
  "%u42 = OpConstant %uint 42\n%u100 = OpConstant %uint 100\n%g = OpVariable %ptr CrossWorkgroup %u7\n"
/* f(x) = 3x: both modules define it (LinkOnceODR, the same body, as the ODR requires) */
#define LO_F                                                                         \
  "%f = OpFunction %uint None %fn\n%fx = OpFunctionParameter %uint\n%fl = OpLabel\n" \
  "%fr = OpIMul %uint %fx %u3\nOpReturnValue %fr\nOpFunctionEnd\n"

/* Defines f, h(x) = x + 100 and the variable g (initializer 7), all LinkOnceODR; kernel `set`
 * writes g's value to out[0], then 42 into g. */
static const char *lo_a = LO_HEAD "OpEntryPoint Kernel %set \"set\"\n"
                                  "OpDecorate %f LinkageAttributes \"f\" LinkOnceODR\n"
                                  "OpDecorate %h LinkageAttributes \"h\" LinkOnceODR\n"
                                  "OpDecorate %g LinkageAttributes \"g\" LinkOnceODR\n" LO_TYPES LO_F
                                  "%h = OpFunction %uint None %fn\n%hx = OpFunctionParameter %uint\n"
                                  "%hl = OpLabel\n%hr = OpIAdd %uint %hx %u100\nOpReturnValue %hr\n"
                                  "OpFunctionEnd\n"
                                  "%set = OpFunction %void None %kfn\n%so = OpFunctionParameter %ptr\n"
                                  "%sl = OpLabel\n%old = OpLoad %uint %g Aligned 4\nOpStore %so %old Aligned 4\n"
                                  "OpStore %g %u42 Aligned 4\nOpReturn\nOpFunctionEnd\n";

/* Defines f and g too, imports h; kernel `use`: out[i] = f(i) + h(i); kernel `get`: out[0] = g. */
static const char *lo_b = LO_HEAD
  "OpEntryPoint Kernel %use \"use\" %gid\nOpEntryPoint Kernel %get \"get\"\n"
  "OpDecorate %gid BuiltIn GlobalInvocationId\n"
  "OpDecorate %f LinkageAttributes \"f\" LinkOnceODR\n"
  "OpDecorate %h LinkageAttributes \"h\" Import\n"
  "OpDecorate %g LinkageAttributes \"g\" LinkOnceODR\n" LO_TYPES
  "%v3 = OpTypeVector %ulong 3\n%pin = OpTypePointer Input %v3\n%gid = OpVariable %pin Input\n"
  "%h = OpFunction %uint None %fn\n%hx = OpFunctionParameter %uint\nOpFunctionEnd\n" LO_F
  "%use = OpFunction %void None %kfn\n%out = OpFunctionParameter %ptr\n%l = OpLabel\n"
  "%v = OpLoad %v3 %gid\n%id = OpCompositeExtract %ulong %v 0\n%i = OpUConvert %uint %id\n"
  "%a = OpFunctionCall %uint %f %i\n%b = OpFunctionCall %uint %h %i\n%s = OpIAdd %uint %a %b\n"
  "%p = OpInBoundsPtrAccessChain %ptr %out %id\nOpStore %p %s Aligned 4\nOpReturn\nOpFunctionEnd\n"
  "%get = OpFunction %void None %kfn\n%go = OpFunctionParameter %ptr\n%gl = OpLabel\n"
  "%gv = OpLoad %uint %g Aligned 4\nOpStore %go %gv Aligned 4\nOpReturn\nOpFunctionEnd\n";

static cl_program compiled_il(const void *spv, size_t len) {
  cl_int e;
  cl_program p = clCreateProgramWithIL(ctx, spv, len, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(clCompileProgram(p, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
  return p;
}

/* The linked program of a and b: h resolves to a's LinkOnceODR definition, the two f are one, and
 * the two g are one variable: `set` sees the initializer 7 and writes 42, which `get` reads. */
static void check_linkonce(cl_program a, cl_program b, const char *options) {
  cl_int e;
  cl_program both[2] = {a, b};
  cl_program exe = clLinkProgram(ctx, 1, &device, options, 2, both, NULL, NULL, &e);
  if (e != CL_SUCCESS) {
    char *log = build_log(exe);
    fprintf(stderr, "link log: %s\n", log);
    free(log);
  }
  assert_int_equal(e, CL_SUCCESS);
  cl_int out[8];
  run_int_kernel(exe, "use", 8, out);
  for (int i = 0; i < 8; i++) assert_int_equal(out[i], 3 * i + i + 100);
  run_int_kernel(exe, "set", 1, out);
  assert_int_equal(out[0], 7);
  run_int_kernel(exe, "get", 1, out);
  assert_int_equal(out[0], 42);
  clReleaseProgram(exe);
}

/* OpenCL SPIR-V environment, cl_khr_spirv_linkonce_odr: LinkOnceODR definitions are accepted and
 * linked (one per name), in either input order and through a library. */
static void test_linkonce_odr(void **state) {
  (void)state;
  char ext[4096];
  assert_int_equal(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL), CL_SUCCESS);
  assert_non_null(strstr(ext, "cl_khr_spirv_linkonce_odr"));
  size_t la, lb;
  void *sa = spirv_of_asm(lo_a, &la), *sb = spirv_of_asm(lo_b, &lb);
  if (!sa || !sb) skip();
  cl_program a = compiled_il(sa, la), b = compiled_il(sb, lb);
  check_linkonce(a, b, NULL);
  check_linkonce(b, a, NULL);
  cl_int e;
  cl_program lib = clLinkProgram(ctx, 0, NULL, "-create-library", 1, &a, NULL, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  check_linkonce(lib, b, "");
  clReleaseProgram(lib);
  clReleaseProgram(a);
  clReleaseProgram(b);
  free(sa);
  free(sb);
}

/* ---- queries and errors ------------------------------------------------------------------- */

static void test_program_info(void **state) {
  (void)state;
  const char *src = "kernel void k(global int *o) { o[0] = 1; }";
  cl_program p = source_program(src);
  cl_uint u;
  cl_context c;
  cl_device_id d;
  size_t n;
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof u, &u, NULL), CL_SUCCESS);
  assert_int_equal(u, 1);
  assert_int_equal(clRetainProgram(p), CL_SUCCESS);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof u, &u, NULL), CL_SUCCESS);
  assert_int_equal(u, 2);
  assert_int_equal(clReleaseProgram(p), CL_SUCCESS);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_CONTEXT, sizeof c, &c, &n), CL_SUCCESS);
  assert_ptr_equal(c, ctx);
  assert_int_equal(n, sizeof c);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof u, &u, NULL), CL_SUCCESS);
  assert_int_equal(u, 1);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_DEVICES, sizeof d, &d, NULL), CL_SUCCESS);
  assert_ptr_equal(d, device);
  char buf[128];
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof buf, buf, &n), CL_SUCCESS);
  assert_string_equal(buf, src);
  assert_int_equal(n, strlen(src) + 1);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &n), CL_SUCCESS);
  assert_int_equal(n, 0);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof n, &n, NULL), CL_SUCCESS);
  assert_int_equal(n, 0);
  /* param_value_size too small, unknown names */
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_SOURCE, 4, buf, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, 1, &u, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetProgramInfo(p, 0x7777, sizeof buf, buf, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetProgramBuildInfo(p, device, 0x7777, sizeof buf, buf, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetProgramBuildInfo(p, (cl_device_id)&u, CL_PROGRAM_BUILD_STATUS, sizeof u, &u, NULL),
                   CL_INVALID_DEVICE);
  assert_int_equal(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof buf, buf, &n), CL_SUCCESS);
  assert_int_equal(n, 1); /* no build yet: "" */
  assert_int_equal(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
  cl_bool b = CL_TRUE;
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof b, &b, NULL), CL_SUCCESS);
  assert_int_equal(b, CL_FALSE);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, sizeof b, &b, NULL), CL_SUCCESS);
  assert_int_equal(b, CL_FALSE);
  assert_int_equal(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, sizeof n, &n, NULL),
                   CL_SUCCESS);
  assert_int_equal(n, 0);
  clReleaseProgram(p);
}

static void CL_CALLBACK release_cb(cl_program p, void *user) {
  (void)p;
  (void)user;
}

static void test_program_errors(void **state) {
  (void)state;
  cl_int e;
  const char *src = "kernel void k(global int *o) { o[0] = 1; }";
  /* creation */
  assert_null(clCreateProgramWithSource(NULL, 1, &src, NULL, &e));
  assert_int_equal(e, CL_INVALID_CONTEXT);
  assert_null(clCreateProgramWithSource(ctx, 0, &src, NULL, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clCreateProgramWithSource(ctx, 1, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  const char *with_null[2] = {src, NULL};
  assert_null(clCreateProgramWithSource(ctx, 2, with_null, NULL, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clCreateProgramWithBuiltInKernels(ctx, 1, &device, "anything", &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clCreateProgramWithBuiltInKernels(ctx, 0, NULL, "anything", &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  /* lengths: parts of strings, 0 for a whole nul-terminated one */
  const char *parts[2] = {"kernel void k(global int *o) { o[0] = 7; }XXXX", "/* tail */"};
  size_t lens[2] = {strlen(parts[0]) - 4, 0};
  cl_program p = clCreateProgramWithSource(ctx, 2, parts, lens, &e);
  assert_int_equal(e, CL_SUCCESS);
  char buf[128];
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof buf, buf, NULL), CL_SUCCESS);
  assert_string_equal(buf, "kernel void k(global int *o) { o[0] = 7; }/* tail */");

  /* build arguments (API 5.8.3) */
  assert_int_equal(clBuildProgram(p, 1, NULL, NULL, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clBuildProgram(p, 0, &device, NULL, NULL, NULL), CL_INVALID_VALUE);
  cl_device_id bogus = (cl_device_id)buf;
  assert_int_equal(clBuildProgram(p, 1, &bogus, NULL, NULL, NULL), CL_INVALID_DEVICE);
  assert_int_equal(clBuildProgram(p, 1, &device, NULL, NULL, buf), CL_INVALID_VALUE);
  assert_int_equal(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
  /* a rebuild while a kernel exists */
  cl_kernel k = clCreateKernel(p, "k", &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_INVALID_OPERATION);
  assert_int_equal(clCompileProgram(p, 1, &device, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
  clReleaseKernel(k);
  assert_int_equal(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
  /* release callbacks: no program-scope constructors/destructors on spvi (API 5.8.9) */
  assert_int_equal(clSetProgramReleaseCallback(p, release_cb, NULL), CL_INVALID_OPERATION);
  assert_int_equal(clSetProgramReleaseCallback(p, NULL, NULL), CL_INVALID_VALUE);

  /* NULL and released programs. A released program is only safe to pass through the ICD loader
   * (which reads the handle's dispatch table) while its memory lives: a kernel keeps it. */
  cl_kernel keeper = clCreateKernel(p, "k", &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(clReleaseProgram(p), CL_SUCCESS);
  cl_program gone = p;
  assert_int_equal(clRetainProgram(gone), CL_INVALID_PROGRAM);
  assert_int_equal(clReleaseProgram(gone), CL_INVALID_PROGRAM);
  assert_int_equal(clBuildProgram(gone, 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
  assert_int_equal(clCompileProgram(gone, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
  assert_int_equal(clGetProgramInfo(gone, CL_PROGRAM_SOURCE, sizeof buf, buf, NULL), CL_INVALID_PROGRAM);
  assert_int_equal(clGetProgramBuildInfo(gone, device, CL_PROGRAM_BUILD_LOG, sizeof buf, buf, NULL),
                   CL_INVALID_PROGRAM);
  assert_int_equal(clRetainProgram(NULL), CL_INVALID_PROGRAM);
  assert_int_equal(clReleaseProgram(NULL), CL_INVALID_PROGRAM);
  assert_int_equal(clGetProgramInfo(NULL, CL_PROGRAM_SOURCE, sizeof buf, buf, NULL), CL_INVALID_PROGRAM);
  assert_int_equal(clSetProgramSpecializationConstant(NULL, 0, 4, buf), CL_INVALID_PROGRAM);
  assert_int_equal(clSetProgramReleaseCallback(NULL, release_cb, NULL), CL_INVALID_PROGRAM);
  assert_null(clCreateKernel(gone, "k", &e));
  assert_int_equal(e, CL_INVALID_PROGRAM);
  /* the kernel still works with its released program */
  cl_program of = NULL;
  assert_int_equal(clGetKernelInfo(keeper, CL_KERNEL_PROGRAM, sizeof of, &of, NULL), CL_SUCCESS);
  assert_ptr_equal(of, gone);
  clReleaseKernel(keeper);
  /* a queue or a context is not a program */
  assert_int_equal(clRetainProgram((cl_program)queue), CL_INVALID_PROGRAM);
  assert_int_equal(clGetProgramInfo((cl_program)ctx, CL_PROGRAM_SOURCE, sizeof buf, buf, NULL), CL_INVALID_PROGRAM);
}

/* Program-scope variables keep their values from one launch to the next (OpenCL C 6.8), and
 * CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE counts them. */
static void test_program_scope_globals(void **state) {
  (void)state;
  cl_program p = built("global int counter = 10;\n"
                       "global float unused[4];\n"
                       "kernel void bump(global int *out) { out[0] = ++counter; }\n",
                       "-cl-std=CL2.0");
  size_t n = 0;
  assert_int_equal(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, sizeof n, &n, NULL),
                   CL_SUCCESS);
  assert_true(n >= sizeof(cl_int)); /* `unused` may be optimised away */
  cl_int out;
  run_int_kernel(p, "bump", 1, &out);
  assert_int_equal(out, 11);
  run_int_kernel(p, "bump", 1, &out);
  assert_int_equal(out, 12);
  /* several launches of one kernel object in a row see each other's increments */
  cl_int e;
  cl_kernel k = clCreateKernel(p, "bump", &e);
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_int), NULL, &e);
  clSetKernelArg(k, 0, sizeof m, &m);
  size_t one = 1;
  for (int i = 0; i < 5; i++)
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(out, 17);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* A launch enqueued before a rebuild runs the program it was enqueued with, even when it runs
 * after the rebuild (the kernel object is gone by then: API 5.8.3 allows the rebuild). */
static void test_rebuild_with_launch_in_flight(void **state) {
  (void)state;
  const char *src = "kernel void v(global int *o) { o[get_global_id(0)] = VALUE; }";
  cl_program p = built(src, "-DVALUE=1");
  cl_int e;
  cl_kernel k = clCreateKernel(p, "v", &e);
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * sizeof(cl_int), NULL, &e);
  clSetKernelArg(k, 0, sizeof m, &m);
  cl_event gate = clCreateUserEvent(ctx, &e), done;
  size_t g = 4;
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 1, &gate, &done), CL_SUCCESS);
  clReleaseKernel(k);
  assert_int_equal(clBuildProgram(p, 1, &device, "-DVALUE=2", NULL, NULL), CL_SUCCESS);
  clSetUserEventStatus(gate, CL_COMPLETE);
  assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
  cl_int out[4];
  assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
  for (int i = 0; i < 4; i++) assert_int_equal(out[i], 1);
  run_int_kernel(p, "v", 4, out);
  for (int i = 0; i < 4; i++) assert_int_equal(out[i], 2);
  clReleaseEvent(done);
  clReleaseEvent(gate);
  clReleaseMemObject(m);
  clReleaseProgram(p);
}

/* Failures are told to the context's pfn_notify; the callback may query the program. */
static cl_program notified_program;
static char notified[1024];
static cl_build_status notified_status;
static void CL_CALLBACK on_notify(const char *errinfo, const void *info, size_t cb, void *user) {
  (void)info;
  (void)cb;
  (void)user;
  snprintf(notified, sizeof notified, "%s", errinfo);
  if (notified_program)
    clGetProgramBuildInfo(notified_program, device, CL_PROGRAM_BUILD_STATUS, sizeof notified_status, &notified_status,
                          NULL);
}

static void test_notify(void **state) {
  (void)state;
  cl_int e;
  cl_context c = clCreateContext(NULL, 1, &device, on_notify, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  const char *src = "kernel void k(global int *o) {\n  o[0] = missing;\n}\n";
  cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
  notified_program = p;
  notified[0] = 0;
  assert_int_equal(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  assert_non_null(strstr(notified, "clBuildProgram"));
  assert_non_null(strstr(notified, "missing"));
  assert_int_equal(notified_status, CL_BUILD_ERROR);
  notified_program = NULL;
  clReleaseProgram(p);
  clReleaseContext(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_source_build_defines),
    cmocka_unit_test(test_build_error_log),
    cmocka_unit_test(test_build_options_invalid),
    cmocka_unit_test(test_il_program),
    cmocka_unit_test(test_spec_constants),
    cmocka_unit_test(test_binary_round_trip),
    cmocka_unit_test(test_compile_link),
    cmocka_unit_test(test_linkonce_odr),
    cmocka_unit_test(test_program_info),
    cmocka_unit_test(test_program_errors),
    cmocka_unit_test(test_program_scope_globals),
    cmocka_unit_test(test_rebuild_with_launch_in_flight),
    cmocka_unit_test(test_notify),
  };
  return cmocka_run_group_tests(tests, cltest_group_setup, cltest_group_teardown);
}
