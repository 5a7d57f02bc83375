/*
 * bi_fp.c — the floating-point elementwise OpenCL.std instructions (OpenCL C 3.0 §6.15.2 "Math
 * Functions", §6.15.4 "Common Functions") for half, float and double: fma, mad, sqrt, fabs, fmin,
 * fmax, floor, ceil, trunc, rint, round, copysign, fclamp, sign, step. Owns their rows of the table.
 *
 * Accuracy: every function here is exact or correctly rounded (round to nearest even), which meets
 * every bound of the SPIR-V environment's ULP table (§7.4 "Relative Error as ULPs") and makes the
 * results unique, hence host-independent. Half values are handled as bit patterns and computed
 * through float/double only where that is provably exact (comments at each function).
 *
 * NaN policy (§7.5 "Edge Case Behavior" only asks for quiet NaNs): a NaN operand is returned quieted
 * (the first NaN operand, in operand order); an invalid operation on non-NaN operands (sqrt of a
 * negative number, inf * 0, inf - inf) returns the canonical positive quiet NaN (0x7e00, 0x7fc00000,
 * 0x7ff8000000000000), so results never depend on the host's default NaN. fabs and copysign are
 * sign-bit operations and pass NaNs through unchanged (IEEE 754-2008 §5.5.1).
 *
 * spvi assumes the host FPU is in its default state: round to nearest even, no flush-to-zero, and
 * no excess precision (FLT_EVAL_METHOD == 0, asserted below); spvi never changes the rounding mode.
 */
#include "bi_half.h"
#include "bi_impl.h"
#include "gen_spv_tables.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* The exact-sum arguments below (TwoSum) need each double operation rounded once, to double. */
_Static_assert(FLT_EVAL_METHOD == 0, "spvi's builtins need FLT_EVAL_METHOD == 0 (e.g. SSE2, not x87)");

/* ---- bit-level helpers ------------------------------------------------------------------------ */

#define H_CANON_NAN 0x7e00u
#define F_CANON_NAN 0x7fc00000u
#define D_CANON_NAN 0x7ff8000000000000ull

static inline uint32_t f_bits(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  return b;
}
static inline float f_from(uint32_t b) {
  float x;
  memcpy(&x, &b, 4);
  return x;
}
static inline uint64_t d_bits(double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  return b;
}
static inline double d_from(uint64_t b) {
  double x;
  memcpy(&x, &b, 8);
  return x;
}

static inline bool h_isnan(uint16_t h) { return (h & 0x7fffu) > 0x7c00u; }
static inline bool h_sign(uint16_t h) { return (h & 0x8000u) != 0; }
static inline uint16_t h_quiet(uint16_t h) { return (uint16_t)(h | 0x0200u); }
static inline float f_quiet(float x) { return f_from(f_bits(x) | 0x00400000u); }
static inline double d_quiet(double x) { return d_from(d_bits(x) | 0x0008000000000000ull); }

static inline float h2f(uint16_t h) { return bi_half_to_float(h); }
static inline double h2d(uint16_t h) { return bi_half_to_double(h); }
static inline uint16_t f2h(float x) { return bi_half_from_float(x, BI_RTE); }
static inline uint16_t d2h(double x) { return bi_half_from_double(x, BI_RTE); }

/* ---- fma, mad ----------------------------------------------------------------------------------
 * §6.15.2 fma: "the correctly rounded floating-point representation of the sum of c with the
 * infinitely precise product of a and b". mad "computes a * b + c"; the ULP table (§7.4) allows a
 * correctly rounded fma or a rounded multiply then add. spvi defines mad as exactly fma (fused, one
 * rounding) for every type, so a kernel's result never depends on which of the two was chosen.
 *
 * half and float: p = a*b is exact in double (11+11 or 24+24 significant bits <= 53, and the
 * product's magnitude, within [2^-48, 2^32] resp. [2^-298, 2^256] when non-zero, is inside double's
 * normal range). Knuth's TwoSum then gives s = RN(p + c) and t with s + t == p + c exactly (no
 * overflow is possible). From (s, t) we form the round-to-odd value RO(p + c) in 53 bits: s if t is
 * 0 or s is odd, else s's neighbour toward t (the exact sum lies strictly between the two, so one
 * of them is RO). Rounding a p-bit round-to-odd value to q <= p - 2 bits gives the correctly rounded
 * q-bit result (Boldo & Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms
 * using rounding to odd", IEEE TC 2008); here q = 11 or 24, and in the target's subnormal range the
 * double grid is still finer than the target quantum by far more than two bits. An exactly zero sum
 * gets its sign from the IEEE addition s = p + c (RN: +0 unless both are -0), as fma requires.
 * double: C11 F.10.10.1 specifies fma() as one correctly rounded ternary operation. */

static double sum_round_odd(double p, double c) {
  double s = p + c;
  const double bb = s - p;
  const double t = (p - (s - bb)) + (c - bb);
  if (t != 0) {
    uint64_t b = d_bits(s);
    if (!(b & 1)) {
      /* Incrementing the magnitude bits moves away from zero. s != 0 here: a zero s means the
       * exact sum was 0 (it is a multiple of 2^-298 otherwise, far above half a subnormal ulp). */
      b = ((t > 0) == (s > 0)) ? b + 1 : b - 1;
      s = d_from(b);
    }
  }
  return s;
}

static inline uint16_t fma_hs(uint16_t a, uint16_t b, uint16_t c) {
  if (h_isnan(a)) return h_quiet(a);
  if (h_isnan(b)) return h_quiet(b);
  if (h_isnan(c)) return h_quiet(c);
  const double p = h2d(a) * h2d(b), z = h2d(c);
  if (!isfinite(p) || !isfinite(z)) {
    const double s = p + z; /* exact: an infinity, or NaN for inf*0, inf-inf */
    return isnan(s) ? (uint16_t)H_CANON_NAN : d2h(s);
  }
  return d2h(sum_round_odd(p, z));
}

static inline float fma_fs(float a, float b, float c) {
  if (isnan(a)) return f_quiet(a);
  if (isnan(b)) return f_quiet(b);
  if (isnan(c)) return f_quiet(c);
  /* IEEE 754 fusedMultiplyAdd is one correctly rounded operation (C11 7.12.13.1), so every
   * conforming fmaf gives these bits; glibc uses the FMA instruction where the CPU has one. */
  const float r = fmaf(a, b, c);
  return isnan(r) ? f_from(F_CANON_NAN) : r;
}

static inline double fma_ds(double a, double b, double c) {
  if (isnan(a)) return d_quiet(a);
  if (isnan(b)) return d_quiet(b);
  if (isnan(c)) return d_quiet(c);
  const double r = fma(a, b, c);
  return isnan(r) ? d_from(D_CANON_NAN) : r;
}

/* ---- sqrt --------------------------------------------------------------------------------------
 * Correctly rounded for every type (§7.4 asks <= 3 ulp for float, CR for double, <= 1.5 ulp for
 * half; CR meets all). float/double: IEEE 754 squareRoot (C11 F.10.4.5), which is correctly rounded.
 * half: RN_half(RN_double(sqrt(x))) equals RN_half(sqrt(x)). Proof: let M be a half midpoint
 * (12 significant bits, odd last bit); scaling x by a power of 4 scales sqrt(x) and M by a power of
 * 2, so take M = b * 2^-11 with b odd, 2^11 < b < 2^12 (M in [1,2)). The inputs x with sqrt(x) near
 * M lie in [1,4), where halves (also scaled subnormals) are multiples of 2^-10, so
 * 2^22 * x is an even integer while 2^22 * M^2 = b^2 is odd: |x - M^2| >= 2^-22 and
 * |sqrt(x) - M| = |x - M^2| / (sqrt(x) + M) > 2^-22 / 4 = 2^-24, far more than the 2^-53 a double
 * rounding can move. So the double never reaches or crosses a midpoint and both roundings agree.
 * (sqrt of a half is never subnormal: sqrt(2^-24) = 2^-12.) */

static inline uint16_t sqrt_hs(uint16_t x) {
  if (h_isnan(x)) return h_quiet(x);
  if (h_sign(x) && (x & 0x7fffu)) return H_CANON_NAN; /* negative, not -0 */
  return d2h(sqrt(h2d(x)));
}
static inline float sqrt_fs(float x) {
  if (isnan(x)) return f_quiet(x);
  if (x < 0) return f_from(F_CANON_NAN);
  return sqrtf(x);
}
static inline double sqrt_ds(double x) {
  if (isnan(x)) return d_quiet(x);
  if (x < 0) return d_from(D_CANON_NAN);
  return sqrt(x);
}

/* ---- fabs, copysign (sign-bit operations, §6.15.2) ------------------------------------------- */

static inline uint16_t fabs_hs(uint16_t x) { return (uint16_t)(x & 0x7fffu); }
static inline float fabs_fs(float x) { return f_from(f_bits(x) & 0x7fffffffu); }
static inline double fabs_ds(double x) { return d_from(d_bits(x) & 0x7fffffffffffffffull); }

static inline uint16_t copysign_hs(uint16_t x, uint16_t y) { return (uint16_t)((x & 0x7fffu) | (y & 0x8000u)); }
static inline float copysign_fs(float x, float y) {
  return f_from((f_bits(x) & 0x7fffffffu) | (f_bits(y) & 0x80000000u));
}
static inline double copysign_ds(double x, double y) {
  return d_from((d_bits(x) & 0x7fffffffffffffffull) | (d_bits(y) & 0x8000000000000000ull));
}

/* ---- floor, ceil, trunc, rint, round (§6.15.2; exact, 0 ulp) ---------------------------------
 * The C11 functions are exact (F.10.6); rint rounds to nearest even in spvi's fixed RN mode, round
 * rounds halfway cases away from zero. For half, the float result is an integer of magnitude
 * <= 1024 or the half operand itself (halves >= 1024 are integers), so converting back is exact. */

#define ROUNDING_FNS(NAME, FLT_FN, DBL_FN)                                               \
  static inline float NAME##_fs(float x) { return isnan(x) ? f_quiet(x) : FLT_FN(x); }   \
  static inline double NAME##_ds(double x) { return isnan(x) ? d_quiet(x) : DBL_FN(x); } \
  static inline uint16_t NAME##_hs(uint16_t x) { return h_isnan(x) ? h_quiet(x) : f2h(FLT_FN(h2f(x))); }
ROUNDING_FNS(floor, floorf, floor)
ROUNDING_FNS(ceil, ceilf, ceil)
ROUNDING_FNS(trunc, truncf, trunc)
ROUNDING_FNS(rint, rintf, rint)
ROUNDING_FNS(round, roundf, round)

/* ---- fmin, fmax, fclamp -------------------------------------------------------------------------
 * §6.15.2: fmin returns y if y < x, otherwise x; fmax returns y if x < y, otherwise x; if one
 * argument is a NaN the other is returned, if both are NaN a NaN (here: x, quieted). The spec's
 * formula makes fmin(-0, +0) = -0 but fmin(+0, -0) = +0; the ULP table asks 0 ulp, which both zeros
 * satisfy. spvi fixes the order of zeros independently of the argument order, like IEEE 754-2019
 * minimumNumber/maximumNumber: fmin(±0, ∓0) = -0, fmax(±0, ∓0) = +0.
 * §6.15.4 clamp (OpenCL.std fclamp) is defined as fmin(fmax(x, minval), maxval). */

#define MINMAX_FNS(SFX, T, ISNAN, QUIET, LT, NEG)                             \
  static inline T fmin_##SFX(T x, T y) {                                      \
    if (ISNAN(x)) return ISNAN(y) ? QUIET(x) : y;                             \
    if (ISNAN(y)) return x;                                                   \
    if (LT(x, y)) return x;                                                   \
    if (LT(y, x)) return y;                                                   \
    return NEG(x) ? x : y; /* equal: identical, or zeros of opposite signs */ \
  }                                                                           \
  static inline T fmax_##SFX(T x, T y) {                                      \
    if (ISNAN(x)) return ISNAN(y) ? QUIET(x) : y;                             \
    if (ISNAN(y)) return x;                                                   \
    if (LT(x, y)) return y;                                                   \
    if (LT(y, x)) return x;                                                   \
    return NEG(x) ? y : x;                                                    \
  }                                                                           \
  static inline T fclamp_##SFX(T x, T lo, T hi) { return fmin_##SFX(fmax_##SFX(x, lo), hi); }

#define H_LT(a, b) (h2f(a) < h2f(b))
#define F_LT(a, b) ((a) < (b))
#define F_NEG(a) (signbit(a) != 0)
MINMAX_FNS(hs, uint16_t, h_isnan, h_quiet, H_LT, h_sign)
MINMAX_FNS(fs, float, isnan, f_quiet, F_LT, F_NEG)
MINMAX_FNS(ds, double, isnan, d_quiet, F_LT, F_NEG)

/* ---- sign, step (§6.15.4) ------------------------------------------------------------------------
 * sign: 1.0 if x > 0, -1.0 if x < 0, x itself for ±0, +0.0 for NaN.
 * step(edge, x): 0.0 if x < edge, otherwise 1.0 — so 1.0 when either operand is NaN. */

static inline uint16_t sign_hs(uint16_t x) {
  if (h_isnan(x)) return 0;
  if (!(x & 0x7fffu)) return x;
  return h_sign(x) ? 0xbc00u : 0x3c00u;
}
static inline float sign_fs(float x) { return isnan(x) ? 0.0f : x > 0 ? 1.0f : x < 0 ? -1.0f : x; }
static inline double sign_ds(double x) { return isnan(x) ? 0.0 : x > 0 ? 1.0 : x < 0 ? -1.0 : x; }

static inline uint16_t step_hs(uint16_t edge, uint16_t x) { return H_LT(x, edge) ? 0 : 0x3c00u; }
static inline float step_fs(float edge, float x) { return x < edge ? 0.0f : 1.0f; }
static inline double step_ds(double edge, double x) { return x < edge ? 0.0 : 1.0; }

/* ---- lane loops and rows ------------------------------------------------------------------------ */

#define FP1(NAME)                                 \
  BI_EW1(NAME##_h, uint16_t, uint16_t, NAME##_hs) \
  BI_EW1(NAME##_f, float, float, NAME##_fs) BI_EW1(NAME##_d, double, double, NAME##_ds)
#define FP2(NAME)                                 \
  BI_EW2(NAME##_h, uint16_t, uint16_t, NAME##_hs) \
  BI_EW2(NAME##_f, float, float, NAME##_fs) BI_EW2(NAME##_d, double, double, NAME##_ds)
#define FP3(NAME)                                 \
  BI_EW3(NAME##_h, uint16_t, uint16_t, NAME##_hs) \
  BI_EW3(NAME##_f, float, float, NAME##_fs) BI_EW3(NAME##_d, double, double, NAME##_ds)

FP3(fma)
FP1(sqrt)
FP1(fabs)
FP2(copysign)
FP1(floor)
FP1(ceil)
FP1(trunc)
FP1(rint)
FP1(round)
FP2(fmin)
FP2(fmax)
FP3(fclamp)
FP1(sign)
FP2(step)

static const bi_row rows[] = {
  {OCLSTD_fma, BI_SIG_F3, 0, BI_SLOTS_F(fma)},
  {OCLSTD_mad, BI_SIG_F3, 0, BI_SLOTS_F(fma)}, /* mad is fused: see above */
  {OCLSTD_sqrt, BI_SIG_F1, 0, BI_SLOTS_F(sqrt)},
  {OCLSTD_fabs, BI_SIG_F1, 0, BI_SLOTS_F(fabs)},
  {OCLSTD_copysign, BI_SIG_F2, 0, BI_SLOTS_F(copysign)},
  {OCLSTD_floor, BI_SIG_F1, 0, BI_SLOTS_F(floor)},
  {OCLSTD_ceil, BI_SIG_F1, 0, BI_SLOTS_F(ceil)},
  {OCLSTD_trunc, BI_SIG_F1, 0, BI_SLOTS_F(trunc)},
  {OCLSTD_rint, BI_SIG_F1, 0, BI_SLOTS_F(rint)},
  {OCLSTD_round, BI_SIG_F1, 0, BI_SLOTS_F(round)},
  {OCLSTD_fmin, BI_SIG_F2, 0, BI_SLOTS_F(fmin)},
  {OCLSTD_fmax, BI_SIG_F2, 0, BI_SLOTS_F(fmax)},
  {OCLSTD_fclamp, BI_SIG_F3, 0, BI_SLOTS_F(fclamp)},
  {OCLSTD_sign, BI_SIG_F1, 0, BI_SLOTS_F(sign)},
  {OCLSTD_step, BI_SIG_F2, 0, BI_SLOTS_F(step)},
};

const bi_rowset bi_rows_fp = {rows, sizeof rows / sizeof rows[0]};
