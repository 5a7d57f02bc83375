// Single-precision + - * / and negation, including infinities, NaN, signed zero and rounding.
// No a*b+c pattern anywhere (clang may contract it into `mad`).
// farith(out, a, b): out[i*6 + k], k = a+b, a-b, a*b, a/b, -a, (a+b)*(a-b)
kernel void farith(global float *out, global const float *a, global const float *b) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  global float *o = out + i * 6;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = -x;
  float s = x + y;
  float d = x - y;
  o[5] = s * d;
}
// Accumulation in a loop: rounding happens at every step, in order.
kernel void fsum_seq(global float *out, global const float *a, int n) {
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) {
    acc += a[k];
    acc /= 1.5f;
  }
  out[get_global_id(0)] = acc;
}
