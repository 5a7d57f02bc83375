// Out-of-bounds access to a private array with a runtime index (arg_index -1). The array is large
// and filled in a loop from the buffer so that it stays in memory at -O2 too.
kernel void oob_private(global int *out, global const int *in, global const int *idx) {
  int arr[32];
  size_t g = get_global_id(0);
  for (int k = 0; k < 32; ++k)
    arr[k] = in[k] + (int)g;
  out[g] = arr[idx[g]];
}
