/*
 * math_bench.c — cost of spvi's correctly rounded math builtins (builtins/bi_math*.c) against the
 * host libm (`make bench` / `make math-bench`).
 *
 * For each function it times the builtin through its bi_fn, exactly as the executor calls it: one
 * bi_call per 32-lane warp, scalar (n = 1) operands in lane-major registers; and a plain loop calling
 * the host libm's double function on the same inputs (widened to double). It prints ns per element
 * for both, their ratio, and the fraction of elements that took the MPFR fallback. The acceptance
 * target (spec-notes/math.md): float sin/exp/log/pow at most 3x the host double call on random
 * inputs in the normal range. Double and half rows are informative.
 *
 * Usage: math_bench [elements] (default 2^20 per function; every run repeats 5 times, best kept).
 */
#include "bi.h"
#include "bi_half.h"
#include "bi_math.h"
#include "gen_spv_tables.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LANES 32

static uint64_t rng = 0x243F6A8885A308D3ull;
static double unif(void) {
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return (double)((rng * 0x2545F4914F6CDD1Dull) >> 11) * 0x1p-53;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef enum which { W_SIN, W_COS, W_EXP, W_LOG, W_POW, W_TAN, W_EXP2, W_LOG2, W_ATAN2, W_ERF } which;
static const struct {
  const char *name;
  uint32_t op;
  unsigned nargs;
} FN[] = {{"sin", OCLSTD_sin, 1},     {"cos", OCLSTD_cos, 1}, {"exp", OCLSTD_exp, 1},   {"log", OCLSTD_log, 1},
          {"pow", OCLSTD_pow, 2},     {"tan", OCLSTD_tan, 1}, {"exp2", OCLSTD_exp2, 1}, {"log2", OCLSTD_log2, 1},
          {"atan2", OCLSTD_atan2, 2}, {"erf", OCLSTD_erf, 1}};

/* Inputs "in the normal range": sin/cos/tan |x| <= 100; exp [-87, 88]; exp2 [-125, 127]; log/log2
 * log-uniform over the normal floats; pow x log-uniform in [2^-8, 2^8], y with |y log2 x| <= 100;
 * atan2 both uniform in [-100, 100]; erf [-4, 4]. */
static void gen(which w, double *x, double *y) {
  switch (w) {
  case W_SIN:
  case W_COS:
  case W_TAN: *x = 200 * unif() - 100; break;
  case W_EXP: *x = -87 + 175 * unif(); break;
  case W_EXP2: *x = -125 + 252 * unif(); break;
  case W_LOG:
  case W_LOG2: *x = exp2(-126 + 253 * unif()); break;
  case W_POW: {
    *x = exp2(-8 + 16 * unif());
    *y = (2 * unif() - 1) * 100 / fmax(fabs(log2(*x)), 1);
    break;
  }
  case W_ATAN2:
    *x = 200 * unif() - 100;
    *y = 200 * unif() - 100;
    break;
  case W_ERF: *x = 8 * unif() - 4; break;
  }
}

static double host(which w, double x, double y) {
  switch (w) {
  case W_SIN: return sin(x);
  case W_COS: return cos(x);
  case W_TAN: return tan(x);
  case W_EXP: return exp(x);
  case W_EXP2: return exp2(x);
  case W_LOG: return log(x);
  case W_LOG2: return log2(x);
  case W_POW: return pow(x, y);
  case W_ATAN2: return atan2(x, y);
  default: return erf(x);
  }
}

static volatile double sink;

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 0) : (size_t)1 << 20;
  const size_t nb = (n + LANES - 1) / LANES * LANES;
  double *xd = malloc(nb * 8), *yd = malloc(nb * 8);
  uint8_t *xs = malloc(nb * 8), *ys = malloc(nb * 8), *out = malloc(nb * 8);
  if (!xd || !yd || !xs || !ys || !out) return 1;
  uint16_t lanes[LANES];
  for (unsigned l = 0; l < LANES; l++) lanes[l] = (uint16_t)l;
  static const char *const tname[] = {"half", "float", "double"};
  static const unsigned bytes[] = {2, 4, 8};

  printf("%-7s %-6s %10s %10s %7s %10s\n", "func", "type", "bi ns/el", "libm ns", "ratio", "fallback");
  int fail = 0;
  static const int order[] = {1, 2, 0}; /* float, double, half */
  for (unsigned fi = 0; fi < sizeof FN / sizeof FN[0]; fi++)
    for (unsigned oi = 0; oi < 3; oi++) {
      const int t = order[oi];
      const unsigned es = bytes[t];
      size_t m = t == 2 ? nb / 8 : nb; /* double: slower, fewer */
      m = m / LANES * LANES;
      for (size_t i = 0; i < m; i++) {
        double x = 0, y = 0;
        gen((which)fi, &x, &y);
        if (t == 0 && (fi == W_EXP || fi == W_EXP2)) x = fmin(fmax(x / 8, -16), 11); /* half range */
        if (t == 0 && (fi == W_LOG || fi == W_LOG2)) x = exp2(-14 + 29 * unif());
        if (t == 0 && fi == W_POW) {
          x = exp2(-4 + 8 * unif());
          y = (2 * unif() - 1) * 14 / fmax(fabs(log2(x)), 1);
        }
        /* round the inputs to the type first, so both sides compute the same function values */
        if (t == 1) {
          x = (float)x;
          y = (float)y;
        }
        if (t == 0) {
          x = bi_half_to_double(bi_half_from_double(x, BI_RTE));
          y = bi_half_to_double(bi_half_from_double(y, BI_RTE));
        }
        xd[i] = x;
        yd[i] = y;
        if (t == 0) {
          const uint16_t hx = bi_half_from_double(x, BI_RTE), hy = bi_half_from_double(y, BI_RTE);
          memcpy(xs + 2 * i, &hx, 2);
          memcpy(ys + 2 * i, &hy, 2);
        } else if (t == 1) {
          const float fx = (float)x, fy = (float)y;
          memcpy(xs + 4 * i, &fx, 4);
          memcpy(ys + 4 * i, &fy, 4);
        } else {
          memcpy(xs + 8 * i, &x, 8);
          memcpy(ys + 8 * i, &y, 8);
        }
      }
      const bi_type ty = {.kind = BI_FLOAT, .bits = (uint8_t)(8 * es), .ncomp = 1};
      const bi_type args[2] = {ty, ty};
      bi_resolved r;
      char err[200];
      if (!bi_resolve(FN[fi].op, &ty, args, FN[fi].nargs, 0, &r, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
      }
      double best_bi = 1e30, best_host = 1e30;
      unsigned long long fb = 0;
      for (int rep = 0; rep < 5; rep++) {
        const unsigned long long f0 = bi_math_fallbacks();
        double t0 = now();
        for (size_t b = 0; b < m; b += LANES) {
          bi_call c;
          memset(&c, 0, sizeof c);
          c.dst = out + b * es;
          c.dst_stride = es;
          c.src[0] = xs + b * es;
          c.src[1] = ys + b * es;
          c.src_stride[0] = c.src_stride[1] = es;
          c.lanes = lanes;
          c.nlanes = LANES;
          c.literal = r.literal;
          r.fn(&c);
        }
        const double tb = (now() - t0) / (double)m;
        fb = bi_math_fallbacks() - f0;
        double acc = 0;
        t0 = now();
        for (size_t i = 0; i < m; i++) acc += host((which)fi, xd[i], yd[i]);
        const double th = (now() - t0) / (double)m;
        sink = acc;
        if (tb < best_bi) best_bi = tb;
        if (th < best_host) best_host = th;
      }
      const double ratio = best_bi / best_host;
      const bool target = t == 1 && (fi == W_SIN || fi == W_EXP || fi == W_LOG || fi == W_POW);
      printf("%-7s %-6s %10.1f %10.1f %7.2f %10.2e%s\n", FN[fi].name, tname[t], best_bi * 1e9, best_host * 1e9, ratio,
             (double)fb / (double)m, target ? (ratio <= 3 ? "  (target <= 3: ok)" : "  (target <= 3: MISSED)") : "");
      if (target && ratio > 3) fail = 1;
    }
  free(xd);
  free(yd);
  free(xs);
  free(ys);
  free(out);
  return fail;
}
