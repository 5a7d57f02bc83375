// cflags: -gline-tables-only
// Kernels for the race checker's sub-group barriers (tests/unit/test_checks_sync.c):
// sub_group_barrier (OpenCL C 6.15.8, "Built-in Sub-Group Synchronization Functions") orders the
// accesses of its own sub-group's work-items, to the memory of its fence. The test names source
// lines by their `@` markers (tests/unit/lib/marker.h) and runs the kernels with sub-groups of 8
// and work-groups of 16.

// Correct: each sub-group exchanges values through local memory; sub_group_barrier with the local
// fence orders its own work-items' write and read, and the later overwrite after the read.
kernel void sg_ok(global int *out, local int *tmp) {
  uint l = get_local_id(0), sl = get_sub_group_local_id(), sz = get_sub_group_size();
  tmp[l] = (int)l;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[l - sl + (sl + 1) % sz];
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  tmp[l] = 2;
}

// Race inside a sub-group (@missing-write, @missing-read): the same exchange without the barrier.
// Work-item l writes tmp[l]; tmp[l] is read by the work-item of its sub-group whose
// (sub-group local id + 1) % 8 is l % 8.
kernel void sg_missing(global int *out, local int *tmp) {
  uint l = get_local_id(0), sl = get_sub_group_local_id(), sz = get_sub_group_size();
  tmp[l] = (int)l;  // @missing-write
  out[get_global_id(0)] = tmp[l - sl + (sl + 1) % sz];  // @missing-read
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  tmp[l] = 5;  /* a later segment, ordered: the race above is still the one reported */
}

// Race between sub-groups (@cross-write, @cross-read): the sub-group barrier does not order
// work-item l's read of tmp[(l + 8) % 16], written by a work-item of the other sub-group.
kernel void sg_cross(global int *out, local int *tmp) {
  uint l = get_local_id(0), n = get_local_size(0);
  tmp[l] = (int)l;  // @cross-write
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[(l + 8) % n];  // @cross-read
}

// Race (@fence-write, @fence-read): the exchange goes through global memory, which a
// sub-group barrier with only the local fence does not order.
kernel void sg_wrong_fence(global int *buf, global int *out) {
  size_t g = get_global_id(0);
  uint sl = get_sub_group_local_id(), sz = get_sub_group_size();
  buf[g] = (int)g;  // @fence-write
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = buf[g - sl + (sl + 1) % sz];  // @fence-read
}

// Correct: the same with the global fence.
kernel void sg_global_ok(global int *buf, global int *out) {
  size_t g = get_global_id(0);
  uint sl = get_sub_group_local_id(), sz = get_sub_group_size();
  buf[g] = (int)g;
  sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
  out[g] = buf[g - sl + (sl + 1) % sz];
}

// Scattered atomics in sub-group mode (the race checker's per-lane path for atomics): work-item l
// increments the int (3 sl) % 8 of its sub-group's 8 ints (@bins-inc, atomic), then reads its own
// int (@bins-read) with no barrier between: a race inside the sub-group with the work-item whose
// increment hit that int, except where that is itself (sl 0 and 4).
kernel void sg_atomic_bins(global int *out, local int *bins) {
  uint l = get_local_id(0), sl = get_sub_group_local_id(), sz = get_sub_group_size();
  atomic_inc(&bins[l - sl + (sl * 3) % sz]);  // @bins-inc
  out[get_global_id(0)] = bins[l];  // @bins-read
}

// Correct: the same with a sub_group_barrier (local fence) between the increments and the reads.
kernel void sg_atomic_bins_ok(global int *out, local int *bins) {
  uint l = get_local_id(0), sl = get_sub_group_local_id(), sz = get_sub_group_size();
  atomic_inc(&bins[l - sl + (sl * 3) % sz]);
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = bins[l];
}
