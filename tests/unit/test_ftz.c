/*
 * test_ftz.c — the flush-to-zero run option (spvi_run_options.flush_denormals) on
 * tests/kernels/ftz.cl: OpenCL C 7.5.3 lets a device flush single-precision denormal inputs and
 * results to zero (keeping the sign); spvi's option does that for float arithmetic, comparisons,
 * conversions and math builtins, and leaves data movement (vload/vstore) alone.
 * Expected values are hand-derived below.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "spvi.h"

#define N 4

static uint32_t bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static uint64_t dbits(double f) {
  uint64_t u;
  memcpy(&u, &f, 8);
  return u;
}

static void run(const char *variant, bool flush, float prod[N], int gt0[N], float root[N], float moved[2 * N],
                double widened[N]) {
  const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
  char path[512];
  snprintf(path, sizeof path, "%s/kernels/ftz.%s.spv", build, variant);
  spvi_error err;
  spvi_module *m = spvi_load_file(path, NULL, &err);
  if (!m) fail_msg("%s", err.message);
  spvi_launch *l = spvi_launch_new(m, 0, &err);
  assert_non_null(l);
  /* a: a denormal 2^-140, a normal 2^-60, a negative denormal -2^-130, 4; (2N floats for vload2) */
  float a[2 * N] = {0x1p-140f, 0x1p-60f, -0x1p-130f, 4.0f, 0x1p-149f, 1.0f, 2.0f, 3.0f};
  float b[N] = {1.0f, 0x1p-70f, 1.0f, 0x1p-126f}; /* 2^-126: the smallest normal */
  assert_int_equal(spvi_set_arg_buffer(l, 0, a, sizeof a, &err), SPVI_OK);
  assert_int_equal(spvi_set_arg_buffer(l, 1, b, sizeof b, &err), SPVI_OK);
  for (int i = 2; i < 7; i++)
    assert_int_equal(spvi_set_arg_buffer(l, i, NULL, i == 5 ? 8 * N : i == 6 ? 8 * N : 4 * N, &err), SPVI_OK);
  size_t g = N;
  assert_int_equal(spvi_set_ndrange(l, 1, &g, NULL, NULL, &err), SPVI_OK);
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.flush_denormals = flush;
  spvi_fault f;
  assert_int_equal(spvi_run(l, &o, &f, &err), SPVI_OK);
  memcpy(prod, spvi_arg_buffer(l, 2, NULL), 4 * N);
  memcpy(gt0, spvi_arg_buffer(l, 3, NULL), 4 * N);
  memcpy(root, spvi_arg_buffer(l, 4, NULL), 4 * N);
  memcpy(moved, spvi_arg_buffer(l, 5, NULL), 8 * N);
  memcpy(widened, spvi_arg_buffer(l, 6, NULL), 8 * N);
  spvi_launch_free(l);
  spvi_module_free(m);
}

static void check_variant(const char *variant) {
  float prod[N], root[N], moved[2 * N];
  int gt0[N];
  double wid[N];
  /* denormals preserved (the default) */
  run(variant, false, prod, gt0, root, moved, wid);
  assert_int_equal(bits(prod[0]), bits(0x1p-140f)); /* 2^-140 * 1, exact denormal */
  assert_int_equal(bits(prod[1]), bits(0x1p-130f)); /* 2^-60 * 2^-70 = 2^-130, denormal */
  assert_int_equal(bits(prod[2]), bits(-0x1p-130f));
  assert_int_equal(bits(prod[3]), bits(0x1p-124f)); /* 4 * 2^-126 */
  assert_int_equal(gt0[0], 1);
  assert_int_equal(bits(root[0]), bits(0x1p-70f)); /* sqrt(2^-140) = 2^-70 exactly */
  assert_int_equal(dbits(wid[0]), dbits(0x1p-140));
  /* flushed */
  run(variant, true, prod, gt0, root, moved, wid);
  assert_int_equal(bits(prod[0]), bits(0.0f));      /* denormal input -> 0, 0 * 1 = +0 */
  assert_int_equal(bits(prod[1]), bits(0.0f));      /* denormal result 2^-130 -> +0 */
  assert_int_equal(bits(prod[2]), bits(-0.0f));     /* -denormal -> -0; -0 * 1 = -0 */
  assert_int_equal(bits(prod[3]), bits(0x1p-124f)); /* b[3] = 2^-126 is normal: untouched */
  assert_int_equal(gt0[0], 0);                      /* flushed 2^-140 is not > 0 */
  assert_int_equal(gt0[1], 1);
  assert_int_equal(bits(root[0]), bits(0.0f));  /* sqrt(+0) = +0 */
  assert_int_equal(bits(root[2]), bits(-0.0f)); /* sqrt(-0) = -0 (IEEE 754 6.3) */
  assert_int_equal(dbits(wid[0]), dbits(0.0));  /* conversion of a flushed input */
  assert_int_equal(dbits(wid[2]), dbits(-0.0));
  /* data movement keeps denormals */
  assert_int_equal(bits(moved[0]), bits(0x1p-140f));
  assert_int_equal(bits(moved[4]), bits(0x1p-149f));
}

static void test_ftz_O0(void **state) {
  (void)state;
  check_variant("O0");
}
static void test_ftz_O2(void **state) {
  (void)state;
  check_variant("O2");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_ftz_O0),
    cmocka_unit_test(test_ftz_O2),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
