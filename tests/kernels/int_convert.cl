// Integer conversions between widths: truncation, sign extension, zero extension, signed <->
// unsigned reinterpretation, bool -> int, logical operators, and vector conversions (no _sat).
// conv_scalar(out, a): 12 results per input, each widened to long for the store.
kernel void conv_scalar(global long *out, global const long *a) {
  size_t i = get_global_id(0);
  long x = a[i];
  global long *o = out + i * 12;
  o[0] = (char)x;
  o[1] = (uchar)x;
  o[2] = (short)x;
  o[3] = (ushort)x;
  o[4] = (int)x;
  o[5] = (uint)x;
  o[6] = (long)(ulong)(char)x;       // sign-extend to 64 bits
  o[7] = (long)(uint)(short)x;       // sign-extend to 32 bits, then zero-extend
  o[8] = (long)(uchar)(short)x;
  o[9] = (int)(x < 0) + (int)!x;     // 0, 1 or (never) 2
  o[10] = (x > 100 && x < 1000) || x == -5;
  o[11] = (ulong)(uint)x >> 31;
}
// Vector conversions: truncation int4 -> uchar4, sign extension char4 -> int4, uint4 -> long4
// (zero extension), short8 -> ushort8 -> int8.
kernel void conv_vector(global uchar4 *o_trunc, global int4 *o_sext, global long4 *o_zext,
                        global int8 *o_mixed, global const int4 *a, global const short8 *s) {
  size_t i = get_global_id(0);
  int4 x = a[i];
  o_trunc[i] = convert_uchar4(x);
  o_sext[i] = convert_int4(convert_char4(x));
  o_zext[i] = convert_long4(as_uint4(x));
  o_mixed[i] = convert_int8(as_ushort8(s[i])) - convert_int8(s[i]);
}
