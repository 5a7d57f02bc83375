/*
 * test_atomics.c — atomic functions under contention (tests/kernels/atomics.cl): OpenCL 1.x
 * atomic_* on global and local 32-bit integers, atom_* on 64-bit integers, C11-style atomics with
 * compare-exchange loops (a lock-free counter, a lock-free histogram), atomic_flag.
 *
 * Every kernel runs at -O0 and -O2, at warp widths 1, 32 (default) and 7, on 1 and 2 threads (so
 * work-groups also race each other). Values that depend on the order in which work-items got to
 * the location are checked for what OpenCL guarantees whatever the order: the old values returned
 * by an increment are a permutation of 0..N-1, those returned by an exchange plus the final value
 * are the initial value plus the inputs. Final values of commutative operations are computed here
 * in C from the inputs. Not compared across runs (the kt_* harness requires identical buffers,
 * which atomics under contention do not give).
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

enum { N = 64, L = 16, GROUPS = N / L, NBINS = 13, HN = 200 };

static const char *const variants[] = {"O0", "O2"};
static const unsigned warps[] = {1, 0, 7};
static const unsigned threads[] = {1, 2};

static spvi_module *g_m;
static spvi_launch *g_l;

static int teardown(void **state) {
  (void)state;
  spvi_launch_free(g_l);
  g_l = NULL;
  spvi_module_free(g_m);
  g_m = NULL;
  return 0;
}

/* One argument: a buffer (data may be NULL: zeros), a by-value, or local bytes. */
typedef struct arg {
  char kind;
  const void *data;
  size_t bytes;
} arg;
#define BUF(p, n) \
  { 'b', (p), (n) }
#define VAL(p) \
  { 'v', (p), sizeof *(p) }
#define LOC(n) \
  { 'l', NULL, (n) }

static char g_ctx[128];

/* Runs kernel `name` of atomics.<variant>.spv over N work-items in groups of L (global n). */
static void run_kernel(const char *variant, const char *name, const arg *args, int nargs, size_t global, unsigned warp,
                       unsigned nthreads) {
  const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
  char path[512];
  snprintf(path, sizeof path, "%s/kernels/atomics.%s.spv", build, variant);
  snprintf(g_ctx, sizeof g_ctx, "atomics.%s %s warp %u threads %u", variant, name, warp, nthreads);
  spvi_error err;
  g_m = spvi_load_file(path, NULL, &err);
  if (!g_m) fail_msg("%s", err.message);
  g_l = spvi_launch_new(g_m, spvi_find_kernel(g_m, name), &err);
  if (!g_l) fail_msg("%s: %s", g_ctx, err.message);
  for (int i = 0; i < nargs; i++) {
    spvi_status s = args[i].kind == 'b'   ? spvi_set_arg_buffer(g_l, i, args[i].data, args[i].bytes, &err)
                    : args[i].kind == 'v' ? spvi_set_arg_value(g_l, i, args[i].data, args[i].bytes, &err)
                                          : spvi_set_arg_local(g_l, i, args[i].bytes, &err);
    if (s != SPVI_OK) fail_msg("%s: arg %d: %s", g_ctx, i, err.message);
  }
  size_t local = L;
  assert_int_equal(spvi_set_ndrange(g_l, 1, &global, &local, NULL, &err), SPVI_OK);
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.warp_width = warp;
  o.threads = nthreads;
  spvi_fault f;
  spvi_status s = spvi_run(g_l, &o, &f, &err);
  if (s != SPVI_OK) fail_msg("%s: %s", g_ctx, s == SPVI_FAULT ? f.message : err.message);
}

static const void *buf(int i) { return spvi_arg_buffer(g_l, i, NULL); }

static void done(void) { teardown(NULL); }

/* vals[0..n) is a permutation of 0..n-1 */
static void expect_permutation(const char *what, const int64_t *vals, size_t n) {
  unsigned char seen[HN] = {0};
  for (size_t i = 0; i < n; i++) {
    if (vals[i] < 0 || (size_t)vals[i] >= n || seen[vals[i]]++)
      fail_msg("%s: %s[%zu] = %lld: the returned old values are not a permutation of 0..%zu", g_ctx, what, i,
               (long long)vals[i], n - 1);
  }
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* exchange: the old values returned plus the final value are the initial value plus the inputs */
static void expect_exchanged(const char *what, const int64_t *rets, int64_t final, int64_t init, const int64_t *in,
                             size_t n) {
  int64_t a[N + 1], b[N + 1];
  for (size_t i = 0; i < n; i++) {
    a[i] = rets[i];
    b[i] = in[i];
  }
  a[n] = final;
  b[n] = init;
  qsort(a, n + 1, sizeof *a, cmp_i64);
  qsort(b, n + 1, sizeof *b, cmp_i64);
  if (memcmp(a, b, sizeof(int64_t) * (n + 1)) != 0)
    fail_msg("%s: %s: the exchanged values are not the initial value and the inputs", g_ctx, what);
}

static void expect_i64(const char *what, int64_t got, int64_t want) {
  if (got != want) fail_msg("%s: %s = %lld, expected %lld", g_ctx, what, (long long)got, (long long)want);
}

static void inputs(int32_t *in, uint64_t seed) {
  uint64_t s = seed;
  for (int i = 0; i < N; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    in[i] = (int32_t)((s >> 33) % 10001) - 5000;
  }
}

static void test_legacy32(void **state) {
  (void)state;
  int32_t in[N];
  inputs(in, 1);
  int64_t sum = 0, mn = 1000, mx = -1000, in64[N];
  uint32_t uand = 0xffffffffu, uor = 0, uxor = 0, umin = 0xffffffffu, umax = 0;
  for (int g = 0; g < N; g++) {
    in64[g] = in[g];
    sum += in[g];
    if (in[g] < mn) mn = in[g];
    if (in[g] > mx) mx = in[g];
    uand &= ~(1u << (g % 32));
    uor |= 1u << (g % 29);
    uxor ^= (uint32_t)in[g];
    if ((uint32_t)in[g] < umin) umin = (uint32_t)in[g];
    if ((uint32_t)in[g] > umax) umax = (uint32_t)in[g];
  }
  const int32_t c0[8] = {0, 0, 0, 1000, -1000, N, 7, 0};
  const uint32_t u0[5] = {0xffffffffu, 0, 0, 0xffffffffu, 0};
  for (size_t v = 0; v < 2; v++)
    for (size_t w = 0; w < 3; w++)
      for (size_t t = 0; t < 2; t++) {
        arg a[] = {BUF(c0, sizeof c0), BUF(u0, sizeof u0), BUF(NULL, N * 4),
                   BUF(NULL, N * 4),   BUF(NULL, N * 4),   BUF(in, sizeof in)};
        run_kernel(variants[v], "legacy32", a, 6, N, warps[w], threads[t]);
        const int32_t *c = buf(0), *r1 = buf(2), *r2 = buf(3), *r3 = buf(4);
        const uint32_t *u = buf(1);
        int64_t x1[N], x2[N], x3[N];
        for (int g = 0; g < N; g++) {
          x1[g] = r1[g];
          x2[g] = r2[g];
          x3[g] = r3[g];
        }
        expect_i64("atomic_inc final", c[0], N);
        expect_permutation("atomic_inc old", x1, N);
        expect_i64("atomic_add", c[1], (int32_t)sum);
        expect_i64("atomic_sub", c[2], (int32_t)-sum);
        expect_i64("atomic_min", c[3], mn);
        expect_i64("atomic_max", c[4], mx);
        expect_i64("atomic_dec", c[5], 0);
        expect_exchanged("atomic_xchg", x2, c[6], 7, in64, N);
        expect_i64("atomic_cmpxchg loop final", c[7], N);
        expect_permutation("atomic_cmpxchg ticket", x3, N);
        expect_i64("atomic_and", u[0], uand);
        expect_i64("atomic_or", u[1], uor);
        expect_i64("atomic_xor", u[2], uxor);
        expect_i64("atomic_min (uint)", u[3], umin);
        expect_i64("atomic_max (uint)", u[4], umax);
        done();
      }
}

static void test_legacy32_local(void **state) {
  (void)state;
  int32_t in[N];
  inputs(in, 2);
  for (size_t v = 0; v < 2; v++)
    for (size_t w = 0; w < 3; w++)
      for (size_t t = 0; t < 2; t++) {
        arg a[] = {BUF(NULL, GROUPS * 16), BUF(NULL, N * 4), BUF(in, sizeof in)};
        run_kernel(variants[v], "legacy32_local", a, 3, N, warps[w], threads[t]);
        const int32_t *out = buf(0), *ret = buf(1);
        for (int grp = 0; grp < GROUPS; grp++) {
          int32_t s = 0, mx = INT32_MIN;
          int64_t olds[L];
          for (int i = 0; i < L; i++) {
            s += in[grp * L + i];
            if (in[grp * L + i] > mx) mx = in[grp * L + i];
            olds[i] = ret[grp * L + i];
          }
          expect_i64("local atomic_add", out[grp * 4 + 0], s);
          expect_i64("local atomic_inc final", out[grp * 4 + 1], L);
          expect_i64("local atomic_max", out[grp * 4 + 2], mx);
          expect_i64("local atomic_cmpxchg loop", out[grp * 4 + 3], 2 * L);
          expect_permutation("local atomic_inc old", olds, L);
        }
        done();
      }
}

static void test_atom64(void **state) {
  (void)state;
  int64_t in[N];
  int32_t base[N];
  inputs(base, 3);
  for (int g = 0; g < N; g++) in[g] = (int64_t)base[g] * 1000003 * 1000003; /* beyond 32 bits */
  int64_t sum = 0, mn = INT64_MAX, mx = INT64_MIN;
  uint64_t uand = ~0ull, uor = 0, uxor = 0, umin = ~0ull, umax = 0;
  for (int g = 0; g < N; g++) {
    sum += in[g];
    if (in[g] < mn) mn = in[g];
    if (in[g] > mx) mx = in[g];
    uand &= ~(1ull << (g % 64));
    uor |= 1ull << (g % 61);
    uxor ^= (uint64_t)in[g];
    if ((uint64_t)in[g] < umin) umin = (uint64_t)in[g];
    if ((uint64_t)in[g] > umax) umax = (uint64_t)in[g];
  }
  const int64_t c0[8] = {0, 0, 0, INT64_MAX, INT64_MIN, N, 7, 0};
  const uint64_t u0[5] = {~0ull, 0, 0, ~0ull, 0};
  for (size_t v = 0; v < 2; v++)
    for (size_t w = 0; w < 3; w++)
      for (size_t t = 0; t < 2; t++) {
        arg a[] = {BUF(c0, sizeof c0), BUF(u0, sizeof u0), BUF(NULL, N * 8), BUF(NULL, N * 8), BUF(in, sizeof in)};
        run_kernel(variants[v], "atom64", a, 5, N, warps[w], threads[t]);
        const int64_t *c = buf(0), *r1 = buf(2), *r2 = buf(3);
        const uint64_t *u = buf(1);
        expect_i64("atom_inc final", c[0], N);
        expect_permutation("atom_inc old", r1, N);
        expect_i64("atom_add", c[1], sum);
        expect_i64("atom_sub", c[2], -sum);
        expect_i64("atom_min", c[3], mn);
        expect_i64("atom_max", c[4], mx);
        expect_i64("atom_dec", c[5], 0);
        expect_exchanged("atom_xchg", r2, c[6], 7, in, N);
        expect_i64("atom_cmpxchg loop", c[7], sum);
        if (u[0] != uand || u[1] != uor || u[2] != uxor || u[3] != umin || u[4] != umax)
          fail_msg("%s: 64-bit and/or/xor/umin/umax: %llx %llx %llx %llx %llx, expected %llx %llx %llx %llx %llx",
                   g_ctx, (unsigned long long)u[0], (unsigned long long)u[1], (unsigned long long)u[2],
                   (unsigned long long)u[3], (unsigned long long)u[4], (unsigned long long)uand,
                   (unsigned long long)uor, (unsigned long long)uxor, (unsigned long long)umin,
                   (unsigned long long)umax);
        done();
      }
}

static void test_c11(void **state) {
  (void)state;
  int32_t in[N];
  int64_t lin[N], in64[N];
  inputs(in, 4);
  int64_t sum = 0, lsum = 0, mn = 1000, mx = -1000;
  uint32_t uand = 0xffffffffu, uor = 0, uxor = 0;
  for (int g = 0; g < N; g++) {
    lin[g] = (int64_t)in[g] * 4000000007ll;
    in64[g] = in[g];
    sum += in[g];
    lsum += lin[g];
    if (in[g] < mn) mn = in[g];
    if (in[g] > mx) mx = in[g];
    uand &= ~(1u << (g % 32));
    uor |= 1u << (g % 31);
    uxor ^= (uint32_t)in[g];
  }
  const int32_t c0[7] = {0, 0, 0, 1000, -1000, 7, 0};
  const uint32_t u0[3] = {0xffffffffu, 0, 0};
  for (size_t v = 0; v < 2; v++)
    for (size_t w = 0; w < 3; w++)
      for (size_t t = 0; t < 2; t++) {
        arg a[] = {BUF(c0, sizeof c0), BUF(u0, sizeof u0),    BUF(NULL, 16),      BUF(NULL, N * 4),
                   BUF(NULL, N * 4),   BUF(NULL, GROUPS * 4), BUF(in, sizeof in), BUF(lin, sizeof lin)};
        run_kernel(variants[v], "c11", a, 8, N, warps[w], threads[t]);
        const int32_t *c = buf(0), *r1 = buf(3), *r2 = buf(4), *win = buf(5);
        const uint32_t *u = buf(1);
        const int64_t *ls = buf(2);
        int64_t x1[N], x2[N];
        for (int g = 0; g < N; g++) {
          x1[g] = r1[g];
          x2[g] = r2[g];
        }
        expect_i64("compare_exchange_weak counter", c[0], N);
        expect_permutation("compare_exchange_weak counter old", x1, N);
        expect_i64("atomic_fetch_add", c[1], (int32_t)sum);
        expect_i64("atomic_fetch_sub", c[2], (int32_t)-sum);
        expect_i64("atomic_fetch_min", c[3], mn);
        expect_i64("atomic_fetch_max", c[4], mx);
        expect_exchanged("atomic_exchange", x2, c[5], 7, in64, N);
        expect_i64("atomic_store", c[6], 12345);
        expect_i64("atomic_fetch_and", u[0], uand);
        expect_i64("atomic_fetch_or", u[1], uor);
        expect_i64("atomic_fetch_xor", u[2], uxor);
        expect_i64("compare_exchange_strong 64-bit sum", ls[0], lsum);
        expect_i64("atomic_fetch_add 64-bit", ls[1], lsum);
        for (int grp = 0; grp < GROUPS; grp++) expect_i64("atomic_flag election winners", win[grp], 1);
        done();
      }
}

static void test_histogram(void **state) {
  (void)state;
  uint32_t in[HN], want[NBINS] = {0};
  uint64_t s = 99;
  for (int i = 0; i < HN; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    in[i] = (uint32_t)(s >> 35) % 40; /* few distinct values: heavy contention on each bin */
    want[in[i] % NBINS]++;
  }
  const uint32_t nbins = NBINS;
  for (size_t v = 0; v < 2; v++)
    for (size_t w = 0; w < 3; w++)
      for (size_t t = 0; t < 2; t++) {
        arg a[] = {BUF(NULL, sizeof want), BUF(in, sizeof in), VAL(&nbins), LOC(NBINS * 4)};
        /* 200 work-items in groups of 16: the last group has 8 (non-uniform) */
        run_kernel(variants[v], "histogram", a, 4, HN, warps[w], threads[t]);
        const uint32_t *bins = buf(0);
        for (int b = 0; b < NBINS; b++) {
          char what[32];
          snprintf(what, sizeof what, "bin %d", b);
          expect_i64(what, bins[b], want[b]);
        }
        done();
      }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_teardown(test_legacy32, teardown),  cmocka_unit_test_teardown(test_legacy32_local, teardown),
    cmocka_unit_test_teardown(test_atom64, teardown),    cmocka_unit_test_teardown(test_c11, teardown),
    cmocka_unit_test_teardown(test_histogram, teardown),
  };
  return cmocka_run_group_tests_name("atomics", tests, NULL, NULL);
}
