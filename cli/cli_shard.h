/*
 * cli_shard.h — which shard of a launch's work-groups a `spvi run --shard SPEC` is: SPEC is K/N
 * (K = 0 .. N-1), or `env` / `env/N` to read K (and N) from the variables a job engine sets in
 * each task: Slurm job arrays, Kubernetes Indexed Jobs (docs/scaling.md). Pure: no spvi library.
 */
#ifndef CLI_SHARD_H
#define CLI_SHARD_H

#include "cli_types.h"

/* Looks up an environment variable: getenv, or a table in the unit tests. */
typedef char *(*cli_getenv_fn)(const char *name);

/* Parses `opt SPEC` into *index and *count (count >= 1, index < count). */
bool cli_shard_parse(const char *opt, const char *spec, cli_getenv_fn get, uint64_t *index, uint64_t *count,
                     cli_error *e);

#endif
