/* A module with several kernels for the `spvi` command tests (tests/cli/test_cli.sh): -k,
 * by-value arguments, vectors with 3 components, __local memory and a fault. */
kernel void scale(global int *d, int k) {
  size_t i = get_global_id(0);
  d[i] *= k;
}

kernel void twice3(global float3 *v) {
  size_t i = get_global_id(0);
  v[i] = v[i] * 2.0f;
}

kernel void rotate(global int *out, local int *tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[(l + 1) % n];
}

kernel void oob(global int *d) {
  d[get_global_id(0) + 1] = 1;
}

kernel void ids(global uint *out) {
  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] =
      (uint)(get_global_id(0) * 100 + get_global_id(1));
}
