// cflags: -g
// Indexes outside a fixed-size array that lies inside a larger object (C99 6.5.6p8; J.2 "an array
// subscript is out of range, even if an object is apparently accessible with the given subscript"):
// an array member of a struct, an inner dimension of a 2D array, a private array next to other
// variables. The bad index comes from a buffer so exactly the chosen work-items misbehave; the
// allocation's own bounds hold every such access, so only the array step can tell. `valid` uses
// the pointers C allows (one past the end, never dereferenced) and must give no report. The struct
// is indexed in its middle member: an index into the first member is, at -O2, an index from the
// start of the whole struct, which spvi does not judge (docs/checks.md). Lines are named by their
// `@` markers (tests/unit/lib/marker.h).
typedef struct rec {
  int a[4];
  int b[4];
  int c[4];
} rec;

kernel void struct_member(global int *out, global const int *idx, global const rec *s) {
  size_t g = get_global_id(0);
  out[g] = s->b[idx[g]]; // @struct-member
}

kernel void inner_dim(global int *out, global const int *idx) {
  local int tile[4][8];
  size_t l = get_local_id(0), g = get_global_id(0);
  for (int k = 0; k < 32; k += get_local_size(0))
    if (k + l < 32) tile[(k + l) / 8][(k + l) % 8] = (int)(k + l);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tile[1][idx[g]]; // @inner-dim
}

kernel void priv_array(global int *out, global const int *idx, global const int *in) {
  int arr[8];
  int after[8];
  size_t g = get_global_id(0);
  for (int k = 0; k < 8; ++k) {
    arr[k] = in[k] + (int)g;
    after[k] = in[k + 8];
  }
  out[g] = arr[idx[g]] + after[idx[g] & 7]; // @priv-array
}

kernel void valid(global int *out, global const rec *s, global const int *n) {
  size_t g = get_global_id(0);
  int acc = 0;
  for (const global int *p = s->a; p != &s->a[4]; ++p) { // the end pointer: one past a
    if (*p == n[2]) break;
    acc = acc * 3 + *p;
  }
  int m[3][4];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) m[i][j] = i * 4 + j + n[0];
  for (int i = 0; i < n[1]; ++i) acc += s->b[i] + m[i % 3][(i + (int)g) % 4];
  out[g] = acc;
}

// Correct: the index is tested before the access. An optimiser may compute &s->b[i] before the
// test (an out-of-range address computation is no access), so only an access reports.
kernel void guarded(global int *out, global const rec *s, global const int *idx) {
  size_t g = get_global_id(0);
  int i = idx[g];
  int v = -1;
  if (i >= 0 && i < 4)
    v = s->b[i];
  out[g] = v;
}

// --keep-going: two faulting sites in one run. Work-items 12..15 read past the end of `in` (16
// ints; the reads give zero), 14 and 15 write past the end of `out`.
kernel void kg_two(global int *out, global const int *in) {
  size_t g = get_global_id(0);
  int v = in[g + 4];  // @kg-read
  out[g + 2] = v + 1; // @kg-write
}

// --keep-going with an array index: g % 6 is 4 or 5 for work-items 4, 5, 10, 11, which read s->c.
kernel void kg_member(global int *out, global const rec *s) {
  size_t g = get_global_id(0);
  out[g] = s->b[g % 6] + 1; // @kg-member
}
