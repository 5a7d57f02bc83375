/*
 * cli_out.h — writing a launch's `--out DIR` files all at once (cli_out.c): under temporary names
 * on DIR's file system, renamed into place when every file is written.
 */
#ifndef CLI_OUT_H
#define CLI_OUT_H

#include <stdbool.h>
#include <stddef.h>

#include "cli_types.h"

typedef struct cli_out {
  const char *dir; /* DIR as given */
  bool existed;    /* DIR was a directory already: the files are renamed into it one by one */
  char *tmp;       /* the temporary directory the files are written in */
  char **names;    /* the files written there */
  size_t nnames;
} cli_out;

/* Before a run: whether --out DIR can be written, without creating anything (DIR a writable
 * directory, or its nearest existing ancestor one). False after saying why. */
bool cli_out_check(const char *dir);
/* After the launch succeeded: creates DIR's missing parents and the temporary directory. */
bool cli_out_begin(cli_out *o, const char *dir);
/* The temporary path of file `name` (malloc'd; free it); NULL after saying why. */
char *cli_out_path(cli_out *o, const char *name);
/* Every file written: moves them to DIR (the temporary directory becomes DIR when DIR did not
 * exist). False after saying why; the temporary files are removed either way. */
bool cli_out_commit(cli_out *o);
/* A file failed: removes the temporary files and directory; DIR is as it was. */
void cli_out_abort(cli_out *o);

#endif
