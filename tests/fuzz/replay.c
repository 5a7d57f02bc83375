/*
 * replay.c — a plain main() for a fuzz harness (fuzz.h): runs it once on every file given and on
 * every file of every directory given, in name order, and says how many it ran. A crash, a
 * sanitizer report (SAN=1 builds) or a leak ends it with a failure, as in libFuzzer; `make check`
 * replays tests/fuzz/regress/NAME/ this way.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  return 0;
}

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return perror(path), 1;
  size_t cap = 4096, n = 0;
  uint8_t *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  if (!buf) return fprintf(stderr, "%s: out of memory\n", path), 1;
  LLVMFuzzerTestOneInput(buf, n);
  free(buf);
  return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every regular file of a directory, in name order; *count of them run. */
static int replay_dir(const char *dir, int *count) {
  DIR *d = opendir(dir);
  if (!d) return perror(dir), 1;
  char **names = NULL;
  size_t n = 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.') continue; /* ., .., and notes such as .gitignore */
    names = realloc(names, (n + 1) * sizeof *names);
    names[n++] = strdup(e->d_name);
  }
  closedir(d);
  if (n) qsort(names, n, sizeof *names, by_name);
  int bad = 0;
  for (size_t i = 0; i < n; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    struct stat st;
    if (!stat(path, &st) && S_ISREG(st.st_mode)) {
      bad |= replay_file(path);
      ++*count;
    }
    free(names[i]);
  }
  free(names);
  return bad;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
    return 2;
  }
  LLVMFuzzerInitialize(&argc, &argv);
  int bad = 0, count = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (!stat(argv[i], &st) && S_ISDIR(st.st_mode)) bad |= replay_dir(argv[i], &count);
    else bad |= replay_file(argv[i]), count++;
  }
  printf("%s: %d input%s replayed\n", argv[0], count, count == 1 ? "" : "s");
  return bad;
}
