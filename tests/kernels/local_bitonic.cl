// Bitonic sort of 2 * local_size uints per work-group in local memory (each work-item handles one
// compare-exchange per step). Local size 32 -> 64 elements per group, ascending.
kernel void bitonic(global uint *data) {
  local uint v[64];
  const uint n = 64;
  uint l = (uint)get_local_id(0);
  size_t base = get_group_id(0) * n;
  v[l] = data[base + l];
  v[l + n / 2] = data[base + l + n / 2];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint size = 2; size <= n; size <<= 1) {
    for (uint stride = size >> 1; stride > 0; stride >>= 1) {
      // pair (a, b) with b = a + stride, a having bit `stride` clear
      uint a = 2 * l - (l & (stride - 1));
      uint b = a + stride;
      bool up = (a & size) == 0;
      uint x = v[a], y = v[b];
      if ((x > y) == up) {
        v[a] = y;
        v[b] = x;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  data[base + l] = v[l];
  data[base + l + n / 2] = v[l + n / 2];
}
