// OpenCL.std integer builtins (C 6.15.3) on every integer type, scalar and vector
// (tests/unit/test_kernel_builtins_int.c). int_<T>: block k of out holds the k-th function of
// x = a[i], y = b[i], z = c[i] (n elements per block):
//   out: 0 add_sat 1 sub_sat 2 hadd 3 rhadd 4 mul_hi 5 mad_hi(x,y,z) 6 mad_sat(x,y,z) 7 clz 8 ctz
//        9 popcount 10 rotate(x,y) 11 min 12 max 13 clamp(x, lo, hi) [14 mul24 15 mad24(x,y,z):
//        int and uint only]
//   uout (unsigned type): 0 abs(x) 1 abs_diff(x,y);  wout (twice as wide): upsample(x, (unsigned)y)
#define COMMON(T, UT)                                                                               \
  size_t i = get_global_id(0);                                                                     \
  T x = a[i], y = b[i], z = c[i];                                                                   \
  out[0 * n + i] = add_sat(x, y);                                                                  \
  out[1 * n + i] = sub_sat(x, y);                                                                  \
  out[2 * n + i] = hadd(x, y);                                                                     \
  out[3 * n + i] = rhadd(x, y);                                                                    \
  out[4 * n + i] = mul_hi(x, y);                                                                   \
  out[5 * n + i] = mad_hi(x, y, z);                                                                \
  out[6 * n + i] = mad_sat(x, y, z);                                                               \
  out[7 * n + i] = clz(x);                                                                         \
  out[8 * n + i] = ctz(x);                                                                         \
  out[9 * n + i] = popcount(x);                                                                    \
  out[10 * n + i] = rotate(x, y);                                                                  \
  out[11 * n + i] = min(x, y);                                                                     \
  out[12 * n + i] = max(x, y);                                                                     \
  out[13 * n + i] = clamp(x, lo[i], hi[i]);                                                        \
  uout[i] = abs(x);                                                                                \
  uout[n + i] = abs_diff(x, y);

#define INT_KERNEL(T, UT, WT, SFX)                                                                 \
kernel void int_##SFX(global T *out, global UT *uout, global WT *wout, global const T *a,          \
                      global const T *b, global const T *c, global const T *lo, global const T *hi, \
                      uint n) {                                                                    \
  COMMON(T, UT)                                                                                    \
  wout[i] = upsample(x, as_##UT(y));                                                               \
}
#define INT_KERNEL_24(T, UT, WT, SFX)                                                              \
kernel void int_##SFX(global T *out, global UT *uout, global WT *wout, global const T *a,          \
                      global const T *b, global const T *c, global const T *lo, global const T *hi, \
                      uint n) {                                                                    \
  COMMON(T, UT)                                                                                    \
  wout[i] = upsample(x, as_##UT(y));                                                               \
  out[14 * n + i] = mul24(x, y);                                                                   \
  out[15 * n + i] = mad24(x, y, z);                                                                \
}
// long/ulong: no upsample (no wider type); wout is not written
#define INT_KERNEL_64(T, UT, SFX)                                                                  \
kernel void int_##SFX(global T *out, global UT *uout, global T *wout, global const T *a,           \
                      global const T *b, global const T *c, global const T *lo, global const T *hi, \
                      uint n) {                                                                    \
  COMMON(T, UT)                                                                                    \
}

INT_KERNEL(char, uchar, short, c)
INT_KERNEL(uchar, uchar, ushort, uc)
INT_KERNEL(short, ushort, int, s)
INT_KERNEL(ushort, ushort, uint, us)
INT_KERNEL_24(int, uint, long, i)
INT_KERNEL_24(uint, uint, ulong, ui)
INT_KERNEL_64(long, ulong, l)
INT_KERNEL_64(ulong, ulong, ul)
INT_KERNEL(char16, uchar16, short16, c16)
INT_KERNEL(ushort3, ushort3, uint3, us3)
INT_KERNEL_24(int4, uint4, long4, i4)
INT_KERNEL_24(uint8, uint8, ulong8, ui8)
INT_KERNEL_64(long2, ulong2, l2)

// the scalar-broadcast overloads min(gentype, sgentype), max, clamp(gentype, sgentype, sgentype):
// out[3i + 0] = min(a[i], s[i].x), out[3i + 1] = max(a[i], s[i].x), out[3i + 2] = clamp(a[i],
// s[i].y, s[i].z)   (s[i] = (scalar, lo, hi))
kernel void bcast_i4(global int4 *out, global const int4 *a, global const int4 *s) {
  size_t i = get_global_id(0);
  out[3 * i + 0] = min(a[i], s[i].x);
  out[3 * i + 1] = max(a[i], s[i].x);
  out[3 * i + 2] = clamp(a[i], s[i].y, s[i].z);
}
kernel void bcast_uc8(global uchar8 *out, global const uchar8 *a, global const uchar4 *s) {
  size_t i = get_global_id(0);
  out[3 * i + 0] = min(a[i], s[i].x);
  out[3 * i + 1] = max(a[i], s[i].x);
  out[3 * i + 2] = clamp(a[i], s[i].y, s[i].z);
}
