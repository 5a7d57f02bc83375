/*
 * ex_check.c — the collection of a launch's non-fatal reports: grouping of occurrences by kind and
 * instruction(s), the deterministic choice of the occurrence shown, and the text users read.
 *
 * Checkers run on every worker thread, so ex_check_report takes a mutex; a group is keyed by (kind,
 * instruction, other instruction) and keeps the occurrence with the lowest (work-group, local id,
 * other work-group, other local id), which is the same whatever the threads or warp width.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex_check.h"
#include "ex_internal.h"
#include "gen_spv_tables.h"

typedef struct group_entry {
  ex_check_event first; /* the occurrence shown (detail kept as a pointer to static text) */
  uint64_t count;
} group_entry;

struct ex_reports {
  pthread_mutex_t mu;
  group_entry *groups;
  size_t ngroups, cap;
  size_t *slots;
  size_t nslots; /* open-addressing hash of group indexes + 1 (0 = empty) */
  spvi_report *out;
  size_t nout; /* built by ex_reports_finish */
  bool oom;    /* an occurrence could not be recorded (said in the first report) */
};

ex_reports *ex_reports_new(void) {
  ex_reports *r = calloc(1, sizeof *r);
  if (r && pthread_mutex_init(&r->mu, NULL)) {
    free(r);
    return NULL;
  }
  return r;
}

void ex_reports_clear(ex_reports *r) {
  if (!r) return;
  free(r->groups);
  free(r->slots);
  free(r->out);
  r->groups = NULL;
  r->ngroups = r->cap = 0;
  r->slots = NULL;
  r->nslots = 0;
  r->out = NULL;
  r->nout = 0;
  r->oom = false;
}

void ex_reports_free(ex_reports *r) {
  if (!r) return;
  ex_reports_clear(r);
  pthread_mutex_destroy(&r->mu);
  free(r);
}

size_t ex_reports_count(const ex_reports *r) { return r ? r->nout : 0; }
const spvi_report *ex_reports_get(const ex_reports *r, size_t i) { return r && i < r->nout ? &r->out[i] : NULL; }

ex_site ex_site_of(const ex_ctx *cx, const ex_warp *w, unsigned lane, const ex_func *fn, const ex_insn *ip) {
  ex_site s;
  memset(&s, 0, sizeof s);
  s.group = ex_lane_group_linear(cx, w, lane);
  s.item = ex_lane_item(w, lane);
  s.fn = fn;
  s.insn = ip;
  return s;
}

static size_t hash_key(const ex_check_event *e) {
  uint64_t h = (uint64_t)e->kind * 0x9e3779b97f4a7c15ull;
  h ^= (uint64_t)(uintptr_t)e->at.insn * 0xbf58476d1ce4e5b9ull;
  h ^= (uint64_t)(uintptr_t)(e->has_other ? e->other.insn : NULL) * 0x94d049bb133111ebull;
  return (size_t)(h ^ (h >> 31));
}

static bool same_key(const ex_check_event *a, const ex_check_event *b) {
  return a->kind == b->kind && a->at.insn == b->at.insn && a->has_other == b->has_other &&
         (!a->has_other || a->other.insn == b->other.insn);
}

static int site_cmp(const ex_site *a, const ex_site *b) {
  if (a->group != b->group) return a->group < b->group ? -1 : 1;
  if (a->item != b->item) return a->item < b->item ? -1 : 1;
  return 0;
}

/* Which occurrence represents a group: the lowest work-item, then the lowest other work-item. */
static bool better(const ex_check_event *a, const ex_check_event *b) {
  int c = site_cmp(&a->at, &b->at);
  if (c) return c < 0;
  if (a->has_other && b->has_other) {
    c = site_cmp(&a->other, &b->other);
    if (c) return c < 0;
  }
  return a->offset < b->offset;
}

static bool grow_slots(ex_reports *r) {
  size_t n = r->nslots ? r->nslots * 2 : 64;
  size_t *s = calloc(n, sizeof *s);
  if (!s) return false;
  for (size_t g = 0; g < r->ngroups; g++) {
    size_t h = hash_key(&r->groups[g].first) & (n - 1);
    while (s[h]) h = (h + 1) & (n - 1);
    s[h] = g + 1;
  }
  free(r->slots);
  r->slots = s;
  r->nslots = n;
  return true;
}

void ex_check_report(ex_ctx *cx, const ex_check_event *e) {
  ex_reports *r = cx->reports;
  if (!r) return;
  pthread_mutex_lock(&r->mu);
  if (r->ngroups * 2 >= r->nslots && !grow_slots(r)) {
    r->oom = true;
    goto out;
  }
  size_t h = hash_key(e) & (r->nslots - 1);
  while (r->slots[h]) {
    group_entry *g = &r->groups[r->slots[h] - 1];
    if (same_key(&g->first, e)) {
      g->count++;
      if (better(e, &g->first)) g->first = *e;
      goto out;
    }
    h = (h + 1) & (r->nslots - 1);
  }
  if (r->ngroups == r->cap) {
    size_t nc = r->cap ? r->cap * 2 : 16;
    group_entry *ng = realloc(r->groups, nc * sizeof *ng);
    if (!ng) {
      r->oom = true;
      goto out;
    }
    r->groups = ng;
    r->cap = nc;
  }
  r->groups[r->ngroups].first = *e;
  r->groups[r->ngroups].count = 1;
  r->slots[h] = ++r->ngroups;
out:
  pthread_mutex_unlock(&r->mu);
}

/* ---- building the public reports ------------------------------------------------------------ */

/* Each report kind's name in reports and its identifier in JSON lines (--report). */
static const struct {
  const char *name, *id;
} report_kinds[] = {
  [SPVI_REPORT_RACE] = {"data race", "race"},
  [SPVI_REPORT_UNINIT] = {"use of uninitialized memory", "uninit"},
  [SPVI_REPORT_DIV_BY_ZERO] = {"integer division by zero", "div-by-zero"},
  [SPVI_REPORT_DIV_OVERFLOW] = {"integer division overflow", "div-overflow"},
  [SPVI_REPORT_PRINTF_FORMAT] = {"invalid printf format", "printf-format"},
  [SPVI_REPORT_OUT_OF_BOUNDS] = {"out-of-bounds access", "out-of-bounds"},
  [SPVI_REPORT_NULL_POINTER] = {"null pointer dereference", "null-pointer"},
  [SPVI_REPORT_BAD_POINTER] = {"invalid pointer dereference", "bad-pointer"},
  [SPVI_REPORT_ARRAY_INDEX] = {"array index out of bounds", "array-index"},
};

const char *spvi_report_kind_name(spvi_report_kind k) {
  return (unsigned)k < sizeof report_kinds / sizeof report_kinds[0] ? report_kinds[k].name : "report";
}

const char *spvi_report_kind_id(spvi_report_kind k) {
  return (unsigned)k < sizeof report_kinds / sizeof report_kinds[0] ? report_kinds[k].id : "report";
}

/* The ids, instruction and source position of a site. */
static void fill_site(const ex_ctx *cx, const ex_site *s, spvi_site *o) {
  const ld_module *m = cx->prog->ld;
  const ex_launch *l = cx->l;
  memset(o, 0, sizeof *o);
  uint64_t g[3], gs[3], lid[3];
  ex_unlinear(s->group, cx->ngroups, g);
  ex_group_size(l, g, gs); /* that group's size, not the current one's */
  ex_unlinear(s->item, gs, lid);
  for (int d = 0; d < 3; d++) {
    o->group_id[d] = g[d];
    o->local_id[d] = lid[d];
    o->global_id[d] = g[d] * l->local[d] + lid[d] + l->offset[d];
  }
  o->write = s->write;
  o->atomic = s->atomic;
  ex_site_where(m, s->fn, s->insn, o);
}

/* A report's text is built by appending to a fixed buffer; what does not fit is cut. */
typedef struct text {
  char *p;
  size_t cap, n;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...) {
  if (t->n + 1 >= t->cap) return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(t->p + t->n, t->cap - t->n, fmt, ap);
  va_end(ap);
  if (k > 0) t->n = t->n + (size_t)k < t->cap ? t->n + (size_t)k : t->cap - 1;
}

/* "work-item global (5,0,0) local (5,0,0) group (0,0,0)\n    at OpLoad %42 in function `k` (k.cl:12)" */
static void add_site(text *t, const spvi_site *s, const ex_site *x) {
  char insn[96];
  ex_insn_name(x->fn, x->insn, insn, sizeof insn);
  add(t, "work-item global (%zu,%zu,%zu) local (%zu,%zu,%zu) group (%zu,%zu,%zu)\n    at %s in function `%s` ",
      s->global_id[0], s->global_id[1], s->global_id[2], s->local_id[0], s->local_id[1], s->local_id[2], s->group_id[0],
      s->group_id[1], s->group_id[2], insn, s->function[0] ? s->function : "?");
  if (s->line) add(t, "(%s:%u)", s->file[0] ? s->file : "?", s->line);
  else add(t, "(no source line information)");
}

static const char *access_word(const spvi_site *s) {
  return s->atomic ? (s->write ? "atomic write" : "atomic read") : s->write ? "write" : "read";
}

/* The origin of an uninit report's undefined bytes (ex_check_event.origin_*) into o; false when unknown. */
static bool describe_origin(const ex_ctx *cx, const ex_check_event *e, spvi_report *o) {
  const ld_module *m = cx->prog->ld;
  const char *name, *file;
  uint32_t line = 0;
  if (e->origin_alloc && e->origin_alloc < cx->nallocs) {
    ex_describe_alloc(cx, e->origin_alloc, o->origin, sizeof o->origin);
    const uint32_t var = cx->allocs[e->origin_alloc].var_id;
    if (var && ld_var_decl(m, var, LD_NONE, &name, &file, &line))
      snprintf(o->origin_file, sizeof o->origin_file, "%s", file ? file : "");
  } else if (e->origin_id && e->origin_id < m->bound) {
    /* a DebugValue may say which source variable the compiler left (partly) undefined */
    const bool whole = m->ids[e->origin_id].kind != LD_ID_CONST || m->consts[m->ids[e->origin_id].index].is_undef;
    const uint32_t fi = e->at.fn ? (uint32_t)(e->at.fn->ld - m->funcs) : LD_NONE; /* the use's function first */
    const bool named = ld_var_decl(m, e->origin_id, fi, &name, &file, &line);
    snprintf(o->origin, sizeof o->origin, "%s%%%u%s%s%s", whole ? "OpUndef " : "an OpUndef constituent of constant ",
             e->origin_id, named ? " (a value of variable `" : "", named ? name : "", named ? "`)" : "");
    if (named) snprintf(o->origin_file, sizeof o->origin_file, "%s", file ? file : "");
  }
  o->origin_line = line;
  return o->origin[0] != 0;
}

static void build_one(const ex_ctx *cx, const group_entry *g, spvi_report *o) {
  const ex_check_event *e = &g->first;
  memset(o, 0, sizeof *o);
  o->kind = e->kind;
  o->count = g->count;
  o->arg_index = -1;
  snprintf(o->kernel, sizeof o->kernel, "%s", cx->prog->ld->entries[cx->l->kernel].name);
  fill_site(cx, &e->at, &o->at);
  o->has_other = e->has_other;
  if (e->has_other) fill_site(cx, &e->other, &o->other);
  if (e->alloc && e->alloc < cx->nallocs) {
    const ex_alloc *a = &cx->allocs[e->alloc];
    o->arg_index = a->arg_index;
    ex_describe_alloc(cx, e->alloc, o->memory, sizeof o->memory);
    o->offset = e->offset;
    o->access_size = e->size;
    o->memory_size = a->size;
  }
  text t = {o->message, sizeof o->message, 0};
  add(&t, "%s in kernel `%s`\n  ", spvi_report_kind_name(o->kind), o->kernel);
  add_site(&t, &o->at, &e->at);
  const bool fault_kind = o->kind >= SPVI_REPORT_OUT_OF_BOUNDS; /* a fault kept going past (its own words) */
  /* no access: an index, or an access chain out of the pointer's range (ex_exec.c chain_wrap) */
  const bool no_access = o->kind == SPVI_REPORT_ARRAY_INDEX || (o->kind == SPVI_REPORT_OUT_OF_BOUNDS && !e->size);
  if (o->memory[0] && no_access) add(&t, "\n  %s, at offset %lld of %s", e->note, (long long)o->offset, o->memory);
  else if (o->memory[0])
    add(&t, "\n  %s of %llu bytes at offset %lld of %s", e->has_other || fault_kind ? access_word(&o->at) : "access",
        (unsigned long long)o->access_size, (long long)o->offset, o->memory);
  if (e->note[0] && !(o->memory[0] && no_access)) add(&t, "\n  %s", e->note);
  if (o->has_other) {
    add(&t, "\n  conflicts with the %s by ", access_word(&o->other));
    add_site(&t, &o->other, &e->other);
  }
  if (e->detail) add(&t, "\n  %s", e->detail);
  if (describe_origin(cx, e, o)) {
    add(&t, "\n  the undefined bytes come from %s", o->origin);
    if (o->origin_line) add(&t, ", declared at %s:%u", o->origin_file[0] ? o->origin_file : "?", o->origin_line);
  }
  if (g->count > 1)
    add(&t, "\n  (%llu occurrences at the same instruction%s; the first work-item is shown)",
        (unsigned long long)g->count, o->has_other ? "s" : "");
}

static int report_cmp(const void *pa, const void *pb) {
  const spvi_report *a = pa, *b = pb;
  for (int d = 2; d >= 0; d--)
    if (a->at.group_id[d] != b->at.group_id[d]) return a->at.group_id[d] < b->at.group_id[d] ? -1 : 1;
  for (int d = 2; d >= 0; d--)
    if (a->at.local_id[d] != b->at.local_id[d]) return a->at.local_id[d] < b->at.local_id[d] ? -1 : 1;
  if (a->at.result_id != b->at.result_id) return a->at.result_id < b->at.result_id ? -1 : 1;
  if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
  if (a->other.result_id != b->other.result_id) return a->other.result_id < b->other.result_id ? -1 : 1;
  return 0;
}

size_t ex_reports_found(const ex_reports *r) { return r ? r->ngroups : 0; }

void ex_reports_build_found(ex_reports *r, const ex_ctx *cx, size_t i, spvi_report *o) {
  pthread_mutex_lock(&r->mu);
  build_one(cx, &r->groups[i], o);
  pthread_mutex_unlock(&r->mu);
}

void ex_reports_finish(ex_reports *r, const ex_ctx *cx) {
  if (!r || !r->ngroups) return;
  free(r->out);
  r->nout = 0;
  r->out = calloc(r->ngroups, sizeof *r->out);
  if (!r->out) return; /* out of memory: the run's reports are lost, the run itself is not */
  for (size_t g = 0; g < r->ngroups; g++) build_one(cx, &r->groups[g], &r->out[g]);
  r->nout = r->ngroups;
  qsort(r->out, r->nout, sizeof *r->out, report_cmp);
  if (r->oom) {
    text t = {r->out[0].message, sizeof r->out[0].message, strlen(r->out[0].message)};
    add(&t, "\n  (spvi ran out of memory while recording reports: some occurrences are not counted)");
  }
}

/* ---- --keep-going: access faults as reports ------------------------------------------------ */

/* The report kind of access fault k. */
static spvi_report_kind kept_kind(spvi_fault_kind k) {
  switch (k) {
  case SPVI_FAULT_NULL_POINTER: return SPVI_REPORT_NULL_POINTER;
  case SPVI_FAULT_BAD_POINTER: return SPVI_REPORT_BAD_POINTER;
  case SPVI_FAULT_ARRAY_INDEX: return SPVI_REPORT_ARRAY_INDEX;
  default: return SPVI_REPORT_OUT_OF_BOUNDS;
  }
}

bool ex_fault_kept(ex_ctx *cx, spvi_fault_kind k, ex_warp *w, unsigned lane, uint32_t alloc, int64_t off, uint64_t n,
                   bool write, const char *note) {
  if (!cx->keep_going || !cx->reports || !w || cx->faulted) return false;
  ex_check_event e;
  memset(&e, 0, sizeof e);
  e.kind = kept_kind(k);
  e.at = ex_site_of(cx, w, lane, cx->cur_fn, cx->cur_ip);
  e.at.write = write;
  e.alloc = alloc;
  e.offset = off;
  e.size = n;
  snprintf(e.note, sizeof e.note, "%s", note ? note : "");
  ex_check_report(cx, &e);
  return true;
}

void *ex_fault_access(ex_ctx *cx, spvi_fault_kind k, ex_warp *w, unsigned lane, uint32_t alloc, int64_t off, uint64_t n,
                      bool write) {
  const char *what = write ? "write" : "read";
  /* A skipped access works on scratch memory of twice its size; past 16 MiB (one access, e.g. an
   * OpCopyMemorySized) the fault ends the run as without --keep-going rather than let a hostile
   * module make spvi allocate gigabytes (issue #17, found by tests/fuzz: 1 GiB copy, 2 GiB scratch). */
  if (!cx->keep_going || n > EX_KG_MAX_ACCESS) return ex_fault(cx, k, w, lane, alloc, off, n, what);
  if (n > cx->kg_cap) { /* reads get the first half (zeros), writes the second, so a copy never overlaps */
    uint8_t *b = realloc(cx->kg_scratch, 2 * (size_t)n);
    if (!b) return ex_fault(cx, k, w, lane, alloc, off, n, what);
    cx->kg_scratch = b;
    cx->kg_cap = (size_t)n;
  }
  char note[160] = "";
  if (!alloc) /* the pointer itself, as the fault says it */
    snprintf(note, sizeof note, "%s of %llu bytes through pointer 0x%llx, %s", what, (unsigned long long)n,
             (unsigned long long)off,
             k == SPVI_FAULT_OUT_OF_BOUNDS ? "outside the SVM allocation next to it" : "which points to no memory");
  strncat(note, note[0] ? "; skipped (--keep-going)" : "skipped (--keep-going)", sizeof note - strlen(note) - 1);
  if (!write) strncat(note, ", it read zeros", sizeof note - strlen(note) - 1);
  if (!ex_fault_kept(cx, k, w, lane, alloc, alloc ? off : 0, n, write, note))
    return ex_fault(cx, k, w, lane, alloc, off, n, what);
  memset(cx->kg_scratch, 0, (size_t)n);
  return write ? cx->kg_scratch + cx->kg_cap : cx->kg_scratch;
}
