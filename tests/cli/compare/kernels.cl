// Kernels of tests/cli/test_compare.sh (spvi compare, run --expect, spvi test); the tests name
// the source lines of the faults and reports below, so keep them where they are.
kernel void scale(global const float *in, global float *out, float k) {
  out[get_global_id(0)] = k * in[get_global_id(0)];
}

kernel void last_writer(global int *out) {
  out[0] = (int)get_global_id(0); // line 8: a write-write race under --check races
}

kernel void past_end(global int *out) {
  out[get_global_id(0) + 1] = 1; // line 12: work-item 3 of 4 writes out[4]
}

kernel void divide(global const int *a, global const int *b, global int *q) {
  q[get_global_id(0)] = a[get_global_id(0)] / b[get_global_id(0)]; // line 16
}
