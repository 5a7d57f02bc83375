/*
 * cli_cmdline.c — owns the option syntax of `spvi run`: which options exist, their values, and
 * the consistency checks between them (every -l/--offset has as many dimensions as -g).
 */
#include "cli_cmdline.h"

#include "cli_num.h"
#include "cli_shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
  OPT_KERNEL,
  OPT_GLOBAL,
  OPT_LOCAL,
  OPT_OFFSET,
  OPT_OUT,
  OPT_PRINT,
  OPT_WARP,
  OPT_STRICT,
  OPT_FTZ,
  OPT_STATS,
  OPT_THREADS,
  OPT_GROUPS,
  OPT_SPEC,
  OPT_TRACE,
  OPT_CHECK,
  OPT_REPORT,
  OPT_MAX_STEPS,
  OPT_MAX_MEMORY,
  OPT_KEEP_GOING,
  OPT_SUBGROUP,
  OPT_EXPECT,
  OPT_SHARD,
  OPT_QUIET,
  OPT_HELP
} cmd_opt_id;

static const struct {
  const char *short_name; /* NULL when the option has none */
  const char *long_name;
  cmd_opt_id id;
  bool takes_value;
} cmd_opts[] = {
  {"-k", "--kernel", OPT_KERNEL, true},
  {"-g", "--global", OPT_GLOBAL, true},
  {"-l", "--local", OPT_LOCAL, true},
  {NULL, "--offset", OPT_OFFSET, true},
  {NULL, "--out", OPT_OUT, true},
  {NULL, "--print", OPT_PRINT, false},
  {NULL, "--warp", OPT_WARP, true},
  {NULL, "--strict", OPT_STRICT, false},
  {NULL, "--flush-denormals", OPT_FTZ, false},
  {NULL, "--stats", OPT_STATS, false},
  {NULL, "--threads", OPT_THREADS, true},
  {NULL, "--groups", OPT_GROUPS, true},
  {NULL, "--spec", OPT_SPEC, true},
  {NULL, "--trace", OPT_TRACE, false},
  {NULL, "--check", OPT_CHECK, true},
  {NULL, "--report", OPT_REPORT, true},
  {NULL, "--max-steps", OPT_MAX_STEPS, true},
  {NULL, "--max-memory", OPT_MAX_MEMORY, true},
  {NULL, "--keep-going", OPT_KEEP_GOING, false},
  {NULL, "--subgroup-size", OPT_SUBGROUP, true},
  {NULL, "--expect", OPT_EXPECT, true},
  {NULL, "--shard", OPT_SHARD, true},
  {"-q", "--quiet", OPT_QUIET, false},
  {"-h", "--help", OPT_HELP, false},
};
#define CMD_OPT_COUNT (sizeof cmd_opts / sizeof cmd_opts[0])

/* SIZE: a positive number of bytes, or of KiB, MiB, GiB with the suffix K, M, G (upper or lower
 * case), without overflow. */
static bool cmd_memory_size(const char *opt, const char *value, uint64_t *out, cli_error *e) {
  static const struct {
    char suffix;
    unsigned shift;
  } units[] = {{'k', 10}, {'m', 20}, {'g', 30}};
  size_t len = strlen(value);
  unsigned shift = 0;
  for (size_t k = 0; len && k < sizeof units / sizeof units[0]; k++)
    if ((value[len - 1] | 0x20) == units[k].suffix) {
      shift = units[k].shift;
      len--;
      break;
    }
  cli_int v;
  cli_error inner;
  if (!len || !cli_int_parse(value, len, "a size", &v, &inner) || v.neg || v.mag < 1 || v.mag > UINT64_MAX >> shift)
    return cli_fail(e, "%s `%s`: expects a positive number of bytes (suffix K, M or G: KiB, MiB, GiB)", opt, value);
  *out = v.mag << shift;
  return true;
}

/* X[,Y[,Z]] with each size >= min_value. */
static bool cmd_dims(const char *opt, const char *text, size_t min_value, cli_dims *d, cli_error *e) {
  d->n = 0;
  const char *p = text;
  for (;;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    if (d->n == 3) return cli_fail(e, "%s `%s`: at most 3 dimensions", opt, text);
    cli_int v;
    cli_error inner;
    if (!cli_int_parse(p, len, "a size", &v, &inner)) return cli_fail(e, "%s `%s`: %s", opt, text, inner.msg);
    if (v.neg || v.mag < min_value || v.mag > SIZE_MAX)
      return cli_fail(e, "%s `%s`: `%.*s` is not a size%s", opt, text, (int)len, p, min_value ? " of at least 1" : "");
    d->v[d->n++] = (size_t)v.mag;
    if (!comma) return true;
    p = comma + 1;
  }
}

static bool cmd_apply(cli_run_cmd *c, cmd_opt_id id, const char *opt, const char *value, cli_error *e) {
  switch (id) {
  case OPT_KERNEL:
    if (value[0] == 0) return cli_fail(e, "%s: empty kernel name", opt);
    c->kernel = value;
    return true;
  case OPT_GLOBAL: return cmd_dims(opt, value, 1, &c->global, e);
  case OPT_LOCAL: return cmd_dims(opt, value, 1, &c->local, e);
  case OPT_OFFSET: return cmd_dims(opt, value, 0, &c->offset, e);
  case OPT_OUT:
    if (value[0] == 0) return cli_fail(e, "%s: empty directory name", opt);
    c->out_dir = value;
    return true;
  case OPT_WARP: {
    cli_int v;
    cli_error inner;
    if (!cli_int_parse(value, strlen(value), "--warp", &v, &inner) || v.neg || v.mag < 1 || v.mag > 64)
      return cli_fail(e, "%s `%s`: the warp width must be 1..64", opt, value);
    c->warp = (unsigned)v.mag;
    return true;
  }
  case OPT_SUBGROUP: {
    cli_int v;
    cli_error inner;
    if (!cli_int_parse(value, strlen(value), "--subgroup-size", &v, &inner) || v.neg || v.mag < 1 || v.mag > 64)
      return cli_fail(e, "%s `%s`: the sub-group size must be 1..64", opt, value);
    c->subgroup_size = (unsigned)v.mag;
    return true;
  }
  case OPT_PRINT: {
    cli_int v = {false, CLI_PRINT_DEFAULT};
    cli_error inner;
    if (value && (!cli_int_parse(value, strlen(value), "--print", &v, &inner) || v.neg || v.mag > SIZE_MAX))
      return cli_fail(e, "%s=`%s`: expects a number of elements (0 prints only the summary line)", opt, value);
    c->print = true;
    c->print_max = (size_t)v.mag;
    return true;
  }
  case OPT_STRICT: c->strict = true; return true;
  case OPT_FTZ: c->flush_denormals = true; return true;
  case OPT_STATS: c->stats = true; return true;
  case OPT_KEEP_GOING: c->keep_going = true; return true;
  case OPT_THREADS: {
    cli_int v;
    cli_error inner;
    if (!cli_int_parse(value, strlen(value), "--threads", &v, &inner) || v.neg || v.mag < 1 || v.mag > 1024)
      return cli_fail(e, "%s `%s`: the thread count must be 1..1024", opt, value);
    c->threads = (unsigned)v.mag;
    return true;
  }
  case OPT_TRACE: c->trace = value ? value : "all"; return true;
  case OPT_CHECK: {
    /* a comma-separated list of check names */
    static const struct {
      const char *name;
      unsigned flag;
    } names[] = {
      {"races", CLI_CHECK_RACES},
      {"uninit", CLI_CHECK_UNINIT},
      {"all", CLI_CHECK_ALL},
    };
    const char *p = value;
    for (;;) {
      size_t len = strcspn(p, ",");
      size_t k = 0;
      while (k < sizeof names / sizeof names[0] && (strlen(names[k].name) != len || strncmp(p, names[k].name, len)))
        k++;
      if (k == sizeof names / sizeof names[0])
        return cli_fail(e, "%s `%s`: unknown check `%.*s` (races, uninit or all)", opt, value, (int)len, p);
      c->checks |= names[k].flag;
      if (!p[len]) return true;
      p += len + 1;
    }
  }
  case OPT_REPORT:
    if (value[0] == 0) return cli_fail(e, "%s: empty file name", opt);
    c->report = value;
    return true;
  case OPT_MAX_STEPS: {
    cli_int v;
    cli_error inner;
    if (!cli_int_parse(value, strlen(value), "--max-steps", &v, &inner) || v.neg || v.mag < 1)
      return cli_fail(e, "%s `%s`: expects a positive number of instructions", opt, value);
    c->max_steps = v.mag;
    return true;
  }
  case OPT_MAX_MEMORY: return cmd_memory_size(opt, value, &c->max_memory, e);
  case OPT_SPEC: {
    /* ID=VALUE: the value's text is checked by the loader against the constant's type */
    const char *eq = strchr(value, '=');
    cli_int id;
    cli_error inner;
    if (!eq || eq == value || !eq[1] || !cli_int_parse(value, (size_t)(eq - value), "--spec", &id, &inner) || id.neg ||
        id.mag > UINT32_MAX)
      return cli_fail(e, "%s `%s`: expects ID=VALUE with ID a SpecId (0..4294967295)", opt, value);
    for (int i = 0; i < c->nspecs; i++)
      if (c->spec_ids[i] == (uint32_t)id.mag)
        return cli_fail(e, "%s `%s`: SpecId %llu is given twice", opt, value, (unsigned long long)id.mag);
    uint32_t *ids = realloc(c->spec_ids, (size_t)(c->nspecs + 1) * sizeof *ids);
    const char **vals = ids ? realloc(c->spec_values, (size_t)(c->nspecs + 1) * sizeof *vals) : NULL;
    if (!ids || !vals) {
      if (ids) c->spec_ids = ids;
      return cli_fail(e, "out of memory");
    }
    c->spec_ids = ids;
    c->spec_values = vals;
    ids[c->nspecs] = (uint32_t)id.mag;
    vals[c->nspecs] = eq + 1;
    c->nspecs++;
    return true;
  }
  case OPT_GROUPS: {
    /* START:END, linear work-group ids, END exclusive */
    const char *colon = strchr(value, ':');
    cli_int a, b;
    cli_error inner;
    if (!colon || !cli_int_parse(value, (size_t)(colon - value), "--groups", &a, &inner) ||
        !cli_int_parse(colon + 1, strlen(colon + 1), "--groups", &b, &inner) || a.neg || b.neg || b.mag <= a.mag)
      return cli_fail(e, "%s `%s`: expects START:END with START < END (linear work-group ids, END excluded)", opt,
                      value);
    c->group_begin = a.mag;
    c->group_end = b.mag;
    return true;
  }
  case OPT_EXPECT:
    if (value[0] == 0) return cli_fail(e, "%s: empty directory name", opt);
    c->expect = value;
    return true;
  case OPT_SHARD: return cli_shard_parse(opt, value, getenv, &c->shard_index, &c->shard_count, e);
  case OPT_QUIET: c->quiet = true; return true;
  case OPT_HELP: c->help = true; return true;
  }
  return false;
}

/* A comparison option of --expect at argv[*i] (cli_compare.h): 1 taken, 0 not one, -1 bad. */
static int cmd_compare_option(cli_run_cmd *c, int argc, char **argv, int *i, cli_error *e) {
  const char *a = argv[*i], *eq = strchr(a, '=');
  char opt[32];
  bool takes_value;
  snprintf(opt, sizeof opt, "%.*s", (int)(eq ? (size_t)(eq - a) : strlen(a)), a);
  if (!cli_cmp_is_option(opt, &takes_value)) return 0;
  const char *value = eq ? eq + 1 : NULL;
  if (!takes_value && value) return cli_fail(e, "option %s takes no value", opt) - 1;
  if (takes_value && !value && *i + 1 >= argc) return cli_fail(e, "option %s needs a value", opt) - 1;
  if (takes_value && !value) value = argv[++*i];
  c->cmp_given = true;
  return cli_cmp_option(&c->cmp, opt, value, e) ? 1 : -1;
}

bool cli_parse_run(int argc, char **argv, cli_run_cmd *c, cli_error *e) {
  memset(c, 0, sizeof *c);
  cli_clopts_init(&c->cl);
  c->args = malloc(sizeof *c->args * (size_t)(argc > 0 ? argc : 1));
  if (!c->args) return cli_fail(e, "out of memory");
  bool seen[CMD_OPT_COUNT] = {false};
  bool options_done = false;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (options_done || a[0] != '-' || a[1] == 0) {
      if (!c->module) c->module = a;
      else c->args[c->nargs++] = a;
      continue;
    }
    if (strcmp(a, "--") == 0) {
      options_done = true;
      continue;
    }
    int used = cli_clopts_take(&c->cl, argc, argv, i, e); /* a compile option (cli_clopts.h) */
    if (used < 0) return false;
    if (used) {
      i += used - 1;
      continue;
    }
    /* Recognised spellings: -k NAME, -kNAME, --kernel NAME, --kernel=NAME. */
    size_t k;
    const char *value = NULL, *name = a;
    for (k = 0; k < CMD_OPT_COUNT; k++) {
      const char *s = cmd_opts[k].short_name, *l = cmd_opts[k].long_name;
      size_t ll = strlen(l);
      if (strcmp(a, l) == 0 || (s && strcmp(a, s) == 0)) break;
      /* --trace and --print take an optional value, only as --trace=FILTER, --print=N */
      if ((cmd_opts[k].takes_value || cmd_opts[k].id == OPT_TRACE || cmd_opts[k].id == OPT_PRINT) &&
          strncmp(a, l, ll) == 0 && a[ll] == '=') {
        value = a + ll + 1;
        name = l;
        break;
      }
      if (cmd_opts[k].takes_value && s && strncmp(a, s, 2) == 0) {
        value = a + 2;
        name = s;
        break;
      }
    }
    if (k == CMD_OPT_COUNT) {
      int r = cmd_compare_option(c, argc, argv, &i, e); /* --expect's tolerances: cli_compare.c's own */
      if (r < 0) return false;
      if (r > 0) continue;
      char q[112];
      return cli_fail(e, "unknown option `%s` (see spvi run --help)", cli_echo(a, q, sizeof q));
    }
    if (cmd_opts[k].id == OPT_HELP) {
      c->help = true;
      return true; /* help wins over any other mistake on the line */
    }
    const char *shown = name; /* the option as spelled, without any "=VALUE" */
    if (seen[k] && cmd_opts[k].id != OPT_SPEC) return cli_fail(e, "option %s given twice", shown); /* --spec repeats */
    seen[k] = true;
    if (cmd_opts[k].takes_value && !value) {
      if (i + 1 >= argc) return cli_fail(e, "option %s needs a value", shown);
      value = argv[++i];
    }
    if (!cmd_apply(c, cmd_opts[k].id, shown, value, e)) return false;
  }
  if (c->cmp_given && !c->expect)
    return cli_fail(e, "--ulp, --abs, --rel, --tol, --nan-exact and --signed-zero go with --expect DIR");
  if (!c->module) return cli_fail(e, "missing MODULE.spv or KERNEL.cl (see spvi run --help)");
  if (c->global.n == 0) return cli_fail(e, "missing -g X[,Y[,Z]] (the global size)");
  if (c->local.n && c->local.n != c->global.n)
    return cli_fail(e, "-l has %u dimension%s but -g has %u", c->local.n, c->local.n == 1 ? "" : "s", c->global.n);
  if (c->offset.n && c->offset.n != c->global.n)
    return cli_fail(e, "--offset has %u dimension%s but -g has %u", c->offset.n, c->offset.n == 1 ? "" : "s",
                    c->global.n);
  return true;
}

void cli_run_cmd_free(cli_run_cmd *c) {
  cli_cmp_opts_free(&c->cmp);
  cli_clopts_free(&c->cl);
  free(c->args);
  c->args = NULL;
  free(c->spec_ids);
  free(c->spec_values);
  c->spec_ids = NULL;
  c->spec_values = NULL;
}
