/*
 * test_image.c — images, image formats, image commands and samplers of spvi's OpenCL platform
 * (opencl/cl_image.c), through the ICD loader as an application sees them.
 *
 * Expected values come from the OpenCL 3.0 API spec (error codes, minimum format lists, pitch
 * rules) and from plain C models written here (pixel layouts, copies, conversions of fill colours
 * derived by hand from OpenCL C 8.3's rules).
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include "cltest.h"

#include <dlfcn.h>
#include <pthread.h>

/* The group's objects (cltest_group_setup). */
#define platform cltest.platform
#define device cltest.device
#define ctx cltest.context
#define queue cltest.queue

/* ---- helpers ---------------------------------------------------------------------------------- */

/* A freed handle cannot go through the ICD loader, which reads the handle's dispatch table before
 * spvi sees the call: those checks call spvi's library directly (the same instance the loader
 * opened: $SPVI_BUILD/libspvi-cl.so as tests/opencl/run.sh sets it, or $OCL_ICD_VENDORS). */
static void *spvi_fn(const char *name) {
  static void *lib;
  if (!lib) {
    const char *b = getenv("SPVI_BUILD"), *v = getenv("OCL_ICD_VENDORS");
    char path[4096];
    if (b) snprintf(path, sizeof path, "%s/libspvi-cl.so", b);
    else snprintf(path, sizeof path, "%s", v && strstr(v, ".so") ? v : "build/libspvi-cl.so");
    lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  }
  return lib ? dlsym(lib, name) : NULL;
}

static cl_mem image(cl_mem_object_type type, cl_channel_order o, cl_channel_type t, size_t w, size_t h, size_t d,
                    size_t a, cl_mem_flags flags, void *host, size_t row, size_t slice, cl_int *err) {
  cl_image_format f = {o, t};
  cl_image_desc desc = {.image_type = type,
                        .image_width = w,
                        .image_height = h,
                        .image_depth = d,
                        .image_array_size = a,
                        .image_row_pitch = row,
                        .image_slice_pitch = slice};
  return clCreateImage(ctx, flags, &f, &desc, host, err);
}

static cl_mem rgba8_2d(size_t w, size_t h) {
  cl_int e;
  cl_mem m = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, w, h, 0, 0, CL_MEM_READ_WRITE, NULL, 0, 0, &e);
  assert_int_equal(e, CL_SUCCESS);
  return m;
}

static size_t info_size(cl_mem m, cl_image_info p) {
  size_t v = 12345;
  assert_int_equal(clGetImageInfo(m, p, sizeof v, &v, NULL), CL_SUCCESS);
  return v;
}

/* Bytes per pixel, independently of the implementation: channels x bytes per channel. */
static size_t channels_of(cl_channel_order o) {
  switch (o) {
  case CL_R:
  case CL_A:
  case CL_INTENSITY:
  case CL_LUMINANCE: return 1;
  case CL_RG:
  case CL_RA: return 2;
  default: return 4;
  }
}
static size_t type_bytes(cl_channel_type t) {
  switch (t) {
  case CL_SNORM_INT8:
  case CL_UNORM_INT8:
  case CL_SIGNED_INT8:
  case CL_UNSIGNED_INT8: return 1;
  case CL_SNORM_INT16:
  case CL_UNORM_INT16:
  case CL_SIGNED_INT16:
  case CL_UNSIGNED_INT16:
  case CL_HALF_FLOAT: return 2;
  default: return 4;
  }
}

static void pattern(uint8_t *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(i * 7 + seed * 13 + (i >> 8));
}

/* ---- formats ---------------------------------------------------------------------------------- */

static const cl_mem_object_type all_types[] = {CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                               CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
                                               CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D};

static bool has_format(const cl_image_format *l, cl_uint n, cl_channel_order o, cl_channel_type t) {
  for (cl_uint i = 0; i < n; i++)
    if (l[i].image_channel_order == o && l[i].image_channel_data_type == t) return true;
  return false;
}

static cl_image_format *formats(cl_mem_flags flags, cl_mem_object_type type, cl_uint *n) {
  assert_int_equal(clGetSupportedImageFormats(ctx, flags, type, 0, NULL, n), CL_SUCCESS);
  cl_image_format *l = calloc(*n + 1, sizeof *l);
  assert_int_equal(clGetSupportedImageFormats(ctx, flags, type, *n, l, NULL), CL_SUCCESS);
  return l;
}

/* OpenCL 3.0 API 5.3.2.1, "Minimum List of Supported Image Formats" (full profile). */
static void test_min_formats(void **state) {
  (void)state;
  static const cl_channel_type rw_types[] = {CL_UNORM_INT8,   CL_UNORM_INT16,   CL_SIGNED_INT8,    CL_SIGNED_INT16,
                                             CL_SIGNED_INT32, CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32,
                                             CL_HALF_FLOAT,   CL_FLOAT};
  static const cl_channel_type krw_types[] = {CL_UNORM_INT8,     CL_SIGNED_INT8,   CL_SIGNED_INT16,
                                              CL_SIGNED_INT32,   CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                              CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT};
  static const cl_mem_flags flags[] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE,
                                       CL_MEM_KERNEL_READ_AND_WRITE};
  for (size_t t = 0; t < 6; t++)
    for (size_t f = 0; f < 4; f++) {
      cl_uint n;
      cl_image_format *l = formats(flags[f], all_types[t], &n);
      /* 12 orders x types as OpenCL pairs them: 5 x 12 + 3 x 4 + 2 x 6, + 2 sRGB for reading */
      assert_int_equal(n, flags[f] == CL_MEM_READ_ONLY ? 86 : 84);
      if (flags[f] == CL_MEM_KERNEL_READ_AND_WRITE) {
        for (size_t i = 0; i < sizeof krw_types / sizeof krw_types[0]; i++) {
          assert_true(has_format(l, n, CL_R, krw_types[i]));
          assert_true(has_format(l, n, CL_RGBA, krw_types[i]));
        }
      } else {
        for (size_t i = 0; i < sizeof rw_types / sizeof rw_types[0]; i++)
          assert_true(has_format(l, n, CL_RGBA, rw_types[i]));
        assert_true(has_format(l, n, CL_BGRA, CL_UNORM_INT8));
      }
      assert_int_equal(has_format(l, n, CL_sRGBA, CL_UNORM_INT8), flags[f] == CL_MEM_READ_ONLY);
      assert_false(has_format(l, n, CL_RGB, CL_UNORM_SHORT_565));
      assert_false(has_format(l, n, CL_DEPTH, CL_FLOAT));
      assert_false(has_format(l, n, CL_BGRA, CL_FLOAT)); /* not an OpenCL pair */
      /* a short array gets the first entries, the count stays the total */
      cl_image_format two[2];
      cl_uint total = 0;
      assert_int_equal(clGetSupportedImageFormats(ctx, flags[f], all_types[t], 2, two, &total), CL_SUCCESS);
      assert_int_equal(total, n);
      assert_memory_equal(two, l, sizeof two);
      free(l);
    }
}

/* Every listed format can be created, with the element size its order and type give. */
static void test_every_format_creates(void **state) {
  (void)state;
  cl_uint n;
  cl_image_format *l = formats(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, &n);
  for (cl_uint i = 0; i < n; i++) {
    cl_int e;
    cl_mem m = image(CL_MEM_OBJECT_IMAGE2D, l[i].image_channel_order, l[i].image_channel_data_type, 3, 2, 0, 0,
                     CL_MEM_READ_ONLY, NULL, 0, 0, &e);
    assert_int_equal(e, CL_SUCCESS);
    size_t elem = channels_of(l[i].image_channel_order) * type_bytes(l[i].image_channel_data_type);
    assert_int_equal(info_size(m, CL_IMAGE_ELEMENT_SIZE), elem);
    assert_int_equal(info_size(m, CL_IMAGE_ROW_PITCH), 3 * elem);
    cl_image_format got;
    assert_int_equal(clGetImageInfo(m, CL_IMAGE_FORMAT, sizeof got, &got, NULL), CL_SUCCESS);
    assert_memory_equal(&got, &l[i], sizeof got);
    clReleaseMemObject(m);
  }
  free(l);
}

static void test_format_errors(void **state) {
  (void)state;
  cl_uint n;
  cl_image_format f[4];
  assert_int_equal(clGetSupportedImageFormats(NULL, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
                   CL_INVALID_CONTEXT);
  assert_int_equal(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL,
                                              &n),
                   CL_INVALID_VALUE);
  assert_int_equal(clGetSupportedImageFormats(ctx, (cl_mem_flags)1 << 40, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
                   CL_INVALID_VALUE);
  assert_int_equal(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER, 0, NULL, &n),
                   CL_INVALID_VALUE);
  assert_int_equal(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, f, &n),
                   CL_INVALID_VALUE);
}

/* ---- creation and queries --------------------------------------------------------------------- */

typedef struct type_case {
  cl_mem_object_type type;
  size_t w, h, d, a;           /* as given */
  size_t height, depth, array; /* as clGetImageInfo reports them */
} type_case;

static void test_create_every_type(void **state) {
  (void)state;
  const type_case cases[] = {
    {CL_MEM_OBJECT_IMAGE1D, 7, 1, 1, 1, 0, 0, 0}, {CL_MEM_OBJECT_IMAGE1D_ARRAY, 7, 0, 0, 3, 0, 0, 3},
    {CL_MEM_OBJECT_IMAGE2D, 7, 5, 0, 0, 5, 0, 0}, {CL_MEM_OBJECT_IMAGE2D_ARRAY, 7, 5, 0, 3, 5, 0, 3},
    {CL_MEM_OBJECT_IMAGE3D, 7, 5, 4, 0, 5, 4, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const type_case *c = &cases[i];
    cl_int e;
    cl_mem m = image(c->type, CL_RG, CL_HALF_FLOAT, c->w, c->h, c->d, c->a, CL_MEM_READ_WRITE, NULL, 0, 0, &e);
    assert_int_equal(e, CL_SUCCESS);
    size_t elem = 4, row = c->w * elem;
    assert_int_equal(info_size(m, CL_IMAGE_WIDTH), c->w);
    assert_int_equal(info_size(m, CL_IMAGE_HEIGHT), c->height);
    assert_int_equal(info_size(m, CL_IMAGE_DEPTH), c->depth);
    assert_int_equal(info_size(m, CL_IMAGE_ARRAY_SIZE), c->array);
    assert_int_equal(info_size(m, CL_IMAGE_ROW_PITCH), row);
    /* 5.3.7: slice pitch of a 1D array is a row, of 2D arrays and 3D images a 2D slice, else 0 */
    size_t slice = c->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? row : c->depth || c->array ? row * c->height : 0;
    assert_int_equal(info_size(m, CL_IMAGE_SLICE_PITCH), slice);
    cl_mem buf = (cl_mem)1;
    assert_int_equal(clGetImageInfo(m, CL_IMAGE_BUFFER, sizeof buf, &buf, NULL), CL_SUCCESS);
    assert_null(buf);
    cl_uint u = 7;
    assert_int_equal(clGetImageInfo(m, CL_IMAGE_NUM_MIP_LEVELS, sizeof u, &u, NULL), CL_SUCCESS);
    assert_int_equal(u, 0);
    assert_int_equal(clGetImageInfo(m, CL_IMAGE_NUM_SAMPLES, sizeof u, &u, NULL), CL_SUCCESS);
    assert_int_equal(u, 0);
    cl_mem_object_type t;
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
    assert_int_equal(t, c->type);
    size_t size, n = c->w * (c->height ? c->height : 1) * (c->depth ? c->depth : 1) * (c->array ? c->array : 1);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL), CL_SUCCESS);
    assert_int_equal(size, n * elem);
    size_t ret = 0;
    assert_int_equal(clGetImageInfo(m, CL_IMAGE_FORMAT, 0, NULL, &ret), CL_SUCCESS);
    assert_int_equal(ret, sizeof(cl_image_format));
    assert_int_equal(clGetImageInfo(m, CL_IMAGE_WIDTH, 1, &size, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetImageInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL), CL_INVALID_VALUE);
    assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);
  }
}

static void test_image_info_errors(void **state) {
  (void)state;
  size_t v;
  cl_int e;
  assert_int_equal(clGetImageInfo(NULL, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(clGetImageInfo(b, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(b);
  cl_mem m = rgba8_2d(2, 2);
  clReleaseMemObject(m);
  cl_int (*get)(cl_mem, cl_image_info, size_t, void *,
                size_t *) = (cl_int(*)(cl_mem, cl_image_info, size_t, void *, size_t *))spvi_fn("clGetImageInfo");
  assert_non_null(get);
  assert_int_equal(get(m, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
}

static void test_create_errors(void **state) {
  (void)state;
  cl_int e;
  cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};
  uint8_t host[4 * 4 * 4 * 4];
#define EXPECT(call, code)     \
  do {                         \
    e = 1;                     \
    assert_null(call);         \
    assert_int_equal(e, code); \
  } while (0)
  EXPECT(clCreateImage(NULL, 0, &f, &d, NULL, &e), CL_INVALID_CONTEXT);
  EXPECT(clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &f, &d, NULL, &e), CL_INVALID_VALUE);
  EXPECT(clCreateImage(ctx, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, &f, &d, host, &e), CL_INVALID_VALUE);
  EXPECT(clCreateImage(ctx, CL_MEM_KERNEL_READ_AND_WRITE, &f, &d, NULL, &e), CL_INVALID_VALUE);
  EXPECT(clCreateImage(ctx, 0, NULL, &d, NULL, &e), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  cl_image_format bad[] = {{CL_RGB, CL_UNORM_INT8}, {CL_BGRA, CL_FLOAT}, {CL_INTENSITY, CL_UNSIGNED_INT8},
                           {CL_sRGBA, CL_FLOAT},    {0x1234, CL_FLOAT},  {CL_RGBA, 0x1234}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    EXPECT(clCreateImage(ctx, 0, &bad[i], &d, NULL, &e), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  cl_image_format unsupported[] = {{CL_RGB, CL_UNORM_SHORT_565},   {CL_DEPTH, CL_FLOAT},
                                   {CL_RGBx, CL_UNORM_INT_101010}, {CL_Rx, CL_FLOAT},
                                   {CL_sRGB, CL_UNORM_INT8},       {CL_RGBA, CL_UNORM_INT_101010_2}};
  for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
    EXPECT(clCreateImage(ctx, 0, &unsupported[i], &d, NULL, &e), CL_IMAGE_FORMAT_NOT_SUPPORTED);
  EXPECT(clCreateImage(ctx, 0, &f, NULL, NULL, &e), CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc x = d;
  x.image_type = CL_MEM_OBJECT_BUFFER;
  EXPECT(clCreateImage(ctx, 0, &f, &x, NULL, &e), CL_INVALID_IMAGE_DESCRIPTOR);
  x = d, x.image_width = 0;
  EXPECT(clCreateImage(ctx, 0, &f, &x, NULL, &e), CL_INVALID_IMAGE_DESCRIPTOR);
  x = d, x.num_mip_levels = 2;
  EXPECT(clCreateImage(ctx, 0, &f, &x, NULL, &e), CL_INVALID_IMAGE_DESCRIPTOR);
  x = d, x.image_row_pitch = 16; /* a pitch without a host_ptr */
  EXPECT(clCreateImage(ctx, 0, &f, &x, NULL, &e), CL_INVALID_IMAGE_DESCRIPTOR);
  x = d, x.image_row_pitch = 18; /* not a multiple of the 4-byte element */
  EXPECT(clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &f, &x, host, &e), CL_INVALID_IMAGE_DESCRIPTOR);
  x = d, x.image_row_pitch = 12; /* shorter than a row */
  EXPECT(clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &f, &x, host, &e), CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc a3 = {.image_type = CL_MEM_OBJECT_IMAGE3D,
                      .image_width = 2,
                      .image_height = 2,
                      .image_depth = 2,
                      .image_row_pitch = 8,
                      .image_slice_pitch = 12}; /* slice shorter than 2 rows */
  EXPECT(clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &f, &a3, host, &e), CL_INVALID_IMAGE_DESCRIPTOR);
  a3.image_slice_pitch = 20; /* not a multiple of the row pitch */
  EXPECT(clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &f, &a3, host, &e), CL_INVALID_IMAGE_DESCRIPTOR);
  x = d, x.image_width = 16385; /* CL_DEVICE_IMAGE2D_MAX_WIDTH + 1 */
  EXPECT(clCreateImage(ctx, 0, &f, &x, NULL, &e), CL_INVALID_IMAGE_SIZE);
  cl_image_desc big3 = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = 2, .image_height = 2, .image_depth = 4096};
  EXPECT(clCreateImage(ctx, 0, &f, &big3, NULL, &e), CL_INVALID_IMAGE_SIZE);
  cl_image_desc bigarr = {.image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY, .image_width = 2, .image_array_size = 4096};
  EXPECT(clCreateImage(ctx, 0, &f, &bigarr, NULL, &e), CL_INVALID_IMAGE_SIZE);
  EXPECT(clCreateImage(ctx, 0, &f, &d, host, &e), CL_INVALID_HOST_PTR);
  EXPECT(clCreateImage(ctx, CL_MEM_USE_HOST_PTR, &f, &d, NULL, &e), CL_INVALID_HOST_PTR);
  EXPECT(clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &f, &d, NULL, &e), CL_INVALID_HOST_PTR);
  /* 2D images from buffers need cl_khr_image2d_from_buffer, which is not advertised */
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &e);
  x = d, x.mem_object = b;
  EXPECT(clCreateImage(ctx, CL_MEM_READ_ONLY, &f, &x, NULL, &e), CL_INVALID_OPERATION);
  /* mem_object on a type that takes none */
  cl_image_desc d1 = {.image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = 4, .mem_object = b};
  EXPECT(clCreateImage(ctx, 0, &f, &d1, NULL, &e), CL_INVALID_IMAGE_DESCRIPTOR);
  clReleaseMemObject(b);
  /* properties: none is defined for images in OpenCL 3.0 */
  cl_mem_properties props[] = {CL_MEM_FLAGS, 0};
  EXPECT(clCreateImageWithProperties(ctx, props, 0, &f, &d, NULL, &e), CL_INVALID_PROPERTY);
  /* the 1.1 forms report descriptor errors as sizes; a 3D image needs a depth above 1 */
  EXPECT(clCreateImage2D(ctx, 0, &f, 0, 4, 0, NULL, &e), CL_INVALID_IMAGE_SIZE);
  EXPECT(clCreateImage2D(ctx, CL_MEM_COPY_HOST_PTR, &f, 4, 4, 5, host, &e), CL_INVALID_IMAGE_SIZE);
  EXPECT(clCreateImage3D(ctx, 0, &f, 4, 4, 1, 0, 0, NULL, &e), CL_INVALID_IMAGE_SIZE);
  EXPECT(clCreateImage2D(ctx, 0, NULL, 4, 4, 0, NULL, &e), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
#undef EXPECT
}

static void test_create_legacy_and_properties(void **state) {
  (void)state;
  cl_int e;
  cl_image_format f = {CL_R, CL_FLOAT};
  cl_mem m2 = clCreateImage2D(ctx, CL_MEM_READ_ONLY, &f, 5, 3, 0, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(info_size(m2, CL_IMAGE_HEIGHT), 3);
  cl_mem m3 = clCreateImage3D(ctx, CL_MEM_READ_ONLY, &f, 5, 3, 2, 0, 0, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(info_size(m3, CL_IMAGE_DEPTH), 2);
  assert_int_equal(info_size(m3, CL_IMAGE_SLICE_PITCH), 5 * 3 * 4);
  size_t ret = 99;
  assert_int_equal(clGetMemObjectInfo(m2, CL_MEM_PROPERTIES, 0, NULL, &ret), CL_SUCCESS);
  assert_int_equal(ret, 0);
  cl_mem_properties none[] = {0};
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 2, .image_height = 2};
  cl_mem mp = clCreateImageWithProperties(ctx, none, CL_MEM_READ_WRITE, &f, &d, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  cl_mem_properties got[2] = {7, 7};
  assert_int_equal(clGetMemObjectInfo(mp, CL_MEM_PROPERTIES, sizeof got, got, &ret), CL_SUCCESS);
  assert_int_equal(ret, sizeof(cl_mem_properties));
  assert_int_equal(got[0], 0);
  clReleaseMemObject(m2);
  clReleaseMemObject(m3);
  clReleaseMemObject(mp);
}

/* ---- host pointers and pitches ---------------------------------------------------------------- */

/* 2D array of 5x3 RGBA8 pixels x 2 layers written from a padded layout, read back into another
 * padded layout: compared with a C model of both layouts. */
static void test_write_read_pitches(void **state) {
  (void)state;
  enum { W = 5, H = 3, L = 2, E = 4 };
  cl_int e;
  cl_mem m = image(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_UNSIGNED_INT8, W, H, 0, L, CL_MEM_READ_WRITE, NULL, 0, 0,
                   &e);
  assert_int_equal(e, CL_SUCCESS);
  size_t wrow = W * E + 12, wslice = wrow * H + 8;
  uint8_t *src = malloc(wslice * L), *dst = calloc(1, 64 * 4 * L);
  pattern(src, wslice * L, 1);
  size_t origin[3] = {0, 0, 0}, region[3] = {W, H, L};
  assert_int_equal(clEnqueueWriteImage(queue, m, CL_TRUE, origin, region, wrow, wslice, src, 0, NULL, NULL),
                   CL_SUCCESS);
  /* read a sub-box (x 1..4, y 1..2, layer 1) with row pitch 64 and slice pitch 0 (computed) */
  size_t o2[3] = {1, 1, 1}, r2[3] = {3, 2, 1}, rrow = 64;
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, o2, r2, rrow, 0, dst, 0, NULL, NULL), CL_SUCCESS);
  for (size_t y = 0; y < 2; y++)
    for (size_t x = 0; x < 3; x++)
      assert_memory_equal(dst + y * rrow + x * E, src + 1 * wslice + (y + 1) * wrow + (x + 1) * E, E);
  /* and the whole image tightly */
  uint8_t *all = malloc(W * H * L * E);
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, origin, region, 0, 0, all, 0, NULL, NULL), CL_SUCCESS);
  for (size_t l = 0; l < L; l++)
    for (size_t y = 0; y < H; y++) assert_memory_equal(all + ((l * H + y) * W) * E, src + l * wslice + y * wrow, W * E);
  free(src), free(dst), free(all);
  clReleaseMemObject(m);
}

/* A 1D image array's layers are slice_pitch apart in host memory (origin[1] is the layer). */
static void test_1d_array_slice_pitch(void **state) {
  (void)state;
  enum { W = 6, L = 4 };
  cl_int e;
  size_t row = W * 2, slice = 2 * row; /* a multiple of the row pitch (5.3.1.2) */
  uint16_t host[W * 2 * L];
  for (size_t i = 0; i < sizeof host / 2; i++) host[i] = (uint16_t)(1000 + i);
  cl_mem m = image(CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_R, CL_UNSIGNED_INT16, W, 0, 0, L, CL_MEM_COPY_HOST_PTR, host, row,
                   slice, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(info_size(m, CL_IMAGE_ROW_PITCH), row);
  assert_int_equal(info_size(m, CL_IMAGE_SLICE_PITCH), slice);
  uint16_t out[2][3];
  size_t o[3] = {2, 1, 0}, r[3] = {3, 2, 1};
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, o, r, 0, 0, out, 0, NULL, NULL), CL_SUCCESS);
  for (size_t l = 0; l < 2; l++)
    for (size_t x = 0; x < 3; x++) assert_int_equal(out[l][x], host[((l + 1) * slice) / 2 + x + 2]);
  /* region[2] must be 1, origin[2] 0 */
  size_t bad_r[3] = {3, 2, 2}, bad_o[3] = {0, 0, 1}, ok_r[3] = {1, 1, 1};
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, o, bad_r, 0, 0, out, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, bad_o, ok_r, 0, 0, out, 0, NULL, NULL), CL_INVALID_VALUE);
  clReleaseMemObject(m);
}

static void test_use_host_ptr(void **state) {
  (void)state;
  cl_int e;
  enum { W = 4, H = 3 };
  /* tight pitches: the image is the host memory itself, and its maps point into it */
  uint8_t tight[W * H * 4];
  pattern(tight, sizeof tight, 2);
  cl_mem m = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, W, H, 0, 0, CL_MEM_USE_HOST_PTR, tight, 0, 0, &e);
  assert_int_equal(e, CL_SUCCESS);
  void *hp = NULL;
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL), CL_SUCCESS);
  assert_ptr_equal(hp, tight);
  size_t o[3] = {1, 2, 0}, r[3] = {2, 1, 1}, rp = 0;
  uint8_t *p = clEnqueueMapImage(queue, m, CL_TRUE, CL_MAP_READ, o, r, &rp, NULL, 0, NULL, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_ptr_equal(p, tight + 2 * W * 4 + 4);
  assert_int_equal(rp, W * 4);
  assert_int_equal(clEnqueueUnmapMemObject(queue, m, p, 0, NULL, NULL), CL_SUCCESS);
  clReleaseMemObject(m);

  /* padded pitches: contents are taken from host_ptr, and host_ptr holds the latest bits of a
   * mapped region; writes through the map reach the image at unmap */
  size_t row = W * 4 + 8;
  uint8_t padded[(W * 4 + 8) * H];
  pattern(padded, sizeof padded, 3);
  m = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, W, H, 0, 0, CL_MEM_USE_HOST_PTR, padded, row, 0, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(info_size(m, CL_IMAGE_ROW_PITCH), row);
  uint8_t px[4] = {9, 8, 7, 6};
  size_t one[3] = {1, 1, 1}, at[3] = {3, 1, 0};
  assert_int_equal(clEnqueueWriteImage(queue, m, CL_TRUE, at, one, 0, 0, px, 0, NULL, NULL), CL_SUCCESS);
  size_t all[3] = {W, H, 1}, zero[3] = {0, 0, 0};
  p = clEnqueueMapImage(queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, zero, all, &rp, NULL, 0, NULL, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_ptr_equal(p, padded);
  assert_int_equal(rp, row);
  assert_memory_equal(padded + row + 3 * 4, px, 4);
  padded[2 * row + 0] = 0xEE; /* pixel (0, 2), red */
  cl_uint count = 0;
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof count, &count, NULL), CL_SUCCESS);
  assert_int_equal(count, 1);
  assert_int_equal(clEnqueueUnmapMemObject(queue, m, p, 0, NULL, NULL), CL_SUCCESS);
  uint8_t back[4];
  size_t at2[3] = {0, 2, 0};
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, at2, one, 0, 0, back, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(back[0], 0xEE);
  assert_memory_equal(back + 1, padded + 2 * row + 1, 3);
  clReleaseMemObject(m);
}

/* A padded 2D array with CL_MEM_USE_HOST_PTR: maps report host_ptr's pitches, a
 * CL_MAP_WRITE_INVALIDATE_REGION map's writes reach the image. A 1D image's row pitch does not
 * change its layout: it stays in place. */
static void test_use_host_ptr_array(void **state) {
  (void)state;
  cl_int e;
  enum { W = 3, H = 2, L = 2, ROW = 16, SLICE = 48 };
  uint8_t host[SLICE * L];
  pattern(host, sizeof host, 9);
  cl_mem m = image(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_UNSIGNED_INT8, W, H, 0, L, CL_MEM_USE_HOST_PTR, host, ROW,
                   SLICE, &e);
  assert_int_equal(e, CL_SUCCESS);
  size_t o[3] = {1, 0, 1}, r[3] = {2, 2, 1}, rp, sp;
  uint8_t *p = clEnqueueMapImage(queue, m, CL_TRUE, CL_MAP_READ, o, r, &rp, &sp, 0, NULL, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_ptr_equal(p, host + SLICE + 4);
  assert_int_equal(rp, ROW);
  assert_int_equal(sp, SLICE);
  assert_int_equal(clEnqueueUnmapMemObject(queue, m, p, 0, NULL, NULL), CL_SUCCESS);
  p = clEnqueueMapImage(queue, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, o, r, &rp, &sp, 0, NULL, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  for (size_t y = 0; y < 2; y++) memset(p + y * rp, (int)(0x40 + y), 2 * 4);
  assert_int_equal(clEnqueueUnmapMemObject(queue, m, p, 0, NULL, NULL), CL_SUCCESS);
  uint8_t out[L][H][W][4];
  size_t z[3] = {0, 0, 0}, all[3] = {W, H, L};
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, z, all, 0, 0, out, 0, NULL, NULL), CL_SUCCESS);
  for (size_t l = 0; l < L; l++)
    for (size_t y = 0; y < H; y++)
      for (size_t x = 0; x < W; x++) {
        bool in = l == 1 && x >= 1;
        for (size_t c = 0; c < 4; c++)
          assert_int_equal(out[l][y][x][c], in ? 0x40 + y : host[l * SLICE + y * ROW + x * 4 + c]);
      }
  clReleaseMemObject(m);

  uint8_t line[64];
  m = image(CL_MEM_OBJECT_IMAGE1D, CL_RGBA, CL_UNORM_INT8, 4, 0, 0, 0, CL_MEM_USE_HOST_PTR, line, 64, 0, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(info_size(m, CL_IMAGE_ROW_PITCH), 64);
  size_t o1[3] = {2, 0, 0}, r1[3] = {1, 1, 1};
  p = clEnqueueMapImage(queue, m, CL_TRUE, CL_MAP_READ, o1, r1, &rp, NULL, 0, NULL, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_ptr_equal(p, line + 8);
  assert_int_equal(clEnqueueUnmapMemObject(queue, m, p, 0, NULL, NULL), CL_SUCCESS);
  clFinish(queue);
  clReleaseMemObject(m);
}

/* CL_MEM_COPY_HOST_PTR with a padded 3D layout. */
static void test_copy_host_ptr_3d(void **state) {
  (void)state;
  enum { W = 3, H = 2, D = 3 };
  cl_int e;
  size_t row = W * 4 + 4, slice = row * H + 16;
  uint8_t *host = malloc(slice * D);
  pattern(host, slice * D, 4);
  cl_mem m = image(CL_MEM_OBJECT_IMAGE3D, CL_R, CL_FLOAT, W, H, D, 0, CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY, host,
                   row, slice, &e);
  assert_int_equal(e, CL_SUCCESS);
  float out[D][H][W];
  size_t o[3] = {0, 0, 0}, r[3] = {W, H, D};
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, o, r, 0, 0, out, 0, NULL, NULL), CL_SUCCESS);
  for (size_t z = 0; z < D; z++)
    for (size_t y = 0; y < H; y++) assert_memory_equal(out[z][y], host + z * slice + y * row, W * 4);
  memset(host, 0, slice * D); /* a copy: the image does not change */
  float again[D][H][W];
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, o, r, 0, 0, again, 0, NULL, NULL), CL_SUCCESS);
  assert_memory_equal(again, out, sizeof out);
  free(host);
  clReleaseMemObject(m);
}

static void test_read_write_errors(void **state) {
  (void)state;
  cl_int e;
  cl_mem m = rgba8_2d(4, 4);
  uint8_t buf[256];
  size_t o[3] = {0, 0, 0}, r[3] = {4, 4, 1};
  assert_int_equal(clEnqueueReadImage(NULL, m, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clEnqueueReadImage(queue, NULL, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, o, r, 0, 0, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, NULL, r, 0, 0, buf, 0, NULL, NULL), CL_INVALID_VALUE);
  size_t big[3] = {5, 4, 1}, zero[3] = {0, 4, 1}, deep[3] = {4, 4, 2}, off[3] = {1, 0, 0};
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, o, big, 0, 0, buf, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, o, zero, 0, 0, buf, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, o, deep, 0, 0, buf, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, off, r, 0, 0, buf, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, o, r, 15, 0, buf, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, o, r, 0, 64, buf, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueWriteImage(queue, m, CL_TRUE, o, r, 0, 0, buf, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &e);
  assert_int_equal(clEnqueueWriteImage(queue, b, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(b);
  /* host access flags */
  cl_mem na = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, 4, 4, 0, 0, CL_MEM_HOST_NO_ACCESS, NULL, 0, 0, &e);
  cl_mem ro = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, 4, 4, 0, 0, CL_MEM_HOST_READ_ONLY, NULL, 0, 0, &e);
  cl_mem wo = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, 4, 4, 0, 0, CL_MEM_HOST_WRITE_ONLY, NULL, 0, 0, &e);
  assert_int_equal(clEnqueueReadImage(queue, na, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL), CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueWriteImage(queue, na, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL), CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueWriteImage(queue, ro, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL), CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueReadImage(queue, ro, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueReadImage(queue, wo, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL), CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueWriteImage(queue, wo, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL), CL_SUCCESS);
  size_t rp, sp;
  assert_null(clEnqueueMapImage(queue, na, CL_TRUE, CL_MAP_READ, o, r, &rp, &sp, 0, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_OPERATION);
  assert_null(clEnqueueMapImage(queue, ro, CL_TRUE, CL_MAP_WRITE, o, r, &rp, &sp, 0, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_OPERATION);
  clReleaseMemObject(na), clReleaseMemObject(ro), clReleaseMemObject(wo);
  /* another context's queue */
  cl_context c2 = clCreateContext(NULL, 1, &device, NULL, NULL, &e);
  cl_command_queue q2 = clCreateCommandQueueWithProperties(c2, device, NULL, &e);
  assert_int_equal(clEnqueueReadImage(q2, m, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL), CL_INVALID_CONTEXT);
  clReleaseCommandQueue(q2);
  clReleaseContext(c2);
  clReleaseMemObject(m);
}

/* ---- copies ------------------------------------------------------------------------------------ */

static void test_copy_image(void **state) {
  (void)state;
  cl_int e;
  enum { W = 6, H = 5 };
  uint8_t src[H][W][4];
  pattern(&src[0][0][0], sizeof src, 5);
  cl_mem a = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, W, H, 0, 0, CL_MEM_COPY_HOST_PTR, src, 0, 0, &e);
  assert_int_equal(e, CL_SUCCESS);
  cl_mem v = image(CL_MEM_OBJECT_IMAGE3D, CL_RGBA, CL_UNORM_INT8, 4, 4, 3, 0, CL_MEM_READ_WRITE, NULL, 0, 0, &e);
  assert_int_equal(e, CL_SUCCESS);
  /* a 3x2 box of the 2D image into slice 2 of the 3D one */
  size_t so[3] = {2, 1, 0}, dor[3] = {1, 2, 2}, r[3] = {3, 2, 1};
  assert_int_equal(clEnqueueCopyImage(queue, a, v, so, dor, r, 0, NULL, NULL), CL_SUCCESS);
  uint8_t out[3][4][4][4];
  size_t o[3] = {0, 0, 0}, all[3] = {4, 4, 3};
  assert_int_equal(clEnqueueReadImage(queue, v, CL_TRUE, o, all, 0, 0, out, 0, NULL, NULL), CL_SUCCESS);
  for (size_t z = 0; z < 3; z++)
    for (size_t y = 0; y < 4; y++)
      for (size_t x = 0; x < 4; x++) {
        bool in = z == 2 && y >= 2 && x >= 1 && x < 4;
        if (in) assert_memory_equal(out[z][y][x], src[y - 2 + 1][x - 1 + 2], 4);
        else assert_int_equal(out[z][y][x][0] | out[z][y][x][1] | out[z][y][x][2] | out[z][y][x][3], 0);
      }
  /* within one image, disjoint boxes; overlapping ones are refused */
  size_t s1[3] = {0, 0, 0}, d1[3] = {3, 3, 0}, r1[3] = {3, 2, 1}, d2[3] = {2, 1, 0};
  assert_int_equal(clEnqueueCopyImage(queue, a, a, s1, d1, r1, 0, NULL, NULL), CL_SUCCESS);
  uint8_t back[H][W][4];
  size_t whole[3] = {W, H, 1};
  assert_int_equal(clEnqueueReadImage(queue, a, CL_TRUE, o, whole, 0, 0, back, 0, NULL, NULL), CL_SUCCESS);
  for (size_t y = 0; y < H; y++)
    for (size_t x = 0; x < W; x++) {
      bool in = y >= 3 && x >= 3;
      assert_memory_equal(back[y][x], in ? src[y - 3][x - 3] : src[y][x], 4);
    }
  assert_int_equal(clEnqueueCopyImage(queue, a, a, s1, d2, r1, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  /* formats must match; boxes must fit */
  cl_mem f = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_SIGNED_INT8, W, H, 0, 0, CL_MEM_READ_WRITE, NULL, 0, 0, &e);
  assert_int_equal(clEnqueueCopyImage(queue, a, f, s1, s1, r1, 0, NULL, NULL), CL_IMAGE_FORMAT_MISMATCH);
  size_t far[3] = {4, 0, 0};
  assert_int_equal(clEnqueueCopyImage(queue, a, a, s1, far, r1, 0, NULL, NULL), CL_INVALID_VALUE);
  size_t deep[3] = {1, 1, 2};
  assert_int_equal(clEnqueueCopyImage(queue, a, v, s1, s1, deep, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueCopyImage(queue, a, NULL, s1, s1, r1, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  clFinish(queue);
  clReleaseMemObject(a), clReleaseMemObject(v), clReleaseMemObject(f);
}

static void test_copy_image_buffer(void **state) {
  (void)state;
  cl_int e;
  enum { W = 5, N = 3 };
  uint16_t src[N][W][2];
  for (size_t i = 0; i < sizeof src / 2; i++) (&src[0][0][0])[i] = (uint16_t)(40000 + i * 3);
  cl_mem img = image(CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_RG, CL_UNSIGNED_INT16, W, 0, 0, N, CL_MEM_COPY_HOST_PTR, src, 0, 0,
                     &e);
  assert_int_equal(e, CL_SUCCESS);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256, NULL, &e);
  uint8_t zeros[256] = {0};
  assert_int_equal(clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, 256, zeros, 0, NULL, NULL), CL_SUCCESS);
  /* x 1..3 of layers 1..2, tightly packed at byte 12 of the buffer */
  size_t o[3] = {1, 1, 0}, r[3] = {3, 2, 1};
  assert_int_equal(clEnqueueCopyImageToBuffer(queue, img, buf, o, r, 12, 0, NULL, NULL), CL_SUCCESS);
  uint8_t got[256];
  assert_int_equal(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, 256, got, 0, NULL, NULL), CL_SUCCESS);
  for (size_t i = 0; i < 12; i++) assert_int_equal(got[i], 0);
  for (size_t l = 0; l < 2; l++) assert_memory_equal(got + 12 + l * 3 * 4, src[l + 1][1], 3 * 4);
  assert_int_equal(got[12 + 24], 0);
  /* and back into layer 0 at x 2 */
  size_t o2[3] = {2, 0, 0}, r2[3] = {3, 1, 1};
  assert_int_equal(clEnqueueCopyBufferToImage(queue, buf, img, 12, o2, r2, 0, NULL, NULL), CL_SUCCESS);
  uint16_t layer0[W][2];
  size_t z[3] = {0, 0, 0}, row[3] = {W, 1, 1};
  assert_int_equal(clEnqueueReadImage(queue, img, CL_TRUE, z, row, 0, 0, layer0, 0, NULL, NULL), CL_SUCCESS);
  assert_memory_equal(layer0[0], src[0][0], 2 * 4);
  assert_memory_equal(layer0[2], src[1][1], 3 * 4);
  /* errors: the buffer range, the kinds of objects */
  assert_int_equal(clEnqueueCopyImageToBuffer(queue, img, buf, o, r, 256 - 23, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueCopyImageToBuffer(queue, img, buf, o, r, 257, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueCopyImageToBuffer(queue, img, img, o, r, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clEnqueueCopyBufferToImage(queue, buf, buf, 0, o, r, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  size_t bad[3] = {3, 3, 1};
  assert_int_equal(clEnqueueCopyBufferToImage(queue, buf, img, 0, o, bad, 0, NULL, NULL), CL_INVALID_VALUE);
  clReleaseMemObject(img), clReleaseMemObject(buf);
}

/* ---- 1D image buffers and 2D views of 2D images ---------------------------------------------- */

static void test_image1d_buffer(void **state) {
  (void)state;
  cl_int e;
  uint8_t data[64];
  pattern(data, sizeof data, 6);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &e);
  assert_int_equal(e, CL_SUCCESS);
  cl_image_format f = {CL_RGBA, CL_UNSIGNED_INT8};
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 12, .buffer = buf};
  cl_mem img = clCreateImage(ctx, CL_MEM_READ_ONLY, &f, &d, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  cl_mem got = NULL;
  assert_int_equal(clGetImageInfo(img, CL_IMAGE_BUFFER, sizeof got, &got, NULL), CL_SUCCESS);
  assert_ptr_equal(got, buf);
  assert_int_equal(clGetMemObjectInfo(img, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof got, &got, NULL), CL_SUCCESS);
  assert_ptr_equal(got, buf);
  cl_mem_flags flags;
  assert_int_equal(clGetMemObjectInfo(img, CL_MEM_FLAGS, sizeof flags, &flags, NULL), CL_SUCCESS);
  assert_true(flags & CL_MEM_READ_ONLY);
  assert_true(flags & CL_MEM_COPY_HOST_PTR); /* inherited from the buffer (5.3.1.2) */
  uint8_t px[12 * 4];
  size_t o[3] = {0, 0, 0}, r[3] = {12, 1, 1};
  assert_int_equal(clEnqueueReadImage(queue, img, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_SUCCESS);
  assert_memory_equal(px, data, sizeof px);
  /* the buffer and the image share their bytes */
  uint8_t one[4] = {1, 2, 3, 4};
  size_t at[3] = {5, 0, 0}, r1[3] = {1, 1, 1};
  assert_int_equal(clEnqueueWriteImage(queue, img, CL_TRUE, at, r1, 0, 0, one, 0, NULL, NULL), CL_SUCCESS);
  uint8_t b[64];
  assert_int_equal(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, 64, b, 0, NULL, NULL), CL_SUCCESS);
  assert_memory_equal(b + 20, one, 4);
  assert_int_equal(clEnqueueCopyImageToBuffer(queue, img, buf, o, r1, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  /* errors: too small a buffer, no buffer, flags against the buffer's */
  d.image_width = 17;
  assert_null(clCreateImage(ctx, 0, &f, &d, NULL, &e));
  assert_int_equal(e, CL_INVALID_IMAGE_SIZE);
  d.image_width = 4;
  assert_null(clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &f, &d, data, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  cl_mem rob = clCreateBuffer(ctx, CL_MEM_READ_ONLY, 64, NULL, &e);
  d.buffer = rob;
  assert_null(clCreateImage(ctx, CL_MEM_WRITE_ONLY, &f, &d, NULL, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  d.buffer = NULL;
  assert_null(clCreateImage(ctx, 0, &f, &d, NULL, &e));
  assert_int_equal(e, CL_INVALID_IMAGE_DESCRIPTOR);
  /* the image keeps its buffer alive */
  clReleaseMemObject(buf);
  assert_int_equal(clEnqueueReadImage(queue, img, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_SUCCESS);
  assert_memory_equal(px + 20, one, 4);
  clReleaseMemObject(img), clReleaseMemObject(rob);
}

/* A 1D image buffer's row pitch without a host_ptr describes its buffer's one row (5.3.1.2): a
 * multiple of the element size, at least the row, at most the buffer; other images need 0. */
static void test_image1d_buffer_pitch(void **state) {
  (void)state;
  cl_int e;
  uint8_t data[64];
  pattern(data, sizeof data, 8);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &e);
  assert_int_equal(e, CL_SUCCESS);
  cl_image_format f = {CL_RGBA, CL_UNSIGNED_INT8}; /* 4-byte elements: a 12-pixel row is 48 bytes */
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 12, .buffer = buf};
  const size_t good[] = {48, 60, 64}, bad[] = {44, 50, 68};
  for (size_t i = 0; i < 3; i++) {
    d.image_row_pitch = good[i];
    cl_mem img = clCreateImage(ctx, CL_MEM_READ_ONLY, &f, &d, NULL, &e);
    assert_int_equal(e, CL_SUCCESS);
    size_t pitch = 0;
    assert_int_equal(clGetImageInfo(img, CL_IMAGE_ROW_PITCH, sizeof pitch, &pitch, NULL), CL_SUCCESS);
    assert_int_equal(pitch, 48); /* the image's own (tight) row */
    uint8_t px[12 * 4];
    size_t o[3] = {0, 0, 0}, r[3] = {12, 1, 1};
    assert_int_equal(clEnqueueReadImage(queue, img, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(px, data, sizeof px);
    clReleaseMemObject(img);
  }
  for (size_t i = 0; i < 3; i++) {
    d.image_row_pitch = bad[i]; /* shorter than the row, not a multiple of 4, beyond the buffer */
    assert_null(clCreateImage(ctx, CL_MEM_READ_ONLY, &f, &d, NULL, &e));
    assert_int_equal(e, CL_INVALID_IMAGE_DESCRIPTOR);
  }
  cl_image_desc plain = {.image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = 12, .image_row_pitch = 48};
  assert_null(clCreateImage(ctx, CL_MEM_READ_ONLY, &f, &plain, NULL, &e)); /* "must be 0 if host_ptr is NULL" */
  assert_int_equal(e, CL_INVALID_IMAGE_DESCRIPTOR);
  clReleaseMemObject(buf);
}

static void test_srgb_view_of_image(void **state) {
  (void)state;
  cl_int e;
  uint8_t px[2][3][4];
  pattern(&px[0][0][0], sizeof px, 7);
  cl_mem lin = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, 3, 2, 0, 0, CL_MEM_COPY_HOST_PTR, px, 0, 0, &e);
  assert_int_equal(e, CL_SUCCESS);
  cl_image_format f = {CL_sRGBA, CL_UNORM_INT8};
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 3, .image_height = 2, .mem_object = lin};
  cl_mem s = clCreateImage(ctx, CL_MEM_READ_ONLY, &f, &d, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  uint8_t out[2][3][4];
  size_t o[3] = {0, 0, 0}, r[3] = {3, 2, 1};
  assert_int_equal(clEnqueueReadImage(queue, s, CL_TRUE, o, r, 0, 0, out, 0, NULL, NULL), CL_SUCCESS);
  assert_memory_equal(out, px, sizeof px);
  /* other sizes, types or orders are not views */
  d.image_width = 2;
  assert_null(clCreateImage(ctx, 0, &f, &d, NULL, &e));
  assert_int_equal(e, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  d.image_width = 3;
  cl_image_format g = {CL_BGRA, CL_UNORM_INT8};
  assert_null(clCreateImage(ctx, 0, &g, &d, NULL, &e));
  assert_int_equal(e, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  clReleaseMemObject(lin); /* the view holds it */
  assert_int_equal(clEnqueueReadImage(queue, s, CL_TRUE, o, r, 0, 0, out, 0, NULL, NULL), CL_SUCCESS);
  assert_memory_equal(out, px, sizeof px);
  clReleaseMemObject(s);
}

/* ---- fill ---------------------------------------------------------------------------------------
 * Expected pixels derived by hand from OpenCL C 8.3.1 (convert_<t>_sat_rte(f * 255.0f) ...), 8.3.5
 * (sRGB) and IEEE binary16 rounding. */

typedef struct fill_case {
  cl_channel_order order;
  cl_channel_type type;
  union {
    float f[4];
    cl_int i[4];
    cl_uint u[4];
  } color;
  uint8_t expect[16];
  size_t elem;
} fill_case;

static void check_fill(const fill_case *c) {
  cl_int e;
  enum { W = 4, H = 3 };
  cl_mem m = image(CL_MEM_OBJECT_IMAGE2D, c->order, c->type, W, H, 0, 0, CL_MEM_READ_WRITE, NULL, 0, 0, &e);
  assert_int_equal(e, CL_SUCCESS);
  size_t o[3] = {1, 1, 0}, r[3] = {2, 2, 1};
  assert_int_equal(clEnqueueFillImage(queue, m, &c->color, o, r, 0, NULL, NULL), CL_SUCCESS);
  uint8_t out[H * W * 16];
  size_t z[3] = {0, 0, 0}, all[3] = {W, H, 1};
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, z, all, 0, 0, out, 0, NULL, NULL), CL_SUCCESS);
  static const uint8_t none[16] = {0};
  for (size_t y = 0; y < H; y++)
    for (size_t x = 0; x < W; x++) {
      bool in = x >= 1 && x < 3 && y >= 1 && y < 3;
      assert_memory_equal(out + (y * W + x) * c->elem, in ? c->expect : none, c->elem);
    }
  clReleaseMemObject(m);
}

static void test_fill(void **state) {
  (void)state;
  const fill_case cases[] = {
    /* 0.5 * 255 = 127.5 -> 128 (even); 1/3 * 255 = 85 (85.0000...), -0.2 -> 0, 1.7 -> 255 */
    {CL_RGBA, CL_UNORM_INT8, {.f = {0.5f, 1.0f / 3, -0.2f, 1.7f}}, {128, 85, 0, 255}, 4},
    /* BGRA stores b, g, r, a: 0.25*255 = 63.75 -> 64, 0.75*255 = 191.25 -> 191 */
    {CL_BGRA, CL_UNORM_INT8, {.f = {0.25f, 0.75f, 1.0f, 0.0f}}, {255, 191, 64, 0}, 4},
    /* ARGB: a, r, g, b; ABGR: a, b, g, r */
    {CL_ARGB, CL_UNORM_INT8, {.f = {0.0f, 0.5f, 1.0f, 1.0f}}, {255, 0, 128, 255}, 4},
    {CL_ABGR, CL_UNORM_INT8, {.f = {0.0f, 0.5f, 1.0f, 0.25f}}, {64, 255, 128, 0}, 4},
    /* A keeps alpha, RA red and alpha */
    {CL_A, CL_UNORM_INT8, {.f = {1.0f, 1.0f, 1.0f, 0.5f}}, {128}, 1},
    {CL_RA, CL_UNORM_INT8, {.f = {0.2f, 1.0f, 1.0f, 0.4f}}, {51, 102}, 2},
    /* snorm8: -1.5 * 127 -> -128 (saturated), 0.5 * 127 = 63.5 -> 64, -0.5 -> -64, 1 -> 127 */
    {CL_RGBA, CL_SNORM_INT8, {.f = {-1.5f, 0.5f, -0.5f, 1.0f}}, {0x80, 64, 0xC0, 127}, 4},
    /* unorm16: 0.5 * 65535 = 32767.5 -> 32768 = 0x8000; 1.0 -> 0xFFFF (little-endian) */
    {CL_RG, CL_UNORM_INT16, {.f = {0.5f, 1.0f, 0, 0}}, {0x00, 0x80, 0xFF, 0xFF}, 4},
    /* half: 0.5 = 0x3800, 1/3 -> 0x3555, -2 = 0xC000, 65520 -> inf 0x7C00 (ties to even) */
    {CL_RGBA,
     CL_HALF_FLOAT,
     {.f = {0.5f, 1.0f / 3, -2.0f, 65520.0f}},
     {0x00, 0x38, 0x55, 0x35, 0x00, 0xC0, 0x00, 0x7C},
     8},
    /* float: the bits of 1.5f (0x3FC00000) and -0.0f */
    {CL_RG, CL_FLOAT, {.f = {1.5f, -0.0f, 0, 0}}, {0x00, 0x00, 0xC0, 0x3F, 0x00, 0x00, 0x00, 0x80}, 8},
    /* intensity: one channel from red */
    {CL_INTENSITY, CL_UNORM_INT8, {.f = {0.6f, 0, 0, 1}}, {153}, 1},
    /* signed integers saturate: -200 -> -128, 300 -> 127 */
    {CL_RGBA, CL_SIGNED_INT8, {.i = {-200, 300, 5, -5}}, {0x80, 0x7F, 5, 0xFB}, 4},
    /* unsigned: 70000 -> 65535 */
    {CL_RG, CL_UNSIGNED_INT16, {.u = {70000, 513, 0, 0}}, {0xFF, 0xFF, 0x01, 0x02}, 4},
    {CL_R, CL_SIGNED_INT32, {.i = {-7, 0, 0, 0}}, {0xF9, 0xFF, 0xFF, 0xFF}, 4},
    /* sRGB: 0.5 -> 1.055 * 0.5^(1/2.4) - 0.055 = 0.735357 -> 187.52 -> 188; 0.001 -> 12.92e-3 * 255
     * = 3.29 -> 3; 1 -> 255; alpha stays linear: 0.5 -> 128 */
    {CL_sRGBA, CL_UNORM_INT8, {.f = {0.5f, 0.001f, 1.0f, 0.5f}}, {188, 3, 255, 128}, 4},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_fill(&cases[i]);
}

static void test_fill_errors_and_types(void **state) {
  (void)state;
  cl_int e;
  float c[4] = {1, 1, 1, 1};
  cl_mem m = rgba8_2d(4, 4);
  size_t o[3] = {0, 0, 0}, r[3] = {4, 4, 1}, big[3] = {4, 4, 2};
  assert_int_equal(clEnqueueFillImage(queue, m, NULL, o, r, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueFillImage(queue, m, c, o, big, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueFillImage(NULL, m, c, o, r, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  /* a fill of every layer of a 2D array and of a 1D image */
  cl_mem a = image(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_R, CL_UNSIGNED_INT8, 3, 2, 0, 4, 0, NULL, 0, 0, &e);
  cl_uint u[4] = {9, 0, 0, 0};
  size_t ra[3] = {3, 2, 4};
  assert_int_equal(clEnqueueFillImage(queue, a, u, o, ra, 0, NULL, NULL), CL_SUCCESS);
  uint8_t out[24];
  assert_int_equal(clEnqueueReadImage(queue, a, CL_TRUE, o, ra, 0, 0, out, 0, NULL, NULL), CL_SUCCESS);
  for (size_t i = 0; i < 24; i++) assert_int_equal(out[i], 9);
  clReleaseMemObject(a), clReleaseMemObject(m);
}

/* ---- map ----------------------------------------------------------------------------------------- */

static void test_map(void **state) {
  (void)state;
  cl_int e;
  enum { W = 5, H = 4, D = 3 };
  cl_mem m = image(CL_MEM_OBJECT_IMAGE3D, CL_RGBA, CL_UNSIGNED_INT16, W, H, D, 0, 0, NULL, 0, 0, &e);
  assert_int_equal(e, CL_SUCCESS);
  size_t o[3] = {1, 2, 1}, r[3] = {3, 2, 2}, rp = 0, sp = 0;
  uint8_t *p = clEnqueueMapImage(queue, m, CL_TRUE, CL_MAP_WRITE, o, r, &rp, &sp, 0, NULL, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(rp, W * 8);
  assert_int_equal(sp, W * H * 8);
  for (size_t z = 0; z < 2; z++)
    for (size_t y = 0; y < 2; y++)
      for (size_t x = 0; x < 3 * 8; x++) p[z * sp + y * rp + x] = (uint8_t)(z * 100 + y * 30 + x);
  cl_event ev;
  assert_int_equal(clEnqueueUnmapMemObject(queue, m, p, 0, NULL, &ev), CL_SUCCESS);
  assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
  cl_command_type t;
  assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
  assert_int_equal(t, CL_COMMAND_UNMAP_MEM_OBJECT);
  clReleaseEvent(ev);
  uint8_t out[2][2][3 * 8];
  assert_int_equal(clEnqueueReadImage(queue, m, CL_TRUE, o, r, 0, 0, out, 0, NULL, NULL), CL_SUCCESS);
  for (size_t z = 0; z < 2; z++)
    for (size_t y = 0; y < 2; y++)
      for (size_t x = 0; x < 3 * 8; x++) assert_int_equal(out[z][y][x], (uint8_t)(z * 100 + y * 30 + x));
  /* the map command's event */
  p = clEnqueueMapImage(queue, m, CL_FALSE, CL_MAP_READ, o, r, &rp, &sp, 0, NULL, &ev, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
  assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
  assert_int_equal(t, CL_COMMAND_MAP_IMAGE);
  clReleaseEvent(ev);
  assert_int_equal(p[0], 0);
  assert_int_equal(clEnqueueUnmapMemObject(queue, m, p, 0, NULL, NULL), CL_SUCCESS);
  /* errors */
  assert_null(clEnqueueMapImage(queue, m, CL_TRUE, CL_MAP_READ, o, r, NULL, &sp, 0, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clEnqueueMapImage(queue, m, CL_TRUE, CL_MAP_READ, o, r, &rp, NULL, 0, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clEnqueueMapImage(queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, o, r, &rp, &sp, 0,
                                NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  size_t big[3] = {5, 2, 2};
  assert_null(clEnqueueMapImage(queue, m, CL_TRUE, CL_MAP_READ, o, big, &rp, &sp, 0, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  cl_uint count = 9;
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof count, &count, NULL), CL_SUCCESS);
  assert_int_equal(count, 0);
  clFinish(queue);
  clReleaseMemObject(m);
  /* a 2D image: slice pitch 0 when asked, NULL allowed */
  cl_mem m2 = rgba8_2d(3, 3);
  size_t o2[3] = {0, 0, 0}, r2[3] = {3, 3, 1};
  sp = 7;
  p = clEnqueueMapImage(queue, m2, CL_TRUE, CL_MAP_READ, o2, r2, &rp, &sp, 0, NULL, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(sp, 0);
  assert_int_equal(clEnqueueUnmapMemObject(queue, m2, p, 0, NULL, NULL), CL_SUCCESS);
  p = clEnqueueMapImage(queue, m2, CL_TRUE, CL_MAP_READ, o2, r2, &rp, NULL, 0, NULL, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(clEnqueueUnmapMemObject(queue, m2, p, 0, NULL, NULL), CL_SUCCESS);
  clFinish(queue);
  clReleaseMemObject(m2);
}

/* ---- samplers ---------------------------------------------------------------------------------- */

static void check_sampler(cl_sampler s, cl_bool n, cl_addressing_mode a, cl_filter_mode f) {
  cl_bool gn;
  cl_addressing_mode ga;
  cl_filter_mode gf;
  cl_context c;
  cl_uint refs;
  assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof gn, &gn, NULL), CL_SUCCESS);
  assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof ga, &ga, NULL), CL_SUCCESS);
  assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof gf, &gf, NULL), CL_SUCCESS);
  assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
  assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
  assert_int_equal(gn, n);
  assert_int_equal(ga, a);
  assert_int_equal(gf, f);
  assert_ptr_equal(c, ctx);
  assert_int_equal(refs, 1);
}

static void test_samplers(void **state) {
  (void)state;
  static const cl_addressing_mode modes[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                             CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT};
  static const cl_filter_mode filters[] = {CL_FILTER_NEAREST, CL_FILTER_LINEAR};
  cl_int e;
  for (cl_bool n = CL_FALSE; n <= CL_TRUE; n++)
    for (size_t a = 0; a < 5; a++)
      for (size_t f = 0; f < 2; f++) {
        bool ok = n || (modes[a] != CL_ADDRESS_REPEAT && modes[a] != CL_ADDRESS_MIRRORED_REPEAT);
        cl_sampler s = clCreateSampler(ctx, n, modes[a], filters[f], &e);
        assert_int_equal(e, ok ? CL_SUCCESS : CL_INVALID_VALUE);
        cl_sampler_properties props[] = {
          CL_SAMPLER_FILTER_MODE, filters[f], CL_SAMPLER_NORMALIZED_COORDS, n, CL_SAMPLER_ADDRESSING_MODE, modes[a], 0};
        cl_sampler p = clCreateSamplerWithProperties(ctx, props, &e);
        assert_int_equal(e, ok ? CL_SUCCESS : CL_INVALID_VALUE);
        if (!ok) {
          assert_null(s);
          assert_null(p);
          continue;
        }
        check_sampler(s, n, modes[a], filters[f]);
        check_sampler(p, n, modes[a], filters[f]);
        size_t ret = 99;
        assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, NULL, &ret), CL_SUCCESS);
        assert_int_equal(ret, 0);
        cl_sampler_properties got[8];
        assert_int_equal(clGetSamplerInfo(p, CL_SAMPLER_PROPERTIES, sizeof got, got, &ret), CL_SUCCESS);
        assert_int_equal(ret, sizeof props);
        assert_memory_equal(got, props, sizeof props);
        clReleaseSampler(s);
        clReleaseSampler(p);
      }
}

static void test_sampler_defaults_and_errors(void **state) {
  (void)state;
  cl_int e;
  cl_sampler d = clCreateSamplerWithProperties(ctx, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  check_sampler(d, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST); /* 5.9.1's defaults */
  size_t ret = 99;
  assert_int_equal(clGetSamplerInfo(d, CL_SAMPLER_PROPERTIES, 0, NULL, &ret), CL_SUCCESS);
  assert_int_equal(ret, 0);
  cl_sampler_properties empty[] = {0};
  cl_sampler z = clCreateSamplerWithProperties(ctx, empty, &e);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(clGetSamplerInfo(z, CL_SAMPLER_PROPERTIES, 0, NULL, &ret), CL_SUCCESS);
  assert_int_equal(ret, sizeof(cl_sampler_properties));
  clReleaseSampler(z);
  /* reference counts */
  assert_int_equal(clRetainSampler(d), CL_SUCCESS);
  cl_uint refs;
  assert_int_equal(clGetSamplerInfo(d, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
  assert_int_equal(refs, 2);
  assert_int_equal(clReleaseSampler(d), CL_SUCCESS);
  assert_int_equal(clReleaseSampler(d), CL_SUCCESS);
  cl_int (*release)(cl_sampler) = (cl_int(*)(cl_sampler))spvi_fn("clReleaseSampler");
  cl_int (*info)(cl_sampler, cl_sampler_info, size_t, void *, size_t *) =
    (cl_int(*)(cl_sampler, cl_sampler_info, size_t, void *, size_t *))spvi_fn("clGetSamplerInfo");
  assert_non_null(release);
  assert_non_null(info);
  assert_int_equal(release(d), CL_INVALID_SAMPLER); /* freed */
  assert_int_equal(info(d, CL_SAMPLER_CONTEXT, sizeof(cl_context), &refs, NULL), CL_INVALID_SAMPLER);
  cl_mem img = rgba8_2d(1, 1);
  assert_int_equal(info((cl_sampler)img, CL_SAMPLER_CONTEXT, sizeof(cl_context), &refs, NULL), CL_INVALID_SAMPLER);
  clReleaseMemObject(img);
  assert_int_equal(clRetainSampler(NULL), CL_INVALID_SAMPLER);
  /* bad values */
  assert_null(clCreateSampler(NULL, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &e));
  assert_int_equal(e, CL_INVALID_CONTEXT);
  assert_null(clCreateSampler(ctx, 2, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clCreateSampler(ctx, CL_TRUE, 0x1234, CL_FILTER_NEAREST, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, 0x1234, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  cl_sampler_properties dup[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
  assert_null(clCreateSamplerWithProperties(ctx, dup, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  cl_sampler_properties unknown[] = {0x1234, 1, 0};
  assert_null(clCreateSamplerWithProperties(ctx, unknown, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  cl_sampler_properties badv[] = {CL_SAMPLER_ADDRESSING_MODE, 0x1234, 0};
  assert_null(clCreateSamplerWithProperties(ctx, badv, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  cl_sampler s = clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &e);
  cl_uint v;
  assert_int_equal(clGetSamplerInfo(s, 0x4321, sizeof v, &v, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, 1, &v, NULL), CL_INVALID_VALUE);
  clReleaseSampler(s);
}

/* ---- kernels -------------------------------------------------------------------------------------- */

static cl_kernel kernel_from_source(const char *src, const char *name, cl_program *prog) {
  cl_int e;
  *prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  e = clBuildProgram(*prog, 1, &device, "", NULL, NULL);
  if (e != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(*prog, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build log:\n%s\n", log);
  }
  assert_int_equal(e, CL_SUCCESS);
  cl_kernel k = clCreateKernel(*prog, name, &e);
  assert_int_equal(e, CL_SUCCESS);
  return k;
}

/* read_imagef through a sampler argument, nearest filtering: unorm8 -> v / 255 exactly (the
 * conversion is exact to the float nearest v / 255); unnormalized and normalized coordinates. */
static void test_kernel_read_sampler(void **state) {
  (void)state;
  const char *src =
    "__kernel void rd(read_only image2d_t img, sampler_t s, int norm, __global float4 *out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), w = get_image_width(img), h = get_image_height(img);\n"
    "  float2 c = (float2)(x + 0.5f, y + 0.5f);\n"
    "  if (norm) c /= (float2)(w, h);\n"
    "  out[y * w + x] = read_imagef(img, s, c);\n"
    "}\n";
  cl_program prog;
  cl_kernel k = kernel_from_source(src, "rd", &prog);
  enum { W = 4, H = 3 };
  uint8_t px[H][W][4];
  pattern(&px[0][0][0], sizeof px, 8);
  cl_int e;
  cl_mem img = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, W, H, 0, 0, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                     px, 0, 0, &e);
  assert_int_equal(e, CL_SUCCESS);
  cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(float) * 4 * W * H, NULL, &e);
  for (cl_int norm = 0; norm <= 1; norm++) {
    cl_sampler s = clCreateSampler(ctx, norm ? CL_TRUE : CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &e);
    assert_int_equal(e, CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 0, sizeof img, &img), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof s, &s), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, sizeof norm, &norm), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 3, sizeof out, &out), CL_SUCCESS);
    size_t g[2] = {W, H};
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 2, NULL, g, NULL, 0, NULL, NULL), CL_SUCCESS);
    float got[H][W][4];
    assert_int_equal(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
    for (size_t y = 0; y < H; y++)
      for (size_t x = 0; x < W; x++)
        for (size_t c = 0; c < 4; c++) assert_true(got[y][x][c] == (float)px[y][x][c] / 255.0f);
    clReleaseSampler(s);
  }
  clReleaseMemObject(img), clReleaseMemObject(out);
  clReleaseKernel(k), clReleaseProgram(prog);
}

/* write_imagef into a unorm8 image, read back with clEnqueueReadImage: x/4 * 255 rounded to
 * nearest even (0, 64, 128, 191), y/4 likewise, 0.5 -> 128, 1 -> 255. */
static void test_kernel_write_image(void **state) {
  (void)state;
  const char *src = "__kernel void wr(write_only image2d_t img) {\n"
                    "  int x = get_global_id(0), y = get_global_id(1);\n"
                    "  write_imagef(img, (int2)(x, y), (float4)(x / 4.0f, y / 4.0f, 0.5f, 1.0f));\n"
                    "}\n";
  cl_program prog;
  cl_kernel k = kernel_from_source(src, "wr", &prog);
  enum { W = 4, H = 3 };
  cl_mem img = rgba8_2d(W, H);
  assert_int_equal(clSetKernelArg(k, 0, sizeof img, &img), CL_SUCCESS);
  size_t g[2] = {W, H};
  assert_int_equal(clEnqueueNDRangeKernel(queue, k, 2, NULL, g, NULL, 0, NULL, NULL), CL_SUCCESS);
  uint8_t got[H][W][4];
  size_t o[3] = {0, 0, 0}, r[3] = {W, H, 1};
  assert_int_equal(clEnqueueReadImage(queue, img, CL_TRUE, o, r, 0, 0, got, 0, NULL, NULL), CL_SUCCESS);
  static const uint8_t quarter[4] = {0, 64, 128, 191};
  for (size_t y = 0; y < H; y++)
    for (size_t x = 0; x < W; x++) {
      const uint8_t want[4] = {quarter[x], quarter[y], 128, 255};
      assert_memory_equal(got[y][x], want, 4);
    }
  clReleaseMemObject(img);
  clReleaseKernel(k), clReleaseProgram(prog);
}

/* ---- threads ------------------------------------------------------------------------------------ */

typedef struct worker {
  int id;
  int failures;
} worker;

/* Each thread: its own queue and image; fill, copy, write, read and map concurrently with the
 * others, plus reads of one shared image. */
static void *thread_main(void *arg) {
  worker *w = arg;
  cl_int e;
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &e);
  enum { W = 16, H = 8 };
  for (int it = 0; it < 20 && e == CL_SUCCESS; it++) {
    cl_mem a = image(CL_MEM_OBJECT_IMAGE2D, CL_R, CL_UNSIGNED_INT32, W, H, 0, 0, 0, NULL, 0, 0, &e);
    cl_mem b = image(CL_MEM_OBJECT_IMAGE2D, CL_R, CL_UNSIGNED_INT32, W, H, 0, 0, 0, NULL, 0, 0, &e);
    cl_uint color[4] = {(cl_uint)(w->id * 1000 + it), 0, 0, 0};
    size_t o[3] = {0, 0, 0}, r[3] = {W, H, 1};
    cl_event ev[2];
    e |= clEnqueueFillImage(q, a, color, o, r, 0, NULL, &ev[0]);
    e |= clEnqueueCopyImage(q, a, b, o, o, r, 1, ev, &ev[1]);
    cl_uint out[H][W];
    e |= clEnqueueReadImage(q, b, CL_TRUE, o, r, 0, 0, out, 1, &ev[1], NULL);
    for (size_t y = 0; y < H; y++)
      for (size_t x = 0; x < W; x++)
        if (out[y][x] != color[0]) w->failures++;
    size_t rp;
    cl_uint *p = clEnqueueMapImage(q, b, CL_TRUE, CL_MAP_READ, o, r, &rp, NULL, 0, NULL, NULL, &e);
    if (!p || p[W * H - 1] != color[0]) w->failures++;
    if (p) e |= clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL);
    e |= clFinish(q);
    clReleaseEvent(ev[0]), clReleaseEvent(ev[1]);
    clReleaseMemObject(a), clReleaseMemObject(b);
  }
  if (e != CL_SUCCESS) w->failures++;
  clReleaseCommandQueue(q);
  return NULL;
}

static void test_threads(void **state) {
  (void)state;
  enum { N = 6 };
  pthread_t t[N];
  worker w[N];
  for (int i = 0; i < N; i++) {
    w[i] = (worker){i, 0};
    assert_int_equal(pthread_create(&t[i], NULL, thread_main, &w[i]), 0);
  }
  for (int i = 0; i < N; i++) {
    pthread_join(t[i], NULL);
    assert_int_equal(w[i].failures, 0);
  }
}

/* An out-of-order queue: fill, then a read that waits for the fill's event. */
static void test_out_of_order(void **state) {
  (void)state;
  cl_int e;
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, props, &e);
  assert_int_equal(e, CL_SUCCESS);
  cl_mem m = image(CL_MEM_OBJECT_IMAGE1D, CL_RGBA, CL_FLOAT, 64, 0, 0, 0, 0, NULL, 0, 0, &e);
  float c[4] = {1, 2, 3, 4};
  size_t o[3] = {0, 0, 0}, r[3] = {64, 1, 1};
  cl_event fill;
  assert_int_equal(clEnqueueFillImage(q, m, c, o, r, 0, NULL, &fill), CL_SUCCESS);
  float out[64][4];
  assert_int_equal(clEnqueueReadImage(q, m, CL_TRUE, o, r, 0, 0, out, 1, &fill, NULL), CL_SUCCESS);
  for (size_t i = 0; i < 64; i++) assert_memory_equal(out[i], c, sizeof c);
  clReleaseEvent(fill);
  clReleaseMemObject(m);
  clReleaseCommandQueue(q);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_min_formats),
    cmocka_unit_test(test_every_format_creates),
    cmocka_unit_test(test_format_errors),
    cmocka_unit_test(test_create_every_type),
    cmocka_unit_test(test_image_info_errors),
    cmocka_unit_test(test_create_errors),
    cmocka_unit_test(test_create_legacy_and_properties),
    cmocka_unit_test(test_write_read_pitches),
    cmocka_unit_test(test_1d_array_slice_pitch),
    cmocka_unit_test(test_use_host_ptr),
    cmocka_unit_test(test_use_host_ptr_array),
    cmocka_unit_test(test_copy_host_ptr_3d),
    cmocka_unit_test(test_read_write_errors),
    cmocka_unit_test(test_copy_image),
    cmocka_unit_test(test_copy_image_buffer),
    cmocka_unit_test(test_image1d_buffer),
    cmocka_unit_test(test_image1d_buffer_pitch),
    cmocka_unit_test(test_srgb_view_of_image),
    cmocka_unit_test(test_fill),
    cmocka_unit_test(test_fill_errors_and_types),
    cmocka_unit_test(test_map),
    cmocka_unit_test(test_samplers),
    cmocka_unit_test(test_sampler_defaults_and_errors),
    cmocka_unit_test(test_threads),
    cmocka_unit_test(test_out_of_order),
    cmocka_unit_test(test_kernel_read_sampler),
    cmocka_unit_test(test_kernel_write_image),
  };
  return cmocka_run_group_tests(tests, cltest_group_setup, cltest_group_teardown);
}
