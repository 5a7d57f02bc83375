/*
 * math_trigf_exhaustive.c — the batch kernel of float sin, cos, tan and sincos (builtins/
 * bi_math_trigf.c) against the scalar correctly rounded cores (bi_m_sin/bi_m_cos/bi_m_tan with
 * BI_MF_F) on every float of magnitude <= 2^21 (the kernel's range is 2^20), both signs, plus the
 * infinities, NaNs and a sample of the larger floats. Not part of `make check` (minutes on two
 * cores): `make build/bench/math_trigf_exhaustive && build/bench/math_trigf_exhaustive -j 2`.
 *
 * It also checks the numerical facts the kernel's error proof rests on (spec-notes/math.md, "Fast
 * float sin, cos, tan"), with MPFR at 300 bits:
 *   - BI_M_PIO2_1 = RN_33(pi/2), BI_M_PIO2_2 = RN_33(pi/2 - C1) (at most 33 significant bits each),
 *     BI_M_PIO2_3 = RN_53(pi/2 - C1 - C2), and |pi/2 - C1 - C2 - C3| < 2^-122;
 *     BI_M_INVPIO2 = RN_53(2/pi);
 *   - m, the smallest |x - k pi/2| over floats 0 < |x| <= 2^20 and integers k != 0, is >= 2^-27.9
 *     (for each k the two floats around k pi/2 are the candidates);
 * compares the kernel's compiled variants (baseline and, on x86-64 with AVX2, AVX2) bit for bit on
 * every float of the range, and measures the largest relative error of the kernel's approximations
 * of sin, cos and tan against sinl/cosl/tanl (x87 extended: their own error, <= 2^-62, is far below
 * what is measured) on every 17th float of the range, to be compared with the proven bounds.
 *
 * usage: math_trigf_exhaustive [-j THREADS] [-q]   (-q: skip the exhaustive comparison)
 * Exit status 0 when every result matches and every fact holds.
 */
#include "bi_math.h"

#include <mpfr.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static float fl(uint32_t b) {
  float x;
  memcpy(&x, &b, 4);
  return x;
}

/* ---- the facts of the proof --------------------------------------------------------------------- */

static int sig_bits(double v) { /* significant bits of a finite nonzero double */
  uint64_t m = bi_m_bits(v) & 0xfffffffffffffull;
  if (((bi_m_bits(v) >> 52) & 0x7ff) != 0) m |= 1ull << 52;
  int b = 53;
  while (!(m & 1)) m >>= 1, b--;
  return b;
}

static bool facts(void) {
  bool ok = true;
  mpfr_t p, t, d;
  mpfr_inits2(300, p, t, d, (mpfr_ptr)0);
  mpfr_const_pi(p, MPFR_RNDN);
  mpfr_div_2ui(p, p, 1, MPFR_RNDN); /* pi/2 to 300 bits */
  mpfr_t c;
  mpfr_init2(c, 33);
  mpfr_set(c, p, MPFR_RNDN);
  const double c1 = mpfr_get_d(c, MPFR_RNDN);
  mpfr_sub_d(t, p, c1, MPFR_RNDN);
  mpfr_set(c, t, MPFR_RNDN);
  const double c2 = mpfr_get_d(c, MPFR_RNDN);
  mpfr_sub_d(t, t, c2, MPFR_RNDN);
  const double c3 = mpfr_get_d(t, MPFR_RNDN);
  mpfr_sub_d(t, t, c3, MPFR_RNDN);
  const double delta = fabs(mpfr_get_d(t, MPFR_RNDN));
  mpfr_ui_div(d, 1, p, MPFR_RNDN); /* 2/pi */
  const double inv = mpfr_get_d(d, MPFR_RNDN);
  printf("constants: C1 %a (%d bits) C2 %a (%d bits) C3 %a, |pi/2 - C1 - C2 - C3| = 2^%.2f, 2/pi %a\n", c1,
         sig_bits(BI_M_PIO2_1), c2, sig_bits(BI_M_PIO2_2), c3, log2(delta), inv);
  if (c1 != BI_M_PIO2_1 || c2 != BI_M_PIO2_2 || c3 != BI_M_PIO2_3 || inv != BI_M_INVPIO2 ||
      sig_bits(BI_M_PIO2_1) > 33 || sig_bits(BI_M_PIO2_2) > 33 || !(delta < 0x1p-122)) {
    printf("FAIL: the constants differ from bi_math.h or lack the properties the proof needs\n");
    ok = false;
  }
  /* m: for k = 1 .. kmax, the floats just below and above k pi/2 */
  double m = 1;
  long mk = 0;
  float mx = 0;
  for (long k = 1;; k++) {
    mpfr_mul_si(t, p, k, MPFR_RNDN); /* exact: 300 bits hold k pi/2 to 2^-280 */
    if (mpfr_cmp_d(t, BI_M_TRIGF_MAX) > 0) break;
    const float xs[2] = {mpfr_get_flt(t, MPFR_RNDD), mpfr_get_flt(t, MPFR_RNDU)};
    for (int i = 0; i < 2; i++) {
      if (xs[i] > BI_M_TRIGF_MAX) continue;
      mpfr_sub_d(d, t, xs[i], MPFR_RNDN);
      const double dd = fabs(mpfr_get_d(d, MPFR_RNDN));
      if (dd < m) m = dd, mk = k, mx = xs[i];
    }
  }
  printf("m = min |x - k pi/2| over floats 0 < |x| <= 2^20, k != 0: %a = 2^%.3f at k = %ld, x = %a\n", m, log2(m), mk,
         mx);
  if (!(m >= exp2(-27.9))) {
    printf("FAIL: m is below the 2^-27.9 of the proof\n");
    ok = false;
  }
  mpfr_clears(p, t, d, c, (mpfr_ptr)0);
  mpfr_free_cache();
  return ok;
}

/* ---- exhaustive comparison ------------------------------------------------------------------------ */

enum { F_SIN, F_COS, F_TAN, F_SINCOS_S, F_SINCOS_C, NF };
static const char *const FNAME[NF] = {"sin", "cos", "tan", "sincos.sin", "sincos.cos"};

typedef struct job {
  uint32_t lo, hi; /* magnitude bit patterns [lo, hi), both signs */
  uint32_t stride; /* 1, or a sample */
  unsigned long long n, out, mism[NF], slow[4], variant_mism;
  unsigned variants; /* bit v: kernel variant v was compared */ /* out: operands the kernel leaves to the cores */
  double maxerr[3];                                             /* sin, cos, tan approximations vs sinl/cosl/tanl */
  uint32_t first_bad[NF];
} job;

static void run_chunk(job *j, const float *x, unsigned n, bool measure) {
  float y[BI_M_FV_MAX], s[BI_M_FV_MAX], c[BI_M_FV_MAX];
  unsigned (*const fv[3])(const float *, float *, unsigned) = {bi_m_sin_fv, bi_m_cos_fv, bi_m_tan_fv};
  double (*const core[3])(double, bi_mfmt) = {bi_m_sin, bi_m_cos, bi_m_tan};
  float ref[3][BI_M_FV_MAX];
  for (unsigned i = 0; i < n; i++)
    for (int f = 0; f < 3; f++) ref[f][i] = (float)core[f]((double)x[i], BI_MF_F);
  for (int f = 0; f < 3; f++) {
    j->slow[f] += fv[f](x, y, n);
    for (unsigned i = 0; i < n; i++)
      if (bi_m_fbits(y[i]) != bi_m_fbits(ref[f][i])) {
        if (!j->mism[f]++) j->first_bad[f] = bi_m_fbits(x[i]);
      }
  }
  j->slow[3] += bi_m_sincos_fv(x, s, c, n);
  for (unsigned i = 0; i < n; i++) {
    if (bi_m_fbits(s[i]) != bi_m_fbits(ref[F_SIN][i]) && !j->mism[F_SINCOS_S]++)
      j->first_bad[F_SINCOS_S] = bi_m_fbits(x[i]);
    if (bi_m_fbits(c[i]) != bi_m_fbits(ref[F_COS][i]) && !j->mism[F_SINCOS_C]++)
      j->first_bad[F_SINCOS_C] = bi_m_fbits(x[i]);
  }
  j->n += n;
  for (unsigned i = 0; i < n; i++) j->out += !(fabsf(x[i]) <= BI_M_TRIGF_MAX) || x[i] == 0;
  if (!measure) return;
  double sa[BI_M_FV_MAX], ca[BI_M_FV_MAX], sv[BI_M_FV_MAX], cv[BI_M_FV_MAX];
  bi_m_sincos_fa(x, sa, ca, n);
  /* every compiled variant of the kernel must give the same bits as the one in use */
  for (int v = 0; v < 2; v++) {
    if (!bi_m_sincos_fa_variant(v, x, sv, cv, n)) continue;
    j->variants |= 1u << v;
    for (unsigned i = 0; i < n; i++)
      if (fabsf(x[i]) <= BI_M_TRIGF_MAX &&
          (bi_m_bits(sv[i]) != bi_m_bits(sa[i]) || bi_m_bits(cv[i]) != bi_m_bits(ca[i])))
        j->variant_mism++;
  }
  for (unsigned i = 0; i < n; i++) {
    if ((i % 17) || !(fabsf(x[i]) <= BI_M_TRIGF_MAX) || x[i] == 0) continue;
    const long double xl = x[i];
    const long double ex[3] = {sinl(xl), cosl(xl), tanl(xl)};
    const double ap[3] = {sa[i], ca[i], sa[i] / ca[i]};
    for (int f = 0; f < 3; f++) {
      const double e = (double)fabsl((ap[f] - ex[f]) / ex[f]);
      if (e > j->maxerr[f]) j->maxerr[f] = e;
    }
  }
}

static void *worker(void *arg) {
  job *j = arg;
  float x[BI_M_FV_MAX];
  unsigned n = 0;
  for (uint64_t b = j->lo; b < j->hi; b += j->stride)
    for (uint32_t sgn = 0; sgn < 2; sgn++) {
      x[n++] = fl((uint32_t)b | sgn << 31);
      if (n == BI_M_FV_MAX) {
        run_chunk(j, x, n, j->stride == 1);
        n = 0;
      }
    }
  if (n) run_chunk(j, x, n, j->stride == 1);
  return NULL;
}

/* The jobs go to the threads one at a time, in order. */
typedef struct pool {
  job *jobs;
  size_t nj, next;
  pthread_mutex_t mu;
} pool;

static void *pool_run(void *arg) {
  pool *p = arg;
  for (;;) {
    pthread_mutex_lock(&p->mu);
    const size_t i = p->next < p->nj ? p->next++ : p->nj;
    pthread_mutex_unlock(&p->mu);
    if (i == p->nj) return NULL;
    worker(&p->jobs[i]);
  }
}

/* ---- speed on the benchmark's inputs (uniform in [-10, 10]) --------------------------------------- */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void speed(void) {
  enum { N = 1 << 20 };
  float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
  uint64_t st = 12345;
  for (unsigned i = 0; i < N; i++) {
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    x[i] = (float)((double)(st >> 11) * 0x1p-53 * 20 - 10);
  }
  unsigned (*const fv[3])(const float *, float *, unsigned) = {bi_m_sin_fv, bi_m_cos_fv, bi_m_tan_fv};
  double (*const core[3])(double, bi_mfmt) = {bi_m_sin, bi_m_cos, bi_m_tan};
  for (int f = 0; f < 3; f++) {
    double best_fast = 1e9, best_core = 1e9;
    unsigned long long slow = 0;
    for (int rep = 0; rep < 5; rep++) {
      double t0 = now();
      slow = 0;
      for (unsigned i = 0; i < N; i += BI_M_FV_MAX) slow += fv[f](x + i, y + i, BI_M_FV_MAX);
      double t1 = now();
      for (unsigned i = 0; i < N; i++) y[i] = (float)core[f]((double)x[i], BI_MF_F);
      double t2 = now();
      if (t1 - t0 < best_fast) best_fast = t1 - t0;
      if (t2 - t1 < best_core) best_core = t2 - t1;
    }
    printf("speed %-3s |x| <= 10: batch %.2f ns/element (scalar core %.2f), %llu of %u to the scalar core\n", FNAME[f],
           best_fast * 1e9 / N, best_core * 1e9 / N, slow, (unsigned)N);
  }
  free(x);
  free(y);
}

int main(int argc, char **argv) {
  int threads = 2;
  bool quick = false;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-j") && i + 1 < argc) threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-q")) quick = true;
    else {
      fprintf(stderr, "usage: %s [-j THREADS] [-q]\n", argv[0]);
      return 2;
    }
  }
  if (threads < 1) threads = 1;
  bool ok = facts();
  speed();
  if (quick) return ok ? 0 : 1;

  /* magnitudes [0, 2^21] every one; (2^21, inf) every 4099th; inf and NaNs every 65537th */
  const uint32_t top = bi_m_fbits(0x1p21f) + 1;
  enum { CHUNK = 1u << 22 };
  size_t nj = (top + CHUNK - 1) / CHUNK + 2;
  job *jobs = calloc(nj, sizeof *jobs);
  size_t k = 0;
  for (uint32_t b = 0; b < top; b += CHUNK, k++)
    jobs[k] = (job){.lo = b, .hi = b + CHUNK < top ? b + CHUNK : top, .stride = 1};
  jobs[k++] = (job){.lo = top, .hi = 0x7f800000u, .stride = 4099};
  jobs[k++] = (job){.lo = 0x7f800000u, .hi = 0x80000000u, .stride = 65537};
  nj = k;
  const double t0 = now();
  pthread_t *th = calloc((size_t)threads, sizeof *th);
  pool pl = {jobs, nj, 0, PTHREAD_MUTEX_INITIALIZER};
  for (int t = 0; t < threads; t++) pthread_create(&th[t], NULL, pool_run, &pl);
  for (int t = 0; t < threads; t++) pthread_join(th[t], NULL);
  job tot = {0};
  for (size_t i = 0; i < nj; i++) {
    tot.n += jobs[i].n;
    tot.out += jobs[i].out;
    tot.variant_mism += jobs[i].variant_mism;
    tot.variants |= jobs[i].variants;
    for (int f = 0; f < NF; f++) {
      if (jobs[i].mism[f] && !tot.mism[f]) tot.first_bad[f] = jobs[i].first_bad[f];
      tot.mism[f] += jobs[i].mism[f];
    }
    for (int f = 0; f < 4; f++) tot.slow[f] += jobs[i].slow[f];
    for (int f = 0; f < 3; f++)
      if (jobs[i].maxerr[f] > tot.maxerr[f]) tot.maxerr[f] = jobs[i].maxerr[f];
  }
  printf("compared %llu floats (all %llu with |x| <= 2^21, both signs; a sample beyond, inf, NaNs) in %.0f s\n", tot.n,
         2ull * top, now() - t0);
  for (int f = 0; f < NF; f++) {
    printf("  %-11s mismatches %llu", FNAME[f], tot.mism[f]);
    if (tot.mism[f]) printf(" (first x = %a, bits 0x%08x)", fl(tot.first_bad[f]), tot.first_bad[f]);
    printf("\n");
    if (tot.mism[f]) ok = false;
  }
  /* operands beyond 2^20, zeros, inf and NaN go to the scalar core by design; the rest only when
   * the rounding test fails */
  const char *const sn[4] = {"sin", "cos", "tan", "sincos"};
  for (int f = 0; f < 4; f++) {
    const unsigned long long by_design = (f == 3 ? 2 : 1) * tot.out, inr = (f == 3 ? 2 : 1) * (tot.n - tot.out);
    printf(
      "  %-6s to the scalar core: %llu, %llu of them beyond the range or zero; undecided in range: %llu of %llu (%.3g)\n",
      sn[f], tot.slow[f], by_design, tot.slow[f] - by_design, inr, (double)(tot.slow[f] - by_design) / (double)inr);
  }
  printf("  kernel variants compared with the one in use on every float of the range:%s%s; differing: %llu\n",
         tot.variants & 1 ? " baseline" : "", tot.variants & 2 ? " AVX2" : "", tot.variant_mism);
  if (tot.variant_mism) ok = false;
  const double bound[3] = {exp2(-50.4), exp2(-49.6), exp2(-48.9)};
  for (int f = 0; f < 3; f++) {
    printf("  %-3s approximation: largest relative error seen (every 17th float) 2^%.2f, proven bound 2^%.1f\n", sn[f],
           log2(tot.maxerr[f]), log2(bound[f]));
    if (!(tot.maxerr[f] <= bound[f])) ok = false;
  }
  printf("%s\n", ok ? "OK" : "FAILED");
  free(jobs);
  free(th);
  return ok ? 0 : 1;
}
