/*
 * fuzz_opencl.c — harness (e): the OpenCL platform (opencl/, linked directly, as an application
 * may link libspvi-cl.so): clCreateProgramWithIL on the input, clBuildProgram, then for each of
 * its first FUZZ_MAX_KERNELS kernels arguments found through the API alone (the address and access
 * qualifiers clGetKernelArgInfo always answers; a by-value parameter's size by trying sizes up to
 * FUZZ_MAX_PRIVATE, as clSetKernelArg refuses any other), clEnqueueNDRangeKernel of FUZZ_GLOBAL
 * work-items and clFinish. The platform's step limit and thread count come from its environment
 * (docs/opencl-platform.md), set before its first call.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

enum { FUZZ_MAX_PRIVATE = 256, NIMAGES = 6 };

static cl_context ctx;
static cl_command_queue queue;
static cl_sampler sampler;
static cl_mem images[NIMAGES];

static void make_images(void) {
  static const cl_mem_object_type types[NIMAGES] = {CL_MEM_OBJECT_IMAGE2D,       CL_MEM_OBJECT_IMAGE1D,
                                                    CL_MEM_OBJECT_IMAGE3D,       CL_MEM_OBJECT_IMAGE2D_ARRAY,
                                                    CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE1D_BUFFER};
  static cl_mem buffer;
  cl_image_format f = {CL_RGBA, CL_FLOAT};
  cl_int e;
  buffer = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * 16, NULL, &e);
  for (int i = 0; i < NIMAGES; i++) {
    cl_image_desc d = {.image_type = types[i],
                       .image_width = 4,
                       .image_height = 4,
                       .image_depth = 4,
                       .image_array_size = 4,
                       .buffer = types[i] == CL_MEM_OBJECT_IMAGE1D_BUFFER ? buffer : NULL};
    images[i] = clCreateImage(ctx, CL_MEM_READ_WRITE, &f, &d, NULL, &e);
  }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  setenv("SPVI_MAX_STEPS", "2000", 1);
  setenv("SPVI_THREADS", "1", 1);
  cl_platform_id p;
  cl_device_id dev;
  cl_int e;
  if (clGetPlatformIDs(1, &p, NULL) || clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, NULL)) abort();
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
  queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &e);
  static const cl_sampler_properties sp[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, 0};
  sampler = clCreateSamplerWithProperties(ctx, sp, &e);
  if (!ctx || !queue || !sampler) abort();
  make_images();
  return 0;
}

/* A by-value argument: a sampler when the kernel takes one, else zero bytes of the parameter's size. */
static bool private_arg(cl_kernel k, cl_uint i) {
  static const unsigned char zero[FUZZ_MAX_PRIVATE];
  if (clSetKernelArg(k, i, sizeof sampler, &sampler) == CL_SUCCESS) return true;
  for (size_t size = 1; size <= sizeof zero; size++)
    if (clSetKernelArg(k, i, size, zero) == CL_SUCCESS) return true;
  return false;
}

static bool image_arg(cl_kernel k, cl_uint i) {
  for (int t = 0; t < NIMAGES; t++)
    if (images[t] && clSetKernelArg(k, i, sizeof images[t], &images[t]) == CL_SUCCESS) return true;
  return false;
}

/* Sets every argument of k (buffers from `buf`); false when one cannot be set. */
static bool set_args(cl_kernel k, cl_mem buf) {
  cl_uint n;
  if (clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof n, &n, NULL)) return false;
  for (cl_uint i = 0; i < n; i++) {
    cl_kernel_arg_address_qualifier aq;
    cl_kernel_arg_access_qualifier cq;
    if (clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL) ||
        clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof cq, &cq, NULL))
      return false;
    bool ok = cq != CL_KERNEL_ARG_ACCESS_NONE       ? image_arg(k, i)
              : aq == CL_KERNEL_ARG_ADDRESS_LOCAL   ? clSetKernelArg(k, i, FUZZ_ARG_BYTES, NULL) == CL_SUCCESS
              : aq == CL_KERNEL_ARG_ADDRESS_PRIVATE ? private_arg(k, i)
                                                    : clSetKernelArg(k, i, sizeof buf, &buf) == CL_SUCCESS;
    if (!ok) return false;
  }
  return true;
}

static void run_kernels(cl_program prog) {
  cl_kernel ks[FUZZ_MAX_KERNELS];
  cl_uint n = 0;
  if (clCreateKernelsInProgram(prog, FUZZ_MAX_KERNELS, ks, &n) != CL_SUCCESS) {
    /* more kernels than room: the first ones by name */
    size_t len;
    if (clGetProgramInfo(prog, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &len)) return;
    char *names = malloc(len);
    clGetProgramInfo(prog, CL_PROGRAM_KERNEL_NAMES, len, names, NULL);
    for (char *save = NULL, *w = strtok_r(names, ";", &save); w && n < FUZZ_MAX_KERNELS; w = strtok_r(NULL, ";", &save))
      if ((ks[n] = clCreateKernel(prog, w, NULL))) n++;
    free(names);
  }
  cl_int e;
  for (cl_uint i = 0; i < n; i++) {
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, FUZZ_ARG_BYTES, NULL, &e);
    size_t global = FUZZ_GLOBAL;
    if (buf && set_args(ks[i], buf) &&
        clEnqueueNDRangeKernel(queue, ks[i], 1, NULL, &global, NULL, 0, NULL, NULL) == CL_SUCCESS)
      clFinish(queue);
    if (buf) clReleaseMemObject(buf);
    clReleaseKernel(ks[i]);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > FUZZ_MAX_MODULE) return 0;
  cl_int e;
  cl_program prog = clCreateProgramWithIL(ctx, data, size, &e);
  if (!prog) return 0;
  if (clBuildProgram(prog, 0, NULL, "", NULL, NULL) == CL_SUCCESS) run_kernels(prog);
  clReleaseProgram(prog);
  return 0;
}
