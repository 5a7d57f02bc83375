/*
 * test_images.c — images and samplers (tests/kernels/images.cl) through the public API, at -O0 and
 * -O2 and warp widths 1, 32 and 7 (kt_run_case), against a plain C model of the OpenCL SPIR-V
 * environment spec's "Image Addressing and Filtering" written here from the spec text:
 *   - texel conversions: unorm8 x -> (float)(x / 255.0) (x / 255 is not dyadic, so the double
 *     quotient rounds to the same float as the exact value), snorm max(-1, x / 127), half widened,
 *     float as is; writes round_to_nearest_even(clamp(255 * v)) etc.;
 *   - sRGB: the OpenCL C 8.3.5 formulas evaluated in double with pow and rounded to float;
 *   - addressing and filtering: each formula of the spec, step by step in float.
 * Hand-derived values are asserted first, so that a mistake in the model shows up as such.
 * Error paths: out-of-range coordinates without a sampler, NaN coordinates, a float read of an
 * integer image, an integer read with linear filtering, bad arguments through the API.
 */
/* the shared harness has helpers this program does not use */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "kernel_harness.h"
#include "load.h"
#include "spvasm.h"

/* ---- the model --------------------------------------------------------------------------------- */

typedef struct mimg {
  spvi_image_desc d;
  const uint8_t *px;
  int w, h, n; /* width, height (1D arrays: layers), slices (2D array layers, 3D depth) */
} mimg;

static mimg m_of(const spvi_image_desc *d, const void *px) {
  mimg m = {*d, px, (int)d->width, 1, 1};
  if (d->type == SPVI_IMAGE_2D || d->type == SPVI_IMAGE_2D_ARRAY || d->type == SPVI_IMAGE_3D) m.h = (int)d->height;
  if (d->type == SPVI_IMAGE_1D_ARRAY) m.h = (int)d->array_size;
  if (d->type == SPVI_IMAGE_2D_ARRAY) m.n = (int)d->array_size;
  if (d->type == SPVI_IMAGE_3D) m.n = (int)d->depth;
  return m;
}

static float m_srgb(float r) { /* OpenCL C 8.3.5 */
  double v = r <= 0.04045 ? r / 12.92 : pow((r + 0.055) / 1.055, 2.4);
  return (float)v;
}

/* one channel value as float */
static float m_chan(const mimg *m, const uint8_t *p, bool srgb) {
  switch (m->d.channel_type) {
  case SPVI_UNORM_INT8: {
    float r = (float)(p[0] / 255.0);
    return srgb ? m_srgb(r) : r;
  }
  case SPVI_UNORM_INT16: {
    uint16_t v;
    memcpy(&v, p, 2);
    return (float)(v / 65535.0);
  }
  case SPVI_SNORM_INT8: {
    float r = (float)((int8_t)p[0] / 127.0);
    return r < -1 ? -1 : r;
  }
  case SPVI_SNORM_INT16: {
    int16_t v;
    memcpy(&v, p, 2);
    float r = (float)(v / 32767.0);
    return r < -1 ? -1 : r;
  }
  case SPVI_HALF_FLOAT: {
    uint16_t v;
    memcpy(&v, p, 2);
    return (float)spvi_half_to_double(v);
  }
  default: {
    float v;
    memcpy(&v, p, 4);
    return v;
  }
  }
}

/* RGBA of the texel at (i, j, k), or the border colour outside */
static void m_texel(const mimg *m, int i, int j, int k, float out[4]) {
  const bool alpha_border = m->d.order != SPVI_ORDER_R && m->d.order != SPVI_ORDER_RG &&
                            m->d.order != SPVI_ORDER_LUMINANCE;
  if (i < 0 || j < 0 || k < 0 || i >= m->w || j >= m->h || k >= m->n) {
    out[0] = out[1] = out[2] = 0;
    out[3] = alpha_border ? 0.0f : 1.0f;
    return;
  }
  unsigned nc = spvi_image_channels(m->d.order), cs = spvi_channel_type_bytes(m->d.channel_type);
  const uint8_t *p = m->px + (((size_t)k * m->h + j) * m->w + i) * nc * cs;
  float c[4];
  for (unsigned q = 0; q < nc; q++) c[q] = m_chan(m, p + q * cs, false);
  switch (m->d.order) {
  case SPVI_ORDER_RGBA: memcpy(out, c, sizeof c); break;
  case SPVI_ORDER_BGRA:
    out[0] = c[2];
    out[1] = c[1];
    out[2] = c[0];
    out[3] = c[3];
    break;
  case SPVI_ORDER_SRGBA:
    for (int q = 0; q < 3; q++) out[q] = m_chan(m, p + q, true);
    out[3] = c[3];
    break;
  case SPVI_ORDER_R:
    out[0] = c[0];
    out[1] = out[2] = 0;
    out[3] = 1;
    break;
  case SPVI_ORDER_RG:
    out[0] = c[0];
    out[1] = c[1];
    out[2] = 0;
    out[3] = 1;
    break;
  case SPVI_ORDER_LUMINANCE:
    out[0] = out[1] = out[2] = c[0];
    out[3] = 1;
    break;
  case SPVI_ORDER_INTENSITY: out[0] = out[1] = out[2] = out[3] = c[0]; break;
  default: fail_msg("model: order %d not modelled", (int)m->d.order);
  }
}

/* address_mode() of the spec's table */
static int m_amode(spvi_addressing a, int c, int size) {
  if (a == SPVI_ADDRESS_CLAMP) return c < -1 ? -1 : c > size ? size : c;
  if (a == SPVI_ADDRESS_CLAMP_TO_EDGE) return c < 0 ? 0 : c > size - 1 ? size - 1 : c;
  return c;
}

/* one axis: nearest index i0, or linear indexes i0, i1 and weight a */
static void m_axis(const spvi_sampler *s, float sc, int size, int *i0, int *i1, float *a) {
  float ws = (float)size;
  if (s->addressing == SPVI_ADDRESS_REPEAT) {
    float u = (sc - floorf(sc)) * ws;
    if (s->filter == SPVI_FILTER_NEAREST) {
      int i = (int)floorf(u);
      if (i > size - 1) i = i - size;
      *i0 = *i1 = i;
      *a = 0;
      return;
    }
    float um = u - 0.5f;
    int j0 = (int)floorf(um), j1 = j0 + 1;
    if (j0 < 0) j0 = size + j0;
    if (j1 > size - 1) j1 = j1 - size;
    *i0 = j0;
    *i1 = j1;
    *a = um - floorf(um);
    return;
  }
  if (s->addressing == SPVI_ADDRESS_MIRRORED_REPEAT) {
    float sp = 2.0f * rintf(0.5f * sc);
    sp = fabsf(sc - sp);
    float u = sp * ws;
    if (s->filter == SPVI_FILTER_NEAREST) {
      int i = (int)floorf(u);
      *i0 = *i1 = i < size - 1 ? i : size - 1;
      *a = 0;
      return;
    }
    float um = u - 0.5f;
    int j0 = (int)floorf(um), j1 = j0 + 1;
    *i0 = j0 > 0 ? j0 : 0;
    *i1 = j1 < size - 1 ? j1 : size - 1;
    *a = um - floorf(um);
    return;
  }
  float u = s->normalized ? sc * ws : sc;
  if (s->filter == SPVI_FILTER_NEAREST) {
    *i0 = *i1 = m_amode(s->addressing, (int)floorf(u), size);
    *a = 0;
    return;
  }
  float um = u - 0.5f;
  *i0 = m_amode(s->addressing, (int)floorf(um), size);
  *i1 = m_amode(s->addressing, (int)floorf(um) + 1, size);
  *a = um - floorf(um);
}

/* read_imagef(img, s, coord): nd spatial coordinates, then the layer for arrays */
static void m_sample(const mimg *m, const spvi_sampler *s, const float *c, float out[4]) {
  const spvi_image_type t = m->d.type;
  const int nd = t == SPVI_IMAGE_3D ? 3 : (t == SPVI_IMAGE_2D || t == SPVI_IMAGE_2D_ARRAY) ? 2 : 1;
  int i0[3] = {0, 0, 0}, i1[3] = {0, 0, 0};
  float a[3] = {0, 0, 0};
  const int sizes[3] = {m->w, m->h, m->n};
  for (int d = 0; d < nd; d++) m_axis(s, c[d], sizes[d], &i0[d], &i1[d], &a[d]);
  if (t == SPVI_IMAGE_1D_ARRAY || t == SPVI_IMAGE_2D_ARRAY) { /* layer = clamp(rint(w), 0, d_t - 1) */
    int n = sizes[nd];
    int layer = (int)rintf(c[nd]);
    layer = layer < 0 ? 0 : layer > n - 1 ? n - 1 : layer;
    i0[nd] = i1[nd] = layer;
  }
  if (s->filter == SPVI_FILTER_NEAREST) {
    m_texel(m, i0[0], i0[1], i0[2], out);
    return;
  }
  if (nd == 1) {
    float t0[4], t1[4];
    m_texel(m, i0[0], i0[1], i0[2], t0);
    m_texel(m, i1[0], i0[1], i0[2], t1);
    for (int q = 0; q < 4; q++) {
      float p = (1 - a[0]) * t0[q];
      float r = a[0] * t1[q];
      out[q] = p + r;
    }
    return;
  }
  if (nd == 2) {
    float t[4][4];
    m_texel(m, i0[0], i0[1], i0[2], t[0]);
    m_texel(m, i1[0], i0[1], i0[2], t[1]);
    m_texel(m, i0[0], i1[1], i0[2], t[2]);
    m_texel(m, i1[0], i1[1], i0[2], t[3]);
    for (int q = 0; q < 4; q++) {
      float w00 = (1 - a[0]) * (1 - a[1]), w10 = a[0] * (1 - a[1]), w01 = (1 - a[0]) * a[1], w11 = a[0] * a[1];
      float p0 = w00 * t[0][q], p1 = w10 * t[1][q], p2 = w01 * t[2][q], p3 = w11 * t[3][q];
      float s01 = p0 + p1;
      float s2 = s01 + p2;
      out[q] = s2 + p3;
    }
    return;
  }
  float tx[8][4], w[8];
  for (int q = 0; q < 8; q++) {
    int x = q & 1 ? i1[0] : i0[0], y = q & 2 ? i1[1] : i0[1], z = q & 4 ? i1[2] : i0[2];
    m_texel(m, x, y, z, tx[q]);
    float wx = q & 1 ? a[0] : 1 - a[0], wy = q & 2 ? a[1] : 1 - a[1], wz = q & 4 ? a[2] : 1 - a[2];
    float wxy = wx * wy;
    w[q] = wxy * wz;
  }
  for (int k = 0; k < 4; k++) {
    float sum = w[0] * tx[0][k];
    for (int q = 1; q < 8; q++) {
      float p = w[q] * tx[q][k];
      sum = sum + p;
    }
    out[k] = sum;
  }
}

/* ---- fixtures ------------------------------------------------------------------------------------ */

static uint8_t g_u8[5 * 4 * 4]; /* rgba unorm8 5x4 */
static float g_f32[5 * 4 * 4];  /* rgba float 5x4 */
static const spvi_image_desc D_U8 = {SPVI_IMAGE_2D, SPVI_ORDER_RGBA, SPVI_UNORM_INT8, 5, 4, 0, 0};
static const spvi_image_desc D_F32 = {SPVI_IMAGE_2D, SPVI_ORDER_RGBA, SPVI_FLOAT, 5, 4, 0, 0};

static void fixtures(void) {
  kt_seed(77);
  for (size_t i = 0; i < sizeof g_u8; i++) g_u8[i] = (uint8_t)kt_rand();
  for (size_t i = 0; i < 5 * 4 * 4; i++) g_f32[i] = (float)((int)(kt_rand() % 4001) - 2000) / 512.0f;
}

#define NC 48
static float g_coords[NC * 2];
/* coordinates over [-1.5, 2.5) (normalized) or the image (unnormalized, inside for addressing none) */
static void make_coords(bool normalized, bool inside, int w, int h) {
  kt_seed(normalized * 2 + inside + 5);
  for (int i = 0; i < NC; i++) {
    float r0 = (float)(kt_rand() % 4096) / 4096.0f, r1 = (float)(kt_rand() % 4096) / 4096.0f;
    float x, y;
    if (inside) {
      x = r0 * (float)w;
      y = r1 * (float)h;
      if (normalized) {
        x /= (float)w;
        y /= (float)h;
      }
    } else if (normalized) {
      x = r0 * 4.0f - 1.5f;
      y = r1 * 4.0f - 1.5f;
    } else {
      x = r0 * (float)(w + 4) - 2.0f;
      y = r1 * (float)(h + 4) - 2.0f;
    }
    if (i < 4) {
      x = (float)i / (float)w + (normalized ? 0.5f / (float)w : 0.5f);
      y = 0.5f;
    } /* texel centres */
    if (!normalized && i < 4) x = (float)i + 0.5f;
    g_coords[2 * i] = x;
    g_coords[2 * i + 1] = y;
  }
}

typedef struct exp_f4 {
  const float *want;
  size_t n;
} exp_f4;
static void check_f4(const kt_run *r, void *u) {
  const exp_f4 *e = u;
  kt_expect_buf(r, 3, e->want, KT_F32, e->n);
}

/* every valid sampler on one image */
static void run_samplers(const spvi_image_desc *d, const void *px, size_t bytes) {
  static const spvi_addressing modes[] = {SPVI_ADDRESS_NONE, SPVI_ADDRESS_CLAMP_TO_EDGE, SPVI_ADDRESS_CLAMP,
                                          SPVI_ADDRESS_REPEAT, SPVI_ADDRESS_MIRRORED_REPEAT};
  const mimg m = m_of(d, px);
  for (int norm = 0; norm < 2; norm++)
    for (size_t mi = 0; mi < 5; mi++)
      for (int filt = 0; filt < 2; filt++) {
        if (!norm && mi >= 3) continue;
        spvi_sampler s = {norm != 0, modes[mi], filt ? SPVI_FILTER_LINEAR : SPVI_FILTER_NEAREST};
        make_coords(norm != 0, mi == 0, m.w, m.h);
        float *want = kt_alloc(NC * 4 * sizeof(float));
        for (int i = 0; i < NC; i++) m_sample(&m, &s, &g_coords[2 * i], &want[4 * i]);
        kt_image ki = {*d, px};
        exp_f4 e = {want, NC * 4};
        kt_case c = {.file = "images",
                     .kernel = "sample2d",
                     .args = {KT_IMAGE(&ki, bytes), KT_SAMPLER(&s), KT_BUF_IN(g_coords, sizeof g_coords),
                              KT_BUF_IN(NULL, NC * 16)},
                     .range = {1, {NC, 0, 0}, {0}, {0}},
                     .check = check_f4,
                     .user = &e,
                     .expect_fault = false};
        kt_run_case(&c);
        kt_teardown(NULL);
      }
}

/* ---- tests --------------------------------------------------------------------------------------- */

static void test_model_hand_values(void **state) {
  (void)state;
  /* 2x1 image, texels 0 and 255 (red): a linear read at u = 1.0 unnormalized is halfway:
   * u - 0.5 = 0.5, i0 = 0, i1 = 1, a = 0.5 -> 0.5 * 0 + 0.5 * 1 = 0.5 */
  static const uint8_t px[8] = {0, 0, 0, 255, 255, 0, 0, 255};
  const spvi_image_desc d = {SPVI_IMAGE_2D, SPVI_ORDER_RGBA, SPVI_UNORM_INT8, 2, 1, 0, 0};
  mimg m = m_of(&d, px);
  spvi_sampler s = {false, SPVI_ADDRESS_CLAMP_TO_EDGE, SPVI_FILTER_LINEAR};
  float c[2] = {1.0f, 0.5f}, out[4];
  m_sample(&m, &s, c, out);
  assert_true(out[0] == 0.5f && out[1] == 0.0f && out[3] == 1.0f);
  /* clamp at u = 0.25: u - 0.5 = -0.25, i0 = -1 (border (0,0,0,0)), i1 = 0, a = frac(-0.25) = 0.75:
   * alpha 0.25 * 0 + 0.75 * 1 = 0.75 */
  s.addressing = SPVI_ADDRESS_CLAMP;
  c[0] = 0.25f;
  m_sample(&m, &s, c, out);
  assert_true(out[3] == 0.75f && out[0] == 0.0f);
  /* repeat nearest, s = -0.25: u = 0.75 * 2 = 1.5 -> texel 1 (red) */
  s = (spvi_sampler){true, SPVI_ADDRESS_REPEAT, SPVI_FILTER_NEAREST};
  c[0] = -0.25f;
  m_sample(&m, &s, c, out);
  assert_true(out[0] == 1.0f);
  /* mirrored nearest, s = 1.25: s' = 2 rint(0.625) = 2, |1.25 - 2| = 0.75 -> u = 1.5 -> texel 1 */
  s.addressing = SPVI_ADDRESS_MIRRORED_REPEAT;
  c[0] = 1.25f;
  m_sample(&m, &s, c, out);
  assert_true(out[0] == 1.0f);
  /* unorm8 128 is 128/255 = 0.50196078..., float 0x1.0101p-1 */
  assert_true((float)(128 / 255.0) == 0x1.010102p-1f);
  /* sRGB 255 -> 1.0, 0 -> 0, 10 (r = 0.0392 <= 0.04045): r / 12.92 */
  assert_true(m_srgb(1.0f) == 1.0f && m_srgb(0.0f) == 0.0f);
}

static void test_sample2d_unorm8(void **state) {
  (void)state;
  fixtures();
  run_samplers(&D_U8, g_u8, sizeof g_u8);
}

static void test_sample2d_float(void **state) {
  (void)state;
  fixtures();
  run_samplers(&D_F32, g_f32, sizeof g_f32);
}

static void test_sample2d_srgba(void **state) {
  (void)state;
  fixtures();
  spvi_image_desc d = D_U8;
  d.order = SPVI_ORDER_SRGBA;
  run_samplers(&d, g_u8, sizeof g_u8);
}

static void check_read_plain(const kt_run *r, void *u) {
  const exp_f4 *e = u;
  kt_expect_buf(r, 1, e->want, KT_F32, e->n);
}
static void check_img0(const kt_run *r, void *u) {
  const exp_f4 *e = u; /* want holds bytes here */
  kt_expect_buf(r, 1, e->want, KT_U8, e->n);
}

/* the sRGB read table against the formula for all 256 values; the write table: every value
 * read back and written again must return itself (OpenCL C 8.3.5: within 0.5 ulp) */
static void test_srgb_roundtrip(void **state) {
  (void)state;
  uint8_t px[256 * 4];
  for (int i = 0; i < 256; i++) {
    px[4 * i] = px[4 * i + 1] = px[4 * i + 2] = (uint8_t)i;
    px[4 * i + 3] = (uint8_t)(255 - i);
  }
  spvi_image_desc d = {SPVI_IMAGE_2D, SPVI_ORDER_SRGBA, SPVI_UNORM_INT8, 16, 16, 0, 0};
  float want[256 * 4];
  mimg m = m_of(&d, px);
  for (int i = 0; i < 256; i++) m_texel(&m, i % 16, i / 16, 0, &want[4 * i]);
  kt_image ki = {d, px};
  exp_f4 e = {want, 256 * 4};
  kt_case c = {.file = "images",
               .kernel = "read_plain",
               .args = {KT_IMAGE(&ki, sizeof px), KT_BUF_IN(NULL, sizeof want)},
               .range = {2, {16, 16, 0}, {0}, {0}},
               .check = check_read_plain,
               .user = &e,
               .expect_fault = false};
  kt_run_case(&c);
  /* write the linear values back: every sRGB code must come back exactly */
  kt_image out = {d, NULL};
  exp_f4 eb = {(const float *)px, sizeof px};
  kt_case w = {.file = "images",
               .kernel = "write_f",
               .args = {KT_BUF_IN(want, sizeof want), KT_IMAGE(&out, sizeof px)},
               .range = {2, {16, 16, 0}, {0}, {0}},
               .check = check_img0,
               .user = &eb,
               .expect_fault = false};
  kt_run_case(&w);
}

/* sampler-less reads of several orders and types */
static void test_read_formats(void **state) {
  (void)state;
  static const struct {
    spvi_channel_order o;
    spvi_channel_type t;
  } fmts[] = {
    {SPVI_ORDER_BGRA, SPVI_UNORM_INT8},       {SPVI_ORDER_R, SPVI_SNORM_INT8},
    {SPVI_ORDER_RG, SPVI_UNORM_INT16},        {SPVI_ORDER_LUMINANCE, SPVI_HALF_FLOAT},
    {SPVI_ORDER_INTENSITY, SPVI_SNORM_INT16}, {SPVI_ORDER_RGBA, SPVI_FLOAT},
  };
  for (size_t f = 0; f < KT_COUNT(fmts); f++) {
    spvi_image_desc d = {SPVI_IMAGE_2D, fmts[f].o, fmts[f].t, 7, 3, 0, 0};
    size_t bytes = 7 * 3 * spvi_image_channels(d.order) * spvi_channel_type_bytes(d.channel_type);
    uint8_t *px = kt_alloc(bytes);
    kt_seed(f + 100);
    for (size_t i = 0; i < bytes; i++) px[i] = (uint8_t)kt_rand();
    if (d.channel_type == SPVI_HALF_FLOAT || d.channel_type == SPVI_FLOAT) /* finite values */
      for (size_t i = 0; i < bytes; i += spvi_channel_type_bytes(d.channel_type))
        px[i + spvi_channel_type_bytes(d.channel_type) - 1] &= 0x3f;
    mimg m = m_of(&d, px);
    float *want = kt_alloc(21 * 16);
    for (int i = 0; i < 21; i++) m_texel(&m, i % 7, i / 7, 0, &want[4 * i]);
    kt_image ki = {d, px};
    exp_f4 e = {want, 21 * 4};
    kt_case c = {.file = "images",
                 .kernel = "read_plain",
                 .args = {KT_IMAGE(&ki, bytes), KT_BUF_IN(NULL, 21 * 16)},
                 .range = {2, {7, 3, 0}, {0}, {0}},
                 .check = check_read_plain,
                 .user = &e,
                 .expect_fault = false};
    kt_run_case(&c);
    kt_teardown(NULL);
  }
}

/* write_imagef into unorm8 / snorm8 / unorm16 / half: hand-derived and modelled values */
static void test_write_conversions(void **state) {
  (void)state;
  /* 4 pixels: v, then their conversions by hand for unorm8: round_to_even(255 v) clamped */
  static const float in[16] = {0.5f,
                               1.5f,
                               -0.25f,
                               0.0019607842f, /* 127.5 -> 128, 255, 0, 0.5 -> 0 */
                               0.00588235f,
                               NAN,
                               INFINITY,
                               -INFINITY, /* 1.49999 -> 1, NaN -> 0, 255, 0 */
                               0x1.00p-1f + 0x1p-24f,
                               0.2f,
                               0.6f,
                               1.0f,
                               0.0117647061f,
                               0.75f,
                               0.25f,
                               0.99f};
  static const uint8_t hand[16] = {128, 255, 0, 0, 1, 0, 255, 0, 128, 51, 153, 255, 3, 191, 64, 252};
  spvi_image_desc d = {SPVI_IMAGE_2D, SPVI_ORDER_RGBA, SPVI_UNORM_INT8, 2, 2, 0, 0};
  kt_image ki = {d, NULL};
  exp_f4 e = {(const float *)hand, 16};
  kt_case c = {.file = "images",
               .kernel = "write_f",
               .args = {KT_BUF_IN(in, sizeof in), KT_IMAGE(&ki, 16)},
               .range = {2, {2, 2, 0}, {0}, {0}},
               .check = check_img0,
               .user = &e,
               .expect_fault = false};
  kt_run_case(&c);
  /* snorm8: round_to_even(127 v) clamped to [-128, 127] */
  static const uint8_t hand_s[16] = {64, 127, (uint8_t)-32, 0,   1, 0,  127, (uint8_t)-128,
                                     64, 25,  76,           127, 1, 95, 32,  126};
  d.channel_type = SPVI_SNORM_INT8;
  kt_image ks = {d, NULL};
  exp_f4 es = {(const float *)hand_s, 16};
  kt_case cs = {.file = "images",
                .kernel = "write_f",
                .args = {KT_BUF_IN(in, sizeof in), KT_IMAGE(&ks, 16)},
                .range = {2, {2, 2, 0}, {0}, {0}},
                .check = check_img0,
                .user = &es,
                .expect_fault = false};
  kt_run_case(&cs);
}

static void check_i4(const kt_run *r, void *u) {
  const exp_f4 *e = u;
  kt_expect_buf(r, 1, e->want, KT_I32, e->n);
}
static void check_u8_arg1(const kt_run *r, void *u) {
  const exp_f4 *e = u;
  kt_expect_buf(r, 1, e->want, KT_U8, e->n);
}

/* write_imagei saturates to int8; read_imagei sign-extends */
static void test_int_images(void **state) {
  (void)state;
  static const int32_t in[8] = {-129, -128, 127, 128, 5, -5, INT32_MAX, INT32_MIN};
  static const uint8_t hand[8] = {0x80, 0x80, 0x7f, 0x7f, 5, 0xfb, 0x7f, 0x80};
  spvi_image_desc d = {SPVI_IMAGE_2D, SPVI_ORDER_RGBA, SPVI_SIGNED_INT8, 2, 1, 0, 0};
  kt_image ki = {d, NULL};
  exp_f4 e = {(const float *)hand, 8};
  kt_case c = {.file = "images",
               .kernel = "write_i",
               .args = {KT_BUF_IN(in, sizeof in), KT_IMAGE(&ki, 8)},
               .range = {2, {2, 1, 0}, {0}, {0}},
               .check = check_u8_arg1,
               .user = &e,
               .expect_fault = false};
  kt_run_case(&c);
  static const int32_t back[8] = {-128, -128, 127, 127, 5, -5, 127, -128};
  kt_image kr = {d, hand};
  exp_f4 eb = {(const float *)back, 8};
  kt_case cr = {.file = "images",
                .kernel = "read_plain_i",
                .args = {KT_IMAGE(&kr, 8), KT_BUF_IN(NULL, 32)},
                .range = {2, {2, 1, 0}, {0}, {0}},
                .check = check_i4,
                .user = &eb,
                .expect_fault = false};
  kt_run_case(&cr);
  /* write_imageui to uint16: clamp(x, 0, 65535) */
  static const uint32_t uin[4] = {0, 65535, 65536, UINT32_MAX};
  static const uint16_t uhand[4] = {0, 65535, 65535, 65535};
  spvi_image_desc du = {SPVI_IMAGE_2D, SPVI_ORDER_RGBA, SPVI_UNSIGNED_INT16, 1, 1, 0, 0};
  kt_image ku = {du, NULL};
  exp_f4 eu = {(const float *)uhand, 8};
  kt_case cu = {.file = "images",
                .kernel = "write_ui",
                .args = {KT_BUF_IN(uin, sizeof uin), KT_IMAGE(&ku, 8)},
                .range = {2, {1, 1, 0}, {0}, {0}},
                .check = check_u8_arg1,
                .user = &eu,
                .expect_fault = false};
  kt_run_case(&cu);
}

static void check_3d(const kt_run *r, void *u) {
  const exp_f4 *e = u;
  kt_expect_buf(r, 3, e->want, KT_F32, e->n);
}

/* 1D, 1D array, 2D array and 3D sampling, linear and nearest, normalized, clamp and repeat */
static void test_sample_dims(void **state) {
  (void)state;
  static float px[4 * 3 * 2 * 4];
  kt_seed(9);
  for (size_t i = 0; i < KT_COUNT(px); i++) px[i] = (float)(int)(kt_rand() % 1000) / 64.0f;
  static const struct {
    const char *kernel;
    spvi_image_desc d;
    int ncoord;
  } cases[] = {
    {"sample1d", {SPVI_IMAGE_1D, SPVI_ORDER_RGBA, SPVI_FLOAT, 24, 0, 0, 0}, 1},
    {"sample1d_array", {SPVI_IMAGE_1D_ARRAY, SPVI_ORDER_RGBA, SPVI_FLOAT, 8, 0, 0, 3}, 2},
    {"sample2d_array", {SPVI_IMAGE_2D_ARRAY, SPVI_ORDER_RGBA, SPVI_FLOAT, 4, 3, 0, 2}, 4},
    {"sample3d", {SPVI_IMAGE_3D, SPVI_ORDER_RGBA, SPVI_FLOAT, 4, 3, 2, 0}, 4},
  };
  static const spvi_sampler samplers[] = {
    {true, SPVI_ADDRESS_CLAMP, SPVI_FILTER_LINEAR},
    {true, SPVI_ADDRESS_REPEAT, SPVI_FILTER_LINEAR},
    {false, SPVI_ADDRESS_CLAMP_TO_EDGE, SPVI_FILTER_NEAREST},
    {true, SPVI_ADDRESS_MIRRORED_REPEAT, SPVI_FILTER_LINEAR},
  };
  for (size_t ci = 0; ci < KT_COUNT(cases); ci++)
    for (size_t si = 0; si < KT_COUNT(samplers); si++) {
      const spvi_image_desc *d = &cases[ci].d;
      const mimg m = m_of(d, px);
      const int nc = cases[ci].ncoord;
      float *coords = kt_alloc(32 * 4 * sizeof(float)), *want = kt_alloc(32 * 16);
      kt_seed(ci * 10 + si);
      for (int i = 0; i < 32; i++) {
        float c4[4] = {0, 0, 0, 0};
        for (int k = 0; k < nc; k++) c4[k] = (float)(int)(kt_rand() % 2000) / 500.0f - 1.0f;
        if (d->type == SPVI_IMAGE_1D_ARRAY)
          c4[1] = (float)(int)(kt_rand() % 9) * 0.5f - 1.0f; /* layers, some halfway */
        if (d->type == SPVI_IMAGE_2D_ARRAY) c4[2] = (float)(int)(kt_rand() % 7) * 0.5f - 1.0f;
        if (!samplers[si].normalized)
          for (int k = 0; k < 3 && k < nc; k++) c4[k] *= 4.0f;
        memcpy(coords + i * nc, c4, (size_t)nc * sizeof(float));
        m_sample(&m, &samplers[si], c4, want + 4 * i);
      }
      size_t bytes = d->width * (d->height ? d->height : 1) * (d->depth ? d->depth : 1) *
                     (d->array_size ? d->array_size : 1) * 16;
      kt_image ki = {*d, px};
      exp_f4 e = {want, 32 * 4};
      kt_case c = {.file = "images",
                   .kernel = cases[ci].kernel,
                   .args = {KT_IMAGE(&ki, bytes), KT_SAMPLER(&samplers[si]), KT_BUF_IN(coords, 32 * (size_t)nc * 4),
                            KT_BUF_IN(NULL, 32 * 16)},
                   .range = {1, {32, 0, 0}, {0}, {0}},
                   .check = check_3d,
                   .user = &e,
                   .expect_fault = false};
      kt_run_case(&c);
      kt_teardown(NULL);
    }
}

/* the literal sampler (normalized, mirrored repeat, linear) */
static void check_const_sampler(const kt_run *r, void *u) {
  const exp_f4 *e = u;
  kt_expect_buf(r, 2, e->want, KT_F32, e->n);
}

static void test_const_sampler_values(void **state) {
  (void)state;
  fixtures();
  const mimg m = m_of(&D_U8, g_u8);
  const spvi_sampler s = {true, SPVI_ADDRESS_MIRRORED_REPEAT, SPVI_FILTER_LINEAR};
  make_coords(true, false, 5, 4);
  static float want[NC * 4];
  for (int i = 0; i < NC; i++) m_sample(&m, &s, &g_coords[2 * i], &want[4 * i]);
  kt_image ki = {D_U8, g_u8};
  exp_f4 e = {want, NC * 4};
  kt_case c = {.file = "images",
               .kernel = "const_sampler",
               .args = {KT_IMAGE(&ki, sizeof g_u8), KT_BUF_IN(g_coords, sizeof g_coords), KT_BUF_IN(NULL, NC * 16)},
               .range = {1, {NC, 0, 0}, {0}, {0}},
               .check = check_const_sampler,
               .user = &e,
               .expect_fault = false};
  kt_run_case(&c);
}

/* integer coordinates with an unnormalized nearest clamp sampler; read_imageui with a sampler */
static void test_int_coords(void **state) {
  (void)state;
  fixtures();
  static int32_t ic[NC * 2];
  static float want[NC * 4];
  const mimg m = m_of(&D_U8, g_u8);
  const spvi_sampler s = {false, SPVI_ADDRESS_CLAMP, SPVI_FILTER_NEAREST};
  for (int i = 0; i < NC; i++) {
    ic[2 * i] = i % 9 - 2;
    ic[2 * i + 1] = i / 9 - 1;
    m_texel(&m,
            ic[2 * i] < -1  ? -1
            : ic[2 * i] > 5 ? 5
                            : ic[2 * i],
            ic[2 * i + 1] < -1  ? -1
            : ic[2 * i + 1] > 4 ? 4
                                : ic[2 * i + 1],
            0, &want[4 * i]);
  }
  kt_image ki = {D_U8, g_u8};
  exp_f4 e = {want, NC * 4};
  kt_case c = {.file = "images",
               .kernel = "sample2d_int",
               .args = {KT_IMAGE(&ki, sizeof g_u8), KT_SAMPLER(&s), KT_BUF_IN(ic, sizeof ic), KT_BUF_IN(NULL, NC * 16)},
               .range = {1, {NC, 0, 0}, {0}, {0}},
               .check = check_f4,
               .user = &e,
               .expect_fault = false};
  kt_run_case(&c);
}

static void check_u32_3(const kt_run *r, void *u) {
  const exp_f4 *e = u;
  kt_expect_buf(r, 3, e->want, KT_U32, e->n);
}

static void test_read_imageui_sampler(void **state) {
  (void)state;
  static uint16_t px[3 * 2 * 2]; /* rg uint16 3x2 */
  for (int i = 0; i < 12; i++) px[i] = (uint16_t)(i * 5000 + 7);
  const spvi_image_desc d = {SPVI_IMAGE_2D, SPVI_ORDER_RG, SPVI_UNSIGNED_INT16, 3, 2, 0, 0};
  const spvi_sampler s = {true, SPVI_ADDRESS_REPEAT, SPVI_FILTER_NEAREST};
  /* normalized repeat nearest: s = 1.2 -> u = 0.2 * 3 = 0.6 (in float: 0.2000000477 * 3) -> 0 */
  static const float c[8] = {1.2f, 0.25f, -0.1f, 0.75f, 0.5f, 2.75f, 0.99f, -0.4f};
  /* hand: (1.2, .25): s-floor(s) = 0.20000005, *3 = 0.60000014 -> i 0; t: 0.25*2 = 0.5 -> j 0
   *       (-0.1, .75): 0.9 * 3 = 2.7 -> 2; 0.75 * 2 = 1.5 -> 1
   *       (0.5, 2.75): 1.5 -> 1; 0.75 * 2 = 1.5 -> 1
   *       (0.99, -0.4): 2.97 -> 2; 0.6 * 2 = 1.2 -> 1 */
  const int idx[4][2] = {{0, 0}, {2, 1}, {1, 1}, {2, 1}};
  static uint32_t want[16];
  for (int i = 0; i < 4; i++) {
    int p = idx[i][1] * 3 + idx[i][0];
    want[4 * i] = px[2 * p];
    want[4 * i + 1] = px[2 * p + 1];
    want[4 * i + 2] = 0;
    want[4 * i + 3] = 1;
  }
  kt_image ki = {d, px};
  exp_f4 e = {(const float *)want, 16};
  kt_case cs = {.file = "images",
                .kernel = "sample2d_ui",
                .args = {KT_IMAGE(&ki, sizeof px), KT_SAMPLER(&s), KT_BUF_IN(c, sizeof c), KT_BUF_IN(NULL, 64)},
                .range = {1, {4, 0, 0}, {0}, {0}},
                .check = check_u32_3,
                .user = &e,
                .expect_fault = false};
  kt_run_case(&cs);
}

/* read_imageh: unorm8 -> half directly (round_to_half(x / 255)): 1 -> 0x1c04 (1/255 = 0.003921...),
 * 128 -> 0x3804 (0.50196 -> 0.502), 255 -> 0x3c00 */
static void check_h(const kt_run *r, void *u) {
  (void)u;
  const uint16_t *got = r->buf[3];
  kt_require(r, got[0] == 0x1c04 && got[1] == 0x3804 && got[2] == 0x3c00 && got[3] == 0,
             "read_imageh: %04x %04x %04x %04x", got[0], got[1], got[2], got[3]);
}
static void test_read_imageh(void **state) {
  (void)state;
  static const uint8_t px[4] = {1, 128, 255, 0};
  const spvi_image_desc d = {SPVI_IMAGE_2D, SPVI_ORDER_RGBA, SPVI_UNORM_INT8, 1, 1, 0, 0};
  const spvi_sampler s = {false, SPVI_ADDRESS_NONE, SPVI_FILTER_NEAREST};
  static const float c[2] = {0.5f, 0.5f};
  kt_image ki = {d, px};
  kt_case cs = {.file = "images",
                .kernel = "sample2d_h",
                .args = {KT_IMAGE(&ki, 4), KT_SAMPLER(&s), KT_BUF_IN(c, sizeof c), KT_BUF_IN(NULL, 8)},
                .range = {1, {1, 0, 0}, {0}, {0}},
                .check = check_h,
                .user = NULL,
                .expect_fault = false};
  kt_run_case(&cs);
}

static void check_arrays(const kt_run *r, void *u) {
  (void)u;
  const float *p = r->buf[0];
  for (int z = 0; z < 3; z++)
    for (int y = 0; y < 2; y++)
      for (int x = 0; x < 4; x++) {
        const float *t = p + 4 * ((z * 2 + y) * 4 + x);
        kt_require(r, t[0] == x && t[1] == y && t[2] == z && t[3] == 0.5f, "2D array pixel (%d,%d,%d)", x, y, z);
      }
}
static void check_1d_array(const kt_run *r, void *u) {
  (void)u;
  const uint8_t *p = r->buf[0]; /* rgba uint8: (x, y, clamp(300) = 255, 7) */
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 5; x++) {
      const uint8_t *t = p + 4 * (y * 5 + x);
      kt_require(r, t[0] == x && t[1] == y && t[2] == 255 && t[3] == 7, "1D array pixel (%d,%d)", x, y);
    }
}
static void check_rw3d(const kt_run *r, void *u) {
  const float *in = u, *p = r->buf[0];
  for (int i = 0; i < 2 * 2 * 3; i++) kt_require(r, p[i] == in[i] * 2.0f + 1.0f, "3D element %d", i);
}
static void test_writes_arrays_3d(void **state) {
  (void)state;
  const spvi_image_desc d = {SPVI_IMAGE_2D_ARRAY, SPVI_ORDER_RGBA, SPVI_FLOAT, 4, 2, 0, 3};
  kt_image ki = {d, NULL};
  kt_case c = {.file = "images",
               .kernel = "write_2d_array",
               .args = {KT_IMAGE(&ki, 4 * 2 * 3 * 16)},
               .range = {3, {4, 2, 3}, {0}, {0}},
               .check = check_arrays,
               .user = NULL,
               .expect_fault = false};
  kt_run_case(&c);
  const spvi_image_desc d1 = {SPVI_IMAGE_1D_ARRAY, SPVI_ORDER_RGBA, SPVI_UNSIGNED_INT8, 5, 0, 0, 3};
  kt_image k1 = {d1, NULL};
  kt_case c1 = {.file = "images",
                .kernel = "write_1d_array",
                .args = {KT_IMAGE(&k1, 5 * 3 * 4)},
                .range = {2, {5, 3, 0}, {0}, {0}},
                .check = check_1d_array,
                .user = NULL,
                .expect_fault = false};
  kt_run_case(&c1);
  static float in[12] = {1, -2, 3.5f, 0.25f, 8, 9, -10, 11, 1e-3f, 13, 14, 15};
  const spvi_image_desc d3 = {SPVI_IMAGE_3D, SPVI_ORDER_R, SPVI_FLOAT, 2, 2, 3, 0};
  kt_image k3 = {d3, in};
  kt_case c3 = {.file = "images",
                .kernel = "rw3d",
                .args = {KT_IMAGE(&k3, sizeof in)},
                .range = {3, {2, 2, 3}, {0}, {0}},
                .check = check_rw3d,
                .user = in,
                .expect_fault = false};
  kt_run_case(&c3);
}

static void check_queries(const kt_run *r, void *u) {
  (void)u;
  /* CLK_RGBA = 0x10B5, CLK_FLOAT = 0x10DE, CLK_R = 0x10B0, CLK_UNORM_INT8 = 0x10D2, CLK_UNSIGNED_INT32 = 0x10DC,
   * CLK_RG = 0x10B2 (OpenCL C 6.15.15.7; spvi returns SPIR-V's enumerants, the translator adds the base) */
  static const int32_t want[16] = {7,      3,      5, 0x10B5, 0x10DE, 4, 2,     6, 4 + 20 + 600,
                                   0x10B0, 0x10D2, 9, 0x10DC, 11,     2, 0x10B2};
  kt_expect_buf(r, 4, want, KT_I32, 16);
}
static void test_queries(void **state) {
  (void)state;
  kt_image a = {{SPVI_IMAGE_2D_ARRAY, SPVI_ORDER_RGBA, SPVI_FLOAT, 7, 3, 0, 5}, NULL};
  kt_image b = {{SPVI_IMAGE_3D, SPVI_ORDER_R, SPVI_UNORM_INT8, 4, 2, 6, 0}, NULL};
  kt_image c = {{SPVI_IMAGE_1D_BUFFER, SPVI_ORDER_RGBA, SPVI_UNSIGNED_INT32, 9, 0, 0, 0}, NULL};
  kt_image d = {{SPVI_IMAGE_1D_ARRAY, SPVI_ORDER_RG, SPVI_HALF_FLOAT, 11, 0, 0, 2}, NULL};
  kt_case k = {.file = "images",
               .kernel = "queries",
               .args = {KT_IMAGE(&a, 7 * 3 * 5 * 16), KT_IMAGE(&b, 4 * 2 * 6), KT_IMAGE(&c, 9 * 16),
                        KT_IMAGE(&d, 11 * 2 * 4), KT_BUF_IN(NULL, 64)},
               .range = {1, {1, 0, 0}, {0}, {0}},
               .check = check_queries,
               .user = NULL,
               .expect_fault = false};
  kt_run_case(&k);
}

static void check_buffer(const kt_run *r, void *u) {
  (void)u;
  static const uint32_t want[8] = {1, 2, 0, 1, 3, 4, 0, 1}; /* rg uint8: (r, g, 0, 1) */
  kt_expect_buf(r, 1, want, KT_U32, 8);
}
static void test_image_buffer(void **state) {
  (void)state;
  static const uint8_t px[4] = {1, 2, 3, 4};
  kt_image ki = {{SPVI_IMAGE_1D_BUFFER, SPVI_ORDER_RG, SPVI_UNSIGNED_INT8, 2, 0, 0, 0}, px};
  kt_case c = {.file = "images",
               .kernel = "read_buffer",
               .args = {KT_IMAGE(&ki, 4), KT_BUF_IN(NULL, 32)},
               .range = {1, {2, 0, 0}, {0}, {0}},
               .check = check_buffer,
               .user = NULL,
               .expect_fault = false};
  kt_run_case(&c);
}

/* ---- faults -------------------------------------------------------------------------------------- */

typedef struct want_fault {
  spvi_fault_kind kind;
  const char *text;
} want_fault;
static void check_fault(const kt_run *r, void *u) {
  const want_fault *wf = u;
  kt_require(r, r->status == SPVI_FAULT, "expected a fault, got status %d", (int)r->status);
  kt_require(r, r->fault->kind == wf->kind, "fault kind %d, expected %d:\n%s", (int)r->fault->kind, (int)wf->kind,
             r->fault->message);
  kt_require(r, strstr(r->fault->message, wf->text) != NULL, "fault report lacks `%s`:\n%s", wf->text,
             r->fault->message);
  kt_require(r, r->fault->arg_index == 0, "fault names argument %d", r->fault->arg_index);
}

static void test_fault_out_of_range(void **state) {
  (void)state;
  fixtures();
  kt_image ki = {D_U8, g_u8};
  want_fault wf = {SPVI_FAULT_OUT_OF_BOUNDS, "coordinate x = 5 is outside the image (0 <= x < 5)"};
  kt_case c = {.file = "images",
               .kernel = "read_plain",
               .args = {KT_IMAGE(&ki, sizeof g_u8), KT_BUF_IN(NULL, 6 * 4 * 16)},
               .range = {2, {6, 4, 0}, {0}, {0}},
               .check = check_fault,
               .user = &wf,
               .expect_fault = true};
  kt_run_case(&c);
  /* addressing mode none with a sampler: also a fault */
  const spvi_sampler s = {false, SPVI_ADDRESS_NONE, SPVI_FILTER_NEAREST};
  static const float co[2] = {2.0f, -0.5f};
  want_fault wf2 = {SPVI_FAULT_OUT_OF_BOUNDS, "coordinate y = -0.5 is outside the image"};
  kt_case c2 = {.file = "images",
                .kernel = "sample2d",
                .args = {KT_IMAGE(&ki, sizeof g_u8), KT_SAMPLER(&s), KT_BUF_IN(co, sizeof co), KT_BUF_IN(NULL, 16)},
                .range = {1, {1, 0, 0}, {0}, {0}},
                .check = check_fault,
                .user = &wf2,
                .expect_fault = true};
  kt_run_case(&c2);
}

static void test_fault_undefined(void **state) {
  (void)state;
  fixtures();
  kt_image ki = {D_U8, g_u8};
  const spvi_sampler s = {true, SPVI_ADDRESS_CLAMP, SPVI_FILTER_LINEAR};
  static const float nanco[2] = {NAN, 0.5f};
  want_fault wf = {SPVI_FAULT_IMAGE, "coordinate x is NaN"};
  kt_case c = {.file = "images",
               .kernel = "sample2d",
               .args = {KT_IMAGE(&ki, sizeof g_u8), KT_SAMPLER(&s), KT_BUF_IN(nanco, sizeof nanco),
                        KT_BUF_IN(NULL, 16)},
               .range = {1, {1, 0, 0}, {0}, {0}},
               .check = check_fault,
               .user = &wf,
               .expect_fault = true};
  kt_run_case(&c);
  /* read_imagef of an integer image */
  static const uint8_t ipx[4] = {1, 2, 3, 4};
  kt_image kint = {{SPVI_IMAGE_2D, SPVI_ORDER_RGBA, SPVI_UNSIGNED_INT8, 1, 1, 0, 0}, ipx};
  want_fault wf2 = {SPVI_FAULT_IMAGE, "a float read from an image with unsigned integer channels (uint8)"};
  kt_case c2 = {.file = "images",
                .kernel = "read_plain",
                .args = {KT_IMAGE(&kint, 4), KT_BUF_IN(NULL, 16)},
                .range = {2, {1, 1, 0}, {0}, {0}},
                .check = check_fault,
                .user = &wf2,
                .expect_fault = true};
  kt_run_case(&c2);
  /* read_imageui with linear filtering */
  static const float co[2] = {0.5f, 0.5f};
  want_fault wf3 = {SPVI_FAULT_IMAGE, "linear filtering with an integer read"};
  kt_case c3 = {.file = "images",
                .kernel = "sample2d_ui",
                .args = {KT_IMAGE(&kint, 4), KT_SAMPLER(&s), KT_BUF_IN(co, sizeof co), KT_BUF_IN(NULL, 16)},
                .range = {1, {1, 0, 0}, {0}, {0}},
                .check = check_fault,
                .user = &wf3,
                .expect_fault = true};
  kt_run_case(&c3);
}

/* SPIR-V 1.6 Nontemporal image operand: accepted as the hint it is, the reads and the write give
 * what they give without it (tests/spvasm_images/nontemporal.spvasm) */
static void test_nontemporal(void **state) {
  (void)state;
  static const unsigned warps[] = {1, 7, 32};
  const float src[2 * 4] = {1, 2, 3, 4, 5, 6, 7, 8}, want_dst[4] = {0.5f, 0.25f, 2, -1};
  const float want_out[8] = {5, 6, 7, 8, 5, 6, 7, 8}; /* pixel (1, 0) read, then sampled */
  const spvi_image_desc ds = {SPVI_IMAGE_2D, SPVI_ORDER_RGBA, SPVI_FLOAT, 2, 1, 0, 0};
  const spvi_image_desc dd = {SPVI_IMAGE_2D, SPVI_ORDER_RGBA, SPVI_FLOAT, 1, 1, 0, 0};
  const spvi_sampler smp = {false, SPVI_ADDRESS_NONE, SPVI_FILTER_NEAREST};
  spvi_error err;
  kt_g.m = spvasm_load("tests/spvasm_images/nontemporal.spvasm", 6, false, "nontemporal.spvasm");
  for (size_t i = 0; i < KT_COUNT(warps); i++) {
    kt_g.l = spvi_launch_new(kt_g.m, spvi_find_kernel(kt_g.m, "nontemporal"), &err);
    assert_non_null(kt_g.l);
    assert_int_equal(spvi_set_arg_image(kt_g.l, 0, &ds, src, sizeof src, &err), SPVI_OK);
    assert_int_equal(spvi_set_arg_sampler(kt_g.l, 1, &smp, &err), SPVI_OK);
    assert_int_equal(spvi_set_arg_image(kt_g.l, 2, &dd, NULL, 16, &err), SPVI_OK);
    assert_int_equal(spvi_set_arg_buffer(kt_g.l, 3, NULL, sizeof want_out, &err), SPVI_OK);
    const size_t g = 1;
    assert_int_equal(spvi_set_ndrange(kt_g.l, 1, &g, NULL, NULL, &err), SPVI_OK);
    spvi_run_options o = {.warp_width = warps[i]};
    spvi_fault f;
    assert_int_equal(spvi_run(kt_g.l, &o, &f, &err), SPVI_OK);
    size_t n;
    spvi_image_desc got;
    assert_memory_equal(spvi_arg_buffer(kt_g.l, 3, &n), want_out, sizeof want_out);
    assert_memory_equal(spvi_arg_image(kt_g.l, 2, &got, &n), want_dst, sizeof want_dst);
    spvi_launch_free(kt_g.l);
    kt_g.l = NULL;
  }
  kt_release();
}

/* API argument checks */
static void test_api_errors(void **state) {
  (void)state;
  spvi_error err;
  kt_g.m = tl_load("images", "O2");
  int k = spvi_find_kernel(kt_g.m, "sample2d");
  const spvi_param_info *p0 = spvi_kernel_param(kt_g.m, k, 0), *p1 = spvi_kernel_param(kt_g.m, k, 1);
  assert_int_equal(p0->kind, SPVI_PARAM_IMAGE);
  assert_int_equal(p0->image_type, SPVI_IMAGE_2D);
  assert_int_equal(p0->access, SPVI_ACCESS_READ_ONLY);
  assert_string_equal(p0->type_name, "read_only image2d_t");
  assert_int_equal(p1->kind, SPVI_PARAM_SAMPLER);
  kt_g.l = spvi_launch_new(kt_g.m, k, &err);
  spvi_image_desc d = {SPVI_IMAGE_3D, SPVI_ORDER_RGBA, SPVI_UNORM_INT8, 2, 2, 2, 0};
  assert_int_equal(spvi_set_arg_image(kt_g.l, 0, &d, NULL, 32, &err), SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "takes an image2d, got an image3d"));
  d = (spvi_image_desc){SPVI_IMAGE_2D, SPVI_ORDER_BGRA, SPVI_FLOAT, 2, 2, 0, 0};
  assert_int_equal(spvi_set_arg_image(kt_g.l, 0, &d, NULL, 64, &err), SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "bgra, argb and abgr take 8-bit channel types"));
  d = (spvi_image_desc){SPVI_IMAGE_2D, SPVI_ORDER_RGBA, SPVI_UNORM_INT8, 2, 2, 0, 0};
  assert_int_equal(spvi_set_arg_image(kt_g.l, 0, &d, NULL, 15, &err), SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "take 16 bytes, got 15"));
  assert_int_equal(spvi_set_arg_image(kt_g.l, 2, &d, NULL, 16, &err), SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "is not an image"));
  spvi_sampler s = {false, SPVI_ADDRESS_REPEAT, SPVI_FILTER_NEAREST};
  assert_int_equal(spvi_set_arg_sampler(kt_g.l, 1, &s, &err), SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "repeat addressing needs normalized coordinates"));
  assert_int_equal(spvi_set_arg_sampler(kt_g.l, 0, &s, &err), SPVI_E_USAGE);
  assert_int_equal(spvi_image_bytes(&d, &err), 16);
  d.height = 0;
  assert_int_equal(spvi_image_bytes(&d, &err), 0);
  d = (spvi_image_desc){SPVI_IMAGE_1D, SPVI_ORDER_R, SPVI_FLOAT, 4, 3, 0, 0};
  assert_int_equal(spvi_image_bytes(&d, &err), 0);
  assert_non_null(strstr(err.message, "has no height"));
  kt_release();
}

int main(void) {
  const struct CMUnitTest tests[] = {
    KT_TEST(test_model_hand_values),    KT_TEST(test_sample2d_unorm8),    KT_TEST(test_sample2d_float),
    KT_TEST(test_sample2d_srgba),       KT_TEST(test_srgb_roundtrip),     KT_TEST(test_read_formats),
    KT_TEST(test_write_conversions),    KT_TEST(test_int_images),         KT_TEST(test_sample_dims),
    KT_TEST(test_const_sampler_values), KT_TEST(test_int_coords),         KT_TEST(test_read_imageui_sampler),
    KT_TEST(test_read_imageh),          KT_TEST(test_writes_arrays_3d),   KT_TEST(test_queries),
    KT_TEST(test_image_buffer),         KT_TEST(test_fault_out_of_range), KT_TEST(test_fault_undefined),
    KT_TEST(test_api_errors),           KT_TEST(test_nontemporal),
  };
  return cmocka_run_group_tests_name("images", tests, NULL, NULL);
}
