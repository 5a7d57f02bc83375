/*
 * bi_exact.c — the OpenCL.std math instructions whose results are exact or need a single rounding of
 * an exactly known value (OpenCL C 3.0 §6.15.2 "Math Functions", 0 ulp in §7.4): fmod, remainder,
 * remquo, fdim, maxmag, minmag, nextafter, ldexp, frexp, modf, fract, nan, and the common functions
 * fmax_common / fmin_common (§6.15.4 max, min), for half, float and double, scalars and vectors.
 * Owns their rows of the table.
 *
 * Method: half and float operands are widened exactly to double; results that are exact (fmod,
 * remainder, frexp, modf, nextafter ...) are exact in double and convert back exactly. Where a
 * rounding happens (ldexp, fdim, fract) it is done once, in the operand's own format (bi_compose,
 * or the format's own IEEE operation). fmod/remainder/remquo are computed with integer arithmetic on
 * the significands, so the quotient bits remquo needs are exact too.
 *
 * NaN policy (as bi_fp.c, §7.5 "Edge Case Behavior"): a NaN operand is returned quieted (the first
 * in operand order); invalid operations on non-NaN operands (fmod(inf, y), remainder(x, 0) ...)
 * return the canonical quiet NaN of the format. nan() builds its NaN from the nancode.
 *
 * Pointer outputs (remquo's quo, frexp's exp, modf's and fract's iptr) are written through
 * call->mem->access for the whole vector of n components (n * 4 bytes for int outputs, n elements of
 * the result type otherwise; a 3-vector writes 3 elements), after all components are computed; a NULL
 * access (fault recorded) makes the builtin return false at once.
 */
#include "bi_common_mp.h"
#include "bi_half.h"
#include "bi_impl.h"
#include "gen_spv_tables.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* The per-format traits (tod_, fromd_, isnan_, quiet_, canon_, sub_ ... FOR_FORMATS, bitlen) are in
 * bi_common_mp.h. */

/* ---- fmod, remainder, remquo -----------------------------------------------------------------------
 * §6.15.2: fmod(x, y) = x - y * trunc(x / y); remainder(x, y) = x - k*y with k the integer nearest
 * x/y, ties to the even one, a zero result taking x's sign; remquo returns remainder's value and
 * stores "the lower seven bits of the integral quotient x/y" with the sign of x/y. Both results are
 * exact (IEEE 754-2008 §5.3.1); C99 F.9.7.1/F.9.7.2 give the special cases: fmod(+-0, y) = +-0,
 * fmod(x, +-inf) = x, NaN for x infinite or y zero (likewise remainder); §7.5 adds that remquo then
 * stores 0 in quo.
 *
 * spvi's quo: the integer k of the remainder (the one with r = x - k*y), reduced to its low seven
 * bits: quo = +-(|k| mod 128), negative exactly when x and y have different signs and |k| mod 128 is
 * not 0. It is 0 whenever the result is a NaN, and 0 for y = +-inf (k = 0).
 *
 * With |x| = mx * 2^ex and |y| = my * 2^ey (integer significands below 2^53): when |x| >= |y|,
 * ex >= ey and |x| = q|y| + r * 2^ey with r = (mx * 2^(ex - ey)) mod my, computed by long division
 * ten bits at a time (r < my < 2^53, so r << 10 fits in 64 bits); the low bits of q follow along
 * (wrapping is harmless: only q mod 128 and q's parity are used). When |x| < |y|, q = 0 and r = |x|.
 * remainder rounds k = q up when 2r > |y| or 2r = |y| with q odd; the result |y| - r is then exact
 * (Sterbenz: |y|/2 <= r <= |y|) and has the opposite sign of x. */

static bool rem_core(double x, double y, bool nearest, double *res, int32_t *quo) {
  *quo = 0;
  if (isinf(x) || y == 0) return false; /* invalid: NaN, quo 0 */
  if (isinf(y) || x == 0) {
    *res = x; /* k = 0 */
    return true;
  }
  uint64_t mx, my;
  int ex, ey;
  bi_decompose(x, &mx, &ex);
  bi_decompose(y, &my, &ey);
  const bool xneg = signbit(x) != 0, qneg = (signbit(x) != 0) != (signbit(y) != 0);
  bool up = false; /* k = q + 1 (remainder rounded the quotient up) */
  uint64_t q = 0;
  double mag;
  if (fabs(x) >= fabs(y)) {
    q = mx / my;
    uint64_t r = mx % my;
    for (int d = ex - ey; d > 0;) {
      const int s = d < 10 ? d : 10;
      r <<= s;
      q = (q << s) + r / my;
      r %= my;
      d -= s;
    }
    if (nearest && (2 * r > my || (2 * r == my && (q & 1)))) {
      up = true;
      r = my - r;
    }
    mag = bi_compose(false, r, ey, BI_FMT_D); /* exact: r * 2^ey with r < 2^53 */
  } else {
    mag = fabs(x);
    if (nearest) {
      /* 2|x| vs |y|, i.e. mx * 2^(ex + 1) vs my * 2^ey. |x| < |y| implies ex <= ey, so
       * s = ey - ex - 1 >= -1; for s >= 11, y is normal (a subnormal y forces ex = ey) and
       * my << s >= 2^63 > mx. */
      const int s = ey - ex - 1;
      const bool more = s < 0 ? 2 * mx > my : s >= 11 ? false : mx > (my << s);
      if (more) {
        up = true;
        mag = fabs(y) - fabs(x); /* exact (Sterbenz) */
      }
    }
  }
  const uint64_t k = q + (up ? 1u : 0u);
  *res = (xneg != up) ? -mag : mag;
  const int32_t low = (int32_t)(k & 127u);
  *quo = qneg ? -low : low;
  return true;
}

#define REM_FNS(S, T, FMT)                                                               \
  static inline T fmod_##S(T x, T y) {                                                   \
    if (isnan_##S(x)) return quiet_##S(x);                                               \
    if (isnan_##S(y)) return quiet_##S(y);                                               \
    double r;                                                                            \
    int32_t q;                                                                           \
    return rem_core(tod_##S(x), tod_##S(y), false, &r, &q) ? fromd_##S(r) : canon_##S(); \
  }                                                                                      \
  static inline T remquo_##S(T x, T y, int32_t *q) {                                     \
    *q = 0;                                                                              \
    if (isnan_##S(x)) return quiet_##S(x);                                               \
    if (isnan_##S(y)) return quiet_##S(y);                                               \
    double r;                                                                            \
    return rem_core(tod_##S(x), tod_##S(y), true, &r, q) ? fromd_##S(r) : canon_##S();   \
  }                                                                                      \
  static inline T remainder_##S(T x, T y) {                                              \
    int32_t q;                                                                           \
    return remquo_##S(x, y, &q);                                                         \
  }
FOR_FORMATS(REM_FNS)

/* ---- fdim ----------------------------------------------------------------------------------------
 * §6.15.2: x - y if x > y, +0 if x <= y; §7.5: fdim(any, NaN) and fdim(NaN, any) return NaN. The
 * difference is rounded once in the format (overflow to inf as RN dictates). */
#define FDIM_FNS(S, T, FMT)                                          \
  static inline T fdim_##S(T x, T y) {                               \
    if (isnan_##S(x)) return quiet_##S(x);                           \
    if (isnan_##S(y)) return quiet_##S(y);                           \
    return tod_##S(x) > tod_##S(y) ? sub_##S(x, y) : fromd_##S(0.0); \
  }
FOR_FORMATS(FDIM_FNS)

/* ---- fmax_common, fmin_common, maxmag, minmag ------------------------------------------------------
 * §6.15.4 max/min: "Returns y if x < y, otherwise x" (resp. y if y < x), undefined for NaN operands.
 * spvi defines fmax_common/fmin_common exactly as its fmax/fmin (bi_fp.c): a NaN operand yields the
 * other operand (both NaN: x quieted), and zeros are ordered -0 < +0 whatever the operand order
 * (fmax(+-0, -+0) = +0, fmin(+-0, -+0) = -0); on every other input this is the spec's formula.
 * §6.15.2 maxmag: x if |x| > |y|, y if |y| > |x|, otherwise fmax(x, y); minmag likewise with <
 * and fmin. A NaN fails both comparisons, so it reaches fmax/fmin, which return the other operand. */
#define MAG_FNS(S, T, FMT)                                    \
  static inline T fmaxc_##S(T x, T y) {                       \
    if (isnan_##S(x)) return isnan_##S(y) ? quiet_##S(x) : y; \
    if (isnan_##S(y)) return x;                               \
    const double a = tod_##S(x), b = tod_##S(y);              \
    if (a < b) return y;                                      \
    if (b < a) return x;                                      \
    return signbit(a) ? y : x;                                \
  }                                                           \
  static inline T fminc_##S(T x, T y) {                       \
    if (isnan_##S(x)) return isnan_##S(y) ? quiet_##S(x) : y; \
    if (isnan_##S(y)) return x;                               \
    const double a = tod_##S(x), b = tod_##S(y);              \
    if (a < b) return x;                                      \
    if (b < a) return y;                                      \
    return signbit(a) ? x : y;                                \
  }                                                           \
  static inline T maxmag_##S(T x, T y) {                      \
    const double a = fabs(tod_##S(x)), b = fabs(tod_##S(y));  \
    return a > b ? x : b > a ? y : fmaxc_##S(x, y);           \
  }                                                           \
  static inline T minmag_##S(T x, T y) {                      \
    const double a = fabs(tod_##S(x)), b = fabs(tod_##S(y));  \
    return a < b ? x : b < a ? y : fminc_##S(x, y);           \
  }
FOR_FORMATS(MAG_FNS)

/* ---- nextafter -------------------------------------------------------------------------------------
 * §6.15.2 and C99 F.9.8.3: the next representable value after x toward y; y itself when x == y (so
 * nextafter(-0, +0) = +0); §7.5: nextafter(+-0, y > 0) is the smallest positive subnormal and
 * nextafter(+-0, y < 0) the smallest negative one. Stepping the bit pattern by one moves to the
 * neighbour (away from zero when the magnitude grows; the largest finite value steps to inf). */
#define NEXT_FNS(S, T, U, SIGN, TO_BITS, FROM_BITS)                      \
  static inline T nextafter_##S(T x, T y) {                              \
    if (isnan_##S(x)) return quiet_##S(x);                               \
    if (isnan_##S(y)) return quiet_##S(y);                               \
    const double a = tod_##S(x), b = tod_##S(y);                         \
    if (a == b) return y;                                                \
    if (a == 0) return FROM_BITS((U)(b > 0 ? 1u : (SIGN | 1u)));         \
    const U bits = TO_BITS(x);                                           \
    return FROM_BITS((U)(((a < b) == (a > 0)) ? bits + 1u : bits - 1u)); \
  }
static inline uint16_t h_id(uint16_t b) { return b; }
NEXT_FNS(hs, uint16_t, uint16_t, 0x8000u, h_id, h_id)
NEXT_FNS(fs, float, uint32_t, 0x80000000u, bi_fbits, bi_ffrom)
NEXT_FNS(ds, double, uint64_t, 0x8000000000000000ull, bi_dbits, bi_dfrom)

/* ---- ldexp, frexp --------------------------------------------------------------------------------
 * §6.15.2 ldexp: x * 2^k, here with one rounding to nearest even in the format, so results in the
 * subnormal range are correctly rounded (not truncated) and large k overflow to inf (C99 F.9.3.6:
 * ldexp(+-0, k) = +-0, ldexp(+-inf, k) = +-inf). k is the int32 operand (any value).
 * frexp: x = mant * 2^exp with |mant| in [1/2, 1) — subnormals are normalised; +-0 gives +-0 and exp
 * 0 (C99 F.9.3.4); §7.5: +-inf gives +-inf and exp 0, NaN gives the NaN and exp 0. Exact. */
#define SCALE_FNS(S, T, FMT)                                                         \
  static inline T ldexp_##S(T x, int32_t k) {                                        \
    if (isnan_##S(x)) return quiet_##S(x);                                           \
    const double a = tod_##S(x);                                                     \
    if (a == 0 || isinf(a)) return x;                                                \
    uint64_t m;                                                                      \
    int e;                                                                           \
    bi_decompose(a, &m, &e);                                                         \
    return fromd_##S(bi_compose(signbit(a) != 0, m, (int64_t)e + k, FMT));           \
  }                                                                                  \
  static inline T frexp_##S(T x, int32_t *ep) {                                      \
    *ep = 0;                                                                         \
    if (isnan_##S(x)) return quiet_##S(x);                                           \
    const double a = tod_##S(x);                                                     \
    if (a == 0 || isinf(a)) return x;                                                \
    uint64_t m;                                                                      \
    int e;                                                                           \
    bi_decompose(a, &m, &e);                                                         \
    const int nb = bitlen(m);                                                        \
    *ep = e + nb;                                                                    \
    const double mant = (double)m * bi_pow2(-nb); /* m / 2^nb: exact, in [1/2, 1) */ \
    return fromd_##S(signbit(a) ? -mant : mant);                                     \
  }
FOR_FORMATS(SCALE_FNS)

/* ---- modf, fract -----------------------------------------------------------------------------------
 * modf (§7.5.1 "Changes to C99 TC2 Behavior"): *iptr = trunc(x); return copysign(isinf(x) ? 0.0 :
 * x - *iptr, x). The difference is exact (the fractional bits of x). A NaN x gives the NaN, quieted,
 * in both.
 * fract (§6.15.2): returns fmin(x - floor(x), C) with C the largest value below 1 (0x1.ffcp-1h,
 * 0x1.fffffep-1f, 0x1.fffffffffffffp-1), floor(x) stored in *iptr. x - floor(x) is rounded once in
 * the format: for a tiny negative x it rounds up to 1.0, which the fmin turns into C (footnote to
 * §6.15.2: "The min() operator is there to prevent fract(-small) from returning 1.0"). §7.5: fract(+-0)
 * = +-0 with +-0 in iptr (x - floor(x) would give +0 for -0), fract(+-inf) = +-0 with +-inf in iptr,
 * fract(NaN) = the NaN (quieted) with the NaN in iptr. */
#define FRAC_FNS(S, T, FMT)                                \
  static inline T modf_##S(T x, T *ip) {                   \
    if (isnan_##S(x)) {                                    \
      *ip = quiet_##S(x);                                  \
      return quiet_##S(x);                                 \
    }                                                      \
    const double a = tod_##S(x), t = trunc(a);             \
    *ip = fromd_##S(t);                                    \
    return fromd_##S(copysign(isinf(a) ? 0.0 : a - t, a)); \
  }                                                        \
  static inline T fract_##S(T x, T *ip) {                  \
    if (isnan_##S(x)) {                                    \
      *ip = quiet_##S(x);                                  \
      return quiet_##S(x);                                 \
    }                                                      \
    const double a = tod_##S(x);                           \
    if (a == 0 || isinf(a)) {                              \
      *ip = x;                                             \
      return fromd_##S(a == 0 ? a : copysign(0.0, a));     \
    }                                                      \
    const T fl = fromd_##S(floor(a));                      \
    *ip = fl;                                              \
    const T d = sub_##S(x, fl);                            \
    const double cmax = 1.0 - bi_pow2(-bi_fmts[FMT].prec); \
    return tod_##S(d) < cmax ? d : fromd_##S(cmax);        \
  }
FOR_FORMATS(FRAC_FNS)

/* ---- nan -------------------------------------------------------------------------------------------
 * §6.15.2: "Returns a quiet NaN. The nancode may be placed in the significand of the resulting NaN."
 * spvi: the canonical positive quiet NaN with the low payload bits (all significand bits but the
 * quiet bit: 9 for half, 22 for float, 51 for double) taken from nancode; higher nancode bits are
 * ignored. The operand is ushort/uint/ulong, the width of the result (SPIR-V env validation). */
static inline uint16_t nan_hs(uint16_t code) { return (uint16_t)(BI_H_CANON | (code & 0x01ffu)); }
static inline float nan_fs(uint32_t code) { return bi_ffrom(BI_F_CANON | (code & 0x003fffffu)); }
static inline double nan_ds(uint64_t code) { return bi_dfrom(BI_D_CANON | (code & 0x0007ffffffffffffull)); }

/* ---- lane loops ------------------------------------------------------------------------------------
 * BI_EW1/BI_EW2 (bi_impl.h) serve the elementwise forms. The macros below add the mixed forms: an
 * int32 operand (ldexp), and one pointer output written after the whole vector is computed (PO1:
 * (x, p); PO2: (x, y, p)), with side elements of type TS. */

#define EW_INT(NAME, T, F)                                      \
  static bool NAME(const bi_call *c) {                          \
    const unsigned n = bi_lit_n(c->literal);                    \
    for (uint32_t i = 0; i < c->nlanes; i++) {                  \
      const size_t l = c->lanes[i];                             \
      const uint8_t *a = bi_src(c, 0, l), *b = bi_src(c, 1, l); \
      uint8_t *d = bi_dst(c, l);                                \
      for (unsigned k = 0; k < n; k++) {                        \
        T x;                                                    \
        int32_t e;                                              \
        memcpy(&x, a + k * sizeof(T), sizeof(T));               \
        memcpy(&e, b + k * 4, 4);                               \
        const T r = F(x, e);                                    \
        memcpy(d + k * sizeof(T), &r, sizeof(T));               \
      }                                                         \
    }                                                           \
    return true;                                                \
  }

#define PO_BODY(T, TS, PI, CALL)                                                             \
  if (!c->mem) return false;                                                                 \
  const unsigned n = bi_lit_n(c->literal), pb = bi_lit_ptr64(c->literal) ? 8u : 4u;          \
  for (uint32_t i = 0; i < c->nlanes; i++) {                                                 \
    const size_t l = c->lanes[i];                                                            \
    T r[16];                                                                                 \
    TS s[16];                                                                                \
    for (unsigned k = 0; k < n; k++) {                                                       \
      CALL;                                                                                  \
    }                                                                                        \
    const uint64_t ptr = bi_load_uint(bi_src(c, PI, l), pb);                                 \
    void *p = c->mem->access(c->mem->ctx, (unsigned)l, ptr, (uint64_t)n * sizeof(TS), true); \
    if (!p) return false;                                                                    \
    memcpy(p, s, n * sizeof(TS));                                                            \
    memcpy(bi_dst(c, l), r, n * sizeof(T));                                                  \
  }                                                                                          \
  return true;

#define PO1(NAME, T, TS, F)                                                                               \
  static bool NAME(const bi_call *c) {                                                                    \
    PO_BODY(T, TS, 1, T x_; memcpy(&x_, bi_src(c, 0, l) + k * sizeof(T), sizeof(T)); r[k] = F(x_, &s[k])) \
  }
#define PO2(NAME, T, TS, F)                                                                   \
  static bool NAME(const bi_call *c) {                                                        \
    PO_BODY(T, TS, 2, T x_; T y_; memcpy(&x_, bi_src(c, 0, l) + k * sizeof(T), sizeof(T));    \
            memcpy(&y_, bi_src(c, 1, l) + k * sizeof(T), sizeof(T)); r[k] = F(x_, y_, &s[k])) \
  }

/* Lane functions NAME_h / NAME_f / NAME_d (the slot names BI_SLOTS_F expects). */
#define LOOPS(S, T, FMT)                         \
  BI_EW2(fmod_##S##_l, T, T, fmod_##S)           \
  BI_EW2(remainder_##S##_l, T, T, remainder_##S) \
  BI_EW2(fdim_##S##_l, T, T, fdim_##S)           \
  BI_EW2(fmaxc_##S##_l, T, T, fmaxc_##S)         \
  BI_EW2(fminc_##S##_l, T, T, fminc_##S)         \
  BI_EW2(maxmag_##S##_l, T, T, maxmag_##S)       \
  BI_EW2(minmag_##S##_l, T, T, minmag_##S)       \
  BI_EW2(nextafter_##S##_l, T, T, nextafter_##S) \
  EW_INT(ldexp_##S##_l, T, ldexp_##S)            \
  PO1(frexp_##S##_l, T, int32_t, frexp_##S)      \
  PO1(modf_##S##_l, T, T, modf_##S)              \
  PO1(fract_##S##_l, T, T, fract_##S)            \
  PO2(remquo_##S##_l, T, int32_t, remquo_##S)
FOR_FORMATS(LOOPS)

BI_EW1(nan_hs_l, uint16_t, uint16_t, nan_hs)
BI_EW1(nan_fs_l, float, uint32_t, nan_fs)
BI_EW1(nan_ds_l, double, uint64_t, nan_ds)

#define SLOTS(p) \
  { [BI_T_F16] = p##_hs_l, [BI_T_F32] = p##_fs_l, [BI_T_F64] = p##_ds_l }

static const bi_row rows[] = {
  {OCLSTD_fmod, BI_SIG_F2, 0, SLOTS(fmod)},           {OCLSTD_remainder, BI_SIG_F2, 0, SLOTS(remainder)},
  {OCLSTD_remquo, BI_SIG_REMQUO, 0, SLOTS(remquo)},   {OCLSTD_fdim, BI_SIG_F2, 0, SLOTS(fdim)},
  {OCLSTD_maxmag, BI_SIG_F2, 0, SLOTS(maxmag)},       {OCLSTD_minmag, BI_SIG_F2, 0, SLOTS(minmag)},
  {OCLSTD_nextafter, BI_SIG_F2, 0, SLOTS(nextafter)}, {OCLSTD_ldexp, BI_SIG_F_INTN, 0, SLOTS(ldexp)},
  {OCLSTD_frexp, BI_SIG_F_PTRINTN, 0, SLOTS(frexp)},  {OCLSTD_modf, BI_SIG_F_PTRF, 0, SLOTS(modf)},
  {OCLSTD_fract, BI_SIG_F_PTRF, 0, SLOTS(fract)},     {OCLSTD_nan, BI_SIG_NAN, 0, SLOTS(nan)},
  {OCLSTD_fmax_common, BI_SIG_F2, 0, SLOTS(fmaxc)},   {OCLSTD_fmin_common, BI_SIG_F2, 0, SLOTS(fminc)},
};

const bi_rowset bi_rows_exact = {rows, sizeof rows / sizeof rows[0]};
