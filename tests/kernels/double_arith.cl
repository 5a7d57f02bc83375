// Double precision: + - * / negation, comparisons with NaN (ordered/unordered), and a sequential
// accumulation. No a*b+c patterns.
// darith(out, cmp, a, b): out[i*5 + k] = a+b, a-b, a*b, a/b, -a; cmp[i] = bit mask of relations
kernel void darith(global double *out, global long *cmp, global const double *a, global const double *b) {
  size_t i = get_global_id(0);
  double x = a[i], y = b[i];
  global double *o = out + i * 5;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = -x;
  cmp[i] = (x == y) | (x != y) << 1 | (x < y) << 2 | (x <= y) << 3 | (x > y) << 4 |
           (x >= y) << 5 | isnan(y) << 6 | isunordered(x, y) << 7;
}
// double2 relations: long2 components -1/0.
kernel void dcmp2(global long2 *out, global const double2 *a, global const double2 *b) {
  size_t i = get_global_id(0);
  out[i * 3 + 0] = a[i] < b[i];
  out[i * 3 + 1] = a[i] != b[i];
  out[i * 3 + 2] = a[i] == b[i];
}
