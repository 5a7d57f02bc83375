// Conversions between integers and floating point with the default rounding: integer -> float
// rounds to nearest even, float -> integer truncates toward zero (inputs are in range, so the
// result is defined). double <-> float, float -> double (exact).
// f2i(out_i, out_u, out_l, out_ul, out_c, out_uc, f): float -> each integer type
kernel void f2i(global int *oi, global uint *ou, global long *ol, global ulong *oul,
                global char *oc, global uchar *ouc, global const float *f) {
  size_t i = get_global_id(0);
  float x = f[i];
  oi[i] = (int)x;
  ol[i] = (long)x;
  oc[i] = (char)(x / 1.0e6f);       // small magnitude: fits char
  float ax = fabs(x);
  ou[i] = (uint)ax;
  oul[i] = (ulong)ax;
  uchar t = (uchar)(ax / 1.0e7f);   // fits uchar
  ouc[i] = t;
}
// i2f(out, si, ui, sl, ul): out[i*4 + k] = (float) of int, uint, long, ulong
kernel void i2f(global float *out, global const int *si, global const uint *ui,
                global const long *sl, global const ulong *ul) {
  size_t i = get_global_id(0);
  out[i * 4 + 0] = (float)si[i];
  out[i * 4 + 1] = (float)ui[i];
  out[i * 4 + 2] = (float)sl[i];
  out[i * 4 + 3] = (float)ul[i];
}
// Double <-> float and double <-> integer.
// d2x(of, od, ol, oul, d, l): of = (float)d, od = (double)(float)d, ol = (long)d, oul =
// (double)l[i] stored as double
kernel void d2x(global float *of, global double *od, global long *ol, global double *odl,
                global double *odul, global const double *d, global const long *l) {
  size_t i = get_global_id(0);
  double x = d[i];
  of[i] = (float)x;
  od[i] = (double)(float)x;
  ol[i] = (long)x;
  odl[i] = (double)l[i];
  odul[i] = (double)(ulong)l[i];
}
// Vector conversions (convert_ without a rounding suffix = default rounding).
kernel void conv_vec(global float4 *of, global int4 *oi, global const int4 *a, global const float4 *b) {
  size_t i = get_global_id(0);
  of[i] = convert_float4(a[i]);
  oi[i] = convert_int4(b[i]);
}
