/*
 * cli_args.c — owns the kernel-argument grammar of `spvi run` (see cli_args.h): by-value
 * literals, buffer initialisers (lists, fill, range, random, files), local sizes, and the checks
 * that an argument's type agrees with its kernel parameter.
 */
#include "cli_args.h"

#include "cli_npy.h"
#include "cli_num.h"
#include "cli_random.h"
#include "cli_struct.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Argument text quoted in messages is cut to this many characters. */
#define ARGS_QUOTE_MAX 64

static const char args_type_list[] =
  "char uchar short ushort int uint long ulong half float double, optionally followed by a "
  "vector width 2 3 4 8 16";

/* A piece of the argument text (not NUL-terminated). */
typedef struct args_span {
  const char *s;
  size_t len;
} args_span;

static int args_q(size_t len) { return len > ARGS_QUOTE_MAX ? ARGS_QUOTE_MAX : (int)len; }

static bool args_starts(const char *text, const char *prefix) { return strncmp(text, prefix, strlen(prefix)) == 0; }

static bool args_elem(args_span sp, cli_elem *t, cli_error *e) {
  if (sp.len == 0) return cli_fail(e, "missing type (types: %s)", args_type_list);
  if (!cli_elem_parse(sp.s, sp.len, t))
    return cli_fail(e, "`%.*s` is not a type (types: %s)", args_q(sp.len), sp.s, args_type_list);
  return true;
}

/* Comma-separated items: an empty span still counts as one (empty) item, which the value parser
 * then rejects by name. */
static size_t args_count_items(args_span sp) {
  size_t n = 1;
  for (size_t i = 0; i < sp.len; i++) n += sp.s[i] == ',';
  return n;
}

static args_span args_next_item(args_span sp, size_t *pos) {
  size_t start = *pos, end = start;
  while (end < sp.len && sp.s[end] != ',') end++;
  *pos = end + 1;
  return (args_span){sp.s + start, end - start};
}

/* Byte offset of component k when components are numbered in memory order, element by element,
 * skipping the padding slot of 3-element vectors. */
static size_t args_comp_offset(cli_elem t, size_t k) {
  size_t es = t.scalar->bits / 8;
  return ((k / t.width) * cli_elem_slots(t) + k % t.width) * es;
}

static void args_store(unsigned char *data, cli_elem t, size_t k, uint64_t bits) {
  cli_store_le(data + args_comp_offset(t, k), bits, t.scalar->bits / 8);
}

/* "element 3" or "element 3 component 1": where component k sits, for messages. */
static const char *args_where(cli_elem t, size_t k, char *buf, size_t cap) {
  if (t.width == 1) snprintf(buf, cap, "element %zu", k);
  else snprintf(buf, cap, "element %zu component %zu", k / t.width, k % t.width);
  return buf;
}

/* Parses one literal, prefixing any message with what it was for (unless `what` is NULL). */
static bool args_literal(const cli_scalar *t, args_span sp, const char *what, uint64_t *bits, cli_error *e) {
  cli_error inner;
  if (cli_scalar_parse(t, sp.s, sp.len, bits, &inner)) return true;
  if (!what) return cli_fail(e, "%s", inner.msg);
  return cli_fail(e, "%s: %s", what, inner.msg);
}

/* An integer literal that must lie in t's range (range/random bounds). */
static bool args_int_in_type(const cli_scalar *t, args_span sp, const char *what, cli_int *v, cli_error *e) {
  cli_error inner;
  if (!cli_int_parse(sp.s, sp.len, t->name, v, &inner)) return cli_fail(e, "%s: %s", what, inner.msg);
  if (!cli_int_fits(t, *v)) {
    char range[80];
    return cli_fail(e, "%s: `%.*s` is out of range for %s", what, args_q(sp.len), sp.s,
                    cli_int_range_str(t, range, sizeof range));
  }
  return true;
}

static bool args_int_less(cli_int a, cli_int b) {
  if (a.neg != b.neg) return a.neg;
  return a.neg ? a.mag > b.mag : a.mag < b.mag;
}

static const char *args_plural(size_t n) { return n == 1 ? "" : "s"; }

/* The rest of stream f (path names it in messages), at most `max` bytes, in a malloc'd buffer:
 * grow-and-read rather than seek-and-size, so pipes and /dev/stdin work too. A stream with more
 * (an endless one: /dev/zero) is an error after max + 1 bytes, whose message ends with `why` (what
 * the limit is); nothing grows without bound. Does not close f. */
static bool args_read_stream(FILE *f, const char *path, size_t max, const char *why, unsigned char **data, size_t *size,
                             cli_error *e) {
  const size_t want = max < SIZE_MAX ? max + 1 : max; /* one byte more tells a longer stream */
  size_t cap = want < 4096 ? want : 4096, len = 0;
  unsigned char *buf = malloc(cap ? cap : 1);
  while (buf) {
    len += fread(buf + len, 1, cap - len, f);
    if (len < cap || cap == want) break;
    const size_t next = cap <= want / 2 ? cap * 2 : want;
    unsigned char *bigger = realloc(buf, next);
    if (!bigger) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = bigger;
    cap = next;
  }
  bool failed = ferror(f) != 0;
  int saved = errno;
  if (!buf) return cli_fail(e, "cannot read `%s`: out of memory", path);
  if (failed || len > max) {
    free(buf);
    if (failed) return cli_fail(e, "cannot read `%s`: %s", path, strerror(saved));
    return cli_fail(e, "`%s` has more than %zu bytes (reading stopped there): %s", path, max, why);
  }
  *data = buf;
  *size = len;
  return true;
}

bool cli_read_file(const char *path, size_t max, const char *why, unsigned char **data, size_t *size, cli_error *e) {
  FILE *f = fopen(path, "rb");
  if (!f) return cli_fail(e, "cannot read `%s`: %s", path, strerror(errno));
  bool ok = args_read_stream(f, path, max, why, data, size, e);
  fclose(f);
  return ok;
}

/* ---- by value -------------------------------------------------------------------------------- */

bool cli_parse_value(const char *text, cli_arg *out, cli_error *e) {
  const char *colon = strchr(text, ':');
  if (!colon) return cli_fail(e, "expected TYPE:VALUE");
  cli_elem t;
  if (!args_elem((args_span){text, (size_t)(colon - text)}, &t, e)) return false;
  args_span vals = {colon + 1, strlen(colon + 1)};
  size_t n = args_count_items(vals);
  char name[24];
  if (n != t.width)
    return cli_fail(e, "%u value%s expected for %s, got %zu", t.width, args_plural(t.width),
                    cli_elem_name(t, name, sizeof name), n);
  unsigned char *data = calloc(1, cli_elem_size(t)); /* calloc: the float3 padding slot is 0 */
  if (!data) return cli_fail(e, "out of memory");
  size_t pos = 0;
  for (size_t k = 0; k < n; k++) {
    args_span item = args_next_item(vals, &pos);
    uint64_t bits;
    char what[32];
    snprintf(what, sizeof what, "value %zu", k + 1);
    if (!args_literal(t.scalar, item, n == 1 ? NULL : what, &bits, e)) {
      free(data);
      return false;
    }
    args_store(data, t, k, bits);
  }
  *out =
    (cli_arg){.kind = CLI_ARG_VALUE, .typed = true, .elem = t, .count = 1, .data = data, .bytes = cli_elem_size(t)};
  return true;
}

static int args_hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool cli_parse_bytes(const char *text, size_t max, cli_arg *out, cli_error *e) {
  if (!args_starts(text, "bytes:")) return cli_fail(e, "expected bytes:HEX or bytes:@FILE");
  const char *body = text + strlen("bytes:");
  unsigned char *data;
  size_t size;
  if (body[0] == '@') {
    char why[64];
    snprintf(why, sizeof why, "the parameter takes %zu", max);
    if (!cli_read_file(body + 1, max, why, &data, &size, e)) return false;
    if (size == 0) {
      free(data);
      return cli_fail(e, "`%s` is empty", body + 1);
    }
  } else {
    size_t len = strlen(body);
    if (len == 0) return cli_fail(e, "no bytes after `bytes:`");
    if (len % 2) return cli_fail(e, "odd number of hex digits (%zu): every byte takes two", len);
    for (size_t i = 0; i < len; i++)
      if (args_hex(body[i]) < 0) return cli_fail(e, "`%c` at position %zu is not a hex digit", body[i], i + 1);
    size = len / 2;
    data = malloc(size);
    if (!data) return cli_fail(e, "out of memory");
    /* Bytes in the order written: the first pair is the byte at offset 0. */
    for (size_t i = 0; i < size; i++) data[i] = (unsigned char)(args_hex(body[2 * i]) << 4 | args_hex(body[2 * i + 1]));
  }
  *out = (cli_arg){.kind = CLI_ARG_VALUE, .typed = false, .elem = {NULL, 0}, .count = 1, .data = data, .bytes = size};
  return true;
}

bool cli_parse_local(const char *text, cli_arg *out, cli_error *e) {
  if (!args_starts(text, "local:")) return cli_fail(e, "expected local:BYTES");
  const char *body = text + strlen("local:");
  cli_int v;
  cli_error inner;
  if (!cli_int_parse(body, strlen(body), "a size", &v, &inner)) return cli_fail(e, "%s", inner.msg);
  if (v.neg || v.mag == 0 || v.mag > SIZE_MAX) return cli_fail(e, "`%s` is not a size of at least 1 byte", body);
  *out = (cli_arg){
    .kind = CLI_ARG_LOCAL, .typed = false, .elem = {NULL, 0}, .count = 0, .data = NULL, .bytes = (size_t)v.mag};
  return true;
}

/* ---- buffer initialisers ----------------------------------------------------------------------- */

/* The buffer being built: `comps` components (count × width) of type t in `data`. */
typedef struct args_buf {
  cli_elem t;
  size_t count, comps;
  unsigned char *data;
  size_t bytes;
  const size_t *shape; /* images: the .npy shape a file must have (or the flat (comps,)) */
  unsigned ndim;
  const spvi_struct *layout; /* a struct pointer parameter's struct: structured .npy files fit it */
  unsigned file_ndim;        /* buffers read from a .npy file: the shape to write them back in */
  bool file_structs;         /* ... counted in structs (a structured file), not in elements */
  size_t file_shape[CLI_NPY_MAX_DIMS];
} args_buf;

static bool args_init_list(args_buf *b, args_span list, cli_error *e) {
  size_t n = args_count_items(list);
  if (n != b->comps) {
    char name[24];
    if (b->t.width == 1) return cli_fail(e, "%zu value%s expected, got %zu", b->comps, args_plural(b->comps), n);
    return cli_fail(e, "%zu values expected (%zu × %s), got %zu", b->comps, b->count,
                    cli_elem_name(b->t, name, sizeof name), n);
  }
  size_t pos = 0;
  for (size_t k = 0; k < n; k++) {
    args_span item = args_next_item(list, &pos);
    uint64_t bits;
    char what[32];
    snprintf(what, sizeof what, "value %zu", k + 1);
    if (!args_literal(b->t.scalar, item, what, &bits, e)) return false;
    args_store(b->data, b->t, k, bits);
  }
  return true;
}

static bool args_init_fill(args_buf *b, args_span params, cli_error *e) {
  size_t n = args_count_items(params);
  if (n != 1 && n != b->t.width) {
    if (b->t.width == 1) return cli_fail(e, "fill takes 1 value, got %zu", n);
    return cli_fail(e, "fill takes 1 value or %u (one per component), got %zu", b->t.width, n);
  }
  uint64_t bits[16];
  size_t pos = 0;
  for (size_t j = 0; j < n; j++) {
    char what[32];
    if (n == 1) snprintf(what, sizeof what, "fill");
    else snprintf(what, sizeof what, "fill value %zu", j + 1);
    if (!args_literal(b->t.scalar, args_next_item(params, &pos), what, &bits[j], e)) return false;
  }
  for (size_t k = 0; k < b->comps; k++) args_store(b->data, b->t, k, bits[n == 1 ? 0 : k % b->t.width]);
  return true;
}

static bool args_init_range(args_buf *b, args_span params, cli_error *e) {
  size_t n = args_count_items(params);
  if (n != 1 && n != 2) return cli_fail(e, "range takes START or START,STEP, got %zu values", n);
  size_t pos = 0;
  args_span start_text = args_next_item(params, &pos);
  args_span step_text = n == 2 ? args_next_item(params, &pos) : (args_span){"1", 1};
  const cli_scalar *s = b->t.scalar;
  char where[64];
  if (s->kind != CLI_FLOAT) {
    /* Exact integer arithmetic: element values are checked, never wrapped. STEP is any integer
     * (it may be negative for unsigned types); START is checked as element 0. */
    cli_int start, step, off, v;
    cli_error inner;
    if (!cli_int_parse(start_text.s, start_text.len, s->name, &start, &inner))
      return cli_fail(e, "range START: %s", inner.msg);
    if (!cli_int_parse(step_text.s, step_text.len, s->name, &step, &inner))
      return cli_fail(e, "range STEP: %s", inner.msg);
    for (size_t k = 0; k < b->comps; k++) {
      bool ok = cli_int_mul((uint64_t)k, step, &off) && cli_int_add(start, off, &v);
      if (!ok || !cli_int_fits(s, v)) {
        char num[24], range[80];
        return cli_fail(e, "range: %s would be %s, out of range for %s", args_where(b->t, k, where, sizeof where),
                        ok ? cli_int_str(v, num, sizeof num) : "beyond 64 bits",
                        cli_int_range_str(s, range, sizeof range));
      }
      args_store(b->data, b->t, k, cli_int_bits(v));
    }
    return true;
  }
  /* Floats: START and STEP are literals of the element type; START + k*STEP is evaluated in
   * double and rounded once more to the element type. */
  uint64_t bits;
  if (!args_literal(s, start_text, "range START", &bits, e)) return false;
  double start = cli_float_to_double(s, bits);
  if (!args_literal(s, step_text, "range STEP", &bits, e)) return false;
  double step = cli_float_to_double(s, bits);
  for (size_t k = 0; k < b->comps; k++) {
    double v = start + (double)k * step;
    if (!cli_float_from_double(s, v, &bits))
      return cli_fail(e, "range: %s would be %g, out of range for %s", args_where(b->t, k, where, sizeof where), v,
                      s->name);
    args_store(b->data, b->t, k, bits);
  }
  return true;
}

/* Significand precision of each float format: random floats are drawn on a grid this fine. */
static unsigned args_precision(const cli_scalar *s) { return s->bits == 16 ? 11 : s->bits == 32 ? 24 : 53; }

static bool args_init_random(args_buf *b, args_span params, cli_error *e) {
  size_t n = args_count_items(params);
  if (n != 1 && n != 3) return cli_fail(e, "random takes SEED or SEED,LO,HI, got %zu values", n);
  size_t pos = 0;
  args_span seed_text = args_next_item(params, &pos);
  cli_int seed;
  if (!args_int_in_type(cli_scalar_by_name("ulong", 5), seed_text, "random SEED", &seed, e)) return false;
  cli_rng rng;
  cli_rng_seed(&rng, seed.mag);
  const cli_scalar *s = b->t.scalar;

  if (s->kind != CLI_FLOAT) {
    cli_int lo = cli_int_min(s), hi = cli_int_max(s);
    if (n == 3) {
      if (!args_int_in_type(s, args_next_item(params, &pos), "random LO", &lo, e)) return false;
      if (!args_int_in_type(s, args_next_item(params, &pos), "random HI", &hi, e)) return false;
      if (args_int_less(hi, lo)) return cli_fail(e, "random: LO is greater than HI");
    }
    /* hi - lo fits in 64 bits for any pair in one type's range, so modular arithmetic on the
     * two's complement patterns gives it exactly. */
    uint64_t lo_bits = cli_int_bits(lo), span_minus_1 = cli_int_bits(hi) - lo_bits;
    for (size_t k = 0; k < b->comps; k++) args_store(b->data, b->t, k, cli_rng_int(&rng, lo_bits, span_minus_1));
    return true;
  }

  double lo = 0.0, hi = 1.0;
  if (n == 3) {
    uint64_t bits;
    if (!args_literal(s, args_next_item(params, &pos), "random LO", &bits, e)) return false;
    lo = cli_float_to_double(s, bits);
    if (!args_literal(s, args_next_item(params, &pos), "random HI", &bits, e)) return false;
    hi = cli_float_to_double(s, bits);
    if (!isfinite(lo) || !isfinite(hi)) return cli_fail(e, "random: LO and HI must be finite");
    if (!(lo < hi)) return cli_fail(e, "random: LO must be less than HI");
    if (!isfinite(hi - lo)) return cli_fail(e, "random: HI - LO overflows double");
  }
  unsigned precision = args_precision(s);
  for (size_t k = 0; k < b->comps; k++) {
    uint64_t bits;
    /* A draw that rounds up to HI is discarded, keeping the interval half-open; u = 0 always
     * gives LO, so this ends. */
    for (;;) {
      double v = lo + cli_rng_unit(&rng, precision) * (hi - lo);
      cli_float_from_double(s, v, &bits);
      if (cli_float_to_double(s, bits) < hi) break;
    }
    args_store(b->data, b->t, k, bits);
  }
  return true;
}

/* "(4,)" / "(4, 3)" for messages about .npy shapes. */
static const char *args_shape_str(const size_t *shape, unsigned ndim, char *buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "(");
  for (unsigned i = 0; i < ndim && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%zu", i ? ", " : "", shape[i]);
  if (len < cap) snprintf(buf + len, cap - len, "%s)", ndim == 1 ? "," : "");
  return buf;
}

static bool args_ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The number of items an .npy header's shape describes (1 for the 0-d shape ()); cli_npy_parse
 * checked that the product does not overflow. */
static size_t args_npy_items(const cli_npy *h) {
  size_t n = 1;
  for (unsigned i = 0; i < h->ndim; i++) n *= h->shape[i];
  return n;
}

/* The dtype and order part of args_npy_fits (also used before a TYPE[] count is known). */
static bool args_npy_dtype(cli_elem t, const char *path, const cli_npy *h, cli_error *e) {
  const cli_scalar *s = t.scalar;
  char name[24];
  cli_elem_name(t, name, sizeof name);
  /* One-byte types have no byte order: NumPy writes '|', but '<' means the same. */
  bool dtype_ok = strcmp(h->descr, s->npy) == 0 ||
                  (s->bits == 8 && h->descr[0] == '<' && strcmp(h->descr + 1, s->npy + 1) == 0);
  if (!dtype_ok) {
    if (h->descr[0] == '>' && strcmp(h->descr + 1, s->npy + 1) == 0)
      return cli_fail(e, "`%s` holds big-endian data (dtype '%s'); spvi reads little-endian '%s'", path, h->descr,
                      s->npy);
    return cli_fail(e, "`%s` has dtype '%s' but %s needs '%s'", path, h->descr, name, s->npy);
  }
  /* A Fortran-order array's bytes are its transpose's C-order bytes: filling a buffer with them
   * would silently reorder the elements, so it is refused (numpy.ascontiguousarray fixes it). */
  if (h->fortran_order && h->ndim > 1)
    return cli_fail(e,
                    "`%s` is in Fortran order; spvi reads C-order arrays (save numpy.ascontiguousarray(a) "
                    "instead)",
                    path);
  return true;
}

/* Whether the file holds 3-element vectors packed, without their padding slot: a trailing
 * dimension of 3 and COUNT × 3 items. */
static bool args_npy_packed3(cli_elem t, const cli_npy *h, size_t count) {
  return t.width == 3 && h->ndim >= 2 && h->shape[h->ndim - 1] == 3 && args_npy_items(h) == count * 3;
}

/* Checks an .npy file's header h against the buffer being built (dtype, order, shape). Any C-order
 * shape holding the buffer's components in memory order is accepted: (COUNT,) or (32, 16) for
 * float[512]; for vectors any shape of COUNT × slots items ((COUNT, 4), (COUNT·4,) ...); for
 * 3-element vectors also a trailing dimension of 3 with COUNT × 3 items (*expand3: the padding
 * slots are added, so its data is COUNT × 3 components, not b->bytes). The file's shape is kept in
 * b->file_shape for --out. Images need their own shape or the flat one. */
/* A structured .npy file for the buffer of a struct pointer parameter: its item size and the
 * offsets and types of its fields (padding aside) must be the struct's, and its bytes the buffer's. */
static bool args_npy_struct_fits(args_buf *b, const char *path, const cli_npy *h, cli_error *e) {
  const spvi_struct *s = b->layout;
  if (!s) return cli_fail(e, "`%s` holds a structured dtype: only the buffer of a struct pointer takes one", path);
  const char *sn = s->name[0] ? s->name : "?";
  if (h->fortran_order && h->ndim > 1) return cli_fail(e, "`%s` is in Fortran order; spvi reads C-order arrays", path);
  if (h->itemsize != s->size)
    return cli_fail(e, "`%s` has items of %zu bytes but struct %s is %zu bytes", path, h->itemsize, sn, s->size);
  cli_npy_leaf want[CLI_NPY_MAX_LEAVES];
  unsigned n;
  if (!cli_struct_leaves(s, want, &n)) return cli_fail(e, "struct %s has too many fields to compare", sn);
  for (unsigned i = 0; i < n || i < h->nleaves; i++) {
    const cli_npy_leaf *g = i < h->nleaves ? &h->leaves[i] : NULL, *w = i < n ? &want[i] : NULL;
    if (g && w && g->offset == w->offset && g->count == w->count && strcmp(g->type, w->type) == 0) continue;
    char got[96] = "nothing more", exp[96] = "nothing more";
    if (g) snprintf(got, sizeof got, "%zu × '%s' at byte %zu", g->count, g->type, g->offset);
    if (w) snprintf(exp, sizeof exp, "%zu × '%s' at byte %zu", w->count, w->type, w->offset);
    return cli_fail(e, "`%s`: its fields differ from struct %s's: the file has %s where the struct has %s", path, sn,
                    got, exp);
  }
  const size_t bytes = args_npy_items(h) * h->itemsize;
  if (bytes != b->bytes) {
    char name[24];
    return cli_fail(e, "`%s` holds %zu structs (%zu bytes) but %s[%zu] is %zu bytes", path, args_npy_items(h), bytes,
                    cli_elem_name(b->t, name, sizeof name), b->count, b->bytes);
  }
  b->file_structs = true; /* --out writes the structs back in the file's shape */
  b->file_ndim = h->ndim ? h->ndim : 1;
  for (unsigned i = 0; i < h->ndim; i++) b->file_shape[i] = h->shape[i];
  if (h->ndim == 0) b->file_shape[0] = 1;
  return true;
}

static bool args_npy_fits(args_buf *b, const char *path, const cli_npy *h, bool *expand3, cli_error *e) {
  char name[24];
  cli_elem_name(b->t, name, sizeof name);
  *expand3 = false;
  if (h->structured && !b->shape) return args_npy_struct_fits(b, path, h, e);
  if (!args_npy_dtype(b->t, path, h, e)) return false;
  if (b->shape) {
    bool same = h->ndim == b->ndim;
    for (unsigned i = 0; same && i < h->ndim; i++) same = h->shape[i] == b->shape[i];
    if (!same && !(h->ndim == 1 && h->shape[0] == b->comps)) {
      char got[160], want[160];
      return cli_fail(e, "`%s` has shape %s but the image needs %s (or (%zu,))", path,
                      args_shape_str(h->shape, h->ndim, got, sizeof got),
                      args_shape_str(b->shape, b->ndim, want, sizeof want), b->comps);
    }
    return true;
  }
  unsigned slots = cli_elem_slots(b->t);
  bool ok = args_npy_items(h) == b->count * slots;
  if (!ok) ok = *expand3 = args_npy_packed3(b->t, h, b->count);
  if (!ok) {
    char got[160];
    return cli_fail(e, "`%s` has shape %s (%zu items) but %s[%zu] needs %zu%s", path,
                    args_shape_str(h->shape, h->ndim, got, sizeof got), args_npy_items(h), name, b->count,
                    b->count * slots,
                    b->t.width == 3 ? " (or a trailing dimension of 3 and COUNT × 3 items)"
                    : slots > 1     ? " (COUNT × slots, any shape)"
                                    : "");
  }
  b->file_ndim = h->ndim ? h->ndim : 1; /* a 0-d array goes back as (1,) */
  for (unsigned i = 0; i < h->ndim; i++) b->file_shape[i] = h->shape[i];
  if (h->ndim == 0) b->file_shape[0] = 1;
  if (*expand3) b->file_shape[b->file_ndim - 1] = 4;
  return true;
}

/* The data bytes of an .npy file args_npy_fits accepted: b->bytes, or COUNT × 3 components. */
static size_t args_npy_data_bytes(const args_buf *b, bool expand3) {
  return expand3 ? b->count * 3 * (b->t.scalar->bits / 8) : b->bytes;
}

/* Spreads COUNT packed 3-component elements at the start of b->data to their 4-slot places, the
 * padding slot 0 (from the last element down, so that nothing is overwritten before it moved). */
static void args_expand3(args_buf *b) {
  const size_t es = b->t.scalar->bits / 8;
  for (size_t i = b->count; i-- > 0;) {
    memmove(b->data + i * 4 * es, b->data + i * 3 * es, 3 * es);
    memset(b->data + i * 4 * es + 3 * es, 0, es);
  }
}

/* Reads exactly n bytes of f into dst; false with a message naming path on an error or early end. */
static bool args_read_exact(FILE *f, const char *path, void *dst, size_t n, cli_error *e) {
  if (fread(dst, 1, n, f) == n) return true;
  if (ferror(f)) return cli_fail(e, "cannot read `%s`: %s", path, strerror(errno));
  return cli_fail(e, "cannot read `%s`: the file became shorter while it was read", path);
}

/* A whole file already in memory (a pipe, /dev/stdin from a pipe ...): .npy or raw bytes. */
static bool args_init_bytes(args_buf *b, const char *path, const unsigned char *file, size_t size, cli_error *e) {
  /* A file named .npy without the magic is reported as a broken .npy, never read as raw. */
  if (cli_npy_has_magic(file, size) || args_ends_with(path, ".npy")) {
    cli_npy h;
    bool expand3;
    if (!cli_npy_parse(file, size, path, &h, e) || !args_npy_fits(b, path, &h, &expand3, e)) return false;
    memcpy(b->data, file + h.data_offset, args_npy_data_bytes(b, expand3));
    if (expand3) args_expand3(b);
    return true;
  }
  if (size != b->bytes) {
    char name[24];
    return cli_fail(e, "`%s` has %zu bytes, expected %zu (%zu × %s of %zu bytes)", path, size, b->bytes, b->count,
                    cli_elem_name(b->t, name, sizeof name), cli_elem_size(b->t));
  }
  memcpy(b->data, file, size);
  return true;
}

/* Reads and parses the .npy header of a regular file of `size` bytes whose first n0 bytes (at
 * most 12) are `first` and which stands at offset n0: the prefix and the dict its length field
 * announces, when the file holds them (cli_npy_parse reads no further, and reports a short file
 * from `size`). Afterwards the stream stands at h->data_offset. */
static bool args_read_npy_header(FILE *f, const char *path, size_t size, const unsigned char *first, size_t n0,
                                 cli_npy *h, cli_error *e) {
  size_t head = n0;
  if (cli_npy_has_magic(first, n0) && n0 >= 10 && first[7] == 0) {
    const size_t len16 = (size_t)first[8] | (size_t)first[9] << 8;
    size_t want = n0;
    if (first[6] == 1) want = 10 + len16;
    else if ((first[6] == 2 || first[6] == 3) && n0 >= 12)
      want = 12 + (len16 | (size_t)first[10] << 16 | (size_t)first[11] << 24);
    if (want <= size) head = want;
  }
  unsigned char *hdr = malloc(head ? head : 1);
  if (!hdr) return cli_fail(e, "cannot read `%s`: out of memory", path);
  memcpy(hdr, first, n0 < head ? n0 : head);
  bool ok = (head <= n0 || args_read_exact(f, path, hdr + n0, head - n0, e)) && cli_npy_parse(hdr, size, path, h, e);
  free(hdr);
  return ok;
}

/* A regular file of `size` bytes, open at its start: its data is read straight into the buffer's
 * bytes (only an .npy header goes through memory of its own), so a large input is never held
 * twice. Same checks and messages as args_init_bytes on the whole file. */
static bool args_init_regular(args_buf *b, const char *path, FILE *f, size_t size, cli_error *e) {
  unsigned char first[12];
  const size_t n0 = size < sizeof first ? size : sizeof first;
  if (!args_read_exact(f, path, first, n0, e)) return false;
  if (!cli_npy_has_magic(first, n0) && !args_ends_with(path, ".npy")) {
    if (size != b->bytes) {
      char name[24];
      return cli_fail(e, "`%s` has %zu bytes, expected %zu (%zu × %s of %zu bytes)", path, size, b->bytes, b->count,
                      cli_elem_name(b->t, name, sizeof name), cli_elem_size(b->t));
    }
    memcpy(b->data, first, n0);
    return args_read_exact(f, path, b->data + n0, size - n0, e);
  }
  cli_npy h;
  bool expand3 = false;
  if (!args_read_npy_header(f, path, size, first, n0, &h, e) || !args_npy_fits(b, path, &h, &expand3, e)) return false;
  /* cli_npy_parse checked that exactly the described data follows the header, and args_npy_fits
   * that it is this buffer's; the stream stands at h.data_offset */
  if (!args_read_exact(f, path, b->data, args_npy_data_bytes(b, expand3), e)) return false;
  if (expand3) args_expand3(b);
  return true;
}

/* TYPE[]=@PATH: the element count a regular file holds, read from its .npy header (or its size,
 * for a raw file) before the buffer exists. A pipe cannot be read twice, so it needs the count. */
static bool args_file_count(cli_elem t, const char *path, size_t *count, cli_error *e) {
  if (path[0] == 0) return cli_fail(e, "missing file name after `@`");
  FILE *f = fopen(path, "rb");
  if (!f) return cli_fail(e, "cannot read `%s`: %s", path, strerror(errno));
  struct stat st;
  char name[24];
  cli_elem_name(t, name, sizeof name);
  const size_t es = cli_elem_size(t), slots = cli_elem_slots(t);
  bool ok = false;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 || (uintmax_t)st.st_size > SIZE_MAX) {
    cli_fail(e, "`%s` is not a regular file: %s[] cannot take its count from it; give %s[COUNT]", path, name, name);
  } else {
    const size_t size = (size_t)st.st_size;
    unsigned char first[12];
    const size_t n0 = size < sizeof first ? size : sizeof first;
    cli_npy h;
    const bool read = args_read_exact(f, path, first, n0, e);
    const bool raw = read && !cli_npy_has_magic(first, n0) && !args_ends_with(path, ".npy");
    const bool npy = read && !raw && args_read_npy_header(f, path, size, first, n0, &h, e);
    if (raw) {
      *count = size / es;
      ok = size % es == 0 && size > 0;
      if (!ok) cli_fail(e, "`%s` has %zu bytes, not a positive multiple of %s's %zu", path, size, name, es);
    } else if (npy && h.structured) { /* structs: as many TYPE as they have bytes */
      const size_t bytes = args_npy_items(&h) * h.itemsize;
      *count = bytes / es;
      ok = bytes > 0 && bytes % es == 0;
      if (!ok)
        cli_fail(e, "`%s` holds %zu bytes of structs, not a positive multiple of %s's %zu", path, bytes, name, es);
    } else if (npy && args_npy_dtype(t, path, &h, e)) {
      /* (N, 3) of a 3-element vector type holds N packed vectors; otherwise the items are the
       * memory image, slots per element */
      const size_t items = args_npy_items(&h);
      const bool packed = t.width == 3 && h.ndim >= 2 && h.shape[h.ndim - 1] == 3;
      *count = items / (packed ? 3 : slots);
      ok = items > 0 && items % (packed ? 3 : slots) == 0;
      if (!ok) {
        char got[160];
        cli_fail(e, "`%s` has shape %s (%zu items): no whole number of %s elements (%zu slots each)", path,
                 args_shape_str(h.shape, h.ndim, got, sizeof got), items, name, slots);
      }
    }
  }
  fclose(f);
  return ok;
}

/* The most header bytes a .npy stream may have before its data: the largest of version 1.0 (10
 * bytes and a dict of up to 65535, its length being 16 bits); numpy itself refuses headers above
 * 10000 bytes by default (max_header_size), so no .npy it writes is refused. */
#define ARGS_NPY_HEADER_MAX (10u + 65535u)

static bool args_init_file(args_buf *b, const char *path, cli_error *e) {
  if (path[0] == 0) return cli_fail(e, "missing file name after `@`");
  FILE *f = fopen(path, "rb");
  if (!f) return cli_fail(e, "cannot read `%s`: %s", path, strerror(errno));
  struct stat st;
  bool ok;
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 && (uintmax_t)st.st_size <= SIZE_MAX) {
    ok = args_init_regular(b, path, f, (size_t)st.st_size, e);
  } else { /* a pipe, /dev/stdin, a device: at most the buffer's bytes and a .npy header */
    unsigned char *file;
    size_t size;
    char why[160], name[24];
    snprintf(why, sizeof why, "%s[%zu] takes %zu bytes, and a .npy header at most %u more",
             cli_elem_name(b->t, name, sizeof name), b->count, b->bytes, ARGS_NPY_HEADER_MAX);
    ok = args_read_stream(f, path,
                          b->bytes > SIZE_MAX - ARGS_NPY_HEADER_MAX ? SIZE_MAX : b->bytes + ARGS_NPY_HEADER_MAX, why,
                          &file, &size, e);
    if (ok) {
      ok = args_init_bytes(b, path, file, size, e);
      free(file);
    }
  }
  fclose(f);
  return ok;
}

/* Initialisers written as NAME(PARAMS). */
typedef bool (*args_init_fn)(args_buf *b, args_span params, cli_error *e);
static const struct {
  const char *name;
  args_init_fn fn;
} args_inits[] = {
  {"fill", args_init_fill},
  {"range", args_init_range},
  {"random", args_init_random},
};

static bool args_init(args_buf *b, const char *init, cli_error *e) {
  if (init[0] == 0) return cli_fail(e, "nothing after `=`");
  if (init[0] == '@') return args_init_file(b, init + 1, e);
  const char *paren = strchr(init, '(');
  if (!paren) return args_init_list(b, (args_span){init, strlen(init)}, e);
  size_t name_len = (size_t)(paren - init), len = strlen(init);
  for (size_t i = 0; i < sizeof args_inits / sizeof args_inits[0]; i++) {
    if (strlen(args_inits[i].name) != name_len || memcmp(args_inits[i].name, init, name_len) != 0) continue;
    if (init[len - 1] != ')' || strchr(paren + 1, '(') || strchr(paren + 1, ')') != init + len - 1)
      return cli_fail(e, "`%s(` must end with one `)`", args_inits[i].name);
    return args_inits[i].fn(b, (args_span){paren + 1, (size_t)(init + len - 1 - (paren + 1))}, e);
  }
  return cli_fail(e,
                  "`%.*s` is not an initialiser (V,V,..., fill(V), range(START[,STEP]), "
                  "random(SEED[,LO,HI]) or @FILE)",
                  args_q(name_len + 1), init);
}

/* TYPE[]=INIT: the element count of a V,V,... list (whole elements) or an @PATH file. */
static bool args_implicit_count(cli_elem t, const char *init, size_t *count, cli_error *e) {
  char name[24];
  cli_elem_name(t, name, sizeof name);
  if (init && init[0] == '@') return args_file_count(t, init + 1, count, e);
  if (!init || init[0] == 0 || strchr(init, '('))
    return cli_fail(e, "%s[] takes its count from `=V,V,...` or `=@FILE`; give %s[COUNT]%s", name, name,
                    init ? " for fill, range and random" : "");
  size_t n = args_count_items((args_span){init, strlen(init)});
  if (n % t.width)
    return cli_fail(e, "%zu values are no whole number of %s elements (%u values each)", n, name, t.width);
  *count = n / t.width;
  return true;
}

static bool args_parse_buffer(const char *text, const spvi_struct *layout, cli_arg *out, cli_error *e);

bool cli_parse_buffer(const char *text, cli_arg *out, cli_error *e) { return args_parse_buffer(text, NULL, out, e); }

static bool args_parse_buffer(const char *text, const spvi_struct *layout, cli_arg *out, cli_error *e) {
  const char *lb = strchr(text, '[');
  if (!lb) return cli_fail(e, "expected TYPE[COUNT] or TYPE[COUNT]=INIT");
  args_buf b;
  memset(&b, 0, sizeof b);
  b.layout = layout;
  if (!args_elem((args_span){text, (size_t)(lb - text)}, &b.t, e)) return false;
  const char *rb = strchr(lb, ']');
  if (!rb) return cli_fail(e, "missing `]` after the count");
  cli_int count;
  cli_error inner;
  if (rb == lb + 1) { /* TYPE[]: the count from the initialiser */
    size_t n = 0;
    if (!args_implicit_count(b.t, rb[1] == '=' ? rb + 2 : NULL, &n, e)) return false;
    count = (cli_int){false, n};
  } else if (!cli_int_parse(lb + 1, (size_t)(rb - lb - 1), "a count", &count, &inner)) {
    return cli_fail(e, "count: %s", inner.msg);
  }
  size_t es = cli_elem_size(b.t);
  if (count.neg || count.mag == 0) return cli_fail(e, "the count must be at least 1");
  if (count.mag > SIZE_MAX / es) return cli_fail(e, "count %llu is too large", (unsigned long long)count.mag);
  if (rb[1] != 0 && rb[1] != '=')
    return cli_fail(e, "unexpected `%.*s` after `]` (expected `=INIT` or nothing)", args_q(strlen(rb + 1)), rb + 1);
  b.count = (size_t)count.mag;
  b.comps = b.count * b.t.width;
  b.bytes = b.count * es;
  b.shape = NULL;
  /* The initialiser is written straight into the memory object the launch will use in place:
   * spvi's zero-filled bytes (the default, and the 3-vector padding), never a second copy. */
  spvi_error me;
  spvi_mem *mem = spvi_buffer_new(b.bytes, NULL, &me);
  if (!mem) return cli_fail(e, "%s", me.message); /* above spvi_max_alloc_size, or out of memory */
  b.data = spvi_mem_data(mem, NULL);
  if (rb[1] == '=' && !args_init(&b, rb + 2, e)) {
    spvi_mem_release(mem);
    return false;
  }
  *out = (cli_arg){.kind = CLI_ARG_BUFFER,
                   .typed = true,
                   .elem = b.t,
                   .count = b.count,
                   .data = b.data,
                   .bytes = b.bytes,
                   .mem = mem,
                   .ndim = b.file_ndim,
                   .shape_in_structs = b.file_structs};
  memcpy(out->shape, b.file_shape, sizeof out->shape);
  return true;
}


/* ---- images and samplers ----------------------------------------------------------------------- */

static const struct {
  const char *name;
  spvi_image_type type;
  unsigned nsizes;
} args_image_types[] = {
  {"image1d", SPVI_IMAGE_1D, 1}, {"image1d_buffer", SPVI_IMAGE_1D_BUFFER, 1}, {"image1d_array", SPVI_IMAGE_1D_ARRAY, 2},
  {"image2d", SPVI_IMAGE_2D, 2}, {"image2d_array", SPVI_IMAGE_2D_ARRAY, 3},   {"image3d", SPVI_IMAGE_3D, 3},
};
static const spvi_channel_order args_orders[] = {
  SPVI_ORDER_R,    SPVI_ORDER_A,    SPVI_ORDER_RG,        SPVI_ORDER_RA,        SPVI_ORDER_RGBA,  SPVI_ORDER_BGRA,
  SPVI_ORDER_ARGB, SPVI_ORDER_ABGR, SPVI_ORDER_INTENSITY, SPVI_ORDER_LUMINANCE, SPVI_ORDER_SRGBA, SPVI_ORDER_SBGRA,
};
/* Channel types and the scalar type their raw values are written in. */
static const struct {
  spvi_channel_type type;
  const char *scalar;
} args_ctypes[] = {
  {SPVI_UNORM_INT8, "uchar"},    {SPVI_UNORM_INT16, "ushort"},  {SPVI_SNORM_INT8, "char"},
  {SPVI_SNORM_INT16, "short"},   {SPVI_UNSIGNED_INT8, "uchar"}, {SPVI_UNSIGNED_INT16, "ushort"},
  {SPVI_UNSIGNED_INT32, "uint"}, {SPVI_SIGNED_INT8, "char"},    {SPVI_SIGNED_INT16, "short"},
  {SPVI_SIGNED_INT32, "int"},    {SPVI_HALF_FLOAT, "half"},     {SPVI_FLOAT, "float"},
};
#define ARGS_N(a) (sizeof a / sizeof a[0])

static bool args_span_is(args_span sp, const char *word) {
  return strlen(word) == sp.len && memcmp(sp.s, word, sp.len) == 0;
}

unsigned cli_image_shape(const spvi_image_desc *d, size_t shape[4]) {
  size_t c = spvi_image_channels(d->order);
  switch (d->type) {
  case SPVI_IMAGE_1D_ARRAY:
    shape[0] = d->array_size;
    shape[1] = d->width;
    shape[2] = c;
    return 3;
  case SPVI_IMAGE_2D:
    shape[0] = d->height;
    shape[1] = d->width;
    shape[2] = c;
    return 3;
  case SPVI_IMAGE_2D_ARRAY:
    shape[0] = d->array_size;
    shape[1] = d->height;
    shape[2] = d->width;
    shape[3] = c;
    return 4;
  case SPVI_IMAGE_3D:
    shape[0] = d->depth;
    shape[1] = d->height;
    shape[2] = d->width;
    shape[3] = c;
    return 4;
  default:
    shape[0] = d->width;
    shape[1] = c;
    return 2;
  }
}

bool cli_parse_image(const char *text, cli_arg *out, cli_error *e) {
  /* IMAGETYPE:ORDER:CHANNELTYPE:DIMS[=INIT] */
  const char *eq = strchr(text, '=');
  size_t head_len = eq ? (size_t)(eq - text) : strlen(text);
  args_span part[4];
  size_t pos = 0;
  for (int i = 0; i < 4; i++) {
    size_t end = pos;
    while (end < head_len && (text[end] != ':' || i == 3)) end++;
    if (i < 3 && end >= head_len)
      return cli_fail(e, "an image takes IMAGETYPE:ORDER:CHANNELTYPE:DIMS[=INIT] (e.g. image2d:rgba:unorm8:64,32)");
    part[i] = (args_span){text + pos, end - pos};
    pos = end + 1;
  }
  spvi_image_desc d;
  memset(&d, 0, sizeof d);
  size_t ti = 0;
  while (ti < ARGS_N(args_image_types) && !args_span_is(part[0], args_image_types[ti].name)) ti++;
  if (ti == ARGS_N(args_image_types))
    return cli_fail(e,
                    "`%.*s` is not an image type (image1d image1d_buffer image1d_array image2d image2d_array image3d)",
                    args_q(part[0].len), part[0].s);
  d.type = args_image_types[ti].type;
  size_t oi = 0;
  while (oi < ARGS_N(args_orders) && !args_span_is(part[1], spvi_channel_order_name(args_orders[oi]))) oi++;
  if (oi == ARGS_N(args_orders))
    return cli_fail(e, "`%.*s` is not a channel order (r a rg ra rgba bgra argb abgr intensity luminance srgba sbgra)",
                    args_q(part[1].len), part[1].s);
  d.order = args_orders[oi];
  size_t ci = 0;
  while (ci < ARGS_N(args_ctypes) && !args_span_is(part[2], spvi_channel_type_name(args_ctypes[ci].type))) ci++;
  if (ci == ARGS_N(args_ctypes))
    return cli_fail(e,
                    "`%.*s` is not a channel type (unorm8 unorm16 snorm8 snorm16 uint8 uint16 uint32 int8 int16 int32 "
                    "half float)",
                    args_q(part[2].len), part[2].s);
  d.channel_type = args_ctypes[ci].type;
  /* DIMS: W | W,H | W,H,D | W,N | W,H,N, as many as the type has */
  size_t want = args_image_types[ti].nsizes, got = args_count_items(part[3]);
  static const char *const forms[] = {"", "W", "W,N or W,H", "W,H,N or W,H,D"};
  if (got != want)
    return cli_fail(e, "%s takes %zu size%s (%s), got `%.*s`", args_image_types[ti].name, want, args_plural(want),
                    d.type == SPVI_IMAGE_1D_ARRAY   ? "W,N"
                    : d.type == SPVI_IMAGE_2D       ? "W,H"
                    : d.type == SPVI_IMAGE_2D_ARRAY ? "W,H,N"
                    : d.type == SPVI_IMAGE_3D       ? "W,H,D"
                                                    : forms[1],
                    args_q(part[3].len), part[3].s);
  size_t sizes[3] = {0, 0, 0};
  pos = 0;
  for (size_t i = 0; i < want; i++) {
    args_span item = args_next_item(part[3], &pos);
    cli_int v;
    cli_error inner;
    if (!cli_int_parse(item.s, item.len, "a size", &v, &inner))
      return cli_fail(e, "image size %zu: %s", i + 1, inner.msg);
    if (v.neg || v.mag == 0 || v.mag > SIZE_MAX)
      return cli_fail(e, "image size %zu: `%.*s` is not at least 1", i + 1, args_q(item.len), item.s);
    sizes[i] = (size_t)v.mag;
  }
  d.width = sizes[0];
  switch (d.type) {
  case SPVI_IMAGE_1D_ARRAY: d.array_size = sizes[1]; break;
  case SPVI_IMAGE_2D: d.height = sizes[1]; break;
  case SPVI_IMAGE_2D_ARRAY:
    d.height = sizes[1];
    d.array_size = sizes[2];
    break;
  case SPVI_IMAGE_3D:
    d.height = sizes[1];
    d.depth = sizes[2];
    break;
  default: break;
  }
  spvi_error serr;
  size_t bytes = spvi_image_bytes(&d, &serr);
  if (!bytes) return cli_fail(e, "%s", serr.message);
  args_buf b;
  b.t = (cli_elem){cli_scalar_by_name(args_ctypes[ci].scalar, strlen(args_ctypes[ci].scalar)), 1};
  b.bytes = bytes;
  b.count = b.comps = bytes / (b.t.scalar->bits / 8);
  size_t shape[4];
  b.ndim = cli_image_shape(&d, shape);
  b.shape = shape;
  /* the pixels are written straight into the image object, as a buffer's initialiser is */
  spvi_error me;
  spvi_mem *mem = spvi_image_new(&d, NULL, &me);
  if (!mem) return cli_fail(e, "%s", me.message); /* above spvi_max_alloc_size, or out of memory */
  b.data = spvi_mem_data(mem, NULL);
  if (eq && !args_init(&b, eq + 1, e)) {
    spvi_mem_release(mem);
    return false;
  }
  *out = (cli_arg){.kind = CLI_ARG_IMAGE,
                   .typed = true,
                   .elem = b.t,
                   .count = b.count,
                   .data = b.data,
                   .bytes = bytes,
                   .image = d,
                   .mem = mem};
  return true;
}

bool cli_parse_sampler(const char *text, cli_arg *out, cli_error *e) {
  static const char usage[] = "a sampler takes sampler:NORM,ADDRESS,FILTER (NORM normalized|unnormalized, ADDRESS "
                              "none|clamp_to_edge|clamp|repeat|mirrored_repeat, FILTER nearest|linear)";
  if (!args_starts(text, "sampler:")) return cli_fail(e, "%s", usage);
  args_span body = {text + 8, strlen(text + 8)};
  if (args_count_items(body) != 3) return cli_fail(e, "%s", usage);
  size_t pos = 0;
  args_span norm = args_next_item(body, &pos), addr = args_next_item(body, &pos), filt = args_next_item(body, &pos);
  spvi_sampler smp;
  if (args_span_is(norm, "normalized")) smp.normalized = true;
  else if (args_span_is(norm, "unnormalized")) smp.normalized = false;
  else return cli_fail(e, "`%.*s` is not normalized or unnormalized", args_q(norm.len), norm.s);
  static const char *const modes[] = {"none", "clamp_to_edge", "clamp", "repeat", "mirrored_repeat"};
  size_t mi = 0;
  while (mi < ARGS_N(modes) && !args_span_is(addr, modes[mi])) mi++;
  if (mi == ARGS_N(modes))
    return cli_fail(e, "`%.*s` is not an addressing mode (none clamp_to_edge clamp repeat mirrored_repeat)",
                    args_q(addr.len), addr.s);
  smp.addressing = (spvi_addressing)mi;
  if (args_span_is(filt, "nearest")) smp.filter = SPVI_FILTER_NEAREST;
  else if (args_span_is(filt, "linear")) smp.filter = SPVI_FILTER_LINEAR;
  else return cli_fail(e, "`%.*s` is not a filter mode (nearest linear)", args_q(filt.len), filt.s);
  if (!smp.normalized && mi >= 3)
    return cli_fail(e, "%s addressing needs normalized coordinates (OpenCL C 6.15.15.1)", modes[mi]);
  cli_arg a;
  memset(&a, 0, sizeof a);
  a.kind = CLI_ARG_SAMPLER;
  a.sampler = smp;
  *out = a;
  return true;
}

/* ---- matching a parameter ----------------------------------------------------------------------- */

/* The parameter's type spelling for messages (the library always names it; never print NULL). */
static const char *args_type_of(const spvi_param_info *p) { return p->type_name ? p->type_name : "?"; }

static const char *const args_space_names[] = {
  [SPVI_AS_PRIVATE] = "private", [SPVI_AS_GLOBAL] = "global",   [SPVI_AS_CONSTANT] = "constant",
  [SPVI_AS_LOCAL] = "local",     [SPVI_AS_GENERIC] = "generic", [SPVI_AS_NONE] = "",
};

const char *cli_param_desc(const spvi_param_info *p, char *buf, size_t cap) {
  const char *space = (unsigned)p->space < sizeof args_space_names / sizeof args_space_names[0]
                        ? args_space_names[p->space]
                        : "";
  const char *type = args_type_of(p);
  const char *name = p->name ? p->name : "";
  snprintf(buf, cap, "%s%s%s%s%s", space, space[0] ? " " : "", type, name[0] ? " " : "", name);
  return buf;
}

/* The integer kinds agree with each other: OpenCL SPIR-V integer types carry no signedness, so
 * `int:-3` must be accepted for a parameter the module only knows as a 32-bit integer. */
static bool args_kind_matches(cli_kind k, spvi_scalar s) {
  if (k == CLI_FLOAT) return s == SPVI_S_FLOAT;
  return s == SPVI_S_INT || s == SPVI_S_UINT;
}

static bool args_is_scalar_or_vector(const spvi_param_info *p) {
  return p->vec_width != 0 && p->elem_bits != 0 &&
         (p->elem_kind == SPVI_S_INT || p->elem_kind == SPVI_S_UINT || p->elem_kind == SPVI_S_FLOAT);
}

static bool args_for_value(const char *text, const spvi_param_info *p, cli_arg *out, cli_error *e) {
  if (args_starts(text, "bytes:")) {
    if (!cli_parse_bytes(text, p->size, out, e)) return false;
    if (out->bytes != p->size) {
      size_t got = out->bytes;
      cli_arg_free(out);
      return cli_fail(e, "%zu byte%s given, the parameter takes %zu", got, args_plural(got), p->size);
    }
    return true;
  }
  if (!args_is_scalar_or_vector(p))
    return cli_fail(e, "%s is passed as %zu raw bytes: give them as bytes:HEX or bytes:@FILE", args_type_of(p),
                    p->size);
  const char *colon = strchr(text, ':'), *bracket = strchr(text, '[');
  if (!colon || (bracket && bracket < colon))
    return cli_fail(e, "a by-value parameter takes TYPE:VALUE (e.g. %s:1)", args_type_of(p));
  /* The type is checked before the values, so a mismatch is reported as such. */
  cli_elem t;
  char name[24];
  if (cli_elem_parse(text, (size_t)(colon - text), &t) &&
      (!args_kind_matches(t.scalar->kind, p->elem_kind) || t.scalar->bits != p->elem_bits || t.width != p->vec_width))
    return cli_fail(e, "%s does not match the parameter's type %s", cli_elem_name(t, name, sizeof name),
                    args_type_of(p));
  if (!cli_parse_value(text, out, e)) return false;
  cli_elem_name(out->elem, name, sizeof name);
  if (out->bytes != p->size) {
    size_t got = out->bytes;
    cli_arg_free(out);
    return cli_fail(e, "%s is %zu bytes but the parameter takes %zu", name, got, p->size);
  }
  return true;
}

static bool args_for_buffer(const char *text, const spvi_param_info *p, const spvi_struct *layout, cli_arg *out,
                            cli_error *e) {
  /* clSetKernelArg: "If the argument is a buffer object, the arg_value pointer can be NULL or point
   * to a NULL value in which case a NULL value will be used as the value for the argument" */
  if (strcmp(text, "null") == 0) {
    *out = (cli_arg){.kind = CLI_ARG_NULL, .typed = false, .elem = {NULL, 0}, .count = 0};
    return true;
  }
  const char *colon = strchr(text, ':'), *bracket = strchr(text, '[');
  if (!bracket || (colon && colon < bracket))
    return cli_fail(e, "a buffer parameter takes TYPE[COUNT], TYPE[COUNT]=INIT or null");
  /* Byte buffers (char*, uchar*), void*-like and struct pointees take any element type; for a
   * scalar or vector pointee the element sizes must agree, so indexing means the same thing on
   * both sides (the kinds may differ: uint[N] can carry float bit patterns). Checked before the
   * initialiser is read, so a mismatch is reported as such. */
  bool any = !args_is_scalar_or_vector(p) || (p->elem_bits == 8 && p->vec_width == 1);
  cli_elem t;
  if (!any && cli_elem_parse(text, (size_t)(bracket - text), &t) && cli_elem_size(t) != p->size) {
    char name[24], pointee[64];
    const char *type = args_type_of(p);
    size_t tl = strlen(type);
    snprintf(pointee, sizeof pointee, "%.*s", (int)(tl && type[tl - 1] == '*' ? tl - 1 : tl), type);
    return cli_fail(e, "%s elements are %zu byte%s but the parameter points to %s (%zu byte%s)",
                    cli_elem_name(t, name, sizeof name), cli_elem_size(t), args_plural(cli_elem_size(t)), pointee,
                    p->size, args_plural(p->size));
  }
  return args_parse_buffer(text, layout, out, e);
}

bool cli_arg_for_param(const char *text, const spvi_param_info *p, cli_arg *out, cli_error *e) {
  return cli_arg_for_struct_param(text, p, NULL, out, e);
}

bool cli_arg_for_struct_param(const char *text, const spvi_param_info *p, const spvi_struct *layout, cli_arg *out,
                              cli_error *e) {
  switch (p->kind) {
  case SPVI_PARAM_VALUE: return args_for_value(text, p, out, e);
  case SPVI_PARAM_BUFFER: return args_for_buffer(text, p, layout, out, e);
  case SPVI_PARAM_LOCAL:
    if (!args_starts(text, "local:")) return cli_fail(e, "a __local pointer parameter takes local:BYTES");
    return cli_parse_local(text, out, e);
  case SPVI_PARAM_IMAGE: {
    if (!strchr(text, ':') || args_starts(text, "sampler:") || !args_starts(text, "image"))
      return cli_fail(e,
                      "an image parameter (%s) takes IMAGETYPE:ORDER:CHANNELTYPE:DIMS[=INIT], e.g. %s:rgba:unorm8:%s",
                      args_type_of(p), spvi_image_type_name(p->image_type),
                      p->image_type == SPVI_IMAGE_1D_ARRAY || p->image_type == SPVI_IMAGE_2D   ? "16,16"
                      : p->image_type == SPVI_IMAGE_2D_ARRAY || p->image_type == SPVI_IMAGE_3D ? "16,16,4"
                                                                                               : "16");
    if (!cli_parse_image(text, out, e)) return false;
    if (out->image.type != p->image_type) {
      spvi_image_type got = out->image.type;
      cli_arg_free(out);
      return cli_fail(e, "the parameter is %s, the argument an %s", args_type_of(p), spvi_image_type_name(got));
    }
    return true;
  }
  case SPVI_PARAM_SAMPLER: return cli_parse_sampler(text, out, e);
  case SPVI_PARAM_OPAQUE: break;
  }
  return cli_fail(e, "parameters of type %s are not supported", args_type_of(p));
}

void cli_arg_free(cli_arg *a) {
  if (a->mem) spvi_mem_release(a->mem);
  else free(a->data);
  a->mem = NULL;
  a->data = NULL;
}
