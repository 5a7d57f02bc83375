/*
 * cli_source.c — owns the decision of what an input file is (cli_source_sniff: by content first,
 * the name only for text) and the compile of OpenCL C source files for the command, through
 * clc_compile_file (docs/compile.md "Source files"): diagnostics name the user's file, its
 * directory is searched for `#include "x.h"`, and the build cache is the platform's.
 */
#include "cli_source.h"

#include "cli_args.h"
#include "clc_compile.h"
#include "clc_source.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Formats that are not SPIR-V, by their first bytes (each format's own magic number). */
static const struct {
  const char *magic;
  size_t len;
  const char *what;
} sniff_magic[] = {
  {"\x7f"
   "ELF",
   4, NULL}, /* described by its type: sniff_elf */
  {"BC\xc0\xde", 4, "LLVM bitcode (translate it to SPIR-V with llvm-spirv-14)"},
  {"\xde\xc0\x17\x0b", 4, "LLVM bitcode in a wrapper (translate it to SPIR-V with llvm-spirv-14)"},
  {"\x93NUMPY", 6, "a NumPy array file (.npy: give it as an argument, TYPE[N]=@FILE)"},
  {"\x89PNG\r\n\x1a\n", 8, "a PNG image"},
  {"!<arch>\n", 8, "an ar archive (a static library)"},
  {"\x1f\x8b", 2, "gzip-compressed data"},
  {"PK\x03\x04", 4, "a zip archive"},
};

/* The ELF header's e_type (ELF gABI: 16 bits at offset 16, in the byte order of EI_DATA, byte 5). */
static const char *sniff_elf(const unsigned char *h, size_t n) {
  if (n < 18) return "an ELF file (truncated)";
  unsigned type = h[5] == 2 ? (unsigned)h[16] << 8 | h[17] : (unsigned)h[17] << 8 | h[16];
  switch (type) {
  case 1: return "an ELF relocatable object (.o)";
  case 2: return "an ELF executable";
  case 3: return "an ELF shared object (a library or a position-independent executable)";
  case 4: return "an ELF core dump";
  }
  return "an ELF file";
}

/* Text: no NUL, no control character but the white space of C (C11 5.2.1), ESC for colours. */
static bool sniff_is_text(const unsigned char *h, size_t n) {
  for (size_t i = 0; i < n; i++)
    if ((h[i] < 0x20 && (!h[i] || !strchr("\t\n\v\f\r\x1b", h[i]))) || h[i] == 0x7f) return false;
  return true;
}

static bool sniff_has(const unsigned char *h, size_t n, const char *s) {
  size_t k = strlen(s);
  for (size_t i = 0; i + k <= n; i++)
    if (memcmp(h + i, s, k) == 0) return true;
  return false;
}

static bool sniff_ident(unsigned char c) {
  return c == '_' || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || (c >= '0' && c <= '9');
}

/* The word `kernel` or `__kernel` (OpenCL C 6.7.1: a kernel function's qualifier) as a token. */
static bool sniff_has_kernel(const unsigned char *h, size_t n) {
  for (size_t i = 0; i + 6 <= n; i++) {
    if (memcmp(h + i, "kernel", 6) != 0 || (i + 6 < n && sniff_ident(h[i + 6]))) continue;
    size_t s = i >= 2 && h[i - 1] == '_' && h[i - 2] == '_' ? i - 2 : i; /* where the token starts */
    if (s == 0 || !sniff_ident(h[s - 1])) return true;
  }
  return false;
}

static bool sniff_cl_name(const char *name) {
  size_t k = strlen(name);
  return (k > 3 && strcmp(name + k - 3, ".cl") == 0) || (k > 4 && strcmp(name + k - 4, ".clc") == 0);
}

cli_in_kind cli_source_sniff(const unsigned char *h, size_t n, const char *name, const char **what) {
  *what = NULL;
  if (n == 0) return *what = "an empty file", CLI_IN_OTHER;
  /* SPIR-V 2.3: the magic number 0x07230203, in either byte order */
  if (n >= 4 && ((h[0] == 0x03 && h[1] == 0x02 && h[2] == 0x23 && h[3] == 0x07) ||
                 (h[0] == 0x07 && h[1] == 0x23 && h[2] == 0x02 && h[3] == 0x03)))
    return CLI_IN_SPIRV;
  for (size_t i = 0; i < sizeof sniff_magic / sizeof sniff_magic[0]; i++)
    if (n >= sniff_magic[i].len && memcmp(h, sniff_magic[i].magic, sniff_magic[i].len) == 0)
      return *what = sniff_magic[i].what ? sniff_magic[i].what : sniff_elf(h, n), CLI_IN_OTHER;
  if (!sniff_is_text(h, n)) return *what = "binary data", CLI_IN_OTHER;
  if (sniff_cl_name(name)) return CLI_IN_SOURCE;
  if (sniff_has(h, n, "OpCapability") || sniff_has(h, n, "OpMemoryModel"))
    return *what = "SPIR-V assembly text (assemble it with spirv-as)", CLI_IN_OTHER;
  if (sniff_has(h, n, "; ModuleID") || sniff_has(h, n, "target triple"))
    return *what = "LLVM IR text (assemble it with llvm-as-14, then translate it with llvm-spirv-14)", CLI_IN_OTHER;
  if (sniff_has_kernel(h, n)) return CLI_IN_SOURCE;
  return *what = "text without an OpenCL C kernel (no `kernel` or `__kernel` function)", CLI_IN_OTHER;
}

static bool source_dir(const char *path, char *dir) {
  char msg[PATH_MAX + 128];
  if (clc_source_dir(path, dir, msg, sizeof msg)) return true;
  cli_say_error("%s", msg);
  return false;
}

/* Compiles the text (size bytes, *text realloc'd to hold a final NUL) of the source file `path`;
 * the compiler's messages go to stderr as they are. */
static bool source_build(const char *path, unsigned char **text, size_t size, const char *dir, const cli_clopts *o,
                         bool debug, void **spirv, size_t *bytes) {
  const unsigned char *nul = memchr(*text, 0, size);
  if (nul)
    return cli_say_error("`%s` has a NUL byte at offset %zu: not OpenCL C source", path, (size_t)(nul - *text)), false;
  char *src = realloc(*text, size + 1);
  if (!src) return cli_say_error("out of memory"), false;
  *text = (unsigned char *)src;
  src[size] = 0;
  char *options = cli_clopts_string(o, debug);
  if (!options) return cli_say_error("out of memory"), false;
  clc_result r;
  int rc = clc_compile_file(src, path, dir, options, &r);
  free(options);
  if (r.log && *r.log) fputs(r.log, stderr);
  if (rc == CLC_OK) {
    *spirv = r.spirv;
    *bytes = r.bytes;
    r.spirv = NULL;
  } else {
    cli_say_error("`%s` did not compile%s", path,
                  rc == CLC_INVALID_OPTIONS ? ": a compile option was refused (above)"
                                            : " (the compiler's messages above)");
  }
  clc_result_free(&r);
  return rc == CLC_OK;
}

static bool source_compile(const char *path, const cli_clopts *o, bool debug, void **spirv, size_t *bytes) {
  char dir[PATH_MAX];
  if (!source_dir(path, dir)) return false;
  unsigned char *text = NULL;
  size_t size = 0;
  cli_error e;
  /* 256 MiB: far above any kernel source, below what would exhaust memory */
  if (!cli_read_file(path, (size_t)1 << 28, "OpenCL C source is read whole", &text, &size, &e))
    return cli_say_error("%s", e.msg), false;
  bool ok = source_build(path, &text, size, dir, o, debug, spirv, bytes);
  free(text);
  return ok;
}

cli_in_kind cli_source_prepare(const char *path, const cli_clopts *o, bool debug, void **spirv, size_t *bytes) {
  *spirv = NULL;
  *bytes = 0;
  /* only a regular file is looked at first: reading the head of a pipe or a device would consume
   * it (they are modules, as `-` is; the loader reads them in bounded chunks) */
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return CLI_IN_SPIRV; /* the loader's message */
  FILE *f = fopen(path, "rb");
  if (!f) return CLI_IN_SPIRV; /* the loader says why it cannot be read */
  unsigned char *head = malloc(CLI_SNIFF_BYTES);
  size_t n = head ? fread(head, 1, CLI_SNIFF_BYTES, f) : 0;
  bool unreadable = !head || ferror(f);
  fclose(f);
  const char *what = NULL;
  cli_in_kind k = unreadable ? CLI_IN_SPIRV : cli_source_sniff(head, n, path, &what);
  free(head);
  if (unreadable) return CLI_IN_SPIRV; /* a directory, an I/O error: the loader's message */
  if (k == CLI_IN_OTHER) {
    cli_say_error("`%s` is %s; spvi takes a SPIR-V module (MODULE.spv, either byte order) or OpenCL C source "
                  "(KERNEL.cl)",
                  path, what);
    return CLI_IN_OTHER;
  }
  if (k == CLI_IN_SPIRV && o && o->first) {
    cli_say_error("%s compiles OpenCL C source, but `%s` is a SPIR-V module", o->first, path);
    return CLI_IN_OTHER;
  }
  if (k == CLI_IN_SPIRV) return k;
  static const cli_clopts none = {.opt = -1};
  return source_compile(path, o ? o : &none, debug, spirv, bytes) ? CLI_IN_SOURCE : CLI_IN_OTHER;
}
