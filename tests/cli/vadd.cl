/* The one-kernel module of the `spvi` command tests (tests/cli/test_cli.sh). */
kernel void vadd(global const float *a, global const float *b, global float *out) {
  size_t i = get_global_id(0);
  out[i] = a[i] + b[i];
}
