// __local kernel arguments (sized at launch with spvi_set_arg_local): two of different element
// types and sizes. Each group reverses its slice through `a`, and builds per-item pair sums in `b`.
kernel void local_args(global int *out, global const int *in, local int *a, local float *b) {
  size_t l = get_local_id(0);
  size_t n = get_local_size(0);
  size_t g = get_global_id(0);
  a[l] = in[g];
  b[2 * l] = (float)in[g];
  b[2 * l + 1] = 0.5f;
  barrier(CLK_LOCAL_MEM_FENCE);
  int rev = a[n - 1 - l];
  float s = b[2 * ((l + 1) % n)] + b[2 * l + 1];
  out[2 * g] = rev;
  out[2 * g + 1] = as_int(s);
}
