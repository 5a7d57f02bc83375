// Sub-groups from the command line: a sub-group sum over --subgroup-size work-items.
kernel void sgsum(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  out[i] = sub_group_reduce_add(in[i]) * 100 + (int)get_sub_group_local_id();
}
