/* bench kernel conv2d: 5x5 convolution of a w x h float image (row-major), clamp-to-edge: a tap
 * outside the image reads the nearest pixel on the border (as CLK_ADDRESS_CLAMP_TO_EDGE would), so
 * every pixel has an output. The 25 weights come from a buffer. The sum runs row by row (dy = -2..2)
 * and left to right (dx = -2..2), acc = acc + w*p with contraction off: one rounding per operation
 * in a fixed order, checked bit-exactly. */
#pragma OPENCL FP_CONTRACT OFF
__kernel void conv2d(__global const float *in, __global const float *weights, __global float *out, int w, int h) {
  int x = (int)get_global_id(0), y = (int)get_global_id(1);
  float acc = 0.0f;
  for (int dy = -2; dy <= 2; dy++) {
    int yy = clamp(y + dy, 0, h - 1);
    for (int dx = -2; dx <= 2; dx++) {
      int xx = clamp(x + dx, 0, w - 1);
      acc = acc + weights[(dy + 2) * 5 + (dx + 2)] * in[yy * w + xx];
    }
  }
  out[y * w + x] = acc;
}
