/* `null` as a buffer argument (tests/cli/test_cli.sh): a kernel that tests its pointer, and one
 * that dereferences it. */
kernel void maybe(global int *out, global const int *in) {
  size_t i = get_global_id(0);
  out[i] = in ? in[i] : -1;
}

kernel void deref(global int *out, global const int *in) {
  size_t i = get_global_id(0);
  out[i] = in[i];
}
