/*
 * test_checks_sync.c — `--check races` / `--check uninit` with the synchronisation that is not a
 * work-group barrier: sub_group_barrier (tests/kernels/check_sync.cl), async work-group copies and
 * wait_group_events, and image reads and writes (tests/kernels/check_async.cl); -O0 and -O2, warp
 * widths 1, 7 and 32, one and two threads, like test_checks.c.
 *
 * Every expectation (kind, source line, work-items, memory, byte range, number of occurrences) is
 * derived by hand from the kernel and the rules in spec-notes/checks.md; correct kernels must give
 * no report. The reports' whole text must be identical at every warp width and thread count
 * (check_harness.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "check_harness.h"

#define R SPVI_CHECK_RACES
#define U SPVI_CHECK_UNINIT
#define SYNC "check_sync"
#define ASYNC "check_async"

/* ---- sub-group barriers (sub-groups of 8, work-groups of 16: two sub-groups per group) -------- */

static void test_subgroup_barrier_correct(void **state) {
  (void)state;
  /* every exchange inside a sub-group is separated by a sub_group_barrier with the right fence */
  const ch_case cs[] = {
    {.file = SYNC,
     .kernel = "sg_ok",
     .checks = R,
     .subgroup = 8,
     .global = 64,
     .local = 32,
     .args = {CH_BUF(256), CH_LOC(128)}},
    {.file = SYNC,
     .kernel = "sg_ok",
     .checks = R | U,
     .subgroup = 8,
     .global = 32,
     .local = 16,
     .args = {CH_BUF(128), CH_LOC(64)}},
    {.file = SYNC,
     .kernel = "sg_global_ok",
     .checks = R,
     .subgroup = 8,
     .global = 32,
     .local = 16,
     .args = {CH_BUF(128), CH_BUF(128)}},
  };
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) ch_run(&cs[i]);
}

static void test_subgroup_barrier_races(void **state) {
  (void)state;
  /* sg_missing: tmp[j] is written by work-item j and read, with no barrier between, by the
   * work-item of j's sub-group with local id base + (j % 8 + 7) % 8: a race inside one sub-group on
   * every int of the 16 (one occurrence each, the pairs differ), 2 groups: 32. The first: int 0
   * written by 0 (@missing-write), read by 7 (@missing-read), 4 bytes at offset 0 of the local
   * argument 1. The write after the following sub_group_barrier is ordered with both: it changes
   * nothing. */
  const ch_case miss = {.file = SYNC,
                        .kernel = "sg_missing",
                        .checks = R,
                        .subgroup = 8,
                        .global = 32,
                        .local = 16,
                        .args = {CH_BUF(128), CH_LOC(64)},
                        .want = {{.kind = SPVI_REPORT_RACE,
                                  .at = {.mark = "missing-write", .gid = 0, .write = true},
                                  .other = {.mark = "missing-read", .gid = 7},
                                  .memory = {.arg = 1, .offset = 0, .size = 4},
                                  .count = 32}}};
  ch_run(&miss);
  /* sg_cross: the sub-group barrier does not order tmp[j]'s write by j with its read by
   * (j + 8) % 16, of the other sub-group: 16 ints x 2 groups; the first: int 0 written by 0
   * (@cross-write), read by 8 (@cross-read). */
  const ch_case cross = {.file = SYNC,
                         .kernel = "sg_cross",
                         .checks = R,
                         .subgroup = 8,
                         .global = 32,
                         .local = 16,
                         .args = {CH_BUF(128), CH_LOC(64)},
                         .want = {{.kind = SPVI_REPORT_RACE,
                                   .at = {.mark = "cross-write", .gid = 0, .write = true},
                                   .other = {.mark = "cross-read", .gid = 8},
                                   .memory = {.arg = 1, .offset = 0, .size = 4},
                                   .count = 32}}};
  ch_run(&cross);
  /* sg_wrong_fence: as sg_missing in global memory (buf, argument 0), the local fence does not
   * order it; groups touch disjoint ints: 32, the first int 0 written by 0 (@fence-write), read by
   * 7 (@fence-read). */
  const ch_case fence = {.file = SYNC,
                         .kernel = "sg_wrong_fence",
                         .checks = R,
                         .subgroup = 8,
                         .global = 32,
                         .local = 16,
                         .args = {CH_BUF(128), CH_BUF(128)},
                         .want = {{.kind = SPVI_REPORT_RACE,
                                   .at = {.mark = "fence-write", .gid = 0, .write = true},
                                   .other = {.mark = "fence-read", .gid = 7},
                                   .memory = {.arg = 0, .offset = 0, .size = 4},
                                   .count = 32}}};
  ch_run(&fence);
}

static void test_subgroup_atomics(void **state) {
  (void)state;
  /* sg_atomic_bins: scattered atomics in sub-group mode (recorded lane by lane there). Work-item
   * with sub-group local id j increments int (3j) % 8 of its sub-group's 8 ints (@bins-inc) and
   * reads int sl = its own (@bins-read) with no barrier: int k of a sub-group is incremented by
   * j = 3k % 8 (3 * 3 = 9 = 1 mod 8) and read by k, the same work-item for k = 0 and 4: 6 races
   * inside each sub-group (one occurrence each: the pairs differ), 2 sub-groups x 2 groups = 24.
   * The one shown has the smallest work-item on the shown side, the atomic write: j = 1's
   * increment of int 3 (offset 12 of the local argument 1), read by 3. No other sub-group touches
   * a sub-group's ints. */
  const ch_case bins = {.file = SYNC,
                        .kernel = "sg_atomic_bins",
                        .checks = R,
                        .subgroup = 8,
                        .global = 32,
                        .local = 16,
                        .args = {CH_BUF(128), CH_LOC(64)},
                        .want = {{.kind = SPVI_REPORT_RACE,
                                  .at = {.mark = "bins-inc", .gid = 1, .write = true, .atomic = true},
                                  .other = {.mark = "bins-read", .gid = 3},
                                  .memory = {.arg = 1, .offset = 12, .size = 4},
                                  .count = 24}}};
  ch_run(&bins);
  /* with a sub_group_barrier (local fence) between: ordered, nothing */
  const ch_case ok = {.file = SYNC,
                      .kernel = "sg_atomic_bins_ok",
                      .checks = R,
                      .subgroup = 8,
                      .global = 32,
                      .local = 16,
                      .args = {CH_BUF(128), CH_LOC(64)}};
  ch_run(&ok);
}

/* ---- async copies (work-groups of 16 ints, 2 groups) ----------------------------------------- */

static void test_async_correct(void **state) {
  (void)state;
  /* copy in, wait, barrier, read, barrier, write, barrier, copy out, wait: no race, and the local
   * memory read was written by the copy */
  const ch_case c = {.file = ASYNC,
                     .kernel = "async_ok",
                     .checks = R | U,
                     .global = 32,
                     .local = 16,
                     .args = {CH_BUF(128), CH_BUF(128), CH_LOC(64)}};
  ch_run(&c);
}

static void test_async_races(void **state) {
  (void)state;
  /* async_read_early: the copy (the group's access, shown as work-item 0 of the group) writes
   * tmp[0..16) until the wait; work-item j reads tmp[j] before it: one occurrence per int (the
   * readers differ), 16 x 2 groups. The first: the copy's write (@early-copy) of int 0 against the
   * read by work-item 0 (@early-read), 4 bytes at offset 0 of the local argument 2. */
  const ch_case early = {.file = ASYNC,
                         .kernel = "async_read_early",
                         .checks = R,
                         .global = 32,
                         .local = 16,
                         .args = {CH_BUF(128), CH_BUF(128), CH_LOC(64)},
                         .want = {{.kind = SPVI_REPORT_RACE,
                                   .at = {.mark = "early-copy", .gid = 0, .write = true},
                                   .other = {.mark = "early-read", .gid = 0},
                                   .memory = {.arg = 2, .offset = 0, .size = 4},
                                   .count = 32}}};
  ch_run(&early);
  /* async_src_write: work-item j of group g writes src[16g + j] (@src-write) while the copy reads
   * it (@src-copy): 16 x 2; the first is global 0's write of int 0 of argument 0 against group 0's
   * copy (shown as global 0). The groups' ranges are disjoint: no inter-group race. */
  const ch_case src = {.file = ASYNC,
                       .kernel = "async_src_write",
                       .checks = R,
                       .global = 32,
                       .local = 16,
                       .args = {CH_BUF(128), CH_BUF(128), CH_LOC(64)},
                       .want = {{.kind = SPVI_REPORT_RACE,
                                 .at = {.mark = "src-write", .gid = 0, .write = true},
                                 .other = {.mark = "src-copy", .gid = 0},
                                 .memory = {.arg = 0, .offset = 0, .size = 4},
                                 .count = 32}}};
  ch_run(&src);
  /* async_barrier_early: a barrier between the copy (@bar-copy) and its wait does not complete it;
   * work-item j reads tmp[(j + 1) % 16] (@bar-read) before the wait: 16 x 2 occurrences. The one
   * shown has the smallest reader: work-item 0's read of int 1 (offset 4). */
  const ch_case bar = {.file = ASYNC,
                       .kernel = "async_barrier_early",
                       .checks = R,
                       .global = 32,
                       .local = 16,
                       .args = {CH_BUF(128), CH_BUF(128), CH_LOC(64)},
                       .want = {{.kind = SPVI_REPORT_RACE,
                                 .at = {.mark = "bar-copy", .gid = 0, .write = true},
                                 .other = {.mark = "bar-read", .gid = 0},
                                 .memory = {.arg = 2, .offset = 4, .size = 4},
                                 .count = 32}}};
  ch_run(&bar);
}

static void test_async_groups(void **state) {
  (void)state;
  /* async_same_dst: both groups' copies (@same-copy) write dst[0..16): group 1's copy (shown as
   * its work-item 0, global 16) against group 0's (global 0), both writes, one occurrence for the
   * 64 bytes (the same earlier access on all of them). */
  const ch_case same = {.file = ASYNC,
                        .kernel = "async_same_dst",
                        .checks = R,
                        .global = 32,
                        .local = 16,
                        .args = {CH_BUF(64), CH_LOC(64)},
                        .want = {{.kind = SPVI_REPORT_RACE,
                                  .at = {.mark = "same-copy", .gid = 16, .write = true},
                                  .other = {.mark = "same-copy", .gid = 0, .write = true},
                                  .memory = {.arg = 0, .offset = 0, .size = 64},
                                  .count = 1}}};
  ch_run(&same);
  /* async_copy_then_read: group 0's copy (@ctr-copy) wrote buf[0..16); work-item j of group 1
   * reads buf[j] (@ctr-read): 16 occurrences (one per reader), the first global 16's read of int 0
   * against the copy (global 0). */
  const ch_case ctr = {.file = ASYNC,
                       .kernel = "async_copy_then_read",
                       .checks = R,
                       .global = 32,
                       .local = 16,
                       .args = {CH_BUF(64), CH_BUF(64), CH_LOC(64)},
                       .want = {{.kind = SPVI_REPORT_RACE,
                                 .at = {.mark = "ctr-read", .gid = 16},
                                 .other = {.mark = "ctr-copy", .gid = 0, .write = true},
                                 .memory = {.arg = 0, .offset = 0, .size = 4},
                                 .count = 16}}};
  ch_run(&ctr);
  /* async_write_then_copy: work-item j of group 0 wrote buf[j] (@wtc-write); group 1's copy
   * (@wtc-copy, global 16) reads buf[0..16): one occurrence per int (the earlier writer changes),
   * 16, the first int 0 against global 0. */
  const ch_case wtc = {.file = ASYNC,
                       .kernel = "async_write_then_copy",
                       .checks = R,
                       .global = 32,
                       .local = 16,
                       .args = {CH_BUF(64), CH_BUF(64), CH_LOC(64)},
                       .want = {{.kind = SPVI_REPORT_RACE,
                                 .at = {.mark = "wtc-copy", .gid = 16},
                                 .other = {.mark = "wtc-write", .gid = 0, .write = true},
                                 .memory = {.arg = 0, .offset = 0, .size = 4},
                                 .count = 16}}};
  ch_run(&wtc);
}

static void test_async_uninit(void **state) {
  (void)state;
  /* async_uninit: tmp[0..8) written, the copy takes tmp[0..16) to dst: it writes the 32 undefined
   * bytes tmp[8..16) to dst[16g + 8 ..) (@uninit-copy), once per group: 2; the first at offset
   * 32. */
  const ch_case c = {.file = ASYNC,
                     .kernel = "async_uninit",
                     .checks = U,
                     .global = 32,
                     .local = 16,
                     .args = {CH_BUF(128), CH_LOC(64)},
                     .want = {{.kind = SPVI_REPORT_UNINIT,
                               .at = {.mark = "uninit-copy", .gid = 0, .write = true},
                               .memory = {.arg = 0, .offset = 32, .size = 32},
                               .count = 2}}};
  ch_run(&c);
}

/* ---- images (one work-group of 16; pixels of 16 bytes) --------------------------------------- */

static void test_image_races(void **state) {
  (void)state;
  /* img_ww: work-items 2k and 2k + 1 write pixel k: 8 pixels, 8 occurrences; the one shown for
   * pixel 0: the write by 1 (the second writer) against the write by 0, 16 bytes at offset 0. */
  const ch_case ww = {.file = ASYNC,
                      .kernel = "img_ww",
                      .checks = R,
                      .global = 16,
                      .local = 16,
                      .args = {CH_IMG(8)},
                      .want = {{.kind = SPVI_REPORT_RACE,
                                .at = {.mark = "img-ww", .gid = 1, .write = true},
                                .other = {.mark = "img-ww", .gid = 0, .write = true},
                                .memory = {.arg = 0, .offset = 0, .size = 16},
                                .count = 8}}};
  ch_run(&ww);
  /* img_rw without the fence: pixel j written by j (@img-write), read by (j + 15) % 16
   * (@img-read): 16 occurrences, the first pixel 0 written by 0 and read by 15. With
   * barrier(CLK_IMAGE_MEM_FENCE) between: none. */
  const ch_case rw = {.file = ASYNC,
                      .kernel = "img_rw",
                      .checks = R,
                      .global = 16,
                      .local = 16,
                      .args = {CH_IMG(16), CH_BUF(64), CH_INT(0)},
                      .want = {{.kind = SPVI_REPORT_RACE,
                                .at = {.mark = "img-write", .gid = 0, .write = true},
                                .other = {.mark = "img-read", .gid = 15},
                                .memory = {.arg = 0, .offset = 0, .size = 16},
                                .count = 16}}};
  ch_run(&rw);
  const ch_case ok = {.file = ASYNC,
                      .kernel = "img_rw",
                      .checks = R | U,
                      .global = 16,
                      .local = 16,
                      .args = {CH_IMG(16), CH_BUF(64), CH_INT(1)}};
  ch_run(&ok);
}

static void test_image_uninit(void **state) {
  (void)state;
  /* img_uninit with k = 3: a[3] was never written; every work-item writes it to its pixel
   * (@img-uninit): 16 occurrences, the first pixel 0 (16 bytes at offset 0 of the image argument
   * 0). With k = 1 the element was written: nothing. */
  const ch_case bad = {.file = ASYNC,
                       .kernel = "img_uninit",
                       .checks = U,
                       .global = 16,
                       .local = 16,
                       .args = {CH_IMG(16), CH_INT(3)},
                       .want = {{.kind = SPVI_REPORT_UNINIT,
                                 .at = {.mark = "img-uninit", .gid = 0, .write = true},
                                 .memory = {.arg = 0, .offset = 0, .size = 16},
                                 .count = 16}}};
  ch_run(&bad);
  const ch_case good = {
    .file = ASYNC, .kernel = "img_uninit", .checks = U | R, .global = 16, .local = 16, .args = {CH_IMG(16), CH_INT(1)}};
  ch_run(&good);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_subgroup_barrier_correct),
    cmocka_unit_test(test_subgroup_barrier_races),
    cmocka_unit_test(test_subgroup_atomics),
    cmocka_unit_test(test_async_groups),
    cmocka_unit_test(test_async_correct),
    cmocka_unit_test(test_async_races),
    cmocka_unit_test(test_async_uninit),
    cmocka_unit_test(test_image_races),
    cmocka_unit_test(test_image_uninit),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
