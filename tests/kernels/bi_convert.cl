// Explicit conversions convert_<T>[_sat][_rte|_rtz|_rtp|_rtn] (C 6.4.3) between float, double,
// half and the integer types (tests/unit/test_kernel_builtins_conv.c). G items; item i writes
// o<T>[K*i + k] for the k-th conversion of its group (K = conversions per group):
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void conv(global int *oi, global uchar *ouc, global char *oc, global float *of,
                 global double *od, global long *ol, global uint *ou, global short *os,
                 global ulong *oul, global half *oh, global const float *xf, global const int *xi,
                 global const double *xd, global const long *xl) {
  size_t i = get_global_id(0);
  float f = xf[i];
  int n = xi[i];
  double d = xd[i];
  long l = xl[i];
  oi[5 * i + 0] = convert_int_sat_rtn(f);
  oi[5 * i + 1] = convert_int_sat_rtp(f);
  oi[5 * i + 2] = convert_int_sat_rte(f);
  oi[5 * i + 3] = convert_int_sat(f);          // rtz
  oi[5 * i + 4] = convert_int_sat_rtn(d);
  ouc[3 * i + 0] = convert_uchar_sat(n);
  ouc[3 * i + 1] = convert_uchar_sat_rte(f);
  ouc[3 * i + 2] = convert_uchar_sat(l);
  oc[3 * i + 0] = convert_char_sat(f);         // NaN -> 0
  oc[3 * i + 1] = convert_char_sat_rtp(d);
  oc[3 * i + 2] = convert_char_sat(n);
  of[7 * i + 0] = convert_float_rtz(n);
  of[7 * i + 1] = convert_float_rtp(n);
  of[7 * i + 2] = convert_float_rtn(l);
  of[7 * i + 3] = convert_float_rtp(d);
  of[7 * i + 4] = convert_float_rtz(d);
  of[7 * i + 5] = convert_float(d);            // rte
  of[7 * i + 6] = convert_float_rtn(d);
  od[3 * i + 0] = convert_double_rtn(l);
  od[3 * i + 1] = convert_double_rtp(l);
  od[3 * i + 2] = convert_double(l);
  ol[3 * i + 0] = convert_long_sat(d);         // rtz
  ol[3 * i + 1] = convert_long_sat_rtp(f);
  ol[3 * i + 2] = convert_long_sat_rte(d);
  ou[3 * i + 0] = convert_uint_sat_rte(d);
  ou[3 * i + 1] = convert_uint_sat(f);         // negative -> 0
  ou[3 * i + 2] = convert_uint_sat(l);
  os[2 * i + 0] = convert_short_sat_rtz(d);
  os[2 * i + 1] = convert_short_sat_rtn(f);
  oul[2 * i + 0] = convert_ulong_sat(f);
  oul[2 * i + 1] = convert_ulong_sat_rtp(d);
  oh[4 * i + 0] = convert_half_rtp(f);
  oh[4 * i + 1] = convert_half_rtz(d);
  oh[4 * i + 2] = convert_half(n);
  oh[4 * i + 3] = convert_half_rtn(l);
}
// vectors: oc4 = convert_char4_sat_rtn(float4), of4 = convert_float4_rtz(int4),
// ou2 = convert_uint2_sat_rtp(double2), os3 = convert_short3_sat(float3) (rtz)
kernel void conv_v(global char4 *oc4, global float4 *of4, global uint2 *ou2, global short3 *os3,
                   global const float4 *xf, global const int4 *xi, global const double2 *xd) {
  size_t i = get_global_id(0);
  oc4[i] = convert_char4_sat_rtn(xf[i]);
  of4[i] = convert_float4_rtz(xi[i]);
  ou2[i] = convert_uint2_sat_rtp(xd[i]);
  os3[i] = convert_short3_sat(xf[i].xyz);
}
