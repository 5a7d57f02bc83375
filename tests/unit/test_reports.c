/*
 * test_reports.c — how reports and faults name what they found:
 *  - an instruction without a result id (OpStore) is never named "%0": by its opcode when it has a
 *    source line, else by its place in the function (tests/spvasm_checks/noline_store.spvasm and
 *    tests/kernels/check_cmpxchg.cl);
 *  - an invalid printf format is a report at the call's source line (tests/kernels/check_printf.cl),
 *    and the call still prints nothing and returns -1 (OpenCL C 6.15.14.1).
 * Kernels at -O0 and -O2, warp widths 1, 7 and 32 (check_harness.h for the reports' sites).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_harness.h"
#include "load.h"
#include "marker.h"
#include "spvasm.h"

static const unsigned warps[] = {1, 7, 32};

/* Runs `kernel` of m over `global` work-items (groups of `local`) with one zeroed buffer of `n`
 * ints as its argument; *st and *f: the run's status and fault. The caller frees the launch. */
static spvi_launch *run_one(spvi_module *m, const char *kernel, size_t global, size_t local, size_t n, unsigned warp,
                            unsigned checks, spvi_status *st, spvi_fault *f) {
  spvi_error err;
  const int k = spvi_find_kernel(m, kernel);
  assert_true(k >= 0);
  spvi_launch *l = spvi_launch_new(m, k, &err);
  assert_non_null(l);
  int32_t *zero = calloc(n, sizeof *zero);
  assert_non_null(zero);
  assert_int_equal(spvi_set_arg_buffer(l, 0, zero, n * sizeof *zero, &err), SPVI_OK);
  free(zero);
  assert_int_equal(spvi_set_ndrange(l, 1, &global, &local, NULL, &err), SPVI_OK);
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.warp_width = warp;
  o.checks = checks;
  memset(f, 0, sizeof *f);
  *st = spvi_run(l, &o, f, &err);
  return l;
}

/* The same for a run that must succeed with exactly one report, *r. */
static spvi_launch *run_one_report(spvi_module *m, const char *kernel, size_t global, size_t local, size_t n,
                                   unsigned warp, unsigned checks, const spvi_report **r) {
  spvi_status st;
  spvi_fault f;
  spvi_launch *l = run_one(m, kernel, global, local, n, warp, checks, &st, &f);
  assert_int_equal(st, SPVI_OK);
  assert_int_equal(spvi_report_count(l), 1);
  *r = spvi_report_get(l, 0);
  return l;
}

static void expect_text(const char *ctx, const char *msg, const char *want) {
  if (!strstr(msg, want)) fail_msg("%s: expected \"%s\" in:\n%s", ctx, want, msg);
}

static void expect_no_zero_id(const char *ctx, const char *msg) {
  if (strstr(msg, " %0 ") || strstr(msg, " %0\n")) fail_msg("%s: an instruction named %%0 in:\n%s", ctx, msg);
}

/* ---- instructions without a result id -------------------------------------------------------- */

static void test_noline_store_named_by_place(void **state) {
  (void)state;
  /* noline_store.spvasm: the race of `same` (every work-item stores to out[0]) names both stores
   * "OpStore (instruction 4 of block %20)"; the out-of-bounds fault of `idx` (work-item 1 stores
   * to out[1] of a 1-int buffer) names "OpStore (instruction 5 of block %30)". */
  spvi_module *m = spvasm_load("tests/spvasm_checks/noline_store.spvasm", 0, true, "noline_store.spvasm");
  for (size_t w = 0; w < sizeof warps / sizeof warps[0]; w++) {
    char ctx[64];
    snprintf(ctx, sizeof ctx, "warp %u", warps[w]);
    const spvi_report *r;
    spvi_launch *l = run_one_report(m, "same", 4, 4, 1, warps[w], SPVI_CHECK_RACES, &r);
    assert_int_equal(r->kind, SPVI_REPORT_RACE);
    assert_int_equal(r->at.result_id, 0);
    expect_text(ctx, r->message,
                "at OpStore (instruction 4 of block %20) in function `same` (no source line information)\n"
                "  write of 4 bytes at offset 0 of argument 0");
    expect_text(ctx, r->message,
                "by work-item global (0,0,0) local (0,0,0) group (0,0,0)\n"
                "    at OpStore (instruction 4 of block %20) in function `same`");
    expect_no_zero_id(ctx, r->message);
    spvi_launch_free(l);

    spvi_status st;
    spvi_fault f;
    l = run_one(m, "idx", 2, 2, 1, warps[w], 0, &st, &f);
    assert_int_equal(st, SPVI_FAULT);
    assert_int_equal(f.kind, SPVI_FAULT_OUT_OF_BOUNDS);
    expect_text(ctx, f.message, "work-item global (1,0,0)");
    expect_text(ctx, f.message,
                "at OpStore (instruction 5 of block %30) in function `idx` (no source line information)");
    expect_no_zero_id(ctx, f.message);
    spvi_launch_free(l);
  }
  spvi_module_free(m);
}

static void test_store_with_line_named_by_opcode(void **state) {
  (void)state;
  /* check_cmpxchg.cl cas_vs_write: the plain store of work-item 0 (line @plain-write) races with
   * the compare-exchanges of the others; the store has no result id and is named "OpStore" with
   * its source line, the compare-exchange by its result id. */
  static const char *const variants[] = {"O0", "O2"};
  const char *path = "tests/kernels/check_cmpxchg.cl";
  const unsigned line = marker_line(path, "plain-write");
  for (size_t v = 0; v < 2; v++) {
    spvi_module *m = tl_load("check_cmpxchg", variants[v]);
    for (size_t w = 0; w < sizeof warps / sizeof warps[0]; w++) {
      char ctx[64], want[200];
      snprintf(ctx, sizeof ctx, "%s warp %u", variants[v], warps[w]);
      const spvi_report *r;
      spvi_launch *l = run_one_report(m, "cas_vs_write", 16, 16, 1, warps[w], SPVI_CHECK_RACES, &r);
      snprintf(want, sizeof want, "at OpStore in function `cas_vs_write` (%s:%u)", path, line);
      if (!strstr(r->message, "at OpStore in function `cas_vs_write` (") || r->at.line != line)
        fail_msg("%s: expected \"%s\" in:\n%s", ctx, want, r->message);
      expect_text(ctx, r->message, "at OpAtomicCompareExchange %");
      expect_no_zero_id(ctx, r->message);
      spvi_launch_free(l);
    }
    spvi_module_free(m);
  }
}

/* ---- printf ----------------------------------------------------------------------------------- */

#define PRINTF_FILE "check_printf"

static void test_printf_invalid_format_reported(void **state) {
  (void)state;
  /* pf_no_length: every work-item's call is invalid: one report at the call's line, 64
   * occurrences, the first work-item shown; pf_valid: no report */
  const ch_case cs[] = {
    {.file = PRINTF_FILE,
     .kernel = "pf_no_length",
     .global = 64,
     .local = 16,
     .args = {CH_BUF(256)},
     .want = {{.kind = SPVI_REPORT_PRINTF_FORMAT,
               .at = {.mark = "pf-no-length", .gid = 0},
               .memory = CH_NO_MEMORY,
               .count = 64}}},
    {.file = PRINTF_FILE, .kernel = "pf_valid", .global = 64, .local = 16, .args = {CH_BUF(256)}},
  };
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) ch_run(&cs[i]);
}

static void test_printf_invalid_format_text(void **state) {
  (void)state;
  /* the report says what is wrong; printf still returned -1 in every work-item */
  static const char *const variants[] = {"O0", "O2"};
  for (size_t v = 0; v < 2; v++) {
    spvi_module *m = tl_load(PRINTF_FILE, variants[v]);
    for (size_t w = 0; w < sizeof warps / sizeof warps[0]; w++) {
      char ctx[64];
      snprintf(ctx, sizeof ctx, "%s warp %u", variants[v], warps[w]);
      const spvi_report *r;
      spvi_launch *l = run_one_report(m, "pf_no_length", 8, 8, 8, warps[w], 0, &r);
      expect_text(ctx, r->message, "invalid printf format in kernel `pf_no_length`");
      expect_text(ctx, r->message, "a vector specifier vN without its length modifier (hh, h, hl or l)");
      expect_no_zero_id(ctx, r->message);
      size_t bytes = 0;
      const int32_t *ret = spvi_arg_buffer(l, 0, &bytes);
      assert_int_equal(bytes, 32);
      for (int i = 0; i < 8; i++) assert_int_equal(ret[i], -1);
      spvi_launch_free(l);
    }
    spvi_module_free(m);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_noline_store_named_by_place),
    cmocka_unit_test(test_store_with_line_named_by_opcode),
    cmocka_unit_test(test_printf_invalid_format_reported),
    cmocka_unit_test(test_printf_invalid_format_text),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
