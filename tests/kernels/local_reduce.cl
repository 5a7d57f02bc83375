// Work-group tree reduction in a __local array declared in the kernel, with barriers between
// steps; one result per work-group. Local size must be 64.
kernel void reduce_sum(global int *out, global const int *in) {
  local int scratch[64];
  size_t l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s)
      scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = scratch[0];
}
// Min and max at once (two local arrays), unsigned, with a stride-doubling loop.
kernel void reduce_minmax(global uint *out, global const uint *in) {
  local uint mn[64];
  local uint mx[64];
  size_t l = get_local_id(0);
  size_t n = get_local_size(0);
  uint v = in[get_global_id(0)];
  mn[l] = v;
  mx[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = 1; s < n; s <<= 1) {
    if ((l & (2 * s - 1)) == 0 && l + s < n) {
      uint a = mn[l + s], b = mx[l + s];
      if (a < mn[l])
        mn[l] = a;
      if (b > mx[l])
        mx[l] = b;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) {
    out[get_group_id(0) * 2] = mn[0];
    out[get_group_id(0) * 2 + 1] = mx[0];
  }
}
