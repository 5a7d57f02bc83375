// Debugger test kernel (tests/debug/run.sh): the work-item whose idx entry is past the end of
// `out` writes out of bounds. The scripts name line numbers of this file: keep them stable.
kernel void oob(global int *out, global const int *idx) {
  size_t g = get_global_id(0);
  int k = idx[g];
  out[k] = (int)g;
}
