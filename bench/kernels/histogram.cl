/* bench kernel histogram (atomics): 256-bin histogram of the low byte of every input value, one
 * atomic_inc on global memory per item. Integer, checked exactly. */
__kernel void histogram(__global const uint *data, __global uint *hist) {
  size_t i = get_global_id(0);
  atomic_inc(&hist[data[i] & 255u]);
}
