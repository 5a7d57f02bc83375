// also: spir32
// Out-of-bounds accesses to global buffers. The index comes from a buffer, so the compiler cannot
// see it; exactly one work-item gets an index past the end.
// oob_write: out[idx[g]] = g — argument 0 is the faulting buffer.
kernel void oob_write(global int *out, global const int *idx) {
  size_t g = get_global_id(0);
  out[idx[g]] = (int)g;
}
// oob_read: out[g] = in[idx[g]] — argument 1 is the faulting buffer.
kernel void oob_read(global int *out, global const float *in, global const int *idx) {
  size_t g = get_global_id(0);
  out[g] = (int)in[idx[g]];
}
// oob_neg: a negative offset from the start of the buffer, through pointer arithmetic.
kernel void oob_neg(global long *out, global const int *delta) {
  size_t g = get_global_id(0);
  global long *p = out + g;
  p += delta[g];
  *p = 1;
}
