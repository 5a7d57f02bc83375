/*
 * cli_merge.c — `spvi merge OUT_DIR SHARD_DIR...`.
 *
 * A shard directory holds, for every buffer argument I, argI.npy (the whole buffer after the shard's
 * run: the initial contents plus what its work-groups wrote) and argI.written.npy (one uint8 per
 * buffer byte, 1 where the shard wrote). Bytes no shard wrote keep the initial value, which every
 * shard holds alike; each byte some shard wrote takes that shard's value. Two shards writing the
 * same byte is a race between work-groups (the kernel's bug, or atomics): the merge reports it as
 * an error instead of picking one. OUT_DIR receives argI.npy for every I, and argI.written.npy
 * with the union of the masks (so merges can be merged).
 */
#include "cli_merge.h"

#include "cli_args.h"
#include "cli_npy.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int fail(const char *fmt, const char *a, const char *b) {
  fprintf(stderr, "spvi: error: merge: ");
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
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

/* Merge argument `index` of every shard; returns 0, 2 on error, or -1 when no shard has it. */
static int merge_arg(const char *out, char **dirs, int ndirs, int index) {
  shard_file *sf = calloc((size_t)ndirs, sizeof *sf);
  char path[4096];
  int status = 0;
  if (!sf) return fail("%s%s", "out of memory", "");
  for (int d = 0; d < ndirs && status == 0; d++) {
    snprintf(path, sizeof path, "%s/arg%d.npy", dirs[d], index);
    cli_error e;
    sf[d].data = read_file(path, &sf[d].size, &e);
    if (!sf[d].data) {
      if (d == 0 && errno == ENOENT) status = -1;
      else status = fail("%s%s", e.msg, "");
      break;
    }
    if (!cli_npy_parse(sf[d].data, sf[d].size, path, &sf[d].h, &e)) {
      status = fail("%s%s", e.msg, "");
      break;
    }
    snprintf(path, sizeof path, "%s/arg%d.written.npy", dirs[d], index);
    sf[d].mask = read_file(path, &sf[d].msize, &e);
    if (!sf[d].mask) {
      status = fail("%s%s", e.msg, errno == ENOENT ? " (was the shard run with --groups?)" : "");
      break;
    }
    if (!cli_npy_parse(sf[d].mask, sf[d].msize, path, &sf[d].mh, &e)) {
      status = fail("%s%s", e.msg, "");
      break;
    }
    size_t bytes = sf[d].size - sf[d].h.data_offset;
    if (sf[d].msize - sf[d].mh.data_offset != bytes || strcmp(sf[d].mh.descr, "|u1") != 0) {
      status = fail("%s does not match the size of its buffer%s", path, "");
      break;
    }
    if (d > 0 && (sf[d].size != sf[0].size || memcmp(sf[d].data, sf[0].data, sf[0].h.data_offset) != 0)) {
      snprintf(path, sizeof path, "arg%d", index);
      status = fail("%s differs in type or shape between shards (%s)", path, dirs[d]);
    }
  }
  if (status == 0) {
    size_t off = sf[0].h.data_offset, moff = sf[0].mh.data_offset, bytes = sf[0].size - off;
    unsigned char *res = malloc(sf[0].size), *mask = malloc(sf[0].msize);
    if (!res || !mask) status = fail("%s%s", "out of memory", "");
    if (status == 0) {
      memcpy(res, sf[0].data, sf[0].size);
      memcpy(mask, sf[0].mask, sf[0].msize);
      for (int d = 1; d < ndirs && status == 0; d++)
        for (size_t i = 0; i < bytes; i++) {
          if (!sf[d].mask[moff + i]) continue;
          if (mask[moff + i]) {
            snprintf(path, sizeof path, "byte %zu of arg%d", i, index);
            status = fail("%s was written by two shards (%s): a race between work-groups", path, dirs[d]);
            break;
          }
          mask[moff + i] = 1;
          res[off + i] = sf[d].data[off + i];
        }
      if (status == 0) {
        snprintf(path, sizeof path, "%s/arg%d.npy", out, index);
        if (!write_file(path, res, sf[0].size)) status = fail("cannot write %s%s", path, "");
        snprintf(path, sizeof path, "%s/arg%d.written.npy", out, index);
        if (status == 0 && !write_file(path, mask, sf[0].msize)) status = fail("cannot write %s%s", path, "");
      }
    }
    free(res);
    free(mask);
  }
  for (int d = 0; d < ndirs; d++) {
    free(sf[d].data);
    free(sf[d].mask);
  }
  free(sf);
  return status;
}

/* argv holds the command's arguments (after `merge`): OUT_DIR SHARD_DIR... */
int cli_merge_main(int argc, char **argv) {
  if (argc >= 1 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
    printf("usage: spvi merge OUT_DIR SHARD_DIR...\n\n"
           "Combines the --out directories of `spvi run --groups START:END` runs of one launch\n"
           "(same module, arguments and NDRange) into OUT_DIR: each byte of every argI.npy comes\n"
           "from the shard that wrote it (argI.written.npy), or keeps the initial value.\n");
    return 0;
  }
  if (argc < 2) return fail("%s%s", "usage: spvi merge OUT_DIR SHARD_DIR...", "");
  if (mkdir(argv[0], 0777) != 0 && errno != EEXIST) return fail("cannot create %s%s", argv[0], "");
  int merged = 0;
  for (int i = 0; i < 4096; i++) {
    int r = merge_arg(argv[0], argv + 1, argc - 1, i);
    if (r > 0) return r;
    if (r == 0) merged++;
  }
  if (!merged) return fail("no argI.npy in %s%s", argv[1], "");
  return 0;
}
