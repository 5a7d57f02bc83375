/*
 * fuzz_api.c — harness (a): load a module, then every query of the public API (include/spvi.h)
 * on it: kernels and their parameters, execution modes, capabilities, program-scope variables and
 * their bytes, the prepared code, and a launch of every kernel made and freed. The input's last
 * byte chooses --strict loading, so both paths through validation are fuzzed.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"

static FILE *null_out;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  null_out = fopen("/dev/null", "w");
  return 0;
}

/* Reads every byte of a string the API returns, so the sanitizers see a bad one. */
static size_t touch(const char *s) { return s ? strlen(s) : 0; }

static void query_kernel(const spvi_module *m, int k) {
  size_t v[3], sum = touch(spvi_kernel_name(m, k));
  spvi_find_kernel(m, spvi_kernel_name(m, k));
  spvi_kernel_reqd_local_size(m, k, v);
  spvi_kernel_size_hint(m, k, v);
  unsigned a, b;
  spvi_kernel_subgroup_modes(m, k, &a, &b);
  sum += spvi_kernel_local_bytes(m, k) + spvi_kernel_private_bytes(m, k);
  int n = spvi_kernel_param_count(m, k);
  for (int i = 0; i <= n; i++) { /* one past the end: NULL */
    const spvi_param_info *p = spvi_kernel_param(m, k, i);
    if (p) sum += touch(p->name) + touch(p->type_name) + touch(p->source_type_name);
  }
  spvi_error err;
  spvi_dump_prepared(m, k, null_out, &err);
  (void)sum;
}

static void query_globals(spvi_module *m) {
  int n = spvi_global_count(m);
  for (int i = 0; i <= n; i++) {
    const spvi_global_info *g = spvi_global(m, i);
    if (!g) continue;
    spvi_find_global(m, g->name);
    size_t bytes = 0;
    const unsigned char *d = spvi_global_data(m, i, &bytes);
    unsigned sum = 0;
    for (size_t b = 0; d && b < bytes && b < 4096; b++) sum += d[b];
    spvi_error err;
    if (d && bytes <= 4096) spvi_set_global_data(m, i, d, bytes, &err); /* its own bytes back */
    (void)sum;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  spvi_module *m = fuzz_load(data, size, size && (data[size - 1] & 1));
  if (!m) return 0;
  int n = spvi_kernel_count(m);
  for (int k = -1; k <= n; k++) query_kernel(m, k); /* -1 and n: out of range */
  for (int i = -1; i <= spvi_module_capability_count(m); i++) touch(spvi_module_capability(m, i));
  spvi_module_pointer_bits(m);
  spvi_module_version(m);
  spvi_error err;
  spvi_dump_prepared(m, -1, null_out, &err);
  query_globals(m);
  for (int k = 0; k < n; k++) {
    spvi_launch *l = spvi_launch_new(m, k, &err);
    spvi_launch_free(l);
  }
  spvi_module_free(m);
  return 0;
}
