// vloadn/vstoren (element-aligned, at any element offset: address p + n*offset), vload3/vstore3
// (packed), shuffle and shuffle2 with runtime masks (only the low log2(2m) bits of each mask
// component are used: m elements in the source, 2m for shuffle2).
kernel void vls(global float *out, global const float *in) {
  size_t i = get_global_id(0);
  float4 a = vload4(i, in);            // in[4i .. 4i+3]
  float4 b = vload4(i, in + 1);        // misaligned by one element
  float3 c = vload3(i, in + 2);        // in[3i+2 .. 3i+4]
  float2 d = vload2(0, in + i);
  float8 e = vload8(i, in);
  vstore4(a + b, i, out);              // out[0 .. 4G)
  vstore3(c, i, out + 4 * get_global_size(0));       // packed after that
  vstore2(d, i, out + 7 * get_global_size(0));
  vstore8(e.s76543210, i, out + 9 * get_global_size(0));
}
kernel void shuf(global int *out, global const int4 *a, global const int4 *b,
                 global const uint4 *m4, global const uint8 *m8) {
  size_t i = get_global_id(0);
  global int *o = out + i * 28;
  int4 r1 = shuffle(a[i], m4[i]);                 // mask & 3
  int8 r2 = shuffle(a[i], m8[i]);                 // 4 -> 8
  int4 r3 = shuffle2(a[i], b[i], m4[i]);          // mask & 7
  int8 r4 = shuffle2(a[i], b[i], m8[i]);
  int4 r5 = shuffle(r2, (uint4)(7, 0, 6, 1));      // 8 -> 4, constant mask
  vstore4(r1, 0, o);
  vstore8(r2, 0, o + 4);
  vstore4(r3, 0, o + 12);
  vstore8(r4, 0, o + 16);
  vstore4(r5, 0, o + 24);
}
kernel void shuf16(global float16 *out, global const float2 *a, global const uint16 *m) {
  size_t i = get_global_id(0);
  out[i] = shuffle(a[i], m[i]);                   // 2 -> 16, mask & 1
}
