/*
 * cli_compare.h — comparing .npy arrays (`spvi compare`, `spvi run --expect`, `spvi test`): the
 * tolerance options, element-wise comparison of integer, half, float and double arrays and of
 * structured dtypes field by field, and the per-file text and JSON summaries. docs/cli.md,
 * "spvi compare", defines every rule. Values are spelled as --print spells them (cli_print.c).
 */
#ifndef CLI_COMPARE_H
#define CLI_COMPARE_H

#include <stdio.h>

#include "cli_types.h"

/* A tolerance: an element passes when it is within ANY of the given bounds (none: exact). */
typedef struct cli_tol {
  bool has_ulp, has_abs, has_rel;
  uint64_t ulp; /* --ulp N: at most N steps between the ordered bit patterns (integers: |a-b| <= N) */
  double abs;   /* --abs X: |a-b| <= X */
  double rel;   /* --rel X: |a-b| <= X * |expected| */
} cli_tol;

/* --tol NAME:KEY=V[,KEY=V...]: the tolerance of the files whose stem is NAME. */
typedef struct cli_tol_arg {
  const char *name; /* points into the option's text; name_len bytes */
  size_t name_len;
  cli_tol tol;
  bool used; /* a file of that name was compared (an unused --tol is an error) */
} cli_tol_arg;

typedef struct cli_cmp_opts {
  cli_tol tol; /* --ulp, --abs, --rel: every file without its own --tol */
  cli_tol_arg *per;
  int nper;
  bool nan_exact;   /* --nan-exact: two NaNs are equal only with the same bits */
  bool signed_zero; /* --signed-zero: -0.0 and +0.0 differ */
} cli_cmp_opts;

/* Whether `opt` (as spelled, without "=VALUE") is one of the comparison options above, and
 * whether it takes a value. */
bool cli_cmp_is_option(const char *opt, bool *takes_value);
/* Applies one comparison option (value NULL for the flags). */
bool cli_cmp_option(cli_cmp_opts *o, const char *opt, const char *value, cli_error *e);
void cli_cmp_opts_free(cli_cmp_opts *o);

/* What a comparison found. */
typedef enum cli_cmp_status { CLI_CMP_EQUAL, CLI_CMP_DIFFER, CLI_CMP_ERROR } cli_cmp_status;

/* Where the summaries go: text (one block per file) or JSON (one object per file, written by
 * cli_cmp_sink_end as the whole document). */
struct cJSON;
typedef struct cli_cmp_sink {
  FILE *f;
  bool json;
  int nfiles, ndiffer, nerror;
  struct cJSON *files; /* JSON mode: the "files" array built so far */
} cli_cmp_sink;

void cli_cmp_sink_begin(cli_cmp_sink *s, FILE *f, bool json);
/* Writes the end (the JSON document, or the text summary line) and frees the sink. */
void cli_cmp_sink_end(cli_cmp_sink *s, cli_cmp_status overall);

/* Compares two .npy files; `name` is the file stem that --tol selects and the summary shows.
 * `tol` overrides the options' tolerance when not NULL. A missing or unreadable file is an error,
 * a different dtype or shape a difference; both with a message in the summary. */
cli_cmp_status cli_compare_files(const char *expected, const char *output, const char *name, const cli_tol *tol,
                                 cli_cmp_opts *o, cli_cmp_sink *s);

/* Compares EXPECTED and OUTPUT: two .npy files, or two directories whose *.npy files (not the
 * *.written.npy masks of --groups) are matched by name. A file on one side only is a difference;
 * with expected_only, the output's files without an expected one are not compared (they are the
 * run's inputs: `spvi run --expect`). */
cli_cmp_status cli_compare_paths(const char *expected, const char *output, bool expected_only, cli_cmp_opts *o,
                                 cli_cmp_sink *s);

/* A --tol naming no compared file; false after saying so on stderr. */
bool cli_cmp_check_tols(const cli_cmp_opts *o);

/* spvi run --expect DIR: compares the files the run wrote in out_dir (as --out writes them) with
 * DIR's (expected_only: DIR names the outputs to check); the summary goes to f. Returns the exit
 * status: 0 equal, 1 differ, 2 unreadable or a --tol naming no file. */
int cli_expect_check(const char *expect_dir, const char *out_dir, cli_cmp_opts *o, FILE *f);
/* A fresh temporary directory's "TMP/out" (not created: cli_out.c does), malloc'd; NULL after
 * saying why. cli_expect_cleanup removes TMP/out's files, both directories and frees the path. */
char *cli_expect_tmpdir(void);
void cli_expect_cleanup(char *out);

/* "dir/name", malloc'd; NULL when out of memory. */
char *cli_path_join(const char *dir, const char *name);

/* `spvi compare [options] EXPECTED OUTPUT` (argv after `compare`); returns the exit status. */
int cli_compare_main(int argc, char **argv);

#endif
