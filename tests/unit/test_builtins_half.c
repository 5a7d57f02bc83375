/*
 * test_builtins_half.c — binary16 conversions (builtins/bi_half.c and the public spvi_half_*) and
 * the half-precision arithmetic of the builtins, against independent references: values built with
 * ldexp for all 65536 half patterns, MPFR (precision 11, binary16 exponent range, subnormalize) for
 * float->half and double->half in all four rounding modes and for half fma/mad/sqrt/floor/ceil/
 * trunc/rint/round, and hand-derived boundary values. Also the normalized image channel
 * conversions x / d (builtins/bi_image.c) for every stored value, against MPFR.
 */
#include "bi_image.h"
#include "builtins_harness.h"
#include "spvi.h"

#include <float.h>
#include <stdlib.h>

static mpfr_t H, A, B, C; /* H: precision 11 (a half result); A, B, C: half operands */

static int setup(void **state) {
  (void)state;
  mpfr_inits2(11, H, A, B, C, (mpfr_ptr)0);
  return 0;
}
static int teardown(void **state) {
  (void)state;
  mpfr_clears(H, A, B, C, (mpfr_ptr)0);
  mpfr_free_cache();
  return 0;
}

static const bi_round MODES[4] = {BI_RTE, BI_RTZ, BI_RTP, BI_RTN};
static const char *const MODE_NAME[4] = {"rte", "rtz", "rtp", "rtn"};

/* The documented NaN policy (bi_half.h): sign and top payload bits kept, quiet bit set. */
static uint16_t nan_from_f32(uint32_t b) { return (uint16_t)(((b >> 16) & 0x8000) | 0x7e00 | ((b & 0x7fffff) >> 13)); }
static uint16_t nan_from_f64(uint64_t b) {
  return (uint16_t)(((b >> 48) & 0x8000) | 0x7e00 | (uint16_t)((b & 0xfffffffffffffull) >> 42));
}

/* MPFR's binary16 rounding of a float / double (single rounding from the exact input). */
static uint16_t ref_from_float(float f, bi_round r) {
  if (isnan(f)) return nan_from_f32(fbits(f));
  ref_begin(REF_HALF);
  int inex = mpfr_set_flt(H, f, ref_rnd(r));
  inex = mpfr_subnormalize(H, inex, ref_rnd(r));
  (void)inex;
  const uint16_t out = ref_encode_half(H);
  ref_end();
  return out;
}
static uint16_t ref_from_double(double d, bi_round r) {
  if (isnan(d)) return nan_from_f64(dbits(d));
  ref_begin(REF_HALF);
  int inex = mpfr_set_d(H, d, ref_rnd(r));
  inex = mpfr_subnormalize(H, inex, ref_rnd(r));
  (void)inex;
  const uint16_t out = ref_encode_half(H);
  ref_end();
  return out;
}

/* ---- widening: all 65536 patterns ------------------------------------------------------------ */

static void t_half_to_float_and_double_exhaustive(void **state) {
  (void)state;
  unsigned bad = 0;
  for (uint32_t h = 0; h < 65536; h++) {
    const bool nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
    uint32_t wf;
    uint64_t wd;
    if (nan) {
      wf = ((h & 0x8000u) << 16) | 0x7fc00000u | ((h & 0x3ffu) << 13);
      wd = ((uint64_t)(h & 0x8000u) << 48) | 0x7ff8000000000000ull | ((uint64_t)(h & 0x3ffu) << 42);
    } else {
      const double v = ref_half_value((uint16_t)h);
      wf = fbits((float)v); /* exact: every half is a float */
      wd = dbits(v);
    }
    bad += fbits(bi_half_to_float((uint16_t)h)) != wf;
    bad += dbits(bi_half_to_double((uint16_t)h)) != wd;
    bad += dbits(spvi_half_to_double((uint16_t)h)) != wd;
    /* and back: every non-NaN half survives the round trip in every mode */
    if (!nan)
      for (int m = 0; m < 4; m++) {
        bad += bi_half_from_float(bi_half_to_float((uint16_t)h), MODES[m]) != h;
        bad += bi_half_from_double(bi_half_to_double((uint16_t)h), MODES[m]) != h;
      }
  }
  assert_int_equal(bad, 0);
  print_message("half->float, half->double, round trips: all 65536 patterns exact\n");
}

/* ---- narrowing: hand-derived boundaries ------------------------------------------------------------ */

typedef struct {
  double v;
  uint16_t want[4];
} hcase; /* want: rte rtz rtp rtn */

static const hcase HAND[] = {
  {65504.0, {0x7bff, 0x7bff, 0x7bff, 0x7bff}},        /* largest half */
  {65519.99609375, {0x7bff, 0x7bff, 0x7c00, 0x7bff}}, /* below the 65520 midpoint */
  {65520.0, {0x7c00, 0x7bff, 0x7c00, 0x7bff}},        /* tie with 65536 (even) -> inf */
  {-65520.0, {0xfc00, 0xfbff, 0xfbff, 0xfc00}},
  {65536.0, {0x7c00, 0x7bff, 0x7c00, 0x7bff}},
  {-1e30, {0xfc00, 0xfbff, 0xfbff, 0xfc00}},
  {INFINITY, {0x7c00, 0x7c00, 0x7c00, 0x7c00}},
  {-INFINITY, {0xfc00, 0xfc00, 0xfc00, 0xfc00}},
  {0.0, {0x0000, 0x0000, 0x0000, 0x0000}},
  {-0.0, {0x8000, 0x8000, 0x8000, 0x8000}},
  {1.0, {0x3c00, 0x3c00, 0x3c00, 0x3c00}},
  {0x1p-24, {0x0001, 0x0001, 0x0001, 0x0001}}, /* smallest subnormal */
  {0x1p-25, {0x0000, 0x0000, 0x0001, 0x0000}}, /* tie with 0 (even) */
  {-0x1p-25, {0x8000, 0x8000, 0x8000, 0x8001}},
  {0x3p-26, {0x0001, 0x0000, 0x0001, 0x0000}},  /* 0.75 * 2^-24 */
  {0x3p-25, {0x0002, 0x0001, 0x0002, 0x0001}},  /* 1.5 * 2^-24: tie, even is 2 */
  {0x1p-149, {0x0000, 0x0000, 0x0001, 0x0000}}, /* float's smallest subnormal */
  {-0x1p-149, {0x8000, 0x8000, 0x8000, 0x8001}},
  {0x1p-14, {0x0400, 0x0400, 0x0400, 0x0400}},           /* smallest normal */
  {0x1p-14 - 0x1p-25, {0x0400, 0x03ff, 0x0400, 0x03ff}}, /* tie 0x3ff/0x400: even 0x400 */
  {0x1p-14 - 0x1p-24, {0x03ff, 0x03ff, 0x03ff, 0x03ff}}, /* largest subnormal */
  {1.0 + 0x1p-11, {0x3c00, 0x3c00, 0x3c01, 0x3c00}},     /* tie: even is 1.0 */
  {-(1.0 + 0x1p-11), {0xbc00, 0xbc00, 0xbc00, 0xbc01}},
  {1.0 + 0x3p-11, {0x3c02, 0x3c01, 0x3c02, 0x3c01}}, /* tie: even is 1 + 2^-9 */
  {0.1f, {0x2e66, 0x2e66, 0x2e67, 0x2e66}},          /* 0.1f = 0x1.99999ap-4 */
  {FLT_MAX, {0x7c00, 0x7bff, 0x7c00, 0x7bff}},
};

static void t_float_to_half_hand(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof HAND / sizeof HAND[0]; i++)
    for (int m = 0; m < 4; m++) {
      const float f = (float)HAND[i].v;
      assert_true((double)f == HAND[i].v || fabs(HAND[i].v) > 1e6); /* the float is the value */
      if (bi_half_from_float(f, MODES[m]) != HAND[i].want[m])
        fail_msg("float %a %s: got %#x want %#x", (double)f, MODE_NAME[m], bi_half_from_float(f, MODES[m]),
                 HAND[i].want[m]);
      if (bi_half_from_double(HAND[i].v, MODES[m]) != HAND[i].want[m])
        fail_msg("double %a %s: got %#x want %#x", HAND[i].v, MODE_NAME[m], bi_half_from_double(HAND[i].v, MODES[m]),
                 HAND[i].want[m]);
    }
  /* NaNs: payload policy, every mode */
  static const struct {
    uint32_t in;
    uint16_t want;
  } fn[] = {
    {0x7f800001u, 0x7e00}, {0xffc00000u, 0xfe00}, {0x7fffffffu, 0x7fff}, {0x7faaaaaau, 0x7f55}, {0xffaaaaaau, 0xff55},
  };
  for (size_t i = 0; i < sizeof fn / sizeof fn[0]; i++)
    for (int m = 0; m < 4; m++) assert_int_equal(bi_half_from_f32bits(fn[i].in, MODES[m]), fn[i].want);
  static const struct {
    uint64_t in;
    uint16_t want;
  } dn[] = {
    {0x7ff0000000000001ull, 0x7e00},
    {0xfff8000000000000ull, 0xfe00},
    {0x7ff4000000000000ull, 0x7f00},
  };
  for (size_t i = 0; i < sizeof dn / sizeof dn[0]; i++)
    for (int m = 0; m < 4; m++) assert_int_equal(bi_half_from_f64bits(dn[i].in, MODES[m]), dn[i].want);
}

/* double -> half rounds once: 1 + 2^-11 + 2^-40 is above the midpoint between 1 and 1 + 2^-10, so
 * RTE gives 0x3c01; going through float would first round to the midpoint 1 + 2^-11 and then tie
 * to even, 0x3c00. */
static void t_double_to_half_single_rounding(void **state) {
  (void)state;
  const double d = 1.0 + 0x1p-11 + 0x1p-40;
  assert_int_equal(bi_half_from_double(d, BI_RTE), 0x3c01);
  assert_int_equal(bi_half_from_float((float)d, BI_RTE), 0x3c00); /* the double-rounding answer */
  assert_int_equal(bi_half_from_double(d, BI_RTZ), 0x3c00);
  assert_int_equal(bi_half_from_double(d, BI_RTP), 0x3c01);
  assert_int_equal(bi_half_from_double(d, BI_RTN), 0x3c00);
  assert_int_equal(bi_half_from_double(-d, BI_RTE), 0xbc01);
  assert_int_equal(bi_half_from_double(0x1p-25 + 0x1p-70, BI_RTE), 0x0001); /* just above the tie */
  assert_int_equal(bi_half_from_double(0x1p-25 - 0x1p-70, BI_RTP), 0x0001);
  assert_int_equal(bi_half_from_double(0x1p-25 - 0x1p-70, BI_RTE), 0x0000);
  assert_int_equal(bi_half_from_double(4.9406564584124654e-324, BI_RTE), 0x0000); /* DBL_TRUE_MIN */
  assert_int_equal(bi_half_from_double(4.9406564584124654e-324, BI_RTP), 0x0001);
  assert_int_equal(bi_half_from_double(-4.9406564584124654e-324, BI_RTN), 0x8001);
  assert_int_equal(bi_half_from_double(1e300, BI_RTE), 0x7c00);
  assert_int_equal(bi_half_from_double(1e300, BI_RTZ), 0x7bff);
  assert_int_equal(bi_half_from_double(-1e300, BI_RTP), 0xfbff);
  assert_int_equal(bi_half_from_double(65519.999999999, BI_RTE), 0x7bff);
  assert_int_equal(bi_half_from_double(65520.000000001, BI_RTZ), 0x7bff);
  /* the public API is RTE */
  assert_int_equal(spvi_half_from_double(65504.0), 0x7bff);
  assert_int_equal(spvi_half_from_double(1.0), 0x3c00);
  assert_int_equal(spvi_half_from_double(-2.0), 0xc000);
  assert_int_equal(spvi_half_from_double(0.1), 0x2e66);
  assert_int_equal(spvi_half_from_double(d), 0x3c01);
  assert_true(spvi_half_to_double(0x2e66) == 0x1.998p-4);
}

/* ---- narrowing: millions of samples against MPFR ----------------------------------------------- */

/* Float samples: every half, its neighbouring floats, every midpoint between consecutive halves and
 * the floats on either side of it (both signs), then random floats: uniform bit patterns and
 * patterns concentrated on the half range with mantissas near midpoints. */
static size_t float_samples(float **out) {
  const size_t cap = 4000000;
  float *s = malloc(cap * sizeof *s);
  assert_non_null(s);
  size_t n = 0;
  for (uint32_t h = 0; h < 0x7c00; h++) {
    const double v = ref_half_value((uint16_t)h);
    const double next = h == 0x7bff ? 65536.0 : ref_half_value((uint16_t)(h + 1));
    const float mid = (float)((v + next) / 2); /* exact: 12 significant bits */
    const float pts[6] = {(float)v, nextafterf((float)v, INFINITY), nextafterf((float)v, -INFINITY),
                          mid,      nextafterf(mid, INFINITY),      nextafterf(mid, -INFINITY)};
    for (int i = 0; i < 6; i++) {
      s[n++] = pts[i];
      s[n++] = -pts[i];
    }
  }
  uint64_t rng = 0x9e3779b97f4a7c15ull;
  while (n < 1400000) s[n++] = bfloat((uint32_t)rng_next(&rng));
  while (n < cap) {
    const uint64_t r = rng_next(&rng);
    const uint32_t sign = (uint32_t)(r >> 63) << 31;
    const uint32_t exp = (uint32_t)(127 - 27 + (r >> 40) % 45) << 23; /* 2^-27 .. 2^17 */
    uint32_t frac = (uint32_t)r & 0x7fffff;
    if ((r >> 32) & 1)
      frac = (frac & ~0x1fffu) | 0x1000u | ((uint32_t)(r >> 33) % 3 == 0 ? 0 : (uint32_t)(r >> 36) & 3);
    s[n++] = bfloat(sign | exp | frac);
  }
  *out = s;
  return n;
}

static void t_float_to_half_vs_mpfr(void **state) {
  (void)state;
  float *s;
  const size_t n = float_samples(&s);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++)
    for (int m = 0; m < 4; m++) {
      const uint16_t got = bi_half_from_float(s[i], MODES[m]), want = ref_from_float(s[i], MODES[m]);
      if (got != want && bad++ < 10)
        print_error("float %a (%#x) %s: got %#x want %#x\n", (double)s[i], fbits(s[i]), MODE_NAME[m], got, want);
    }
  free(s);
  assert_int_equal(bad, 0);
  print_message("float->half: %zu floats x 4 rounding modes match MPFR\n", n);
}

static void t_double_to_half_vs_mpfr(void **state) {
  (void)state;
  uint64_t rng = 0x243f6a8885a308d3ull;
  size_t n = 0, bad = 0;
  for (size_t i = 0; i < 2400000; i++) {
    double d;
    const uint64_t r = rng_next(&rng);
    if (i < 400000) {
      d = bdouble(r); /* any pattern */
    } else {
      /* a random half midpoint, moved by a few double ulps or a tiny relative amount */
      const uint16_t h = (uint16_t)(r % 0x7c00);
      const double v = ref_half_value(h), next = h == 0x7bff ? 65536.0 : ref_half_value((uint16_t)(h + 1));
      const double mid = (v + next) / 2;
      const int k = (int)((r >> 20) % 9) - 4;
      switch ((r >> 16) & 3) {
      case 0: d = bdouble(dbits(mid) + (uint64_t)(int64_t)k); break;
      case 1: d = mid * (1 + k * 0x1p-40); break;
      case 2: d = v + k * 0x1p-60; break;
      default: d = bdouble(dbits(mid) + ((r >> 24) & 0xffffff)); break;
      }
      if ((r >> 62) & 1) d = -d;
    }
    for (int m = 0; m < 4; m++) {
      const uint16_t got = bi_half_from_double(d, MODES[m]), want = ref_from_double(d, MODES[m]);
      if (got != want && bad++ < 10) print_error("double %a %s: got %#x want %#x\n", d, MODE_NAME[m], got, want);
    }
    if (spvi_half_from_double(d) != ref_from_double(d, BI_RTE)) bad++;
    n++;
  }
  assert_int_equal(bad, 0);
  print_message("double->half: %zu doubles x 4 rounding modes match MPFR\n", n);
}

/* ---- half arithmetic through the builtins ------------------------------------------------------- */

static bool is_nan_h(uint16_t h) { return (h & 0x7fff) > 0x7c00; }

/* The MPFR reference for fma on halves, with the NaN policy of bi_fp.c. */
static uint16_t ref_fma_h(uint16_t a, uint16_t b, uint16_t c) {
  if (is_nan_h(a)) return a | 0x200;
  if (is_nan_h(b)) return b | 0x200;
  if (is_nan_h(c)) return c | 0x200;
  ref_begin(REF_HALF);
  mpfr_set_d(A, ref_half_value(a), MPFR_RNDN);
  mpfr_set_d(B, ref_half_value(b), MPFR_RNDN);
  mpfr_set_d(C, ref_half_value(c), MPFR_RNDN);
  int inex = mpfr_fma(H, A, B, C, MPFR_RNDN);
  inex = mpfr_subnormalize(H, inex, MPFR_RNDN);
  (void)inex;
  const uint16_t out = mpfr_nan_p(H) ? 0x7e00 : ref_encode_half(H);
  ref_end();
  return out;
}

/* ---- image channels: x / d for every stored unorm/snorm value ---------------------------------- */

/* bi_image_ratio_f32/f16 round the double quotient once (its comment proves that exact); here
 * MPFR divides exactly and rounds once, to float (precision 24) and to half (binary16, subnormals). */
static void t_image_ratio_vs_mpfr(void **state) {
  (void)state;
  static const uint32_t D[4] = {127, 255, 32767, 65535}; /* snorm8, unorm8, snorm16, unorm16 */
  mpfr_t F, X;
  mpfr_init2(F, 24);
  mpfr_init2(X, 32);
  unsigned bad = 0, n = 0;
  for (int i = 0; i < 4; i++) {
    for (int32_t x = -(int32_t)D[i] - 1; x <= (int32_t)D[i]; x++) {
      mpfr_set_si(X, x, MPFR_RNDN); /* exact in 32 bits */
      mpfr_div_ui(F, X, D[i], MPFR_RNDN);
      const float wf = mpfr_get_flt(F, MPFR_RNDN); /* exact: F has 24 bits, in float range */
      ref_begin(REF_HALF);
      int inex = mpfr_div_ui(H, X, D[i], MPFR_RNDN);
      mpfr_subnormalize(H, inex, MPFR_RNDN);
      const uint16_t wh = ref_encode_half(H);
      ref_end();
      const float gf = bi_image_ratio_f32(x, D[i]);
      const uint16_t gh = bi_image_ratio_f16(x, D[i]);
      if ((fbits(gf) != fbits(wf) || gh != wh) && bad++ < 10)
        print_error("%d / %u: got %a, %#x want %a, %#x\n", x, D[i], (double)gf, gh, (double)wf, wh);
      n++;
    }
  }
  mpfr_clears(F, X, (mpfr_ptr)0);
  assert_int_equal(n, 2 * (128 + 256 + 32768 + 65536));
  assert_int_equal(bad, 0);
}

static void t_half_fma_mad(void **state) {
  (void)state;
  /* hand-derived: 0.75 * 1.333984375 = 2049 * 2^-11 = 1 + 2^-11, the midpoint of 1 and 1 + 2^-10 */
  static const uint16_t hand[][4] = {
    /* a, b, c, result */
    {0x3a00, 0x3d56, 0x0000, 0x3c00},                                   /* exact tie -> even 1.0 */
    {0x3a00, 0x3d56, 0x0001, 0x3c01},                                   /* + 2^-24: above the tie */
    {0x3a00, 0x3d56, 0x8001, 0x3c00},                                   /* - 2^-24: below */
    {0x7c00, 0x0000, 0x3c00, 0x7e00},                                   /* inf * 0: invalid -> canonical NaN */
    {0x7c00, 0x3c00, 0xfc00, 0x7e00},                                   /* inf - inf */
    {0x7c00, 0x3c00, 0x3c00, 0x7c00}, {0x7d00, 0x3c00, 0x3c00, 0x7f00}, /* signalling NaN operand -> quieted */
    {0x3c00, 0xfd55, 0x7e01, 0xff55},                                   /* first NaN operand wins */
    {0xbc00, 0x0000, 0x0000, 0x0000},                                   /* -0 + +0 = +0 */
    {0xbc00, 0x0000, 0x8000, 0x8000},                                   /* -0 + -0 = -0 */
    {0x3c00, 0x3c00, 0xbc00, 0x0000},                                   /* exact cancellation: +0 */
    {0x5c00, 0x5c00, 0x0000, 0x7c00},                                   /* 256 * 256 = 65536: overflow */
    {0x5bf8, 0x5c00, 0x0000, 0x7bf8},                                   /* 255 * 256 = 65280 */
    {0x0c00, 0x0c00, 0x0000, 0x0001},                                   /* 2^-12 * 2^-12 = 2^-24 */
    {0x0800, 0x0c00, 0x0000, 0x0000},                                   /* 2^-25: tie -> 0 */
    {0x0800, 0x0c00, 0x0001, 0x0002},                                   /* 1.5 * 2^-24: tie -> 2 * 2^-24 */
    {0x7bff, 0x3c00, 0x4b80, 0x7bff}, /* 65504 + 15 = 65519: below the 65520 midpoint */
    {0x7bff, 0x3c00, 0x4c00, 0x7c00}, /* 65504 + 16 = 65520: tie, even is 65536 -> inf */
  };
  const size_t nh = sizeof hand / sizeof hand[0];
  /* random triples: all finite patterns, concentrated exponents, and specials */
  const size_t nr = 1000000;
  const size_t count = nh + nr;
  uint64_t *in[3], *want = malloc(count * sizeof *want);
  for (int i = 0; i < 3; i++) in[i] = malloc(count * sizeof *in[i]);
  assert_non_null(want);
  for (size_t i = 0; i < nh; i++) {
    for (int j = 0; j < 3; j++) in[j][i] = hand[i][j];
    want[i] = hand[i][3];
    assert_int_equal(ref_fma_h(hand[i][0], hand[i][1], hand[i][2]), hand[i][3]); /* MPFR agrees */
  }
  uint64_t rng = 0x13198a2e03707344ull;
  for (size_t i = nh; i < count; i++) {
    uint16_t v[3];
    for (int j = 0; j < 3; j++) {
      const uint64_t r = rng_next(&rng);
      switch (r & 7) {
      case 0: v[j] = (uint16_t)(r >> 16); break;            /* any pattern */
      case 1: v[j] = (uint16_t)((r >> 16) & 0x83ff); break; /* subnormal */
      default: v[j] = (uint16_t)(((r >> 16) & 0x83ff) | (uint16_t)((8 + (r >> 32) % 16) << 10)); break;
      }
    }
    for (int j = 0; j < 3; j++) in[j][i] = v[j];
    want[i] = ref_fma_h(v[0], v[1], v[2]);
  }
  const uint64_t *const ins[3] = {in[0], in[1], in[2]};
  run_ew(OCLSTD_fma, BI_FLOAT, 16, 16, 3, ins, want, count, NULL);
  run_ew(OCLSTD_mad, BI_FLOAT, 16, 16, 3, ins, want, count, NULL);
  run_ew_all_widths(OCLSTD_fma, BI_FLOAT, 16, 3, ins, want, nh, NULL);
  run_ew_all_widths(OCLSTD_mad, BI_FLOAT, 16, 3, ins, want, nh, NULL);
  for (int i = 0; i < 3; i++) free(in[i]);
  free(want);
  print_message("half fma/mad: %zu hand cases + %zu random triples match MPFR\n", nh, nr);
}

/* Exhaustive unary half functions against MPFR. */
typedef int (*mpfr_un)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
static int m_floor(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t d) {
  (void)d;
  return mpfr_floor(r, x);
}
static int m_ceil(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t d) {
  (void)d;
  return mpfr_ceil(r, x);
}
static int m_trunc(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t d) {
  (void)d;
  return mpfr_trunc(r, x);
}
static int m_round(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t d) {
  (void)d;
  return mpfr_round(r, x);
}
static int m_rint(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t d) { return mpfr_rint(r, x, d); }
static int m_sqrt(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t d) { return mpfr_sqrt(r, x, d); }

static void half_unary_exhaustive(uint32_t op, mpfr_un f) {
  static uint64_t in[65536], want[65536];
  for (uint32_t h = 0; h < 65536; h++) {
    in[h] = h;
    if (is_nan_h((uint16_t)h)) {
      want[h] = h | 0x200;
      continue;
    }
    ref_begin(REF_HALF);
    mpfr_set_d(A, ref_half_value((uint16_t)h), MPFR_RNDN);
    int inex = f(H, A, MPFR_RNDN);
    inex = mpfr_subnormalize(H, inex, MPFR_RNDN);
    (void)inex;
    want[h] = mpfr_nan_p(H) ? 0x7e00 : ref_encode_half(H);
    ref_end();
  }
  const uint64_t *const ins[1] = {in};
  run_ew(op, BI_FLOAT, 16, 16, 1, ins, want, 65536, NULL);
  run_ew(op, BI_FLOAT, 16, 3, 1, ins, want, 65536, NULL);
}

static void t_half_sqrt_exhaustive(void **state) {
  (void)state;
  half_unary_exhaustive(OCLSTD_sqrt, m_sqrt);
  print_message("half sqrt: all 65536 inputs match MPFR\n");
}

static void t_half_rounding_exhaustive(void **state) {
  (void)state;
  half_unary_exhaustive(OCLSTD_floor, m_floor);
  half_unary_exhaustive(OCLSTD_ceil, m_ceil);
  half_unary_exhaustive(OCLSTD_trunc, m_trunc);
  half_unary_exhaustive(OCLSTD_rint, m_rint);
  half_unary_exhaustive(OCLSTD_round, m_round);
  print_message("half floor/ceil/trunc/rint/round: all 65536 inputs match MPFR\n");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(t_half_to_float_and_double_exhaustive),
    cmocka_unit_test(t_float_to_half_hand),
    cmocka_unit_test(t_double_to_half_single_rounding),
    cmocka_unit_test(t_float_to_half_vs_mpfr),
    cmocka_unit_test(t_double_to_half_vs_mpfr),
    cmocka_unit_test(t_image_ratio_vs_mpfr),
    cmocka_unit_test(t_half_fma_mad),
    cmocka_unit_test(t_half_sqrt_exhaustive),
    cmocka_unit_test(t_half_rounding_exhaustive),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
