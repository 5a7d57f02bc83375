/*
 * bi_math_trigf.c — float sin, cos, tan and sincos on a batch of elements: the correctly rounded
 * results of bi_m_sin/bi_m_cos/bi_m_tan(x, BI_MF_F), four to six times faster than through glibc's
 * double sin/cos (which reduce arguments of any size and are called once per element): 5.4 ns per
 * element with SSE2, 3.4 ns with AVX2, against 20 ns.
 *
 * For |x| <= 2^20 (spec-notes/math.md, "Fast float sin, cos, tan", has the proof of every bound):
 *   k = the integer nearest x·RN(2/pi) (the 1.5·2^52 rounding trick), q = k mod 4;
 *   r = ((x - k·C1) - k·C2) - k·C3, pi/2 ~ C1 + C2 + C3: k·C1 and k·C2 are exact (|k| < 2^20, C1 and
 *     C2 of <= 33 bits), x - k·C1 is exact; |r| <= 0.786 and r is within 2.000002·2^-53·|r| of x - k·pi/2
 *     (the nearest a float <= 2^20 comes to a multiple of pi/2 is 2^-27.83, at k = 161);
 *   S = r + (r·z)·P(z), C = 1 + z·Q(z), z = r·r: the Taylor series of sin and cos to r^15 and r^16
 *     (alternating, so truncated within the first omitted term: 2^-53.7 and 2^-58.3 relative);
 *   sin x, cos x = (S, C), (C, -S), (-S, -C), (-C, S) for q = 0, 1, 2, 3; tan x = sin x / cos x.
 * Relative error bounds: sin 2^-50.4, cos 2^-49.6, tan 2^-48.9; the rounding test takes
 * BI_M_REL_TRIGF = 2^-42 (bound assumed 2^-43). Elements it cannot decide, |x| > 2^20, NaN, inf and
 * zeros go to the scalar cores (their own fast path and MPFR), so the results are those of the
 * scalar cores exactly; bench/math_trigf_exhaustive.c compares the two on every float up to 2^21
 * (and the kernel's two compiled copies with each other).
 *
 * The arithmetic assumes every double operation rounds to double once (FLT_EVAL_METHOD 0: SSE2 on
 * x86-64, AArch64, RISC-V) and no contraction into fused multiply-adds (-std=c11 turns GCC's
 * contraction off; the Makefile builds this file at -O3, which keeps ISO semantics). Elsewhere the
 * batch functions call the scalar cores.
 */
#include "bi_math.h"

#if FLT_EVAL_METHOD == 0
#define FAST_TRIGF 1
#else
#define FAST_TRIGF 0
#endif

#if FAST_TRIGF

/* x·RN(2/pi) + 1.5·2^52 rounds to an integer (|x·2/pi| < 2^51, so the sum lies in [2^52, 2^53)
 * where the spacing is 1); subtracting the constant again is exact. */
#define SHIFTER 0x1.8p52

/* Taylor coefficients (-1)^n / (2n+1)! (sin, n = 1..7) and (-1)^n / (2n)! (cos, n = 1..8), each
 * rounded once: the factorials up to 16! are exact doubles. */
static const double SC[7] = {-1.0 / 6,        1.0 / 120,          -1.0 / 5040,           1.0 / 362880,
                             -1.0 / 39916800, 1.0 / 6227020800.0, -1.0 / 1307674368000.0};
static const double CC[8] = {-1.0 / 2,       1.0 / 24,        -1.0 / 720,           1.0 / 40320,
                             -1.0 / 3628800, 1.0 / 479001600, -1.0 / 87178291200.0, 1.0 / 20922789888000.0};

static inline uint64_t bits(double v) {
  uint64_t b;
  memcpy(&b, &v, 8);
  return b;
}
static inline double from(uint64_t b) {
  double v;
  memcpy(&v, &b, 8);
  return v;
}

/* All ones when |x| <= 2^20 (not NaN, not inf), else 0; on the bits, as the kernel's selections
 * (a floating-point comparison would be a branch GCC does not convert). */
static inline uint64_t in_range(float x) {
  return 0 - (uint64_t)((bi_m_fbits(x) & 0x7fffffffu) <= bi_m_fbits((float)BI_M_TRIGF_MAX));
}

/* Approximations of sin x and cos x for n elements. Operands beyond 2^20 (and NaN, inf) are
 * replaced by 0 so that the arithmetic stays in its proven range; their results are discarded by
 * the callers. Straight-line code with selections done on bits, so that the loop vectorises. */
static inline __attribute__((always_inline)) void kernel_body(const float *x, double *s, double *c, unsigned n) {
  for (unsigned i = 0; i < n; i++) {
    const double xd = from(bits((double)x[i]) & in_range(x[i]));
    const double t = xd * BI_M_INVPIO2 + SHIFTER;
    const double k = t - SHIFTER;
    const uint64_t q = bits(t); /* significand 2^51 + k: its low two bits are k mod 4 */
    const double r = ((xd - k * BI_M_PIO2_1) - k * BI_M_PIO2_2) - k * BI_M_PIO2_3;
    const double z = r * r;
    double p = SC[6];
    for (int j = 5; j >= 0; j--) p = SC[j] + z * p;
    double h = CC[7];
    for (int j = 6; j >= 0; j--) h = CC[j] + z * h;
    const double sr = r + (r * z) * p, cr = 1.0 + z * h;
    /* odd quadrants swap sin and cos; sin x is negated in quadrants 2, 3, cos x in 1, 2 */
    const uint64_t odd = 0 - (q & 1), bs = bits(sr), bc = bits(cr);
    const uint64_t sneg = (q & 2) << 62, cneg = ((q + 1) & 2) << 62;
    s[i] = from(((bs & ~odd) | (bc & odd)) ^ sneg);
    c[i] = from(((bc & ~odd) | (bs & odd)) ^ cneg);
  }
}

/* The rounding test of bi_m_decide(a, BI_M_REL_TRIGF, 0, BI_MF_F, &out) for a finite a (the kernel's
 * results are: |tan| < 2^29), without branches: true when both ends of a ± e round to one float.
 * Equivalent: with sign 0, bi_m_decide's only other success (both ends zeros) cannot happen here,
 * and its infinite-a branch is not reached. Also false for operands outside the kernel's range and
 * for zeros (sin(±0) = ±0, the kernel's ±0 would fail the test anyway for sin and tan). */
static inline bool decided(float x, double a, float *out) {
  const double e = fabs(a) * BI_M_REL_TRIGF + 0x1p-1021;
  const float l = (float)(a - e), h = (float)(a + e);
  *out = l;
  return (bi_m_fbits(l) == bi_m_fbits(h)) & (in_range(x) != 0) & ((bi_m_fbits(x) & 0x7fffffffu) != 0);
}

/* The kernel compiled twice: for the baseline (SSE2 on x86-64: two doubles per operation) and, on
 * x86-64 with GCC or Clang, for AVX2 (four), chosen at run time. The two execute the same IEEE
 * operations in the same order (no FMA: contraction is off in ISO C mode, and the AVX2 target does
 * not enable FMA instructions anyway), so their results are identical; the exhaustive check runs
 * both (bi_m_sincos_fa_variant). */
static void kernel_base(const float *x, double *s, double *c, unsigned n) { kernel_body(x, s, c, n); }
#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_AVX2_KERNEL 1
__attribute__((target("avx2"))) static void kernel_avx2(const float *x, double *s, double *c, unsigned n) {
  kernel_body(x, s, c, n);
}
static inline bool use_avx2(void) { return __builtin_cpu_supports("avx2"); }
#else
#define HAVE_AVX2_KERNEL 0
#endif

static inline void kernel(const float *x, double *s, double *c, unsigned n) {
#if HAVE_AVX2_KERNEL
  if (use_avx2()) {
    kernel_avx2(x, s, c, n);
    return;
  }
#endif
  kernel_base(x, s, c, n);
}

void bi_m_sincos_fa(const float *x, double *s, double *c, unsigned n) { kernel(x, s, c, n); }

bool bi_m_sincos_fa_variant(int v, const float *x, double *s, double *c, unsigned n) {
  if (v == 0) {
    kernel_base(x, s, c, n);
    return true;
  }
#if HAVE_AVX2_KERNEL
  if (v == 1 && use_avx2()) {
    kernel_avx2(x, s, c, n);
    return true;
  }
#endif
  return false;
}

/* One function's batch: approximations, then the test for all, then the scalar core for the rest
 * (a separate pass, so that the first two stay free of calls). */
#define BATCH_FN(NAME, CORE, RESULT)                                        \
  unsigned NAME(const float *x, float *y, unsigned n) {                     \
    double s[BI_M_FV_MAX], c[BI_M_FV_MAX];                                  \
    bool ok[BI_M_FV_MAX];                                                   \
    float xs[BI_M_FV_MAX];                                                  \
    memcpy(xs, x, n * sizeof *x); /* x may be y */                          \
    kernel(xs, s, c, n);                                                    \
    for (unsigned i = 0; i < n; i++) ok[i] = decided(xs[i], RESULT, &y[i]); \
    unsigned slow = 0;                                                      \
    for (unsigned i = 0; i < n; i++)                                        \
      if (!ok[i]) {                                                         \
        y[i] = (float)CORE((double)xs[i], BI_MF_F);                         \
        slow++;                                                             \
      }                                                                     \
    return slow;                                                            \
  }

BATCH_FN(bi_m_sin_fv, bi_m_sin, s[i])
BATCH_FN(bi_m_cos_fv, bi_m_cos, c[i])
BATCH_FN(bi_m_tan_fv, bi_m_tan, s[i] / c[i])

unsigned bi_m_sincos_fv(const float *x, float *so, float *co, unsigned n) {
  double s[BI_M_FV_MAX], c[BI_M_FV_MAX];
  bool oks[BI_M_FV_MAX], okc[BI_M_FV_MAX];
  float xs[BI_M_FV_MAX];
  memcpy(xs, x, n * sizeof *x);
  kernel(xs, s, c, n);
  for (unsigned i = 0; i < n; i++) {
    oks[i] = decided(xs[i], s[i], &so[i]);
    okc[i] = decided(xs[i], c[i], &co[i]);
  }
  unsigned slow = 0;
  for (unsigned i = 0; i < n; i++) {
    if (!oks[i]) so[i] = (float)bi_m_sin((double)xs[i], BI_MF_F);
    if (!okc[i]) co[i] = (float)bi_m_cos((double)xs[i], BI_MF_F);
    slow += !oks[i] + !okc[i];
  }
  return slow;
}

#else /* no fast kernel: the scalar cores */

void bi_m_sincos_fa(const float *x, double *s, double *c, unsigned n) {
  for (unsigned i = 0; i < n; i++) {
    s[i] = sin(x[i]);
    c[i] = cos(x[i]);
  }
}

bool bi_m_sincos_fa_variant(int v, const float *x, double *s, double *c, unsigned n) {
  if (v) return false;
  bi_m_sincos_fa(x, s, c, n);
  return true;
}

#define BATCH_FN(NAME, CORE)                                                    \
  unsigned NAME(const float *x, float *y, unsigned n) {                         \
    for (unsigned i = 0; i < n; i++) y[i] = (float)CORE((double)x[i], BI_MF_F); \
    return n;                                                                   \
  }
BATCH_FN(bi_m_sin_fv, bi_m_sin)
BATCH_FN(bi_m_cos_fv, bi_m_cos)
BATCH_FN(bi_m_tan_fv, bi_m_tan)

unsigned bi_m_sincos_fv(const float *x, float *so, float *co, unsigned n) {
  for (unsigned i = 0; i < n; i++) {
    const double v = x[i];
    so[i] = (float)bi_m_sin(v, BI_MF_F);
    co[i] = (float)bi_m_cos(v, BI_MF_F);
  }
  return 2 * n;
}

#endif
