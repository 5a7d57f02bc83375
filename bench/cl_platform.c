/*
 * cl_platform.c — the OpenCL platform's own costs, measured through the ICD loader on whichever
 * platform the loader offers first (bench/run.sh runs it once with spvi's library, once with
 * PoCL's): the overhead of one clEnqueueNDRangeKernel + clFinish of an empty kernel on one
 * work-item, and the bandwidth of blocking buffer writes and reads against memcpy of the same bytes.
 *
 * Output, one line: name=... enqueue_us=... write_gbs=... read_gbs=... memcpy_gbs=...
 * Each figure is the median of 7 batches (enqueue: 500 launches a batch; transfers: 64 MiB x 4).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCHES 7
#define LAUNCHES 500
#define XFER_BYTES ((size_t)64 << 20)
#define XFER_REPS 4

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return v[n / 2];
}

#define CHECK(e, what)                                                \
  do {                                                                \
    cl_int e_ = (e);                                                  \
    if (e_ != CL_SUCCESS) {                                           \
      fprintf(stderr, "cl_platform: %s failed: %d\n", what, (int)e_); \
      exit(1);                                                        \
    }                                                                 \
  } while (0)

int main(void) {
  cl_platform_id plat;
  cl_device_id dev;
  cl_int e;
  CHECK(clGetPlatformIDs(1, &plat, NULL), "clGetPlatformIDs");
  char name[256] = "";
  clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof name, name, NULL);
  for (char *c = name; *c; c++)
    if (*c == ' ') *c = '_'; /* one word, for bench/run.sh's parsing */
  CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL), "clGetDeviceIDs");
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
  CHECK(e, "clCreateContext");
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &e);
  CHECK(e, "clCreateCommandQueueWithProperties");
  const char *src = "kernel void empty(global int *p) { }\n";
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
  CHECK(e, "clCreateProgramWithSource");
  CHECK(clBuildProgram(prog, 1, &dev, "", NULL, NULL), "clBuildProgram");
  cl_kernel k = clCreateKernel(prog, "empty", &e);
  CHECK(e, "clCreateKernel");
  cl_mem small = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &e);
  CHECK(e, "clCreateBuffer");
  CHECK(clSetKernelArg(k, 0, sizeof small, &small), "clSetKernelArg");

  size_t one = 1;
  double t[BATCHES];
  for (int i = 0; i < 50; i++) { /* warm-up: workers started, code paged in */
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL), "clEnqueueNDRangeKernel");
    CHECK(clFinish(q), "clFinish");
  }
  for (int b = 0; b < BATCHES; b++) {
    double t0 = now();
    for (int i = 0; i < LAUNCHES; i++) {
      CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL), "clEnqueueNDRangeKernel");
      CHECK(clFinish(q), "clFinish");
    }
    t[b] = (now() - t0) / LAUNCHES * 1e6;
  }
  double enqueue_us = median(t, BATCHES);

  unsigned char *host = malloc(XFER_BYTES), *host2 = malloc(XFER_BYTES);
  if (!host || !host2) return 1;
  memset(host, 0x5a, XFER_BYTES);
  memset(host2, 0, XFER_BYTES);
  cl_mem big = clCreateBuffer(ctx, CL_MEM_READ_WRITE, XFER_BYTES, NULL, &e);
  CHECK(e, "clCreateBuffer (64 MiB)");
  double w[BATCHES], r[BATCHES], m[BATCHES];
  CHECK(clEnqueueWriteBuffer(q, big, CL_TRUE, 0, XFER_BYTES, host, 0, NULL, NULL), "clEnqueueWriteBuffer");
  for (int b = 0; b < BATCHES; b++) {
    double t0 = now();
    for (int i = 0; i < XFER_REPS; i++)
      CHECK(clEnqueueWriteBuffer(q, big, CL_TRUE, 0, XFER_BYTES, host, 0, NULL, NULL), "clEnqueueWriteBuffer");
    w[b] = (double)XFER_BYTES * XFER_REPS / (now() - t0) / 1e9;
    t0 = now();
    for (int i = 0; i < XFER_REPS; i++)
      CHECK(clEnqueueReadBuffer(q, big, CL_TRUE, 0, XFER_BYTES, host2, 0, NULL, NULL), "clEnqueueReadBuffer");
    r[b] = (double)XFER_BYTES * XFER_REPS / (now() - t0) / 1e9;
    t0 = now();
    for (int i = 0; i < XFER_REPS; i++) {
      memcpy(host2, host, XFER_BYTES);
      __asm__ volatile("" : : "r"(host2) : "memory"); /* keep every copy */
    }
    m[b] = (double)XFER_BYTES * XFER_REPS / (now() - t0) / 1e9;
  }
  if (memcmp(host, host2, XFER_BYTES) != 0) {
    fprintf(stderr, "cl_platform: the read-back buffer differs from what was written\n");
    return 1;
  }
  printf("name=%s enqueue_us=%.2f write_gbs=%.2f read_gbs=%.2f memcpy_gbs=%.2f\n", name, enqueue_us, median(w, BATCHES),
         median(r, BATCHES), median(m, BATCHES));
  clReleaseMemObject(big);
  clReleaseMemObject(small);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(host);
  free(host2);
  return 0;
}
