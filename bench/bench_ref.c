/*
 * bench_ref.c — the C references of the benchmark kernels and the output checks. Every kernel but
 * vadd_sin is checked bit-exactly (the kernels are written so that their rounding is fully
 * specified: fma() in sgemm, FP_CONTRACT OFF in mandelbrot and stencil, a fixed tree in reduce,
 * integers elsewhere). Work-items beyond a reduced run's global size must leave their outputs 0.
 * Compiled with -ffp-contract=off so the C side rounds every operation once, like the kernels.
 */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

bool bench_correctly_rounded = false;

bool bench_compare_words(const char *what, const uint32_t *want, const uint32_t *got, size_t n, bool is_float,
                         char *msg, size_t msglen) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; i++)
    if (want[i] != got[i] && bad++ == 0) first = i;
  if (!bad) return true;
  float wf, gf;
  memcpy(&wf, &want[first], 4);
  memcpy(&gf, &got[first], 4);
  if (is_float)
    snprintf(msg, msglen, "%s: %zu of %zu elements differ; first at [%zu]: got %.9g (0x%08x), want %.9g (0x%08x)", what,
             bad, n, first, gf, got[first], wf, want[first]);
  else
    snprintf(msg, msglen, "%s: %zu of %zu elements differ; first at [%zu]: got %u, want %u", what, bad, n, first,
             got[first], want[first]);
  return false;
}

bool bench_check_prefix(const char *what, uint32_t *ref, size_t done, const void *got, size_t n, bool is_float,
                        char *msg, size_t msglen) {
  for (size_t i = done; i < n; i++) ref[i] = 0;
  return bench_compare_words(what, ref, got, n, is_float, msg, msglen);
}

static float ulpf(float x) {
  x = fabsf(x);
  return nextafterf(x, INFINITY) - x;
}

/* vadd_sin: OpenCL C allows sin an error of 4 ulp (OpenCL 1.2 §7.4, table 7.1; the same in 2.0 and 3.0)
 * and the addition then rounds once more, so an element may differ from a[i] + sin_cr(b[i]) (with
 * sin_cr the correctly rounded sine, here from double sin) by 4 ulp of the sine, half an ulp for the
 * reference's own rounding of the sine, and an ulp of the sum for the two final roundings: the
 * tolerance is 5 ulp(sin) + 1 ulp(result). A dropped or wrong term is orders of magnitude larger. */
bool bench_check_vadd_sin(const bench_kernel *k, size_t rows, void *const in[], void *const out[], char *msg,
                          size_t msglen) {
  const float *a = in[0], *b = in[1], *c = out[2];
  size_t n = k->args[2].count, bad = 0, first = 0;
  float first_want = 0, first_tol = 0;
  for (size_t i = 0; i < n; i++) {
    float want = 0, tol = 0;
    if (i < rows) {
      float s = (float)sin((double)b[i]);
      want = a[i] + s;
      tol = 5 * ulpf(s) + ulpf(fabsf(want) > fabsf(c[i]) ? want : c[i]);
    }
    bool ok = i < rows ? !isnan(c[i]) && fabsf(c[i] - want) <= tol : bits(c[i]) == 0;
    if (!ok && bad++ == 0) {
      first = i;
      first_want = want;
      first_tol = tol;
    }
  }
  if (!bad) return true;
  snprintf(msg, msglen, "vadd_sin: %zu of %zu elements outside tolerance; first at [%zu]: got %.9g, want %.9g +- %.3g",
           bad, n, first, c[first], first_want, first_tol);
  return false;
}

bool bench_check_sgemm(const bench_kernel *k, size_t rows, void *const in[], void *const out[], char *msg,
                       size_t msglen) {
  const float *A = in[0], *B = in[1];
  size_t n = (size_t)k->args[3].ival, total = k->args[2].count;
  float *ref = malloc(total * sizeof *ref);
  if (!ref) return snprintf(msg, msglen, "out of memory"), false;
  for (size_t i = 0; i < rows; i++)
    for (size_t j = 0; j < n; j++) {
      float acc = 0.0f;
      for (size_t kk = 0; kk < n; kk++) acc = fmaf(A[i * n + kk], B[kk * n + j], acc);
      ref[i * n + j] = acc;
    }
  bool ok = bench_check_prefix("sgemm C", (uint32_t *)ref, rows * n, out[2], total, true, msg, msglen);
  free(ref);
  return ok;
}

bool bench_check_reduce(const bench_kernel *k, size_t rows, void *const in[], void *const out[], char *msg,
                        size_t msglen) {
  const float *x = in[0];
  size_t group = k->local[0], ngroups = k->args[2].count, done = rows / group;
  float *ref = malloc(ngroups * sizeof *ref), *tmp = malloc(group * sizeof *tmp);
  bool ok = false;
  if (!ref || !tmp) {
    snprintf(msg, msglen, "out of memory");
    goto done;
  }
  for (size_t g = 0; g < done; g++) {
    memcpy(tmp, x + g * group, group * sizeof *tmp);
    for (size_t s = group / 2; s > 0; s >>= 1)
      for (size_t l = 0; l < s; l++) tmp[l] += tmp[l + s];
    ref[g] = tmp[0];
  }
  ok = bench_check_prefix("reduce partial sums", (uint32_t *)ref, done, out[2], ngroups, true, msg, msglen);
done:
  free(ref);
  free(tmp);
  return ok;
}

bool bench_check_mandelbrot(const bench_kernel *k, size_t rows, void *const in[], void *const out[], char *msg,
                            size_t msglen) {
  (void)in;
  int width = k->args[1].ival, maxit = k->args[5].ival;
  float xmin = k->args[2].fval, ymin = k->args[3].fval, step = k->args[4].fval;
  size_t total = k->args[0].count;
  uint32_t *ref = malloc(total * sizeof *ref);
  if (!ref) return snprintf(msg, msglen, "out of memory"), false;
  for (size_t py = 0; py < rows; py++)
    for (int px = 0; px < width; px++) {
      float x0 = xmin + (float)px * step, y0 = ymin + (float)(int)py * step;
      float x = 0.0f, y = 0.0f;
      int it = 0;
      while (it < maxit && x * x + y * y <= 4.0f) {
        float xt = x * x - y * y + x0;
        y = 2.0f * x * y + y0;
        x = xt;
        it++;
      }
      ref[py * (size_t)width + (size_t)px] = (uint32_t)it;
    }
  bool ok = bench_check_prefix("mandelbrot counts", ref, rows * (size_t)width, out[0], total, false, msg, msglen);
  free(ref);
  return ok;
}

bool bench_check_stencil(const bench_kernel *k, size_t rows, void *const in[], void *const out[], char *msg,
                         size_t msglen) {
  const float *x = in[0];
  size_t n = (size_t)k->args[2].ival, total = k->args[1].count;
  float *ref = malloc(total * sizeof *ref);
  if (!ref) return snprintf(msg, msglen, "out of memory"), false;
  for (size_t i = 0; i < rows; i++)
    ref[i] = i < 2 || i >= n - 2 ? x[i]
                                 : 0.5f * x[i] + 0.1875f * (x[i - 1] + x[i + 1]) + 0.0625f * (x[i - 2] + x[i + 2]);
  bool ok = bench_check_prefix("stencil out", (uint32_t *)ref, rows, out[1], total, true, msg, msglen);
  free(ref);
  return ok;
}

bool bench_check_collatz(const bench_kernel *k, size_t rows, void *const in[], void *const out[], char *msg,
                         size_t msglen) {
  const uint32_t *start = in[0];
  size_t total = k->args[1].count;
  uint32_t *ref = malloc(total * sizeof *ref);
  if (!ref) return snprintf(msg, msglen, "out of memory"), false;
  for (size_t i = 0; i < rows; i++) {
    uint64_t v = start[i];
    uint32_t n = 0;
    while (v > 1 && n < 100000u) {
      v = (v & 1) ? 3 * v + 1 : v >> 1;
      n++;
    }
    ref[i] = n;
  }
  bool ok = bench_check_prefix("collatz steps", ref, rows, out[1], total, false, msg, msglen);
  free(ref);
  return ok;
}

bool bench_check_histogram(const bench_kernel *k, size_t rows, void *const in[], void *const out[], char *msg,
                           size_t msglen) {
  const uint32_t *data = in[0];
  size_t bins = k->args[1].count;
  uint32_t *ref = calloc(bins, sizeof *ref);
  if (!ref) return snprintf(msg, msglen, "out of memory"), false;
  for (size_t i = 0; i < rows; i++) ref[data[i] & 255u]++;
  bool ok = bench_compare_words("histogram bins", ref, out[1], bins, false, msg, msglen);
  free(ref);
  return ok;
}

bool bench_check_run(const bench_kernel *k, size_t rows, void *const in[], void *const bufs[], char *msg,
                     size_t msglen) {
  for (int i = 0; i < k->nargs; i++) {
    const bench_arg *a = &k->args[i];
    if (a->kind != BARG_BUFFER || a->output) continue;
    char what[64];
    snprintf(what, sizeof what, "input arg%d (changed, or generated differently)", i);
    if (!bench_compare_words(what, in[i], bufs[i], a->count, a->elem == BE_FLOAT, msg, msglen)) return false;
  }
  return k->check(k, rows, in, bufs, msg, msglen);
}
