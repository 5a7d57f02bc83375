/*
 * bi_math_trig.c — correctly rounded circular and hyperbolic functions for half, float and double
 * (OpenCL C 3.0 §6.15.2): sin cos tan sinpi cospi tanpi asin acos atan atan2 asinpi acospi atanpi
 * atan2pi sinh cosh tanh asinh acosh atanh. Method: bi_math.h (fast path with an error bound,
 * rounding test, MPFR fallback); bounds derived here and in spec-notes/math.md.
 *
 * Special values: C99 F.9.1 / F.9.2 (sin(±0) = ±0, sin(±inf) = NaN, atan2's table ...) and the
 * OpenCL additions of §7.5 for the *pi functions (sinpi(±n) = ±0, cospi(n + 0.5) = +0, tanpi's signed
 * zeros and infinities, acospi(1) = +0, atanpi(±inf) = ±0.5, atan2pi's table).
 */
#include "bi_math.h"

/* pi and 1/pi rounded to double and to a 64-bit significand (relative errors < 2^-53, < 2^-64). */
#define PI_D 0x1.921fb54442d18p+1
#define INVPI_D 0x1.45f306dc9c883p-2
#if BI_M_HAVE_LD
#define PI_L 0x3.243f6a8885a308d4p+0L
#define INVPI_L 0x5.17cc1b727220a95p-4L
#endif

static inline int sign_of(double x) { return signbit(x) ? -1 : 1; }

/* ---- sin, cos, tan (C99 F.9.1.5-7) ---------------------------------------------------------------
 * glibc sin/cos/tan (documented <= 1 ulp, with exact argument reduction for every double) and
 * sinl/cosl/tanl (ldbl-96, <= 2 ulp, exact reduction). */

double bi_m_sin(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (isinf(x)) return bi_m_nan();
  if (x == 0) return x;
  return BI_M_EVAL1(f, x, sin, sinl, BI_M_REL_LIBM, BI_M_REL_LD, 0, BI_MOP_SIN);
}

double bi_m_cos(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (isinf(x)) return bi_m_nan();
  if (x == 0) return 1.0;
  return BI_M_EVAL1(f, x, cos, cosl, BI_M_REL_LIBM, BI_M_REL_LD, 0, BI_MOP_COS);
}

double bi_m_tan(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (isinf(x)) return bi_m_nan();
  if (x == 0) return x;
  return BI_M_EVAL1(f, x, tan, tanl, BI_M_REL_LIBM, BI_M_REL_LD, 0, BI_MOP_TAN);
}

/* ---- sinpi, cospi, tanpi -------------------------------------------------------------------------
 * Exact reduction: a = |x|, k = floor(a), r = a - k (exact: the fraction of a double), then by
 * symmetry (sinpi(r) = sinpi(1 - r), cospi(r) = -cospi(1 - r), tanpi(r) = -tanpi(1 - r), with 1 - r
 * exact for r >= 1/2) to g in [0, 1/2], and to an argument in [0, 1/4] (0.5 - g exact for
 * g >= 1/4): sinpi(g) = cospi(1/2 - g) etc. Every double >= 2^52 is an integer; parities come from
 * fmod(k, 2) (exact). Exactly known results (integers, half-integers, tanpi(1/4)) are returned
 * directly with the §7.5 signs.
 * Fast path for t = g or 1/2 - g in [0, 1/4]: f(RN(pi_d * t)) with f = sin, cos, tan or 1/tan.
 *  double (half/float x): the argument's relative error is <= 2^-54.5 (pi_d) + 2^-53 (product);
 *   the functions' condition numbers on [0, pi/4] are <= pi/2 (t·cot t <= 1, t·tan t <= pi/4,
 *   2t/sin 2t <= pi/2), so with libm's 1 ulp and the reciprocal the error is < 2^-50.
 *  long double (double x): the same with 2^-64 roundings and sinl/cosl/tanl (<= 2 ulp): < 2^-60. */

typedef enum pik { PK_SIN, PK_COS, PK_TAN, PK_COT } pik;

static double cot_d(double t) { return 1.0 / tan(t); }
static double (*const pi_fd[])(double) = {sin, cos, tan, cot_d};
#if BI_M_HAVE_LD
static long double cot_l(long double t) { return 1.0L / tanl(t); }
static long double (*const pi_fl[])(long double) = {sinl, cosl, tanl, cot_l};
#endif

/* ±kind(pi * t) for an exact t in [0, 1/4], correctly rounded to f (x: the original operand). */
static double pi_eval(pik kind, double t, bool neg, bi_mfmt f, bi_mop op, double x) {
  const int sign = neg ? -1 : 1;
  if (f == BI_MF_D) {
#if BI_M_HAVE_LD
    const long double v = pi_fl[kind](PI_L * (long double)t);
    return bi_m_fin_ld(neg ? -v : v, BI_M_REL_LD, sign, op, x, 0, 0);
#else
    return bi_m_mpfr(op, x, 0, 0, f);
#endif
  }
  const double v = pi_fd[kind](PI_D * t);
  return bi_m_fin(neg ? -v : v, BI_M_REL_LIBM, sign, f, op, x, 0, 0);
}

static inline bool odd_int(double k) { return fmod(k, 2.0) != 0; }

double bi_m_sinpi(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (isinf(x)) return bi_m_nan();
  const double a = fabs(x), k = floor(a), r = a - k;
  if (r == 0) return copysign(0.0, x);              /* sinpi(±n) = ±0, sinpi(±0) = ±0 */
  const bool neg = (signbit(x) != 0) != odd_int(k); /* sinpi(a) = (-1)^k sinpi(r) */
  const double g = r > 0.5 ? 1 - r : r;
  if (g == 0.5) return neg ? -1.0 : 1.0;
  if (g <= 0.25) return pi_eval(PK_SIN, g, neg, f, BI_MOP_SINPI, x);
  return pi_eval(PK_COS, 0.5 - g, neg, f, BI_MOP_SINPI, x);
}

double bi_m_cospi(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (isinf(x)) return bi_m_nan();
  const double a = fabs(x), k = floor(a), r = a - k;
  bool neg = odd_int(k); /* cospi(a) = (-1)^k cospi(r) */
  double g = r;
  if (r > 0.5) {
    g = 1 - r;
    neg = !neg;
  }
  if (g == 0.5) return 0.0; /* cospi(n + 0.5) = +0 */
  if (g == 0) return neg ? -1.0 : 1.0;
  if (g <= 0.25) return pi_eval(PK_COS, g, neg, f, BI_MOP_COSPI, x);
  return pi_eval(PK_SIN, 0.5 - g, neg, f, BI_MOP_COSPI, x);
}

double bi_m_tanpi(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (isinf(x)) return bi_m_nan();
  const double a = fabs(x), k = floor(a), r = a - k;
  if (r == 0) return odd_int(k) ? copysign(0.0, -x) : copysign(0.0, x);
  if (r == 0.5) {
    /* x = n + 0.5: n = k for x > 0, n = -(k + 1) for x < 0; +inf for even n, -inf for odd n */
    const bool n_odd = signbit(x) ? !odd_int(k) : odd_int(k);
    return n_odd ? -INFINITY : INFINITY;
  }
  bool neg = signbit(x) != 0; /* tanpi is odd with period 1 */
  double g = r;
  if (r > 0.5) {
    g = 1 - r;
    neg = !neg;
  }
  if (g == 0.25) return neg ? -1.0 : 1.0;
  if (g < 0.25) return pi_eval(PK_TAN, g, neg, f, BI_MOP_TANPI, x);
  return pi_eval(PK_COT, 0.5 - g, neg, f, BI_MOP_TANPI, x);
}

/* ---- asin, acos, atan (C99 F.9.1.1-3) ---------------------------------------------------------------
 * glibc asin/acos/atan (<= 1 ulp) and asinl/acosl/atanl (<= 2 ulp). acos(1) = +0 exactly. */

double bi_m_asin(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (fabs(x) > 1) return bi_m_nan();
  if (x == 0) return x;
  return BI_M_EVAL1(f, x, asin, asinl, BI_M_REL_LIBM, BI_M_REL_LD, sign_of(x), BI_MOP_ASIN);
}

double bi_m_acos(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (fabs(x) > 1) return bi_m_nan();
  if (x == 1) return 0.0;
  return BI_M_EVAL1(f, x, acos, acosl, BI_M_REL_LIBM, BI_M_REL_LD, 1, BI_MOP_ACOS);
}

double bi_m_atan(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (x == 0) return x;
  return BI_M_EVAL1(f, x, atan, atanl, BI_M_REL_LIBM, BI_M_REL_LD, sign_of(x), BI_MOP_ATAN);
}

/* ---- asinpi, acospi, atanpi (OpenCL §7.5: asinpi(±0) = ±0, acospi(1) = +0, |x| > 1 -> NaN,
 * atanpi(±0) = ±0, atanpi(±inf) = ±0.5) --------------------------------------------------------------
 * f(x) * RN(1/pi): libm's error (<= 1 ulp; long double <= 2 ulp), the constant (< 2^-54 / 2^-64)
 * and the product's rounding: < 2^-51 (double), < 2^-61 (long double). The exact values ±1/2, 1
 * (asinpi(±1), acospi(-1)) are returned directly. */

#if BI_M_HAVE_LD
#define LD_ONLY(...) __VA_ARGS__
#else
#define LD_ONLY(...)
#endif
/* f(x)/pi in double and in long double: three identical pairs, hence a macro */
#define PI_DIV(NAME, FD, FL)                                   \
  static double NAME##_d(double x) { return FD(x) * INVPI_D; } \
  LD_ONLY(static long double NAME##_l(long double x) { return FL(x) * INVPI_L; })
PI_DIV(asinpi, asin, asinl)
PI_DIV(acospi, acos, acosl)
PI_DIV(atanpi, atan, atanl)

double bi_m_asinpi(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (fabs(x) > 1) return bi_m_nan();
  if (x == 0) return x;
  if (fabs(x) == 1) return copysign(0.5, x);
  return BI_M_EVAL1(f, x, asinpi_d, asinpi_l, BI_M_REL_LIBM, BI_M_REL_LD, sign_of(x), BI_MOP_ASINPI);
}

double bi_m_acospi(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (fabs(x) > 1) return bi_m_nan();
  if (x == 1) return 0.0;
  if (x == -1) return 1.0;
  return BI_M_EVAL1(f, x, acospi_d, acospi_l, BI_M_REL_LIBM, BI_M_REL_LD, 1, BI_MOP_ACOSPI);
}

double bi_m_atanpi(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (x == 0) return x;
  if (isinf(x)) return copysign(0.5, x);
  return BI_M_EVAL1(f, x, atanpi_d, atanpi_l, BI_M_REL_LIBM, BI_M_REL_LD, sign_of(x), BI_MOP_ATANPI);
}

/* ---- atan2 (C99 F.9.1.4) -------------------------------------------------------------------------------
 * atan2(±0, x) = ±0 for x > 0 or x = +0 (+inf included), ±pi for x < 0 or x = -0; atan2(±y, +inf) =
 * ±0 for finite y; the other special cases (±pi/2, ±pi/4, ±3pi/4, ±pi) are not representable and go
 * through the fast path, which returns them rounded (glibc atan2 <= 1 ulp, atan2l <= 1 ulp). The
 * result has the sign of y. */

double bi_m_atan2(double y, double x, bi_mfmt f) {
  if (isnan(y)) return bi_m_qnan(y);
  if (isnan(x)) return bi_m_qnan(x);
  if (y == 0 && !signbit(x)) return y;
  if (isinf(x) && x > 0 && isfinite(y)) return copysign(0.0, y);
  const int sign = sign_of(y);
#if BI_M_HAVE_LD
  if (f == BI_MF_D) return bi_m_fin_ld(atan2l(y, x), BI_M_REL_LD, sign, BI_MOP_ATAN2, y, x, 0);
#else
  if (f == BI_MF_D) return bi_m_mpfr(BI_MOP_ATAN2, y, x, 0, f);
#endif
  return bi_m_fin(atan2(y, x), BI_M_REL_LIBM, sign, f, BI_MOP_ATAN2, y, x, 0);
}

/* ---- atan2pi (OpenCL §7.5) --------------------------------------------------------------------------
 * atan2pi(±0, -0) = ±1; atan2pi(±0, +0) = ±0; atan2pi(±0, x) = ±1 (x < 0), ±0 (x > 0);
 * atan2pi(y, ±0) = -0.5 (y < 0), 0.5 (y > 0); atan2pi(±y, -inf) = ±1, atan2pi(±y, +inf) = ±0 (finite
 * y > 0); atan2pi(±inf, x) = ±0.5 (finite x); atan2pi(±inf, -inf) = ±0.75; atan2pi(±inf, +inf) =
 * ±0.25. Finite non-zero operands: atan2(y, x) * RN(1/pi), bounds as atanpi. */

double bi_m_atan2pi(double y, double x, bi_mfmt f) {
  if (isnan(y)) return bi_m_qnan(y);
  if (isnan(x)) return bi_m_qnan(x);
  if (y == 0) return signbit(x) ? copysign(1.0, y) : y;
  if (x == 0) return copysign(0.5, y);
  if (isinf(y)) {
    if (isinf(x)) return copysign(x < 0 ? 0.75 : 0.25, y);
    return copysign(0.5, y);
  }
  if (isinf(x)) return x < 0 ? copysign(1.0, y) : copysign(0.0, y);
  const int sign = sign_of(y);
#if BI_M_HAVE_LD
  if (f == BI_MF_D) return bi_m_fin_ld(atan2l(y, x) * INVPI_L, BI_M_REL_LD, sign, BI_MOP_ATAN2PI, y, x, 0);
#else
  if (f == BI_MF_D) return bi_m_mpfr(BI_MOP_ATAN2PI, y, x, 0, f);
#endif
  return bi_m_fin(atan2(y, x) * INVPI_D, BI_M_REL_LIBM, sign, f, BI_MOP_ATAN2PI, y, x, 0);
}

/* ---- sinh, cosh, tanh, asinh, acosh, atanh (C99 F.9.2) ------------------------------------------------
 * sinh(±0) = ±0, sinh(±inf) = ±inf; cosh(±0) = 1, cosh(±inf) = +inf; tanh(±0) = ±0, tanh(±inf) = ±1;
 * asinh(±0) = ±0, asinh(±inf) = ±inf; acosh(1) = +0, acosh(x < 1) = NaN, acosh(+inf) = +inf;
 * atanh(±0) = ±0, atanh(±1) = ±inf, atanh(|x| > 1) = NaN. glibc: <= 2 ulp (double), <= 3 ulp (long
 * double). */

double bi_m_sinh(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (x == 0 || isinf(x)) return x;
  return BI_M_EVAL1(f, x, sinh, sinhl, BI_M_REL_LIBM, BI_M_REL_LD3, sign_of(x), BI_MOP_SINH);
}

double bi_m_cosh(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (isinf(x)) return INFINITY;
  if (x == 0) return 1.0;
  return BI_M_EVAL1(f, x, cosh, coshl, BI_M_REL_LIBM, BI_M_REL_LD3, 1, BI_MOP_COSH);
}

double bi_m_tanh(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (x == 0) return x;
  if (isinf(x)) return copysign(1.0, x);
  return BI_M_EVAL1(f, x, tanh, tanhl, BI_M_REL_LIBM, BI_M_REL_LD3, sign_of(x), BI_MOP_TANH);
}

double bi_m_asinh(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (x == 0 || isinf(x)) return x;
  return BI_M_EVAL1(f, x, asinh, asinhl, BI_M_REL_LIBM, BI_M_REL_LD3, sign_of(x), BI_MOP_ASINH);
}

double bi_m_acosh(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (x < 1) return bi_m_nan();
  if (x == 1) return 0.0;
  if (isinf(x)) return x;
  return BI_M_EVAL1(f, x, acosh, acoshl, BI_M_REL_LIBM, BI_M_REL_LD3, 1, BI_MOP_ACOSH);
}

double bi_m_atanh(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (fabs(x) > 1) return bi_m_nan();
  if (fabs(x) == 1) return copysign(INFINITY, x);
  if (x == 0) return x;
  return BI_M_EVAL1(f, x, atanh, atanhl, BI_M_REL_LIBM, BI_M_REL_LD3, sign_of(x), BI_MOP_ATANH);
}
