/* bench kernel bitonic: each work-group sorts its block of 2 x local size uint keys ascending with
 * a bitonic network in __local memory: for every merge size 2, 4, ..., n and stride size/2 ... 1,
 * each work-item compare-exchanges one pair, with a barrier between the stages. Integers: the
 * sorted blocks are checked exactly (against qsort). */
__kernel void bitonic(__global const uint *in, __global uint *out, __local uint *tmp) {
  size_t l = get_local_id(0), hn = get_local_size(0), n = 2 * hn, base = get_group_id(0) * n;
  tmp[l] = in[base + l];
  tmp[l + hn] = in[base + l + hn];
  for (size_t size = 2; size <= n; size <<= 1) {
    for (size_t stride = size >> 1; stride > 0; stride >>= 1) {
      barrier(CLK_LOCAL_MEM_FENCE);
      size_t pos = 2 * l - (l & (stride - 1)); /* the lower element of this item's pair */
      bool up = (pos & size) == 0;            /* the direction of this item's bitonic sequence */
      uint a = tmp[pos], b = tmp[pos + stride];
      if ((a > b) == up) {
        tmp[pos] = b;
        tmp[pos + stride] = a;
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + l] = tmp[l];
  out[base + l + hn] = tmp[l + hn];
}
