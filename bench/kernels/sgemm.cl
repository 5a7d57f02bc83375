/* bench kernel sgemm: naive C = A x B for n x n row-major matrices, one work-item per element of C
 * (dimension 0 = column, dimension 1 = row) and a sequential k-loop. The product-sum is written
 * with fma() so that every conforming implementation rounds exactly alike (fma is correctly
 * rounded in OpenCL) and the result is checked bit-exactly. */
__kernel void sgemm(__global const float *A, __global const float *B, __global float *C, int n) {
  int j = (int)get_global_id(0);
  int i = (int)get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < n; k++)
    acc = fma(A[i * n + k], B[k * n + j], acc);
  C[i * n + j] = acc;
}
