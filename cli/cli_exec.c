/*
 * cli_exec.c — `spvi exec`: run an unmodified OpenCL application with spvi as its only platform.
 *
 * The application talks to an ICD loader (libOpenCL.so); both loaders in use take the ICDs to load
 * from the environment: ocl-icd loads only the library named by OCL_ICD_VENDORS when that is a
 * library path, the Khronos loader adds those in OCL_ICD_FILENAMES (and finds no vendors
 * directory at a path that is not one). So spvi exec sets both to the absolute path of
 * libspvi-cl.so, found next to this binary (build/ in the tree, PREFIX/lib when installed under
 * PREFIX/bin). The options reach the library as the SPVI_* variables cl_config.c reads; the
 * library writes a line to SPVI_STATUS_FILE, a file made empty here, whenever a launch faulted
 * or reported an error, so that an application which ignores its OpenCL errors still makes the
 * command fail.
 */
/* realpath (XSI) */
#define _XOPEN_SOURCE 700

#include "cli_exec.h"

#include "cli_num.h"
#include "cli_types.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

enum { EXEC_BAD = 2, EXEC_CANNOT_RUN = 126, EXEC_NOT_FOUND = 127 };

static const char usage_exec[] =
  "usage: spvi exec [--check LIST] [--report FILE] [--threads N] [--warp N] [--max-steps N]\n"
  "                 [--max-memory N] [--flush-denormals] [--strict] [--stats] [--keep-going]\n"
  "                 [--] PROGRAM [ARGS...]\n"
  "\n"
  "Runs PROGRAM, an OpenCL application, with spvi as its only OpenCL platform: every kernel it\n"
  "builds and enqueues runs in the interpreter with every memory access checked. A fault or an\n"
  "error a check finds is printed on stderr with the enqueue and kernel it happened in; the\n"
  "application goes on (the command's status is an error, see below).\n"
  "\n"
  "The ICD loader is pointed at libspvi-cl.so, found next to the spvi binary (or in ../lib):\n"
  "OCL_ICD_VENDORS and OCL_ICD_FILENAMES name it. The options reach the library as environment\n"
  "variables, which may also be set by hand for an application run without spvi exec:\n"
  "\n"
  "options (before PROGRAM; `--` ends them):\n"
  "  --check LIST        SPVI_CHECK=LIST  also run these checks (comma-separated): races (data\n"
  "                      races on local and global memory), uninit (uses of never-written\n"
  "                      private or local memory), all\n"
  "  --report FILE       SPVI_REPORT=FILE  also write every fault and report as a JSON line to\n"
  "                      FILE (emptied first), with the enqueue's number\n"
  "  --threads N         SPVI_THREADS=N  run work-groups on N threads, 1..1024 (default: the\n"
  "                      available cores; also CL_DEVICE_MAX_COMPUTE_UNITS)\n"
  "  --warp N            SPVI_WARP=N  lanes per simulated warp, 1..64 (results never depend on it)\n"
  "  --max-steps N       SPVI_MAX_STEPS=N  a work-item executing more than N SPIR-V instructions\n"
  "                      is a fault (default 1000000000)\n"
  "  --max-memory N      SPVI_MAX_MEMORY=N  a launch that may use more than N bytes fails (as\n"
  "                      spvi run --max-memory; the enqueue's event ends in CL_OUT_OF_RESOURCES)\n"
  "  --flush-denormals   SPVI_FLUSH_DENORMALS=1  flush float denormals to zero in every kernel\n"
  "  --strict            SPVI_STRICT=1  a SPIR-V validation failure fails the program's build\n"
  "  --stats             SPVI_STATS=1  print each launch's execution time and instruction count\n"
  "  --keep-going        SPVI_KEEP_GOING=1  an out-of-bounds, null or invalid pointer access or an\n"
  "                      array index out of bounds is a report: the access is skipped, the\n"
  "                      kernel goes on\n"
  "\n"
  "exit status: PROGRAM's (128+N when signal N killed it), except 1 when PROGRAM exited with 0\n"
  "             but a kernel faulted or a check reported an error; 2 bad usage or libspvi-cl.so\n"
  "             not found; 126 PROGRAM cannot be executed, 127 PROGRAM not found\n";


/* ---- options ----------------------------------------------------------------------------------- */
typedef enum exec_kind { K_FLAG, K_CHECKS, K_FILE, K_COUNT } exec_kind;

typedef struct exec_opt {
  const char *name;
  exec_kind kind;
  const char *env;           /* the variable cl_config.c reads */
  unsigned long long lo, hi; /* K_COUNT: the accepted range */
  const char *range_msg;     /* K_COUNT: what the value must be */
} exec_opt;

static const exec_opt exec_opts[] = {
  {"--check", K_CHECKS, "SPVI_CHECK", 0, 0, NULL},
  {"--report", K_FILE, "SPVI_REPORT", 0, 0, NULL},
  {"--threads", K_COUNT, "SPVI_THREADS", 1, 1024, "the thread count must be 1..1024"},
  {"--warp", K_COUNT, "SPVI_WARP", 1, 64, "the warp width must be 1..64"},
  {"--max-steps", K_COUNT, "SPVI_MAX_STEPS", 1, ~0ull, "expects a positive number of instructions"},
  {"--max-memory", K_COUNT, "SPVI_MAX_MEMORY", 1, ~0ull, "expects a positive number of bytes"},
  {"--flush-denormals", K_FLAG, "SPVI_FLUSH_DENORMALS", 0, 0, NULL},
  {"--strict", K_FLAG, "SPVI_STRICT", 0, 0, NULL},
  {"--stats", K_FLAG, "SPVI_STATS", 0, 0, NULL},
  {"--keep-going", K_FLAG, "SPVI_KEEP_GOING", 0, 0, NULL},
};
#define EXEC_NOPTS (sizeof exec_opts / sizeof exec_opts[0])

typedef struct exec_cmd {
  char values[EXEC_NOPTS][32];  /* K_COUNT: the value in decimal; K_FLAG: "1" */
  const char *text[EXEC_NOPTS]; /* K_CHECKS, K_FILE: the argument; NULL when not given */
  bool given[EXEC_NOPTS];
  bool help;
  int prog; /* index of PROGRAM in argv */
} exec_cmd;

/* races,uninit,all: every name known, none empty */
static bool check_list(const char *opt, const char *value, cli_error *e) {
  static const char *const names[] = {"races", "uninit", "all"};
  const char *p = value;
  for (;;) {
    size_t len = strcspn(p, ","), k = 0;
    while (k < 3 && (strlen(names[k]) != len || strncmp(p, names[k], len) != 0)) k++;
    if (k == 3) return cli_fail(e, "%s `%s`: unknown check `%.*s` (races, uninit or all)", opt, value, (int)len, p);
    if (!p[len]) return true;
    p += len + 1;
  }
}

static bool apply(exec_cmd *c, size_t k, const char *value, cli_error *e) {
  const exec_opt *o = &exec_opts[k];
  switch (o->kind) {
  case K_FLAG: snprintf(c->values[k], sizeof c->values[k], "1"); return true;
  case K_CHECKS:
    if (!check_list(o->name, value, e)) return false;
    c->text[k] = value;
    return true;
  case K_FILE:
    if (!value[0]) return cli_fail(e, "%s: empty file name", o->name);
    c->text[k] = value;
    return true;
  case K_COUNT: {
    cli_int v;
    cli_error inner;
    if (!cli_int_parse(value, strlen(value), o->name, &v, &inner) || v.neg || v.mag < o->lo || v.mag > o->hi)
      return cli_fail(e, "%s `%s`: %s", o->name, value, o->range_msg);
    snprintf(c->values[k], sizeof c->values[k], "%llu", (unsigned long long)v.mag);
    return true;
  }
  }
  return false;
}

/* Options come before PROGRAM: the first word that is not one (or the word after `--`) is
 * PROGRAM, and everything after it is PROGRAM's. Spellings: --opt VALUE and --opt=VALUE. */
static bool parse(int argc, char **argv, exec_cmd *c, cli_error *e) {
  memset(c, 0, sizeof *c);
  c->prog = -1;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) {
      if (i + 1 < argc) c->prog = i + 1;
      break;
    }
    if (a[0] != '-' || a[1] == 0) {
      c->prog = i;
      break;
    }
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      c->help = true;
      return true; /* help wins over any other mistake on the line */
    }
    size_t k = 0, nl = 0;
    const char *value = NULL;
    for (; k < EXEC_NOPTS; k++) {
      nl = strlen(exec_opts[k].name);
      if (strcmp(a, exec_opts[k].name) == 0) break;
      if (exec_opts[k].kind != K_FLAG && strncmp(a, exec_opts[k].name, nl) == 0 && a[nl] == '=') {
        value = a + nl + 1;
        break;
      }
    }
    if (k == EXEC_NOPTS) return cli_fail(e, "unknown option `%s` (see spvi exec --help)", a);
    if (c->given[k]) return cli_fail(e, "option %s given twice", exec_opts[k].name);
    c->given[k] = true;
    if (exec_opts[k].kind != K_FLAG && !value) {
      if (i + 1 >= argc) return cli_fail(e, "option %s needs a value", exec_opts[k].name);
      value = argv[++i];
    }
    if (!apply(c, k, value, e)) return false;
  }
  if (c->prog < 0) return cli_fail(e, "missing PROGRAM to run (see spvi exec --help)");
  return true;
}

/* ---- the library and the files --------------------------------------------------------------- */

/* libspvi-cl.so next to the running spvi binary, or in ../lib or ../lib64 of its directory. */
static bool find_library(char *out, size_t cap) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) {
    cli_say_error("cannot find the spvi binary's directory (/proc/self/exe: %s), so not libspvi-cl.so either",
                  strerror(errno));
    return false;
  }
  exe[n] = 0;
  char *slash = strrchr(exe, '/');
  if (slash) *slash = 0;
  static const char *const rel[] = {"", "/../lib", "/../lib64"};
  for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s%s/libspvi-cl.so", exe, rel[i]);
    if (access(path, R_OK) == 0 && realpath(path, out) && strlen(out) < cap) return true;
  }
  cli_say_error("cannot find libspvi-cl.so, the OpenCL platform spvi exec runs programs with: looked in %s "
                "and %s/../lib (build it with `make`, or install spvi with `make install`)",
                exe, exe);
  return false;
}

/* An absolute spelling of `path` (the program may change its working directory). */
static bool absolute(const char *path, char *out, size_t cap) {
  if (path[0] == '/') return (size_t)snprintf(out, cap, "%s", path) < cap;
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd)) return false;
  return (size_t)snprintf(out, cap, "%s/%s", cwd, path) < cap;
}

/* The report file is emptied now: the library appends to it (so that processes the program
 * forks add their lines to the same file). */
static bool prepare_report(const char *path, char *abs, size_t cap) {
  if (!absolute(path, abs, cap)) {
    cli_say_error("--report %s: the path is too long", path);
    return false;
  }
  int fd = open(abs, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    cli_say_error("--report %s: %s", path, strerror(errno));
    return false;
  }
  close(fd);
  return true;
}

static bool make_status_file(char *path, size_t cap) {
  const char *dir = getenv("TMPDIR");
  if (!dir || !*dir) dir = "/tmp";
  if ((size_t)snprintf(path, cap, "%s/spvi-exec-status.XXXXXX", dir) >= cap) return false;
  int fd = mkstemp(path);
  if (fd < 0) {
    cli_say_error("cannot create a status file in %s: %s", dir, strerror(errno));
    return false;
  }
  close(fd);
  return true;
}

static bool set_env(const char *name, const char *value) {
  if (setenv(name, value, 1) == 0) return true;
  cli_say_error("cannot set %s: %s", name, strerror(errno));
  return false;
}

static bool export_options(const exec_cmd *c, const char *lib, const char *status, const char *report) {
  if (!set_env("OCL_ICD_VENDORS", lib) || !set_env("OCL_ICD_FILENAMES", lib) || !set_env("SPVI_STATUS_FILE", status))
    return false;
  for (size_t k = 0; k < EXEC_NOPTS; k++) {
    if (!c->given[k]) continue;
    const char *v = exec_opts[k].kind == K_FILE ? report : c->text[k] ? c->text[k] : c->values[k];
    if (!set_env(exec_opts[k].env, v)) return false;
  }
  return true;
}

/* ---- running the program ------------------------------------------------------------------- */

/* fork + execvp; an exec failure comes back through a close-on-exec pipe, so it is told apart
 * from the program's own exit status 127. Returns the wait status, or -1 with *exec_errno set. */
static int run_program(char **argv, int *exec_errno) {
  int pfd[2];
  if (pipe(pfd) != 0) {
    *exec_errno = errno;
    return -1;
  }
  fcntl(pfd[0], F_SETFD, FD_CLOEXEC);
  fcntl(pfd[1], F_SETFD, FD_CLOEXEC);
  /* like system(): the terminal's ^C is for the program; spvi waits and reports its status */
  struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
  sigemptyset(&ign.sa_mask);
  sigaction(SIGINT, &ign, &old_int);
  sigaction(SIGQUIT, &ign, &old_quit);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    close(pfd[0]);
    execvp(argv[0], argv);
    int err = errno;
    ssize_t w = write(pfd[1], &err, sizeof err);
    (void)w;
    _exit(EXEC_NOT_FOUND);
  }
  int status = -1;
  close(pfd[1]);
  if (pid < 0) {
    *exec_errno = errno;
  } else {
    int err = 0;
    ssize_t r;
    while ((r = read(pfd[0], &err, sizeof err)) < 0 && errno == EINTR) {}
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (r == (ssize_t)sizeof err) {
      *exec_errno = err;
      status = -1;
    }
  }
  close(pfd[0]);
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGQUIT, &old_quit, NULL);
  return status;
}

static bool file_nonempty(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && st.st_size > 0;
}

int cli_exec_main(int argc, char **argv) {
  exec_cmd c;
  cli_error e;
  if (!parse(argc, argv, &c, &e)) {
    cli_say_error("%s", e.msg);
    return EXEC_BAD;
  }
  if (c.help) {
    fputs(usage_exec, stdout);
    return 0;
  }
  char lib[PATH_MAX], report[PATH_MAX + 1] = "", status_path[PATH_MAX];
  size_t report_k = 0;
  while (exec_opts[report_k].kind != K_FILE) report_k++;
  if (!find_library(lib, sizeof lib)) return EXEC_BAD;
  if (c.given[report_k] && !prepare_report(c.text[report_k], report, sizeof report)) return EXEC_BAD;
  if (!make_status_file(status_path, sizeof status_path)) return EXEC_BAD;
  int result = EXEC_BAD;
  if (!export_options(&c, lib, status_path, report)) goto done;
  int exec_errno = 0;
  int st = run_program(argv + c.prog, &exec_errno);
  if (st < 0) {
    cli_say_error("cannot run `%s`: %s", argv[c.prog], strerror(exec_errno));
    result = exec_errno == ENOENT ? EXEC_NOT_FOUND : EXEC_CANNOT_RUN;
  } else if (WIFSIGNALED(st)) {
    result = 128 + WTERMSIG(st);
  } else {
    result = WEXITSTATUS(st);
    if (result == 0 && file_nonempty(status_path)) {
      fprintf(stderr,
              "spvi: exec: `%s` exited with status 0, but a kernel faulted or a check reported an error "
              "(above): exit status 1\n",
              argv[c.prog]);
      result = 1;
    }
  }
done:
  unlink(status_path);
  return result;
}
