// Program-scope variables that outlive a launch (OpenCL C 3.0, `global` address space: "their
// values persist between calls to any of the kernels in the program"). tests/unit/test_globals.c
// launches bump (writes them) and then read_back (reads them) on one module.
// also: spir32
global int counter = 7;
global int history[16];
global float4 acc = (float4)(0.5f, 1.0f, 1.5f, 2.0f);
constant int weights[4] = {3, 1, 4, 1};
global int *global cursor = &history[0];   // a pointer kept from one launch to the next

kernel void bump(global const int *in) {
  size_t g = get_global_id(0);
  atomic_add(&counter, in[g] * weights[g % 4]);
  history[g] = in[g];
  if (g == 0) {
    acc += (float4)(1.0f);
    cursor = &history[get_global_size(0) - 1];
  }
}

kernel void read_back(global int *out, global float4 *facc) {
  size_t g = get_global_id(0);
  out[g] = history[g] + counter;
  if (g == 0) {
    facc[0] = acc;
    out[16] = *cursor;
  }
}

kernel void count_calls(global int *out) {
  static global int calls;   // a function-scope static in global memory: also program state
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_global_id(0) == 0) out[0] = ++calls;
}
