/*
 * bench_gen.c — the benchmark inputs: an independent implementation of spvi's `random(SEED,LO,HI)`
 * buffer initialiser as docs/cli.md gives it (one SplitMix64 stream per argument; integers uniform
 * in [LO, HI] with modulo-bias rejection, floats LO + u*(HI-LO) in double rounded to float with
 * values that round to HI redrawn), so the C references and the OpenCL host see the very inputs
 * spvi generated from its command line.
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

static uint64_t splitmix64_next(uint64_t *state) {
  *state += 0x9E3779B97F4A7C15ull;
  uint64_t z = *state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static void fill_random_float(float *dst, size_t n, uint64_t seed, double lo, double hi) {
  uint64_t st = seed;
  for (size_t i = 0; i < n; i++) {
    float v;
    do {
      uint64_t x = splitmix64_next(&st);
      double u = (double)(x >> 40) * 0x1p-24; /* p = 24 for float */
      v = (float)(lo + u * (hi - lo));
    } while ((double)v == hi);
    dst[i] = v;
  }
}

static void fill_random_uint(uint32_t *dst, size_t n, uint64_t seed, uint64_t lo, uint64_t hi) {
  uint64_t st = seed;
  uint64_t span = hi - lo + 1;                      /* at most 2^32 here: never 0 */
  uint64_t reject_below = (uint64_t)(-span) % span; /* 2^64 mod span */
  for (size_t i = 0; i < n; i++) {
    uint64_t x;
    do x = splitmix64_next(&st);
    while (x < reject_below);
    dst[i] = (uint32_t)(lo + x % span);
  }
}

bool bench_gen_inputs(const bench_kernel *k, void *bufs[BENCH_MAX_ARGS]) {
  memset(bufs, 0, sizeof(void *) * BENCH_MAX_ARGS);
  for (int i = 0; i < k->nargs; i++) {
    const bench_arg *a = &k->args[i];
    if (a->kind != BARG_BUFFER) continue;
    bufs[i] = calloc(a->count, bench_elem_size(a->elem));
    if (!bufs[i]) {
      bench_free_inputs(k, bufs);
      return false;
    }
    if (a->init != BINIT_RANDOM) continue;
    if (a->elem == BE_FLOAT) fill_random_float(bufs[i], a->count, a->seed, a->lo, a->hi);
    else /* the table's integer ranges are non-negative and at most 32 bits wide */
      fill_random_uint(bufs[i], a->count, a->seed, (uint64_t)a->lo, (uint64_t)a->hi);
  }
  return true;
}

void bench_free_inputs(const bench_kernel *k, void *bufs[BENCH_MAX_ARGS]) {
  for (int i = 0; i < k->nargs; i++) {
    free(bufs[i]);
    bufs[i] = NULL;
  }
}
