/*
 * test_collectives.c — work-group collective functions (tests/kernels/wg_collectives.cl) at -O0 and
 * -O2, warp widths 1, 0 (32) and 7, uniform and non-uniform work-groups. Expected values come from a
 * plain C computation per work-group below (sums, scans and maxima of the integer inputs; the float
 * sum of v * 0.5, which is exact for these small integers), not from spvi.
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

enum { NARGS = 8 };

static void run_case(const char *variant, size_t global, size_t local, unsigned warp) {
  const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
  char path[512];
  snprintf(path, sizeof path, "%s/kernels/wg_collectives.%s.spv", build, variant);
  spvi_error err;
  spvi_module *m = spvi_load_file(path, NULL, &err);
  if (!m) fail_msg("%s", err.message);
  spvi_launch *l = spvi_launch_new(m, 0, &err);
  int *in = malloc(global * sizeof *in);
  for (size_t i = 0; i < global; i++) in[i] = (int)((i * 7919) % 23) - 5; /* -5 .. 17, mixed signs */
  assert_int_equal(spvi_set_arg_buffer(l, 0, in, global * 4, &err), SPVI_OK);
  for (int a = 1; a < NARGS; a++) assert_int_equal(spvi_set_arg_buffer(l, a, NULL, global * 4, &err), SPVI_OK);
  assert_int_equal(spvi_set_ndrange(l, 1, &global, &local, NULL, &err), SPVI_OK);
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.warp_width = warp;
  spvi_fault f;
  if (spvi_run(l, &o, &f, &err) != SPVI_OK) fail_msg("%s %s", err.message, f.message);
  const int *sum = spvi_arg_buffer(l, 1, NULL), *incl = spvi_arg_buffer(l, 2, NULL),
            *excl = spvi_arg_buffer(l, 3, NULL);
  const int *mx = spvi_arg_buffer(l, 4, NULL), *bc = spvi_arg_buffer(l, 6, NULL), *all = spvi_arg_buffer(l, 7, NULL);
  const float *fs = spvi_arg_buffer(l, 5, NULL);
  for (size_t g0 = 0; g0 < global; g0 += local) {
    size_t n = global - g0 < local ? global - g0 : local; /* the last group may be smaller */
    int s = 0, m2 = -1000, run = 0, allpos = 1, any5 = 0;
    for (size_t i = 0; i < n; i++) {
      s += in[g0 + i];
      if (in[g0 + i] > m2) m2 = in[g0 + i];
      allpos &= in[g0 + i] > 0;
      any5 |= in[g0 + i] > 5;
    }
    for (size_t i = 0; i < n; i++) {
      size_t k = g0 + i;
      if (sum[k] != s || mx[k] != m2 || fs[k] != (float)s * 0.5f || all[k] != allpos + 2 * any5 ||
          bc[k] != in[g0 + (n > 2 ? 2 : 0)] || excl[k] != run || incl[k] != run + in[k])
        fail_msg(
          "%s warp %u group at %zu item %zu: sum %d/%d max %d/%d fsum %g/%g all %d/%d bc %d/%d excl %d/%d incl %d/%d",
          variant, warp, g0, i, sum[k], s, mx[k], m2, fs[k], (float)s * 0.5f, all[k], allpos + 2 * any5, bc[k],
          in[g0 + 2], excl[k], run, incl[k], run + in[k]);
      run += in[k];
    }
  }
  free(in);
  spvi_launch_free(l);
  spvi_module_free(m);
}

static void test_collectives(void **state) {
  (void)state;
  static const char *const variants[] = {"O0", "O2"};
  static const unsigned warps[] = {1, 0, 7};
  for (int v = 0; v < 2; v++)
    for (int w = 0; w < 3; w++) {
      run_case(variants[v], 8, 4, warps[w]);    /* two groups of 4 */
      run_case(variants[v], 200, 64, warps[w]); /* groups of 64 (two warps of 32), last group 8 */
    }
}

/* A collective that only some work-items reach is divergence, like a barrier. */
static void test_collective_divergence(void **state) {
  (void)state;
  const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
  char path[512];
  snprintf(path, sizeof path, "%s/kernels/wg_collectives_divergent.O0.spv", build);
  spvi_error err;
  spvi_module *m = spvi_load_file(path, NULL, &err);
  if (!m) fail_msg("%s", err.message);
  spvi_launch *l = spvi_launch_new(m, 0, &err);
  assert_int_equal(spvi_set_arg_buffer(l, 0, NULL, 64 * 4, &err), SPVI_OK);
  size_t g = 64, lo = 64;
  assert_int_equal(spvi_set_ndrange(l, 1, &g, &lo, NULL, &err), SPVI_OK);
  spvi_fault f;
  assert_int_equal(spvi_run(l, NULL, &f, &err), SPVI_FAULT);
  assert_int_equal(f.kind, SPVI_FAULT_BARRIER_DIVERGENCE);
  assert_non_null(strstr(f.message, "collective"));
  spvi_launch_free(l);
  spvi_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_collectives),
    cmocka_unit_test(test_collective_divergence),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
