// Program-scope variables in the global address space (OpenCL 2.0): initialised arrays and
// scalars, zero-initialised ones, a program-scope constant table, and a scratch array written and
// read back within one work-group. (Pointer-valued program-scope variables are in
// global_ptr_init.cl, so that a loader gap there does not hide these.)
// Whether these keep their values between launches is not relied on: every kernel reads only
// variables no kernel writes, or writes before it reads.
global int g_table[4] = {10, -20, 30, -40};
global float g_scale = 2.5f;
global long g_big = 0x123456789abcdefL;
global int g_zero[8];
global int g_scratch[64];
constant int c_table[3] = {7, 8, 9};

kernel void read_globals(global float *out, global int *iout) {
  size_t g = get_global_id(0);
  out[g] = (float)g_table[g % 4] * g_scale;
  iout[g * 4 + 0] = g_zero[g % 8];
  iout[g * 4 + 1] = (int)(g_big >> (g % 64));
  iout[g * 4 + 2] = g_table[(g + 1) % 4] + c_table[g % 3];
  iout[g * 4 + 3] = (int)(g_scale * 4.0f) + g_zero[(g + 3) % 8];   // 10
}
// one work-group: each work-item writes its slot, then reads its neighbour's after the barrier
kernel void scratch_globals(global int *out, global const int *in) {
  size_t l = get_local_id(0);
  size_t n = get_local_size(0);
  g_scratch[l] = in[l] * 3;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[l] = g_scratch[(l + 1) % n] - g_scratch[l];
}
