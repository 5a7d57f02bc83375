// cflags: -gline-tables-only
// Kernels for the race checker's per-warp paths (tests/unit/test_checks_warp.c): atomics of a
// warp at scattered addresses, and earlier work-groups' pages kept as runs of consecutive
// work-items. Each comment says what must be reported. The test names source lines by their `@`
// markers (tests/unit/lib/marker.h).

// Scattered atomics (@scatter-inc) and one plain write (@scatter-write) of the same bin, in and
// between groups.
kernel void scatter_mixed(global int *hist) {
  size_t g = get_global_id(0);
  atomic_inc(&hist[(g * 5) % 16]);  // @scatter-inc
  if (g == 37) hist[3] = 0;  // @scatter-write
}

// Reads of the next two items' ints (@run-read), written after a global barrier (@run-write).
kernel void run_pages(global int *buf) {
  size_t g = get_global_id(0);
  int v = buf[g + 2];  // @run-read
  barrier(CLK_GLOBAL_MEM_FENCE);
  buf[g] = v;  // @run-write
}

// As run_pages with a second read of the item's own int (@full-read, written by @full-write):
// the readers are no run.
kernel void full_pages(global int *buf) {
  size_t g = get_global_id(0);
  int v = buf[g] + buf[g + 2];  // @full-read
  barrier(CLK_GLOBAL_MEM_FENCE);
  buf[g] = v;  // @full-write
}

// Vectors: each item reads the next item's int4 (@vec-read), then writes its own (@vec-write).
kernel void vec_pages(global int4 *buf) {
  size_t g = get_global_id(0);
  int4 v = buf[g + 1];  // @vec-read
  barrier(CLK_GLOBAL_MEM_FENCE);
  buf[g] = v;  // @vec-write
}
