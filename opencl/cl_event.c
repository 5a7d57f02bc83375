/*
 * cl_event.c — the command engine and the event API.
 *
 * Every enqueued command is a cl_event with a run() function (cl_internal.h). One engine lock
 * guards every event's status and dependency lists; one condition variable wakes whoever waits
 * for a completion (clWaitForEvents, blocking enqueues, clFinish), another the workers.
 *
 * Life of a command: clx_command_new (CL_QUEUED, t_queued) -> clx_submit (CL_SUBMITTED, t_submit;
 * it waits for `waiting` commands) -> a worker takes it once waiting is 0 (CL_RUNNING, t_start) ->
 * complete() (CL_COMPLETE or negative, t_end): its dependents lose one wait, and those that waited
 * for it explicitly (wait list) fail with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST without
 * running when it failed (OpenCL 3.0 API 5.11 "the command ... will not be executed"). Queue order
 * alone does not propagate a failure: a faulting kernel does not cancel the unrelated commands
 * after it, as on real devices.
 *
 * Callbacks of the application (clSetEventCallback) are called without the lock held, always on a
 * worker thread: when the status changed on an application thread (a waiting thread that ran its
 * own command, clSetUserEventStatus, an event already complete at registration), a worker is
 * handed them, so no callback runs inside an API call where the application may hold a lock the
 * callback takes.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cl_internal.h"

static pthread_mutex_t eng = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER; /* some command completed */
static pthread_cond_t work_cond = PTHREAD_COND_INITIALIZER; /* a command became ready */
static cl_event *ready;                                     /* FIFO of ready commands */
static size_t ready_head, ready_len, ready_cap;
static pthread_once_t workers_once = PTHREAD_ONCE_INIT;
/* Callbacks of commands completed on an application thread (a waiting thread that ran its own
 * command, clSetUserEventStatus): called by a worker instead, never inside the caller's API call. */
typedef struct cb_job {
  struct cb_job *next;
  cl_event ev;
  clx_callback *cbs;
  cl_int st;
} cb_job;
static cb_job *jobs_head, **jobs_tail = &jobs_head;
static _Thread_local bool is_worker;

/* ---- lists ---------------------------------------------------------------------------------- */

static void grow(void **arr, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return;
  size_t n = *cap ? *cap * 2 : 8;
  while (n < need) n *= 2;
  void *p = realloc(*arr, n * elem);
  if (!p) abort(); /* a few pointers; nothing sensible is left to do without them */
  *arr = p;
  *cap = n;
}

static void ready_push(cl_event ev) {
  if (ready_len == ready_cap) {
    /* unwrap the ring into a larger array */
    cl_event *n = malloc((ready_cap ? ready_cap * 2 : 64) * sizeof *n);
    if (!n) abort();
    for (size_t i = 0; i < ready_len; i++) n[i] = ready[(ready_head + i) % ready_cap];
    free(ready);
    ready = n;
    ready_cap = ready_cap ? ready_cap * 2 : 64;
    ready_head = 0;
  }
  ready[(ready_head + ready_len++) % ready_cap] = ev;
  pthread_cond_signal(&work_cond);
}

static void call_callbacks_now(cl_event ev, clx_callback *c, cl_int st);
static void start_workers(void);
/* ---- callbacks -------------------------------------------------------------------------------- */

/* Take the callbacks an event's new status `st` triggers (status <= their target, any negative
 * status triggering all), in registration order. Under the lock. */
static clx_callback *take_callbacks(cl_event ev, cl_int st) {
  clx_callback *fire = NULL, **tail = &fire, **pp = &ev->callbacks;
  while (*pp) {
    clx_callback *c = *pp;
    if (st < 0 || st <= c->status) {
      *pp = c->next;
      c->next = NULL;
      *tail = c;
      tail = &c->next;
    } else {
      pp = &c->next;
    }
  }
  return fire;
}

static void call_callbacks(cl_event ev, clx_callback *c, cl_int st) {
  if (c && !is_worker) {
    pthread_once(&workers_once, start_workers); /* a user event's callbacks may come first */
    cb_job *j = malloc(sizeof *j);
    if (!j) abort();
    *j = (cb_job){NULL, ev, c, st};
    clx_hold(ev);
    pthread_mutex_lock(&eng);
    *jobs_tail = j;
    jobs_tail = &j->next;
    pthread_cond_signal(&work_cond);
    pthread_mutex_unlock(&eng);
    return;
  }
  call_callbacks_now(ev, c, st);
}

static void call_callbacks_now(cl_event ev, clx_callback *c, cl_int st) {
  while (c) {
    clx_callback *next = c->next;
    ((void(CL_CALLBACK *)(cl_event, cl_int, void *))c->fn)(ev, st, c->user);
    free(c);
    c = next;
  }
}

/* ---- completion ------------------------------------------------------------------------------- */

static void queue_forget(cl_command_queue q, cl_event ev, cl_event *unhold, size_t *nunhold) {
  for (size_t i = 0; i < q->npending; i++)
    if (q->pending[i] == ev) {
      q->pending[i] = q->pending[--q->npending];
      unhold[(*nunhold)++] = ev;
      break;
    }
  if (q->last == ev) {
    q->last = NULL;
    unhold[(*nunhold)++] = ev;
  }
}

/* Finish command ev with status st (CL_SUCCESS/CL_COMPLETE or negative), then every command that
 * fails because of it. Called without the lock. */
static void complete(cl_event ev, cl_int st) {
  cl_event failed_stack[64];
  cl_event *failed = failed_stack;
  size_t nfailed = 0, capf = 64;
  for (;;) {
    cl_event unhold[2];
    size_t nunhold = 0;
    pthread_mutex_lock(&eng);
    ev->status = st == CL_SUCCESS ? CL_COMPLETE : st;
    ev->t_end = clx_now_ns();
    if (ev->t_start == 0) ev->t_start = ev->t_end;
    for (size_t i = 0; i < ev->ndependents; i++) {
      cl_event d = ev->dependents[i].ev;
      if (ev->status < 0 && ev->dependents[i].fail) d->dep_failed = true;
      if (--d->waiting) continue;
      if (d->dep_failed) {
        if (nfailed == capf) {
          cl_event *n = malloc(2 * capf * sizeof *n);
          if (!n) abort();
          memcpy(n, failed, nfailed * sizeof *n);
          if (failed != failed_stack) free(failed);
          failed = n;
          capf *= 2;
        }
        failed[nfailed++] = d;
      } else {
        ready_push(d);
      }
    }
    free(ev->dependents);
    ev->dependents = NULL;
    ev->ndependents = ev->cap = 0;
    if (ev->queue) queue_forget(ev->queue, ev, unhold, &nunhold);
    clx_callback *cbs = take_callbacks(ev, ev->status);
    cl_int final = ev->status;
    pthread_cond_broadcast(&done_cond);
    pthread_mutex_unlock(&eng);
    call_callbacks(ev, cbs, final);
    if (ev->fini) ev->fini(ev);
    ev->fini = NULL;
    for (size_t i = 0; i < nunhold; i++) clx_unhold(unhold[i]);
    if (ev->queue) clx_unhold(ev); /* the engine's hold, taken at submit */
    if (!nfailed) break;
    ev = failed[--nfailed];
    st = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
  if (failed != failed_stack) free(failed);
}

/* ---- workers ------------------------------------------------------------------------------------ */

/* Take the oldest ready command and run it; called with the lock held, returns without it. */
static void run_next(size_t at) {
  cl_event ev = ready[(ready_head + at) % ready_cap];
  if (at == 0) {
    ready_head = (ready_head + 1) % ready_cap;
  } else {
    /* close the gap: later entries move up one */
    for (size_t i = at; i + 1 < ready_len; i++)
      ready[(ready_head + i) % ready_cap] = ready[(ready_head + i + 1) % ready_cap];
  }
  ready_len--;
  ev->status = CL_RUNNING;
  ev->t_start = clx_now_ns();
  clx_callback *cbs = take_callbacks(ev, CL_RUNNING);
  pthread_mutex_unlock(&eng);
  call_callbacks(ev, cbs, CL_RUNNING);
  cl_int st = ev->run ? ev->run(ev) : CL_SUCCESS;
  complete(ev, st);
}

static void *worker(void *arg) {
  (void)arg;
  is_worker = true;
  for (;;) {
    pthread_mutex_lock(&eng);
    while (!ready_len && !jobs_head) pthread_cond_wait(&work_cond, &eng);
    if (jobs_head) {
      cb_job *j = jobs_head;
      if (!(jobs_head = j->next)) jobs_tail = &jobs_head;
      pthread_mutex_unlock(&eng);
      call_callbacks_now(j->ev, j->cbs, j->st);
      clx_unhold(j->ev);
      free(j);
      continue;
    }
    run_next(0);
  }
  return NULL;
}

/* A thread that waits for a command (clFinish, clWaitForEvents, a blocking enqueue) runs the
 * ready command it waits for (or one of the queue it finishes) itself instead of sleeping while a
 * worker wakes up: the common enqueue-then-finish pattern then costs no thread switch (make bench,
 * "OpenCL platform"). Other queues' commands are left to the workers, so a wait is never held up
 * by an unrelated kernel. Returns with the lock held, after running one command or sleeping once. */
static void wait_or_help(cl_event want, cl_command_queue q) {
  for (size_t i = 0; i < ready_len; i++) {
    cl_event ev = ready[(ready_head + i) % ready_cap];
    /* only what the caller waits for, and not commands with application callbacks: those must
     * not run inside the caller's API call, where it may hold a lock they take (5.11.4) */
    if ((ev == want || (q && ev->queue == q)) && !ev->callbacks) {
      run_next(i);
      pthread_mutex_lock(&eng);
      return;
    }
  }
  pthread_cond_wait(&done_cond, &eng);
}

/* Workers: as many as cores (at least 2, so that a long kernel does not hold up the commands of
 * other queues). Kernel launches also run their work-groups on spvi's own threads. */
static void start_workers(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 2) n = 2;
  if (n > 16) n = 16;
  pthread_attr_t a;
  pthread_attr_init(&a);
  pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
  for (long i = 0; i < n; i++) {
    pthread_t t;
    if (pthread_create(&t, &a, worker, NULL) != 0) abort();
  }
  pthread_attr_destroy(&a);
}

/* ---- commands ---------------------------------------------------------------------------------- */

static void event_destroy(void *obj) {
  cl_event ev = obj;
  clx_callback *c = ev->callbacks;
  while (c) {
    clx_callback *n = c->next;
    free(c);
    c = n;
  }
  free(ev->dependents);
  if (ev->queue) clx_unhold(ev->queue);
  clx_unhold(ev->ctx);
  clx_obj_free(ev, sizeof *ev);
}

static cl_event event_new(cl_context ctx, cl_command_queue q, cl_command_type type, cl_int status) {
  cl_event ev = clx_obj_alloc(sizeof *ev);
  if (!ev) return NULL;
  ev->ctx = ctx;
  ev->queue = q;
  ev->type = type;
  ev->status = status;
  ev->t_queued = clx_now_ns();
  clx_hold(ctx);
  if (q) clx_hold(q);
  clx_init(ev, CLX_EVENT, event_destroy);
  return ev;
}

cl_event clx_command_new(cl_command_queue q, cl_command_type type) { return event_new(q->ctx, q, type, CL_QUEUED); }

cl_int clx_submit_command(cl_command_queue q, cl_command_type type, cl_int (*run)(cl_event), void (*fini)(cl_event),
                          void *payload, cl_uint nwait, const cl_event *wait, cl_event *out, bool blocking) {
  cl_event ev = clx_command_new(q, type);
  if (!ev) {
    struct _cl_event none = {.payload = payload}; /* fini reads nothing but the payload */
    if (fini) fini(&none);
    return CL_OUT_OF_HOST_MEMORY;
  }
  ev->run = run;
  ev->fini = fini;
  ev->payload = payload;
  return clx_submit(ev, nwait, wait, out, blocking);
}

void clx_command_discard(cl_event ev) {
  if (ev->fini) ev->fini(ev);
  ev->fini = NULL;
  clx_release(ev, CLX_EVENT, CL_INVALID_EVENT);
}

cl_int clx_check_wait_list(cl_context ctx, cl_uint n, const cl_event *list) {
  if ((n == 0) != (list == NULL)) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < n; i++) {
    if (!clx_valid(list[i], CLX_EVENT)) return CL_INVALID_EVENT_WAIT_LIST;
    if (list[i]->ctx != ctx) return CL_INVALID_CONTEXT;
  }
  return CL_SUCCESS;
}

/* ev waits for d (under the lock). */
static void add_dep(cl_event ev, cl_event d, bool fail) {
  if (d == ev) return;
  if (d->status < 0) {
    if (fail) ev->dep_failed = true;
    return;
  }
  if (d->status == CL_COMPLETE) return;
  grow((void **)&d->dependents, &d->cap, d->ndependents + 1, sizeof *d->dependents);
  d->dependents[d->ndependents++] = (struct clx_dep){ev, fail};
  ev->waiting++;
}

cl_int clx_submit_ex(cl_event ev, cl_uint nwait, const cl_event *wait, cl_event *out, bool blocking, unsigned flags) {
  pthread_once(&workers_once, start_workers);
  cl_command_queue q = ev->queue;
  bool in_order = !(q->props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  bool fail_now = false;
  clx_hold(ev); /* the engine's, dropped in complete() */
  clx_hold(ev); /* the queue's pending list */
  pthread_mutex_lock(&eng);
  ev->status = CL_SUBMITTED;
  ev->t_submit = clx_now_ns();
  for (cl_uint i = 0; i < nwait; i++) add_dep(ev, wait[i], true);
  if (flags & CLX_AFTER_ALL)
    for (size_t i = 0; i < q->npending; i++) add_dep(ev, q->pending[i], false);
  cl_event old_last = NULL;
  if (q->last) add_dep(ev, q->last, false);
  if (in_order || (flags & CLX_BARRIER)) {
    old_last = q->last;
    q->last = ev;
    clx_hold(ev);
  }
  grow((void **)&q->pending, &q->cap, q->npending + 1, sizeof *q->pending);
  q->pending[q->npending++] = ev;
  if (ev->waiting == 0) {
    if (ev->dep_failed) fail_now = true;
    else ready_push(ev);
  }
  pthread_mutex_unlock(&eng);
  if (old_last) clx_unhold(old_last);
  if (fail_now) complete(ev, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_int ret = CL_SUCCESS;
  if (blocking && clx_wait(ev) < 0) ret = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  if (out) *out = ev;
  else clx_release(ev, CLX_EVENT, CL_INVALID_EVENT);
  return ret;
}

cl_int clx_submit(cl_event ev, cl_uint nwait, const cl_event *wait, cl_event *out, bool blocking) {
  return clx_submit_ex(ev, nwait, wait, out, blocking, 0);
}

cl_int clx_wait(cl_event ev) {
  pthread_mutex_lock(&eng);
  while (ev->status > CL_COMPLETE) wait_or_help(ev, NULL);
  cl_int st = ev->status;
  pthread_mutex_unlock(&eng);
  return st;
}

void clx_finish(cl_command_queue q) {
  pthread_mutex_lock(&eng);
  while (q->npending) wait_or_help(NULL, q);
  pthread_mutex_unlock(&eng);
}

/* ---- the event API (OpenCL 3.0 API 5.11) ------------------------------------------------------ */

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint n, const cl_event *list) {
  if (n == 0 || !list) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < n; i++) {
    if (!clx_valid(list[i], CLX_EVENT)) return CL_INVALID_EVENT;
    if (list[i]->ctx != list[0]->ctx) return CL_INVALID_CONTEXT;
  }
  cl_int ret = CL_SUCCESS;
  for (cl_uint i = 0; i < n; i++)
    if (clx_wait(list[i]) < 0) ret = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  return ret;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event ev, cl_event_info param, size_t size, void *value,
                                               size_t *size_ret) {
  if (!clx_valid(ev, CLX_EVENT)) return CL_INVALID_EVENT;
  switch (param) {
  case CL_EVENT_COMMAND_QUEUE: return clx_info(size, value, size_ret, &ev->queue, sizeof ev->queue);
  case CL_EVENT_CONTEXT: return clx_info(size, value, size_ret, &ev->ctx, sizeof ev->ctx);
  case CL_EVENT_COMMAND_TYPE: return clx_info(size, value, size_ret, &ev->type, sizeof ev->type);
  case CL_EVENT_COMMAND_EXECUTION_STATUS: {
    pthread_mutex_lock(&eng);
    cl_int st = ev->status;
    pthread_mutex_unlock(&eng);
    return clx_info(size, value, size_ret, &st, sizeof st);
  }
  case CL_EVENT_REFERENCE_COUNT: {
    cl_uint r = clx_refcount(ev);
    return clx_info(size, value, size_ret, &r, sizeof r);
  }
  default: return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context ctx, cl_int *err) {
  cl_int e = CL_SUCCESS;
  cl_event ev = NULL;
  if (!clx_valid(ctx, CLX_CONTEXT)) e = CL_INVALID_CONTEXT;
  else if (!(ev = event_new(ctx, NULL, CL_COMMAND_USER, CL_SUBMITTED))) e = CL_OUT_OF_HOST_MEMORY;
  if (ev) ev->t_submit = ev->t_queued;
  if (err) *err = e;
  return ev;
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event ev, cl_int status) {
  if (!clx_valid(ev, CLX_EVENT) || ev->queue || ev->type != CL_COMMAND_USER) return CL_INVALID_EVENT;
  if (status > CL_COMPLETE) return CL_INVALID_VALUE;
  /* held before the status is visible: a thread that waited for it may release it at once */
  clx_hold(ev);
  /* claim the event under the lock: of two concurrent calls, only one gets past */
  pthread_mutex_lock(&eng);
  bool already = ev->status <= CL_COMPLETE;
  if (!already) ev->status = status;
  pthread_mutex_unlock(&eng);
  if (already) {
    clx_unhold(ev);
    return CL_INVALID_OPERATION; /* "called more than once" (5.11.1) */
  }
  complete(ev, status);
  clx_unhold(ev);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event ev) { return clx_retain(ev, CLX_EVENT, CL_INVALID_EVENT); }
CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event ev) { return clx_release(ev, CLX_EVENT, CL_INVALID_EVENT); }

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(cl_event ev, cl_int type,
                                                   void(CL_CALLBACK *fn)(cl_event, cl_int, void *), void *user) {
  if (!clx_valid(ev, CLX_EVENT)) return CL_INVALID_EVENT;
  if (!fn || (type != CL_SUBMITTED && type != CL_RUNNING && type != CL_COMPLETE)) return CL_INVALID_VALUE;
  clx_callback *c = calloc(1, sizeof *c);
  if (!c) return CL_OUT_OF_HOST_MEMORY;
  c->fn = (void(CL_CALLBACK *)())fn;
  c->user = user;
  c->status = type;
  pthread_mutex_lock(&eng);
  cl_int st = ev->status;
  bool now = st < 0 || st <= type;
  if (!now) {
    clx_callback **pp = &ev->callbacks;
    while (*pp) pp = &(*pp)->next;
    *pp = c;
  }
  pthread_mutex_unlock(&eng);
  /* the status was reached already: call it now, on the caller's thread */
  if (now) call_callbacks(ev, c, st < 0 ? st : type);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(cl_event ev, cl_profiling_info param, size_t size, void *value,
                                                        size_t *size_ret) {
  if (!clx_valid(ev, CLX_EVENT)) return CL_INVALID_EVENT;
  /* only commands of a profiling queue that completed have timestamps (5.14) */
  if (!ev->queue || !(ev->queue->props & CL_QUEUE_PROFILING_ENABLE)) return CL_PROFILING_INFO_NOT_AVAILABLE;
  pthread_mutex_lock(&eng);
  cl_int st = ev->status;
  cl_ulong t[4] = {ev->t_queued, ev->t_submit, ev->t_start, ev->t_end};
  pthread_mutex_unlock(&eng);
  if (st != CL_COMPLETE) return CL_PROFILING_INFO_NOT_AVAILABLE;
  switch (param) {
  case CL_PROFILING_COMMAND_QUEUED: return clx_info(size, value, size_ret, &t[0], sizeof t[0]);
  case CL_PROFILING_COMMAND_SUBMIT: return clx_info(size, value, size_ret, &t[1], sizeof t[1]);
  case CL_PROFILING_COMMAND_START: return clx_info(size, value, size_ret, &t[2], sizeof t[2]);
  case CL_PROFILING_COMMAND_END:
  case CL_PROFILING_COMMAND_COMPLETE: return clx_info(size, value, size_ret, &t[3], sizeof t[3]);
  default: return CL_INVALID_VALUE;
  }
}
