/* bench kernel sgemm_tiled: C = A x B for n x n row-major matrices (n a multiple of 16), 16x16
 * work-groups that stage one 16x16 tile of A and one of B in __local memory per step of the k-loop,
 * with a barrier after the loads (the tile is complete) and after the products (it may be
 * overwritten). Each work-item accumulates with fma() in increasing k, the very sequence of the
 * naive kernel, so every conforming implementation rounds alike (fma is correctly rounded) and C is
 * checked bit-exactly against the same C reference as `sgemm`. */
#define TS 16
__kernel void sgemm_tiled(__global const float *A, __global const float *B, __global float *C, int n) {
  __local float As[TS][TS];
  __local float Bs[TS][TS];
  int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
  int j = (int)get_global_id(0), i = (int)get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n; t += TS) {
    As[ty][tx] = A[i * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + j];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; k++)
      acc = fma(As[ty][k], Bs[k][tx], acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[i * n + j] = acc;
}
