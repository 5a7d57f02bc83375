/*
 * check_harness.c — ch_run(): see check_harness.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check_harness.h"
#include "load.h"
#include "marker.h"
#include "spvasm.h"

#define CH_MAX_WANT (sizeof((ch_case *)0)->want / sizeof((ch_case *)0)->want[0])
#define CH_MAX_ARGS (sizeof((ch_case *)0)->args / sizeof((ch_case *)0)->args[0])

/* The expected reports with their markers resolved to line numbers. */
typedef struct ch_lines {
  const ch_report *want;
  size_t n;
  unsigned at[CH_MAX_WANT], other[CH_MAX_WANT]; /* other 0: no other site */
  unsigned origin[CH_MAX_WANT];                 /* the origin's declaration line, 0: not checked */
} ch_lines;

static bool ch_is_spvasm(const char *file) {
  const size_t n = strlen(file);
  return n > 7 && strcmp(file + n - 7, ".spvasm") == 0;
}

/* The expected reports of `c` and the lines their markers name in the case's source file. */
static ch_lines ch_resolve(const ch_case *c) {
  char path[512];
  if (ch_is_spvasm(c->file)) snprintf(path, sizeof path, "%s", c->file);
  else snprintf(path, sizeof path, "tests/kernels/%s.cl", c->file);
  ch_lines l = {.want = c->want};
  for (; l.n < CH_MAX_WANT && c->want[l.n].count; l.n++) {
    const ch_report *w = &c->want[l.n];
    if (!w->at.mark) fail_msg("%s %s: an expected report without its source line", c->file, c->kernel);
    l.at[l.n] = marker_line(path, w->at.mark);
    l.other[l.n] = w->other.mark ? marker_line(path, w->other.mark) : 0;
    l.origin[l.n] = w->origin_mark ? marker_line(path, w->origin_mark) : 0;
  }
  return l;
}

/* The module of one variant: the .spvasm file, or $BUILD/kernels/FILE.VARIANT.spv. */
static spvi_module *ch_load(const ch_case *c, const char *variant) {
  return ch_is_spvasm(c->file) ? spvasm_load(c->file, 1, false, c->file) : tl_load(c->file, variant);
}

static void ch_set_args(spvi_launch *l, const ch_case *c, const char *ctx) {
  spvi_error err;
  for (unsigned i = 0; i < CH_MAX_ARGS && c->args[i].kind != CH_END; i++) {
    const ch_arg *a = &c->args[i];
    spvi_status s = SPVI_E_USAGE;
    switch (a->kind) {
    case CH_ARG_BUFFER: s = spvi_set_arg_buffer(l, i, NULL, a->bytes, &err); break;
    case CH_ARG_LOCAL: s = spvi_set_arg_local(l, i, a->bytes, &err); break;
    case CH_ARG_INT: s = spvi_set_arg_value(l, i, &a->value, sizeof a->value, &err); break;
    case CH_ARG_IMAGE: {
      const spvi_image_desc d = {SPVI_IMAGE_2D, SPVI_ORDER_RGBA, SPVI_FLOAT, a->bytes, 1, 0, 0};
      s = spvi_set_arg_image(l, i, &d, NULL, a->bytes * 16, &err);
      break;
    }
    case CH_END: break;
    }
    if (s != SPVI_OK) fail_msg("%s: arg %u: %s", ctx, i, err.message);
  }
}

static void ch_printf_sink(void *user, const char *text, size_t len) {
  (void)user;
  (void)text;
  (void)len;
}

/* What differs between a side of a report and the expected side (its line already matched). */
static const char *ch_site_mismatch(const spvi_site *s, const ch_site *w) {
  if (s->global_id[0] != w->gid) return "work-item";
  if (s->write != w->write || s->atomic != w->atomic) return "access";
  return NULL;
}

/* What differs between report `r` and the expected report `i` of `l` (found at its lines); NULL:
 * nothing. */
static const char *ch_mismatch(const spvi_report *r, const ch_lines *l, size_t i) {
  const ch_report *w = &l->want[i];
  const char *why = ch_site_mismatch(&r->at, &w->at);
  if (r->kind != w->kind) return "kind";
  if (why) return why;
  if (l->other[i] && ch_site_mismatch(&r->other, &w->other)) return "other site";
  if (r->arg_index != w->memory.arg) return "memory";
  if (w->memory.arg >= 0 && (r->offset != w->memory.offset || r->access_size != w->memory.size)) return "byte range";
  if (r->count != w->count) return "count";
  if (w->origin) {
    char quoted[128];
    snprintf(quoted, sizeof quoted, "`%s`", w->origin);
    if (!strstr(r->origin, quoted)) return "origin";
  }
  if (l->origin[i] && r->origin_line != l->origin[i]) return "origin line";
  return NULL;
}

/* The report of `launch` at the expected report's lines, or NULL. */
static const spvi_report *ch_find(const spvi_launch *launch, const ch_lines *l, size_t i) {
  for (size_t k = 0; k < spvi_report_count(launch); k++) {
    const spvi_report *r = spvi_report_get(launch, k);
    if (r->at.line == l->at[i] && r->has_other == (l->other[i] != 0) && (!r->has_other || r->other.line == l->other[i]))
      return r;
  }
  return NULL;
}

/* The reports' whole text, one per line (malloc'd). */
static char *ch_text(const spvi_launch *launch) {
  const size_t n = spvi_report_count(launch);
  size_t cap = 1;
  for (size_t i = 0; i < n; i++) cap += strlen(spvi_report_get(launch, i)->message) + 1;
  char *all = calloc(cap, 1);
  assert_non_null(all);
  for (size_t i = 0; i < n; i++) {
    strcat(all, spvi_report_get(launch, i)->message);
    strcat(all, "\n");
  }
  return all;
}

/* Requires exactly the expected reports in the launch; `all` is their text, for messages. */
static void ch_expect(const spvi_launch *launch, const ch_lines *l, const char *all, const char *ctx) {
  const size_t n = spvi_report_count(launch);
  if (l->n == 0 && n) fail_msg("%s: unexpected report:\n%s", ctx, spvi_report_get(launch, 0)->message);
  if (n != l->n) fail_msg("%s: %zu reports, expected %zu:\n%s", ctx, n, l->n, all);
  for (size_t i = 0; i < l->n; i++) {
    const spvi_report *r = ch_find(launch, l, i);
    if (!r) fail_msg("%s: no report at line %u against line %u in:\n%s", ctx, l->at[i], l->other[i], all);
    const char *why = ch_mismatch(r, l, i);
    if (why) fail_msg("%s: wrong %s (count %llu) in:\n%s", ctx, why, (unsigned long long)r->count, r->message);
  }
}

/* One run of module `m`; returns the reports' text (to compare between widths and threads). */
static char *ch_run_one(spvi_module *m, const ch_case *c, const ch_lines *l, const char *ctx, unsigned warp,
                        unsigned threads) {
  spvi_error err;
  int k = spvi_find_kernel(m, c->kernel);
  if (k < 0) fail_msg("%s: no kernel", ctx);
  spvi_launch *launch = spvi_launch_new(m, k, &err);
  if (!launch) fail_msg("%s: %s", ctx, err.message);
  ch_set_args(launch, c, ctx);
  size_t g = c->global, lo = c->local;
  assert_int_equal(spvi_set_ndrange(launch, 1, &g, &lo, NULL, &err), SPVI_OK);
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.warp_width = warp;
  o.threads = threads;
  o.checks = c->checks;
  o.subgroup_size = c->subgroup;
  o.keep_going = c->keep_going;
  o.on_printf = ch_printf_sink;
  spvi_fault f;
  if (spvi_run(launch, &o, &f, &err) != SPVI_OK) fail_msg("%s: %s %s", ctx, err.message, f.message);
  char *all = ch_text(launch);
  ch_expect(launch, l, all, ctx);
  spvi_launch_free(launch);
  return all;
}

/* Every warp width and thread count on one variant's module. */
static void ch_run_variant(const ch_case *c, const ch_lines *l, const char *variant) {
  static const unsigned warps[] = {1, 7, 32}, threads[] = {1, 2};
  spvi_module *m = ch_load(c, variant);
  char *ref = NULL, ctx[256];
  for (int w = 0; w < 3; w++)
    for (int t = 0; t < 2; t++) {
      snprintf(ctx, sizeof ctx, "%s.%s %s warp %u threads %u", c->file, variant, c->kernel, warps[w], threads[t]);
      char *got = ch_run_one(m, c, l, ctx, warps[w], threads[t]);
      if (!ref) {
        ref = got;
        continue;
      }
      if (strcmp(ref, got)) fail_msg("%s: reports differ from warp 1 threads 1:\n%s\nvs\n%s", ctx, got, ref);
      free(got);
    }
  free(ref);
  spvi_module_free(m);
}

void ch_run(const ch_case *c) {
  const ch_lines l = ch_resolve(c);
  if (ch_is_spvasm(c->file)) {
    ch_run_variant(c, &l, "asm");
    return;
  }
  ch_run_variant(c, &l, "O0");
  if (c->o1) ch_run_variant(c, &l, "O1");
  ch_run_variant(c, &l, "O2");
}
