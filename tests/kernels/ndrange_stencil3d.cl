// A 3D NDRange with a global offset and non-uniform work-groups doing real work: a 7-point
// stencil over a 3D grid stored in a buffer of (X+2)*(Y+2)*(Z+2) ints (one-cell halo). The launch
// covers the interior: offset (1,1,1), global size (X,Y,Z).
kernel void stencil3d(global int *out, global const int *in, int X, int Y) {
  int x = (int)get_global_id(0), y = (int)get_global_id(1), z = (int)get_global_id(2);
  int sx = X + 2, sy = Y + 2;
#define AT(i, j, k) in[((k) * sy + (j)) * sx + (i)]
  int v = 6 * AT(x, y, z) - AT(x - 1, y, z) - AT(x + 1, y, z) - AT(x, y - 1, z) - AT(x, y + 1, z) -
          AT(x, y, z - 1) - AT(x, y, z + 1);
  out[(z * sy + y) * sx + x] = v;
}
// 2D integer matrix product C = A * B (M x K times K x N), 2D NDRange (N, M) with non-uniform
// groups.
kernel void matmul2d(global int *C, global const int *A, global const int *B, int K, int N) {
  int col = (int)get_global_id(0), row = (int)get_global_id(1);
  int s = 0;
  for (int k = 0; k < K; ++k)
    s += A[row * K + k] * B[k * N + col];
  C[row * N + col] = s;
}
