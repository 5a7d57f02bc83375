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
    if (a->init != BINIT_RANDOM) continue; /* BINIT_GEN: below, once every buffer exists */
    if (a->elem == BE_FLOAT) fill_random_float(bufs[i], a->count, a->seed, a->lo, a->hi);
    else /* the table's integer ranges are non-negative and at most 32 bits wide */
      fill_random_uint(bufs[i], a->count, a->seed, (uint64_t)a->lo, (uint64_t)a->hi);
  }
  if (k->gen && !k->gen(k, bufs)) {
    bench_free_inputs(k, bufs);
    return false;
  }
  return true;
}

void bench_free_inputs(const bench_kernel *k, void *bufs[BENCH_MAX_ARGS]) {
  for (int i = 0; i < k->nargs; i++) {
    free(bufs[i]);
    bufs[i] = NULL;
  }
}

/* spmv_csr's row pointers (argument 0: rows + 1 entries, ending at the nnz of argument 1): row
 * lengths L drawn from the seed's stream — 1 row in 64 long (64..511), the others 1..24, as in
 * matrices with a few dense rows — then scaled so that they sum to nnz exactly:
 * row_ptr[i] = floor(prefix_i * nnz / sum L). The column indices and values are random() buffers. */
bool bench_gen_spmv(const bench_kernel *k, void *const bufs[]) {
  uint32_t *row_ptr = bufs[0];
  size_t rows = k->args[0].count - 1;
  uint64_t nnz = k->args[1].count, st = k->args[0].seed, sum = 0;
  for (size_t i = 0; i < rows; i++) {
    uint64_t x = splitmix64_next(&st);
    row_ptr[i + 1] = (uint32_t)(x % 64 == 0 ? 64 + (x >> 8) % 448 : 1 + (x >> 8) % 24);
    sum += row_ptr[i + 1];
  }
  uint64_t prefix = 0;
  row_ptr[0] = 0;
  for (size_t i = 1; i <= rows; i++) {
    prefix += row_ptr[i];
    row_ptr[i] = (uint32_t)(prefix * nnz / sum); /* prefix * nnz < 2^64: at most 2^20 * 512 * 2^23 */
  }
  return true;
}

/* A node for one end of a bfs edge: 1 end in 8 is one of the first nodes/1024 ("hubs", degree
 * about a thousand), the others uniform, so degrees are irregular. */
static uint32_t bfs_pick(uint64_t *st, size_t nodes) {
  uint64_t x = splitmix64_next(st);
  return (uint32_t)((x & 7) == 0 ? (x >> 3) % (nodes / 1024) : (x >> 3) % nodes);
}

/* bfs's graph and levels (arguments 0, 1, 2: row_ptr of nodes + 1 entries, col of 2 * pairs,
 * level of nodes; argument 5 is the frontier level cur): `pairs` undirected edges {u, v} from the
 * seed's stream, stored in both directions in CSR form (neighbours in edge order); then levels by
 * a breadth-first search from node 0 up to cur, UINT32_MAX for nodes farther away. */
bool bench_gen_bfs(const bench_kernel *k, void *const bufs[]) {
  uint32_t *row_ptr = bufs[0], *col = bufs[1], *level = bufs[2];
  size_t nodes = k->args[2].count, pairs = k->args[1].count / 2;
  uint32_t cur = (uint32_t)k->args[5].ival, *ends = malloc(2 * pairs * sizeof *ends);
  uint32_t *fill = calloc(nodes, sizeof *fill);
  if (!ends || !fill) {
    free(ends);
    free(fill);
    return false;
  }
  uint64_t st = k->args[0].seed;
  memset(row_ptr, 0, (nodes + 1) * sizeof *row_ptr);
  for (size_t e = 0; e < 2 * pairs; e++) row_ptr[(ends[e] = bfs_pick(&st, nodes)) + 1]++;
  for (size_t v = 0; v < nodes; v++) row_ptr[v + 1] += row_ptr[v];
  for (size_t e = 0; e < 2 * pairs; e += 2) {
    uint32_t u = ends[e], v = ends[e + 1];
    col[row_ptr[u] + fill[u]++] = v;
    col[row_ptr[v] + fill[v]++] = u;
  }
  for (size_t v = 0; v < nodes; v++) level[v] = UINT32_MAX;
  level[0] = 0;
  for (uint32_t d = 0; d < cur; d++)
    for (size_t u = 0; u < nodes; u++)
      if (level[u] == d)
        for (uint32_t p = row_ptr[u]; p < row_ptr[u + 1]; p++)
          if (level[col[p]] == UINT32_MAX) level[col[p]] = d + 1;
  free(ends);
  free(fill);
  return true;
}
