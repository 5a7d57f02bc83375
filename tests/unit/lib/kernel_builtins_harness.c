/*
 * kernel_builtins_harness.c — helpers of the test_kernel_builtins_*.c programs: see
 * kernel_builtins_harness.h.
 */
#include "kernel_builtins_harness.h"

/* ---- allocations freed by the teardown, also when a check fails ------------------------------ */
#define KB_MAX_OWNED 256
static void *kb_owned[KB_MAX_OWNED];

void *kb_alloc(size_t bytes) {
  for (size_t i = 0; i < KB_MAX_OWNED; ++i)
    if (!kb_owned[i]) {
      kb_owned[i] = calloc(1, bytes ? bytes : 1);
      assert_non_null(kb_owned[i]);
      return kb_owned[i];
    }
  fail_msg("kb_alloc: too many allocations in one test");
  return NULL;
}

int kb_teardown(void **state) {
  for (size_t i = 0; i < KB_MAX_OWNED; ++i) {
    free(kb_owned[i]);
    kb_owned[i] = NULL;
  }
  mpfr_free_cache();
  return kt_teardown(state);
}

/* ---- deterministic randomness (splitmix64 of the harness: kt_seed / kt_rand) ------------------- */
double kb_unif(void) { return (double)(kt_rand() >> 11) * 0x1p-53; } /* [0, 1) */
int64_t kb_irange(int64_t lo, int64_t hi) { return kt_rand_range(lo, hi); }

/* ---- formats --------------------------------------------------------------------------------- */
const kb_fmtinfo kb_fi[3] = {
  {16, 11, 5, -23, 16, -14, "half"},
  {32, 24, 8, -148, 128, -126, "float"},
  {64, 53, 11, -1073, 1024, -1022, "double"},
};

/* Exact value of a pattern as a double (every half/float/double value is a double). NaN: NAN. */
double kb_val(kb_fmt f, uint64_t u) {
  if (f == KB_D) {
    double d;
    memcpy(&d, &u, 8);
    return d;
  }
  if (f == KB_F) {
    float x;
    uint32_t v = (uint32_t)u;
    memcpy(&x, &v, 4);
    return (double)x;
  }
  /* half: sign, 5-bit exponent (bias 15), 10-bit fraction; decoded with ldexp (exact) */
  double s = (u & 0x8000) ? -1.0 : 1.0;
  unsigned e = (unsigned)(u >> 10) & 31, m = (unsigned)u & 0x3ff;
  if (e == 31) return m ? NAN : s * INFINITY;
  if (e == 0) return s * ldexp((double)m, -24);
  return s * ldexp((double)(m | 0x400), (int)e - 25);
}

/* The pattern of a double value that is exactly representable in the format (asserted). */
uint64_t kb_enc(kb_fmt f, double d) {
  if (isnan(d)) return kb_canon(f);
  if (f == KB_D) {
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
  }
  if (f == KB_F) {
    float x = (float)d;
    assert_true((double)x == d || (isinf(d) && isinf(x)));
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
  }
  uint64_t s = signbit(d) ? 0x8000 : 0;
  double a = fabs(d);
  if (isinf(a)) return s | 0x7c00;
  if (a == 0) return s;
  int e;
  frexp(a, &e);      /* a = m 2^e, m in [1/2, 1) */
  if (e - 1 < -14) { /* subnormal: a multiple of 2^-24 below 2^-14 */
    double q = ldexp(a, 24);
    assert_true(q == floor(q) && q < 1024);
    return s | (uint64_t)q;
  }
  double q = ldexp(a, 11 - e); /* in [1024, 2048) */
  assert_true(q == floor(q) && e - 1 <= 15);
  return s | (uint64_t)(e - 1 + 15) << 10 | ((uint64_t)q & 0x3ff);
}

/* ---- MPFR helpers ----------------------------------------------------------------------------- */
void kb_mp_set(mpfr_ptr x, kb_fmt f, uint64_t u) {
  if (kb_isnan(f, u)) mpfr_set_nan(x);
  else mpfr_set_d(x, kb_val(f, u), MPFR_RNDN); /* exact: x has >= 53 bits */
}

kb_range_save kb_range_push(kb_fmt f) {
  kb_range_save s = {mpfr_get_emin(), mpfr_get_emax()};
  mpfr_set_emin(kb_fi[f].emin_mp);
  mpfr_set_emax(kb_fi[f].emax_mp);
  return s;
}
void kb_range_pop(kb_range_save s) {
  mpfr_set_emin(s.emin);
  mpfr_set_emax(s.emax);
}

/* finish a computation done in the narrowed range: check_range + subnormalize, pattern out */
uint64_t kb_mp_finish(kb_fmt f, mpfr_ptr r, int t, mpfr_rnd_t rnd) {
  t = mpfr_check_range(r, t, rnd);
  mpfr_subnormalize(r, t, rnd);
  if (mpfr_nan_p(r)) return kb_canon(f);
  return kb_enc(f, mpfr_get_d(r, MPFR_RNDN)); /* exact: r has the format's precision and range */
}

/* correctly rounded fn(x) in format f (round to nearest even) */
uint64_t kb_mp1(kb_fmt f, kb_mpfn1 fn, uint64_t x) {
  mpfr_t a, r;
  mpfr_init2(a, 64);
  mpfr_init2(r, kb_fi[f].prec);
  kb_mp_set(a, f, x);
  kb_range_save s = kb_range_push(f);
  int t = fn(r, a, MPFR_RNDN);
  uint64_t out = kb_mp_finish(f, r, t, MPFR_RNDN);
  kb_range_pop(s);
  mpfr_clears(a, r, (mpfr_ptr)0);
  return out;
}
uint64_t kb_mp2(kb_fmt f, kb_mpfn2 fn, uint64_t x, uint64_t y) {
  mpfr_t a, b, r;
  mpfr_inits2(64, a, b, (mpfr_ptr)0);
  mpfr_init2(r, kb_fi[f].prec);
  kb_mp_set(a, f, x);
  kb_mp_set(b, f, y);
  kb_range_save s = kb_range_push(f);
  int t = fn(r, a, b, MPFR_RNDN);
  uint64_t out = kb_mp_finish(f, r, t, MPFR_RNDN);
  kb_range_pop(s);
  mpfr_clears(a, b, r, (mpfr_ptr)0);
  return out;
}
uint64_t kb_mpl(kb_fmt f, kb_mpfnl fn, uint64_t x, long n) {
  mpfr_t a, r;
  mpfr_init2(a, 64);
  mpfr_init2(r, kb_fi[f].prec);
  kb_mp_set(a, f, x);
  kb_range_save s = kb_range_push(f);
  int t = fn(r, a, n, MPFR_RNDN);
  uint64_t out = kb_mp_finish(f, r, t, MPFR_RNDN);
  kb_range_pop(s);
  mpfr_clears(a, r, (mpfr_ptr)0);
  return out;
}

/* One correctly rounded arithmetic operation in format f ('+', '-', '*', '/'), IEEE signs of
 * zero and NaN for invalid operations (MPFR follows IEEE 754 here); NaN operands give NaN. */
uint64_t kb_op(kb_fmt f, char op, uint64_t x, uint64_t y) {
  kb_mpfn2 fn = op == '+' ? mpfr_add : op == '-' ? mpfr_sub : op == '*' ? mpfr_mul : mpfr_div;
  return kb_mp2(f, fn, x, y);
}

/* Rounds the exact value v (any precision, any exponent) to format f in mode rnd (MPFR_RNDN,
 * RNDZ, RNDU, RNDD), by hand: q = 2^(max(e, emin_norm) - prec + 1) is the spacing of the format at
 * v's binade e (floor(log2|v|)); v/q is rounded to an integer in the mode; overflow: the rounded
 * value beyond the largest finite number gives inf in RNDN and in the mode's direction away from
 * zero, else the largest finite number (IEEE 754-2008 7.4). */
uint64_t kb_round_mp(kb_fmt f, mpfr_srcptr v, mpfr_rnd_t rnd) {
  if (mpfr_nan_p(v)) return kb_canon(f);
  uint64_t sign = mpfr_signbit(v) ? kb_signbit(f) : 0;
  if (mpfr_inf_p(v)) return sign | kb_inf(f);
  if (mpfr_zero_p(v)) return sign;
  long e = (long)mpfr_get_exp(v) - 1; /* |v| in [2^e, 2^(e+1)) */
  long qe = (e < kb_fi[f].emin_norm ? kb_fi[f].emin_norm : e) - (long)kb_fi[f].prec + 1;
  mpfr_t y;
  mpfr_init2(y, mpfr_get_prec(v) + 2);
  mpfr_mul_2si(y, v, -qe, MPFR_RNDN); /* exact */
  mpfr_rint(y, y, rnd);               /* exact integer result (enough precision) */
  mpfr_mul_2si(y, y, qe, MPFR_RNDN);  /* exact */
  uint64_t out;
  if (mpfr_zero_p(y)) {
    out = sign;
  } else {
    mpfr_t mx;
    mpfr_init2(mx, 64);
    mpfr_set_d(mx, kb_val(f, kb_maxfin(f)), MPFR_RNDN);
    if (mpfr_cmpabs(y, mx) > 0) {
      bool away = rnd == MPFR_RNDN || (rnd == MPFR_RNDU && !sign) || (rnd == MPFR_RNDD && sign);
      out = sign | (away ? kb_inf(f) : kb_maxfin(f));
    } else {
      out = kb_enc(f, mpfr_get_d(y, MPFR_RNDN)); /* exact */
    }
    mpfr_clear(mx);
  }
  mpfr_clear(y);
  return out;
}

/* a double value rounded to format f in mode rnd */
uint64_t kb_round_d(kb_fmt f, double d, mpfr_rnd_t rnd) {
  mpfr_t v;
  mpfr_init2(v, 64);
  if (isnan(d)) mpfr_set_nan(v);
  else mpfr_set_d(v, d, MPFR_RNDN);
  uint64_t u = kb_round_mp(f, v, rnd);
  mpfr_clear(v);
  return u;
}
uint64_t kb_from_d(kb_fmt f, double d) { return kb_round_d(f, d, MPFR_RNDN); }

/* ---- NaN policy: the NaN a function returns for these operands ------------------------------- */
/* ops[0..n): operand patterns in the output format (non-float operands: pass n excluding them) */
uint64_t kb_nan_policy(kb_fmt f, const uint64_t *ops, int n) {
  for (int i = 0; i < n; ++i)
    if (kb_isnan(f, ops[i])) return kb_quiet(f, ops[i]);
  return kb_canon(f);
}

/* ---- packing ---------------------------------------------------------------------------------- */
/* patterns -> a native little-endian buffer of the format's element size */
void *kb_pack(kb_fmt f, const uint64_t *u, size_t n) {
  size_t es = kb_bytes(f);
  unsigned char *p = kb_alloc(n * es);
  for (size_t i = 0; i < n; ++i) memcpy(p + i * es, &u[i], es); /* little-endian host */
  return p;
}
uint64_t kb_get(kb_fmt f, const void *buf, size_t i) {
  uint64_t u = 0;
  memcpy(&u, (const unsigned char *)buf + i * kb_bytes(f), kb_bytes(f));
  return u;
}

/* "0x1.8p+1 (0x4040)" */
void kb_fmtval(kb_fmt f, uint64_t u, char *out, size_t n) {
  char hex[24];
  if (f == KB_H) snprintf(hex, sizeof hex, "0x%04llx", (unsigned long long)u);
  else if (f == KB_F) snprintf(hex, sizeof hex, "0x%08llx", (unsigned long long)u);
  else snprintf(hex, sizeof hex, "0x%016llx", (unsigned long long)u);
  if (kb_isnan(f, u)) snprintf(out, n, "%snan (%s)", kb_neg(f, u) ? "-" : "", hex);
  else snprintf(out, n, "%a (%s)", kb_val(f, u), hex);
}

/* ---- mismatch reporting ----------------------------------------------------------------------- */
void kb_bad(kb_report *rep, const char *fmt, ...) {
  ++rep->bad;
  if (rep->shown >= rep->limit) return;
  ++rep->shown;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  print_error("%s: %s\n", rep->r->ctx, msg);
}
void kb_report_end(kb_report *rep, const char *what) {
  if (rep->bad) kt_fail(rep->r, "%s: %zu mismatches (first %zu shown)", what, rep->bad, rep->shown);
}

/* ---- input generation ------------------------------------------------------------------------- */
/* a random finite value of format f: |x| = 2^e * (1 + frac), e uniform in [elo, ehi] (clamped to
 * the format; below the normal range the value is subnormal), random sign unless `pos` */
uint64_t kb_rand_log(kb_fmt f, int elo, int ehi, bool pos) {
  int emax = (1 << (kb_fi[f].ebits - 1)) - 1, emin = kb_fi[f].emin_norm - (int)kb_fi[f].prec + 1;
  if (elo < emin) elo = emin;
  if (ehi > emax) ehi = emax;
  if (elo > ehi) elo = ehi;
  int e = (int)kb_irange(elo, ehi);
  double m = 1.0 + kb_unif();
  double d = ldexp(m, e);
  if (!pos && (kt_rand() & 1)) d = -d;
  uint64_t u = kb_round_d(f, d, MPFR_RNDZ); /* stays finite */
  return u;
}
/* uniform in [lo, hi] rounded to f */
uint64_t kb_rand_unif(kb_fmt f, double lo, double hi) { return kb_round_d(f, lo + (hi - lo) * kb_unif(), MPFR_RNDN); }
/* random bit pattern of the format (NaNs and infinities included, rarely) */
uint64_t kb_rand_bits(kb_fmt f) {
  uint64_t u = kt_rand();
  return kb_fi[f].bits == 64 ? u : u & ((1ull << kb_fi[f].bits) - 1);
}

/* Special operands, the same list for every format (patterns built per format). */
uint64_t kb_special(kb_fmt f, unsigned i) {
  uint64_t sb = kb_signbit(f), minsub = 1, maxsub = kb_mantmask(f), minnorm = kb_mantmask(f) + 1;
  switch (i % KB_NSPEC) {
  case 0: return 0;
  case 1: return sb;
  case 2: return kb_inf(f);
  case 3: return sb | kb_inf(f);
  case 4: return kb_canon(f);             /* quiet NaN */
  case 5: return sb | kb_canon(f) | 0x15; /* negative quiet NaN with a payload */
  case 6: return kb_inf(f) | 0x2a;        /* signalling NaN with a payload */
  case 7: return minsub;
  case 8: return sb | minsub;
  case 9: return maxsub;
  case 10: return minnorm;
  case 11: return sb | minnorm;
  case 12: return kb_maxfin(f);
  case 13: return sb | kb_maxfin(f);
  case 14: return kb_from_d(f, 1.0);
  case 15: return kb_from_d(f, -1.0);
  case 16: return kb_from_d(f, 0.5);
  case 17: return kb_from_d(f, -0.5);
  case 18: return kb_from_d(f, 2.0);
  case 19: return kb_from_d(f, -2.0);
  case 20: return kb_from_d(f, 3.0);
  case 21: return kb_from_d(f, -3.0);
  case 22: return kb_from_d(f, 0.25);
  case 23: return kb_from_d(f, 1.5);
  case 24: return kb_from_d(f, -2.5);
  case 25: return kb_from_d(f, 10.0);
  case 26: return kb_from_d(f, 100.0);
  case 27: return kb_from_d(f, -100.0);
  case 28: return kb_from_d(f, 0.1);
  case 29: return kb_from_d(f, -0.75);
  case 30: return kb_from_d(f, 1e-3);
  case 31: return kb_from_d(f, 7.0);
  case 32: return kb_from_d(f, 1000.0);
  default: return kb_from_d(f, -1e-4);
  }
}

uint64_t kb_special2(kb_fmt f, unsigned i) {
  static const unsigned pick[KB_NS2] = {0, 1, 2, 3, 5, 6, 14, 15, 16, 19, 20, 7, 13};
  return kb_special(f, pick[i]);
}

/* ---- references shared by several functions ----------------------------------------------------- */
/* fmax/fmin as spvi defines them (builtins.md): a NaN operand gives the other one, two NaNs the
 * first, -0 < +0 */
uint64_t kb_fmaxmin(kb_fmt f, uint64_t x, uint64_t y, bool max) {
  if (kb_isnan(f, x) && kb_isnan(f, y)) return kb_canon(f);
  if (kb_isnan(f, x)) return y;
  if (kb_isnan(f, y)) return x;
  double vx = kb_val(f, x), vy = kb_val(f, y);
  if (vx == 0 && vy == 0) {
    bool xneg = kb_neg(f, x);
    return max ? (xneg ? y : x) : (xneg ? x : y);
  }
  if (max) return vx < vy ? y : x;
  return vy < vx ? y : x;
}

/* ---- expected slots and the check of float results --------------------------------------------- */
/* "fn(x, y)" of a slot, for messages */
static void kb_describe(kb_fmt f, const kb_slot *s, const char *name, char *buf, size_t n) {
  char a[80] = "", b[80] = "", c[80] = "";
  if (s->nops > 0) kb_fmtval(f, s->op[0], a, sizeof a);
  if (s->nops > 1) kb_fmtval(f, s->op[1], b, sizeof b);
  if (s->nops > 2) kb_fmtval(f, s->op[2], c, sizeof c);
  if (s->nops == 3) snprintf(buf, n, "%s(%s, %s, %s)", name, a, b, c);
  else if (s->nops == 2) snprintf(buf, n, "%s(%s, %s)", name, a, b);
  else if (s->nops == 1 && s->has_int) snprintf(buf, n, "%s(%s, %lld)", name, a, (long long)s->iop);
  else if (s->nops == 1) snprintf(buf, n, "%s(%s)", name, a);
  else snprintf(buf, n, "%s(0x%llx)", name, (unsigned long long)s->iop);
}

void kb_check_math(const kt_run *r, void *u) {
  const kb_mcheck *c = u;
  kb_report rep = {r, 0, 0, 40};
  for (int o = 0; o < c->nout; ++o) {
    const kb_outspec *os = &c->out[o];
    size_t es = os->is_int ? 4 : kb_bytes(os->f);
    kt_require(r, r->buf[os->arg] && r->bytes[os->arg] == os->count * es, "argument %d: size %zu, expected %zu",
               os->arg, r->bytes[os->arg], os->count * es);
    for (size_t i = 0; i < os->count; ++i) {
      const kb_slot *s = &os->slot[i];
      if (s->fn == UINT16_MAX) continue;
      char d[400], g[80], w[80];
      if (os->is_int) {
        int32_t got;
        memcpy(&got, (const unsigned char *)r->buf[os->arg] + i * 4, 4);
        if ((int64_t)got == (int64_t)(int32_t)s->want) continue;
        kb_describe(c->f, s, os->names[s->fn], d, sizeof d);
        kb_bad(&rep, "arg %d [%zu] %s: int result %d, expected %d", os->arg, i, d, got, (int32_t)s->want);
        continue;
      }
      uint64_t got = kb_get(os->f, r->buf[os->arg], i);
      if (got == s->want) continue;
      kb_describe(c->f, s, os->names[s->fn], d, sizeof d);
      kb_fmtval(os->f, got, g, sizeof g);
      kb_fmtval(os->f, s->want, w, sizeof w);
      kb_bad(&rep, "arg %d [%zu] %s = %s, expected %s", os->arg, i, d, g, w);
    }
  }
  kb_report_end(&rep, "math results");
}

kb_slot *kb_new_slots(size_t count) {
  kb_slot *s = kb_alloc(count * sizeof *s);
  for (size_t i = 0; i < count; ++i) s->fn = UINT16_MAX, ++s;
  return s - count;
}

void kb_fix_nan(kb_fmt f, kb_slot *s, bool raw) {
  if (!raw && kb_isnan(f, s->want)) s->want = kb_nan_policy(f, s->op, s->nops);
}
