/*
 * cli_cmdline.h — the options of `spvi run` (-k -g -l --offset --out --print --warp --strict --flush-denormals
 * --stats --threads --groups --spec --trace --check --report --max-steps --max-memory --keep-going
 * --subgroup-size --expect and its comparison options, --shard --quiet),
 * parsed into a plain struct. Pure: no spvi library needed.
 */
#ifndef CLI_CMDLINE_H
#define CLI_CMDLINE_H

#include "cli_compare.h"
#include "cli_clopts.h"
#include "cli_types.h"

/* Elements --print shows of each buffer when no --print=N says otherwise. */
#define CLI_PRINT_DEFAULT 256

/* X[,Y[,Z]]: n == 0 when the option was not given. */
typedef struct cli_dims {
  unsigned n;
  size_t v[3];
} cli_dims;

typedef struct cli_run_cmd {
  const char *module; /* MODULE.spv or KERNEL.cl */
  cli_clopts cl;      /* -D -I --cl-std -O --build-options: how KERNEL.cl is compiled */
  const char *kernel; /* -k, or NULL */
  cli_dims global, local, offset;
  const char *out_dir; /* --out, or NULL */
  bool print, strict, help;
  size_t print_max;                /* --print=N: elements shown per buffer (CLI_PRINT_DEFAULT without =N) */
  bool flush_denormals;            /* --flush-denormals */
  bool stats;                      /* --stats */
  unsigned threads;                /* --threads, 0 when not given */
  uint64_t group_begin, group_end; /* --groups START:END, both 0 when not given */
  unsigned warp;                   /* --warp, 0 when not given */
  unsigned subgroup_size;          /* --subgroup-size, 0 when not given */
  const char *trace;               /* --trace[=FILTER]: "all", "gid=..." or "group=...", NULL when off */
  unsigned checks;                 /* --check LIST: SPVI_CHECK_* flags (cli_check_flag_* below), 0 when not given */
  const char *report;              /* --report FILE: reports and faults as JSON lines, or NULL */
  uint64_t max_steps;              /* --max-steps N, 0 when not given */
  uint64_t max_memory;             /* --max-memory SIZE in bytes, 0 when not given */
  bool keep_going;                 /* --keep-going: access faults are reports, the run goes on */
  const char *expect;              /* --expect DIR: compare the outputs with DIR's .npy files, or NULL */
  cli_cmp_opts cmp;                /* --ulp --abs --rel --tol --nan-exact --signed-zero (with --expect) */
  bool cmp_given;                  /* one of those was given */
  int nspecs;                      /* --spec ID=VALUE (repeatable) */
  uint32_t *spec_ids;
  const char **spec_values; /* pointers into argv */
  int nargs;
  const char **args; /* the kernel ARGs, in order (pointers into argv; array malloc'd) */
  /* --shard K/N|env[/N] (cli_shard.h): the shard, count 0 when not given */
  uint64_t shard_index, shard_count;
  bool quiet; /* --quiet: no progress display */
} cli_run_cmd;

/* The --check names and their flags (the same values as SPVI_CHECK_*; this file does not include
 * spvi.h, so cli/main.c checks that they agree). */
enum { CLI_CHECK_RACES = 1u << 0, CLI_CHECK_UNINIT = 1u << 1, CLI_CHECK_ALL = 3u };

/* argv holds what follows `run`. Options may come before, between or after the positional
 * words; `--` ends the options. With --help nothing else is checked. */
bool cli_parse_run(int argc, char **argv, cli_run_cmd *c, cli_error *e);
void cli_run_cmd_free(cli_run_cmd *c);

#endif
