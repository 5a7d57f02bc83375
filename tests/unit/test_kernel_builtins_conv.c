/*
 * test_kernel_builtins_conv.c — explicit conversions convert_<T>[_sat][_rtX] (C 6.4.3) through
 * tests/kernels/bi_convert.cl.
 *
 * Expected values: floating -> integer: the exact value rounded to an integer in the mode (MPFR
 * mpfr_rint on the exact operand), then saturated to the type (NaN -> 0, C 6.4.3.3); integer and
 * double -> float/double/half: the exact value (MPFR, 64 bits) rounded by the hand-written
 * kb_round_mp in the mode (IEEE overflow rule: RTZ/RTN of a huge positive value is the largest
 * finite number). NaN -> floating results: any quiet NaN (the conversion does not define the
 * payload).
 */
#include "kernel_builtins_harness.h"

/* floating value (double, NaN allowed) -> w-bit integer, rounded in rnd, saturated */
static uint64_t kb_cvt_fi(double v, unsigned w, bool sgn, mpfr_rnd_t rnd) {
  if (isnan(v)) return 0;
  uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
  int64_t lo = sgn ? -(int64_t)(mask >> 1) - 1 : 0;
  uint64_t hi = sgn ? mask >> 1 : mask;
  mpfr_t x, b;
  mpfr_inits2(80, x, b, (mpfr_ptr)0);
  mpfr_set_d(x, v, MPFR_RNDN);
  mpfr_rint(x, x, rnd); /* exact: 80 bits hold any rounded double */
  uint64_t out;
  mpfr_set_sj(b, lo, MPFR_RNDN);
  if (mpfr_cmp(x, b) <= 0) out = (uint64_t)lo;
  else {
    mpfr_set_uj(b, hi, MPFR_RNDN);
    if (mpfr_cmp(x, b) >= 0) out = hi;
    else out = mpfr_sgn(x) < 0 ? (uint64_t)mpfr_get_sj(x, MPFR_RNDN) : (uint64_t)mpfr_get_uj(x, MPFR_RNDN);
  }
  mpfr_clears(x, b, (mpfr_ptr)0);
  return out & mask;
}
/* integer -> format f in rnd */
static uint64_t kb_cvt_if(int64_t v, bool sgn, kb_fmt f, mpfr_rnd_t rnd) {
  mpfr_t x;
  mpfr_init2(x, 64);
  if (sgn) mpfr_set_sj(x, v, MPFR_RNDN);
  else mpfr_set_uj(x, (uint64_t)v, MPFR_RNDN);
  uint64_t u = kb_round_mp(f, x, rnd);
  mpfr_clear(x);
  return u;
}

static float kb_conv_f(size_t j) {
  static const float sp[] = {0.0f,          -0.0f,         0.5f,          -0.5f,          1.5f,
                             -1.5f,         2.5f,          -2.5f,         0.49999997f,    -0.50000006f,
                             127.5f,        -128.5f,       255.5f,        256.0f,         -1.0f,
                             -0.9f,         2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f,
                             3e9f,          -3e9f,         1e20f,         INFINITY,       -INFINITY,
                             NAN,           65504.0f,      65520.0f,      1e-40f,         -1e-40f,
                             4294967040.0f, 4294967296.0f, 9.2233715e18f, -9.2233715e18f, 1.8446744e19f,
                             32767.5f,      -32768.5f,     65519.0f,      0x1.ffep-15f,   1e-8f,
                             -1e-8f,        3.4028235e38f};
  if (j < sizeof sp / sizeof sp[0]) return sp[j];
  switch (j % 4) {
  case 0: return (float)kb_irange(-600, 600) / 2; /* halves: ties */
  case 1: return kt_u2f((uint32_t)kb_rand_log(KB_F, -3, 33, false));
  case 2: return kt_u2f((uint32_t)kb_rand_bits(KB_F));
  default: return (float)(kb_unif() * 600 - 300);
  }
}
static double kb_conv_d(size_t j) {
  static const double sp[] = {0.0,
                              -0.0,
                              0.5,
                              -0.5,
                              1.5,
                              -2.5,
                              2147483647.5,
                              -2147483648.5,
                              -2147483647.5,
                              4294967295.5,
                              9223372036854775807.0,
                              9223372036854774784.0,
                              -9223372036854775808.0,
                              -9223372036854777856.0,
                              18446744073709549568.0,
                              18446744073709551616.0,
                              16777217.0,
                              1 + 0x1p-30,
                              3.4028235677973366e38,
                              3.4028235677973362e38,
                              -3.4028235677973366e38,
                              1e-50,
                              -1e-50,
                              0x1p-150,
                              0x1.8p-150,
                              0x1p-149,
                              INFINITY,
                              -INFINITY,
                              NAN,
                              127.5,
                              -128.5,
                              128.0,
                              -129.0,
                              32767.5,
                              -32768.5,
                              65504.0,
                              65520.0,
                              65519.999,
                              0x1.ffcp-15,
                              0x1p-25,
                              1e300,
                              -1e300,
                              255.5,
                              -0.75};
  if (j < sizeof sp / sizeof sp[0]) return sp[j];
  switch (j % 4) {
  case 0: return (double)kb_irange(-600, 600) / 2;
  case 1: return kb_val(KB_D, kb_rand_log(KB_D, -3, 66, false));
  case 2: return kb_val(KB_D, kb_rand_bits(KB_D));
  default: return kb_unif() * 70000 - 35000;
  }
}
static int32_t kb_conv_i(size_t j) {
  static const int32_t sp[] = {0,    1,    -1,  INT32_MAX, INT32_MIN, 16777217, -16777217, 16777219, 16777221, 255, 256,
                               -128, -129, 127, 128,       65504,     65519,    65520,     -65520,   2049,     4097};
  if (j < sizeof sp / sizeof sp[0]) return sp[j];
  return j % 2 ? (int32_t)(uint32_t)kt_rand() : (int32_t)kb_irange(-70000, 70000);
}
static int64_t kb_conv_l(size_t j) {
  static const int64_t sp[] = {0,
                               -1,
                               INT64_MAX,
                               INT64_MIN,
                               (1ll << 53) + 1,
                               -((1ll << 53) + 1),
                               (1ll << 24) + 1,
                               -((1ll << 24) + 1),
                               255,
                               256,
                               -1000,
                               4294967295ll,
                               4294967296ll,
                               65520,
                               -65520,
                               (1ll << 62) + 1,
                               2049,
                               -2049};
  if (j < sizeof sp / sizeof sp[0]) return sp[j];
  return j % 3 ? (int64_t)kt_rand() : (int64_t)kb_irange(-1000000, 1000000);
}

typedef struct kb_conv_out {
  const char *what;
  unsigned es, per;
  kb_fmt f;
  bool fp;
  const unsigned char *want;
} kb_conv_out;
typedef struct kb_conv_ctx {
  size_t G;
  int nout;
  kb_conv_out out[10];
  const float *xf;
  const int32_t *xi;
  const double *xd;
  const int64_t *xl;
} kb_conv_ctx;

static void kb_check_conv(const kt_run *r, void *u) {
  const kb_conv_ctx *c = u;
  kb_report rep = {r, 0, 0, 30};
  for (int o = 0; o < c->nout; ++o) {
    const kb_conv_out *co = &c->out[o];
    kt_require(r, r->bytes[o] == c->G * co->per * co->es, "argument %d: %zu bytes", o, r->bytes[o]);
    for (size_t e = 0; e < c->G * co->per; ++e) {
      uint64_t g = 0, w = 0;
      memcpy(&g, (const unsigned char *)r->buf[o] + e * co->es, co->es);
      memcpy(&w, co->want + e * co->es, co->es);
      if (g == w) continue;
      if (co->fp && kb_isnan(co->f, w) && kb_isnan(co->f, g) && (g & kb_qbit(co->f))) continue;
      size_t i = e / co->per, k = e % co->per;
      kb_bad(&rep, "%s #%zu (item %zu; inputs f=%a i=%d d=%a l=%lld) = 0x%llx, expected 0x%llx", co->what, k, i,
             c->xf ? (double)c->xf[i] : 0.0, c->xi ? c->xi[i] : 0, c->xd ? c->xd[i] : 0.0,
             c->xl ? (long long)c->xl[i] : 0LL, (unsigned long long)g, (unsigned long long)w);
    }
  }
  kb_report_end(&rep, "conversion results");
}

static void kb_putw(unsigned char *p, unsigned es, size_t e, uint64_t v) { memcpy(p + e * es, &v, es); }

static void test_conv_scalar(void **state) {
  (void)state;
  enum { G = 256 };
  float *xf = kb_alloc(G * 4);
  int32_t *xi = kb_alloc(G * 4);
  double *xd = kb_alloc(G * 8);
  int64_t *xl = kb_alloc(G * 8);
  kt_seed(0xB6C000);
  for (size_t j = 0; j < G; ++j) {
    xf[j] = kb_conv_f(j);
    xi[j] = kb_conv_i(j);
    xd[j] = kb_conv_d(j);
    xl[j] = kb_conv_l(j);
  }
  const mpfr_rnd_t N = MPFR_RNDN, Z = MPFR_RNDZ, P = MPFR_RNDU, M = MPFR_RNDD;
  static const struct {
    const char *what;
    unsigned es, per;
    kb_fmt f;
    bool fp;
  } spec[10] = {{"int", 4, 5, KB_F, false},  {"uchar", 1, 3, KB_F, false}, {"char", 1, 3, KB_F, false},
                {"float", 4, 7, KB_F, true}, {"double", 8, 3, KB_D, true}, {"long", 8, 3, KB_F, false},
                {"uint", 4, 3, KB_F, false}, {"short", 2, 2, KB_F, false}, {"ulong", 8, 2, KB_F, false},
                {"half", 2, 4, KB_H, true}};
  kb_conv_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.G = G;
  ctx.nout = 10;
  ctx.xf = xf;
  ctx.xi = xi;
  ctx.xd = xd;
  ctx.xl = xl;
  unsigned char *w[10];
  for (int o = 0; o < 10; ++o) {
    w[o] = kb_alloc(G * spec[o].per * spec[o].es);
    kb_conv_out co = {spec[o].what, spec[o].es, spec[o].per, spec[o].f, spec[o].fp, w[o]};
    ctx.out[o] = co;
  }
  for (size_t i = 0; i < G; ++i) {
    double f = (double)xf[i], d = xd[i];
    int64_t n = xi[i], l = xl[i];
    kb_putw(w[0], 4, 5 * i + 0, kb_cvt_fi(f, 32, true, M));
    kb_putw(w[0], 4, 5 * i + 1, kb_cvt_fi(f, 32, true, P));
    kb_putw(w[0], 4, 5 * i + 2, kb_cvt_fi(f, 32, true, N));
    kb_putw(w[0], 4, 5 * i + 3, kb_cvt_fi(f, 32, true, Z));
    kb_putw(w[0], 4, 5 * i + 4, kb_cvt_fi(d, 32, true, M));
    kb_putw(w[1], 1, 3 * i + 0, kb_cvt_fi((double)n, 8, false, Z)); /* int -> uchar: exact value, saturated */
    kb_putw(w[1], 1, 3 * i + 1, kb_cvt_fi(f, 8, false, N));
    kb_putw(w[1], 1, 3 * i + 2, l < 0 ? 0 : l > 255 ? 255 : (uint64_t)l);
    kb_putw(w[2], 1, 3 * i + 0, kb_cvt_fi(f, 8, true, Z));
    kb_putw(w[2], 1, 3 * i + 1, kb_cvt_fi(d, 8, true, P));
    kb_putw(w[2], 1, 3 * i + 2, (uint64_t)(n < -128 ? -128 : n > 127 ? 127 : n) & 0xff);
    kb_putw(w[3], 4, 7 * i + 0, kb_cvt_if(n, true, KB_F, Z));
    kb_putw(w[3], 4, 7 * i + 1, kb_cvt_if(n, true, KB_F, P));
    kb_putw(w[3], 4, 7 * i + 2, kb_cvt_if(l, true, KB_F, M));
    kb_putw(w[3], 4, 7 * i + 3, kb_round_d(KB_F, d, P));
    kb_putw(w[3], 4, 7 * i + 4, kb_round_d(KB_F, d, Z));
    kb_putw(w[3], 4, 7 * i + 5, kb_round_d(KB_F, d, N));
    kb_putw(w[3], 4, 7 * i + 6, kb_round_d(KB_F, d, M));
    kb_putw(w[4], 8, 3 * i + 0, kb_cvt_if(l, true, KB_D, M));
    kb_putw(w[4], 8, 3 * i + 1, kb_cvt_if(l, true, KB_D, P));
    kb_putw(w[4], 8, 3 * i + 2, kb_cvt_if(l, true, KB_D, N));
    kb_putw(w[5], 8, 3 * i + 0, kb_cvt_fi(d, 64, true, Z));
    kb_putw(w[5], 8, 3 * i + 1, kb_cvt_fi(f, 64, true, P));
    kb_putw(w[5], 8, 3 * i + 2, kb_cvt_fi(d, 64, true, N));
    kb_putw(w[6], 4, 3 * i + 0, kb_cvt_fi(d, 32, false, N));
    kb_putw(w[6], 4, 3 * i + 1, kb_cvt_fi(f, 32, false, Z));
    kb_putw(w[6], 4, 3 * i + 2, l < 0 ? 0 : l > (int64_t)UINT32_MAX ? UINT32_MAX : (uint64_t)l);
    kb_putw(w[7], 2, 2 * i + 0, kb_cvt_fi(d, 16, true, Z));
    kb_putw(w[7], 2, 2 * i + 1, kb_cvt_fi(f, 16, true, M));
    kb_putw(w[8], 8, 2 * i + 0, kb_cvt_fi(f, 64, false, Z));
    kb_putw(w[8], 8, 2 * i + 1, kb_cvt_fi(d, 64, false, P));
    kb_putw(w[9], 2, 4 * i + 0, kb_round_d(KB_H, f, P));
    kb_putw(w[9], 2, 4 * i + 1, kb_round_d(KB_H, d, Z));
    kb_putw(w[9], 2, 4 * i + 2, kb_cvt_if(n, true, KB_H, N));
    kb_putw(w[9], 2, 4 * i + 3, kb_cvt_if(l, true, KB_H, M));
  }
  /* hand-derived: convert_int_sat_rtn(-0.5f) = -1, _rtp(-0.5f) = 0, _rte(2.5f) = 2, _rte(-2.5f) = -2;
   * convert_int_sat(3e9f) = INT_MAX; convert_uchar_sat(-5) = 0; convert_char_sat(NaN) = 0;
   * convert_float_rtz(16777217) = 16777216, _rtp = 16777218; convert_float_rtp(1 + 2^-30) =
   * 1 + 2^-23; convert_float_rtz(3.4028235677973366e38) = FLT_MAX, rte -> inf;
   * convert_float_rtp(1e-50) = 2^-149; convert_long_sat(1e300) = LONG_MAX; convert_ulong_sat(-1.5f) = 0;
   * convert_uint_sat_rte(4294967295.5) = UINT_MAX (saturated); convert_half_rtz(65519.999) = 65504 */
  assert_int_equal(kb_cvt_fi(-0.5, 32, true, M), 0xffffffffu);
  assert_int_equal(kb_cvt_fi(-0.5, 32, true, P), 0);
  assert_int_equal(kb_cvt_fi(2.5, 32, true, N), 2);
  assert_int_equal(kb_cvt_fi(-2.5, 32, true, N), 0xfffffffeu);
  assert_int_equal(kb_cvt_fi(3e9, 32, true, Z), 0x7fffffff);
  assert_int_equal(kb_cvt_fi(NAN, 8, true, Z), 0);
  assert_int_equal(kb_cvt_if(16777217, true, KB_F, Z), 0x4b800000);
  assert_int_equal(kb_cvt_if(16777217, true, KB_F, P), 0x4b800001);
  assert_int_equal(kb_round_d(KB_F, 1 + 0x1p-30, P), 0x3f800001);
  assert_int_equal(kb_round_d(KB_F, 3.4028235677973366e38, Z), 0x7f7fffff);
  assert_int_equal(kb_round_d(KB_F, 3.4028235677973366e38, N), 0x7f800000);
  assert_int_equal(kb_round_d(KB_F, 1e-50, P), 1);
  assert_true(kb_cvt_fi(1e300, 64, true, Z) == (uint64_t)INT64_MAX);
  assert_true(kb_cvt_fi(-1.5, 64, false, Z) == 0);
  assert_int_equal(kb_cvt_fi(4294967295.5, 32, false, N), 0xffffffffu);
  assert_int_equal(kb_round_d(KB_H, 65519.999, Z), 0x7bff);
  /* (2^53 + 1) -> double: RTN 2^53, RTP 2^53 + 2, RTE 2^53 (even) */
  assert_true(kb_val(KB_D, kb_cvt_if((1ll << 53) + 1, true, KB_D, P)) == 9007199254740994.0);
  assert_true(kb_val(KB_D, kb_cvt_if((1ll << 53) + 1, true, KB_D, N)) == 9007199254740992.0);
  kt_case c = {.file = "bi_convert",
               .kernel = "conv",
               .args = {KT_BUF_IN(NULL, G * 5 * 4), KT_BUF_IN(NULL, G * 3), KT_BUF_IN(NULL, G * 3),
                        KT_BUF_IN(NULL, G * 7 * 4), KT_BUF_IN(NULL, G * 3 * 8), KT_BUF_IN(NULL, G * 3 * 8),
                        KT_BUF_IN(NULL, G * 3 * 4), KT_BUF_IN(NULL, G * 2 * 2), KT_BUF_IN(NULL, G * 2 * 8),
                        KT_BUF_IN(NULL, G * 4 * 2), KT_BUF_IN(xf, G * 4), KT_BUF_IN(xi, G * 4), KT_BUF_IN(xd, G * 8),
                        KT_BUF_IN(xl, G * 8)},
               .range = {1, {G}, {16}, {0}},
               .check = kb_check_conv,
               .user = &ctx};
  kt_run_case(&c);
}

/* short3 results: 3 components in 4 slots, the padding slot is not compared */
typedef struct kb_conv_vctx {
  kb_conv_ctx c;
  const unsigned char *ws;
} kb_conv_vctx;
static void kb_check_conv_v(const kt_run *r, void *u) {
  const kb_conv_vctx *v = u;
  kb_check_conv(r, (void *)&v->c);
  kt_expect_lanes(r, 3, v->ws, KT_I16, 4 * v->c.G, 4, 3);
}

/* vectors: convert_char4_sat_rtn(float4), convert_float4_rtz(int4), convert_uint2_sat_rtp(double2),
 * convert_short3_sat(float3) */
static void test_conv_vector(void **state) {
  (void)state;
  enum { G = 64 };
  float *xf = kb_alloc(G * 16);
  int32_t *xi = kb_alloc(G * 16);
  double *xd = kb_alloc(G * 16);
  kt_seed(0xB6C100);
  for (size_t j = 0; j < 4 * G; ++j) {
    xf[j] = kb_conv_f((j * 7) % (4 * G));
    xi[j] = kb_conv_i((j * 5) % (4 * G));
  }
  for (size_t j = 0; j < 2 * G; ++j) xd[j] = kb_conv_d((j * 3) % (2 * G));
  unsigned char *wc = kb_alloc(G * 4), *wf = kb_alloc(G * 16), *wu = kb_alloc(G * 8), *ws = kb_alloc(G * 8);
  for (size_t j = 0; j < 4 * G; ++j) {
    kb_putw(wc, 1, j, kb_cvt_fi((double)xf[j], 8, true, MPFR_RNDD));
    kb_putw(wf, 4, j, kb_cvt_if(xi[j], true, KB_F, MPFR_RNDZ));
    kb_putw(ws, 2, j, j % 4 == 3 ? 0 : kb_cvt_fi((double)xf[j], 16, true, MPFR_RNDZ));
  }
  for (size_t j = 0; j < 2 * G; ++j) kb_putw(wu, 4, j, kb_cvt_fi(xd[j], 32, false, MPFR_RNDU));
  kb_conv_vctx v;
  memset(&v, 0, sizeof v);
  v.c.G = G;
  v.c.nout = 3;
  kb_conv_out o0 = {"convert_char4_sat_rtn(float4)", 1, 4, KB_F, false, wc};
  kb_conv_out o1 = {"convert_float4_rtz(int4)", 4, 4, KB_F, true, wf};
  kb_conv_out o2 = {"convert_uint2_sat_rtp(double2)", 4, 2, KB_F, false, wu};
  v.c.out[0] = o0;
  v.c.out[1] = o1;
  v.c.out[2] = o2;
  v.ws = ws;
  kt_case c = {.file = "bi_convert",
               .kernel = "conv_v",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(NULL, G * 16), KT_BUF_IN(NULL, G * 8), KT_BUF_IN(NULL, G * 8),
                        KT_BUF_IN(xf, G * 16), KT_BUF_IN(xi, G * 16), KT_BUF_IN(xd, G * 16)},
               .range = {1, {G}, {16}, {0}},
               .check = kb_check_conv_v,
               .user = &v};
  kt_run_case(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    KB_TEST(test_conv_scalar),
    KB_TEST(test_conv_vector),
  };
  return cmocka_run_group_tests_name("kernel_builtins_conv", tests, NULL, NULL);
}
