/*
 * load.h — the compiled test kernels for the cmocka programs that run them through the public API
 * by hand (test_mem.c, test_subgroups.c, test_recycle.c, the harnesses): tests/kernels/build.sh writes
 * $BUILD/kernels/NAME.VARIANT.spv (VARIANT O0, O2, ...). A failure fails the running test with the
 * library's message.
 */
#ifndef LOAD_H
#define LOAD_H

#include "spvi.h"

/* $BUILD, where the build put the compiled kernels ($BUILD/kernels); default "build". */
const char *tl_build_dir(void);
/* The module $BUILD/kernels/NAME.VARIANT.spv. */
spvi_module *tl_load(const char *name, const char *variant);
/* A launch of `kernel` of module m. */
spvi_launch *tl_launch(spvi_module *m, const char *kernel);

#endif
