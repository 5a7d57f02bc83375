/*
 * cl_queue.c — command queues (OpenCL 3.0 API 5.1), markers, barriers, clFlush and clFinish.
 * The commands themselves run in the engine (cl_event.c).
 */
#include <stdlib.h>
#include <string.h>

#include "cl_internal.h"

/* What spvi's device supports: in-order and out-of-order host queues, with or without profiling.
 * On-device queues (device-side enqueue) are absent (CL_DEVICE_MAX_ON_DEVICE_QUEUES 0). */
#define QUEUE_KNOWN \
  (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT)
#define QUEUE_SUPPORTED (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE)

static void queue_destroy(void *obj) {
  cl_command_queue q = obj;
  free(q->pending);
  clx_unhold(q->ctx);
  clx_obj_free(q, sizeof *q);
}

/* Property bits: CL_INVALID_VALUE for unknown bits or an inconsistent set, CL_INVALID_QUEUE_PROPERTIES
 * for valid ones the device does not support (5.1). */
static cl_int check_props(cl_command_queue_properties p) {
  if (p & ~(cl_command_queue_properties)QUEUE_KNOWN) return CL_INVALID_VALUE;
  if ((p & CL_QUEUE_ON_DEVICE_DEFAULT) && !(p & CL_QUEUE_ON_DEVICE)) return CL_INVALID_VALUE;
  if ((p & CL_QUEUE_ON_DEVICE) && !(p & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) return CL_INVALID_VALUE;
  if (p & ~(cl_command_queue_properties)QUEUE_SUPPORTED) return CL_INVALID_QUEUE_PROPERTIES;
  return CL_SUCCESS;
}

static cl_command_queue queue_new(cl_context ctx, cl_device_id dev, cl_command_queue_properties p,
                                  const cl_queue_properties *list, size_t nlist, cl_int *err) {
  cl_int e = CL_SUCCESS;
  cl_command_queue q = NULL;
  if (!clx_valid(ctx, CLX_CONTEXT)) e = CL_INVALID_CONTEXT;
  else if (!clx_is_device(dev)) e = CL_INVALID_DEVICE;
  else if ((e = check_props(p)) != CL_SUCCESS) {
  } else if (!(q = clx_obj_alloc(sizeof *q))) {
    e = CL_OUT_OF_HOST_MEMORY;
  } else {
    q->ctx = ctx;
    q->device = dev;
    q->props = p;
    if (nlist) memcpy(q->prop_list, list, nlist * sizeof *list);
    q->nprop_list = nlist;
    clx_hold(ctx);
    clx_init(q, CLX_QUEUE, queue_destroy);
  }
  if (err) *err = e;
  return q;
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context ctx, cl_device_id dev,
                                                                             const cl_queue_properties *props,
                                                                             cl_int *err) {
  cl_command_queue_properties p = 0;
  size_t n = 0;
  bool seen_props = false, seen_size = false;
  for (; props && props[n]; n += 2) {
    if (n + 2 >= sizeof((struct _cl_command_queue *)0)->prop_list / sizeof(cl_queue_properties)) {
      if (err) *err = CL_INVALID_VALUE;
      return NULL;
    }
    if (props[n] == CL_QUEUE_PROPERTIES && !seen_props) {
      p = (cl_command_queue_properties)props[n + 1];
      seen_props = true;
    } else if (props[n] == CL_QUEUE_SIZE && !seen_size) seen_size = true;
    else {
      if (err) *err = CL_INVALID_VALUE;
      return NULL;
    } /* unknown or repeated (5.1) */
  }
  if (props) n++; /* the terminating 0 is part of CL_QUEUE_PROPERTIES_ARRAY */
  /* CL_QUEUE_SIZE is for on-device queues only, which the device does not have */
  if (seen_size && !(p & CL_QUEUE_ON_DEVICE)) {
    if (err) *err = CL_INVALID_VALUE;
    return NULL;
  }
  return queue_new(ctx, dev, p, props, n, err);
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context ctx, cl_device_id dev,
                                                               cl_command_queue_properties p, cl_int *err) {
  return queue_new(ctx, dev, p, NULL, 0, err);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue q) {
  return clx_retain(q, CLX_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue q) {
  /* the release flushes implicitly (5.1.2); commands already submitted go on, holding the queue */
  return clx_release(q, CLX_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info param, size_t size,
                                                      void *value, size_t *size_ret) {
  if (!clx_valid(q, CLX_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  switch (param) {
  case CL_QUEUE_CONTEXT: return clx_info(size, value, size_ret, &q->ctx, sizeof q->ctx);
  case CL_QUEUE_DEVICE: return clx_info(size, value, size_ret, &q->device, sizeof q->device);
  case CL_QUEUE_REFERENCE_COUNT: {
    cl_uint r = clx_refcount(q);
    return clx_info(size, value, size_ret, &r, sizeof r);
  }
  case CL_QUEUE_PROPERTIES: return clx_info(size, value, size_ret, &q->props, sizeof q->props);
  case CL_QUEUE_PROPERTIES_ARRAY:
    return clx_info(size, value, size_ret, q->prop_list, q->nprop_list * sizeof *q->prop_list);
  case CL_QUEUE_SIZE: return CL_INVALID_COMMAND_QUEUE; /* only device queues have a size */
  case CL_QUEUE_DEVICE_DEFAULT: {
    cl_command_queue none = NULL;
    return clx_info(size, value, size_ret, &none, sizeof none);
  }
  default: return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue q, cl_command_queue_properties p,
                                                          cl_bool enable, cl_command_queue_properties *old) {
  (void)p;
  (void)enable;
  (void)old;
  if (!clx_valid(q, CLX_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  return CL_INVALID_OPERATION; /* removed in OpenCL 1.1; properties are fixed at creation */
}

CL_API_ENTRY cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context ctx, cl_device_id dev, cl_command_queue q) {
  (void)q;
  if (!clx_valid(ctx, CLX_CONTEXT)) return CL_INVALID_CONTEXT;
  if (!clx_is_device(dev)) return CL_INVALID_DEVICE;
  return CL_INVALID_OPERATION; /* the device has no on-device queues (5.1.1) */
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue q) {
  /* commands are submitted to the workers as soon as they are enqueued */
  return clx_valid(q, CLX_QUEUE) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue q) {
  if (!clx_valid(q, CLX_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  clx_finish(q);
  return CL_SUCCESS;
}

/* Markers and barriers: commands that do nothing but wait (5.12). With an empty wait list they wait
 * for every earlier command of the queue; a barrier also makes every later command wait for it. */
static cl_int marker(cl_command_queue q, cl_command_type type, cl_uint n, const cl_event *wait, cl_event *out,
                     bool barrier) {
  if (!clx_valid(q, CLX_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  cl_int e = clx_check_wait_list(q->ctx, n, wait);
  if (e != CL_SUCCESS) return e;
  cl_event ev = clx_command_new(q, type);
  if (!ev) return CL_OUT_OF_HOST_MEMORY;
  return clx_submit_ex(ev, n, wait, out, false, (n ? 0 : CLX_AFTER_ALL) | (barrier ? CLX_BARRIER : 0));
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint n, const cl_event *wait,
                                                            cl_event *out) {
  return marker(q, CL_COMMAND_MARKER, n, wait, out, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint n, const cl_event *wait,
                                                             cl_event *out) {
  return marker(q, CL_COMMAND_BARRIER, n, wait, out, true);
}

/* OpenCL 1.1 forms (deprecated, still in 3.0's API). */
CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue q, cl_event *out) {
  if (!clx_valid(q, CLX_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (!out) return CL_INVALID_VALUE;
  return marker(q, CL_COMMAND_MARKER, 0, NULL, out, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue q) {
  return marker(q, CL_COMMAND_BARRIER, 0, NULL, NULL, true);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue q, cl_uint n, const cl_event *list) {
  if (!clx_valid(q, CLX_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (n == 0 || !list) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < n; i++) {
    if (!clx_valid(list[i], CLX_EVENT)) return CL_INVALID_EVENT;
    if (list[i]->ctx != q->ctx) return CL_INVALID_CONTEXT;
  }
  /* a barrier that waits for the events: later commands wait for it */
  cl_event ev = clx_command_new(q, CL_COMMAND_BARRIER);
  if (!ev) return CL_OUT_OF_HOST_MEMORY;
  return clx_submit_ex(ev, n, list, NULL, false, CLX_BARRIER);
}
