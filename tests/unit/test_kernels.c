/*
 * test_kernels.c — OpenCL C kernels (tests/kernels/NAME.cl) compiled to SPIR-V by
 * tests/kernels/build.sh and run through the public API (include/spvi.h) only.
 *
 * Each test builds its inputs, computes the expected results with a plain C reference (or a hand
 * derivation, written next to it), and runs the kernel through kt_run_case(), which covers every
 * variant that was built (-O0, -O2, and 32-bit spir for files marked `// also: spir32`) at warp
 * widths 1, the default, and 7, and requires byte-identical buffers across the widths.
 *
 * Run from the repository root after `BUILD=<dir> sh tests/kernels/build.sh`; $BUILD (default
 * "build") locates the .spv files. See spec-notes/testing.md.
 */
#include "test_kernels_util.h"
#include "test_kernels_int.h"
#include "test_kernels_float.h"
#include "test_kernels_vec.h"
#include "test_kernels_cf.h"
#include "test_kernels_mem.h"
#include "test_kernels_ndrange.h"
#include "test_kernels_fault.h"
#include "test_kernels_async.h"
#include "test_kernels_checks.h"

int main(void) {
  const struct CMUnitTest tests[] = {
    KT_INT_TESTS,
    KT_FLOAT_TESTS,
    KT_VEC_TESTS,
    KT_CF_TESTS,
    KT_MEM_TESTS,
    KT_NDRANGE_TESTS,
    KT_FAULT_TESTS,
    KT_ASYNC_TESTS,
    KT_CHECKS_TESTS,
  };
  return cmocka_run_group_tests_name("kernels", tests, NULL, NULL);
}
