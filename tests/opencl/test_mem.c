/*
 * test_mem.c — buffers, sub-buffers, transfers, map/unmap, destructor callbacks, migration and
 * pipes through the ICD loader (OpenCL 3.0 API 5.2, 5.4, 5.5). Expected values come from the spec
 * (error codes) or from plain C models of the transfers (Rect copies, fills, overlaps).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include "cltest.h"

#include <pthread.h>

/* The group's objects (cltest_group_setup). */
#define plat cltest.platform
#define dev cltest.device
#define ctx cltest.context
#define q cltest.queue

static cl_mem buffer(cl_mem_flags flags, size_t size, void *host) {
  cl_int e;
  cl_mem b = clCreateBuffer(ctx, flags, size, host, &e);
  CHECK(e);
  assert_non_null(b);
  return b;
}

static cl_int create_err(cl_mem_flags flags, size_t size, void *host) {
  cl_int e = 12345;
  cl_mem b = clCreateBuffer(ctx, flags, size, host, &e);
  if (b) clReleaseMemObject(b);
  else assert_int_not_equal(e, CL_SUCCESS);
  return e;
}

/* A program built from OpenCL C source (the build log is printed when the build fails). */
static cl_program program(const char *src) { return cltest_build(ctx, dev, src, ""); }

static cl_ulong max_alloc(void) {
  cl_ulong m;
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof m, &m, NULL));
  return m;
}

static size_t base_align(void) {
  cl_uint bits;
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL));
  return bits / 8;
}

/* ---- creation --------------------------------------------------------------------------------- */

static void t_create_errors(void **state) {
  (void)state;
  char host[64];
  cl_int e;
  assert_null(clCreateBuffer(NULL, CL_MEM_READ_WRITE, 64, NULL, &e));
  assert_int_equal(e, CL_INVALID_CONTEXT);
  assert_null(clCreateBuffer((cl_context)q, CL_MEM_READ_WRITE, 64, NULL, &e)); /* wrong kind of object */
  assert_int_equal(e, CL_INVALID_CONTEXT);
  /* flags (5.2.1, "Memory Flags") */
  assert_int_equal(create_err(CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, NULL), CL_INVALID_VALUE);
  assert_int_equal(create_err(CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY, 64, NULL), CL_INVALID_VALUE);
  assert_int_equal(create_err(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 64, NULL), CL_INVALID_VALUE);
  assert_int_equal(create_err(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, 64, NULL), CL_INVALID_VALUE);
  assert_int_equal(create_err(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, host), CL_INVALID_VALUE);
  assert_int_equal(create_err(CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64, host), CL_INVALID_VALUE);
  assert_int_equal(create_err((cl_mem_flags)1 << 40, 64, NULL), CL_INVALID_VALUE);
  assert_int_equal(create_err(CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, NULL), CL_INVALID_VALUE);
  /* sizes */
  assert_int_equal(create_err(CL_MEM_READ_WRITE, 0, NULL), CL_INVALID_BUFFER_SIZE);
  assert_int_equal(create_err(CL_MEM_READ_WRITE, (size_t)max_alloc() + 1, NULL), CL_INVALID_BUFFER_SIZE);
  /* host_ptr */
  assert_int_equal(create_err(CL_MEM_USE_HOST_PTR, 64, NULL), CL_INVALID_HOST_PTR);
  assert_int_equal(create_err(CL_MEM_COPY_HOST_PTR, 64, NULL), CL_INVALID_HOST_PTR);
  assert_int_equal(create_err(CL_MEM_READ_WRITE, 64, host), CL_INVALID_HOST_PTR);
  assert_int_equal(create_err(CL_MEM_ALLOC_HOST_PTR, 64, host), CL_INVALID_HOST_PTR);
  /* errcode_ret may be NULL */
  cl_mem b = clCreateBuffer(ctx, 0, 64, NULL, NULL);
  assert_non_null(b);
  CHECK(clReleaseMemObject(b));
  assert_null(clCreateBuffer(ctx, 0, 0, NULL, NULL));
}

static void t_create_all_flags(void **state) {
  (void)state;
  const cl_mem_flags access[] = {0, CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
  const cl_mem_flags hosts[] = {0, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_NO_ACCESS};
  const cl_mem_flags ptrs[] = {0, CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR, CL_MEM_ALLOC_HOST_PTR,
                               CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR};
  uint32_t host[32];
  for (int i = 0; i < 32; i++) host[i] = 0xabc00000u + (uint32_t)i;
  for (size_t a = 0; a < 4; a++)
    for (size_t h = 0; h < 4; h++)
      for (size_t p = 0; p < 5; p++) {
        cl_mem_flags f = access[a] | hosts[h] | ptrs[p];
        bool needs = ptrs[p] & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
        cl_mem b = buffer(f, sizeof host, needs ? host : NULL);
        cl_mem_flags got;
        CHECK(clGetMemObjectInfo(b, CL_MEM_FLAGS, sizeof got, &got, NULL));
        assert_int_equal(got, f); /* the flags as given (5.5.5) */
        if (needs && !(hosts[h] & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))) {
          uint32_t back[32];
          CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
          assert_memory_equal(back, host, sizeof host);
        }
        CHECK(clReleaseMemObject(b));
      }
}

static void t_properties(void **state) {
  (void)state;
  cl_int e;
  cl_mem_properties bad[] = {0x4242, 1, 0};
  assert_null(clCreateBufferWithProperties(ctx, bad, 0, 64, NULL, &e));
  assert_int_equal(e, CL_INVALID_PROPERTY);
  assert_null(clCreateBufferWithProperties(NULL, NULL, 0, 64, NULL, &e));
  assert_int_equal(e, CL_INVALID_CONTEXT);
  cl_mem_properties empty[] = {0};
  cl_mem b = clCreateBufferWithProperties(ctx, empty, CL_MEM_READ_WRITE, 64, NULL, &e);
  CHECK(e);
  size_t n = 99;
  cl_mem_properties got[4] = {7, 7, 7, 7};
  CHECK(clGetMemObjectInfo(b, CL_MEM_PROPERTIES, sizeof got, got, &n));
  assert_int_equal(n, sizeof(cl_mem_properties)); /* the list as given: just its terminator */
  assert_int_equal(got[0], 0);
  CHECK(clReleaseMemObject(b));
  b = clCreateBufferWithProperties(ctx, NULL, CL_MEM_READ_WRITE, 64, NULL, &e);
  CHECK(e);
  CHECK(clGetMemObjectInfo(b, CL_MEM_PROPERTIES, 0, NULL, &n));
  assert_int_equal(n, 0);
  CHECK(clReleaseMemObject(b));
  b = buffer(CL_MEM_READ_WRITE, 64, NULL);
  CHECK(clGetMemObjectInfo(b, CL_MEM_PROPERTIES, 0, NULL, &n));
  assert_int_equal(n, 0);
  CHECK(clReleaseMemObject(b));
}

/* ---- queries, retain/release ------------------------------------------------------------------ */

static void t_info(void **state) {
  (void)state;
  size_t align = base_align(), size = 4 * align;
  char *host = aligned_alloc(align, size);
  cl_mem b = buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, size, host);
  cl_mem_object_type type;
  size_t sz, ret;
  void *p;
  cl_uint u;
  cl_context c;
  cl_mem assoc;
  cl_bool svm;
  CHECK(clGetMemObjectInfo(b, CL_MEM_TYPE, sizeof type, &type, &ret));
  assert_int_equal(type, CL_MEM_OBJECT_BUFFER);
  assert_int_equal(ret, sizeof type);
  CHECK(clGetMemObjectInfo(b, CL_MEM_SIZE, sizeof sz, &sz, NULL));
  assert_int_equal(sz, size);
  CHECK(clGetMemObjectInfo(b, CL_MEM_HOST_PTR, sizeof p, &p, NULL));
  assert_ptr_equal(p, host);
  CHECK(clGetMemObjectInfo(b, CL_MEM_MAP_COUNT, sizeof u, &u, &ret));
  assert_int_equal(u, 0);
  assert_int_equal(ret, sizeof u);
  CHECK(clRetainMemObject(b));
  CHECK(clGetMemObjectInfo(b, CL_MEM_REFERENCE_COUNT, sizeof u, &u, NULL));
  assert_int_equal(u, 2);
  CHECK(clReleaseMemObject(b));
  CHECK(clGetMemObjectInfo(b, CL_MEM_REFERENCE_COUNT, sizeof u, &u, NULL));
  assert_int_equal(u, 1);
  CHECK(clGetMemObjectInfo(b, CL_MEM_CONTEXT, sizeof c, &c, NULL));
  assert_ptr_equal(c, ctx);
  CHECK(clGetMemObjectInfo(b, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
  assert_null(assoc);
  CHECK(clGetMemObjectInfo(b, CL_MEM_OFFSET, sizeof sz, &sz, NULL));
  assert_int_equal(sz, 0);
  CHECK(clGetMemObjectInfo(b, CL_MEM_USES_SVM_POINTER, sizeof svm, &svm, &ret));
  assert_int_equal(svm, CL_FALSE);
  assert_int_equal(ret, sizeof svm);
  /* bad params and sizes */
  assert_int_equal(clGetMemObjectInfo(b, 0x7777, sizeof sz, &sz, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetMemObjectInfo(b, CL_MEM_SIZE, 1, &sz, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetMemObjectInfo(NULL, CL_MEM_SIZE, sizeof sz, &sz, NULL), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clGetMemObjectInfo((cl_mem)ctx, CL_MEM_SIZE, sizeof sz, &sz, NULL), CL_INVALID_MEM_OBJECT);

  /* a sub-buffer: offset, parent, host pointer inside the parent's, inherited flags */
  cl_buffer_region r = {align, 2 * align};
  cl_int e;
  cl_mem s = clCreateSubBuffer(b, CL_MEM_HOST_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
  CHECK(e);
  cl_mem_flags f;
  CHECK(clGetMemObjectInfo(s, CL_MEM_FLAGS, sizeof f, &f, NULL));
  assert_int_equal(f, CL_MEM_HOST_READ_ONLY | CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR);
  CHECK(clGetMemObjectInfo(s, CL_MEM_SIZE, sizeof sz, &sz, NULL));
  assert_int_equal(sz, 2 * align);
  CHECK(clGetMemObjectInfo(s, CL_MEM_OFFSET, sizeof sz, &sz, NULL));
  assert_int_equal(sz, align);
  CHECK(clGetMemObjectInfo(s, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
  assert_ptr_equal(assoc, b);
  CHECK(clGetMemObjectInfo(s, CL_MEM_HOST_PTR, sizeof p, &p, NULL));
  assert_ptr_equal(p, host + align);
  CHECK(clGetMemObjectInfo(s, CL_MEM_TYPE, sizeof type, &type, NULL));
  assert_int_equal(type, CL_MEM_OBJECT_BUFFER);
  CHECK(clReleaseMemObject(s));
  CHECK(clReleaseMemObject(b));
  /* (a released handle cannot be tried here: the ICD loader itself reads its dispatch table) */
  assert_int_equal(clRetainMemObject(NULL), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clReleaseMemObject(NULL), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clRetainMemObject((cl_mem)q), CL_INVALID_MEM_OBJECT);
  free(host);
}

/* ---- sub-buffers ------------------------------------------------------------------------------- */

static cl_int sub_err(cl_mem parent, cl_mem_flags flags, cl_buffer_create_type type, const void *info) {
  cl_int e = 12345;
  cl_mem s = clCreateSubBuffer(parent, flags, type, info, &e);
  if (s) clReleaseMemObject(s);
  return e;
}

static void t_sub_buffer_errors(void **state) {
  (void)state;
  size_t a = base_align();
  cl_buffer_region r = {a, a}, zero = {0, 0}, out = {3 * a, 2 * a}, mis = {a / 2, a}, huge = {a, SIZE_MAX};
  cl_mem ro = buffer(CL_MEM_READ_ONLY, 4 * a, NULL),
         wo = buffer(CL_MEM_WRITE_ONLY | CL_MEM_HOST_WRITE_ONLY, 4 * a, NULL);
  cl_mem na = buffer(CL_MEM_HOST_NO_ACCESS, 4 * a, NULL), rw = buffer(0, 4 * a, NULL);
  const cl_buffer_create_type R = CL_BUFFER_CREATE_TYPE_REGION;
  assert_int_equal(sub_err(NULL, 0, R, &r), CL_INVALID_MEM_OBJECT);
  assert_int_equal(sub_err(ro, CL_MEM_READ_WRITE, R, &r), CL_INVALID_VALUE);
  assert_int_equal(sub_err(ro, CL_MEM_WRITE_ONLY, R, &r), CL_INVALID_VALUE);
  assert_int_equal(sub_err(wo, CL_MEM_READ_ONLY, R, &r), CL_INVALID_VALUE);
  assert_int_equal(sub_err(wo, CL_MEM_HOST_READ_ONLY, R, &r), CL_INVALID_VALUE);
  assert_int_equal(sub_err(na, CL_MEM_HOST_WRITE_ONLY, R, &r), CL_INVALID_VALUE);
  assert_int_equal(sub_err(na, CL_MEM_HOST_READ_ONLY, R, &r), CL_INVALID_VALUE);
  assert_int_equal(sub_err(rw, CL_MEM_COPY_HOST_PTR, R, &r), CL_INVALID_VALUE);
  assert_int_equal(sub_err(rw, CL_MEM_USE_HOST_PTR, R, &r), CL_INVALID_VALUE);
  assert_int_equal(sub_err(rw, CL_MEM_ALLOC_HOST_PTR, R, &r), CL_INVALID_VALUE);
  assert_int_equal(sub_err(rw, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, R, &r), CL_INVALID_VALUE);
  assert_int_equal(sub_err(rw, 0, 0x9999, &r), CL_INVALID_VALUE);
  assert_int_equal(sub_err(rw, 0, R, NULL), CL_INVALID_VALUE);
  assert_int_equal(sub_err(rw, 0, R, &zero), CL_INVALID_BUFFER_SIZE);
  assert_int_equal(sub_err(rw, 0, R, &out), CL_INVALID_VALUE);
  assert_int_equal(sub_err(rw, 0, R, &huge), CL_INVALID_VALUE);
  assert_int_equal(sub_err(rw, 0, R, &mis), CL_MISALIGNED_SUB_BUFFER_OFFSET);
  /* what is allowed: narrower access, the same, host no-access under anything; a parent created
   * with flags 0 is read-write */
  assert_int_equal(sub_err(ro, CL_MEM_READ_ONLY, R, &r), CL_SUCCESS);
  assert_int_equal(sub_err(wo, CL_MEM_HOST_NO_ACCESS, R, &r), CL_SUCCESS);
  assert_int_equal(sub_err(rw, CL_MEM_READ_WRITE, R, &r), CL_SUCCESS);
  assert_int_equal(sub_err(rw, CL_MEM_WRITE_ONLY | CL_MEM_HOST_READ_ONLY, R, &r), CL_SUCCESS);
  /* no sub-buffer of a sub-buffer */
  cl_int e;
  cl_mem s = clCreateSubBuffer(rw, 0, R, &r, &e);
  CHECK(e);
  cl_buffer_region r0 = {0, a};
  assert_int_equal(sub_err(s, 0, R, &r0), CL_INVALID_MEM_OBJECT);
  /* inheritance of a write-only, host write-only parent */
  cl_mem s2 = clCreateSubBuffer(wo, 0, R, &r, &e);
  CHECK(e);
  cl_mem_flags f;
  CHECK(clGetMemObjectInfo(s2, CL_MEM_FLAGS, sizeof f, &f, NULL));
  assert_int_equal(f, CL_MEM_WRITE_ONLY | CL_MEM_HOST_WRITE_ONLY);
  CHECK(clReleaseMemObject(s2));
  CHECK(clReleaseMemObject(s));
  CHECK(clReleaseMemObject(ro));
  CHECK(clReleaseMemObject(wo));
  CHECK(clReleaseMemObject(na));
  CHECK(clReleaseMemObject(rw));
}

static void t_sub_buffer_data(void **state) {
  (void)state;
  size_t a = base_align(), n = 4 * a;
  uint8_t init[4 * 128 * 8], back[4 * 128 * 8];
  assert_true(n <= sizeof init);
  for (size_t i = 0; i < n; i++) init[i] = (uint8_t)(i * 7 + 1);
  cl_mem b = buffer(CL_MEM_COPY_HOST_PTR, n, init);
  cl_buffer_region r = {a, 2 * a};
  cl_int e;
  cl_mem s = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
  CHECK(e);
  /* a read of the sub-buffer sees the parent's bytes from the origin on */
  CHECK(clEnqueueReadBuffer(q, s, CL_TRUE, 0, 2 * a, back, 0, NULL, NULL));
  assert_memory_equal(back, init + a, 2 * a);
  /* a write into the sub-buffer lands in the parent */
  uint8_t w[16];
  memset(w, 0xee, sizeof w);
  CHECK(clEnqueueWriteBuffer(q, s, CL_TRUE, 5, sizeof w, w, 0, NULL, NULL));
  memcpy(init + a + 5, w, sizeof w);
  CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, n, back, 0, NULL, NULL));
  assert_memory_equal(back, init, n);
  /* bounds are the sub-buffer's */
  assert_int_equal(clEnqueueReadBuffer(q, s, CL_TRUE, 2 * a - 1, 2, back, 0, NULL, NULL), CL_INVALID_VALUE);
  /* the sub-buffer keeps its parent alive */
  CHECK(clReleaseMemObject(b));
  CHECK(clEnqueueReadBuffer(q, s, CL_TRUE, 0, 2 * a, back, 0, NULL, NULL));
  assert_memory_equal(back, init + a, 2 * a);
  CHECK(clReleaseMemObject(s));
}

/* ---- read and write ------------------------------------------------------------------------------ */

static void t_read_write_errors(void **state) {
  (void)state;
  char buf[256];
  cl_mem b = buffer(CL_MEM_READ_WRITE, 128, NULL);
  assert_int_equal(clEnqueueReadBuffer(NULL, b, CL_TRUE, 0, 16, buf, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clEnqueueReadBuffer(q, NULL, CL_TRUE, 0, 16, buf, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clEnqueueWriteBuffer(q, (cl_mem)q, CL_TRUE, 0, 16, buf, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 120, 16, buf, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueWriteBuffer(q, b, CL_TRUE, 129, 1, buf, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueWriteBuffer(q, b, CL_TRUE, 1, SIZE_MAX, buf, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, 16, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, 0, buf, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, 16, buf, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  cl_event none = NULL;
  assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, 16, buf, 0, &none, NULL), CL_INVALID_EVENT_WAIT_LIST);
  assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, 16, buf, 1, &none, NULL), CL_INVALID_EVENT_WAIT_LIST);
  /* a buffer of another context */
  cl_int e;
  cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
  CHECK(e);
  cl_mem ob = clCreateBuffer(other, 0, 64, NULL, &e);
  CHECK(e);
  assert_int_equal(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, 16, buf, 0, NULL, NULL), CL_INVALID_CONTEXT);
  assert_int_equal(clEnqueueWriteBuffer(q, ob, CL_TRUE, 0, 16, buf, 0, NULL, NULL), CL_INVALID_CONTEXT);
  /* and a wait-list event of another context */
  cl_event uev = clCreateUserEvent(other, &e);
  CHECK(e);
  assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, 16, buf, 1, &uev, NULL), CL_INVALID_CONTEXT);
  CHECK(clSetUserEventStatus(uev, CL_COMPLETE));
  CHECK(clReleaseEvent(uev));
  CHECK(clReleaseMemObject(ob));
  CHECK(clReleaseContext(other));
  /* host access flags */
  cl_mem hr = buffer(CL_MEM_HOST_READ_ONLY, 64, NULL), hw = buffer(CL_MEM_HOST_WRITE_ONLY, 64, NULL);
  cl_mem hn = buffer(CL_MEM_HOST_NO_ACCESS, 64, NULL);
  assert_int_equal(clEnqueueWriteBuffer(q, hr, CL_TRUE, 0, 16, buf, 0, NULL, NULL), CL_INVALID_OPERATION);
  CHECK(clEnqueueReadBuffer(q, hr, CL_TRUE, 0, 16, buf, 0, NULL, NULL));
  assert_int_equal(clEnqueueReadBuffer(q, hw, CL_TRUE, 0, 16, buf, 0, NULL, NULL), CL_INVALID_OPERATION);
  CHECK(clEnqueueWriteBuffer(q, hw, CL_TRUE, 0, 16, buf, 0, NULL, NULL));
  assert_int_equal(clEnqueueReadBuffer(q, hn, CL_TRUE, 0, 16, buf, 0, NULL, NULL), CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueWriteBuffer(q, hn, CL_TRUE, 0, 16, buf, 0, NULL, NULL), CL_INVALID_OPERATION);
  size_t o[3] = {0, 0, 0}, reg[3] = {4, 2, 1};
  assert_int_equal(clEnqueueWriteBufferRect(q, hr, CL_TRUE, o, o, reg, 0, 0, 0, 0, buf, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueReadBufferRect(q, hw, CL_TRUE, o, o, reg, 0, 0, 0, 0, buf, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueReadBufferRect(q, hn, CL_TRUE, o, o, reg, 0, 0, 0, 0, buf, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  /* the device side is not the host's business: copies and fills work on every one of them */
  int zero = 0;
  CHECK(clEnqueueFillBuffer(q, hn, &zero, sizeof zero, 0, 64, 0, NULL, NULL));
  CHECK(clEnqueueCopyBuffer(q, hn, hr, 0, 0, 64, 0, NULL, NULL));
  CHECK(clFinish(q));
  CHECK(clReleaseMemObject(hr));
  CHECK(clReleaseMemObject(hw));
  CHECK(clReleaseMemObject(hn));
  CHECK(clReleaseMemObject(b));
}

static cl_int status_of(cl_event ev) {
  cl_int st;
  CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
  return st;
}

static cl_command_type type_of(cl_event ev) {
  cl_command_type t;
  CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
  return t;
}

static void t_read_write_async(void **state) {
  (void)state;
  enum { N = 1024 };
  static uint32_t src[N], dst[N];
  for (int i = 0; i < N; i++) src[i] = (uint32_t)i * 2654435761u;
  cl_mem b = buffer(0, sizeof src, NULL);
  /* a non-blocking write followed by a blocking read on the in-order queue */
  cl_event w;
  CHECK(clEnqueueWriteBuffer(q, b, CL_FALSE, 0, sizeof src, src, 0, NULL, &w));
  assert_int_equal(type_of(w), CL_COMMAND_WRITE_BUFFER);
  CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof dst, dst, 0, NULL, NULL));
  assert_memory_equal(dst, src, sizeof src);
  assert_int_equal(status_of(w), CL_COMPLETE);
  CHECK(clReleaseEvent(w));

  /* the transfer happens when the command runs, never at enqueue time: a write held back by a
   * user event takes the bytes the host pointer has when it runs, a held read leaves the host
   * memory alone until then */
  cl_int e;
  cl_event gate = clCreateUserEvent(ctx, &e), r;
  CHECK(e);
  uint32_t late[4] = {1, 2, 3, 4}, out[4] = {0, 0, 0, 0};
  CHECK(clEnqueueWriteBuffer(q, b, CL_FALSE, 0, sizeof late, late, 1, &gate, &w));
  CHECK(clEnqueueReadBuffer(q, b, CL_FALSE, 0, sizeof out, out, 1, &gate, &r));
  late[0] = 100; /* after the enqueue, before the command runs */
  usleep(20000);
  assert_int_equal(out[0], 0);
  assert_true(status_of(r) >= CL_SUBMITTED); /* queued or submitted, not run */
  CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK(clWaitForEvents(1, &r));
  assert_int_equal(out[0], 100);
  assert_int_equal(out[3], 4);
  assert_int_equal(type_of(r), CL_COMMAND_READ_BUFFER);
  CHECK(clReleaseEvent(w));
  CHECK(clReleaseEvent(r));
  CHECK(clReleaseEvent(gate));

  /* a blocking read after a failed wait list: CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST */
  gate = clCreateUserEvent(ctx, &e);
  CHECK(e);
  CHECK(clSetUserEventStatus(gate, -42));
  assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 1, &gate, NULL),
                   CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(clReleaseEvent(gate));
  CHECK(clReleaseMemObject(b));
}

/* ---- Rect transfers against a C model ---------------------------------------------------------- */

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(uint64_t n) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return n ? rng % n : 0;
}

typedef struct side {
  size_t origin[3], row, slice;
} side;

static size_t at(const side *s, size_t x, size_t y, size_t z) {
  return (s->origin[2] + z) * s->slice + (s->origin[1] + y) * s->row + s->origin[0] + x;
}

static void model_rect(uint8_t *d, const side *ds, const uint8_t *s, const side *ss, const size_t reg[3]) {
  for (size_t z = 0; z < reg[2]; z++)
    for (size_t y = 0; y < reg[1]; y++)
      for (size_t x = 0; x < reg[0]; x++) d[at(ds, x, y, z)] = s[at(ss, x, y, z)];
}

/* A random region of a W x H x D box with pitches row >= W, slice >= row * H. */
enum { W = 23, H = 9, D = 5 };
static void random_side(side *s, size_t reg[3], bool pick_region, size_t row, size_t slice) {
  if (pick_region) {
    reg[0] = 1 + rnd(W);
    reg[1] = 1 + rnd(H);
    reg[2] = 1 + rnd(D);
  }
  s->origin[0] = rnd(W - reg[0] + 1);
  s->origin[1] = rnd(H - reg[1] + 1);
  s->origin[2] = rnd(D - reg[2] + 1);
  s->row = row;
  s->slice = slice;
}

static void t_rect(void **state) {
  (void)state;
  const size_t brow = W + 3, bslice = brow * H + 2 * brow, bsize = bslice * D;
  const size_t hrow = W + 1, hslice = hrow * H, hsize = hslice * D;
  uint8_t *model = calloc(1, bsize), *model2 = calloc(1, bsize), *host = malloc(hsize), *got = malloc(bsize);
  cl_mem b = buffer(0, bsize, NULL), b2 = buffer(0, bsize, NULL);
  int zero = 0;
  CHECK(clEnqueueFillBuffer(q, b, &zero, 1, 0, bsize, 0, NULL, NULL));
  CHECK(clEnqueueFillBuffer(q, b2, &zero, 1, 0, bsize, 0, NULL, NULL));
  for (int it = 0; it < 200; it++) {
    size_t reg[3];
    side bs, hs;
    random_side(&bs, reg, true, brow, bslice);
    random_side(&hs, reg, false, hrow, hslice);
    for (size_t i = 0; i < hsize; i++) host[i] = (uint8_t)rnd(256);
    CHECK(clEnqueueWriteBufferRect(q, b, CL_TRUE, bs.origin, hs.origin, reg, brow, bslice, hrow, hslice, host, 0, NULL,
                                   NULL));
    model_rect(model, &bs, host, &hs, reg);
    /* a read of a random region into a fresh host image */
    size_t reg2[3];
    side bs2, hs2;
    random_side(&bs2, reg2, true, brow, bslice);
    random_side(&hs2, reg2, false, hrow, hslice);
    uint8_t *want = malloc(hsize);
    memset(host, 0x5a, hsize);
    memcpy(want, host, hsize);
    CHECK(clEnqueueReadBufferRect(q, b, CL_TRUE, bs2.origin, hs2.origin, reg2, brow, bslice, hrow, hslice, host, 0,
                                  NULL, NULL));
    model_rect(want, &hs2, model, &bs2, reg2);
    assert_memory_equal(host, want, hsize);
    free(want);
    /* a copy into the second buffer, its rows 1 byte longer */
    size_t reg3[3];
    side s3, d3;
    random_side(&s3, reg3, true, brow, bslice);
    random_side(&d3, reg3, false, brow, bslice);
    CHECK(clEnqueueCopyBufferRect(q, b, b2, s3.origin, d3.origin, reg3, brow, bslice, brow, bslice, 0, NULL, NULL));
    model_rect(model2, &d3, model, &s3, reg3);
  }
  CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, bsize, got, 0, NULL, NULL));
  assert_memory_equal(got, model, bsize);
  CHECK(clEnqueueReadBuffer(q, b2, CL_TRUE, 0, bsize, got, 0, NULL, NULL));
  assert_memory_equal(got, model2, bsize);

  /* pitches 0: tightly packed on both sides, i.e. a plain copy of region[0]*[1]*[2] bytes */
  size_t o[3] = {0, 0, 0}, reg[3] = {4, 3, 2};
  uint8_t tight[24], back[24];
  for (int i = 0; i < 24; i++) tight[i] = (uint8_t)(200 + i);
  CHECK(clEnqueueWriteBufferRect(q, b, CL_TRUE, o, o, reg, 0, 0, 0, 0, tight, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, 24, back, 0, NULL, NULL));
  assert_memory_equal(back, tight, 24);

  /* errors (5.2.3) */
  size_t r0[3] = {4, 0, 1}, big[3] = {brow, H, D + 1}, far[3] = {0, 0, D};
  assert_int_equal(clEnqueueReadBufferRect(q, b, CL_TRUE, o, o, r0, 0, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadBufferRect(q, b, CL_TRUE, o, o, NULL, 0, 0, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadBufferRect(q, b, CL_TRUE, NULL, o, reg, 0, 0, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadBufferRect(q, b, CL_TRUE, o, o, reg, 0, 0, 0, 0, NULL, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadBufferRect(q, b, CL_TRUE, o, o, reg, 3, 0, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadBufferRect(q, b, CL_TRUE, o, o, reg, 0, 0, 3, 0, host, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadBufferRect(q, b, CL_TRUE, o, o, reg, 8, 20, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadBufferRect(q, b, CL_TRUE, o, o, reg, 8, 28, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadBufferRect(q, b, CL_TRUE, o, o, reg, 0, 0, 8, 12, host, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadBufferRect(q, b, CL_TRUE, o, o, big, brow, bslice, brow, bslice, host, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clEnqueueWriteBufferRect(q, b, CL_TRUE, far, o, reg, brow, bslice, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadBufferRect(NULL, b, CL_TRUE, o, o, reg, 0, 0, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clEnqueueReadBufferRect(q, NULL, CL_TRUE, o, o, reg, 0, 0, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_MEM_OBJECT);
  assert_int_equal(clEnqueueCopyBufferRect(q, b, b2, o, o, r0, 0, 0, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueCopyBufferRect(q, b, b2, o, o, big, brow, bslice, brow, bslice, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clEnqueueCopyBufferRect(q, b, NULL, o, o, reg, 0, 0, 0, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  /* the same buffer with both pitches different */
  size_t o2[3] = {0, 0, 3};
  assert_int_equal(clEnqueueCopyBufferRect(q, b, b, o, o2, reg, 8, 32, 16, 64, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK(clReleaseMemObject(b));
  CHECK(clReleaseMemObject(b2));
  free(model);
  free(model2);
  free(host);
  free(got);
}

/* ---- copies and overlap ------------------------------------------------------------------------ */

static void t_copy(void **state) {
  (void)state;
  size_t a = base_align(), n = 4 * a;
  uint8_t *init = malloc(n), *back = malloc(n);
  for (size_t i = 0; i < n; i++) init[i] = (uint8_t)(i ^ 0x55);
  cl_mem b = buffer(CL_MEM_COPY_HOST_PTR, n, init), c = buffer(0, n, NULL);
  cl_event ev;
  CHECK(clEnqueueCopyBuffer(q, b, c, 10, 20, 100, 0, NULL, &ev));
  assert_int_equal(type_of(ev), CL_COMMAND_COPY_BUFFER);
  CHECK(clReleaseEvent(ev));
  CHECK(clEnqueueReadBuffer(q, c, CL_TRUE, 20, 100, back, 0, NULL, NULL));
  assert_memory_equal(back, init + 10, 100);
  /* within one buffer: disjoint ranges are fine, touching ones too */
  CHECK(clEnqueueCopyBuffer(q, b, b, 0, 100, 100, 0, NULL, NULL));
  memcpy(init + 100, init, 100);
  CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, n, back, 0, NULL, NULL));
  assert_memory_equal(back, init, n);
  /* overlapping ones are CL_MEM_COPY_OVERLAP */
  assert_int_equal(clEnqueueCopyBuffer(q, b, b, 0, 99, 100, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  assert_int_equal(clEnqueueCopyBuffer(q, b, b, 50, 0, 100, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  assert_int_equal(clEnqueueCopyBuffer(q, b, b, 7, 7, 1, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  /* sub-buffers of one buffer overlap in their parent's bytes; a sub-buffer and its parent too */
  cl_buffer_region r1 = {0, 2 * a}, r2 = {a, 2 * a};
  cl_int e;
  cl_mem s1 = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &e);
  CHECK(e);
  cl_mem s2 = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &e);
  CHECK(e);
  assert_int_equal(clEnqueueCopyBuffer(q, s1, s2, a, 0, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  assert_int_equal(clEnqueueCopyBuffer(q, s2, b, 0, a + 8, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  CHECK(clEnqueueCopyBuffer(q, s1, s2, 0, a, 16, 0, NULL, NULL)); /* parent bytes [0,16) -> [2a, 2a+16) */
  memcpy(init + 2 * a, init, 16);
  CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, n, back, 0, NULL, NULL));
  assert_memory_equal(back, init, n);
  /* errors */
  assert_int_equal(clEnqueueCopyBuffer(q, b, c, n - 4, 0, 8, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueCopyBuffer(q, b, c, 0, n - 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueCopyBuffer(q, b, c, 0, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueCopyBuffer(q, NULL, c, 0, 0, 8, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clEnqueueCopyBuffer(q, b, NULL, 0, 0, 8, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clEnqueueCopyBuffer(NULL, b, c, 0, 0, 8, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
  CHECK(e);
  cl_mem ob = clCreateBuffer(other, 0, n, NULL, &e);
  CHECK(e);
  assert_int_equal(clEnqueueCopyBuffer(q, b, ob, 0, 0, 8, 0, NULL, NULL), CL_INVALID_CONTEXT);
  CHECK(clReleaseMemObject(ob));
  CHECK(clReleaseContext(other));
  CHECK(clReleaseMemObject(s1));
  CHECK(clReleaseMemObject(s2));
  CHECK(clReleaseMemObject(b));
  CHECK(clReleaseMemObject(c));
  free(init);
  free(back);
}

/* Rect copies inside one buffer: CL_MEM_COPY_OVERLAP exactly when the two regions share a byte
 * (computed by marking bytes), the data right otherwise. */
static void t_copy_rect_overlap(void **state) {
  (void)state;
  enum { ROW = 16, SLICE = 16 * 6, SLICES = 4, SIZE = SLICE * SLICES };
  uint8_t model[SIZE], back[SIZE], mark[SIZE];
  for (int i = 0; i < SIZE; i++) model[i] = (uint8_t)rnd(256);
  cl_mem b = buffer(CL_MEM_COPY_HOST_PTR, SIZE, model);
  int overlaps = 0, copies = 0;
  for (int it = 0; it < 400; it++) {
    size_t reg[3] = {1 + rnd(ROW), 1 + rnd(6), 1 + rnd(SLICES)};
    side s = {{rnd(ROW - reg[0] + 1), rnd(6 - reg[1] + 1), rnd(SLICES - reg[2] + 1)}, ROW, SLICE};
    side d = {{rnd(ROW - reg[0] + 1), rnd(6 - reg[1] + 1), rnd(SLICES - reg[2] + 1)}, ROW, SLICE};
    memset(mark, 0, sizeof mark);
    bool overlap = false;
    for (size_t z = 0; z < reg[2]; z++)
      for (size_t y = 0; y < reg[1]; y++)
        for (size_t x = 0; x < reg[0]; x++) mark[at(&s, x, y, z)] = 1;
    for (size_t z = 0; z < reg[2]; z++)
      for (size_t y = 0; y < reg[1]; y++)
        for (size_t x = 0; x < reg[0]; x++) overlap |= mark[at(&d, x, y, z)];
    cl_int e = clEnqueueCopyBufferRect(q, b, b, s.origin, d.origin, reg, ROW, SLICE, ROW, SLICE, 0, NULL, NULL);
    if (overlap != (e == CL_MEM_COPY_OVERLAP))
      print_message("overlap %d: s (%zu,%zu,%zu) d (%zu,%zu,%zu) region (%zu,%zu,%zu)\n", overlap, s.origin[0],
                    s.origin[1], s.origin[2], d.origin[0], d.origin[1], d.origin[2], reg[0], reg[1], reg[2]);
    if (overlap) {
      assert_int_equal(e, CL_MEM_COPY_OVERLAP);
      overlaps++;
    } else {
      CHECK(e);
      model_rect(model, &d, model, &s, reg);
      copies++;
    }
  }
  assert_true(overlaps > 20 && copies > 20);
  CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, SIZE, back, 0, NULL, NULL));
  assert_memory_equal(back, model, SIZE);
  /* two sub-buffers of one buffer, with pitches of their own: overlap is in the parent's bytes */
  size_t a = base_align(), psize = 4 * a;
  uint8_t *pm = malloc(psize), *pmark = malloc(psize), *pback = malloc(psize);
  for (size_t i = 0; i < psize; i++) pm[i] = (uint8_t)rnd(256);
  cl_mem parent = buffer(CL_MEM_COPY_HOST_PTR, psize, pm);
  cl_buffer_region r1 = {0, 3 * a}, r2 = {a, 3 * a};
  cl_int err;
  cl_mem sub[2] = {clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err), NULL};
  CHECK(err);
  sub[1] = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
  CHECK(err);
  const size_t origin_of[2] = {0, a};
  overlaps = copies = 0;
  for (int it = 0; it < 600; it++) {
    size_t reg[3] = {1 + rnd(12), 1 + rnd(4), 1 + rnd(3)};
    int si = (int)rnd(2), di = 1 - si;
    side s, d;
    s.row = reg[0] + rnd(8), d.row = reg[0] + rnd(8);
    s.slice = s.row * (reg[1] + rnd(3)), d.slice = d.row * (reg[1] + rnd(3));
    for (int k = 0; k < 2; k++) {
      side *x = k ? &d : &s;
      x->origin[0] = rnd(x->row - reg[0] + 1);
      x->origin[1] = rnd(3);
      x->origin[2] = rnd(2);
    }
    if (at(&s, reg[0] - 1, reg[1] - 1, reg[2] - 1) >= 3 * a || at(&d, reg[0] - 1, reg[1] - 1, reg[2] - 1) >= 3 * a)
      continue;
    memset(pmark, 0, psize);
    bool overlap = false;
    for (size_t z = 0; z < reg[2]; z++)
      for (size_t y = 0; y < reg[1]; y++)
        for (size_t x = 0; x < reg[0]; x++) pmark[origin_of[si] + at(&s, x, y, z)] = 1;
    for (size_t z = 0; z < reg[2]; z++)
      for (size_t y = 0; y < reg[1]; y++)
        for (size_t x = 0; x < reg[0]; x++) overlap |= pmark[origin_of[di] + at(&d, x, y, z)];
    cl_int e = clEnqueueCopyBufferRect(q, sub[si], sub[di], s.origin, d.origin, reg, s.row, s.slice, d.row, d.slice, 0,
                                       NULL, NULL);
    if (overlap) {
      assert_int_equal(e, CL_MEM_COPY_OVERLAP);
      overlaps++;
    } else {
      CHECK(e);
      model_rect(pm + origin_of[di], &d, pm + origin_of[si], &s, reg);
      copies++;
    }
  }
  assert_true(overlaps > 20 && copies > 20);
  CHECK(clEnqueueReadBuffer(q, parent, CL_TRUE, 0, psize, pback, 0, NULL, NULL));
  assert_memory_equal(pback, pm, psize);
  CHECK(clReleaseMemObject(sub[0]));
  CHECK(clReleaseMemObject(sub[1]));
  CHECK(clReleaseMemObject(parent));
  free(pm);
  free(pmark);
  free(pback);

  /* interleaved rows: columns [0,8) to [8,16) of the same rows share no byte */
  size_t so[3] = {0, 0, 0}, dorg[3] = {8, 0, 0}, reg[3] = {8, 6, SLICES};
  CHECK(clEnqueueCopyBufferRect(q, b, b, so, dorg, reg, ROW, SLICE, ROW, SLICE, 0, NULL, NULL));
  side s = {{0, 0, 0}, ROW, SLICE}, d = {{8, 0, 0}, ROW, SLICE};
  model_rect(model, &d, model, &s, reg);
  CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, SIZE, back, 0, NULL, NULL));
  assert_memory_equal(back, model, SIZE);
  CHECK(clReleaseMemObject(b));
}

/* ---- fill ------------------------------------------------------------------------------------------ */

static void t_fill(void **state) {
  (void)state;
  enum { N = 4096 };
  uint8_t model[N], back[N], pattern[128];
  memset(model, 0, N);
  cl_mem b = buffer(0, N, NULL);
  for (size_t ps = 1; ps <= 128; ps *= 2) {
    for (size_t i = 0; i < ps; i++) pattern[i] = (uint8_t)(ps * 3 + i + 1);
    size_t off = ps * rnd(N / ps / 2), size = ps * (1 + rnd((N - off) / ps));
    cl_event ev;
    CHECK(clEnqueueFillBuffer(q, b, pattern, ps, off, size, 0, NULL, &ev));
    memset(pattern, 0, sizeof pattern); /* the pattern is copied at enqueue time */
    assert_int_equal(type_of(ev), CL_COMMAND_FILL_BUFFER);
    CHECK(clReleaseEvent(ev));
    for (size_t i = 0; i < size; i++) model[off + i] = (uint8_t)(ps * 3 + i % ps + 1);
    CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N, back, 0, NULL, NULL));
    assert_memory_equal(back, model, N);
  }
  /* errors: pattern sizes, multiples, bounds */
  const size_t bad_ps[] = {0, 3, 6, 12, 256};
  for (size_t i = 0; i < sizeof bad_ps / sizeof *bad_ps; i++)
    assert_int_equal(clEnqueueFillBuffer(q, b, pattern, bad_ps[i], 0, 768, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueFillBuffer(q, b, NULL, 4, 0, 64, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueFillBuffer(q, b, pattern, 4, 2, 64, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueFillBuffer(q, b, pattern, 4, 0, 62, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueFillBuffer(q, b, pattern, 4, N - 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueFillBuffer(q, NULL, pattern, 4, 0, 8, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clEnqueueFillBuffer(NULL, b, pattern, 4, 0, 8, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK(clReleaseMemObject(b));
}

/* ---- map and unmap ---------------------------------------------------------------------------------- */

static void t_map(void **state) {
  (void)state;
  enum { N = 512 };
  cl_int e;
  uint8_t back[N];
  cl_mem b = buffer(0, N, NULL);
  cl_event ev;
  uint8_t *p = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_WRITE, 0, N, 0, NULL, &ev, &e);
  CHECK(e);
  assert_non_null(p);
  assert_int_equal(type_of(ev), CL_COMMAND_MAP_BUFFER);
  CHECK(clReleaseEvent(ev));
  for (int i = 0; i < N; i++) p[i] = (uint8_t)(i * 5);
  cl_uint count;
  CHECK(clGetMemObjectInfo(b, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
  assert_int_equal(count, 1);
  /* a second map of part of it, then both unmapped */
  uint8_t *p2 = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, 100, 50, 0, NULL, NULL, &e);
  CHECK(e);
  assert_int_equal(p2[0], (uint8_t)(100 * 5));
  CHECK(clGetMemObjectInfo(b, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
  assert_int_equal(count, 2);
  CHECK(clEnqueueUnmapMemObject(q, b, p2, 0, NULL, &ev));
  assert_int_equal(type_of(ev), CL_COMMAND_UNMAP_MEM_OBJECT);
  CHECK(clReleaseEvent(ev));
  CHECK(clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL));
  CHECK(clGetMemObjectInfo(b, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
  assert_int_equal(count, 0);
  CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N, back, 0, NULL, NULL));
  for (int i = 0; i < N; i++) assert_int_equal(back[i], (uint8_t)(i * 5));
  /* unmapping what is not mapped */
  assert_int_equal(clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueUnmapMemObject(q, b, back, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueUnmapMemObject(q, b, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueUnmapMemObject(q, NULL, p, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clEnqueueUnmapMemObject(NULL, b, p, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  /* the same pointer mapped twice needs two unmaps */
  p = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &e);
  p2 = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &e);
  assert_ptr_equal(p, p2);
  CHECK(clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL));
  CHECK(clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL));
  assert_int_equal(clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL), CL_INVALID_VALUE);
  /* map errors */
  assert_null(clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, 0, NULL, NULL,
                                 &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, 0, NULL, NULL,
                                 &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clEnqueueMapBuffer(q, b, CL_TRUE, (cl_map_flags)1 << 9, 0, 16, 0, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, N - 8, 16, 0, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_VALUE);
  assert_null(clEnqueueMapBuffer(q, NULL, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_MEM_OBJECT);
  assert_null(clEnqueueMapBuffer(NULL, b, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_COMMAND_QUEUE);
  assert_null(clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, 0, 16, 1, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_EVENT_WAIT_LIST);
  CHECK(clGetMemObjectInfo(b, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
  assert_int_equal(count, 0); /* failed maps leave nothing mapped */
  /* WRITE_INVALIDATE_REGION alone is fine */
  p = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 8, 8, 0, NULL, NULL, &e);
  CHECK(e);
  CHECK(clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL));
  /* host access flags */
  cl_mem hr = buffer(CL_MEM_HOST_READ_ONLY, 64, NULL), hw = buffer(CL_MEM_HOST_WRITE_ONLY, 64, NULL);
  cl_mem hn = buffer(CL_MEM_HOST_NO_ACCESS, 64, NULL);
  assert_null(clEnqueueMapBuffer(q, hr, CL_TRUE, CL_MAP_WRITE, 0, 16, 0, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_OPERATION);
  assert_null(clEnqueueMapBuffer(q, hr, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, 0, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_OPERATION);
  assert_null(clEnqueueMapBuffer(q, hw, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_OPERATION);
  assert_null(clEnqueueMapBuffer(q, hn, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_OPERATION);
  assert_null(clEnqueueMapBuffer(q, hn, CL_TRUE, CL_MAP_WRITE, 0, 16, 0, NULL, NULL, &e));
  assert_int_equal(e, CL_INVALID_OPERATION);
  p = clEnqueueMapBuffer(q, hr, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &e);
  CHECK(e);
  CHECK(clEnqueueUnmapMemObject(q, hr, p, 0, NULL, NULL));
  p = clEnqueueMapBuffer(q, hw, CL_TRUE, CL_MAP_WRITE, 0, 16, 0, NULL, NULL, &e);
  CHECK(e);
  CHECK(clEnqueueUnmapMemObject(q, hw, p, 0, NULL, NULL));
  CHECK(clFinish(q));
  CHECK(clReleaseMemObject(hr));
  CHECK(clReleaseMemObject(hw));
  CHECK(clReleaseMemObject(hn));
  CHECK(clReleaseMemObject(b));
}

static void t_map_use_host_ptr(void **state) {
  (void)state;
  size_t a = base_align();
  uint8_t *host = aligned_alloc(a, 4 * a);
  for (size_t i = 0; i < 4 * a; i++) host[i] = (uint8_t)i;
  cl_mem b = buffer(CL_MEM_USE_HOST_PTR, 4 * a, host);
  cl_int e;
  /* 5.2.4: for CL_MEM_USE_HOST_PTR the pointer is host_ptr + offset */
  uint8_t *p = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 40, 100, 0, NULL, NULL, &e);
  CHECK(e);
  assert_ptr_equal(p, host + 40);
  CHECK(clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL));
  /* and for its sub-buffers too */
  cl_buffer_region r = {a, a};
  cl_mem s = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
  CHECK(e);
  p = clEnqueueMapBuffer(q, s, CL_TRUE, CL_MAP_READ, 4, 8, 0, NULL, NULL, &e);
  CHECK(e);
  assert_ptr_equal(p, host + a + 4);
  /* a non-blocking map returns the pointer at once, usable once its event completes */
  cl_event gate = clCreateUserEvent(ctx, &e), ev;
  CHECK(e);
  uint8_t *p2 = clEnqueueMapBuffer(q, b, CL_FALSE, CL_MAP_READ, 0, 8, 1, &gate, &ev, &e);
  CHECK(e);
  assert_ptr_equal(p2, host);
  usleep(10000);
  assert_int_not_equal(status_of(ev), CL_COMPLETE);
  CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK(clWaitForEvents(1, &ev));
  assert_int_equal(p2[3], 3);
  CHECK(clReleaseEvent(ev));
  CHECK(clReleaseEvent(gate));
  CHECK(clEnqueueUnmapMemObject(q, b, p2, 0, NULL, NULL));
  CHECK(clEnqueueUnmapMemObject(q, s, p, 0, NULL, NULL));
  CHECK(clFinish(q));
  CHECK(clReleaseMemObject(s));
  CHECK(clReleaseMemObject(b));
  free(host);
}

/* ---- kernels see CL_MEM_USE_HOST_PTR memory in place ---------------------------------------------- */

static void t_use_host_ptr_kernel(void **state) {
  (void)state;
  enum { N = 64 };
  size_t a = base_align();
  int *host = aligned_alloc(a, ((N * sizeof(int) + a - 1) / a) * a);
  for (int i = 0; i < N; i++) host[i] = i * 10;
  cl_program p = program("kernel void inc(global int *p) { p[get_global_id(0)] += 1; }\n");
  cl_int e;
  cl_kernel k = clCreateKernel(p, "inc", &e);
  CHECK(e);
  cl_mem b = buffer(CL_MEM_USE_HOST_PTR, N * sizeof(int), host);
  CHECK(clSetKernelArg(k, 0, sizeof b, &b));
  size_t g = N;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  CHECK(clFinish(q));
  for (int i = 0; i < N; i++) assert_int_equal(host[i], i * 10 + 1); /* zero-copy: visible after finish */
  int *m = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, 0, N * sizeof(int), 0, NULL, NULL, &e);
  CHECK(e);
  assert_ptr_equal(m, host);
  for (int i = 0; i < N; i++) assert_int_equal(m[i], i * 10 + 1);
  CHECK(clEnqueueUnmapMemObject(q, b, m, 0, NULL, NULL));
  /* a sub-buffer as the argument: the kernel sees its part only */
  cl_buffer_region r = {a, a};
  if (r.origin + r.size <= N * sizeof(int)) {
    cl_mem s = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
    CHECK(e);
    CHECK(clSetKernelArg(k, 0, sizeof s, &s));
    g = a / sizeof(int);
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    CHECK(clFinish(q));
    for (int i = 0; i < N; i++)
      assert_int_equal(host[i], i * 10 + 1 + ((size_t)i * sizeof(int) >= a && (size_t)i * sizeof(int) < 2 * a));
    CHECK(clReleaseMemObject(s));
  }
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
  CHECK(clReleaseMemObject(b));
  free(host);
}

/* ---- one memory object in two arguments ------------------------------------------------------------- */

/* The same cl_mem set for two arguments, and two sub-buffers of one buffer, are one object to the
 * kernel: the same device address (a == b, b - a == 0), and sub-buffers at their origins' distance
 * (b - a in ints = (origin_b - origin_a) / sizeof(int)), as on any device. */
static void t_same_mem_args(void **state) {
  (void)state;
  size_t a = base_align();
  cl_program p = program("kernel void same(global int *a, global int *b, global long *out) {\n"
                         "  out[0] = a == b; out[1] = b - a; }\n");
  cl_int e;
  cl_kernel k = clCreateKernel(p, "same", &e);
  CHECK(e);
  cl_mem b = buffer(0, 2 * a, NULL), out = buffer(0, 2 * sizeof(cl_long), NULL);
  cl_buffer_region r0 = {0, a}, r1 = {a, a};
  cl_mem s0 = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r0, &e);
  CHECK(e);
  cl_mem s1 = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &e);
  CHECK(e);
  const cl_mem pairs[2][2] = {{b, b}, {s0, s1}};
  const cl_long want[2][2] = {{1, 0}, {0, (cl_long)(a / sizeof(int))}};
  for (int t = 0; t < 2; t++) {
    CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &pairs[t][0]));
    CHECK(clSetKernelArg(k, 1, sizeof(cl_mem), &pairs[t][1]));
    CHECK(clSetKernelArg(k, 2, sizeof out, &out));
    size_t g = 1;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    cl_long got[2];
    CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    assert_int_equal(got[0], want[t][0]);
    assert_int_equal(got[1], want[t][1]);
  }
  CHECK(clReleaseMemObject(s1));
  CHECK(clReleaseMemObject(s0));
  CHECK(clReleaseMemObject(out));
  CHECK(clReleaseMemObject(b));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
}

/* ---- destructor callbacks and deferred destruction -------------------------------------------------- */

static _Atomic int order_counter;
static void CL_CALLBACK record(cl_mem m, void *user) {
  (void)m;
  *(_Atomic int *)user = ++order_counter;
}

static bool wait_for(_Atomic int *flag) {
  for (int i = 0; i < 500 && !*flag; i++) usleep(2000);
  return *flag != 0;
}

static void t_destructors(void **state) {
  (void)state;
  static _Atomic int got[3];
  cl_mem b = buffer(0, 64, NULL);
  assert_int_equal(clSetMemObjectDestructorCallback(b, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clSetMemObjectDestructorCallback(NULL, record, NULL), CL_INVALID_MEM_OBJECT);
  order_counter = 0;
  for (int i = 0; i < 3; i++) {
    got[i] = 0;
    CHECK(clSetMemObjectDestructorCallback(b, record, (void *)&got[i]));
  }
  CHECK(clReleaseMemObject(b));
  /* nothing uses it: called at once, last registered first */
  assert_int_equal(got[0], 3);
  assert_int_equal(got[1], 2);
  assert_int_equal(got[2], 1);

  /* released while a command still uses it: alive until the command is done */
  cl_int e;
  cl_event gate = clCreateUserEvent(ctx, &e), ev;
  CHECK(e);
  uint32_t init[16], out[16];
  for (int i = 0; i < 16; i++) init[i] = 0xfeed0000u + (uint32_t)i;
  b = buffer(CL_MEM_COPY_HOST_PTR, sizeof init, init);
  got[0] = 0;
  CHECK(clSetMemObjectDestructorCallback(b, record, (void *)&got[0]));
  CHECK(clEnqueueReadBuffer(q, b, CL_FALSE, 0, sizeof out, out, 1, &gate, &ev));
  CHECK(clReleaseMemObject(b));
  usleep(10000);
  assert_int_equal(got[0], 0);
  assert_int_equal(clRetainMemObject(b), CL_INVALID_MEM_OBJECT); /* the application's handle is gone */
  CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK(clWaitForEvents(1, &ev));
  assert_memory_equal(out, init, sizeof init);
  assert_true(wait_for(&got[0]));
  CHECK(clReleaseEvent(ev));
  CHECK(clReleaseEvent(gate));

  /* a sub-buffer keeps its parent: the parent's callbacks come after the sub-buffer's */
  b = buffer(0, 4 * base_align(), NULL);
  cl_buffer_region r = {0, base_align()};
  cl_mem s = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
  CHECK(e);
  order_counter = 0;
  got[0] = got[1] = 0;
  CHECK(clSetMemObjectDestructorCallback(b, record, (void *)&got[0]));
  CHECK(clSetMemObjectDestructorCallback(s, record, (void *)&got[1]));
  CHECK(clReleaseMemObject(b));
  assert_int_equal(got[0], 0);
  CHECK(clReleaseMemObject(s));
  assert_true(wait_for(&got[0]));
  assert_int_equal(got[1], 1);
  assert_int_equal(got[0], 2);
}

/* ---- migration and pipes ------------------------------------------------------------------------------ */

static void t_migrate(void **state) {
  (void)state;
  cl_mem b = buffer(0, 64, NULL), c = buffer(0, 64, NULL), list[2] = {b, c}, bad[2] = {b, NULL};
  cl_event ev;
  CHECK(clEnqueueMigrateMemObjects(q, 2, list, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, &ev));
  assert_int_equal(type_of(ev), CL_COMMAND_MIGRATE_MEM_OBJECTS);
  CHECK(clWaitForEvents(1, &ev));
  CHECK(clReleaseEvent(ev));
  CHECK(clEnqueueMigrateMemObjects(q, 1, list, 0, 0, NULL, NULL));
  CHECK(clEnqueueMigrateMemObjects(q, 1, list, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, NULL));
  assert_int_equal(clEnqueueMigrateMemObjects(q, 0, list, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueMigrateMemObjects(q, 1, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueMigrateMemObjects(q, 1, list, 1 << 5, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueMigrateMemObjects(q, 2, bad, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clEnqueueMigrateMemObjects(NULL, 1, list, 0, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clEnqueueMigrateMemObjects(q, 1, list, 0, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  CHECK(clFinish(q));
  CHECK(clReleaseMemObject(b));
  CHECK(clReleaseMemObject(c));
}

static void t_pipes(void **state) {
  (void)state;
  cl_int e;
  assert_null(clCreatePipe(ctx, CL_MEM_HOST_NO_ACCESS, 4, 4, NULL, &e));
  assert_int_equal(e, CL_INVALID_OPERATION);
  assert_null(clCreatePipe(NULL, CL_MEM_HOST_NO_ACCESS, 4, 4, NULL, &e));
  assert_int_equal(e, CL_INVALID_CONTEXT);
  cl_mem b = buffer(0, 64, NULL);
  cl_uint v;
  assert_int_equal(clGetPipeInfo(b, CL_PIPE_PACKET_SIZE, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clGetPipeInfo(NULL, CL_PIPE_PACKET_SIZE, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
  CHECK(clReleaseMemObject(b));
}

/* ---- threads ----------------------------------------------------------------------------------------- */

static void *worker(void *arg) {
  uintptr_t id = (uintptr_t)arg;
  uint32_t data[300], back[300];
  for (int it = 0; it < 60; it++) {
    size_t n = 1 + (size_t)((id * 37 + (uintptr_t)it * 11) % 300);
    for (size_t i = 0; i < n; i++) data[i] = (uint32_t)(id << 24 | (uintptr_t)it << 12 | i);
    cl_int e;
    cl_mem b = clCreateBuffer(ctx, it % 2 ? CL_MEM_COPY_HOST_PTR : 0, n * 4, it % 2 ? data : NULL, &e);
    if (e != CL_SUCCESS) return (void *)1;
    if (!(it % 2) && clEnqueueWriteBuffer(q, b, it % 4 == 0, 0, n * 4, data, 0, NULL, NULL) != CL_SUCCESS)
      return (void *)2;
    memset(back, 0, sizeof back);
    if (clEnqueueReadBuffer(q, b, CL_TRUE, 0, n * 4, back, 0, NULL, NULL) != CL_SUCCESS) return (void *)3;
    if (memcmp(back, data, n * 4)) return (void *)4;
    if (clReleaseMemObject(b) != CL_SUCCESS) return (void *)5;
  }
  return NULL;
}

static void t_threads(void **state) {
  (void)state;
  pthread_t t[4];
  for (uintptr_t i = 0; i < 4; i++) assert_int_equal(pthread_create(&t[i], NULL, worker, (void *)i), 0);
  for (int i = 0; i < 4; i++) {
    void *r;
    pthread_join(t[i], &r);
    assert_null(r);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(t_create_errors),
    cmocka_unit_test(t_create_all_flags),
    cmocka_unit_test(t_properties),
    cmocka_unit_test(t_info),
    cmocka_unit_test(t_sub_buffer_errors),
    cmocka_unit_test(t_sub_buffer_data),
    cmocka_unit_test(t_read_write_errors),
    cmocka_unit_test(t_read_write_async),
    cmocka_unit_test(t_rect),
    cmocka_unit_test(t_copy),
    cmocka_unit_test(t_copy_rect_overlap),
    cmocka_unit_test(t_fill),
    cmocka_unit_test(t_map),
    cmocka_unit_test(t_map_use_host_ptr),
    cmocka_unit_test(t_use_host_ptr_kernel),
    cmocka_unit_test(t_same_mem_args),
    cmocka_unit_test(t_destructors),
    cmocka_unit_test(t_migrate),
    cmocka_unit_test(t_pipes),
    cmocka_unit_test(t_threads),
  };
  if (getenv("CMOCKA_FILTER")) cmocka_set_test_filter(getenv("CMOCKA_FILTER")); /* to run one test */
  return cmocka_run_group_tests_name("opencl mem", tests, cltest_group_setup, cltest_group_teardown);
}
