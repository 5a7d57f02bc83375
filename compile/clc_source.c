/*
 * clc_source.c — spvi_load_source (include/spvi.h): an OpenCL C source file compiled through the
 * compile layer (clc_compile_file, the path `spvi run KERNEL.cl` and clBuildProgram take, with the
 * same build cache) and loaded with spvi_load_memory. It stands on the public API alone, like the
 * rest of compile/: the loader never calls back into it.
 */
#include "clc_source.h"

#include "clc_cache.h"
#include "clc_compile.h"
#include "spvi.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool clc_source_dir(const char *path, char dir[PATH_MAX], char *msg, size_t cap) {
  char d[PATH_MAX];
  const char *sl = strrchr(path, '/');
  if (!sl) snprintf(d, sizeof d, ".");
  else if ((size_t)(sl - path) >= sizeof d) return snprintf(msg, cap, "`%s`: the path is too long", path), false;
  else snprintf(d, sizeof d, "%.*s", sl == path ? 1 : (int)(sl - path), path);
  if (realpath(d, dir)) return true;
  snprintf(msg, cap, "`%s`: cannot resolve its directory `%s`: %s", path, d, strerror(errno));
  return false;
}

static void *src_fail(spvi_error *err, spvi_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void *src_fail(spvi_error *err, spvi_status st, const char *fmt, ...) {
  if (!err) return NULL;
  err->status = st;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return NULL;
}

/* The first line of the log that reports an error (clang: "k.cl:3:5: error: ..."; the compile
 * layer's own: "... error: ..."), else its first line: what err's one line quotes. */
static void src_first_error(const char *log, char *out, size_t cap) {
  const char *at = strstr(log, "error:");
  const char *line = log;
  if (at)
    for (line = at; line > log && line[-1] != '\n';) line--;
  size_t n = strcspn(line, "\n");
  snprintf(out, cap, "%.*s", (int)n, line);
}

/* SPIR-V 2.3: the magic number 0x07230203, in either byte order. */
static bool src_is_spirv(const unsigned char *h, size_t n) {
  return n >= 4 && ((h[0] == 0x03 && h[1] == 0x02 && h[2] == 0x23 && h[3] == 0x07) ||
                    (h[0] == 0x07 && h[1] == 0x23 && h[2] == 0x02 && h[3] == 0x03));
}

/* Compiles the NUL-terminated text of `path`; the log goes to on_message, the module is loaded. */
static spvi_module *src_build(const char *path, const char *text, const char *dir, const char *options,
                              const spvi_load_options *opts, spvi_error *err) {
  clc_result r;
  int rc = clc_compile_file(text, path, dir, options, &r);
  if (r.log && *r.log && opts && opts->on_message) opts->on_message(opts->user, SPVI_NOTE, r.log);
  spvi_module *m = NULL;
  if (rc == CLC_OK) {
    m = spvi_load_memory(r.spirv, r.bytes, path, opts, err);
  } else {
    char first[768];
    src_first_error(r.log ? r.log : "", first, sizeof first);
    src_fail(err, SPVI_E_BUILD, "`%s` did not compile%s: %s", path,
             rc == CLC_INVALID_OPTIONS ? " (a build option was refused)" : "", first);
  }
  clc_result_free(&r);
  return m;
}

spvi_module *spvi_load_source(const char *path, const char *options, const spvi_load_options *opts, spvi_error *err) {
  if (err) err->status = SPVI_OK, err->message[0] = 0;
  if (!path) return src_fail(err, SPVI_E_USAGE, "spvi_load_source: no path");
  struct stat st;
  if (stat(path, &st) != 0) return src_fail(err, SPVI_E_IO, "cannot read `%s`: %s", path, strerror(errno));
  if (!S_ISREG(st.st_mode)) return src_fail(err, SPVI_E_IO, "cannot read `%s`: not a regular file", path);
  size_t size = 0;
  char *text = clcache_read_file(path, &size);
  if (!text) return src_fail(err, SPVI_E_IO, "cannot read `%s`: %s", path, strerror(errno));
  spvi_module *m = NULL;
  char dir[PATH_MAX], msg[PATH_MAX + 128];
  const char *nul = memchr(text, 0, size);
  if (src_is_spirv((const unsigned char *)text, size)) {
    if (options && *options)
      src_fail(err, SPVI_E_USAGE, "build options `%s` given, but `%s` is a SPIR-V module, not OpenCL C source", options,
               path);
    else m = spvi_load_memory(text, size, path, opts, err);
  } else if (nul) {
    src_fail(err, SPVI_E_MODULE, "`%s` has a NUL byte at offset %zu: neither SPIR-V nor OpenCL C source", path,
             (size_t)(nul - text));
  } else if (clc_source_dir(path, dir, msg, sizeof msg)) {
    m = src_build(path, text, dir, options, opts, err);
  } else {
    src_fail(err, SPVI_E_IO, "%s", msg);
  }
  free(text);
  return m;
}
