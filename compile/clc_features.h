/*
 * clc_features.h — what spvi's OpenCL device advertises, in one place: the extensions (with the
 * version CL_DEVICE_EXTENSIONS_WITH_VERSION reports) and the OpenCL C 3.0 optional features
 * (CL_DEVICE_OPENCL_C_FEATURES). The device queries, the platform's extension string and the
 * source compiler's -cl-ext= / feature macros are all generated from these tables, so a program
 * compiled from source sees exactly what clGetDeviceInfo says.
 *
 * Honesty rule: an entry is here only when spvi really implements it and a test covers it.
 * Absent on purpose: pipes, device-side enqueue (spvi has neither), cl_khr_expect_assume (the
 * executor runs OpExpectKHR and OpAssumeTrueKHR, but the CTS's op_expect modules store a char16
 * at byte 16 (and so on) with `Aligned 64`, which spvi reports as misaligned: advertised, the
 * extension would turn that skip into a failure; docs/opencl-platform.md), GL/D3D/EGL sharing (no
 * graphics API), cl_khr_image2d_from_buffer (needs row pitch support in images).
 */
#ifndef CLC_FEATURES_H
#define CLC_FEATURES_H

/* X(name, major, minor, patch): extensions of the device (and of the platform: cl_khr_icd). */
#define CLF_EXTENSIONS(X)                                                              \
  X(cl_khr_icd, 1, 0, 0)        /* the ICD loader's dispatch (cl_icd.c) */             \
  X(cl_khr_il_program, 1, 0, 0) /* SPIR-V programs */                                  \
  X(cl_khr_byte_addressable_store, 1, 0, 0)                                            \
  X(cl_khr_global_int32_base_atomics, 1, 0, 0)                                         \
  X(cl_khr_global_int32_extended_atomics, 1, 0, 0)                                     \
  X(cl_khr_local_int32_base_atomics, 1, 0, 0)                                          \
  X(cl_khr_local_int32_extended_atomics, 1, 0, 0)                                      \
  X(cl_khr_int64_base_atomics, 1, 0, 0)                                                \
  X(cl_khr_int64_extended_atomics, 1, 0, 0)                                            \
  X(cl_khr_fp64, 1, 0, 0)                                                              \
  X(cl_khr_fp16, 1, 0, 0)                                                              \
  X(cl_khr_3d_image_writes, 1, 0, 0)                                                   \
  X(cl_khr_subgroups, 1, 0, 0)                                                         \
  X(cl_khr_subgroup_extended_types, 1, 0, 0)                                           \
  X(cl_khr_subgroup_non_uniform_vote, 1, 0, 0)                                         \
  X(cl_khr_subgroup_ballot, 1, 0, 0)                                                   \
  X(cl_khr_subgroup_non_uniform_arithmetic, 1, 0, 0)                                   \
  X(cl_khr_subgroup_shuffle, 1, 0, 0)                                                  \
  X(cl_khr_subgroup_shuffle_relative, 1, 0, 0)                                         \
  X(cl_khr_subgroup_clustered_reduce, 1, 0, 0)                                         \
  X(cl_khr_extended_versioning, 1, 0, 0)              /* the *_WITH_VERSION queries */ \
  X(cl_khr_spirv_linkonce_odr, 1, 0, 0)               /* linked by clc_compile.c */    \
  X(cl_khr_spirv_no_integer_wrap_decoration, 1, 0, 0) /* NoSignedWrap/NoUnsignedWrap accepted */

/* X(name, major, minor, patch): OpenCL C 3.0 optional features (OpenCL C 6.2.1). */
#define CLF_C_FEATURES(X)                               \
  X(__opencl_c_3d_image_writes, 3, 0, 0)                \
  X(__opencl_c_atomic_order_acq_rel, 3, 0, 0)           \
  X(__opencl_c_atomic_order_seq_cst, 3, 0, 0)           \
  X(__opencl_c_atomic_scope_device, 3, 0, 0)            \
  X(__opencl_c_atomic_scope_all_devices, 3, 0, 0)       \
  X(__opencl_c_fp64, 3, 0, 0)                           \
  X(__opencl_c_generic_address_space, 3, 0, 0)          \
  X(__opencl_c_images, 3, 0, 0)                         \
  X(__opencl_c_int64, 3, 0, 0)                          \
  X(__opencl_c_program_scope_global_variables, 3, 0, 0) \
  X(__opencl_c_read_write_images, 3, 0, 0)              \
  X(__opencl_c_subgroups, 3, 0, 0)                      \
  X(__opencl_c_work_group_collective_functions, 3, 0, 0)

#endif
