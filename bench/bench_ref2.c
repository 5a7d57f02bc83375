/*
 * bench_ref2.c — the C references and output checks of the second set of benchmark kernels (issue
 * #18: conv2d, spmv_csr, scan, bitonic, nbody, bfs; sgemm_tiled shares sgemm's check). Like
 * bench_ref.c, compiled with -ffp-contract=off: every float operation rounds once, in the kernel's
 * order. All are bit-exact except nbody on an implementation whose rsqrt is not correctly rounded
 * (bench_correctly_rounded false), which gets the tolerance OpenCL's 2 ulp bound for rsqrt implies.
 * Outputs beyond a reduced run's rows must stay 0.
 */
#include "bench.h"

#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool oom(char *msg, size_t msglen) {
  snprintf(msg, msglen, "out of memory");
  return false;
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

bool bench_check_conv2d(const bench_kernel *k, size_t rows, void *const in[], void *const out[], char *msg,
                        size_t msglen) {
  const float *img = in[0], *wt = in[1];
  int w = k->args[3].ival, h = k->args[4].ival;
  size_t total = k->args[2].count;
  float *ref = malloc(total * sizeof *ref);
  if (!ref) return oom(msg, msglen);
  for (int y = 0; y < (int)rows; y++)
    for (int x = 0; x < w; x++) {
      float acc = 0.0f;
      for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++)
          acc = acc + wt[(dy + 2) * 5 + dx + 2] * img[clampi(y + dy, 0, h - 1) * w + clampi(x + dx, 0, w - 1)];
      ref[(size_t)y * (size_t)w + (size_t)x] = acc;
    }
  bool ok = bench_check_prefix("conv2d out", (uint32_t *)ref, rows * (size_t)w, out[2], total, true, msg, msglen);
  free(ref);
  return ok;
}

bool bench_check_spmv(const bench_kernel *k, size_t rows, void *const in[], void *const out[], char *msg,
                      size_t msglen) {
  const uint32_t *row_ptr = in[0], *col = in[1];
  const float *val = in[2], *x = in[3];
  size_t total = k->args[4].count;
  float *ref = malloc(total * sizeof *ref);
  if (!ref) return oom(msg, msglen);
  for (size_t r = 0; r < rows; r++) {
    float acc = 0.0f;
    for (uint32_t p = row_ptr[r]; p < row_ptr[r + 1]; p++) acc = acc + val[p] * x[col[p]];
    ref[r] = acc;
  }
  bool ok = bench_check_prefix("spmv_csr y", (uint32_t *)ref, rows, out[4], total, true, msg, msglen);
  free(ref);
  return ok;
}

/* scan: the exclusive prefix sums of each block of 2 x local elements (a sequential scan: the
 * Blelloch tree computes the same integers modulo 2^32) and the block totals. */
bool bench_check_scan(const bench_kernel *k, size_t rows, void *const in[], void *const out[], char *msg,
                      size_t msglen) {
  const uint32_t *x = in[0];
  size_t block = 2 * k->local[0], groups = rows / k->local[0];
  size_t total = k->args[1].count, nsums = k->args[2].count;
  uint32_t *ref = malloc(total * sizeof *ref), *sums = malloc(nsums * sizeof *sums);
  bool ok = false;
  if (!ref || !sums) {
    oom(msg, msglen);
    goto done;
  }
  for (size_t g = 0; g < groups; g++) {
    uint32_t acc = 0;
    for (size_t i = g * block; i < (g + 1) * block; i++) {
      ref[i] = acc;
      acc += x[i];
    }
    sums[g] = acc;
  }
  ok = bench_check_prefix("scan out", ref, groups * block, out[1], total, false, msg, msglen) &&
       bench_check_prefix("scan block sums", sums, groups, out[2], nsums, false, msg, msglen);
done:
  free(ref);
  free(sums);
  return ok;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* bitonic: each block of 2 x local keys sorted ascending (by qsort: an independent algorithm). */
bool bench_check_bitonic(const bench_kernel *k, size_t rows, void *const in[], void *const out[], char *msg,
                         size_t msglen) {
  size_t block = 2 * k->local[0], done = 2 * rows, total = k->args[1].count;
  uint32_t *ref = malloc(total * sizeof *ref);
  if (!ref) return oom(msg, msglen);
  memcpy(ref, in[0], done * sizeof *ref);
  for (size_t b = 0; b < done; b += block) qsort(ref + b, block, sizeof *ref, cmp_u32);
  bool ok = bench_check_prefix("bitonic out", ref, done, out[1], total, false, msg, msglen);
  free(ref);
  return ok;
}

/* The correctly rounded float 1/sqrt(x) for a positive normal x. In double, y = 1/sqrt(x) has a
 * relative error below 2^-52 (two correctly rounded operations: (1 + 2^-53)^2 / (1 - 2^-53)), so
 * RN_float(y) is the correctly rounded result unless y lies within that distance of a midpoint
 * between two floats; such rare cases are decided by MPFR (mpfr_rec_sqrt at 24 bits, round to
 * nearest). 1/sqrt(x) is never a midpoint itself: a midpoint is M 2^e with M odd and >= 2^24, and
 * x = 1/m^2 would then not be a binary fraction. */
static float rsqrt_cr(float x, mpfr_t mx, mpfr_t my) {
  double y = 1.0 / sqrt((double)x);
  float f = (float)y;
  double lo = ((double)f + (double)nextafterf(f, 0.0f)) / 2, hi = ((double)f + (double)nextafterf(f, INFINITY)) / 2;
  double margin = y * 0x1p-51; /* twice the error bound */
  if (fabs(y - lo) > margin && fabs(y - hi) > margin) return f;
  mpfr_set_flt(mx, x, MPFR_RNDN);
  mpfr_rec_sqrt(my, mx, MPFR_RNDN);
  return mpfr_get_flt(my, MPFR_RNDN);
}

/* The smallest float >= d (up) or the largest <= d (down). */
static float float_toward(double d, bool up) {
  float f = (float)d;
  if (up && (double)f < d) return nextafterf(f, INFINITY);
  if (!up && (double)f > d) return nextafterf(f, -INFINITY);
  return f;
}

typedef struct nbody_body {
  float a[3];  /* acceleration, rounded as the kernel does */
  double t[3]; /* sum of |term| per axis, for the tolerance */
} nbody_body;

static void nbody_accel(const float *pos, const float *mass, int n, int i, mpfr_t mx, mpfr_t my, float eps2,
                        nbody_body *b) {
  memset(b, 0, sizeof *b);
  const float *pi = pos + 3 * i;
  for (int j = 0; j < n; j++) {
    float d[3] = {pos[3 * j] - pi[0], pos[3 * j + 1] - pi[1], pos[3 * j + 2] - pi[2]};
    float inv = rsqrt_cr(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2, mx, my);
    float s = mass[j] * (inv * inv * inv);
    for (int c = 0; c < 3; c++) {
      b->a[c] = b->a[c] + d[c] * s;
      b->t[c] += fabs((double)(d[c] * s));
    }
  }
}

/* got in [lim[0], lim[1]]; bit-identical (signed zeros, no NaN) when the interval is one value. */
static bool nbody_within(float got, const float lim[2]) {
  if (lim[0] == lim[1] || isnan(lim[0])) return !memcmp(&got, &lim[0], sizeof got);
  return got >= lim[0] && got <= lim[1];
}

/* nbody. With a correctly rounded rsqrt every operation is specified: bit-exact. Otherwise rsqrt
 * may be off by 2 ulp (OpenCL C 1.2 §7.4 table 7.1; 2.0 §7.4 table 7.1), a relative error of at
 * most 2^-22. A term m_j d s of the sum is then the exact term times (1 + 2^-22)^3 (1 + u)^4 for the
 * implementation (four more roundings, u = 2^-24) and (1 + u)^7 for this reference: together at
 * most 23.01 u |term| apart; and each side's summation of n terms in the same order is within
 * gamma(n-1) = (n-1)u / (1 - (n-1)u) of the sum of its terms (Higham, Accuracy and Stability of
 * Numerical Algorithms, §4.2). So |a_impl - a_ref| <= (24 u + 2.02 gamma(n-1)) T with T the sum of
 * |term| (the extra u and 0.02 cover the reference's own T and the second-order terms). v' = v +
 * a dt and p' = p + v' dt are monotone in a and v' (dt > 0, round to nearest is monotone), so v'
 * must lie between the values computed from the two ends of a's interval, and p' likewise. */
bool bench_check_nbody(const bench_kernel *k, size_t rows, void *const in[], void *const out[], char *msg,
                       size_t msglen) {
  const float *pos = in[0], *vel = in[1], *mass = in[2], *pout = out[3], *vout = out[4];
  float dt = k->args[5].fval, eps2 = k->args[6].fval;
  int n = k->args[7].ival;
  double u = 0x1p-24, gamma = (n - 1) * u / (1 - (n - 1) * u),
         rel = bench_correctly_rounded ? 0 : 24 * u + 2.02 * gamma;
  size_t total = k->args[3].count, bad = 0;
  char first[256] = "";
  mpfr_t mx, my;
  mpfr_inits2(24, mx, my, (mpfr_ptr)0);
  nbody_body b; /* of body e / 3: its three axes come one after the other */
  for (size_t e = 0; e < total; e++) {
    float v[2] = {0, 0}, p[2] = {0, 0}; /* the allowed [low, high] of v' and p' (0 beyond rows) */
    if (e / 3 < rows) {
      if (e % 3 == 0) nbody_accel(pos, mass, n, (int)(e / 3), mx, my, eps2, &b);
      double a = b.a[e % 3], tol = rel * b.t[e % 3];
      float as[2] = {float_toward(a - tol, false), float_toward(a + tol, true)};
      for (int s = 0; s < 2; s++) {
        v[s] = vel[e] + as[s] * dt;
        p[s] = pos[e] + v[s] * dt;
      }
    }
    bool ok = nbody_within(vout[e], v) && nbody_within(pout[e], p);
    if (!ok && bad++ == 0)
      snprintf(first, sizeof first, "first at body %zu axis %zu: v' %.9g want [%.9g, %.9g], p' %.9g want [%.9g, %.9g]",
               e / 3, e % 3, vout[e], v[0], v[1], pout[e], p[0], p[1]);
  }
  mpfr_clears(mx, my, (mpfr_ptr)0);
  if (!bad) return true;
  snprintf(msg, msglen, "nbody (%s): %zu of %zu values outside; %s",
           bench_correctly_rounded ? "bit-exact, correctly rounded rsqrt" : "rsqrt within 2 ulp", bad, total, first);
  return false;
}

/* bfs: the same bottom-up step, sequentially; `reached` counts the nodes it reached. */
bool bench_check_bfs(const bench_kernel *k, size_t rows, void *const in[], void *const out[], char *msg,
                     size_t msglen) {
  const uint32_t *row_ptr = in[0], *col = in[1], *level = in[2];
  uint32_t cur = (uint32_t)k->args[5].ival, reached = 0;
  size_t total = k->args[3].count;
  uint32_t *ref = malloc(total * sizeof *ref);
  if (!ref) return oom(msg, msglen);
  for (size_t v = 0; v < rows; v++) {
    ref[v] = level[v];
    for (uint32_t p = row_ptr[v]; ref[v] == UINT32_MAX && p < row_ptr[v + 1]; p++)
      if (level[col[p]] == cur) {
        ref[v] = cur + 1;
        reached++;
      }
  }
  bool ok = bench_check_prefix("bfs next_level", ref, rows, out[3], total, false, msg, msglen) &&
            bench_compare_words("bfs reached", &reached, out[4], 1, false, msg, msglen);
  free(ref);
  return ok;
}
