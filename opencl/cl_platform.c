/*
 * cl_platform.c — spvi's one platform and its one device: clGetPlatformIDs, clGetPlatformInfo,
 * clGetDeviceIDs, clGetDeviceInfo, sub-devices, timers (OpenCL 3.0 API 4.1, 4.2, 4.3, 5.14).
 *
 * The device is the interpreter running on the host's CPU cores. Every query answers what spvi
 * really does: the extensions and OpenCL C features come from clc_features.h, the memory limits from
 * the engine's (spvi.h "device limits"), the others from the CLX_* macros other files check
 * against, and what spvi does not have (pipes, device-side enqueue, partitioning, system SVM)
 * answers "none" as the spec says a device without it must. The answers
 * are tables (param -> type and value), one for the platform and one for the device.
 */
#include "cl_internal.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- the singletons (never registered, never freed: clx_valid knows their addresses) -------- */
struct _cl_platform_id clx_platform = {.h = {.dispatch = &clx_dispatch, .kind = CLX_PLATFORM, .refs = 1}};
struct _cl_device_id clx_device = {.h = {.dispatch = &clx_dispatch, .kind = CLX_DEVICE, .refs = 1}};

/* ---- what the platform and device advertise (clc_features.h) ---------------------------------- */
#define CLX_NAME_SPACED(name, major, minor, patch) " " #name
#define CLX_NAME_VERSION(name, major, minor, patch) {CL_MAKE_VERSION(major, minor, patch), #name},

/* " cl_khr_icd cl_khr_il_program ...": used from its second character (no leading space) */
static const char ext_string[] = CLF_EXTENSIONS(CLX_NAME_SPACED);
static const cl_name_version ext_versions[] = {CLF_EXTENSIONS(CLX_NAME_VERSION)};
static const cl_name_version c_features[] = {CLF_C_FEATURES(CLX_NAME_VERSION)};

/* OpenCL C versions the source compiler accepts (-cl-std=CL1.0 ... CL3.0). CL_DEVICE_OPENCL_C_VERSION
 * says 1.2: "an OpenCL 3.0 device may return an OpenCL C version newer than OpenCL C 1.2 if and
 * only if all optional OpenCL C features are supported" (API 4.2), and pipes and device-side
 * enqueue are not. */
static const cl_name_version c_versions[] = {
  {CL_MAKE_VERSION(1, 0, 0), "OpenCL C"},
  {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
  {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"},
  {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"},
};

/* SPIR-V versions the loader reads (docs/semantics.md: 1.0 ... 1.6). */
#define CLX_IL_STRING "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4 SPIR-V_1.5 SPIR-V_1.6"
static const cl_name_version il_versions[] = {
  {CL_MAKE_VERSION(1, 0, 0), "SPIR-V"}, {CL_MAKE_VERSION(1, 1, 0), "SPIR-V"}, {CL_MAKE_VERSION(1, 2, 0), "SPIR-V"},
  {CL_MAKE_VERSION(1, 3, 0), "SPIR-V"}, {CL_MAKE_VERSION(1, 4, 0), "SPIR-V"}, {CL_MAKE_VERSION(1, 5, 0), "SPIR-V"},
  {CL_MAKE_VERSION(1, 6, 0), "SPIR-V"},
};

#define CLX_VERSION_STRING "OpenCL 3.0 spvi " SPVI_VERSION_STRING

/* ---- machine-dependent values ----------------------------------------------------------------- */
/* The memory figures are the engine's (spvi.h "device limits"): one definition, which the
 * engine enforces and the table below reports. */
static cl_ulong global_mem_size(void) { return spvi_global_mem_size(); }
static cl_ulong max_alloc_size(void) { return spvi_max_alloc_size(); }

/* Work-groups run in parallel on this many threads (SPVI_THREADS, else the online cores). */
static cl_ulong compute_units(void) {
  unsigned t = clx_cfg()->threads;
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return t ? t : n > 0 ? (cl_ulong)n : 1;
}

/* The host CPU's clock in MHz (the first "cpu MHz" of /proc/cpuinfo), 0 when unknown. */
static cl_ulong clock_mhz(void) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return 0;
  char line[256];
  double mhz = 0;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "cpu MHz", 7) == 0) {
      const char *colon = strchr(line, ':');
      if (colon && sscanf(colon + 1, "%lf", &mhz) == 1) break;
    }
  fclose(f);
  return mhz > 0 && mhz < 1e6 ? (cl_ulong)mhz : 0;
}

static cl_ulong cacheline(void) {
  long n = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
  return n > 0 ? (cl_ulong)n : 64;
}

/* The largest cache level the host reports (spvi's buffers are host memory behind it). */
static cl_ulong cache_size(void) {
  long n = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (n <= 0) n = sysconf(_SC_LEVEL2_CACHE_SIZE);
  return n > 0 ? (cl_ulong)n : 0;
}

static cl_ulong timer_resolution_ns(void) {
  struct timespec res;
  if (clock_getres(CLOCK_MONOTONIC, &res) != 0 || res.tv_sec != 0 || res.tv_nsec <= 0) return 1;
  return (cl_ulong)res.tv_nsec;
}

/* ---- the answer tables ------------------------------------------------------------------------
 * One row per param: its C type (which fixes the answer's size) and value, or a function for
 * values that depend on the machine, or the bytes of a string or array. */
typedef enum param_type { P_UINT, P_ULONG, P_SIZE, P_STRING, P_BYTES } param_type;

typedef struct param_row {
  cl_uint name;
  param_type type;
  cl_ulong value;        /* P_UINT (also cl_bool, cl_version), P_ULONG (bitfields), P_SIZE */
  cl_ulong (*get)(void); /* when not NULL, the value */
  const void *bytes;     /* P_STRING: the string; P_BYTES: the array */
  size_t size;           /* P_BYTES: its size */
} param_row;

#define U32(n, v) \
  { n, P_UINT, (v), NULL, NULL, 0 }
#define U64(n, v) \
  { n, P_ULONG, (v), NULL, NULL, 0 }
#define SZ(n, v) \
  { n, P_SIZE, (v), NULL, NULL, 0 }
#define U32_FN(n, f) \
  { n, P_UINT, 0, f, NULL, 0 }
#define U64_FN(n, f) \
  { n, P_ULONG, 0, f, NULL, 0 }
#define STR(n, s) \
  { n, P_STRING, 0, NULL, s, 0 }
#define ARR(n, a) \
  { n, P_BYTES, 0, NULL, &(a), sizeof(a) }
#define EMPTY(n) \
  { n, P_BYTES, 0, NULL, NULL, 0 }

static cl_int answer(const param_row *rows, size_t nrows, cl_uint name, size_t size, void *out, size_t *size_ret) {
  for (size_t i = 0; i < nrows; i++) {
    const param_row *r = &rows[i];
    if (r->name != name) continue;
    cl_ulong v = r->get ? r->get() : r->value;
    switch (r->type) {
    case P_UINT: {
      cl_uint x = (cl_uint)v;
      return clx_info(size, out, size_ret, &x, sizeof x);
    }
    case P_ULONG: return clx_info(size, out, size_ret, &v, sizeof v);
    case P_SIZE: {
      size_t x = (size_t)v;
      return clx_info(size, out, size_ret, &x, sizeof x);
    }
    case P_STRING: return clx_info_str(size, out, size_ret, r->bytes);
    case P_BYTES: return clx_info(size, out, size_ret, r->bytes, r->size);
    }
  }
  return CL_INVALID_VALUE; /* "param_name is not one of the supported values" */
}

/* ---- platform (API 4.1, table "OpenCL Platform Queries") ------------------------------------ */
static const param_row platform_rows[] = {
  STR(CL_PLATFORM_PROFILE, "FULL_PROFILE"), STR(CL_PLATFORM_VERSION, CLX_VERSION_STRING),
  U32(CL_PLATFORM_NUMERIC_VERSION, CL_MAKE_VERSION(3, 0, 0)), STR(CL_PLATFORM_NAME, "spvi"),
  STR(CL_PLATFORM_VENDOR, "spvi"),
  /* "extensions supported by all the devices associated with this platform": the one device's */
  STR(CL_PLATFORM_EXTENSIONS, ext_string + 1), ARR(CL_PLATFORM_EXTENSIONS_WITH_VERSION, ext_versions),
  /* clGetHostTimer/clGetDeviceAndHostTimer read CLOCK_MONOTONIC */
  U64_FN(CL_PLATFORM_HOST_TIMER_RESOLUTION, timer_resolution_ns),
  STR(CL_PLATFORM_ICD_SUFFIX_KHR, "spvi"), /* cl_khr_icd */
};

/* NULL platform: "the behavior is implementation-defined" (API 4.1); spvi's is the only one. */
static bool platform_ok(cl_platform_id p) { return !p || clx_valid(p, CLX_PLATFORM); }

CLX_API CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                                                         cl_uint *num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return CL_INVALID_VALUE;
  if (platforms) platforms[0] = &clx_platform;
  if (num_platforms) *num_platforms = 1;
  return CL_SUCCESS;
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                                          size_t param_value_size, void *param_value,
                                                          size_t *param_value_size_ret) {
  if (!platform_ok(platform)) return CL_INVALID_PLATFORM;
  return answer(platform_rows, sizeof platform_rows / sizeof platform_rows[0], param_name, param_value_size,
                param_value, param_value_size_ret);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

/* The compiler runs in child processes (clc_compile.c): there is nothing resident to unload. */
CLX_API CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  return clx_valid(platform, CLX_PLATFORM) ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

/* ---- device (API 4.2, table "OpenCL Device Queries") ----------------------------------------- */
static const size_t max_item_sizes[CLX_MAX_WORK_ITEM_DIMS] = {CLX_MAX_WORK_GROUP_SIZE, CLX_MAX_WORK_GROUP_SIZE,
                                                              CLX_MAX_WORK_GROUP_SIZE};
static const cl_platform_id device_platform = &clx_platform;
static const cl_device_id no_parent = NULL;
/* "If the device cannot be partitioned ... a value of 0 will be returned" */
static const cl_device_partition_property no_partitions[1] = {0};

/* spvi's float arithmetic is IEEE with denormals (unless SPVI_FLUSH_DENORMALS), fma is exact, and
 * the math library is correctly rounded (docs/builtins.md): so also divide and sqrt. */
#define CLX_FP_BASE \
  (CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA)
/* Atomics execute sequentially consistent, also across the threads running work-groups. */
#define CLX_ATOMIC_ORDERS \
  (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_ORDER_SEQ_CST)
#define CLX_ATOMIC_SCOPES \
  (CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES)

static const param_row device_rows[] = {
  /* identity */
  U64(CL_DEVICE_TYPE, CL_DEVICE_TYPE_CPU), U32(CL_DEVICE_VENDOR_ID, 0), /* no PCI vendor */
  STR(CL_DEVICE_NAME, "spvi SPIR-V interpreter"), STR(CL_DEVICE_VENDOR, "spvi"),
  STR(CL_DRIVER_VERSION, SPVI_VERSION_STRING), STR(CL_DEVICE_PROFILE, "FULL_PROFILE"),
  STR(CL_DEVICE_VERSION, CLX_VERSION_STRING), U32(CL_DEVICE_NUMERIC_VERSION, CL_MAKE_VERSION(3, 0, 0)),
  STR(CL_DEVICE_OPENCL_C_VERSION, "OpenCL C 1.2 "),
  U32(CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR, CL_MAKE_VERSION(1, 2, 0)), /* cl_khr_extended_versioning */
  ARR(CL_DEVICE_OPENCL_C_ALL_VERSIONS, c_versions), ARR(CL_DEVICE_OPENCL_C_FEATURES, c_features),
  STR(CL_DEVICE_EXTENSIONS, ext_string + 1), ARR(CL_DEVICE_EXTENSIONS_WITH_VERSION, ext_versions),
  STR(CL_DEVICE_IL_VERSION, CLX_IL_STRING), /* also CL_DEVICE_IL_VERSION_KHR (same value) */
  ARR(CL_DEVICE_ILS_WITH_VERSION, il_versions), STR(CL_DEVICE_BUILT_IN_KERNELS, ""),
  EMPTY(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION),
  /* "vYYYY-MM-DD-XX" (API 4.2): spvi has not passed a conformance run, so the earliest date */
  STR(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, "v0000-01-01-00"), ARR(CL_DEVICE_PLATFORM, device_platform),
  U32(CL_DEVICE_AVAILABLE, CL_TRUE), U32(CL_DEVICE_COMPILER_AVAILABLE, CL_TRUE),
  U32(CL_DEVICE_LINKER_AVAILABLE, CL_TRUE), U32(CL_DEVICE_REFERENCE_COUNT, 1), /* a root device */

  /* execution */
  U32_FN(CL_DEVICE_MAX_COMPUTE_UNITS, compute_units), U32_FN(CL_DEVICE_MAX_CLOCK_FREQUENCY, clock_mhz),
  U32(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, CLX_MAX_WORK_ITEM_DIMS), ARR(CL_DEVICE_MAX_WORK_ITEM_SIZES, max_item_sizes),
  SZ(CL_DEVICE_MAX_WORK_GROUP_SIZE, CLX_MAX_WORK_GROUP_SIZE),
  SZ(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, CLX_SUBGROUP_SIZE), /* a whole warp */
  U32(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, CL_TRUE),
  U32(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, CL_TRUE),
  U32(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, CL_TRUE),
  U32(CL_DEVICE_MAX_NUM_SUB_GROUPS, (CLX_MAX_WORK_GROUP_SIZE + CLX_SUBGROUP_SIZE - 1) / CLX_SUBGROUP_SIZE),
  /* required by cl_khr_subgroups: warps yield to each other (interp/ex_sched.c start_group) */
  U32(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, CL_TRUE), U64(CL_DEVICE_EXECUTION_CAPABILITIES, CL_EXEC_KERNEL),
  U64(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE),
  SZ(CL_DEVICE_PROFILING_TIMER_RESOLUTION, 1), /* nanosecond timestamps (clx_now_ns) */
  SZ(CL_DEVICE_PRINTF_BUFFER_SIZE, (size_t)1 << 20), U32(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, CL_TRUE),
  U32(CL_DEVICE_ENDIAN_LITTLE, CL_TRUE), U32(CL_DEVICE_ERROR_CORRECTION_SUPPORT, CL_FALSE),
  U32(CL_DEVICE_ADDRESS_BITS, 64),

  /* arithmetic: one interpreted instruction handles a whole vector, so 128-bit vectors are
   * preferred; half and double are supported (cl_khr_fp16, cl_khr_fp64) */
  U32(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, 16), U32(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, 8),
  U32(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, 4), U32(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, 2),
  U32(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, 4), U32(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, 2),
  U32(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, 8), U32(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, 16),
  U32(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, 8), U32(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, 4),
  U32(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, 2), U32(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, 4),
  U32(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, 2), U32(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, 8),
  U64(CL_DEVICE_HALF_FP_CONFIG, CLX_FP_BASE),
  U64(CL_DEVICE_SINGLE_FP_CONFIG, CLX_FP_BASE | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT),
  U64(CL_DEVICE_DOUBLE_FP_CONFIG, CLX_FP_BASE),
  U64(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, CLX_ATOMIC_ORDERS | CLX_ATOMIC_SCOPES),
  U64(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, CLX_ATOMIC_ORDERS | CLX_ATOMIC_SCOPES | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM),

  /* memory */
  U64_FN(CL_DEVICE_GLOBAL_MEM_SIZE, global_mem_size), U64_FN(CL_DEVICE_MAX_MEM_ALLOC_SIZE, max_alloc_size),
  U32(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, CL_READ_WRITE_CACHE), U32_FN(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, cacheline),
  U64_FN(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, cache_size), U32(CL_DEVICE_HOST_UNIFIED_MEMORY, CL_TRUE),
  U32(CL_DEVICE_LOCAL_MEM_TYPE, CL_GLOBAL), /* host memory, not a dedicated store */
  U64(CL_DEVICE_LOCAL_MEM_SIZE, SPVI_LOCAL_MEM_SIZE), U64(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, SPVI_MAX_CONSTANT_SIZE),
  U32(CL_DEVICE_MAX_CONSTANT_ARGS, CLX_MAX_CONSTANT_ARGS), SZ(CL_DEVICE_MAX_PARAMETER_SIZE, CLX_MAX_PARAMETER_SIZE),
  U32(CL_DEVICE_MEM_BASE_ADDR_ALIGN, CLX_MEM_BASE_ADDR_ALIGN_BITS),
  U32(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, 128), /* bytes of the largest type, long16 */
  SZ(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, SPVI_MAX_GLOBAL_VARIABLE_SIZE),
  SZ(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, SPVI_GLOBAL_VARIABLE_TOTAL_SIZE),
  /* SVM is host memory whose addresses kernels use as they are (spvi.h "shared virtual memory"):
   * buffer SVM, coarse and fine grained; no system SVM, no SVM atomics */
  U64(CL_DEVICE_SVM_CAPABILITIES, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER),
  U32(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, 0), /* 0: natural alignment */
  U32(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, 0), U32(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, 0),

  /* images */
  U32(CL_DEVICE_IMAGE_SUPPORT, CL_TRUE), U32(CL_DEVICE_MAX_READ_IMAGE_ARGS, 128),
  U32(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, 64), U32(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, 64),
  SZ(CL_DEVICE_IMAGE2D_MAX_WIDTH, CLX_IMAGE2D_MAX), SZ(CL_DEVICE_IMAGE2D_MAX_HEIGHT, CLX_IMAGE2D_MAX),
  SZ(CL_DEVICE_IMAGE3D_MAX_WIDTH, CLX_IMAGE3D_MAX), SZ(CL_DEVICE_IMAGE3D_MAX_HEIGHT, CLX_IMAGE3D_MAX),
  SZ(CL_DEVICE_IMAGE3D_MAX_DEPTH, CLX_IMAGE3D_MAX), SZ(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, CLX_IMAGE_MAX_BUFFER_SIZE),
  SZ(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, CLX_IMAGE_MAX_ARRAY_SIZE), U32(CL_DEVICE_MAX_SAMPLERS, CLX_MAX_SAMPLERS),
  /* 2D images from buffers (cl_khr_image2d_from_buffer) are not supported: 0 */
  U32(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, 0), U32(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, 0),

  /* absent features: the values the spec requires of a device without them */
  U32(CL_DEVICE_PIPE_SUPPORT, CL_FALSE), U32(CL_DEVICE_MAX_PIPE_ARGS, 0),
  U32(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, 0), U32(CL_DEVICE_PIPE_MAX_PACKET_SIZE, 0),
  U64(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, 0), U64(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, 0),
  U32(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, 0), U32(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, 0),
  U32(CL_DEVICE_MAX_ON_DEVICE_QUEUES, 0), U32(CL_DEVICE_MAX_ON_DEVICE_EVENTS, 0),
  ARR(CL_DEVICE_PARENT_DEVICE, no_parent), U32(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, 0),
  ARR(CL_DEVICE_PARTITION_PROPERTIES, no_partitions), U64(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, 0),
  EMPTY(CL_DEVICE_PARTITION_TYPE), /* "a root-level device ... param_value_size_ret of 0" */
};

/* NULL, a freed object, another kind of object: CL_INVALID_DEVICE (clx_valid) */
#define CLX_DEVICE_TYPES                                                                           \
  (CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | \
   CL_DEVICE_TYPE_CUSTOM)

CLX_API CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name,
                                                        size_t param_value_size, void *param_value,
                                                        size_t *param_value_size_ret) {
  if (!clx_valid(device, CLX_DEVICE)) return CL_INVALID_DEVICE;
  return answer(device_rows, sizeof device_rows / sizeof device_rows[0], param_name, param_value_size, param_value,
                param_value_size_ret);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                                                       cl_uint num_entries, cl_device_id *devices,
                                                       cl_uint *num_devices) {
  /* API 4.2 error list, in its order */
  if (!platform_ok(platform)) return CL_INVALID_PLATFORM;
  if (device_type != CL_DEVICE_TYPE_ALL && (device_type == 0 || (device_type & ~(cl_device_type)CLX_DEVICE_TYPES)))
    return CL_INVALID_DEVICE_TYPE;
  if ((num_entries == 0 && devices) || (!num_devices && !devices)) return CL_INVALID_VALUE;
  /* the CPU device is also the default one */
  if (!(device_type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT))) {
    if (num_devices) *num_devices = 0;
    return CL_DEVICE_NOT_FOUND;
  }
  if (devices) devices[0] = &clx_device;
  if (num_devices) *num_devices = 1;
  return CL_SUCCESS;
}

/* Partitioning (API 4.3): the device has no partition scheme (CL_DEVICE_PARTITION_PROPERTIES is
 * 0), so every property list is "valid but not supported by the device": CL_INVALID_VALUE. */
CLX_API CL_API_ENTRY cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device,
                                                           const cl_device_partition_property *properties,
                                                           cl_uint num_devices, cl_device_id *out_devices,
                                                           cl_uint *num_devices_ret) {
  (void)properties, (void)num_devices, (void)out_devices, (void)num_devices_ret;
  if (!clx_valid(in_device, CLX_DEVICE)) return CL_INVALID_DEVICE;
  return CL_INVALID_VALUE;
}

/* Root devices: "clRetainDevice/clReleaseDevice ... for a root-level device, the reference count
 * does not change" (API 4.3). */
CLX_API CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
  return clx_valid(device, CLX_DEVICE) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
  return clx_valid(device, CLX_DEVICE) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

/* ---- timers (API 4.2: clGetDeviceAndHostTimer, clGetHostTimer) --------------------------------
 * The device's timer is the host's CLOCK_MONOTONIC (the one profiling timestamps use), so both
 * timestamps are the same reading. */
CLX_API CL_API_ENTRY cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp,
                                                                cl_ulong *host_timestamp) {
  if (!clx_valid(device, CLX_DEVICE)) return CL_INVALID_DEVICE;
  if (!device_timestamp || !host_timestamp) return CL_INVALID_VALUE;
  *device_timestamp = *host_timestamp = clx_now_ns();
  return CL_SUCCESS;
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong *host_timestamp) {
  if (!clx_valid(device, CLX_DEVICE)) return CL_INVALID_DEVICE;
  if (!host_timestamp) return CL_INVALID_VALUE;
  *host_timestamp = clx_now_ns();
  return CL_SUCCESS;
}
