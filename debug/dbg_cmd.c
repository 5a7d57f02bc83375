/*
 * dbg_cmd.c — the debugger's commands, one table: gdb's names, abbreviations (any unique
 * prefix, plus gdb's aliases such as c, s, n, p, bt) and output formats where gdb has them.
 *
 * Owns: parsing command lines, breakpoint locations (FILE:LINE, LINE, function name, %ID), the
 * watchpoint kinds (a place in memory, or an expression of one work-item), `list` (source lines, or
 * the disassembly without line information), `x` (memory in any address space), `info` and its
 * sub-commands, and focus changes (`workitem`, `workgroup`, `frame`).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

typedef void (*cmd_fn)(dbg_session *s, const char *args, const char *fmt);

typedef struct dbg_cmd {
  const char *name;
  const char *aliases; /* gdb's short forms, comma-separated, or "" */
  cmd_fn fn;
  const char *usage;
  const char *help;
} dbg_cmd;

/* A copy of s; NULL after saying so when out of memory. */
static char *copy_text(dbg_session *s, const char *text) {
  char *d = dbg_strndup(text, strlen(text));
  if (!d) dbg_printf(s, "Out of memory.\n");
  return d;
}

static const char *skip_ws(const char *p) {
  while (isspace((unsigned char)*p)) p++;
  return p;
}

/* Parse "N[,N[,N]]" (commas or spaces): returns the count, -1 on a bad number. */
static int parse_triple(const char *p, uint64_t v[3]) {
  int n = 0;
  p = skip_ws(p);
  while (*p) {
    if (n == 3 || !isdigit((unsigned char)*p)) return -1;
    char *e;
    v[n++] = strtoull(p, &e, 0);
    p = skip_ws(e);
    if (*p == ',') p = skip_ws(p + 1);
  }
  return n;
}

/* A non-negative number, or -1. */
static long parse_count(const char *p) {
  p = skip_ws(p);
  if (!*p) return -1;
  char *e;
  long v = strtol(p, &e, 10);
  if (*skip_ws(e) || v < 0) return -1;
  return v;
}

/* Focused frame's function and ld instruction, false when the work-item has finished. */
static bool here(dbg_session *s, uint32_t *fn, uint32_t *idx, const ld_insn **in) {
  if (!dbg_frame_pos(s, s->focus, s->frame, fn, idx)) return false;
  if (in) *in = dbg_insn_at(&s->sym, *fn, *idx);
  return true;
}

static void print_value_line(dbg_session *s, const char *label, const dbg_value *v, char fmt) {
  dbg_buf b = {0};
  dbg_bprintf(&b, "%s = ", label);
  dbg_format_value(s, v, true, fmt, &b);
  dbg_bprintf(&b, "\n");
  dbg_put_buf(s, &b);
}

/* ---- breakpoints ------------------------------------------------------------------------------ */

/* First prepared instruction of each function on source line `line` of files matching `file` (NULL:
 * any). */
static uint32_t line_locs(dbg_session *s, const char *file, uint32_t line, struct dbg_bploc *out, uint32_t cap) {
  uint32_t n = 0;
  for (uint32_t f = 0; f < s->sym.m->nfuncs && n < cap; f++) {
    const uint32_t ncode = ex_insp_code_count(s->x, f);
    for (uint32_t i = 0; i < ncode; i++) {
      const ld_insn *in = dbg_insn_at(&s->sym, f, i);
      if (in->line != line || (file && !dbg_file_matches(&s->sym, in->file, file))) continue;
      out[n++] = (struct dbg_bploc){f, i};
      break;
    }
  }
  return n;
}

static uint32_t max_line(dbg_session *s) {
  uint32_t mx = 0;
  for (uint32_t f = 0; f < s->sym.m->nfuncs; f++)
    for (uint32_t i = 0, n = ex_insp_code_count(s->x, f); i < n; i++) {
      uint32_t l = dbg_insn_at(&s->sym, f, i)->line;
      if (l > mx) mx = l;
    }
  return mx;
}

/* The first source file of the module's code (0: none). */
static uint32_t any_file(dbg_session *s, const char *spec) {
  for (uint32_t f = 0; f < s->sym.m->nfuncs; f++)
    for (uint32_t i = 0, n = ex_insp_code_count(s->x, f); i < n; i++) {
      uint32_t fl = dbg_insn_at(&s->sym, f, i)->file;
      if (fl && (!spec || dbg_file_matches(&s->sym, fl, spec))) return fl;
    }
  return 0;
}

/* The prepared instruction for SPIR-V id `id`: the instruction defining it (or the first one after
 * it in its block that does something), a block's first, a function's first past its prologue. */
static bool id_loc(dbg_session *s, uint32_t id, struct dbg_bploc *out) {
  const ld_module *m = s->sym.m;
  if (id == 0 || id >= m->bound) return false;
  const ld_id *e = &m->ids[id];
  uint32_t first, count;
  if (e->kind == LD_ID_FUNCTION) {
    if (ex_insp_code_count(s->x, e->index) == 0) return false;
    *out = (struct dbg_bploc){e->index, s->sym.funcs[e->index].body_start};
    return true;
  }
  if (e->kind == LD_ID_LABEL) {
    for (uint32_t f = 0; f < m->nfuncs; f++)
      if (e->index < m->funcs[f].nblocks && m->funcs[f].blocks[e->index].label == id) {
        ex_insp_block_code(s->x, f, e->index, &first, &count);
        *out = (struct dbg_bploc){f, first};
        return true;
      }
    return false;
  }
  if (e->kind != LD_ID_VALUE) return false;
  const ld_function *lf = &m->funcs[e->index];
  for (uint32_t b = 0; b < lf->nblocks; b++) {
    const ld_block *lb = &lf->blocks[b];
    if (e->insn < lb->first || e->insn >= lb->first + lb->count) continue;
    ex_insp_block_code(s->x, e->index, b, &first, &count);
    for (uint32_t i = first; i < first + count; i++)
      if (ex_insp_code_src(s->x, e->index, i) >= e->insn) {
        *out = (struct dbg_bploc){e->index, i};
        return true;
      }
  }
  return false;
}

/* Resolve a location into b->locs; writes how to show it into desc. */
static bool resolve_location(dbg_session *s, const char *spec, dbg_bp *b, char *desc, size_t cap) {
  struct dbg_bploc locs[64];
  uint32_t n = 0;
  uint32_t fn, idx;
  const ld_insn *in;
  if (!*spec) {
    if (!here(s, &fn, &idx, &in)) {
      dbg_printf(s, "No default breakpoint location: the work-item has finished.\n");
      return false;
    }
    locs[n++] = (struct dbg_bploc){fn, idx};
  } else if (spec[0] == '%') {
    bool digits = spec[1] != 0;
    for (const char *p = spec + 1; *p; p++) digits = digits && isdigit((unsigned char)*p);
    uint32_t id = digits ? (uint32_t)strtoul(spec + 1, NULL, 10) : dbg_id_by_name(&s->sym, spec + 1);
    if (!id_loc(s, id, &locs[0])) {
      dbg_printf(s, "%s is not an instruction, block or function of the module.\n", spec);
      return false;
    }
    n = 1;
  } else {
    const char *colon = strrchr(spec, ':');
    bool all_digits = true;
    for (const char *p = spec; *p; p++) all_digits = all_digits && isdigit((unsigned char)*p);
    const char *line_text = all_digits ? spec : colon ? colon + 1 : NULL;
    bool line_digits = line_text && *line_text;
    for (const char *p = line_text; line_digits && *p; p++) line_digits = isdigit((unsigned char)*p);
    if (line_digits) {
      if (!s->sym.any_lines) {
        dbg_printf(s, "The module has no source line information; use %%ID or a function name.\n");
        return false;
      }
      char file[512] = "";
      if (!all_digits) snprintf(file, sizeof file, "%.*s", (int)(colon - spec), spec);
      else if (here(s, &fn, &idx, &in) && in->line)
        snprintf(file, sizeof file, "%s", dbg_file_name(&s->sym, in->file, false));
      uint32_t line = (uint32_t)strtoul(line_text, NULL, 10), last = max_line(s);
      /* a line without code: the next one that has some, as gdb does */
      for (uint32_t l = line; l <= last && !n; l++) {
        n = line_locs(s, file[0] ? file : NULL, l, locs, 64);
        line = l;
      }
      if (!n) {
        dbg_printf(s, "No line %s in %s.\n", line_text, file[0] ? file : "the module");
        return false;
      }
    } else {
      for (int pass = 0; pass < 2 && !n; pass++) /* source names first, then kernel entry points */
        for (uint32_t f = 0; f < s->sym.m->nfuncs && n < 64; f++) {
          const dbg_func *df = &s->sym.funcs[f];
          if (!df->name || strcmp(df->name, spec) != 0 || df->is_entry_wrapper != (pass == 1) ||
              !ex_insp_code_count(s->x, f))
            continue;
          locs[n++] = (struct dbg_bploc){f, df->body_start};
        }
      if (!n) {
        dbg_printf(s, "Function \"%s\" not defined.\n", spec);
        return false;
      }
    }
  }
  b->locs = malloc(n * sizeof *b->locs);
  if (!b->locs) {
    dbg_printf(s, "Out of memory.\n");
    return false;
  }
  memcpy(b->locs, locs, n * sizeof *locs);
  b->nlocs = n;
  in = dbg_insn_at(&s->sym, locs[0].fn, locs[0].idx);
  if (in->line) {
    snprintf(desc, cap, "%s:%u", dbg_file_name(&s->sym, in->file, true), in->line);
  } else {
    char text[256];
    dbg_insn_text(&s->sym, in, text, sizeof text);
    snprintf(desc, cap, "`%s`", text);
  }
  return true;
}

/* Room for one more breakpoint, not counted yet (s->nbps++ adds it); NULL after saying so when out
 * of memory. */
static dbg_bp *new_bp(dbg_session *s) {
  if (s->nbps == s->capbps) {
    unsigned cap = s->capbps ? s->capbps * 2 : 8;
    dbg_bp *bps = realloc(s->bps, cap * sizeof *bps);
    if (!bps) {
      dbg_printf(s, "Out of memory.\n");
      return NULL;
    }
    s->bps = bps;
    s->capbps = cap;
  }
  dbg_bp *b = &s->bps[s->nbps];
  memset(b, 0, sizeof *b);
  b->enabled = true;
  b->bound_warp = -1;
  b->bound_group = UINT64_MAX;
  return b;
}

static void add_break(dbg_session *s, const char *args, bool temp) {
  char spec[512];
  const char *cond = NULL;
  /* LOCATION [if EXPR] */
  const char *p = skip_ws(args);
  size_t k = 0;
  while (p[k] && !isspace((unsigned char)p[k])) k++;
  snprintf(spec, sizeof spec, "%.*s", (int)k, p);
  if (strcmp(spec, "if") == 0) {
    spec[0] = 0;
    k = 0;
  }
  const char *rest = skip_ws(p + k);
  if (strncmp(rest, "if", 2) == 0 && (isspace((unsigned char)rest[2]) || rest[2] == '(' || !rest[2]))
    cond = skip_ws(rest + 2);
  else if (*rest) {
    dbg_printf(s, "Junk at end of arguments: `%s'.\n", rest);
    return;
  }
  dbg_bp *b = new_bp(s);
  char desc[600];
  if (!b) return;
  if (cond) {
    char err[256];
    if (!*cond) {
      dbg_printf(s, "Argument required (boolean expression).\n");
      return;
    }
    b->cond = dbg_parse(cond, err, sizeof err);
    if (!b->cond) {
      dbg_printf(s, "%s\n", err);
      return;
    }
  }
  if (!resolve_location(s, spec, b, desc, sizeof desc)) {
    dbg_expr_free(b->cond);
    return;
  }
  b->id = s->next_bp++;
  b->temp = temp;
  s->nbps++;
  b->text = copy_text(s, desc);
  b->cond_text = cond ? copy_text(s, cond) : NULL;
  if (!b->text || (cond && !b->cond_text)) {
    dbg_delete_bp(s, s->nbps - 1);
    return;
  }
  dbg_rebuild_bp_map(s);
  dbg_printf(s, "%s %d at %s", temp ? "Temporary breakpoint" : "Breakpoint", b->id, desc);
  if (!dbg_insn_at(&s->sym, b->locs[0].fn, b->locs[0].idx)->line) {
    char nb[128];
    dbg_printf(s, " in %s", dbg_func_name(&s->sym, b->locs[0].fn, nb, sizeof nb));
  }
  if (b->nlocs > 1) dbg_printf(s, " (%u locations)", b->nlocs);
  dbg_printf(s, "\n");
}

static void cmd_break(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  add_break(s, args, false);
}
static void cmd_tbreak(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  add_break(s, args, true);
}

/* Where watchpoint b watches the value v: a place in memory, which any work-item that changes it
 * triggers (private memory belongs to this work-item, local memory to this work-group), or a
 * computed value, re-evaluated for this work-item (b takes e then). */
static void watch_where(dbg_session *s, dbg_bp *b, const dbg_value *v, dbg_expr **e) {
  uint32_t alloc;
  int64_t off;
  ex_insp_alloc a;
  if (v->lval && ex_insp_ptr_alloc(s->x, v->addr, &alloc, &off) && off >= 0 && ex_insp_alloc_get(s->x, alloc, &a)) {
    b->in_memory = true;
    b->alloc = alloc;
    b->off = (uint64_t)off;
    if (a.space == SPVI_AS_PRIVATE) {
      b->bound_warp = (int)s->focus;
      b->bound_group = s->group;
    } else if (a.space == SPVI_AS_LOCAL) b->bound_group = s->group;
    return;
  }
  b->expr = *e;
  *e = NULL;
  b->bound_warp = (int)s->focus;
  b->bound_group = s->group;
}

static void cmd_watch(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  char err[256];
  if (!*args) {
    dbg_printf(s, "Argument required (expression to compute).\n");
    return;
  }
  if (s->state == DS_FINISHED) {
    dbg_printf(s, "The kernel has finished.\n");
    return;
  }
  dbg_expr *e = dbg_parse(args, err, sizeof err);
  if (!e) {
    dbg_printf(s, "%s\n", err);
    return;
  }
  dbg_arena arena = {0};
  dbg_ctx c = {s, s->focus, s->frame, &arena, err, sizeof err};
  dbg_value v;
  dbg_bp *b = NULL;
  if (!dbg_eval(&c, e, &v)) dbg_printf(s, "%s\n", err);
  else b = new_bp(s);
  if (b) {
    b->is_watch = true;
    b->type = v.t;
    b->size = v.t->size;
    watch_where(s, b, &v, &e);
    b->id = s->next_bp++;
    s->nbps++;
    b->text = copy_text(s, args);
    b->old = malloc(b->size + 1);
    if (!b->text || !b->old) {
      if (b->text) dbg_printf(s, "Out of memory.\n");
      dbg_delete_bp(s, s->nbps - 1);
      b = NULL;
    }
  }
  if (b) {
    memcpy(b->old, v.bytes, b->size);
    b->old_valid = true;
    dbg_rebuild_bp_map(s);
    dbg_printf(s, "Watchpoint %d: %s", b->id, b->text);
    if (b->bound_warp >= 0) {
      uint64_t gid[3], lid[3];
      ex_insp_item_ids(s->x, s->focus, gid, lid);
      dbg_printf(s, " (in work-item global (%llu,%llu,%llu))", (unsigned long long)gid[0], (unsigned long long)gid[1],
                 (unsigned long long)gid[2]);
    } else if (b->bound_group != UINT64_MAX) {
      dbg_printf(s, " (local memory of this work-group)");
    }
    dbg_printf(s, "\n");
  }
  dbg_expr_free(e);
  dbg_arena_free(&arena);
}

/* Apply fn to the breakpoints named in args (all when empty). */
static void for_bps(dbg_session *s, const char *args, void (*fn)(dbg_session *, unsigned)) {
  const char *p = skip_ws(args);
  if (!*p) {
    for (unsigned i = s->nbps; i-- > 0;) fn(s, i);
    return;
  }
  while (*p) {
    char *e;
    long id = strtol(p, &e, 10);
    if (e == p) {
      dbg_printf(s, "Convenience variables and ranges are not supported: `%s'.\n", p);
      return;
    }
    bool found = false;
    for (unsigned i = 0; i < s->nbps; i++)
      if (s->bps[i].id == id) {
        fn(s, i);
        found = true;
        break;
      }
    if (!found) dbg_printf(s, "No breakpoint number %ld.\n", id);
    p = skip_ws(e);
  }
}

static void dis_one(dbg_session *s, unsigned i) {
  s->bps[i].enabled = false;
  dbg_rebuild_bp_map(s);
}
static void en_one(dbg_session *s, unsigned i) {
  s->bps[i].enabled = true;
  dbg_rebuild_bp_map(s);
}

static void cmd_delete(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  for_bps(s, args, dbg_delete_bp);
}
static void cmd_disable(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  for_bps(s, args, dis_one);
}
static void cmd_enable(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  for_bps(s, args, en_one);
}

/* ---- running ---------------------------------------------------------------------------------- */

/* `step N`: repeat, stopping early when something other than the step stopped it. */
static void repeat_resume(dbg_session *s, const char *args, int mode) {
  long n = *skip_ws(args) ? parse_count(args) : 1;
  if (n < 1) {
    dbg_printf(s, "Invalid count `%s'.\n", args);
    return;
  }
  for (long i = 0; i < n; i++) {
    dbg_resume(s, mode);
    if (s->state != DS_STOPPED || (s->reason != DR_STEP && mode != DM_CONTINUE)) break;
  }
}
static void cmd_continue(dbg_session *s, const char *a, const char *f) {
  (void)f;
  (void)a;
  dbg_resume(s, DM_CONTINUE);
}
static void cmd_step(dbg_session *s, const char *a, const char *f) {
  (void)f;
  repeat_resume(s, a, DM_STEP);
}
static void cmd_next(dbg_session *s, const char *a, const char *f) {
  (void)f;
  repeat_resume(s, a, DM_NEXT);
}
static void cmd_stepi(dbg_session *s, const char *a, const char *f) {
  (void)f;
  repeat_resume(s, a, DM_STEPI);
}
static void cmd_nexti(dbg_session *s, const char *a, const char *f) {
  (void)f;
  repeat_resume(s, a, DM_NEXTI);
}
static void cmd_finish(dbg_session *s, const char *a, const char *f) {
  (void)f;
  (void)a;
  dbg_resume(s, DM_FINISH);
}

/* ---- values ------------------------------------------------------------------------------------ */

static bool eval_text(dbg_session *s, const char *text, dbg_arena *arena, dbg_value *v) {
  char err[512];
  if (!*text) {
    dbg_printf(s, "Argument required (expression to compute).\n");
    return false;
  }
  dbg_expr *e = dbg_parse(text, err, sizeof err);
  if (!e) {
    dbg_printf(s, "%s\n", err);
    return false;
  }
  dbg_ctx c = {s, s->focus, s->frame, arena, err, sizeof err};
  bool ok = dbg_eval(&c, e, v);
  dbg_expr_free(e);
  if (!ok) dbg_printf(s, "%s\n", err);
  return ok;
}

static char value_format(dbg_session *s, const char *fmt) {
  if (!fmt || !*fmt) return 0;
  if (strlen(fmt) == 1 && strchr("xdu", fmt[0])) return fmt[0];
  dbg_printf(s, "Undefined output format \"%s\" (print knows /x, /d and /u).\n", fmt);
  return -1;
}

static void cmd_print(dbg_session *s, const char *args, const char *fmt) {
  char f = value_format(s, fmt);
  if (f < 0) return;
  dbg_arena arena = {0};
  dbg_value v;
  if (eval_text(s, args, &arena, &v)) print_value_line(s, args, &v, f);
  dbg_arena_free(&arena);
}

static void cmd_display(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  if (!*args) {
    dbg_do_displays(s);
    return;
  }
  char err[256];
  dbg_expr *e = dbg_parse(args, err, sizeof err);
  if (!e) {
    dbg_printf(s, "%s\n", err);
    return;
  }
  if (s->ndisplays == s->capdisplays) {
    unsigned cap = s->capdisplays ? s->capdisplays * 2 : 4;
    dbg_display *ds = realloc(s->displays, cap * sizeof *ds);
    if (!ds) {
      dbg_printf(s, "Out of memory.\n");
      dbg_expr_free(e);
      return;
    }
    s->displays = ds;
    s->capdisplays = cap;
  }
  char *text = copy_text(s, args);
  if (!text) {
    dbg_expr_free(e);
    return;
  }
  dbg_display *d = &s->displays[s->ndisplays++];
  d->id = s->next_display++;
  d->text = text;
  d->e = e;
  /* show it once now, as gdb does */
  dbg_arena arena = {0};
  dbg_ctx c = {s, s->focus, s->frame, &arena, err, sizeof err};
  dbg_value v;
  dbg_buf b = {0};
  dbg_bprintf(&b, "%d: %s = ", d->id, d->text);
  if (dbg_eval(&c, e, &v)) dbg_format_value(s, &v, true, 0, &b);
  else dbg_bprintf(&b, "<error: %s>", err);
  dbg_bprintf(&b, "\n");
  dbg_put_buf(s, &b);
  dbg_arena_free(&arena);
}

static void cmd_undisplay(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  const char *p = skip_ws(args);
  if (!*p) {
    for (unsigned i = 0; i < s->ndisplays; i++) {
      free(s->displays[i].text);
      dbg_expr_free(s->displays[i].e);
    }
    s->ndisplays = 0;
    return;
  }
  while (*p) {
    char *e;
    long id = strtol(p, &e, 10);
    if (e == p) {
      dbg_printf(s, "Arguments must be display numbers.\n");
      return;
    }
    bool found = false;
    for (unsigned i = 0; i < s->ndisplays; i++)
      if (s->displays[i].id == id) {
        free(s->displays[i].text);
        dbg_expr_free(s->displays[i].e);
        memmove(&s->displays[i], &s->displays[i + 1], (s->ndisplays - i - 1) * sizeof *s->displays);
        s->ndisplays--;
        found = true;
        break;
      }
    if (!found) dbg_printf(s, "No display number %ld.\n", id);
    p = skip_ws(e);
  }
}

/* A declaration as C spells it: "int arr[4]", "global float *p", "pair p". */
static void decl_text(const dbg_type *t, const char *name, dbg_buf *b) {
  char suffix[96], tn[200];
  dbg_type_name(dbg_array_dims(t, suffix, sizeof suffix), tn, sizeof tn);
  size_t l = strlen(tn);
  dbg_bprintf(b, "%s%s%s%s", tn, l && tn[l - 1] == '*' ? "" : " ", name, suffix);
}

/* The type the text names ("pair", "struct pair", "uint", "float4": any type the module or a
 * session uses, as dbg_type_name spells it), NULL when none. */
static const dbg_type *type_named(dbg_session *s, const char *text) {
  text = skip_ws(text);
  const bool tagged = strncmp(text, "struct ", 7) == 0;
  if (tagged) text = skip_ws(text + 7);
  size_t n = strlen(text);
  while (n && isspace((unsigned char)text[n - 1])) n--;
  for (const dbg_type *t = s->sym.types; t && n; t = t->next) {
    char tn[200];
    dbg_type_name(t, tn, sizeof tn);
    if (strlen(tn) == n && strncmp(tn, text, n) == 0 && (!tagged || t->kind == DK_STRUCT)) return t;
  }
  return NULL;
}

/* whatis EXPR|TYPE: the type's name; ptype EXPR|TYPE: the type with the struct under arrays and
 * pointers spelled out member by member, as gdb prints them. */
static void show_type(dbg_session *s, const char *args, bool expand) {
  dbg_arena arena = {0};
  dbg_value v;
  v.t = type_named(s, args);
  if (!v.t && !eval_text(s, args, &arena, &v)) {
    dbg_arena_free(&arena);
    return;
  }
  const dbg_type *t = v.t, *base = t;
  while (expand && base && (base->kind == DK_ARRAY || base->kind == DK_POINTER) && !base->name) base = base->elem;
  dbg_buf b = {0};
  char tn[200];
  if (!expand || !base || base->kind != DK_STRUCT) {
    dbg_type_name(t, tn, sizeof tn);
    dbg_bprintf(&b, "type = %s\n", tn);
  } else {
    dbg_bprintf(&b, "type = struct %s%s{\n", base->name ? base->name : "", base->name ? " " : "");
    for (uint32_t i = 0; i < base->count; i++) {
      dbg_bprintf(&b, "    ");
      decl_text(base->members[i], base->mnames[i], &b);
      dbg_bprintf(&b, ";\n");
    }
    dbg_bprintf(&b, "}");
    /* what the struct sits under, outermost first: "} [2][3]", "} global *" */
    for (const dbg_type *u = t; u != base;) {
      char dims[96];
      if (u->kind == DK_ARRAY) {
        u = dbg_array_dims(u, dims, sizeof dims);
        dbg_bprintf(&b, " %s", dims);
      } else {
        dbg_bprintf(&b, " %s *", dbg_space_name(u->space));
        u = u->elem;
      }
    }
    dbg_bprintf(&b, "\n");
  }
  dbg_put_buf(s, &b);
  dbg_arena_free(&arena);
}

static void cmd_whatis(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  show_type(s, args, false);
}

static void cmd_ptype(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  show_type(s, args, true);
}

/* x/NFU ADDRESS: N units of U bytes (b h w g), shown as F (x d u o t f c). */
static void cmd_x(dbg_session *s, const char *args, const char *fmt) {
  unsigned long count = 1;
  char f = 0, u = 0;
  for (const char *p = fmt ? fmt : ""; *p;) {
    if (isdigit((unsigned char)*p)) {
      count = strtoul(p, (char **)&p, 10);
      continue;
    }
    if (strchr("xduotfc", *p)) f = *p;
    else if (strchr("bhwg", *p)) u = *p;
    else {
      dbg_printf(s, "Invalid format letter '%c' (x knows x d u o t f c and the sizes b h w g).\n", *p);
      return;
    }
    p++;
  }
  if (count == 0 || count > 65536) {
    dbg_printf(s, "Invalid count %lu.\n", count);
    return;
  }
  dbg_arena arena = {0};
  dbg_value v;
  if (!eval_text(s, args, &arena, &v)) {
    dbg_arena_free(&arena);
    return;
  }
  uint64_t addr;
  const dbg_type *elem = NULL;
  if (v.t->kind == DK_POINTER) {
    addr = 0;
    memcpy(&addr, v.bytes, v.t->size); /* 4 or 8 bytes: the addressing model */
    elem = v.t->elem;
  } else if (v.lval) {
    addr = v.addr;
    elem = v.t;
  } else if (v.t->kind == DK_INT) {
    addr = 0;
    memcpy(&addr, v.bytes, v.t->size);
  } else {
    dbg_printf(s, "x needs an address: a pointer, an object in memory or an integer.\n");
    dbg_arena_free(&arena);
    return;
  }
  /* defaults from the pointed-to type */
  while (elem && (elem->kind == DK_ARRAY || elem->kind == DK_VECTOR)) elem = elem->elem;
  if (elem && elem->kind != DK_INT && elem->kind != DK_FLOAT && elem->kind != DK_BOOL && elem->kind != DK_POINTER)
    elem = NULL; /* structs, void: words */
  if (!u)
    u = f == 'c'                  ? 'b'
        : elem && elem->size == 1 ? 'b'
        : elem && elem->size == 2 ? 'h'
        : elem && elem->size == 8 ? 'g'
                                  : 'w';
  if (!f) f = elem && elem->kind == DK_FLOAT ? 'f' : elem && elem->kind == DK_INT && elem->is_signed ? 'd' : 'x';
  const unsigned size = u == 'b' ? 1 : u == 'h' ? 2 : u == 'w' ? 4 : 8;
  if (f == 'f' && size == 1) {
    dbg_printf(s, "Floats are 2, 4 or 8 bytes.\n");
    dbg_arena_free(&arena);
    return;
  }
  char why[256];
  uint8_t *m = dbg_mem(s, s->focus, addr, (uint64_t)count * size, why, sizeof why);
  if (!m) {
    dbg_printf(s, "%s\n", why);
    dbg_arena_free(&arena);
    return;
  }
  const unsigned per_line = size == 8 ? 2 : size == 4 ? 4 : 8;
  dbg_buf b = {0};
  for (unsigned long i = 0; i < count; i++) {
    if (i % per_line == 0) {
      char d[200];
      dbg_describe_ptr(s, addr + i * size, d, sizeof d);
      dbg_bprintf(&b, "%s<%s>:", i ? "\n" : "", d);
    }
    uint64_t x = 0;
    memcpy(&x, m + i * size, size);
    int64_t sx = size == 8   ? (int64_t)x
                 : size == 4 ? (int64_t)(int32_t)(uint32_t)x
                 : size == 2 ? (int16_t)x
                             : (int8_t)x;
    switch (f) {
    case 'x': dbg_bprintf(&b, "\t0x%0*llx", (int)size * 2, (unsigned long long)x); break;
    case 'd': dbg_bprintf(&b, "\t%lld", (long long)sx); break;
    case 'u': dbg_bprintf(&b, "\t%llu", (unsigned long long)x); break;
    case 'o': dbg_bprintf(&b, "\t0%llo", (unsigned long long)x); break;
    case 'c': dbg_bprintf(&b, "\t%d '%c'", (int)(int8_t)x, isprint((int)x) ? (int)x : '.'); break;
    case 't': {
      char bits[65];
      for (unsigned k = 0; k < size * 8; k++) bits[k] = (char)('0' + ((x >> (size * 8 - 1 - k)) & 1));
      bits[size * 8] = 0;
      dbg_bprintf(&b, "\t%s", bits);
      break;
    }
    default: {
      dbg_value one = {dbg_scalar_type(&s->sym, DK_FLOAT, size * 8, false), m + i * size, false, 0};
      dbg_bprintf(&b, "\t");
      dbg_format_value(s, &one, false, 0, &b);
      break;
    }
    }
  }
  dbg_bprintf(&b, "\n");
  dbg_put_buf(s, &b);
  dbg_arena_free(&arena);
}

/* ---- frames ----------------------------------------------------------------------------------- */

static void cmd_backtrace(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  unsigned n = dbg_frame_count(s, s->focus);
  long limit = *skip_ws(args) ? parse_count(args) : -1;
  if (!n) {
    dbg_printf(s, "No stack: the work-item has finished the kernel.\n");
    return;
  }
  for (unsigned k = 0; k < n && (limit < 0 || (long)k < limit); k++) dbg_print_frame(s, s->focus, k, false, true);
}

static void select_frame(dbg_session *s, long k) {
  unsigned n = dbg_frame_count(s, s->focus);
  if (!n) {
    dbg_printf(s, "No stack: the work-item has finished the kernel.\n");
    return;
  }
  if (k < 0) {
    dbg_printf(s, "Bottom (innermost) frame selected; you cannot go down.\n");
    return;
  }
  if ((unsigned long)k >= n) {
    dbg_printf(s, "Initial frame selected; you cannot go up.\n");
    return;
  }
  s->frame = (unsigned)k;
  s->list_valid = false;
  dbg_print_frame(s, s->focus, s->frame, true, true);
}

static void cmd_frame(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  if (!*skip_ws(args)) {
    select_frame(s, s->frame);
    return;
  }
  long k = parse_count(args);
  if (k < 0) {
    dbg_printf(s, "Invalid frame number `%s'.\n", args);
    return;
  }
  select_frame(s, k);
}
static void cmd_up(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  long k = *skip_ws(args) ? parse_count(args) : 1;
  if (k < 0) {
    dbg_printf(s, "Invalid count `%s'.\n", args);
    return;
  }
  select_frame(s, (long)s->frame + k);
}
static void cmd_down(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  long k = *skip_ws(args) ? parse_count(args) : 1;
  if (k < 0) {
    dbg_printf(s, "Invalid count `%s'.\n", args);
    return;
  }
  select_frame(s, (long)s->frame - k);
}

/* ---- list and disassemble --------------------------------------------------------------------- */

static void list_lines(dbg_session *s, uint32_t file, uint32_t first, uint32_t last) {
  const dbg_src *src = dbg_source(&s->sym, file);
  if (!src) {
    dbg_printf(s, "%u\tin %s (the file cannot be read)\n", first, dbg_file_name(&s->sym, file, false));
    return;
  }
  if (first < 1) first = 1;
  if (first > src->nlines) {
    dbg_printf(s, "Line number %u out of range; \"%s\" has %u lines.\n", first, dbg_file_name(&s->sym, file, false),
               src->nlines);
    return;
  }
  if (last > src->nlines) last = src->nlines;
  for (uint32_t l = first; l <= last; l++) dbg_printf(s, "%u\t%s\n", l, src->lines[l - 1]);
  s->list_file = file;
  s->list_next = last + 1;
  s->list_valid = true;
}

static void list_dis(dbg_session *s, int first, int mark) {
  dbg_syms *y = &s->sym;
  if (dbg_dis_line(y, 5) < 0 && !y->ndis) {
    dbg_printf(s, "No disassembly available.\n");
    return;
  }
  if (first < 0) first = 0;
  if ((uint32_t)first >= y->ndis) {
    dbg_printf(s, "Line number %d out of range.\n", first);
    return;
  }
  for (int k = first; k < first + 10 && (uint32_t)k < y->ndis; k++)
    dbg_printf(s, "%s %s\n", k == mark ? "=>" : "  ", y->dis_lines[k]);
  s->list_dis_next = first + 10;
  s->list_file = 0;
  s->list_valid = true;
}

static void cmd_list(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  uint32_t fn, idx;
  const ld_insn *in = NULL;
  bool have = here(s, &fn, &idx, &in);
  const char *a = skip_ws(args);
  if (!*a) {
    if (s->list_valid) {
      if (s->list_file) list_lines(s, s->list_file, s->list_next, s->list_next + 9);
      else list_dis(s, s->list_dis_next, -1);
      return;
    }
    if (have && in->line) {
      list_lines(s, in->file, in->line > 5 ? in->line - 5 : 1, (in->line > 5 ? in->line - 5 : 1) + 9);
      return;
    }
    if (!have) {
      dbg_printf(s, "The work-item has finished; give a line to list.\n");
      return;
    }
    int k = dbg_dis_line(&s->sym, in->word_offset);
    if (k < 0) {
      dbg_printf(s, "No disassembly available.\n");
      return;
    }
    list_dis(s, k - 5, k);
    return;
  }
  uint32_t file = have && in->line ? in->file : s->list_file;
  if (!file) file = any_file(s, NULL);
  uint32_t a1 = 0, a2 = 0;
  const char *comma = strchr(a, ',');
  if (isdigit((unsigned char)a[0]) && comma) {
    a1 = (uint32_t)strtoul(a, NULL, 10);
    a2 = (uint32_t)strtoul(comma + 1, NULL, 10);
    if (!file) {
      dbg_printf(s, "No source file.\n");
      return;
    }
    list_lines(s, file, a1, a2 < a1 ? a1 : a2);
    return;
  }
  /* LINE, FILE:LINE, FUNCTION */
  const char *colon = strrchr(a, ':');
  const char *num = colon ? colon + 1 : a;
  bool digits = *num != 0;
  for (const char *p = num; *p; p++) digits = digits && isdigit((unsigned char)*p);
  if (digits) {
    uint32_t line = (uint32_t)strtoul(num, NULL, 10);
    if (colon) {
      char spec[512];
      snprintf(spec, sizeof spec, "%.*s", (int)(colon - a), a);
      file = any_file(s, spec);
      if (!file) {
        dbg_printf(s, "No source file named %s.\n", spec);
        return;
      }
    }
    if (!file) {
      dbg_printf(s, "No source file.\n");
      return;
    }
    uint32_t first = line > 5 ? line - 5 : 1;
    list_lines(s, file, first, first + 9);
    return;
  }
  for (uint32_t f = 0; f < s->sym.m->nfuncs; f++) {
    const dbg_func *df = &s->sym.funcs[f];
    if (!df->name || strcmp(df->name, a) != 0 || !ex_insp_code_count(s->x, f) || df->is_entry_wrapper) continue;
    const ld_insn *fi = dbg_insn_at(&s->sym, f, df->body_start);
    uint32_t line = df->decl_line ? df->decl_line : fi->line;
    if (!line) {
      int k = dbg_dis_line(&s->sym, fi->word_offset);
      if (k >= 0) list_dis(s, k - 5, -1);
      return;
    }
    uint32_t first = line > 5 ? line - 5 : 1;
    list_lines(s, fi->file, first, first + 9);
    return;
  }
  dbg_printf(s, "Function \"%s\" not defined.\n", a);
}

static void cmd_disassemble(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  (void)args;
  uint32_t fn, idx;
  const ld_insn *in;
  if (!here(s, &fn, &idx, &in)) {
    dbg_printf(s, "No frame selected.\n");
    return;
  }
  dbg_syms *y = &s->sym;
  int mark = dbg_dis_line(y, in->word_offset);
  int k = dbg_dis_line(y, y->m->funcs[fn].insns[0].word_offset);
  if (mark < 0 || k < 0) {
    dbg_printf(s, "No disassembly available.\n");
    return;
  }
  while (k > 0 && !strstr(y->dis_lines[k], "OpFunction ")) k--;
  char nb[128];
  dbg_printf(s, "Dump of SPIR-V for function %s:\n", dbg_func_name(y, fn, nb, sizeof nb));
  for (; (uint32_t)k < y->ndis; k++) {
    dbg_printf(s, "%s %s\n", k == mark ? "=>" : "  ", y->dis_lines[k]);
    if (strstr(y->dis_lines[k], "OpFunctionEnd")) break;
  }
  dbg_printf(s, "End of dump.\n");
}

/* ---- info ------------------------------------------------------------------------------------- */

static void info_breakpoints(dbg_session *s, const char *args) {
  (void)args;
  if (!s->nbps) {
    dbg_printf(s, "No breakpoints or watchpoints.\n");
    return;
  }
  dbg_printf(s, "Num     Type           Disp Enb What\n");
  for (unsigned i = 0; i < s->nbps; i++) {
    const dbg_bp *b = &s->bps[i];
    char what[700];
    if (b->is_watch) snprintf(what, sizeof what, "%s", b->text);
    else if (b->nlocs > 1) snprintf(what, sizeof what, "%s (%u locations)", b->text, b->nlocs);
    else {
      char nb[128];
      snprintf(what, sizeof what, "%s in %s", b->text, dbg_func_name(&s->sym, b->locs[0].fn, nb, sizeof nb));
    }
    dbg_printf(s, "%-7d %-14s %-4s %-3s %s\n", b->id, b->is_watch ? "watchpoint" : "breakpoint",
               b->temp ? "del" : "keep", b->enabled ? "y" : "n", what);
    if (b->cond_text) dbg_printf(s, "\tstop only if %s\n", b->cond_text);
    if (b->is_watch && b->bound_warp >= 0) {
      uint64_t gid[3], lid[3];
      if (b->bound_group == s->group) {
        ex_insp_item_ids(s->x, (unsigned)b->bound_warp, gid, lid);
        dbg_printf(s, "\tin work-item global (%llu,%llu,%llu)\n", (unsigned long long)gid[0],
                   (unsigned long long)gid[1], (unsigned long long)gid[2]);
      }
    }
    if (b->hits)
      dbg_printf(s, "\t%s already hit %llu time%s\n", b->is_watch ? "watchpoint" : "breakpoint",
                 (unsigned long long)b->hits, b->hits == 1 ? "" : "s");
  }
}

static void show_vars(dbg_session *s, bool args) {
  uint32_t fn, idx;
  const ld_insn *in;
  if (!here(s, &fn, &idx, &in)) {
    dbg_printf(s, "No frame selected.\n");
    return;
  }
  const ld_function *lf = &s->sym.m->funcs[fn];
  const dbg_var *vars[256];
  uint32_t n = dbg_visible_vars(&s->sym, fn, (uint32_t)(in - lf->insns), args, vars, 256);
  dbg_arena arena = {0};
  char err[256];
  dbg_ctx c = {s, s->focus, s->frame, &arena, err, sizeof err};
  for (uint32_t i = 0; i < n; i++) {
    dbg_value v;
    if (dbg_var_value(&c, vars[i], &v)) print_value_line(s, vars[i]->name, &v, 0);
    else dbg_printf(s, "%s = <%s>\n", vars[i]->name, err);
  }
  if (!n && args) {
    /* without debug information: the SPIR-V parameters */
    for (uint32_t i = 0; i < lf->nparams; i++) {
      dbg_value v;
      char label[32];
      snprintf(label, sizeof label, "%%%u", lf->params[i]);
      if (dbg_id_value(&c, lf->params[i], &v)) print_value_line(s, label, &v, 0);
      else dbg_printf(s, "%s = <%s>\n", label, err);
    }
    if (!lf->nparams) dbg_printf(s, "No arguments.\n");
  } else if (!n) {
    dbg_printf(s, s->sym.has_debuginfo
                    ? "No locals.\n"
                    : "No symbol table info available (compile with -g; `print %%ID` reads SPIR-V values).\n");
  }
  dbg_arena_free(&arena);
}
static void info_locals(dbg_session *s, const char *args) {
  (void)args;
  show_vars(s, false);
}
static void info_args(dbg_session *s, const char *args) {
  (void)args;
  show_vars(s, true);
}

/* Where work-item k is for `info workitems`: "k.cl:14 in f", "`%5 = OpLoad ...` in f", or "". */
static void item_where(dbg_session *s, unsigned k, char *where, size_t cap) {
  uint32_t fn, idx;
  where[0] = 0;
  if (!dbg_frame_pos(s, k, 0, &fn, &idx)) return;
  const ld_insn *in = dbg_insn_at(&s->sym, fn, idx);
  char nb[128];
  if (in->line)
    snprintf(where, cap, "%s:%u in %s", dbg_file_name(&s->sym, in->file, true), in->line,
             dbg_func_name(&s->sym, fn, nb, sizeof nb));
  else {
    char text[200];
    dbg_insn_text(&s->sym, in, text, sizeof text);
    snprintf(where, cap, "`%s` in %s", text, dbg_func_name(&s->sym, fn, nb, sizeof nb));
  }
}

static const char *item_state_name(const ex_insp_item *it, bool faulted) {
  if (faulted) return "faulted";
  switch (it->state) {
  case EX_INSP_DONE: return "finished";
  case EX_INSP_WAITING: return it->collective ? "at collective" : "at barrier";
  case EX_INSP_PAUSED: return "stopped";
  case EX_INSP_NOT_STARTED: return "not started";
  default: return "ready";
  }
}

/* "N of M work-items wait at the barrier at k.cl:9." for the wait of work-item k. */
static void print_waiting(dbg_session *s, unsigned waiting, unsigned k, const char *what) {
  uint32_t fn, idx;
  if (!dbg_frame_pos(s, k, 0, &fn, &idx)) return;
  const ld_insn *in = dbg_insn_at(&s->sym, fn, idx);
  char loc[300];
  if (in->line) snprintf(loc, sizeof loc, "%s:%u", dbg_file_name(&s->sym, in->file, true), in->line);
  else dbg_insn_text(&s->sym, in, loc, sizeof loc);
  dbg_printf(s, "%u of %u work-items wait at the %s at %s.\n", waiting, s->nw, what, loc);
}

/* Append id range [a, b] to a list: "0-15, 32-47". */
static void add_range(dbg_buf *b, uint64_t a, uint64_t z) {
  dbg_bprintf(b, "%s%llu", b->len ? ", " : "", (unsigned long long)a);
  if (z > a) dbg_bprintf(b, "-%llu", (unsigned long long)z);
}

/* info workitems: one line per place, the work-items that stand at the same place (state, function
 * and line or instruction) together, as ranges of their ids: global ids in a 1-dimensional launch,
 * local linear ids otherwise. The focused work-item has its own line, marked `*`. */
static void info_workitems(dbg_session *s, const char *args) {
  (void)args;
  uint64_t group[3], size[3];
  ex_insp_group(s->x, group, size);
  int faulted = -1;
  if (s->state == DS_FAULTED) ex_insp_fault(s->x, NULL, &faulted);
  const bool one_dim = s->nd->dims == 1;
  dbg_printf(s, "Work-group (%llu,%llu,%llu), %u work-item%s%s:\n", (unsigned long long)group[0],
             (unsigned long long)group[1], (unsigned long long)group[2], s->nw, s->nw == 1 ? "" : "s",
             s->state == DS_FINISHED ? " (the kernel has finished)" : "");
  dbg_printf(s, "  %-22s %-14s %s\n", one_dim ? "global ids" : "local linear ids", "state", "where");
  unsigned waiting = 0;
  int at = -1;
  const char *at_what = NULL;
  enum { WHERE = 256 };
  bool *shown = calloc(s->nw ? s->nw : 1, sizeof *shown);
  const char **state = calloc(s->nw ? s->nw : 1, sizeof *state);
  char *where = calloc(s->nw ? s->nw : 1, WHERE);
  if (!shown || !state || !where) {
    dbg_printf(s, "Out of memory.\n");
  }
  for (unsigned k = 0; shown && state && where && k < s->nw; k++) {
    ex_insp_item it;
    ex_insp_item_get(s->x, k, &it);
    if (it.state == EX_INSP_WAITING) {
      waiting++;
      at = it.waits_at ? (int)k : -1;
      at_what = it.waits_at;
    }
    state[k] = item_state_name(&it, (int)k == faulted);
    if (it.state != EX_INSP_DONE && it.state != EX_INSP_NOT_STARTED) item_where(s, k, where + (size_t)k * WHERE, WHERE);
  }
  for (unsigned k = 0; shown && state && where && k < s->nw; k++) {
    if (shown[k]) continue;
    const char *wk = where + (size_t)k * WHERE;
    dbg_buf ids = {0};
    uint64_t first = 0, last = 0;
    bool open = false;
    /* the rest of its place, in id order; ids of a group grow with k */
    for (unsigned j = k; j < s->nw; j++) {
      bool same = j == k || (!shown[j] && k != s->focus && j != s->focus && state[j] == state[k] &&
                             strcmp(where + (size_t)j * WHERE, wk) == 0);
      if (!same) continue;
      shown[j] = true;
      uint64_t gid[3], lid[3];
      ex_insp_item_ids(s->x, j, gid, lid);
      uint64_t id = one_dim ? gid[0] : j;
      if (open && id == last + 1) {
        last = id;
        continue;
      }
      if (open) add_range(&ids, first, last);
      first = last = id;
      open = true;
    }
    add_range(&ids, first, last);
    if (wk[0]) dbg_printf(s, "%c %-22s %-14s %s\n", k == s->focus ? '*' : ' ', ids.s ? ids.s : "", state[k], wk);
    else dbg_printf(s, "%c %-22s %s\n", k == s->focus ? '*' : ' ', ids.s ? ids.s : "", state[k]);
    dbg_buf_free(&ids);
  }
  free(shown);
  free(state);
  free(where);
  if (waiting && at >= 0) print_waiting(s, waiting, (unsigned)at, at_what);
}

static void info_frame(dbg_session *s, const char *args) {
  (void)args;
  if (!dbg_frame_count(s, s->focus)) {
    dbg_printf(s, "No stack: the work-item has finished the kernel.\n");
    return;
  }
  dbg_printf(s, "Stack level %u of %u, ", s->frame, dbg_frame_count(s, s->focus));
  dbg_print_frame(s, s->focus, s->frame, false, false);
  uint32_t fn, idx;
  const ld_insn *in;
  if (here(s, &fn, &idx, &in)) {
    char text[512];
    dbg_insn_text(&s->sym, in, text, sizeof text);
    dbg_printf(s, " instruction: %s\n", text);
  }
  dbg_print_item(s, " ", s->focus, "\n");
}

static void info_display(dbg_session *s, const char *args) {
  (void)args;
  if (!s->ndisplays) {
    dbg_printf(s, "There are no auto-display expressions now.\n");
    return;
  }
  dbg_printf(s, "Auto-display expressions now in effect:\nNum Enb Expression\n");
  for (unsigned i = 0; i < s->ndisplays; i++) dbg_printf(s, "%-3d y   %s\n", s->displays[i].id, s->displays[i].text);
}

static const struct {
  const char *name;
  const char *aliases;
  void (*fn)(dbg_session *, const char *);
} info_cmds[] = {
  {"breakpoints", "b,break,watchpoints", info_breakpoints},
  {"locals", "", info_locals},
  {"args", "", info_args},
  {"workitems", "wi", info_workitems},
  {"frame", "f", info_frame},
  {"display", "", info_display},
};

static bool alias_match(const char *aliases, const char *w, size_t n) {
  for (const char *p = aliases; *p;) {
    const char *e = strchr(p, ',');
    size_t k = e ? (size_t)(e - p) : strlen(p);
    if (k == n && strncmp(p, w, n) == 0) return true;
    if (!e) break;
    p = e + 1;
  }
  return false;
}

static void cmd_info(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  const char *w = skip_ws(args);
  size_t n = 0;
  while (w[n] && !isspace((unsigned char)w[n])) n++;
  if (!n) {
    dbg_printf(s, "\"info\" must be followed by: breakpoints, locals, args, workitems, frame, display.\n");
    return;
  }
  int found = -1, matches = 0;
  for (int i = 0; i < (int)(sizeof info_cmds / sizeof info_cmds[0]); i++) {
    if (alias_match(info_cmds[i].aliases, w, n) ||
        (strlen(info_cmds[i].name) == n && strncmp(info_cmds[i].name, w, n) == 0)) {
      found = i;
      matches = 1;
      break;
    }
    if (strncmp(info_cmds[i].name, w, n) == 0) {
      found = i;
      matches++;
    }
  }
  if (matches != 1) {
    dbg_printf(s, "%s info command \"%.*s\".  Try \"help info\".\n", matches ? "Ambiguous" : "Undefined", (int)n, w);
    return;
  }
  info_cmds[found].fn(s, skip_ws(w + n));
}

/* ---- focus ------------------------------------------------------------------------------------ */

static void show_focus(dbg_session *s) {
  dbg_print_item(s, "Focus: ", s->focus, "\n");
  if (dbg_frame_count(s, s->focus)) dbg_print_frame(s, s->focus, s->frame, true, false);
  else dbg_printf(s, "The work-item has finished the kernel.\n");
}

static void cmd_workitem(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  uint64_t v[3];
  int n = parse_triple(args, v);
  if (n == 0) {
    show_focus(s);
    return;
  }
  const ex_insp_range *l = s->nd;
  if (n < 0 || (unsigned)n > l->dims) {
    dbg_printf(s, "Usage: workitem X[,Y[,Z]] (a global id with up to %u component%s).\n", l->dims,
               l->dims == 1 ? "" : "s");
    return;
  }
  for (int d = n; d < 3; d++) v[d] = l->offset[d];
  uint64_t g[3], lid[3], size[3];
  for (int d = 0; d < 3; d++) {
    if (v[d] < l->offset[d] || v[d] - l->offset[d] >= l->global[d]) {
      dbg_printf(
        s, "No work-item with global id (%llu,%llu,%llu): the NDRange is %llu,%llu,%llu from offset %llu,%llu,%llu.\n",
        (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)v[2], (unsigned long long)l->global[0],
        (unsigned long long)l->global[1], (unsigned long long)l->global[2], (unsigned long long)l->offset[0],
        (unsigned long long)l->offset[1], (unsigned long long)l->offset[2]);
      return;
    }
    g[d] = (v[d] - l->offset[d]) / l->local[d];
    lid[d] = (v[d] - l->offset[d]) % l->local[d];
  }
  ex_insp_group_size(s->x, g, size);
  uint64_t group = dbg_group_linear(s, g);
  if (group < l->group_first || group >= l->group_end) {
    dbg_printf(s, "That work-item's work-group is not in the run.\n");
    return;
  }
  dbg_focus(s, group, (unsigned)((lid[2] * size[1] + lid[1]) * size[0] + lid[0]));
}

static void cmd_workgroup(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  uint64_t v[3] = {0, 0, 0};
  int n = parse_triple(args, v);
  if (n == 0) {
    show_focus(s);
    return;
  }
  const ex_insp_range *l = s->nd;
  if (n < 0 || (unsigned)n > l->dims) {
    dbg_printf(s, "Usage: workgroup X[,Y[,Z]] (a work-group id).\n");
    return;
  }
  for (int d = 0; d < 3; d++)
    if (v[d] >= l->ngroups[d]) {
      dbg_printf(s, "No work-group (%llu,%llu,%llu): there are %llu,%llu,%llu.\n", (unsigned long long)v[0],
                 (unsigned long long)v[1], (unsigned long long)v[2], (unsigned long long)l->ngroups[0],
                 (unsigned long long)l->ngroups[1], (unsigned long long)l->ngroups[2]);
      return;
    }
  uint64_t group = dbg_group_linear(s, v);
  if (group < l->group_first || group >= l->group_end) {
    dbg_printf(s, "That work-group is not in the run.\n");
    return;
  }
  dbg_focus(s, group, 0);
}

/* ---- help and quit ---------------------------------------------------------------------------- */

static void cmd_help(dbg_session *s, const char *args, const char *fmt);
static void cmd_quit(dbg_session *s, const char *args, const char *fmt) {
  (void)args;
  (void)fmt;
  s->quit = true;
}

static const dbg_cmd commands[] = {
  {"break", "b,br", cmd_break, "break [LOCATION] [if EXPR]",
   "Stop before LOCATION in every work-item that reaches it: FILE:LINE, LINE (in the current file),\n"
   "a function name, or %ID (the SPIR-V instruction defining id ID, a block label or a function).\n"
   "Without LOCATION: the current instruction. With `if EXPR`: only when EXPR is nonzero there."},
  {"tbreak", "", cmd_tbreak, "tbreak [LOCATION] [if EXPR]", "A breakpoint deleted when it is first hit."},
  {"delete", "d", cmd_delete, "delete [N...]", "Delete breakpoints and watchpoints N... (all without N)."},
  {"disable", "", cmd_disable, "disable [N...]", "Disable breakpoints and watchpoints N... (all without N)."},
  {"enable", "", cmd_enable, "enable [N...]", "Enable breakpoints and watchpoints N... (all without N)."},
  {"watch", "", cmd_watch, "watch EXPR",
   "Stop when the value of EXPR changes. An object in global or constant memory is watched in every\n"
   "work-item, one in local memory in the work-group, anything else in the focused work-item."},
  {"continue", "c", cmd_continue, "continue", "Run until a breakpoint, watchpoint, fault, or the end of the kernel."},
  {"step", "s", cmd_step, "step [N]",
   "Run the focused work-item to the next source line, entering function calls (without line\n"
   "information: one SPIR-V instruction). Others run only as far as barriers require."},
  {"next", "n", cmd_next, "next [N]", "Like step, but calls are run to their end."},
  {"stepi", "si", cmd_stepi, "stepi [N]", "Run the focused work-item by one SPIR-V instruction."},
  {"nexti", "ni", cmd_nexti, "nexti [N]", "Like stepi, but a call is run to its end."},
  {"finish", "fin", cmd_finish, "finish", "Run until the selected function returns; print the value it returns."},
  {"print", "p,inspect", cmd_print, "print[/x|/d|/u] EXPR",
   "Print the value of EXPR with its type. EXPR is C: variables, %ID (SPIR-V ids), argN (kernel\n"
   "arguments), get_global_id(0) and the other work-item functions, arithmetic, comparisons, a[i],\n"
   "s.m, p->m, *p, &x, vector components (.x .s3 .lo .hi .even .odd), casts to scalar and pointer types,\n"
   "*p@N (N objects from p on, gdb's artificial array)."},
  {"ptype", "", cmd_ptype, "ptype EXPR|TYPE",
   "The type of EXPR (or TYPE), a struct (also under arrays and pointers) spelled out member by member."},
  {"whatis", "", cmd_whatis, "whatis EXPR|TYPE", "The name of the type of EXPR (or of TYPE)."},
  {"display", "", cmd_display, "display [EXPR]", "Print EXPR every time the kernel stops (without EXPR: now)."},
  {"undisplay", "", cmd_undisplay, "undisplay [N...]", "Stop displaying expressions N... (all without N)."},
  {"x", "", cmd_x, "x/NFU ADDRESS",
   "Examine N units of memory at ADDRESS (a pointer in any address space, an object, or an integer):\n"
   "F is the format (x d u o t f c), U the unit size (b h w g); defaults follow the pointed-to type."},
  {"backtrace", "bt,where", cmd_backtrace, "backtrace [N]", "The calls of the focused work-item, innermost first."},
  {"frame", "f", cmd_frame, "frame [N]", "Select frame N of the backtrace (expressions use its variables)."},
  {"up", "", cmd_up, "up [N]", "Select the frame N levels out (towards the kernel)."},
  {"down", "", cmd_down, "down [N]", "Select the frame N levels in."},
  {"list", "l", cmd_list, "list [LINE | FILE:LINE | FUNCTION | FIRST,LAST]",
   "Show source lines around the current line (again: the following ones). Without line\n"
   "information: the disassembly around the current instruction."},
  {"disassemble", "", cmd_disassemble, "disassemble",
   "The SPIR-V of the current function, `=>` at the current instruction."},
  {"info", "i", cmd_info, "info breakpoints|locals|args|workitems|frame|display",
   "breakpoints: breakpoints and watchpoints; locals, args: the selected frame's variables;\n"
   "workitems: the work-items of the focused work-group grouped by state and location, barrier status;\n"
   "frame: where the selected frame is; display: the displayed expressions."},
  {"workitem", "wi", cmd_workitem, "workitem [X[,Y[,Z]]]",
   "Focus the work-item with global id X,Y,Z (without: show the focus). A work-item of a later\n"
   "work-group first runs the groups before it to completion (breakpoints are not checked there);\n"
   "finished work-groups cannot be focused."},
  {"workgroup", "wg", cmd_workgroup, "workgroup [X[,Y[,Z]]]", "Focus the first work-item of work-group X,Y,Z."},
  {"help", "h", cmd_help, "help [COMMAND]", "List the commands, or describe one."},
  {"quit", "q,exit", cmd_quit, "quit", "End the session."},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* Exact name or alias first, then a unique prefix (gdb's rule). NULL with a message otherwise. */
static const dbg_cmd *find_command(dbg_session *s, const char *w, size_t n, bool quiet) {
  for (size_t i = 0; i < NCOMMANDS; i++)
    if ((strlen(commands[i].name) == n && strncmp(commands[i].name, w, n) == 0) ||
        alias_match(commands[i].aliases, w, n))
      return &commands[i];
  const dbg_cmd *found = NULL;
  char list[512] = "";
  size_t len = 0;
  int matches = 0;
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (strncmp(commands[i].name, w, n) == 0) {
      found = &commands[i];
      matches++;
      if (len < sizeof list)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", matches > 1 ? ", " : "", commands[i].name);
    }
  if (matches == 1) return found;
  if (!quiet) {
    if (matches) dbg_printf(s, "Ambiguous command \"%.*s\": %s.\n", (int)n, w, list);
    else dbg_printf(s, "Undefined command: \"%.*s\".  Try \"help\".\n", (int)n, w);
  }
  return NULL;
}

static void cmd_help(dbg_session *s, const char *args, const char *fmt) {
  (void)fmt;
  const char *w = skip_ws(args);
  if (*w) {
    size_t n = 0;
    while (w[n] && !isspace((unsigned char)w[n])) n++;
    const dbg_cmd *c = find_command(s, w, n, false);
    if (c) dbg_printf(s, "%s\n%s\n", c->usage, c->help);
    return;
  }
  dbg_printf(s, "Commands (any unique prefix works; gdb's short forms in brackets):\n");
  for (size_t i = 0; i < NCOMMANDS; i++) {
    const char *h = commands[i].help, *e = strchr(h, '\n');
    char first[200];
    snprintf(first, sizeof first, "%.*s", e ? (int)(e - h) : (int)strlen(h), h);
    char name[64];
    snprintf(name, sizeof name, "%s%s%s%s", commands[i].name, commands[i].aliases[0] ? " [" : "", commands[i].aliases,
             commands[i].aliases[0] ? "]" : "");
    dbg_printf(s, "  %-22s %s\n", name, first);
  }
  dbg_printf(s, "`help COMMAND` describes one. Expressions are C with OpenCL vectors; %%ID names a SPIR-V id.\n");
}

void dbg_command(dbg_session *s, const char *line) {
  const char *p = skip_ws(line);
  if (!*p || *p == '#') return;
  size_t n = 0;
  while (p[n] && (isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '-')) n++;
  if (!n) {
    dbg_printf(s, "Undefined command: \"%s\".  Try \"help\".\n", p);
    return;
  }
  const dbg_cmd *c = find_command(s, p, n, false);
  if (!c) return;
  char fmt[32] = "";
  const char *rest = p + n;
  if (*rest == '/') {
    size_t k = 0;
    rest++;
    while (rest[k] && !isspace((unsigned char)rest[k]) && k + 1 < sizeof fmt) {
      fmt[k] = rest[k];
      k++;
    }
    fmt[k] = 0;
    rest += k;
  }
  /* trailing blanks are not part of an argument */
  char *args = copy_text(s, skip_ws(rest));
  if (!args) return;
  for (size_t k = strlen(args); k > 0 && isspace((unsigned char)args[k - 1]); k--) args[k - 1] = 0;
  c->fn(s, args, fmt);
  free(args);
}
