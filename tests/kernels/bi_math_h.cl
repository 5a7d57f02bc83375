// OpenCL.std math builtins on half, half4 and half3 (tests/unit/test_kernel_builtins_math.c); the
// kernels are in bi_math_kernels.h, without the float-only half_*/native_* functions.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define UN_EXTRA_LIST(F)
#define BIN_EXTRA_LIST(F)
#include "bi_math_kernels.h"

MATH_KERNELS(half, int, ushort, h)
MATH_KERNELS(half4, int4, ushort4, h4)
MATH_KERNELS(half3, int3, ushort3, h3)
