/*
 * test_spvasm.c — hand-written SPIR-V assembly cases (every .spvasm file in tests/spvasm), for
 * instructions and control-flow shapes that OpenCL C compilers rarely emit.
 *
 * Every file is one cmocka test. It is assembled at test time with the SPIRV-Tools C API, loaded
 * through the public API (spvi_load_memory), and run twice — at warp width 1 and at the default
 * width (0) — with fresh buffers each time. Both runs must give byte-identical buffers (and the same
 * fault kind), and the buffers must hold the values the file expects. (Memory left by a faulting
 * run is not a result: it is not compared between widths.)
 *
 * Directives are comment lines of the form `; NAME: VALUE` anywhere in the file's leading comment
 * block (other comment lines, e.g. the hand derivations of the expected values, are ignored):
 *
 *   ; kernel: main                     entry point name (default: the module's only/first kernel)
 *   ; version: 1.4                     SPIR-V version to assemble for (default 1.0)
 *   ; global: 4 [2 [1]]                NDRange global size; its count of numbers is the dimension
 *   ; local: 2 [..]                    local size (default: spvi picks)
 *   ; offset: 1 [..]                   global offset
 *   ; subgroup-size: N                 spvi_run_options.subgroup_size (default 0: spvi's default)
 *   ; arg: buffer TYPE N [= v ...]     a global/constant buffer of N elements (zero-filled if no =)
 *   ; arg: value TYPE v ...            a by-value argument: the values' bytes, packed
 *   ; arg: local BYTES                 a __local pointer argument
 *   ; expect: arg I TYPE = v ...       buffer argument I after the run, element by element
 *   ; expect-fault: KIND [OpName] [at=G]  the run must fault (out-of-bounds, null-pointer,
 *                                      bad-pointer, read-only, barrier-divergence, unreachable,
 *                                      unsupported, assume), at that instruction, in work-item G (dim 0)
 *   ; expect-load-error: TEXT          loading must fail with a message containing TEXT
 *   ; more: v ...                      continues the value list of the previous arg/expect line
 *
 * TYPE: char uchar short ushort int uint long ulong half float double. Integers are decimal
 * (a leading '-' allowed for every integer type: two's complement) or 0x hex; half is given as
 * hex bits; float/double are decimal or hex-float (strtod), `nan`, `inf` (a float literal must be
 * exact in float, so the test states its bits, not a rounding of them). In any type `#0x...`
 * gives raw bits. In expectations `?` matches anything (SPIR-V leaves the value undefined), and
 * `K*v` repeats v K times. Float expectations compare bits exactly (so -0 != +0), except that an
 * expected NaN matches any NaN.
 *
 * The cases directory is tests/spvasm (run from the repository root), or $SPVASM_DIR; a
 * command-line argument runs only the files whose name contains it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv-tools/libspirv.h>

#include "spvi.h"

/* ---- case description ----------------------------------------------------------------------- */

typedef enum etype {
  T_CHAR,
  T_UCHAR,
  T_SHORT,
  T_USHORT,
  T_INT,
  T_UINT,
  T_LONG,
  T_ULONG,
  T_HALF,
  T_FLOAT,
  T_DOUBLE
} etype;

static const struct {
  const char *name;
  unsigned size;
  bool is_signed, is_float;
} tinfo[] = {
  [T_CHAR] = {"char", 1, true, false},     [T_UCHAR] = {"uchar", 1, false, false},
  [T_SHORT] = {"short", 2, true, false},   [T_USHORT] = {"ushort", 2, false, false},
  [T_INT] = {"int", 4, true, false},       [T_UINT] = {"uint", 4, false, false},
  [T_LONG] = {"long", 8, true, false},     [T_ULONG] = {"ulong", 8, false, false},
  [T_HALF] = {"half", 2, false, false},    [T_FLOAT] = {"float", 4, false, true},
  [T_DOUBLE] = {"double", 8, false, true},
};

/* A list of typed values: `n` elements of `t`, their bytes, and a wildcard flag per element. */
typedef struct vlist {
  etype t;
  size_t n, cap;
  uint8_t *bytes;
  uint8_t *wild;
} vlist;

enum { A_BUFFER, A_VALUE, A_LOCAL };
typedef struct argspec {
  int kind;
  size_t count; /* A_BUFFER: declared elements; A_LOCAL: bytes */
  bool has_values;
  vlist v;
} argspec;

typedef struct expectspec {
  int arg;
  vlist v;
} expectspec;

#define MAX_ARGS 16
#define MAX_EXPECTS 16

typedef struct tcase {
  char path[512];
  char name[256];
  char *text;
  unsigned version_minor;
  char kernel[128];
  unsigned dims;
  size_t global[3], local[3], offset[3];
  bool has_local, has_offset;
  unsigned subgroup_size;
  argspec args[MAX_ARGS];
  int nargs;
  expectspec ex[MAX_EXPECTS];
  int nex;
  char fault[64], fault_op[128];
  long long fault_gid; /* global id (dimension 0) of the faulting work-item, -1: not checked */
  char load_error[256];
  char parse_err[1024];
  vlist *last_list;    /* the list a `more:` line continues */
  bool last_is_buffer; /* whether that list belongs to a buffer argument (count checked at end) */
  bool last_is_arg;    /* whether it belongs to an argument (no `?` there) */
} tcase;

/* ---- parsing ------------------------------------------------------------------------------ */

static void perr(tcase *c, unsigned line, const char *fmt, ...) {
  if (c->parse_err[0]) return;
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  snprintf(c->parse_err, sizeof c->parse_err, "%s:%u: %s", c->name, line, msg);
}

static const char *skip_ws(const char *s) {
  while (*s == ' ' || *s == '\t') s++;
  return s;
}

/* Next whitespace-separated token of *s into tok; false at the end of the line. */
static bool next_tok(const char **s, char *tok, size_t len) {
  const char *p = skip_ws(*s);
  if (!*p) return false;
  size_t n = 0;
  while (p[n] && p[n] != ' ' && p[n] != '\t') n++;
  if (n >= len) n = len - 1;
  memcpy(tok, p, n);
  tok[n] = 0;
  while (*p && *p != ' ' && *p != '\t') p++;
  *s = p;
  return true;
}

static bool parse_type(const char *tok, etype *t) {
  for (unsigned i = 0; i < sizeof tinfo / sizeof tinfo[0]; i++)
    if (strcmp(tok, tinfo[i].name) == 0) {
      *t = (etype)i;
      return true;
    }
  return false;
}

/* Unsigned magnitude of a decimal or 0x-hex literal; false on junk or overflow. */
static bool parse_mag(const char *s, uint64_t *out) {
  uint64_t v = 0;
  bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  if (hex) s += 2;
  if (!*s) return false;
  for (; *s; s++) {
    unsigned d;
    if (*s >= '0' && *s <= '9') d = (unsigned)(*s - '0');
    else if (hex && *s >= 'a' && *s <= 'f') d = (unsigned)(*s - 'a' + 10);
    else if (hex && *s >= 'A' && *s <= 'F') d = (unsigned)(*s - 'A' + 10);
    else return false;
    uint64_t base = hex ? 16 : 10;
    if (v > (UINT64_MAX - d) / base) return false;
    v = v * base + d;
  }
  *out = v;
  return true;
}

/* One value of type t into `bytes` (little-endian, the host's layout). */
static bool parse_value(etype t, const char *tok, uint8_t *bytes) {
  unsigned size = tinfo[t].size;
  if (tok[0] == '#') { /* raw bits */
    uint64_t v;
    if (!parse_mag(tok + 1, &v)) return false;
    if (size < 8 && v >> (size * 8)) return false;
    memcpy(bytes, &v, size); /* little-endian host */
    return true;
  }
  if (t == T_FLOAT || t == T_DOUBLE) {
    char *end;
    errno = 0;
    double d = strtod(tok, &end);
    if (*end || end == tok) return false;
    if (t == T_FLOAT) {
      float f = (float)d;
      if ((double)f != d && !isnan(d)) return false; /* the literal must be exact in float */
      memcpy(bytes, &f, 4);
    } else {
      memcpy(bytes, &d, 8);
    }
    return true;
  }
  if (t == T_HALF) {
    uint64_t v;
    if (strncmp(tok, "0x", 2) != 0 || !parse_mag(tok, &v) || v > 0xFFFF) return false;
    uint16_t h = (uint16_t)v;
    memcpy(bytes, &h, 2);
    return true;
  }
  bool neg = tok[0] == '-';
  uint64_t mag;
  if (!parse_mag(tok + neg, &mag)) return false;
  unsigned bits = size * 8;
  uint64_t umax = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
  uint64_t v;
  if (neg) {
    /* -mag must fit the signed range of the width */
    if (mag > ((uint64_t)1 << (bits - 1))) return false;
    v = (0 - mag) & umax;
  } else {
    if (mag > umax) return false;
    v = mag;
  }
  memcpy(bytes, &v, size);
  return true;
}

static void vl_push(vlist *l, const uint8_t *bytes, bool wild) {
  unsigned sz = tinfo[l->t].size;
  if (l->n == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 16;
    l->bytes = realloc(l->bytes, l->cap * sz);
    l->wild = realloc(l->wild, l->cap);
    if (!l->bytes || !l->wild) abort();
  }
  memcpy(l->bytes + l->n * sz, bytes, sz);
  l->wild[l->n] = wild;
  l->n++;
}

static void vl_free(vlist *l) {
  free(l->bytes);
  free(l->wild);
  memset(l, 0, sizeof *l);
}

/* Appends the values of `s` to l. */
static void parse_values(tcase *c, unsigned line, const char *s, vlist *l, bool allow_wild) {
  char tok[128];
  while (next_tok(&s, tok, sizeof tok)) {
    const char *v = tok;
    size_t rep = 1;
    char *star = strchr(tok, '*');
    if (star) {
      *star = 0;
      uint64_t r;
      if (!parse_mag(tok, &r) || r == 0 || r > 1u << 20) {
        perr(c, line, "bad repeat count `%s`", tok);
        return;
      }
      rep = (size_t)r;
      v = star + 1;
    }
    uint8_t b[8] = {0};
    bool wild = strcmp(v, "?") == 0;
    if (wild && !allow_wild) {
      perr(c, line, "`?` is only allowed in expectations");
      return;
    }
    if (!wild && !parse_value(l->t, v, b)) {
      perr(c, line, "`%s` is not a %s value", v, tinfo[l->t].name);
      return;
    }
    for (size_t i = 0; i < rep; i++) vl_push(l, b, wild);
  }
}

static void parse_sizes(tcase *c, unsigned line, const char *s, size_t out[3], unsigned *n) {
  char tok[64];
  unsigned k = 0;
  while (next_tok(&s, tok, sizeof tok)) {
    uint64_t v;
    if (k == 3 || !parse_mag(tok, &v)) {
      perr(c, line, "bad size list");
      return;
    }
    out[k++] = (size_t)v;
  }
  if (!k) perr(c, line, "empty size list");
  *n = k;
}

static void check_buffer_count(tcase *c, unsigned line) {
  if (!c->last_is_buffer || !c->last_list) return;
  argspec *a = &c->args[c->nargs - 1];
  if (a->has_values && a->v.n != a->count)
    perr(c, line, "buffer argument %d declares %zu elements but lists %zu", c->nargs - 1, a->count, a->v.n);
}

static void parse_directive(tcase *c, unsigned line, const char *key, const char *val) {
  char tok[128];
  const char *s = val;
  if (strcmp(key, "more") != 0) {
    check_buffer_count(c, line);
    c->last_list = NULL;
    c->last_is_buffer = c->last_is_arg = false;
  }
  if (strcmp(key, "kernel") == 0) {
    if (!next_tok(&s, c->kernel, sizeof c->kernel)) perr(c, line, "kernel: needs a name");
  } else if (strcmp(key, "version") == 0) {
    unsigned maj, min;
    if (sscanf(val, " %u.%u", &maj, &min) != 2 || maj != 1 || min > 6) perr(c, line, "bad version");
    else c->version_minor = min;
  } else if (strcmp(key, "global") == 0) {
    parse_sizes(c, line, val, c->global, &c->dims);
  } else if (strcmp(key, "local") == 0) {
    unsigned n;
    parse_sizes(c, line, val, c->local, &n);
    c->has_local = true;
  } else if (strcmp(key, "offset") == 0) {
    unsigned n;
    parse_sizes(c, line, val, c->offset, &n);
    c->has_offset = true;
  } else if (strcmp(key, "subgroup-size") == 0) {
    if (sscanf(val, " %u", &c->subgroup_size) != 1) perr(c, line, "subgroup-size: needs a number");
  } else if (strcmp(key, "arg") == 0) {
    if (c->nargs == MAX_ARGS) {
      perr(c, line, "too many arguments");
      return;
    }
    argspec *a = &c->args[c->nargs++];
    memset(a, 0, sizeof *a);
    if (!next_tok(&s, tok, sizeof tok)) {
      perr(c, line, "arg: needs a kind");
      return;
    }
    uint64_t n;
    if (strcmp(tok, "local") == 0) {
      a->kind = A_LOCAL;
      if (!next_tok(&s, tok, sizeof tok) || !parse_mag(tok, &n)) {
        perr(c, line, "arg: local needs a byte count");
        return;
      }
      a->count = (size_t)n;
      return;
    }
    bool buffer = strcmp(tok, "buffer") == 0;
    if (!buffer && strcmp(tok, "value") != 0) {
      perr(c, line, "arg kind `%s` (buffer, value, local)", tok);
      return;
    }
    a->kind = buffer ? A_BUFFER : A_VALUE;
    if (!next_tok(&s, tok, sizeof tok) || !parse_type(tok, &a->v.t)) {
      perr(c, line, "arg: bad type");
      return;
    }
    if (buffer) {
      if (!next_tok(&s, tok, sizeof tok) || !parse_mag(tok, &n)) {
        perr(c, line, "arg: buffer needs a count");
        return;
      }
      a->count = (size_t)n;
      s = skip_ws(s);
      if (*s == '=') {
        a->has_values = true;
        parse_values(c, line, s + 1, &a->v, false);
      } else if (*s) {
        perr(c, line, "arg: expected `=` or the end of the line");
      }
      c->last_is_buffer = true;
    } else {
      a->has_values = true;
      parse_values(c, line, s, &a->v, false);
    }
    c->last_list = &a->v;
    c->last_is_arg = true;
  } else if (strcmp(key, "expect") == 0) {
    if (c->nex == MAX_EXPECTS) {
      perr(c, line, "too many expectations");
      return;
    }
    expectspec *e = &c->ex[c->nex++];
    memset(e, 0, sizeof *e);
    uint64_t n;
    if (!next_tok(&s, tok, sizeof tok) || strcmp(tok, "arg") != 0 || !next_tok(&s, tok, sizeof tok) ||
        !parse_mag(tok, &n) || !next_tok(&s, tok, sizeof tok) || !parse_type(tok, &e->v.t)) {
      perr(c, line, "expect: arg I TYPE = values");
      return;
    }
    e->arg = (int)n;
    s = skip_ws(s);
    if (*s != '=') {
      perr(c, line, "expect: missing `=`");
      return;
    }
    parse_values(c, line, s + 1, &e->v, true);
    c->last_list = &e->v;
  } else if (strcmp(key, "more") == 0) {
    if (!c->last_list) {
      perr(c, line, "more: without a preceding arg/expect list");
      return;
    }
    parse_values(c, line, val, c->last_list, !c->last_is_arg);
  } else if (strcmp(key, "expect-fault") == 0) {
    if (!next_tok(&s, c->fault, sizeof c->fault)) {
      perr(c, line, "expect-fault: needs a kind");
      return;
    }
    while (next_tok(&s, tok, sizeof tok)) {
      uint64_t n;
      if (strncmp(tok, "at=", 3) == 0) {
        if (!parse_mag(tok + 3, &n)) {
          perr(c, line, "expect-fault: bad at=N");
          return;
        }
        c->fault_gid = (long long)n;
      } else {
        snprintf(c->fault_op, sizeof c->fault_op, "%s", tok);
      }
    }
  } else if (strcmp(key, "expect-load-error") == 0) {
    s = skip_ws(s);
    snprintf(c->load_error, sizeof c->load_error, "%s", s);
    size_t n = strlen(c->load_error);
    while (n && isspace((unsigned char)c->load_error[n - 1])) c->load_error[--n] = 0;
    if (!n) perr(c, line, "expect-load-error: needs a text");
  }
  /* anything else is an ordinary comment */
}

static const char *const directive_keys[] = {"kernel",       "version",           "global", "local",
                                             "offset",       "subgroup-size",     "arg",    "expect",
                                             "expect-fault", "expect-load-error", "more"};

static void parse_case(tcase *c) {
  const char *p = c->text;
  unsigned line = 0;
  while (*p) {
    line++;
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    char buf[4096];
    if (len >= sizeof buf) len = sizeof buf - 1;
    memcpy(buf, p, len);
    buf[len] = 0;
    if (len && buf[len - 1] == '\r') buf[--len] = 0;
    p = eol ? eol + 1 : p + strlen(p);
    const char *s = skip_ws(buf);
    if (!*s) continue;
    if (*s != ';') break; /* end of the leading comment block */
    s = skip_ws(s + 1);
    const char *colon = strchr(s, ':');
    if (!colon) continue;
    char key[32];
    size_t kl = (size_t)(colon - s);
    if (kl == 0 || kl >= sizeof key) continue;
    memcpy(key, s, kl);
    key[kl] = 0;
    bool known = false;
    for (size_t i = 0; i < sizeof directive_keys / sizeof directive_keys[0]; i++)
      if (strcmp(key, directive_keys[i]) == 0) known = true;
    if (!known) continue;
    parse_directive(c, line, key, colon + 1);
  }
  check_buffer_count(c, line);
  if (c->parse_err[0]) return;
  if (!c->load_error[0] && !c->dims) perr(c, line, "no `global:` directive");
  if (!c->load_error[0] && !c->fault[0] && !c->nex)
    perr(c, line, "no expectation (expect:, expect-fault: or expect-load-error:)");
  for (int i = 0; i < c->nex; i++)
    if (c->ex[i].arg < 0 || c->ex[i].arg >= c->nargs || c->args[c->ex[i].arg].kind != A_BUFFER)
      perr(c, line, "expect: argument %d is not a buffer argument", c->ex[i].arg);
}

/* ---- running ------------------------------------------------------------------------------- */

typedef struct runres {
  spvi_status status;
  spvi_fault fault;
  char err[1200]; /* a prefix and an spvi_error message */
  uint8_t *buf[MAX_ARGS];
  size_t bytes[MAX_ARGS];
} runres;

static void runres_free(runres *r) {
  for (int i = 0; i < MAX_ARGS; i++) free(r->buf[i]);
  memset(r, 0, sizeof *r);
}

typedef struct msgs {
  char text[4096];
  size_t len;
} msgs;

static void on_message(void *user, spvi_severity sev, const char *message) {
  msgs *m = user;
  int k = snprintf(m->text + m->len, sizeof m->text - m->len, "  [%s] %s\n", sev == SPVI_WARNING ? "warning" : "note",
                   message);
  if (k > 0) m->len += (size_t)k < sizeof m->text - m->len ? (size_t)k : sizeof m->text - m->len - 1;
}

static bool run_once(const tcase *c, spvi_module *m, int kernel, unsigned warp, runres *r) {
  spvi_error err = {SPVI_OK, ""};
  spvi_launch *l = spvi_launch_new(m, kernel, &err);
  if (!l) {
    snprintf(r->err, sizeof r->err, "spvi_launch_new: %s", err.message);
    return false;
  }
  for (int i = 0; i < c->nargs; i++) {
    const argspec *a = &c->args[i];
    spvi_status s;
    if (a->kind == A_LOCAL) s = spvi_set_arg_local(l, i, a->count, &err);
    else if (a->kind == A_BUFFER)
      s = spvi_set_arg_buffer(l, i, a->has_values ? a->v.bytes : NULL, a->count * tinfo[a->v.t].size, &err);
    else s = spvi_set_arg_value(l, i, a->v.bytes, a->v.n * tinfo[a->v.t].size, &err);
    if (s != SPVI_OK) {
      snprintf(r->err, sizeof r->err, "argument %d: %s", i, err.message);
      spvi_launch_free(l);
      return false;
    }
  }
  if (spvi_set_ndrange(l, c->dims, c->global, c->has_local ? c->local : NULL, c->has_offset ? c->offset : NULL, &err) !=
      SPVI_OK) {
    snprintf(r->err, sizeof r->err, "spvi_set_ndrange: %s", err.message);
    spvi_launch_free(l);
    return false;
  }
  spvi_run_options ro;
  memset(&ro, 0, sizeof ro);
  ro.warp_width = warp;
  ro.subgroup_size = c->subgroup_size;
  r->status = spvi_run(l, &ro, &r->fault, &err);
  if (r->status != SPVI_OK && r->status != SPVI_FAULT) snprintf(r->err, sizeof r->err, "spvi_run: %s", err.message);
  for (int i = 0; i < c->nargs; i++) {
    size_t bytes = 0;
    const void *b = spvi_arg_buffer(l, i, &bytes);
    if (!b) continue;
    r->buf[i] = malloc(bytes ? bytes : 1);
    if (!r->buf[i]) abort();
    memcpy(r->buf[i], b, bytes);
    r->bytes[i] = bytes;
  }
  spvi_launch_free(l);
  return true;
}

static void fmt_value(etype t, const uint8_t *b, char *out, size_t len) {
  uint64_t u = 0;
  memcpy(&u, b, tinfo[t].size);
  if (t == T_FLOAT) {
    float f;
    memcpy(&f, b, 4);
    snprintf(out, len, "%.9g (%a, bits 0x%08llx)", (double)f, (double)f, (unsigned long long)u);
  } else if (t == T_DOUBLE) {
    double d;
    memcpy(&d, b, 8);
    snprintf(out, len, "%.17g (%a, bits 0x%016llx)", d, d, (unsigned long long)u);
  } else if (t == T_HALF) {
    snprintf(out, len, "0x%04llx", (unsigned long long)u);
  } else if (tinfo[t].is_signed) {
    unsigned bits = tinfo[t].size * 8;
    int64_t sv = bits == 64 ? (int64_t)u : (int64_t)(u << (64 - bits)) >> (64 - bits);
    snprintf(out, len, "%lld (0x%llx)", (long long)sv, (unsigned long long)u);
  } else {
    snprintf(out, len, "%llu (0x%llx)", (unsigned long long)u, (unsigned long long)u);
  }
}

static bool value_matches(etype t, const uint8_t *want, const uint8_t *got) {
  if (t == T_FLOAT) {
    float w, g;
    memcpy(&w, want, 4);
    memcpy(&g, got, 4);
    if (isnan(w)) return isnan(g);
  } else if (t == T_DOUBLE) {
    double w, g;
    memcpy(&w, want, 8);
    memcpy(&g, got, 8);
    if (isnan(w)) return isnan(g);
  }
  return memcmp(want, got, tinfo[t].size) == 0;
}

/* Checks the expectations against one run; appends mismatches to `out`. Returns the count. */
static unsigned check_expects(const tcase *c, const runres *r, unsigned warp, char *out, size_t len) {
  unsigned bad = 0;
  size_t o = strlen(out);
  for (int i = 0; i < c->nex; i++) {
    const expectspec *e = &c->ex[i];
    unsigned sz = tinfo[e->v.t].size;
    if (e->v.n * sz > r->bytes[e->arg]) {
      bad++;
      o += (size_t)snprintf(out + o, o < len ? len - o : 0, "  warp %u: arg %d has %zu bytes, expectation needs %zu\n",
                            warp, e->arg, r->bytes[e->arg], e->v.n * sz);
      continue;
    }
    for (size_t k = 0; k < e->v.n; k++) {
      if (e->v.wild[k]) continue;
      const uint8_t *want = e->v.bytes + k * sz, *got = r->buf[e->arg] + k * sz;
      if (value_matches(e->v.t, want, got)) continue;
      if (++bad <= 24 && o < len) {
        char ws[96], gs[96];
        fmt_value(e->v.t, want, ws, sizeof ws);
        fmt_value(e->v.t, got, gs, sizeof gs);
        o += (size_t)snprintf(out + o, len - o, "  warp %u: arg %d %s[%zu]: expected %s, got %s\n", warp, e->arg,
                              tinfo[e->v.t].name, k, ws, gs);
      }
    }
  }
  return bad;
}

static const struct {
  const char *name;
  spvi_fault_kind kind;
} fault_names[] = {
  {"out-of-bounds", SPVI_FAULT_OUT_OF_BOUNDS},
  {"null-pointer", SPVI_FAULT_NULL_POINTER},
  {"bad-pointer", SPVI_FAULT_BAD_POINTER},
  {"read-only", SPVI_FAULT_READ_ONLY},
  {"barrier-divergence", SPVI_FAULT_BARRIER_DIVERGENCE},
  {"unreachable", SPVI_FAULT_UNREACHABLE},
  {"unsupported", SPVI_FAULT_UNSUPPORTED},
  {"assume", SPVI_FAULT_ASSUME},
};

static const char *fault_name(spvi_fault_kind k) {
  for (size_t i = 0; i < sizeof fault_names / sizeof fault_names[0]; i++)
    if (fault_names[i].kind == k) return fault_names[i].name;
  return k == SPVI_FAULT_NONE ? "none" : "?";
}

static void read_text(tcase *c) {
  FILE *f = fopen(c->path, "rb");
  if (!f) {
    snprintf(c->parse_err, sizeof c->parse_err, "%s: cannot open: %s", c->path, strerror(errno));
    return;
  }
  size_t cap = 4096, n = 0;
  char *t = malloc(cap);
  size_t got;
  while (t && (got = fread(t + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (n + 1 == cap) {
      char *nt = realloc(t, cap * 2);
      if (!nt) {
        free(t);
        t = NULL;
        break;
      }
      t = nt;
      cap *= 2;
    }
  }
  fclose(f);
  if (!t) abort();
  t[n] = 0;
  c->text = t;
}

static const spv_target_env envs[] = {SPV_ENV_UNIVERSAL_1_0, SPV_ENV_UNIVERSAL_1_1, SPV_ENV_UNIVERSAL_1_2,
                                      SPV_ENV_UNIVERSAL_1_3, SPV_ENV_UNIVERSAL_1_4, SPV_ENV_UNIVERSAL_1_5,
                                      SPV_ENV_UNIVERSAL_1_6};

static void run_case(void **state) {
  tcase *c = *state;
  if (c->parse_err[0]) fail_msg("%s", c->parse_err);

  spv_context ctx = spvContextCreate(envs[c->version_minor]);
  assert_non_null(ctx);
  spv_binary bin = NULL;
  spv_diagnostic diag = NULL;
  spv_result_t ar = spvTextToBinary(ctx, c->text, strlen(c->text), &bin, &diag);
  if (ar != SPV_SUCCESS) {
    char msg[600];
    snprintf(msg, sizeof msg, "%s: does not assemble: line %zu col %zu: %s", c->name,
             diag ? diag->position.line + 1 : 0, diag ? diag->position.column + 1 : 0,
             diag && diag->error ? diag->error : "?");
    spvDiagnosticDestroy(diag);
    spvBinaryDestroy(bin);
    spvContextDestroy(ctx);
    fail_msg("%s", msg);
  }
  spvDiagnosticDestroy(diag);

  msgs warnings;
  memset(&warnings, 0, sizeof warnings);
  spvi_load_options lo = {.strict = false, .on_message = on_message, .user = &warnings};
  spvi_error err = {SPVI_OK, ""};
  spvi_module *m = spvi_load_memory(bin->code, bin->wordCount * 4, c->name, &lo, &err);
  spvBinaryDestroy(bin);
  spvContextDestroy(ctx);

  if (c->load_error[0]) {
    if (m) {
      spvi_module_free(m);
      fail_msg("%s: loaded, but a load error containing `%s` was expected", c->name, c->load_error);
    }
    if (!strstr(err.message, c->load_error))
      fail_msg("%s: load error `%s` does not contain `%s`", c->name, err.message, c->load_error);
    return;
  }
  if (!m) fail_msg("%s: load failed: %s\n%s", c->name, err.message, warnings.text);

  int kernel = c->kernel[0] ? spvi_find_kernel(m, c->kernel) : 0;
  if (kernel < 0) {
    spvi_module_free(m);
    fail_msg("%s: no kernel `%s`", c->name, c->kernel);
  }

  static const unsigned warps[2] = {1, 0};
  runres res[2];
  memset(res, 0, sizeof res);
  char report[8192] = "";
  size_t rl = 0;
  unsigned problems = 0;
#define REPORT(...)                                                                               \
  do {                                                                                            \
    problems++;                                                                                   \
    if (rl < sizeof report) rl += (size_t)snprintf(report + rl, sizeof report - rl, __VA_ARGS__); \
  } while (0)
  bool ran[2];
  for (int w = 0; w < 2; w++) {
    ran[w] = run_once(c, m, kernel, warps[w], &res[w]);
    if (!ran[w]) {
      REPORT("  warp %u: %s\n", warps[w], res[w].err);
      continue;
    }
    spvi_status want = c->fault[0] ? SPVI_FAULT : SPVI_OK;
    if (res[w].status != want) {
      REPORT("  warp %u: status %d (%s%s%s), expected %s\n", warps[w], (int)res[w].status,
             res[w].status == SPVI_FAULT ? "fault " : "",
             res[w].status == SPVI_FAULT ? fault_name(res[w].fault.kind) : res[w].err,
             res[w].status == SPVI_FAULT ? "" : "", c->fault[0] ? "a fault" : "success");
      if (res[w].status == SPVI_FAULT) REPORT("%s\n", res[w].fault.message);
      continue;
    }
    if (c->fault[0]) {
      if (strcmp(fault_name(res[w].fault.kind), c->fault) != 0)
        REPORT("  warp %u: fault %s, expected %s\n%s\n", warps[w], fault_name(res[w].fault.kind), c->fault,
               res[w].fault.message);
      if (c->fault_op[0] && strcmp(res[w].fault.opcode, c->fault_op) != 0)
        REPORT("  warp %u: fault at %s, expected at %s\n", warps[w], res[w].fault.opcode, c->fault_op);
      if (c->fault_gid >= 0 && res[w].fault.global_id[0] != (size_t)c->fault_gid)
        REPORT("  warp %u: fault in work-item %zu, expected in %lld\n", warps[w], res[w].fault.global_id[0],
               c->fault_gid);
    }
    char ex[4096] = "";
    unsigned bad = check_expects(c, &res[w], warps[w], ex, sizeof ex);
    if (bad) REPORT("%s  warp %u: %u mismatching element(s)\n", ex, warps[w], bad);
  }
  /* results must not depend on the warp width (memory after a fault is not a result: a fault
   * stops the launch wherever the other work-items happen to be) */
  if (ran[0] && ran[1]) {
    if (res[0].status != res[1].status || res[0].fault.kind != res[1].fault.kind)
      REPORT("  status/fault differs between warp widths: %d/%s vs %d/%s\n", (int)res[0].status,
             fault_name(res[0].fault.kind), (int)res[1].status, fault_name(res[1].fault.kind));
    for (int i = 0; i < c->nargs && !c->fault[0]; i++) {
      if (res[0].bytes[i] != res[1].bytes[i]) {
        REPORT("  arg %d: sizes differ between warp widths\n", i);
        continue;
      }
      for (size_t k = 0; k < res[0].bytes[i]; k++)
        if (res[0].buf[i][k] != res[1].buf[i][k]) {
          REPORT("  arg %d: byte %zu differs between warp width 1 (0x%02x) and the default (0x%02x)\n", i, k,
                 res[0].buf[i][k], res[1].buf[i][k]);
          break;
        }
    }
  }
#undef REPORT
  runres_free(&res[0]);
  runres_free(&res[1]);
  spvi_module_free(m);
  if (problems) {
    print_error("%s: %u problem(s):\n%s", c->name, problems, report);
    if (warnings.len) print_error("%s: loader messages:\n%s", c->name, warnings.text);
    fail_msg("%s failed", c->name);
  }
}

/* ---- enumeration ------------------------------------------------------------------------------ */

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
  const char *dir = getenv("SPVASM_DIR");
  if (!dir || !*dir) dir = "tests/spvasm";
  const char *filter = argc > 1 ? argv[1] : NULL;
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "test_spvasm: cannot open %s: %s (run from the repository root or set SPVASM_DIR)\n", dir,
            strerror(errno));
    return 1;
  }
  char **names = NULL;
  size_t n = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    size_t len = strlen(de->d_name);
    if (len < 8 || strcmp(de->d_name + len - 7, ".spvasm") != 0) continue;
    if (filter && !strstr(de->d_name, filter)) continue;
    names = realloc(names, (n + 1) * sizeof *names);
    if (!names) abort();
    names[n] = malloc(len + 1);
    if (!names[n]) abort();
    memcpy(names[n], de->d_name, len + 1);
    n++;
  }
  closedir(d);
  if (!n) {
    fprintf(stderr, "test_spvasm: no .spvasm files in %s\n", dir);
    free(names);
    return 1;
  }
  qsort(names, n, sizeof *names, cmp_names);
  tcase *cases = calloc(n, sizeof *cases);
  struct CMUnitTest *tests = calloc(n, sizeof *tests);
  if (!cases || !tests) abort();
  for (size_t i = 0; i < n; i++) {
    tcase *c = &cases[i];
    snprintf(c->path, sizeof c->path, "%s/%s", dir, names[i]);
    snprintf(c->name, sizeof c->name, "%s", names[i]);
    c->fault_gid = -1;
    read_text(c);
    if (c->text) parse_case(c);
    tests[i].name = c->name;
    tests[i].test_func = run_case;
    tests[i].initial_state = c;
  }
  int failed = _cmocka_run_group_tests("spvasm", tests, n, NULL, NULL);
  for (size_t i = 0; i < n; i++) {
    free(cases[i].text);
    for (int a = 0; a < cases[i].nargs; a++) vl_free(&cases[i].args[a].v);
    for (int e = 0; e < cases[i].nex; e++) vl_free(&cases[i].ex[e].v);
    free(names[i]);
  }
  free(cases);
  free(tests);
  free(names);
  return failed ? 1 : 0;
}
