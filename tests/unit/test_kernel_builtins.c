/*
 * test_kernel_builtins.c — the OpenCL.std builtins called from OpenCL C kernels
 * (tests/kernels/bi_*.cl, compiled at -O0 and -O2 by tests/kernels/build.sh), each variant at warp
 * widths 1, 0 (default) and 7 through kt_run_case() (test_kernels_util.h), with expected values
 * computed in the test: MPFR at the target format, plain C with wider arithmetic, or hand
 * derivations. See spec-notes/testing.md.
 *
 * Run from the repository root after `BUILD=<dir> sh tests/kernels/build.sh`.
 */
#include "test_kernel_builtins_util.h"
#include "test_kernel_builtins_math.h"
#include "test_kernel_builtins_int.h"
#include "test_kernel_builtins_common.h"
#include "test_kernel_builtins_geom.h"
#include "test_kernel_builtins_rel.h"
#include "test_kernel_builtins_vec.h"
#include "test_kernel_builtins_conv.h"
#include "test_kernel_builtins_printf.h"

int main(void) {
  const struct CMUnitTest tests[] = {
    KB_MATH_TESTS,
    KB_INT_TESTS,
    KB_COMMON_TESTS,
    KB_GEOM_TESTS,
    KB_REL_TESTS,
    KB_VEC_TESTS,
    KB_CONV_TESTS,
    KB_PRINTF_TESTS,
  };
  return cmocka_run_group_tests_name("kernel_builtins", tests, NULL, NULL);
}
