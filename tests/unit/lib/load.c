/*
 * load.c — tl_build_dir, tl_load, tl_launch: see load.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "load.h"

const char *tl_build_dir(void) {
  const char *b = getenv("BUILD");
  return b && *b ? b : "build";
}

spvi_module *tl_load(const char *name, const char *variant) {
  char path[512];
  snprintf(path, sizeof path, "%s/kernels/%s.%s.spv", tl_build_dir(), name, variant);
  spvi_error err;
  spvi_module *m = spvi_load_file(path, NULL, &err);
  if (!m) fail_msg("%s: %s", path, err.message);
  return m;
}

spvi_launch *tl_launch(spvi_module *m, const char *kernel) {
  spvi_error err;
  const int k = spvi_find_kernel(m, kernel);
  if (k < 0) fail_msg("no kernel %s", kernel);
  spvi_launch *l = spvi_launch_new(m, k, &err);
  if (!l) fail_msg("%s", err.message);
  return l;
}
