// Debugger test kernel (tests/debug/run.sh): a __local 2D array declared in the kernel.
// The scripts name line numbers of this file: keep them stable.
kernel void tile(global float *out, global const float *in) {
  __local float t[4][4];
  size_t lx = get_local_id(0);
  size_t g = get_global_id(0);
  for (int j = 0; j < 4; j++) t[lx][j] = in[g] * 10 + j;
  barrier(CLK_LOCAL_MEM_FENCE);
  float s = t[3 - lx][lx];
  out[g] = s;
}
