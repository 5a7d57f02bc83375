/*
 * test_subgroups.c — sub-groups (tests/kernels/sg_*.cl) at -O0 and -O2, warp widths 1, 7, 32 and
 * 64, sub-group sizes 7, 8, 16, 32 and 64, work-groups of 60 (not a multiple of most sizes, so the
 * last sub-group is partial) plus a last, non-uniform work-group of 10. Expected values come from
 * the plain C model below: a sub-group is S consecutive local linear ids, the last one holding the
 * remainder; SubgroupMaxSize is min(S, enqueued work-group size); the active work-items of a
 * non-uniform function are those that took the branch it is in; spvi's documented definitions of
 * what OpenCL leaves undefined (a shuffle from an inactive or out-of-range work-item gives 0; float
 * reductions combine in increasing local id order) — never spvi's own output. Also: divergence
 * reports, the kernel's required sub-group size, option errors, the debugger's refusal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "spvi.h"
#include "load.h"

enum { NU = 16, NN = 32 };
static const char *const variants[] = {"O0", "O2"};
static const unsigned warps[] = {1, 7, 32, 64};
static const unsigned sizes[] = {7, 8, 16, 32, 64};
#define COUNT(a) (sizeof(a) / sizeof(a)[0])

static int input(size_t i) { return (int)((i * 7919) % 23) - 5; } /* -5 .. 17 */


/* A launch of kernel `kname` over `global` items in groups of `local`: buffer i gets bytes[i] bytes
 * (buffer 0 the inputs when `in` is set). */
static spvi_launch *launch(spvi_module *m, const char *kname, size_t global, size_t local, const void *in,
                           size_t in_bytes, const size_t *bytes, int nbuf) {
  spvi_error err;
  int k = spvi_find_kernel(m, kname);
  assert_true(k >= 0);
  spvi_launch *l = spvi_launch_new(m, k, &err);
  assert_non_null(l);
  int a = 0;
  if (in) assert_int_equal(spvi_set_arg_buffer(l, a++, in, in_bytes, &err), SPVI_OK);
  for (int i = 0; i < nbuf; i++) assert_int_equal(spvi_set_arg_buffer(l, a++, NULL, bytes[i], &err), SPVI_OK);
  assert_int_equal(spvi_set_ndrange(l, 1, &global, &local, NULL, &err), SPVI_OK);
  return l;
}

/* The size the model uses: option 0 means the documented default, 32. */
static unsigned model_size(unsigned S) { return S ? S : 32; }

static void run_ok(spvi_launch *l, unsigned warp, unsigned S, const char *what) {
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.warp_width = warp;
  o.subgroup_size = S;
  spvi_error err;
  spvi_fault f;
  if (spvi_run(l, &o, &f, &err) != SPVI_OK) fail_msg("%s warp %u S %u: %s %s", what, warp, S, err.message, f.message);
}

/* The sub-group of global item k: first global id, size, local id; and the work-group geometry. */
typedef struct sgpos {
  size_t base, n, group_n;
  unsigned size, lid, id, max;
} sgpos;
static sgpos where(size_t k, size_t global, size_t local, unsigned S) {
  sgpos p;
  size_t g0 = k / local * local, lin = k - g0;
  p.group_n = global - g0 < local ? global - g0 : local;
  p.id = (unsigned)(lin / S);
  p.lid = (unsigned)(lin % S);
  p.base = g0 + (size_t)p.id * S;
  p.size = (unsigned)(p.group_n - (size_t)p.id * S < S ? p.group_n - (size_t)p.id * S : S);
  p.max = (unsigned)(local < S ? local : S);
  p.n = p.group_n;
  return p;
}

/* ---- cl_khr_subgroups: built-ins, collectives, sub_group_barrier --------------------------- */
static void check_uniform(const char *variant, size_t global, size_t local, unsigned warp, unsigned S) {
  spvi_module *m = tl_load("sg_uniform", variant);
  int *in = malloc(global * sizeof *in);
  for (size_t i = 0; i < global; i++) in[i] = input(i);
  const size_t bytes[] = {global * NU * 4, global * 2 * 4, global * 8};
  spvi_launch *l = launch(m, "sg_uniform", global, local, in, global * 4, bytes, 3);
  run_ok(l, warp, S, "sg_uniform");
  const int *o = spvi_arg_buffer(l, 1, NULL);
  const float *fo = spvi_arg_buffer(l, 2, NULL);
  const int64_t *lo = spvi_arg_buffer(l, 3, NULL);
  S = model_size(S);
  for (size_t k = 0; k < global; k++) {
    sgpos p = where(k, global, local, S);
    int sum = 0, incl = 0, excl = 0, mn = 1 << 30, mx = -(1 << 30), exmin = 2147483647, all = 1, any = 0;
    unsigned incmax = 0;
    float fsum = 0, fmax_ = -1e30f;
    int64_t lsum = 0;
    for (unsigned j = 0; j < p.size; j++) {
      int v = in[p.base + j];
      sum += v;
      if (v < mn) mn = v;
      if (v > mx) mx = v;
      all &= v > -4;
      any |= v > 15;
      fsum += (float)v * 0.25f;
      if (j <= p.lid) {
        incl += v;
        if ((unsigned)v > incmax) incmax = (unsigned)v;
        if ((float)v * 0.5f > fmax_) fmax_ = (float)v * 0.5f;
        lsum += (int64_t)v * ((int64_t)1 << 33);
      }
      if (j < p.lid) {
        excl += v;
        if (v < exmin) exmin = v;
      }
    }
    const int want[NU] = {(int)p.size,
                          (int)p.max,
                          (int)((p.n + S - 1) / S),
                          (int)((local + S - 1) / S),
                          (int)p.id,
                          (int)p.lid,
                          sum,
                          incl,
                          excl,
                          mn,
                          mx,
                          exmin,
                          (int)incmax,
                          in[p.base + p.size - 1],
                          all + 2 * any,
                          3 * in[p.base + (p.lid + 1) % p.size]};
    for (int e = 0; e < NU; e++)
      if (o[k * NU + e] != want[e])
        fail_msg("sg_uniform %s warp %u S %u global %zu local %zu: item %zu field %d = %d, expected %d", variant, warp,
                 S, global, local, k, e, o[k * NU + e], want[e]);
    if (fo[2 * k] != fsum || fo[2 * k + 1] != fmax_ || lo[k] != lsum)
      fail_msg("sg_uniform %s warp %u S %u: item %zu float sum %g/%g max %g/%g long %lld/%lld", variant, warp, S, k,
               fo[2 * k], fsum, fo[2 * k + 1], fmax_, (long long)lo[k], (long long)lsum);
  }
  free(in);
  spvi_launch_free(l);
  spvi_module_free(m);
}

/* ---- non-uniform functions in divergent control flow ------------------------------------------ */
static void check_nonuniform(const char *variant, size_t global, size_t local, unsigned warp, unsigned S) {
  spvi_module *m = tl_load("sg_nonuniform", variant);
  int *in = malloc(global * sizeof *in);
  for (size_t i = 0; i < global; i++) in[i] = input(i);
  const size_t bytes[] = {global * NN * 4};
  spvi_launch *l = launch(m, "sg_nonuniform", global, local, in, global * 4, bytes, 1);
  run_ok(l, warp, S, "sg_nonuniform");
  const uint32_t *o = spvi_arg_buffer(l, 1, NULL);
  S = model_size(S);
  for (size_t k = 0; k < global; k++) {
    sgpos p = where(k, global, local, S);
    uint32_t want[NN];
    memset(want, 0, sizeof want);
    const int v = in[k];
    const bool on = v % 3 != 0; /* the branch this work-item takes */
    /* the active work-items: those of the sub-group that took the same branch */
    bool act[64];
    for (unsigned j = 0; j < p.size; j++) act[j] = (in[p.base + j] % 3 != 0) == on;
#define VAL(j) in[p.base + (j)]
#define FROM(j) ((j) < p.size && act[(j)] ? (uint32_t)VAL(j) : 0u)
    if (on) {
      uint64_t b = 0;
      for (unsigned j = 0; j < p.size; j++)
        if (act[j] && (VAL(j) & 1)) b |= (uint64_t)1 << j;
      want[0] = (uint32_t)b;
      want[1] = (uint32_t)(b >> 32);
      unsigned cnt = (unsigned)__builtin_popcountll(b);
      want[2] = cnt;
      want[3] = (unsigned)__builtin_popcountll(b & (p.lid >= 63 ? ~(uint64_t)0 : ((uint64_t)2 << p.lid) - 1));
      want[4] = (unsigned)__builtin_popcountll(b & (((uint64_t)1 << p.lid) - 1));
      want[5] = cnt ? (uint32_t)__builtin_ctzll(b) : 1000u;
      want[6] = cnt ? 63u - (uint32_t)__builtin_clzll(b) : 1000u;
      want[7] = (uint32_t)((b >> p.lid) & 1);
      want[8] = (uint32_t)((b >> 2) & 1);
      unsigned first = 0;
      while (!act[first]) first++;
      want[9] = p.lid == first;
      uint32_t all = 1, any = 0, eq100 = 1, eq = 1, sum = 0, prod = 1, exmin = 2147483647u, band = ~0u, bor = 0,
               bxor = 0, lx = 0;
      for (unsigned j = 0; j < p.size; j++) {
        if (!act[j]) continue;
        all &= VAL(j) > 0;
        any |= VAL(j) > 14;
        eq100 &= VAL(j) / 100 == VAL(first) / 100;
        eq &= VAL(j) == VAL(first);
        sum += (uint32_t)VAL(j);
        band &= (uint32_t)VAL(j);
        bor |= (uint32_t)VAL(j);
        lx ^= (VAL(j) & 2) != 0;
        if (j <= p.lid) {
          prod *= (uint32_t)VAL(j);
          bxor ^= (uint32_t)VAL(j);
        }
        if (j < p.lid && VAL(j) < (int32_t)exmin) exmin = (uint32_t)VAL(j);
      }
      want[10] = all;
      want[11] = any + 2 * eq100 + 4 * eq;
      want[12] = want[13] = (uint32_t)VAL(first);
      want[14] = sum;
      want[15] = prod;
      want[16] = exmin;
      want[17] = band;
      want[18] = bor;
      want[19] = bxor;
      want[20] = lx;
      want[21] = FROM(p.lid ^ 1u);
      want[22] = FROM(p.lid ^ 2u);
      want[23] = p.lid >= 1 ? FROM(p.lid - 1) : 0;
      want[24] = FROM(p.lid + 2);
      uint32_t c4 = 0;
      int c2 = -2147483647 - 1;
      for (unsigned j = p.lid / 4 * 4; j < p.lid / 4 * 4 + 4 && j < p.size; j++)
        if (act[j]) c4 += (uint32_t)VAL(j);
      for (unsigned j = p.lid / 2 * 2; j < p.lid / 2 * 2 + 2 && j < p.size; j++)
        if (act[j] && VAL(j) > c2) c2 = VAL(j);
      want[25] = c4;
      want[26] = (uint32_t)c2;
    } else {
      uint32_t sum = 0;
      int exmax = -2147483647 - 1;
      for (unsigned j = 0; j < p.size; j++) {
        if (!act[j]) continue;
        sum += (uint32_t)(VAL(j) * 10);
        if (j < p.lid && VAL(j) > exmax) exmax = VAL(j);
      }
      want[14] = sum;
      want[16] = (uint32_t)exmax;
    }
#undef VAL
#undef FROM
    const uint64_t below_max = p.max >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << p.max) - 1);
    const uint64_t eqm = (uint64_t)1 << p.lid, lt = eqm - 1;
    want[27] = (uint32_t)eqm;
    want[28] = (uint32_t)(~lt & below_max);
    want[29] = (uint32_t)((~(lt | eqm) & below_max) >> 32);
    want[30] = (uint32_t)(lt | eqm);
    want[31] = (uint32_t)lt;
    for (int e = 0; e < NN; e++)
      if (o[k * NN + e] != want[e])
        fail_msg(
          "sg_nonuniform %s warp %u S %u global %zu local %zu: item %zu (v %d, sub-group local id %u) field %d = %u, "
          "expected %u",
          variant, warp, S, global, local, k, v, p.lid, e, o[k * NN + e], want[e]);
  }
  free(in);
  spvi_launch_free(l);
  spvi_module_free(m);
}

/* ---- float, double, long and short non-uniform arithmetic -------------------------------------- */
static void check_types(const char *variant, size_t global, size_t local, unsigned warp, unsigned S) {
  spvi_module *m = tl_load("sg_nonuniform", variant);
  int *in = malloc(global * sizeof *in);
  for (size_t i = 0; i < global; i++) in[i] = input(i);
  const size_t bytes[] = {global * 3 * 4, global * 8, global * 8, global * 2};
  spvi_launch *l = launch(m, "sg_nonuniform_types", global, local, in, global * 4, bytes, 4);
  run_ok(l, warp, S, "sg_nonuniform_types");
  const float *f = spvi_arg_buffer(l, 1, NULL);
  const double *d = spvi_arg_buffer(l, 2, NULL);
  const int64_t *lg = spvi_arg_buffer(l, 3, NULL);
  const int16_t *sh = spvi_arg_buffer(l, 4, NULL);
  S = model_size(S);
  for (size_t k = 0; k < global; k++) {
    sgpos p = where(k, global, local, S);
    /* one rounding per step, in increasing sub-group local id order (spvi's documented order) */
    volatile float fs = 0, fp = 1, fm = INFINITY;
    volatile double ds = 0;
    int64_t lm = INT64_MIN;
    uint16_t ss = 0;
    for (unsigned j = 0; j < p.size; j++) {
      int v = in[p.base + j];
      fp = fp * (1.0f + (float)v / 64.0f);
      if ((float)v - 0.5f < fm) fm = (float)v - 0.5f;
      if ((int64_t)v * 3000000000LL > lm) lm = (int64_t)v * 3000000000LL;
      if (j < p.lid) ds = ds + (double)v * 0.1;
      if (j <= p.lid) {
        fs = fs + (float)v * 0.75f;
        ss = (uint16_t)(ss + (uint16_t)(int16_t)(v * 1000));
      }
    }
    if (f[3 * k] != fs || f[3 * k + 1] != fp || f[3 * k + 2] != fm || d[k] != ds || lg[k] != lm || sh[k] != (int16_t)ss)
      fail_msg("sg_nonuniform_types %s warp %u S %u: item %zu: %a/%a %a/%a %a/%a %a/%a %lld/%lld %d/%d", variant, warp,
               S, k, f[3 * k], (double)fs, f[3 * k + 1], (double)fp, f[3 * k + 2], (double)fm, d[k], (double)ds,
               (long long)lg[k], (long long)lm, sh[k], (int16_t)ss);
  }
  free(in);
  spvi_launch_free(l);
  spvi_module_free(m);
}

/* ---- cl_intel_subgroups shuffles -------------------------------------------------------------- */
static void check_intel(const char *variant, size_t global, size_t local, unsigned warp, unsigned S) {
  spvi_module *m = tl_load("sg_intel", variant);
  uint32_t *in = malloc(global * sizeof *in);
  for (size_t i = 0; i < global; i++) in[i] = (uint32_t)(i * 37 % 101);
  const size_t bytes[] = {global * 5 * 4, global * 16};
  spvi_launch *l = launch(m, "sg_intel", global, local, in, global * 4, bytes, 2);
  run_ok(l, warp, S, "sg_intel");
  const uint32_t *o = spvi_arg_buffer(l, 1, NULL);
  const float *f = spvi_arg_buffer(l, 2, NULL);
  S = model_size(S);
  for (size_t k = 0; k < global; k++) {
    sgpos p = where(k, global, local, S);
#define AT(j) ((j) < p.size ? in[p.base + (j)] : 0u)
    uint32_t want[5];
    want[0] = in[p.base + (p.lid + 3) % p.size];
    /* down: id + 3 below the maximum size reads `current`, else `next` (here v + 1000) of id + 3 - max */
    unsigned j = p.lid + 3;
    want[1] = j < p.max ? AT(j) : (j - p.max < p.size ? in[p.base + j - p.max] + 1000 : 0);
    /* up: id - 2 when >= 0 reads `current`, else `previous` (v + 2000) of id - 2 + max */
    want[2] = p.lid >= 2 ? AT(p.lid - 2) : (p.lid + p.max - 2 < p.size ? in[p.base + p.lid + p.max - 2] + 2000 : 0);
    want[3] = AT(p.lid ^ 1u);
    want[4] = p.lid;
#undef AT
    for (int e = 0; e < 5; e++)
      if (o[5 * k + e] != want[e])
        fail_msg("sg_intel %s warp %u S %u: item %zu (id %u, size %u) field %d = %u, expected %u", variant, warp, S, k,
                 p.lid, p.size, e, o[5 * k + e], want[e]);
    const float v0 = (float)in[p.base];
    if (f[4 * k] != v0 || f[4 * k + 1] != v0 + 0.5f || f[4 * k + 2] != -v0 || f[4 * k + 3] != 7.0f)
      fail_msg("sg_intel %s: item %zu float4 shuffle (%g %g %g %g)", variant, k, f[4 * k], f[4 * k + 1], f[4 * k + 2],
               f[4 * k + 3]);
  }
  free(in);
  spvi_launch_free(l);
  spvi_module_free(m);
}

static void test_matrix(void **state) {
  (void)state;
  for (size_t v = 0; v < COUNT(variants); v++)
    for (size_t w = 0; w < COUNT(warps); w++)
      for (size_t s = 0; s < COUNT(sizes); s++) {
        check_uniform(variants[v], 130, 60, warps[w], sizes[s]);
        check_nonuniform(variants[v], 130, 60, warps[w], sizes[s]);
        check_types(variants[v], 130, 60, warps[w], sizes[s]);
        check_intel(variants[v], 130, 60, warps[w], sizes[s]);
      }
  /* the default size (32) and a work-group smaller than the sub-group size */
  check_uniform("O2", 40, 20, 0, 0);
  check_nonuniform("O2", 40, 20, 0, 0);
}

/* ---- divergence ------------------------------------------------------------------------------- */
static void expect_divergence(const char *kernel, unsigned warp, unsigned S, size_t gid, const char *text) {
  for (size_t v = 0; v < COUNT(variants); v++) {
    spvi_module *m = tl_load("sg_divergent", variants[v]);
    const size_t bytes[] = {64 * 4};
    spvi_launch *l = launch(m, kernel, 64, 32, NULL, 0, bytes, 1);
    spvi_run_options o;
    memset(&o, 0, sizeof o);
    o.warp_width = warp;
    o.subgroup_size = S;
    spvi_error err;
    spvi_fault f;
    assert_int_equal(spvi_run(l, &o, &f, &err), SPVI_FAULT);
    assert_int_equal(f.kind, SPVI_FAULT_BARRIER_DIVERGENCE);
    if (!strstr(f.message, text) || f.global_id[0] != gid)
      fail_msg("%s %s: expected a report about `%s` at work-item %zu, got:\n%s", kernel, variants[v], text, gid,
               f.message);
    spvi_launch_free(l);
    spvi_module_free(m);
  }
}

static void test_divergence(void **state) {
  (void)state;
  for (size_t w = 0; w < COUNT(warps); w++) {
    /* local ids 0..2 of each sub-group reach the reduction; 3 is the first missing work-item */
    expect_divergence("sg_collective_divergent", warps[w], 8, 3, "sub-group collective");
    expect_divergence("sg_barrier_divergent", warps[w], 16, 5, "sub-group barrier");
  }
  /* whole sub-groups skipping a collective is fine: odd sub-groups get the sum of their local ids */
  for (size_t v = 0; v < COUNT(variants); v++)
    for (size_t w = 0; w < COUNT(warps); w++) {
      spvi_module *m = tl_load("sg_divergent", variants[v]);
      const size_t bytes[] = {60 * 4};
      spvi_launch *l = launch(m, "sg_some_subgroups", 60, 60, NULL, 0, bytes, 1);
      run_ok(l, warps[w], 8, "sg_some_subgroups");
      const int *o = spvi_arg_buffer(l, 0, NULL);
      for (size_t k = 0; k < 60; k++) {
        sgpos p = where(k, 60, 60, 8);
        int want = p.id % 2 ? (int)(p.size * (p.size - 1) / 2) : 0;
        if (o[k] != want)
          fail_msg("sg_some_subgroups %s warp %u: item %zu = %d, expected %d", variants[v], warps[w], k, o[k], want);
      }
      spvi_launch_free(l);
      spvi_module_free(m);
    }
}

/* ---- the kernel's SubgroupSize execution mode, option errors, the debugger -------------------- */
static void test_reqd_and_errors(void **state) {
  (void)state;
  for (size_t v = 0; v < COUNT(variants); v++) {
    spvi_module *m = tl_load("sg_reqd", variants[v]);
    unsigned reqd = 0, per = 1;
    spvi_kernel_subgroup_modes(m, 0, &reqd, &per);
    assert_int_equal(reqd, 16);
    assert_int_equal(per, 0);
    const size_t bytes[] = {40 * 4};
    const unsigned opts[] = {0, 16};
    for (size_t i = 0; i < COUNT(opts); i++) {
      spvi_launch *l = launch(m, "sg_reqd", 40, 40, NULL, 0, bytes, 1);
      run_ok(l, 7, opts[i], "sg_reqd");
      const uint32_t *o = spvi_arg_buffer(l, 0, NULL);
      for (size_t k = 0; k < 40; k++) {
        sgpos p = where(k, 40, 40, 16);
        assert_int_equal(o[k], p.size * 1000 + p.id * 100 + p.size);
      }
      spvi_launch_free(l);
    }
    /* a different size is refused, not overridden */
    spvi_launch *l = launch(m, "sg_reqd", 40, 40, NULL, 0, bytes, 1);
    spvi_run_options o;
    memset(&o, 0, sizeof o);
    o.subgroup_size = 8;
    spvi_error err;
    assert_int_equal(spvi_run(l, &o, NULL, &err), SPVI_E_USAGE);
    assert_non_null(strstr(err.message, "requires sub-group size 16"));
    o.subgroup_size = 65;
    assert_int_equal(spvi_run(l, &o, NULL, &err), SPVI_E_USAGE);
    assert_non_null(strstr(err.message, "1 to 64"));
    /* the debugger runs one work-item at a time: it refuses sub-group kernels with a reason */
    assert_null(spvi_debug_new(l, NULL, NULL, NULL, &err));
    assert_non_null(strstr(err.message, "sub-group operations"));
    spvi_launch_free(l);
    spvi_module_free(m);
  }
  assert_non_null(strstr(spvi_subgroup_extensions(), "cl_khr_subgroup_ballot"));
  /* the race checker models sub-group barriers: sg_uniform's exchange through local memory is
   * ordered by sub_group_barrier alone (sub-groups of 32 and 28), no report */
  spvi_module *m = tl_load("sg_uniform", "O2");
  const size_t bytes[] = {60 * 4, 60 * NU * 4, 60 * 2 * 4, 60 * 8};
  spvi_launch *l = launch(m, "sg_uniform", 60, 60, NULL, 0, bytes, 4);
  spvi_error err;
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.checks = SPVI_CHECK_RACES;
  assert_int_equal(spvi_run(l, &o, NULL, &err), SPVI_OK);
  assert_int_equal(spvi_report_count(l), 0);
  spvi_launch_free(l);
  spvi_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_matrix),
    cmocka_unit_test(test_divergence),
    cmocka_unit_test(test_reqd_and_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
