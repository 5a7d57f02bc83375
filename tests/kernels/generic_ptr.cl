// also: spir32
// Generic address space (OpenCL 2.0): one helper taking generic pointers called with global,
// local and private pointers; to_global/to_local/to_private return NULL on mismatch; a generic
// pointer written through; generic pointer comparison.
__attribute__((noinline)) static int sum_generic(const int *p, int n) {
  int s = 0;
  for (int k = 0; k < n; ++k)
    s = s * 3 + p[k];          // a recurrence: not turned into a vector reduction at -O2
  return s;
}
__attribute__((noinline)) static void store_generic(int *p, int v) { *p = v; }

__attribute__((noinline)) static int where(int *p) {
  // bit 0: global, bit 1: local, bit 2: private
  return (to_global(p) != NULL) | (to_local(p) != NULL) << 1 | (to_private(p) != NULL) << 2;
}

kernel void generic_sum(global int *out, global const int *in) {
  local int loc[8];
  int priv[8];
  size_t g = get_global_id(0);
  size_t l = get_local_id(0);
  if (l == 0)
    for (int k = 0; k < 8; ++k)
      loc[k] = in[k] + 100;
  for (int k = 0; k < 8; ++k)
    priv[k] = in[g + k] - (int)g;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g * 3 + 0] = sum_generic(in + g, 8);
  out[g * 3 + 1] = sum_generic(loc, 8);
  out[g * 3 + 2] = sum_generic(priv, 8);
}

// The generic pointer to one of three objects: mode 0 the global one, 1 the local one, else the
// private one.
static int *pick(int mode, global int *gp, local int *lp, int *pp) {
  switch (mode) {
  case 0: return gp;
  case 1: return lp;
  default: return pp;
  }
}

// mode[g] picks the address space (0 global, 1 local, else private); it comes from a buffer
// because a switch on g % 3 is narrowed to an i2 switch at -O2, which llvm-spirv-14 rejects.
kernel void generic_cast(global int *out, global int *gbuf, global const int *mode) {
  local int loc[64];
  int priv = 5;
  size_t g = get_global_id(0);
  size_t l = get_local_id(0);
  int *p = pick(mode[g], &gbuf[g], &loc[l], &priv);
  store_generic(p, (int)g * 10);
  int back = *p;
  int w = where(p);
  // the typed pointer recovered from the generic one reads the same value
  int via = -1;
  global int *pg = to_global(p);
  local int *pl = to_local(p);
  private int *pp = to_private(p);
  if (pg) via = *pg;
  if (pl) via = *pl;
  if (pp) via = *pp;
  int *q = p + 1;
  out[g * 4 + 0] = w;
  out[g * 4 + 1] = back;
  out[g * 4 + 2] = via;
  out[g * 4 + 3] = (q > p) + 2 * (q - p) + 4 * (p == (int *)&gbuf[g]);
}

__attribute__((noinline)) static uint fence_of(const int *p) { return get_fence(p); }

// get_fence (OpenCL C 6.15.9) of generic pointers to global, local and private objects, chosen
// per work-item by mode[g] as in generic_cast (0 global, 1 local, else private), through a helper
// that sees only the generic pointer, and of the three directly in the kernel.
kernel void generic_fence(global uint *out, global int *gbuf, global const int *mode) {
  local int loc[64];
  int priv = 5;
  size_t g = get_global_id(0);
  size_t l = get_local_id(0);
  int *p = pick(mode[g], &gbuf[g], &loc[l], &priv);
  *p = (int)g;
  int *pg = &gbuf[g], *pl = &loc[l], *pp = &priv;
  out[g * 4 + 0] = fence_of(p);
  out[g * 4 + 1] = get_fence(pg);
  out[g * 4 + 2] = get_fence(pl);
  out[g * 4 + 3] = get_fence(pp) + (uint)(*p - (int)g);
}
