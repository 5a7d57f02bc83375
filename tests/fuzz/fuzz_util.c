/*
 * fuzz_util.c — loading a fuzz input and making a small launch of a kernel (fuzz.h).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

spvi_module *fuzz_load(const uint8_t *data, size_t size, bool strict) {
  if (size > FUZZ_MAX_MODULE) return NULL;
  spvi_load_options o = {.strict = strict};
  spvi_error err;
  return spvi_load_memory(data, size, "fuzz", &o, &err);
}

/* A 4x4(x4) image of the parameter's type: rgba float is allowed for every type (OpenCL 3.0
 * 5.3.2.1, minimum list of supported image formats). */
static spvi_status image_arg(spvi_launch *l, int i, const spvi_param_info *p) {
  spvi_image_desc d = {.type = p->image_type, .order = SPVI_ORDER_RGBA, .channel_type = SPVI_FLOAT, .width = 4};
  if (p->image_type == SPVI_IMAGE_2D || p->image_type == SPVI_IMAGE_2D_ARRAY || p->image_type == SPVI_IMAGE_3D)
    d.height = 4;
  if (p->image_type == SPVI_IMAGE_3D) d.depth = 4;
  if (p->image_type == SPVI_IMAGE_1D_ARRAY || p->image_type == SPVI_IMAGE_2D_ARRAY) d.array_size = 4;
  spvi_error err;
  size_t bytes = spvi_image_bytes(&d, &err);
  if (!bytes) return SPVI_E_USAGE;
  return spvi_set_arg_image(l, i, &d, NULL, bytes, &err);
}

static spvi_status set_arg(spvi_launch *l, int i, const spvi_param_info *p) {
  static const spvi_sampler sampler = {false, SPVI_ADDRESS_CLAMP_TO_EDGE, SPVI_FILTER_NEAREST};
  static unsigned char pattern[FUZZ_ARG_BYTES];
  static unsigned char zero[FUZZ_MAX_VALUE_BYTES];
  if (!pattern[1])
    for (size_t b = 0; b < sizeof pattern; b++) pattern[b] = (unsigned char)(b * 7 + 1);
  spvi_error err;
  switch (p->kind) {
  case SPVI_PARAM_VALUE:
    if (p->size > sizeof zero) return SPVI_E_USAGE;
    return spvi_set_arg_value(l, i, zero, p->size, &err);
  case SPVI_PARAM_BUFFER: return spvi_set_arg_buffer(l, i, pattern, sizeof pattern, &err);
  case SPVI_PARAM_LOCAL: return spvi_set_arg_local(l, i, FUZZ_ARG_BYTES, &err);
  case SPVI_PARAM_IMAGE: return image_arg(l, i, p);
  case SPVI_PARAM_SAMPLER: return spvi_set_arg_sampler(l, i, &sampler, &err);
  default: return SPVI_E_USAGE;
  }
}

spvi_launch *fuzz_launch(spvi_module *m, int k) {
  spvi_error err;
  spvi_launch *l = spvi_launch_new(m, k, &err);
  if (!l) return NULL;
  int n = spvi_kernel_param_count(m, k);
  for (int i = 0; i < n; i++) {
    if (set_arg(l, i, spvi_kernel_param(m, k, i)) != SPVI_OK) {
      spvi_launch_free(l);
      return NULL;
    }
  }
  /* a required work-group size decides the NDRange: one group of it, when small */
  size_t req[3], global[3] = {FUZZ_GLOBAL, 1, 1}, local[3] = {FUZZ_LOCAL, 1, 1};
  spvi_kernel_reqd_local_size(m, k, req);
  if (req[0] && req[0] * req[1] * req[2] <= 64) memcpy(global, req, sizeof global), memcpy(local, req, sizeof local);
  if (spvi_set_ndrange(l, 3, global, local, NULL, &err) != SPVI_OK) {
    spvi_launch_free(l);
    return NULL;
  }
  return l;
}
