/*
 * test_checks.c — `--check races` and `--check uninit` (tests/kernels/check_races.cl,
 * check_uninit.cl) at -O0 and -O2, warp widths 1, 7 and 32, one and two threads.
 *
 * Every case states what must be reported: kind, source line, the first work-item (and for races
 * the other one), the memory range and the number of occurrences, derived by hand from the kernel
 * and the OpenCL C rules cited in the .cl files; correct kernels must give no report. The reports
 * (their whole text) must be identical at every warp width and thread count.
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

typedef struct arg { char kind; size_t bytes; int value; } arg;  /* 'b' buffer (zero), 'l' local, 'i' int */

/* What one report must say; count 0: no report expected at all. */
typedef struct expect {
  spvi_report_kind kind;
  unsigned line, other_line;      /* other_line 0: no other site */
  size_t at_gid, other_gid;       /* global id (dimension 0) of the shown work-items */
  bool at_write, at_atomic, other_write, other_atomic;
  int arg_index;                  /* -1: no memory named */
  int64_t offset;
  uint64_t size, count;
} expect;

typedef struct tcase {
  const char *file, *kernel;
  unsigned checks;
  size_t global, local;
  arg args[4];
  int nargs;
  expect e;                       /* e.count == 0: must not be reported */
} tcase;

static void printf_sink(void *user, const char *text, size_t len) { (void)user; (void)text; (void)len; }

/* Runs the case; returns the reports' concatenated text (malloc'd) for the identity check. */
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
    spvi_status s = c->args[i].kind == 'b'   ? spvi_set_arg_buffer(l, i, NULL, c->args[i].bytes, &err)
                    : c->args[i].kind == 'l' ? spvi_set_arg_local(l, i, c->args[i].bytes, &err)
                                             : spvi_set_arg_value(l, i, &c->args[i].value, 4, &err);
    if (s != SPVI_OK) fail_msg("%s: arg %d: %s", ctx, i, err.message);
  }
  size_t g = c->global, lo = c->local;
  assert_int_equal(spvi_set_ndrange(l, 1, &g, &lo, NULL, &err), SPVI_OK);
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.warp_width = warp;
  o.threads = threads;
  o.checks = c->checks;
  o.on_printf = printf_sink;
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
    else if (r->at.write != e->at_write || r->at.atomic != e->at_atomic) why = "access";
    else if (r->has_other != (e->other_line != 0)) why = "other site";
    else if (e->other_line && (r->other.line != e->other_line || r->other.global_id[0] != e->other_gid ||
                               r->other.write != e->other_write || r->other.atomic != e->other_atomic)) why = "other site";
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

/* ---- races ----------------------------------------------------------------------------------- */

static void test_race_correct_kernels(void **state) {
  (void)state;
  /* barrier-synchronised reduction, atomics only, disjoint byte writes, a shift through local
   * memory after a barrier: no report */
  const tcase cs[] = {
      {"check_races", "reduce_ok", R, 64, 16, {BUF(256), BUF(16), LOC(64)}, 3, {0}},
      {"check_races", "atomic_ok", R, 64, 16, {BUF(4)}, 1, {0}},
      {"check_races", "disjoint_chars", R, 64, 16, {BUF(64)}, 1, {0}},
      {"check_races", "local_shift_ok", R | U, 64, 16, {BUF(256), LOC(64)}, 2, {0}},
  };
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) run_case(&cs[i]);
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
  const tcase c = {"check_races", "reduce_race", R, 64, 16, {BUF(256), BUF(16), LOC(64)}, 3,
                   {SPVI_REPORT_RACE, 26, 26, 1, 0, true, false, false, false, 2, 4, 4, 28}};
  run_case(&c);
}

static void test_race_global(void **state) {
  (void)state;
  /* global_ww, 4 groups of 16, every work-item writes out[0]: per group one write-write conflict
   * in the interval (shown: work-items 1 and 0 of the group), and every access of groups 1..3
   * conflicts with group 0's write: 4 + 48 = 52, the first is global 1 against global 0. */
  const tcase ww = {"check_races", "global_ww", R, 64, 16, {BUF(4)}, 1,
                    {SPVI_REPORT_RACE, 34, 34, 1, 0, true, false, true, false, 0, 0, 4, 52}};
  run_case(&ww);
  /* neighbour: work-item g reads buf[g + 16] then, after a global barrier, writes buf[g]. Group
   * k >= 1 writes buf[16k .. 16k+15], which group k-1 read: 16 x 3 = 48 conflicts, the first is
   * global 16 (group 1) writing buf[16] (offset 64), against the read by global 0. Within a group
   * the barrier orders the accesses: nothing else. */
  const tcase nb = {"check_races", "neighbour", R, 64, 16, {BUF(320)}, 1,
                    {SPVI_REPORT_RACE, 59, 57, 16, 0, true, false, false, false, 0, 64, 4, 48}};
  run_case(&nb);
}

static void test_race_atomic_vs_plain(void **state) {
  (void)state;
  /* atomic_mixed: atomic_inc by all, plain read of count by global 0 only. Group 0's interval:
   * atomic writers 0..15, plain reader 0: the pair is the atomic write by work-item 1 and the
   * read by 0 (1 occurrence); groups 1..3: each atomic write conflicts with the earlier group's
   * plain read (48). Atomic against atomic is never reported. */
  const tcase c = {"check_races", "atomic_mixed", R, 64, 16, {BUF(4), BUF(4)}, 2,
                   {SPVI_REPORT_RACE, 44, 45, 1, 0, true, true, false, false, 0, 0, 4, 49}};
  run_case(&c);
}

static void test_race_same_value(void **state) {
  (void)state;
  /* same_value: every work-item writes 1 to the one local int. The same bytes, but still a data
   * race (OpenCL C 3.3.6 does not exempt equal values); one per group: 4. */
  const tcase c = {"check_races", "same_value", R, 64, 16, {BUF(256), LOC(4)}, 2,
                   {SPVI_REPORT_RACE, 65, 65, 1, 0, true, false, true, false, 1, 0, 4, 4}};
  run_case(&c);
}

static void test_race_word_and_byte(void **state) {
  (void)state;
  /* Shadow slots cover aligned words until a page is accessed by part of a word: the races must be
   * found on the exact bytes either way. word_byte, 2 groups of 16: item j writes int j, item j - 1
   * (of its group, wrapping) reads byte 3 of it: byte 4j + 3 is written and read by two items in
   * one interval (32 occurrences, each its own byte); the one shown is byte 3 (written by 0, read
   * by 15). Bytes 0..2 are only written: nothing. */
  const tcase wb = {"check_races", "word_byte", R, 32, 16, {BUF(128), BUF(32)}, 2,
                    {SPVI_REPORT_RACE, 83, 84, 0, 15, true, false, false, false, 0, 3, 1, 32}};
  run_case(&wb);
  /* word_then_byte: group 1's item l reads byte 4l + 1, which group 0's item l wrote as part of its
   * int: one occurrence per read, 16, the first read by global 16 against global 0 at offset 1. */
  const tcase tb = {"check_races", "word_then_byte", R, 32, 16, {BUF(64), BUF(16)}, 2,
                    {SPVI_REPORT_RACE, 92, 91, 16, 0, false, false, true, false, 0, 1, 1, 16}};
  run_case(&tb);
  /* byte_then_word: group 0's item l writes byte 4l + 2, group 1's item l reads int l: the
   * conflicting bytes of each read are that one byte, 16 occurrences. */
  const tcase bt = {"check_races", "byte_then_word", R, 32, 16, {BUF(64), BUF(16)}, 2,
                    {SPVI_REPORT_RACE, 100, 99, 16, 0, false, false, true, false, 0, 2, 1, 16}};
  run_case(&bt);
}

/* ---- uninit ---------------------------------------------------------------------------------- */

static void test_uninit_reported(void **state) {
  (void)state;
  const tcase cs[] = {
      /* work-items 8..15 of each of 2 groups store a never-written local slot to out: 16 */
      {"check_uninit", "local_half", U, 32, 16, {BUF(128), LOC(64)}, 2,
       {SPVI_REPORT_UNINIT, 13, 0, 8, 0, true, false, false, false, 0, 32, 4, 16}},
      /* a[6] with only a[0..3] written decides the branch, in every work-item: 32 */
      {"check_uninit", "private_branch", U, 32, 16, {BUF(128), INT(4), INT(6)}, 3,
       {SPVI_REPORT_UNINIT, 29, 0, 0, 0, false, false, false, false, -1, 0, 0, 32}},
      /* idx[0] never written forms the store's address, in every work-item: 32 */
      {"check_uninit", "local_index", U, 32, 16, {BUF(128), LOC(4)}, 2,
       {SPVI_REPORT_UNINIT, 54, 0, 0, 0, false, false, false, false, -1, 0, 0, 32}},
      /* printf of a[1], never written, in both work-items */
      {"check_uninit", "print_uninit", U, 2, 2, {INT(1)}, 1,
       {SPVI_REPORT_UNINIT, 61, 0, 0, 0, false, false, false, false, -1, 0, 0, 2}},
  };
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) run_case(&cs[i]);
}

static void test_uninit_not_reported(void **state) {
  (void)state;
  const tcase cs[] = {
      {"check_uninit", "local_full", U | R, 32, 16, {BUF(128), LOC(64)}, 2, {0}},
      /* k < n: only written slots are read */
      {"check_uninit", "private_branch", U, 32, 16, {BUF(128), INT(8), INT(6)}, 3, {0}},
      /* a never-written slot is read, then overwritten before any use */
      {"check_uninit", "read_then_overwrite", U, 32, 16, {BUF(128), INT(3)}, 2, {0}},
      /* a struct with one member never written is copied whole; only the written member is used */
      {"check_uninit", "partial_struct", U, 32, 16, {BUF(128), INT(3)}, 2, {0}},
  };
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) run_case(&cs[i]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_race_correct_kernels), cmocka_unit_test(test_race_local),
      cmocka_unit_test(test_race_global),          cmocka_unit_test(test_race_atomic_vs_plain),
      cmocka_unit_test(test_race_same_value),      cmocka_unit_test(test_race_word_and_byte),
      cmocka_unit_test(test_uninit_reported),
      cmocka_unit_test(test_uninit_not_reported),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
