// llvm-spirv: --spirv-ext=+SPV_KHR_expect_assume
// cflags: -g
// __builtin_assume(c) becomes OpAssumeTrueKHR (SPV_KHR_expect_assume) at -O0 and -O2; a false
// condition is undefined behaviour, which spvi reports. Exactly one work-item has in[g] == 7.
kernel void assume_not7(global int *out, global const int *in) {
  size_t g = get_global_id(0);
  int x = in[g];
  __builtin_assume(x != 7);
  out[g] = x + 1;
}
