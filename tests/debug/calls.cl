// Debugger test kernel (tests/debug/run.sh): a call, a loop, a struct, an array, a vector.
// The scripts name line numbers of this file: keep them stable.
typedef struct { int a; float b; } pair;

int scale(int x, int y) {
  int t = x * y;
  return t + 1;
}

kernel void calls(global int *out, global float4 *v, int n) {
  size_t gid = get_global_id(0);
  int acc = 0;
  pair p = {3, 0.5f};
  int arr[4] = {10, 20, 30, 40};
  for (int i = 0; i < n; i++) {
    acc += scale(i, (int)gid);
  }
  float4 f = v[gid];
  out[gid] = acc + p.a + arr[gid % 4] + (int)f.y;
}
