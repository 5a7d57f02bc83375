/* bench kernel stencil: 1D 5-point stencil out[i] = c0*in[i] + c1*(in[i-1]+in[i+1]) +
 * c2*(in[i-2]+in[i+2]); the two items at each end copy their input. Contraction is off, so the
 * result is checked bit-exactly. */
#pragma OPENCL FP_CONTRACT OFF
__kernel void stencil(__global const float *in, __global float *out, int n) {
  int i = (int)get_global_id(0);
  if (i < 2 || i >= n - 2) {
    out[i] = in[i];
    return;
  }
  out[i] = 0.5f * in[i] + 0.1875f * (in[i - 1] + in[i + 1]) + 0.0625f * (in[i - 2] + in[i + 2]);
}
