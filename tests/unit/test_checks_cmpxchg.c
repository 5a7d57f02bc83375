/*
 * test_checks_cmpxchg.c — `--check races` and compare-exchange (tests/kernels/check_cmpxchg.cl) at
 * -O0 and -O2, warp widths 1, 7 and 32, one and two threads (check_harness.h): a failed
 * compare-exchange is an atomic load (OpenCL C 6.15.12.7.4), which races with plain writes only.
 * Expected reports derived by hand from the kernels.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "check_harness.h"

#define R SPVI_CHECK_RACES
#define CMPXCHG "check_cmpxchg"

static void test_failed_cmpxchg_is_a_load(void **state) {
  (void)state;
  /* leader election (global, across groups, and local, per group) and a try-lock on a taken
   * lock: the only writes are the winners' exchanges (and a write ordered by a barrier), the
   * plain reads are the winner's own or meet atomic loads alone: no report */
  const ch_case cs[] = {
    {.file = CMPXCHG, .kernel = "elect_global", .checks = R, .global = 64, .local = 16, .args = {CH_BUF(4), CH_BUF(4)}},
    {.file = CMPXCHG, .kernel = "elect_local", .checks = R, .global = 64, .local = 16, .args = {CH_BUF(16), CH_LOC(4)}},
    {.file = CMPXCHG,
     .kernel = "trylock_taken",
     .checks = R,
     .global = 64,
     .local = 16,
     .args = {CH_BUF(256), CH_LOC(4)}},
  };
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) ch_run(&cs[i]);
}

static void test_failed_cmpxchg_vs_plain_write(void **state) {
  (void)state;
  /* cas_vs_write, groups of 16: in group 0's interval the plain write by work-item 0 meets the
   * atomic reads of work-items 1..15: one report, the write shown with the smallest other reader
   * (1), 4 bytes at offset 0. Groups 1..3: each of their 48 atomic reads conflicts with group 0's
   * plain write (work-groups are unordered): shown is the first, work-item 16. */
  const ch_case c = {.file = CMPXCHG,
                     .kernel = "cas_vs_write",
                     .checks = R,
                     .global = 64,
                     .local = 16,
                     .args = {CH_BUF(4)},
                     .want = {{.kind = SPVI_REPORT_RACE,
                               .at = {.mark = "plain-write", .gid = 0, .write = true},
                               .other = {.mark = "fail-cas", .gid = 1, .atomic = true},
                               .memory = {.arg = 0, .offset = 0, .size = 4},
                               .count = 1},
                              {.kind = SPVI_REPORT_RACE,
                               .at = {.mark = "fail-cas", .gid = 16, .atomic = true},
                               .other = {.mark = "plain-write", .gid = 0, .write = true},
                               .memory = {.arg = 0, .offset = 0, .size = 4},
                               .count = 48}}};
  ch_run(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_failed_cmpxchg_is_a_load),
    cmocka_unit_test(test_failed_cmpxchg_vs_plain_write),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
