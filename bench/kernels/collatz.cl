/* bench kernel collatz (control-flow divergence): for each start value, the number of Collatz
 * steps to reach 1 (capped at 100000), in 64-bit arithmetic; trip counts differ from item to item. */
__kernel void collatz(__global const uint *start, __global uint *steps) {
  size_t i = get_global_id(0);
  ulong v = start[i];
  uint n = 0;
  while (v > 1 && n < 100000u) {
    v = (v & 1) ? 3 * v + 1 : v >> 1;
    n++;
  }
  steps[i] = n;
}
