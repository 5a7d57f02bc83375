/*
 * test_math.c — the correctly rounded math builtins (builtins/bi_math*.c) through bi_resolve and the
 * lane loops, bit for bit against an oracle written here: MPFR called directly at the format's
 * precision and exponent range with mpfr_subnormalize (the documented emulation of IEEE formats),
 * the spec's NaN policy stated independently (a NaN operand comes back quieted — the first one in
 * operand order — an invalid operation gives the canonical quiet NaN), and hand tables for every
 * special value of OpenCL C §7.5 "Edge Case Behavior" and C99 F.9, written as literals.
 *
 * Coverage per function: half — all 65536 inputs for one-operand functions, 100,000 sampled pairs
 * for two-operand ones; float — 100,000 inputs (uniformly random bit patterns, log-uniform
 * magnitudes over the whole range, uniform over the function's interesting domain, integers and
 * half-integers) plus sweeps of 400 neighbours around overflow/underflow thresholds and other points
 * of interest; double — 10,000 inputs sampled the same way. Vector widths 1, 2, 3, 4, 8, 16 with
 * partial, unordered lane lists and misaligning register strides; pointer outputs (sincos,
 * lgamma_r) through a fake bounds-checked memory, faults included. MATH_TEST_SCALE (environment,
 * default 1) multiplies the sample counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <math.h>
#include <cmocka.h>
#include <mpfr.h>
#include <pthread.h>

#include "bi.h"
#include "gen_spv_tables.h"

/* ==== formats: bit patterns <-> values, written from first principles ============================ */

typedef enum fmt { FH, FF, FD } fmt;
static const struct {
  unsigned bytes;
  mpfr_prec_t prec;
  mpfr_exp_t emin, emax; /* MPFR convention: significand in [1/2, 1) */
  const char *name;
} FM[3] = {{2, 11, -23, 16, "half"}, {4, 24, -148, 128, "float"}, {8, 53, -1073, 1024, "double"}};

static uint64_t dbits(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  return b;
}
static double bdouble(uint64_t b) {
  double d;
  memcpy(&d, &b, 8);
  return d;
}
static uint32_t fbits(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}
static float bfloat(uint32_t b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}

static bool is_nan(fmt f, uint64_t b) {
  switch (f) {
  case FH: return (b & 0x7fff) > 0x7c00;
  case FF: return (b & 0x7fffffff) > 0x7f800000;
  default: return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
  }
}
static uint64_t quiet(fmt f, uint64_t b) { return b | (f == FH ? 0x200 : f == FF ? 0x400000 : 0x8000000000000ull); }
static uint64_t canon_nan(fmt f) { return f == FH ? 0x7e00 : f == FF ? 0x7fc00000 : 0x7ff8000000000000ull; }

/* The value of a non-NaN pattern (half by ldexp of its fields). */
static double val(fmt f, uint64_t b) {
  if (f == FD) return bdouble(b);
  if (f == FF) return bfloat((uint32_t)b);
  const int e = (b >> 10) & 0x1f, m = b & 0x3ff;
  double v = e == 0x1f ? INFINITY : e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
  return (b & 0x8000) ? -v : v;
}

/* The pattern of a value exactly representable in f (not NaN). */
static uint64_t enc(fmt f, double v) {
  if (f == FD) return dbits(v);
  if (f == FF) return fbits((float)v);
  const uint64_t s = signbit(v) ? 0x8000 : 0;
  const double a = fabs(v);
  if (isinf(a)) return s | 0x7c00;
  if (a < 0x1p-14) return s | (uint64_t)(a * 0x1p24);
  int e;
  const double m = frexp(a, &e); /* a = m 2^e, m in [1/2, 1) */
  return s | (uint64_t)(e + 14) << 10 | ((uint64_t)(m * 2048) - 1024);
}

static double fmt_max(fmt f) { return f == FH ? 65504.0 : f == FF ? (double)0x1.fffffep127f : 0x1.fffffffffffffp1023; }
static int fmt_emin(fmt f) { return f == FH ? -24 : f == FF ? -149 : -1074; } /* smallest subnormal 2^emin */

/* ==== the oracle ================================================================================== */

typedef int (*mp1)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
typedef int (*mp2)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
typedef int (*mpi)(mpfr_ptr, mpfr_srcptr, long, mpfr_rnd_t);

static int o_lgamma(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m) {
  int s;
  return mpfr_lgamma(r, &s, x, m);
}
static int o_recip(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m) { return mpfr_ui_div(r, 1, x, m); }
/* rsqrt(-0) = -inf (IEEE 754-2019 rSqrt, = 1/sqrt(-0)); MPFR's rec_sqrt gives +inf for both zeros */
static int o_rsqrt(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m) {
  if (mpfr_zero_p(x) && mpfr_signbit(x)) {
    mpfr_set_inf(r, -1);
    return 0;
  }
  return mpfr_rec_sqrt(r, x, m);
}
/* OpenCL §7.5: powr(x, NaN) returns the NaN for x >= 0 (MPFR's powr gives powr(1, NaN) = 1) */
static int o_powr(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t m) {
  if (mpfr_nan_p(x) || mpfr_nan_p(y)) {
    mpfr_set_nan(r);
    return 0;
  }
  return mpfr_powr(r, x, y, m);
}
static int o_logb(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m) {
  if (mpfr_nan_p(x)) {
    mpfr_set_nan(r);
    return 0;
  }
  if (mpfr_inf_p(x)) {
    mpfr_set_inf(r, 1);
    return 0;
  }
  if (mpfr_zero_p(x)) {
    mpfr_set_inf(r, -1);
    return 0;
  }
  return mpfr_set_si(r, mpfr_get_exp(x) - 1, m);
}

typedef enum kind { K1, K2, KI } kind;
typedef struct mtest {
  uint32_t op;
  kind k;
  mp1 m1;
  mp2 m2;
  mpi mi;
  double lo, hi;  /* the interesting domain, sampled uniformly (clipped to the format) */
  unsigned types; /* 1 half, 2 float, 4 double */
  double poi[12]; /* points of interest (sweep centres); 0 ends the list unless first */
} mtest;

#define ALLT 7u

/* One oracle evaluation: op(x[, y | n]) in format f, as a pattern. */
static uint64_t oracle(const mtest *t, fmt f, uint64_t xb, uint64_t yb, long n) {
  mpfr_t r, x, y;
  mpfr_set_emin(mpfr_get_emin_min());
  mpfr_set_emax(mpfr_get_emax_max());
  mpfr_init2(r, FM[f].prec);
  mpfr_init2(x, 53);
  mpfr_init2(y, 53);
  if (is_nan(f, xb)) mpfr_set_nan(x);
  else mpfr_set_d(x, val(f, xb), MPFR_RNDN);
  if (t->k == K2) {
    if (is_nan(f, yb)) mpfr_set_nan(y);
    else mpfr_set_d(y, val(f, yb), MPFR_RNDN);
  }
  mpfr_set_emin(FM[f].emin);
  mpfr_set_emax(FM[f].emax);
  int i = t->k == K1 ? t->m1(r, x, MPFR_RNDN) : t->k == K2 ? t->m2(r, x, y, MPFR_RNDN) : t->mi(r, x, n, MPFR_RNDN);
  i = mpfr_subnormalize(r, i, MPFR_RNDN);
  uint64_t out;
  if (mpfr_nan_p(r)) out = is_nan(f, xb) ? quiet(f, xb) : (t->k == K2 && is_nan(f, yb)) ? quiet(f, yb) : canon_nan(f);
  else out = enc(f, mpfr_get_d(r, MPFR_RNDN));
  mpfr_set_emin(mpfr_get_emin_min());
  mpfr_set_emax(mpfr_get_emax_max());
  mpfr_clears(r, x, y, (mpfr_ptr)0);
  return out;
}

/* The functions under test. Points of interest: overflow / underflow thresholds (for the largest
 * format they matter to; the sweep visits each format's neighbours of every point), zeros and
 * poles, domain ends. */
static const mtest T[] = {
  {OCLSTD_acos, K1, mpfr_acos, 0, 0, -1, 1, ALLT, {1, -1, 0.5, -0.5, 0x1p-30}},
  {OCLSTD_acosh, K1, mpfr_acosh, 0, 0, 1, 20, ALLT, {1, 1.5, 65504, 3e38}},
  {OCLSTD_acospi, K1, mpfr_acospi, 0, 0, -1, 1, ALLT, {1, -1, 0.5, -0.5}},
  {OCLSTD_asin, K1, mpfr_asin, 0, 0, -1, 1, ALLT, {1, -1, 0.5, 0x1p-30}},
  {OCLSTD_asinh, K1, mpfr_asinh, 0, 0, -20, 20, ALLT, {0x1p-20, 1e30, -3}},
  {OCLSTD_asinpi, K1, mpfr_asinpi, 0, 0, -1, 1, ALLT, {1, -1, 0.5, 0x1p-140}},
  {OCLSTD_atan, K1, mpfr_atan, 0, 0, -10, 10, ALLT, {1, -1, 1e10, 0x1p-30}},
  {OCLSTD_atanh, K1, mpfr_atanh, 0, 0, -1, 1, ALLT, {1, -1, 0.5, 0x1p-30}},
  {OCLSTD_atanpi, K1, mpfr_atanpi, 0, 0, -10, 10, ALLT, {1, -1, 1e10, 0x1p-140}},
  {OCLSTD_cbrt, K1, mpfr_cbrt, 0, 0, -100, 100, ALLT, {8, 27, -64, 0x1p-140, 1e30}},
  /* sin/cos/tan: 0x1.f9cbe2p+7 is the float nearest a multiple of pi/2 (161 pi/2) up to 2^20, the end
   * of the float batch kernel's range (builtins/bi_math_trigf.c) */
  {OCLSTD_cos,
   K1,
   mpfr_cos,
   0,
   0,
   -10,
   10,
   ALLT,
   {1.5707963267948966, 3.141592653589793, 1e5, 65504, 1e22, 0x1.f9cbe2p+7, 0x1p20}},
  {OCLSTD_cosh, K1, mpfr_cosh, 0, 0, -20, 20, ALLT, {11.77, 89.415987, 710.4758600739439, 1}},
  {OCLSTD_cospi, K1, mpfr_cospi, 0, 0, -4, 4, ALLT, {0.5, 1.5, 1000.5, 0.25, 1, 8388607.5, 0x1p52}},
  {OCLSTD_erfc, K1, mpfr_erfc, 0, 0, -4, 12, ALLT, {3.9, 10.05, 26.55, 27.3, -1, 0.5}},
  {OCLSTD_erf, K1, mpfr_erf, 0, 0, -5, 5, ALLT, {0x1p-140, 3.9, 6, 0.5, -2, 0x1p-126, 0x1p-147}},
  {OCLSTD_exp,
   K1,
   mpfr_exp,
   0,
   0,
   -110,
   90,
   ALLT,
   {88.72283935546875, -103.97, -87.336, 709.782712893384, -745.1332, -708.396, 11.09, -17.33}},
  {OCLSTD_exp2, K1, mpfr_exp2, 0, 0, -150, 128, ALLT, {128, -149, -126, 1024, -1074, -1022, 16, -24}},
  {OCLSTD_exp10, K1, mpfr_exp10, 0, 0, -45, 39, ALLT, {38.53, -45.15, 308.25, -323.3, 4.816, -7.52, 3, -1}},
  {OCLSTD_expm1, K1, mpfr_expm1, 0, 0, -20, 90, ALLT, {88.7228, 709.78, 11.09, 0x1p-30, -0x1p-30, -17}},
  {OCLSTD_lgamma,
   K1,
   o_lgamma,
   0,
   0,
   -30,
   40,
   ALLT,
   {1, 2, -2.457024738220801, -2.7476826467274127, -3.1435808883499803, 4.0850e36, 2.53e305, 7.23e3}},
  {OCLSTD_log,
   K1,
   mpfr_log,
   0,
   0,
   0,
   100,
   ALLT,
   {1, 2.718281828459045, 0x1p-149, 0x1p-1074, 0.5, 0x1.827a74p-7, 0x1.2f1fd6p+3, 0x1.bacb4ap+25, 0x1.b121a6p+76,
    0x1.6351d8p+95}},
  {OCLSTD_log2, K1, mpfr_log2, 0, 0, 0, 100, ALLT, {1, 2, 0.5, 0x1p-149, 1024}},
  {OCLSTD_log10, K1, mpfr_log10, 0, 0, 0, 100, ALLT, {1, 10, 100, 1000, 0.1}},
  {OCLSTD_log1p, K1, mpfr_log1p, 0, 0, -1, 100, ALLT, {-1, 0x1p-30, -0x1p-30, 1, -0.5}},
  {OCLSTD_logb, K1, o_logb, 0, 0, -100, 100, ALLT, {1, 0x1p-149, 0x1p-1074, 0x1p-14, 0x1p-24}},
  {OCLSTD_rsqrt, K1, o_rsqrt, 0, 0, 0, 100, ALLT, {1, 4, 0x1p-149, 0x1p-1074, 0x1p-24, 2}},
  {OCLSTD_sin,
   K1,
   mpfr_sin,
   0,
   0,
   -10,
   10,
   ALLT,
   {3.141592653589793, 6.283185307179586, 1e5, 65504, 1e22, 0x1p-30, 0x1.33333p+13, 0x1.f9cbe2p+7, 0x1p20}},
  {OCLSTD_sinh, K1, mpfr_sinh, 0, 0, -20, 20, ALLT, {11.77, 89.415987, 710.4758600739439, 0x1p-30}},
  {OCLSTD_sinpi, K1, mpfr_sinpi, 0, 0, -4, 4, ALLT, {1, 0.5, 1000.5, 0.25, 8388607.5, 0x1p52, 0x1p-140}},
  {OCLSTD_tan,
   K1,
   mpfr_tan,
   0,
   0,
   -10,
   10,
   ALLT,
   {1.5707963267948966, 3.141592653589793, 1e5, 0x1p-30, 0x1.f9cbe2p+7, 0x1p20}},
  {OCLSTD_tanh, K1, mpfr_tanh, 0, 0, -10, 10, ALLT, {9.01, 19.06, 0x1p-30, 0.5}},
  {OCLSTD_tanpi, K1, mpfr_tanpi, 0, 0, -4, 4, ALLT, {0.5, 1.5, 0.25, 1000.5, 1, 8388607.5, 0x1p52}},
  {OCLSTD_tgamma,
   K1,
   mpfr_gamma,
   0,
   0,
   -50,
   40,
   ALLT,
   {35.04, 171.62, 9.1, -50, -185, -170.5, 0x1p-127, -0.5, 0x1.bd0d52p-48, 0x1.c0a8eap-48, -0x1.0e54ccp-19,
    -0x1.85529ap+1}},
  {OCLSTD_native_recip, K1, o_recip, 0, 0, -100, 100, ALLT, {3, 0x1p-149, 0x1p127, 0x1p-1022, 7}},
  {OCLSTD_native_sqrt, K1, mpfr_sqrt, 0, 0, 0, 100, ALLT, {2, 0x1p-149, 0x1p-1074, 4}},
  {OCLSTD_atan2, K2, 0, mpfr_atan2, 0, -10, 10, ALLT, {0}},
  {OCLSTD_atan2pi, K2, 0, mpfr_atan2pi, 0, -10, 10, ALLT, {0}},
  {OCLSTD_hypot, K2, 0, mpfr_hypot, 0, -100, 100, ALLT, {0}},
  {OCLSTD_pow, K2, 0, mpfr_pow, 0, -10, 10, ALLT, {0}},
  {OCLSTD_powr, K2, 0, o_powr, 0, 0, 10, ALLT, {0}},
  {OCLSTD_native_divide, K2, 0, mpfr_div, 0, -100, 100, ALLT, {0}},
  {OCLSTD_pown, KI, 0, 0, mpfr_pow_si, -10, 10, ALLT, {0}},
  {OCLSTD_rootn, KI, 0, 0, mpfr_rootn_si, -100, 100, ALLT, {0}},
};
#define NT (sizeof T / sizeof T[0])

static const mtest *find_t(uint32_t op) {
  for (size_t i = 0; i < NT; i++)
    if (T[i].op == op) return &T[i];
  return NULL;
}

/* ==== running the builtins ======================================================================== */

static bi_type tf(unsigned bits, unsigned n) {
  bi_type t = {.kind = BI_FLOAT, .bits = (uint8_t)bits, .ncomp = (uint8_t)n};
  return t;
}
static bi_type ti(unsigned n) {
  bi_type t = {.kind = BI_INT, .bits = 32, .ncomp = (uint8_t)n};
  return t;
}
static bi_type tp(unsigned ptrbits, bi_kind pk, unsigned pbits, unsigned pn) {
  bi_type t = {.kind = BI_PTR,
               .bits = (uint8_t)ptrbits,
               .ncomp = 1,
               .pointee_kind = pk,
               .pointee_bits = (uint8_t)pbits,
               .pointee_ncomp = (uint8_t)pn,
               .storage = 8 /* Generic */};
  return t;
}

static bi_resolved resolve(uint32_t op, bi_type res, const bi_type *args, unsigned nargs) {
  char err[256] = "";
  bi_resolved r = {0};
  if (!bi_resolve(op, &res, args, nargs, 0, &r, err, sizeof err)) fail_msg("resolve %s: %s", spv_oclstd_name(op), err);
  return r;
}

static void expect_error(uint32_t op, bi_type res, const bi_type *args, unsigned nargs, const char *msg) {
  char err[256] = "";
  bi_resolved r = {0};
  assert_false(bi_resolve(op, &res, args, nargs, 0, &r, err, sizeof err));
  assert_string_equal(err, msg);
}

static void put(uint8_t *p, unsigned bytes, uint64_t v) {
  if (bytes == 2) {
    uint16_t x = (uint16_t)v;
    memcpy(p, &x, 2);
  } else if (bytes == 4) {
    uint32_t x = (uint32_t)v;
    memcpy(p, &x, 4);
  } else memcpy(p, &v, 8);
}
static uint64_t get(const uint8_t *p, unsigned bytes) {
  if (bytes == 2) {
    uint16_t x;
    memcpy(&x, p, 2);
    return x;
  }
  if (bytes == 4) {
    uint32_t x;
    memcpy(&x, p, 4);
    return x;
  }
  uint64_t x;
  memcpy(&x, p, 8);
  return x;
}

/* A warp of up to 32 lanes; registers at odd (misaligning) strides; lanes listed in a scrambled
 * order with every 7th lane inactive (its result must stay untouched). */
#define LANES 32
#define SLOT (16 * 8 + 5)
static uint8_t R_DST[LANES * (SLOT + 3)], R_SRC[2][LANES * (SLOT + 7)];

typedef struct batch {
  uint32_t op;
  fmt f;
  kind k;
  bool ilogb; /* int32 results */
  unsigned n; /* components */
} batch;

/* Runs b.op on cnt cases: a[] (x patterns), y[] (y patterns, or int32 n for KI), results to out[]. */
static void run_batch(batch b, const uint64_t *a, const uint64_t *y, uint64_t *out, size_t cnt) {
  const unsigned es = FM[b.f].bytes, rs = b.ilogb ? 4 : es;
  const bi_type key = tf(8 * es, b.n);
  bi_type args[2] = {key, b.k == KI ? ti(b.n) : key};
  const bi_resolved r = resolve(b.op, b.ilogb ? ti(b.n) : key, args, b.k == K1 ? 1 : 2);
  const uint32_t dstride = b.n * rs + 3, sstride0 = b.n * es + 5, sstride1 = b.n * (b.k == KI ? 4 : es) + 7;
  uint16_t lanes[LANES];
  unsigned nl = 0;
  for (unsigned i = 0; i < LANES; i++) {
    const unsigned l = (i * 13 + 5) % LANES; /* a permutation: unordered lane list */
    if (l % 7 != 3) lanes[nl++] = (uint16_t)l;
  }
  const size_t per = (size_t)nl * b.n;
  for (size_t base = 0; base < cnt; base += per) {
    memset(R_DST, 0xA5, sizeof R_DST);
    for (unsigned i = 0; i < nl; i++)
      for (unsigned k = 0; k < b.n; k++) {
        const size_t c = (base + (size_t)i * b.n + k) % cnt;
        put(R_SRC[0] + lanes[i] * sstride0 + k * es, es, a[c]);
        if (b.k != K1) put(R_SRC[1] + lanes[i] * sstride1 + k * (b.k == KI ? 4 : es), b.k == KI ? 4 : es, y[c]);
      }
    bi_call c;
    memset(&c, 0, sizeof c);
    c.dst = R_DST;
    c.dst_stride = dstride;
    c.src[0] = R_SRC[0];
    c.src[1] = R_SRC[1];
    c.src_stride[0] = sstride0;
    c.src_stride[1] = sstride1;
    c.lanes = lanes;
    c.nlanes = nl;
    c.literal = r.literal;
    assert_true(r.fn(&c));
    for (unsigned i = 0; i < nl; i++)
      for (unsigned k = 0; k < b.n; k++) {
        const size_t cc = base + (size_t)i * b.n + k;
        if (cc < cnt) out[cc] = get(R_DST + lanes[i] * dstride + k * rs, rs);
      }
    for (unsigned l = 0; l < LANES; l++) /* inactive lanes untouched; nothing past n components */
      if (l % 7 == 3) assert_int_equal(R_DST[l * dstride], 0xA5);
      else assert_int_equal(R_DST[l * dstride + b.n * rs], 0xA5);
  }
}

/* ==== sampling ====================================================================================== */

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return rng * 0x2545F4914F6CDD1Dull;
}
static double unif(void) { return (double)(rnd() >> 11) * 0x1p-53; }

static unsigned scale(void) {
  const char *s = getenv("MATH_TEST_SCALE");
  const int v = s ? atoi(s) : 1;
  return v > 0 ? (unsigned)v : 1;
}

/* Round an arbitrary double to f (a pattern), by the C conversions (double -> float) or by hand for
 * half (truncation is fine: this only picks inputs). */
static uint64_t to_fmt(fmt f, double v) {
  if (f == FD) return dbits(v);
  if (f == FF) return fbits((float)v);
  if (isnan(v)) return 0x7e00;
  const double a = fabs(v);
  if (a > 65504) return enc(FH, copysign(INFINITY, v));
  const double q = a < 0x1p-14 ? 0x1p-24 : ldexp(1, (int)floor(log2(a)) - 10);
  return enc(FH, copysign(floor(a / q) * q, v));
}

static uint64_t random_bits(fmt f) {
  const uint64_t r = rnd();
  return f == FH ? (r & 0xffff) : f == FF ? (r & 0xffffffff) : r;
}

/* Log-uniform magnitude over the whole finite range of f, random sign. */
static uint64_t log_uniform(fmt f, bool pos) {
  const double lo = fmt_emin(f), hi = f == FH ? 16 : f == FF ? 128 : 1024;
  double v = exp2(lo + unif() * (hi - lo));
  if (v > fmt_max(f)) v = fmt_max(f);
  if (!pos && (rnd() & 1)) v = -v;
  return to_fmt(f, v);
}

/* One input for a one-operand function: a mix of the sampling schemes. */
static uint64_t sample1(const mtest *t, fmt f) {
  const unsigned s = rnd() % 16;
  if (s < 4) return random_bits(f);
  if (s < 8) return log_uniform(f, t->lo >= 0);
  if (s < 14) {
    double lo = t->lo, hi = t->hi, v = lo + unif() * (hi - lo);
    if (rnd() & 1) v = copysign(fabs(v) * exp2(-30 * unif()), v); /* also small magnitudes */
    if (v < lo) v = lo;
    return to_fmt(f, v);
  }
  /* integers and half-integers (pi functions, gamma poles, exact cases) */
  const double m = f == FH ? 2048 : 1e7;
  double v = floor(unif() * m) * (rnd() & 1 ? 0.5 : 1);
  if (rnd() & 1) v = -v;
  return to_fmt(f, v);
}

/* The pattern k steps of f's ordering away from pattern c (crossing zero and staying finite). */
static uint64_t step(fmt f, uint64_t c, int k) {
  const unsigned bits = 8 * FM[f].bytes;
  const uint64_t sign = 1ull << (bits - 1), mag = c & (sign - 1);
  /* ordered integer: positive patterns as is, negative as -(magnitude) */
  int64_t o = (c & sign) ? -(int64_t)mag : (int64_t)mag;
  o += k;
  return o < 0 ? (sign | (uint64_t)(-o)) : (uint64_t)o;
}

/* ==== the comparison loop ============================================================================ */

typedef struct cases {
  uint64_t *x, *y, *got, *want;
  size_t n, cap;
} cases;

static void cases_add(cases *c, uint64_t x, uint64_t y) {
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 4096;
    c->x = realloc(c->x, c->cap * 8);
    c->y = realloc(c->y, c->cap * 8);
    assert_non_null(c->x);
    assert_non_null(c->y);
  }
  c->x[c->n] = x;
  c->y[c->n] = y;
  c->n++;
}
static void cases_free(cases *c) {
  free(c->x);
  free(c->y);
  free(c->got);
  free(c->want);
  memset(c, 0, sizeof *c);
}

/* Runs every case through the builtin with width n and compares with the oracle of `ref` (the
 * function whose result `op` must equal). Fails with the first mismatches listed. */
static unsigned long long total_checked; /* results compared with the oracle, for the summary */

static void check_cases(uint32_t op, const mtest *ref, fmt f, unsigned width, cases *c) {
  total_checked += c->n;
  c->got = calloc(c->n, 8);
  c->want = calloc(c->n, 8);
  assert_non_null(c->got);
  assert_non_null(c->want);
  batch b = {op, f, ref->k, false, width};
  run_batch(b, c->x, c->y, c->got, c->n);
  unsigned bad = 0;
  for (size_t i = 0; i < c->n; i++) {
    c->want[i] = oracle(ref, f, c->x[i], c->y[i], ref->k == KI ? (long)(int32_t)c->y[i] : 0);
    if (c->got[i] != c->want[i]) {
      if (bad < 8)
        print_message("%s %s x=%#llx y=%#llx (%a, %a): got %#llx want %#llx\n", spv_oclstd_name(op), FM[f].name,
                      (unsigned long long)c->x[i], (unsigned long long)c->y[i],
                      is_nan(f, c->x[i]) ? NAN : val(f, c->x[i]),
                      ref->k == KI                          ? (double)(int32_t)c->y[i]
                      : ref->k == K2 && !is_nan(f, c->y[i]) ? val(f, c->y[i])
                                                            : NAN,
                      (unsigned long long)c->got[i], (unsigned long long)c->want[i]);
      bad++;
    }
  }
  if (bad) fail_msg("%s %s: %u of %zu results differ from the oracle", spv_oclstd_name(op), FM[f].name, bad, c->n);
}

/* Inputs for a one-operand function: exhaustive for half, else `count` samples plus sweeps of 400
 * neighbours around every point of interest and the format's special patterns. */
static void gen1(const mtest *t, fmt f, size_t count, cases *c) {
  if (f == FH) {
    for (uint64_t b = 0; b < 65536; b++) cases_add(c, b, 0);
    return;
  }
  for (size_t i = 0; i < count; i++) cases_add(c, sample1(t, f), 0);
  /* double results in the subnormal range (rounded once onto the 2^-1074 grid) */
  static const struct {
    uint32_t op;
    double lo, hi;
  } sub[] = {{OCLSTD_exp, -745.2, -708.3}, {OCLSTD_exp2, -1075, -1022},     {OCLSTD_exp10, -323.7, -307.6},
             {OCLSTD_erfc, 26.5, 27.3},    {OCLSTD_tgamma, -184.9, -170.6}, {OCLSTD_sinpi, -0x1p-1022, 0x1p-1022}};
  for (unsigned i = 0; f == FD && i < sizeof sub / sizeof sub[0]; i++)
    if (sub[i].op == t->op)
      for (size_t k = 0; k < count / 5; k++) cases_add(c, to_fmt(f, sub[i].lo + unif() * (sub[i].hi - sub[i].lo)), 0);
  for (unsigned p = 0; p < 12; p++) {
    const double v = t->poi[p];
    if (p && v == 0) break;
    if (fabs(v) > fmt_max(f)) continue;
    for (int s = 0; s < 2; s++) {
      const uint64_t centre = to_fmt(f, s ? -v : v);
      for (int k = -200; k <= 200; k++) cases_add(c, step(f, centre, k), 0);
    }
  }
  /* specials: zeros, infinities, NaNs (quiet and signalling, with payloads), extremes */
  const uint64_t sp_f[] = {0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x7fa5a5a5,
                           1, 0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000};
  const uint64_t sp_d[] = {0,
                           0x8000000000000000ull,
                           0x7ff0000000000000ull,
                           0xfff0000000000000ull,
                           0x7ff8000000000000ull,
                           0xfff8000000000001ull,
                           0x7ff0000000000001ull,
                           0x7ff4a5a5a5a5a5a5ull,
                           1,
                           0x8000000000000001ull,
                           0x000fffffffffffffull,
                           0x0010000000000000ull,
                           0x7fefffffffffffffull,
                           0xffefffffffffffffull,
                           0x3ff0000000000000ull,
                           0xbff0000000000000ull};
  for (unsigned i = 0; i < 16; i++) cases_add(c, f == FF ? sp_f[i] : sp_d[i], 0);
}

static void test_one(const mtest *t, fmt f, size_t count) {
  cases c = {0};
  gen1(t, f, count, &c);
  check_cases(t->op, t, f, (unsigned[]){1, 2, 3, 4, 8, 16}[rnd() % 6], &c);
  cases_free(&c);
}

/* Sizes: float 100,000, double 10,000 per function (times MATH_TEST_SCALE). */
static void t_unary(void **state) {
  const mtest *t = *state;
  const unsigned s = scale();
  if (t->types & 1) test_one(t, FH, 0);
  if (t->types & 2) test_one(t, FF, 100000u * s);
  if (t->types & 4) test_one(t, FD, 100000u * s);
}

/* ---- two-operand functions --------------------------------------------------------------------------
 * Pairs: random patterns; both log-uniform; both uniform in the domain; for pow/powr/pown an
 * exponent chosen so that the result spans the format's range (|y log2 |x|| up to the exponent
 * range), integer exponents, and exact cases (squares and cubes of short significands, whose
 * results may be exact midpoints). */

static uint64_t sample_y_for_pow(fmt f, double x) {
  const double range = f == FH ? 26 : f == FF ? 160 : 1100;
  const double l = fabs(log2(fabs(x)));
  double y = (2 * unif() - 1) * range / (l > 0x1p-20 ? l : 0x1p-20);
  if (rnd() & 1) y = round(y);
  return to_fmt(f, y);
}

static void gen2(const mtest *t, fmt f, size_t count, cases *c) {
  const bool powlike = t->op == OCLSTD_pow || t->op == OCLSTD_powr;
  for (size_t i = 0; i < count; i++) {
    const unsigned s = rnd() % 8;
    uint64_t x, y;
    if (s < 2) {
      x = random_bits(f);
      y = random_bits(f);
    } else if (s < 4) {
      x = log_uniform(f, t->lo >= 0);
      y = log_uniform(f, false);
    } else if (s < 6 || !powlike) {
      x = to_fmt(f, t->lo + unif() * (t->hi - t->lo));
      y = to_fmt(f, t->lo + unif() * (t->hi - t->lo));
      if (t->op == OCLSTD_powr || t->op == OCLSTD_pow) y = to_fmt(f, (2 * unif() - 1) * 20);
    } else if (s < 7) {
      x = log_uniform(f, t->op == OCLSTD_powr);
      y = sample_y_for_pow(f, val(f, x));
    } else {
      /* exact results: x with a short significand, y a small integer */
      const double m = (double)(rnd() % (f == FH ? 64 : 8192) + 1);
      x = to_fmt(f, (rnd() & 1) && t->op != OCLSTD_powr ? -m : m);
      y = to_fmt(f, (double)(rnd() % 4 + 1) * (rnd() & 1 ? 1 : -1));
    }
    cases_add(c, x, y);
  }
  /* known hard float cases of atan2 (the double result is a float midpoint, or the quotient is a
     midpoint in the subnormal range) and the exact midpoints 63^2 (half) and 4097^2 (float) */
  static const double hard[][2] = {{-0x1.35633p-9, -0x1.6a601cp+4},
                                   {0x1.fffffcp-127, 2},
                                   {0x1.921fb6p+0, 0x1p+127},
                                   {-0x1.921fb6p+0, 0x1p+127},
                                   {1, -0x1p-149},
                                   {63, 2},
                                   {4097, 2},
                                   {-4097, 2}};
  for (unsigned i = 0; i < sizeof hard / sizeof hard[0]; i++)
    if (fabs(hard[i][0]) <= fmt_max(f) && fabs(hard[i][1]) <= fmt_max(f))
      cases_add(c, to_fmt(f, hard[i][0]), to_fmt(f, hard[i][1]));
  /* all pairs of special operands */
  const double sp[] = {0, -0.0, 1, -1, INFINITY, -INFINITY, NAN, 2, -2, 0.5, -0.5, 3, -3, 0.25};
  for (unsigned i = 0; i < 14; i++)
    for (unsigned j = 0; j < 14; j++) {
      const uint64_t xb = isnan(sp[i]) ? canon_nan(f) | 5 : enc(f, sp[i]);
      const uint64_t yb = isnan(sp[j]) ? canon_nan(f) | 3 : enc(f, sp[j]);
      cases_add(c, xb, yb);
    }
}

static void test_two(const mtest *t, fmt f, size_t count) {
  cases c = {0};
  gen2(t, f, count, &c);
  check_cases(t->op, t, f, (unsigned[]){1, 2, 3, 4, 8, 16}[rnd() % 6], &c);
  cases_free(&c);
}

static void t_binary(void **state) {
  const mtest *t = *state;
  const unsigned s = scale();
  if (t->types & 1) test_two(t, FH, 100000u * s);
  if (t->types & 2) test_two(t, FF, 100000u * s);
  if (t->types & 4) test_two(t, FD, 100000u * s);
}

/* ---- pown, rootn: x and an int32 ------------------------------------------------------------------ */

static void gen_int(const mtest *t, fmt f, size_t count, cases *c) {
  const bool pown = t->op == OCLSTD_pown;
  for (size_t i = 0; i < count; i++) {
    const unsigned s = rnd() % 8;
    uint64_t x;
    int32_t n;
    if (s < 2) {
      x = random_bits(f);
      n = (int32_t)(uint32_t)rnd();
    } else if (s < 5) {
      x = log_uniform(f, false);
      const double range = f == FH ? 26 : f == FF ? 160 : 1100, l = fabs(log2(fabs(val(f, x))));
      n = pown ? (int32_t)((2 * unif() - 1) * fmin(range / (l > 1e-9 ? l : 1e-9), 1e9)) : (int32_t)(rnd() % 41) - 20;
    } else if (s < 7) {
      x = to_fmt(f, t->lo + unif() * (t->hi - t->lo));
      n = (int32_t)(rnd() % 21) - 10;
    } else {
      /* exact results: pown of short significands, rootn of perfect powers */
      const double m = (double)(rnd() % (f == FH ? 16 : 512) + 1);
      n = (int32_t)(rnd() % 5) + 1;
      if (pown) {
        x = to_fmt(f, (rnd() & 1) ? -m : m);
      } else {
        const double p = pow(m, n);
        x = to_fmt(f, (n & 1) && (rnd() & 1) ? -p : p);
      }
      if (rnd() & 1) n = -n;
    }
    cases_add(c, x, (uint32_t)n);
  }
  const double sp[] = {0, -0.0, 1, -1, INFINITY, -INFINITY, NAN, 2, -2, 0.5, 8, -8, 0x1p-14};
  const int32_t sn[] = {0, 1, -1, 2, -2, 3, -3, 4, -4, 5, INT32_MAX, INT32_MIN, INT32_MIN + 1};
  for (unsigned i = 0; i < 13; i++)
    for (unsigned j = 0; j < 13; j++) cases_add(c, isnan(sp[i]) ? canon_nan(f) | 9 : enc(f, sp[i]), (uint32_t)sn[j]);
}

static void test_int(const mtest *t, fmt f, size_t count) {
  cases c = {0};
  gen_int(t, f, count, &c);
  check_cases(t->op, t, f, (unsigned[]){1, 2, 3, 4, 8, 16}[rnd() % 6], &c);
  cases_free(&c);
}

static void t_intarg(void **state) {
  const mtest *t = *state;
  const unsigned s = scale();
  if (t->types & 1) test_int(t, FH, 100000u * s);
  if (t->types & 2) test_int(t, FF, 100000u * s);
  if (t->types & 4) test_int(t, FD, 100000u * s);
}

/* ==== hand tables: OpenCL §7.5 and C99 F.9 special values ========================================== */

typedef struct hcase {
  uint32_t op;
  double x, y; /* y: second operand, or the int32 n of pown/rootn */
  double want; /* NAN: the canonical NaN */
} hcase;

#define INF INFINITY
/* clang-format off */
static const hcase H[] = {
  /* OpenCL §7.5 additions */
  {OCLSTD_acospi, 1, 0, 0.0}, {OCLSTD_acospi, 1.5, 0, NAN}, {OCLSTD_acospi, -1.5, 0, NAN}, {OCLSTD_acospi, -1, 0, 1},
  {OCLSTD_asinpi, 0.0, 0, 0.0}, {OCLSTD_asinpi, -0.0, 0, -0.0}, {OCLSTD_asinpi, 2, 0, NAN}, {OCLSTD_asinpi, -1, 0, -0.5},
  {OCLSTD_atanpi, 0.0, 0, 0.0}, {OCLSTD_atanpi, -0.0, 0, -0.0}, {OCLSTD_atanpi, INF, 0, 0.5}, {OCLSTD_atanpi, -INF, 0, -0.5},
  {OCLSTD_atan2pi, 0.0, -0.0, 1}, {OCLSTD_atan2pi, -0.0, -0.0, -1}, {OCLSTD_atan2pi, 0.0, 0.0, 0.0},
  {OCLSTD_atan2pi, -0.0, 0.0, -0.0}, {OCLSTD_atan2pi, 0.0, -3, 1}, {OCLSTD_atan2pi, -0.0, -3, -1},
  {OCLSTD_atan2pi, 0.0, 3, 0.0}, {OCLSTD_atan2pi, -0.0, 3, -0.0}, {OCLSTD_atan2pi, -2, 0.0, -0.5},
  {OCLSTD_atan2pi, -2, -0.0, -0.5}, {OCLSTD_atan2pi, 2, 0.0, 0.5}, {OCLSTD_atan2pi, 2, -0.0, 0.5},
  {OCLSTD_atan2pi, 2, -INF, 1}, {OCLSTD_atan2pi, -2, -INF, -1}, {OCLSTD_atan2pi, 2, INF, 0.0},
  {OCLSTD_atan2pi, -2, INF, -0.0}, {OCLSTD_atan2pi, INF, 5, 0.5}, {OCLSTD_atan2pi, -INF, -5, -0.5},
  {OCLSTD_atan2pi, INF, -INF, 0.75}, {OCLSTD_atan2pi, -INF, -INF, -0.75}, {OCLSTD_atan2pi, INF, INF, 0.25},
  {OCLSTD_atan2pi, -INF, INF, -0.25}, {OCLSTD_atan2pi, 1, 1, 0.25}, {OCLSTD_atan2pi, -1, -1, -0.75},
  {OCLSTD_cospi, 0.0, 0, 1}, {OCLSTD_cospi, -0.0, 0, 1}, {OCLSTD_cospi, 0.5, 0, 0.0}, {OCLSTD_cospi, -0.5, 0, 0.0},
  {OCLSTD_cospi, 1.5, 0, 0.0}, {OCLSTD_cospi, -2.5, 0, 0.0}, {OCLSTD_cospi, 1001.5, 0, 0.0}, {OCLSTD_cospi, INF, 0, NAN},
  {OCLSTD_cospi, -INF, 0, NAN}, {OCLSTD_cospi, 1, 0, -1}, {OCLSTD_cospi, -3, 0, -1}, {OCLSTD_cospi, 2048, 0, 1},
  {OCLSTD_exp10, -INF, 0, 0.0}, {OCLSTD_exp10, INF, 0, INF}, {OCLSTD_exp10, 2, 0, 100}, {OCLSTD_exp10, 0.0, 0, 1},
  {OCLSTD_pow, 0.0, -INF, INF}, {OCLSTD_pow, -0.0, -INF, INF},
  {OCLSTD_pown, 0.0, 0, 1}, {OCLSTD_pown, NAN, 0, 1}, {OCLSTD_pown, INF, 0, 1}, {OCLSTD_pown, -INF, 0, 1},
  {OCLSTD_pown, 0.0, -3, INF}, {OCLSTD_pown, -0.0, -3, -INF}, {OCLSTD_pown, 0.0, -2, INF}, {OCLSTD_pown, -0.0, -2, INF},
  {OCLSTD_pown, 0.0, 2, 0.0}, {OCLSTD_pown, -0.0, 2, 0.0}, {OCLSTD_pown, 0.0, 3, 0.0}, {OCLSTD_pown, -0.0, 3, -0.0},
  {OCLSTD_pown, -INF, 3, -INF}, {OCLSTD_pown, -INF, -3, -0.0}, {OCLSTD_pown, -INF, 2, INF}, {OCLSTD_pown, -2, 3, -8},
  {OCLSTD_pown, -0.5, -3, -8},
  {OCLSTD_powr, 3, 0.0, 1}, {OCLSTD_powr, 3, -0.0, 1}, {OCLSTD_powr, 0.0, -2, INF}, {OCLSTD_powr, -0.0, -2, INF},
  {OCLSTD_powr, 0.0, -INF, INF}, {OCLSTD_powr, -0.0, -INF, INF}, {OCLSTD_powr, 0.0, 2, 0.0}, {OCLSTD_powr, -0.0, 3, 0.0},
  {OCLSTD_powr, 0.0, INF, 0.0}, {OCLSTD_powr, 1, 5, 1}, {OCLSTD_powr, 1, -5, 1}, {OCLSTD_powr, -2, 2, NAN},
  {OCLSTD_powr, -INF, 2, NAN}, {OCLSTD_powr, 0.0, 0.0, NAN}, {OCLSTD_powr, -0.0, -0.0, NAN}, {OCLSTD_powr, INF, 0.0, NAN},
  {OCLSTD_powr, INF, -0.0, NAN}, {OCLSTD_powr, 1, INF, NAN}, {OCLSTD_powr, 1, -INF, NAN}, {OCLSTD_powr, INF, 2, INF},
  {OCLSTD_powr, INF, -2, 0.0}, {OCLSTD_powr, 0.5, INF, 0.0}, {OCLSTD_powr, 2, INF, INF}, {OCLSTD_powr, 0.5, -INF, INF},
  {OCLSTD_powr, 2, -INF, 0.0}, {OCLSTD_powr, 4, 0.5, 2},
  {OCLSTD_rootn, 0.0, -3, INF}, {OCLSTD_rootn, -0.0, -3, -INF}, {OCLSTD_rootn, 0.0, -2, INF}, {OCLSTD_rootn, -0.0, -2, INF},
  {OCLSTD_rootn, 0.0, 2, 0.0}, {OCLSTD_rootn, -0.0, 2, 0.0}, {OCLSTD_rootn, 0.0, 3, 0.0}, {OCLSTD_rootn, -0.0, 3, -0.0},
  {OCLSTD_rootn, -8, 2, NAN}, {OCLSTD_rootn, -8, 3, -2}, {OCLSTD_rootn, 8, 0, NAN}, {OCLSTD_rootn, 0.0, 0, NAN},
  {OCLSTD_rootn, -INF, 3, -INF}, {OCLSTD_rootn, -INF, -3, -0.0}, {OCLSTD_rootn, INF, -2, 0.0}, {OCLSTD_rootn, -INF, 2, NAN},
  {OCLSTD_rootn, 16, 4, 2}, {OCLSTD_rootn, 16, -4, 0.5}, {OCLSTD_rootn, 2, 1, 2}, {OCLSTD_rootn, 4, -1, 0.25},
  {OCLSTD_sinpi, 0.0, 0, 0.0}, {OCLSTD_sinpi, -0.0, 0, -0.0}, {OCLSTD_sinpi, 1, 0, 0.0}, {OCLSTD_sinpi, 2, 0, 0.0},
  {OCLSTD_sinpi, 1024, 0, 0.0}, {OCLSTD_sinpi, -1, 0, -0.0}, {OCLSTD_sinpi, -2, 0, -0.0}, {OCLSTD_sinpi, -2048, 0, -0.0},
  {OCLSTD_sinpi, INF, 0, NAN}, {OCLSTD_sinpi, -INF, 0, NAN}, {OCLSTD_sinpi, 0.5, 0, 1}, {OCLSTD_sinpi, 1.5, 0, -1},
  {OCLSTD_sinpi, -0.5, 0, -1}, {OCLSTD_sinpi, -1.5, 0, 1},
  {OCLSTD_tanpi, 0.0, 0, 0.0}, {OCLSTD_tanpi, -0.0, 0, -0.0}, {OCLSTD_tanpi, INF, 0, NAN}, {OCLSTD_tanpi, -INF, 0, NAN},
  {OCLSTD_tanpi, 2, 0, 0.0}, {OCLSTD_tanpi, -2, 0, -0.0}, {OCLSTD_tanpi, 1, 0, -0.0}, {OCLSTD_tanpi, -1, 0, 0.0},
  {OCLSTD_tanpi, 3, 0, -0.0}, {OCLSTD_tanpi, -3, 0, 0.0}, {OCLSTD_tanpi, 0.5, 0, INF}, {OCLSTD_tanpi, 1.5, 0, -INF},
  {OCLSTD_tanpi, 2.5, 0, INF}, {OCLSTD_tanpi, -0.5, 0, -INF}, {OCLSTD_tanpi, -1.5, 0, INF}, {OCLSTD_tanpi, 0.25, 0, 1},
  {OCLSTD_tanpi, -0.25, 0, -1}, {OCLSTD_tanpi, 0.75, 0, -1},
  /* C99 F.9 (selection: every function's zero / infinity / domain cases) */
  {OCLSTD_acos, 1, 0, 0.0}, {OCLSTD_acos, 2, 0, NAN}, {OCLSTD_asin, -0.0, 0, -0.0}, {OCLSTD_asin, -2, 0, NAN},
  {OCLSTD_atan, -0.0, 0, -0.0}, {OCLSTD_atan2, 0.0, 0.0, 0.0}, {OCLSTD_atan2, -0.0, 0.0, -0.0},
  {OCLSTD_atan2, 0.0, INF, 0.0}, {OCLSTD_atan2, -2, INF, -0.0}, {OCLSTD_cos, INF, 0, NAN}, {OCLSTD_cos, -0.0, 0, 1},
  {OCLSTD_sin, -0.0, 0, -0.0}, {OCLSTD_sin, -INF, 0, NAN}, {OCLSTD_tan, -0.0, 0, -0.0}, {OCLSTD_tan, INF, 0, NAN},
  {OCLSTD_acosh, 1, 0, 0.0}, {OCLSTD_acosh, 0.5, 0, NAN}, {OCLSTD_acosh, INF, 0, INF}, {OCLSTD_acosh, -INF, 0, NAN},
  {OCLSTD_asinh, -0.0, 0, -0.0}, {OCLSTD_asinh, -INF, 0, -INF}, {OCLSTD_atanh, -0.0, 0, -0.0}, {OCLSTD_atanh, 1, 0, INF},
  {OCLSTD_atanh, -1, 0, -INF}, {OCLSTD_atanh, 2, 0, NAN}, {OCLSTD_cosh, -0.0, 0, 1}, {OCLSTD_cosh, -INF, 0, INF},
  {OCLSTD_sinh, -0.0, 0, -0.0}, {OCLSTD_sinh, -INF, 0, -INF}, {OCLSTD_tanh, -0.0, 0, -0.0}, {OCLSTD_tanh, -INF, 0, -1},
  {OCLSTD_tanh, INF, 0, 1}, {OCLSTD_exp, -0.0, 0, 1}, {OCLSTD_exp, -INF, 0, 0.0}, {OCLSTD_exp, INF, 0, INF},
  {OCLSTD_exp2, -INF, 0, 0.0}, {OCLSTD_exp2, 10, 0, 1024}, {OCLSTD_exp2, -3, 0, 0.125}, {OCLSTD_expm1, -0.0, 0, -0.0},
  {OCLSTD_expm1, -INF, 0, -1}, {OCLSTD_expm1, INF, 0, INF}, {OCLSTD_log, 0.0, 0, -INF}, {OCLSTD_log, -0.0, 0, -INF},
  {OCLSTD_log, 1, 0, 0.0}, {OCLSTD_log, -1, 0, NAN}, {OCLSTD_log, INF, 0, INF}, {OCLSTD_log, -INF, 0, NAN},
  {OCLSTD_log2, -0.0, 0, -INF}, {OCLSTD_log2, 1, 0, 0.0}, {OCLSTD_log2, 1024, 0, 10}, {OCLSTD_log2, 0.125, 0, -3},
  {OCLSTD_log10, 0.0, 0, -INF}, {OCLSTD_log10, 100, 0, 2}, {OCLSTD_log10, -2, 0, NAN}, {OCLSTD_log1p, -0.0, 0, -0.0},
  {OCLSTD_log1p, -1, 0, -INF}, {OCLSTD_log1p, -2, 0, NAN}, {OCLSTD_log1p, INF, 0, INF}, {OCLSTD_logb, 0.0, 0, -INF},
  {OCLSTD_logb, -0.0, 0, -INF}, {OCLSTD_logb, INF, 0, INF}, {OCLSTD_logb, -INF, 0, INF}, {OCLSTD_logb, 1, 0, 0.0},
  {OCLSTD_logb, -3, 0, 1}, {OCLSTD_logb, 0.25, 0, -2}, {OCLSTD_cbrt, -0.0, 0, -0.0}, {OCLSTD_cbrt, -INF, 0, -INF},
  {OCLSTD_cbrt, -27, 0, -3}, {OCLSTD_cbrt, 0.125, 0, 0.5}, {OCLSTD_hypot, INF, NAN, INF}, {OCLSTD_hypot, NAN, -INF, INF},
  {OCLSTD_hypot, -3, 0.0, 3}, {OCLSTD_hypot, -0.0, -0.0, 0.0}, {OCLSTD_hypot, 3, 4, 5},
  {OCLSTD_pow, NAN, 0.0, 1}, {OCLSTD_pow, NAN, -0.0, 1}, {OCLSTD_pow, 1, NAN, 1}, {OCLSTD_pow, 1, INF, 1},
  {OCLSTD_pow, -1, INF, 1}, {OCLSTD_pow, -1, -INF, 1}, {OCLSTD_pow, 0.0, -3, INF}, {OCLSTD_pow, -0.0, -3, -INF},
  {OCLSTD_pow, -0.0, -2, INF}, {OCLSTD_pow, -0.0, -0.5, INF}, {OCLSTD_pow, -0.0, 3, -0.0}, {OCLSTD_pow, -0.0, 2, 0.0},
  {OCLSTD_pow, -0.0, 0.5, 0.0}, {OCLSTD_pow, 0.5, -INF, INF}, {OCLSTD_pow, 2, -INF, 0.0}, {OCLSTD_pow, -0.5, INF, 0.0},
  {OCLSTD_pow, -2, INF, INF}, {OCLSTD_pow, -INF, -3, -0.0}, {OCLSTD_pow, -INF, -2, 0.0}, {OCLSTD_pow, -INF, 3, -INF},
  {OCLSTD_pow, -INF, 2, INF}, {OCLSTD_pow, INF, -1, 0.0}, {OCLSTD_pow, INF, 0.5, INF}, {OCLSTD_pow, -2, 0.5, NAN},
  {OCLSTD_pow, -2, 3, -8}, {OCLSTD_pow, 4, 0.5, 2}, {OCLSTD_pow, 4, -0.5, 0.5},
  {OCLSTD_erf, -0.0, 0, -0.0}, {OCLSTD_erf, INF, 0, 1}, {OCLSTD_erf, -INF, 0, -1}, {OCLSTD_erfc, -INF, 0, 2},
  {OCLSTD_erfc, INF, 0, 0.0}, {OCLSTD_erfc, 0.0, 0, 1}, {OCLSTD_lgamma, 1, 0, 0.0}, {OCLSTD_lgamma, 2, 0, 0.0},
  {OCLSTD_lgamma, 0.0, 0, INF}, {OCLSTD_lgamma, -0.0, 0, INF}, {OCLSTD_lgamma, -2, 0, INF}, {OCLSTD_lgamma, -INF, 0, INF},
  {OCLSTD_lgamma, INF, 0, INF}, {OCLSTD_tgamma, 0.0, 0, INF}, {OCLSTD_tgamma, -0.0, 0, -INF}, {OCLSTD_tgamma, -2, 0, NAN},
  {OCLSTD_tgamma, -INF, 0, NAN}, {OCLSTD_tgamma, INF, 0, INF}, {OCLSTD_tgamma, 5, 0, 24}, {OCLSTD_tgamma, 1, 0, 1},
  /* rsqrt, recip, divide, sqrt (IEEE 754-2019 rSqrt; IEEE division) */
  {OCLSTD_rsqrt, 0.0, 0, INF}, {OCLSTD_rsqrt, -0.0, 0, -INF}, {OCLSTD_rsqrt, INF, 0, 0.0}, {OCLSTD_rsqrt, -1, 0, NAN},
  {OCLSTD_rsqrt, 4, 0, 0.5}, {OCLSTD_native_recip, -0.0, 0, -INF}, {OCLSTD_native_recip, -INF, 0, -0.0},
  {OCLSTD_native_recip, 4, 0, 0.25}, {OCLSTD_native_divide, 0.0, 0.0, NAN}, {OCLSTD_native_divide, INF, -INF, NAN},
  {OCLSTD_native_divide, -1, 0.0, -INF}, {OCLSTD_native_divide, 1, -INF, -0.0}, {OCLSTD_native_divide, 3, 4, 0.75},
  {OCLSTD_native_sqrt, -0.0, 0, -0.0}, {OCLSTD_native_sqrt, -1, 0, NAN}, {OCLSTD_native_sqrt, 0.25, 0, 0.5},
  {OCLSTD_native_powr, -1, 2, NAN}, {OCLSTD_native_exp10, 1, 0, 10}, {OCLSTD_native_log2, 0.5, 0, -1},
};
/* clang-format on */

/* One scalar call of op for type f (n = 1, one lane). */
static uint64_t call1(uint32_t op, fmt f, uint64_t x, uint64_t y) {
  const unsigned es = FM[f].bytes;
  const bool intn = op == OCLSTD_pown || op == OCLSTD_rootn;
  const bool two = intn || op == OCLSTD_atan2 || op == OCLSTD_atan2pi || op == OCLSTD_hypot || op == OCLSTD_pow ||
                   op == OCLSTD_powr || op == OCLSTD_native_divide || op == OCLSTD_native_powr;
  const bi_type key = tf(8 * es, 1);
  bi_type a[2] = {key, intn ? ti(1) : key};
  const bi_resolved r = resolve(op, key, a, two ? 2 : 1);
  uint8_t d[8], s0[8], s1[8];
  put(s0, es, x);
  put(s1, intn ? 4 : es, y);
  const uint16_t lane = 0;
  bi_call c = {.dst = d, .src = {s0, s1}, .lanes = &lane, .nlanes = 1, .literal = r.literal};
  assert_true(r.fn(&c));
  return get(d, es);
}

static void t_hand(void **state) {
  (void)state;
  unsigned checked = 0;
  for (size_t i = 0; i < sizeof H / sizeof H[0]; i++) {
    const hcase *h = &H[i];
    const bool intn = h->op == OCLSTD_pown || h->op == OCLSTD_rootn;
    for (fmt f = FH; f <= FD; f++) {
      const uint64_t xb = isnan(h->x) ? canon_nan(f) | 1 : enc(f, h->x); /* a NaN with a payload */
      const uint64_t yb = intn ? (uint32_t)(int32_t)h->y : isnan(h->y) ? canon_nan(f) | 2 : enc(f, h->y);
      const uint64_t want = isnan(h->want) ? canon_nan(f) : enc(f, h->want);
      /* NaN operands in this table only appear in rows whose result is not NaN (pown(NaN, 0),
         pow(NaN, ±0), hypot(±inf, NaN)): a NaN result here is an invalid operation */
      const uint64_t got = call1(h->op, f, xb, yb);
      if (got != want)
        fail_msg("%s %s (%a, %a): got %#llx, want %#llx", spv_oclstd_name(h->op), FM[f].name, h->x, h->y,
                 (unsigned long long)got, (unsigned long long)want);
      checked++;
    }
  }
  /* exact results that are midpoints: ties to even (the fast path's interval straddles them) */
  assert_true(call1(OCLSTD_pow, FF, enc(FF, 4097), enc(FF, 2)) == enc(FF, 16785408));
  assert_true(call1(OCLSTD_pown, FF, enc(FF, -4097), 2) == enc(FF, 16785408));
  assert_true(call1(OCLSTD_pow, FH, enc(FH, 63), enc(FH, 2)) == enc(FH, 3968));
  assert_true(call1(OCLSTD_pown, FH, enc(FH, -63), 2) == enc(FH, 3968));
  assert_true(call1(OCLSTD_pown, FH, enc(FH, 65), 2) == enc(FH, 4224)); /* 4225: below the midpoint */
  assert_true(call1(OCLSTD_powr, FF, enc(FF, 4097), enc(FF, 2)) == enc(FF, 16785408));
  assert_true(call1(OCLSTD_hypot, FF, enc(FF, 3), enc(FF, 4)) == enc(FF, 5));
  checked += 7;
  /* NaN operands come back quieted with their payload (first NaN operand in operand order) */
  for (fmt f = FH; f <= FD; f++) {
    const uint64_t snan = f == FH ? 0x7d23 : f == FF ? 0x7f812345 : 0x7ff0000012345678ull;
    const uint64_t neg_qnan = f == FH ? 0xfe11 : f == FF ? 0xffc54321 : 0xfff8000087654321ull;
    const uint64_t one = enc(f, 1), two = enc(f, 2);
    assert_true(call1(OCLSTD_sin, f, snan, 0) == quiet(f, snan));
    assert_true(call1(OCLSTD_exp, f, neg_qnan, 0) == neg_qnan);
    assert_true(call1(OCLSTD_lgamma, f, snan, 0) == quiet(f, snan));
    assert_true(call1(OCLSTD_atan2, f, two, snan) == quiet(f, snan));
    assert_true(call1(OCLSTD_atan2, f, neg_qnan, snan) == neg_qnan);
    assert_true(call1(OCLSTD_pow, f, snan, two) == quiet(f, snan));
    assert_true(call1(OCLSTD_pow, f, two, neg_qnan) == neg_qnan);
    assert_true(call1(OCLSTD_pow, f, one, snan) == one); /* pow(+1, NaN) = 1 */
    assert_true(call1(OCLSTD_powr, f, one, snan) == quiet(f, snan));
    assert_true(call1(OCLSTD_powr, f, enc(f, -2), neg_qnan) == neg_qnan);
    assert_true(call1(OCLSTD_pown, f, snan, 0) == one);
    assert_true(call1(OCLSTD_pown, f, snan, 3) == quiet(f, snan));
    assert_true(call1(OCLSTD_rootn, f, snan, 0) == quiet(f, snan));
    assert_true(call1(OCLSTD_hypot, f, snan, two) == quiet(f, snan));
    checked += 14;
  }
  print_message("%u hand-table checks\n", checked);
}

/* ==== logb, ilogb: exact =========================================================================== */

static void t_ilogb(void **state) {
  (void)state;
  for (fmt f = FH; f <= FD; f++) {
    const size_t cnt = f == FH ? 65536 : 200000;
    uint64_t *x = malloc(cnt * 8), *got = malloc(cnt * 8);
    assert_non_null(x);
    assert_non_null(got);
    for (size_t i = 0; i < cnt; i++)
      x[i] = f == FH ? i : i < 64 ? (i & 1 ? 1ull << (8 * FM[f].bytes - 1) : 0) + i / 2 : random_bits(f);
    const unsigned widths[] = {1, 3, 16};
    for (unsigned w = 0; w < 3; w++) {
      batch b = {OCLSTD_ilogb, f, K1, true, widths[w]};
      run_batch(b, x, NULL, got, cnt);
      for (size_t i = 0; i < cnt; i++) {
        int32_t want;
        if (is_nan(f, x[i])) want = INT_MAX; /* FP_ILOGBNAN (clang: INT_MAX) */
        else if (isinf(val(f, x[i]))) want = INT_MAX;
        else if (val(f, x[i]) == 0) want = INT_MIN; /* FP_ILOGB0 (clang: INT_MIN) */
        else {
          mpfr_t m;
          mpfr_init2(m, 53);
          mpfr_set_d(m, val(f, x[i]), MPFR_RNDN);
          want = (int32_t)(mpfr_get_exp(m) - 1);
          mpfr_clear(m);
        }
        if ((int32_t)got[i] != want)
          fail_msg("ilogb %s %#llx: got %d want %d", FM[f].name, (unsigned long long)x[i], (int32_t)got[i], want);
      }
    }
    free(x);
    free(got);
  }
}

/* ==== pointer outputs: sincos, lgamma_r ============================================================== */

typedef struct fmem {
  bi_mem mem;
  uint8_t *buf;
  uint64_t base, size;
  unsigned faults;
} fmem;

static void *fm_access(void *ctx, unsigned lane, uint64_t ptr, uint64_t bytes, bool write) {
  fmem *m = ctx;
  (void)lane;
  assert_true(write);
  if (ptr < m->base || bytes > m->size || ptr - m->base > m->size - bytes) {
    m->faults++;
    return NULL;
  }
  return m->buf + (ptr - m->base);
}

/* Runs sincos or lgamma_r on cnt inputs (n components per lane, lane i's output at base + i*n*size),
 * returning results and the pointer outputs. */
static bool run_ptr(uint32_t op, fmt f, unsigned n, unsigned ptrbits, const uint64_t *x, uint64_t *res, uint64_t *out,
                    size_t cnt, uint64_t fault_at) {
  const unsigned es = FM[f].bytes, os = op == OCLSTD_sincos ? es : 4;
  const bi_type key = tf(8 * es, n);
  bi_type a[2] = {key, op == OCLSTD_sincos ? tp(ptrbits, BI_FLOAT, 8 * es, n) : tp(ptrbits, BI_INT, 32, n)};
  const bi_resolved r = resolve(op, key, a, 2);
  const size_t nl = (cnt + n - 1) / n;
  static uint8_t buf[LANES * 16 * 8];
  uint8_t *dst = calloc(nl, 16 * 8 + 3), *s0 = calloc(nl, 16 * 8 + 5), *s1 = calloc(nl, 8 + 3);
  uint16_t *lanes = calloc(nl, 2);
  assert_true(dst && s0 && s1 && lanes && nl <= LANES);
  fmem m = {.mem = {.ctx = NULL, .access = fm_access}, .buf = buf, .base = 0x10000, .size = sizeof buf};
  m.mem.ctx = &m;
  for (size_t l = 0; l < nl; l++) {
    lanes[l] = (uint16_t)(nl - 1 - l); /* reverse order */
    for (unsigned k = 0; k < n; k++) put(s0 + l * (16 * 8 + 5) + k * es, es, x[(l * n + k) % cnt]);
    const uint64_t p = (l == fault_at) ? 0x10 : m.base + l * n * os;
    put(s1 + l * 11, ptrbits / 8, p);
  }
  bi_call c = {.dst = dst,
               .dst_stride = 16 * 8 + 3,
               .src = {s0, s1},
               .src_stride = {16 * 8 + 5, 11},
               .lanes = lanes,
               .nlanes = (uint32_t)nl,
               .mem = &m.mem,
               .literal = r.literal};
  const bool ok = r.fn(&c);
  if (ok)
    for (size_t i = 0; i < cnt; i++) {
      res[i] = get(dst + (i / n) * (16 * 8 + 3) + (i % n) * es, es);
      out[i] = op == OCLSTD_lgamma_r ? (uint64_t)(int64_t)(int32_t)get(buf + i * os, 4) : get(buf + i * os, os);
    }
  else assert_int_equal(m.faults, 1);
  free(dst);
  free(s0);
  free(s1);
  free(lanes);
  return ok;
}

static int32_t ref_lgamma_sign(fmt f, uint64_t xb) {
  if (is_nan(f, xb)) return 0;
  const double x = val(f, xb);
  if (x == 0 || (x < 0 && floor(x) == x)) return 0; /* OpenCL §7.5; -inf counts as a negative integer */
  if (x == INFINITY) return 1;
  mpfr_t r, a;
  mpfr_inits2(53, r, a, (mpfr_ptr)0);
  mpfr_set_d(a, x, MPFR_RNDN);
  int s;
  mpfr_lgamma(r, &s, a, MPFR_RNDN);
  mpfr_clears(r, a, (mpfr_ptr)0);
  return s;
}

static void t_pointer_outputs(void **state) {
  (void)state;
  const mtest *tsin = find_t(OCLSTD_sin), *tcos = find_t(OCLSTD_cos), *tlg = find_t(OCLSTD_lgamma);
  const unsigned widths[] = {1, 2, 3, 4, 8, 16};
  unsigned checked = 0;
  for (fmt f = FH; f <= FD; f++)
    for (unsigned w = 0; w < 6; w++) {
      const unsigned n = widths[w];
      const size_t cnt = (size_t)n * (n == 16 ? 16 : 20);
      uint64_t x[LANES * 16], res[LANES * 16], out[LANES * 16];
      for (size_t i = 0; i < cnt; i++) {
        x[i] = i % 5 == 0 ? sample1(tlg, f) : i % 5 == 1 ? random_bits(f) : log_uniform(f, false);
        if (i % 17 == 3) x[i] = enc(f, -(double)(i % 7)); /* zeros and negative integers */
      }
      for (unsigned p = 0; p < 2; p++) {
        const unsigned pb = p ? 64 : 32;
        assert_true(run_ptr(OCLSTD_sincos, f, n, pb, x, res, out, cnt, UINT64_MAX));
        for (size_t i = 0; i < cnt; i++)
          if (res[i] != oracle(tsin, f, x[i], 0, 0) || out[i] != oracle(tcos, f, x[i], 0, 0))
            fail_msg("sincos %s x%u %#llx: got %#llx, %#llx want %#llx, %#llx", FM[f].name, n, (unsigned long long)x[i],
                     (unsigned long long)res[i], (unsigned long long)out[i],
                     (unsigned long long)oracle(tsin, f, x[i], 0, 0), (unsigned long long)oracle(tcos, f, x[i], 0, 0));
        assert_true(run_ptr(OCLSTD_lgamma_r, f, n, pb, x, res, out, cnt, UINT64_MAX));
        for (size_t i = 0; i < cnt; i++) {
          assert_true(res[i] == oracle(tlg, f, x[i], 0, 0));
          if ((int32_t)out[i] != ref_lgamma_sign(f, x[i]))
            fail_msg("lgamma_r sign %s %#llx: got %d want %d", FM[f].name, (unsigned long long)x[i], (int32_t)out[i],
                     ref_lgamma_sign(f, x[i]));
        }
        checked += 4 * (unsigned)cnt;
        /* an out-of-bounds output pointer in the third lane: the builtin reports the fault */
        assert_false(run_ptr(OCLSTD_sincos, f, n, pb, x, res, out, cnt, 2));
        assert_false(run_ptr(OCLSTD_lgamma_r, f, n, pb, x, res, out, cnt, 2));
      }
    }
  /* lgamma_r signs by hand: Gamma < 0 on (-1, 0) and (-3, -2), > 0 on (-2, -1); 0 at poles */
  const double xs[] = {-0.5, -1.5, -2.5, 0.5, 0.0, -0.0, -1, -4, INFINITY, -INFINITY, 3};
  const int32_t ss[] = {-1, 1, -1, 1, 0, 0, 0, 0, 1, 0, 1};
  for (fmt f = FH; f <= FD; f++) {
    uint64_t x[11], res[11], out[11];
    for (unsigned i = 0; i < 11; i++) x[i] = enc(f, xs[i]);
    assert_true(run_ptr(OCLSTD_lgamma_r, f, 1, 64, x, res, out, 11, UINT64_MAX));
    for (unsigned i = 0; i < 11; i++) assert_int_equal((int32_t)out[i], ss[i]);
  }
  print_message("%u pointer-output results checked\n", checked);
}

/* ==== resolution: every row, type and width; operand rules =========================================== */

static const uint32_t F1_OPS[] = {OCLSTD_acos,         OCLSTD_acosh,        OCLSTD_acospi,      OCLSTD_asin,
                                  OCLSTD_asinh,        OCLSTD_asinpi,       OCLSTD_atan,        OCLSTD_atanh,
                                  OCLSTD_atanpi,       OCLSTD_cbrt,         OCLSTD_cos,         OCLSTD_cosh,
                                  OCLSTD_cospi,        OCLSTD_erfc,         OCLSTD_erf,         OCLSTD_exp,
                                  OCLSTD_exp2,         OCLSTD_exp10,        OCLSTD_expm1,       OCLSTD_lgamma,
                                  OCLSTD_log,          OCLSTD_log2,         OCLSTD_log10,       OCLSTD_log1p,
                                  OCLSTD_logb,         OCLSTD_rsqrt,        OCLSTD_sin,         OCLSTD_sinh,
                                  OCLSTD_sinpi,        OCLSTD_tan,          OCLSTD_tanh,        OCLSTD_tanpi,
                                  OCLSTD_tgamma,       OCLSTD_native_cos,   OCLSTD_native_exp,  OCLSTD_native_exp2,
                                  OCLSTD_native_exp10, OCLSTD_native_log,   OCLSTD_native_log2, OCLSTD_native_log10,
                                  OCLSTD_native_recip, OCLSTD_native_rsqrt, OCLSTD_native_sin,  OCLSTD_native_sqrt,
                                  OCLSTD_native_tan};
static const uint32_t F2_OPS[] = {OCLSTD_atan2, OCLSTD_atan2pi,       OCLSTD_hypot,      OCLSTD_pow,
                                  OCLSTD_powr,  OCLSTD_native_divide, OCLSTD_native_powr};
static const uint32_t HALF1_OPS[] = {OCLSTD_half_cos,   OCLSTD_half_exp,  OCLSTD_half_exp2,  OCLSTD_half_exp10,
                                     OCLSTD_half_log,   OCLSTD_half_log2, OCLSTD_half_log10, OCLSTD_half_recip,
                                     OCLSTD_half_rsqrt, OCLSTD_half_sin,  OCLSTD_half_sqrt,  OCLSTD_half_tan};
static const uint32_t HALF2_OPS[] = {OCLSTD_half_divide, OCLSTD_half_powr};

static void t_resolve(void **state) {
  (void)state;
  const unsigned widths[] = {1, 2, 3, 4, 8, 16};
  unsigned ok = 0;
  for (unsigned w = 0; w < 6; w++)
    for (unsigned b = 16; b <= 64; b *= 2) {
      const bi_type k = tf(b, widths[w]);
      const bi_type a2[2] = {k, k}, ai[2] = {k, ti(widths[w])};
      for (size_t i = 0; i < sizeof F1_OPS / sizeof F1_OPS[0]; i++, ok++) (void)resolve(F1_OPS[i], k, a2, 1);
      for (size_t i = 0; i < sizeof F2_OPS / sizeof F2_OPS[0]; i++, ok++) (void)resolve(F2_OPS[i], k, a2, 2);
      (void)resolve(OCLSTD_pown, k, ai, 2);
      (void)resolve(OCLSTD_rootn, k, ai, 2);
      (void)resolve(OCLSTD_ilogb, ti(widths[w]), a2, 1);
      const bi_type ps[2] = {k, tp(64, BI_FLOAT, b, widths[w])}, pi[2] = {k, tp(32, BI_INT, 32, widths[w])};
      const bi_type pv[2] = {k, tp(64, BI_VOID, 0, 0)};
      (void)resolve(OCLSTD_sincos, k, ps, 2);
      (void)resolve(OCLSTD_sincos, k, pv, 2);
      (void)resolve(OCLSTD_lgamma_r, k, pi, 2);
      (void)resolve(OCLSTD_lgamma_r, k, pv, 2);
      ok += 7;
      for (size_t i = 0; i < sizeof HALF1_OPS / sizeof HALF1_OPS[0]; i++) {
        if (b == 32) {
          (void)resolve(HALF1_OPS[i], k, a2, 1);
          ok++;
        } else {
          char msg[128], tn[16] = "";
          if (widths[w] > 1) snprintf(tn, sizeof tn, "%u", widths[w]);
          snprintf(msg, sizeof msg, "OpenCL.std `%s` is not implemented for %s%s", spv_oclstd_name(HALF1_OPS[i]),
                   b == 16 ? "half" : "double", tn);
          expect_error(HALF1_OPS[i], k, a2, 1, msg);
        }
      }
      for (size_t i = 0; i < sizeof HALF2_OPS / sizeof HALF2_OPS[0]; i++)
        if (b == 32) (void)resolve(HALF2_OPS[i], k, a2, 2);
    }
  /* operand rules of the new signature classes */
  const bi_type f4 = tf(32, 4), d3 = tf(64, 3);
  bi_type a[2] = {f4, f4};
  expect_error(OCLSTD_pown, f4, a, 2, "OpenCL.std `pown`: operand 2 has type float4, expected int4");
  a[1] = ti(3);
  expect_error(OCLSTD_rootn, f4, a, 2, "OpenCL.std `rootn`: operand 2 has type int3, expected int4");
  a[0] = d3;
  expect_error(OCLSTD_ilogb, ti(4), a, 1, "OpenCL.std `ilogb`: the result type is int4, expected int3");
  a[0] = f4;
  a[1] = tp(64, BI_FLOAT, 32, 1);
  expect_error(OCLSTD_sincos, f4, a, 2,
               "OpenCL.std `sincos`: operand 2 has type pointer to float, expected a pointer to float4");
  a[1] = tp(64, BI_INT, 32, 4);
  expect_error(OCLSTD_sincos, f4, a, 2,
               "OpenCL.std `sincos`: operand 2 has type pointer to int4, expected a pointer to float4");
  a[1] = tp(64, BI_FLOAT, 32, 4);
  expect_error(OCLSTD_lgamma_r, f4, a, 2,
               "OpenCL.std `lgamma_r`: operand 2 has type pointer to float4, expected a pointer to int4");
  a[1] = f4;
  expect_error(OCLSTD_atan2, f4, a, 1, "OpenCL.std `atan2` takes 2 operands, not 1");
  const bi_type i4[1] = {ti(4)};
  expect_error(OCLSTD_sin, ti(4), i4, 1, "OpenCL.std `sin` is not implemented for int4");
  print_message("%u resolutions\n", ok);
}

/* ==== the half_* and native_* families are the correctly rounded functions ============================ */

static const struct {
  uint32_t op, base;
  unsigned types;
} ALIASES[] = {
  {OCLSTD_half_cos, OCLSTD_cos, 2},          {OCLSTD_half_divide, OCLSTD_native_divide, 2},
  {OCLSTD_half_exp, OCLSTD_exp, 2},          {OCLSTD_half_exp2, OCLSTD_exp2, 2},
  {OCLSTD_half_exp10, OCLSTD_exp10, 2},      {OCLSTD_half_log, OCLSTD_log, 2},
  {OCLSTD_half_log2, OCLSTD_log2, 2},        {OCLSTD_half_log10, OCLSTD_log10, 2},
  {OCLSTD_half_powr, OCLSTD_powr, 2},        {OCLSTD_half_recip, OCLSTD_native_recip, 2},
  {OCLSTD_half_rsqrt, OCLSTD_rsqrt, 2},      {OCLSTD_half_sin, OCLSTD_sin, 2},
  {OCLSTD_half_sqrt, OCLSTD_native_sqrt, 2}, {OCLSTD_half_tan, OCLSTD_tan, 2},
  {OCLSTD_native_cos, OCLSTD_cos, ALLT},     {OCLSTD_native_exp, OCLSTD_exp, ALLT},
  {OCLSTD_native_exp2, OCLSTD_exp2, ALLT},   {OCLSTD_native_exp10, OCLSTD_exp10, ALLT},
  {OCLSTD_native_log, OCLSTD_log, ALLT},     {OCLSTD_native_log2, OCLSTD_log2, ALLT},
  {OCLSTD_native_log10, OCLSTD_log10, ALLT}, {OCLSTD_native_powr, OCLSTD_powr, ALLT},
  {OCLSTD_native_rsqrt, OCLSTD_rsqrt, ALLT}, {OCLSTD_native_sin, OCLSTD_sin, ALLT},
  {OCLSTD_native_tan, OCLSTD_tan, ALLT},
};

static void t_aliases(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof ALIASES / sizeof ALIASES[0]; i++) {
    const mtest *t = find_t(ALIASES[i].base);
    assert_non_null(t);
    for (fmt f = FH; f <= FD; f++) {
      if (!(ALIASES[i].types & (1u << f))) continue;
      cases c = {0};
      const size_t cnt = f == FD ? 1000 : 5000;
      if (t->k == K1) {
        for (size_t j = 0; j < cnt; j++) cases_add(&c, sample1(t, f), 0);
      } else {
        gen2(t, f, cnt, &c);
      }
      check_cases(ALIASES[i].op, t, f, (unsigned[]){1, 3, 4, 16}[rnd() % 4], &c);
      cases_free(&c);
    }
  }
}

/* ==== every vector width for representative functions of each lane-loop shape ========================== */

static void t_widths(void **state) {
  (void)state;
  const uint32_t ops[] = {OCLSTD_sin, OCLSTD_exp, OCLSTD_pow, OCLSTD_pown, OCLSTD_rootn, OCLSTD_atan2pi};
  const unsigned widths[] = {1, 2, 3, 4, 8, 16};
  for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
    const mtest *t = find_t(ops[o]);
    for (fmt f = FH; f <= FD; f++)
      for (unsigned w = 0; w < 6; w++) {
        cases c = {0};
        if (t->k == K1) {
          for (size_t i = 0; i < 1000; i++) cases_add(&c, sample1(t, f), 0);
        } else if (t->k == K2) {
          gen2(t, f, 800, &c);
        } else {
          gen_int(t, f, 800, &c);
        }
        check_cases(t->op, t, f, widths[w], &c);
        cases_free(&c);
      }
  }
}

/* ==== worker threads ===================================================================================
 * The executor runs work-groups on threads: the builtins (and their MPFR fallback, with its
 * exponent range and constant caches) must give the same results concurrently, and a thread's MPFR
 * caches must be freed when it exits (the leak checker of the sanitizer build would report them). */

#define TN 4000
typedef struct tjob {
  bi_resolved r;
  double x[TN], out[TN];
} tjob;

static void *thread_main(void *p) {
  tjob *j = p;
  uint16_t lanes[LANES];
  for (unsigned l = 0; l < LANES; l++) lanes[l] = (uint16_t)l;
  for (size_t b = 0; b < TN; b += LANES) {
    bi_call c = {.dst = (uint8_t *)(j->out + b),
                 .dst_stride = 8,
                 .src = {(const uint8_t *)(j->x + b)},
                 .src_stride = {8},
                 .lanes = lanes,
                 .nlanes = LANES,
                 .literal = j->r.literal};
    if (!j->r.fn(&c)) return p;
  }
  return NULL;
}

static void t_threads(void **state) {
  (void)state;
  static tjob jobs[3];
  const bi_type d = tf(64, 1);
  const uint32_t ops[3] = {OCLSTD_sin, OCLSTD_exp, OCLSTD_lgamma};
  pthread_t th[3];
  for (unsigned k = 0; k < 3; k++) {
    jobs[k].r = resolve(ops[k], d, &d, 1);
    for (size_t i = 0; i < TN; i++) jobs[k].x[i] = (2 * unif() - 1) * 50; /* ~2% take the fallback */
    assert_int_equal(pthread_create(&th[k], NULL, thread_main, &jobs[k]), 0);
  }
  for (unsigned k = 0; k < 3; k++) {
    void *ret = &jobs[k];
    assert_int_equal(pthread_join(th[k], &ret), 0);
    assert_null(ret);
    const mtest *t = find_t(ops[k]);
    for (size_t i = 0; i < TN; i++)
      if (dbits(jobs[k].out[i]) != oracle(t, FD, dbits(jobs[k].x[i]), 0, 0))
        fail_msg("%s double in a thread, x=%a: got %a", spv_oclstd_name(ops[k]), jobs[k].x[i], jobs[k].out[i]);
  }
}

/* ==== main ============================================================================================ */

static int teardown(void **state) {
  (void)state;
  print_message("%llu results compared with the MPFR oracle\n", total_checked);
  mpfr_free_cache();
  return 0;
}

int main(void) {
  struct CMUnitTest tests[NT + 8];
  size_t nt = 0;
  tests[nt++] = (struct CMUnitTest)cmocka_unit_test(t_resolve);
  tests[nt++] = (struct CMUnitTest)cmocka_unit_test(t_hand);
  tests[nt++] = (struct CMUnitTest)cmocka_unit_test(t_ilogb);
  tests[nt++] = (struct CMUnitTest)cmocka_unit_test(t_pointer_outputs);
  tests[nt++] = (struct CMUnitTest)cmocka_unit_test(t_aliases);
  tests[nt++] = (struct CMUnitTest)cmocka_unit_test(t_threads);
  tests[nt++] = (struct CMUnitTest)cmocka_unit_test(t_widths);
  for (size_t i = 0; i < NT; i++) {
    struct CMUnitTest u = {.name = spv_oclstd_name(T[i].op),
                           .test_func = T[i].k == K1   ? t_unary
                                        : T[i].k == K2 ? t_binary
                                                       : t_intarg,
                           .initial_state = (void *)&T[i]};
    tests[nt++] = u;
  }
  return _cmocka_run_group_tests("test_math", tests, nt, NULL, teardown);
}
