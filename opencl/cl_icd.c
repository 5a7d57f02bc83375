/*
 * cl_icd.c — the ICD side of libspvi-cl.so (cl_khr_icd, OpenCL 3.0 Extension spec): the
 * dispatch table every spvi object starts with, clIcdGetPlatformIDsKHR, the extension function
 * look-up (clGetExtensionFunctionAddress*, OpenCL 3.0 API 9.2) and the extension names of core
 * functions (clCreateProgramWithILKHR, clGetKernelSubGroupInfoKHR).
 *
 * An ICD loader (ocl-icd, the Khronos loader) finds the platform through clIcdGetPlatformIDsKHR
 * (which it gets from clGetExtensionFunctionAddress) and from then on calls every entry point
 * through handle->dispatch->clFoo. So the table must have every entry: a NULL one would crash the
 * loader. The entry points are defined across the opencl/ files; those of other files are
 * referenced weakly here so that the library links while they are written — tests/opencl/clinfo.sh
 * checks with nm that none stays undefined. Interop with graphics and media APIs (GL, EGL, D3D, DX9)
 * is something spvi will never do: those entries are local stubs returning the errors the spec
 * gives for objects that were not created from such an API, and they are not exported.
 */
#include "cl_internal.h"

#include <string.h>

/* ---- entry points defined in other files (weak until every file defines its own) ---------- */
#define CLX_STR(x) #x
#define CLX_WEAK(f) _Pragma(CLX_STR(weak f))

/* clang-format off */
/* cl_event.c, cl_queue.c */
#define CLX_QUEUE_EVENT_ENTRIES(X)                                                                  \
  X(clCreateCommandQueue) X(clCreateCommandQueueWithProperties) X(clRetainCommandQueue)             \
  X(clReleaseCommandQueue) X(clGetCommandQueueInfo) X(clSetCommandQueueProperty) X(clFlush)         \
  X(clFinish) X(clEnqueueMarker) X(clEnqueueBarrier) X(clEnqueueWaitForEvents)                      \
  X(clEnqueueMarkerWithWaitList) X(clEnqueueBarrierWithWaitList) X(clSetDefaultDeviceCommandQueue)  \
  X(clWaitForEvents) X(clGetEventInfo) X(clCreateUserEvent) X(clSetUserEventStatus)                 \
  X(clRetainEvent) X(clReleaseEvent) X(clSetEventCallback) X(clGetEventProfilingInfo)
/* cl_mem.c, cl_svm.c */
#define CLX_MEM_ENTRIES(X)                                                                          \
  X(clCreateBuffer) X(clCreateBufferWithProperties) X(clCreateSubBuffer) X(clRetainMemObject)       \
  X(clReleaseMemObject) X(clGetMemObjectInfo) X(clSetMemObjectDestructorCallback)                   \
  X(clEnqueueReadBuffer) X(clEnqueueWriteBuffer) X(clEnqueueCopyBuffer) X(clEnqueueFillBuffer)      \
  X(clEnqueueReadBufferRect) X(clEnqueueWriteBufferRect) X(clEnqueueCopyBufferRect)                 \
  X(clEnqueueMapBuffer) X(clEnqueueUnmapMemObject) X(clEnqueueMigrateMemObjects) X(clCreatePipe)    \
  X(clGetPipeInfo) X(clSVMAlloc) X(clSVMFree) X(clEnqueueSVMFree) X(clEnqueueSVMMemcpy)             \
  X(clEnqueueSVMMemFill) X(clEnqueueSVMMap) X(clEnqueueSVMUnmap) X(clEnqueueSVMMigrateMem)
/* cl_image.c */
#define CLX_IMAGE_ENTRIES(X)                                                                        \
  X(clCreateImage) X(clCreateImage2D) X(clCreateImage3D) X(clCreateImageWithProperties)             \
  X(clGetSupportedImageFormats) X(clGetImageInfo) X(clEnqueueReadImage) X(clEnqueueWriteImage)      \
  X(clEnqueueCopyImage) X(clEnqueueFillImage) X(clEnqueueMapImage) X(clEnqueueCopyImageToBuffer)    \
  X(clEnqueueCopyBufferToImage) X(clCreateSampler) X(clCreateSamplerWithProperties)                 \
  X(clRetainSampler) X(clReleaseSampler) X(clGetSamplerInfo)
/* cl_program.c, cl_kernel.c */
#define CLX_PROGRAM_ENTRIES(X)                                                                      \
  X(clCreateProgramWithSource) X(clCreateProgramWithBinary) X(clCreateProgramWithIL)                \
  X(clCreateProgramWithBuiltInKernels) X(clRetainProgram) X(clReleaseProgram) X(clBuildProgram)     \
  X(clCompileProgram) X(clLinkProgram) X(clGetProgramInfo) X(clGetProgramBuildInfo)                 \
  X(clSetProgramReleaseCallback) X(clSetProgramSpecializationConstant) X(clCreateKernel)            \
  X(clCreateKernelsInProgram) X(clCloneKernel) X(clRetainKernel) X(clReleaseKernel)                 \
  X(clSetKernelArg) X(clSetKernelArgSVMPointer) X(clSetKernelExecInfo) X(clGetKernelInfo)           \
  X(clGetKernelArgInfo) X(clGetKernelWorkGroupInfo) X(clGetKernelSubGroupInfo)                      \
  X(clEnqueueNDRangeKernel) X(clEnqueueTask) X(clEnqueueNativeKernel)
/* clang-format on */

CLX_QUEUE_EVENT_ENTRIES(CLX_WEAK)
CLX_MEM_ENTRIES(CLX_WEAK)
CLX_IMAGE_ENTRIES(CLX_WEAK)
CLX_PROGRAM_ENTRIES(CLX_WEAK)

/* ---- graphics and media interop: never supported --------------------------------------------
 * OpenCL 3.0 Extension spec, cl_khr_gl_sharing / cl_khr_egl_image / cl_khr_gl_event: a context
 * that was not created from a GL (EGL) context gives CL_INVALID_CONTEXT, a memory object that is
 * not a GL object CL_INVALID_GL_OBJECT; bad handles keep their usual codes. */
static cl_mem no_interop_mem(cl_context ctx, cl_int *errcode_ret) {
  if (errcode_ret) *errcode_ret = CL_INVALID_CONTEXT;
  (void)ctx;
  return NULL;
}

static cl_mem CL_API_CALL no_gl_buffer(cl_context ctx, cl_mem_flags flags, cl_GLuint bufobj, cl_int *errcode_ret) {
  (void)flags, (void)bufobj;
  return no_interop_mem(ctx, errcode_ret);
}

static cl_mem CL_API_CALL no_gl_texture(cl_context ctx, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel,
                                        cl_GLuint texture, cl_int *errcode_ret) {
  (void)flags, (void)target, (void)miplevel, (void)texture;
  return no_interop_mem(ctx, errcode_ret);
}

static cl_mem CL_API_CALL no_gl_renderbuffer(cl_context ctx, cl_mem_flags flags, cl_GLuint rb, cl_int *errcode_ret) {
  (void)flags, (void)rb;
  return no_interop_mem(ctx, errcode_ret);
}

static cl_int no_gl_object(cl_mem mem) {
  return clx_valid(mem, CLX_MEM) ? CL_INVALID_GL_OBJECT : CL_INVALID_MEM_OBJECT;
}

static cl_int CL_API_CALL no_gl_object_info(cl_mem mem, cl_gl_object_type *type, cl_GLuint *name) {
  (void)type, (void)name;
  return no_gl_object(mem);
}

static cl_int CL_API_CALL no_gl_texture_info(cl_mem mem, cl_gl_texture_info param, size_t size, void *value,
                                             size_t *size_ret) {
  (void)param, (void)size, (void)value, (void)size_ret;
  return no_gl_object(mem);
}

/* Acquire/release of interop objects: the queue's context was not created from a GL/EGL context. */
static cl_int CL_API_CALL no_interop_objects(cl_command_queue q, cl_uint n, const cl_mem *mems, cl_uint nwait,
                                             const cl_event *wait, cl_event *event) {
  (void)n, (void)mems, (void)nwait, (void)wait, (void)event;
  return clx_valid(q, CLX_QUEUE) ? CL_INVALID_CONTEXT : CL_INVALID_COMMAND_QUEUE;
}

static cl_int CL_API_CALL no_gl_context_info(const cl_context_properties *props, cl_gl_context_info param, size_t size,
                                             void *value, size_t *size_ret) {
  (void)props, (void)param, (void)size, (void)value, (void)size_ret;
  return CL_INVALID_OPERATION;
}

static cl_event CL_API_CALL no_gl_sync_event(cl_context ctx, cl_GLsync sync, cl_int *errcode_ret) {
  (void)ctx, (void)sync;
  if (errcode_ret) *errcode_ret = CL_INVALID_CONTEXT;
  return NULL;
}

static cl_mem CL_API_CALL no_egl_image(cl_context ctx, CLeglDisplayKHR display, CLeglImageKHR image, cl_mem_flags flags,
                                       const cl_egl_image_properties_khr *props, cl_int *errcode_ret) {
  (void)display, (void)image, (void)flags, (void)props;
  return no_interop_mem(ctx, errcode_ret);
}

static cl_event CL_API_CALL no_egl_sync_event(cl_context ctx, CLeglSyncKHR sync, CLeglDisplayKHR display,
                                              cl_int *errcode_ret) {
  (void)ctx, (void)sync, (void)display;
  if (errcode_ret) *errcode_ret = CL_INVALID_CONTEXT;
  return NULL;
}

/* cl_ext_device_fission (the pre-1.2 extension): the device cannot be partitioned, as with
 * clCreateSubDevices; retaining and releasing the root device succeed. */
static cl_int CL_API_CALL no_sub_devices_ext(cl_device_id in, const cl_device_partition_property_ext *props, cl_uint n,
                                             cl_device_id *out, cl_uint *nout) {
  (void)props, (void)n, (void)out, (void)nout;
  return clx_valid(in, CLX_DEVICE) ? CL_INVALID_VALUE : CL_INVALID_DEVICE;
}

static cl_int CL_API_CALL root_device_ext(cl_device_id d) {
  return clx_valid(d, CLX_DEVICE) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

/* ---- cl_khr_il_program ----------------------------------------------------------------------
 * The extension's entry point (OpenCL 3.0 Extension spec, cl_khr_il_program) is the core
 * clCreateProgramWithIL of OpenCL 2.1 under another name. */
CLX_API CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context context, const void *il, size_t length,
                                                                     cl_int *errcode_ret) {
  return clCreateProgramWithIL(context, il, length, errcode_ret);
}

/* ---- cl_khr_subgroups -------------------------------------------------------------------------
 * clGetKernelSubGroupInfoKHR is the extension's name of OpenCL 2.1's clGetKernelSubGroupInfo:
 * the same arguments, and the same values for the param names both define. */
CLX_API CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(cl_kernel in_kernel, cl_device_id in_device,
                                                                   cl_kernel_sub_group_info param_name,
                                                                   size_t input_value_size, const void *input_value,
                                                                   size_t param_value_size, void *param_value,
                                                                   size_t *param_value_size_ret) {
  return clGetKernelSubGroupInfo(in_kernel, in_device, param_name, input_value_size, input_value, param_value_size,
                                 param_value, param_value_size_ret);
}

/* ---- cl_khr_icd ------------------------------------------------------------------------------ */
CLX_API CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                                               cl_uint *num_platforms) {
  /* the same answer as clGetPlatformIDs (cl_khr_icd: "behaves as clGetPlatformIDs") */
  return clGetPlatformIDs(num_entries, platforms, num_platforms);
}

/* ---- extension functions (OpenCL 3.0 API 9.2) -----------------------------------------------
 * Only the functions of extensions the device advertises (clc_features.h), under their
 * extension names; NULL for any other name. */
static const struct {
  const char *name;
  void *fn;
} ext_functions[] = {
  {"clIcdGetPlatformIDsKHR", (void *)clIcdGetPlatformIDsKHR},         /* cl_khr_icd */
  {"clCreateProgramWithILKHR", (void *)clCreateProgramWithILKHR},     /* cl_khr_il_program */
  {"clGetKernelSubGroupInfoKHR", (void *)clGetKernelSubGroupInfoKHR}, /* cl_khr_subgroups */
};

CLX_API CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *func_name) {
  if (!func_name) return NULL;
  for (size_t i = 0; i < sizeof ext_functions / sizeof ext_functions[0]; i++)
    if (strcmp(func_name, ext_functions[i].name) == 0) return ext_functions[i].fn;
  return NULL;
}

CLX_API CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                                const char *func_name) {
  /* "platform refers to the platform ID returned by clGetPlatformIDs": anything else has no
   * functions (NULL is the only answer this entry point can give for it) */
  if (!clx_valid(platform, CLX_PLATFORM)) return NULL;
  return clGetExtensionFunctionAddress(func_name);
}

/* ---- the dispatch table ---------------------------------------------------------------------
 * In struct _cl_icd_dispatch order (CL/cl_icd.h); test_platform checks that no entry is NULL
 * (except the Direct3D/DX9 ones, which are plain void * outside Windows). */
const struct _cl_icd_dispatch clx_dispatch = {
  /* OpenCL 1.0 */
  .clGetPlatformIDs = clGetPlatformIDs,
  .clGetPlatformInfo = clGetPlatformInfo,
  .clGetDeviceIDs = clGetDeviceIDs,
  .clGetDeviceInfo = clGetDeviceInfo,
  .clCreateContext = clCreateContext,
  .clCreateContextFromType = clCreateContextFromType,
  .clRetainContext = clRetainContext,
  .clReleaseContext = clReleaseContext,
  .clGetContextInfo = clGetContextInfo,
  .clCreateCommandQueue = clCreateCommandQueue,
  .clRetainCommandQueue = clRetainCommandQueue,
  .clReleaseCommandQueue = clReleaseCommandQueue,
  .clGetCommandQueueInfo = clGetCommandQueueInfo,
  .clSetCommandQueueProperty = clSetCommandQueueProperty,
  .clCreateBuffer = clCreateBuffer,
  .clCreateImage2D = clCreateImage2D,
  .clCreateImage3D = clCreateImage3D,
  .clRetainMemObject = clRetainMemObject,
  .clReleaseMemObject = clReleaseMemObject,
  .clGetSupportedImageFormats = clGetSupportedImageFormats,
  .clGetMemObjectInfo = clGetMemObjectInfo,
  .clGetImageInfo = clGetImageInfo,
  .clCreateSampler = clCreateSampler,
  .clRetainSampler = clRetainSampler,
  .clReleaseSampler = clReleaseSampler,
  .clGetSamplerInfo = clGetSamplerInfo,
  .clCreateProgramWithSource = clCreateProgramWithSource,
  .clCreateProgramWithBinary = clCreateProgramWithBinary,
  .clRetainProgram = clRetainProgram,
  .clReleaseProgram = clReleaseProgram,
  .clBuildProgram = clBuildProgram,
  .clUnloadCompiler = clUnloadCompiler,
  .clGetProgramInfo = clGetProgramInfo,
  .clGetProgramBuildInfo = clGetProgramBuildInfo,
  .clCreateKernel = clCreateKernel,
  .clCreateKernelsInProgram = clCreateKernelsInProgram,
  .clRetainKernel = clRetainKernel,
  .clReleaseKernel = clReleaseKernel,
  .clSetKernelArg = clSetKernelArg,
  .clGetKernelInfo = clGetKernelInfo,
  .clGetKernelWorkGroupInfo = clGetKernelWorkGroupInfo,
  .clWaitForEvents = clWaitForEvents,
  .clGetEventInfo = clGetEventInfo,
  .clRetainEvent = clRetainEvent,
  .clReleaseEvent = clReleaseEvent,
  .clGetEventProfilingInfo = clGetEventProfilingInfo,
  .clFlush = clFlush,
  .clFinish = clFinish,
  .clEnqueueReadBuffer = clEnqueueReadBuffer,
  .clEnqueueWriteBuffer = clEnqueueWriteBuffer,
  .clEnqueueCopyBuffer = clEnqueueCopyBuffer,
  .clEnqueueReadImage = clEnqueueReadImage,
  .clEnqueueWriteImage = clEnqueueWriteImage,
  .clEnqueueCopyImage = clEnqueueCopyImage,
  .clEnqueueCopyImageToBuffer = clEnqueueCopyImageToBuffer,
  .clEnqueueCopyBufferToImage = clEnqueueCopyBufferToImage,
  .clEnqueueMapBuffer = clEnqueueMapBuffer,
  .clEnqueueMapImage = clEnqueueMapImage,
  .clEnqueueUnmapMemObject = clEnqueueUnmapMemObject,
  .clEnqueueNDRangeKernel = clEnqueueNDRangeKernel,
  .clEnqueueTask = clEnqueueTask,
  .clEnqueueNativeKernel = clEnqueueNativeKernel,
  .clEnqueueMarker = clEnqueueMarker,
  .clEnqueueWaitForEvents = clEnqueueWaitForEvents,
  .clEnqueueBarrier = clEnqueueBarrier,
  .clGetExtensionFunctionAddress = clGetExtensionFunctionAddress,
  .clCreateFromGLBuffer = no_gl_buffer,
  .clCreateFromGLTexture2D = no_gl_texture,
  .clCreateFromGLTexture3D = no_gl_texture,
  .clCreateFromGLRenderbuffer = no_gl_renderbuffer,
  .clGetGLObjectInfo = no_gl_object_info,
  .clGetGLTextureInfo = no_gl_texture_info,
  .clEnqueueAcquireGLObjects = no_interop_objects,
  .clEnqueueReleaseGLObjects = no_interop_objects,
  .clGetGLContextInfoKHR = no_gl_context_info,

  /* cl_khr_d3d10_sharing: void * slots outside Windows */
  .clGetDeviceIDsFromD3D10KHR = NULL,
  .clCreateFromD3D10BufferKHR = NULL,
  .clCreateFromD3D10Texture2DKHR = NULL,
  .clCreateFromD3D10Texture3DKHR = NULL,
  .clEnqueueAcquireD3D10ObjectsKHR = NULL,
  .clEnqueueReleaseD3D10ObjectsKHR = NULL,

  /* OpenCL 1.1 */
  .clSetEventCallback = clSetEventCallback,
  .clCreateSubBuffer = clCreateSubBuffer,
  .clSetMemObjectDestructorCallback = clSetMemObjectDestructorCallback,
  .clCreateUserEvent = clCreateUserEvent,
  .clSetUserEventStatus = clSetUserEventStatus,
  .clEnqueueReadBufferRect = clEnqueueReadBufferRect,
  .clEnqueueWriteBufferRect = clEnqueueWriteBufferRect,
  .clEnqueueCopyBufferRect = clEnqueueCopyBufferRect,

  /* cl_ext_device_fission */
  .clCreateSubDevicesEXT = no_sub_devices_ext,
  .clRetainDeviceEXT = root_device_ext,
  .clReleaseDeviceEXT = root_device_ext,

  /* cl_khr_gl_event */
  .clCreateEventFromGLsyncKHR = no_gl_sync_event,

  /* OpenCL 1.2 */
  .clCreateSubDevices = clCreateSubDevices,
  .clRetainDevice = clRetainDevice,
  .clReleaseDevice = clReleaseDevice,
  .clCreateImage = clCreateImage,
  .clCreateProgramWithBuiltInKernels = clCreateProgramWithBuiltInKernels,
  .clCompileProgram = clCompileProgram,
  .clLinkProgram = clLinkProgram,
  .clUnloadPlatformCompiler = clUnloadPlatformCompiler,
  .clGetKernelArgInfo = clGetKernelArgInfo,
  .clEnqueueFillBuffer = clEnqueueFillBuffer,
  .clEnqueueFillImage = clEnqueueFillImage,
  .clEnqueueMigrateMemObjects = clEnqueueMigrateMemObjects,
  .clEnqueueMarkerWithWaitList = clEnqueueMarkerWithWaitList,
  .clEnqueueBarrierWithWaitList = clEnqueueBarrierWithWaitList,
  .clGetExtensionFunctionAddressForPlatform = clGetExtensionFunctionAddressForPlatform,
  .clCreateFromGLTexture = no_gl_texture,

  /* cl_khr_d3d11_sharing, cl_khr_dx9_media_sharing: void * slots outside Windows */
  .clGetDeviceIDsFromD3D11KHR = NULL,
  .clCreateFromD3D11BufferKHR = NULL,
  .clCreateFromD3D11Texture2DKHR = NULL,
  .clCreateFromD3D11Texture3DKHR = NULL,
  .clCreateFromDX9MediaSurfaceKHR = NULL,
  .clEnqueueAcquireD3D11ObjectsKHR = NULL,
  .clEnqueueReleaseD3D11ObjectsKHR = NULL,
  .clGetDeviceIDsFromDX9MediaAdapterKHR = NULL,
  .clEnqueueAcquireDX9MediaSurfacesKHR = NULL,
  .clEnqueueReleaseDX9MediaSurfacesKHR = NULL,

  /* cl_khr_egl_image, cl_khr_egl_event */
  .clCreateFromEGLImageKHR = no_egl_image,
  .clEnqueueAcquireEGLObjectsKHR = no_interop_objects,
  .clEnqueueReleaseEGLObjectsKHR = no_interop_objects,
  .clCreateEventFromEGLSyncKHR = no_egl_sync_event,

  /* OpenCL 2.0 */
  .clCreateCommandQueueWithProperties = clCreateCommandQueueWithProperties,
  .clCreatePipe = clCreatePipe,
  .clGetPipeInfo = clGetPipeInfo,
  .clSVMAlloc = clSVMAlloc,
  .clSVMFree = clSVMFree,
  .clEnqueueSVMFree = clEnqueueSVMFree,
  .clEnqueueSVMMemcpy = clEnqueueSVMMemcpy,
  .clEnqueueSVMMemFill = clEnqueueSVMMemFill,
  .clEnqueueSVMMap = clEnqueueSVMMap,
  .clEnqueueSVMUnmap = clEnqueueSVMUnmap,
  .clCreateSamplerWithProperties = clCreateSamplerWithProperties,
  .clSetKernelArgSVMPointer = clSetKernelArgSVMPointer,
  .clSetKernelExecInfo = clSetKernelExecInfo,

  /* cl_khr_sub_groups */
  .clGetKernelSubGroupInfoKHR = clGetKernelSubGroupInfoKHR,

  /* OpenCL 2.1 */
  .clCloneKernel = clCloneKernel,
  .clCreateProgramWithIL = clCreateProgramWithIL,
  .clEnqueueSVMMigrateMem = clEnqueueSVMMigrateMem,
  .clGetDeviceAndHostTimer = clGetDeviceAndHostTimer,
  .clGetHostTimer = clGetHostTimer,
  .clGetKernelSubGroupInfo = clGetKernelSubGroupInfo,
  .clSetDefaultDeviceCommandQueue = clSetDefaultDeviceCommandQueue,

  /* OpenCL 2.2 */
  .clSetProgramReleaseCallback = clSetProgramReleaseCallback,
  .clSetProgramSpecializationConstant = clSetProgramSpecializationConstant,

  /* OpenCL 3.0 */
  .clCreateBufferWithProperties = clCreateBufferWithProperties,
  .clCreateImageWithProperties = clCreateImageWithProperties,
  .clSetContextDestructorCallback = clSetContextDestructorCallback,
};
