// cflags: -gline-tables-only
// Kernels for the data-race checker (tests/unit/test_checks.c). Each comment says what
// `--check races` must report and why (OpenCL C 6.15.8: a barrier orders the accesses of the
// work-items of one work-group to the memory of its fence; 3.3.6: nothing but atomics orders
// work-groups with each other). The test names source lines by their `@` markers
// (tests/unit/lib/marker.h).

// Correct: tree reduction in local memory, a barrier between the steps.
kernel void reduce_ok(global const int *in, global int *out, local int *tmp) {
  size_t lid = get_local_id(0), n = get_local_size(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = n / 2; s > 0; s /= 2) {
    if (lid < s) tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = tmp[0];
}

// Race (@reduce-rw): the barrier between the steps is missing: work-item lid+s reads tmp[lid+s]
// that another work-item writes in the same interval, and the reverse.
kernel void reduce_race(global const int *in, global int *out, local int *tmp) {
  size_t lid = get_local_id(0), n = get_local_size(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = n / 2; s > 0; s /= 2) {
    if (lid < s) tmp[lid] += tmp[lid + s];  // @reduce-rw
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) out[get_group_id(0)] = tmp[0];
}

// Race (@ww): every work-item writes out[0] (write-write, within and between work-groups).
kernel void global_ww(global int *out) {
  out[0] = (int)get_global_id(0);  // @ww
}

// Correct: atomics on one counter from every work-item of every group.
kernel void atomic_ok(global int *count) {
  atomic_inc(count);
}

// Race (@mixed-inc against @mixed-read): atomic increments, and a plain read by work-item 0.
kernel void atomic_mixed(global int *count, global int *out) {
  atomic_inc(count);  // @mixed-inc
  if (get_global_id(0) == 0) out[0] = *count;  // @mixed-read
}

// Correct: disjoint writes of single bytes.
kernel void disjoint_chars(global char *out) {
  out[get_global_id(0)] = (char)get_global_id(0);
}

// Race between work-groups (@neighbour-write against @neighbour-read): work-item g reads
// buf[g + n], which the next work-group writes; the barrier orders only the work-items of one
// group.
kernel void neighbour(global int *buf) {
  size_t g = get_global_id(0);
  int v = buf[g + get_local_size(0)];  // @neighbour-read
  barrier(CLK_GLOBAL_MEM_FENCE);
  buf[g] = v + 1;  // @neighbour-write
}

// Same value written by every work-item (@same-value): a race by OpenCL's definition even though
// the bytes end up the same; spvi reports it (spec-notes/checks.md).
kernel void same_value(global int *out, local int *flag) {
  *flag = 1;  // @same-value
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = *flag;
}

// Correct: the local barrier orders the write and the reads of the neighbour's slot.
kernel void local_shift_ok(global int *out, local int *tmp) {
  size_t lid = get_local_id(0), n = get_local_size(0);
  tmp[lid] = (int)lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[(lid + 1) % n];
}

// Shadow slots of words split into bytes (spec-notes/checks.md): every work-item writes its int
// (@wb-write) and, in the same interval, reads byte 3 of the next work-item's int in its group
// (@wb-read, the last reads the first's): a race on byte 3 of every int, none on bytes 0..2.
kernel void word_byte(global int *buf, global char *out) {
  size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
  buf[g] = (int)g;  // @wb-write
  out[g] = ((global volatile char *)buf)[4 * (g - l + (l + 1) % n) + 3];  // @wb-read
}

// Between groups, words then bytes: group 0 writes ints (@wtb-write), group 1 reads byte 1 of each
// (@wtb-read).
kernel void word_then_byte(global int *buf, global char *out) {
  size_t l = get_local_id(0);
  if (get_group_id(0) == 0) buf[l] = (int)l;  // @wtb-write
  else out[l] = ((global volatile char *)buf)[4 * l + 1];  // @wtb-read
}

// Between groups, bytes then words: group 0 writes byte 2 of each int (@btw-write), group 1 reads
// the ints (@btw-read).
kernel void byte_then_word(global int *buf, global char *out) {
  size_t l = get_local_id(0);
  if (get_group_id(0) == 0) ((global char *)buf)[4 * l + 2] = (char)l;  // @btw-write
  else out[l] = (char)((global volatile int *)buf)[l];  // @btw-read
}

// Work-groups of two work-items without synchronisation, which run packed (several groups on one
// warp) when nothing checks them (interp/ex_sched.c). Race (@small-race, write-write) only in group
// 3: its work-items 6 and 7 both write out[6]; every other work-item writes its own out[g].
kernel void small_groups(global int *out) {
  size_t g = get_global_id(0);
  out[get_group_id(0) == 3 ? 6 : g] = (int)g;  // @small-race
}
