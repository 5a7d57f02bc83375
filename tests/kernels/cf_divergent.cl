// Divergence inside a work-group followed by reconvergence at a barrier: each work-item runs a
// data-dependent amount of work on a private value, then publishes it in local memory; after the
// barrier each work-item reads its neighbours' values (which were written on other paths).
kernel void diverge_reconverge(global int *out, global const int *in) {
  local int shared[64];
  size_t lid = get_local_id(0);
  size_t gid = get_global_id(0);
  size_t n = get_local_size(0);
  int x = in[gid];
  int v;
  if ((lid & 1) == 0) {
    v = 0;
    for (int k = 0; k < x % 17; ++k)
      v = (v << 1) ^ k;      // no closed form: the loop stays a loop at -O2
  } else if (x > 1000) {
    v = x;
    while (v > 100)
      v /= 3;
  } else {
    v = -x;
  }
  shared[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  int left = shared[(lid + n - 1) % n];
  int right = shared[(lid + 1) % n];
  out[gid] = left - right + v;
}
