// Kernels for the CLI tests of checks and reports (test_cli.sh).
kernel void divide(global const int *a, global const int *b, global int *q) {
  size_t g = get_global_id(0);
  q[g] = a[g] / b[g];
}

// counts by 2 from 0 to n: endless for an odd n (volatile: the loop may not be assumed to end)
kernel void count_to(volatile global int *out, int n) {
  out[0] = 0;
  for (int x = 0; x != n; x += 2)
    out[0] += 1;
}

// atomic_inc on a local counter nothing initialised: a use of uninitialized memory (--check uninit)
// in every work-item; the report names `counter` as the origin of the undefined bytes
kernel void uninit_counter(global int *out) {
  local int counter;
  atomic_inc(&counter);
  out[get_global_id(0)] = 1;
}

// every work-item writes out[0]: a write-write race under --check races
kernel void last_writer(global int *out) {
  out[0] = (int)get_global_id(0);
}

// two faulting sites: out[g + 3] is past the end of a 4-int buffer for work-items 1..3, a[g + 2]
// for 2 and 3 (--keep-going lists both; without it the first stops the run)
kernel void two_faults(global const int *a, global int *out) {
  size_t g = get_global_id(0);
  out[g + 3] = a[g + 2] + 1;
}
