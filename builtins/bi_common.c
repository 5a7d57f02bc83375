/*
 * bi_common.c — the OpenCL.std common functions not covered by bi_fp.c (OpenCL C 3.0 §6.15.4
 * "Common Functions"): mix, smoothstep, degrees, radians, for half, float and double, scalars and
 * vectors (the scalar-operand overloads such as mix(float4, float4, float) reach SPIR-V already
 * splatted to the vector type by the translator, so every operand has the result type). Owns their
 * rows of the table.
 *
 * The spec leaves the accuracy of mix and smoothstep loose (float: absolute error 1e-3 resp. 1e-5,
 * double: implementation-defined, §7.4) and defines both by an OpenCL C expression. spvi defines each
 * as exactly that expression evaluated in the operand type, every operation correctly rounded to
 * nearest even and none contracted (no fma). degrees and radians have a mathematical value and are
 * correctly rounded: RN(x * 180/pi), RN(x * pi/180) of the exact product with the real constant.
 *
 * NaN policy (bi_fp.c): mix returns its first NaN operand quieted, and the canonical quiet NaN when
 * the evaluation itself is invalid (inf - inf, inf * 0); smoothstep never returns a NaN (the clamp
 * maps NaN to 0, see below); degrees/radians return the NaN operand quieted.
 *
 * The host evaluates float and double operations as written: FLT_EVAL_METHOD == 0 (asserted in
 * bi_fp.c) and every product is its own statement, so no compiler contracts it into an fma (GCC's
 * -std=c11 also implies -ffp-contract=off).
 */
#include "bi_common_mp.h"
#include "bi_half.h"
#include "bi_impl.h"
#include "gen_spv_tables.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* ---- per-format arithmetic -------------------------------------------------------------------------
 * Half operations are computed in double and rounded once to half. That is the correctly rounded half
 * operation: sums, differences and products of halves are exact in double, and a double quotient
 * never lands on a half rounding midpoint unless the exact quotient is that midpoint — with a, b
 * halves and M a midpoint (12 significant bits), a - M*b is a non-zero multiple of
 * ulp(M) * ulp(b) while |M*b| spans at most 23 bits, so |a/b - M| >= 2^-23 |M|, far beyond the 2^-53
 * relative error of the double quotient (below 2^-14 the half grid is fixed and the argument only
 * gets easier). */

/* The per-format traits and arithmetic (add_hs ... div_ds, FOR_FORMATS) are in bi_common_mp.h. */

/* ---- mix ---------------------------------------------------------------------------------------------
 * §6.15.4: "Returns the linear blend of x and y implemented as: x + (y - x) * a"; a outside [0, 1]
 * is undefined. spvi: d = RN(y - x), p = RN(d * a), result RN(x + p) — three roundings, in the
 * operand type, for every a (also outside [0, 1]). */
#define MIX_FNS(S, T, FMT)                 \
  static inline T mix_##S(T x, T y, T a) { \
    if (isnan_##S(x)) return quiet_##S(x); \
    if (isnan_##S(y)) return quiet_##S(y); \
    if (isnan_##S(a)) return quiet_##S(a); \
    const T d = sub_##S(y, x);             \
    const T p = mul_##S(d, a);             \
    const T r = add_##S(x, p);             \
    return isnan_##S(r) ? canon_##S() : r; \
  }
FOR_FORMATS(MIX_FNS)

/* ---- smoothstep --------------------------------------------------------------------------------------
 * §6.15.4: "t = clamp((x - edge0) / (edge1 - edge0), 0, 1); return t * t * (3 - 2 * t);", undefined
 * if edge0 >= edge1 or any operand is a NaN. spvi evaluates exactly that in the operand type, each
 * operation rounded: n = RN(x - e0), m = RN(e1 - e0), t = RN(n / m), clamp, then RN(RN(t * t) *
 * RN(3 - 2t)) (2t is exact). clamp is spvi's fclamp, fmin(fmax(t, 0), 1) (bi_fp.c): a NaN t (from a
 * NaN operand, 0/0 or inf/inf) becomes +0, as does -0, so the result is always in [0, 1] and never a
 * NaN; edge0 >= edge1 just follows the arithmetic (e.g. edge0 == edge1 is a step at the edge). */
#define SMOOTH_FNS(S, T, FMT)                                                 \
  static inline T smoothstep_##S(T e0, T e1, T x) {                           \
    const T num = sub_##S(x, e0);                                             \
    const T den = sub_##S(e1, e0);                                            \
    T t = div_##S(num, den);                                                  \
    const double tv = tod_##S(t);                                             \
    if (!(tv > 0)) t = fromd_##S(0.0);   /* fmax(t, 0): NaN, negatives, -0 */ \
    else if (tv > 1) t = fromd_##S(1.0); /* fmin(., 1) */                     \
    const T tt = mul_##S(t, t);                                               \
    const T two_t = mul_##S(fromd_##S(2.0), t);                               \
    const T u = sub_##S(fromd_##S(3.0), two_t);                               \
    return mul_##S(tt, u);                                                    \
  }
FOR_FORMATS(SMOOTH_FNS)

/* ---- degrees, radians -----------------------------------------------------------------------------
 * §6.15.4: degrees(x) = (180 / pi) * x, radians(x) = (pi / 180) * x. spvi returns the correctly
 * rounded value of the exact product with the real constant C (x * C is irrational for x != 0, so it
 * is never a tie). C = CH + CL (double-double, |C - CH - CL| <= 2^-106 C).
 * half/float: ph = RN(x * CH) is within 2^-51.9 |v| of v = x * C (|CH - C| <= 2^-53 C plus the
 * rounding of the product; x * CH never over- or underflows in double here), so v lies in
 * [ph - d, ph + d] with d = 2^-50 |ph|; when both ends round to the same half/float, so does v.
 * double, 2^-900 <= |x| <= 2^900: x * CH = ph + pl exactly (fma; no underflow of the error term),
 * t = RN(x * CL + pl), (s, tt) = Fast2Sum(ph, t): |v - (s + tt)| <= 2^-104 |v|, and bi_cert_dd
 * decides whether RN(v) = s.
 * Otherwise (an undecided enclosure, about one input in 2^24 for float, or a double outside that
 * range) MPFR computes an enclosure of x * C from directed roundings of pi, refined until both ends
 * round alike (bi_mp_refine). ±0 and ±inf are returned unchanged (exact), NaN quieted. */

static const double CONST_HI[2] = {0x1.1df46a2529d39p-6, 0x1.ca5dc1a63c1f8p+5}; /* [0] pi/180, [1] 180/pi */
static const double CONST_LO[2] = {0x1.5c1d8becdd291p-62, -0x1.1e7ab456405f9p-49};

typedef struct mulc_ctx {
  double x;
  bool deg;
} mulc_ctx;

/* Enclosure of |x| * C from pi rounded down and up, then the sign of x. */
static void mulc_bounds(mpfr_ptr lo, mpfr_ptr hi, const void *vctx) {
  const mulc_ctx *c = vctx;
  mpfr_t pd, pu;
  mpfr_init2(pd, mpfr_get_prec(lo));
  mpfr_init2(pu, mpfr_get_prec(lo));
  mpfr_const_pi(pd, MPFR_RNDD);
  mpfr_const_pi(pu, MPFR_RNDU);
  if (c->deg) {
    mpfr_ui_div(lo, 180, pu, MPFR_RNDD);
    mpfr_ui_div(hi, 180, pd, MPFR_RNDU);
  } else {
    mpfr_div_ui(lo, pd, 180, MPFR_RNDD);
    mpfr_div_ui(hi, pu, 180, MPFR_RNDU);
  }
  mpfr_mul_d(lo, lo, fabs(c->x), MPFR_RNDD);
  mpfr_mul_d(hi, hi, fabs(c->x), MPFR_RNDU);
  if (c->x < 0) {
    mpfr_swap(lo, hi);
    mpfr_neg(lo, lo, MPFR_RNDN);
    mpfr_neg(hi, hi, MPFR_RNDN);
  }
  mpfr_clear(pd);
  mpfr_clear(pu);
}

/* RN(x * C) in format f for a finite non-zero x (exactly representable in f). */
static double mulc(double x, bool deg, bi_fmt f) {
  const double ch = CONST_HI[deg], cl = CONST_LO[deg];
  double r;
  if (f != BI_FMT_D) {
    const double ph = x * ch, d = fabs(ph) * 0x1p-50;
    if (bi_cert_interval(ph - d, ph + d, f, &r)) return r;
  } else if (fabs(x) >= 0x1p-900 && fabs(x) <= 0x1p900) {
    const double ph = x * ch;
    const double pl = fma(x, ch, -ph);
    const double t = fma(x, cl, pl);
    const double s = ph + t;
    const double tt = t - (s - ph);
    if (bi_cert_dd(s, tt, fabs(s) * 0x1p-100, &r)) return r;
  }
  const mulc_ctx ctx = {x, deg};
  r = bi_mp_refine(mulc_bounds, &ctx, f);
  /* mpfr_const_pi caches pi per thread; executor worker threads exit without freeing it, so drop it
   * here (this path is rare; the cost is recomputing pi next time). */
  mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
  return r;
}

#define ANGLE_FNS(S, T, FMT)                                          \
  static inline T degrees_##S(T x) {                                  \
    if (isnan_##S(x)) return quiet_##S(x);                            \
    const double a = tod_##S(x);                                      \
    return (a == 0 || isinf(a)) ? x : fromd_##S(mulc(a, true, FMT));  \
  }                                                                   \
  static inline T radians_##S(T x) {                                  \
    if (isnan_##S(x)) return quiet_##S(x);                            \
    const double a = tod_##S(x);                                      \
    return (a == 0 || isinf(a)) ? x : fromd_##S(mulc(a, false, FMT)); \
  }
FOR_FORMATS(ANGLE_FNS)

/* ---- lane loops and rows -------------------------------------------------------------------------- */

#define LOOPS(S, T, FMT)                           \
  BI_EW3(mix_##S##_l, T, T, mix_##S)               \
  BI_EW3(smoothstep_##S##_l, T, T, smoothstep_##S) \
  BI_EW1(degrees_##S##_l, T, T, degrees_##S)       \
  BI_EW1(radians_##S##_l, T, T, radians_##S)
FOR_FORMATS(LOOPS)

#define SLOTS(p) \
  { [BI_T_F16] = p##_hs_l, [BI_T_F32] = p##_fs_l, [BI_T_F64] = p##_ds_l }

static const bi_row rows[] = {
  {OCLSTD_mix, BI_SIG_F3, 0, SLOTS(mix)},
  {OCLSTD_smoothstep, BI_SIG_F3, 0, SLOTS(smoothstep)},
  {OCLSTD_degrees, BI_SIG_F1, 0, SLOTS(degrees)},
  {OCLSTD_radians, BI_SIG_F1, 0, SLOTS(radians)},
};

const bi_rowset bi_rows_common = {rows, sizeof rows / sizeof rows[0]};
