/*
 * dbg_session.c — the debugger session: a launch run one work-item at a time under the user's
 * control.
 *
 * Owns: the session (an inspected launch, ex_inspect.h: warp width 1 on the calling thread, so
 * results are those of `spvi run`), the pause hook the executor asks before every instruction of a
 * debug run (breakpoints, step conditions, watchpoints), the scheduling of work-items (the focused
 * one runs; the others run only when it waits at a barrier or collective; work-groups run in
 * order), stops and their reports (gdb's formats), frames and displays printed.
 *
 * A paused work-item resumes at the instruction it paused before; the inspector does not ask the
 * hook about that instruction a second time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "dbg.h"

static ex_insp_state item_state(const dbg_session *s, unsigned w) {
  ex_insp_item it;
  ex_insp_item_get(s->x, w, &it);
  return it.state;
}

/* ---- printing where a work-item is ------------------------------------------------------------ */

static void print_source_line(dbg_session *s, const ld_insn *in) {
  if (!in->line) return;
  const dbg_src *src = dbg_source(&s->sym, in->file);
  if (src && in->line <= src->nlines) dbg_printf(s, "%u\t%s\n", in->line, src->lines[in->line - 1]);
  else dbg_printf(s, "%u\tin %s\n", in->line, dbg_file_name(&s->sym, in->file, false));
}

/* "%52+3": the instruction's block and position in it, for code without line information. */
static void block_pos(const dbg_syms *y, uint32_t fn, uint32_t idx, char *buf, size_t cap) {
  const ld_function *lf = &y->m->funcs[fn];
  uint32_t i = (uint32_t)(dbg_insn_at(y, fn, idx) - lf->insns);
  for (uint32_t b = lf->nblocks; b-- > 0;)
    if (lf->blocks[b].first <= i) {
      snprintf(buf, cap, "%%%u+%u", lf->blocks[b].label, i - lf->blocks[b].first);
      return;
    }
  snprintf(buf, cap, "?");
}

static void frame_args(dbg_session *s, unsigned w, unsigned k, uint32_t fn, uint32_t idx, dbg_buf *b) {
  dbg_arena arena = {0};
  char err[256];
  dbg_ctx c = {s, w, k, &arena, err, sizeof err};
  const dbg_var *vars[64];
  const ld_function *lf = &s->sym.m->funcs[fn];
  uint32_t n = dbg_visible_vars(&s->sym, fn, (uint32_t)(dbg_insn_at(&s->sym, fn, idx) - lf->insns), true, vars, 64);
  if (n) {
    for (uint32_t i = 0; i < n; i++) {
      dbg_value v;
      dbg_bprintf(b, "%s%s=", i ? ", " : "", vars[i]->name);
      if (dbg_var_value(&c, vars[i], &v)) dbg_format_value(s, &v, false, 0, b);
      else dbg_bprintf(b, "<%s>", err);
    }
  } else {
    for (uint32_t i = 0; i < lf->nparams; i++) {
      dbg_value v;
      dbg_bprintf(b, "%s%%%u=", i ? ", " : "", lf->params[i]);
      if (dbg_id_value(&c, lf->params[i], &v)) dbg_format_value(s, &v, false, 0, b);
      else dbg_bprintf(b, "<%s>", err);
    }
  }
  dbg_arena_free(&arena);
}

void dbg_print_frame(dbg_session *s, unsigned w, unsigned k, bool with_source, bool numbered) {
  uint32_t fn, idx;
  if (!dbg_frame_pos(s, w, k, &fn, &idx)) {
    dbg_printf(s, item_state(s, w) == EX_INSP_DONE ? "The work-item has finished the kernel.\n" : "No frame %u.\n", k);
    return;
  }
  dbg_buf b = {0};
  char nb[128];
  if (numbered) dbg_bprintf(&b, "#%-2u ", k);
  dbg_bprintf(&b, "%s (", dbg_func_name(&s->sym, fn, nb, sizeof nb));
  frame_args(s, w, k, fn, idx, &b);
  dbg_bprintf(&b, ")");
  const ld_insn *in = dbg_insn_at(&s->sym, fn, idx);
  if (in->line) dbg_bprintf(&b, " at %s:%u", dbg_file_name(&s->sym, in->file, true), in->line);
  else {
    block_pos(&s->sym, fn, idx, nb, sizeof nb);
    dbg_bprintf(&b, " at %s", nb);
  }
  if (s->sym.funcs[fn].is_entry_wrapper) dbg_bprintf(&b, " [kernel entry point]");
  dbg_bprintf(&b, "\n");
  dbg_put_buf(s, &b);
  if (!with_source) return;
  if (in->line) print_source_line(s, in);
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
    if (dbg_eval(&c, d->e, &v)) dbg_format_value(s, &v, true, 0, &b);
    else dbg_bprintf(&b, "<error: %s>", err);
    dbg_bprintf(&b, "\n");
    dbg_put_buf(s, &b);
    dbg_arena_free(&arena);
  }
}

void dbg_update_prompt(dbg_session *s) {
  if (s->state == DS_FINISHED) {
    snprintf(s->prompt, sizeof s->prompt, "(spvi finished) ");
    return;
  }
  uint64_t gid[3], lid[3];
  ex_insp_item_ids(s->x, s->focus, gid, lid);
  char where[160] = "finished";
  uint32_t fn, idx;
  if (dbg_frame_pos(s, s->focus, s->frame, &fn, &idx)) {
    const ld_insn *in = dbg_insn_at(&s->sym, fn, idx);
    if (in->line) snprintf(where, sizeof where, "%s:%u", dbg_file_name(&s->sym, in->file, true), in->line);
    else {
      char nb[96], bp[64];
      block_pos(&s->sym, fn, idx, bp, sizeof bp);
      snprintf(where, sizeof where, "%s %s", dbg_func_name(&s->sym, fn, nb, sizeof nb), bp);
    }
  }
  snprintf(s->prompt, sizeof s->prompt, "(spvi %llu,%llu,%llu %s%s) ", (unsigned long long)gid[0],
           (unsigned long long)gid[1], (unsigned long long)gid[2], where, s->state == DS_FAULTED ? " faulted" : "");
}

/* ---- watchpoints and breakpoints --------------------------------------------------------------- */

/* The watchpoint's current value (false: cannot be evaluated now). */
static bool watch_read(dbg_session *s, dbg_bp *b, unsigned warp, uint8_t *out, dbg_arena *arena) {
  char err[256];
  unsigned w = b->bound_warp >= 0 ? (unsigned)b->bound_warp : warp;
  if (b->in_memory) {
    uint8_t *m = dbg_mem(s, w, ex_insp_alloc_ptr(s->x, b->alloc, b->off), b->size, err, sizeof err);
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
  dbg_format_value(s, &v, true, 0, out);
}

/* Did watchpoint b's value change? Its old and new values go to the stop text. */
static bool watch_changed(dbg_session *s, dbg_bp *b, unsigned wi) {
  dbg_arena arena = {0};
  uint8_t *now = dbg_alloc(&arena, b->size + 1);
  bool changed = false;
  if (!now) s->oom = true; /* not checked this time */
  else if (watch_read(s, b, wi, now, &arena)) {
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
      changed = true;
    }
  }
  dbg_arena_free(&arena);
  return changed;
}

/* Did a watched value change? Checked for work-item wi after each of its instructions. */
static bool check_watches(dbg_session *s, unsigned wi) {
  bool hit = false;
  for (unsigned i = 0; i < s->nbps; i++) {
    dbg_bp *b = &s->bps[i];
    if (!b->is_watch || !b->enabled) continue;
    if (b->bound_warp >= 0 && (unsigned)b->bound_warp != wi) continue;
    if (b->bound_group != UINT64_MAX && b->bound_group != s->group) continue;
    if (!watch_changed(s, b, wi)) continue;
    if (!hit) s->stop_bp = b->id;
    hit = true;
  }
  if (hit) s->reason = DR_WATCH;
  return hit;
}

static bool check_breakpoints(dbg_session *s, unsigned wi, uint32_t fn, uint32_t idx) {
  bool stop = false;
  for (unsigned i = 0; i < s->nbps; i++) {
    dbg_bp *b = &s->bps[i];
    if (b->is_watch || !b->enabled) continue;
    bool here = false;
    for (uint32_t k = 0; k < b->nlocs && !here; k++) here = b->locs[k].fn == fn && b->locs[k].idx == idx;
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
  for (uint32_t f = 0; f < s->sym.m->nfuncs; f++) memset(s->bp_map[f], 0, ex_insp_code_count(s->x, f) + 1);
  s->nwatch = 0;
  for (unsigned i = 0; i < s->nbps; i++) {
    dbg_bp *b = &s->bps[i];
    if (!b->enabled) continue;
    if (b->is_watch) {
      s->nwatch++;
      continue;
    }
    for (uint32_t k = 0; k < b->nlocs; k++) s->bp_map[b->locs[k].fn][b->locs[k].idx] = 1;
  }
}

/* ---- the pause hook --------------------------------------------------------------------------- */

static bool step_reached(dbg_session *s, const ex_insp_at *at) {
  const ld_insn *in = dbg_insn_at(&s->sym, at->fn, at->idx);
  const bool lines = s->sym.any_lines;
  const uint32_t body = s->sym.funcs[at->fn].body_start;
  switch (s->mode) {
  case DM_STEPI: return true;
  case DM_NEXTI: return at->depth <= s->step_depth;
  case DM_FINISH: return at->depth < s->step_depth;
  case DM_START: return !lines || (in->line && at->idx >= body);
  case DM_STEP:
  case DM_NEXT:
    if (s->mode == DM_NEXT && at->depth > s->step_depth) return false;
    if (!lines) return true;
    if (!in->line) return false;
    if (at->depth > s->step_depth && at->idx < body) return false; /* a callee's prologue */
    return at->depth != s->step_depth || at->fn != s->step_fn || in->line != s->step_line || in->file != s->step_file;
  default: return false;
  }
}

/* Before every instruction of a debug run (ex_insp_pause_fn): whether the work-item stops there. */
static bool pause_here(void *user, const ex_insp_at *at) {
  dbg_session *s = user;
  bool stop = false;
  if (s->interrupted && !s->quiet) {
    s->interrupted = 0;
    s->reason = DR_INTERRUPT;
    stop = true;
  }
  /* the instruction before this one made a report: stop after it, as at a fault */
  if (!stop && !s->quiet && ex_insp_report_pending(s->x)) {
    s->reason = DR_REPORT;
    stop = true;
  }
  if (!stop && !s->quiet) {
    if (s->nwatch) stop = check_watches(s, at->item);
    if (!stop && s->bp_map[at->fn][at->idx]) stop = check_breakpoints(s, at->item, at->fn, at->idx);
  }
  if (!stop && (int)at->item == s->step_warp && step_reached(s, at)) {
    s->reason = DR_STEP;
    stop = true;
  }
  if (stop) {
    s->focus = at->item;
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
  s->nw = ex_insp_start_group(s->x, s->group);
  s->focus = 0;
  s->yielded = -1;
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
  int item = -1;
  s->state = DS_FAULTED;
  ex_insp_fault(s->x, &s->fault, &item);
  ex_insp_end_group(s->x);
  if (item >= 0 && (unsigned)item < s->nw) s->focus = (unsigned)item;
  s->frame = 0;
  s->reason = DR_FAULT;
}

static bool runnable(const dbg_session *s, unsigned w) {
  ex_insp_state st = item_state(s, w);
  return st == EX_INSP_NOT_STARTED || st == EX_INSP_READY || st == EX_INSP_PAUSED;
}

/* A report found outside an instruction (at a barrier's release or a work-group's end: races
 * within a group are found when their interval closes) or by the last one a work-item ran: stop
 * there (report_stop shows it). */
static bool report_found(dbg_session *s) {
  if (s->quiet || !ex_insp_report_pending(s->x)) return false;
  s->reason = DR_REPORT;
  s->frame = 0;
  return true;
}

/* The work-item to run next: after one yielded, the next runnable one after it (round robin, so a
 * work-item spinning on an atomic lets the one it waits for run); otherwise the focused work-item,
 * and when it cannot run (a barrier), the others lowest local id first, which is the order `spvi
 * run` gives them. -1: none can run. */
static int next_item(dbg_session *s) {
  const int after = s->yielded;
  s->yielded = -1;
  if (after >= 0)
    for (unsigned j = 1; j <= s->nw; j++)
      if (runnable(s, ((unsigned)after + j) % s->nw)) return (int)(((unsigned)after + j) % s->nw);
  if (runnable(s, s->focus)) return (int)s->focus;
  for (unsigned k = 0; k < s->nw; k++)
    if (runnable(s, k)) return (int)k;
  return -1;
}

/* Run until the request is satisfied or something else stops the kernel (next_item's order). */
static void advance(dbg_session *s) {
  s->reason = DR_NONE;
  s->stop_bp = 0;
  s->stop_text.len = 0;
  s->stop_text.oom = false;
  for (;;) {
    if (ex_insp_fault(s->x, NULL, NULL)) {
      on_fault(s);
      return;
    }
    if (report_found(s)) return;
    const int wi = next_item(s);
    if (wi >= 0) {
      ex_insp_run(s->x, (unsigned)wi);
      if (ex_insp_fault(s->x, NULL, NULL)) {
        on_fault(s);
        return;
      }
      const ex_insp_state st = item_state(s, (unsigned)wi);
      if (st == EX_INSP_PAUSED) return;
      if (st == EX_INSP_READY) s->yielded = wi;
      if (report_found(s)) {
        s->focus = (unsigned)wi;
        return;
      }
      /* it finished or waits: changes made by its last instructions */
      if (!s->quiet && s->nwatch && check_watches(s, (unsigned)wi)) {
        s->focus = (unsigned)wi;
        s->frame = 0;
        return;
      }
      if (wi == s->step_warp && st == EX_INSP_DONE) {
        s->reason = DR_ITEM_DONE;
        s->focus = (unsigned)wi;
        s->frame = 0;
        return;
      }
      continue;
    }
    int r = ex_insp_sync(s->x);
    if (r == EX_INSP_FAULT) {
      on_fault(s);
      return;
    }
    if (r == EX_INSP_RELEASED) continue;
    ex_insp_end_group(s->x);
    if (s->group + 1 >= s->nd->group_end) {
      s->state = DS_FINISHED;
      s->reason = DR_KERNEL_DONE;
      return;
    }
    s->group++;
    start_group(s);
    if (s->mode == DM_GROUP) {
      s->reason = DR_GROUP_DONE;
      return;
    }
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

/* `finish`: the value the function returned, when the call before idx in fn has one. */
static void print_returned(dbg_session *s, uint32_t fn, uint32_t idx) {
  const ld_insn *call = idx > 0 ? dbg_insn_at(&s->sym, fn, idx - 1) : NULL;
  if (!call || call->opcode != SpvOpFunctionCall) return;
  dbg_arena arena = {0};
  char err[256];
  dbg_ctx c = {s, s->focus, 0, &arena, err, sizeof err};
  dbg_value v;
  if (dbg_id_value(&c, call->result, &v)) { /* fails for a void function: nothing to print */
    dbg_buf b = {0};
    dbg_bprintf(&b, "Value returned = ");
    dbg_format_value(s, &v, true, 0, &b);
    dbg_bprintf(&b, "\n");
    dbg_put_buf(s, &b);
  }
  dbg_arena_free(&arena);
}

/* After a step: where the focused work-item is now (the source line alone within the same frame). */
static void report_position(dbg_session *s, unsigned prev_focus, uint64_t prev_group, uint32_t prev_fn,
                            uint32_t prev_depth, int mode) {
  uint32_t fn, idx;
  if (!dbg_frame_pos(s, s->focus, 0, &fn, &idx)) return;
  const ld_insn *in = dbg_insn_at(&s->sym, fn, idx);
  bool same = fn == prev_fn && dbg_frame_count(s, s->focus) == prev_depth && s->focus == prev_focus &&
              s->group == prev_group;
  if (mode == DM_FINISH) {
    dbg_print_frame(s, s->focus, 0, true, false);
    print_returned(s, fn, idx);
  } else if (!same || !in->line) {
    dbg_print_frame(s, s->focus, 0, true, false);
  } else {
    print_source_line(s, in);
  }
  if (in->line && (mode == DM_STEPI || mode == DM_NEXTI)) {
    char text[512];
    dbg_insn_text(&s->sym, in, text, sizeof text);
    dbg_printf(s, "=> %s\n", text);
  }
}

/* What stopped the kernel, and where (gdb's phrasing). */
static void report_stop(dbg_session *s, unsigned prev_focus, uint64_t prev_group, uint32_t prev_fn, uint32_t prev_depth,
                        int mode) {
  spvi_report r;
  while (ex_insp_next_report(s->x, &r)) dbg_printf(s, "\nReport: %s\n", r.message);
  if (s->reason == DR_KERNEL_DONE) {
    uint64_t n = s->nd->group_end - s->nd->group_first;
    dbg_printf(s, "\n[kernel `%s` finished: %llu work-group%s]\n", s->sym.m->entries[s->nd->kernel].name,
               (unsigned long long)n, n == 1 ? "" : "s");
    return;
  }
  if (s->focus != prev_focus || s->group != prev_group) dbg_print_item(s, "[Switching to ", s->focus, "]\n");
  const bool have = dbg_frame_count(s, s->focus) > 0;
  switch (s->reason) {
  case DR_FAULT:
    dbg_printf(s, "\nFault: %s\n", s->fault.message);
    if (have) dbg_print_frame(s, s->focus, 0, true, false);
    break;
  case DR_ITEM_DONE: dbg_print_item(s, "[", s->focus, " finished the kernel]\n"); return;
  case DR_BREAK: {
    bool temp = false;
    for (unsigned i = 0; i < s->nbps; i++)
      if (s->bps[i].id == s->stop_bp && s->bps[i].temp) {
        temp = true;
        dbg_delete_bp(s, i);
        break;
      }
    dbg_printf(s, "\n%s %d, ", temp ? "Temporary breakpoint" : "Breakpoint", s->stop_bp);
    dbg_print_frame(s, s->focus, 0, true, false);
    break;
  }
  case DR_INTERRUPT:
    dbg_printf(s, "\nInterrupted.\n");
    if (have) dbg_print_frame(s, s->focus, 0, true, false);
    break;
  case DR_REPORT: /* its text is printed above (stop_text is empty) */
  case DR_WATCH:
  case DR_COND_ERROR:
    if (s->stop_text.len) s->out(s->user, s->stop_text.s, s->stop_text.len);
    s->oom |= s->stop_text.oom;
    if (have) dbg_print_frame(s, s->focus, 0, true, false);
    else
      dbg_printf(s, "(the work-item %s)\n",
                 item_state(s, s->focus) == EX_INSP_DONE ? "has finished" : "waits at a barrier");
    break;
  default: report_position(s, prev_focus, prev_group, prev_fn, prev_depth, mode); break;
  }
  dbg_do_displays(s);
}

void dbg_resume(dbg_session *s, int mode) {
  if (s->state == DS_FINISHED) {
    dbg_printf(s, "The kernel has finished.\n");
    return;
  }
  if (s->state == DS_FAULTED) {
    dbg_printf(s, "The kernel faulted; it cannot run further.\n");
    return;
  }
  if (mode != DM_CONTINUE && item_state(s, s->focus) == EX_INSP_DONE) {
    dbg_printf(s, "This work-item has finished the kernel (`continue` runs the others; `workitem` focuses another).\n");
    return;
  }
  const unsigned depth = dbg_frame_count(s, s->focus);
  uint32_t fn = LD_NONE, idx = 0;
  const bool have = dbg_frame_pos(s, s->focus, s->frame, &fn, &idx);
  if (mode == DM_FINISH) {
    if (!have || s->frame + 1 >= depth) {
      dbg_printf(s, "\"finish\" not meaningful in the outermost frame.\n");
      return;
    }
    dbg_printf(s, "Run till exit from ");
    dbg_print_frame(s, s->focus, s->frame, false, true);
  }
  s->step_depth = depth - s->frame;
  s->step_fn = have ? fn : LD_NONE;
  s->step_line = have ? dbg_insn_at(&s->sym, fn, idx)->line : 0;
  s->step_file = have ? dbg_insn_at(&s->sym, fn, idx)->file : 0;
  const unsigned prev_focus = s->focus;
  const uint64_t prev_group = s->group;
  uint32_t top_fn = LD_NONE, top_idx;
  if (!dbg_frame_pos(s, s->focus, 0, &top_fn, &top_idx)) top_fn = LD_NONE;
  s->list_valid = false;
  run_request(s, mode, false, mode == DM_CONTINUE ? -1 : (int)s->focus);
  report_stop(s, prev_focus, prev_group, top_fn, depth, mode);
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
      report_stop(s, s->focus, s->group, LD_NONE, 0, DM_CONTINUE);
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
  if (s->state == DS_STOPPED && item_state(s, warp) == EX_INSP_NOT_STARTED) {
    run_request(s, DM_START, true, (int)warp);
    if (s->reason != DR_STEP) {
      report_stop(s, warp, s->group, LD_NONE, 0, DM_CONTINUE);
      return s->state == DS_STOPPED;
    }
  }
  dbg_print_item(s, "[Switching to ", s->focus, "]\n");
  if (item_state(s, s->focus) == EX_INSP_DONE) dbg_printf(s, "The work-item has finished the kernel.\n");
  else dbg_print_frame(s, s->focus, 0, true, false);
  return true;
}

/* ---- the session -------------------------------------------------------------------------------- */

static void discard(void *user, const char *text, size_t len) {
  (void)user;
  (void)text;
  (void)len;
}

static void nomem(spvi_error *err, const char *what) {
  if (!err) return;
  err->status = SPVI_E_NOMEM;
  snprintf(err->message, sizeof err->message, "out of memory %s", what);
}

/* The per-function breakpoint rows, one byte per prepared instruction; false when out of memory. */
static bool make_bp_map(dbg_session *s) {
  const uint32_t n = s->sym.m->nfuncs;
  s->bp_map = calloc(n + 1, sizeof *s->bp_map);
  for (uint32_t f = 0; s->bp_map && f < n; f++)
    if (!(s->bp_map[f] = calloc(ex_insp_code_count(s->x, f) + 1, 1))) return false;
  return s->bp_map != NULL;
}

/* The first words of a session and its first stop. */
static void first_stop(dbg_session *s) {
  const ex_insp_range *l = s->nd;
  const uint64_t groups = l->group_end - l->group_first, items = l->local[0] * l->local[1] * l->local[2];
  dbg_printf(s, "Kernel `%s`: %llu work-group%s of %llu work-item%s (global %llu,%llu,%llu local %llu,%llu,%llu)%s\n",
             s->sym.m->entries[l->kernel].name, (unsigned long long)groups, groups == 1 ? "" : "s",
             (unsigned long long)items, items == 1 ? "" : "s", (unsigned long long)l->global[0],
             (unsigned long long)l->global[1], (unsigned long long)l->global[2], (unsigned long long)l->local[0],
             (unsigned long long)l->local[1], (unsigned long long)l->local[2],
             s->sym.any_lines ? "" : "; no source line information: stepping is by SPIR-V instruction");
  run_request(s, DM_START, true, 0);
  if (s->reason == DR_STEP) {
    dbg_print_item(s, "Stopped at ", s->focus, "\n");
    dbg_print_frame(s, s->focus, 0, true, false);
  } else {
    report_stop(s, 0, l->group_first, LD_NONE, 0, DM_CONTINUE);
  }
}

dbg_session *dbg_session_new(spvi_launch *l, const spvi_run_options *opts, void (*out)(void *, const char *, size_t),
                             void *user, spvi_error *err) {
  if (err) {
    err->status = SPVI_OK;
    err->message[0] = 0;
  }
  dbg_session *s = calloc(1, sizeof *s);
  if (!s) {
    nomem(err, "starting the debugger");
    return NULL;
  }
  s->x = ex_insp_new(l, opts, pause_here, s, err);
  if (!s->x) {
    free(s);
    return NULL;
  }
  s->nd = ex_insp_range_of(s->x);
  s->out = out ? out : discard;
  s->user = user;
  s->step_warp = -1;
  s->yielded = -1;
  s->next_bp = 1;
  s->next_display = 1;
  if (!dbg_syms_build(&s->sym, s->x) || !make_bp_map(s)) {
    nomem(err, "reading the module's symbols for the debugger");
    dbg_session_free(s);
    return NULL;
  }
  s->group = s->nd->group_first;
  start_group(s);
  first_stop(s);
  dbg_update_prompt(s);
  return s;
}

void dbg_session_free(dbg_session *s) {
  if (!s) return;
  while (s->nbps) dbg_delete_bp(s, s->nbps - 1);
  free(s->bps);
  for (unsigned i = 0; i < s->ndisplays; i++) {
    free(s->displays[i].text);
    dbg_expr_free(s->displays[i].e);
  }
  free(s->displays);
  for (uint32_t f = 0; s->bp_map && f < s->sym.m->nfuncs; f++) free(s->bp_map[f]);
  free(s->bp_map);
  dbg_syms_free(&s->sym);
  dbg_buf_free(&s->stop_text);
  ex_insp_free(s->x);
  free(s);
}
