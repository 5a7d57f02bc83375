/*
 * builtins_harness.h — helpers shared by the test_builtins*.c and test_printf.c programs: bi_type
 * constructors, resolve wrappers, a fake warp (per-operand registers for several lanes at deliberately odd,
 * misaligning strides), a fake bounds-checked bi_mem, a batch runner for elementwise instructions
 * (scalar cases packed into vector components across lanes), and an MPFR-based binary16/32/64
 * rounding reference whose bit encoding is written independently of builtins/bi_half.c.
 */
#ifndef BUILTINS_HARNESS_H
#define BUILTINS_HARNESS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>
#include <mpfr.h>

#include "bi.h"
#include "bi_half.h"
#include "gen_spv_tables.h"

/* ---- types ------------------------------------------------------------------------------------ */

static inline bi_type ty(bi_kind kind, unsigned bits, unsigned n) {
  bi_type t = {.kind = kind, .bits = (uint8_t)bits, .ncomp = (uint8_t)n};
  return t;
}
static inline bi_type tf(unsigned bits, unsigned n) { return ty(BI_FLOAT, bits, n); }
static inline bi_type ti(unsigned bits, unsigned n) { return ty(BI_INT, bits, n); }
static inline bi_type tvoid(void) { return ty(BI_VOID, 0, 0); }
static inline bi_type tptr(unsigned ptrbits, bi_kind pk, unsigned pbits) {
  bi_type t = {.kind = BI_PTR,
               .bits = (uint8_t)ptrbits,
               .ncomp = 1,
               .pointee_kind = pk,
               .pointee_bits = (uint8_t)pbits,
               .pointee_ncomp = (uint8_t)(pk == BI_VOID ? 0 : 1),
               .storage = 5 /* CrossWorkgroup */};
  return t;
}

bi_resolved must_resolve(uint32_t op, bi_type res, const bi_type *args, unsigned nargs, uint32_t lit);

/* Resolution must fail with exactly `msg`. */
void expect_resolve_error(uint32_t op, bi_type res, const bi_type *args, unsigned nargs, uint32_t lit, const char *msg);

/* ---- fake warp ----------------------------------------------------------------------------------- */

#define W_LANES 5
#define W_SLOT 160 /* > 16 components * 8 bytes + the odd padding below */
#define W_SENTINEL 0xA5

typedef struct warp {
  uint8_t dst[W_LANES * W_SLOT];
  uint8_t src[6][W_LANES * W_SLOT];
  uint32_t dst_stride, src_stride[6];
  uint16_t lanes[W_LANES];
  uint32_t nlanes;
} warp;

/* Strides are the register's size plus an odd amount, so lane copies sit at addresses that are
 * misaligned for the element type (the builtins must use memcpy), and differ per operand. */
void warp_init(warp *w, unsigned dst_bytes, const unsigned *src_bytes, unsigned nsrc);

static inline uint8_t *w_src(warp *w, unsigned i, unsigned lane) { return w->src[i] + lane * w->src_stride[i]; }
static inline uint8_t *w_dst(warp *w, unsigned lane) { return w->dst + lane * w->dst_stride; }

bool warp_call(const bi_resolved *r, warp *w, const bi_mem *mem);

/* Element access by byte size (1, 2, 4, 8), host byte order like the registers. */
void put_elem(uint8_t *p, unsigned bytes, uint64_t v);
uint64_t get_elem(const uint8_t *p, unsigned bytes);

static inline uint32_t fbits(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}
static inline uint64_t dbits(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  return b;
}
static inline float bfloat(uint32_t b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}
static inline double bdouble(uint64_t b) {
  double d;
  memcpy(&d, &b, 8);
  return d;
}

/* Deterministic pseudo-random numbers (xorshift64*), so failures reproduce. */
uint64_t rng_next(uint64_t *s);

/* ---- elementwise batch runner --------------------------------------------------------------------
 * Runs `op` with result and operand type (kind, bits, n) — operand types may differ from the result
 * only through `argbits` (0 = same as the result) — on `count` scalar cases given as bit patterns
 * in[i][case], packing n components per lane over W_LANES lanes per call; checks every result
 * against want[case] and that nothing beyond the n result components was written. `eq` may
 * relax the comparison (NULL: bit-exact). */
typedef bool (*elem_eq)(uint64_t got, uint64_t want);

void run_ew(uint32_t op, bi_kind kind, unsigned bits, unsigned n, unsigned nargs, const uint64_t *const *in,
            const uint64_t *want, size_t count, elem_eq eq);

/* The same cases through every vector width. */
void run_ew_all_widths(uint32_t op, bi_kind kind, unsigned bits, unsigned nargs, const uint64_t *const *in,
                       const uint64_t *want, size_t count, elem_eq eq);

/* ---- fake memory ----------------------------------------------------------------------------- */

typedef struct fake_mem {
  bi_mem mem;
  uint8_t *buf;
  uint64_t base, size;
  bool read_only;
  unsigned calls, faults, fault_lane;
  uint64_t last_ptr, last_bytes;
} fake_mem;

/* A bi_mem over `buf` at address `base` (`size` bytes) that counts its calls and faults. */
void fake_mem_init(fake_mem *f, uint8_t *buf, uint64_t base, uint64_t size);

/* ---- MPFR rounding reference ---------------------------------------------------------------------
 * ref_fmt selects an IEEE binary format; ref_begin() sets MPFR's exponent range to it so that
 * operations on mpfr_t variables of the format's precision round exactly like the format (with
 * mpfr_subnormalize for gradual underflow), and ref_end() restores the default range. */
typedef struct ref_fmt {
  mpfr_prec_t prec;
  mpfr_exp_t emin, emax;
} ref_fmt;
extern const ref_fmt REF_HALF, REF_FLOAT, REF_DOUBLE;

void ref_begin(ref_fmt f);
void ref_end(void);

mpfr_rnd_t ref_rnd(bi_round r);

/* The value of half bits h, built with ldexp (independent of bi_half.c); NaN for NaNs. */
double ref_half_value(uint16_t h);

/* Encode a binary16 value held exactly in x (precision 11, in range, not NaN) as bits, from first
 * principles: subnormals are k * 2^-24; normals f * 2^e (frexp) with f in [0.5, 1). */
uint16_t ref_encode_half(const mpfr_t x);

#endif
