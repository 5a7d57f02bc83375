/*
 * app_oob.c — an OpenCL application with a bug, for tests/opencl/exec.sh: kernel `fill` writes
 * out[i + 1] for i in 0..N-1, so work-item N-1 writes one int past the N-int buffer `out`
 * (argument 0, byte offset 4*N). Like many applications it does not check how its kernel ended,
 * and exits 0: under `spvi exec` the out-of-bounds write is reported on stderr and the command's
 * exit status is 1. Plain OpenCL host code: builds with `cc app_oob.c -lOpenCL`.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>

enum { N = 64 };

static const char *src = "__kernel void fill(__global int *out, int base) {\n"
                         "  size_t i = get_global_id(0);\n"
                         "  out[i + 1] = base + (int)i;  /* i + 1 == N for the last work-item */\n"
                         "}\n";

static void die(const char *what, cl_int err) {
  fprintf(stderr, "app_oob: %s failed: %d\n", what, err);
  exit(10); /* a set-up failure, not the bug this program has */
}

int main(void) {
  cl_platform_id plat;
  cl_device_id dev;
  cl_int err = clGetPlatformIDs(1, &plat, NULL);
  if (err) die("clGetPlatformIDs", err);
  if ((err = clGetDeviceIDs(plat, CL_DEVICE_TYPE_DEFAULT, 1, &dev, NULL))) die("clGetDeviceIDs", err);
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  if (err) die("clCreateContext", err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  if (err) die("clCreateCommandQueueWithProperties", err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  if (err) die("clCreateProgramWithSource", err);
  if ((err = clBuildProgram(prog, 1, &dev, "", NULL, NULL))) die("clBuildProgram", err);
  cl_kernel k = clCreateKernel(prog, "fill", &err);
  if (err) die("clCreateKernel", err);
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(cl_int), NULL, &err);
  if (err) die("clCreateBuffer", err);
  cl_int base = 100;
  clSetKernelArg(k, 0, sizeof out, &out);
  clSetKernelArg(k, 1, sizeof base, &base);
  size_t global = N;
  /* the enqueue's and clFinish's results are ignored, as the bug's owner did */
  clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
  clFinish(q);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  printf("app_oob: done\n");
  return 0;
}
