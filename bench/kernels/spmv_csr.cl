/* bench kernel spmv_csr: y = A x for a sparse matrix in CSR form (row_ptr, col, val), one
 * work-item per row ("scalar CSR"): row lengths are irregular (bench_gen.c), so the lanes of a
 * warp run loops of different lengths, and x is gathered at random columns. The row's sum runs in
 * increasing position with contraction off, so y is checked bit-exactly. */
#pragma OPENCL FP_CONTRACT OFF
__kernel void spmv_csr(__global const uint *row_ptr, __global const uint *col, __global const float *val,
                       __global const float *x, __global float *y) {
  size_t r = get_global_id(0);
  float acc = 0.0f;
  for (uint p = row_ptr[r]; p < row_ptr[r + 1]; p++)
    acc = acc + val[p] * x[col[p]];
  y[r] = acc;
}
