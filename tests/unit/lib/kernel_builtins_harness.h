/*
 * kernel_builtins_harness.h — helpers of the test_kernel_builtins_*.c programs (OpenCL.std builtins
 * called from OpenCL C kernels, tests/kernels/bi_*.cl, run through kernel_harness.h).
 *
 * Floating-point values are handled as bit patterns (uint64_t) of a format: half, float, double.
 * Expected values never come from spvi:
 *   - kb_mp*: MPFR evaluated at the format's precision with the format's exponent range
 *     (mpfr_set_emin/emax) and mpfr_subnormalize -- MPFR's documented recipe for correctly rounded
 *     IEEE results including subnormals;
 *   - kb_round_mp: rounding of an exact (high-precision) MPFR value to a format in any of the four
 *     IEEE rounding modes, written out by hand (scale to the quantum, round to an integer, apply
 *     the overflow rule of the mode);
 *   - kb_val / kb_enc: exact decoding/encoding of half, float and double bit patterns.
 * The NaN policy of spvi (spec-notes/builtins.md "NaN results"): a NaN operand comes back quieted
 * (the first NaN operand), an invalid operation gives the canonical quiet NaN.
 */
#ifndef KERNEL_BUILTINS_HARNESS_H
#define KERNEL_BUILTINS_HARNESS_H

/* kernel_harness.h brings <stdint.h>, which <mpfr.h> needs first for its intmax_t functions */
#include "kernel_harness.h"

#include <float.h>
#include <limits.h>
#include <mpfr.h>

/* ---- allocations freed by the teardown, also when a check fails ------------------------------ */
void *kb_alloc(size_t bytes); /* zero-filled */
/* The teardown of every builtins test: the kb_alloc() blocks, MPFR's caches, then kt_teardown. */
int kb_teardown(void **state);

#define KB_TEST(f) cmocka_unit_test_teardown(f, kb_teardown)

/* ---- deterministic randomness (the harness's splitmix64: kt_seed / kt_rand) ------------------- */
double kb_unif(void);                      /* [0, 1) */
int64_t kb_irange(int64_t lo, int64_t hi); /* [lo, hi] */

/* ---- formats --------------------------------------------------------------------------------- */
typedef enum kb_fmt { KB_H = 0, KB_F = 1, KB_D = 2 } kb_fmt;

typedef struct kb_fmtinfo {
  unsigned bits, prec, ebits;
  int emin_mp, emax_mp; /* MPFR's convention (significand in [1/2, 1)) */
  int emin_norm;        /* exponent of the smallest normal number: 2^emin_norm */
  const char *name;
} kb_fmtinfo;

extern const kb_fmtinfo kb_fi[3];

static inline size_t kb_bytes(kb_fmt f) { return kb_fi[f].bits / 8; }
static inline uint64_t kb_signbit(kb_fmt f) { return 1ull << (kb_fi[f].bits - 1); }
static inline uint64_t kb_mantmask(kb_fmt f) { return (1ull << (kb_fi[f].prec - 1)) - 1; }
static inline uint64_t kb_expmask(kb_fmt f) { return ((1ull << kb_fi[f].ebits) - 1) << (kb_fi[f].prec - 1); }
static inline uint64_t kb_qbit(kb_fmt f) { return 1ull << (kb_fi[f].prec - 2); }
static inline uint64_t kb_canon(kb_fmt f) { return kb_expmask(f) | kb_qbit(f); }
static inline uint64_t kb_inf(kb_fmt f) { return kb_expmask(f); }
static inline uint64_t kb_maxfin(kb_fmt f) { return kb_expmask(f) - 1; }
static inline bool kb_isnan(kb_fmt f, uint64_t u) {
  return (u & kb_expmask(f)) == kb_expmask(f) && (u & kb_mantmask(f)) != 0;
}
static inline bool kb_isinf(kb_fmt f, uint64_t u) { return (u & ~kb_signbit(f)) == kb_inf(f); }
static inline bool kb_iszero(kb_fmt f, uint64_t u) { return (u & ~kb_signbit(f)) == 0; }
static inline bool kb_neg(kb_fmt f, uint64_t u) { return (u & kb_signbit(f)) != 0; }
static inline uint64_t kb_quiet(kb_fmt f, uint64_t u) { return u | kb_qbit(f); }
static inline int kb_emax(kb_fmt f) { return (1 << (kb_fi[f].ebits - 1)) - 1; }

/* Exact value of a pattern as a double (every half/float/double value is a double). NaN: NAN. */
double kb_val(kb_fmt f, uint64_t u);
/* The pattern of a double value that is exactly representable in the format (asserted). */
uint64_t kb_enc(kb_fmt f, double d);

/* ---- MPFR helpers ----------------------------------------------------------------------------- */
void kb_mp_set(mpfr_ptr x, kb_fmt f, uint64_t u);

/* MPFR's exponent range narrowed to a format, and restored */
typedef struct kb_range_save {
  mpfr_exp_t emin, emax;
} kb_range_save;
kb_range_save kb_range_push(kb_fmt f);
void kb_range_pop(kb_range_save s);

/* finish a computation done in the narrowed range: check_range + subnormalize, pattern out */
uint64_t kb_mp_finish(kb_fmt f, mpfr_ptr r, int t, mpfr_rnd_t rnd);

typedef int (*kb_mpfn1)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
typedef int (*kb_mpfn2)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
typedef int (*kb_mpfnl)(mpfr_ptr, mpfr_srcptr, long, mpfr_rnd_t);

/* correctly rounded fn(x), fn(x, y), fn(x, n) in format f (round to nearest even) */
uint64_t kb_mp1(kb_fmt f, kb_mpfn1 fn, uint64_t x);
uint64_t kb_mp2(kb_fmt f, kb_mpfn2 fn, uint64_t x, uint64_t y);
uint64_t kb_mpl(kb_fmt f, kb_mpfnl fn, uint64_t x, long n);

/* One correctly rounded arithmetic operation in format f ('+', '-', '*', '/'), IEEE signs of
 * zero and NaN for invalid operations (MPFR follows IEEE 754 here); NaN operands give NaN. */
uint64_t kb_op(kb_fmt f, char op, uint64_t x, uint64_t y);

/* Rounds the exact value v (any precision, any exponent) to format f in mode rnd (MPFR_RNDN,
 * RNDZ, RNDU, RNDD), by hand (kernel_builtins_harness.c says how). */
uint64_t kb_round_mp(kb_fmt f, mpfr_srcptr v, mpfr_rnd_t rnd);
/* a double value rounded to format f in mode rnd; kb_from_d: to nearest */
uint64_t kb_round_d(kb_fmt f, double d, mpfr_rnd_t rnd);
uint64_t kb_from_d(kb_fmt f, double d);

/* ---- NaN policy: the NaN a function returns for these operands ------------------------------- */
/* ops[0..n): operand patterns in the output format (non-float operands: pass n excluding them) */
uint64_t kb_nan_policy(kb_fmt f, const uint64_t *ops, int n);

/* ---- packing ---------------------------------------------------------------------------------- */
/* patterns -> a native little-endian buffer of the format's element size (kb_alloc'd) */
void *kb_pack(kb_fmt f, const uint64_t *u, size_t n);
uint64_t kb_get(kb_fmt f, const void *buf, size_t i);
/* "0x1.8p+1 (0x4040)" */
void kb_fmtval(kb_fmt f, uint64_t u, char *out, size_t n);

/* ---- mismatch reporting ----------------------------------------------------------------------- */
/* Counts the mismatches of a check, prints the first `limit` of them; kb_report_end fails the
 * test when there was any. */
typedef struct kb_report {
  const kt_run *r;
  size_t bad, shown, limit;
} kb_report;

void kb_bad(kb_report *rep, const char *fmt, ...);
void kb_report_end(kb_report *rep, const char *what);

/* ---- input generation ------------------------------------------------------------------------- */
/* a random finite value of format f: |x| = 2^e * (1 + frac), e uniform in [elo, ehi] (clamped to
 * the format; below the normal range the value is subnormal), random sign unless `pos` */
uint64_t kb_rand_log(kb_fmt f, int elo, int ehi, bool pos);
/* uniform in [lo, hi] rounded to f */
uint64_t kb_rand_unif(kb_fmt f, double lo, double hi);
/* random bit pattern of the format (NaNs and infinities included, rarely) */
uint64_t kb_rand_bits(kb_fmt f);

/* Special operands, the same list for every format (patterns built per format). */
enum { KB_NSPEC = 34 };
uint64_t kb_special(kb_fmt f, unsigned i);
/* special operand pairs: all pairs of KB_NS2 of them */
enum { KB_NS2 = 13 };
uint64_t kb_special2(kb_fmt f, unsigned i);

/* ---- references shared by several functions ----------------------------------------------------- */
/* fmax/fmin as spvi defines them (builtins.md): a NaN operand gives the other one, two NaNs the
 * first, -0 < +0 */
uint64_t kb_fmaxmin(kb_fmt f, uint64_t x, uint64_t y, bool max);

/* ---- expected slots and the check of float results --------------------------------------------- */
#define KB_LOCAL 16 /* work-group size of every math launch; 7 does not divide it */

/* what one output element is: its function, operands, expected pattern */
typedef struct kb_slot {
  uint16_t fn;  /* index into the kernel's name list */
  uint8_t nops; /* float operands */
  bool has_int;
  uint64_t op[3];
  int64_t iop;
  uint64_t want;
} kb_slot;

typedef struct kb_outspec {
  int arg;
  bool is_int;         /* int32 elements (ilogb, frexp's exp, lgamma_r's sign, remquo's quo) */
  kb_fmt f;            /* float elements: the format */
  size_t count;        /* elements (slots) in the buffer */
  const kb_slot *slot; /* count entries; fn == UINT16_MAX: padding, not compared */
  const char *const *names;
} kb_outspec;

typedef struct kb_mcheck {
  kb_fmt f;
  int nout;
  kb_outspec out[3];
} kb_mcheck;

/* kt_case.check of the math-like launches (user: a kb_mcheck): every slot bit for bit */
void kb_check_math(const kt_run *r, void *u);
/* `count` slots (kb_alloc'd), all padding until filled */
kb_slot *kb_new_slots(size_t count);
/* a NaN expected in slot s: the NaN policy's one, unless `raw` (a sign operation passes it on) */
void kb_fix_nan(kb_fmt f, kb_slot *s, bool raw);

#endif
