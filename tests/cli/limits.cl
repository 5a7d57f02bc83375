// The device limits at launch (issue #17): 40000 bytes of kernel-scope __local memory plus a
// __local argument, together within SPVI_LOCAL_MEM_SIZE (65536 bytes) or refused.
kernel void big_local(global int *out, local int *tmp) {
  local int big[10000]; /* 40000 bytes */
  size_t l = get_local_id(0);
  big[l] = 1;
  tmp[l] = 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = big[l] + tmp[l];
}
