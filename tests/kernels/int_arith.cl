// also: spir32
// Integer arithmetic for every width, char..ulong: + - * & | ^ ~ unary minus, comparisons,
// with wraparound on overflow. Signed wraparound is computed through the unsigned type of the same
// width (signed overflow is undefined in OpenCL C, unsigned overflow wraps); char/short operands are
// promoted to int and the result truncated on the store.
// One kernel per type: arith_<T>(out, a, b), out[i*10 + k] for k = 0..9.
#define ARITH(T, UT, WT)                                                            \
kernel void arith_##T(global T *out, global const T *a, global const T *b) {        \
  size_t i = get_global_id(0);                                                      \
  T x = a[i], y = b[i];                                                             \
  global T *o = out + i * 10;                                                       \
  o[0] = (T)((UT)x + (UT)y);                                                        \
  o[1] = (T)((UT)x - (UT)y);                                                        \
  o[2] = (T)((WT)(UT)x * (WT)(UT)y);                                                \
  o[3] = x & y;                                                                     \
  o[4] = x | y;                                                                     \
  o[5] = x ^ y;                                                                     \
  o[6] = ~x;                                                                        \
  o[7] = (T)(-(UT)x);                                                               \
  o[8] = (T)((x < y) + 2 * (x > y) + 4 * (x == y) + 8 * (x <= y) + 16 * (x != y)); \
  o[9] = (T)((UT)x + (UT)1);                                                        \
}
ARITH(char, uchar, uint)
ARITH(uchar, uchar, uint)
ARITH(short, ushort, uint)
ARITH(ushort, ushort, uint)
ARITH(int, uint, uint)
ARITH(uint, uint, uint)
ARITH(long, ulong, ulong)
ARITH(ulong, ulong, ulong)
