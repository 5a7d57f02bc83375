// A bundled example: y = a*x + y over a 1D range, plus the work-item's global id written out.
kernel void saxpy(float a, global const float *x, global float *y, global int *ids) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
  ids[i] = (int)i;
}
