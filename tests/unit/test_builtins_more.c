/*
 * test_builtins_more.c — the exact math functions (bi_exact.c: fmod, remainder, remquo, fdim, maxmag,
 * minmag, nextafter, ldexp, frexp, modf, fract, nan, fmax_common, fmin_common), the common functions
 * of bi_common.c (mix, smoothstep, degrees, radians) and the geometric functions of bi_geom.c (cross,
 * distance, length, normalize and the fast_ forms), for half, float and double, every vector width.
 *
 * Every expected value is derived independently of the code under test: MPFR oracles (exact
 * operations, or correctly rounded ones finished with mpfr_check_range + mpfr_subnormalize in the
 * format's exponent range), the host libm's nextafter/nextafterf (exact functions), a sorted table of
 * all halves, and hand-derived special cases from OpenCL C 3.0 §6.15.2, §6.15.4, §6.15.5 and §7.5.
 * Half one-operand functions are checked on all 65536 inputs; float and double on >= 10^5 random
 * inputs (biased toward close exponents, subnormals and special values) per function.
 */
#include "builtins_harness.h"
#include "bi_impl.h"

#include <float.h>
#include <stdlib.h>

/* ---- formats and oracle helpers ------------------------------------------------------------------ */

static mpfr_t R16, R32, R64, X, Y, Z, T;

static int setup(void **state) {
  (void)state;
  mpfr_init2(R16, 11);
  mpfr_init2(R32, 24);
  mpfr_init2(R64, 53);
  mpfr_inits2(64, X, Y, Z, (mpfr_ptr)0);
  mpfr_init2(T, 600);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  mpfr_clears(R16, R32, R64, X, Y, Z, T, (mpfr_ptr)0);
  mpfr_free_cache();
  return 0;
}

static mpfr_ptr RF(unsigned bits) { return bits == 16 ? R16 : bits == 32 ? R32 : R64; }
static ref_fmt FMT(unsigned bits) { return bits == 16 ? REF_HALF : bits == 32 ? REF_FLOAT : REF_DOUBLE; }

static uint64_t canon(unsigned bits) { return bits == 16 ? 0x7e00u : bits == 32 ? 0x7fc00000u : 0x7ff8000000000000ull; }
static uint64_t quietb(unsigned bits, uint64_t v) {
  return v | (bits == 16 ? 0x200u : bits == 32 ? 0x400000u : 0x8000000000000ull);
}
static uint64_t signb(unsigned bits) { return 1ull << (bits - 1); }
static bool isnanb(unsigned bits, uint64_t v) {
  const uint64_t mag = v & (signb(bits) - 1);
  return bits == 16 ? mag > 0x7c00u : bits == 32 ? mag > 0x7f800000u : mag > 0x7ff0000000000000ull;
}

/* The exact value of a bit pattern as a double (half built with ldexp by the harness). */
static double val(unsigned bits, uint64_t v) {
  return bits == 16 ? ref_half_value((uint16_t)v) : bits == 32 ? (double)bfloat((uint32_t)v) : bdouble(v);
}

/* Bits of an MPFR value that is exactly a value of the format (or inf/zero). */
static uint64_t enc(unsigned bits, mpfr_srcptr r) {
  if (mpfr_nan_p(r)) return canon(bits);
  if (bits == 16) return ref_encode_half(r);
  if (bits == 32) return fbits(mpfr_get_flt(r, MPFR_RNDN));
  return dbits(mpfr_get_d(r, MPFR_RNDN));
}

/* Finish a result held in RF(bits) with ternary t: overflow and gradual underflow of the format. */
static uint64_t finish(unsigned bits, int t) {
  mpfr_ptr r = RF(bits);
  if (mpfr_nan_p(r)) return canon(bits);
  ref_begin(FMT(bits));
  t = mpfr_check_range(r, t, MPFR_RNDN);
  mpfr_subnormalize(r, t, MPFR_RNDN);
  ref_end();
  return enc(bits, r);
}

/* RN to the format of an MPFR value of any precision (through RF(bits) with its ternary). */
static uint64_t round_to(unsigned bits, mpfr_srcptr v) {
  const int t = mpfr_set(RF(bits), v, MPFR_RNDN);
  return finish(bits, t);
}

/* Deterministic random bit patterns: raw patterns, values with nearby exponents, small integers,
 * subnormals and specials. */
static uint64_t rnd_pat(unsigned bits, uint64_t *s) {
  const uint64_t r = rng_next(s);
  const unsigned kind = (unsigned)(r >> 59); /* 0..31 */
  const unsigned mb = bits == 16 ? 10 : bits == 32 ? 23 : 52, eb = bits - 1 - mb;
  const uint64_t sign = (r & 1) ? signb(bits) : 0, mant = rng_next(s) & ((1ull << mb) - 1);
  const unsigned bias = (1u << (eb - 1)) - 1;
  if (kind < 12) return rng_next(s) & (bits == 64 ? ~0ull : (1ull << bits) - 1);
  if (kind < 22) { /* exponent near 0 (+-8) */
    const unsigned e = bias - 8 + (unsigned)(rng_next(s) % 17);
    return sign | (uint64_t)e << mb | mant;
  }
  if (kind < 25) return sign | mant; /* subnormal or zero */
  if (kind < 29) {                   /* small integer or half-integer */
    const double v = (double)(int)(rng_next(s) % 41 - 20) * ((r >> 8) & 1 ? 0.5 : 1);
    return bits == 16 ? bi_half_from_double(v, BI_RTE) : bits == 32 ? fbits((float)v) : dbits(v);
  }
  static const double sp[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 0.5};
  const double v = sp[rng_next(s) % 8];
  return bits == 16 ? bi_half_from_double(v, BI_RTE) : bits == 32 ? fbits((float)v) : dbits(v);
}

static void set_bits(mpfr_ptr x, unsigned bits, uint64_t v) { mpfr_set_d(x, val(bits, v), MPFR_RNDN); }

static uint64_t from_double(unsigned bits, double v) { /* v exactly representable */
  return bits == 16 ? bi_half_from_double(v, BI_RTE) : bits == 32 ? fbits((float)v) : dbits(v);
}

/* ---- generic runner: elementwise with per-operand element types ------------------------------------
 * Like the harness's run_ew, but the operands may have other element types than the result (ldexp's
 * int32 k, nan's integer code). n components per lane, W_LANES lanes per call. */
static void run_mixed(uint32_t op, bi_type res, const bi_type *args, unsigned nargs, const uint64_t *const *in,
                      const uint64_t *want, size_t count) {
  const unsigned n = res.ncomp, es = res.bits / 8;
  const bi_resolved r = must_resolve(op, res, args, nargs, 0);
  unsigned sb[3];
  for (unsigned i = 0; i < nargs; i++) sb[i] = n * args[i].bits / 8;
  static warp w;
  for (size_t base = 0; base < count; base += (size_t)n * W_LANES) {
    warp_init(&w, n * es, sb, nargs);
    for (unsigned l = 0; l < W_LANES; l++)
      for (unsigned k = 0; k < n; k++) {
        const size_t cs = (base + (size_t)l * n + k) % count;
        for (unsigned i = 0; i < nargs; i++)
          put_elem(w_src(&w, i, l) + k * args[i].bits / 8, args[i].bits / 8, in[i][cs]);
      }
    assert_true(warp_call(&r, &w, NULL));
    for (unsigned l = 0; l < W_LANES; l++) {
      for (unsigned k = 0; k < n; k++) {
        const size_t cs = (base + (size_t)l * n + k) % count;
        const uint64_t got = get_elem(w_dst(&w, l) + k * es, es);
        if (got != want[cs])
          fail_msg("%s f%u x%u case %zu (%#llx %#llx): got %#llx, want %#llx", spv_oclstd_name(op), res.bits, n, cs,
                   (unsigned long long)in[0][cs], nargs > 1 ? (unsigned long long)in[1][cs] : 0ull,
                   (unsigned long long)got, (unsigned long long)want[cs]);
      }
      assert_int_equal(w_dst(&w, l)[n * es], W_SENTINEL);
    }
  }
}

/* ---- pointer-output runner ---------------------------------------------------------------------------
 * op(x[, y], p): result elements and side elements (side_bytes each) written through p. Lane l's p
 * is base + 256 * l + 8 (misaligned for nothing: the memory is bytes); every byte around the n side
 * elements must stay untouched. */
#define PMEM 4096
static void run_ptr(uint32_t op, unsigned bits, unsigned n, unsigned nin, bool side_int, bool ptr64,
                    const uint64_t *const *in, const uint64_t *want, const uint64_t *want_side, size_t count) {
  const unsigned es = bits / 8, side_bytes = side_int ? 4 : es;
  const bi_type res = tf(bits, n);
  bi_type args[3] = {res, res, res};
  bi_type p = tptr(ptr64 ? 64 : 32, side_int ? BI_INT : BI_FLOAT, side_int ? 32 : bits);
  p.pointee_ncomp = (uint8_t)n;
  args[nin] = p;
  const bi_resolved r = must_resolve(op, res, args, nin + 1, 0);
  static uint8_t buf[PMEM];
  fake_mem fm;
  const uint64_t base = ptr64 ? 0x123400000000ull : 0x4000u;
  fake_mem_init(&fm, buf, base, sizeof buf);
  unsigned sb[3] = {n * es, n * es, ptr64 ? 8u : 4u};
  sb[nin] = ptr64 ? 8u : 4u;
  static warp w;
  for (size_t b0 = 0; b0 < count; b0 += (size_t)n * W_LANES) {
    warp_init(&w, n * es, sb, nin + 1);
    memset(buf, 0xcd, sizeof buf);
    for (unsigned l = 0; l < W_LANES; l++) {
      for (unsigned k = 0; k < n; k++) {
        const size_t cs = (b0 + (size_t)l * n + k) % count;
        for (unsigned i = 0; i < nin; i++) put_elem(w_src(&w, i, l) + k * es, es, in[i][cs]);
      }
      put_elem(w_src(&w, nin, l), ptr64 ? 8 : 4, base + 256u * l + 8);
    }
    assert_true(warp_call(&r, &w, &fm.mem));
    for (unsigned l = 0; l < W_LANES; l++) {
      const uint8_t *m = buf + 256u * l + 8;
      for (unsigned k = 0; k < n; k++) {
        const size_t cs = (b0 + (size_t)l * n + k) % count;
        const uint64_t got = get_elem(w_dst(&w, l) + k * es, es), gs = get_elem(m + k * side_bytes, side_bytes);
        if (got != want[cs] || gs != want_side[cs])
          fail_msg("%s f%u x%u case %zu (%#llx %#llx): got %#llx/%#llx, want %#llx/%#llx", spv_oclstd_name(op), bits, n,
                   cs, (unsigned long long)in[0][cs], nin > 1 ? (unsigned long long)in[1][cs] : 0ull,
                   (unsigned long long)got, (unsigned long long)gs, (unsigned long long)want[cs],
                   (unsigned long long)want_side[cs]);
      }
      assert_int_equal(m[-1], 0xcd);
      assert_int_equal(m[n * side_bytes], 0xcd);
      assert_int_equal(w_dst(&w, l)[n * es], W_SENTINEL);
    }
  }
}

static const unsigned WIDTHS[6] = {1, 2, 3, 4, 8, 16};

/* ---- resolution --------------------------------------------------------------------------------------- */

static void t_resolve(void **state) {
  (void)state;
  static const uint32_t f2[] = {OCLSTD_fmod,   OCLSTD_remainder, OCLSTD_fdim,        OCLSTD_maxmag,
                                OCLSTD_minmag, OCLSTD_nextafter, OCLSTD_fmax_common, OCLSTD_fmin_common};
  static const unsigned fb[3] = {16, 32, 64};
  for (unsigned b = 0; b < 3; b++)
    for (unsigned w = 0; w < 6; w++) {
      const bi_type t = tf(fb[b], WIDTHS[w]), a3[3] = {t, t, t};
      for (unsigned i = 0; i < sizeof f2 / sizeof f2[0]; i++) must_resolve(f2[i], t, a3, 2, 0);
      must_resolve(OCLSTD_mix, t, a3, 3, 0);
      must_resolve(OCLSTD_smoothstep, t, a3, 3, 0);
      must_resolve(OCLSTD_degrees, t, a3, 1, 0);
      must_resolve(OCLSTD_radians, t, a3, 1, 0);
      const bi_type ld[2] = {t, ti(32, WIDTHS[w])};
      must_resolve(OCLSTD_ldexp, t, ld, 2, 0);
      const bi_type nc[1] = {ti(fb[b], WIDTHS[w])};
      must_resolve(OCLSTD_nan, t, nc, 1, 0);
      bi_type pi = tptr(64, BI_INT, 32), pf = tptr(32, BI_FLOAT, fb[b]);
      pi.pointee_ncomp = pf.pointee_ncomp = (uint8_t)WIDTHS[w];
      const bi_type fr[2] = {t, pi}, mo[2] = {t, pf}, rq[3] = {t, t, pi};
      must_resolve(OCLSTD_frexp, t, fr, 2, 0);
      must_resolve(OCLSTD_modf, t, mo, 2, 0);
      must_resolve(OCLSTD_fract, t, mo, 2, 0);
      assert_int_equal(bi_lit_ptr64(must_resolve(OCLSTD_remquo, t, rq, 3, 0).literal), 1);
      assert_int_equal(bi_lit_ptr64(must_resolve(OCLSTD_fract, t, mo, 2, 0).literal), 0);
      if (WIDTHS[w] <= 4) {
        const bi_type e = tf(fb[b], 1);
        must_resolve(OCLSTD_length, e, a3, 1, 0);
        must_resolve(OCLSTD_distance, e, a3, 2, 0);
        must_resolve(OCLSTD_normalize, t, a3, 1, 0);
        if (fb[b] == 32) {
          must_resolve(OCLSTD_fast_length, e, a3, 1, 0);
          must_resolve(OCLSTD_fast_distance, e, a3, 2, 0);
          must_resolve(OCLSTD_fast_normalize, t, a3, 1, 0);
        }
      }
      if (WIDTHS[w] == 3 || WIDTHS[w] == 4) must_resolve(OCLSTD_cross, t, a3, 2, 0);
    }
  const bi_type f8[2] = {tf(32, 8), tf(32, 8)}, f2v[2] = {tf(32, 2), tf(32, 2)}, d3 = tf(64, 3);
  expect_resolve_error(OCLSTD_length, tf(32, 1), f8, 1, 0, "OpenCL.std `length` is not implemented for float8");
  expect_resolve_error(OCLSTD_cross, tf(32, 2), f2v, 2, 0, "OpenCL.std `cross` is not implemented for float2");
  expect_resolve_error(OCLSTD_length, tf(32, 2), f2v, 1, 0,
                       "OpenCL.std `length`: the result type is float2, expected float");
  const bi_type h3[1] = {tf(16, 3)};
  expect_resolve_error(OCLSTD_fast_length, tf(16, 1), h3, 1, 0,
                       "OpenCL.std `fast_length` is not implemented for half3");
  const bi_type ldbad[2] = {tf(32, 4), ti(32, 1)};
  expect_resolve_error(OCLSTD_ldexp, tf(32, 4), ldbad, 2, 0,
                       "OpenCL.std `ldexp`: operand 2 has type int, expected int4");
  const bi_type nbad[1] = {ti(32, 3)};
  expect_resolve_error(OCLSTD_nan, d3, nbad, 1, 0, "OpenCL.std `nan`: operand 1 has type int3, expected long3");
  bi_type pbad = tptr(64, BI_INT, 64);
  const bi_type rqbad[3] = {tf(32, 1), tf(32, 1), pbad};
  expect_resolve_error(OCLSTD_remquo, tf(32, 1), rqbad, 3, 0,
                       "OpenCL.std `remquo`: operand 3 has type pointer to long, expected a pointer to int");
  expect_resolve_error(OCLSTD_fmod, ti(32, 1), nbad, 2, 0, "OpenCL.std `fmod` is not implemented for int");
}

/* ---- fmod, remainder, remquo ------------------------------------------------------------------------------ */

/* Oracle: MPFR's fmod/remquo (exact; C99 F.9.7 special cases) with spvi's NaN policy on top, and
 * quo = +-(|n| mod 128) from MPFR's low quotient bits. */
static void rem_oracle(unsigned bits, uint64_t x, uint64_t y, uint64_t *fm, uint64_t *rm, int32_t *quo) {
  *quo = 0;
  if (isnanb(bits, x) || isnanb(bits, y)) {
    *fm = *rm = quietb(bits, isnanb(bits, x) ? x : y);
    return;
  }
  set_bits(X, bits, x);
  set_bits(Y, bits, y);
  mpfr_fmod(RF(bits), X, Y, MPFR_RNDN);
  *fm = enc(bits, RF(bits));
  long q = 0;
  mpfr_remquo(RF(bits), &q, X, Y, MPFR_RNDN);
  *rm = enc(bits, RF(bits));
  if (mpfr_nan_p(RF(bits))) return;
  const long mag = (q < 0 ? -q : q) % 128;
  *quo = (int32_t)(q < 0 ? -mag : mag);
}

static void t_rem(void **state) {
  (void)state;
  enum { N = 120000 };
  static uint64_t xs[N], ys[N], wf[N], wr[N], wq[N];
  static const unsigned fb[3] = {16, 32, 64};
  uint64_t seed = 0x5eed0001;
  for (unsigned b = 0; b < 3; b++) {
    const unsigned bits = fb[b];
    for (size_t i = 0; i < N; i++) {
      xs[i] = rnd_pat(bits, &seed);
      ys[i] = rnd_pat(bits, &seed);
      if (i % 3 == 0)
        ys[i] = (ys[i] & ~(signb(bits) - 1)) | ((xs[i] & (signb(bits) - 1)) >> (1 + i % 5)); /* |y| < |x| */
      int32_t q;
      rem_oracle(bits, xs[i], ys[i], &wf[i], &wr[i], &q);
      wq[i] = (uint32_t)q;
    }
    const uint64_t *in[2] = {xs, ys};
    run_ew_all_widths(OCLSTD_fmod, BI_FLOAT, bits, 2, in, wf, N, NULL);
    run_ew_all_widths(OCLSTD_remainder, BI_FLOAT, bits, 2, in, wr, N, NULL);
    for (unsigned w = 0; w < 6; w++) run_ptr(OCLSTD_remquo, bits, WIDTHS[w], 2, true, w & 1, in, wr, wq, N);
  }
}

/* Hand-derived cases (C99 F.9.7.1-2, §7.5, spvi's 7-bit quo). */
static void t_rem_hand(void **state) {
  (void)state;
  static const struct {
    double x, y, fm, rm;
    int32_t q;
  } c[] = {
    {5, 2, 1, 1, 2},  /* 2.5 -> k = 2 (even) */
    {7, 2, 1, -1, 4}, /* 3.5 -> k = 4 */
    {-7, 2, -1, 1, -4},       {7, -2, 1, -1, -4},        {-7, -2, -1, 1, 4},
    {-4, 2, -0.0, -0.0, -2},                             /* zero results take x's sign */
    {4, -2, 0.0, 0.0, -2},    {1000, 3, 1, 1, 77},       /* k = 333, 333 mod 128 = 77 (glibc keeps only 3 bits) */
    {-1000, 3, -1, -1, -77},  {0.75, 1, 0.75, -0.25, 1}, /* |x| < |y|, rounds up */
    {0.5, 1, 0.5, 0.5, 0},                               /* tie, k = 0 even */
    {1.5, 1, 0.5, -0.5, 2},                              /* tie, k = 2 */
    {0x1p100, 1, 0, 0, 0},                               /* k = 2^100: low bits 0 */
    {-0.0, 3, -0.0, -0.0, 0}, {2, INFINITY, 2, 2, 0},    {-2, -INFINITY, -2, -2, 0},
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    const uint64_t in0 = dbits(c[i].x), in1 = dbits(c[i].y);
    const uint64_t *in[2] = {&in0, &in1};
    const uint64_t wf = dbits(c[i].fm), wr = dbits(c[i].rm), wq = (uint32_t)c[i].q;
    run_ew(OCLSTD_fmod, BI_FLOAT, 64, 1, 2, in, &wf, 1, NULL);
    run_ptr(OCLSTD_remquo, 64, 1, 2, true, true, in, &wr, &wq, 1);
    const uint64_t fx = fbits((float)c[i].x), fy = fbits((float)c[i].y), ff = fbits((float)c[i].fm),
                   fr = fbits((float)c[i].rm);
    const uint64_t *fin[2] = {&fx, &fy};
    if (fabs(c[i].x) < 1e30) {
      run_ew(OCLSTD_fmod, BI_FLOAT, 32, 1, 2, fin, &ff, 1, NULL);
      run_ptr(OCLSTD_remquo, 32, 1, 2, true, false, fin, &fr, &wq, 1);
    }
  }
  /* NaN results: canonical for invalid operations, the operand's NaN quieted otherwise; quo = 0 */
  static const double inval[][2] = {{INFINITY, 1}, {-INFINITY, 0}, {1, 0}, {0, -0.0}, {0, 0}};
  for (size_t i = 0; i < 5; i++) {
    const uint64_t a = dbits(inval[i][0]), b = dbits(inval[i][1]), cn = canon(64), zq = 0;
    const uint64_t *in[2] = {&a, &b};
    run_ew(OCLSTD_fmod, BI_FLOAT, 64, 1, 2, in, &cn, 1, NULL);
    run_ew(OCLSTD_remainder, BI_FLOAT, 64, 1, 2, in, &cn, 1, NULL);
    run_ptr(OCLSTD_remquo, 64, 1, 2, true, false, in, &cn, &zq, 1);
  }
  const uint64_t sn = 0x7f800001u, one = 0x3f800000u, qn = 0x7fc00001u, zq = 0, negz = 0x80000000u;
  const uint64_t *in1[2] = {&sn, &one}, *in2[2] = {&negz, &sn};
  run_ptr(OCLSTD_remquo, 32, 1, 2, true, false, in1, &qn, &zq, 1); /* signalling NaN quieted, quo 0 */
  run_ew(OCLSTD_fmod, BI_FLOAT, 32, 1, 2, in2, &qn, 1, NULL);      /* fmod(+-0, NaN) = NaN (§7.5) */
  /* a large exponent gap (float: 2^277 ratio) and subnormal operands */
  const uint64_t big = 0x7f7fffffu, tiny = 0x00000001u, z = 0, sub3 = 0x00000003u, sub2 = 0x00000002u;
  const uint64_t *in3[2] = {&big, &tiny}, *in4[2] = {&sub3, &sub2};
  const uint64_t w1 = 0x00000001u, wrm = 0x80000001u, wq2 = 2;
  run_ptr(OCLSTD_remquo, 32, 1, 2, true, false, in3, &z, &zq, 1); /* FLT_MAX = k * 2^-149, k = 0xffffff << 253 */
  run_ew(OCLSTD_fmod, BI_FLOAT, 32, 1, 2, in4, &w1, 1, NULL);
  run_ptr(OCLSTD_remquo, 32, 1, 2, true, false, in4, &wrm, &wq2, 1); /* 3/2 = 1.5 -> k = 2, r = -1 quantum */
}

/* ---- fdim, maxmag, minmag, fmax_common, fmin_common ----------------------------------------------------- */

/* spvi's fmax/fmin (bi_fp.c semantics, written here from the spec text): NaN -> the other operand;
 * zeros ordered -0 < +0. */
static uint64_t ref_fmax(unsigned bits, uint64_t x, uint64_t y, bool is_max) {
  if (isnanb(bits, x)) return isnanb(bits, y) ? quietb(bits, x) : y;
  if (isnanb(bits, y)) return x;
  const double a = val(bits, x), b = val(bits, y);
  if (a != b) return (a < b) == is_max ? y : x;
  const bool xneg = (x & signb(bits)) != 0;
  return (xneg == is_max) ? y : x;
}

static void t_minmax(void **state) {
  (void)state;
  enum { N = 120000 };
  static uint64_t xs[N], ys[N], wd[N], wxa[N], wna[N], wmx[N], wmn[N];
  static const unsigned fb[3] = {16, 32, 64};
  uint64_t seed = 0x5eed0002;
  for (unsigned b = 0; b < 3; b++) {
    const unsigned bits = fb[b];
    for (size_t i = 0; i < N; i++) {
      xs[i] = rnd_pat(bits, &seed);
      ys[i] = rnd_pat(bits, &seed);
      if (i % 7 == 0) ys[i] = xs[i] ^ signb(bits); /* equal magnitudes */
      const uint64_t x = xs[i], y = ys[i];
      /* fdim: MPFR dim, rounded in the format */
      if (isnanb(bits, x) || isnanb(bits, y)) {
        wd[i] = quietb(bits, isnanb(bits, x) ? x : y);
      } else {
        set_bits(X, bits, x);
        set_bits(Y, bits, y);
        wd[i] = finish(bits, mpfr_dim(RF(bits), X, Y, MPFR_RNDN));
      }
      wmx[i] = ref_fmax(bits, x, y, true);
      wmn[i] = ref_fmax(bits, x, y, false);
      const double ax = fabs(val(bits, x)), ay = fabs(val(bits, y));
      wxa[i] = ax > ay ? x : ay > ax ? y : wmx[i];
      wna[i] = ax < ay ? x : ay < ax ? y : wmn[i];
    }
    const uint64_t *in[2] = {xs, ys};
    run_ew_all_widths(OCLSTD_fdim, BI_FLOAT, bits, 2, in, wd, N, NULL);
    run_ew_all_widths(OCLSTD_fmax_common, BI_FLOAT, bits, 2, in, wmx, N, NULL);
    run_ew_all_widths(OCLSTD_fmin_common, BI_FLOAT, bits, 2, in, wmn, N, NULL);
    run_ew_all_widths(OCLSTD_maxmag, BI_FLOAT, bits, 2, in, wxa, N, NULL);
    run_ew_all_widths(OCLSTD_minmag, BI_FLOAT, bits, 2, in, wna, N, NULL);
    /* fmax_common / fmin_common equal the fmax / fmin rows (bi_fp.c) on every case */
    run_ew_all_widths(OCLSTD_fmax, BI_FLOAT, bits, 2, in, wmx, N, NULL);
    run_ew_all_widths(OCLSTD_fmin, BI_FLOAT, bits, 2, in, wmn, N, NULL);
  }
  /* hand cases (double): ties go to fmax/fmin; NaN loses */
  static const double c[][4] = {
    /* x, y, maxmag, minmag */
    {-3, 3, 3, -3}, {3, -3, 3, -3},    {-0.0, 0.0, 0.0, -0.0}, {0.0, -0.0, 0.0, -0.0},
    {-5, 2, -5, 2}, {NAN, -7, -7, -7}, {-7, NAN, -7, -7},      {-INFINITY, INFINITY, INFINITY, -INFINITY},
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    const uint64_t a = dbits(c[i][0]), bb = dbits(c[i][1]), mx = dbits(c[i][2]), mn = dbits(c[i][3]);
    const uint64_t *in[2] = {&a, &bb};
    run_ew(OCLSTD_maxmag, BI_FLOAT, 64, 1, 2, in, &mx, 1, NULL);
    run_ew(OCLSTD_minmag, BI_FLOAT, 64, 1, 2, in, &mn, 1, NULL);
  }
  /* fdim: x - y rounded, +0 otherwise, NaN in -> NaN out, overflow to inf */
  static const float fd[][3] = {{5, 3, 2},
                                {3, 5, 0},
                                {-0.0f, 0, 0},
                                {FLT_MAX, -FLT_MAX, INFINITY},
                                {INFINITY, INFINITY, 0},
                                {INFINITY, -INFINITY, INFINITY},
                                {1, 0x1p-30f, 1}};
  for (size_t i = 0; i < sizeof fd / sizeof fd[0]; i++) {
    const uint64_t a = fbits(fd[i][0]), bb = fbits(fd[i][1]), w = fbits(fd[i][2]);
    const uint64_t *in[2] = {&a, &bb};
    run_ew(OCLSTD_fdim, BI_FLOAT, 32, 1, 2, in, &w, 1, NULL);
  }
}

/* ---- nextafter ---------------------------------------------------------------------------------------------- */

static uint16_t halves[65536];   /* all non-NaN halves sorted by value, -0 before +0 */
static uint32_t half_pos[65536]; /* index of each pattern in halves[] */
static size_t nhalves;

static int cmp_half(const void *a, const void *b) {
  const uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;
  const double u = ref_half_value(x), v = ref_half_value(y);
  if (u != v) return u < v ? -1 : 1;
  return (x & 0x8000) ? -1 : (y & 0x8000) ? 1 : 0;
}

/* The reference: the neighbour of x in value order, skipping the other zero (C99 F.9.8.3). */
static uint16_t ref_next_half(uint16_t x, uint16_t y) {
  if (isnanb(16, x)) return (uint16_t)quietb(16, x);
  if (isnanb(16, y)) return (uint16_t)quietb(16, y);
  const double a = ref_half_value(x), b = ref_half_value(y);
  if (a == b) return y;
  size_t i = half_pos[x];
  if (b > a) {
    do i++;
    while (ref_half_value(halves[i]) == a);
  } else {
    do i--;
    while (ref_half_value(halves[i]) == a);
  }
  return halves[i];
}

static void t_nextafter(void **state) {
  (void)state;
  nhalves = 0;
  for (uint32_t h = 0; h < 65536; h++)
    if (!isnanb(16, h)) halves[nhalves++] = (uint16_t)h;
  qsort(halves, nhalves, sizeof halves[0], cmp_half);
  for (size_t i = 0; i < nhalves; i++) half_pos[halves[i]] = (uint32_t)i;
  /* half: every x toward +inf, -inf, 0, -0, 1, x itself, and a NaN */
  static uint64_t xs[65536 * 7], ys[65536 * 7], want[65536 * 7];
  static const uint16_t targets[7] = {0x7c00, 0xfc00, 0x0000, 0x8000, 0x3c00, 0, 0x7d00};
  size_t n = 0;
  for (uint32_t h = 0; h < 65536; h++)
    for (unsigned t = 0; t < 7; t++) {
      xs[n] = h;
      ys[n] = t == 5 ? h : targets[t];
      want[n] = ref_next_half((uint16_t)xs[n], (uint16_t)ys[n]);
      n++;
    }
  const uint64_t *in[2] = {xs, ys};
  run_ew(OCLSTD_nextafter, BI_FLOAT, 16, 4, 2, in, want, n, NULL);
  run_ew(OCLSTD_nextafter, BI_FLOAT, 16, 1, 2, in, want, 65536, NULL);
  /* float, double: random pairs against libm's nextafterf/nextafter (exact functions) */
  enum { N = 120000 };
  uint64_t seed = 0x5eed0003;
  for (unsigned bits = 32; bits <= 64; bits += 32) {
    for (size_t i = 0; i < N; i++) {
      xs[i] = rnd_pat(bits, &seed);
      ys[i] = i % 4 == 0 ? xs[i] : rnd_pat(bits, &seed);
      if (isnanb(bits, xs[i]) || isnanb(bits, ys[i])) want[i] = quietb(bits, isnanb(bits, xs[i]) ? xs[i] : ys[i]);
      else
        want[i] = bits == 32 ? fbits(nextafterf(bfloat((uint32_t)xs[i]), bfloat((uint32_t)ys[i])))
                             : dbits(nextafter(bdouble(xs[i]), bdouble(ys[i])));
    }
    run_ew_all_widths(OCLSTD_nextafter, BI_FLOAT, bits, 2, in, want, N, NULL);
  }
  /* §7.5: nextafter(-0, y > 0) is the smallest positive subnormal, nextafter(+0, y < 0) the smallest
   * negative one; nextafter(x, x) = x; C99: nextafter(+0, -0) = -0; FLT_MAX toward inf is inf */
  static const uint32_t fc[][3] = {{0x80000000u, 0x3f800000u, 0x00000001u}, {0x00000000u, 0xbf800000u, 0x80000001u},
                                   {0x00000000u, 0x80000000u, 0x80000000u}, {0x7f7fffffu, 0x7f800000u, 0x7f800000u},
                                   {0x7f800000u, 0x00000000u, 0x7f7fffffu}, {0x00800000u, 0x00000000u, 0x007fffffu},
                                   {0x3f800000u, 0x40000000u, 0x3f800001u}, {0x3f800000u, 0x00000000u, 0x3f7fffffu}};
  for (size_t i = 0; i < sizeof fc / sizeof fc[0]; i++) {
    const uint64_t a = fc[i][0], b = fc[i][1], w = fc[i][2];
    const uint64_t *cin[2] = {&a, &b};
    run_ew(OCLSTD_nextafter, BI_FLOAT, 32, 1, 2, cin, &w, 1, NULL);
  }
}

/* ---- ldexp, frexp ------------------------------------------------------------------------------------------- */

static uint64_t ref_ldexp(unsigned bits, uint64_t x, int32_t k) {
  if (isnanb(bits, x)) return quietb(bits, x);
  set_bits(X, bits, x);
  if (mpfr_zero_p(X) || mpfr_inf_p(X)) return x;
  return finish(bits, mpfr_mul_2si(RF(bits), X, k, MPFR_RNDN));
}

static void t_ldexp(void **state) {
  (void)state;
  /* half: every x with k in [-40, 40] and the extremes */
  static int32_t ks[90];
  unsigned nk = 0;
  for (int k = -40; k <= 40; k++) ks[nk++] = k;
  static const int32_t ext[] = {INT32_MIN, INT32_MIN + 1, -100000, -1100, 1100, 100000, INT32_MAX - 1, INT32_MAX};
  for (unsigned i = 0; i < 8; i++) ks[nk++] = ext[i];
  enum { NB = 120000 };
  static uint64_t xs[NB], kv[NB], want[NB];
  const uint64_t *in[2] = {xs, kv};
  for (unsigned j = 0; j < nk; j++) {
    for (uint32_t h = 0; h < 65536; h++) {
      xs[h] = h;
      kv[h] = (uint32_t)ks[j];
      want[h] = ref_ldexp(16, h, ks[j]);
    }
    const unsigned n = WIDTHS[j % 6];
    bi_type args[2] = {tf(16, n), ti(32, n)};
    run_mixed(OCLSTD_ldexp, tf(16, n), args, 2, in, want, 65536);
  }
  /* float, double: random x, k mostly moving results into the subnormal range and across overflow */
  enum { N = NB };
  uint64_t seed = 0x5eed0004;
  for (unsigned bits = 32; bits <= 64; bits += 32) {
    const int span = bits == 32 ? 300 : 2200;
    for (size_t i = 0; i < N; i++) {
      xs[i] = rnd_pat(bits, &seed);
      const int32_t k = i % 10 == 0 ? (int32_t)(uint32_t)rng_next(&seed)
                                    : (int32_t)(rng_next(&seed) % (2 * span + 1)) - span;
      kv[i] = (uint32_t)k;
      want[i] = ref_ldexp(bits, xs[i], k);
    }
    for (unsigned w = 0; w < 6; w++) {
      bi_type a2[2] = {tf(bits, WIDTHS[w]), ti(32, WIDTHS[w])};
      run_mixed(OCLSTD_ldexp, tf(bits, WIDTHS[w]), a2, 2, in, want, N);
    }
  }
  /* hand: subnormal results round to nearest even, not truncate */
  static const struct {
    uint32_t x;
    int32_t k;
    uint32_t w;
  } hc[] = {
    {0x3fc00000u, -149, 0x00000002u}, /* 1.5 * 2^-149 -> tie -> 2 * 2^-149 (even) */
    {0x3f800000u, -150, 0x00000000u}, /* 2^-150: tie between 0 and 2^-149 -> 0 */
    {0x3fa00000u, -150, 0x00000001u}, /* 1.25 * 2^-150 > half a quantum -> 2^-149 */
    {0x3f800000u, 128, 0x7f800000u},  /* overflow */
    {0x00000001u, 149, 0x3f800000u},  /* subnormal input scaled up exactly */
    {0x80000000u, 1000, 0x80000000u},
  };
  for (size_t i = 0; i < sizeof hc / sizeof hc[0]; i++) {
    const uint64_t a = hc[i].x, k = (uint32_t)hc[i].k, w = hc[i].w;
    const uint64_t *cin[2] = {&a, &k};
    bi_type a1[2] = {tf(32, 1), ti(32, 1)};
    run_mixed(OCLSTD_ldexp, tf(32, 1), a1, 2, cin, &w, 1);
  }
}

static void ref_frexp(unsigned bits, uint64_t x, uint64_t *m, uint64_t *e) {
  *e = 0;
  if (isnanb(bits, x)) {
    *m = quietb(bits, x);
    return;
  }
  set_bits(X, bits, x);
  if (mpfr_zero_p(X) || mpfr_inf_p(X)) {
    *m = x;
    return;
  }
  mpfr_exp_t ex;
  mpfr_frexp(&ex, RF(bits), X, MPFR_RNDN);
  *m = enc(bits, RF(bits));
  *e = (uint32_t)(int32_t)ex;
}

static void t_frexp(void **state) {
  (void)state;
  enum { N = 120000 };
  static uint64_t xs[N > 65536 ? N : 65536], wm[N], we[N];
  for (uint32_t h = 0; h < 65536; h++) {
    xs[h] = h;
    ref_frexp(16, h, &wm[h], &we[h]);
  }
  const uint64_t *in[1] = {xs};
  for (unsigned w = 0; w < 6; w++) run_ptr(OCLSTD_frexp, 16, WIDTHS[w], 1, true, w & 1, in, wm, we, 65536);
  uint64_t seed = 0x5eed0005;
  for (unsigned bits = 32; bits <= 64; bits += 32) {
    for (size_t i = 0; i < N; i++) {
      xs[i] = rnd_pat(bits, &seed);
      ref_frexp(bits, xs[i], &wm[i], &we[i]);
    }
    for (unsigned w = 0; w < 6; w++) run_ptr(OCLSTD_frexp, bits, WIDTHS[w], 1, true, !(w & 1), in, wm, we, N);
  }
  /* hand: frexp(0) = 0, 0; frexp(-inf) = -inf, 0 (§7.5); subnormal normalised; 1 = 0.5 * 2^1 */
  static const struct {
    uint64_t x, m;
    int32_t e;
  } c[] = {
    {0x0000000000000000ull, 0x0000000000000000ull, 0},     {0x8000000000000000ull, 0x8000000000000000ull, 0},
    {0xfff0000000000000ull, 0xfff0000000000000ull, 0},     {0x3ff0000000000000ull, 0x3fe0000000000000ull, 1},
    {0x0000000000000001ull, 0x3fe0000000000000ull, -1073}, {0xc008000000000000ull, 0xbfe8000000000000ull, 2},
    {0x7ff0000000000001ull, 0x7ff8000000000001ull, 0},
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    const uint64_t e = (uint32_t)c[i].e;
    const uint64_t *cin[1] = {&c[i].x};
    run_ptr(OCLSTD_frexp, 64, 1, 1, true, true, cin, &c[i].m, &e, 1);
  }
}

/* ---- modf, fract ------------------------------------------------------------------------------------------- */

static void ref_modf(unsigned bits, uint64_t x, uint64_t *fr, uint64_t *ip) {
  if (isnanb(bits, x)) {
    *fr = *ip = quietb(bits, x);
    return;
  }
  mpfr_t I;
  mpfr_init2(I, (mpfr_prec_t)mpfr_get_prec(RF(bits)));
  set_bits(X, bits, x);
  mpfr_modf(I, RF(bits), X, MPFR_RNDN); /* exact; both parts carry x's sign */
  *ip = enc(bits, I);
  *fr = enc(bits, RF(bits));
  mpfr_clear(I);
}

/* fract: floor exact, x - floor rounded in the format, then fmin with the largest value below 1. */
static void ref_fract(unsigned bits, uint64_t x, uint64_t *fr, uint64_t *ip) {
  if (isnanb(bits, x)) {
    *fr = *ip = quietb(bits, x);
    return;
  }
  set_bits(X, bits, x);
  if (mpfr_zero_p(X)) {
    *fr = *ip = x;
    return;
  }
  if (mpfr_inf_p(X)) {
    *ip = x;
    *fr = x & signb(bits);
    return;
  }
  mpfr_floor(Y, X);
  *ip = enc(bits, Y);
  *fr = finish(bits, mpfr_sub(RF(bits), X, Y, MPFR_RNDN));
  const double cmax = bits == 16 ? 0x1.ffcp-1 : bits == 32 ? 0x1.fffffep-1 : 0x1.fffffffffffffp-1;
  if (val(bits, *fr) >= cmax) *fr = from_double(bits, cmax);
}

static void t_modf_fract(void **state) {
  (void)state;
  enum { N = 120000 };
  static uint64_t xs[N], wf[N], wi[N], wf2[N], wi2[N];
  for (uint32_t h = 0; h < 65536; h++) {
    xs[h] = h;
    ref_modf(16, h, &wf[h], &wi[h]);
    ref_fract(16, h, &wf2[h], &wi2[h]);
  }
  const uint64_t *in[1] = {xs};
  for (unsigned w = 0; w < 6; w++) {
    run_ptr(OCLSTD_modf, 16, WIDTHS[w], 1, false, w & 1, in, wf, wi, 65536);
    run_ptr(OCLSTD_fract, 16, WIDTHS[w], 1, false, w & 1, in, wf2, wi2, 65536);
  }
  uint64_t seed = 0x5eed0006;
  for (unsigned bits = 32; bits <= 64; bits += 32) {
    for (size_t i = 0; i < N; i++) {
      xs[i] = rnd_pat(bits, &seed);
      if (i % 5 == 0) xs[i] = signb(bits) | (rnd_pat(bits, &seed) & (signb(bits) - 1) >> 2); /* tiny negatives */
      ref_modf(bits, xs[i], &wf[i], &wi[i]);
      ref_fract(bits, xs[i], &wf2[i], &wi2[i]);
    }
    for (unsigned w = 0; w < 6; w++) {
      run_ptr(OCLSTD_modf, bits, WIDTHS[w], 1, false, w & 1, in, wf, wi, N);
      run_ptr(OCLSTD_fract, bits, WIDTHS[w], 1, false, w & 1, in, wf2, wi2, N);
    }
  }
  /* hand (§7.5 and §7.5.1): float */
  static const struct {
    float x, mf, mi, ff, fi;
  } c[] = {
    {-3.0f, -0.0f, -3.0f, 0.0f, -3.0f},
    {2.5f, 0.5f, 2.0f, 0.5f, 2.0f},
    {-2.5f, -0.5f, -2.0f, 0.5f, -3.0f},
    {0.0f, 0.0f, 0.0f, 0.0f, 0.0f},
    {-0.0f, -0.0f, -0.0f, -0.0f, -0.0f}, /* fract(-0) = -0, iptr -0 */
    {INFINITY, 0.0f, INFINITY, 0.0f, INFINITY},
    {-INFINITY, -0.0f, -INFINITY, -0.0f, -INFINITY},      /* fract(-inf) = -0, iptr -inf */
    {-0x1p-30f, -0x1p-30f, -0.0f, 0x1.fffffep-1f, -1.0f}, /* 1 - 2^-30 rounds to 1: clamped */
    {-0x1p-149f, -0x1p-149f, -0.0f, 0x1.fffffep-1f, -1.0f},
    {-0x1p-24f, -0x1p-24f, -0.0f, 0x1.fffffep-1f, -1.0f}, /* exactly 1 - 2^-24 = C */
    {-0x1p-25f, -0x1p-25f, -0.0f, 0x1.fffffep-1f, -1.0f}, /* 1 - 2^-25: tie, rounds to even 1.0 */
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    const uint64_t x = fbits(c[i].x), mf = fbits(c[i].mf), mi = fbits(c[i].mi), ff = fbits(c[i].ff),
                   fi = fbits(c[i].fi);
    const uint64_t *cin[1] = {&x};
    run_ptr(OCLSTD_modf, 32, 1, 1, false, false, cin, &mf, &mi, 1);
    run_ptr(OCLSTD_fract, 32, 1, 1, false, true, cin, &ff, &fi, 1);
  }
  const uint64_t hn = 0x7c01, hq = 0x7e01, hneg = 0xb400 /* -0.25 */, hf = 0x3a00 /* 0.75 */, hi = 0xbc00;
  const uint64_t *hin[1] = {&hn}, *hin2[1] = {&hneg};
  run_ptr(OCLSTD_fract, 16, 1, 1, false, false, hin, &hq, &hq, 1); /* fract(NaN): NaN in both */
  run_ptr(OCLSTD_fract, 16, 1, 1, false, false, hin2, &hf, &hi, 1);
}

/* ---- nan ----------------------------------------------------------------------------------------------------- */

static void t_nan(void **state) {
  (void)state;
  static uint64_t codes[65536], want[65536];
  for (uint32_t i = 0; i < 65536; i++) {
    codes[i] = i;
    want[i] = 0x7e00u | (i & 0x1ffu); /* quiet, positive, low 9 payload bits */
  }
  const uint64_t *in[1] = {codes};
  for (unsigned w = 0; w < 6; w++) {
    bi_type a[1] = {ti(16, WIDTHS[w])};
    run_mixed(OCLSTD_nan, tf(16, WIDTHS[w]), a, 1, in, want, 65536);
  }
  static const uint64_t fc[][2] = {{0, 0x7fc00000u},           {5, 0x7fc00005u},           {0x003fffffu, 0x7fffffffu},
                                   {0xffffffffu, 0x7fffffffu}, {0x80400000u, 0x7fc00000u}, {0x12345678u, 0x7ff45678u}};
  static const uint64_t dc[][2] = {{0, 0x7ff8000000000000ull},
                                   {1, 0x7ff8000000000001ull},
                                   {~0ull, 0x7fffffffffffffffull},
                                   {0xfff8000000000000ull, 0x7ff8000000000000ull}};
  for (unsigned w = 0; w < 6; w++) {
    for (size_t i = 0; i < 6; i++) {
      const uint64_t *cin[1] = {&fc[i][0]};
      bi_type a[1] = {ti(32, WIDTHS[w])};
      run_mixed(OCLSTD_nan, tf(32, WIDTHS[w]), a, 1, cin, &fc[i][1], 1);
    }
    for (size_t i = 0; i < 4; i++) {
      const uint64_t *cin[1] = {&dc[i][0]};
      bi_type a[1] = {ti(64, WIDTHS[w])};
      run_mixed(OCLSTD_nan, tf(64, WIDTHS[w]), a, 1, cin, &dc[i][1], 1);
    }
  }
}

/* ---- mix, smoothstep -------------------------------------------------------------------------------------------
 * Oracle: the spec's expressions with each operation done by MPFR and finished in the format. */

static uint64_t op2(unsigned bits, int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t), uint64_t a, uint64_t b) {
  set_bits(X, bits, a);
  set_bits(Y, bits, b);
  if (mpfr_nan_p(X) || mpfr_nan_p(Y)) return canon(bits);
  return finish(bits, f(RF(bits), X, Y, MPFR_RNDN));
}

static uint64_t ref_mix(unsigned bits, uint64_t x, uint64_t y, uint64_t a) {
  if (isnanb(bits, x)) return quietb(bits, x);
  if (isnanb(bits, y)) return quietb(bits, y);
  if (isnanb(bits, a)) return quietb(bits, a);
  const uint64_t d = op2(bits, mpfr_sub, y, x);
  const uint64_t p = op2(bits, mpfr_mul, d, a);
  return op2(bits, mpfr_add, x, p);
}

static uint64_t ref_smooth(unsigned bits, uint64_t e0, uint64_t e1, uint64_t x) {
  const uint64_t num = op2(bits, mpfr_sub, x, e0), den = op2(bits, mpfr_sub, e1, e0);
  uint64_t t = op2(bits, mpfr_div, num, den);
  const uint64_t zero = 0, one = from_double(bits, 1), two = from_double(bits, 2), three = from_double(bits, 3);
  if (isnanb(bits, t) || !(val(bits, t) > 0)) t = zero;
  else if (val(bits, t) > 1) t = one;
  const uint64_t tt = op2(bits, mpfr_mul, t, t);
  const uint64_t u = op2(bits, mpfr_sub, three, op2(bits, mpfr_mul, two, t));
  return op2(bits, mpfr_mul, tt, u);
}

static void t_mix_smooth(void **state) {
  (void)state;
  enum { N = 120000 };
  static uint64_t xs[N], ys[N], as[N], wm[N], ws[N];
  static const unsigned fb[3] = {16, 32, 64};
  uint64_t seed = 0x5eed0007;
  for (unsigned b = 0; b < 3; b++) {
    const unsigned bits = fb[b];
    for (size_t i = 0; i < N; i++) {
      xs[i] = rnd_pat(bits, &seed);
      ys[i] = rnd_pat(bits, &seed);
      as[i] = rnd_pat(bits, &seed);
      if (i % 2) as[i] = from_double(bits, (double)(rng_next(&seed) % 1025) / 1024); /* a in [0, 1] */
      if (i % 2 && val(bits, xs[i]) > val(bits, ys[i])) { /* as smoothstep edges: mostly e0 < e1 */
        const uint64_t t = xs[i];
        xs[i] = ys[i];
        ys[i] = t;
      }
      wm[i] = ref_mix(bits, xs[i], ys[i], as[i]);
      ws[i] = ref_smooth(bits, xs[i], ys[i], as[i]);
    }
    const uint64_t *in[3] = {xs, ys, as};
    run_ew_all_widths(OCLSTD_mix, BI_FLOAT, bits, 3, in, wm, N, NULL);
    run_ew_all_widths(OCLSTD_smoothstep, BI_FLOAT, bits, 3, in, ws, N, NULL);
  }
  /* hand: float */
  static const float mc[][4] = {
    /* x, y, a, mix */
    {1, 3, 0.5f, 2},    {1, 3, 0, 1},     {1, 3, 1, 3},
    {-2, 2, 0.25f, -1}, {1e30f, 1, 1, 0}, /* (1 - 1e30) rounds to -1e30; x + (-1e30) = 0, not 1 */
  };
  for (size_t i = 0; i < sizeof mc / sizeof mc[0]; i++) {
    const uint64_t x = fbits(mc[i][0]), y = fbits(mc[i][1]), a = fbits(mc[i][2]), w = fbits(mc[i][3]);
    const uint64_t *cin[3] = {&x, &y, &a};
    run_ew(OCLSTD_mix, BI_FLOAT, 32, 1, 3, cin, &w, 1, NULL);
  }
  const uint64_t inf = 0x7f800000u, half = 0x3f000000u, cn = canon(32), nn = 0xffc00123u, one = 0x3f800000u, zero = 0;
  const uint64_t *m1[3] = {&inf, &inf, &half}, *m2[3] = {&one, &nn, &half}, *m3[3] = {&zero, &inf, &zero};
  run_ew(OCLSTD_mix, BI_FLOAT, 32, 1, 3, m1, &cn, 1, NULL); /* inf - inf */
  run_ew(OCLSTD_mix, BI_FLOAT, 32, 1, 3, m2, &nn, 1, NULL); /* NaN operand y, already quiet */
  run_ew(OCLSTD_mix, BI_FLOAT, 32, 1, 3, m3, &cn, 1, NULL); /* inf * 0 */
  static const float sc[][4] = {
    /* e0, e1, x, smoothstep */
    {0, 1, 0.5f, 0.5f}, {0, 1, -1, 0}, {0, 1, 2, 1}, {0, 1, 0.25f, 0.15625f}, {0, 1, NAN, 0},
    {1, 1, 1, 0},       {1, 1, 2, 1},  {1, 1, 0, 0}, {2, 0, 1, 0.5f},         {0, 4, 1, 0.15625f},
  };
  for (size_t i = 0; i < sizeof sc / sizeof sc[0]; i++) {
    const uint64_t e0 = fbits(sc[i][0]), e1 = fbits(sc[i][1]), x = fbits(sc[i][2]), w = fbits(sc[i][3]);
    const uint64_t *cin[3] = {&e0, &e1, &x};
    run_ew(OCLSTD_smoothstep, BI_FLOAT, 32, 1, 3, cin, &w, 1, NULL);
  }
}

/* ---- degrees, radians ---------------------------------------------------------------------------------------
 * Oracle: x * 180/pi (resp. pi/180) with 600-bit pi, then rounded once to the format (the product is
 * irrational for x != 0, so a 600-bit approximation cannot sit on a rounding boundary). */
static uint64_t ref_angle(unsigned bits, uint64_t x, bool deg) {
  if (isnanb(bits, x)) return quietb(bits, x);
  set_bits(X, bits, x);
  if (mpfr_zero_p(X) || mpfr_inf_p(X)) return x;
  mpfr_const_pi(T, MPFR_RNDN);
  if (deg) mpfr_ui_div(T, 180, T, MPFR_RNDN);
  else mpfr_div_ui(T, T, 180, MPFR_RNDN);
  mpfr_mul(T, T, X, MPFR_RNDN);
  return round_to(bits, T);
}

static void t_angles(void **state) {
  (void)state;
  enum { N = 150000 };
  static uint64_t xs[N], wd[N], wr[N];
  for (uint32_t h = 0; h < 65536; h++) {
    xs[h] = h;
    wd[h] = ref_angle(16, h, true);
    wr[h] = ref_angle(16, h, false);
  }
  const uint64_t *in[1] = {xs};
  run_ew_all_widths(OCLSTD_degrees, BI_FLOAT, 16, 1, in, wd, 65536, NULL);
  run_ew_all_widths(OCLSTD_radians, BI_FLOAT, 16, 1, in, wr, 65536, NULL);
  uint64_t seed = 0x5eed0008;
  for (unsigned bits = 32; bits <= 64; bits += 32) {
    for (size_t i = 0; i < N; i++) {
      xs[i] = rnd_pat(bits, &seed);
      if (bits == 32 && i % 50 == 0) /* the float mantissa whose product needs the MPFR fallback */
        xs[i] = ((rng_next(&seed) & 1) << 31) | (uint64_t)((rng_next(&seed) % 250) + 1) << 23 | 0x585141u;
      if (bits == 64 && i % 20 == 0) /* outside the double fast path: tiny (subnormal radians) and huge */
        xs[i] = (rng_next(&seed) & 0x800fffffffffffffull) |
                (uint64_t)(i % 40 ? rng_next(&seed) % 100 : 2000 + rng_next(&seed) % 46) << 52;
      wd[i] = ref_angle(bits, xs[i], true);
      wr[i] = ref_angle(bits, xs[i], false);
    }
    run_ew_all_widths(OCLSTD_degrees, BI_FLOAT, bits, 1, in, wd, N, NULL);
    run_ew_all_widths(OCLSTD_radians, BI_FLOAT, bits, 1, in, wr, N, NULL);
  }
  /* hand: degrees(pi) in float is 180 exactly; radians(180) = RN(pi); DBL_MAX overflows */
  const uint64_t pif = fbits(0x1.921fb6p+1f), w180 = fbits(180.0f), x180 = fbits(180.0f), wpi = fbits(0x1.921fb6p+1f);
  const uint64_t *p1[1] = {&pif}, *p2[1] = {&x180};
  run_ew(OCLSTD_degrees, BI_FLOAT, 32, 1, 1, p1, &w180, 1, NULL);
  run_ew(OCLSTD_radians, BI_FLOAT, 32, 1, 1, p2, &wpi, 1, NULL);
  const uint64_t dmax = dbits(DBL_MAX), dinf = dbits(INFINITY), d180 = dbits(180.0), dpi = dbits(0x1.921fb54442d18p+1);
  const uint64_t *p3[1] = {&dmax}, *p4[1] = {&d180};
  run_ew(OCLSTD_degrees, BI_FLOAT, 64, 1, 1, p3, &dinf, 1, NULL);
  run_ew(OCLSTD_radians, BI_FLOAT, 64, 1, 1, p4, &dpi, 1, NULL);
}

/* ---- geometric ------------------------------------------------------------------------------------------------
 * Oracles from the exact sum of squares (and exact products for cross) in MPFR. */

static mpfr_prec_t span_prec(unsigned bits) { return bits == 16 ? 160 : bits == 32 ? 700 : 4600; }

static void exact_sumsq(mpfr_ptr s, unsigned bits, const uint64_t *v, unsigned n) {
  mpfr_set_prec(s, span_prec(bits)); /* every sum of squares of the format is exact in this */
  mpfr_set_ui(s, 0, MPFR_RNDN);
  for (unsigned k = 0; k < n; k++) {
    set_bits(Z, bits, v[k]);
    mpfr_set_prec(T, 120);
    mpfr_sqr(T, Z, MPFR_RNDN);    /* exact: 106 bits */
    mpfr_add(s, s, T, MPFR_RNDN); /* exact */
  }
  mpfr_set_prec(T, 600);
}

static uint64_t ref_length(unsigned bits, const uint64_t *v, unsigned n) {
  for (unsigned k = 0; k < n; k++)
    if (isnanb(bits, v[k])) return quietb(bits, v[k]);
  for (unsigned k = 0; k < n; k++)
    if (isinf(val(bits, v[k]))) return from_double(bits, INFINITY);
  mpfr_t s;
  mpfr_init2(s, 2);
  exact_sumsq(s, bits, v, n);
  const int t = mpfr_sqrt(RF(bits), s, MPFR_RNDN); /* correctly rounded from the exact sum */
  mpfr_clear(s);
  return finish(bits, t);
}

/* Precision for the normalize oracle: q = x / sqrt(S) is never a rounding midpoint M, and
 * |x^2 - M^2 S| is a non-zero multiple of 2^-4298 (double; lsb(x^2) >= 2^-2148, lsb(M^2 S) >=
 * 2^-2150 * 2^-2148), so |q - M| / q >= 2^-4298 / (2 * 2^1024 * 2^1024) = 2^-6347; float: 2^-854,
 * half: 2^-130. Computing q with more bits than that rounds exactly like q. */
static mpfr_prec_t quot_prec(unsigned bits) { return bits == 16 ? 200 : bits == 32 ? 900 : 6400; }

static void ref_normalize(unsigned bits, const uint64_t *v, unsigned n, uint64_t *out) {
  for (unsigned k = 0; k < n; k++)
    if (isnanb(bits, v[k])) {
      for (unsigned j = 0; j < n; j++) out[j] = quietb(bits, v[k]);
      return;
    }
  uint64_t w[4];
  bool all0 = true, inf = false;
  for (unsigned k = 0; k < n; k++) {
    const double d = val(bits, v[k]);
    all0 = all0 && d == 0;
    inf = inf || isinf(d);
  }
  if (all0) {
    memcpy(out, v, n * sizeof *v);
    return;
  }
  for (unsigned k = 0; k < n; k++) {
    const double d = val(bits, v[k]);
    w[k] = !inf ? v[k] : from_double(bits, isinf(d) ? copysign(1.0, d) : copysign(0.0, d));
  }
  mpfr_t s, r, q;
  mpfr_init2(s, 2);
  mpfr_init2(r, quot_prec(bits) + 10);
  mpfr_init2(q, quot_prec(bits));
  exact_sumsq(s, bits, w, n);
  mpfr_sqrt(r, s, MPFR_RNDN);
  for (unsigned k = 0; k < n; k++) {
    set_bits(Z, bits, w[k]);
    mpfr_div(q, Z, r, MPFR_RNDN); /* zeros keep their sign */
    out[k] = round_to(bits, q);
  }
  mpfr_clears(s, r, q, (mpfr_ptr)0);
}

static uint64_t ref_cross1(unsigned bits, uint64_t a1, uint64_t b2, uint64_t a2, uint64_t b1) {
  const uint64_t o[4] = {a1, b2, a2, b1};
  for (unsigned k = 0; k < 4; k++)
    if (isnanb(bits, o[k])) return quietb(bits, o[k]);
  mpfr_t p, q, d;
  mpfr_inits2(120, p, q, (mpfr_ptr)0);
  mpfr_init2(d, span_prec(bits));
  set_bits(Z, bits, a1);
  mpfr_set_d(p, val(bits, b2), MPFR_RNDN);
  mpfr_mul(p, p, Z, MPFR_RNDN);
  set_bits(Z, bits, a2);
  mpfr_set_d(q, val(bits, b1), MPFR_RNDN);
  mpfr_mul(q, q, Z, MPFR_RNDN);
  mpfr_sub(d, p, q, MPFR_RNDN); /* exact; inf - inf = NaN, IEEE signed zeros */
  const uint64_t r = mpfr_nan_p(d) ? canon(bits) : round_to(bits, d);
  mpfr_clears(p, q, d, (mpfr_ptr)0);
  return r;
}

/* Vectors: mostly moderate values; some with widely spread or extreme exponents; some specials. */
static void rnd_vec(unsigned bits, uint64_t *v, unsigned n, uint64_t *s, size_t i) {
  for (unsigned k = 0; k < n; k++) {
    if (i % 4 == 0) {
      v[k] = rnd_pat(bits, s);
    } else {
      const double m = (double)(int64_t)(rng_next(s) % 2000001 - 1000000) / 1000;
      const int sc = i % 4 == 1 ? 0
                                : (int)(rng_next(s) % (bits == 16   ? 20
                                                       : bits == 32 ? 200
                                                                    : 1800)) -
                                    (bits == 16   ? 12
                                     : bits == 32 ? 100
                                                  : 900);
      const double d = ldexp(m, sc);
      v[k] = bits == 16 ? bi_half_from_double(d, BI_RTE) : bits == 32 ? fbits((float)d) : dbits(d);
    }
    if (i % 97 == 5 && k == 1) v[k] = from_double(bits, 0.0);
  }
}

typedef enum { G_LEN, G_DIST, G_NORM, G_CROSS } gkind;

/* Run one geometric instruction on `count` vectors (n components per lane). */
static void run_geom(uint32_t op, gkind g, unsigned bits, unsigned n, const uint64_t *a, const uint64_t *b,
                     const uint64_t *want, size_t count) {
  const unsigned es = bits / 8, nres = (g == G_LEN || g == G_DIST) ? 1 : n;
  const bi_type v = tf(bits, n), args[2] = {v, v};
  const bi_resolved r = must_resolve(op, tf(bits, nres), args, g == G_LEN || g == G_NORM ? 1 : 2, 0);
  const unsigned sb[2] = {n * es, n * es};
  static warp w;
  for (size_t base = 0; base < count; base += W_LANES) {
    warp_init(&w, nres * es, sb, 2);
    for (unsigned l = 0; l < W_LANES; l++) {
      const size_t cs = (base + l) % count;
      for (unsigned k = 0; k < n; k++) {
        put_elem(w_src(&w, 0, l) + k * es, es, a[cs * 4 + k]);
        if (b) put_elem(w_src(&w, 1, l) + k * es, es, b[cs * 4 + k]);
      }
    }
    assert_true(warp_call(&r, &w, NULL));
    for (unsigned l = 0; l < W_LANES; l++) {
      const size_t cs = (base + l) % count;
      for (unsigned k = 0; k < nres; k++) {
        const uint64_t got = get_elem(w_dst(&w, l) + k * es, es), wnt = want[cs * 4 + k];
        if (got != wnt)
          fail_msg("%s f%u x%u case %zu comp %u (a = %#llx %#llx %#llx, b = %#llx %#llx %#llx): got %#llx, want %#llx",
                   spv_oclstd_name(op), bits, n, cs, k, (unsigned long long)a[cs * 4],
                   (unsigned long long)a[cs * 4 + 1], (unsigned long long)a[cs * 4 + 2],
                   b ? (unsigned long long)b[cs * 4] : 0ull, b ? (unsigned long long)b[cs * 4 + 1] : 0ull,
                   b ? (unsigned long long)b[cs * 4 + 2] : 0ull, (unsigned long long)got, (unsigned long long)wnt);
      }
      assert_int_equal(w_dst(&w, l)[nres * es], W_SENTINEL);
    }
  }
}

static void t_geometric(void **state) {
  (void)state;
  enum { N = 50000 }; /* per (type, width): 200000 vectors per type and function (cross: 100000) */
  static uint64_t a[N * 4], b[N * 4], d[N * 4], wl[N * 4], wd[N * 4], wn[N * 4], wc[N * 4];
  static const unsigned fb[3] = {16, 32, 64};
  uint64_t seed = 0x5eed0009;
  for (unsigned bi = 0; bi < 3; bi++)
    for (unsigned n = 1; n <= 4; n++) {
      const unsigned bits = fb[bi];
      for (size_t i = 0; i < N; i++) {
        rnd_vec(bits, a + i * 4, n, &seed, i);
        rnd_vec(bits, b + i * 4, n, &seed, i + 1);
        if (i % 11 == 3) memcpy(b + i * 4, a + i * 4, n * sizeof *a); /* distance 0, cross 0 */
        wl[i * 4] = ref_length(bits, a + i * 4, n);
        for (unsigned k = 0; k < n; k++) { /* distance: a - b in the format */
          const uint64_t x = a[i * 4 + k], y = b[i * 4 + k];
          d[i * 4 + k] = isnanb(bits, x)   ? quietb(bits, x)
                         : isnanb(bits, y) ? quietb(bits, y)
                                           : op2(bits, mpfr_sub, x, y);
        }
        wd[i * 4] = ref_length(bits, d + i * 4, n);
        ref_normalize(bits, a + i * 4, n, wn + i * 4);
        if (n >= 3) {
          const uint64_t *p = a + i * 4, *q = b + i * 4;
          wc[i * 4 + 0] = ref_cross1(bits, p[1], q[2], p[2], q[1]);
          wc[i * 4 + 1] = ref_cross1(bits, p[2], q[0], p[0], q[2]);
          wc[i * 4 + 2] = ref_cross1(bits, p[0], q[1], p[1], q[0]);
          wc[i * 4 + 3] = 0;
        }
      }
      run_geom(OCLSTD_length, G_LEN, bits, n, a, NULL, wl, N);
      run_geom(OCLSTD_distance, G_DIST, bits, n, a, b, wd, N);
      run_geom(OCLSTD_normalize, G_NORM, bits, n, a, NULL, wn, N);
      if (n >= 3) run_geom(OCLSTD_cross, G_CROSS, bits, n, a, b, wc, N);
      if (bits == 32) {
        run_geom(OCLSTD_fast_length, G_LEN, bits, n, a, NULL, wl, N);
        run_geom(OCLSTD_fast_distance, G_DIST, bits, n, a, b, wd, N);
        run_geom(OCLSTD_fast_normalize, G_NORM, bits, n, a, NULL, wn, N);
      }
    }
  /* half length of one component is |x|: all 65536 */
  static uint64_t hx[65536 * 4], hw[65536 * 4];
  for (uint32_t h = 0; h < 65536; h++) {
    hx[h * 4] = h;
    hw[h * 4] = isnanb(16, h) ? quietb(16, h) : h & 0x7fffu;
  }
  run_geom(OCLSTD_length, G_LEN, 16, 1, hx, NULL, hw, 65536);
}

static void t_geometric_hand(void **state) {
  (void)state;
  const float inf = INFINITY;
  struct {
    float v[4];
    unsigned n;
    float len;
  } lc[] = {
    {{3, 4}, 2, 5},
    {{FLT_MAX, FLT_MAX}, 2, INFINITY},                       /* the true length overflows */
    {{0x1p100f, 0x1p100f, 0x1p100f, 0x1p100f}, 4, 0x1p101f}, /* squares overflow float, not the result */
    {{0x1p-149f, 0}, 2, 0x1p-149f},                          /* no underflow to 0 */
    {{0x1p-140f, 0x1p-140f, 0x1p-140f, 0x1p-140f}, 4, 0x1p-139f},
    {{10066335, 13421780}, 2, 16777224}, /* exactly 16777225, a tie: to even */
    {{-0.0f, -0.0f}, 2, 0},
    {{1, inf, NAN}, 3, NAN}, /* the NaN wins (quieted) */
    {{1, -inf, 2}, 3, INFINITY},
  };
  for (size_t i = 0; i < sizeof lc / sizeof lc[0]; i++) {
    uint64_t a[4] = {0}, w[4] = {0};
    for (unsigned k = 0; k < lc[i].n; k++) a[k] = fbits(lc[i].v[k]);
    w[0] = isnan(lc[i].len) ? 0x7fc00000u : fbits(lc[i].len);
    run_geom(OCLSTD_length, G_LEN, 32, lc[i].n, a, NULL, w, 1);
  }
  struct {
    float v[4];
    unsigned n;
    float r[4];
  } nc[] = {
    {{3, 4}, 2, {0.6f, 0.8f}},
    {{0, -0.0f, 0}, 3, {0, -0.0f, 0}},                                    /* all zero: returned unchanged */
    {{inf, 5, -inf, -2}, 4, {0x1.6a09e6p-1f, 0, -0x1.6a09e6p-1f, -0.0f}}, /* infinities: 1/sqrt(2) */
    {{1, 1, 1, 1}, 4, {0.5f, 0.5f, 0.5f, 0.5f}},
    {{0x1p-149f, 0}, 2, {1, 0}},
    {{-7, 0}, 2, {-1, 0}},
  };
  for (size_t i = 0; i < sizeof nc / sizeof nc[0]; i++) {
    uint64_t a[4] = {0}, w[4] = {0};
    for (unsigned k = 0; k < nc[i].n; k++) {
      a[k] = fbits(nc[i].v[k]);
      w[k] = fbits(nc[i].r[k]);
    }
    run_geom(OCLSTD_normalize, G_NORM, 32, nc[i].n, a, NULL, w, 1);
  }
  uint64_t an[4] = {fbits(1), 0x7f800001u, fbits(2)}, wnn[4] = {0x7fc00001u, 0x7fc00001u, 0x7fc00001u};
  run_geom(OCLSTD_normalize, G_NORM, 32, 3, an, NULL, wnn, 1); /* a vector full of the NaN */
  /* cross: the spec's formula; w = 0; cancellation exact */
  uint64_t x[4] = {fbits(1), 0, 0, fbits(9)}, y[4] = {0, fbits(1), 0, fbits(9)}, wc[4] = {0, 0, fbits(1), 0};
  run_geom(OCLSTD_cross, G_CROSS, 32, 4, x, y, wc, 1);
  const double e = 0x1p-52;
  uint64_t dx[4] = {dbits(1 + e), dbits(1 - e), dbits(1)}, dy[4] = {dbits(1 - e), dbits(1 + e), dbits(1)}, dw[4];
  /* z = (1+e)^2 - (1-e)^2 = 4e exactly; x = (1-e) - (1+e) = -2e; y = (1-e) - (1+e) = -2e */
  dw[0] = dbits(-2 * e);
  dw[1] = dbits(-2 * e);
  dw[2] = dbits(4 * e);
  run_geom(OCLSTD_cross, G_CROSS, 64, 3, dx, dy, dw, 1);
  uint64_t ix[4] = {fbits(inf), 0, 0}, iy[4] = {0, fbits(1), 0}, iw[4] = {0, 0x7fc00000u, fbits(inf)};
  run_geom(OCLSTD_cross, G_CROSS, 32, 3, ix, iy, iw, 1); /* x: 0*0 - 0*1 = 0; y: 0*0 - inf*0 = NaN */
  /* distance: (FLT_MAX) - (-FLT_MAX) overflows in the subtraction (spec: length(p0 - p1)) */
  uint64_t p0[4] = {fbits(FLT_MAX)}, p1[4] = {fbits(-FLT_MAX)}, dinf[4] = {fbits(inf)};
  run_geom(OCLSTD_distance, G_DIST, 32, 1, p0, p1, dinf, 1);
  uint64_t q0[4] = {fbits(1), fbits(2)}, q1[4] = {fbits(4), fbits(6)}, d5[4] = {fbits(5)};
  run_geom(OCLSTD_distance, G_DIST, 32, 2, q0, q1, d5, 1);
}

/* ---- lanes and faults ---------------------------------------------------------------------------------------- */

static void t_lanes_faults(void **state) {
  (void)state;
  /* a partial, unordered lane list: only listed lanes are written */
  const bi_type t = tf(32, 2), a2[2] = {t, t};
  const bi_resolved r = must_resolve(OCLSTD_fmod, t, a2, 2, 0);
  static warp w;
  const unsigned sb[2] = {8, 8};
  warp_init(&w, 8, sb, 2);
  for (unsigned l = 0; l < W_LANES; l++)
    for (unsigned k = 0; k < 2; k++) {
      put_elem(w_src(&w, 0, l) + 4 * k, 4, fbits((float)(7 + l)));
      put_elem(w_src(&w, 1, l) + 4 * k, 4, fbits(4.0f));
    }
  w.nlanes = 2;
  w.lanes[0] = 3;
  w.lanes[1] = 1;
  assert_true(warp_call(&r, &w, NULL));
  assert_int_equal(get_elem(w_dst(&w, 3), 4), fbits(2.0f));     /* fmod(10, 4) */
  assert_int_equal(get_elem(w_dst(&w, 1) + 4, 4), fbits(0.0f)); /* fmod(8, 4) */
  assert_int_equal(w_dst(&w, 0)[0], W_SENTINEL);
  assert_int_equal(w_dst(&w, 2)[0], W_SENTINEL);
  /* an out-of-bounds pointer: the access faults and the builtin returns false at once */
  static uint8_t buf[64];
  fake_mem fm;
  fake_mem_init(&fm, buf, 0x1000, sizeof buf);
  bi_type p = tptr(32, BI_INT, 32);
  p.pointee_ncomp = 4;
  const bi_type a4[3] = {tf(32, 4), tf(32, 4), p};
  const bi_resolved rq = must_resolve(OCLSTD_remquo, tf(32, 4), a4, 3, 0);
  const unsigned sb3[3] = {16, 16, 4};
  warp_init(&w, 16, sb3, 3);
  for (unsigned l = 0; l < W_LANES; l++)
    put_elem(w_src(&w, 2, l), 4, 0x1004 + 16u * l); /* lane 3: 0x1034 + 16 > 0x1040 */
  assert_false(warp_call(&rq, &w, &fm.mem));
  assert_int_equal(fm.faults, 1);
  assert_int_equal(fm.fault_lane, 3);
  assert_int_equal(fm.last_bytes, 16);
  assert_int_equal(w_dst(&w, 3)[0], W_SENTINEL); /* nothing written for the faulting lane */
  assert_int_not_equal(w_dst(&w, 2)[0], W_SENTINEL);
  /* no memory interface at all: false */
  assert_false(warp_call(&rq, &w, NULL));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(t_resolve),        cmocka_unit_test(t_rem),          cmocka_unit_test(t_rem_hand),
    cmocka_unit_test(t_minmax),         cmocka_unit_test(t_nextafter),    cmocka_unit_test(t_ldexp),
    cmocka_unit_test(t_frexp),          cmocka_unit_test(t_modf_fract),   cmocka_unit_test(t_nan),
    cmocka_unit_test(t_mix_smooth),     cmocka_unit_test(t_angles),       cmocka_unit_test(t_geometric),
    cmocka_unit_test(t_geometric_hand), cmocka_unit_test(t_lanes_faults),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
