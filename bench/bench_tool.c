/*
 * bench_tool.c — the benchmark runner's helper for spvi runs, driven by bench/bench.py:
 *   bench_tool list                  one line per kernel: name, dims, global, local, reduced rows,
 *                                    bytes of its __global buffers, description (tab-separated)
 *   bench_tool args NAME ROWS [DIR]  the `spvi run` options and ARGs for the kernel, one per line,
 *                                    with the global size along the last dimension set to ROWS;
 *                                    structured inputs (CSR matrices, graphs) are written to
 *                                    DIR/argI.u32 (raw, little-endian; DIR must exist) and passed
 *                                    as `uint[N]=@DIR/argI.u32`
 *   bench_tool check NAME ROWS DIR   regenerates the inputs, reads DIR/argI.npy (spvi --out) and
 *                                    checks them against the C reference: exit 0 match, 1 mismatch
 *                                    (reason on stdout), 2 error
 */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *type_name(bench_elem e) { return e == BE_FLOAT ? "float" : e == BE_INT ? "int" : "uint"; }

static void print_sizes(const size_t v[2], unsigned dims) {
  if (dims == 1) printf("%zu\n", v[0]);
  else printf("%zu,%zu\n", v[0], v[1]);
}

static int cmd_list(void) {
  for (int i = 0; i < bench_kernel_count(); i++) {
    const bench_kernel *k = bench_kernel_at(i);
    printf("%s\t%u\t%zu,%zu\t%zu,%zu\t%zu\t%zu\t%s\n", k->name, k->dims, k->global[0], k->global[1], k->local[0],
           k->local[1], k->reduced_rows, bench_total_buffer_bytes(k), k->what);
  }
  return 0;
}

/* Writes the kernel's BINIT_GEN buffers to DIR/argI.u32 (spvi's `@PATH` takes a raw file of
 * exactly COUNT x 4 bytes, little-endian: the byte order of the machines this runs on). */
static bool write_generated(const bench_kernel *k, const char *dir) {
  void *in[BENCH_MAX_ARGS];
  if (!bench_gen_inputs(k, in)) return fprintf(stderr, "bench_tool: out of memory\n"), false;
  bool ok = true;
  for (int i = 0; i < k->nargs && ok; i++) {
    if (k->args[i].kind != BARG_BUFFER || k->args[i].init != BINIT_GEN) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/arg%d.u32", dir, i);
    FILE *f = fopen(path, "wb");
    ok = f && fwrite(in[i], 4, k->args[i].count, f) == k->args[i].count;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) fprintf(stderr, "bench_tool: cannot write %s\n", path);
  }
  bench_free_inputs(k, in);
  return ok;
}

static int cmd_args(const bench_kernel *k, size_t rows, const char *dir) {
  if (k->gen && !dir) {
    fprintf(stderr, "bench_tool: kernel `%s` has generated inputs: give a DIR for their files\n", k->name);
    return 2;
  }
  if (k->gen && !write_generated(k, dir)) return 2;
  size_t g[2] = {k->global[0], k->global[1]};
  g[k->dims - 1] = rows;
  printf("-k\n%s\n-g\n", k->name);
  print_sizes(g, k->dims);
  printf("-l\n");
  print_sizes(k->local, k->dims);
  for (int i = 0; i < k->nargs; i++) {
    const bench_arg *a = &k->args[i];
    switch (a->kind) {
    case BARG_BUFFER:
      printf("%s[%zu]", type_name(a->elem), a->count);
      if (a->init == BINIT_GEN) printf("=@%s/arg%d.u32", dir, i);
      else if (a->init == BINIT_RANDOM && a->elem == BE_FLOAT)
        printf("=random(%llu,%.17g,%.17g)", (unsigned long long)a->seed, a->lo, a->hi);
      else if (a->init == BINIT_RANDOM)
        printf("=random(%llu,%llu,%llu)", (unsigned long long)a->seed, (unsigned long long)a->lo,
               (unsigned long long)a->hi);
      printf("\n");
      break;
    case BARG_LOCAL: printf("local:%zu\n", a->count); break;
    case BARG_INT: printf("int:%d\n", (int)a->ival); break;
    case BARG_FLOAT: printf("float:%a\n", (double)a->fval); break;
    }
  }
  return 0;
}

static int cmd_check(const bench_kernel *k, size_t rows, const char *dir) {
  bench_correctly_rounded = true; /* spvi's math builtins are (spec-notes/math.md) */
  void *in[BENCH_MAX_ARGS], *got[BENCH_MAX_ARGS] = {0};
  if (!bench_gen_inputs(k, in)) {
    fprintf(stderr, "bench_tool: out of memory\n");
    return 2;
  }
  int status = 2;
  char msg[1024] = "";
  for (int i = 0; i < k->nargs; i++) {
    const bench_arg *a = &k->args[i];
    if (a->kind != BARG_BUFFER) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/arg%d.npy", dir, i);
    got[i] = bench_npy_read(path, bench_npy_descr(a->elem), a->count, msg, sizeof msg);
    if (!got[i]) {
      fprintf(stderr, "bench_tool: %s\n", msg);
      goto done;
    }
  }
  if (bench_check_run(k, rows, in, got, msg, sizeof msg)) {
    status = 0;
  } else {
    printf("%s\n", msg);
    status = 1;
  }
done:
  for (int i = 0; i < k->nargs; i++) free(got[i]);
  bench_free_inputs(k, in);
  return status;
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "list") == 0) return cmd_list();
  if (argc >= 4 && (strcmp(argv[1], "args") == 0 || strcmp(argv[1], "check") == 0)) {
    const bench_kernel *k = bench_kernel_find(argv[2]);
    char *end;
    size_t rows = (size_t)strtoull(argv[3], &end, 10);
    if (!k || *end || rows == 0 || rows > k->global[k->dims - 1] || rows % k->local[k->dims - 1]) {
      fprintf(stderr, "bench_tool: unknown kernel `%s` or bad row count `%s`\n", argv[2], argv[3]);
      return 2;
    }
    if (argv[1][0] == 'a' && argc <= 5) return cmd_args(k, rows, argc == 5 ? argv[4] : NULL);
    if (argv[1][0] == 'c' && argc == 5) return cmd_check(k, rows, argv[4]);
  }
  fprintf(stderr, "usage: bench_tool list | args NAME ROWS [DIR] | check NAME ROWS DIR\n");
  return 2;
}
