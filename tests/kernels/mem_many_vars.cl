// tests/unit/test_mem.c: a module whose -O0 translation has more variables than SVM pointers can
// be told apart from (spvi refuses its launches with SVM arguments).
// spirv: skip-O2 the -O2 translation keeps no variables
#define V(i) volatile int v##i = i + x[0]; s += v##i;
#define V10(i) V(i##0) V(i##1) V(i##2) V(i##3) V(i##4) V(i##5) V(i##6) V(i##7) V(i##8) V(i##9)
kernel void many(global int *x) {
  int s = 0;
  V10(1) V10(2) V10(3) V10(4) V10(5) V10(6) V10(7) V10(8) V10(9) V10(10) V10(11) V10(12) V10(13) V10(14)
  x[1] = s;
}
