/*
 * test_kernel.c — OpenCL kernels and launches through the ICD loader (opencl/cl_kernel.c):
 * argument checks (API 5.9.2), argument, work-group and sub-group queries, the NDRange checks of
 * clEnqueueNDRangeKernel (API 5.10), 1D/2D/3D launches with offsets and non-uniform work-groups
 * compared with what plain C computes, __local arguments, printf, clCloneKernel, a faulting
 * kernel, and several threads launching at once.
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateSampler, clEnqueueTask: still in OpenCL 3.0 */
#include "cltest.h"

#include <fcntl.h>
#include <pthread.h>

/* The group's objects (cltest_group_setup). */
#define platform cltest.platform
#define device cltest.device
#define ctx cltest.context
#define queue cltest.queue
static cl_program prog; /* kernels_src, OpenCL C 2.0 (non-uniform work-groups) */

static const char *kernels_src =
  "kernel void ids(global int *out) {\n"
  "  size_t i = ((get_global_id(2) - get_global_offset(2)) * get_global_size(1)\n"
  "              + (get_global_id(1) - get_global_offset(1))) * get_global_size(0)\n"
  "             + (get_global_id(0) - get_global_offset(0));\n"
  "  global int *o = out + 8 * i;\n"
  "  o[0] = (int)get_global_id(0); o[1] = (int)get_global_id(1); o[2] = (int)get_global_id(2);\n"
  "  o[3] = (int)get_local_id(0); o[4] = (int)get_local_id(1); o[5] = (int)get_local_id(2);\n"
  "  o[6] = (int)(get_local_size(0) * 10000 + get_local_size(1) * 100 + get_local_size(2));\n"
  "  o[7] = (int)(get_group_id(0) + 100 * get_group_id(1) + 10000 * get_group_id(2));\n"
  "}\n"
  "kernel void fill(global int *out, int v) { out[get_global_id(0)] = v + (int)get_global_id(0); }\n"
  "kernel void reduce(global const int *in, global int *out, local int *scratch) {\n"
  "  size_t l = get_local_id(0), n = get_local_size(0);\n"
  "  scratch[l] = in[get_global_id(0)];\n"
  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
  "  for (size_t s = n / 2; s > 0; s /= 2) {\n"
  "    if (l < s) scratch[l] += scratch[l + s];\n"
  "    barrier(CLK_LOCAL_MEM_FENCE);\n"
  "  }\n"
  "  if (l == 0) out[get_group_id(0)] = scratch[0];\n"
  "}\n"
  "kernel void say(int v) { printf(\"item %d v=%d\\n\", (int)get_global_id(0), v); }\n"
  "kernel void crash(global int *out) { out[0] = 7; out[get_global_id(0) + 1000000] = 1; }\n"
  "kernel void task(global int *out) { out[0] = (int)get_global_size(0) + 10 * (int)get_local_size(0); }\n"
  "__attribute__((reqd_work_group_size(4, 2, 1))) __attribute__((vec_type_hint(float4)))\n"
  "kernel void fixed(global int *out) { out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = 1; }\n"
  "kernel void withlocal(local int *a, global int *o) {\n"
  "  local int mine[16];\n"
  "  mine[get_local_id(0) % 16] = 1; a[0] = 2;\n"
  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
  "  o[get_global_id(0)] = mine[0] + a[0];\n"
  "}\n"
  "kernel void info(global const float *restrict a, global volatile int *b, constant int *c, local float *l,\n"
  "                 float4 v, uint u, read_only image2d_t img, sampler_t s) { }\n"
  "kernel void wimg(write_only image2d_t img) { }\n";

static int setup(void **state) {
  if (cltest_group_setup(state) != 0) return -1;
  prog = cltest_try_build(ctx, device, kernels_src, "-cl-std=CL2.0 -cl-kernel-arg-info", NULL);
  return prog ? 0 : -1;
}

static int teardown(void **state) {
  clReleaseProgram(prog);
  return cltest_group_teardown(state);
}

static cl_kernel kernel(const char *name) { return cltest_kernel(prog, name); }

static cl_mem buffer(size_t bytes) {
  cl_int e;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  return m;
}

static cl_program build(const char *src, const char *options) {
  cl_int e;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(clBuildProgram(p, 1, &device, options, NULL, NULL), CL_SUCCESS);
  return p;
}

/* ---- kernel objects and their queries ------------------------------------------------------ */

static void test_kernel_objects(void **state) {
  (void)state;
  cl_int e;
  cl_kernel k = kernel("fill");
  char name[64];
  cl_uint u;
  cl_context c;
  cl_program p;
  assert_int_equal(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL), CL_SUCCESS);
  assert_string_equal(name, "fill");
  assert_int_equal(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof u, &u, NULL), CL_SUCCESS);
  assert_int_equal(u, 2);
  assert_int_equal(clRetainKernel(k), CL_SUCCESS);
  assert_int_equal(clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof u, &u, NULL), CL_SUCCESS);
  assert_int_equal(u, 2);
  assert_int_equal(clReleaseKernel(k), CL_SUCCESS);
  assert_int_equal(clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
  assert_ptr_equal(c, ctx);
  assert_int_equal(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof p, &p, NULL), CL_SUCCESS);
  assert_ptr_equal(p, prog);
  assert_int_equal(clGetKernelInfo(k, 0x7777, sizeof u, &u, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, 2, name, NULL), CL_INVALID_VALUE);
  /* CL_KERNEL_ATTRIBUTES: the source's attributes (API 5.9.5) */
  cl_kernel f = kernel("fixed");
  char attrs[256];
  assert_int_equal(clGetKernelInfo(f, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL), CL_SUCCESS);
  assert_non_null(strstr(attrs, "reqd_work_group_size(4,2,1)"));
  assert_non_null(strstr(attrs, "vec_type_hint(float4)"));
  assert_int_equal(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL), CL_SUCCESS);
  assert_string_equal(attrs, "");
  clReleaseKernel(f);
  clReleaseKernel(k);

  /* clCreateKernelsInProgram: all of them, or CL_INVALID_VALUE when the array is too small */
  cl_uint n = 0;
  assert_int_equal(clCreateKernelsInProgram(prog, 0, NULL, &n), CL_SUCCESS);
  assert_int_equal(n, 10);
  cl_kernel all[10];
  assert_int_equal(clCreateKernelsInProgram(prog, 3, all, NULL), CL_INVALID_VALUE);
  assert_int_equal(clCreateKernelsInProgram(prog, 10, all, &n), CL_SUCCESS);
  assert_int_equal(clGetKernelInfo(all[1], CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL), CL_SUCCESS);
  assert_string_equal(name, "fill");
  for (int i = 0; i < 10; i++) clReleaseKernel(all[i]);

  /* errors: names, programs without an executable, bad handles */
  assert_null(clCreateKernel(prog, "nope", &e));
  assert_int_equal(e, CL_INVALID_KERNEL_NAME);
  assert_null(clCreateKernel(prog, NULL, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  cl_program unbuilt = clCreateProgramWithSource(ctx, 1, &kernels_src, NULL, &e);
  assert_null(clCreateKernel(unbuilt, "fill", &e));
  assert_int_equal(e, CL_INVALID_PROGRAM_EXECUTABLE);
  assert_int_equal(clCreateKernelsInProgram(unbuilt, 0, NULL, &n), CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(unbuilt);
  assert_null(clCreateKernel(NULL, "fill", &e));
  assert_int_equal(e, CL_INVALID_PROGRAM);
  assert_int_equal(clRetainKernel(NULL), CL_INVALID_KERNEL);
  assert_int_equal(clReleaseKernel(NULL), CL_INVALID_KERNEL);
  assert_int_equal(clGetKernelInfo(NULL, CL_KERNEL_NUM_ARGS, sizeof u, &u, NULL), CL_INVALID_KERNEL);
  assert_int_equal(clRetainKernel((cl_kernel)prog), CL_INVALID_KERNEL);
  assert_null(clCloneKernel(NULL, &e));
  assert_int_equal(e, CL_INVALID_KERNEL);
}

/* ---- arguments ---------------------------------------------------------------------------- */

static void test_set_arg_errors(void **state) {
  (void)state;
  cl_kernel k = kernel("reduce"); /* (global const int *, global int *, local int *) */
  cl_kernel f = kernel("fill");   /* (global int *, int) */
  cl_mem m = buffer(64);
  cl_int v = 1;
  assert_int_equal(clSetKernelArg(NULL, 0, sizeof m, &m), CL_INVALID_KERNEL);
  assert_int_equal(clSetKernelArg(k, 3, sizeof m, &m), CL_INVALID_ARG_INDEX);
  /* buffers: sizeof(cl_mem), a buffer object or NULL */
  assert_int_equal(clSetKernelArg(k, 0, sizeof m / 2, &m), CL_INVALID_ARG_SIZE);
  assert_int_equal(clSetKernelArg(k, 0, sizeof m * 2, &m), CL_INVALID_ARG_SIZE);
  cl_mem bogus = (cl_mem)f;
  assert_int_equal(clSetKernelArg(k, 0, sizeof bogus, &bogus), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clSetKernelArg(k, 0, sizeof m, NULL), CL_SUCCESS); /* a NULL buffer */
  cl_mem none = NULL;
  assert_int_equal(clSetKernelArg(k, 0, sizeof none, &none), CL_SUCCESS);
  assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  /* __local: a size, no value; 0 bytes is an error in OpenCL 3.0 */
  assert_int_equal(clSetKernelArg(k, 2, 0, NULL), CL_INVALID_ARG_SIZE);
  assert_int_equal(clSetKernelArg(k, 2, 16, &v), CL_INVALID_ARG_VALUE);
  assert_int_equal(clSetKernelArg(k, 2, 16, NULL), CL_SUCCESS);
  /* values: exactly the parameter's size, and a value */
  assert_int_equal(clSetKernelArg(f, 1, sizeof(cl_long), &v), CL_INVALID_ARG_SIZE);
  assert_int_equal(clSetKernelArg(f, 1, 2, &v), CL_INVALID_ARG_SIZE);
  assert_int_equal(clSetKernelArg(f, 1, sizeof v, NULL), CL_INVALID_ARG_VALUE);
  assert_int_equal(clSetKernelArg(f, 1, sizeof v, &v), CL_SUCCESS);

  /* images and samplers */
  cl_kernel info = kernel("info");
  assert_int_equal(clSetKernelArg(info, 6, sizeof m, &m), CL_INVALID_MEM_OBJECT); /* a buffer for an image */
  assert_int_equal(clSetKernelArg(info, 7, sizeof(cl_sampler), NULL), CL_INVALID_SAMPLER);
  cl_sampler bad_sampler = (cl_sampler)m;
  assert_int_equal(clSetKernelArg(info, 7, sizeof bad_sampler, &bad_sampler), CL_INVALID_SAMPLER);
  cl_int e;
  cl_sampler s = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &e);
  if (e == CL_SUCCESS) {
    assert_int_equal(clSetKernelArg(info, 7, 2 * sizeof s, &s), CL_INVALID_ARG_SIZE);
    assert_int_equal(clSetKernelArg(info, 7, sizeof s, &s), CL_SUCCESS);
    clReleaseSampler(s);
  }
  cl_image_format fmt = {CL_RGBA, CL_UNSIGNED_INT8};
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};
  cl_mem wo = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &fmt, &desc, NULL, &e);
  if (e == CL_SUCCESS) {
    /* an image the kernel reads must not be CL_MEM_WRITE_ONLY, and the other way round (CTS
     * api/negative_set_read_write_image_arg); a buffer parameter takes no image */
    assert_int_equal(clSetKernelArg(info, 6, sizeof wo, &wo), CL_INVALID_ARG_VALUE);
    cl_kernel w = kernel("wimg");
    assert_int_equal(clSetKernelArg(w, 0, sizeof wo, &wo), CL_SUCCESS);
    cl_mem ro = clCreateImage(ctx, CL_MEM_READ_ONLY, &fmt, &desc, NULL, &e);
    assert_int_equal(e, CL_SUCCESS);
    assert_int_equal(clSetKernelArg(w, 0, sizeof ro, &ro), CL_INVALID_ARG_VALUE);
    assert_int_equal(clSetKernelArg(info, 6, sizeof ro, &ro), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(f, 0, sizeof ro, &ro), CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(ro);
    clReleaseKernel(w);
    clReleaseMemObject(wo);
  }
  /* SVM pointers go to pointer parameters only; fine-grained system SVM is not there */
  assert_int_equal(clSetKernelArgSVMPointer(f, 1, NULL), CL_INVALID_ARG_VALUE);
  assert_int_equal(clSetKernelArgSVMPointer(f, 5, NULL), CL_INVALID_ARG_INDEX);
  assert_int_equal(clSetKernelArgSVMPointer(NULL, 0, NULL), CL_INVALID_KERNEL);
  cl_bool on = CL_TRUE, off = CL_FALSE;
  assert_int_equal(clSetKernelExecInfo(f, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof on, &on),
                   CL_INVALID_OPERATION);
  assert_int_equal(clSetKernelExecInfo(f, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof off, &off), CL_SUCCESS);
  assert_int_equal(clSetKernelExecInfo(f, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1, &off), CL_INVALID_VALUE);
  void *ptrs[2] = {&v, &e};
  assert_int_equal(clSetKernelExecInfo(f, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs), CL_SUCCESS);
  assert_int_equal(clSetKernelExecInfo(f, CL_KERNEL_EXEC_INFO_SVM_PTRS, 3, ptrs), CL_INVALID_VALUE);
  assert_int_equal(clSetKernelExecInfo(f, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, NULL), CL_INVALID_VALUE);
  assert_int_equal(clSetKernelExecInfo(f, 0x7777, sizeof ptrs, ptrs), CL_INVALID_VALUE);
  clReleaseKernel(info);
  clReleaseMemObject(m);
  clReleaseKernel(f);
  clReleaseKernel(k);
}

typedef struct {
  cl_kernel_arg_address_qualifier address;
  cl_kernel_arg_access_qualifier access;
  cl_kernel_arg_type_qualifier type_qual;
  const char *type, *name;
} arg_expect;

static void test_arg_info(void **state) {
  (void)state;
  static const arg_expect want[] = {
    {CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT,
     "float*", "a"},
    {CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_TYPE_VOLATILE, "int*", "b"},
    {CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_TYPE_CONST, "int*", "c"},
    {CL_KERNEL_ARG_ADDRESS_LOCAL, CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_TYPE_NONE, "float*", "l"},
    {CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_TYPE_NONE, "float4", "v"},
    {CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_TYPE_NONE, "uint", "u"},
    {CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_ACCESS_READ_ONLY, CL_KERNEL_ARG_TYPE_NONE, "image2d_t", "img"},
    {CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_TYPE_NONE, "sampler_t", "s"},
  };
  cl_kernel k = kernel("info");
  for (cl_uint i = 0; i < sizeof want / sizeof *want; i++) {
    cl_kernel_arg_address_qualifier a;
    cl_kernel_arg_access_qualifier c;
    cl_kernel_arg_type_qualifier t;
    char type[64], name[64];
    size_t n;
    assert_int_equal(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof a, &a, &n), CL_SUCCESS);
    assert_int_equal(n, sizeof a);
    assert_int_equal(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof c, &c, NULL), CL_SUCCESS);
    assert_int_equal(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof t, &t, NULL), CL_SUCCESS);
    assert_int_equal(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL), CL_SUCCESS);
    assert_int_equal(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof name, name, &n), CL_SUCCESS);
    assert_int_equal(n, strlen(want[i].name) + 1);
    assert_int_equal(a, want[i].address);
    assert_int_equal(c, want[i].access);
    assert_int_equal(t, want[i].type_qual);
    assert_string_equal(type, want[i].type);
    assert_string_equal(name, want[i].name);
  }
  cl_uint u;
  assert_int_equal(clGetKernelArgInfo(k, 8, CL_KERNEL_ARG_NAME, sizeof u, &u, NULL), CL_INVALID_ARG_INDEX);
  assert_int_equal(clGetKernelArgInfo(k, 0, 0x7777, sizeof u, &u, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetKernelArgInfo(NULL, 0, CL_KERNEL_ARG_NAME, sizeof u, &u, NULL), CL_INVALID_KERNEL);
  clReleaseKernel(k);
  /* without -cl-kernel-arg-info the names are not available (API 5.9.4) */
  cl_program p = build("kernel void k(global int *data) { data[0] = 1; }", NULL);
  cl_int e;
  k = clCreateKernel(p, "k", &e);
  char name[64];
  assert_int_equal(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof name, name, NULL),
                   CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  assert_int_equal(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, NULL),
                   CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  cl_kernel_arg_address_qualifier a;
  assert_int_equal(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof a, &a, NULL), CL_SUCCESS);
  assert_int_equal(a, CL_KERNEL_ARG_ADDRESS_GLOBAL);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

static void test_work_group_info(void **state) {
  (void)state;
  cl_kernel f = kernel("fixed"), w = kernel("withlocal");
  size_t z, z3[3];
  cl_ulong u;
  assert_int_equal(clGetKernelWorkGroupInfo(f, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof z, &z, NULL), CL_SUCCESS);
  size_t max_wg;
  assert_int_equal(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL), CL_SUCCESS);
  assert_true(z >= 8 && z <= max_wg);
  assert_int_equal(clGetKernelWorkGroupInfo(f, NULL, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof z3, z3, &z), CL_SUCCESS);
  assert_int_equal(z, sizeof z3);
  assert_int_equal(z3[0], 4);
  assert_int_equal(z3[1], 2);
  assert_int_equal(z3[2], 1);
  assert_int_equal(clGetKernelWorkGroupInfo(w, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof z3, z3, NULL),
                   CL_SUCCESS);
  assert_true(z3[0] == 0 && z3[1] == 0 && z3[2] == 0);
  /* __local memory: the kernel's own 16 ints, plus the __local arguments set */
  assert_int_equal(clGetKernelWorkGroupInfo(w, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof u, &u, &z), CL_SUCCESS);
  assert_int_equal(z, sizeof u);
  assert_true(u >= 64);
  cl_ulong before = u;
  assert_int_equal(clSetKernelArg(w, 0, 1000, NULL), CL_SUCCESS);
  assert_int_equal(clGetKernelWorkGroupInfo(w, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof u, &u, NULL), CL_SUCCESS);
  assert_int_equal(u, before + 1000);
  assert_int_equal(clGetKernelWorkGroupInfo(w, device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof u, &u, NULL), CL_SUCCESS);
  assert_int_equal(clGetKernelWorkGroupInfo(w, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof z, &z,
                                            NULL),
                   CL_SUCCESS);
  assert_true(z >= 1 && z <= max_wg);
  /* API 5.9.3: GLOBAL_WORK_SIZE only for custom devices and built-in kernels */
  assert_int_equal(clGetKernelWorkGroupInfo(w, device, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof z3, z3, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clGetKernelWorkGroupInfo(w, device, 0x7777, sizeof z, &z, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetKernelWorkGroupInfo(w, (cl_device_id)w, CL_KERNEL_WORK_GROUP_SIZE, sizeof z, &z, NULL),
                   CL_INVALID_DEVICE);
  assert_int_equal(clGetKernelWorkGroupInfo(NULL, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof z, &z, NULL),
                   CL_INVALID_KERNEL);
  assert_int_equal(clGetKernelWorkGroupInfo(w, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof z, z3, NULL),
                   CL_INVALID_VALUE);
  clReleaseKernel(w);
  clReleaseKernel(f);
}

/* Sub-groups of 32 consecutive work-items (spvi's default), the last one smaller; what the
 * queries say agrees with get_num_sub_groups() in the kernel (CTS api/sub_group_dispatch). */
static void test_sub_group_info(void **state) {
  (void)state;
  cl_program p = build("#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n"
                       "kernel void sg(global int *o) { o[get_global_id(0)] = (int)get_num_sub_groups(); }\n",
                       "-cl-std=CL2.0");
  cl_int e;
  cl_kernel k = clCreateKernel(p, "sg", &e);
  size_t v, n, local = 64;
  assert_int_equal(clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, &local,
                                           sizeof v, &v, &n),
                   CL_SUCCESS);
  assert_int_equal(n, sizeof v);
  assert_int_equal(v, 32);
  assert_int_equal(clGetKernelSubGroupInfo(k, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof local, &local,
                                           sizeof v, &v, NULL),
                   CL_SUCCESS);
  assert_int_equal(v, 2);
  size_t l2[2] = {10, 4}; /* 40 work-items: 32 + 8 */
  assert_int_equal(clGetKernelSubGroupInfo(k, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof l2, l2, sizeof v,
                                           &v, NULL),
                   CL_SUCCESS);
  assert_int_equal(v, 2);
  local = 16;
  assert_int_equal(clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, &local,
                                           sizeof v, &v, NULL),
                   CL_SUCCESS);
  assert_int_equal(v, 16);
  size_t count = 3, out2[2];
  assert_int_equal(clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof count, &count,
                                           sizeof out2, out2, &n),
                   CL_SUCCESS);
  assert_int_equal(n, sizeof out2);
  assert_int_equal(out2[0], 96);
  assert_int_equal(out2[1], 1);
  count = 1000; /* more sub-groups than a work-group can have: zeros */
  assert_int_equal(clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof count, &count,
                                           sizeof out2, out2, NULL),
                   CL_SUCCESS);
  assert_true(out2[0] == 0 && out2[1] == 0);
  assert_int_equal(clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof v, &v, NULL),
                   CL_SUCCESS);
  cl_uint dev_max;
  assert_int_equal(clGetDeviceInfo(device, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof dev_max, &dev_max, NULL), CL_SUCCESS);
  assert_int_equal(v, dev_max);
  assert_int_equal(clGetKernelSubGroupInfo(k, device, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, NULL, sizeof v, &v, NULL),
                   CL_SUCCESS);
  assert_int_equal(v, 0);
  /* errors: input sizes, names */
  assert_int_equal(clGetKernelSubGroupInfo(k, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 3, &local, sizeof v, &v,
                                           NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clGetKernelSubGroupInfo(k, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof local, NULL,
                                           sizeof v, &v, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clGetKernelSubGroupInfo(k, device, 0x7777, 0, NULL, sizeof v, &v, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetKernelSubGroupInfo(NULL, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof v, &v, NULL),
                   CL_INVALID_KERNEL);
  /* the kernel sees as many sub-groups */
  cl_mem m = buffer(96 * sizeof(cl_int));
  clSetKernelArg(k, 0, sizeof m, &m);
  size_t g = 96, l = 96;
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
  cl_int got[96];
  assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(got[0], 3);
  assert_int_equal(got[95], 3);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* ---- launches ----------------------------------------------------------------------------- */

/* What `ids` writes for each work-item, computed in C from the NDRange (OpenCL C 6.15.1, with
 * non-uniform work-groups: the last group of a dimension holds the remainder). */
static void check_ids(const cl_int *out, cl_uint dims, const size_t *offset, const size_t *global,
                      const size_t *local) {
  size_t G[3] = {1, 1, 1}, O[3] = {0, 0, 0}, L[3] = {1, 1, 1};
  for (cl_uint d = 0; d < dims; d++) {
    G[d] = global[d];
    O[d] = offset ? offset[d] : 0;
    L[d] = local[d];
  }
  for (size_t z = 0; z < G[2]; z++)
    for (size_t y = 0; y < G[1]; y++)
      for (size_t x = 0; x < G[0]; x++) {
        const cl_int *o = out + 8 * ((z * G[1] + y) * G[0] + x);
        size_t r[3] = {x, y, z}, lid[3], grp[3], lsz[3];
        for (int d = 0; d < 3; d++) {
          grp[d] = r[d] / L[d];
          lid[d] = r[d] % L[d];
          lsz[d] = (grp[d] + 1) * L[d] <= G[d] ? L[d] : G[d] - grp[d] * L[d];
        }
        assert_int_equal(o[0], (cl_int)(x + O[0]));
        assert_int_equal(o[1], (cl_int)(y + O[1]));
        assert_int_equal(o[2], (cl_int)(z + O[2]));
        assert_int_equal(o[3], (cl_int)lid[0]);
        assert_int_equal(o[4], (cl_int)lid[1]);
        assert_int_equal(o[5], (cl_int)lid[2]);
        assert_int_equal(o[6], (cl_int)(lsz[0] * 10000 + lsz[1] * 100 + lsz[2]));
        assert_int_equal(o[7], (cl_int)(grp[0] + 100 * grp[1] + 10000 * grp[2]));
      }
}

static void run_ids(cl_uint dims, const size_t *offset, const size_t *global, const size_t *local) {
  size_t items = 1;
  for (cl_uint d = 0; d < dims; d++) items *= global[d];
  cl_kernel k = kernel("ids");
  cl_mem m = buffer(items * 8 * sizeof(cl_int));
  assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  cl_event ev;
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, dims, offset, global, local, 0, NULL, &ev), CL_SUCCESS);
  cl_command_type type;
  assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
  assert_int_equal(type, CL_COMMAND_NDRANGE_KERNEL);
  cl_int *out = malloc(items * 8 * sizeof(cl_int));
  assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, items * 8 * sizeof(cl_int), out, 1, &ev, NULL),
                   CL_SUCCESS);
  cl_int status;
  assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL), CL_SUCCESS);
  assert_int_equal(status, CL_COMPLETE);
  check_ids(out, dims, offset, global, local);
  free(out);
  clReleaseEvent(ev);
  clReleaseMemObject(m);
  clReleaseKernel(k);
}

static void test_ndrange_launches(void **state) {
  (void)state;
  size_t g1[1] = {100}, l1[1] = {16}, o1[1] = {7};
  run_ids(1, NULL, g1, l1); /* 6 groups of 16 and one of 4 */
  run_ids(1, o1, g1, l1);
  size_t g2[2] = {13, 9}, l2[2] = {4, 4}, o2[2] = {3, 1000};
  run_ids(2, o2, g2, l2);
  size_t g3[3] = {5, 6, 7}, l3[3] = {2, 3, 4}, o3[3] = {1, 2, 3};
  run_ids(3, o3, g3, l3);
  run_ids(3, NULL, g3, l3);
  size_t g4[2] = {3, 5}, l4[2] = {8, 2}; /* local above global: one partial group */
  run_ids(2, NULL, g4, l4);
}

/* local_work_size NULL: spvi picks a size that divides the global size (so 1.x programs work). */
static void test_ndrange_local_null(void **state) {
  (void)state;
  cl_program p =
    build("kernel void k(global int *o) { o[get_global_id(0)] = (int)(get_global_size(0) % get_local_size(0)); }",
          NULL);
  cl_int e;
  cl_kernel k = clCreateKernel(p, "k", &e);
  cl_mem m = buffer(97 * sizeof(cl_int));
  clSetKernelArg(k, 0, sizeof m, &m);
  size_t g = 97;
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
  cl_int out[97];
  assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
  for (int i = 0; i < 97; i++) assert_int_equal(out[i], 0);
  /* OpenCL C 1.2 (no -cl-std): global must be a multiple of local (API 5.10) */
  size_t l = 10;
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
  /* and so with -cl-uniform-work-group-size (CTS compiler/options_uniform_work_group_size) */
  p = build("kernel void k(global int *o) { o[get_global_id(0)] = 1; }", "-cl-std=CL2.0 -cl-uniform-work-group-size");
  k = clCreateKernel(p, "k", &e);
  m = buffer(4 * sizeof(cl_int));
  clSetKernelArg(k, 0, sizeof m, &m);
  g = 4;
  l = 2;
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
  l = 3;
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  assert_int_equal(clFinish(queue), CL_SUCCESS);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

static void test_ndrange_errors(void **state) {
  (void)state;
  cl_kernel k = kernel("fill");
  cl_mem m = buffer(64 * sizeof(cl_int));
  size_t g = 16, l = 4;
  /* arguments not set */
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
  clSetKernelArg(k, 0, sizeof m, &m);
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
  cl_int v = 5;
  clSetKernelArg(k, 1, sizeof v, &v);
  /* handles */
  assert_int_equal(clEnqueueNDRangeKernel(NULL, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clEnqueueNDRangeKernel(queue, NULL, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_KERNEL);
  assert_int_equal(clEnqueueNDRangeKernel(queue, (cl_kernel)m, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_KERNEL);
  cl_int e;
  cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &e);
  cl_command_queue oq = clCreateCommandQueueWithProperties(other, device, NULL, &e);
  assert_int_equal(clEnqueueNDRangeKernel(oq, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_CONTEXT);
  clReleaseCommandQueue(oq);
  clReleaseContext(other);
  /* the NDRange */
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 0, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 4, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
  size_t off = SIZE_MAX - 4;
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, &off, &g, &l, 0, NULL, NULL), CL_INVALID_GLOBAL_OFFSET);
  size_t big = 2048, zero = 0;
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &big, &big, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &zero, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  size_t g2[2] = {64, 64}, l2[2] = {64, 32}; /* 2048 work-items */
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 2, NULL, g2, l2, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  /* reqd_work_group_size(4,2,1) */
  cl_kernel f = kernel("fixed");
  clSetKernelArg(f, 0, sizeof m, &m);
  size_t fg[2] = {8, 4}, good[2] = {4, 2}, bad[2] = {2, 4};
  assert_int_equal(clEnqueueNDRangeKernel(queue, f, 2, NULL, fg, bad, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  assert_int_equal(clEnqueueNDRangeKernel(queue, f, 2, NULL, fg, good, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueNDRangeKernel(queue, f, 2, NULL, fg, NULL, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueNDRangeKernel(queue, f, 1, NULL, fg, good, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  /* wait lists */
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  cl_event none = NULL;
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, &none, NULL), CL_INVALID_EVENT_WAIT_LIST);
  /* too much __local memory: CL_OUT_OF_RESOURCES */
  cl_kernel w = kernel("withlocal");
  cl_ulong local_mem;
  clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem, NULL);
  clSetKernelArg(w, 0, (size_t)local_mem + 1, NULL);
  clSetKernelArg(w, 1, sizeof m, &m);
  assert_int_equal(clEnqueueNDRangeKernel(queue, w, 1, NULL, &g, &l, 0, NULL, NULL), CL_OUT_OF_RESOURCES);
  /* an empty NDRange succeeds once its wait list is complete (API 5.10, CTS api/zero_sized_enqueue) */
  cl_event user = clCreateUserEvent(ctx, &e), ev;
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &zero, NULL, 1, &user, &ev), CL_SUCCESS);
  cl_int status;
  clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
  assert_true(status == CL_QUEUED || status == CL_SUBMITTED);
  clSetUserEventStatus(user, CL_COMPLETE);
  assert_int_equal(clFinish(queue), CL_SUCCESS);
  clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
  assert_int_equal(status, CL_COMPLETE);
  clReleaseEvent(ev);
  clReleaseEvent(user);
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 3, NULL, NULL, NULL, 0, NULL, NULL), CL_SUCCESS);
  /* native kernels are not supported (CL_DEVICE_EXECUTION_CAPABILITIES) */
  assert_int_equal(clEnqueueNativeKernel(queue, NULL, NULL, 0, 0, NULL, NULL, 0, NULL, NULL), CL_INVALID_OPERATION);
  assert_int_equal(clFinish(queue), CL_SUCCESS);
  clReleaseKernel(w);
  clReleaseKernel(f);
  clReleaseMemObject(m);
  clReleaseKernel(k);
}

static void test_local_args(void **state) {
  (void)state;
  enum { N = 256, L = 64 };
  cl_int in[N], sums[N / L], want[N / L] = {0};
  for (int i = 0; i < N; i++) {
    in[i] = (i * 37) % 101 - 50;
    want[i / L] += in[i];
  }
  cl_int e;
  cl_mem min = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof in, in, &e);
  cl_mem mout = buffer(sizeof sums);
  cl_kernel k = kernel("reduce");
  clSetKernelArg(k, 0, sizeof min, &min);
  clSetKernelArg(k, 1, sizeof mout, &mout);
  clSetKernelArg(k, 2, L * sizeof(cl_int), NULL);
  size_t g = N, l = L;
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueReadBuffer(queue, mout, CL_TRUE, 0, sizeof sums, sums, 0, NULL, NULL), CL_SUCCESS);
  assert_memory_equal(sums, want, sizeof want);
  clReleaseKernel(k);
  clReleaseMemObject(mout);
  clReleaseMemObject(min);
}

/* Kernel printf goes to stdout, each work-item's text whole, in work-item order within a group. */
static void test_printf(void **state) {
  (void)state;
  char path[] = "/tmp/spvi-test-kernel-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  fflush(stdout);
  int saved = dup(1);
  dup2(fd, 1);
  cl_kernel k = kernel("say");
  cl_int v = 9;
  clSetKernelArg(k, 0, sizeof v, &v);
  size_t g = 3, l = 3;
  cl_int e = clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL);
  cl_int f = clFinish(queue);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(f, CL_SUCCESS);
  char text[256] = "";
  lseek(fd, 0, SEEK_SET);
  ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  unlink(path);
  assert_true(n > 0);
  assert_string_equal(text, "item 0 v=9\nitem 1 v=9\nitem 2 v=9\n");
  clReleaseKernel(k);
}

/* clCloneKernel: the arguments as they are at the clone (API 5.9.1). */
static void test_clone_kernel(void **state) {
  (void)state;
  cl_kernel k = kernel("fill");
  cl_mem a = buffer(8 * sizeof(cl_int)), b = buffer(8 * sizeof(cl_int));
  cl_int v = 100;
  clSetKernelArg(k, 0, sizeof a, &a);
  clSetKernelArg(k, 1, sizeof v, &v);
  cl_int e;
  cl_kernel c = clCloneKernel(k, &e);
  assert_int_equal(e, CL_SUCCESS);
  v = 200;
  clSetKernelArg(k, 0, sizeof b, &b);
  clSetKernelArg(k, 1, sizeof v, &v);
  char name[16];
  assert_int_equal(clGetKernelInfo(c, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL), CL_SUCCESS);
  assert_string_equal(name, "fill");
  size_t g = 8;
  assert_int_equal(clEnqueueNDRangeKernel(queue, c, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
  cl_int out_a[8], out_b[8];
  assert_int_equal(clEnqueueReadBuffer(queue, a, CL_TRUE, 0, sizeof out_a, out_a, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, sizeof out_b, out_b, 0, NULL, NULL), CL_SUCCESS);
  for (int i = 0; i < 8; i++) {
    assert_int_equal(out_a[i], 100 + i);
    assert_int_equal(out_b[i], 200 + i);
  }
  /* a clone of a kernel without arguments set has none (CTS api/clone_kernel) */
  cl_kernel fresh = kernel("fill");
  cl_kernel c2 = clCloneKernel(fresh, &e);
  assert_int_equal(clEnqueueNDRangeKernel(queue, c2, 1, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
  clReleaseKernel(c2);
  clReleaseKernel(fresh);
  clReleaseMemObject(b);
  clReleaseMemObject(a);
  clReleaseKernel(c);
  clReleaseKernel(k);
}

/* A kernel does not retain its memory object arguments: releasing the buffer destroys it at once
 * (CTS api/retain_mem_object_set_kernel_arg), and a later enqueue is CL_INVALID_KERNEL_ARGS. A
 * launch already enqueued keeps it until it is complete. */
static int destroyed;
static void CL_CALLBACK on_destroyed(cl_mem m, void *user) {
  (void)m;
  (void)user;
  destroyed++;
}

static void test_arg_not_retained(void **state) {
  (void)state;
  cl_kernel k = kernel("fill");
  cl_mem m = buffer(8 * sizeof(cl_int));
  destroyed = 0;
  assert_int_equal(clSetMemObjectDestructorCallback(m, on_destroyed, NULL), CL_SUCCESS);
  cl_int v = 1;
  clSetKernelArg(k, 0, sizeof m, &m);
  clSetKernelArg(k, 1, sizeof v, &v);
  assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);
  assert_int_equal(destroyed, 1);
  size_t g = 8;
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);

  /* released after the enqueue: the launch still writes it, then it goes */
  cl_int e;
  cl_int *host = calloc(8, sizeof(cl_int));
  m = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 8 * sizeof(cl_int), host, &e);
  destroyed = 0;
  clSetMemObjectDestructorCallback(m, on_destroyed, NULL);
  clSetKernelArg(k, 0, sizeof m, &m);
  cl_event gate = clCreateUserEvent(ctx, &e), done;
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 1, &gate, &done), CL_SUCCESS);
  clReleaseMemObject(m);
  assert_int_equal(destroyed, 0);
  clSetUserEventStatus(gate, CL_COMPLETE);
  assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
  assert_int_equal(clFinish(queue), CL_SUCCESS);
  for (int i = 0; i < 8; i++) assert_int_equal(host[i], 1 + i);
  clReleaseEvent(done);
  clReleaseEvent(gate);
  for (int i = 0; i < 100 && !destroyed; i++) usleep(10000); /* the worker's release may trail */
  assert_int_equal(destroyed, 1);
  free(host);
  clReleaseKernel(k);
}

static void test_enqueue_task(void **state) {
  (void)state;
  cl_kernel k = kernel("task");
  cl_mem m = buffer(sizeof(cl_int));
  clSetKernelArg(k, 0, sizeof m, &m);
  cl_event ev;
  assert_int_equal(clEnqueueTask(queue, k, 0, NULL, &ev), CL_SUCCESS);
  cl_int out = 0;
  assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(out, 11); /* global size 1, local size 1 */
  cl_command_type type;
  clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL);
  assert_int_equal(type, CL_COMMAND_TASK);
  clReleaseEvent(ev);
  assert_int_equal(clEnqueueTask(queue, NULL, 0, NULL, NULL), CL_INVALID_KERNEL);
  clReleaseMemObject(m);
  clReleaseKernel(k);
}

/* A kernel that faults stops; its event fails (CL_OUT_OF_RESOURCES), commands waiting for it
 * fail, and what it wrote before the fault stays in the buffer. */
/* Run k over g work-items on q, then read m (bytes into out) after it, catching stderr: the fault
 * report goes there. The launch must fault: the read fails for the event's error. */
static void run_faulting(cl_command_queue q, cl_kernel k, size_t g, cl_mem m, cl_int *out, size_t bytes, cl_event *ev,
                         char *report, size_t cap) {
  char path[] = "/tmp/spvi-test-kernel-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  fflush(stderr);
  int saved = dup(2);
  dup2(fd, 2);
  cl_int enq = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, ev);
  cl_int rd = clEnqueueReadBuffer(q, m, CL_TRUE, 0, bytes, out, 1, ev, NULL);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  lseek(fd, 0, SEEK_SET);
  ssize_t n = read(fd, report, cap - 1);
  close(fd);
  unlink(path);
  assert_int_equal(enq, CL_SUCCESS);
  assert_int_equal(rd, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  assert_true(n > 0);
  report[n] = 0;
}

static void test_faulting_kernel(void **state) {
  (void)state;
  cl_int e;
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &e);
  cl_kernel k = kernel("crash");
  cl_mem m = buffer(16 * sizeof(cl_int));
  assert_int_equal(clEnqueueFillBuffer(queue, m, &(cl_int){-1}, sizeof(cl_int), 0, 16 * sizeof(cl_int), 0, NULL, NULL),
                   CL_SUCCESS);
  assert_int_equal(clFinish(queue), CL_SUCCESS);
  clSetKernelArg(k, 0, sizeof m, &m);
  cl_event ev;
  cl_int out[16];
  char report[4096] = "";
  run_faulting(q, k, 1, m, out, sizeof out, &ev, report, sizeof report);
  assert_non_null(strstr(report, "kernel `crash`"));
  assert_non_null(strstr(report, "called from test_kernel+0x")); /* this program, not the loader */
  assert_non_null(strstr(report, "out-of-bounds"));
  cl_int status = 0;
  assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL), CL_SUCCESS);
  assert_int_equal(status, CL_OUT_OF_RESOURCES);
  assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(out[0], 7);
  for (int i = 1; i < 16; i++) assert_int_equal(out[i], -1);
  clReleaseEvent(ev);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseCommandQueue(q);
}

/* A NULL buffer argument (API 5.9.2: arg_value NULL, or pointing to a NULL cl_mem): the kernel
 * sees a null pointer and takes its other path; dereferenced, it faults, and the report names the
 * argument. */
static void test_null_buffer_arg(void **state) {
  (void)state;
  cl_program p = cltest_build(ctx, device,
                              "kernel void maybe(global int *out, global const int *in) {\n"
                              "  out[get_global_id(0)] = in ? in[get_global_id(0)] : -5; }\n",
                              "-cl-kernel-arg-info");
  cl_kernel k = cltest_kernel(p, "maybe");
  cl_mem m = buffer(4 * sizeof(cl_int)), none = NULL;
  cl_int out[4];
  size_t g = 4;
  for (int how = 0; how < 2; how++) {
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof none, how ? &none : NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < 4; i++) assert_int_equal(out[i], -5);
  }
  /* out null too: the store through it faults (on a queue of its own, as test_faulting_kernel) */
  cl_int e;
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(clSetKernelArg(k, 0, sizeof none, &none), CL_SUCCESS);
  cl_event ev;
  char report[4096] = "";
  run_faulting(q, k, g, m, out, sizeof out, &ev, report, sizeof report);
  assert_non_null(strstr(report, "null pointer dereference in kernel `maybe`"));
  assert_non_null(strstr(report, "the pointer is argument 0"));
  assert_non_null(strstr(report, "(null pointer) plus 0 bytes"));
  clReleaseEvent(ev);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
}

/* Several threads, each with its own queue and kernel object, launching at once. */
typedef struct {
  int id;
  int failures;
} worker;

static void *launch_thread(void *arg) {
  worker *w = arg;
  cl_int e;
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &e);
  cl_kernel k = clCreateKernel(prog, "fill", &e);
  enum { N = 200 };
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(cl_int), NULL, &e);
  for (int round = 0; round < 10; round++) {
    cl_int v = w->id * 1000 + round * 10;
    clSetKernelArg(k, 0, sizeof m, &m);
    clSetKernelArg(k, 1, sizeof v, &v);
    size_t g = N, l = 8;
    if (clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL) != CL_SUCCESS) w->failures++;
    cl_int out[N];
    if (clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL) != CL_SUCCESS) w->failures++;
    for (int i = 0; i < N; i++)
      if (out[i] != v + i) w->failures++;
  }
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseCommandQueue(q);
  return NULL;
}

static void test_threads(void **state) {
  (void)state;
  enum { T = 6 };
  pthread_t th[T];
  worker w[T];
  for (int i = 0; i < T; i++) {
    w[i] = (worker){i, 0};
    assert_int_equal(pthread_create(&th[i], NULL, launch_thread, &w[i]), 0);
  }
  for (int i = 0; i < T; i++) {
    pthread_join(th[i], NULL);
    assert_int_equal(w[i].failures, 0);
  }
}

/* An SVM allocation as a pointer argument (clSetKernelArgSVMPointer). */
static void test_svm_arg(void **state) {
  (void)state;
  cl_int *p = clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, 16 * sizeof(cl_int), 0);
  if (!p) skip();
  cl_kernel k = kernel("fill");
  cl_int v = 3;
  assert_int_equal(clSetKernelArgSVMPointer(k, 0, p + 4), CL_SUCCESS);
  clSetKernelArg(k, 1, sizeof v, &v);
  size_t g = 8;
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clFinish(queue), CL_SUCCESS);
  for (int i = 0; i < 8; i++) assert_int_equal(p[4 + i], 3 + i);
  assert_int_equal(p[0], 0);
  clReleaseKernel(k);
  clSVMFree(ctx, p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_kernel_objects),
    cmocka_unit_test(test_set_arg_errors),
    cmocka_unit_test(test_arg_info),
    cmocka_unit_test(test_work_group_info),
    cmocka_unit_test(test_sub_group_info),
    cmocka_unit_test(test_ndrange_launches),
    cmocka_unit_test(test_ndrange_local_null),
    cmocka_unit_test(test_ndrange_errors),
    cmocka_unit_test(test_local_args),
    cmocka_unit_test(test_printf),
    cmocka_unit_test(test_clone_kernel),
    cmocka_unit_test(test_arg_not_retained),
    cmocka_unit_test(test_enqueue_task),
    cmocka_unit_test(test_faulting_kernel),
    cmocka_unit_test(test_null_buffer_arg),
    cmocka_unit_test(test_threads),
    cmocka_unit_test(test_svm_arg),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
