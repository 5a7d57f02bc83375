// Flush-to-zero mode: float arithmetic, comparisons, conversions and math builtins see denormal
// inputs as zero and produce zero instead of denormal results; data movement keeps denormals.
kernel void ftz(global const float *a, global const float *b, global float *prod, global int *gt0,
                global float *root, global float *moved, global double *widened) {
  size_t i = get_global_id(0);
  prod[i] = a[i] * b[i];
  gt0[i] = a[i] > 0.0f;
  root[i] = sqrt(a[i]);
  vstore2(vload2(i, a), i, moved);   // a 2-vector at i: a[2i], a[2i+1]
  widened[i] = (double)a[i];
}
