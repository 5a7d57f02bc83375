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

#include <mpfr.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* The binary formats, with their precision (significant bits), the exponent of the smallest
 * subnormal's unit (the finest quantum) and the first overflowing binade: values >= 2^emax are not
 * finite. */
typedef enum bi_fmt { BI_FMT_H, BI_FMT_F, BI_FMT_D } bi_fmt;
typedef struct bi_fmt_info { int prec, emin_ulp, emax; } bi_fmt_info;
extern const bi_fmt_info bi_fmts[3];

/* Canonical quiet NaNs (bi_fp.c's NaN policy: an invalid operation on non-NaN operands). */
#define BI_H_CANON 0x7e00u
#define BI_F_CANON 0x7fc00000u
#define BI_D_CANON 0x7ff8000000000000ull

static inline uint32_t bi_fbits(float x) { uint32_t b; memcpy(&b, &x, 4); return b; }
static inline float bi_ffrom(uint32_t b) { float x; memcpy(&x, &b, 4); return x; }
static inline uint64_t bi_dbits(double x) { uint64_t b; memcpy(&b, &x, 8); return b; }
static inline double bi_dfrom(uint64_t b) { double x; memcpy(&x, &b, 8); return x; }

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

#endif
