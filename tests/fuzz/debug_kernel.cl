// The module of the debugger harness (fuzz_debug.c), compiled with -g -O0 so that expressions have
// variables of every shape to name: scalars, vectors, arrays, structs, pointers into global,
// local and private memory, a loop, a call, a barrier.
typedef struct { int a; float b[2]; short4 v; } rec;

static float mix_in(global const float *in, int i, float k) {
  float t = in[i] * k;
  return t + 1.0f;
}

kernel void walk(global float *out, global const float *in, local rec *tmp, int n, float4 v) {
  size_t l = get_local_id(0), g = get_global_id(0);
  int arr[4] = {1, 2, 3, 4};
  rec r = {(int)g, {0.5f, -1.0f}, (short4)(1, 2, 3, 4)};
  private int *p = &arr[l % 4];
  float acc = 0;
  for (int i = 0; i < 4 && i < n + 4; i++) acc += mix_in(in, i, v.x) * arr[i];
  tmp[l] = r;
  tmp[l].a += *p;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = acc + tmp[(l + 1) % get_local_size(0)].b[0];
}

kernel void other(global int *out) {
  local int cells[4];
  size_t l = get_local_id(0);
  cells[l % 4] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = cells[(l + 1) % 4];
}
