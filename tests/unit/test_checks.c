/*
 * test_checks.c — `--check races` and `--check uninit` (tests/kernels/check_races.cl,
 * check_uninit.cl) at -O0 and -O2, warp widths 1, 7 and 32, one and two threads.
 *
 * Every case states what must be reported: kind, source line, the first work-item (and for races
 * the other one), the memory range and the number of occurrences, derived by hand from the kernel
 * and the OpenCL C rules cited in the .cl files; correct kernels must give no report. The reports
 * (their whole text) must be identical at every warp width and thread count (check_harness.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "check_harness.h"

#define R SPVI_CHECK_RACES
#define U SPVI_CHECK_UNINIT
#define RACES "check_races"
#define UNINIT "check_uninit"

/* ---- races ----------------------------------------------------------------------------------- */

static void test_race_correct_kernels(void **state) {
  (void)state;
  /* barrier-synchronised reduction, atomics only, disjoint byte writes, a shift through local
   * memory after a barrier: no report */
  const ch_case cs[] = {
    {.file = RACES,
     .kernel = "reduce_ok",
     .checks = R,
     .global = 64,
     .local = 16,
     .args = {CH_BUF(256), CH_BUF(16), CH_LOC(64)}},
    {.file = RACES, .kernel = "atomic_ok", .checks = R, .global = 64, .local = 16, .args = {CH_BUF(4)}},
    {.file = RACES, .kernel = "disjoint_chars", .checks = R, .global = 64, .local = 16, .args = {CH_BUF(64)}},
    {.file = RACES,
     .kernel = "local_shift_ok",
     .checks = R | U,
     .global = 64,
     .local = 16,
     .args = {CH_BUF(256), CH_LOC(64)}},
  };
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) ch_run(&cs[i]);
}

static void test_race_local(void **state) {
  (void)state;
  /* reduce_race, groups of 16: in the single interval after the first barrier, work-item x < s
   * writes tmp[x] and reads tmp[x + s] for s = 8, 4, 2, 1. Byte-wise: tmp[j] (j = 1..15) is read by
   * the work-item j - s for each s <= j with j - s < s, and written by j when j < 8; a race exists
   * on every slot j = 1..7 (written by j, read by a smaller work-item) and on none of 8..15 (read
   * only) nor 0 (written by 0 only). The pair shown for slot j: the write by j, the read by the
   * smallest reader j - s. 7 slots x 4 groups = 28 occurrences; the first is slot 1 in group 0:
   * write by work-item 1, read by work-item 0 (s = 1), 4 bytes at offset 4. */
  const ch_case c = {.file = RACES,
                     .kernel = "reduce_race",
                     .checks = R,
                     .global = 64,
                     .local = 16,
                     .args = {CH_BUF(256), CH_BUF(16), CH_LOC(64)},
                     .want = {{.kind = SPVI_REPORT_RACE,
                               .at = {.mark = "reduce-rw", .gid = 1, .write = true},
                               .other = {.mark = "reduce-rw", .gid = 0},
                               .memory = {.arg = 2, .offset = 4, .size = 4},
                               .count = 28}}};
  ch_run(&c);
}

static void test_race_global(void **state) {
  (void)state;
  /* global_ww, 4 groups of 16, every work-item writes out[0]: per group one write-write conflict
   * in the interval (shown: work-items 1 and 0 of the group), and every access of groups 1..3
   * conflicts with group 0's write: 4 + 48 = 52, the first is global 1 against global 0. */
  const ch_case ww = {.file = RACES,
                      .kernel = "global_ww",
                      .checks = R,
                      .global = 64,
                      .local = 16,
                      .args = {CH_BUF(4)},
                      .want = {{.kind = SPVI_REPORT_RACE,
                                .at = {.mark = "ww", .gid = 1, .write = true},
                                .other = {.mark = "ww", .gid = 0, .write = true},
                                .memory = {.arg = 0, .offset = 0, .size = 4},
                                .count = 52}}};
  ch_run(&ww);
  /* neighbour: work-item g reads buf[g + 16] then, after a global barrier, writes buf[g]. Group
   * k >= 1 writes buf[16k .. 16k+15], which group k-1 read: 16 x 3 = 48 conflicts, the first is
   * global 16 (group 1) writing buf[16] (offset 64), against the read by global 0. Within a group
   * the barrier orders the accesses: nothing else. */
  const ch_case nb = {.file = RACES,
                      .kernel = "neighbour",
                      .checks = R,
                      .global = 64,
                      .local = 16,
                      .args = {CH_BUF(320)},
                      .want = {{.kind = SPVI_REPORT_RACE,
                                .at = {.mark = "neighbour-write", .gid = 16, .write = true},
                                .other = {.mark = "neighbour-read", .gid = 0},
                                .memory = {.arg = 0, .offset = 64, .size = 4},
                                .count = 48}}};
  ch_run(&nb);
}

static void test_race_small_groups(void **state) {
  (void)state;
  /* small_groups, 8 groups of 2: group 3's work-items 6 and 7 both write out[6] in its one
   * interval, 1 occurrence (shown: 7 against 6, bytes 24..27); every other work-item writes its own
   * element, so no other group conflicts with it (groups this small run packed, several on one
   * warp, when no check watches them; under the checks each group is still its own) */
  const ch_case c = {.file = RACES,
                     .kernel = "small_groups",
                     .checks = R,
                     .global = 16,
                     .local = 2,
                     .args = {CH_BUF(64)},
                     .want = {{.kind = SPVI_REPORT_RACE,
                               .at = {.mark = "small-race", .gid = 7, .write = true},
                               .other = {.mark = "small-race", .gid = 6, .write = true},
                               .memory = {.arg = 0, .offset = 24, .size = 4},
                               .count = 1}}};
  ch_run(&c);
}

static void test_race_atomic_vs_plain(void **state) {
  (void)state;
  /* atomic_mixed: atomic_inc by all, plain read of count by global 0 only. Group 0's interval:
   * atomic writers 0..15, plain reader 0: the pair is the atomic write by work-item 1 and the
   * read by 0 (1 occurrence); groups 1..3: each atomic write conflicts with the earlier group's
   * plain read (48). Atomic against atomic is never reported. */
  const ch_case c = {.file = RACES,
                     .kernel = "atomic_mixed",
                     .checks = R,
                     .global = 64,
                     .local = 16,
                     .args = {CH_BUF(4), CH_BUF(4)},
                     .want = {{.kind = SPVI_REPORT_RACE,
                               .at = {.mark = "mixed-inc", .gid = 1, .write = true, .atomic = true},
                               .other = {.mark = "mixed-read", .gid = 0},
                               .memory = {.arg = 0, .offset = 0, .size = 4},
                               .count = 49}}};
  ch_run(&c);
}

static void test_race_same_value(void **state) {
  (void)state;
  /* same_value: every work-item writes 1 to the one local int. The same bytes, but still a data
   * race (OpenCL C 3.3.6 does not exempt equal values); one per group: 4. */
  const ch_case c = {.file = RACES,
                     .kernel = "same_value",
                     .checks = R,
                     .global = 64,
                     .local = 16,
                     .args = {CH_BUF(256), CH_LOC(4)},
                     .want = {{.kind = SPVI_REPORT_RACE,
                               .at = {.mark = "same-value", .gid = 1, .write = true},
                               .other = {.mark = "same-value", .gid = 0, .write = true},
                               .memory = {.arg = 1, .offset = 0, .size = 4},
                               .count = 4}}};
  ch_run(&c);
}

static void test_race_word_and_byte(void **state) {
  (void)state;
  /* Shadow slots cover aligned words until a page is accessed by part of a word: the races must be
   * found on the exact bytes either way. word_byte, 2 groups of 16: item j writes int j, item j - 1
   * (of its group, wrapping) reads byte 3 of it: byte 4j + 3 is written and read by two items in
   * one interval (32 occurrences, each its own byte); the one shown is byte 3 (written by 0, read
   * by 15). Bytes 0..2 are only written: nothing. */
  const ch_case wb = {.file = RACES,
                      .kernel = "word_byte",
                      .checks = R,
                      .global = 32,
                      .local = 16,
                      .args = {CH_BUF(128), CH_BUF(32)},
                      .want = {{.kind = SPVI_REPORT_RACE,
                                .at = {.mark = "wb-write", .gid = 0, .write = true},
                                .other = {.mark = "wb-read", .gid = 15},
                                .memory = {.arg = 0, .offset = 3, .size = 1},
                                .count = 32}}};
  ch_run(&wb);
  /* word_then_byte: group 1's item l reads byte 4l + 1, which group 0's item l wrote as part of its
   * int: one occurrence per read, 16, the first read by global 16 against global 0 at offset 1. */
  const ch_case tb = {.file = RACES,
                      .kernel = "word_then_byte",
                      .checks = R,
                      .global = 32,
                      .local = 16,
                      .args = {CH_BUF(64), CH_BUF(16)},
                      .want = {{.kind = SPVI_REPORT_RACE,
                                .at = {.mark = "wtb-read", .gid = 16},
                                .other = {.mark = "wtb-write", .gid = 0, .write = true},
                                .memory = {.arg = 0, .offset = 1, .size = 1},
                                .count = 16}}};
  ch_run(&tb);
  /* byte_then_word: group 0's item l writes byte 4l + 2, group 1's item l reads int l: the
   * conflicting bytes of each read are that one byte, 16 occurrences. */
  const ch_case bt = {.file = RACES,
                      .kernel = "byte_then_word",
                      .checks = R,
                      .global = 32,
                      .local = 16,
                      .args = {CH_BUF(64), CH_BUF(16)},
                      .want = {{.kind = SPVI_REPORT_RACE,
                                .at = {.mark = "btw-read", .gid = 16},
                                .other = {.mark = "btw-write", .gid = 0, .write = true},
                                .memory = {.arg = 0, .offset = 2, .size = 1},
                                .count = 16}}};
  ch_run(&bt);
}

/* ---- uninit ---------------------------------------------------------------------------------- */

static void test_uninit_reported(void **state) {
  (void)state;
  const ch_case cs[] = {
    /* work-items 8..15 of each of 2 groups store a never-written local slot to out: 16 */
    {.file = UNINIT,
     .kernel = "local_half",
     .checks = U,
     .global = 32,
     .local = 16,
     .args = {CH_BUF(128), CH_LOC(64)},
     .want = {{.kind = SPVI_REPORT_UNINIT,
               .at = {.mark = "half-store", .gid = 8, .write = true},
               .memory = {.arg = 0, .offset = 32, .size = 4},
               .count = 16}}},
    /* a[6] with only a[0..3] written decides the branch, in every work-item: 32 */
    {.file = UNINIT,
     .kernel = "private_branch",
     .checks = U,
     .global = 32,
     .local = 16,
     .args = {CH_BUF(128), CH_INT(4), CH_INT(6)},
     .want = {{.kind = SPVI_REPORT_UNINIT, .at = {.mark = "branch", .gid = 0}, .memory = CH_NO_MEMORY, .count = 32}}},
    /* idx[0] never written forms the store's address, in every work-item: 32 */
    {.file = UNINIT,
     .kernel = "local_index",
     .checks = U,
     .global = 32,
     .local = 16,
     .args = {CH_BUF(128), CH_LOC(4)},
     .want = {{.kind = SPVI_REPORT_UNINIT, .at = {.mark = "index", .gid = 0}, .memory = CH_NO_MEMORY, .count = 32}}},
    /* printf of a[1], never written, in both work-items */
    {.file = UNINIT,
     .kernel = "print_uninit",
     .checks = U,
     .global = 2,
     .local = 2,
     .args = {CH_INT(1)},
     .want = {{.kind = SPVI_REPORT_UNINIT, .at = {.mark = "print", .gid = 0}, .memory = CH_NO_MEMORY, .count = 2}}},
  };
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) ch_run(&cs[i]);
}

static void test_uninit_not_reported(void **state) {
  (void)state;
  const ch_case cs[] = {
    {.file = UNINIT,
     .kernel = "local_full",
     .checks = U | R,
     .global = 32,
     .local = 16,
     .args = {CH_BUF(128), CH_LOC(64)}},
    /* k < n: only written slots are read */
    {.file = UNINIT,
     .kernel = "private_branch",
     .checks = U,
     .global = 32,
     .local = 16,
     .args = {CH_BUF(128), CH_INT(8), CH_INT(6)}},
    /* a never-written slot is read, then overwritten before any use */
    {.file = UNINIT,
     .kernel = "read_then_overwrite",
     .checks = U,
     .global = 32,
     .local = 16,
     .args = {CH_BUF(128), CH_INT(3)}},
    /* a struct with one member never written is copied whole; only the written member is used */
    {.file = UNINIT,
     .kernel = "partial_struct",
     .checks = U,
     .global = 32,
     .local = 16,
     .args = {CH_BUF(128), CH_INT(3)}},
  };
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) ch_run(&cs[i]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_race_correct_kernels), cmocka_unit_test(test_race_local),
    cmocka_unit_test(test_race_global),          cmocka_unit_test(test_race_small_groups),
    cmocka_unit_test(test_race_atomic_vs_plain), cmocka_unit_test(test_race_same_value),
    cmocka_unit_test(test_race_word_and_byte),   cmocka_unit_test(test_uninit_reported),
    cmocka_unit_test(test_uninit_not_reported),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
