/*
 * test_kernel_builtins_common.c — OpenCL C common functions (C 6.15.4) through
 * tests/kernels/bi_common.cl: mix smoothstep step sign degrees radians clamp min max, and their
 * scalar-broadcast overloads, on float, float4, float3, double, double2, half, half4.
 *
 * Expected values, from spvi's documented definitions (spec-notes/math.md "Common functions",
 * builtins.md), each arithmetic operation rounded once by MPFR in the format (kb_op):
 *   mix(x, y, a) = RN(x + RN(RN(y - x) * a));
 *   smoothstep(e0, e1, x): t = RN(RN(x - e0) / RN(e1 - e0)), t = fmin(fmax(t, 0), 1),
 *     RN(RN(t * t) * RN(3 - 2t));
 *   step(edge, x) = x < edge ? 0 : 1;  sign: +-1, +-0 kept, NaN -> +0;
 *   degrees/radians: the correctly rounded product with 180/pi (pi/180), from an MPFR enclosure of
 *     pi refined until both ends round alike;
 *   clamp = fmin(fmax(x, lo), hi) (lo <= hi), min/max = fmin/fmax (NaN operand ignored, -0 < +0).
 * NaN results: the NaN policy over the operands (first NaN quieted, else canonical).
 */
#include "kernel_builtins_harness.h"

/* correctly rounded x * 180/pi (deg) or x * pi/180 */
static uint64_t kb_r_degrad(kb_fmt f, uint64_t x, bool deg) {
  if (kb_isnan(f, x)) return kb_quiet(f, x);
  if (kb_isinf(f, x) || kb_iszero(f, x)) return x;
  bool neg = kb_neg(f, x);
  mpfr_t ax, pl, ph, lo, hi;
  uint64_t out = 0;
  for (mpfr_prec_t p = 128;; p *= 2) {
    assert_true(p <= 1 << 16);
    mpfr_inits2(p, ax, pl, ph, lo, hi, (mpfr_ptr)0);
    mpfr_set_d(ax, fabs(kb_val(f, x)), MPFR_RNDN); /* exact */
    mpfr_const_pi(pl, MPFR_RNDD);
    mpfr_const_pi(ph, MPFR_RNDU);
    if (deg) {                             /* |x| 180 / pi */
      mpfr_mul_ui(ax, ax, 180, MPFR_RNDN); /* exact: p >= 128 */
      mpfr_div(lo, ax, ph, MPFR_RNDD);
      mpfr_div(hi, ax, pl, MPFR_RNDU);
    } else { /* |x| pi / 180 */
      mpfr_mul(lo, ax, pl, MPFR_RNDD);
      mpfr_div_ui(lo, lo, 180, MPFR_RNDD);
      mpfr_mul(hi, ax, ph, MPFR_RNDU);
      mpfr_div_ui(hi, hi, 180, MPFR_RNDU);
    }
    uint64_t a = kb_round_mp(f, lo, MPFR_RNDN), b = kb_round_mp(f, hi, MPFR_RNDN);
    mpfr_clears(ax, pl, ph, lo, hi, (mpfr_ptr)0);
    if (a == b) {
      out = a;
      break;
    }
  }
  return neg ? out | kb_signbit(f) : out;
}

static uint64_t kb_r_mix(kb_fmt f, uint64_t x, uint64_t y, uint64_t a) {
  return kb_op(f, '+', x, kb_op(f, '*', kb_op(f, '-', y, x), a));
}
static uint64_t kb_r_smoothstep(kb_fmt f, uint64_t e0, uint64_t e1, uint64_t x) {
  uint64_t t = kb_op(f, '/', kb_op(f, '-', x, e0), kb_op(f, '-', e1, e0));
  t = kb_fmaxmin(f, kb_fmaxmin(f, t, 0, true), kb_from_d(f, 1.0), false);
  uint64_t tt = kb_op(f, '*', t, t);
  uint64_t u = kb_op(f, '-', kb_from_d(f, 3.0), kb_op(f, '*', kb_from_d(f, 2.0), t));
  return kb_op(f, '*', tt, u);
}
static uint64_t kb_r_step(kb_fmt f, uint64_t edge, uint64_t x) {
  bool less = !kb_isnan(f, x) && !kb_isnan(f, edge) && kb_val(f, x) < kb_val(f, edge);
  return less ? 0 : kb_from_d(f, 1.0);
}
static uint64_t kb_r_sign(kb_fmt f, uint64_t x) {
  if (kb_isnan(f, x)) return 0;
  double v = kb_val(f, x);
  return v > 0 ? kb_from_d(f, 1.0) : v < 0 ? kb_from_d(f, -1.0) : x;
}

enum {
  KC_MIX,
  KC_SMOOTH,
  KC_STEP,
  KC_SIGN,
  KC_DEG,
  KC_RAD,
  KC_CLAMP,
  KC_MIN,
  KC_MAX,
  KC_MIX_S,
  KC_STEP_S,
  KC_SMOOTH_S,
  KC_CLAMP_S,
  KC_MIN_S,
  KC_MAX_S,
  KC_NFN
};
static const char *const kb_common_names[KC_NFN] = {"mix",
                                                    "smoothstep",
                                                    "step",
                                                    "sign",
                                                    "degrees",
                                                    "radians",
                                                    "clamp",
                                                    "min",
                                                    "max",
                                                    "mix(.., scalar)",
                                                    "step(scalar, ..)",
                                                    "smoothstep(scalar, scalar, ..)",
                                                    "clamp(.., scalar, scalar)",
                                                    "min(.., scalar)",
                                                    "max(.., scalar)"};

/* operands of function k, lane j: x, y, z (before the broadcast of lane 0) */
static void kb_common_gen(kb_fmt f, int k, size_t j, uint64_t *x, uint64_t *y, uint64_t *z) {
  int emax = kb_emax(f), eminsub = kb_fi[f].emin_norm - (int)kb_fi[f].prec + 1;
  *z = 0;
  switch (k) {
  case KC_MIX:
  case KC_MIX_S:
    if (j < KB_NS2 * KB_NS2 / 2) {
      *x = kb_special2(f, (unsigned)(j / KB_NS2));
      *y = kb_special2(f, (unsigned)(j % KB_NS2));
    } else {
      *x = kb_rand_log(f, -8, 8, false);
      *y = kb_rand_log(f, -8, 8, false);
    }
    *z = j % 9 == 0 ? kb_from_d(f, (double)(j % 2)) : kb_rand_unif(f, 0, 1);
    return;
  case KC_SMOOTH:
  case KC_SMOOTH_S: {
    double e0 = kb_val(f, kb_rand_unif(f, -50, 50)), w = kb_val(f, kb_rand_log(f, -10, 5, true));
    *x = kb_from_d(f, e0);
    *y = kb_round_d(f, e0 + w, MPFR_RNDU);
    if (kb_val(f, *y) <= e0) *y = kb_from_d(f, e0 + 1);
    double lo = kb_val(f, *x), hi = kb_val(f, *y);
    *z = j % 11 == 0 ? kb_special(f, (unsigned)(j / 11)) : kb_rand_unif(f, lo - (hi - lo) / 4, hi + (hi - lo) / 4);
    if (kb_isnan(f, *z)) *z = kb_inf(f); /* NaN x is undefined by the spec */
    return;
  }
  case KC_STEP:
  case KC_STEP_S:
  case KC_MIN:
  case KC_MAX:
  case KC_MIN_S:
  case KC_MAX_S:
    if (j < KB_NS2 * KB_NS2) {
      *x = kb_special2(f, (unsigned)(j / KB_NS2));
      *y = kb_special2(f, (unsigned)(j % KB_NS2));
      return;
    }
    *x = kb_rand_unif(f, -4, 4);
    *y = j % 5 == 0 ? *x : kb_rand_unif(f, -4, 4);
    return;
  case KC_SIGN:
  case KC_DEG:
  case KC_RAD:
    *x = j < KB_NSPEC ? kb_special(f, (unsigned)j) : kb_rand_log(f, eminsub, emax, false);
    *y = 0;
    return;
  default: { /* clamp: lo <= hi */
    *x = j < KB_NSPEC ? kb_special(f, (unsigned)j) : kb_rand_unif(f, -10, 10);
    uint64_t p = kb_rand_unif(f, -8, 8), q = kb_rand_unif(f, -8, 8);
    if (j % 13 == 0) q = p;
    if (kb_val(f, p) > kb_val(f, q)) {
      uint64_t t = p;
      p = q;
      q = t;
    }
    *y = p;
    *z = q;
    return;
  }
  }
}

static uint64_t kb_common_ref(kb_fmt f, int k, uint64_t x, uint64_t y, uint64_t z) {
  switch (k) {
  case KC_MIX:
  case KC_MIX_S: return kb_r_mix(f, x, y, z);
  case KC_SMOOTH:
  case KC_SMOOTH_S: return kb_r_smoothstep(f, x, y, z);
  case KC_STEP:
  case KC_STEP_S: return kb_r_step(f, x, y);
  case KC_SIGN: return kb_r_sign(f, x);
  case KC_DEG: return kb_r_degrad(f, x, true);
  case KC_RAD: return kb_r_degrad(f, x, false);
  case KC_CLAMP:
  case KC_CLAMP_S: return kb_fmaxmin(f, kb_fmaxmin(f, x, y, true), z, false);
  case KC_MIN:
  case KC_MIN_S: return kb_fmaxmin(f, x, y, false);
  default: return kb_fmaxmin(f, x, y, true);
  }
}
static int kb_common_nops(int k) {
  switch (k) {
  case KC_MIX:
  case KC_MIX_S:
  case KC_SMOOTH:
  case KC_SMOOTH_S:
  case KC_CLAMP:
  case KC_CLAMP_S: return 3;
  case KC_SIGN:
  case KC_DEG:
  case KC_RAD: return 1;
  default: return 2;
  }
}

typedef struct kb_cvar {
  const char *sfx;
  kb_fmt f;
  unsigned lanes, slots;
} kb_cvar;
static const kb_cvar kb_cvars[] = {
  {"f", KB_F, 1, 1},  {"f4", KB_F, 4, 4}, {"f3", KB_F, 3, 4}, {"d", KB_D, 1, 1},
  {"d2", KB_D, 2, 2}, {"h", KB_H, 1, 1},  {"h4", KB_H, 4, 4},
};

static void kb_common_test(size_t vi) {
  const kb_cvar *v = &kb_cvars[vi];
  kb_fmt f = v->f;
  size_t n = (320 + v->lanes - 1) / v->lanes;
  n = (n + KB_LOCAL - 1) / KB_LOCAL * KB_LOCAL;
  size_t count = KC_NFN * n * v->slots;
  uint64_t *a = kb_alloc(count * 8), *b = kb_alloc(count * 8), *c = kb_alloc(count * 8);
  kb_slot *slot = kb_new_slots(count);
  for (int k = 0; k < KC_NFN; ++k) {
    kt_seed(0xB2C000 + (uint64_t)k * 53 + vi);
    for (size_t vec = 0; vec < n; ++vec) {
      size_t e0 = (k * n + vec) * v->slots;
      for (unsigned l = 0; l < v->lanes; ++l)
        kb_common_gen(f, k, vec * v->lanes + l, &a[e0 + l], &b[e0 + l], &c[e0 + l]);
      for (unsigned l = 0; l < v->lanes; ++l) {
        size_t e = e0 + l;
        uint64_t x = a[e], y = b[e], z = c[e];
        /* broadcast operands: component x (lane 0) of the vector */
        if (k == KC_MIX_S) z = c[e0];
        if (k == KC_STEP_S) x = a[e0];
        if (k == KC_SMOOTH_S) {
          x = a[e0];
          y = b[e0];
        }
        if (k == KC_CLAMP_S) {
          y = b[e0];
          z = c[e0];
        }
        if (k == KC_MIN_S || k == KC_MAX_S) y = b[e0];
        kb_slot *s = &slot[e];
        s->fn = (uint16_t)k;
        s->nops = (uint8_t)kb_common_nops(k);
        s->op[0] = x;
        s->op[1] = y;
        s->op[2] = z;
        s->want = kb_common_ref(f, k, x, y, z);
        kb_fix_nan(f, s, false);
      }
    }
  }
  uint32_t nn = (uint32_t)n;
  kb_mcheck chk = {f, 1, {{0, false, f, count, slot, kb_common_names}}};
  char kernel[32];
  snprintf(kernel, sizeof kernel, "common_%s", v->sfx);
  size_t bytes = count * kb_bytes(f);
  kt_case cs = {.file = "bi_common",
                .kernel = kernel,
                .args = {KT_BUF_IN(NULL, bytes), KT_BUF_IN(kb_pack(f, a, count), bytes),
                         KT_BUF_IN(kb_pack(f, b, count), bytes), KT_BUF_IN(kb_pack(f, c, count), bytes), KT_VALUE(&nn)},
                .range = {1, {n}, {KB_LOCAL}, {0}},
                .check = kb_check_math,
                .user = &chk};
  kt_run_case(&cs);
}

/* hand-derived values of the references */
static void test_common_reference(void **state) {
  (void)state;
  uint64_t one = 0x3f800000, two = 0x40000000;
  /* degrees(1) = 57.29577951308232 = 15019744.82 * 2^-18 (float spacing at 57) -> 15019745 * 2^-18
   * = 0x42652ee1;
   * radians(180) = pi -> 0x40490fdb; degrees(pi_float) = 180.0000050... -> 180 (ulp 2^-16) */
  assert_int_equal(kb_r_degrad(KB_F, one, true), 0x42652ee1);
  assert_int_equal(kb_r_degrad(KB_F, kb_from_d(KB_F, 180), false), 0x40490fdb);
  assert_int_equal(kb_r_degrad(KB_F, 0x40490fdb, true), kb_from_d(KB_F, 180));
  assert_int_equal(kb_r_degrad(KB_D, kb_from_d(KB_D, 180), false), kb_from_d(KB_D, 3.141592653589793));
  /* mix(1, 2, 0.5) = 1.5; mix(0, 1, 1/3f) = 1/3f; mix(1, 1+2^-23, 0.5) = 1 + 2^-24 -> RN 1 */
  assert_int_equal(kb_r_mix(KB_F, one, two, 0x3f000000), 0x3fc00000);
  assert_int_equal(kb_r_mix(KB_F, one, 0x3f800001, 0x3f000000), one);
  assert_true(kb_isnan(KB_F, kb_r_mix(KB_F, kb_inf(KB_F), kb_inf(KB_F), 0x3f000000))); /* inf - inf */
  /* smoothstep(0, 2, 1): t = 0.5, 0.25 * 2 = 0.5; beyond the edges 0 and 1; NaN t -> 0 */
  assert_int_equal(kb_r_smoothstep(KB_F, 0, two, one), 0x3f000000);
  assert_int_equal(kb_r_smoothstep(KB_F, 0, two, kb_from_d(KB_F, 5)), one);
  assert_int_equal(kb_r_smoothstep(KB_F, 0, two, kb_from_d(KB_F, -5)), 0);
  assert_int_equal(kb_r_smoothstep(KB_F, 0, two, 0x80000000), 0); /* t = -0 -> fmax(-0, 0) = +0 */
  assert_int_equal(kb_r_step(KB_F, one, 0x3f7fffff), 0);
  assert_int_equal(kb_r_step(KB_F, one, one), one);
  assert_int_equal(kb_r_step(KB_F, kb_canon(KB_F), one), one);
  assert_int_equal(kb_r_sign(KB_F, 0x80000000), 0x80000000);
  assert_int_equal(kb_r_sign(KB_F, 1), one);
  assert_int_equal(kb_r_sign(KB_F, 0xffc00000), 0);
  assert_int_equal(kb_fmaxmin(KB_F, 0, 0x80000000, false), 0x80000000);
  assert_int_equal(kb_fmaxmin(KB_F, 0x80000000, 0, true), 0);
}

/* clang-format off */
#define KB_COMMON_T(i, name) static void test_common_##name(void **s) { (void)s; kb_common_test(i); }
KB_COMMON_T(0, f) KB_COMMON_T(1, f4) KB_COMMON_T(2, f3) KB_COMMON_T(3, d) KB_COMMON_T(4, d2)
KB_COMMON_T(5, h) KB_COMMON_T(6, h4)
  /* clang-format on */

  int main(void) {
  const struct CMUnitTest tests[] = {
    KB_TEST(test_common_reference), KB_TEST(test_common_f),  KB_TEST(test_common_f4), KB_TEST(test_common_f3),
    KB_TEST(test_common_d),         KB_TEST(test_common_d2), KB_TEST(test_common_h),  KB_TEST(test_common_h4),
  };
  return cmocka_run_group_tests_name("kernel_builtins_common", tests, NULL, NULL);
}
