/*
 * test_kernels_vec.c — vector kernels and vector builtins: vec_widths.cl, vec_access.cl,
 * vec_compare.cl, vec_args.cl, builtins_int.cl, builtins_vec.cl.
 * Vectors are handled in the references as plain arrays of components. Memory layout (OpenCL C
 * s6.1.5): a 3-component vector in a buffer of vectors takes 4 components' room; vload3/vstore3
 * use 3 packed components.
 */
#include "kernel_harness.h"

#include <float.h>

/* ---- vec_widths.cl -------------------------------------------------------------------------- */
#define KT_VW_ITEMS 12

typedef struct kt_vw_ctx {
  const void *want;
  kt_type t;
  size_t n, lanes;
} kt_vw_ctx;
static void kt_check_vw(const kt_run *r, void *u) {
  const kt_vw_ctx *c = u;
  /* 3-component vectors: compare x, y, z of every 4 (the 4th is padding) */
  kt_expect_lanes(r, 0, c->want, c->t, KT_VW_ITEMS * c->lanes, c->n == 3 ? 4 : 0, 3);
}

static void kt_vint_test(unsigned n) {
  size_t lanes = n == 3 ? 4 : n;
  int32_t a[KT_VW_ITEMS * 16], b[KT_VW_ITEMS * 16], want[KT_VW_ITEMS * 16];
  kt_seed(0x7100 + n);
  for (size_t i = 0; i < KT_VW_ITEMS * lanes; ++i) {
    a[i] = (int32_t)kt_rand_range(-20000, 20000); /* (a+b)*(a-b) stays within int */
    b[i] = (int32_t)kt_rand_range(-20000, 20000);
    int32_t x = a[i], y = b[i];
    want[i] = ((x + y) * (x - y)) ^ (y >> 1);
  }
  char kernel[16];
  snprintf(kernel, sizeof kernel, "vint%u", n);
  kt_vw_ctx ctx = {want, KT_I32, n, lanes};
  kt_case c = {.file = "vec_widths",
               .kernel = kernel,
               .args = {KT_BUF_IN(NULL, KT_VW_ITEMS * lanes * 4), KT_BUF_IN(a, KT_VW_ITEMS * lanes * 4),
                        KT_BUF_IN(b, KT_VW_ITEMS * lanes * 4)},
               .range = {1, {KT_VW_ITEMS}, {4}, {0}},
               .check = kt_check_vw,
               .user = &ctx};
  kt_run_case(&c);
}

static void kt_vflt_test(unsigned n) {
  size_t lanes = n == 3 ? 4 : n;
  float a[KT_VW_ITEMS * 16], b[KT_VW_ITEMS * 16], want[KT_VW_ITEMS * 16];
  kt_seed(0x7200 + n);
  for (size_t i = 0; i < KT_VW_ITEMS * lanes; ++i) {
    a[i] = kt_rand_float(-5, 5);
    b[i] = kt_rand_float(-5, 5);
    if (i % 7 == 3) b[i] = a[i];
    float x = a[i], y = b[i];
    float s = x + y;
    float d = x - y;
    float p = s * d;
    want[i] = p / y;
  }
  char kernel[16];
  snprintf(kernel, sizeof kernel, "vflt%u", n);
  kt_vw_ctx ctx = {want, KT_F32, n, lanes};
  kt_case c = {.file = "vec_widths",
               .kernel = kernel,
               .args = {KT_BUF_IN(NULL, KT_VW_ITEMS * lanes * 4), KT_BUF_IN(a, KT_VW_ITEMS * lanes * 4),
                        KT_BUF_IN(b, KT_VW_ITEMS * lanes * 4)},
               .range = {1, {KT_VW_ITEMS}, {0}, {0}},
               .check = kt_check_vw,
               .user = &ctx};
  kt_run_case(&c);
}

#define KT_VW_TESTS(n)                     \
  static void test_vint##n(void **state) { \
    (void)state;                           \
    kt_vint_test(n);                       \
  }                                        \
  static void test_vflt##n(void **state) { \
    (void)state;                           \
    kt_vflt_test(n);                       \
  }
KT_VW_TESTS(2)
KT_VW_TESTS(3)
KT_VW_TESTS(4)
KT_VW_TESTS(8)
KT_VW_TESTS(16)

static void kt_check_vint3_packed(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I32, 30); }

static void test_vint3_packed(void **state) {
  (void)state;
  int32_t a[30], b[30], want[30], k = -5;
  kt_seed(0x7300);
  for (size_t i = 0; i < 30; ++i) {
    a[i] = (int32_t)kt_rand_range(-20000, 20000);
    b[i] = (int32_t)kt_rand_range(-20000, 20000);
    want[i] = a[i] * b[i] + k;
  }
  kt_case c = {.file = "vec_widths",
               .kernel = "vint3_packed",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(a, sizeof a), KT_BUF_IN(b, sizeof b), KT_VALUE(&k)},
               .range = {1, {10}, {0}, {0}},
               .check = kt_check_vint3_packed,
               .user = want};
  kt_run_case(&c);
}

/* ---- vec_access.cl -------------------------------------------------------------------------- */
static void kt_check_access(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I32, 4 * 49); }

static void test_vec_access(void **state) {
  (void)state;
  int32_t in[4 * 16], want[4 * 49];
  for (size_t i = 0; i < 4 * 16; ++i) in[i] = (int32_t)(1000 * (i / 16) + (i % 16) * 11 + 1);
  memset(want, 0, sizeof want);
  for (size_t g = 0; g < 4; ++g) {
    const int32_t *v = in + g * 16;
    int32_t *o = want + g * 49;
    /* derivations: see the comments in vec_access.cl */
    o[0] = v[0];
    o[1] = v[7];
    o[2] = v[10];
    o[3] = v[15];
    o[4] = v[3];  /* lo = v0..v7, .s3 */
    o[5] = v[8];  /* hi = v8..v15, .s0 */
    o[6] = v[14]; /* even = v0,v2,..,v14, .s7 */
    o[7] = v[3];  /* odd = v1,v3,.., .s1 */
    o[8] = v[9];
    o[9] = v[11];
    o[10] = v[9];
    o[11] = v[11]; /* hi.odd = v9,v11,v13,v15; .lo.xyxy */
    o[12] = v[4];
    o[13] = v[6]; /* lo.hi = v4..v7; .even */
    o[14] = v[3];
    o[15] = v[2];
    o[16] = v[1];
    o[17] = v[0];
    const int rep[8] = {0, 0, 15, 15, 1, 1, 14, 14};
    for (int k = 0; k < 8; ++k) o[18 + k] = v[rep[k]];
    o[26] = v[15];
    o[27] = v[10];
    o[28] = v[0]; /* reversed: .s0 .s5 .sf */
    o[29] = v[5];
    o[30] = v[5];
    o[31] = 300;
    o[32] = 300;
    int32_t *z = o + 33; /* z.hi.lo = v0..v3, then z.even.hi = v15..v12 */
    z[8] = v[0];
    z[9] = v[1];
    z[10] = v[2];
    z[11] = v[3];
    z[8] = v[15];
    z[10] = v[14];
    z[12] = v[13];
    z[14] = v[12];
  }
  kt_case c = {.file = "vec_access",
               .kernel = "access",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(in, sizeof in)},
               .range = {1, {4}, {0}, {0}},
               .check = kt_check_access,
               .user = want};
  kt_run_case(&c);
}

static void kt_check_access3(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I32, 5 * 8); }

static void test_vec_access3(void **state) {
  (void)state;
  int32_t in[5 * 4], want[5 * 8];
  for (size_t i = 0; i < 5 * 4; ++i) in[i] = (int32_t)(i * 37 - 200);
  for (size_t g = 0; g < 5; ++g) {
    int32_t a = in[g * 4], b = in[g * 4 + 1], c = in[g * 4 + 2];
    int32_t *o = want + g * 8;
    /* t = (c, b, a); t.lo = (c, b); t.even = (c, a); after t.xz = t.zx: (a, b, c) */
    o[0] = c;
    o[1] = b;
    o[2] = a;
    o[3] = b;
    o[4] = a;
    o[5] = a;
    o[6] = b;
    o[7] = c;
  }
  kt_case c = {.file = "vec_access",
               .kernel = "access3",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(in, sizeof in)},
               .range = {1, {5}, {0}, {0}},
               .check = kt_check_access3,
               .user = want};
  kt_run_case(&c);
}

/* ---- vec_compare.cl ------------------------------------------------------------------------- */
static void kt_check_vcmp_int4(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I32, 6 * 5 * 4); }

static void test_vcmp_int4(void **state) {
  (void)state;
  int32_t a[24], b[24], want[6 * 5 * 4];
  kt_int_inputs(a, b, 4, 0x7400);
  for (size_t v = 0; v < 6; ++v)
    for (size_t k = 0; k < 4; ++k) {
      int32_t x = a[v * 4 + k], y = b[v * 4 + k];
      int32_t *o = want + v * 20 + k; /* out[v*5 + j]: element (v*5 + j)*4 + k */
      o[0] = x < y ? -1 : 0;
      o[4] = x >= y ? -1 : 0;
      o[8] = x == y ? -1 : 0;
      o[12] = (uint32_t)x > (uint32_t)y ? -1 : 0;
      o[16] = x > y ? x : y;
    }
  kt_case c = {.file = "vec_compare",
               .kernel = "vcmp_int4",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(a, sizeof a), KT_BUF_IN(b, sizeof b)},
               .range = {1, {6}, {0}, {0}},
               .check = kt_check_vcmp_int4,
               .user = want};
  kt_run_case(&c);
}

static void kt_check_vcmp_uchar16(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I8, 2 * 2 * 16); }

static void test_vcmp_uchar16(void **state) {
  (void)state;
  uint8_t a[32], b[32];
  int8_t want[2 * 2 * 16];
  kt_seed(0x7500);
  for (size_t i = 0; i < 32; ++i) {
    a[i] = (uint8_t)kt_rand();
    b[i] = i % 5 == 0 ? a[i] : (uint8_t)kt_rand();
  }
  a[0] = 255;
  b[0] = 0;
  a[1] = 0;
  b[1] = 255;
  a[2] = 128;
  b[2] = 127; /* unsigned order */
  for (size_t v = 0; v < 2; ++v)
    for (size_t k = 0; k < 16; ++k) {
      uint8_t x = a[v * 16 + k], y = b[v * 16 + k];
      want[(v * 2 + 0) * 16 + k] = x > y ? -1 : 0;
      want[(v * 2 + 1) * 16 + k] = x != y ? -1 : 0;
    }
  kt_case c = {.file = "vec_compare",
               .kernel = "vcmp_uchar16",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(a, sizeof a), KT_BUF_IN(b, sizeof b)},
               .range = {1, {2}, {0}, {0}},
               .check = kt_check_vcmp_uchar16,
               .user = want};
  kt_run_case(&c);
}

static void kt_check_vcmp_float8(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I32, 3 * 4 * 8); }

static void test_vcmp_float8(void **state) {
  (void)state;
  /* the scalar comparison pairs of test_fcmp, 8 per vector */
  int32_t want[3 * 4 * 8];
  for (size_t v = 0; v < 3; ++v)
    for (size_t k = 0; k < 8; ++k) {
      float x = kt_cmp_a[v * 8 + k], y = kt_cmp_b[v * 8 + k];
      want[(v * 4 + 0) * 8 + k] = x < y ? -1 : 0;
      want[(v * 4 + 1) * 8 + k] = x != y ? -1 : 0;
      want[(v * 4 + 2) * 8 + k] = x >= y ? -1 : 0;
      want[(v * 4 + 3) * 8 + k] = isnan(x) ? -1 : 0;
    }
  kt_case c = {.file = "vec_compare",
               .kernel = "vcmp_float8",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(kt_cmp_a, sizeof kt_cmp_a),
                        KT_BUF_IN(kt_cmp_b, sizeof kt_cmp_b)},
               .range = {1, {3}, {0}, {0}},
               .check = kt_check_vcmp_float8,
               .user = want};
  kt_run_case(&c);
}

static void kt_check_vcmp_long2(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I64, 12 * 2 * 2); }

static void test_vcmp_long2(void **state) {
  (void)state;
  int64_t a[24], b[24], want[12 * 2 * 2];
  kt_int_inputs(a, b, 8, 0x7600);
  for (size_t v = 0; v < 12; ++v)
    for (size_t k = 0; k < 2; ++k) {
      int64_t x = a[v * 2 + k], y = b[v * 2 + k];
      want[(v * 2 + 0) * 2 + k] = x <= y ? -1 : 0;
      want[(v * 2 + 1) * 2 + k] = (uint64_t)x < (uint64_t)y ? 7 : -9;
    }
  kt_case c = {.file = "vec_compare",
               .kernel = "vcmp_long2",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(a, sizeof a), KT_BUF_IN(b, sizeof b)},
               .range = {1, {12}, {0}, {0}},
               .check = kt_check_vcmp_long2,
               .user = want};
  kt_run_case(&c);
}

static void kt_check_vcmp_int3(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I32, 24); }

static void test_vcmp_int3(void **state) {
  (void)state;
  int32_t a[24], b[24], want[24];
  kt_int_inputs(a, b, 4, 0x7700);
  for (size_t i = 0; i < 24; ++i) want[i] = a[i] > b[i] ? -1 : 0;
  kt_case c = {.file = "vec_compare",
               .kernel = "vcmp_int3",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(a, sizeof a), KT_BUF_IN(b, sizeof b)},
               .range = {1, {8}, {0}, {0}},
               .check = kt_check_vcmp_int3,
               .user = want};
  kt_run_case(&c);
}

/* ---- vec_args.cl ---------------------------------------------------------------------------- */
static void kt_check_scalar_args(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_U8, 64); }

static void test_scalar_args(void **state) {
  (void)state;
  int8_t c = -100;
  uint8_t uc = 200;
  int16_t s = -30000;
  uint16_t us = 60000;
  int32_t i = -2000000000;
  uint32_t ui = 4000000000u;
  int64_t l = -1234567890123456789ll;
  uint64_t ul = 0xFEDCBA9876543210ull;
  float f = -1.25e-3f;
  double d = 3.141592653589793;
  uint8_t want[64];
  memset(want, 0, sizeof want);
  memcpy(want + 0, &c, 1);
  memcpy(want + 1, &uc, 1);
  memcpy(want + 2, &s, 2);
  memcpy(want + 4, &us, 2);
  memcpy(want + 8, &i, 4);
  memcpy(want + 12, &ui, 4);
  memcpy(want + 16, &l, 8);
  memcpy(want + 24, &ul, 8);
  memcpy(want + 32, &f, 4);
  memcpy(want + 40, &d, 8);
  int32_t sum = c + uc + s + us + i; /* -100 + 200 - 30000 + 60000 - 2000000000 = -1999969900 */
  assert_int_equal(sum, -1999969900);
  memcpy(want + 48, &sum, 4);
  kt_case cs = {.file = "vec_args",
                .kernel = "scalar_args",
                .args = {KT_BUF_IN(NULL, 64), KT_VALUE(&c), KT_VALUE(&uc), KT_VALUE(&s), KT_VALUE(&us), KT_VALUE(&i),
                         KT_VALUE(&ui), KT_VALUE(&l), KT_VALUE(&ul), KT_VALUE(&f), KT_VALUE(&d)},
                .range = {1, {1}, {0}, {0}},
                .check = kt_check_scalar_args,
                .user = want};
  kt_run_case(&cs);
}

static void kt_check_vector_args(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I32, 3 * 64); }

static void test_vector_args(void **state) {
  (void)state;
  uint32_t f4[4] = {0x3FC00000u /* 1.5 */, 0xC0100000u /* -2.25 */, 0x7FC12345u /* NaN, payload */,
                    0x80000000u /* -0 */};
  int32_t i3[4] = {7, -8, 9, 0x55555555 /* padding */};
  uint8_t u16[16];
  for (int k = 0; k < 16; ++k) u16[k] = (uint8_t)(k * 17);
  int16_t s8[8] = {-32768, -1, 0, 1, 32767, 1234, -4321, 77};
  double d2[2] = {1.0 / 3.0, -0.0};
  int64_t l2[2] = {INT64_MIN, 0x0123456789ABCDEFll};
  float f2[2] = {FLT_MAX, -FLT_MIN};
  int8_t c3[4] = {-128, 127, -3, 0x11 /* padding */};
  int32_t want[3 * 64];
  memset(want, 0, sizeof want);
  for (int g = 0; g < 3; ++g) {
    int32_t *o = want + g * 64;
    memcpy(o, f4, 16);
    o[4] = 7;
    o[5] = -8;
    o[6] = 9;
    for (int k = 0; k < 16; ++k) o[7 + k] = u16[k];
    for (int k = 0; k < 8; ++k) o[23 + k] = s8[k];
    memcpy(o + 31, d2, 16); /* as_int4(double2): the little-endian halves */
    memcpy(o + 35, l2, 16);
    memcpy(o + 39, f2, 8);
    o[41] = -128;
    o[42] = 127;
    o[43] = -3;
    o[44] = 7 - 8 + 9 - 3; /* i3.x + i3.y + i3.z + c3.z */
    o[45] = 255 - 77;      /* u16.sf - s8.s7 */
  }
  kt_case c = {.file = "vec_args",
               .kernel = "vector_args",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_VALUE(&f4), KT_VALUE(&i3), KT_VALUE(&u16), KT_VALUE(&s8),
                        KT_VALUE(&d2), KT_VALUE(&l2), KT_VALUE(&f2), KT_VALUE(&c3)},
               .range = {1, {3}, {0}, {0}},
               .check = kt_check_vector_args,
               .user = want};
  kt_run_case(&c);
}

/* ---- builtins_int.cl ------------------------------------------------------------------------ */
static void kt_check_imisc(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I32, 24 * 8); }

static void test_imisc(void **state) {
  (void)state;
  int32_t a[24], b[24], want[24 * 8];
  kt_int_inputs(a, b, 4, 0x8100);
  a[13] = 5000;
  a[14] = -5000;
  for (size_t i = 0; i < 24; ++i) {
    int32_t x = a[i], y = b[i];
    uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
    int32_t *o = want + i * 8;
    o[0] = x < y ? x : y;
    o[1] = x > y ? x : y;
    o[2] = x < -1000 ? -1000 : x > 1000 ? 1000 : x;
    o[3] = (int32_t)(x < 0 ? 0u - ux : ux); /* abs(INT_MIN) = 0x80000000 */
    o[4] = (int32_t)(ux < uy ? ux : uy);
    o[5] = (int32_t)(ux < 10u ? 10u : ux > 0x80000000u ? 0x80000000u : ux);
    o[6] = (x & 4) ? y : x; /* scalar select: c != 0 picks b */
    o[7] = (int32_t)((ux & ~0x0ff0f00fu) | (uy & 0x0ff0f00fu));
  }
  kt_case c = {.file = "builtins_int",
               .kernel = "imisc",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(a, sizeof a), KT_BUF_IN(b, sizeof b)},
               .range = {1, {24}, {0}, {0}},
               .check = kt_check_imisc,
               .user = want};
  kt_run_case(&c);
}

typedef struct kt_vmisc_ctx {
  int8_t oc[6 * 3 * 4];
  uint32_t ou[6 * 2 * 4];
  int64_t ol[12];
  float of[6 * 2 * 4];
} kt_vmisc_ctx;
static void kt_check_vmisc(const kt_run *r, void *u) {
  const kt_vmisc_ctx *c = u;
  kt_expect_buf(r, 0, c->oc, KT_I8, 6 * 3 * 4);
  kt_expect_buf(r, 1, c->ou, KT_U32, 6 * 2 * 4);
  kt_expect_buf(r, 2, c->ol, KT_I64, 12);
  kt_expect_buf(r, 3, c->of, KT_F32, 6 * 2 * 4);
}

static void test_vmisc(void **state) {
  (void)state;
  /* 6 work-items; char4, int4, long2, float4 inputs */
  int8_t cin[24], cdummy[24];
  int32_t a[24], adummy[24];
  int64_t l[12], ldummy[24], ltmp[24];
  float f[24];
  kt_int_inputs(cin, cdummy, 1, 0x8200);
  kt_int_inputs(a, adummy, 4, 0x8201);
  kt_int_inputs(ltmp, ldummy, 8, 0x8202);
  for (size_t i = 0; i < 12; ++i)
    l[i] = ltmp[i + 4] == INT64_MIN ? INT64_MIN + 1 : ltmp[i + 4]; /* -LONG_MIN is undefined */
  for (size_t i = 0; i < 24; ++i) f[i] = kt_fspecial[i];
  static kt_vmisc_ctx w;
  static const int8_t mx[4] = {-3, 0, 3, 100};
  for (size_t v = 0; v < 6; ++v)
    for (size_t k = 0; k < 4; ++k) {
      int8_t x = cin[v * 4 + k];
      w.oc[(v * 3 + 0) * 4 + k] = x > mx[k] ? x : mx[k];
      w.oc[(v * 3 + 1) * 4 + k] = x < -50 ? -50 : x > 50 ? 50 : x;
      w.oc[(v * 3 + 2) * 4 + k] = (int8_t)(uint8_t)(x < 0 ? -x : x); /* abs(-128) = 128 -> 0x80 */
      int32_t y = a[v * 4 + k];
      w.ou[(v * 2 + 0) * 4 + k] = y < 0 ? 0u - (uint32_t)y : (uint32_t)y;
      w.ou[(v * 2 + 1) * 4 + k] = y < 0 ? 7u : (uint32_t)y; /* MSB set picks 7 */
      float z = f[v * 4 + k];
      w.of[(v * 2 + 0) * 4 + k] = kt_u2f(kt_f2u(z) ^ 0x80000000u); /* sign bit from -f */
      w.of[(v * 2 + 1) * 4 + k] = isnan(z) ? 0.0f : z;
    }
  for (size_t i = 0; i < 12; ++i) w.ol[i] = l[i] < 0 ? -l[i] : l[i];
  kt_case c = {.file = "builtins_int",
               .kernel = "vmisc",
               .args = {KT_BUF_IN(NULL, sizeof w.oc), KT_BUF_IN(NULL, sizeof w.ou), KT_BUF_IN(NULL, sizeof w.ol),
                        KT_BUF_IN(NULL, sizeof w.of), KT_BUF_IN(cin, sizeof cin), KT_BUF_IN(a, sizeof a),
                        KT_BUF_IN(l, sizeof l), KT_BUF_IN(f, sizeof f)},
               .range = {1, {6}, {0}, {0}},
               .check = kt_check_vmisc,
               .user = &w};
  kt_run_case(&c);
}

/* ---- builtins_vec.cl ------------------------------------------------------------------------ */
#define KT_VLS_G 6
static void kt_check_vls(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_F32, 17 * KT_VLS_G); }

static void test_vls(void **state) {
  (void)state;
  enum { G = KT_VLS_G };
  float in[8 * G], want[17 * G];
  kt_seed(0x8300);
  for (size_t i = 0; i < 8 * G; ++i) in[i] = kt_rand_float(-4, 4);
  for (size_t i = 0; i < G; ++i) {
    for (size_t k = 0; k < 4; ++k) want[4 * i + k] = in[4 * i + k] + in[4 * i + 1 + k];
    for (size_t k = 0; k < 3; ++k) want[4 * G + 3 * i + k] = in[3 * i + 2 + k];
    for (size_t k = 0; k < 2; ++k) want[7 * G + 2 * i + k] = in[i + k];
    for (size_t k = 0; k < 8; ++k) want[9 * G + 8 * i + k] = in[8 * i + 7 - k];
  }
  kt_case c = {.file = "builtins_vec",
               .kernel = "vls",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(in, sizeof in)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_vls,
               .user = want};
  kt_run_case(&c);
}

static void kt_check_shuf(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I32, 5 * 28); }

static void test_shuffle(void **state) {
  (void)state;
  int32_t a[5 * 4], b[5 * 4], want[5 * 28];
  uint32_t m4[5 * 4], m8[5 * 8];
  kt_seed(0x8400);
  for (size_t i = 0; i < 20; ++i) {
    a[i] = (int32_t)(100 + i);
    b[i] = (int32_t)(-100 - (int32_t)i);
    m4[i] = (uint32_t)kt_rand(); /* high bits must be ignored */
  }
  for (size_t i = 0; i < 40; ++i) m8[i] = (uint32_t)kt_rand();
  for (size_t g = 0; g < 5; ++g) {
    const int32_t *x = a + g * 4, *y = b + g * 4;
    int32_t *o = want + g * 28, r2[8];
    for (size_t k = 0; k < 4; ++k) o[k] = x[m4[g * 4 + k] & 3];
    for (size_t k = 0; k < 8; ++k) o[4 + k] = r2[k] = x[m8[g * 8 + k] & 3];
    for (size_t k = 0; k < 4; ++k) {
      uint32_t j = m4[g * 4 + k] & 7;
      o[12 + k] = j < 4 ? x[j] : y[j - 4];
    }
    for (size_t k = 0; k < 8; ++k) {
      uint32_t j = m8[g * 8 + k] & 7;
      o[16 + k] = j < 4 ? x[j] : y[j - 4];
    }
    o[24] = r2[7];
    o[25] = r2[0];
    o[26] = r2[6];
    o[27] = r2[1];
  }
  kt_case c = {.file = "builtins_vec",
               .kernel = "shuf",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(a, sizeof a), KT_BUF_IN(b, sizeof b),
                        KT_BUF_IN(m4, sizeof m4), KT_BUF_IN(m8, sizeof m8)},
               .range = {1, {5}, {0}, {0}},
               .check = kt_check_shuf,
               .user = want};
  kt_run_case(&c);
}

static void kt_check_shuf16(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_F32, 3 * 16); }

static void test_shuffle16(void **state) {
  (void)state;
  float a[3 * 2] = {1.5f, -2.5f, 3.25f, -4.125f, 1e10f, -1e-10f};
  uint32_t m[3 * 16];
  float want[3 * 16];
  kt_seed(0x8500);
  for (size_t i = 0; i < 48; ++i) m[i] = (uint32_t)kt_rand();
  for (size_t g = 0; g < 3; ++g)
    for (size_t k = 0; k < 16; ++k) want[g * 16 + k] = a[g * 2 + (m[g * 16 + k] & 1)];
  kt_case c = {.file = "builtins_vec",
               .kernel = "shuf16",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(a, sizeof a), KT_BUF_IN(m, sizeof m)},
               .range = {1, {3}, {0}, {0}},
               .check = kt_check_shuf16,
               .user = want};
  kt_run_case(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    KT_TEST(test_vint2),       KT_TEST(test_vflt2),     KT_TEST(test_vint3),        KT_TEST(test_vflt3),
    KT_TEST(test_vint4),       KT_TEST(test_vflt4),     KT_TEST(test_vint8),        KT_TEST(test_vflt8),
    KT_TEST(test_vint16),      KT_TEST(test_vflt16),    KT_TEST(test_vint3_packed), KT_TEST(test_vec_access),
    KT_TEST(test_vec_access3), KT_TEST(test_vcmp_int4), KT_TEST(test_vcmp_uchar16), KT_TEST(test_vcmp_float8),
    KT_TEST(test_vcmp_long2),  KT_TEST(test_vcmp_int3), KT_TEST(test_scalar_args),  KT_TEST(test_vector_args),
    KT_TEST(test_imisc),       KT_TEST(test_vmisc),     KT_TEST(test_vls),          KT_TEST(test_shuffle),
    KT_TEST(test_shuffle16),
  };
  return cmocka_run_group_tests_name("kernels_vec", tests, NULL, NULL);
}
