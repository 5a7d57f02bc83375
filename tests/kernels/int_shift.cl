// Shift semantics (OpenCL C 2.0 s6.3.j): the shift count is masked to log2(N) bits, N being the width
// of the left operand's type AFTER integer promotion. Scalar char/short are promoted to int, so
// their counts are masked with 31; vector components are not promoted (char4: mask 7).
// Right shift of a signed value is arithmetic, of an unsigned value logical. Left shifts of
// signed values are done through unsigned types (a negative value shifted left is undefined in C).
// shr_<T>(out, a, b): out[i] = a[i] >> b[i] (raw count)
// shl_<UT>(out, a, b): out[i] = a[i] << b[i] (raw count, computed on the promoted type for
//                      uchar/ushort then truncated)
#define SHR(T)                                                                          \
kernel void shr_##T(global T *out, global const T *a, global const T *b) {             \
  size_t i = get_global_id(0);                                                          \
  out[i] = a[i] >> b[i];                                                                \
}
#define SHL(T, PT)                                                                      \
kernel void shl_##T(global T *out, global const T *a, global const T *b) {             \
  size_t i = get_global_id(0);                                                          \
  out[i] = (T)((PT)a[i] << b[i]);                                                       \
}
SHR(char)
SHR(uchar)
SHR(short)
SHR(ushort)
SHR(int)
SHR(uint)
SHR(long)
SHR(ulong)
SHL(uchar, uint)
SHL(ushort, uint)
SHL(uint, uint)
SHL(ulong, ulong)
// Vectors: no promotion, per-component masks of 7 (char) and 63 (long).
kernel void shift_char4(global char4 *shl, global char4 *shr, global const char4 *a, global const char4 *b) {
  size_t i = get_global_id(0);
  shl[i] = as_char4(as_uchar4(a[i]) << as_uchar4(b[i]));
  shr[i] = a[i] >> b[i];
}
kernel void shift_long2(global ulong2 *shl, global long2 *shr, global const long2 *a, global const long2 *b) {
  size_t i = get_global_id(0);
  shl[i] = as_ulong2(a[i]) << as_ulong2(b[i]);
  shr[i] = a[i] >> b[i];
}
