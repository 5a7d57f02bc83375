// OpenCL.std math builtins on double, double2 and double3 (tests/unit/test_kernel_builtins_math.h);
// the same layout and lists as bi_math_f.cl without the float-only half_*/native_* functions.
#define UN_LIST(F) F(sin) F(cos) F(tan) F(asin) F(acos) F(atan) F(sinh) F(cosh) F(tanh) F(asinh) \
  F(acosh) F(atanh) F(exp) F(exp2) F(exp10) F(expm1) F(log) F(log2) F(log10) F(log1p) F(sqrt)    \
  F(rsqrt) F(cbrt) F(erf) F(erfc) F(tgamma) F(lgamma) F(sinpi) F(cospi) F(tanpi) F(asinpi)        \
  F(acospi) F(atanpi) F(logb)
#define BIN_LIST(F) F(atan2) F(atan2pi) F(pow) F(powr) F(hypot) F(fmod) F(remainder) F(fdim)      \
  F(nextafter) F(maxmag) F(minmag) F(copysign)
#define CALL1(fn) { size_t j = k * n + i; out[j] = fn(in[j]); ++k; }
#define CALL2(fn) { size_t j = k * n + i; out[j] = fn(a[j], b[j]); ++k; }

// un: UN_LIST; bin: BIN_LIST
// ints: out[0n+i] = pown(x0, n0), out[1n+i] = rootn(x1, n1), out[2n+i] = ldexp(x2, n2),
//       iout[i] = ilogb(x3)
// ptrs: o1/o2/oi as commented below; nan: out[i] = nan(code[i])
#define MATH_KERNELS(T, IT, UT, SFX)                                                              \
kernel void un_##SFX(global T *out, global const T *in, uint n) {                                 \
  size_t i = get_global_id(0), k = 0;                                                            \
  UN_LIST(CALL1)                                                                                  \
}                                                                                                 \
kernel void bin_##SFX(global T *out, global const T *a, global const T *b, uint n) {             \
  size_t i = get_global_id(0), k = 0;                                                            \
  BIN_LIST(CALL2)                                                                                 \
}                                                                                                 \
kernel void ints_##SFX(global T *out, global IT *iout, global const T *x, global const IT *m,    \
                       uint n) {                                                                  \
  size_t i = get_global_id(0);                                                                   \
  out[i] = pown(x[i], m[i]);                                                                     \
  out[n + i] = rootn(x[n + i], m[n + i]);                                                        \
  out[2 * n + i] = ldexp(x[2 * n + i], m[2 * n + i]);                                            \
  iout[i] = ilogb(x[3 * n + i]);                                                                 \
}                                                                                                 \
kernel void ptrs_##SFX(global T *o1, global T *o2, global IT *oi, global const T *a,              \
                       global const T *b, uint n) {                                               \
  size_t i = get_global_id(0);                                                                   \
  T c;                                                                                            \
  o1[i] = sincos(a[i], &c);                    /* private pointer */                             \
  o2[i] = c;                                                                                      \
  o1[n + i] = fract(a[n + i], &o2[n + i]);     /* global pointer */                              \
  T ip;                                                                                           \
  o1[2 * n + i] = modf(a[2 * n + i], &ip);                                                        \
  o2[2 * n + i] = ip;                                                                             \
  o1[3 * n + i] = frexp(a[3 * n + i], &oi[i]);                                                    \
  IT s, q;                                                                                        \
  o1[4 * n + i] = lgamma_r(a[4 * n + i], &s);                                                     \
  oi[n + i] = s;                                                                                  \
  o1[5 * n + i] = remquo(a[5 * n + i], b[5 * n + i], &q);                                         \
  oi[2 * n + i] = q;                                                                              \
}                                                                                                 \
kernel void nan_##SFX(global T *out, global const UT *code) {                                     \
  size_t i = get_global_id(0);                                                                   \
  out[i] = nan(code[i]);                                                                          \
}

MATH_KERNELS(double, int, ulong, d)
MATH_KERNELS(double2, int2, ulong2, d2)
MATH_KERNELS(double3, int3, ulong3, d3)
