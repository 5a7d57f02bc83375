/*
 * cli_out.c — `--out DIR` as one step: a launch's files appear in DIR all together or not at all.
 *
 * The files are written under a temporary name on DIR's file system and renamed into place once
 * every one of them is written (rename(2) within one file system is atomic), so a failure half way
 * (a full disk, a file that cannot be written) leaves DIR as it was: no partial directory, no
 * partial set of files. Nothing is created before the launch succeeded either, so a fault (or an
 * earlier launch of `--then` failing) leaves no empty DIR behind.
 */
#include "cli_out.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* dir without its trailing slashes (but "/" stays), in a malloc'd string. */
static char *out_trim(const char *dir) {
  size_t len = strlen(dir);
  while (len > 1 && dir[len - 1] == '/') len--;
  char *s = malloc(len + 1);
  if (s) {
    memcpy(s, dir, len);
    s[len] = 0;
  }
  return s;
}

/* "dir/name" in a malloc'd string, NULL when out of memory. */
static char *out_join(const char *dir, const char *name) {
  char *p = malloc(strlen(dir) + strlen(name) + 2);
  if (p) sprintf(p, "%s/%s", dir, name);
  return p;
}

/* mkdir -p of path's parent directory (the components before its last '/'). */
static bool out_make_parents(const char *opt, const char *path) {
  char *p = out_trim(path);
  if (!p) {
    cli_say_error("%s `%s`: out of memory", opt, path);
    return false;
  }
  char *slash = strrchr(p, '/');
  bool ok = true;
  if (slash && slash != p) {
    *slash = 0;
    for (char *c = p + 1;; c++) {
      if (*c != '/' && *c != 0) continue;
      const char saved = *c;
      *c = 0;
      if (mkdir(p, 0777) != 0 && errno != EEXIST) {
        cli_say_error("%s `%s`: cannot create `%s`: %s", opt, path, p, strerror(errno));
        ok = false;
        break;
      }
      *c = saved;
      if (!saved) break;
    }
  }
  free(p);
  return ok;
}

bool cli_out_check(const char *dir) {
  struct stat st;
  if (stat(dir, &st) == 0) {
    if (!S_ISDIR(st.st_mode)) {
      cli_say_error("--out `%s`: not a directory", dir);
      return false;
    }
    if (access(dir, W_OK | X_OK) != 0) {
      cli_say_error("--out `%s`: cannot write there: %s", dir, strerror(errno));
      return false;
    }
    return true;
  }
  /* DIR will be created: its nearest existing ancestor must be a directory we may write in */
  char *p = out_trim(dir);
  if (!p) {
    cli_say_error("--out `%s`: out of memory", dir);
    return false;
  }
  bool ok = true;
  for (;;) {
    char *slash = strrchr(p, '/');
    if (!slash) {
      strcpy(p, ".");
    } else if (slash == p) {
      p[1] = 0;
    } else {
      *slash = 0;
    }
    if (stat(p, &st) == 0) {
      if (!S_ISDIR(st.st_mode) || access(p, W_OK | X_OK) != 0) {
        cli_say_error("--out `%s`: cannot create it in `%s`: %s", dir, p,
                      S_ISDIR(st.st_mode) ? strerror(errno) : "not a directory");
        ok = false;
      }
      break;
    }
    if (!strcmp(p, ".") || !strcmp(p, "/")) break;
  }
  free(p);
  return ok;
}

bool cli_out_begin(cli_out *o, const char *dir) {
  memset(o, 0, sizeof *o);
  o->dir = dir;
  struct stat st;
  o->existed = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
  char *base = out_trim(dir);
  if (!base || !(o->tmp = malloc(strlen(base) + 32))) {
    free(base);
    cli_say_error("--out `%s`: out of memory", dir);
    return false;
  }
  /* beside DIR when it is to be created (then renamed to DIR), inside it when it exists */
  sprintf(o->tmp, o->existed ? "%s/.spvi-out-XXXXXX" : "%s.spvi-out-XXXXXX", base);
  free(base);
  if (!o->existed && !out_make_parents("--out", dir)) {
    free(o->tmp);
    o->tmp = NULL;
    return false;
  }
  if (!mkdtemp(o->tmp)) {
    cli_say_error("--out `%s`: cannot create a temporary directory `%s`: %s", dir, o->tmp, strerror(errno));
    free(o->tmp);
    o->tmp = NULL;
    return false;
  }
  return true;
}

char *cli_out_path(cli_out *o, const char *name) {
  char **names = realloc(o->names, (o->nnames + 1) * sizeof *names);
  char *path = out_join(o->tmp, name);
  char *copy = malloc(strlen(name) + 1);
  if (names) o->names = names;
  if (!names || !path || !copy) {
    free(path);
    free(copy);
    cli_say_error("--out `%s`: out of memory", o->dir);
    return NULL;
  }
  strcpy(copy, name);
  o->names[o->nnames++] = copy;
  return path;
}

/* Removes the temporary files and directory, frees o. */
static void out_free(cli_out *o, bool remove_files) {
  for (size_t i = 0; i < o->nnames; i++) {
    if (remove_files && o->tmp) {
      char *path = out_join(o->tmp, o->names[i]);
      if (path) unlink(path);
      free(path);
    }
    free(o->names[i]);
  }
  if (o->tmp) rmdir(o->tmp);
  free(o->names);
  free(o->tmp);
  memset(o, 0, sizeof *o);
}

void cli_out_abort(cli_out *o) { out_free(o, true); }

bool cli_out_commit(cli_out *o) {
  if (!o->existed) { /* the whole directory at once */
    if (rename(o->tmp, o->dir) == 0) {
      free(o->tmp);
      o->tmp = NULL;
      out_free(o, false);
      return true;
    }
    cli_say_error("--out `%s`: cannot rename `%s` to it: %s", o->dir, o->tmp, strerror(errno));
    out_free(o, true);
    return false;
  }
  /* into the existing DIR, file by file: every file is complete when it appears */
  bool ok = true;
  for (size_t i = 0; i < o->nnames && ok; i++) {
    char *from = out_join(o->tmp, o->names[i]), *to = out_join(o->dir, o->names[i]);
    if (!from || !to) {
      cli_say_error("--out `%s`: out of memory", o->dir);
      ok = false;
    } else if (rename(from, to) != 0) {
      cli_say_error("--out `%s`: cannot rename `%s` to `%s`: %s", o->dir, from, to, strerror(errno));
      ok = false;
    }
    free(from);
    free(to);
  }
  out_free(o, true);
  return ok;
}
