/*
 * bi_math_special.c — correctly rounded error and gamma functions (erf, erfc, tgamma, lgamma and the
 * sign output of lgamma_r) and the exact logb/ilogb, for half, float and double (OpenCL C 3.0
 * §6.15.2). Method: bi_math.h; bounds in spec-notes/math.md.
 *
 * Special values: C99 F.9.5 (erf(±0) = ±0, erf(±inf) = ±1, erfc(-inf) = 2, erfc(+inf) = +0,
 * lgamma(1) = lgamma(2) = +0, lgamma(±0) = lgamma(negative integer) = lgamma(±inf) = +inf,
 * tgamma(±0) = ±inf, tgamma(negative integer) = tgamma(-inf) = NaN, tgamma(+inf) = +inf), F.9.3.5 /
 * F.9.3.11 (ilogb(0) = FP_ILOGB0, ilogb(±inf) = INT_MAX, ilogb(NaN) = FP_ILOGBNAN; logb(±0) = -inf,
 * logb(±inf) = +inf) and OpenCL §7.5 (lgamma_r stores 0 for zero and negative integers).
 */
#include "bi_math.h"

#include <limits.h>
#include <pthread.h>

static inline int sign_of(double x) { return signbit(x) ? -1 : 1; }
static inline bool even_int(double k) { return fmod(k, 2.0) == 0; }

/* ---- erf, erfc: glibc erf/erfc (documented <= 1 / 5 ulp), erfl/erfcl (<= 1 / 5 ulp). erfc > 0. */

double bi_m_erf(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (x == 0) return x;
  if (isinf(x)) return copysign(1.0, x);
  return BI_M_EVAL1(f, x, erf, erfl, BI_M_REL_LIBM, BI_M_REL_LD, sign_of(x), BI_MOP_ERF);
}

double bi_m_erfc(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (isinf(x)) return x > 0 ? 0.0 : 2.0;
  if (x == 0) return 1.0;
  return BI_M_EVAL1(f, x, erfc, erfcl, BI_M_REL_LIBM, BI_M_REL_LD3, 1, BI_MOP_ERFC);
}

/* ---- tgamma -------------------------------------------------------------------------------------------
 * glibc tgamma (documented <= 9 ulp) and tgammal (<= 5 ulp) with the wider gamma bounds of bi_math.h.
 * The sign of Gamma(x) is known: positive for x > 0; for negative non-integer x positive exactly when
 * floor(x) is even (Gamma < 0 on (-1, 0), > 0 on (-2, -1) ...). Far left the result underflows:
 * |Gamma(x)| = pi / (|sin(pi x)| Gamma(1 - x)), and a non-integer x of the format is at least one
 * ulp(x) from an integer, so |sin(pi x)| >= 2 ulp(x):
 *   half/float, x < -50: |Gamma(x)| <= pi 2^17 / 50! < 2^-190, below half of every subnormal;
 *   double, x < -185: |Gamma(x)| <= pi 2^44 / 185! < 2^-1080 (185! > 10^340).
 * Those results are ±0 directly (glibc's double tgamma underflows there as well, with no useful
 * relative accuracy). */

double bi_m_tgamma(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (x == 0) return copysign(INFINITY, x);
  if (isinf(x)) return x > 0 ? x : bi_m_nan();
  int sign = 1;
  if (x < 0) {
    const double k = floor(x);
    if (k == x) return bi_m_nan();
    sign = even_int(k) ? 1 : -1;
    if (x < (f == BI_MF_D ? -185.0 : -50.0)) return sign > 0 ? 0.0 : -0.0;
  }
  return BI_M_EVAL1(f, x, tgamma, tgammal, BI_M_REL_GAMMA, BI_M_REL_LD3, sign, BI_MOP_TGAMMA);
}

/* ---- lgamma, lgamma_r ------------------------------------------------------------------------------------
 * lgamma = log|Gamma(x)|: glibc lgamma (documented <= 4 ulp; relative accuracy near the zeros at 1, 2
 * and on (-20, -2) measured in spec-notes/math.md) and lgammal (<= 4 ulp), with the gamma bounds.
 * lgamma's results near its zeros are never tiny enough to underflow (the zeros are simple and
 * operands are at least an ulp away), so the sign needs no hint.
 * lgamma_r's sign output: the sign of Gamma(x) (+1 / -1); 0 for ±0 and negative integers (OpenCL
 * §7.5). spvi also stores 0 for -inf (a "negative integer": every double below -2^52 is one) and for
 * NaN (no sign), and +1 for +inf. */

/* C's lgamma stores the sign in the global signgam (POSIX: "need not be thread-safe"), and the
 * reentrant lgamma_r is not in C11 or POSIX, so calls from the executor's worker threads are
 * serialised (lgamma's cost dwarfs an uncontended lock). */
static pthread_mutex_t signgam_lock = PTHREAD_MUTEX_INITIALIZER;
static double lgamma_locked(double x) {
  pthread_mutex_lock(&signgam_lock);
  const double r = lgamma(x);
  pthread_mutex_unlock(&signgam_lock);
  return r;
}
#if BI_M_HAVE_LD
static long double lgammal_locked(long double x) {
  pthread_mutex_lock(&signgam_lock);
  const long double r = lgammal(x);
  pthread_mutex_unlock(&signgam_lock);
  return r;
}
#endif

double bi_m_lgamma(double x, bi_mfmt f) {
  if (isnan(x)) return bi_m_qnan(x);
  if (isinf(x) || x == 0) return INFINITY;
  if (x < 0 && floor(x) == x) return INFINITY;
  if (x == 1 || x == 2) return 0.0;
  return BI_M_EVAL1(f, x, lgamma_locked, lgammal_locked, BI_M_REL_GAMMA, BI_M_REL_LD3, 0, BI_MOP_LGAMMA);
}

int32_t bi_m_lgamma_sign(double x) {
  if (isnan(x) || x == 0) return 0;
  if (x > 0) return 1;
  const double k = floor(x); /* -inf: floor(-inf) == -inf */
  if (k == x) return 0;
  return even_int(k) ? 1 : -1;
}

/* ---- logb, ilogb (exact) -------------------------------------------------------------------------------
 * The unbiased exponent of x, subnormals as if normalized (C99 7.12.6.11): frexp gives x = m 2^e with
 * |m| in [1/2, 1) for every finite non-zero double (subnormals included), so the exponent is e - 1.
 * ilogb(0) = FP_ILOGB0 = INT_MIN and ilogb(NaN) = FP_ILOGBNAN = INT_MAX: the values of clang's
 * opencl-c-base.h, so a kernel comparing with the macros sees consistent results (OpenCL C §6.15.2
 * allows INT_MIN or -INT_MAX, resp. INT_MAX or INT_MIN). */

double bi_m_logb(double x) {
  if (isnan(x)) return bi_m_qnan(x);
  if (isinf(x)) return INFINITY;
  if (x == 0) return -INFINITY;
  int e;
  (void)frexp(x, &e);
  return (double)(e - 1);
}

int32_t bi_m_ilogb(double x) {
  if (isnan(x)) return INT_MAX;
  if (isinf(x)) return INT_MAX;
  if (x == 0) return INT_MIN;
  int e;
  (void)frexp(x, &e);
  return e - 1;
}
