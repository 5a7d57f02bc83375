/*
 * math_soak.c — long-running verification of spvi's correctly rounded math builtins (`make soak`):
 * many more inputs than the unit test (tests/unit/test_math.c), compared bit for bit with an MPFR
 * oracle written here (MPFR at the format's precision and exponent range + mpfr_subnormalize; NaN
 * results: the first NaN operand quieted, else the canonical quiet NaN), and a check of the error
 * bounds the fast paths assume for the host library (bi_math.h): the relative error of glibc's
 * double function (half/float targets) and long double function (double targets) against MPFR at
 * 160 bits, reported as the largest error seen divided by the assumed bound (must stay below 1).
 *
 * Usage: math_soak [-n N] [-d N] [-j JOBS] [func ...]
 *   -n N  float inputs per function (default: $SOAK_N, else 10^8); two-operand half functions
 *         get N/10 (one-operand ones all 65536 inputs), double gets N/100 (or -d N);
 *   -j J  run the functions in J processes (fork);  func: restrict to these OpenCL.std names.
 * Inputs mix uniformly random bit patterns, log-uniform magnitudes and the function's domain
 * (integers and half-integers included), as the unit test does, from a seed per function.
 * Exit status: 0 if every result matched and every bound held.
 */
#include "bi.h"
#include "bi_math.h"
#include "gen_spv_tables.h"

#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef enum fmt { FH, FF, FD } fmt;
static const struct {
  unsigned bytes;
  mpfr_prec_t prec;
  mpfr_exp_t emin, emax;
  const char *name;
} FM[] = {{2, 11, -23, 16, "half"}, {4, 24, -148, 128, "float"}, {8, 53, -1073, 1024, "double"}};

/* ---- patterns --------------------------------------------------------------------------------- */

static bool is_nan(fmt f, uint64_t b) {
  return f == FH   ? (b & 0x7fff) > 0x7c00
         : f == FF ? (b & 0x7fffffff) > 0x7f800000
                   : (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}
static uint64_t quiet(fmt f, uint64_t b) { return b | (f == FH ? 0x200 : f == FF ? 0x400000 : 0x8000000000000ull); }
static uint64_t canon(fmt f) { return f == FH ? 0x7e00 : f == FF ? 0x7fc00000 : 0x7ff8000000000000ull; }

static double val(fmt f, uint64_t b) {
  if (f == FD) {
    double d;
    memcpy(&d, &b, 8);
    return d;
  }
  if (f == FF) {
    float x;
    uint32_t w = (uint32_t)b;
    memcpy(&x, &w, 4);
    return x;
  }
  const int e = (b >> 10) & 0x1f, m = b & 0x3ff;
  const double v = e == 0x1f ? INFINITY : e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
  return (b & 0x8000) ? -v : v;
}
static uint64_t enc(fmt f, double v) {
  if (f == FD) {
    uint64_t b;
    memcpy(&b, &v, 8);
    return b;
  }
  if (f == FF) {
    float x = (float)v;
    uint32_t b;
    memcpy(&b, &x, 4);
    return b;
  }
  const uint64_t s = signbit(v) ? 0x8000 : 0;
  const double a = fabs(v);
  if (isinf(a)) return s | 0x7c00;
  if (a < 0x1p-14) return s | (uint64_t)(a * 0x1p24);
  int e;
  const double m = frexp(a, &e);
  return s | (uint64_t)(e + 14) << 10 | ((uint64_t)(m * 2048) - 1024);
}
/* an arbitrary double rounded (toward zero for half: only input selection) into f */
static uint64_t to_fmt(fmt f, double v) {
  if (f != FH) return enc(f, v);
  if (isnan(v)) return 0x7e00;
  const double a = fabs(v);
  if (a > 65504) return enc(FH, copysign(INFINITY, v));
  const double q = a < 0x1p-14 ? 0x1p-24 : ldexp(1, (int)floor(log2(a)) - 10);
  return enc(FH, copysign(floor(a / q) * q, v));
}

/* ---- the oracle ----------------------------------------------------------------------------------- */

typedef int (*mp1)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
typedef int (*mp2)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
typedef int (*mpi)(mpfr_ptr, mpfr_srcptr, long, mpfr_rnd_t);

static int o_lgamma(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m) {
  int s;
  return mpfr_lgamma(r, &s, x, m);
}
static int o_recip(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m) { return mpfr_ui_div(r, 1, x, m); }
static int o_rsqrt(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m) { /* rsqrt(-0) = -inf (1/sqrt(-0)) */
  if (mpfr_zero_p(x) && mpfr_signbit(x)) {
    mpfr_set_inf(r, -1);
    return 0;
  }
  return mpfr_rec_sqrt(r, x, m);
}
static int o_powr(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t m) { /* powr(x, NaN) = NaN */
  if (mpfr_nan_p(x) || mpfr_nan_p(y)) {
    mpfr_set_nan(r);
    return 0;
  }
  return mpfr_powr(r, x, y, m);
}

typedef double (*dfn)(double);
typedef long double (*lfn)(long double);
typedef struct soakfn {
  uint32_t op;
  mp1 m1;
  mp2 m2;
  mpi mi;
  double lo, hi; /* uniform-sampling domain */
  dfn d;         /* the glibc primitive of the fast path (bound check), or NULL */
  lfn l;
  double bound_d; /* assumed relative bound of d (rel / 2 of bi_math.h) */
  long double bound_l;
} soakfn;

#define DB 0x1p-41
#define LB 0x1p-60L
#define LB3 0x1p-58L
static const soakfn S[] = {
  {OCLSTD_acos, mpfr_acos, 0, 0, -1, 1, acos, acosl, DB, LB},
  {OCLSTD_acosh, mpfr_acosh, 0, 0, 1, 20, acosh, acoshl, DB, LB3},
  {OCLSTD_acospi, mpfr_acospi, 0, 0, -1, 1, 0, 0, 0, 0},
  {OCLSTD_asin, mpfr_asin, 0, 0, -1, 1, asin, asinl, DB, LB},
  {OCLSTD_asinh, mpfr_asinh, 0, 0, -20, 20, asinh, asinhl, DB, LB3},
  {OCLSTD_asinpi, mpfr_asinpi, 0, 0, -1, 1, 0, 0, 0, 0},
  {OCLSTD_atan, mpfr_atan, 0, 0, -10, 10, atan, atanl, DB, LB},
  {OCLSTD_atanh, mpfr_atanh, 0, 0, -1, 1, atanh, atanhl, DB, LB3},
  {OCLSTD_atanpi, mpfr_atanpi, 0, 0, -10, 10, 0, 0, 0, 0},
  {OCLSTD_cbrt, mpfr_cbrt, 0, 0, -100, 100, cbrt, cbrtl, DB, LB},
  {OCLSTD_cos, mpfr_cos, 0, 0, -10, 10, cos, cosl, DB, LB},
  {OCLSTD_cosh, mpfr_cosh, 0, 0, -20, 20, cosh, coshl, DB, LB3},
  {OCLSTD_cospi, mpfr_cospi, 0, 0, -4, 4, 0, 0, 0, 0},
  {OCLSTD_erfc, mpfr_erfc, 0, 0, -4, 12, erfc, erfcl, DB, LB3},
  {OCLSTD_erf, mpfr_erf, 0, 0, -5, 5, erf, erfl, DB, LB},
  {OCLSTD_exp, mpfr_exp, 0, 0, -110, 90, exp, expl, DB, LB},
  {OCLSTD_exp2, mpfr_exp2, 0, 0, -150, 128, exp2, exp2l, DB, LB},
  {OCLSTD_exp10, mpfr_exp10, 0, 0, -45, 39, 0, 0, 0, 0},
  {OCLSTD_expm1, mpfr_expm1, 0, 0, -20, 90, expm1, expm1l, DB, LB3},
  {OCLSTD_lgamma, o_lgamma, 0, 0, -30, 40, lgamma, lgammal, 0x1p-33, LB3},
  {OCLSTD_log, mpfr_log, 0, 0, 0, 100, log, logl, DB, LB},
  {OCLSTD_log2, mpfr_log2, 0, 0, 0, 100, log2, log2l, DB, LB},
  {OCLSTD_log10, mpfr_log10, 0, 0, 0, 100, log10, log10l, DB, LB},
  {OCLSTD_log1p, mpfr_log1p, 0, 0, -1, 100, log1p, log1pl, DB, LB},
  {OCLSTD_rsqrt, o_rsqrt, 0, 0, 0, 100, 0, 0, 0, 0},
  {OCLSTD_sin, mpfr_sin, 0, 0, -10, 10, sin, sinl, DB, LB},
  {OCLSTD_sinh, mpfr_sinh, 0, 0, -20, 20, sinh, sinhl, DB, LB3},
  {OCLSTD_sinpi, mpfr_sinpi, 0, 0, -4, 4, 0, 0, 0, 0},
  {OCLSTD_tan, mpfr_tan, 0, 0, -10, 10, tan, tanl, DB, LB},
  {OCLSTD_tanh, mpfr_tanh, 0, 0, -10, 10, tanh, tanhl, DB, LB3},
  {OCLSTD_tanpi, mpfr_tanpi, 0, 0, -4, 4, 0, 0, 0, 0},
  {OCLSTD_tgamma, mpfr_gamma, 0, 0, -50, 40, tgamma, tgammal, 0x1p-33, LB3},
  {OCLSTD_native_recip, o_recip, 0, 0, -100, 100, 0, 0, 0, 0},
  {OCLSTD_native_sqrt, mpfr_sqrt, 0, 0, 0, 100, 0, 0, 0, 0},
  {OCLSTD_atan2, 0, mpfr_atan2, 0, -10, 10, 0, 0, 0, 0},
  {OCLSTD_atan2pi, 0, mpfr_atan2pi, 0, -10, 10, 0, 0, 0, 0},
  {OCLSTD_hypot, 0, mpfr_hypot, 0, -100, 100, 0, 0, 0, 0},
  {OCLSTD_pow, 0, mpfr_pow, 0, -10, 10, 0, 0, 0, 0},
  {OCLSTD_powr, 0, o_powr, 0, 0, 10, 0, 0, 0, 0},
  {OCLSTD_native_divide, 0, mpfr_div, 0, -100, 100, 0, 0, 0, 0},
  {OCLSTD_pown, 0, 0, mpfr_pow_si, -10, 10, 0, 0, 0, 0},
  {OCLSTD_rootn, 0, 0, mpfr_rootn_si, -100, 100, 0, 0, 0, 0},
};
#define NS (sizeof S / sizeof S[0])

static uint64_t oracle(const soakfn *t, fmt f, uint64_t xb, uint64_t yb) {
  mpfr_t r, x, y;
  mpfr_set_emin(mpfr_get_emin_min());
  mpfr_set_emax(mpfr_get_emax_max());
  mpfr_init2(r, FM[f].prec);
  mpfr_inits2(53, x, y, (mpfr_ptr)0);
  if (is_nan(f, xb)) mpfr_set_nan(x);
  else mpfr_set_d(x, val(f, xb), MPFR_RNDN);
  if (t->m2) {
    if (is_nan(f, yb)) mpfr_set_nan(y);
    else mpfr_set_d(y, val(f, yb), MPFR_RNDN);
  }
  mpfr_set_emin(FM[f].emin);
  mpfr_set_emax(FM[f].emax);
  int i = t->m1   ? t->m1(r, x, MPFR_RNDN)
          : t->m2 ? t->m2(r, x, y, MPFR_RNDN)
                  : t->mi(r, x, (long)(int32_t)yb, MPFR_RNDN);
  i = mpfr_subnormalize(r, i, MPFR_RNDN);
  const uint64_t out = mpfr_nan_p(r) ? (is_nan(f, xb)            ? quiet(f, xb)
                                        : t->m2 && is_nan(f, yb) ? quiet(f, yb)
                                                                 : canon(f))
                                     : enc(f, mpfr_get_d(r, MPFR_RNDN));
  mpfr_set_emin(mpfr_get_emin_min());
  mpfr_set_emax(mpfr_get_emax_max());
  mpfr_clears(r, x, y, (mpfr_ptr)0);
  return out;
}

/* ---- sampling ------------------------------------------------------------------------------------ */

static uint64_t rs;
static uint64_t rnd(void) {
  rs ^= rs >> 12;
  rs ^= rs << 25;
  rs ^= rs >> 27;
  return rs * 0x2545F4914F6CDD1Dull;
}
static double unif(void) { return (double)(rnd() >> 11) * 0x1p-53; }

static uint64_t sample(const soakfn *t, fmt f, bool second) {
  const double top = f == FH ? 16 : f == FF ? 128 : 1024, bot = f == FH ? -24 : f == FF ? -149 : -1074;
  const double mx = f == FH ? 65504 : f == FF ? 0x1.fffffep127 : 0x1.fffffffffffffp1023;
  const unsigned s = rnd() % 16;
  if (s < 4) {
    const uint64_t r = rnd();
    return f == FH ? (r & 0xffff) : f == FF ? (r & 0xffffffff) : r;
  }
  if (s < 8) {
    const double v = fmin(exp2(bot + unif() * (top - bot)), mx);
    return to_fmt(f, (t->lo >= 0 && !second) || !(rnd() & 1) ? v : -v);
  }
  if (s < 14) {
    double v = t->lo + unif() * (t->hi - t->lo);
    if (rnd() & 1) v = copysign(fabs(v) * exp2(-30 * unif()), v);
    return to_fmt(f, v < t->lo && !second ? t->lo : v);
  }
  double v = floor(unif() * (f == FH ? 2048 : 1e7)) * (rnd() & 1 ? 0.5 : 1);
  return to_fmt(f, (rnd() & 1) ? -v : v);
}

/* the second operand: pow-like functions get an exponent that keeps the result in range */
static uint64_t sample_y(const soakfn *t, fmt f, uint64_t xb) {
  if (t->mi) {
    if (rnd() % 4 == 0) return (uint32_t)rnd();
    if (t->op == OCLSTD_rootn) return (uint32_t)((int32_t)(rnd() % 41) - 20);
    const double range = f == FH ? 26 : f == FF ? 160 : 1100, l = fabs(log2(fabs(val(f, xb))));
    return (uint32_t)(int32_t)((2 * unif() - 1) * fmin(range / (l > 1e-9 ? l : 1e-9), 1e9));
  }
  if ((t->op == OCLSTD_pow || t->op == OCLSTD_powr) && rnd() % 2 && !is_nan(f, xb)) {
    const double range = f == FH ? 26 : f == FF ? 160 : 1100, l = fabs(log2(fabs(val(f, xb))));
    double y = (2 * unif() - 1) * range / (l > 0x1p-20 ? l : 0x1p-20);
    if (rnd() & 1) y = round(y);
    return to_fmt(f, y);
  }
  return sample(t, f, true);
}

/* ---- one function ------------------------------------------------------------------------------- */

#define LANES 32

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void put(uint8_t *p, unsigned bytes, uint64_t v) {
  if (bytes == 2) {
    const uint16_t w = (uint16_t)v;
    memcpy(p, &w, 2);
  } else if (bytes == 4) {
    const uint32_t w = (uint32_t)v;
    memcpy(p, &w, 4);
  } else memcpy(p, &v, 8);
}
static uint64_t get(const uint8_t *p, unsigned bytes) {
  if (bytes == 2) {
    uint16_t w;
    memcpy(&w, p, 2);
    return w;
  }
  if (bytes == 4) {
    uint32_t w;
    memcpy(&w, p, 4);
    return w;
  }
  uint64_t w;
  memcpy(&w, p, 8);
  return w;
}

/* returns the number of mismatches; one-operand half functions: all 65536 inputs */
static unsigned long long soak(const soakfn *t, fmt f, unsigned long long count) {
  const bool exhaustive = f == FH && t->m1;
  if (exhaustive) count = 65536;
  const unsigned es = FM[f].bytes;
  const bi_type ty = {.kind = BI_FLOAT, .bits = (uint8_t)(8 * es), .ncomp = 1};
  const bi_type ity = {.kind = BI_INT, .bits = 32, .ncomp = 1};
  const bi_type args[2] = {ty, t->mi ? ity : ty};
  bi_resolved r;
  char err[200];
  if (!bi_resolve(t->op, &ty, args, t->m1 ? 1 : 2, 0, &r, err, sizeof err)) {
    printf("%s\n", err);
    return 1;
  }
  rs = 0x9E3779B97F4A7C15ull ^ ((uint64_t)t->op << 32) ^ (uint64_t)f;
  uint8_t xs[LANES * 8], ys[LANES * 8], out[LANES * 8];
  uint64_t xb[LANES], yb[LANES];
  uint16_t lanes[LANES];
  for (unsigned l = 0; l < LANES; l++) lanes[l] = (uint16_t)l;
  const unsigned long long fb0 = bi_math_fallbacks();
  unsigned long long bad = 0;
  const double t0 = now();
  for (unsigned long long done = 0; done < count; done += LANES) {
    for (unsigned l = 0; l < LANES; l++) {
      xb[l] = exhaustive ? (done + l) & 0xffff : sample(t, f, false);
      yb[l] = t->m1 ? 0 : sample_y(t, f, xb[l]);
      put(xs + l * es, es, xb[l]);
      put(ys + l * (t->mi ? 4 : es), t->mi ? 4 : es, yb[l]);
    }
    bi_call c;
    memset(&c, 0, sizeof c);
    c.dst = out;
    c.dst_stride = es;
    c.src[0] = xs;
    c.src[1] = ys;
    c.src_stride[0] = es;
    c.src_stride[1] = t->mi ? 4 : es;
    c.lanes = lanes;
    c.nlanes = LANES;
    c.literal = r.literal;
    r.fn(&c);
    for (unsigned l = 0; l < LANES; l++) {
      const uint64_t got = get(out + l * es, es);
      const uint64_t want = oracle(t, f, xb[l], yb[l]);
      if (got != want && bad++ < 10)
        printf("MISMATCH %s %s x=%#llx y=%#llx: got %#llx want %#llx\n", spv_oclstd_name(t->op), FM[f].name,
               (unsigned long long)xb[l], (unsigned long long)yb[l], (unsigned long long)got, (unsigned long long)want);
    }
  }
  const double dt = now() - t0;
  printf("%-13s %-6s %12llu inputs  %llu mismatches  fallback rate %.2e  %.0f s\n", spv_oclstd_name(t->op), FM[f].name,
         count, bad, (double)(bi_math_fallbacks() - fb0) / (double)count, dt);
  fflush(stdout);
  return bad;
}

/* Largest relative error of the host primitives against MPFR (160 bits), as a fraction of the
 * bound bi_math.h assumes; inputs sampled as above (floats for d, doubles for l). */
static int check_bounds(const soakfn *t, unsigned long long count) {
  if (!t->d) return 0;
  mpfr_t x, r, e;
  mpfr_inits2(160, x, r, e, (mpfr_ptr)0);
  double worst_d = 0, worst_l = 0, at_d = 0, at_l = 0;
  for (fmt f = FF; f <= FD; f++) {
    rs = 0x243F6A8885A308D3ull ^ t->op ^ ((uint64_t)f << 40);
    const unsigned long long n = f == FF ? count : count / 10;
    for (unsigned long long i = 0; i < n; i++) {
      const uint64_t b = sample(t, f, false);
      if (is_nan(f, b)) continue;
      const double v = val(f, b);
      if (isinf(v)) continue;
      mpfr_set_d(x, v, MPFR_RNDN);
      t->m1(r, x, MPFR_RNDN);
      if (!mpfr_number_p(r) || mpfr_zero_p(r)) continue;
      if (f == FF) {
        const double a = t->d(v);
        if (!isfinite(a) || fabs(a) < 0x1p-1021) continue; /* overflow; absolute regime */
        mpfr_set_d(e, a, MPFR_RNDN);
      } else {
        const long double a = t->l(v);
        if (!isfinite(a) || fabsl(a) < 0x1p-16300L) continue;
        mpfr_set_ld(e, a, MPFR_RNDN);
      }
      mpfr_sub(e, e, r, MPFR_RNDN);
      mpfr_div(e, e, r, MPFR_RNDN);
      const double q = fabs(mpfr_get_d(e, MPFR_RNDN)) / (f == FF ? t->bound_d : (double)t->bound_l);
      if (f == FF && q > worst_d) {
        worst_d = q;
        at_d = v;
      }
      if (f == FD && q > worst_l) {
        worst_l = q;
        at_l = v;
      }
    }
  }
  mpfr_clears(x, r, e, (mpfr_ptr)0);
  printf("%-13s bounds: double fn max error %.2e of the bound (at %a), long double %.2e (at %a)%s\n",
         spv_oclstd_name(t->op), worst_d, at_d, worst_l, at_l, worst_d < 1 && worst_l < 1 ? "" : "  EXCEEDED");
  fflush(stdout);
  return worst_d < 1 && worst_l < 1 ? 0 : 1;
}

static int run_fn(const soakfn *t, unsigned long long n, unsigned long long nd) {
  int fail = 0;
  fail |= soak(t, FF, n) != 0;
  fail |= soak(t, FH, n / 10 ? n / 10 : 1) != 0;
  fail |= soak(t, FD, nd ? nd : 1) != 0;
  fail |= check_bounds(t, n / 100 ? n / 100 : 1);
  mpfr_free_cache();
  return fail;
}

int main(int argc, char **argv) {
  const char *env = getenv("SOAK_N");
  unsigned long long n = env ? strtoull(env, NULL, 0) : 100000000ull, nd = 0;
  unsigned jobs = 1;
  const char *only[64];
  unsigned nonly = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) n = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "-d") && i + 1 < argc) nd = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "-j") && i + 1 < argc) jobs = (unsigned)atoi(argv[++i]);
    else if (nonly < 64) only[nonly++] = argv[i];
  }
  if (!nd) nd = n / 100;
  if (jobs < 1) jobs = 1;
  printf("math_soak: %llu float, %llu half, %llu double inputs per function, %u job(s)\n", n, n / 10, nd, jobs);
  fflush(stdout);
  int fail = 0;
  for (unsigned j = 0; j < jobs; j++) {
    const pid_t pid = jobs > 1 ? fork() : 0;
    if (pid < 0) return 2;
    if (pid > 0) continue;
    int f = 0;
    for (unsigned i = j; i < NS; i += jobs) {
      bool want = nonly == 0;
      for (unsigned k = 0; k < nonly; k++) want |= !strcmp(only[k], spv_oclstd_name(S[i].op));
      if (want) f |= run_fn(&S[i], n, nd);
    }
    if (jobs == 1) return f;
    _exit(f);
  }
  for (unsigned j = 0; j < jobs; j++) {
    int st = 0;
    if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) fail = 1;
  }
  printf("math_soak: %s\n", fail ? "FAILED" : "all results correctly rounded, all bounds held");
  return fail;
}
