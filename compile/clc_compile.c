/*
 * clc_compile.c — OpenCL C source -> SPIR-V (clang-14, opt-14, llvm-spirv-14) and SPIR-V linking
 * (spirv-link) for the OpenCL platform and the spvi command (clc_compile_file: a user's file). See
 * clc_compile.h for the interface and docs/compile.md for the design, the measurements behind it
 * and the corpus results.
 *
 * Every call works in its own mkdtemp directory and runs the tools as child processes
 * (posix_spawn, argv vectors: no shell, so no quoting problems), with the standard output and
 * error of each tool captured into a file that becomes the build log. Nothing is shared between
 * calls but the build cache (clc_cache.c, thread-safe), so the functions are thread-safe; a tool
 * that crashes or hangs (a timeout kills it) only fails that build. A source build whose key
 * (compile_key) is in the cache runs no tool at all.
 *
 * Source builds (build_module):
 *   clang-14 -O2 -Xclang -disable-llvm-passes (optimisation-ready IR, no passes run)
 *   -> opt-14 with spvi's pipeline (optimisation_pipeline: LLVM's -O2 without what produces IR
 *      that llvm-spirv-14 cannot translate), written as text
 *   -> lower_ir_text: rewrites what llvm-spirv-14 still refuses or mistranslates (freeze,
 *      saturating / overflow intrinsics, work-item functions of dimension >= 3, float
 *      compare-exchange)
 *   -> opt-14 -passes=always-inline,instsimplify (parses the text back, folds the rewrites)
 *   -> llvm-spirv-14 -> drop_internal_linkage.
 * When llvm-spirv-14 still refuses the module, two reduced pipelines are tried, then the
 * unoptimised module (the clang output itself; -cl-opt-disable goes there directly) and the log
 * says so. The reasons for every step, and the measurements: docs/compile.md.
 */
#define _GNU_SOURCE /* posix_spawn_file_actions_addchdir_np, nftw, dladdr */
#include "clc_compile.h"

#include "clc_cache.h"
#include "clc_features.h"
#include "clc_sbuf.h"
#include "spvi.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <poll.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* The OpenCL version of the device (__OPENCL_VERSION__); the OpenCL C version is -cl-std's. */
#define CLC_DEVICE_OPENCL_VERSION 300
/* The name of the main source in diagnostics and __FILE__. */
#define CLC_SOURCE_NAME "input.cl"

/* Thread-safe descriptions (strerror and strsignal may use a static buffer). */
static const char *errstr(int e) {
  const char *s = strerrordesc_np(e);
  return s ? s : "unknown error";
}

static const char *sigstr(int sig) {
  const char *s = sigdescr_np(sig);
  return s ? s : "unknown signal";
}

/* ------------------------------------------------------------------------------------------ */
/* Argument vector (the growable string is clc_sbuf.h's). Allocation failures are remembered     */
/* (oom) and reported once at the end instead of being checked at every call.                  */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
  char **v; /* NULL-terminated */
  size_t n, cap;
  bool oom;
} avec;

static void av_add(avec *a, const char *s) {
  if (a->oom) return;
  if (a->n + 2 > a->cap) {
    size_t cap = a->cap ? a->cap * 2 : 32;
    char **v = realloc(a->v, cap * sizeof *v);
    if (!v) {
      a->oom = true;
      return;
    }
    a->v = v;
    a->cap = cap;
  }
  char *c = strdup(s);
  if (!c) {
    a->oom = true;
    return;
  }
  a->v[a->n++] = c;
  a->v[a->n] = NULL;
}

static void av_addf(avec *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void av_addf(avec *a, const char *fmt, ...) {
  char tmp[1024];
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (len < 0 || (size_t)len >= sizeof tmp) {
    /* long (paths): format again into a heap buffer */
    char *big = len < 0 ? NULL : malloc((size_t)len + 1);
    if (!big) {
      a->oom = true;
      return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)len + 1, fmt, ap);
    va_end(ap);
    av_add(a, big);
    free(big);
    return;
  }
  av_add(a, tmp);
}

static void av_free(avec *a) {
  for (size_t i = 0; i < a->n; i++) free(a->v[i]);
  free(a->v);
  *a = (avec){0};
}

/* ------------------------------------------------------------------------------------------ */
/* Options                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* Splits an option string into words like a POSIX shell would, without expansions: blanks
 * separate words, '...' is literal, "..." allows \" \\ \$ \` escapes, a backslash outside quotes
 * escapes the next character. So `-D NAME="a b"` and `-I "my dir"` work as users expect. */
static bool tokenize(const char *s, avec *out, sbuf *log) {
  if (!s) return true;
  const char *p = s;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\v' || *p == '\f') p++;
    if (!*p) return true;
    sbuf w = {0};
    sb_addn(&w, "", 0); /* an empty quoted word ("") is still a word */
    while (*p && !(*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\v' || *p == '\f')) {
      if (*p == '\'') {
        const char *e = strchr(p + 1, '\'');
        if (!e) {
          sb_add(log, "spvi: error: invalid build options: unterminated ' quote\n");
          free(w.p);
          return false;
        }
        sb_addn(&w, p + 1, (size_t)(e - p - 1));
        p = e + 1;
      } else if (*p == '"') {
        p++;
        while (*p && *p != '"') {
          if (*p == '\\' && (p[1] == '"' || p[1] == '\\' || p[1] == '$' || p[1] == '`')) p++;
          sb_addn(&w, p, 1);
          p++;
        }
        if (*p != '"') {
          sb_add(log, "spvi: error: invalid build options: unterminated \" quote\n");
          free(w.p);
          return false;
        }
        p++;
      } else if (*p == '\\' && p[1]) {
        sb_addn(&w, p + 1, 1);
        p += 2;
      } else {
        sb_addn(&w, p, 1);
        p++;
      }
    }
    if (w.oom) {
      free(w.p);
      out->oom = true;
      return true;
    }
    av_add(out, w.p);
    free(w.p);
  }
}

typedef struct {
  avec clang; /* the user's -D, -I, -w, -Werror, -g for clang, in their order */
  int cl_std; /* 100 ... 300 */
  bool cl_std_given, opt_disable, fast_relaxed, denorms_zero, arg_info, uniform_wg;
  /* links */
  bool create_library, enable_link_options;
} copts;

/* Options accepted and recorded (or deliberately ignored: spvi's arithmetic is correctly rounded
 * and keeps denormals, signed zeros, infinities and NaNs, which every math option allows; none of
 * them is passed to clang, so they cannot make the generated code less exact). */
static const char *const math_options[] = {
  "-cl-fast-relaxed-math",
  "-cl-denorms-are-zero",
  "-cl-mad-enable",
  "-cl-no-signed-zeros",
  "-cl-unsafe-math-optimizations",
  "-cl-finite-math-only",
  "-cl-single-precision-constant",
  "-cl-fp32-correctly-rounded-divide-sqrt",
};

static bool is_one_of(const char *s, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(s, list[i]) == 0) return true;
  return false;
}

static void bad_option(sbuf *log, const char *opt, const char *why) {
  sb_addf(log, "spvi: error: invalid build option `%s`%s%s\n", opt, why ? ": " : "", why ? why : "");
}

/* -I DIR: relative directories are relative to the application's working directory, but clang
 * runs in the private directory, so make them absolute now. */
static bool add_include_dir(copts *o, const char *dir, sbuf *log) {
  if (!*dir) {
    bad_option(log, "-I", "the directory name is missing");
    return false;
  }
  av_add(&o->clang, "-I");
  if (dir[0] == '/') {
    av_add(&o->clang, dir);
    return true;
  }
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd)) {
    sb_addf(log, "spvi: error: -I %s: cannot resolve a relative directory: %s\n", dir, errstr(errno));
    return false;
  }
  av_addf(&o->clang, "%s/%s", cwd, dir);
  return true;
}

static bool add_define(copts *o, const char *def, sbuf *log) {
  if (!*def || *def == '=') {
    bad_option(log, "-D", "the macro name is missing");
    return false;
  }
  av_add(&o->clang, "-D");
  av_add(&o->clang, def);
  return true;
}

/* Parses compile (link == false) or link options. Returns CLC_OK or CLC_INVALID_OPTIONS. */
static int parse_options(const char *options, bool link, copts *o, sbuf *log) {
  avec w = {0};
  int rc = CLC_OK;
  o->cl_std = 120; /* no -cl-std: the highest OpenCL C 1.x version (API spec 5.8.6.5) */
  if (!tokenize(options, &w, log)) {
    av_free(&w);
    return CLC_INVALID_OPTIONS;
  }
  for (size_t i = 0; i < w.n && rc == CLC_OK; i++) {
    const char *t = w.v[i];
    const char *next = i + 1 < w.n ? w.v[i + 1] : NULL;
    if (strcmp(t, "-cl-denorms-are-zero") == 0) {
      o->denorms_zero = true;
    } else if (strcmp(t, "-cl-fast-relaxed-math") == 0) {
      o->fast_relaxed = true;
    } else if (strcmp(t, "-cl-no-signed-zeros") == 0 || strcmp(t, "-cl-unsafe-math-optimizations") == 0 ||
               strcmp(t, "-cl-finite-math-only") == 0 || strcmp(t, "-cl-no-subgroup-ifp") == 0) {
      /* valid for both compiles and links; nothing to do (see math_options) */
    } else if (link) {
      if (strcmp(t, "-create-library") == 0) o->create_library = true;
      else if (strcmp(t, "-enable-link-options") == 0) o->enable_link_options = true;
      else {
        bad_option(log, t,
                   is_one_of(t, math_options, sizeof math_options / sizeof *math_options) ? "not a link option"
                                                                                          : "unknown link option");
        rc = CLC_INVALID_OPTIONS;
      }
    } else if (strcmp(t, "-D") == 0) {
      if (!next) {
        bad_option(log, t, "the macro name is missing");
        rc = CLC_INVALID_OPTIONS;
      } else if (!add_define(o, next, log)) rc = CLC_INVALID_OPTIONS;
      i++;
    } else if (strncmp(t, "-D", 2) == 0) {
      if (!add_define(o, t + 2, log)) rc = CLC_INVALID_OPTIONS;
    } else if (strcmp(t, "-I") == 0) {
      if (!next) {
        bad_option(log, t, "the directory name is missing");
        rc = CLC_INVALID_OPTIONS;
      } else if (!add_include_dir(o, next, log)) rc = CLC_INVALID_OPTIONS;
      i++;
    } else if (strncmp(t, "-I", 2) == 0) {
      if (!add_include_dir(o, t + 2, log)) rc = CLC_INVALID_OPTIONS;
    } else if (strncmp(t, "-cl-std=", 8) == 0) {
      static const struct {
        const char *name;
        int v;
      } stds[] = {{"CL1.0", 100}, {"CL1.1", 110}, {"CL1.2", 120}, {"CL2.0", 200}, {"CL3.0", 300}};
      int v = 0;
      for (size_t k = 0; k < sizeof stds / sizeof *stds; k++)
        if (strcmp(t + 8, stds[k].name) == 0) v = stds[k].v;
      if (!v) {
        bad_option(log, t, "the versions are CL1.0, CL1.1, CL1.2, CL2.0 and CL3.0");
        rc = CLC_INVALID_OPTIONS;
      }
      o->cl_std = v;
      o->cl_std_given = true;
    } else if (strcmp(t, "-cl-opt-disable") == 0) {
      o->opt_disable = true;
    } else if (strcmp(t, "-cl-kernel-arg-info") == 0) {
      o->arg_info = true;
    } else if (strcmp(t, "-cl-uniform-work-group-size") == 0) {
      o->uniform_wg = true;
    } else if (is_one_of(t, math_options, sizeof math_options / sizeof *math_options) ||
               strcmp(t, "-cl-strict-aliasing") == 0) {
      /* accepted (see math_options); -cl-strict-aliasing: deprecated since OpenCL 1.1, no-op */
    } else if (strcmp(t, "-g") == 0 || strcmp(t, "-w") == 0 || strcmp(t, "-Werror") == 0) {
      av_add(&o->clang, t);
    } else if (strcmp(t, "-x") == 0 || strncmp(t, "-spir-std=", 10) == 0) {
      char both[64];
      snprintf(both, sizeof both, "%s%s%.32s", t, next && t[1] == 'x' ? " " : "", next && t[1] == 'x' ? next : "");
      bad_option(log, both, "SPIR 1.2 binaries are not supported, and source is OpenCL C");
      rc = CLC_INVALID_OPTIONS;
    } else if (strcmp(t, "-create-library") == 0 || strcmp(t, "-enable-link-options") == 0) {
      bad_option(log, t, "a link option (clLinkProgram), not a compile option");
      rc = CLC_INVALID_OPTIONS;
    } else {
      bad_option(log, t, "unknown option");
      rc = CLC_INVALID_OPTIONS;
    }
  }
  if (rc == CLC_OK && link && o->enable_link_options && !o->create_library) {
    bad_option(log, "-enable-link-options", "it needs -create-library");
    rc = CLC_INVALID_OPTIONS;
  }
  if (w.oom || o->clang.oom) {
    sb_add(log, "spvi: error: out of memory\n");
    rc = CLC_FAILED;
  }
  av_free(&w);
  return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Temporary directory and files                                                                */
/* ------------------------------------------------------------------------------------------ */

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)ftw;
  if (flag == FTW_DP || flag == FTW_D) rmdir(path);
  else unlink(path);
  return 0;
}

static void rm_tree(const char *dir) { nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

/* mkdtemp under $TMPDIR (or /tmp); returns false with a message in log. */
static bool make_tmpdir(char *dir, size_t cap, sbuf *log) {
  const char *base = getenv("TMPDIR");
  if (!base || !*base) base = "/tmp";
  if ((size_t)snprintf(dir, cap, "%s/spvi-clc-XXXXXX", base) >= cap) {
    sb_add(log, "spvi: error: TMPDIR is too long\n");
    return false;
  }
  if (!mkdtemp(dir)) {
    sb_addf(log, "spvi: error: cannot create a temporary directory in %s: %s\n", base, errstr(errno));
    return false;
  }
  return true;
}

static bool write_file(const char *path, const void *data, size_t len, sbuf *log) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    sb_addf(log, "spvi: error: cannot write %s: %s\n", path, errstr(errno));
    return false;
  }
  const char *p = data;
  while (len) {
    ssize_t k = write(fd, p, len);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) {
      sb_addf(log, "spvi: error: cannot write %s: %s\n", path, errstr(errno));
      close(fd);
      return false;
    }
    p += k;
    len -= (size_t)k;
  }
  if (close(fd) != 0) {
    sb_addf(log, "spvi: error: cannot write %s: %s\n", path, errstr(errno));
    return false;
  }
  return true;
}


/* A header name must stay inside the private directory: relative, no "..", no empty name. */
static bool header_name_ok(const char *name) {
  if (!name || !*name || name[0] == '/') return false;
  const char *p = name;
  while (*p) {
    const char *e = strchr(p, '/');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == 2 && p[0] == '.' && p[1] == '.') return false;
    if (!e) return len > 0;
    p = e + 1;
  }
  return false; /* ends with '/' */
}

/* Creates the directories of `rel` (a header name) under `dir`. */
static bool make_parent_dirs(const char *dir, const char *rel, sbuf *log) {
  char path[PATH_MAX];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, rel) >= sizeof path) {
    sb_addf(log, "spvi: error: header name `%s` is too long\n", rel);
    return false;
  }
  for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')) != NULL; p++) {
    *p = 0;
    if (mkdir(path, 0700) != 0 && errno != EEXIST) {
      sb_addf(log, "spvi: error: cannot create %s: %s\n", path, errstr(errno));
      return false;
    }
    *p = '/';
  }
  return true;
}

/* ------------------------------------------------------------------------------------------ */
/* Running the tools                                                                            */
/* ------------------------------------------------------------------------------------------ */

enum { T_CLANG, T_OPT, T_LLVM_SPIRV, T_SPIRV_LINK, T_COUNT };

/* Resolves a tool: $SPVI_LLVM_BIN/NAME, /usr/lib/llvm-14/bin/NAME, then NAME-14 on the PATH
 * (Debian installs llvm-spirv only as /usr/bin/llvm-spirv-14). spirv-link: $SPVI_SPIRV_LINK or
 * spirv-link on the PATH. */
static void tool_path(int tool, char *buf, size_t cap) {
  static const char *const names[T_COUNT] = {"clang", "opt", "llvm-spirv", "spirv-link"};
  if (tool == T_SPIRV_LINK) {
    const char *e = getenv("SPVI_SPIRV_LINK");
    snprintf(buf, cap, "%s", e && *e ? e : "spirv-link");
    return;
  }
  const char *bin = getenv("SPVI_LLVM_BIN");
  if (bin && *bin) {
    snprintf(buf, cap, "%s/%s", bin, names[tool]);
    if (access(buf, X_OK) == 0) return;
    snprintf(buf, cap, "%s/%s-14", bin, names[tool]);
    if (access(buf, X_OK) == 0) return;
  }
  snprintf(buf, cap, "/usr/lib/llvm-14/bin/%s", names[tool]);
  if (access(buf, X_OK) == 0) return;
  snprintf(buf, cap, "%s-14", names[tool]);
}

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Runs argv (argv[0] a path or a PATH name) with stdin from /dev/null and stdout+stderr into
 * out_path, in directory cwd (NULL: ours). Returns the exit status (0..255), or -1 when it
 * could not be started, was killed by a signal or timed out: `why` then says which. */
static int run_tool(char *const argv[], const char *cwd, const char *out_path, char *why, size_t why_cap) {
  why[0] = 0;
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  if (posix_spawn_file_actions_init(&fa) != 0) {
    snprintf(why, why_cap, "cannot start %s: out of memory", argv[0]);
    return -1;
  }
  if (posix_spawnattr_init(&at) != 0) {
    posix_spawn_file_actions_destroy(&fa);
    snprintf(why, why_cap, "cannot start %s: out of memory", argv[0]);
    return -1;
  }
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  if (cwd) posix_spawn_file_actions_addchdir_np(&fa, cwd);
  /* The application's signal mask and ignored signals must not leak into the compiler (an
   * ignored SIGSEGV or a blocked SIGTERM would change how it crashes or stops). */
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  sigdelset(&all, SIGKILL);
  sigdelset(&all, SIGSTOP);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setsigdefault(&at, &all);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid;
  int err = argv[0][0] == '/' ? posix_spawn(&pid, argv[0], &fa, &at, argv, environ)
                              : posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  if (err != 0) {
    snprintf(why, why_cap, "cannot run %s: %s", argv[0], errstr(err));
    return -1;
  }
  /* Wait with a deadline, without signals (SIGALRM/SIGCHLD handlers belong to the
   * application): poll() on a pidfd wakes up exactly when the child ends (Linux 5.3); where there
   * is none, poll waitpid with a short growing sleep. */
  double limit = 600;
  const char *e = getenv("SPVI_COMPILE_TIMEOUT");
  if (e && atof(e) > 0) limit = atof(e);
  double deadline = now_seconds() + limit;
  int status = 0;
  bool timed_out = false;
  int pfd = -1;
#ifdef SYS_pidfd_open
  pfd = (int)syscall(SYS_pidfd_open, pid, 0);
#endif
  if (pfd >= 0) {
    for (;;) {
      double left = deadline - now_seconds();
      if (left <= 0) {
        timed_out = true;
        break;
      }
      struct pollfd p = {.fd = pfd, .events = POLLIN};
      int r = poll(&p, 1, left > 1e6 ? 1000000000 : (int)(left * 1000) + 1);
      if (r > 0) break;
      if (r < 0 && errno != EINTR) break; /* cannot wait this way: fall through to a blocking waitpid */
    }
    close(pfd);
  } else {
    long nap = 100000; /* 0.1 ms, doubling up to 5 ms */
    for (;;) {
      pid_t r = waitpid(pid, &status, WNOHANG);
      if (r == pid) goto reaped;
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) return 0; /* ECHILD: see below */
      if (now_seconds() > deadline) {
        timed_out = true;
        break;
      }
      struct timespec ts = {0, nap};
      nanosleep(&ts, NULL);
      if (nap < 5000000) nap *= 2;
    }
  }
  if (timed_out) {
    kill(pid, SIGKILL);
    snprintf(why, why_cap, "%s did not finish within %g s (SPVI_COMPILE_TIMEOUT) and was killed", argv[0], limit);
  }
  for (;;) {
    pid_t r = waitpid(pid, &status, 0);
    if (r == pid) break;
    if (r < 0 && errno == EINTR) continue;
    /* ECHILD: the application set SIGCHLD to SIG_IGN and the child was reaped for us. The
     * caller checks the output file, so call it a success here. */
    return timed_out ? -1 : 0;
  }
  if (timed_out) return -1;
reaped:
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) {
    snprintf(why, why_cap, "%s crashed (signal %d, %s)", argv[0], WTERMSIG(status), sigstr(WTERMSIG(status)));
    return -1;
  }
  snprintf(why, why_cap, "%s stopped abnormally", argv[0]);
  return -1;
}

typedef struct {
  char dir[1024]; /* the private directory; its files are dir/NAME */
  char src[1100]; /* dir/src: the source, the headers, clang's working directory */
  sbuf *log;
} job;

/* dir/name into buf. */
static const char *jpath(const job *j, const char *name, char *buf, size_t cap) {
  snprintf(buf, cap, "%s/%s", j->dir, name);
  return buf;
}

/* A tool's output as it goes into a build log: without the crash report of LLVM tools (the
 * "PLEASE submit a bug report" banner, the stack dump, the program arguments: noise for the
 * user, and full of private paths) and with the private directory removed from paths, so
 * messages name input.cl and the headers as the application gave them. */
static void filter_tool_output(const job *j, const char *raw, sbuf *b) {
  size_t dlen = strlen(j->dir);
  bool in_dump = false;
  for (const char *p = raw; *p;) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p + 1) : strlen(p);
    const char *q = p;
    while (*q == ' ') q++;
    bool drop = false;
    if (strncmp(p, "PLEASE submit a bug report", 26) == 0 || strncmp(p, "Stack dump:", 11) == 0) {
      drop = in_dump = true;
    } else if (in_dump && ((q[0] == '#' && q[1] >= '0' && q[1] <= '9') ||
                           (*q >= '0' && *q <= '9' && q[strspn(q, "0123456789")] == '.'))) {
      drop = true; /* " #3 0x... frame" or "1.\tRunning pass ..." */
    } else {
      in_dump = false;
    }
    if (!drop) {
      /* remove "<dir>/src/" and "<dir>/" */
      const char *s = p, *end = p + len;
      while (s < end) {
        const char *m = dlen ? memmem(s, (size_t)(end - s), j->dir, dlen) : NULL;
        if (!m) {
          sb_addn(b, s, (size_t)(end - s));
          break;
        }
        sb_addn(b, s, (size_t)(m - s));
        s = m + dlen;
        if (strncmp(s, "/src/", 5) == 0) s += 5;
        else if (*s == '/') s++;
      }
    }
    p += len;
  }
  if (b->n && b->p[b->n - 1] != '\n') sb_add(b, "\n");
}

/* Runs a tool; appends its output to the log when `keep_output` (clang's diagnostics) or when it
 * fails (then prefixed with what failed). Returns true on exit status 0 and an existing
 * `product` file (NULL: no check). `what` names the step for messages. */
static bool run_step(job *j, avec *argv, const char *cwd, const char *product, bool keep_output, const char *what,
                     sbuf *fail_log) {
  char out[PATH_MAX], why[PATH_MAX + 128];
  jpath(j, "tool-output.txt", out, sizeof out);
  if (argv->oom) {
    sb_add(fail_log, "spvi: error: out of memory\n");
    return false;
  }
  int rc = run_tool(argv->v, cwd, out, why, sizeof why);
  char *raw = clcache_read_file(out, NULL);
  unlink(out);
  sbuf text = {0};
  if (raw) filter_tool_output(j, raw, &text);
  free(raw);
  bool ok = rc == 0 && (!product || access(product, R_OK) == 0);
  if (keep_output && text.p) sb_add(j->log, text.p);
  if (!ok) {
    if (!keep_output && text.p && *text.p) {
      if (strncmp(text.p, what, strlen(what)) != 0) /* LLVM tools name themselves */
        sb_addf(fail_log, "%s: ", what);
      sb_add(fail_log, text.p);
    }
    if (why[0]) sb_addf(fail_log, "spvi: error: %s\n", why);
    else if (rc == 127 && !(text.p && *text.p))
      /* where posix_spawn cannot report exec failures (emulated vfork, e.g. under valgrind),
       * the child exits with 127, the shell's "command not found" */
      sb_addf(fail_log, "spvi: error: cannot run %s (exit status 127: not found?)\n", argv->v[0]);
    else if (rc > 0) sb_addf(fail_log, "spvi: error: %s failed (exit status %d)\n", what, rc);
    else if (rc == 0) sb_addf(fail_log, "spvi: error: %s produced no output\n", what);
  }
  free(text.p);
  return ok;
}

/* ------------------------------------------------------------------------------------------ */
/* Source compilation                                                                           */
/* ------------------------------------------------------------------------------------------ */

/* The extensions and feature macros the device advertises (clc_features.h). */
#define CLC_NAME(name, major, minor, patch) #name,
static const char *const device_extensions[] = {CLF_EXTENSIONS(CLC_NAME)};
static const char *const device_features[] = {CLF_C_FEATURES(CLC_NAME)};
#undef CLC_NAME
#define NUM(a) (sizeof(a) / sizeof *(a))
/* optimisation levels tried before the unoptimised module (pipeline_for_level) */
#define CLC_LEVELS 3

/* Every extension and feature macro that clang-14 or its opencl-c.h / opencl-c-base.h can define
 * for the spir64 target (found with -dM for CL1.0 ... CL3.0). Those that the device does not
 * advertise are #undef'd after the default header, so that `#ifdef` in a kernel sees exactly
 * clc_features.h. */
static const char *const clang_known_macros[] = {
  "cl_amd_media_ops",
  "cl_amd_media_ops2",
  "cl_arm_integer_dot_product_accumulate_int16",
  "cl_arm_integer_dot_product_accumulate_int8",
  "cl_arm_integer_dot_product_accumulate_saturate_int8",
  "cl_arm_integer_dot_product_int8",
  "cl_clang_storage_class_specifiers",
  "cl_ext_float_atomics",
  "cl_intel_device_side_avc_motion_estimation",
  "cl_intel_planar_yuv",
  "cl_intel_subgroups",
  "cl_intel_subgroups_short",
  "cl_khr_3d_image_writes",
  "cl_khr_byte_addressable_store",
  "cl_khr_depth_images",
  "cl_khr_extended_bit_ops",
  "cl_khr_fp16",
  "cl_khr_fp64",
  "cl_khr_gl_msaa_sharing",
  "cl_khr_gl_sharing",
  "cl_khr_global_int32_base_atomics",
  "cl_khr_global_int32_extended_atomics",
  "cl_khr_int64_base_atomics",
  "cl_khr_int64_extended_atomics",
  "cl_khr_integer_dot_product",
  "cl_khr_local_int32_base_atomics",
  "cl_khr_local_int32_extended_atomics",
  "cl_khr_mipmap_image",
  "cl_khr_mipmap_image_writes",
  "cl_khr_srgb_image_writes",
  "cl_khr_subgroup_ballot",
  "cl_khr_subgroup_clustered_reduce",
  "cl_khr_subgroup_extended_types",
  "cl_khr_subgroup_non_uniform_arithmetic",
  "cl_khr_subgroup_non_uniform_vote",
  "cl_khr_subgroup_shuffle",
  "cl_khr_subgroup_shuffle_relative",
  "cl_khr_subgroups",
  "__opencl_c_3d_image_writes",
  "__opencl_c_atomic_order_acq_rel",
  "__opencl_c_atomic_order_seq_cst",
  "__opencl_c_atomic_scope_all_devices",
  "__opencl_c_atomic_scope_device",
  "__opencl_c_device_enqueue",
  "__opencl_c_ext_fp16_global_atomic_add",
  "__opencl_c_ext_fp16_global_atomic_load_store",
  "__opencl_c_ext_fp16_global_atomic_min_max",
  "__opencl_c_ext_fp16_local_atomic_add",
  "__opencl_c_ext_fp16_local_atomic_load_store",
  "__opencl_c_ext_fp16_local_atomic_min_max",
  "__opencl_c_ext_fp32_global_atomic_add",
  "__opencl_c_ext_fp32_global_atomic_min_max",
  "__opencl_c_ext_fp32_local_atomic_add",
  "__opencl_c_ext_fp32_local_atomic_min_max",
  "__opencl_c_ext_fp64_global_atomic_add",
  "__opencl_c_ext_fp64_global_atomic_min_max",
  "__opencl_c_ext_fp64_local_atomic_add",
  "__opencl_c_ext_fp64_local_atomic_min_max",
  "__opencl_c_fp64",
  "__opencl_c_generic_address_space",
  "__opencl_c_images",
  "__opencl_c_int64",
  "__opencl_c_integer_dot_product_input_4x8bit",
  "__opencl_c_integer_dot_product_input_4x8bit_packed",
  "__opencl_c_pipes",
  "__opencl_c_program_scope_global_variables",
  "__opencl_c_read_write_images",
  "__opencl_c_subgroups",
  "__opencl_c_work_group_collective_functions",
};

/* The prelude, included after clang's default header: removes what the device does not
 * advertise. (What it does advertise is defined on the command line, before the default
 * header, because the header declares the built-in functions of an extension or feature only
 * when its macro is already defined.) */
/* Did the user define macro m with -D (then it is theirs to keep)? */
static bool user_defined(const avec *user, const char *m) {
  size_t len = strlen(m);
  for (size_t i = 0; i + 1 < user->n; i++)
    if (strcmp(user->v[i], "-D") == 0 && strncmp(user->v[i + 1], m, len) == 0 &&
        (user->v[i + 1][len] == 0 || user->v[i + 1][len] == '='))
      return true;
  return false;
}

static void make_prelude(sbuf *b, int cl_std, const avec *user) {
  sb_add(b, "/* spvi: the extension and feature macros of the device (clc_features.h) */\n");
  for (size_t i = 0; i < NUM(clang_known_macros); i++) {
    const char *m = clang_known_macros[i];
    if (user_defined(user, m)) continue;
    bool advertised = is_one_of(m, device_extensions, NUM(device_extensions)) ||
                      (cl_std >= 200 && is_one_of(m, device_features, NUM(device_features)));
    /* OpenCL C 1.x has no feature macros, except __opencl_c_int64 that clang-14 defines for
     * every version and the device supports */
    if (cl_std < 200 && strcmp(m, "__opencl_c_int64") == 0) advertised = true;
    if (!advertised) sb_addf(b, "#undef %s\n", m);
  }
  if (cl_std >= 200)
    for (size_t i = 0; i < NUM(device_features); i++)
      sb_addf(b, "#ifndef %s\n#define %s 1\n#endif\n", device_features[i], device_features[i]);
}

/* spvi's optimisation pipeline: LLVM 14's default<O2> as printed by -print-pipeline-passes,
 * minus the loop and SLP vectorizers (their llvm.vector.reduce.* intrinsics are unknown to
 * llvm-spirv-14, and spvi gains nothing from wider vectors), with switch-to-lookup-table off
 * (its bitmaps are integers of odd widths), and without the coroutine, OpenMP and profile
 * passes that OpenCL C never needs. No SimplifyCFG hoists or sinks common instructions: it merges
 * identical calls from the two arms of a branch, and LLVM 14's `convergent` allows that, but a
 * sub-group built-in (sub_group_broadcast_first, OpenCL C 3.0 §6.15.19 cl_khr_subgroup_ballot)
 * then runs with every work-item of both arms active, and clustered reductions of a switch get a
 * phi as their cluster size, which SPIR-V requires to be a constant. (No other pass of the
 * pipeline moves calls between arms: mldst-motion merges loads and stores only, and gvn-hoist is
 * not in it.) */
static const char optimisation_pipeline[] =
  "forceattrs,inferattrs,"
  "function<eager-inv>(lower-expect,simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;"
  "no-switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;"
  "no-sink-common-insts>,sroa,early-cse<>),"
  "ipsccp,called-value-propagation,globalopt,function(mem2reg),deadargelim,"
  "function<eager-inv>(instcombine,simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;"
  "switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;"
  "no-sink-common-insts>),"
  "require<globals-aa>,function(invalidate<aa>),"
  "cgscc(devirt<4>(inline<only-mandatory>,inline,function-attrs,"
  "function<eager-inv>(sroa,early-cse<memssa>,speculative-execution,jump-threading,"
  "correlated-propagation,simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;"
  "switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;"
  "no-sink-common-insts>,instcombine,libcalls-shrinkwrap,tailcallelim,"
  "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;"
  "no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts>,reassociate,"
  "require<opt-remark-emit>,loop-mssa(loop-instsimplify,loop-simplifycfg,licm,loop-rotate,"
  "licm,simple-loop-unswitch<no-nontrivial;trivial>),"
  "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;"
  "no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts>,instcombine,"
  "loop(loop-idiom,indvars,loop-deletion,loop-unroll-full),sroa,"
  "mldst-motion<no-split-footer-bb>,gvn<>,sccp,bdce,instcombine,jump-threading,"
  "correlated-propagation,adce,memcpyopt,dse,loop-mssa(licm),"
  "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;"
  "no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts>,instcombine))),"
  "globalopt,globaldce,elim-avail-extern,rpo-function-attrs,require<globals-aa>,"
  "function<eager-inv>(float2int,lower-constant-intrinsics,loop(loop-rotate,loop-deletion),"
  "loop-distribute,loop-load-elim,instcombine,"
  "simplifycfg<bonus-inst-threshold=1;forward-switch-cond;switch-range-to-icmp;"
  "no-switch-to-lookup;no-keep-loops;no-hoist-common-insts;no-sink-common-insts>,"
  "vector-combine,instcombine,loop-unroll<O2>,transform-warning,instcombine,"
  "require<opt-remark-emit>,loop-mssa(licm),alignment-from-assumptions,loop-sink,instsimplify,"
  "div-rem-pairs,simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;"
  "switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;"
  "no-sink-common-insts>),"
  "globaldce,constmerge";

/* clang's spir64 data layout plus "n8:16:32:64": with no native integer widths declared,
 * InstCombine narrows switch conditions and arithmetic to any width (i3, i24, i63), which SPIR-V
 * cannot express; with them, it keeps to i8/i16/i32/i64. The translator ignores the layout. */
static const char data_layout[] = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-"
                                  "v256:256-v512:512-v1024:1024-n8:16:32:64";

/* Work-item functions outside dimensions 0..2: OpenCL C defines get_global_id(3) as 0 and
 * get_global_size(3) as 1, but llvm-spirv-14 reads them from the 3-component built-in variables:
 * with a constant dimension >= 3 (loop unrolling makes them) it emits an out-of-range
 * OpCompositeExtract, which is invalid SPIR-V, and with a variable dimension an
 * OpVectorExtractDynamic whose out-of-range result SPIR-V leaves undefined. So a constant
 * dimension >= 3 becomes the constant, and a variable one goes through a helper that checks the
 * range (constant dimensions 0..2 stay as they are). */
static const struct {
  const char *mangled; /* "@NAME(" */
  int value;           /* outside 0..2 */
} workitem_functions[] = {
  {"@_Z13get_global_idj(", 0},   {"@_Z12get_local_idj(", 0},
  {"@_Z12get_group_idj(", 0},    {"@_Z17get_global_offsetj(", 0},
  {"@_Z15get_global_sizej(", 1}, {"@_Z14get_local_sizej(", 1},
  {"@_Z14get_num_groupsj(", 1},  {"@_Z23get_enqueued_local_sizej(", 1},
};

/* Is the instruction text `ins` (one line, without its result "%x = ") a call of a work-item
 * function? Returns its index in workitem_functions (-1: no) and sets *type to the result type
 * (i64 or i32, size_t of spir64 / spir), *name to the "@NAME(" in the line, and *dim to the
 * constant dimension (-1 when it is not a constant). */
static int workitem_call(const char *ins, const char *end, const char **type, const char **name, long *dim) {
  if (!memmem(ins, (size_t)(end - ins), "call ", 5)) return -1;
  for (size_t i = 0; i < NUM(workitem_functions); i++) {
    const char *f = memmem(ins, (size_t)(end - ins), workitem_functions[i].mangled,
                           strlen(workitem_functions[i].mangled));
    if (!f) continue;
    const char *a = f + strlen(workitem_functions[i].mangled);
    if (strncmp(a, "i32 ", 4) != 0) return -1;
    a += 4;
    if (strncmp(a, "noundef ", 8) == 0) a += 8;
    char *e;
    *dim = strtol(a, &e, 10);
    if (e == a || *e != ')') *dim = -1;
    else if (*dim < 0) *dim = 3; /* out of range too (as an unsigned dimension) */
    *type = memmem(ins, (size_t)(f - ins), " i64 ", 5) ? "i64" : "i32";
    *name = f;
    return (int)i;
  }
  return -1;
}

/* The range-checking helper of workitem_functions[i], for calls with a variable dimension. */
static void emit_workitem_helper(sbuf *b, size_t i, const char *type) {
  const char *m = workitem_functions[i].mangled + 1;
  size_t len = strlen(m) - 1; /* without '(' */
  sb_addf(b,
          "define internal spir_func %s @spvi.%.*s(i32 %%d) alwaysinline {\n"
          "  %%in = icmp ult i32 %%d, 3\n"
          "  %%dd = select i1 %%in, i32 %%d, i32 0\n"
          "  %%v = call spir_func %s @%.*s(i32 %%dd)\n"
          "  %%r = select i1 %%in, %s %%v, %s %d\n"
          "  ret %s %%r\n"
          "}\n",
          type, (int)len, m, type, (int)len, m, type, type, workitem_functions[i].value, type);
}

/* LLVM intrinsics that InstCombine forms from ordinary integer code (saturating arithmetic,
 * overflow checks) but llvm-spirv-14 refuses ("Unexpected llvm intrinsic") or crashes on
 * (llvm.usub.sat of vectors). Each is replaced by a helper function with the same semantics in
 * plain LLVM IR (the LangRef's definitions), inlined back by the always-inline pass. `body` is
 * the helper's body: T is the operand type, C the matching i1 type, %a and %b the operands. */
static const struct {
  const char *name; /* "@llvm." NAME "." TYPE-SUFFIX "(" */
  bool overflow;    /* returns { T, C } */
  const char *body;
} lowered_intrinsics[] = {
  {"uadd.sat", false,
   "  %s = add T %a, %b\n  %c = icmp ult T %s, %a\n  %t = icmp eq T %a, %a\n"
   "  %ones = sext C %t to T\n  %r = select C %c, T %ones, T %s\n  ret T %r\n"},
  {"usub.sat", false,
   "  %d = sub T %a, %b\n  %c = icmp ult T %a, %b\n"
   "  %r = select C %c, T zeroinitializer, T %d\n  ret T %r\n"},
  {"sadd.sat", false,
   "  %s = add T %a, %b\n  %x1 = xor T %s, %a\n  %x2 = xor T %s, %b\n  %x = and T %x1, %x2\n"
   "  %ov = icmp slt T %x, zeroinitializer\n  %t = icmp eq T %a, %a\n"
   "  %ones = sext C %t to T\n  %one = zext C %t to T\n  %max = lshr T %ones, %one\n"
   "  %min = xor T %max, %ones\n  %neg = icmp slt T %a, zeroinitializer\n"
   "  %sat = select C %neg, T %min, T %max\n  %r = select C %ov, T %sat, T %s\n  ret T %r\n"},
  {"ssub.sat", false,
   "  %d = sub T %a, %b\n  %x1 = xor T %a, %b\n  %x2 = xor T %a, %d\n  %x = and T %x1, %x2\n"
   "  %ov = icmp slt T %x, zeroinitializer\n  %t = icmp eq T %a, %a\n"
   "  %ones = sext C %t to T\n  %one = zext C %t to T\n  %max = lshr T %ones, %one\n"
   "  %min = xor T %max, %ones\n  %neg = icmp slt T %a, zeroinitializer\n"
   "  %sat = select C %neg, T %min, T %max\n  %r = select C %ov, T %sat, T %d\n  ret T %r\n"},
  {"uadd.with.overflow", true, "  %v = add T %a, %b\n  %c = icmp ult T %v, %a\n"},
  {"usub.with.overflow", true, "  %v = sub T %a, %b\n  %c = icmp ult T %a, %b\n"},
  {"sadd.with.overflow", true,
   "  %v = add T %a, %b\n  %x1 = xor T %v, %a\n  %x2 = xor T %v, %b\n  %x = and T %x1, %x2\n"
   "  %c = icmp slt T %x, zeroinitializer\n"},
  {"ssub.with.overflow", true,
   "  %v = sub T %a, %b\n  %x1 = xor T %a, %b\n  %x2 = xor T %a, %v\n  %x = and T %x1, %x2\n"
   "  %c = icmp slt T %x, zeroinitializer\n"},
};

typedef struct {
  char name[96]; /* "llvm.uadd.sat.v4i32" */
  int which;     /* index in lowered_intrinsics */
  char t[48], c[48];
} lowered_decl;

/* If `line` declares one of lowered_intrinsics, fills d. The type comes from the name's suffix:
 * ".i32" -> i32 / i1, ".v4i32" -> <4 x i32> / <4 x i1>. */
static bool parse_lowered_decl(const char *line, const char *end, lowered_decl *d) {
  if (strncmp(line, "declare ", 8) != 0) return false;
  const char *at = memmem(line, (size_t)(end - line), " @llvm.", 7);
  if (!at) return false;
  const char *name = at + 2, *paren = memchr(name, '(', (size_t)(end - name));
  if (!paren || (size_t)(paren - name) >= sizeof d->name) return false;
  for (size_t i = 0; i < NUM(lowered_intrinsics); i++) {
    size_t n = strlen(lowered_intrinsics[i].name);
    if (strncmp(name + 5, lowered_intrinsics[i].name, n) != 0 || name[5 + n] != '.') continue;
    const char *sfx = name + 5 + n + 1;
    size_t slen = (size_t)(paren - sfx);
    char s[32];
    if (slen == 0 || slen >= sizeof s) return false;
    memcpy(s, sfx, slen);
    s[slen] = 0;
    unsigned count = 0;
    char elem[16];
    if (s[0] == 'v' && sscanf(s, "v%u%15s", &count, elem) == 2 && count > 0 && elem[0] == 'i') {
      snprintf(d->t, sizeof d->t, "<%u x %s>", count, elem);
      snprintf(d->c, sizeof d->c, "<%u x i1>", count);
    } else if (s[0] == 'i' && strspn(s + 1, "0123456789") == slen - 1) {
      snprintf(d->t, sizeof d->t, "%s", s);
      snprintf(d->c, sizeof d->c, "i1");
    } else {
      return false;
    }
    memcpy(d->name, name, (size_t)(paren - name));
    d->name[paren - name] = 0;
    d->which = (int)i;
    return true;
  }
  return false;
}

/* The helper's definition: the body with T and C substituted. */
static void emit_lowered_definition(sbuf *b, const lowered_decl *d) {
  const char *body = lowered_intrinsics[d->which].body;
  bool ov = lowered_intrinsics[d->which].overflow;
  if (ov)
    sb_addf(b, "define internal { %s, %s } @spvi.%s(%s %%a, %s %%b) alwaysinline {\n", d->t, d->c, d->name + 5, d->t,
            d->t);
  else sb_addf(b, "define internal %s @spvi.%s(%s %%a, %s %%b) alwaysinline {\n", d->t, d->name + 5, d->t, d->t);
  for (const char *p = body; *p; p++) {
    /* T and C stand alone (after a space, before a space or a comma) */
    if ((*p == 'T' || *p == 'C') && p > body && p[-1] == ' ' && (p[1] == ' ' || p[1] == ',' || p[1] == '\n'))
      sb_add(b, *p == 'T' ? d->t : d->c);
    else sb_addn(b, p, 1);
  }
  if (ov)
    sb_addf(b,
            "  %%r0 = insertvalue { %s, %s } undef, %s %%v, 0\n"
            "  %%r1 = insertvalue { %s, %s } %%r0, %s %%c, 1\n  ret { %s, %s } %%r1\n",
            d->t, d->c, d->t, d->t, d->c, d->c, d->t, d->c);
  sb_add(b, "}\n");
}

/* atomic_compare_exchange_{strong,weak}[_explicit] of atomic_float and atomic_double:
 * llvm-spirv-14 aborts on them (an assertion in OCLToSPIRV.cpp: SPIR-V 1.0's
 * OpAtomicCompareExchange takes integers). The declaration of such a built-in becomes a
 * definition that calls the atomic_int / atomic_long built-in on the same bits (a compare-
 * exchange compares bit patterns anyway, which is what OpenCL C specifies), inlined by the
 * always-inline pass. Writes the replacement of the declaration line [line, end) into b and
 * returns true, or returns false when the line is something else. */
static bool lower_float_cmpxchg_decl(const char *line, const char *end, const char *module, sbuf *b) {
  if (strncmp(line, "declare ", 8) != 0 || !memmem(line, (size_t)(end - line), "atomic_compare_exchange_", 24))
    return false;
  const char *at = memmem(line, (size_t)(end - line), " @_Z", 4);
  const char *paren = at ? memchr(at, '(', (size_t)(end - at)) : NULL;
  const char *close = NULL;
  if (paren) { /* the matching ')' (types contain parentheses: addrspace(4)) */
    int depth = 0;
    for (const char *c = paren; c < end && !close; c++)
      if (*c == '(') depth++;
      else if (*c == ')' && --depth == 0) close = c;
  }
  if (!close || (size_t)(paren - at) > 200) return false;
  char name[256], iname[256];
  size_t nlen = (size_t)(paren - at - 2);
  memcpy(name, at + 2, nlen);
  name[nlen] = 0;
  /* ..._Atomic<T>P[U3AS<n>]<T><T>... : the three type letters, f -> i or d -> l */
  char *s = strstr(name, "VU7_Atomic");
  if (!s || (s[10] != 'f' && s[10] != 'd')) return false;
  char fl = s[10], il = fl == 'f' ? 'i' : 'l';
  memcpy(iname, name, nlen + 1);
  char *t = iname + (s - name) + 10;
  *t++ = il;
  if (*t++ != 'P') return false;
  if (strncmp(t, "U3AS", 4) == 0) {
    t += 4;
    t += strspn(t, "0123456789");
  }
  if (t[0] != fl || t[1] != fl) return false;
  t[0] = t[1] = il;
  const char *ft = fl == 'f' ? "float" : "double", *it = fl == 'f' ? "i32" : "i64";
  /* the parameters: "T addrspace(N)* noundef, ..." */
  char params[8][64];
  int np = 0;
  for (const char *p = paren + 1; p < close && np < 8;) {
    const char *c = memchr(p, ',', (size_t)(close - p));
    const char *e = c ? c : close;
    size_t l = (size_t)(e - p);
    if (l >= sizeof params[0]) return false;
    memcpy(params[np], p, l);
    params[np][l] = 0;
    char *nu = strstr(params[np], " noundef"); /* parameter attributes are not types */
    if (nu) *nu = 0;
    np++;
    p = c ? c + 2 : close;
  }
  if (np < 3) return false;
  /* the definition, with the same name as the declaration so the calls stay as they are */
  sbuf call = {0};
  sb_addf(b, "define internal spir_func zeroext i1 @%s(", name);
  for (int i = 0; i < np; i++) sb_addf(b, "%s%s %%p%d", i ? ", " : "", params[i], i);
  sb_add(b, ") alwaysinline {\n");
  for (int i = 0; i < np; i++) {
    char ity[80];
    const char *f = strstr(params[i], ft);
    if (f == params[i]) { /* "float ..." -> "i32 ..." */
      snprintf(ity, sizeof ity, "%s%s", it, params[i] + strlen(ft));
      sb_addf(b, "  %%q%d = bitcast %s %%p%d to %s\n", i, params[i], i, ity);
      sb_addf(&call, "%s%s %%q%d", i ? ", " : "", ity, i);
    } else {
      sb_addf(&call, "%s%s %%p%d", i ? ", " : "", params[i], i);
    }
  }
  sb_addf(b, "  %%r = call spir_func zeroext i1 @%s(%s)\n  ret i1 %%r\n}\n", iname, call.p ? call.p : "");
  free(call.p);
  /* and the integer built-in, unless the module declares it already */
  char use[260];
  snprintf(use, sizeof use, "@%s(", iname);
  if (!strstr(module, use)) {
    sb_addf(b, "declare spir_func zeroext i1 @%s(", iname);
    for (int i = 0; i < np; i++) {
      const char *f = strstr(params[i], ft);
      if (f == params[i]) sb_addf(b, "%s%s%s", i ? ", " : "", it, params[i] + strlen(ft));
      else sb_addf(b, "%s%s", i ? ", " : "", params[i]);
    }
    sb_add(b, ")\n");
  }
  return true;
}

/* Rewrites the text of a module so that llvm-spirv-14 accepts it and spvi can load the result:
 *   %x = freeze T V          ->  %x = select i1 true, T V, T V
 *     `freeze` stops poison from propagating; SPIR-V has no poison (spvi gives every value a
 *     definite result), so the operand itself is a correct replacement;
 *   %x = call i64 @_Z13get_global_idj(i32 3)  ->  %x = select i1 true, i64 0, i64 0
 *   %x = call i64 @_Z13get_global_idj(i32 %d) ->  %x = call i64 @spvi._Z13get_global_idj(i32 %d)
 *     (see workitem_functions);
 *   declare i32 @llvm.uadd.sat.i32(i32, i32)  ->  define internal i32 @spvi.uadd.sat.i32(...)
 *     and every @llvm.uadd.sat.i32( becomes @spvi.uadd.sat.i32( (see lowered_intrinsics);
 *   declare ... @_Z39atomic_compare_exchange_strong_explicitPU3AS4VU7_AtomicfPU3AS4ff...  ->
 *     a definition through the atomic_int built-in (see lower_float_cmpxchg_decl).
 * The selects are folded away by the instsimplify run that parses the text back (in optnone
 * functions, at -cl-opt-disable, they stay: an OpSelect with a constant condition).
 * Returns the new text (malloc'd) or NULL when nothing needed to change (or *oom). */
static char *lower_ir_text(const char *ll, bool *oom) {
  if (!strstr(ll, " = freeze ") && !strstr(ll, "get_") && !strstr(ll, ".sat.") && !strstr(ll, ".with.overflow.") &&
      !strstr(ll, "atomic_compare_exchange_"))
    return NULL;
  /* the declarations of intrinsics to replace (all before their uses are rewritten) */
  lowered_decl decls[32];
  size_t ndecls = 0;
  for (const char *p = strstr(ll, "\ndeclare "); p && ndecls < NUM(decls); p = strstr(p + 1, "\ndeclare ")) {
    const char *eol = strchr(p + 1, '\n');
    if (parse_lowered_decl(p + 1, eol ? eol : p + strlen(p), &decls[ndecls])) ndecls++;
  }
  sbuf b = {0};
  bool changed = false;
  const char *helper_type[NUM(workitem_functions)] = {0}; /* helpers to define */
  const char *p = ll;
  while (*p) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p + 1) : strlen(p);
    const char *end = p + len;
    /* an instruction with a result: optional indent, %name = ... */
    const char *q = p, *eq = NULL;
    while (q < end && (*q == ' ' || *q == '\t')) q++;
    if (q < end && *q == '%') {
      eq = memmem(q, (size_t)(end - q), " = ", 3);
      if (eq && memchr(q, ' ', (size_t)(eq - q))) /* the name has no blank */
        eq = NULL;
    }
    const char *ins = eq ? eq + 3 : NULL;
    const char *type, *wname;
    long dim;
    int wi;
    if (ins && strncmp(ins, "freeze ", 7) == 0) {
      /* operand: to the end of the line or to the first ", !" (metadata attachments such as
       * !dbg; a first-class operand contains no '!') */
      const char *opnd = ins + 7, *oend = end;
      while (oend > opnd && (oend[-1] == '\n' || oend[-1] == '\r' || oend[-1] == ' ')) oend--;
      for (const char *s = opnd; s + 2 < oend; s++)
        if (s[0] == ',' && s[1] == ' ' && s[2] == '!') {
          oend = s;
          break;
        }
      sb_addn(&b, p, (size_t)(ins - p));
      sb_add(&b, "select i1 true, ");
      sb_addn(&b, opnd, (size_t)(oend - opnd));
      sb_add(&b, ", ");
      sb_addn(&b, opnd, (size_t)(oend - opnd));
      sb_addn(&b, oend, (size_t)(end - oend));
      changed = true;
    } else if (ins && (wi = workitem_call(ins, end, &type, &wname, &dim)) >= 0 && (dim < 0 || dim >= 3)) {
      if (dim >= 3) {
        /* drop the call (and its attributes and metadata): the value is a constant */
        sb_addn(&b, p, (size_t)(ins - p));
        sb_addf(&b, "select i1 true, %s %d, %s %d\n", type, workitem_functions[wi].value, type,
                workitem_functions[wi].value);
      } else {
        /* @NAME( -> @spvi.NAME( */
        sb_addn(&b, p, (size_t)(wname + 1 - p));
        sb_add(&b, "spvi.");
        sb_addn(&b, wname + 1, (size_t)(end - wname - 1));
        helper_type[wi] = type;
      }
      changed = true;
    } else if (lower_float_cmpxchg_decl(p, end, ll, &b)) {
      changed = true;
    } else if (ndecls && memmem(p, len, "@llvm.", 6)) {
      lowered_decl d;
      if (parse_lowered_decl(p, end, &d)) {
        emit_lowered_definition(&b, &d);
        changed = true;
      } else {
        /* uses: @llvm.NAME( -> @spvi.NAME( */
        const char *s = p;
        while (s < end) {
          const char *m = memmem(s, (size_t)(end - s), "@llvm.", 6);
          size_t k = ndecls, nlen = 0;
          if (m)
            for (k = 0; k < ndecls; k++) {
              nlen = strlen(decls[k].name);
              if ((size_t)(end - m) > nlen + 1 && strncmp(m + 1, decls[k].name, nlen) == 0 && m[1 + nlen] == '(') break;
            }
          if (!m) {
            sb_addn(&b, s, (size_t)(end - s));
            break;
          }
          sb_addn(&b, s, (size_t)(m - s));
          if (k < ndecls) {
            sb_addf(&b, "@spvi.%s", decls[k].name + 5);
            s = m + 1 + nlen;
            changed = true;
          } else {
            sb_addn(&b, m, 6);
            s = m + 6;
          }
        }
      }
    } else {
      sb_addn(&b, p, len);
    }
    p = end;
  }
  for (size_t i = 0; i < NUM(workitem_functions); i++)
    if (helper_type[i]) emit_workitem_helper(&b, i, helper_type[i]);
  if (b.oom) {
    *oom = true;
    free(b.p);
    return NULL;
  }
  if (!changed) {
    free(b.p);
    return NULL;
  }
  return b.p;
}

/* spvi's pipeline at a given level, malloc'd (NULL: out of memory):
 *   1  optimisation_pipeline;
 *   2  without GVN (early-cse instead): GVN forwards a load from a wider store through an
 *      integer of the store's size (`bitcast <8 x i16> to i128`, lshr, trunc), which SPIR-V
 *      cannot express;
 *   3  also without SROA (mem2reg instead): SROA widens unions and odd-sized structs into
 *      integers of their size (i24, i48, i128).
 * Each level is tried only when llvm-spirv-14 refused the previous one. */
static char *pipeline_for_level(int level) {
  sbuf b = {0};
  const char *p = optimisation_pipeline;
  while (*p) {
    if (level >= 2 && strncmp(p, "gvn<>", 5) == 0) {
      sb_add(&b, "early-cse<memssa>");
      p += 5;
    } else if (level >= 3 && strncmp(p, "sroa", 4) == 0) {
      sb_add(&b, "mem2reg");
      p += 4;
    } else {
      sb_addn(&b, p, 1);
      p++;
    }
  }
  return sb_take(&b);
}

/* One attempt at a module: dir/a.bc -> opt (the pipeline of `level`, 0: none) -> b.ll
 * -> lower_ir_text -> c.ll -> opt (instsimplify: parses it back) -> c.bc -> llvm-spirv-14
 * -> x.spv. Failures go to fail_log. */
static bool build_module(job *j, int level, sbuf *fail_log, bool *final) {
  char tool[PATH_MAX], a_bc[PATH_MAX], b_ll[PATH_MAX], c_ll[PATH_MAX], c_bc[PATH_MAX];
  char spv[PATH_MAX];
  jpath(j, "a.bc", a_bc, sizeof a_bc);
  jpath(j, "b.ll", b_ll, sizeof b_ll);
  jpath(j, "c.ll", c_ll, sizeof c_ll);
  jpath(j, "c.bc", c_bc, sizeof c_bc);
  jpath(j, "x.spv", spv, sizeof spv);
  unlink(b_ll);
  unlink(c_ll);
  unlink(c_bc);
  unlink(spv);
  tool_path(T_OPT, tool, sizeof tool);

  avec a = {0};
  av_add(&a, tool);
  if (level > 0) {
    char *pipeline = pipeline_for_level(level);
    av_addf(&a, "--data-layout=%s", data_layout);
    /* IndVarSimplify's exit values of quadratic recurrences (n*(n-1)/2) compute in i33 */
    av_add(&a, "-replexitval=never");
    if (pipeline) av_addf(&a, "-passes=%s", pipeline);
    else a.oom = true;
    free(pipeline);
  } else {
    av_add(&a, "-passes=verify");
  }
  av_add(&a, "-S");
  av_add(&a, a_bc);
  av_add(&a, "-o");
  av_add(&a, b_ll);
  bool ok = run_step(j, &a, NULL, b_ll, false, "opt-14", fail_log);
  av_free(&a);
  if (!ok) return false;

  size_t len;
  char *text = clcache_read_file(b_ll, &len);
  if (!text) {
    sb_addf(fail_log, "spvi: error: cannot read %s\n", b_ll);
    return false;
  }
  if (strstr(text, " asm sideeffect ") || strstr(text, " asm \"") || strstr(text, " asm inteldialect ") ||
      strstr(text, "\nmodule asm ")) {
    /* (llvm-spirv-14 crashes on it; no optimisation level changes that) */
    sb_add(fail_log, "spvi: error: inline assembly (asm) cannot be translated to SPIR-V\n");
    *final = true;
    free(text);
    return false;
  }
  bool oom = false;
  char *lowered = lower_ir_text(text, &oom);
  free(text);
  if (oom) {
    sb_add(fail_log, "spvi: error: out of memory\n");
    return false;
  }
  const char *in_ll = b_ll;
  if (lowered) {
    ok = write_file(c_ll, lowered, strlen(lowered), fail_log);
    free(lowered);
    in_ll = c_ll;
    if (!ok) return false;
  }

  const char *bc = c_bc;
  if (level == 0 && !lowered) {
    bc = a_bc; /* unchanged: translate clang's bitcode itself */
  } else {
    av_add(&a, tool);
    /* always-inline: the helpers of lowered_intrinsics */
    av_add(&a, level > 0 ? "-passes=always-inline,instsimplify" : "-passes=always-inline");
    av_add(&a, in_ll);
    av_add(&a, "-o");
    av_add(&a, c_bc);
    ok = run_step(j, &a, NULL, c_bc, false, "opt-14 (after lowering)", fail_log);
    av_free(&a);
    if (!ok) return false;
  }

  tool_path(T_LLVM_SPIRV, tool, sizeof tool);
  av_add(&a, tool);
  /* the source type names of kernel parameters (CL_KERNEL_ARG_TYPE_NAME keeps typedef names) */
  av_add(&a, "--preserve-ocl-kernel-arg-type-metadata-through-string");
  av_add(&a, bc);
  av_add(&a, "-o");
  av_add(&a, spv);
  ok = run_step(j, &a, NULL, spv, false, "llvm-spirv-14", fail_log);
  av_free(&a);
  return ok;
}

/* ------------------------------------------------------------------------------------------ */
/* The build cache (clc_cache.h; docs/compile.md "The build cache")                              */
/* ------------------------------------------------------------------------------------------ */

/* A tool's identity for the key: the file it resolves to (tool_path, then the PATH for a bare
 * name), with its size and modification time. */
static void key_tool(clcache_sha256 *s, int tool) {
  char path[PATH_MAX], full[PATH_MAX + 256];
  tool_path(tool, path, sizeof path);
  const char *env = strchr(path, '/') ? NULL : getenv("PATH");
  for (const char *d = env; d && *d;) {
    const char *e = strchr(d, ':');
    size_t len = e ? (size_t)(e - d) : strlen(d);
    snprintf(full, sizeof full, "%.*s/%s", (int)len, d, path);
    if (access(full, X_OK) == 0 && clcache_sha256_file_identity(s, full)) return;
    d = e ? e + 1 : NULL;
  }
  clcache_sha256_file_identity(s, path); /* absent: the name alone, and the build will fail */
}

/* The file this code is in: libspvi-cl.so for the platform, found with dladdr. Linked into an
 * executable (the spvi command), dladdr names the program as it was started (glibc gives
 * argv[0], maybe a bare name found on the PATH): /proc/self/exe is the file itself. */
static void key_self(clcache_sha256 *s) {
  Dl_info self;
  if (dladdr((void *)clc_compile, &self) && self.dli_fname && strchr(self.dli_fname, '/') &&
      clcache_sha256_file_identity(s, self.dli_fname))
    return;
  char exe[PATH_MAX];
  if (realpath("/proc/self/exe", exe)) clcache_sha256_file_identity(s, exe);
}

/* The key of a source build: everything the result depends on but the files clang reads from
 * disk (those are the entry's dependency list): spvi's version and the file this code is in (so
 * a rebuilt spvi never serves what the old one produced), the tools, the source, the embedded
 * headers and their names, the options as parsed (relative -I made absolute), the prelude (the
 * device's extensions and features) and the pipeline. */
static void compile_key(const char *source, const clc_header *headers, unsigned nheaders, const copts *o,
                        const sbuf *prelude, uint8_t key[CLCACHE_KEY]) {
  clcache_sha256 s;
  clcache_sha256_init(&s);
  clcache_sha256_str(&s, "spvi clc_compile 1 " SPVI_VERSION_STRING);
  key_self(&s);
  for (int t = T_CLANG; t <= T_LLVM_SPIRV; t++) key_tool(&s, t);
  clcache_sha256_str(&s, source);
  for (unsigned i = 0; i < nheaders; i++) {
    clcache_sha256_str(&s, headers[i].name);
    clcache_sha256_str(&s, headers[i].source);
  }
  for (size_t i = 0; i < o->clang.n; i++) clcache_sha256_str(&s, o->clang.v[i]);
  int flags[] = {o->cl_std,   o->opt_disable, o->fast_relaxed,           o->denorms_zero,
                 o->arg_info, o->uniform_wg,  CLC_DEVICE_OPENCL_VERSION, CLC_LEVELS};
  clcache_sha256_item(&s, flags, sizeof flags);
  clcache_sha256_item(&s, prelude->p, prelude->n);
  for (size_t i = 0; i < NUM(device_extensions); i++) clcache_sha256_str(&s, device_extensions[i]);
  for (size_t i = 0; i < NUM(device_features); i++) clcache_sha256_str(&s, device_features[i]);
  clcache_sha256_str(&s, optimisation_pipeline);
  clcache_sha256_str(&s, data_layout);
  clcache_sha256_final(&s, key);
}

/* A cached result: opt_level (4 bytes), optimized (1), the log's length (8), the log, the
 * module. */
static void cache_store(const uint8_t key[CLCACHE_KEY], const clc_result *r, const avec *deps) {
  size_t loglen = strlen(r->log), size = 13 + loglen + r->bytes;
  uint8_t *v = malloc(size);
  if (!v) return;
  int32_t level = r->opt_level;
  uint64_t l = loglen;
  memcpy(v, &level, 4);
  v[4] = r->optimized;
  memcpy(v + 5, &l, 8);
  memcpy(v + 13, r->log, loglen);
  memcpy(v + 13 + loglen, r->spirv, r->bytes);
  clcache_put(key, v, size, (const char *const *)deps->v, deps->n);
  free(v);
}

/* Fills out from a cached result; false when there is none (or it does not parse). */
static bool cache_fetch(const uint8_t key[CLCACHE_KEY], clc_result *out) {
  size_t size = 0;
  uint8_t *v = clcache_get(key, &size);
  if (!v) return false;
  int32_t level;
  uint64_t loglen;
  bool ok = size >= 13;
  if (ok) {
    memcpy(&level, v, 4);
    memcpy(&loglen, v + 5, 8);
    ok = loglen <= size - 13 && (size - 13 - loglen) % 4 == 0 && size - 13 - loglen >= 20;
  }
  if (ok) {
    size_t bytes = size - 13 - (size_t)loglen;
    out->log = malloc((size_t)loglen + 1);
    out->spirv = malloc(bytes);
    ok = out->log && out->spirv;
    if (ok) {
      memcpy(out->log, v + 13, (size_t)loglen);
      out->log[loglen] = 0;
      memcpy(out->spirv, v + 13 + loglen, bytes);
      out->bytes = bytes;
      out->opt_level = level;
      out->optimized = v[4];
    } else {
      free(out->log);
      free(out->spirv);
      out->log = NULL;
      out->spirv = NULL;
    }
  }
  free(v);
  return ok;
}

/* The files of clang's dependency list (-MD -MF FILE: make syntax, `target: dep dep \` lines,
 * `\ ` for a blank in a name) that come from outside the private directory: headers found
 * through -I or absolute #includes, and clang's own headers. Relative names are in the private
 * directory (clang's working directory), whose files are in the key. */
static void read_deps(const job *j, const char *file, avec *deps) {
  char *text = clcache_read_file(file, NULL);
  if (!text) {
    deps->oom = true; /* no list: no entry (a result whose inputs are unknown is not cached) */
    return;
  }
  bool target = true;
  size_t dlen = strlen(j->dir);
  for (char *p = text; *p;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || (*p == '\\' && p[1] == '\n')) p += *p == '\\' ? 2 : 1;
    if (!*p) break;
    sbuf w = {0};
    while (*p && *p != ' ' && *p != '\t' && *p != '\n' && !(*p == '\\' && p[1] == '\n')) {
      if (*p == '\\' && (p[1] == ' ' || p[1] == '#' || p[1] == '\\')) p++;
      else if (*p == '$' && p[1] == '$') p++;
      sb_addn(&w, p, 1);
      p++;
    }
    if (w.oom) deps->oom = true;
    else if (target) target = w.p[w.n - 1] != ':';
    else if (w.p[0] == '/' && !(strncmp(w.p, j->dir, dlen) == 0 && w.p[dlen] == '/')) av_add(deps, w.p);
    free(w.p);
  }
  free(text);
}

static void result_init(clc_result *out) { memset(out, 0, sizeof *out); }

/* Finishes a call: the log into out->log (never NULL, as far as memory allows). */
static int finish(clc_result *out, sbuf *log, int rc) {
  out->log = sb_take(log);
  if (!out->log) {
    out->log = strdup("spvi: error: out of memory\n");
    if (rc == CLC_OK) {
      free(out->spirv);
      out->spirv = NULL;
      out->bytes = 0;
      rc = CLC_FAILED;
    }
  }
  if (rc != CLC_OK) {
    free(out->spirv);
    out->spirv = NULL;
    out->bytes = 0;
  }
  return rc;
}

/* Reads dir/x.spv into out; false with a message when it is not a SPIR-V module. */
/* llvm-spirv-14 decorates the helper functions it generates itself (__translate_ocl_memory_order
 * and __translate_ocl_memory_scope, for atomics whose memory_order / memory_scope arguments are
 * not constants) with LinkageAttributes of type 0x7FFFFFFE, its private "internal" marker, which
 * is not a SPIR-V linkage type (spirv-val and spvi refuse the module). Internal functions need no
 * linkage: those decorations are removed. w: the module's words (host byte order, as
 * llvm-spirv writes them); *n is updated. */
static void drop_internal_linkage(uint32_t *w, size_t *n) {
  if (*n < 5 || w[0] != 0x07230203u) return;
  size_t out = 5;
  for (size_t i = 5; i < *n;) {
    uint32_t count = w[i] >> 16, op = w[i] & 0xffff;
    if (count == 0 || i + count > *n) { /* malformed: keep the rest for the loader to report */
      memmove(w + out, w + i, (*n - i) * sizeof *w);
      out += *n - i;
      break;
    }
    bool drop = op == 71 /* OpDecorate */ && count >= 4 && w[i + 2] == 41 /* LinkageAttributes */
                && w[i + count - 1] == 0x7FFFFFFEu;
    if (!drop) {
      memmove(w + out, w + i, count * sizeof *w);
      out += count;
    }
    i += count;
  }
  *n = out;
}

static bool take_module(job *j, clc_result *out) {
  char spv[PATH_MAX];
  size_t len = 0;
  char *data = clcache_read_file(jpath(j, "x.spv", spv, sizeof spv), &len);
  if (!data || len < 20 || len % 4 != 0) {
    free(data);
    sb_add(j->log, "spvi: error: the translator produced no valid SPIR-V module\n");
    return false;
  }
  size_t words = len / 4;
  drop_internal_linkage((uint32_t *)(void *)data, &words); /* malloc'd: aligned */
  out->spirv = data;
  out->bytes = words * 4;
  return true;
}

/* A call that fails before any work: out holds the message as its log. */
static int fail_early(clc_result *out, const char *message) {
  result_init(out);
  sbuf log = {0};
  sb_add(&log, message);
  return finish(out, &log, CLC_FAILED);
}

/* Where a source file of the user's is (clc_compile_file), NULL for the platform's sources. */
typedef struct {
  const char *dir; /* absolute: searched first for #include "x.h" */
} origin;

/* The clang options a user's file adds: its directory for quoted includes (-iquote: searched for
 * `#include "x.h"` only, before every -I, as if the file were compiled where it is), and with -g
 * the working directory as the compilation directory, so that the debug information names the
 * file by the path it was given relative to where the command runs (not the private directory,
 * which is gone when the debugger reads the source). Both are in o->clang, hence in the key. */
static void add_origin_options(copts *o, const origin *org, sbuf *log) {
  bool debug = false;
  for (size_t i = 0; i < o->clang.n; i++) debug |= strcmp(o->clang.v[i], "-g") == 0;
  av_add(&o->clang, "-iquote");
  av_add(&o->clang, org->dir);
  char cwd[PATH_MAX];
  if (!debug) return;
  if (getcwd(cwd, sizeof cwd)) av_addf(&o->clang, "-fdebug-compilation-dir=%s", cwd);
  else
    sb_addf(log,
            "spvi: warning: the working directory is unknown (%s): the debug information names the "
            "private build directory\n",
            errstr(errno));
}

static int compile_source(const char *source, const char *options, const clc_header *headers, unsigned nheaders,
                          const origin *org, clc_result *out);

int clc_compile(const char *source, const char *options, const clc_header *headers, unsigned nheaders,
                clc_result *out) {
  return compile_source(source, options, headers, nheaders, NULL, out);
}

/* The source behind a `#line 1 "NAME"` marker (C99 6.10.4, which OpenCL C 6.10 keeps): clang then
 * names the file NAME in diagnostics, __FILE__ and the debug information, and counts its lines from
 * 1 as in the file. NAME is a string literal: `"` and `\` are escaped, and so are the control
 * characters (octal escapes), which a string literal cannot hold as they are. */
static char *with_line_marker(const char *source, const char *name) {
  sbuf b = {0};
  sb_add(&b, "#line 1 \"");
  for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
    if (*p == '"' || *p == '\\') sb_addf(&b, "\\%c", *p);
    else if (*p < 0x20 || *p == 0x7f) sb_addf(&b, "\\%03o", *p);
    else sb_addn(&b, (const char *)p, 1);
  }
  sb_add(&b, "\"\n");
  sb_add(&b, source);
  return sb_take(&b);
}

int clc_compile_file(const char *source, const char *name, const char *dir, const char *options, clc_result *out) {
  if (!out) return CLC_FAILED;
  if (!source || !name || !dir || dir[0] != '/')
    return fail_early(out, "spvi: error: clc_compile_file needs a source, its name and its absolute directory\n");
  char *text = with_line_marker(source, name);
  if (!text) return fail_early(out, "spvi: error: out of memory\n");
  origin org = {dir};
  int rc = compile_source(text, options, NULL, 0, &org, out);
  free(text);
  return rc;
}

static int compile_source(const char *source, const char *options, const clc_header *headers, unsigned nheaders,
                          const origin *org, clc_result *out) {
  if (!out) return CLC_FAILED;
  result_init(out);
  sbuf log = {0};
  sb_addn(&log, "", 0);
  if (!source) {
    sb_add(&log, "spvi: error: no source (NULL)\n");
    return finish(out, &log, CLC_FAILED);
  }
  if (nheaders && !headers) {
    sb_add(&log, "spvi: error: headers missing (NULL) for a non-zero count\n");
    return finish(out, &log, CLC_FAILED);
  }
  for (unsigned i = 0; i < nheaders; i++) {
    if (!header_name_ok(headers[i].name)) {
      sb_addf(&log,
              "spvi: error: invalid header name `%s`: it must be a relative path without "
              "\"..\"\n",
              headers[i].name ? headers[i].name : "(null)");
      return finish(out, &log, CLC_FAILED);
    }
    if (!headers[i].source) {
      sb_addf(&log, "spvi: error: header `%s` has no source (NULL)\n", headers[i].name);
      return finish(out, &log, CLC_FAILED);
    }
    if (strcmp(headers[i].name, CLC_SOURCE_NAME) == 0) {
      sb_addf(&log, "spvi: error: header name `%s` is the name spvi gives the program source\n", headers[i].name);
      return finish(out, &log, CLC_FAILED);
    }
  }

  copts o = {0};
  int rc = parse_options(options, false, &o, &log);
  out->cl_std = o.cl_std;
  out->denorms_are_zero = o.denorms_zero;
  out->kernel_arg_info = o.arg_info;
  out->uniform_work_group_size = o.uniform_wg;
  if (rc != CLC_OK) {
    av_free(&o.clang);
    return finish(out, &log, rc);
  }

  if (org) add_origin_options(&o, org, &log);
  sbuf prelude = {0};
  make_prelude(&prelude, o.cl_std, &o.clang);
  uint8_t key[CLCACHE_KEY];
  compile_key(source, headers, nheaders, &o, &prelude, key);
  if (!prelude.oom && cache_fetch(key, out)) {
    av_free(&o.clang);
    free(prelude.p);
    free(log.p);
    return CLC_OK;
  }
  job j = {.log = &log};
  if (!make_tmpdir(j.dir, sizeof j.dir, &log)) {
    av_free(&o.clang);
    free(prelude.p);
    return finish(out, &log, CLC_FAILED);
  }
  snprintf(j.src, sizeof j.src, "%s/src", j.dir); /* fits: src is longer than dir + 4 */
  rc = CLC_FAILED;
  char path[PATH_MAX], tool[PATH_MAX], a_bc[PATH_MAX];
  avec a = {0}, deps = {0};
  sbuf fail = {0};
  if (mkdir(j.src, 0700) != 0) {
    sb_addf(&log, "spvi: error: cannot create %s: %s\n", j.src, errstr(errno));
    goto done;
  }
  if ((size_t)snprintf(path, sizeof path, "%s/" CLC_SOURCE_NAME, j.src) >= sizeof path ||
      !write_file(path, source, strlen(source), &log))
    goto done;
  for (unsigned i = 0; i < nheaders; i++) {
    if (!make_parent_dirs(j.src, headers[i].name, &log)) goto done;
    if ((size_t)snprintf(path, sizeof path, "%s/%s", j.src, headers[i].name) >= sizeof path) {
      sb_addf(&log, "spvi: error: header name `%s` is too long\n", headers[i].name);
      goto done;
    }
    if (!write_file(path, headers[i].source, strlen(headers[i].source), &log)) goto done;
  }
  if (prelude.oom || !write_file(jpath(&j, "spvi-prelude.h", path, sizeof path), prelude.p, prelude.n, &log)) goto done;

  /* clang: source -> LLVM bitcode (a.bc) */
  tool_path(T_CLANG, tool, sizeof tool);
  av_add(&a, tool);
  av_add(&a, "-x");
  av_add(&a, "cl");
  av_add(&a, "-target");
  av_add(&a, "spir64");
  av_addf(&a, "-cl-std=CL%d.%d", o.cl_std / 100, o.cl_std / 10 % 10);
  av_add(&a, "-emit-llvm");
  av_add(&a, "-c");
  if (o.opt_disable) {
    av_add(&a, "-O0");
  } else {
    /* -O2 IR (no optnone, lifetime markers, TBAA) but no passes: opt runs spvi's pipeline */
    av_add(&a, "-O2");
    av_add(&a, "-Xclang");
    av_add(&a, "-disable-llvm-passes");
  }
  av_add(&a, "-Xclang");
  av_add(&a, "-finclude-default-header");
  {
    sbuf ext = {0};
    sb_add(&ext, "-cl-ext=-all");
    for (size_t i = 0; i < NUM(device_extensions); i++) sb_addf(&ext, ",+%s", device_extensions[i]);
    if (o.cl_std >= 300)
      for (size_t i = 0; i < NUM(device_features); i++) sb_addf(&ext, ",+%s", device_features[i]);
    av_add(&a, "-Xclang");
    if (ext.oom) a.oom = true;
    else av_add(&a, ext.p);
    free(ext.p);
  }
  for (size_t i = 0; i < NUM(device_extensions); i++) av_addf(&a, "-D%s=1", device_extensions[i]);
  if (o.cl_std >= 300)
    for (size_t i = 0; i < NUM(device_features); i++) av_addf(&a, "-D%s=1", device_features[i]);
  av_addf(&a, "-D__OPENCL_VERSION__=%d", CLC_DEVICE_OPENCL_VERSION);
  if (o.fast_relaxed) av_add(&a, "-D__FAST_RELAXED_MATH__=1");
  av_add(&a, "-include");
  av_add(&a, jpath(&j, "spvi-prelude.h", path, sizeof path));
  /* parameter names (OpName) for spvi's reports and CL_KERNEL_ARG_NAME */
  av_add(&a, "-cl-kernel-arg-info");
  /* no reproducer files in /tmp when clang crashes: the log says it crashed */
  av_add(&a, "-fno-crash-diagnostics");
  /* the files it reads, for the cache entry's dependency list */
  av_add(&a, "-MD");
  av_add(&a, "-MF");
  av_add(&a, jpath(&j, "deps.d", path, sizeof path));
  for (size_t i = 0; i < o.clang.n; i++) av_add(&a, o.clang.v[i]);
  /* embedded headers also for #include <name> (after the user's -I directories) */
  av_add(&a, "-I");
  av_add(&a, j.src);
  av_add(&a, CLC_SOURCE_NAME);
  av_add(&a, "-o");
  av_add(&a, jpath(&j, "a.bc", a_bc, sizeof a_bc));
  if (!run_step(&j, &a, j.src, a_bc, true, "clang-14", &log)) goto done;

  /* the optimisation levels, then the unoptimised module (level 0) as the last resort, so
   * that every program clang accepts builds */
  int level = o.opt_disable ? 0 : 1;
  for (;; level = level >= CLC_LEVELS ? 0 : level + 1) {
    /* keep the first failure (why the full pipeline was refused) for the log */
    sbuf attempt = {0};
    bool final = false;
    bool ok = build_module(&j, level, fail.n ? &attempt : &fail, &final);
    if (ok) break;
    if (level == 0 || final) {
      /* the unoptimised module is what the program is: its failure is the reason to give */
      sb_add(&log, "spvi: error: this program cannot be translated to SPIR-V:\n");
      sb_add(&log, o.opt_disable || !attempt.p ? (fail.p ? fail.p : "") : attempt.p);
      free(attempt.p);
      goto done;
    }
    free(attempt.p);
  }
  if (level == 0 && !o.opt_disable) {
    /* the build works, but say why it is slow */
    sb_add(&log, "spvi: note: the optimised module could not be translated to SPIR-V, so this "
                 "build is not optimised:\n");
    if (fail.p) sb_add(&log, fail.p);
  }
  out->optimized = level > 0;
  out->opt_level = level;
  if (take_module(&j, out)) rc = CLC_OK;
  if (rc == CLC_OK) read_deps(&j, jpath(&j, "deps.d", path, sizeof path), &deps);

done:
  av_free(&a);
  av_free(&o.clang);
  free(prelude.p);
  free(fail.p);
  rm_tree(j.dir);
  rc = finish(out, &log, rc);
  if (rc == CLC_OK && !deps.oom) cache_store(key, out, &deps);
  av_free(&deps);
  return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Linking                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* The SPIR-V numbers the link's module rewrites read (SPIR-V 3.32 opcodes, 3.7 storage classes,
 * 3.20 decorations, 3.8 linkage types). */
enum {
  OP_SOURCE = 3,
  OP_ENTRY_POINT = 15,
  OP_FUNCTION = 54,
  OP_VARIABLE = 59,
  OP_DECORATE = 71,
  SC_FUNCTION = 7,
  DEC_LINKAGE = 41,
  LINK_EXPORT = 0,
  LINK_IMPORT = 1,
  LINK_ONCE_ODR = 2
};

/* A module's word i in host order (the module may be byte-swapped). */
static uint32_t word_at(const uint32_t *w, size_t i) { return w[0] == 0x03022307u ? __builtin_bswap32(w[i]) : w[i]; }

/* The OpenCL C version of a module from its OpSource (source language 3 = OpenCL_C, version
 * 100200 for 1.2 ...; llvm-spirv writes it), 0 when absent. Either byte order. */
static int module_cl_std(const void *module, size_t bytes) {
  if (!module || bytes < 20 || bytes % 4) return 0;
  const uint32_t *w = module;
  size_t n = bytes / 4;
  if (w[0] != 0x03022307u && w[0] != 0x07230203u) return 0;
  for (size_t i = 5; i < n;) {
    uint32_t ins = word_at(w, i), count = ins >> 16, op = ins & 0xffff;
    if (count == 0) break;
    if (op == OP_SOURCE && count >= 3 && i + 2 < n) {
      uint32_t lang = word_at(w, i + 1), ver = word_at(w, i + 2);
      if (lang == 3 /* OpenCL_C */) return (int)(ver / 100000 * 100 + ver / 1000 % 100 * 10);
      return 0;
    }
    if (op == OP_FUNCTION) break;
    i += count;
  }
  return 0;
}

/* spirv-link refuses modules of different SPIR-V versions, and llvm-spirv-14 writes the lowest
 * version that covers what each module uses (1.4 for `nsw` on an int addition, 1.0 for a float
 * function), so two objects of one program may differ. The older modules are raised to the
 * newest one's version: a version's rules for a Kernel module are its predecessor's, except that
 * from 1.4 on an OpEntryPoint's interface lists the global variables its call tree uses (SPIR-V
 * 1.6 §3.32.6 OpEntryPoint: "equal to or a superset of the global OpVariable Result <id>
 * referenced by the entry point's static call tree"). So when a module crosses 1.4, every
 * module-scope variable is added to each entry point's interface (a superset is allowed).
 * Returns a malloc'd copy in host byte order with `version` in word 1 (*words its length), or
 * NULL when out of memory. */
/* The id of the module-scope OpVariable at w[i] (count words, before the first OpFunction), else 0. */
static uint32_t module_variable(const uint32_t *w, size_t i, uint32_t count) {
  return (word_at(w, i) & 0xffff) == OP_VARIABLE && count >= 4 && word_at(w, i + 3) != SC_FUNCTION ? word_at(w, i + 2)
                                                                                                   : 0;
}

static uint32_t *raise_version(const uint32_t *w, size_t n, uint32_t version, size_t *words) {
  uint32_t old = word_at(w, 1);
  size_t nvars = 0;
  bool interfaces = old < 0x10400 && version >= 0x10400;
  for (size_t i = 5; interfaces && i < n;) { /* count the module-scope variables */
    uint32_t ins = word_at(w, i), count = ins >> 16;
    if (count == 0 || i + count > n || (ins & 0xffff) == OP_FUNCTION) break;
    nvars += module_variable(w, i, count) != 0;
    i += count;
  }
  size_t entries = 0;
  for (size_t i = 5; nvars && i < n;) {
    uint32_t ins = word_at(w, i), count = ins >> 16;
    if (count == 0 || i + count > n) break;
    entries += (ins & 0xffff) == OP_ENTRY_POINT;
    i += count;
  }
  uint32_t *r = malloc((n + entries * nvars) * sizeof *r);
  if (!r) return NULL;
  size_t o = 0;
  for (size_t i = 0; i < 5 && i < n; i++) r[o++] = word_at(w, i);
  r[1] = version;
  for (size_t i = 5; i < n;) {
    uint32_t ins = word_at(w, i), count = ins >> 16;
    if (count == 0 || i + count > n) { /* malformed: copy the rest for spirv-link to report */
      while (i < n) r[o++] = word_at(w, i++);
      break;
    }
    size_t start = o;
    for (uint32_t k = 0; k < count; k++) r[o++] = word_at(w, i + k);
    if ((ins & 0xffff) == OP_ENTRY_POINT && nvars) {
      /* append the variables the interface does not list yet */
      size_t name_end = start + 3; /* after ExecutionModel and the function id: the name */
      while (name_end < o && (r[name_end] >> 24) != 0) name_end++;
      name_end++; /* the word holding the name's NUL */
      for (size_t v = 5; v < n;) {
        uint32_t vi = word_at(w, v), vc = vi >> 16, id;
        if (vc == 0 || v + vc > n || (vi & 0xffff) == OP_FUNCTION) break;
        if ((id = module_variable(w, v, vc))) {
          bool listed = false;
          for (size_t k = name_end; k < o && !listed; k++) listed = r[k] == id;
          if (!listed) r[o++] = id;
        }
        v += vc;
      }
      r[start] = (uint32_t)(o - start) << 16 | OP_ENTRY_POINT;
    }
    i += count;
  }
  *words = o;
  return r;
}

/* ---- LinkOnceODR (cl_khr_spirv_linkonce_odr) ---------------------------------------------------
 * SPV_KHR_linkonce_odr adds the linkage type LinkOnceODR (2): a definition that is exported, that
 * other modules may define too, all definitions being equivalent (the One Definition Rule), the
 * linker keeping one; the environment must accept it (env spec "OpenCL Extensions",
 * cl_khr_spirv_linkonce_odr). spirv-link (SPIRV-Tools 2023.1, Debian 12) does not know the type:
 * it resolves no import against such a definition. So before a link that makes a program, in each
 * name's first LinkOnceODR definition (in input order) the type becomes Export, unless some input
 * exports the name already; every other LinkOnceODR definition of the name is made a copy of
 * that one: a function loses its linkage (a module-local copy, equivalent by the ODR), a variable
 * becomes an Import (no initializer), so the program has one such variable. A library link
 * (-create-library) keeps the type for the link that makes the program. The modules are the
 * host-order copies raise_version made. */

typedef struct lo_names {
  const char **v;
  size_t n, cap;
} lo_names;

/* Word count of the instruction at w[i] of a module of n words; 0 when it is malformed (the
 * rewrite stops there; the loader reports it). */
static uint32_t insn_words(const uint32_t *w, size_t n, size_t i) {
  uint32_t count = w[i] >> 16;
  return count == 0 || i + count > n ? 0 : count;
}

/* The name of the LinkageAttributes decoration at w[i] (count words), NULL when it is none. */
static const char *linkage_name(const uint32_t *w, size_t i, uint32_t count) {
  if ((w[i] & 0xffff) != OP_DECORATE || count < 5 || w[i + 2] != DEC_LINKAGE) return NULL;
  const char *name = (const char *)(w + i + 3);
  return memchr(name, 0, (size_t)(count - 4) * 4) ? name : NULL;
}

static bool lo_has(const lo_names *s, const char *name) {
  for (size_t k = 0; k < s->n; k++)
    if (strcmp(s->v[k], name) == 0) return true;
  return false;
}

static bool lo_add(lo_names *s, const char *name) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 16;
    const char **v = realloc(s->v, cap * sizeof *v);
    if (!v) return false;
    s->v = v;
    s->cap = cap;
  }
  s->v[s->n++] = name;
  return true;
}

/* Adds the names the module exports (LinkageAttributes Export) to s; false when out of memory. */
static bool collect_exports(const uint32_t *w, size_t n, lo_names *s) {
  uint32_t c;
  for (size_t i = 5; i < n && (c = insn_words(w, n, i)); i += c) {
    const char *name = linkage_name(w, i, c);
    if (name && w[i + c - 1] == LINK_EXPORT && !lo_has(s, name) && !lo_add(s, name)) return false;
  }
  return true;
}

/* Index of the OpVariable defining %id, searched from w[from]; 0 when there is none. */
static size_t find_variable(const uint32_t *w, size_t n, size_t from, uint32_t id) {
  uint32_t c;
  for (size_t i = from; i < n && (c = insn_words(w, n, i)); i += c)
    if ((w[i] & 0xffff) == OP_VARIABLE && c >= 4 && w[i + 2] == id) return i;
  return 0;
}

/* Rewrites one module's LinkOnceODR decorations as the comment above says; `exported`: the names
 * some input, or an earlier LinkOnceODR definition, exports. False when out of memory. */
static bool linkonce_module(uint32_t *w, size_t *n, lo_names *exported) {
  uint32_t c;
  for (size_t i = 5; i < *n && (c = insn_words(w, *n, i));) {
    const char *name = linkage_name(w, i, c);
    if (!name || w[i + c - 1] != LINK_ONCE_ODR) {
      i += c;
    } else if (!lo_has(exported, name)) { /* the one definition the program keeps */
      w[i + c - 1] = LINK_EXPORT;
      if (!lo_add(exported, name)) return false;
      i += c;
    } else if (find_variable(w, *n, 5, w[i + 1])) {
      /* a variable: an Import; its initializer (variables follow the decorations, SPIR-V 2.4) goes */
      size_t v = find_variable(w, *n, i + c, w[i + 1]);
      w[i + c - 1] = LINK_IMPORT;
      if (v && w[v] >> 16 == 5) {
        w[v] = (4u << 16) | OP_VARIABLE;
        memmove(w + v + 4, w + v + 5, (*n - v - 5) * sizeof *w);
        (*n)--;
      }
      i += c;
    } else { /* a function: a module-local copy */
      memmove(w + i, w + i + c, (*n - i - c) * sizeof *w);
      *n -= c;
    }
  }
  return true;
}

/* The LinkOnceODR rewrite done on the link's inputs (host-order copies: mods[i] of words[i]); false
 * with a message when out of memory. */
static bool linkonce_inputs(uint32_t **mods, size_t *words, unsigned n, sbuf *log) {
  lo_names exported = {0};
  bool ok = true;
  for (unsigned i = 0; i < n && ok; i++) ok = collect_exports(mods[i], words[i], &exported);
  for (unsigned i = 0; i < n && ok; i++) ok = linkonce_module(mods[i], &words[i], &exported);
  free(exported.v);
  if (!ok) sb_add(log, "spvi: error: out of memory\n");
  return ok;
}

int clc_link(const void *const *modules, const size_t *sizes, unsigned n, const char *options, clc_result *out) {
  if (!out) return CLC_FAILED;
  result_init(out);
  sbuf log = {0};
  sb_addn(&log, "", 0);
  if (n == 0 || !modules || !sizes) {
    sb_add(&log, "spvi: error: no modules to link\n");
    return finish(out, &log, CLC_FAILED);
  }
  for (unsigned i = 0; i < n; i++) {
    const uint32_t *w = modules[i];
    if (!w || sizes[i] < 20 || sizes[i] % 4 || (w[0] != 0x07230203u && w[0] != 0x03022307u)) {
      sb_addf(&log, "spvi: error: input %u is not a SPIR-V module\n", i);
      return finish(out, &log, CLC_FAILED);
    }
    int v = module_cl_std(modules[i], sizes[i]);
    if (v > out->cl_std) out->cl_std = v;
  }
  copts o = {0};
  int rc = parse_options(options, true, &o, &log);
  av_free(&o.clang);
  out->denorms_are_zero = o.denorms_zero;
  if (rc != CLC_OK) return finish(out, &log, rc);

  job j = {.log = &log};
  if (!make_tmpdir(j.dir, sizeof j.dir, &log)) return finish(out, &log, CLC_FAILED);
  rc = CLC_FAILED;
  char tool[PATH_MAX], path[PATH_MAX];
  avec a = {0};
  tool_path(T_SPIRV_LINK, tool, sizeof tool);
  av_add(&a, tool);
  if (o.create_library) {
    /* a library keeps its exports and may import what another program will provide */
    av_add(&a, "--create-library");
    av_add(&a, "--allow-partial-linkage");
  }
  /* host-order copies of the inputs, raised to the newest one's version, then LinkOnceODR resolved */
  uint32_t version = 0;
  for (unsigned i = 0; i < n; i++)
    if (word_at(modules[i], 1) > version) version = word_at(modules[i], 1);
  uint32_t **mods = calloc(n, sizeof *mods);
  size_t *words = calloc(n, sizeof *words);
  bool ok = mods && words;
  for (unsigned i = 0; i < n && ok; i++) ok = (mods[i] = raise_version(modules[i], sizes[i] / 4, version, &words[i]));
  if (!ok) {
    sb_add(&log, "spvi: error: out of memory\n");
    goto done;
  }
  if (!o.create_library && !linkonce_inputs(mods, words, n, &log)) goto done;
  for (unsigned i = 0; i < n; i++) {
    char name[32];
    snprintf(name, sizeof name, "in%u.spv", i);
    if (!write_file(jpath(&j, name, path, sizeof path), mods[i], words[i] * 4, &log)) goto done;
    av_add(&a, path);
  }
  av_add(&a, "-o");
  av_add(&a, jpath(&j, "x.spv", path, sizeof path));
  if (!run_step(&j, &a, NULL, path, false, "spirv-link", &log)) goto done;
  if (take_module(&j, out)) rc = CLC_OK;
done:
  for (unsigned i = 0; mods && i < n; i++) free(mods[i]);
  free(mods);
  free(words);
  av_free(&a);
  rm_tree(j.dir);
  return finish(out, &log, rc);
}

void clc_result_free(clc_result *r) {
  if (!r) return;
  free(r->spirv);
  free(r->log);
  memset(r, 0, sizeof *r);
}
