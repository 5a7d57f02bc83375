// Debugger test kernel (tests/debug/run.sh): work-items exchange values through local memory
// across a barrier. The scripts name line numbers of this file: keep them stable.
kernel void exchange(global int *data, local int *tmp) {
  size_t lid = get_local_id(0);
  size_t n = get_local_size(0);
  int v = data[get_global_id(0)];
  tmp[lid] = v * 10;
  barrier(CLK_LOCAL_MEM_FENCE);
  int w = tmp[n - 1 - lid];
  data[get_global_id(0)] = w + (int)lid;
}
