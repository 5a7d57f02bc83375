// Float comparisons with NaN: == < <= > >= are ordered (false when either side is NaN), != is
// unordered (true when either side is NaN). isnan/isordered/isunordered are the relational
// functions. Scalar relations give 1/0; vector relations give -1/0 per component.
// fcmp(out, a, b): out[i*10 + k] (int)
kernel void fcmp(global int *out, global const float *a, global const float *b) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  global int *o = out + i * 10;
  o[0] = x == y;
  o[1] = x != y;
  o[2] = x < y;
  o[3] = x <= y;
  o[4] = x > y;
  o[5] = x >= y;
  o[6] = !(x < y);           // unordered or greater-or-equal
  o[7] = isnan(x);
  o[8] = isordered(x, y);
  o[9] = isunordered(x, y);
}
// The same relations on float4: each component -1 or 0.
kernel void fcmp4(global int4 *out, global const float4 *a, global const float4 *b) {
  size_t i = get_global_id(0);
  float4 x = a[i], y = b[i];
  global int4 *o = out + i * 7;
  o[0] = x == y;
  o[1] = x != y;
  o[2] = x < y;
  o[3] = x >= y;
  o[4] = isnan(x);
  o[5] = isordered(x, y);
  o[6] = isunordered(x, y);
}
// A comparison feeding a branch and a ternary (NaN takes the else path).
kernel void fcmp_branch(global float *out, global const float *a, global const float *b) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  float r;
  if (x < y)
    r = y;
  else if (x > y)
    r = x;
  else
    r = -1.0f;   // equal or unordered
  out[i] = x >= y ? r : -r;
}
