// A struct passed by value as a kernel argument (with padding between members), and arrays of
// structs in private memory selected with runtime indices.
typedef struct {
  char c;        // offset 0
  int i;         // 4
  short s;       // 8
  double d;      // 16
  float f;       // 24
  uchar u[3];    // 28
  long l;        // 32
} Params;        // size 40, align 8

typedef struct {
  int key;
  float val;
  short tag;
} Item;          // size 12, align 4

// Every work-item writes 8 longs: each member widened (doubles/floats as their bit patterns),
// then a value computed from the members.
kernel void struct_byval(global long *out, Params p) {
  size_t g = get_global_id(0);
  global long *o = out + g * 8;
  o[0] = p.c;
  o[1] = p.i;
  o[2] = p.s;
  o[3] = as_long(p.d);
  o[4] = as_int(p.f);
  o[5] = p.u[0] | p.u[1] << 8 | p.u[2] << 16;
  o[6] = p.l;
  o[7] = p.l + p.i * (long)g + p.u[g % 3];
}
// A private array of structs initialised from the buffer, selected with a runtime index, copied
// whole (struct assignment), and modified.
kernel void struct_private_array(global int *out, global const int *in) {
  size_t g = get_global_id(0);
  Item items[4];
  for (int k = 0; k < 4; ++k) {
    items[k].key = in[g * 4 + k];
    items[k].val = (float)k / 4.0f;
    items[k].tag = (short)(k - 2);
  }
  int sel = in[g * 4] & 3;
  Item copy = items[sel];
  copy.key += 1000;
  items[3 - sel] = copy;
  for (int k = 0; k < 4; ++k) {
    out[g * 12 + k * 3 + 0] = items[k].key;
    out[g * 12 + k * 3 + 1] = as_int(items[k].val);
    out[g * 12 + k * 3 + 2] = items[k].tag;
  }
}
