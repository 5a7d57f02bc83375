/*
 * test_kernel_builtins_math.c — OpenCL.std math functions called from OpenCL C:
 * tests/kernels/bi_math_f.cl (float, float4, float3), bi_math_d.cl (double, double2),
 * bi_math_h.cl (half, half4).
 *
 * Kernels: un_<sfx> (one-operand functions), bin_<sfx> (two operands), ints_<sfx> (pown, rootn,
 * ldexp, ilogb), ptrs_<sfx> (sincos, fract, modf, frexp, lgamma_r, remquo: results through
 * private and global pointers), nan_<sfx> (nan(code)). Block k of each buffer belongs to the k-th
 * function of the kernel's list (kb_un[] / kb_bin[] below mirror UN_LIST, UN_FLOAT_LIST, BIN_LIST,
 * BIN_FLOAT_LIST of bi_math_f.cl).
 *
 * Expected values: MPFR at the format's precision and exponent range + subnormalize (correctly
 * rounded, docs/builtins.md: every math function is so), with the C 7.5 "Edge Case Behavior"
 * values that MPFR does not follow written out by hand (rsqrt(-0), sinpi/tanpi/cospi at integers
 * and half-integers, powr, lgamma_r's sign, remquo's quo, logb/ilogb, fract, modf, frexp); the exact
 * functions by hand from their definitions (spec-notes/math.md). NaN results: the NaN policy
 * (kb_nan_policy): the first NaN operand quieted, else the canonical quiet NaN; copysign is a sign
 * operation and passes a NaN unchanged. Results must match bit for bit.
 */
#include "kernel_builtins_harness.h"

/* ---- variants ---------------------------------------------------------------------------------- */
typedef struct kb_var {
  const char *file, *sfx;
  kb_fmt f;
  unsigned lanes, slots; /* components per vector, memory slots per vector (3-vectors: 4) */
} kb_var;

enum { KB_V_F, KB_V_F4, KB_V_F3, KB_V_F16, KB_V_D, KB_V_D2, KB_V_D3, KB_V_H, KB_V_H4, KB_V_H3, KB_NVAR };
static const kb_var kb_vars[KB_NVAR] = {
  {"bi_math_f", "f", KB_F, 1, 1},     {"bi_math_f", "f4", KB_F, 4, 4}, {"bi_math_f", "f3", KB_F, 3, 4},
  {"bi_math_f", "f16", KB_F, 16, 16}, {"bi_math_d", "d", KB_D, 1, 1},  {"bi_math_d", "d2", KB_D, 2, 2},
  {"bi_math_d", "d3", KB_D, 3, 4},    {"bi_math_h", "h", KB_H, 1, 1},  {"bi_math_h", "h4", KB_H, 4, 4},
  {"bi_math_h", "h3", KB_H, 3, 4},
};

/* KB_SCALE=k in the environment multiplies the number of math inputs (default 1) */
static size_t kb_scale(void) {
  const char *s = getenv("KB_SCALE");
  long k = s ? strtol(s, NULL, 10) : 1;
  return k >= 1 && k <= 1000 ? (size_t)k : 1;
}

/* number of vectors per block for about `lanes_wanted` lanes (a multiple of KB_LOCAL) */
static size_t kb_nvec(const kb_var *v, size_t lanes_wanted) {
  lanes_wanted *= kb_scale();
  size_t n = (lanes_wanted + v->lanes - 1) / v->lanes;
  return (n + KB_LOCAL - 1) / KB_LOCAL * KB_LOCAL;
}

/* ---- input domains ------------------------------------------------------------------------------ */
typedef enum kb_dom {
  D_ALL,
  D_TRIG,
  D_UNIT,
  D_EXP,
  D_EXP2,
  D_EXP10,
  D_HYP,
  D_POS,
  D_LOG1P,
  D_ACOSH,
  D_ERF,
  D_ERFC,
  D_GAMMA,
  D_LGAMMA,
  D_PI,
  D_RECIP
} kb_dom;

/* the i-th input of a one-operand function */
static uint64_t kb_gen1(kb_fmt f, kb_dom d, size_t i) {
  if (i < KB_NSPEC) return kb_special(f, (unsigned)i);
  const double ln2 = 0.6931471805599453, l10_2 = 0.3010299956639812;
  int emax = kb_emax(f), eminsub = kb_fi[f].emin_norm - (int)kb_fi[f].prec + 1;
  unsigned r = (unsigned)(i % 8);
  if (r == 0) return kb_rand_bits(f);
  if (r == 1) return kb_rand_log(f, eminsub, emax, false);
  if (r == 2) { /* points of interest of the domain, and their neighbours */
    uint64_t u;
    switch (d) {
    case D_PI: u = kb_from_d(f, (double)kb_irange(-80, 80) / 4); break;
    case D_GAMMA:
    case D_LGAMMA: u = kb_from_d(f, (double)kb_irange(-30, 12)); break;
    case D_POS:
    case D_LOG1P: u = kb_from_d(f, 1.0 + ldexp(kb_unif() - 0.5, -(int)kb_irange(1, 30))); break;
    case D_UNIT:
    case D_ACOSH: u = kb_from_d(f, kt_rand() & 1 ? 1.0 : -1.0); break;
    case D_EXP: u = kb_from_d(f, (kt_rand() & 1 ? emax + 1 : kb_fi[f].emin_norm - (int)kb_fi[f].prec) * ln2); break;
    case D_EXP2: u = kb_from_d(f, (double)kb_irange(eminsub - 2, emax + 2) + (kt_rand() & 1 ? 0.5 : 0)); break;
    default: u = kb_from_d(f, (double)kb_irange(-60, 60)); break;
    }
    int64_t step = kb_irange(-3, 3); /* a few ulps away (on the pattern), staying finite */
    uint64_t mag = u & ~kb_signbit(f);
    if (mag > 8 && mag < kb_inf(f) - 8) u = (u & kb_signbit(f)) | (uint64_t)((int64_t)mag + step);
    return u;
  }
  double lo, hi;
  switch (d) {
  case D_ALL:
  case D_RECIP: return kb_rand_log(f, eminsub, emax, r != 3);
  case D_TRIG:
    lo = -12;
    hi = 12;
    break;
  case D_UNIT:
    lo = -1;
    hi = 1;
    break;
  case D_EXP:
    lo = (kb_fi[f].emin_norm - (int)kb_fi[f].prec - 2) * ln2;
    hi = (emax + 2) * ln2;
    break;
  case D_EXP2:
    lo = kb_fi[f].emin_norm - (int)kb_fi[f].prec - 2;
    hi = emax + 2;
    break;
  case D_EXP10:
    lo = (kb_fi[f].emin_norm - (int)kb_fi[f].prec - 2) * l10_2;
    hi = (emax + 2) * l10_2;
    break;
  case D_HYP:
    lo = -(emax + 3) * ln2;
    hi = (emax + 3) * ln2;
    break;
  case D_POS:
    if (r == 3) return kb_rand_log(f, eminsub, emax, true);
    lo = 0;
    hi = 4;
    break;
  case D_LOG1P:
    lo = -1;
    hi = 6;
    break;
  case D_ACOSH:
    lo = 1;
    hi = 30;
    break;
  case D_ERF:
    lo = -6;
    hi = 6;
    break;
  case D_ERFC:
    lo = -6;
    hi = f == KB_H ? 5 : f == KB_F ? 12 : 28;
    break;
  case D_GAMMA:
    lo = f == KB_H ? -12 : f == KB_F ? -45 : -190;
    hi = f == KB_H ? 10 : f == KB_F ? 36 : 172;
    break;
  case D_LGAMMA:
    if (r == 3) return kb_rand_log(f, -10, emax, true);
    lo = -60;
    hi = 60;
    break;
  case D_PI:
    lo = -6;
    hi = 6;
    break;
  default:
    lo = -10;
    hi = 10;
    break;
  }
  return kb_rand_unif(f, lo, hi);
}

/* ---- one-operand references ------------------------------------------------------------------- */
typedef uint64_t (*kb_ref1)(kb_fmt f, uint64_t x);

static int kb_mpfr_lgamma(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t d) {
  int s;
  return mpfr_lgamma(r, &s, x, d);
}
static int kb_mpfr_recip(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t d) { return mpfr_ui_div(r, 1, x, d); }

/* clang-format off */
#define KB_REF1(name, mpfn) static uint64_t kb_r_##name(kb_fmt f, uint64_t x) { return kb_mp1(f, mpfn, x); }
KB_REF1(sin, mpfr_sin) KB_REF1(cos, mpfr_cos) KB_REF1(tan, mpfr_tan) KB_REF1(asin, mpfr_asin)
KB_REF1(acos, mpfr_acos) KB_REF1(atan, mpfr_atan) KB_REF1(sinh, mpfr_sinh) KB_REF1(cosh, mpfr_cosh)
KB_REF1(tanh, mpfr_tanh) KB_REF1(asinh, mpfr_asinh) KB_REF1(acosh, mpfr_acosh) KB_REF1(atanh, mpfr_atanh)
KB_REF1(exp, mpfr_exp) KB_REF1(exp2, mpfr_exp2) KB_REF1(exp10, mpfr_exp10) KB_REF1(expm1, mpfr_expm1)
KB_REF1(log, mpfr_log) KB_REF1(log2, mpfr_log2) KB_REF1(log10, mpfr_log10) KB_REF1(log1p, mpfr_log1p)
KB_REF1(sqrt, mpfr_sqrt) KB_REF1(cbrt, mpfr_cbrt) KB_REF1(erf, mpfr_erf) KB_REF1(erfc, mpfr_erfc)
KB_REF1(tgamma, mpfr_gamma) KB_REF1(lgamma, kb_mpfr_lgamma) KB_REF1(asinpi, mpfr_asinpi)
KB_REF1(acospi, mpfr_acospi) KB_REF1(atanpi, mpfr_atanpi) KB_REF1(recip, kb_mpfr_recip)
  /* clang-format on */

  /* rsqrt(-0) = -inf (C 7.5 via IEEE rSqrt; MPFR's rec_sqrt gives +inf) */
  static uint64_t kb_r_rsqrt(kb_fmt f, uint64_t x) {
  if (x == kb_signbit(f)) return kb_signbit(f) | kb_inf(f);
  return kb_mp1(f, mpfr_rec_sqrt, x);
}

/* is the finite value v an integer / an integer + 1/2 ? */
static bool kb_is_int(double v) { return isfinite(v) && v == floor(v); }
static bool kb_is_half_int(double v) { return isfinite(v) && !kb_is_int(v) && kb_is_int(2 * v); }

/* sinpi(+-n) = +-0 (sign of n, C 7.5 "sinpi(+n) returns +0 for positive integers", "-n ... -0") */
static uint64_t kb_r_sinpi(kb_fmt f, uint64_t x) {
  double v = kb_val(f, x);
  if (kb_is_int(v)) return x & kb_signbit(f);
  return kb_mp1(f, mpfr_sinpi, x);
}
/* cospi(n + 0.5) = +0 */
static uint64_t kb_r_cospi(kb_fmt f, uint64_t x) {
  if (kb_is_half_int(kb_val(f, x))) return 0;
  return kb_mp1(f, mpfr_cospi, x);
}
/* tanpi(n) = copysign(0, n) for even n, copysign(0, -n) for odd n; tanpi(n + 0.5) = +inf for even
 * n, -inf for odd n (C 7.5), n = floor(x) */
static uint64_t kb_r_tanpi(kb_fmt f, uint64_t x) {
  double v = kb_val(f, x);
  if (kb_is_int(v)) {
    bool odd = fmod(fabs(v), 2.0) == 1.0;
    return (x & kb_signbit(f)) ^ (odd ? kb_signbit(f) : 0);
  }
  if (kb_is_half_int(v)) {
    bool odd = fmod(fabs(floor(v)), 2.0) == 1.0;
    return (odd ? kb_signbit(f) : 0) | kb_inf(f);
  }
  return kb_mp1(f, mpfr_tanpi, x);
}
/* logb: the exponent of x as a value: floor(log2|x|) (subnormals as if normalized); logb(+-0) =
 * -inf, logb(+-inf) = +inf (C99 F.9.3.11) */
static uint64_t kb_r_logb(kb_fmt f, uint64_t x) {
  if (kb_isnan(f, x)) return kb_canon(f);
  if (kb_iszero(f, x)) return kb_signbit(f) | kb_inf(f);
  if (kb_isinf(f, x)) return kb_inf(f);
  int e;
  frexp(kb_val(f, x), &e);
  return kb_from_d(f, (double)(e - 1));
}

typedef struct kb_un_fn {
  const char *name;
  kb_ref1 ref;
  kb_dom dom;
} kb_un_fn;

/* UN_LIST then UN_FLOAT_LIST of bi_math_f.cl, in order */
static const kb_un_fn kb_un[] = {
  {"sin", kb_r_sin, D_TRIG},
  {"cos", kb_r_cos, D_TRIG},
  {"tan", kb_r_tan, D_TRIG},
  {"asin", kb_r_asin, D_UNIT},
  {"acos", kb_r_acos, D_UNIT},
  {"atan", kb_r_atan, D_ALL},
  {"sinh", kb_r_sinh, D_HYP},
  {"cosh", kb_r_cosh, D_HYP},
  {"tanh", kb_r_tanh, D_ERF},
  {"asinh", kb_r_asinh, D_ALL},
  {"acosh", kb_r_acosh, D_ACOSH},
  {"atanh", kb_r_atanh, D_UNIT},
  {"exp", kb_r_exp, D_EXP},
  {"exp2", kb_r_exp2, D_EXP2},
  {"exp10", kb_r_exp10, D_EXP10},
  {"expm1", kb_r_expm1, D_EXP},
  {"log", kb_r_log, D_POS},
  {"log2", kb_r_log2, D_POS},
  {"log10", kb_r_log10, D_POS},
  {"log1p", kb_r_log1p, D_LOG1P},
  {"sqrt", kb_r_sqrt, D_ALL},
  {"rsqrt", kb_r_rsqrt, D_ALL},
  {"cbrt", kb_r_cbrt, D_ALL},
  {"erf", kb_r_erf, D_ERF},
  {"erfc", kb_r_erfc, D_ERFC},
  {"tgamma", kb_r_tgamma, D_GAMMA},
  {"lgamma", kb_r_lgamma, D_LGAMMA},
  {"sinpi", kb_r_sinpi, D_PI},
  {"cospi", kb_r_cospi, D_PI},
  {"tanpi", kb_r_tanpi, D_PI},
  {"asinpi", kb_r_asinpi, D_UNIT},
  {"acospi", kb_r_acospi, D_UNIT},
  {"atanpi", kb_r_atanpi, D_ALL},
  {"logb", kb_r_logb, D_ALL},
  /* float only (half_* and native_* are spvi's correctly rounded base functions) */
  {"half_cos", kb_r_cos, D_TRIG},
  {"half_exp", kb_r_exp, D_EXP},
  {"half_exp2", kb_r_exp2, D_EXP2},
  {"half_exp10", kb_r_exp10, D_EXP10},
  {"half_log", kb_r_log, D_POS},
  {"half_log2", kb_r_log2, D_POS},
  {"half_log10", kb_r_log10, D_POS},
  {"half_recip", kb_r_recip, D_RECIP},
  {"half_rsqrt", kb_r_rsqrt, D_ALL},
  {"half_sin", kb_r_sin, D_TRIG},
  {"half_sqrt", kb_r_sqrt, D_ALL},
  {"half_tan", kb_r_tan, D_TRIG},
  {"native_cos", kb_r_cos, D_TRIG},
  {"native_exp", kb_r_exp, D_EXP},
  {"native_exp2", kb_r_exp2, D_EXP2},
  {"native_exp10", kb_r_exp10, D_EXP10},
  {"native_log", kb_r_log, D_POS},
  {"native_log2", kb_r_log2, D_POS},
  {"native_log10", kb_r_log10, D_POS},
  {"native_recip", kb_r_recip, D_RECIP},
  {"native_rsqrt", kb_r_rsqrt, D_ALL},
  {"native_sin", kb_r_sin, D_TRIG},
  {"native_sqrt", kb_r_sqrt, D_ALL},
  {"native_tan", kb_r_tan, D_TRIG},
};
enum { KB_NUN_ALL = 34, KB_NUN_FLOAT = (int)(sizeof kb_un / sizeof kb_un[0]) };

/* ---- two-operand references -------------------------------------------------------------------- */
typedef uint64_t (*kb_ref2)(kb_fmt f, uint64_t x, uint64_t y);
/* clang-format off */
#define KB_REF2(name, mpfn) static uint64_t kb_r_##name(kb_fmt f, uint64_t x, uint64_t y) { return kb_mp2(f, mpfn, x, y); }
KB_REF2(atan2, mpfr_atan2) KB_REF2(atan2pi, mpfr_atan2pi) KB_REF2(pow, mpfr_pow) KB_REF2(hypot, mpfr_hypot)
KB_REF2(fmod, mpfr_fmod) KB_REF2(remainder, mpfr_remainder) KB_REF2(divide, mpfr_div)
  /* clang-format on */

  /* powr from its definition exp(y log x) and the C 7.5 list */
  static uint64_t kb_r_powr(kb_fmt f, uint64_t x, uint64_t y) {
  const uint64_t one = kb_from_d(f, 1.0), pinf = kb_inf(f), nan = kb_canon(f);
  if (kb_isnan(f, x) || kb_isnan(f, y)) return nan; /* "returns the NaN" (policy applied later) */
  double vx = kb_val(f, x), vy = kb_val(f, y);
  if (vx < 0) return nan; /* x < 0, -inf included */
  if (vx == 0) {
    if (vy == 0) return nan;  /* powr(+-0, +-0) */
    return vy < 0 ? pinf : 0; /* +inf for y < 0 and -inf, +0 for y > 0 */
  }
  if (isinf(vx)) {
    if (vy == 0) return nan; /* powr(+inf, +-0) */
    return vy > 0 ? pinf : 0;
  }
  if (vx == 1) return isinf(vy) ? nan : one; /* powr(+1, +-inf) = NaN, else 1 */
  if (vy == 0) return one;                   /* finite x > 0 */
  if (isinf(vy)) return ((vx > 1) == (vy > 0)) ? pinf : 0;
  return kb_mp2(f, mpfr_pow, x, y); /* x > 0 finite, y finite: exp(y log x) */
}
/* fdim: x - y rounded once if x > y, else +0; a NaN operand gives NaN */
static uint64_t kb_r_fdim(kb_fmt f, uint64_t x, uint64_t y) {
  if (kb_isnan(f, x) || kb_isnan(f, y)) return kb_canon(f);
  return kb_val(f, x) > kb_val(f, y) ? kb_op(f, '-', x, y) : 0;
}
/* nextafter on the patterns: y when x == y (C99 F.9.8.3), the smallest subnormal toward y from a
 * zero (C 7.5), otherwise one step of the magnitude toward y */
static uint64_t kb_r_nextafter(kb_fmt f, uint64_t x, uint64_t y) {
  if (kb_isnan(f, x) || kb_isnan(f, y)) return kb_canon(f);
  double vx = kb_val(f, x), vy = kb_val(f, y);
  if (vx == vy) return y;
  if (vx == 0) return (vy > 0 ? 0 : kb_signbit(f)) | 1;
  bool up = (vy > vx) == (vx > 0); /* magnitude grows */
  return up ? x + 1 : x - 1;
}
/* maxmag: x if |x| > |y|, y if |y| > |x|, else fmax(x, y) (C 6.15.2); minmag likewise */
static uint64_t kb_r_maxmag(kb_fmt f, uint64_t x, uint64_t y) {
  double ax = fabs(kb_val(f, x)), ay = fabs(kb_val(f, y));
  if (ax > ay) return x;
  if (ay > ax) return y;
  return kb_fmaxmin(f, x, y, true);
}
static uint64_t kb_r_minmag(kb_fmt f, uint64_t x, uint64_t y) {
  double ax = fabs(kb_val(f, x)), ay = fabs(kb_val(f, y));
  if (ax < ay) return x;
  if (ay < ax) return y;
  return kb_fmaxmin(f, x, y, false);
}
/* copysign: the magnitude bits of x with the sign bit of y (a sign-bit operation, NaN unchanged) */
static uint64_t kb_r_copysign(kb_fmt f, uint64_t x, uint64_t y) { return (x & ~kb_signbit(f)) | (y & kb_signbit(f)); }

typedef enum kb_bdom { B_ANY, B_POW, B_POWR, B_MOD, B_NEXT, B_MAG } kb_bdom;
typedef struct kb_bin_fn {
  const char *name;
  kb_ref2 ref;
  kb_bdom dom;
  bool raw_nan;
} kb_bin_fn;

/* BIN_LIST then BIN_FLOAT_LIST of bi_math_f.cl */
static const kb_bin_fn kb_bin[] = {
  {"atan2", kb_r_atan2, B_ANY, false},
  {"atan2pi", kb_r_atan2pi, B_ANY, false},
  {"pow", kb_r_pow, B_POW, false},
  {"powr", kb_r_powr, B_POWR, false},
  {"hypot", kb_r_hypot, B_ANY, false},
  {"fmod", kb_r_fmod, B_MOD, false},
  {"remainder", kb_r_remainder, B_MOD, false},
  {"fdim", kb_r_fdim, B_ANY, false},
  {"nextafter", kb_r_nextafter, B_NEXT, false},
  {"maxmag", kb_r_maxmag, B_MAG, false},
  {"minmag", kb_r_minmag, B_MAG, false},
  {"copysign", kb_r_copysign, B_ANY, true},
  {"half_divide", kb_r_divide, B_ANY, false},
  {"half_powr", kb_r_powr, B_POWR, false},
  {"native_divide", kb_r_divide, B_ANY, false},
  {"native_powr", kb_r_powr, B_POWR, false},
};
enum { KB_NBIN_ALL = 12, KB_NBIN_FLOAT = (int)(sizeof kb_bin / sizeof kb_bin[0]) };

/* the i-th operand pair of a two-operand function */
static void kb_gen2(kb_fmt f, kb_bdom d, size_t i, uint64_t *x, uint64_t *y) {
  if (i < KB_NS2 * KB_NS2) {
    *x = kb_special2(f, (unsigned)(i / KB_NS2));
    *y = kb_special2(f, (unsigned)(i % KB_NS2));
    return;
  }
  int emax = kb_emax(f), eminsub = kb_fi[f].emin_norm - (int)kb_fi[f].prec + 1;
  unsigned r = (unsigned)(i % 4);
  switch (d) {
  case B_POW:
  case B_POWR: {
    /* x = +-2^e(1+u) with |y log2 x| up to about 1.2 emax: results reach overflow and underflow */
    bool neg = d == B_POW && r == 1;
    *x = kb_rand_log(f, -12, 12, true);
    if (neg) *x |= kb_signbit(f);
    double l = fabs(log2(fabs(kb_val(f, *x))));
    double lim = l > 1e-3 ? 1.2 * (emax - eminsub / 2) / l : 1e4;
    if (lim > 1e4) lim = 1e4;
    if (neg || r == 2) *y = kb_from_d(f, (double)kb_irange(-(int64_t)lim, (int64_t)lim)); /* integers */
    else *y = kb_rand_unif(f, -lim, lim);
    if (r == 3 && (i & 4)) {
      *x = kb_rand_bits(f);
      *y = kb_rand_bits(f);
    }
    return;
  }
  case B_MOD: {
    /* exponent gaps from -3 to 40; also exact ties for remainder: x = (2k+1) y / 2 */
    int maxgap = f == KB_H ? 12 : 40;
    int ey = (int)kb_irange(eminsub, emax - maxgap - 1);
    *y = kb_rand_log(f, ey, ey, false);
    if (r == 3) {
      uint64_t k = (uint64_t)kb_irange(0, 200);
      *y = kb_from_d(f, (double)kb_irange(1, 64) * 0.25);
      *x = kb_from_d(f, (double)(2 * k + 1) * kb_val(f, *y) / 2); /* exact: a few bits */
      if (kt_rand() & 1) *x ^= kb_signbit(f);
      return;
    }
    int gap = (int)kb_irange(-3, r == 2 ? 8 : maxgap);
    *x = kb_rand_log(f, ey + gap, ey + gap, false);
    return;
  }
  case B_NEXT:
    *x = r == 0 ? kb_rand_bits(f) : kb_rand_log(f, eminsub, emax, false);
    *y = r == 1   ? *x
         : r == 2 ? (kt_rand() & 1 ? kb_inf(f) : kb_signbit(f) | kb_inf(f))
                  : kb_rand_log(f, eminsub, emax, false);
    return;
  case B_MAG:
    *x = r == 0 ? kb_rand_bits(f) : kb_rand_log(f, -10, 10, false);
    *y = r == 1 ? *x ^ kb_signbit(f) : r == 2 ? *x : kb_rand_log(f, -10, 10, false);
    return;
  case B_ANY:
  default:
    if (r == 0) {
      *x = kb_rand_bits(f);
      *y = kb_rand_bits(f);
      return;
    }
    if (r == 1) {
      *x = kb_rand_log(f, eminsub, emax, false);
      *y = kb_rand_log(f, eminsub, emax, false);
      return;
    }
    *x = kb_rand_unif(f, -10, 10);
    *y = kb_rand_unif(f, -10, 10);
    return;
  }
}

/* ---- expected slots and the check --------------------------------------------------------------- */
/* slot index of lane l of vector v in block k */
static size_t kb_sidx(const kb_var *v, size_t n, size_t k, size_t vec, size_t l) {
  return (k * n + vec) * v->slots + l;
}
static const char *kb_un_names[KB_NUN_FLOAT];
static const char *kb_bin_names[KB_NBIN_FLOAT];

static void kb_init_names(void) {
  for (int i = 0; i < KB_NUN_FLOAT; ++i) kb_un_names[i] = kb_un[i].name;
  for (int i = 0; i < KB_NBIN_FLOAT; ++i) kb_bin_names[i] = kb_bin[i].name;
}

/* ---- un_<sfx> ------------------------------------------------------------------------------------ */
static void kb_math_un(int var) {
  const kb_var *v = &kb_vars[var];
  kb_fmt f = v->f;
  int nfn = f == KB_F ? KB_NUN_FLOAT : KB_NUN_ALL;
  size_t n = kb_nvec(v, 640), count = (size_t)nfn * n * v->slots;
  uint64_t *in = kb_alloc(count * 8);
  kb_slot *slot = kb_new_slots(count);
  kb_init_names();
  for (int k = 0; k < nfn; ++k) {
    kt_seed(0xB1A000 + (uint64_t)k * 31 + (uint64_t)var);
    for (size_t vec = 0; vec < n; ++vec)
      for (unsigned l = 0; l < v->lanes; ++l) {
        size_t e = kb_sidx(v, n, (size_t)k, vec, l);
        kb_slot *s = &slot[e];
        s->fn = (uint16_t)k;
        s->nops = 1;
        s->op[0] = in[e] = kb_gen1(f, kb_un[k].dom, vec * v->lanes + l);
        s->want = kb_un[k].ref(f, s->op[0]);
        kb_fix_nan(f, s, false);
      }
  }
  uint32_t nn = (uint32_t)n;
  kb_mcheck chk = {f, 1, {{0, false, f, count, slot, kb_un_names}}};
  char kernel[32];
  snprintf(kernel, sizeof kernel, "un_%s", v->sfx);
  kt_case c = {.file = v->file,
               .kernel = kernel,
               .args = {KT_BUF_IN(NULL, count * kb_bytes(f)), KT_BUF_IN(kb_pack(f, in, count), count * kb_bytes(f)),
                        KT_VALUE(&nn)},
               .range = {1, {n}, {KB_LOCAL}, {0}},
               .check = kb_check_math,
               .user = &chk};
  kt_run_case(&c);
}

/* ---- bin_<sfx> ----------------------------------------------------------------------------------- */
static void kb_math_bin(int var) {
  const kb_var *v = &kb_vars[var];
  kb_fmt f = v->f;
  int nfn = f == KB_F ? KB_NBIN_FLOAT : KB_NBIN_ALL;
  size_t n = kb_nvec(v, 640), count = (size_t)nfn * n * v->slots;
  uint64_t *a = kb_alloc(count * 8), *b = kb_alloc(count * 8);
  kb_slot *slot = kb_new_slots(count);
  kb_init_names();
  for (int k = 0; k < nfn; ++k) {
    kt_seed(0xB1B000 + (uint64_t)k * 37 + (uint64_t)var);
    for (size_t vec = 0; vec < n; ++vec)
      for (unsigned l = 0; l < v->lanes; ++l) {
        size_t e = kb_sidx(v, n, (size_t)k, vec, l);
        kb_slot *s = &slot[e];
        s->fn = (uint16_t)k;
        s->nops = 2;
        kb_gen2(f, kb_bin[k].dom, vec * v->lanes + l, &s->op[0], &s->op[1]);
        a[e] = s->op[0];
        b[e] = s->op[1];
        s->want = kb_bin[k].ref(f, s->op[0], s->op[1]);
        kb_fix_nan(f, s, kb_bin[k].raw_nan);
      }
  }
  uint32_t nn = (uint32_t)n;
  kb_mcheck chk = {f, 1, {{0, false, f, count, slot, kb_bin_names}}};
  char kernel[32];
  snprintf(kernel, sizeof kernel, "bin_%s", v->sfx);
  size_t bytes = count * kb_bytes(f);
  kt_case c = {.file = v->file,
               .kernel = kernel,
               .args = {KT_BUF_IN(NULL, bytes), KT_BUF_IN(kb_pack(f, a, count), bytes),
                        KT_BUF_IN(kb_pack(f, b, count), bytes), KT_VALUE(&nn)},
               .range = {1, {n}, {KB_LOCAL}, {0}},
               .check = kb_check_math,
               .user = &chk};
  kt_run_case(&c);
}

/* ---- ints_<sfx>: pown, rootn, ldexp, ilogb ----------------------------------------------------- */
static uint64_t kb_r_pown(kb_fmt f, uint64_t x, long n) { return kb_mpl(f, mpfr_pow_si, x, n); }
static uint64_t kb_r_rootn(kb_fmt f, uint64_t x, long n) {
  if (n == 0) return kb_canon(f); /* rootn(x, 0) = NaN */
  return kb_mpl(f, mpfr_rootn_si, x, n);
}
static uint64_t kb_r_ldexp(kb_fmt f, uint64_t x, long n) { return kb_mpl(f, mpfr_mul_2si, x, n); }
/* ilogb: the exponent as an int; FP_ILOGB0 = INT_MIN for +-0, FP_ILOGBNAN = INT_MAX for NaN
 * (clang's opencl-c-base.h), INT_MAX for +-inf (C99 7.12.6.5) */
static int32_t kb_r_ilogb(kb_fmt f, uint64_t x) {
  if (kb_isnan(f, x) || kb_isinf(f, x)) return INT32_MAX;
  if (kb_iszero(f, x)) return INT32_MIN;
  int e;
  frexp(kb_val(f, x), &e);
  return e - 1;
}

static const char *const kb_int_names[] = {"pown", "rootn", "ldexp", "ilogb"};

static void kb_math_ints(int var) {
  const kb_var *v = &kb_vars[var];
  kb_fmt f = v->f;
  size_t n = kb_nvec(v, 512), blk = n * v->slots;
  uint64_t *x = kb_alloc(4 * blk * 8);
  int32_t *m = kb_alloc(3 * blk * 4);
  kb_slot *so = kb_new_slots(3 * blk), *si = kb_new_slots(blk);
  int emax = kb_emax(f), eminsub = kb_fi[f].emin_norm - (int)kb_fi[f].prec + 1;
  for (int k = 0; k < 4; ++k) {
    kt_seed(0xB1C000 + (uint64_t)k * 41 + (uint64_t)var);
    for (size_t vec = 0; vec < n; ++vec)
      for (unsigned l = 0; l < v->lanes; ++l) {
        size_t j = vec * v->lanes + l, e = kb_sidx(v, n, (size_t)k, vec, l);
        uint64_t xv;
        int32_t iv = 0;
        if (j < KB_NSPEC * 3) { /* every special with three exponents */
          static const int32_t ex[3][4] = {{0, 0, 1, 0}, {-1, 2, -1, 0}, {3, -3, 1000, 0}};
          xv = kb_special(f, (unsigned)(j / 3));
          iv = ex[j % 3][k];
        } else {
          switch (k) {
          case 0: /* pown: x = 2^e(1+u), n with |n e| about the format's range */
            xv = kb_rand_log(f, -6, 6, j % 3 == 0);
            iv = (int32_t)kb_irange(-(emax + 20) / 3, (emax + 20) / 3);
            if (j % 17 == 0) iv = (int32_t)kb_irange(-3, 3);
            if (j % 23 == 0) {
              xv = kb_from_d(f, (double)kb_irange(-40, 40));
              iv = (int32_t)kb_irange(0, 12);
            }
            break;
          case 1: /* rootn: n in [-10, 10], perfect powers sometimes */
            iv = (int32_t)kb_irange(-10, 10);
            xv = j % 4 == 0 ? kb_rand_bits(f) : kb_rand_log(f, eminsub, emax, j % 4 != 1);
            if (j % 5 == 0 && iv != 0) {
              double base = (double)kb_irange(-9, 9);
              int64_t p = iv < 0 ? -(int64_t)iv : iv;
              double pv = pow(base, (double)p);
              if (fabs(pv) < 60000) xv = kb_from_d(f, pv);
            }
            break;
          case 2: /* ldexp: k reaching overflow and the subnormal range, and beyond */
            xv = j % 4 == 0 ? kb_rand_bits(f) : kb_rand_log(f, eminsub, emax, false);
            iv = (int32_t)kb_irange(-(emax - eminsub + 10), emax - eminsub + 10);
            if (j % 29 == 0) iv = j % 2 ? INT32_MAX : INT32_MIN;
            break;
          default: /* ilogb */ xv = j % 2 ? kb_rand_bits(f) : kb_rand_log(f, eminsub, emax, false); break;
          }
        }
        x[e] = xv;
        if (k < 3) {
          m[e] = iv;
          kb_slot *s = &so[e];
          s->fn = (uint16_t)k;
          s->nops = 1;
          s->has_int = true;
          s->op[0] = xv;
          s->iop = iv;
          s->want = k == 0 ? kb_r_pown(f, xv, iv) : k == 1 ? kb_r_rootn(f, xv, iv) : kb_r_ldexp(f, xv, iv);
          kb_fix_nan(f, s, false);
        } else {
          kb_slot *s = &si[e - 3 * blk];
          s->fn = 3;
          s->nops = 1;
          s->op[0] = xv;
          s->want = (uint32_t)kb_r_ilogb(f, xv);
        }
      }
  }
  uint32_t nn = (uint32_t)n;
  kb_mcheck chk = {f, 2, {{0, false, f, 3 * blk, so, kb_int_names}, {1, true, f, blk, si, kb_int_names}}};
  char kernel[32];
  snprintf(kernel, sizeof kernel, "ints_%s", v->sfx);
  kt_case c = {.file = v->file,
               .kernel = kernel,
               .args = {KT_BUF_IN(NULL, 3 * blk * kb_bytes(f)), KT_BUF_IN(NULL, blk * 4),
                        KT_BUF_IN(kb_pack(f, x, 4 * blk), 4 * blk * kb_bytes(f)), KT_BUF_IN(m, 3 * blk * 4),
                        KT_VALUE(&nn)},
               .range = {1, {n}, {KB_LOCAL}, {0}},
               .check = kb_check_math,
               .user = &chk};
  kt_run_case(&c);
}

/* ---- ptrs_<sfx>: sincos, fract, modf, frexp, lgamma_r, remquo ----------------------------------- */
/* fract: min(x - floor(x) rounded once, the largest value below 1); 7.5: fract(+-0) = +-0,
 * fract(+-inf) = +-0 (with +-inf stored), NaN: NaN in both */
static void kb_r_fract(kb_fmt f, uint64_t x, uint64_t *frac, uint64_t *flo) {
  if (kb_isnan(f, x)) {
    *frac = *flo = kb_quiet(f, x);
    return;
  }
  if (kb_isinf(f, x)) {
    *frac = x & kb_signbit(f);
    *flo = x;
    return;
  }
  if (kb_iszero(f, x)) {
    *frac = *flo = x;
    return;
  }
  double fl = floor(kb_val(f, x));
  *flo = kb_enc(f, fl);
  uint64_t d = kb_op(f, '-', x, *flo);
  uint64_t below1 = kb_from_d(f, 1.0) - 1; /* 0x1.ff..fp-1 */
  *frac = kb_val(f, d) >= 1.0 ? below1 : d;
}
/* modf as C 7.5.1 defines it: *iptr = trunc(x); copysign(isinf(x) ? 0 : x - *iptr, x) */
static void kb_r_modf(kb_fmt f, uint64_t x, uint64_t *frac, uint64_t *ip) {
  if (kb_isnan(f, x)) {
    *frac = *ip = kb_quiet(f, x);
    return;
  }
  double vx = kb_val(f, x), t = trunc(vx);
  *ip = kb_enc(f, t);
  double fr = isinf(vx) ? 0.0 : vx - t; /* exact: the fraction bits of x */
  *frac = kb_enc(f, copysign(fr, vx));
}
/* frexp: C99 F.9.3.4 and 7.5 (inf and NaN: exponent 0) */
static void kb_r_frexp(kb_fmt f, uint64_t x, uint64_t *mant, int32_t *ex) {
  *ex = 0;
  if (kb_isnan(f, x)) {
    *mant = kb_quiet(f, x);
    return;
  }
  if (kb_isinf(f, x) || kb_iszero(f, x)) {
    *mant = x;
    return;
  }
  int e;
  double m = frexp(kb_val(f, x), &e);
  *mant = kb_enc(f, m);
  *ex = e;
}
/* the sign of Gamma(x) as lgamma_r stores it: 0 for +-0 and negative integers (7.5), and (spvi,
 * math.md) for -inf and NaN; +1 for x > 0 and +inf; for negative non-integers (-1)^ceil(-x) */
static int32_t kb_r_lgamma_sign(kb_fmt f, uint64_t x) {
  if (kb_isnan(f, x) || kb_iszero(f, x)) return 0;
  double vx = kb_val(f, x);
  if (vx > 0) return 1;
  if (isinf(vx) || vx == floor(vx)) return 0;
  return fmod(-floor(vx), 2.0) == 1.0 ? -1 : 1;
}
/* remquo: remainder's value; quo = the 7 low bits of |k| with the sign of x/y, k the rounded
 * quotient (spvi's definition, math.md); 7.5: NaN and quo 0 for x = +-inf, y = 0 or a NaN;
 * y = +-inf: x and 0 */
static void kb_r_remquo(kb_fmt f, uint64_t x, uint64_t y, uint64_t *rem, int32_t *quo) {
  *quo = 0;
  mpfr_t a, b, r;
  mpfr_inits2(64, a, b, (mpfr_ptr)0);
  mpfr_init2(r, kb_fi[f].prec);
  kb_mp_set(a, f, x);
  kb_mp_set(b, f, y);
  long q = 0;
  kb_range_save s = kb_range_push(f);
  int t = mpfr_remquo(r, &q, a, b, MPFR_RNDN);
  *rem = kb_mp_finish(f, r, t, MPFR_RNDN);
  kb_range_pop(s);
  mpfr_clears(a, b, r, (mpfr_ptr)0);
  if (kb_isnan(f, *rem) || kb_isinf(f, y) || kb_iszero(f, x)) return;
  long mag = (q < 0 ? -q : q) % 128;
  *quo = (int32_t)((kb_neg(f, x) != kb_neg(f, y)) ? -mag : mag);
}

static const char *const kb_ptr_names[] = {"sincos",    "fract",     "modf",          "frexp",
                                           "lgamma_r",  "remquo",    "sincos.cos",    "fract.iptr",
                                           "modf.iptr", "frexp.exp", "lgamma_r.sign", "remquo.quo"};

static void kb_math_ptrs(int var) {
  const kb_var *v = &kb_vars[var];
  kb_fmt f = v->f;
  size_t n = kb_nvec(v, 512), blk = n * v->slots;
  uint64_t *a = kb_alloc(6 * blk * 8), *b = kb_alloc(6 * blk * 8);
  kb_slot *s1 = kb_new_slots(6 * blk), *s2 = kb_new_slots(3 * blk), *si = kb_new_slots(3 * blk);
  static const kb_dom dom[6] = {D_TRIG, D_ALL, D_ALL, D_ALL, D_LGAMMA, D_ALL};
  for (int k = 0; k < 6; ++k) {
    kt_seed(0xB1D000 + (uint64_t)k * 43 + (uint64_t)var);
    for (size_t vec = 0; vec < n; ++vec)
      for (unsigned l = 0; l < v->lanes; ++l) {
        size_t j = vec * v->lanes + l, e = kb_sidx(v, n, (size_t)k, vec, l), e0 = kb_sidx(v, n, 0, vec, l);
        kb_slot *s = &s1[e];
        s->fn = (uint16_t)k;
        s->nops = k == 5 ? 2 : 1;
        if (k == 5) kb_gen2(f, B_MOD, j, &s->op[0], &s->op[1]);
        else s->op[0] = kb_gen1(f, dom[k], j);
        if (k == 1 && j % 5 == 4) s->op[0] = kb_from_d(f, -ldexp(1.0, -(int)kb_irange(1, 60))); /* tiny negatives */
        a[e] = s->op[0];
        b[e] = s->op[1];
        uint64_t w1 = 0, w2 = 0;
        int32_t wi = 0;
        switch (k) {
        case 0:
          w1 = kb_r_sin(f, s->op[0]);
          w2 = kb_r_cos(f, s->op[0]);
          break;
        case 1: kb_r_fract(f, s->op[0], &w1, &w2); break;
        case 2: kb_r_modf(f, s->op[0], &w1, &w2); break;
        case 3: kb_r_frexp(f, s->op[0], &w1, &wi); break;
        case 4:
          w1 = kb_r_lgamma(f, s->op[0]);
          wi = kb_r_lgamma_sign(f, s->op[0]);
          break;
        default: kb_r_remquo(f, s->op[0], s->op[1], &w1, &wi); break;
        }
        s->want = w1;
        kb_fix_nan(f, s, false);
        if (k <= 2) { /* second float result: o2 block k */
          kb_slot *t = &s2[e];
          *t = *s;
          t->fn = (uint16_t)(6 + k);
          t->want = w2;
          kb_fix_nan(f, t, false);
        } else { /* int result: oi block k - 3 */
          kb_slot *t = &si[e0 + (size_t)(k - 3) * blk];
          *t = *s;
          t->fn = (uint16_t)(6 + k);
          t->want = (uint32_t)wi;
        }
      }
  }
  uint32_t nn = (uint32_t)n;
  kb_mcheck chk = {f,
                   3,
                   {{0, false, f, 6 * blk, s1, kb_ptr_names},
                    {1, false, f, 3 * blk, s2, kb_ptr_names},
                    {2, true, f, 3 * blk, si, kb_ptr_names}}};
  char kernel[32];
  snprintf(kernel, sizeof kernel, "ptrs_%s", v->sfx);
  size_t es = kb_bytes(f);
  kt_case c = {.file = v->file,
               .kernel = kernel,
               .args = {KT_BUF_IN(NULL, 6 * blk * es), KT_BUF_IN(NULL, 3 * blk * es), KT_BUF_IN(NULL, 3 * blk * 4),
                        KT_BUF_IN(kb_pack(f, a, 6 * blk), 6 * blk * es),
                        KT_BUF_IN(kb_pack(f, b, 6 * blk), 6 * blk * es), KT_VALUE(&nn)},
               .range = {1, {n}, {KB_LOCAL}, {0}},
               .check = kb_check_math,
               .user = &chk};
  kt_run_case(&c);
}

/* ---- nan_<sfx>: nan(code) = canonical quiet NaN | the low payload bits of code (spvi, math.md) */
static const char *const kb_nan_names[] = {"nan"};

static void kb_math_nan(int var) {
  const kb_var *v = &kb_vars[var];
  kb_fmt f = v->f;
  size_t n = 2 * KB_LOCAL, count = n * v->slots;
  uint64_t *code = kb_alloc(count * 8);
  kb_slot *slot = kb_new_slots(count);
  kt_seed(0xB1E000 + (uint64_t)var);
  for (size_t vec = 0; vec < n; ++vec)
    for (unsigned l = 0; l < v->lanes; ++l) {
      size_t j = vec * v->lanes + l, e = vec * v->slots + l;
      uint64_t cd = j == 0 ? 0 : j == 1 ? ~0ull : j == 2 ? 1 : j == 3 ? kb_qbit(f) : kt_rand();
      if (kb_fi[f].bits < 64) cd &= (1ull << kb_fi[f].bits) - 1;
      code[e] = cd;
      kb_slot *s = &slot[e];
      s->fn = 0;
      s->nops = 0;
      s->iop = (int64_t)cd;
      s->want = kb_canon(f) | (cd & (kb_qbit(f) - 1));
    }
  kb_mcheck chk = {f, 1, {{0, false, f, count, slot, kb_nan_names}}};
  char kernel[32];
  snprintf(kernel, sizeof kernel, "nan_%s", v->sfx);
  kt_case c = {.file = v->file,
               .kernel = kernel,
               .args = {KT_BUF_IN(NULL, count * kb_bytes(f)), KT_BUF_IN(kb_pack(f, code, count), count * kb_bytes(f))},
               .range = {1, {n}, {KB_LOCAL}, {0}},
               .check = kb_check_math,
               .user = &chk};
  kt_run_case(&c);
}

/* ---- the oracle itself, against hand-derived values ------------------------------------------ */
static void test_math_oracle(void **state) {
  (void)state;
  /* rounding by hand (kb_round_d): 1 + 2^-11 is the midpoint of 1 and 1 + 2^-10 in half: RN -> 1
   * (even), RU -> 0x3c01; 1 + 3*2^-11 -> 1 + 2^-9 (0x3c02, even); 65520 = 65504 + 16 is the
   * midpoint above the largest half: RN -> inf, RZ -> 65504 (0x7bff); 2^-25 is half the smallest
   * subnormal: RN -> +0 (even), 3*2^-26 -> 2^-24 (0x0001); -2^-25 RD -> -2^-24 (0x8001) */
  assert_int_equal(kb_round_d(KB_H, 1 + 0x1p-11, MPFR_RNDN), 0x3c00);
  assert_int_equal(kb_round_d(KB_H, 1 + 0x1p-11, MPFR_RNDU), 0x3c01);
  assert_int_equal(kb_round_d(KB_H, 1 + 0x3p-11, MPFR_RNDN), 0x3c02);
  assert_int_equal(kb_round_d(KB_H, 65520, MPFR_RNDN), 0x7c00);
  assert_int_equal(kb_round_d(KB_H, 65520, MPFR_RNDZ), 0x7bff);
  assert_int_equal(kb_round_d(KB_H, 0x1p-25, MPFR_RNDN), 0x0000);
  assert_int_equal(kb_round_d(KB_H, 0x3p-26, MPFR_RNDN), 0x0001);
  assert_int_equal(kb_round_d(KB_H, -0x1p-25, MPFR_RNDD), 0x8001);
  assert_int_equal(kb_round_d(KB_F, 1 + 0x1p-24, MPFR_RNDN), 0x3f800000);
  assert_int_equal(kb_round_d(KB_F, 1 + 0x1p-24, MPFR_RNDU), 0x3f800001);
  assert_true(kb_val(KB_H, 0x0001) == 0x1p-24 && kb_val(KB_H, 0x7bff) == 65504 && kb_val(KB_H, 0x3555) == 0x1.554p-2);
  /* sqrt(2) in half: 1.41421356 * 1024 = 1448.15 -> 1448 = 0x5a8 -> 0x3da8; in float 0x3fb504f3 */
  assert_int_equal(kb_r_sqrt(KB_H, 0x4000), 0x3da8);
  assert_int_equal(kb_r_sqrt(KB_F, 0x40000000), 0x3fb504f3);
  /* exp(1) in float: e = 0x1.5bf0a8b1...p+1 -> 0x402df854 */
  assert_int_equal(kb_r_exp(KB_F, 0x3f800000), 0x402df854);
  /* exp(-100) = 3.7200759760e-44 = 26.547 * 2^-149 -> the subnormal 27 * 2^-149 */
  assert_int_equal(kb_r_exp(KB_F, kb_from_d(KB_F, -100)), 27);
  /* pow(4097, 2) = 16785409, the midpoint of 16785408 and 16785410: even -> 16785408 */
  assert_true(kb_val(KB_F, kb_r_pow(KB_F, kb_from_d(KB_F, 4097), kb_from_d(KB_F, 2))) == 16785408.0);
  /* C 7.5 cases written by hand above: MPFR agrees where it is used */
  assert_int_equal(kb_r_rsqrt(KB_F, 0x80000000), 0xff800000);
  assert_int_equal(kb_r_tanpi(KB_F, kb_from_d(KB_F, -0.5)), 0xff800000); /* n = -1 odd */
  assert_int_equal(kb_r_tanpi(KB_F, kb_from_d(KB_F, 3)), 0x80000000);    /* copysign(0, -3) */
  assert_int_equal(kb_r_tanpi(KB_F, kb_from_d(KB_F, -2)), 0x80000000);   /* copysign(0, -2) */
  assert_int_equal(kb_r_sinpi(KB_F, kb_from_d(KB_F, -3)), 0x80000000);
  assert_int_equal(kb_r_cospi(KB_F, kb_from_d(KB_F, -1.5)), 0);
  assert_int_equal(kb_r_pown(KB_F, kb_canon(KB_F), 0), 0x3f800000); /* pown(NaN, 0) = 1 */
  assert_int_equal(kb_r_pown(KB_F, 0x80000000, -3), 0xff800000);    /* pown(-0, odd < 0) */
  assert_int_equal(kb_r_pown(KB_F, 0x80000000, -2), 0x7f800000);    /* pown(-0, even < 0) */
  assert_int_equal(kb_r_rootn(KB_F, 0x80000000, 2), 0);             /* rootn(-0, even > 0) = +0 */
  assert_int_equal(kb_r_rootn(KB_F, 0x80000000, -3), 0xff800000);   /* rootn(-0, odd < 0) */
  assert_int_equal(kb_r_rootn(KB_F, 0x80000000, -2), 0x7f800000);   /* rootn(-0, even < 0) */
  assert_true(kb_isnan(KB_F, kb_r_rootn(KB_F, kb_from_d(KB_F, -8), 2)));
  assert_true(kb_val(KB_F, kb_r_rootn(KB_F, kb_from_d(KB_F, -8), 3)) == -2.0);
  assert_int_equal(kb_r_pow(KB_F, 0x80000000, 0xff800000), 0x7f800000); /* pow(-0, -inf) = +inf */
  assert_int_equal(kb_r_hypot(KB_F, 0xff800000, kb_canon(KB_F)), 0x7f800000);
  assert_int_equal(kb_r_atan2pi(KB_F, 0x80000000, 0x80000000), 0xbf800000); /* atan2pi(-0, -0) = -1 */
  assert_int_equal(kb_r_atan2pi(KB_F, 0x7f800000, 0xff800000), kb_from_d(KB_F, 0.75));
  assert_int_equal(kb_r_atanpi(KB_F, 0xff800000), kb_from_d(KB_F, -0.5));
  assert_int_equal(kb_r_acospi(KB_F, 0x3f800000), 0);
  assert_int_equal(kb_r_exp10(KB_F, 0xff800000), 0);
  assert_int_equal(kb_r_tgamma(KB_F, 0x80000000), 0xff800000);
  assert_int_equal(kb_r_lgamma(KB_F, kb_from_d(KB_F, -3)), 0x7f800000);
  assert_int_equal(kb_r_lgamma(KB_F, 0xff800000), 0x7f800000);
  assert_int_equal(kb_r_fmod(KB_F, kb_from_d(KB_F, 3), 0x7f800000), kb_from_d(KB_F, 3));
  assert_int_equal(kb_r_fmod(KB_F, 0x80000000, kb_from_d(KB_F, 3)), 0x80000000);
  /* remainder(5, 2) = 1 (k = 2, the tie 2.5 to even); remquo(-7, 2): -3.5 -> k = -4, r = 1, quo = -4 */
  assert_true(kb_val(KB_F, kb_r_remainder(KB_F, kb_from_d(KB_F, 5), kb_from_d(KB_F, 2))) == 1.0);
  {
    uint64_t rr;
    int32_t q;
    kb_r_remquo(KB_F, kb_from_d(KB_F, -7), kb_from_d(KB_F, 2), &rr, &q);
    assert_true(kb_val(KB_F, rr) == 1.0 && q == -4);
    /* 333 / 1 = 333, 333 mod 128 = 77 */
    kb_r_remquo(KB_D, kb_from_d(KB_D, 333), kb_from_d(KB_D, 1), &rr, &q);
    assert_true(kb_iszero(KB_D, rr) && q == 77);
  }
  /* fract(-2^-30) rounds to 1 and becomes 0x1.fffffep-1 */
  {
    uint64_t fr, fl;
    kb_r_fract(KB_F, kb_from_d(KB_F, -0x1p-30), &fr, &fl);
    assert_int_equal(fr, 0x3f7fffff);
    assert_true(kb_val(KB_F, fl) == -1.0);
  }
  assert_int_equal(kb_r_lgamma_sign(KB_F, kb_from_d(KB_F, -0.5)), -1); /* Gamma(-0.5) = -2 sqrt(pi) */
  assert_int_equal(kb_r_lgamma_sign(KB_F, kb_from_d(KB_F, -1.5)), 1);  /* Gamma(-1.5) = 4 sqrt(pi) / 3 */
  assert_int_equal(kb_r_ilogb(KB_H, 0x0001), -24);
  assert_int_equal(kb_r_logb(KB_F, 1), kb_from_d(KB_F, -149));
  assert_int_equal(kb_r_nextafter(KB_F, 0x80000000, 0x3f800000), 1);
  assert_int_equal(kb_r_nextafter(KB_F, 0x7f7fffff, 0x7f800000), 0x7f800000);
  assert_int_equal(kb_r_maxmag(KB_F, 0xbf800000, 0x3f800000), 0x3f800000);
  assert_int_equal(kb_r_minmag(KB_F, 0x3f800000, 0xbf800000), 0xbf800000);
  /* powr cases: powr(1, NaN) is the NaN (policy applied by the caller), powr(-0, -inf) = +inf */
  assert_true(kb_isnan(KB_F, kb_r_powr(KB_F, 0x3f800000, kb_canon(KB_F))));
  assert_int_equal(kb_r_powr(KB_F, 0x80000000, 0xff800000), 0x7f800000);
  /* NaN policy: first NaN operand, quieted */
  uint64_t ops[2] = {0x3f800000, 0xff800001};
  assert_int_equal(kb_nan_policy(KB_F, ops, 2), 0xffc00001);
}

#define KB_MATH_VAR_TESTS(V, name)              \
  static void test_math_un_##name(void **s) {   \
    (void)s;                                    \
    kb_math_un(V);                              \
  }                                             \
  static void test_math_bin_##name(void **s) {  \
    (void)s;                                    \
    kb_math_bin(V);                             \
  }                                             \
  static void test_math_ints_##name(void **s) { \
    (void)s;                                    \
    kb_math_ints(V);                            \
  }                                             \
  static void test_math_ptrs_##name(void **s) { \
    (void)s;                                    \
    kb_math_ptrs(V);                            \
  }                                             \
  static void test_math_nan_##name(void **s) {  \
    (void)s;                                    \
    kb_math_nan(V);                             \
  }
KB_MATH_VAR_TESTS(KB_V_F, f)
KB_MATH_VAR_TESTS(KB_V_F4, f4)
KB_MATH_VAR_TESTS(KB_V_F3, f3)
KB_MATH_VAR_TESTS(KB_V_F16, f16)
KB_MATH_VAR_TESTS(KB_V_D, d)
KB_MATH_VAR_TESTS(KB_V_D2, d2)
KB_MATH_VAR_TESTS(KB_V_D3, d3)
KB_MATH_VAR_TESTS(KB_V_H, h)
KB_MATH_VAR_TESTS(KB_V_H4, h4)
KB_MATH_VAR_TESTS(KB_V_H3, h3)

#define KB_MATH_VAR_LIST(name)                                                                 \
  KB_TEST(test_math_un_##name), KB_TEST(test_math_bin_##name), KB_TEST(test_math_ints_##name), \
    KB_TEST(test_math_ptrs_##name), KB_TEST(test_math_nan_##name)

int main(void) {
  const struct CMUnitTest tests[] = {
    KB_TEST(test_math_oracle), KB_MATH_VAR_LIST(f),  KB_MATH_VAR_LIST(f4), KB_MATH_VAR_LIST(f3),
    KB_MATH_VAR_LIST(f16),     KB_MATH_VAR_LIST(d),  KB_MATH_VAR_LIST(d2), KB_MATH_VAR_LIST(d3),
    KB_MATH_VAR_LIST(h),       KB_MATH_VAR_LIST(h4), KB_MATH_VAR_LIST(h3),
  };
  return cmocka_run_group_tests_name("kernel_builtins_math", tests, NULL, NULL);
}
