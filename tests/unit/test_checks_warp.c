/*
 * test_checks_warp.c — the race checker's per-warp paths (tests/kernels/check_races_warp.cl) at
 * -O0 and -O2, warp widths 1, 7 and 32, one and two threads: a warp's atomics at scattered
 * addresses (recorded lane by lane with one allocation lookup), and the earlier work-groups' pages
 * kept as runs of consecutive work-items until a merge needs every slot.
 *
 * Every expected report (its instructions, first work-items, byte range and count) is derived by
 * hand in the comments; there must be no other report, and the reports' text must be the same at
 * every warp width and thread count (check_harness.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "check_harness.h"

/* A launch of check_races_warp.cl's `kernel` on one buffer of `bytes`, under --check races. */
static void warp_run(const char *kernel, size_t global, size_t local, size_t bytes, const ch_report *want,
                     size_t nwant) {
  ch_case c = {.file = "check_races_warp",
               .kernel = kernel,
               .checks = SPVI_CHECK_RACES,
               .global = global,
               .local = local,
               .args = {CH_BUF(bytes)}};
  assert_true(nwant <= sizeof c.want / sizeof c.want[0]);
  for (size_t i = 0; i < nwant; i++) c.want[i] = want[i];
  ch_run(&c);
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
  const ch_report want[] = {
    {.kind = SPVI_REPORT_RACE,
     .at = {.mark = "scatter-inc", .gid = 39, .write = true, .atomic = true},
     .other = {.mark = "scatter-write", .gid = 37, .write = true},
     .memory = {.arg = 0, .offset = 12, .size = 4},
     .count = 2},
    {.kind = SPVI_REPORT_RACE,
     .at = {.mark = "scatter-write", .gid = 37, .write = true},
     .other = {.mark = "scatter-inc", .gid = 7, .write = true, .atomic = true},
     .memory = {.arg = 0, .offset = 12, .size = 4},
     .count = 1},
  };
  warp_run("scatter_mixed", 64, 16, 64, want, 2);
}

static void test_run_pages(void **state) {
  (void)state;
  /* run_pages, 4 groups of 32 over 130 ints: item g reads int g + 2, then after a global barrier
   * writes int g. Group k >= 1 writes ints 32k and 32k + 1, read by items 32k - 2 and 32k - 1 of
   * group k - 1: 2 x 3 = 6 occurrences, the first the write by 32 of bytes [128, 132) against the
   * read by 30. The earlier groups' readers of a page are two runs (one per group). */
  const ch_report run = {.kind = SPVI_REPORT_RACE,
                         .at = {.mark = "run-write", .gid = 32, .write = true},
                         .other = {.mark = "run-read", .gid = 30},
                         .memory = {.arg = 0, .offset = 128, .size = 4},
                         .count = 6};
  warp_run("run_pages", 128, 32, 520, &run, 1);
  /* full_pages: the same reads plus each item's own int (@full-read), so a page's smallest
   * readers (slot s: item s - 2 by the second load, but items 0 and 1 by the first) are no run
   * and the page keeps every slot; the conflicts are the same 6. */
  const ch_report full = {.kind = SPVI_REPORT_RACE,
                          .at = {.mark = "full-write", .gid = 32, .write = true},
                          .other = {.mark = "full-read", .gid = 30},
                          .memory = {.arg = 0, .offset = 128, .size = 4},
                          .count = 6};
  warp_run("full_pages", 128, 32, 520, &full, 1);
  /* vec_pages, 4 groups of 16 over 65 int4: item g reads int4 g + 1, then writes int4 g. Group
   * k >= 1's item 0 writes the 16 bytes that item 15 of group k - 1 read: one occurrence per
   * access, 3, the first by 16 at [256, 272) against 15. A page's readers: 4 slots per item. */
  const ch_report vec = {.kind = SPVI_REPORT_RACE,
                         .at = {.mark = "vec-write", .gid = 16, .write = true},
                         .other = {.mark = "vec-read", .gid = 15},
                         .memory = {.arg = 0, .offset = 256, .size = 16},
                         .count = 3};
  warp_run("vec_pages", 64, 16, 1040, &vec, 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_scattered_atomics),
    cmocka_unit_test(test_run_pages),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
