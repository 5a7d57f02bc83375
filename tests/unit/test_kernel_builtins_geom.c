/*
 * test_kernel_builtins_geom.c — geometric functions (C 6.15.5) through tests/kernels/bi_geom.cl:
 * dot, length, distance, normalize, cross, fast_length, fast_distance, fast_normalize on float
 * (1-4 components), double (1-4) and half4.
 *
 * Expected values (spvi's definitions: docs/builtins.md, spec-notes/math.md "Geometric functions"):
 *   dot (SPIR-V OpDot; scalars: OpFMul): accumulated in the element type in component order,
 *     each product and each sum rounded (executor.md); NaN results: any NaN (core arithmetic
 *     does not define payloads);
 *   length = RN(sqrt(sum p_i^2)) from the exact sum (MPFR, thousands of bits), rounded once with
 *     subnormals (check_range + subnormalize); a NaN component: the first one quieted; else an
 *     infinite one: +inf;
 *   distance = length of the per-component differences, each rounded in the type;
 *   normalize: each p_i / |p| correctly rounded (MPFR enclosure of the quotient refined until both
 *     ends round alike); C 7.5: zero vector unchanged, a NaN component gives all NaN (the first
 *     one, quieted), infinite components become copysign(1, p_i) and the others copysign(0, p_i);
 *   cross = (RN(a.y b.z - a.z b.y), ...) from exact products, w = +0 for 4 components; NaN: the
 *     first NaN of (a1, b2, a2, b1) quieted, else canonical;
 *   fast_* = the same as the exact functions (spvi's definition).
 */
#include "kernel_builtins_harness.h"

#define KB_WIDE 4600 /* bits: any sum of squares or product difference of doubles is exact */

static void kb_sumsq(mpfr_ptr s, kb_fmt f, const uint64_t *p, unsigned n) {
  mpfr_t q;
  mpfr_init2(q, 128);
  mpfr_set_zero(s, 1);
  for (unsigned i = 0; i < n; ++i) {
    kb_mp_set(q, f, p[i]);
    mpfr_sqr(q, q, MPFR_RNDN);    /* exact: 2 * 53 bits */
    mpfr_add(s, s, q, MPFR_RNDN); /* exact in KB_WIDE bits */
  }
  mpfr_clear(q);
}

/* length of p (n components, patterns of f) */
static uint64_t kb_r_length(kb_fmt f, const uint64_t *p, unsigned n) {
  bool inf = false;
  for (unsigned i = 0; i < n; ++i) {
    if (kb_isnan(f, p[i])) return kb_quiet(f, p[i]);
    if (kb_isinf(f, p[i])) inf = true;
  }
  if (inf) return kb_inf(f);
  mpfr_t s, r;
  mpfr_init2(s, KB_WIDE);
  mpfr_init2(r, kb_fi[f].prec);
  kb_sumsq(s, f, p, n);
  int t = mpfr_sqrt(r, s, MPFR_RNDN); /* in MPFR's default (wide) exponent range */
  kb_range_save sv = kb_range_push(f);
  uint64_t out = kb_mp_finish(f, r, t, MPFR_RNDN); /* overflow / subnormal rounding, once */
  kb_range_pop(sv);
  mpfr_clears(s, r, (mpfr_ptr)0);
  return out;
}

static void kb_r_normalize(kb_fmt f, const uint64_t *p, unsigned n, uint64_t *out) {
  uint64_t q[4];
  bool allzero = true, inf = false;
  for (unsigned i = 0; i < n; ++i) {
    if (kb_isnan(f, p[i])) {
      for (unsigned j = 0; j < n; ++j) out[j] = kb_quiet(f, p[i]);
      return;
    }
    if (!kb_iszero(f, p[i])) allzero = false;
    if (kb_isinf(f, p[i])) inf = true;
  }
  if (allzero) {
    memcpy(out, p, n * sizeof *p);
    return;
  }
  for (unsigned i = 0; i < n; ++i)
    q[i] = !inf ? p[i] : (p[i] & kb_signbit(f)) | (kb_isinf(f, p[i]) ? kb_from_d(f, 1.0) : 0);
  for (unsigned i = 0; i < n; ++i) {
    if (kb_iszero(f, q[i])) {
      out[i] = q[i];
      continue;
    } /* +-0 / |p| = +-0 */
    for (mpfr_prec_t prec = 160;; prec *= 2) {
      assert_true(prec <= 1 << 15);
      mpfr_t s, sl, sh, x, lo, hi;
      mpfr_init2(s, KB_WIDE);
      mpfr_inits2(prec, sl, sh, x, lo, hi, (mpfr_ptr)0);
      kb_sumsq(s, f, q, n);
      mpfr_sqrt(sl, s, MPFR_RNDD);
      mpfr_sqrt(sh, s, MPFR_RNDU);
      mpfr_set_d(x, fabs(kb_val(f, q[i])), MPFR_RNDN);
      mpfr_div(lo, x, sh, MPFR_RNDD);
      mpfr_div(hi, x, sl, MPFR_RNDU);
      uint64_t a = kb_round_mp(f, lo, MPFR_RNDN), b = kb_round_mp(f, hi, MPFR_RNDN);
      mpfr_clears(s, sl, sh, x, lo, hi, (mpfr_ptr)0);
      if (a == b) {
        out[i] = a | (q[i] & kb_signbit(f));
        break;
      }
    }
  }
}

/* RN(a*b - c*d) from the exact products; NaN: policy over (a, b, c, d) */
static uint64_t kb_r_cross1(kb_fmt f, uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  mpfr_t x, y, z;
  mpfr_inits2(KB_WIDE, x, y, z, (mpfr_ptr)0);
  kb_mp_set(x, f, a);
  kb_mp_set(y, f, b);
  mpfr_mul(x, x, y, MPFR_RNDN); /* exact */
  kb_mp_set(y, f, c);
  kb_mp_set(z, f, d);
  mpfr_mul(y, y, z, MPFR_RNDN);
  mpfr_sub(x, x, y, MPFR_RNDN); /* exact; IEEE signs of zero, inf - inf = NaN */
  uint64_t r = kb_round_mp(f, x, MPFR_RNDN);
  mpfr_clears(x, y, z, (mpfr_ptr)0);
  if (kb_isnan(f, r)) {
    uint64_t ops[4] = {a, b, c, d};
    r = kb_nan_policy(f, ops, 4);
  }
  return r;
}

/* dot as OpDot: s = RN(a0 b0); s = RN(s + RN(ai bi)) */
static uint64_t kb_r_dot(kb_fmt f, const uint64_t *a, const uint64_t *b, unsigned n) {
  uint64_t s = kb_op(f, '*', a[0], b[0]);
  for (unsigned i = 1; i < n; ++i) s = kb_op(f, '+', s, kb_op(f, '*', a[i], b[i]));
  return s;
}

typedef struct kb_gvar {
  const char *sfx;
  kb_fmt f;
  unsigned comps, slots;
  bool fast, cross;
} kb_gvar;
static const kb_gvar kb_gvars[] = {
  {"f", KB_F, 1, 1, true, false},  {"f2", KB_F, 2, 2, true, false}, {"f3", KB_F, 3, 4, true, true},
  {"f4", KB_F, 4, 4, true, true},  {"d", KB_D, 1, 1, false, false}, {"d2", KB_D, 2, 2, false, false},
  {"d3", KB_D, 3, 4, false, true}, {"d4", KB_D, 4, 4, false, true}, {"h4", KB_H, 4, 4, false, true},
};

/* a component for vector j, kind chosen per vector */
static uint64_t kb_geom_comp(kb_fmt f, unsigned kind) {
  int emax = kb_emax(f), eminsub = kb_fi[f].emin_norm - (int)kb_fi[f].prec + 1;
  switch (kind) {
  case 0: return kb_rand_log(f, -6, 6, false);                           /* ordinary */
  case 1: return kb_rand_log(f, emax - 3, emax, false);                  /* squares overflow */
  case 2: return kb_rand_log(f, eminsub, kb_fi[f].emin_norm / 2, false); /* squares underflow */
  case 3: return kb_rand_log(f, eminsub, emax, false);                   /* anything finite */
  default: return kb_from_d(f, (double)kb_irange(-20, 20));              /* small integers */
  }
}

/* vector j of input block k: special vectors first, then random ones */
static void kb_geom_vec(kb_fmt f, unsigned comps, size_t j, uint64_t *a, uint64_t *b) {
  unsigned kind = (unsigned)(j % 5);
  for (unsigned c = 0; c < comps; ++c) {
    a[c] = kb_geom_comp(f, kind);
    b[c] = (j % 7 == 3) ? a[c] : kb_geom_comp(f, (kind + c) % 5);
  }
  if (j % 6 == 5 && comps > 1) a[1] = b[0] = 0; /* a zero component */
  if (j >= 24) return;
  /* hand-picked vectors in the first 24 */
  uint64_t one = kb_from_d(f, 1.0), sb = kb_signbit(f);
  for (unsigned c = 0; c < comps; ++c) a[c] = b[c] = 0;
  switch (j) {
  case 0: break; /* zero vector */
  case 1:
    for (unsigned c = 0; c < comps; ++c) a[c] = sb;
    break; /* -0 vector */
  case 2:
    a[0] = kb_from_d(f, 3);
    if (comps > 1) a[1] = kb_from_d(f, -4);
    break; /* 3-4-5 */
  case 3:
    for (unsigned c = 0; c < comps; ++c) {
      a[c] = kb_maxfin(f);
      b[c] = sb | kb_maxfin(f);
    }
    break;
  case 4:
    for (unsigned c = 0; c < comps; ++c) a[c] = 1;
    b[0] = sb | 1;
    break; /* min subnormals */
  case 5:
    a[comps - 1] = kb_inf(f);
    b[0] = one;
    break;
  case 6:
    a[0] = sb | kb_inf(f);
    if (comps > 1) a[1] = kb_inf(f);
    break;
  case 7:
    a[0] = one;
    a[comps - 1] = kb_canon(f) | 3;
    b[0] = kb_inf(f);
    break;
  case 8:
    a[0] = kb_inf(f) | 5;
    if (comps > 1) a[1] = kb_canon(f);
    b[0] = kb_inf(f);
    break; /* sNaN first */
  case 9:  /* the exact tie of math.md: length(10066335, 13421780) = 16777225 -> 16777224 (float) */
    a[0] = kb_from_d(f, f == KB_F ? 10066335 : 3);
    if (comps > 1) a[1] = kb_from_d(f, f == KB_F ? 13421780 : 4);
    break;
  case 10:
    for (unsigned c = 0; c < comps; ++c) {
      a[c] = one;
      b[c] = kb_from_d(f, 1 + c);
    }
    break;
  case 11:
    a[0] = kb_maxfin(f);
    if (comps > 1) a[1] = 1;
    break; /* huge and tiny */
  case 12:
    for (unsigned c = 0; c < comps; ++c) {
      a[c] = kb_inf(f);
      b[c] = kb_inf(f);
    }
    break; /* inf - inf */
  case 13:
    a[0] = kb_from_d(f, 0.5);
    b[comps > 1 ? 1 : 0] = sb | kb_from_d(f, 0.25);
    break;
  default:
    for (unsigned c = 0; c < comps; ++c) {
      a[c] = kb_geom_comp(f, (unsigned)(j + c) % 5);
      b[c] = kb_geom_comp(f, (unsigned)(j + 2 * c) % 5);
      if (j % 2 && c == 1) b[c] = a[c] ^ sb;
    }
    break;
  }
}

enum { KG_DOT, KG_LENGTH, KG_DISTANCE, KG_NORMALIZE, KG_FLENGTH, KG_FDISTANCE, KG_FNORMALIZE, KG_CROSS, KG_NFN };
static const char *const kb_geom_names[KG_NFN] = {"dot",         "length",        "distance",       "normalize",
                                                  "fast_length", "fast_distance", "fast_normalize", "cross"};

typedef struct kb_gslot {
  int8_t fn;
  uint16_t comp;
  uint64_t a[4], b[4], want;
} kb_gslot;
typedef struct kb_gcheck {
  const kb_gvar *v;
  size_t ns, nv;
  const kb_gslot *ss, *vs;
} kb_gcheck;

static void kb_geom_show(const kb_gvar *v, const uint64_t *p, char *buf, size_t n) {
  size_t k = (size_t)snprintf(buf, n, "(");
  for (unsigned c = 0; c < v->comps && k < n; ++c) {
    char t[80];
    kb_fmtval(v->f, p[c], t, sizeof t);
    k += (size_t)snprintf(buf + k, n - k, "%s%s", c ? ", " : "", t);
  }
  if (k < n) snprintf(buf + k, n - k, ")");
}

static void kb_check_geom(const kt_run *r, void *u) {
  const kb_gcheck *c = u;
  kb_report rep = {r, 0, 0, 30};
  kb_fmt f = c->v->f;
  for (int o = 0; o < 2; ++o) {
    size_t cnt = o == 0 ? c->ns : c->nv;
    const kb_gslot *sl = o == 0 ? c->ss : c->vs;
    kt_require(r, r->bytes[o] == cnt * kb_bytes(f), "argument %d: %zu bytes", o, r->bytes[o]);
    for (size_t i = 0; i < cnt; ++i) {
      const kb_gslot *s = &sl[i];
      if (s->fn < 0) continue;
      uint64_t got = kb_get(f, r->buf[o], i);
      bool ok = got == s->want;
      if (s->fn == KG_DOT && kb_isnan(f, s->want)) ok = kb_isnan(f, got); /* core arithmetic */
      if (ok) continue;
      char a[400], b[400], g[80], w[80];
      kb_geom_show(c->v, s->a, a, sizeof a);
      kb_geom_show(c->v, s->b, b, sizeof b);
      kb_fmtval(f, got, g, sizeof g);
      kb_fmtval(f, s->want, w, sizeof w);
      kb_bad(&rep, "arg %d [%zu] %s%s component %u of %s%s%s = %s, expected %s", o, i, kb_geom_names[s->fn], c->v->sfx,
             s->comp, a,
             s->fn == KG_DISTANCE || s->fn == KG_FDISTANCE || s->fn == KG_DOT || s->fn == KG_CROSS ? ", " : "",
             s->fn == KG_DISTANCE || s->fn == KG_FDISTANCE || s->fn == KG_DOT || s->fn == KG_CROSS ? b : "", g, w);
    }
  }
  kb_report_end(&rep, "geometric results");
}

static void kb_geom_test(size_t vi) {
  const kb_gvar *v = &kb_gvars[vi];
  kb_fmt f = v->f;
  size_t n = 96, blk = n * v->slots;
  uint64_t *a = kb_alloc(8 * blk * 8), *b = kb_alloc(8 * blk * 8);
  kb_gslot *ss = kb_alloc(5 * n * sizeof *ss), *vs = kb_alloc(3 * blk * sizeof *vs);
  for (size_t i = 0; i < 5 * n; ++i) ss[i].fn = -1;
  for (size_t i = 0; i < 3 * blk; ++i) vs[i].fn = -1;
  for (int k = 0; k < KG_NFN; ++k) {
    if (!v->fast && (k == KG_FLENGTH || k == KG_FDISTANCE || k == KG_FNORMALIZE)) continue;
    if (!v->cross && k == KG_CROSS) continue;
    kt_seed(0xB3E000 + (uint64_t)k * 59 + vi);
    for (size_t j = 0; j < n; ++j) {
      uint64_t pa[4] = {0}, pb[4] = {0};
      kb_geom_vec(f, v->comps, j, pa, pb);
      size_t e = ((size_t)k * n + j) * v->slots;
      for (unsigned c = 0; c < v->comps; ++c) {
        a[e + c] = pa[c];
        b[e + c] = pb[c];
      }
      kb_gslot base;
      memset(&base, 0, sizeof base);
      base.fn = (int8_t)k;
      memcpy(base.a, pa, sizeof pa);
      memcpy(base.b, pb, sizeof pb);
      switch (k) {
      case KG_DOT:
      case KG_LENGTH:
      case KG_DISTANCE:
      case KG_FLENGTH:
      case KG_FDISTANCE: {
        kb_gslot *s = &ss[(k < 3 ? (size_t)k : (size_t)k - 1) * n + j];
        *s = base;
        if (k == KG_DOT) s->want = kb_r_dot(f, pa, pb, v->comps);
        else if (k == KG_LENGTH || k == KG_FLENGTH) s->want = kb_r_length(f, pa, v->comps);
        else {
          uint64_t d[4];
          for (unsigned c = 0; c < v->comps; ++c) {
            d[c] = kb_op(f, '-', pa[c], pb[c]);
            if (kb_isnan(f, d[c])) {
              uint64_t ops[2] = {pa[c], pb[c]};
              d[c] = kb_nan_policy(f, ops, 2);
            }
          }
          s->want = kb_r_length(f, d, v->comps);
        }
        break;
      }
      case KG_NORMALIZE:
      case KG_FNORMALIZE:
      case KG_CROSS: {
        uint64_t w[4] = {0};
        if (k == KG_CROSS) {
          w[0] = kb_r_cross1(f, pa[1], pb[2], pa[2], pb[1]);
          w[1] = kb_r_cross1(f, pa[2], pb[0], pa[0], pb[2]);
          w[2] = kb_r_cross1(f, pa[0], pb[1], pa[1], pb[0]);
          w[3] = 0;
        } else {
          kb_r_normalize(f, pa, v->comps, w);
        }
        size_t blkno = k == KG_NORMALIZE ? 0 : k == KG_FNORMALIZE ? 1 : 2;
        for (unsigned c = 0; c < v->comps; ++c) {
          kb_gslot *s = &vs[blkno * blk + j * v->slots + c];
          *s = base;
          s->comp = (uint16_t)c;
          s->want = w[c];
        }
        break;
      }
      default: break;
      }
    }
  }
  uint32_t nn = (uint32_t)n;
  kb_gcheck chk = {v, 5 * n, 3 * blk, ss, vs};
  char kernel[32];
  snprintf(kernel, sizeof kernel, "geom_%s", v->sfx);
  size_t es = kb_bytes(f);
  kt_case c = {.file = "bi_geom",
               .kernel = kernel,
               .args = {KT_BUF_IN(NULL, 5 * n * es), KT_BUF_IN(NULL, 3 * blk * es),
                        KT_BUF_IN(kb_pack(f, a, 8 * blk), 8 * blk * es),
                        KT_BUF_IN(kb_pack(f, b, 8 * blk), 8 * blk * es), KT_VALUE(&nn)},
               .range = {1, {n}, {KB_LOCAL}, {0}},
               .check = kb_check_geom,
               .user = &chk};
  kt_run_case(&c);
}

/* hand-derived values of the references */
static void test_geom_reference(void **state) {
  (void)state;
  uint64_t p[4];
  p[0] = kb_from_d(KB_F, 3);
  p[1] = kb_from_d(KB_F, -4);
  assert_int_equal(kb_r_length(KB_F, p, 2), kb_from_d(KB_F, 5));
  /* 10066335^2 + 13421780^2 = 101331100365225 + 180142178388400 = 281473278753625 = 16777225^2;
   * 16777225 is the midpoint of 16777224 and 16777226: even -> 16777224 */
  p[0] = kb_from_d(KB_F, 10066335);
  p[1] = kb_from_d(KB_F, 13421780);
  assert_true(kb_val(KB_F, kb_r_length(KB_F, p, 2)) == 16777224.0);
  p[0] = p[1] = 0x7f7fffff; /* sqrt(2) FLT_MAX > FLT_MAX */
  assert_int_equal(kb_r_length(KB_F, p, 2), 0x7f800000);
  p[0] = p[1] = p[2] = p[3] = kb_from_d(KB_F, 0x1p100); /* 2 * 2^100, no overflow */
  assert_int_equal(kb_r_length(KB_F, p, 4), kb_from_d(KB_F, 0x1p101));
  p[0] = 1;
  p[1] = 0; /* the smallest subnormal, no underflow */
  assert_int_equal(kb_r_length(KB_F, p, 2), 1);
  p[0] = kb_from_d(KB_F, 3);
  p[1] = kb_from_d(KB_F, -4);
  uint64_t w[4];
  kb_r_normalize(KB_F, p, 2, w);
  assert_true(kb_val(KB_F, w[0]) == (double)0.6f && kb_val(KB_F, w[1]) == (double)-0.8f);
  p[0] = kb_from_d(KB_F, -0x1p-149);
  p[1] = kb_inf(KB_F); /* (-0, 1) */
  kb_r_normalize(KB_F, p, 2, w);
  assert_true(w[0] == 0x80000000 && w[1] == 0x3f800000);
  /* cross((1,0,0), (0,1,0)) = (0,0,1): component x = 0*0 - 0*1 = +0 */
  assert_int_equal(kb_r_cross1(KB_F, 0, 0, 0, kb_from_d(KB_F, 1)), 0);
  assert_int_equal(kb_r_cross1(KB_F, 0x80000000, 0x3f800000, 0, 0x3f800000), 0x80000000); /* -0 - +0 */
  /* cancellation: (1+2^-23)^2 - 1*(1+2^-22) = 2^-46 exactly (a separate rounding would give 0) */
  assert_int_equal(kb_r_cross1(KB_F, 0x3f800001, 0x3f800001, 0x3f800000, 0x3f800002), kb_from_d(KB_F, 0x1p-46));
}

/* clang-format off */
#define KB_GEOM_T(i, name) static void test_geom_##name(void **s) { (void)s; kb_geom_test(i); }
KB_GEOM_T(0, f) KB_GEOM_T(1, f2) KB_GEOM_T(2, f3) KB_GEOM_T(3, f4) KB_GEOM_T(4, d) KB_GEOM_T(5, d2)
KB_GEOM_T(6, d3) KB_GEOM_T(7, d4) KB_GEOM_T(8, h4)
  /* clang-format on */

  int main(void) {
  const struct CMUnitTest tests[] = {
    KB_TEST(test_geom_reference), KB_TEST(test_geom_f),  KB_TEST(test_geom_f2), KB_TEST(test_geom_f3),
    KB_TEST(test_geom_f4),        KB_TEST(test_geom_d),  KB_TEST(test_geom_d2), KB_TEST(test_geom_d3),
    KB_TEST(test_geom_d4),        KB_TEST(test_geom_h4),
  };
  return cmocka_run_group_tests_name("kernel_builtins_geom", tests, NULL, NULL);
}
