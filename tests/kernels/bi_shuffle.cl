// shuffle / shuffle2 (C 6.15.13) with masks whose bits above the index width are set: only the
// low log2(m) (shuffle) or log2(2m) (shuffle2) bits of each mask component count
// (tests/unit/test_kernel_builtins_vec.c). G items; every output buffer has blocks of G vectors.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
// o4: shuffle(x, m4), then shuffle2(x, y, m4); o8: shuffle2(x, y, m8); o16: shuffle(x, m16)
kernel void shuf_f(global float4 *o4, global float8 *o8, global float16 *o16, global const float4 *x,
                   global const float4 *y, global const uint4 *m4, global const uint8 *m8,
                   global const uint16 *m16, uint G) {
  size_t i = get_global_id(0);
  o4[i] = shuffle(x[i], m4[i]);
  o4[G + i] = shuffle2(x[i], y[i], m4[i]);
  o8[i] = shuffle2(x[i], y[i], m8[i]);
  o16[i] = shuffle(x[i], m16[i]);
}
// o: shuffle(x, m), then shuffle2(x, y, m); o2: shuffle(x, m2) (16 -> 2)
kernel void shuf_c(global uchar16 *o, global char2 *o2, global const uchar16 *x,
                   global const uchar16 *y, global const uchar16 *m, global const uchar2 *m2, uint G) {
  size_t i = get_global_id(0);
  o[i] = shuffle(x[i], m[i]);
  o[G + i] = shuffle2(x[i], y[i], m[i]);
  o2[i] = as_char2(shuffle(x[i], m2[i]));
}
// o: shuffle(x, m), shuffle2(x, y, m) on long2; od: shuffle(dx, md) (double2 -> double4);
// oh: shuffle2(hx, hy, mh) (half2, half2 -> half8)
kernel void shuf_l(global long2 *o, global double4 *od, global half8 *oh, global const long2 *x,
                   global const long2 *y, global const ulong2 *m, global const double2 *dx,
                   global const ulong4 *md, global const half2 *hx, global const half2 *hy,
                   global const ushort8 *mh, uint G) {
  size_t i = get_global_id(0);
  o[i] = shuffle(x[i], m[i]);
  o[G + i] = shuffle2(x[i], y[i], m[i]);
  od[i] = shuffle(dx[i], md[i]);
  oh[i] = shuffle2(hx[i], hy[i], mh[i]);
}
