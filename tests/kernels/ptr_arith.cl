// also: spir32
// Pointer arithmetic and comparison on global, local and private pointers: walking with ++,
// negative indices from a pointer in the middle, differences (ptrdiff_t), relational comparisons,
// byte access through a uchar pointer (little-endian), conversion to uintptr_t and back,
// selecting between pointers.
kernel void ptr_walk(global int *out, global const int *in, int n) {
  size_t g = get_global_id(0);
  global const int *begin = in + g * n;
  global const int *end = begin + n;
  global const int *mid = begin + n / 2;
  int s = 0;
  for (global const int *p = begin; p < end; ++p)
    s += *p;
  int back = 0;
  for (global const int *p = end - 1; p >= mid; p--)
    back = back * 3 + *p;
  global const int *mx = begin;
  for (global const int *p = begin + 1; p != end; p++)
    if (*p > *mx)
      mx = p;
  out[g * 6 + 0] = s;
  out[g * 6 + 1] = back;
  out[g * 6 + 2] = (int)(mx - begin);
  out[g * 6 + 3] = mid[-1] - mid[1];
  out[g * 6 + 4] = (int)(end - mid) + 100 * (mid <= end) + 1000 * (begin > mid);
  out[g * 6 + 5] = (int)((uintptr_t)end - (uintptr_t)begin);    // bytes
}
kernel void ptr_bytes(global uint *out, global const uint *in) {
  size_t g = get_global_id(0);
  global const uchar *b = (global const uchar *)(in + g);
  // reassemble big-endian from the little-endian bytes
  out[g * 2] = (uint)b[0] << 24 | (uint)b[1] << 16 | (uint)b[2] << 8 | b[3];
  // write one byte through a char pointer into the output word
  global uchar *w = (global uchar *)&out[g * 2 + 1];
  out[g * 2 + 1] = 0;
  w[g % 4] = 0xAB;
}
kernel void ptr_private(global int *out, global const int *in) {
  size_t g = get_global_id(0);
  int arr[8];
  for (int k = 0; k < 8; ++k)
    arr[k] = in[g] + k;
  int *p = &arr[in[g] & 7];
  int *q = arr + 7 - (in[g] & 7);
  int *hi = p > q ? p : q;
  uintptr_t u = (uintptr_t)hi;
  int *r = (int *)(u - sizeof(int));
  out[g * 3 + 0] = *hi;
  out[g * 3 + 1] = (int)(hi - arr);
  out[g * 3 + 2] = hi > arr ? *r : -1;
}
kernel void ptr_local(global int *out, global const int *in) {
  local int buf[32];
  size_t l = get_local_id(0);
  local int *base = buf;
  local int *mine = base + l;
  *mine = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  local int *other = &buf[31 - l];
  out[get_global_id(0)] = *other - *mine + (int)(other - mine);
}
// Gathers in a divergent loop (rows of irregular length, as in CSR SpMV): loads and element
// addresses of a warp whose lanes leave the loop at different iterations, through a 32-bit signed
// index (col) and a 64-bit one (k), and addresses made inside the loop and read after it (best
// through a phi, p directly: the lanes that left first wait at the loop's exit while the others
// make new addresses in the same register).
kernel void ptr_gather(global int *out, global const uint *row_ptr, global const int *col, global const int *val,
                       global const int *x) {
  size_t r = get_global_id(0);
  size_t k = row_ptr[r], end = row_ptr[r + 1];
  int acc = 0, last = 0;
  global const int *best = x;
  if (k < end) {
    global const int *p;
    do {
      p = x + col[k];
      acc += val[k] * *p;
      if (*p > *best)
        best = p;
      k++;
    } while (k < end);
    last = *p + (int)(p - x) * 4096;
  }
  out[3 * r] = acc;
  out[3 * r + 1] = *best;
  out[3 * r + 2] = last;
}
