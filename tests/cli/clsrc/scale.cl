#include "scale.h"
kernel void scale(global const int *in, global int *out, int k) {
  size_t i = get_global_id(0);
  int v = in[i] * k * FACTOR;
  out[i] = v + BIAS;
}
