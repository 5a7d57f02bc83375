/*
 * bi_math_mp.c — the slow path of the correctly rounded math functions (bi_math.h): evaluate one
 * operation with MPFR, correctly rounded to binary16, binary32 or binary64 (round to nearest even).
 *
 * MPFR's functions return the correctly rounded result of the exact function at any precision, in
 * every case (exact results and ties included); the documented recipe for emulating an IEEE format
 * (MPFR manual, mpfr_subnormalize) is: restrict the exponent range to the format's (emin = the
 * exponent of the smallest subnormal + 1 in MPFR's [0.5, 1) convention, emax = the format's), compute
 * at the format's precision, then mpfr_subnormalize with the ternary value, which rounds once onto
 * the subnormal grid (no double rounding) and leaves normal results alone; overflow gives ±inf in
 * round-to-nearest. The exponent range is global MPFR state (thread-local in thread-safe builds): it
 * is saved and restored around every evaluation, so callers (tests, other builtins) see no change.
 *
 * Threads (the executor runs work-groups on worker threads): variables are allocated per call
 * (pass-local; the cost is negligible next to the MPFR evaluation, and the fallback runs for a small
 * fraction of calls). With a thread-safe MPFR (mpfr_buildopt_tls_p: exponent range and constant
 * caches are thread-local; Debian's build is) evaluations run concurrently; otherwise a mutex
 * serialises them, since the exponent range would be shared. MPFR caches constants (pi, log 2 ...)
 * per thread: a thread-specific-data destructor frees a worker thread's caches when it exits
 * (mpfr_free_cache2, local caches) and an atexit handler frees the exiting thread's (mpfr_free_cache),
 * so leak checkers stay quiet. The fallback counter is per thread.
 *
 * The operands are values of the target format (half/float values widened exactly to double), so
 * setting them at 53 bits is exact and inside the restricted exponent range.
 */
#include "bi_math.h"

#include <mpfr.h>
#include <pthread.h>
#include <stdlib.h>

static _Thread_local unsigned long long fallbacks;
static _Thread_local bool registered; /* this thread's caches are freed at its exit */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_key_t cache_key;
static bool key_ok, mpfr_thread_safe;
static pthread_mutex_t serial = PTHREAD_MUTEX_INITIALIZER;

unsigned long long bi_math_fallbacks(void) { return fallbacks; }

static void free_thread_cache(void *unused) {
  (void)unused;
  mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
}
static void free_exit_cache(void) { mpfr_free_cache(); }
static void init_once(void) {
  key_ok = pthread_key_create(&cache_key, free_thread_cache) == 0;
  mpfr_thread_safe = mpfr_buildopt_tls_p() != 0;
  atexit(free_exit_cache);
}

/* ---- operations ----------------------------------------------------------------------------------
 * One signature for all (result, x, y, n, rounding); the macro adapts MPFR's one-operand functions,
 * which would otherwise need one identical wrapper each. */
typedef int (*mp_fn)(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, long n, mpfr_rnd_t m);

#define MP1(NAME, MPFN)                                                             \
  static int NAME(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, long n, mpfr_rnd_t m) { \
    (void)y;                                                                        \
    (void)n;                                                                        \
    return MPFN(r, x, m);                                                           \
  }
MP1(mp_acos, mpfr_acos)
MP1(mp_acosh, mpfr_acosh)
MP1(mp_acospi, mpfr_acospi)
MP1(mp_asin, mpfr_asin)
MP1(mp_asinh, mpfr_asinh)
MP1(mp_asinpi, mpfr_asinpi)
MP1(mp_atan, mpfr_atan)
MP1(mp_atanh, mpfr_atanh)
MP1(mp_atanpi, mpfr_atanpi)
MP1(mp_cbrt, mpfr_cbrt)
MP1(mp_cos, mpfr_cos)
MP1(mp_cosh, mpfr_cosh)
MP1(mp_cospi, mpfr_cospi)
MP1(mp_erf, mpfr_erf)
MP1(mp_erfc, mpfr_erfc)
MP1(mp_exp, mpfr_exp)
MP1(mp_exp2, mpfr_exp2)
MP1(mp_exp10, mpfr_exp10)
MP1(mp_expm1, mpfr_expm1)
MP1(mp_log, mpfr_log)
MP1(mp_log2, mpfr_log2)
MP1(mp_log10, mpfr_log10)
MP1(mp_log1p, mpfr_log1p)
MP1(mp_rsqrt, mpfr_rec_sqrt)
MP1(mp_sin, mpfr_sin)
MP1(mp_sinh, mpfr_sinh)
MP1(mp_sinpi, mpfr_sinpi)
MP1(mp_tan, mpfr_tan)
MP1(mp_tanh, mpfr_tanh)
MP1(mp_tanpi, mpfr_tanpi)
MP1(mp_tgamma, mpfr_gamma)
MP1(mp_sqrt, mpfr_sqrt)

static int mp_lgamma(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, long n, mpfr_rnd_t m) {
  (void)y;
  (void)n;
  int sign;
  return mpfr_lgamma(r, &sign, x, m);
}
static int mp_recip(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, long n, mpfr_rnd_t m) {
  (void)y;
  (void)n;
  return mpfr_ui_div(r, 1, x, m);
}
static int mp_atan2(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, long n, mpfr_rnd_t m) {
  (void)n;
  return mpfr_atan2(r, x, y, m);
}
static int mp_atan2pi(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, long n, mpfr_rnd_t m) {
  (void)n;
  return mpfr_atan2pi(r, x, y, m);
}
static int mp_hypot(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, long n, mpfr_rnd_t m) {
  (void)n;
  return mpfr_hypot(r, x, y, m);
}
static int mp_pow(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, long n, mpfr_rnd_t m) {
  (void)n;
  return mpfr_pow(r, x, y, m);
}
static int mp_div(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, long n, mpfr_rnd_t m) {
  (void)n;
  return mpfr_div(r, x, y, m);
}
static int mp_pown(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, long n, mpfr_rnd_t m) {
  (void)y;
  return mpfr_pow_si(r, x, n, m);
}
static int mp_rootn(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, long n, mpfr_rnd_t m) {
  (void)y;
  return mpfr_rootn_si(r, x, n, m);
}

static const mp_fn ops[BI_MOP_COUNT] = {
  [BI_MOP_ACOS] = mp_acos,     [BI_MOP_ACOSH] = mp_acosh,   [BI_MOP_ACOSPI] = mp_acospi, [BI_MOP_ASIN] = mp_asin,
  [BI_MOP_ASINH] = mp_asinh,   [BI_MOP_ASINPI] = mp_asinpi, [BI_MOP_ATAN] = mp_atan,     [BI_MOP_ATANH] = mp_atanh,
  [BI_MOP_ATANPI] = mp_atanpi, [BI_MOP_CBRT] = mp_cbrt,     [BI_MOP_COS] = mp_cos,       [BI_MOP_COSH] = mp_cosh,
  [BI_MOP_COSPI] = mp_cospi,   [BI_MOP_ERF] = mp_erf,       [BI_MOP_ERFC] = mp_erfc,     [BI_MOP_EXP] = mp_exp,
  [BI_MOP_EXP2] = mp_exp2,     [BI_MOP_EXP10] = mp_exp10,   [BI_MOP_EXPM1] = mp_expm1,   [BI_MOP_LGAMMA] = mp_lgamma,
  [BI_MOP_LOG] = mp_log,       [BI_MOP_LOG2] = mp_log2,     [BI_MOP_LOG10] = mp_log10,   [BI_MOP_LOG1P] = mp_log1p,
  [BI_MOP_RSQRT] = mp_rsqrt,   [BI_MOP_SIN] = mp_sin,       [BI_MOP_SINH] = mp_sinh,     [BI_MOP_SINPI] = mp_sinpi,
  [BI_MOP_TAN] = mp_tan,       [BI_MOP_TANH] = mp_tanh,     [BI_MOP_TANPI] = mp_tanpi,   [BI_MOP_TGAMMA] = mp_tgamma,
  [BI_MOP_RECIP] = mp_recip,   [BI_MOP_SQRT] = mp_sqrt,     [BI_MOP_ATAN2] = mp_atan2,   [BI_MOP_ATAN2PI] = mp_atan2pi,
  [BI_MOP_HYPOT] = mp_hypot,   [BI_MOP_POW] = mp_pow,       [BI_MOP_DIV] = mp_div,       [BI_MOP_POWN] = mp_pown,
  [BI_MOP_ROOTN] = mp_rootn,
};

/* Precision and exponent range per format (MPFR's significand is in [0.5, 1): the smallest
 * subnormal 2^-24 / 2^-149 / 2^-1074 has MPFR exponent -23 / -148 / -1073; the largest finite value
 * is below 2^16 / 2^128 / 2^1024). */
static const struct {
  mpfr_prec_t prec;
  mpfr_exp_t emin, emax;
} fmts[] = {
  [BI_MF_H] = {11, -23, 16},
  [BI_MF_F] = {24, -148, 128},
  [BI_MF_D] = {53, -1073, 1024},
};

double bi_m_mpfr(bi_mop op, double x, double y, long n, bi_mfmt fmt) {
  fallbacks++;
  pthread_once(&once, init_once);
  if (!registered && key_ok) {
    registered = true;
    pthread_setspecific(cache_key, &registered); /* non-NULL: the destructor runs at thread exit */
  }
  if (!mpfr_thread_safe) pthread_mutex_lock(&serial);
  const mpfr_exp_t old_emin = mpfr_get_emin(), old_emax = mpfr_get_emax();
  mpfr_t r, a, b;
  mpfr_init2(r, fmts[fmt].prec);
  mpfr_init2(a, 53);
  mpfr_init2(b, 53);
  mpfr_set_emin(mpfr_get_emin_min()); /* whatever range the caller left: the operands fit */
  mpfr_set_emax(mpfr_get_emax_max());
  mpfr_set_d(a, x, MPFR_RNDN); /* exact */
  mpfr_set_d(b, y, MPFR_RNDN);
  mpfr_set_emin(fmts[fmt].emin);
  mpfr_set_emax(fmts[fmt].emax);
  int t = ops[op](r, a, b, n, MPFR_RNDN);
  t = mpfr_subnormalize(r, t, MPFR_RNDN);
  (void)t;
  /* exact: r has the target's precision and range; NaN results become the canonical NaN */
  const double out = mpfr_nan_p(r) ? bi_m_nan() : mpfr_get_d(r, MPFR_RNDN);
  mpfr_set_emin(old_emin);
  mpfr_set_emax(old_emax);
  mpfr_clears(r, a, b, (mpfr_ptr)0);
  if (!mpfr_thread_safe) pthread_mutex_unlock(&serial);
  return out;
}
