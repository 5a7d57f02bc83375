/*
 * spvi.h — the public C API of spvi, an interpreter for SPIR-V compute kernels
 * (OpenCL `Kernel` execution model).
 *
 * Life cycle:
 *   spvi_module *m = spvi_load_file("k.spv", &opts, &err);   // parse, validate, build IR, prepare
 *   int k = spvi_find_kernel(m, "vadd");                     // or 0 when there is one kernel
 *   spvi_launch *l = spvi_launch_new(m, k, &err);
 *   spvi_set_arg_buffer(l, 0, data, bytes, &err);            // one call per kernel parameter
 *   spvi_set_arg_value(l, 2, &n, sizeof n, &err);
 *   spvi_set_ndrange(l, 1, global, local_or_NULL, offset_or_NULL, &err);
 *   spvi_status s = spvi_run(l, &run_opts, &fault, &err);    // SPVI_OK, SPVI_FAULT or an error
 *   const void *out = spvi_arg_buffer(l, 0, &bytes);         // results
 *   spvi_launch_free(l); spvi_module_free(m);
 *
 * Every call that can fail takes an spvi_error* (may be NULL) that receives one clear message naming
 * what and where. Nothing here prints; warnings go to the optional callback in spvi_load_options.
 */
#ifndef SPVI_H
#define SPVI_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SPVI_VERSION_STRING "0.1.0"

typedef enum spvi_status {
  SPVI_OK = 0,
  SPVI_FAULT = 1,    /* the kernel faulted (out-of-bounds, divergence, unreachable ...): see spvi_fault */
  SPVI_E_USAGE = 2,  /* wrong argument to an API call (bad index, size, NDRange ...) */
  SPVI_E_MODULE = 3, /* the module is malformed, invalid (--strict) or uses something unsupported */
  SPVI_E_IO = 4,     /* a file could not be read */
  SPVI_E_NOMEM = 5,
  SPVI_E_BUILD = 6 /* OpenCL C source did not compile, or a build option was refused (spvi_load_source) */
} spvi_status;

typedef struct spvi_error {
  spvi_status status;
  char message[1024]; /* one line, no trailing newline; "" when status == SPVI_OK */
} spvi_error;

typedef enum spvi_severity { SPVI_WARNING, SPVI_NOTE } spvi_severity;
typedef void (*spvi_message_fn)(void *user, spvi_severity severity, const char *message);

/* A specialization constant's value (SPIR-V OpSpecConstant* with decoration SpecId), as text read
 * according to the constant's type: true/false/1/0, an integer (decimal or 0x hex) in range, or a
 * floating-point literal (decimal or hex-float; rounded to nearest for float/double, exact for half). */
typedef struct spvi_spec_value {
  uint32_t id;
  const char *value;
  /* Alternatively the value's bits (clSetProgramSpecializationConstant): when bytes is not NULL,
   * `value` is unused and `size` must be the constant's size (1 for a bool). */
  const void *bytes;
  size_t size;
} spvi_spec_value;

typedef struct spvi_load_options {
  bool strict;                 /* a SPIRV-Tools validation failure is an error, not a warning */
  const spvi_spec_value *spec; /* specialization constants; every id must exist in the module */
  unsigned nspec;
  spvi_message_fn on_message; /* receives warnings (e.g. validator messages); may be NULL */
  void *user;
} spvi_load_options;

typedef struct spvi_module spvi_module;
typedef struct spvi_launch spvi_launch;

/* ---- loading --------------------------------------------------------------------------------- */
spvi_module *spvi_load_file(const char *path, const spvi_load_options *opts, spvi_error *err);
/* `name` is used in messages in place of a file name. The words are copied. */
spvi_module *spvi_load_memory(const void *data, size_t bytes, const char *name, const spvi_load_options *opts,
                              spvi_error *err);
/* OpenCL C source: compiles the file `path` to SPIR-V the way `spvi run KERNEL.cl` and the OpenCL
 * platform's clBuildProgram do (the same compile layer and build cache, docs/compile.md) and loads
 * the module. `options`: OpenCL build options (OpenCL API 5.8.6: -D NAME[=V], -I DIR, -cl-std=,
 * -cl-opt-disable, ...; clang's -g for debug information); NULL or "": the optimising pipeline, as
 * `spvi run` without -O. `#include "x.h"` finds x.h next to the file first; diagnostics and the
 * debug information name the file as `path` spells it. The compiler's log, when not empty (warnings
 * too), goes to opts->on_message as one SPVI_NOTE of one or more lines, before the module is
 * loaded. A file that starts with the SPIR-V magic number is loaded as a module (options must then
 * be NULL or "": SPVI_E_USAGE otherwise). Errors: SPVI_E_IO (unreadable), SPVI_E_BUILD (did not
 * compile: the message quotes the log's first error line, `k.cl:3:5: error: ...`), and those of
 * spvi_load_memory. */
spvi_module *spvi_load_source(const char *path, const char *options, const spvi_load_options *opts, spvi_error *err);
void spvi_module_free(spvi_module *m);

/* ---- device limits ----------------------------------------------------------------------------
 * What one launch of spvi may use: each limit is checked with overflow-safe arithmetic before any
 * memory of that size is touched, and what exceeds it is refused with a message naming the
 * variable (its OpName, else %id) or argument and the limit. The OpenCL platform reports these
 * same figures (docs/opencl-platform.md). Loading refuses a module whose variables or constants
 * exceed them (SPVI_E_MODULE); spvi_set_arg_* and spvi_run refuse arguments and launches
 * (SPVI_E_USAGE). */
/* __local bytes of one work-group: its kernel-scope variables (each rounded to 16 bytes, as
 * spvi_kernel_local_bytes counts them) plus its __local arguments (CL_DEVICE_LOCAL_MEM_SIZE). */
#define SPVI_LOCAL_MEM_SIZE ((uint64_t)64 << 10)
/* Private bytes of one work-item: the register file of the module's functions (every SSA value
 * and used constant) plus the private arena (Function variables, by-value copies, built-ins).
 * OpenCL has no device query for it; CL_KERNEL_PRIVATE_MEM_SIZE reports a kernel's arena. */
#define SPVI_PRIVATE_MEM_SIZE ((uint64_t)512 << 10)
/* One program-scope variable in the global address space (CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE),
 * and all of them together (CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE). */
#define SPVI_MAX_GLOBAL_VARIABLE_SIZE ((uint64_t)64 << 10)
#define SPVI_GLOBAL_VARIABLE_TOTAL_SIZE ((uint64_t)1 << 20)
/* All program-scope variables in the constant address space together, and any one constant
 * (OpConstant*, OpSpecConstant*, OpUndef) of the module (CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE). */
#define SPVI_MAX_CONSTANT_SIZE ((uint64_t)64 << 20)
/* Global memory: half the machine's physical memory (CL_DEVICE_GLOBAL_MEM_SIZE); the largest
 * single buffer, image or SVM allocation: a quarter of that, at least 128 MiB and at most 1 GiB
 * (CL_DEVICE_MAX_MEM_ALLOC_SIZE; OpenCL 3.0 API 4.2 requires at least max(min(1 GiB, 1/4 of the
 * global memory), 32 MiB) of a full-profile device). */
uint64_t spvi_global_mem_size(void);
uint64_t spvi_max_alloc_size(void);

/* ---- module introspection ----------------------------------------------------------------- */
typedef enum spvi_addr_space {
  SPVI_AS_PRIVATE = 0,
  SPVI_AS_GLOBAL = 1,
  SPVI_AS_CONSTANT = 2,
  SPVI_AS_LOCAL = 3,
  SPVI_AS_GENERIC = 4,
  SPVI_AS_NONE = 5 /* NONE: the parameter is not a pointer */
} spvi_addr_space;

/* Scalar element kinds (the element of a scalar, vector, or pointed-to buffer element). */
typedef enum spvi_scalar {
  SPVI_S_NONE = 0,
  SPVI_S_BOOL,
  SPVI_S_INT,
  SPVI_S_UINT,
  SPVI_S_FLOAT,
  SPVI_S_OTHER
} spvi_scalar;

typedef enum spvi_param_kind {
  SPVI_PARAM_VALUE,  /* passed by value: scalar, vector, struct (spvi_set_arg_value) */
  SPVI_PARAM_BUFFER, /* __global or __constant pointer (spvi_set_arg_buffer) */
  SPVI_PARAM_LOCAL,  /* __local pointer: size only (spvi_set_arg_local) */
  SPVI_PARAM_OPAQUE, /* queue, pipe, event ...: not supported */
  SPVI_PARAM_IMAGE,  /* image1d_t ... image3d_t (spvi_set_arg_image); see image_type, access */
  SPVI_PARAM_SAMPLER /* sampler_t (spvi_set_arg_sampler) */
} spvi_param_kind;

/* ---- images and samplers ---------------------------------------------------------------------
 * An image argument is a description (spvi_image_desc) plus its pixels: channels of one pixel
 * contiguous in the order's memory order (bgra: B, G, R, A), pixels x fastest, then y, then the
 * slice (3D depth or array layer), no padding. Reads, writes, sampling and format conversions follow
 * the OpenCL SPIR-V environment spec, "Image Addressing and Filtering"; spec-notes/images.md lists
 * spvi's definitions of what the specs leave undefined (out-of-range coordinates fault, ...). */
typedef enum spvi_image_type {
  SPVI_IMAGE_1D,
  SPVI_IMAGE_1D_BUFFER,
  SPVI_IMAGE_1D_ARRAY,
  SPVI_IMAGE_2D,
  SPVI_IMAGE_2D_ARRAY,
  SPVI_IMAGE_3D
} spvi_image_type;

/* Access qualifier of an image parameter (values of SPIR-V's AccessQualifier). */
typedef enum spvi_image_access {
  SPVI_ACCESS_READ_ONLY = 0,
  SPVI_ACCESS_WRITE_ONLY = 1,
  SPVI_ACCESS_READ_WRITE = 2
} spvi_image_access;

/* Channel orders spvi supports; the values are SPIR-V's ImageChannelOrder (what OpImageQueryOrder,
 * i.e. get_image_channel_order() - CLK_R, returns). */
typedef enum spvi_channel_order {
  SPVI_ORDER_R = 0,
  SPVI_ORDER_A = 1,
  SPVI_ORDER_RG = 2,
  SPVI_ORDER_RA = 3,
  SPVI_ORDER_RGBA = 5,
  SPVI_ORDER_BGRA = 6,
  SPVI_ORDER_ARGB = 7,
  SPVI_ORDER_INTENSITY = 8,
  SPVI_ORDER_LUMINANCE = 9,
  SPVI_ORDER_SRGBA = 17,
  SPVI_ORDER_SBGRA = 18,
  SPVI_ORDER_ABGR = 19
} spvi_channel_order;

/* Channel data types; the values are SPIR-V's ImageChannelDataType (OpImageQueryFormat, i.e.
 * get_image_channel_data_type() - CLK_SNORM_INT8). */
typedef enum spvi_channel_type {
  SPVI_SNORM_INT8 = 0,
  SPVI_SNORM_INT16 = 1,
  SPVI_UNORM_INT8 = 2,
  SPVI_UNORM_INT16 = 3,
  SPVI_SIGNED_INT8 = 7,
  SPVI_SIGNED_INT16 = 8,
  SPVI_SIGNED_INT32 = 9,
  SPVI_UNSIGNED_INT8 = 10,
  SPVI_UNSIGNED_INT16 = 11,
  SPVI_UNSIGNED_INT32 = 12,
  SPVI_HALF_FLOAT = 13,
  SPVI_FLOAT = 14
} spvi_channel_type;

typedef struct spvi_image_desc {
  spvi_image_type type;
  spvi_channel_order order;
  spvi_channel_type channel_type; /* the combinations OpenCL allows (docs/cli.md, "Images") */
  size_t width;                   /* every type */
  size_t height;                  /* 2D, 2D array, 3D; 0 or 1 otherwise */
  size_t depth;                   /* 3D; 0 or 1 otherwise */
  size_t array_size;              /* 1D array, 2D array; 0 or 1 otherwise */
} spvi_image_desc;

/* Sampler state (values of SPIR-V's SamplerAddressingMode and SamplerFilterMode). */
typedef enum spvi_addressing {
  SPVI_ADDRESS_NONE = 0,
  SPVI_ADDRESS_CLAMP_TO_EDGE = 1,
  SPVI_ADDRESS_CLAMP = 2,
  SPVI_ADDRESS_REPEAT = 3,
  SPVI_ADDRESS_MIRRORED_REPEAT = 4
} spvi_addressing;
typedef enum spvi_filter { SPVI_FILTER_NEAREST = 0, SPVI_FILTER_LINEAR = 1 } spvi_filter;
typedef struct spvi_sampler {
  bool normalized;            /* CLK_NORMALIZED_COORDS_TRUE */
  spvi_addressing addressing; /* repeat and mirrored_repeat need normalized coordinates */
  spvi_filter filter;
} spvi_sampler;

/* Channels stored per pixel (rgba: 4, r: 1), bytes per channel, and bytes of a whole image's pixels;
 * 0 when the description is not valid (spvi_image_bytes then says why in err: an order/type pair
 * OpenCL does not allow, a size of 0, a size a type does not use, or too many bytes). */
unsigned spvi_image_channels(spvi_channel_order order);
unsigned spvi_channel_type_bytes(spvi_channel_type type);
size_t spvi_image_bytes(const spvi_image_desc *desc, spvi_error *err);
/* Names as the command line spells them ("rgba", "unorm8", "image2d_array"), or NULL. */
const char *spvi_channel_order_name(spvi_channel_order order);
const char *spvi_channel_type_name(spvi_channel_type type);
const char *spvi_image_type_name(spvi_image_type type);

typedef struct spvi_param_info {
  const char *name;      /* OpName of the parameter, or "" */
  const char *type_name; /* OpenCL C spelling: "float4*", "uint", "struct S", "char*" */
  spvi_param_kind kind;
  spvi_addr_space space; /* for pointers; SPVI_AS_NONE otherwise */
  /* For values: the value's type. For pointers: the pointee's type. */
  spvi_scalar elem_kind; /* SPVI_S_OTHER for structs/arrays/opaque */
  unsigned elem_bits;    /* 8..64 for scalars and vector elements, 0 otherwise */
  unsigned vec_width;    /* 1 for scalars, 2,3,4,8,16 for vectors, 0 for aggregates */
  size_t size;           /* by value: bytes passed; pointer: bytes of one pointee (float3: 16) */
  bool is_const;         /* FuncParamAttr NoWrite, __constant, or `const` in the kernel_arg_type_qual
                               OpString (see source_type_name) */
  bool is_volatile;      /* Volatile decoration (OpenCL C `volatile` pointee) */
  bool is_restrict;      /* FuncParamAttr NoAlias (OpenCL C `restrict`) */
  /* OpenCL C spelling of the type as the source wrote it ("float4*", "mytype_t"), from the
   * "kernel_arg_type.KERNEL.T0,T1,..." OpString llvm-spirv emits for a module compiled with
   * -cl-kernel-arg-info and translated with --preserve-ocl-kernel-arg-type-metadata-through-string
   * (its "kernel_arg_type_qual." string adds to is_const/is_volatile/is_restrict); without it, from
   * the debug information of a module compiled with -g (the parameter's DebugLocalVariable: its
   * type's typedef or OpenCL C name, "uint*"; not for structs and arrays); "" when absent.
   * `name` too comes from the debug information when the parameter has no OpName. */
  const char *source_type_name;
  /* SPVI_PARAM_IMAGE only: */
  spvi_image_type image_type;
  spvi_image_access access;
} spvi_param_info;

int spvi_kernel_count(const spvi_module *m);
const char *spvi_kernel_name(const spvi_module *m, int kernel);
int spvi_find_kernel(const spvi_module *m, const char *name); /* -1 when absent */
int spvi_kernel_param_count(const spvi_module *m, int kernel);
const spvi_param_info *spvi_kernel_param(const spvi_module *m, int kernel, int index);
/* reqd_work_group_size (all zero when absent). */
void spvi_kernel_reqd_local_size(const spvi_module *m, int kernel, size_t local[3]);
/* Bytes of __local memory the kernel declares itself (kernel-scope `local` variables, each rounded
 * to 16 bytes as spvi lays them out; modules before SPIR-V 1.4, whose entry points do not list
 * them, give the whole module's), bytes of private memory one work-item uses (the module's private
 * arena: every function's variables and the built-ins, the same for all its kernels), and the
 * work_group_size_hint (zeros when absent). */
size_t spvi_kernel_local_bytes(const spvi_module *m, int kernel);
size_t spvi_kernel_private_bytes(const spvi_module *m, int kernel);
void spvi_kernel_size_hint(const spvi_module *m, int kernel, size_t hint[3]);
/* Sub-group execution modes of a kernel: SubgroupSize (reqd_sub_group_size / intel_reqd_sub_group_size)
 * and SubgroupsPerWorkgroup; 0 when absent. */
void spvi_kernel_subgroup_modes(const spvi_module *m, int kernel, unsigned *reqd_size, unsigned *per_workgroup);
/* The OpenCL sub-group extensions spvi implements, space-separated ("cl_khr_subgroups ..."). */
const char *spvi_subgroup_extensions(void);
/* The OpenCL sub-group extensions the module uses, space-separated in buf (cap bytes, "" when none):
 * cl_khr_subgroups for a sub-group operation or built-in, the others by the capabilities they add
 * (GroupNonUniformBallot: cl_khr_subgroup_ballot ...; cl_khr_subgroup_extended_types adds none, so
 * it is not listed). Returns the length the whole list needs, like snprintf. */
size_t spvi_module_subgroup_extensions(const spvi_module *m, char *buf, size_t cap);
/* Addressing model bits: 32 or 64. */
unsigned spvi_module_pointer_bits(const spvi_module *m);
/* Declared capabilities, by name ("Addresses", "Kernel", ...). */
int spvi_module_capability_count(const spvi_module *m);
const char *spvi_module_capability(const spvi_module *m, int i);
/* SPIR-V version of the module, e.g. 0x00010400 for 1.4. */
uint32_t spvi_module_version(const spvi_module *m);
/* The module's prepared code (what the interpreter runs) written to `out` as text, one line per
 * instruction, for debugging spvi itself (`spvi info --prepared`; the format may change between
 * versions): the function of kernel `kernel` and those it calls, or every function when kernel is
 * -1. SPVI_E_USAGE for a bad kernel index, SPVI_E_IO when writing fails. */
spvi_status spvi_dump_prepared(const spvi_module *m, int kernel, FILE *out, spvi_error *err);

/* ---- struct layouts -------------------------------------------------------------------------
 * The layout of the struct a kernel parameter points to (or holds, by value), for tools that show
 * or check a struct buffer field by field (`spvi run` writes such buffers as NumPy structured
 * arrays). Offsets and sizes are the SPIR-V types' (the Offset decorations, else the C layout
 * OpenCL C 6.3.5 gives: each member at its alignment, the size rounded up to the largest one);
 * member names and integer signedness come from the OpenCL.DebugInfo.100 type of the parameter
 * (DebugTypeComposite / DebugTypeMember, a module compiled with -g) when the module has it. */
typedef struct spvi_struct spvi_struct;
typedef struct spvi_field {
  const char *name;   /* DebugTypeMember name; "f0", "f1", ... (by position) without debug info */
  size_t offset;      /* bytes from the start of the struct */
  size_t size;        /* bytes of one element (of the array, when dims are given) */
  spvi_scalar kind;   /* INT (signed, or unknown: SPIR-V integers carry no sign), UINT, FLOAT, BOOL
                         for scalars and vector components; OTHER for a struct (sub) or for bytes
                         with no numeric type (a pointer is UINT of the pointer width) */
  unsigned bits;      /* bits of the scalar or vector component; 0 for OTHER */
  unsigned vec_width; /* 1 for scalars, 2, 3, 4, 8, 16 for vectors (3: 4 slots), 0 for OTHER */
  unsigned ndims;     /* array dimensions, outermost first (int a[2][3]: 2, 3); 0: no array */
  size_t dims[4];
  const spvi_struct *sub; /* the member's struct type (of its elements, for an array), or NULL */
} spvi_field;
struct spvi_struct {
  const char *name; /* the struct's name ("S"), or "" */
  size_t size;      /* bytes, padding included (sizeof) */
  int nfields;
  const spvi_field *fields; /* in order of offset */
};
/* A new description of the struct kernel parameter `index` points to or holds; NULL when it is no
 * struct, or out of memory. Free it with spvi_struct_free; it does not refer to the module. */
spvi_struct *spvi_param_struct(const spvi_module *m, int kernel, int index);
void spvi_struct_free(spvi_struct *s);

/* ---- program-scope variables ----------------------------------------------------------------
 * Variables declared at program scope (or `static` inside functions) in the global or constant
 * address space (OpenCL C 2.0: `global int counter = 0;`, `constant float k[4] = {...};`) belong
 * to the module, as OpenCL C says ("the same lifetime as the program, and their values persist
 * between calls to any of the kernels in the program"): they are initialised once, when the module
 * is loaded (from their initializers, zero without one), and every launch of the module reads and
 * changes the same bytes, so a launch sees what earlier launches left — also after a fault (writes
 * made before it stay). The bytes of a pointer-valued variable are spvi's pointer encoding: a
 * pointer to a program-scope variable stays valid in later launches; one into a launch's buffer
 * argument means nothing after that launch (OpenCL guarantees such pointers only with shared
 * virtual memory).
 *
 * Thread safety: launches of one module that has such variables in global memory run one at a
 * time. spvi_run and spvi_debug_new return SPVI_E_USAGE ("another launch of this module is
 * running") while another launch of the same module runs or a debug session of one is open, and
 * spvi_set_global_data fails then too. Launches of different modules, and of modules with only
 * constant ones, are independent. */
typedef struct spvi_global_info {
  const char *name;      /* OpName of the variable ("" when it has none; `static` variables
                               inside functions are typically named "function.variable") */
  const char *type_name; /* OpenCL C spelling: "int", "float4[16]", "struct S", "int*" */
  spvi_addr_space space; /* SPVI_AS_GLOBAL or SPVI_AS_CONSTANT */
  size_t size;           /* bytes */
} spvi_global_info;

int spvi_global_count(const spvi_module *m);
const spvi_global_info *spvi_global(const spvi_module *m, int index); /* NULL for a bad index */
int spvi_find_global(const spvi_module *m, const char *name);         /* -1 when absent */
/* The variable's current bytes (valid until the module is freed; read them between launches). */
const void *spvi_global_data(const spvi_module *m, int index, size_t *bytes);
/* Replace a global-memory variable's bytes (`bytes` must be its size); constant ones are read-only. */
spvi_status spvi_set_global_data(spvi_module *m, int index, const void *data, size_t bytes, spvi_error *err);

/* ---- memory objects -------------------------------------------------------------------------
 * Buffers and images that live apart from launches, so that several launches (and the host) share
 * their bytes without copies: an OpenCL platform's cl_mem objects. A launch argument set with
 * spvi_set_arg_mem reads and writes the object's bytes in place; spvi_arg_buffer/spvi_arg_image
 * then return the object's bytes. Objects are reference-counted (thread-safe): spvi_*_new returns
 * one reference, a view holds one on its parent, a launch holds one on each object set as an
 * argument until the argument is set again or the launch is freed.
 *
 * Concurrency: spvi does not order accesses to an object's bytes; launches of one object may run
 * at the same time (their kernels then race as kernels in OpenCL would), and the host must not
 * change bytes a running launch uses. */
typedef struct spvi_mem spvi_mem;

/* A buffer of `bytes` (>= 1) bytes. host == NULL: spvi allocates it, zero-filled, aligned to 128
 * bytes. host != NULL: spvi uses the caller's memory in place (CL_MEM_USE_HOST_PTR), which must
 * stay valid until the object is destroyed. */
spvi_mem *spvi_buffer_new(size_t bytes, void *host, spvi_error *err);
/* A view of bytes [offset, offset + bytes) of a buffer (an OpenCL sub-buffer): a kernel given the
 * view sees a buffer of `bytes` bytes (accesses beyond it are out of bounds, reported with offsets
 * within the view). parent may itself be a view (the new one is then a view of the same root
 * buffer); the view holds a reference to the root. bytes >= 1 and the range inside parent. */
spvi_mem *spvi_buffer_view(spvi_mem *parent, size_t offset, size_t bytes, spvi_error *err);
/* An image (spvi_image_desc as for spvi_set_arg_image; pixels tightly packed). host == NULL:
 * zero-filled pixels owned by spvi; otherwise the caller's spvi_image_bytes(desc) bytes in place. */
spvi_mem *spvi_image_new(const spvi_image_desc *desc, void *host, spvi_error *err);
/* An image whose pixels are the first spvi_image_bytes(desc) bytes of buffer (or view) `buffer`
 * (OpenCL's image1d_buffer_t); holds a reference to the buffer. */
spvi_mem *spvi_image_from_buffer(const spvi_image_desc *desc, spvi_mem *buffer, spvi_error *err);
void spvi_mem_retain(spvi_mem *m);
void spvi_mem_release(spvi_mem *m);
/* The object's bytes (a view: its part of the root buffer) and their number. */
void *spvi_mem_data(const spvi_mem *m, size_t *bytes);
/* An image's description (false, *desc untouched, for buffers). */
bool spvi_mem_image_desc(const spvi_mem *m, spvi_image_desc *desc);

/* ---- shared virtual memory ------------------------------------------------------------------
 * An SVM allocation is host memory whose address is also its address in kernels: a pointer the
 * host stores into SVM memory (a linked list, say) can be followed by a kernel, and a pointer a
 * kernel computes into it can be used by the host (OpenCL 2.0 coarse- and fine-grained buffer
 * SVM). Kernel accesses through such pointers are bounds-checked against the allocation they fall
 * in; a pointer into no live SVM allocation faults as any bad pointer does. Atomics on SVM memory
 * are atomic with respect to the host's and other launches' (fine-grained SVM atomics).
 *
 * Limits (spvi tells SVM addresses from its own pointers by their top bits; interp/ex_svm.c):
 * allocations live at fixed addresses in 0x200000000000..0x7dffffffffff (mmap'ed, whole pages,
 * 1 MiB apart), at most spvi_max_alloc_size() bytes each ("device limits"); SVM pointers need
 * Physical64 modules (spvi_set_arg_svm refuses Physical32 ones); a launch with SVM arguments must
 * have fewer than about 125 memory allocations (the module's variables — many at -O0 — plus the
 * kernel's pointer arguments), spvi_run refuses it otherwise; --check races refuses SVM arguments
 * (SVM memory reached through pointers stored elsewhere is not race-checked); SVM allocations made
 * while a launch runs are not visible to it. */
/* `bytes` (>= 1) zero-filled bytes aligned to `alignment` (a power of two, 0: 128); NULL with err. */
void *spvi_svm_alloc(size_t bytes, size_t alignment, spvi_error *err);
/* Free an allocation made by spvi_svm_alloc (NULL, or any other pointer: nothing); launches using
 * it should have ended (OpenCL requires it): a running launch's snapshot of the allocations keeps
 * it mapped and reachable until that launch ends, and later launches no longer see it. */
void spvi_svm_free(void *ptr);
/* The allocation `ptr` points into: its start and size; false when ptr is in none. */
bool spvi_svm_find(const void *ptr, void **base, size_t *bytes);

/* ---- launching ------------------------------------------------------------------------------ */
spvi_launch *spvi_launch_new(spvi_module *m, int kernel, spvi_error *err);
void spvi_launch_free(spvi_launch *l);

/* By-value argument: `bytes` must equal the parameter's size. */
spvi_status spvi_set_arg_value(spvi_launch *l, int index, const void *data, size_t bytes, spvi_error *err);
/* Buffer argument: spvi copies `bytes` bytes from `data` (data may be NULL: zero-filled). A null
 * pointer (clSetKernelArg with a NULL buffer) is spvi_set_arg_mem(l, index, NULL, err). */
spvi_status spvi_set_arg_buffer(spvi_launch *l, int index, const void *data, size_t bytes, spvi_error *err);
/* __local pointer argument of `bytes` bytes per work-group. */
spvi_status spvi_set_arg_local(spvi_launch *l, int index, size_t bytes, spvi_error *err);
/* Image argument: `desc` must be valid (spvi_image_bytes), its type must be the parameter's, and
 * `bytes` equal to spvi_image_bytes(desc); spvi copies the pixels (data may be NULL: zero-filled). */
spvi_status spvi_set_arg_image(spvi_launch *l, int index, const spvi_image_desc *desc, const void *data, size_t bytes,
                               spvi_error *err);
/* Sampler argument. */
spvi_status spvi_set_arg_sampler(spvi_launch *l, int index, const spvi_sampler *sampler, spvi_error *err);
/* Buffer or image argument given as a memory object, used in place (see "memory objects"): the
 * launch holds a reference to it. For a buffer parameter m may be NULL: the kernel receives a null
 * pointer, which it may test; a dereference is an SPVI_FAULT_NULL_POINTER whose arg_index names
 * the parameter when the code shows the pointer comes from it. An image object's type must be the
 * parameter's. */
spvi_status spvi_set_arg_mem(spvi_launch *l, int index, spvi_mem *m, spvi_error *err);
/* Pointer argument given as an SVM pointer (clSetKernelArgSVMPointer): the kernel receives `ptr`
 * itself, which may point anywhere into a live SVM allocation (or be NULL). */
spvi_status spvi_set_arg_svm(spvi_launch *l, int index, const void *ptr, spvi_error *err);
/* dims 1..3; local may be NULL (spvi picks); offset may be NULL (zero). Unused dimensions are 1 (0 offset). */
spvi_status spvi_set_ndrange(spvi_launch *l, unsigned dims, const size_t global[], const size_t local[],
                             const size_t offset[], spvi_error *err);
/* The local size actually used (after spvi_set_ndrange). */
void spvi_launch_local_size(const spvi_launch *l, size_t local[3]);

typedef struct spvi_run_options {
  unsigned warp_width; /* lanes per warp: 1 .. 64; 0 = default (32). Results never depend on it. */
  /* printf output: called with each work-item's text, work-groups in order and, within a group, in
   * local linear id order (independent of the warp width). NULL: printf output is discarded. */
  void (*on_printf)(void *user, const char *text, size_t len);
  void *printf_user;
  bool flush_denormals; /* emulate a device that flushes float denormals to zero */
  /* Work-groups run in parallel on this many threads; 0 = the available cores. Results of
   * race-free kernels do not depend on it (see docs/semantics.md, "Threads"). */
  unsigned threads;
  /* Run only work-groups whose linear id (x fastest) is in [group_begin, group_end); both 0: all.
   * After such a run spvi_arg_written() tells which bytes of each buffer the run wrote. */
  uint64_t group_begin, group_end;
  /* Tracing (spvi run --trace): when on_trace is set, every executed instruction of the selected
   * work-items is reported as one line of text ("gid=(5,0,0) k.cl:12 %42 = OpIAdd uint 7"), in
   * execution order; the run then uses one thread and warp width 1, so each work-item's lines come
   * in program order. trace_filter: "all" (or NULL), "gid=X[,Y[,Z]]" or "group=X[,Y[,Z]]". */
  void (*on_trace)(void *user, const char *line);
  void *trace_user;
  const char *trace_filter;
  /* Sub-group size: 1..64 work-items (consecutive local linear ids; the last sub-group of a
   * work-group may be smaller); 0 = SPVI_DEFAULT_SUBGROUP_SIZE. A kernel's SubgroupSize execution
   * mode (reqd_sub_group_size) decides the size and a different value here is an error; with a
   * SubgroupsPerWorkgroup mode the size must give that many sub-groups (0: spvi picks one that does).
   * Kernels with sub-group operations run at a warp width that is a multiple of the sub-group size
   * (see docs/semantics.md, "Sub-groups"); results never depend on warp_width. */
  unsigned subgroup_size;
  /* Optional checks (SPVI_CHECK_* flags, see "checks and reports" below); 0 = none. Bounds,
   * alignment, read-only, divergence and division checks are always on. */
  unsigned checks;
  /* A work-item that executes more than this many SPIR-V instructions stops the run with
   * SPVI_FAULT_STEP_LIMIT (an infinite loop ends in a report); 0 = SPVI_DEFAULT_MAX_STEPS. */
  uint64_t max_steps;
  /* Keep going after an out-of-bounds, null or invalid pointer access, or an array index out of
   * bounds (spvi run --keep-going): each is recorded as a report (SPVI_REPORT_OUT_OF_BOUNDS ...,
   * grouped like the others), the access is skipped (a load gives zero) and the run goes on, so one
   * run lists every faulting site. false: the first such fault stops the run. */
  bool keep_going;
  /* Bytes the whole run may use (spvi run --max-memory); 0 = no bound beyond the device limits.
   * spvi_run refuses the launch (SPVI_E_USAGE, the message lists the parts of the estimate) before
   * allocating anything when its estimate exceeds it: the arguments' buffers and images + the
   * module's program-scope variables + for each work-group running at once (one per thread, at
   * most the group count): its __local memory, and the private memory (SPVI_PRIVATE_MEM_SIZE's
   * parts) of its work-items rounded up to whole warps, each with the shadow the checks keep
   * (races: 16 bytes per byte of global memory, 64 per byte of __local; uninit: 1 byte per byte
   * of __local and private memory). */
  uint64_t max_memory;
  /* Interleaved shards (spvi run --shard K/N, docs/scaling.md): with shard_count N >= 1, run only
   * the work-groups (of the group range above) whose linear id g has g % N == shard_index (0 ..
   * N-1), and record written bytes as for a group range; 0: all groups. A shard may have no group.
   * Not for spvi_debug_new (SPVI_E_USAGE). */
  uint64_t shard_index, shard_count;
} spvi_run_options;

#define SPVI_DEFAULT_MAX_STEPS ((uint64_t)1000000000) /* 10^9 instructions per work-item */
#define SPVI_DEFAULT_SUBGROUP_SIZE 32

typedef enum spvi_fault_kind {
  SPVI_FAULT_NONE = 0,
  SPVI_FAULT_OUT_OF_BOUNDS,      /* load/store/copy outside its allocation */
  SPVI_FAULT_NULL_POINTER,       /* dereference of a null or dangling pointer */
  SPVI_FAULT_BAD_POINTER,        /* pointer not into any allocation, or of the wrong address space */
  SPVI_FAULT_READ_ONLY,          /* write to __constant memory */
  SPVI_FAULT_BARRIER_DIVERGENCE, /* a barrier not reached by every work-item of the group */
  SPVI_FAULT_UNREACHABLE,        /* OpUnreachable executed */
  SPVI_FAULT_UNSUPPORTED,        /* an operation reached at run time that spvi cannot execute */
  SPVI_FAULT_MISALIGNED,         /* a load, store or atomic on an address not aligned as its type or
                                   Aligned operand requires */
  SPVI_FAULT_STEP_LIMIT,         /* a work-item executed more than spvi_run_options.max_steps instructions */
  SPVI_FAULT_ASYNC_COPY,         /* misuse of an async work-group copy or its event that OpenCL C leaves
                                   undefined: a zero stride, waiting for an event no async copy of the
                                   work-group returned or one already waited for, a work-group that
                                   finishes without waiting for a copy's event */
  SPVI_FAULT_IMAGE,              /* an image operation the specs leave undefined: NaN coordinates, a
                                   sampler or result type the image's format does not allow ... */
  SPVI_FAULT_ARRAY_INDEX,        /* an access chain steps through an array type with an index outside
                                   [0, length): C99 6.5.6p8, even inside a larger object */
  SPVI_FAULT_ASSUME              /* OpAssumeTrueKHR (__builtin_assume) with a false condition */
} spvi_fault_kind;

typedef struct spvi_fault {
  spvi_fault_kind kind;
  char kernel[128];
  size_t global_id[3], local_id[3], group_id[3];
  uint32_t result_id;    /* SPIR-V result id of the faulting instruction, 0 if none */
  char opcode[48];       /* "OpLoad" */
  char function[96];     /* function name (OpName) or %id, "" when unknown */
  char file[256];        /* source file from OpLine / DebugInfo, "" when unknown */
  unsigned line, column; /* 0 when unknown */
  int arg_index;         /* kernel parameter the memory belongs to, -1 if none */
  char memory[128];      /* what the memory is: "argument 2 `out` (global buffer)", "private `tmp`" */
  int64_t offset;        /* byte offset of the access into that memory */
  uint64_t access_size;  /* bytes accessed */
  uint64_t memory_size;  /* bytes in that memory */
  char message[1024];    /* the whole report, one or more lines, ready to print */
} spvi_fault;

spvi_status spvi_run(spvi_launch *l, const spvi_run_options *opts, spvi_fault *fault, spvi_error *err);

/* ---- asynchronous runs ----------------------------------------------------------------------
 * spvi_run_async starts spvi_run(l, opts) on a thread of its own and returns at once. Until
 * spvi_job_wait returns, the launch, its memory objects and the strings/callbacks in opts must
 * stay alive and unchanged (opts itself is copied). on_done (may be NULL) is called on the run's
 * thread when the run has finished, before spvi_job_done becomes true. */
typedef struct spvi_job spvi_job;
spvi_job *spvi_run_async(spvi_launch *l, const spvi_run_options *opts, void (*on_done)(void *user), void *user,
                         spvi_error *err);
bool spvi_job_done(const spvi_job *j);
/* Wait for the run to end; returns what spvi_run returned, with its fault and error; frees the job. */
spvi_status spvi_job_wait(spvi_job *j, spvi_fault *fault, spvi_error *err);

/* ---- checks and reports ----------------------------------------------------------------------
 * A fault stops the run. A report does not: the kernel goes on (with the defined result spvi gives
 * undefined operations, docs/semantics.md) and every report of the run is kept. Reports of
 * the same kind at the same instruction(s) are grouped into one with a count. After spvi_run,
 * spvi_report_count / spvi_report_get list them in a deterministic order (by the work-item of their
 * first occurrence, then instruction), whatever the threads. */
enum {
  SPVI_CHECK_RACES = 1u << 0,  /* data races on local and global memory */
  SPVI_CHECK_UNINIT = 1u << 1, /* uses of private or local memory never written in the launch */
  SPVI_CHECK_ALL = SPVI_CHECK_RACES | SPVI_CHECK_UNINIT
};

typedef enum spvi_report_kind {
  SPVI_REPORT_RACE,          /* two work-items access the same bytes without synchronisation (checks) */
  SPVI_REPORT_UNINIT,        /* a value read from never-written memory decides a branch, forms an
                                   address or is written to a buffer (checks) */
  SPVI_REPORT_DIV_BY_ZERO,   /* integer division or remainder by zero (always on) */
  SPVI_REPORT_DIV_OVERFLOW,  /* signed division or remainder of the minimum value by -1 (always on) */
  SPVI_REPORT_PRINTF_FORMAT, /* a printf call whose format or arguments OpenCL C leaves undefined
                               (a vector specifier without its length modifier ...): the call
                               printed nothing and returned -1 (always on) */
  /* spvi_run_options.keep_going: the faults of the same names, recorded instead of stopping the run */
  SPVI_REPORT_OUT_OF_BOUNDS,
  SPVI_REPORT_NULL_POINTER,
  SPVI_REPORT_BAD_POINTER,
  SPVI_REPORT_ARRAY_INDEX
} spvi_report_kind;

/* One work-item at one instruction. */
typedef struct spvi_site {
  size_t global_id[3], local_id[3], group_id[3];
  uint32_t result_id;    /* SPIR-V result id of the instruction, 0 if none */
  char opcode[48];       /* "OpStore" */
  char function[96];     /* function name (OpName) or %id */
  char file[256];        /* "" when unknown */
  unsigned line, column; /* 0 when unknown */
  bool write, atomic;    /* memory reports: what the access did */
} spvi_site;

typedef struct spvi_report {
  spvi_report_kind kind;
  char kernel[128];
  spvi_site at; /* the first occurrence (in global linear work-item order) */
  bool has_other;
  spvi_site other; /* races: the conflicting access of another work-item */
  /* the memory concerned (memory[0] == 0 when none) */
  int arg_index; /* kernel parameter it belongs to, -1 if none */
  char memory[128];
  int64_t offset; /* byte range [offset, offset + access_size) of the first occurrence */
  uint64_t access_size;
  uint64_t memory_size;
  uint64_t count; /* occurrences grouped into this report */
  /* uninit: where the undefined bytes came from (origin[0] == 0 when unknown), e.g. "private
   * variable `a` (64 bytes)" or "OpUndef %12", and where it is declared in the source (debug
   * information; origin_line 0 when unknown) */
  char origin[160];
  char origin_file[256];
  unsigned origin_line;
  char message[2048]; /* the whole report, several lines, ready to print */
} spvi_report;

/* Reports of the last spvi_run of a launch (valid until the next run or spvi_launch_free). */
size_t spvi_report_count(const spvi_launch *l);
const spvi_report *spvi_report_get(const spvi_launch *l, size_t index);
/* "data race", "use of uninitialized memory", ... */
const char *spvi_report_kind_name(spvi_report_kind k);
/* Short stable identifiers for machine-readable output: "race", "uninit", "div-by-zero",
 * "div-overflow"; for faults "out-of-bounds", "null-pointer", ... */
const char *spvi_report_kind_id(spvi_report_kind k);
const char *spvi_fault_kind_id(spvi_fault_kind k);

/* One JSON object per line for CI systems (schema: docs/checks.md, "JSON reports"). `extra` (may be
 * NULL) is written as further members before the closing brace, e.g. "\"enqueue\":3". */
void spvi_report_write_json(FILE *f, const spvi_report *r, const char *extra);
void spvi_fault_write_json(FILE *f, const spvi_fault *fault, const char *extra);

/* Statistics of the last spvi_run of a launch. */
typedef struct spvi_run_stats {
  double exec_seconds;   /* kernel execution alone (no loading, no argument set-up) */
  uint64_t instructions; /* SPIR-V instructions executed, summed over all work-items */
} spvi_run_stats;
void spvi_launch_stats(const spvi_launch *l, spvi_run_stats *out);

/* Number of work-groups of the launch's NDRange (after spvi_set_ndrange). */
uint64_t spvi_launch_group_count(const spvi_launch *l);
/* After a run over a group range: one byte per buffer byte, 1 where the run wrote (memory objects
 * included: the mask covers the object's bytes); NULL otherwise, and for SVM arguments (SVM
 * memory is not tracked). */
const uint8_t *spvi_arg_written(const spvi_launch *l, int index, size_t *bytes);
/* After such a run: the buffer's or image's contents before it (what `spvi merge --combine` needs
 * to combine shards' updates of one element); NULL otherwise. */
const void *spvi_arg_initial(const spvi_launch *l, int index, size_t *bytes);
/* Progress of a spvi_run under way on another thread (or of the last one): the work-groups
 * finished, and in *total (may be NULL) the work-groups the run executes (its range or shard; 0
 * before the first run). Lock-free; any thread may call it while spvi_run runs, e.g. every 100 ms
 * for a progress display. A fault stops the count short of the total. */
uint64_t spvi_launch_progress(const spvi_launch *l, uint64_t *total);

/* Contents of a buffer argument after the run (before: as set): for a memory object, the object's
 * bytes themselves. NULL for non-buffer parameters, NULL buffers and SVM arguments. */
const void *spvi_arg_buffer(const spvi_launch *l, int index, size_t *bytes);
/* Pixels of an image argument after the run (layout as for spvi_set_arg_image), its description in
 * *desc (may be NULL); NULL for other parameters. */
const void *spvi_arg_image(const spvi_launch *l, int index, spvi_image_desc *desc, size_t *bytes);

/* ---- debugging ------------------------------------------------------------------------------
 * A session runs a launch one work-item at a time under gdb-like commands (`spvi debug`; the
 * docs/debugging.md lists them). The kernel runs with warp width 1 on the calling thread,
 * so its results (spvi_arg_buffer after the kernel finished) are those of spvi_run. Work-groups run
 * in order; within one, the focused work-item runs and the others only as far as barriers require.
 * run_opts.checks run the checks: the session stops at each report found (its text printed), as at
 * a fault, and can go on; after spvi_debug_free the launch holds the reports (spvi_report_count).
 *
 *   spvi_debug *d = spvi_debug_new(l, &run_opts, print_text, NULL, &err);  // stopped at the first line
 *   while (spvi_debug_command(d, line)) ...                                // "break k.cl:14", "continue"
 *   spvi_debug_state st = spvi_debug_get_state(d, &fault);
 *   spvi_debug_free(d);
 */
typedef struct spvi_debug spvi_debug;

typedef enum spvi_debug_state {
  SPVI_DEBUG_STOPPED,  /* the kernel is stopped somewhere and can continue */
  SPVI_DEBUG_FINISHED, /* every work-item finished: the buffers hold the results */
  SPVI_DEBUG_FAULTED   /* a work-item faulted: see the spvi_fault */
} spvi_debug_state;

/* Start a session on a launch whose arguments and NDRange are set. `out` receives everything the
 * debugger prints, several lines at a time (NULL: nothing is printed); opts (may be NULL):
 * on_printf receives kernel printf output at the end of each work-group, flush_denormals and the
 * group range apply, warp_width and threads are ignored (one work-item per warp, one thread). The
 * launch must outlive the session. */
spvi_debug *spvi_debug_new(spvi_launch *l, const spvi_run_options *opts,
                           void (*out)(void *user, const char *text, size_t len), void *user, spvi_error *err);
/* Run one command line (gdb syntax: `help` lists the commands). Returns false after `quit`. */
bool spvi_debug_command(spvi_debug *d, const char *line);
/* The prompt for the next command, naming the focused work-item and where it is:
 * "(spvi 3,0,0 k.cl:14) ". */
const char *spvi_debug_prompt(const spvi_debug *d);
/* Ask a running command to stop at the next instruction (async-signal-safe: for a SIGINT handler). */
void spvi_debug_interrupt(spvi_debug *d);
/* Where the kernel is; fills *fault (may be NULL) when it faulted. */
spvi_debug_state spvi_debug_get_state(const spvi_debug *d, spvi_fault *fault);
void spvi_debug_free(spvi_debug *d);

/* IEEE binary16 conversions (round to nearest even), exact and host-independent, for tools that
 * prepare half inputs or print half outputs. */
uint16_t spvi_half_from_double(double v);
double spvi_half_to_double(uint16_t h);

/* Name of a fault kind ("out-of-bounds access"). */
const char *spvi_fault_kind_name(spvi_fault_kind k);

#ifdef __cplusplus
}
#endif
#endif
