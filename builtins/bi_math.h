/*
 * bi_math.h — private to the bi_math*.c modules: the correctly rounded transcendental math functions
 * of OpenCL.std (OpenCL C 3.0 §6.15.2 "Math Functions", edge cases per §7.5 "Edge Case Behavior").
 *
 * Every function is computed for half, float and double by one scalar "core" that takes the operand
 * as a double (half and float values convert to double exactly) plus the target format, and returns
 * the correctly rounded (round to nearest even) result of the exact mathematical function as a
 * double holding a value of the target format exactly (or a NaN/inf), so the caller's conversion
 * back to half/float is exact.
 *
 * Method (Ziv's strategy; spec-notes/math.md has the proofs and the bound of each function):
 *   1. special operands (NaN, ±inf, ±0, domain errors, exactly known results) are handled first,
 *      following C99 F.9 and the OpenCL additions of §7.5;
 *   2. a fast approximation is computed — in double for half/float targets (host libm, or a formula
 *      with a derived bound), in long double (x87 80-bit, 64-bit significand) for double targets —
 *      whose relative error is bounded by rel/2 (each call site states its bound);
 *   3. bi_m_decide*() rounds both ends of the interval [a - |a|·rel, a + |a|·rel] to the target
 *      format. Rounding to nearest is monotonic, so if both ends round to the same target number the
 *      exact result (inside the interval) rounds to it as well — exact ties included: a tie strictly
 *      inside the interval makes the two ends round apart. Otherwise (the result is too close to a
 *      rounding boundary: a midpoint between two representable values, subnormal range included)
 *   4. bi_m_mpfr() recomputes the result with MPFR, correctly rounded to the target format (MPFR's
 *      functions are correctly rounded at any precision; mpfr_subnormalize rounds once onto the
 *      subnormal grid), which also handles results that are exactly midpoints.
 *
 * NaN policy (as bi_fp.c, spec-notes/builtins.md): a NaN operand is returned quieted (the first NaN
 * operand in operand order, payload kept); an invalid operation on non-NaN operands returns the
 * canonical quiet NaN (0x7ff8000000000000, which converts to 0x7fc00000 / 0x7e00).
 */
#ifndef BI_MATH_H
#define BI_MATH_H

#include "bi_half.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Target formats. */
typedef enum bi_mfmt { BI_MF_H, BI_MF_F, BI_MF_D } bi_mfmt;

/* The long double fast path (double targets) needs at least 11 more significant bits than double and
 * an exponent range that holds every intermediate (x86-64: x87 extended; AArch64/RISC-V: binary128).
 * Elsewhere (long double == double) double results come from MPFR directly. */
#if LDBL_MANT_DIG >= 64 && LDBL_MAX_EXP >= 16384
#define BI_M_HAVE_LD 1
#else
#define BI_M_HAVE_LD 0
#endif

/* ---- MPFR fallback (bi_math_mp.c) ------------------------------------------------------------- */

/* The operations the fallback can evaluate: f(x), f(x, y) or f(x, n). */
typedef enum bi_mop {
  BI_MOP_ACOS,
  BI_MOP_ACOSH,
  BI_MOP_ACOSPI,
  BI_MOP_ASIN,
  BI_MOP_ASINH,
  BI_MOP_ASINPI,
  BI_MOP_ATAN,
  BI_MOP_ATANH,
  BI_MOP_ATANPI,
  BI_MOP_CBRT,
  BI_MOP_COS,
  BI_MOP_COSH,
  BI_MOP_COSPI,
  BI_MOP_ERF,
  BI_MOP_ERFC,
  BI_MOP_EXP,
  BI_MOP_EXP2,
  BI_MOP_EXP10,
  BI_MOP_EXPM1,
  BI_MOP_LGAMMA,
  BI_MOP_LOG,
  BI_MOP_LOG2,
  BI_MOP_LOG10,
  BI_MOP_LOG1P,
  BI_MOP_RSQRT,
  BI_MOP_SIN,
  BI_MOP_SINH,
  BI_MOP_SINPI,
  BI_MOP_TAN,
  BI_MOP_TANH,
  BI_MOP_TANPI,
  BI_MOP_TGAMMA,
  BI_MOP_RECIP,
  BI_MOP_SQRT,
  /* two operands */
  BI_MOP_ATAN2,
  BI_MOP_ATAN2PI,
  BI_MOP_HYPOT,
  BI_MOP_POW,
  BI_MOP_DIV,
  /* x and an integer n */
  BI_MOP_POWN,
  BI_MOP_ROOTN,
  BI_MOP_COUNT
} bi_mop;

/* op(x[, y | n]) correctly rounded to fmt. The operands must be values of fmt. */
double bi_m_mpfr(bi_mop op, double x, double y, long n, bi_mfmt fmt);

/* Number of fallbacks taken so far by this thread (for the benchmark and the tests). */
unsigned long long bi_math_fallbacks(void);

/* ---- bits and NaNs -------------------------------------------------------------------------------- */

#define BI_M_CANON_NAN 0x7ff8000000000000ull

static inline uint64_t bi_m_bits(double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  return b;
}
static inline double bi_m_from(uint64_t b) {
  double x;
  memcpy(&x, &b, 8);
  return x;
}
static inline uint32_t bi_m_fbits(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  return b;
}

/* x (a NaN) quieted, payload kept. For operands widened from half/float it is already quiet. */
static inline double bi_m_qnan(double x) { return bi_m_from(bi_m_bits(x) | 0x0008000000000000ull); }
static inline double bi_m_nan(void) { return bi_m_from(BI_M_CANON_NAN); }

/* x is an integer (finite); x is an odd integer. Exact for every double. */
static inline bool bi_m_isint(double x) { return isfinite(x) && floor(x) == x; }
static inline bool bi_m_isodd(double x) {
  /* |x| >= 2^53: every double is even; otherwise x/2 is exact and its fraction tells parity */
  return bi_m_isint(x) && fabs(x) < 0x1p53 && floor(x * 0.5) != x * 0.5;
}

/* ---- the rounding test ---------------------------------------------------------------------------
 * sign: the sign of the exact result when it is known (+1 / -1), else 0. It only matters when the
 * whole interval rounds to zeros of both signs (an underflowed result): then a known sign decides,
 * an unknown one sends the case to MPFR. */

/* Half/float targets, approximation a in double with |a - exact| <= |a|·rel/2 when |a| >= 2^-1021.
 * Below that (double subnormals, where glibc's errors are absolute, a few 2^-1074) the bound is
 * taken as 2^-1021 absolute: such results are far below half of the smallest float/half subnormal,
 * so they round to a zero whose sign is the question. The interval ends a ± e are computed with one
 * rounding each; rel/2 leaves room for it (e >= 2^-40·|a| is far above half an ulp of a). */
static inline bool bi_m_decide(double a, double rel, int sign, bi_mfmt fmt, double *out) {
  if (isinf(a)) { /* the exact result is beyond DBL_MAX (1 - rel): beyond any half/float */
    *out = a;
    return true;
  }
  const double e = fabs(a) * rel + 0x1p-1021;
  const double lo = a - e, hi = a + e;
  if (fmt == BI_MF_F) {
    const float l = (float)lo, h = (float)hi;
    if (bi_m_fbits(l) == bi_m_fbits(h)) {
      *out = l;
      return true;
    }
    if (l == 0 && h == 0 && sign) {
      *out = sign > 0 ? 0.0 : -0.0;
      return true;
    }
    return false;
  }
  const uint16_t l = bi_half_from_double(lo, BI_RTE), h = bi_half_from_double(hi, BI_RTE);
  if (l == h) {
    *out = bi_half_to_double(l);
    return true;
  }
  if (!(l & 0x7fffu) && !(h & 0x7fffu) && sign) {
    *out = sign > 0 ? 0.0 : -0.0;
    return true;
  }
  return false;
}

/* Finish a half/float result: the decided value, or MPFR's. */
static inline double bi_m_fin(double a, double rel, int sign, bi_mfmt fmt, bi_mop op, double x, double y, long n) {
  double r;
  if (!isnan(a) && bi_m_decide(a, rel, sign, fmt, &r)) return r;
  return bi_m_mpfr(op, x, y, n, fmt);
}

#if BI_M_HAVE_LD
/* Double targets, approximation a in long double with |a - exact| <= |a|·rel/2 (absolute 2^-16300
 * for long double subnormals, far below half of double's smallest subnormal). */
static inline bool bi_m_decide_ld(long double a, long double rel, int sign, double *out) {
  if (isinf(a)) {
    *out = (double)a;
    return true;
  }
  const long double e = fabsl(a) * rel + 0x1p-16300L;
  const double l = (double)(a - e), h = (double)(a + e);
  if (bi_m_bits(l) == bi_m_bits(h)) {
    *out = l;
    return true;
  }
  if (l == 0 && h == 0 && sign) {
    *out = sign > 0 ? 0.0 : -0.0;
    return true;
  }
  return false;
}

static inline double bi_m_fin_ld(long double a, long double rel, int sign, bi_mop op, double x, double y, long n) {
  double r;
  if (!isnan(a) && bi_m_decide_ld(a, rel, sign, &r)) return r;
  return bi_m_mpfr(op, x, y, n, BI_MF_D);
}
#endif

/* Relative half-widths of the tested interval, e = |a|·rel: twice the error bound assumed for the
 * fast path, the factor 2 covering the roundings of e and a ± e (spec-notes/math.md).
 * BI_M_REL_LIBM: glibc double functions, documented <= 5 ulp (<= 2^-49.6 relative); assumed bound
 *   2^-41, a margin of 2^8.
 * BI_M_REL_GAMMA: glibc lgamma/tgamma (documented 4 / 9 ulp), assumed bound 2^-33.
 * BI_M_REL_LD: glibc long double functions documented <= 2 ulp (of 2^-63 relative: <= 2^-62),
 *   assumed bound 2^-60 (8 ulp).
 * BI_M_REL_LD3: long double functions documented 3 to 5 ulp (expm1l, the hyperbolic functions,
 *   erfcl, lgammal, tgammal), assumed bound 2^-58 (32 ulp).
 * The interval width decides the fallback rate: about 2 rel / 2^-52.5 of random double results
 * (2% with BI_M_REL_LD), 2 rel / 2^-23.5 for float (3e-5 with BI_M_REL_LIBM). */
#define BI_M_REL_LIBM 0x1p-40
#define BI_M_REL_GAMMA 0x1p-32
#define BI_M_REL_LD 0x1p-59L
#define BI_M_REL_LD3 0x1p-57L

/* One-operand evaluation through the host library: FD (double) for half/float targets, FL (long
 * double) for double targets, MPFR directly when long double is not wide enough. A macro rather
 * than a function: FD and FL have different types and are named directly (no indirect call on the
 * float fast path), and about thirty cores share this exact shape. */
#if BI_M_HAVE_LD
#define BI_M_EVAL1(FMT, X, FD, FL, REL, RELL, SIGN, OP)                          \
  ((FMT) == BI_MF_D ? bi_m_fin_ld(FL((long double)(X)), RELL, SIGN, OP, X, 0, 0) \
                    : bi_m_fin(FD(X), REL, SIGN, FMT, OP, X, 0, 0))
#else
#define BI_M_EVAL1(FMT, X, FD, FL, REL, RELL, SIGN, OP) \
  ((FMT) == BI_MF_D ? bi_m_mpfr(OP, X, 0, 0, BI_MF_D) : bi_m_fin(FD(X), REL, SIGN, FMT, OP, X, 0, 0))
#endif

/* ---- float sin, cos, tan, sincos on many elements at once (bi_math_trigf.c) --------------------
 * The same correctly rounded results as bi_m_sin/bi_m_cos/bi_m_tan(x, BI_MF_F), computed for a batch
 * of at most BI_M_FV_MAX floats by a branch-free kernel the compiler can pipeline and vectorise:
 * Cody-Waite reduction by pi/2 in double and Taylor polynomials, with a proven relative error bound
 * (spec-notes/math.md, "Fast float sin, cos, tan"), then the rounding test. Operands outside
 * |x| <= BI_M_TRIGF_MAX (NaN and inf included), zeros, and undecided elements take the scalar core.
 * Each returns how many elements took the scalar core. x may equal an output array. */
#define BI_M_FV_MAX 256
unsigned bi_m_sin_fv(const float *x, float *y, unsigned n);
unsigned bi_m_cos_fv(const float *x, float *y, unsigned n);
unsigned bi_m_tan_fv(const float *x, float *y, unsigned n);
unsigned bi_m_sincos_fv(const float *x, float *s, float *c, unsigned n);
/* The kernel's approximations of sin x and cos x themselves (for bench/math_trigf_exhaustive.c,
 * which measures their error): defined for |x| <= BI_M_TRIGF_MAX. */
void bi_m_sincos_fa(const float *x, double *s, double *c, unsigned n);
/* The same from one compiled variant of the kernel: 0 the baseline, 1 AVX2 (x86-64); false when the
 * variant does not exist or the CPU lacks it. The variants must agree bit for bit. */
bool bi_m_sincos_fa_variant(int v, const float *x, double *s, double *c, unsigned n);

/* The constants of the reduction, here so that the exhaustive check can verify the facts the proof
 * relies on: |x| <= 2^20, hence |k| < 2^20; C1 and C2 have at most 33 significant bits (k·C1 and
 * k·C2 are exact), C3 = RN(pi/2 - C1 - C2). */
#define BI_M_TRIGF_MAX 0x1p20
#define BI_M_PIO2_1 0x1.921fb544p+0
#define BI_M_PIO2_2 0x1.0b4611a6p-34
#define BI_M_PIO2_3 0x1.3198a2e037073p-69
#define BI_M_INVPIO2 0x1.45f306dc9c883p-1
/* Rounding-test width of the kernel: its proven bound is < 2^-48.9 (tan; sin and cos < 2^-49.6),
 * rel/2 = 2^-43 leaves a margin of 2^5. */
#define BI_M_REL_TRIGF 0x1p-42

/* ---- the scalar cores --------------------------------------------------------------------------- */

/* bi_math_exp.c: exponentials, logarithms, powers and roots */
double bi_m_exp(double x, bi_mfmt f);
double bi_m_exp2(double x, bi_mfmt f);
double bi_m_exp10(double x, bi_mfmt f);
double bi_m_expm1(double x, bi_mfmt f);
double bi_m_log(double x, bi_mfmt f);
double bi_m_log2(double x, bi_mfmt f);
double bi_m_log10(double x, bi_mfmt f);
double bi_m_log1p(double x, bi_mfmt f);
double bi_m_cbrt(double x, bi_mfmt f);
double bi_m_rsqrt(double x, bi_mfmt f);
double bi_m_sqrt(double x, bi_mfmt f);
double bi_m_recip(double x, bi_mfmt f);
double bi_m_divide(double x, double y, bi_mfmt f);
double bi_m_hypot(double x, double y, bi_mfmt f);
double bi_m_pow(double x, double y, bi_mfmt f);
double bi_m_powr(double x, double y, bi_mfmt f);
double bi_m_pown(double x, int32_t n, bi_mfmt f);
double bi_m_rootn(double x, int32_t n, bi_mfmt f);

/* bi_math_trig.c: circular and hyperbolic functions, their inverses, the *pi variants */
double bi_m_sin(double x, bi_mfmt f);
double bi_m_cos(double x, bi_mfmt f);
double bi_m_tan(double x, bi_mfmt f);
double bi_m_sinpi(double x, bi_mfmt f);
double bi_m_cospi(double x, bi_mfmt f);
double bi_m_tanpi(double x, bi_mfmt f);
double bi_m_asin(double x, bi_mfmt f);
double bi_m_acos(double x, bi_mfmt f);
double bi_m_atan(double x, bi_mfmt f);
double bi_m_asinpi(double x, bi_mfmt f);
double bi_m_acospi(double x, bi_mfmt f);
double bi_m_atanpi(double x, bi_mfmt f);
double bi_m_atan2(double y, double x, bi_mfmt f);
double bi_m_atan2pi(double y, double x, bi_mfmt f);
double bi_m_sinh(double x, bi_mfmt f);
double bi_m_cosh(double x, bi_mfmt f);
double bi_m_tanh(double x, bi_mfmt f);
double bi_m_asinh(double x, bi_mfmt f);
double bi_m_acosh(double x, bi_mfmt f);
double bi_m_atanh(double x, bi_mfmt f);

/* bi_math_special.c: error and gamma functions, logb/ilogb */
double bi_m_erf(double x, bi_mfmt f);
double bi_m_erfc(double x, bi_mfmt f);
double bi_m_tgamma(double x, bi_mfmt f);
double bi_m_lgamma(double x, bi_mfmt f);
int32_t bi_m_lgamma_sign(double x);
double bi_m_logb(double x);
int32_t bi_m_ilogb(double x);

#endif
