/*
 * cli_random.h — the deterministic generator behind `random(SEED[,LO,HI])` buffer initialisers.
 * Its exact definition is part of the command's documented interface (docs/cli.md and
 * `spvi run --help`), so the same command line gives the same data on every host and in every
 * version.
 */
#ifndef CLI_RANDOM_H
#define CLI_RANDOM_H

#include <stdint.h>

/* SplitMix64 (Steele, Lea, Flood 2014): state advances by 0x9E3779B97F4A7C15, the output is the
 * new state passed through the mixer
 *   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;  z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
 *   z ^ (z >> 31)   (all arithmetic modulo 2^64). */
typedef struct cli_rng {
  uint64_t state;
} cli_rng;

void cli_rng_seed(cli_rng *r, uint64_t seed);
uint64_t cli_rng_next(cli_rng *r);

/* Uniform integer in [lo, lo + span_minus_1] modulo 2^64 (lo as two's complement bits): draws x
 * until x >= 2^64 mod span, then returns lo + x mod span — rejecting the few lowest draws removes
 * the modulo bias. span_minus_1 == UINT64_MAX is the full 64-bit range: x itself, plus lo. */
uint64_t cli_rng_int(cli_rng *r, uint64_t lo, uint64_t span_minus_1);

/* Uniform in [0, 1) on a grid of 2^-precision (precision 1..53): the top `precision` bits of one
 * draw, times 2^-precision. Exact in double. */
double cli_rng_unit(cli_rng *r, unsigned precision);

#endif
