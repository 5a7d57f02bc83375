// Kernels of tests/unit/test_mem.c: memory objects, SVM pointers and kernel information.
// cflags: -cl-kernel-arg-info
// llvm-spirv: --preserve-ocl-kernel-arg-type-metadata-through-string
// also: spir32

/* a[i] = 2 * a[i] + k */
kernel void scale_add(global int *a, int k) {
  size_t i = get_global_id(0);
  a[i] = 2 * a[i] + k;
}

/* a[i] = i + 100 */
kernel void fill_idx(global int *a) { a[get_global_id(0)] = (int)get_global_id(0) + 100; }

/* a and b may be one memory object, or views of one buffer: the pointers are then into one object
 * (out[0] = a == b, out[1] = b - a in ints), and a[g] = b[g + 1] + 1 reads what another work-item
 * writes when b - a is in [-1, G - 2]: a race (no barrier orders them). */
kernel void same_object(global int *a, global int *b, global long *out) {
  size_t g = get_global_id(0);
  if (g == 0) {
    out[0] = a == b;
    out[1] = b - a;
  }
  a[g] = b[g + 1] + 1;
}

/* The same with b const: at -O2 a NoWrite parameter, whose buffer the race checker leaves untracked
 * when no writable argument shares it (interp/ex_race.c racy) */
kernel void same_object_const(global int *a, global const int *b, global long *out) {
  size_t g = get_global_id(0);
  if (g == 0) {
    out[0] = a == b;
    out[1] = b - a;
  }
  a[g] = b[g + 1] + 1;
}

/* a[idx] = 7 (one work-item) */
kernel void poke(global int *a, int idx) { a[idx] = 7; }

/* out[0]: *p when deref, else 1 for a null p and 2 otherwise */
kernel void maybe_null(global int *p, global int *out, int deref) {
  if (deref) out[0] = *p;
  else out[0] = p == 0 ? 1 : 2;
}

/* pixel (x, y) = (x, y, x + y, 1) */
kernel void img_write(write_only image2d_t im) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagef(im, (int2)(x, y), (float4)(x, y, x + y, 1.0f));
}

/* out[y * w + x] = pixel (x, y) * 2 */
kernel void img_read(read_only image2d_t im, global float4 *out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_image_width(im) + x] = read_imagef(im, (int2)(x, y)) * 2.0f;
}

/* out[i] = pixel i + (1, 2, 3, 4) */
kernel void img1d_read(read_only image1d_buffer_t im, global uint4 *out) {
  int i = get_global_id(0);
  out[i] = read_imageui(im, i) + (uint4)(1, 2, 3, 4);
}

typedef struct node { int value; global struct node *next; } node;

/* out[0] = the sum of the list's values, out[1] its length (one work-item) */
kernel void list_sum(global node *head, global int *out) {
  int sum = 0, n = 0;
  for (global node *p = head; p; p = p->next) { sum += p->value; n++; }
  out[0] = sum;
  out[1] = n;
}

/* nodes[i] = {i * i, i + 1 < n ? &nodes[i + 1] : 0} */
kernel void list_build(global node *nodes, int n) {
  int i = get_global_id(0);
  nodes[i].value = i * i;
  nodes[i].next = i + 1 < n ? &nodes[i + 1] : 0;
}

kernel void count(global int *c) { atomic_inc(c); atomic_add(c + 1, (int)get_global_id(0)); }

/* dst[4i..4i+3] = 2 * src[4i..4i+3] */
kernel void vcopy(global const float *src, global float *dst) {
  size_t i = get_global_id(0);
  vstore4(vload4(i, src) * 2.0f, i, dst);
}

/* dst[i] = src[i] + 1, through local memory with async copies */
kernel void async_inc(global const int *src, global int *dst, local int *tmp) {
  size_t g = get_group_id(0) * get_local_size(0), l = get_local_id(0), n = get_local_size(0);
  event_t e = async_work_group_copy(tmp, src + g, n, 0);
  wait_group_events(1, &e);
  tmp[l] += 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy(dst + g, tmp, n, 0);
  wait_group_events(1, &e);
}

kernel void print_str(global const char *s) { printf("<%s>\n", s); }

/* out = {b - a, a < b, the address of a, to_global(generic a) == a} */
kernel void ptr_math(global int *a, global int *b, global long *out) {
  out[0] = b - a;
  out[1] = a < b;
  out[2] = (long)a;
  generic int *g = a;
  out[3] = to_global(g) == a && to_local(g) == 0;
}

typedef float4 mytype_t;
/* kernel information: a hint, kernel-scope local memory (16 ints), qualifiers */
kernel void __attribute__((work_group_size_hint(8, 4, 1)))
info_a(global mytype_t *a, volatile global int *restrict b, const global uint *c, int n, local float *lf) {
  local int tmp[16];
  tmp[get_local_id(0)] = n;
  barrier(CLK_LOCAL_MEM_FENCE);
  b[0] = tmp[0] + (int)c[0];
  a[0] = (float4)(lf[0]);
}

kernel void info_b(global uint *x) {
  local double d[4];
  d[get_local_id(0)] = 1.0;
  barrier(CLK_LOCAL_MEM_FENCE);
  x[0] = (uint)d[0];
}
