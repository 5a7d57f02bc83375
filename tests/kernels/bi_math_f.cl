// OpenCL.std math builtins on float, float4, float3 and float16
// (tests/unit/test_kernel_builtins_math.c); the kernels are in bi_math_kernels.h.
// float only: half_* and native_* (OpenCL C declares them for float and floatn)
#define UN_EXTRA_LIST(F) F(half_cos) F(half_exp) F(half_exp2) F(half_exp10) F(half_log)           \
  F(half_log2) F(half_log10) F(half_recip) F(half_rsqrt) F(half_sin) F(half_sqrt) F(half_tan)     \
  F(native_cos) F(native_exp) F(native_exp2) F(native_exp10) F(native_log) F(native_log2)         \
  F(native_log10) F(native_recip) F(native_rsqrt) F(native_sin) F(native_sqrt) F(native_tan)
#define BIN_EXTRA_LIST(F) F(half_divide) F(half_powr) F(native_divide) F(native_powr)
#include "bi_math_kernels.h"

MATH_KERNELS(float, int, uint, f)
MATH_KERNELS(float4, int4, uint4, f4)
MATH_KERNELS(float3, int3, uint3, f3)
MATH_KERNELS(float16, int16, uint16, f16)
