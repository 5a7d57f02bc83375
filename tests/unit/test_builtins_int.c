/*
 * test_builtins_int.c — the integer OpenCL.std instructions for every width (8/16/32/64) and vector
 * width (1, 2, 3, 4, 8, 16), against references written directly from the spec text with 128-bit
 * arithmetic (exact values, then clamped or reduced modulo 2^w) and compiler bit-count builtins —
 * a different formulation from builtins/bi_int.c — plus hand-derived boundary values.
 */
#include "builtins_harness.h"

#include <stdlib.h>

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

static u128 m128(unsigned w) { return ((u128)1 << w) - 1; }
static i128 sv(uint64_t x, unsigned w) { /* the signed value of the low w bits */
  i128 v = (i128)(x & m128(w));
  if (v >= (i128)1 << (w - 1)) v -= (i128)1 << w;
  return v;
}
static i128 uv(uint64_t x, unsigned w) { return (i128)(x & m128(w)); }
static uint64_t pat(i128 v, unsigned w) { return (uint64_t)((u128)v & m128(w)); } /* v mod 2^w */
static i128 smin(unsigned w) { return -((i128)1 << (w - 1)); }
static i128 smax(unsigned w) { return ((i128)1 << (w - 1)) - 1; }
static i128 umax(unsigned w) { return ((i128)1 << w) - 1; }
static i128 clampi(i128 v, i128 lo, i128 hi) { return v < lo ? lo : v > hi ? hi : v; }
static i128 absi(i128 v) { return v < 0 ? -v : v; }
static i128 fdiv(i128 v, i128 d) { /* floor(v / d), d > 0 */
  i128 q = v / d;
  if (v % d != 0 && v < 0) q--;
  return q;
}
static i128 imax(i128 x, i128 y) { return x < y ? y : x; } /* §6.15.3: y if x < y, else x */
static i128 imin(i128 x, i128 y) { return y < x ? y : x; } /* y if y < x, else x */

typedef uint64_t (*ref_fn)(const uint64_t *a, unsigned w);

static uint64_t r_s_abs(const uint64_t *a, unsigned w) { return pat(absi(sv(a[0], w)), w); }
static uint64_t r_u_abs(const uint64_t *a, unsigned w) { return pat(uv(a[0], w), w); }
static uint64_t r_s_abs_diff(const uint64_t *a, unsigned w) { return pat(absi(sv(a[0], w) - sv(a[1], w)), w); }
static uint64_t r_u_abs_diff(const uint64_t *a, unsigned w) { return pat(absi(uv(a[0], w) - uv(a[1], w)), w); }
static uint64_t r_s_add_sat(const uint64_t *a, unsigned w) {
  return pat(clampi(sv(a[0], w) + sv(a[1], w), smin(w), smax(w)), w);
}
static uint64_t r_u_add_sat(const uint64_t *a, unsigned w) {
  return pat(clampi(uv(a[0], w) + uv(a[1], w), 0, umax(w)), w);
}
static uint64_t r_s_sub_sat(const uint64_t *a, unsigned w) {
  return pat(clampi(sv(a[0], w) - sv(a[1], w), smin(w), smax(w)), w);
}
static uint64_t r_u_sub_sat(const uint64_t *a, unsigned w) {
  return pat(clampi(uv(a[0], w) - uv(a[1], w), 0, umax(w)), w);
}
static uint64_t r_s_hadd(const uint64_t *a, unsigned w) { return pat(fdiv(sv(a[0], w) + sv(a[1], w), 2), w); }
static uint64_t r_u_hadd(const uint64_t *a, unsigned w) { return pat(fdiv(uv(a[0], w) + uv(a[1], w), 2), w); }
static uint64_t r_s_rhadd(const uint64_t *a, unsigned w) { return pat(fdiv(sv(a[0], w) + sv(a[1], w) + 1, 2), w); }
static uint64_t r_u_rhadd(const uint64_t *a, unsigned w) { return pat(fdiv(uv(a[0], w) + uv(a[1], w) + 1, 2), w); }
static uint64_t r_s_max(const uint64_t *a, unsigned w) { return pat(imax(sv(a[0], w), sv(a[1], w)), w); }
static uint64_t r_u_max(const uint64_t *a, unsigned w) { return pat(imax(uv(a[0], w), uv(a[1], w)), w); }
static uint64_t r_s_min(const uint64_t *a, unsigned w) { return pat(imin(sv(a[0], w), sv(a[1], w)), w); }
static uint64_t r_u_min(const uint64_t *a, unsigned w) { return pat(imin(uv(a[0], w), uv(a[1], w)), w); }
static uint64_t r_s_clamp(const uint64_t *a, unsigned w) {
  return pat(imin(imax(sv(a[0], w), sv(a[1], w)), sv(a[2], w)), w);
}
static uint64_t r_u_clamp(const uint64_t *a, unsigned w) {
  return pat(imin(imax(uv(a[0], w), uv(a[1], w)), uv(a[2], w)), w);
}
static uint64_t r_clz(const uint64_t *a, unsigned w) {
  const uint64_t x = (uint64_t)uv(a[0], w);
  return x == 0 ? w : (uint64_t)__builtin_clzll(x) - (64 - w);
}
static uint64_t r_ctz(const uint64_t *a, unsigned w) {
  const uint64_t x = (uint64_t)uv(a[0], w);
  return x == 0 ? w : (uint64_t)__builtin_ctzll(x);
}
static uint64_t r_popcount(const uint64_t *a, unsigned w) {
  return (uint64_t)__builtin_popcountll((uint64_t)uv(a[0], w));
}
static uint64_t r_rotate(const uint64_t *a, unsigned w) {
  /* bit j of the result is bit (j - s) mod w of x, s = the count modulo w */
  const uint64_t x = (uint64_t)uv(a[0], w), s = (uint64_t)uv(a[1], w) % w;
  uint64_t r = 0;
  for (unsigned j = 0; j < w; j++) r |= ((x >> ((j + w - s) % w)) & 1) << j;
  return r;
}
static uint64_t r_s_mul_hi(const uint64_t *a, unsigned w) {
  return pat(fdiv(sv(a[0], w) * sv(a[1], w), (i128)1 << w), w);
}
static uint64_t r_u_mul_hi(const uint64_t *a, unsigned w) {
  return (uint64_t)(((u128)uv(a[0], w) * (u128)uv(a[1], w)) >> w);
}
static uint64_t r_s_mad_hi(const uint64_t *a, unsigned w) {
  return pat(fdiv(sv(a[0], w) * sv(a[1], w), (i128)1 << w) + sv(a[2], w), w);
}
static uint64_t r_u_mad_hi(const uint64_t *a, unsigned w) {
  return pat((i128)(((u128)uv(a[0], w) * (u128)uv(a[1], w)) >> w) + uv(a[2], w), w);
}
static uint64_t r_s_mad_sat(const uint64_t *a, unsigned w) {
  return pat(clampi(sv(a[0], w) * sv(a[1], w) + sv(a[2], w), smin(w), smax(w)), w);
}
static uint64_t r_u_mad_sat(const uint64_t *a, unsigned w) {
  const u128 v = (u128)uv(a[0], w) * (u128)uv(a[1], w) + (u128)uv(a[2], w); /* < 2^128 */
  return v > (u128)umax(w) ? (uint64_t)umax(w) : (uint64_t)v;
}
static uint64_t r_s_mul24(const uint64_t *a, unsigned w) {
  (void)w;
  return pat(sv(a[0], 24) * sv(a[1], 24), 32);
}
static uint64_t r_u_mul24(const uint64_t *a, unsigned w) {
  (void)w;
  return pat(uv(a[0], 24) * uv(a[1], 24), 32);
}
static uint64_t r_s_mad24(const uint64_t *a, unsigned w) {
  (void)w;
  return pat(sv(a[0], 24) * sv(a[1], 24) + sv(a[2], 32), 32);
}
static uint64_t r_u_mad24(const uint64_t *a, unsigned w) {
  (void)w;
  return pat(uv(a[0], 24) * uv(a[1], 24) + uv(a[2], 32), 32);
}

typedef struct {
  uint32_t op;
  unsigned nargs;
  ref_fn ref;
  bool only32;
} int_op;
static const int_op OPS[] = {
  {OCLSTD_s_abs, 1, r_s_abs, false},
  {OCLSTD_u_abs, 1, r_u_abs, false},
  {OCLSTD_s_abs_diff, 2, r_s_abs_diff, false},
  {OCLSTD_u_abs_diff, 2, r_u_abs_diff, false},
  {OCLSTD_s_add_sat, 2, r_s_add_sat, false},
  {OCLSTD_u_add_sat, 2, r_u_add_sat, false},
  {OCLSTD_s_sub_sat, 2, r_s_sub_sat, false},
  {OCLSTD_u_sub_sat, 2, r_u_sub_sat, false},
  {OCLSTD_s_hadd, 2, r_s_hadd, false},
  {OCLSTD_u_hadd, 2, r_u_hadd, false},
  {OCLSTD_s_rhadd, 2, r_s_rhadd, false},
  {OCLSTD_u_rhadd, 2, r_u_rhadd, false},
  {OCLSTD_s_max, 2, r_s_max, false},
  {OCLSTD_u_max, 2, r_u_max, false},
  {OCLSTD_s_min, 2, r_s_min, false},
  {OCLSTD_u_min, 2, r_u_min, false},
  {OCLSTD_s_clamp, 3, r_s_clamp, false},
  {OCLSTD_u_clamp, 3, r_u_clamp, false},
  {OCLSTD_clz, 1, r_clz, false},
  {OCLSTD_ctz, 1, r_ctz, false},
  {OCLSTD_popcount, 1, r_popcount, false},
  {OCLSTD_rotate, 2, r_rotate, false},
  {OCLSTD_s_mul_hi, 2, r_s_mul_hi, false},
  {OCLSTD_u_mul_hi, 2, r_u_mul_hi, false},
  {OCLSTD_s_mad_hi, 3, r_s_mad_hi, false},
  {OCLSTD_u_mad_hi, 3, r_u_mad_hi, false},
  {OCLSTD_s_mad_sat, 3, r_s_mad_sat, false},
  {OCLSTD_u_mad_sat, 3, r_u_mad_sat, false},
  {OCLSTD_s_mul24, 2, r_s_mul24, true},
  {OCLSTD_u_mul24, 2, r_u_mul24, true},
  {OCLSTD_s_mad24, 3, r_s_mad24, true},
  {OCLSTD_u_mad24, 3, r_u_mad24, true},
};

/* Boundary values of a w-bit type (as patterns): 0, 1, 2, 3, smax-1, smax, smin, smin+1, umax-1, umax,
 * alternating bits, and counts around the width (for rotate). */
static unsigned boundaries(unsigned w, uint64_t *v) {
  const uint64_t m = (uint64_t)m128(w);
  const uint64_t sm = (uint64_t)smax(w), mn = (uint64_t)((u128)smin(w) & m128(w));
  const uint64_t b[] = {0,
                        1,
                        2,
                        3,
                        sm - 1,
                        sm,
                        mn,
                        mn + 1,
                        m - 1,
                        m,
                        0x5555555555555555ull & m,
                        0xaaaaaaaaaaaaaaaaull & m,
                        w - 1,
                        w,
                        w + 1,
                        (2ull * w + 3) & m,
                        0x123456789abcdef1ull & m};
  memcpy(v, b, sizeof b);
  return (unsigned)(sizeof b / sizeof b[0]);
}

static void check_op(const int_op *o, unsigned w) {
  uint64_t bv[32];
  const unsigned nb = boundaries(w, bv);
  /* every boundary combination, then random values (uniform, and small/signed-near-zero ones) */
  size_t nbc = 1;
  for (unsigned i = 0; i < o->nargs; i++) nbc *= nb;
  const size_t nrand = 30000, count = nbc + nrand;
  uint64_t *in[3], *want = malloc(count * sizeof *want);
  assert_non_null(want);
  for (unsigned i = 0; i < 3; i++) {
    in[i] = malloc(count * sizeof *in[i]);
    assert_non_null(in[i]);
  }
  for (size_t c = 0; c < nbc; c++) {
    size_t k = c;
    for (unsigned i = 0; i < o->nargs; i++) {
      in[i][c] = bv[k % nb];
      k /= nb;
    }
  }
  uint64_t rng = 0x3c6ef372fe94f82bull ^ (uint64_t)o->op << 8 ^ w;
  for (size_t c = nbc; c < count; c++)
    for (unsigned i = 0; i < o->nargs; i++) {
      const uint64_t r = rng_next(&rng);
      in[i][c] = ((r & 3) == 0 ? (uint64_t)((int64_t)((r >> 2) % 600) - 300) : r >> 1) & (uint64_t)m128(w);
    }
  for (size_t c = 0; c < count; c++) {
    const uint64_t a[3] = {in[0][c], in[1][c], in[2][c]};
    want[c] = o->ref(a, w);
  }
  const uint64_t *const ins[3] = {in[0], in[1], in[2]};
  run_ew(o->op, BI_INT, w, 16, o->nargs, ins, want, count, NULL);
  run_ew_all_widths(o->op, BI_INT, w, o->nargs, ins, want, nbc < 2000 ? nbc : 2000, NULL);
  for (unsigned i = 0; i < 3; i++) free(in[i]);
  free(want);
}

static void t_int_ops_vs_reference(void **state) {
  (void)state;
  size_t combos = 0;
  for (size_t i = 0; i < sizeof OPS / sizeof OPS[0]; i++)
    for (unsigned w = 8; w <= 64; w *= 2) {
      if (OPS[i].only32 && w != 32) continue;
      check_op(&OPS[i], w);
      combos++;
    }
  print_message("integer builtins: %zu (instruction, width) combinations match the 128-bit reference\n", combos);
}

/* ---- hand-derived values ------------------------------------------------------------------------ */

static uint64_t one(uint32_t op, unsigned w, unsigned nargs, uint64_t a, uint64_t b, uint64_t c) {
  const bi_type t = ti(w, 1), args[3] = {t, t, t};
  const bi_resolved r = must_resolve(op, t, args, nargs, 0);
  const unsigned es = w / 8, sb[3] = {es, es, es};
  static warp wp;
  warp_init(&wp, es, sb, nargs);
  wp.nlanes = 1;
  put_elem(w_src(&wp, 0, 0), es, a);
  put_elem(w_src(&wp, 1, 0), es, b);
  put_elem(w_src(&wp, 2, 0), es, c);
  assert_true(warp_call(&r, &wp, NULL));
  return get_elem(w_dst(&wp, 0), es);
}
#define ONE1(op, w, a) one(OCLSTD_##op, w, 1, a, 0, 0)
#define ONE2(op, w, a, b) one(OCLSTD_##op, w, 2, a, b, 0)
#define ONE3(op, w, a, b, c) one(OCLSTD_##op, w, 3, a, b, c)

static void t_int_saturation_boundaries(void **state) {
  (void)state;
  /* char / uchar */
  assert_int_equal(ONE2(s_add_sat, 8, 0x7f, 0x01), 0x7f);
  assert_int_equal(ONE2(s_add_sat, 8, 0x80, 0xff), 0x80); /* -128 + -1 */
  assert_int_equal(ONE2(s_add_sat, 8, 0x7f, 0x80), 0xff); /* 127 + -128 = -1 */
  assert_int_equal(ONE2(u_add_sat, 8, 0xff, 0x01), 0xff);
  assert_int_equal(ONE2(u_add_sat, 8, 0xfe, 0x01), 0xff);
  assert_int_equal(ONE2(s_sub_sat, 8, 0x80, 0x01), 0x80);
  assert_int_equal(ONE2(s_sub_sat, 8, 0x7f, 0xff), 0x7f); /* 127 - -1 */
  assert_int_equal(ONE2(s_sub_sat, 8, 0x00, 0x80), 0x7f); /* 0 - -128 = 128 -> 127 */
  assert_int_equal(ONE2(u_sub_sat, 8, 0x00, 0x01), 0x00);
  /* short / ushort */
  assert_int_equal(ONE2(s_add_sat, 16, 0x7fff, 0x0001), 0x7fff);
  assert_int_equal(ONE2(s_add_sat, 16, 0x8000, 0x8000), 0x8000);
  assert_int_equal(ONE2(u_add_sat, 16, 0xffff, 0xffff), 0xffff);
  assert_int_equal(ONE2(s_sub_sat, 16, 0x8000, 0x7fff), 0x8000);
  assert_int_equal(ONE2(s_sub_sat, 16, 0x0000, 0x8000), 0x7fff);
  assert_int_equal(ONE2(u_sub_sat, 16, 0x0001, 0xffff), 0x0000);
  /* int / uint */
  assert_int_equal(ONE2(s_add_sat, 32, 0x7fffffff, 1), 0x7fffffff);
  assert_int_equal(ONE2(s_add_sat, 32, 0x80000000, 0xffffffff), 0x80000000);
  assert_int_equal(ONE2(u_add_sat, 32, 0xffffffff, 1), 0xffffffff);
  assert_int_equal(ONE2(s_sub_sat, 32, 0x80000000, 1), 0x80000000);
  assert_int_equal(ONE2(s_sub_sat, 32, 0, 0x80000000), 0x7fffffff);
  assert_int_equal(ONE2(u_sub_sat, 32, 5, 6), 0);
  /* long / ulong */
  assert_int_equal(ONE2(s_add_sat, 64, 0x7fffffffffffffffull, 1), 0x7fffffffffffffffull);
  assert_int_equal(ONE2(s_add_sat, 64, 0x8000000000000000ull, 0xffffffffffffffffull), 0x8000000000000000ull);
  assert_int_equal(ONE2(s_add_sat, 64, 0x7fffffffffffffffull, 0x8000000000000000ull), 0xffffffffffffffffull);
  assert_int_equal(ONE2(u_add_sat, 64, 0xffffffffffffffffull, 1), 0xffffffffffffffffull);
  assert_int_equal(ONE2(u_add_sat, 64, 0x8000000000000000ull, 0x7fffffffffffffffull), 0xffffffffffffffffull);
  assert_int_equal(ONE2(s_sub_sat, 64, 0x8000000000000000ull, 1), 0x8000000000000000ull);
  assert_int_equal(ONE2(s_sub_sat, 64, 0, 0x8000000000000000ull), 0x7fffffffffffffffull);
  assert_int_equal(ONE2(s_sub_sat, 64, 0x7fffffffffffffffull, 0xffffffffffffffffull), 0x7fffffffffffffffull);
  assert_int_equal(ONE2(u_sub_sat, 64, 0, 0xffffffffffffffffull), 0);
  /* mad_sat */
  assert_int_equal(ONE3(s_mad_sat, 64, 0x100000000ull, 0x80000000ull, 0), 0x7fffffffffffffffull); /* 2^63 */
  assert_int_equal(ONE3(s_mad_sat, 64, 0x100000000ull, 0x80000000ull, 0xffffffffffffffffull), 0x7fffffffffffffffull);
  assert_int_equal(ONE3(s_mad_sat, 64, 0xffffffff00000000ull, 0x80000000ull, 0), 0x8000000000000000ull); /* -2^63 */
  assert_int_equal(ONE3(s_mad_sat, 64, 0xffffffff00000000ull, 0x80000000ull, 0xffffffffffffffffull),
                   0x8000000000000000ull);
  assert_int_equal(ONE3(s_mad_sat, 64, 0xffffffff00000000ull, 0x80000001ull, 0x7fffffffffffffffull),
                   0xfffffffeffffffffull); /* -2^63-2^32+2^63-1 */
  assert_int_equal(ONE3(u_mad_sat, 64, 0x100000000ull, 0x100000000ull, 0), 0xffffffffffffffffull);
  assert_int_equal(ONE3(u_mad_sat, 64, 0xffffffffull, 0xffffffffull, 0x1ffffffffull),
                   0xffffffffffffffffull); /* 2^64 - 2^33 + 1 + 2^33 - 1 = 2^64 */
  assert_int_equal(ONE3(u_mad_sat, 64, 0xffffffffull, 0xffffffffull, 0x1fffffffeull),
                   0xffffffffffffffffull);                      /* 2^64 - 1 exactly: not saturated */
  assert_int_equal(ONE3(s_mad_sat, 8, 0x10, 0x08, 0xff), 0x7f); /* 128 - 1 = 127: exact */
  assert_int_equal(ONE3(s_mad_sat, 8, 0x10, 0x08, 0x00), 0x7f); /* 128 -> 127 */
  assert_int_equal(ONE3(u_mad_sat, 32, 0x10000, 0x10000, 0), 0xffffffff);
}

static void t_int_mul_hi_64(void **state) {
  (void)state;
  assert_int_equal(ONE2(u_mul_hi, 64, 0xffffffffffffffffull, 0xffffffffffffffffull), 0xfffffffffffffffeull);
  assert_int_equal(ONE2(u_mul_hi, 64, 0x100000000ull, 0x100000000ull), 1);
  assert_int_equal(ONE2(u_mul_hi, 64, 0xffffffffffffffffull, 2), 1);
  assert_int_equal(ONE2(s_mul_hi, 64, 0x8000000000000000ull, 0x8000000000000000ull), 0x4000000000000000ull);
  assert_int_equal(ONE2(s_mul_hi, 64, 0xffffffffffffffffull, 1), 0xffffffffffffffffull); /* -1 * 1 */
  assert_int_equal(ONE2(s_mul_hi, 64, 0x8000000000000000ull, 0xffffffffffffffffull), 0); /* 2^63 */
  assert_int_equal(ONE2(s_mul_hi, 64, 0x8000000000000000ull, 1), 0xffffffffffffffffull); /* -2^63 */
  assert_int_equal(ONE3(s_mad_hi, 64, 0x8000000000000000ull, 0x8000000000000000ull, 0x7fffffffffffffffull),
                   0xbfffffffffffffffull);
  assert_int_equal(ONE3(u_mad_hi, 64, 0xffffffffffffffffull, 0xffffffffffffffffull, 3), 1); /* wraps */
  assert_int_equal(ONE2(s_mul_hi, 32, 0x80000000u, 0x80000000u), 0x40000000u);
  assert_int_equal(ONE2(s_mul_hi, 8, 0x80, 0x7f), 0xc0); /* -128 * 127 = -16256 = 0xc080 */
  assert_int_equal(ONE2(u_mul_hi, 8, 0xff, 0xff), 0xfe);
}

static void t_int_bits(void **state) {
  (void)state;
  /* rotate by >= the width: the count is taken modulo the width */
  assert_int_equal(ONE2(rotate, 8, 0x81, 9), 0x03);
  assert_int_equal(ONE2(rotate, 8, 0x81, 8), 0x81);
  assert_int_equal(ONE2(rotate, 8, 0x81, 0xff), 0xc0); /* -1: right by one */
  assert_int_equal(ONE2(rotate, 16, 0x8001, 17), 0x0003);
  assert_int_equal(ONE2(rotate, 32, 0x80000001u, 33), 0x00000003u);
  assert_int_equal(ONE2(rotate, 32, 0x80000001u, 32), 0x80000001u);
  assert_int_equal(ONE2(rotate, 64, 1, 64), 1);
  assert_int_equal(ONE2(rotate, 64, 1, 65), 2);
  assert_int_equal(ONE2(rotate, 64, 0x8000000000000000ull, 0xffffffffffffffffull), 0x4000000000000000ull);
  /* clz / ctz of 0 are the component width; popcount */
  static const unsigned ws[4] = {8, 16, 32, 64};
  for (int i = 0; i < 4; i++) {
    const unsigned w = ws[i];
    assert_int_equal(ONE1(clz, w, 0), w);
    assert_int_equal(ONE1(ctz, w, 0), w);
    assert_int_equal(ONE1(clz, w, 1), w - 1);
    assert_int_equal(ONE1(ctz, w, (uint64_t)1 << (w - 1)), w - 1);
    assert_int_equal(ONE1(clz, w, (uint64_t)1 << (w - 1)), 0);
    assert_int_equal(ONE1(popcount, w, (uint64_t)m128(w)), w);
  }
  /* abs of the most negative value is its magnitude as unsigned */
  assert_int_equal(ONE1(s_abs, 8, 0x80), 0x80);
  assert_int_equal(ONE1(s_abs, 16, 0x8000), 0x8000);
  assert_int_equal(ONE1(s_abs, 32, 0x80000000u), 0x80000000u);
  assert_int_equal(ONE1(s_abs, 64, 0x8000000000000000ull), 0x8000000000000000ull);
  assert_int_equal(ONE1(s_abs, 32, 0xfffffffbu), 5);
  assert_int_equal(ONE2(s_abs_diff, 8, 0x7f, 0x80), 0xff); /* 127 - -128 = 255 */
  assert_int_equal(ONE2(s_abs_diff, 64, 0x7fffffffffffffffull, 0x8000000000000000ull), 0xffffffffffffffffull);
  /* hadd / rhadd without overflow, rounding toward -inf */
  assert_int_equal(ONE2(u_hadd, 64, 0xffffffffffffffffull, 0xffffffffffffffffull), 0xffffffffffffffffull);
  assert_int_equal(ONE2(u_rhadd, 64, 0xffffffffffffffffull, 0xfffffffffffffffeull), 0xffffffffffffffffull);
  assert_int_equal(ONE2(s_hadd, 8, 0xff, 0x00), 0xff);  /* floor(-1/2) = -1 */
  assert_int_equal(ONE2(s_rhadd, 8, 0xff, 0x00), 0x00); /* floor(0/2) */
  assert_int_equal(ONE2(s_hadd, 8, 0x80, 0x80), 0x80);
  assert_int_equal(ONE2(s_rhadd, 8, 0x7f, 0x7f), 0x7f);
  /* mul24 / mad24 inside the 24-bit ranges */
  assert_int_equal(ONE2(s_mul24, 32, 0xff800000u, 0x007fffffu), (uint32_t)(-8388608LL * 8388607LL));
  assert_int_equal(ONE2(u_mul24, 32, 0x00ffffffu, 0x00000002u), 0x01fffffeu);
  assert_int_equal(ONE3(s_mad24, 32, 0xfffffffeu, 3, 10), 4);                    /* -2 * 3 + 10 */
  assert_int_equal(ONE3(u_mad24, 32, 0x1000, 0x1000, 0xffffffffu), 0x00ffffffu); /* 2^24 - 1, wrapping */
}

static uint64_t up1(uint32_t op, unsigned w, uint64_t hi, uint64_t lo) {
  const bi_type args[2] = {ti(w, 1), ti(w, 1)};
  const bi_resolved r = must_resolve(op, ti(2 * w, 1), args, 2, 0);
  const unsigned es = w / 8, sb[2] = {es, es};
  static warp wp;
  warp_init(&wp, 2 * es, sb, 2);
  wp.nlanes = 1;
  put_elem(w_src(&wp, 0, 0), es, hi);
  put_elem(w_src(&wp, 1, 0), es, lo);
  assert_true(warp_call(&r, &wp, NULL));
  return get_elem(w_dst(&wp, 0), 2 * es);
}

/* upsample: result elements twice as wide: (hi << w) | lo, hi's sign does not matter. */
static void t_int_upsample(void **state) {
  (void)state;
  static const unsigned ws[3] = {8, 16, 32};
  uint64_t rng = 0xa4093822299f31d0ull;
  for (int u = 0; u < 2; u++)
    for (int i = 0; i < 3; i++) {
      const unsigned w = ws[i], es = w / 8;
      static const unsigned ns[] = {1, 2, 3, 4, 8, 16};
      for (int j = 0; j < 6; j++) {
        const unsigned n = ns[j];
        const bi_type args[2] = {ti(w, n), ti(w, n)};
        const bi_resolved r = must_resolve(u ? OCLSTD_u_upsample : OCLSTD_s_upsample, ti(2 * w, n), args, 2, 0);
        static warp wp;
        const unsigned sb[2] = {n * es, n * es};
        warp_init(&wp, 2 * n * es, sb, 2);
        uint64_t hi[W_LANES][16], lo[W_LANES][16];
        for (unsigned l = 0; l < W_LANES; l++)
          for (unsigned k = 0; k < n; k++) {
            hi[l][k] = rng_next(&rng) & (uint64_t)m128(w);
            lo[l][k] = rng_next(&rng) & (uint64_t)m128(w);
            if (k == 0) hi[l][k] = (uint64_t)m128(w); /* -1 as hi */
            put_elem(w_src(&wp, 0, l) + k * es, es, hi[l][k]);
            put_elem(w_src(&wp, 1, l) + k * es, es, lo[l][k]);
          }
        assert_true(warp_call(&r, &wp, NULL));
        for (unsigned l = 0; l < W_LANES; l++) {
          for (unsigned k = 0; k < n; k++) {
            const u128 want = (u128)hi[l][k] * ((u128)1 << w) + lo[l][k];
            assert_int_equal(get_elem(w_dst(&wp, l) + k * 2 * es, 2 * es), (uint64_t)want);
          }
          assert_int_equal(w_dst(&wp, l)[2 * n * es], W_SENTINEL);
        }
      }
    }
  /* hand: upsample((char)-1, (uchar)0x80) = (short)0xff80; upsample(0x12345678, 0x9abcdef0) */
  assert_int_equal(up1(OCLSTD_s_upsample, 8, 0xff, 0x80), 0xff80);
  assert_int_equal(up1(OCLSTD_u_upsample, 16, 0x8001, 0x0002), 0x80010002u);
  assert_int_equal(up1(OCLSTD_s_upsample, 32, 0x12345678, 0x9abcdef0), 0x123456789abcdef0ull);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(t_int_ops_vs_reference), cmocka_unit_test(t_int_saturation_boundaries),
    cmocka_unit_test(t_int_mul_hi_64),        cmocka_unit_test(t_int_bits),
    cmocka_unit_test(t_int_upsample),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
