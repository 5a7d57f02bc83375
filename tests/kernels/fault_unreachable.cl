// spirv: skip-O2 the optimiser deletes the path to __builtin_unreachable (it assumes it is never taken), so there is no OpUnreachable left to execute
// Executing __builtin_unreachable (OpUnreachable at -O0): exactly one work-item takes the path.
kernel void unreachable_path(global int *out, global const int *in) {
  size_t g = get_global_id(0);
  int x = in[g];
  if (x == 7)
    __builtin_unreachable();
  out[g] = x * 2;
}
