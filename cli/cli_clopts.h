/*
 * cli_clopts.h — the compile options of `spvi run|debug|info KERNEL.cl` (-D, -I, --cl-std, -O0..-O3,
 * --build-options), parsed into a plain struct and turned into the OpenCL build options the compile
 * layer takes (compile/clc_compile.h, the same options clBuildProgram takes). Pure: no spvi library
 * needed.
 */
#ifndef CLI_CLOPTS_H
#define CLI_CLOPTS_H

#include "cli_types.h"

typedef struct cli_clopts {
  const char **defs; /* -D NAME[=VALUE], in order (pointers into argv; array malloc'd) */
  const char **incs; /* -I DIR, in order */
  int ndefs, nincs;
  const char *cl_std;        /* --cl-std=CLx.y, NULL when not given */
  int opt;                   /* -O0..-O3, -1 when not given */
  const char *build_options; /* --build-options "...", NULL when not given */
  const char *first;         /* the first compile option given (for messages), NULL when none */
} cli_clopts;

/* Starts an empty set (opt = -1). */
void cli_clopts_init(cli_clopts *o);

/* Takes argv[i] (and argv[i + 1] for a separate value) when it is a compile option: returns the
 * number of words used, 0 when argv[i] is not one, -1 on a mistake (e says). Spellings: -D NAME,
 * -DNAME, -I DIR, -IDIR, --cl-std=V, --cl-std V, -O0..-O3, --build-options=S, --build-options S. */
int cli_clopts_take(cli_clopts *o, int argc, char **argv, int i, cli_error *e);

/* The build options for clc_compile_file (malloc'd, NULL when out of memory): every value quoted
 * for the compile layer's tokenizer. `debug` (spvi debug): -O0 and -g unless -O says otherwise
 * (-g stays); otherwise the optimising pipeline unless -O0. */
char *cli_clopts_string(const cli_clopts *o, bool debug);

void cli_clopts_free(cli_clopts *o);

#endif
