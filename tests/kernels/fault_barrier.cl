// A barrier reached by only some work-items of a group (here local ids 0 and 1): barrier
// divergence, which spvi reports as a fault.
kernel void barrier_divergent(global int *out) {
  local int tmp[16];
  size_t l = get_local_id(0);
  tmp[l] = (int)l;
  if (get_local_id(0) < 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[(l + 1) % 16];
  }
}
// Control: a barrier inside a branch that every work-item of the group takes the same way is
// fine (the condition depends on the group id only).
kernel void barrier_uniform_branch(global int *out) {
  local int tmp[16];
  size_t l = get_local_id(0);
  tmp[l] = (int)get_global_id(0);
  if (get_group_id(0) % 2 == 0) {
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[(l + 1) % get_local_size(0)];
  } else {
    out[get_global_id(0)] = -1;
  }
}
