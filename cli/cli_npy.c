/*
 * cli_npy.c — owns the .npy format: building the version 1.0 header and file for --out, and
 * parsing headers (versions 1.0, 2.0, 3.0) of files given as `@FILE` buffer initialisers.
 */
#include "cli_npy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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
   * a 1-tuple is "(4,)", longer ones "(4, 3)"; NumPy itself ends the dict with ", }". A structured
   * descr (a list, "[('a', '<i4'), ...]") is written unquoted, as repr writes a list. */
  const size_t dict_cap = strlen(descr) + 80 + 24 * CLI_NPY_MAX_DIMS;
  char *dict = malloc(dict_cap);
  if (!dict) return 0;
  const char *quote = descr[0] == '[' ? "" : "'";
  size_t len = (size_t)snprintf(dict, dict_cap, "{'descr': %s%s%s, 'fortran_order': False, 'shape': (", quote, descr,
                                quote);
  for (unsigned i = 0; i < ndim && len < dict_cap; i++)
    len += (size_t)snprintf(dict + len, dict_cap - len, "%s%zu", i ? ", " : "", shape[i]);
  if (len < dict_cap) len += (size_t)snprintf(dict + len, dict_cap - len, "%s), }", ndim == 1 ? "," : "");
  if (len >= dict_cap) {
    free(dict);
    return 0;
  }
  /* 10 fixed bytes + dict + padding spaces + '\n' must be a multiple of 64. */
  size_t total = 10 + len + 1;
  total = (total + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
  size_t header_len = total - 10;
  if (total > cap || header_len > 0xffff) {
    free(dict);
    return 0;
  }
  memcpy(buf, npy_magic, sizeof npy_magic);
  buf[6] = 1; /* major */
  buf[7] = 0; /* minor */
  buf[8] = (char)(header_len & 0xff);
  buf[9] = (char)(header_len >> 8);
  memcpy(buf + 10, dict, len);
  memset(buf + 10 + len, ' ', header_len - len - 1);
  buf[total - 1] = '\n';
  free(dict);
  return total;
}

bool cli_npy_write(const char *path, const char *descr, unsigned ndim, const size_t shape[], const void *data,
                   size_t bytes, cli_error *e) {
  const size_t cap = strlen(descr) + 1024;
  char *header = malloc(cap);
  size_t hlen = header ? cli_npy_header(header, cap, descr, ndim, shape) : 0;
  if (hlen == 0) {
    free(header);
    return cli_fail(e, "cannot build an .npy header for `%s` (out of memory, or above 65535 bytes)", path);
  }
  FILE *f = fopen(path, "wb");
  if (!f) {
    free(header);
    return cli_fail(e, "cannot write `%s`: %s", path, strerror(errno));
  }
  bool ok = fwrite(header, 1, hlen, f) == hlen && (bytes == 0 || fwrite(data, 1, bytes, f) == bytes);
  free(header);
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

static bool npy_dims(npy_lexer *lx, size_t *shape, unsigned *ndim) {
  if (!npy_accept(lx, '(')) return false;
  *ndim = 0;
  if (npy_accept(lx, ')')) return true;
  for (;;) {
    if (*ndim == CLI_NPY_MAX_DIMS) return false;
    if (!npy_size(lx, &shape[*ndim])) return false;
    ++*ndim;
    bool comma = npy_accept(lx, ',');
    if (npy_accept(lx, ')')) return *ndim > 1 || comma; /* "(4)" is not a tuple */
    if (!comma) return false;
  }
}

static bool npy_shape(npy_lexer *lx, cli_npy *out) { return npy_dims(lx, out->shape, &out->ndim); }

bool cli_npy_add_leaf(cli_npy_leaf *leaves, unsigned *n, size_t offset, const char *type, size_t count) {
  if (count == 0) return true;
  cli_npy_leaf *last = *n ? &leaves[*n - 1] : NULL;
  if (last && strcmp(last->type, type) == 0 && last->offset + last->count * cli_npy_itemsize(type) == offset) {
    last->count += count;
    return true;
  }
  if (*n == CLI_NPY_MAX_LEAVES || strlen(type) >= sizeof last->type) return false;
  leaves[*n].offset = offset;
  leaves[*n].count = count;
  strcpy(leaves[(*n)++].type, type);
  return true;
}

/* A structured descr (numpy.lib.format's dtype.descr): "[(NAME, FORMAT[, SHAPE]), ...]" with
 * FORMAT a dtype string or a nested list, SHAPE a tuple of sizes; unnamed '|Vn' entries are
 * padding. Adds the fields at *offset on as leaves of out, advancing *offset past them. */
static bool npy_fields(npy_lexer *lx, cli_npy *out, size_t *offset, unsigned depth) {
  if (depth > 8 || !npy_accept(lx, '[')) return false;
  while (!npy_accept(lx, ']')) {
    char name[64], type[16];
    size_t shape[CLI_NPY_MAX_DIMS];
    unsigned ndim = 0;
    if (!npy_accept(lx, '(') || !npy_string(lx, name, sizeof name) || !npy_accept(lx, ',')) return false;
    const size_t start = *offset, first_leaf = out->nleaves;
    const bool nested = (npy_skip_space(lx), lx->pos < lx->len && lx->s[lx->pos] == '[');
    if (nested ? !npy_fields(lx, out, offset, depth + 1) : !npy_string(lx, type, sizeof type)) return false;
    bool closed = npy_accept(lx, ',') && npy_accept(lx, ')');
    if (!closed && !npy_accept(lx, ')')) { /* SHAPE: a tuple, or one size */
      npy_skip_space(lx);
      if (lx->pos < lx->len && lx->s[lx->pos] == '(') {
        if (!npy_dims(lx, shape, &ndim)) return false;
      } else if (npy_size(lx, &shape[0])) {
        ndim = 1;
      } else {
        return false;
      }
      npy_accept(lx, ',');
      if (!npy_accept(lx, ')')) return false;
    }
    size_t count = 1;
    for (unsigned i = 0; i < ndim; i++) {
      if (shape[i] && count > SIZE_MAX / 2 / shape[i]) return false;
      count *= shape[i];
    }
    if (nested) { /* the nested item's leaves again for every further element of its shape */
      const size_t size = *offset - start;
      const unsigned end = out->nleaves;
      for (size_t k = 1; k < count; k++)
        for (unsigned l = first_leaf; l < end; l++)
          if (!cli_npy_add_leaf(out->leaves, &out->nleaves, out->leaves[l].offset + k * size, out->leaves[l].type,
                                out->leaves[l].count))
            return false;
      if (count == 0) out->nleaves = first_leaf;
      *offset = start + size * count;
    } else {
      const size_t size = cli_npy_itemsize(type);
      if (size == 0 || (type[0] != '<' && type[0] != '|')) return false; /* big-endian or unsized */
      if (!(name[0] == 0 && type[1] == 'V') && !cli_npy_add_leaf(out->leaves, &out->nleaves, start, type, count))
        return false;
      *offset = start + size * count;
    }
    if (!npy_accept(lx, ',')) return npy_accept(lx, ']');
  }
  return true;
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
  out->structured = false;
  out->nleaves = 0;
  const char *bad = NULL;
  if (!npy_accept(&lx, '{')) bad = "expected `{`";
  while (!bad && !npy_accept(&lx, '}')) {
    char key[32];
    if (!npy_string(&lx, key, sizeof key) || !npy_accept(&lx, ':')) {
      bad = "expected a quoted key and `:`";
    } else if (strcmp(key, "descr") == 0 && !have_descr) {
      npy_skip_space(&lx);
      out->structured = lx.pos < lx.len && lx.s[lx.pos] == '[';
      out->nleaves = 0;
      size_t itemsize = 0;
      if (out->structured) {
        have_descr = npy_fields(&lx, out, &itemsize, 0) && itemsize > 0;
        out->itemsize = itemsize;
        snprintf(out->descr, sizeof out->descr, "|V%zu", itemsize);
      } else {
        have_descr = npy_string(&lx, out->descr, sizeof out->descr);
      }
      if (!have_descr)
        bad = out->structured ? "'descr' is not a structured dtype spvi reads (fields of little-endian "
                                "types, nested lists, shapes; at most 256 runs of fields)"
                              : "'descr' is not a simple dtype string";
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
  out->itemsize = item;
  if (item == 0) return cli_fail(e, "`%s`: unsupported .npy dtype '%s'", name, out->descr);
  if (items > SIZE_MAX / item) return cli_fail(e, "`%s`: .npy shape too large", name);
  out->data_offset = prefix + header_len;
  size_t have = size - out->data_offset;
  if (have != items * item)
    return cli_fail(e, "`%s`: the .npy header describes %zu data bytes but %zu follow it", name, items * item, have);
  return true;
}
