// Program-scope pointer variables initialised with the address of (an element of) another
// program-scope variable (OpenCL 2.0). The initialisers are constant pointer expressions:
// llvm-spirv emits them as OpSpecConstantOp (InBoundsPtrAccessChain, Bitcast) over the variables.
global int g_arr[4] = {10, -20, 30, -40};
global int *global g_ptr = &g_arr[2];
constant int c_table[3] = {7, 8, 9};
constant int *constant c_ptr = &c_table[1];

// out[g*3 + k]: g_arr[1] or g_arr[2] through g_ptr; g_ptr - g_arr (2); c_table[1] or c_table[2]
kernel void ptr_globals(global int *out) {
  size_t g = get_global_id(0);
  out[g * 3 + 0] = g_ptr[(int)(g % 2) - 1];
  out[g * 3 + 1] = (int)(g_ptr - g_arr);
  out[g * 3 + 2] = c_ptr[g % 2];
}
