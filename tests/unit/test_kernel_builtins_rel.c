/*
 * test_kernel_builtins_rel.c — relational functions (C 6.15.6) through tests/kernels/bi_rel.cl:
 * isequal isnotequal isgreater isgreaterequal isless islessequal islessgreater isordered
 * isunordered isfinite isinf isnan isnormal signbit on float (1, 3, 4, 16), double (1, 2), half
 * (1, 4); any/all; bitselect and select on float, int, float4, char16, long2, double2, half4,
 * ushort3, double.
 *
 * Expected values, from the spec's definitions written in C on the exact values: comparisons are
 * ordered except isnotequal (true when either is NaN) and isunordered; scalar results are 1/0,
 * vector results -1/0 (C 6.15.6); any/all look at the most significant bit of each component;
 * bitselect per bit; select on vectors: the most significant bit of each c component, on scalars:
 * c != 0.
 */
#include "kernel_builtins_harness.h"

enum {
  KR_EQ,
  KR_NE,
  KR_GT,
  KR_GE,
  KR_LT,
  KR_LE,
  KR_LG,
  KR_ORD,
  KR_UNORD,
  KR_FINITE,
  KR_INF,
  KR_NAN,
  KR_NORMAL,
  KR_SIGNBIT,
  KR_NFN
};
static const char *const kb_rel_names[KR_NFN] = {"isequal",     "isnotequal",  "isgreater",     "isgreaterequal",
                                                 "isless",      "islessequal", "islessgreater", "isordered",
                                                 "isunordered", "isfinite",    "isinf",         "isnan",
                                                 "isnormal",    "signbit"};

static bool kb_rel_ref(kb_fmt f, int k, uint64_t x, uint64_t y) {
  bool un = kb_isnan(f, x) || kb_isnan(f, y);
  double a = kb_val(f, x), b = kb_val(f, y);
  switch (k) {
  case KR_EQ: return !un && a == b;
  case KR_NE: return un || a != b;
  case KR_GT: return !un && a > b;
  case KR_GE: return !un && a >= b;
  case KR_LT: return !un && a < b;
  case KR_LE: return !un && a <= b;
  case KR_LG: return !un && (a < b || a > b);
  case KR_ORD: return !un;
  case KR_UNORD: return un;
  case KR_FINITE: return !kb_isnan(f, x) && !kb_isinf(f, x);
  case KR_INF: return kb_isinf(f, x);
  case KR_NAN: return kb_isnan(f, x);
  case KR_NORMAL: {
    uint64_t e = x & kb_expmask(f);
    return e != 0 && e != kb_expmask(f);
  }
  default: return kb_neg(f, x);
  }
}

typedef struct kb_rvar {
  const char *sfx;
  kb_fmt f;
  unsigned lanes, slots, ibytes;
} kb_rvar;
static const kb_rvar kb_rvars[] = {
  {"f", KB_F, 1, 1, 4}, {"f4", KB_F, 4, 4, 4}, {"f3", KB_F, 3, 4, 4}, {"f16", KB_F, 16, 16, 4},
  {"d", KB_D, 1, 1, 4}, {"d2", KB_D, 2, 2, 8}, {"h", KB_H, 1, 1, 4},  {"h4", KB_H, 4, 4, 2},
};

typedef struct kb_rcheck {
  const kb_rvar *v;
  size_t count;
  const int8_t *fn;
  const uint64_t *x, *y, *want;
} kb_rcheck;

static void kb_check_rel(const kt_run *r, void *u) {
  const kb_rcheck *c = u;
  kb_report rep = {r, 0, 0, 30};
  unsigned ib = c->v->ibytes;
  kt_require(r, r->bytes[0] == c->count * ib, "argument 0: %zu bytes", r->bytes[0]);
  for (size_t i = 0; i < c->count; ++i) {
    if (c->fn[i] < 0) continue;
    uint64_t got = 0;
    memcpy(&got, (const unsigned char *)r->buf[0] + i * ib, ib);
    if (got == c->want[i]) continue;
    char a[80], b[80];
    kb_fmtval(c->v->f, c->x[i], a, sizeof a);
    kb_fmtval(c->v->f, c->y[i], b, sizeof b);
    kb_bad(&rep, "[%zu] %s_%s(%s, %s) = 0x%llx, expected 0x%llx", i, kb_rel_names[c->fn[i]], c->v->sfx, a,
           c->fn[i] < KR_FINITE ? b : "-", (unsigned long long)got, (unsigned long long)c->want[i]);
  }
  kb_report_end(&rep, "relational results");
}

static void kb_rel_test(size_t vi) {
  const kb_rvar *v = &kb_rvars[vi];
  kb_fmt f = v->f;
  size_t n = (256 + v->lanes - 1) / v->lanes;
  n = (n + KB_LOCAL - 1) / KB_LOCAL * KB_LOCAL;
  size_t count = KR_NFN * n * v->slots;
  uint64_t *a = kb_alloc(count * 8), *b = kb_alloc(count * 8), *want = kb_alloc(count * 8);
  int8_t *fn = kb_alloc(count);
  memset(fn, -1, count);
  uint64_t ones = v->ibytes == 8 ? ~0ull : (1ull << (8 * v->ibytes)) - 1;
  for (int k = 0; k < KR_NFN; ++k) {
    kt_seed(0xB4A000 + (uint64_t)k * 61 + vi);
    for (size_t vec = 0; vec < n; ++vec)
      for (unsigned l = 0; l < v->lanes; ++l) {
        size_t j = vec * v->lanes + l, e = ((size_t)k * n + vec) * v->slots + l;
        uint64_t x, y;
        if (j < KB_NS2 * KB_NS2) {
          x = kb_special2(f, (unsigned)(j / KB_NS2));
          y = kb_special2(f, (unsigned)(j % KB_NS2));
          if (k >= KR_FINITE) x = kb_special(f, (unsigned)(j % KB_NSPEC));
        } else {
          x = j % 3 ? kb_rand_bits(f) : kb_rand_log(f, -3, 3, false);
          switch (j % 4) {
          case 0: y = x; break;
          case 1: y = kb_isnan(f, x) ? x : x + 1; break; /* the neighbouring pattern */
          case 2: y = x ^ kb_signbit(f); break;
          default: y = kb_rand_log(f, -3, 3, false); break;
          }
          if (k >= KR_FINITE && j % 5 == 0) x = kb_expmask(f) & (kb_rand_bits(f) | (1ull << (kb_fi[f].prec - 1)));
          if (kb_fi[f].bits < 64) y &= (1ull << kb_fi[f].bits) - 1;
        }
        a[e] = x;
        b[e] = y;
        fn[e] = (int8_t)k;
        bool t = kb_rel_ref(f, k, x, y);
        want[e] = t ? (v->lanes == 1 ? 1 : ones) : 0;
      }
  }
  uint32_t nn = (uint32_t)n;
  kb_rcheck chk = {v, count, fn, a, b, want};
  char kernel[32];
  snprintf(kernel, sizeof kernel, "rel_%s", v->sfx);
  size_t bytes = count * kb_bytes(f);
  kt_case c = {.file = "bi_rel",
               .kernel = kernel,
               .args = {KT_BUF_IN(NULL, count * v->ibytes), KT_BUF_IN(kb_pack(f, a, count), bytes),
                        KT_BUF_IN(kb_pack(f, b, count), bytes), KT_VALUE(&nn)},
               .range = {1, {n}, {KB_LOCAL}, {0}},
               .check = kb_check_rel,
               .user = &chk};
  kt_run_case(&c);
}

/* clang-format off */
#define KB_REL_T(i, name) static void test_rel_##name(void **s) { (void)s; kb_rel_test(i); }
KB_REL_T(0, f) KB_REL_T(1, f4) KB_REL_T(2, f3) KB_REL_T(3, f16) KB_REL_T(4, d) KB_REL_T(5, d2)
KB_REL_T(6, h) KB_REL_T(7, h4)
  /* clang-format on */

  /* ---- any / all ---------------------------------------------------------------------------------- */
  typedef struct kb_aa_ctx {
  int32_t want[64 * 10];
} kb_aa_ctx;
static void kb_check_aa(const kt_run *r, void *u) { kt_expect_buf(r, 0, ((kb_aa_ctx *)u)->want, KT_I32, 64 * 10); }

/* components whose most significant bits follow pattern p: 0 none, 1 all, 2 all but one, 3 one,
 * 4 random; the other bits random (so a non-zero component need not have its MSB set) */
static void kb_msb_fill(unsigned char *v, unsigned es, unsigned comps, unsigned p) {
  unsigned odd = (unsigned)(kt_rand() % comps);
  for (unsigned c = 0; c < comps; ++c) {
    uint64_t x = kt_rand();
    bool msb = p == 1 || (p == 2 && c != odd) || (p == 3 && c == odd) || (p == 4 && (kt_rand() & 1));
    uint64_t top = 1ull << (8 * es - 1);
    x = msb ? x | top : x & ~top;
    if (p == 0 && c == odd) x = top - 1; /* the largest value without the MSB */
    memcpy(v + c * es, &x, es);
  }
}
static bool kb_msb(const unsigned char *v, unsigned es, unsigned c) { return (v[c * es + es - 1] & 0x80) != 0; }

static void test_rel_anyall(void **state) {
  (void)state;
  enum { N = 64 };
  static unsigned char s[N * 4], v4[N * 16], c16[N * 16], l2[N * 16], s3[N * 8];
  static kb_aa_ctx w;
  struct {
    unsigned char *p;
    unsigned es, comps, slots;
  } in[5] = {{s, 4, 1, 1}, {v4, 4, 4, 4}, {c16, 1, 16, 16}, {l2, 8, 2, 2}, {s3, 2, 3, 4}};
  kt_seed(0xB4AA01);
  memset(s3, 0, sizeof s3);
  for (size_t i = 0; i < N; ++i)
    for (int k = 0; k < 5; ++k) {
      unsigned char *p = in[k].p + i * in[k].es * in[k].slots;
      kb_msb_fill(p, in[k].es, in[k].comps, (unsigned)((i + (size_t)k) % 5));
      if (k == 4) {
        p[6] = (unsigned char)kt_rand();
        p[7] = 0x80;
      } /* padding with its MSB set: ignored */
      bool any = false, all = true;
      for (unsigned c = 0; c < in[k].comps; ++c) {
        bool m = kb_msb(p, in[k].es, c);
        any = any || m;
        all = all && m;
      }
      w.want[10 * i + 2 * (size_t)k] = any;
      w.want[10 * i + 2 * (size_t)k + 1] = all;
    }
  /* hand checks of the MSB reading: 0x7fff (short) has it clear, 0x80 (char) and -1 set */
  {
    const unsigned char h1[2] = {0xff, 0x7f}, h2[1] = {0x80}, h3[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    assert_false(kb_msb(h1, 2, 0));
    assert_true(kb_msb(h2, 1, 0) && kb_msb(h3, 8, 0));
  }
  kt_case c = {.file = "bi_rel",
               .kernel = "anyall",
               .args = {KT_BUF_IN(NULL, sizeof w.want), KT_BUF_IN(s, sizeof s), KT_BUF_IN(v4, sizeof v4),
                        KT_BUF_IN(c16, sizeof c16), KT_BUF_IN(l2, sizeof l2), KT_BUF_IN(s3, sizeof s3)},
               .range = {1, {N}, {16}, {0}},
               .check = kb_check_aa,
               .user = &w};
  kt_run_case(&c);
}

/* ---- bitselect / select ------------------------------------------------------------------------ */
typedef struct kb_svar {
  const char *kernel;
  unsigned es, lanes, slots;
} kb_svar;
static const kb_svar kb_svars[] = {
  {"sel_f", 4, 1, 1},  {"sel_i", 4, 1, 1},  {"sel_f4", 4, 4, 4},  {"sel_c16", 1, 16, 16}, {"sel_l2", 8, 2, 2},
  {"sel_d2", 8, 2, 2}, {"sel_h4", 2, 4, 4}, {"sel_us3", 2, 3, 4}, {"sel_d", 8, 1, 1},
};
typedef struct kb_sel_ctx {
  const kb_svar *v;
  const unsigned char *want;
  size_t count;
} kb_sel_ctx;

static void kb_check_sel(const kt_run *r, void *u) {
  const kb_sel_ctx *c = u;
  kb_report rep = {r, 0, 0, 30};
  const unsigned char *got = r->buf[0];
  size_t vb = (size_t)c->v->es * c->v->slots;
  kt_require(r, r->bytes[0] == c->count * vb, "argument 0: %zu bytes", r->bytes[0]);
  static const char *const what[3] = {"bitselect", "select(signed)", "select(unsigned)"};
  for (size_t i = 0; i < c->count; ++i)
    for (unsigned l = 0; l < c->v->lanes; ++l) {
      size_t off = i * vb + (size_t)l * c->v->es;
      if (memcmp(got + off, c->want + off, c->v->es) == 0) continue;
      uint64_t g = 0, w = 0;
      memcpy(&g, got + off, c->v->es);
      memcpy(&w, c->want + off, c->v->es);
      kb_bad(&rep, "%s item %zu, %s lane %u: 0x%llx, expected 0x%llx", c->v->kernel, i / 3, what[i % 3], l,
             (unsigned long long)g, (unsigned long long)w);
    }
  kb_report_end(&rep, "select/bitselect results");
}

static void kb_sel_test(size_t vi) {
  const kb_svar *v = &kb_svars[vi];
  enum { N = 48 };
  size_t vb = (size_t)v->es * v->slots;
  unsigned char *a = kb_alloc(N * vb), *b = kb_alloc(N * vb), *m = kb_alloc(N * vb), *want = kb_alloc(3 * N * vb);
  kt_seed(0xB45E00 + vi);
  uint64_t top = 1ull << (8 * v->es - 1), mask = v->es == 8 ? ~0ull : (1ull << (8 * v->es)) - 1;
  for (size_t i = 0; i < N; ++i)
    for (unsigned l = 0; l < v->lanes; ++l) {
      size_t off = i * vb + (size_t)l * v->es;
      uint64_t x = kt_rand(), y = kt_rand(), c;
      switch ((i * 7 + l) % 8) {
      case 0: c = 0; break;
      case 1: c = 1; break;       /* non-zero, MSB clear */
      case 2: c = mask; break;    /* -1 */
      case 3: c = top; break;     /* MSB only */
      case 4: c = top - 1; break; /* largest positive */
      case 5: c = top | 1; break;
      default: c = kt_rand(); break;
      }
      memcpy(a + off, &x, v->es);
      memcpy(b + off, &y, v->es);
      memcpy(m + off, &c, v->es);
      x &= mask;
      y &= mask;
      c &= mask;
      bool pick = v->lanes == 1 ? c != 0 : (c & top) != 0; /* scalar: non-zero; vector: MSB */
      uint64_t bs = (x & ~c) | (y & c), sel = pick ? y : x;
      memcpy(want + (3 * i) * vb + (size_t)l * v->es, &bs, v->es);
      memcpy(want + (3 * i + 1) * vb + (size_t)l * v->es, &sel, v->es);
      memcpy(want + (3 * i + 2) * vb + (size_t)l * v->es, &sel, v->es);
    }
  kb_sel_ctx ctx = {v, want, 3 * N};
  kt_case c = {.file = "bi_rel",
               .kernel = v->kernel,
               .args = {KT_BUF_IN(NULL, 3 * N * vb), KT_BUF_IN(a, N * vb), KT_BUF_IN(b, N * vb), KT_BUF_IN(m, N * vb)},
               .range = {1, {N}, {16}, {0}},
               .check = kb_check_sel,
               .user = &ctx};
  kt_run_case(&c);
}

static void test_rel_select(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof kb_svars / sizeof kb_svars[0]; ++i) kb_sel_test(i);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    KB_TEST(test_rel_f),      KB_TEST(test_rel_f4),     KB_TEST(test_rel_f3), KB_TEST(test_rel_f16),
    KB_TEST(test_rel_d),      KB_TEST(test_rel_d2),     KB_TEST(test_rel_h),  KB_TEST(test_rel_h4),
    KB_TEST(test_rel_anyall), KB_TEST(test_rel_select),
  };
  return cmocka_run_group_tests_name("kernel_builtins_rel", tests, NULL, NULL);
}
