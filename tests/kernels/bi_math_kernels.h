// bi_math_kernels.h — the math builtin kernels shared by bi_math_f.cl, bi_math_d.cl and
// bi_math_h.cl (tests/unit/test_kernel_builtins_math.c): every kernel evaluates each function of a
// list on that function's own block of inputs: block k holds n elements (scalars or vectors),
// out[k*n + i] = F_k(in[k*n + i]). The lists (and their order) are mirrored by the test's tables
// kb_un[], kb_bin[]. The including file defines UN_EXTRA_LIST(F) and BIN_EXTRA_LIST(F) (functions
// only its type has, possibly none) and instantiates MATH_KERNELS(T, IT, UT, SFX).
// clang-format off
#define UN_LIST(F) F(sin) F(cos) F(tan) F(asin) F(acos) F(atan) F(sinh) F(cosh) F(tanh) F(asinh) \
  F(acosh) F(atanh) F(exp) F(exp2) F(exp10) F(expm1) F(log) F(log2) F(log10) F(log1p) F(sqrt)    \
  F(rsqrt) F(cbrt) F(erf) F(erfc) F(tgamma) F(lgamma) F(sinpi) F(cospi) F(tanpi) F(asinpi)        \
  F(acospi) F(atanpi) F(logb)
#define BIN_LIST(F) F(atan2) F(atan2pi) F(pow) F(powr) F(hypot) F(fmod) F(remainder) F(fdim)      \
  F(nextafter) F(maxmag) F(minmag) F(copysign)

#define CALL1(fn) { size_t j = k * n + i; out[j] = fn(in[j]); ++k; }
#define CALL2(fn) { size_t j = k * n + i; out[j] = fn(a[j], b[j]); ++k; }
// clang-format on

// un: UN_LIST then UN_EXTRA_LIST; bin: BIN_LIST then BIN_EXTRA_LIST
// ints: out[0n+i] = pown(x0, n0), out[1n+i] = rootn(x1, n1), out[2n+i] = ldexp(x2, n2),
//       iout[i] = ilogb(x3)
// ptrs: o1/o2/oi as commented below; nan: out[i] = nan(code[i])
#define MATH_KERNELS(T, IT, UT, SFX)                                                                                \
  kernel void un_##SFX(global T *out, global const T *in, uint n) {                                                 \
    size_t i = get_global_id(0), k = 0;                                                                             \
    UN_LIST(CALL1)                                                                                                  \
    UN_EXTRA_LIST(CALL1)                                                                                            \
  }                                                                                                                 \
  kernel void bin_##SFX(global T *out, global const T *a, global const T *b, uint n) {                              \
    size_t i = get_global_id(0), k = 0;                                                                             \
    BIN_LIST(CALL2)                                                                                                 \
    BIN_EXTRA_LIST(CALL2)                                                                                           \
  }                                                                                                                 \
  kernel void ints_##SFX(global T *out, global IT *iout, global const T *x, global const IT *m, uint n) {           \
    size_t i = get_global_id(0);                                                                                    \
    out[i] = pown(x[i], m[i]);                                                                                      \
    out[n + i] = rootn(x[n + i], m[n + i]);                                                                         \
    out[2 * n + i] = ldexp(x[2 * n + i], m[2 * n + i]);                                                             \
    iout[i] = ilogb(x[3 * n + i]);                                                                                  \
  }                                                                                                                 \
  kernel void ptrs_##SFX(global T *o1, global T *o2, global IT *oi, global const T *a, global const T *b, uint n) { \
    size_t i = get_global_id(0);                                                                                    \
    T c;                                                                                                            \
    o1[i] = sincos(a[i], &c); /* private pointer */                                                                 \
    o2[i] = c;                                                                                                      \
    o1[n + i] = fract(a[n + i], &o2[n + i]); /* global pointer */                                                   \
    T ip;                                                                                                           \
    o1[2 * n + i] = modf(a[2 * n + i], &ip);                                                                        \
    o2[2 * n + i] = ip;                                                                                             \
    o1[3 * n + i] = frexp(a[3 * n + i], &oi[i]);                                                                    \
    IT s, q;                                                                                                        \
    o1[4 * n + i] = lgamma_r(a[4 * n + i], &s);                                                                     \
    oi[n + i] = s;                                                                                                  \
    o1[5 * n + i] = remquo(a[5 * n + i], b[5 * n + i], &q);                                                         \
    oi[2 * n + i] = q;                                                                                              \
  }                                                                                                                 \
  kernel void nan_##SFX(global T *out, global const UT *code) {                                                     \
    size_t i = get_global_id(0);                                                                                    \
    out[i] = nan(code[i]);                                                                                          \
  }
