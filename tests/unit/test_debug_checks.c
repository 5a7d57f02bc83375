/*
 * test_debug_checks.c — `spvi debug --check`: a debug session (spvi_debug_new with
 * spvi_run_options.checks) stops at each report as at a fault, shows it, lets the user inspect and
 * continue; after the session the launch holds the reports as spvi_run leaves them. Kernels of
 * tests/kernels/check_cmpxchg.cl and check_printf.cl at -O0 and -O2 (the debugger always runs at
 * warp width 1); the expected stops are derived from the kernels below.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "debug_text.h"
#include "load.h"
#include "marker.h"

typedef debug_text text;

/* Run one command; what it printed must contain every string of want[] (NULL-terminated). */
static void command(spvi_debug *d, text *t, const char *cmd, const char *const *want) {
  t->len = 0;
  t->buf[0] = 0;
  spvi_debug_command(d, cmd);
  for (; *want; want++)
    if (!strstr(t->buf, *want)) fail_msg("`%s` printed:\n%s\nwithout: %s", cmd, t->buf, *want);
}

static size_t count_of(const char *s, const char *sub) {
  size_t n = 0;
  for (const char *p = s; (p = strstr(p, sub)); p += strlen(sub)) n++;
  return n;
}

static spvi_debug *session(spvi_launch *l, unsigned checks, text *t) {
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.checks = checks;
  spvi_error err;
  spvi_debug *d = spvi_debug_new(l, &o, debug_text_collect, t, &err);
  if (!d) fail_msg("%s", err.message);
  return d;
}

static spvi_launch *launch(spvi_module *m, const char *kernel, size_t bytes, size_t global, size_t local) {
  spvi_error err;
  const int k = spvi_find_kernel(m, kernel);
  assert_true(k >= 0);
  spvi_launch *l = spvi_launch_new(m, k, &err);
  assert_non_null(l);
  assert_int_equal(spvi_set_arg_buffer(l, 0, NULL, bytes, &err), SPVI_OK);
  assert_int_equal(spvi_set_ndrange(l, 1, &global, &local, NULL, &err), SPVI_OK);
  return l;
}

static const char *const variants[] = {"O0", "O2"};

static void test_stops_at_races(void **state) {
  (void)state;
  /* cas_vs_write over 2 work-groups of 16: in group 0, work-item 0's plain write of the word and
   * the others' failed compare-exchanges (atomic loads) race; that is found when the group ends, so
   * the session stops before group 1 runs, at work-item 16's entry. Then work-item 16's
   * compare-exchange races with group 0's write: found at the access, the session stops right
   * after it, in work-item 16. The later occurrences are counted, not stopped at. */
  const char *path = "tests/kernels/check_cmpxchg.cl";
  char wline[32], cline[32];
  snprintf(wline, sizeof wline, "check_cmpxchg.cl:%u)", marker_line(path, "plain-write"));
  snprintf(cline, sizeof cline, "check_cmpxchg.cl:%u)", marker_line(path, "fail-cas"));
  for (size_t v = 0; v < 2; v++) {
    spvi_module *m = tl_load("check_cmpxchg", variants[v]);
    spvi_launch *l = launch(m, "cas_vs_write", 4, 32, 16);
    static text t;
    t.len = 0;
    spvi_debug *d = session(l, SPVI_CHECK_RACES, &t);
    const char *const first[] = {"\nReport: data race in kernel `cas_vs_write`\n"
                                 "  work-item global (0,0,0) local (0,0,0) group (0,0,0)\n"
                                 "    at OpStore in function `cas_vs_write`",
                                 wline,
                                 "conflicts with the atomic read by work-item global (1,0,0)",
                                 cline,
                                 "[Switching to work-item global (16,0,0) local (0,0,0) group (1,0,0)]",
                                 NULL};
    command(d, &t, "continue", first);
    assert_int_equal(count_of(t.buf, "Report:"), 1);
    assert_int_equal(spvi_debug_get_state(d, NULL), SPVI_DEBUG_STOPPED);
    const char *const second[] = {"\nReport: data race in kernel `cas_vs_write`\n"
                                  "  work-item global (16,0,0) local (0,0,0) group (1,0,0)\n"
                                  "    at OpAtomicCompareExchange %",
                                  "atomic read of 4 bytes at offset 0 of argument 0",
                                  "conflicts with the write by work-item global (0,0,0)", NULL};
    command(d, &t, "continue", second);
    assert_int_equal(count_of(t.buf, "Report:"), 1);
    assert_int_equal(spvi_debug_get_state(d, NULL), SPVI_DEBUG_STOPPED);
    /* the user can inspect where it stopped: work-item 16 is still in the kernel */
    const char *const where[] = {"\n* 16 ", NULL};
    command(d, &t, "info workitems", where);
    const char *const done[] = {"[kernel `cas_vs_write` finished: 2 work-groups]", NULL};
    command(d, &t, "continue", done);
    assert_int_equal(count_of(t.buf, "Report:"), 0);
    assert_int_equal(spvi_debug_get_state(d, NULL), SPVI_DEBUG_FINISHED);
    spvi_debug_free(d);
    /* as spvi_run would leave them: the same two reports, with every occurrence (1 in group 0,
     * 15 loads of group 1 against group 0's write + work-item 16's: 16) */
    assert_int_equal(spvi_report_count(l), 2);
    uint64_t total = spvi_report_get(l, 0)->count + spvi_report_get(l, 1)->count;
    assert_int_equal(total, 17);
    spvi_launch_free(l);
    spvi_module_free(m);
  }
}

static void test_stops_at_printf_report(void **state) {
  (void)state;
  /* pf_no_length over 2 work-items: work-item 0's printf("%v4f") is invalid (an always-on report,
   * no --check needed): the session stops right after the call, showing its source line */
  char pline[32];
  snprintf(pline, sizeof pline, "check_printf.cl:%u)", marker_line("tests/kernels/check_printf.cl", "pf-no-length"));
  for (size_t v = 0; v < 2; v++) {
    spvi_module *m = tl_load("check_printf", variants[v]);
    spvi_launch *l = launch(m, "pf_no_length", 8, 2, 2);
    static text t;
    t.len = 0;
    spvi_debug *d = session(l, 0, &t);
    const char *const first[] = {"\nReport: invalid printf format in kernel `pf_no_length`\n"
                                 "  work-item global (0,0,0) local (0,0,0) group (0,0,0)\n"
                                 "    at OpExtInst %",
                                 pline, "a vector specifier vN without its length modifier", NULL};
    command(d, &t, "continue", first);
    assert_int_equal(spvi_debug_get_state(d, NULL), SPVI_DEBUG_STOPPED);
    const char *const done[] = {"[kernel `pf_no_length` finished: 1 work-group]", NULL};
    command(d, &t, "continue", done);
    assert_int_equal(count_of(t.buf, "Report:"), 0);
    spvi_debug_free(d);
    assert_int_equal(spvi_report_count(l), 1);
    assert_int_equal(spvi_report_get(l, 0)->count, 2);
    spvi_launch_free(l);
    spvi_module_free(m);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_stops_at_races),
    cmocka_unit_test(test_stops_at_printf_report),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
