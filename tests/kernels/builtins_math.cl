// Math builtins with exactly defined results: fma (single rounding), sqrt (correctly rounded in
// spvi), fabs, fmin/fmax (a NaN operand yields the other operand), floor, ceil; float, double and
// float4.
// fmath(out, a, b, c): out[i*8 + k]
kernel void fmath(global float *out, global const float *a, global const float *b, global const float *c) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i], z = c[i];
  global float *o = out + i * 8;
  o[0] = fma(x, y, z);
  o[1] = sqrt(fabs(x));
  o[2] = fabs(y);
  o[3] = fmin(x, y);
  o[4] = fmax(x, y);
  o[5] = floor(x);
  o[6] = ceil(y);
  o[7] = clamp(z, -1.0f, 1.0f);
}
kernel void dmath(global double *out, global const double *a, global const double *b, global const double *c) {
  size_t i = get_global_id(0);
  double x = a[i], y = b[i], z = c[i];
  global double *o = out + i * 7;
  o[0] = fma(x, y, z);
  o[1] = sqrt(fabs(x));
  o[2] = fmin(x, y);
  o[3] = fmax(x, y);
  o[4] = floor(x);
  o[5] = ceil(y);
  o[6] = clamp(z, -2.0, 0.5);
}
kernel void fmath4(global float4 *out, global const float4 *a, global const float4 *b, global const float4 *c) {
  size_t i = get_global_id(0);
  float4 x = a[i], y = b[i], z = c[i];
  out[i * 4 + 0] = fma(x, y, z);
  out[i * 4 + 1] = sqrt(fabs(y));
  out[i * 4 + 2] = fmax(fmin(x, y), z);
  out[i * 4 + 3] = floor(z) + ceil(x);
}
