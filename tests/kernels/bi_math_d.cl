// OpenCL.std math builtins on double, double2 and double3 (tests/unit/test_kernel_builtins_math.c);
// the kernels are in bi_math_kernels.h, without the float-only half_*/native_* functions.
#define UN_EXTRA_LIST(F)
#define BIN_EXTRA_LIST(F)
#include "bi_math_kernels.h"

MATH_KERNELS(double, int, ulong, d)
MATH_KERNELS(double2, int2, ulong2, d2)
MATH_KERNELS(double3, int3, ulong3, d3)
