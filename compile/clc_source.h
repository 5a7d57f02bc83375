/*
 * clc_source.h — a user's OpenCL C source file as the compile layer finds it: the directory its
 * `#include "x.h"` lines are looked up in (clc_compile_file's `dir`). Shared by spvi_load_source
 * (clc_source.c, the public API) and the command (cli/cli_source.c), so both compile a file alike.
 */
#ifndef CLC_SOURCE_H
#define CLC_SOURCE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* The directory of `path` as given (not of the file a symbolic link points to: `#include "x.h"`
 * is looked up next to the name the user compiles, as cc does), made absolute in dir; false with
 * one line in msg (cap bytes) naming the path. */
bool clc_source_dir(const char *path, char dir[PATH_MAX], char *msg, size_t cap);

#endif
