/*
 * check_harness.h — the harness of the `--check races` / `--check uninit` tests (test_checks*.c).
 *
 * A ch_case is one kernel launch over a 1-D NDRange and the reports it must produce. ch_run()
 * runs it for every module of the case, at warp widths 1, 7 and 32 and with one and two threads,
 * and requires
 *   - exactly the reports of `want`, each with its kind, sites (source line, work-item, read or
 *     write, atomic or not), memory (argument, byte offset, size) and number of occurrences;
 *     an empty `want`: a correct kernel, no report at all;
 *   - the reports' whole text to be the same at every warp width and thread count.
 * The modules: `file` "NAME" is tests/kernels/NAME.cl as tests/kernels/build.sh compiled it
 * ($BUILD/kernels/NAME.O0.spv and NAME.O2.spv, and NAME.O1.spv when `o1`); a `file` ending in ".spvasm" is that assembly file
 * (a path from the repository root), assembled once.
 *
 * Source lines are named by markers (marker.h): a site's `mark` "race-rw" is the line holding the
 * comment `@race-rw` in the case's source file.
 */
#ifndef CHECK_HARNESS_H
#define CHECK_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spvi.h"

/* One kernel argument, in parameter order; the list ends at the first CH_END. */
typedef enum ch_arg_kind {
  CH_END = 0,
  CH_ARG_BUFFER, /* a buffer of `bytes` zero bytes */
  CH_ARG_LOCAL,  /* `bytes` of local memory per work-group */
  CH_ARG_INT,    /* the int `value` */
  CH_ARG_IMAGE,  /* an image2d of `bytes` x 1 RGBA float pixels, all zero */
} ch_arg_kind;

typedef struct ch_arg {
  ch_arg_kind kind;
  size_t bytes;
  int value;
} ch_arg;

#define CH_BUF(n) \
  { .kind = CH_ARG_BUFFER, .bytes = (n) }
#define CH_LOC(n) \
  { .kind = CH_ARG_LOCAL, .bytes = (n) }
#define CH_INT(v) \
  { .kind = CH_ARG_INT, .value = (v) }
#define CH_IMG(width) \
  { .kind = CH_ARG_IMAGE, .bytes = (width) }

/* One side of a report: the access shown (`at`) or the earlier one it conflicts with (`other`). */
typedef struct ch_site {
  const char *mark; /* the marker of its source line; NULL: the report has no such side */
  size_t gid;       /* the global id (dimension 0) of the work-item shown */
  bool write, atomic;
} ch_site;

/* The memory a report names. */
typedef struct ch_memory {
  int arg;        /* the argument it belongs to; -1: the report names no memory */
  int64_t offset; /* the byte range, when arg >= 0 */
  uint64_t size;
} ch_memory;

#define CH_NO_MEMORY \
  { .arg = -1 }

/* One report that must be produced. */
typedef struct ch_report {
  spvi_report_kind kind;
  ch_site at, other;
  ch_memory memory;
  uint64_t count; /* occurrences; a report with count 0 ends the list */
  /* uninit: the source variable the report must name as the origin of the undefined bytes (its
   * name, which spvi_report.origin quotes in backticks) and the marker of its declaration line
   * (spvi_report.origin_line); NULL: not checked */
  const char *origin, *origin_mark;
} ch_report;

typedef struct ch_case {
  const char *file; /* "check_races" (tests/kernels/check_races.cl) or a .spvasm path */
  const char *kernel;
  unsigned checks;   /* spvi_run_options.checks: SPVI_CHECK_RACES, SPVI_CHECK_UNINIT */
  unsigned subgroup; /* spvi_run_options.subgroup_size; 0: the default */
  bool keep_going;   /* spvi_run_options.keep_going */
  size_t global, local;
  ch_arg args[4];
  ch_report want[2]; /* every report of the run, in any order; none: a correct kernel */
  bool o1;           /* also the -O1 module ($BUILD/kernels/NAME.O1.spv, `// also: O1`) */
} ch_case;

/* Runs the case as described above; fails the running cmocka test on any difference. */
void ch_run(const ch_case *c);

#endif
