/*
 * app_ok.c — a correct OpenCL application for tests/opencl/exec.sh: c[i] = a[i] * b[i] + i over
 * N ints, read back and compared with the same computation in C. Exit status 0 when every
 * element matches, 1 when one does not, 10 when an OpenCL call fails. With an argument, exits
 * with that status after the check (exec.sh: `spvi exec` returns the program's status).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>

enum { N = 1000 };

static const char *src = "__kernel void madd(__global const int *a, __global const int *b, __global int *c) {\n"
                         "  size_t i = get_global_id(0);\n"
                         "  c[i] = a[i] * b[i] + (int)i;\n"
                         "}\n";

static void check(const char *what, cl_int err) {
  if (err == CL_SUCCESS) return;
  fprintf(stderr, "app_ok: %s failed: %d\n", what, err);
  exit(10);
}

int main(int argc, char **argv) {
  static cl_int a[N], b[N], c[N];
  for (int i = 0; i < N; i++) {
    a[i] = i - 500;
    b[i] = 3 * i + 7;
  }
  cl_platform_id plat;
  cl_device_id dev;
  cl_int err;
  check("clGetPlatformIDs", clGetPlatformIDs(1, &plat, NULL));
  check("clGetDeviceIDs", clGetDeviceIDs(plat, CL_DEVICE_TYPE_DEFAULT, 1, &dev, NULL));
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  check("clCreateContext", err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  check("clCreateCommandQueueWithProperties", err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  check("clCreateProgramWithSource", err);
  check("clBuildProgram", clBuildProgram(prog, 1, &dev, "", NULL, NULL));
  cl_kernel k = clCreateKernel(prog, "madd", &err);
  check("clCreateKernel", err);
  cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
  check("clCreateBuffer a", err);
  cl_mem bb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b, &err);
  check("clCreateBuffer b", err);
  cl_mem bc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof c, NULL, &err);
  check("clCreateBuffer c", err);
  check("clSetKernelArg 0", clSetKernelArg(k, 0, sizeof ba, &ba));
  check("clSetKernelArg 1", clSetKernelArg(k, 1, sizeof bb, &bb));
  check("clSetKernelArg 2", clSetKernelArg(k, 2, sizeof bc, &bc));
  size_t global = N;
  check("clEnqueueNDRangeKernel", clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
  check("clEnqueueReadBuffer", clEnqueueReadBuffer(q, bc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < N; i++)
    if (c[i] != a[i] * b[i] + i) bad++;
  clReleaseMemObject(ba);
  clReleaseMemObject(bb);
  clReleaseMemObject(bc);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  if (bad) {
    fprintf(stderr, "app_ok: %d of %d results wrong\n", bad, N);
    return 1;
  }
  printf("app_ok: %d results correct\n", N);
  return argc > 1 ? atoi(argv[1]) : 0;
}
