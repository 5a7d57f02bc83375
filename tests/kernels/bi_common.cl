// OpenCL.std common functions (C 6.15.4) on float, float4, float3, double, double2, half, half4
// (tests/unit/test_kernel_builtins_common.c). Block k of every buffer belongs to function k
// (n elements per block), x = a[k*n + i], y = b[k*n + i], z = c[k*n + i]:
//   0 mix(x, y, z)  1 smoothstep(x, y, z)  2 step(x, y)  3 sign(x)  4 degrees(x)  5 radians(x)
//   6 clamp(x, y, z)  7 min(x, y)  8 max(x, y)
//   scalar-broadcast overloads (S(v) = v.x for vectors, v for scalars):
//   9 mix(x, y, S(z))  10 step(S(x), y)  11 smoothstep(S(x), S(y), z)  12 clamp(x, S(y), S(z))
//   13 min(x, S(y))  14 max(x, S(y))
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define BODY(S)                                                                                     \
  size_t i = get_global_id(0);                                                                     \
  out[0 * n + i] = mix(a[0 * n + i], b[0 * n + i], c[0 * n + i]);                                 \
  out[1 * n + i] = smoothstep(a[1 * n + i], b[1 * n + i], c[1 * n + i]);                          \
  out[2 * n + i] = step(a[2 * n + i], b[2 * n + i]);                                              \
  out[3 * n + i] = sign(a[3 * n + i]);                                                            \
  out[4 * n + i] = degrees(a[4 * n + i]);                                                         \
  out[5 * n + i] = radians(a[5 * n + i]);                                                         \
  out[6 * n + i] = clamp(a[6 * n + i], b[6 * n + i], c[6 * n + i]);                               \
  out[7 * n + i] = min(a[7 * n + i], b[7 * n + i]);                                               \
  out[8 * n + i] = max(a[8 * n + i], b[8 * n + i]);                                               \
  out[9 * n + i] = mix(a[9 * n + i], b[9 * n + i], S(c[9 * n + i]));                              \
  out[10 * n + i] = step(S(a[10 * n + i]), b[10 * n + i]);                                        \
  out[11 * n + i] = smoothstep(S(a[11 * n + i]), S(b[11 * n + i]), c[11 * n + i]);                \
  out[12 * n + i] = clamp(a[12 * n + i], S(b[12 * n + i]), S(c[12 * n + i]));                     \
  out[13 * n + i] = min(a[13 * n + i], S(b[13 * n + i]));                                         \
  out[14 * n + i] = max(a[14 * n + i], S(b[14 * n + i]));
#define VS(v) (v).x
#define SS(v) (v)
#define COMMON_KERNEL(T, SFX, S)                                                                   \
kernel void common_##SFX(global T *out, global const T *a, global const T *b, global const T *c,   \
                         uint n) { BODY(S) }

COMMON_KERNEL(float, f, SS)
COMMON_KERNEL(float4, f4, VS)
COMMON_KERNEL(float3, f3, VS)
COMMON_KERNEL(double, d, SS)
COMMON_KERNEL(double2, d2, VS)
COMMON_KERNEL(half, h, SS)
COMMON_KERNEL(half4, h4, VS)
