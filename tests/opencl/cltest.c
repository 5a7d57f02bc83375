/*
 * cltest.c — the setup the OpenCL host tests share (see cltest.h).
 */
#include "cltest.h"

cltest_env cltest;

int cltest_group_setup(void **state) {
  (void)state;
  return cltest_setup(&cltest);
}

int cltest_group_teardown(void **state) {
  (void)state;
  return cltest_teardown(&cltest);
}

int cltest_device(cltest_env *env) {
  cl_uint n = 0;
  *env = (cltest_env){0};
  if (clGetPlatformIDs(1, &env->platform, &n) != CL_SUCCESS || n == 0) return -1;
  return clGetDeviceIDs(env->platform, CL_DEVICE_TYPE_ALL, 1, &env->device, NULL) == CL_SUCCESS ? 0 : -1;
}

int cltest_setup(cltest_env *env) {
  if (cltest_device(env) != 0) return -1;
  cl_int e;
  env->context = clCreateContext(NULL, 1, &env->device, NULL, NULL, &e);
  if (e != CL_SUCCESS) return -1;
  env->queue = clCreateCommandQueueWithProperties(env->context, env->device, NULL, &e);
  return e == CL_SUCCESS ? 0 : -1;
}

int cltest_teardown(cltest_env *env) {
  if (env->queue) clReleaseCommandQueue(env->queue);
  if (env->context) clReleaseContext(env->context);
  env->queue = NULL;
  env->context = NULL;
  return 0;
}

cl_program cltest_try_build(cl_context ctx, cl_device_id dev, const char *src, const char *options, cl_int *err) {
  cl_int e;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
  if (e == CL_SUCCESS) {
    e = clBuildProgram(p, 1, &dev, options, NULL, NULL);
    if (e != CL_SUCCESS) {
      char log[8192] = "";
      clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
      fprintf(stderr, "build failed (%d):\n%s\n", e, log);
      clReleaseProgram(p);
      p = NULL;
    }
  }
  if (err) *err = e;
  return p;
}

cl_program cltest_build(cl_context ctx, cl_device_id dev, const char *src, const char *options) {
  cl_int e;
  cl_program p = cltest_try_build(ctx, dev, src, options, &e);
  CHECK(e);
  assert_non_null(p);
  return p;
}

cl_kernel cltest_kernel(cl_program p, const char *name) {
  cl_int e;
  cl_kernel k = clCreateKernel(p, name, &e);
  CHECK(e);
  assert_non_null(k);
  return k;
}

void *cltest_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = n < 0 ? NULL : malloc((size_t)n + 1);
  size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
  fclose(f);
  if (buf) buf[got] = 0;
  if (len) *len = got;
  return buf;
}
