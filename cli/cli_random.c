/*
 * cli_random.c — owns the SplitMix64 stream and the unbiased integer / grid-float draws used by
 * `random(...)` initialisers (see cli_random.h for the exact definitions).
 */
#include "cli_random.h"

#include <math.h>

void cli_rng_seed(cli_rng *r, uint64_t seed) { r->state = seed; }

uint64_t cli_rng_next(cli_rng *r) {
  r->state += UINT64_C(0x9E3779B97F4A7C15);
  uint64_t z = r->state;
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

uint64_t cli_rng_int(cli_rng *r, uint64_t lo, uint64_t span_minus_1) {
  if (span_minus_1 == UINT64_MAX) return lo + cli_rng_next(r);
  uint64_t span = span_minus_1 + 1;
  /* 2^64 mod span, computed without 2^64: (2^64 - span) mod span. The accepted draws
   * [threshold, 2^64) number a whole multiple of span, so every residue is equally likely. */
  uint64_t threshold = ((uint64_t)0 - span) % span;
  uint64_t x;
  do x = cli_rng_next(r);
  while (x < threshold);
  return lo + x % span;
}

double cli_rng_unit(cli_rng *r, unsigned precision) {
  uint64_t top = cli_rng_next(r) >> (64 - precision);
  return ldexp((double)top, -(int)precision);
}
