// cflags: -gline-tables-only
// Kernels for the uninitialized-value checker (tests/unit/test_checks.c). Each comment says what
// `--check uninit` must report: a value computed from private or local memory that nothing wrote
// in this launch, when it decides a branch, forms an address, is written to a buffer or printed
// (spec-notes/checks.md). The test names source lines by their `@` markers
// (tests/unit/lib/marker.h).

// Reported (@half-store, written to a buffer): work-items 8..15 read local slots that only
// work-items 0..7 wrote.
kernel void local_half(global int *out, local int *tmp) {
  size_t lid = get_local_id(0);
  if (lid < 8) tmp[lid] = (int)lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[lid];  // @half-store
}

// Correct: every slot written before the barrier.
kernel void local_full(global int *out, local int *tmp) {
  size_t lid = get_local_id(0);
  tmp[lid] = (int)lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[(lid + 1) % get_local_size(0)];
}

// Reported (@branch, decides a branch): a private array written up to n, read at k >= n.
kernel void private_branch(global int *out, int n, int k) {
  int a[16];
  for (int i = 0; i < n; i++) a[i] = i;
  volatile int *va = a;
  if (va[k] > 3) out[get_global_id(0)] = 1;  // @branch
}

// Correct: the uninitialized slot is read but overwritten before any use.
kernel void read_then_overwrite(global int *out, int n) {
  int a[16];
  volatile int *va = a;
  int x = va[n];   // read of a never-written slot: not a use
  x = 5;
  va[n] = x;
  out[get_global_id(0)] = va[n];
}

// Correct: a struct copied as a whole with one member never written; only the written member is used.
typedef struct { int a; int b; } pair;
kernel void partial_struct(global int *out, int v) {
  pair p;
  p.a = v;
  volatile pair q;
  q = p;
  out[get_global_id(0)] = q.a;
}

// Reported (@index, forms an address): an index read from never-written local memory.
kernel void local_index(global int *out, local int *idx) {
  out[idx[0] & 15] = 1;  // @index
}

// Reported (@print, printed): printf of a never-written private slot.
kernel void print_uninit(int n) {
  int a[4];
  volatile int *va = a;
  printf("%d\n", va[n]);  // @print
}
