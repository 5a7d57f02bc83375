/*
 * ex_memobj.c — memory objects (spvi.h "memory objects"): buffers, views of buffers (OpenCL
 * sub-buffers), images and images over a buffer's bytes, reference-counted, used in place by the
 * launches they are set on (spvi_set_arg_mem, ex_api.c).
 *
 * Views follow OpenCL 3.0 API spec 5.2.1 (clCreateSubBuffer, CL_BUFFER_CREATE_TYPE_REGION): the
 * region [origin, origin + size) must lie inside the buffer (CL_INVALID_VALUE otherwise), and a
 * kernel given the view sees a buffer of `size` bytes starting at its origin, so its accesses are
 * bounds-checked against the view, not the parent. A view of a view is a view of the root buffer
 * (OpenCL forbids sub-buffers of sub-buffers; spvi flattens them instead). The alignment of the
 * origin (CL_MISALIGNED_SUB_BUFFER_OFFSET) is the platform's rule to enforce: kernels here check
 * alignment against the view's own start, as a device would against its address.
 *
 * Images from buffers follow 5.3.1 (image1d_buffer_t, cl_khr_image2d_from_buffer): the image's
 * pixels are the buffer's first bytes, tightly packed.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bi_image.h"
#include "ex_api.h"

#define OBJ_ALIGN 128 /* owned bytes: as OpenCL's largest type (long16), and a cache line pair */

/* ---- the device's memory figures (spvi.h "device limits") ------------------------------------ */
uint64_t spvi_global_mem_size(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  uint64_t total = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : (uint64_t)2 << 30;
  return total / 2;
}

/* The smallest largest-allocation OpenCL 3.0 allows a full-profile device, "max(min(1024 x 1024 x
 * 1024, 1/4th of CL_DEVICE_GLOBAL_MEM_SIZE), 32 x 1024 x 1024)" (API 4.2, CL_DEVICE_MAX_MEM_ALLOC_SIZE),
 * and at least the 128 MiB the CTS requires of a full profile (test_api min_max_mem_alloc_size).
 * Not more: suites such as test_allocations and the image tests size their objects from it and run
 * a kernel over every byte, which an interpreter does at a fraction of a CPU's speed. */
uint64_t spvi_max_alloc_size(void) {
  uint64_t q = spvi_global_mem_size() / 4, gib = (uint64_t)1 << 30, min = (uint64_t)128 << 20;
  if (q > gib) q = gib;
  return q > min ? q : min;
}

bool ex_alloc_fits(uint64_t bytes, const char *what, spvi_error *err) {
  if (bytes <= spvi_max_alloc_size()) return true;
  ex_set_err(err, SPVI_E_USAGE, "%s of %llu bytes is above the largest allocation, %llu bytes (spvi_max_alloc_size)",
             what, (unsigned long long)bytes, (unsigned long long)spvi_max_alloc_size());
  return false;
}

static spvi_mem *mem_alloc(spvi_mem *parent, uint8_t *bytes, size_t size, bool owned) {
  spvi_mem *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  atomic_init(&m->refs, 1);
  m->parent = parent;
  m->bytes = bytes;
  m->size = size;
  m->owned = owned;
  return m;
}

/* size zero-filled bytes aligned to OBJ_ALIGN, NULL when out of memory. */
static uint8_t *owned_bytes(size_t size) {
  void *p = NULL;
  const size_t rounded = (size + OBJ_ALIGN - 1) / OBJ_ALIGN * OBJ_ALIGN;
  if (rounded < size || posix_memalign(&p, OBJ_ALIGN, rounded)) return NULL;
  memset(p, 0, rounded);
  return p;
}

spvi_mem *spvi_buffer_new(size_t bytes, void *host, spvi_error *err) {
  ex_clear_err(err);
  if (bytes == 0) {
    ex_set_err(err, SPVI_E_USAGE, "a buffer needs at least 1 byte, got 0");
    return NULL;
  }
  if (!ex_alloc_fits(bytes, "a buffer", err)) return NULL;
  uint8_t *b = host ? host : owned_bytes(bytes);
  spvi_mem *m = b ? mem_alloc(NULL, b, bytes, !host) : NULL;
  if (!m) {
    if (!host) free(b);
    ex_set_err(err, SPVI_E_NOMEM, "out of memory for a %zu-byte buffer", bytes);
  }
  return m;
}

spvi_mem *spvi_buffer_view(spvi_mem *parent, size_t offset, size_t bytes, spvi_error *err) {
  ex_clear_err(err);
  if (!parent) {
    ex_set_err(err, SPVI_E_USAGE, "view of no buffer (parent is NULL)");
    return NULL;
  }
  if (parent->is_image) {
    ex_set_err(err, SPVI_E_USAGE, "a view must be of a buffer, not of an image");
    return NULL;
  }
  if (bytes == 0 || offset > parent->size || bytes > parent->size - offset) {
    ex_set_err(err, SPVI_E_USAGE, "view of bytes [%zu, %zu + %zu) is not inside its %zu-byte parent (or is empty)",
               offset, offset, bytes, parent->size);
    return NULL;
  }
  spvi_mem *root = parent->parent ? parent->parent : parent; /* views hold their root */
  spvi_mem *m = mem_alloc(root, parent->bytes + offset, bytes, false);
  if (!m) {
    ex_set_err(err, SPVI_E_NOMEM, "out of memory for a buffer view");
    return NULL;
  }
  m->view_offset = parent->view_offset + offset;
  spvi_mem_retain(root);
  return m;
}

/* The bytes desc needs, 0 with err filled when it is not a valid description. */
static size_t image_bytes(const spvi_image_desc *desc, spvi_error *err) {
  spvi_error e;
  const size_t need = spvi_image_bytes(desc, &e);
  if (!need) ex_set_err(err, SPVI_E_USAGE, "image object: %s", e.message);
  return need;
}

spvi_mem *spvi_image_new(const spvi_image_desc *desc, void *host, spvi_error *err) {
  ex_clear_err(err);
  const size_t need = image_bytes(desc, err);
  if (!need || !ex_alloc_fits(need, "an image", err)) return NULL;
  uint8_t *b = host ? host : owned_bytes(need);
  spvi_mem *m = b ? mem_alloc(NULL, b, need, !host) : NULL;
  if (!m) {
    if (!host) free(b);
    ex_set_err(err, SPVI_E_NOMEM, "out of memory for a %zu-byte image", need);
    return NULL;
  }
  m->is_image = true;
  m->desc = *desc;
  return m;
}

spvi_mem *spvi_image_from_buffer(const spvi_image_desc *desc, spvi_mem *buffer, spvi_error *err) {
  ex_clear_err(err);
  if (!buffer || buffer->is_image) {
    ex_set_err(err, SPVI_E_USAGE, "image from buffer: %s",
               buffer ? "the object is an image, not a buffer" : "no buffer (NULL)");
    return NULL;
  }
  const size_t need = image_bytes(desc, err);
  if (!need) return NULL;
  if (need > buffer->size) {
    ex_set_err(err, SPVI_E_USAGE, "image from buffer: its pixels take %zu bytes, the buffer has %zu", need,
               buffer->size);
    return NULL;
  }
  spvi_mem *m = mem_alloc(buffer, buffer->bytes, need, false);
  if (!m) {
    ex_set_err(err, SPVI_E_NOMEM, "out of memory for an image object");
    return NULL;
  }
  m->is_image = true;
  m->desc = *desc;
  spvi_mem_retain(buffer);
  return m;
}

void spvi_mem_retain(spvi_mem *m) {
  if (m) atomic_fetch_add(&m->refs, 1);
}

void spvi_mem_release(spvi_mem *m) {
  while (m && atomic_fetch_sub(&m->refs, 1) == 1) {
    spvi_mem *parent = m->parent;
    if (m->owned) free(m->bytes);
    free(m);
    m = parent; /* drop the reference the object held (a loop: no recursion down chains) */
  }
}

void *spvi_mem_data(const spvi_mem *m, size_t *bytes) {
  if (bytes) *bytes = m ? m->size : 0;
  return m ? m->bytes : NULL;
}

bool spvi_mem_image_desc(const spvi_mem *m, spvi_image_desc *desc) {
  if (!m || !m->is_image) return false;
  if (desc) *desc = m->desc;
  return true;
}

/* ---- image descriptions ------------------------------------------------------------------ */

const char *spvi_image_type_name(spvi_image_type t) { return bi_image_type_name((unsigned)t); }
const char *spvi_channel_order_name(spvi_channel_order o) { return bi_image_order_name((unsigned)o); }
const char *spvi_channel_type_name(spvi_channel_type t) { return bi_image_ctype_name((unsigned)t); }
unsigned spvi_image_channels(spvi_channel_order o) { return bi_image_nchan((unsigned)o); }
unsigned spvi_channel_type_bytes(spvi_channel_type t) { return bi_image_csize((unsigned)t); }

/* Sizes above 2^24 are refused: the sampling formulas multiply coordinates by the size in float,
 * which must hold it exactly (and no device allows images that large). */
#define MAX_IMAGE_SIZE ((size_t)1 << 24)

size_t spvi_image_bytes(const spvi_image_desc *d, spvi_error *err) {
  ex_clear_err(err);
  if (!d) {
    ex_set_err(err, SPVI_E_USAGE, "no image description");
    return 0;
  }
  const char *tn = spvi_image_type_name(d->type);
  if (!tn) {
    ex_set_err(err, SPVI_E_USAGE, "image type %d is not an image type", (int)d->type);
    return 0;
  }
  const char *on = spvi_channel_order_name(d->order), *cn = spvi_channel_type_name(d->channel_type);
  if (!on) {
    ex_set_err(err, SPVI_E_USAGE, "channel order %d is not supported", (int)d->order);
    return 0;
  }
  if (!cn) {
    ex_set_err(err, SPVI_E_USAGE, "channel type %d is not supported", (int)d->channel_type);
    return 0;
  }
  if (!bi_image_format_ok((unsigned)d->order, (unsigned)d->channel_type)) {
    ex_set_err(err, SPVI_E_USAGE, "channel order %s does not allow channel type %s (%s)", on, cn,
               d->order == SPVI_ORDER_SRGBA || d->order == SPVI_ORDER_SBGRA ? "sRGB images are unorm8"
               : d->order == SPVI_ORDER_INTENSITY || d->order == SPVI_ORDER_LUMINANCE
                 ? "intensity and luminance take unorm8, unorm16, snorm8, snorm16, half or float"
                 : "bgra, argb and abgr take 8-bit channel types");
    return 0;
  }
  /* which sizes the type uses: width; height; depth; array size */
  static const bool uses[6][3] = {{false, false, false}, {false, false, false}, {false, false, true},
                                  {true, false, false},  {true, false, true},   {true, true, false}};
  const size_t sz[3] = {d->height, d->depth, d->array_size};
  static const char *const sname[3] = {"height", "depth", "array size"};
  if (d->width == 0 || d->width > MAX_IMAGE_SIZE) {
    ex_set_err(err, SPVI_E_USAGE, "%s width %zu is not in 1..%zu", tn, d->width, MAX_IMAGE_SIZE);
    return 0;
  }
  size_t n = d->width;
  for (int i = 0; i < 3; i++) {
    if (!uses[d->type][i]) {
      if (sz[i] > 1) {
        ex_set_err(err, SPVI_E_USAGE, "an %s has no %s (got %zu)", tn, sname[i], sz[i]);
        return 0;
      }
      continue;
    }
    if (sz[i] == 0 || sz[i] > MAX_IMAGE_SIZE) {
      ex_set_err(err, SPVI_E_USAGE, "%s %s %zu is not in 1..%zu", tn, sname[i], sz[i], MAX_IMAGE_SIZE);
      return 0;
    }
    if (n > SIZE_MAX / sz[i]) {
      ex_set_err(err, SPVI_E_USAGE, "%s is too large", tn);
      return 0;
    }
    n *= sz[i];
  }
  size_t px = (size_t)spvi_image_channels(d->order) * spvi_channel_type_bytes(d->channel_type);
  if (n > (SIZE_MAX / 2) / px) {
    ex_set_err(err, SPVI_E_USAGE, "%s is too large", tn);
    return 0;
  }
  return n * px;
}
