/*
 * cl_mem.c — buffers and sub-buffers (OpenCL 3.0 API 5.2), the generic memory object calls shared
 * with images (5.5: retain/release, destructor callbacks, clGetMemObjectInfo, unmap, migration),
 * the buffer commands (read/write/copy/fill, their Rect forms, map) and the pipe entry points (5.4).
 *
 * Storage: a buffer's bytes are an spvi_mem, which kernels use in place. CL_MEM_USE_HOST_PTR hands
 * the application's memory to spvi_buffer_new, so the buffer IS the host memory (zero-copy): a map
 * returns host_ptr + offset as 5.2.4 requires, and kernel writes are in host_ptr once the kernel is
 * complete. A sub-buffer is an spvi_buffer_view of its parent's bytes. A CL_MEM_USE_HOST_PTR
 * buffer on SVM memory has no spvi_mem at all: its bytes are the SVM range (m->svm), which kernels
 * get as an SVM pointer. Maps return pointers into the buffer's own bytes (5.2.4 allows it for
 * every buffer), so map and unmap move no data.
 *
 * Commands: every clEnqueue* here checks its arguments in the calling thread, then creates a
 * command (clx_command_new) whose run() does the transfer on a worker thread when the command's
 * turn comes — a non-blocking read copies nothing at enqueue time. The command holds its memory
 * objects (clx_hold) until it finished, so an object the application releases meanwhile lives on
 * and is destroyed afterwards (5.5.1).
 */
#include <stdlib.h>
#include <string.h>

#include "cl_internal.h"

#define ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define PTR_FLAGS (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)
#define BASE_ALIGN ((size_t)CLX_MEM_BASE_ADDR_ALIGN_BITS / 8)

static cl_int set_err(cl_int *err, cl_int e) {
  if (err) *err = e;
  return e;
}

/* ---- memory objects ------------------------------------------------------------------------ */

/* Destruction (5.5.1): the bytes are given back first, so that when the destructor callbacks run
 * — last registered first, clSetMemObjectDestructorCallback — nothing uses a CL_MEM_USE_HOST_PTR
 * region any more and the application may free it. Sub-buffers and images from buffers hold their
 * parent, whose destruction therefore comes after theirs. */
static void mem_destroy(void *obj) {
  cl_mem m = obj;
  for (clx_mapping *p = m->maps, *n; p; p = n) {
    n = p->next;
    if (p->copy) free(p->ptr); /* a staging copy never unmapped (malloc'd by cl_image.c) */
    free(p);
  }
  if (m->m) spvi_mem_release(m->m);
  m->m = NULL;
  for (clx_callback *c = m->destructors, *n; c; c = n) {
    n = c->next; /* the list is kept newest first: reverse registration order */
    ((void(CL_CALLBACK *)(cl_mem, void *))c->fn)(m, c->user);
    free(c);
  }
  clx_unhold(m->parent);
  clx_unhold(m->ctx);
  pthread_mutex_destroy(&m->lock);
  clx_obj_free(m, sizeof *m);
}

cl_mem clx_mem_new(cl_context ctx, cl_mem_object_type type, cl_mem_flags flags) {
  cl_mem m = clx_obj_alloc(sizeof *m);
  if (!m) return NULL;
  m->ctx = ctx;
  m->type = type;
  m->flags = flags;
  pthread_mutex_init(&m->lock, NULL);
  atomic_init(&m->map_count, 0);
  clx_hold(ctx);
  clx_init(m, CLX_MEM, mem_destroy);
  return m;
}

void *clx_mem_data(cl_mem m) { return m->m ? spvi_mem_data(m->m, NULL) : m->svm; }

cl_int clx_check_map_flags(cl_map_flags f) {
  if (f & ~(cl_map_flags)(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) return CL_INVALID_VALUE;
  /* CL_MAP_WRITE_INVALIDATE_REGION excludes the other two (5.2.4, "Memory map flags") */
  if ((f & CL_MAP_WRITE_INVALIDATE_REGION) && (f & (CL_MAP_READ | CL_MAP_WRITE))) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

static bool at_most_one(cl_mem_flags f) { return (f & (f - 1)) == 0; }

/* The "Memory Flags" table of 5.2.1: known bits, one access flag, one host access flag, and
 * CL_MEM_USE_HOST_PTR alone among the host pointer flags. */
static cl_int check_buffer_flags(cl_mem_flags f) {
  if (f & ~(cl_mem_flags)(ACCESS_FLAGS | HOST_FLAGS | PTR_FLAGS)) return CL_INVALID_VALUE;
  if (!at_most_one(f & ACCESS_FLAGS) || !at_most_one(f & HOST_FLAGS)) return CL_INVALID_VALUE;
  if ((f & CL_MEM_USE_HOST_PTR) && (f & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

/* The properties of clCreateBufferWithProperties: OpenCL 3.0 core defines none for buffers, so
 * only an empty list (or NULL) is valid (5.2.1, CL_INVALID_PROPERTY). */
static cl_int check_buffer_props(const cl_mem_properties *props) {
  return props && props[0] != 0 ? CL_INVALID_PROPERTY : CL_SUCCESS;
}

static bool in_svm(const void *p) {
  void *base;
  size_t bytes;
  return spvi_svm_find(p, &base, &bytes);
}

/* host_ptr against the flags, and a CL_MEM_USE_HOST_PTR pointer into an SVM allocation that is
 * too small for the buffer (5.2.1, CL_INVALID_HOST_PTR and CL_INVALID_BUFFER_SIZE). */
static cl_int check_host_ptr(cl_mem_flags f, size_t size, void *host) {
  bool wants = f & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (wants != (host != NULL)) return CL_INVALID_HOST_PTR;
  void *base;
  size_t bytes;
  if ((f & CL_MEM_USE_HOST_PTR) && spvi_svm_find(host, &base, &bytes) &&
      size > bytes - (size_t)((char *)host - (char *)base))
    return CL_INVALID_BUFFER_SIZE;
  return CL_SUCCESS;
}

static cl_int spvi_to_cl(const spvi_error *e) {
  return e->status == SPVI_E_NOMEM ? CL_MEM_OBJECT_ALLOCATION_FAILURE : CL_OUT_OF_RESOURCES;
}

/* clCreateBuffer's checks in the order 5.2.1 lists them (the context is checked by the caller). */
static cl_int check_create(cl_context ctx, const cl_mem_properties *props, cl_mem_flags flags, size_t size,
                           void *host) {
  if (check_buffer_props(props) != CL_SUCCESS) {
    clx_notify(ctx, "clCreateBufferWithProperties: unknown property %#llx (buffers have none in OpenCL 3.0)",
               (unsigned long long)props[0]);
    return CL_INVALID_PROPERTY;
  }
  if (check_buffer_flags(flags) != CL_SUCCESS) {
    clx_notify(ctx, "clCreateBuffer: invalid flags %#llx", (unsigned long long)flags);
    return CL_INVALID_VALUE;
  }
  if (size == 0 || size > spvi_max_alloc_size()) {
    clx_notify(ctx, "clCreateBuffer: size %zu is 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE (%llu)", size,
               (unsigned long long)spvi_max_alloc_size());
    return CL_INVALID_BUFFER_SIZE;
  }
  cl_int e = check_host_ptr(flags, size, host);
  if (e != CL_SUCCESS)
    clx_notify(ctx, "clCreateBuffer: host_ptr %p does not suit flags %#llx and size %zu", host,
               (unsigned long long)flags, size);
  return e;
}

static cl_mem buffer_create(cl_context ctx, const cl_mem_properties *props, cl_mem_flags flags, size_t size, void *host,
                            cl_int *err) {
  if (!clx_valid(ctx, CLX_CONTEXT)) return set_err(err, CL_INVALID_CONTEXT), NULL;
  cl_int e = check_create(ctx, props, flags, size, host);
  if (e != CL_SUCCESS) return set_err(err, e), NULL;
  /* CL_MEM_USE_HOST_PTR on SVM memory (5.2.1, CL_MEM_USES_SVM_POINTER): no spvi_mem — kernels are
   * given the SVM address itself (cl_kernel.c passes it with spvi_set_arg_svm), so a pointer a
   * kernel derives from the buffer means the same to the host, as SVM pointers must. */
  bool use = flags & CL_MEM_USE_HOST_PTR, on_svm = use && in_svm(host);
  spvi_error se;
  spvi_mem *sm = on_svm ? NULL : spvi_buffer_new(size, use ? host : NULL, &se);
  if (!on_svm && !sm) {
    clx_notify(ctx, "clCreateBuffer: %s", se.message);
    return set_err(err, spvi_to_cl(&se)), NULL;
  }
  cl_mem m = clx_mem_new(ctx, CL_MEM_OBJECT_BUFFER, flags);
  if (!m) {
    if (sm) spvi_mem_release(sm);
    return set_err(err, CL_OUT_OF_HOST_MEMORY), NULL;
  }
  m->m = sm;
  m->size = size;
  if (use) m->host_ptr = host;
  if (on_svm) m->svm = host;
  if (flags & CL_MEM_COPY_HOST_PTR) memcpy(clx_mem_data(m), host, size);
  if (props) {
    m->props[0] = 0; /* an empty list, as given: CL_MEM_PROPERTIES returns it (5.5.5) */
    m->nprops = 1;
  }
  set_err(err, CL_SUCCESS);
  return m;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host_ptr,
                                               cl_int *err) {
  return buffer_create(ctx, NULL, flags, size, host_ptr, err);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context ctx, const cl_mem_properties *props,
                                                             cl_mem_flags flags, size_t size, void *host_ptr,
                                                             cl_int *err) {
  return buffer_create(ctx, props, flags, size, host_ptr, err);
}

/* A sub-buffer's flags against its parent's (5.2.1 clCreateSubBuffer): no host pointer flags, and
 * no device or host access the parent does not allow. A parent created without an access flag is
 * CL_MEM_READ_WRITE. */
static cl_int check_sub_flags(cl_mem_flags f, cl_mem_flags parent) {
  if (check_buffer_flags(f) != CL_SUCCESS || (f & PTR_FLAGS)) return CL_INVALID_VALUE;
  cl_mem_flags pa = parent & ACCESS_FLAGS ? parent & ACCESS_FLAGS : CL_MEM_READ_WRITE;
  if ((f & CL_MEM_READ_WRITE) && pa != CL_MEM_READ_WRITE) return CL_INVALID_VALUE;
  if ((f & CL_MEM_READ_ONLY) && pa == CL_MEM_WRITE_ONLY) return CL_INVALID_VALUE;
  if ((f & CL_MEM_WRITE_ONLY) && pa == CL_MEM_READ_ONLY) return CL_INVALID_VALUE;
  if ((f & CL_MEM_HOST_READ_ONLY) && (parent & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)))
    return CL_INVALID_VALUE;
  if ((f & CL_MEM_HOST_WRITE_ONLY) && (parent & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)))
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

/* What a sub-buffer inherits (5.2.1): the access and host access flags it does not specify, and
 * the parent's host pointer flags. */
static cl_mem_flags sub_flags(cl_mem_flags f, cl_mem_flags parent) {
  if (!(f & ACCESS_FLAGS)) f |= parent & ACCESS_FLAGS;
  if (!(f & HOST_FLAGS)) f |= parent & HOST_FLAGS;
  return f | (parent & PTR_FLAGS);
}

static cl_int check_region(cl_mem b, cl_buffer_create_type type, const void *info) {
  if (type != CL_BUFFER_CREATE_TYPE_REGION || !info) return CL_INVALID_VALUE;
  const cl_buffer_region *r = info;
  if (r->size == 0) return CL_INVALID_BUFFER_SIZE;
  if (r->origin > b->size || r->size > b->size - r->origin) return CL_INVALID_VALUE;
  /* spvi's only device has CL_DEVICE_MEM_BASE_ADDR_ALIGN 1024 bits */
  if (r->origin % BASE_ALIGN) return CL_MISALIGNED_SUB_BUFFER_OFFSET;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(cl_mem b, cl_mem_flags flags, cl_buffer_create_type type,
                                                  const void *info, cl_int *err) {
  if (!clx_valid(b, CLX_MEM) || b->type != CL_MEM_OBJECT_BUFFER || b->parent)
    return set_err(err, CL_INVALID_MEM_OBJECT), NULL;
  cl_int e = check_sub_flags(flags, b->flags);
  if (e == CL_SUCCESS) e = check_region(b, type, info);
  if (e != CL_SUCCESS) {
    clx_notify(b->ctx, "clCreateSubBuffer: invalid flags %#llx, create type or region for a buffer of %zu bytes",
               (unsigned long long)flags, b->size);
    return set_err(err, e), NULL;
  }
  const cl_buffer_region *r = info;
  spvi_error se;
  /* a sub-buffer of an SVM-backed buffer is SVM-backed too: its part of the SVM range */
  spvi_mem *sm = b->m ? spvi_buffer_view(b->m, r->origin, r->size, &se) : NULL;
  if (b->m && !sm) return set_err(err, spvi_to_cl(&se)), NULL;
  cl_mem m = clx_mem_new(b->ctx, CL_MEM_OBJECT_BUFFER, sub_flags(flags, b->flags));
  if (!m) {
    if (sm) spvi_mem_release(sm);
    return set_err(err, CL_OUT_OF_HOST_MEMORY), NULL;
  }
  m->m = sm;
  m->size = r->size;
  m->origin = r->origin;
  m->parent = b;
  clx_hold(b);
  if (b->host_ptr) m->host_ptr = (char *)b->host_ptr + r->origin;
  if (b->svm) m->svm = (char *)b->svm + r->origin;
  set_err(err, CL_SUCCESS);
  return m;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem m) { return clx_retain(m, CLX_MEM, CL_INVALID_MEM_OBJECT); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem m) { return clx_release(m, CLX_MEM, CL_INVALID_MEM_OBJECT); }

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem m, void(CL_CALLBACK *fn)(cl_mem, void *),
                                                                 void *user) {
  if (!clx_valid(m, CLX_MEM)) return CL_INVALID_MEM_OBJECT;
  if (!fn) return CL_INVALID_VALUE;
  clx_callback *c = calloc(1, sizeof *c);
  if (!c) return CL_OUT_OF_HOST_MEMORY;
  c->fn = (void(CL_CALLBACK *)())fn;
  c->user = user;
  pthread_mutex_lock(&m->lock);
  c->next = m->destructors; /* newest first: they are called in reverse registration order */
  m->destructors = c;
  pthread_mutex_unlock(&m->lock);
  return CL_SUCCESS;
}

/* clGetMemObjectInfo (5.5.5): the params every memory object type answers (images add theirs
 * through clGetImageInfo). */
CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(cl_mem m, cl_mem_info param, size_t size, void *value,
                                                   size_t *size_ret) {
  if (!clx_valid(m, CLX_MEM)) return CL_INVALID_MEM_OBJECT;
  union {
    cl_mem_object_type type;
    cl_mem_flags flags;
    size_t sz;
    void *p;
    cl_uint u;
    cl_context c;
    cl_mem m;
    cl_bool b;
  } v;
  size_t n;
  switch (param) {
  case CL_MEM_TYPE:
    v.type = m->type;
    n = sizeof v.type;
    break;
  case CL_MEM_FLAGS:
    v.flags = m->flags;
    n = sizeof v.flags;
    break;
  case CL_MEM_SIZE:
    v.sz = m->size;
    n = sizeof v.sz;
    break;
  case CL_MEM_HOST_PTR:
    v.p = m->host_ptr;
    n = sizeof v.p;
    break;
  case CL_MEM_MAP_COUNT:
    v.u = atomic_load(&m->map_count);
    n = sizeof v.u;
    break;
  case CL_MEM_REFERENCE_COUNT:
    v.u = clx_refcount(m);
    n = sizeof v.u;
    break;
  case CL_MEM_CONTEXT:
    v.c = m->ctx;
    n = sizeof v.c;
    break;
  case CL_MEM_ASSOCIATED_MEMOBJECT:
    v.m = m->parent;
    n = sizeof v.m;
    break;
  case CL_MEM_OFFSET:
    v.sz = m->origin;
    n = sizeof v.sz;
    break;
  case CL_MEM_USES_SVM_POINTER: /* buffers and sub-buffers only (5.5.5) */
    v.b = m->svm && m->type == CL_MEM_OBJECT_BUFFER ? CL_TRUE : CL_FALSE;
    n = sizeof v.b;
    break;
  case CL_MEM_PROPERTIES: return clx_info(size, value, size_ret, m->props, m->nprops * sizeof *m->props);
  default: return CL_INVALID_VALUE;
  }
  return clx_info(size, value, size_ret, &v, n);
}

/* ---- pipes (5.4): CL_DEVICE_PIPE_SUPPORT is CL_FALSE ------------------------------------------ */

CL_API_ENTRY cl_mem CL_API_CALL clCreatePipe(cl_context ctx, cl_mem_flags flags, cl_uint packet_size,
                                             cl_uint max_packets, const cl_pipe_properties *props, cl_int *err) {
  (void)flags;
  (void)packet_size;
  (void)max_packets;
  (void)props;
  if (!clx_valid(ctx, CLX_CONTEXT)) return set_err(err, CL_INVALID_CONTEXT), NULL;
  /* "CL_INVALID_OPERATION if no devices in context support pipes" (5.4.1) */
  clx_notify(ctx, "clCreatePipe: the device does not support pipes (CL_DEVICE_PIPE_SUPPORT is CL_FALSE)");
  return set_err(err, CL_INVALID_OPERATION), NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info param, size_t size, void *value,
                                              size_t *size_ret) {
  (void)pipe;
  (void)param;
  (void)size;
  (void)value;
  (void)size_ret;
  return CL_INVALID_MEM_OBJECT; /* no pipe object can exist (5.4.2) */
}

/* ---- commands: common checks ------------------------------------------------------------------ */

/* A buffer argument of a command on q (5.2.2 ff.): a valid buffer (not an image) of q's context. */
static cl_int check_buffer(cl_command_queue q, cl_mem b) {
  if (!clx_valid(b, CLX_MEM) || b->type != CL_MEM_OBJECT_BUFFER) return CL_INVALID_MEM_OBJECT;
  return b->ctx == q->ctx ? CL_SUCCESS : CL_INVALID_CONTEXT;
}

/* CL_MISALIGNED_SUB_BUFFER_OFFSET: a sub-buffer's origin must suit q's device. Creation already
 * checks it against the only device, so this holds; it stays as the spec's check per command. */
static cl_int check_aligned(cl_mem b) {
  return b->parent && b->origin % BASE_ALIGN ? CL_MISALIGNED_SUB_BUFFER_OFFSET : CL_SUCCESS;
}

/* [off, off + size) inside `total` bytes, size > 0 (spvi reads an empty transfer as a mistake). */
static bool range_ok(size_t off, size_t size, size_t total) { return size > 0 && off <= total && size <= total - off; }

static void notify_range(cl_mem b, const char *fn, size_t off, size_t size) {
  clx_notify(b->ctx, "%s: bytes [%zu, %zu + %zu) are empty or outside the buffer of %zu bytes", fn, off, off, size,
             b->size);
}

/* Host access flags (5.2.1, CL_MEM_HOST_*): reads and read maps need a host-readable buffer,
 * writes and write maps a host-writable one; CL_INVALID_OPERATION otherwise. */
static cl_int check_host_read(cl_mem b) {
  return b->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) ? CL_INVALID_OPERATION : CL_SUCCESS;
}
static cl_int check_host_write(cl_mem b) {
  return b->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) ? CL_INVALID_OPERATION : CL_SUCCESS;
}

static cl_mem root_of(cl_mem b) { return b->parent ? b->parent : b; }

/* ---- commands: payload and runs ---------------------------------------------------------------- */

/* A rectangle of bytes: an origin (x in bytes, y rows, z slices) and its pitches (5.2.3). */
typedef struct rect {
  size_t origin[3], row, slice;
} rect;

typedef struct xfer {
  cl_mem src, dst; /* held; NULL for the host side */
  uint8_t *host;   /* the host side of reads and writes */
  size_t src_off, dst_off, size;
  size_t region[3]; /* Rect commands */
  rect sr, dr;
  uint8_t pattern[128];
  size_t pattern_size;
  clx_mapping *map; /* unmap: the mapping taken off the object's list */
  cl_mem unmap_mem; /* held */
} xfer;

static void xfer_free(xfer *x) {
  clx_unhold(x->src);
  clx_unhold(x->dst);
  clx_unhold(x->unmap_mem);
  free(x->map);
  free(x);
}

static void xfer_fini(cl_event ev) {
  if (ev->payload) xfer_free(ev->payload);
  ev->payload = NULL;
}

static uint8_t *bytes_of(cl_mem b) { return clx_mem_data(b); }

static cl_int run_read(cl_event ev) {
  xfer *x = ev->payload;
  memmove(x->host, bytes_of(x->src) + x->src_off, x->size);
  return CL_SUCCESS;
}

static cl_int run_write(cl_event ev) {
  xfer *x = ev->payload;
  memmove(bytes_of(x->dst) + x->dst_off, x->host, x->size);
  return CL_SUCCESS;
}

static cl_int run_copy(cl_event ev) {
  xfer *x = ev->payload;
  memmove(bytes_of(x->dst) + x->dst_off, bytes_of(x->src) + x->src_off, x->size);
  return CL_SUCCESS;
}

static size_t rect_at(const rect *r, size_t y, size_t z) {
  return (r->origin[2] + z) * r->slice + (r->origin[1] + y) * r->row + r->origin[0];
}

static cl_int run_rect(cl_event ev) {
  xfer *x = ev->payload;
  uint8_t *d = x->dst ? bytes_of(x->dst) : x->host;
  const uint8_t *s = x->src ? bytes_of(x->src) : x->host;
  for (size_t z = 0; z < x->region[2]; z++)
    for (size_t y = 0; y < x->region[1]; y++)
      memmove(d + rect_at(&x->dr, y, z), s + rect_at(&x->sr, y, z), x->region[0]);
  return CL_SUCCESS;
}

static cl_int run_fill(cl_event ev) {
  xfer *x = ev->payload;
  uint8_t *d = bytes_of(x->dst) + x->dst_off;
  for (size_t i = 0; i < x->size; i += x->pattern_size) memcpy(d + i, x->pattern, x->pattern_size);
  return CL_SUCCESS;
}

static cl_int run_nothing(cl_event ev) {
  (void)ev; /* maps of buffers are zero-copy; migration has nowhere to move to */
  return CL_SUCCESS;
}

static cl_int run_unmap(cl_event ev) {
  xfer *x = ev->payload;
  if (x->unmap_mem->type != CL_MEM_OBJECT_BUFFER) clx_image_unmap(x->unmap_mem, x->map);
  return CL_SUCCESS;
}

/* Create, fill and submit a command whose payload is x (x's objects already held; freed by the
 * command, or here when the command cannot be created). */
static cl_int submit(cl_command_queue q, cl_command_type type, cl_int (*run)(cl_event), xfer *x, cl_uint n,
                     const cl_event *wait, cl_event *out, bool blocking) {
  return clx_submit_command(q, type, run, xfer_fini, x, n, wait, out, blocking);
}

static xfer *xfer_new(cl_mem src, cl_mem dst) {
  xfer *x = calloc(1, sizeof *x);
  if (!x) return NULL;
  x->src = src;
  x->dst = dst;
  clx_hold(src);
  clx_hold(dst);
  return x;
}

/* ---- read and write (5.2.2) ------------------------------------------------------------------- */

static cl_int read_write(cl_command_queue q, cl_mem b, bool is_read, cl_bool blocking, size_t off, size_t size,
                         const void *ptr, cl_uint n, const cl_event *wait, cl_event *out) {
  const char *fn = is_read ? "clEnqueueReadBuffer" : "clEnqueueWriteBuffer";
  if (!clx_valid(q, CLX_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  cl_int e = check_buffer(q, b);
  if (e != CL_SUCCESS) return e;
  if (!range_ok(off, size, b->size)) return notify_range(b, fn, off, size), CL_INVALID_VALUE;
  if (!ptr) return CL_INVALID_VALUE;
  if ((e = clx_check_wait_list(q->ctx, n, wait)) != CL_SUCCESS) return e;
  if ((e = check_aligned(b)) != CL_SUCCESS) return e;
  if ((e = is_read ? check_host_read(b) : check_host_write(b)) != CL_SUCCESS) {
    clx_notify(q->ctx, "%s: the buffer's CL_MEM_HOST_* flags forbid it", fn);
    return e;
  }
  xfer *x = is_read ? xfer_new(b, NULL) : xfer_new(NULL, b);
  if (!x) return CL_OUT_OF_HOST_MEMORY;
  x->host = (uint8_t *)ptr;
  x->src_off = x->dst_off = off;
  x->size = size;
  return submit(q, is_read ? CL_COMMAND_READ_BUFFER : CL_COMMAND_WRITE_BUFFER, is_read ? run_read : run_write, x, n,
                wait, out, blocking);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem b, cl_bool blocking, size_t off,
                                                    size_t size, void *ptr, cl_uint n, const cl_event *wait,
                                                    cl_event *out) {
  return read_write(q, b, true, blocking, off, size, ptr, n, wait, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem b, cl_bool blocking, size_t off,
                                                     size_t size, const void *ptr, cl_uint n, const cl_event *wait,
                                                     cl_event *out) {
  return read_write(q, b, false, blocking, off, size, ptr, n, wait, out);
}

/* ---- Rect forms (5.2.3) ---------------------------------------------------------------------- */

/* Pitches of one side: 0 means tightly packed; a row pitch below region[0], or a slice pitch below
 * region[1] * row pitch or not a multiple of it, is CL_INVALID_VALUE. */
static cl_int rect_pitches(rect *r, const size_t origin[3], const size_t region[3], size_t row, size_t slice) {
  if (!origin) return CL_INVALID_VALUE;
  memcpy(r->origin, origin, sizeof r->origin);
  r->row = row ? row : region[0];
  if (r->row < region[0]) return CL_INVALID_VALUE;
  size_t min_slice;
  if (__builtin_mul_overflow(region[1], r->row, &min_slice)) return CL_INVALID_VALUE;
  r->slice = slice ? slice : min_slice;
  if (r->slice < min_slice || r->slice % r->row) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

/* One past the last byte a rectangle touches, or SIZE_MAX when that overflows. */
static size_t rect_end(const rect *r, const size_t region[3]) {
  size_t a, b, c;
  if (__builtin_add_overflow(r->origin[2], region[2] - 1, &a) || __builtin_mul_overflow(a, r->slice, &a) ||
      __builtin_add_overflow(r->origin[1], region[1] - 1, &b) || __builtin_mul_overflow(b, r->row, &b) ||
      __builtin_add_overflow(r->origin[0], region[0], &c) || __builtin_add_overflow(a, b, &a) ||
      __builtin_add_overflow(a, c, &a))
    return SIZE_MAX;
  return a;
}

static cl_int check_rect_region(const size_t region[3]) {
  return region && region[0] && region[1] && region[2] ? CL_SUCCESS : CL_INVALID_VALUE;
}

static cl_int rect_rw(cl_command_queue q, cl_mem b, bool is_read, cl_bool blocking, const size_t *borigin,
                      const size_t *horigin, const size_t *region, size_t brow, size_t bslice, size_t hrow,
                      size_t hslice, const void *ptr, cl_uint n, const cl_event *wait, cl_event *out) {
  if (!clx_valid(q, CLX_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  cl_int e = check_buffer(q, b);
  if (e != CL_SUCCESS) return e;
  rect br, hr;
  if ((e = check_rect_region(region)) != CL_SUCCESS || (e = rect_pitches(&br, borigin, region, brow, bslice)) ||
      (e = rect_pitches(&hr, horigin, region, hrow, hslice)))
    return e;
  if (rect_end(&br, region) > b->size) {
    clx_notify(q->ctx, "%s: the region is outside the buffer of %zu bytes",
               is_read ? "clEnqueueReadBufferRect" : "clEnqueueWriteBufferRect", b->size);
    return CL_INVALID_VALUE;
  }
  if (!ptr || rect_end(&hr, region) == SIZE_MAX) return CL_INVALID_VALUE;
  if ((e = clx_check_wait_list(q->ctx, n, wait)) != CL_SUCCESS) return e;
  if ((e = check_aligned(b)) != CL_SUCCESS) return e;
  if ((e = is_read ? check_host_read(b) : check_host_write(b)) != CL_SUCCESS) return e;
  xfer *x = is_read ? xfer_new(b, NULL) : xfer_new(NULL, b);
  if (!x) return CL_OUT_OF_HOST_MEMORY;
  x->host = (uint8_t *)ptr;
  memcpy(x->region, region, sizeof x->region);
  x->sr = is_read ? br : hr;
  x->dr = is_read ? hr : br;
  return submit(q, is_read ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT, run_rect, x, n, wait, out,
                blocking);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue q, cl_mem b, cl_bool blocking,
                                                        const size_t *buffer_origin, const size_t *host_origin,
                                                        const size_t *region, size_t buffer_row_pitch,
                                                        size_t buffer_slice_pitch, size_t host_row_pitch,
                                                        size_t host_slice_pitch, void *ptr, cl_uint n,
                                                        const cl_event *wait, cl_event *out) {
  return rect_rw(q, b, true, blocking, buffer_origin, host_origin, region, buffer_row_pitch, buffer_slice_pitch,
                 host_row_pitch, host_slice_pitch, ptr, n, wait, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue q, cl_mem b, cl_bool blocking,
                                                         const size_t *buffer_origin, const size_t *host_origin,
                                                         const size_t *region, size_t buffer_row_pitch,
                                                         size_t buffer_slice_pitch, size_t host_row_pitch,
                                                         size_t host_slice_pitch, const void *ptr, cl_uint n,
                                                         const cl_event *wait, cl_event *out) {
  return rect_rw(q, b, false, blocking, buffer_origin, host_origin, region, buffer_row_pitch, buffer_slice_pitch,
                 host_row_pitch, host_slice_pitch, ptr, n, wait, out);
}

/* ---- copies (5.2.3) and their overlap ------------------------------------------------------------ */

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Does a row of w bytes at `a` meet one of the rows base + y * pitch, y in [0, rows)? Those rows
 * meet it when they start in (a - w, a + w): the first y past a - w decides. */
static bool row_meets_rows(int64_t a, int64_t w, int64_t base, int64_t pitch, int64_t rows) {
  int64_t y = floor_div(a - w - base, pitch) + 1;
  if (y < 0) y = 0;
  return y < rows && base + y * pitch < a + w;
}

/* Whether two rectangles of the same root buffer share a byte (s0, d0: their buffers' offsets in
 * the root):
 * exact, row by row, but only for the slices whose extents meet (each slice of one meets few of
 * the other's), so it costs about as much as the copy's row loop. Both sides have `region`. */
static bool rects_overlap(int64_t s0, const rect *s, int64_t d0, const rect *d, const size_t region[3]) {
  s0 += (int64_t)rect_at(s, 0, 0); /* where each rectangle starts */
  d0 += (int64_t)rect_at(d, 0, 0);
  int64_t w = (int64_t)region[0], rows = (int64_t)region[1], slices = (int64_t)region[2];
  int64_t sext = (rows - 1) * (int64_t)s->row + w, dext = (rows - 1) * (int64_t)d->row + w;
  int64_t ssl = (int64_t)s->slice, dsl = (int64_t)d->slice;
  /* the common case first: the two rectangles' whole byte ranges are apart */
  if (s0 + (slices - 1) * ssl + sext <= d0 || d0 + (slices - 1) * dsl + dext <= s0) return false;
  for (int64_t z1 = 0; z1 < slices; z1++) {
    int64_t lo = s0 + z1 * ssl, hi = lo + sext;
    /* destination slices z2 with [d0 + z2 * dsl, + dext) meeting [lo, hi) */
    int64_t z2 = floor_div(lo - dext - d0, dsl) + 1;
    if (z2 < 0) z2 = 0;
    for (; z2 < slices && d0 + z2 * dsl < hi; z2++)
      for (int64_t y = 0; y < rows; y++)
        if (row_meets_rows(lo + y * (int64_t)s->row, w, d0 + z2 * dsl, (int64_t)d->row, rows)) return true;
  }
  return false;
}

/* The two buffers of a copy: valid buffers of q's context (5.2.3). */
static cl_int check_copy_buffers(cl_command_queue q, cl_mem src, cl_mem dst) {
  if (!clx_valid(src, CLX_MEM) || src->type != CL_MEM_OBJECT_BUFFER || !clx_valid(dst, CLX_MEM) ||
      dst->type != CL_MEM_OBJECT_BUFFER)
    return CL_INVALID_MEM_OBJECT;
  return src->ctx == q->ctx && dst->ctx == q->ctx ? CL_SUCCESS : CL_INVALID_CONTEXT;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_off,
                                                    size_t dst_off, size_t size, cl_uint n, const cl_event *wait,
                                                    cl_event *out) {
  if (!clx_valid(q, CLX_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  cl_int e = check_copy_buffers(q, src, dst);
  if (e != CL_SUCCESS) return e;
  if (!range_ok(src_off, size, src->size))
    return notify_range(src, "clEnqueueCopyBuffer", src_off, size), CL_INVALID_VALUE;
  if (!range_ok(dst_off, size, dst->size))
    return notify_range(dst, "clEnqueueCopyBuffer", dst_off, size), CL_INVALID_VALUE;
  if ((e = clx_check_wait_list(q->ctx, n, wait)) != CL_SUCCESS) return e;
  if ((e = check_aligned(src)) != CL_SUCCESS || (e = check_aligned(dst)) != CL_SUCCESS) return e;
  /* CL_MEM_COPY_OVERLAP: the same buffer, or sub-buffers (or a sub-buffer and its parent) of one
   * buffer, with overlapping byte ranges of that buffer */
  if (root_of(src) == root_of(dst)) {
    size_t a = src->origin + src_off, b = dst->origin + dst_off;
    if (a < b + size && b < a + size) {
      clx_notify(q->ctx, "clEnqueueCopyBuffer: source and destination overlap");
      return CL_MEM_COPY_OVERLAP;
    }
  }
  xfer *x = xfer_new(src, dst);
  if (!x) return CL_OUT_OF_HOST_MEMORY;
  x->src_off = src_off;
  x->dst_off = dst_off;
  x->size = size;
  return submit(q, CL_COMMAND_COPY_BUFFER, run_copy, x, n, wait, out, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst,
                                                        const size_t *src_origin, const size_t *dst_origin,
                                                        const size_t *region, size_t src_row_pitch,
                                                        size_t src_slice_pitch, size_t dst_row_pitch,
                                                        size_t dst_slice_pitch, cl_uint n, const cl_event *wait,
                                                        cl_event *out) {
  if (!clx_valid(q, CLX_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  cl_int e = check_copy_buffers(q, src, dst);
  if (e != CL_SUCCESS) return e;
  rect sr, dr;
  if ((e = check_rect_region(region)) != CL_SUCCESS ||
      (e = rect_pitches(&sr, src_origin, region, src_row_pitch, src_slice_pitch)) ||
      (e = rect_pitches(&dr, dst_origin, region, dst_row_pitch, dst_slice_pitch)))
    return e;
  if (rect_end(&sr, region) > src->size || rect_end(&dr, region) > dst->size) {
    clx_notify(q->ctx, "clEnqueueCopyBufferRect: a region is outside its buffer");
    return CL_INVALID_VALUE;
  }
  /* "src_buffer and dst_buffer are the same buffer object and src_slice_pitch is not equal to
   * dst_slice_pitch and src_row_pitch is not equal to dst_row_pitch" (5.2.3) */
  if (src == dst && sr.slice != dr.slice && sr.row != dr.row) return CL_INVALID_VALUE;
  if ((e = clx_check_wait_list(q->ctx, n, wait)) != CL_SUCCESS) return e;
  if ((e = check_aligned(src)) != CL_SUCCESS || (e = check_aligned(dst)) != CL_SUCCESS) return e;
  if (root_of(src) == root_of(dst) && rects_overlap((int64_t)src->origin, &sr, (int64_t)dst->origin, &dr, region)) {
    clx_notify(q->ctx, "clEnqueueCopyBufferRect: source and destination regions overlap");
    return CL_MEM_COPY_OVERLAP;
  }
  xfer *x = xfer_new(src, dst);
  if (!x) return CL_OUT_OF_HOST_MEMORY;
  memcpy(x->region, region, sizeof x->region);
  x->sr = sr;
  x->dr = dr;
  return submit(q, CL_COMMAND_COPY_BUFFER_RECT, run_rect, x, n, wait, out, false);
}

/* ---- fill (5.2.3) -------------------------------------------------------------------------------- */

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem b, const void *pattern,
                                                    size_t pattern_size, size_t off, size_t size, cl_uint n,
                                                    const cl_event *wait, cl_event *out) {
  if (!clx_valid(q, CLX_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  cl_int e = check_buffer(q, b);
  if (e != CL_SUCCESS) return e;
  if (!range_ok(off, size, b->size)) return notify_range(b, "clEnqueueFillBuffer", off, size), CL_INVALID_VALUE;
  /* pattern_size one of 1, 2, 4, ..., 128; offset and size multiples of it */
  if (!pattern || !pattern_size || (pattern_size & (pattern_size - 1)) || pattern_size > 128) return CL_INVALID_VALUE;
  if (off % pattern_size || size % pattern_size) return CL_INVALID_VALUE;
  if ((e = clx_check_wait_list(q->ctx, n, wait)) != CL_SUCCESS) return e;
  if ((e = check_aligned(b)) != CL_SUCCESS) return e;
  xfer *x = xfer_new(NULL, b);
  if (!x) return CL_OUT_OF_HOST_MEMORY;
  memcpy(x->pattern, pattern, pattern_size); /* the application may reuse it at once */
  x->pattern_size = pattern_size;
  x->dst_off = off;
  x->size = size;
  return submit(q, CL_COMMAND_FILL_BUFFER, run_fill, x, n, wait, out, false);
}

/* ---- map and unmap (5.2.4, 5.5.2) ------------------------------------------------------------------ */

static void mapping_add(cl_mem m, clx_mapping *map) {
  pthread_mutex_lock(&m->lock);
  map->next = m->maps;
  m->maps = map;
  atomic_fetch_add(&m->map_count, 1);
  pthread_mutex_unlock(&m->lock);
}

/* Take the mapping `ptr` (the most recent one, when mapped several times) off m's list. */
static clx_mapping *mapping_take(cl_mem m, const void *ptr, const clx_mapping *which) {
  clx_mapping *found = NULL;
  pthread_mutex_lock(&m->lock);
  for (clx_mapping **pp = &m->maps; *pp; pp = &(*pp)->next)
    if ((which && *pp == which) || (!which && (*pp)->ptr == ptr)) {
      found = *pp;
      *pp = found->next;
      found->next = NULL;
      atomic_fetch_sub(&m->map_count, 1);
      break;
    }
  pthread_mutex_unlock(&m->lock);
  return found;
}

static cl_int check_map(cl_command_queue q, cl_mem b, cl_map_flags flags, size_t off, size_t size, cl_uint n,
                        const cl_event *wait) {
  if (!clx_valid(q, CLX_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  cl_int e = check_buffer(q, b);
  if (e != CL_SUCCESS) return e;
  if (!range_ok(off, size, b->size)) return notify_range(b, "clEnqueueMapBuffer", off, size), CL_INVALID_VALUE;
  if ((e = clx_check_map_flags(flags)) != CL_SUCCESS) return e;
  if ((e = clx_check_wait_list(q->ctx, n, wait)) != CL_SUCCESS) return e;
  if ((e = check_aligned(b)) != CL_SUCCESS) return e;
  /* a read map needs host read access, a write map host write access (5.2.4); a buffer the host
   * may not access at all cannot be mapped whatever the flags */
  if ((flags & CL_MAP_READ) && (e = check_host_read(b)) != CL_SUCCESS) return e;
  if ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && (e = check_host_write(b)) != CL_SUCCESS) return e;
  if (b->flags & CL_MEM_HOST_NO_ACCESS) return CL_INVALID_OPERATION;
  return CL_SUCCESS;
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem b, cl_bool blocking, cl_map_flags flags,
                                                  size_t off, size_t size, cl_uint n, const cl_event *wait,
                                                  cl_event *out, cl_int *err) {
  cl_int e = check_map(q, b, flags, off, size, n, wait);
  if (e != CL_SUCCESS) return set_err(err, e), NULL;
  clx_mapping *map = calloc(1, sizeof *map);
  xfer *x = xfer_new(b, NULL);
  if (!map || !x) {
    free(map);
    if (x) xfer_free(x);
    return set_err(err, CL_OUT_OF_HOST_MEMORY), NULL;
  }
  /* zero-copy: the pointer is into the buffer's own bytes (host_ptr + off for USE_HOST_PTR), and
   * valid as soon as we return, even when the map command has not run yet (5.2.4) */
  map->ptr = bytes_of(b) + off;
  map->offset = off;
  map->size = size;
  map->flags = flags;
  void *ptr = map->ptr; /* once listed, a (misplaced) concurrent unmap may free map */
  mapping_add(b, map);
  e = submit(q, CL_COMMAND_MAP_BUFFER, run_nothing, x, n, wait, out, blocking);
  if (e != CL_SUCCESS) {
    /* a blocking map whose wait list failed: no mapping was made */
    if (mapping_take(b, NULL, map)) free(map);
    return set_err(err, e), NULL;
  }
  set_err(err, CL_SUCCESS);
  return ptr;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *ptr, cl_uint n,
                                                        const cl_event *wait, cl_event *out) {
  if (!clx_valid(q, CLX_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (!clx_valid(m, CLX_MEM)) return CL_INVALID_MEM_OBJECT;
  if (m->ctx != q->ctx) return CL_INVALID_CONTEXT;
  cl_int e = clx_check_wait_list(q->ctx, n, wait);
  if (e != CL_SUCCESS) return e;
  xfer *x = calloc(1, sizeof *x);
  if (!x) return CL_OUT_OF_HOST_MEMORY;
  /* the mapping leaves the list now, so a second unmap of a pointer mapped once fails at once */
  clx_mapping *map = ptr ? mapping_take(m, ptr, NULL) : NULL;
  if (!map) {
    free(x);
    clx_notify(q->ctx, "clEnqueueUnmapMemObject: %p is not a mapped pointer of this memory object", ptr);
    return CL_INVALID_VALUE;
  }
  x->map = map;
  x->unmap_mem = m;
  clx_hold(m);
  return submit(q, CL_COMMAND_UNMAP_MEM_OBJECT, run_unmap, x, n, wait, out, false);
}

/* ---- migration (5.5.4): one device, whose memory is the host's: nothing moves ------------------- */

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint num, const cl_mem *mems,
                                                           cl_mem_migration_flags flags, cl_uint n,
                                                           const cl_event *wait, cl_event *out) {
  if (!clx_valid(q, CLX_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (num == 0 || !mems) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num; i++) {
    if (!clx_valid(mems[i], CLX_MEM)) return CL_INVALID_MEM_OBJECT;
    if (mems[i]->ctx != q->ctx) return CL_INVALID_CONTEXT;
  }
  if (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return CL_INVALID_VALUE;
  cl_int e = clx_check_wait_list(q->ctx, n, wait);
  if (e != CL_SUCCESS) return e;
  cl_event ev = clx_command_new(q, CL_COMMAND_MIGRATE_MEM_OBJECTS);
  if (!ev) return CL_OUT_OF_HOST_MEMORY;
  ev->run = run_nothing;
  return clx_submit(ev, n, wait, out, false);
}
