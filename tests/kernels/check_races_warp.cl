// cflags: -gline-tables-only
// Kernels for the race checker's per-warp paths (tests/unit/test_checks_warp.c): atomics of a
// warp at scattered addresses, and earlier work-groups' pages kept as runs of consecutive
// work-items. Each comment says what must be reported. Lines are referenced by the test.

// Scattered atomics (line 9) and one plain write (line 10) of the same bin, in and between groups.
kernel void scatter_mixed(global int *hist) {
  size_t g = get_global_id(0);
  atomic_inc(&hist[(g * 5) % 16]);
  if (g == 37) hist[3] = 0;
}

// Reads of the next two items' ints (line 16), written after a global barrier (line 18).
kernel void run_pages(global int *buf) {
  size_t g = get_global_id(0);
  int v = buf[g + 2];
  barrier(CLK_GLOBAL_MEM_FENCE);
  buf[g] = v;
}

// As run_pages with a second read of the item's own int (line 25, written on line 27): the
// readers are no run.
kernel void full_pages(global int *buf) {
  size_t g = get_global_id(0);
  int v = buf[g] + buf[g + 2];
  barrier(CLK_GLOBAL_MEM_FENCE);
  buf[g] = v;
}

// Vectors: each item reads the next item's int4 (line 33), then writes its own (line 35).
kernel void vec_pages(global int4 *buf) {
  size_t g = get_global_id(0);
  int4 v = buf[g + 1];
  barrier(CLK_GLOBAL_MEM_FENCE);
  buf[g] = v;
}
