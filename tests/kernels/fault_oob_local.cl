// Out-of-bounds accesses to local memory: a __local array declared in the kernel (not a kernel
// parameter: arg_index -1) and a __local kernel argument (arg_index 2). Only one work-item gets a
// bad index (from the buffer).
kernel void oob_local_array(global int *out, global const int *idx) {
  local int tmp[64];
  size_t l = get_local_id(0);
  size_t g = get_global_id(0);
  tmp[l] = (int)g;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tmp[idx[g]];
}
kernel void oob_local_arg(global int *out, global const int *idx, local int *buf) {
  size_t l = get_local_id(0);
  size_t g = get_global_id(0);
  buf[idx[g]] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = buf[l];
}
