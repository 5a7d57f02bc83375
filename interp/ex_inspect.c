/*
 * ex_inspect.c — a launch run one work-item at a time and read between instructions: the narrow
 * interface (inspect/ex_inspect.h) through which the debugger (debug/) sees the executor.
 *
 * Owns: the runner of a debug run (ex_sched.c's ex_runner at warp width 1, so a warp is one
 * work-item and its index the local linear id), the state of the debugger's hook client
 * (ex_pause.c, which asks the debugger's ex_insp_pause_fn before every instruction of such a run;
 * the launch points at it, so the run is a debug run from its start), and the read-only views of
 * warps, frames, registers and allocations. Memory reads translate pointers like ex_mem but never
 * record a fault.
 *
 * Nothing in interp/ calls this file: spvi_debug_new (debug/dbg_api.c) starts here.
 */
#include <stdlib.h>
#include <string.h>

#include "ex_api.h"
#include "ex_internal.h"
#include "ex_pause.h"
#include "ex_svm.h"
#include "inspect/ex_inspect.h"

/* The public address spaces are the executor's (an allocation's space is passed on as it is). */
_Static_assert(EX_AS_PRIVATE == (int)SPVI_AS_PRIVATE && EX_AS_GLOBAL == (int)SPVI_AS_GLOBAL &&
                 EX_AS_CONSTANT == (int)SPVI_AS_CONSTANT && EX_AS_LOCAL == (int)SPVI_AS_LOCAL,
               "address spaces");
_Static_assert((int)EX_SYNC_RELEASED == (int)EX_INSP_RELEASED && (int)EX_SYNC_DONE == (int)EX_INSP_GROUP_DONE &&
                 (int)EX_SYNC_FAULT == (int)EX_INSP_FAULT,
               "sync results");

struct ex_insp {
  ex_launch *l; /* the session's launch (its `debug` points at `pause`) */
  ex_runner *run;
  ex_ctx *cx;
  ex_warp *warps;
  unsigned nw; /* warps (work-items) of the current group */
  ex_insp_range range;
  ex_pause pause;       /* the pause client's state (its work-item being asked about) */
  size_t reports_shown; /* reports (ex_reports_found) ex_insp_next_report returned */
};

static void fill_range(ex_insp *x, const ex_launch *l) {
  ex_insp_range *r = &x->range;
  r->kernel = l->kernel;
  r->entry_fn = l->entry->index;
  r->dims = l->dims;
  memcpy(r->global, l->global, sizeof r->global);
  memcpy(r->local, l->local, sizeof r->local);
  memcpy(r->offset, l->offset, sizeof r->offset);
  memcpy(r->ngroups, x->cx->ngroups, sizeof r->ngroups);
  r->group_first = l->group_begin;
  r->group_end = l->group_end ? l->group_end : ex_group_count(l);
}

ex_insp *ex_insp_new(spvi_launch *sl, const spvi_run_options *opts, ex_insp_pause_fn pause, void *user,
                     spvi_error *err) {
  ex_launch *l = ex_api_debug_launch(sl, opts, err);
  if (!l) return NULL;
  ex_insp *x = calloc(1, sizeof *x);
  if (!x) {
    ex_set_err(err, SPVI_E_NOMEM, "out of memory starting the debugger");
    return NULL;
  }
  x->l = l;
  x->pause = (ex_pause){pause, user, -1, 0};
  l->debug = &x->pause; /* before the runner resolves the hook clients: ex_pause_hooks takes part */
  spvi_status st = SPVI_OK;
  char msg[1024] = "";
  x->run = ex_runner_new(l, 1, &st, msg, sizeof msg);
  if (!x->run) {
    ex_set_err(err, st, "%s", msg[0] ? msg : "cannot start the debugger");
    l->debug = NULL;
    free(x);
    return NULL;
  }
  x->cx = ex_runner_ctx(x->run);
  x->warps = ex_runner_warps(x->run);
  fill_range(x, l);
  return x;
}

void ex_insp_free(ex_insp *x) {
  if (!x) return;
  /* the reports found, as spvi_run leaves them in the launch (while the allocations exist) */
  ex_reports_finish(x->cx->reports, x->cx);
  ex_runner_free(x->run);
  x->l->debug = NULL; /* later runs of the launch are plain runs */
  free(x);
}

const ld_module *ex_insp_module(const ex_insp *x) { return x->cx->prog->ld; }
const ex_insp_range *ex_insp_range_of(const ex_insp *x) { return &x->range; }
void ex_insp_group_size(const ex_insp *x, const uint64_t g[3], uint64_t size[3]) { ex_group_size(x->cx->l, g, size); }

/* ---- running ------------------------------------------------------------------------------- */

unsigned ex_insp_start_group(ex_insp *x, uint64_t linear) {
  x->nw = ex_runner_start_group(x->run, linear);
  return x->nw;
}

void ex_insp_run(ex_insp *x, unsigned item) {
  ex_warp *w = &x->warps[item];
  w->state = EX_W_RUN; /* a paused warp resumes at its top frame's ip */
  ex_runner_run(x->run, w);
}

int ex_insp_sync(ex_insp *x) { return ex_runner_sync(x->run, x->nw); }
void ex_insp_end_group(ex_insp *x) { ex_runner_end_group(x->run); }

bool ex_insp_fault(const ex_insp *x, spvi_fault *f, int *item) {
  const ex_ctx *cx = x->cx;
  if (!cx->faulted) return false;
  if (f) ex_runner_report(x->run, f);
  if (item) *item = cx->fwarp ? (int)(cx->fwarp - x->warps) : -1;
  return true;
}

bool ex_insp_report_pending(const ex_insp *x) { return ex_reports_found(x->cx->reports) > x->reports_shown; }

bool ex_insp_next_report(ex_insp *x, spvi_report *r) {
  if (!ex_insp_report_pending(x)) return false;
  ex_reports_build_found(x->cx->reports, x->cx, x->reports_shown++, r);
  return true;
}

/* ---- work-items ------------------------------------------------------------------------------ */

void ex_insp_item_get(const ex_insp *x, unsigned item, ex_insp_item *out) {
  const ex_warp *w = &x->warps[item];
  memset(out, 0, sizeof *out);
  switch (w->state) {
  case EX_W_DONE: out->state = EX_INSP_DONE; return;
  case EX_W_BARRIER:
    out->state = EX_INSP_WAITING;
    out->waits_at = w->barrier_at ? ex_sync_name(w->barrier_at->op) : NULL;
    out->collective = w->barrier_at && ex_is_collective(w->barrier_at->op);
    break;
  case EX_W_PAUSED: out->state = EX_INSP_PAUSED; break;
  default: out->state = w->depth == 1 && w->stack[0].cur < 0 ? EX_INSP_NOT_STARTED : EX_INSP_READY; break;
  }
  out->depth = w->depth;
}

void ex_insp_item_ids(const ex_insp *x, unsigned item, uint64_t gid[3], uint64_t lid[3]) {
  ex_lane_ids(x->cx, &x->warps[item], 0, lid);
  ex_lane_global_id(x->cx, &x->warps[item], 0, gid);
}

void ex_insp_group(const ex_insp *x, uint64_t id[3], uint64_t size[3]) {
  memcpy(id, x->cx->group, sizeof x->cx->group);
  memcpy(size, x->cx->group_size, sizeof x->cx->group_size);
}

bool ex_insp_frame(const ex_insp *x, unsigned item, unsigned k, uint32_t *fn, uint32_t *idx) {
  const ex_warp *w = &x->warps[item];
  const ex_ctx *cx = x->cx;
  if (w->state == EX_W_DONE || k >= w->depth) return false;
  const ex_frame *f = &w->stack[w->depth - 1 - k];
  uint32_t i;
  if (k > 0) i = f->ip - 1; /* a caller: at its call */
  else if (x->pause.live_item == (int)item) i = x->pause.live_idx;
  else if (cx->faulted && cx->fwarp == w && cx->finsn && cx->ffn == f->fn) i = (uint32_t)(cx->finsn - f->fn->code);
  else if (w->state == EX_W_BARRIER && w->barrier_at) i = (uint32_t)(w->barrier_at - f->fn->code);
  else if (f->cur < 0) i = f->fn->blocks[0].first; /* not started: the entry block */
  else i = f->ip;
  if (i >= f->fn->ncode) return false;
  *fn = f->fn->index;
  *idx = i;
  return true;
}

const uint8_t *ex_insp_reg(const ex_insp *x, unsigned item, uint32_t id) {
  const ex_program *p = x->cx->prog;
  if (id >= p->ld->bound || p->id_reg[id] == LD_NONE) return NULL;
  return x->warps[item].regs + (size_t)p->id_reg[id] * x->cx->W; /* lane 0 of a warp of one */
}

/* ---- prepared code --------------------------------------------------------------------------- */

uint32_t ex_insp_code_count(const ex_insp *x, uint32_t fn) {
  const ex_program *p = x->cx->prog;
  return fn < p->nfuncs ? p->funcs[fn].ncode : 0;
}

uint32_t ex_insp_code_src(const ex_insp *x, uint32_t fn, uint32_t idx) { return x->cx->prog->funcs[fn].code[idx].src; }

void ex_insp_block_code(const ex_insp *x, uint32_t fn, uint32_t b, uint32_t *first, uint32_t *count) {
  const ex_func *f = &x->cx->prog->funcs[fn];
  *first = b < f->nblocks ? f->blocks[b].first : 0;
  *count = b < f->nblocks ? f->blocks[b].count : 0;
}

/* ---- memory ----------------------------------------------------------------------------------- */

bool ex_insp_alloc_get(const ex_insp *x, uint32_t alloc, ex_insp_alloc *out) {
  const ex_ctx *cx = x->cx;
  if (alloc == 0 || alloc >= cx->nallocs) return false;
  const ex_alloc *a = &cx->allocs[alloc];
  out->space = (spvi_addr_space)a->space;
  out->size = a->size;
  out->arg_index = a->arg_index;
  out->var_id = a->var_id;
  return true;
}

bool ex_insp_ptr_alloc(const ex_insp *x, uint64_t p, uint32_t *alloc, int64_t *off) {
  const ex_ctx *cx = x->cx;
  uint64_t id = (p & cx->ptr_mask) >> cx->shift;
  if (p == 0 || id == 0 || id >= cx->nallocs) return false;
  *alloc = (uint32_t)id;
  *off = (int64_t)((p & cx->off_mask) - cx->bias);
  return true;
}

uint64_t ex_insp_alloc_ptr(const ex_insp *x, uint32_t alloc, uint64_t off) { return ex_ptr_of(x->cx, alloc) + off; }

/* The same translation as ex_mem, without recording a fault. */
uint8_t *ex_insp_mem(ex_insp *x, unsigned item, uint64_t p, uint64_t n, bool write) {
  ex_ctx *cx = x->cx;
  uint32_t id;
  int64_t off;
  if (!ex_insp_ptr_alloc(x, p, &id, &off)) {
    const ex_svm_block *b = cx->svm && p ? ex_svm_lookup(cx->svm, p) : NULL;
    return b && n <= b->base + b->size - p ? (uint8_t *)(uintptr_t)p : NULL; /* SVM memory: its own address */
  }
  const ex_alloc *a = &cx->allocs[id];
  if (off < 0 || (uint64_t)off > a->size || n > a->size - (uint64_t)off || (write && a->read_only)) return NULL;
  if (write && cx->written && cx->written[id]) memset(cx->written[id] + off, 1, n);
  switch (a->space) {
  case EX_AS_PRIVATE: return x->warps[item].priv + a->offset + (uint64_t)off; /* lane 0 of a warp of one */
  case EX_AS_LOCAL: return cx->local + a->offset + (uint64_t)off;
  default: return a->base + off;
  }
}
