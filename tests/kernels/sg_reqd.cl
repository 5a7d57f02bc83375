// A kernel declaring its sub-group size (intel_reqd_sub_group_size: OpExecutionMode SubgroupSize).
__attribute__((intel_reqd_sub_group_size(16)))
kernel void sg_reqd(global uint *out) {
  size_t i = get_global_id(0);
  out[i] = get_sub_group_size() * 1000 + get_sub_group_id() * 100 + sub_group_reduce_add(1u);
}
