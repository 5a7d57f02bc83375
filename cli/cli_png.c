/*
 * cli_png.c — owns the PNG pictures `--out` writes of image arguments (cli_png.h): the conversion
 * of every channel order and type to PNG's gray / gray+alpha / RGB / RGBA samples of 8 or 16 bits,
 * and the libpng calls. The .npy beside each picture keeps the exact channel values; the picture is
 * for looking at, so values outside what PNG holds are clamped, as docs/cli.md states.
 */
#include "cli_png.h"

#include <math.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>

/* PNG colour type and where each PNG channel comes from in the image's pixel: src[k] is the index
 * of the image channel giving PNG channel k, or -1 for a constant 0 (rg has no blue). */
typedef struct png_layout {
  int color_type;
  unsigned channels;
  int src[4];
} png_layout;

/* The channels a pixel stores, in memory order (OpenCL API "Image Format Descriptor": the channel
 * order names them in memory order, bgra: B first). */
static png_layout png_layout_of(spvi_channel_order order) {
  switch (order) {
  case SPVI_ORDER_RG: return (png_layout){PNG_COLOR_TYPE_RGB, 3, {0, 1, -1, 0}}; /* R, G, B = 0 */
  case SPVI_ORDER_RA: return (png_layout){PNG_COLOR_TYPE_GRAY_ALPHA, 2, {0, 1, 0, 0}};
  case SPVI_ORDER_RGBA:
  case SPVI_ORDER_SRGBA: return (png_layout){PNG_COLOR_TYPE_RGBA, 4, {0, 1, 2, 3}};
  case SPVI_ORDER_BGRA:
  case SPVI_ORDER_SBGRA: return (png_layout){PNG_COLOR_TYPE_RGBA, 4, {2, 1, 0, 3}};
  case SPVI_ORDER_ARGB: return (png_layout){PNG_COLOR_TYPE_RGBA, 4, {1, 2, 3, 0}};
  case SPVI_ORDER_ABGR: return (png_layout){PNG_COLOR_TYPE_RGBA, 4, {3, 2, 1, 0}};
  default: return (png_layout){PNG_COLOR_TYPE_GRAY, 1, {0, 0, 0, 0}}; /* r a intensity luminance */
  }
}

/* PNG sample depth per channel type: 16 bits for the 16- and 32-bit integer types, 8 otherwise
 * (floats are scaled to 8 bits, as a display shows them). */
static int png_depth(spvi_channel_type t) {
  switch (t) {
  case SPVI_UNORM_INT16:
  case SPVI_SNORM_INT16:
  case SPVI_SIGNED_INT16:
  case SPVI_UNSIGNED_INT16:
  case SPVI_SIGNED_INT32:
  case SPVI_UNSIGNED_INT32: return 16;
  default: return 8;
  }
}

static uint64_t png_clamp_i(int64_t v, int64_t hi) { return v < 0 ? 0 : v > hi ? (uint64_t)hi : (uint64_t)v; }

/* A float in [0, 1] (NaN as 0, beyond clamped) scaled to 0..255, rounding half up. */
static unsigned png_unit8(double x) {
  if (!(x > 0)) return 0;
  if (x >= 1) return 255;
  return (unsigned)floor(x * 255 + 0.5);
}

/* Channel value at p as a PNG sample of png_depth(t) bits. snorm: max(-1, v/127) (OpenCL C
 * "Converting Normalized Integer Channel Data Types to Floating-point Values") clamped to [0, 1]
 * and scaled, rounding half up in exact integers: negative values are black. Signed integers:
 * negatives 0; 32-bit integers clamped to 65535. */
static unsigned png_sample(spvi_channel_type t, const unsigned char *p) {
  uint32_t u32;
  int32_t i32;
  float f;
  int16_t i16;
  uint16_t u16;
  switch (t) {
  case SPVI_UNORM_INT8:
  case SPVI_UNSIGNED_INT8: return p[0];
  case SPVI_SIGNED_INT8: return (unsigned)png_clamp_i((int8_t)p[0], 127);
  case SPVI_SNORM_INT8: return (unsigned)((png_clamp_i((int8_t)p[0], 127) * 255 * 2 + 127) / (2 * 127));
  case SPVI_UNORM_INT16:
  case SPVI_UNSIGNED_INT16: memcpy(&u16, p, 2); return u16;
  case SPVI_SIGNED_INT16: memcpy(&i16, p, 2); return (unsigned)png_clamp_i(i16, 32767);
  case SPVI_SNORM_INT16:
    memcpy(&i16, p, 2);
    return (unsigned)((png_clamp_i(i16, 32767) * 65535 * 2 + 32767) / (2 * 32767));
  case SPVI_UNSIGNED_INT32: memcpy(&u32, p, 4); return u32 > 65535 ? 65535 : u32;
  case SPVI_SIGNED_INT32: memcpy(&i32, p, 4); return (unsigned)png_clamp_i(i32, 65535);
  case SPVI_HALF_FLOAT: memcpy(&u16, p, 2); return png_unit8(spvi_half_to_double(u16));
  case SPVI_FLOAT: memcpy(&f, p, 4); return png_unit8(f);
  }
  return 0;
}

/* One picture of width × rows pixels starting at data. libpng reports errors by longjmp. */
static bool png_write_file(const char *path, const spvi_image_desc *d, size_t width, size_t rows,
                           const unsigned char *data, cli_error *e) {
  const png_layout lay = png_layout_of(d->order);
  const int depth = png_depth(d->channel_type);
  const unsigned nch = spvi_image_channels(d->order), cb = spvi_channel_type_bytes(d->channel_type);
  if (width > PNG_UINT_31_MAX || rows > PNG_UINT_31_MAX)
    return cli_fail(e, "`%s`: %zu × %zu pixels are more than PNG holds", path, width, rows);
  FILE *f = fopen(path, "wb");
  if (!f) return cli_fail(e, "cannot write `%s`", path);
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  unsigned char *volatile row = malloc(width * lay.channels * (size_t)(depth / 8));
  bool ok = png && info && row;
  if (ok && setjmp(png_jmpbuf(png))) ok = false;
  else if (ok) {
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)rows, depth, lay.color_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (size_t y = 0; y < rows; y++) {
      for (size_t x = 0; x < width; x++)
        for (unsigned k = 0; k < lay.channels; k++) {
          const unsigned v = lay.src[k] < 0 ? 0
                                            : png_sample(d->channel_type,
                                                         data + ((y * width + x) * nch + (unsigned)lay.src[k]) * cb);
          unsigned char *s = row + (x * lay.channels + k) * (size_t)(depth / 8);
          if (depth == 16) { /* PNG stores 16-bit samples big-endian (PNG spec 7.1) */
            s[0] = (unsigned char)(v >> 8);
            s[1] = (unsigned char)v;
          } else {
            s[0] = (unsigned char)v;
          }
        }
      png_write_row(png, row);
    }
    png_write_end(png, NULL);
  }
  png_destroy_write_struct(png ? &png : NULL, info ? &info : NULL);
  free(row);
  if (fclose(f) != 0) ok = false;
  if (!ok) return cli_fail(e, "cannot write `%s` (libpng failed or out of memory)", path);
  return true;
}

bool cli_png_write_image(cli_out *out, int index, const spvi_image_desc *d, const unsigned char *data, cli_error *e) {
  /* rows per picture and pictures: 1D (one row), 1D array (a row per layer), 2D, and one picture
   * per layer (2D array) or slice (3D) */
  size_t rows = 1, pictures = 1;
  switch (d->type) {
  case SPVI_IMAGE_1D_ARRAY: rows = d->array_size; break;
  case SPVI_IMAGE_2D: rows = d->height; break;
  case SPVI_IMAGE_2D_ARRAY: rows = d->height, pictures = d->array_size; break;
  case SPVI_IMAGE_3D: rows = d->height, pictures = d->depth; break;
  default: break;
  }
  const size_t picture_bytes = d->width * rows * spvi_image_channels(d->order) *
                               spvi_channel_type_bytes(d->channel_type);
  for (size_t k = 0; k < pictures; k++) {
    char name[64];
    if (d->type == SPVI_IMAGE_2D_ARRAY || d->type == SPVI_IMAGE_3D)
      snprintf(name, sizeof name, "arg%d.%zu.png", index, k);
    else snprintf(name, sizeof name, "arg%d.png", index);
    char *path = cli_out_path(out, name);
    if (!path) return cli_fail(e, "out of memory");
    bool ok = png_write_file(path, d, d->width, rows, data + k * picture_bytes, e);
    free(path);
    if (!ok) return false;
  }
  return true;
}
