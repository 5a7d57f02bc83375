/*
 * bi_int.c — the integer OpenCL.std instructions (OpenCL C 3.0 §6.15.3 "Integer Functions") for
 * 8/16/32/64-bit elements: s_/u_abs, abs_diff, add_sat, sub_sat, hadd, rhadd, clamp, max, min,
 * mul_hi, mad_hi, mad_sat, clz, ctz, popcount, rotate, upsample, and the 32-bit mul24/mad24
 * (§6.15.3 "Built-in 24-bit Integer Functions"). Owns their rows of the table.
 *
 * SPIR-V integers are signless; the s_/u_ prefix of the instruction says whether operands are
 * two's-complement signed or unsigned. Every scalar function takes the w-bit operands zero-extended
 * in a uint64_t (the width w is a compile-time constant after inlining) and returns a value whose
 * low w bits are the result. No step relies on signed overflow, on shifts by >= the width, or on
 * implementation-defined conversions: signed values are rebuilt with sext() and products that need
 * more than 64 bits use a 128-bit (hi, lo) pair built from 32-bit halves.
 */
#include "bi_impl.h"
#include "gen_spv_tables.h"

#include <stdbool.h>
#include <stdint.h>

static inline uint64_t wmask(unsigned w) { return w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1; }

/* The two's-complement value of the low w bits of v. A negative value v - 2^w is -1 - u with
 * u = ~v (low w bits) < 2^(w-1), so nothing overflows or converts out of range. */
static inline int64_t sext(uint64_t v, unsigned w) {
  v &= wmask(w);
  if (!(v >> (w - 1))) return (int64_t)v;
  return -1 - (int64_t)(~v & wmask(w));
}

static inline int64_t smax_w(unsigned w) { return (int64_t)(((uint64_t)1 << (w - 1)) - 1); }
static inline int64_t smin_w(unsigned w) { return -1 - smax_w(w); }

/* floor(v / 2^s) for 0 <= s < 64 (an arithmetic right shift, which C leaves
 * implementation-defined for negative v). */
static inline int64_t asr(int64_t v, unsigned s) { return v >= 0 ? v >> s : -1 - ((-1 - v) >> s); }

static inline int64_t clamp_s(int64_t v, unsigned w) {
  return v > smax_w(w) ? smax_w(w) : v < smin_w(w) ? smin_w(w) : v;
}

/* Full 64 x 64 -> 128-bit unsigned product as (hi, lo), from 32-bit halves. */
static inline uint64_t umul128(uint64_t x, uint64_t y, uint64_t *lo) {
  const uint64_t m = 0xffffffffu;
  const uint64_t x0 = x & m, x1 = x >> 32, y0 = y & m, y1 = y >> 32;
  const uint64_t p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
  const uint64_t mid = (p00 >> 32) + (p01 & m) + (p10 & m);
  *lo = (mid << 32) | (p00 & m);
  return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* Signed 64 x 64 -> 128: the unsigned product of the two's-complement patterns, minus
 * 2^64 * (y if x < 0) and 2^64 * (x if y < 0). */
static inline uint64_t smul128(uint64_t x, uint64_t y, uint64_t *lo) {
  uint64_t hi = umul128(x, y, lo);
  if (x >> 63) hi -= y;
  if (y >> 63) hi -= x;
  return hi;
}

/* ---- abs, abs_diff: the result is the unsigned magnitude (§6.15.3 "ugentype abs"), so
 * abs(INT_MIN) = 2^(w-1). */
static inline uint64_t s_abs_(uint64_t x, unsigned w) {
  const int64_t a = sext(x, w);
  return a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a;
}
static inline uint64_t u_abs_(uint64_t x, unsigned w) {
  (void)w;
  return x;
}
static inline uint64_t s_abs_diff_(uint64_t x, uint64_t y, unsigned w) {
  const int64_t a = sext(x, w), b = sext(y, w);
  /* |a - b| < 2^w; the unsigned difference modulo 2^64 is exact */
  return a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
}
static inline uint64_t u_abs_diff_(uint64_t x, uint64_t y, unsigned w) {
  (void)w;
  return x > y ? x - y : y - x;
}

/* ---- add_sat, sub_sat: saturate to the type's range. Below 64 bits the exact result fits int64;
 * at 64 bits overflow is detected from the signs (it happened iff the operands' signs make the
 * wrapped result's sign impossible). */
static inline uint64_t s_add_sat_(uint64_t x, uint64_t y, unsigned w) {
  if (w < 64) return (uint64_t)clamp_s(sext(x, w) + sext(y, w), w);
  const uint64_t r = x + y;
  if (((x ^ r) & (y ^ r)) >> 63) return (x >> 63) ? (uint64_t)1 << 63 : ~((uint64_t)1 << 63);
  return r;
}
static inline uint64_t u_add_sat_(uint64_t x, uint64_t y, unsigned w) {
  const uint64_t r = x + y;
  if (w < 64) return r > wmask(w) ? wmask(w) : r;
  return r < x ? ~(uint64_t)0 : r;
}
static inline uint64_t s_sub_sat_(uint64_t x, uint64_t y, unsigned w) {
  if (w < 64) return (uint64_t)clamp_s(sext(x, w) - sext(y, w), w);
  const uint64_t r = x - y;
  if (((x ^ y) & (x ^ r)) >> 63) return (x >> 63) ? (uint64_t)1 << 63 : ~((uint64_t)1 << 63);
  return r;
}
static inline uint64_t u_sub_sat_(uint64_t x, uint64_t y, unsigned w) {
  (void)w;
  return x > y ? x - y : 0;
}

/* ---- hadd, rhadd: (x + y) >> 1 and (x + y + 1) >> 1 without intermediate overflow, i.e.
 * floor((x + y) / 2) and floor((x + y + 1) / 2): halve each operand (floor) and add back the carry
 * of the two discarded low bits (both set for hadd, either set for rhadd). */
static inline uint64_t s_hadd_(uint64_t x, uint64_t y, unsigned w) {
  return (uint64_t)(asr(sext(x, w), 1) + asr(sext(y, w), 1)) + (x & y & 1);
}
static inline uint64_t u_hadd_(uint64_t x, uint64_t y, unsigned w) {
  (void)w;
  return (x >> 1) + (y >> 1) + (x & y & 1);
}
static inline uint64_t s_rhadd_(uint64_t x, uint64_t y, unsigned w) {
  return (uint64_t)(asr(sext(x, w), 1) + asr(sext(y, w), 1)) + ((x | y) & 1);
}
static inline uint64_t u_rhadd_(uint64_t x, uint64_t y, unsigned w) {
  (void)w;
  return (x >> 1) + (y >> 1) + ((x | y) & 1);
}

/* ---- max, min, clamp: max returns y if x < y, else x; min returns y if y < x, else x; clamp is
 * min(max(x, minval), maxval) (evaluated as written also when minval > maxval, which the spec leaves
 * undefined). */
static inline uint64_t s_max_(uint64_t x, uint64_t y, unsigned w) { return sext(x, w) < sext(y, w) ? y : x; }
static inline uint64_t u_max_(uint64_t x, uint64_t y, unsigned w) {
  (void)w;
  return x < y ? y : x;
}
static inline uint64_t s_min_(uint64_t x, uint64_t y, unsigned w) { return sext(y, w) < sext(x, w) ? y : x; }
static inline uint64_t u_min_(uint64_t x, uint64_t y, unsigned w) {
  (void)w;
  return y < x ? y : x;
}
static inline uint64_t s_clamp_(uint64_t x, uint64_t lo, uint64_t hi, unsigned w) {
  return s_min_(s_max_(x, lo, w), hi, w);
}
static inline uint64_t u_clamp_(uint64_t x, uint64_t lo, uint64_t hi, unsigned w) {
  return u_min_(u_max_(x, lo, w), hi, w);
}

/* ---- clz, ctz, popcount: clz(0) = ctz(0) = w (the component's width, not a promoted int's). */
static inline uint64_t clz_(uint64_t x, unsigned w) {
  unsigned n = 0;
  for (uint64_t bit = (uint64_t)1 << (w - 1); bit && !(x & bit); bit >>= 1) n++;
  return n;
}
static inline uint64_t ctz_(uint64_t x, unsigned w) {
  unsigned n = 0;
  while (n < w && !((x >> n) & 1)) n++;
  return n;
}
static inline uint64_t popcount_(uint64_t x, unsigned w) {
  (void)w;
  unsigned n = 0;
  for (; x; x &= x - 1) n++;
  return n;
}

/* ---- rotate: left by i taken modulo w (the shift-count rule of §6.5.10 "Shift Operators"), so a
 * negative count rotates right; bits leaving at the top re-enter at the bottom. */
static inline uint64_t rotate_(uint64_t x, uint64_t i, unsigned w) {
  const unsigned s = (unsigned)(i & (w - 1));
  if (s == 0) return x;
  return ((x << s) | (x >> (w - s))) & wmask(w);
}

/* ---- mul_hi, mad_hi: the high w bits of the 2w-bit product (+ c, wrapping). */
static inline uint64_t s_mul_hi_(uint64_t x, uint64_t y, unsigned w) {
  if (w < 64) return (uint64_t)asr(sext(x, w) * sext(y, w), w); /* |product| <= 2^62 */
  uint64_t lo;
  return smul128(x, y, &lo);
}
static inline uint64_t u_mul_hi_(uint64_t x, uint64_t y, unsigned w) {
  if (w < 64) return (x * y) >> w; /* product < 2^64 */
  uint64_t lo;
  return umul128(x, y, &lo);
}
static inline uint64_t s_mad_hi_(uint64_t a, uint64_t b, uint64_t c, unsigned w) { return s_mul_hi_(a, b, w) + c; }
static inline uint64_t u_mad_hi_(uint64_t a, uint64_t b, uint64_t c, unsigned w) { return u_mul_hi_(a, b, w) + c; }

/* ---- mad_sat: a * b + c, exact, then saturated. Up to 32 bits the exact value fits int64/uint64
 * (|a*b| <= 2^62, plus |c| <= 2^31; unsigned (2^32-1)^2 + 2^32-1 < 2^64); at 64 bits it is formed
 * in 128 bits and saturated when it does not fit 64. */
static inline uint64_t s_mad_sat_(uint64_t a, uint64_t b, uint64_t c, unsigned w) {
  if (w < 64) return (uint64_t)clamp_s(sext(a, w) * sext(b, w) + sext(c, w), w);
  uint64_t lo;
  uint64_t hi = smul128(a, b, &lo);
  const uint64_t lo2 = lo + c;
  hi += (lo2 < lo) + ((c >> 63) ? ~(uint64_t)0 : 0); /* carry, plus c sign-extended to 128 bits */
  const uint64_t ext = (lo2 >> 63) ? ~(uint64_t)0 : 0;
  if (hi == ext) return lo2;
  return (hi >> 63) ? (uint64_t)1 << 63 : ~((uint64_t)1 << 63);
}
static inline uint64_t u_mad_sat_(uint64_t a, uint64_t b, uint64_t c, unsigned w) {
  if (w < 64) {
    const uint64_t r = a * b + c;
    return r > wmask(w) ? wmask(w) : r;
  }
  uint64_t lo;
  const uint64_t hi = umul128(a, b, &lo);
  const uint64_t lo2 = lo + c;
  return (hi != 0 || lo2 < lo) ? ~(uint64_t)0 : lo2;
}

/* ---- mul24, mad24 (32-bit only): "only the low 24 bits are used"; outside [-2^23, 2^23-1]
 * (signed) or [0, 2^24-1] (unsigned) the result is implementation-defined. spvi's definition, which
 * is exact inside the ranges: signed operands are the low 24 bits sign-extended, unsigned ones the
 * low 24 bits; the product (|p| <= 2^46) is taken modulo 2^32, plus z modulo 2^32 for mad24. */
static inline uint64_t s_mul24_(uint64_t x, uint64_t y, unsigned w) {
  (void)w;
  return (uint64_t)(sext(x, 24) * sext(y, 24));
}
static inline uint64_t u_mul24_(uint64_t x, uint64_t y, unsigned w) {
  (void)w;
  return (x & 0xffffffu) * (y & 0xffffffu);
}
static inline uint64_t s_mad24_(uint64_t x, uint64_t y, uint64_t z, unsigned w) { return s_mul24_(x, y, w) + z; }
static inline uint64_t u_mad24_(uint64_t x, uint64_t y, uint64_t z, unsigned w) { return u_mul24_(x, y, w) + z; }

/* ---- upsample(hi, lo): (hi << w) | lo in 2w bits. s_upsample sign-extends hi first, but the
 * extension only affects bits >= 2w, which the 2w-bit result drops, so both forms are this. */
static inline uint64_t upsample_(uint64_t hi, uint64_t lo, unsigned w) { return (hi << w) | lo; }

/* ---- lane loops and rows ----------------------------------------------------------------------
 * INTk(NAME) instantiates, from the scalar function NAME##_(operands..., w), the bi_fns NAME##_8,
 * NAME##_16, NAME##_32 and NAME##_64 (the element type is the unsigned C type of that width). */
#define INT1_W(NAME, W, T)                                                 \
  static inline uint64_t NAME##_s##W(uint64_t x) { return NAME##_(x, W); } \
  BI_EW1(NAME##_##W, T, T, NAME##_s##W)
#define INT2_W(NAME, W, T)                                                                \
  static inline uint64_t NAME##_s##W(uint64_t x, uint64_t y) { return NAME##_(x, y, W); } \
  BI_EW2(NAME##_##W, T, T, NAME##_s##W)
#define INT3_W(NAME, W, T)                                                                               \
  static inline uint64_t NAME##_s##W(uint64_t x, uint64_t y, uint64_t z) { return NAME##_(x, y, z, W); } \
  BI_EW3(NAME##_##W, T, T, NAME##_s##W)
#define INT_ALLW(K, NAME)                                                                    \
  INT##K##_W(NAME, 8, uint8_t) INT##K##_W(NAME, 16, uint16_t) INT##K##_W(NAME, 32, uint32_t) \
    INT##K##_W(NAME, 64, uint64_t)

INT_ALLW(1, s_abs)
INT_ALLW(1, u_abs)
INT_ALLW(2, s_abs_diff)
INT_ALLW(2, u_abs_diff)
INT_ALLW(2, s_add_sat)
INT_ALLW(2, u_add_sat)
INT_ALLW(2, s_sub_sat)
INT_ALLW(2, u_sub_sat)
INT_ALLW(2, s_hadd)
INT_ALLW(2, u_hadd)
INT_ALLW(2, s_rhadd)
INT_ALLW(2, u_rhadd)
INT_ALLW(2, s_max)
INT_ALLW(2, u_max)
INT_ALLW(2, s_min)
INT_ALLW(2, u_min)
INT_ALLW(3, s_clamp)
INT_ALLW(3, u_clamp)
INT_ALLW(1, clz)
INT_ALLW(1, ctz)
INT_ALLW(1, popcount)
INT_ALLW(2, rotate)
INT_ALLW(2, s_mul_hi)
INT_ALLW(2, u_mul_hi)
INT_ALLW(3, s_mad_hi)
INT_ALLW(3, u_mad_hi)
INT_ALLW(3, s_mad_sat)
INT_ALLW(3, u_mad_sat)
INT2_W(s_mul24, 32, uint32_t)
INT2_W(u_mul24, 32, uint32_t)
INT3_W(s_mad24, 32, uint32_t)
INT3_W(u_mad24, 32, uint32_t)

/* upsample: the result elements are twice as wide as the operands'. */
#define UPSAMPLE_W(W, TR, TA)                                                                     \
  static inline uint64_t upsample_s##W(uint64_t hi, uint64_t lo) { return upsample_(hi, lo, W); } \
  BI_EW2(upsample_##W, TR, TA, upsample_s##W)
UPSAMPLE_W(8, uint16_t, uint8_t)
UPSAMPLE_W(16, uint32_t, uint16_t)
UPSAMPLE_W(32, uint64_t, uint32_t)

#define ONLY32(p) \
  { [BI_T_I32] = p##_32 }

static const bi_row rows[] = {
  {OCLSTD_s_abs, BI_SIG_I1, 0, BI_SLOTS_I(s_abs)},
  {OCLSTD_u_abs, BI_SIG_I1, 0, BI_SLOTS_I(u_abs)},
  {OCLSTD_s_abs_diff, BI_SIG_I2, 0, BI_SLOTS_I(s_abs_diff)},
  {OCLSTD_u_abs_diff, BI_SIG_I2, 0, BI_SLOTS_I(u_abs_diff)},
  {OCLSTD_s_add_sat, BI_SIG_I2, 0, BI_SLOTS_I(s_add_sat)},
  {OCLSTD_u_add_sat, BI_SIG_I2, 0, BI_SLOTS_I(u_add_sat)},
  {OCLSTD_s_sub_sat, BI_SIG_I2, 0, BI_SLOTS_I(s_sub_sat)},
  {OCLSTD_u_sub_sat, BI_SIG_I2, 0, BI_SLOTS_I(u_sub_sat)},
  {OCLSTD_s_hadd, BI_SIG_I2, 0, BI_SLOTS_I(s_hadd)},
  {OCLSTD_u_hadd, BI_SIG_I2, 0, BI_SLOTS_I(u_hadd)},
  {OCLSTD_s_rhadd, BI_SIG_I2, 0, BI_SLOTS_I(s_rhadd)},
  {OCLSTD_u_rhadd, BI_SIG_I2, 0, BI_SLOTS_I(u_rhadd)},
  {OCLSTD_s_max, BI_SIG_I2, 0, BI_SLOTS_I(s_max)},
  {OCLSTD_u_max, BI_SIG_I2, 0, BI_SLOTS_I(u_max)},
  {OCLSTD_s_min, BI_SIG_I2, 0, BI_SLOTS_I(s_min)},
  {OCLSTD_u_min, BI_SIG_I2, 0, BI_SLOTS_I(u_min)},
  {OCLSTD_s_clamp, BI_SIG_I3, 0, BI_SLOTS_I(s_clamp)},
  {OCLSTD_u_clamp, BI_SIG_I3, 0, BI_SLOTS_I(u_clamp)},
  {OCLSTD_clz, BI_SIG_I1, 0, BI_SLOTS_I(clz)},
  {OCLSTD_ctz, BI_SIG_I1, 0, BI_SLOTS_I(ctz)},
  {OCLSTD_popcount, BI_SIG_I1, 0, BI_SLOTS_I(popcount)},
  {OCLSTD_rotate, BI_SIG_I2, 0, BI_SLOTS_I(rotate)},
  {OCLSTD_s_mul_hi, BI_SIG_I2, 0, BI_SLOTS_I(s_mul_hi)},
  {OCLSTD_u_mul_hi, BI_SIG_I2, 0, BI_SLOTS_I(u_mul_hi)},
  {OCLSTD_s_mad_hi, BI_SIG_I3, 0, BI_SLOTS_I(s_mad_hi)},
  {OCLSTD_u_mad_hi, BI_SIG_I3, 0, BI_SLOTS_I(u_mad_hi)},
  {OCLSTD_s_mad_sat, BI_SIG_I3, 0, BI_SLOTS_I(s_mad_sat)},
  {OCLSTD_u_mad_sat, BI_SIG_I3, 0, BI_SLOTS_I(u_mad_sat)},
  {OCLSTD_s_mul24, BI_SIG_I2, 0, ONLY32(s_mul24)},
  {OCLSTD_u_mul24, BI_SIG_I2, 0, ONLY32(u_mul24)},
  {OCLSTD_s_mad24, BI_SIG_I3, 0, ONLY32(s_mad24)},
  {OCLSTD_u_mad24, BI_SIG_I3, 0, ONLY32(u_mad24)},
  /* key = hi: slots by the operand width; the result is twice as wide */
  {OCLSTD_s_upsample, BI_SIG_UPSAMPLE, 0, {[BI_T_I8] = upsample_8, [BI_T_I16] = upsample_16, [BI_T_I32] = upsample_32}},
  {OCLSTD_u_upsample, BI_SIG_UPSAMPLE, 0, {[BI_T_I8] = upsample_8, [BI_T_I16] = upsample_16, [BI_T_I32] = upsample_32}},
};

const bi_rowset bi_rows_int = {rows, sizeof rows / sizeof rows[0]};
