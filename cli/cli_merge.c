/*
 * cli_merge.c — `spvi merge [--combine [argI=]OP]... OUT_DIR SHARD_DIR...`.
 *
 * A shard directory holds, for every buffer argument I, argI.npy (the whole buffer after the shard's
 * run: the initial contents plus what its work-groups wrote), argI.written.npy (one uint8 per
 * buffer byte, 1 where the shard wrote) and, for the buffers it wrote, argI.initial.npy (the
 * contents before the run). Bytes no shard wrote keep the initial value, which every shard holds
 * alike; each byte some shard wrote takes that shard's value. Two shards writing the same byte is
 * a race between work-groups (the kernel's bug) or atomic updates: the merge reports it as an
 * error instead of picking one, unless --combine names the operation that adds the shards'
 * updates of an element up (cli_combine.c, docs/scaling.md). OUT_DIR receives argI.npy for every
 * I, argI.written.npy with the union of the masks and argI.initial.npy when combined (so merges
 * can be merged).
 */
#include "cli_merge.h"

#include "cli_args.h"
#include "cli_combine.h"
#include "cli_npy.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "spvi: error: merge: ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return 2;
}

/* A shard's .npy file, whole: a regular file (what --out writes), read up to the size it has, so a
 * FIFO or a device put in its place (/dev/zero) is refused instead of read without end. NULL with
 * errno ENOENT when it does not exist, else NULL with the reason in e. */
static unsigned char *read_file(const char *path, size_t *size, cli_error *e) {
  struct stat st;
  if (stat(path, &st) != 0) {
    const int saved = errno;
    cli_fail(e, "cannot read %s: %s", path, strerror(saved));
    errno = saved;
    return NULL;
  }
  errno = 0;
  if (!S_ISREG(st.st_mode) || st.st_size < 0 || (uintmax_t)st.st_size >= SIZE_MAX) {
    cli_fail(e, "%s is not a regular file (spvi merge reads the files of --out directories)", path);
    return NULL;
  }
  unsigned char *data = NULL;
  if (!cli_read_file(path, (size_t)st.st_size, "the file grew while it was read", &data, size, e)) return NULL;
  return data;
}

static bool write_file(const char *path, const unsigned char *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, size, f) == size;
  return fclose(f) == 0 && ok;
}

typedef struct shard_file {
  unsigned char *data, *mask;
  size_t size, msize;
  cli_npy h, mh;
} shard_file;

/* How one argument is merged: --combine's operation for it (CLI_COMBINE_NONE: overlaps are
 * errors), its element size, whether it needs the initial contents (add and xor). */
typedef struct merge_op {
  cli_combine_op op;
  size_t size;
  bool needs_init;
  int ndirs;
} merge_op;

/* The initial contents of argument `index` (argI.initial.npy, which shard runs write for the
 * buffers they wrote), from the first shard that has it, checked against the shards' size; NULL
 * with the message in e when no shard has it. */
static unsigned char *read_initial(char **dirs, int ndirs, int index, const shard_file *sf0, size_t *size,
                                   cli_error *e) {
  char path[4096];
  for (int d = 0; d < ndirs; d++) {
    snprintf(path, sizeof path, "%s/arg%d.initial.npy", dirs[d], index);
    unsigned char *data = read_file(path, size, e);
    if (!data && errno == ENOENT) continue;
    if (!data) return NULL;
    if (*size != sf0->size || memcmp(data, sf0->data, sf0->h.data_offset) != 0) {
      free(data);
      cli_fail(e, "%s does not match the type and shape of arg%d.npy", path, index);
      return NULL;
    }
    return data;
  }
  cli_fail(e,
           "no shard has arg%d.initial.npy, the contents before the run, which --combine needs (run the shards "
           "with --shard or --groups and --out)",
           index);
  return NULL;
}

/* Shard d's writes into the merge (res, its union mask): plain bytes must not overlap; with an
 * operation, each element (of `es` bytes) written by an earlier shard too is combined with it. */
static int merge_shard(shard_file *sf, int d, char **dirs, int index, const merge_op *mo, unsigned char *res,
                       unsigned char *mask, unsigned char **init, size_t *isize) {
  const size_t off = sf[0].h.data_offset, moff = sf[0].mh.data_offset, bytes = sf[0].size - off;
  const size_t es = mo->op ? mo->size : 1;
  char what[64];
  for (size_t i = 0; i < bytes; i += es) {
    bool mine = false, both = false;
    for (size_t b = i; b < i + es; b++) {
      mine |= sf[d].mask[moff + b] != 0;
      both |= sf[d].mask[moff + b] && mask[moff + b];
    }
    if (!mine) continue;
    if (both && !mo->op) {
      snprintf(what, sizeof what, "byte %zu of arg%d", i, index);
      return fail("%s was written by two shards (%s): a race between work-groups, or atomic updates, which "
                  "--combine OP adds up (docs/scaling.md)",
                  what, dirs[d]);
    }
    bool any = false; /* an earlier shard wrote the element */
    for (size_t b = i; b < i + es; b++) any |= mask[moff + b] != 0;
    if (any && mo->needs_init && !*init) {
      cli_error e;
      if (!(*init = read_initial(dirs, mo->ndirs, index, &sf[0], isize, &e))) return fail("%s", e.msg);
    }
    if (any)
      cli_combine_elem(mo->op, sf[0].h.descr, res + off + i, sf[d].data + off + i, *init ? *init + off + i : NULL);
    else memcpy(res + off + i, sf[d].data + off + i, es);
    for (size_t b = i; b < i + es; b++) mask[moff + b] |= sf[d].mask[moff + b];
  }
  return 0;
}

/* Reads shard d's argI.npy and argI.written.npy; 0, 2 on error, or -1 when the first shard has no
 * argI.npy (no such argument). */
static int read_shard(shard_file *sf, int d, char **dirs, int index) {
  char path[4096];
  cli_error e;
  snprintf(path, sizeof path, "%s/arg%d.npy", dirs[d], index);
  sf[d].data = read_file(path, &sf[d].size, &e);
  if (!sf[d].data) return d == 0 && errno == ENOENT ? -1 : fail("%s", e.msg);
  if (!cli_npy_parse(sf[d].data, sf[d].size, path, &sf[d].h, &e)) return fail("%s", e.msg);
  snprintf(path, sizeof path, "%s/arg%d.written.npy", dirs[d], index);
  sf[d].mask = read_file(path, &sf[d].msize, &e);
  if (!sf[d].mask) return fail("%s%s", e.msg, errno == ENOENT ? " (was the shard run with --shard or --groups?)" : "");
  if (!cli_npy_parse(sf[d].mask, sf[d].msize, path, &sf[d].mh, &e)) return fail("%s", e.msg);
  size_t bytes = sf[d].size - sf[d].h.data_offset;
  if (sf[d].msize - sf[d].mh.data_offset != bytes || strcmp(sf[d].mh.descr, "|u1") != 0)
    return fail("%s does not match the size of its buffer", path);
  if (d > 0 && (sf[d].size != sf[0].size || memcmp(sf[d].data, sf[0].data, sf[0].h.data_offset) != 0)) {
    snprintf(path, sizeof path, "arg%d", index);
    return fail("%s differs in type or shape between shards (%s)", path, dirs[d]);
  }
  return 0;
}

/* Merge argument `index` of every shard; returns 0, 2 on error, or -1 when no shard has it. */
static int merge_arg(const char *out, char **dirs, int ndirs, int index, merge_op mo) {
  shard_file *sf = calloc((size_t)ndirs, sizeof *sf);
  char path[4096];
  int status = 0;
  if (!sf) return fail("out of memory");
  for (int d = 0; d < ndirs && status == 0; d++) status = read_shard(sf, d, dirs, index);
  if (status == 0 && mo.op) {
    cli_error e;
    snprintf(path, sizeof path, "arg%d", index);
    if (!cli_combine_check(mo.op, sf[0].h.descr, path, &mo.size, &e)) status = fail("%s", e.msg);
    else if ((sf[0].size - sf[0].h.data_offset) % mo.size) status = fail("%s is not whole elements", path);
  }
  unsigned char *res = NULL, *mask = NULL, *init = NULL;
  size_t isize = 0;
  if (status == 0) {
    res = malloc(sf[0].size);
    mask = malloc(sf[0].msize);
    if (!res || !mask) status = fail("out of memory");
  }
  if (status == 0) {
    memcpy(res, sf[0].data, sf[0].size);
    memcpy(mask, sf[0].mask, sf[0].msize);
    mo.ndirs = ndirs;
    for (int d = 1; d < ndirs && status == 0; d++)
      status = merge_shard(sf, d, dirs, index, &mo, res, mask, &init, &isize);
  }
  if (status == 0) {
    snprintf(path, sizeof path, "%s/arg%d.npy", out, index);
    if (!write_file(path, res, sf[0].size)) status = fail("cannot write %s", path);
    snprintf(path, sizeof path, "%s/arg%d.written.npy", out, index);
    if (status == 0 && !write_file(path, mask, sf[0].msize)) status = fail("cannot write %s", path);
    /* the initial contents go along, so that merges can be merged with --combine too */
    snprintf(path, sizeof path, "%s/arg%d.initial.npy", out, index);
    if (status == 0 && init && !write_file(path, init, isize)) status = fail("cannot write %s", path);
  }
  free(res);
  free(mask);
  free(init);
  for (int d = 0; d < ndirs; d++) {
    free(sf[d].data);
    free(sf[d].mask);
  }
  free(sf);
  return status;
}

enum { MERGE_MAX_ARGS = 4096 };

/* --combine OP (every argument) or --combine argI=OP (one; wins over OP): ops[MERGE_MAX_ARGS] is
 * the default, ops[I] argument I's. Returns 0 or 2. */
static int parse_combine(const char *v, cli_combine_op ops[MERGE_MAX_ARGS + 1], bool named[MERGE_MAX_ARGS + 1]) {
  const char *eq = strchr(v, '=');
  int index = MERGE_MAX_ARGS, n = 0;
  if (eq && (sscanf(v, "arg%d%n", &index, &n) != 1 || v + n != eq || index < 0 || index >= MERGE_MAX_ARGS))
    return fail("--combine `%s`: expects OP or argI=OP (I a parameter index from 0 to 4095)", v);
  cli_combine_op op;
  if (!cli_combine_op_parse(eq ? eq + 1 : v, &op))
    return fail("--combine `%s`: the operations are add, min, max, or, and, xor", v);
  if (named[index]) return fail("--combine given twice for %s", eq ? "one argument" : "every argument");
  named[index] = true;
  ops[index] = op;
  return 0;
}

/* argv holds the command's arguments (after `merge`): [--combine SPEC]... OUT_DIR SHARD_DIR... */
int cli_merge_main(int argc, char **argv) {
  if (argc >= 1 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
    printf("usage: spvi merge [--combine [argI=]OP]... OUT_DIR SHARD_DIR...\n\n"
           "Combines the --out directories of `spvi run --shard K/N` (or --groups START:END) runs of\n"
           "one launch (same module, arguments and NDRange) into OUT_DIR: each byte of every argI.npy\n"
           "comes from the shard that wrote it (argI.written.npy), or keeps the initial value. Two\n"
           "shards writing one byte is an error, unless --combine names how their atomic updates\n"
           "add up: OP = add (init + the sum of each shard's change; integers wrap), min, max, or,\n"
           "and, xor, for every argument or for argI alone (docs/scaling.md).\n");
    return 0;
  }
  static cli_combine_op ops[MERGE_MAX_ARGS + 1];
  static bool named[MERGE_MAX_ARGS + 1];
  memset(ops, 0, sizeof ops);
  memset(named, 0, sizeof named);
  int a = 0;
  for (; a < argc && strncmp(argv[a], "--combine", 9) == 0; a++) {
    if (argv[a][9] != '=' && argv[a][9] != 0) return fail("unknown option `%s` (spvi merge --help)", argv[a]);
    if (argv[a][9] == 0 && a + 1 >= argc) return fail("option --combine needs a value: OP or argI=OP");
    const char *v = argv[a][9] == '=' ? argv[a] + 10 : argv[++a];
    if (parse_combine(v, ops, named)) return 2;
  }
  argc -= a;
  argv += a;
  if (argc >= 1 && argv[0][0] == '-') return fail("unknown option `%s` (spvi merge --help)", argv[0]);
  if (argc < 2) return fail("usage: spvi merge [--combine [argI=]OP]... OUT_DIR SHARD_DIR...");
  if (mkdir(argv[0], 0777) != 0 && errno != EEXIST) return fail("cannot create %s", argv[0]);
  for (int i = 0; i < MERGE_MAX_ARGS; i++) { /* before anything is merged */
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/arg%d.npy", argv[1], i);
    if (named[i] && stat(path, &st) != 0) return fail("--combine arg%d: the shards have no arg%d.npy", i, i);
  }
  int merged = 0;
  for (int i = 0; i < MERGE_MAX_ARGS; i++) {
    merge_op mo = {named[i] ? ops[i] : ops[MERGE_MAX_ARGS], 1, false, 0};
    mo.needs_init = mo.op == CLI_COMBINE_ADD || mo.op == CLI_COMBINE_XOR;
    int r = merge_arg(argv[0], argv + 1, argc - 1, i, mo);
    if (r > 0) return r;
    if (r == 0) merged++;
  }
  if (!merged) return fail("no argI.npy in %s", argv[1]);
  return 0;
}
