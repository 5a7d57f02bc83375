// Lane recycling (interp/ex_exec.c, spec-notes/executor.md): kernels whose work-items never wait
// for each other and whose loops run a different number of times in every work-item, so that
// lanes finish at different times and take new work-items. For tests/unit/test_recycle.c, which
// checks them against plain C models at several warp widths.

// Collatz steps of in[i] in 64-bit arithmetic, and every id the work-item sees (2D NDRange).
kernel void ids_loop(global const uint *in, global uint *steps, global uint *ids) {
  size_t g0 = get_global_id(0), g1 = get_global_id(1);
  size_t i = g1 * get_global_size(0) + g0;
  ulong v = in[i];
  uint n = 0;
  while (v > 1) {
    v = (v & 1) ? 3 * v + 1 : v >> 1;
    n++;
  }
  steps[i] = n;
  global uint *d = ids + 9 * i;
  d[0] = (uint)g0;
  d[1] = (uint)g1;
  d[2] = (uint)get_local_id(0);
  d[3] = (uint)get_local_id(1);
  d[4] = (uint)get_group_id(0);
  d[5] = (uint)get_group_id(1);
  d[6] = (uint)get_local_linear_id();
  d[7] = (uint)get_local_size(0) * 100 + (uint)get_local_size(1);
  d[8] = (uint)get_global_linear_id();
}

// A private array filled and read back with data-dependent lengths: each work-item's private memory
// must stay its own while lanes change work-items.
kernel void priv_loop(global const uint *in, global uint *out) {
  size_t i = get_global_id(0);
  uint a[16];
  uint x = in[i], n = x % 16 + 1;
  for (uint k = 0; k < n; k++) a[k] = (x * (k + 1)) ^ k;
  uint s = 0;
  for (uint k = n; k-- > 0;) s = s * 31 + a[k];
  out[i] = s;
}

// A by-value struct argument (copied into every work-item's private memory) and a loop.
typedef struct params { uint mul, add, limit; } params;
kernel void byval_loop(params p, global const uint *in, global uint *out) {
  size_t i = get_global_id(0);
  uint v = in[i], n = 0;
  while (v < p.limit) {
    v = v * p.mul + p.add;
    n++;
  }
  out[i] = n * 1000 + v % 1000;
}

// printf after a loop of item-dependent length.
kernel void printf_loop(global const uint *in) {
  size_t i = get_global_id(0);
  uint v = in[i], n = 0;
  while (v > 1) {
    v = (v & 1) ? 3 * v + 1 : v >> 1;
    n++;
  }
  printf("%u:%u\n", (uint)i, n);
}

// in[i] iterations: one long-running work-item among short ones (the step limit names it).
kernel void long_loop(global const uint *in, global uint *out) {
  size_t i = get_global_id(0);
  uint acc = 0;
  for (uint k = 0; k < in[i]; k++) acc = acc * 3 + k;
  out[i] = acc;
}

// Sub-group built-ins (no sub-group operation, so lanes are recycled) after a loop.
kernel void sg_ids_loop(global const uint *in, global uint *out) {
  size_t i = get_global_id(0);
  uint v = in[i], n = 0;
  while (v > 1) {
    v = (v & 1) ? 3 * v + 1 : v >> 1;
    n++;
  }
  global uint *d = out + 5 * i;
  d[0] = n;
  d[1] = get_sub_group_id();
  d[2] = get_sub_group_local_id();
  d[3] = get_sub_group_size();
  d[4] = get_num_sub_groups();
}
