/*
 * test_progress.c — forward progress between sub-groups (tests/kernels/progress.cl): work-items
 * spinning on an atomic that another sub-group of their work-group sets finish, at warp widths 1
 * (one warp per work-item: the spinning warp must yield), 7, 32 and 64 (lane recycling's one warp
 * and its queue; several sub-groups per requested warp, which the launch narrows to one), sub-group
 * sizes 8 and 32, on 1 and 2 threads. cl_khr_subgroups requires it (OpenCL 3.0 API 4.2,
 * CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS). The expected values are worked out by hand
 * in each test; before warps yielded, each of these runs ended in the step limit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "spvi.h"
#include "load.h"

static const char *const variants[] = {"O0", "O2"};
static const unsigned warps[] = {1, 7, 32, 64};
static const unsigned threads[] = {1, 2};
static const unsigned sg_sizes[] = {8, 32};
#define COUNT(a) (sizeof(a) / sizeof(a)[0])
enum { L = 256, GROUPS = 2 };

static void set_buf(spvi_launch *l, int i, const void *data, size_t bytes) {
  spvi_error err;
  if (spvi_set_arg_buffer(l, i, data, bytes, &err) != SPVI_OK) fail_msg("argument %d: %s", i, err.message);
}

/* Runs over GROUPS work-groups of L work-items; fails on anything but SPVI_OK (a spin that never
 * ends is a step-limit fault: 10^7 steps is far more than any of these kernels needs). */
static void run(spvi_launch *l, unsigned warp, unsigned nthreads, unsigned sg, const char *what) {
  spvi_error err;
  const size_t global = (size_t)L * GROUPS, local = L;
  if (spvi_set_ndrange(l, 1, &global, &local, NULL, &err) != SPVI_OK) fail_msg("%s", err.message);
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.warp_width = warp;
  o.threads = nthreads;
  o.subgroup_size = sg;
  o.max_steps = 10000000;
  spvi_fault f;
  memset(&err, 0, sizeof err);
  memset(&f, 0, sizeof f);
  if (spvi_run(l, &o, &f, &err) != SPVI_OK)
    fail_msg("%s warp %u threads %u sub-group %u: %s %s", what, warp, nthreads, sg, err.message, f.message);
}

/* The kernel at every variant, warp width, thread count and sub-group size, with a zeroed int
 * buffer of nflags first when nflags > 0, then an int output of nout per group, whose element i of
 * each group must be want(sg, i). */
static void each_run(const char *kernel, size_t nflags, size_t nout, int (*want)(unsigned sg, unsigned i)) {
  for (size_t v = 0; v < COUNT(variants); v++) {
    spvi_module *m = tl_load("progress", variants[v]);
    for (size_t w = 0; w < COUNT(warps); w++)
      for (size_t t = 0; t < COUNT(threads); t++)
        for (size_t s = 0; s < COUNT(sg_sizes); s++) {
          spvi_launch *l = tl_launch(m, kernel);
          int arg = 0;
          if (nflags) set_buf(l, arg++, NULL, nflags * 4);
          set_buf(l, arg, NULL, GROUPS * nout * 4);
          run(l, warps[w], threads[t], sg_sizes[s], kernel);
          const int32_t *out = spvi_arg_buffer(l, arg, NULL);
          for (unsigned g = 0; g < GROUPS; g++)
            for (unsigned i = 0; i < nout; i++)
              if (out[g * nout + i] != want(sg_sizes[s], i))
                fail_msg("%s %s warp %u threads %u sub-group %u: group %u value %u is %d, expected %d", kernel,
                         variants[v], warps[w], threads[t], sg_sizes[s], g, i, out[g * nout + i], want(sg_sizes[s], i));
          spvi_launch_free(l);
        }
    spvi_module_free(m);
  }
}

/* wait_pairs: work-item lid < L/2 reads what work-item lid + L/2 stored, lid + L/2 + 1; the others
 * write -1. */
static int want_wait_pairs(unsigned sg, unsigned lid) {
  (void)sg;
  return lid < L / 2 ? (int)(lid + L / 2 + 1) : -1;
}
static void test_wait_pairs(void **state) {
  (void)state;
  each_run("wait_pairs", GROUPS * L / 2, L, want_wait_pairs);
}

/* chain_down: sub-group k stores slot[k + 1] + k + 1, the last one 0 + nsg, so slot[0] is
 * 1 + 2 + ... + nsg = nsg (nsg + 1) / 2 with nsg = L / sg sub-groups. */
static int want_chain_down(unsigned sg, unsigned i) {
  (void)i;
  const int nsg = L / (int)sg;
  return nsg * (nsg + 1) / 2;
}
static void test_chain_down(void **state) {
  (void)state;
  each_run("chain_down", 0, 1, want_chain_down);
}

/* chain_reduce: sub-group k adds the sum of its local ids plus 1, so slot[0] is the sum of every
 * local id plus nsg: L (L - 1) / 2 + L / sg. */
static int want_chain_reduce(unsigned sg, unsigned i) {
  (void)i;
  return L * (L - 1) / 2 + L / (int)sg;
}
static void test_chain_reduce(void **state) {
  (void)state;
  each_run("chain_reduce", 0, 1, want_chain_reduce);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_wait_pairs),
    cmocka_unit_test(test_chain_down),
    cmocka_unit_test(test_chain_reduce),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
