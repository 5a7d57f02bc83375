/* Kernels of tests/cli/test_scale.sh: sharded runs merged with `spvi merge --combine` must give
 * the bytes of one run. */

/* A histogram and global summaries, all updated atomically by every work-group. */
kernel void hist(global const uint *in, global uint *bins, global int *lo, global int *hi, global uint *bits,
                 global uint *parity, global ulong *sum) {
  size_t i = get_global_id(0);
  uint v = in[i];
  atomic_inc(&bins[v % 16]);
  atomic_min(lo, (int)v - 50000);
  atomic_max(hi, (int)v - 50000);
  atomic_or(bits, 1u << (v % 32));
  atomic_xor(parity, v);
  atom_add(sum, (ulong)v << 24); /* wraps around 2^64 for the test's inputs */
}

/* Plain stores, one element per work-item. */
kernel void square(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * in[i];
}

/* Costs `n` iterations per work-item: long enough to show progress. */
kernel void spin(global uint *out, uint n) {
  uint x = (uint)get_global_id(0);
  for (uint k = 0; k < n; k++) x = x * 1664525u + 1013904223u;
  out[get_global_id(0)] = x;
}
