// Work-group collectives (OpenCL C 6.15.16): reductions, scans, broadcast, all/any per work-group.
kernel void wg(global const int *in, global int *sum, global int *incl, global int *excl, global int *mx, global float *fs, global int *bc, global int *all) {
  size_t i = get_global_id(0);
  int v = in[i];
  sum[i] = work_group_reduce_add(v);
  incl[i] = work_group_scan_inclusive_add(v);
  excl[i] = work_group_scan_exclusive_add(v);
  mx[i] = work_group_reduce_max(v);
  fs[i] = work_group_reduce_add((float)v * 0.5f);
  bc[i] = work_group_broadcast(v, 2);
  all[i] = work_group_all(v > 0) + 2 * work_group_any(v > 5);
}
