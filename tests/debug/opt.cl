// Debugger test kernel (tests/debug/run.sh): variables through branches and a loop, built at -O0..2;
// the values shown at -O1 and -O2 must be those of -O0 or <optimized out>.
// The scripts name line numbers of this file: keep them stable.
kernel void opt(global int *out, global const int *in, int n) {
  int g = (int)get_global_id(0);
  int x = in[g];
  int y = x * 3;
  if (x > 2) {
    y = y + 7;
  } else {
    y = y - 1;
  }
  int z = y * 2;
  for (int i = 0; i < n; i++) {
    z = z * 3 + in[i];
  }
  int w = z - y;
  out[g] = w + g;
}
