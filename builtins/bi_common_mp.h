/*
 * bi_common_mp.h — exact-arithmetic helpers shared by bi_exact.c, bi_common.c and bi_geom.c: bit
 * access, the three IEEE binary formats spvi computes in (half, float, double), exact composition of
 * m * 2^e with one correct rounding, certified rounding of an enclosure, and the MPFR fallback that
 * rounds an exactly known (or tightly enclosed) value to a format with gradual underflow.
 *
 * Every helper rounds to nearest, ties to even (OpenCL C 3.0 §6.15.2: the math functions "always
 * return the same value as they would if called with the round to nearest even rounding mode"),
 * honours subnormals, and overflows to infinity exactly where IEEE 754-2008 §7.4 says RN does.
 */
#ifndef BI_COMMON_MP_H
#define BI_COMMON_MP_H

#include <math.h>
#include <mpfr.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "bi_half.h"

/* The binary formats, with their precision (significant bits), the exponent of the smallest
 * subnormal's unit (the finest quantum) and the first overflowing binade: values >= 2^emax are not
 * finite. */
typedef enum bi_fmt { BI_FMT_H, BI_FMT_F, BI_FMT_D } bi_fmt;
typedef struct bi_fmt_info {
  int prec, emin_ulp, emax;
} bi_fmt_info;
extern const bi_fmt_info bi_fmts[3];

/* Canonical quiet NaNs (bi_fp.c's NaN policy: an invalid operation on non-NaN operands). */
#define BI_H_CANON 0x7e00u
#define BI_F_CANON 0x7fc00000u
#define BI_D_CANON 0x7ff8000000000000ull

static inline uint32_t bi_fbits(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  return b;
}
static inline float bi_ffrom(uint32_t b) {
  float x;
  memcpy(&x, &b, 4);
  return x;
}
static inline uint64_t bi_dbits(double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  return b;
}
static inline double bi_dfrom(uint64_t b) {
  double x;
  memcpy(&x, &b, 8);
  return x;
}

/* 2^u for -1074 <= u <= 1023, built from its bits (no libm, exact). */
double bi_pow2(int u);

/* The exact value of a finite non-zero double as m * 2^e, m a positive integer below 2^53. */
void bi_decompose(double x, uint64_t *m, int *e);

/* RN(+-m * 2^e) in format f, returned as a double holding that format's value exactly (or +-inf on
 * overflow). Any m (up to 2^64 - 1) and any e: this is ldexp with one rounding. */
double bi_compose(bool neg, uint64_t m, int64_t e, bi_fmt f);

/* RN of a double to format f, as a double (exact for BI_FMT_D; one IEEE conversion otherwise). */
double bi_round_to(double v, bi_fmt f);

/* Certified rounding from an enclosure: if the exact value v is known to satisfy lo <= v <= hi and
 * both bounds round to the same value of format f, that value is RN(v) (rounding is monotonic); it
 * is stored in *out and true returned. false: the enclosure straddles a rounding boundary. */
bool bi_cert_interval(double lo, double hi, bi_fmt f, double *out);

/* The same for a double result from a double-double approximation: s = RN(s + t) and
 * |v - (s + t)| <= err. true (and *out = s) when v certainly lies strictly inside s's rounding
 * interval; false for zero, subnormal, huge or non-finite s and whenever it cannot be decided. */
bool bi_cert_dd(double s, double t, double err, double *out);

/* RN of the exact value of an MPFR number to format f (subnormals, overflow to inf), as a double. */
double bi_mp_round(mpfr_srcptr v, bi_fmt f);

/* Enclosure refinement with MPFR: `bounds(lo, hi, ctx)` must set lo <= v <= hi for the exact value
 * v at the precision lo and hi were initialised with (lo == hi when it can compute v exactly).
 * Called at increasing precisions until both bounds round to the same value of format f, which is
 * returned. Terminates whenever v is irrational or the enclosure becomes exact at some precision. */
typedef void (*bi_mp_bounds_fn)(mpfr_ptr lo, mpfr_ptr hi, const void *ctx);
double bi_mp_refine(bi_mp_bounds_fn bounds, const void *ctx, bi_fmt f);


/* ---- per-format traits for type-generic code -----------------------------------------------------
 * Suffixes hs / fs / ds: half (bit pattern in uint16_t), float, double. tod widens exactly; fromd
 * converts a double holding a value of the format (exact) or rounds it once to nearest even; the
 * arithmetic rounds once in the format (half operations are exact in double first: both operands
 * are multiples of 2^-24 below 2^16, and a product of two halves has at most 22 significant bits;
 * a half quotient in double then rounded to half is correctly rounded since 53 >= 2*11 + 2). */
static inline double tod_hs(uint16_t x) { return bi_half_to_double(x); }
static inline double tod_fs(float x) { return x; }
static inline double tod_ds(double x) { return x; }
static inline uint16_t fromd_hs(double v) { return bi_half_from_double(v, BI_RTE); }
static inline float fromd_fs(double v) { return (float)v; }
static inline double fromd_ds(double v) { return v; }
static inline bool isnan_hs(uint16_t x) { return (x & 0x7fffu) > 0x7c00u; }
static inline bool isnan_fs(float x) { return isnan(x); }
static inline bool isnan_ds(double x) { return isnan(x); }
static inline uint16_t quiet_hs(uint16_t x) { return (uint16_t)(x | 0x0200u); }
static inline float quiet_fs(float x) { return bi_ffrom(bi_fbits(x) | 0x00400000u); }
static inline double quiet_ds(double x) { return bi_dfrom(bi_dbits(x) | 0x0008000000000000ull); }
static inline uint16_t canon_hs(void) { return BI_H_CANON; }
static inline float canon_fs(void) { return bi_ffrom(BI_F_CANON); }
static inline double canon_ds(void) { return bi_dfrom(BI_D_CANON); }
static inline uint16_t add_hs(uint16_t a, uint16_t b) { return fromd_hs(tod_hs(a) + tod_hs(b)); }
static inline uint16_t sub_hs(uint16_t a, uint16_t b) { return fromd_hs(tod_hs(a) - tod_hs(b)); }
static inline uint16_t mul_hs(uint16_t a, uint16_t b) { return fromd_hs(tod_hs(a) * tod_hs(b)); }
static inline uint16_t div_hs(uint16_t a, uint16_t b) { return fromd_hs(tod_hs(a) / tod_hs(b)); }
static inline float add_fs(float a, float b) { return a + b; }
static inline float sub_fs(float a, float b) { return a - b; }
static inline float mul_fs(float a, float b) { return a * b; }
static inline float div_fs(float a, float b) { return a / b; }
static inline double add_ds(double a, double b) { return a + b; }
static inline double sub_ds(double a, double b) { return a - b; }
static inline double mul_ds(double a, double b) { return a * b; }
static inline double div_ds(double a, double b) { return a / b; }

/* Instantiates one type-generic definition M(suffix, C type, format tag) for the three formats; the
 * bodies are identical up to those. */
#define FOR_FORMATS(M) M(hs, uint16_t, BI_FMT_H) M(fs, float, BI_FMT_F) M(ds, double, BI_FMT_D)

/* Number of significant bits of m (0 for 0). */
static inline int bitlen(uint64_t m) {
  int n = 0;
  for (; m; m >>= 1) n++;
  return n;
}

#endif
