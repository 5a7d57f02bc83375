/*
 * bi_math_exp.c — correctly rounded exponentials, logarithms, powers and roots for half, float and
 * double (OpenCL C 3.0 §6.15.2): exp exp2 exp10 expm1 log log2 log10 log1p cbrt sqrt rsqrt recip
 * divide hypot pow powr pown rootn. The method (fast path with a proven or documented error bound,
 * rounding test, MPFR fallback) is described in bi_math.h; the bound of every fast path is stated at
 * the function and derived in spec-notes/math.md.
 *
 * Special values follow C99 F.9.3 / F.9.4 (exp, log, pow, hypot, cbrt, sqrt families) and the OpenCL
 * additions of §7.5 "Edge Case Behavior" (exp10(±inf), pown, powr, rootn). rsqrt and recip follow
 * IEEE 754-2019 §9.2 (rSqrt(±0) = ±inf) and IEEE division.
 */
#include "bi_math.h"

/* Bound for fast paths made of a few IEEE operations (each rounding at most 2^-53 relative):
 * assumed 2^-49, at least 8x the derived bound of each use below. */
#define REL_ALG 0x1p-48
/* The same for long double (each rounding at most 2^-64): assumed 2^-60. */
#define REL_ALG_LD 0x1p-59L

static inline int sign_of(double x) { return signbit(x) ? -1 : 1; }

/* ---- exp, exp2, exp10, expm1 (C99 F.9.3.1-3; OpenCL: exp10(-inf) = +0, exp10(+inf) = +inf) ----
 * glibc exp/exp2/expl/exp2l/expm1/expm1l directly (documented <= 1 / 1 / 1 / 1 / 1 / 3 ulp).
 * exp10 is not in ISO C: 10^x through pow(10, x) / powl(10, x) (the operands are exact; documented
 * pow <= 1 ulp, powl <= 1 ulp). Results are positive, so underflow to zero is decided by sign. */

static double exp10_d(double x) { return pow(10.0, x); }
#if BI_M_HAVE_LD
static long double exp10_l(long double x) { return powl(10.0L, x); }
#endif

/* exp, exp2 and exp10 share their special cases and bounds; the macro writes the three cores. */
#define EXP_LIKE(NAME, FD, FL, OP)                                      \
  double bi_m_##NAME(double x, bi_mfmt f) {                             \
    if (isnan(x)) return bi_m_qnan(x);                                  \
    if (isinf(x)) return x > 0 ? x : 0.0;                               \
    if (x == 0) return 1.0;                                             \
    return BI_M_EVAL1(f, x, FD, FL, BI_M_REL_LIBM, BI_M_REL_LD, 1, OP); \
  }
EXP_LIKE(exp, exp, expl, BI_MOP_EXP)
EXP_LIKE(exp2, exp2, exp2l, BI_MOP_EXP2)
EXP_LIKE(exp10, exp10_d, exp10_l, BI_MOP_EXP10)

double bi_m_expm1(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (isinf(x)) return x > 0 ? x : -1.0;
  if (x == 0) return x;
  return BI_M_EVAL1(f, x, expm1, expm1l, BI_M_REL_LIBM, BI_M_REL_LD3, sign_of(x), BI_MOP_EXPM1);
}

/* ---- log, log2, log10, log1p (C99 F.9.3.7-11) ------------------------------------------------------
 * log(±0) = -inf, log(1) = +0, log(x < 0) = NaN, log(+inf) = +inf; log1p(±0) = ±0, log1p(-1) = -inf,
 * log1p(x < -1) = NaN. glibc log/log2/log10/log1p (documented <= 1 / 2 / 2 / 1 ulp) and the long
 * double versions (<= 1 / 1 / 1 / 2 ulp). */

/* log, log2 and log10 likewise. */
#define LOG_LIKE(NAME, FD, FL, OP)                                                   \
  double bi_m_##NAME(double x, bi_mfmt f) {                                          \
    if (isnan(x)) return bi_m_qnan(x);                                               \
    if (x < 0) return bi_m_nan();                                                    \
    if (x == 0) return -INFINITY;                                                    \
    if (isinf(x)) return x;                                                          \
    if (x == 1) return 0.0;                                                          \
    return BI_M_EVAL1(f, x, FD, FL, BI_M_REL_LIBM, BI_M_REL_LD, x > 1 ? 1 : -1, OP); \
  }
LOG_LIKE(log, log, logl, BI_MOP_LOG)
LOG_LIKE(log2, log2, log2l, BI_MOP_LOG2)
LOG_LIKE(log10, log10, log10l, BI_MOP_LOG10)

double bi_m_log1p(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (x < -1) return bi_m_nan();
  if (x == -1) return -INFINITY;
  if (x == 0 || isinf(x)) return x;
  return BI_M_EVAL1(f, x, log1p, log1pl, BI_M_REL_LIBM, BI_M_REL_LD, sign_of(x), BI_MOP_LOG1P);
}

/* ---- cbrt (C99 F.9.4.1: cbrt(±0) = ±0, cbrt(±inf) = ±inf); glibc cbrt <= 4 ulp, cbrtl <= 1 ulp */

double bi_m_cbrt(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (x == 0 || isinf(x)) return x;
  return BI_M_EVAL1(f, x, cbrt, cbrtl, BI_M_REL_LIBM, BI_M_REL_LD, sign_of(x), BI_MOP_CBRT);
}

/* ---- sqrt (half_sqrt, native_sqrt) ------------------------------------------------------------------
 * IEEE squareRoot is correctly rounded for float (sqrtf) and double (sqrt). half: RN_half of the
 * correctly rounded double square root is RN_half of the exact root — no half midpoint lies within
 * 2^-24 (relative) of the square root of a half (proof in bi_fp.c, sqrt). */

double bi_m_sqrt(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (x < 0) return bi_m_nan();
  switch (f) {
  case BI_MF_F: return sqrtf((float)x);
  case BI_MF_H: return bi_half_to_double(bi_half_from_double(sqrt(x), BI_RTE));
  default: return sqrt(x);
  }
}

/* ---- rsqrt = 1/sqrt(x): rsqrt(±0) = ±inf (IEEE 754-2019 rSqrt; also 1/sqrt(-0) = 1/-0),
 * rsqrt(+inf) = +0, rsqrt(x < 0) = NaN.
 * double evaluation (half/float x): 1/RN(sqrt(x)): two roundings, relative error <= 2^-52.
 * long double (double x): 1/RNl(sqrtl(x)): <= 2^-63. */

double bi_m_rsqrt(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (x == 0) return copysign(INFINITY, x);
  if (x < 0) return bi_m_nan();
  if (isinf(x)) return 0.0;
#if BI_M_HAVE_LD
  if (f == BI_MF_D) return bi_m_fin_ld(1.0L / sqrtl(x), REL_ALG_LD, 1, BI_MOP_RSQRT, x, 0, 0);
#else
  if (f == BI_MF_D) return bi_m_mpfr(BI_MOP_RSQRT, x, 0, 0, f);
#endif
  return bi_m_fin(1.0 / sqrt(x), REL_ALG, 1, f, BI_MOP_RSQRT, x, 0, 0);
}

/* ---- recip, divide (half_recip, native_recip, half_divide, native_divide) -----------------------------
 * The correctly rounded quotient (IEEE division). double: the host division is it. half/float: the
 * double quotient of two half/float values has relative error <= 2^-53 (and never overflows or
 * underflows: |x/y| is within [2^-277, 2^277]). Operands that make the quotient exact or special
 * (zero dividend or divisor, infinities) go through the IEEE division directly; 0/0 and inf/inf are
 * invalid (canonical NaN). */

double bi_m_divide(double x, double y, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (isnan(y)) return bi_m_qnan(y);
  if ((x == 0 && y == 0) || (isinf(x) && isinf(y))) return bi_m_nan();
  if (f == BI_MF_D || x == 0 || y == 0 || isinf(x) || isinf(y)) return x / y;
  return bi_m_fin(x / y, REL_ALG, sign_of(x) * sign_of(y), f, BI_MOP_DIV, x, y, 0);
}

double bi_m_recip(double x, bi_mfmt f) { return bi_m_divide(1.0, x, f); }

/* ---- hypot (C99 F.9.4.3: hypot(±inf, y) = +inf even for NaN y; hypot(x, ±0) = |x|) ----------------
 * double evaluation of half/float operands: x*x and y*y are exact (<= 48 bits, no overflow or
 * underflow in double), so sqrt(RN(x*x + y*y)) has relative error <= 2^-54 + 2^-53.
 * long double (double operands): the squares, the sum and the root each round once (x^2 of a double
 * is within long double's range, subnormals included): <= 2.5 * 2^-64. */

double bi_m_hypot(double x, double y, bi_mfmt f) {
  if (isinf(x) || isinf(y)) return INFINITY;
  if (isnan(x)) return bi_m_qnan(x);
  if (isnan(y)) return bi_m_qnan(y);
  if (x == 0) return fabs(y);
  if (y == 0) return fabs(x);
#if BI_M_HAVE_LD
  if (f == BI_MF_D) {
    const long double a = x, b = y;
    return bi_m_fin_ld(sqrtl(a * a + b * b), REL_ALG_LD, 1, BI_MOP_HYPOT, x, y, 0);
  }
#else
  if (f == BI_MF_D) return bi_m_mpfr(BI_MOP_HYPOT, x, y, 0, f);
#endif
  return bi_m_fin(sqrt(x * x + y * y), REL_ALG, 1, f, BI_MOP_HYPOT, x, y, 0);
}

/* ---- pow (C99 F.9.4.4 + OpenCL: pow(±0, -inf) = +inf) --------------------------------------------
 * pow(x, ±0) = 1 for any x, even NaN; pow(+1, y) = 1 for any y, even NaN; pow(±0, y) = ±inf (odd
 * integer y < 0), +inf (other y < 0, -inf included), ±0 (odd integer y > 0), +0 (other y > 0);
 * pow(-1, ±inf) = 1; pow(x, -inf) = +inf for |x| < 1, +0 for |x| > 1; pow(x, +inf) = +0 for |x| < 1,
 * +inf for |x| > 1; pow(-inf, y) = -0 (odd integer y < 0), +0 (other y < 0), -inf (odd integer
 * y > 0), +inf (other y > 0); pow(+inf, y) = +0 (y < 0), +inf (y > 0); pow(finite x < 0, finite
 * non-integer y) = NaN. Otherwise glibc pow (documented <= 1 ulp) / powl (<= 1 ulp); the sign of
 * the result is known (negative only for x < 0 and odd y), which decides underflows to zero. */

/* The non-special part shared by pow, powr and pown: finite non-zero x, finite non-zero y. */
static double pow_general(double x, double y, long n, bi_mop op, bi_mfmt f) {
  const int sign = (x < 0 && bi_m_isodd(y)) ? -1 : 1; /* parity only matters for x < 0 */
#if BI_M_HAVE_LD
  if (f == BI_MF_D) return bi_m_fin_ld(powl(x, y), BI_M_REL_LD, sign, op, x, y, n);
#else
  if (f == BI_MF_D) return bi_m_mpfr(op, x, y, n, f);
#endif
  return bi_m_fin(pow(x, y), BI_M_REL_LIBM, sign, f, op, x, y, n);
}

double bi_m_pow(double x, double y, bi_mfmt f) {
  /* the common case first: finite positive x != 1, finite non-zero y */
  if (x > 0 && x < INFINITY && x != 1 && fabs(y) < INFINITY && y != 0) return pow_general(x, y, 0, BI_MOP_POW, f);
  if (y == 0 || x == 1) return 1.0;
  if (isnan(x)) return bi_m_qnan(x);
  if (isnan(y)) return bi_m_qnan(y);
  if (isinf(y)) {
    const double ax = fabs(x);
    if (ax == 1) return 1.0;
    return ((ax < 1) == (y < 0)) ? INFINITY : 0.0;
  }
  const bool odd = bi_m_isodd(y);
  if (x == 0) {
    if (y < 0) return odd ? copysign(INFINITY, x) : INFINITY;
    return odd ? x : 0.0;
  }
  if (isinf(x)) {
    if (x > 0) return y < 0 ? 0.0 : INFINITY;
    if (y < 0) return odd ? -0.0 : 0.0;
    return odd ? -INFINITY : INFINITY;
  }
  if (x < 0 && !bi_m_isint(y)) return bi_m_nan();
  return pow_general(x, y, 0, BI_MOP_POW, f);
}

/* ---- powr (OpenCL §7.5; = IEEE 754-2019 powr, exp(y log x)) -----------------------------------------
 * powr(x, ±0) = 1 for finite x > 0; powr(±0, y) = +inf for finite y < 0 and for -inf; powr(±0, y) =
 * +0 for y > 0; powr(+1, y) = 1 for finite y; powr(x < 0, y) = NaN; powr(±0, ±0), powr(+inf, ±0),
 * powr(+1, ±inf) = NaN; a NaN operand is returned (quieted). The remaining infinite cases follow
 * exp(y log x): powr(+inf, y) = +inf (y > 0), +0 (y < 0); powr(x, +inf) = +0 (x < 1), +inf (x > 1);
 * powr(x, -inf) = +inf (x < 1), +0 (x > 1). Finite x > 0, x != 1, finite y != 0: as pow. */

double bi_m_powr(double x, double y, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (isnan(y)) return bi_m_qnan(y);
  if (x < 0) return bi_m_nan();
  if (x == 0) {
    if (y == 0) return bi_m_nan();
    return y < 0 ? INFINITY : 0.0;
  }
  if (isinf(x)) {
    if (y == 0) return bi_m_nan();
    return y > 0 ? INFINITY : 0.0;
  }
  if (x == 1) return isinf(y) ? bi_m_nan() : 1.0;
  if (y == 0) return 1.0;
  if (isinf(y)) return ((x < 1) == (y > 0)) ? 0.0 : INFINITY;
  return pow_general(x, y, 0, BI_MOP_POW, f);
}

/* ---- pown (OpenCL §7.5) ------------------------------------------------------------------------------
 * pown(x, 0) = 1 for any x, even zero, NaN or infinity; pown(±0, n) = ±inf (odd n < 0), +inf (even
 * n < 0), +0 (even n > 0), ±0 (odd n > 0); pown(±inf, n) as pow(±inf, n). Otherwise pow(x, n): the
 * int32 n is exact in double, so this is glibc pow / powl of exact operands. */

double bi_m_pown(double x, int32_t n, bi_mfmt f) {
  if (n == 0) return 1.0;
  if (isnan(x)) return bi_m_qnan(x);
  const bool odd = (n & 1) != 0;
  if (x == 0) {
    if (n < 0) return odd ? copysign(INFINITY, x) : INFINITY;
    return odd ? x : 0.0;
  }
  if (isinf(x)) {
    if (n > 0) return odd ? x : INFINITY;
    return odd ? copysign(0.0, x) : 0.0;
  }
  return pow_general(x, (double)n, n, BI_MOP_POWN, f);
}

/* ---- rootn (OpenCL §7.5): x^(1/n) ----------------------------------------------------------------------
 * rootn(±0, n) = ±inf (odd n < 0), +inf (even n < 0), +0 (even n > 0), ±0 (odd n > 0); rootn(x < 0,
 * even n) = NaN; rootn(x, 0) = NaN; rootn(±inf, n) = ±inf (n > 0), ±0 (n < 0) (-inf only with odd n);
 * n = 1: x; n = -1: 1/x; n = 2: sqrt; n = -2: rsqrt (all correctly rounded above).
 * |n| >= 3, a = |x| finite non-zero, the result is sign(x) * a^(1/n):
 *  double evaluation (half/float): pow(a, RN(1/n)). RN(1/n) = (1/n)(1 + d), |d| <= 2^-53, changes
 *   the exponent by |ln a / n| * 2^-53 <= (103.3 / 3) * 2^-53 < 2^-47.8 (|ln a| <= 149 ln 2 for a
 *   float), so with pow's error the result is within 2^-47.6 relative (bound assumed: 2^-41).
 *  long double (double x): q = RNl(1/k), k = |n|; the exact remainder 1/k - q = (1 - q k)/k, where
 *   1 - q k is exact from fmal (C11 F.10.10.1) because |1 - qk| < 2^-63 needs at most 32 bits;
 *   a^(1/k) = a^q * exp((1/k - q) ln a) ~ powl(a, q) * (1 + r logl(a)) with |r ln a| < 2^-56, so the
 *   neglected second-order term is < 2^-112 and the error is that of powl (<= 1 ulp documented)
 *   plus 3 roundings, < 2^-61; n < 0 takes the reciprocal (one more rounding). */

double bi_m_rootn(double x, int32_t n, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (n == 0) return bi_m_nan();
  const bool odd = (n & 1) != 0;
  if (x < 0 && !odd) return bi_m_nan();
  if (x == 0) {
    if (n < 0) return odd ? copysign(INFINITY, x) : INFINITY;
    return odd ? x : 0.0;
  }
  if (isinf(x)) return n > 0 ? x : copysign(0.0, x);
  switch (n) {
  case 1: return x;
  case -1: return bi_m_recip(x, f);
  case 2: return bi_m_sqrt(x, f);
  case -2: return bi_m_rsqrt(x, f);
  default: break;
  }
  const double a = fabs(x);
  if (f == BI_MF_D) {
#if BI_M_HAVE_LD
    const long double k = n < 0 ? -(long double)n : (long double)n;
    const long double q = 1.0L / k;
    const long double r = fmal(-q, k, 1.0L) / k;
    long double yl = powl(a, q);
    yl += yl * (r * logl(a));
    if (n < 0) yl = 1.0L / yl;
    return bi_m_fin_ld(x < 0 ? -yl : yl, REL_ALG_LD * 4, sign_of(x), BI_MOP_ROOTN, x, 0, n);
#else
    return bi_m_mpfr(BI_MOP_ROOTN, x, 0, n, f);
#endif
  }
  const double y = pow(a, 1.0 / n);
  return bi_m_fin(x < 0 ? -y : y, BI_M_REL_LIBM, sign_of(x), f, BI_MOP_ROOTN, x, 0, n);
}
