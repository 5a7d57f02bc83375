/*
 * ex_pause.c — the debugger's pauses as a hook client (ex_hooks.h, ex_pause_hooks at the end,
 * registered first so that it sees an instruction before the others): in a debug run (ex_launch.debug
 * set by ex_inspect.c) its `before` asks the session's ex_insp_pause_fn about every instruction,
 * and true pauses the work-item there (EX_W_PAUSED).
 *
 * A debug run is at warp width 1, so a warp is one work-item and its index in the worker's array
 * the local linear id. A paused warp resumes at the instruction it paused before, which the hooks
 * notify again: the client lets it run then (its per-warp `resume` flag), as ex_inspect.h promises.
 */
#include <stdlib.h>

#include "ex_hooks.h"
#include "ex_pause.h"

typedef struct pworker {
  ex_pause *p;
  const ex_warp *warps; /* the worker's warps (ex_hk_info.warps) */
  bool *resume;         /* per warp: resuming at the instruction it paused before */
  unsigned nwarps;
} pworker;

static bool pause_worker_init(ex_ctx *cx, void *launch, const ex_hk_info *info, void **self) {
  (void)launch;
  pworker *pw = calloc(1, sizeof *pw);
  if (!pw) return false;
  *self = pw;
  pw->p = cx->l->debug;
  pw->warps = info->warps;
  pw->nwarps = info->nwarps;
  pw->resume = calloc(info->nwarps + 1, sizeof *pw->resume);
  return pw->resume != NULL;
}

static void pause_worker_free(void *self) {
  pworker *pw = self;
  if (!pw) return;
  free(pw->resume);
  free(pw);
}

/* A new work-group's work-items start at their entry: none resumes. */
static void pause_group_begin(void *self, ex_ctx *cx, ex_warp *warps, unsigned nw) {
  (void)cx;
  (void)warps;
  (void)nw;
  pworker *pw = self;
  for (unsigned k = 0; k < pw->nwarps; k++) pw->resume[k] = false;
}

static bool pause_before(void *self, ex_ctx *cx, const ex_hk_insn *e) {
  (void)cx;
  pworker *pw = self;
  ex_pause *p = pw->p;
  const unsigned item = (unsigned)(e->w - pw->warps);
  if (pw->resume[item]) { /* it paused before this very instruction: run it now */
    pw->resume[item] = false;
    return false;
  }
  const ex_insp_at at = {item, e->f->fn->index, (uint32_t)(e->ip - e->f->fn->code), e->w->depth};
  p->live_item = (int)item;
  p->live_idx = at.idx;
  const bool stop = p->ask(p->user, &at);
  p->live_item = -1;
  pw->resume[item] = stop;
  return stop;
}

/* Every instruction, each warp keeping its work-item (no lane recycling), groups in order on one
 * thread, built-ins readable in memory. */
static unsigned pause_wants(const ex_ctx *cx) {
  return cx->l->debug ? EX_HK_EVERY | EX_HK_NO_RECYCLE | EX_HK_SERIAL | EX_HK_BUILTIN_MEM : 0;
}

const ex_hooks ex_pause_hooks = {
  .name = "debugger",
  .wants = pause_wants,
  .worker_init = pause_worker_init,
  .worker_free = pause_worker_free,
  .group_begin = pause_group_begin,
  .before = pause_before,
};
