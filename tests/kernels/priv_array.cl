// Private arrays: filled from a buffer, indexed with runtime indices, sorted in place (insertion
// sort), a histogram with data-dependent indices, and a 2D private array (4x4 matrix product).
kernel void priv_sort(global int *out, global const int *in) {
  size_t g = get_global_id(0);
  int a[16];
  for (int k = 0; k < 16; ++k)
    a[k] = in[g * 16 + k];
  for (int k = 1; k < 16; ++k) {
    int v = a[k];
    int j = k - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      --j;
    }
    a[j + 1] = v;
  }
  for (int k = 0; k < 16; ++k)
    out[g * 16 + k] = a[k];
}
// histogram of the low 3 bits of 32 values, then the index of the fullest bin (first on ties)
kernel void priv_hist(global int *out, global const uint *in) {
  size_t g = get_global_id(0);
  int h[8] = {0};
  for (int k = 0; k < 32; ++k)
    h[in[g * 32 + k] & 7]++;
  int best = 0;
  for (int k = 1; k < 8; ++k)
    if (h[k] > h[best])
      best = k;
  for (int k = 0; k < 8; ++k)
    out[g * 9 + k] = h[k];
  out[g * 9 + 8] = best;
}
// C = A * B for 4x4 int matrices held in private 2D arrays; A and B come from the buffer
kernel void priv_matmul(global int *out, global const int *in) {
  size_t g = get_global_id(0);
  int A[4][4], B[4][4], C[4][4];
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      A[r][c] = in[g * 32 + r * 4 + c];
      B[r][c] = in[g * 32 + 16 + r * 4 + c];
    }
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      int s = 0;
      for (int k = 0; k < 4; ++k)
        s += A[r][k] * B[k][c];
      C[r][c] = s;
    }
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c)
      out[g * 16 + r * 4 + c] = C[c][r];   // stored transposed
}
