/*
 * cl_image.c — images, image formats, image commands and samplers (OpenCL 3.0 API 5.3 "Image
 * Objects", 5.4 is pipes, 5.9 "Sampler Objects").
 *
 * The bytes of an image are an spvi image (include/spvi.h "images and samplers"): the channels of a
 * pixel contiguous, x fastest, then y, then the slice (3D depth or array layer), no padding — the
 * "tight" layout. Every host-side layout (a host_ptr with pitches, the ptr of clEnqueueRead/
 * WriteImage, a buffer of clEnqueueCopyImageToBuffer) is described by a `view`: a base address and
 * the byte strides of the two outer coordinates, in the coordinates the API uses (origin[1] is the
 * row of a 2D image but the layer of a 1D image array). One routine copies a box between any two
 * views, so every command is a view plus a box.
 *
 * CL_MEM_USE_HOST_PTR: when the host pitches are the tight ones, spvi uses host_ptr in place (and
 * every command and kernel sees it directly). Otherwise spvi keeps a tight copy; the spec only asks
 * host_ptr to hold the latest bits of a region while it is mapped (5.3.6 "Mapping Image Objects":
 * "The host_ptr specified in clCreateImage is guaranteed to contain the latest bits in the region
 * being mapped when the clEnqueueMapImage command has completed"), so a map copies the region out
 * to host_ptr and returns a pointer into host_ptr, and the unmap of a writable mapping copies it
 * back (clx_image_unmap). Such a mapping is not marked `copy` (cl_mem.c frees the ptr of those):
 * its ptr is host_ptr memory, never allocated here; is_staged() tells the image's kind.
 *
 * clGetImageInfo's CL_IMAGE_ROW_PITCH / CL_IMAGE_SLICE_PITCH (kept in mem->desc) are the host_ptr's
 * pitches when the image was created with a host_ptr (as given, or computed from 0), the tight ones
 * otherwise; this is what the CTS (images/clGetInfo) checks. The tight strides are always
 * recomputed from the sizes.
 */
#include "cl_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void set_err(cl_int *errcode_ret, cl_int e) {
  if (errcode_ret) *errcode_ret = e;
}

/* ---- image formats (5.3.1.1 "Image Format Descriptor") ------------------------------------------
 * OpenCL's channel types and orders with spvi's counterpart (-1: a valid OpenCL format spvi cannot
 * store). The orders carry the set of channel types the spec allows with them (the table "List of
 * supported Image Channel Order Values" and its notes): a pair outside it is an invalid
 * descriptor, a valid pair spvi lacks is CL_IMAGE_FORMAT_NOT_SUPPORTED. */
enum {
  T_SNORM8,
  T_SNORM16,
  T_UNORM8,
  T_UNORM16,
  T_565,
  T_555,
  T_101010,
  T_SINT8,
  T_SINT16,
  T_SINT32,
  T_UINT8,
  T_UINT16,
  T_UINT32,
  T_HALF,
  T_FLOAT,
  T_UNORM24,
  T_101010_2,
  T_COUNT
};
static const struct {
  cl_channel_type cl;
  int spvi;
} ctypes[T_COUNT] = {
  [T_SNORM8] = {CL_SNORM_INT8, SPVI_SNORM_INT8},
  [T_SNORM16] = {CL_SNORM_INT16, SPVI_SNORM_INT16},
  [T_UNORM8] = {CL_UNORM_INT8, SPVI_UNORM_INT8},
  [T_UNORM16] = {CL_UNORM_INT16, SPVI_UNORM_INT16},
  [T_565] = {CL_UNORM_SHORT_565, -1},
  [T_555] = {CL_UNORM_SHORT_555, -1},
  [T_101010] = {CL_UNORM_INT_101010, -1},
  [T_SINT8] = {CL_SIGNED_INT8, SPVI_SIGNED_INT8},
  [T_SINT16] = {CL_SIGNED_INT16, SPVI_SIGNED_INT16},
  [T_SINT32] = {CL_SIGNED_INT32, SPVI_SIGNED_INT32},
  [T_UINT8] = {CL_UNSIGNED_INT8, SPVI_UNSIGNED_INT8},
  [T_UINT16] = {CL_UNSIGNED_INT16, SPVI_UNSIGNED_INT16},
  [T_UINT32] = {CL_UNSIGNED_INT32, SPVI_UNSIGNED_INT32},
  [T_HALF] = {CL_HALF_FLOAT, SPVI_HALF_FLOAT},
  [T_FLOAT] = {CL_FLOAT, SPVI_FLOAT},
  [T_UNORM24] = {CL_UNORM_INT24, -1},
  [T_101010_2] = {CL_UNORM_INT_101010_2, -1},
};

#define TB(t) (1u << (t))
/* "any" in the spec's table: every type that is not packed nor a depth type */
#define TS_PLAIN                                                                                             \
  (TB(T_SNORM8) | TB(T_SNORM16) | TB(T_UNORM8) | TB(T_UNORM16) | TB(T_SINT8) | TB(T_SINT16) | TB(T_SINT32) | \
   TB(T_UINT8) | TB(T_UINT16) | TB(T_UINT32) | TB(T_HALF) | TB(T_FLOAT))
#define TS_8BIT (TB(T_SNORM8) | TB(T_UNORM8) | TB(T_SINT8) | TB(T_UINT8))
#define TS_NORMF (TB(T_SNORM8) | TB(T_SNORM16) | TB(T_UNORM8) | TB(T_UNORM16) | TB(T_HALF) | TB(T_FLOAT))
#define TS_PACKED (TB(T_565) | TB(T_555) | TB(T_101010))

static const struct {
  cl_channel_order cl;
  int spvi;
  unsigned types;
} corders[] = {
  {CL_R, SPVI_ORDER_R, TS_PLAIN},
  {CL_A, SPVI_ORDER_A, TS_PLAIN},
  {CL_RG, SPVI_ORDER_RG, TS_PLAIN},
  {CL_RA, SPVI_ORDER_RA, TS_PLAIN},
  {CL_RGB, -1, TS_PACKED},
  {CL_RGBA, SPVI_ORDER_RGBA, TS_PLAIN | TB(T_101010_2)},
  {CL_BGRA, SPVI_ORDER_BGRA, TS_8BIT},
  {CL_ARGB, SPVI_ORDER_ARGB, TS_8BIT},
  {CL_ABGR, SPVI_ORDER_ABGR, TS_8BIT},
  {CL_INTENSITY, SPVI_ORDER_INTENSITY, TS_NORMF},
  {CL_LUMINANCE, SPVI_ORDER_LUMINANCE, TS_NORMF},
  {CL_Rx, -1, TS_PLAIN},
  {CL_RGx, -1, TS_PLAIN},
  {CL_RGBx, -1, TS_PACKED},
  {CL_DEPTH, -1, TB(T_UNORM16) | TB(T_FLOAT) | TB(T_UNORM24)},
  {CL_DEPTH_STENCIL, -1, TB(T_UNORM24) | TB(T_FLOAT)},
  {CL_sRGB, -1, TB(T_UNORM8)},
  {CL_sRGBx, -1, TB(T_UNORM8)},
  {CL_sRGBA, SPVI_ORDER_SRGBA, TB(T_UNORM8)},
  {CL_sBGRA, SPVI_ORDER_SBGRA, TB(T_UNORM8)},
};
#define NORDERS (sizeof corders / sizeof corders[0])

static bool is_srgb(cl_channel_order o) { return o == CL_sRGBA || o == CL_sBGRA; }

/* CL_SUCCESS with spvi's order and type, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR for a pair OpenCL does
 * not define, CL_IMAGE_FORMAT_NOT_SUPPORTED for a valid one spvi cannot store. */
static cl_int format_check(const cl_image_format *f, spvi_channel_order *order, spvi_channel_type *type) {
  if (!f) return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
  int t = -1;
  for (int i = 0; i < T_COUNT; i++)
    if (ctypes[i].cl == f->image_channel_data_type) t = i;
  if (t < 0) return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
  for (size_t i = 0; i < NORDERS; i++) {
    if (corders[i].cl != f->image_channel_order) continue;
    if (!(corders[i].types & TB(t))) return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    if (corders[i].spvi < 0 || ctypes[t].spvi < 0) return CL_IMAGE_FORMAT_NOT_SUPPORTED;
    if (order) *order = (spvi_channel_order)corders[i].spvi;
    if (type) *type = (spvi_channel_type)ctypes[t].spvi;
    return CL_SUCCESS;
  }
  return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
}

/* ---- image types (5.3.1.2 "Image Descriptor") ------------------------------------------------ */
typedef struct img_type {
  cl_mem_object_type cl;
  spvi_image_type spvi;
  bool height, depth, array; /* the sizes the type uses besides the width */
  size_t max_w, max_h;       /* the device's limits (CL_DEVICE_IMAGE*_MAX_*) */
} img_type;
static const img_type img_types[] = {
  {CL_MEM_OBJECT_IMAGE1D, SPVI_IMAGE_1D, false, false, false, CLX_IMAGE2D_MAX, 1},
  {CL_MEM_OBJECT_IMAGE1D_BUFFER, SPVI_IMAGE_1D_BUFFER, false, false, false, CLX_IMAGE_MAX_BUFFER_SIZE, 1},
  {CL_MEM_OBJECT_IMAGE1D_ARRAY, SPVI_IMAGE_1D_ARRAY, false, false, true, CLX_IMAGE2D_MAX, 1},
  {CL_MEM_OBJECT_IMAGE2D, SPVI_IMAGE_2D, true, false, false, CLX_IMAGE2D_MAX, CLX_IMAGE2D_MAX},
  {CL_MEM_OBJECT_IMAGE2D_ARRAY, SPVI_IMAGE_2D_ARRAY, true, false, true, CLX_IMAGE2D_MAX, CLX_IMAGE2D_MAX},
  {CL_MEM_OBJECT_IMAGE3D, SPVI_IMAGE_3D, true, true, false, CLX_IMAGE3D_MAX, CLX_IMAGE3D_MAX},
};

static const img_type *img_type_of(cl_mem_object_type t) {
  for (size_t i = 0; i < sizeof img_types / sizeof img_types[0]; i++)
    if (img_types[i].cl == t) return &img_types[i];
  return NULL;
}

static bool is_image(cl_mem m) { return clx_valid(m, CLX_MEM) && img_type_of(m->type); }
static bool is_buffer(cl_mem m) { return clx_valid(m, CLX_MEM) && m->type == CL_MEM_OBJECT_BUFFER; }

/* The extent of an image in the API's coordinates: (w, 1, 1), (w, layers, 1), (w, h, 1),
 * (w, h, layers), (w, h, d). */
static void img_extent(cl_mem img, size_t ext[3]) {
  const img_type *t = img_type_of(img->type);
  ext[0] = img->desc.image_width;
  ext[1] = t->height ? img->desc.image_height : t->array ? img->desc.image_array_size : 1;
  ext[2] = t->depth ? img->desc.image_depth : (t->height && t->array) ? img->desc.image_array_size : 1;
}

/* ---- views and boxes ------------------------------------------------------------------------- */
typedef struct view {
  uint8_t *base;
  size_t s1, s2; /* bytes between consecutive origin[1] / origin[2] coordinates */
} view;

static uint8_t *view_at(view v, const size_t o[3], size_t elem) {
  return v.base + o[0] * elem + o[1] * v.s1 + o[2] * v.s2;
}

/* Copy the box `region` (pixels) at dorg of d from sorg of s. memmove: a copy within one image
 * has been checked not to overlap, but a host pointer may alias anything. */
static void copy_box(view d, const size_t dorg[3], view s, const size_t sorg[3], const size_t region[3], size_t elem) {
  size_t row = region[0] * elem;
  for (size_t z = 0; z < region[2]; z++)
    for (size_t y = 0; y < region[1]; y++) {
      const size_t dp[3] = {dorg[0], dorg[1] + y, dorg[2] + z}, sp[3] = {sorg[0], sorg[1] + y, sorg[2] + z};
      memmove(view_at(d, dp, elem), view_at(s, sp, elem), row);
    }
}

static void fill_box(view d, const size_t org[3], const size_t region[3], const uint8_t *px, size_t elem) {
  for (size_t z = 0; z < region[2]; z++)
    for (size_t y = 0; y < region[1]; y++) {
      const size_t p[3] = {org[0], org[1] + y, org[2] + z};
      uint8_t *row = view_at(d, p, elem);
      for (size_t x = 0; x < region[0]; x++) memcpy(row + x * elem, px, elem);
    }
}

/* spvi's bytes of the image, with the tight strides. */
static view tight_view(cl_mem img) {
  const img_type *t = img_type_of(img->type);
  size_t row = img->desc.image_width * img->elem_size;
  view v = {spvi_mem_data(img->m, NULL), row, 0};
  if (t->height) v.s2 = row * img->desc.image_height;
  return v;
}

/* A host layout with OpenCL pitches: the layers of a 1D image array are slice_pitch apart. */
static view pitch_view(const img_type *t, void *base, size_t row_pitch, size_t slice_pitch) {
  view v = {base, row_pitch, slice_pitch};
  if (t->array && !t->height) v.s1 = slice_pitch, v.s2 = 0;
  return v;
}

/* The host_ptr layout of an image created with CL_MEM_USE_HOST_PTR. */
static view host_view(cl_mem img) {
  return pitch_view(img_type_of(img->type), img->host_ptr, img->desc.image_row_pitch, img->desc.image_slice_pitch);
}

/* True when the image's bytes are a tight copy of a CL_MEM_USE_HOST_PTR host_ptr with other pitches
 * (synchronised at map/unmap, see the top of the file). */
static bool is_staged(cl_mem img) {
  if (!(img->flags & CL_MEM_USE_HOST_PTR) || img->parent || !img->host_ptr) return false;
  return (uint8_t *)spvi_mem_data(img->m, NULL) != (uint8_t *)img->host_ptr;
}

/* Pitches of a host layout for `region` of an image of type t (clEnqueueRead/WriteImage 5.3.4 and
 * clCreateImage's image_row_pitch / image_slice_pitch): 0 means tightly packed, anything else must
 * hold a row (slice); types without slices take no slice pitch. CL_INVALID_VALUE otherwise. */
static cl_int host_pitches(const img_type *t, const size_t region[3], size_t elem, size_t *row, size_t *slice) {
  size_t min_row = region[0] * elem;
  if (*row == 0) *row = min_row;
  if (*row < min_row) return CL_INVALID_VALUE;
  bool slices = t->array || t->depth;
  if (!slices) {
    if (*slice != 0) return CL_INVALID_VALUE;
    return CL_SUCCESS;
  }
  size_t rows = t->height ? region[1] : 1; /* a 1D array's "slice" is one row */
  if (rows && *row > SIZE_MAX / rows) return CL_INVALID_VALUE;
  if (*slice == 0) *slice = *row * rows;
  if (*slice < *row * rows) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

/* origin/region inside the image, no region size 0 (5.3.4: "CL_INVALID_VALUE if the region being
 * read or written specified by origin and region is out of bounds", and the per-type rules on
 * origin[1], origin[2], region[1], region[2], which the extent's 1s express). */
static cl_int check_box(cl_mem img, const size_t *origin, const size_t *region) {
  if (!origin || !region) return CL_INVALID_VALUE;
  size_t ext[3];
  img_extent(img, ext);
  for (int i = 0; i < 3; i++)
    if (region[i] == 0 || origin[i] > ext[i] || region[i] > ext[i] - origin[i]) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

/* ---- memory flags (5.2.1 "Memory Flags") ------------------------------------------------------ */
static bool flags_valid(cl_mem_flags f, bool query) {
  cl_mem_flags known = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR |
                       CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY |
                       CL_MEM_HOST_NO_ACCESS;
  /* CL_MEM_KERNEL_READ_AND_WRITE "is only used by clGetSupportedImageFormats" */
  if (query) known |= CL_MEM_KERNEL_READ_AND_WRITE;
  if (f & ~known) return false;
  int access = !!(f & CL_MEM_READ_WRITE) + !!(f & CL_MEM_WRITE_ONLY) + !!(f & CL_MEM_READ_ONLY);
  int host = !!(f & CL_MEM_HOST_WRITE_ONLY) + !!(f & CL_MEM_HOST_READ_ONLY) + !!(f & CL_MEM_HOST_NO_ACCESS);
  if (access > 1 || host > 1) return false;
  if ((f & CL_MEM_USE_HOST_PTR) && (f & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))) return false;
  return true;
}

#define ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_ACCESS_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define HOST_PTR_FLAGS (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)

/* An image made from a buffer or image (5.3.1: "CL_INVALID_VALUE if an image is being created from
 * another memory object (buffer or image)" when the flags contradict the parent's or name a host
 * pointer); the flags the image gets: the access, host access and host pointer flags not given are
 * inherited from the parent (5.3.1.2, mem_object). */
static cl_int inherit_flags(cl_mem parent, cl_mem_flags *flags) {
  cl_mem_flags f = *flags, p = parent->flags;
  if (f & HOST_PTR_FLAGS) return CL_INVALID_VALUE;
  if ((p & CL_MEM_WRITE_ONLY) && (f & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) return CL_INVALID_VALUE;
  if ((p & CL_MEM_READ_ONLY) && (f & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) return CL_INVALID_VALUE;
  if ((p & CL_MEM_HOST_WRITE_ONLY) && (f & CL_MEM_HOST_READ_ONLY)) return CL_INVALID_VALUE;
  if ((p & CL_MEM_HOST_READ_ONLY) && (f & CL_MEM_HOST_WRITE_ONLY)) return CL_INVALID_VALUE;
  if ((p & CL_MEM_HOST_NO_ACCESS) && (f & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))) return CL_INVALID_VALUE;
  if (!(f & ACCESS_FLAGS)) f |= p & ACCESS_FLAGS;
  if (!(f & HOST_ACCESS_FLAGS)) f |= p & HOST_ACCESS_FLAGS;
  f |= p & HOST_PTR_FLAGS;
  *flags = f;
  return CL_SUCCESS;
}

/* ---- clGetSupportedImageFormats (5.3.2.2) ------------------------------------------------------
 * Every pair spvi stores, for every image type. sRGB is listed for reading only: writing sRGB
 * images is cl_khr_srgb_image_writes, which the device does not advertise. */
static bool format_listed(size_t order_index, int type_index, cl_mem_flags flags) {
  cl_channel_order o = corders[order_index].cl;
  if (corders[order_index].spvi < 0 || ctypes[type_index].spvi < 0) return false;
  if (!(corders[order_index].types & TB(type_index))) return false;
  if (is_srgb(o) && (!(flags & CL_MEM_READ_ONLY) || (flags & CL_MEM_KERNEL_READ_AND_WRITE))) return false;
  return true;
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                                                   cl_mem_object_type image_type, cl_uint num_entries,
                                                                   cl_image_format *image_formats,
                                                                   cl_uint *num_image_formats) {
  if (!clx_valid(context, CLX_CONTEXT)) return CL_INVALID_CONTEXT;
  if (!flags_valid(flags, true) || !img_type_of(image_type)) return CL_INVALID_VALUE;
  if (num_entries == 0 && image_formats) return CL_INVALID_VALUE;
  cl_uint n = 0;
  for (size_t o = 0; o < NORDERS; o++)
    for (int t = 0; t < T_COUNT; t++) {
      if (!format_listed(o, t, flags)) continue;
      if (image_formats && n < num_entries) image_formats[n] = (cl_image_format){corders[o].cl, ctypes[t].cl};
      n++;
    }
  if (num_image_formats) *num_image_formats = n;
  return CL_SUCCESS;
}

/* ---- clCreateImage (5.3.1) ---------------------------------------------------------------------- */
typedef struct image_req {
  cl_context ctx;
  cl_mem_flags flags;
  cl_image_format format;
  spvi_image_desc sd; /* spvi's description */
  cl_image_desc desc; /* what the image reports (sizes of unused dimensions 0) */
  const img_type *type;
  size_t elem, bytes;
  cl_mem parent; /* mem_object: the buffer of a 1D image buffer, or a 2D image */
  void *host_ptr;
  cl_int fmt_status; /* format_check's answer, reported after the descriptor checks */
} image_req;

/* The sizes of the descriptor: those the type uses are >= 1 (CL_INVALID_IMAGE_DESCRIPTOR) and
 * within the device's limits (CL_INVALID_IMAGE_SIZE); the others are ignored and reported as 0. */
static cl_int check_sizes(image_req *r, const cl_image_desc *d) {
  const img_type *t = r->type;
  if (d->image_width == 0 || (t->height && d->image_height == 0) || (t->depth && d->image_depth == 0) ||
      (t->array && d->image_array_size == 0))
    return CL_INVALID_IMAGE_DESCRIPTOR;
  if (d->num_mip_levels != 0 || d->num_samples != 0) return CL_INVALID_IMAGE_DESCRIPTOR; /* no mipmaps, no MSAA */
  if (d->image_width > t->max_w || (t->height && d->image_height > t->max_h) ||
      (t->depth && d->image_depth > CLX_IMAGE3D_MAX) || (t->array && d->image_array_size > CLX_IMAGE_MAX_ARRAY_SIZE))
    return CL_INVALID_IMAGE_SIZE;
  r->desc.image_type = t->cl;
  r->desc.image_width = d->image_width;
  r->desc.image_height = t->height ? d->image_height : 0;
  r->desc.image_depth = t->depth ? d->image_depth : 0;
  r->desc.image_array_size = t->array ? d->image_array_size : 0;
  r->sd.type = t->spvi;
  r->sd.width = d->image_width;
  r->sd.height = t->height ? d->image_height : 1;
  r->sd.depth = t->depth ? d->image_depth : 1;
  r->sd.array_size = t->array ? d->image_array_size : 1;
  return CL_SUCCESS;
}

/* mem_object (5.3.1.2): a buffer for a 1D image buffer; for a 2D image, a buffer needs
 * cl_khr_image2d_from_buffer (not advertised: CL_INVALID_OPERATION, as the API's "2D image from a
 * buffer" feature query requires) and a 2D image gives a view of it with a compatible order; NULL
 * for the other types. */
static cl_int check_mem_object(image_req *r, const cl_image_desc *d) {
  cl_mem mo = d->mem_object;
  if (r->type->cl == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    if (!is_buffer(mo) || mo->ctx != r->ctx) return CL_INVALID_IMAGE_DESCRIPTOR;
    r->parent = mo;
    return CL_SUCCESS;
  }
  if (!mo) return CL_SUCCESS;
  if (r->type->cl != CL_MEM_OBJECT_IMAGE2D || !clx_valid(mo, CLX_MEM) || mo->ctx != r->ctx)
    return CL_INVALID_IMAGE_DESCRIPTOR;
  if (mo->type == CL_MEM_OBJECT_BUFFER) {
    clx_notify(r->ctx, "clCreateImage: 2D images from buffers (cl_khr_image2d_from_buffer) are not supported");
    return CL_INVALID_OPERATION;
  }
  if (mo->type != CL_MEM_OBJECT_IMAGE2D) return CL_INVALID_IMAGE_DESCRIPTOR;
  r->parent = mo;
  return CL_SUCCESS;
}

/* A 2D image viewing another one (5.3.1.2, mem_object): same sizes, same channel data type, the same
 * order or its sRGB / linear counterpart; CL_INVALID_IMAGE_FORMAT_DESCRIPTOR otherwise. */
static cl_int check_image_view(const image_req *r, const cl_image_desc *d) {
  cl_mem p = r->parent;
  cl_channel_order a = r->format.image_channel_order, b = p->format.image_channel_order;
  bool compatible = a == b || (a == CL_sRGBA && b == CL_RGBA) || (a == CL_RGBA && b == CL_sRGBA) ||
                    (a == CL_sBGRA && b == CL_BGRA) || (a == CL_BGRA && b == CL_sBGRA);
  if (!compatible || r->format.image_channel_data_type != p->format.image_channel_data_type ||
      d->image_width != p->desc.image_width || d->image_height != p->desc.image_height ||
      (d->image_row_pitch != 0 && d->image_row_pitch != p->desc.image_row_pitch))
    return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
  return CL_SUCCESS;
}

/* A 1D image buffer's image_row_pitch without a host_ptr: the pitch of its buffer's one row, which a
 * multiple of the element size at least a row long and within the buffer describes, as 5.3.1.2
 * lets "a 2D image created from a buffer" give its buffer's pitch ("the pitch specified (or computed
 * if pitch specified is 0)"). The CTS (kernel_image_methods 1Dbuffer) gives the buffer's size. */
static bool buffer_row_pitch_ok(const image_req *r, size_t row) {
  return r->type->cl == CL_MEM_OBJECT_IMAGE1D_BUFFER && row % r->elem == 0 && row >= r->desc.image_width * r->elem &&
         row <= r->parent->size;
}

/* image_row_pitch / image_slice_pitch (5.3.1.2): 0 without a host_ptr (a view of a 2D image has had
 * its row pitch checked against its parent's, a 1D image buffer's is buffer_row_pitch_ok); with one,
 * 0 (tightly packed) or at least a row and a multiple of the element size, the slice pitch (types
 * with slices only) at least a slice and a multiple of the row pitch. The image reports the
 * host_ptr's pitches, or the tight ones. */
static cl_int check_pitches(image_req *r, const cl_image_desc *d) {
  const img_type *t = r->type;
  bool slices = t->array || t->depth;
  size_t row = d->image_row_pitch, slice = slices ? d->image_slice_pitch : 0;
  size_t height = t->height ? r->desc.image_height : 1;
  if (r->host_ptr) {
    const size_t ext[3] = {r->desc.image_width, height, 1};
    if (row % r->elem || host_pitches(t, ext, r->elem, &row, &slice) != CL_SUCCESS || (slices && slice % row))
      return CL_INVALID_IMAGE_DESCRIPTOR;
    size_t n = slices ? (t->depth ? r->desc.image_depth : r->desc.image_array_size) : height;
    if ((slices ? slice : row) > SIZE_MAX / n) return CL_INVALID_IMAGE_DESCRIPTOR; /* larger than memory */
  } else {
    bool view = r->parent && r->parent->type != CL_MEM_OBJECT_BUFFER;
    if ((row && !view && !buffer_row_pitch_ok(r, row)) || d->image_slice_pitch) return CL_INVALID_IMAGE_DESCRIPTOR;
    row = r->desc.image_width * r->elem;
    slice = !slices ? 0 : t->height ? row * height : row;
  }
  r->desc.image_row_pitch = row;
  r->desc.image_slice_pitch = slice;
  return CL_SUCCESS;
}

/* CL_INVALID_HOST_PTR: a host_ptr exactly when USE_HOST_PTR or COPY_HOST_PTR asks for one. */
static cl_int check_host_ptr(const image_req *r) {
  bool wants = r->flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  return wants == (r->host_ptr != NULL) ? CL_SUCCESS : CL_INVALID_HOST_PTR;
}

/* The checks of 5.3.1's error list, in its order. */
static cl_int check_request(image_req *r, const cl_image_format *fmt, const cl_image_desc *d) {
  if (!flags_valid(r->flags, false)) return CL_INVALID_VALUE;
  r->fmt_status = format_check(fmt, &r->sd.order, &r->sd.channel_type);
  if (r->fmt_status == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) return r->fmt_status;
  r->format = *fmt;
  if (!d || !(r->type = img_type_of(d->image_type))) return CL_INVALID_IMAGE_DESCRIPTOR;
  cl_int e = check_mem_object(r, d);
  if (e == CL_SUCCESS) e = check_sizes(r, d);
  if (e != CL_SUCCESS) return e;
  if (r->parent && r->parent->type != CL_MEM_OBJECT_BUFFER && (e = check_image_view(r, d)) != CL_SUCCESS) return e;
  if (r->fmt_status != CL_SUCCESS) {
    clx_notify(r->ctx,
               "clCreateImage: image format (0x%x, 0x%x) is not supported (clGetSupportedImageFormats lists "
               "the supported ones)",
               (unsigned)fmt->image_channel_order, (unsigned)fmt->image_channel_data_type);
    return r->fmt_status;
  }
  r->elem = (size_t)spvi_image_channels(r->sd.order) * spvi_channel_type_bytes(r->sd.channel_type);
  if ((e = check_pitches(r, d)) != CL_SUCCESS) return e;
  if ((e = check_host_ptr(r)) != CL_SUCCESS) return e;
  if (r->parent && (e = inherit_flags(r->parent, &r->flags)) != CL_SUCCESS) return e;
  spvi_error serr;
  r->bytes = spvi_image_bytes(&r->sd, &serr);
  if (r->bytes == 0) { /* a size spvi cannot hold (above 2^24 pixels in one dimension) */
    clx_notify(r->ctx, "clCreateImage: %s", serr.message);
    return CL_INVALID_IMAGE_SIZE;
  }
  if (r->bytes > spvi_max_alloc_size()) {
    clx_notify(r->ctx, "clCreateImage: the image's %zu bytes exceed CL_DEVICE_MAX_MEM_ALLOC_SIZE", r->bytes);
    return CL_INVALID_IMAGE_SIZE;
  }
  if (r->parent && r->parent->type == CL_MEM_OBJECT_BUFFER && r->bytes > r->parent->size) {
    clx_notify(r->ctx, "clCreateImage: a 1D image buffer of %zu bytes does not fit in its %zu-byte buffer", r->bytes,
               r->parent->size);
    return CL_INVALID_IMAGE_SIZE;
  }
  return CL_SUCCESS;
}

/* True when every pixel has the same address in the host_ptr layout as in the tight one (pitches
 * of dimensions the image does not extend over do not matter). */
static bool host_is_tight(const image_req *r) {
  const img_type *t = r->type;
  size_t row = r->desc.image_width * r->elem, h = t->height ? r->desc.image_height : 1;
  size_t n1 = t->height ? h : t->array ? r->desc.image_array_size : 1;
  size_t n2 = t->depth ? r->desc.image_depth : t->height && t->array ? r->desc.image_array_size : 1;
  view host = pitch_view(t, NULL, r->desc.image_row_pitch, r->desc.image_slice_pitch);
  return (n1 == 1 || host.s1 == row) && (n2 == 1 || host.s2 == row * h);
}

/* The spvi memory object of an accepted request. */
static spvi_mem *image_bytes_new(const image_req *r, spvi_error *serr) {
  if (r->parent && r->parent->type == CL_MEM_OBJECT_BUFFER)
    return r->parent->m ? spvi_image_from_buffer(&r->sd, r->parent->m, serr)
                        : spvi_image_new(&r->sd, clx_mem_data(r->parent), serr);         /* an SVM-backed buffer */
  if (r->parent) return spvi_image_new(&r->sd, spvi_mem_data(r->parent->m, NULL), serr); /* a view of a 2D image */
  if ((r->flags & CL_MEM_USE_HOST_PTR) && host_is_tight(r)) return spvi_image_new(&r->sd, r->host_ptr, serr);
  return spvi_image_new(&r->sd, NULL, serr);
}

static cl_mem image_new(image_req *r, const cl_mem_properties *props, size_t nprops, cl_int *errcode_ret) {
  spvi_error serr;
  spvi_mem *sm = image_bytes_new(r, &serr);
  if (!sm) {
    clx_notify(r->ctx, "clCreateImage: %s", serr.message);
    set_err(errcode_ret, serr.status == SPVI_E_NOMEM ? CL_MEM_OBJECT_ALLOCATION_FAILURE : CL_INVALID_IMAGE_DESCRIPTOR);
    return NULL;
  }
  cl_mem img = clx_mem_new(r->ctx, r->type->cl, r->flags);
  if (!img) {
    spvi_mem_release(sm);
    set_err(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  img->m = sm;
  img->size = r->bytes;
  img->format = r->format;
  img->desc = r->desc;
  img->desc.mem_object = r->parent;
  img->elem_size = r->elem;
  img->host_ptr = (r->flags & CL_MEM_USE_HOST_PTR) && !r->parent ? r->host_ptr : NULL;
  if (r->parent) clx_hold(r->parent), img->parent = r->parent;
  for (size_t i = 0; i < nprops; i++) img->props[i] = props[i];
  img->nprops = nprops;
  /* initial contents: COPY_HOST_PTR, and USE_HOST_PTR kept as a tight copy */
  if (r->host_ptr && !r->parent && (uint8_t *)spvi_mem_data(sm, NULL) != (uint8_t *)r->host_ptr) {
    size_t ext[3], zero[3] = {0, 0, 0};
    img_extent(img, ext);
    view h = pitch_view(r->type, r->host_ptr, r->desc.image_row_pitch, r->desc.image_slice_pitch);
    copy_box(tight_view(img), zero, h, zero, ext, r->elem);
  }
  set_err(errcode_ret, CL_SUCCESS);
  return img;
}

/* clCreateImageWithProperties' properties: OpenCL 3.0 defines no image property (only extensions
 * do), so any name is CL_INVALID_PROPERTY; an empty list is kept for CL_MEM_PROPERTIES. */
static cl_int image_props(const cl_mem_properties *props, size_t *nprops) {
  *nprops = 0;
  if (!props) return CL_SUCCESS;
  if (props[0] != 0) return CL_INVALID_PROPERTY;
  *nprops = 1;
  return CL_SUCCESS;
}

CLX_API CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context,
                                                                    const cl_mem_properties *properties,
                                                                    cl_mem_flags flags,
                                                                    const cl_image_format *image_format,
                                                                    const cl_image_desc *image_desc, void *host_ptr,
                                                                    cl_int *errcode_ret) {
  if (!clx_valid(context, CLX_CONTEXT)) return set_err(errcode_ret, CL_INVALID_CONTEXT), NULL;
  size_t nprops;
  cl_int e = image_props(properties, &nprops);
  if (e != CL_SUCCESS) {
    clx_notify(context, "clCreateImageWithProperties: unknown property 0x%llx", (unsigned long long)properties[0]);
    return set_err(errcode_ret, e), NULL;
  }
  image_req r = {.ctx = context, .flags = flags, .host_ptr = host_ptr};
  if ((e = check_request(&r, image_format, image_desc)) != CL_SUCCESS) return set_err(errcode_ret, e), NULL;
  return image_new(&r, properties, nprops, errcode_ret);
}

CLX_API CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
                                                      const cl_image_format *image_format,
                                                      const cl_image_desc *image_desc, void *host_ptr,
                                                      cl_int *errcode_ret) {
  return clCreateImageWithProperties(context, NULL, flags, image_format, image_desc, host_ptr, errcode_ret);
}

/* The OpenCL 1.1 forms: their descriptor errors are CL_INVALID_IMAGE_SIZE ("if image_width or
 * image_height are 0 or ... if values specified by image_row_pitch do not follow rules"), and a 3D
 * image needs a depth above 1. */
static cl_mem create_legacy(cl_context context, cl_mem_flags flags, const cl_image_format *format,
                            const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret) {
  cl_int e;
  cl_mem m = clCreateImage(context, flags, format, desc, host_ptr, &e);
  if (e == CL_INVALID_IMAGE_DESCRIPTOR) e = CL_INVALID_IMAGE_SIZE;
  set_err(errcode_ret, e);
  return m;
}

CLX_API CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                                        const cl_image_format *image_format, size_t image_width,
                                                        size_t image_height, size_t image_row_pitch, void *host_ptr,
                                                        cl_int *errcode_ret) {
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                     .image_width = image_width,
                     .image_height = image_height,
                     .image_row_pitch = image_row_pitch};
  return create_legacy(context, flags, image_format, &d, host_ptr, errcode_ret);
}

CLX_API CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                                        const cl_image_format *image_format, size_t image_width,
                                                        size_t image_height, size_t image_depth, size_t image_row_pitch,
                                                        size_t image_slice_pitch, void *host_ptr, cl_int *errcode_ret) {
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE3D,
                     .image_width = image_width,
                     .image_height = image_height,
                     .image_depth = image_depth,
                     .image_row_pitch = image_row_pitch,
                     .image_slice_pitch = image_slice_pitch};
  if (image_depth <= 1) d.image_depth = 0; /* a descriptor error, reported as CL_INVALID_IMAGE_SIZE */
  return create_legacy(context, flags, image_format, &d, host_ptr, errcode_ret);
}

/* ---- clGetImageInfo (5.3.7) --------------------------------------------------------------------- */
CLX_API CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
                                                       void *param_value, size_t *param_value_size_ret) {
  if (!is_image(image)) return CL_INVALID_MEM_OBJECT;
  const cl_image_desc *d = &image->desc;
  size_t sz;
  cl_uint zero = 0;
  cl_mem buffer = image->parent && image->parent->type == CL_MEM_OBJECT_BUFFER ? image->parent : NULL;
  const void *v;
  switch (param_name) {
  case CL_IMAGE_FORMAT: v = &image->format, sz = sizeof image->format; break;
  case CL_IMAGE_ELEMENT_SIZE: v = &image->elem_size, sz = sizeof(size_t); break;
  case CL_IMAGE_ROW_PITCH: v = &d->image_row_pitch, sz = sizeof(size_t); break;
  case CL_IMAGE_SLICE_PITCH: v = &d->image_slice_pitch, sz = sizeof(size_t); break;
  case CL_IMAGE_WIDTH: v = &d->image_width, sz = sizeof(size_t); break;
  case CL_IMAGE_HEIGHT: v = &d->image_height, sz = sizeof(size_t); break;
  case CL_IMAGE_DEPTH: v = &d->image_depth, sz = sizeof(size_t); break;
  case CL_IMAGE_ARRAY_SIZE: v = &d->image_array_size, sz = sizeof(size_t); break;
  case CL_IMAGE_BUFFER: v = &buffer, sz = sizeof buffer; break;
  case CL_IMAGE_NUM_MIP_LEVELS:
  case CL_IMAGE_NUM_SAMPLES: v = &zero, sz = sizeof zero; break;
  default: return CL_INVALID_VALUE;
  }
  return clx_info(param_value_size, param_value, param_value_size_ret, v, sz);
}

/* ---- image commands (5.3.4 - 5.3.6) -------------------------------------------------------------
 * One payload for all of them: copy region from (src view, sorg) to (dst view, dorg), or fill it
 * with a pixel. The memory objects are held until the command is finished. */
typedef struct img_cmd {
  cl_mem held[2];
  view src, dst;
  size_t sorg[3], dorg[3], region[3], elem;
  bool fill, nop;
  uint8_t pixel[16];
} img_cmd;

static cl_int img_cmd_run(cl_event ev) {
  img_cmd *c = ev->payload;
  if (c->nop) return CL_SUCCESS;
  if (c->fill) fill_box(c->dst, c->dorg, c->region, c->pixel, c->elem);
  else copy_box(c->dst, c->dorg, c->src, c->sorg, c->region, c->elem);
  return CL_SUCCESS;
}

static void img_cmd_fini(cl_event ev) {
  img_cmd *c = ev->payload;
  if (!c) return;
  for (int i = 0; i < 2; i++)
    if (c->held[i]) clx_unhold(c->held[i]);
  free(c);
  ev->payload = NULL;
}

static cl_int img_cmd_submit(cl_command_queue q, cl_command_type type, const img_cmd *c, cl_uint nwait,
                             const cl_event *wait, cl_event *event, bool blocking) {
  img_cmd *p = malloc(sizeof *p);
  if (!p) return CL_OUT_OF_HOST_MEMORY;
  *p = *c;
  for (int i = 0; i < 2; i++)
    if (p->held[i]) clx_hold(p->held[i]);
  return clx_submit_command(q, type, img_cmd_run, img_cmd_fini, p, nwait, wait, event, blocking);
}

/* The checks every image command starts with: CL_INVALID_COMMAND_QUEUE, then CL_INVALID_MEM_OBJECT
 * for a handle that is no image, then CL_INVALID_CONTEXT for one of another context. */
static cl_int check_queue_image(cl_command_queue q, cl_mem img) {
  if (!clx_valid(q, CLX_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (!is_image(img)) return CL_INVALID_MEM_OBJECT;
  if (img->ctx != q->ctx) return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

static void copy3(size_t d[3], const size_t s[3]) { memcpy(d, s, 3 * sizeof(size_t)); }

/* clEnqueueReadImage / clEnqueueWriteImage (5.3.4): ptr's layout has row_pitch / slice_pitch (0:
 * tightly packed; a 1D or 2D image takes no slice pitch). The host must not read (write) an image
 * created with CL_MEM_HOST_WRITE_ONLY (HOST_READ_ONLY) or CL_MEM_HOST_NO_ACCESS: CL_INVALID_OPERATION. */
static cl_int enqueue_rw(cl_command_queue q, cl_mem img, bool write, cl_bool blocking, const size_t *origin,
                         const size_t *region, size_t row_pitch, size_t slice_pitch, const void *ptr, cl_uint nwait,
                         const cl_event *wait, cl_event *event) {
  cl_int e = check_queue_image(q, img);
  if (e != CL_SUCCESS) return e;
  if ((e = check_box(img, origin, region)) != CL_SUCCESS) return e;
  if (!ptr) return CL_INVALID_VALUE;
  const img_type *t = img_type_of(img->type);
  if ((e = host_pitches(t, region, img->elem_size, &row_pitch, &slice_pitch)) != CL_SUCCESS) return e;
  if ((e = clx_check_wait_list(q->ctx, nwait, wait)) != CL_SUCCESS) return e;
  cl_mem_flags forbidden = write ? CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS
                                 : CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS;
  if (img->flags & forbidden) {
    clx_notify(q->ctx, "clEnqueue%sImage: the image was created with host access flags that forbid it",
               write ? "Write" : "Read");
    return CL_INVALID_OPERATION;
  }
  img_cmd c = {.held = {img}, .elem = img->elem_size};
  view host = pitch_view(t, (void *)ptr, row_pitch, slice_pitch), image = tight_view(img);
  const size_t zero[3] = {0, 0, 0};
  c.src = write ? host : image;
  c.dst = write ? image : host;
  copy3(c.sorg, write ? zero : origin);
  copy3(c.dorg, write ? origin : zero);
  copy3(c.region, region);
  return img_cmd_submit(q, write ? CL_COMMAND_WRITE_IMAGE : CL_COMMAND_READ_IMAGE, &c, nwait, wait, event, blocking);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem image,
                                                           cl_bool blocking_read, const size_t *origin,
                                                           const size_t *region, size_t row_pitch, size_t slice_pitch,
                                                           void *ptr, cl_uint num_events_in_wait_list,
                                                           const cl_event *event_wait_list, cl_event *event) {
  return enqueue_rw(command_queue, image, false, blocking_read, origin, region, row_pitch, slice_pitch, ptr,
                    num_events_in_wait_list, event_wait_list, event);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image,
                                                            cl_bool blocking_write, const size_t *origin,
                                                            const size_t *region, size_t input_row_pitch,
                                                            size_t input_slice_pitch, const void *ptr,
                                                            cl_uint num_events_in_wait_list,
                                                            const cl_event *event_wait_list, cl_event *event) {
  return enqueue_rw(command_queue, image, true, blocking_write, origin, region, input_row_pitch, input_slice_pitch, ptr,
                    num_events_in_wait_list, event_wait_list, event);
}

/* Two boxes of one image overlap when they overlap on every axis. */
static bool boxes_overlap(const size_t a[3], const size_t b[3], const size_t region[3]) {
  for (int i = 0; i < 3; i++)
    if (a[i] >= b[i] + region[i] || b[i] >= a[i] + region[i]) return false;
  return true;
}

/* clEnqueueCopyImage (5.3.5): the same format on both sides (CL_IMAGE_FORMAT_MISMATCH), each box
 * inside its image, no overlap within one image (CL_MEM_COPY_OVERLAP). */
CLX_API CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image,
                                                           cl_mem dst_image, const size_t *src_origin,
                                                           const size_t *dst_origin, const size_t *region,
                                                           cl_uint num_events_in_wait_list,
                                                           const cl_event *event_wait_list, cl_event *event) {
  cl_int e = check_queue_image(command_queue, src_image);
  if (e == CL_SUCCESS) e = check_queue_image(command_queue, dst_image);
  if (e != CL_SUCCESS) return e;
  if (src_image->format.image_channel_order != dst_image->format.image_channel_order ||
      src_image->format.image_channel_data_type != dst_image->format.image_channel_data_type)
    return CL_IMAGE_FORMAT_MISMATCH;
  if ((e = check_box(src_image, src_origin, region)) != CL_SUCCESS) return e;
  if ((e = check_box(dst_image, dst_origin, region)) != CL_SUCCESS) return e;
  if ((e = clx_check_wait_list(command_queue->ctx, num_events_in_wait_list, event_wait_list)) != CL_SUCCESS) return e;
  if (src_image == dst_image && boxes_overlap(src_origin, dst_origin, region)) return CL_MEM_COPY_OVERLAP;
  img_cmd c = {.held = {src_image, dst_image}, .elem = src_image->elem_size};
  c.src = tight_view(src_image);
  c.dst = tight_view(dst_image);
  copy3(c.sorg, src_origin);
  copy3(c.dorg, dst_origin);
  copy3(c.region, region);
  return img_cmd_submit(command_queue, CL_COMMAND_COPY_IMAGE, &c, num_events_in_wait_list, event_wait_list, event,
                        false);
}

/* The buffer side of an image <-> buffer copy (5.3.5): the region's pixels tightly packed from
 * `offset`, CL_INVALID_VALUE when they do not fit; CL_INVALID_MEM_OBJECT for a 1D image buffer made
 * from that very buffer. */
static cl_int buffer_side(cl_command_queue q, cl_mem img, cl_mem buf, size_t offset, const size_t *region, view *v) {
  if (!is_buffer(buf)) return CL_INVALID_MEM_OBJECT;
  if (buf->ctx != q->ctx) return CL_INVALID_CONTEXT;
  if (img->type == CL_MEM_OBJECT_IMAGE1D_BUFFER && img->parent == buf) return CL_INVALID_MEM_OBJECT;
  if (!region) return CL_INVALID_VALUE;
  size_t row = region[0] * img->elem_size;
  size_t bytes = row * region[1] * region[2]; /* bounded by the image's size once the box is checked */
  if (offset > buf->size || bytes > buf->size - offset) return CL_INVALID_VALUE;
  *v = (view){(uint8_t *)clx_mem_data(buf) + offset, row, row * region[1]};
  return CL_SUCCESS;
}

static cl_int enqueue_image_buffer(cl_command_queue q, cl_mem img, cl_mem buf, bool to_buffer, const size_t *origin,
                                   const size_t *region, size_t offset, cl_uint nwait, const cl_event *wait,
                                   cl_event *event) {
  cl_int e = check_queue_image(q, img);
  view bv;
  if (e == CL_SUCCESS) e = buffer_side(q, img, buf, offset, region, &bv);
  if (e == CL_SUCCESS) e = check_box(img, origin, region);
  if (e == CL_SUCCESS) e = clx_check_wait_list(q->ctx, nwait, wait);
  if (e != CL_SUCCESS) return e;
  img_cmd c = {.held = {img, buf}, .elem = img->elem_size};
  const size_t zero[3] = {0, 0, 0};
  c.src = to_buffer ? tight_view(img) : bv;
  c.dst = to_buffer ? bv : tight_view(img);
  copy3(c.sorg, to_buffer ? origin : zero);
  copy3(c.dorg, to_buffer ? zero : origin);
  copy3(c.region, region);
  return img_cmd_submit(q, to_buffer ? CL_COMMAND_COPY_IMAGE_TO_BUFFER : CL_COMMAND_COPY_BUFFER_TO_IMAGE, &c, nwait,
                        wait, event, false);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                                                                   cl_mem dst_buffer, const size_t *src_origin,
                                                                   const size_t *region, size_t dst_offset,
                                                                   cl_uint num_events_in_wait_list,
                                                                   const cl_event *event_wait_list, cl_event *event) {
  return enqueue_image_buffer(command_queue, src_image, dst_buffer, true, src_origin, region, dst_offset,
                              num_events_in_wait_list, event_wait_list, event);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer,
                                                                   cl_mem dst_image, size_t src_offset,
                                                                   const size_t *dst_origin, const size_t *region,
                                                                   cl_uint num_events_in_wait_list,
                                                                   const cl_event *event_wait_list, cl_event *event) {
  return enqueue_image_buffer(command_queue, dst_image, src_buffer, false, dst_origin, region, src_offset,
                              num_events_in_wait_list, event_wait_list, event);
}

/* ---- fill colour -> pixel (5.3.5 clEnqueueFillImage: "The fill color is a single floating point
 * value if the channel order is CL_DEPTH. Otherwise, the fill color is a four component RGBA
 * floating-point color value if the image channel data type is not an unnormalized signed or
 * unsigned integer type, ... a four component signed integer value ... unsigned integer value ...
 * The fill color will be converted to the appropriate image channel format and order associated
 * with image"; the conversions are write_image{f,i,ui}'s: OpenCL C 8.3.1 - 8.3.5). ------------- */

/* The colour component stored in each channel, in memory order (0 r, 1 g, 2 b, 3 a). */
static const struct {
  spvi_channel_order order;
  uint8_t n, comp[4];
} order_comps[] = {
  {SPVI_ORDER_R, 1, {0}},
  {SPVI_ORDER_A, 1, {3}},
  {SPVI_ORDER_RG, 2, {0, 1}},
  {SPVI_ORDER_RA, 2, {0, 3}},
  {SPVI_ORDER_RGBA, 4, {0, 1, 2, 3}},
  {SPVI_ORDER_BGRA, 4, {2, 1, 0, 3}},
  {SPVI_ORDER_ARGB, 4, {3, 0, 1, 2}},
  {SPVI_ORDER_ABGR, 4, {3, 2, 1, 0}},
  {SPVI_ORDER_INTENSITY, 1, {0}},
  {SPVI_ORDER_LUMINANCE, 1, {0}},
  {SPVI_ORDER_SRGBA, 4, {0, 1, 2, 3}},
  {SPVI_ORDER_SBGRA, 4, {2, 1, 0, 3}},
};

/* convert_<int>_sat_rte: NaN is 0, out-of-range values saturate, the rest round to nearest even. */
static int64_t sat_rte(double x, int64_t lo, int64_t hi) {
  if (isnan(x)) return 0;
  if (x <= (double)lo) return lo;
  if (x >= (double)hi) return hi;
  return (int64_t)nearbyint(x);
}

static int64_t clamp_i(int64_t x, int64_t lo, int64_t hi) { return x < lo ? lo : x > hi ? hi : x; }

/* OpenCL C 8.3.5: linear -> sRGB of a colour channel, then unorm8. */
static int64_t srgb_unorm8(float f) {
  double c = isnan(f) ? 0.0 : f > 1.0f ? 1.0 : f < 0.0f ? 0.0 : (double)f;
  c = c < 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1.0 / 2.4) - 0.055;
  return sat_rte(c * 255.0, 0, 255);
}

static void store_channel(uint8_t *p, size_t bytes, uint64_t v) {
  if (bytes == 1) {
    uint8_t x = (uint8_t)v;
    memcpy(p, &x, 1);
  } else if (bytes == 2) {
    uint16_t x = (uint16_t)v;
    memcpy(p, &x, 2);
  } else {
    uint32_t x = (uint32_t)v;
    memcpy(p, &x, 4);
  }
}

/* One channel of component `comp` of the fill colour, stored at p. Products are formed in float as
 * OpenCL C writes them (f * 255.0f), then rounded once. */
static void convert_channel(spvi_channel_type t, bool srgb, int comp, const void *color, uint8_t *p) {
  float f = ((const float *)color)[comp];
  int32_t i = ((const int32_t *)color)[comp];
  uint32_t u = ((const uint32_t *)color)[comp];
  switch (t) {
  case SPVI_UNORM_INT8:
    store_channel(p, 1, (uint64_t)(srgb && comp < 3 ? srgb_unorm8(f) : sat_rte(f * 255.0f, 0, 255)));
    break;
  case SPVI_UNORM_INT16: store_channel(p, 2, (uint64_t)sat_rte(f * 65535.0f, 0, 65535)); break;
  case SPVI_SNORM_INT8: store_channel(p, 1, (uint64_t)sat_rte(f * 127.0f, -128, 127)); break;
  case SPVI_SNORM_INT16: store_channel(p, 2, (uint64_t)sat_rte(f * 32767.0f, -32768, 32767)); break;
  case SPVI_HALF_FLOAT: store_channel(p, 2, spvi_half_from_double(f)); break;
  case SPVI_FLOAT: memcpy(p, &f, 4); break;
  case SPVI_SIGNED_INT8: store_channel(p, 1, (uint64_t)clamp_i(i, -128, 127)); break;
  case SPVI_SIGNED_INT16: store_channel(p, 2, (uint64_t)clamp_i(i, -32768, 32767)); break;
  case SPVI_SIGNED_INT32: store_channel(p, 4, (uint32_t)i); break;
  case SPVI_UNSIGNED_INT8: store_channel(p, 1, u > 255 ? 255 : u); break;
  case SPVI_UNSIGNED_INT16: store_channel(p, 2, u > 65535 ? 65535 : u); break;
  case SPVI_UNSIGNED_INT32: store_channel(p, 4, u); break;
  }
}

static void fill_pixel(cl_mem img, const void *color, uint8_t px[16]) {
  spvi_channel_order o;
  spvi_channel_type t;
  format_check(&img->format, &o, &t);
  size_t cb = spvi_channel_type_bytes(t);
  for (size_t i = 0; i < sizeof order_comps / sizeof order_comps[0]; i++) {
    if (order_comps[i].order != o) continue;
    for (unsigned c = 0; c < order_comps[i].n; c++)
      convert_channel(t, is_srgb(img->format.image_channel_order), order_comps[i].comp[c], color, px + c * cb);
  }
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image,
                                                           const void *fill_color, const size_t *origin,
                                                           const size_t *region, cl_uint num_events_in_wait_list,
                                                           const cl_event *event_wait_list, cl_event *event) {
  cl_int e = check_queue_image(command_queue, image);
  if (e != CL_SUCCESS) return e;
  if (!fill_color) return CL_INVALID_VALUE;
  if ((e = check_box(image, origin, region)) != CL_SUCCESS) return e;
  if ((e = clx_check_wait_list(command_queue->ctx, num_events_in_wait_list, event_wait_list)) != CL_SUCCESS) return e;
  img_cmd c = {.held = {image}, .elem = image->elem_size, .fill = true};
  fill_pixel(image, fill_color, c.pixel); /* now: fill_color may be reused once the call returns */
  c.dst = tight_view(image);
  copy3(c.dorg, origin);
  copy3(c.region, region);
  return img_cmd_submit(command_queue, CL_COMMAND_FILL_IMAGE, &c, num_events_in_wait_list, event_wait_list, event,
                        false);
}

/* ---- mapping (5.3.6 clEnqueueMapImage; the unmap is cl_mem.c's clEnqueueUnmapMemObject) -------- */
/* CL_INVALID_OPERATION when the image's host access flags forbid what the map asks for. */
static bool map_allowed(cl_mem img, cl_map_flags f) {
  if ((f & CL_MAP_READ) && (img->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))) return false;
  if ((f & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
      (img->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)))
    return false;
  return true;
}

static void mapping_remove(cl_mem img, clx_mapping *map) {
  pthread_mutex_lock(&img->lock);
  for (clx_mapping **p = &img->maps; *p; p = &(*p)->next)
    if (*p == map) {
      *p = map->next;
      break;
    }
  atomic_fetch_sub(&img->map_count, 1);
  pthread_mutex_unlock(&img->lock);
  free(map);
}

/* The mapping of a box: a pointer into spvi's bytes, or into host_ptr for a staged image (whose
 * map command copies the box out unless the map invalidates it). */
static clx_mapping *mapping_new(cl_mem img, cl_map_flags flags, const size_t *origin, const size_t *region) {
  clx_mapping *map = calloc(1, sizeof *map);
  if (!map) return NULL;
  const img_type *t = img_type_of(img->type);
  bool staged = is_staged(img);
  view v = staged ? host_view(img) : tight_view(img);
  map->ptr = view_at(v, origin, img->elem_size);
  map->offset = (size_t)((uint8_t *)map->ptr - v.base); /* byte offset of the box in its layout */
  map->size = (region[2] - 1) * v.s2 + (region[1] - 1) * v.s1 + region[0] * img->elem_size;
  copy3(map->origin, origin);
  copy3(map->region, region);
  map->row_pitch = staged ? img->desc.image_row_pitch : img->desc.image_width * img->elem_size;
  map->slice_pitch = t->depth || (t->array && t->height) ? v.s2 : t->array ? v.s1 : 0;
  map->flags = flags;
  map->copy = false; /* never: cl_mem.c frees a `copy` mapping's ptr, and ours is host_ptr memory */
  pthread_mutex_lock(&img->lock);
  map->next = img->maps;
  img->maps = map;
  atomic_fetch_add(&img->map_count, 1);
  pthread_mutex_unlock(&img->lock);
  return map;
}

static cl_int enqueue_map(cl_command_queue q, cl_mem img, cl_bool blocking, cl_map_flags flags, const size_t *origin,
                          const size_t *region, size_t *row_pitch, size_t *slice_pitch, cl_uint nwait,
                          const cl_event *wait, cl_event *event, void **out) {
  cl_int e = check_queue_image(q, img);
  if (e != CL_SUCCESS) return e;
  const img_type *t = img_type_of(img->type);
  if ((e = check_box(img, origin, region)) != CL_SUCCESS) return e;
  /* "CL_INVALID_VALUE if image_row_pitch is NULL", "if image is a 3D image, 1D or 2D image array
   * object and image_slice_pitch is NULL" */
  if (!row_pitch || (!slice_pitch && (t->depth || t->array)) || clx_check_map_flags(flags) != CL_SUCCESS)
    return CL_INVALID_VALUE;
  if ((e = clx_check_wait_list(q->ctx, nwait, wait)) != CL_SUCCESS) return e;
  if (!map_allowed(img, flags)) {
    clx_notify(q->ctx, "clEnqueueMapImage: the image's host access flags forbid this map");
    return CL_INVALID_OPERATION;
  }
  clx_mapping *map = mapping_new(img, flags, origin, region);
  if (!map) return CL_OUT_OF_HOST_MEMORY;
  bool staged = is_staged(img);
  img_cmd c = {.held = {img}, .elem = img->elem_size, .nop = !staged || (flags & CL_MAP_WRITE_INVALIDATE_REGION)};
  if (staged) {
    c.src = tight_view(img);
    c.dst = host_view(img);
    copy3(c.sorg, origin);
    copy3(c.dorg, origin);
    copy3(c.region, region);
  }
  e = img_cmd_submit(q, CL_COMMAND_MAP_IMAGE, &c, nwait, wait, event, blocking);
  if (e != CL_SUCCESS) {
    mapping_remove(img, map);
    return e;
  }
  *row_pitch = map->row_pitch;
  if (slice_pitch) *slice_pitch = map->slice_pitch;
  *out = map->ptr;
  return CL_SUCCESS;
}

CLX_API CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image,
                                                         cl_bool blocking_map, cl_map_flags map_flags,
                                                         const size_t *origin, const size_t *region,
                                                         size_t *image_row_pitch, size_t *image_slice_pitch,
                                                         cl_uint num_events_in_wait_list,
                                                         const cl_event *event_wait_list, cl_event *event,
                                                         cl_int *errcode_ret) {
  void *p = NULL;
  cl_int e = enqueue_map(command_queue, image, blocking_map, map_flags, origin, region, image_row_pitch,
                         image_slice_pitch, num_events_in_wait_list, event_wait_list, event, &p);
  set_err(errcode_ret, e);
  return e == CL_SUCCESS ? p : NULL;
}

/* A staged image's writable mapping goes back to spvi's bytes; zero-copy mappings need nothing. */
void clx_image_unmap(cl_mem img, const clx_mapping *map) {
  if (!is_staged(img) || !(map->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))) return;
  copy_box(tight_view(img), map->origin, host_view(img), map->origin, map->region, img->elem_size);
}

/* ---- samplers (5.9) -------------------------------------------------------------------------- */
static const struct {
  cl_addressing_mode cl;
  spvi_addressing spvi;
} addr_modes[] = {
  {CL_ADDRESS_NONE, SPVI_ADDRESS_NONE},
  {CL_ADDRESS_CLAMP_TO_EDGE, SPVI_ADDRESS_CLAMP_TO_EDGE},
  {CL_ADDRESS_CLAMP, SPVI_ADDRESS_CLAMP},
  {CL_ADDRESS_REPEAT, SPVI_ADDRESS_REPEAT},
  {CL_ADDRESS_MIRRORED_REPEAT, SPVI_ADDRESS_MIRRORED_REPEAT},
};
static const struct {
  cl_filter_mode cl;
  spvi_filter spvi;
} filter_modes[] = {
  {CL_FILTER_NEAREST, SPVI_FILTER_NEAREST},
  {CL_FILTER_LINEAR, SPVI_FILTER_LINEAR},
};
#define NADDR (sizeof addr_modes / sizeof addr_modes[0])
#define NFILTER (sizeof filter_modes / sizeof filter_modes[0])

static int addr_index(cl_addressing_mode a) {
  for (size_t i = 0; i < NADDR; i++)
    if (addr_modes[i].cl == a) return (int)i;
  return -1;
}
static int filter_index(cl_filter_mode f) {
  for (size_t i = 0; i < NFILTER; i++)
    if (filter_modes[i].cl == f) return (int)i;
  return -1;
}

spvi_sampler clx_sampler_spvi(cl_sampler s) {
  spvi_sampler r = {s->normalized == CL_TRUE, SPVI_ADDRESS_CLAMP, SPVI_FILTER_NEAREST};
  int a = addr_index(s->addressing), f = filter_index(s->filter);
  if (a >= 0) r.addressing = addr_modes[a].spvi;
  if (f >= 0) r.filter = filter_modes[f].spvi;
  return r;
}

static void sampler_destroy(void *obj) {
  cl_sampler s = obj;
  clx_unhold(s->ctx);
  clx_obj_free(s, sizeof *s);
}

/* 5.9.1: CL_INVALID_VALUE for a value that is not one of the enumerants, and for the combination
 * OpenCL C forbids: CLK_ADDRESS_REPEAT and CLK_ADDRESS_MIRRORED_REPEAT "can only be used with
 * normalized coordinates" (OpenCL C 6.15.15.1 "Sampler Objects"). */
static cl_int sampler_check(cl_context ctx, cl_bool normalized, cl_addressing_mode a, cl_filter_mode f) {
  if ((normalized != CL_TRUE && normalized != CL_FALSE) || addr_index(a) < 0 || filter_index(f) < 0)
    return CL_INVALID_VALUE;
  if (!normalized && (a == CL_ADDRESS_REPEAT || a == CL_ADDRESS_MIRRORED_REPEAT)) {
    clx_notify(ctx, "clCreateSampler: CL_ADDRESS_REPEAT and CL_ADDRESS_MIRRORED_REPEAT need normalized coordinates");
    return CL_INVALID_VALUE;
  }
  return CL_SUCCESS;
}

static cl_sampler sampler_new(cl_context ctx, cl_bool normalized, cl_addressing_mode a, cl_filter_mode f,
                              const cl_sampler_properties *props, size_t nprops, cl_int *errcode_ret) {
  cl_int e = sampler_check(ctx, normalized, a, f);
  if (e != CL_SUCCESS) return set_err(errcode_ret, e), NULL;
  cl_sampler s = clx_obj_alloc(sizeof *s);
  if (!s) return set_err(errcode_ret, CL_OUT_OF_HOST_MEMORY), NULL;
  s->ctx = ctx;
  s->normalized = normalized;
  s->addressing = a;
  s->filter = f;
  for (size_t i = 0; i < nprops; i++) s->props[i] = props[i];
  s->nprops = nprops;
  clx_hold(ctx);
  clx_init(s, CLX_SAMPLER, sampler_destroy);
  set_err(errcode_ret, CL_SUCCESS);
  return s;
}

CLX_API CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                                            cl_addressing_mode addressing_mode,
                                                            cl_filter_mode filter_mode, cl_int *errcode_ret) {
  if (!clx_valid(context, CLX_CONTEXT)) return set_err(errcode_ret, CL_INVALID_CONTEXT), NULL;
  return sampler_new(context, normalized_coords, addressing_mode, filter_mode, NULL, 0, errcode_ret);
}

/* sampler_properties (5.9.1): name/value pairs of the three sampler properties, each at most once
 * (CL_INVALID_VALUE otherwise); the defaults are CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST. The
 * list is kept as given for CL_SAMPLER_PROPERTIES. */
CLX_API CL_API_ENTRY cl_sampler CL_API_CALL
clCreateSamplerWithProperties(cl_context context, const cl_sampler_properties *sampler_properties,
                              cl_int *errcode_ret) {
  if (!clx_valid(context, CLX_CONTEXT)) return set_err(errcode_ret, CL_INVALID_CONTEXT), NULL;
  cl_sampler_properties v[3] = {CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST};
  static const cl_sampler_properties names[3] = {CL_SAMPLER_NORMALIZED_COORDS, CL_SAMPLER_ADDRESSING_MODE,
                                                 CL_SAMPLER_FILTER_MODE};
  bool seen[3] = {false, false, false};
  size_t n = 0;
  for (const cl_sampler_properties *p = sampler_properties; p && *p; p += 2, n += 2) {
    int k = -1;
    for (int i = 0; i < 3; i++)
      if (p[0] == names[i]) k = i;
    if (k < 0 || seen[k]) {
      clx_notify(context, "clCreateSamplerWithProperties: property 0x%llx is %s", (unsigned long long)p[0],
                 k < 0 ? "not a sampler property" : "given twice");
      return set_err(errcode_ret, CL_INVALID_VALUE), NULL;
    }
    seen[k] = true;
    v[k] = p[1];
  }
  size_t nprops = sampler_properties ? n + 1 : 0;
  if (v[0] > CL_TRUE || v[1] > UINT32_MAX || v[2] > UINT32_MAX) return set_err(errcode_ret, CL_INVALID_VALUE), NULL;
  return sampler_new(context, (cl_bool)v[0], (cl_addressing_mode)v[1], (cl_filter_mode)v[2], sampler_properties, nprops,
                     errcode_ret);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
  return clx_retain(sampler, CLX_SAMPLER, CL_INVALID_SAMPLER);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
  return clx_release(sampler, CLX_SAMPLER, CL_INVALID_SAMPLER);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
                                                         size_t param_value_size, void *param_value,
                                                         size_t *param_value_size_ret) {
  if (!clx_valid(sampler, CLX_SAMPLER)) return CL_INVALID_SAMPLER;
  cl_uint refs = clx_refcount(sampler);
  const void *v;
  size_t sz;
  switch (param_name) {
  case CL_SAMPLER_REFERENCE_COUNT: v = &refs, sz = sizeof refs; break;
  case CL_SAMPLER_CONTEXT: v = &sampler->ctx, sz = sizeof(cl_context); break;
  case CL_SAMPLER_NORMALIZED_COORDS: v = &sampler->normalized, sz = sizeof(cl_bool); break;
  case CL_SAMPLER_ADDRESSING_MODE: v = &sampler->addressing, sz = sizeof(cl_addressing_mode); break;
  case CL_SAMPLER_FILTER_MODE: v = &sampler->filter, sz = sizeof(cl_filter_mode); break;
  case CL_SAMPLER_PROPERTIES: v = sampler->props, sz = sampler->nprops * sizeof(cl_sampler_properties); break;
  default: return CL_INVALID_VALUE;
  }
  return clx_info(param_value_size, param_value, param_value_size_ret, v, sz);
}
