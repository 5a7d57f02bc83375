/*
 * bi_image.c — image formats, conversions and sampling (see bi_image.h). Section references are to
 * the OpenCL SPIR-V environment spec, "Image Addressing and Filtering" (env §IAF) and OpenCL C 3.0
 * (§6.15.15 image functions, §8.3 conversion rules).
 *
 * Exactness: each formula is evaluated as the spec writes it, in float, one rounded IEEE operation
 * per statement (so no compiler can contract a*b+c into an fma: C11 forbids contraction across
 * statements). Conversions from stored channels are correctly rounded from their exact values;
 * the sRGB curves are computed once with MPFR (certified enclosures), see srgb_init.
 */
#include "bi_image.h"

#include <math.h>
#include <mpfr.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "bi_common_mp.h"
#include "bi_half.h"

/* ---- format tables ------------------------------------------------------------------------------- */

/* Channel data types (index: SPIR-V ImageChannelDataType). norm: 0 integer, 1 unorm, 2 snorm,
 * 3 half, 4 float; maxv: the normalizing divisor of unorm/snorm types. */
enum { N_INT = 0, N_UNORM = 1, N_SNORM = 2, N_HALF = 3, N_FLOAT = 4 };
static const struct ctype_info {
  const char *name;
  uint8_t csize, cls, norm;
  uint32_t maxv;
} ctypes[] = {
  [0] = {"snorm8", 1, BI_IMG_FLOAT, N_SNORM, 127}, [1] = {"snorm16", 2, BI_IMG_FLOAT, N_SNORM, 32767},
  [2] = {"unorm8", 1, BI_IMG_FLOAT, N_UNORM, 255}, [3] = {"unorm16", 2, BI_IMG_FLOAT, N_UNORM, 65535},
  [7] = {"int8", 1, BI_IMG_SINT, N_INT, 0},        [8] = {"int16", 2, BI_IMG_SINT, N_INT, 0},
  [9] = {"int32", 4, BI_IMG_SINT, N_INT, 0},       [10] = {"uint8", 1, BI_IMG_UINT, N_INT, 0},
  [11] = {"uint16", 2, BI_IMG_UINT, N_INT, 0},     [12] = {"uint32", 4, BI_IMG_UINT, N_INT, 0},
  [13] = {"half", 2, BI_IMG_FLOAT, N_HALF, 0},     [14] = {"float", 4, BI_IMG_FLOAT, N_FLOAT, 0},
};
#define NCTYPES (sizeof ctypes / sizeof ctypes[0])

/* Which channel types an order allows (OpenCL 3.0 API spec, "Image Formats"): */
enum { T_ANY = 1, T_8BIT = 2, T_IL = 3, T_SRGB = 4 };
/* Channel orders (index: SPIR-V ImageChannelOrder). map[k]: the RGBA component that memory channel
 * k holds (env §IAF "Data Format": R -> (R,0,0,1), A -> (0,0,0,A), bgra stores B,G,R,A ...);
 * intensity and luminance hold one channel that reads as (I,I,I,I) / (L,L,L,1) and is written from
 * the first component. alpha_border: CLAMP's border colour is (0,0,0,0) rather than (0,0,0,1)
 * (OpenCL C §6.15.15.4 "Determining the Border Color"). */
enum { M_PLAIN = 0, M_INTENSITY = 1, M_LUMINANCE = 2 };
static const struct order_info {
  const char *name;
  uint8_t nchan, map[4], allowed, srgb, special, alpha_border;
} orders[] = {
  [0] = {"r", 1, {0}, T_ANY, 0, M_PLAIN, 0},
  [1] = {"a", 1, {3}, T_ANY, 0, M_PLAIN, 1},
  [2] = {"rg", 2, {0, 1}, T_ANY, 0, M_PLAIN, 0},
  [3] = {"ra", 2, {0, 3}, T_ANY, 0, M_PLAIN, 1},
  [5] = {"rgba", 4, {0, 1, 2, 3}, T_ANY, 0, M_PLAIN, 1},
  [6] = {"bgra", 4, {2, 1, 0, 3}, T_8BIT, 0, M_PLAIN, 1},
  [7] = {"argb", 4, {3, 0, 1, 2}, T_8BIT, 0, M_PLAIN, 1},
  [8] = {"intensity", 1, {0}, T_IL, 0, M_INTENSITY, 1},
  [9] = {"luminance", 1, {0}, T_IL, 0, M_LUMINANCE, 0},
  [17] = {"srgba", 4, {0, 1, 2, 3}, T_SRGB, 1, M_PLAIN, 1},
  [18] = {"sbgra", 4, {2, 1, 0, 3}, T_SRGB, 1, M_PLAIN, 1},
  [19] = {"abgr", 4, {3, 2, 1, 0}, T_8BIT, 0, M_PLAIN, 1},
};
#define NORDERS (sizeof orders / sizeof orders[0])

static const struct order_info *order_of(unsigned o) { return o < NORDERS && orders[o].nchan ? &orders[o] : NULL; }
static const struct ctype_info *ctype_of(unsigned t) { return t < NCTYPES && ctypes[t].csize ? &ctypes[t] : NULL; }

unsigned bi_image_nchan(unsigned order) {
  const struct order_info *o = order_of(order);
  return o ? o->nchan : 0;
}
unsigned bi_image_csize(unsigned ctype) {
  const struct ctype_info *t = ctype_of(ctype);
  return t ? t->csize : 0;
}
int bi_image_class(unsigned ctype) {
  const struct ctype_info *t = ctype_of(ctype);
  return t ? t->cls : BI_IMG_FLOAT;
}
static const char *const type_names[] = {"image1d", "image1d_buffer", "image1d_array",
                                         "image2d", "image2d_array",  "image3d"};
const char *bi_image_type_name(unsigned type) { return type < 6 ? type_names[type] : NULL; }
const char *bi_image_order_name(unsigned order) {
  const struct order_info *o = order_of(order);
  return o ? o->name : NULL;
}
const char *bi_image_ctype_name(unsigned ctype) {
  const struct ctype_info *t = ctype_of(ctype);
  return t ? t->name : NULL;
}

bool bi_image_format_ok(unsigned order, unsigned ctype) {
  const struct order_info *o = order_of(order);
  const struct ctype_info *t = ctype_of(ctype);
  if (!o || !t) return false;
  switch (o->allowed) {
  case T_ANY: return true;
  case T_8BIT: return t->csize == 1;
  case T_IL: return t->norm != N_INT;
  default: return ctype == 2; /* sRGB: unorm8 only */
  }
}

/* spvi_image_type: 1D, 1D buffer, 1D array, 2D, 2D array, 3D */
static const uint8_t type_ndim[] = {1, 1, 1, 2, 2, 3};
static const uint8_t type_arrayed[] = {0, 0, 1, 0, 1, 0};
unsigned bi_image_ndim(unsigned type) { return type < 6 ? type_ndim[type] : 0; }
bool bi_image_arrayed(unsigned type) { return type < 6 && type_arrayed[type]; }

void bi_image_init(bi_image *img, uint8_t *data, unsigned type, unsigned order, unsigned ctype, uint64_t width,
                   uint64_t height, uint64_t depth, uint64_t layers) {
  memset(img, 0, sizeof *img);
  img->data = data;
  img->type = type;
  img->order = order;
  img->ctype = ctype;
  img->nchan = bi_image_nchan(order);
  img->csize = bi_image_csize(ctype);
  img->size[0] = width;
  img->size[1] = 1;
  img->size[2] = 1;
  switch (type) {
  case 2: img->size[1] = layers; break; /* 1D array: layers are "y" */
  case 3: img->size[1] = height; break;
  case 4:
    img->size[1] = height;
    img->size[2] = layers;
    break;
  case 5:
    img->size[1] = height;
    img->size[2] = depth;
    break;
  default: break;
  }
}

/* ---- exact conversions --------------------------------------------------------------------------- */

/* x / d correctly rounded, for the channel maxima d = 127, 255, 32767, 65535 and |x| <= d + 1.
 * To float: x and d are floats exactly, and IEEE division rounds the exact quotient once.
 * To half: one rounding of the double quotient q. A tie of half rounding would be
 * x / d = (2k + 1) 2^(e-11) for x / d in [2^e, 2^(e+1)) (e = -14 for subnormal halves), i.e.
 * x 2^(11-e) = d (2k + 1): even (11 - e >= 11 here) against odd, so there is none, and x / d lies
 * at least 2^(e-11) / d > 2^(e-28) from every midpoint, while q is within 2^(e-52) of x / d: both
 * round to the same half. tests/unit/test_builtins_half.c checks every x for each d against MPFR. */
float bi_image_ratio_f32(int32_t x, uint32_t d) { return (float)x / (float)d; }

uint16_t bi_image_ratio_f16(int32_t x, uint32_t d) { return bi_half_from_double((double)x / d, BI_RTE); }

/* ---- sRGB (env §IAF "Conversion Rules for sRGBA and sBGRA Images"; OpenCL C §8.3.5) --------------
 * Read: y = c_linear(r) with r = normalized_float_value(x) (a float): r / 12.92 when r <= 0.04045,
 * else ((r + 0.055) / 1.055)^2.4, correctly rounded to float (or to half, for read_imageh). With
 * 0.055 = 11/200, 1.055 = 211/200, 12.92 = 323/25 and 2.4 = 12/5 these are r * 25 / 323 and
 * ((200 r + 11) / 211)^12 ^ (1/5): rational operations, a power and a root, each enclosed with
 * directed MPFR rounding (all are increasing in their argument), refined until the enclosure
 * rounds to one value (bi_mp_refine).
 *
 * Write: x = round_to_nearest_even(255 * c_sRGB(y)) with c_sRGB exact (OpenCL C's formula:
 * 12.92 y below 0.0031308, else 1.055 y^(1/2.4) - 0.055; the env spec's text drops the "- 0.055",
 * a typo: its own accuracy bound |x - 255 c_sRGB(y)| <= 0.6 fails without it). Rounding
 * 255 c_sRGB(y) to an integer compares y with the 255 thresholds T_k where 255 c_sRGB(T_k) = k - 0.5:
 * T_k = (2k - 1) 25 / 164730 for k <= 10 (linear part: 255 * 12.92 * 0.0031308 < 10.5) and
 * T_k = ((200 k + 2705) / 53805)^(12/5) for k >= 11. No T_k is a float (the first are not dyadic;
 * for the others (200k + 2705) / 53805 = (40k + 541) / 10761 would have to be dyadic), so there are
 * no ties and x = #{k : y >= F_k}, F_k the smallest float above T_k, which srgb_init certifies. */
static float srgb_lin_f[256];
static uint16_t srgb_lin_h[256];
static float srgb_thr[256]; /* [k] = F_k for k = 1..255 */
static pthread_once_t srgb_once = PTHREAD_ONCE_INIT;

static void lin_bounds(mpfr_ptr lo, mpfr_ptr hi, const void *ctx) {
  const float r = *(const float *)ctx;
  mpfr_rnd_t rnd[2] = {MPFR_RNDD, MPFR_RNDU};
  mpfr_ptr out[2] = {lo, hi};
  /* r <= 0.04045 exactly: r * 20000 <= 809, and r * 20000 is exact in double */
  const bool linear = (double)r * 20000.0 <= 809.0;
  for (int s = 0; s < 2; s++) {
    mpfr_set_flt(out[s], r, MPFR_RNDN); /* exact: the precision is >= 128 */
    if (linear) {
      mpfr_mul_ui(out[s], out[s], 25, rnd[s]);
      mpfr_div_ui(out[s], out[s], 323, rnd[s]);
    } else {
      mpfr_mul_ui(out[s], out[s], 200, rnd[s]);
      mpfr_add_ui(out[s], out[s], 11, rnd[s]);
      mpfr_div_ui(out[s], out[s], 211, rnd[s]);
      mpfr_pow_ui(out[s], out[s], 12, rnd[s]);
      mpfr_rootn_ui(out[s], out[s], 5, rnd[s]);
    }
  }
}

static void threshold_bounds(mpfr_ptr lo, mpfr_ptr hi, unsigned k) {
  mpfr_rnd_t rnd[2] = {MPFR_RNDD, MPFR_RNDU};
  mpfr_ptr out[2] = {lo, hi};
  for (int s = 0; s < 2; s++) {
    if (k <= 10) {
      mpfr_set_ui(out[s], (2 * k - 1) * 25, MPFR_RNDN);
      mpfr_div_ui(out[s], out[s], 164730, rnd[s]);
    } else {
      mpfr_set_ui(out[s], 200 * k + 2705, MPFR_RNDN);
      mpfr_div_ui(out[s], out[s], 53805, rnd[s]);
      mpfr_pow_ui(out[s], out[s], 12, rnd[s]);
      mpfr_rootn_ui(out[s], out[s], 5, rnd[s]);
    }
  }
}

static void srgb_init(void) {
  for (unsigned x = 0; x < 256; x++) {
    const float r = bi_image_ratio_f32((int32_t)x, 255);
    srgb_lin_f[x] = (float)bi_mp_refine(lin_bounds, &r, BI_FMT_F);
    srgb_lin_h[x] = bi_half_from_double(bi_mp_refine(lin_bounds, &r, BI_FMT_H), BI_RTE);
  }
  for (unsigned k = 1; k < 256; k++) {
    for (mpfr_prec_t prec = 128;; prec *= 2) {
      mpfr_t lo, hi;
      mpfr_init2(lo, prec);
      mpfr_init2(hi, prec);
      threshold_bounds(lo, hi, k);
      /* lo <= T_k <= hi; when both round up to the same float F, prev(F) < lo and T_k <= hi <= F,
       * and T_k is not a float: F is the smallest float above T_k */
      const float a = mpfr_get_flt(lo, MPFR_RNDU), b = mpfr_get_flt(hi, MPFR_RNDU);
      mpfr_clear(lo);
      mpfr_clear(hi);
      if (a == b) {
        srgb_thr[k] = a;
        break;
      }
    }
  }
}

float bi_image_srgb_to_linear(uint8_t x) {
  pthread_once(&srgb_once, srgb_init);
  return srgb_lin_f[x];
}

static uint16_t srgb_to_linear_h(uint8_t x) {
  pthread_once(&srgb_once, srgb_init);
  return srgb_lin_h[x];
}

uint8_t bi_image_linear_to_srgb(float y) {
  pthread_once(&srgb_once, srgb_init);
  if (isnan(y) || y < 0.0f) return 0; /* OpenCL C §8.3.5: NaN -> 0, below 0 -> 0 */
  if (y > 1.0f) return 255;
  unsigned lo = 0, hi = 255; /* count of k in 1..255 with F_k <= y: thresholds increase with k */
  while (lo < hi) {
    unsigned mid = (lo + hi + 1) / 2;
    if (srgb_thr[mid] <= y) lo = mid;
    else hi = mid - 1;
  }
  return (uint8_t)lo;
}

/* ---- channels ------------------------------------------------------------------------------------- */

static uint64_t pixel_offset(const bi_image *img, uint64_t x, uint64_t y, uint64_t z) {
  return ((z * img->size[1] + y) * img->size[0] + x) * (uint64_t)(img->nchan * img->csize);
}

/* A stored channel's integer value, sign- or zero-extended to 32 bits (env §IAF "Conversion Rules
 * for Signed and Unsigned Integer Channel Data Types"; snorm channels are signed too). */
static uint32_t chan_raw(const struct ctype_info *t, const uint8_t *p) {
  const bool sgn = t->cls == BI_IMG_SINT || t->norm == N_SNORM;
  switch (t->csize) {
  case 1: {
    uint8_t v = p[0];
    return sgn ? (uint32_t)(int32_t)(int8_t)v : v;
  }
  case 2: {
    uint16_t v;
    memcpy(&v, p, 2);
    return sgn ? (uint32_t)(int32_t)(int16_t)v : v;
  }
  default: {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
  }
  }
}

/* The n memory channels of one texel of a float-class image (normalized, half or float channels) as
 * floats: env §IAF normalized_float_value (one correctly rounded division, bi_image_ratio_f32's),
 * half lossless, float as is, and sRGB's c_linear from its table for the channels srgb_mask selects
 * (alpha is stored linear). One switch per texel, each case a plain loop: texel reads are most of
 * an image kernel's time (linear filtering reads 2, 4 or 8 texels per work-item). */
static void chans_f32(unsigned ctype, const uint8_t *p, unsigned n, unsigned srgb_mask, float v[4]) {
  switch (ctype) {
  case 0: /* snorm8: max(-1.0, x / 127) */
    for (unsigned k = 0; k < n; k++) {
      const float r = (float)(int8_t)p[k] / 127.0f;
      v[k] = r < -1.0f ? -1.0f : r;
    }
    break;
  case 1: /* snorm16: max(-1.0, x / 32767) */
    for (unsigned k = 0; k < n; k++) {
      int16_t x;
      memcpy(&x, p + 2 * k, 2);
      const float r = (float)x / 32767.0f;
      v[k] = r < -1.0f ? -1.0f : r;
    }
    break;
  case 2: /* unorm8 */
    for (unsigned k = 0; k < n; k++) v[k] = (float)p[k] / 255.0f;
    if (srgb_mask)
      for (unsigned k = 0; k < n; k++)
        if (srgb_mask >> k & 1u) v[k] = bi_image_srgb_to_linear(p[k]);
    break;
  case 3: /* unorm16 */
    for (unsigned k = 0; k < n; k++) {
      uint16_t x;
      memcpy(&x, p + 2 * k, 2);
      v[k] = (float)x / 65535.0f;
    }
    break;
  case 13: /* half */
    for (unsigned k = 0; k < n; k++) {
      uint16_t x;
      memcpy(&x, p + 2 * k, 2);
      v[k] = bi_half_to_float(x);
    }
    break;
  default: /* float (14) */ memcpy(v, p, 4 * (size_t)n); break;
  }
}

/* The same directly to half (normalized_half_value: one rounding from the exact value). */
static uint16_t chan_f16(const struct ctype_info *t, const uint8_t *p, bool srgb) {
  uint32_t raw = chan_raw(t, p);
  switch (t->norm) {
  case N_UNORM: return srgb ? srgb_to_linear_h((uint8_t)raw) : bi_image_ratio_f16((int32_t)raw, t->maxv);
  case N_SNORM: {
    uint16_t h = bi_image_ratio_f16((int32_t)raw, t->maxv);
    return (h & 0x8000u) && (h & 0x7fffu) > 0x3c00u ? 0xbc00u : h; /* max(-1.0h, v) */
  }
  case N_HALF: return (uint16_t)raw;
  default: {
    float v;
    memcpy(&v, &raw, 4);
    return bi_half_from_float(v, BI_RTE);
  }
  }
}

/* Memory channels k of order o that sRGB conversion applies to (all but alpha). */
static unsigned srgb_mask_of(const struct order_info *o) {
  unsigned m = 0;
  if (o->srgb)
    for (unsigned k = 0; k < o->nchan; k++)
      if (o->map[k] != 3) m |= 1u << k;
  return m;
}

/* One texel as RGBA of result kind rk (4 floats, halves or 32-bit integers): the memory channels
 * decoded, then placed by the order's map, the missing components 0 and alpha 1; intensity and
 * luminance repeat their one channel as (I,I,I,I) / (L,L,L,1). */
static void texel_read(const bi_image *img, uint64_t x, uint64_t y, uint64_t z, int rk, void *out,
                       bi_img_footprint *fp) {
  const struct order_info *o = order_of(img->order);
  const struct ctype_info *t = ctype_of(img->ctype);
  const uint64_t off = pixel_offset(img, x, y, z);
  if (fp && fp->n < 8) fp->off[fp->n++] = off;
  const uint8_t *p = img->data + off;
  const unsigned n = o->nchan, last = o->special == M_INTENSITY ? 4 : o->special == M_LUMINANCE ? 3 : 0;
  if (rk == BI_IMG_R_F32) {
    float v[4], f[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    chans_f32(img->ctype, p, n, srgb_mask_of(o), v);
    for (unsigned k = 0; k < n; k++) f[o->map[k]] = v[k];
    for (unsigned i = 1; i < last; i++) f[i] = f[0];
    memcpy(out, f, sizeof f);
  } else if (rk == BI_IMG_R_F16) {
    uint16_t h[4] = {0, 0, 0, 0x3c00u};
    for (unsigned k = 0; k < n; k++) h[o->map[k]] = chan_f16(t, p + k * t->csize, o->srgb && o->map[k] != 3);
    for (unsigned i = 1; i < last; i++) h[i] = h[0];
    memcpy(out, h, sizeof h);
  } else {
    uint32_t u[4] = {0, 0, 0, 1};
    for (unsigned k = 0; k < n; k++) u[o->map[k]] = chan_raw(t, p + k * t->csize);
    for (unsigned i = 1; i < last; i++) u[i] = u[0];
    memcpy(out, u, sizeof u);
  }
}

static void border_read(const bi_image *img, int rk, void *out) {
  const bool one = !order_of(img->order)->alpha_border;
  if (rk == BI_IMG_R_F32) {
    float f[4] = {0, 0, 0, one ? 1.0f : 0.0f};
    memcpy(out, f, sizeof f);
  } else if (rk == BI_IMG_R_F16) {
    uint16_t h[4] = {0, 0, 0, one ? 0x3c00u : 0};
    memcpy(out, h, sizeof h);
  } else {
    uint32_t u[4] = {0, 0, 0, one ? 1u : 0};
    memcpy(out, u, sizeof u);
  }
}

/* float -> normalized integer (env §IAF "Converting Floating-point Values to Normalized Integer
 * Channel Data Types", the preferred rounding): round_to_nearest_even(max(lo, min(maxv, maxv * v))).
 * maxv * v is exact in double. NaN (implementation-defined) gives 0; +-inf saturate. */
static int32_t norm_from_f32(float v, uint32_t maxv, bool sgn) {
  if (isnan(v)) return 0;
  double s = (double)maxv * (double)v;
  double lo = sgn ? -(double)maxv - 1.0 : 0.0;
  if (s < lo) s = lo;
  if (s > (double)maxv) s = (double)maxv;
  /* round to nearest, ties to even, without a libm call: adding and removing 2^52 leaves no bits
   * below the units (|s| <= 65536 < 2^51, so both operations are exact but the one rounding) */
  const double big = s < 0 ? -0x1p52 : 0x1p52;
  return (int32_t)((s + big) - big);
}

/* ---- addressing (env §IAF "Addressing and Filter Modes") ------------------------------------------ */

/* floor(u) as an integer, saturated far outside any image (|u| may be up to 2^128); the addressing
 * modes clamp or reject such values anyway. */
static int64_t floor_sat(float u) {
  float fl = floorf(u);
  if (fl < -1099511627776.0f) return -1099511627776LL;
  if (fl > 1099511627776.0f) return 1099511627776LL;
  return (int64_t)fl;
}

/* clamp(a, b, c) = (a < b) ? b : ((a > c) ? c : a) */
static int64_t clampi(int64_t a, int64_t b, int64_t c) { return a < b ? b : (a > c ? c : a); }

static int64_t address_mode(unsigned mode, int64_t c, int64_t size) {
  if (mode == 2) return clampi(c, -1, size);    /* Clamp */
  if (mode == 1) return clampi(c, 0, size - 1); /* ClampToEdge */
  return c;                                     /* None */
}

typedef struct axis {
  int64_t i0, i1;
  float a;
} axis;

static const char *const axis_names[] = {"x", "y", "z"};

/* One spatial coordinate s (float) through the sampler: texel index (nearest) or the pair and
 * weight (linear). Returns BI_IMG_OK or a fault with `why`. */
static int address_float(float s, int64_t size, unsigned mode, bool norm, bool linear, unsigned d, axis *ax, char *why,
                         size_t whylen) {
  if (!isfinite(s)) {
    snprintf(why, whylen, "coordinate %s is %s (the specs leave NaN and infinite coordinates undefined)", axis_names[d],
             isnan(s) ? "NaN" : "infinite");
    return BI_IMG_UNDEFINED;
  }
  const float wt = (float)size; /* exact: sizes are at most 2^24 */
  if (mode == 3 || mode == 4) {
    float u;
    if (mode == 3) { /* Repeat: u = (s - floor(s)) * w_t */
      const float fs = floorf(s);
      const float fr = s - fs;
      u = fr * wt;
    } else { /* RepeatMirrored: s' = 2 rint(0.5 s); s' = |s - s'|; u = s' w_t */
      const float half = 0.5f * s;
      const float sp0 = 2.0f * rintf(half);
      const float sp = fabsf(s - sp0);
      u = sp * wt;
    }
    if (!linear) {
      int64_t i = floor_sat(u);
      if (mode == 3 && i > size - 1) i = i - size;
      if (mode == 4 && i > size - 1) i = size - 1;
      ax->i0 = ax->i1 = i;
      ax->a = 0.0f;
      return BI_IMG_OK;
    }
    const float um = u - 0.5f;
    const float fl = floorf(um);
    int64_t i0 = floor_sat(um), i1 = i0 + 1;
    if (mode == 3) {
      if (i0 < 0) i0 = size + i0;
      if (i1 > size - 1) i1 = i1 - size;
    } else {
      if (i0 < 0) i0 = 0;
      if (i1 > size - 1) i1 = size - 1;
    }
    ax->i0 = i0;
    ax->i1 = i1;
    ax->a = um - fl; /* frac(u - 0.5) */
    return BI_IMG_OK;
  }
  /* None, ClampToEdge, Clamp: u = s * w_t when normalized */
  const float u = norm ? s * wt : s;
  if (!isfinite(u)) {
    snprintf(why, whylen, "coordinate %s = %g times the size %lld is infinite", axis_names[d], (double)s,
             (long long)size);
    return BI_IMG_UNDEFINED;
  }
  if (mode == 0 && !(u >= 0.0f && u < wt)) {
    snprintf(why, whylen, "coordinate %s = %.9g is outside the image (0 <= %s < %lld) with addressing mode none",
             axis_names[d], (double)u, axis_names[d], (long long)size);
    return BI_IMG_OUT_OF_RANGE;
  }
  if (!linear) {
    ax->i0 = ax->i1 = address_mode(mode, floor_sat(u), size);
    ax->a = 0.0f;
    return BI_IMG_OK;
  }
  const float um = u - 0.5f;
  const float fl = floorf(um);
  const int64_t b = floor_sat(um);
  ax->i0 = address_mode(mode, b, size);
  ax->i1 = address_mode(mode, b + 1, size);
  ax->a = um - fl;
  return BI_IMG_OK;
}

static bool in_image(const bi_image *img, const int64_t ijk[3]) {
  for (unsigned d = 0; d < 3; d++)
    if (ijk[d] < 0 || (uint64_t)ijk[d] >= img->size[d]) return false;
  return true;
}

/* The texel at ijk as floats, or the border colour outside the image. */
static void fetch_f32(const bi_image *img, const int64_t ijk[3], float out[4], bi_img_footprint *fp) {
  if (in_image(img, ijk)) texel_read(img, (uint64_t)ijk[0], (uint64_t)ijk[1], (uint64_t)ijk[2], BI_IMG_R_F32, out, fp);
  else border_read(img, BI_IMG_R_F32, out);
}

static const char *const class_names[] = {"float (normalized, half or float channels)", "signed integer",
                                          "unsigned integer"};
static const char *const rkind_names[] = {"float", "half", "integer"};

bool bi_sampler_decode(uint64_t bits, unsigned *addressing, bool *normalized, bool *linear) {
  if (((bits >> 8) & 0xffu) != 0xA5u || (bits & ~(uint64_t)0xff1f) || (bits & 7u) > 4) return false;
  *addressing = (unsigned)(bits & 7u);
  *normalized = (bits >> 3) & 1u;
  *linear = (bits >> 4) & 1u;
  return true;
}

static const char *const mode_names[] = {"none", "clamp_to_edge", "clamp", "repeat", "mirrored_repeat"};

int bi_image_read(const bi_image *img, bool sampled, uint64_t sampler, const bi_img_coord *c, int rkind, int extend,
                  void *out, char *why, size_t whylen) {
  return bi_image_read_fp(img, sampled, sampler, c, rkind, extend, out, why, whylen, NULL);
}

int bi_image_read_fp(const bi_image *img, bool sampled, uint64_t sampler, const bi_img_coord *c, int rkind, int extend,
                     void *out, char *why, size_t whylen, bi_img_footprint *fp) {
  if (fp) fp->n = 0;
  const int cls = bi_image_class(img->ctype);
  /* result type against channel type (OpenCL C §6.15.15.2: read_imagef/h for normalized, half and
   * float channels, read_imagei for signed, read_imageui for unsigned integer channels; other
   * pairings return undefined values) */
  if ((rkind == BI_IMG_R_I32) != (cls != BI_IMG_FLOAT)) {
    snprintf(why, whylen, "a %s read from an image with %s channels (%s)", rkind_names[rkind], class_names[cls],
             bi_image_ctype_name(img->ctype));
    return BI_IMG_UNDEFINED;
  }
  if ((extend == 1 && cls != BI_IMG_SINT) || (extend == 2 && cls != BI_IMG_UINT)) {
    snprintf(why, whylen, "a %s read (%s) from an image with %s channels (%s)", extend == 1 ? "signed" : "unsigned",
             extend == 1 ? "read_imagei" : "read_imageui", class_names[cls], bi_image_ctype_name(img->ctype));
    return BI_IMG_UNDEFINED;
  }
  unsigned mode = 0;
  bool norm = false, linear = false;
  if (sampled && !bi_sampler_decode(sampler, &mode, &norm, &linear)) {
    snprintf(why, whylen, "the sampler operand is not a sampler (value 0x%llx)", (unsigned long long)sampler);
    return BI_IMG_UNDEFINED;
  }
  if ((mode == 3 || mode == 4) && !norm) {
    snprintf(why, whylen, "addressing mode %s with unnormalized coordinates (OpenCL C §6.15.15.1: undefined)",
             mode_names[mode]);
    return BI_IMG_UNDEFINED;
  }
  if (linear && rkind == BI_IMG_R_I32) {
    snprintf(why, whylen, "linear filtering with an integer read (read_imagei/ui need nearest filtering)");
    return BI_IMG_UNDEFINED;
  }
  if (c->is_int && sampled && (norm || linear || mode > 2)) {
    snprintf(why, whylen,
             "integer coordinates with a sampler that is not unnormalized, nearest and none/clamp/"
             "clamp_to_edge (%s, %s, %s: undefined)",
             norm ? "normalized" : "unnormalized", mode_names[mode], linear ? "linear" : "nearest");
    return BI_IMG_UNDEFINED;
  }
  const unsigned nd = bi_image_ndim(img->type);
  axis ax[3] = {{0, 0, 0.0f}, {0, 0, 0.0f}, {0, 0, 0.0f}};
  for (unsigned d = 0; d < nd; d++) {
    const int64_t size = (int64_t)img->size[d];
    if (c->is_int) {
      int64_t i = address_mode(mode, c->i[d], size);
      if (mode == 0 && (i < 0 || i >= size)) {
        snprintf(why, whylen, "coordinate %s = %d is outside the image (0 <= %s < %lld)%s", axis_names[d], c->i[d],
                 axis_names[d], (long long)size, sampled ? " with addressing mode none" : "");
        return BI_IMG_OUT_OF_RANGE;
      }
      ax[d].i0 = ax[d].i1 = i;
      continue;
    }
    int st = address_float(c->f[d], size, mode, norm, linear, d, &ax[d], why, whylen);
    if (st != BI_IMG_OK) return st;
  }
  /* the array layer (env §IAF "Selecting an Image from an Image Array") */
  if (bi_image_arrayed(img->type)) {
    const unsigned d = nd; /* 1D array: v is the layer; 2D array: w */
    const int64_t n = (int64_t)img->size[d];
    int64_t layer;
    if (c->is_int) {
      layer = c->i[d];
      if (sampled) layer = clampi(layer, 0, n - 1);
    } else {
      const float w = c->f[d];
      if (!isfinite(w)) {
        snprintf(why, whylen, "array layer coordinate is %s", isnan(w) ? "NaN" : "infinite");
        return BI_IMG_UNDEFINED;
      }
      if (sampled) {
        layer = clampi(floor_sat(rintf(w)), 0, n - 1); /* clamp(rint(w), 0, d_t - 1) */
      } else {
        if (w != floorf(w)) {
          snprintf(why, whylen, "array layer coordinate %.9g is not an integer", (double)w);
          return BI_IMG_UNDEFINED;
        }
        layer = floor_sat(w);
      }
    }
    if (layer < 0 || layer >= n) {
      snprintf(why, whylen, "array layer %lld is outside the image's %lld layers", (long long)layer, (long long)n);
      return BI_IMG_OUT_OF_RANGE;
    }
    ax[d].i0 = ax[d].i1 = layer;
  }
  if (!linear) {
    const int64_t ijk[3] = {ax[0].i0, ax[1].i0, ax[2].i0};
    if (in_image(img, ijk)) texel_read(img, (uint64_t)ijk[0], (uint64_t)ijk[1], (uint64_t)ijk[2], rkind, out, fp);
    else border_read(img, rkind, out); /* Clamp: the border colour */
    return BI_IMG_OK;
  }
  /* Linear filtering: T = sum of weight * T_ijk over the 2, 4 or 8 texels, weights and terms
   * exactly as the spec writes them, left to right. */
  float res[4];
  const float a = ax[0].a, b = ax[1].a, cc = ax[2].a;
  const float ma = 1.0f - a, mb = 1.0f - b, mc = 1.0f - cc;
  float t0[4], t1[4], t2[4], t3[4], t4[4], t5[4], t6[4], t7[4];
  const int64_t y = ax[1].i0, z = ax[2].i0;
  if (nd == 1) {
    fetch_f32(img, (const int64_t[3]){ax[0].i0, y, z}, t0, fp);
    fetch_f32(img, (const int64_t[3]){ax[0].i1, y, z}, t1, fp);
    for (int i = 0; i < 4; i++) {
      const float p0 = ma * t0[i];
      const float p1 = a * t1[i];
      res[i] = p0 + p1;
    }
  } else if (nd == 2) {
    const int64_t j0 = ax[1].i0, j1 = ax[1].i1;
    fetch_f32(img, (const int64_t[3]){ax[0].i0, j0, z}, t0, fp);
    fetch_f32(img, (const int64_t[3]){ax[0].i1, j0, z}, t1, fp);
    fetch_f32(img, (const int64_t[3]){ax[0].i0, j1, z}, t2, fp);
    fetch_f32(img, (const int64_t[3]){ax[0].i1, j1, z}, t3, fp);
    const float w0 = ma * mb, w1 = a * mb, w2 = ma * b, w3 = a * b;
    for (int i = 0; i < 4; i++) {
      const float p0 = w0 * t0[i];
      const float p1 = w1 * t1[i];
      const float p2 = w2 * t2[i];
      const float p3 = w3 * t3[i];
      const float s01 = p0 + p1;
      const float s012 = s01 + p2;
      res[i] = s012 + p3;
    }
  } else {
    const int64_t j0 = ax[1].i0, j1 = ax[1].i1, k0 = ax[2].i0, k1 = ax[2].i1;
    fetch_f32(img, (const int64_t[3]){ax[0].i0, j0, k0}, t0, fp);
    fetch_f32(img, (const int64_t[3]){ax[0].i1, j0, k0}, t1, fp);
    fetch_f32(img, (const int64_t[3]){ax[0].i0, j1, k0}, t2, fp);
    fetch_f32(img, (const int64_t[3]){ax[0].i1, j1, k0}, t3, fp);
    fetch_f32(img, (const int64_t[3]){ax[0].i0, j0, k1}, t4, fp);
    fetch_f32(img, (const int64_t[3]){ax[0].i1, j0, k1}, t5, fp);
    fetch_f32(img, (const int64_t[3]){ax[0].i0, j1, k1}, t6, fp);
    fetch_f32(img, (const int64_t[3]){ax[0].i1, j1, k1}, t7, fp);
    const float ab[4] = {ma * mb, a * mb, ma * b, a * b};
    float w[8];
    for (int q = 0; q < 4; q++) {
      w[q] = ab[q] * mc;
      w[4 + q] = ab[q] * cc;
    }
    const float *t[8] = {t0, t1, t2, t3, t4, t5, t6, t7};
    for (int i = 0; i < 4; i++) {
      float s = w[0] * t[0][i];
      for (int q = 1; q < 8; q++) {
        const float p = w[q] * t[q][i];
        s = s + p;
      }
      res[i] = s;
    }
  }
  if (rkind == BI_IMG_R_F32) memcpy(out, res, sizeof res);
  else {
    uint16_t h[4];
    for (int i = 0; i < 4; i++) h[i] = bi_half_from_float(res[i], BI_RTE);
    memcpy(out, h, sizeof h);
  }
  return BI_IMG_OK;
}

int bi_image_write(const bi_image *img, const bi_img_coord *c, int tkind, const void *texel, uint64_t *offset,
                   uint64_t *bytes, char *why, size_t whylen) {
  const int cls = bi_image_class(img->ctype);
  if ((tkind == BI_IMG_R_I32) != (cls != BI_IMG_FLOAT)) {
    snprintf(why, whylen, "a %s write to an image with %s channels (%s)", rkind_names[tkind], class_names[cls],
             bi_image_ctype_name(img->ctype));
    return BI_IMG_UNDEFINED;
  }
  const unsigned nd = bi_image_ndim(img->type) + (bi_image_arrayed(img->type) ? 1 : 0);
  int64_t ijk[3] = {0, 0, 0};
  for (unsigned d = 0; d < nd; d++) {
    ijk[d] = c->i[d];
    if (ijk[d] < 0 || (uint64_t)ijk[d] >= img->size[d]) {
      const bool layer = bi_image_arrayed(img->type) && d == nd - 1;
      if (layer)
        snprintf(why, whylen, "array layer %d is outside the image's %llu layers", c->i[d],
                 (unsigned long long)img->size[d]);
      else
        snprintf(why, whylen, "coordinate %s = %d is outside the image (0 <= %s < %llu)", axis_names[d], c->i[d],
                 axis_names[d], (unsigned long long)img->size[d]);
      return BI_IMG_OUT_OF_RANGE;
    }
  }
  const struct order_info *o = order_of(img->order);
  const struct ctype_info *t = ctype_of(img->ctype);
  const uint64_t off = pixel_offset(img, (uint64_t)ijk[0], (uint64_t)ijk[1], (uint64_t)ijk[2]);
  uint8_t *p = img->data + off;
  float f[4];
  uint32_t u[4];
  if (tkind == BI_IMG_R_F32) memcpy(f, texel, sizeof f);
  else if (tkind == BI_IMG_R_F16) {
    uint16_t h[4];
    memcpy(h, texel, sizeof h);
    for (int i = 0; i < 4; i++) f[i] = bi_half_to_float(h[i]); /* exact; the conversions below are the same */
  } else memcpy(u, texel, sizeof u);
  for (unsigned k = 0; k < o->nchan; k++) {
    const unsigned comp = o->special != M_PLAIN ? 0 : o->map[k];
    uint8_t *q = p + k * t->csize;
    uint32_t raw;
    if (tkind == BI_IMG_R_I32) {
      /* env §IAF: clamp to the channel's range ("correctly saturated"); 32-bit: no conversion */
      if (cls == BI_IMG_SINT) {
        int64_t v = (int32_t)u[comp];
        int64_t hi = t->csize == 1 ? 127 : t->csize == 2 ? 32767 : INT32_MAX;
        raw = (uint32_t)(int32_t)clampi(v, -hi - 1, hi);
      } else {
        uint64_t v = u[comp], hi = t->csize == 1 ? 255u : t->csize == 2 ? 65535u : UINT32_MAX;
        raw = (uint32_t)(v > hi ? hi : v);
      }
    } else {
      const float v = f[comp];
      switch (t->norm) {
      case N_UNORM:
        raw = o->srgb && o->map[k] != 3 ? bi_image_linear_to_srgb(v) : (uint32_t)norm_from_f32(v, t->maxv, false);
        break;
      case N_SNORM: raw = (uint32_t)norm_from_f32(v, t->maxv, true); break;
      case N_HALF: raw = bi_half_from_float(v, BI_RTE); break; /* round to nearest even, no flush */
      default: memcpy(&raw, &v, 4); break;                     /* preserved, denormals too */
      }
    }
    switch (t->csize) {
    case 1: q[0] = (uint8_t)raw; break;
    case 2: {
      uint16_t v16 = (uint16_t)raw;
      memcpy(q, &v16, 2);
      break;
    }
    default: memcpy(q, &raw, 4); break;
    }
  }
  *offset = off;
  *bytes = (uint64_t)o->nchan * t->csize;
  return BI_IMG_OK;
}
