/*
 * ex_lanes.c — starting work-items on a warp's lanes: a new warp at the start of a work-group, and
 * lane recycling (a lane whose work-item returned takes the group's next work-item, so a warp stays
 * full while its lanes finish at different times; the executor asks for it, the scheduler sets the
 * queue of work-items not started yet).
 */
#include <string.h>

#include "ex_hooks.h"
#include "ex_internal.h"

static void write_vec(uint8_t *dst, uint32_t elem_bytes, uint32_t ncomp, const uint64_t v[3]) {
  for (uint32_t i = 0; i < ncomp && i < 3; i++) {
    if (elem_bytes == 8) memcpy(dst + 8 * i, &v[i], 8);
    else {
      uint32_t x = (uint32_t)v[i];
      memcpy(dst + 4 * i, &x, 4);
    }
  }
}

/* Fill a lane's built-ins, initialised private module variables (ex_globals.c) and by-value
 * argument copies (its private arena is zeroed). Built-ins
 * only ever loaded whole are computed by EX_BUILTIN instead (ex.h, ex_builtin_var), except for
 * a hook client that reads them from memory (EX_HK_BUILTIN_MEM: the debugger). */
static void init_lane(ex_ctx *cx, ex_warp *w, unsigned lane) {
  const ex_program *p = cx->prog;
  const ex_launch *l = cx->l;
  uint8_t *priv = w->priv + (size_t)lane * p->private_size;
  const bool all_builtins = ex_hooks_flags(cx) & EX_HK_BUILTIN_MEM;
  /* first: the image's span may cover built-ins between the variables (zero there) */
  if (l->pstate->priv_init) memcpy(priv + l->pstate->priv_lo, l->pstate->priv_init, l->pstate->priv_len);
  for (uint32_t b = 0; b < p->nbuiltins; b++) {
    const struct ex_builtin_var *bv = &p->builtins[b];
    if (!bv->materialize && !all_builtins) continue;
    uint64_t v[3];
    ex_builtin_value(cx, w, lane, bv->builtin, v);
    write_vec(priv + cx->allocs[bv->alloc].offset, bv->elem_bytes, bv->ncomp, v);
  }
  const ex_func *e = l->entry;
  for (uint32_t i = 0; i < e->nparams; i++) {
    if (!e->param_byval[i] || !l->args[i].bytes) continue;
    const ex_alloc *a = &cx->allocs[e->param_byval[i]];
    memcpy(priv + a->offset, l->args[i].bytes, l->args[i].size < a->size ? l->args[i].size : a->size);
  }
}

/* The step count past which a work-item started at step `start` exceeds the step limit. */
static uint64_t step_limit_from(const ex_ctx *cx, uint64_t start) {
  return start > UINT64_MAX - cx->max_steps ? UINT64_MAX : start + cx->max_steps;
}

/* Lanes 0..n-1 of w start work-items first .. first + n - 1 at the warp's current step: zeroed
 * private memory (built-ins computed in registers, !lane_init, need no bytes in memory), built-ins
 * and by-value copies written where needed. */
static void start_lanes(ex_ctx *cx, ex_warp *w, uint32_t first, unsigned n) {
  w->first_linear = first;
  w->nlanes = n;
  w->all = n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
  w->recycled = false;
  for (unsigned l = 0; l < n; l++) w->lane_start[l] = w->steps;
  w->step_limit = step_limit_from(cx, w->steps);
  w->check_at = ex_step_check_at(w);
  const uint64_t P = cx->prog->private_size, skip = cx->lane_init ? 0 : cx->prog->private_builtins_end;
  if (!skip) memset(w->priv, 0, (size_t)n * P);
  else if (P > skip)
    for (unsigned lane = 0; lane < n; lane++) memset(w->priv + (size_t)lane * P + skip, 0, P - skip);
  if (cx->lane_init)
    for (unsigned lane = 0; lane < n; lane++) init_lane(cx, w, lane);
}

void ex_start_warp(ex_ctx *cx, ex_warp *w, uint32_t first, unsigned nlanes) {
  w->depth = 1;
  w->state = EX_W_RUN;
  w->barrier_at = NULL;
  w->steps = 0;
  w->yield_at = cx->yield_slice ? cx->yield_slice : UINT64_MAX;
  start_lanes(cx, w, first, nlanes);
  ex_frame *f = &w->stack[0];
  f->fn = cx->l->entry;
  f->live = w->all;
  f->cur = -1;
  f->active = 0;
  f->ret_dst = LD_NONE;
  f->pend[0] = (ex_pending){.rpo = f->fn->blocks[0].rpo, .block = 0, .lanes = w->all};
  f->npend = 1;
  f->wait_cost = 0;
  f->go_behind = false;
}

/* --stats: a work-item started in the entry wrapper's callee still counts the wrapper's block. */
static void count_wrapper(ex_ctx *cx, unsigned items) {
  if (cx->recycle_depth == 2) cx->instructions += (uint64_t)cx->l->entry->blocks[0].spv_count * items;
}

uint64_t ex_restart_warp(ex_ctx *cx, ex_warp *w) {
  if (cx->queue_next >= cx->queue_end) return 0;
  const unsigned left = cx->queue_end - cx->queue_next, n = left < cx->W ? left : cx->W;
  start_lanes(cx, w, cx->queue_next, n);
  cx->queue_next += n;
  count_wrapper(cx, n);
  ex_hooks_warp_start(cx, w);
  return w->all;
}

uint64_t ex_recycle_lanes(ex_ctx *cx, ex_warp *w, uint64_t lanes) {
  const uint64_t P = cx->prog->private_size, skip = cx->lane_init ? 0 : cx->prog->private_builtins_end;
  if (cx->queue_next >= cx->queue_end && !w->recycled) return 0; /* nothing left, and no lane_start */
  /* every lane finished at once (code without divergent exits): the next work-items in a row, as
   * if a new warp started (consecutive items keep the built-ins' whole-warp paths) */
  if (lanes == w->all && cx->queue_end - cx->queue_next >= w->nlanes) return ex_restart_warp(cx, w);
  if (!w->recycled) {
    for (unsigned l = 0; l < w->nlanes; l++) w->item[l] = w->first_linear + l;
    w->recycled = true;
  }
  uint64_t started = 0;
  for (uint64_t m = lanes; m; m &= m - 1) {
    const unsigned l = (unsigned)__builtin_ctzll(m);
    if (cx->queue_next >= cx->queue_end) {
      w->lane_start[l] = UINT64_MAX;
      continue;
    } /* done for good */
    w->item[l] = cx->queue_next++;
    if (P > skip) memset(w->priv + (size_t)l * P + skip, 0, P - skip);
    if (cx->lane_init) init_lane(cx, w, l);
    w->lane_start[l] = w->steps;
    started |= (uint64_t)1 << l;
  }
  count_wrapper(cx, (unsigned)__builtin_popcountll(started));
  /* the step limit follows the oldest work-item still running (a finished lane counts as never) */
  w->step_limit = step_limit_from(cx, w->lane_start[ex_oldest_lane(w)]);
  w->check_at = ex_step_check_at(w);
  return started;
}
