// also: spir32
// Structs in global buffers with padding and alignment: vector members (float4: align 16, int3:
// size 16, align 16), nested structs, array members, and a packed struct (no padding).
typedef struct {
  short a;       // 0
  char b;        // 2
} Inner;         // size 4, align 2

typedef struct {
  char tag;      // 0
  float4 v;      // 16
  short s;       // 32
  long l;        // 40
  int3 t;        // 48
  Inner in[2];   // 64
  double d;      // 72
} Rec;           // size 80, align 16

typedef struct __attribute__((packed)) {
  char c;        // 0
  int i;         // 1
  short s;       // 5
  long l;        // 7
} Packed;        // size 15, align 1

kernel void struct_rw(global Rec *out, global const Rec *in) {
  size_t g = get_global_id(0);
  Rec r = in[g];
  Rec w = r;   // padding bytes come from the input
  w.tag = r.tag + 1;
  w.v = r.v.wzyx;
  w.s = -r.s;
  w.l = r.l ^ (long)g;
  w.t = r.t + (int3)(1, 2, 3);
  w.in[0].a = r.in[1].a;
  w.in[0].b = r.in[1].b;
  w.in[1] = r.in[0];
  w.d = r.d * 2.0;
  out[g] = w;
}
// Field-by-field updates in place, through a pointer to a member.
kernel void struct_inplace(global Rec *recs) {
  size_t g = get_global_id(0);
  global Rec *r = &recs[g];
  r->v.y += 1.0f;
  global int3 *t = &r->t;
  t->z = t->x - t->y;
  r->in[g & 1].b = 'x';
}
kernel void struct_packed(global Packed *out, global const Packed *in) {
  size_t g = get_global_id(0);
  Packed p = in[g];
  out[g].c = p.c;
  out[g].i = p.i + 1;
  out[g].s = p.s - 1;
  out[g].l = p.l + p.i;
}
