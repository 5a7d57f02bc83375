/*
 * ex_api.h — internals shared by the files of the public API (ex_api.c, ex_memobj.c, ex_svm.c,
 * ex_job.c): memory objects and error messages.
 */
#ifndef EX_API_H
#define EX_API_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spvi.h"

/* A buffer, a view of one (sub-buffer) or an image (spvi.h "memory objects"). */
struct spvi_mem {
  _Atomic long refs;
  spvi_mem *parent; /* a view: its root buffer; an image from a buffer: that buffer (or view);
                              NULL otherwise. The object holds a reference to it. */
  uint8_t *bytes;   /* the object's bytes (a view: into the root's) */
  size_t size;
  bool owned;         /* spvi allocated `bytes` (freed with the object) */
  size_t view_offset; /* a view: where it starts in its root */
  bool is_image;
  spvi_image_desc desc; /* images */
};

struct ex_launch;
/* ex_limits.c: the launch's __local memory, its kernel's variables (`vars` bytes) plus its __local
 * arguments, within SPVI_LOCAL_MEM_SIZE; the whole run's estimated memory at warp width W on
 * `threads` threads within max_memory (0: no bound). false with a message (SPVI_E_USAGE). */
bool ex_launch_local_fits(const struct ex_launch *x, const char *kernel, uint64_t vars, spvi_error *err);
bool ex_launch_memory_fits(const struct ex_launch *x, unsigned W, unsigned threads, uint64_t max_memory,
                           spvi_error *err);
/* spvi_run's checks of launch l and options, then the launch set for a debug session (one thread;
 * refused for a module with sub-group operations, which need a sub-group in lock-step): its
 * ex_launch, or NULL with err filled. ex_inspect.c's start. */
struct ex_launch *ex_api_debug_launch(spvi_launch *l, const spvi_run_options *opts, spvi_error *err);

/* Fill *e (may be NULL) with status s and a one-line message. */
void ex_set_err(spvi_error *e, spvi_status s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void ex_clear_err(spvi_error *e);
/* True when `bytes` fit in one allocation (spvi_max_alloc_size); else false with a message saying
 * `what` ("a buffer") does not (SPVI_E_USAGE). */
bool ex_alloc_fits(uint64_t bytes, const char *what, spvi_error *err);

#endif
