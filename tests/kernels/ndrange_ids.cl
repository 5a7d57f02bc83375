// also: spir32
// Every work-item records all its work-item functions. Launched in 1D, 2D and 3D with global
// offsets and non-uniform work-groups (global size not a multiple of the local size: OpenCL 2.0).
// Record layout (28 uints), at index = linear position of (global id - offset) in the NDRange:
//   [0] work_dim
//   [1 + d*8 + 0..7] for d = 0,1,2: global_id, local_id, group_id, local_size,
//                    enqueued_local_size, num_groups, global_offset, global_size
//   [25] global_linear_id  [26] local_linear_id  [27] 0xC0FFEE (written last)
kernel void ids(global uint *rec) {
  size_t lin = (get_global_id(0) - get_global_offset(0)) +
               get_global_size(0) * ((get_global_id(1) - get_global_offset(1)) +
                                     get_global_size(1) * (get_global_id(2) - get_global_offset(2)));
  global uint *r = rec + lin * 28;
  r[0] = get_work_dim();
  for (uint d = 0; d < 3; ++d) {
    global uint *q = r + 1 + d * 8;
    q[0] = (uint)get_global_id(d);
    q[1] = (uint)get_local_id(d);
    q[2] = (uint)get_group_id(d);
    q[3] = (uint)get_local_size(d);
    q[4] = (uint)get_enqueued_local_size(d);
    q[5] = (uint)get_num_groups(d);
    q[6] = (uint)get_global_offset(d);
    q[7] = (uint)get_global_size(d);
  }
  r[25] = (uint)get_global_linear_id();
  r[26] = (uint)get_local_linear_id();
  r[27] = 0xC0FFEEu;
}
// The same functions with constant dimension arguments (the usual shape: builtin variable load +
// extract) and an out-of-range dimension (must give the documented defaults: id 0, size 1).
kernel void ids_const(global uint *rec) {
  size_t lin = get_global_linear_id();
  global uint *r = rec + lin * 8;
  r[0] = (uint)get_global_id(0);
  r[1] = (uint)get_global_id(1);
  r[2] = (uint)get_local_id(0);
  r[3] = (uint)get_local_id(1);
  r[4] = (uint)get_group_id(1);
  r[5] = (uint)get_global_size(1);
  r[6] = (uint)get_local_size(2);   // 1 in a 2D range
  r[7] = (uint)get_global_id(2);    // 0 in a 2D range
}
