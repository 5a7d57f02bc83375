// Atomic functions under contention: every work-item of the NDRange (several work-groups, so
// also several threads) hits the same few locations.
//   legacy32   atomic_* on 32-bit global ints/uints (OpenCL C 3.0 "OpenCL C 1.x Legacy Atomics")
//   legacy32_local the same on local memory, one set of counters per work-group
//   atom64     atom_* on 64-bit global longs/ulongs ("Legacy 64-Bit Atomic Extensions":
//              cl_khr_int64_base_atomics and cl_khr_int64_extended_atomics)
//   c11        C11-style atomics (OpenCL C 2.0, "Atomic Functions"): a lock-free counter built from
//              atomic_compare_exchange_weak, a 64-bit sum from atomic_compare_exchange_strong,
//              atomic_fetch_*_explicit, atomic_exchange, atomic_load/store, and an atomic_flag
//              election (exactly one work-item per group finds it clear)
//   histogram  a histogram without locks: local bins incremented with compare-exchange loops,
//              merged into the global bins with atomic_fetch_add
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

// c[0] inc (ret: old), c[1] += v, c[2] -= v, c[3] min, c[4] max, c[5] dec, c[6] xchg (ret2: old),
// c[7] cmpxchg ticket loop (ret3: the ticket), u[0] &=, u[1] |=, u[2] ^=, u[3] umin, u[4] umax
kernel void legacy32(global int *c, global uint *u, global int *ret, global int *ret2, global int *ret3,
                     global const int *in) {
  size_t g = get_global_id(0);
  int v = in[g];
  ret[g] = atomic_inc(&c[0]);
  atomic_add(&c[1], v);
  atomic_sub(&c[2], v);
  atomic_min(&c[3], v);
  atomic_max(&c[4], v);
  atomic_dec(&c[5]);
  ret2[g] = atomic_xchg(&c[6], v);
  int old;
  do old = c[7]; while (atomic_cmpxchg(&c[7], old, old + 1) != old);
  ret3[g] = old;
  atomic_and(&u[0], ~(1u << (g % 32)));
  atomic_or(&u[1], 1u << (g % 29));
  atomic_xor(&u[2], (uint)v);
  atomic_min(&u[3], (uint)v);
  atomic_max(&u[4], (uint)v);
}

// per group: l[0] += v, l[1] inc (ret: old), l[2] max, l[3] cmpxchg ticket; results to out[grp*4..]
kernel void legacy32_local(global int *out, global int *ret, global const int *in) {
  local int l[4];
  size_t g = get_global_id(0), lid = get_local_id(0), grp = get_group_id(0);
  if (lid == 0) { l[0] = 0; l[1] = 0; l[2] = -2147483647 - 1; l[3] = 0; }
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = in[g];
  atomic_add(&l[0], v);
  ret[g] = atomic_inc(&l[1]);
  atomic_max(&l[2], v);
  int old;
  do old = l[3]; while (atomic_cmpxchg(&l[3], old, old + 2) != old);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) for (int k = 0; k < 4; k++) out[grp * 4 + k] = l[k];
}

// c[0] inc (ret: old), c[1] += v, c[2] -= v, c[3] min, c[4] max, c[5] dec, c[6] xchg (ret2),
// c[7] cmpxchg loop adding v, u[0] &=, u[1] |=, u[2] ^=, u[3] umin, u[4] umax
kernel void atom64(global long *c, global ulong *u, global long *ret, global long *ret2, global const long *in) {
  size_t g = get_global_id(0);
  long v = in[g];
  ret[g] = atom_inc(&c[0]);
  atom_add(&c[1], v);
  atom_sub(&c[2], v);
  atom_min(&c[3], v);
  atom_max(&c[4], v);
  atom_dec(&c[5]);
  ret2[g] = atom_xchg(&c[6], v);
  long old;
  do old = c[7]; while (atom_cmpxchg(&c[7], old, old + v) != old);
  atom_and(&u[0], ~(1ul << (g % 64)));
  atom_or(&u[1], 1ul << (g % 61));
  atom_xor(&u[2], (ulong)v);
  atom_min(&u[3], (ulong)v);
  atom_max(&u[4], (ulong)v);
}

// cnt[0]: lock-free counter (weak CAS loop; ret: the value each work-item replaced), cnt[1]
// fetch_add, cnt[2] fetch_sub, cnt[3] fetch_min, cnt[4] fetch_max, cnt[5] exchange (ret2),
// ucnt[0] fetch_and, ucnt[1] fetch_or, ucnt[2] fetch_xor, lsum[0]: strong CAS loop adding the
// 64-bit input, lsum[1] 64-bit fetch_add, winners[grp]: work-items that found the group's flag clear
kernel void c11(global atomic_int *cnt, global atomic_uint *ucnt, global atomic_long *lsum, global int *ret,
                global int *ret2, global int *winners, global const int *in, global const long *lin) {
  local atomic_flag flag;
  size_t g = get_global_id(0), lid = get_local_id(0), grp = get_group_id(0);
  if (lid == 0) atomic_flag_clear_explicit(&flag, memory_order_relaxed, memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = in[g];
  int old = atomic_load_explicit(&cnt[0], memory_order_relaxed);
  while (!atomic_compare_exchange_weak_explicit(&cnt[0], &old, old + 1, memory_order_acq_rel, memory_order_relaxed)) {}
  ret[g] = old;
  atomic_fetch_add_explicit(&cnt[1], v, memory_order_relaxed, memory_scope_device);
  atomic_fetch_sub_explicit(&cnt[2], v, memory_order_relaxed);
  atomic_fetch_min(&cnt[3], v);
  atomic_fetch_max_explicit(&cnt[4], v, memory_order_seq_cst);
  ret2[g] = atomic_exchange(&cnt[5], v);
  atomic_fetch_and(&ucnt[0], ~(1u << (g % 32)));
  atomic_fetch_or_explicit(&ucnt[1], 1u << (g % 31), memory_order_release);
  atomic_fetch_xor(&ucnt[2], (uint)v);
  long lold = atomic_load(&lsum[0]);
  while (!atomic_compare_exchange_strong(&lsum[0], &lold, lold + lin[g])) {}
  atomic_fetch_add(&lsum[1], lin[g]);
  if (!atomic_flag_test_and_set_explicit(&flag, memory_order_acq_rel, memory_scope_work_group))
    atomic_inc(&winners[grp]);
  if (g == 0) atomic_store(&cnt[6], 12345);
}

// bins: nbins global counters; each group counts its values in local bins first
kernel void histogram(global atomic_uint *bins, global const uint *in, uint nbins, local atomic_uint *lbins) {
  size_t lid = get_local_id(0), ls = get_local_size(0);
  for (size_t b = lid; b < nbins; b += ls) atomic_init(&lbins[b], 0u);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint b = in[get_global_id(0)] % nbins;
  uint old = atomic_load_explicit(&lbins[b], memory_order_relaxed, memory_scope_work_group);
  while (!atomic_compare_exchange_strong_explicit(&lbins[b], &old, old + 1, memory_order_relaxed,
                                                  memory_order_relaxed, memory_scope_work_group)) {}
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t k = lid; k < nbins; k += ls) {
    uint n = atomic_load_explicit(&lbins[k], memory_order_relaxed, memory_scope_work_group);
    if (n) atomic_fetch_add_explicit(&bins[k], n, memory_order_relaxed);
  }
}
