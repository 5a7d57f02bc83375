// llvm-spirv: --spirv-ext=+SPV_KHR_expect_assume
// cflags: -Xclang -disable-llvm-passes
// clang emits llvm.expect for __builtin_expect only when optimising, and LLVM's passes lower it to
// branch weights: with the passes off, the -O2 variant keeps it and llvm-spirv writes OpExpectKHR
// (the -O0 variant has a plain comparison). OpAssumeTrueKHR with true conditions changes nothing.
kernel void expect_values(global long *out, global const long *in) {
  size_t g = get_global_id(0);
  long x = in[g];
  __builtin_assume(x >= 0);
  long e = __builtin_expect(x * 3, 30);
  if (__builtin_expect(x > 5, 0)) out[g] = e + 1000;
  else out[g] = e;
}
