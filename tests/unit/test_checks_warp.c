/*
 * test_checks_warp.c — the race checker's per-warp paths (tests/kernels/check_races_warp.cl) at
 * -O0 and -O2, warp widths 1, 7 and 32, one and two threads: a warp's atomics at scattered
 * addresses (recorded lane by lane with one allocation lookup), and the earlier work-groups' pages
 * kept as runs of consecutive work-items until a merge needs every slot.
 *
 * Every expected report (its instructions, first work-items, byte range and count) is derived by
 * hand in the comments; there must be no other report, and the reports' text must be the same at
 * every warp width and thread count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "spvi.h"

typedef struct expect {
  unsigned line, other_line;
  size_t at_gid, other_gid;
  bool at_atomic, other_write, other_atomic;
  int64_t offset;
  uint64_t size, count;
} expect;

typedef struct tcase {
  const char *kernel;
  size_t global, local, bytes;
  int nexp;
  expect e[2];
} tcase;

static char *run_one(const tcase *c, const char *variant, unsigned warp, unsigned threads) {
  const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
  char path[512], ctx[256];
  snprintf(path, sizeof path, "%s/kernels/check_races_warp.%s.spv", build, variant);
  snprintf(ctx, sizeof ctx, "check_races_warp.%s %s warp %u threads %u", variant, c->kernel, warp, threads);
  spvi_error err;
  spvi_module *m = spvi_load_file(path, NULL, &err);
  if (!m) fail_msg("%s: %s", ctx, err.message);
  int k = spvi_find_kernel(m, c->kernel);
  if (k < 0) fail_msg("%s: no kernel", ctx);
  spvi_launch *l = spvi_launch_new(m, k, &err);
  if (spvi_set_arg_buffer(l, 0, NULL, c->bytes, &err) != SPVI_OK) fail_msg("%s: %s", ctx, err.message);
  size_t g = c->global, lo = c->local;
  assert_int_equal(spvi_set_ndrange(l, 1, &g, &lo, NULL, &err), SPVI_OK);
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.warp_width = warp;
  o.threads = threads;
  o.checks = SPVI_CHECK_RACES;
  spvi_fault f;
  if (spvi_run(l, &o, &f, &err) != SPVI_OK) fail_msg("%s: %s %s", ctx, err.message, f.message);
  const size_t n = spvi_report_count(l);
  if (n != (size_t)c->nexp) fail_msg("%s: %zu reports, expected %d", ctx, n, c->nexp);
  size_t cap = 1;
  for (size_t i = 0; i < n; i++) cap += strlen(spvi_report_get(l, i)->message) + 1;
  char *all = calloc(cap, 1);
  for (size_t i = 0; i < n; i++) { strcat(all, spvi_report_get(l, i)->message); strcat(all, "\n"); }
  for (int x = 0; x < c->nexp; x++) {
    const expect *e = &c->e[x];
    const spvi_report *r = NULL;
    for (size_t i = 0; i < n && !r; i++) {
      const spvi_report *q = spvi_report_get(l, i);
      if (q->at.line == e->line && q->has_other && q->other.line == e->other_line) r = q;
    }
    if (!r) fail_msg("%s: no report at line %u against line %u in:\n%s", ctx, e->line, e->other_line, all);
    if (r->kind != SPVI_REPORT_RACE || r->at.global_id[0] != e->at_gid || !r->at.write ||
        r->at.atomic != e->at_atomic || r->other.global_id[0] != e->other_gid || r->other.write != e->other_write ||
        r->other.atomic != e->other_atomic || r->arg_index != 0 || r->offset != e->offset ||
        r->access_size != e->size || r->count != e->count)
      fail_msg("%s: wrong report (count %llu):\n%s", ctx, (unsigned long long)r->count, r->message);
  }
  spvi_launch_free(l);
  spvi_module_free(m);
  return all;
}

static void run_case(const tcase *c) {
  static const char *const variants[] = {"O0", "O2"};
  static const unsigned warps[] = {1, 7, 32}, threads[] = {1, 2};
  for (int v = 0; v < 2; v++) {
    char *ref = NULL;
    for (int w = 0; w < 3; w++)
      for (int t = 0; t < 2; t++) {
        char *got = run_one(c, variants[v], warps[w], threads[t]);
        if (!ref) { ref = got; continue; }
        if (strcmp(ref, got)) fail_msg("%s %s: reports differ at warp %u threads %u:\n%s\nvs\n%s", variants[v],
                                       c->kernel, warps[w], threads[t], got, ref);
        free(got);
      }
    free(ref);
  }
}

static void test_scattered_atomics(void **state) {
  (void)state;
  /* scatter_mixed, 4 groups of 16: work-item g increments bin (5g) % 16 atomically; g = 37 (group
   * 2, local 5) also writes bin 3 plainly. Bin 3 is incremented by g = 7, 23, 39, 55 (5g = 3 mod
   * 16). Group 2's interval: plain write by local 5 and atomic by local 7 (gid 39) conflict: the
   * atomic is shown against the plain write (plain-first keys: w0 = the plain one). Between groups:
   * the plain write (37) against the earliest atomic (group 0's g = 7), and group 3's atomic
   * (55) against the plain write of group 2. Atomics against atomics: never. So 2 occurrences at
   * the atomic (first gid 39) and 1 at the plain write, all on bytes [12, 16). */
  const tcase c = {"scatter_mixed", 64, 16, 64, 2,
                   {{9, 10, 39, 37, true, true, false, 12, 4, 2}, {10, 9, 37, 7, false, true, true, 12, 4, 1}}};
  run_case(&c);
}

static void test_run_pages(void **state) {
  (void)state;
  /* run_pages, 4 groups of 32 over 130 ints: item g reads int g + 2, then after a global barrier
   * writes int g. Group k >= 1 writes ints 32k and 32k + 1, read by items 32k - 2 and 32k - 1 of
   * group k - 1: 2 x 3 = 6 occurrences, the first the write by 32 of bytes [128, 132) against the
   * read by 30. The earlier groups' readers of a page are two runs (one per group). */
  const tcase r = {"run_pages", 128, 32, 520, 1, {{18, 16, 32, 30, false, false, false, 128, 4, 6}}};
  run_case(&r);
  /* full_pages: the same reads plus each item's own int (line 25), so a page's smallest readers
   * (slot s: item s - 2 by the second load, but items 0 and 1 by the first) are no run and
   * the page keeps every slot; the conflicts are the same 6. */
  const tcase f = {"full_pages", 128, 32, 520, 1, {{27, 25, 32, 30, false, false, false, 128, 4, 6}}};
  run_case(&f);
  /* vec_pages, 4 groups of 16 over 65 int4: item g reads int4 g + 1, then writes int4 g. Group
   * k >= 1's item 0 writes the 16 bytes that item 15 of group k - 1 read: one occurrence per
   * access, 3, the first by 16 at [256, 272) against 15. A page's readers: 4 slots per item. */
  const tcase v = {"vec_pages", 64, 16, 1040, 1, {{35, 33, 16, 15, false, false, false, 256, 16, 3}}};
  run_case(&v);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scattered_atomics),
      cmocka_unit_test(test_run_pages),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
