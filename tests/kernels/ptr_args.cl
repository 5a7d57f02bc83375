// also: spir32
// cflags: -fno-discard-value-names
// Null pointer arguments (clSetKernelArg with a NULL buffer: OpenCL 3.0 5.9.2) and the integer
// values of pointers into distinct allocations.
kernel void null_test(global int *out, global const int *maybe, int dflt) {
  size_t g = get_global_id(0);
  out[g] = maybe ? maybe[g] : dflt + (int)g;
}
// Only the work-item whose sel is 1 dereferences `bad`.
kernel void null_deref(global int *out, global const int *sel, global int *bad) {
  size_t g = get_global_id(0);
  out[g] = 7;
  if (sel[g] == 1)
    bad[g] = 1;
}
// Differences of pointers into different buffers, truncated to 32 bits, as a kernel hashing or
// comparing addresses computes them; and the same for two private and two local arrays.
kernel void ptr_low_bits(global uint *out, global const int *a, global const int *b, local int *la,
                         local int *lb) {
  size_t g = get_global_id(0);
  int pa[4], pb[4];
  for (int k = 0; k < 4; ++k)
    pa[k] = pb[k] = a[k];
  volatile int *vpa = pa, *vpb = pb;
  out[g * 6 + 0] = (uint)(a - b);
  out[g * 6 + 1] = (uint)((ulong)a - (ulong)b);
  out[g * 6 + 2] = (uint)((ulong)la - (ulong)lb);
  out[g * 6 + 3] = (uint)((ulong)vpa - (ulong)vpb);
  // within one buffer the integer difference is the byte distance
  out[g * 6 + 4] = (uint)((ulong)(a + 3) - (ulong)a);
  // integer -> pointer round trip: read a[2] through an address computed as an integer
  global const int *r = (global const int *)((ulong)a + 2 * sizeof(int));
  out[g * 6 + 5] = (uint)*r;
}
// The null argument reaches the access through a call (not inlined at -O0).
void store_through(global int *p, size_t i) { p[i] = 1; }
kernel void null_deref_call(global const int *sel, global int *bad) {
  size_t g = get_global_id(0);
  if (sel[g] == 1)
    store_through(bad, g);
}
// A null pointer that comes from an integer, not from the null argument `unused`: the report must
// not name an argument.
kernel void null_from_int(global const ulong *addr, global int *unused) {
  size_t g = get_global_id(0);
  global int *q = (global int *)addr[g];
  if (addr[g] == 0)
    *q = 1;
  else if (unused)
    *unused = 2;
}
