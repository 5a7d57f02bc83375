/*
 * test_build.c — OpenCL C programs whose results depend on how spvi's compiler driver
 * (compile/clc_compile.c) optimises and links them, through the ICD loader: sub-group built-ins in
 * both arms of a branch (the pipeline must not merge them, docs/compile.md "The pipeline") and
 * clLinkProgram of objects that llvm-spirv-14 wrote with different SPIR-V versions
 * (docs/compile.md "Linking").
 *
 * Expected values come from the OpenCL C spec's definition of each built-in, computed by hand
 * for the inputs given here. Every program is built at -O2 (the default) and with
 * -cl-opt-disable.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include "cltest.h"

#define device cltest.device
#define ctx cltest.context
#define queue cltest.queue

static const char *const opt_levels[] = {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable"};

/* Runs kernel `name` of p over n work-items in work-groups of `local`: argument 0 an int buffer
 * holding in[0..n), argument 1 an int buffer of n results (returned in out), argument 2 the int
 * `extra` when has_extra. */
static void run(cl_program p, const char *name, size_t n, size_t local, const cl_int *in, cl_int *out, bool has_extra,
                cl_int extra) {
  cl_kernel k = cltest_kernel(p, name);
  cl_int e;
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), (void *)in, &e);
  CHECK(e);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(cl_int), NULL, &e);
  CHECK(e);
  CHECK(clSetKernelArg(k, 0, sizeof a, &a));
  CHECK(clSetKernelArg(k, 1, sizeof b, &b));
  if (has_extra) CHECK(clSetKernelArg(k, 2, sizeof extra, &extra));
  CHECK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, n * sizeof(cl_int), out, 0, NULL, NULL));
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseKernel(k);
}

/* The same sub-group call in both arms of an if: OpenCL C 3.0 §6.15.19 (cl_khr_subgroup_ballot)
 * sub_group_broadcast_first returns x of the active work-item with the smallest sub-group local
 * id, so each arm sees its own first work-item. LLVM's SimplifyCFG hoists or sinks identical
 * calls out of the arms (`convergent` does not stop it) into one call where the whole sub-group
 * is active, which would give work-items 16..31 the value of work-item 0. */
static void test_subgroup_call_in_both_arms(void **state) {
  (void)state;
  static const char *src =
    "#pragma OPENCL EXTENSION cl_khr_subgroup_ballot : enable\n"
    "kernel void first(global const int *x, global int *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  int r;\n"
    "  if (get_sub_group_local_id() < get_sub_group_size() / 2) r = sub_group_broadcast_first(x[i]);\n"
    "  else r = sub_group_broadcast_first(x[i]);\n"
    "  out[i] = r;\n"
    "}\n";
  enum { N = 64 };
  cl_int in[N], out[N];
  for (int i = 0; i < N; i++) in[i] = 1000 + 3 * i;
  for (size_t o = 0; o < NELEMS(opt_levels); o++) {
    cl_program p = cltest_build(ctx, device, src, opt_levels[o]);
    run(p, "first", N, N, in, out, false, 0);
    /* spvi's sub-groups are 32 work-items (test_kernel.c test_sub_group_info): the halves of
     * sub-group s start at work-items 32s and 32s + 16 */
    for (int i = 0; i < N; i++) assert_int_equal(out[i], in[i / 16 * 16]);
    clReleaseProgram(p);
  }
}

/* A switch whose cases call the clustered reduction with different constant cluster sizes (the
 * CTS's pattern): merging the calls would make the cluster size a phi, which SPIR-V forbids
 * (ClusterSize must be a constant instruction, SPIR-V §3.32.24) and the build would fail.
 * sub_group_clustered_reduce_add of 1 in every work-item is the cluster size. */
static void test_subgroup_clustered_switch(void **state) {
  (void)state;
  static const char *src = "kernel void cr(global const int *x, global int *out, int size) {\n"
                           "  size_t i = get_global_id(0);\n"
                           "  int r = -1;\n"
                           "  switch (size) {\n"
                           "  case 1: r = sub_group_clustered_reduce_add(x[i], 1); break;\n"
                           "  case 2: r = sub_group_clustered_reduce_add(x[i], 2); break;\n"
                           "  case 4: r = sub_group_clustered_reduce_add(x[i], 4); break;\n"
                           "  case 8: r = sub_group_clustered_reduce_add(x[i], 8); break;\n"
                           "  }\n"
                           "  out[i] = r;\n"
                           "}\n";
  enum { N = 32 };
  cl_int in[N], out[N];
  for (int i = 0; i < N; i++) in[i] = 1;
  for (size_t o = 0; o < NELEMS(opt_levels); o++) {
    cl_program p = cltest_build(ctx, device, src, opt_levels[o]);
    for (cl_int size = 1; size <= 8; size *= 2) {
      run(p, "cr", N, N, in, out, true, size);
      for (int i = 0; i < N; i++) assert_int_equal(out[i], size);
    }
    clReleaseProgram(p);
  }
}

/* The SPIR-V version (word 1) of a program's binary. */
static uint32_t spirv_version(cl_program p) {
  size_t size = 0;
  CHECK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
  assert_true(size >= 20);
  unsigned char *bin = malloc(size);
  unsigned char *bins[1] = {bin};
  CHECK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL));
  uint32_t w[2];
  memcpy(w, bin, sizeof w);
  free(bin);
  assert_int_equal(w[0], 0x07230203u);
  return w[1];
}

/* clLinkProgram of a kernel object and a library that llvm-spirv-14 wrote as different SPIR-V
 * versions (CTS generic_address_space library_function): it picks the lowest version that has what
 * a module uses, 1.4 for `nsw` on the kernel's int addition, 1.0 for the library's float
 * function. OpenCL 3.0 API §5.8.5 gives no reason for such a link to fail. (The older module
 * with an entry point is test_compile.c test_link_raises_version.) */
static void test_link_mixed_spirv_versions(void **state) {
  (void)state;
  static const char *kernel_src = "float half_of(float x);\n"
                                  "kernel void k(global const int *x, global int *out) {\n"
                                  "  size_t i = get_global_id(0);\n"
                                  "  out[i] = x[i] + (int)half_of((float)x[i]);\n"
                                  "}\n";
  static const char *lib_src = "float half_of(float x) { return x * 0.5f; }\n";
  for (size_t o = 0; o < NELEMS(opt_levels); o++) {
    cl_int e;
    cl_program kp = clCreateProgramWithSource(ctx, 1, &kernel_src, NULL, &e);
    CHECK(e);
    cl_program lp = clCreateProgramWithSource(ctx, 1, &lib_src, NULL, &e);
    CHECK(e);
    CHECK(clCompileProgram(kp, 1, &device, opt_levels[o], 0, NULL, NULL, NULL, NULL));
    CHECK(clCompileProgram(lp, 1, &device, opt_levels[o], 0, NULL, NULL, NULL, NULL));
    /* the premise: the two objects' versions differ */
    assert_true(spirv_version(kp) > spirv_version(lp));
    cl_program lib = clLinkProgram(ctx, 1, &device, "-create-library", 1, &lp, NULL, NULL, &e);
    CHECK(e);
    cl_program both[2] = {kp, lib};
    cl_program exe = clLinkProgram(ctx, 1, &device, NULL, 2, both, NULL, NULL, &e);
    if (e != CL_SUCCESS && exe) {
      char log[4096] = "";
      clGetProgramBuildInfo(exe, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
      fprintf(stderr, "link failed (%d):\n%s\n", e, log);
    }
    CHECK(e);
    enum { N = 8 };
    cl_int in[N], out[N];
    for (int i = 0; i < N; i++) in[i] = 2 * i;
    run(exe, "k", N, N, in, out, false, 0);
    for (int i = 0; i < N; i++) assert_int_equal(out[i], 3 * i); /* 2i + 2i/2 */
    clReleaseProgram(exe);
    clReleaseProgram(lib);
    clReleaseProgram(lp);
    clReleaseProgram(kp);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_subgroup_call_in_both_arms),
    cmocka_unit_test(test_subgroup_clustered_switch),
    cmocka_unit_test(test_link_mixed_spirv_versions),
  };
  return cmocka_run_group_tests(tests, cltest_group_setup, cltest_group_teardown);
}
