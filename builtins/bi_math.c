/*
 * bi_math.c — the rows of the correctly rounded OpenCL.std math functions (OpenCL C 3.0 §6.15.2) and
 * their lane loops: acos ... tgamma, pown/rootn (int32 exponent operand), ilogb (int32 result),
 * sincos/lgamma_r (pointer outputs), logb, and the half_* / native_* families.
 *
 * The scalar cores live in bi_math_exp.c, bi_math_trig.c and bi_math_special.c (interface and method
 * in bi_math.h). Every result is the correctly rounded value of the exact function, so results are
 * unique and host-independent.
 *
 * half_* and native_* (§6.15.2, table "Built-in Scalar and Vector half and native Math Functions";
 * accuracy <= 8192 ulp resp. implementation-defined): spvi defines half_X and native_X as the
 * correctly rounded X — half_divide / native_divide = x / y and half_recip / native_recip = 1 / x
 * correctly rounded, half_powr / native_powr = powr (with powr's edge cases), half_sqrt / native_sqrt
 * = sqrt. That satisfies every allowed accuracy and the edge cases the spec requires of half_X
 * (§7.5: "half_<funcname> functions behave identically to the function of the same name"), and makes
 * kernels using them produce reference results. half_* exist for float only (OpenCL C: "gentype ...
 * float, float2 ..."); native_* are accepted for half, float and double, as the OpenCL.std operand
 * rules allow floating-point of any width.
 */
#include "bi_impl.h"
#include "bi_math.h"
#include "gen_spv_tables.h"

static inline double h2d(uint16_t h) { return bi_half_to_double(h); }
static inline uint16_t d2h(double d) { return bi_half_from_double(d, BI_RTE); }

/* ---- elementwise functions of half/float/double operands ----------------------------------------
 * MATH1/MATH2 give one core (double operands + target format) its three typed scalar wrappers and
 * the three lane loops of bi_impl.h: the same six definitions for each of ~40 functions. The core's
 * result is a value of the target format, so the conversions back are exact. */

#define MATH1(NAME, CORE)                                                             \
  static inline uint16_t NAME##_hs(uint16_t x) { return d2h(CORE(h2d(x), BI_MF_H)); } \
  static inline float NAME##_fs(float x) { return (float)CORE((double)x, BI_MF_F); }  \
  static inline double NAME##_ds(double x) { return CORE(x, BI_MF_D); }               \
  BI_EW1(NAME##_h, uint16_t, uint16_t, NAME##_hs)                                     \
  BI_EW1(NAME##_f, float, float, NAME##_fs)                                           \
  BI_EW1(NAME##_d, double, double, NAME##_ds)

/* sin, cos, tan: half and double as MATH1; float through the batch kernel of bi_math_trigf.c, which
 * needs the elements of many lanes side by side (trig_f). */
#define MATH1_HD(NAME, CORE)                                                          \
  static inline uint16_t NAME##_hs(uint16_t x) { return d2h(CORE(h2d(x), BI_MF_H)); } \
  static inline double NAME##_ds(double x) { return CORE(x, BI_MF_D); }               \
  BI_EW1(NAME##_h, uint16_t, uint16_t, NAME##_hs)                                     \
  BI_EW1(NAME##_d, double, double, NAME##_ds)                                         \
  static bool NAME##_f(const bi_call *c) { return trig_f(c, bi_m_##NAME##_fv); }

#define MATH2(NAME, CORE)                                                                                 \
  static inline uint16_t NAME##_hs(uint16_t x, uint16_t y) { return d2h(CORE(h2d(x), h2d(y), BI_MF_H)); } \
  static inline float NAME##_fs(float x, float y) { return (float)CORE((double)x, (double)y, BI_MF_F); }  \
  static inline double NAME##_ds(double x, double y) { return CORE(x, y, BI_MF_D); }                      \
  BI_EW2(NAME##_h, uint16_t, uint16_t, NAME##_hs)                                                         \
  BI_EW2(NAME##_f, float, float, NAME##_fs)                                                               \
  BI_EW2(NAME##_d, double, double, NAME##_ds)

/* Gathers the float elements of as many lanes as a batch holds (BI_M_FV_MAX / n lanes), applies fv
 * and scatters the results. All sources are read before any destination is written, so a result
 * register that is also the operand's is fine. */
static inline bool trig_f(const bi_call *c, unsigned (*fv)(const float *, float *, unsigned)) {
  const unsigned n = bi_lit_n(c->literal), per = BI_M_FV_MAX / n;
  float v[BI_M_FV_MAX];
  for (uint32_t i0 = 0; i0 < c->nlanes; i0 += per) {
    const uint32_t i1 = c->nlanes - i0 < per ? c->nlanes : i0 + per;
    unsigned m = 0;
    if (n == 1) { /* scalars, the common case: fixed-size copies instead of memcpy calls */
      for (uint32_t i = i0; i < i1; i++) memcpy(v + m++, bi_src(c, 0, c->lanes[i]), sizeof(float));
      fv(v, v, m);
      m = 0;
      for (uint32_t i = i0; i < i1; i++) memcpy(bi_dst(c, c->lanes[i]), v + m++, sizeof(float));
      continue;
    }
    for (uint32_t i = i0; i < i1; i++, m += n) memcpy(v + m, bi_src(c, 0, c->lanes[i]), n * sizeof(float));
    fv(v, v, m);
    m = 0;
    for (uint32_t i = i0; i < i1; i++, m += n) memcpy(bi_dst(c, c->lanes[i]), v + m, n * sizeof(float));
  }
  return true;
}

static double logb_core(double x, bi_mfmt f) {
  (void)f;
  return bi_m_logb(x); /* exact in every format: |logb| <= 1074 */
}

MATH1(acos, bi_m_acos)
MATH1(acosh, bi_m_acosh)
MATH1(acospi, bi_m_acospi)
MATH1(asin, bi_m_asin)
MATH1(asinh, bi_m_asinh)
MATH1(asinpi, bi_m_asinpi)
MATH1(atan, bi_m_atan)
MATH1(atanh, bi_m_atanh)
MATH1(atanpi, bi_m_atanpi)
MATH1(cbrt, bi_m_cbrt)
MATH1_HD(cos, bi_m_cos)
MATH1(cosh, bi_m_cosh)
MATH1(cospi, bi_m_cospi)
MATH1(erfc, bi_m_erfc)
MATH1(erf, bi_m_erf)
MATH1(exp, bi_m_exp)
MATH1(exp2, bi_m_exp2)
MATH1(exp10, bi_m_exp10)
MATH1(expm1, bi_m_expm1)
MATH1(lgamma, bi_m_lgamma)
MATH1(log, bi_m_log)
MATH1(log2, bi_m_log2)
MATH1(log10, bi_m_log10)
MATH1(log1p, bi_m_log1p)
MATH1(logb, logb_core)
MATH1(rsqrt, bi_m_rsqrt)
MATH1_HD(sin, bi_m_sin)
MATH1(sinh, bi_m_sinh)
MATH1(sinpi, bi_m_sinpi)
MATH1_HD(tan, bi_m_tan)
MATH1(tanh, bi_m_tanh)
MATH1(tanpi, bi_m_tanpi)
MATH1(tgamma, bi_m_tgamma)
MATH1(sqrt, bi_m_sqrt)
MATH1(recip, bi_m_recip)
MATH2(atan2, bi_m_atan2)
MATH2(atan2pi, bi_m_atan2pi)
MATH2(hypot, bi_m_hypot)
MATH2(pow, bi_m_pow)
MATH2(powr, bi_m_powr)
MATH2(divide, bi_m_divide)

/* ---- functions with int32 operands or results, or pointer outputs ---------------------------------
 * These take or produce a second type (an int32 vector of the same count, or memory), so they use
 * one generic loop each, parametrised by the format; the element access is by format. */

static const unsigned esize[] = {[BI_MF_H] = 2, [BI_MF_F] = 4, [BI_MF_D] = 8};

static inline double load_e(const uint8_t *p, bi_mfmt f) {
  if (f == BI_MF_H) {
    uint16_t h;
    memcpy(&h, p, 2);
    return h2d(h);
  }
  if (f == BI_MF_F) {
    float x;
    memcpy(&x, p, 4);
    return x;
  }
  double x;
  memcpy(&x, p, 8);
  return x;
}

static inline void store_e(uint8_t *p, double v, bi_mfmt f) {
  if (f == BI_MF_H) {
    const uint16_t h = d2h(v);
    memcpy(p, &h, 2);
  } else if (f == BI_MF_F) {
    const float x = (float)v;
    memcpy(p, &x, 4);
  } else {
    memcpy(p, &v, 8);
  }
}

/* pown(x, n), rootn(x, n): n is an int32 vector with x's count (BI_SIG_F_INTN). */
static bool loop_fi(const bi_call *c, double (*fn)(double, int32_t, bi_mfmt), bi_mfmt f) {
  const unsigned n = bi_lit_n(c->literal), es = esize[f];
  for (uint32_t i = 0; i < c->nlanes; i++) {
    const size_t l = c->lanes[i];
    const uint8_t *a = bi_src(c, 0, l), *b = bi_src(c, 1, l);
    uint8_t *d = bi_dst(c, l);
    for (unsigned k = 0; k < n; k++) {
      int32_t m;
      memcpy(&m, b + 4 * k, 4);
      store_e(d + k * es, fn(load_e(a + k * es, f), m, f), f);
    }
  }
  return true;
}

/* ilogb(x): an int32 vector with x's count (BI_SIG_INTN_F). */
static bool loop_ilogb(const bi_call *c, bi_mfmt f) {
  const unsigned n = bi_lit_n(c->literal), es = esize[f];
  for (uint32_t i = 0; i < c->nlanes; i++) {
    const size_t l = c->lanes[i];
    const uint8_t *a = bi_src(c, 0, l);
    uint8_t *d = bi_dst(c, l);
    for (unsigned k = 0; k < n; k++) {
      const int32_t r = bi_m_ilogb(load_e(a + k * es, f));
      memcpy(d + 4 * k, &r, 4);
    }
  }
  return true;
}

/* sincos(x, cosval) and lgamma_r(x, signp): the second operand points to n elements (x's type,
 * resp. int32) that receive cos(x) resp. the sign of Gamma(x). Each lane's whole output goes through
 * bi_mem.access (bounds-checked); on NULL (a recorded fault) the builtin stops at once, leaving the
 * earlier lanes' effects. */
static uint8_t *out_ptr(const bi_call *c, size_t l, uint64_t bytes) {
  const uint64_t p = bi_load_uint(bi_src(c, 1, l), bi_lit_ptr64(c->literal) ? 8 : 4);
  return c->mem->access(c->mem->ctx, (unsigned)l, p, bytes, true);
}

/* float sincos: the batch kernel over BI_M_FV_MAX / n lanes at a time, then each lane's pointer
 * checked and written in lane order, as the generic loop does. */
static bool sincos_f(const bi_call *c) {
  const unsigned n = bi_lit_n(c->literal), per = BI_M_FV_MAX / n;
  float v[BI_M_FV_MAX], s[BI_M_FV_MAX], co[BI_M_FV_MAX];
  for (uint32_t i0 = 0; i0 < c->nlanes; i0 += per) {
    const uint32_t i1 = c->nlanes - i0 < per ? c->nlanes : i0 + per;
    unsigned m = 0;
    for (uint32_t i = i0; i < i1; i++, m += n) memcpy(v + m, bi_src(c, 0, c->lanes[i]), n * sizeof(float));
    bi_m_sincos_fv(v, s, co, m);
    m = 0;
    for (uint32_t i = i0; i < i1; i++, m += n) {
      const size_t l = c->lanes[i];
      uint8_t *p = out_ptr(c, l, (uint64_t)n * sizeof(float));
      if (!p) return false;
      memcpy(bi_dst(c, l), s + m, n * sizeof(float));
      memcpy(p, co + m, n * sizeof(float));
    }
  }
  return true;
}

static bool loop_sincos(const bi_call *c, bi_mfmt f) {
  const unsigned n = bi_lit_n(c->literal), es = esize[f];
  for (uint32_t i = 0; i < c->nlanes; i++) {
    const size_t l = c->lanes[i];
    uint8_t *m = out_ptr(c, l, (uint64_t)n * es);
    if (!m) return false;
    const uint8_t *a = bi_src(c, 0, l);
    uint8_t *d = bi_dst(c, l);
    for (unsigned k = 0; k < n; k++) {
      const double x = load_e(a + k * es, f);
      store_e(d + k * es, bi_m_sin(x, f), f);
      store_e(m + k * es, bi_m_cos(x, f), f);
    }
  }
  return true;
}

static bool loop_lgamma_r(const bi_call *c, bi_mfmt f) {
  const unsigned n = bi_lit_n(c->literal), es = esize[f];
  for (uint32_t i = 0; i < c->nlanes; i++) {
    const size_t l = c->lanes[i];
    uint8_t *m = out_ptr(c, l, (uint64_t)n * 4);
    if (!m) return false;
    const uint8_t *a = bi_src(c, 0, l);
    uint8_t *d = bi_dst(c, l);
    for (unsigned k = 0; k < n; k++) {
      const double x = load_e(a + k * es, f);
      const int32_t s = bi_m_lgamma_sign(x);
      store_e(d + k * es, bi_m_lgamma(x, f), f);
      memcpy(m + 4 * k, &s, 4);
    }
  }
  return true;
}

/* The typed entry points of the generic loops (one per format, as the row slots need). */
#define PER_FORMAT(NAME, CALL)                                        \
  static bool NAME##_h(const bi_call *c) { return CALL(c, BI_MF_H); } \
  static bool NAME##_f(const bi_call *c) { return CALL(c, BI_MF_F); } \
  static bool NAME##_d(const bi_call *c) { return CALL(c, BI_MF_D); }

#define LOOP_POWN(c, f) loop_fi(c, bi_m_pown, f)
#define LOOP_ROOTN(c, f) loop_fi(c, bi_m_rootn, f)
PER_FORMAT(pown, LOOP_POWN)
PER_FORMAT(rootn, LOOP_ROOTN)
PER_FORMAT(ilogb, loop_ilogb)
static bool sincos_h(const bi_call *c) { return loop_sincos(c, BI_MF_H); }
static bool sincos_d(const bi_call *c) { return loop_sincos(c, BI_MF_D); }
PER_FORMAT(lgamma_r, loop_lgamma_r)

/* ---- rows ---------------------------------------------------------------------------------------- */

#define F32_ONLY(p) \
  { [BI_T_F32] = p##_f }

static const bi_row rows[] = {
  {OCLSTD_acos, BI_SIG_F1, 0, BI_SLOTS_F(acos)},
  {OCLSTD_acosh, BI_SIG_F1, 0, BI_SLOTS_F(acosh)},
  {OCLSTD_acospi, BI_SIG_F1, 0, BI_SLOTS_F(acospi)},
  {OCLSTD_asin, BI_SIG_F1, 0, BI_SLOTS_F(asin)},
  {OCLSTD_asinh, BI_SIG_F1, 0, BI_SLOTS_F(asinh)},
  {OCLSTD_asinpi, BI_SIG_F1, 0, BI_SLOTS_F(asinpi)},
  {OCLSTD_atan, BI_SIG_F1, 0, BI_SLOTS_F(atan)},
  {OCLSTD_atan2, BI_SIG_F2, 0, BI_SLOTS_F(atan2)},
  {OCLSTD_atanh, BI_SIG_F1, 0, BI_SLOTS_F(atanh)},
  {OCLSTD_atanpi, BI_SIG_F1, 0, BI_SLOTS_F(atanpi)},
  {OCLSTD_atan2pi, BI_SIG_F2, 0, BI_SLOTS_F(atan2pi)},
  {OCLSTD_cbrt, BI_SIG_F1, 0, BI_SLOTS_F(cbrt)},
  {OCLSTD_cos, BI_SIG_F1, 0, BI_SLOTS_F(cos)},
  {OCLSTD_cosh, BI_SIG_F1, 0, BI_SLOTS_F(cosh)},
  {OCLSTD_cospi, BI_SIG_F1, 0, BI_SLOTS_F(cospi)},
  {OCLSTD_erfc, BI_SIG_F1, 0, BI_SLOTS_F(erfc)},
  {OCLSTD_erf, BI_SIG_F1, 0, BI_SLOTS_F(erf)},
  {OCLSTD_exp, BI_SIG_F1, 0, BI_SLOTS_F(exp)},
  {OCLSTD_exp2, BI_SIG_F1, 0, BI_SLOTS_F(exp2)},
  {OCLSTD_exp10, BI_SIG_F1, 0, BI_SLOTS_F(exp10)},
  {OCLSTD_expm1, BI_SIG_F1, 0, BI_SLOTS_F(expm1)},
  {OCLSTD_hypot, BI_SIG_F2, 0, BI_SLOTS_F(hypot)},
  {OCLSTD_ilogb, BI_SIG_INTN_F, 0, BI_SLOTS_F(ilogb)},
  {OCLSTD_lgamma, BI_SIG_F1, 0, BI_SLOTS_F(lgamma)},
  {OCLSTD_lgamma_r, BI_SIG_F_PTRINTN, 0, BI_SLOTS_F(lgamma_r)},
  {OCLSTD_log, BI_SIG_F1, 0, BI_SLOTS_F(log)},
  {OCLSTD_log2, BI_SIG_F1, 0, BI_SLOTS_F(log2)},
  {OCLSTD_log10, BI_SIG_F1, 0, BI_SLOTS_F(log10)},
  {OCLSTD_log1p, BI_SIG_F1, 0, BI_SLOTS_F(log1p)},
  {OCLSTD_logb, BI_SIG_F1, 0, BI_SLOTS_F(logb)},
  {OCLSTD_pow, BI_SIG_F2, 0, BI_SLOTS_F(pow)},
  {OCLSTD_pown, BI_SIG_F_INTN, 0, BI_SLOTS_F(pown)},
  {OCLSTD_powr, BI_SIG_F2, 0, BI_SLOTS_F(powr)},
  {OCLSTD_rootn, BI_SIG_F_INTN, 0, BI_SLOTS_F(rootn)},
  {OCLSTD_rsqrt, BI_SIG_F1, 0, BI_SLOTS_F(rsqrt)},
  {OCLSTD_sin, BI_SIG_F1, 0, BI_SLOTS_F(sin)},
  {OCLSTD_sincos, BI_SIG_F_PTRF, 0, BI_SLOTS_F(sincos)},
  {OCLSTD_sinh, BI_SIG_F1, 0, BI_SLOTS_F(sinh)},
  {OCLSTD_sinpi, BI_SIG_F1, 0, BI_SLOTS_F(sinpi)},
  {OCLSTD_tan, BI_SIG_F1, 0, BI_SLOTS_F(tan)},
  {OCLSTD_tanh, BI_SIG_F1, 0, BI_SLOTS_F(tanh)},
  {OCLSTD_tanpi, BI_SIG_F1, 0, BI_SLOTS_F(tanpi)},
  {OCLSTD_tgamma, BI_SIG_F1, 0, BI_SLOTS_F(tgamma)},
  /* half_*: float only, = the correctly rounded function */
  {OCLSTD_half_cos, BI_SIG_F1, 0, F32_ONLY(cos)},
  {OCLSTD_half_divide, BI_SIG_F2, 0, F32_ONLY(divide)},
  {OCLSTD_half_exp, BI_SIG_F1, 0, F32_ONLY(exp)},
  {OCLSTD_half_exp2, BI_SIG_F1, 0, F32_ONLY(exp2)},
  {OCLSTD_half_exp10, BI_SIG_F1, 0, F32_ONLY(exp10)},
  {OCLSTD_half_log, BI_SIG_F1, 0, F32_ONLY(log)},
  {OCLSTD_half_log2, BI_SIG_F1, 0, F32_ONLY(log2)},
  {OCLSTD_half_log10, BI_SIG_F1, 0, F32_ONLY(log10)},
  {OCLSTD_half_powr, BI_SIG_F2, 0, F32_ONLY(powr)},
  {OCLSTD_half_recip, BI_SIG_F1, 0, F32_ONLY(recip)},
  {OCLSTD_half_rsqrt, BI_SIG_F1, 0, F32_ONLY(rsqrt)},
  {OCLSTD_half_sin, BI_SIG_F1, 0, F32_ONLY(sin)},
  {OCLSTD_half_sqrt, BI_SIG_F1, 0, F32_ONLY(sqrt)},
  {OCLSTD_half_tan, BI_SIG_F1, 0, F32_ONLY(tan)},
  /* native_*: every floating-point type, = the correctly rounded function */
  {OCLSTD_native_cos, BI_SIG_F1, 0, BI_SLOTS_F(cos)},
  {OCLSTD_native_divide, BI_SIG_F2, 0, BI_SLOTS_F(divide)},
  {OCLSTD_native_exp, BI_SIG_F1, 0, BI_SLOTS_F(exp)},
  {OCLSTD_native_exp2, BI_SIG_F1, 0, BI_SLOTS_F(exp2)},
  {OCLSTD_native_exp10, BI_SIG_F1, 0, BI_SLOTS_F(exp10)},
  {OCLSTD_native_log, BI_SIG_F1, 0, BI_SLOTS_F(log)},
  {OCLSTD_native_log2, BI_SIG_F1, 0, BI_SLOTS_F(log2)},
  {OCLSTD_native_log10, BI_SIG_F1, 0, BI_SLOTS_F(log10)},
  {OCLSTD_native_powr, BI_SIG_F2, 0, BI_SLOTS_F(powr)},
  {OCLSTD_native_recip, BI_SIG_F1, 0, BI_SLOTS_F(recip)},
  {OCLSTD_native_rsqrt, BI_SIG_F1, 0, BI_SLOTS_F(rsqrt)},
  {OCLSTD_native_sin, BI_SIG_F1, 0, BI_SLOTS_F(sin)},
  {OCLSTD_native_sqrt, BI_SIG_F1, 0, BI_SLOTS_F(sqrt)},
  {OCLSTD_native_tan, BI_SIG_F1, 0, BI_SLOTS_F(tan)},
};

const bi_rowset bi_rows_math = {rows, sizeof rows / sizeof rows[0]};
