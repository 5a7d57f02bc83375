// min, max and clamp (OpenCL C 6.15.3), which spvi runs as typed handlers, in divergent code:
// lanes with i % 5 == 0 take the first branch (at most a fifth of a warp: computed lane by lane),
// the other lanes with i % 4 != 0 the second (most of a warp: computed for all lanes and blended),
// the rest neither. At -O0 the branches stay branches; -O2 may turn them into selects (full warps).
// minmax_<T>(out, a, b, c): out[3i], out[3i+1], out[3i+2].
#define MINMAX(T)                                                                              \
kernel void minmax_##T(global T *out, global const T *a, global const T *b, global const T *c) { \
  size_t i = get_global_id(0);                                                                 \
  T x = a[i], y = b[i], z = c[i], r0 = x, r1 = y, r2 = z;                                       \
  if (i % 5 == 0) {                                                                            \
    r0 = max(x, y);                                                                            \
    r1 = min(x, y);                                                                            \
    r2 = clamp(x, y, z);                                                                       \
  } else if (i % 4 != 0) {                                                                     \
    r0 = min(x, z);                                                                            \
    r1 = max(y, z);                                                                            \
    r2 = clamp(y, z, x);                                                                       \
  }                                                                                            \
  out[3 * i] = r0;                                                                             \
  out[3 * i + 1] = r1;                                                                         \
  out[3 * i + 2] = r2;                                                                         \
}
MINMAX(char)
MINMAX(uchar)
MINMAX(short)
MINMAX(ushort)
MINMAX(int)
MINMAX(uint)
MINMAX(long)
MINMAX(ulong)
MINMAX(int4)
MINMAX(ulong2)
