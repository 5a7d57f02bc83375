// vloadn / vstoren (C 6.15.7) for n = 2, 3, 4, 8, 16 on char, short, int, long, float, double,
// half, at element offsets that are not multiples of n (tests/unit/test_kernel_builtins_vec.c).
// vls_<T>(o2, o3, o4, o8, o16, in, s, t): item i loads vloadn(i, in + s), reverses (rotates, for
// 3) the components and stores them with vstoren(.., i, on + t). vload3/vstore3 use stride 3.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define VLS(T, SFX)                                                                                \
kernel void vls_##SFX(global T *o2, global T *o3, global T *o4, global T *o8, global T *o16,       \
                      global const T *in, uint s, uint t) {                                        \
  size_t i = get_global_id(0);                                                                     \
  vstore2(vload2(i, in + s).s10, i, o2 + t);                                                       \
  vstore3(vload3(i, in + s).s201, i, o3 + t);                                                      \
  vstore4(vload4(i, in + s).s3210, i, o4 + t);                                                     \
  vstore8(vload8(i, in + s).s76543210, i, o8 + t);                                                 \
  vstore16(vload16(i, in + s).sfedcba9876543210, i, o16 + t);                                      \
}
VLS(char, c)
VLS(short, s)
VLS(int, i)
VLS(long, l)
VLS(float, f)
VLS(double, d)
VLS(half, h)

// other address spaces: vload4 from a private array, vload3 from __constant, vstore4/vstore3 into
// __local, vload from __local back to global.
// out[8 * i + 0..3] = the private array's elements s+4 .. s+7 (vload4(1, priv + s)) reversed;
// out[8 * i + 4..6] = cin[s + i .. s + i + 2] (vload3(0, cin + s + i)); out[8 * i + 7] = 0
kernel void vls_spaces(global float *out, constant float *cin, uint s) {
  size_t i = get_global_id(0), l = get_local_id(0);
  local float loc[8 * 16];
  float priv[24];
  for (int k = 0; k < 24; ++k) priv[k] = cin[k] + (float)i;
  float4 a = vload4(1, priv + s);
  float3 b = vload3(0, cin + s + i);
  vstore4(a.wzyx, 2 * l, loc);            // loc[8l .. 8l+3]
  vstore3(b, 0, loc + 8 * l + 4);          // loc[8l+4 .. 8l+6]
  loc[8 * l + 7] = 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t m = (l + 1) % get_local_size(0); // read a neighbour's slots through vload8 from __local
  vstore8(vload8(m, loc), i - l + m, out);
}
