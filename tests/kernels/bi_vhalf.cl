// Half load/store (C 6.15.7) (tests/unit/test_kernel_builtins_vec.c): vload_half, vload_halfn,
// vloada_halfn (n = 3: stride 4), vstore_half[_rte|_rtz|_rtp|_rtn] from float and double,
// vstore_halfn[_r], vstorea_halfn[_r] (n = 3: stride 4, the 4th half untouched by spvi).
// No cl_khr_fp16: half is only used through pointers, as OpenCL C allows.

// vlh(o1, o2, o3, o3a, o4, o4a, o8, o16a, h, hc): item i (of G)
//   o1[16i+k]  = vload_half(16i+k, h)                 k = 0..15
//   o2[2i..]   = vload_half2(i, h)
//   o3[3i..]   = vload_half3(i, h)       (h[3i .. 3i+2])
//   o3a[3i..]  = vloada_half3(i, h)      (h[4i .. 4i+2])
//   o4[4i..]   = vload_half4(i, h + 1)   (misaligned by one half)
//   o4a[4i..]  = vloada_half4(i, h)
//   o8[8i..]   = vload_half8(i, hc + 3)  (from __constant)
//   o16a[16i..] = vloada_half16(i, h)
kernel void vlh(global float *o1, global float *o2, global float *o3, global float *o3a,
                global float *o4, global float *o4a, global float *o8, global float *o16a,
                global const half *h, constant half *hc) {
  size_t i = get_global_id(0);
  for (int k = 0; k < 16; ++k) o1[16 * i + k] = vload_half(16 * i + k, h);
  vstore2(vload_half2(i, h), i, o2);
  vstore3(vload_half3(i, h), i, o3);
  vstore3(vloada_half3(i, h), i, o3a);
  vstore4(vload_half4(i, h + 1), i, o4);
  vstore4(vloada_half4(i, h), i, o4a);
  vstore8(vload_half8(i, hc + 3), i, o8);
  vstore16(vloada_half16(i, h), i, o16a);
}

// vsh(o, ov, x, xd, G): item i (of G)
//   o[m*16G + 16i + k], m = 0..9: vstore_half, _rte, _rtz, _rtp, _rtn of x[16i+k] (m 0..4) and of
//   xd[16i+k] (m 5..9)
//   ov (vector stores of x, block b at b*16G):
//     b0 vstore_half2(i)  b1 vstore_half3_rtz(i) (stride 3)  b2 vstorea_half3_rtn(i) (stride 4)
//     b3 vstore_half4_rtp(i)  b4 vstorea_half4(i)  b5 vstore_half8_rtn(i)  b6 vstorea_half8_rtz(i)
//     b7 vstore_half16_rte(i)  b8 vstorea_half16_rtp(i)  b9 vstore_half4_rtz of xd (double4)
//     b10 vstorea_half3(i) of xd (double3)  b11 vstorea_half2_rtn(i)
kernel void vsh(global half *o, global half *ov, global const float *x, global const double *xd,
                uint G) {
  size_t i = get_global_id(0), B = 16 * (size_t)G;
  for (int k = 0; k < 16; ++k) {
    size_t j = 16 * i + k;
    vstore_half(x[j], j, o);
    vstore_half_rte(x[j], j, o + B);
    vstore_half_rtz(x[j], j, o + 2 * B);
    vstore_half_rtp(x[j], j, o + 3 * B);
    vstore_half_rtn(x[j], j, o + 4 * B);
    vstore_half(xd[j], j, o + 5 * B);
    vstore_half_rte(xd[j], j, o + 6 * B);
    vstore_half_rtz(xd[j], j, o + 7 * B);
    vstore_half_rtp(xd[j], j, o + 8 * B);
    vstore_half_rtn(xd[j], j, o + 9 * B);
  }
  vstore_half2(vload2(i, x), i, ov);
  vstore_half3_rtz(vload3(i, x), i, ov + B);
  vstorea_half3_rtn(vload3(i, x), i, ov + 2 * B);
  vstore_half4_rtp(vload4(i, x), i, ov + 3 * B);
  vstorea_half4(vload4(i, x), i, ov + 4 * B);
  vstore_half8_rtn(vload8(i, x), i, ov + 5 * B);
  vstorea_half8_rtz(vload8(i, x), i, ov + 6 * B);
  vstore_half16_rte(vload16(i, x), i, ov + 7 * B);
  vstorea_half16_rtp(vload16(i, x), i, ov + 8 * B);
  vstore_half4_rtz(vload4(i, xd), i, ov + 9 * B);
  vstorea_half3(vload3(i, xd), i, ov + 10 * B);
  vstorea_half2_rtn(vload2(i, x), i, ov + 11 * B);
}
