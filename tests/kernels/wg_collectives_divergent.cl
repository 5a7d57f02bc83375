// A work-group collective reached by only half of the work-group: barrier divergence.
// spirv: skip-O2 the optimiser may move the collective out of the branch
kernel void half_reduce(global int *out) {
  size_t i = get_local_id(0);
  if (i < 32) out[i] = work_group_reduce_add((int)i);
}
