/*
 * cl_internal.h — spvi's OpenCL platform (libspvi-cl.so): the objects behind the cl_* handles, the
 * command engine every clEnqueue* goes through, and the run-time configuration (`spvi exec`'s
 * options). The layer is built on the public library API (include/spvi.h) only.
 *
 * Files (prefix clx_ for internal functions; exported entry points keep their OpenCL names):
 *   cl_object.c   handle registry, reference counts, the checks every entry point starts with
 *   cl_config.c   SPVI_* environment (spvi exec), fault and report output, the status file
 *   cl_event.c    events, user events, callbacks, profiling, clWaitForEvents
 *   cl_queue.c    command queues, the worker pool, markers, barriers, clFlush/clFinish
 *   cl_icd.c      the ICD dispatch table, clIcdGetPlatformIDsKHR, clGetExtensionFunctionAddress*
 *   cl_platform.c platform and device queries (the device's limits and features: clc_features.h)
 *   cl_context.c  contexts
 *   cl_mem.c      buffers, sub-buffers, read/write/copy/fill (+Rect), map/unmap, migrate
 *   cl_image.c    images, image formats, image commands, samplers
 *   cl_svm.c      shared virtual memory
 *   cl_program.c  programs: IL, binaries, source (clc_compile.c), build/compile/link, queries
 *   cl_kernel.c   kernels, arguments, kernel queries, clEnqueueNDRangeKernel/clEnqueueTask
 *   clc_compile.c  OpenCL C -> SPIR-V and SPIR-V linking (child processes)
 *
 * Thread safety: every entry point may be called from any thread (the CTS does). Objects carry
 * their own lock where they have mutable state; the command engine has one lock (cl_queue.c).
 */
#ifndef CL_INTERNAL_H
#define CL_INTERNAL_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clc_features.h"
#include "spvi.h"

/* Exported OpenCL entry points (the library is built with -fvisibility=hidden). */
#define CLX_API __attribute__((visibility("default")))

/* ---- objects ----------------------------------------------------------------------------------
 * Every handle points at a struct whose first member is a clx_head, whose first member is the ICD
 * dispatch table pointer (cl_khr_icd: the loader calls obj->dispatch->clFoo). Live objects are
 * registered: clx_valid() looks the pointer up before anything dereferences it, so a NULL, freed
 * or foreign handle gives CL_INVALID_<OBJECT> instead of a crash. */
typedef enum clx_kind {
  CLX_PLATFORM = 1,
  CLX_DEVICE,
  CLX_CONTEXT,
  CLX_QUEUE,
  CLX_MEM,
  CLX_PROGRAM,
  CLX_KERNEL,
  CLX_EVENT,
  CLX_SAMPLER
} clx_kind;

typedef struct clx_head {
  const struct _cl_icd_dispatch *dispatch; /* first: the ICD loader reads it */
  clx_kind kind;
  _Atomic cl_uint refs;       /* the application's references (CL_*_REFERENCE_COUNT) */
  _Atomic cl_uint holds;      /* spvi's own: commands in flight, child objects, kernels of a
                                  program ..., plus one while refs > 0. The object is destroyed
                                  when it reaches 0. */
  void (*destroy)(void *obj); /* frees the object (called once, with no lock held) */
} clx_head;

extern const struct _cl_icd_dispatch clx_dispatch; /* cl_icd.c */

/* Memory of cl objects (zeroed): a destroyed object's memory keeps a valid dispatch pointer for
 * stale handles (cl_object.c), so objects are allocated and freed with these, never malloc/free. */
void *clx_obj_alloc(size_t size);
void clx_obj_free(void *obj, size_t size);
/* Register a new object: refs = 1, holds = 1 (the references' hold). */
void clx_init(void *obj, clx_kind kind, void (*destroy)(void *obj));
/* True when obj is a live object of that kind (the application holds a reference). */
bool clx_valid(const void *obj, clx_kind kind);
/* clRetain* / clRelease*: CL_SUCCESS, or `invalid` (CL_INVALID_MEM_OBJECT ...) for a bad handle.
 * The last release unregisters the object (the application can no longer use it) and destroys
 * it once spvi holds it no more. */
cl_int clx_retain(void *obj, clx_kind kind, cl_int invalid);
cl_int clx_release(void *obj, clx_kind kind, cl_int invalid);
/* spvi's own references (never fail; obj must be a registered or held object). */
void clx_hold(void *obj);
void clx_unhold(void *obj);
cl_uint clx_refcount(const void *obj);

/* clGet*Info's answer protocol (OpenCL 3.0 API 4.x "param_value_size ... CL_INVALID_VALUE"):
 * copies `size` bytes of `value` to `out` when out is not NULL (CL_INVALID_VALUE when out_size is
 * smaller), stores `size` in *size_ret when that is not NULL. */
cl_int clx_info(size_t out_size, void *out, size_t *size_ret, const void *value, size_t size);
static inline cl_int clx_info_str(size_t out_size, void *out, size_t *size_ret, const char *s);
/* Monotonic nanoseconds (profiling timestamps, CL_DEVICE_PROFILING_TIMER_RESOLUTION 1). */
cl_ulong clx_now_ns(void);

/* ---- platform and device (singletons, never freed) ---------------------------------------- */
struct _cl_platform_id {
  clx_head h;
};
struct _cl_device_id {
  clx_head h;
};
extern struct _cl_platform_id clx_platform;
extern struct _cl_device_id clx_device;
/* The device's limits that other files check against (cl_platform.c answers them). */
#define CLX_MAX_WORK_GROUP_SIZE 1024u
#define CLX_MAX_WORK_ITEM_DIMS 3u
#define CLX_MAX_CONSTANT_ARGS 64u
#define CLX_MEM_BASE_ADDR_ALIGN_BITS 1024u /* 128 bytes: what spvi_buffer_new aligns to */
#define CLX_MAX_PARAMETER_SIZE 4096u
#define CLX_IMAGE2D_MAX 16384u
#define CLX_IMAGE3D_MAX 2048u
#define CLX_IMAGE_MAX_BUFFER_SIZE ((size_t)1 << 24) /* spvi's largest image dimension */
#define CLX_IMAGE_MAX_ARRAY_SIZE 2048u
#define CLX_MAX_SAMPLERS 16u
#define CLX_SUBGROUP_SIZE 32u
/* True when `d` is spvi's device; every device list argument is checked with it. */
static inline bool clx_is_device(cl_device_id d) { return d == &clx_device; }
static inline bool clx_is_platform(cl_platform_id p) { return p == &clx_platform; }

/* ---- contexts --------------------------------------------------------------------------------- */
typedef struct clx_callback {
  struct clx_callback *next;
  void(CL_CALLBACK *fn)(); /* called with the object's handle and user */
  void *user;
  cl_int status; /* events: the status it waits for */
} clx_callback;

struct _cl_context {
  clx_head h;
  cl_context_properties props[16]; /* as given, 0-terminated (nprops counts the terminator) */
  size_t nprops;
  void(CL_CALLBACK *notify)(const char *errinfo, const void *private_info, size_t cb, void *user);
  void *notify_user;
  pthread_mutex_t lock;
  clx_callback *destructors; /* clSetContextDestructorCallback, called last-registered first */
};
/* Tell the application about an error through the context's pfn_notify (if any). */
void clx_notify(cl_context ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- memory objects and samplers (cl_mem.c, cl_image.c, cl_svm.c) --------------------------- */
typedef struct clx_mapping {
  struct clx_mapping *next;
  void *ptr;           /* what clEnqueueMap* returned */
  size_t offset, size; /* buffers: byte range; images: see cl_image.c */
  size_t origin[3], region[3], row_pitch, slice_pitch;
  cl_map_flags flags;
  bool copy; /* ptr is a staging copy (written back at unmap when flags say so) */
} clx_mapping;

struct _cl_mem {
  clx_head h;
  cl_context ctx;
  cl_mem_object_type type;    /* CL_MEM_OBJECT_BUFFER, CL_MEM_OBJECT_IMAGE2D, ... */
  cl_mem_flags flags;         /* with the access flags inherited by sub-buffers */
  size_t size;                /* bytes */
  void *host_ptr;             /* CL_MEM_USE_HOST_PTR's pointer (CL_MEM_HOST_PTR), else NULL */
  spvi_mem *m;                /* the bytes (NULL only for a buffer of an SVM pointer: see svm) */
  void *svm;                  /* a buffer made with CL_MEM_USE_HOST_PTR on an SVM allocation */
  cl_mem parent;              /* sub-buffer: its buffer; image from buffer: the buffer (held) */
  size_t origin;              /* sub-buffer: offset in the parent */
  cl_image_format format;     /* images */
  cl_image_desc desc;         /* images, with row/slice pitches of spvi's tight layout */
  size_t elem_size;           /* images: bytes per pixel */
  cl_mem_properties props[8]; /* clCreate*WithProperties, 0-terminated; nprops 0 when none */
  size_t nprops;
  pthread_mutex_t lock;
  _Atomic cl_uint map_count;
  clx_mapping *maps;
  clx_callback *destructors; /* clSetMemObjectDestructorCallback */
};
/* The host address of a memory object's bytes (spvi_mem_data or the SVM pointer). */
void *clx_mem_data(cl_mem m);
/* A new memory object of ctx (cl_mem.c): registered, ctx held, lock initialised, everything else
 * zero for the caller to fill; its destroy releases m, parent, ctx and calls the destructors. */
cl_mem clx_mem_new(cl_context ctx, cl_mem_object_type type, cl_mem_flags flags);
/* clEnqueueUnmapMemObject of an image mapping (cl_image.c): write a staging copy back. */
void clx_image_unmap(cl_mem img, const clx_mapping *map);

struct _cl_sampler {
  clx_head h;
  cl_context ctx;
  cl_bool normalized;
  cl_addressing_mode addressing;
  cl_filter_mode filter;
  cl_sampler_properties props[8]; /* clCreateSamplerWithProperties, 0-terminated; nprops 0 when none */
  size_t nprops;
};
/* The spvi form of a sampler. */
spvi_sampler clx_sampler_spvi(cl_sampler s);

/* ---- programs and kernels (cl_program.c, cl_kernel.c) ---------------------------------------- */
struct _cl_program {
  clx_head h;
  cl_context ctx;
  pthread_mutex_t lock;
  char *source; /* clCreateProgramWithSource (concatenated), or NULL */
  void *il;
  size_t il_size;   /* clCreateProgramWithIL */
  bool from_binary; /* clCreateProgramWithBinary */
  /* the device's build state */
  cl_build_status status;
  char *log;     /* never NULL once a build ran */
  char *options; /* last build/compile/link options */
  cl_program_binary_type binary_type;
  void *spirv;
  size_t spirv_size;        /* the compiled or linked module (the program's binary) */
  spvi_module *mod;         /* executable programs: the loaded module */
  bool denorms_are_zero;    /* -cl-denorms-are-zero: launches flush float denormals */
  bool kernel_arg_info;     /* -cl-kernel-arg-info (or an IL program: names from OpName) */
  _Atomic cl_uint nkernels; /* live kernel objects (a rebuild then gives CL_INVALID_OPERATION) */
  struct clx_spec {
    cl_uint id;
    size_t size;
    uint8_t value[8];
  } * spec; /* clSetProgramSpecializationConstant */
  size_t nspec;
  pthread_mutex_t run_lock; /* launches of a module with program-scope variables in global
                                  memory run one at a time (spvi.h "program-scope variables") */
  void(CL_CALLBACK **release_cbs)(cl_program, void *);
  void **release_users;
  size_t nrelease_cbs;
};

typedef enum clx_arg_kind {
  CLX_ARG_NONE,
  CLX_ARG_VALUE,
  CLX_ARG_MEM,
  CLX_ARG_LOCAL,
  CLX_ARG_SAMPLER,
  CLX_ARG_SVM
} clx_arg_kind;
typedef struct clx_arg {
  clx_arg_kind kind;
  uint8_t *value;
  size_t size;        /* VALUE: the bytes; LOCAL: size only */
  cl_mem mem;         /* MEM (held; NULL: a null buffer) */
  cl_sampler sampler; /* SAMPLER (held) */
  const void *svm;    /* SVM pointer */
} clx_arg;

struct _cl_kernel {
  clx_head h;
  cl_program program; /* held */
  int index;          /* kernel index in program->mod */
  const char *name;
  pthread_mutex_t lock;
  clx_arg *args;
  cl_uint nargs;
  void **svm_ptrs;
  size_t nsvm_ptrs;       /* CL_KERNEL_EXEC_INFO_SVM_PTRS */
  cl_bool svm_fine_grain; /* CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM */
};

/* ---- the command engine (cl_queue.c, cl_event.c) ---------------------------------------------
 * Every enqueued command is an event with a `run` function. A command becomes ready when the
 * commands it depends on are complete: its wait list, and on an in-order queue the command enqueued
 * before it (on an out-of-order queue, the last barrier). Ready commands run on a pool of worker
 * threads, so commands of out-of-order queues, and of different queues, run concurrently. When a
 * command it depends on failed (negative status), a command does not run and gets the status
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. */
struct _cl_command_queue {
  clx_head h;
  cl_context ctx; /* held */
  cl_device_id device;
  cl_command_queue_properties props; /* CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, CL_QUEUE_PROFILING_ENABLE */
  cl_queue_properties prop_list[8];  /* clCreateCommandQueueWithProperties' list, 0-terminated */
  size_t nprop_list;                 /* 0 when created with clCreateCommandQueue */
  cl_event last;                     /* in-order: the last command (held); out-of-order: the last barrier */
  cl_event *pending;                 /* commands not complete (held), for clFinish and barriers */
  size_t npending, cap;
};

struct _cl_event {
  clx_head h;
  cl_context ctx;         /* held */
  cl_command_queue queue; /* held; NULL for user events */
  cl_command_type type;
  cl_int status; /* CL_QUEUED ... CL_COMPLETE, or negative; under the engine lock */
  cl_ulong t_queued, t_submit, t_start, t_end;
  clx_callback *callbacks;
  unsigned waiting; /* commands it waits for that are not complete */
  bool dep_failed;  /* one of them failed */
  struct clx_dep {
    cl_event ev;
    bool fail;
  } * dependents; /* commands waiting for it; fail: an
                                  explicit wait (its failure fails them), not queue order */
  size_t ndependents, cap;
  /* the command: run() performs it on a worker thread and returns CL_SUCCESS or a negative
   * status; fini() (may be NULL) frees the payload after completion, whatever the status. */
  cl_int (*run)(cl_event ev);
  void (*fini)(cl_event ev);
  void *payload;
};

/* Check an enqueue's wait list: CL_INVALID_EVENT_WAIT_LIST for (NULL, n > 0), (list, 0) or a bad
 * event, CL_INVALID_CONTEXT when an event belongs to another context than ctx. */
cl_int clx_check_wait_list(cl_context ctx, cl_uint n, const cl_event *list);
/* The event of a new command on q (not submitted yet; payload, run and fini to be filled). */
cl_event clx_command_new(cl_command_queue q, cl_command_type type);
/* Submit a command: it runs once the wait list (already checked) and the queue's ordering allow.
 * When `out` is not NULL the application gets a reference to the event there. When `blocking`,
 * returns once the command finished: CL_SUCCESS, or CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
 * when it failed. Never fails otherwise. */
cl_int clx_submit(cl_event ev, cl_uint nwait, const cl_event *wait, cl_event *out, bool blocking);
/* clx_submit with queue-wide ordering: CLX_AFTER_ALL makes the command wait for every command of
 * its queue not complete yet (markers and barriers with an empty wait list on an out-of-order
 * queue); CLX_BARRIER makes every later command of the queue wait for it. */
enum { CLX_AFTER_ALL = 1, CLX_BARRIER = 2 };
cl_int clx_submit_ex(cl_event ev, cl_uint nwait, const cl_event *wait, cl_event *out, bool blocking, unsigned flags);
/* Wait until every command of q is complete (clFinish). */
void clx_finish(cl_command_queue q);
/* Wait until ev is complete or failed; returns its status. */
cl_int clx_wait(cl_event ev);
/* Discard a command's event that was never submitted (an enqueue that failed its checks late). */
void clx_command_discard(cl_event ev);

/* ---- run-time configuration and reports (cl_config.c) ----------------------------------------
 * `spvi exec` passes its options through the environment (docs/opencl-platform.md): SPVI_CHECK
 * (races,uninit,all), SPVI_REPORT (JSON lines file), SPVI_THREADS, SPVI_WARP, SPVI_MAX_STEPS,
 * SPVI_MAX_MEMORY (bytes: spvi_run_options.max_memory),
 * SPVI_FLUSH_DENORMALS=1, SPVI_STRICT=1, SPVI_STATS=1, SPVI_KEEP_GOING=1, and SPVI_STATUS_FILE
 * (written when a launch faulted or reported, so the launcher can make its exit status 1). */
typedef struct clx_config {
  unsigned checks;        /* SPVI_CHECK_* */
  unsigned threads, warp; /* 0: spvi's defaults */
  uint64_t max_steps;     /* 0: spvi's default */
  uint64_t max_memory;    /* 0: no bound */
  bool flush_denormals, strict, stats;
  bool keep_going; /* SPVI_KEEP_GOING=1: access faults are reports (spvi_run_options.keep_going) */
  const char *report_path, *status_path; /* NULL when not set */
} clx_config;
const clx_config *clx_cfg(void);
/* Run options for a launch from the configuration (callbacks left NULL). */
void clx_run_options(spvi_run_options *o, bool program_ftz);
/* After a launch ran: print a fault (st == SPVI_FAULT) and the launch's reports on stderr and into
 * the report file, naming the enqueue (its running number and kernel) and the host call site
 * ("" when unknown); mark the status file. Also prints --stats lines when asked. */
void clx_report_launch(const spvi_launch *l, spvi_status st, const spvi_fault *f, const char *kernel,
                       uint64_t enqueue_no, const char *site);
/* A load warning or build note for the log (SPVI_STRICT decides whether validation fails). */
uint64_t clx_next_enqueue_no(void);

static inline cl_int clx_info_str(size_t out_size, void *out, size_t *size_ret, const char *s) {
  size_t n = 0;
  while (s[n]) n++;
  return clx_info(out_size, out, size_ret, s, n + 1);
}

/* ---- memory objects (cl_mem.c, area "mem") ----------------------------------------------------
 * Map flags of clEnqueueMap* (5.2.4): CL_INVALID_VALUE for unknown bits or
 * CL_MAP_WRITE_INVALIDATE_REGION with CL_MAP_READ/CL_MAP_WRITE, else CL_SUCCESS.
 * clEnqueueUnmapMemObject takes the mapping off m->maps (under m->lock, map_count - 1), calls
 * clx_image_unmap for images on the worker, then free()s the clx_mapping; a mapping left at
 * destruction is freed too, with free(ptr) when `copy` is set. */
cl_int clx_check_map_flags(cl_map_flags flags);

/* ---- programs and kernels (area "prog": cl_program.c, cl_kernel.c) ---------------------------
 * Build state cl_kernel.c needs beyond struct _cl_program (cl_program.c keeps it with the
 * program): whether launches need uniform work-groups (-cl-uniform-work-group-size or OpenCL C
 * 1.x, API 5.10 CL_INVALID_WORK_GROUP_SIZE), and whether the program was built from OpenCL C
 * source (CL_KERNEL_ATTRIBUTES is "" otherwise, API 5.9.5). Read under program->lock. */
bool clx_program_uniform_wg(cl_program p);
bool clx_program_from_source(cl_program p);

/* A new command of `type` on q with run/fini/payload, submitted (clx_submit); when it cannot be
 * created, fini frees the payload (through an event holding nothing else) and the result is
 * CL_OUT_OF_HOST_MEMORY. */
cl_int clx_submit_command(cl_command_queue q, cl_command_type type, cl_int (*run)(cl_event), void (*fini)(cl_event),
                          void *payload, cl_uint nwait, const cl_event *wait, cl_event *out, bool blocking);

#endif
