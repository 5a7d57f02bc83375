// Geometric functions (C 6.15.5) on float, float2, float3, float4, double, double2, double3,
// double4, half4 (tests/unit/test_kernel_builtins_geom.c). Input block k = elements k*n .. k*n+n-1
// of a and b:
//   sout[0n+i] = dot(a0, b0)   sout[1n+i] = length(a1)   sout[2n+i] = distance(a2, b2)
//   vout[0n+i] = normalize(a3)
//   float only: sout[3n+i] = fast_length(a4)  sout[4n+i] = fast_distance(a5, b5)
//               vout[1n+i] = fast_normalize(a6)
//   3 and 4 components: vout[2n+i] = cross(a7, b7)
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define BASE                                                                                       \
  size_t i = get_global_id(0);                                                                     \
  sout[i] = dot(a[i], b[i]);                                                                       \
  sout[n + i] = length(a[n + i]);                                                                  \
  sout[2 * n + i] = distance(a[2 * n + i], b[2 * n + i]);                                          \
  vout[i] = normalize(a[3 * n + i]);
#define FAST                                                                                       \
  sout[3 * n + i] = fast_length(a[4 * n + i]);                                                     \
  sout[4 * n + i] = fast_distance(a[5 * n + i], b[5 * n + i]);                                     \
  vout[n + i] = fast_normalize(a[6 * n + i]);
#define CROSS vout[2 * n + i] = cross(a[7 * n + i], b[7 * n + i]);
#define NONE
#define GEOM(T, S, SFX, EXTRA1, EXTRA2)                                                            \
kernel void geom_##SFX(global S *sout, global T *vout, global const T *a, global const T *b,       \
                       uint n) {                                                                   \
  BASE EXTRA1 EXTRA2                                                                               \
}
GEOM(float, float, f, FAST, NONE)
GEOM(float2, float, f2, FAST, NONE)
GEOM(float3, float, f3, FAST, CROSS)
GEOM(float4, float, f4, FAST, CROSS)
GEOM(double, double, d, NONE, NONE)
GEOM(double2, double, d2, NONE, NONE)
GEOM(double3, double, d3, NONE, CROSS)
GEOM(double4, double, d4, NONE, CROSS)
GEOM(half4, half, h4, NONE, CROSS)
