/*
 * test_kernel_builtins_vec.c — vector data load/store (C 6.15.7) and shuffle/shuffle2 (C 6.15.13)
 * through tests/kernels/bi_vload.cl, bi_vhalf.cl, bi_shuffle.cl.
 *
 * Expected values:
 *   vloadn/vstoren: byte copies at p + offset*n elements (n = 3: stride 3), written out in C from
 *     the addresses; output buffers start filled with a sentinel, so writes outside the expected
 *     elements are caught; float data are random bit patterns (NaNs included: data movement keeps
 *     the bits);
 *   vload_half*: the exact binary16 value as a float (kb_val), NaN -> sign | 0x7fc00000 |
 *     fraction << 13 (spvi's rule, builtins.md "binary16 conversions");
 *   vstore_half*: float/double rounded to binary16 in the instruction's mode by the hand-written
 *     kb_round_mp (round to integer at the format's spacing, IEEE overflow rule), checked against
 *     hand-derived boundary cases; NaN -> sign | 0x7e00 | fraction >> 13 (float) / >> 42 (double);
 *     vstorea_half3 and vloada_half3 use stride 4 and spvi leaves the 4th half untouched
 *     (implementation-defined in C 6.15.7, spvi's definition);
 *   shuffle/shuffle2: component mask & (m - 1), resp. & (2m - 1), indices >= m take y.
 */
#include "kernel_builtins_harness.h"

/* ---- vloadn / vstoren ------------------------------------------------------------------------ */
typedef struct kb_vls_ctx {
  unsigned es;
  size_t count[5];
  const unsigned char *want[5];
} kb_vls_ctx;

static const unsigned kb_vls_n[5] = {2, 3, 4, 8, 16};

static void kb_check_vls(const kt_run *r, void *u) {
  const kb_vls_ctx *c = u;
  kb_report rep = {r, 0, 0, 20};
  for (int k = 0; k < 5; ++k) {
    kt_require(r, r->bytes[k] == c->count[k] * c->es, "argument %d: %zu bytes", k, r->bytes[k]);
    const unsigned char *g = r->buf[k];
    for (size_t i = 0; i < c->count[k]; ++i)
      if (memcmp(g + i * c->es, c->want[k] + i * c->es, c->es) != 0) {
        uint64_t gv = 0, wv = 0;
        memcpy(&gv, g + i * c->es, c->es);
        memcpy(&wv, c->want[k] + i * c->es, c->es);
        kb_bad(&rep, "vstore%u(vload%u(...)) element %zu: 0x%llx, expected 0x%llx", kb_vls_n[k], kb_vls_n[k], i,
               (unsigned long long)gv, (unsigned long long)wv);
      }
  }
  kb_report_end(&rep, "vloadn/vstoren results");
}

/* component c of the stored vector comes from component src(c) of the loaded one (.s10, .s201,
 * reversed for 4, 8, 16) */
static unsigned kb_vls_src(unsigned n, unsigned c) {
  if (n == 3) return c == 0 ? 2 : c - 1;
  return n - 1 - c;
}

static void kb_vls_test(const char *kernel, unsigned es, uint32_t s, uint32_t t) {
  enum { G = 8 };
  size_t nin = s + 16 * G + 5;
  unsigned char *in = kb_alloc(nin * es);
  kt_seed(0xB5A000 + es * 16 + s);
  for (size_t i = 0; i < nin * es; ++i) in[i] = (unsigned char)kt_rand();
  kb_vls_ctx ctx;
  ctx.es = es;
  unsigned char *init[5];
  for (int k = 0; k < 5; ++k) {
    unsigned n = kb_vls_n[k];
    size_t cnt = t + n * G + 4;
    ctx.count[k] = cnt;
    init[k] = kb_alloc(cnt * es);
    memset(init[k], 0xA5, cnt * es); /* sentinel */
    unsigned char *w = kb_alloc(cnt * es);
    memcpy(w, init[k], cnt * es);
    for (size_t i = 0; i < G; ++i)
      for (unsigned c = 0; c < n; ++c) memcpy(w + (t + i * n + c) * es, in + (s + i * n + kb_vls_src(n, c)) * es, es);
    ctx.want[k] = w;
  }
  kt_case c = {.file = "bi_vload",
               .kernel = kernel,
               .args = {KT_BUF_IN(init[0], ctx.count[0] * es), KT_BUF_IN(init[1], ctx.count[1] * es),
                        KT_BUF_IN(init[2], ctx.count[2] * es), KT_BUF_IN(init[3], ctx.count[3] * es),
                        KT_BUF_IN(init[4], ctx.count[4] * es), KT_BUF_IN(in, nin * es), KT_VALUE(&s), KT_VALUE(&t)},
               .range = {1, {G}, {4}, {0}},
               .check = kb_check_vls,
               .user = &ctx};
  kt_run_case(&c);
}

static void test_vec_vloadn(void **state) {
  (void)state;
  /* load offsets s and store offsets t that are not multiples of any n */
  kb_vls_test("vls_c", 1, 1, 5);
  kb_vls_test("vls_s", 2, 3, 1);
  kb_vls_test("vls_i", 4, 1, 3);
  kb_vls_test("vls_l", 8, 5, 1);
  kb_vls_test("vls_f", 4, 7, 2);
  kb_vls_test("vls_d", 8, 2, 7);
  kb_vls_test("vls_h", 2, 1, 1);
}

/* vls_spaces: private, __constant and __local vectors */
typedef struct kb_sp_ctx {
  float want[32 * 8];
} kb_sp_ctx;
static void kb_check_sp(const kt_run *r, void *u) { kt_expect_buf(r, 0, ((kb_sp_ctx *)u)->want, KT_F32, 32 * 8); }

static void test_vec_spaces(void **state) {
  (void)state;
  enum { G = 32 };
  float cin[64];
  static kb_sp_ctx w;
  uint32_t s = 3;
  for (int k = 0; k < 64; ++k) cin[k] = (float)(k * 3 - 50); /* small integers: sums are exact */
  for (size_t j = 0; j < G; ++j) {
    for (int c = 0; c < 4; ++c) w.want[8 * j + (size_t)c] = cin[s + 7 - (unsigned)c] + (float)j;
    for (int c = 0; c < 3; ++c) w.want[8 * j + 4 + (size_t)c] = cin[s + j + (unsigned)c];
    w.want[8 * j + 7] = 0;
  }
  kt_case c = {.file = "bi_vload",
               .kernel = "vls_spaces",
               .args = {KT_BUF_IN(NULL, sizeof w.want), KT_BUF_IN(cin, sizeof cin), KT_VALUE(&s)},
               .range = {1, {G}, {16}, {0}},
               .check = kb_check_sp,
               .user = &w};
  kt_run_case(&c);
}

/* ---- vload_half ------------------------------------------------------------------------------- */
/* half pattern -> float pattern (exact; NaN: quieted, payload shifted up) */
static uint32_t kb_h2f_bits(uint16_t h) {
  if (kb_isnan(KB_H, h)) return (uint32_t)(h & 0x8000) << 16 | 0x7fc00000u | (uint32_t)(h & 0x3ff) << 13;
  return (uint32_t)kb_enc(KB_F, kb_val(KB_H, h));
}

enum { KB_VLH_G = 4096 };
typedef struct kb_vlh_ctx {
  size_t count[8];
  uint32_t *want[8];
} kb_vlh_ctx;
static const char *const kb_vlh_names[8] = {"vload_half",
                                            "vload_half2",
                                            "vload_half3",
                                            "vloada_half3",
                                            "vload_half4(h + 1)",
                                            "vloada_half4",
                                            "vload_half8(constant + 3)",
                                            "vloada_half16"};

static void kb_check_vlh(const kt_run *r, void *u) {
  const kb_vlh_ctx *c = u;
  kb_report rep = {r, 0, 0, 20};
  for (int k = 0; k < 8; ++k) {
    kt_require(r, r->bytes[k] == c->count[k] * 4, "argument %d: %zu bytes", k, r->bytes[k]);
    for (size_t i = 0; i < c->count[k]; ++i) {
      uint32_t g;
      memcpy(&g, (const unsigned char *)r->buf[k] + 4 * i, 4);
      if (g != c->want[k][i])
        kb_bad(&rep, "%s: float %zu = 0x%08x, expected 0x%08x", kb_vlh_names[k], i, g, c->want[k][i]);
    }
  }
  kb_report_end(&rep, "vload_half results");
}

static void test_vec_vload_half(void **state) {
  (void)state;
  enum { G = KB_VLH_G };
  uint16_t *h = kb_alloc(65536 * 2);
  for (size_t i = 0; i < 65536; ++i) h[i] = (uint16_t)i; /* every binary16 pattern */
  static const unsigned per[8] = {16, 2, 3, 3, 4, 4, 8, 16};
  kb_vlh_ctx ctx;
  for (int k = 0; k < 8; ++k) {
    ctx.count[k] = (size_t)per[k] * G;
    ctx.want[k] = kb_alloc(ctx.count[k] * 4);
    for (size_t i = 0; i < G; ++i)
      for (unsigned c = 0; c < per[k]; ++c) {
        size_t src;
        switch (k) {
        case 3: src = 4 * i + c; break; /* vloada_half3: stride 4 */
        case 4: src = 1 + 4 * i + c; break;
        case 6: src = 3 + 8 * i + c; break;
        default: src = per[k] * i + c; break;
        }
        ctx.want[k][per[k] * i + c] = kb_h2f_bits(h[src]);
      }
  }
  /* hand checks: 0x3c00 = 1.0f, 0x0001 = 2^-24, 0x7bff = 65504, 0xfc00 = -inf, 0x7c01 (signalling)
   * -> 0x7fc02000, 0xfe00 -> 0xffc00000 */
  assert_int_equal(kb_h2f_bits(0x3c00), 0x3f800000);
  assert_int_equal(kb_h2f_bits(0x0001), 0x33800000);
  assert_int_equal(kb_h2f_bits(0x7bff), 0x477fe000);
  assert_int_equal(kb_h2f_bits(0xfc00), 0xff800000);
  assert_int_equal(kb_h2f_bits(0x7c01), 0x7fc02000);
  assert_int_equal(kb_h2f_bits(0xfe00), 0xffc00000);
  kt_case c = {.file = "bi_vhalf",
               .kernel = "vlh",
               .args = {KT_BUF_IN(NULL, ctx.count[0] * 4), KT_BUF_IN(NULL, ctx.count[1] * 4),
                        KT_BUF_IN(NULL, ctx.count[2] * 4), KT_BUF_IN(NULL, ctx.count[3] * 4),
                        KT_BUF_IN(NULL, ctx.count[4] * 4), KT_BUF_IN(NULL, ctx.count[5] * 4),
                        KT_BUF_IN(NULL, ctx.count[6] * 4), KT_BUF_IN(NULL, ctx.count[7] * 4), KT_BUF_IN(h, 65536 * 2),
                        KT_BUF_IN(h, 65536 * 2)},
               .range = {1, {G}, {64}, {0}},
               .check = kb_check_vlh,
               .user = &ctx};
  kt_run_case(&c);
}

/* ---- vstore_half -------------------------------------------------------------------------------- */
/* x rounded to half in mode rnd; NaN per spvi's rule */
static uint16_t kb_f2h(uint32_t x, mpfr_rnd_t rnd) {
  if (kb_isnan(KB_F, x)) return (uint16_t)((x >> 16 & 0x8000) | 0x7e00 | (x & 0x7fffff) >> 13);
  return (uint16_t)kb_round_d(KB_H, kb_val(KB_F, x), rnd);
}
static uint16_t kb_d2h(uint64_t x, mpfr_rnd_t rnd) {
  if (kb_isnan(KB_D, x)) return (uint16_t)((x >> 48 & 0x8000) | 0x7e00 | (x & 0xfffffffffffffull) >> 42);
  return (uint16_t)kb_round_d(KB_H, kb_val(KB_D, x), rnd);
}

enum { KB_VSH_G = 64, KB_VSH_B = 16 * KB_VSH_G };

/* float inputs: around every kind of rounding boundary of binary16 */
static uint32_t kb_vsh_in_f(size_t j) {
  static const uint32_t sp[] = {
    0x00000000,
    0x80000000,
    0x7f800000,
    0xff800000,
    0x7fc00000,
    0xffc00001,
    0x7f800001,
    0x7fa00000,
    0x477fe000 /* 65504 */,
    0x477fefff /* 65519.996 */,
    0x477ff000 /* 65520 */,
    0x47800000 /* 65536 */,
    0xc77ff000,
    0xc77fefff,
    0x7f7fffff,
    0xff7fffff,
    0x33800000 /* 2^-24 */,
    0x33000000 /* 2^-25 */,
    0x33000001,
    0x32ffffff,
    0x33400000 /* 3*2^-26 */,
    0xb3000000,
    0xb3000001,
    0x38800000 /* 2^-14 */,
    0x387fc000 /* largest subnormal */,
    0x387fe000 /* its midpoint with 2^-14 */,
    0x00000001,
    0x80000001,
    0x0c000000,
    0x3f801000 /* 1+2^-11 */,
    0x3f803000 /* 1 + 3*2^-11 */,
    0xbf801000,
    0x3f801001,
    0x3f800fff,
    0x3f802000,
  };
  if (j < sizeof sp / sizeof sp[0]) return sp[j];
  switch (j % 5) {
  case 0: { /* a half midpoint, exactly or one float ulp off */
    uint32_t hv = (uint32_t)kb_rand_bits(KB_H) & 0x7bfe;
    double m = (kb_val(KB_H, hv) + kb_val(KB_H, hv + 1)) / 2; /* exact in float */
    uint32_t u = (uint32_t)kb_enc(KB_F, m);
    u += (uint32_t)kb_irange(-1, 1);
    return u | (kt_rand() & 1 ? 0x80000000u : 0);
  }
  case 1: return (uint32_t)kb_rand_log(KB_F, -30, 17, false);
  case 2: return (uint32_t)kb_rand_bits(KB_F);
  case 3: return (uint32_t)kb_rand_log(KB_F, -26, -13, false); /* the subnormal range */
  default: return (uint32_t)kb_rand_log(KB_F, -5, 5, false);
  }
}
static uint64_t kb_vsh_in_d(size_t j) {
  if (j < 8) {
    static const double sp[8] = {
      1 + 0x1p-11 + 0x1p-40, 1 + 0x1p-11 - 0x1p-40,    65520 - 0x1p-30, 0x1p-25 + 0x1p-60,
      0x1p-25 - 0x1p-60,     -(1 + 0x1p-11 + 0x1p-45), 1e300,           0x1.ffcp-15 + 0x1p-40};
    return kb_enc(KB_D, sp[j]);
  }
  if (j % 4 == 0) return kb_rand_bits(KB_D);
  if (j % 4 == 1) return kb_enc(KB_D, kb_val(KB_F, kb_vsh_in_f(j)));
  /* a half midpoint +- a few double ulps (invisible in float) */
  uint32_t hv = (uint32_t)kb_rand_bits(KB_H) & 0x7bfe;
  double m = (kb_val(KB_H, hv) + kb_val(KB_H, hv + 1)) / 2;
  uint64_t u = kb_enc(KB_D, m) + (uint64_t)kb_irange(-2, 2);
  return u | (kt_rand() & 1 ? 1ull << 63 : 0);
}

typedef struct kb_vsh_ctx {
  uint16_t *want_o, *want_v;
  const uint32_t *x;
  const uint64_t *xd;
} kb_vsh_ctx;

static void kb_check_vsh(const kt_run *r, void *u) {
  const kb_vsh_ctx *c = u;
  kb_report rep = {r, 0, 0, 30};
  enum { B = KB_VSH_B };
  kt_require(r, r->bytes[0] == 10 * B * 2 && r->bytes[1] == 12 * B * 2, "buffer sizes %zu, %zu", r->bytes[0],
             r->bytes[1]);
  static const char *const mname[5] = {"vstore_half", "vstore_half_rte", "vstore_half_rtz", "vstore_half_rtp",
                                       "vstore_half_rtn"};
  for (size_t i = 0; i < 10 * B; ++i) {
    uint16_t g;
    memcpy(&g, (const unsigned char *)r->buf[0] + 2 * i, 2);
    if (g == c->want_o[i]) continue;
    size_t m = i / B, j = i % B;
    if (m < 5)
      kb_bad(&rep, "%s(float 0x%08x = %a) = 0x%04x, expected 0x%04x", mname[m], c->x[j], kb_val(KB_F, c->x[j]), g,
             c->want_o[i]);
    else kb_bad(&rep, "%s(double %a) = 0x%04x, expected 0x%04x", mname[m - 5], kb_val(KB_D, c->xd[j]), g, c->want_o[i]);
  }
  static const char *const vname[12] = {"vstore_half2",           "vstore_half3_rtz",
                                        "vstorea_half3_rtn",      "vstore_half4_rtp",
                                        "vstorea_half4",          "vstore_half8_rtn",
                                        "vstorea_half8_rtz",      "vstore_half16_rte",
                                        "vstorea_half16_rtp",     "vstore_half4_rtz(double4)",
                                        "vstorea_half3(double3)", "vstorea_half2_rtn"};
  for (size_t i = 0; i < 12 * B; ++i) {
    uint16_t g;
    memcpy(&g, (const unsigned char *)r->buf[1] + 2 * i, 2);
    if (g != c->want_v[i])
      kb_bad(&rep, "%s: half %zu of the block = 0x%04x, expected 0x%04x", vname[i / B], i % B, g, c->want_v[i]);
  }
  kb_report_end(&rep, "vstore_half results");
}

static void test_vec_vstore_half(void **state) {
  (void)state;
  enum { G = KB_VSH_G, B = KB_VSH_B };
  static const mpfr_rnd_t modes[5] = {MPFR_RNDN, MPFR_RNDN, MPFR_RNDZ, MPFR_RNDU, MPFR_RNDD};
  uint32_t *x = kb_alloc(B * 4);
  uint64_t *xd = kb_alloc(B * 8);
  uint16_t *init_o = kb_alloc(10 * B * 2), *init_v = kb_alloc(12 * B * 2);
  uint16_t *want_o = kb_alloc(10 * B * 2), *want_v = kb_alloc(12 * B * 2);
  kt_seed(0xB5F000);
  for (size_t j = 0; j < B; ++j) {
    x[j] = kb_vsh_in_f(j);
    xd[j] = kb_vsh_in_d(j);
  }
  for (size_t i = 0; i < 10 * B; ++i) init_o[i] = 0x5a5a;
  for (size_t i = 0; i < 12 * B; ++i) init_v[i] = 0x5a5a;
  memcpy(want_o, init_o, 10 * B * 2);
  memcpy(want_v, init_v, 12 * B * 2);
  for (size_t j = 0; j < B; ++j)
    for (int m = 0; m < 5; ++m) {
      want_o[(size_t)m * B + j] = kb_f2h(x[j], modes[m]);
      want_o[(size_t)(m + 5) * B + j] = kb_d2h(xd[j], modes[m]);
    }
  /* vector blocks: {n, stride, mode, from double} */
  static const struct {
    unsigned n, stride;
    int mode;
    bool dbl;
  } vb[12] = {{2, 2, 0, false},   {3, 3, 2, false}, {3, 4, 4, false}, {4, 4, 3, false},
              {4, 4, 0, false},   {8, 8, 4, false}, {8, 8, 2, false}, {16, 16, 1, false},
              {16, 16, 3, false}, {4, 4, 2, true},  {3, 4, 0, true},  {2, 2, 4, false}};
  for (size_t b = 0; b < 12; ++b)
    for (size_t i = 0; i < G; ++i)
      for (unsigned c = 0; c < vb[b].n; ++c) {
        size_t src = vb[b].n * i + c; /* vloadn(i, x): stride n (3 for vload3) */
        want_v[b * B + vb[b].stride * i + c] = vb[b].dbl ? kb_d2h(xd[src], modes[vb[b].mode])
                                                         : kb_f2h(x[src], modes[vb[b].mode]);
      }
  /* hand-derived roundings (the reference must get these right on its own):
   * 65519.996f is below the midpoint 65520 of 65504 and 65536: RTE -> 65504 (0x7bff); 65520 ->
   * inf (0x7c00); RTZ(65520) -> 65504; RTN(-65520) -> -inf; RTP(-65520) -> -65504; RTZ(FLT_MAX) ->
   * 65504. 2^-25 is the midpoint of 0 and 2^-24: RTE -> +0 (even); 2^-25 + 2^-48 and 3 * 2^-26 are
   * above it -> 0x0001; RTP(2^-149) -> 0x0001, RTZ -> +0, RTN(-2^-149) -> 0x8001. 1 + 2^-11 (tie)
   * -> 0x3c00, 1 + 3 * 2^-11 (tie) -> 0x3c02 (even); 1 + 2^-11 + 2^-40 (double) -> 0x3c01 (one
   * rounding; through float it would be the tie) */
  assert_int_equal(kb_f2h(0x477fefff, MPFR_RNDN), 0x7bff);
  assert_int_equal(kb_f2h(0x477ff000, MPFR_RNDN), 0x7c00);
  assert_int_equal(kb_f2h(0x477ff000, MPFR_RNDZ), 0x7bff);
  assert_int_equal(kb_f2h(0xc77ff000, MPFR_RNDD), 0xfc00);
  assert_int_equal(kb_f2h(0xc77ff000, MPFR_RNDU), 0xfbff);
  assert_int_equal(kb_f2h(0x7f7fffff, MPFR_RNDZ), 0x7bff);
  assert_int_equal(kb_f2h(0x33000000, MPFR_RNDN), 0x0000);
  assert_int_equal(kb_f2h(0x33000001, MPFR_RNDN), 0x0001);
  assert_int_equal(kb_f2h(0x33400000, MPFR_RNDN), 0x0001);
  assert_int_equal(kb_f2h(0x00000001, MPFR_RNDU), 0x0001);
  assert_int_equal(kb_f2h(0x00000001, MPFR_RNDZ), 0x0000);
  assert_int_equal(kb_f2h(0x80000001, MPFR_RNDD), 0x8001);
  assert_int_equal(kb_f2h(0x3f801000, MPFR_RNDN), 0x3c00);
  assert_int_equal(kb_f2h(0x3f803000, MPFR_RNDN), 0x3c02);
  assert_int_equal(kb_f2h(0x387fe000, MPFR_RNDN), 0x0400); /* midpoint of 0x03ff and 0x0400: even */
  assert_int_equal(kb_d2h(kb_enc(KB_D, 1 + 0x1p-11 + 0x1p-40), MPFR_RNDN), 0x3c01);
  assert_int_equal(kb_f2h(0x7fa00000, MPFR_RNDN), 0x7f00); /* signalling NaN: quieted, payload kept */
  assert_int_equal(kb_d2h(0xfff4000000000000ull, MPFR_RNDZ), 0xfe00 | 0x100);
  kb_vsh_ctx ctx = {want_o, want_v, x, xd};
  uint32_t gg = G;
  kt_case c = {.file = "bi_vhalf",
               .kernel = "vsh",
               .args = {KT_BUF_IN(init_o, 10 * B * 2), KT_BUF_IN(init_v, 12 * B * 2), KT_BUF_IN(x, B * 4),
                        KT_BUF_IN(xd, B * 8), KT_VALUE(&gg)},
               .range = {1, {G}, {16}, {0}},
               .check = kb_check_vsh,
               .user = &ctx};
  kt_run_case(&c);
}

/* ---- shuffle / shuffle2 ----------------------------------------------------------------------- */
typedef struct kb_shuf_ctx {
  int nout;
  size_t bytes[4];
  const unsigned char *want[4];
} kb_shuf_ctx;
static void kb_check_shuf(const kt_run *r, void *u) {
  const kb_shuf_ctx *c = u;
  for (int k = 0; k < c->nout; ++k) {
    kt_require(r, r->bytes[k] == c->bytes[k], "argument %d: %zu bytes", k, r->bytes[k]);
    kt_expect_buf(r, k, c->want[k], KT_U8, c->bytes[k]);
  }
}

/* dst[c] = mask[c] & (2m - 1) < m ? x[index] : y[index - m]   (shuffle: y == NULL, & (m - 1)) */
static void kb_shuffle_ref(unsigned char *dst, unsigned outn, const unsigned char *x, const unsigned char *y,
                           unsigned m, unsigned es, const unsigned char *mask, unsigned mes) {
  for (unsigned c = 0; c < outn; ++c) {
    uint64_t mv = 0;
    memcpy(&mv, mask + c * mes, mes);
    unsigned idx = (unsigned)(mv & (y ? 2 * m - 1 : m - 1));
    const unsigned char *src = idx < m ? x + idx * es : y + (idx - m) * es;
    memcpy(dst + c * es, src, es);
  }
}

static void kb_rand_bytes(unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; ++i) p[i] = (unsigned char)kt_rand();
}
/* masks: random indices with random high bits (every bit above the index bits is random) */
static void kb_rand_mask(unsigned char *p, size_t count, unsigned mes) { kb_rand_bytes(p, count * mes); }

static void test_vec_shuffle(void **state) {
  (void)state;
  enum { G = 32 };
  kt_seed(0xB5C000);
  /* shuf_f */
  {
    unsigned char *x = kb_alloc(G * 16), *y = kb_alloc(G * 16), *m4 = kb_alloc(G * 16), *m8 = kb_alloc(G * 32),
                  *m16 = kb_alloc(G * 64);
    kb_rand_bytes(x, G * 16);
    kb_rand_bytes(y, G * 16);
    kb_rand_mask(m4, G * 4, 4);
    kb_rand_mask(m8, G * 8, 4);
    kb_rand_mask(m16, G * 16, 4);
    /* mask elements with only high bits: index 0 after masking */
    memset(m4, 0, 4);
    m4[3] = 0x80;
    m4[4 + 1] = 0xff;
    unsigned char *w4 = kb_alloc(2 * G * 16), *w8 = kb_alloc(G * 32), *w16 = kb_alloc(G * 64);
    for (size_t i = 0; i < G; ++i) {
      kb_shuffle_ref(w4 + i * 16, 4, x + i * 16, NULL, 4, 4, m4 + i * 16, 4);
      kb_shuffle_ref(w4 + (G + i) * 16, 4, x + i * 16, y + i * 16, 4, 4, m4 + i * 16, 4);
      kb_shuffle_ref(w8 + i * 32, 8, x + i * 16, y + i * 16, 4, 4, m8 + i * 32, 4);
      kb_shuffle_ref(w16 + i * 64, 16, x + i * 16, NULL, 4, 4, m16 + i * 64, 4);
    }
    /* hand: mask 0x80000000 -> index 0 of x */
    assert_memory_equal(w4, x, 4);
    kb_shuf_ctx ctx = {3, {2 * G * 16, G * 32, G * 64}, {w4, w8, w16}};
    uint32_t gg = G;
    kt_case c = {.file = "bi_shuffle",
                 .kernel = "shuf_f",
                 .args = {KT_BUF_IN(NULL, 2 * G * 16), KT_BUF_IN(NULL, G * 32), KT_BUF_IN(NULL, G * 64),
                          KT_BUF_IN(x, G * 16), KT_BUF_IN(y, G * 16), KT_BUF_IN(m4, G * 16), KT_BUF_IN(m8, G * 32),
                          KT_BUF_IN(m16, G * 64), KT_VALUE(&gg)},
                 .range = {1, {G}, {16}, {0}},
                 .check = kb_check_shuf,
                 .user = &ctx};
    kt_run_case(&c);
  }
  /* shuf_c */
  {
    unsigned char *x = kb_alloc(G * 16), *y = kb_alloc(G * 16), *m = kb_alloc(G * 16), *m2 = kb_alloc(G * 2);
    kb_rand_bytes(x, G * 16);
    kb_rand_bytes(y, G * 16);
    kb_rand_mask(m, G * 16, 1);
    kb_rand_mask(m2, G * 2, 1);
    unsigned char *w = kb_alloc(2 * G * 16), *w2 = kb_alloc(G * 2);
    for (size_t i = 0; i < G; ++i) {
      kb_shuffle_ref(w + i * 16, 16, x + i * 16, NULL, 16, 1, m + i * 16, 1);
      kb_shuffle_ref(w + (G + i) * 16, 16, x + i * 16, y + i * 16, 16, 1, m + i * 16, 1);
      kb_shuffle_ref(w2 + i * 2, 2, x + i * 16, NULL, 16, 1, m2 + i * 2, 1);
    }
    kb_shuf_ctx ctx = {2, {2 * G * 16, G * 2}, {w, w2}};
    uint32_t gg = G;
    kt_case c = {.file = "bi_shuffle",
                 .kernel = "shuf_c",
                 .args = {KT_BUF_IN(NULL, 2 * G * 16), KT_BUF_IN(NULL, G * 2), KT_BUF_IN(x, G * 16),
                          KT_BUF_IN(y, G * 16), KT_BUF_IN(m, G * 16), KT_BUF_IN(m2, G * 2), KT_VALUE(&gg)},
                 .range = {1, {G}, {16}, {0}},
                 .check = kb_check_shuf,
                 .user = &ctx};
    kt_run_case(&c);
  }
  /* shuf_l */
  {
    unsigned char *x = kb_alloc(G * 16), *y = kb_alloc(G * 16), *m = kb_alloc(G * 16), *dx = kb_alloc(G * 16),
                  *md = kb_alloc(G * 32), *hx = kb_alloc(G * 4), *hy = kb_alloc(G * 4), *mh = kb_alloc(G * 16);
    kb_rand_bytes(x, G * 16);
    kb_rand_bytes(y, G * 16);
    kb_rand_mask(m, G * 2, 8);
    kb_rand_bytes(dx, G * 16);
    kb_rand_mask(md, G * 4, 8);
    kb_rand_bytes(hx, G * 4);
    kb_rand_bytes(hy, G * 4);
    kb_rand_mask(mh, G * 8, 2);
    unsigned char *w = kb_alloc(2 * G * 16), *wd = kb_alloc(G * 32), *wh = kb_alloc(G * 16);
    for (size_t i = 0; i < G; ++i) {
      kb_shuffle_ref(w + i * 16, 2, x + i * 16, NULL, 2, 8, m + i * 16, 8);
      kb_shuffle_ref(w + (G + i) * 16, 2, x + i * 16, y + i * 16, 2, 8, m + i * 16, 8);
      kb_shuffle_ref(wd + i * 32, 4, dx + i * 16, NULL, 2, 8, md + i * 32, 8);
      kb_shuffle_ref(wh + i * 16, 8, hx + i * 4, hy + i * 4, 2, 2, mh + i * 16, 2);
    }
    kb_shuf_ctx ctx = {3, {2 * G * 16, G * 32, G * 16}, {w, wd, wh}};
    uint32_t gg = G;
    kt_case c = {.file = "bi_shuffle",
                 .kernel = "shuf_l",
                 .args = {KT_BUF_IN(NULL, 2 * G * 16), KT_BUF_IN(NULL, G * 32), KT_BUF_IN(NULL, G * 16),
                          KT_BUF_IN(x, G * 16), KT_BUF_IN(y, G * 16), KT_BUF_IN(m, G * 16), KT_BUF_IN(dx, G * 16),
                          KT_BUF_IN(md, G * 32), KT_BUF_IN(hx, G * 4), KT_BUF_IN(hy, G * 4), KT_BUF_IN(mh, G * 16),
                          KT_VALUE(&gg)},
                 .range = {1, {G}, {16}, {0}},
                 .check = kb_check_shuf,
                 .user = &ctx};
    kt_run_case(&c);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    KB_TEST(test_vec_vloadn),      KB_TEST(test_vec_spaces),  KB_TEST(test_vec_vload_half),
    KB_TEST(test_vec_vstore_half), KB_TEST(test_vec_shuffle),
  };
  return cmocka_run_group_tests_name("kernel_builtins_vec", tests, NULL, NULL);
}
