/*
 * clc_compile.h — OpenCL C source -> SPIR-V, and SPIR-V linking, for clBuildProgram,
 * clCompileProgram and clLinkProgram (opencl/) and for `spvi run|debug|info FILE.cl` (cli/): the
 * compile layer, below both, so the command and the platform build a source the same way.
 *
 * The compiler runs as child processes (clang-14 -> opt-14 -> llvm-spirv-14, spirv-link for
 * links) in a private temporary directory per call, so a compiler crash or hang becomes a failed
 * build with a log, never a crash of the host application; see docs/compile.md for why, for the
 * measurements and for the optimisation pipeline (which keeps -O2 while avoiding the LLVM IR that
 * llvm-spirv-14 cannot translate, and falls back to less optimised modules when it still refuses).
 *
 * Environment: SPVI_LLVM_BIN (directory of clang, opt, llvm-as, llvm-spirv: default
 * /usr/lib/llvm-14/bin, then the PATH names clang-14, opt-14, llvm-as-14, llvm-spirv-14),
 * SPVI_SPIRV_LINK (the spirv-link command), SPVI_COMPILE_TIMEOUT (seconds per tool run, default
 * 600), TMPDIR (where the per-call directories go, default /tmp). Successful source builds are
 * cached (clc_cache.h: SPVI_CACHE, SPVI_CACHE_DIR, SPVI_CACHE_SIZE): a hit gives the same module,
 * log and flags as the build that stored it.
 */
#ifndef CLC_COMPILE_H
#define CLC_COMPILE_H

#include <stdbool.h>
#include <stddef.h>

/* clCompileProgram's input headers, included by name (`#include "name"`; names may contain
 * directories, e.g. "foo/bar.h", but no ".." component and no leading '/'). */
typedef struct clc_header {
  const char *name;
  const char *source;
} clc_header;

typedef struct clc_result {
  void *spirv;  /* malloc'd module, NULL on failure */
  size_t bytes; /* its size in bytes (a multiple of 4) */
  char *log;    /* malloc'd build log, never NULL ("" when clean): the compiler's diagnostics,
                   the source named input.cl (`input.cl:3:5: error: ...`), headers by their names */
  /* what the options ask of the run time */
  bool denorms_are_zero;        /* -cl-denorms-are-zero (also a link option) */
  bool kernel_arg_info;         /* -cl-kernel-arg-info: CL_KERNEL_ARG_NAME etc. may be reported.
                                   The module always carries the names (OpName of parameters) and
                                   the source type names (OpString "kernel_arg_type.K.t1,t2,",
                                   "kernel_arg_type_qual.K.q1,q2,"), whatever the option. */
  bool uniform_work_group_size; /* -cl-uniform-work-group-size (the option only: OpenCL C 1.x
                                   programs need uniform work-groups too, see cl_std) */
  bool optimized;               /* the module was optimised (false: -cl-opt-disable, or every
                                   optimised module was refused and the unoptimised one used) */
  int opt_level;                /* diagnostics: 1 spvi's -O2 pipeline, 2 the same without GVN,
                                   3 also without SROA (each tried when llvm-spirv-14 refused the
                                   one before), 0 unoptimised */
  int cl_std;                   /* 100, 110, 120, 200, 300: the OpenCL C version compiled for (links: the highest
                 version in the modules' OpSource, 0 when none says) */
} clc_result;

enum { CLC_OK = 0, CLC_FAILED = 1, CLC_INVALID_OPTIONS = 2 };

/* Compile `source` with OpenCL build/compile options `options` (may be NULL). Returns CLC_OK,
 * CLC_FAILED (log says why) or CLC_INVALID_OPTIONS (log names the bad option). Thread-safe (the
 * OpenCL CTS builds from many threads). `out` is always initialised (free it with
 * clc_result_free), except when it is NULL (then CLC_FAILED). */
int clc_compile(const char *source, const char *options, const clc_header *headers, unsigned nheaders, clc_result *out);

/* clc_compile for a source file of the user's (the spvi command: docs/compile.md "Source files").
 * `name` is the file as the user gave it: diagnostics (`kern.cl:3:5: error: ...`), __FILE__ and
 * the debug information name it so, with its own line numbers. `dir` is its directory, absolute:
 * `#include "x.h"` finds x.h there first, as when the file is compiled in place, and the included
 * files are in the cache entry's dependency list (an edited header is a miss). With -g the
 * debug information's files are relative to the working directory. */
int clc_compile_file(const char *source, const char *name, const char *dir, const char *options, clc_result *out);

/* Link SPIR-V modules into one; `-create-library` in options for a library (partial link,
 * exports kept). options: clLinkProgram's (may be NULL): -create-library, -enable-link-options
 * (only with -create-library) and the program linking options of the OpenCL API spec 5.8.7.
 * Same return values and log as clc_compile. */
int clc_link(const void *const *modules, const size_t *sizes, unsigned n, const char *options, clc_result *out);

/* Frees the module and the log; the struct is zeroed (NULL is accepted). */
void clc_result_free(clc_result *r);

#endif
