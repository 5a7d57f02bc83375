/* bench kernel scan: work-efficient exclusive prefix sum (Blelloch: up-sweep reduction tree, then
 * down-sweep) of uint values, one block of 2 x local size elements per work-group in __local
 * memory; each item loads and stores two elements. `sums` receives each block's total (read before
 * the root is cleared). A full scan of the array would add the scanned block totals to every block
 * in a second launch: that cross-block pass is not included. Integers (modulo 2^32): exact. */
__kernel void scan(__global const uint *in, __global uint *out, __global uint *sums, __local uint *tmp) {
  size_t l = get_local_id(0), n = 2 * get_local_size(0), base = get_group_id(0) * n;
  tmp[2 * l] = in[base + 2 * l];
  tmp[2 * l + 1] = in[base + 2 * l + 1];
  size_t off = 1;
  for (size_t d = n >> 1; d > 0; d >>= 1) { /* up-sweep: partial sums at the right of each pair */
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < d) tmp[off * (2 * l + 2) - 1] += tmp[off * (2 * l + 1) - 1];
    off <<= 1;
  }
  if (l == 0) {
    sums[get_group_id(0)] = tmp[n - 1];
    tmp[n - 1] = 0;
  }
  for (size_t d = 1; d < n; d <<= 1) { /* down-sweep: push the prefixes back down the tree */
    off >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < d) {
      size_t ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1;
      uint t = tmp[ai];
      tmp[ai] = tmp[bi];
      tmp[bi] += t;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + 2 * l] = tmp[2 * l];
  out[base + 2 * l + 1] = tmp[2 * l + 1];
}
