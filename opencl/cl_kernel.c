/*
 * cl_kernel.c — kernel objects, their arguments and queries (OpenCL 3.0 API 5.9), and kernel
 * launches: clEnqueueNDRangeKernel, clEnqueueTask, clEnqueueNativeKernel (API 5.10).
 *
 * Arguments are checked and copied when they are set (API 5.9.2: "the argument value ... is copied
 * by clSetKernelArg"). A memory object or sampler argument is not retained by the kernel: the
 * application keeps it alive until it enqueues (releasing a buffer that is only a kernel argument
 * destroys it at once — CTS api/retain_mem_object_set_kernel_arg waits for its destructor
 * callback); an enqueue with a released one is CL_INVALID_KERNEL_ARGS. An enqueue captures them (API 5.10: "the kernel arguments are captured at enqueue time"): it
 * makes an spvi_launch of the program's module, sets every argument and the NDRange, and holds the
 * memory objects, samplers and the program (whose module the launch runs) until the command is
 * complete, so the application may change the kernel's arguments or release anything right after
 * the enqueue. The launch runs on a worker thread of the command engine (cl_queue.c).
 *
 * A kernel that faults (out-of-bounds access, barrier divergence ...) stops; spvi prints the report
 * (cl_config.c) and the command's event gets CL_OUT_OF_RESOURCES — what GPU drivers give a kernel
 * that crashed, so applications handle it the way they already do (API 5.10: "CL_OUT_OF_RESOURCES
 * ... failure to execute the kernel"). Writes made before the fault stay in the buffers.
 */
#define _GNU_SOURCE /* dladdr (host call sites) */
#include "cl_internal.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- kernel objects ----------------------------------------------------------------------- */

static const spvi_param_info *param_of(cl_kernel k, cl_uint i) {
  return spvi_kernel_param(k->program->mod, k->index, (int)i);
}

static void arg_clear(clx_arg *a) {
  free(a->value);
  *a = (clx_arg){0};
}

static void kernel_destroy(void *obj) {
  cl_kernel k = obj;
  for (cl_uint i = 0; i < k->nargs; i++) arg_clear(&k->args[i]);
  free(k->args);
  free(k->svm_ptrs);
  free((char *)k->name);
  pthread_mutex_destroy(&k->lock);
  /* the program may be rebuilt once its last kernel is gone (API 5.8.3 CL_INVALID_OPERATION) */
  atomic_fetch_sub(&k->program->nkernels, 1);
  clx_unhold(k->program);
  clx_obj_free(k, sizeof *k);
}

/* A kernel object for kernel `index` of p's executable (p->mod, which stays while p has kernels:
 * cl_program.c refuses to rebuild then). */
static cl_kernel kernel_new(cl_program p, int index) {
  cl_kernel k = clx_obj_alloc(sizeof *k);
  if (!k) return NULL;
  int nargs = spvi_kernel_param_count(p->mod, index);
  k->name = strdup(spvi_kernel_name(p->mod, index));
  k->args = calloc((size_t)(nargs > 0 ? nargs : 0) + 1, sizeof *k->args);
  if (!k->name || !k->args) {
    free((char *)k->name);
    free(k->args);
    clx_obj_free(k, sizeof *k);
    return NULL;
  }
  k->program = p;
  k->index = index;
  k->nargs = (cl_uint)(nargs > 0 ? nargs : 0);
  pthread_mutex_init(&k->lock, NULL);
  clx_hold(p);
  atomic_fetch_add(&p->nkernels, 1);
  clx_init(k, CLX_KERNEL, kernel_destroy);
  return k;
}

static void *fail(cl_int *errcode_ret, cl_int e) {
  if (errcode_ret) *errcode_ret = e;
  return NULL;
}

CLX_API CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *kernel_name,
                                                          cl_int *errcode_ret) {
  if (!clx_valid(program, CLX_PROGRAM)) return fail(errcode_ret, CL_INVALID_PROGRAM);
  pthread_mutex_lock(&program->lock);
  cl_int e = CL_SUCCESS;
  cl_kernel k = NULL;
  int index = -1;
  if (!program->mod) e = CL_INVALID_PROGRAM_EXECUTABLE;
  else if (!kernel_name) e = CL_INVALID_VALUE;
  else if ((index = spvi_find_kernel(program->mod, kernel_name)) < 0) e = CL_INVALID_KERNEL_NAME;
  else if (!(k = kernel_new(program, index))) e = CL_OUT_OF_HOST_MEMORY;
  pthread_mutex_unlock(&program->lock);
  if (e == CL_INVALID_KERNEL_NAME)
    clx_notify(program->ctx, "clCreateKernel: the program has no kernel `%s`", kernel_name);
  if (errcode_ret) *errcode_ret = e;
  return k;
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels,
                                                                 cl_kernel *kernels, cl_uint *num_kernels_ret) {
  if (!clx_valid(program, CLX_PROGRAM)) return CL_INVALID_PROGRAM;
  pthread_mutex_lock(&program->lock);
  cl_int e = CL_SUCCESS;
  cl_uint n = program->mod ? (cl_uint)spvi_kernel_count(program->mod) : 0;
  if (!program->mod) e = CL_INVALID_PROGRAM_EXECUTABLE;
  else if (kernels && num_kernels < n) e = CL_INVALID_VALUE;
  for (cl_uint i = 0; kernels && e == CL_SUCCESS && i < n; i++) {
    kernels[i] = kernel_new(program, (int)i);
    if (!kernels[i]) {
      e = CL_OUT_OF_HOST_MEMORY;
      for (cl_uint j = 0; j < i; j++) clx_release(kernels[j], CLX_KERNEL, CL_INVALID_KERNEL);
    }
  }
  pthread_mutex_unlock(&program->lock);
  if (e == CL_SUCCESS && num_kernels_ret) *num_kernels_ret = n;
  return e;
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  return clx_retain(kernel, CLX_KERNEL, CL_INVALID_KERNEL);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  return clx_release(kernel, CLX_KERNEL, CL_INVALID_KERNEL);
}

/* A copy of an argument (its bytes copied). */
static bool arg_copy(clx_arg *dst, const clx_arg *src) {
  *dst = *src;
  dst->value = NULL;
  if (src->value) {
    dst->value = malloc(src->size ? src->size : 1);
    if (!dst->value) {
      *dst = (clx_arg){0};
      return false;
    }
    memcpy(dst->value, src->value, src->size);
  }
  return true;
}

/* API 5.9.1: the clone has the source's arguments and exec info as they are now. */
CLX_API CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret) {
  if (!clx_valid(source_kernel, CLX_KERNEL)) return fail(errcode_ret, CL_INVALID_KERNEL);
  cl_kernel src = source_kernel;
  cl_kernel k = kernel_new(src->program, src->index);
  if (!k) return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  bool good = true;
  pthread_mutex_lock(&src->lock);
  for (cl_uint i = 0; i < src->nargs && good; i++) good = arg_copy(&k->args[i], &src->args[i]);
  if (good && src->nsvm_ptrs) {
    k->svm_ptrs = malloc(src->nsvm_ptrs * sizeof *k->svm_ptrs);
    if (k->svm_ptrs) {
      memcpy(k->svm_ptrs, src->svm_ptrs, src->nsvm_ptrs * sizeof *k->svm_ptrs);
      k->nsvm_ptrs = src->nsvm_ptrs;
    } else {
      good = false;
    }
  }
  k->svm_fine_grain = src->svm_fine_grain;
  pthread_mutex_unlock(&src->lock);
  if (!good) {
    clReleaseKernel(k);
    return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  }
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return k;
}

/* ---- arguments (API 5.9.2) ---------------------------------------------------------------- */

/* The spvi image type of an image memory object; -1 for buffers. */
static int image_type_of(cl_mem_object_type t) {
  switch (t) {
  case CL_MEM_OBJECT_IMAGE1D: return SPVI_IMAGE_1D;
  case CL_MEM_OBJECT_IMAGE1D_BUFFER: return SPVI_IMAGE_1D_BUFFER;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY: return SPVI_IMAGE_1D_ARRAY;
  case CL_MEM_OBJECT_IMAGE2D: return SPVI_IMAGE_2D;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY: return SPVI_IMAGE_2D_ARRAY;
  case CL_MEM_OBJECT_IMAGE3D: return SPVI_IMAGE_3D;
  default: return -1;
  }
}

/* One checker per kind of parameter: the argument from (arg_size, arg_value), or the error of API
 * 5.9.2 with a message for the context's notify callback. */
typedef cl_int (*arg_maker)(const spvi_param_info *pi, size_t size, const void *value, clx_arg *a, char *why,
                            size_t wlen);

static cl_int make_value(const spvi_param_info *pi, size_t size, const void *value, clx_arg *a, char *why,
                         size_t wlen) {
  if (size != pi->size) {
    snprintf(why, wlen, "is a %s of %zu bytes, arg_size is %zu", pi->type_name, pi->size, size);
    return CL_INVALID_ARG_SIZE;
  }
  if (!value) {
    snprintf(why, wlen, "is passed by value: arg_value must not be NULL");
    return CL_INVALID_ARG_VALUE;
  }
  a->value = malloc(size ? size : 1);
  if (!a->value) return CL_OUT_OF_HOST_MEMORY;
  memcpy(a->value, value, size);
  a->size = size;
  a->kind = CLX_ARG_VALUE;
  return CL_SUCCESS;
}

static cl_int make_buffer(const spvi_param_info *pi, size_t size, const void *value, clx_arg *a, char *why,
                          size_t wlen) {
  (void)pi;
  if (size != sizeof(cl_mem)) {
    snprintf(why, wlen, "is a buffer: arg_size must be sizeof(cl_mem), not %zu", size);
    return CL_INVALID_ARG_SIZE;
  }
  /* "If the argument is a buffer object, the arg_value pointer can be NULL or point to a NULL
   * value in which case a NULL value will be used as the value for the argument" */
  cl_mem m = value ? *(const cl_mem *)value : NULL;
  if (m && (!clx_valid(m, CLX_MEM) || m->type != CL_MEM_OBJECT_BUFFER)) {
    snprintf(why, wlen, "is a buffer: arg_value is not a valid buffer object");
    return CL_INVALID_MEM_OBJECT;
  }
  a->kind = CLX_ARG_MEM;
  a->mem = m;
  return CL_SUCCESS;
}

static cl_int make_local(const spvi_param_info *pi, size_t size, const void *value, clx_arg *a, char *why,
                         size_t wlen) {
  (void)pi;
  /* OpenCL 3.0 (before 3.1): a __local argument of size 0 is CL_INVALID_ARG_SIZE (CTS
   * api/local_arg_size_zero) */
  if (size == 0) {
    snprintf(why, wlen, "is a __local pointer: arg_size is the bytes to allocate and must not be 0");
    return CL_INVALID_ARG_SIZE;
  }
  if (value) {
    snprintf(why, wlen, "is a __local pointer: arg_value must be NULL");
    return CL_INVALID_ARG_VALUE;
  }
  a->kind = CLX_ARG_LOCAL;
  a->size = size;
  return CL_SUCCESS;
}

static cl_int make_image(const spvi_param_info *pi, size_t size, const void *value, clx_arg *a, char *why,
                         size_t wlen) {
  if (size != sizeof(cl_mem)) {
    snprintf(why, wlen, "is an image: arg_size must be sizeof(cl_mem), not %zu", size);
    return CL_INVALID_ARG_SIZE;
  }
  cl_mem m = value ? *(const cl_mem *)value : NULL;
  if (!m || !clx_valid(m, CLX_MEM) || image_type_of(m->type) != (int)pi->image_type) {
    snprintf(why, wlen, "is a %s: arg_value is not a valid image object of that type", pi->type_name);
    return CL_INVALID_MEM_OBJECT;
  }
  /* an image the kernel may not access as it declares (CTS api/negative_set_read_write_image_arg) */
  bool reads = pi->access != SPVI_ACCESS_WRITE_ONLY, writes = pi->access != SPVI_ACCESS_READ_ONLY;
  if ((reads && (m->flags & CL_MEM_WRITE_ONLY)) || (writes && (m->flags & CL_MEM_READ_ONLY))) {
    snprintf(why, wlen, "is a %s, but the image was created %s", pi->type_name,
             m->flags & CL_MEM_READ_ONLY ? "CL_MEM_READ_ONLY" : "CL_MEM_WRITE_ONLY");
    return CL_INVALID_ARG_VALUE;
  }
  a->kind = CLX_ARG_MEM;
  a->mem = m;
  return CL_SUCCESS;
}

static cl_int make_sampler(const spvi_param_info *pi, size_t size, const void *value, clx_arg *a, char *why,
                           size_t wlen) {
  (void)pi;
  if (size != sizeof(cl_sampler)) {
    snprintf(why, wlen, "is a sampler_t: arg_size must be sizeof(cl_sampler), not %zu", size);
    return CL_INVALID_ARG_SIZE;
  }
  cl_sampler s = value ? *(const cl_sampler *)value : NULL;
  if (!clx_valid(s, CLX_SAMPLER)) {
    snprintf(why, wlen, "is a sampler_t: arg_value is not a valid sampler object");
    return CL_INVALID_SAMPLER;
  }
  a->kind = CLX_ARG_SAMPLER;
  a->sampler = s;
  return CL_SUCCESS;
}

static cl_int make_opaque(const spvi_param_info *pi, size_t size, const void *value, clx_arg *a, char *why,
                          size_t wlen) {
  (void)size;
  (void)value;
  (void)a;
  snprintf(why, wlen, "is a %s, which spvi does not support (no pipes, device queues or events)", pi->type_name);
  return CL_INVALID_ARG_VALUE;
}

static const arg_maker arg_makers[] = {
  [SPVI_PARAM_VALUE] = make_value,   [SPVI_PARAM_BUFFER] = make_buffer, [SPVI_PARAM_LOCAL] = make_local,
  [SPVI_PARAM_OPAQUE] = make_opaque, [SPVI_PARAM_IMAGE] = make_image,   [SPVI_PARAM_SAMPLER] = make_sampler,
};

static void arg_replace(cl_kernel k, cl_uint i, clx_arg *a) {
  pthread_mutex_lock(&k->lock);
  arg_clear(&k->args[i]);
  k->args[i] = *a;
  pthread_mutex_unlock(&k->lock);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                                       const void *arg_value) {
  if (!clx_valid(kernel, CLX_KERNEL)) return CL_INVALID_KERNEL;
  if (arg_index >= kernel->nargs) return CL_INVALID_ARG_INDEX;
  const spvi_param_info *pi = param_of(kernel, arg_index);
  clx_arg a = {0};
  char why[256] = "";
  cl_int e = arg_makers[pi->kind](pi, arg_size, arg_value, &a, why, sizeof why);
  if (e != CL_SUCCESS) {
    if (*why)
      clx_notify(kernel->program->ctx, "clSetKernelArg: argument %u `%s` of kernel `%s` %s", arg_index, pi->name,
                 kernel->name, why);
    return e;
  }
  arg_replace(kernel, arg_index, &a);
  return CL_SUCCESS;
}

/* spvi's device has shared virtual memory (coarse- and fine-grained buffers, cl_platform.c) but
 * no fine-grained system SVM (any malloc'd pointer). */
static bool device_has_svm(void) {
  cl_device_svm_capabilities caps = 0;
  return clGetDeviceInfo(&clx_device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL) == CL_SUCCESS && caps;
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index,
                                                                 const void *arg_value) {
  if (!clx_valid(kernel, CLX_KERNEL)) return CL_INVALID_KERNEL;
  if (!device_has_svm()) return CL_INVALID_OPERATION;
  if (arg_index >= kernel->nargs) return CL_INVALID_ARG_INDEX;
  const spvi_param_info *pi = param_of(kernel, arg_index);
  if (pi->kind != SPVI_PARAM_BUFFER) {
    clx_notify(kernel->program->ctx,
               "clSetKernelArgSVMPointer: argument %u `%s` of kernel `%s` is not a global or "
               "constant pointer",
               arg_index, pi->name, kernel->name);
    return CL_INVALID_ARG_VALUE;
  }
  clx_arg a = {.kind = CLX_ARG_SVM, .svm = arg_value};
  arg_replace(kernel, arg_index, &a);
  return CL_SUCCESS;
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                                                            size_t param_value_size, const void *param_value) {
  if (!clx_valid(kernel, CLX_KERNEL)) return CL_INVALID_KERNEL;
  if (!device_has_svm()) return CL_INVALID_OPERATION;
  /* SVM_PTRS with (0, NULL) clears the list (the CTS's svm_set_kernel_exec_info_svm_ptrs does) */
  if (!param_value && !(param_name == CL_KERNEL_EXEC_INFO_SVM_PTRS && param_value_size == 0)) return CL_INVALID_VALUE;
  if (param_name == CL_KERNEL_EXEC_INFO_SVM_PTRS) {
    /* the SVM pointers the kernel reaches other than through its arguments: spvi follows any
     * pointer into a live SVM allocation, so they are only recorded (clCloneKernel copies them) */
    if (param_value_size % sizeof(void *)) return CL_INVALID_VALUE;
    size_t n = param_value_size / sizeof(void *);
    void **copy = n ? malloc(param_value_size) : NULL;
    if (n && !copy) return CL_OUT_OF_HOST_MEMORY;
    if (n) memcpy(copy, param_value, param_value_size);
    pthread_mutex_lock(&kernel->lock);
    free(kernel->svm_ptrs);
    kernel->svm_ptrs = copy;
    kernel->nsvm_ptrs = n;
    pthread_mutex_unlock(&kernel->lock);
    return CL_SUCCESS;
  }
  if (param_name == CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM) {
    if (param_value_size != sizeof(cl_bool)) return CL_INVALID_VALUE;
    cl_bool on = *(const cl_bool *)param_value;
    if (on) {
      clx_notify(kernel->program->ctx, "clSetKernelExecInfo: spvi's device has no fine-grained system SVM");
      return CL_INVALID_OPERATION;
    }
    pthread_mutex_lock(&kernel->lock);
    kernel->svm_fine_grain = CL_FALSE;
    pthread_mutex_unlock(&kernel->lock);
    return CL_SUCCESS;
  }
  return CL_INVALID_VALUE;
}

/* ---- SPIR-V facts spvi's API does not give: vec_type_hint, type qualifiers ----------------------
 * Read from the program's binary (its SPIR-V, cl_program.c), walking its instruction stream
 * (SPIR-V 2.3: word count in the high 16 bits of an instruction's first word). */
enum { OP_STRING = 7, OP_ENTRY_POINT = 15, OP_EXECUTION_MODE = 16, MODE_VEC_TYPE_HINT = 30 };

/* The function id of entry point `name`, 0 when absent. */
static uint32_t spv_entry(const uint32_t *w, size_t n, const char *name) {
  for (size_t i = 5; i < n && (w[i] >> 16); i += w[i] >> 16)
    if ((w[i] & 0xffffu) == OP_ENTRY_POINT && (w[i] >> 16) >= 4) {
      size_t max = ((w[i] >> 16) - 3) * 4;
      const char *s = (const char *)&w[i + 3];
      if (strnlen(s, max) < max && !strcmp(s, name)) return w[i + 2];
    }
  return 0;
}

/* The VecTypeHint execution mode's operand of function `fn` (SPIR-V 3.6), 0 when absent. */
static uint32_t spv_vec_type_hint(const uint32_t *w, size_t n, uint32_t fn) {
  for (size_t i = 5; i < n && (w[i] >> 16); i += w[i] >> 16)
    if ((w[i] & 0xffffu) == OP_EXECUTION_MODE && (w[i] >> 16) >= 4 && w[i + 1] == fn && w[i + 2] == MODE_VEC_TYPE_HINT)
      return w[i + 3];
  return 0;
}

/* Field `index` of the OpString "<prefix><kernel>.<f0>,<f1>,..." llvm-spirv keeps the kernel
 * argument metadata in (clc_compile.h); false when there is none. */
static bool spv_arg_field(const uint32_t *w, size_t n, const char *prefix, const char *kernel, cl_uint index, char *buf,
                          size_t len) {
  size_t np = strlen(prefix), nk = strlen(kernel);
  for (size_t i = 5; i < n && (w[i] >> 16); i += w[i] >> 16) {
    if ((w[i] & 0xffffu) != OP_STRING || (w[i] >> 16) < 3) continue;
    size_t max = ((w[i] >> 16) - 2) * 4;
    const char *s = (const char *)&w[i + 2];
    if (strnlen(s, max) == max || strncmp(s, prefix, np) || strncmp(s + np, kernel, nk) || s[np + nk] != '.') continue;
    s += np + nk + 1;
    for (cl_uint f = 0; f < index && s; f++) {
      s = strchr(s, ',');
      if (s) s++;
    }
    if (!s) return false;
    snprintf(buf, len, "%.*s", (int)strcspn(s, ","), s);
    return true;
  }
  return false;
}

/* CL_KERNEL_ATTRIBUTES (API 5.9.5): the attributes of the kernel's declaration in OpenCL C source,
 * as they can be recovered from the SPIR-V: reqd_work_group_size, work_group_size_hint,
 * vec_type_hint (whose signedness SPIR-V does not keep: the unsigned type is named) and the
 * required sub-group size. "" for kernels not built from source. */
static void kernel_attributes(cl_kernel k, char *buf, size_t len) {
  buf[0] = 0;
  cl_program p = k->program;
  if (!clx_program_from_source(p)) return;
  size_t at = 0, v[3];
#define ADD(...) (at += (size_t)snprintf(buf + at, at < len ? len - at : 0, __VA_ARGS__), at = at < len ? at : len - 1)
  spvi_kernel_reqd_local_size(p->mod, k->index, v);
  if (v[0]) ADD("%sreqd_work_group_size(%zu,%zu,%zu)", at ? " " : "", v[0], v[1], v[2]);
  spvi_kernel_size_hint(p->mod, k->index, v);
  if (v[0]) ADD("%swork_group_size_hint(%zu,%zu,%zu)", at ? " " : "", v[0], v[1], v[2]);
  uint32_t hint = p->spirv
                    ? spv_vec_type_hint(p->spirv, p->spirv_size / 4, spv_entry(p->spirv, p->spirv_size / 4, k->name))
                    : 0;
  static const char *const hint_types[] = {"uchar", "ushort", "uint", "ulong", "half", "float", "double"};
  /* SPIR-V 3.6 VecTypeHint: components in the high 16 bits, the data type in the low 16 */
  if (hint && (hint & 0xffffu) < 7) {
    unsigned comps = hint >> 16;
    if (comps > 1) ADD("%svec_type_hint(%s%u)", at ? " " : "", hint_types[hint & 0xffffu], comps);
    else ADD("%svec_type_hint(%s)", at ? " " : "", hint_types[hint & 0xffffu]);
  }
  unsigned reqd_sg = 0;
  spvi_kernel_subgroup_modes(p->mod, k->index, &reqd_sg, NULL);
  if (reqd_sg) ADD("%sintel_reqd_sub_group_size(%u)", at ? " " : "", reqd_sg);
#undef ADD
}

/* ---- queries ------------------------------------------------------------------------------ */

CLX_API CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name,
                                                        size_t param_value_size, void *param_value,
                                                        size_t *param_value_size_ret) {
  if (!clx_valid(kernel, CLX_KERNEL)) return CL_INVALID_KERNEL;
  union {
    cl_uint u;
    cl_context c;
    cl_program p;
  } v;
  switch (param_name) {
  case CL_KERNEL_FUNCTION_NAME: return clx_info_str(param_value_size, param_value, param_value_size_ret, kernel->name);
  case CL_KERNEL_NUM_ARGS: v.u = kernel->nargs; break;
  case CL_KERNEL_REFERENCE_COUNT: v.u = clx_refcount(kernel); break;
  case CL_KERNEL_CONTEXT: v.c = kernel->program->ctx; break;
  case CL_KERNEL_PROGRAM: v.p = kernel->program; break;
  case CL_KERNEL_ATTRIBUTES: {
    char attrs[512];
    kernel_attributes(kernel, attrs, sizeof attrs);
    return clx_info_str(param_value_size, param_value, param_value_size_ret, attrs);
  }
  default: return CL_INVALID_VALUE;
  }
  size_t size = param_name == CL_KERNEL_CONTEXT   ? sizeof v.c
                : param_name == CL_KERNEL_PROGRAM ? sizeof v.p
                                                  : sizeof v.u;
  return clx_info(param_value_size, param_value, param_value_size_ret, &v, size);
}

static cl_kernel_arg_address_qualifier address_qualifier(const spvi_param_info *pi) {
  if (pi->kind == SPVI_PARAM_IMAGE) return CL_KERNEL_ARG_ADDRESS_GLOBAL; /* images are global objects */
  switch (pi->space) {
  case SPVI_AS_GLOBAL:
  case SPVI_AS_GENERIC: return CL_KERNEL_ARG_ADDRESS_GLOBAL;
  case SPVI_AS_CONSTANT: return CL_KERNEL_ARG_ADDRESS_CONSTANT;
  case SPVI_AS_LOCAL: return CL_KERNEL_ARG_ADDRESS_LOCAL;
  default: return CL_KERNEL_ARG_ADDRESS_PRIVATE;
  }
}

static cl_kernel_arg_access_qualifier access_qualifier(const spvi_param_info *pi) {
  if (pi->kind != SPVI_PARAM_IMAGE) return CL_KERNEL_ARG_ACCESS_NONE;
  return pi->access == SPVI_ACCESS_WRITE_ONLY   ? CL_KERNEL_ARG_ACCESS_WRITE_ONLY
         : pi->access == SPVI_ACCESS_READ_WRITE ? CL_KERNEL_ARG_ACCESS_READ_WRITE
                                                : CL_KERNEL_ARG_ACCESS_READ_ONLY;
}

/* Type qualifiers apply to what pointers point to (API 5.9.4; arguments passed by value are
 * TYPE_NONE, __constant ones const). */
static cl_kernel_arg_type_qualifier type_qualifier(cl_kernel k, cl_uint i, const spvi_param_info *pi) {
  if (pi->kind != SPVI_PARAM_BUFFER && pi->kind != SPVI_PARAM_LOCAL) return CL_KERNEL_ARG_TYPE_NONE;
  char qual[64] = "";
  cl_program p = k->program;
  if (p->spirv) spv_arg_field(p->spirv, p->spirv_size / 4, "kernel_arg_type_qual.", k->name, i, qual, sizeof qual);
  cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
  if (pi->is_const || pi->space == SPVI_AS_CONSTANT || strstr(qual, "const")) q |= CL_KERNEL_ARG_TYPE_CONST;
  if (pi->is_volatile || strstr(qual, "volatile")) q |= CL_KERNEL_ARG_TYPE_VOLATILE;
  if (pi->is_restrict || strstr(qual, "restrict")) q |= CL_KERNEL_ARG_TYPE_RESTRICT;
  return q;
}

/* CL_KERNEL_ARG_TYPE_NAME: the type as the source spelled it (unsigned types as uint ...), else
 * spvi's spelling without an image's access qualifier ("image2d_t"). */
static const char *type_name(const spvi_param_info *pi) {
  if (pi->source_type_name && *pi->source_type_name) return pi->source_type_name;
  static const char *const access[] = {"read_only ", "write_only ", "read_write "};
  for (size_t i = 0; i < 3; i++)
    if (!strncmp(pi->type_name, access[i], strlen(access[i]))) return pi->type_name + strlen(access[i]);
  return pi->type_name;
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index,
                                                           cl_kernel_arg_info param_name, size_t param_value_size,
                                                           void *param_value, size_t *param_value_size_ret) {
  if (!clx_valid(kernel, CLX_KERNEL)) return CL_INVALID_KERNEL;
  if (arg_index >= kernel->nargs) return CL_INVALID_ARG_INDEX;
  const spvi_param_info *pi = param_of(kernel, arg_index);
  /* names are "argument information" (API 5.9.4): only with -cl-kernel-arg-info, or from IL names.
   * The qualifiers are always known from the SPIR-V, so they are always answered. */
  bool info = kernel->program->kernel_arg_info;
  union {
    cl_kernel_arg_address_qualifier a;
    cl_kernel_arg_access_qualifier c;
    cl_kernel_arg_type_qualifier t;
  } v;
  size_t size;
  switch (param_name) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
    v.a = address_qualifier(pi);
    size = sizeof v.a;
    break;
  case CL_KERNEL_ARG_ACCESS_QUALIFIER:
    v.c = access_qualifier(pi);
    size = sizeof v.c;
    break;
  case CL_KERNEL_ARG_TYPE_QUALIFIER:
    v.t = type_qualifier(kernel, arg_index, pi);
    size = sizeof v.t;
    break;
  case CL_KERNEL_ARG_TYPE_NAME:
    if (!info) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
    return clx_info_str(param_value_size, param_value, param_value_size_ret, type_name(pi));
  case CL_KERNEL_ARG_NAME:
    if (!info || !*pi->name) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
    return clx_info_str(param_value_size, param_value, param_value_size_ret, pi->name);
  default: return CL_INVALID_VALUE;
  }
  return clx_info(param_value_size, param_value, param_value_size_ret, &v, size);
}

/* Bytes of __local memory a launch would use now: the kernel's own plus its __local arguments. */
static cl_ulong local_bytes(cl_kernel k) {
  cl_ulong n = spvi_kernel_local_bytes(k->program->mod, k->index);
  for (cl_uint i = 0; i < k->nargs; i++)
    if (k->args[i].kind == CLX_ARG_LOCAL) n += k->args[i].size;
  return n;
}

/* A kernel query's device: spvi's, or NULL (there is only one device, API 5.9.3). */
static bool device_ok(cl_device_id device) { return !device || clx_is_device(device); }

CLX_API CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                                                 cl_kernel_work_group_info param_name,
                                                                 size_t param_value_size, void *param_value,
                                                                 size_t *param_value_size_ret) {
  if (!clx_valid(kernel, CLX_KERNEL)) return CL_INVALID_KERNEL;
  if (!device_ok(device)) return CL_INVALID_DEVICE;
  union {
    size_t z;
    size_t z3[3];
    cl_ulong u;
  } v;
  size_t size;
  switch (param_name) {
  case CL_KERNEL_WORK_GROUP_SIZE:
    v.z = CLX_MAX_WORK_GROUP_SIZE;
    size = sizeof v.z;
    break;
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
    spvi_kernel_reqd_local_size(kernel->program->mod, kernel->index, v.z3);
    size = sizeof v.z3;
    break;
  case CL_KERNEL_LOCAL_MEM_SIZE:
    pthread_mutex_lock(&kernel->lock);
    v.u = local_bytes(kernel);
    pthread_mutex_unlock(&kernel->lock);
    size = sizeof v.u;
    break;
  /* a multiple of the warp width fills spvi's warps (as CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE) */
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    v.z = CLX_SUBGROUP_SIZE;
    size = sizeof v.z;
    break;
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    v.u = spvi_kernel_private_bytes(kernel->program->mod, kernel->index);
    size = sizeof v.u;
    break;
  /* "CL_INVALID_VALUE if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and device is not a custom device
   * and kernel is not a built-in kernel" */
  case CL_KERNEL_GLOBAL_WORK_SIZE: return CL_INVALID_VALUE;
  default: return CL_INVALID_VALUE;
  }
  return clx_info(param_value_size, param_value, param_value_size_ret, &v, size);
}

/* ---- sub-groups (API 5.9.3 clGetKernelSubGroupInfo) --------------------------------------------
 * spvi's rule (spvi.h spvi_run_options.subgroup_size): sub-groups of SPVI_DEFAULT_SUBGROUP_SIZE
 * consecutive work-items (the last one of a work-group may be smaller), or the kernel's required
 * size; with a SubgroupsPerWorkgroup mode, the size that makes that many. */
static unsigned subgroup_size(cl_kernel k, size_t items) {
  unsigned reqd = 0, per_wg = 0;
  spvi_kernel_subgroup_modes(k->program->mod, k->index, &reqd, &per_wg);
  if (reqd) return reqd;
  if (per_wg) {
    size_t s = (items + per_wg - 1) / per_wg;
    return (unsigned)(s < 1 ? 1 : s > 64 ? 64 : s);
  }
  return SPVI_DEFAULT_SUBGROUP_SIZE;
}

/* The work-items of the local size in input_value (1 to 3 size_t), 0 when it is not one. */
static size_t ndrange_items(size_t input_size, const void *input) {
  if (!input || input_size == 0 || input_size % sizeof(size_t) || input_size > 3 * sizeof(size_t)) return 0;
  size_t items = 1;
  for (size_t d = 0; d < input_size / sizeof(size_t); d++) items *= ((const size_t *)input)[d];
  return items;
}

/* CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: a 1D local size of `count` whole sub-groups (the
 * output's size decides the dimensions, the others are 1); zeros when none fits a work-group. */
static cl_int local_size_for_count(cl_kernel k, size_t count, size_t out_size, void *out, size_t *size_ret) {
  if (out_size == 0 || out_size % sizeof(size_t) || out_size > 3 * sizeof(size_t)) return CL_INVALID_VALUE;
  size_t local[3] = {0, 0, 0}, dims = out_size / sizeof(size_t);
  unsigned reqd = 0, per_wg = 0;
  spvi_kernel_subgroup_modes(k->program->mod, k->index, &reqd, &per_wg);
  size_t items = per_wg && !reqd ? (count == per_wg ? count : 0) : count * (reqd ? reqd : SPVI_DEFAULT_SUBGROUP_SIZE);
  if (count > 0 && items > 0 && items <= CLX_MAX_WORK_GROUP_SIZE) {
    local[0] = items;
    for (size_t d = 1; d < dims; d++) local[d] = 1;
  }
  return clx_info(out_size, out, size_ret, local, out_size);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                                                cl_kernel_sub_group_info param_name,
                                                                size_t input_value_size, const void *input_value,
                                                                size_t param_value_size, void *param_value,
                                                                size_t *param_value_size_ret) {
  if (!clx_valid(kernel, CLX_KERNEL)) return CL_INVALID_KERNEL;
  if (!device_ok(device)) return CL_INVALID_DEVICE;
  size_t v, items;
  unsigned per_wg = 0;
  spvi_kernel_subgroup_modes(kernel->program->mod, kernel->index, NULL, &per_wg);
  switch (param_name) {
  case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
  case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
    if (!(items = ndrange_items(input_value_size, input_value))) return CL_INVALID_VALUE;
    size_t s = subgroup_size(kernel, items);
    v = param_name == CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE ? (items + s - 1) / s : (items < s ? items : s);
    break;
  }
  case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT:
    if (input_value_size != sizeof(size_t) || !input_value) return CL_INVALID_VALUE;
    if (!param_value) { /* the size alone: the caller's choice of dimensions is not known yet */
      if (param_value_size_ret) *param_value_size_ret = param_value_size ? param_value_size : sizeof(size_t);
      return CL_SUCCESS;
    }
    return local_size_for_count(kernel, *(const size_t *)input_value, param_value_size, param_value,
                                param_value_size_ret);
  case CL_KERNEL_MAX_NUM_SUB_GROUPS:
    v = per_wg ? per_wg
               : (CLX_MAX_WORK_GROUP_SIZE + subgroup_size(kernel, CLX_MAX_WORK_GROUP_SIZE) - 1) /
                   subgroup_size(kernel, CLX_MAX_WORK_GROUP_SIZE);
    break;
  case CL_KERNEL_COMPILE_NUM_SUB_GROUPS: v = per_wg; break;
  default: return CL_INVALID_VALUE;
  }
  return clx_info(param_value_size, param_value, param_value_size_ret, &v, sizeof v);
}

/* ---- launches (API 5.10) ------------------------------------------------------------------ */

typedef struct launch_cmd {
  spvi_launch *l;     /* NULL for an empty NDRange (nothing to run) */
  cl_program program; /* held: its module runs */
  cl_context ctx;
  char *kernel_name;
  bool ftz, serial; /* -cl-denorms-are-zero; program-scope global variables */
  cl_mem *mems;
  size_t nmems; /* held until complete */
  cl_sampler *samplers;
  size_t nsamplers;
  uint64_t enqueue_no;
  void *frames[8];
  int nframes; /* the enqueue's call stack, for the host call site */
} launch_cmd;

static void launch_free(launch_cmd *c) {
  if (!c) return;
  if (c->l) spvi_launch_free(c->l);
  for (size_t i = 0; i < c->nmems; i++) clx_unhold(c->mems[i]);
  for (size_t i = 0; i < c->nsamplers; i++) clx_unhold(c->samplers[i]);
  free(c->mems);
  free(c->samplers);
  free(c->kernel_name);
  if (c->program) clx_unhold(c->program);
  free(c);
}

static void launch_fini(cl_event ev) { launch_free(ev->payload); }

/* Kernel printf output goes to the application's stdout as the kernel prints it, one work-item's
 * text at a time (spvi_run_options.on_printf), so texts of concurrent launches do not mix. */
static void print_text(void *user, const char *text, size_t len) {
  (void)user;
  flockfile(stdout);
  fwrite(text, 1, len, stdout);
  fflush(stdout);
  funlockfile(stdout);
}

/* The host call site of the enqueue: the first frame of the captured stack after this library's
 * own (before them: backtrace itself, or a sanitizer's interceptor of it) and outside the ICD
 * loader, as "symbol+0xOFF (file)" or "file+0xOFF" (an offset for addr2line). The return address
 * minus one lies in the call instruction, hence on the caller's line. */
static void host_site(const launch_cmd *c, char *buf, size_t len) {
  Dl_info self, info;
  buf[0] = 0;
  if (!dladdr((void *)host_site, &self)) return;
  bool seen_self = false;
  for (int i = 0; i < c->nframes; i++) {
    void *pc = (char *)c->frames[i] - 1;
    if (!dladdr(pc, &info)) continue;
    if (info.dli_fbase == self.dli_fbase) {
      seen_self = true;
      continue;
    }
    if (!seen_self) continue;
    const char *file = info.dli_fname ? info.dli_fname : "?";
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    if (!strncmp(base, "libOpenCL", 9)) continue;
    if (info.dli_sname && info.dli_saddr)
      snprintf(buf, len, "%s+0x%zx (%s)", info.dli_sname, (size_t)((char *)pc - (char *)info.dli_saddr), base);
    else snprintf(buf, len, "%s+0x%zx", base, (size_t)((char *)pc - (char *)info.dli_fbase));
    return;
  }
}

/* Runs on a worker thread (cl_queue.c). */
static cl_int launch_run(cl_event ev) {
  launch_cmd *c = ev->payload;
  if (!c->l) return CL_SUCCESS; /* API 5.10: an empty NDRange "trivially succeeds" */
  spvi_run_options o;
  clx_run_options(&o, c->ftz);
  o.on_printf = print_text;
  spvi_fault f;
  spvi_error err;
  memset(&f, 0, sizeof f);
  if (c->serial) pthread_mutex_lock(&c->program->run_lock);
  spvi_status st = spvi_run(c->l, &o, &f, &err);
  if (c->serial) pthread_mutex_unlock(&c->program->run_lock);
  if (st == SPVI_OK || st == SPVI_FAULT) {
    char site[320] = "";
    if (st == SPVI_FAULT || spvi_report_count(c->l) || clx_cfg()->stats) host_site(c, site, sizeof site);
    clx_report_launch(c->l, st, &f, c->kernel_name, c->enqueue_no, site);
  } else {
    fprintf(stderr, "spvi: enqueue #%llu (kernel `%s`): %s\n", (unsigned long long)c->enqueue_no, c->kernel_name,
            err.message);
    clx_notify(c->ctx, "kernel `%s` could not run: %s", c->kernel_name, err.message);
  }
  /* file comment: a fault is CL_OUT_OF_RESOURCES, as GPU drivers report a crashed kernel */
  return st == SPVI_OK ? CL_SUCCESS : st == SPVI_E_NOMEM ? CL_OUT_OF_HOST_MEMORY : CL_OUT_OF_RESOURCES;
}

/* The checks of API 5.10 on the NDRange itself, in the spec's order. `uniform`: the program needs
 * global sizes that are multiples of the local size. */
static cl_int check_ndrange(cl_kernel k, cl_uint dims, const size_t *offset, const size_t *global, const size_t *local,
                            bool uniform, char *why, size_t wlen) {
  if (dims < 1 || dims > CLX_MAX_WORK_ITEM_DIMS) return CL_INVALID_WORK_DIMENSION;
  for (cl_uint d = 0; offset && global && d < dims; d++)
    if (global[d] + offset[d] < global[d]) {
      snprintf(why, wlen, "global offset + size overflows size_t in dimension %u", d);
      return CL_INVALID_GLOBAL_OFFSET;
    }
  size_t reqd[3];
  spvi_kernel_reqd_local_size(k->program->mod, k->index, reqd);
  if (!local) {
    /* no local size: the required one is used (spvi_set_ndrange), which must then divide the
     * global size when work-groups must be uniform */
    for (cl_uint d = 0; reqd[0] && uniform && global && d < dims; d++)
      if (global[d] % reqd[d]) {
        snprintf(why, wlen,
                 "global size %zu is not a multiple of the required local size %zu in dimension %u, and "
                 "the program needs uniform work-groups",
                 global[d], reqd[d], d);
        return CL_INVALID_WORK_GROUP_SIZE;
      }
    return CL_SUCCESS;
  }
  size_t items = 1;
  for (cl_uint d = 0; d < 3; d++) {
    size_t l = d < dims ? local[d] : 1;
    if (l == 0) {
      snprintf(why, wlen, "local size %u is 0", d);
      return CL_INVALID_WORK_GROUP_SIZE;
    }
    if (reqd[0] && l != reqd[d]) {
      snprintf(why, wlen, "the kernel requires local size (%zu,%zu,%zu) (reqd_work_group_size)", reqd[0], reqd[1],
               reqd[2]);
      return CL_INVALID_WORK_GROUP_SIZE;
    }
    items = items > CLX_MAX_WORK_GROUP_SIZE ? items : items * l;
  }
  unsigned per_wg = 0;
  spvi_kernel_subgroup_modes(k->program->mod, k->index, NULL, &per_wg);
  if (per_wg && items < per_wg) {
    snprintf(why, wlen, "the kernel requires %u sub-groups per work-group, %zu work-items cannot make them", per_wg,
             items);
    return CL_INVALID_WORK_GROUP_SIZE;
  }
  if (items > CLX_MAX_WORK_GROUP_SIZE) {
    snprintf(why, wlen, "a work-group of more than CL_KERNEL_WORK_GROUP_SIZE (%u) work-items", CLX_MAX_WORK_GROUP_SIZE);
    return CL_INVALID_WORK_GROUP_SIZE;
  }
  for (cl_uint d = 0; uniform && global && d < dims; d++)
    if (global[d] % local[d]) {
      snprintf(why, wlen,
               "global size %zu is not a multiple of local size %zu in dimension %u, and the program "
               "needs uniform work-groups (OpenCL C 1.x or -cl-uniform-work-group-size)",
               global[d], local[d], d);
      return CL_INVALID_WORK_GROUP_SIZE;
    }
  for (cl_uint d = 0; d < dims; d++)
    if (local[d] > CLX_MAX_WORK_GROUP_SIZE) return CL_INVALID_WORK_ITEM_SIZE;
  return CL_SUCCESS;
}

/* API 5.10 CL_INVALID_KERNEL_ARGS: every argument set (checked before the NDRange's errors), and
 * its memory object or sampler not released since (the kernel does not retain them: file
 * comment). */
static cl_int check_args_set(cl_kernel k, char *why, size_t wlen) {
  for (cl_uint i = 0; i < k->nargs; i++) {
    const clx_arg *a = &k->args[i];
    const char *what = a->kind == CLX_ARG_NONE                                           ? "is not set"
                       : a->kind == CLX_ARG_MEM && a->mem && !clx_valid(a->mem, CLX_MEM) ? "is a released memory object"
                       : a->kind == CLX_ARG_SAMPLER && !clx_valid(a->sampler, CLX_SAMPLER) ? "is a released sampler"
                                                                                           : NULL;
    if (what) {
      snprintf(why, wlen, "argument %u `%s` %s", i, param_of(k, i)->name, what);
      return CL_INVALID_KERNEL_ARGS;
    }
  }
  return CL_SUCCESS;
}

/* The arguments' checks the spec lists after the NDRange's: sub-buffers aligned to
 * CL_DEVICE_MEM_BASE_ADDR_ALIGN, the __local memory within CL_DEVICE_LOCAL_MEM_SIZE. */
static cl_int check_args_fit(cl_kernel k, char *why, size_t wlen) {
  for (cl_uint i = 0; i < k->nargs; i++) {
    const clx_arg *a = &k->args[i];
    if (a->kind == CLX_ARG_MEM && a->mem && a->mem->type == CL_MEM_OBJECT_BUFFER && a->mem->parent &&
        a->mem->origin % (CLX_MEM_BASE_ADDR_ALIGN_BITS / 8)) {
      snprintf(why, wlen, "argument %u is a sub-buffer at offset %zu, not a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN",
               i, a->mem->origin);
      return CL_MISALIGNED_SUB_BUFFER_OFFSET;
    }
  }
  cl_ulong local = local_bytes(k);
  if (local > SPVI_LOCAL_MEM_SIZE) {
    snprintf(why, wlen, "the launch needs %llu bytes of __local memory, the device has %llu", (unsigned long long)local,
             (unsigned long long)SPVI_LOCAL_MEM_SIZE);
    return CL_OUT_OF_RESOURCES;
  }
  return CL_SUCCESS;
}

/* Sets argument i of the launch and holds what it uses until the command is complete. */
static bool set_launch_arg(launch_cmd *c, cl_uint i, const clx_arg *a, spvi_error *err) {
  spvi_launch *l = c->l;
  switch (a->kind) {
  case CLX_ARG_VALUE: return spvi_set_arg_value(l, (int)i, a->value, a->size, err) == SPVI_OK;
  case CLX_ARG_LOCAL: return spvi_set_arg_local(l, (int)i, a->size, err) == SPVI_OK;
  case CLX_ARG_SVM: return spvi_set_arg_svm(l, (int)i, a->svm, err) == SPVI_OK;
  case CLX_ARG_SAMPLER: {
    spvi_sampler s = clx_sampler_spvi(a->sampler);
    clx_hold(a->sampler);
    c->samplers[c->nsamplers++] = a->sampler;
    return spvi_set_arg_sampler(l, (int)i, &s, err) == SPVI_OK;
  }
  case CLX_ARG_MEM:
    if (!a->mem) return spvi_set_arg_mem(l, (int)i, NULL, err) == SPVI_OK;
    clx_hold(a->mem);
    c->mems[c->nmems++] = a->mem;
    /* a buffer made on an SVM allocation has no spvi_mem: its bytes are SVM (cl_internal.h) */
    if (!a->mem->m) return spvi_set_arg_svm(l, (int)i, clx_mem_data(a->mem), err) == SPVI_OK;
    return spvi_set_arg_mem(l, (int)i, a->mem->m, err) == SPVI_OK;
  default: return false;
  }
}

/* True when the module has program-scope variables in global memory (spvi.h: such launches run
 * one at a time). */
static bool has_global_variables(const spvi_module *m) {
  for (int i = 0; i < spvi_global_count(m); i++)
    if (spvi_global(m, i)->space == SPVI_AS_GLOBAL) return true;
  return false;
}

/* The launch of k with its current arguments over the NDRange (global NULL or a 0: empty). */
static cl_int make_launch(cl_kernel k, launch_cmd *c, cl_uint dims, const size_t *offset, const size_t *global,
                          const size_t *local, bool uniform, char *why, size_t wlen) {
  spvi_module *mod = k->program->mod;
  c->program = k->program;
  clx_hold(c->program);
  c->ctx = k->program->ctx;
  c->ftz = k->program->denorms_are_zero;
  c->serial = has_global_variables(mod);
  c->kernel_name = strdup(k->name);
  c->mems = calloc(k->nargs + 1, sizeof *c->mems);
  c->samplers = calloc(k->nargs + 1, sizeof *c->samplers);
  if (!c->kernel_name || !c->mems || !c->samplers) return CL_OUT_OF_HOST_MEMORY;
  bool empty = !global;
  for (cl_uint d = 0; global && d < dims; d++) empty |= global[d] == 0;
  if (empty) return CL_SUCCESS;
  spvi_error err;
  c->l = spvi_launch_new(mod, k->index, &err);
  if (!c->l) {
    snprintf(why, wlen, "%.400s", err.message);
    return err.status == SPVI_E_NOMEM ? CL_OUT_OF_HOST_MEMORY : CL_OUT_OF_RESOURCES;
  }
  for (cl_uint i = 0; i < k->nargs; i++)
    if (!set_launch_arg(c, i, &k->args[i], &err)) {
      snprintf(why, wlen, "argument %u: %.400s", i, err.message);
      return err.status == SPVI_E_NOMEM ? CL_OUT_OF_HOST_MEMORY : CL_INVALID_KERNEL_ARGS;
    }
  /* non-uniform work-groups (OpenCL C 2.0+): a local size above the global size makes one partial
   * group of the global size, which is what spvi runs */
  size_t eff[3];
  for (cl_uint d = 0; local && d < dims; d++) eff[d] = !uniform && local[d] > global[d] ? global[d] : local[d];
  if (spvi_set_ndrange(c->l, dims, global, local ? eff : NULL, offset, &err) != SPVI_OK) {
    snprintf(why, wlen, "%.400s", err.message);
    return CL_INVALID_WORK_GROUP_SIZE;
  }
  return CL_SUCCESS;
}

static cl_int enqueue_kernel(cl_command_queue q, cl_kernel k, cl_command_type type, cl_uint dims, const size_t *offset,
                             const size_t *global, const size_t *local, cl_uint nwait, const cl_event *wait,
                             cl_event *event, const char *entry) {
  if (!clx_valid(q, CLX_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (!clx_valid(k, CLX_KERNEL)) return CL_INVALID_KERNEL;
  if (k->program->ctx != q->ctx) return CL_INVALID_CONTEXT;
  char why[512] = "";
  launch_cmd *c = calloc(1, sizeof *c);
  if (!c) return CL_OUT_OF_HOST_MEMORY;
  c->nframes = backtrace(c->frames, (int)(sizeof c->frames / sizeof *c->frames));
  pthread_mutex_lock(&k->program->lock);
  bool uniform = clx_program_uniform_wg(k->program);
  pthread_mutex_unlock(&k->program->lock);
  pthread_mutex_lock(&k->lock);
  /* in the order of API 5.10's list of errors */
  cl_int e = check_args_set(k, why, sizeof why);
  if (e == CL_SUCCESS) e = check_ndrange(k, dims, offset, global, local, uniform, why, sizeof why);
  if (e == CL_SUCCESS) e = check_args_fit(k, why, sizeof why);
  if (e == CL_SUCCESS) e = clx_check_wait_list(q->ctx, nwait, wait);
  if (e == CL_SUCCESS) e = make_launch(k, c, dims, offset, global, local, uniform, why, sizeof why);
  pthread_mutex_unlock(&k->lock);
  if (e != CL_SUCCESS) {
    if (*why) clx_notify(q->ctx, "%s: kernel `%s`: %s", entry, k->name, why);
    launch_free(c);
    return e;
  }
  c->enqueue_no = clx_next_enqueue_no();
  return clx_submit_command(q, type, launch_run, launch_fini, c, nwait, wait, event, false);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel,
                                                               cl_uint work_dim, const size_t *global_work_offset,
                                                               const size_t *global_work_size,
                                                               const size_t *local_work_size,
                                                               cl_uint num_events_in_wait_list,
                                                               const cl_event *event_wait_list, cl_event *event) {
  return enqueue_kernel(command_queue, kernel, CL_COMMAND_NDRANGE_KERNEL, work_dim, global_work_offset,
                        global_work_size, local_work_size, num_events_in_wait_list, event_wait_list, event,
                        "clEnqueueNDRangeKernel");
}

/* API 5.10: "equivalent to calling clEnqueueNDRangeKernel with work_dim set to 1,
 * global_work_offset set to NULL, global_work_size[0] set to 1, and local_work_size[0] set to 1" */
CLX_API CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                                      cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                                      cl_event *event) {
  static const size_t one = 1;
  return enqueue_kernel(command_queue, kernel, CL_COMMAND_TASK, 1, NULL, &one, &one, num_events_in_wait_list,
                        event_wait_list, event, "clEnqueueTask");
}

/* CL_DEVICE_EXECUTION_CAPABILITIES is CL_EXEC_KERNEL only: "CL_INVALID_OPERATION if the device
 * associated with command_queue cannot execute the native kernel" (API 5.10). */
CLX_API CL_API_ENTRY cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue,
                                                              void(CL_CALLBACK *user_func)(void *), void *args,
                                                              size_t cb_args, cl_uint num_mem_objects,
                                                              const cl_mem *mem_list, const void **args_mem_loc,
                                                              cl_uint num_events_in_wait_list,
                                                              const cl_event *event_wait_list, cl_event *event) {
  (void)user_func;
  (void)args;
  (void)cb_args;
  (void)num_mem_objects;
  (void)mem_list;
  (void)args_mem_loc;
  (void)num_events_in_wait_list;
  (void)event_wait_list;
  (void)event;
  if (!clx_valid(command_queue, CLX_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  clx_notify(command_queue->ctx, "clEnqueueNativeKernel: spvi's device cannot run native kernels");
  return CL_INVALID_OPERATION;
}
