/* Kernels of the numpy round-trip tests (tests/cli/test_npy.sh). */
kernel void twice(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  out[i] = 2.0f * in[i];
}
kernel void bump3(global float3 *v) {
  size_t i = get_global_id(0);
  v[i] += (float3)(1.0f, 2.0f, 3.0f);
}
/* Images the kernels leave as they are: --out writes them as .npy and PNG. */
kernel void keep1d(read_only image1d_t a) {}
kernel void keep2d(read_only image2d_t a) {}
kernel void keep2da(read_only image2d_array_t a) {}
kernel void keep3d(read_only image3d_t a) {}
kernel void keep1da(read_only image1d_array_t a) {}
