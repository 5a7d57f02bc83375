/*
 * cli_test.c — `spvi test CASES.json`. Each case becomes one `spvi run` of this executable
 * (/proc/self/exe) in a child process, started in the case file's directory so that relative paths
 * (module, @FILE arguments, expected files) mean what they mean next to the case file; --out and
 * --report go to a temporary directory. The run path is therefore exactly the command line's, and a
 * case that crashes or hangs the interpreter cannot take the others with it. Up to -j children run
 * at once; each gets --threads cores/-j unless its options say otherwise. The verdicts are printed
 * in the file's order, then JUnit XML (--junit) and SARIF 2.1.0 (--sarif) are written.
 */
#include "cli_test.h"

#include "cli_args.h"
#include "cli_compare.h"
#include "cli_num.h"
#include "cli_yaml.h"
#include "spvi.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { TEST_EXIT_PASS = 0, TEST_EXIT_FAIL = 1, TEST_EXIT_BAD = 2 };
typedef enum { VERDICT_PASS, VERDICT_FAIL, VERDICT_ERROR } verdict;

/* One expected output file: the run's NAME.npy against `file` within `tol`. */
typedef struct texpect {
  const char *name, *file;
  cli_tol tol;
} texpect;

typedef struct tcase {
  const char *name;
  char **argv; /* the child's command line, NULL-terminated */
  int argc;
  texpect *expect;
  int nexpect;
  const cJSON *reports; /* expected reports (array of {check, line}); NULL: none */
  const cJSON *fault;   /* expected fault ({check, line}); NULL: none */
  char *dir;            /* the case's temporary directory */
  pid_t pid;
  double start, seconds;
  int wstatus;
  verdict v;
  FILE *det;     /* say() writes the reasons here, into details (closed by judge) */
  char *details; /* why it failed, one reason a line (malloc'd) */
  size_t details_len;
  cJSON *found; /* the faults and reports the run wrote (array) */
  bool unexpected_any;
} tcase;

typedef struct tsuite {
  const char *path; /* CASES.json as given */
  char *base;       /* its directory: the children's working directory */
  cJSON *root;
  tcase *cases;
  int ncases;
  char *tmp; /* the temporary directory of every case's files */
} tsuite;

static double test_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- the case file ------------------------------------------------------------------------------ */

static bool tfail(cli_error *e, const tsuite *s, int i, const char *name, const char *msg) {
  if (i < 0) return cli_fail(e, "`%s`: %s", s->path, msg);
  return cli_fail(e, "`%s`: case %d%s%s%s: %s", s->path, i + 1, name ? " (`" : "", name ? name : "", name ? "`)" : "",
                  msg);
}

/* A word of the child's command line (copied). */
static bool push_arg(tcase *c, const char *w) {
  char **v = realloc(c->argv, sizeof *v * (size_t)(c->argc + 2));
  if (!v) return false;
  c->argv = v;
  if (!(v[c->argc] = strdup(w))) return false;
  v[++c->argc] = NULL;
  return true;
}

/* X[,Y[,Z]] from "8,4", 8 or [8, 4]. */
static bool json_dims(const cJSON *j, char *out, size_t cap) {
  if (cJSON_IsString(j)) return snprintf(out, cap, "%s", j->valuestring) < (int)cap;
  if (cJSON_IsNumber(j))
    return j->valuedouble >= 0 && j->valuedouble == floor(j->valuedouble) &&
           snprintf(out, cap, "%.0f", j->valuedouble) < (int)cap;
  if (!cJSON_IsArray(j) || cJSON_GetArraySize(j) < 1 || cJSON_GetArraySize(j) > 3) return false;
  size_t len = 0;
  const cJSON *d;
  cJSON_ArrayForEach(d, j) {
    if (!cJSON_IsNumber(d) || d->valuedouble < 0 || d->valuedouble != floor(d->valuedouble)) return false;
    len += (size_t)snprintf(out + len, cap - len, "%s%.0f", len ? "," : "", d->valuedouble);
    if (len >= cap) return false;
  }
  return true;
}

/* {"ulp": N, "abs": X, "rel": X}: every key optional, and "file" when `with_file` (an "expect"
 * entry), nothing else. */
static bool json_tol(const cJSON *j, bool with_file, cli_tol *t, char *why, size_t cap) {
  if (!cJSON_IsObject(j))
    return snprintf(why, cap, "a tolerance is an object {\"ulp\": N, \"abs\": X, \"rel\": X}") < 0;
  const cJSON *k;
  cJSON_ArrayForEach(k, j) {
    bool num = cJSON_IsNumber(k) && isfinite(k->valuedouble) && k->valuedouble >= 0;
    if (strcmp(k->string, "ulp") == 0 && num && k->valuedouble == floor(k->valuedouble) && k->valuedouble < 1.8e19) {
      t->has_ulp = true;
      t->ulp = (uint64_t)k->valuedouble;
    } else if (strcmp(k->string, "abs") == 0 && num) {
      t->has_abs = true;
      t->abs = k->valuedouble;
    } else if (strcmp(k->string, "rel") == 0 && num) {
      t->has_rel = true;
      t->rel = k->valuedouble;
    } else if (!with_file || strcmp(k->string, "file") != 0) {
      snprintf(why, cap,
               "tolerance key `%s`: expected \"ulp\" (a whole number >= 0), \"abs\" or \"rel\" (numbers >= 0)",
               k->string);
      return false;
    }
  }
  return true;
}

/* "expect": {"arg2": "ref/arg2.npy", "arg3": {"file": "ref/arg3.npy", "ulp": 4}} */
static bool parse_expect(tcase *c, const cJSON *j, const cli_tol *dflt, char *why, size_t cap) {
  if (!cJSON_IsObject(j))
    return snprintf(why, cap, "\"expect\" is an object {\"argI\": FILE or {\"file\": FILE, ...}}") < 0;
  c->expect = calloc((size_t)cJSON_GetArraySize(j) + 1, sizeof *c->expect);
  if (!c->expect) return snprintf(why, cap, "out of memory") < 0;
  const cJSON *k;
  cJSON_ArrayForEach(k, j) {
    texpect *x = &c->expect[c->nexpect++];
    x->name = k->string;
    x->tol = *dflt;
    const cJSON *f = cJSON_IsObject(k) ? cJSON_GetObjectItemCaseSensitive(k, "file") : k;
    if (!cJSON_IsString(f)) {
      snprintf(why, cap, "\"expect\" `%s`: a file name, or an object with \"file\"", k->string);
      return false;
    }
    x->file = f->valuestring;
    if (cJSON_IsObject(k)) {
      memset(&x->tol, 0, sizeof x->tol); /* its own tolerance replaces the case's */
      if (!json_tol(k, true, &x->tol, why, cap)) return false;
    }
  }
  return true;
}

/* {"check": "race", "line": 12}: what a fault or report must be. */
static bool valid_finding(const cJSON *j) {
  if (!cJSON_IsObject(j) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "check"))) return false;
  const cJSON *k;
  cJSON_ArrayForEach(k, j) {
    if (strcmp(k->string, "check") && strcmp(k->string, "line") && strcmp(k->string, "file")) return false;
    if (strcmp(k->string, "line") == 0 && !cJSON_IsNumber(k)) return false;
    if (strcmp(k->string, "file") == 0 && !cJSON_IsString(k)) return false;
  }
  return true;
}

/* The case's keys: one line of meaning each. */
static const char *const case_keys[] = {
  "name",      /* unique in the file; default "case N" */
  "module",    /* the file `spvi run` takes, relative to the case file */
  "kernel",    /* -k */
  "global",    /* -g: "X,Y", X or [X, Y] */
  "local",     /* -l */
  "offset",    /* --offset */
  "options",   /* more `spvi run` options, as a list of words */
  "args",      /* the kernel ARGs, the command line's grammar, a list of strings */
  "expect",    /* outputs: {"argI": FILE | {"file": FILE, "ulp": N, "abs": X, "rel": X}} */
  "tolerance", /* the default tolerance of "expect" */
  "reports",   /* the reports the run must give: [{"check": KIND, "line": N}], default none */
  "fault",     /* the fault the run must end with: {"check": KIND, "line": N}, default none */
};

static bool case_key_known(const char *k) {
  for (size_t i = 0; i < sizeof case_keys / sizeof case_keys[0]; i++)
    if (strcmp(k, case_keys[i]) == 0) return true;
  return false;
}

static bool parse_case(tsuite *s, int i, const cJSON *j, const char *self, unsigned threads, cli_error *e) {
  tcase *c = &s->cases[i];
  char why[600], dims[96];
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(j, "name");
  if (!cJSON_IsObject(j)) return tfail(e, s, i, NULL, "a case is a JSON object");
  const cJSON *k;
  cJSON_ArrayForEach(k, j) if (!case_key_known(k->string)) {
    snprintf(why, sizeof why, "unknown key `%s` (docs/cli.md, \"spvi test\", lists the keys)", k->string);
    return tfail(e, s, i, cJSON_IsString(name) ? name->valuestring : NULL, why);
  }
  if (name && !cJSON_IsString(name)) return tfail(e, s, i, NULL, "\"name\" is not a string");
  if (name) c->name = name->valuestring;
  else {
    snprintf(dims, sizeof dims, "case %d", i + 1);
    c->name = NULL;
    cJSON_AddStringToObject((cJSON *)j, "name", dims);
    c->name = cJSON_GetObjectItemCaseSensitive(j, "name")->valuestring;
  }
  for (int p = 0; p < i; p++)
    if (strcmp(s->cases[p].name, c->name) == 0) return tfail(e, s, i, c->name, "two cases have this name");
  const cJSON *module = cJSON_GetObjectItemCaseSensitive(j, "module"),
              *args = cJSON_GetObjectItemCaseSensitive(j, "args");
  if (!cJSON_IsString(module)) return tfail(e, s, i, c->name, "\"module\" (a file name) is missing");
  if (!cJSON_IsArray(args))
    return tfail(e, s, i, c->name, "\"args\" (a list of strings, one per parameter) is missing");
  /* --out and --report: their values are set by start_case */
  bool ok = push_arg(c, self) && push_arg(c, "run") && push_arg(c, "--out") && push_arg(c, "") &&
            push_arg(c, "--report") && push_arg(c, "");
  static const struct {
    const char *key, *opt;
  } dim_keys[] = {{"global", "-g"}, {"local", "-l"}, {"offset", "--offset"}};
  for (size_t d = 0; ok && d < 3; d++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, dim_keys[d].key);
    if (!v && d > 0) continue;
    if (!v || !json_dims(v, dims, sizeof dims)) {
      snprintf(why, sizeof why, "\"%s\" is %s: \"X,Y\", X or [X, Y]", dim_keys[d].key, v ? "not sizes" : "missing");
      return tfail(e, s, i, c->name, why);
    }
    ok = push_arg(c, dim_keys[d].opt) && push_arg(c, dims);
  }
  const cJSON *kernel = cJSON_GetObjectItemCaseSensitive(j, "kernel"),
              *opts = cJSON_GetObjectItemCaseSensitive(j, "options");
  if (kernel && !cJSON_IsString(kernel)) return tfail(e, s, i, c->name, "\"kernel\" is not a string");
  if (ok && kernel) ok = push_arg(c, "-k") && push_arg(c, kernel->valuestring);
  if (opts && !cJSON_IsArray(opts)) return tfail(e, s, i, c->name, "\"options\" is not a list of strings");
  bool own_threads = false;
  cJSON_ArrayForEach(k, opts) {
    if (!cJSON_IsString(k)) return tfail(e, s, i, c->name, "\"options\" is not a list of strings");
    const char *o = k->valuestring;
    if (!strncmp(o, "--out", 5) || !strncmp(o, "--report", 8) || !strncmp(o, "--expect", 8) || !strcmp(o, "--") ||
        !strcmp(o, "--then")) {
      snprintf(why, sizeof why, "\"options\": `%s` is spvi test's own (use \"expect\", \"reports\", \"fault\")", o);
      return tfail(e, s, i, c->name, why);
    }
    own_threads |= strncmp(o, "--threads", 9) == 0;
    ok = ok && push_arg(c, o);
  }
  if (ok && !own_threads) {
    snprintf(dims, sizeof dims, "%u", threads);
    ok = push_arg(c, "--threads") && push_arg(c, dims);
  }
  cli_tol dflt;
  memset(&dflt, 0, sizeof dflt);
  const cJSON *tol = cJSON_GetObjectItemCaseSensitive(j, "tolerance"),
              *exp = cJSON_GetObjectItemCaseSensitive(j, "expect");
  if (tol && !json_tol(tol, false, &dflt, why, sizeof why)) return tfail(e, s, i, c->name, why);
  if (exp && !parse_expect(c, exp, &dflt, why, sizeof why)) return tfail(e, s, i, c->name, why);
  c->reports = cJSON_GetObjectItemCaseSensitive(j, "reports");
  if (c->reports && !cJSON_IsArray(c->reports)) return tfail(e, s, i, c->name, "\"reports\" is not a list");
  cJSON_ArrayForEach(k, c->reports) if (!valid_finding(k)) {
    return tfail(e, s, i, c->name, "a report is {\"check\": KIND, \"line\": N} (line and file optional)");
  }
  c->fault = cJSON_GetObjectItemCaseSensitive(j, "fault");
  if (cJSON_IsNull(c->fault)) c->fault = NULL;
  if (c->fault && !valid_finding(c->fault))
    return tfail(e, s, i, c->name, "\"fault\" is {\"check\": KIND, \"line\": N} (line and file optional)");
  ok = ok && push_arg(c, "--");
  ok = ok && push_arg(c, module->valuestring);
  cJSON_ArrayForEach(k, args) {
    if (!cJSON_IsString(k)) return tfail(e, s, i, c->name, "\"args\" is not a list of strings");
    ok = ok && push_arg(c, k->valuestring);
  }
  return ok || cli_fail(e, "out of memory");
}

static bool parse_suite(tsuite *s, const char *self, unsigned jobs, unsigned cores, cli_error *e) {
  unsigned char *text = NULL, *t;
  size_t size = 0;
  if (!cli_read_file(s->path, (size_t)1 << 26, "case files are read up to 64 MiB", &text, &size, e)) return false;
  if (!(t = realloc(text, size + 1))) { /* one NUL for the parsers */
    free(text);
    return cli_fail(e, "out of memory");
  }
  text = t;
  text[size] = 0;
  const char *end = NULL;
  size_t plen = strlen(s->path);
  bool yaml = (plen > 5 && !strcmp(s->path + plen - 5, ".yaml")) || (plen > 4 && !strcmp(s->path + plen - 4, ".yml"));
  if (yaml) {
    char why[600];
    s->root = cli_yaml_parse((const char *)text, size, why, sizeof why);
    free(text);
    if (!s->root) return cli_fail(e, "`%s`: not a YAML case file: %s", s->path, why);
  } else {
    s->root = cJSON_ParseWithOpts((const char *)text, &end, true);
    if (!s->root) {
      size_t at = end ? (size_t)(end - (const char *)text) : 0, line = 1;
      for (size_t k = 0; k < at && k < size; k++) line += text[k] == '\n';
      free(text);
      return cli_fail(e, "`%s`:%zu: not valid JSON (RFC 8259) here", s->path, line);
    }
    free(text);
  }
  const cJSON *cases = cJSON_IsArray(s->root) ? s->root : cJSON_GetObjectItemCaseSensitive(s->root, "cases");
  if (!cJSON_IsArray(cases) || cJSON_GetArraySize(cases) == 0)
    return tfail(e, s, -1, NULL, "expected {\"cases\": [CASE, ...]} (or a list of cases) with at least one case");
  if (cJSON_IsObject(s->root)) {
    const cJSON *k;
    cJSON_ArrayForEach(k, s->root) if (strcmp(k->string, "cases")) {
      return tfail(e, s, -1, NULL, "the top-level object has only \"cases\"");
    }
  }
  s->ncases = cJSON_GetArraySize(cases);
  s->cases = calloc((size_t)s->ncases, sizeof *s->cases);
  if (!s->cases) return cli_fail(e, "out of memory");
  unsigned threads = jobs > 1 ? (cores / jobs ? cores / jobs : 1) : cores;
  int i = 0;
  const cJSON *c;
  cJSON_ArrayForEach(c, cases) if (!parse_case(s, i++, c, self, threads, e)) return false;
  return true;
}

/* ---- running ------------------------------------------------------------------------------------ */

/* Starts case c's `spvi run` in the case file's directory; stdout and stderr to files. */
static bool start_case(tsuite *s, tcase *c, int index, cli_error *e) {
  char sub[32];
  snprintf(sub, sizeof sub, "%d", index);
  c->dir = cli_path_join(s->tmp, sub);
  if (!c->dir || mkdir(c->dir, 0700) != 0) return cli_fail(e, "cannot create a directory in `%s`", s->tmp);
  char *out = cli_path_join(c->dir, "out"), *rep = cli_path_join(c->dir, "report.jsonl"),
       *so = cli_path_join(c->dir, "stdout"), *se = cli_path_join(c->dir, "stderr");
  bool ok = out && rep && so && se;
  if (ok) { /* parse_case left argv[3] and argv[5] for these */
    free(c->argv[3]);
    free(c->argv[5]);
    c->argv[3] = out;
    c->argv[5] = rep;
    out = rep = NULL;
  }
  fflush(stdout);
  fflush(stderr);
  c->start = test_now();
  c->pid = ok ? fork() : -1;
  if (c->pid == 0) {
    int fo = open(so, O_WRONLY | O_CREAT | O_TRUNC, 0600), fe = open(se, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fo < 0 || fe < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0 || chdir(s->base) != 0) _exit(126);
    execv(c->argv[0], c->argv);
    _exit(127);
  }
  free(out);
  free(rep);
  free(so);
  free(se);
  if (c->pid < 0) return cli_fail(e, "cannot start `%s run`: %s", c->argv[0], strerror(errno));
  return true;
}

/* ---- verdicts ----------------------------------------------------------------------------------- */

static void say(tcase *c, verdict v, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 3, 4)))
#endif
  ;

static void say(tcase *c, verdict v, const char *fmt, ...) {
  if (!c->det && !(c->det = open_memstream(&c->details, &c->details_len))) return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(c->det, fmt, ap);
  va_end(ap);
  fputc('\n', c->det);
  if (v > c->v) c->v = v;
}

/* A file's text (NUL-terminated, malloc'd), at most cap bytes of it; NULL when unreadable. */
static char *slurp(const char *path, size_t cap) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *t = malloc(cap + 1);
  size_t n = t ? fread(t, 1, cap, f) : 0;
  fclose(f);
  if (t) t[n] = 0;
  return t;
}

static bool is_fault(const cJSON *r) {
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(r, "type");
  return cJSON_IsString(type) && strcmp(type->valuestring, "fault") == 0;
}

/* Whether the run's finding (a report line) is what the case expects (`want`). */
static bool finding_matches(const cJSON *want, const cJSON *got) {
  const cJSON *wc = cJSON_GetObjectItemCaseSensitive(want, "check"),
              *wl = cJSON_GetObjectItemCaseSensitive(want, "line"),
              *wf = cJSON_GetObjectItemCaseSensitive(want, "file");
  const cJSON *gc = cJSON_GetObjectItemCaseSensitive(got, "check"), *at = cJSON_GetObjectItemCaseSensitive(got, "at");
  const cJSON *gl = cJSON_GetObjectItemCaseSensitive(at, "line"), *gf = cJSON_GetObjectItemCaseSensitive(at, "file");
  if (!cJSON_IsString(gc) || strcmp(wc->valuestring, gc->valuestring)) return false;
  if (wl && (!cJSON_IsNumber(gl) || gl->valuedouble != wl->valuedouble)) return false;
  if (wf) {
    /* a file name matches the report's path or its last components: "k.cl" matches "/src/k.cl" */
    if (!cJSON_IsString(gf)) return false;
    size_t a = strlen(gf->valuestring), b = strlen(wf->valuestring);
    if (b > a || strcmp(gf->valuestring + a - b, wf->valuestring) || (a > b && gf->valuestring[a - b - 1] != '/'))
      return false;
  }
  return true;
}

static const char *finding_str(const cJSON *r, char *buf, size_t cap) {
  const cJSON *at = cJSON_GetObjectItemCaseSensitive(r, "at");
  const cJSON *c = cJSON_GetObjectItemCaseSensitive(r, "check"), *f = cJSON_GetObjectItemCaseSensitive(at, "file"),
              *l = cJSON_GetObjectItemCaseSensitive(at, "line");
  if (!at) /* an expectation */
    f = cJSON_GetObjectItemCaseSensitive(r, "file"), l = cJSON_GetObjectItemCaseSensitive(r, "line");
  snprintf(buf, cap, "%s%s%s%s%.0f", cJSON_IsString(c) ? c->valuestring : "?", l || f ? " at " : "",
           cJSON_IsString(f) && f->valuestring[0] ? f->valuestring : "", cJSON_IsNumber(l) ? ":" : "",
           cJSON_IsNumber(l) ? l->valuedouble : 0);
  if (!cJSON_IsNumber(l)) buf[strlen(buf) - 1] = 0; /* no line: drop the "%.0f" of 0 */
  return buf;
}

/* The faults and reports the run wrote, against the expected ones (each matched both ways). */
static void check_findings(tcase *c, bool *faulted) {
  char *path = cli_path_join(c->dir, "report.jsonl"), b1[600];
  char *text = path ? slurp(path, (size_t)1 << 26) : NULL;
  free(path);
  c->found = cJSON_CreateArray();
  for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : line + strlen(line)) {
    nl = strchr(line, '\n');
    if (nl) *nl = 0;
    cJSON *r = cJSON_Parse(line);
    if (r) cJSON_AddItemToArray(c->found, r);
    else say(c, VERDICT_ERROR, "unreadable --report line: %.200s", line);
  }
  free(text);
  const cJSON *r;
  *faulted = false;
  cJSON_ArrayForEach(r, c->found) {
    bool fault = is_fault(r);
    *faulted |= fault;
    const cJSON *w = fault ? c->fault : NULL, *x;
    bool expected = fault && w && finding_matches(w, r);
    if (!fault) cJSON_ArrayForEach(x, c->reports) expected |= finding_matches(x, r);
    cJSON_AddBoolToObject((cJSON *)r, "spvi_test_expected", expected);
    if (!expected) {
      const cJSON *m = cJSON_GetObjectItemCaseSensitive(r, "message");
      say(c, VERDICT_FAIL, "unexpected %s %s: %s", fault ? "fault" : "report", finding_str(r, b1, sizeof b1),
          cJSON_IsString(m) ? m->valuestring : "");
    }
  }
  if (c->fault && !*faulted)
    say(c, VERDICT_FAIL, "expected fault %s: the run did not fault", finding_str(c->fault, b1, sizeof b1));
  const cJSON *w;
  cJSON_ArrayForEach(w, c->reports) {
    bool seen = false;
    cJSON_ArrayForEach(r, c->found) seen |= !is_fault(r) && finding_matches(w, r);
    if (!seen) say(c, VERDICT_FAIL, "expected report %s: not reported", finding_str(w, b1, sizeof b1));
  }
}

/* The outputs against the expected files, the text of each comparison into the details. */
static void check_outputs(tsuite *s, tcase *c) {
  for (int i = 0; i < c->nexpect; i++) {
    texpect *x = &c->expect[i];
    char npy[300];
    snprintf(npy, sizeof npy, "out/%s.npy", x->name);
    char *out = cli_path_join(c->dir, npy),
         *exp = x->file[0] == '/' ? strdup(x->file) : cli_path_join(s->base, x->file);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    cli_cmp_opts o;
    memset(&o, 0, sizeof o);
    cli_cmp_sink sink;
    struct stat st;
    if (!out || !exp || !mem) say(c, VERDICT_ERROR, "out of memory");
    else if (stat(out, &st) != 0) {
      say(c, VERDICT_FAIL, "%s: the run wrote no %s.npy (buffer arguments are argI, I from 0)", x->name, x->name);
    } else {
      cli_cmp_sink_begin(&sink, mem, false);
      cli_cmp_status r = cli_compare_files(exp, out, x->name, &x->tol, &o, &sink);
      fflush(mem);
      if (len && text[len - 1] == '\n') text[len - 1] = 0; /* say() ends the line */
      if (r != CLI_CMP_EQUAL) say(c, r == CLI_CMP_ERROR ? VERDICT_ERROR : VERDICT_FAIL, "%s", text);
    }
    if (mem) fclose(mem);
    free(text);
    free(out);
    free(exp);
  }
}

/* What the finished child's exit status, report file and outputs say. */
static void judge_run(tsuite *s, tcase *c) {
  c->seconds = test_now() - c->start;
  if (!WIFEXITED(c->wstatus)) {
    say(c, VERDICT_ERROR, "spvi run was killed by signal %d", WIFSIGNALED(c->wstatus) ? WTERMSIG(c->wstatus) : 0);
    return;
  }
  int code = WEXITSTATUS(c->wstatus);
  char *se = cli_path_join(c->dir, "stderr"), *err = se ? slurp(se, 4096) : NULL;
  free(se);
  if (code >= 2) {
    /* the run's own message: its first "spvi: error:" line */
    char *m = err ? strstr(err, "spvi: error: ") : NULL, *nl = m ? strchr(m, '\n') : NULL;
    if (nl) *nl = 0;
    say(c, VERDICT_ERROR, "%s", m ? m + 13 : code >= 126 ? "cannot run spvi" : "spvi run failed");
    free(err);
    return;
  }
  free(err);
  bool faulted;
  check_findings(c, &faulted);
  if (!faulted) check_outputs(s, c);
  else if (c->nexpect && c->fault) say(c, VERDICT_FAIL, "\"expect\": no outputs are written after a fault");
}

static void judge(tsuite *s, tcase *c) {
  judge_run(s, c);
  if (c->det) fclose(c->det); /* details now holds the text */
  c->det = NULL;
}

/* ---- results ------------------------------------------------------------------------------------ */

static void print_case(const tcase *c) {
  static const char *const tag[] = {"PASS", "FAIL", "ERROR"};
  printf("%-5s %s (%.2f s)\n", tag[c->v], c->name, c->seconds);
  for (const char *p = c->details; p && *p;) {
    const char *nl = strchr(p, '\n');
    int n = nl ? (int)(nl - p) : (int)strlen(p);
    printf("      %.*s\n", n, p);
    p += n + (nl != NULL);
  }
}

/* XML 1.0 text: the five entities escaped, other control characters (not allowed) as `?`. */
static void xml_text(FILE *f, const char *t) {
  for (const unsigned char *p = (const unsigned char *)(t ? t : ""); *p; p++) {
    if (*p == '&') fputs("&amp;", f);
    else if (*p == '<') fputs("&lt;", f);
    else if (*p == '>') fputs("&gt;", f);
    else if (*p == '"') fputs("&quot;", f);
    else if (*p == '\'') fputs("&apos;", f);
    else if (*p < 0x20 && *p != '\n' && *p != '\t' && *p != '\r') fputc('?', f);
    else fputc(*p, f);
  }
}

/* JUnit XML as Jenkins, GitLab and GitHub's reporters read it (the de-facto schema of Ant's
 * JUnit task: testsuites > testsuite > testcase with failure/error, system-out, system-err). */
static bool write_junit(const tsuite *s, const char *path, double seconds, int failures, int errors) {
  FILE *f = fopen(path, "w");
  if (!f) return false;
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  fprintf(f, "<testsuites name=\"spvi test\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">\n", s->ncases,
          failures, errors, seconds);
  fputs("  <testsuite name=\"", f);
  xml_text(f, s->path);
  fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"0\" time=\"%.3f\">\n", s->ncases, failures,
          errors, seconds);
  for (int i = 0; i < s->ncases; i++) {
    const tcase *c = &s->cases[i];
    fputs("    <testcase name=\"", f);
    xml_text(f, c->name);
    fputs("\" classname=\"", f);
    xml_text(f, s->path);
    fprintf(f, "\" time=\"%.3f\">\n", c->seconds);
    if (c->v != VERDICT_PASS) {
      const char *el = c->v == VERDICT_FAIL ? "failure" : "error";
      char first[512];
      snprintf(first, sizeof first, "%s", c->details ? c->details : "");
      first[strcspn(first, "\n")] = 0;
      fprintf(f, "      <%s message=\"", el);
      xml_text(f, first);
      fprintf(f, "\" type=\"%s\">", c->v == VERDICT_FAIL ? "spvi.mismatch" : "spvi.error");
      xml_text(f, c->details);
      fprintf(f, "</%s>\n", el);
    }
    static const char *const streams[][2] = {{"stdout", "system-out"}, {"stderr", "system-err"}};
    for (int k = 0; k < 2 && c->dir; k++) {
      char *p = cli_path_join(c->dir, streams[k][0]), *t = p ? slurp(p, (size_t)1 << 16) : NULL;
      if (t && t[0]) {
        fprintf(f, "      <%s>", streams[k][1]);
        xml_text(f, t);
        fprintf(f, "</%s>\n", streams[k][1]);
      }
      free(p);
      free(t);
    }
    fputs("    </testcase>\n", f);
  }
  fputs("  </testsuite>\n</testsuites>\n", f);
  return fclose(f) == 0;
}

/* A SARIF artifact URI: absolute paths as file:// URIs (RFC 8089), others relative to the source
 * root (SARIF 2.1.0 section 3.4.4 and uriBaseId, 3.4.4's %SRCROOT% convention). */
static void sarif_location(cJSON *res, const cJSON *at) {
  const cJSON *f = cJSON_GetObjectItemCaseSensitive(at, "file"), *l = cJSON_GetObjectItemCaseSensitive(at, "line"),
              *col = cJSON_GetObjectItemCaseSensitive(at, "column"),
              *fn = cJSON_GetObjectItemCaseSensitive(at, "function");
  cJSON *locs = cJSON_AddArrayToObject(res, "locations"), *loc = cJSON_CreateObject();
  cJSON_AddItemToArray(locs, loc);
  if (cJSON_IsString(f) && f->valuestring[0] && cJSON_IsNumber(l) && l->valuedouble >= 1) {
    cJSON *phys = cJSON_AddObjectToObject(loc, "physicalLocation"),
          *art = cJSON_AddObjectToObject(phys, "artifactLocation");
    size_t n = strlen(f->valuestring) * 3 + 8;
    char *uri = malloc(n);
    if (uri) {
      size_t k = (size_t)snprintf(uri, n, "%s", f->valuestring[0] == '/' ? "file://" : "");
      for (const unsigned char *p = (const unsigned char *)f->valuestring; *p; p++)
        k += (size_t)snprintf(uri + k, n - k, *p <= ' ' || *p == '%' || *p >= 0x7f ? "%%%02X" : "%c", *p);
      cJSON_AddStringToObject(art, "uri", uri);
      free(uri);
    }
    if (f->valuestring[0] != '/') cJSON_AddStringToObject(art, "uriBaseId", "%SRCROOT%");
    cJSON *region = cJSON_AddObjectToObject(phys, "region");
    cJSON_AddNumberToObject(region, "startLine", l->valuedouble);
    if (cJSON_IsNumber(col) && col->valuedouble >= 1) cJSON_AddNumberToObject(region, "startColumn", col->valuedouble);
  }
  if (cJSON_IsString(fn) && fn->valuestring[0]) {
    cJSON *ll = cJSON_AddArrayToObject(loc, "logicalLocations"), *one = cJSON_CreateObject();
    cJSON_AddStringToObject(one, "name", fn->valuestring);
    cJSON_AddStringToObject(one, "kind", "function");
    cJSON_AddItemToArray(ll, one);
  }
}

/* SARIF 2.1.0 (OASIS): one run of the tool "spvi", one result per fault and report of every case;
 * the ones a case expects are level "note", the others "error". */
static bool write_sarif(const tsuite *s, const char *path) {
  cJSON *doc = cJSON_CreateObject();
  cJSON_AddStringToObject(doc, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
  cJSON_AddStringToObject(doc, "version", "2.1.0");
  cJSON *runs = cJSON_AddArrayToObject(doc, "runs"), *run = cJSON_CreateObject();
  cJSON_AddItemToArray(runs, run);
  cJSON *driver = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "tool"), "driver");
  cJSON_AddStringToObject(driver, "name", "spvi");
  cJSON_AddStringToObject(driver, "version", SPVI_VERSION_STRING);
  cJSON *rules = cJSON_AddArrayToObject(driver, "rules"), *results = cJSON_AddArrayToObject(run, "results");
  for (int i = 0; i < s->ncases; i++) {
    const cJSON *r;
    cJSON_ArrayForEach(r, s->cases[i].found) {
      const cJSON *chk = cJSON_GetObjectItemCaseSensitive(r, "check"),
                  *msg = cJSON_GetObjectItemCaseSensitive(r, "message");
      const char *id = cJSON_IsString(chk) ? chk->valuestring : "report";
      bool known = false;
      const cJSON *x;
      cJSON_ArrayForEach(x, rules) known |= strcmp(cJSON_GetObjectItemCaseSensitive(x, "id")->valuestring, id) == 0;
      if (!known) {
        cJSON *rule = cJSON_CreateObject();
        cJSON_AddStringToObject(rule, "id", id);
        cJSON_AddItemToArray(rules, rule);
      }
      cJSON *res = cJSON_CreateObject();
      cJSON_AddStringToObject(res, "ruleId", id);
      cJSON_AddStringToObject(res, "level",
                              cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "spvi_test_expected")) ? "note"
                                                                                                      : "error");
      char text[2400];
      snprintf(text, sizeof text, "%s (test case `%s`)", cJSON_IsString(msg) ? msg->valuestring : id, s->cases[i].name);
      cJSON_AddStringToObject(cJSON_AddObjectToObject(res, "message"), "text", text);
      sarif_location(res, cJSON_GetObjectItemCaseSensitive(r, "at"));
      cJSON_AddItemToArray(results, res);
    }
  }
  char *text = cJSON_Print(doc);
  cJSON_Delete(doc);
  FILE *f = text ? fopen(path, "w") : NULL;
  bool ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
  if (f && fclose(f) != 0) ok = false;
  free(text);
  return ok;
}

/* ---- spvi test ---------------------------------------------------------------------------------- */

static const char usage_test[] =
  "usage: spvi test [-j N] [--junit FILE] [--sarif FILE] [--keep] CASES.json|CASES.yaml\n"
  "\n"
  "Runs every case of the case file (JSON, or YAML when its name ends in .yaml or .yml;\n"
  "docs/cli.md, \"spvi test\", has the format) with `spvi run` and checks its outputs against\n"
  "expected .npy files within tolerances, its faults and reports against the expected ones\n"
  "(check kind and source line; none unless listed). One line per case in the file's order,\n"
  "then `N passed, N failed`. Paths in the file are relative to its directory.\n"
  "\n"
  "  -j N          cases run at once (default: the available cores); each run gets\n"
  "                --threads cores/N unless its options set --threads\n"
  "  --junit FILE  write JUnit XML (testsuites > testsuite > testcase, failure/error)\n"
  "  --sarif FILE  write SARIF 2.1.0: every fault and report with its file:line (level\n"
  "                error, or note when the case expects it)\n"
  "  --keep        keep the runs' outputs, reports, stdout and stderr; print where\n"
  "\n"
  "exit status: 0 every case passed, 1 a case failed, 2 bad usage or case file\n";

/* Removes the case directories (their out/ files, report, stdout, stderr) and the top one. */
static void remove_tree(const char *dir, int depth) {
  DIR *d = opendir(dir);
  struct dirent *de;
  while (d && (de = readdir(d))) {
    if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
    char *p = cli_path_join(dir, de->d_name);
    if (p && unlink(p) != 0 && depth < 3) remove_tree(p, depth + 1);
    free(p);
  }
  if (d) closedir(d);
  rmdir(dir);
}

static void free_suite(tsuite *s) {
  for (int i = 0; s->cases && i < s->ncases; i++) {
    tcase *c = &s->cases[i];
    for (int k = 0; k < c->argc; k++) free(c->argv[k]);
    free(c->argv);
    free(c->expect);
    if (c->det) fclose(c->det);
    free(c->dir);
    free(c->details);
    cJSON_Delete(c->found);
  }
  free(s->cases);
  free(s->base);
  free(s->tmp);
  cJSON_Delete(s->root);
}

/* Runs the cases, at most `jobs` at a time, printing the verdicts in the file's order. */
static bool run_cases(tsuite *s, unsigned jobs) {
  int next = 0, printed = 0, running = 0;
  cli_error e;
  while (printed < s->ncases) {
    while (running < (int)jobs && next < s->ncases) {
      if (!start_case(s, &s->cases[next], next, &e)) {
        cli_say_error("test: %s", e.msg);
        return false;
      }
      next++;
      running++;
    }
    int st;
    pid_t pid = running ? waitpid(-1, &st, 0) : -1;
    if (pid < 0 && running) {
      if (errno == EINTR) continue;
      cli_say_error("test: waitpid: %s", strerror(errno));
      return false;
    }
    for (int i = 0; i < next; i++)
      if (s->cases[i].pid == pid) {
        s->cases[i].wstatus = st;
        s->cases[i].pid = 0;
        judge(s, &s->cases[i]);
        running--;
      }
    while (printed < next && s->cases[printed].pid == 0) print_case(&s->cases[printed++]);
    fflush(stdout);
  }
  return true;
}

int cli_test_main(int argc, char **argv) {
  const char *path = NULL, *junit = NULL, *sarif = NULL;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  unsigned jobs = cores > 0 ? (unsigned)cores : 1;
  bool keep = false;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage_test, stdout);
      return TEST_EXIT_PASS;
    }
    bool val = !strcmp(a, "-j") || !strcmp(a, "--junit") || !strcmp(a, "--sarif");
    if (val && i + 1 == argc) {
      cli_say_error("option %s needs a value", a);
      return TEST_EXIT_BAD;
    }
    if (!strcmp(a, "-j")) {
      cli_int v;
      cli_error inner;
      if (!cli_int_parse(argv[i + 1], strlen(argv[i + 1]), "-j", &v, &inner) || v.neg || v.mag < 1 || v.mag > 1024) {
        cli_say_error("-j `%s`: the number of cases at once must be 1..1024", argv[i + 1]);
        return TEST_EXIT_BAD;
      }
      jobs = (unsigned)v.mag;
    } else if (!strcmp(a, "--junit")) junit = argv[i + 1];
    else if (!strcmp(a, "--sarif")) sarif = argv[i + 1];
    else if (!strcmp(a, "--keep")) keep = true;
    else if (a[0] == '-' && a[1]) {
      char q[112];
      cli_say_error("unknown option `%s` for test (see spvi test --help)", cli_echo(a, q, sizeof q));
      return TEST_EXIT_BAD;
    } else if (path) {
      cli_say_error("test takes one CASES.json");
      return TEST_EXIT_BAD;
    } else path = a;
    i += val;
  }
  if (!path) {
    cli_say_error("missing CASES.json (see spvi test --help)");
    return TEST_EXIT_BAD;
  }
  tsuite s;
  memset(&s, 0, sizeof s);
  s.path = path;
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) {
    cli_say_error("test: cannot find the spvi executable (/proc/self/exe): %s", strerror(errno));
    return TEST_EXIT_BAD;
  }
  self[n] = 0;
  const char *slash = strrchr(path, '/');
  s.base = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
  const char *tmpbase = getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp";
  s.tmp = cli_path_join(tmpbase, "spvi-test-XXXXXX");
  cli_error e;
  int status = TEST_EXIT_BAD;
  if (!s.base || !s.tmp) cli_say_error("out of memory");
  else if (!parse_suite(&s, self, jobs, cores > 0 ? (unsigned)cores : 1, &e)) cli_say_error("%s", e.msg);
  else if (!mkdtemp(s.tmp)) cli_say_error("test: cannot create a directory in `%s`: %s", tmpbase, strerror(errno));
  else {
    double t0 = test_now();
    bool ran = run_cases(&s, jobs);
    int failed = 0, errors = 0;
    for (int i = 0; i < s.ncases; i++) {
      failed += s.cases[i].v == VERDICT_FAIL;
      errors += s.cases[i].v == VERDICT_ERROR;
    }
    if (ran) {
      printf("%d passed, %d failed\n", s.ncases - failed - errors, failed + errors);
      status = failed + errors ? TEST_EXIT_FAIL : TEST_EXIT_PASS;
      if (junit && !write_junit(&s, junit, test_now() - t0, failed, errors)) {
        cli_say_error("--junit `%s`: cannot write it: %s", junit, strerror(errno));
        status = TEST_EXIT_BAD;
      }
      if (sarif && !write_sarif(&s, sarif)) {
        cli_say_error("--sarif `%s`: cannot write it: %s", sarif, strerror(errno));
        status = TEST_EXIT_BAD;
      }
    }
    if (keep) fprintf(stderr, "spvi: test: the runs' files are in %s\n", s.tmp);
    else remove_tree(s.tmp, 0);
  }
  free_suite(&s);
  return status;
}
