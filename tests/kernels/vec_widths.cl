// Arithmetic on every vector width 2, 3, 4, 8, 16 for int and float.
// Through typed pointers a 3-component vector occupies 16 bytes (the 4th is padding);
// vload3/vstore3 read/write 3 packed elements instead.
// vint<n>(out, a, b): out = (a + b) * (a - b) ^ (b >> 1)      (int, wrapping is avoided by inputs)
// vflt<n>(out, a, b): out = (a + b) * (a - b) / b             (float, no a*b+c)
#define VW(n)                                                                                \
kernel void vint##n(global int##n *out, global const int##n *a, global const int##n *b) {   \
  size_t i = get_global_id(0);                                                               \
  int##n x = a[i], y = b[i];                                                                 \
  out[i] = ((x + y) * (x - y)) ^ (y >> 1);                                                   \
}                                                                                            \
kernel void vflt##n(global float##n *out, global const float##n *a, global const float##n *b) { \
  size_t i = get_global_id(0);                                                               \
  float##n x = a[i], y = b[i];                                                               \
  float##n s = x + y;                                                                        \
  float##n d = x - y;                                                                        \
  float##n p = s * d;                                                                        \
  out[i] = p / y;                                                                            \
}
VW(2)
VW(3)
VW(4)
VW(8)
VW(16)
// Packed 3-vectors through vload3/vstore3 on scalar pointers (12-byte stride), plus a scalar
// broadcast (int3 + int).
kernel void vint3_packed(global int *out, global const int *a, global const int *b, int k) {
  size_t i = get_global_id(0);
  int3 x = vload3(i, a);
  int3 y = vload3(i, b);
  vstore3(x * y + k, i, out);
}
