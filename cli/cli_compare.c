/*
 * cli_compare.c — owns the comparison of .npy arrays: the tolerance options, reading a file's
 * dtype (simple, or structured: a list of fields, flattened into leaves), the element rules for
 * integers and IEEE 754 binary16/32/64, and the summaries (text or JSON) of `spvi compare`,
 * `spvi run --expect` and `spvi test`. The rules are docs/cli.md's "spvi compare".
 */
#include "cli_compare.h"

#include "cli_args.h"
#include "cli_npy.h"
#include "cli_num.h"
#include "cli_print.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { CMP_EXIT_EQUAL = 0, CMP_EXIT_DIFFER = 1, CMP_EXIT_BAD = 2 };
#define CMP_MAX_LEAVES 4096 /* fields of a structured dtype after flattening */

/* ---- options ---------------------------------------------------------------------------------- */

static const struct {
  const char *name;
  bool takes_value;
} cmp_options[] = {
  {"--ulp", true},         /* N: ordered-bit-pattern distance (integers: |a-b|) */
  {"--abs", true},         /* X: absolute difference */
  {"--rel", true},         /* X: difference relative to the expected value */
  {"--tol", true},         /* NAME:KEY=V[,KEY=V...]: one file's own tolerance */
  {"--nan-exact", false},  /* NaNs equal only bit for bit */
  {"--signed-zero", false} /* -0.0 differs from +0.0 */
};

bool cli_cmp_is_option(const char *opt, bool *takes_value) {
  for (size_t i = 0; i < sizeof cmp_options / sizeof cmp_options[0]; i++)
    if (strcmp(opt, cmp_options[i].name) == 0) {
      *takes_value = cmp_options[i].takes_value;
      return true;
    }
  return false;
}

/* A finite, non-negative bound. */
static bool cmp_bound(const char *what, const char *s, size_t len, double *out, cli_error *e) {
  char buf[64];
  if (len == 0 || len >= sizeof buf) return cli_fail(e, "%s: expects a number, got `%.*s`", what, (int)len, s);
  memcpy(buf, s, len);
  buf[len] = 0;
  char *end;
  errno = 0;
  double v = strtod(buf, &end);
  if (*end || errno || !isfinite(v) || v < 0)
    return cli_fail(e, "%s: expects a finite number >= 0, got `%s`", what, buf);
  *out = v;
  return true;
}

static bool cmp_count(const char *what, const char *s, size_t len, uint64_t *out, cli_error *e) {
  cli_int v;
  cli_error inner;
  if (!cli_int_parse(s, len, "a count", &v, &inner) || v.neg)
    return cli_fail(e, "%s: expects a whole number of ULPs >= 0, got `%.*s`", what, (int)len, s);
  *out = v.mag;
  return true;
}

/* One KEY=V of a tolerance. */
static bool cmp_tol_item(const char *s, size_t len, const char *what, cli_tol *t, cli_error *e) {
  const char *eq = memchr(s, '=', len);
  size_t klen = eq ? (size_t)(eq - s) : len;
  const char *v = eq ? eq + 1 : s + len;
  size_t vlen = eq ? len - klen - 1 : 0;
  char w[160];
  snprintf(w, sizeof w, "%.100s `%.*s`", what, (int)(klen < 40 ? klen : 40), s); /* a key is 3 letters */
  if (eq && klen == 3 && memcmp(s, "ulp", 3) == 0) return (t->has_ulp = cmp_count(w, v, vlen, &t->ulp, e));
  if (eq && klen == 3 && memcmp(s, "abs", 3) == 0) return (t->has_abs = cmp_bound(w, v, vlen, &t->abs, e));
  if (eq && klen == 3 && memcmp(s, "rel", 3) == 0) return (t->has_rel = cmp_bound(w, v, vlen, &t->rel, e));
  return cli_fail(e, "%s: `%.*s` is not ulp=N, abs=X or rel=X", what, (int)len, s);
}

/* KEY=V[,KEY=V...] (KEY ulp, abs or rel) into *t; `what` names it in messages. */
static bool cmp_tol_parse(const char *text, const char *what, cli_tol *t, cli_error *e) {
  const char *p = text;
  for (;;) {
    size_t len = strcspn(p, ",");
    if (!cmp_tol_item(p, len, what, t, e)) return false;
    if (!p[len]) return true;
    p += len + 1;
  }
}

bool cli_cmp_option(cli_cmp_opts *o, const char *opt, const char *value, cli_error *e) {
  if (strcmp(opt, "--nan-exact") == 0) return (o->nan_exact = true);
  if (strcmp(opt, "--signed-zero") == 0) return (o->signed_zero = true);
  size_t len = strlen(value);
  if (strcmp(opt, "--ulp") == 0) return (o->tol.has_ulp = cmp_count(opt, value, len, &o->tol.ulp, e));
  if (strcmp(opt, "--abs") == 0) return (o->tol.has_abs = cmp_bound(opt, value, len, &o->tol.abs, e));
  if (strcmp(opt, "--rel") == 0) return (o->tol.has_rel = cmp_bound(opt, value, len, &o->tol.rel, e));
  /* --tol NAME:KEY=V[,KEY=V...] */
  const char *colon = strchr(value, ':');
  if (!colon || colon == value || !colon[1])
    return cli_fail(e, "--tol `%s`: expects NAME:KEY=V[,KEY=V...], e.g. arg2:ulp=4 (NAME: the file name without .npy)",
                    value);
  size_t nlen = (size_t)(colon - value);
  for (int i = 0; i < o->nper; i++)
    if (o->per[i].name_len == nlen && memcmp(o->per[i].name, value, nlen) == 0)
      return cli_fail(e, "--tol `%s`: `%.*s` has a --tol already", value, (int)nlen, value);
  cli_tol_arg *per = realloc(o->per, sizeof *per * (size_t)(o->nper + 1));
  if (!per) return cli_fail(e, "out of memory");
  o->per = per;
  cli_tol_arg *a = &per[o->nper];
  memset(a, 0, sizeof *a);
  a->name = value;
  a->name_len = nlen;
  char what[160];
  snprintf(what, sizeof what, "--tol `%.*s`", (int)(nlen < 90 ? nlen : 90), value);
  if (!cmp_tol_parse(colon + 1, what, &a->tol, e)) return false;
  o->nper++;
  return true;
}

void cli_cmp_opts_free(cli_cmp_opts *o) {
  free(o->per);
  o->per = NULL;
  o->nper = 0;
}

bool cli_cmp_check_tols(const cli_cmp_opts *o) {
  for (int i = 0; i < o->nper; i++)
    if (!o->per[i].used) {
      cli_say_error("--tol `%.*s`: no file `%.*s.npy` was compared", (int)o->per[i].name_len, o->per[i].name,
                    (int)o->per[i].name_len, o->per[i].name);
      return false;
    }
  return true;
}

static const cli_tol *cmp_tol_for(cli_cmp_opts *o, const char *name) {
  for (int i = 0; i < o->nper; i++)
    if (strlen(name) == o->per[i].name_len && memcmp(name, o->per[i].name, o->per[i].name_len) == 0) {
      o->per[i].used = true;
      return &o->per[i].tol;
    }
  return &o->tol;
}

/* ---- dtypes: numpy's descr (numpy.lib.format): '<f4', or a list of (name, descr[, shape]) ------ */

/* One scalar field after flattening: `count` elements of type t from `offset` in every item. */
typedef struct cmp_leaf {
  char name[128]; /* "" for a simple dtype, "pos", "a.b" for nested structs */
  size_t offset, count;
  const cli_scalar *t;
} cmp_leaf;

typedef struct cmp_dtype {
  cmp_leaf *leaves;
  size_t nleaves, itemsize;
  bool structured;
} cmp_dtype;

typedef struct cmp_lex {
  const char *s;
  size_t pos, len;
} cmp_lex;

static bool lex_is(cmp_lex *x, char c) {
  while (x->pos < x->len && (x->s[x->pos] == ' ' || x->s[x->pos] == '\n' || x->s[x->pos] == '\t')) x->pos++;
  if (x->pos < x->len && x->s[x->pos] == c) {
    x->pos++;
    return true;
  }
  return false;
}

static bool lex_str(cmp_lex *x, char *out, size_t cap) {
  lex_is(x, ' ');
  if (x->pos >= x->len || (x->s[x->pos] != '\'' && x->s[x->pos] != '"')) return false;
  char q = x->s[x->pos++];
  size_t start = x->pos;
  while (x->pos < x->len && x->s[x->pos] != q && x->s[x->pos] != '\\') x->pos++;
  if (x->pos >= x->len || x->s[x->pos] != q || x->pos - start >= cap) return false;
  memcpy(out, x->s + start, x->pos - start);
  out[x->pos - start] = 0;
  x->pos++;
  return true;
}

/* A subarray shape `(2, 3)` or `2`: the product of its sizes. */
static bool lex_shape(cmp_lex *x, size_t *count) {
  bool tuple = lex_is(x, '(');
  *count = 1;
  for (;;) {
    if (tuple && lex_is(x, ')')) return true;
    size_t v = 0, digits = 0;
    while (x->pos < x->len && x->s[x->pos] >= '0' && x->s[x->pos] <= '9' && v < ((size_t)1 << 40)) {
      v = v * 10 + (size_t)(x->s[x->pos++] - '0');
      digits++;
    }
    if (!digits || v >= ((size_t)1 << 40) || (v && *count > ((size_t)1 << 40) / v)) return false;
    *count *= v;
    if (!tuple) return true;
    if (!lex_is(x, ',')) return lex_is(x, ')');
  }
}

/* '<f4' → the scalar type; '|V4' (padding, when unnamed) → NULL with its size. Big-endian and
 * other kinds (complex, strings, objects) are refused. */
static bool dtype_scalar(const char *d, const cli_scalar **t, size_t *size, cli_error *e) {
  char order = d[0], kind = d[0] ? d[1] : 0;
  size_t n = cli_npy_itemsize(d);
  *t = NULL;
  *size = n;
  if (kind == 'V' && n) return true;
  if (order == '>' && n > 1) return cli_fail(e, "big-endian dtype '%s' (spvi compares little-endian files)", d);
  char canon[8];
  snprintf(canon, sizeof canon, "%c%c%zu", n == 1 ? '|' : '<', kind == 'b' ? 'u' : kind, n);
  for (size_t i = 0; i < cli_scalar_count && (order == '<' || order == '|' || order == '='); i++)
    if (strcmp(cli_scalars[i].npy, canon) == 0) {
      *t = &cli_scalars[i];
      return true;
    }
  return cli_fail(e, "unsupported dtype '%s' (integers, bool, float16/32/64)", d);
}

static bool dtype_add(cmp_dtype *dt, const char *name, size_t offset, size_t count, const cli_scalar *t, cli_error *e) {
  if (dt->nleaves == CMP_MAX_LEAVES) return cli_fail(e, "more than %d fields in the structured dtype", CMP_MAX_LEAVES);
  cmp_leaf *l = &dt->leaves[dt->nleaves++];
  snprintf(l->name, sizeof l->name, "%s", name);
  l->offset = offset;
  l->count = count;
  l->t = t;
  return true;
}

static bool dtype_list(cmp_lex *x, cmp_dtype *dt, const char *prefix, size_t base, size_t *size, cli_error *e);

/* Leaves [first, first+n) describe element 0 of the subarray `full` of `count` items of `size`
 * bytes: adds elements 1.. and names them all `full[k].rest`. */
static bool dtype_repeat(cmp_dtype *dt, const char *full, size_t first, size_t count, size_t size, cli_error *e) {
  size_t n = dt->nleaves - first, fl = strlen(full);
  for (size_t k = 1; k < count; k++)
    for (size_t i = 0; i < n; i++) {
      cmp_leaf src = dt->leaves[first + i];
      char nm[sizeof src.name];
      if (snprintf(nm, sizeof nm, "%s[%zu]%s", full, k, src.name + fl) >= (int)sizeof nm)
        return cli_fail(e, "field `%s`: its names are longer than %zu bytes", full, sizeof nm - 1);
      if (!dtype_add(dt, nm, src.offset + k * size, src.count, src.t, e)) return false;
    }
  for (size_t i = 0; i < n; i++) {
    cmp_leaf *l = &dt->leaves[first + i];
    char nm[sizeof l->name];
    if (snprintf(nm, sizeof nm, "%s[0]%s", full, l->name + fl) >= (int)sizeof nm)
      return cli_fail(e, "field `%s`: its names are longer than %zu bytes", full, sizeof nm - 1);
    memcpy(l->name, nm, sizeof nm);
  }
  return true;
}

/* One (name, descr[, shape]) entry at base + *off within the item; advances *off past it. */
static bool dtype_field(cmp_lex *x, cmp_dtype *dt, const char *prefix, size_t base, size_t *off, cli_error *e) {
  char name[96], d[32], full[128];
  if (!lex_is(x, '(') || !lex_str(x, name, sizeof name) || !lex_is(x, ','))
    return cli_fail(e, "a structured dtype's field is not (name, dtype[, shape])");
  if (snprintf(full, sizeof full, "%s%s%s", prefix, prefix[0] ? "." : "", name) >= (int)sizeof full)
    return cli_fail(e, "field `%s`: its name is longer than %zu bytes", name, sizeof full - 1);
  size_t at = x->pos, size = 0, count = 1, first = dt->nleaves;
  const cli_scalar *t = NULL;
  bool nested = lex_is(x, '[');
  if (nested) {
    x->pos = at;
    if (!dtype_list(x, dt, full, base + *off, &size, e)) return false;
  } else if (!lex_str(x, d, sizeof d)) {
    return cli_fail(e, "field `%s`: expected a dtype string", full);
  } else if (!dtype_scalar(d, &t, &size, e)) {
    return false;
  }
  if (lex_is(x, ',') && !lex_is(x, ')')) {
    if (!lex_shape(x, &count)) return cli_fail(e, "field `%s`: bad subarray shape", full);
    lex_is(x, ',');
    if (!lex_is(x, ')')) return cli_fail(e, "field `%s`: expected `)`", full);
  } else if (x->s[x->pos - 1] != ')' && !lex_is(x, ')')) {
    return cli_fail(e, "field `%s`: expected `)`", full);
  }
  if (nested && count > 1 && !dtype_repeat(dt, full, first, count, size, e)) return false;
  if (!nested && t && !dtype_add(dt, full, base + *off, count, t, e)) return false;
  /* a void field is padding when unnamed (numpy names it ''); a named one holds no numbers */
  if (!nested && !t && name[0]) return cli_fail(e, "field `%s`: a void dtype (spvi compares numbers)", full);
  if (size && count > SIZE_MAX / size) return cli_fail(e, "field `%s`: too large", full);
  *off += size * count;
  return true;
}

/* [field, field, ...] starting at `base`; *size: the bytes the fields take. */
static bool dtype_list(cmp_lex *x, cmp_dtype *dt, const char *prefix, size_t base, size_t *size, cli_error *e) {
  if (!lex_is(x, '[')) return cli_fail(e, "expected `[` starting a structured dtype");
  size_t off = 0;
  while (!lex_is(x, ']')) {
    if (!dtype_field(x, dt, prefix, base, &off, e)) return false;
    if (!lex_is(x, ',') && !(x->pos < x->len && x->s[x->pos] == ']'))
      return cli_fail(e, "expected `,` or `]` in a structured dtype");
  }
  *size = off;
  return true;
}

/* ---- files ------------------------------------------------------------------------------------ */

typedef struct cmp_array {
  unsigned char *file; /* the whole file */
  size_t size;
  cli_npy h;
  cmp_dtype dt;
  size_t items; /* records */
  const unsigned char *data;
  char descr[256]; /* as the header spells it, for messages (cut when longer) */
} cmp_array;

static void cmp_array_free(cmp_array *a) {
  free(a->file);
  free(a->dt.leaves);
  memset(a, 0, sizeof *a);
}

/* The value of the header's 'descr' key: [at, at+len) of the dict text. */
static bool descr_span(const char *dict, size_t n, size_t *at, size_t *len) {
  for (size_t i = 0; i + 7 <= n; i++) {
    if ((dict[i] != '\'' && dict[i] != '"') || memcmp(dict + i + 1, "descr", 5) != 0 || dict[i + 6] != dict[i])
      continue;
    cmp_lex x = {dict, i + 7, n};
    if (!lex_is(&x, ':')) return false;
    lex_is(&x, ' ');
    *at = x.pos;
    int depth = 0;
    char q = 0;
    for (; x.pos < n; x.pos++) {
      char c = dict[x.pos];
      if (q) q = c == q ? 0 : q;
      else if (c == '\'' || c == '"') q = c;
      else if (c == '[' || c == '(') depth++;
      else if (c == ']' || c == ')') depth--;
      else if (depth == 0 && (c == ',' || c == '}')) break;
      if (depth == 0 && !q && c == ']') {
        x.pos++;
        break;
      }
    }
    *len = x.pos - *at;
    return true;
  }
  return false;
}

/* A structured dtype: parses the list, then lets cli_npy_parse check the rest of the header and
 * the data size with the list replaced by a void dtype of the item's size ('|V12'). */
static bool cmp_parse_structured(cmp_array *a, size_t prefix, size_t hlen, size_t at, size_t len, const char *path,
                                 cli_error *e) {
  const char *dict = (const char *)a->file + prefix;
  cmp_lex x = {dict, at, at + len};
  a->dt.structured = true;
  if (!dtype_list(&x, &a->dt, "", 0, &a->dt.itemsize, e)) {
    cli_error inner = *e;
    return cli_fail(e, "`%s`: bad structured dtype: %s", path, inner.msg);
  }
  if (a->dt.itemsize == 0) return cli_fail(e, "`%s`: a structured dtype of 0 bytes", path);
  size_t body = a->size - prefix - hlen;
  char v[32];
  int vl = snprintf(v, sizeof v, "'|V%zu'", a->dt.itemsize);
  size_t nhl = hlen - len + (size_t)vl;
  unsigned char *copy = malloc(12 + nhl + body);
  if (!copy) return cli_fail(e, "out of memory");
  memcpy(copy, a->file, 6);
  copy[6] = 2; /* version 2.0: a 4-byte header length */
  copy[7] = 0;
  for (int k = 0; k < 4; k++) copy[8 + k] = (unsigned char)(nhl >> (8 * k));
  memcpy(copy + 12, dict, at);
  memcpy(copy + 12 + at, v, (size_t)vl);
  memcpy(copy + 12 + at + (size_t)vl, dict + at + len, hlen - at - len + body);
  bool ok = cli_npy_parse(copy, 12 + nhl + body, path, &a->h, e);
  free(copy);
  a->h.data_offset = prefix + hlen;
  return ok;
}

/* Reads and parses an .npy file: regular files only (a FIFO or /dev/zero is refused, not read
 * without end). */
static bool cmp_load(const char *path, cmp_array *a, cli_error *e) {
  memset(a, 0, sizeof *a);
  struct stat st;
  if (stat(path, &st) != 0) return cli_fail(e, "cannot read `%s`: %s", path, strerror(errno));
  if (!S_ISREG(st.st_mode)) return cli_fail(e, "`%s` is not a regular file", path);
  if (!cli_read_file(path, (size_t)st.st_size, "the file grew while it was read", &a->file, &a->size, e)) return false;
  a->dt.leaves = calloc(CMP_MAX_LEAVES, sizeof *a->dt.leaves);
  if (!a->dt.leaves) return cli_fail(e, "out of memory");
  if (!cli_npy_has_magic(a->file, a->size) || a->size < 12)
    return cli_fail(e, "`%s` is not an .npy file (no \\x93NUMPY magic)", path);
  size_t prefix = a->file[6] == 1 ? 10 : 12;
  size_t hlen = prefix == 10 ? (size_t)a->file[8] | (size_t)a->file[9] << 8
                             : (size_t)a->file[8] | (size_t)a->file[9] << 8 | (size_t)a->file[10] << 16 |
                                 (size_t)a->file[11] << 24;
  size_t at = 0, len = 0;
  const char *dict = (const char *)a->file + prefix;
  bool list = hlen <= a->size - prefix && descr_span(dict, hlen, &at, &len) && len && dict[at] == '[';
  if (hlen <= a->size - prefix) snprintf(a->descr, sizeof a->descr, "%.*s", (int)(len < 200 ? len : 200), dict + at);
  if (list) {
    if (!cmp_parse_structured(a, prefix, hlen, at, len, path, e)) return false;
  } else {
    if (!cli_npy_parse(a->file, a->size, path, &a->h, e)) return false;
    size_t size;
    const cli_scalar *t;
    bool known = dtype_scalar(a->h.descr, &t, &size, e);
    if (!known || !t) {
      cli_error inner = *e;
      return cli_fail(e, "`%s`: %s", path, known ? "a void dtype (spvi compares numbers)" : inner.msg);
    }
    a->dt.itemsize = size;
    dtype_add(&a->dt, "", 0, 1, t, e);
    snprintf(a->descr, sizeof a->descr, "%s", a->h.descr);
  }
  a->items = 1;
  for (unsigned i = 0; i < a->h.ndim; i++) a->items *= a->h.shape[i];
  a->data = a->file + a->h.data_offset;
  return true;
}

/* ---- elements --------------------------------------------------------------------------------- */

/* One element compared: its bits, and how far apart they are. */
typedef struct cmp_diff {
  uint64_t eb, ob; /* expected and output bits */
  uint64_t ulp;    /* floats: steps between the ordered bit patterns; integers |a-b| */
  double abs;      /* |a-b| (infinity when it overflows double) */
  bool nan;        /* one side NaN, or both with --nan-exact: no distance */
  bool pass;
} cmp_diff;

static bool cmp_is_nan(const cli_scalar *t, uint64_t b) {
  unsigned mant = t->bits == 16 ? 10 : t->bits == 32 ? 23 : 52;
  uint64_t exp_mask = ((UINT64_C(1) << (t->bits - 1 - mant)) - 1) << mant;
  return (b & exp_mask) == exp_mask && (b & ((UINT64_C(1) << mant) - 1)) != 0;
}

/* IEEE 754-2019 section 5.10's total order without the sign of zero and NaN: the bit pattern as a
 * sign-magnitude integer, so that adjacent floats (subnormals included, across zero) differ by 1
 * and -0.0 and +0.0 are both 0. */
static int64_t cmp_ordered(const cli_scalar *t, uint64_t b) {
  uint64_t sign = UINT64_C(1) << (t->bits - 1);
  return b & sign ? -(int64_t)(b & ~sign) : (int64_t)b;
}

static int64_t cmp_sext(const cli_scalar *t, uint64_t b) {
  if (t->bits == 64) return (int64_t)b;
  uint64_t sign = UINT64_C(1) << (t->bits - 1);
  return (int64_t)((b ^ sign) - sign);
}

/* Within ANY of the given bounds. */
static bool cmp_within(const cli_tol *t, uint64_t ulp, long double ad, long double mag_expected) {
  return (t->has_ulp && ulp <= t->ulp) || (t->has_abs && ad <= (long double)t->abs) ||
         (t->has_rel && ad <= (long double)t->rel * mag_expected);
}

static void cmp_value(const cli_scalar *t, uint64_t eb, uint64_t ob, const cli_tol *tol, const cli_cmp_opts *o,
                      cmp_diff *d) {
  memset(d, 0, sizeof *d);
  d->eb = eb;
  d->ob = ob;
  d->pass = true;
  if (eb == ob) return;
  if (t->kind != CLI_FLOAT) {
    /* |a-b| exactly, modulo 2^64 being enough: the true difference is below 2^64 */
    int64_t a = cmp_sext(t, eb), b = cmp_sext(t, ob);
    bool s = t->kind == CLI_SINT;
    uint64_t diff = s ? (a >= b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a) : eb > ob ? eb - ob : ob - eb;
    uint64_t mag = s && a < 0 ? (uint64_t)0 - (uint64_t)a : s ? (uint64_t)a : eb;
    d->ulp = diff;
    d->abs = (double)diff;
    d->pass = cmp_within(tol, diff, (long double)diff, (long double)mag);
    return;
  }
  bool en = cmp_is_nan(t, eb), on = cmp_is_nan(t, ob);
  if (en || on) {
    d->nan = true;
    d->pass = en && on && !o->nan_exact;
    return;
  }
  long double ve = cli_float_to_double(t, eb), vo = cli_float_to_double(t, ob);
  if (ve == vo) { /* -0.0 and +0.0: the only equal values with different bits */
    d->pass = !o->signed_zero;
    return;
  }
  int64_t a = cmp_ordered(t, eb), b = cmp_ordered(t, ob);
  d->ulp = a >= b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
  long double ad = fabsl(ve - vo);
  d->abs = (double)ad;
  d->pass = cmp_within(tol, d->ulp, ad, fabsl(ve));
}

/* A mismatch's rank for "worst": NaN mismatches first, then the larger distance. */
static bool cmp_worse(const cmp_diff *a, const cmp_diff *b) {
  if (a->nan != b->nan) return a->nan;
  return a->ulp > b->ulp;
}

/* Where one element is: record, leaf, index within the leaf's subarray. */
typedef struct cmp_where {
  size_t rec, j;
  const cmp_leaf *leaf;
  cmp_diff d;
} cmp_where;

typedef struct cmp_result {
  size_t elements, mismatches, within; /* within: differing bits that the tolerance accepts */
  uint64_t max_ulp;                    /* over differing elements with a distance */
  double max_abs;
  bool any_nan; /* a NaN mismatch (no distance) */
  cmp_where first, worst;
} cmp_result;

static void cmp_unravel(const cmp_array *a, size_t rec, size_t idx[CLI_NPY_MAX_DIMS]) {
  size_t n = a->h.ndim;
  for (size_t k = 0; k < n; k++) {
    size_t d = a->h.fortran_order ? k : n - 1 - k; /* the fastest-varying dimension first */
    idx[d] = a->h.shape[d] ? rec % a->h.shape[d] : 0;
    rec = a->h.shape[d] ? rec / a->h.shape[d] : 0;
  }
}

/* The record of `oa` at the index of record `rec` of `ea`: the same unless one file is in C order
 * and the other in Fortran order. */
static size_t cmp_counterpart(const cmp_array *ea, const cmp_array *oa, size_t rec) {
  if (ea->h.fortran_order == oa->h.fortran_order || ea->h.ndim < 2) return rec;
  size_t idx[CLI_NPY_MAX_DIMS], n = oa->h.ndim, out = 0;
  cmp_unravel(ea, rec, idx);
  for (size_t k = 0; k < n; k++) {
    size_t d = oa->h.fortran_order ? n - 1 - k : k; /* the slowest-varying dimension first */
    out = out * oa->h.shape[d] + idx[d];
  }
  return out;
}

static void cmp_arrays(const cmp_array *ea, const cmp_array *oa, const cli_tol *tol, const cli_cmp_opts *o,
                       cmp_result *r) {
  memset(r, 0, sizeof *r);
  for (size_t rec = 0; rec < ea->items; rec++)
    for (size_t l = 0, orec = cmp_counterpart(ea, oa, rec); l < ea->dt.nleaves; l++) {
      const cmp_leaf *lf = &ea->dt.leaves[l];
      unsigned es = lf->t->bits / 8;
      for (size_t j = 0; j < lf->count; j++) {
        size_t at = lf->offset + j * es;
        cmp_where w = {rec, j, lf, {0}};
        cmp_value(lf->t, cli_load_le(ea->data + rec * ea->dt.itemsize + at, es),
                  cli_load_le(oa->data + orec * ea->dt.itemsize + at, es), tol, o, &w.d);
        r->elements++;
        if (w.d.eb == w.d.ob) continue;
        if (w.d.nan) r->any_nan |= !w.d.pass;
        else {
          if (w.d.ulp > r->max_ulp) r->max_ulp = w.d.ulp;
          if (w.d.abs > r->max_abs) r->max_abs = w.d.abs;
        }
        if (w.d.pass) {
          r->within++;
          continue;
        }
        if (r->mismatches++ == 0) r->first = r->worst = w;
        else if (cmp_worse(&w.d, &r->worst.d)) r->worst = w;
      }
    }
}

/* "[3,17].pos[1]": the record's index in the file's shape (C or Fortran order), the field, the
 * subarray element. */
static const char *cmp_index(const cmp_array *a, const cmp_where *w, char *buf, size_t cap) {
  size_t idx[CLI_NPY_MAX_DIMS], n = a->h.ndim;
  cmp_unravel(a, w->rec, idx);
  size_t len = (size_t)snprintf(buf, cap, "[");
  for (size_t k = 0; k < n && len < cap; k++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%zu", k ? "," : "", idx[k]);
  if (len < cap) len += (size_t)snprintf(buf + len, cap - len, "]%s%s", w->leaf->name[0] ? "." : "", w->leaf->name);
  if (len < cap && w->leaf->count > 1) snprintf(buf + len, cap - len, "[%zu]", w->j);
  return buf;
}

/* A value as --print spells it, with its bits when that spelling hides them (NaN payloads). */
static const char *cmp_value_str(const cli_scalar *t, uint64_t bits, uint64_t other, char *buf, size_t cap) {
  char a[48], b[48];
  cli_format_component(t, bits, a, sizeof a);
  cli_format_component(t, other, b, sizeof b);
  if (t->kind == CLI_FLOAT && strcmp(a, b) == 0)
    snprintf(buf, cap, "%s (0x%0*llx)", a, (int)t->bits / 4, (unsigned long long)bits);
  else snprintf(buf, cap, "%s", a);
  return buf;
}

/* ---- summaries -------------------------------------------------------------------------------- */

void cli_cmp_sink_begin(cli_cmp_sink *s, FILE *f, bool json) {
  memset(s, 0, sizeof *s);
  s->f = f;
  s->json = json;
  if (json) s->files = cJSON_CreateArray();
}

static const char *status_names[] = {"equal", "differ", "error"};

void cli_cmp_sink_end(cli_cmp_sink *s, cli_cmp_status overall) {
  if (s->json) {
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "status", status_names[overall]);
    cJSON_AddNumberToObject(doc, "compared", s->nfiles);
    cJSON_AddNumberToObject(doc, "differ", s->ndiffer);
    cJSON_AddNumberToObject(doc, "errors", s->nerror);
    cJSON_AddItemToObject(doc, "files", s->files);
    char *text = cJSON_PrintUnformatted(doc);
    if (text) fprintf(s->f, "%s\n", text);
    free(text);
    cJSON_Delete(doc);
    s->files = NULL;
  } else if (overall != CLI_CMP_ERROR || s->nfiles) {
    if (s->ndiffer || s->nerror)
      fprintf(s->f, "compare: %d of %d files differ%s\n", s->ndiffer + s->nerror, s->nfiles,
              s->nerror ? " or could not be compared" : "");
    else fprintf(s->f, "compare: %d file%s equal\n", s->nfiles, s->nfiles == 1 ? "" : "s");
  }
}

static cJSON *json_where(const cmp_array *a, const cmp_where *w) {
  char idx[256], v[96];
  cJSON *o = cJSON_CreateObject(), *ix = cJSON_CreateArray();
  size_t n = a->h.ndim, id[CLI_NPY_MAX_DIMS];
  cmp_unravel(a, w->rec, id);
  for (size_t k = 0; k < n; k++) cJSON_AddItemToArray(ix, cJSON_CreateNumber((double)id[k]));
  cJSON_AddItemToObject(o, "index", ix);
  cJSON_AddStringToObject(o, "at", cmp_index(a, w, idx, sizeof idx));
  if (w->leaf->name[0]) cJSON_AddStringToObject(o, "field", w->leaf->name);
  else cJSON_AddNullToObject(o, "field");
  cJSON_AddStringToObject(o, "expected", cmp_value_str(w->leaf->t, w->d.eb, w->d.ob, v, sizeof v));
  cJSON_AddStringToObject(o, "actual", cmp_value_str(w->leaf->t, w->d.ob, w->d.eb, v, sizeof v));
  if (w->d.nan || !isfinite(w->d.abs)) {
    if (w->d.nan) cJSON_AddNullToObject(o, "ulp");
    else cJSON_AddNumberToObject(o, "ulp", (double)w->d.ulp);
    cJSON_AddNullToObject(o, "abs");
  } else {
    cJSON_AddNumberToObject(o, "ulp", (double)w->d.ulp);
    cJSON_AddNumberToObject(o, "abs", w->d.abs);
  }
  return o;
}

static void text_where(FILE *f, const char *label, const cmp_array *a, const cmp_where *w) {
  char idx[256], ev[96], ov[96];
  fprintf(f, "  %s %s: expected %s, got %s", label, cmp_index(a, w, idx, sizeof idx),
          cmp_value_str(w->leaf->t, w->d.eb, w->d.ob, ev, sizeof ev),
          cmp_value_str(w->leaf->t, w->d.ob, w->d.eb, ov, sizeof ov));
  if (w->d.nan) fprintf(f, " (NaN)\n");
  else if (w->d.ulp == 0) fprintf(f, " (signed zero)\n");
  else if (w->leaf->t->kind != CLI_FLOAT) fprintf(f, " (diff %llu)\n", (unsigned long long)w->d.ulp);
  else fprintf(f, " (%llu ulp, abs diff %.3g)\n", (unsigned long long)w->d.ulp, w->d.abs);
}

/* The block (text) or object (JSON) of one file. `msg` non-NULL: it could not be compared
 * element-wise (missing, other dtype or shape, unreadable); r and ea may then be NULL. */
static void cmp_emit(cli_cmp_sink *s, const char *name, const char *exp_path, const char *out_path, cli_cmp_status st,
                     const char *msg, const cmp_array *ea, const cmp_result *r) {
  s->nfiles++;
  s->ndiffer += st == CLI_CMP_DIFFER;
  s->nerror += st == CLI_CMP_ERROR;
  bool ints = ea && ea->dt.nleaves && ea->dt.leaves[0].t->kind != CLI_FLOAT && ea->dt.nleaves == 1;
  if (!s->json) {
    if (msg) fprintf(s->f, "%s: %s\n", name, msg);
    else if (st == CLI_CMP_EQUAL && !r->within) fprintf(s->f, "%s: equal (%zu elements)\n", name, r->elements);
    else if (st == CLI_CMP_EQUAL && ints)
      fprintf(s->f, "%s: equal within the tolerance (%zu elements, %zu differ by at most %llu)\n", name, r->elements,
              r->within, (unsigned long long)r->max_ulp);
    else if (st == CLI_CMP_EQUAL)
      fprintf(s->f, "%s: equal within the tolerance (%zu elements, %zu differ by at most %llu ulp, abs %.3g)\n", name,
              r->elements, r->within, (unsigned long long)r->max_ulp, r->max_abs);
    else {
      fprintf(s->f, "%s: %zu of %zu elements differ", name, r->mismatches, r->elements);
      if (r->max_ulp || r->max_abs > 0)
        fprintf(s->f, " (max %s %llu, max abs diff %.3g%s)", ints ? "diff" : "ulp", (unsigned long long)r->max_ulp,
                r->max_abs, r->any_nan ? ", and NaN mismatches" : "");
      else if (r->any_nan) fprintf(s->f, " (NaN mismatches)");
      fputc('\n', s->f);
      text_where(s->f, "first", ea, &r->first);
      if (r->mismatches > 1) text_where(s->f, "worst", ea, &r->worst);
    }
    return;
  }
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", name);
  cJSON_AddStringToObject(o, "status", status_names[st]);
  if (exp_path) cJSON_AddStringToObject(o, "expected", exp_path);
  else cJSON_AddNullToObject(o, "expected");
  if (out_path) cJSON_AddStringToObject(o, "output", out_path);
  else cJSON_AddNullToObject(o, "output");
  if (msg) cJSON_AddStringToObject(o, "message", msg);
  else cJSON_AddNullToObject(o, "message");
  if (r) {
    cJSON *shape = cJSON_CreateArray();
    for (unsigned k = 0; k < ea->h.ndim; k++) cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)ea->h.shape[k]));
    cJSON_AddStringToObject(o, "dtype", ea->descr);
    cJSON_AddItemToObject(o, "shape", shape);
    cJSON_AddNumberToObject(o, "elements", (double)r->elements);
    cJSON_AddNumberToObject(o, "mismatches", (double)r->mismatches);
    cJSON_AddNumberToObject(o, "within_tolerance", (double)r->within);
    cJSON_AddNumberToObject(o, "max_ulp", (double)r->max_ulp);
    if (isfinite(r->max_abs)) cJSON_AddNumberToObject(o, "max_abs", r->max_abs);
    else cJSON_AddNullToObject(o, "max_abs");
    cJSON_AddBoolToObject(o, "nan_mismatch", r->any_nan);
    cJSON_AddItemToObject(o, "first", r->mismatches ? json_where(ea, &r->first) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "worst", r->mismatches ? json_where(ea, &r->worst) : cJSON_CreateNull());
  }
  cJSON_AddItemToArray(s->files, o);
}

/* ---- comparing -------------------------------------------------------------------------------- */

/* Same leaves (names, offsets, types, counts) and item size. */
static bool cmp_same_dtype(const cmp_dtype *a, const cmp_dtype *b) {
  if (a->itemsize != b->itemsize || a->nleaves != b->nleaves || a->structured != b->structured) return false;
  for (size_t i = 0; i < a->nleaves; i++)
    if (strcmp(a->leaves[i].name, b->leaves[i].name) || a->leaves[i].offset != b->leaves[i].offset ||
        a->leaves[i].t != b->leaves[i].t || a->leaves[i].count != b->leaves[i].count)
      return false;
  return true;
}

static const char *cmp_shape_str(const cli_npy *h, char *buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "(");
  for (unsigned k = 0; k < h->ndim && len < cap; k++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%zu", k ? ", " : "", h->shape[k]);
  if (len < cap) snprintf(buf + len, cap - len, "%s)", h->ndim == 1 ? "," : "");
  return buf;
}

cli_cmp_status cli_compare_files(const char *expected, const char *output, const char *name, const cli_tol *tol,
                                 cli_cmp_opts *o, cli_cmp_sink *s) {
  cmp_array ea, oa;
  memset(&oa, 0, sizeof oa); /* freed even when the expected file fails to load */
  cli_error e;
  char msg[1400];
  if (!tol) tol = cmp_tol_for(o, name);
  cli_cmp_status st = CLI_CMP_ERROR;
  if (!cmp_load(expected, &ea, &e) || !cmp_load(output, &oa, &e)) {
    cmp_emit(s, name, expected, output, st, e.msg, NULL, NULL);
  } else if (!cmp_same_dtype(&ea.dt, &oa.dt)) {
    snprintf(msg, sizeof msg, "the dtypes differ: expected %s, output %s", ea.descr, oa.descr);
    cmp_emit(s, name, expected, output, st = CLI_CMP_DIFFER, msg, NULL, NULL);
  } else if (ea.h.ndim != oa.h.ndim || memcmp(ea.h.shape, oa.h.shape, sizeof *ea.h.shape * ea.h.ndim)) {
    char a[160], b[160];
    snprintf(msg, sizeof msg, "the shapes differ: expected %s, output %s", cmp_shape_str(&ea.h, a, sizeof a),
             cmp_shape_str(&oa.h, b, sizeof b));
    cmp_emit(s, name, expected, output, st = CLI_CMP_DIFFER, msg, NULL, NULL);
  } else {
    cmp_result r;
    cmp_arrays(&ea, &oa, tol, o, &r);
    st = r.mismatches ? CLI_CMP_DIFFER : CLI_CMP_EQUAL;
    cmp_emit(s, name, expected, output, st, NULL, &ea, &r);
  }
  cmp_array_free(&ea);
  cmp_array_free(&oa);
  return st;
}

static cli_cmp_status cmp_worst(cli_cmp_status a, cli_cmp_status b) { return a > b ? a : b; }

/* Names compare with their digit runs as numbers: arg2 before arg10. */
static int cmp_natural(const void *pa, const void *pb) {
  const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
  while (*a && *b) {
    if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
      char *ea, *eb;
      unsigned long long x = strtoull(a, &ea, 10), y = strtoull(b, &eb, 10);
      if (x != y) return x < y ? -1 : 1;
      a = ea;
      b = eb;
    } else if (*a != *b) {
      return (unsigned char)*a - (unsigned char)*b;
    } else {
      a++;
      b++;
    }
  }
  return (unsigned char)*a - (unsigned char)*b;
}

static bool has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The *.npy names of a directory (not the *.written.npy masks), sorted; NULL-terminated. */
static char **cmp_list(const char *dir, size_t *n, cli_error *e) {
  DIR *d = opendir(dir);
  if (!d) {
    cli_fail(e, "cannot read the directory `%s`: %s", dir, strerror(errno));
    return NULL;
  }
  char **names = NULL;
  size_t cap = 0;
  *n = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (!has_suffix(de->d_name, ".npy") || has_suffix(de->d_name, ".written.npy")) continue;
    if (*n + 2 > cap) {
      cap = cap ? cap * 2 : 16;
      char **nn = realloc(names, cap * sizeof *nn);
      if (!nn) break;
      names = nn;
    }
    if (!(names[*n] = strdup(de->d_name))) break;
    names[++*n] = NULL;
  }
  closedir(d);
  if (!names) names = calloc(1, sizeof *names);
  if (names) qsort(names, *n, sizeof *names, cmp_natural);
  else cli_fail(e, "out of memory");
  return names;
}

static void cmp_free_list(char **l) {
  for (size_t i = 0; l && l[i]; i++) free(l[i]);
  free(l);
}

char *cli_path_join(const char *dir, const char *name) {
  size_t a = strlen(dir), b = strlen(name);
  char *p = malloc(a + b + 2);
  if (p) {
    memcpy(p, dir, a);
    p[a] = '/';
    memcpy(p + a + 1, name, b + 1);
  }
  return p;
}

/* The directory case: the union of both sides' names, in order. */
static cli_cmp_status cmp_dirs(const char *exp, const char *out, bool expected_only, cli_cmp_opts *o, cli_cmp_sink *s) {
  cli_error e;
  size_t ne = 0, no = 0;
  char **le = cmp_list(exp, &ne, &e), **lo = le ? cmp_list(out, &no, &e) : NULL;
  cli_cmp_status st = CLI_CMP_EQUAL;
  if (!le || !lo) {
    cli_say_error("compare: %s", e.msg);
    st = CLI_CMP_ERROR;
  } else if (ne == 0 && (no == 0 || expected_only)) {
    cli_say_error("compare: no .npy files in `%s`%s", exp, expected_only ? "" : " nor in the output directory");
    st = CLI_CMP_ERROR;
  }
  for (size_t i = 0, j = 0; st != CLI_CMP_ERROR && (i < ne || j < no);) {
    int c = i == ne ? 1 : j == no ? -1 : cmp_natural(&le[i], &lo[j]);
    const char *nm = c <= 0 ? le[i] : lo[j];
    if (!nm) break; /* never: i < ne or j < no; says so to the compiler */
    char stem[256], msg[600];
    snprintf(stem, sizeof stem, "%.*s", (int)(strlen(nm) - 4), nm);
    char *pe = cli_path_join(exp, nm), *po = cli_path_join(out, nm);
    if (!pe || !po) st = CLI_CMP_ERROR;
    else if (c == 0) st = cmp_worst(st, cli_compare_files(pe, po, stem, NULL, o, s));
    else if (c < 0) {
      snprintf(msg, sizeof msg, "missing: `%s` has no %s", out, nm);
      cmp_tol_for(o, stem);
      cmp_emit(s, stem, pe, NULL, CLI_CMP_DIFFER, msg, NULL, NULL);
      st = cmp_worst(st, CLI_CMP_DIFFER);
    } else if (!expected_only) {
      snprintf(msg, sizeof msg, "missing: `%s` has no %s", exp, nm);
      cmp_tol_for(o, stem);
      cmp_emit(s, stem, NULL, po, CLI_CMP_DIFFER, msg, NULL, NULL);
      st = cmp_worst(st, CLI_CMP_DIFFER);
    }
    free(pe);
    free(po);
    i += c <= 0;
    j += c >= 0;
  }
  cmp_free_list(le);
  cmp_free_list(lo);
  return st;
}

cli_cmp_status cli_compare_paths(const char *expected, const char *output, bool expected_only, cli_cmp_opts *o,
                                 cli_cmp_sink *s) {
  struct stat se, so;
  const char *bad = stat(expected, &se) != 0 ? expected : stat(output, &so) != 0 ? output : NULL;
  if (bad) {
    cli_say_error("compare: cannot read `%s`: %s", bad, strerror(errno));
    return CLI_CMP_ERROR;
  }
  if (S_ISDIR(se.st_mode) && S_ISDIR(so.st_mode)) return cmp_dirs(expected, output, expected_only, o, s);
  if (S_ISDIR(se.st_mode) || S_ISDIR(so.st_mode)) {
    cli_say_error("compare: `%s` is a directory but `%s` is not: give two .npy files or two directories",
                  S_ISDIR(se.st_mode) ? expected : output, S_ISDIR(se.st_mode) ? output : expected);
    return CLI_CMP_ERROR;
  }
  /* two files: the stem of the expected one names them (and selects a --tol) */
  const char *base = strrchr(expected, '/') ? strrchr(expected, '/') + 1 : expected;
  char stem[256];
  snprintf(stem, sizeof stem, "%.*s", (int)(has_suffix(base, ".npy") ? strlen(base) - 4 : strlen(base)), base);
  return cli_compare_files(expected, output, stem, NULL, o, s);
}

/* ---- spvi compare ----------------------------------------------------------------------------- */

static const char usage_compare[] =
  "usage: spvi compare [--ulp N] [--abs X] [--rel X] [--tol NAME:KEY=V[,KEY=V]]... [--nan-exact]\n"
  "                    [--signed-zero] [--json] EXPECTED OUTPUT\n"
  "\n"
  "Compares two .npy files, or two directories (`spvi run --out` directories) whose *.npy files\n"
  "are matched by name (*.written.npy masks are not compared); a file on one side only differs.\n"
  "Integer, bool, half, float and double arrays, and structured dtypes field by field.\n"
  "\n"
  "  --ulp N            an element passes within N units in the last place: N steps between the\n"
  "                     ordered bit patterns (integers: |a-b| <= N)\n"
  "  --abs X            an element passes when |a-b| <= X\n"
  "  --rel X            an element passes when |a-b| <= X * |expected|\n"
  "                     (several: an element passes within ANY of them; none: exact)\n"
  "  --tol NAME:KEY=V   the tolerance of the file NAME.npy alone (KEY ulp, abs, rel; comma-\n"
  "                     separated), replacing --ulp/--abs/--rel for it: --tol arg2:ulp=4\n"
  "  --nan-exact        two NaNs are equal only with the same bits (default: any NaN equals\n"
  "                     any NaN); a NaN never equals a number\n"
  "  --signed-zero      -0.0 differs from +0.0 (default: equal, as IEEE 754 compares them)\n"
  "  --json             one JSON document on stdout instead of text (docs/cli.md has the schema)\n"
  "\n"
  "Per file: the number of differing elements, the first and the worst with their index in the\n"
  "file's shape ([3,17]; .field for structured dtypes).\n"
  "exit status: 0 equal, 1 some element or file differs, 2 bad usage or unreadable files\n";

int cli_compare_main(int argc, char **argv) {
  cli_cmp_opts o;
  memset(&o, 0, sizeof o);
  const char *paths[2] = {NULL, NULL};
  int npaths = 0, status = CMP_EXIT_BAD;
  bool json = false, done = false;
  cli_error e;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    bool tv;
    if (!done && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
      fputs(usage_compare, stdout);
      cli_cmp_opts_free(&o);
      return CMP_EXIT_EQUAL;
    }
    if (!done && strcmp(a, "--") == 0) done = true;
    else if (!done && strcmp(a, "--json") == 0) json = true;
    else if (!done && a[0] == '-' && a[1]) {
      char opt[32];
      const char *eq = strchr(a, '='), *value = eq ? eq + 1 : NULL;
      snprintf(opt, sizeof opt, "%.*s", (int)(eq ? (size_t)(eq - a) : strlen(a)), a);
      if (!cli_cmp_is_option(opt, &tv)) {
        char q[112];
        cli_say_error("unknown option `%s` for compare (see spvi compare --help)", cli_echo(a, q, sizeof q));
        goto done;
      }
      if (tv && !value && i + 1 == argc) {
        cli_say_error("option %s needs a value", opt);
        goto done;
      }
      if (tv && !value) value = argv[++i];
      if (!tv && value) {
        cli_say_error("option %s takes no value", opt);
        goto done;
      }
      if (!cli_cmp_option(&o, opt, value, &e)) {
        cli_say_error("%s", e.msg);
        goto done;
      }
    } else if (npaths == 2) {
      char q[112];
      cli_say_error("compare takes EXPECTED and OUTPUT, got `%s` as well", cli_echo(a, q, sizeof q));
      goto done;
    } else {
      paths[npaths++] = a;
    }
  }
  if (npaths < 2) {
    cli_say_error("compare needs EXPECTED and OUTPUT (see spvi compare --help)");
    goto done;
  }
  cli_cmp_sink s;
  cli_cmp_sink_begin(&s, stdout, json);
  cli_cmp_status st = cli_compare_paths(paths[0], paths[1], false, &o, &s);
  if (st != CLI_CMP_ERROR && !cli_cmp_check_tols(&o)) st = CLI_CMP_ERROR;
  cli_cmp_sink_end(&s, st);
  status = st == CLI_CMP_EQUAL ? CMP_EXIT_EQUAL : st == CLI_CMP_DIFFER ? CMP_EXIT_DIFFER : CMP_EXIT_BAD;
done:
  cli_cmp_opts_free(&o);
  return status;
}

/* ---- spvi run --expect ------------------------------------------------------------------------ */

int cli_expect_check(const char *expect_dir, const char *out_dir, cli_cmp_opts *o, FILE *f) {
  cli_cmp_sink s;
  cli_cmp_sink_begin(&s, f, false);
  cli_cmp_status st = cli_compare_paths(expect_dir, out_dir, true, o, &s);
  if (st != CLI_CMP_ERROR && !cli_cmp_check_tols(o)) st = CLI_CMP_ERROR;
  cli_cmp_sink_end(&s, st);
  return st == CLI_CMP_EQUAL ? CMP_EXIT_EQUAL : st == CLI_CMP_DIFFER ? CMP_EXIT_DIFFER : CMP_EXIT_BAD;
}

char *cli_expect_tmpdir(void) {
  const char *base = getenv("TMPDIR");
  if (!base || !base[0]) base = "/tmp";
  size_t n = strlen(base) + 32;
  char *p = malloc(n);
  if (!p) {
    cli_say_error("out of memory");
    return NULL;
  }
  snprintf(p, n, "%s/spvi-expect-XXXXXX", base);
  if (!mkdtemp(p)) {
    cli_say_error("--expect: cannot create a temporary directory in `%s`: %s", base, strerror(errno));
    free(p);
    return NULL;
  }
  strcat(p, "/out"); /* cli_out.c creates it with the files */
  return p;
}

void cli_expect_cleanup(char *out) {
  DIR *d = opendir(out);
  struct dirent *de;
  while (d && (de = readdir(d))) {
    char *p = de->d_name[0] == '.' ? NULL : cli_path_join(out, de->d_name);
    if (p) unlink(p);
    free(p);
  }
  if (d) closedir(d);
  rmdir(out);
  *strrchr(out, '/') = 0;
  rmdir(out);
  free(out);
}
