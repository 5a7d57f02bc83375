/*
 * half_exhaustive.c — every one of the 2^32 float bit patterns converted to half in each of the four
 * rounding modes by spvi (bi_half_from_float), compared with an independently written reference;
 * also every half back to float and double. `make soak` runs it (about 17 billion conversions; a few
 * minutes on two cores). Sampled versions of the same comparison run in `make check`
 * (tests/unit/test_builtins_half.c).
 *
 * The reference works on values, not bit fields: the float is widened to double (exact), scaled by a
 * power of two so that the half's significand becomes an integer part (exact: a float has 24 bits),
 * rounded to an integer with the C functions for the mode (rint under the default to-nearest-even
 * environment, trunc, ceil, floor), scaled back, and then encoded. NaNs keep the sign and the top ten
 * payload bits, with the quiet bit set (spvi's documented policy, builtins/bi_half.h).
 *
 * usage: half_exhaustive [-j JOBS]     exit status 0 when every conversion matches
 */
#include <math.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bi_half.h"

static uint16_t encode(double v) { /* v: a value representable as a half, or +-inf */
  uint16_t sign = signbit(v) ? 0x8000 : 0;
  v = fabs(v);
  if (isinf(v)) return sign | 0x7c00;
  if (v == 0) return sign;
  int e;
  frexp(v, &e);                                            /* v = m * 2^e, m in [0.5, 1) */
  if (e - 1 < -14) return sign | (uint16_t)(v * 0x1p24);   /* subnormal: v / 2^-24 */
  uint16_t mant = (uint16_t)((ldexp(v, 11 - e) - 1024.0)); /* 10 fraction bits */
  return sign | (uint16_t)((e - 1 + 15) << 10) | mant;
}

static double round_mode(double q, int mode) {
  switch (mode) {
  case BI_RTZ: return trunc(q);
  case BI_RTP: return ceil(q);
  case BI_RTN: return floor(q);
  default: return rint(q);
  }
}

static uint16_t reference(uint32_t bits, int mode) {
  float f;
  memcpy(&f, &bits, 4);
  if (isnan(f)) return (uint16_t)(((bits >> 16) & 0x8000) | 0x7e00 | ((bits >> 13) & 0x3ff));
  double d = f;
  bool neg = signbit(d);
  if (isinf(d) || d == 0) return encode(d);
  int e;
  frexp(fabs(d), &e);
  int scale = e - 1 < -14 ? 24 : 10 - (e - 1); /* subnormal grid 2^-24, else 11 significant bits */
  double r = ldexp(round_mode(ldexp(d, scale), mode), -scale);
  if (fabs(r) > 65504.0) { /* overflow per mode (IEEE 754 7.4) */
    bool to_inf = mode == BI_RTE || (mode == BI_RTP && !neg) || (mode == BI_RTN && neg);
    r = to_inf ? (neg ? -INFINITY : INFINITY) : (neg ? -65504.0 : 65504.0);
  }
  if (r == 0) r = neg ? -0.0 : 0.0;
  return encode(r);
}

typedef struct job {
  uint64_t first, last;
  unsigned long long bad;
} job;

static void *work(void *arg) {
  job *j = arg;
  for (uint64_t b = j->first; b < j->last; b++) {
    float f;
    uint32_t u = (uint32_t)b;
    memcpy(&f, &u, 4);
    for (int mode = 0; mode < 4; mode++) {
      uint16_t got = bi_half_from_float(f, (bi_round)mode), want = reference(u, mode);
      if (got != want && j->bad++ < 10)
        fprintf(stderr, "float 0x%08x mode %d: spvi 0x%04x, reference 0x%04x\n", u, mode, got, want);
    }
  }
  return NULL;
}

int main(int argc, char **argv) {
  unsigned jobs = 2;
  if (argc == 3 && strcmp(argv[1], "-j") == 0) jobs = (unsigned)atoi(argv[2]);
  if (jobs < 1 || jobs > 64) jobs = 2;
  unsigned long long bad = 0;
  /* half -> float -> half is the identity for every non-NaN half, and half -> double agrees */
  for (uint32_t h = 0; h < 65536; h++) {
    float f = bi_half_to_float((uint16_t)h);
    double d = bi_half_to_double((uint16_t)h);
    bool nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
    if (!nan && (bi_half_from_float(f, BI_RTE) != h || (double)f != d)) {
      if (bad++ < 10) fprintf(stderr, "half 0x%04x does not round-trip\n", h);
    }
  }
  job js[64];
  pthread_t th[64];
  const uint64_t total = (uint64_t)1 << 32;
  for (unsigned i = 0; i < jobs; i++) {
    js[i] = (job){total * i / jobs, total * (i + 1) / jobs, 0};
    pthread_create(&th[i], NULL, work, &js[i]);
  }
  for (unsigned i = 0; i < jobs; i++) {
    pthread_join(th[i], NULL);
    bad += js[i].bad;
  }
  printf("half_exhaustive: 2^32 floats x 4 rounding modes and 2^16 halves: %llu mismatches\n", bad);
  return bad ? 1 : 0;
}
