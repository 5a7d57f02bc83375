// Prefix sums within a work-group.
// scan_hs: Hillis-Steele inclusive scan, double-buffered in a __local kernel argument of
//          2 * local_size ints.
kernel void scan_hs(global int *out, global const int *in, local int *buf) {
  size_t l = get_local_id(0);
  size_t n = get_local_size(0);
  size_t g = get_global_id(0);
  int src = 0;
  buf[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t off = 1; off < n; off <<= 1) {
    int dst = 1 - src;
    int v = buf[src * n + l];
    if (l >= off)
      v += buf[src * n + l - off];
    buf[dst * n + l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    src = dst;
  }
  out[g] = buf[src * n + l];
}
// scan_blelloch: work-efficient exclusive scan (up-sweep, clear, down-sweep) of 2*local_size
// elements per group in a __local array declared in the kernel; local size 32 (64 elements).
kernel void scan_blelloch(global uint *out, global const uint *in) {
  local uint t[64];
  const int n = 64;
  int l = (int)get_local_id(0);
  size_t base = get_group_id(0) * n;
  t[2 * l] = in[base + 2 * l];
  t[2 * l + 1] = in[base + 2 * l + 1];
  int off = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < d) {
      int ai = off * (2 * l + 1) - 1;
      int bi = off * (2 * l + 2) - 1;
      t[bi] += t[ai];
    }
    off *= 2;
  }
  if (l == 0)
    t[n - 1] = 0;
  for (int d = 1; d < n; d *= 2) {
    off >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < d) {
      int ai = off * (2 * l + 1) - 1;
      int bi = off * (2 * l + 2) - 1;
      uint x = t[ai];
      t[ai] = t[bi];
      t[bi] += x;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + 2 * l] = t[2 * l];
  out[base + 2 * l + 1] = t[2 * l + 1];
}
