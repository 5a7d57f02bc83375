/*
 * bi_geom.c — the OpenCL.std geometric instructions (OpenCL C 3.0 §6.15.5 "Geometric Functions"):
 * cross, distance, length, normalize, fast_distance, fast_length, fast_normalize, for half, float
 * and double vectors of 1 to 4 components (cross: 3 or 4). Owns their rows of the table. (dot is the
 * core instruction OpDot, not OpenCL.std.)
 *
 * Definitions (the spec gives ULP bounds in §7.4 and "without overflow or extraordinary precision
 * loss due to underflow" in §7.5; spvi returns the best answer those allow, computed exactly):
 *   length(p)     = RN(sqrt(p0^2 + ... + pn^2)), the correctly rounded Euclidean norm of the exact
 *                   components (no intermediate overflow or underflow).
 *   distance(a,b) = length(a - b), the subtraction rounded per component in the type, as §6.15.5
 *                   defines it ("calculated as length(p0 - p1)").
 *   normalize(p)  = (RN(p0 / |p|), ..., RN(pn / |p|)) with the exact norm |p|: each component
 *                   correctly rounded.
 *   cross(a, b)   = (RN(a.y b.z - a.z b.y), RN(a.z b.x - a.x b.z), RN(a.x b.y - a.y b.x)[, +0]): each
 *                   component correctly rounded from the exact products; w of a 4-vector is +0.
 *   fast_length, fast_distance, fast_normalize (float only) are identical to the versions above
 *   (their 8192-ulp bounds admit the correctly rounded result).
 * Special values: a NaN component makes length/distance return that NaN quieted (the first one) and
 * normalize return a vector of it; otherwise an infinite component gives length +inf; §7.5:
 * normalize of an all-zero vector returns it unchanged, and with infinite components proceeds as if
 * each component were replaced by isinf(v) ? copysign(1.0, v) : 0.0 * v. distance's subtraction
 * follows the NaN policy of bi_fp.c (NaN operand quieted, inf - inf the canonical NaN). A cross
 * component with a NaN operand returns the first of (a1, b2, a2, b1) quieted; with infinite operands,
 * each product with an infinite factor is +-inf (inf * 0: the canonical NaN) and the others are exact,
 * so inf - finite = inf and inf - inf follows IEEE 754 (same signs: the canonical NaN).
 *
 * Method: exact or certified, then an MPFR fallback. half/float: squares and products are exact in
 * double; a double result with a small proven error is accepted when both ends of its error
 * interval round to the same value (bi_cert_interval); the cross product's difference is rounded to
 * odd in double first (Boldo & Melquiond 2008), which makes the final rounding exact. double:
 * double-double arithmetic (fma error terms) with a 2^-92..2^-100 relative error bound and
 * bi_cert_dd; rare undecided cases and vectors outside a safe exponent range go to MPFR, which works
 * from the exact sum of squares (and the exact products), refining an enclosure until it rounds
 * unambiguously (bi_mp_refine) — a square root or quotient that is exactly representable (or a tie)
 * is found exactly, so this terminates.
 */
#include "bi_common_mp.h"
#include "bi_half.h"
#include "bi_impl.h"
#include "gen_spv_tables.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* The per-format traits (tod_, fromd_, sub_ ..., FOR_FORMATS, bitlen) are in bi_common_mp.h. */

/* The binade of a finite non-zero double: |x| in [2^k, 2^(k+1)). */
static int binade(double x) {
  uint64_t m;
  int e;
  bi_decompose(x, &m, &e);
  return e + bitlen(m) - 1;
}

/* ---- MPFR: exact sum of squares ---------------------------------------------------------------------
 * v_i = m_i 2^(e_i) with m_i < 2^53, so v_i^2 has its bits in [2^(2 e_i), 2^(2 e_i + 106)) and a sum
 * of at most 4 of them fits in the precision computed below: mpfr_sqr and mpfr_add are then exact. */
static void exact_sum_squares(mpfr_ptr s, const double *v, unsigned n) {
  long lo = 0, hi = 0;
  bool any = false;
  for (unsigned k = 0; k < n; k++) {
    if (v[k] == 0) continue;
    uint64_t m;
    int e;
    bi_decompose(v[k], &m, &e);
    if (!any || 2L * e < lo) lo = 2L * e;
    if (!any || 2L * e + 106 > hi) hi = 2L * e + 106;
    any = true;
  }
  mpfr_set_prec(s, any ? (mpfr_prec_t)(hi - lo + 4) : 2);
  mpfr_set_ui(s, 0, MPFR_RNDN);
  mpfr_t sq;
  mpfr_init2(sq, 106);
  for (unsigned k = 0; k < n; k++) {
    if (v[k] == 0) continue;
    mpfr_set_d(sq, v[k], MPFR_RNDN);
    mpfr_sqr(sq, sq, MPFR_RNDN);
    mpfr_add(s, s, sq, MPFR_RNDN);
  }
  mpfr_clear(sq);
}

typedef struct norm_ctx {
  const double *v;
  unsigned n, idx;
} norm_ctx;

/* Enclosure of sqrt(S) (lo == hi when the root is exact at this precision). */
static void norm_bounds(mpfr_ptr lo, mpfr_ptr hi, const void *vctx) {
  const norm_ctx *c = vctx;
  mpfr_t s;
  mpfr_init2(s, 2);
  exact_sum_squares(s, c->v, c->n);
  mpfr_sqrt(lo, s, MPFR_RNDD);
  mpfr_sqrt(hi, s, MPFR_RNDU);
  mpfr_clear(s);
}

/* Enclosure of v[idx] / sqrt(S) (v[idx] != 0). */
static void quot_bounds(mpfr_ptr lo, mpfr_ptr hi, const void *vctx) {
  const norm_ctx *c = vctx;
  mpfr_t s, rl, rh;
  const mpfr_prec_t p = mpfr_get_prec(lo);
  mpfr_init2(s, 2);
  mpfr_init2(rl, p);
  mpfr_init2(rh, p);
  exact_sum_squares(s, c->v, c->n);
  mpfr_sqrt(rl, s, MPFR_RNDD);
  mpfr_sqrt(rh, s, MPFR_RNDU);
  const double x = c->v[c->idx];
  mpfr_d_div(lo, fabs(x), rh, MPFR_RNDD);
  mpfr_d_div(hi, fabs(x), rl, MPFR_RNDU);
  if (x < 0) {
    mpfr_swap(lo, hi);
    mpfr_neg(lo, lo, MPFR_RNDN);
    mpfr_neg(hi, hi, MPFR_RNDN);
  }
  mpfr_clear(s);
  mpfr_clear(rl);
  mpfr_clear(rh);
}

/* ---- double-double norm ------------------------------------------------------------------------------
 * For double vectors: w = v * 2^-k with max|w| in [1, 2) (k the binade of max|v|; a scaled component
 * that underflows contributes below 2^-2000 to S >= 1, inside the error bound). Squares are split
 * exactly with fma, summed with TwoSum into (sh, sl): |sh + sl - S| <= 2^-100 S (at most 8 roundings
 * of terms below 2^-52 S). rh = RN(sqrt(sh)), sh - rh^2 is exact (fma), and one Newton step gives
 * rl = (sh - rh^2 + sl) / (2 rh), |rh + rl - sqrt(S)| <= 2^-99 sqrt(S). Returns false when max|v| is
 * outside [2^-1022, 2^1020], leaving the case to MPFR. */
static bool dd_norm(const double *v, unsigned n, double *w, int *k, double *rh, double *rl) {
  double mx = 0;
  for (unsigned i = 0; i < n; i++)
    if (fabs(v[i]) > mx) mx = fabs(v[i]);
  if (mx == 0) return false;
  *k = binade(mx);
  if (*k < -1022 || *k > 1020) return false;
  const double scale = bi_pow2(-*k);
  double sh = 0, sl = 0;
  for (unsigned i = 0; i < n; i++) {
    w[i] = v[i] * scale;
    const double h = w[i] * w[i];
    const double l = fma(w[i], w[i], -h);
    const double s = sh + h;
    const double bb = s - sh;
    const double e = (sh - (s - bb)) + (h - bb);
    sh = s;
    sl += e;
    sl += l;
  }
  *rh = sqrt(sh);
  double rem = fma(-*rh, *rh, sh);
  rem += sl;
  *rl = rem / (2 * *rh);
  return true;
}

/* RN(|v|) in format f for a finite vector. */
static double norm_fmt(const double *v, unsigned n, bi_fmt f) {
  double r;
  if (f != BI_FMT_D) {
    /* S in double: <= 3 roundings of positive terms (3u), the root halves it and adds u: the
     * result is within 2.5u (u = 2^-53) of |v|, well inside d = 2^-49 |q|. */
    double s = 0;
    for (unsigned i = 0; i < n; i++) {
      const double sq = v[i] * v[i];
      s += sq;
    }
    const double q = sqrt(s), d = q * 0x1p-49;
    if (bi_cert_interval(q - d, q + d, f, &r)) return r;
  } else {
    double w[4], rh, rl;
    int k;
    bool all0 = true;
    for (unsigned i = 0; i < n; i++) all0 = all0 && v[i] == 0;
    if (all0) return 0.0;
    if (dd_norm(v, n, w, &k, &rh, &rl)) {
      const double s = rh + rl, t = rl - (s - rh);
      if (bi_cert_dd(s, t, s * 0x1p-96, &r)) return r * bi_pow2(k); /* exact: normal, finite */
    }
  }
  const norm_ctx ctx = {v, n, 0};
  return bi_mp_refine(norm_bounds, &ctx, f);
}

/* out[i] = RN(v[i] / |v|) in format f, v finite and not all zero. */
static void normalize_fmt(const double *v, unsigned n, bi_fmt f, double *out) {
  bool done[4] = {false, false, false, false};
  if (f != BI_FMT_D) {
    /* |q - v_i/|v|| <= 3.5u |q| (2.5u for the norm, u for the quotient), inside 2^-48 |q|. */
    double s = 0;
    for (unsigned i = 0; i < n; i++) {
      const double sq = v[i] * v[i];
      s += sq;
    }
    const double r = sqrt(s);
    for (unsigned i = 0; i < n; i++) {
      const double q = v[i] / r, d = fabs(q) * 0x1p-48;
      done[i] = bi_cert_interval(q - d, q + d, f, &out[i]);
    }
  } else {
    double w[4], rh, rl;
    int k;
    bool ok = dd_norm(v, n, w, &k, &rh, &rl);
    /* the scaling must be exact (normalize is scale-invariant only then), and tiny components
     * would make the fma residual below inexact */
    for (unsigned i = 0; ok && i < n; i++) ok = w[i] * bi_pow2(k) == v[i] && (w[i] == 0 || fabs(w[i]) >= 0x1p-900);
    for (unsigned i = 0; ok && i < n; i++) {
      if (w[i] == 0) {
        out[i] = v[i];
        done[i] = true;
        continue;
      }
      /* q = w / (rh + rl): qh = RN(w / rh), w - qh rh exact (fma), ql = (w - qh rh - qh rl) / rh;
       * relative error below 2^-97 with the norm's 2^-99. */
      const double qh = w[i] / rh;
      const double e = fma(-qh, rh, w[i]);
      const double corr = qh * rl;
      const double ql = (e - corr) / rh;
      const double s = qh + ql, t = ql - (s - qh);
      done[i] = bi_cert_dd(s, t, fabs(s) * 0x1p-92, &out[i]);
    }
  }
  for (unsigned i = 0; i < n; i++) {
    if (done[i]) continue;
    if (v[i] == 0) {
      out[i] = v[i];
      continue;
    }
    const norm_ctx ctx = {v, n, i};
    out[i] = bi_mp_refine(quot_bounds, &ctx, f);
  }
}

/* ---- cross product component: RN(a*b - c*d) -------------------------------------------------------- */

/* RO(p + c) in 53 bits from TwoSum (s, t): s itself if exact or odd, else its neighbour toward t.
 * Rounding a round-to-odd value of 53 bits to q <= 51 bits gives RN(p + c) (Boldo & Melquiond,
 * IEEE TC 2008). Here p and c are exact products of floats or halves: the sum is 0 or above 2^-298,
 * so s is 0 only when the sum is exactly 0. */
static double sum_round_odd(double p, double c) {
  double s = p + c;
  const double bb = s - p;
  const double t = (p - (s - bb)) + (c - bb);
  if (t != 0 && !(bi_dbits(s) & 1)) {
    uint64_t b = bi_dbits(s);
    b = ((t > 0) == (s > 0)) ? b + 1 : b - 1;
    s = bi_dfrom(b);
  }
  return s;
}

/* The exact difference of two exact products in MPFR, then one rounding. */
static double cross_mpfr(double a, double b, double c, double d) {
  mpfr_t p, q, r;
  mpfr_init2(p, 106);
  mpfr_init2(q, 106);
  mpfr_set_d(p, a, MPFR_RNDN);
  mpfr_mul_d(p, p, b, MPFR_RNDN); /* exact: 53 x 53 bits */
  mpfr_set_d(q, c, MPFR_RNDN);
  mpfr_mul_d(q, q, d, MPFR_RNDN);
  mpfr_prec_t prec = 110;
  if (!mpfr_zero_p(p) && !mpfr_zero_p(q)) {
    const long ep = mpfr_get_exp(p), eq = mpfr_get_exp(q);
    prec = (mpfr_prec_t)((ep > eq ? ep - eq : eq - ep) + 110);
  }
  mpfr_init2(r, prec);
  mpfr_sub(r, p, q, MPFR_RNDN); /* exact; signed zeros as IEEE 754 */
  const double res = bi_mp_round(r, BI_FMT_D);
  mpfr_clear(p);
  mpfr_clear(q);
  mpfr_clear(r);
  return res;
}

/* The double product p = RN(a * b) is safe for the double-double path: exactly zero (a zero factor,
 * not an underflow) or far from underflow and overflow, so that fma's error term is exact. */
static inline bool safe_prod(double p, double a, double b) {
  return p == 0 ? (a == 0 || b == 0) : (fabs(p) >= 0x1p-900 && fabs(p) <= 0x1p900);
}

/* RN_f(a*b - c*d) for non-NaN operands (NaN returned for an invalid operation). A product with an
 * infinite factor is +-inf (NaN for inf * 0); a product of finite factors is exact and finite, even
 * where the double product would overflow, so inf against it gives inf. */
static double cross_diff(double a, double b, double c, double d, bi_fmt f) {
  const bool pinf = !isfinite(a) || !isfinite(b), qinf = !isfinite(c) || !isfinite(d);
  const double p = a * b;
  const double q = c * d;
  if (pinf || qinf) return pinf && qinf ? p - q : pinf ? p : -q;
  if (f != BI_FMT_D) return bi_round_to(sum_round_odd(p, -q), f); /* p, q exact in double */
  if (safe_prod(p, a, b) && safe_prod(q, c, d)) {
    const double pl = fma(a, b, -p);
    const double ql = fma(c, d, -q);
    if (p == q && pl == ql) return p - q; /* exactly zero: IEEE sign of zero (-0 - +0 = -0) */
    const double s0 = p - q;
    const double bb = s0 - p;
    const double e0 = (p - (s0 - bb)) + (-q - bb);
    const double lo = pl - ql;
    const double t = e0 + lo;
    const double s = s0 + t;
    const double b2 = s - s0;
    const double tt = (s0 - (s - b2)) + (t - b2);
    double r;
    /* error: the roundings of pl - ql and e0 + lo, each below 2^-104 (|p| + |q|) */
    if (bi_cert_dd(s, tt, (fabs(p) + fabs(q)) * 0x1p-100, &r)) return r;
  }
  return cross_mpfr(a, b, c, d);
}

/* ---- per-type functions ------------------------------------------------------------------------------ */

#define GEOM_FNS(S, T, FMT)                                                                            \
  static T length_##S(const T *x, unsigned n) {                                                        \
    double v[4];                                                                                       \
    bool inf = false;                                                                                  \
    for (unsigned i = 0; i < n; i++)                                                                   \
      if (isnan_##S(x[i])) return quiet_##S(x[i]);                                                     \
    for (unsigned i = 0; i < n; i++) {                                                                 \
      v[i] = tod_##S(x[i]);                                                                            \
      inf = inf || isinf(v[i]);                                                                        \
    }                                                                                                  \
    return fromd_##S(inf ? INFINITY : norm_fmt(v, n, FMT));                                            \
  }                                                                                                    \
  static T distance_##S(const T *a, const T *b, unsigned n) {                                          \
    T d[4];                                                                                            \
    for (unsigned i = 0; i < n; i++) {                                                                 \
      if (isnan_##S(a[i])) d[i] = quiet_##S(a[i]);                                                     \
      else if (isnan_##S(b[i])) d[i] = quiet_##S(b[i]);                                                \
      else {                                                                                           \
        d[i] = sub_##S(a[i], b[i]);                                                                    \
        if (isnan_##S(d[i])) d[i] = canon_##S();                                                       \
      }                                                                                                \
    }                                                                                                  \
    return length_##S(d, n);                                                                           \
  }                                                                                                    \
  static void normalize_##S(const T *x, unsigned n, T *out) {                                          \
    for (unsigned i = 0; i < n; i++)                                                                   \
      if (isnan_##S(x[i])) {                                                                           \
        for (unsigned j = 0; j < n; j++) out[j] = quiet_##S(x[i]);                                     \
        return;                                                                                        \
      }                                                                                                \
    double v[4], r[4];                                                                                 \
    bool inf = false, all0 = true;                                                                     \
    for (unsigned i = 0; i < n; i++) {                                                                 \
      v[i] = tod_##S(x[i]);                                                                            \
      inf = inf || isinf(v[i]);                                                                        \
      all0 = all0 && v[i] == 0;                                                                        \
    }                                                                                                  \
    if (all0) {                                                                                        \
      memcpy(out, x, n * sizeof(T));                                                                   \
      return;                                                                                          \
    }                                                                                                  \
    if (inf)                                                                                           \
      for (unsigned i = 0; i < n; i++) v[i] = isinf(v[i]) ? copysign(1.0, v[i]) : copysign(0.0, v[i]); \
    normalize_fmt(v, n, FMT, r);                                                                       \
    for (unsigned i = 0; i < n; i++) out[i] = fromd_##S(r[i]);                                         \
  }                                                                                                    \
  static inline T crossc_##S(T a1, T b2, T a2, T b1) {                                                 \
    if (isnan_##S(a1)) return quiet_##S(a1);                                                           \
    if (isnan_##S(b2)) return quiet_##S(b2);                                                           \
    if (isnan_##S(a2)) return quiet_##S(a2);                                                           \
    if (isnan_##S(b1)) return quiet_##S(b1);                                                           \
    const double r = cross_diff(tod_##S(a1), tod_##S(b2), tod_##S(a2), tod_##S(b1), FMT);              \
    return isnan(r) ? canon_##S() : fromd_##S(r);                                                      \
  }
FOR_FORMATS(GEOM_FNS)

/* ---- lane loops and rows -------------------------------------------------------------------------------
 * The literal's n is the component count of the key (the vector operand), 1 to 4. */

#define LOAD(dst, p, n, T) memcpy(dst, p, (n) * sizeof(T))

#define LOOPS(S, T, FMT)                            \
  static bool length_##S##_l(const bi_call *c) {    \
    const unsigned n = bi_lit_n(c->literal);        \
    for (uint32_t i = 0; i < c->nlanes; i++) {      \
      const size_t l = c->lanes[i];                 \
      T x[4];                                       \
      LOAD(x, bi_src(c, 0, l), n, T);               \
      const T r = length_##S(x, n);                 \
      memcpy(bi_dst(c, l), &r, sizeof(T));          \
    }                                               \
    return true;                                    \
  }                                                 \
  static bool distance_##S##_l(const bi_call *c) {  \
    const unsigned n = bi_lit_n(c->literal);        \
    for (uint32_t i = 0; i < c->nlanes; i++) {      \
      const size_t l = c->lanes[i];                 \
      T a[4], b[4];                                 \
      LOAD(a, bi_src(c, 0, l), n, T);               \
      LOAD(b, bi_src(c, 1, l), n, T);               \
      const T r = distance_##S(a, b, n);            \
      memcpy(bi_dst(c, l), &r, sizeof(T));          \
    }                                               \
    return true;                                    \
  }                                                 \
  static bool normalize_##S##_l(const bi_call *c) { \
    const unsigned n = bi_lit_n(c->literal);        \
    for (uint32_t i = 0; i < c->nlanes; i++) {      \
      const size_t l = c->lanes[i];                 \
      T x[4], r[4];                                 \
      LOAD(x, bi_src(c, 0, l), n, T);               \
      normalize_##S(x, n, r);                       \
      memcpy(bi_dst(c, l), r, n * sizeof(T));       \
    }                                               \
    return true;                                    \
  }                                                 \
  static bool cross_##S##_l(const bi_call *c) {     \
    const unsigned n = bi_lit_n(c->literal);        \
    for (uint32_t i = 0; i < c->nlanes; i++) {      \
      const size_t l = c->lanes[i];                 \
      T a[4], b[4], r[4];                           \
      LOAD(a, bi_src(c, 0, l), 3, T);               \
      LOAD(b, bi_src(c, 1, l), 3, T);               \
      r[0] = crossc_##S(a[1], b[2], a[2], b[1]);    \
      r[1] = crossc_##S(a[2], b[0], a[0], b[2]);    \
      r[2] = crossc_##S(a[0], b[1], a[1], b[0]);    \
      r[3] = fromd_##S(0.0);                        \
      memcpy(bi_dst(c, l), r, n * sizeof(T));       \
    }                                               \
    return true;                                    \
  }
FOR_FORMATS(LOOPS)

#define SLOTS(p) \
  { [BI_T_F16] = p##_hs_l, [BI_T_F32] = p##_fs_l, [BI_T_F64] = p##_ds_l }
#define FLOAT_ONLY(p) \
  { [BI_T_F32] = p##_fs_l }

static const bi_row rows[] = {
  {OCLSTD_cross, BI_SIG_CROSS, 0, SLOTS(cross)},
  {OCLSTD_distance, BI_SIG_GEOM_DIST, 0, SLOTS(distance)},
  {OCLSTD_length, BI_SIG_GEOM_LEN, 0, SLOTS(length)},
  {OCLSTD_normalize, BI_SIG_GEOM_NORM, 0, SLOTS(normalize)},
  {OCLSTD_fast_distance, BI_SIG_GEOM_DIST, 0, FLOAT_ONLY(distance)},
  {OCLSTD_fast_length, BI_SIG_GEOM_LEN, 0, FLOAT_ONLY(length)},
  {OCLSTD_fast_normalize, BI_SIG_GEOM_NORM, 0, FLOAT_ONLY(normalize)},
};

const bi_rowset bi_rows_geom = {rows, sizeof rows / sizeof rows[0]};
