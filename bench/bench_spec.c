/*
 * bench_spec.c — the benchmark kernels: for each one its NDRange (full problem and the reduced
 * one used under Oclgrind), its arguments with their deterministic initialisers, and its check.
 * This table is the single description that bench_tool (spvi command lines, checks) and ocl_host
 * (OpenCL runs) both read, so every implementation sees exactly the same inputs.
 */
#include "bench.h"

#include <string.h>

#define MI (1024u * 1024u)

#define BUF_RANDOM_F(n, s, l, h) \
  { .kind = BARG_BUFFER, .elem = BE_FLOAT, .count = (n), .init = BINIT_RANDOM, .seed = (s), .lo = (l), .hi = (h) }
#define BUF_RANDOM_U(n, s, l, h) \
  { .kind = BARG_BUFFER, .elem = BE_UINT, .count = (n), .init = BINIT_RANDOM, .seed = (s), .lo = (l), .hi = (h) }
#define BUF_OUT(e, n) \
  { .kind = BARG_BUFFER, .elem = (e), .count = (n), .init = BINIT_ZERO, .output = true }
#define VAL_INT(v) \
  { .kind = BARG_INT, .ival = (v) }
#define VAL_FLOAT(v) \
  { .kind = BARG_FLOAT, .fval = (v) }
#define LOCAL(bytes) \
  { .kind = BARG_LOCAL, .count = (bytes) }

static const bench_kernel kernels[] = {
  {.name = "vadd_sin",
   .what = "c[i] = a[i] + sin(b[i]), 1M items",
   .dims = 1,
   .global = {MI, 1},
   .local = {256, 1},
   .reduced_rows = MI / 4,
   .nargs = 3,
   .args = {BUF_RANDOM_F(MI, 1, -1, 1), BUF_RANDOM_F(MI, 2, -10, 10), BUF_OUT(BE_FLOAT, MI)},
   .check = bench_check_vadd_sin},
  {.name = "sgemm",
   .what = "naive SGEMM 256^3 (fma k-loop), one item per element",
   .dims = 2,
   .global = {256, 256},
   .local = {16, 16},
   .reduced_rows = 64,
   .nargs = 4,
   .args = {BUF_RANDOM_F(256 * 256, 3, -1, 1), BUF_RANDOM_F(256 * 256, 4, -1, 1), BUF_OUT(BE_FLOAT, 256 * 256),
            VAL_INT(256)},
   .check = bench_check_sgemm},
  {.name = "reduce",
   .what = "local-memory tree reduction, 1M items, groups of 256",
   .dims = 1,
   .global = {MI, 1},
   .local = {256, 1},
   .reduced_rows = MI / 4,
   .nargs = 3,
   .args = {BUF_RANDOM_F(MI, 5, -1, 1), LOCAL(256 * 4), BUF_OUT(BE_FLOAT, MI / 256)},
   .check = bench_check_reduce},
  /* step = 3/512 = 0x1.8p-8 exactly: the image covers [-2, 1) x [-1.5, 1.5). */
  {.name = "mandelbrot",
   .what = "Mandelbrot 512x512, 256 iterations",
   .dims = 2,
   .global = {512, 512},
   .local = {16, 16},
   .reduced_rows = 128,
   .nargs = 6,
   .args = {BUF_OUT(BE_INT, 512 * 512), VAL_INT(512), VAL_FLOAT(-2.0f), VAL_FLOAT(-1.5f), VAL_FLOAT(0x1.8p-8f),
            VAL_INT(256)},
   .check = bench_check_mandelbrot},
  {.name = "stencil",
   .what = "1D 5-point stencil, 1M items",
   .dims = 1,
   .global = {MI, 1},
   .local = {256, 1},
   .reduced_rows = MI / 4,
   .nargs = 3,
   .args = {BUF_RANDOM_F(MI, 6, -1, 1), BUF_OUT(BE_FLOAT, MI), VAL_INT((int32_t)MI)},
   .check = bench_check_stencil},
  {.name = "collatz",
   .what = "Collatz steps of random starts in [1, 10^6] (divergent loops), 1M items",
   .dims = 1,
   .global = {MI, 1},
   .local = {256, 1},
   .reduced_rows = MI / 16,
   .nargs = 2,
   .args = {BUF_RANDOM_U(MI, 7, 1, 1000000), BUF_OUT(BE_UINT, MI)},
   .check = bench_check_collatz},
  {.name = "histogram",
   .what = "256-bin histogram, atomic_inc on global memory, 1M items",
   .dims = 1,
   .global = {MI, 1},
   .local = {256, 1},
   .reduced_rows = MI / 4,
   .nargs = 2,
   .args = {BUF_RANDOM_U(MI, 8, 0, 4294967295.0), BUF_OUT(BE_UINT, 256)},
   .check = bench_check_histogram},
};

int bench_kernel_count(void) { return (int)(sizeof kernels / sizeof kernels[0]); }

const bench_kernel *bench_kernel_at(int i) { return i >= 0 && i < bench_kernel_count() ? &kernels[i] : NULL; }

const bench_kernel *bench_kernel_find(const char *name) {
  for (int i = 0; i < bench_kernel_count(); i++)
    if (strcmp(kernels[i].name, name) == 0) return &kernels[i];
  return NULL;
}

size_t bench_elem_size(bench_elem e) {
  (void)e;
  return 4; /* float, int, uint */
}

size_t bench_buffer_bytes(const bench_arg *a) {
  return a->kind == BARG_BUFFER ? a->count * bench_elem_size(a->elem) : 0;
}

size_t bench_total_buffer_bytes(const bench_kernel *k) {
  size_t total = 0;
  for (int i = 0; i < k->nargs; i++) total += bench_buffer_bytes(&k->args[i]);
  return total;
}
