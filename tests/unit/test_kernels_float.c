/*
 * test_kernels_float.c — floating-point kernels: float_arith.cl, float_compare.cl,
 * float_convert.cl, double_arith.cl, builtins_math.cl.
 * References are plain C float/double arithmetic (x86-64 SSE, FLT_EVAL_METHOD 0, and -std=c11
 * disables FP contraction), so results are bit-exact; NaN matches any NaN. Inputs avoid results in
 * the subnormal range (a device may flush them) and the cases OpenCL leaves open (fmin/fmax of +0
 * and -0, out-of-range float -> integer conversions).
 */
#include "kernel_harness.h"

#include <float.h>

/* a normal double with a random sign and an exponent in [emin, emax] (kt_rand_float's twin) */
static double kt_rand_double(int emin, int emax) {
  uint64_t mant = kt_rand() & 0xFFFFFFFFFFFFFull;
  uint64_t e = (uint64_t)(kt_rand_range(emin, emax) + 1023);
  uint64_t s = (kt_rand() & 1) << 63;
  double d;
  uint64_t u = s | e << 52 | mant;
  memcpy(&d, &u, 8);
  return d;
}

static bool kt_subnormal_f(float f) { return fpclassify(f) == FP_SUBNORMAL; }
static bool kt_subnormal_d(double d) { return fpclassify(d) == FP_SUBNORMAL; }

/* ---- float_arith.cl ------------------------------------------------------------------------- */
static void kt_farith_ref(float x, float y, float *o) {
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = -x;
  float s = x + y;
  float d = x - y;
  o[5] = s * d;
}

static void kt_check_farith(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_F32, KT_NF * 2 * 6); }

static void test_farith(void **state) {
  (void)state;
  enum { N = KT_NF * 2 };
  float a[N], b[N], want[N * 6];
  kt_seed(0xF001);
  for (size_t i = 0; i < N; ++i) {
    a[i] = i < KT_NF ? kt_fspecial[i] : kt_rand_float(-20, 20);
    b[i] = i < KT_NF ? kt_fspecial[(i * 5 + 7) % KT_NF] : kt_rand_float(-20, 20);
    if (i == 30) b[i] = a[i];
    /* keep results out of the subnormal range: replace b by 1.5, then by 1 (FLT_MIN / 1.5 is
     * subnormal, FLT_MIN op 1 is not) */
    static const float fallback[] = {1.5f, 1.0f};
    for (size_t f = 0;; ++f) {
      kt_farith_ref(a[i], b[i], want + i * 6);
      bool sub = false;
      for (int k = 0; k < 6; ++k) sub |= kt_subnormal_f(want[i * 6 + k]);
      if (!sub) break;
      assert_true(f < KT_COUNT(fallback));
      b[i] = fallback[f];
    }
  }
  /* hand checks: 0.1f + 1.0f == 0x3f8ccccd (1.10000002); 1/3 rounds to 0x3eaaaaab */
  assert_true(kt_f2u(0.1f + 1.0f) == 0x3f8ccccdu && kt_f2u(1.0f / 3.0f) == 0x3eaaaaabu);
  kt_case c = {.file = "float_arith",
               .kernel = "farith",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(a, sizeof a), KT_BUF_IN(b, sizeof b)},
               .range = {1, {N}, {16}, {0}},
               .check = kt_check_farith,
               .user = want};
  kt_run_case(&c);
}

static void kt_check_fsum(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_F32, 4); }

static void test_fsum_seq(void **state) {
  (void)state;
  float a[20], want[4];
  int n = 20;
  kt_seed(0xF002);
  for (int k = 0; k < n; ++k) a[k] = kt_rand_float(-3, 10);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) {
    acc += a[k];
    acc /= 1.5f;
  }
  for (int g = 0; g < 4; ++g) want[g] = acc;
  kt_case c = {.file = "float_arith",
               .kernel = "fsum_seq",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(a, sizeof a), KT_VALUE(&n)},
               .range = {1, {4}, {0}, {0}},
               .check = kt_check_fsum,
               .user = want};
  kt_run_case(&c);
}

/* ---- float_compare.cl (the pairs kt_cmp_a, kt_cmp_b: kernel_harness.h) ---------------------- */
static void kt_check_fcmp(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I32, KT_NF * 10); }

static void test_fcmp(void **state) {
  (void)state;
  int32_t want[KT_NF * 10];
  for (size_t i = 0; i < KT_NF; ++i) {
    float x = kt_cmp_a[i], y = kt_cmp_b[i];
    int32_t *o = want + i * 10;
    o[0] = x == y;
    o[1] = x != y;
    o[2] = x < y;
    o[3] = x <= y;
    o[4] = x > y;
    o[5] = x >= y;
    o[6] = !(x < y);
    o[7] = isnan(x) ? 1 : 0;
    o[8] = !isnan(x) && !isnan(y);
    o[9] = isunordered(x, y) ? 1 : 0;
  }
  /* hand checks: NaN vs 1 -> ==0 !=1 <0 !(<)1 isnan 1; 0 vs -0 equal */
  assert_true(want[3 * 10 + 0] == 0 && want[3 * 10 + 1] == 1 && want[3 * 10 + 2] == 0 && want[3 * 10 + 6] == 1);
  assert_true(want[6 * 10 + 0] == 1 && want[6 * 10 + 1] == 0);
  kt_case c = {.file = "float_compare",
               .kernel = "fcmp",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(kt_cmp_a, sizeof kt_cmp_a),
                        KT_BUF_IN(kt_cmp_b, sizeof kt_cmp_b)},
               .range = {1, {KT_NF}, {0}, {0}},
               .check = kt_check_fcmp,
               .user = want};
  kt_run_case(&c);
}

static void kt_check_fcmp4(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I32, KT_NF / 4 * 7 * 4); }

static void test_fcmp4(void **state) {
  (void)state;
  int32_t want[KT_NF / 4 * 7 * 4];
  for (size_t v = 0; v < KT_NF / 4; ++v)
    for (size_t k = 0; k < 4; ++k) {
      float x = kt_cmp_a[v * 4 + k], y = kt_cmp_b[v * 4 + k];
      int32_t *o = want + v * 28 + k; /* out[v*7 + j] is an int4: element j*4 + k */
      o[0] = x == y ? -1 : 0;
      o[4] = x != y ? -1 : 0;
      o[8] = x < y ? -1 : 0;
      o[12] = x >= y ? -1 : 0;
      o[16] = isnan(x) ? -1 : 0;
      o[20] = !isnan(x) && !isnan(y) ? -1 : 0;
      o[24] = isnan(x) || isnan(y) ? -1 : 0;
    }
  kt_case c = {.file = "float_compare",
               .kernel = "fcmp4",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(kt_cmp_a, sizeof kt_cmp_a),
                        KT_BUF_IN(kt_cmp_b, sizeof kt_cmp_b)},
               .range = {1, {KT_NF / 4}, {0}, {0}},
               .check = kt_check_fcmp4,
               .user = want};
  kt_run_case(&c);
}

static void kt_check_fcmp_branch(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_F32, KT_NF); }

static void test_fcmp_branch(void **state) {
  (void)state;
  float want[KT_NF];
  for (size_t i = 0; i < KT_NF; ++i) {
    float x = kt_cmp_a[i], y = kt_cmp_b[i], r;
    if (x < y) r = y;
    else if (x > y) r = x;
    else r = -1.0f;
    want[i] = x >= y ? r : -r;
  }
  kt_case c = {.file = "float_compare",
               .kernel = "fcmp_branch",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(kt_cmp_a, sizeof kt_cmp_a),
                        KT_BUF_IN(kt_cmp_b, sizeof kt_cmp_b)},
               .range = {1, {KT_NF}, {0}, {0}},
               .check = kt_check_fcmp_branch,
               .user = want};
  kt_run_case(&c);
}

/* ---- float_convert.cl ----------------------------------------------------------------------- */
typedef struct kt_f2i_ctx {
  int32_t oi[KT_NF];
  uint32_t ou[KT_NF];
  int64_t ol[KT_NF];
  uint64_t oul[KT_NF];
  int8_t oc[KT_NF];
  uint8_t ouc[KT_NF];
} kt_f2i_ctx;
static void kt_check_f2i(const kt_run *r, void *u) {
  const kt_f2i_ctx *c = u;
  kt_expect_buf(r, 0, c->oi, KT_I32, KT_NF);
  kt_expect_buf(r, 1, c->ou, KT_U32, KT_NF);
  kt_expect_buf(r, 2, c->ol, KT_I64, KT_NF);
  kt_expect_buf(r, 3, c->oul, KT_U64, KT_NF);
  kt_expect_buf(r, 4, c->oc, KT_I8, KT_NF);
  kt_expect_buf(r, 5, c->ouc, KT_U8, KT_NF);
}

static void test_f2i(void **state) {
  (void)state;
  /* |f| <= 1.2799e8 keeps every conversion in range (f / 1e6 fits char) */
  static const float fixed[] = {0.0f,      -0.0f,      0.9f,        -0.9f,       2.5f,        -2.5f,
                                3.5f,      1e8f,       -1e8f,       16777217.0f, 123456.789f, -98765.4321f,
                                1.2799e8f, -1.2799e8f, 0.49999997f, 8388607.5f,  -8388607.5f, 1e-3f};
  float f[KT_NF];
  kt_seed(0xF003);
  for (size_t i = 0; i < KT_NF; ++i)
    f[i] = i < KT_COUNT(fixed) ? fixed[i] : (float)kt_rand_range(-100000000, 100000000) / 7.0f;
  static kt_f2i_ctx w;
  for (size_t i = 0; i < KT_NF; ++i) {
    float x = f[i];
    w.oi[i] = (int32_t)x;
    w.ol[i] = (int64_t)x;
    w.oc[i] = (int8_t)(x / 1.0e6f);
    float ax = fabsf(x);
    w.ou[i] = (uint32_t)ax;
    w.oul[i] = (uint64_t)ax;
    w.ouc[i] = (uint8_t)(ax / 1.0e7f);
  }
  /* hand checks: truncation toward zero; 16777217.0f is 16777216 */
  assert_true(w.oi[4] == 2 && w.oi[5] == -2 && w.oi[3] == 0 && w.oi[9] == 16777216 && w.oc[12] == 127);
  kt_case c = {.file = "float_convert",
               .kernel = "f2i",
               .args = {KT_BUF_IN(NULL, sizeof w.oi), KT_BUF_IN(NULL, sizeof w.ou), KT_BUF_IN(NULL, sizeof w.ol),
                        KT_BUF_IN(NULL, sizeof w.oul), KT_BUF_IN(NULL, sizeof w.oc), KT_BUF_IN(NULL, sizeof w.ouc),
                        KT_BUF_IN(f, sizeof f)},
               .range = {1, {KT_NF}, {0}, {0}},
               .check = kt_check_f2i,
               .user = &w};
  kt_run_case(&c);
}

static void kt_check_i2f(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_F32, 16 * 4); }

static void test_i2f(void **state) {
  (void)state;
  int32_t si[16] = {INT32_MIN, INT32_MAX, 16777217, 16777219, -16777217, 0, -1, 33554435};
  uint32_t ui[16] = {0xFFFFFFFFu, 0x80000001u, 16777217u, 0x7FFFFFC0u, 0xFFFFFF80u, 0, 1, 0x80000080u};
  int64_t sl[16] = {INT64_MIN,       INT64_MAX, (1ll << 53) + 1,     -((1ll << 40) + 3), (1ll << 24) + 1,
                    (1ll << 24) + 3, -1,        0x4000008000000001ll};
  uint64_t ul[16] = {UINT64_MAX,
                     (1ull << 63) + 1,
                     (1ull << 63) + (1ull << 39) + 1,
                     (1ull << 63) + (1ull << 39),
                     (1ull << 63) + (3ull << 39),
                     0,
                     1,
                     0xFFFFFF7FFFFFFFFFull};
  kt_seed(0xF004);
  for (size_t i = 8; i < 16; ++i) {
    si[i] = (int32_t)(uint32_t)kt_rand();
    ui[i] = (uint32_t)kt_rand();
    sl[i] = (int64_t)(kt_rand() >> (kt_rand() % 40));
    ul[i] = kt_rand() >> (kt_rand() % 40);
  }
  float want[16 * 4];
  for (size_t i = 0; i < 16; ++i) {
    want[i * 4 + 0] = (float)si[i];
    want[i * 4 + 1] = (float)ui[i];
    want[i * 4 + 2] = (float)sl[i];
    want[i * 4 + 3] = (float)ul[i];
  }
  /* hand checks (round to nearest even): 16777217 -> 16777216, 16777219 -> 16777220,
   * 2^63 + 2^39 is a tie between 2^63 and 2^63 + 2^40 -> 2^63 (even mantissa),
   * 2^63 + 2^39 + 1 is above the tie -> 2^63 + 2^40 */
  assert_true(want[2 * 4] == 16777216.0f && want[3 * 4] == 16777220.0f);
  assert_true(want[3 * 4 + 3] == 9223372036854775808.0f && want[2 * 4 + 3] == 9223373136366403584.0f);
  kt_case c = {.file = "float_convert",
               .kernel = "i2f",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(si, sizeof si), KT_BUF_IN(ui, sizeof ui),
                        KT_BUF_IN(sl, sizeof sl), KT_BUF_IN(ul, sizeof ul)},
               .range = {1, {16}, {0}, {0}},
               .check = kt_check_i2f,
               .user = want};
  kt_run_case(&c);
}

typedef struct kt_d2x_ctx {
  float of[16];
  double od[16];
  int64_t ol[16];
  double odl[16];
  double odul[16];
} kt_d2x_ctx;
static void kt_check_d2x(const kt_run *r, void *u) {
  const kt_d2x_ctx *c = u;
  kt_expect_buf(r, 0, c->of, KT_F32, 16);
  kt_expect_buf(r, 1, c->od, KT_F64, 16);
  kt_expect_buf(r, 2, c->ol, KT_I64, 16);
  kt_expect_buf(r, 3, c->odl, KT_F64, 16);
  kt_expect_buf(r, 4, c->odul, KT_F64, 16);
}

static void test_d2x(void **state) {
  (void)state;
  /* |d| < 2^63 so (long)d is defined; no result in the float subnormal range */
  double d[16] = {1.0 / 3.0, 0.1,        -2.5,    1e10, 9007199254740993.0,    16777217.0,
                  3.0e18,    1e-300,     -1e-300, -0.0, 9223372036854774784.0, -9.2e18,
                  2.5e-30,   16777217.5, -0.75,   1e18};
  int64_t l[16] = {(1ll << 53) + 1,  -((1ll << 62) + 1),   -1, 0, INT64_MAX, INT64_MIN, 12345, (1ll << 53) + 3,
                   -(1ll << 53) - 1, 0x7FFFFFFFFFFFFDFFll, 2,  3, 4,         5,         6,     7};
  static kt_d2x_ctx w;
  for (size_t i = 0; i < 16; ++i) {
    w.of[i] = (float)d[i];
    w.od[i] = (double)(float)d[i];
    w.ol[i] = (int64_t)d[i];
    w.odl[i] = (double)l[i];
    w.odul[i] = (double)(uint64_t)l[i];
    assert_false(kt_subnormal_f(w.of[i]));
  }
  /* hand checks: 2^53 + 1 -> 2^53 (tie, even); (ulong)-1 -> 2^64 */
  assert_true(w.odl[0] == 9007199254740992.0 && w.odul[2] == 18446744073709551616.0);
  kt_case c = {.file = "float_convert",
               .kernel = "d2x",
               .args = {KT_BUF_IN(NULL, sizeof w.of), KT_BUF_IN(NULL, sizeof w.od), KT_BUF_IN(NULL, sizeof w.ol),
                        KT_BUF_IN(NULL, sizeof w.odl), KT_BUF_IN(NULL, sizeof w.odul), KT_BUF_IN(d, sizeof d),
                        KT_BUF_IN(l, sizeof l)},
               .range = {1, {16}, {0}, {0}},
               .check = kt_check_d2x,
               .user = &w};
  kt_run_case(&c);
}

typedef struct kt_convf_ctx {
  float of[KT_NF];
  int32_t oi[KT_NF];
} kt_convf_ctx;
static void kt_check_conv_vec(const kt_run *r, void *u) {
  const kt_convf_ctx *c = u;
  kt_expect_buf(r, 0, c->of, KT_F32, KT_NF);
  kt_expect_buf(r, 1, c->oi, KT_I32, KT_NF);
}

static void test_conv_vec_float(void **state) {
  (void)state;
  int32_t a[KT_NF];
  float b[KT_NF];
  kt_seed(0xF005);
  for (size_t i = 0; i < KT_NF; ++i) {
    a[i] = (int32_t)(uint32_t)kt_rand();
    b[i] = (float)kt_rand_range(-2000000000, 2000000000) / (float)(1 + i);
  }
  a[0] = 16777217;
  a[1] = -16777219;
  b[0] = -0.5f;
  b[1] = 2147483520.0f; /* the largest float below 2^31 */
  static kt_convf_ctx w;
  for (size_t i = 0; i < KT_NF; ++i) {
    w.of[i] = (float)a[i];
    w.oi[i] = (int32_t)b[i];
  }
  kt_case c = {.file = "float_convert",
               .kernel = "conv_vec",
               .args = {KT_BUF_IN(NULL, sizeof w.of), KT_BUF_IN(NULL, sizeof w.oi), KT_BUF_IN(a, sizeof a),
                        KT_BUF_IN(b, sizeof b)},
               .range = {1, {KT_NF / 4}, {0}, {0}},
               .check = kt_check_conv_vec,
               .user = &w};
  kt_run_case(&c);
}

/* ---- double_arith.cl ------------------------------------------------------------------------ */
static const double kt_dspecial[KT_NF] = {
  0.0,     -0.0,    1.0,      -1.0,      0.1,        3.0,       1e300,
  -1e300,  1e-300,  INFINITY, -INFINITY, NAN,        1.0 / 3.0, 9007199254740992.0,
  DBL_MAX, DBL_MIN, 2.5,      -7.75,     123456.789, 0.5,       1e-5,
  -3.0e-5, 1e10,    7.0};

typedef struct kt_darith_ctx {
  double out[KT_NF * 2 * 5];
  int64_t cmp[KT_NF * 2];
} kt_darith_ctx;
static void kt_check_darith(const kt_run *r, void *u) {
  const kt_darith_ctx *c = u;
  kt_expect_buf(r, 0, c->out, KT_F64, KT_NF * 2 * 5);
  kt_expect_buf(r, 1, c->cmp, KT_I64, KT_NF * 2);
}

static void test_darith(void **state) {
  (void)state;
  enum { N = KT_NF * 2 };
  double a[N], b[N];
  static kt_darith_ctx w;
  kt_seed(0xD001);
  for (size_t i = 0; i < N; ++i) {
    a[i] = i < KT_NF ? kt_dspecial[i] : kt_rand_double(-40, 40);
    b[i] = i < KT_NF ? kt_dspecial[(i * 5 + 7) % KT_NF] : kt_rand_double(-40, 40);
    if (i == 25 || i == 11) b[i] = a[i];
    static const double fallback[] = {1.5, 1.0};
    for (size_t f = 0;; ++f) {
      double x = a[i], y = b[i], *o = w.out + i * 5;
      o[0] = x + y;
      o[1] = x - y;
      o[2] = x * y;
      o[3] = x / y;
      o[4] = -x;
      bool sub = false;
      for (int k = 0; k < 5; ++k) sub |= kt_subnormal_d(o[k]);
      if (!sub) break;
      assert_true(f < KT_COUNT(fallback));
      b[i] = fallback[f];
    }
    double x = a[i], y = b[i];
    w.cmp[i] = (x == y) | (x != y) << 1 | (x < y) << 2 | (x <= y) << 3 | (x > y) << 4 | (x >= y) << 5 |
               (isnan(y) ? 1 : 0) << 6 | (isunordered(x, y) ? 1 : 0) << 7;
  }
  kt_case c = {.file = "double_arith",
               .kernel = "darith",
               .args = {KT_BUF_IN(NULL, sizeof w.out), KT_BUF_IN(NULL, sizeof w.cmp), KT_BUF_IN(a, sizeof a),
                        KT_BUF_IN(b, sizeof b)},
               .range = {1, {N}, {0}, {0}},
               .check = kt_check_darith,
               .user = &w};
  kt_run_case(&c);
}

static void kt_check_dcmp2(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I64, KT_NF * 3); }

static void test_dcmp2(void **state) {
  (void)state;
  double a[KT_NF], b[KT_NF];
  int64_t want[KT_NF * 3]; /* out[i*3 + j] is a long2: element (i*3 + j)*2 + k */
  for (size_t i = 0; i < KT_NF; ++i) {
    a[i] = (double)kt_cmp_a[i];
    b[i] = (double)kt_cmp_b[i];
  }
  for (size_t v = 0; v < KT_NF / 2; ++v)
    for (size_t k = 0; k < 2; ++k) {
      double x = a[v * 2 + k], y = b[v * 2 + k];
      want[(v * 3 + 0) * 2 + k] = x < y ? -1 : 0;
      want[(v * 3 + 1) * 2 + k] = x != y ? -1 : 0;
      want[(v * 3 + 2) * 2 + k] = x == y ? -1 : 0;
    }
  kt_case c = {.file = "double_arith",
               .kernel = "dcmp2",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(a, sizeof a), KT_BUF_IN(b, sizeof b)},
               .range = {1, {KT_NF / 2}, {0}, {0}},
               .check = kt_check_dcmp2,
               .user = want};
  kt_run_case(&c);
}

/* ---- builtins_math.cl ----------------------------------------------------------------------- */
/* a, b may hold NaN and infinities; c has no NaN (clamp's NaN handling is left aside). Pairs of
 * zeros of different signs are avoided where fmin/fmax see them. */
static void kt_math_inputs_f(float *a, float *b, float *c, size_t n, uint64_t seed) {
  kt_seed(seed);
  for (size_t i = 0; i < n; ++i) {
    a[i] = i < KT_NF ? kt_fspecial[i] : kt_rand_float(-10, 10);
    b[i] = i < KT_NF ? kt_fspecial[(i * 7 + 5) % KT_NF] : kt_rand_float(-10, 10);
    c[i] = kt_rand_float(-3, 3);
    if (i % 5 == 0) c[i] = kt_fspecial[(i * 3) % 9]; /* zeros, +-1, 0.1, 3, +-1e30, 1e-30 */
    if (a[i] == 0.0f && b[i] == 0.0f) b[i] = 0.5f;
  }
}

typedef struct kt_fmath_ctx {
  float out[KT_NF * 2 * 8];
} kt_fmath_ctx;
static void kt_check_fmath(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_F32, KT_NF * 2 * 8); }

static void test_fmath(void **state) {
  (void)state;
  enum { N = KT_NF * 2 };
  float a[N], b[N], cc[N];
  kt_math_inputs_f(a, b, cc, N, 0xB001);
  static kt_fmath_ctx w;
  for (size_t i = 0; i < N; ++i) {
    for (;;) {
      float x = a[i], y = b[i], z = cc[i], *o = w.out + i * 8;
      o[0] = fmaf(x, y, z);
      o[1] = sqrtf(fabsf(x));
      o[2] = fabsf(y);
      o[3] = fminf(x, y);
      o[4] = fmaxf(x, y);
      o[5] = floorf(x);
      o[6] = ceilf(y);
      o[7] = fminf(fmaxf(z, -1.0f), 1.0f); /* clamp as OpenCL defines it */
      if (!kt_subnormal_f(o[0])) break;
      cc[i] = 2.0f;
    }
  }
  /* hand checks: fma rounds once: fma(1+2^-12, 1+2^-12, -1) = 2^-11 + 2^-24 = 0x1.0008p-11 exactly
   * (the separately rounded product 1 + 2^-11 would lose the 2^-24) */
  assert_true(fmaf(1.000244140625f, 1.000244140625f, -1.0f) == 0x1.0008p-11f);
  assert_true(fminf(NAN, 2.0f) == 2.0f && fmaxf(-1.0f, NAN) == -1.0f);
  kt_case c = {.file = "builtins_math",
               .kernel = "fmath",
               .args = {KT_BUF_IN(NULL, sizeof w.out), KT_BUF_IN(a, sizeof a), KT_BUF_IN(b, sizeof b),
                        KT_BUF_IN(cc, sizeof cc)},
               .range = {1, {N}, {0}, {0}},
               .check = kt_check_fmath,
               .user = &w};
  kt_run_case(&c);
}

typedef struct kt_dmath_ctx {
  double out[KT_NF * 2 * 7];
} kt_dmath_ctx;
static void kt_check_dmath(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_F64, KT_NF * 2 * 7); }

static void test_dmath(void **state) {
  (void)state;
  enum { N = KT_NF * 2 };
  double a[N], b[N], cc[N];
  kt_seed(0xB002);
  for (size_t i = 0; i < N; ++i) {
    a[i] = i < KT_NF ? kt_dspecial[i] : kt_rand_double(-30, 30);
    b[i] = i < KT_NF ? kt_dspecial[(i * 7 + 5) % KT_NF] : kt_rand_double(-30, 30);
    cc[i] = i % 4 == 0 ? kt_dspecial[(i * 3) % 9] : kt_rand_double(-3, 3);
    if (a[i] == 0.0 && b[i] == 0.0) b[i] = 0.5;
  }
  static kt_dmath_ctx w;
  for (size_t i = 0; i < N; ++i) {
    for (;;) {
      double x = a[i], y = b[i], z = cc[i], *o = w.out + i * 7;
      o[0] = fma(x, y, z);
      o[1] = sqrt(fabs(x));
      o[2] = fmin(x, y);
      o[3] = fmax(x, y);
      o[4] = floor(x);
      o[5] = ceil(y);
      o[6] = fmin(fmax(z, -2.0), 0.5);
      if (!kt_subnormal_d(o[0])) break;
      cc[i] = 2.0;
    }
  }
  kt_case c = {.file = "builtins_math",
               .kernel = "dmath",
               .args = {KT_BUF_IN(NULL, sizeof w.out), KT_BUF_IN(a, sizeof a), KT_BUF_IN(b, sizeof b),
                        KT_BUF_IN(cc, sizeof cc)},
               .range = {1, {N}, {0}, {0}},
               .check = kt_check_dmath,
               .user = &w};
  kt_run_case(&c);
}

static void kt_check_fmath4(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_F32, KT_NF * 2 * 4); }

static void test_fmath4(void **state) {
  (void)state;
  enum { N = KT_NF * 2 }; /* floats: N / 4 float4 per input */
  float a[N], b[N], cc[N];
  kt_math_inputs_f(a, b, cc, N, 0xB003);
  static float want[N * 4]; /* out[v*4 + j] is a float4: element (v*4 + j)*4 + k */
  for (size_t v = 0; v < N / 4; ++v)
    for (size_t k = 0; k < 4; ++k) {
      size_t i = v * 4 + k;
      for (;;) {
        float x = a[i], y = b[i], z = cc[i];
        float m = fminf(x, y);
        if (m == 0.0f && z == 0.0f) {
          cc[i] = 0.25f;
          continue;
        }
        want[(v * 4 + 0) * 4 + k] = fmaf(x, y, z);
        want[(v * 4 + 1) * 4 + k] = sqrtf(fabsf(y));
        want[(v * 4 + 2) * 4 + k] = fmaxf(m, z);
        want[(v * 4 + 3) * 4 + k] = floorf(z) + ceilf(x);
        if (!kt_subnormal_f(want[(v * 4 + 0) * 4 + k])) break;
        cc[i] = 2.0f;
      }
    }
  kt_case c = {.file = "builtins_math",
               .kernel = "fmath4",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(a, sizeof a), KT_BUF_IN(b, sizeof b),
                        KT_BUF_IN(cc, sizeof cc)},
               .range = {1, {N / 4}, {0}, {0}},
               .check = kt_check_fmath4,
               .user = want};
  kt_run_case(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    KT_TEST(test_farith),         KT_TEST(test_fsum_seq), KT_TEST(test_fcmp),  KT_TEST(test_fcmp4),
    KT_TEST(test_fcmp_branch),    KT_TEST(test_f2i),      KT_TEST(test_i2f),   KT_TEST(test_d2x),
    KT_TEST(test_conv_vec_float), KT_TEST(test_darith),   KT_TEST(test_dcmp2), KT_TEST(test_fmath),
    KT_TEST(test_dmath),          KT_TEST(test_fmath4),
  };
  return cmocka_run_group_tests_name("kernels_float", tests, NULL, NULL);
}
