/* bench kernel reduce: local-memory tree reduction with barriers; one partial sum per work-group.
 * The pairing order is fixed (tmp[l] += tmp[l + s], s halving), so the sums are checked bit-exactly
 * against the same tree computed in C. */
__kernel void reduce(__global const float *in, __local float *tmp, __global float *partial) {
  size_t l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) partial[get_group_id(0)] = tmp[0];
}
