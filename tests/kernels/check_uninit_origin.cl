// cflags: -g
// also: O1
// Kernels for the uninitialized-value checker's accuracy (tests/unit/test_checks_uninit.c): a
// read-modify-write atomic on never-written memory, OpUndef inside a constant composite, the origin
// every report names (the variable and its declaration line, from the debug information), and
// struct padding, which is never a use (C99 6.2.6.1p6: padding bytes take unspecified values).
// Each comment says what `--check uninit` must report; the test names lines by their `@` markers
// (tests/unit/lib/marker.h). Built at -O0, -O1 and -O2.

// Reported (@atomic-inc): the counter is never initialised, every work-item's atomic_inc adds to
// its undefined value (a use: the result depends on it). Origin: `counter` (@counter-decl).
kernel void atomic_uninit(global int *out) {
  local int counter;  // @counter-decl
  atomic_inc(&counter);  // @atomic-inc
  out[get_global_id(0)] = 1;
}

// Reported (@cmpxchg): the compare of atomic_cmpxchg reads the never-written lock. Origin: `lock`.
kernel void cmpxchg_uninit(global int *out) {
  local int lock;  // @lock-decl
  atomic_cmpxchg(&lock, 0, 1);  // @cmpxchg
  out[get_global_id(0)] = 1;
}

// Correct: the counter is initialised before the barrier, then incremented.
kernel void atomic_init(global int *out) {
  local int counter;
  if (get_local_id(0) == 0) counter = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&counter);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[get_group_id(0)] = counter;
}

// Correct: atomic_xchg replaces the never-written value and its old value is not used.
kernel void xchg_uninit(global int *out) {
  local int slot;
  atomic_xchg(&slot, (int)get_local_id(0));
  out[get_global_id(0)] = 1;
}

// Reported (@vec-store): components z and w of `a` are never written; the whole vector is stored to
// the buffer. At -O0 `a` is a private variable; at -O1/-O2 clang stores the constant
// (1, 2, undef, undef), an OpConstantComposite with OpUndef constituents. Origin: `a` (@vec-decl).
kernel void vec_partial(global int4 *out) {
  int4 a;  // @vec-decl
  a.x = 1;
  a.y = 2;
  out[get_global_id(0)] = a;  // @vec-store
}

// Correct: only the written components of the partly undefined vector are used, by a dynamic index.
kernel void vec_partial_index(global int *out, int k) {
  int4 a;
  a.x = 1;
  a.y = 2;
  out[get_global_id(0)] = a[k & 1];
}

typedef struct {
  char c;
  int i; /* bytes 1..3 of the struct are padding */
} padded;

// Correct: a struct assigned whole to a buffer; its padding was never written. At -O0 an
// OpCopyMemorySized from the private variable, at -O1/-O2 stores of its members or of 8 bytes.
kernel void pad_assign(global padded *out, int v) {
  padded p;
  p.c = (char)v;
  p.i = v;
  out[get_global_id(0)] = p;
}

// Correct: struct assignment between private variables, then to the buffer.
kernel void pad_copy(global padded *out, int v) {
  padded p, q;
  p.c = (char)v;
  p.i = v;
  q = p;
  out[get_global_id(0)] = q;
}

// Correct: structs built member by member in a local buffer argument, copied whole to the buffer
// (at -O1/-O2 one 8-byte load and store).
kernel void pad_local(global padded *out, local padded *tmp, int v) {
  size_t l = get_local_id(0);
  tmp[l].c = (char)v;
  tmp[l].i = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[l];
}

// Correct: the same through a local array variable of structs.
kernel void pad_local_var(global padded *out, int v) {
  local padded t[16];
  size_t l = get_local_id(0);
  t[l].c = (char)v;
  t[l].i = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[15 - l];
}

// Reported (@member-store): member i of p (not padding) is a[k] with k = 1, never written: its 4
// bytes at offset 4 of each element are written to the buffer. Origin: `a` (@member-decl).
kernel void pad_member_unset(global padded *out, int v, int k) {
  int a[4];  // @member-decl
  volatile int *va = a;
  va[0] = v;
  padded p;
  p.c = (char)v;
  p.i = va[k];
  out[get_global_id(0)] = p;  // @member-store
}

// Reported (@ptr-store): a[1] is never written; it is read through the pointers p and vp, which
// have debug information of their own: the report names the array they point to. Origin: `a`.
kernel void ptr_to_array(global int *out, int k) {
  int a[4];  // @ptr-decl
  int *p = a;
  p[0] = k;
  volatile int *vp = p;
  out[get_global_id(0)] = vp[k];  // @ptr-store
}

// Correct: fabs acts component by component (OpenCL C 6.15.2), so only r.w, from the never-written
// v.w, is undefined, and it is never stored. (At -O1/-O2 clang fills v.w by a shuffle's undefined
// selector, which spvi reads as a defined 0.)
kernel void builtin_partial(global float *out) {
  int g = get_global_id(0);
  float4 v;
  v.x = g;
  v.y = g + 1;
  v.z = g + 2;
  float4 r = fabs(v);
  out[g * 3] = r.x;
  out[g * 3 + 1] = r.y;
  out[g * 3 + 2] = r.z;
}

// The same at every -O level: component w of v is a[k], never written when k = 3 (read through a
// volatile pointer, so clang keeps the load). Correct: the defined components of fmax's and fract's
// results are stored (fract's pointer operand is defined: it applies to every component).
kernel void builtin_partial_mem(global float *out, int k) {
  float a[4];
  volatile float *va = a;
  va[0] = 1.5f;
  va[1] = 2.5f;
  va[2] = 3.5f;
  float4 v = (float4)(va[0], va[1], va[2], va[k]);
  float4 r = fmax(v, (float4)(2.0f)), ip;
  float4 f = fract(v, &ip);
  int g = get_global_id(0);
  out[g * 3] = r.x + f.x;
  out[g * 3 + 1] = r.y + f.y;
  out[g * 3 + 2] = r.z + f.z;
}

// Reported (@builtin-w-store) when k = 3: r.w is fmax of the never-written a[3]. Origin: `a`
// (@builtin-w-decl).
kernel void builtin_partial_w(global float *out, int k) {
  float a[4];  // @builtin-w-decl
  volatile float *va = a;
  va[0] = 1.5f;
  va[1] = 2.5f;
  va[2] = 3.5f;
  float4 v = (float4)(va[0], va[1], va[2], va[k]);
  float4 r = fmax(v, (float4)(2.0f));
  out[get_global_id(0)] = r.w;  // @builtin-w-store
}
