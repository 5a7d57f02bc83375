/* Struct buffers of the numpy tests (tests/cli/test_npy.sh): nested structs, arrays, a float3
 * (16-byte aligned) and padding. */
typedef struct { short x; float y; } inner;
struct P { int a; double b; float3 v; inner in; uint arr[2][3]; char c; };
struct Q { char c; int i; };
kernel void bump(global struct P *p) {
  size_t i = get_global_id(0);
  p[i].a += 1;
  p[i].b *= 2;
  p[i].v += (float3)(1.0f, 2.0f, 3.0f);
  p[i].in.x -= 1;
  p[i].in.y += 0.5f;
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 3; c++) p[i].arr[r][c] += 1;
  p[i].c += 1;
}
kernel void qsum(global const struct Q *q, global int *out) {
  size_t i = get_global_id(0);
  out[i] = q[i].c + q[i].i;
}
