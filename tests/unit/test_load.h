/*
 * test_load.h — the compiled test kernels for the cmocka programs that run them through the public
 * API: tests/kernels/build.sh writes $BUILD/kernels/NAME.VARIANT.spv (VARIANT O0, O2, ...). Include
 * after <cmocka.h> and "spvi.h". A failure fails the running test with the library's message.
 */
#ifndef TEST_LOAD_H
#define TEST_LOAD_H

static inline spvi_module *tl_load(const char *name, const char *variant) {
  const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
  char path[512];
  snprintf(path, sizeof path, "%s/kernels/%s.%s.spv", build, name, variant);
  spvi_error err;
  spvi_module *m = spvi_load_file(path, NULL, &err);
  if (!m) fail_msg("%s", err.message);
  return m;
}

static inline spvi_launch *tl_launch(spvi_module *m, const char *kernel) {
  spvi_error err;
  const int k = spvi_find_kernel(m, kernel);
  if (k < 0) fail_msg("no kernel %s", kernel);
  spvi_launch *l = spvi_launch_new(m, k, &err);
  if (!l) fail_msg("%s", err.message);
  return l;
}

#endif
