/*
 * test_limits.c — the device's memory figures (spvi.h "device limits", issue #17): the largest
 * allocation computed from the machine's memory as OpenCL 3.0 API 4.2 sets the minimum
 * (CL_DEVICE_MAX_MEM_ALLOC_SIZE), and buffers and images above it refused before any byte of
 * theirs is allocated. The modules that exceed a limit are tests/spvasm/limit_*.spvasm; the
 * launch's __local memory and --max-memory are in tests/cli/test_cli.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include <unistd.h>

#include "spvi.h"

/* Half the physical memory; a quarter of that, clamped to [128 MiB, 1 GiB] (API 4.2's
 * max(min(1 GiB, global / 4), 32 MiB), and the CTS's 128 MiB for a full profile). */
static void test_memory_figures(void **state) {
  (void)state;
  uint64_t phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
  assert_true(spvi_global_mem_size() == phys / 2);
  uint64_t want = phys / 2 / 4;
  if (want > ((uint64_t)1 << 30)) want = (uint64_t)1 << 30;
  if (want < ((uint64_t)128 << 20)) want = (uint64_t)128 << 20;
  assert_true(spvi_max_alloc_size() == want);
}

/* One byte above the largest allocation: refused with SPVI_E_USAGE (not SPVI_E_NOMEM: nothing
 * was tried). */
static void test_buffer_above_max_alloc(void **state) {
  (void)state;
  spvi_error err;
  const uint64_t max = spvi_max_alloc_size();
  assert_null(spvi_buffer_new((size_t)max + 1, NULL, &err));
  assert_int_equal(err.status, SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "is above the largest allocation"));
}

/* An image of 16384 x 16384 rgba float pixels: 16384 * 16384 * 16 = 4 GiB, above 1 GiB. */
static void test_image_above_max_alloc(void **state) {
  (void)state;
  spvi_image_desc d;
  memset(&d, 0, sizeof d);
  d.type = SPVI_IMAGE_2D;
  d.order = SPVI_ORDER_RGBA;
  d.channel_type = SPVI_FLOAT;
  d.width = d.height = 16384;
  spvi_error err;
  assert_null(spvi_image_new(&d, NULL, &err));
  assert_int_equal(err.status, SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "an image of 4294967296 bytes is above the largest allocation"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_memory_figures),
    cmocka_unit_test(test_buffer_above_max_alloc),
    cmocka_unit_test(test_image_above_max_alloc),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
