// Sub-group built-ins, the cl_khr_subgroups collectives at Subgroup scope (reduce, scans,
// broadcast, all/any) and sub_group_barrier (OpenCL C 6.15.1, 6.15.8, 6.15.17), for
// tests/unit/test_subgroups.c. 1D launches: the local linear id is get_local_id(0).
#define NU 16
kernel void sg_uniform(global const int *in, global int *out, global float *fout, global long *lout) {
  local int tmp[256];
  size_t i = get_global_id(0);
  int v = in[i];
  uint lid = get_sub_group_local_id(), size = get_sub_group_size();
  global int *o = out + i * NU;
  o[0] = (int)size;
  o[1] = (int)get_max_sub_group_size();
  o[2] = (int)get_num_sub_groups();
  o[3] = (int)get_enqueued_num_sub_groups();
  o[4] = (int)get_sub_group_id();
  o[5] = (int)lid;
  o[6] = sub_group_reduce_add(v);
  o[7] = sub_group_scan_inclusive_add(v);
  o[8] = sub_group_scan_exclusive_add(v);
  o[9] = sub_group_reduce_min(v);
  o[10] = sub_group_reduce_max(v);
  o[11] = sub_group_scan_exclusive_min(v);
  o[12] = (int)sub_group_scan_inclusive_max((uint)v);
  o[13] = sub_group_broadcast(v, size - 1);
  o[14] = sub_group_all(v > -4) + 2 * sub_group_any(v > 15);
  /* exchange through local memory, ordered by the sub-group barrier alone */
  size_t base = get_local_id(0) - lid;
  tmp[get_local_id(0)] = v * 3;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  o[15] = tmp[base + (lid + 1) % size];
  fout[2 * i] = sub_group_reduce_add((float)v * 0.25f);
  fout[2 * i + 1] = sub_group_scan_inclusive_max((float)v * 0.5f);
  lout[i] = sub_group_scan_inclusive_add((long)v << 33);
}
