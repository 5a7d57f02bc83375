/*
 * cl_config.c — the platform's run-time configuration and its output channel for faults and
 * reports.
 *
 * An application cannot pass spvi options through the OpenCL API, so `spvi exec` (and users who
 * set them by hand) pass them in the environment, read once (docs/opencl-platform.md). A fault or
 * a checker report inside an application is printed on stderr like `spvi run` prints it, with the
 * enqueue that caused it (its running number, the kernel) and the host call site when known, and
 * written as a JSON line to SPVI_REPORT; SPVI_STATUS_FILE lets `spvi exec` turn an application's
 * exit status 0 into 1 when anything was found.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cl_internal.h"

static clx_config cfg;
static pthread_once_t cfg_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *report_file;
static _Atomic uint64_t enqueue_counter;

/* An environment variable's unsigned value in [lo, hi]; a bad value is reported and not used
 * (the application goes on with spvi's default rather than with a guess). */
static uint64_t env_uint(const char *name, uint64_t lo, uint64_t hi) {
  const char *v = getenv(name);
  if (!v || !*v) return 0;
  char *end = NULL;
  errno = 0;
  unsigned long long x = strtoull(v, &end, 10);
  if (*end || errno || v[0] == '-' || x < lo || x > hi) {
    fprintf(stderr, "spvi: %s=`%s` is not a number in %" PRIu64 "..%" PRIu64 "; not used\n", name, v, lo, hi);
    return 0;
  }
  return x;
}

static bool env_flag(const char *name) {
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

/* SPVI_CHECK: a comma-separated list of races, uninit, all (the same words as `spvi run --check`). */
static unsigned env_checks(void) {
  const char *v = getenv("SPVI_CHECK");
  if (!v || !*v) return 0;
  unsigned checks = 0;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", v);
  for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
    if (!strcmp(w, "races")) checks |= SPVI_CHECK_RACES;
    else if (!strcmp(w, "uninit")) checks |= SPVI_CHECK_UNINIT;
    else if (!strcmp(w, "all")) checks |= SPVI_CHECK_ALL;
    else fprintf(stderr, "spvi: SPVI_CHECK: unknown check `%s` (races, uninit, all); not used\n", w);
  }
  return checks;
}

static void cfg_read(void) {
  cfg.checks = env_checks();
  cfg.threads = (unsigned)env_uint("SPVI_THREADS", 1, 1024);
  cfg.warp = (unsigned)env_uint("SPVI_WARP", 1, 64);
  cfg.max_steps = env_uint("SPVI_MAX_STEPS", 1, UINT64_MAX);
  cfg.max_memory = env_uint("SPVI_MAX_MEMORY", 1, UINT64_MAX);
  cfg.flush_denormals = env_flag("SPVI_FLUSH_DENORMALS");
  cfg.strict = env_flag("SPVI_STRICT");
  cfg.stats = env_flag("SPVI_STATS");
  cfg.keep_going = env_flag("SPVI_KEEP_GOING");
  const char *r = getenv("SPVI_REPORT"), *s = getenv("SPVI_STATUS_FILE");
  cfg.report_path = r && *r ? r : NULL;
  cfg.status_path = s && *s ? s : NULL;
}

const clx_config *clx_cfg(void) {
  pthread_once(&cfg_once, cfg_read);
  return &cfg;
}

void clx_run_options(spvi_run_options *o, bool program_ftz) {
  const clx_config *c = clx_cfg();
  memset(o, 0, sizeof *o);
  o->warp_width = c->warp;
  o->threads = c->threads;
  o->checks = c->checks;
  o->max_steps = c->max_steps;
  o->max_memory = c->max_memory;
  o->keep_going = c->keep_going;
  o->flush_denormals = c->flush_denormals || program_ftz;
}

uint64_t clx_next_enqueue_no(void) { return atomic_fetch_add(&enqueue_counter, 1) + 1; }

/* Tell `spvi exec` that something was found (one line per finding; it only checks the size). */
static void mark_status(const char *what) {
  const char *path = clx_cfg()->status_path;
  if (!path) return;
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return;
  ssize_t n = write(fd, what, strlen(what));
  (void)n;
  close(fd);
}

/* The JSON members that place a finding in the application: "enqueue":N,"host_site":"...". */
static void json_extra(char *buf, size_t len, uint64_t no, const char *site) {
  char esc[300];
  size_t k = 0;
  for (const char *p = site ? site : ""; *p && k + 7 < sizeof esc; p++) {
    unsigned char ch = (unsigned char)*p;
    if (ch == '"' || ch == '\\') {
      esc[k++] = '\\';
      esc[k++] = (char)ch;
    } else if (ch < 0x20) k += (size_t)snprintf(esc + k, sizeof esc - k, "\\u%04x", ch);
    else esc[k++] = (char)ch;
  }
  esc[k] = 0;
  snprintf(buf, len, "\"enqueue\":%" PRIu64 ",\"host_site\":\"%s\"", no, esc);
}

static FILE *report_out(void) {
  const char *path = clx_cfg()->report_path;
  if (!path || report_file) return report_file;
  /* append: `spvi exec` empties the file before it starts the program, and processes the program
   * forks add their lines to the same file */
  report_file = fopen(path, "a");
  if (!report_file) fprintf(stderr, "spvi: cannot open the report file %s: %s\n", path, strerror(errno));
  return report_file;
}

void clx_report_launch(const spvi_launch *l, spvi_status st, const spvi_fault *f, const char *kernel, uint64_t no,
                       const char *site) {
  size_t nrep = spvi_report_count(l);
  const clx_config *c = clx_cfg();
  if (st != SPVI_FAULT && nrep == 0 && !c->stats) return;
  char where[400];
  snprintf(where, sizeof where, "enqueue #%" PRIu64 " (kernel `%s`%s%s)", no, kernel,
           site && *site ? ", called from " : "", site && *site ? site : "");
  char extra[512];
  json_extra(extra, sizeof extra, no, site);
  pthread_mutex_lock(&out_lock);
  FILE *rf = report_out();
  for (size_t i = 0; i < nrep; i++) {
    const spvi_report *r = spvi_report_get(l, i);
    fprintf(stderr, "spvi: %s:\n%s\n", where, r->message);
    if (rf) spvi_report_write_json(rf, r, extra);
  }
  if (st == SPVI_FAULT) {
    fprintf(stderr, "spvi: %s:\n%s\n", where, f->message);
    if (rf) spvi_fault_write_json(rf, f, extra);
  }
  if (c->stats) {
    spvi_run_stats s;
    spvi_launch_stats(l, &s);
    fprintf(stderr, "spvi: %s: exec_s=%.6f instructions=%" PRIu64 "\n", where, s.exec_seconds, s.instructions);
  }
  if (rf) fflush(rf);
  fflush(stderr);
  pthread_mutex_unlock(&out_lock);
  if (st == SPVI_FAULT || nrep) mark_status(st == SPVI_FAULT ? "fault\n" : "report\n");
}
