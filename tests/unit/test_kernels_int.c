/*
 * test_kernels_int.c — integer kernels: int_arith.cl, int_divrem.cl, int_shift.cl, int_convert.cl,
 * int_minmax.cl.
 * References are plain C on <stdint.h> types; C and OpenCL C agree on every operation used here
 * (the inputs avoid the undefined cases: signed overflow, division by zero, MIN / -1 for int and
 * long, negative left shifts). Shift counts are masked as OpenCL C 2.0 s6.3.j specifies, written
 * out explicitly in the reference.
 */
#include "kernel_harness.h"


/* ---- int_arith.cl --------------------------------------------------------------------------- */
typedef struct kt_arith_ctx {
  const void *expected;
  kt_type t;
} kt_arith_ctx;
static void kt_check_arith(const kt_run *r, void *u) {
  const kt_arith_ctx *c = u;
  kt_expect_buf(r, 0, c->expected, c->t, KT_NI * 10);
}

#define KT_ARITH_TEST(T, CT, UT, WT, KT)                                                                 \
  static void test_arith_##T(void **state) {                                                             \
    (void)state;                                                                                         \
    CT a[KT_NI], b[KT_NI], want[KT_NI * 10];                                                             \
    kt_int_inputs(a, b, sizeof(CT), 0xA000 + sizeof(CT));                                                \
    for (size_t i = 0; i < KT_NI; ++i) {                                                                 \
      CT x = a[i], y = b[i];                                                                             \
      CT *o = want + i * 10;                                                                             \
      o[0] = (CT)((UT)x + (UT)y);                                                                        \
      o[1] = (CT)((UT)x - (UT)y);                                                                        \
      o[2] = (CT)((WT)(UT)x * (WT)(UT)y);                                                                \
      o[3] = (CT)(x & y);                                                                                \
      o[4] = (CT)(x | y);                                                                                \
      o[5] = (CT)(x ^ y);                                                                                \
      o[6] = (CT)~x;                                                                                     \
      o[7] = (CT)(-(UT)x);                                                                               \
      o[8] = (CT)((x < y) + 2 * (x > y) + 4 * (x == y) + 8 * (x <= y) + 16 * (x != y));                  \
      o[9] = (CT)((UT)x + (UT)1);                                                                        \
    }                                                                                                    \
    kt_arith_ctx ctx = {want, KT};                                                                       \
    kt_case c = {.file = "int_arith",                                                                    \
                 .kernel = "arith_" #T,                                                                  \
                 .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(a, sizeof a), KT_BUF_IN(b, sizeof b)}, \
                 .range = {1, {KT_NI}, {8}, {0}},                                                        \
                 .check = kt_check_arith,                                                                \
                 .user = &ctx};                                                                          \
    kt_run_case(&c);                                                                                     \
  }
KT_ARITH_TEST(char, int8_t, uint8_t, uint32_t, KT_I8)
KT_ARITH_TEST(uchar, uint8_t, uint8_t, uint32_t, KT_U8)
KT_ARITH_TEST(short, int16_t, uint16_t, uint32_t, KT_I16)
KT_ARITH_TEST(ushort, uint16_t, uint16_t, uint32_t, KT_U16)
KT_ARITH_TEST(int, int32_t, uint32_t, uint32_t, KT_I32)
KT_ARITH_TEST(uint, uint32_t, uint32_t, uint32_t, KT_U32)
KT_ARITH_TEST(long, int64_t, uint64_t, uint64_t, KT_I64)
KT_ARITH_TEST(ulong, uint64_t, uint64_t, uint64_t, KT_U64)

/* Hand-derived spot checks of the reference itself (so a wrong reference cannot hide a bug). */
static void test_arith_reference_spot(void **state) {
  (void)state;
  int8_t x = 127, y = 1;
  assert_int_equal((int8_t)((uint8_t)x + (uint8_t)y), -128); /* 0x7f + 1 = 0x80 */
  uint16_t p = 65535, q = 65535;
  assert_int_equal((uint16_t)((uint32_t)p * (uint32_t)q), 1); /* (2^16-1)^2 mod 2^16 = 1 */
  int32_t m = INT32_MIN;
  assert_int_equal((int32_t)(-(uint32_t)m), INT32_MIN); /* -MIN wraps to MIN */
  assert_true((uint64_t)((uint64_t)UINT64_MAX + 1) == 0);
}

/* ---- int_divrem.cl -------------------------------------------------------------------------- */
typedef struct kt_divrem_ctx {
  const void *q, *r;
  kt_type t;
  size_t n;
} kt_divrem_ctx;
static void kt_check_divrem(const kt_run *r, void *u) {
  const kt_divrem_ctx *c = u;
  kt_expect_buf(r, 0, c->q, c->t, c->n);
  kt_expect_buf(r, 1, c->r, c->t, c->n);
}

/* Inputs: patterns, then fixed sign cases at the start; b == 0 becomes 3; MIN / -1 is kept for
 * char and short (promoted to int: defined) and replaced (b = 7) for int and long. */
#define KT_DIVREM_INPUTS(CT, a, b, n, is_signed, promoted)                        \
  do {                                                                            \
    kt_int_inputs(a, b, sizeof(CT), 0xD000 + sizeof(CT));                         \
    const CT smin = (CT)((uint64_t)1 << (sizeof(CT) * 8 - 1));                    \
    if (is_signed) {                                                              \
      a[0] = smin;                                                                \
      b[0] = (CT)-1;                                                              \
      a[1] = (CT)-7;                                                              \
      b[1] = 2;                                                                   \
      a[2] = 7;                                                                   \
      b[2] = (CT)-2;                                                              \
      a[3] = (CT)-7;                                                              \
      b[3] = (CT)-2;                                                              \
      a[4] = smin;                                                                \
      b[4] = (CT)(smin + 1);                                                      \
    }                                                                             \
    for (size_t i = 0; i < (n); ++i) {                                            \
      if (b[i] == 0) b[i] = 3;                                                    \
      if ((is_signed) && !(promoted) && a[i] == smin && b[i] == (CT)-1) b[i] = 7; \
    }                                                                             \
  } while (0)

#define KT_DIVREM_TEST(T, CT, KT, is_signed, promoted)                                                  \
  static void test_divrem_##T(void **state) {                                                           \
    (void)state;                                                                                        \
    CT a[KT_NI], b[KT_NI], q[KT_NI], r[KT_NI];                                                          \
    KT_DIVREM_INPUTS(CT, a, b, KT_NI, is_signed, promoted);                                             \
    for (size_t i = 0; i < KT_NI; ++i) {                                                                \
      q[i] = (CT)(a[i] / b[i]);                                                                         \
      r[i] = (CT)(a[i] % b[i]);                                                                         \
    }                                                                                                   \
    kt_divrem_ctx ctx = {q, r, KT, KT_NI};                                                              \
    kt_case c = {.file = "int_divrem",                                                                  \
                 .kernel = "divrem_" #T,                                                                \
                 .args = {KT_BUF_IN(NULL, sizeof q), KT_BUF_IN(NULL, sizeof r), KT_BUF_IN(a, sizeof a), \
                          KT_BUF_IN(b, sizeof b)},                                                      \
                 .range = {1, {KT_NI}, {0}, {0}},                                                       \
                 .check = kt_check_divrem,                                                              \
                 .user = &ctx};                                                                         \
    kt_run_case(&c);                                                                                    \
  }
KT_DIVREM_TEST(char, int8_t, KT_I8, 1, 1)
KT_DIVREM_TEST(uchar, uint8_t, KT_U8, 0, 1)
KT_DIVREM_TEST(short, int16_t, KT_I16, 1, 1)
KT_DIVREM_TEST(ushort, uint16_t, KT_U16, 0, 1)
KT_DIVREM_TEST(int, int32_t, KT_I32, 1, 0)
KT_DIVREM_TEST(uint, uint32_t, KT_U32, 0, 0)
KT_DIVREM_TEST(long, int64_t, KT_I64, 1, 0)
KT_DIVREM_TEST(ulong, uint64_t, KT_U64, 0, 0)

/* Vectors: 24 ints as 6 int4, 24 ushorts as 3 ushort8 (component-wise). */
static void test_divrem_int4(void **state) {
  (void)state;
  int32_t a[KT_NI], b[KT_NI], q[KT_NI], r[KT_NI];
  KT_DIVREM_INPUTS(int32_t, a, b, KT_NI, 1, 0);
  for (size_t i = 0; i < KT_NI; ++i) {
    q[i] = a[i] / b[i];
    r[i] = a[i] % b[i];
  }
  /* hand check of the C99 rules: -7/2 = -3 rem -1; 7/-2 = -3 rem 1; -7/-2 = 3 rem -1 */
  assert_true(q[1] == -3 && r[1] == -1 && q[2] == -3 && r[2] == 1 && q[3] == 3 && r[3] == -1);
  kt_divrem_ctx ctx = {q, r, KT_I32, KT_NI};
  kt_case c = {.file = "int_divrem",
               .kernel = "divrem_int4",
               .args = {KT_BUF_IN(NULL, sizeof q), KT_BUF_IN(NULL, sizeof r), KT_BUF_IN(a, sizeof a),
                        KT_BUF_IN(b, sizeof b)},
               .range = {1, {KT_NI / 4}, {0}, {0}},
               .check = kt_check_divrem,
               .user = &ctx};
  kt_run_case(&c);
}

static void test_divrem_ushort8(void **state) {
  (void)state;
  uint16_t a[KT_NI], b[KT_NI], q[KT_NI], r[KT_NI];
  KT_DIVREM_INPUTS(uint16_t, a, b, KT_NI, 0, 1);
  for (size_t i = 0; i < KT_NI; ++i) {
    q[i] = (uint16_t)(a[i] / b[i]);
    r[i] = (uint16_t)(a[i] % b[i]);
  }
  kt_divrem_ctx ctx = {q, r, KT_U16, KT_NI};
  kt_case c = {.file = "int_divrem",
               .kernel = "divrem_ushort8",
               .args = {KT_BUF_IN(NULL, sizeof q), KT_BUF_IN(NULL, sizeof r), KT_BUF_IN(a, sizeof a),
                        KT_BUF_IN(b, sizeof b)},
               .range = {1, {KT_NI / 8}, {0}, {0}},
               .check = kt_check_divrem,
               .user = &ctx};
  kt_run_case(&c);
}

/* ---- int_shift.cl --------------------------------------------------------------------------- */
/* Shift counts: a spread of small, too-large and negative values (as bit patterns). */
static void kt_shift_counts(void *b, unsigned bytes) {
  for (size_t i = 0; i < KT_NI; ++i) {
    int64_t v = (int64_t)i * 3 - 5; /* -5 .. 64 */
    if (i == 22) v = 200;
    if (i == 23) v = -64;
    memcpy((char *)b + i * bytes, &v, bytes);
  }
}

/* Argument 0 holds n elements of type t, compared with `expected` (the shift and min/max tests). */
typedef struct kt_buf_ctx {
  const void *expected;
  kt_type t;
  size_t n;
} kt_buf_ctx;
static void kt_check_buf(const kt_run *r, void *u) {
  const kt_buf_ctx *c = u;
  kt_expect_buf(r, 0, c->expected, c->t, c->n);
}

/* shr: promoted left operand PT (int for char/short, else the type itself), count masked to the
 * bits of PT. */
#define KT_SHR_TEST(T, CT, PT, MASK, KT)                                                                 \
  static void test_shr_##T(void **state) {                                                               \
    (void)state;                                                                                         \
    CT a[KT_NI], b[KT_NI], want[KT_NI], dummy[KT_NI];                                                    \
    kt_int_inputs(a, dummy, sizeof(CT), 0x5000 + sizeof(CT));                                            \
    kt_shift_counts(b, sizeof(CT));                                                                      \
    for (size_t i = 0; i < KT_NI; ++i) want[i] = (CT)((PT)a[i] >> ((unsigned)(PT)b[i] & (MASK)));        \
    kt_buf_ctx ctx = {want, KT, KT_NI};                                                                  \
    kt_case c = {.file = "int_shift",                                                                    \
                 .kernel = "shr_" #T,                                                                    \
                 .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(a, sizeof a), KT_BUF_IN(b, sizeof b)}, \
                 .range = {1, {KT_NI}, {0}, {0}},                                                        \
                 .check = kt_check_buf,                                                                  \
                 .user = &ctx};                                                                          \
    kt_run_case(&c);                                                                                     \
  }
KT_SHR_TEST(char, int8_t, int32_t, 31, KT_I8)
KT_SHR_TEST(uchar, uint8_t, int32_t, 31, KT_U8)
KT_SHR_TEST(short, int16_t, int32_t, 31, KT_I16)
KT_SHR_TEST(ushort, uint16_t, int32_t, 31, KT_U16)
KT_SHR_TEST(int, int32_t, int32_t, 31, KT_I32)
KT_SHR_TEST(uint, uint32_t, uint32_t, 31, KT_U32)
KT_SHR_TEST(long, int64_t, int64_t, 63, KT_I64)
KT_SHR_TEST(ulong, uint64_t, uint64_t, 63, KT_U64)

/* shl: the kernel computes (T)((PT)a << b) with PT = uint (ulong for ulong) */
#define KT_SHL_TEST(T, CT, PT, MASK, KT)                                                                 \
  static void test_shl_##T(void **state) {                                                               \
    (void)state;                                                                                         \
    CT a[KT_NI], b[KT_NI], want[KT_NI], dummy[KT_NI];                                                    \
    kt_int_inputs(a, dummy, sizeof(CT), 0x5100 + sizeof(CT));                                            \
    kt_shift_counts(b, sizeof(CT));                                                                      \
    for (size_t i = 0; i < KT_NI; ++i) want[i] = (CT)((PT)a[i] << ((PT)b[i] & (MASK)));                  \
    kt_buf_ctx ctx = {want, KT, KT_NI};                                                                  \
    kt_case c = {.file = "int_shift",                                                                    \
                 .kernel = "shl_" #T,                                                                    \
                 .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(a, sizeof a), KT_BUF_IN(b, sizeof b)}, \
                 .range = {1, {KT_NI}, {0}, {0}},                                                        \
                 .check = kt_check_buf,                                                                  \
                 .user = &ctx};                                                                          \
    kt_run_case(&c);                                                                                     \
  }
KT_SHL_TEST(uchar, uint8_t, uint32_t, 31, KT_U8)
KT_SHL_TEST(ushort, uint16_t, uint32_t, 31, KT_U16)
KT_SHL_TEST(uint, uint32_t, uint32_t, 31, KT_U32)
KT_SHL_TEST(ulong, uint64_t, uint64_t, 63, KT_U64)

static void test_shift_reference_spot(void **state) {
  (void)state;
  /* char -128 >> 9: promoted to int -128, count 9 -> -1 (arithmetic) */
  int8_t c = -128, n = 9;
  assert_int_equal((int8_t)((int32_t)c >> ((unsigned)(int32_t)n & 31)), -1);
  /* uchar 1 << 33: (uint)1 << (33 & 31) = 2 */
  uint8_t u = 1, k = 33;
  assert_int_equal((uint8_t)((uint32_t)u << ((uint32_t)k & 31)), 2);
  /* int 1 >> -1: count -1 & 31 = 31 -> 0; int -2 >> -1 -> -1 */
  assert_int_equal((int32_t)-2 >> ((unsigned)-1 & 31), -1);
}

typedef struct kt_shift2_ctx {
  const void *e0, *e1;
  kt_type t;
  size_t n;
} kt_shift2_ctx;
static void kt_check_shift2(const kt_run *r, void *u) {
  const kt_shift2_ctx *c = u;
  kt_expect_buf(r, 0, c->e0, c->t, c->n);
  kt_expect_buf(r, 1, c->e1, c->t, c->n);
}

static void test_shift_char4(void **state) {
  (void)state;
  int8_t a[KT_NI], b[KT_NI], shl[KT_NI], shr[KT_NI], dummy[KT_NI];
  kt_int_inputs(a, dummy, 1, 0x5200);
  kt_shift_counts(b, 1);
  for (size_t i = 0; i < KT_NI; ++i) {
    unsigned cnt = (uint8_t)b[i] & 7; /* char vector: no promotion, mask log2(8) bits */
    shl[i] = (int8_t)(uint8_t)((uint8_t)a[i] << cnt);
    shr[i] = (int8_t)(a[i] >> cnt);
  }
  kt_shift2_ctx ctx = {shl, shr, KT_I8, KT_NI};
  kt_case c = {.file = "int_shift",
               .kernel = "shift_char4",
               .args = {KT_BUF_IN(NULL, sizeof shl), KT_BUF_IN(NULL, sizeof shr), KT_BUF_IN(a, sizeof a),
                        KT_BUF_IN(b, sizeof b)},
               .range = {1, {KT_NI / 4}, {0}, {0}},
               .check = kt_check_shift2,
               .user = &ctx};
  kt_run_case(&c);
}

static void test_shift_long2(void **state) {
  (void)state;
  int64_t a[KT_NI], b[KT_NI], shl[KT_NI], shr[KT_NI], dummy[KT_NI];
  kt_int_inputs(a, dummy, 8, 0x5300);
  kt_shift_counts(b, 8);
  for (size_t i = 0; i < KT_NI; ++i) {
    unsigned cnt = (unsigned)((uint64_t)b[i] & 63);
    shl[i] = (int64_t)((uint64_t)a[i] << cnt);
    shr[i] = a[i] >> cnt;
  }
  kt_shift2_ctx ctx = {shl, shr, KT_I64, KT_NI};
  kt_case c = {.file = "int_shift",
               .kernel = "shift_long2",
               .args = {KT_BUF_IN(NULL, sizeof shl), KT_BUF_IN(NULL, sizeof shr), KT_BUF_IN(a, sizeof a),
                        KT_BUF_IN(b, sizeof b)},
               .range = {1, {KT_NI / 2}, {0}, {0}},
               .check = kt_check_shift2,
               .user = &ctx};
  kt_run_case(&c);
}

/* ---- int_convert.cl ------------------------------------------------------------------------- */
static void kt_check_conv_scalar(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I64, KT_NI * 12); }

static void test_conv_scalar(void **state) {
  (void)state;
  int64_t a[KT_NI], dummy[KT_NI], want[KT_NI * 12];
  kt_int_inputs(a, dummy, 8, 0xC000);
  a[14] = 500;
  a[15] = -5;
  a[16] = 0x12345678ABCD80FFll;
  a[17] = -2147483648ll; /* 0xFFFFFFFF80000000 */
  for (size_t i = 0; i < KT_NI; ++i) {
    int64_t x = a[i];
    int64_t *o = want + i * 12;
    o[0] = (int8_t)x;
    o[1] = (uint8_t)x;
    o[2] = (int16_t)x;
    o[3] = (uint16_t)x;
    o[4] = (int32_t)x;
    o[5] = (uint32_t)x;
    o[6] = (int64_t)(uint64_t)(int8_t)x;
    o[7] = (int64_t)(uint32_t)(int16_t)x;
    o[8] = (int64_t)(uint8_t)(int16_t)x;
    o[9] = (int)(x < 0) + (int)!x;
    o[10] = (x > 100 && x < 1000) || x == -5;
    o[11] = (int64_t)((uint64_t)(uint32_t)x >> 31);
  }
  /* hand check: 0x...80FF -> char -1, uchar 255, short -32513 (0x80ff), ushort 33023 */
  assert_true(want[16 * 12 + 0] == -1 && want[16 * 12 + 1] == 255 && want[16 * 12 + 2] == -32513 &&
              want[16 * 12 + 3] == 33023);
  kt_case c = {.file = "int_convert",
               .kernel = "conv_scalar",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(a, sizeof a)},
               .range = {1, {KT_NI}, {0}, {0}},
               .check = kt_check_conv_scalar,
               .user = want};
  kt_run_case(&c);
}

typedef struct kt_convv_ctx {
  uint8_t trunc[KT_NI];
  int32_t sext[KT_NI];
  int64_t zext[KT_NI];
  int32_t mixed[KT_NI * 2];
} kt_convv_ctx;
static void kt_check_conv_vector(const kt_run *r, void *u) {
  const kt_convv_ctx *c = u;
  kt_expect_buf(r, 0, c->trunc, KT_U8, KT_NI);
  kt_expect_buf(r, 1, c->sext, KT_I32, KT_NI);
  kt_expect_buf(r, 2, c->zext, KT_I64, KT_NI);
  kt_expect_buf(r, 3, c->mixed, KT_I32, KT_NI * 2);
}

/* ---- int_minmax.cl: min, max, clamp in divergent code ---------------------------------------- */
/* OpenCL C 6.15.3: max returns y if x < y, else x; min returns y if y < x, else x; clamp is
 * min(max(x, minval), maxval). The spec leaves minval > maxval undefined; spvi evaluates the same
 * expression there (builtins/bi_int.c), which the random inputs also check. */
#define MM_MAX(x, y) ((x) < (y) ? (y) : (x))
#define MM_MIN(x, y) ((y) < (x) ? (y) : (x))
#define MM_CLAMP(x, lo, hi) MM_MIN(MM_MAX(x, lo), hi)
enum { KT_MM_N = 96 }; /* work-items: whole warps at widths 1 and 32, a partial last one at 7 */
/* T: the OpenCL type, CT its C element type, KT the comparison type, C the components */
#define KT_MINMAX_TEST(T, CT, KT, C)                                                                     \
  static void test_minmax_##T(void **state) {                                                            \
    (void)state;                                                                                         \
    enum { N = KT_MM_N * (C) };                                                                          \
    CT a[N], b[N], c[N], want[3 * N];                                                                    \
    for (size_t i = 0; i < N; ++i) {                                                                     \
      a[i] = (CT)kt_int_pattern(8 * sizeof(CT), i);                                                      \
      b[i] = (CT)kt_int_pattern(8 * sizeof(CT), (i * 7 + 3) % N);                                        \
      c[i] = (CT)kt_int_pattern(8 * sizeof(CT), (i * 11 + 5) % N);                                       \
    }                                                                                                    \
    for (size_t wi = 0; wi < KT_MM_N; ++wi)                                                              \
      for (size_t j = 0; j < (C); ++j) {                                                                 \
        const size_t e = wi * (C) + j;                                                                   \
        const CT x = a[e], y = b[e], z = c[e];                                                           \
        CT r0 = x, r1 = y, r2 = z;                                                                       \
        if (wi % 5 == 0) {                                                                               \
          r0 = MM_MAX(x, y);                                                                             \
          r1 = MM_MIN(x, y);                                                                             \
          r2 = MM_CLAMP(x, y, z);                                                                        \
        } else if (wi % 4 != 0) {                                                                        \
          r0 = MM_MIN(x, z);                                                                             \
          r1 = MM_MAX(y, z);                                                                             \
          r2 = MM_CLAMP(y, z, x);                                                                        \
        }                                                                                                \
        want[3 * wi * (C) + j] = r0;                                                                     \
        want[(3 * wi + 1) * (C) + j] = r1;                                                               \
        want[(3 * wi + 2) * (C) + j] = r2;                                                               \
      }                                                                                                  \
    kt_buf_ctx ctx = {want, KT, 3 * N};                                                                  \
    kt_case cs = {.file = "int_minmax",                                                                  \
                  .kernel = "minmax_" #T,                                                                \
                  .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(a, sizeof a), KT_BUF_IN(b, sizeof b), \
                           KT_BUF_IN(c, sizeof c)},                                                      \
                  .range = {1, {KT_MM_N}, {0}, {0}},                                                     \
                  .check = kt_check_buf,                                                                 \
                  .user = &ctx};                                                                         \
    kt_run_case(&cs);                                                                                    \
  }
KT_MINMAX_TEST(char, int8_t, KT_I8, 1)
KT_MINMAX_TEST(uchar, uint8_t, KT_U8, 1)
KT_MINMAX_TEST(short, int16_t, KT_I16, 1)
KT_MINMAX_TEST(ushort, uint16_t, KT_U16, 1)
KT_MINMAX_TEST(int, int32_t, KT_I32, 1)
KT_MINMAX_TEST(uint, uint32_t, KT_U32, 1)
KT_MINMAX_TEST(long, int64_t, KT_I64, 1)
KT_MINMAX_TEST(ulong, uint64_t, KT_U64, 1)
KT_MINMAX_TEST(int4, int32_t, KT_I32, 4)
KT_MINMAX_TEST(ulong2, uint64_t, KT_U64, 2)

/* Hand-derived values of the reference: signed and unsigned order of the same bits, and clamp. */
static void test_minmax_reference_spot(void **state) {
  (void)state;
  int8_t s = -112, lo = -10, hi = 10;
  assert_int_equal(MM_CLAMP(s, lo, hi), -10);
  uint8_t u = 0x90, ulo = 0xf6, uhi = 0xff; /* the same bits as unsigned: 144 < 246 */
  assert_int_equal(MM_CLAMP(u, ulo, uhi), 0xf6);
  int64_t m = INT64_MIN, z = 0;
  assert_true(MM_MIN(m, z) == INT64_MIN && MM_MAX(m, z) == 0);
  uint32_t big = 0xffffffffu, one = 1;
  assert_true(MM_MAX(big, one) == 0xffffffffu && MM_MIN(big, one) == 1);
  assert_int_equal(MM_CLAMP(5, 7, 3), 3); /* minval > maxval: min(max(5, 7), 3) */
}

static void test_conv_vector(void **state) {
  (void)state;
  int32_t a[KT_NI], dummy[KT_NI];
  int16_t s[KT_NI * 2], dummy16[KT_NI];
  kt_int_inputs(a, dummy, 4, 0xC100);
  kt_int_inputs(s, dummy16, 2, 0xC101);
  kt_int_inputs(s + KT_NI, dummy16, 2, 0xC102);
  static kt_convv_ctx ctx;
  for (size_t i = 0; i < KT_NI; ++i) {
    ctx.trunc[i] = (uint8_t)a[i];
    ctx.sext[i] = (int8_t)a[i];
    ctx.zext[i] = (int64_t)(uint32_t)a[i];
  }
  for (size_t i = 0; i < KT_NI * 2; ++i) ctx.mixed[i] = (int32_t)(uint16_t)s[i] - (int32_t)s[i];
  kt_case c = {.file = "int_convert",
               .kernel = "conv_vector",
               .args = {KT_BUF_IN(NULL, sizeof ctx.trunc), KT_BUF_IN(NULL, sizeof ctx.sext),
                        KT_BUF_IN(NULL, sizeof ctx.zext), KT_BUF_IN(NULL, sizeof ctx.mixed), KT_BUF_IN(a, sizeof a),
                        KT_BUF_IN(s, sizeof s)},
               .range = {1, {KT_NI / 4}, {0}, {0}},
               .check = kt_check_conv_vector,
               .user = &ctx};
  kt_run_case(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    KT_TEST(test_arith_reference_spot),
    KT_TEST(test_arith_char),
    KT_TEST(test_arith_uchar),
    KT_TEST(test_arith_short),
    KT_TEST(test_arith_ushort),
    KT_TEST(test_arith_int),
    KT_TEST(test_arith_uint),
    KT_TEST(test_arith_long),
    KT_TEST(test_arith_ulong),
    KT_TEST(test_divrem_char),
    KT_TEST(test_divrem_uchar),
    KT_TEST(test_divrem_short),
    KT_TEST(test_divrem_ushort),
    KT_TEST(test_divrem_int),
    KT_TEST(test_divrem_uint),
    KT_TEST(test_divrem_long),
    KT_TEST(test_divrem_ulong),
    KT_TEST(test_divrem_int4),
    KT_TEST(test_divrem_ushort8),
    KT_TEST(test_shift_reference_spot),
    KT_TEST(test_shr_char),
    KT_TEST(test_shr_uchar),
    KT_TEST(test_shr_short),
    KT_TEST(test_shr_ushort),
    KT_TEST(test_shr_int),
    KT_TEST(test_shr_uint),
    KT_TEST(test_shr_long),
    KT_TEST(test_shr_ulong),
    KT_TEST(test_shl_uchar),
    KT_TEST(test_shl_ushort),
    KT_TEST(test_shl_uint),
    KT_TEST(test_shl_ulong),
    KT_TEST(test_shift_char4),
    KT_TEST(test_shift_long2),
    KT_TEST(test_conv_scalar),
    KT_TEST(test_conv_vector),
    KT_TEST(test_minmax_reference_spot),
    KT_TEST(test_minmax_char),
    KT_TEST(test_minmax_uchar),
    KT_TEST(test_minmax_short),
    KT_TEST(test_minmax_ushort),
    KT_TEST(test_minmax_int),
    KT_TEST(test_minmax_uint),
    KT_TEST(test_minmax_long),
    KT_TEST(test_minmax_ulong),
    KT_TEST(test_minmax_int4),
    KT_TEST(test_minmax_ulong2),
  };
  return cmocka_run_group_tests_name("kernels_int", tests, NULL, NULL);
}
