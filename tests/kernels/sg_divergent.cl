// Sub-group functions that every work-item of the sub-group must reach, reached by only some:
// barrier divergence (OpenCL C 6.15.17: "must be encountered by all work-items in a sub-group").
kernel void sg_collective_divergent(global int *out) {
  size_t i = get_global_id(0);
  if (get_sub_group_local_id() < 3) out[i] = sub_group_reduce_add(1);
}

kernel void sg_barrier_divergent(global int *out) {
  size_t i = get_global_id(0);
  out[i] = 1;
  if (get_sub_group_local_id() != 5) sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
}

// A collective reached by every work-item of some sub-groups only: not divergence.
kernel void sg_some_subgroups(global int *out) {
  size_t i = get_global_id(0);
  if (get_sub_group_id() % 2 == 1) out[i] = sub_group_reduce_add((int)get_sub_group_local_id());
}
