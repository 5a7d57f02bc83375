/*
 * test_kernel_builtins_int.c — OpenCL C integer functions (C 6.15.3) through
 * tests/kernels/bi_int.cl: add_sat sub_sat hadd rhadd mul_hi mad_hi mad_sat clz ctz popcount rotate
 * min max clamp abs abs_diff upsample mul24 mad24, on char/uchar/short/ushort/int/uint/long/ulong
 * scalars and char16, ushort3, int4, uint8, long2 vectors; the scalar-broadcast min/max/clamp.
 *
 * Expected values: plain C on the exact mathematical value, computed in a 128-bit two's-complement
 * integer written here (kb_i128, products from 32-bit halves), then saturated / shifted / reduced
 * modulo 2^w as the spec's definition says. Inputs: all pairs of 14 boundary values of the type
 * (0, 1, 2, 3, -1, -2, MAX, MIN, MAX-1, MIN+1, 0x55.., 0xAA.., 100, -100: kt_int_pattern) plus
 * random values. mul24/mad24: operands inside the 24-bit range (defined by the spec) in most
 * elements; outside it spvi's documented definition (low 24 bits, sign/zero-extended) is checked.
 */
#include "kernel_builtins_harness.h"

/* ---- 128-bit two's-complement integers ------------------------------------------------------ */
typedef struct kb_i128 {
  uint64_t lo, hi;
} kb_i128;

static kb_i128 kb_i128_s(int64_t v) {
  kb_i128 r = {(uint64_t)v, v < 0 ? ~0ull : 0};
  return r;
}
static kb_i128 kb_i128_u(uint64_t v) {
  kb_i128 r = {v, 0};
  return r;
}
static kb_i128 kb_add128(kb_i128 a, kb_i128 b) {
  kb_i128 r;
  r.lo = a.lo + b.lo;
  r.hi = a.hi + b.hi + (r.lo < a.lo);
  return r;
}
static kb_i128 kb_neg128(kb_i128 a) {
  kb_i128 r = {~a.lo, ~a.hi};
  return kb_add128(r, kb_i128_u(1));
}
static kb_i128 kb_sub128(kb_i128 a, kb_i128 b) { return kb_add128(a, kb_neg128(b)); }
static bool kb_isneg128(kb_i128 a) { return (a.hi >> 63) != 0; }
/* unsigned 64 x 64 -> 128 from 32-bit halves */
static kb_i128 kb_umul64(uint64_t a, uint64_t b) {
  uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
  kb_i128 r;
  r.lo = (p00 & 0xffffffffu) | (mid << 32);
  r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
  return r;
}
/* exact product of two values that fit in 64 bits: signed (sgn: magnitudes and the sign, the
 * product fits in a signed 128-bit integer) or unsigned (the product is below 2^128) */
static kb_i128 kb_mul128(kb_i128 a, kb_i128 b, bool sgn) {
  if (!sgn) return kb_umul64(a.lo, b.lo);
  bool na = kb_isneg128(a), nb = kb_isneg128(b);
  if (na) a = kb_neg128(a);
  if (nb) b = kb_neg128(b);
  kb_i128 p = kb_umul64(a.lo, b.lo); /* magnitudes <= 2^63 */
  return na != nb ? kb_neg128(p) : p;
}
/* comparison as signed or as unsigned 128-bit integers */
static int kb_cmp128(kb_i128 a, kb_i128 b, bool sgn) {
  if (a.hi != b.hi) {
    if (sgn) return (int64_t)a.hi < (int64_t)b.hi ? -1 : 1;
    return a.hi < b.hi ? -1 : 1;
  }
  if (a.lo != b.lo) return a.lo < b.lo ? -1 : 1;
  return 0;
}
/* floor(a / 2^s), 0 <= s < 128: arithmetic (sgn) or logical shift */
static kb_i128 kb_shr128(kb_i128 a, unsigned s, bool sgn) {
  uint64_t fill = sgn && kb_isneg128(a) ? ~0ull : 0;
  while (s >= 64) {
    a.lo = a.hi;
    a.hi = fill;
    s -= 64;
  }
  if (s) {
    a.lo = (a.lo >> s) | (a.hi << (64 - s));
    a.hi = (a.hi >> s) | (fill << (64 - s));
  }
  return a;
}

/* ---- the integer types --------------------------------------------------------------------- */
typedef struct kb_ity {
  unsigned w;
  bool sgn;
} kb_ity;

static uint64_t kb_imask(kb_ity t) { return t.w == 64 ? ~0ull : (1ull << t.w) - 1; }
/* the exact value of a w-bit pattern */
static kb_i128 kb_ival(kb_ity t, uint64_t u) {
  u &= kb_imask(t);
  if (t.sgn && (u >> (t.w - 1))) return kb_i128_s((int64_t)(u | ~kb_imask(t)));
  return kb_i128_u(u);
}
static kb_i128 kb_imin(kb_ity t) { return t.sgn ? kb_i128_s(-(int64_t)(kb_imask(t) >> 1) - 1) : kb_i128_u(0); }
static kb_i128 kb_imax(kb_ity t) { return kb_i128_u(t.sgn ? kb_imask(t) >> 1 : kb_imask(t)); }
/* v saturated to the type's range; unsigned types: v is a non-negative unsigned 128-bit value */
static uint64_t kb_sat(kb_ity t, kb_i128 v) {
  if (kb_cmp128(v, kb_imin(t), t.sgn) < 0) v = kb_imin(t);
  if (kb_cmp128(v, kb_imax(t), t.sgn) > 0) v = kb_imax(t);
  return v.lo & kb_imask(t);
}
static uint64_t kb_wrap(kb_ity t, kb_i128 v) { return v.lo & kb_imask(t); }

/* the functions; x, y, z are w-bit patterns */
enum {
  KI_ADD_SAT,
  KI_SUB_SAT,
  KI_HADD,
  KI_RHADD,
  KI_MUL_HI,
  KI_MAD_HI,
  KI_MAD_SAT,
  KI_CLZ,
  KI_CTZ,
  KI_POPCOUNT,
  KI_ROTATE,
  KI_MIN,
  KI_MAX,
  KI_CLAMP,
  KI_MUL24,
  KI_MAD24,
  KI_NOUT,
  KI_ABS = KI_NOUT,
  KI_ABS_DIFF,
  KI_UPSAMPLE,
  KI_NFN
};
static const char *const kb_int_fn_names[KI_NFN] = {"add_sat", "sub_sat", "hadd",     "rhadd",   "mul_hi",
                                                    "mad_hi",  "mad_sat", "clz",      "ctz",     "popcount",
                                                    "rotate",  "min",     "max",      "clamp",   "mul24",
                                                    "mad24",   "abs",     "abs_diff", "upsample"};

static uint64_t kb_iref(int fn, kb_ity t, uint64_t x, uint64_t y, uint64_t z, uint64_t lo, uint64_t hi) {
  kb_i128 X = kb_ival(t, x), Y = kb_ival(t, y), Z = kb_ival(t, z);
  uint64_t m = kb_imask(t), ux = x & m;
  switch (fn) {
  case KI_ADD_SAT: return kb_sat(t, kb_add128(X, Y));
  case KI_SUB_SAT: /* unsigned: x < y saturates to 0 */
    if (!t.sgn && kb_cmp128(X, Y, false) < 0) return 0;
    return kb_sat(t, kb_sub128(X, Y));
  case KI_HADD: return kb_wrap(t, kb_shr128(kb_add128(X, Y), 1, t.sgn)); /* floor((x+y)/2) */
  case KI_RHADD: return kb_wrap(t, kb_shr128(kb_add128(kb_add128(X, Y), kb_i128_u(1)), 1, t.sgn));
  case KI_MUL_HI: return kb_wrap(t, kb_shr128(kb_mul128(X, Y, t.sgn), t.w, t.sgn));
  case KI_MAD_HI: return kb_wrap(t, kb_add128(kb_shr128(kb_mul128(X, Y, t.sgn), t.w, t.sgn), Z));
  case KI_MAD_SAT: return kb_sat(t, kb_add128(kb_mul128(X, Y, t.sgn), Z));
  case KI_CLZ: {
    uint64_t n = 0;
    for (unsigned b = t.w; b-- > 0 && !((ux >> b) & 1);) ++n;
    return n;
  }
  case KI_CTZ: {
    uint64_t n = 0;
    for (unsigned b = 0; b < t.w && !((ux >> b) & 1); ++b) ++n;
    return n;
  }
  case KI_POPCOUNT: {
    uint64_t n = 0;
    for (unsigned b = 0; b < t.w; ++b) n += (ux >> b) & 1;
    return n;
  }
  case KI_ROTATE: { /* left by y modulo w (the low log2(w) bits of y) */
    unsigned c = (unsigned)(y & (t.w - 1));
    return c ? ((ux << c) | (ux >> (t.w - c))) & m : ux;
  }
  case KI_MIN: return kb_cmp128(Y, X, t.sgn) < 0 ? y & m : ux;
  case KI_MAX: return kb_cmp128(X, Y, t.sgn) < 0 ? y & m : ux;
  case KI_CLAMP: { /* min(max(x, lo), hi), lo <= hi */
    kb_i128 L = kb_ival(t, lo), H = kb_ival(t, hi);
    if (kb_cmp128(X, L, t.sgn) < 0) return lo & m;
    if (kb_cmp128(X, H, t.sgn) > 0) return hi & m;
    return ux;
  }
  case KI_MUL24:
  case KI_MAD24: { /* the low 24 bits of each operand, sign/zero-extended (spvi; exact in range) */
    kb_ity t24 = {24, t.sgn};
    kb_i128 p = kb_mul128(kb_ival(t24, x), kb_ival(t24, y), t.sgn);
    if (fn == KI_MAD24) p = kb_add128(p, Z);
    return kb_wrap(t, p);
  }
  case KI_ABS: {
    kb_i128 a = kb_isneg128(X) ? kb_neg128(X) : X;
    return a.lo & m;
  }
  case KI_ABS_DIFF: { /* the larger minus the smaller, exact */
    kb_i128 d = kb_cmp128(X, Y, t.sgn) < 0 ? kb_sub128(Y, X) : kb_sub128(X, Y);
    return d.lo & m;
  }
  case KI_UPSAMPLE: { /* (x << w) | (unsigned)y in 2w bits */
    uint64_t r = (ux << t.w) | (y & m);
    return t.w == 32 ? r : r & ((1ull << (2 * t.w)) - 1);
  }
  default: return 0;
  }
}

/* ---- the kernels ----------------------------------------------------------------------------- */
typedef struct kb_ivar {
  const char *kernel;
  kb_ity t;
  unsigned lanes, slots;
  bool has24, has_up;
} kb_ivar;

static const kb_ivar kb_ivars[] = {
  {"int_c", {8, true}, 1, 1, false, true},     {"int_uc", {8, false}, 1, 1, false, true},
  {"int_s", {16, true}, 1, 1, false, true},    {"int_us", {16, false}, 1, 1, false, true},
  {"int_i", {32, true}, 1, 1, true, true},     {"int_ui", {32, false}, 1, 1, true, true},
  {"int_l", {64, true}, 1, 1, false, false},   {"int_ul", {64, false}, 1, 1, false, false},
  {"int_c16", {8, true}, 16, 16, false, true}, {"int_us3", {16, false}, 3, 4, false, true},
  {"int_i4", {32, true}, 4, 4, true, true},    {"int_ui8", {32, false}, 8, 8, true, true},
  {"int_l2", {64, true}, 2, 2, false, false},
};

typedef struct kb_islot {
  int8_t fn;
  uint64_t x, y, z, lo, hi, want;
} kb_islot;
typedef struct kb_iout {
  int arg;
  unsigned es;
  size_t count;
  const kb_islot *s;
} kb_iout;
typedef struct kb_icheck {
  kb_ity t;
  kb_iout out[3];
} kb_icheck;

static void kb_check_int(const kt_run *r, void *u) {
  const kb_icheck *c = u;
  kb_report rep = {r, 0, 0, 40};
  for (int o = 0; o < 3; ++o) {
    const kb_iout *io = &c->out[o];
    if (!io->count) continue;
    kt_require(r, r->bytes[io->arg] == io->count * io->es, "argument %d: %zu bytes", io->arg, r->bytes[io->arg]);
    for (size_t i = 0; i < io->count; ++i) {
      const kb_islot *s = &io->s[i];
      if (s->fn < 0) continue;
      uint64_t got = 0;
      memcpy(&got, (const unsigned char *)r->buf[io->arg] + i * io->es, io->es);
      if (got == s->want) continue;
      kb_bad(&rep, "arg %d [%zu] %s %s%u(x=0x%llx, y=0x%llx, z=0x%llx, lo=0x%llx, hi=0x%llx) = 0x%llx, expected 0x%llx",
             io->arg, i, kb_int_fn_names[s->fn], c->t.sgn ? "int" : "uint", c->t.w, (unsigned long long)s->x,
             (unsigned long long)s->y, (unsigned long long)s->z, (unsigned long long)s->lo, (unsigned long long)s->hi,
             (unsigned long long)got, (unsigned long long)s->want);
    }
  }
  kb_report_end(&rep, "integer results");
}

static void kb_put(void *buf, unsigned es, size_t i, uint64_t v) { memcpy((unsigned char *)buf + i * es, &v, es); }

static kb_islot *kb_new_islots(size_t n) {
  kb_islot *s = kb_alloc(n * sizeof *s);
  for (size_t i = 0; i < n; ++i) s[i].fn = -1;
  return s;
}

/* a value of the type for input j: boundary pairs first */
static uint64_t kb_ipick(kb_ity t, size_t idx) { return kt_int_pattern(t.w, idx); }

static void kb_int_test(size_t vi) {
  const kb_ivar *v = &kb_ivars[vi];
  kb_ity t = v->t;
  unsigned es = t.w / 8;
  size_t lanes_wanted = 256, n = (lanes_wanted + v->lanes - 1) / v->lanes;
  n = (n + 15) / 16 * 16;
  size_t cnt = n * v->slots, nout = v->has24 ? 16 : 14;
  void *a = kb_alloc(cnt * es), *b = kb_alloc(cnt * es), *cc = kb_alloc(cnt * es);
  void *lo = kb_alloc(cnt * es), *hi = kb_alloc(cnt * es);
  kb_islot *so = kb_new_islots(nout * cnt), *su = kb_new_islots(2 * cnt), *sw = kb_new_islots(cnt);
  kt_seed(0xB10000 + vi);
  for (size_t vec = 0; vec < n; ++vec)
    for (unsigned l = 0; l < v->lanes; ++l) {
      size_t j = vec * v->lanes + l, e = vec * v->slots + l;
      uint64_t x, y, z;
      if (j < 14 * 14) { /* every pair of the 14 boundary values */
        x = kb_ipick(t, j / 14);
        y = kb_ipick(t, j % 14);
        z = kb_ipick(t, (j * 5 + 3) % 14);
      } else {
        x = kb_ipick(t, 14 + kt_rand() % 10); /* random (some shifted right: small magnitudes) */
        y = kb_ipick(t, 14 + kt_rand() % 10);
        z = kb_ipick(t, j % 3 ? 14 + kt_rand() % 10 : kt_rand() % 14);
        if (j % 7 == 0)
          y = (uint64_t)kb_irange(-(int64_t)t.w - 3, 2 * (int64_t)t.w + 3) & kb_imask(t); /* rotate counts */
      }
      uint64_t l1 = kb_ipick(t, j % 5 == 0 ? kt_rand() % 14 : 14 + kt_rand() % 10);
      uint64_t l2 = kb_ipick(t, 14 + kt_rand() % 10);
      if (kb_cmp128(kb_ival(t, l1), kb_ival(t, l2), t.sgn) > 0) {
        uint64_t s = l1;
        l1 = l2;
        l2 = s;
      }
      kb_put(a, es, e, x);
      kb_put(b, es, e, y);
      kb_put(cc, es, e, z);
      kb_put(lo, es, e, l1);
      kb_put(hi, es, e, l2);
      /* mul24/mad24 operands: inside the 24-bit range except every 8th element */
      for (size_t k = 0; k < KI_NFN; ++k) {
        if (k >= nout && k < KI_NOUT) continue;
        if (k == KI_UPSAMPLE && !v->has_up) continue;
        kb_islot *s = k < KI_NOUT ? &so[k * cnt + e] : k == KI_UPSAMPLE ? &sw[e] : &su[(k - KI_NOUT) * cnt + e];
        s->fn = (int8_t)k;
        s->x = x;
        s->y = y;
        s->z = z;
        s->lo = l1;
        s->hi = l2;
        s->want = kb_iref((int)k, t, x, y, z, l1, l2);
      }
    }
  /* mul24/mad24 in range: the random elements (not the boundary pairs), except every 8th, get
   * 24-bit x and y, for every function (the kernel reads the same a, b) */
  if (v->has24) {
    for (size_t vec = 0; vec < n; ++vec)
      for (unsigned l = 0; l < v->lanes; ++l) {
        size_t j = vec * v->lanes + l, e = vec * v->slots + l;
        if (j < 14 * 14 || j % 8 == 0) continue;
        uint64_t x = t.sgn ? (uint64_t)kb_irange(-(1 << 23), (1 << 23) - 1) : (uint64_t)kb_irange(0, (1 << 24) - 1);
        uint64_t y = t.sgn ? (uint64_t)kb_irange(-(1 << 23), (1 << 23) - 1) : (uint64_t)kb_irange(0, (1 << 24) - 1);
        x &= kb_imask(t);
        y &= kb_imask(t);
        kb_put(a, es, e, x);
        kb_put(b, es, e, y);
        uint64_t z, l1, l2;
        memcpy(&z, (unsigned char *)cc + e * es, es);
        memcpy(&l1, (unsigned char *)lo + e * es, es);
        memcpy(&l2, (unsigned char *)hi + e * es, es);
        z &= kb_imask(t);
        l1 &= kb_imask(t);
        l2 &= kb_imask(t);
        for (size_t k = 0; k < KI_NFN; ++k) {
          kb_islot *s = k < KI_NOUT ? &so[k * cnt + e] : k == KI_UPSAMPLE ? &sw[e] : &su[(k - KI_NOUT) * cnt + e];
          if (s->fn < 0) continue;
          s->x = x;
          s->y = y;
          s->want = kb_iref((int)k, t, x, y, z, l1, l2);
        }
      }
  }
  uint32_t nn = (uint32_t)n;
  unsigned wes = v->has_up ? 2 * es : es;
  kb_icheck chk = {t, {{0, es, nout * cnt, so}, {1, es, 2 * cnt, su}, {2, wes, v->has_up ? cnt : 0, sw}}};
  kt_case c = {.file = "bi_int",
               .kernel = v->kernel,
               .args = {KT_BUF_IN(NULL, nout * cnt * es), KT_BUF_IN(NULL, 2 * cnt * es), KT_BUF_IN(NULL, cnt * wes),
                        KT_BUF_IN(a, cnt * es), KT_BUF_IN(b, cnt * es), KT_BUF_IN(cc, cnt * es),
                        KT_BUF_IN(lo, cnt * es), KT_BUF_IN(hi, cnt * es), KT_VALUE(&nn)},
               .range = {1, {n}, {16}, {0}},
               .check = kb_check_int,
               .user = &chk};
  kt_run_case(&c);
}

/* hand-derived values, so that a wrong reference fails on its own */
static void test_int_reference(void **state) {
  (void)state;
  kb_ity c8 = {8, true}, u8 = {8, false}, i32 = {32, true}, u32 = {32, false}, i64 = {64, true}, u64 = {64, false};
  assert_int_equal(kb_iref(KI_ADD_SAT, c8, 100, 100, 0, 0, 0), 127);
  assert_int_equal(kb_iref(KI_ADD_SAT, c8, 0x80, 0xff, 0, 0, 0), 0x80); /* -128 + -1 -> -128 */
  assert_int_equal(kb_iref(KI_SUB_SAT, u8, 3, 5, 0, 0, 0), 0);
  assert_int_equal(kb_iref(KI_HADD, c8, 0xff, 0xfe, 0, 0, 0), 0xfe);  /* floor(-3/2) = -2 */
  assert_int_equal(kb_iref(KI_RHADD, c8, 0xff, 0xfe, 0, 0, 0), 0xff); /* floor(-2/2) = -1 */
  assert_int_equal(kb_iref(KI_HADD, u8, 255, 255, 0, 0, 0), 255);     /* no overflow */
  assert_int_equal(kb_iref(KI_RHADD, u8, 255, 254, 0, 0, 0), 255);
  /* mul_hi(INT_MIN, INT_MIN) = 2^62 >> 32 = 2^30; mul_hi(-1, 1) = -1 (0xffffffff) */
  assert_int_equal(kb_iref(KI_MUL_HI, i32, 0x80000000u, 0x80000000u, 0, 0, 0), 0x40000000);
  assert_int_equal(kb_iref(KI_MUL_HI, i32, 0xffffffffu, 1, 0, 0, 0), 0xffffffffu);
  assert_int_equal(kb_iref(KI_MUL_HI, u32, 0xffffffffu, 0xffffffffu, 0, 0, 0), 0xfffffffeu);
  /* 64-bit: (2^64-1)^2 = 2^128 - 2^65 + 1: high word 2^64 - 2 */
  assert_true(kb_iref(KI_MUL_HI, u64, ~0ull, ~0ull, 0, 0, 0) == ~1ull);
  /* LONG_MIN * LONG_MIN = 2^126: high word 2^62; LONG_MIN * -1 = 2^63: high word 0 */
  assert_true(kb_iref(KI_MUL_HI, i64, 1ull << 63, 1ull << 63, 0, 0, 0) == 1ull << 62);
  assert_true(kb_iref(KI_MUL_HI, i64, 1ull << 63, ~0ull, 0, 0, 0) == 0);
  /* mad_sat(LONG_MAX, 2, 0) = LONG_MAX; mad_sat(LONG_MIN, 2, 5) = LONG_MIN; mad_sat(-1, 1, LONG_MIN) */
  assert_true(kb_iref(KI_MAD_SAT, i64, INT64_MAX, 2, 0, 0, 0) == (uint64_t)INT64_MAX);
  assert_true(kb_iref(KI_MAD_SAT, i64, 1ull << 63, 2, 5, 0, 0) == 1ull << 63);
  assert_true(kb_iref(KI_MAD_SAT, u64, ~0ull, 2, 0, 0, 0) == ~0ull);
  assert_true(kb_iref(KI_MAD_SAT, u64, ~0ull, ~0ull, 5, 0, 0) == ~0ull);
  assert_true(kb_iref(KI_MAD_SAT, u64, 1ull << 32, 1ull << 31, 1ull << 63, 0, 0) == ~0ull); /* 2^63 + 2^63 */
  assert_true(kb_iref(KI_MAD_SAT, u64, 1ull << 32, 1ull << 31, (1ull << 63) - 1, 0, 0) == ~0ull);
  assert_true(kb_iref(KI_MAD_HI, u64, ~0ull, ~0ull, 3, 0, 0) == 1); /* 2^64 - 2 + 3 mod 2^64 */
  assert_true(kb_iref(KI_SUB_SAT, u64, 1, 2, 0, 0, 0) == 0);
  assert_true(kb_iref(KI_ADD_SAT, u64, ~0ull, 1, 0, 0, 0) == ~0ull);
  assert_true(kb_iref(KI_HADD, u64, ~0ull, ~0ull, 0, 0, 0) == ~0ull);
  assert_true(kb_iref(KI_ABS_DIFF, i64, 1ull << 63, INT64_MAX, 0, 0, 0) == ~0ull); /* 2^64 - 1 */
  assert_int_equal(kb_iref(KI_CLZ, u8, 0, 0, 0, 0, 0), 8);
  assert_int_equal(kb_iref(KI_CTZ, i32, 0, 0, 0, 0, 0), 32);
  assert_int_equal(kb_iref(KI_CLZ, i32, 1, 0, 0, 0, 0), 31);
  assert_int_equal(kb_iref(KI_CTZ, c8, 0x80, 0, 0, 0, 0), 7);
  assert_int_equal(kb_iref(KI_POPCOUNT, i64, 0x5555555555555555ull, 0, 0, 0, 0), 32);
  /* rotate(0x81, 1) = 0x03; by 9 = by 1; by -1 (0xff & 7 = 7) = right by 1 = 0xc0 */
  assert_int_equal(kb_iref(KI_ROTATE, u8, 0x81, 1, 0, 0, 0), 0x03);
  assert_int_equal(kb_iref(KI_ROTATE, u8, 0x81, 9, 0, 0, 0), 0x03);
  assert_int_equal(kb_iref(KI_ROTATE, c8, 0x81, 0xff, 0, 0, 0), 0xc0);
  assert_int_equal(kb_iref(KI_ABS, c8, 0x80, 0, 0, 0, 0), 0x80);         /* abs(-128) = 128 */
  assert_int_equal(kb_iref(KI_ABS_DIFF, c8, 0x7f, 0x80, 0, 0, 0), 0xff); /* 127 - -128 = 255 */
  assert_int_equal(kb_iref(KI_ABS_DIFF, u32, 0, 0xffffffffu, 0, 0, 0), 0xffffffffu);
  assert_int_equal(kb_iref(KI_UPSAMPLE, c8, 0xff, 0x01, 0, 0, 0), 0xff01);
  assert_true(kb_iref(KI_UPSAMPLE, i32, 0x80000000u, 0xffffffffu, 0, 0, 0) == 0x80000000ffffffffull);
  assert_int_equal(kb_iref(KI_MUL24, i32, 0xff800000u, 2, 0, 0, 0), 0xff000000u);     /* -2^23 * 2 */
  assert_int_equal(kb_iref(KI_MUL24, u32, 0xffffff, 0xffffff, 0, 0, 0), 0xfe000001u); /* (2^24-1)^2 mod 2^32 */
  assert_int_equal(kb_iref(KI_MAD24, i32, 3, 0xfffffffbu, 1, 0, 0), 0xfffffff2u);     /* 3 * -5 + 1 */
  assert_int_equal(kb_iref(KI_MIN, c8, 0x80, 0x7f, 0, 0, 0), 0x80);
  assert_int_equal(kb_iref(KI_MAX, u8, 0x80, 0x7f, 0, 0, 0), 0x80);
  assert_int_equal(kb_iref(KI_CLAMP, c8, 0x90, 0, 0, 0xf6, 10), 0xf6); /* clamp(-112, -10, 10) */
}

/* clang-format off */
#define KB_INT_T(i, name) static void test_int_##name(void **s) { (void)s; kb_int_test(i); }
KB_INT_T(0, char) KB_INT_T(1, uchar) KB_INT_T(2, short) KB_INT_T(3, ushort) KB_INT_T(4, int)
KB_INT_T(5, uint) KB_INT_T(6, long) KB_INT_T(7, ulong) KB_INT_T(8, char16) KB_INT_T(9, ushort3)
KB_INT_T(10, int4) KB_INT_T(11, uint8) KB_INT_T(12, long2)
  /* clang-format on */

  /* ---- scalar-broadcast min/max/clamp ------------------------------------------------------------ */
  typedef struct kb_bc_ctx {
  const void *want;
  size_t count;
  kt_type t;
} kb_bc_ctx;
static void kb_check_bc(const kt_run *r, void *u) {
  const kb_bc_ctx *c = u;
  kt_expect_buf(r, 0, c->want, c->t, c->count);
}

static void test_int_broadcast(void **state) {
  (void)state;
  enum { N = 32 };
  int32_t a[N * 4], s[N * 4], want[N * 12];
  uint8_t ua[N * 8], us[N * 4], uwant[N * 24];
  kt_seed(0xB1F001);
  for (size_t i = 0; i < N; ++i) {
    int32_t lo = (int32_t)kb_irange(-1000, 1000), hi = lo + (int32_t)kb_irange(0, 2000);
    s[4 * i] = (int32_t)kb_irange(-3000, 3000);
    s[4 * i + 1] = lo;
    s[4 * i + 2] = hi;
    s[4 * i + 3] = 0;
    for (int l = 0; l < 4; ++l) {
      int32_t x = (int32_t)kb_irange(-3000, 3000);
      if (i == 0) x = l == 0 ? INT32_MIN : l == 1 ? INT32_MAX : l == 2 ? lo : hi;
      a[4 * i + (size_t)l] = x;
      want[12 * i + (size_t)l] = x < s[4 * i] ? x : s[4 * i];
      want[12 * i + 4 + (size_t)l] = x > s[4 * i] ? x : s[4 * i];
      want[12 * i + 8 + (size_t)l] = x < lo ? lo : x > hi ? hi : x;
    }
    uint8_t ulo = (uint8_t)kb_irange(0, 200), uhi = (uint8_t)(ulo + kb_irange(0, 255 - ulo));
    us[4 * i] = (uint8_t)kb_irange(0, 255);
    us[4 * i + 1] = ulo;
    us[4 * i + 2] = uhi;
    us[4 * i + 3] = 0;
    for (int l = 0; l < 8; ++l) {
      uint8_t x = (uint8_t)kb_irange(0, 255);
      ua[8 * i + (size_t)l] = x;
      uwant[24 * i + (size_t)l] = x < us[4 * i] ? x : us[4 * i];
      uwant[24 * i + 8 + (size_t)l] = x > us[4 * i] ? x : us[4 * i];
      uwant[24 * i + 16 + (size_t)l] = x < ulo ? ulo : x > uhi ? uhi : x;
    }
  }
  kb_bc_ctx c1 = {want, N * 12, KT_I32};
  kt_case c = {.file = "bi_int",
               .kernel = "bcast_i4",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(a, sizeof a), KT_BUF_IN(s, sizeof s)},
               .range = {1, {N}, {16}, {0}},
               .check = kb_check_bc,
               .user = &c1};
  kt_run_case(&c);
  kb_bc_ctx c2 = {uwant, N * 24, KT_U8};
  kt_case d = {.file = "bi_int",
               .kernel = "bcast_uc8",
               .args = {KT_BUF_IN(NULL, sizeof uwant), KT_BUF_IN(ua, sizeof ua), KT_BUF_IN(us, sizeof us)},
               .range = {1, {N}, {16}, {0}},
               .check = kb_check_bc,
               .user = &c2};
  kt_run_case(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    KB_TEST(test_int_reference), KB_TEST(test_int_char),   KB_TEST(test_int_uchar),     KB_TEST(test_int_short),
    KB_TEST(test_int_ushort),    KB_TEST(test_int_int),    KB_TEST(test_int_uint),      KB_TEST(test_int_long),
    KB_TEST(test_int_ulong),     KB_TEST(test_int_char16), KB_TEST(test_int_ushort3),   KB_TEST(test_int_int4),
    KB_TEST(test_int_uint8),     KB_TEST(test_int_long2),  KB_TEST(test_int_broadcast),
  };
  return cmocka_run_group_tests_name("kernel_builtins_int", tests, NULL, NULL);
}
