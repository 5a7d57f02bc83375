/*
 * test_queue.c — the command engine through the ICD loader (opencl/cl_event.c, opencl/cl_queue.c):
 * command queues (OpenCL 3.0 API 5.1), event objects and user events (5.11), markers and barriers
 * (5.12), out-of-order execution (5.13) and profiling (5.14). Results of kernels are checked
 * against what plain C computes; statuses and error codes are the spec's.
 *
 * Every wait that a bug could turn into a hang is bounded: main() arms alarm(), and callbacks are
 * polled with a timeout (the spec lets callbacks run after clWaitForEvents returns, 5.11.4).
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS /* clSetCommandQueueProperty */
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS /* clEnqueueMarker, clEnqueueBarrier, clEnqueueWaitForEvents */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue, clEnqueueTask */
#include <CL/cl.h>

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cltest.h"

static cltest_env env;
static cl_device_id device;
static cl_context ctx, ctx2;   /* ctx2: a second context, for cross-context errors */
static cl_command_queue queue; /* in-order, no profiling */
static cl_program prog;

static const char *kernels_src =
  "kernel void add1(global int *b) { b[get_global_id(0)] += 1; }\n"
  "kernel void fill(global int *b, int v) { b[get_global_id(0)] = v; }\n"
  /* one work-item: records the order in which commands ran */
  "kernel void stamp(global int *counter, global int *slot, int idx) { slot[idx] = atomic_inc(counter); }\n"
  "kernel void crash(global int *b) { b[get_global_id(0) + 1000000] = 1; }\n"
  /* one work-item busy for a while (n iterations) */
  "kernel void spin(global int *b, int n) { int s = 0; for (int i = 0; i < n; i++) s += i ^ b[0]; b[1] = s; }\n";

/* ---- helpers ----------------------------------------------------------------------------------- */

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static int setup(void **state) {
  (void)state;
  if (cltest_setup(&env) != 0) return -1;
  device = env.device, ctx = env.context, queue = env.queue;
  cl_int e;
  ctx2 = clCreateContext(NULL, 1, &device, NULL, NULL, &e);
  if (e != CL_SUCCESS) return -1;
  prog = cltest_try_build(ctx, device, kernels_src, NULL, NULL);
  return prog ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  clReleaseProgram(prog);
  clReleaseContext(ctx2);
  return cltest_teardown(&env);
}

static cl_command_queue new_queue(cl_command_queue_properties p) {
  cl_int e;
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, p, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, props, &e);
  CHECK(e);
  assert_non_null(q);
  return q;
}

/* A buffer of n ints, all `v`. */
static cl_mem ints(size_t n, cl_int v) {
  cl_int e, *host = malloc(n * sizeof *host);
  assert_non_null(host);
  for (size_t i = 0; i < n; i++) host[i] = v;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof *host, host, &e);
  free(host);
  CHECK(e);
  return m;
}

static cl_event user_event(cl_context c) {
  cl_int e;
  cl_event u = clCreateUserEvent(c, &e);
  CHECK(e);
  assert_non_null(u);
  return u;
}

/* Enqueue kernel `name` over n work-items with (m[, v]) as arguments. The kernel object is released
 * right after the enqueue: the command keeps what it needs (5.9.2: arguments captured at enqueue). */
static cl_int launch(cl_command_queue q, const char *name, cl_mem m, const cl_int *v, size_t n, cl_uint nwait,
                     const cl_event *wait, cl_event *ev) {
  cl_int e;
  cl_kernel k = clCreateKernel(prog, name, &e);
  CHECK(e);
  CHECK(clSetKernelArg(k, 0, sizeof m, &m));
  if (v) CHECK(clSetKernelArg(k, 1, sizeof *v, v));
  e = clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, nwait, wait, ev);
  CHECK(clReleaseKernel(k));
  return e;
}

static void stamp(cl_command_queue q, cl_mem counter, cl_mem slots, cl_int idx, cl_uint nwait, const cl_event *wait,
                  cl_event *ev) {
  cl_int e;
  cl_kernel k = clCreateKernel(prog, "stamp", &e);
  CHECK(e);
  CHECK(clSetKernelArg(k, 0, sizeof counter, &counter));
  CHECK(clSetKernelArg(k, 1, sizeof slots, &slots));
  CHECK(clSetKernelArg(k, 2, sizeof idx, &idx));
  size_t one = 1;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, nwait, wait, ev));
  CHECK(clReleaseKernel(k));
}

static void read_ints(cl_command_queue q, cl_mem m, size_t n, cl_int *out) {
  CHECK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL));
}

/* Every one of the n ints of m (read through the in-order `queue`) is v. */
static void expect_all(cl_mem m, size_t n, cl_int v) {
  cl_int *out = malloc(n * sizeof *out);
  assert_non_null(out);
  read_ints(queue, m, n, out);
  for (size_t i = 0; i < n; i++) assert_int_equal(out[i], v);
  free(out);
}

static cl_int status_of(cl_event ev) {
  cl_int st = 12345;
  CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
  return st;
}

/* A command that must not have run yet: CL_QUEUED or CL_SUBMITTED (5.11, table of statuses). */
static void expect_pending(cl_event ev) {
  cl_int st = status_of(ev);
  assert_true(st == CL_QUEUED || st == CL_SUBMITTED);
}

/* ---- callback recorder ----------------------------------------------------------------------- */

typedef struct recorder {
  pthread_mutex_t lock;
  int n;
  struct {
    cl_event ev;
    cl_int status;
    cl_int type;
  } calls[32];
} recorder;

typedef struct {
  recorder *r;
  cl_int type;
} cb_data;

static void recorder_init(recorder *r) {
  memset(r, 0, sizeof *r);
  pthread_mutex_init(&r->lock, NULL);
}

static void CL_CALLBACK record_cb(cl_event ev, cl_int st, void *user) {
  cb_data *d = user;
  pthread_mutex_lock(&d->r->lock);
  if (d->r->n < 32) {
    d->r->calls[d->r->n].ev = ev;
    d->r->calls[d->r->n].status = st;
    d->r->calls[d->r->n].type = d->type;
  }
  d->r->n++;
  pthread_mutex_unlock(&d->r->lock);
}

static int recorded(recorder *r) {
  pthread_mutex_lock(&r->lock);
  int n = r->n;
  pthread_mutex_unlock(&r->lock);
  return n;
}

/* Wait (at most 10 s) until n callbacks were recorded; then a little more, so that a duplicate
 * call would be seen. */
static void await_calls(recorder *r, int n) {
  for (int i = 0; i < 10000 && recorded(r) < n; i++) sleep_ms(1);
  sleep_ms(20);
  assert_int_equal(recorded(r), n);
}

/* ---- stderr ------------------------------------------------------------------------------------ */

static int saved_stderr = -1;

/* A faulting kernel prints its report on stderr: keep the test output readable. */
static void silence_stderr(void) {
  fflush(stderr);
  saved_stderr = dup(2);
  int fd = open("/dev/null", O_WRONLY);
  dup2(fd, 2);
  close(fd);
}

static void restore_stderr(void) {
  fflush(stderr);
  dup2(saved_stderr, 2);
  close(saved_stderr);
}

/* ---- in-order queues (5.1: commands execute in the order they were enqueued) ---------------- */

static void test_in_order(void **state) {
  (void)state;
  enum { N = 64, CHAIN = 50 };
  cl_int out[N];
  /* a kernel that writes, then a read with no wait list: the read sees the kernel's result */
  cl_mem m = ints(N, -1);
  cl_int v = 42;
  CHECK(launch(queue, "fill", m, &v, N, 0, NULL, NULL));
  read_ints(queue, m, N, out);
  for (int i = 0; i < N; i++) assert_int_equal(out[i], 42);

  /* a chain of kernels each adding 1: each one reads what the previous wrote */
  v = 0;
  CHECK(launch(queue, "fill", m, &v, N, 0, NULL, NULL));
  cl_event evs[CHAIN];
  for (int i = 0; i < CHAIN; i++) CHECK(launch(queue, "add1", m, NULL, N, 0, NULL, &evs[i]));
  cl_event rd;
  memset(out, 0, sizeof out);
  CHECK(clEnqueueReadBuffer(queue, m, CL_FALSE, 0, sizeof out, out, 0, NULL, &rd));
  CHECK(clWaitForEvents(1, &rd));
  for (int i = 0; i < N; i++) assert_int_equal(out[i], CHAIN);
  /* the read completed, so did every command before it */
  for (int i = 0; i < CHAIN; i++) {
    assert_int_equal(status_of(evs[i]), CL_COMPLETE);
    CHECK(clReleaseEvent(evs[i]));
  }
  CHECK(clReleaseEvent(rd));

  /* the order of execution, recorded by the kernels themselves */
  enum { S = 40 };
  cl_mem counter = ints(1, 0), slots = ints(S, -1);
  for (int i = 0; i < S; i++) stamp(queue, counter, slots, i, 0, NULL, NULL);
  CHECK(clFinish(queue));
  cl_int got[S];
  read_ints(queue, slots, S, got);
  for (int i = 0; i < S; i++) assert_int_equal(got[i], i);
  CHECK(clReleaseMemObject(counter));
  CHECK(clReleaseMemObject(slots));
  CHECK(clReleaseMemObject(m));
}

/* ---- out-of-order queues (5.13) ------------------------------------------------------------- */

/* Commands without dependencies all run (in some order); wait lists order the others. */
static void test_out_of_order_basic(void **state) {
  (void)state;
  cl_command_queue q = new_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_command_queue_properties p = 0;
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL));
  assert_int_equal(p, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);

  /* independent commands: every slot gets a distinct stamp, a permutation of 0..S-1 */
  enum { S = 40 };
  cl_mem counter = ints(1, 0), slots = ints(S, -1);
  cl_event evs[S];
  for (int i = 0; i < S; i++) stamp(q, counter, slots, i, 0, NULL, &evs[i]);
  CHECK(clFinish(q));
  cl_int got[S];
  read_ints(queue, slots, S, got);
  bool seen[S] = {false};
  for (int i = 0; i < S; i++) {
    assert_in_range(got[i], 0, S - 1);
    assert_false(seen[got[i]]);
    seen[got[i]] = true;
    assert_int_equal(status_of(evs[i]), CL_COMPLETE);
    CHECK(clReleaseEvent(evs[i]));
  }

  /* a chain ordered by wait lists alone: stamps in order, and read-modify-writes that add up */
  CHECK(clEnqueueFillBuffer(queue, counter, &(cl_int){0}, sizeof(cl_int), 0, sizeof(cl_int), 0, NULL, NULL));
  CHECK(clFinish(queue));
  cl_event prev = NULL;
  for (int i = 0; i < S; i++) {
    cl_event ev;
    stamp(q, counter, slots, i, prev ? 1 : 0, prev ? &prev : NULL, &ev);
    if (prev) CHECK(clReleaseEvent(prev));
    prev = ev;
  }
  enum { N = 32, CHAIN = 30 };
  cl_mem m = ints(N, 0);
  for (int i = 0; i < CHAIN; i++) {
    cl_event ev;
    CHECK(launch(q, "add1", m, NULL, N, 1, &prev, &ev));
    CHECK(clReleaseEvent(prev));
    prev = ev;
  }
  CHECK(clWaitForEvents(1, &prev));
  CHECK(clReleaseEvent(prev));
  read_ints(queue, slots, S, got);
  for (int i = 0; i < S; i++) assert_int_equal(got[i], i);
  expect_all(m, N, CHAIN);

  /* clFinish waits for all of them, whatever their order */
  for (int i = 0; i < 20; i++) CHECK(launch(q, "add1", m, NULL, N, 0, NULL, NULL));
  cl_event b;
  CHECK(clEnqueueBarrierWithWaitList(q, 0, NULL, &b));
  CHECK(launch(q, "add1", m, NULL, N, 0, NULL, NULL)); /* after the barrier: no race with the 20 */
  CHECK(clFinish(q));
  assert_int_equal(status_of(b), CL_COMPLETE);
  CHECK(clReleaseEvent(b));
  /* the 20 add1 kernels before the barrier are unordered: their read-modify-writes of one int may
   * overlap and lose increments, so each int gained between 1 and 20, plus 1 after the barrier */
  cl_int out[N];
  read_ints(queue, m, N, out);
  for (int i = 0; i < N; i++) assert_in_range(out[i], CHAIN + 2, CHAIN + 21);

  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseMemObject(counter));
  CHECK(clReleaseMemObject(slots));
  CHECK(clReleaseCommandQueue(q));
}

/* A user event gating a kernel: the kernel does not run before clSetUserEventStatus(CL_COMPLETE). */
static void test_user_event_gate(void **state) {
  (void)state;
  enum { N = 16 };
  cl_command_queue q = new_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_mem m = ints(N, -1);
  cl_event u = user_event(ctx), k;
  cl_int v = 5;
  CHECK(launch(q, "fill", m, &v, N, 1, &u, &k));
  CHECK(clFlush(q));
  sleep_ms(50);
  expect_pending(k);
  assert_int_equal(status_of(u), CL_SUBMITTED);
  expect_all(m, N, -1); /* through another queue: untouched */
  CHECK(clSetUserEventStatus(u, CL_COMPLETE));
  assert_int_equal(status_of(u), CL_COMPLETE);
  CHECK(clWaitForEvents(1, &k));
  assert_int_equal(status_of(k), CL_COMPLETE);
  expect_all(m, N, 5);
  CHECK(clReleaseEvent(k));
  CHECK(clReleaseEvent(u));

  /* the same gate on an in-order queue also holds back the commands after it */
  cl_command_queue io = new_queue(0);
  u = user_event(ctx);
  cl_event k2;
  v = 6;
  CHECK(launch(io, "fill", m, &v, N, 1, &u, &k));
  CHECK(launch(io, "add1", m, NULL, N, 0, NULL, &k2));
  sleep_ms(30);
  expect_pending(k);
  expect_pending(k2);
  expect_all(m, N, 5);
  CHECK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK(clFinish(io));
  assert_int_equal(status_of(k2), CL_COMPLETE);
  expect_all(m, N, 7);
  CHECK(clReleaseEvent(k));
  CHECK(clReleaseEvent(k2));
  CHECK(clReleaseEvent(u));

  CHECK(clReleaseCommandQueue(io));
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseCommandQueue(q));
}

/* clEnqueueBarrierWithWaitList with an empty list: every later command waits for every earlier one
 * (5.12). */
static void test_ooo_barrier(void **state) {
  (void)state;
  enum { N = 16 };
  cl_command_queue q = new_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_mem m = ints(N, -1), other = ints(N, 0);
  cl_event u = user_event(ctx), a, b, c, d;
  cl_int v = 1;
  CHECK(launch(q, "fill", m, &v, N, 1, &u, &a));
  CHECK(clEnqueueBarrierWithWaitList(q, 0, NULL, &b));
  CHECK(launch(q, "add1", m, NULL, N, 0, NULL, &c));     /* no wait list: ordered by the barrier */
  CHECK(launch(q, "add1", other, NULL, N, 0, NULL, &d)); /* unrelated, but after the barrier too */
  sleep_ms(50);
  expect_pending(a);
  expect_pending(b);
  expect_pending(c);
  expect_pending(d);
  expect_all(m, N, -1);
  expect_all(other, N, 0);
  CHECK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK(clFinish(q));
  expect_all(m, N, 2); /* fill, then add1: never add1 first */
  expect_all(other, N, 1);
  cl_command_type t;
  CHECK(clGetEventInfo(b, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
  assert_int_equal(t, CL_COMMAND_BARRIER);
  cl_event all[] = {a, b, c, d, u};
  for (int i = 0; i < 5; i++) {
    assert_int_equal(status_of(all[i]), CL_COMPLETE);
    CHECK(clReleaseEvent(all[i]));
  }

  /* a barrier with a wait list: later commands wait for it, and it waits for its list only */
  u = user_event(ctx);
  cl_event free_ev;
  CHECK(launch(q, "add1", other, NULL, N, 0, NULL, &free_ev)); /* not in the list */
  CHECK(clEnqueueBarrierWithWaitList(q, 1, &u, &b));
  CHECK(launch(q, "add1", m, NULL, N, 0, NULL, &c));
  CHECK(clWaitForEvents(1, &free_ev)); /* runs although the barrier is pending */
  sleep_ms(20);
  expect_pending(b);
  expect_pending(c);
  expect_all(m, N, 2);
  CHECK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK(clWaitForEvents(1, &c));
  assert_int_equal(status_of(b), CL_COMPLETE);
  expect_all(m, N, 3);
  CHECK(clReleaseEvent(free_ev));
  CHECK(clReleaseEvent(b));
  CHECK(clReleaseEvent(c));
  CHECK(clReleaseEvent(u));

  /* clEnqueueWaitForEvents (1.1): later commands wait for the events */
  u = user_event(ctx);
  CHECK(clEnqueueWaitForEvents(q, 1, &u));
  CHECK(launch(q, "add1", m, NULL, N, 0, NULL, &c));
  sleep_ms(30);
  expect_pending(c);
  CHECK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK(clWaitForEvents(1, &c));
  expect_all(m, N, 4);
  CHECK(clReleaseEvent(c));
  CHECK(clReleaseEvent(u));

  /* clEnqueueBarrier (1.1) */
  u = user_event(ctx);
  CHECK(launch(q, "add1", m, NULL, N, 1, &u, &a));
  CHECK(clEnqueueBarrier(q));
  CHECK(launch(q, "add1", m, NULL, N, 0, NULL, &c));
  sleep_ms(30);
  expect_pending(c);
  CHECK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK(clFinish(q));
  expect_all(m, N, 6);
  CHECK(clReleaseEvent(a));
  CHECK(clReleaseEvent(c));
  CHECK(clReleaseEvent(u));

  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseMemObject(other));
  CHECK(clReleaseCommandQueue(q));
}

/* clEnqueueMarkerWithWaitList with an empty list completes only after every earlier command; it
 * does not hold back later commands (5.12). */
static void test_ooo_marker(void **state) {
  (void)state;
  enum { N = 16 };
  cl_command_queue q = new_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_mem m = ints(N, -1), other = ints(N, 0);
  cl_event u = user_event(ctx), a, b, mk, d;
  cl_int v = 9;
  CHECK(launch(q, "fill", m, &v, N, 1, &u, &a));
  CHECK(launch(q, "add1", other, NULL, N, 0, NULL, &b));
  CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &mk));
  CHECK(launch(q, "add1", other, NULL, N, 1, &b, &d)); /* after the marker, not waiting for it */
  CHECK(clWaitForEvents(1, &b));
  CHECK(clWaitForEvents(1, &d));
  sleep_ms(30);
  expect_pending(a);
  expect_pending(mk);
  expect_all(other, N, 2);
  CHECK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK(clWaitForEvents(1, &mk));
  assert_int_equal(status_of(a), CL_COMPLETE); /* the marker completed, so did a */
  expect_all(m, N, 9);
  cl_command_type t;
  CHECK(clGetEventInfo(mk, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
  assert_int_equal(t, CL_COMMAND_MARKER);

  /* a marker with a wait list waits for that list only */
  cl_event u2 = user_event(ctx), g, mk2;
  CHECK(launch(q, "add1", m, NULL, N, 1, &u2, &g)); /* pending, not in the marker's list */
  CHECK(clEnqueueMarkerWithWaitList(q, 1, &b, &mk2));
  CHECK(clWaitForEvents(1, &mk2));
  expect_pending(g);
  CHECK(clSetUserEventStatus(u2, CL_COMPLETE));
  CHECK(clFinish(q));
  expect_all(m, N, 10);

  /* clEnqueueMarker (1.1) on an in-order queue: complete once the command before it is */
  cl_event u3 = user_event(ctx), h, mk3;
  CHECK(launch(queue, "add1", m, NULL, N, 1, &u3, &h));
  CHECK(clEnqueueMarker(queue, &mk3));
  sleep_ms(20);
  expect_pending(mk3);
  CHECK(clSetUserEventStatus(u3, CL_COMPLETE));
  CHECK(clWaitForEvents(1, &mk3));
  assert_int_equal(status_of(h), CL_COMPLETE);
  CHECK(clGetEventInfo(mk3, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
  assert_int_equal(t, CL_COMMAND_MARKER);
  expect_all(m, N, 11);

  cl_event all[] = {u, a, b, mk, d, u2, g, mk2, u3, h, mk3};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) CHECK(clReleaseEvent(all[i]));
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseMemObject(other));
  CHECK(clReleaseCommandQueue(q));
}

/* ---- several queues on one context ------------------------------------------------------------ */

static void test_cross_queue(void **state) {
  (void)state;
  enum { N = 16, CHAIN = 20 };
  cl_command_queue q1 = new_queue(0), q2 = new_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_mem m = ints(N, -1);
  cl_event u = user_event(ctx), e1, e2, e3;
  cl_int v = 5;
  CHECK(launch(q1, "fill", m, &v, N, 1, &u, &e1));
  CHECK(launch(q2, "add1", m, NULL, N, 1, &e1, &e2)); /* waits for q1's command */
  CHECK(clEnqueueMarkerWithWaitList(q2, 1, &e2, &e3));
  sleep_ms(30);
  expect_pending(e1);
  expect_pending(e2);
  expect_pending(e3);
  expect_all(m, N, -1);
  CHECK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK(clWaitForEvents(1, &e3));
  assert_int_equal(status_of(e1), CL_COMPLETE);
  assert_int_equal(status_of(e2), CL_COMPLETE);
  expect_all(m, N, 6);
  /* clWaitForEvents over events of several queues (same context) */
  cl_event list[] = {e1, e2, e3, u};
  CHECK(clWaitForEvents(4, list));
  for (int i = 0; i < 4; i++) CHECK(clReleaseEvent(list[i]));

  /* a chain alternating between the queues, each command waiting for the previous one */
  cl_event prev = NULL;
  for (int i = 0; i < CHAIN; i++) {
    cl_event ev;
    CHECK(launch(i % 2 ? q2 : q1, "add1", m, NULL, N, prev ? 1 : 0, prev ? &prev : NULL, &ev));
    if (prev) CHECK(clReleaseEvent(prev));
    prev = ev;
  }
  /* a blocking read on a third queue, waiting for the chain's end */
  cl_int out[N];
  CHECK(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof out, out, 1, &prev, NULL));
  for (int i = 0; i < N; i++) assert_int_equal(out[i], 6 + CHAIN);
  CHECK(clReleaseEvent(prev));
  CHECK(clFinish(q1));
  CHECK(clFinish(q2));
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseCommandQueue(q1));
  CHECK(clReleaseCommandQueue(q2));
}

/* ---- user events (5.11.1) ------------------------------------------------------------------ */

static void test_user_event_errors(void **state) {
  (void)state;
  cl_int e = 0;
  assert_null(clCreateUserEvent(NULL, &e));
  assert_int_equal(e, CL_INVALID_CONTEXT);
  assert_null(clCreateUserEvent((cl_context)queue, &e));
  assert_int_equal(e, CL_INVALID_CONTEXT);
  cl_event u = clCreateUserEvent(ctx, NULL); /* errcode_ret may be NULL */
  assert_non_null(u);
  /* "The execution status of the user event object created is set to CL_SUBMITTED." */
  assert_int_equal(status_of(u), CL_SUBMITTED);
  /* execution_status: CL_COMPLETE or negative */
  assert_int_equal(clSetUserEventStatus(u, CL_RUNNING), CL_INVALID_VALUE);
  assert_int_equal(clSetUserEventStatus(u, CL_SUBMITTED), CL_INVALID_VALUE);
  assert_int_equal(clSetUserEventStatus(u, CL_QUEUED), CL_INVALID_VALUE);
  assert_int_equal(clSetUserEventStatus(u, 77), CL_INVALID_VALUE);
  assert_int_equal(status_of(u), CL_SUBMITTED);
  CHECK(clSetUserEventStatus(u, CL_COMPLETE));
  /* a second call */
  assert_int_equal(clSetUserEventStatus(u, CL_COMPLETE), CL_INVALID_OPERATION);
  assert_int_equal(clSetUserEventStatus(u, -3), CL_INVALID_OPERATION);
  assert_int_equal(status_of(u), CL_COMPLETE);
  CHECK(clReleaseEvent(u));

  u = user_event(ctx);
  CHECK(clSetUserEventStatus(u, -42));
  assert_int_equal(status_of(u), -42);
  assert_int_equal(clSetUserEventStatus(u, CL_COMPLETE), CL_INVALID_OPERATION);
  assert_int_equal(status_of(u), -42);
  CHECK(clReleaseEvent(u));

  /* not a user event */
  cl_event mk;
  CHECK(clEnqueueMarkerWithWaitList(queue, 0, NULL, &mk));
  assert_int_equal(clSetUserEventStatus(mk, CL_COMPLETE), CL_INVALID_EVENT);
  CHECK(clWaitForEvents(1, &mk));
  assert_int_equal(clSetUserEventStatus(mk, CL_COMPLETE), CL_INVALID_EVENT);
  CHECK(clReleaseEvent(mk));
  assert_int_equal(clSetUserEventStatus(NULL, CL_COMPLETE), CL_INVALID_EVENT);
  assert_int_equal(clSetUserEventStatus((cl_event)ctx, CL_COMPLETE), CL_INVALID_EVENT);
  /* a released user event */
  u = user_event(ctx);
  CHECK(clReleaseEvent(u));
  assert_int_equal(clSetUserEventStatus(u, CL_COMPLETE), CL_INVALID_EVENT);
  assert_int_equal(clRetainEvent(u), CL_INVALID_EVENT);
  assert_int_equal(clReleaseEvent(u), CL_INVALID_EVENT);
  assert_int_equal(clRetainEvent(NULL), CL_INVALID_EVENT);
  assert_int_equal(clReleaseEvent(NULL), CL_INVALID_EVENT);
}

/* A user event set to a negative status: commands waiting for it are not executed and fail with
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (5.11.1, 5.11). */
typedef struct {
  cl_event ev;
  int delay_ms;
  cl_int status;
} setter;

static void *set_later(void *arg) {
  setter *s = arg;
  sleep_ms(s->delay_ms);
  s->status = clSetUserEventStatus(s->ev, s->status);
  return NULL;
}

static void test_user_event_failure(void **state) {
  (void)state;
  enum { N = 16 };
  cl_command_queue q = new_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_mem m = ints(N, -1), m2 = ints(N, 0);
  cl_event u = user_event(ctx), k, k2, k3;
  cl_int v = 42;
  CHECK(launch(q, "fill", m, &v, N, 1, &u, &k));
  CHECK(launch(q, "add1", m, NULL, N, 1, &k, &k2));    /* waits for k: fails in turn */
  CHECK(launch(q, "add1", m2, NULL, N, 0, NULL, &k3)); /* unrelated: runs */
  CHECK(clSetUserEventStatus(u, -5));
  assert_int_equal(status_of(u), -5);
  assert_int_equal(clWaitForEvents(1, &k), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  assert_int_equal(status_of(k), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  assert_int_equal(clWaitForEvents(1, &k2), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  assert_int_equal(status_of(k2), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(clWaitForEvents(1, &k3));
  /* clWaitForEvents on the failed user event itself, or on a list including it */
  assert_int_equal(clWaitForEvents(1, &u), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_event both[] = {k3, u};
  assert_int_equal(clWaitForEvents(2, both), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  expect_all(m, N, -1); /* neither kernel ran */
  expect_all(m2, N, 1);

  /* commands enqueued after the failure, listing it: fail at once; a blocking read returns the
   * code and leaves the host memory alone */
  cl_int out[N];
  for (int i = 0; i < N; i++) out[i] = 1234;
  assert_int_equal(clEnqueueReadBuffer(q, m2, CL_TRUE, 0, sizeof out, out, 1, &u, NULL),
                   CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  for (int i = 0; i < N; i++) assert_int_equal(out[i], 1234);
  cl_event k4;
  CHECK(launch(queue, "fill", m, &v, N, 1, &u, &k4)); /* the enqueue itself succeeds */
  assert_int_equal(clWaitForEvents(1, &k4), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  expect_all(m, N, -1);

  /* a blocking read waiting for a user event that another thread fails while it blocks */
  cl_event u2 = user_event(ctx);
  setter s = {u2, 50, -7};
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, set_later, &s), 0);
  assert_int_equal(clEnqueueReadBuffer(queue, m2, CL_TRUE, 0, sizeof out, out, 1, &u2, NULL),
                   CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  pthread_join(th, NULL);
  CHECK(s.status);
  for (int i = 0; i < N; i++) assert_int_equal(out[i], 1234);
  assert_int_equal(status_of(u2), -7);
  /* the in-order queue goes on with the commands that do not list the failed event */
  read_ints(queue, m2, N, out);
  for (int i = 0; i < N; i++) assert_int_equal(out[i], 1);

  /* profiling information of a failed command is not available (its status is not CL_COMPLETE) */
  cl_ulong t;
  assert_int_equal(clGetEventProfilingInfo(k, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL),
                   CL_PROFILING_INFO_NOT_AVAILABLE);

  cl_event all[] = {u, k, k2, k3, k4, u2};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) CHECK(clReleaseEvent(all[i]));
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseMemObject(m2));
  CHECK(clReleaseCommandQueue(q));
}

/* ---- a faulting kernel ----------------------------------------------------------------------- */

static void test_faulting_kernel(void **state) {
  (void)state;
  enum { N = 16 };
  cl_command_queue q = new_queue(0);
  cl_mem m = ints(N, -1), m2 = ints(N, 10);
  cl_event u = user_event(ctx), crash, dep, next;
  recorder r;
  recorder_init(&r);
  cb_data run_cb = {&r, CL_RUNNING}, done_cb = {&r, CL_COMPLETE};
  CHECK(launch(q, "crash", m, NULL, 1, 1, &u, &crash));
  CHECK(clSetEventCallback(crash, CL_RUNNING, record_cb, &run_cb));
  CHECK(clSetEventCallback(crash, CL_COMPLETE, record_cb, &done_cb));
  cl_int v = 9;
  CHECK(launch(q, "fill", m, &v, N, 1, &crash, &dep));   /* lists it: must not run */
  CHECK(launch(q, "add1", m2, NULL, N, 0, NULL, &next)); /* does not: runs after it */
  silence_stderr();
  CHECK(clSetUserEventStatus(u, CL_COMPLETE));
  cl_int w_crash = clWaitForEvents(1, &crash);
  cl_int w_dep = clWaitForEvents(1, &dep);
  cl_int w_next = clWaitForEvents(1, &next);
  restore_stderr();
  assert_int_equal(w_crash, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  assert_int_equal(status_of(crash), CL_OUT_OF_RESOURCES);
  assert_int_equal(w_dep, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  assert_int_equal(status_of(dep), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(w_next);
  assert_int_equal(status_of(next), CL_COMPLETE);
  expect_all(m, N, -1);
  expect_all(m2, N, 11);
  /* the callbacks: CL_RUNNING with CL_RUNNING, CL_COMPLETE with the error (5.11.4) */
  await_calls(&r, 2);
  assert_int_equal(r.calls[0].type, CL_RUNNING);
  assert_int_equal(r.calls[0].status, CL_RUNNING);
  assert_ptr_equal(r.calls[0].ev, crash);
  assert_int_equal(r.calls[1].type, CL_COMPLETE);
  assert_int_equal(r.calls[1].status, CL_OUT_OF_RESOURCES);
  /* registered after the failure: called with the negative status */
  cb_data late = {&r, CL_COMPLETE};
  CHECK(clSetEventCallback(crash, CL_COMPLETE, record_cb, &late));
  CHECK(clSetEventCallback(dep, CL_SUBMITTED, record_cb, &late));
  await_calls(&r, 4);
  assert_int_equal(r.calls[2].status, CL_OUT_OF_RESOURCES);
  assert_int_equal(r.calls[3].status, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  /* a marker with an empty wait list on the queue completes normally */
  cl_event mk;
  CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &mk));
  CHECK(clWaitForEvents(1, &mk));
  CHECK(clFinish(q));
  cl_event all[] = {u, crash, dep, next, mk};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) CHECK(clReleaseEvent(all[i]));
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseMemObject(m2));
  CHECK(clReleaseCommandQueue(q));
  pthread_mutex_destroy(&r.lock);
}

/* ---- callbacks (5.11.4) ---------------------------------------------------------------------- */

static void CL_CALLBACK release_cb(cl_event ev, cl_int st, void *user) {
  (void)st;
  atomic_int *flag = user;
  clReleaseEvent(ev); /* the common fire-and-forget pattern: drop the last reference here */
  atomic_fetch_add(flag, 1);
}

static void CL_CALLBACK chain_cb(cl_event ev, cl_int st, void *user) {
  (void)ev;
  /* clSetUserEventStatus from a callback (not a blocking call): completes another user event */
  clSetUserEventStatus((cl_event)user, st < 0 ? st : CL_COMPLETE);
}

static void test_callbacks(void **state) {
  (void)state;
  enum { N = 16 };
  cl_mem m = ints(N, 0);
  recorder r;
  recorder_init(&r);
  cl_int types[3] = {CL_SUBMITTED, CL_RUNNING, CL_COMPLETE};
  cb_data data[3];
  cl_event u = user_event(ctx), k;
  CHECK(launch(queue, "add1", m, NULL, N, 1, &u, &k));
  for (int i = 0; i < 3; i++) {
    data[i] = (cb_data){&r, types[i]};
    CHECK(clSetEventCallback(k, types[i], record_cb, &data[i]));
  }
  sleep_ms(20);
  /* at most the CL_SUBMITTED one so far: the command is gated */
  assert_in_range(recorded(&r), 0, 1);
  CHECK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK(clWaitForEvents(1, &k));
  await_calls(&r, 3);
  /* each once, with its status, in the order of the statuses */
  for (int i = 0; i < 3; i++) {
    assert_ptr_equal(r.calls[i].ev, k);
    assert_int_equal(r.calls[i].type, types[i]);
    assert_int_equal(r.calls[i].status, types[i]);
  }
  /* registered on a complete event: called (once) */
  cb_data late = {&r, CL_COMPLETE};
  CHECK(clSetEventCallback(k, CL_COMPLETE, record_cb, &late));
  await_calls(&r, 4);
  assert_int_equal(r.calls[3].status, CL_COMPLETE);
  cb_data late_run = {&r, CL_RUNNING};
  CHECK(clSetEventCallback(k, CL_RUNNING, record_cb, &late_run));
  await_calls(&r, 5);
  assert_true(r.calls[4].status >= CL_COMPLETE);
  /* several callbacks for the same status: all called */
  cl_event u2 = user_event(ctx);
  r.n = 0;
  for (int i = 0; i < 4; i++) CHECK(clSetEventCallback(u2, CL_COMPLETE, record_cb, &late));
  sleep_ms(10);
  assert_int_equal(recorded(&r), 0);
  CHECK(clSetUserEventStatus(u2, CL_COMPLETE));
  await_calls(&r, 4);
  for (int i = 0; i < 4; i++) {
    assert_ptr_equal(r.calls[i].ev, u2);
    assert_int_equal(r.calls[i].status, CL_COMPLETE);
  }
  /* a user event set to a negative status: the callback receives it */
  cl_event u3 = user_event(ctx);
  r.n = 0;
  CHECK(clSetEventCallback(u3, CL_COMPLETE, record_cb, &late));
  CHECK(clSetUserEventStatus(u3, -11));
  await_calls(&r, 1);
  assert_int_equal(r.calls[0].status, -11);

  /* errors */
  assert_int_equal(clSetEventCallback(k, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clSetEventCallback(k, CL_QUEUED, record_cb, &late), CL_INVALID_VALUE);
  assert_int_equal(clSetEventCallback(k, 42, record_cb, &late), CL_INVALID_VALUE);
  assert_int_equal(clSetEventCallback(k, -1, record_cb, &late), CL_INVALID_VALUE);
  assert_int_equal(clSetEventCallback(NULL, CL_COMPLETE, record_cb, &late), CL_INVALID_EVENT);
  assert_int_equal(clSetEventCallback((cl_event)queue, CL_COMPLETE, record_cb, &late), CL_INVALID_EVENT);
  sleep_ms(10);
  assert_int_equal(recorded(&r), 1);

  /* a callback that releases its event's last reference, on a pending and on a complete command */
  atomic_int released = 0;
  cl_event u4 = user_event(ctx), k2, k3;
  CHECK(launch(queue, "add1", m, NULL, N, 1, &u4, &k2));
  CHECK(clSetEventCallback(k2, CL_COMPLETE, release_cb, &released));
  CHECK(clSetUserEventStatus(u4, CL_COMPLETE));
  CHECK(launch(queue, "add1", m, NULL, N, 0, NULL, &k3));
  CHECK(clWaitForEvents(1, &k3));
  CHECK(clSetEventCallback(k3, CL_COMPLETE, release_cb, &released));
  for (int i = 0; i < 10000 && atomic_load(&released) < 2; i++) sleep_ms(1);
  assert_int_equal(atomic_load(&released), 2);
  CHECK(clReleaseEvent(u4));
  u4 = user_event(ctx); /* the same on a complete user event */
  CHECK(clSetUserEventStatus(u4, CL_COMPLETE));
  CHECK(clSetEventCallback(u4, CL_COMPLETE, release_cb, &released));
  for (int i = 0; i < 10000 && atomic_load(&released) < 3; i++) sleep_ms(1);
  assert_int_equal(atomic_load(&released), 3);
  expect_all(m, N, 3);

  /* a callback completing another user event, which gates a kernel */
  cl_event u5 = user_event(ctx), u6 = user_event(ctx), k4;
  CHECK(clSetEventCallback(u5, CL_COMPLETE, chain_cb, u6));
  CHECK(launch(queue, "add1", m, NULL, N, 1, &u6, &k4));
  sleep_ms(10);
  expect_pending(k4);
  CHECK(clSetUserEventStatus(u5, CL_COMPLETE));
  CHECK(clWaitForEvents(1, &k4));
  assert_int_equal(status_of(u6), CL_COMPLETE);
  expect_all(m, N, 4);

  cl_event all[] = {u, k, u2, u3, u5, u6, k4};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) CHECK(clReleaseEvent(all[i]));
  CHECK(clReleaseMemObject(m));
  pthread_mutex_destroy(&r.lock);
}

/* ---- clGetEventInfo (5.11.3) --------------------------------------------------------------- */

static void test_event_info(void **state) {
  (void)state;
  enum { N = 16 };
  cl_int e;
  cl_mem m = ints(N, 0), m2 = ints(N, 0);
  cl_int host[N] = {0};
  cl_event evs[12];
  cl_command_type want[12];
  int n = 0;
  cl_kernel k = clCreateKernel(prog, "add1", &e);
  CHECK(e);
  CHECK(clSetKernelArg(k, 0, sizeof m, &m));
  size_t g = N;
  want[n] = CL_COMMAND_NDRANGE_KERNEL;
  CHECK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, &evs[n++]));
  want[n] = CL_COMMAND_TASK;
  CHECK(clEnqueueTask(queue, k, 0, NULL, &evs[n++]));
  want[n] = CL_COMMAND_READ_BUFFER;
  CHECK(clEnqueueReadBuffer(queue, m, CL_FALSE, 0, sizeof host, host, 0, NULL, &evs[n++]));
  want[n] = CL_COMMAND_WRITE_BUFFER;
  CHECK(clEnqueueWriteBuffer(queue, m2, CL_FALSE, 0, sizeof host, host, 1, &evs[n - 1], &evs[n]));
  n++;
  want[n] = CL_COMMAND_COPY_BUFFER;
  CHECK(clEnqueueCopyBuffer(queue, m, m2, 0, 0, sizeof host, 0, NULL, &evs[n++]));
  want[n] = CL_COMMAND_FILL_BUFFER;
  CHECK(clEnqueueFillBuffer(queue, m2, &(cl_int){3}, sizeof(cl_int), 0, sizeof host, 0, NULL, &evs[n++]));
  want[n] = CL_COMMAND_MAP_BUFFER;
  void *p = clEnqueueMapBuffer(queue, m, CL_FALSE, CL_MAP_READ, 0, sizeof host, 0, NULL, &evs[n++], &e);
  CHECK(e);
  want[n] = CL_COMMAND_UNMAP_MEM_OBJECT;
  CHECK(clEnqueueUnmapMemObject(queue, m, p, 0, NULL, &evs[n++]));
  want[n] = CL_COMMAND_MARKER;
  CHECK(clEnqueueMarkerWithWaitList(queue, 0, NULL, &evs[n++]));
  want[n] = CL_COMMAND_BARRIER;
  CHECK(clEnqueueBarrierWithWaitList(queue, 0, NULL, &evs[n++]));
  want[n] = CL_COMMAND_MARKER;
  CHECK(clEnqueueMarker(queue, &evs[n++]));
  want[n] = CL_COMMAND_USER;
  evs[n++] = user_event(ctx);
  CHECK(clSetUserEventStatus(evs[n - 1], CL_COMPLETE));
  CHECK(clFinish(queue));
  for (int i = 0; i < n; i++) {
    cl_command_type t = 0;
    size_t sz = 0;
    CHECK(clGetEventInfo(evs[i], CL_EVENT_COMMAND_TYPE, sizeof t, &t, &sz));
    assert_int_equal(sz, sizeof(cl_command_type));
    assert_int_equal(t, want[i]);
    cl_command_queue q = (cl_command_queue)1;
    CHECK(clGetEventInfo(evs[i], CL_EVENT_COMMAND_QUEUE, sizeof q, &q, &sz));
    assert_int_equal(sz, sizeof(cl_command_queue));
    /* "If event is a user event object, a NULL value is returned." */
    assert_ptr_equal(q, want[i] == CL_COMMAND_USER ? NULL : queue);
    cl_context c = NULL;
    CHECK(clGetEventInfo(evs[i], CL_EVENT_CONTEXT, sizeof c, &c, &sz));
    assert_int_equal(sz, sizeof(cl_context));
    assert_ptr_equal(c, ctx);
    cl_int st = 1;
    CHECK(clGetEventInfo(evs[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, &sz));
    assert_int_equal(sz, sizeof(cl_int));
    assert_int_equal(st, CL_COMPLETE);
    cl_uint refs = 0;
    CHECK(clGetEventInfo(evs[i], CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, &sz));
    assert_int_equal(sz, sizeof(cl_uint));
    assert_int_equal(refs, 1);
  }
  /* reference count after retain/release */
  cl_uint refs = 0;
  CHECK(clRetainEvent(evs[0]));
  CHECK(clRetainEvent(evs[0]));
  CHECK(clGetEventInfo(evs[0], CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  assert_int_equal(refs, 3);
  CHECK(clReleaseEvent(evs[0]));
  CHECK(clGetEventInfo(evs[0], CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  assert_int_equal(refs, 2);
  CHECK(clReleaseEvent(evs[0]));
  /* size only */
  size_t sz = 0;
  CHECK(clGetEventInfo(evs[0], CL_EVENT_CONTEXT, 0, NULL, &sz));
  assert_int_equal(sz, sizeof(cl_context));
  /* errors: a too small param_value_size, an unknown param, bad events */
  cl_int st;
  char small[2];
  assert_int_equal(clGetEventInfo(evs[0], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st - 1, &st, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clGetEventInfo(evs[0], CL_EVENT_COMMAND_QUEUE, sizeof small, small, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetEventInfo(evs[0], CL_EVENT_CONTEXT, 1, small, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetEventInfo(evs[0], CL_EVENT_COMMAND_TYPE, 0, &st, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetEventInfo(evs[0], CL_EVENT_REFERENCE_COUNT, 2, &st, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetEventInfo(evs[0], 0x7777, sizeof st, &st, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetEventInfo(NULL, CL_EVENT_CONTEXT, 0, NULL, &sz), CL_INVALID_EVENT);
  assert_int_equal(clGetEventInfo((cl_event)m, CL_EVENT_CONTEXT, 0, NULL, &sz), CL_INVALID_EVENT);
  for (int i = 0; i < n; i++) CHECK(clReleaseEvent(evs[i]));
  /* a released event */
  assert_int_equal(clGetEventInfo(evs[0], CL_EVENT_CONTEXT, 0, NULL, &sz), CL_INVALID_EVENT);
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseMemObject(m2));
}

/* ---- profiling (5.14) -------------------------------------------------------------------------- */

static void timestamps(cl_event ev, cl_ulong t[5]) {
  static const cl_profiling_info params[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                              CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                              CL_PROFILING_COMMAND_COMPLETE};
  for (int i = 0; i < 5; i++) {
    size_t sz = 0;
    CHECK(clGetEventProfilingInfo(ev, params[i], sizeof t[i], &t[i], &sz));
    assert_int_equal(sz, sizeof(cl_ulong));
  }
}

static void test_profiling(void **state) {
  (void)state;
  enum { N = 256 };
  cl_command_queue q = new_queue(CL_QUEUE_PROFILING_ENABLE);
  cl_command_queue_properties p = 0;
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL));
  assert_int_equal(p, CL_QUEUE_PROFILING_ENABLE);
  cl_mem m = ints(N, 0);
  cl_event u = user_event(ctx), k1, k2, mk;
  CHECK(launch(q, "add1", m, NULL, N, 1, &u, &k1));
  CHECK(launch(q, "add1", m, NULL, N, 0, NULL, &k2));
  /* before completion: not available */
  cl_ulong t[5];
  assert_int_equal(clGetEventProfilingInfo(k1, CL_PROFILING_COMMAND_QUEUED, sizeof t[0], &t[0], NULL),
                   CL_PROFILING_INFO_NOT_AVAILABLE);
  assert_int_equal(clGetEventProfilingInfo(k2, CL_PROFILING_COMMAND_END, sizeof t[0], &t[0], NULL),
                   CL_PROFILING_INFO_NOT_AVAILABLE);
  sleep_ms(5);
  CHECK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &mk));
  CHECK(clFinish(q));
  cl_ulong t2[5], tm[5];
  timestamps(k1, t);
  timestamps(k2, t2);
  timestamps(mk, tm);
  for (int i = 0; i < 5; i++) {
    assert_true(t[i] != 0);
    if (i) {
      assert_true(t[i - 1] <= t[i]);
      assert_true(t2[i - 1] <= t2[i]);
      assert_true(tm[i - 1] <= tm[i]);
    }
  }
  /* k1 was gated for 5 ms after it was submitted: it started later */
  assert_true(t[2] - t[1] >= 4000000u);
  /* in-order: k2 started after k1 ended, the marker after k2 */
  assert_true(t[3] <= t2[2]);
  assert_true(t2[3] <= tm[2]);
  assert_true(t[0] <= t2[0]);
  /* errors on a complete event */
  size_t sz = 0;
  CHECK(clGetEventProfilingInfo(k1, CL_PROFILING_COMMAND_START, 0, NULL, &sz));
  assert_int_equal(sz, sizeof(cl_ulong));
  assert_int_equal(clGetEventProfilingInfo(k1, CL_PROFILING_COMMAND_START, 4, &t[0], NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetEventProfilingInfo(k1, 0x7777, sizeof t[0], &t[0], NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetEventProfilingInfo(NULL, CL_PROFILING_COMMAND_START, sizeof t[0], &t[0], NULL),
                   CL_INVALID_EVENT);
  /* a user event, a command of a queue without profiling */
  assert_int_equal(clGetEventProfilingInfo(u, CL_PROFILING_COMMAND_QUEUED, sizeof t[0], &t[0], NULL),
                   CL_PROFILING_INFO_NOT_AVAILABLE);
  cl_event plain;
  CHECK(launch(queue, "add1", m, NULL, N, 0, NULL, &plain));
  CHECK(clWaitForEvents(1, &plain));
  assert_int_equal(clGetEventProfilingInfo(plain, CL_PROFILING_COMMAND_END, sizeof t[0], &t[0], NULL),
                   CL_PROFILING_INFO_NOT_AVAILABLE);
  expect_all(m, N, 3);
  cl_event all[] = {u, k1, k2, mk, plain};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) CHECK(clReleaseEvent(all[i]));

  /* an out-of-order profiling queue */
  cl_command_queue qo = new_queue(CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  CHECK(launch(qo, "add1", m, NULL, N, 0, NULL, &k1));
  CHECK(clWaitForEvents(1, &k1));
  timestamps(k1, t);
  for (int i = 1; i < 5; i++) assert_true(t[i - 1] <= t[i]);
  assert_true(t[0] != 0);
  CHECK(clReleaseEvent(k1));
  CHECK(clReleaseCommandQueue(qo));
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseCommandQueue(q));
}

/* ---- queue creation and queries (5.1) --------------------------------------------------------- */

static void test_queue_create(void **state) {
  (void)state;
  cl_int e = 0;
  const cl_queue_properties ooo_prof[] = {CL_QUEUE_PROPERTIES,
                                          CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, ooo_prof, &e);
  CHECK(e);
  cl_command_queue_properties p = 0;
  size_t sz = 0;
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, &sz));
  assert_int_equal(sz, sizeof p);
  assert_int_equal(p, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  /* CL_QUEUE_PROPERTIES_ARRAY: exactly what was given, terminator included */
  cl_queue_properties arr[8];
  memset(arr, 0xab, sizeof arr);
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof arr, arr, &sz));
  assert_int_equal(sz, sizeof ooo_prof);
  assert_memory_equal(arr, ooo_prof, sizeof ooo_prof);
  assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof ooo_prof - 1, arr, NULL),
                   CL_INVALID_VALUE);
  cl_context c = NULL;
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof c, &c, &sz));
  assert_int_equal(sz, sizeof c);
  assert_ptr_equal(c, ctx);
  cl_device_id d = NULL;
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof d, &d, &sz));
  assert_ptr_equal(d, device);
  cl_command_queue dq = (cl_command_queue)1;
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof dq, &dq, &sz));
  assert_int_equal(sz, sizeof dq);
  assert_null(dq); /* not a device queue, and the device has none */
  cl_uint refs = 0;
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, &sz));
  assert_int_equal(sz, sizeof refs);
  assert_int_equal(refs, 1);
  CHECK(clRetainCommandQueue(q));
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  assert_int_equal(refs, 2);
  CHECK(clReleaseCommandQueue(q));
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  assert_int_equal(refs, 1);
  assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, 0, &refs, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof c - 1, &c, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetCommandQueueInfo(q, (cl_command_queue_info)-1, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetCommandQueueInfo(NULL, CL_QUEUE_CONTEXT, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clGetCommandQueueInfo((cl_command_queue)ctx, CL_QUEUE_CONTEXT, 0, NULL, NULL),
                   CL_INVALID_COMMAND_QUEUE);
  /* properties are fixed at creation (clSetCommandQueueProperty is a 1.0 API) */
  cl_command_queue_properties old = 0;
  assert_int_equal(clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_FALSE, &old), CL_INVALID_OPERATION);
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL));
  assert_int_equal(p, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  CHECK(clReleaseCommandQueue(q));

  /* properties given in either order, with a NULL errcode_ret */
  const cl_queue_properties prof[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  q = clCreateCommandQueueWithProperties(ctx, device, prof, NULL);
  assert_non_null(q);
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof arr, arr, &sz));
  assert_int_equal(sz, sizeof prof);
  assert_memory_equal(arr, prof, sizeof prof);
  CHECK(clReleaseCommandQueue(q));

  /* NULL properties or clCreateCommandQueue: CL_QUEUE_PROPERTIES_ARRAY is empty */
  q = clCreateCommandQueueWithProperties(ctx, device, NULL, &e);
  CHECK(e);
  sz = 99;
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof arr, arr, &sz));
  assert_int_equal(sz, 0);
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL));
  assert_int_equal(p, 0);
  CHECK(clReleaseCommandQueue(q));
  q = clCreateCommandQueue(ctx, device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, &e);
  CHECK(e);
  sz = 99;
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &sz));
  assert_int_equal(sz, 0);
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL));
  assert_int_equal(p, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  CHECK(clReleaseCommandQueue(q));

  /* what the device reports it supports */
  cl_command_queue_properties host_props = 0, dev_props = 0;
  CHECK(clGetDeviceInfo(device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof host_props, &host_props, NULL));
  assert_int_equal(host_props & (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE),
                   CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  CHECK(clGetDeviceInfo(device, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, sizeof dev_props, &dev_props, NULL));
  assert_int_equal(dev_props, 0);

  /* errors */
  const cl_queue_properties on_dev[] = {CL_QUEUE_PROPERTIES,
                                        CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  e = 0;
  assert_null(clCreateCommandQueueWithProperties(ctx, device, on_dev, &e));
  assert_int_equal(e, CL_INVALID_QUEUE_PROPERTIES); /* valid, but the device has no device queues */
  const cl_queue_properties on_dev_default[] = {
    CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  assert_null(clCreateCommandQueueWithProperties(ctx, device, on_dev_default, &e));
  assert_int_equal(e, CL_INVALID_QUEUE_PROPERTIES);
  const cl_queue_properties unknown[] = {0x7777, 1, 0};
  assert_null(clCreateCommandQueueWithProperties(ctx, device, unknown, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  const cl_queue_properties all_ones[] = {(cl_queue_properties)-1, (cl_queue_properties)-1, 0, 0, 0};
  assert_null(clCreateCommandQueueWithProperties(ctx, device, all_ones, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  const cl_queue_properties bad_bits[] = {CL_QUEUE_PROPERTIES, (cl_queue_properties)1 << 40, 0};
  assert_null(clCreateCommandQueueWithProperties(ctx, device, bad_bits, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  const cl_queue_properties size_only[] = {CL_QUEUE_SIZE, 16, 0};
  assert_null(clCreateCommandQueueWithProperties(ctx, device, size_only, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  const cl_queue_properties size_host[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, CL_QUEUE_SIZE, 16, 0};
  assert_null(clCreateCommandQueueWithProperties(ctx, device, size_host, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clCreateCommandQueueWithProperties(NULL, device, NULL, &e));
  assert_int_equal(e, CL_INVALID_CONTEXT);
  assert_null(clCreateCommandQueueWithProperties(ctx, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_DEVICE);
  assert_null(clCreateCommandQueueWithProperties(ctx, (cl_device_id)ctx, NULL, &e));
  assert_int_equal(e, CL_INVALID_DEVICE);
  assert_null(clCreateCommandQueue(NULL, device, 0, &e));
  assert_int_equal(e, CL_INVALID_CONTEXT);
  assert_null(clCreateCommandQueue(ctx, NULL, 0, &e));
  assert_int_equal(e, CL_INVALID_DEVICE);
  assert_null(clCreateCommandQueue(ctx, device, (cl_command_queue_properties)-1, &e));
  assert_int_equal(e, CL_INVALID_VALUE);

  /* bad queues */
  assert_int_equal(clFlush(NULL), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clFinish(NULL), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clFlush((cl_command_queue)ctx), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clFinish((cl_command_queue)ctx), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clRetainCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clReleaseCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clSetCommandQueueProperty(NULL, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, NULL), CL_INVALID_COMMAND_QUEUE);
  cl_event ev = NULL;
  assert_int_equal(clEnqueueMarkerWithWaitList(NULL, 0, NULL, &ev), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clEnqueueBarrierWithWaitList(NULL, 0, NULL, &ev), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clEnqueueMarker(NULL, &ev), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clEnqueueBarrier(NULL), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clEnqueueWaitForEvents(NULL, 0, NULL), CL_INVALID_COMMAND_QUEUE);
  q = new_queue(0);
  CHECK(clFlush(q));
  CHECK(clFinish(q));
  CHECK(clReleaseCommandQueue(q));
  assert_int_equal(clFlush(q), CL_INVALID_COMMAND_QUEUE); /* released */
  assert_int_equal(clFinish(q), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, 0, NULL, &sz), CL_INVALID_COMMAND_QUEUE);

  /* deprecated 1.1 forms */
  assert_int_equal(clEnqueueMarker(queue, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueWaitForEvents(queue, 0, NULL), CL_INVALID_VALUE);
  cl_event u = user_event(ctx), u2 = user_event(ctx2);
  assert_int_equal(clEnqueueWaitForEvents(queue, 1, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueWaitForEvents(queue, 0, &u), CL_INVALID_VALUE);
  cl_event bad = NULL;
  assert_int_equal(clEnqueueWaitForEvents(queue, 1, &bad), CL_INVALID_EVENT);
  assert_int_equal(clEnqueueWaitForEvents(queue, 1, &u2), CL_INVALID_CONTEXT);
  CHECK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK(clEnqueueWaitForEvents(queue, 1, &u));
  CHECK(clFinish(queue));
  CHECK(clReleaseEvent(u));
  CHECK(clReleaseEvent(u2));
}

/* ---- clWaitForEvents and wait-list errors ----------------------------------------------------- */

static void test_wait_errors(void **state) {
  (void)state;
  cl_event u = user_event(ctx), u2 = user_event(ctx2), done;
  /* complete them first: a wrong implementation that waited would not hang */
  CHECK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK(clSetUserEventStatus(u2, CL_COMPLETE));
  CHECK(clEnqueueMarkerWithWaitList(queue, 0, NULL, &done));
  CHECK(clWaitForEvents(1, &done));
  assert_int_equal(clWaitForEvents(0, NULL), CL_INVALID_VALUE);
  assert_int_equal(clWaitForEvents(1, NULL), CL_INVALID_VALUE);
  assert_int_equal(clWaitForEvents(0, &u), CL_INVALID_VALUE);
  cl_event two_ctx[] = {u, u2};
  assert_int_equal(clWaitForEvents(2, two_ctx), CL_INVALID_CONTEXT);
  cl_event with_null[] = {u, NULL};
  assert_int_equal(clWaitForEvents(2, with_null), CL_INVALID_EVENT);
  cl_event wrong_kind[] = {(cl_event)queue};
  assert_int_equal(clWaitForEvents(1, wrong_kind), CL_INVALID_EVENT);
  cl_event same_ctx[] = {u, done, u};
  CHECK(clWaitForEvents(3, same_ctx));

  /* enqueues: (NULL, n > 0), (list, 0), a bad event -> CL_INVALID_EVENT_WAIT_LIST; an event of
   * another context -> CL_INVALID_CONTEXT (5.11 "event_wait_list") */
  enum { N = 4 };
  cl_mem m = ints(N, 0);
  cl_int host[N];
  cl_int e;
  cl_kernel k = clCreateKernel(prog, "add1", &e);
  CHECK(e);
  CHECK(clSetKernelArg(k, 0, sizeof m, &m));
  size_t g = N;
  cl_event nul = NULL, bad_kind = (cl_event)m;
  struct {
    cl_uint n;
    const cl_event *list;
    cl_int want;
  } cases[] = {
    {1, NULL, CL_INVALID_EVENT_WAIT_LIST}, {0, &u, CL_INVALID_EVENT_WAIT_LIST},
    {1, &nul, CL_INVALID_EVENT_WAIT_LIST}, {1, &bad_kind, CL_INVALID_EVENT_WAIT_LIST},
    {1, &u2, CL_INVALID_CONTEXT},
  };
  cl_command_queue ooo = new_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    cl_uint n = cases[i].n;
    const cl_event *l = cases[i].list;
    cl_int want = cases[i].want;
    cl_event ev = NULL;
    assert_int_equal(clEnqueueMarkerWithWaitList(queue, n, l, &ev), want);
    assert_int_equal(clEnqueueMarkerWithWaitList(ooo, n, l, &ev), want);
    assert_int_equal(clEnqueueBarrierWithWaitList(ooo, n, l, &ev), want);
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, n, l, &ev), want);
    assert_int_equal(clEnqueueReadBuffer(queue, m, CL_FALSE, 0, sizeof host, host, n, l, &ev), want);
    assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof host, host, n, l, &ev), want);
    assert_int_equal(clEnqueueFillBuffer(queue, m, &(cl_int){1}, sizeof(cl_int), 0, sizeof host, n, l, &ev), want);
    assert_null(ev); /* no event is returned by a failed enqueue */
  }
  CHECK(clFinish(queue));
  expect_all(m, N, 0); /* none of them ran */
  /* a released event in a wait list */
  cl_event gone;
  CHECK(clEnqueueMarkerWithWaitList(queue, 0, NULL, &gone));
  CHECK(clWaitForEvents(1, &gone));
  CHECK(clReleaseEvent(gone));
  assert_int_equal(clEnqueueMarkerWithWaitList(queue, 1, &gone, NULL), CL_INVALID_EVENT_WAIT_LIST);
  assert_int_equal(clWaitForEvents(1, &gone), CL_INVALID_EVENT);
  CHECK(clReleaseCommandQueue(ooo));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseEvent(u));
  CHECK(clReleaseEvent(u2));
  CHECK(clReleaseEvent(done));
}

/* ---- releasing objects while their commands are pending -------------------------------------
 * 5.11.1 calls releasing objects other than events before the user events that gate commands are
 * set "undefined"; spvi keeps such commands' objects alive (holds), and applications do it, so the
 * commands still run and nothing is freed early (run this under ASan: make SAN=1). */

static atomic_int ctx_destroyed;
static void CL_CALLBACK ctx_destructor(cl_context c, void *user) {
  (void)c;
  (void)user;
  atomic_fetch_add(&ctx_destroyed, 1);
}

static void test_release_pending(void **state) {
  (void)state;
  enum { N = 64 };
  cl_command_queue q = new_queue(0);
  cl_mem m = ints(N, -1), src = ints(N, 3), dst = ints(N, 0);
  cl_event u = user_event(ctx), k1, k2, k3, mk;
  cl_int v = 7;
  CHECK(launch(q, "fill", m, &v, N, 1, &u, &k1));
  CHECK(launch(q, "add1", m, NULL, N, 0, NULL, &k2));
  CHECK(clEnqueueCopyBuffer(q, src, dst, 0, 0, N * sizeof(cl_int), 0, NULL, &k3));
  CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &mk));
  recorder r;
  recorder_init(&r);
  cb_data done = {&r, CL_COMPLETE};
  CHECK(clSetEventCallback(mk, CL_COMPLETE, record_cb, &done));
  /* the application lets go of the queue, the events and the copy's source */
  CHECK(clReleaseMemObject(src));
  CHECK(clReleaseEvent(k1));
  CHECK(clReleaseEvent(k2));
  CHECK(clReleaseEvent(k3));
  CHECK(clReleaseEvent(mk));
  CHECK(clReleaseCommandQueue(q));
  sleep_ms(20);
  assert_int_equal(recorded(&r), 0);
  expect_all(m, N, -1);
  expect_all(dst, N, 0);
  CHECK(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK(clReleaseEvent(u));
  await_calls(&r, 1); /* the marker completed: everything before it on its queue did */
  assert_int_equal(r.calls[0].status, CL_COMPLETE);
  expect_all(m, N, 8);
  expect_all(dst, N, 3);
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseMemObject(dst));
  pthread_mutex_destroy(&r.lock);

  /* a whole context released with commands pending: it is destroyed once they are done */
  cl_int e;
  cl_context c3 = clCreateContext(NULL, 1, &device, NULL, NULL, &e);
  CHECK(e);
  atomic_store(&ctx_destroyed, 0);
  CHECK(clSetContextDestructorCallback(c3, ctx_destructor, NULL));
  cl_command_queue q3 = clCreateCommandQueueWithProperties(c3, device, NULL, &e);
  CHECK(e);
  cl_mem a = clCreateBuffer(c3, CL_MEM_READ_WRITE, 4096, NULL, &e);
  CHECK(e);
  cl_mem b = clCreateBuffer(c3, CL_MEM_READ_WRITE, 4096, NULL, &e);
  CHECK(e);
  cl_event u3 = user_event(c3), m3;
  CHECK(clEnqueueFillBuffer(q3, a, &(cl_int){5}, sizeof(cl_int), 0, 4096, 1, &u3, NULL));
  CHECK(clEnqueueCopyBuffer(q3, a, b, 0, 0, 4096, 0, NULL, NULL));
  CHECK(clEnqueueMarkerWithWaitList(q3, 0, NULL, &m3));
  recorder_init(&r);
  CHECK(clSetEventCallback(m3, CL_COMPLETE, record_cb, &done));
  CHECK(clReleaseEvent(m3));
  CHECK(clReleaseMemObject(a));
  CHECK(clReleaseMemObject(b));
  CHECK(clReleaseCommandQueue(q3));
  CHECK(clReleaseContext(c3));
  assert_int_equal(atomic_load(&ctx_destroyed), 0); /* u3 and the commands still need it */
  CHECK(clSetUserEventStatus(u3, CL_COMPLETE));
  CHECK(clReleaseEvent(u3));
  await_calls(&r, 1);
  assert_int_equal(r.calls[0].status, CL_COMPLETE);
  for (int i = 0; i < 10000 && atomic_load(&ctx_destroyed) == 0; i++) sleep_ms(1);
  assert_int_equal(atomic_load(&ctx_destroyed), 1);
  pthread_mutex_destroy(&r.lock);
}

/* ---- waiting threads and callbacks ---------------------------------------------------------
 * A thread blocked in clWaitForEvents/clFinish waits for ITS commands. Two things an application
 * may rightly rely on (callbacks "may be called asynchronously", 5.11.4; clWaitForEvents "waits on
 * the host thread for commands identified by event objects in event_list to complete", 5.11.2):
 * the wait returns soon after those commands complete, not after unrelated work; and a callback is
 * not run inside the waiting call of a thread, where it could need a lock that thread holds. */

static pthread_mutex_t app_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int cb_locked, cb_timed_out;

/* A callback that takes the application's lock, as callbacks that update shared state do. Gives
 * up after 2 s so that a self-deadlock fails the test instead of hanging it. */
static void CL_CALLBACK locking_cb(cl_event ev, cl_int st, void *user) {
  (void)ev;
  (void)st;
  (void)user;
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  t.tv_sec += 2;
  if (pthread_mutex_timedlock(&app_lock, &t) == 0) {
    atomic_fetch_add(&cb_locked, 1);
    pthread_mutex_unlock(&app_lock);
  } else {
    atomic_fetch_add(&cb_timed_out, 1);
  }
}

static void test_callback_while_waiting_with_lock(void **state) {
  (void)state;
  enum { ROUNDS = 100 };
  atomic_store(&cb_locked, 0);
  atomic_store(&cb_timed_out, 0);
  cl_mem m = ints(16, 0);
  for (int i = 0; i < ROUNDS && !atomic_load(&cb_timed_out); i++) {
    cl_event u = user_event(ctx), ev;
    CHECK(clEnqueueFillBuffer(queue, m, &(cl_int){i}, sizeof(cl_int), 0, 16 * sizeof(cl_int), 1, &u, &ev));
    CHECK(clSetEventCallback(ev, CL_COMPLETE, locking_cb, NULL)); /* pending: not called here */
    /* the application waits for the command while holding its lock; the callback (on whatever
     * thread) gets the lock once the wait returned */
    pthread_mutex_lock(&app_lock);
    CHECK(clSetUserEventStatus(u, CL_COMPLETE));
    CHECK(clWaitForEvents(1, &ev));
    pthread_mutex_unlock(&app_lock);
    for (int t = 0; t < 10000 && atomic_load(&cb_locked) + atomic_load(&cb_timed_out) < i + 1; t++) sleep_ms(1);
    CHECK(clReleaseEvent(ev));
    CHECK(clReleaseEvent(u));
  }
  CHECK(clFinish(queue));
  CHECK(clReleaseMemObject(m));
  if (atomic_load(&cb_timed_out))
    fprintf(stderr, "a CL_COMPLETE callback ran inside clWaitForEvents on the thread holding the lock\n");
  assert_int_equal(atomic_load(&cb_timed_out), 0);
  assert_int_equal(atomic_load(&cb_locked), ROUNDS);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct {
  cl_event ev;
  double returned;
} timed_waiter;

static void *timed_wait_thread(void *arg) {
  timed_waiter *w = arg;
  CHECK(clWaitForEvents(1, &w->ev));
  w->returned = now_s();
  return NULL;
}

/* A thread waiting for a user event returns soon after it is set, even while another queue has
 * long kernels ready to run. Not a speed measurement: a waiter that ran one of those kernels
 * itself would return a whole kernel (>= 1 s) late; the bound leaves half of that to the
 * scheduler of a loaded machine. */
static void test_wait_not_delayed_by_other_queues(void **state) {
  (void)state;
  cl_int e;
  cl_command_queue q = new_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_mem m = ints(4, 1);
  cl_kernel slow = clCreateKernel(prog, "spin", &e), quick = clCreateKernel(prog, "spin", &e);
  CHECK(e);
  CHECK(clSetKernelArg(slow, 0, sizeof m, &m));
  CHECK(clSetKernelArg(quick, 0, sizeof m, &m));
  CHECK(clSetKernelArg(quick, 1, sizeof(cl_int), &(cl_int){1}));
  /* calibrate: a kernel that runs at least 1 s alone */
  size_t one = 1;
  double slow_s = 0;
  for (cl_int n = 100000; n < (1 << 30); n *= 2) {
    CHECK(clSetKernelArg(slow, 1, sizeof n, &n));
    double t0 = now_s();
    CHECK(clEnqueueNDRangeKernel(q, slow, 1, NULL, &one, NULL, 0, NULL, NULL));
    CHECK(clFinish(q));
    if ((slow_s = now_s() - t0) >= 1.0) break;
  }
  timed_waiter w = {user_event(ctx), 0};
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, timed_wait_thread, &w), 0);
  sleep_ms(10);
  /* quick and slow kernels alternating: completions wake the waiting thread while slow ones are
   * ready */
  for (int i = 0; i < 4; i++) {
    CHECK(clEnqueueNDRangeKernel(q, quick, 1, NULL, &one, NULL, 0, NULL, NULL));
    CHECK(clEnqueueNDRangeKernel(q, slow, 1, NULL, &one, NULL, 0, NULL, NULL));
  }
  sleep_ms(20);
  double set = now_s();
  CHECK(clSetUserEventStatus(w.ev, CL_COMPLETE));
  pthread_join(th, NULL);
  double late = w.returned - set;
  CHECK(clFinish(q));
  if (late >= slow_s / 2)
    fprintf(stderr, "clWaitForEvents returned %.3f s after its event completed (a slow kernel: %.3f s)\n", late,
            slow_s);
  assert_true(late < slow_s / 2);
  CHECK(clReleaseEvent(w.ev));
  CHECK(clReleaseKernel(slow));
  CHECK(clReleaseKernel(quick));
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseCommandQueue(q));
}

/* ---- threads -------------------------------------------------------------------------------- */

typedef struct {
  int id;
  int failures;
} worker;

/* Each thread: its own queue, kernel and buffer; 200 kernels, each followed by a blocking read. */
static void *queue_thread(void *arg) {
  worker *w = arg;
  enum { N = 32, ROUNDS = 200 };
  cl_int e;
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &e);
  cl_kernel k = clCreateKernel(prog, "add1", &e);
  cl_int init[N];
  for (int i = 0; i < N; i++) init[i] = w->id * 1000 + i;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init, &e);
  if (!q || !k || !m) {
    w->failures++;
    return NULL;
  }
  clSetKernelArg(k, 0, sizeof m, &m);
  for (int round = 1; round <= ROUNDS; round++) {
    size_t g = N;
    if (clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL) != CL_SUCCESS) w->failures++;
    cl_int out[N];
    if (clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL) != CL_SUCCESS) w->failures++;
    for (int i = 0; i < N; i++)
      if (out[i] != init[i] + round) w->failures++;
  }
  if (clFinish(q) != CL_SUCCESS) w->failures++;
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseCommandQueue(q);
  return NULL;
}

static void test_threads_queues(void **state) {
  (void)state;
  enum { T = 4 };
  pthread_t th[T];
  worker w[T];
  for (int i = 0; i < T; i++) {
    w[i] = (worker){i, 0};
    assert_int_equal(pthread_create(&th[i], NULL, queue_thread, &w[i]), 0);
  }
  for (int i = 0; i < T; i++) pthread_join(th[i], NULL);
  for (int i = 0; i < T; i++) assert_int_equal(w[i].failures, 0);
}

typedef struct {
  cl_event ev;
  cl_int ret;
  atomic_int *returned;
} waiter;

static void *wait_thread(void *arg) {
  waiter *w = arg;
  w->ret = clWaitForEvents(1, &w->ev);
  atomic_fetch_add(w->returned, 1);
  return NULL;
}

/* Threads blocked in clWaitForEvents on one user event: all return once it is set, with
 * CL_SUCCESS, or with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when it is set negative. */
static void test_threads_wait_user_event(void **state) {
  (void)state;
  enum { T = 4 };
  const cl_int statuses[2] = {CL_COMPLETE, -9};
  for (int round = 0; round < 2; round++) {
    atomic_int returned = 0;
    cl_event u = user_event(ctx);
    pthread_t th[T];
    waiter w[T];
    for (int i = 0; i < T; i++) {
      w[i] = (waiter){u, 12345, &returned};
      assert_int_equal(pthread_create(&th[i], NULL, wait_thread, &w[i]), 0);
    }
    sleep_ms(50);
    assert_int_equal(atomic_load(&returned), 0);
    CHECK(clSetUserEventStatus(u, statuses[round]));
    for (int i = 0; i < T; i++) pthread_join(th[i], NULL);
    assert_int_equal(atomic_load(&returned), T);
    for (int i = 0; i < T; i++)
      assert_int_equal(w[i].ret, round == 0 ? CL_SUCCESS : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(clReleaseEvent(u));
  }
}

/* Threads setting one user event's status at the same moment: one succeeds, the others get
 * CL_INVALID_OPERATION ("clSetUserEventStatus ... can only be called once", 5.11.1), and the status
 * is the one of the call that succeeded. The threads stay alive across rounds and spin on the
 * round number, so that the calls start within a few nanoseconds of each other; rounds go on for
 * RACE_SECONDS at most. */
enum { RACE_SECONDS = 3, RACERS = 4 };

typedef struct {
  atomic_int *round, *done;
  cl_event *ev; /* the round's event, written by the main thread before *round */
  cl_int status, ret;
} racer;

static void *race_thread(void *arg) {
  racer *r = arg;
  for (int i = 1;; i++) {
    int now;
    for (int spins = 0; (now = atomic_load(r->round)) != i && now >= 0; spins++)
      if (spins > 1000) sched_yield(); /* the machine may have fewer cores than threads */
    if (now < 0) return NULL;          /* the main thread is done */
    r->ret = clSetUserEventStatus(*r->ev, r->status);
    atomic_fetch_add(r->done, 1);
  }
}

static void test_set_status_race(void **state) {
  (void)state;
  atomic_int round = 0, done = 0;
  cl_event u = NULL;
  racer r[RACERS];
  pthread_t th[RACERS];
  for (int t = 0; t < RACERS; t++) {
    r[t] = (racer){&round, &done, &u, t == 0 ? CL_COMPLETE : -20 - t, 0};
    assert_int_equal(pthread_create(&th[t], NULL, race_thread, &r[t]), 0);
  }
  int rounds = 0, several = 0, none = 0, mismatched = 0, bad_code = 0;
  for (double end = now_s() + RACE_SECONDS; now_s() < end && !(several || none || mismatched || bad_code);) {
    u = user_event(ctx);
    rounds++;
    atomic_store(&round, rounds);
    while (atomic_load(&done) < RACERS * rounds) sched_yield();
    int ok = 0;
    cl_int winner = 1;
    for (int t = 0; t < RACERS; t++) {
      if (r[t].ret == CL_SUCCESS) {
        ok++;
        winner = r[t].status;
      } else if (r[t].ret != CL_INVALID_OPERATION) bad_code++;
    }
    if (ok > 1) several++;
    else if (ok == 0) none++;
    else if (status_of(u) != winner) mismatched++;
    CHECK(clReleaseEvent(u));
  }
  atomic_store(&round, -1);
  for (int t = 0; t < RACERS; t++) pthread_join(th[t], NULL);
  if (several || none || mismatched)
    fprintf(stderr,
            "clSetUserEventStatus race: round %d: several calls succeeded %d, none %d, "
            "the status of a losing call was kept %d\n",
            rounds, several, none, mismatched);
  assert_int_equal(bad_code, 0);
  assert_int_equal(several, 0);
  assert_int_equal(none, 0);
  assert_int_equal(mismatched, 0);
}

int main(void) {
  alarm(240); /* a hang in the engine fails the program instead of blocking `make opencl-check` */
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_in_order),
    cmocka_unit_test(test_out_of_order_basic),
    cmocka_unit_test(test_user_event_gate),
    cmocka_unit_test(test_ooo_barrier),
    cmocka_unit_test(test_ooo_marker),
    cmocka_unit_test(test_cross_queue),
    cmocka_unit_test(test_user_event_errors),
    cmocka_unit_test(test_user_event_failure),
    cmocka_unit_test(test_faulting_kernel),
    cmocka_unit_test(test_callbacks),
    cmocka_unit_test(test_event_info),
    cmocka_unit_test(test_profiling),
    cmocka_unit_test(test_queue_create),
    cmocka_unit_test(test_wait_errors),
    cmocka_unit_test(test_release_pending),
    cmocka_unit_test(test_callback_while_waiting_with_lock),
    cmocka_unit_test(test_wait_not_delayed_by_other_queues),
    cmocka_unit_test(test_threads_queues),
    cmocka_unit_test(test_threads_wait_user_event),
    cmocka_unit_test(test_set_status_race),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
