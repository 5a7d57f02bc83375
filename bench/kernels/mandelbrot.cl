/* bench kernel mandelbrot: escape-time iteration counts (at most maxit) of a width-wide image,
 * pixel (px, py) at c = (xmin + px*step, ymin + py*step). Contraction into fma is switched off (and
 * there is no division), so every operation is one IEEE single-precision rounding on every
 * implementation and the counts are checked bit-exactly. */
#pragma OPENCL FP_CONTRACT OFF
__kernel void mandelbrot(__global int *out, int width, float xmin, float ymin, float step, int maxit) {
  int px = (int)get_global_id(0);
  int py = (int)get_global_id(1);
  float x0 = xmin + (float)px * step;
  float y0 = ymin + (float)py * step;
  float x = 0.0f, y = 0.0f;
  int it = 0;
  while (it < maxit && x * x + y * y <= 4.0f) {
    float xt = x * x - y * y + x0;
    y = 2.0f * x * y + y0;
    x = xt;
    it++;
  }
  out[py * width + px] = it;
}
