// Debugger test kernel (tests/debug/run.sh): work-item 0 spins on an atomic that the last
// work-item of its group sets (sub-groups make forward progress: the debugger lets the others run).
// The scripts name line numbers of this file: keep them stable.
kernel void spin(global atomic_int *flag, global int *out) {
  size_t lid = get_local_id(0);
  if (lid == 0) {
    while (atomic_load(flag) == 0)
      ;
    out[0] = atomic_load(flag);
  } else if (lid == get_local_size(0) - 1) {
    atomic_store(flag, 7);
  }
}
