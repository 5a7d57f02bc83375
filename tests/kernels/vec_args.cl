// By-value scalar and vector kernel arguments of every kind; each is stored to a buffer.
kernel void scalar_args(global uchar *out, char c, uchar uc, short s, ushort us, int i, uint ui,
                        long l, ulong ul, float f, double d) {
  // one result per argument, written at its natural alignment into a 64-byte record
  *(global char *)(out + 0) = c;
  *(global uchar *)(out + 1) = uc;
  *(global short *)(out + 2) = s;
  *(global ushort *)(out + 4) = us;
  *(global int *)(out + 8) = i;
  *(global uint *)(out + 12) = ui;
  *(global long *)(out + 16) = l;
  *(global ulong *)(out + 24) = ul;
  *(global float *)(out + 32) = f;
  *(global double *)(out + 40) = d;
  *(global int *)(out + 48) = c + uc + s + us + i;   // promotions: sign of char/short kept
}
kernel void vector_args(global int *out, float4 f4, int3 i3, uchar16 u16, short8 s8,
                        double2 d2, long2 l2, float2 f2, char3 c3) {
  size_t g = get_global_id(0);
  // every work-item writes the same 64 ints: results are element-wise exact
  global int *o = out + g * 64;
  vstore4(as_int4(f4), 0, o);
  vstore3(i3, 0, o + 4);
  vstore16(convert_int16(u16), 0, o + 7);
  vstore8(convert_int8(s8), 0, o + 23);
  vstore4(as_int4(d2), 0, o + 31);
  vstore4(as_int4(l2), 0, o + 35);
  vstore2(as_int2(f2), 0, o + 39);
  vstore3(convert_int3(c3), 0, o + 41);
  o[44] = i3.x + i3.y + i3.z + c3.z;
  o[45] = u16.sf - s8.s7;
}
