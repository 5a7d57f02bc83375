/* Kernels of the numpy round-trip tests (tests/cli/test_npy.sh). */
kernel void twice(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  out[i] = 2.0f * in[i];
}
kernel void bump3(global float3 *v) {
  size_t i = get_global_id(0);
  v[i] += (float3)(1.0f, 2.0f, 3.0f);
}
