/*
 * test_kernels_cf.c — control flow: cf_if.cl, cf_switch.cl, cf_loops.cl, cf_divergent.cl,
 * priv_array.cl, expect_assume.cl. The references restate the kernels' OpenCL C logic in plain C (same language
 * semantics for everything used), with hand-derived spot values asserted first so that a
 * reference mistake shows up as a reference failure.
 */
#include "kernel_harness.h"

/* ---- cf_if.cl ------------------------------------------------------------------------------- */
static int kt_classify(int x) {
  if (x < -100) return 0;
  if (x < -10) return 1;
  if (x < 0) return 2;
  if (x == 0) return 3;
  if (x % 2 != 0) return x > 1000 ? 4 : 5;
  if (x % 3 == 0) return 6;
  if (x % 5 == 0) return 7;
  return 8;
}

static void kt_check_if_nest(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I32, 40 * 4); }

static void test_if_nest(void **state) {
  (void)state;
  static const int32_t in[40] = {-500, -101, -100, -50, -11, -10, -5,   0,    1,  7,    8,    9,   10, 12,
                                 15,   20,   21,   25,  30,  35,  49,   50,   51, 1001, 1003, 999, 60, 90,
                                 -51,  2,    4,    6,   14,  22,  1000, 1002, -1, 3,    11,   100};
  int32_t want[40 * 4];
  for (size_t i = 0; i < 40; ++i) {
    int x = in[i];
    int evals = 0, r = 0;
    /* x > 0 && x < 50: the right side is evaluated when x > 0 */
    if (x > 0) {
      ++evals;
      if (x < 50) r |= 1;
    }
    /* x < -50 || x even: the right side is evaluated when x >= -50 */
    if (x < -50) r |= 2;
    else {
      ++evals;
      if (x % 2 == 0) r |= 2;
    }
    /* x == 7 || x == 8 || x == 9, each later test evaluated only when the earlier ones fail */
    if (x == 7) r |= 4;
    else {
      ++evals;
      if (x == 8) r |= 4;
      else {
        ++evals;
        if (x == 9) r |= 4;
      }
    }
    int t;
    if (x > 10) t = x > 20 ? 3 : 2;
    else if (x < -10) t = -2;
    else t = x == 0 ? 0 : 1;
    want[i * 4 + 0] = kt_classify(x);
    want[i * 4 + 1] = r;
    want[i * 4 + 2] = t;
    want[i * 4 + 3] = evals;
  }
  /* hand checks: 7 -> classify 5 (odd, <= 1000), r = 1|4, evals = 1 (x>0) + 1 (x%2) + 0 */
  assert_true(want[9 * 4 + 0] == 5 && want[9 * 4 + 1] == 5 && want[9 * 4 + 3] == 2);
  /* 30 -> 6 (even, multiple of 3); 50 -> 7; 14 -> 8; -500 -> 0, r = 2, evals 0 + 0 + 2 */
  assert_true(want[18 * 4] == 6 && want[21 * 4] == 7 && want[32 * 4] == 8);
  assert_true(want[0] == 0 && want[1] == 2 && want[3] == 2);
  kt_case c = {.file = "cf_if",
               .kernel = "if_nest",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(in, sizeof in)},
               .range = {1, {40}, {8}, {0}},
               .check = kt_check_if_nest,
               .user = want};
  kt_run_case(&c);
}

/* ---- cf_switch.cl --------------------------------------------------------------------------- */
static void test_switch_int(void **state) {
  (void)state;
  static const int32_t in[20] = {0,   1,      2,         3,         4,  -7, 1000000, 42, -1,      5,
                                 100, 999999, INT32_MAX, INT32_MIN, 41, 43, -2,      7,  1000001, 6};
  int32_t w[1 + 20];
  w[0] = 20;
  for (size_t i = 0; i < 20; ++i) {
    /* derived by hand from the switch in cf_switch.cl:
     * 0: +1, falls into 1: +10 -> 11          1: 10
     * 2: +100, not 3 so +1000, falls into default +5 and into -7 +20000 -> 21105
     * 3: +100 then break -> 100               -7: 20000
     * 1000000: -1                             42: the loop adds 7 twice -> 14
     * anything else: default 5 + 20000 -> 20005 */
    int x = in[i], r;
    if (x == 0) r = 11;
    else if (x == 1) r = 10;
    else if (x == 2) r = 21105;
    else if (x == 3) r = 100;
    else if (x == -7) r = 20000;
    else if (x == 1000000) r = -1;
    else if (x == 42) r = 14;
    else r = 20005;
    w[1 + i] = r;
  }
  kt_case c = {.file = "cf_switch",
               .kernel = "switch_int",
               .args = {KT_BUF_IN(NULL, 20 * 4), KT_BUF_IN(in, sizeof in)},
               .range = {1, {20}, {0}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

static void test_switch_char(void **state) {
  (void)state;
  static const int8_t in[12] = {'a', 'z', -128, 127, 0, 'b', 'y', -127, 126, 'A', 'Z', -1};
  int32_t w[1 + 12];
  w[0] = 12;
  for (size_t i = 0; i < 12; ++i) {
    int8_t x = in[i];
    w[1 + i] = x == 'a' ? 1 : x == 'z' ? 26 : x == -128 ? -128 : x == 127 ? 127 : 0;
  }
  kt_case c = {.file = "cf_switch",
               .kernel = "switch_char",
               .args = {KT_BUF_IN(NULL, 12 * 4), KT_BUF_IN(in, sizeof in)},
               .range = {1, {12}, {0}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

static void kt_check_switch_long(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I64, 12); }

static void test_switch_long(void **state) {
  (void)state;
  static const int64_t in[12] = {
    0x100000000ll, -1,           INT64_MAX,     5,         0x123456789all,       0,
    0x100000001ll, 0xFFFFFFFFll, 0x300000000ll, INT64_MIN, 0x7FFFFFFFFFFFFFFEll, -0x100000000ll};
  int64_t want[12];
  for (size_t i = 0; i < 12; ++i) {
    int64_t x = in[i];
    if (x == 0x100000000ll) want[i] = 1;
    else if (x == -1) want[i] = 2;
    else if (x == INT64_MAX) want[i] = 3;
    else if (x == 5 || x == 0x123456789all) want[i] = 5; /* 5 falls through into the next case */
    else want[i] = x >> 32;                              /* arithmetic shift (gcc, as OpenCL) */
  }
  kt_case c = {.file = "cf_switch",
               .kernel = "switch_long",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(in, sizeof in)},
               .range = {1, {12}, {0}, {0}},
               .check = kt_check_switch_long,
               .user = want};
  kt_run_case(&c);
}

/* ---- cf_loops.cl ---------------------------------------------------------------------------- */
static void test_collatz(void **state) {
  (void)state;
  uint32_t in[32];
  int32_t w[1 + 32];
  static const uint32_t fixed[] = {1, 2, 3, 7, 27, 97, 871, 6171};
  kt_seed(0x9100);
  for (size_t i = 0; i < 32; ++i) in[i] = i < KT_COUNT(fixed) ? fixed[i] : (uint32_t)kt_rand_range(1, 10000);
  w[0] = 32;
  for (size_t i = 0; i < 32; ++i) {
    uint64_t x = in[i]; /* wider than needed: no intermediate exceeds 32 bits for these inputs */
    int steps = 0;
    while (x != 1) {
      x = (x & 1) ? 3 * x + 1 : x / 2;
      ++steps;
    }
    w[1 + i] = steps;
  }
  assert_int_equal(w[1 + 4], 111); /* 27 takes 111 steps (well known) */
  assert_int_equal(w[1 + 0], 0);
  kt_case c = {.file = "cf_loops",
               .kernel = "collatz",
               .args = {KT_BUF_IN(NULL, 32 * 4), KT_BUF_IN(in, sizeof in)},
               .range = {1, {32}, {8}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

static void test_loops(void **state) {
  (void)state;
  int32_t in[32];
  int32_t w[1 + 32 * 4];
  for (size_t i = 0; i < 32; ++i) in[i] = (int32_t)((i * 11) % 32);
  w[0] = 32 * 4;
  for (size_t i = 0; i < 32; ++i) {
    int n = in[i];
    int s = 0;
    for (int k = 0; k < n; ++k) {
      if (k % 3 == 0) continue;
      if (k * k > 200) break;
      s += k;
    }
    int d = 0, m = n;
    do {
      d += m & 3;
      m -= 5;
    } while (m > 0);
    int cnt = 0;
    for (int a = 0; a < n; ++a) {
      if (a == 4) continue;
      for (int b = 0; b <= a && b < n; ++b) {
        if ((a + b) % 4 == 3) continue;
        cnt += a ^ b;
      }
    }
    int wc = 0, j = n;
    for (;;) {
      j = j * 7 % 13;
      ++wc;
      if (j == 1 || wc >= 20) break;
    }
    w[1 + i * 4 + 0] = s;
    w[1 + i * 4 + 1] = d;
    w[1 + i * 4 + 2] = cnt;
    w[1 + i * 4 + 3] = wc;
  }
  /* hand check for n = 11 (in[1]): s = 1+2+4+5+7+8+10 = 37 (no k*k > 200 below 11);
   * d: m = 11,6,1 -> 3+2+1 = 6; w: j = 77%13=12, 84%13=6, 42%13=3, 21%13=8, 56%13=4, 28%13=2,
   * 14%13=1 -> 7 */
  assert_true(in[1] == 11 && w[1 + 4] == 37 && w[1 + 5] == 6 && w[1 + 7] == 7);
  kt_case c = {.file = "cf_loops",
               .kernel = "loops",
               .args = {KT_BUF_IN(NULL, 32 * 4 * 4), KT_BUF_IN(in, sizeof in)},
               .range = {1, {32}, {0}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

static void test_early_return(void **state) {
  (void)state;
  static const int32_t in[16] = {0x2a,   0x2a00, 0x2a2a00, 0x2a000000,  0x12345678, -4,       0x2b, 7,
                                 0x2a01, 100,    0,        -0x2a000000, 0x00002a2a, 0x2a0000, 1,    -2};
  int32_t init[16], w[1 + 16];
  for (size_t i = 0; i < 16; ++i) init[i] = -999; /* untouched entries keep this */
  w[0] = 16;
  for (size_t i = 0; i < 16; ++i) {
    int32_t x = in[i];
    int32_t r = -999;
    if (!(x & 1)) {
      r = x / 2;
      for (int b = 0; b < 4; ++b)
        if ((((uint32_t)x >> (8 * b)) & 0xff) == 0x2a) {
          r = -b;
          break;
        }
    }
    w[1 + i] = r;
  }
  /* hand checks: 0x2a00 -> byte 1 -> -1; 0x2a000000 -> -3; 0x2b odd -> untouched; -4 -> -2 */
  assert_true(w[2] == -1 && w[4] == -3 && w[7] == -999 && w[6] == -2);
  /* -0x2a000000 = 0xd6000000: no 0x2a byte -> x / 2 */
  assert_true(w[12] == -0x15000000);
  kt_case c = {.file = "cf_loops",
               .kernel = "early_return",
               .args = {KT_BUF_IN(init, sizeof init), KT_BUF_IN(in, sizeof in)},
               .range = {1, {16}, {0}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

/* ---- cf_divergent.cl ------------------------------------------------------------------------ */
static void test_diverge_reconverge(void **state) {
  (void)state;
  enum { G = 48, L = 16 };
  int32_t in[G], v[G], w[1 + G];
  kt_seed(0x9200);
  for (size_t i = 0; i < G; ++i) in[i] = (int32_t)kt_rand_range(-5000, 5000);
  for (size_t i = 0; i < G; ++i) {
    int x = in[i], val;
    if ((i % L) % 2 == 0) {
      val = 0;
      for (int k = 0; k < x % 17; ++k) val = (val << 1) ^ k;
    } else if (x > 1000) {
      val = x;
      while (val > 100) val /= 3;
    } else {
      val = -x;
    }
    v[i] = val;
  }
  w[0] = G;
  for (size_t i = 0; i < G; ++i) {
    size_t base = i - i % L, l = i % L;
    w[1 + i] = v[base + (l + L - 1) % L] - v[base + (l + 1) % L] + v[i];
  }
  kt_case c = {.file = "cf_divergent",
               .kernel = "diverge_reconverge",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(in, sizeof in)},
               .range = {1, {G}, {L}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

/* ---- priv_array.cl -------------------------------------------------------------------------- */
static int kt_cmp_int(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

static void test_priv_sort(void **state) {
  (void)state;
  enum { G = 6 };
  int32_t in[G * 16], w[1 + G * 16];
  kt_seed(0x9300);
  for (size_t i = 0; i < G * 16; ++i) in[i] = (int32_t)kt_rand_range(-50, 50); /* with duplicates */
  for (size_t k = 0; k < 16; ++k) in[k] = (int32_t)(16 - k);                   /* reversed */
  for (size_t k = 0; k < 16; ++k) in[16 + k] = (int32_t)k;                     /* sorted */
  w[0] = G * 16;
  memcpy(w + 1, in, sizeof in);
  for (size_t g = 0; g < G; ++g) qsort(w + 1 + g * 16, 16, sizeof(int32_t), kt_cmp_int);
  kt_case c = {.file = "priv_array",
               .kernel = "priv_sort",
               .args = {KT_BUF_IN(NULL, sizeof in), KT_BUF_IN(in, sizeof in)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

static void test_priv_hist(void **state) {
  (void)state;
  enum { G = 5 };
  uint32_t in[G * 32];
  int32_t w[1 + G * 9];
  kt_seed(0x9400);
  for (size_t i = 0; i < G * 32; ++i) in[i] = (uint32_t)kt_rand();
  for (size_t k = 0; k < 32; ++k) in[k] = (uint32_t)(k % 4 == 0 ? 8 * k + 6 : k); /* bin 6 wins */
  w[0] = G * 9;
  for (size_t g = 0; g < G; ++g) {
    int h[8] = {0};
    for (size_t k = 0; k < 32; ++k) h[in[g * 32 + k] % 8]++;
    int best = 0;
    for (int k = 1; k < 8; ++k)
      if (h[k] > h[best]) best = k;
    for (int k = 0; k < 8; ++k) w[1 + g * 9 + k] = h[k];
    w[1 + g * 9 + 8] = best;
  }
  assert_int_equal(w[1 + 8], 6);
  kt_case c = {.file = "priv_array",
               .kernel = "priv_hist",
               .args = {KT_BUF_IN(NULL, G * 9 * 4), KT_BUF_IN(in, sizeof in)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

static void test_priv_matmul(void **state) {
  (void)state;
  enum { G = 4 };
  int32_t in[G * 32], w[1 + G * 16];
  kt_seed(0x9500);
  for (size_t i = 0; i < G * 32; ++i) in[i] = (int32_t)kt_rand_range(-100, 100);
  w[0] = G * 16;
  for (size_t g = 0; g < G; ++g) {
    const int32_t *A = in + g * 32, *B = in + g * 32 + 16;
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) {
        int s = 0;
        for (int k = 0; k < 4; ++k) s += A[r * 4 + k] * B[k * 4 + c];
        w[1 + g * 16 + c * 4 + r] = s; /* stored transposed */
      }
  }
  kt_case c = {.file = "priv_array",
               .kernel = "priv_matmul",
               .args = {KT_BUF_IN(NULL, G * 16 * 4), KT_BUF_IN(in, sizeof in)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

/* ---- expect_assume.cl ---------------------------------------------------------------------- */
static void kt_check_expect(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I64, 12); }

/* __builtin_expect(v, e) is v (OpExpectKHR at -O2 here): out[g] = 3x, plus 1000 when x > 5. */
static void test_expect_assume(void **state) {
  (void)state;
  static const int64_t in[12] = {0, 1, 2, 5, 6, 7, 10, 3, 4, 100, 0x100000000ll, 9};
  static const int64_t want[12] = {0, 3, 6, 15, 1018, 1021, 1030, 9, 12, 1300, 0x300000000ll + 1000, 1027};
  kt_case c = {.file = "expect_assume",
               .kernel = "expect_values",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(in, sizeof in)},
               .range = {1, {12}, {0}, {0}},
               .check = kt_check_expect,
               .user = (void *)want};
  kt_run_case(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    KT_TEST(test_if_nest),   KT_TEST(test_switch_int), KT_TEST(test_switch_char),  KT_TEST(test_switch_long),
    KT_TEST(test_collatz),   KT_TEST(test_loops),      KT_TEST(test_early_return), KT_TEST(test_diverge_reconverge),
    KT_TEST(test_priv_sort), KT_TEST(test_priv_hist),  KT_TEST(test_priv_matmul),  KT_TEST(test_expect_assume),
  };
  return cmocka_run_group_tests_name("kernels_cf", tests, NULL, NULL);
}
