/*
 * ex_debug.c — the debugger session: a launch run one work-item at a time under the user's control.
 *
 * Owns: the session (an ex_runner with warp width 1 and one thread, so a warp is a work-item and
 * results are those of `spvi run`), the instruction hook ex_dbg_stop that ex_exec_warp calls before
 * every instruction of a debug run (breakpoints, step conditions, watchpoints), the scheduling of
 * work-items (the focused one runs; the others run only when it waits at a barrier or collective;
 * work-groups run in order), stops and their reports (gdb's formats), frames, memory reads that
 * never fault, text buffers, and the spvi_debug_* API.
 *
 * A paused work-item is an ordinary warp whose top frame's ip is the instruction it stopped before
 * (state EX_W_PAUSED): resuming is calling ex_exec_warp again; dbg_resume on the warp tells the hook
 * not to stop at that same instruction twice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex_debug.h"
#include "ex_svm.h"

/* ---- text buffers and arenas ------------------------------------------------------------------ */

void dbg_bvprintf(dbg_buf *b, const char *fmt, va_list ap) {
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  if (n < 0) return;
  if (b->len + (size_t)n + 1 > b->cap) {
    size_t cap = (b->len + (size_t)n + 1) * 2;
    char *s = realloc(b->s, cap);
    if (!s) abort();  /* out of memory for debugger output */
    b->s = s;
    b->cap = cap;
  }
  vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
  b->len += (size_t)n;
}

void dbg_bprintf(dbg_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  dbg_bvprintf(b, fmt, ap);
  va_end(ap);
}

void dbg_buf_free(dbg_buf *b) {
  free(b->s);
  memset(b, 0, sizeof *b);
}

struct dbg_blk {
  struct dbg_blk *next;
  max_align_t data[];
};

void *dbg_alloc(dbg_arena *a, size_t n) {
  struct dbg_blk *b = calloc(1, sizeof *b + n);
  if (!b) abort();  /* out of memory for a debugger value */
  b->next = a->head;
  a->head = b;
  return b->data;
}

void dbg_arena_free(dbg_arena *a) {
  for (struct dbg_blk *b = a->head, *n; b; b = n) {
    n = b->next;
    free(b);
  }
  a->head = NULL;
}

void dbg_printf(dbg_session *s, const char *fmt, ...) {
  dbg_buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  dbg_bvprintf(&b, fmt, ap);
  va_end(ap);
  if (b.len && s->out) s->out(s->user, b.s, b.len);
  dbg_buf_free(&b);
}

/* ---- work-items, frames, memory --------------------------------------------------------------- */

void dbg_item_ids(const dbg_session *s, unsigned w, uint64_t gid[3], uint64_t lid[3]) {
  ex_lane_ids(s->cx, &s->warps[w], 0, lid);
  for (int d = 0; d < 3; d++) gid[d] = s->cx->group[d] * s->l->local[d] + lid[d] + s->l->offset[d];
}

int dbg_find_item(const dbg_session *s, const uint64_t gid[3], uint64_t *group) {
  const ex_launch *l = s->l;
  uint64_t g[3], lid[3];
  for (int d = 0; d < 3; d++) {
    if (gid[d] < l->offset[d] || gid[d] - l->offset[d] >= l->global[d]) return -2;
    g[d] = (gid[d] - l->offset[d]) / l->local[d];
    lid[d] = (gid[d] - l->offset[d]) % l->local[d];
  }
  *group = (g[2] * s->ngroups[1] + g[1]) * s->ngroups[0] + g[0];
  if (*group != s->group) return -1;
  return (int)((lid[2] * s->cx->group_size[1] + lid[1]) * s->cx->group_size[0] + lid[0]);
}

static bool not_started(const ex_warp *w) {
  return w->state == EX_W_RUN && w->depth == 1 && w->stack[0].cur < 0;
}

unsigned dbg_frame_count(dbg_session *s, unsigned w) {
  const ex_warp *x = &s->warps[w];
  return x->state == EX_W_DONE ? 0 : x->depth;
}

bool dbg_frame_pos(dbg_session *s, unsigned w, unsigned k, const ex_func **fn, uint32_t *idx) {
  const ex_warp *x = &s->warps[w];
  if (x->state == EX_W_DONE || k >= x->depth) return false;
  const ex_frame *f = &x->stack[x->depth - 1 - k];
  *fn = f->fn;
  if (k > 0) { *idx = f->ip - 1; return true; }  /* a caller: at its call */
  if (s->live_warp == (int)w) *idx = s->live_idx;
  else if (s->state == DS_FAULTED && s->cx->fwarp == x && s->cx->finsn && s->cx->ffn == f->fn)
    *idx = (uint32_t)(s->cx->finsn - f->fn->code);
  else if (x->state == EX_W_BARRIER && x->barrier_at) *idx = (uint32_t)(x->barrier_at - f->fn->code);
  else if (f->cur < 0) *idx = f->fn->blocks[0].first;
  else *idx = f->ip;
  return *idx < f->fn->ncode;
}

const ld_insn *dbg_insn_at(const ex_func *fn, uint32_t idx) {
  return &fn->ld->insns[fn->code[idx < fn->ncode ? idx : fn->ncode - 1].src];
}

bool dbg_ptr_alloc(const dbg_session *s, uint64_t p, uint32_t *alloc, int64_t *off) {
  const ex_ctx *cx = s->cx;
  uint64_t id = (p & cx->ptr_mask) >> cx->shift;
  if (p == 0 || id == 0 || id >= cx->nallocs) return false;
  *alloc = (uint32_t)id;
  *off = (int64_t)((p & cx->off_mask) - cx->bias);
  return true;
}

/* The same translation as ex_mem, without recording a fault. */
uint8_t *dbg_mem(dbg_session *s, unsigned w, uint64_t p, uint64_t n, char *why, size_t cap) {
  const ex_ctx *cx = s->cx;
  uint32_t id;
  int64_t off;
  if (!dbg_ptr_alloc(s, p, &id, &off)) {
    const ex_svm_block *b = cx->svm && p ? ex_svm_lookup(cx->svm, p) : NULL;
    if (b && n <= b->base + b->size - p) return (uint8_t *)(uintptr_t)p;  /* SVM memory: its own address */
    snprintf(why, cap, "Cannot access memory at address 0x%llx (%s).", (unsigned long long)p,
             p ? "it points to no memory" : "a null pointer");
    return NULL;
  }
  const ex_alloc *a = &cx->allocs[id];
  if (off < 0 || (uint64_t)off > a->size || n > a->size - (uint64_t)off) {
    static const char *const spaces[] = {"private", "global", "constant", "local"};
    char d[200];
    dbg_alloc_name(s, id, d, sizeof d);
    snprintf(why, cap, "Cannot access %llu bytes at offset %lld of `%s` (%s memory of %llu bytes).", (unsigned long long)n,
             (long long)off, d, a->space < 4 ? spaces[a->space] : "?", (unsigned long long)a->size);
    return NULL;
  }
  switch (a->space) {
  case EX_AS_PRIVATE: return s->warps[w].priv + a->offset + (uint64_t)off;  /* lane 0: warps of one */
  case EX_AS_LOCAL: return cx->local + a->offset + (uint64_t)off;
  default: return a->base + off;
  }
}

/* ---- printing where a work-item is ------------------------------------------------------------ */

static void print_ids(dbg_session *s, unsigned w, dbg_buf *b) {
  uint64_t gid[3], lid[3];
  dbg_item_ids(s, w, gid, lid);
  dbg_bprintf(b, "work-item global (%llu,%llu,%llu) local (%llu,%llu,%llu) group (%llu,%llu,%llu)",
              (unsigned long long)gid[0], (unsigned long long)gid[1], (unsigned long long)gid[2],
              (unsigned long long)lid[0], (unsigned long long)lid[1], (unsigned long long)lid[2],
              (unsigned long long)s->cx->group[0], (unsigned long long)s->cx->group[1],
              (unsigned long long)s->cx->group[2]);
}

void dbg_print_source_line(dbg_session *s, const ld_insn *in) {
  if (!in->line) return;
  const dbg_src *src = dbg_source(&s->sym, in->file);
  if (src && in->line <= src->nlines) dbg_printf(s, "%u\t%s\n", in->line, src->lines[in->line - 1]);
  else dbg_printf(s, "%u\tin %s\n", in->line, dbg_file_name(&s->sym, in->file, false));
}

/* "%52+3": the instruction's block and position in it, for code without line information. */
static void block_pos(const ex_func *fn, uint32_t idx, char *buf, size_t cap) {
  const ld_function *lf = fn->ld;
  uint32_t i = fn->code[idx].src;
  for (uint32_t b = lf->nblocks; b-- > 0;)
    if (lf->blocks[b].first <= i) {
      snprintf(buf, cap, "%%%u+%u", lf->blocks[b].label, i - lf->blocks[b].first);
      return;
    }
  snprintf(buf, cap, "?");
}

static void frame_args(dbg_session *s, unsigned w, unsigned k, const ex_func *fn, uint32_t idx, dbg_buf *b) {
  dbg_arena arena = {0};
  char err[256];
  dbg_ctx c = {s, w, k, &arena, err, sizeof err};
  const dbg_var *vars[64];
  uint32_t n = dbg_visible_vars(&s->sym, fn->index, dbg_insn_at(fn, idx) - fn->ld->insns, true, vars, 64);
  if (n) {
    for (uint32_t i = 0; i < n; i++) {
      dbg_value v;
      dbg_bprintf(b, "%s%s=", i ? ", " : "", vars[i]->name);
      if (dbg_var_value(&c, vars[i], &v)) dbg_format_value(s, w, &v, false, 0, b);
      else dbg_bprintf(b, "<%s>", err);
    }
  } else {
    const ld_function *lf = fn->ld;
    for (uint32_t i = 0; i < lf->nparams; i++) {
      dbg_value v;
      dbg_bprintf(b, "%s%%%u=", i ? ", " : "", lf->params[i]);
      if (dbg_id_value(&c, lf->params[i], &v)) dbg_format_value(s, w, &v, false, 0, b);
      else dbg_bprintf(b, "<%s>", err);
    }
  }
  dbg_arena_free(&arena);
}

void dbg_print_frame(dbg_session *s, unsigned w, unsigned k, bool with_source, bool numbered) {
  const ex_func *fn;
  uint32_t idx;
  if (!dbg_frame_pos(s, w, k, &fn, &idx)) {
    dbg_printf(s, s->warps[w].state == EX_W_DONE ? "The work-item has finished the kernel.\n" : "No frame %u.\n", k);
    return;
  }
  dbg_buf b = {0};
  char nb[128];
  if (numbered) dbg_bprintf(&b, "#%-2u ", k);
  dbg_bprintf(&b, "%s (", dbg_func_name(&s->sym, fn->index, nb, sizeof nb));
  frame_args(s, w, k, fn, idx, &b);
  dbg_bprintf(&b, ")");
  const ld_insn *in = dbg_insn_at(fn, idx);
  if (in->line) dbg_bprintf(&b, " at %s:%u", dbg_file_name(&s->sym, in->file, true), in->line);
  else { block_pos(fn, idx, nb, sizeof nb); dbg_bprintf(&b, " at %s", nb); }
  if (s->sym.funcs[fn->index].is_entry_wrapper) dbg_bprintf(&b, " [kernel entry point]");
  dbg_bprintf(&b, "\n");
  s->out(s->user, b.s, b.len);
  dbg_buf_free(&b);
  if (!with_source) return;
  if (in->line) dbg_print_source_line(s, in);
  else {
    char text[512];
    dbg_insn_text(&s->sym, in, text, sizeof text);
    dbg_printf(s, "=> %s\n", text);
  }
}

void dbg_do_displays(dbg_session *s) {
  if (s->state == DS_FINISHED) return;
  for (unsigned i = 0; i < s->ndisplays; i++) {
    dbg_display *d = &s->displays[i];
    dbg_arena arena = {0};
    char err[256];
    dbg_ctx c = {s, s->focus, s->frame, &arena, err, sizeof err};
    dbg_value v;
    dbg_buf b = {0};
    dbg_bprintf(&b, "%d: %s = ", d->id, d->text);
    if (dbg_eval(&c, d->e, &v)) dbg_format_value(s, s->focus, &v, true, 0, &b);
    else dbg_bprintf(&b, "<error: %s>", err);
    dbg_bprintf(&b, "\n");
    s->out(s->user, b.s, b.len);
    dbg_buf_free(&b);
    dbg_arena_free(&arena);
  }
}

void dbg_update_prompt(dbg_session *s) {
  if (s->state == DS_FINISHED) { snprintf(s->prompt, sizeof s->prompt, "(spvi finished) "); return; }
  uint64_t gid[3], lid[3];
  dbg_item_ids(s, s->focus, gid, lid);
  char where[160] = "finished";
  const ex_func *fn;
  uint32_t idx;
  if (dbg_frame_pos(s, s->focus, s->frame, &fn, &idx)) {
    const ld_insn *in = dbg_insn_at(fn, idx);
    if (in->line) snprintf(where, sizeof where, "%s:%u", dbg_file_name(&s->sym, in->file, true), in->line);
    else {
      char nb[96], bp[64];
      block_pos(fn, idx, bp, sizeof bp);
      snprintf(where, sizeof where, "%s %s", dbg_func_name(&s->sym, fn->index, nb, sizeof nb), bp);
    }
  }
  snprintf(s->prompt, sizeof s->prompt, "(spvi %llu,%llu,%llu %s%s) ", (unsigned long long)gid[0],
           (unsigned long long)gid[1], (unsigned long long)gid[2], where, s->state == DS_FAULTED ? " faulted" : "");
}

/* ---- watchpoints and breakpoints --------------------------------------------------------------- */

bool dbg_watch_read(dbg_session *s, dbg_bp *b, unsigned warp, uint8_t *out, dbg_arena *arena) {
  char err[256];
  unsigned w = b->bound_warp >= 0 ? (unsigned)b->bound_warp : warp;
  if (b->in_memory) {
    uint8_t *m = dbg_mem(s, w, ex_ptr_of(s->cx, b->alloc) + b->off, b->size, err, sizeof err);
    if (!m) return false;
    memcpy(out, m, b->size);
    return true;
  }
  dbg_ctx c = {s, w, 0, arena, err, sizeof err};
  dbg_value v;
  if (!dbg_eval(&c, b->expr, &v) || v.t->size != b->size) return false;
  memcpy(out, v.bytes, b->size);
  return true;
}

static void format_raw(dbg_session *s, const dbg_type *t, const uint8_t *bytes, dbg_buf *out) {
  dbg_value v = {t, (uint8_t *)bytes, false, 0};
  dbg_format_value(s, s->focus, &v, true, 0, out);
}

/* Did a watched value change? Checked for work-item wi after each of its instructions. */
static bool check_watches(dbg_session *s, unsigned wi) {
  bool hit = false;
  for (unsigned i = 0; i < s->nbps; i++) {
    dbg_bp *b = &s->bps[i];
    if (!b->is_watch || !b->enabled) continue;
    if (b->bound_warp >= 0 && (unsigned)b->bound_warp != wi) continue;
    if (b->bound_group != UINT64_MAX && b->bound_group != s->group) continue;
    dbg_arena arena = {0};
    uint8_t *now = dbg_alloc(&arena, b->size + 1);
    if (dbg_watch_read(s, b, wi, now, &arena)) {
      if (!b->old_valid) {
        memcpy(b->old, now, b->size);
        b->old_valid = true;
      } else if (memcmp(b->old, now, b->size) != 0) {
        dbg_bprintf(&s->stop_text, "\nWatchpoint %d: %s\n\nOld value = ", b->id, b->text);
        format_raw(s, b->type, b->old, &s->stop_text);
        dbg_bprintf(&s->stop_text, "\nNew value = ");
        format_raw(s, b->type, now, &s->stop_text);
        dbg_bprintf(&s->stop_text, "\n");
        memcpy(b->old, now, b->size);
        b->hits++;
        if (!hit) s->stop_bp = b->id;
        hit = true;
      }
    }
    dbg_arena_free(&arena);
  }
  if (hit) s->reason = DR_WATCH;
  return hit;
}

static bool check_breakpoints(dbg_session *s, unsigned wi, const ex_func *fn, uint32_t idx) {
  bool stop = false;
  for (unsigned i = 0; i < s->nbps; i++) {
    dbg_bp *b = &s->bps[i];
    if (b->is_watch || !b->enabled) continue;
    bool here = false;
    for (uint32_t k = 0; k < b->nlocs && !here; k++) here = b->locs[k].fn == fn->index && b->locs[k].idx == idx;
    if (!here) continue;
    if (b->cond) {
      dbg_arena arena = {0};
      char err[256];
      dbg_ctx c = {s, wi, 0, &arena, err, sizeof err};
      dbg_value v;
      bool ok = dbg_eval(&c, b->cond, &v), t = ok && dbg_truth(&v);
      if (!ok && !stop) {
        dbg_bprintf(&s->stop_text, "Error in testing condition for breakpoint %d:\n%s\n", b->id, err);
        s->reason = DR_COND_ERROR;
        s->stop_bp = b->id;
        stop = true;
      }
      dbg_arena_free(&arena);
      if (!t) continue;
    }
    b->hits++;
    if (!stop) {
      stop = true;
      s->reason = DR_BREAK;
      s->stop_bp = b->id;
    }
  }
  return stop;
}

void dbg_rebuild_bp_map(dbg_session *s) {
  const ex_program *p = s->sym.p;
  for (uint32_t f = 0; f < p->nfuncs; f++) {
    free(s->bp_map[f]);
    s->bp_map[f] = NULL;
  }
  s->nwatch = 0;
  for (unsigned i = 0; i < s->nbps; i++) {
    dbg_bp *b = &s->bps[i];
    if (!b->enabled) continue;
    if (b->is_watch) { s->nwatch++; continue; }
    for (uint32_t k = 0; k < b->nlocs; k++) {
      uint32_t f = b->locs[k].fn;
      if (!s->bp_map[f]) {
        s->bp_map[f] = calloc(p->funcs[f].ncode + 1, 1);
        if (!s->bp_map[f]) abort();
      }
      s->bp_map[f][b->locs[k].idx] = 1;
    }
  }
}

/* ---- the hook --------------------------------------------------------------------------------- */

static bool step_reached(dbg_session *s, const ex_warp *w, const ex_frame *f, uint32_t idx) {
  const uint32_t depth = w->depth;
  const ld_insn *in = dbg_insn_at(f->fn, idx);
  const bool lines = s->sym.any_lines;
  const uint32_t body = s->sym.funcs[f->fn->index].body_start;
  switch (s->mode) {
  case DM_STEPI: return true;
  case DM_NEXTI: return depth <= s->step_depth;
  case DM_FINISH: return depth < s->step_depth;
  case DM_START: return !lines || (in->line && idx >= body);
  case DM_STEP: case DM_NEXT:
    if (s->mode == DM_NEXT && depth > s->step_depth) return false;
    if (!lines) return true;
    if (!in->line) return false;
    if (depth > s->step_depth && idx < body) return false;  /* a callee's prologue */
    return depth != s->step_depth || f->fn != s->step_fn || in->line != s->step_line || in->file != s->step_file;
  default: return false;
  }
}

bool ex_dbg_stop(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip) {
  dbg_session *s = cx->dbg;
  if (w->dbg_resume) {  /* it paused before this very instruction: run it now */
    w->dbg_resume = false;
    return false;
  }
  const unsigned wi = (unsigned)(w - s->warps);
  const uint32_t idx = (uint32_t)(ip - f->fn->code);
  s->live_warp = (int)wi;
  s->live_idx = idx;
  bool stop = false;
  if (s->interrupted && !s->quiet) {
    s->interrupted = 0;
    s->reason = DR_INTERRUPT;
    stop = true;
  }
  if (!stop && !s->quiet) {
    if (s->nwatch) stop = check_watches(s, wi);
    const uint8_t *map = s->bp_map[f->fn->index];
    if (!stop && map && map[idx]) stop = check_breakpoints(s, wi, f->fn, idx);
  }
  if (!stop && (int)wi == s->step_warp && step_reached(s, w, f, idx)) {
    s->reason = DR_STEP;
    stop = true;
  }
  s->live_warp = -1;
  if (stop) {
    w->dbg_resume = true;
    s->focus = wi;
    s->frame = 0;
  }
  return stop;
}

/* ---- running ---------------------------------------------------------------------------------- */

void dbg_delete_bp(dbg_session *s, unsigned i) {
  dbg_bp *b = &s->bps[i];
  free(b->text);
  free(b->cond_text);
  dbg_expr_free(b->cond);
  dbg_expr_free(b->expr);
  free(b->locs);
  free(b->old);
  memmove(b, b + 1, (s->nbps - i - 1) * sizeof *b);
  s->nbps--;
  dbg_rebuild_bp_map(s);
}

static void start_group(dbg_session *s) {
  s->nw = ex_runner_start_group(s->run, s->group);
  for (unsigned k = 0; k < s->nw; k++) s->warps[k].dbg_resume = false;
  s->focus = 0;
  s->frame = 0;
  s->list_valid = false;
  /* watchpoints of one work-item or of local memory end with their work-group */
  for (unsigned i = 0; i < s->nbps;) {
    dbg_bp *b = &s->bps[i];
    if (b->is_watch && b->bound_group != UINT64_MAX && b->bound_group != s->group) {
      dbg_printf(s, "\nWatchpoint %d deleted because its work-group has finished.\n", b->id);
      dbg_delete_bp(s, i);
      continue;
    }
    i++;
  }
}

static void on_fault(dbg_session *s) {
  s->state = DS_FAULTED;
  ex_runner_report(s->run, &s->fault);
  ex_runner_end_group(s->run);
  for (unsigned k = 0; k < s->nw; k++)
    if (&s->warps[k] == s->cx->fwarp) s->focus = k;
  s->frame = 0;
  s->reason = DR_FAULT;
}

static bool runnable(const ex_warp *w) { return w->state == EX_W_RUN || w->state == EX_W_PAUSED; }

/* Run until the request is satisfied or something else stops the kernel. The focused work-item
 * runs first; the others run when it cannot (a barrier), lowest local id first, which is the
 * order `spvi run` gives them. */
static void advance(dbg_session *s) {
  s->reason = DR_NONE;
  s->stop_bp = 0;
  s->stop_text.len = 0;
  for (;;) {
    if (s->cx->faulted) { on_fault(s); return; }
    int wi = runnable(&s->warps[s->focus]) ? (int)s->focus : -1;
    for (unsigned k = 0; wi < 0 && k < s->nw; k++)
      if (runnable(&s->warps[k])) wi = (int)k;
    if (wi >= 0) {
      ex_warp *w = &s->warps[wi];
      w->state = EX_W_RUN;
      ex_exec_warp(s->cx, w);
      if (s->cx->faulted) { on_fault(s); return; }
      if (w->state == EX_W_PAUSED) return;
      /* it finished or waits: changes made by its last instructions */
      if (!s->quiet && s->nwatch && check_watches(s, (unsigned)wi)) {
        s->focus = (unsigned)wi;
        s->frame = 0;
        return;
      }
      if (wi == s->step_warp && w->state == EX_W_DONE) {
        s->reason = DR_ITEM_DONE;
        s->focus = (unsigned)wi;
        s->frame = 0;
        return;
      }
      continue;
    }
    int r = ex_runner_sync(s->run, s->nw);
    if (r == EX_SYNC_FAULT) { on_fault(s); return; }
    if (r == EX_SYNC_RELEASED) continue;
    ex_runner_end_group(s->run);
    if (s->group + 1 >= s->group_end) {
      s->state = DS_FINISHED;
      s->reason = DR_KERNEL_DONE;
      return;
    }
    s->group++;
    start_group(s);
    if (s->mode == DM_GROUP) { s->reason = DR_GROUP_DONE; return; }
  }
}

static void run_request(dbg_session *s, int mode, bool quiet, int warp) {
  s->mode = mode;
  s->quiet = quiet;
  s->step_warp = warp;
  advance(s);
  s->mode = DM_NONE;
  s->quiet = false;
  s->step_warp = -1;
}

/* What stopped the kernel, and where (gdb's phrasing). */
static void report_stop(dbg_session *s, unsigned prev_focus, uint64_t prev_group, const ex_func *prev_fn,
                        uint32_t prev_depth, int mode) {
  if (s->reason == DR_KERNEL_DONE) {
    dbg_printf(s, "\n[kernel `%s` finished: %llu work-group%s]\n", s->sym.m->entries[s->l->kernel].name,
               (unsigned long long)(s->group_end - s->group_first), s->group_end - s->group_first == 1 ? "" : "s");
    return;
  }
  if (s->focus != prev_focus || s->group != prev_group) {
    dbg_buf b = {0};
    print_ids(s, s->focus, &b);
    dbg_printf(s, "[Switching to %s]\n", b.s);
    dbg_buf_free(&b);
  }
  const ex_func *fn = NULL;
  uint32_t idx = 0;
  bool have = dbg_frame_pos(s, s->focus, 0, &fn, &idx);
  switch (s->reason) {
  case DR_FAULT:
    dbg_printf(s, "\nFault: %s\n", s->fault.message);
    if (have) dbg_print_frame(s, s->focus, 0, true, false);
    break;
  case DR_ITEM_DONE: {
    dbg_buf b = {0};
    print_ids(s, s->focus, &b);
    dbg_printf(s, "[%s finished the kernel]\n", b.s);
    dbg_buf_free(&b);
    return;
  }
  case DR_BREAK: {
    bool temp = false;
    for (unsigned i = 0; i < s->nbps; i++)
      if (s->bps[i].id == s->stop_bp && s->bps[i].temp) { temp = true; dbg_delete_bp(s, i); break; }
    dbg_printf(s, "\n%s %d, ", temp ? "Temporary breakpoint" : "Breakpoint", s->stop_bp);
    dbg_print_frame(s, s->focus, 0, true, false);
    break;
  }
  case DR_INTERRUPT:
    dbg_printf(s, "\nInterrupted.\n");
    if (have) dbg_print_frame(s, s->focus, 0, true, false);
    break;
  case DR_WATCH: case DR_COND_ERROR:
    if (s->stop_text.len) s->out(s->user, s->stop_text.s, s->stop_text.len);
    if (have) dbg_print_frame(s, s->focus, 0, true, false);
    else dbg_printf(s, "(the work-item %s)\n", s->warps[s->focus].state == EX_W_DONE ? "has finished" : "waits at a barrier");
    break;
  default: {
    if (!have) break;
    const ex_warp *w = &s->warps[s->focus];
    const ld_insn *in = dbg_insn_at(fn, idx);
    bool same = fn == prev_fn && w->depth == prev_depth && s->focus == prev_focus && s->group == prev_group;
    if (mode == DM_FINISH) {
      dbg_print_frame(s, s->focus, 0, true, false);
      const ex_insn *call = idx > 0 ? &fn->code[idx - 1] : NULL;
      if (call && call->op == EX_CALL && call->d != LD_NONE) {
        dbg_arena arena = {0};
        char err[256];
        dbg_ctx c = {s, s->focus, 0, &arena, err, sizeof err};
        dbg_value v;
        if (dbg_id_value(&c, dbg_insn_at(fn, idx - 1)->result, &v)) {
          dbg_buf b = {0};
          dbg_format_value(s, s->focus, &v, true, 0, &b);
          dbg_printf(s, "Value returned = %s\n", b.s);
          dbg_buf_free(&b);
        }
        dbg_arena_free(&arena);
      }
    } else if (!same || !in->line) {
      dbg_print_frame(s, s->focus, 0, true, false);
    } else {
      dbg_print_source_line(s, in);
    }
    if (in->line && (mode == DM_STEPI || mode == DM_NEXTI)) {
      char text[512];
      dbg_insn_text(&s->sym, in, text, sizeof text);
      dbg_printf(s, "=> %s\n", text);
    }
    break;
  }
  }
  dbg_do_displays(s);
}

void dbg_resume(dbg_session *s, int mode) {
  if (s->state == DS_FINISHED) { dbg_printf(s, "The kernel has finished.\n"); return; }
  if (s->state == DS_FAULTED) { dbg_printf(s, "The kernel faulted; it cannot run further.\n"); return; }
  ex_warp *w = &s->warps[s->focus];
  if (mode != DM_CONTINUE && w->state == EX_W_DONE) {
    dbg_printf(s, "This work-item has finished the kernel (`continue` runs the others; `workitem` focuses another).\n");
    return;
  }
  const ex_func *fn = NULL;
  uint32_t idx = 0;
  const bool have = dbg_frame_pos(s, s->focus, s->frame, &fn, &idx);
  if (mode == DM_FINISH) {
    if (!have || s->frame + 1 >= w->depth) { dbg_printf(s, "\"finish\" not meaningful in the outermost frame.\n"); return; }
    dbg_printf(s, "Run till exit from ");
    dbg_print_frame(s, s->focus, s->frame, false, true);
  }
  s->step_depth = w->depth - s->frame;
  s->step_fn = fn;
  s->step_line = have ? dbg_insn_at(fn, idx)->line : 0;
  s->step_file = have ? dbg_insn_at(fn, idx)->file : 0;
  const unsigned prev_focus = s->focus;
  const uint64_t prev_group = s->group;
  const ex_func *top_fn = NULL;
  uint32_t top_idx;
  dbg_frame_pos(s, s->focus, 0, &top_fn, &top_idx);
  const uint32_t prev_depth = w->depth;
  s->list_valid = false;
  run_request(s, mode, false, mode == DM_CONTINUE ? -1 : (int)s->focus);
  report_stop(s, prev_focus, prev_group, top_fn, prev_depth, mode);
}

bool dbg_focus(dbg_session *s, uint64_t group, unsigned warp) {
  if (group < s->group) {
    dbg_printf(s, "That work-group has already finished (work-groups run in order; the current one is %llu).\n",
               (unsigned long long)s->group);
    return false;
  }
  if (group != s->group && s->state != DS_STOPPED) {
    dbg_printf(s, "The kernel has %s: only work-items of the current work-group can be inspected.\n",
               s->state == DS_FAULTED ? "faulted" : "finished");
    return false;
  }
  while (group > s->group) {
    /* the groups before it run to completion; breakpoints and watchpoints are not checked */
    run_request(s, DM_GROUP, true, -1);
    if (s->state != DS_STOPPED) {
      report_stop(s, s->focus, s->group, NULL, 0, DM_CONTINUE);
      return false;
    }
  }
  if (warp >= s->nw) {
    dbg_printf(s, "The work-group has %u work-items.\n", s->nw);
    return false;
  }
  s->focus = warp;
  s->frame = 0;
  s->list_valid = false;
  if (s->state == DS_STOPPED && not_started(&s->warps[warp])) {
    run_request(s, DM_START, true, (int)warp);
    if (s->reason != DR_STEP) {
      report_stop(s, warp, s->group, NULL, 0, DM_CONTINUE);
      return s->state == DS_STOPPED;
    }
  }
  dbg_buf b = {0};
  print_ids(s, s->focus, &b);
  dbg_printf(s, "[Switching to %s]\n", b.s);
  dbg_buf_free(&b);
  if (s->warps[s->focus].state == EX_W_DONE) dbg_printf(s, "The work-item has finished the kernel.\n");
  else dbg_print_frame(s, s->focus, 0, true, false);
  return true;
}

/* ---- the session and the API ------------------------------------------------------------------- */

static void discard(void *user, const char *text, size_t len) {
  (void)user;
  (void)text;
  (void)len;
}

spvi_debug *ex_debug_new(ex_launch *l, void (*out)(void *, const char *, size_t), void *user, spvi_status *st,
                         char *err, size_t errlen) {
  ex_runner *r = ex_runner_new(l, 1, st, err, errlen);
  if (!r) return NULL;
  dbg_session *s = calloc(1, sizeof *s);
  if (!s) abort();
  s->l = l;
  s->run = r;
  s->cx = ex_runner_ctx(r);
  s->cx->dbg = s;
  s->warps = ex_runner_warps(r);
  s->out = out ? out : discard;
  s->user = user;
  s->live_warp = -1;
  s->step_warp = -1;
  s->next_bp = 1;
  s->next_display = 1;
  dbg_syms_build(&s->sym, l->prog);
  s->bp_map = calloc(l->prog->nfuncs + 1, sizeof *s->bp_map);
  if (!s->bp_map) abort();
  for (int d = 0; d < 3; d++) s->ngroups[d] = (l->global[d] + l->local[d] - 1) / l->local[d];
  uint64_t total = s->ngroups[0] * s->ngroups[1] * s->ngroups[2];
  s->group_first = l->group_begin;
  s->group_end = l->group_end ? l->group_end : total;
  s->group = s->group_first;
  start_group(s);
  dbg_printf(s, "Kernel `%s`: %llu work-group%s of %llu work-item%s (global %llu,%llu,%llu local %llu,%llu,%llu)%s\n",
             s->sym.m->entries[l->kernel].name, (unsigned long long)(s->group_end - s->group_first),
             s->group_end - s->group_first == 1 ? "" : "s", (unsigned long long)(l->local[0] * l->local[1] * l->local[2]),
             l->local[0] * l->local[1] * l->local[2] == 1 ? "" : "s", (unsigned long long)l->global[0],
             (unsigned long long)l->global[1], (unsigned long long)l->global[2], (unsigned long long)l->local[0],
             (unsigned long long)l->local[1], (unsigned long long)l->local[2],
             s->sym.any_lines ? "" : "; no source line information: stepping is by SPIR-V instruction");
  run_request(s, DM_START, true, 0);
  if (s->reason == DR_STEP) {
    dbg_buf b = {0};
    print_ids(s, s->focus, &b);
    dbg_printf(s, "Stopped at %s\n", b.s);
    dbg_buf_free(&b);
    dbg_print_frame(s, s->focus, 0, true, false);
  } else {
    report_stop(s, 0, s->group_first, NULL, 0, DM_CONTINUE);
  }
  dbg_update_prompt(s);
  return s;
}

void spvi_debug_interrupt(spvi_debug *s) {
  if (s) s->interrupted = 1;
}

bool spvi_debug_command(spvi_debug *s, const char *line) {
  if (!s) return false;
  s->interrupted = 0;
  dbg_command(s, line ? line : "");
  dbg_update_prompt(s);
  return !s->quit;
}

const char *spvi_debug_prompt(const spvi_debug *s) { return s ? s->prompt : "(spvi) "; }

spvi_debug_state spvi_debug_get_state(const spvi_debug *s, spvi_fault *fault) {
  if (!s) return SPVI_DEBUG_STOPPED;
  if (fault && s->state == DS_FAULTED) *fault = s->fault;
  return s->state == DS_FINISHED ? SPVI_DEBUG_FINISHED : s->state == DS_FAULTED ? SPVI_DEBUG_FAULTED : SPVI_DEBUG_STOPPED;
}

void spvi_debug_free(spvi_debug *s) {
  if (!s) return;
  while (s->nbps) dbg_delete_bp(s, s->nbps - 1);
  free(s->bps);
  for (unsigned i = 0; i < s->ndisplays; i++) { free(s->displays[i].text); dbg_expr_free(s->displays[i].e); }
  free(s->displays);
  for (uint32_t f = 0; f < s->sym.p->nfuncs; f++) free(s->bp_map[f]);
  free(s->bp_map);
  dbg_syms_free(&s->sym);
  dbg_buf_free(&s->stop_text);
  s->cx->dbg = NULL;
  ex_runner_free(s->run);
  free(s);
}
