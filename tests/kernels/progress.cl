// cl-std: CL2.0
// Forward progress between sub-groups (tests/unit/test_progress.c): work-items that spin on an
// atomic another sub-group of their work-group sets, which needs the scheduler to let the other
// sub-group run (cl_khr_subgroups: sub-groups make independent forward progress).

// The first half of the work-group waits, work-item by work-item, for a value the second half
// stores (item lid + n/2 hands lid + n/2 + 1 to item lid); no barrier: lane recycling runs such
// kernels on one warp, taking work-items from a queue, and every lane of that warp then waits for a
// work-item the queue has not started.
kernel void wait_pairs(global atomic_int *flag, global int *out) {
  const size_t g = get_group_id(0), n = get_local_size(0), lid = get_local_id(0), h = n / 2;
  global atomic_int *f = flag + g * h;
  if (lid < h) {
    int v;
    while ((v = atomic_load_explicit(&f[lid], memory_order_acquire, memory_scope_work_group)) == 0)
      ;
    out[g * n + lid] = v;
  } else {
    atomic_store_explicit(&f[lid - h], (int)(lid + 1), memory_order_release, memory_scope_work_group);
    out[g * n + lid] = -1;
  }
}

// A ticket chain through local memory: sub-group k waits for sub-group k + 1 to hand it the
// running count, so the last sub-group must run first; a barrier before and after (no recycling).
kernel void chain_down(global int *out) {
  local atomic_int slot[64];
  const uint sg = get_sub_group_id(), nsg = get_num_sub_groups();
  if (get_local_id(0) < 64) atomic_init(&slot[get_local_id(0)], 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  int got = 0;
  if (get_sub_group_local_id() == 0) {
    if (sg + 1 < nsg)
      while ((got = atomic_load_explicit(&slot[sg + 1], memory_order_acquire, memory_scope_work_group)) == 0)
        ;
    atomic_store_explicit(&slot[sg], got + (int)sg + 1, memory_order_release, memory_scope_work_group);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[get_group_id(0)] = atomic_load_explicit(&slot[0], memory_order_relaxed, memory_scope_work_group);
}

// The same with a sub-group operation in the kernel: each sub-group's total comes from
// sub_group_reduce_add, then the hand-over as above.
kernel void chain_reduce(global int *out) {
  local atomic_int slot[64];
  const uint sg = get_sub_group_id(), nsg = get_num_sub_groups();
  if (get_local_id(0) < 64) atomic_init(&slot[get_local_id(0)], 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int mine = sub_group_reduce_add((int)get_local_id(0));
  int got = 0;
  if (get_sub_group_local_id() == 0) {
    if (sg + 1 < nsg)
      while ((got = atomic_load_explicit(&slot[sg + 1], memory_order_acquire, memory_scope_work_group)) == 0)
        ;
    atomic_store_explicit(&slot[sg], got + mine + 1, memory_order_release, memory_scope_work_group);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[get_group_id(0)] = atomic_load_explicit(&slot[0], memory_order_relaxed, memory_scope_work_group);
}
