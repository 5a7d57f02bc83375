/*
 * cli_source.h — what an input file of run, debug and info is (by its content, not only its name),
 * and OpenCL C source compiled to SPIR-V through the compile layer (compile/clc_compile.h): the
 * same path, options and cache as the OpenCL platform's clBuildProgram.
 */
#ifndef CLI_SOURCE_H
#define CLI_SOURCE_H

#include "cli_clopts.h"

#include <stddef.h>

typedef enum { CLI_IN_SPIRV, CLI_IN_SOURCE, CLI_IN_OTHER } cli_in_kind;

/* The kind of the file `name` whose first n bytes (up to CLI_SNIFF_BYTES) are `head`. For
 * CLI_IN_OTHER, *what says what it looks like ("an ELF executable", "LLVM bitcode (translate it
 * with llvm-spirv-14)", "an empty file", ...). */
#define CLI_SNIFF_BYTES 65536
cli_in_kind cli_source_sniff(const unsigned char *head, size_t n, const char *name, const char **what);

/* Prepares the input `path` of a command: a SPIR-V module is left to the caller (returns
 * CLI_IN_SPIRV, *spirv NULL; also for what is not a regular file, a pipe or a device, and when the
 * file cannot be opened: spvi_load_file's message is the one to give); OpenCL C is compiled with the options `o` (debug: spvi debug's defaults), the
 * compiler's diagnostics printed on stderr, the module in *spirv (malloc'd) and *bytes (returns
 * CLI_IN_SOURCE); anything else, or a failed compile, or compile options given with a module,
 * prints one message and returns CLI_IN_OTHER. */
cli_in_kind cli_source_prepare(const char *path, const cli_clopts *o, bool debug, void **spirv, size_t *bytes);

#endif
