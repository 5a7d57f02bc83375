/*
 * fuzz.h — what the libFuzzer harnesses of tests/fuzz/ share (docs/fuzzing.md).
 *
 * Each fuzz_NAME.c defines LLVMFuzzerTestOneInput (and may define LLVMFuzzerInitialize). It is
 * linked either with libFuzzer (`make fuzz`, clang's -fsanitize=fuzzer) or with replay.c, a plain
 * main() that feeds it the saved inputs of tests/fuzz/regress/NAME/ (`make check`, also under
 * SAN=1): so every crash once found stays a test that needs no clang.
 *
 * A harness bounds its work whatever the input (libFuzzer's -timeout and -rss_limit_mb would
 * otherwise report the harness's own appetite as findings): small NDRanges, a low step limit, a
 * few kernels per module, small arguments.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "spvi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

enum {
  FUZZ_MAX_KERNELS = 4,        /* kernels of a module a harness launches */
  FUZZ_MAX_STEPS = 2000,       /* SPIR-V instructions per work-item */
  FUZZ_GLOBAL = 8,             /* work-items of a launch (one dimension) */
  FUZZ_LOCAL = 4,              /* work-group size when the kernel does not require one */
  FUZZ_ARG_BYTES = 256,        /* bytes of each buffer and __local argument */
  FUZZ_MAX_VALUE_BYTES = 4096, /* larger by-value parameters: the kernel is not launched */
  FUZZ_MAX_MODULE = 1 << 20    /* longer inputs are not loaded */
};

/* The module of a fuzz input, or NULL when spvi refuses it (the message is discarded: refusing
 * is the right answer to most inputs). `strict` as spvi_load_options. */
spvi_module *fuzz_load(const uint8_t *data, size_t size, bool strict);

/* A launch of kernel k with small arguments for every parameter (buffers of FUZZ_ARG_BYTES
 * bytes holding a fixed pattern, zero values, a 4x4 image of the parameter's type, a sampler) and
 * a small NDRange; NULL when spvi refuses any of it or the kernel has a parameter no argument can be
 * made for. */
spvi_launch *fuzz_launch(spvi_module *m, int k);

#endif
