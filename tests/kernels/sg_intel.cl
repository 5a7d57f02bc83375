// llvm-spirv: --spirv-ext=+SPV_INTEL_subgroups
// cl_intel_subgroups shuffles (OpSubgroupShuffle{,Down,Up,Xor}INTEL). clang-14's header declares
// them only with cl_intel_subgroups, which the spir target does not enable by default, so the
// overloads used here are declared directly (same mangled names).
uint __attribute__((overloadable)) intel_sub_group_shuffle(uint, uint);
uint __attribute__((overloadable)) intel_sub_group_shuffle_down(uint, uint, uint);
uint __attribute__((overloadable)) intel_sub_group_shuffle_up(uint, uint, uint);
uint __attribute__((overloadable)) intel_sub_group_shuffle_xor(uint, uint);
float4 __attribute__((overloadable)) intel_sub_group_shuffle(float4, uint);

kernel void sg_intel(global const uint *in, global uint *out, global float4 *f) {
  size_t i = get_global_id(0);
  uint v = in[i], lid = get_sub_group_local_id();
  out[5 * i] = intel_sub_group_shuffle(v, (lid + 3) % get_sub_group_size());
  out[5 * i + 1] = intel_sub_group_shuffle_down(v, v + 1000, 3);
  out[5 * i + 2] = intel_sub_group_shuffle_up(v + 2000, v, 2);
  out[5 * i + 3] = intel_sub_group_shuffle_xor(v, 1);
  out[5 * i + 4] = lid;
  f[i] = intel_sub_group_shuffle((float4)((float)v, (float)v + 0.5f, -(float)v, 7.0f), 0);
}
