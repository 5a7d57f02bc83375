/*
 * test_checks_sync.c — `--check races` / `--check uninit` with the synchronisation that is not a
 * work-group barrier: sub_group_barrier (tests/kernels/check_sync.cl), async work-group copies and
 * wait_group_events, and image reads and writes (tests/kernels/check_async.cl); -O0 and -O2, warp
 * widths 1, 7 and 32, one and two threads, like test_checks.c.
 *
 * Every expectation (kind, source line, work-items, memory, byte range, number of occurrences) is
 * derived by hand from the kernel and the rules in spec-notes/checks.md; correct kernels must give
 * no report. The reports' whole text must be identical at every warp width and thread count.
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

/* 'b' buffer (zero), 'l' local, 'i' int, 'm' image2d of `bytes` x 1 rgba float pixels (zero) */
typedef struct arg { char kind; size_t bytes; int value; } arg;

typedef struct expect {
  spvi_report_kind kind;
  unsigned line, other_line;      /* other_line 0: no other site */
  size_t at_gid, other_gid;       /* global id (dimension 0) of the shown work-items */
  bool at_write, other_write;
  int arg_index;                  /* -1: no memory named */
  int64_t offset;
  uint64_t size, count;           /* count 0: no report at all */
  unsigned atomics;               /* 1: the shown access is atomic, 2: the other one is */
} expect;

typedef struct tcase {
  const char *file, *kernel;
  unsigned checks, sg;            /* sg: sub-group size, 0 for the default */
  size_t global, local;
  arg args[4];
  int nargs;
  expect e;
} tcase;

static char *run_one(const tcase *c, const char *variant, unsigned warp, unsigned threads) {
  const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
  char path[512], ctx[256];
  snprintf(path, sizeof path, "%s/kernels/%s.%s.spv", build, c->file, variant);
  snprintf(ctx, sizeof ctx, "%s.%s %s warp %u threads %u", c->file, variant, c->kernel, warp, threads);
  spvi_error err;
  spvi_module *m = spvi_load_file(path, NULL, &err);
  if (!m) fail_msg("%s: %s", ctx, err.message);
  int k = spvi_find_kernel(m, c->kernel);
  if (k < 0) fail_msg("%s: no kernel", ctx);
  spvi_launch *l = spvi_launch_new(m, k, &err);
  for (int i = 0; i < c->nargs; i++) {
    const arg *a = &c->args[i];
    spvi_status s;
    if (a->kind == 'm') {
      spvi_image_desc d = {SPVI_IMAGE_2D, SPVI_ORDER_RGBA, SPVI_FLOAT, a->bytes, 1, 0, 0};
      s = spvi_set_arg_image(l, i, &d, NULL, a->bytes * 16, &err);
    } else {
      s = a->kind == 'b'   ? spvi_set_arg_buffer(l, i, NULL, a->bytes, &err)
          : a->kind == 'l' ? spvi_set_arg_local(l, i, a->bytes, &err)
                           : spvi_set_arg_value(l, i, &a->value, 4, &err);
    }
    if (s != SPVI_OK) fail_msg("%s: arg %d: %s", ctx, i, err.message);
  }
  size_t g = c->global, lo = c->local;
  assert_int_equal(spvi_set_ndrange(l, 1, &g, &lo, NULL, &err), SPVI_OK);
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.warp_width = warp;
  o.threads = threads;
  o.checks = c->checks;
  o.subgroup_size = c->sg;
  spvi_fault f;
  if (spvi_run(l, &o, &f, &err) != SPVI_OK) fail_msg("%s: %s %s", ctx, err.message, f.message);
  size_t n = spvi_report_count(l);
  const expect *e = &c->e;
  if (e->count == 0 && n) fail_msg("%s: unexpected report:\n%s", ctx, spvi_report_get(l, 0)->message);
  if (e->count && n != 1) fail_msg("%s: %zu reports, expected 1", ctx, n);
  size_t cap = 1;
  for (size_t i = 0; i < n; i++) cap += strlen(spvi_report_get(l, i)->message) + 1;
  char *all = calloc(cap, 1);
  for (size_t i = 0; i < n; i++) { strcat(all, spvi_report_get(l, i)->message); strcat(all, "\n"); }
  if (n) {
    const spvi_report *r = spvi_report_get(l, 0);
    const char *why = NULL;
    if (r->kind != e->kind) why = "kind";
    else if (r->at.line != e->line) why = "line";
    else if (r->at.global_id[0] != e->at_gid) why = "work-item";
    else if (r->at.write != e->at_write || r->at.atomic != ((e->atomics & 1) != 0)) why = "access";
    else if (r->has_other != (e->other_line != 0)) why = "other site";
    else if (e->other_line && (r->other.line != e->other_line || r->other.global_id[0] != e->other_gid ||
                               r->other.write != e->other_write || r->other.atomic != ((e->atomics & 2) != 0)))
      why = "other site";
    else if (r->arg_index != e->arg_index) why = "memory";
    else if (e->arg_index >= 0 && (r->offset != e->offset || r->access_size != e->size)) why = "byte range";
    else if (r->count != e->count) why = "count";
    if (why) fail_msg("%s: wrong %s (count %llu) in:\n%s", ctx, why, (unsigned long long)r->count, r->message);
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
        if (strcmp(ref, got)) fail_msg("%s.%s %s: reports differ at warp %u threads %u:\n%s\nvs\n%s", c->file,
                                       variants[v], c->kernel, warps[w], threads[t], got, ref);
        free(got);
      }
    free(ref);
  }
}

#define R SPVI_CHECK_RACES
#define U SPVI_CHECK_UNINIT
#define BUF(n) {'b', (n), 0}
#define LOC(n) {'l', (n), 0}
#define INT(v) {'i', 0, (v)}
#define IMG(w) {'m', (w), 0}

/* ---- sub-group barriers (sub-groups of 8, work-groups of 16: two sub-groups per group) -------- */

static void test_subgroup_barrier_correct(void **state) {
  (void)state;
  /* every exchange inside a sub-group is separated by a sub_group_barrier with the right fence */
  const tcase cs[] = {
      {"check_sync", "sg_ok", R, 8, 64, 32, {BUF(256), LOC(128)}, 2, {0}},
      {"check_sync", "sg_ok", R | U, 8, 32, 16, {BUF(128), LOC(64)}, 2, {0}},
      {"check_sync", "sg_global_ok", R, 8, 32, 16, {BUF(128), BUF(128)}, 2, {0}},
  };
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) run_case(&cs[i]);
}

static void test_subgroup_barrier_races(void **state) {
  (void)state;
  /* sg_missing: tmp[j] is written by work-item j and read, with no barrier between, by the
   * work-item of j's sub-group with local id base + (j % 8 + 7) % 8: a race inside one sub-group on
   * every int of the 16 (one occurrence each, the pairs differ), 2 groups: 32. The first: int 0
   * written by 0 (line 23), read by 7 (line 24), 4 bytes at offset 0 of the local argument 1. The
   * write after the following sub_group_barrier is ordered with both: it changes nothing. */
  const tcase miss = {"check_sync", "sg_missing", R, 8, 32, 16, {BUF(128), LOC(64)}, 2,
                      {SPVI_REPORT_RACE, 23, 24, 0, 7, true, false, 1, 0, 4, 32, 0}};
  run_case(&miss);
  /* sg_cross: the sub-group barrier does not order tmp[j]'s write by j with its read by
   * (j + 8) % 16, of the other sub-group: 16 ints x 2 groups; the first: int 0 written by 0 (line
   * 33), read by 8 (line 35). */
  const tcase cross = {"check_sync", "sg_cross", R, 8, 32, 16, {BUF(128), LOC(64)}, 2,
                       {SPVI_REPORT_RACE, 33, 35, 0, 8, true, false, 1, 0, 4, 32, 0}};
  run_case(&cross);
  /* sg_wrong_fence: as sg_missing in global memory (buf, argument 0), the local fence does not
   * order it; groups touch disjoint ints: 32, the first int 0 written by 0 (line 43), read by 7
   * (line 45). */
  const tcase fence = {"check_sync", "sg_wrong_fence", R, 8, 32, 16, {BUF(128), BUF(128)}, 2,
                       {SPVI_REPORT_RACE, 43, 45, 0, 7, true, false, 0, 0, 4, 32, 0}};
  run_case(&fence);
}

static void test_subgroup_atomics(void **state) {
  (void)state;
  /* sg_atomic_bins: scattered atomics in sub-group mode (recorded lane by lane there). Work-item
   * with sub-group local id j increments int (3j) % 8 of its sub-group's 8 ints (line 63) and
   * reads int sl = its own (line 64) with no barrier: int k of a sub-group is incremented by
   * j = 3k % 8 (3 * 3 = 9 = 1 mod 8) and read by k, the same work-item for k = 0 and 4: 6 races
   * inside each sub-group (one occurrence each: the pairs differ), 2 sub-groups x 2 groups = 24.
   * The one shown has the smallest work-item on the shown side, the atomic write: j = 1's
   * increment of int 3 (offset 12 of the local argument 1), read by 3. No other sub-group touches
   * a sub-group's ints. */
  const tcase bins = {"check_sync", "sg_atomic_bins", R, 8, 32, 16, {BUF(128), LOC(64)}, 2,
                      {SPVI_REPORT_RACE, 63, 64, 1, 3, true, false, 1, 12, 4, 24, 1}};
  run_case(&bins);
  /* with a sub_group_barrier (local fence) between: ordered, nothing */
  const tcase ok = {"check_sync", "sg_atomic_bins_ok", R, 8, 32, 16, {BUF(128), LOC(64)}, 2, {0}};
  run_case(&ok);
}

/* ---- async copies (work-groups of 16 ints, 2 groups) ----------------------------------------- */

static void test_async_correct(void **state) {
  (void)state;
  /* copy in, wait, barrier, read, barrier, write, barrier, copy out, wait: no race, and the local
   * memory read was written by the copy */
  const tcase c = {"check_async", "async_ok", R | U, 0, 32, 16, {BUF(128), BUF(128), LOC(64)}, 3, {0}};
  run_case(&c);
}

static void test_async_races(void **state) {
  (void)state;
  /* async_read_early: the copy (the group's access, shown as work-item 0 of the group) writes
   * tmp[0..16) until the wait; work-item j reads tmp[j] before it: one occurrence per int (the
   * readers differ), 16 x 2 groups. The first: the copy's write (line 24) of int 0 against the
   * read by work-item 0 (line 25), 4 bytes at offset 0 of the local argument 2. */
  const tcase early = {"check_async", "async_read_early", R, 0, 32, 16, {BUF(128), BUF(128), LOC(64)}, 3,
                       {SPVI_REPORT_RACE, 24, 25, 0, 0, true, false, 2, 0, 4, 32, 0}};
  run_case(&early);
  /* async_src_write: work-item j of group g writes src[16g + j] (line 34) while the copy reads it
   * (line 33): 16 x 2; the first is global 0's write of int 0 of argument 0 against group 0's copy
   * (shown as global 0). The groups' ranges are disjoint: no inter-group race. */
  const tcase src = {"check_async", "async_src_write", R, 0, 32, 16, {BUF(128), BUF(128), LOC(64)}, 3,
                     {SPVI_REPORT_RACE, 34, 33, 0, 0, true, false, 0, 0, 4, 32, 0}};
  run_case(&src);
  /* async_barrier_early: a barrier between the copy (line 76) and its wait does not complete it;
   * work-item j reads tmp[(j + 1) % 16] (line 78) before the wait: 16 x 2 occurrences. The one shown
   * has the smallest reader: work-item 0's read of int 1 (offset 4). */
  const tcase bar = {"check_async", "async_barrier_early", R, 0, 32, 16, {BUF(128), BUF(128), LOC(64)}, 3,
                     {SPVI_REPORT_RACE, 76, 78, 0, 0, true, false, 2, 4, 4, 32, 0}};
  run_case(&bar);
}

static void test_async_groups(void **state) {
  (void)state;
  /* async_same_dst: both groups' copies (line 89) write dst[0..16): group 1's copy (shown as its
   * work-item 0, global 16) against group 0's (global 0), both writes, one occurrence for the 64
   * bytes (the same earlier access on all of them). */
  const tcase same = {"check_async", "async_same_dst", R, 0, 32, 16, {BUF(64), LOC(64)}, 2,
                      {SPVI_REPORT_RACE, 89, 89, 16, 0, true, true, 0, 0, 64, 1, 0}};
  run_case(&same);
  /* async_copy_then_read: group 0's copy (line 100) wrote buf[0..16); work-item j of group 1 reads
   * buf[j] (line 103): 16 occurrences (one per reader), the first global 16's read of int 0
   * against the copy (global 0). */
  const tcase ctr = {"check_async", "async_copy_then_read", R, 0, 32, 16, {BUF(64), BUF(64), LOC(64)}, 3,
                     {SPVI_REPORT_RACE, 103, 100, 16, 0, false, true, 0, 0, 4, 16, 0}};
  run_case(&ctr);
  /* async_write_then_copy: work-item j of group 0 wrote buf[j] (line 112); group 1's copy (line
   * 114, global 16) reads buf[0..16): one occurrence per int (the earlier writer changes), 16, the
   * first int 0 against global 0. */
  const tcase wtc = {"check_async", "async_write_then_copy", R, 0, 32, 16, {BUF(64), BUF(64), LOC(64)}, 3,
                     {SPVI_REPORT_RACE, 114, 112, 16, 0, false, true, 0, 0, 4, 16, 0}};
  run_case(&wtc);
}

static void test_async_uninit(void **state) {
  (void)state;
  /* async_uninit: tmp[0..8) written, the copy takes tmp[0..16) to dst: it writes the 32 undefined
   * bytes tmp[8..16) to dst[16g + 8 ..) (line 46), once per group: 2; the first at offset 32. */
  const tcase c = {"check_async", "async_uninit", U, 0, 32, 16, {BUF(128), LOC(64)}, 2,
                   {SPVI_REPORT_UNINIT, 46, 0, 0, 0, true, false, 0, 32, 32, 2, 0}};
  run_case(&c);
}

/* ---- images (one work-group of 16; pixels of 16 bytes) --------------------------------------- */

static void test_image_races(void **state) {
  (void)state;
  /* img_ww: work-items 2k and 2k + 1 write pixel k: 8 pixels, 8 occurrences; the one shown for
   * pixel 0: the write by 1 (the second writer) against the write by 0, 16 bytes at offset 0. */
  const tcase ww = {"check_async", "img_ww", R, 0, 16, 16, {IMG(8)}, 1,
                    {SPVI_REPORT_RACE, 53, 53, 1, 0, true, true, 0, 0, 16, 8, 0}};
  run_case(&ww);
  /* img_rw without the fence: pixel j written by j (line 60), read by (j + 15) % 16 (line 62): 16
   * occurrences, the first pixel 0 written by 0 and read by 15. With barrier(CLK_IMAGE_MEM_FENCE)
   * between: none. */
  const tcase rw = {"check_async", "img_rw", R, 0, 16, 16, {IMG(16), BUF(64), INT(0)}, 3,
                    {SPVI_REPORT_RACE, 60, 62, 0, 15, true, false, 0, 0, 16, 16, 0}};
  run_case(&rw);
  const tcase ok = {"check_async", "img_rw", R | U, 0, 16, 16, {IMG(16), BUF(64), INT(1)}, 3, {0}};
  run_case(&ok);
}

static void test_image_uninit(void **state) {
  (void)state;
  /* img_uninit with k = 3: a[3] was never written; every work-item writes it to its pixel (line
   * 70): 16 occurrences, the first pixel 0 (16 bytes at offset 0 of the image argument 0). With
   * k = 1 the element was written: nothing. */
  const tcase bad = {"check_async", "img_uninit", U, 0, 16, 16, {IMG(16), INT(3)}, 2,
                     {SPVI_REPORT_UNINIT, 70, 0, 0, 0, true, false, 0, 0, 16, 16, 0}};
  run_case(&bad);
  const tcase good = {"check_async", "img_uninit", U | R, 0, 16, 16, {IMG(16), INT(1)}, 2, {0}};
  run_case(&good);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_subgroup_barrier_correct), cmocka_unit_test(test_subgroup_barrier_races),
      cmocka_unit_test(test_subgroup_atomics),         cmocka_unit_test(test_async_groups),
      cmocka_unit_test(test_async_correct),            cmocka_unit_test(test_async_races),
      cmocka_unit_test(test_async_uninit),             cmocka_unit_test(test_image_races),
      cmocka_unit_test(test_image_uninit),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
