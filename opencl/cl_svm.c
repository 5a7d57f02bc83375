/*
 * cl_svm.c — shared virtual memory (OpenCL 3.0 API 5.6): clSVMAlloc/clSVMFree and the SVM
 * commands.
 *
 * spvi's device is the host: an SVM allocation (spvi_svm_alloc) is host memory whose address is
 * also the address kernels use, so coarse-grained and fine-grained buffer SVM are the same thing
 * here and map/unmap have nothing to synchronise. What remains is the spec's argument checking and
 * the ordering: every SVM command is a command of its queue (cl_event.c) whose copy or fill runs
 * on a worker thread when its turn comes. The device has no SVM atomics
 * (CL_DEVICE_SVM_ATOMICS is not reported), so CL_MEM_SVM_ATOMICS allocations fail.
 */
#include <stdlib.h>
#include <string.h>

#include "cl_internal.h"

/* ---- allocation (5.6.1) ------------------------------------------------------------------------ */

#define SVM_ACCESS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)

/* clSVMAlloc's flags: at most one access flag, CL_MEM_SVM_FINE_GRAIN_BUFFER, and
 * CL_MEM_SVM_ATOMICS (with fine grain only) — which the device does not support. */
static bool svm_flags_ok(cl_svm_mem_flags f) {
  if (f & ~(cl_svm_mem_flags)(SVM_ACCESS | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS)) return false;
  cl_svm_mem_flags a = f & SVM_ACCESS;
  if (a & (a - 1)) return false;
  return !(f & CL_MEM_SVM_ATOMICS);
}

CL_API_ENTRY void *CL_API_CALL clSVMAlloc(cl_context ctx, cl_svm_mem_flags flags, size_t size, cl_uint alignment) {
  /* clSVMAlloc has no error code: every failure returns NULL (5.6.1) */
  if (!clx_valid(ctx, CLX_CONTEXT)) return NULL;
  if (!svm_flags_ok(flags)) {
    clx_notify(ctx, "clSVMAlloc: flags %#llx are invalid or need SVM atomics, which the device lacks",
               (unsigned long long)flags);
    return NULL;
  }
  if (size == 0 || size > spvi_max_alloc_size()) {
    clx_notify(ctx, "clSVMAlloc: size %zu is 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE", size);
    return NULL;
  }
  /* alignment 0: the largest data type (long16, 128 bytes, spvi's default); else a power of two */
  if (alignment & (alignment - 1)) {
    clx_notify(ctx, "clSVMAlloc: alignment %u is not a power of two", alignment);
    return NULL;
  }
  spvi_error e;
  void *p = spvi_svm_alloc(size, alignment, &e);
  if (!p) clx_notify(ctx, "clSVMAlloc: %s", e.message);
  return p;
}

CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context ctx, void *ptr) {
  /* no error code either; freeing NULL does nothing. The application must make sure no command
   * still uses the memory (5.6.1) — clEnqueueSVMFree is the ordered form. */
  if (!clx_valid(ctx, CLX_CONTEXT) || !ptr) return;
  spvi_svm_free(ptr);
}

/* ---- commands ------------------------------------------------------------------------------------ */

typedef struct svm_cmd {
  void *dst;
  const void *src;
  size_t size;
  uint8_t pattern[128];
  size_t pattern_size;
  void **ptrs; /* clEnqueueSVMFree: a copy of the application's array */
  cl_uint nptrs;
  void(CL_CALLBACK *free_fn)(cl_command_queue, cl_uint, void **, void *);
  void *user;
} svm_cmd;

static void svm_fini(cl_event ev) {
  svm_cmd *c = ev->payload;
  if (c) free(c->ptrs);
  free(c);
  ev->payload = NULL;
}

static cl_int run_memcpy(cl_event ev) {
  svm_cmd *c = ev->payload;
  if (c->size) memmove(c->dst, c->src, c->size);
  return CL_SUCCESS;
}

static cl_int run_fill(cl_event ev) {
  svm_cmd *c = ev->payload;
  uint8_t *d = c->dst;
  for (size_t i = 0; i < c->size; i += c->pattern_size) memcpy(d + i, c->pattern, c->pattern_size);
  return CL_SUCCESS;
}

static cl_int run_free(cl_event ev) {
  svm_cmd *c = ev->payload;
  if (c->free_fn) {
    c->free_fn(ev->queue, c->nptrs, c->ptrs, c->user);
  } else {
    for (cl_uint i = 0; i < c->nptrs; i++) spvi_svm_free(c->ptrs[i]);
  }
  return CL_SUCCESS;
}

static cl_int run_nothing(cl_event ev) {
  (void)ev; /* map, unmap, migrate: the memory already is where both sides see it */
  return CL_SUCCESS;
}

/* The checks every SVM command starts and ends with: the queue, then (after its own argument
 * checks) the wait list. */
static cl_int check_queue(cl_command_queue q) {
  return clx_valid(q, CLX_QUEUE) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

/* Submit a command with payload c (may be NULL); c is freed by the command, or here on failure. */
static cl_int submit(cl_command_queue q, cl_command_type type, cl_int (*run)(cl_event), svm_cmd *c, cl_uint n,
                     const cl_event *wait, cl_event *out, bool blocking) {
  return clx_submit_command(q, type, run, svm_fini, c, n, wait, out, blocking);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue q, cl_uint num, void *ptrs[],
                                                 void(CL_CALLBACK *fn)(cl_command_queue, cl_uint, void **, void *),
                                                 void *user, cl_uint n, const cl_event *wait, cl_event *out) {
  cl_int e = check_queue(q);
  if (e != CL_SUCCESS) return e;
  /* "num_svm_pointers is 0 and svm_pointers is non-NULL, or svm_pointers is NULL and
   * num_svm_pointers is not 0" (5.6.2) */
  if ((num == 0) != (ptrs == NULL)) return CL_INVALID_VALUE;
  if ((e = clx_check_wait_list(q->ctx, n, wait)) != CL_SUCCESS) return e;
  svm_cmd *c = calloc(1, sizeof *c);
  if (!c || (num && !(c->ptrs = malloc(num * sizeof *c->ptrs)))) {
    free(c);
    return CL_OUT_OF_HOST_MEMORY;
  }
  if (num) memcpy(c->ptrs, ptrs, num * sizeof *ptrs); /* the application may reuse its array */
  c->nptrs = num;
  c->free_fn = fn;
  c->user = user;
  return submit(q, CL_COMMAND_SVM_FREE, run_free, c, n, wait, out, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue q, cl_bool blocking, void *dst, const void *src,
                                                   size_t size, cl_uint n, const cl_event *wait, cl_event *out) {
  cl_int e = check_queue(q);
  if (e != CL_SUCCESS) return e;
  if (!dst || !src) return CL_INVALID_VALUE;
  uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
  if (size && d < s + size && s < d + size) {
    clx_notify(q->ctx, "clEnqueueSVMMemcpy: source and destination overlap");
    return CL_MEM_COPY_OVERLAP;
  }
  if ((e = clx_check_wait_list(q->ctx, n, wait)) != CL_SUCCESS) return e;
  svm_cmd *c = calloc(1, sizeof *c);
  if (!c) return CL_OUT_OF_HOST_MEMORY;
  c->dst = dst;
  c->src = src;
  c->size = size;
  return submit(q, CL_COMMAND_SVM_MEMCPY, run_memcpy, c, n, wait, out, blocking);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue q, void *ptr, const void *pattern,
                                                    size_t pattern_size, size_t size, cl_uint n, const cl_event *wait,
                                                    cl_event *out) {
  cl_int e = check_queue(q);
  if (e != CL_SUCCESS) return e;
  /* 5.6.2: svm_ptr not NULL and aligned to pattern_size; pattern_size one of 1, 2, 4, ..., 128;
   * size a multiple of it */
  if (!ptr || !pattern || !pattern_size || (pattern_size & (pattern_size - 1)) || pattern_size > 128)
    return CL_INVALID_VALUE;
  if ((uintptr_t)ptr % pattern_size || size % pattern_size) return CL_INVALID_VALUE;
  if ((e = clx_check_wait_list(q->ctx, n, wait)) != CL_SUCCESS) return e;
  svm_cmd *c = calloc(1, sizeof *c);
  if (!c) return CL_OUT_OF_HOST_MEMORY;
  c->dst = ptr;
  c->size = size;
  memcpy(c->pattern, pattern, pattern_size); /* the application may reuse it at once */
  c->pattern_size = pattern_size;
  return submit(q, CL_COMMAND_SVM_MEMFILL, run_fill, c, n, wait, out, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue q, cl_bool blocking, cl_map_flags flags, void *ptr,
                                                size_t size, cl_uint n, const cl_event *wait, cl_event *out) {
  cl_int e = check_queue(q);
  if (e != CL_SUCCESS) return e;
  if (!ptr || size == 0 || clx_check_map_flags(flags) != CL_SUCCESS) return CL_INVALID_VALUE;
  if ((e = clx_check_wait_list(q->ctx, n, wait)) != CL_SUCCESS) return e;
  return submit(q, CL_COMMAND_SVM_MAP, run_nothing, NULL, n, wait, out, blocking);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue q, void *ptr, cl_uint n, const cl_event *wait,
                                                  cl_event *out) {
  cl_int e = check_queue(q);
  if (e != CL_SUCCESS) return e;
  if (!ptr) return CL_INVALID_VALUE;
  if ((e = clx_check_wait_list(q->ctx, n, wait)) != CL_SUCCESS) return e;
  return submit(q, CL_COMMAND_SVM_UNMAP, run_nothing, NULL, n, wait, out, false);
}

/* Each range of clEnqueueSVMMigrateMem must lie in one SVM allocation; a size of 0 stands for the
 * whole allocation ptr points into (5.6.2). */
static bool svm_range_ok(const void *ptr, size_t size) {
  void *base;
  size_t bytes;
  if (!ptr || !spvi_svm_find(ptr, &base, &bytes)) return false;
  size_t off = (size_t)((const char *)ptr - (const char *)base);
  return size <= bytes - off;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue q, cl_uint num, const void **ptrs,
                                                       const size_t *sizes, cl_mem_migration_flags flags, cl_uint n,
                                                       const cl_event *wait, cl_event *out) {
  cl_int e = check_queue(q);
  if (e != CL_SUCCESS) return e;
  if (num == 0 || !ptrs) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num; i++)
    if (!svm_range_ok(ptrs[i], sizes ? sizes[i] : 0)) {
      clx_notify(q->ctx, "clEnqueueSVMMigrateMem: range %u is not inside one SVM allocation", i);
      return CL_INVALID_VALUE;
    }
  if (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return CL_INVALID_VALUE;
  if ((e = clx_check_wait_list(q->ctx, n, wait)) != CL_SUCCESS) return e;
  return submit(q, CL_COMMAND_SVM_MIGRATE_MEM, run_nothing, NULL, n, wait, out, false);
}
