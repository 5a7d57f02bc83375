kernel void bad(global int *p) {
  int a = 1;
  p[0] = a + missing_name;
}
