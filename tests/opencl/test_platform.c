/*
 * test_platform.c — spvi's platform, device and contexts through the ICD loader (OpenCL 3.0 API
 * 4.1 - 4.4, 9.2; cl_khr_icd, cl_khr_extended_versioning): every platform and device query answers
 * with a consistent size, the values meet the full profile's minimums (API 4.2 table "OpenCL
 * Device Queries"), the extension and feature lists are exactly clc_features.h's, contexts check
 * their arguments in the order the spec and the CTS expect, destructor callbacks run last-first
 * once nothing holds the context, and all of it from several threads at once.
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS /* clGetExtensionFunctionAddress is tested too */
#include "cltest.h"

#include <CL/cl_ext.h>
#include <CL/cl_icd.h>
#include <ctype.h>
#include <pthread.h>

#include "clc_features.h"
#include "spvi.h" /* the device limits the platform reports: the engine's figures */

/* The platform and device (cltest_device). */
#define plat cltest.platform
#define dev cltest.device

static int setup(void **state) {
  (void)state;
  return cltest_device(&cltest);
}

/* ---- helpers ------------------------------------------------------------------------------ */

/* A string query: size first, then the value; checks NUL termination and size == strlen + 1. */
static char *platform_str(cl_platform_info p) {
  size_t n = 0;
  CHECK(clGetPlatformInfo(plat, p, 0, NULL, &n));
  assert_true(n >= 1);
  char *s = malloc(n);
  size_t n2 = 0;
  CHECK(clGetPlatformInfo(plat, p, n, s, &n2));
  assert_int_equal(n2, n);
  assert_int_equal(s[n - 1], 0);
  assert_int_equal(strlen(s) + 1, n);
  return s;
}

static char *device_str(cl_device_info p) {
  size_t n = 0;
  CHECK(clGetDeviceInfo(dev, p, 0, NULL, &n));
  assert_true(n >= 1);
  char *s = malloc(n);
  size_t n2 = 0;
  CHECK(clGetDeviceInfo(dev, p, n, s, &n2));
  assert_int_equal(n2, n);
  assert_int_equal(s[n - 1], 0);
  assert_int_equal(strlen(s) + 1, n);
  return s;
}

static cl_uint dev_uint(cl_device_info p) {
  cl_uint v = 0;
  size_t n = 0;
  CHECK(clGetDeviceInfo(dev, p, sizeof v, &v, &n));
  assert_int_equal(n, sizeof v);
  return v;
}

static cl_ulong dev_ulong(cl_device_info p) {
  cl_ulong v = 0;
  size_t n = 0;
  CHECK(clGetDeviceInfo(dev, p, sizeof v, &v, &n));
  assert_int_equal(n, sizeof v);
  return v;
}

static size_t dev_size(cl_device_info p) {
  size_t v = 0, n = 0;
  CHECK(clGetDeviceInfo(dev, p, sizeof v, &v, &n));
  assert_int_equal(n, sizeof v);
  return v;
}

/* A cl_name_version array query (count in *count, malloc'd). */
static cl_name_version *device_nv(cl_device_info p, size_t *count) {
  size_t n = 0;
  CHECK(clGetDeviceInfo(dev, p, 0, NULL, &n));
  assert_int_equal(n % sizeof(cl_name_version), 0);
  cl_name_version *v = malloc(n ? n : 1);
  if (n) CHECK(clGetDeviceInfo(dev, p, n, v, NULL));
  *count = n / sizeof(cl_name_version);
  return v;
}

/* True when the space-separated list `s` is exactly the names of nv[0..n) (no duplicates). */
static bool same_names(const char *s, const cl_name_version *nv, size_t n) {
  char *copy = strdup(s), *save = NULL;
  size_t words = 0;
  bool ok = true;
  for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
    words++;
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) hits += strcmp(w, nv[i].name) == 0;
    if (hits != 1) ok = false;
  }
  free(copy);
  return ok && words == n;
}

/* The expected lists, from clc_features.h itself. */
#define NV(name, major, minor, patch) {CL_MAKE_VERSION(major, minor, patch), #name},
static const cl_name_version expect_ext[] = {CLF_EXTENSIONS(NV)};
static const cl_name_version expect_features[] = {CLF_C_FEATURES(NV)};

static bool same_nv(const cl_name_version *a, size_t na, const cl_name_version *b, size_t nb) {
  if (na != nb) return false;
  for (size_t i = 0; i < na; i++) {
    size_t hits = 0;
    for (size_t j = 0; j < nb; j++) hits += strcmp(a[i].name, b[j].name) == 0 && a[i].version == b[j].version;
    if (hits != 1) return false;
  }
  return true;
}

/* "OpenCL 3.0 ..." -> major, minor (the CTS's version parsing). */
static void parse_version(const char *s, const char *prefix, unsigned *major, unsigned *minor) {
  assert_int_equal(strncmp(s, prefix, strlen(prefix)), 0);
  char rest[8];
  assert_int_equal(sscanf(s + strlen(prefix), "%u.%u%1[ ]", major, minor, rest), 3);
}

/* ---- platform ------------------------------------------------------------------------------ */

static void test_platform_ids(void **state) {
  (void)state;
  cl_uint n = 0;
  CHECK(clGetPlatformIDs(0, NULL, &n));
  assert_int_equal(n, 1); /* run.sh makes spvi the only platform */
  /* num_entries larger than needed with platforms NULL: just the count (CTS comparability test) */
  CHECK(clGetPlatformIDs(16, NULL, &n));
  assert_int_equal(n, 1);
  cl_platform_id p[2] = {NULL, NULL};
  CHECK(clGetPlatformIDs(2, p, NULL));
  assert_ptr_equal(p[0], plat);
  /* API 4.1: num_entries 0 with platforms, or both outputs NULL */
  assert_int_equal(clGetPlatformIDs(0, p, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetPlatformIDs(1, NULL, NULL), CL_INVALID_VALUE);
}

static void test_platform_info(void **state) {
  (void)state;
  char *s = platform_str(CL_PLATFORM_PROFILE);
  assert_string_equal(s, "FULL_PROFILE");
  free(s);
  s = platform_str(CL_PLATFORM_NAME);
  assert_string_equal(s, "spvi");
  free(s);
  s = platform_str(CL_PLATFORM_VENDOR);
  assert_string_equal(s, "spvi");
  free(s);
  s = platform_str(CL_PLATFORM_ICD_SUFFIX_KHR);
  assert_string_equal(s, "spvi");
  free(s);
  s = platform_str(CL_PLATFORM_VERSION);
  unsigned major, minor;
  parse_version(s, "OpenCL ", &major, &minor);
  assert_int_equal(major, 3);
  assert_int_equal(minor, 0);
  free(s);
  cl_version v = 0;
  size_t n = 0;
  CHECK(clGetPlatformInfo(plat, CL_PLATFORM_NUMERIC_VERSION, sizeof v, &v, &n));
  assert_int_equal(n, sizeof v);
  assert_int_equal(v, CL_MAKE_VERSION(3, 0, 0));
  cl_ulong res = 0;
  CHECK(clGetPlatformInfo(plat, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof res, &res, &n));
  assert_int_equal(n, sizeof res);
  assert_true(res >= 1 && res <= 1000000); /* clGetHostTimer is supported: non-zero */

  /* the extension string and the versioned list name the same extensions, clc_features.h's */
  s = platform_str(CL_PLATFORM_EXTENSIONS);
  CHECK(clGetPlatformInfo(plat, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, NULL, &n));
  assert_int_equal(n, sizeof expect_ext);
  cl_name_version *nv = malloc(n);
  CHECK(clGetPlatformInfo(plat, CL_PLATFORM_EXTENSIONS_WITH_VERSION, n, nv, NULL));
  assert_true(same_names(s, nv, n / sizeof *nv));
  assert_true(same_nv(nv, n / sizeof *nv, expect_ext, NELEMS(expect_ext)));
  assert_non_null(strstr(s, "cl_khr_icd"));
  free(nv);
  free(s);
}

static void test_platform_info_errors(void **state) {
  (void)state;
  char buf[64];
  assert_int_equal(clGetPlatformInfo(plat, 0, sizeof buf, buf, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetPlatformInfo(plat, CL_DEVICE_NAME, sizeof buf, buf, NULL), CL_INVALID_VALUE);
  /* smaller than the answer, with a destination */
  assert_int_equal(clGetPlatformInfo(plat, CL_PLATFORM_VERSION, 3, buf, NULL), CL_INVALID_VALUE);
  cl_version v;
  assert_int_equal(clGetPlatformInfo(plat, CL_PLATFORM_NUMERIC_VERSION, sizeof v - 1, &v, NULL), CL_INVALID_VALUE);
  /* a valid object that is not a platform (the CTS's "ValidObjectWrongType") */
  assert_int_equal(clGetPlatformInfo((cl_platform_id)dev, CL_PLATFORM_NAME, sizeof buf, buf, NULL),
                   CL_INVALID_PLATFORM);
  CHECK(clUnloadPlatformCompiler(plat));
  assert_int_equal(clUnloadPlatformCompiler((cl_platform_id)dev), CL_INVALID_PLATFORM);
}

/* The dispatch table the loader calls through: the handle's first word (cl_khr_icd). Every entry
 * is set, except the Direct3D/DX9 ones (void * placeholders outside Windows). */
static void test_dispatch_table(void **state) {
  (void)state;
  const struct _cl_icd_dispatch *d = *(const struct _cl_icd_dispatch *const *)plat;
  assert_ptr_equal(d, *(const struct _cl_icd_dispatch *const *)dev);
  static const size_t windows_only[] = {
    offsetof(struct _cl_icd_dispatch, clGetDeviceIDsFromD3D10KHR),
    offsetof(struct _cl_icd_dispatch, clCreateFromD3D10BufferKHR),
    offsetof(struct _cl_icd_dispatch, clCreateFromD3D10Texture2DKHR),
    offsetof(struct _cl_icd_dispatch, clCreateFromD3D10Texture3DKHR),
    offsetof(struct _cl_icd_dispatch, clEnqueueAcquireD3D10ObjectsKHR),
    offsetof(struct _cl_icd_dispatch, clEnqueueReleaseD3D10ObjectsKHR),
    offsetof(struct _cl_icd_dispatch, clGetDeviceIDsFromD3D11KHR),
    offsetof(struct _cl_icd_dispatch, clCreateFromD3D11BufferKHR),
    offsetof(struct _cl_icd_dispatch, clCreateFromD3D11Texture2DKHR),
    offsetof(struct _cl_icd_dispatch, clCreateFromD3D11Texture3DKHR),
    offsetof(struct _cl_icd_dispatch, clCreateFromDX9MediaSurfaceKHR),
    offsetof(struct _cl_icd_dispatch, clEnqueueAcquireD3D11ObjectsKHR),
    offsetof(struct _cl_icd_dispatch, clEnqueueReleaseD3D11ObjectsKHR),
    offsetof(struct _cl_icd_dispatch, clGetDeviceIDsFromDX9MediaAdapterKHR),
    offsetof(struct _cl_icd_dispatch, clEnqueueAcquireDX9MediaSurfacesKHR),
    offsetof(struct _cl_icd_dispatch, clEnqueueReleaseDX9MediaSurfacesKHR),
  };
  size_t missing = 0;
  for (size_t off = 0; off < sizeof *d; off += sizeof(void *)) {
    bool skip = false;
    for (size_t k = 0; k < NELEMS(windows_only); k++) skip |= windows_only[k] == off;
    void *fn;
    memcpy(&fn, (const char *)d + off, sizeof fn);
    if (!skip && !fn) {
      fprintf(stderr, "dispatch entry at offset %zu is NULL\n", off);
      missing++;
    }
  }
  assert_int_equal(missing, 0);
  /* the interop stubs answer instead of crashing */
  cl_int e = 0;
  assert_null(d->clCreateFromGLBuffer(NULL, CL_MEM_READ_WRITE, 1, &e));
  assert_int_equal(e, CL_INVALID_CONTEXT);
  assert_int_equal(d->clEnqueueAcquireGLObjects(NULL, 0, NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(d->clGetGLObjectInfo(NULL, NULL, NULL), CL_INVALID_MEM_OBJECT);
  assert_int_equal(d->clRetainDeviceEXT(dev), CL_SUCCESS);
  assert_int_equal(d->clCreateSubDevicesEXT(dev, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
}

/* API 9.2: the functions of advertised extensions by name, NULL for anything else. */
static void test_extension_functions(void **state) {
  (void)state;
  clIcdGetPlatformIDsKHR_fn icd =
    (clIcdGetPlatformIDsKHR_fn)clGetExtensionFunctionAddressForPlatform(plat, "clIcdGetPlatformIDsKHR");
  assert_non_null(icd);
  cl_uint n = 0;
  cl_platform_id p = NULL;
  CHECK(icd(1, &p, &n));
  assert_int_equal(n, 1);
  assert_ptr_equal(p, plat);
  assert_non_null(clGetExtensionFunctionAddressForPlatform(plat, "clCreateProgramWithILKHR"));
  assert_non_null(clGetExtensionFunctionAddressForPlatform(plat, "clGetKernelSubGroupInfoKHR"));
  assert_null(clGetExtensionFunctionAddressForPlatform(plat, "clNoSuchFunctionKHR"));
  assert_null(clGetExtensionFunctionAddressForPlatform(plat, "clCreateFromGLBuffer")); /* not advertised */
  assert_null(clGetExtensionFunctionAddressForPlatform(plat, ""));
  /* the deprecated form: the ICD loaders ask a platform only for names ending in its
   * CL_PLATFORM_ICD_SUFFIX_KHR, so through a loader a KHR function may be NULL; linked directly
   * (tests/opencl/clinfo.sh) it is spvi's answer. Unknown names are NULL either way. */
  void *il = clGetExtensionFunctionAddress("clCreateProgramWithILKHR");
  if (il) assert_ptr_equal(il, clGetExtensionFunctionAddressForPlatform(plat, "clCreateProgramWithILKHR"));
  assert_null(clGetExtensionFunctionAddress("clNoSuchFunctionKHR"));
  assert_null(clGetExtensionFunctionAddress("clNoSuchFunctionspvi"));
}

/* ---- devices ------------------------------------------------------------------------------- */

static void test_device_ids(void **state) {
  (void)state;
  static const cl_device_type found[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL,
                                         CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU};
  for (size_t i = 0; i < NELEMS(found); i++) {
    cl_device_id d[2] = {NULL, NULL};
    cl_uint n = 0;
    CHECK(clGetDeviceIDs(plat, found[i], 2, d, &n));
    assert_int_equal(n, 1);
    assert_ptr_equal(d[0], dev);
    assert_null(d[1]);
    CHECK(clGetDeviceIDs(plat, found[i], 0, NULL, &n));
    assert_int_equal(n, 1);
  }
  static const cl_device_type not_found[] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CUSTOM};
  for (size_t i = 0; i < NELEMS(not_found); i++) {
    cl_device_id d = NULL;
    cl_uint n = 7;
    assert_int_equal(clGetDeviceIDs(plat, not_found[i], 1, &d, &n), CL_DEVICE_NOT_FOUND);
    assert_null(d);
  }
  cl_device_id d;
  /* API 4.2 errors, in the order the CTS's negative_get_device_ids tries them */
  assert_int_equal(clGetDeviceIDs((cl_platform_id)dev, CL_DEVICE_TYPE_DEFAULT, 1, &d, NULL), CL_INVALID_PLATFORM);
  assert_int_equal(clGetDeviceIDs(plat, 0, 1, &d, NULL), CL_INVALID_DEVICE_TYPE);
  assert_int_equal(clGetDeviceIDs(plat, (cl_device_type)1 << 40, 1, &d, NULL), CL_INVALID_DEVICE_TYPE);
  assert_int_equal(clGetDeviceIDs(plat, CL_DEVICE_TYPE_DEFAULT, 0, &d, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetDeviceIDs(plat, CL_DEVICE_TYPE_DEFAULT, 1, NULL, NULL), CL_INVALID_VALUE);
}

/* Every param of clGetDeviceInfo for OpenCL 3.0 (cl.h) and of the advertised extensions
 * (cl_ext.h), with its answer's size: 0 means "an array or string", checked for a consistent size. */
typedef struct dparam {
  cl_device_info name;
  size_t size;
} dparam;
static const dparam all_params[] = {
  {CL_DEVICE_TYPE, sizeof(cl_device_type)},
  {CL_DEVICE_VENDOR_ID, sizeof(cl_uint)},
  {CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cl_uint)},
  {CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof(cl_uint)},
  {CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(size_t)},
  {CL_DEVICE_MAX_WORK_ITEM_SIZES, 3 * sizeof(size_t)},
  {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, sizeof(cl_uint)},
  {CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, sizeof(cl_uint)},
  {CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, sizeof(cl_uint)},
  {CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, sizeof(cl_uint)},
  {CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, sizeof(cl_uint)},
  {CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, sizeof(cl_uint)},
  {CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, sizeof(cl_uint)},
  {CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, sizeof(cl_uint)},
  {CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, sizeof(cl_uint)},
  {CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, sizeof(cl_uint)},
  {CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, sizeof(cl_uint)},
  {CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof(cl_uint)},
  {CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, sizeof(cl_uint)},
  {CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, sizeof(cl_uint)},
  {CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof(cl_uint)},
  {CL_DEVICE_ADDRESS_BITS, sizeof(cl_uint)},
  {CL_DEVICE_MAX_READ_IMAGE_ARGS, sizeof(cl_uint)},
  {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, sizeof(cl_uint)},
  {CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, sizeof(cl_uint)},
  {CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(cl_ulong)},
  {CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof(size_t)},
  {CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof(size_t)},
  {CL_DEVICE_IMAGE3D_MAX_WIDTH, sizeof(size_t)},
  {CL_DEVICE_IMAGE3D_MAX_HEIGHT, sizeof(size_t)},
  {CL_DEVICE_IMAGE3D_MAX_DEPTH, sizeof(size_t)},
  {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sizeof(size_t)},
  {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof(size_t)},
  {CL_DEVICE_MAX_SAMPLERS, sizeof(cl_uint)},
  {CL_DEVICE_IMAGE_PITCH_ALIGNMENT, sizeof(cl_uint)},
  {CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, sizeof(cl_uint)},
  {CL_DEVICE_MAX_PIPE_ARGS, sizeof(cl_uint)},
  {CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, sizeof(cl_uint)},
  {CL_DEVICE_PIPE_MAX_PACKET_SIZE, sizeof(cl_uint)},
  {CL_DEVICE_MAX_PARAMETER_SIZE, sizeof(size_t)},
  {CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(cl_uint)},
  {CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, sizeof(cl_uint)},
  {CL_DEVICE_SINGLE_FP_CONFIG, sizeof(cl_device_fp_config)},
  {CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(cl_device_fp_config)},
  {CL_DEVICE_HALF_FP_CONFIG, sizeof(cl_device_fp_config)},
  {CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, sizeof(cl_device_mem_cache_type)},
  {CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, sizeof(cl_uint)},
  {CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof(cl_ulong)},
  {CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(cl_ulong)},
  {CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, sizeof(cl_ulong)},
  {CL_DEVICE_MAX_CONSTANT_ARGS, sizeof(cl_uint)},
  {CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, sizeof(size_t)},
  {CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, sizeof(size_t)},
  {CL_DEVICE_LOCAL_MEM_TYPE, sizeof(cl_device_local_mem_type)},
  {CL_DEVICE_LOCAL_MEM_SIZE, sizeof(cl_ulong)},
  {CL_DEVICE_ERROR_CORRECTION_SUPPORT, sizeof(cl_bool)},
  {CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof(cl_bool)},
  {CL_DEVICE_PROFILING_TIMER_RESOLUTION, sizeof(size_t)},
  {CL_DEVICE_ENDIAN_LITTLE, sizeof(cl_bool)},
  {CL_DEVICE_AVAILABLE, sizeof(cl_bool)},
  {CL_DEVICE_COMPILER_AVAILABLE, sizeof(cl_bool)},
  {CL_DEVICE_LINKER_AVAILABLE, sizeof(cl_bool)},
  {CL_DEVICE_EXECUTION_CAPABILITIES, sizeof(cl_device_exec_capabilities)},
  {CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof(cl_command_queue_properties)},
  {CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, sizeof(cl_command_queue_properties)},
  {CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, sizeof(cl_uint)},
  {CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof(cl_uint)},
  {CL_DEVICE_MAX_ON_DEVICE_QUEUES, sizeof(cl_uint)},
  {CL_DEVICE_MAX_ON_DEVICE_EVENTS, sizeof(cl_uint)},
  {CL_DEVICE_BUILT_IN_KERNELS, 0},
  {CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, 0},
  {CL_DEVICE_PLATFORM, sizeof(cl_platform_id)},
  {CL_DEVICE_NAME, 0},
  {CL_DEVICE_VENDOR, 0},
  {CL_DRIVER_VERSION, 0},
  {CL_DEVICE_PROFILE, 0},
  {CL_DEVICE_VERSION, 0},
  {CL_DEVICE_NUMERIC_VERSION, sizeof(cl_version)},
  {CL_DEVICE_OPENCL_C_VERSION, 0},
  {CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR, sizeof(cl_version)},
  {CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0},
  {CL_DEVICE_OPENCL_C_FEATURES, 0},
  {CL_DEVICE_EXTENSIONS, 0},
  {CL_DEVICE_EXTENSIONS_WITH_VERSION, 0},
  {CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof(size_t)},
  {CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, sizeof(cl_bool)},
  {CL_DEVICE_PARENT_DEVICE, sizeof(cl_device_id)},
  {CL_DEVICE_PARTITION_MAX_SUB_DEVICES, sizeof(cl_uint)},
  {CL_DEVICE_PARTITION_PROPERTIES, 0},
  {CL_DEVICE_PARTITION_AFFINITY_DOMAIN, sizeof(cl_device_affinity_domain)},
  {CL_DEVICE_PARTITION_TYPE, 0},
  {CL_DEVICE_REFERENCE_COUNT, sizeof(cl_uint)},
  {CL_DEVICE_SVM_CAPABILITIES, sizeof(cl_device_svm_capabilities)},
  {CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, sizeof(cl_uint)},
  {CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, sizeof(cl_uint)},
  {CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, sizeof(cl_uint)},
  {CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof(cl_uint)},
  {CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, sizeof(cl_bool)},
  {CL_DEVICE_IL_VERSION, 0},
  {CL_DEVICE_ILS_WITH_VERSION, 0},
  {CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof(cl_device_atomic_capabilities)},
  {CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, sizeof(cl_device_atomic_capabilities)},
  {CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof(cl_bool)},
  {CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, sizeof(cl_bool)},
  {CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, sizeof(cl_bool)},
  {CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof(cl_device_device_enqueue_capabilities)},
  {CL_DEVICE_PIPE_SUPPORT, sizeof(cl_bool)},
  {CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof(size_t)},
  {CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, 0},
};

static void test_device_info_every_param(void **state) {
  (void)state;
  for (size_t i = 0; i < NELEMS(all_params); i++) {
    const dparam *p = &all_params[i];
    size_t n = 12345;
    cl_int e = clGetDeviceInfo(dev, p->name, 0, NULL, &n);
    if (e != CL_SUCCESS) fail_msg("param 0x%x: error %d", p->name, e);
    if (p->size && n != p->size) fail_msg("param 0x%x: size %zu, expected %zu", p->name, n, p->size);
    unsigned char *buf = malloc(n + 8);
    memset(buf, 0xAB, n + 8);
    size_t n2 = 0;
    CHECK(clGetDeviceInfo(dev, p->name, n + 8, buf, &n2));
    assert_int_equal(n2, n);
    assert_int_equal(buf[n], 0xAB); /* nothing written past the answer */
    if (n) assert_int_equal(clGetDeviceInfo(dev, p->name, n - 1, buf, NULL), CL_INVALID_VALUE);
    CHECK(clGetDeviceInfo(dev, p->name, n, buf, NULL));
    free(buf);
  }
  /* not OpenCL 3.0 params, or of extensions spvi does not advertise */
  static const cl_device_info unknown[] = {0,
                                           0x102F + 0x1000,
                                           0x106A,
                                           0x1073,
                                           CL_DEVICE_UUID_KHR,
                                           CL_DEVICE_PCI_BUS_INFO_KHR,
                                           CL_PLATFORM_NAME,
                                           CL_CONTEXT_DEVICES};
  for (size_t i = 0; i < NELEMS(unknown); i++) {
    size_t n;
    char buf[256];
    assert_int_equal(clGetDeviceInfo(dev, unknown[i], sizeof buf, buf, &n), CL_INVALID_VALUE);
  }
  /* CTS negative_get_device_info: a valid object of another kind, and a too small size */
  cl_device_type t;
  assert_int_equal(clGetDeviceInfo((cl_device_id)plat, CL_DEVICE_TYPE, sizeof t, &t, NULL), CL_INVALID_DEVICE);
  assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_TYPE, 0, &t, NULL), CL_INVALID_VALUE);
}

/* Full-profile minimums (API 4.2, "OpenCL Device Queries"), and spvi's own values. */
static void test_device_limits(void **state) {
  (void)state;
  assert_int_equal(dev_ulong(CL_DEVICE_TYPE), CL_DEVICE_TYPE_CPU);
  cl_platform_id p = NULL;
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof p, &p, NULL));
  assert_ptr_equal(p, plat);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  cl_uint cu = dev_uint(CL_DEVICE_MAX_COMPUTE_UNITS);
  assert_true(cu >= 1);
  if (!getenv("SPVI_THREADS")) assert_int_equal(cu, (cl_uint)cores);
  assert_int_equal(dev_uint(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS), 3);
  size_t sizes[3];
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, NULL));
  size_t wg = dev_size(CL_DEVICE_MAX_WORK_GROUP_SIZE);
  assert_int_equal(wg, 1024);
  for (int i = 0; i < 3; i++) assert_true(sizes[i] >= 1 && sizes[i] <= wg);
  assert_true(dev_uint(CL_DEVICE_MAX_READ_IMAGE_ARGS) >= 128);
  assert_true(dev_uint(CL_DEVICE_MAX_WRITE_IMAGE_ARGS) >= 64);
  assert_true(dev_uint(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) >= 64);
  assert_true(dev_size(CL_DEVICE_IMAGE2D_MAX_WIDTH) >= 16384);
  assert_true(dev_size(CL_DEVICE_IMAGE2D_MAX_HEIGHT) >= 16384);
  assert_true(dev_size(CL_DEVICE_IMAGE3D_MAX_WIDTH) >= 2048);
  assert_true(dev_size(CL_DEVICE_IMAGE3D_MAX_HEIGHT) >= 2048);
  assert_true(dev_size(CL_DEVICE_IMAGE3D_MAX_DEPTH) >= 2048);
  assert_true(dev_size(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE) >= 65536);
  assert_true(dev_size(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE) >= 2048);
  assert_true(dev_uint(CL_DEVICE_MAX_SAMPLERS) >= 16);
  assert_int_equal(dev_uint(CL_DEVICE_IMAGE_SUPPORT), CL_TRUE);
  assert_true(dev_size(CL_DEVICE_MAX_PARAMETER_SIZE) >= 1024);
  assert_true(dev_uint(CL_DEVICE_MEM_BASE_ADDR_ALIGN) >= 8 * 128); /* bits of long16 */
  assert_true(dev_ulong(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE) >= 64 * 1024);
  assert_true(dev_uint(CL_DEVICE_MAX_CONSTANT_ARGS) >= 8);
  assert_true(dev_ulong(CL_DEVICE_LOCAL_MEM_SIZE) >= 32 * 1024);
  cl_ulong global = dev_ulong(CL_DEVICE_GLOBAL_MEM_SIZE), alloc = dev_ulong(CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  cl_ulong quarter = global / 4, gib = (cl_ulong)1 << 30, min_alloc = quarter < gib ? quarter : gib;
  if (min_alloc < ((cl_ulong)32 << 20)) min_alloc = (cl_ulong)32 << 20;
  assert_true(alloc >= min_alloc);
  assert_true(alloc >= ((cl_ulong)128 << 20)); /* CTS min_max_mem_alloc_size (full profile) */
  /* spvi reports that minimum, at least 128 MiB: no more, so CTS suites sized from it stay short */
  assert_true(alloc == (min_alloc > ((cl_ulong)128 << 20) ? min_alloc : (cl_ulong)128 << 20));
  assert_true(alloc <= global);
  assert_true(dev_size(CL_DEVICE_PRINTF_BUFFER_SIZE) >= 1024 * 1024);
  assert_true(dev_size(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) >= 64 * 1024);
  /* one definition of each memory limit, spvi.h's, which the engine enforces (issue #17) */
  assert_true(dev_ulong(CL_DEVICE_LOCAL_MEM_SIZE) == SPVI_LOCAL_MEM_SIZE);
  assert_true(dev_ulong(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE) == SPVI_MAX_CONSTANT_SIZE);
  assert_true(dev_size(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) == SPVI_MAX_GLOBAL_VARIABLE_SIZE);
  assert_true(dev_size(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE) == SPVI_GLOBAL_VARIABLE_TOTAL_SIZE);
  cl_uint bits = dev_uint(CL_DEVICE_ADDRESS_BITS);
  assert_true(bits == 32 || bits == 64);
  assert_int_equal(dev_uint(CL_DEVICE_ENDIAN_LITTLE), CL_TRUE);
  assert_int_equal(dev_uint(CL_DEVICE_AVAILABLE), CL_TRUE);
  assert_int_equal(dev_uint(CL_DEVICE_COMPILER_AVAILABLE), CL_TRUE); /* full profile */
  assert_int_equal(dev_uint(CL_DEVICE_LINKER_AVAILABLE), CL_TRUE);
  assert_int_equal(dev_size(CL_DEVICE_PROFILING_TIMER_RESOLUTION), 1);
  assert_true(dev_ulong(CL_DEVICE_EXECUTION_CAPABILITIES) & CL_EXEC_KERNEL);
  cl_ulong qp = dev_ulong(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
  assert_int_equal(qp, CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);

  /* floating point: full profile single needs round-to-nearest and inf/nan; double (cl_khr_fp64)
   * fma, all roundings, inf/nan, denormals; half (cl_khr_fp16) non-zero */
  cl_ulong fp_min = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_INF_NAN |
                    CL_FP_DENORM;
  cl_ulong sp = dev_ulong(CL_DEVICE_SINGLE_FP_CONFIG);
  assert_int_equal(sp, fp_min | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
  assert_int_equal(dev_ulong(CL_DEVICE_DOUBLE_FP_CONFIG), fp_min);
  assert_int_equal(dev_ulong(CL_DEVICE_HALF_FP_CONFIG), fp_min);
  assert_true(dev_uint(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE) >= 1);
  assert_true(dev_uint(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF) >= 1);
  assert_true(dev_uint(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE) >= 1);

  /* memory model (CTS consistency_memory_model): every order and scope */
  cl_ulong orders = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_ORDER_SEQ_CST;
  cl_ulong scopes = CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE |
                    CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
  assert_int_equal(dev_ulong(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES), orders | scopes);
  assert_int_equal(dev_ulong(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES), orders | scopes | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM);

  /* sub-groups of 32: ceil(1024 / 32) per work-group */
  assert_int_equal(dev_uint(CL_DEVICE_MAX_NUM_SUB_GROUPS), 32);
  /* cl_khr_subgroups requires it (API 4.2, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS) */
  assert_int_equal(dev_uint(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS), CL_TRUE);
  size_t mult = dev_size(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE);
  assert_true(mult >= 1 && mult <= wg);
  assert_int_equal(dev_uint(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT), CL_TRUE);
  assert_int_equal(dev_uint(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT), CL_TRUE);
  assert_int_equal(dev_uint(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT), CL_TRUE);

  /* SVM: buffer SVM, coarse and fine grained, nothing else */
  assert_int_equal(dev_ulong(CL_DEVICE_SVM_CAPABILITIES),
                   CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER);

  /* absent: pipes, device-side enqueue (CTS consistency_device_enqueue), partitioning */
  assert_int_equal(dev_uint(CL_DEVICE_PIPE_SUPPORT), CL_FALSE);
  assert_int_equal(dev_uint(CL_DEVICE_MAX_PIPE_ARGS), 0);
  assert_int_equal(dev_ulong(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES), 0);
  assert_int_equal(dev_ulong(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES), 0);
  assert_int_equal(dev_uint(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE), 0);
  assert_int_equal(dev_uint(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE), 0);
  assert_int_equal(dev_uint(CL_DEVICE_MAX_ON_DEVICE_QUEUES), 0);
  assert_int_equal(dev_uint(CL_DEVICE_MAX_ON_DEVICE_EVENTS), 0);
  assert_int_equal(dev_uint(CL_DEVICE_PARTITION_MAX_SUB_DEVICES), 0);
  assert_int_equal(dev_ulong(CL_DEVICE_PARTITION_AFFINITY_DOMAIN), 0);
  cl_device_partition_property pp[4] = {99, 99, 99, 99};
  size_t n = 0;
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_PARTITION_PROPERTIES, sizeof pp, pp, &n));
  assert_true(n == 0 || (n == sizeof pp[0] && pp[0] == 0));
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_PARTITION_TYPE, sizeof pp, pp, &n));
  assert_true(n == 0 || (n == sizeof pp[0] && pp[0] == 0));
  cl_device_id parent = dev;
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
  assert_null(parent);
  assert_int_equal(dev_uint(CL_DEVICE_REFERENCE_COUNT), 1);
  /* images from buffers (cl_khr_image2d_from_buffer) are not advertised */
  assert_int_equal(dev_uint(CL_DEVICE_IMAGE_PITCH_ALIGNMENT), 0);
  assert_int_equal(dev_uint(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT), 0);
}

static void test_device_strings(void **state) {
  (void)state;
  char *s = device_str(CL_DEVICE_NAME);
  assert_string_equal(s, "spvi SPIR-V interpreter");
  free(s);
  s = device_str(CL_DEVICE_VENDOR);
  assert_string_equal(s, "spvi");
  free(s);
  s = device_str(CL_DEVICE_PROFILE);
  assert_string_equal(s, "FULL_PROFILE");
  free(s);
  char *drv = device_str(CL_DRIVER_VERSION);
  s = device_str(CL_DEVICE_VERSION);
  unsigned major, minor;
  parse_version(s, "OpenCL ", &major, &minor);
  assert_int_equal(CL_MAKE_VERSION(major, minor, 0), dev_uint(CL_DEVICE_NUMERIC_VERSION));
  assert_int_equal(major, 3);
  char expect[128];
  snprintf(expect, sizeof expect, "OpenCL 3.0 spvi %s", drv);
  assert_string_equal(s, expect);
  free(s);
  free(drv);
  /* "OpenCL C 1.2 ": 3.0 devices without every optional feature report 1.2, with a space after */
  s = device_str(CL_DEVICE_OPENCL_C_VERSION);
  parse_version(s, "OpenCL C ", &major, &minor);
  assert_int_equal(major, 1);
  assert_int_equal(minor, 2);
  assert_int_equal(CL_MAKE_VERSION(major, minor, 0), dev_uint(CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR));
  free(s);
  /* vYYYY-MM-DD-XX (CTS computeinfo conformance_version) */
  s = device_str(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED);
  assert_int_equal(strlen(s), 14);
  static const char shape[] = "v9999-99-99-99";
  for (int i = 0; i < 14; i++) assert_true(shape[i] == '9' ? isdigit((unsigned char)s[i]) : s[i] == shape[i]);
  int month = atoi(s + 6), day = atoi(s + 9);
  assert_true(month >= 1 && month <= 12 && day >= 1 && day <= 31);
  free(s);
  s = device_str(CL_DEVICE_BUILT_IN_KERNELS);
  assert_string_equal(s, "");
  free(s);
  size_t count;
  cl_name_version *nv = device_nv(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, &count);
  assert_int_equal(count, 0);
  free(nv);
}

/* The extension string, the versioned list and clc_features.h agree; so do the OpenCL C
 * features, the IL string and list, and the OpenCL C versions. */
static void test_device_feature_lists(void **state) {
  (void)state;
  size_t count;
  char *ext = device_str(CL_DEVICE_EXTENSIONS);
  cl_name_version *nv = device_nv(CL_DEVICE_EXTENSIONS_WITH_VERSION, &count);
  assert_true(same_names(ext, nv, count));
  assert_true(same_nv(nv, count, expect_ext, NELEMS(expect_ext)));
  char *pext = platform_str(CL_PLATFORM_EXTENSIONS);
  assert_string_equal(ext, pext);
  /* required of every 1.1+ device (CTS min_max_device_version), and fp64 with a double config */
  static const char *const required[] = {"cl_khr_global_int32_base_atomics",
                                         "cl_khr_global_int32_extended_atomics",
                                         "cl_khr_local_int32_base_atomics",
                                         "cl_khr_local_int32_extended_atomics",
                                         "cl_khr_byte_addressable_store",
                                         "cl_khr_fp64",
                                         "cl_khr_fp16",
                                         "cl_khr_il_program",
                                         "cl_khr_extended_versioning"};
  for (size_t i = 0; i < NELEMS(required); i++) {
    size_t hits = 0;
    for (size_t k = 0; k < count; k++) hits += strcmp(nv[k].name, required[i]) == 0;
    if (hits != 1) fail_msg("%s is not advertised", required[i]);
  }
  /* absent on purpose (clc_features.h): nothing spvi does not do */
  static const char *const absent[] = {"cl_khr_image2d_from_buffer", "cl_khr_device_uuid", "cl_khr_gl_sharing",
                                       "cl_khr_expect_assume", "cl_khr_depth_images"};
  for (size_t i = 0; i < NELEMS(absent); i++) assert_null(strstr(ext, absent[i]));
  free(pext);
  free(nv);
  free(ext);

  nv = device_nv(CL_DEVICE_OPENCL_C_FEATURES, &count);
  assert_true(same_nv(nv, count, expect_features, NELEMS(expect_features)));
  free(nv);

  nv = device_nv(CL_DEVICE_OPENCL_C_ALL_VERSIONS, &count);
  static const cl_version cver[] = {CL_MAKE_VERSION(1, 0, 0), CL_MAKE_VERSION(1, 1, 0), CL_MAKE_VERSION(1, 2, 0),
                                    CL_MAKE_VERSION(3, 0, 0)};
  assert_int_equal(count, NELEMS(cver));
  for (size_t i = 0; i < count; i++) {
    assert_string_equal(nv[i].name, "OpenCL C");
    assert_int_equal(nv[i].version, cver[i]);
  }
  free(nv);

  /* "SPIR-V_1.0 ... SPIR-V_1.6" and the same versions as a list */
  char *il = device_str(CL_DEVICE_IL_VERSION);
  nv = device_nv(CL_DEVICE_ILS_WITH_VERSION, &count);
  assert_int_equal(count, 7);
  char expect[256] = "";
  for (size_t i = 0; i < count; i++) {
    assert_string_equal(nv[i].name, "SPIR-V");
    assert_int_equal(nv[i].version, CL_MAKE_VERSION(1, (unsigned)i, 0));
    char w[32];
    snprintf(w, sizeof w, "%sSPIR-V_1.%zu", i ? " " : "", i);
    strcat(expect, w);
  }
  assert_string_equal(il, expect);
  char *il_khr = device_str(CL_DEVICE_IL_VERSION_KHR);
  assert_string_equal(il_khr, il);
  free(il_khr);
  free(il);
  free(nv);
}

static void test_sub_devices_and_refcounts(void **state) {
  (void)state;
  cl_device_id out[8];
  cl_uint n = 0;
  static const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  static const cl_device_partition_property counts[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1,
                                                        CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  static const cl_device_partition_property affinity[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                                          CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0};
  static const cl_device_partition_property bogus[] = {-1, 1, 0};
  assert_int_equal(clCreateSubDevices(dev, equally, 8, out, &n), CL_INVALID_VALUE);
  assert_int_equal(clCreateSubDevices(dev, counts, 8, out, &n), CL_INVALID_VALUE);
  assert_int_equal(clCreateSubDevices(dev, affinity, 8, out, &n), CL_INVALID_VALUE);
  assert_int_equal(clCreateSubDevices(dev, bogus, 8, out, &n), CL_INVALID_VALUE);
  assert_int_equal(clCreateSubDevices(dev, NULL, 8, out, &n), CL_INVALID_VALUE);
  assert_int_equal(clCreateSubDevices((cl_device_id)plat, equally, 8, out, &n), CL_INVALID_DEVICE);
  /* a root device: retain/release succeed and change nothing */
  CHECK(clRetainDevice(dev));
  CHECK(clRetainDevice(dev));
  CHECK(clReleaseDevice(dev));
  assert_int_equal(dev_uint(CL_DEVICE_REFERENCE_COUNT), 1);
  CHECK(clReleaseDevice(dev));
  CHECK(clReleaseDevice(dev));
  assert_int_equal(dev_uint(CL_DEVICE_REFERENCE_COUNT), 1);
  assert_int_equal(clRetainDevice((cl_device_id)plat), CL_INVALID_DEVICE);
  assert_int_equal(clReleaseDevice((cl_device_id)plat), CL_INVALID_DEVICE);
}

static void test_timers(void **state) {
  (void)state;
  cl_ulong d0 = 0, h0 = 0, d1 = 0, h1 = 0, h2 = 0;
  CHECK(clGetDeviceAndHostTimer(dev, &d0, &h0));
  assert_true(d0 > 0 && h0 > 0);
  usleep(2000);
  CHECK(clGetHostTimer(dev, &h1));
  CHECK(clGetDeviceAndHostTimer(dev, &d1, &h2));
  /* nanoseconds of one monotonic clock: 2 ms later is at least 2e6 later, and not hours */
  assert_true(h1 >= h0 + 2000000 && h1 - h0 < (cl_ulong)3600 * 1000000000u);
  assert_true(h2 >= h1 && d1 >= d0 + 2000000);
  cl_ulong diff0 = d0 > h0 ? d0 - h0 : h0 - d0, diff1 = d1 > h2 ? d1 - h2 : h2 - d1;
  assert_true(diff0 < 1000000 && diff1 < 1000000); /* the same moment */
  assert_int_equal(clGetDeviceAndHostTimer(dev, NULL, &h0), CL_INVALID_VALUE);
  assert_int_equal(clGetDeviceAndHostTimer(dev, &d0, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetHostTimer(dev, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetHostTimer((cl_device_id)plat, &h0), CL_INVALID_DEVICE);
  assert_int_equal(clGetDeviceAndHostTimer((cl_device_id)plat, &d0, &h0), CL_INVALID_DEVICE);
}

/* ---- contexts ------------------------------------------------------------------------------ */

static cl_context make_ctx(const cl_context_properties *props, cl_int *err) {
  return clCreateContext(props, 1, &dev, NULL, NULL, err);
}

static void expect_ctx_error(const cl_context_properties *props, cl_uint ndev, const cl_device_id *devs,
                             void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *user,
                             cl_int expected) {
  cl_int e = 12345;
  cl_context c = clCreateContext(props, ndev, devs, notify, user, &e);
  assert_null(c);
  assert_int_equal(e, expected);
}

static void test_context_create_and_info(void **state) {
  (void)state;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0};
  cl_int e = 12345;
  cl_context c = make_ctx(props, &e);
  CHECK(e);
  assert_non_null(c);
  cl_uint u = 0;
  size_t n = 0;
  CHECK(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof u, &u, &n));
  assert_int_equal(n, sizeof u);
  assert_int_equal(u, 1);
  cl_device_id d = NULL;
  CHECK(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof d, &d, &n));
  assert_int_equal(n, sizeof d);
  assert_ptr_equal(d, dev);
  cl_context_properties got[8] = {0};
  CHECK(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof got, got, &n));
  assert_int_equal(n, sizeof props);
  assert_memory_equal(got, props, sizeof props);
  CHECK(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof u, &u, NULL));
  assert_int_equal(u, 1);
  CHECK(clRetainContext(c));
  CHECK(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof u, &u, NULL));
  assert_int_equal(u, 2);
  CHECK(clReleaseContext(c));
  CHECK(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof u, &u, NULL));
  assert_int_equal(u, 1);
  /* errors: unknown param, too small a destination */
  assert_int_equal(clGetContextInfo(c, 0, 0, NULL, &n), CL_INVALID_VALUE);
  assert_int_equal(clGetContextInfo(c, CL_DEVICE_NAME, 0, NULL, &n), CL_INVALID_VALUE);
  assert_int_equal(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof u - 1, &u, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof d - 1, &d, NULL), CL_INVALID_VALUE);
  CHECK(clReleaseContext(c));

  /* no properties: CL_CONTEXT_PROPERTIES is empty; the device given twice counts once */
  cl_device_id two[2] = {dev, dev};
  c = clCreateContext(NULL, 2, two, NULL, NULL, NULL); /* errcode_ret may be NULL */
  assert_non_null(c);
  CHECK(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, NULL, &n));
  assert_int_equal(n, 0);
  CHECK(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof u, &u, NULL));
  assert_int_equal(u, 1);
  CHECK(clReleaseContext(c));

  /* CL_CONTEXT_INTEROP_USER_SYNC is accepted with CL_TRUE and CL_FALSE */
  cl_context_properties sync[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, CL_CONTEXT_INTEROP_USER_SYNC,
                                  CL_TRUE, 0};
  c = make_ctx(sync, &e);
  CHECK(e);
  CHECK(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof got, got, &n));
  assert_int_equal(n, sizeof sync);
  assert_memory_equal(got, sync, sizeof sync);
  CHECK(clReleaseContext(c));
  sync[3] = CL_FALSE;
  c = make_ctx(sync, &e);
  CHECK(e);
  CHECK(clReleaseContext(c));
}

static void CL_CALLBACK notify_fn(const char *errinfo, const void *priv, size_t cb, void *user) {
  (void)errinfo, (void)priv, (void)cb, (void)user;
}

/* API 4.4 clCreateContext errors, as the CTS's negative_create_context tries them. */
static void test_context_errors(void **state) {
  (void)state;
  cl_context_properties props[5] = {CL_CONTEXT_PLATFORM, 0, 0, 0, 0};
  expect_ctx_error(props, 1, &dev, NULL, NULL, CL_INVALID_PLATFORM); /* NULL platform */
  props[1] = (cl_context_properties)dev;                             /* a valid object that is not a platform */
  expect_ctx_error(props, 1, &dev, NULL, NULL, CL_INVALID_PLATFORM);
  props[0] = (cl_context_properties) "INVALID_PROPERTY";
  props[1] = 0;
  expect_ctx_error(props, 1, &dev, NULL, NULL, CL_INVALID_PROPERTY);
  props[0] = CL_CONTEXT_INTEROP_USER_SYNC;
  props[1] = -1;
  expect_ctx_error(props, 1, &dev, NULL, NULL, CL_INVALID_PROPERTY);
  cl_context_properties dup[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, 0};
  expect_ctx_error(dup, 1, &dev, NULL, NULL, CL_INVALID_PROPERTY);
  cl_context_properties dup_plat[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, CL_CONTEXT_PLATFORM,
                                      (cl_context_properties)plat, 0};
  expect_ctx_error(dup_plat, 1, &dev, NULL, NULL, CL_INVALID_PROPERTY);
  expect_ctx_error(NULL, 1, NULL, NULL, NULL, CL_INVALID_VALUE);
  expect_ctx_error(NULL, 0, &dev, NULL, NULL, CL_INVALID_VALUE);
  int user = 1;
  expect_ctx_error(NULL, 1, &dev, NULL, &user, CL_INVALID_VALUE);
  cl_device_id bad = NULL;
  expect_ctx_error(NULL, 1, &bad, NULL, NULL, CL_INVALID_DEVICE);
  cl_device_id mixed[2] = {dev, (cl_device_id)plat};
  expect_ctx_error(NULL, 2, mixed, NULL, NULL, CL_INVALID_DEVICE);
  /* a callback with user data is fine */
  cl_int e;
  cl_context c = clCreateContext(NULL, 1, &dev, notify_fn, &user, &e);
  CHECK(e);
  CHECK(clReleaseContext(c));
}

static void test_context_from_type(void **state) {
  (void)state;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0};
  static const cl_device_type ok[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL};
  for (size_t i = 0; i < NELEMS(ok); i++) {
    cl_int e = 12345;
    cl_context c = clCreateContextFromType(props, ok[i], NULL, NULL, &e);
    CHECK(e);
    cl_device_id d = NULL;
    CHECK(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof d, &d, NULL));
    assert_ptr_equal(d, dev);
    CHECK(clReleaseContext(c));
  }
  static const cl_device_type none[] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CUSTOM};
  for (size_t i = 0; i < NELEMS(none); i++) {
    cl_int e = 12345;
    assert_null(clCreateContextFromType(props, none[i], NULL, NULL, &e));
    assert_int_equal(e, CL_DEVICE_NOT_FOUND);
  }
  cl_int e = 12345;
  assert_null(clCreateContextFromType(props, 0, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_DEVICE_TYPE);
  assert_null(clCreateContextFromType(props, (cl_device_type)1 << 33, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_DEVICE_TYPE);
  int user = 1;
  assert_null(clCreateContextFromType(props, CL_DEVICE_TYPE_CPU, NULL, &user, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  cl_context_properties bad[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, (cl_context_properties) "X", 0, 0};
  assert_null(clCreateContextFromType(bad, CL_DEVICE_TYPE_DEFAULT, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_PROPERTY);
  cl_context_properties dup[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, CL_CONTEXT_PLATFORM,
                                 (cl_context_properties)plat, 0};
  assert_null(clCreateContextFromType(dup, CL_DEVICE_TYPE_DEFAULT, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_PROPERTY);
}

static void CL_CALLBACK noop_dtor(cl_context c, void *user) { (void)c, (void)user; }

/* Bad handles give CL_INVALID_CONTEXT: another kind of object, and a released context (its
 * memory stays a valid handle-looking object, so this is safe through the loader too). */
static void test_context_bad_handles(void **state) {
  (void)state;
  cl_uint u;
  cl_context c = make_ctx(NULL, NULL);
  assert_non_null(c);
  CHECK(clReleaseContext(c));
  assert_int_equal(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof u, &u, NULL), CL_INVALID_CONTEXT);
  assert_int_equal(clRetainContext(c), CL_INVALID_CONTEXT);
  assert_int_equal(clReleaseContext(c), CL_INVALID_CONTEXT);
  assert_int_equal(clSetContextDestructorCallback(c, noop_dtor, NULL), CL_INVALID_CONTEXT);
  cl_context wrong = (cl_context)dev;
  assert_int_equal(clGetContextInfo(wrong, CL_CONTEXT_REFERENCE_COUNT, sizeof u, &u, NULL), CL_INVALID_CONTEXT);
  assert_int_equal(clRetainContext(wrong), CL_INVALID_CONTEXT);
  assert_int_equal(clReleaseContext(wrong), CL_INVALID_CONTEXT);
  assert_int_equal(clRetainContext(NULL), CL_INVALID_CONTEXT);
  assert_int_equal(clReleaseContext(NULL), CL_INVALID_CONTEXT);
  assert_int_equal(clGetContextInfo(NULL, CL_CONTEXT_REFERENCE_COUNT, sizeof u, &u, NULL), CL_INVALID_CONTEXT);
}

/* Destructor callbacks: last registered first, when the context is destroyed. */
static int dtor_order[8], dtor_count;
static cl_context dtor_ctx_seen;
static void CL_CALLBACK dtor(cl_context c, void *user) {
  dtor_ctx_seen = c;
  dtor_order[dtor_count++] = (int)(intptr_t)user;
}

static void test_context_destructors(void **state) {
  (void)state;
  dtor_count = 0;
  cl_context c = make_ctx(NULL, NULL);
  for (intptr_t i = 1; i <= 3; i++) CHECK(clSetContextDestructorCallback(c, dtor, (void *)i));
  assert_int_equal(clSetContextDestructorCallback(c, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clSetContextDestructorCallback(NULL, dtor, NULL), CL_INVALID_CONTEXT);
  CHECK(clRetainContext(c));
  CHECK(clReleaseContext(c));
  assert_int_equal(dtor_count, 0); /* still referenced */
  CHECK(clReleaseContext(c));
  assert_int_equal(dtor_count, 3);
  assert_int_equal(dtor_order[0], 3);
  assert_int_equal(dtor_order[1], 2);
  assert_int_equal(dtor_order[2], 1);
  assert_ptr_equal(dtor_ctx_seen, c);

  /* an object of the context holds it: the callbacks wait for the last one (API 4.4) */
  dtor_count = 0;
  c = make_ctx(NULL, NULL);
  CHECK(clSetContextDestructorCallback(c, dtor, (void *)7));
  cl_int e;
  cl_command_queue q = clCreateCommandQueueWithProperties(c, dev, NULL, &e);
  CHECK(e);
  CHECK(clReleaseContext(c));
  assert_int_equal(dtor_count, 0);
  CHECK(clReleaseCommandQueue(q));
  assert_int_equal(dtor_count, 1);
  assert_int_equal(dtor_order[0], 7);
}

/* ---- threads ------------------------------------------------------------------------------- */
enum { THREADS = 8, ROUNDS = 200 };
static cl_context shared_ctx;
static _Atomic int shared_dtors;
static void CL_CALLBACK count_dtor(cl_context c, void *user) {
  (void)c, (void)user;
  shared_dtors++;
}

static void *worker(void *arg) {
  (void)arg;
  for (int r = 0; r < ROUNDS; r++) {
    /* own contexts, with a destructor each */
    cl_int e;
    cl_context c = clCreateContextFromType(NULL, CL_DEVICE_TYPE_CPU, NULL, NULL, &e);
    if (e != CL_SUCCESS || clSetContextDestructorCallback(c, count_dtor, NULL) != CL_SUCCESS) return (void *)1;
    /* the shared one: references taken and given back */
    if (clRetainContext(shared_ctx) != CL_SUCCESS) return (void *)2;
    cl_uint refs = 0;
    if (clGetContextInfo(shared_ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL) != CL_SUCCESS || refs < 2)
      return (void *)3;
    char name[64];
    size_t n;
    if (clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, &n) != CL_SUCCESS ||
        strcmp(name, "spvi SPIR-V interpreter"))
      return (void *)4;
    cl_ulong mem;
    if (clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL) != CL_SUCCESS || mem == 0)
      return (void *)5;
    if (clReleaseContext(shared_ctx) != CL_SUCCESS || clReleaseContext(c) != CL_SUCCESS) return (void *)6;
  }
  return NULL;
}

static void test_threads(void **state) {
  (void)state;
  shared_dtors = 0;
  cl_int e;
  shared_ctx = make_ctx(NULL, &e);
  CHECK(e);
  CHECK(clSetContextDestructorCallback(shared_ctx, count_dtor, NULL));
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++) assert_int_equal(pthread_create(&t[i], NULL, worker, NULL), 0);
  for (int i = 0; i < THREADS; i++) {
    void *r;
    pthread_join(t[i], &r);
    if (r) fail_msg("worker %d failed at step %d", i, (int)(intptr_t)r);
  }
  assert_int_equal(shared_dtors, THREADS * ROUNDS);
  cl_uint refs = 0;
  CHECK(clGetContextInfo(shared_ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  assert_int_equal(refs, 1);
  CHECK(clReleaseContext(shared_ctx));
  assert_int_equal(shared_dtors, THREADS * ROUNDS + 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_platform_ids),
    cmocka_unit_test(test_platform_info),
    cmocka_unit_test(test_platform_info_errors),
    cmocka_unit_test(test_dispatch_table),
    cmocka_unit_test(test_extension_functions),
    cmocka_unit_test(test_device_ids),
    cmocka_unit_test(test_device_info_every_param),
    cmocka_unit_test(test_device_limits),
    cmocka_unit_test(test_device_strings),
    cmocka_unit_test(test_device_feature_lists),
    cmocka_unit_test(test_sub_devices_and_refcounts),
    cmocka_unit_test(test_timers),
    cmocka_unit_test(test_context_create_and_info),
    cmocka_unit_test(test_context_errors),
    cmocka_unit_test(test_context_from_type),
    cmocka_unit_test(test_context_bad_handles),
    cmocka_unit_test(test_context_destructors),
    cmocka_unit_test(test_threads),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
