/*
 * ocl_host.c — runs one benchmark kernel through an OpenCL implementation (PoCL natively, Oclgrind
 * as `oclgrind ocl_host ...`) with the same source, inputs and NDRange as the spvi run, times the
 * NDRange (enqueue + clFinish), and checks the outputs with the same C reference.
 *
 *   ocl_host [--platform SUBSTR] [--runs N] [--warmup N] [--build-options OPTS] NAME CLFILE [ROWS]
 *
 * ROWS is the global size along the last dimension (default: the full problem). Output buffers are
 * zeroed before every run (outside the timed region). Prints one line
 *   ocl_s=MEDIAN api_s=SECONDS runs=N platform="..." device="..."
 * api_s: the whole OpenCL part, from the platform query through the build, buffer creation,
 * transfers and launches to the last read (not the input generation and check around it).
 * and exits 0 when the outputs match, 1 when they do not (the reason on stdout), 2 on errors.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

#define CHECK_CL(call, what)                                          \
  do {                                                                \
    cl_int err_ = (call);                                             \
    if (err_ != CL_SUCCESS) {                                         \
      fprintf(stderr, "ocl_host: %s failed: error %d\n", what, err_); \
      goto done;                                                      \
    }                                                                 \
  } while (0)

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, len = 0;
  char *s = malloc(cap);
  size_t got;
  while (s && (got = fread(s + len, 1, cap - len - 1, f)) > 0) {
    len += got;
    if (cap - len < 2) {
      char *t = realloc(s, cap *= 2);
      if (!t) free(s);
      s = t;
    }
  }
  fclose(f);
  if (s) s[len] = 0;
  return s;
}

/* The first platform whose name contains `want` (any platform when want is NULL) with a device. */
static bool pick_device(const char *want, cl_platform_id *plat, cl_device_id *dev, char *pname, char *dname) {
  cl_platform_id ps[16];
  cl_uint np = 0;
  if (clGetPlatformIDs(16, ps, &np) != CL_SUCCESS) return false;
  for (cl_uint i = 0; i < np && i < 16; i++) {
    clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, 256, pname, NULL);
    if (want && !strstr(pname, want)) continue;
    if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, dev, NULL) != CL_SUCCESS) continue;
    clGetDeviceInfo(*dev, CL_DEVICE_NAME, 256, dname, NULL);
    *plat = ps[i];
    return true;
  }
  return false;
}

int main(int argc, char **argv) {
  const char *want_platform = NULL, *build_options = "";
  int runs = 5, warmup = 1, ai = 1;
  for (; ai + 1 < argc && strncmp(argv[ai], "--", 2) == 0; ai += 2) {
    if (strcmp(argv[ai], "--platform") == 0) want_platform = argv[ai + 1];
    else if (strcmp(argv[ai], "--runs") == 0) runs = atoi(argv[ai + 1]);
    else if (strcmp(argv[ai], "--warmup") == 0) warmup = atoi(argv[ai + 1]);
    else if (strcmp(argv[ai], "--build-options") == 0) build_options = argv[ai + 1];
    else break;
  }
  if (argc - ai < 2 || argc - ai > 3 || runs < 1 || runs > 1000 || warmup < 0) {
    fprintf(stderr, "usage: ocl_host [--platform SUBSTR] [--runs N] [--warmup N] [--build-options OPTS] "
                    "NAME CLFILE [ROWS]\n");
    return 2;
  }
  const bench_kernel *k = bench_kernel_find(argv[ai]);
  if (!k) {
    fprintf(stderr, "ocl_host: unknown kernel `%s`\n", argv[ai]);
    return 2;
  }
  size_t rows = argc - ai == 3 ? (size_t)strtoull(argv[ai + 2], NULL, 10) : k->global[k->dims - 1];
  if (rows == 0 || rows > k->global[k->dims - 1] || rows % k->local[k->dims - 1]) {
    fprintf(stderr, "ocl_host: bad row count\n");
    return 2;
  }

  int status = 2;
  char *src = read_text(argv[ai + 1]);
  void *in[BENCH_MAX_ARGS] = {0}, *got[BENCH_MAX_ARGS] = {0};
  cl_mem mem[BENCH_MAX_ARGS] = {0};
  cl_context ctx = NULL;
  cl_command_queue q = NULL;
  cl_program prog = NULL;
  cl_kernel kern = NULL;
  double *times = calloc((size_t)runs, sizeof *times);
  char pname[256] = "", dname[256] = "";
  cl_platform_id plat;
  cl_device_id dev;
  cl_int err;
  if (!src || !times) {
    fprintf(stderr, "ocl_host: cannot read %s\n", argv[ai + 1]);
    goto done;
  }
  if (!bench_gen_inputs(k, in)) {
    fprintf(stderr, "ocl_host: out of memory\n");
    goto done;
  }
  double api_t0 = now_seconds();
  if (!pick_device(want_platform, &plat, &dev, pname, dname)) {
    fprintf(stderr, "ocl_host: no OpenCL platform%s%s with a device\n", want_platform ? " matching " : "",
            want_platform ? want_platform : "");
    goto done;
  }
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK_CL(err, "clCreateContext");
  q = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK_CL(err, "clCreateCommandQueue");
  const char *srcs[1] = {src};
  prog = clCreateProgramWithSource(ctx, 1, srcs, NULL, &err);
  CHECK_CL(err, "clCreateProgramWithSource");
  if (clBuildProgram(prog, 1, &dev, build_options, NULL, NULL) != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    fprintf(stderr, "ocl_host: clBuildProgram failed:\n%s\n", log);
    goto done;
  }
  kern = clCreateKernel(prog, k->name, &err);
  CHECK_CL(err, "clCreateKernel");
  for (int i = 0; i < k->nargs; i++) {
    const bench_arg *a = &k->args[i];
    switch (a->kind) {
    case BARG_BUFFER:
      mem[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bench_buffer_bytes(a), in[i], &err);
      CHECK_CL(err, "clCreateBuffer");
      CHECK_CL(clSetKernelArg(kern, (cl_uint)i, sizeof(cl_mem), &mem[i]), "clSetKernelArg");
      break;
    case BARG_LOCAL: CHECK_CL(clSetKernelArg(kern, (cl_uint)i, a->count, NULL), "clSetKernelArg"); break;
    case BARG_INT: CHECK_CL(clSetKernelArg(kern, (cl_uint)i, sizeof(cl_int), &a->ival), "clSetKernelArg"); break;
    case BARG_FLOAT: CHECK_CL(clSetKernelArg(kern, (cl_uint)i, sizeof(cl_float), &a->fval), "clSetKernelArg"); break;
    }
  }
  size_t global[2] = {k->global[0], k->global[1]};
  global[k->dims - 1] = rows;
  for (int r = -warmup; r < runs; r++) {
    for (int i = 0; i < k->nargs; i++) /* outputs start zeroed on every run (histogram accumulates) */
      if (k->args[i].kind == BARG_BUFFER && k->args[i].output)
        CHECK_CL(clEnqueueWriteBuffer(q, mem[i], CL_TRUE, 0, bench_buffer_bytes(&k->args[i]), in[i], 0, NULL, NULL),
                 "clEnqueueWriteBuffer");
    CHECK_CL(clFinish(q), "clFinish");
    double t0 = now_seconds();
    CHECK_CL(clEnqueueNDRangeKernel(q, kern, k->dims, NULL, global, k->local, 0, NULL, NULL), "clEnqueueNDRangeKernel");
    CHECK_CL(clFinish(q), "clFinish");
    if (r >= 0) times[r] = now_seconds() - t0;
  }
  for (int i = 0; i < k->nargs; i++) {
    if (k->args[i].kind != BARG_BUFFER) continue;
    size_t bytes = bench_buffer_bytes(&k->args[i]);
    if (!(got[i] = malloc(bytes))) goto done;
    CHECK_CL(clEnqueueReadBuffer(q, mem[i], CL_TRUE, 0, bytes, got[i], 0, NULL, NULL), "clEnqueueReadBuffer");
  }
  double api_s = now_seconds() - api_t0;
  qsort(times, (size_t)runs, sizeof *times, cmp_double);
  double median = runs % 2 ? times[runs / 2] : (times[runs / 2 - 1] + times[runs / 2]) / 2;
  printf("ocl_s=%.6f api_s=%.6f runs=%d platform=\"%s\" device=\"%s\"\n", median, api_s, runs, pname, dname);
  char msg[1024];
  if (bench_check_run(k, rows, in, got, msg, sizeof msg)) {
    status = 0;
  } else {
    printf("%s\n", msg);
    status = 1;
  }
done:
  for (int i = 0; i < k->nargs; i++) {
    if (mem[i]) clReleaseMemObject(mem[i]);
    free(got[i]);
  }
  bench_free_inputs(k, in);
  if (kern) clReleaseKernel(kern);
  if (prog) clReleaseProgram(prog);
  if (q) clReleaseCommandQueue(q);
  if (ctx) clReleaseContext(ctx);
  free(times);
  free(src);
  fflush(stdout);
  return status;
}
