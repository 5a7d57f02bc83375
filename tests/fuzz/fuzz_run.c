/*
 * fuzz_run.c — harness (b): load a module and run its first FUZZ_MAX_KERNELS kernels with small
 * arguments (fuzz_launch) under each set of checks in turn — none, races, uninit, all — with a low
 * step limit, one thread, and --keep-going on the last run, then read the reports, the statistics
 * and the buffers back.
 */
#include "fuzz.h"

static void run_once(spvi_launch *l, unsigned checks, bool keep_going) {
  spvi_run_options o = {.threads = 1, .checks = checks, .max_steps = FUZZ_MAX_STEPS, .keep_going = keep_going};
  spvi_fault fault;
  spvi_error err;
  spvi_run(l, &o, &fault, &err);
  size_t n = spvi_report_count(l);
  for (size_t i = 0; i < n; i++) (void)spvi_report_get(l, i)->count;
  spvi_run_stats st;
  spvi_launch_stats(l, &st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  spvi_module *m = fuzz_load(data, size, false);
  if (!m) return 0;
  static const unsigned checks[] = {0, SPVI_CHECK_RACES, SPVI_CHECK_UNINIT, SPVI_CHECK_ALL};
  int n = spvi_kernel_count(m);
  for (int k = 0; k < n && k < FUZZ_MAX_KERNELS; k++) {
    spvi_launch *l = fuzz_launch(m, k);
    if (!l) continue;
    for (size_t c = 0; c < sizeof checks / sizeof checks[0]; c++)
      run_once(l, checks[c], c + 1 == sizeof checks / sizeof checks[0]);
    for (int i = 0; i < spvi_kernel_param_count(m, k); i++) {
      size_t bytes;
      spvi_arg_buffer(l, i, &bytes);
    }
    spvi_launch_free(l);
  }
  spvi_module_free(m);
  return 0;
}
