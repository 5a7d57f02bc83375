/*
 * cli_shard.c — owns the syntax of `--shard` and the job engines' variables it reads. Shards are
 * numbered from 0, as Slurm's SLURM_ARRAY_TASK_ID (from --array=0-...) and Kubernetes'
 * JOB_COMPLETION_INDEX are; GNU parallel's {#} counts from 1, so its recipe passes {#} minus one
 * (docs/scaling.md). Nothing is guessed: a variable that is missing, not a number or inconsistent
 * with the others is an error naming it.
 */
#include "cli_shard.h"

#include "cli_num.h"

#include <string.h>

/* A non-negative decimal of `len` characters, named `what` in the message. */
static bool shard_num(const char *opt, const char *what, const char *s, size_t len, uint64_t *out, cli_error *e) {
  cli_int v;
  cli_error inner;
  if (!len || !cli_int_parse(s, len, "a shard number", &v, &inner) || v.neg)
    return cli_fail(e, "%s: %s `%.*s` is not a non-negative integer", opt, what, (int)len, s);
  *out = v.mag;
  return true;
}

/* The value of variable `name` as a number; `*set` false (and true returned) when it is unset. */
static bool env_num(const char *opt, cli_getenv_fn get, const char *name, bool *set, uint64_t *out, cli_error *e) {
  const char *v = get(name);
  *set = v != NULL;
  return !v || shard_num(opt, name, v, strlen(v), out, e);
}

/* Slurm job arrays (sbatch --array=MIN-MAX[:STEP]): task SLURM_ARRAY_TASK_ID of COUNT tasks
 * MIN, MIN+STEP, ..., MAX. The shard is the task's position, (ID - MIN) / STEP, so arrays that do
 * not start at 0 (--array=1-8) work too; arrays that are not evenly spaced (--array=1,3,10) are
 * refused, their positions being unknown to the task. */
static bool shard_slurm(const char *opt, cli_getenv_fn get, uint64_t *index, uint64_t *count, cli_error *e) {
  static const char *const names[] = {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN",
                                      "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_STEP"};
  uint64_t v[5] = {0, 0, 0, 0, 1};
  bool set[5];
  for (int i = 0; i < 5; i++)
    if (!env_num(opt, get, names[i], &set[i], &v[i], e)) return false;
  for (int i = 1; i < 3; i++)
    if (!set[i]) return cli_fail(e, "%s env: SLURM_ARRAY_TASK_ID is set but %s is not", opt, names[i]);
  const uint64_t id = v[0], n = v[1], min = v[2], step = v[4];
  if (n == 0 || step == 0 || id < min || (id - min) % step != 0 || (id - min) / step >= n ||
      (set[3] && (v[3] < min || (v[3] - min) % step != 0 || (v[3] - min) / step != n - 1)))
    return cli_fail(e,
                    "%s env: the Slurm array (SLURM_ARRAY_TASK_ID=%llu COUNT=%llu MIN=%llu STEP=%llu) is not an "
                    "evenly spaced range holding the task: use --array=0-N-1 (or MIN-MAX[:STEP]), or --shard K/N",
                    opt, (unsigned long long)id, (unsigned long long)n, (unsigned long long)min,
                    (unsigned long long)step);
  *index = (id - min) / step;
  *count = n;
  return true;
}

/* Kubernetes Indexed Jobs: JOB_COMPLETION_INDEX from 0; the count must be given (`env/N`):
 * Kubernetes does not tell a pod the Job's completions, the Job's YAML repeats it. */
static bool shard_k8s(const char *opt, const char *spec, cli_getenv_fn get, uint64_t given, uint64_t *index,
                      uint64_t *count, cli_error *e) {
  if (!given)
    return cli_fail(e,
                    "%s env: JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) gives the shard, not their number: "
                    "write --shard env/N with N the Job's completions",
                    opt);
  bool set;
  if (!env_num(opt, get, "JOB_COMPLETION_INDEX", &set, index, e)) return false;
  if (*index >= given)
    return cli_fail(e, "%s %s: JOB_COMPLETION_INDEX=%llu is not below the shard count %llu", opt, spec,
                    (unsigned long long)*index, (unsigned long long)given);
  *count = given;
  return true;
}

/* `env` or `env/N`: Slurm's array variables, or Kubernetes' JOB_COMPLETION_INDEX. */
static bool shard_env(const char *opt, const char *spec, cli_getenv_fn get, uint64_t *index, uint64_t *count,
                      cli_error *e) {
  uint64_t given = 0;
  if (spec[3] == '/' && !shard_num(opt, "the shard count", spec + 4, strlen(spec + 4), &given, e)) return false;
  if (spec[3] == '/' && given == 0) return cli_fail(e, "%s %s: the shard count must be at least 1", opt, spec);
  const bool slurm = get("SLURM_ARRAY_TASK_ID") != NULL, k8s = get("JOB_COMPLETION_INDEX") != NULL;
  if (slurm && k8s)
    return cli_fail(e, "%s %s: both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set; give --shard K/N", opt, spec);
  if (k8s) return shard_k8s(opt, spec, get, given, index, count, e);
  if (!slurm)
    return cli_fail(e,
                    "%s %s: neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX (a Kubernetes "
                    "Indexed Job) is set; give --shard K/N",
                    opt, spec);
  if (!shard_slurm(opt, get, index, count, e)) return false;
  if (given && given != *count)
    return cli_fail(e, "%s %s: the Slurm array has %llu tasks (SLURM_ARRAY_TASK_COUNT)", opt, spec,
                    (unsigned long long)*count);
  return true;
}

bool cli_shard_parse(const char *opt, const char *spec, cli_getenv_fn get, uint64_t *index, uint64_t *count,
                     cli_error *e) {
  if (strcmp(spec, "env") == 0 || strncmp(spec, "env/", 4) == 0) return shard_env(opt, spec, get, index, count, e);
  const char *slash = strchr(spec, '/');
  if (!slash)
    return cli_fail(e, "%s `%s`: expects K/N (shard K of N, K from 0 to N-1), env or env/N (docs/scaling.md)", opt,
                    spec);
  if (!shard_num(opt, "the shard index", spec, (size_t)(slash - spec), index, e) ||
      !shard_num(opt, "the shard count", slash + 1, strlen(slash + 1), count, e))
    return false;
  if (*count == 0) return cli_fail(e, "%s %s: the shard count must be at least 1", opt, spec);
  if (*index >= *count)
    return cli_fail(e,
                    "%s %s: shards are numbered from 0 to %llu (GNU parallel's {#} counts from 1: pass "
                    "'{= $_=seq()-1 =}'/%llu)",
                    opt, spec, (unsigned long long)(*count - 1), (unsigned long long)*count);
  return true;
}
