/*
 * ex_trace.c — `spvi run --trace[=FILTER]`: one line per executed instruction of the selected
 * work-items, with the value it produced, for diffing spvi's execution against another
 * implementation's.
 *
 * A client of the hook interface (ex_hooks.h, ex_trace_hooks at the end) that sees every
 * instruction before it executes; a line is written when the warp reaches its next instruction (or
 * stops), so the result register holds the value, for each lane that ran it. Tracing runs at warp width 1 on one thread: each
 * work-item's lines come in its program order, work-items one after the other between barriers —
 * except in programs with sub-group operations, whose warps hold whole sub-groups: there the lines
 * of one instruction come for the sub-group's work-items together.
 *
 * Line format: `gid=(X,Y,Z) FILE:LINE %ID = OpName TYPE VALUE`, the source position only when the
 * module has OpLine information, `%ID =` and the value only for instructions with a result.
 */
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "bi_half.h"
#include "ex_hooks.h"
#include "gen_spv_tables.h"

/* Per warp: the instruction run last, reported at the next one. */
typedef struct twarp {
  const ex_insn *ip; /* NULL: nothing to report */
  const ex_func *fn;
  uint64_t active; /* the lanes that ran it (warps wider than 1: sub-groups) */
} twarp;

typedef struct trace { /* per worker */
  twarp *warps;        /* per warp of the worker, in the order of its array */
  const ex_warp *warp0;
} trace;

void ex_lane_global_id(const ex_ctx *cx, const ex_warp *w, unsigned lane, uint64_t gid[3]) {
  uint64_t lid[3];
  ex_lane_ids(cx, w, lane, lid);
  for (int d = 0; d < 3; d++) gid[d] = cx->group[d] * cx->l->local[d] + lid[d] + cx->l->offset[d];
}

static bool selected(const ex_ctx *cx, const ex_warp *w, unsigned lane) {
  const ex_launch *l = cx->l;
  if (l->trace_kind == 0) return true;
  uint64_t id[3];
  if (l->trace_kind == 1) ex_lane_global_id(cx, w, lane, id);
  else memcpy(id, cx->group, sizeof id);
  return id[0] == l->trace_id[0] && id[1] == l->trace_id[1] && id[2] == l->trace_id[2];
}

/* Append the value of type `tid` stored at p to buf (scalars and vectors; other types as bytes). */
static size_t format_value(const ld_module *m, uint32_t tid, const uint8_t *p, char *buf, size_t cap) {
  const ld_type *t = ld_type_of(m, tid);
  if (!t) return 0;
  unsigned n = 1;
  const ld_type *e = t;
  if (t->kind == LD_TY_VECTOR) {
    n = t->count;
    e = ld_type_of(m, t->elem);
  }
  size_t k = 0;
  if (!e || (e->kind != LD_TY_INT && e->kind != LD_TY_FLOAT && e->kind != LD_TY_BOOL && e->kind != LD_TY_POINTER)) {
    k += (size_t)snprintf(buf + k, cap - k, "bytes:");
    for (uint32_t i = 0; i < t->reg_size && k + 3 < cap; i++) k += (size_t)snprintf(buf + k, cap - k, "%02x", p[i]);
    return k;
  }
  const unsigned es = e->kind == LD_TY_BOOL ? 1 : e->kind == LD_TY_POINTER ? m->pointer_bytes : e->bits / 8;
  if (n > 1 && k < cap) k += (size_t)snprintf(buf + k, cap - k, "(");
  for (unsigned i = 0; i < n && k < cap; i++) {
    const uint8_t *q = p + i * es;
    uint64_t u = 0;
    memcpy(&u, q, es);
    if (i && k < cap) k += (size_t)snprintf(buf + k, cap - k, ",");
    if (k >= cap) break;
    if (e->kind == LD_TY_FLOAT) {
      double d;
      if (es == 2) d = bi_half_to_double((uint16_t)u);
      else if (es == 4) {
        float f;
        memcpy(&f, q, 4);
        d = f;
      } else memcpy(&d, q, 8);
      k += (size_t)snprintf(buf + k, cap - k, es == 8 ? "%.17g" : es == 4 ? "%.9g" : "%.5g", d);
    } else if (e->kind == LD_TY_BOOL) {
      k += (size_t)snprintf(buf + k, cap - k, "%s", u ? "true" : "false");
    } else if (e->kind == LD_TY_POINTER) {
      k += (size_t)snprintf(buf + k, cap - k, "0x%llx", (unsigned long long)u);
    } else { /* integers: SPIR-V has no signedness; both readings when they differ */
      int64_t sv = es == 8   ? (int64_t)u
                   : es == 4 ? (int32_t)(uint32_t)u
                   : es == 2 ? (int16_t)(uint16_t)u
                             : (int8_t)(uint8_t)u;
      if (sv < 0) k += (size_t)snprintf(buf + k, cap - k, "%lld/%llu", (long long)sv, (unsigned long long)u);
      else k += (size_t)snprintf(buf + k, cap - k, "%llu", (unsigned long long)u);
    }
  }
  if (n > 1 && k < cap) k += (size_t)snprintf(buf + k, cap - k, ")");
  return k < cap ? k : cap - 1;
}

static void report(ex_ctx *cx, const ex_warp *w, const twarp *t) {
  const ex_func *fn = t->fn;
  const ex_insn *ip = t->ip;
  const ex_program *p = cx->prog;
  const ld_module *m = p->ld;
  const ld_insn *li = &fn->ld->insns[ip->src];
  const unsigned W = cx->W;
  for (unsigned lane = 0; lane < w->nlanes; lane++) {
    if (!((t->active >> lane) & 1) || !selected(cx, w, lane)) continue;
    uint64_t gid[3];
    ex_lane_global_id(cx, w, lane, gid);
    char line[1024];
    int k = snprintf(line, sizeof line, "gid=(%llu,%llu,%llu)", (unsigned long long)gid[0], (unsigned long long)gid[1],
                     (unsigned long long)gid[2]);
    if (li->line && k > 0 && (size_t)k < sizeof line) {
      const char *file = li->file && li->file < m->bound ? m->ids[li->file].name : NULL;
      k += snprintf(line + k, sizeof line - (size_t)k, " %s:%u", file ? file : "?", li->line);
    }
    const char *on = spv_op_name(li->opcode);
    if (k > 0 && (size_t)k < sizeof line) {
      if (li->result) k += snprintf(line + k, sizeof line - (size_t)k, " %%%u = %s", li->result, on ? on : "?");
      else k += snprintf(line + k, sizeof line - (size_t)k, " %s", on ? on : "?");
    }
    uint32_t reg = li->result && li->result < m->bound && p->id_reg ? p->id_reg[li->result] : LD_NONE;
    const ld_type *ty = li->type ? ld_type_of(m, li->type) : NULL;
    if (reg != LD_NONE && ty && ty->kind != LD_TY_VOID && k > 0 && (size_t)k + 2 < sizeof line) {
      line[k++] = ' ';
      line[k] = 0;
      k += (int)format_value(m, li->type, w->regs + (size_t)reg * W + (size_t)lane * ty->reg_size, line + k,
                             sizeof line - (size_t)k);
    }
    cx->l->on_trace(cx->l->trace_user, line);
  }
}

static bool trace_worker_init(ex_ctx *cx, void *launch, const ex_hk_info *info, void **self) {
  (void)cx;
  (void)launch;
  trace *t = calloc(1, sizeof *t);
  if (!t) return false;
  *self = t;
  t->warp0 = info->warps;
  t->warps = calloc(info->nwarps + 1, sizeof *t->warps);
  return t->warps != NULL;
}

static void trace_worker_free(void *self) {
  trace *t = self;
  if (!t) return;
  free(t->warps);
  free(t);
}

/* Before instruction ip: the warp's previous instruction has run (its result is in its register). */
static bool trace_before(void *self, ex_ctx *cx, const ex_hk_insn *e) {
  trace *t = self;
  twarp *x = &t->warps[e->w - t->warp0];
  if (x->ip) report(cx, e->w, x);
  x->ip = e->ip;
  x->fn = e->f->fn;
  x->active = e->f->active;
  return false;
}

/* The warp's last instruction (at a pause, a barrier or the end of the warp's run). */
static void trace_warp_stop(void *self, ex_ctx *cx, ex_warp *w) {
  trace *t = self;
  twarp *x = &t->warps[w - t->warp0];
  if (x->ip) report(cx, w, x);
  x->ip = NULL;
}

/* Every instruction; each work-item's lines in its program order: no lane recycling (a warp keeps
 * its work-items), groups in order on one thread. */
static unsigned trace_wants(const ex_ctx *cx) {
  return cx->l->on_trace ? EX_HK_EVERY | EX_HK_NO_RECYCLE | EX_HK_SERIAL : 0;
}

const ex_hooks ex_trace_hooks = {
  .name = "trace",
  .wants = trace_wants,
  .worker_init = trace_worker_init,
  .worker_free = trace_worker_free,
  .warp_stop = trace_warp_stop,
  .before = trace_before,
};
