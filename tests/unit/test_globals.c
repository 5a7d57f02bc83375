/*
 * test_globals.c — program-scope variables live with the module (tests/kernels/program_scope.cl):
 * kernel `bump` writes them, a later launch of `read_back` on the same module reads them; their
 * bytes through spvi_global_data / spvi_set_global_data; one launch at a time per module.
 *
 * Expected values are computed here from the initializers written in program_scope.cl (counter =
 * 7, acc = (0.5, 1, 1.5, 2), weights = {3, 1, 4, 1}) and the inputs, following the kernels' C
 * source: never from spvi's output. Every variant (-O0, -O2, 32-bit -O0) at warp widths 1, 32, 7.
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

enum { G = 8 };
static const char *const variants[] = {"O0", "O2", "O0.spir32"};
static const unsigned warps[] = {1, 0, 7};

static spvi_module *g_m;
static spvi_launch *g_l[2];
static spvi_debug *g_d;

static int teardown(void **state) {
  (void)state;
  spvi_debug_free(g_d);
  g_d = NULL;
  for (int i = 0; i < 2; i++) {
    spvi_launch_free(g_l[i]);
    g_l[i] = NULL;
  }
  spvi_module_free(g_m);
  g_m = NULL;
  return 0;
}

static spvi_module *load(const char *variant) {
  const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
  char path[512];
  snprintf(path, sizeof path, "%s/kernels/program_scope.%s.spv", build, variant);
  spvi_error err;
  spvi_module *m = spvi_load_file(path, NULL, &err);
  if (!m) fail_msg("%s", err.message);
  return m;
}

static int32_t global_int(const spvi_module *m, const char *name) {
  int i = spvi_find_global(m, name);
  if (i < 0) fail_msg("no program-scope variable `%s`", name);
  size_t bytes = 0;
  const void *p = spvi_global_data(m, i, &bytes);
  assert_non_null(p);
  assert_int_equal(bytes, 4);
  int32_t v;
  memcpy(&v, p, 4);
  return v;
}

static void run(spvi_launch *l, unsigned warp) {
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.warp_width = warp;
  spvi_fault f;
  spvi_error err;
  spvi_status s = spvi_run(l, &o, &f, &err);
  if (s != SPVI_OK) fail_msg("spvi_run: %s%s", s == SPVI_FAULT ? f.message : "", s == SPVI_FAULT ? "" : err.message);
}

static spvi_launch *bump_launch(spvi_module *m, const int32_t *in) {
  spvi_error err;
  spvi_launch *l = spvi_launch_new(m, spvi_find_kernel(m, "bump"), &err);
  assert_non_null(l);
  size_t global = G;
  assert_int_equal(spvi_set_arg_buffer(l, 0, in, G * 4, &err), SPVI_OK);
  assert_int_equal(spvi_set_ndrange(l, 1, &global, NULL, NULL, &err), SPVI_OK);
  return l;
}

static spvi_launch *read_launch(spvi_module *m) {
  spvi_error err;
  spvi_launch *l = spvi_launch_new(m, spvi_find_kernel(m, "read_back"), &err);
  assert_non_null(l);
  size_t global = G;
  assert_int_equal(spvi_set_arg_buffer(l, 0, NULL, 17 * 4, &err), SPVI_OK);
  assert_int_equal(spvi_set_arg_buffer(l, 1, NULL, 16, &err), SPVI_OK);
  assert_int_equal(spvi_set_ndrange(l, 1, &global, NULL, NULL, &err), SPVI_OK);
  return l;
}

/* read_back's results for history[0..G) = in, counter and acc as given */
static void check_read(spvi_launch *l, const int32_t *in, int32_t counter, float acc0, const char *ctx) {
  const int32_t *out = spvi_arg_buffer(l, 0, NULL);
  const float *facc = spvi_arg_buffer(l, 1, NULL);
  for (int g = 0; g < G; g++)
    if (out[g] != in[g] + counter) fail_msg("%s: out[%d] = %d, expected %d", ctx, g, out[g], in[g] + counter);
  if (out[16] != in[G - 1]) fail_msg("%s: *cursor = %d, expected history[%d] = %d", ctx, out[16], G - 1, in[G - 1]);
  for (int c = 0; c < 4; c++)
    if (facc[c] != acc0 + 0.5f * (float)c)
      fail_msg("%s: acc.s%d = %g, expected %g", ctx, c, facc[c], acc0 + 0.5f * (float)c);
}

/* bump, read_back, bump, read_back on one module: the second launch of each sees the first's writes. */
static void test_persist(void **state) {
  (void)state;
  int32_t in[G];
  static const int32_t weights[4] = {3, 1, 4, 1};
  int32_t sum = 0;
  for (int g = 0; g < G; g++) {
    in[g] = g * g - 11;
    sum += in[g] * weights[g % 4];
  }
  for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
    for (size_t w = 0; w < sizeof warps / sizeof warps[0]; w++) {
      char ctx[128];
      snprintf(ctx, sizeof ctx, "program_scope.%s warp %u", variants[v], warps[w]);
      g_m = load(variants[v]);
      /* initialised at load, before any launch */
      assert_int_equal(global_int(g_m, "counter"), 7);
      assert_int_equal(global_int(g_m, "count_calls.calls"), 0);
      g_l[0] = bump_launch(g_m, in);
      g_l[1] = read_launch(g_m);
      run(g_l[0], warps[w]);
      assert_int_equal(global_int(g_m, "counter"), 7 + sum);
      run(g_l[1], warps[w]);
      check_read(g_l[1], in, 7 + sum, 1.5f, ctx);
      /* the same launches again: bump adds once more, acc grows by one more */
      run(g_l[0], warps[w]);
      run(g_l[1], warps[w]);
      check_read(g_l[1], in, 7 + 2 * sum, 2.5f, ctx);
      assert_int_equal(global_int(g_m, "counter"), 7 + 2 * sum);
      teardown(NULL);
    }
}

/* The host writes a variable between launches; constant ones and wrong sizes are refused. */
static void test_set_global(void **state) {
  (void)state;
  for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
    g_m = load(variants[v]);
    spvi_error err;
    const int ic = spvi_find_global(g_m, "counter"), iw = spvi_find_global(g_m, "weights");
    const int ih = spvi_find_global(g_m, "history");
    assert_true(ic >= 0 && iw >= 0 && ih >= 0);
    assert_int_equal(spvi_find_global(g_m, "no_such_variable"), -1);
    const spvi_global_info *gi = spvi_global(g_m, iw);
    assert_int_equal(gi->space, SPVI_AS_CONSTANT);
    assert_int_equal(gi->size, 16);
    assert_string_equal(gi->type_name, "int[4]");
    gi = spvi_global(g_m, ih);
    assert_int_equal(gi->space, SPVI_AS_GLOBAL);
    assert_int_equal(gi->size, 64);
    assert_null(spvi_global(g_m, spvi_global_count(g_m)));
    const int32_t w4[4] = {3, 1, 4, 1};
    size_t bytes;
    assert_memory_equal(spvi_global_data(g_m, iw, &bytes), w4, 16);

    int32_t hist[16], counter = 1000;
    for (int i = 0; i < 16; i++) hist[i] = 5 * i + 1;
    assert_int_equal(spvi_set_global_data(g_m, ic, &counter, 4, &err), SPVI_OK);
    assert_int_equal(spvi_set_global_data(g_m, ih, hist, sizeof hist, &err), SPVI_OK);
    assert_int_equal(spvi_set_global_data(g_m, iw, w4, 16, &err), SPVI_E_USAGE);
    assert_non_null(strstr(err.message, "constant"));
    assert_int_equal(spvi_set_global_data(g_m, ic, &counter, 2, &err), SPVI_E_USAGE);
    assert_non_null(strstr(err.message, "4 bytes"));
    assert_int_equal(spvi_set_global_data(g_m, 99, &counter, 4, &err), SPVI_E_USAGE);
    /* read_back sees the host's values; cursor still points at history[0] (its initializer) */
    g_l[1] = read_launch(g_m);
    run(g_l[1], 0);
    const int32_t *out = spvi_arg_buffer(g_l[1], 0, NULL);
    for (int g = 0; g < G; g++) assert_int_equal(out[g], hist[g] + 1000);
    assert_int_equal(out[16], hist[0]);
    teardown(NULL);
  }
}

/* count_calls increments a function-scope static once per launch. */
static void test_static_counter(void **state) {
  (void)state;
  for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
    g_m = load(variants[v]);
    spvi_error err;
    g_l[0] = spvi_launch_new(g_m, spvi_find_kernel(g_m, "count_calls"), &err);
    size_t global = 4;
    assert_int_equal(spvi_set_arg_buffer(g_l[0], 0, NULL, 4, &err), SPVI_OK);
    assert_int_equal(spvi_set_ndrange(g_l[0], 1, &global, NULL, NULL, &err), SPVI_OK);
    for (int k = 1; k <= 3; k++) {
      run(g_l[0], warps[k % 3]);
      const int32_t *out = spvi_arg_buffer(g_l[0], 0, NULL);
      assert_int_equal(out[0], k);
    }
    teardown(NULL);
  }
}

/* While a debug session of one launch is open, another launch of the module does not run. */
static void test_one_at_a_time(void **state) {
  (void)state;
  g_m = load("O0");
  int32_t in[G] = {0};
  g_l[0] = bump_launch(g_m, in);
  g_l[1] = read_launch(g_m);
  spvi_error err;
  g_d = spvi_debug_new(g_l[0], NULL, NULL, NULL, &err);
  if (!g_d) fail_msg("spvi_debug_new: %s", err.message);
  spvi_fault f;
  assert_int_equal(spvi_run(g_l[1], NULL, &f, &err), SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "another launch of this module"));
  int32_t c = 1;
  assert_int_equal(spvi_set_global_data(g_m, spvi_find_global(g_m, "counter"), &c, 4, &err), SPVI_E_USAGE);
  spvi_debug_free(g_d);
  g_d = NULL;
  assert_int_equal(spvi_run(g_l[1], NULL, &f, &err), SPVI_OK);
  teardown(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_teardown(test_persist, teardown),
    cmocka_unit_test_teardown(test_set_global, teardown),
    cmocka_unit_test_teardown(test_static_counter, teardown),
    cmocka_unit_test_teardown(test_one_at_a_time, teardown),
  };
  return cmocka_run_group_tests_name("globals", tests, NULL, NULL);
}
