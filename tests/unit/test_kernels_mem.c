/*
 * test_kernels_mem.c — memory and calls: struct_arg.cl, struct_global.cl, func_calls.cl,
 * local_reduce.cl, local_scan.cl, local_transpose.cl, local_bitonic.cl, local_args.cl,
 * constant_tables.cl, global_vars.cl, global_ptr_init.cl, generic_ptr.cl, ptr_arith.cl.
 * Host-side structs restate the OpenCL C layouts (OpenCL C s6.1.5: scalars aligned to their size,
 * vectors to their size with 3-vectors as 4) and are pinned with _Static_assert on offsets.
 */
#include "kernel_harness.h"

/* ---- struct_arg.cl -------------------------------------------------------------------------- */
typedef struct kt_params {
  int8_t c;
  int32_t i;
  int16_t s;
  double d;
  float f;
  uint8_t u[3];
  int64_t l;
} kt_params;
_Static_assert(sizeof(kt_params) == 40, "Params layout");
_Static_assert(offsetof(kt_params, d) == 16 && offsetof(kt_params, f) == 24 && offsetof(kt_params, u) == 28 &&
                 offsetof(kt_params, l) == 32,
               "Params layout");

static void kt_check_struct_byval(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I64, 5 * 8); }

static void test_struct_byval(void **state) {
  (void)state;
  kt_params p;
  memset(&p, 0xEE, sizeof p); /* padding bytes: not read by the kernel */
  p.c = -7;
  p.i = -123456;
  p.s = 31000;
  p.d = -2.75e100;
  p.f = 6.5e-3f;
  p.u[0] = 0xF1;
  p.u[1] = 0x02;
  p.u[2] = 0x93;
  p.l = 0x0102030405060708ll;
  int64_t want[5 * 8];
  for (int64_t g = 0; g < 5; ++g) {
    int64_t *o = want + g * 8;
    o[0] = p.c;
    o[1] = p.i;
    o[2] = p.s;
    uint64_t db;
    memcpy(&db, &p.d, 8);
    o[3] = (int64_t)db;
    o[4] = (int32_t)kt_f2u(p.f);
    o[5] = p.u[0] | p.u[1] << 8 | p.u[2] << 16;
    o[6] = p.l;
    o[7] = p.l + (int64_t)p.i * g + p.u[g % 3];
  }
  kt_case c = {.file = "struct_arg",
               .kernel = "struct_byval",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_VALUE(&p)},
               .range = {1, {5}, {0}, {0}},
               .check = kt_check_struct_byval,
               .user = want};
  kt_run_case(&c);
}

static void kt_check_struct_private_array(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I32, 6 * 12); }

static void test_struct_private_array(void **state) {
  (void)state;
  enum { G = 6 };
  int32_t in[G * 4], want[G * 12];
  kt_seed(0xA100);
  for (size_t i = 0; i < G * 4; ++i) in[i] = (int32_t)kt_rand_range(-100000, 100000);
  for (size_t g = 0; g < G; ++g) in[g * 4] = (int32_t)(in[g * 4] & ~3) | (int32_t)(g % 4); /* every sel */
  for (size_t g = 0; g < G; ++g) {
    struct {
      int32_t key;
      float val;
      int16_t tag;
    } items[4], copy;
    for (int k = 0; k < 4; ++k) {
      items[k].key = in[g * 4 + k];
      items[k].val = (float)k / 4.0f;
      items[k].tag = (int16_t)(k - 2);
    }
    int sel = in[g * 4] & 3;
    copy = items[sel];
    copy.key += 1000;
    items[3 - sel] = copy;
    for (int k = 0; k < 4; ++k) {
      want[g * 12 + k * 3 + 0] = items[k].key;
      want[g * 12 + k * 3 + 1] = (int32_t)kt_f2u(items[k].val);
      want[g * 12 + k * 3 + 2] = items[k].tag;
    }
  }
  kt_case c = {.file = "struct_arg",
               .kernel = "struct_private_array",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(in, sizeof in)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_struct_private_array,
               .user = want};
  kt_run_case(&c);
}

/* ---- struct_global.cl ----------------------------------------------------------------------- */
typedef struct kt_inner {
  int16_t a;
  int8_t b;
} kt_inner;
typedef struct kt_rec {
  int8_t tag;
  _Alignas(16) float v[4];
  int16_t s;
  int64_t l;
  _Alignas(16) int32_t t[4]; /* int3: 16 bytes, the 4th is padding */
  kt_inner in[2];
  double d;
} kt_rec;
_Static_assert(sizeof(kt_inner) == 4, "Inner layout");
_Static_assert(sizeof(kt_rec) == 80 && _Alignof(kt_rec) == 16, "Rec layout");
_Static_assert(offsetof(kt_rec, v) == 16 && offsetof(kt_rec, s) == 32 && offsetof(kt_rec, l) == 40 &&
                 offsetof(kt_rec, t) == 48 && offsetof(kt_rec, in) == 64 && offsetof(kt_rec, d) == 72,
               "Rec layout");

/* Packed { char c; int i; short s; long l; }: offsets 0, 1, 5, 7; 15 bytes. */
#define KT_PACKED_SIZE 15

static void kt_rec_random(kt_rec *r) {
  unsigned char *p = (unsigned char *)r;
  for (size_t k = 0; k < sizeof *r; ++k) p[k] = (unsigned char)kt_rand(); /* padding too */
  r->tag = (int8_t)kt_rand();
  for (int k = 0; k < 4; ++k) r->v[k] = kt_rand_float(-8, 8);
  r->s = (int16_t)kt_rand();
  r->l = (int64_t)kt_rand();
  for (int k = 0; k < 3; ++k) r->t[k] = (int32_t)kt_rand_range(-1000000, 1000000);
  for (int k = 0; k < 2; ++k) {
    r->in[k].a = (int16_t)kt_rand();
    r->in[k].b = (int8_t)kt_rand();
  }
  r->d = (double)kt_rand_float(-30, 30);
}

/* Compare the members of records (not the padding). */
static void kt_expect_recs(const kt_run *r, int arg, const kt_rec *want, size_t n) {
  const unsigned char *got = r->buf[arg];
  kt_require(r, r->bytes[arg] == n * sizeof(kt_rec), "argument %d size", arg);
  for (size_t i = 0; i < n; ++i) {
    kt_rec g;
    memcpy(&g, got + i * sizeof g, sizeof g);
    const kt_rec *w = &want[i];
    kt_require(r, g.tag == w->tag, "rec %zu: tag %d, expected %d", i, g.tag, w->tag);
    for (int k = 0; k < 4; ++k)
      kt_require(r, kt_f2u(g.v[k]) == kt_f2u(w->v[k]), "rec %zu: v[%d] %a, expected %a", i, k, (double)g.v[k],
                 (double)w->v[k]);
    kt_require(r, g.s == w->s, "rec %zu: s %d, expected %d", i, g.s, w->s);
    kt_require(r, g.l == w->l, "rec %zu: l %" PRId64 ", expected %" PRId64, i, g.l, w->l);
    for (int k = 0; k < 3; ++k)
      kt_require(r, g.t[k] == w->t[k], "rec %zu: t[%d] %d, expected %d", i, k, g.t[k], w->t[k]);
    for (int k = 0; k < 2; ++k)
      kt_require(r, g.in[k].a == w->in[k].a && g.in[k].b == w->in[k].b, "rec %zu: in[%d] (%d,%d), expected (%d,%d)", i,
                 k, g.in[k].a, g.in[k].b, w->in[k].a, w->in[k].b);
    kt_require(r, kt_d2u(g.d) == kt_d2u(w->d), "rec %zu: d %a, expected %a", i, g.d, w->d);
  }
}

static void kt_check_struct_rw(const kt_run *r, void *u) { kt_expect_recs(r, 0, u, 6); }

static void test_struct_rw(void **state) {
  (void)state;
  enum { G = 6 };
  static kt_rec in[G], want[G];
  kt_seed(0xA200);
  for (size_t g = 0; g < G; ++g) kt_rec_random(&in[g]);
  in[0].tag = 127; /* char wraps: 127 + 1 -> -128 */
  for (size_t g = 0; g < G; ++g) {
    const kt_rec *r = &in[g];
    kt_rec *w = &want[g];
    *w = *r;
    w->tag = (int8_t)(r->tag + 1);
    for (int k = 0; k < 4; ++k) w->v[k] = r->v[3 - k];
    w->s = (int16_t)-r->s;
    w->l = r->l ^ (int64_t)g;
    for (int k = 0; k < 3; ++k) w->t[k] = r->t[k] + k + 1;
    w->in[0] = r->in[1];
    w->in[1] = r->in[0];
    w->d = r->d * 2.0;
  }
  kt_case c = {.file = "struct_global",
               .kernel = "struct_rw",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(in, sizeof in)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_struct_rw,
               .user = want};
  kt_run_case(&c);
}

/* In-place member updates: every other byte, padding included, must be left as it was -- except
 * the padding lane of the int3 `t` (bytes 60..63), which a 3-vector store may or may not write. */
static void kt_check_struct_inplace(const kt_run *r, void *u) {
  enum { G = 6 };
  static kt_rec got[G], want[G];
  kt_require(r, r->bytes[0] == sizeof got, "argument 0 size %zu", r->bytes[0]);
  memcpy(got, r->buf[0], sizeof got);
  memcpy(want, u, sizeof want);
  for (size_t g = 0; g < G; ++g) got[g].t[3] = want[g].t[3] = 0;
  const unsigned char *a = (const unsigned char *)got, *b = (const unsigned char *)want;
  for (size_t k = 0; k < sizeof got; ++k)
    kt_require(r, a[k] == b[k], "record %zu byte %zu: got 0x%02x, expected 0x%02x", k / sizeof(kt_rec),
               k % sizeof(kt_rec), a[k], b[k]);
}

static void test_struct_inplace(void **state) {
  (void)state;
  enum { G = 6 };
  static kt_rec recs[G], want[G];
  kt_seed(0xA300);
  for (size_t g = 0; g < G; ++g) kt_rec_random(&recs[g]);
  memcpy(want, recs, sizeof recs);
  for (size_t g = 0; g < G; ++g) {
    want[g].v[1] += 1.0f;
    want[g].t[2] = want[g].t[0] - want[g].t[1];
    want[g].in[g & 1].b = 'x';
  }
  kt_case c = {.file = "struct_global",
               .kernel = "struct_inplace",
               .args = {KT_BUF_IN(recs, sizeof recs)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_struct_inplace,
               .user = want};
  kt_run_case(&c);
}

static void kt_check_struct_packed(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_U8, 5 * KT_PACKED_SIZE); }

static void test_struct_packed(void **state) {
  (void)state;
  enum { G = 5 };
  uint8_t in[G * KT_PACKED_SIZE], want[G * KT_PACKED_SIZE];
  kt_seed(0xA400);
  for (size_t g = 0; g < G; ++g) {
    uint8_t *p = in + g * KT_PACKED_SIZE;
    int8_t c = (int8_t)kt_rand();
    int32_t i = (int32_t)kt_rand_range(-1000000, 1000000);
    int16_t s = (int16_t)kt_rand_range(-30000, 30000);
    int64_t l = (int64_t)(kt_rand() >> 2);
    memcpy(p + 0, &c, 1);
    memcpy(p + 1, &i, 4);
    memcpy(p + 5, &s, 2);
    memcpy(p + 7, &l, 8);
    uint8_t *q = want + g * KT_PACKED_SIZE;
    int32_t i2 = i + 1;
    int16_t s2 = (int16_t)(s - 1);
    int64_t l2 = l + i;
    memcpy(q + 0, &c, 1);
    memcpy(q + 1, &i2, 4);
    memcpy(q + 5, &s2, 2);
    memcpy(q + 7, &l2, 8);
  }
  kt_case c = {.file = "struct_global",
               .kernel = "struct_packed",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(in, sizeof in)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_struct_packed,
               .user = want};
  kt_run_case(&c);
}

/* ---- func_calls.cl -------------------------------------------------------------------------- */
static int32_t kt_mix(int32_t x, int32_t y) { return (x * 31) ^ (y + 7); }

static void kt_check_calls(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I32, 12 * 8); }

static void test_calls(void **state) {
  (void)state;
  enum { G = 12 };
  int32_t in[G * 2], want[G * 8];
  kt_seed(0xA500);
  for (size_t g = 0; g < G; ++g) {
    in[g * 2] = (int32_t)kt_rand_range(-1000000, 1000000);
    in[g * 2 + 1] = (int32_t)kt_rand_range(1, 5000) * (g % 2 ? -1 : 1); /* never 0 */
  }
  for (size_t g = 0; g < G; ++g) {
    int32_t x = in[g * 2], y = in[g * 2 + 1];
    int32_t *o = want + g * 8;
    o[0] = kt_mix(x, y);
    int32_t pa = x + y, pb = x - y;
    float pw = (float)x / 8.0f;
    o[1] = (pa + 1) * 3 - pb; /* pair_score works on a copy */
    o[2] = pa;
    o[3] = (int32_t)kt_f2u(pw);
    o[4] = x / y;
    o[5] = x % y;
    int32_t t = (x ^ 5) + 1; /* chain1 -> chain2(x ^ 5) -> chain3(+1) */
    o[6] = kt_mix(t, t >> 1) * 2 - 3;
    o[7] = 100 + y;
  }
  kt_case c = {.file = "func_calls",
               .kernel = "calls",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(in, sizeof in)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_calls,
               .user = want};
  kt_run_case(&c);
}

static void test_calls_local(void **state) {
  (void)state;
  enum { G = 48, L = 16 };
  int32_t in[G], w[1 + G];
  kt_seed(0xA600);
  for (size_t i = 0; i < G; ++i) in[i] = (int32_t)kt_rand_range(-10000, 10000);
  w[0] = G;
  for (size_t i = 0; i < G; ++i) {
    size_t base = i - i % L, l = i % L;
    int32_t s = 0;
    for (size_t k = 0; k <= l; ++k) s += in[base + k];
    w[1 + i] = kt_mix(s, (int32_t)l);
  }
  kt_case c = {.file = "func_calls",
               .kernel = "calls_local",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(in, sizeof in)},
               .range = {1, {G}, {L}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

/* ---- local_reduce.cl ------------------------------------------------------------------------ */
static void test_reduce_sum(void **state) {
  (void)state;
  enum { G = 256, L = 64 };
  int32_t in[G], w[1 + G / L];
  kt_seed(0xA700);
  for (size_t i = 0; i < G; ++i) in[i] = (int32_t)kt_rand_range(-1000000, 1000000);
  w[0] = G / L;
  for (size_t g = 0; g < G / L; ++g) {
    int32_t s = 0;
    for (size_t k = 0; k < L; ++k) s += in[g * L + k];
    w[1 + g] = s;
  }
  kt_case c = {.file = "local_reduce",
               .kernel = "reduce_sum",
               .args = {KT_BUF_IN(NULL, G / L * 4), KT_BUF_IN(in, sizeof in)},
               .range = {1, {G}, {L}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

static void kt_check_minmax(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_U32, 5 * 2); }

static void test_reduce_minmax(void **state) {
  (void)state;
  /* local size 40 (not a power of two: the `l + s < n` guard matters); 5 groups */
  enum { G = 200, L = 40 };
  uint32_t in[G], want[G / L * 2];
  kt_seed(0xA800);
  for (size_t i = 0; i < G; ++i) in[i] = (uint32_t)kt_rand();
  for (size_t g = 0; g < G / L; ++g) {
    uint32_t mn = UINT32_MAX, mx = 0;
    for (size_t k = 0; k < L; ++k) {
      uint32_t v = in[g * L + k];
      if (v < mn) mn = v;
      if (v > mx) mx = v;
    }
    want[g * 2] = mn;
    want[g * 2 + 1] = mx;
  }
  kt_case c = {.file = "local_reduce",
               .kernel = "reduce_minmax",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(in, sizeof in)},
               .range = {1, {G}, {L}, {0}},
               .check = kt_check_minmax,
               .user = want};
  kt_run_case(&c);
}

/* ---- local_scan.cl -------------------------------------------------------------------------- */
static void test_scan_hs(void **state) {
  (void)state;
  enum { G = 192, L = 64 };
  int32_t in[G], w[1 + G];
  kt_seed(0xA900);
  for (size_t i = 0; i < G; ++i) in[i] = (int32_t)kt_rand_range(-1000, 1000);
  w[0] = G;
  for (size_t g = 0; g < G / L; ++g) {
    int32_t s = 0;
    for (size_t k = 0; k < L; ++k) w[1 + g * L + k] = s += in[g * L + k]; /* inclusive */
  }
  kt_case c = {.file = "local_scan",
               .kernel = "scan_hs",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(in, sizeof in), KT_LOCAL_BYTES(2 * L * 4)},
               .range = {1, {G}, {L}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

static void kt_check_scan_blelloch(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_U32, 4 * 64); }

static void test_scan_blelloch(void **state) {
  (void)state;
  enum { GROUPS = 4, L = 32, N = 64 };
  uint32_t in[GROUPS * N], want[GROUPS * N];
  kt_seed(0xAA00);
  for (size_t i = 0; i < GROUPS * N; ++i) in[i] = (uint32_t)kt_rand(); /* sums wrap */
  for (size_t g = 0; g < GROUPS; ++g) {
    uint32_t s = 0;
    for (size_t k = 0; k < N; ++k) {
      want[g * N + k] = s; /* exclusive */
      s += in[g * N + k];
    }
  }
  kt_case c = {.file = "local_scan",
               .kernel = "scan_blelloch",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(in, sizeof in)},
               .range = {1, {GROUPS * L}, {L}, {0}},
               .check = kt_check_scan_blelloch,
               .user = want};
  kt_run_case(&c);
}

/* ---- local_transpose.cl --------------------------------------------------------------------- */
#define KT_TW 24
#define KT_TH 40
static void kt_check_transpose(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_F32, KT_TW * KT_TH); }

static void test_transpose(void **state) {
  (void)state;
  static float in[KT_TH * KT_TW], want[KT_TW * KT_TH];
  int32_t W = KT_TW, H = KT_TH;
  kt_seed(0xAB00);
  for (size_t i = 0; i < KT_TH * KT_TW; ++i) in[i] = kt_rand_float(-10, 10);
  for (int r = 0; r < H; ++r)
    for (int c = 0; c < W; ++c) want[c * H + r] = in[r * W + c];
  kt_case c = {.file = "local_transpose",
               .kernel = "transpose",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(in, sizeof in), KT_VALUE(&W), KT_VALUE(&H)},
               .range = {2, {KT_TW, KT_TH}, {8, 8}, {0}},
               .check = kt_check_transpose,
               .user = want};
  kt_run_case(&c);
}

/* ---- local_bitonic.cl ----------------------------------------------------------------------- */
static int kt_cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}
static void kt_check_bitonic(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_U32, 4 * 64); }

static void test_bitonic(void **state) {
  (void)state;
  enum { GROUPS = 4, N = 64 };
  uint32_t data[GROUPS * N], want[GROUPS * N];
  kt_seed(0xAC00);
  for (size_t i = 0; i < GROUPS * N; ++i) data[i] = (uint32_t)kt_rand();
  for (size_t i = 0; i < N; ++i) data[N + i] = (uint32_t)(i % 5);     /* many duplicates */
  for (size_t i = 0; i < N; ++i) data[2 * N + i] = (uint32_t)(N - i); /* reversed */
  memcpy(want, data, sizeof data);
  for (size_t g = 0; g < GROUPS; ++g) qsort(want + g * N, N, sizeof(uint32_t), kt_cmp_u32);
  kt_case c = {.file = "local_bitonic",
               .kernel = "bitonic",
               .args = {KT_BUF_IN(data, sizeof data)},
               .range = {1, {GROUPS * N / 2}, {N / 2}, {0}},
               .check = kt_check_bitonic,
               .user = want};
  kt_run_case(&c);
}

/* ---- local_args.cl -------------------------------------------------------------------------- */
static void test_local_args(void **state) {
  (void)state;
  enum { G = 48, L = 16 };
  int32_t in[G], w[1 + 2 * G];
  kt_seed(0xAD00);
  for (size_t i = 0; i < G; ++i) in[i] = (int32_t)kt_rand_range(-100000, 100000);
  w[0] = 2 * G;
  for (size_t i = 0; i < G; ++i) {
    size_t base = i - i % L, l = i % L;
    w[1 + 2 * i] = in[base + L - 1 - l];
    float s = (float)in[base + (l + 1) % L] + 0.5f;
    w[1 + 2 * i + 1] = (int32_t)kt_f2u(s);
  }
  kt_case c = {.file = "local_args",
               .kernel = "local_args",
               .args = {KT_BUF_IN(NULL, 2 * G * 4), KT_BUF_IN(in, sizeof in), KT_LOCAL_BYTES(L * 4),
                        KT_LOCAL_BYTES(2 * L * 4)},
               .range = {1, {G}, {L}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

/* ---- constant_tables.cl --------------------------------------------------------------------- */
/* CRC-32 (IEEE 802.3, reflected, init and final xor 0xFFFFFFFF), one bit at a time. */
static uint32_t kt_crc32(const uint8_t *p, size_t n) {
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ ((crc & 1) ? 0xEDB88320u : 0);
  }
  return ~crc;
}

static void kt_check_crc(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_U32, 8); }

static void test_crc32(void **state) {
  (void)state;
  assert_true(kt_crc32((const uint8_t *)"123456789", 9) == 0xCBF43926u); /* the standard check value */
  uint8_t data[8 * 16];
  uint32_t want[8];
  kt_seed(0xAE00);
  for (size_t i = 0; i < sizeof data; ++i) data[i] = (uint8_t)kt_rand();
  memset(data, 0, 16); /* 16 zero bytes */
  for (size_t g = 0; g < 8; ++g) want[g] = kt_crc32(data + g * 16, 16);
  kt_case c = {.file = "constant_tables",
               .kernel = "crc32_16",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(data, sizeof data)},
               .range = {1, {8}, {0}, {0}},
               .check = kt_check_crc,
               .user = want};
  kt_run_case(&c);
}

typedef struct kt_lookup_ctx {
  float out[20];
  int32_t which[20];
  int32_t cell[20];
} kt_lookup_ctx;
static void kt_check_lookup(const kt_run *r, void *u) {
  const kt_lookup_ctx *c = u;
  kt_expect_buf(r, 0, c->out, KT_F32, 20);
  kt_expect_buf(r, 1, c->which, KT_I32, 20);
  kt_expect_buf(r, 2, c->cell, KT_I32, 20);
}

static void test_lookup(void **state) {
  (void)state;
  /* the tables as the kernel file defines them */
  static const struct {
    int lo, hi;
    float scale;
  } bands[4] = {{-100, -1, 0.5f}, {0, 9, 1.0f}, {10, 99, 2.0f}, {100, 1000, -1.0f}};
  static const int8_t grid[3][5] = {{1, 2, 3, 4, 5}, {-1, -2, -3, -4, -5}, {9, 8, 7, 6, 5}};
  static const int32_t in[20] = {-101, -100, -50, -1, 0, 5,   9,     10, 99,    100,
                                 1000, 1001, 77,  -3, 3, 500, -1000, 42, 12345, 8};
  static kt_lookup_ctx w;
  for (size_t g = 0; g < 20; ++g) {
    int x = in[g], b = -1;
    for (int k = 0; k < 4; ++k)
      if (x >= bands[k].lo && x <= bands[k].hi) {
        b = k;
        break;
      }
    w.which[g] = b;
    w.out[g] = b >= 0 ? (float)x * bands[b].scale : 0.0f;
    w.cell[g] = grid[(uint32_t)x % 3][(uint32_t)x % 5];
  }
  kt_case c = {.file = "constant_tables",
               .kernel = "lookup",
               .args = {KT_BUF_IN(NULL, sizeof w.out), KT_BUF_IN(NULL, sizeof w.which), KT_BUF_IN(NULL, sizeof w.cell),
                        KT_BUF_IN(in, sizeof in)},
               .range = {1, {20}, {0}, {0}},
               .check = kt_check_lookup,
               .user = &w};
  kt_run_case(&c);
}

static void test_const_arg(void **state) {
  (void)state;
  static const int32_t coef[5] = {3, -1, 4, -1, 5};
  int32_t n = 5, w[1 + 10];
  w[0] = 10;
  for (int g = 0; g < 10; ++g) {
    int s = 0;
    for (int k = 0; k < n; ++k) s += coef[k] * (g + k);
    w[1 + g] = s;
  }
  kt_case c = {.file = "constant_tables",
               .kernel = "const_arg",
               .args = {KT_BUF_IN(NULL, 10 * 4), KT_BUF_IN(coef, sizeof coef), KT_VALUE(&n)},
               .range = {1, {10}, {0}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

/* ---- global_vars.cl ------------------------------------------------------------------------- */
typedef struct kt_globals_ctx {
  float out[16];
  int32_t iout[16 * 4];
} kt_globals_ctx;
static void kt_check_read_globals(const kt_run *r, void *u) {
  const kt_globals_ctx *c = u;
  kt_expect_buf(r, 0, c->out, KT_F32, 16);
  kt_expect_buf(r, 1, c->iout, KT_I32, 16 * 4);
}

static void test_read_globals(void **state) {
  (void)state;
  /* initial values as global_vars.cl declares them */
  static const int32_t table[4] = {10, -20, 30, -40}, ctab[3] = {7, 8, 9};
  const float scale = 2.5f;
  const int64_t big = 0x123456789abcdefll;
  static kt_globals_ctx w;
  for (size_t g = 0; g < 16; ++g) {
    w.out[g] = (float)table[g % 4] * scale;
    w.iout[g * 4 + 0] = 0; /* g_zero */
    w.iout[g * 4 + 1] = (int32_t)(big >> (g % 64));
    w.iout[g * 4 + 2] = table[(g + 1) % 4] + ctab[g % 3];
    w.iout[g * 4 + 3] = 10; /* (int)(2.5f * 4.0f) + g_zero[..] */
  }
  kt_case c = {.file = "global_vars",
               .kernel = "read_globals",
               .args = {KT_BUF_IN(NULL, sizeof w.out), KT_BUF_IN(NULL, sizeof w.iout)},
               .range = {1, {16}, {0}, {0}},
               .check = kt_check_read_globals,
               .user = &w};
  kt_run_case(&c);
}

static void test_scratch_globals(void **state) {
  (void)state;
  enum { L = 32 };
  int32_t in[L], w[1 + L];
  for (int i = 0; i < L; ++i) in[i] = i * i - 100;
  w[0] = L;
  for (int l = 0; l < L; ++l) w[1 + l] = in[(l + 1) % L] * 3 - in[l] * 3;
  kt_case c = {.file = "global_vars",
               .kernel = "scratch_globals",
               .args = {KT_BUF_IN(NULL, L * 4), KT_BUF_IN(in, sizeof in)},
               .range = {1, {L}, {L}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

/* ---- global_ptr_init.cl --------------------------------------------------------------------- */
static void test_ptr_globals(void **state) {
  (void)state;
  /* g_ptr = &g_arr[2] with g_arr = {10, -20, 30, -40}; c_ptr = &c_table[1] with c_table = {7, 8, 9} */
  enum { G = 6 };
  int32_t w[1 + G * 3];
  w[0] = G * 3;
  for (int g = 0; g < G; ++g) {
    w[1 + g * 3 + 0] = g % 2 ? 30 : -20; /* g_ptr[0] = g_arr[2], g_ptr[-1] = g_arr[1] */
    w[1 + g * 3 + 1] = 2;
    w[1 + g * 3 + 2] = g % 2 ? 9 : 8; /* c_ptr[1] = c_table[2], c_ptr[0] = c_table[1] */
  }
  kt_case c = {.file = "global_ptr_init",
               .kernel = "ptr_globals",
               .args = {KT_BUF_IN(NULL, G * 3 * 4)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

/* ---- generic_ptr.cl ------------------------------------------------------------------------- */
static int32_t kt_sum_generic(const int32_t *p, int n) {
  int32_t s = 0;
  for (int k = 0; k < n; ++k) s = s * 3 + p[k];
  return s;
}

static void test_generic_sum(void **state) {
  (void)state;
  enum { G = 16, L = 8 };
  int32_t in[G + 8], w[1 + G * 3];
  kt_seed(0xAF00);
  for (size_t i = 0; i < G + 8; ++i) in[i] = (int32_t)kt_rand_range(-1000, 1000);
  w[0] = G * 3;
  int32_t loc[8];
  for (int k = 0; k < 8; ++k) loc[k] = in[k] + 100;
  for (size_t g = 0; g < G; ++g) {
    int32_t priv[8];
    for (int k = 0; k < 8; ++k) priv[k] = in[g + k] - (int32_t)g;
    w[1 + g * 3 + 0] = kt_sum_generic(in + g, 8);
    w[1 + g * 3 + 1] = kt_sum_generic(loc, 8);
    w[1 + g * 3 + 2] = kt_sum_generic(priv, 8);
  }
  kt_case c = {.file = "generic_ptr",
               .kernel = "generic_sum",
               .args = {KT_BUF_IN(NULL, G * 3 * 4), KT_BUF_IN(in, sizeof in)},
               .range = {1, {G}, {L}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

typedef struct kt_gcast_ctx {
  int32_t out[12 * 4];
  int32_t gbuf[12];
} kt_gcast_ctx;
static void kt_check_generic_cast(const kt_run *r, void *u) {
  const kt_gcast_ctx *c = u;
  kt_expect_buf(r, 0, c->out, KT_I32, 12 * 4);
  kt_expect_buf(r, 1, c->gbuf, KT_I32, 12);
}

static void test_generic_cast(void **state) {
  (void)state;
  enum { G = 12 };
  int32_t gbuf[G], mode[G];
  static kt_gcast_ctx w;
  for (int g = 0; g < G; ++g) {
    gbuf[g] = -1;
    mode[g] = g % 3; /* 0: global, 1: local, 2: private */
  }
  for (int g = 0; g < G; ++g) {
    int m = mode[g];
    w.out[g * 4 + 0] = m == 0 ? 1 : m == 1 ? 2 : 4; /* to_global / to_local / to_private non-NULL */
    w.out[g * 4 + 1] = g * 10;                      /* stored through the generic pointer */
    w.out[g * 4 + 2] = g * 10;                      /* read back through the cast pointer */
    w.out[g * 4 + 3] = 1 + 2 * 1 + 4 * (m == 0);    /* q > p, q - p == 1, p == &gbuf[g] */
    w.gbuf[g] = m == 0 ? g * 10 : -1;
  }
  kt_case c = {.file = "generic_ptr",
               .kernel = "generic_cast",
               .args = {KT_BUF_IN(NULL, sizeof w.out), KT_BUF_IN(gbuf, sizeof gbuf), KT_BUF_IN(mode, sizeof mode)},
               .range = {1, {G}, {G}, {0}},
               .check = kt_check_generic_cast,
               .user = &w};
  kt_run_case(&c);
}

/* get_fence (OpenCL C 6.15.9) is llvm-spirv's OpGenericPtrMemSemantics >> 8: the storage class's
 * Memory Semantics bit (SPIR-V 3.25: CrossWorkgroupMemory 0x200, WorkgroupMemory 0x100; Function
 * storage has none), i.e. CLK_GLOBAL_MEM_FENCE 2, CLK_LOCAL_MEM_FENCE 1, and 0 for private memory. */
static void test_generic_fence(void **state) {
  (void)state;
  enum { G = 12 };
  int32_t gbuf[G], mode[G];
  uint32_t w[1 + G * 4];
  w[0] = G * 4;
  for (int g = 0; g < G; ++g) {
    gbuf[g] = -1;
    mode[g] = g % 3; /* 0: global, 1: local, 2: private */
    w[1 + g * 4 + 0] = mode[g] == 0 ? 2 : mode[g] == 1 ? 1 : 0;
    w[1 + g * 4 + 1] = 2;
    w[1 + g * 4 + 2] = 1;
    w[1 + g * 4 + 3] = 0;
  }
  kt_case c = {.file = "generic_ptr",
               .kernel = "generic_fence",
               .args = {KT_BUF_IN(NULL, G * 4 * 4), KT_BUF_IN(gbuf, sizeof gbuf), KT_BUF_IN(mode, sizeof mode)},
               .range = {1, {G}, {G}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

/* ---- ptr_arith.cl --------------------------------------------------------------------------- */
static void test_ptr_walk(void **state) {
  (void)state;
  enum { G = 6, N = 10 };
  int32_t in[G * N], w[1 + G * 6], n = N;
  kt_seed(0xB100);
  for (size_t i = 0; i < G * N; ++i) in[i] = (int32_t)kt_rand_range(-50, 50);
  w[0] = G * 6;
  for (size_t g = 0; g < G; ++g) {
    const int32_t *v = in + g * N;
    int32_t s = 0, back = 0, mx = 0;
    for (int k = 0; k < N; ++k) s += v[k];
    for (int k = N - 1; k >= N / 2; --k) back = back * 3 + v[k];
    for (int k = 1; k < N; ++k)
      if (v[k] > v[mx]) mx = k;
    w[1 + g * 6 + 0] = s;
    w[1 + g * 6 + 1] = back;
    w[1 + g * 6 + 2] = mx;
    w[1 + g * 6 + 3] = v[N / 2 - 1] - v[N / 2 + 1];
    w[1 + g * 6 + 4] = (N - N / 2) + 100 * 1 + 1000 * 0;
    w[1 + g * 6 + 5] = N * 4;
  }
  kt_case c = {.file = "ptr_arith",
               .kernel = "ptr_walk",
               .args = {KT_BUF_IN(NULL, G * 6 * 4), KT_BUF_IN(in, sizeof in), KT_VALUE(&n)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

static void kt_check_ptr_bytes(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_U32, 8 * 2); }

static void test_ptr_bytes(void **state) {
  (void)state;
  uint32_t in[8], want[8 * 2];
  kt_seed(0xB200);
  for (size_t i = 0; i < 8; ++i) in[i] = (uint32_t)kt_rand();
  in[0] = 0x11223344u;
  for (size_t g = 0; g < 8; ++g) {
    uint32_t x = in[g];
    want[g * 2] = (x & 0xFF) << 24 | (x >> 8 & 0xFF) << 16 | (x >> 16 & 0xFF) << 8 | x >> 24; /* byte swap */
    want[g * 2 + 1] = 0xABu << (8 * (g % 4)); /* byte g % 4 of a little-endian word */
  }
  assert_true(want[0] == 0x44332211u);
  kt_case c = {.file = "ptr_arith",
               .kernel = "ptr_bytes",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(in, sizeof in)},
               .range = {1, {8}, {0}, {0}},
               .check = kt_check_ptr_bytes,
               .user = want};
  kt_run_case(&c);
}

static void test_ptr_private(void **state) {
  (void)state;
  enum { G = 16 };
  int32_t in[G], w[1 + G * 3];
  for (int g = 0; g < G; ++g) in[g] = g * 13 - 40;
  w[0] = G * 3;
  for (int g = 0; g < G; ++g) {
    int j = in[g] & 7;
    int hi = j > 7 - j ? j : 7 - j; /* the later of arr[j] and arr[7 - j] */
    w[1 + g * 3 + 0] = in[g] + hi;
    w[1 + g * 3 + 1] = hi;
    w[1 + g * 3 + 2] = in[g] + hi - 1; /* hi >= 4 > 0: arr[hi - 1] */
  }
  kt_case c = {.file = "ptr_arith",
               .kernel = "ptr_private",
               .args = {KT_BUF_IN(NULL, G * 3 * 4), KT_BUF_IN(in, sizeof in)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

static void test_ptr_local(void **state) {
  (void)state;
  enum { G = 64, L = 32 };
  int32_t in[G], w[1 + G];
  for (int i = 0; i < G; ++i) in[i] = i * 7 - 99;
  w[0] = G;
  for (int i = 0; i < G; ++i) {
    int base = i - i % L, l = i % L;
    w[1 + i] = in[base + 31 - l] - in[i] + (31 - 2 * l);
  }
  kt_case c = {.file = "ptr_arith",
               .kernel = "ptr_local",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(in, sizeof in)},
               .range = {1, {G}, {L}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

/* ptr_gather: rows of irregular length (a few long ones, some empty), so the lanes of a warp leave
 * the loop at different iterations and run its gathers as partial warps of every size. */
static void test_ptr_gather(void **state) {
  (void)state;
  enum { G = 96, NX = 200, NNZ_MAX = G * 40 };
  static uint32_t row_ptr[G + 1];
  static int32_t col[NNZ_MAX], val[NNZ_MAX], x[NX], w[1 + 3 * G];
  kt_seed(0x6A7E);
  for (size_t i = 0; i < NX; ++i) x[i] = (int32_t)kt_rand_range(-1000, 1000);
  row_ptr[0] = 0;
  for (size_t r = 0; r < G; ++r) row_ptr[r + 1] = row_ptr[r] + (r % 13 == 5 ? 40 : (uint32_t)(r * 37 % 11));
  const uint32_t nnz = row_ptr[G];
  for (size_t k = 0; k < nnz; ++k) {
    col[k] = (int32_t)kt_rand_range(0, NX - 1);
    val[k] = (int32_t)kt_rand_range(-9, 9);
  }
  w[0] = 3 * G;
  for (size_t r = 0; r < G; ++r) {
    int32_t acc = 0, last = 0;
    const int32_t *best = x;
    for (uint32_t k = row_ptr[r]; k < row_ptr[r + 1]; ++k) {
      acc += val[k] * x[col[k]];
      if (x[col[k]] > *best) best = &x[col[k]];
      last = x[col[k]] + col[k] * 4096;
    }
    w[1 + 3 * r] = acc;
    w[2 + 3 * r] = *best;
    w[3 + 3 * r] = last;
  }
  kt_case c = {.file = "ptr_arith",
               .kernel = "ptr_gather",
               .args = {KT_BUF_IN(NULL, 3 * G * 4), KT_BUF_IN(row_ptr, sizeof row_ptr), KT_BUF_IN(col, 4 * nnz),
                        KT_BUF_IN(val, 4 * nnz), KT_BUF_IN(x, sizeof x)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    KT_TEST(test_struct_byval),    KT_TEST(test_struct_private_array),
    KT_TEST(test_struct_rw),       KT_TEST(test_struct_inplace),
    KT_TEST(test_struct_packed),   KT_TEST(test_calls),
    KT_TEST(test_calls_local),     KT_TEST(test_reduce_sum),
    KT_TEST(test_reduce_minmax),   KT_TEST(test_scan_hs),
    KT_TEST(test_scan_blelloch),   KT_TEST(test_transpose),
    KT_TEST(test_bitonic),         KT_TEST(test_local_args),
    KT_TEST(test_crc32),           KT_TEST(test_lookup),
    KT_TEST(test_const_arg),       KT_TEST(test_read_globals),
    KT_TEST(test_scratch_globals), KT_TEST(test_ptr_globals),
    KT_TEST(test_generic_sum),     KT_TEST(test_generic_cast),
    KT_TEST(test_generic_fence),   KT_TEST(test_ptr_walk),
    KT_TEST(test_ptr_bytes),       KT_TEST(test_ptr_private),
    KT_TEST(test_ptr_local),       KT_TEST(test_ptr_gather),
  };
  return cmocka_run_group_tests_name("kernels_mem", tests, NULL, NULL);
}
