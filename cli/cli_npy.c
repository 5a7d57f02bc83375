/*
 * cli_npy.c — owns the .npy format: building the version 1.0 header and file for --out, and
 * parsing headers (versions 1.0, 2.0, 3.0) of files given as `@FILE` buffer initialisers.
 */
#include "cli_npy.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The format's fixed prefix: magic (6 bytes), major and minor version (2). */
static const char npy_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};
/* NumPy aligns the start of the data to this many bytes (numpy.lib.format.ARRAY_ALIGN). */
#define NPY_ALIGN 64

bool cli_npy_has_magic(const unsigned char *data, size_t size) {
  return size >= sizeof npy_magic && memcmp(data, npy_magic, sizeof npy_magic) == 0;
}

size_t cli_npy_itemsize(const char *descr) {
  size_t n = strlen(descr), size = 0, scale = 1;
  while (n > 0 && descr[n - 1] >= '0' && descr[n - 1] <= '9') {
    size += (size_t)(descr[n - 1] - '0') * scale;
    scale *= 10;
    n--;
  }
  return size;
}

size_t cli_npy_header(char *buf, size_t cap, const char *descr, unsigned ndim, const size_t shape[]) {
  if (ndim < 1 || ndim > CLI_NPY_MAX_DIMS) return 0;
  /* The dict exactly as Python's repr spells it, so that NumPy and byte-comparing tools agree:
   * a 1-tuple is "(4,)", longer ones "(4, 3)"; NumPy itself ends the dict with ", }". */
  char dict[512];
  size_t len = (size_t)snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
  for (unsigned i = 0; i < ndim && len < sizeof dict; i++)
    len += (size_t)snprintf(dict + len, sizeof dict - len, "%s%zu", i ? ", " : "", shape[i]);
  if (len < sizeof dict) len += (size_t)snprintf(dict + len, sizeof dict - len, "%s), }", ndim == 1 ? "," : "");
  if (len >= sizeof dict) return 0;
  /* 10 fixed bytes + dict + padding spaces + '\n' must be a multiple of 64. */
  size_t total = 10 + len + 1;
  total = (total + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
  size_t header_len = total - 10;
  if (total > cap || header_len > 0xffff) return 0;
  memcpy(buf, npy_magic, sizeof npy_magic);
  buf[6] = 1; /* major */
  buf[7] = 0; /* minor */
  buf[8] = (char)(header_len & 0xff);
  buf[9] = (char)(header_len >> 8);
  memcpy(buf + 10, dict, len);
  memset(buf + 10 + len, ' ', header_len - len - 1);
  buf[total - 1] = '\n';
  return total;
}

bool cli_npy_write(const char *path, const char *descr, unsigned ndim, const size_t shape[], const void *data,
                   size_t bytes, cli_error *e) {
  char header[1024];
  size_t hlen = cli_npy_header(header, sizeof header, descr, ndim, shape);
  if (hlen == 0) return cli_fail(e, "cannot build an .npy header for `%s`", path);
  FILE *f = fopen(path, "wb");
  if (!f) return cli_fail(e, "cannot write `%s`: %s", path, strerror(errno));
  bool ok = fwrite(header, 1, hlen, f) == hlen && (bytes == 0 || fwrite(data, 1, bytes, f) == bytes);
  int saved = errno;
  if (fclose(f) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (!ok) return cli_fail(e, "cannot write `%s`: %s", path, strerror(saved));
  return true;
}

/* ---- header parsing: the small subset of Python literal syntax that .npy dicts use ---------- */

typedef struct npy_lexer {
  const char *s;
  size_t pos, len;
} npy_lexer;

static void npy_skip_space(npy_lexer *lx) {
  while (lx->pos < lx->len &&
         (lx->s[lx->pos] == ' ' || lx->s[lx->pos] == '\t' || lx->s[lx->pos] == '\n' || lx->s[lx->pos] == '\r'))
    lx->pos++;
}

static bool npy_accept(npy_lexer *lx, char c) {
  npy_skip_space(lx);
  if (lx->pos < lx->len && lx->s[lx->pos] == c) {
    lx->pos++;
    return true;
  }
  return false;
}

static bool npy_string(npy_lexer *lx, char *out, size_t cap) {
  npy_skip_space(lx);
  if (lx->pos >= lx->len) return false;
  char quote = lx->s[lx->pos];
  if (quote != '\'' && quote != '"') return false;
  size_t start = ++lx->pos;
  while (lx->pos < lx->len && lx->s[lx->pos] != quote) {
    if (lx->s[lx->pos] == '\\') return false; /* no escapes occur in the keys or dtypes we read */
    lx->pos++;
  }
  if (lx->pos >= lx->len || lx->pos - start >= cap) return false;
  memcpy(out, lx->s + start, lx->pos - start);
  out[lx->pos - start] = 0;
  lx->pos++;
  return true;
}

static bool npy_word(npy_lexer *lx, const char *w) {
  npy_skip_space(lx);
  size_t n = strlen(w);
  if (lx->len - lx->pos >= n && memcmp(lx->s + lx->pos, w, n) == 0) {
    lx->pos += n;
    return true;
  }
  return false;
}

static bool npy_size(npy_lexer *lx, size_t *out) {
  npy_skip_space(lx);
  size_t v = 0, digits = 0;
  while (lx->pos < lx->len && lx->s[lx->pos] >= '0' && lx->s[lx->pos] <= '9') {
    size_t d = (size_t)(lx->s[lx->pos] - '0');
    if (v > (SIZE_MAX - d) / 10) return false;
    v = v * 10 + d;
    lx->pos++;
    digits++;
  }
  *out = v;
  return digits > 0;
}

static bool npy_shape(npy_lexer *lx, cli_npy *out) {
  if (!npy_accept(lx, '(')) return false;
  out->ndim = 0;
  if (npy_accept(lx, ')')) return true;
  for (;;) {
    if (out->ndim == CLI_NPY_MAX_DIMS) return false;
    if (!npy_size(lx, &out->shape[out->ndim])) return false;
    out->ndim++;
    bool comma = npy_accept(lx, ',');
    if (npy_accept(lx, ')')) return out->ndim > 1 || comma; /* "(4)" is not a tuple */
    if (!comma) return false;
  }
}

bool cli_npy_parse(const unsigned char *file, size_t size, const char *name, cli_npy *out, cli_error *e) {
  if (!cli_npy_has_magic(file, size)) return cli_fail(e, "`%s` is not an .npy file (no \\x93NUMPY magic)", name);
  if (size < 10) return cli_fail(e, "`%s`: truncated .npy header", name);
  unsigned major = file[6], minor = file[7];
  size_t prefix, header_len;
  if (major == 1 && minor == 0) {
    prefix = 10;
    header_len = (size_t)file[8] | (size_t)file[9] << 8;
  } else if ((major == 2 || major == 3) && minor == 0) {
    if (size < 12) return cli_fail(e, "`%s`: truncated .npy header", name);
    prefix = 12;
    header_len = (size_t)file[8] | (size_t)file[9] << 8 | (size_t)file[10] << 16 | (size_t)file[11] << 24;
  } else {
    return cli_fail(e, "`%s`: unsupported .npy format version %u.%u", name, major, minor);
  }
  if (header_len > size - prefix) return cli_fail(e, "`%s`: truncated .npy header", name);

  npy_lexer lx = {(const char *)file + prefix, 0, header_len};
  bool have_descr = false, have_order = false, have_shape = false;
  const char *bad = NULL;
  if (!npy_accept(&lx, '{')) bad = "expected `{`";
  while (!bad && !npy_accept(&lx, '}')) {
    char key[32];
    if (!npy_string(&lx, key, sizeof key) || !npy_accept(&lx, ':')) {
      bad = "expected a quoted key and `:`";
    } else if (strcmp(key, "descr") == 0 && !have_descr) {
      have_descr = npy_string(&lx, out->descr, sizeof out->descr);
      if (!have_descr) bad = "'descr' is not a simple dtype string";
    } else if (strcmp(key, "fortran_order") == 0 && !have_order) {
      have_order = true;
      if (npy_word(&lx, "True")) out->fortran_order = true;
      else if (npy_word(&lx, "False")) out->fortran_order = false;
      else bad = "'fortran_order' is neither True nor False";
    } else if (strcmp(key, "shape") == 0 && !have_shape) {
      have_shape = npy_shape(&lx, out);
      if (!have_shape) bad = "'shape' is not a tuple of sizes";
    } else {
      bad = "unexpected or repeated key";
    }
    /* Entries are separated by commas; a trailing comma before `}` is allowed. */
    if (!bad && !npy_accept(&lx, ',')) {
      if (!npy_accept(&lx, '}')) bad = "expected `,` or `}`";
      break;
    }
  }
  if (!bad && !(have_descr && have_order && have_shape)) bad = "it needs the keys 'descr', 'fortran_order' and 'shape'";
  npy_skip_space(&lx);
  if (!bad && lx.pos != lx.len) bad = "text after the dict";
  if (bad) return cli_fail(e, "`%s`: bad .npy header: %s", name, bad);

  size_t items = 1;
  for (unsigned i = 0; i < out->ndim; i++) {
    if (out->shape[i] != 0 && items > SIZE_MAX / out->shape[i]) return cli_fail(e, "`%s`: .npy shape too large", name);
    items *= out->shape[i];
  }
  size_t item = cli_npy_itemsize(out->descr);
  if (item == 0) return cli_fail(e, "`%s`: unsupported .npy dtype '%s'", name, out->descr);
  if (items > SIZE_MAX / item) return cli_fail(e, "`%s`: .npy shape too large", name);
  out->data_offset = prefix + header_len;
  size_t have = size - out->data_offset;
  if (have != items * item)
    return cli_fail(e, "`%s`: the .npy header describes %zu data bytes but %zu follow it", name, items * item, have);
  return true;
}
