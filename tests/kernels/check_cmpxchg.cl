// cflags: -gline-tables-only
// Compare-exchange under `--check races` (tests/unit/test_checks_cmpxchg.c). OpenCL C 6.15.12.7.4:
// "If the comparison is true, these operations are atomic read-modify-write operations ...
// Otherwise, these operations are atomic load operations." A failed compare-exchange is thus an
// atomic read: it conflicts with a plain write (OpenCL C 3.3.6: a data race is two conflicting
// accesses, at least one not atomic, that nothing orders) but not with a plain read.

// Correct: leader election. Every work-item tries to claim the word (all zero: the buffer starts
// zeroed); the first one's compare-exchange stores, every later one fails (a load). Only the
// winner reads the word plainly: its own write, and the losers' atomic reads, which do not conflict.
kernel void elect_global(global int *owner, global int *out) {
  int old = atomic_cmpxchg(owner, 0, (int)get_global_id(0) + 1);
  if (old == 0) out[0] = *owner;
}

// Correct: the same in local memory, per work-group, the word reset before a barrier.
kernel void elect_local(global int *out, local int *leader) {
  size_t lid = get_local_id(0);
  if (lid == 0) *leader = -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  int old = atomic_cmpxchg(leader, -1, (int)lid);
  if (old == -1) out[get_group_id(0)] = *leader;
}

// Correct: a lock word already taken (written before the barrier); every try-lock fails, so all
// accesses after the barrier are reads (atomic ones and plain ones).
kernel void trylock_taken(global int *out, local int *lock) {
  size_t lid = get_local_id(0);
  if (lid == 0) *lock = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  int was = atomic_cmpxchg(lock, 0, 1);
  out[get_global_id(0)] = was + *lock;
}

// Race (@plain-write against @fail-cas): work-item 0 writes the word plainly; every compare-exchange
// fails (the word holds 0 or 5, never 7), and each of these atomic loads conflicts with the
// unordered plain write.
kernel void cas_vs_write(global int *word) {
  if (get_global_id(0) == 0) *word = 5;  // @plain-write
  atomic_cmpxchg(word, 7, 9);  // @fail-cas
}
