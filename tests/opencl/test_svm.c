/*
 * test_svm.c — shared virtual memory through the ICD loader (OpenCL 3.0 API 5.6): clSVMAlloc and
 * clSVMFree, the SVM commands with their error codes, buffers on SVM memory, and a kernel that
 * follows a linked list the host built in SVM memory.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include "cltest.h"

/* The group's objects (cltest_group_setup). */
#define plat cltest.platform
#define dev cltest.device
#define ctx cltest.context
#define q cltest.queue

/* A program built from OpenCL C source (the build log is printed when the build fails). */
static cl_program program(const char *src) { return cltest_build(ctx, dev, src, ""); }

static cl_command_type type_of(cl_event ev) {
  cl_command_type t;
  CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
  return t;
}

/* ---- clSVMAlloc / clSVMFree ------------------------------------------------------------------- */

static void t_alloc(void **state) {
  (void)state;
  const cl_svm_mem_flags good[] = {0,
                                   CL_MEM_READ_WRITE,
                                   CL_MEM_READ_ONLY,
                                   CL_MEM_WRITE_ONLY,
                                   CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
                                   CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER};
  for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
    uint8_t *p = clSVMAlloc(ctx, good[i], 1000, 0);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % 128, 0);          /* default: the largest type, long16 */
    for (int j = 0; j < 1000; j++) p[j] = (uint8_t)j; /* host memory */
    assert_int_equal(p[999], (uint8_t)999);
    clSVMFree(ctx, p);
  }
  uint8_t *p = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 4096);
  assert_non_null(p);
  assert_int_equal((uintptr_t)p % 4096, 0);
  clSVMFree(ctx, p);
  cl_ulong max;
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max, &max, NULL));
  /* every failure is a NULL (5.6.1) */
  assert_null(clSVMAlloc(NULL, CL_MEM_READ_WRITE, 64, 0));
  assert_null(clSVMAlloc((cl_context)q, CL_MEM_READ_WRITE, 64, 0));
  assert_null(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 0, 0));
  assert_null(clSVMAlloc(ctx, CL_MEM_READ_WRITE, (size_t)max + 1, 0));
  assert_null(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 3));
  assert_null(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 96));
  assert_null(clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, 0));
  assert_null(clSVMAlloc(ctx, CL_MEM_USE_HOST_PTR, 64, 0));
  /* no SVM atomics on this device */
  cl_device_svm_capabilities caps;
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL));
  assert_true(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER);
  assert_false(caps & CL_DEVICE_SVM_ATOMICS);
  assert_null(clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, 64, 0));
  clSVMFree(ctx, NULL); /* nothing */
}

/* ---- commands ------------------------------------------------------------------------------------ */

static void t_memcpy(void **state) {
  (void)state;
  enum { N = 4096 };
  uint8_t *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N, 0), *b = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N, 0);
  uint8_t *host = malloc(N), *host2 = malloc(N);
  for (int i = 0; i < N; i++) host[i] = (uint8_t)(i * 13);
  cl_event ev;
  /* host -> SVM -> SVM -> host, the middle one non-blocking */
  CHECK(clEnqueueSVMMemcpy(q, CL_TRUE, a, host, N, 0, NULL, &ev));
  assert_int_equal(type_of(ev), CL_COMMAND_SVM_MEMCPY);
  CHECK(clReleaseEvent(ev));
  CHECK(clEnqueueSVMMemcpy(q, CL_FALSE, b, a, N, 0, NULL, NULL));
  CHECK(clEnqueueSVMMemcpy(q, CL_TRUE, host2, b, N, 0, NULL, NULL));
  assert_memory_equal(host2, host, N);
  /* host to host is allowed too */
  memset(host2, 0, N);
  CHECK(clEnqueueSVMMemcpy(q, CL_TRUE, host2, host, N, 0, NULL, NULL));
  assert_memory_equal(host2, host, N);
  /* a copy held back by a user event happens when it runs */
  cl_int e;
  cl_event gate = clCreateUserEvent(ctx, &e);
  CHECK(e);
  memset(b, 0, 16);
  CHECK(clEnqueueSVMMemcpy(q, CL_FALSE, b, a + 16, 16, 1, &gate, &ev));
  usleep(10000);
  assert_int_equal(b[0], 0);
  CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK(clWaitForEvents(1, &ev));
  assert_memory_equal(b, host + 16, 16);
  CHECK(clReleaseEvent(ev));
  CHECK(clReleaseEvent(gate));
  /* overlap (the CTS's three cases) and bad arguments */
  assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, a + 16, a, 32, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, a, a + 16, 32, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, a, a, 32, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  CHECK(clEnqueueSVMMemcpy(q, CL_TRUE, a + 32, a, 32, 0, NULL, NULL)); /* adjacent is fine */
  assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, NULL, a, 32, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, a, NULL, 32, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueSVMMemcpy(NULL, CL_TRUE, a, b, 32, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, a, b, 32, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  clSVMFree(ctx, a);
  clSVMFree(ctx, b);
  free(host);
  free(host2);
}

static void t_fill(void **state) {
  (void)state;
  enum { N = 2048 };
  uint8_t *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N, 0), model[N], pattern[128];
  memset(a, 0, N);
  memset(model, 0, N);
  for (size_t ps = 1; ps <= 128; ps *= 2) {
    for (size_t i = 0; i < ps; i++) pattern[i] = (uint8_t)(ps + i * 3);
    size_t off = ps * (ps % 5), size = ps * (1 + (N / ps - ps % 5 - 1) / (1 + ps % 3));
    cl_event ev;
    CHECK(clEnqueueSVMMemFill(q, a + off, pattern, ps, size, 0, NULL, &ev));
    memset(pattern, 0, sizeof pattern); /* copied at enqueue time */
    CHECK(clWaitForEvents(1, &ev));
    assert_int_equal(type_of(ev), CL_COMMAND_SVM_MEMFILL);
    CHECK(clReleaseEvent(ev));
    for (size_t i = 0; i < size; i++) model[off + i] = (uint8_t)(ps + (i % ps) * 3);
    assert_memory_equal(a, model, N);
  }
  const size_t bad[] = {0, 3, 24, 256};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    assert_int_equal(clEnqueueSVMMemFill(q, a, pattern, bad[i], 768, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueSVMMemFill(q, a + 2, pattern, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE); /* misaligned */
  assert_int_equal(clEnqueueSVMMemFill(q, a, pattern, 4, 63, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueSVMMemFill(q, NULL, pattern, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueSVMMemFill(q, a, NULL, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueSVMMemFill(NULL, a, pattern, 4, 64, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK(clFinish(q));
  clSVMFree(ctx, a);
}

static void t_map(void **state) {
  (void)state;
  uint32_t *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 1024, 0);
  cl_event ev[2];
  CHECK(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, a, 1024, 0, NULL, &ev[0]));
  for (int i = 0; i < 256; i++) a[i] = (uint32_t)i * 3;
  CHECK(clEnqueueSVMUnmap(q, a, 0, NULL, &ev[1]));
  assert_int_equal(type_of(ev[0]), CL_COMMAND_SVM_MAP);
  assert_int_equal(type_of(ev[1]), CL_COMMAND_SVM_UNMAP);
  CHECK(clWaitForEvents(2, ev));
  CHECK(clReleaseEvent(ev[0]));
  CHECK(clReleaseEvent(ev[1]));
  CHECK(clEnqueueSVMMap(q, CL_FALSE, CL_MAP_READ, a, 1024, 0, NULL, NULL));
  CHECK(clFinish(q));
  assert_int_equal(a[255], 255 * 3);
  CHECK(clEnqueueSVMUnmap(q, a, 0, NULL, NULL));
  CHECK(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, a, 4, 0, NULL, NULL));
  CHECK(clEnqueueSVMUnmap(q, a, 0, NULL, NULL));
  assert_int_equal(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, NULL, 4, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, a, 4, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clEnqueueSVMMap(q, CL_TRUE, 1 << 8, a, 4, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueSVMMap(NULL, CL_TRUE, CL_MAP_READ, a, 4, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clEnqueueSVMUnmap(q, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueSVMUnmap(NULL, a, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK(clFinish(q));
  clSVMFree(ctx, a);
}

typedef struct free_record {
  cl_uint n;
  void *ptrs[8];
  cl_command_queue queue;
  int calls;
} free_record;

static void CL_CALLBACK on_free(cl_command_queue queue, cl_uint n, void **ptrs, void *user) {
  free_record *r = user;
  r->queue = queue;
  r->n = n;
  for (cl_uint i = 0; i < n && i < 8; i++) {
    r->ptrs[i] = ptrs[i];
    clSVMFree(ctx, ptrs[i]);
  }
  r->calls++;
}

static void t_enqueue_free(void **state) {
  (void)state;
  void *p[3];
  for (int i = 0; i < 3; i++) p[i] = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 256, 0);
  free_record rec = {0};
  cl_event ev;
  void *copy[3] = {p[0], p[1], p[2]};
  CHECK(clEnqueueSVMFree(q, 3, copy, on_free, &rec, 0, NULL, &ev));
  copy[0] = copy[1] = copy[2] = NULL; /* the array is copied at enqueue time */
  CHECK(clWaitForEvents(1, &ev));
  assert_int_equal(type_of(ev), CL_COMMAND_SVM_FREE);
  CHECK(clReleaseEvent(ev));
  assert_int_equal(rec.calls, 1);
  assert_int_equal(rec.n, 3);
  assert_ptr_equal(rec.queue, q);
  for (int i = 0; i < 3; i++) assert_ptr_equal(rec.ptrs[i], p[i]);
  /* without a callback the platform frees them: afterwards clEnqueueSVMMigrateMem, which checks
   * that its ranges are SVM memory, refuses the pointer */
  void *q2[2] = {clSVMAlloc(ctx, 0, 64, 0), clSVMAlloc(ctx, 0, 64, 0)};
  const void *mig[1] = {q2[0]};
  CHECK(clEnqueueSVMMigrateMem(q, 1, mig, NULL, 0, 0, NULL, NULL));
  CHECK(clEnqueueSVMFree(q, 2, q2, NULL, NULL, 0, NULL, NULL));
  CHECK(clFinish(q));
  assert_int_equal(clEnqueueSVMMigrateMem(q, 1, mig, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  /* an empty list is a command that frees nothing */
  CHECK(clEnqueueSVMFree(q, 0, NULL, NULL, NULL, 0, NULL, NULL));
  assert_int_equal(clEnqueueSVMFree(q, 1, NULL, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueSVMFree(q, 0, q2, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueSVMFree(NULL, 0, NULL, NULL, NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK(clFinish(q));
}

static void t_migrate(void **state) {
  (void)state;
  char *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 2048, 0), *b = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 0);
  const void *ptrs[4] = {a + 100, b + 17, a, b};
  const size_t sizes[4] = {13, 23, 0, 64};
  cl_event ev;
  CHECK(clEnqueueSVMMigrateMem(q, 4, ptrs, sizes, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, &ev));
  assert_int_equal(type_of(ev), CL_COMMAND_SVM_MIGRATE_MEM);
  CHECK(clWaitForEvents(1, &ev));
  CHECK(clReleaseEvent(ev));
  CHECK(clEnqueueSVMMigrateMem(q, 2, ptrs, NULL, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, NULL));
  char host[16];
  const void *outside[1] = {host}, *past[1] = {b + 60};
  const size_t four[1] = {8};
  assert_int_equal(clEnqueueSVMMigrateMem(q, 0, ptrs, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueSVMMigrateMem(q, 1, NULL, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueSVMMigrateMem(q, 1, outside, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueSVMMigrateMem(q, 1, past, four, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueSVMMigrateMem(q, 1, ptrs, NULL, 1 << 7, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueSVMMigrateMem(NULL, 1, ptrs, NULL, 0, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK(clFinish(q));
  clSVMFree(ctx, a);
  clSVMFree(ctx, b);
}

/* ---- buffers on SVM memory ------------------------------------------------------------------------- */

static void t_buffer_on_svm(void **state) {
  (void)state;
  enum { N = 256 };
  int *s = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N * sizeof(int), 0);
  for (int i = 0; i < N; i++) s[i] = i;
  cl_int e;
  /* the CTS's negative case: larger than the SVM allocation */
  assert_null(clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 2 * N * sizeof(int), s, &e));
  assert_int_equal(e, CL_INVALID_BUFFER_SIZE);
  assert_null(clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, N * sizeof(int), s + 1, &e));
  assert_int_equal(e, CL_INVALID_BUFFER_SIZE);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, N * sizeof(int), s, &e);
  CHECK(e);
  cl_bool uses;
  CHECK(clGetMemObjectInfo(b, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
  assert_int_equal(uses, CL_TRUE);
  void *hp;
  CHECK(clGetMemObjectInfo(b, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
  assert_ptr_equal(hp, s);
  cl_buffer_region r = {128, 256};
  cl_mem sub = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
  CHECK(e);
  CHECK(clGetMemObjectInfo(sub, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
  assert_int_equal(uses, CL_TRUE);
  /* transfers and maps work on the SVM bytes themselves */
  int v[4] = {-1, -2, -3, -4}, back[4];
  CHECK(clEnqueueWriteBuffer(q, sub, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL));
  assert_memory_equal(s + 32, v, sizeof v);
  CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 4, sizeof back, back, 0, NULL, NULL));
  assert_int_equal(back[0], 1);
  int *m = clEnqueueMapBuffer(q, sub, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &e);
  CHECK(e);
  assert_ptr_equal(m, s + 32);
  CHECK(clEnqueueUnmapMemObject(q, sub, m, 0, NULL, NULL));
  /* a kernel writing through the buffer writes the SVM memory */
  cl_program p = program("kernel void inc(global int *p) { p[get_global_id(0)] += 1; }\n");
  cl_kernel k = clCreateKernel(p, "inc", &e);
  CHECK(e);
  CHECK(clSetKernelArg(k, 0, sizeof b, &b));
  size_t g = N;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK(clFinish(q));
  for (int i = 0; i < N; i++) assert_int_equal(s[i], (i >= 32 && i < 36 ? -1 - (i - 32) : i) + 1);
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
  CHECK(clReleaseMemObject(sub));
  CHECK(clReleaseMemObject(b));
  clSVMFree(ctx, s);
}

/* ---- a linked list in SVM memory, summed by a kernel ------------------------------------------------ */

typedef struct node {
  struct node *next;
  int value;
} node;

static void t_linked_list(void **state) {
  (void)state;
  enum { N = 100 };
  /* nodes in one allocation, linked in a scrambled order, plus a tail in a second allocation */
  node *nodes = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N * sizeof(node), 0);
  node *tail = clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, 2 * sizeof(node), 0);
  int *out = clSVMAlloc(ctx, CL_MEM_READ_WRITE, sizeof(int), 0);
  assert_non_null(nodes);
  assert_non_null(tail);
  assert_non_null(out);
  CHECK(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, nodes, N * sizeof(node), 0, NULL, NULL));
  int expect = 0;
  for (int i = 0; i < N; i++) {
    int at = (i * 37) % N, next = ((i + 1) * 37) % N;
    nodes[at].value = i * i - 50;
    nodes[at].next = i + 1 < N ? &nodes[next] : &tail[0];
    expect += i * i - 50;
  }
  tail[0] = (node){&tail[1], 1000};
  tail[1] = (node){NULL, 2000};
  expect += 3000;
  CHECK(clEnqueueSVMUnmap(q, nodes, 0, NULL, NULL));
  *out = 0;
  cl_program p = program("typedef struct node { global struct node *next; int value; } node;\n"
                         "kernel void sum(global node *head, global int *out) {\n"
                         "  int s = 0;\n"
                         "  for (global node *n = head; n; n = n->next) s += n->value;\n"
                         "  *out = s;\n"
                         "}\n");
  cl_int e;
  cl_kernel k = clCreateKernel(p, "sum", &e);
  CHECK(e);
  CHECK(clSetKernelArgSVMPointer(k, 0, nodes)); /* the head is nodes[0]: i = 0 */
  CHECK(clSetKernelArgSVMPointer(k, 1, out));
  void *extra[1] = {tail};
  CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof extra, extra));
  size_t g = 1;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, out, sizeof(int), 0, NULL, NULL));
  assert_int_equal(*out, expect);
  CHECK(clEnqueueSVMUnmap(q, out, 0, NULL, NULL));
  /* the same from the middle of the list: a pointer into the allocation */
  CHECK(clSetKernelArgSVMPointer(k, 0, &nodes[37])); /* i = 1 */
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK(clFinish(q));
  assert_int_equal(*out, expect - (0 - 50));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
  void *all[3] = {nodes, tail, out};
  CHECK(clEnqueueSVMFree(q, 3, all, NULL, NULL, 0, NULL, NULL));
  CHECK(clFinish(q));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(t_alloc),         cmocka_unit_test(t_memcpy),       cmocka_unit_test(t_fill),
    cmocka_unit_test(t_map),           cmocka_unit_test(t_enqueue_free), cmocka_unit_test(t_migrate),
    cmocka_unit_test(t_buffer_on_svm), cmocka_unit_test(t_linked_list),
  };
  if (getenv("CMOCKA_FILTER")) cmocka_set_test_filter(getenv("CMOCKA_FILTER")); /* to run one test */
  return cmocka_run_group_tests_name("opencl svm", tests, cltest_group_setup, cltest_group_teardown);
}
