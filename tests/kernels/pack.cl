// Work-groups smaller than a warp (tests/unit/test_pack.c). Kernels whose work-items never wait
// for each other and use no local memory run packed: the work-items of several consecutive groups
// share a warp (interp/ex_sched.c, "Packed work-groups"); the others run group by group. Each
// kernel records what the spec defines for a work-item, so the test compares with values derived
// from the NDRange alone (OpenCL C 3.0 6.15.1).

// Packed: ids and sizes of every work-item.
kernel void pack_ids(global uint *out) {
  size_t g = get_global_linear_id();
  global uint *o = out + g * 8;
  o[0] = (uint)get_group_id(0) + 1000u * (uint)get_group_id(1) + 100000u * (uint)get_group_id(2);
  o[1] = (uint)get_local_id(0) + 1000u * (uint)get_local_id(1) + 100000u * (uint)get_local_id(2);
  o[2] = (uint)get_local_size(0) + 1000u * (uint)get_local_size(1) + 100000u * (uint)get_local_size(2);
  o[3] = (uint)get_local_linear_id();
  o[4] = (uint)get_num_groups(0) + 1000u * (uint)get_num_groups(1) + 100000u * (uint)get_num_groups(2);
  o[5] = (uint)get_enqueued_local_size(0) + 1000u * (uint)get_enqueued_local_size(1);
  o[6] = (uint)g;
  o[7] = (uint)get_global_id(0) + 1000u * (uint)get_global_id(1) + 100000u * (uint)get_global_id(2);
}

// Packed: the division report names the work-item whose divisor is 0 (its group and local id).
kernel void pack_div(global int *out, global const int *d) {
  size_t g = get_global_id(0);
  out[g] = 1000 / d[g];
}

// Packed: an out-of-bounds write by one work-item; the fault names its group and local id.
kernel void pack_oob(global int *out, global const int *idx) {
  size_t g = get_global_id(0);
  out[idx[g]] = (int)get_group_id(0);
}

// Not packed (a barrier and local memory): each work-item reads its mirror's slot in the group.
kernel void small_local(global int *out, local int *tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = (int)get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[n - 1 - l] + 1000 * (int)get_group_id(0);
}
