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
#define BUF_GEN_U(n, s) \
  { .kind = BARG_BUFFER, .elem = BE_UINT, .count = (n), .init = BINIT_GEN, .seed = (s) }
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
  /* Issue #18's kernels "that look like real work". Sizes: PoCL on one core needs >= 10 ms. */
  {.name = "sgemm_tiled",
   .what = "SGEMM 256^3 with 16x16 __local tiles and barriers (fma k-loop)",
   .dims = 2,
   .global = {256, 256},
   .local = {16, 16},
   .reduced_rows = 32,
   .nargs = 4,
   .args = {BUF_RANDOM_F(256 * 256, 11, -1, 1), BUF_RANDOM_F(256 * 256, 12, -1, 1), BUF_OUT(BE_FLOAT, 256 * 256),
            VAL_INT(256)},
   .check = bench_check_sgemm},
  {.name = "conv2d",
   .what = "5x5 convolution of a 1024x1024 float image, clamp-to-edge",
   .dims = 2,
   .global = {1024, 1024},
   .local = {16, 16},
   .reduced_rows = 64,
   .nargs = 5,
   .args = {BUF_RANDOM_F(MI, 13, -1, 1), BUF_RANDOM_F(25, 14, -0.25, 0.25), BUF_OUT(BE_FLOAT, MI), VAL_INT(1024),
            VAL_INT(1024)},
   .check = bench_check_conv2d},
  /* 256K x 256K, 4M non-zeros: rows of 1..24 and (1 in 64) 64..511 entries, scaled to the nnz. */
  {.name = "spmv_csr",
   .what = "CSR sparse matrix-vector product, 256K rows, 4M irregular non-zeros, one item per row",
   .dims = 1,
   .global = {256 * 1024, 1},
   .local = {256, 1},
   .reduced_rows = 32 * 1024,
   .nargs = 5,
   .args = {BUF_GEN_U(256 * 1024 + 1, 15), BUF_RANDOM_U(4 * MI, 16, 0, 256 * 1024 - 1), BUF_RANDOM_F(4 * MI, 17, -1, 1),
            BUF_RANDOM_F(256 * 1024, 18, -1, 1), BUF_OUT(BE_FLOAT, 256 * 1024)},
   .check = bench_check_spmv,
   .gen = bench_gen_spmv},
  {.name = "scan",
   .what = "Blelloch exclusive scan of 2M uint in blocks of 512 (local memory) + block totals",
   .dims = 1,
   .global = {MI, 1},
   .local = {256, 1},
   .reduced_rows = MI / 8,
   .nargs = 4,
   .args = {BUF_RANDOM_U(2 * MI, 19, 0, 65535), BUF_OUT(BE_UINT, 2 * MI), BUF_OUT(BE_UINT, 2 * MI / 512),
            LOCAL(512 * 4)},
   .check = bench_check_scan},
  {.name = "bitonic",
   .what = "bitonic sort of 1M uint keys in blocks of 512 (local memory)",
   .dims = 1,
   .global = {MI / 2, 1},
   .local = {256, 1},
   .reduced_rows = MI / 32,
   .nargs = 3,
   .args = {BUF_RANDOM_U(MI, 20, 0, 4294967295.0), BUF_OUT(BE_UINT, MI), LOCAL(512 * 4)},
   .check = bench_check_bitonic},
  /* dt = 2^-10 and eps2 = 2^-8 are exact in binary. */
  {.name = "nbody",
   .what = "n-body step, 4096 bodies, all pairs, rsqrt",
   .dims = 1,
   .global = {4096, 1},
   .local = {64, 1},
   .reduced_rows = 256,
   .nargs = 8,
   .args = {BUF_RANDOM_F(3 * 4096, 21, -1, 1), BUF_RANDOM_F(3 * 4096, 22, -0.0625, 0.0625),
            BUF_RANDOM_F(4096, 23, 0.5, 1.5), BUF_OUT(BE_FLOAT, 3 * 4096), BUF_OUT(BE_FLOAT, 3 * 4096),
            VAL_FLOAT(0x1p-10f), VAL_FLOAT(0x1p-8f), VAL_INT(4096)},
   .check = bench_check_nbody},
  /* 1M nodes, 4M undirected edges (8M directed entries); levels 0..cur from node 0 set. */
  {.name = "bfs",
   .what = "bottom-up BFS step, 1M nodes, 4M random edges with hubs (divergent loops)",
   .dims = 1,
   .global = {MI, 1},
   .local = {256, 1},
   .reduced_rows = MI / 16,
   .nargs = 6,
   .args = {BUF_GEN_U(MI + 1, 24), BUF_GEN_U(8 * MI, 24), BUF_GEN_U(MI, 24), BUF_OUT(BE_UINT, MI), BUF_OUT(BE_UINT, 1),
            VAL_INT(2)},
   .check = bench_check_bfs,
   .gen = bench_gen_bfs},
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
