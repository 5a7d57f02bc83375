/*
 * ex_job.c — asynchronous runs (spvi.h "asynchronous runs"): spvi_run on a thread of its own per
 * job, so an OpenCL platform can return from clEnqueueNDRangeKernel at once and complete the
 * kernel's event from on_done.
 *
 * Ordering: the run's results (buffers, fault, status) are written before on_done is called, and
 * on_done returns before `done` is set with release ordering, so a thread that sees
 * spvi_job_done() true (an acquire load) sees everything the run and on_done wrote.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ex_api.h"

struct spvi_job {
  pthread_t thread;
  spvi_launch *l;
  spvi_run_options opts; /* a copy: the caller's may go away */
  void (*on_done)(void *user);
  void *user;
  spvi_status status;
  spvi_fault fault;
  spvi_error err;
  _Atomic bool done;
};

static void *job_main(void *arg) {
  spvi_job *j = arg;
  j->status = spvi_run(j->l, &j->opts, &j->fault, &j->err);
  if (j->on_done) j->on_done(j->user);
  atomic_store_explicit(&j->done, true, memory_order_release);
  return NULL;
}

spvi_job *spvi_run_async(spvi_launch *l, const spvi_run_options *opts, void (*on_done)(void *user), void *user,
                         spvi_error *err) {
  ex_clear_err(err);
  if (!l) {
    ex_set_err(err, SPVI_E_USAGE, "no launch");
    return NULL;
  }
  spvi_job *j = calloc(1, sizeof *j);
  if (!j) {
    ex_set_err(err, SPVI_E_NOMEM, "out of memory for an asynchronous run");
    return NULL;
  }
  j->l = l;
  if (opts) j->opts = *opts;
  j->on_done = on_done;
  j->user = user;
  atomic_init(&j->done, false);
  const int e = pthread_create(&j->thread, NULL, job_main, j);
  if (e) {
    free(j);
    ex_set_err(err, SPVI_E_NOMEM, "cannot start a thread for an asynchronous run: %s", strerror(e));
    return NULL;
  }
  return j;
}

bool spvi_job_done(const spvi_job *j) {
  return j && atomic_load_explicit(&((spvi_job *)j)->done, memory_order_acquire);
}

spvi_status spvi_job_wait(spvi_job *j, spvi_fault *fault, spvi_error *err) {
  ex_clear_err(err);
  if (!j) {
    ex_set_err(err, SPVI_E_USAGE, "no job");
    return SPVI_E_USAGE;
  }
  pthread_join(j->thread, NULL);
  const spvi_status s = j->status;
  if (fault) *fault = j->fault;
  if (err) *err = j->err;
  free(j);
  return s;
}
