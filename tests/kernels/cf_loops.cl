// Loops: for/while/do-while with break and continue, nested loops (break from the inner loop
// only), data-dependent trip counts that diverge between work-items, early return from a loop.
// collatz(out, in): number of steps to reach 1 (while loop, divergent trip counts)
kernel void collatz(global int *out, global const uint *in) {
  size_t i = get_global_id(0);
  uint x = in[i];
  int steps = 0;
  while (x != 1) {
    if (x & 1)
      x = 3 * x + 1;
    else
      x >>= 1;
    ++steps;
  }
  out[i] = steps;
}
// loops(out, in): out[i*4 + k]
kernel void loops(global int *out, global const int *in) {
  size_t i = get_global_id(0);
  int n = in[i];
  // 0: sum of k in [0, n) skipping multiples of 3, stopping once k*k > 200
  int s = 0;
  for (int k = 0; k < n; ++k) {
    if (k % 3 == 0)
      continue;
    if (k * k > 200)
      break;
    s += k;
  }
  // 1: do-while runs at least once
  int d = 0, m = n;
  do {
    d += m & 3;
    m -= 5;
  } while (m > 0);
  // 2: nested loops; the inner loop breaks on a condition, the outer continues on another
  int c = 0;
  for (int a = 0; a < n; ++a) {
    if (a == 4)
      continue;
    for (int b = 0; b < n; ++b) {
      if (b > a)
        break;
      if ((a + b) % 4 == 3)
        continue;
      c += a ^ b;
    }
  }
  // 3: while with an early exit through a flag and a counter
  int w = 0, j = n;
  bool done = false;
  while (!done) {
    j = j * 7 % 13;
    ++w;
    if (j == 1 || w >= 20)
      done = true;
  }
  out[i * 4 + 0] = s;
  out[i * 4 + 1] = d;
  out[i * 4 + 2] = c;
  out[i * 4 + 3] = w;
}
// early_return(out, in): returns before writing for odd values, and from inside a loop for
// values containing the byte 0x2a; the untouched outputs keep their initial contents.
kernel void early_return(global int *out, global const int *in) {
  size_t i = get_global_id(0);
  int x = in[i];
  if (x & 1)
    return;
  for (int b = 0; b < 4; ++b) {
    if (((x >> (8 * b)) & 0xff) == 0x2a) {
      out[i] = -b;
      return;
    }
  }
  out[i] = x / 2;
}
