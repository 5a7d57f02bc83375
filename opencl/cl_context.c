/*
 * cl_context.c — contexts (OpenCL 3.0 API 4.4): creation from a device list or a device type,
 * properties, queries, reference counts, destructor callbacks, and clx_notify, the channel through
 * which every file tells the application about errors (the context's pfn_notify).
 *
 * A context lives until the application released it and nothing of spvi holds it any more:
 * queues, memory objects, programs, events hold their context (clx_hold), so its destructor
 * callbacks run once the last of them is gone ("after all the objects associated with it have been
 * released", API 4.4 clSetContextDestructorCallback).
 */
#include "cl_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void(CL_CALLBACK *clx_notify_fn)(const char *, const void *, size_t, void *);
typedef void(CL_CALLBACK *clx_ctx_destructor_fn)(cl_context, void *);

void clx_notify(cl_context ctx, const char *fmt, ...) {
  if (!ctx || !ctx->notify) return;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ctx->notify(msg, NULL, 0, ctx->notify_user);
}

/* Contexts are allocated with clx_obj_alloc: a released one keeps a valid dispatch pointer for
 * stale handles (cl_object.c). */
static cl_context ctx_alloc(void) { return clx_obj_alloc(sizeof(struct _cl_context)); }
static void ctx_free(cl_context ctx) { clx_obj_free(ctx, sizeof *ctx); }

/* Destruction: the destructor callbacks, last registered first (API 4.4: "called in the reverse
 * order they were registered"), then the memory. */
static void ctx_destroy(void *obj) {
  cl_context ctx = obj;
  for (clx_callback *cb = ctx->destructors, *next; cb; cb = next) {
    next = cb->next;
    ((clx_ctx_destructor_fn)cb->fn)(ctx, cb->user);
    free(cb);
  }
  pthread_mutex_destroy(&ctx->lock);
  ctx_free(ctx);
}

/* The properties list (API 4.4, table "List of supported context creation properties"), copied
 * into ctx->props. CL_CONTEXT_PLATFORM must name spvi's platform (CL_INVALID_PLATFORM), and
 * CL_CONTEXT_INTEROP_USER_SYNC be CL_TRUE or CL_FALSE; any other name, or a name given twice, is
 * CL_INVALID_PROPERTY. */
static cl_int parse_properties(const cl_context_properties *props, cl_context_properties out[16], size_t *nout) {
  *nout = 0;
  if (!props) return CL_SUCCESS;
  bool seen_platform = false, seen_sync = false;
  size_t n = 0;
  for (; props[n]; n += 2) {
    cl_context_properties name = props[n], value = props[n + 1];
    bool *seen;
    if (name == CL_CONTEXT_PLATFORM) {
      seen = &seen_platform;
      if (!clx_valid((const void *)value, CLX_PLATFORM)) return CL_INVALID_PLATFORM;
    } else if (name == CL_CONTEXT_INTEROP_USER_SYNC) {
      seen = &seen_sync;
      if (value != CL_TRUE && value != CL_FALSE) return CL_INVALID_PROPERTY;
    } else {
      return CL_INVALID_PROPERTY;
    }
    if (*seen) return CL_INVALID_PROPERTY;
    *seen = true;
  }
  /* two names at most, both different: n <= 4, so the list and its terminator fit */
  memcpy(out, props, (n + 1) * sizeof *props);
  *nout = n + 1;
  return CL_SUCCESS;
}

static cl_context ctx_new(const cl_context_properties *props, clx_notify_fn notify, void *user, cl_int *err) {
  cl_context ctx = ctx_alloc();
  if (!ctx) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  *err = parse_properties(props, ctx->props, &ctx->nprops);
  if (*err != CL_SUCCESS) {
    ctx_free(ctx);
    return NULL;
  }
  ctx->notify = notify;
  ctx->notify_user = user;
  pthread_mutex_init(&ctx->lock, NULL);
  clx_init(ctx, CLX_CONTEXT, ctx_destroy);
  return ctx;
}

static cl_context ctx_result(cl_context ctx, cl_int err, cl_int *errcode_ret) {
  if (errcode_ret) *errcode_ret = err;
  return err == CL_SUCCESS ? ctx : NULL;
}

/* Properties are checked before the other arguments: a context without a valid platform cannot
 * exist whatever its devices (API 4.4 lists CL_INVALID_PLATFORM and CL_INVALID_PROPERTY first). */
static cl_int check_properties(const cl_context_properties *props) {
  cl_context_properties scratch[16];
  size_t n;
  return parse_properties(props, scratch, &n);
}

CLX_API CL_API_ENTRY cl_context CL_API_CALL clCreateContext(const cl_context_properties *properties,
                                                            cl_uint num_devices, const cl_device_id *devices,
                                                            clx_notify_fn pfn_notify, void *user_data,
                                                            cl_int *errcode_ret) {
  cl_int err = check_properties(properties);
  if (err != CL_SUCCESS) return ctx_result(NULL, err, errcode_ret);
  if (!devices || num_devices == 0 || (!pfn_notify && user_data))
    return ctx_result(NULL, CL_INVALID_VALUE, errcode_ret);
  /* duplicates "are ignored": every entry must be spvi's device, the context has that one */
  for (cl_uint i = 0; i < num_devices; i++)
    if (!clx_valid(devices[i], CLX_DEVICE)) return ctx_result(NULL, CL_INVALID_DEVICE, errcode_ret);
  cl_context ctx = ctx_new(properties, pfn_notify, user_data, &err);
  return ctx_result(ctx, err, errcode_ret);
}

#define CLX_DEVICE_TYPE_BITS                                                                       \
  (CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | \
   CL_DEVICE_TYPE_CUSTOM)

CLX_API CL_API_ENTRY cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties *properties,
                                                                    cl_device_type device_type,
                                                                    clx_notify_fn pfn_notify, void *user_data,
                                                                    cl_int *errcode_ret) {
  cl_int err = check_properties(properties);
  if (err != CL_SUCCESS) return ctx_result(NULL, err, errcode_ret);
  if (!pfn_notify && user_data) return ctx_result(NULL, CL_INVALID_VALUE, errcode_ret);
  if (device_type != CL_DEVICE_TYPE_ALL && (device_type == 0 || (device_type & ~(cl_device_type)CLX_DEVICE_TYPE_BITS)))
    return ctx_result(NULL, CL_INVALID_DEVICE_TYPE, errcode_ret);
  /* the one device is a CPU and the default device */
  if (!(device_type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT)))
    return ctx_result(NULL, CL_DEVICE_NOT_FOUND, errcode_ret);
  cl_context ctx = ctx_new(properties, pfn_notify, user_data, &err);
  return ctx_result(ctx, err, errcode_ret);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context context) {
  return clx_retain(context, CLX_CONTEXT, CL_INVALID_CONTEXT);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context context) {
  return clx_release(context, CLX_CONTEXT, CL_INVALID_CONTEXT);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param_name,
                                                         size_t param_value_size, void *param_value,
                                                         size_t *param_value_size_ret) {
  if (!clx_valid(context, CLX_CONTEXT)) return CL_INVALID_CONTEXT;
  size_t size = param_value_size;
  void *out = param_value;
  size_t *ret = param_value_size_ret;
  switch (param_name) {
  case CL_CONTEXT_REFERENCE_COUNT: {
    cl_uint refs = clx_refcount(context);
    return clx_info(size, out, ret, &refs, sizeof refs);
  }
  case CL_CONTEXT_NUM_DEVICES: {
    cl_uint n = 1;
    return clx_info(size, out, ret, &n, sizeof n);
  }
  case CL_CONTEXT_DEVICES: {
    cl_device_id d = &clx_device;
    return clx_info(size, out, ret, &d, sizeof d);
  }
  case CL_CONTEXT_PROPERTIES:
    /* "the properties argument specified in clCreate*": nothing (size 0) when it was NULL */
    return clx_info(size, out, ret, context->props, context->nprops * sizeof context->props[0]);
  default: return CL_INVALID_VALUE;
  }
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clSetContextDestructorCallback(cl_context context,
                                                                       clx_ctx_destructor_fn pfn_notify,
                                                                       void *user_data) {
  if (!clx_valid(context, CLX_CONTEXT)) return CL_INVALID_CONTEXT;
  if (!pfn_notify) return CL_INVALID_VALUE;
  clx_callback *cb = calloc(1, sizeof *cb);
  if (!cb) return CL_OUT_OF_HOST_MEMORY;
  cb->fn = (void(CL_CALLBACK *)())pfn_notify;
  cb->user = user_data;
  /* pushed at the head: ctx_destroy walks the list from the last registered */
  pthread_mutex_lock(&context->lock);
  cb->next = context->destructors;
  context->destructors = cb;
  pthread_mutex_unlock(&context->lock);
  return CL_SUCCESS;
}
