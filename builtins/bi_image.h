/*
 * bi_image.h — image formats and sampling: the arithmetic of the OpenCL SPIR-V environment spec's
 * "Image Addressing and Filtering" (coordinates, addressing and filter modes, image arrays, the
 * conversion rules of every channel type, sRGB) on a plain description of an image's memory. Pure
 * functions: the executor (interp/ex_image.c) decodes operands, checks handles and reports faults.
 *
 * Every result is bit-exact and host-independent: conversions to float and half are correctly
 * rounded from the exact value (normalized integers: x / 255 etc.; sRGB: computed with MPFR), the
 * sampling formulas are evaluated in float exactly as the spec writes them, one IEEE operation at a
 * time, left to right, never contracted (C11 with -std=c11 does not contract; FP_CONTRACT OFF below).
 * spec-notes/images.md lists the definitions spvi gives where the specs say "undefined".
 */
#ifndef BI_IMAGE_H
#define BI_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Image dimensionality, channel orders and channel types use spvi.h's enums (the values of SPIR-V's
 * ImageChannelOrder and ImageChannelDataType). */
typedef struct bi_image {
  uint8_t *data;
  unsigned type;         /* spvi_image_type */
  unsigned order, ctype; /* spvi_channel_order, spvi_channel_type */
  uint64_t size[3];      /* pixels in x, y, slice: 1D (w,1,1), 1D array (w,layers,1), 2D (w,h,1),
                             2D array (w,h,layers), 3D (w,h,d); memory is x fastest, then y, then slice */
  unsigned nchan, csize; /* channels per pixel, bytes per channel */
} bi_image;

/* What a channel type reads as: normalized/half/float channels read as floats (read_imagef/h),
 * the others as 32-bit integers (read_imagei/ui). */
enum { BI_IMG_FLOAT = 0, BI_IMG_SINT = 1, BI_IMG_UINT = 2 };
/* Result (or texel) component kinds of read/write instructions. */
enum { BI_IMG_R_F32 = 0, BI_IMG_R_F16 = 1, BI_IMG_R_I32 = 2 };

/* Format tables. 0 for orders and types spvi does not support. */
unsigned bi_image_nchan(unsigned order);
unsigned bi_image_csize(unsigned ctype);
int bi_image_class(unsigned ctype);
/* "image2d", ... for a bi_image type (0 image1d .. 5 image3d), NULL for another value. */
const char *bi_image_type_name(unsigned type);
const char *bi_image_order_name(unsigned order);
const char *bi_image_ctype_name(unsigned ctype);
/* Whether OpenCL allows channel type `ctype` with `order` (e.g. bgra only with 8-bit types). */
bool bi_image_format_ok(unsigned order, unsigned ctype);
/* Spatial dimensions of an image type (1, 2, 3) and whether it is an array. */
unsigned bi_image_ndim(unsigned type);
bool bi_image_arrayed(unsigned type);
/* Fill in size/nchan/csize from the spvi_image_desc fields. */
void bi_image_init(bi_image *img, uint8_t *data, unsigned type, unsigned order, unsigned ctype, uint64_t width,
                   uint64_t height, uint64_t depth, uint64_t layers);

/* A read or write location after addressing: integer pixel coordinates and the slice. */
typedef struct bi_img_coord {
  bool is_int; /* the coordinate operand's components are 32-bit integers */
  unsigned n;  /* components given */
  float f[4];
  int32_t i[4];
} bi_img_coord;

/* Outcome of an image access: BI_IMG_OK, or a fault whose text is written to `why`:
 * BI_IMG_OUT_OF_RANGE (a location outside the image: an out-of-bounds access) or
 * BI_IMG_UNDEFINED (an operation the specs leave undefined: NaN/inf coordinates, a sampler or
 * result type the format does not allow, ...). */
enum { BI_IMG_OK = 0, BI_IMG_OUT_OF_RANGE = 1, BI_IMG_UNDEFINED = 2 };

/* Sampled read (OpImageSampleExplicitLod) with sampler bits `sampler` (ld_sampler_bits), or, with
 * sampled == false, a sampler-less read (OpImageRead: nearest, unnormalized, addressing none, and
 * the array layer must be an integer in range). `rkind` is BI_IMG_R_*; `out` receives 4 floats,
 * 4 half bit patterns or 4 32-bit integers. `extend`: 0, or 1/2 when the instruction carries
 * SignExtend/ZeroExtend (then the channel type must be signed/unsigned). */
int bi_image_read(const bi_image *img, bool sampled, uint64_t sampler, const bi_img_coord *c, int rkind, int extend,
                  void *out, char *why, size_t whylen);

/* The texels a read used (for --check races): byte offsets of up to 8 pixels in img->data, each
 * nchan * csize bytes; border texels outside the image are not memory and are not listed. */
typedef struct bi_img_footprint {
  uint64_t off[8];
  unsigned n;
} bi_img_footprint;
/* bi_image_read that also fills *fp (when not NULL). */
int bi_image_read_fp(const bi_image *img, bool sampled, uint64_t sampler, const bi_img_coord *c, int rkind, int extend,
                     void *out, char *why, size_t whylen, bi_img_footprint *fp);

/* OpImageWrite of a texel (4 components of kind `tkind`) at integer coordinates c. On BI_IMG_OK
 * *offset and *bytes give the pixel written (for the written-bytes mask). */
int bi_image_write(const bi_image *img, const bi_img_coord *c, int tkind, const void *texel, uint64_t *offset,
                   uint64_t *bytes, char *why, size_t whylen);

/* Decoded sampler bits; false when `bits` is not a sampler value. */
bool bi_sampler_decode(uint64_t bits, unsigned *addressing, bool *normalized, bool *linear);

/* The conversions, exposed for tests: x / d correctly rounded to float / half (d > 0); sRGB <->
 * linear for 8-bit values. */
float bi_image_ratio_f32(int32_t x, uint32_t d);
uint16_t bi_image_ratio_f16(int32_t x, uint32_t d);
float bi_image_srgb_to_linear(uint8_t x);
uint8_t bi_image_linear_to_srgb(float y);

#endif
