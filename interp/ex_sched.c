/*
 * ex_sched.c — runs a launch: builds the allocation table and pointer encoding, creates warps,
 * walks the NDRange work-group by work-group, fills built-in variables, synchronises barriers, and
 * turns a fault into the report users read.
 *
 * Work-groups (OpenCL 2.0 3.2.2 / SPIR-V env 2.9): the NDRange is split into ceil(global/local)
 * groups per dimension; the last group of a dimension is smaller when global is not a multiple of
 * local (non-uniform work-groups). A group's work-items are numbered by local linear id (x fastest)
 * and cut into warps of W lanes. Groups run one after the other in linear order; inside a group
 * each warp runs until it finishes or reaches a barrier, and the barrier releases once every warp is
 * waiting at the same barrier instruction.
 *
 * Determinism: private and local memory start zeroed for every work-item and group, so a kernel
 * that reads memory it never wrote still gets the same bits on every run and host.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include <spirv/unified1/spirv.h>

#include "bi_half.h"
#include "ex_hooks.h"
#include "ex_internal.h"
#include "ex_svm.h"
#include "gen_spv_tables.h"

/* ---- the launch ----------------------------------------------------------------------------- */

typedef struct run {
  ex_ctx cx;
  ex_warp *warps;
  unsigned nwarps;
  bool holds_pstate; /* launch_begin acquired the module's program state */
  uint64_t local_bytes;
  uint32_t *arg_alloc; /* per kernel argument: its allocation id (0: none), */
  uint64_t *arg_off;   /* and where its memory starts in that allocation (setup_allocs) */
} run;

/* Whether kernel parameter `pid` carries FuncParamAttr NoWrite (OpenCL C `const` pointers): the
 * kernel promises not to write through it (SPIR-V 3.21), so its buffer is read-only memory. */
static bool param_nowrite(const ld_module *m, uint32_t pid) {
  for (uint32_t i = 0; i < m->ndecos; i++) {
    const ld_decoration *d = &m->decos[i];
    if (d->target == pid && d->decoration == SpvDecorationFuncParamAttr && d->nargs &&
        d->args[0] == SpvFunctionParameterAttributeNoWrite)
      return true;
  }
  return false;
}

/* The run's view of SVM memory (ex_svm.h): a snapshot of the live allocations, which SVM pointers
 * reach only if their address window's id is not one of the launch's allocation ids. A launch with
 * SVM arguments whose allocation table reaches that far is refused; one without keeps the snapshot
 * for the windows it can still tell apart (an SVM pointer it finds in memory and cannot, faults). */
static bool setup_svm(ex_ctx *cx, char *err, size_t errlen) {
  if (cx->prog->ptr_bytes != 8) return true; /* Physical32: kernels cannot hold SVM addresses */
  ex_svm_snap *s = ex_svm_snapshot();
  cx->svm = s;
  if (!s || cx->nallocs <= s->min_window) return true;
  for (uint32_t i = 0; i < cx->l->nargs; i++) {
    if (!cx->l->args[i].is_svm) continue;
    snprintf(err, errlen,
             "kernel `%s`: SVM arguments need fewer than %llu memory allocations in the launch, it has %u "
             "(the module's %u variables and the kernel's pointer arguments): spvi tells SVM addresses apart from its "
             "own pointers by their top bits (compiling with optimisation leaves fewer variables)",
             cx->prog->ld->entries[cx->l->kernel].name, (unsigned long long)s->min_window, cx->nallocs - 1,
             cx->prog->nstatic);
    return false;
  }
  return true;
}

/* The allocation of an earlier buffer argument that argument i's memory belongs to, or 0. The same
 * memory object bound to two arguments, or two views of one buffer, is one object to the kernel:
 * one device address range (OpPtrEqual, OpPtrDiff, SPIR-V 3.32.8), one shadow for the race checker.
 * Arguments in different address spaces stay apart (a pointer's space is its allocation's). */
static uint32_t shared_alloc(const run *r, uint32_t i, uint8_t space) {
  const ex_arg *args = r->cx.l->args, *x = &args[i];
  if (!x->root) return 0;
  for (uint32_t k = 0; k < i; k++) {
    const uint32_t id = r->arg_alloc[k];
    if (id && args[k].root == x->root && !args[k].is_image && r->cx.allocs[id].space == space) return id;
  }
  return 0;
}

/* Argument x's memory joins allocation a, which grows to span both. */
static void join_alloc(ex_alloc *a, const ex_arg *x, bool read_only) {
  uint8_t *lo = a->base < x->bytes ? a->base : x->bytes;
  const uint64_t end_a = (uint64_t)(a->base - lo) + a->size, end_x = (uint64_t)(x->bytes - lo) + x->size;
  a->base = lo;
  a->size = end_a > end_x ? end_a : end_x;
  a->read_only = a->read_only && read_only;                /* writable through either argument */
  a->locked_atomics = a->locked_atomics || x->mem != NULL; /* memory objects' atomics are locked */
}

static spvi_status setup_allocs(run *r, char *err, size_t errlen) {
  ex_ctx *cx = &r->cx;
  const ex_program *p = cx->prog;
  const ld_module *m = p->ld;
  const ex_launch *l = cx->l;
  const ex_pstate *ps = l->pstate;
  uint32_t n = 1 + p->nstatic + l->nargs;
  cx->allocs = calloc(n, sizeof *cx->allocs);
  r->arg_alloc = calloc(l->nargs + 1, sizeof *r->arg_alloc);
  r->arg_off = calloc(l->nargs + 1, sizeof *r->arg_off);
  if (!cx->allocs || !r->arg_alloc || !r->arg_off) return SPVI_E_NOMEM;
  cx->nallocs = 1 + p->nstatic;
  for (uint32_t i = 1; i <= p->nstatic; i++) {
    ex_alloc *a = &cx->allocs[i];
    *a = p->static_allocs[i];
    /* program-scope variables in global and constant memory live with the module (ex_globals.c) */
    if (a->space == EX_AS_GLOBAL || a->space == EX_AS_CONSTANT) a->base = ps->mem[i];
  }
  r->local_bytes = p->local_static;
  for (uint32_t i = 0; i < l->nargs; i++) {
    const ld_type *pt = ld_type_of(m, m->ids[l->entry->ld->params[i]].type);
    if (l->args[i].is_image) {
      /* an image: global memory holding its pixels, which image instructions alone access */
      ex_alloc *a = &cx->allocs[cx->nallocs++];
      memset(a, 0, sizeof *a);
      a->arg_index = (int)i;
      a->size = l->args[i].size;
      a->space = EX_AS_GLOBAL;
      a->base = l->args[i].bytes;
      a->image = &l->args[i].image;
      a->locked_atomics = l->args[i].mem != NULL;
      r->arg_alloc[i] = cx->nallocs - 1;
      continue;
    }
    if (l->entry->param_byval[i] || !pt || pt->kind != LD_TY_POINTER || l->args[i].is_svm) continue;
    if (pt->storage != SpvStorageClassWorkgroup) {
      const uint8_t space = pt->storage == SpvStorageClassUniformConstant ? EX_AS_CONSTANT : EX_AS_GLOBAL;
      const uint32_t id = shared_alloc(r, i, space);
      if (id) {
        join_alloc(&cx->allocs[id], &l->args[i], space == EX_AS_CONSTANT || param_nowrite(m, l->entry->ld->params[i]));
        r->arg_alloc[i] = id;
        continue;
      }
    }
    r->arg_alloc[i] = cx->nallocs;
    ex_alloc *a = &cx->allocs[cx->nallocs];
    memset(a, 0, sizeof *a);
    a->arg_index = (int)i;
    a->size = l->args[i].size;
    a->locked_atomics = l->args[i].mem != NULL;
    if (pt->storage == SpvStorageClassWorkgroup) {
      a->space = EX_AS_LOCAL;
      r->local_bytes = (r->local_bytes + 127u) & ~(uint64_t)127u; /* generous alignment: any type */
      a->offset = r->local_bytes;
      r->local_bytes += a->size;
    } else {
      a->space = pt->storage == SpvStorageClassUniformConstant ? EX_AS_CONSTANT : EX_AS_GLOBAL;
      a->read_only = a->space == EX_AS_CONSTANT || param_nowrite(m, l->entry->ld->params[i]);
      a->base = l->args[i].bytes;
    }
    cx->nallocs++;
  }
  for (uint32_t i = 0; i < l->nargs; i++) {
    const ex_alloc *a = &cx->allocs[r->arg_alloc[i]];
    if (r->arg_alloc[i] && a->base && l->args[i].bytes) r->arg_off[i] = (uint64_t)(l->args[i].bytes - a->base);
  }
  /* the module's pointer encoding (see ex.h), the same for all its launches */
  cx->shift = ps->shift;
  cx->ptr_mask = ps->ptr_mask;
  cx->off_mask = ps->off_mask;
  cx->bias = ps->bias;
  for (uint32_t i = 1; i < cx->nallocs; i++) {
    if (cx->allocs[i].size >= cx->bias) {
      /* the module's addressing model decides (ex.h "Pointers"): the offset field of its pointers */
      char what[200];
      ex_describe_alloc(cx, i, what, sizeof what);
      snprintf(err, errlen,
               "%s: %s does not fit the module's %u-bit pointers: with %u allocations, each must be smaller than "
               "%llu bytes",
               m->path, what, cx->prog->ptr_bytes * 8, cx->nallocs - 1, (unsigned long long)cx->bias);
      return SPVI_E_USAGE;
    }
  }
  if (!setup_svm(cx, err, errlen)) return SPVI_E_USAGE;
  if (!ex_hooks_launch_begin(cx)) return SPVI_E_NOMEM;
  return SPVI_OK;
}

/* Add the address of allocation `alloc` to the pointer stored at dst. */
static void relocate(const ex_ctx *cx, uint8_t *dst, uint32_t alloc) {
  uint64_t v = 0;
  memcpy(&v, dst, cx->prog->ptr_bytes); /* little-endian host: the low bytes */
  v += ex_ptr_of(cx, alloc);
  memcpy(dst, &v, cx->prog->ptr_bytes);
}

static bool setup_warps(run *r, uint64_t max_group) {
  ex_ctx *cx = &r->cx;
  const ex_program *p = cx->prog;
  const ex_launch *l = cx->l;
  const unsigned W = cx->W;
  r->nwarps = (unsigned)((max_group + W - 1) / W);
  r->warps = calloc(r->nwarps, sizeof *r->warps);
  if (!r->warps) return false;
  /* one lane's constant area with the launch's addresses patched in */
  uint8_t *cinit = malloc(p->const_bytes + 8);
  if (!cinit) return false;
  if (p->const_bytes) memcpy(cinit, p->const_init, p->const_bytes);
  for (uint32_t i = 0; i < p->naddr; i++) relocate(cx, cinit + (p->addr_reg[i] - p->const_base), p->addr_alloc[i]);
  bool ok = true;
  for (unsigned k = 0; k < r->nwarps && ok; k++) {
    ex_warp *w = &r->warps[k];
    w->regs = calloc((size_t)p->reg_bytes * W + 8, 1);
    w->priv = calloc((size_t)p->private_size * W + 8, 1);
    w->stack = calloc(p->max_depth + 1, sizeof *w->stack);
    if (!w->regs || !w->priv || !w->stack) {
      ok = false;
      break;
    }
    uint8_t *R = w->regs;
    for (uint32_t s = 0; s < p->ncslots; s++) {
      uint32_t reg = p->cslots[2 * s], size = p->cslots[2 * s + 1];
      for (unsigned lane = 0; lane < W; lane++)
        memcpy(R + (size_t)reg * W + (size_t)lane * size, cinit + (reg - p->const_base), size);
    }
    /* kernel arguments into the entry function's parameter registers */
    const ex_func *e = l->entry;
    for (uint32_t i = 0; i < e->nparams; i++) {
      uint8_t val[128];
      memset(val, 0, sizeof val);
      uint32_t size = e->param_size[i];
      if (e->param_byval[i]) {
        uint64_t v = ex_ptr_of(cx, e->param_byval[i]);
        memcpy(val, &v, p->ptr_bytes);
      } else if (l->args[i].is_svm) {
        memcpy(val, &l->args[i].svm_ptr, p->ptr_bytes); /* the host address itself (ex_svm.c) */
      } else if (l->args[i].is_local || (l->args[i].bytes && r->arg_alloc[i])) {
        uint64_t v = ex_ptr_of(cx, r->arg_alloc[i]) + r->arg_off[i];
        memcpy(val, &v, p->ptr_bytes);
      } else if (l->args[i].bytes) {
        if (size > sizeof val) {
          ok = false;
          break;
        }
        memcpy(val, l->args[i].bytes, l->args[i].size < size ? l->args[i].size : size);
      }
      for (unsigned lane = 0; lane < W; lane++)
        memcpy(R + (size_t)e->param_reg[i] * W + (size_t)lane * size, val, size);
    }
  }
  free(cinit);
  return ok;
}

static void group_fault(ex_ctx *cx, ex_warp *w, const char *detail) {
  cx->cur_ip = w->barrier_at;
  cx->cur_fn = w->stack[w->depth - 1].fn;
  ex_fault(cx, SPVI_FAULT_BARRIER_DIVERGENCE, w, 0, 0, 0, 0, detail);
}

/* printf sink: each work-item's text is kept apart and emitted in local linear id order when its
 * work-group ends, so the output is the same at every warp width. */
static void printf_write(void *ctx, unsigned lane, const char *text, size_t len) {
  ex_ctx *cx = ctx;
  if (!cx->l->on_printf || !cx->printf_buf) return;
  uint64_t item = ex_lane_item(cx->cur_warp, lane);
  if (item >= cx->printf_items) return;
  struct ex_text *t = &cx->printf_buf[item];
  if (t->len + len + 1 > t->cap) {
    size_t cap = (t->len + len + 1) * 2;
    char *n = realloc(t->text, cap);
    if (!n) abort(); /* out of memory for printf output */
    t->text = n;
    t->cap = cap;
  }
  memcpy(t->text + t->len, text, len);
  t->len += len;
}

/* printf found its format or arguments invalid (OpenCL C 6.15.14.2 leaves them undefined; the call
 * prints nothing and returns -1): a report at the call, which names its source line. */
static void printf_invalid(void *ctx, unsigned lane, const char *why) {
  ex_ctx *cx = ctx;
  const ex_check_event e = {.kind = SPVI_REPORT_PRINTF_FORMAT,
                            .at = ex_site_of(cx, cx->cur_warp, lane, cx->cur_fn, cx->cur_ip),
                            .detail = why};
  ex_check_report(cx, &e);
}

static void printf_flush(ex_ctx *cx) {
  if (!cx->l->on_printf || !cx->printf_buf) return;
  for (uint64_t i = 0; i < cx->printf_items; i++) {
    struct ex_text *t = &cx->printf_buf[i];
    if (t->len) cx->l->on_printf(cx->l->printf_user, t->text, t->len);
    t->len = 0;
  }
}

/* Zero the group's local memory and start its warps; returns their number. With npack > 1, the
 * current group and the npack - 1 groups after it (all of its size) run packed instead (see
 * "Packed work-groups" below): their work-items form one queue, lanes of a warp run work-items of
 * different groups. */
static unsigned start_group(run *r, uint64_t npack) {
  ex_ctx *cx = &r->cx;
  const unsigned W = cx->W;
  const uint64_t group_items = cx->group_size[0] * cx->group_size[1] * cx->group_size[2];
  const uint64_t items = group_items * npack;
  unsigned nw = (unsigned)((items + W - 1) / W);
  if (r->local_bytes) memset(cx->local, 0, r->local_bytes);
  ex_async_reset(cx);
  if (cx->prog->nnamed_barriers) memset(cx->nbar, 0, cx->prog->nnamed_barriers * sizeof *cx->nbar);
  /* Lane recycling (see ex_exec.c) needs work-items that never wait for each other, and is off
   * for the hook clients that say so (the debugger, tracing: EX_HK_NO_RECYCLE) and at warp width
   * 1. One warp then starts with the group's first work-items and its lanes take the others as
   * they finish; with checks, whose shadow state follows lanes, only a warp whose lanes all
   * finished takes the next ones, in a row. */
  cx->recycle = W > 1 && nw > 1 && !cx->l->entry->group_sync && !(ex_hooks_flags(cx) & EX_HK_NO_RECYCLE);
  cx->recycle_lanes = cx->recycle && !(ex_hooks_flags(cx) & EX_HK_WARPWISE);
  if (cx->recycle) {
    /* under llvm-spirv's entry wrapper the kernel's own function is the one recycled: the wrapper
     * frame's lanes stay at the call, whose arguments are the same for every work-item */
    cx->recycle_depth = cx->l->entry->wrapper ? 2 : 1;
    nw = 1;
    cx->queue_next = W;
    cx->queue_end = (uint32_t)items;
  }
  /* Sub-groups make independent forward progress (cl_khr_subgroups; OpenCL 3.0 API 4.2): a
   * sub-group spinning on an atomic another one sets must not keep it from running. A warp holds
   * whole sub-groups, one when the module has atomics (ex_api.c), and yields every EX_YIELD_SLICE
   * steps when the group has other work-items: other warps, or a recycled group's queue (run_group_
   * warps then starts another warp on it). Counted in steps, so the interleaving is the same on
   * every run; 4096 steps cost one return to the scheduler per about 10^5 lane-instructions. */
  cx->yield_slice = nw > 1 || cx->recycle ? EX_YIELD_SLICE : 0;
  for (unsigned k = 0; k < nw; k++) {
    uint64_t first = (uint64_t)k * W;
    r->warps[k].pack_n = npack > 1 ? (uint32_t)group_items : 0;
    r->warps[k].pack_g0 = ex_lane_group_linear(cx, NULL, 0);
    ex_start_warp(cx, &r->warps[k], (uint32_t)first, (unsigned)(items - first < W ? items - first : W));
  }
  ex_hooks_group_begin(cx, r->warps, nw);
  return nw;
}

/* Every warp of the group has stopped: finished, or waiting at a barrier or collective. Either the
 * group is done, or all wait at the same instruction, which is then released (a collective's
 * results computed first), or that is barrier divergence. */
static int group_sync(run *r, unsigned nw) {
  ex_ctx *cx = &r->cx;
  unsigned done = 0, waiting = 0;
  const ex_insn *at = NULL;
  ex_warp *first_wait = NULL;
  for (unsigned k = 0; k < nw; k++) {
    ex_warp *w = &r->warps[k];
    if (w->state == EX_W_BARRIER && w->barrier_at->op == EX_NBAR_WAIT) {
      /* nothing can run and this phase of the named barrier is still short of sub-groups */
      const ex_named_barrier *nb = &cx->nbar[w->nbar - 1];
      char msg[200];
      snprintf(msg, sizeof msg,
               "this sub-group waits at a named barrier for %u sub-groups, but only %u arrived and "
               "the others finished or wait elsewhere",
               nb->count, nb->waiting);
      group_fault(cx, w, msg);
      return EX_SYNC_FAULT;
    }
  }
  for (unsigned k = 0; k < nw; k++) {
    ex_warp *w = &r->warps[k];
    if (w->state == EX_W_DONE) done++;
    else if (w->state == EX_W_BARRIER) {
      waiting++;
      if (!at) {
        at = w->barrier_at;
        first_wait = w;
      } else if (w->barrier_at != at) {
        group_fault(cx, w, "work-items of one work-group wait at different barriers or collectives");
        return EX_SYNC_FAULT;
      }
    }
  }
  if (done == nw) return ex_async_group_end(cx, r->warps) ? EX_SYNC_DONE : EX_SYNC_FAULT;
  if (done) {
    char detail[160];
    snprintf(detail, sizeof detail,
             "some work-items of the work-group finished the kernel while others wait at this %s",
             ex_sync_name(at->op));
    group_fault(cx, first_wait, detail);
    return EX_SYNC_FAULT;
  }
  ex_hooks_group_barrier(cx, first_wait->stack[first_wait->depth - 1].fn, at);
  if (at->op == EX_GROUP) ex_group_collective(cx, r->warps, nw, at);
  else if ((at->op == EX_ASYNC_COPY || at->op == EX_WAIT_EVENTS) && !ex_async_collective(cx, r->warps, nw, at))
    return EX_SYNC_FAULT;
  for (unsigned k = 0; k < nw; k++) r->warps[k].state = EX_W_RUN;
  return EX_SYNC_RELEASED;
}

/* Warp w (one sub-group) arrived at a named barrier (cl_khr_subgroup_named_barrier): once the
 * barrier's sub-group count has arrived, every sub-group waiting at it is released and its wait
 * count starts again from 0 (the next phase). */
static bool named_barrier_arrive(run *r, unsigned nw, ex_warp *w) {
  ex_named_barrier *nb = &r->cx.nbar[w->nbar - 1];
  if (++nb->waiting < nb->count) return false;
  nb->waiting = 0;
  const uint32_t h = w->nbar;
  ex_hooks_named_barrier(&r->cx, r->warps, nw, h);
  for (unsigned k = 0; k < nw; k++) {
    ex_warp *x = &r->warps[k];
    if (x->state == EX_W_BARRIER && x->barrier_at->op == EX_NBAR_WAIT && x->nbar == h) x->state = EX_W_RUN;
  }
  return true;
}

/* Run warp w until it stops (finished, waiting, faulted or paused) and tell the hook clients. */
static void run_warp(ex_ctx *cx, ex_warp *w) {
  ex_exec_warp(cx, w);
  ex_hooks_warp_stop(cx, w);
}

/* A recycled group's warp yielded: its lanes may all wait for work-items still in the queue, so
 * another warp starts on the queue's next ones (up to the group's warp count). Returns the group's
 * warp count. */
static unsigned queue_warp(run *r, unsigned nw) {
  ex_ctx *cx = &r->cx;
  if (!cx->recycle || nw >= r->nwarps || cx->queue_next >= cx->queue_end) return nw;
  ex_warp *w = &r->warps[nw];
  const uint32_t left = cx->queue_end - cx->queue_next;
  w->pack_n = r->warps[0].pack_n;
  w->pack_g0 = r->warps[0].pack_g0;
  ex_start_warp(cx, w, cx->queue_next, left < cx->W ? left : cx->W);
  cx->queue_next += w->nlanes;
  ex_hooks_warp_start(cx, w);
  return nw + 1;
}

/* Run the group's warps until every one finished or waits, and release its barriers. A warp that
 * comes back still runnable yielded (sub-group forward progress, start_group): the others run
 * before it goes on. */
static void run_group_warps(run *r, unsigned nw) {
  ex_ctx *cx = &r->cx;
  for (;;) {
    bool again = true;
    while (again && !cx->faulted) { /* until every warp finished or waits */
      again = false;
      for (unsigned k = 0; k < nw && !cx->faulted; k++)
        if (r->warps[k].state == EX_W_RUN) {
          ex_warp *w = &r->warps[k];
          run_warp(cx, w);
          if (w->state == EX_W_RUN) {
            again = true;
            nw = queue_warp(r, nw);
          } else if (w->state == EX_W_BARRIER && w->barrier_at->op == EX_NBAR_WAIT && named_barrier_arrive(r, nw, w))
            again = true;
        }
    }
    if (cx->faulted || group_sync(r, nw) != EX_SYNC_RELEASED) return;
  }
}

/* Run one work-group to completion (npack > 1: that many packed groups, start_group). */
static void run_group(run *r, uint64_t npack) {
  run_group_warps(r, start_group(r, npack));
  if (!r->cx.faulted) ex_hooks_group_end(&r->cx);
  printf_flush(&r->cx);
}

/* ---- packed work-groups -------------------------------------------------------------------
 * A work-group smaller than a warp leaves most of its lanes idle, and its set-up and every
 * dispatched instruction serve one or a few work-items (an NDRange of one-item groups ran 7x
 * slower per work-item than one of 64-item groups). When the work-items of a group never wait for
 * each other and the groups share nothing but global memory, the order in which work-items run is
 * free (OpenCL 3.0 API 3.2.2: work-items of different groups are unordered, and without
 * synchronisation so are those of one group), so consecutive groups of one size run as one queue
 * of work-items on one warp with lane recycling: queue index q is local linear id q % n of group
 * g0 + q / n (ex_warp.pack_n). Conditions (pack_groups): no barrier, collective, sub-group operation
 * or async copy (entry->group_sync), no local memory (a group's arena is the group's alone), no
 * collected printf (its buffers are per local id), and no hook client besides the always-on
 * reports (checkers, tracing and the debugger name work-items by group and lane). Built-ins, fault
 * reports and reports ask the lane's group (ex_lane_group). Work is taken in batches of
 * pack_groups() groups, so a fault reports the first fault of the lowest faulting batch, the same
 * for every thread count. */
static uint64_t pack_groups(const run *r) {
  const ex_ctx *cx = &r->cx;
  const ex_launch *l = cx->l;
  const uint64_t n = l->local[0] * l->local[1] * l->local[2];
  if (cx->W == 1 || n >= cx->W || l->entry->group_sync || r->local_bytes || cx->prog->nnamed_barriers ||
      (l->on_printf && cx->prog->uses_printf) || (ex_hooks_flags(cx) & ~EX_HK_ON) || cx->checks)
    return 1;
  return (8 * cx->W + n - 1) / n; /* eight warps' worth of work-items per batch */
}

/* ---- work distribution --------------------------------------------------------------------
 * Work-groups are independent between barriers-free synchronisation points (OpenCL has no
 * inter-group synchronisation besides atomics), so several threads take groups from a shared
 * counter in increasing linear order. A fault at group g stops new groups above g from starting;
 * groups below g still finish, and the fault of the smallest group is reported — the same one a
 * single thread would report first. */
typedef struct job {
  ex_launch *l;
  uint64_t ngroups[3];
  uint64_t begin, end;   /* linear group ids to run: [begin, end) */
  uint64_t first;        /* the first of them the shard runs (begin when not sharded) */
  uint64_t stride;       /* the shard's groups are first + k * stride (1 when not sharded) */
  uint64_t slots;        /* how many there are: k < slots */
  uint64_t batch;        /* groups taken at once: 1, or pack_groups() to run them packed */
  _Atomic uint64_t next; /* next slot k to take */
  _Atomic uint64_t stop; /* no group >= stop is started (a fault happened there) */
} job;

typedef struct worker {
  run r;
  job *j;
  uint64_t fault_group; /* linear id of the faulting group, UINT64_MAX when none */
  pthread_t thread;
  bool started;
} worker;

/* Make work-group `lin` the context's current group (the last one of a dimension may be smaller). */
static void set_group(ex_ctx *cx, const job *j, uint64_t lin) {
  ex_unlinear(lin, j->ngroups, cx->group);
  ex_group_size(j->l, cx->group, cx->group_size);
}

/* Run groups [lin, end) packed: each run of consecutive groups of one size (the last group of a
 * dimension may be smaller) as one queue. */
static void run_packed(run *r, const job *j, uint64_t lin, uint64_t end) {
  ex_ctx *cx = &r->cx;
  while (lin < end && !cx->faulted) {
    set_group(cx, j, lin);
    uint64_t next = lin + 1, g[3], size[3];
    for (; next < end; next++) {
      ex_unlinear(next, j->ngroups, g);
      ex_group_size(j->l, g, size);
      if (memcmp(size, cx->group_size, sizeof size)) break;
    }
    run_group(r, next - lin);
    lin = next;
  }
}

static void *worker_main(void *arg) {
  worker *wk = arg;
  job *j = wk->j;
  ex_ctx *cx = &wk->r.cx;
  for (;;) {
    const uint64_t k = atomic_fetch_add(&j->next, j->batch);
    if (k >= j->slots) break;
    const uint64_t lin = j->first + k * j->stride; /* < end: no wrap */
    if (lin >= atomic_load(&j->stop)) break;
    if (j->batch > 1) run_packed(&wk->r, j, lin, j->end - lin < j->batch ? j->end : lin + j->batch);
    else {
      set_group(cx, j, lin);
      run_group(&wk->r, 1);
    }
    /* progress (spvi_launch_progress): one relaxed increment per group or packed batch */
    atomic_fetch_add_explicit(&j->l->groups_done, j->batch > 1 && j->slots - k < j->batch ? j->slots - k : j->batch,
                              memory_order_relaxed);
    if (cx->faulted) {
      wk->fault_group = lin;
      uint64_t cur = atomic_load(&j->stop);
      while (lin < cur && !atomic_compare_exchange_weak(&j->stop, &cur, lin)) {}
      break;
    }
  }
  return NULL;
}

/* Per-thread state: warps, local arena, printf buffers, scratch; shares `base`'s allocations. */
static bool worker_init(worker *wk, const run *base, uint64_t max_group) {
  wk->r = *base;
  ex_ctx *cx = &wk->r.cx;
  cx->bimem.ctx = cx;
  cx->biout.ctx = cx;
  wk->r.warps = NULL;
  wk->r.nwarps = 0;
  cx->local = NULL;
  cx->printf_buf = NULL;
  cx->ftz_scratch = NULL;
  cx->kg_scratch = NULL;
  cx->kg_cap = 0;
  memset(&cx->async, 0, sizeof cx->async);
  cx->nbar = NULL;
  wk->fault_group = UINT64_MAX;
  if (!setup_warps(&wk->r, max_group)) return false;
  cx->local = calloc(wk->r.local_bytes + 8, 1);
  if (!cx->local) return false;
  if (!ex_hooks_worker_init(cx, wk->r.local_bytes, wk->r.warps, wk->r.nwarps)) return false;
  if (cx->l->on_printf && cx->prog->uses_printf) {
    cx->printf_items = max_group;
    cx->printf_buf = calloc(max_group, sizeof *cx->printf_buf);
    if (!cx->printf_buf) return false;
  }
  if (cx->ftz) {
    cx->ftz_scratch = malloc((size_t)6 * EX_MAX_WARP * EX_FTZ_OPERAND_BYTES);
    if (!cx->ftz_scratch) return false;
  }
  cx->nbar = calloc(cx->prog->nnamed_barriers + 1, sizeof *cx->nbar);
  if (!cx->nbar) return false;
  return true;
}

static void worker_free(worker *wk) {
  run *r = &wk->r;
  ex_hooks_worker_free(&r->cx);
  for (unsigned k = 0; k < r->nwarps; k++) {
    free(r->warps[k].regs);
    free(r->warps[k].priv);
    free(r->warps[k].stack);
  }
  free(r->warps);
  free(r->cx.local);
  for (uint64_t i = 0; r->cx.printf_buf && i < r->cx.printf_items; i++) free(r->cx.printf_buf[i].text);
  free(r->cx.printf_buf);
  free(r->cx.ftz_scratch);
  free(r->cx.kg_scratch);
  ex_async_free(&r->cx);
  free(r->cx.nbar);
}

uint64_t ex_group_count(const ex_launch *l) {
  uint64_t n = 1;
  for (int d = 0; d < 3; d++) n *= ex_round_groups(l, d); /* no wrap: spvi_set_ndrange checked */
  return n;
}

/* bi_mem.ptr_value: printf's %p shows the integer a kernel's (intptr_t)p gives (ex.h "Pointers"). */
static uint64_t bi_ptr_value(void *ctx, uint64_t ptr) { return ex_ptr_to_int(ctx, ptr); }

/* Whether a started lane has anything for init_lane (ex_lanes.c) to write: the same for the whole
 * launch, so a work-group's set-up does not look again (one-item groups). */
static void set_lane_init(ex_ctx *cx) {
  const ex_program *p = cx->prog;
  const bool all_builtins = ex_hooks_flags(cx) & EX_HK_BUILTIN_MEM;
  cx->lane_init = false;
  for (uint32_t b = 0; b < p->nbuiltins; b++) cx->lane_init |= p->builtins[b].materialize || all_builtins;
  for (uint32_t i = 0; i < cx->l->entry->nparams; i++) cx->lane_init |= cx->l->entry->param_byval[i] != 0;
  cx->lane_init |= cx->l->pstate->priv_init != NULL;
}

/* The groups of [begin, end) the run takes: all of them, or with shards (spvi run --shard K/N,
 * docs/scaling.md) those whose linear id g has g % N == K. Interleaving rather than cutting the
 * range in N blocks spreads groups of uneven cost (a triangle of work, an image's busy corner)
 * evenly over the shards. A shard may have no group (N above the group count). */
static void shard_slots(job *j, const ex_launch *l) {
  j->first = j->begin;
  j->stride = 1;
  j->slots = j->end - j->begin;
  if (!l->shard_count) return;
  const uint64_t n = l->shard_count, r = j->begin % n;
  const uint64_t skip = l->shard_index >= r ? l->shard_index - r : n - r + l->shard_index; /* < n: no wrap */
  j->stride = n;
  j->first = j->end - j->begin > skip ? j->begin + skip : j->end;
  j->slots = j->first < j->end ? (j->end - 1 - j->first) / n + 1 : 0;
}

/* The launch-wide part of a run: context, group range, allocations, written-byte masks. */
static spvi_status launch_begin(run *base, job *j, ex_launch *l, unsigned warp_width, char *err, size_t errlen) {
  memset(base, 0, sizeof *base);
  ex_ctx *cx = &base->cx;
  cx->prog = l->prog;
  cx->l = l;
  cx->W = warp_width;
  cx->bimem.access = ex_bi_access;
  cx->bimem.ptr_value = bi_ptr_value;
  cx->biout.write = printf_write;
  cx->biout.invalid = printf_invalid;
  cx->ftz = l->ftz;
  cx->sg_size = l->subgroup_size ? l->subgroup_size : SPVI_DEFAULT_SUBGROUP_SIZE;
  const uint64_t enq = l->local[0] * l->local[1] * l->local[2];
  cx->sg_max = (unsigned)(enq < cx->sg_size ? enq : cx->sg_size);
  cx->checks = l->checks;
  cx->max_steps = l->max_steps;
  cx->keep_going = l->keep_going;
  ex_reports_clear(l->reports);
  cx->reports = l->reports;
  memset(j, 0, sizeof *j);
  j->l = l;
  for (int d = 0; d < 3; d++) cx->ngroups[d] = j->ngroups[d] = ex_round_groups(l, d);
  uint64_t total = j->ngroups[0] * j->ngroups[1] * j->ngroups[2];
  j->begin = l->group_begin;
  j->end = l->group_end ? l->group_end : total;
  if (j->end > total || j->begin >= j->end) {
    snprintf(err, errlen, "work-group range %llu:%llu is outside the launch's %llu work-groups (or empty)",
             (unsigned long long)l->group_begin, (unsigned long long)l->group_end, (unsigned long long)total);
    return SPVI_E_USAGE;
  }
  shard_slots(j, l);
  atomic_store_explicit(&l->groups_done, 0, memory_order_relaxed);
  atomic_store_explicit(&l->groups_total, j->slots, memory_order_relaxed);
  j->batch = 1;
  atomic_init(&j->next, 0);
  atomic_init(&j->stop, UINT64_MAX);
  if (!ex_pstate_acquire(l->pstate)) {
    snprintf(err, errlen,
             "%s: another launch of this module is running (or a debug session of one is open); launches of a "
             "module with program-scope variables in global memory run one at a time",
             l->prog->ld->path);
    return SPVI_E_USAGE;
  }
  base->holds_pstate = true;
  spvi_status st = setup_allocs(base, err, errlen);
  if (st == SPVI_OK) set_lane_init(cx);
  /* written-byte masks of the buffer arguments when only part of the NDRange runs */
  free(l->written_all);
  l->written_all = NULL;
  if (st == SPVI_OK && (j->begin != 0 || j->end != total || l->shard_count)) {
    cx->written = calloc(cx->nallocs, sizeof *cx->written);
    if (!cx->written) st = SPVI_E_NOMEM;
    for (uint32_t i = 1; st == SPVI_OK && i < cx->nallocs; i++) {
      ex_alloc *a = &cx->allocs[i];
      if (a->arg_index < 0 || a->space == EX_AS_LOCAL) continue;
      l->args[a->arg_index].written = calloc(a->size + 1, 1);
      if (!l->args[a->arg_index].written) {
        st = SPVI_E_NOMEM;
        break;
      }
      cx->written[i] = l->args[a->arg_index].written;
    }
    l->written_all = (uint8_t *)cx->written; /* freed with the launch's masks */
  }
  return st;
}

/* After a run over part of the NDRange: each argument's written-byte mask, from its allocation's
 * (setup_allocs gave the first argument of an allocation the mask of all of it). */
static void split_written(run *base) {
  const ex_ctx *cx = &base->cx;
  ex_arg *args = cx->l->args;
  if (!cx->written || !base->arg_alloc) return;
  for (int pass = 0; pass < 2; pass++) /* the others first: they copy from the first's mask */
    for (uint32_t i = 0; i < cx->l->nargs; i++) {
      const uint32_t id = base->arg_alloc[i];
      if (!id || !cx->written[id] || (cx->allocs[id].arg_index == (int)i) != (pass == 1)) continue;
      if (pass == 0) {
        args[i].written = malloc(args[i].size + 1);
        if (args[i].written) memcpy(args[i].written, cx->written[id] + base->arg_off[i], args[i].size);
      } else if (base->arg_off[i]) {
        memmove(args[i].written, args[i].written + base->arg_off[i], args[i].size);
      }
    }
}

static void launch_end(run *base) {
  ex_hooks_launch_end(&base->cx);
  split_written(base);
  free(base->arg_alloc);
  free(base->arg_off);
  base->arg_alloc = NULL;
  base->arg_off = NULL;
  free(base->cx.allocs);
  ex_svm_snap_free((ex_svm_snap *)base->cx.svm);
  base->cx.svm = NULL;
  if (base->holds_pstate) ex_pstate_release(base->cx.l->pstate);
  base->holds_pstate = false;
}

/* Which memory atomics must update with locked instructions (ex_alloc.locked_atomics): global
 * memory when several threads run the launch; memory objects (setup_allocs), which other launches
 * may use at the same time; SVM memory, which the host may. cx->locked_atomics: any of them, so a
 * plain single-threaded run pays one test per atomic. Before the workers copy the context. */
static void set_locked_atomics(ex_ctx *cx) {
  cx->locked_atomics = cx->threads > 1 || cx->svm;
  for (uint32_t i = 1; i < cx->nallocs; i++) {
    ex_alloc *a = &cx->allocs[i];
    a->locked_atomics |= cx->threads > 1 && (a->space == EX_AS_GLOBAL || a->space == EX_AS_CONSTANT);
    cx->locked_atomics |= a->locked_atomics;
  }
}

spvi_status ex_run(ex_launch *l, unsigned warp_width, spvi_fault *fault, char *err, size_t errlen) {
  run base;
  job j;
  spvi_status st = launch_begin(&base, &j, l, warp_width, err, errlen);
  uint64_t max_group = l->local[0] * l->local[1] * l->local[2];
  unsigned nthreads = l->threads ? l->threads : 1;
  if (nthreads > j.slots) nthreads = j.slots ? (unsigned)j.slots : 1;
  /* printf output is emitted group by group in order: one thread keeps that order */
  if (l->on_printf && l->prog->uses_printf) nthreads = 1;
  /* hook clients that need the work-groups in order on one thread: a trace keeps program order;
   * the race checker compares each group with the groups before it (spec-notes/checks.md) */
  if (ex_hooks_flags(&base.cx) & EX_HK_SERIAL) nthreads = 1;
  if (st == SPVI_OK && j.stride == 1) j.batch = pack_groups(&base); /* packed runs take consecutive groups */
  worker *wk = calloc(nthreads, sizeof *wk);
  if (!wk) st = SPVI_E_NOMEM;
  unsigned ninit = 0;
  base.cx.threads = nthreads;
  set_locked_atomics(&base.cx);
  /* ninit counts the workers to free, the failed one included (worker_free takes a partial set-up) */
  while (st == SPVI_OK && ninit < nthreads) {
    wk[ninit].j = &j;
    if (!worker_init(&wk[ninit++], &base, max_group)) st = SPVI_E_NOMEM;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (st == SPVI_OK) {
    for (unsigned t = 1; t < nthreads; t++)
      wk[t].started = pthread_create(&wk[t].thread, NULL, worker_main, &wk[t]) == 0;
    worker_main(&wk[0]);
    for (unsigned t = 1; t < nthreads; t++)
      if (wk[t].started) pthread_join(wk[t].thread, NULL);
      else worker_main(&wk[t]); /* a thread could not start: do its share here */
    clock_gettime(CLOCK_MONOTONIC, &t1);
    l->exec_seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    l->instructions = 0;
    int fw = -1;
    for (unsigned t = 0; t < nthreads; t++) {
      l->instructions += wk[t].r.cx.instructions;
      if (wk[t].fault_group != UINT64_MAX && (fw < 0 || wk[t].fault_group < wk[fw].fault_group)) fw = (int)t;
    }
    if (fw >= 0) {
      ex_fault_build_report(&wk[fw].r.cx, fault);
      st = SPVI_FAULT;
    }
  } else if (st == SPVI_E_NOMEM && err && !err[0]) {
    snprintf(err, errlen, "out of memory setting up the launch");
  }
  ex_reports_finish(l->reports, &base.cx);
  for (unsigned t = 0; t < ninit; t++) worker_free(&wk[t]);
  free(wk);
  launch_end(&base);
  return st;
}

/* ---- a launch driven step by step (the debugger) ------------------------------------------ */
struct ex_runner {
  run base;
  job j;
  worker wk;
  bool wk_ready;
};

ex_runner *ex_runner_new(ex_launch *l, unsigned warp_width, spvi_status *st, char *err, size_t errlen) {
  ex_runner *r = calloc(1, sizeof *r);
  if (!r) {
    *st = SPVI_E_NOMEM;
    snprintf(err, errlen, "out of memory setting up the launch");
    return NULL;
  }
  *st = launch_begin(&r->base, &r->j, l, warp_width, err, errlen);
  r->base.cx.threads = 1;
  r->base.cx.keep_going = false; /* the debugger stops at every fault */
  set_locked_atomics(&r->base.cx);
  if (*st == SPVI_OK) {
    r->wk.j = &r->j;
    r->wk_ready = true;
    if (!worker_init(&r->wk, &r->base, l->local[0] * l->local[1] * l->local[2])) *st = SPVI_E_NOMEM;
  }
  if (*st != SPVI_OK) {
    if (*st == SPVI_E_NOMEM && !err[0]) snprintf(err, errlen, "out of memory setting up the launch");
    ex_runner_free(r);
    return NULL;
  }
  return r;
}

void ex_runner_free(ex_runner *r) {
  if (!r) return;
  if (r->wk_ready) {
    r->j.l->instructions = r->wk.r.cx.instructions;
    worker_free(&r->wk);
  }
  launch_end(&r->base);
  free(r);
}

ex_ctx *ex_runner_ctx(ex_runner *r) { return &r->wk.r.cx; }
ex_warp *ex_runner_warps(ex_runner *r) { return r->wk.r.warps; }

unsigned ex_runner_start_group(ex_runner *r, uint64_t linear) {
  set_group(&r->wk.r.cx, &r->j, linear);
  return start_group(&r->wk.r, 1);
}

void ex_runner_run(ex_runner *r, ex_warp *w) { run_warp(&r->wk.r.cx, w); }
int ex_runner_sync(ex_runner *r, unsigned nwarps) { return group_sync(&r->wk.r, nwarps); }
void ex_runner_end_group(ex_runner *r) {
  if (!r->wk.r.cx.faulted) ex_hooks_group_end(&r->wk.r.cx);
  printf_flush(&r->wk.r.cx);
}
void ex_runner_report(const ex_runner *r, spvi_fault *f) { ex_fault_build_report(&r->wk.r.cx, f); }
