/* bench kernel vadd_sin: c[i] = a[i] + sin(b[i]) over 1M items; exercises OpenCL.std sin.
 * Checked with a tolerance (transcendental): see bench/bench_ref.c. */
__kernel void vadd_sin(__global const float *a, __global const float *b, __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + sin(b[i]);
}
