/*
 * bi_common_mp.c — exact-arithmetic helpers shared by the exact, common and geometric builtins
 * (bi_common_mp.h): composition of m * 2^e with one rounding to nearest even, certified rounding of
 * enclosures, and rounding of MPFR values to the binary16/32/64 formats with gradual underflow.
 *
 * Nothing here depends on the host's libm: values are taken apart and put together from their bit
 * patterns, and the only floating-point operations are IEEE basic operations and conversions (exact
 * or correctly rounded under spvi's default RN mode, see bi_fp.c).
 */
#include "bi_common_mp.h"
#include "bi_half.h"

#include <math.h>

const bi_fmt_info bi_fmts[3] = {
  [BI_FMT_H] = {11, -24, 16},     /* binary16: 11 bits, smallest subnormal 2^-24, max < 2^16 */
  [BI_FMT_F] = {24, -149, 128},   /* binary32 */
  [BI_FMT_D] = {53, -1074, 1024}, /* binary64 */
};

double bi_pow2(int u) {
  if (u >= -1022) return bi_dfrom((uint64_t)(u + 1023) << 52);
  return bi_dfrom(1ull << (u + 1074)); /* a subnormal power of two */
}

void bi_decompose(double x, uint64_t *m, int *e) {
  const uint64_t b = bi_dbits(x) & 0x7fffffffffffffffull;
  const int be = (int)(b >> 52);
  const uint64_t frac = b & 0xfffffffffffffull;
  if (be == 0) {
    *m = frac;
    *e = -1074;
  } else {
    *m = frac | (1ull << 52);
    *e = be - 1075;
  }
}


/* The value is m * 2^e, in binade E = e + bitlen(m) - 1. The result's quantum is 2^u with
 * u = max(E - prec + 1, emin_ulp) (gradual underflow fixes the quantum below the normal range);
 * m is cut at that quantum and rounded to nearest, ties to the even multiple. A carry may reach the
 * next binade, which is still exact (M = 2^prec) or overflows. */
double bi_compose(bool neg, uint64_t m, int64_t e, bi_fmt f) {
  const bi_fmt_info *fi = &bi_fmts[f];
  if (m == 0) return neg ? -0.0 : 0.0;
  const int64_t E = e + bitlen(m) - 1;
  if (E >= fi->emax) return neg ? -INFINITY : INFINITY;
  int64_t u = E - (fi->prec - 1);
  if (u < fi->emin_ulp) u = fi->emin_ulp;
  const int64_t sh = u - e;
  uint64_t M;
  if (sh <= 0) {
    M = m << -sh; /* exact: at most prec bits (u <= e here) */
  } else if (sh > 64) {
    M = 0; /* m < 2^64 < half a quantum */
  } else {
    const uint64_t rem = sh == 64 ? m : m & ((1ull << sh) - 1);
    const uint64_t half = 1ull << (sh - 1);
    M = sh == 64 ? 0 : m >> sh;
    if (rem > half || (rem == half && (M & 1))) M++;
  }
  double r = (double)M * bi_pow2((int)u); /* exact: a value of the format, or 2^emax */
  if (f != BI_FMT_D && r >= bi_pow2(fi->emax)) r = INFINITY;
  return neg ? -r : r;
}

double bi_round_to(double v, bi_fmt f) {
  switch (f) {
  case BI_FMT_H: return bi_half_to_double(bi_half_from_double(v, BI_RTE));
  case BI_FMT_F: return (double)(float)v;
  default: return v;
  }
}

bool bi_cert_interval(double lo, double hi, bi_fmt f, double *out) {
  const double a = bi_round_to(lo, f), b = bi_round_to(hi, f);
  if (bi_dbits(a) != bi_dbits(b)) return false;
  *out = a;
  return true;
}

/* s is normal with quantum ulp = 2^e; its rounding interval is (s - dn, s + up) with up = ulp/2 and
 * dn = ulp/4 when s is a power of two (the quantum below is half as large), else ulp/2. v - s lies
 * within t +- err; the test adds err twice and a 2^-50 ulp slack so that the two roundings of the
 * comparison itself cannot matter. */
bool bi_cert_dd(double s, double t, double err, double *out) {
  if (!isfinite(s) || !isfinite(t) || s == 0) return false;
  const double a = fabs(s);
  if (a < 0x1p-1000 || a >= 0x1p1020) return false;
  const double tt = s > 0 ? t : -t;
  uint64_t m;
  int e;
  bi_decompose(a, &m, &e);
  const double ulp = bi_pow2(e);
  const double up = 0.5 * ulp, dn = m == (1ull << 52) ? 0.25 * ulp : 0.5 * ulp;
  const double slack = 2 * err + ulp * 0x1p-50;
  if (tt + slack < up && tt - slack > -dn) {
    *out = s;
    return true;
  }
  return false;
}

/* v = 0.1b... * 2^ev lies in binade E = ev - 1; its quantum in the format is 2^u as in bi_compose.
 * Scaling by 2^-u (exact), rounding to an integer (ties to even) and scaling back gives a value of
 * the format, which mpfr_get_d returns exactly (or as inf beyond the double range). */
double bi_mp_round(mpfr_srcptr v, bi_fmt f) {
  const bi_fmt_info *fi = &bi_fmts[f];
  if (mpfr_nan_p(v)) return NAN;
  const bool neg = mpfr_signbit(v) != 0;
  if (mpfr_zero_p(v)) return neg ? -0.0 : 0.0;
  if (mpfr_inf_p(v)) return neg ? -INFINITY : INFINITY;
  const mpfr_exp_t ev = mpfr_get_exp(v);
  if (ev - 1 >= fi->emax) return neg ? -INFINITY : INFINITY;
  long u = (long)ev - fi->prec;
  if (u < fi->emin_ulp) u = fi->emin_ulp;
  mpfr_t z;
  mpfr_prec_t p = mpfr_get_prec(v);
  mpfr_init2(z, p < 64 ? 64 : p);
  mpfr_mul_2si(z, v, -u, MPFR_RNDN);
  mpfr_rint(z, z, MPFR_RNDN);
  mpfr_mul_2si(z, z, u, MPFR_RNDN);
  double r = mpfr_get_d(z, MPFR_RNDN);
  mpfr_clear(z);
  if (f != BI_FMT_D && fabs(r) >= bi_pow2(fi->emax)) r = neg ? -INFINITY : INFINITY;
  return r;
}

double bi_mp_refine(bi_mp_bounds_fn bounds, const void *ctx, bi_fmt f) {
  for (mpfr_prec_t prec = 128;; prec *= 2) {
    mpfr_t lo, hi;
    mpfr_init2(lo, prec);
    mpfr_init2(hi, prec);
    bounds(lo, hi, ctx);
    const double a = bi_mp_round(lo, f), b = bi_mp_round(hi, f);
    mpfr_clear(lo);
    mpfr_clear(hi);
    /* The second condition only keeps the loop finite: each caller's value is irrational or
     * computed exactly long before this precision (see the callers). */
    if (bi_dbits(a) == bi_dbits(b) || prec >= ((mpfr_prec_t)1 << 22)) return a;
  }
}
