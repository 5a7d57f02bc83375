/*
 * ex_exec.c — the dispatch loop: runs one warp's lanes in lock-step over prepared code.
 *
 * Control: a warp keeps a stack of frames (one per active call). In a frame every lane has its own
 * next block; the warp always runs the pending block that comes first in reverse post-order, with
 * the lanes waiting there active. Lanes that split at a branch therefore meet again at the first
 * block both paths reach (their post-dominator comes later in RPO than either path), which gives
 * SIMT reconvergence without merge instructions (llvm-spirv emits none for kernels).
 *
 * Dispatch: computed goto over the handler table generated from ex_ops.h. The macros below remove
 * the repetition of the typed families; each expands to one handler label: operands are fetched
 * from the register file (lane l of a value with n components of type T at
 * regs + reg*W + l*n*sizeof(T)), and a warp with every lane active takes a straight loop over all
 * lanes' components.
 *
 * Arithmetic semantics (SPIR-V 3.32.13–14; OpenCL C 6.3, 6.4): integers wrap; shift counts are taken
 * modulo the width (OpenCL C 6.3.j); integer division by zero and INT_MIN / -1, which SPIR-V leaves
 * undefined, give the RISC-V results (quotient all ones / INT_MIN, remainder = dividend / 0), so
 * every host gives the same bits. half arithmetic is done in float and rounded once to half (exact:
 * float has more than 2*11+2 bits, so double rounding cannot occur for + - * / ).
 *
 * Instruction sets: on x86-64 this file is compiled twice (Makefile, ex_exec_avx2.o): for the
 * baseline (SSE2: two 64-bit or four 32-bit lanes per vector operation, no 64-bit compares) and for
 * AVX2 with FMA, BMI1 and BMI2 (four or eight, with compares), and ex_exec_warp picks the second
 * when the CPU has them. Both copies perform the same IEEE operations in the same order: ISO C mode and
 * -ffp-contract=off keep the compiler from fusing a multiply and an add, and an FMA instruction only
 * replaces fma()/fmaf() calls, which are one correctly rounded operation either way; so every result
 * is the same bits. SPVI_EXEC_ISA=baseline forces the baseline (tests, comparisons).
 */
#if defined(EX_EXEC_AVX2)
#define ex_exec_warp ex_exec_warp_avx2 /* this copy's entry point, called by the baseline's ex_exec_warp */
#define ex_bi_access ex_bi_access_avx2 /* a second copy of a small helper: unused */
#elif defined(EX_HAVE_AVX2)
#define ex_exec_warp ex_exec_warp_base
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "bi_half.h"
#include "ex_hooks.h"
#include "ex_internal.h"

typedef uint16_t h16; /* half values are kept as their bit patterns */

static inline float h2f(h16 h) { return bi_half_to_float(h); }
/* OpIsNormal on the value's own format: a half subnormal widens to a normal float, so half is
 * classified on its bits (exponent field neither 0 nor all ones). */
static inline bool is_normal_F16(h16 x) {
  unsigned e = (x >> 10) & 0x1f;
  return e != 0 && e != 0x1f;
}
static inline bool is_normal_F32(float x) { return isnormal(x) != 0; }
static inline bool is_normal_F64(double x) { return isnormal(x) != 0; }
/* Flush a float denormal to a zero of the same sign (OpenCL C 7.5.3 / SPIR-V env "flush to zero":
 * denormal inputs and results of single-precision operations may be flushed). */
static inline float ftz(float f) { return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f; }
static inline h16 f2h(float f) { return bi_half_from_float(f, BI_RTE); }

static inline void wr_ptr(uint8_t *p, unsigned pb, uint64_t v) {
  if (pb == 8) {
    memcpy(p, &v, 8);
    return;
  }
  uint32_t x = (uint32_t)v;
  memcpy(p, &x, 4);
}
/* Read an integer of `bytes` bytes, sign-extended. */
static inline int64_t rd_sint(const uint8_t *p, unsigned bytes) {
  switch (bytes) {
  case 1: {
    int8_t v;
    memcpy(&v, p, 1);
    return v;
  }
  case 2: {
    int16_t v;
    memcpy(&v, p, 2);
    return v;
  }
  case 4: {
    int32_t v;
    memcpy(&v, p, 4);
    return v;
  }
  default: {
    int64_t v;
    memcpy(&v, p, 8);
    return v;
  }
  }
}
static inline uint64_t rd_uint(const uint8_t *p, unsigned bytes) {
  switch (bytes) {
  case 1: {
    uint8_t v;
    memcpy(&v, p, 1);
    return v;
  }
  case 2: {
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
  }
  case 4: {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
  }
  default: {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
  }
  }
}
static inline void wr_uint(uint8_t *p, unsigned bytes, uint64_t v) {
  switch (bytes) {
  case 1: {
    uint8_t x = (uint8_t)v;
    memcpy(p, &x, 1);
    return;
  }
  case 2: {
    uint16_t x = (uint16_t)v;
    memcpy(p, &x, 2);
    return;
  }
  case 4: {
    uint32_t x = (uint32_t)v;
    memcpy(p, &x, 4);
    return;
  }
  default: memcpy(p, &v, 8); return;
  }
}

/* ---- integer semantics helpers (defined results where C or SPIR-V leave them undefined) ---------- */
#define DEF_DIV(S, UT, ST)                                                           \
  static inline UT udiv_##S(UT a, UT b) { return b ? (UT)(a / b) : (UT) ~(UT)0; }    \
  static inline UT umod_##S(UT a, UT b) { return b ? (UT)(a % b) : a; }              \
  static inline UT sdiv_##S(UT a, UT b) {                                            \
    ST x = (ST)a, y = (ST)b;                                                         \
    if (y == 0) return (UT) ~(UT)0;                                                  \
    if (y == -1) return (UT)(0 - a); /* wraps INT_MIN / -1 to INT_MIN */             \
    return (UT)(ST)(x / y);                                                          \
  }                                                                                  \
  static inline UT srem_##S(UT a, UT b) {                                            \
    ST x = (ST)a, y = (ST)b;                                                         \
    if (y == 0) return a;                                                            \
    if (y == -1) return 0;                                                           \
    return (UT)(ST)(x % y);                                                          \
  }                                                                                  \
  static inline UT smod_##S(UT a, UT b) { /* sign of the divisor (SPIR-V OpSMod) */  \
    ST y = (ST)b;                                                                    \
    UT r = srem_##S(a, b);                                                           \
    if (y != 0 && r != 0 && (((ST)r < 0) != (y < 0))) r = (UT)(r + b);               \
    return r;                                                                        \
  }                                                                                  \
  /* arithmetic shift on unsigned values (C leaves >> of a negative value to the   \
   * implementation): the sign mask ORed into bits w-1-k and up, where a >> k holds \
   * copies of the sign bit or zeros; no branch, so a warp's loop vectorises */ \
  static inline UT sra_##S(UT a, UT sh) {                                            \
    const unsigned k = (unsigned)(sh & (sizeof(UT) * 8 - 1));                        \
    const uint64_t sign = 0 - (uint64_t)(a >> (sizeof(UT) * 8 - 1));                 \
    return (UT)((uint64_t)(a >> k) | (sign << (sizeof(UT) * 8 - 1 - k)));            \
  }
/* OpenCL.std s_/u_ max, min and clamp (OpenCL C 6.15.3): max returns y if x < y, else x; min returns
 * y if y < x, else x; clamp is min(max(x, lo), hi) as written, also when lo > hi, which the spec
 * leaves undefined (builtins/bi_int.c defines the same values). */
#define DEF_MINMAX(S, UT, ST)                                                                \
  static inline UT smax_##S(UT x, UT y) { return (ST)x < (ST)y ? y : x; }                    \
  static inline UT umax_##S(UT x, UT y) { return x < y ? y : x; }                            \
  static inline UT smin_##S(UT x, UT y) { return (ST)y < (ST)x ? y : x; }                    \
  static inline UT umin_##S(UT x, UT y) { return y < x ? y : x; }                            \
  static inline UT clamp_s_##S(UT x, UT lo, UT hi) { return smin_##S(smax_##S(x, lo), hi); } \
  static inline UT clamp_u_##S(UT x, UT lo, UT hi) { return umin_##S(umax_##S(x, lo), hi); }
DEF_DIV(I8, uint8_t, int8_t)
DEF_DIV(I16, uint16_t, int16_t)
DEF_DIV(I32, uint32_t, int32_t)
DEF_DIV(I64, uint64_t, int64_t)
DEF_MINMAX(I8, uint8_t, int8_t)
DEF_MINMAX(I16, uint16_t, int16_t)
DEF_MINMAX(I32, uint32_t, int32_t)
DEF_MINMAX(I64, uint64_t, int64_t)

static inline double fmod_spv(double a, double b) { /* OpFMod: result takes the sign of b */
  double r = fmod(a, b);
  if (r != 0 && !isnan(r) && (signbit(r) != signbit(b))) r += b;
  return r;
}

/* ---- conversions -------------------------------------------------------------------------- */

/* Float (as double, exact for every source width) to integer: rounding per mode (default toward
 * zero, OpenCL C 6.4.3), then saturation, NaN -> 0. OpenCL leaves out-of-range non-saturated
 * conversions implementation-defined; spvi always saturates, like the _sat forms. */
static inline uint64_t f_to_int(double v, unsigned mode, bool dst_signed, unsigned bits) {
  switch (mode) {
  case 1: v = nearbyint(v); break; /* RTE (host default rounding mode is round-to-nearest-even) */
  case 3: v = ceil(v); break;      /* RTP */
  case 4: v = floor(v); break;     /* RTN */
  default: v = trunc(v); break;    /* default and RTZ */
  }
  if (isnan(v)) return 0;
  if (dst_signed) {
    double lo = -ldexp(1.0, (int)bits - 1), hi = ldexp(1.0, (int)bits - 1);
    if (v < lo) return (uint64_t)1 << (bits - 1); /* INT_MIN pattern */
    if (v >= hi) return bits == 64 ? (uint64_t)INT64_MAX : (((uint64_t)1 << (bits - 1)) - 1);
    return (uint64_t)(int64_t)v;
  }
  if (v <= 0) return 0;
  if (v >= ldexp(1.0, (int)bits)) return bits == 64 ? UINT64_MAX : (((uint64_t)1 << bits) - 1);
  return (uint64_t)v;
}

/* Rounding of a conversion result to float/double in a mode other than to-nearest: the
 * nearest-even result r is corrected by one step toward the exact value when the mode asks
 * (exact, because r and its neighbour bracket the exact value). `cmp` is the sign of r - exact. */
static float adjust_f32(float r, int cmp, unsigned mode) {
  if (cmp == 0 || isnan(r)) return r;
  if (mode == 2) return (cmp > 0) == (r > 0) ? nextafterf(r, 0.0f) : r; /* RTZ */
  if (mode == 3) return cmp < 0 ? nextafterf(r, INFINITY) : r;          /* RTP */
  if (mode == 4) return cmp > 0 ? nextafterf(r, -INFINITY) : r;         /* RTN */
  return r;
}
static double adjust_f64(double r, int cmp, unsigned mode) {
  if (cmp == 0 || isnan(r)) return r;
  if (mode == 2) return (cmp > 0) == (r > 0) ? nextafter(r, 0.0) : r;
  if (mode == 3) return cmp < 0 ? nextafter(r, INFINITY) : r;
  if (mode == 4) return cmp > 0 ? nextafter(r, -INFINITY) : r;
  return r;
}
/* sign of (floating value f) - (integer x), exactly: f is an integer once |f| >= 2^24, and
 * every float/double below 2^127 converts to __int128 exactly. */
static int cmp_fp_int(double f, bool sgn, int64_t sx, uint64_t ux) {
  if (isinf(f)) return f > 0 ? 1 : -1;
  if (fabs(f) < 9007199254740992.0) { /* |f| < 2^53: compare through trunc/frac exactly */
    __int128 fi = (__int128)f;        /* toward zero */
    __int128 xi = sgn ? (__int128)sx : (__int128)ux;
    if (fi != xi) return fi > xi ? 1 : -1;
    double frac = f - (double)(int64_t)fi;
    return frac > 0 ? 1 : frac < 0 ? -1 : 0;
  }
  __int128 fi = (__int128)f, xi = sgn ? (__int128)sx : (__int128)ux;
  return fi > xi ? 1 : fi < xi ? -1 : 0;
}
static bi_round half_mode(unsigned mode) {
  return mode == 2 ? BI_RTZ : mode == 3 ? BI_RTP : mode == 4 ? BI_RTN : BI_RTE;
}

static void convert(uint8_t *dst, const uint8_t *src, unsigned n, uint32_t from, uint32_t to, unsigned flags,
                    bool flush) {
  unsigned fk = from >> 8, fb = from & 0xFF, tk = to >> 8, tb = to & 0xFF;
  for (unsigned i = 0; i < n; i++) {
    const uint8_t *s = src + i * (fb / 8);
    uint8_t *d = dst + i * (tb / 8);
    if (fk == EX_CK_FLOAT) {
      double v;
      if (fb == 16) {
        h16 h;
        memcpy(&h, s, 2);
        v = bi_half_to_double(h);
      } else if (fb == 32) {
        float f;
        memcpy(&f, s, 4);
        v = flush ? ftz(f) : f;
      } else memcpy(&v, s, 8);
      if (tk == EX_CK_FLOAT) {
        const unsigned mode = EX_CF_MODE(flags);
        if (tb == 16) {
          /* from the value itself (half is exact in double), a single rounding in the mode */
          h16 h = bi_half_from_double(v, half_mode(mode));
          memcpy(d, &h, 2);
        } else if (tb == 32) {
          float f = (float)v; /* one rounding, to nearest even */
          if (mode > 1 && !isnan(v)) f = adjust_f32(f, (double)f > v ? 1 : (double)f < v ? -1 : 0, mode);
          if (flush) f = ftz(f);
          memcpy(d, &f, 4);
        } else memcpy(d, &v, 8); /* widening or same width: exact */
      } else {
        wr_uint(d, tb / 8, f_to_int(v, EX_CF_MODE(flags), tk == EX_CK_SINT, tb));
      }
      continue;
    }
    /* integer source */
    bool ssigned = fk == EX_CK_SINT;
    int64_t sv = rd_sint(s, fb / 8);
    uint64_t uv = rd_uint(s, fb / 8);
    if (tk == EX_CK_FLOAT) {
      /* a single correctly rounded conversion (C 6.3.1.4 under the default rounding mode) */
      const unsigned mode = EX_CF_MODE(flags);
      if (tb == 32) {
        float f = ssigned ? (float)sv : (float)uv;
        if (mode > 1) f = adjust_f32(f, cmp_fp_int(f, ssigned, sv, uv), mode);
        memcpy(d, &f, 4);
      } else if (tb == 64) {
        double f = ssigned ? (double)sv : (double)uv;
        if (mode > 1) f = adjust_f64(f, cmp_fp_int(f, ssigned, sv, uv), mode);
        memcpy(d, &f, 8);
      } else {
        /* an integer that is not exact in double is far beyond half's range (65504), where the
         * result is the same infinity or largest half whatever the double rounding did, so going
         * through double is still a single effective rounding in every mode */
        h16 h = bi_half_from_double(ssigned ? (double)sv : (double)uv, half_mode(mode));
        memcpy(d, &h, 2);
      }
      continue;
    }
    uint64_t out = ssigned ? (uint64_t)sv : uv;
    if (flags & EX_CF_SAT) {
      bool dsigned = tk == EX_CK_SINT;
      if (dsigned) {
        int64_t hi = tb == 64 ? INT64_MAX : (int64_t)(((uint64_t)1 << (tb - 1)) - 1), lo = -hi - 1;
        if (ssigned) out = (uint64_t)(sv < lo ? lo : sv > hi ? hi : sv);
        else out = uv > (uint64_t)hi ? (uint64_t)hi : uv;
      } else {
        uint64_t hi = tb == 64 ? UINT64_MAX : (((uint64_t)1 << tb) - 1);
        if (ssigned) out = sv < 0 ? 0 : ((uint64_t)sv > hi ? hi : (uint64_t)sv);
        else out = uv > hi ? hi : uv;
      }
    }
    wr_uint(d, tb / 8, out);
  }
}

/* ---- fused multiply-add ---------------------------------------------------------------------
 * fma is one correctly rounded operation (IEEE 754 fusedMultiplyAdd), so the FMA instruction and
 * the C library's fma/fmaf give the same bits; the loops below use the instruction when the CPU has
 * it (checked once) and the library otherwise. NaN results follow the builtins' policy
 * (builtins/bi_fp.c): the first NaN operand, quieted, or the canonical NaN for an invalid operation. */
static inline float fma_nan_f32(float a, float b, float c) {
  uint32_t u;
  float x = isnan(a) ? a : isnan(b) ? b : isnan(c) ? c : NAN;
  memcpy(&u, &x, 4);
  u = isnan(a) || isnan(b) || isnan(c) ? u | 0x00400000u : 0x7fc00000u;
  memcpy(&x, &u, 4);
  return x;
}
static inline double fma_nan_f64(double a, double b, double c) {
  uint64_t u;
  double x = isnan(a) ? a : isnan(b) ? b : isnan(c) ? c : NAN;
  memcpy(&u, &x, 8);
  u = isnan(a) || isnan(b) || isnan(c) ? u | 0x0008000000000000ull : 0x7ff8000000000000ull;
  memcpy(&x, &u, 8);
  return x;
}
#define FMA_LOOP(NAME, T, FN, NANFN, ATTR)                                    \
  ATTR static void NAME(T *d, const T *a, const T *b, const T *c, size_t n) { \
    for (size_t i = 0; i < n; i++) {                                          \
      T r = FN(a[i], b[i], c[i]);                                             \
      d[i] = isnan(r) ? NANFN(a[i], b[i], c[i]) : r;                          \
    }                                                                         \
  }
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
FMA_LOOP(fma_hw_f32, float, __builtin_fmaf, fma_nan_f32, __attribute__((target("fma"))))
FMA_LOOP(fma_hw_f64, double, __builtin_fma, fma_nan_f64, __attribute__((target("fma"))))
static bool have_fma(void) {
  static _Atomic int cached = -1;
  if (cached < 0) cached = __builtin_cpu_supports("fma") ? 1 : 0;
  return cached;
}
#else
#define fma_hw_f32 fma_lib_f32
#define fma_hw_f64 fma_lib_f64
static bool have_fma(void) { return false; }
#endif
FMA_LOOP(fma_lib_f32, float, fmaf, fma_nan_f32, )
FMA_LOOP(fma_lib_f64, double, fma, fma_nan_f64, )

/* ---- atomics ------------------------------------------------------------------------------
 * Sequentially consistent read-modify-write on host memory (other threads may run other work-groups
 * on the same buffer): a compare-and-swap loop computes the new value from the old one, so every
 * operation, including the float and min/max ones, is one atomic step. Returns the old value. */
static uint64_t atomic_new(unsigned kind, bool fl, unsigned size, uint64_t old, uint64_t v) {
  const unsigned bits = size * 8;
  const uint64_t mask = bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
  int64_t so = bits == 64 ? (int64_t)old : (int64_t)(int32_t)(uint32_t)old;
  int64_t sv = bits == 64 ? (int64_t)v : (int64_t)(int32_t)(uint32_t)v;
  if (fl) {
    double a, b;
    if (size == 4) {
      float x, y;
      uint32_t ox = (uint32_t)old, vy = (uint32_t)v;
      memcpy(&x, &ox, 4);
      memcpy(&y, &vy, 4);
      a = x;
      b = y;
    } else {
      memcpy(&a, &old, 8);
      memcpy(&b, &v, 8);
    }
    double r = kind == EX_AT_FADD   ? a + b
               : kind == EX_AT_FMIN ? (isnan(b) || b >= a ? a : b)
               : kind == EX_AT_FMAX ? (isnan(b) || b <= a ? a : b)
                                    : b;
    if (isnan(a) && kind != EX_AT_FADD) r = b;
    if (size == 4) {
      float f = kind == EX_AT_FADD ? (float)a + (float)b : (float)r; /* float add rounds once in float */
      uint32_t u;
      memcpy(&u, &f, 4);
      return u;
    }
    uint64_t u;
    memcpy(&u, &r, 8);
    return u;
  }
  switch (kind) {
  case EX_AT_INC: return (old + 1) & mask;
  case EX_AT_DEC: return (old - 1) & mask;
  case EX_AT_ADD: return (old + v) & mask;
  case EX_AT_SUB: return (old - v) & mask;
  case EX_AT_SMIN: return sv < so ? v : old;
  case EX_AT_SMAX: return sv > so ? v : old;
  case EX_AT_UMIN: return v < old ? v : old;
  case EX_AT_UMAX: return v > old ? v : old;
  case EX_AT_AND: return old & v;
  case EX_AT_OR: return old | v;
  case EX_AT_XOR: return old ^ v;
  case EX_AT_FLAG_SET: return 1;
  default: return v; /* exchange */
  }
}

/* atomic_rmw on a T (uint32_t, uint64_t): the integer operations that x86 and AArch64 do in one
 * locked instruction (fetch-add, -sub, -and, -or, -xor, exchange) as that instruction, the others
 * (min, max, the float operations, flag set) as a compare-exchange loop. Under contention (two
 * threads incrementing the same histogram counters) a loop retries where the one instruction
 * does not; the results are the same. */
#define ATOMIC_RMW(T)                                                                                        \
  do {                                                                                                       \
    T *p = (T *)m;                                                                                           \
    if (!fl) switch (kind) {                                                                                 \
      case EX_AT_INC: return __atomic_fetch_add(p, (T)1, __ATOMIC_SEQ_CST);                                  \
      case EX_AT_DEC: return __atomic_fetch_sub(p, (T)1, __ATOMIC_SEQ_CST);                                  \
      case EX_AT_ADD: return __atomic_fetch_add(p, (T)v, __ATOMIC_SEQ_CST);                                  \
      case EX_AT_SUB: return __atomic_fetch_sub(p, (T)v, __ATOMIC_SEQ_CST);                                  \
      case EX_AT_AND: return __atomic_fetch_and(p, (T)v, __ATOMIC_SEQ_CST);                                  \
      case EX_AT_OR: return __atomic_fetch_or(p, (T)v, __ATOMIC_SEQ_CST);                                    \
      case EX_AT_XOR: return __atomic_fetch_xor(p, (T)v, __ATOMIC_SEQ_CST);                                  \
      case EX_AT_XCHG: return __atomic_exchange_n(p, (T)v, __ATOMIC_SEQ_CST);                                \
      default: break;                                                                                        \
      }                                                                                                      \
    T old = __atomic_load_n(p, __ATOMIC_SEQ_CST);                                                            \
    switch (kind) {                                                                                          \
    case EX_AT_LOAD: return old;                                                                             \
    case EX_AT_STORE: __atomic_store_n(p, (T)v, __ATOMIC_SEQ_CST); return 0;                                 \
    case EX_AT_FLAG_CLEAR: __atomic_store_n(p, (T)0, __ATOMIC_SEQ_CST); return 0;                            \
    case EX_AT_CMPXCHG: {                                                                                    \
      T expected = (T)cmp;                                                                                   \
      __atomic_compare_exchange_n(p, &expected, (T)v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);            \
      return expected;                                                                                       \
    }                                                                                                        \
    default:                                                                                                 \
      for (;;) {                                                                                             \
        T nv = (T)atomic_new(kind, fl, sizeof(T), old, v);                                                   \
        if (__atomic_compare_exchange_n(p, &old, nv, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return old; \
      }                                                                                                      \
    }                                                                                                        \
  } while (0)

static uint64_t atomic_rmw(uint8_t *m, unsigned size, unsigned kind, bool fl, uint64_t v, uint64_t cmp) {
  if (size == 4) ATOMIC_RMW(uint32_t);
  ATOMIC_RMW(uint64_t);
}
#undef ATOMIC_RMW

/* The same operations when no other thread can touch the memory (local and private memory, which
 * one work-group's thread owns, and global memory when the launch runs on one thread): plain
 * accesses give the same results as the atomic ones in the order work-items run, without locked
 * instructions. */
static uint64_t plain_rmw(uint8_t *m, unsigned size, unsigned kind, bool fl, uint64_t v, uint64_t cmp) {
  const uint64_t old = rd_uint(m, size);
  switch (kind) {
  case EX_AT_LOAD: return old;
  case EX_AT_STORE: wr_uint(m, size, v); return 0;
  case EX_AT_FLAG_CLEAR: wr_uint(m, size, 0); return 0;
  case EX_AT_CMPXCHG:
    if (old == cmp) wr_uint(m, size, v);
    return old;
  default: wr_uint(m, size, atomic_new(kind, fl, size, old, v)); return old;
  }
}

/* ---- dispatch ------------------------------------------------------------------------------- */

/* Blend masks of a partial warp's active lanes, one array per element width (all ones for an
 * active lane, zero for the others), so that a blend is a same-width bit select. */
typedef struct ex_lane_masks {
  uint64_t m8[EX_MAX_WARP];
  uint32_t m4[EX_MAX_WARP];
  uint16_t m2[EX_MAX_WARP];
  uint8_t m1[EX_MAX_WARP];
} ex_lane_masks;

/* *d = *r where lane i is active, for an element of s (1, 2, 4 or 8, a constant after inlining)
 * bytes of any type: memcpy moves the bits, which GCC keeps in registers and vectorises. */
static inline __attribute__((always_inline)) void blend_bytes(void *d, const void *r, size_t s, const ex_lane_masks *m,
                                                              size_t i) {
  switch (s) {
  case 1: {
    uint8_t x, y;
    memcpy(&x, r, 1);
    memcpy(&y, d, 1);
    x = (uint8_t)((x & m->m1[i]) | (y & ~m->m1[i]));
    memcpy(d, &x, 1);
    return;
  }
  case 2: {
    uint16_t x, y;
    memcpy(&x, r, 2);
    memcpy(&y, d, 2);
    x = (uint16_t)((x & m->m2[i]) | (y & ~m->m2[i]));
    memcpy(d, &x, 2);
    return;
  }
  case 4: {
    uint32_t x, y;
    memcpy(&x, r, 4);
    memcpy(&y, d, 4);
    x = (x & m->m4[i]) | (y & ~m->m4[i]);
    memcpy(d, &x, 4);
    return;
  }
  default: {
    uint64_t x, y;
    memcpy(&x, r, 8);
    memcpy(&y, d, 8);
    x = (x & m->m8[i]) | (y & ~m->m8[i]);
    memcpy(d, &x, 8);
    return;
  }
  }
}

/* Operand base pointers and the lane loop. `full` warps (every lane active, as in uniform code)
 * iterate over all lanes' components in one straight loop the compiler can vectorise. */
#define REG(r) (R + (size_t)(r)*W)
#define LANES_BEGIN                      \
  for (unsigned k_ = 0; k_ < nl; k_++) { \
    const unsigned l = lanes[k_];
#define LANES_END }

/* ACCESS1's warp loop (64-bit pointers): d[k] = base[k] + ix[k] * es, a shift when es is a power of
 * two (sh != 0xFF), ix of 8 bytes (ix64) or 4 sign-extended; returns the OR of every pointer's
 * change (its bits above the offset field must stay 0) and in *bi the OR of ix[k] + half (the
 * 8-byte index range check, see ACCESS1_I64). Every lane when m8 is NULL (a full warp); else the
 * lanes whose mask m8[k] is all ones, the others' results blended away and their checks masked
 * out (their registers may hold anything: the arithmetic cannot trap). */
static inline __attribute__((always_inline)) uint64_t access1_warp(uint64_t *d, const uint64_t *base, const void *ixp,
                                                                   bool ix64, bool shift, unsigned sh, uint64_t es,
                                                                   uint64_t half, unsigned W, const uint64_t *m8,
                                                                   uint64_t *bi_out) {
  uint64_t bx = 0, bi = 0;
  for (unsigned k = 0; k < W; k++) {
    const uint64_t ix = ix64 ? ((const uint64_t *)ixp)[k] : (uint64_t)(int64_t)((const int32_t *)ixp)[k];
    const uint64_t t = base[k] + (shift ? ix << sh : ix * es);
    const uint64_t m = m8 ? m8[k] : ~(uint64_t)0;
    bx |= (t ^ base[k]) & m;
    if (ix64) bi |= (ix + half) & m;
    d[k] = m8 ? (t & m) | (d[k] & ~m) : t;
  }
  *bi_out = bi;
  return bx;
}
/* ACCESS1_WARP(ix, ix64, half, m8, bi): access1_warp on the current instruction, its shift and
 * multiply forms as two specialised loops. */
#define ACCESS1_WARP(ix_, ix64_, half_, m8_, bi_)                                                                   \
  (ip->flags != 0xFF ? access1_warp((uint64_t *)REG(ip->d), (const uint64_t *)REG(ip->a), (ix_), (ix64_), true,     \
                                    ip->flags, 0, (half_), W, (m8_), (bi_))                                         \
                     : access1_warp((uint64_t *)REG(ip->d), (const uint64_t *)REG(ip->a), (ix_), (ix64_), false, 0, \
                                    ip->c, (half_), W, (m8_), (bi_)))

/* Partial warps (divergent code): a scalar operation is computed for all W lanes and blended into
 * the destination for the active ones, a straight loop the compiler vectorises, when at least a
 * quarter of the lanes are active; otherwise lane by lane. Only for pure expressions that cannot
 * trap on whatever an inactive lane's registers hold (integer division is guarded, see DEF_DIV;
 * float operations raise no traps). The blend is a bit select with a mask of the element's width
 * (all ones for an active lane), not `active ? r : d`: GCC turns that ternary into a branch per
 * lane for 8-byte elements, which mispredicts on every irregular lane pattern of a divergent
 * loop (collatz spent a third of its time there). */
#define BLEND_OK(n) ((n) == 1 && nl * 4 >= W)
/* The active lanes' blend masks of the current block, computed once per block that needs them. */
#define AM() (am_ok ? &am : (lane_masks(f->active, W, &am), am_ok = true, &am))
/* d_[i_] = r_ for an active lane i_ (masks m_ of the current block), whatever RT is. */
#define BLEND_STORE(RT, d_, r_, i_, m_) blend_bytes(&(d_)[i_], &(r_), sizeof(RT), (m_), (i_))

/* ELEMWISE_(RT, PTRS, READ, expr): d = expr for each of the n components of every active lane, RT
 * the result's element type. PTRS declares the operand registers' element pointers (a_, b_, c_)
 * once, outside the loops: inside, the compiler could not assume the stores to d_ leave `ip` alone
 * (-fno-strict-aliasing) and would not vectorise; READ declares x, y, z, element i_ of each. */
#define ELEMWISE_(RT, PTRS, READ, expr)                     \
  do {                                                      \
    RT *d_ = (RT *)REG(ip->d);                              \
    PTRS;                                                   \
    const size_t n_ = ip->n;                                \
    if (full) {                                             \
      for (size_t i_ = 0; i_ < n_ * W; i_++) {              \
        READ;                                               \
        d_[i_] = (expr);                                    \
      }                                                     \
    } else if (BLEND_OK(n_)) {                              \
      const ex_lane_masks *m_ = AM();                       \
      for (size_t i_ = 0; i_ < W; i_++) {                   \
        READ;                                               \
        const RT r_ = (expr);                               \
        BLEND_STORE(RT, d_, r_, i_, m_);                    \
      }                                                     \
    } else {                                                \
      LANES_BEGIN                                           \
        for (size_t i_ = l * n_; i_ < (l + 1) * n_; i_++) { \
          READ;                                             \
          d_[i_] = (expr);                                  \
        }                                                   \
      LANES_END                                             \
    }                                                       \
  } while (0)
#define ELEMWISE1(T, RT, expr) ELEMWISE_(RT, const T *a_ = (const T *)REG(ip->a), const T x = a_[i_], expr)
#define ELEMWISE2(T, RT, expr)                                                                                \
  ELEMWISE_(RT, const T *a_ = (const T *)REG(ip->a); const T *b_ = (const T *)REG(ip->b), const T x = a_[i_]; \
            const T y = b_[i_], expr)
#define ELEMWISE3(T, RT, expr)                                                            \
  ELEMWISE_(RT, const T *a_ = (const T *)REG(ip->a); const T *b_ = (const T *)REG(ip->b); \
            const T *c_ = (const T *)REG(ip->c), const T x = a_[i_]; const T y = b_[i_]; const T z = c_[i_], expr)

/* After an integer division or remainder: report lanes that divided by zero or, when signed, the
 * minimum value by -1 (SPIR-V 3.52.13 leaves both undefined; spvi gives them the defined results of
 * DEF_DIV above and reports them). One pass over the operands; reporting is out of line. */
#define DIV_CHECK(UT, SIGNED)                                                                                   \
  do {                                                                                                          \
    const UT *a_ = (const UT *)REG(ip->a), *b_ = (const UT *)REG(ip->b);                                        \
    const size_t n_ = ip->n;                                                                                    \
    const UT min_ = (UT)((UT)1 << (sizeof(UT) * 8 - 1));                                                        \
    bool bad_ = false;                                                                                          \
    LANES_BEGIN                                                                                                 \
      for (size_t i_ = l * n_; i_ < (l + 1) * n_; i_++)                                                         \
        bad_ |= b_[i_] == 0 || (SIGNED && b_[i_] == (UT) ~(UT)0 && a_[i_] == min_);                             \
    LANES_END                                                                                                   \
    if (bad_)                                                                                                   \
      div_report(cx, w, f->fn, ip, (const uint8_t *)a_, (const uint8_t *)b_, sizeof(UT), SIGNED, lanes, nl, W); \
  } while (0)

#define NEXT              \
  do {                    \
    ip++;                 \
    goto *labels[ip->op]; \
  } while (0)

/* The warp's steps passed check_at (ex_step_check_at): its step limit or its next yield.
 * EX_STEP_LIMIT: report the step limit now, for the lane that started first, unless that lane
 * (recycled warps: the oldest work-item still running) does not run this block. Its work-item is
 * the one over the limit; the report waits until it runs (lanes started later are below it).
 * EX_STEP_YIELD: the warp has run yield_slice steps since it last let the group's other warps run
 * (sub-group forward progress, ex_sched.c): it stops at the entry of this block, still runnable. */
enum { EX_STEP_GO, EX_STEP_LIMIT, EX_STEP_YIELD };
static __attribute__((noinline, cold)) int step_event(const ex_ctx *cx, ex_warp *w, uint64_t active) {
  if (w->steps > w->step_limit && (!w->recycled || ((active >> ex_oldest_lane(w)) & 1))) return EX_STEP_LIMIT;
  int ev = EX_STEP_GO;
  if (w->steps > w->yield_at) {
    w->yield_at = w->steps + cx->yield_slice;
    ev = EX_STEP_YIELD;
  }
  w->check_at = ex_step_check_at(w);
  return ev;
}

/* Entering block b_ of function fn_ with the nl active lanes: its SPIR-V instructions count once per
 * lane for --stats and once for the warp's step count, which the step limit checks. A yield returns
 * with the frame at the block's start (f->cur, f->ip set, its steps counted): resched resumes it. */
#define ENTER_BLOCK(fn_, b_)                           \
  do {                                                 \
    const uint32_t n_ = (fn_)->blocks[b_].spv_count;   \
    cx->instructions += (uint64_t)n_ * nl;             \
    w->steps += n_;                                    \
    if (__builtin_expect(w->steps > w->check_at, 0)) { \
      const int ev_ = step_event(cx, w, f->active);    \
      if (ev_ == EX_STEP_LIMIT) goto step_limit;       \
      if (ev_ == EX_STEP_YIELD) return;                \
    }                                                  \
  } while (0)

/* A uniform branch: the frame's same active lanes go on in block b_ of the current function. */
#define GOTO_BLOCK(b_)                \
  do {                                \
    const uint32_t gb_ = (b_);        \
    f->cur = (int32_t)gb_;            \
    f->ip = f->fn->blocks[gb_].first; \
    ENTER_BLOCK(f->fn, gb_);          \
    ip = f->fn->code + f->ip;         \
    goto *labels[ip->op];             \
  } while (0)
/* Every handler has two labels: L_x for the normal table and L_FTZ_x for the table used when float
 * denormals are flushed. They name the same code except for the float (F32) handlers, which exist
 * twice: plain, and with inputs and results flushed (HN / HFTZ below). */
#define H(name) L_FTZ_##name : L_##name:
#define HN(name) L_##name:
#define HFTZ(name) L_FTZ_##name:

/* clang-format off */
/* One integer type's handlers: S suffix, UT unsigned type, ST signed type, WT the unsigned type
 * arithmetic is done in (at least unsigned int, so 8/16-bit products cannot overflow int). */
#define INT_HANDLERS(S, UT, ST, WT)                                                                \
  H(IADD_##S) ELEMWISE2(UT, UT, (UT)((WT)x + (WT)y)); NEXT;                                          \
  H(ISUB_##S) ELEMWISE2(UT, UT, (UT)((WT)x - (WT)y)); NEXT;                                          \
  H(IMUL_##S) ELEMWISE2(UT, UT, (UT)((WT)x * (WT)y)); NEXT;                                          \
  H(UDIV_##S) ELEMWISE2(UT, UT, udiv_##S(x, y)); DIV_CHECK(UT, 0); NEXT;                             \
  H(SDIV_##S) ELEMWISE2(UT, UT, sdiv_##S(x, y)); DIV_CHECK(UT, 1); NEXT;                             \
  H(UMOD_##S) ELEMWISE2(UT, UT, umod_##S(x, y)); DIV_CHECK(UT, 0); NEXT;                             \
  H(SREM_##S) ELEMWISE2(UT, UT, srem_##S(x, y)); DIV_CHECK(UT, 1); NEXT;                             \
  H(SMOD_##S) ELEMWISE2(UT, UT, smod_##S(x, y)); DIV_CHECK(UT, 1); NEXT;                             \
  H(SHL_##S) ELEMWISE2(UT, UT, (UT)((WT)x << (y & (sizeof(UT) * 8 - 1)))); NEXT;                     \
  H(SHRL_##S) ELEMWISE2(UT, UT, (UT)(x >> (y & (sizeof(UT) * 8 - 1)))); NEXT;                        \
  H(SHRA_##S) ELEMWISE2(UT, UT, sra_##S(x, y)); NEXT;                                                \
  H(AND_##S) ELEMWISE2(UT, UT, (UT)(x & y)); NEXT;                                                   \
  H(OR_##S) ELEMWISE2(UT, UT, (UT)(x | y)); NEXT;                                                    \
  H(XOR_##S) ELEMWISE2(UT, UT, (UT)(x ^ y)); NEXT;                                                   \
  H(SNEG_##S) ELEMWISE1(UT, UT, (UT)(0 - (WT)x)); NEXT;                                              \
  H(NOT_##S) ELEMWISE1(UT, UT, (UT)~x); NEXT;                                                        \
  H(IEQ_##S) ELEMWISE2(UT, uint8_t, x == y); NEXT;                                                   \
  H(INE_##S) ELEMWISE2(UT, uint8_t, x != y); NEXT;                                                   \
  H(UGT_##S) ELEMWISE2(UT, uint8_t, x > y); NEXT;                                                    \
  H(SGT_##S) ELEMWISE2(UT, uint8_t, (ST)x > (ST)y); NEXT;                                            \
  H(UGE_##S) ELEMWISE2(UT, uint8_t, x >= y); NEXT;                                                   \
  H(SGE_##S) ELEMWISE2(UT, uint8_t, (ST)x >= (ST)y); NEXT;                                           \
  H(ULT_##S) ELEMWISE2(UT, uint8_t, x < y); NEXT;                                                    \
  H(SLT_##S) ELEMWISE2(UT, uint8_t, (ST)x < (ST)y); NEXT;                                            \
  H(ULE_##S) ELEMWISE2(UT, uint8_t, x <= y); NEXT;                                                   \
  H(SLE_##S) ELEMWISE2(UT, uint8_t, (ST)x <= (ST)y); NEXT;                                           \
  H(SMAX_##S) ELEMWISE2(UT, UT, smax_##S(x, y)); NEXT;                                               \
  H(UMAX_##S) ELEMWISE2(UT, UT, umax_##S(x, y)); NEXT;                                               \
  H(SMIN_##S) ELEMWISE2(UT, UT, smin_##S(x, y)); NEXT;                                               \
  H(UMIN_##S) ELEMWISE2(UT, UT, umin_##S(x, y)); NEXT;                                               \
  H(SCLAMP_##S) ELEMWISE3(UT, UT, clamp_s_##S(x, y, z)); NEXT;                                       \
  H(UCLAMP_##S) ELEMWISE3(UT, UT, clamp_u_##S(x, y, z)); NEXT;

/* NaN results of float arithmetic (+ - * / rem mod, VectorTimesScalar, Dot): the first NaN operand
 * in operand order, quieted, its sign and payload kept; the canonical quiet NaN (positive, payload 0)
 * when no operand is a NaN (an invalid operation: inf - inf, 0 * inf, 0 / 0, x rem 0, inf rem y).
 * The builtins follow the same rule (spec-notes/builtins.md). Hardware picks between two NaN
 * operands by the instruction's operand order, which a compiler may swap in a commutative + or *
 * (the baseline and AVX2 copies of this file did), and x86 and Arm disagree on invalid operations,
 * so the handlers fix it: the same bits on every host. nan2_S(x, y) is the rule on storage values;
 * NANFIX2 applies it after an elementwise handler, looking at the results once in a vectorised pass
 * and fixing lanes out of line only when one is a NaN. */
static inline bool isnan_F16(h16 x) { return (x & 0x7fffu) > 0x7c00u; }
static inline bool isnan_F32(float x) { return x != x; }
static inline bool isnan_F64(double x) { return x != x; }
static inline h16 nan2_F16(h16 x, h16 y) {
  return isnan_F16(x) ? (h16)(x | 0x0200u) : isnan_F16(y) ? (h16)(y | 0x0200u) : (h16)0x7e00u;
}
/* the rule of fma_nan_* above, for two operands */
static inline float nan2_F32(float x, float y) { return fma_nan_f32(x, y, y); }
static inline double nan2_F64(double x, double y) { return fma_nan_f64(x, y, y); }
/* r, or the rule's NaN when r is one (the scalar loops: VectorTimesScalar, Dot). */
#define NANFIX_S(S, r, x, y) (isnan_##S(r) ? nan2_##S((x), (y)) : (r))
/* any_nan_S looks at the bits (a NaN's magnitude is above infinity's) with signed compares, which
 * vectorise: comparing floats with themselves and or-ing the bools did not (a fifth of stencil). */
#define NAN_LOOPS(S, T, IT, MAG, INF)                                                                     \
  static inline IT nanbit_##S(T r) {                                                                      \
    IT u;                                                                                                  \
    memcpy(&u, &r, sizeof u);                                                                              \
    return (IT)((IT)(u & (MAG)) > (IT)(INF));                                                              \
  }                                                                                                        \
  static inline bool any_nan_##S(const T *d, size_t n) {                                                  \
    IT any = 0;                                                                                            \
    for (size_t i = 0; i < n; i++) any |= nanbit_##S(d[i]);                                                \
    return any != 0;                                                                                       \
  }                                                                                                        \
  static __attribute__((noinline, cold)) void nan_fix_##S(T *d, const T *a, const T *b, size_t n,         \
                                                          const uint16_t *lanes, unsigned nl) {           \
    for (unsigned k = 0; k < nl; k++)                                                                      \
      for (size_t i = lanes[k] * n; i < (lanes[k] + 1u) * n; i++) d[i] = NANFIX_S(S, d[i], a[i], b[i]);   \
  }
NAN_LOOPS(F16, h16, int16_t, 0x7fff, 0x7c00)
NAN_LOOPS(F32, float, int32_t, 0x7fffffff, 0x7f800000)
NAN_LOOPS(F64, double, int64_t, INT64_MAX, 0x7ff0000000000000)
#define NANFIX2(S, T)                                                                                   \
  do {                                                                                                  \
    if (__builtin_expect(any_nan_##S((const T *)REG(ip->d), (size_t)ip->n * W), 0))                     \
      nan_fix_##S((T *)REG(ip->d), (const T *)REG(ip->a), (const T *)REG(ip->b), ip->n, lanes, nl);      \
  } while (0)

/* ELEMWISE2 + NANFIX2 for the four arithmetic operations, with the NaN test (nanbit_S) fused into
 * the full-warp loop (the common case): it rides along with the computation instead of a second
 * pass over the results (mandelbrot 1243 M -> 1104 M x86 instructions). */
#define FLT2(S, T, expr)                                                              \
  do {                                                                                \
    if (full) {                                                                       \
      T *d_ = (T *)REG(ip->d);                                                        \
      const T *a_ = (const T *)REG(ip->a), *b_ = (const T *)REG(ip->b);               \
      const size_t n_ = (size_t)ip->n * W;                                            \
      __typeof__(nanbit_##S(*d_)) any_ = 0;                                           \
      for (size_t i_ = 0; i_ < n_; i_++) {                                            \
        const T x = a_[i_], y = b_[i_];                                               \
        const T r_ = (expr);                                                          \
        d_[i_] = r_;                                                                  \
        any_ |= nanbit_##S(r_);                                                       \
      }                                                                               \
      if (__builtin_expect(any_ != 0, 0)) nan_fix_##S(d_, a_, b_, ip->n, lanes, nl);  \
    } else {                                                                          \
      ELEMWISE2(T, T, expr);                                                          \
      NANFIX2(S, T);                                                                  \
    }                                                                                 \
  } while (0)

/* One float type's handlers. T is the storage type, FT the type computed in, LD/ST convert
 * between them (identity for float and double; half <-> float for F16). */
#define FLT_HANDLERS(H, S, T, FT, LD, ST)                                                             \
  H(FADD_##S) FLT2(S, T, ST((FT)LD(x) + (FT)LD(y))); NEXT;                      \
  H(FSUB_##S) FLT2(S, T, ST((FT)LD(x) - (FT)LD(y))); NEXT;                      \
  H(FMUL_##S) FLT2(S, T, ST((FT)LD(x) * (FT)LD(y))); NEXT;                      \
  H(FDIV_##S) FLT2(S, T, ST((FT)LD(x) / (FT)LD(y))); NEXT;                      \
  H(FREM_##S) ELEMWISE2(T, T, ST((FT)fmod(LD(x), LD(y)))); NANFIX2(S, T); NEXT;                     \
  H(FMOD_##S) ELEMWISE2(T, T, ST((FT)fmod_spv(LD(x), LD(y)))); NANFIX2(S, T); NEXT;                 \
  H(FNEG_##S) ELEMWISE1(T, T, ST(-(FT)LD(x))); NEXT;                                                 \
  H(FOEQ_##S) ELEMWISE2(T, uint8_t, LD(x) == LD(y)); NEXT;                                           \
  H(FUEQ_##S) ELEMWISE2(T, uint8_t, !(LD(x) < LD(y) || LD(x) > LD(y))); NEXT;                        \
  H(FONE_##S) ELEMWISE2(T, uint8_t, LD(x) < LD(y) || LD(x) > LD(y)); NEXT;                           \
  H(FUNE_##S) ELEMWISE2(T, uint8_t, !(LD(x) == LD(y))); NEXT;                                        \
  H(FOLT_##S) ELEMWISE2(T, uint8_t, LD(x) < LD(y)); NEXT;                                            \
  H(FULT_##S) ELEMWISE2(T, uint8_t, !(LD(x) >= LD(y))); NEXT;                                        \
  H(FOGT_##S) ELEMWISE2(T, uint8_t, LD(x) > LD(y)); NEXT;                                            \
  H(FUGT_##S) ELEMWISE2(T, uint8_t, !(LD(x) <= LD(y))); NEXT;                                        \
  H(FOLE_##S) ELEMWISE2(T, uint8_t, LD(x) <= LD(y)); NEXT;                                           \
  H(FULE_##S) ELEMWISE2(T, uint8_t, !(LD(x) > LD(y))); NEXT;                                         \
  H(FOGE_##S) ELEMWISE2(T, uint8_t, LD(x) >= LD(y)); NEXT;                                           \
  H(FUGE_##S) ELEMWISE2(T, uint8_t, !(LD(x) < LD(y))); NEXT;                                         \
  H(ORD_##S) ELEMWISE2(T, uint8_t, !isnan(LD(x)) && !isnan(LD(y))); NEXT;                            \
  H(UNORD_##S) ELEMWISE2(T, uint8_t, isnan(LD(x)) || isnan(LD(y))); NEXT;                            \
  H(ISNAN_##S) ELEMWISE1(T, uint8_t, isnan(LD(x)) != 0); NEXT;                                       \
  H(ISINF_##S) ELEMWISE1(T, uint8_t, isinf(LD(x)) != 0); NEXT;                                       \
  H(ISFINITE_##S) ELEMWISE1(T, uint8_t, isfinite(LD(x)) != 0); NEXT;                                 \
  H(ISNORMAL_##S) ELEMWISE1(T, uint8_t, is_normal_##S(x)); NEXT;                                 \
  H(SIGNBIT_##S) ELEMWISE1(T, uint8_t, signbit(LD(x)) != 0); NEXT;                                   \
  H(VTIMESS_##S) {                                                                                 \
    T *d_ = (T *)REG(ip->d);                                                                       \
    const T *a_ = (const T *)REG(ip->a), *b_ = (const T *)REG(ip->b);                              \
    const size_t n_ = ip->n;                                                                       \
    LANES_BEGIN for (size_t i_ = 0; i_ < n_; i_++) {                                               \
      const T x = a_[l * n_ + i_], y = b_[l], r = ST((FT)LD(x) * (FT)LD(y));                         \
      d_[l * n_ + i_] = NANFIX_S(S, r, x, y);                                                        \
    } LANES_END                                                                                      \
    NEXT;                                                                                          \
  }                                                                                                \
  H(DOT_##S) {                                                                                     \
    T *d_ = (T *)REG(ip->d);                                                                       \
    const T *a_ = (const T *)REG(ip->a), *b_ = (const T *)REG(ip->b);                              \
    const size_t n_ = ip->n;                                                                       \
    LANES_BEGIN                                                                                    \
      T acc = 0;                                                                                   \
      for (size_t i_ = 0; i_ < n_; i_++) {                                                         \
        const T x = a_[l * n_ + i_], y = b_[l * n_ + i_], p0 = ST((FT)LD(x) * (FT)LD(y));         \
        const T p = NANFIX_S(S, p0, x, y), s0 = ST((FT)LD(acc) + (FT)LD(p));                      \
        acc = i_ == 0 ? p : NANFIX_S(S, s0, acc, p);                                               \
      }                                                                                            \
      d_[l] = acc;                                                                                 \
    LANES_END                                                                                      \
    NEXT;                                                                                          \
  }
/* clang-format on */

#define ID_(x) (x)

/* Branchless: (a & m) | (b & ~m) with m all ones where the condition byte is non-zero, since a
 * data-dependent condition mispredicts a per-lane branch about half the time. */
#define SELECT_HANDLER(K, T)                                                                    \
  H(SELECT_##K) {                                                                               \
    T *d_ = (T *)REG(ip->d);                                                                    \
    const T *a_ = (const T *)REG(ip->b), *b_ = (const T *)REG(ip->c);                           \
    const uint8_t *c_ = REG(ip->a);                                                             \
    const size_t n_ = ip->n;                                                                    \
    const bool sc_ = ip->flags & 1;                                                             \
    if (full && n_ == 1) { /* scalar select over a whole warp: a straight, vectorisable loop */ \
      for (unsigned l = 0; l < W; l++) {                                                        \
        const T cm_ = (T)((T)0 - (T)(c_[l] != 0));                                              \
        d_[l] = (T)((a_[l] & cm_) | (b_[l] & (T)~cm_));                                         \
      }                                                                                         \
      NEXT;                                                                                     \
    }                                                                                           \
    if (BLEND_OK(n_)) {                                                                         \
      const ex_lane_masks *m_ = AM();                                                           \
      for (size_t l = 0; l < W; l++) {                                                          \
        const T cm_ = (T)((T)0 - (T)(c_[l] != 0));                                              \
        const T r_ = (T)((a_[l] & cm_) | (b_[l] & (T)~cm_));                                    \
        BLEND_STORE(T, d_, r_, l, m_);                                                          \
      }                                                                                         \
      NEXT;                                                                                     \
    }                                                                                           \
    LANES_BEGIN                                                                                 \
      for (size_t i_ = 0; i_ < n_; i_++) {                                                      \
        bool t_ = sc_ ? c_[l] : c_[l * n_ + i_];                                                \
        d_[l * n_ + i_] = t_ ? a_[l * n_ + i_] : b_[l * n_ + i_];                               \
      }                                                                                         \
    LANES_END                                                                                   \
    NEXT;                                                                                       \
  }

void *ex_bi_access(void *ctx, unsigned lane, uint64_t ptr, uint64_t bytes, bool write) {
  ex_ctx *cx = ctx;
  return ex_mem(cx, cx->cur_warp, lane, ptr, bytes, write);
}

/* Apply an edge's phi moves for one lane (two phases through scratch when the list needs it). */
static void edge_moves_lane(const ex_ctx *cx, uint8_t *R, const uint32_t *e, unsigned l) {
  const unsigned W = cx->W;
  uint32_t nm = e[0] & 0x7FFFFFFFu;
  if (!nm) return;
  const uint32_t *mv = e + 1;
  if (!(e[0] & 0x80000000u)) {
    for (uint32_t i = 0; i < nm; i++, mv += 3)
      memcpy(REG(mv[0]) + (size_t)l * mv[2], REG(mv[1]) + (size_t)l * mv[2], mv[2]);
    return;
  }
  /* scratch is per lane: lane l's scratch bytes start at scratch_reg*W + l*... ; use a contiguous
   * per-lane window of the scratch area sized by the program */
  uint8_t tmp[1024];
  uint8_t *heap = NULL, *t = tmp;
  size_t total = 0;
  for (uint32_t i = 0; i < nm; i++) total += mv[3 * i + 2];
  if (total > sizeof tmp) {
    heap = malloc(total);
    if (!heap) abort();
    t = heap;
  }
  size_t o = 0;
  for (uint32_t i = 0; i < nm; i++) {
    memcpy(t + o, REG(mv[3 * i + 1]) + (size_t)l * mv[3 * i + 2], mv[3 * i + 2]);
    o += mv[3 * i + 2];
  }
  o = 0;
  for (uint32_t i = 0; i < nm; i++) {
    memcpy(REG(mv[3 * i]) + (size_t)l * mv[3 * i + 2], t + o, mv[3 * i + 2]);
    o += mv[3 * i + 2];
  }
  free(heap);
}

/* Copy one value's registers for the given lanes. Whole-warp copies are one memcpy (a value's
 * lanes are contiguous); am (may be NULL): the blend masks of exactly these lanes, when enough are
 * active for a blend over the whole warp to be cheaper; otherwise typed copies lane by lane. */
static inline void copy_lanes(uint8_t *dst, const uint8_t *src, size_t size, const uint16_t *lanes, unsigned nl,
                              bool full, unsigned W, const ex_lane_masks *am) {
  if (full) {
    memcpy(dst, src, size * W);
    return;
  }
  if (am && (size == 1 || size == 2 || size == 4 || size == 8)) {
    for (size_t k = 0; k < W; k++) blend_bytes(dst + k * size, src + k * size, size, am, k);
    return;
  }
  switch (size) {
  case 1:
    for (unsigned k = 0; k < nl; k++) dst[lanes[k]] = src[lanes[k]];
    return;
  case 4:
    for (unsigned k = 0; k < nl; k++) memcpy(dst + 4 * (size_t)lanes[k], src + 4 * (size_t)lanes[k], 4);
    return;
  case 8:
    for (unsigned k = 0; k < nl; k++) memcpy(dst + 8 * (size_t)lanes[k], src + 8 * (size_t)lanes[k], 8);
    return;
  default:
    for (unsigned k = 0; k < nl; k++) memcpy(dst + size * lanes[k], src + size * lanes[k], size);
    return;
  }
}

/* An edge's phi moves for a set of lanes taking it. */
static void edge_moves(const ex_ctx *cx, uint8_t *R, const uint32_t *e, const uint16_t *lanes, unsigned nl, bool full,
                       const ex_lane_masks *am) {
  const unsigned W = cx->W;
  uint32_t nm = e[0] & 0x7FFFFFFFu;
  if (!nm || !nl) return;
  if (e[0] & 0x80000000u) { /* parallel copy through scratch, lane by lane */
    for (unsigned k = 0; k < nl; k++) edge_moves_lane(cx, R, e, lanes[k]);
    return;
  }
  for (uint32_t i = 0; i < nm; i++) {
    const uint32_t *mv = e + 1 + 3 * i;
    copy_lanes(REG(mv[0]), REG(mv[1]), mv[2], lanes, nl, full, W, am);
  }
}

/* An access chain's pointer for lane l (EX_ACCESS, ex_ops.h): base plus the constant offset
 * aux x[0..1] plus the x[2] variable terms (register, bytes, stride) from x[3], into *p. Computed
 * exactly: false when a product or a sum leaves int64 (*ovf) or the pointer leaves base's offset
 * field (ex.h "Pointers"), for chain_wrap to judge. *disp: the byte displacement. */
static inline bool chain_ptr(const ex_ctx *cx, const uint8_t *R, unsigned W, const uint32_t *x, unsigned l,
                             uint64_t base, uint64_t *p, int64_t *disp, bool *ovf) {
  int64_t d = (int64_t)((uint64_t)x[0] | ((uint64_t)x[1] << 32)), t;
  bool o = false;
  for (uint32_t k = 0; k < x[2]; k++) {
    const uint32_t *tm = x + 3 + 3 * k;
    o |= __builtin_mul_overflow(rd_sint(REG(tm[0]) + (size_t)l * tm[1], tm[1]), (int64_t)tm[2], &t);
    o |= __builtin_add_overflow(d, t, &d);
  }
  *p = base + (uint64_t)d;
  *disp = d;
  *ovf = o;
  return !o && !((*p ^ base) >> cx->shift);
}

/* Access chain ip moved lane l's pointer base out of its allocation's offset field, or its byte
 * displacement disp overflowed 64 bits (ovf): the pointer would name another allocation, or wrap
 * around onto this one (p[2^62 + 1] of 4-byte elements is p[1] modulo 2^64) and land inside it
 * silently. Only a pointer into an allocation of the launch has such a field: a null, SVM or
 * invalid base faults only on an overflow (an SVM pointer is a host address, which may cross the
 * field's boundary), and otherwise goes on with *p = base + disp (true). The fault is an
 * out-of-bounds access at the chain, naming base's allocation and offset (the displacement's
 * target is not representable); under keep_going its report, and the chain's result points 4 KiB
 * below the field's end (aligned for any access), out of bounds of every allocation smaller than
 * that (all but a 512 GiB one in a 64-bit module), so its dereferences are reported too. */
static __attribute__((noinline, cold)) bool chain_wrap(ex_ctx *cx, ex_warp *w, unsigned l, const ex_func *fn,
                                                       const ex_insn *ip, uint64_t base, int64_t disp, bool ovf,
                                                       uint64_t *p) {
  const uint64_t id = (base & cx->ptr_mask) >> cx->shift;
  const bool known = id && id < cx->nallocs;
  if (!known && !ovf) {
    *p = base + (uint64_t)disp;
    return true;
  }
  const uint32_t alloc = known ? (uint32_t)id : 0;
  const int64_t off = known ? (int64_t)((base & cx->off_mask) - cx->bias) : (int64_t)base;
  char d[160];
  if (ovf)
    snprintf(d, sizeof d,
             "the access chain's byte offset (an index times its stride) overflows 64 bits, from the pointer");
  else
    snprintf(d, sizeof d,
             "the access chain moves the pointer by %lld bytes (beyond any allocation's %llu) from the pointer",
             (long long)disp, (unsigned long long)cx->bias);
  cx->cur_ip = ip;
  cx->cur_fn = fn;
  *p = (base & ~cx->off_mask) | (cx->off_mask & ~(uint64_t)0xFFF);
  if (ex_fault_kept(cx, SPVI_FAULT_OUT_OF_BOUNDS, w, l, alloc, off, 0, false, d)) return true;
  ex_fault(cx, SPVI_FAULT_OUT_OF_BOUNDS, w, l, alloc, off, 0, d);
  return false;
}

/* Lane l of EX_ACCESS1_*: base + ix * the element size, exactly (chain_wrap otherwise). */
static inline bool access1_lane(ex_ctx *cx, ex_warp *w, unsigned l, const ex_func *fn, const ex_insn *ip, uint64_t base,
                                int64_t ix, uint64_t *p) {
  int64_t d;
  const bool ovf = __builtin_mul_overflow(ix, (int64_t)ip->c, &d);
  *p = base + (uint64_t)d;
  return (!ovf && !((*p ^ base) >> cx->shift)) || chain_wrap(cx, w, l, fn, ip, base, d, ovf, p);
}

/* The indexes i with |i| < 2^index_bits times an element of es bytes move a pointer by less than
 * 2^shift, the width of the offset field: a product that cannot overflow, and the only indexes
 * that can keep a pointer into an allocation inside it. */
static inline unsigned index_bits(unsigned shift, uint64_t es) {
  return es < 2 ? shift : shift - (64u - (unsigned)__builtin_clzll(es - 1));
}

/* Lane l's index i of access chain ip is outside its array (EX_ACCESS_CHECK check c: register,
 * bytes, length, position in the chain); the chain made pointer p from base. The fault names the allocation base
 * points into and p's offset from its start (the element the index designates, which may lie
 * outside it); under keep_going its report instead (true: go on with p). */
static __attribute__((noinline, cold)) bool array_index_fault(ex_ctx *cx, ex_warp *w, unsigned l, const ex_func *fn,
                                                              const ex_insn *ip, uint64_t base, uint64_t p,
                                                              const uint32_t *c, int64_t i) {
  const uint64_t id = (base & cx->ptr_mask) >> cx->shift;
  const bool known = id && id < cx->nallocs;
  const uint32_t alloc = known ? (uint32_t)id : 0;
  const int64_t off = known ? (int64_t)((base & cx->off_mask) - cx->bias) + (int64_t)(p - base) : (int64_t)p;
  char d[160];
  snprintf(d, sizeof d, "index %lld is outside the array of %u elements (index %u of the access chain)", (long long)i,
           c[2], c[3]);
  cx->cur_ip = ip;
  cx->cur_fn = fn;
  if (ex_fault_kept(cx, SPVI_FAULT_ARRAY_INDEX, w, l, alloc, off, 0, false, d)) return true;
  ex_fault(cx, SPVI_FAULT_ARRAY_INDEX, w, l, alloc, off, 0, d);
  return false;
}

/* OpCopyMemory(Sized) for one lane: `n` bytes from the pointer in register src_reg to the one in
 * dst_reg, both bounds-checked (overlap allowed). false after recording a fault. */
static bool copy_memory(ex_ctx *cx, ex_warp *w, unsigned l, const uint8_t *dst_reg, const uint8_t *src_reg, unsigned pb,
                        uint64_t n) {
  uint8_t *src = ex_mem(cx, w, l, ex_rd_ptr(src_reg, pb), n, false);
  if (!src) return false;
  uint8_t *dst = ex_mem(cx, w, l, ex_rd_ptr(dst_reg, pb), n, true);
  if (!dst) return false;
  memmove(dst, src, n);
  return true;
}

/* The allocation a warp-wide 4- or 8-byte access goes through when it may take a fast path: the
 * one lane pointer p0 (already masked with ptr_mask, as the callers' offsets need it) points into,
 * if global, constant or local (and writable for a write) and at least n bytes long, with its
 * pointer in *start and its bytes' last valid offset in *lim; NULL otherwise, and always when a
 * group range records written bytes. */
static inline __attribute__((always_inline)) const ex_alloc *fast_alloc(const ex_ctx *cx, uint64_t p0, uint64_t n,
                                                                        bool write, uint64_t *start, uint64_t *lim) {
  if (cx->written) return NULL;
  const uint64_t id = p0 >> cx->shift;
  if (id == 0 || id >= cx->nallocs) return NULL;
  const ex_alloc *a = &cx->allocs[id];
  if (a->space == EX_AS_PRIVATE || (write && a->read_only) || a->size < n) return NULL;
  *start = ex_ptr_of(cx, (uint32_t)id);
  *lim = a->size - n;
  return a;
}

static inline uint8_t *fast_alloc_bytes(const ex_ctx *cx, const ex_alloc *a) {
  return a->space == EX_AS_LOCAL ? cx->local + a->offset : a->base;
}

/* The full-warp fast path of 4- and 8-byte loads and stores: when every lane's pointer is into the
 * same allocation (fast_alloc), in bounds and aligned (the common case), the allocation is looked
 * up once and the host address of lane k is base + offs[k]; *run tells whether the lanes access
 * consecutive elements (offs[k] = offs[0] + k * n, a[get_global_id(0)]), which one block copy then
 * serves. (Looking for lanes that all access one element too cost SGEMM more than it saved: its
 * 16-wide groups put two rows in a warp of 32.) NULL: take the per-lane path (which reports
 * whatever is wrong). */
static inline __attribute__((always_inline)) uint8_t *shared_alloc(const ex_ctx *cx, const uint8_t *pa, unsigned pb,
                                                                   unsigned W, uint64_t n, uint64_t amask, bool write,
                                                                   uint64_t *offs, bool *run) {
  const uint64_t p0 = ex_rd_ptr(pa, pb) & cx->ptr_mask;
  uint64_t start, lim;
  const ex_alloc *a = fast_alloc(cx, p0, n, write, &start, &lim);
  if (!a) return NULL;
  /* p - (the allocation's pointer) is the offset for a pointer into it; for one into another
   * allocation it is at least 2^shift - bias = bias, or negative (a huge unsigned value), and
   * every allocation is smaller than bias (setup_allocs): one compare checks id and bounds. */
  const uint64_t ptr_mask = cx->ptr_mask;
  /* a run is looked for only when the ends fit one (not in a warp over two rows of a 2D group,
   * where it cost SGEMM 4%); -O3 unswitches the loop on maybe */
  const uint64_t first = p0 - start;
  const bool maybe = (ex_rd_ptr(pa + (size_t)(W - 1) * pb, pb) & ptr_mask) - start - first == (uint64_t)(W - 1) * n;
  uint64_t bad = 0, gap = !maybe;
  for (unsigned k = 0; k < W; k++) {
    const uint64_t off = (ex_rd_ptr(pa + (size_t)k * pb, pb) & ptr_mask) - start;
    offs[k] = off;
    bad |= (uint64_t)(off > lim) | (off & amask);
    if (maybe) gap |= off - (first + k * n);
  }
  if (bad) return NULL;
  *run = gap == 0;
  return fast_alloc_bytes(cx, a);
}

/* The same for the active lanes of a partial warp (divergent code: a data-dependent loop's
 * gathers, a sorting network's conditional stores): offs[k] for lane lanes[k], one allocation
 * looked up for all, the same single compare per lane, where the per-lane path (ex_mem) looks up
 * each lane's. Stores go in lane order, as the per-lane path's. */
static inline __attribute__((always_inline)) uint8_t *lanes_alloc(const ex_ctx *cx, const uint8_t *pa, unsigned pb,
                                                                  const uint16_t *lanes, unsigned nl, uint64_t n,
                                                                  uint64_t amask, bool write, uint64_t *offs) {
  const uint64_t ptr_mask = cx->ptr_mask;
  uint64_t start, lim;
  const ex_alloc *a = fast_alloc(cx, ex_rd_ptr(pa + (size_t)lanes[0] * pb, pb) & ptr_mask, n, write, &start, &lim);
  if (!a) return NULL;
  uint64_t bad = 0;
  for (unsigned k = 0; k < nl; k++) {
    const uint64_t off = (ex_rd_ptr(pa + (size_t)lanes[k] * pb, pb) & ptr_mask) - start;
    offs[k] = off;
    bad |= (uint64_t)(off > lim) | (off & amask);
  }
  return bad ? NULL : fast_alloc_bytes(cx, a);
}

/* A load or store whose address passed the bounds check (m != NULL) but not the alignment check:
 * record the fault (a failed bounds check has recorded its own). */
static void __attribute__((noinline, cold))
misaligned(ex_ctx *cx, ex_warp *w, unsigned l, const uint8_t *m, uint64_t p, uint64_t n, uint64_t amask, bool write) {
  if (!m) return;
  char d[96];
  snprintf(d, sizeof d, "%s (alignment %llu)", write ? "write" : "read", (unsigned long long)amask + 1);
  ex_fault_ptr(cx, SPVI_FAULT_MISALIGNED, w, l, p, n, d);
}

/* DIV_CHECK found a divisor of 0 or a signed overflow in some lane: the hooks' arith event (the
 * reports are a client's, ex_arith_check.c). */
static void __attribute__((noinline, cold))
div_report(ex_ctx *cx, ex_warp *w, const ex_func *fn, const ex_insn *ip, const uint8_t *a, const uint8_t *b,
           unsigned bytes, bool is_signed, const uint16_t *lanes, unsigned nl, unsigned W) {
  (void)W;
  const ex_hk_arith e = {w, fn, ip, lanes, nl, a, b, ip->n, bytes, is_signed};
  ex_hooks_div(cx, &e);
}

/* The lane mask of W bool registers (0 or 1 each, as every bool-producing handler writes; other
 * non-zero bytes take the byte-wise path): 8 lanes per multiply, the multiplier gathering byte i's
 * low bit into bit i of the top byte. */
static inline uint64_t bool_mask(const uint8_t *c, unsigned W) {
  uint64_t m = 0;
  unsigned l = 0;
  for (; l + 8 <= W; l += 8) {
    uint64_t x;
    memcpy(&x, c + l, 8);
    if (x & ~0x0101010101010101ull) break;
    m |= ((x * 0x0102040810204080ull) >> 56) << l;
  }
  for (; l < W; l++) m |= (uint64_t)(c[l] != 0) << l;
  return m;
}

/* The blend masks of the lanes in mask m (all ones) and of the others (zero), W lanes. */
static inline void lane_masks(uint64_t m, unsigned W, ex_lane_masks *am) {
  for (unsigned l = 0; l < W; l++) {
    const uint64_t x = (uint64_t)0 - ((m >> l) & 1);
    am->m8[l] = x;
    am->m4[l] = (uint32_t)x;
    am->m2[l] = (uint16_t)x;
    am->m1[l] = (uint8_t)x;
  }
}

static unsigned mask_lanes(uint64_t m, uint16_t *lanes) {
  unsigned n = 0;
  while (m) {
    lanes[n++] = (uint16_t)__builtin_ctzll(m);
    m &= m - 1;
  }
  return n;
}

/* Lanes `lanes` of frame f go to block b next: joined with the lanes already waiting there, or a
 * new entry at its place in RPO order (few entries: divergent code rarely has many blocks pending). */
static inline void pend_add(ex_frame *f, int32_t b, uint64_t lanes) {
  const uint32_t rpo = f->fn->blocks[b].rpo;
  uint32_t i = f->npend;
  for (; i > 0 && f->pend[i - 1].rpo <= rpo; i--)
    if (f->pend[i - 1].rpo == rpo) {
      f->pend[i - 1].lanes |= lanes;
      return;
    }
  memmove(&f->pend[i + 1], &f->pend[i], (f->npend - i) * sizeof f->pend[0]);
  f->pend[i] = (ex_pending){.rpo = rpo, .block = b, .lanes = lanes};
  f->npend++;
}

/* Lane recycling: whether lanes `lanes` about to run loop header b should let the frame's other
 * live lanes, which wait behind the loop, go first (to finish and take new work-items, which join
 * the loop when they reach it). Only where work-items never wait for each other (ex_sched.c), so
 * any order is a valid one. A rent-or-buy choice: every iteration run without the waiting lanes
 * wastes their slots and takes the blended (partial-warp) path, about the loop's size times
 * (waiting + live / 2) lane-steps; letting them go costs about the rest of the function, run for
 * few lanes (a dispatch, about 3 lane-steps, plus one per lane). They go once the waste adds up
 * to that cost: at once for short tails (the loop then mostly runs full), later for long ones. */
static inline bool thin_loop(ex_frame *f, int32_t b, uint64_t lanes) {
  const ex_block *hb = &f->fn->blocks[b];
  if (!hb->loop_header) return false;
  const unsigned live = (unsigned)__builtin_popcountll(f->live), waiting = live - (unsigned)__builtin_popcountll(lanes);
  if (!waiting) return false;
  f->wait_cost += hb->loop_body * (waiting + live / 2);
  if (f->wait_cost < hb->loop_rest * (3 + waiting)) return false;
  f->wait_cost = 0;
  return true;
}

/* Whether the active lanes, going on to block b together, run it next: no lane waits at an earlier
 * block (and lane recycling would not put b off). Then they enter it without a pick, keeping their
 * lane list and blend masks. */
static inline bool runs_next(ex_frame *f, uint32_t b, bool recycle) {
  if (!f->npend) return true;
  if (f->pend[f->npend - 1].rpo <= f->fn->blocks[b].rpo) return false; /* (= : lanes wait at b: join them) */
  if (!recycle || !thin_loop(f, (int32_t)b, f->active)) return true;
  f->go_behind = true; /* the decision, for pick_block */
  return false;
}

/* Pick the next block of frame f: the first in RPO that live lanes wait at, with those lanes (unless
 * lane recycling lets lanes behind a loop go first, see thin_loop). Lanes split at a branch thus
 * meet again at the first block both paths reach. false when none is left. */
static inline bool pick_block(ex_frame *f, bool recycle) {
  if (!f->npend) return false;
  ex_pending e = f->pend[f->npend - 1];
  const bool behind = f->go_behind;
  f->go_behind = false;
  if (recycle && f->npend > 1 && (behind || thin_loop(f, e.block, e.lanes))) {
    e = f->pend[f->npend - 2];
    f->pend[f->npend - 2] = f->pend[f->npend - 1];
  }
  f->npend--;
  f->cur = e.block;
  f->active = e.lanes;
  f->ip = f->fn->blocks[e.block].first;
  return true;
}

void ex_exec_warp(ex_ctx *cx, ex_warp *w) {
  static const void *const normal_labels[EX_OP_COUNT] = {
#define LABEL_ADDR_(name) &&L_##name,
    EX_OP_LIST(LABEL_ADDR_)
#undef LABEL_ADDR_
  };
  static const void *const ftz_labels[EX_OP_COUNT] = {
#define LABEL_ADDR_(name) &&L_FTZ_##name,
    EX_OP_LIST(LABEL_ADDR_)
#undef LABEL_ADDR_
  };
  /* The hook clients' tables (ex_hooks.h), built from what they need to see before an instruction
   * runs; a run whose clients need none never selects them. EX_HK_EVERY: every entry leads to the
   * hook (L_HOOK), as under the debugger, whose client may pause the warp there. */
  static const void *const every_labels[EX_OP_COUNT] = {
#define LABEL_EVERY_(name) &&L_HOOK,
    EX_OP_LIST(LABEL_EVERY_)
#undef LABEL_EVERY_
  };
  /* EX_HK_MEMORY: the hook only before the instructions ex_hooks_step decodes: those whose row in
   * ex_ops.h has a hook class. */
#define MEM_HOOKED_(name) ((int)EX_HC_OF_##name != (int)EX_HC_NONE)
  static const void *const mem_labels[EX_OP_COUNT] = {
#define LABEL_MEM_(name) MEM_HOOKED_(name) ? &&L_HOOK : &&L_##name,
    EX_OP_LIST(LABEL_MEM_)
#undef LABEL_MEM_
  };
  static const void *const mem_ftz_labels[EX_OP_COUNT] = {
#define LABEL_MEM_(name) MEM_HOOKED_(name) ? &&L_HOOK : &&L_FTZ_##name,
    EX_OP_LIST(LABEL_MEM_)
#undef LABEL_MEM_
  };
  /* EX_HK_FLAGGED (with the memory instructions): the other instructions reach the hook only while
   * the warp's watch set is not empty (the uninit checker: some register holds an undefined byte). */
  static const void *const flagged_labels[EX_OP_COUNT] = {
#define LABEL_FLAGGED_(name) MEM_HOOKED_(name) ? &&L_HOOK : &&L_HOOK_FLAGGED,
    EX_OP_LIST(LABEL_FLAGGED_)
#undef LABEL_FLAGGED_
  };
#undef MEM_HOOKED_
  const void *const *const base_labels = cx->ftz ? ftz_labels : normal_labels;
  const unsigned hk = cx->hk->insn; /* (the worker's hooks are set up before it runs a warp) */
  /* keep_going: the memory instructions pass the hook, which names them (cx->cur_ip) for the
   * reports of the faults kept going past (ex_fault_access) */
  const void *const *const labels = !hk && !cx->keep_going ? base_labels
                                    : (hk & EX_HK_EVERY)   ? every_labels
                                    : (hk & EX_HK_FLAGGED) ? flagged_labels
                                    : cx->ftz              ? mem_ftz_labels
                                                           : mem_labels;
  const ex_program *prog = cx->prog;
  const unsigned W = cx->W;
  const unsigned pb = prog->ptr_bytes;
  uint8_t *const R = w->regs;
  uint16_t lanes[EX_MAX_WARP];
  unsigned nl;
  bool full;
  ex_lane_masks am; /* partial warps: the active lanes' blend masks (BLEND_OK paths; filled on
                       first use after the active set changed, see AM) */
  bool am_ok = false;
  ex_frame *f;
  const ex_insn *ip;

resched:
  if (cx->faulted) return;
  f = &w->stack[w->depth - 1];
  bool fresh = f->cur < 0;
  if (fresh && !pick_block(f, cx->recycle_lanes)) {
    /* every lane of this activation returned */
    if (w->depth == 1) {
      w->state = EX_W_DONE;
      return;
    }
    w->depth--;
    f = &w->stack[w->depth - 1];
    fresh = false;
  }
  nl = mask_lanes(f->active, lanes);
  full = nl == W;
  am_ok = false;
  if (fresh) ENTER_BLOCK(f->fn, f->cur);
  ip = f->fn->code + f->ip;
  cx->cur_warp = w;
  cx->cur_fn = f->fn;
  goto *labels[ip->op];

  INT_HANDLERS(I8, uint8_t, int8_t, unsigned)
  INT_HANDLERS(I16, uint16_t, int16_t, unsigned)
  INT_HANDLERS(I32, uint32_t, int32_t, uint32_t)
  INT_HANDLERS(I64, uint64_t, int64_t, uint64_t)
  FLT_HANDLERS(H, F16, h16, float, h2f, f2h)
  FLT_HANDLERS(HN, F32, float, float, ID_, ID_)
  FLT_HANDLERS(HFTZ, F32, float, float, ftz, ftz)
  FLT_HANDLERS(H, F64, double, double, ID_, ID_)
  SELECT_HANDLER(1, uint8_t)
  SELECT_HANDLER(2, uint16_t)
  SELECT_HANDLER(4, uint32_t)
  SELECT_HANDLER(8, uint64_t)

  H(LAND) ELEMWISE2(uint8_t, uint8_t, (uint8_t)(x && y));
  NEXT;
  H(LOR) ELEMWISE2(uint8_t, uint8_t, (uint8_t)(x || y));
  NEXT;
  H(LNOT) ELEMWISE1(uint8_t, uint8_t, (uint8_t)!x);
  NEXT;
  H(LEQ) ELEMWISE2(uint8_t, uint8_t, (uint8_t)(!x == !y));
  NEXT;
  H(LNE) ELEMWISE2(uint8_t, uint8_t, (uint8_t)(!x != !y));
  NEXT;
  H(ANY) {
    uint8_t *d = REG(ip->d);
    const uint8_t *a = REG(ip->a);
    LANES_BEGIN
      uint8_t r = 0;
      for (unsigned i = 0; i < ip->n; i++) r |= a[l * ip->n + i] != 0;
      d[l] = r;
    LANES_END
    NEXT;
  }
  H(ALL) {
    uint8_t *d = REG(ip->d);
    const uint8_t *a = REG(ip->a);
    LANES_BEGIN
      uint8_t r = 1;
      for (unsigned i = 0; i < ip->n; i++) r &= a[l * ip->n + i] != 0;
      d[l] = r;
    LANES_END
    NEXT;
  }
  H(FMA_F32) {
    float *d = (float *)REG(ip->d);
    const float *a = (const float *)REG(ip->a), *b = (const float *)REG(ip->b), *c = (const float *)REG(ip->c);
    const size_t n = ip->n;
    if (cx->ftz) { /* flushed inputs and result */
      LANES_BEGIN
        for (size_t i = l * n; i < (l + 1) * n; i++) {
          const float x = ftz(a[i]), y = ftz(b[i]), z = ftz(c[i]);
          const float r = fmaf(x, y, z);
          d[i] = ftz(isnan(r) ? fma_nan_f32(x, y, z) : r);
        }
      LANES_END
      NEXT;
    }
    void (*loop)(float *, const float *, const float *, const float *, size_t) = have_fma() ? fma_hw_f32 : fma_lib_f32;
    if (full) loop(d, a, b, c, n * W);
    else {
      LANES_BEGIN
        loop(d + l * n, a + l * n, b + l * n, c + l * n, n);
      LANES_END
    }
    NEXT;
  }
  H(FMA_F64) {
    double *d = (double *)REG(ip->d);
    const double *a = (const double *)REG(ip->a), *b = (const double *)REG(ip->b), *c = (const double *)REG(ip->c);
    const size_t n = ip->n;
    void (*loop)(double *, const double *, const double *, const double *, size_t) = have_fma() ? fma_hw_f64
                                                                                                : fma_lib_f64;
    if (full) loop(d, a, b, c, n * W);
    else {
      LANES_BEGIN
        loop(d + l * n, a + l * n, b + l * n, c + l * n, n);
      LANES_END
    }
    NEXT;
  }
  H(BITCOUNT) {
    const unsigned bs = ip->flags, rs = ip->c, n = ip->n;
    LANES_BEGIN
      for (unsigned i = 0; i < n; i++)
        wr_uint(REG(ip->d) + ((size_t)l * n + i) * rs, rs,
                (uint64_t)__builtin_popcountll(rd_uint(REG(ip->a) + ((size_t)l * n + i) * bs, bs)));
    LANES_END
    NEXT;
  }
  H(CARRY) {
    /* OpIAddCarry / OpISubBorrow / OpUMulExtended / OpSMulExtended into struct {low, high} */
    const unsigned es = ip->c & 0xFF, hi_off = (ip->c >> 8) & 0xFF, ss = ip->c >> 16, n = ip->n;
    const unsigned bits = es * 8;
    const uint64_t mask = bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
    LANES_BEGIN
      uint8_t *d = REG(ip->d) + (size_t)l * ss;
      for (unsigned i = 0; i < n; i++) {
        uint64_t x = rd_uint(REG(ip->a) + ((size_t)l * n + i) * es, es);
        uint64_t y = rd_uint(REG(ip->b) + ((size_t)l * n + i) * es, es);
        uint64_t lo, hi;
        if (ip->flags == 0) {
          lo = (x + y) & mask;
          hi = lo < x;
        } else if (ip->flags == 1) {
          lo = (x - y) & mask;
          hi = x < y;
        } else if (ip->flags == 2) {
          unsigned __int128 p = (unsigned __int128)x * y;
          lo = (uint64_t)p & mask;
          hi = (uint64_t)(p >> bits) & mask;
        } else {
          __int128 p = (__int128)rd_sint(REG(ip->a) + ((size_t)l * n + i) * es, es) *
                       (__int128)rd_sint(REG(ip->b) + ((size_t)l * n + i) * es, es);
          lo = (uint64_t)p & mask;
          hi = (uint64_t)(p >> bits) & mask;
        }
        wr_uint(d + (size_t)i * es, es, lo);
        wr_uint(d + hi_off + (size_t)i * es, es, hi);
      }
    LANES_END
    NEXT;
  }
  H(CONVERT) {
    const unsigned ds = ip->n * ((ip->c & 0xFF) / 8), ss = ip->n * ((ip->b & 0xFF) / 8);
    LANES_BEGIN
      convert(REG(ip->d) + (size_t)l * ds, REG(ip->a) + (size_t)l * ss, ip->n, ip->b, ip->c, ip->flags, cx->ftz);
    LANES_END
    NEXT;
  }
  H(MOVE) {
    const size_t s = ip->c;
    if (full) memcpy(REG(ip->d), REG(ip->a), s * W);
    else {
      LANES_BEGIN
        memcpy(REG(ip->d) + l * s, REG(ip->a) + l * s, s);
      LANES_END
    }
    NEXT;
  }
  H(EXTRACT) {
    const uint32_t *x = f->fn->aux + ip->b;
    const size_t s = ip->c, ss = x[1];
    /* fixed-size copies for the common scalar pieces (get_global_id(0) out of the id vector) */
    const uint8_t *src = REG(ip->a) + x[0];
    uint8_t *dst = REG(ip->d);
    switch (s) {
    case 4:
      LANES_BEGIN
        memcpy(dst + l * 4, src + l * ss, 4);
      LANES_END
      NEXT;
    case 8:
      LANES_BEGIN
        memcpy(dst + l * 8, src + l * ss, 8);
      LANES_END
      NEXT;
    default:
      LANES_BEGIN
        memcpy(dst + l * s, src + l * ss, s);
      LANES_END
      NEXT;
    }
  }
  H(INSERT) {
    const uint32_t *x = f->fn->aux + ip->c;
    const size_t off = x[0], ps = x[1], ts = x[2];
    LANES_BEGIN
      uint8_t *d = REG(ip->d) + l * ts;
      if (ip->d != ip->b) memmove(d, REG(ip->b) + l * ts, ts);
      memcpy(d + off, REG(ip->a) + l * ps, ps);
    LANES_END
    NEXT;
  }
  H(CONSTRUCT) {
    const uint32_t *x = f->fn->aux + ip->a;
    const size_t ts = ip->c;
    LANES_BEGIN
      uint8_t *d = REG(ip->d) + l * ts;
      size_t run = 0;
      for (uint32_t i = 0; i < x[0]; i++) {
        const uint32_t *p = x + 1 + 3 * i;
        size_t off = p[2] == LD_NONE ? run : p[2];
        if (off + p[1] <= ts) memcpy(d + off, REG(p[0]) + l * p[1], p[1]);
        run = off + p[1];
      }
    LANES_END
    NEXT;
  }
  H(VEXTRACT_DYN) {
    const unsigned es = ip->c & 0xFF, is = ip->c >> 8, n = ip->n;
    LANES_BEGIN
      uint64_t k = rd_uint(REG(ip->b) + (size_t)l * is, is);
      /* out-of-range index: SPIR-V leaves the result undefined; spvi returns zero */
      uint8_t *d = REG(ip->d) + (size_t)l * es;
      if (k < n) memcpy(d, REG(ip->a) + (size_t)l * n * es + k * es, es);
      else memset(d, 0, es);
    LANES_END
    NEXT;
  }
  H(VINSERT_DYN) {
    const uint32_t *x = f->fn->aux + ip->c;
    const unsigned es = x[1], is = x[2], n = ip->n;
    LANES_BEGIN
      uint8_t *d = REG(ip->d) + (size_t)l * n * es;
      if (ip->d != ip->a) memmove(d, REG(ip->a) + (size_t)l * n * es, (size_t)n * es);
      uint64_t k = rd_uint(REG(x[0]) + (size_t)l * is, is);
      if (k < n) memcpy(d + k * es, REG(ip->b) + (size_t)l * es, es); /* out of range: no effect */
    LANES_END
    NEXT;
  }
  H(SHUFFLE) {
    const uint32_t *x = f->fn->aux + ip->c;
    const unsigned es = x[0], n1 = x[1], n2 = x[2], n = ip->n;
    LANES_BEGIN
      uint8_t tmp[16 * 8];
      for (unsigned i = 0; i < n; i++) {
        uint32_t c = x[3 + i];
        if (c == 0xFFFFFFFFu) memset(tmp + i * es, 0, es);
        else if (c < n1) memcpy(tmp + i * es, REG(ip->a) + ((size_t)l * n1 + c) * es, es);
        else memcpy(tmp + i * es, REG(ip->b) + ((size_t)l * n2 + (c - n1)) * es, es);
      }
      memcpy(REG(ip->d) + (size_t)l * n * es, tmp, (size_t)n * es);
    LANES_END
    NEXT;
  }
  /* Loads and stores: ip->flags is log2 of the alignment the access needs (its Aligned operand, or
   * its type's); the pointer's low bits are the offset's, as allocations start at offset 0. */
  H(LOAD) {
    const size_t s = ip->c;
    const uint64_t amask = ((uint64_t)1 << ip->flags) - 1;
    LANES_BEGIN
      const uint64_t p = ex_rd_ptr(REG(ip->a) + (size_t)l * pb, pb);
      uint8_t *m = ex_mem(cx, w, l, p, s, false);
      if (!m || (p & amask)) {
        misaligned(cx, w, l, m, p, s, amask, false);
        goto fault;
      }
      memcpy(REG(ip->d) + l * s, m, s);
    LANES_END
    NEXT;
  }
  /* typed loads and stores of 4 and 8 bytes: a fixed-size copy per lane */
#define LOAD_N(N, T)                                                                      \
  H(LOAD_##N) {                                                                           \
    T *d_ = (T *)REG(ip->d);                                                              \
    const uint8_t *pa_ = REG(ip->a);                                                      \
    const uint64_t amask = ((uint64_t)1 << ip->flags) - 1;                                \
    if (full) {                                                                           \
      uint64_t offs_[EX_MAX_WARP];                                                        \
      bool run_;                                                                          \
      const uint8_t *base_ = shared_alloc(cx, pa_, pb, W, N, amask, false, offs_, &run_); \
      if (base_) {                                                                        \
        if (run_) memcpy(d_, base_ + offs_[0], (size_t)W * N);                            \
        else                                                                              \
          for (unsigned k = 0; k < W; k++) memcpy(&d_[k], base_ + offs_[k], N);           \
        NEXT;                                                                             \
      }                                                                                   \
    } else {                                                                              \
      uint64_t offs_[EX_MAX_WARP];                                                        \
      const uint8_t *base_ = lanes_alloc(cx, pa_, pb, lanes, nl, N, amask, false, offs_); \
      if (base_) {                                                                        \
        for (unsigned k = 0; k < nl; k++) memcpy(&d_[lanes[k]], base_ + offs_[k], N);     \
        NEXT;                                                                             \
      }                                                                                   \
    }                                                                                     \
    LANES_BEGIN                                                                           \
      const uint64_t p = ex_rd_ptr(pa_ + (size_t)l * pb, pb);                             \
      uint8_t *m = ex_mem(cx, w, l, p, N, false);                                         \
      if (!m || (p & amask)) {                                                            \
        misaligned(cx, w, l, m, p, N, amask, false);                                      \
        goto fault;                                                                       \
      }                                                                                   \
      memcpy(&d_[l], m, N);                                                               \
    LANES_END                                                                             \
    NEXT;                                                                                 \
  }                                                                                       \
  H(STORE_##N) {                                                                          \
    const T *v_ = (const T *)REG(ip->b);                                                  \
    const uint8_t *pa_ = REG(ip->a);                                                      \
    const uint64_t amask = ((uint64_t)1 << ip->flags) - 1;                                \
    if (full) {                                                                           \
      uint64_t offs_[EX_MAX_WARP];                                                        \
      bool run_;                                                                          \
      uint8_t *base_ = shared_alloc(cx, pa_, pb, W, N, amask, true, offs_, &run_);        \
      if (base_) {                                                                        \
        if (run_) memcpy(base_ + offs_[0], v_, (size_t)W * N);                            \
        else                                                                              \
          for (unsigned k = 0; k < W; k++) memcpy(base_ + offs_[k], &v_[k], N);           \
        NEXT;                                                                             \
      }                                                                                   \
    } else {                                                                              \
      uint64_t offs_[EX_MAX_WARP];                                                        \
      uint8_t *base_ = lanes_alloc(cx, pa_, pb, lanes, nl, N, amask, true, offs_);        \
      if (base_) {                                                                        \
        for (unsigned k = 0; k < nl; k++) memcpy(base_ + offs_[k], &v_[lanes[k]], N);     \
        NEXT;                                                                             \
      }                                                                                   \
    }                                                                                     \
    LANES_BEGIN                                                                           \
      const uint64_t p = ex_rd_ptr(pa_ + (size_t)l * pb, pb);                             \
      uint8_t *m = ex_mem(cx, w, l, p, N, true);                                          \
      if (!m || (p & amask)) {                                                            \
        misaligned(cx, w, l, m, p, N, amask, true);                                       \
        goto fault;                                                                       \
      }                                                                                   \
      memcpy(m, &v_[l], N);                                                               \
    LANES_END                                                                             \
    NEXT;                                                                                 \
  }
  LOAD_N(4, uint32_t)
  LOAD_N(8, uint64_t)
#undef LOAD_N
  /* p + i * size with a 4- or 8-byte signed index. A full warp's loop also ORs each pointer's
   * change of the bits above the offset field (and, for 8-byte indexes, each index's distance from
   * the range index_bits allows): one xor and one or per lane, which vectorise with the rest; a
   * pointer that left its allocation's field, or a product that may overflow, sends the warp to
   * the lane by lane path, which computes exactly and reports it (chain_wrap). A 4-byte index times
   * an element below 2^32 bytes cannot overflow 64 bits. */
  H(ACCESS1_I32) {
    const int32_t *ix = (const int32_t *)REG(ip->b);
    if (pb == 8 && (full || BLEND_OK(1))) {
      const uint64_t *m8 = full ? NULL : AM()->m8;
      uint64_t bi;
      const uint64_t bx = ACCESS1_WARP(ix, false, 0, m8, &bi);
      if (!(bx >> cx->shift)) NEXT;
    }
    LANES_BEGIN
      uint64_t p;
      if (!access1_lane(cx, w, l, f->fn, ip, ex_rd_ptr(REG(ip->a) + (size_t)l * pb, pb), ix[l], &p)) goto fault;
      wr_ptr(REG(ip->d) + (size_t)l * pb, pb, p);
    LANES_END
    NEXT;
  }
  H(ACCESS1_I64) {
    const uint64_t *ix = (const uint64_t *)REG(ip->b);
    if (pb == 8 && (full || BLEND_OK(1))) {
      const uint64_t *m8 = full ? NULL : AM()->m8;
      const unsigned m = index_bits(cx->shift, ip->c);
      uint64_t bi;
      const uint64_t bx = ACCESS1_WARP(ix, true, (uint64_t)1 << m, m8, &bi);
      if (!((bx >> cx->shift) | (bi >> (m + 1)))) NEXT;
    }
    LANES_BEGIN
      uint64_t p;
      if (!access1_lane(cx, w, l, f->fn, ip, ex_rd_ptr(REG(ip->a) + (size_t)l * pb, pb), (int64_t)ix[l], &p))
        goto fault;
      wr_ptr(REG(ip->d) + (size_t)l * pb, pb, p);
    LANES_END
    NEXT;
  }
  H(SEXT_I32_I64) ELEMWISE1(uint32_t, uint64_t, (uint64_t)(int64_t)(int32_t)x);
  NEXT;
  H(ZEXT_I32_I64) ELEMWISE1(uint32_t, uint64_t, (uint64_t)x);
  NEXT;
  H(TRUNC_I64_I32) ELEMWISE1(uint64_t, uint32_t, (uint32_t)x);
  NEXT;
  H(STORE) {
    const size_t s = ip->c;
    const uint64_t amask = ((uint64_t)1 << ip->flags) - 1;
    LANES_BEGIN
      const uint64_t p = ex_rd_ptr(REG(ip->a) + (size_t)l * pb, pb);
      uint8_t *m = ex_mem(cx, w, l, p, s, true);
      if (!m || (p & amask)) {
        misaligned(cx, w, l, m, p, s, amask, true);
        goto fault;
      }
      memcpy(m, REG(ip->b) + l * s, s);
    LANES_END
    NEXT;
  }
  H(COPYMEM) {
    LANES_BEGIN
      if (!copy_memory(cx, w, l, REG(ip->a) + (size_t)l * pb, REG(ip->b) + (size_t)l * pb, pb, ip->c)) goto fault;
    LANES_END
    NEXT;
  }
  H(COPYMEM_SIZED) {
    const unsigned is = ip->flags;
    LANES_BEGIN
      uint64_t s = rd_uint(REG(ip->c) + (size_t)l * is, is);
      if (s && !copy_memory(cx, w, l, REG(ip->a) + (size_t)l * pb, REG(ip->b) + (size_t)l * pb, pb, s)) goto fault;
    LANES_END
    NEXT;
  }
  H(ACCESS) {
    const uint32_t *x = f->fn->aux + ip->b;
    LANES_BEGIN
      const uint64_t base = ex_rd_ptr(REG(ip->a) + (size_t)l * pb, pb);
      uint64_t p;
      int64_t disp;
      bool ovf;
      if (!chain_ptr(cx, R, W, x, l, base, &p, &disp, &ovf) && !chain_wrap(cx, w, l, f->fn, ip, base, disp, ovf, &p))
        goto fault;
      wr_ptr(REG(ip->d) + (size_t)l * pb, pb, p);
    LANES_END
    NEXT;
  }
  H(ACCESS_CHECK) {
    const uint32_t *x = f->fn->aux + ip->b;
    const uint32_t *ck = x + 3 + 3 * x[2]; /* the checks, after the terms */
    if (pb == 8 && full && x[2] == 1 && ck[0] == 1 && ck[1] == x[3] && (x[4] == 4 || x[4] == 8) &&
        (uint64_t)ck[3] * x[5] < ((uint64_t)1 << 62)) {
      /* the common shape a[i]: one term whose index is the one checked; the whole warp's indexes
       * first (as unsigned, a negative one is out of range too), then its pointers. An index in
       * range times the stride is below 2^62, and the constant offset too (ex_prep_mem.c
       * chain_index), so the sum is exact: what remains to check is that each pointer stays in its
       * allocation's offset field (the bits above it unchanged), as in EX_ACCESS1_*. */
      const uint64_t coff = (uint64_t)x[0] | ((uint64_t)x[1] << 32), es = x[5], len = ck[3];
      const uint64_t *base = (const uint64_t *)REG(ip->a);
      uint64_t *d = (uint64_t *)REG(ip->d);
      bool bad = false;
      uint64_t bx = 0;
      if (x[4] == 4) {
        const int32_t *ix = (const int32_t *)REG(x[3]);
        for (unsigned k = 0; k < W; k++) bad |= (uint64_t)(int64_t)ix[k] >= len;
        if (!bad) {
          for (unsigned k = 0; k < W; k++) {
            d[k] = base[k] + coff + (uint64_t)(int64_t)ix[k] * es;
            bx |= d[k] ^ base[k];
          }
          if (!(bx >> cx->shift)) NEXT;
        }
      } else {
        const uint64_t *ix = (const uint64_t *)REG(x[3]);
        for (unsigned k = 0; k < W; k++) bad |= ix[k] >= len;
        if (!bad) {
          for (unsigned k = 0; k < W; k++) {
            d[k] = base[k] + coff + ix[k] * es;
            bx |= d[k] ^ base[k];
          }
          if (!(bx >> cx->shift)) NEXT;
        }
      }
    } /* else, or an index out of range, or a pointer out of its field: lane by lane, which reports it */
    LANES_BEGIN
      const uint64_t base = ex_rd_ptr(REG(ip->a) + (size_t)l * pb, pb);
      uint64_t p;
      int64_t disp;
      bool ovf;
      const bool exact = chain_ptr(cx, R, W, x, l, base, &p, &disp, &ovf);
      for (uint32_t k = 0; k < ck[0]; k++) {
        const uint32_t *c = ck + 1 + 4 * k;
        const int64_t i = rd_sint(REG(c[0]) + (size_t)l * c[1], c[1]);
        if ((i < 0 || (uint64_t)i >= c[2]) && !array_index_fault(cx, w, l, f->fn, ip, base, p, c, i)) goto fault;
      }
      if (!exact && !chain_wrap(cx, w, l, f->fn, ip, base, disp, ovf, &p)) goto fault;
      wr_ptr(REG(ip->d) + (size_t)l * pb, pb, p);
    LANES_END
    NEXT;
  }
  H(PTR2U) {
    LANES_BEGIN
      wr_uint(REG(ip->d) + (size_t)l * ip->n, ip->n, ex_ptr_to_int(cx, ex_rd_ptr(REG(ip->a) + (size_t)l * pb, pb)));
    LANES_END
    NEXT;
  }
  H(U2PTR) {
    LANES_BEGIN
      wr_ptr(REG(ip->d) + (size_t)l * pb, pb, ex_int_to_ptr(cx, rd_uint(REG(ip->a) + (size_t)l * ip->n, ip->n)));
    LANES_END
    NEXT;
  }
  H(GEN2PTR) {
    LANES_BEGIN
      uint64_t p = ex_rd_ptr(REG(ip->a) + (size_t)l * pb, pb);
      uint64_t id = (p & cx->ptr_mask) >> cx->shift;
      /* OpGenericCastToPtrExplicit: null when the object is not in the requested space (OpenCL C
       * 6.15.9 to_global/to_local/to_private) */
      if (id >= cx->nallocs ? ip->b != EX_AS_GLOBAL || !ex_svm_in_global(cx, p) /* SVM memory is global */
                            : id == 0 || cx->allocs[id].space != ip->b)
        p = 0;
      wr_ptr(REG(ip->d) + (size_t)l * pb, pb, p);
    LANES_END
    NEXT;
  }
  H(GENSEM) {
    LANES_BEGIN
      /* SPIR-V 3.32.8 OpGenericPtrMemSemantics: the Memory Semantics bit of the pointer's specific
       * storage class (3.25): CrossWorkgroupMemory 0x200 for global memory (SVM included; constant
       * memory is a region of global memory, OpenCL 3.0 API 3.3.1), WorkgroupMemory 0x100 for local;
       * private memory has no bit, and neither has null. OpenCL C get_fence (6.15.9) is this >> 8. */
      const uint64_t p = ex_rd_ptr(REG(ip->a) + (size_t)l * pb, pb), id = (p & cx->ptr_mask) >> cx->shift;
      uint32_t sem = 0;
      if (id >= cx->nallocs) sem = ex_svm_in_global(cx, p) ? 0x200 : 0;
      else if (id != 0)
        sem = cx->allocs[id].space == EX_AS_LOCAL ? 0x100 : cx->allocs[id].space == EX_AS_PRIVATE ? 0 : 0x200;
      memcpy(REG(ip->d) + (size_t)l * 4, &sem, 4);
    LANES_END
    NEXT;
  }
  H(PTREQ) {
    LANES_BEGIN
      REG(ip->d)[l] = ex_rd_ptr(REG(ip->a) + (size_t)l * pb, pb) == ex_rd_ptr(REG(ip->b) + (size_t)l * pb, pb);
    LANES_END
    NEXT;
  }
  H(PTRNE) {
    LANES_BEGIN
      REG(ip->d)[l] = ex_rd_ptr(REG(ip->a) + (size_t)l * pb, pb) != ex_rd_ptr(REG(ip->b) + (size_t)l * pb, pb);
    LANES_END
    NEXT;
  }
  H(PTRDIFF) {
    LANES_BEGIN
      /* the difference of the pointers' integer values (SPIR-V 3.32.8 OpPtrDiff) */
      int64_t diff = (int64_t)(ex_ptr_to_int(cx, ex_rd_ptr(REG(ip->a) + (size_t)l * pb, pb)) -
                               ex_ptr_to_int(cx, ex_rd_ptr(REG(ip->b) + (size_t)l * pb, pb)));
      if (pb == 4) diff = (int32_t)(uint32_t)diff;
      wr_uint(REG(ip->d) + (size_t)l * ip->n, ip->n, (uint64_t)(diff / (int64_t)ip->c));
    LANES_END
    NEXT;
  }
  H(EXTINST) {
    const uint32_t *x = f->fn->aux + ip->a;
    const bi_resolved *r = &prog->bis[x[0]];
    const uint32_t f32mask = x[3 + 2 * x[2]];
    bi_call c; /* not zeroed: 800 bytes per call; every field read is set below */
    c.types = prog->bi_types + x[4 + 2 * x[2]];
    c.nsrc = x[2];
    c.dst = ip->d == LD_NONE ? NULL : REG(ip->d);
    c.dst_stride = x[1];
    for (uint32_t i = 0; i < x[2]; i++) {
      c.src[i] = REG(x[3 + 2 * i]);
      c.src_stride[i] = x[4 + 2 * i];
    }
    c.lanes = lanes;
    c.nlanes = nl;
    c.mem = &cx->bimem;
    c.out = &cx->biout;
    c.literal = r->literal;
    c.flush_denormals = cx->ftz;
    if (cx->ftz && (f32mask & 0x3Fu) && x[2] <= 6) {
      /* flushed copies of the float operands (the registers themselves stay as they are) */
      for (uint32_t i = 0; i < x[2]; i++) {
        if (!(f32mask >> i & 1)) continue;
        uint8_t *t = cx->ftz_scratch + (size_t)i * EX_MAX_WARP * EX_FTZ_OPERAND_BYTES;
        const size_t st = c.src_stride[i];
        LANES_BEGIN
          for (size_t k = 0; k < st / 4; k++) {
            float v;
            memcpy(&v, c.src[i] + l * st + 4 * k, 4);
            v = ftz(v);
            memcpy(t + l * st + 4 * k, &v, 4);
          }
        LANES_END
        c.src[i] = t;
      }
    }
    cx->cur_ip = ip;
    if (!r->fn(&c)) goto fault;
    if (cx->ftz && (f32mask & 0x80000000u) && c.dst) {
      const size_t st = c.dst_stride;
      LANES_BEGIN
        for (size_t k = 0; k < st / 4; k++) {
          float v;
          memcpy(&v, c.dst + l * st + 4 * k, 4);
          v = ftz(v);
          memcpy(c.dst + l * st + 4 * k, &v, 4);
        }
      LANES_END
    }
    NEXT;
  }
  H(ATOMIC) {
    const unsigned size = (ip->n >> 1) & 15u, kind = ip->flags;
    const bool fl = ip->n & 1;
    const bool write = kind != EX_AT_LOAD;
    /* flag test-and-set returns a bool; the flag itself is a 32-bit integer in memory */
    const unsigned msize = kind == EX_AT_FLAG_SET || kind == EX_AT_FLAG_CLEAR ? 4 : size;
    LANES_BEGIN
      uint64_t p = ex_rd_ptr(REG(ip->a) + (size_t)l * pb, pb);
      uint8_t *m = ex_mem(cx, w, l, p, msize, write);
      if (!m) goto fault;
      if ((uintptr_t)m % msize) {
        cx->cur_ip = ip;
        ex_fault_ptr(cx, SPVI_FAULT_MISALIGNED, w, l, p, msize, "atomic access");
        goto fault;
      }
      uint64_t v = ip->b != LD_NONE ? rd_uint(REG(ip->b) + (size_t)l * size, size) : 0;
      uint64_t cmp = kind == EX_AT_CMPXCHG ? rd_uint(REG(ip->c) + (size_t)l * size, size) : 0;
      /* locked instructions for memory other threads may use at the same time (ex_alloc), and for
       * SVM memory (a pointer ex_mem accepted past the allocation table), which the host may use */
      const uint64_t aid = (p & cx->ptr_mask) >> cx->shift;
      const bool locked = cx->locked_atomics && (aid >= cx->nallocs || cx->allocs[aid].locked_atomics);
      uint64_t old = locked ? atomic_rmw(m, msize, kind, fl, v, cmp) : plain_rmw(m, msize, kind, fl, v, cmp);
      if (ip->d != LD_NONE) {
        if (kind == EX_AT_FLAG_SET) REG(ip->d)[l] = old != 0;
        else wr_uint(REG(ip->d) + (size_t)l * size, size, old);
      }
    LANES_END
    /* which lanes' compare-exchange stored is known only now (the race checker's reads) */
    if (kind == EX_AT_CMPXCHG) ex_hooks_cmpxchg(cx, w, f, ip, lanes, nl);
    NEXT;
  }
  H(IMAGE) {
    cx->cur_ip = ip;
    if (!ex_image_exec(cx, w, f->fn, ip, lanes, nl)) goto fault;
    NEXT;
  }
  H(NOP) NEXT;
  H(BUILTIN) { /* a built-in variable loaded whole: n components of c bytes */
    uint8_t *d = REG(ip->d);
    const size_t s = (size_t)ip->n * ip->c;
    if (ip->c == 8 && ip->n == 3) {
      /* Lane 0's value serves the whole warp for the group-uniform built-ins, and for the global
       * and local ids of a group that extends in one dimension `dim` alone (x, y or z), where lane
       * l's ids are lane 0's plus l in that dimension (its local linear id is that id). Packed
       * groups (ex_sched.c): the ids and the group id are each lane's own, counted on from lane
       * 0's while the lanes run consecutive work-items (ex_packed_ids). */
      const uint64_t *gs = cx->group_size;
      const unsigned dim = gs[2] > 1 ? 2 : gs[1] > 1 ? 1 : 0;
      uint64_t step;
      switch (ip->a) {
      case SpvBuiltInGlobalInvocationId:
      case SpvBuiltInLocalInvocationId:
        step = w->pack_n || (gs[0] > 1) + (gs[1] > 1) + (gs[2] > 1) > 1 ? UINT64_MAX : 1;
        break;
      case SpvBuiltInWorkgroupId: step = w->pack_n ? UINT64_MAX : 0; break;
      case SpvBuiltInNumWorkgroups:
      case SpvBuiltInWorkgroupSize:
      case SpvBuiltInEnqueuedWorkgroupSize:
      case SpvBuiltInGlobalSize:
      case SpvBuiltInGlobalOffset: step = 0; break;
      default: step = UINT64_MAX; break;
      }
      if (w->pack_n && !w->recycled &&
          (ip->a == SpvBuiltInGlobalInvocationId || ip->a == SpvBuiltInLocalInvocationId ||
           ip->a == SpvBuiltInWorkgroupId)) {
        uint64_t ids[EX_MAX_WARP][3];
        ex_packed_ids(cx, w, ip->a, ids);
        LANES_BEGIN
          memcpy(d + l * s, ids[l], s);
        LANES_END
        NEXT;
      }
      if (step != UINT64_MAX) {
        uint64_t u[3], *v = (uint64_t *)d;
        ex_builtin_value(cx, w, 0, ip->a, u);
        const uint64_t sx = dim == 0 ? step : 0, sy = dim == 1 ? step : 0, sz = dim == 2 ? step : 0;
        if (!w->recycled) {
          LANES_BEGIN
            v[3 * l] = u[0] + sx * l;
            v[3 * l + 1] = u[1] + sy * l;
            v[3 * l + 2] = u[2] + sz * l;
          LANES_END
        } else { /* lane l's work-item is not lane 0's plus l (unsigned differences wrap back) */
          const uint64_t i0 = w->item[0];
          LANES_BEGIN
            v[3 * l] = u[0] + sx * (w->item[l] - i0);
            v[3 * l + 1] = u[1] + sy * (w->item[l] - i0);
            v[3 * l + 2] = u[2] + sz * (w->item[l] - i0);
          LANES_END
        }
        NEXT;
      }
    }
    LANES_BEGIN
      uint64_t v[3];
      ex_builtin_value(cx, w, l, ip->a, v);
      for (unsigned i = 0; i < ip->n; i++) { /* a uint4 sub-group mask: component 3 is 0 */
        const uint64_t c = i < 3 ? v[i] : 0;
        if (ip->c == 8) memcpy(d + l * s + 8 * i, &c, 8);
        else {
          uint32_t x = (uint32_t)c;
          memcpy(d + l * s + 4 * i, &x, 4);
        }
      }
    LANES_END
    NEXT;
  }

  /* ---- control ---- */
  H(BR) {
    const uint32_t *e = f->fn->aux + ip->b;
    if (e[0]) edge_moves(cx, R, e, lanes, nl, full, full || nl * 4 < W ? NULL : AM());
    /* the fast path: no lane waits before the target (in uniform code, none waits at all) */
    if (runs_next(f, ip->a, cx->recycle_lanes)) {
      GOTO_BLOCK(ip->a);
    }
    pend_add(f, (int32_t)ip->a, f->active);
    f->cur = -1;
    goto resched;
  }
  H(BRC) {
    const uint32_t *x = f->fn->aux + ip->b;
    const uint8_t *c = REG(ip->a);
    uint64_t tm = 0;
    if (full || nl * 4 >= W) tm = bool_mask(c, W) & f->active; /* inactive lanes' bytes masked off */
    else {
      LANES_BEGIN
        tm |= (uint64_t)(c[l] != 0) << l;
      LANES_END
    }
    if (tm == f->active || tm == 0) {
      /* every active lane goes the same way: its moves for all of them */
      const uint32_t b = tm ? x[0] : x[2];
      edge_moves(cx, R, f->fn->aux + (tm ? x[1] : x[3]), lanes, nl, full, full || nl * 4 < W ? NULL : AM());
      if (runs_next(f, b, cx->recycle_lanes)) { /* the fast path (see BR) */
        GOTO_BLOCK(b);
      }
      pend_add(f, (int32_t)b, f->active);
    } else {
      uint16_t tl[EX_MAX_WARP], fl[EX_MAX_WARP];
      unsigned nt = 0, nf = 0;
      LANES_BEGIN
        if ((tm >> l) & 1) tl[nt++] = (uint16_t)l;
        else fl[nf++] = (uint16_t)l;
      LANES_END
      pend_add(f, (int32_t)x[0], tm);
      pend_add(f, (int32_t)x[2], f->active & ~tm);
      edge_moves(cx, R, f->fn->aux + x[1], tl, nt, false, NULL);
      edge_moves(cx, R, f->fn->aux + x[3], fl, nf, false, NULL);
    }
    f->cur = -1;
    goto resched;
  }
  H(SWITCH) {
    const uint32_t *x = f->fn->aux + ip->b;
    const unsigned ss = ip->n;
    LANES_BEGIN
      uint64_t v = rd_uint(REG(ip->a) + (size_t)l * ss, ss);
      uint32_t blk = x[1], edge = x[2];
      for (uint32_t k = 0; k < x[0]; k++) {
        const uint32_t *cs = x + 3 + 4 * k;
        uint64_t cv = (uint64_t)cs[0] | ((uint64_t)cs[1] << 32);
        if (ss < 8) cv &= ((uint64_t)1 << (ss * 8)) - 1;
        if (cv == v) {
          blk = cs[2];
          edge = cs[3];
          break;
        }
      }
      edge_moves_lane(cx, R, f->fn->aux + edge, l);
      pend_add(f, (int32_t)blk, (uint64_t)1 << l);
    LANES_END
    f->cur = -1;
    goto resched;
  }
  H(RETV) {
    if (w->depth > 1 && f->ret_dst != LD_NONE) {
      const size_t s = ip->c;
      LANES_BEGIN
        memcpy(REG(f->ret_dst) + l * s, REG(ip->a) + l * s, s);
      LANES_END
    }
  }
  /* fall through */
  H(RET) {
    f->live &= ~f->active;
    f->cur = -1;
    if (cx->recycle && w->depth == cx->recycle_depth) {
      /* lane recycling: the lanes whose work-items returned start the group's next ones */
      const uint64_t m = cx->recycle_lanes ? ex_recycle_lanes(cx, w, f->active) : f->live ? 0 : ex_restart_warp(cx, w);
      if (m) {
        f->live |= m;
        pend_add(f, 0, m);
      }
    }
    if (!f->live && w->depth > 1) {
      /* the whole activation returned: resume the caller after its call */
      w->depth--;
      f = &w->stack[w->depth - 1];
      ip = f->fn->code + f->ip;
      nl = mask_lanes(f->active, lanes);
      full = nl == W;
      am_ok = false;
      cx->cur_fn = f->fn;
      goto *labels[ip->op];
    }
    goto resched;
  }
  H(CALL) {
    const ex_func *callee = &prog->funcs[ip->a];
    const uint32_t *x = f->fn->aux + ip->b;
    for (uint32_t i = 0; i < callee->nparams; i++) {
      const size_t s = callee->param_size[i];
      const uint32_t bv = callee->param_byval[i];
      if (bv) {
        /* by-value aggregate: copy the caller's object into the callee's private copy */
        const ex_alloc *a = &cx->allocs[bv];
        const uint64_t np = ex_ptr_of(cx, bv);
        cx->cur_ip = ip;
        LANES_BEGIN
          uint8_t *src = ex_mem(cx, w, l, ex_rd_ptr(REG(x[1 + i]) + (size_t)l * pb, pb), a->size, false);
          if (!src) goto fault;
          memmove(w->priv + (size_t)l * prog->private_size + a->offset, src, a->size);
          wr_ptr(REG(callee->param_reg[i]) + (size_t)l * pb, pb, np);
        LANES_END
        continue;
      }
      /* a full warp's lanes of a value are contiguous: one copy */
      if (full) memcpy(REG(callee->param_reg[i]), REG(x[1 + i]), s * W);
      else {
        LANES_BEGIN
          memcpy(REG(callee->param_reg[i]) + l * s, REG(x[1 + i]) + l * s, s);
        LANES_END
      }
    }
    f->ip = (uint32_t)(ip - f->fn->code) + 1; /* resume after the call */
    ex_frame *g = &w->stack[w->depth++];
    g->fn = callee;
    g->live = f->active;
    g->active = f->active;
    g->ret_dst = ip->d;
    g->npend = 0;
    g->wait_cost = 0;
    g->go_behind = false;
    g->cur = 0;
    g->ip = callee->blocks[0].first;
    ENTER_BLOCK(callee, 0);
    f = g;
    cx->cur_fn = f->fn;
    ip = f->fn->code + f->ip;
    goto *labels[ip->op];
  }
  H(SUBGROUP) {
    /* runs inside the warp: warps hold whole sub-groups (ex_subgroup.c) */
    cx->cur_ip = ip;
    if (!ex_subgroup_exec(cx, w, f, ip)) return;
    NEXT;
  }
  H(NBAR_INIT) {
    cx->cur_ip = ip;
    if (!ex_named_barrier_init(cx, w, f, ip)) return;
    NEXT;
  }
  H(NBAR_WAIT) {
    /* OpMemoryNamedBarrier: the warp is one sub-group (a program with named barriers runs at warp
     * width = sub-group size), which waits as a unit until the barrier's sub-group count arrived;
     * ex_sched counts the arrival and releases the phase. Every work-item of the sub-group must be
     * here (cl_khr_subgroup_named_barrier: "must be encountered by all work-items in a sub-group"). */
    cx->cur_ip = ip;
    if (f->active != w->all) {
      unsigned lane = (unsigned)__builtin_ctzll(w->all & ~f->active);
      ex_fault(cx, SPVI_FAULT_BARRIER_DIVERGENCE, w, lane, 0, 0, 0,
               "this work-item did not reach the named barrier that others of its sub-group wait at");
      return;
    }
    uint64_t h = 0;
    memcpy(&h, REG(ip->a), 8);
    for (unsigned k = 1; k < nl; k++) {
      uint64_t o = 0;
      memcpy(&o, REG(ip->a) + (size_t)lanes[k] * 8, 8);
      if (o != h) {
        ex_fault(cx, SPVI_FAULT_BARRIER_DIVERGENCE, w, lanes[k], 0, 0, 0,
                 "work-items of one sub-group wait at different named barriers");
        return;
      }
    }
    if (h == 0 || h > prog->nnamed_barriers || cx->nbar[h - 1].count == 0) {
      ex_fault(cx, SPVI_FAULT_BARRIER_DIVERGENCE, w, lanes[0], 0, 0, 0,
               "the named barrier was not initialised by OpNamedBarrierInitialize in this work-group");
      return;
    }
    f->ip = (uint32_t)(ip - f->fn->code) + 1;
    w->state = EX_W_BARRIER;
    w->barrier_at = ip;
    w->nbar = (uint32_t)h;
    return;
  }
  /* collectives wait like a barrier; ex_sched performs them when the whole group is there */
  H(GROUP)
  H(ASYNC_COPY)
  H(WAIT_EVENTS)
  H(BARRIER) {
    /* Every work-item of the warp must be here (OpenCL C 6.15.8: all work-items of a work-group
     * must execute the barrier). Lanes elsewhere cannot reach this barrier instance later: they
     * wait at blocks later in RPO, or have returned. */
    if (f->active != w->all) {
      uint64_t missing = w->all & ~f->active;
      unsigned lane = (unsigned)__builtin_ctzll(missing);
      cx->cur_ip = ip;
      char detail[160];
      snprintf(detail, sizeof detail, "this work-item did not reach the %s that others of its work-group are at",
               ex_sync_name(ip->op));
      ex_fault(cx, SPVI_FAULT_BARRIER_DIVERGENCE, w, lane, 0, 0, 0, detail);
      return;
    }
    f->ip = (uint32_t)(ip - f->fn->code) + 1;
    w->state = EX_W_BARRIER;
    w->barrier_at = ip;
    return;
  }
  H(UNREACHABLE) {
    cx->cur_ip = ip;
    ex_fault(cx, SPVI_FAULT_UNREACHABLE, w, lanes[0], 0, 0, 0, "OpUnreachable was executed");
    return;
  }
  H(ASSUME) {
    /* SPV_KHR_expect_assume, OpAssumeTrueKHR: "If Condition is false, the behavior is undefined":
     * a fault, in the lowest work-item whose condition is false (the same at every warp width) */
    const uint8_t *c = REG(ip->a);
    unsigned bad = EX_MAX_WARP;
    LANES_BEGIN
      if (!c[l] && (bad == EX_MAX_WARP || ex_lane_queue(w, l) < ex_lane_queue(w, bad))) bad = l;
    LANES_END
    if (__builtin_expect(bad != EX_MAX_WARP, 0)) {
      cx->cur_ip = ip;
      ex_fault(cx, SPVI_FAULT_ASSUME, w, bad, 0, 0, 0, "the condition of OpAssumeTrueKHR (__builtin_assume) is false");
      return;
    }
    NEXT;
  }

L_HOOK:
  /* the hook clients (ex_hooks_step); one may pause the warp before ip (the debugger's, ex_pause.c):
   * the frame resumes at ip, its block, active lanes and registers being explicit state */
  cx->cur_ip = ip;
  cx->cur_fn = f->fn;
  if (__builtin_expect(ex_hooks_step(cx, w, f, ip, lanes, nl), 0)) {
    f->ip = (uint32_t)(ip - f->fn->code);
    w->state = EX_W_PAUSED;
    return;
  }
  goto *base_labels[ip->op];
L_HOOK_FLAGGED:
  if (w->hk_watch) goto L_HOOK;
  goto *base_labels[ip->op];

step_limit : {
  /* reported at the first instruction of the block about to run, for its first active lane */
  char d[160];
  snprintf(d, sizeof d, "this work-item executed more than %llu SPIR-V instructions (--max-steps); an endless loop?",
           (unsigned long long)cx->max_steps);
  cx->cur_ip = f->fn->code + f->ip;
  cx->cur_fn = f->fn;
  /* recycled lanes: the one that started first, which step_event found active */
  ex_fault(cx, SPVI_FAULT_STEP_LIMIT, w, w->recycled ? ex_oldest_lane(w) : lanes[0], 0, 0, 0, d);
  return;
}

fault:
  /* the faulting instruction is ip; ex_mem already recorded everything else */
  cx->finsn = ip;
  cx->ffn = f->fn;
  return;
}

#if defined(EX_HAVE_AVX2) && !defined(EX_EXEC_AVX2)
#undef ex_exec_warp
void ex_exec_warp_avx2(ex_ctx *cx, ex_warp *w);

/* Whether to run the AVX2 copy: the CPU (and the OS, which GCC's and Clang's checks include) has
 * every feature it was compiled for, and SPVI_EXEC_ISA does not say "baseline". Decided once per
 * process. */
static bool use_avx2(void) {
  static _Atomic int cached = -1;
  int v = cached;
  if (v < 0) {
    const char *e = getenv("SPVI_EXEC_ISA");
    __builtin_cpu_init();
    v = !(e && strcmp(e, "baseline") == 0) && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
        __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
    cached = v;
  }
  return v;
}

void ex_exec_warp(ex_ctx *cx, ex_warp *w) {
  if (use_avx2()) ex_exec_warp_avx2(cx, w);
  else ex_exec_warp_base(cx, w);
}
#endif
