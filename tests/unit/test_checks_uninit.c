/*
 * test_checks_uninit.c — `--check uninit` accuracy (tests/kernels/check_uninit_origin.cl) at -O0,
 * -O1 and -O2, warp widths 1, 7 and 32, one and two threads (check_harness.h): read-modify-write
 * atomics on never-written memory are uses, OpUndef constituents of constant composites are
 * undefined, every report names the variable the undefined bytes came from and its declaration line,
 * struct padding never gives a report (C99 6.2.6.1p6), and the component-wise builtins keep a
 * vector's defined components defined. Constant composites are also checked in
 * hand-written assembly (tests/spvasm_checks/uninit_composite.spvasm), where the shapes are exact.
 *
 * The expected reports are derived by hand from the kernels: each group of 16 work-items starts
 * with its local and private memory never written (OpenCL C 6.5.2, 6.5.4: no initialiser), so a
 * report that every work-item makes counts the global size, 32; the first work-item is 0.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "check_harness.h"

#define F "check_uninit_origin"
#define NONE \
  { .kind = CH_END }

/* A launch of `kernel` over 32 work-items in groups of 16 with arguments a0..a2 and the one report
 * `want` (want.count 0: a correct kernel, no report). */
static void launch(const char *kernel, ch_arg a0, ch_arg a1, ch_arg a2, ch_report want) {
  const ch_case c = {.file = F,
                     .kernel = kernel,
                     .checks = SPVI_CHECK_UNINIT,
                     .global = 32,
                     .local = 16,
                     .o1 = true,
                     .args = {a0, a1, a2},
                     .want = {want}};
  ch_run(&c);
}

/* The report of a use of the never-written memory of variable `origin` (declared at the line
 * marked `decl`; both NULL: not checked) at the line marked `mark` by all 32 work-items. */
static ch_report use(const char *mark, bool atomic, ch_memory memory, const char *origin, const char *decl) {
  const ch_report r = {.kind = SPVI_REPORT_UNINIT,
                       .at = {.mark = mark, .gid = 0, .write = true, .atomic = atomic},
                       .memory = memory,
                       .count = 32,
                       .origin = origin,
                       .origin_mark = decl};
  return r;
}

static const ch_report no_report = {.count = 0};

static void test_atomic_rmw(void **state) {
  (void)state;
  const ch_arg out = CH_BUF(128), none = NONE;
  const ch_memory local_var = CH_NO_MEMORY; /* a local variable is no argument */
  /* atomic_inc adds to the never-written counter in every work-item: the sum stays undefined, so
   * all 16 of each group use an undefined value */
  launch("atomic_uninit", out, none, none, use("atomic-inc", true, local_var, "counter", "counter-decl"));
  /* atomic_cmpxchg compares the never-written lock (0 with garbage: the value it leaves is unknown,
   * so it stays undefined): every work-item */
  launch("cmpxchg_uninit", out, none, none, use("cmpxchg", true, local_var, "lock", "lock-decl"));
  /* initialised before the barrier */
  launch("atomic_init", out, none, none, no_report);
  /* an exchange replaces the value; the old one it returns is not used */
  launch("xchg_uninit", out, none, none, no_report);
}

static void test_partial_vector(void **state) {
  (void)state;
  const ch_arg none = NONE;
  /* work-item g stores the 16 bytes of `a` at 16g; bytes 8..15 (z, w) were never written: the
   * store is reported with its 16 bytes, the first at offset 0 */
  const ch_memory first = {.arg = 0, .offset = 0, .size = 16};
  launch("vec_partial", (ch_arg)CH_BUF(512), none, none, use("vec-store", false, first, "a", "vec-decl"));
  /* a[k & 1] for k = 0 and 1: only the written components x and y are used */
  launch("vec_partial_index", (ch_arg)CH_BUF(128), (ch_arg)CH_INT(0), none, no_report);
  launch("vec_partial_index", (ch_arg)CH_BUF(128), (ch_arg)CH_INT(1), none, no_report);
}

/* Hand-written constant composites (tests/spvasm_checks/uninit_composite.spvasm): the OpUndef
 * constituents' bytes alone are undefined, through a component-wise OpIAdd and inside a struct. */
static void test_composite_constants(void **state) {
  (void)state;
  static const char *const file = "tests/spvasm_checks/uninit_composite.spvasm";
  static const struct {
    const char *kernel, *mark; /* mark NULL: no report */
  } ks[] = {{"defined_lane", NULL},
            {"undef_lane", "undef-store"},
            {"nested_ok", NULL},
            {"nested_undef", "nested-undef-store"}};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
    /* each of the 32 work-items stores the component to out[g]: the first at offset 0 */
    const ch_memory first = {.arg = 0, .offset = 0, .size = 4};
    const ch_case c = {.file = file,
                       .kernel = ks[i].kernel,
                       .checks = SPVI_CHECK_UNINIT,
                       .global = 32,
                       .local = 16,
                       .args = {CH_BUF(128), CH_BUF(512)},
                       .want = {ks[i].mark ? use(ks[i].mark, false, first, NULL, NULL) : no_report}};
    ch_run(&c);
  }
}

static void test_padding(void **state) {
  (void)state;
  /* struct { char c; int i; } (8 bytes, 1..3 padding) with both members written, copied whole:
   * no report at any -O level */
  const ch_arg out = CH_BUF(256), v = CH_INT(7), none = NONE;
  launch("pad_assign", out, v, none, no_report);
  launch("pad_copy", out, v, none, no_report);
  launch("pad_local", out, (ch_arg)CH_LOC(128), v, no_report);
  launch("pad_local_var", out, v, none, no_report);
  /* k = 0: p.i = a[0], written */
  launch("pad_member_unset", out, v, (ch_arg)CH_INT(0), no_report);
  /* k = 1: p.i = a[1], never written: member bytes 4..7 of element g (at 8g) are undefined, the
   * padding 1..3 is not: 4 bytes at offset 4 first, in every work-item */
  const ch_memory member = {.arg = 0, .offset = 4, .size = 4};
  launch("pad_member_unset", out, v, (ch_arg)CH_INT(1), use("member-store", false, member, "a", "member-decl"));
}

static void test_origin_through_pointer(void **state) {
  (void)state;
  /* k = 1: vp[1] is a[1], never written, stored to out[g] by every work-item: 4 bytes at 4g */
  const ch_memory first = {.arg = 0, .offset = 0, .size = 4};
  launch("ptr_to_array", (ch_arg)CH_BUF(128), (ch_arg)CH_INT(1), (ch_arg)NONE,
         use("ptr-store", false, first, "a", "ptr-decl"));
  /* k = 0: a[0] was written */
  launch("ptr_to_array", (ch_arg)CH_BUF(128), (ch_arg)CH_INT(0), (ch_arg)NONE, no_report);
}

/* The component-wise builtins (OpenCL C 6.15.2: "The vector versions of the math functions operate
 * component-wise") keep a partly undefined vector's defined components defined. */
static void test_builtin_components(void **state) {
  (void)state;
  const ch_arg out = CH_BUF(384), none = NONE;
  /* v.w never written, fabs(v).x..z stored: no report */
  launch("builtin_partial", out, none, none, no_report);
  /* v.w = a[k]; k = 3: never written, but only fmax's and fract's x..z are stored; k = 2: written */
  launch("builtin_partial_mem", out, (ch_arg)CH_INT(3), none, no_report);
  launch("builtin_partial_mem", out, (ch_arg)CH_INT(2), none, no_report);
  /* k = 3: fmax(v, 2).w is computed from a[3], never written, and stored to out[g] by every
   * work-item: 4 bytes at 4g, the first at offset 0 */
  const ch_memory first = {.arg = 0, .offset = 0, .size = 4};
  launch("builtin_partial_w", out, (ch_arg)CH_INT(3), none,
         use("builtin-w-store", false, first, "a", "builtin-w-decl"));
  launch("builtin_partial_w", out, (ch_arg)CH_INT(2), none, no_report);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_atomic_rmw),
    cmocka_unit_test(test_partial_vector),
    cmocka_unit_test(test_composite_constants),
    cmocka_unit_test(test_padding),
    cmocka_unit_test(test_origin_through_pointer),
    cmocka_unit_test(test_builtin_components),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
