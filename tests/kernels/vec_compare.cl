// Vector relations produce -1 (all bits set) or 0 per component, in the integer type of the same
// width as the operands (char16 for uchar16, long2 for long2/double2). The vector ternary selects
// per component on the most significant bit of the condition.
kernel void vcmp_int4(global int4 *out, global const int4 *a, global const int4 *b) {
  size_t i = get_global_id(0);
  int4 x = a[i], y = b[i];
  out[i * 5 + 0] = x < y;
  out[i * 5 + 1] = x >= y;
  out[i * 5 + 2] = x == y;
  out[i * 5 + 3] = as_int4(as_uint4(x) > as_uint4(y));   // unsigned relation
  out[i * 5 + 4] = (x > y) ? x : y;                       // per-component max via vector ternary
}
kernel void vcmp_uchar16(global char16 *out, global const uchar16 *a, global const uchar16 *b) {
  size_t i = get_global_id(0);
  out[i * 2 + 0] = a[i] > b[i];
  out[i * 2 + 1] = a[i] != b[i];
}
kernel void vcmp_float8(global int8 *out, global const float8 *a, global const float8 *b) {
  size_t i = get_global_id(0);
  float8 x = a[i], y = b[i];
  out[i * 4 + 0] = x < y;
  out[i * 4 + 1] = x != y;     // unordered: -1 when either is NaN
  out[i * 4 + 2] = x >= y;     // ordered: 0 when either is NaN
  out[i * 4 + 3] = isnan(x);
}
kernel void vcmp_long2(global long2 *out, global const long2 *a, global const long2 *b) {
  size_t i = get_global_id(0);
  out[i * 2 + 0] = a[i] <= b[i];
  out[i * 2 + 1] = as_ulong2(a[i]) < as_ulong2(b[i]) ? (long2)(7) : (long2)(-9);
}
kernel void vcmp_int3(global int *out, global const int *a, global const int *b) {
  size_t i = get_global_id(0);
  int3 r = vload3(i, a) > vload3(i, b);
  vstore3(r, i, out);
}
