// Relational functions (C 6.15.6) (tests/unit/test_kernel_builtins_rel.c).
// rel_<T>: block k of out = the k-th function on block k of a (and b): isequal isnotequal
// isgreater isgreaterequal isless islessequal islessgreater isordered isunordered (x, y), then
// isfinite isinf isnan isnormal signbit (x). Scalars return int 1/0, vectors -1/0 of an integer
// type as wide as the element.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define REL_BIN(F) F(isequal) F(isnotequal) F(isgreater) F(isgreaterequal) F(isless)               \
  F(islessequal) F(islessgreater) F(isordered) F(isunordered)
#define REL_UN(F) F(isfinite) F(isinf) F(isnan) F(isnormal) F(signbit)
#define CALL2(fn) { size_t j = k * n + i; out[j] = fn(a[j], b[j]); ++k; }
#define CALL1(fn) { size_t j = k * n + i; out[j] = fn(a[j]); ++k; }
#define REL_KERNEL(T, IT, SFX)                                                                     \
kernel void rel_##SFX(global IT *out, global const T *a, global const T *b, uint n) {              \
  size_t i = get_global_id(0), k = 0;                                                              \
  REL_BIN(CALL2) REL_UN(CALL1)                                                                     \
}
REL_KERNEL(float, int, f)
REL_KERNEL(float4, int4, f4)
REL_KERNEL(float3, int3, f3)
REL_KERNEL(float16, int16, f16)
REL_KERNEL(double, int, d)
REL_KERNEL(double2, long2, d2)
REL_KERNEL(half, int, h)
REL_KERNEL(half4, short4, h4)

// any/all: 1 when the most significant bit of any / every component is set (scalars: of the
// value). out[10i + 2k] = any(k-th input), out[10i + 2k + 1] = all(k-th input).
kernel void anyall(global int *out, global const int *s, global const int4 *v4,
                   global const char16 *c16, global const long2 *l2, global const short3 *s3) {
  size_t i = get_global_id(0);
  global int *o = out + 10 * i;
  o[0] = any(s[i]);   o[1] = all(s[i]);
  o[2] = any(v4[i]);  o[3] = all(v4[i]);
  o[4] = any(c16[i]); o[5] = all(c16[i]);
  o[6] = any(l2[i]);  o[7] = all(l2[i]);
  o[8] = any(s3[i]);  o[9] = all(s3[i]);
}

// bitselect(a, b, c): b's bit where c's bit is 1; select(a, b, c): vectors: b[i] where the most
// significant bit of c[i] is set; scalars: b where c != 0.
// sel_<T>(out, a, b, m): out[3i] = bitselect(a, b, as_T(m)), out[3i+1] = select(a, b, signed m),
// out[3i+2] = select(a, b, unsigned m)
#define SEL_KERNEL(T, ST, UT, SFX)                                                                 \
kernel void sel_##SFX(global T *out, global const T *a, global const T *b, global const ST *m) {   \
  size_t i = get_global_id(0);                                                                     \
  out[3 * i] = bitselect(a[i], b[i], as_##T(m[i]));                                                \
  out[3 * i + 1] = select(a[i], b[i], m[i]);                                                       \
  out[3 * i + 2] = select(a[i], b[i], as_##UT(m[i]));                                              \
}
SEL_KERNEL(float, int, uint, f)
SEL_KERNEL(int, int, uint, i)
SEL_KERNEL(float4, int4, uint4, f4)
SEL_KERNEL(char16, char16, uchar16, c16)
SEL_KERNEL(long2, long2, ulong2, l2)
SEL_KERNEL(double2, long2, ulong2, d2)
SEL_KERNEL(half4, short4, ushort4, h4)
SEL_KERNEL(ushort3, short3, ushort3, us3)
SEL_KERNEL(double, long, ulong, d)
