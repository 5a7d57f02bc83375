/*
 * dbg_expr.c — the debugger's expressions: `print`, `display`, `watch`, `x` and breakpoint
 * conditions.
 *
 * Syntax: C expressions over source variables (DebugInfo or OpName), SPIR-V ids (%42, or %name as
 * the disassembly spells it), `argN` (kernel argument N), integer and floating literals, the
 * work-item functions (get_global_id(0) ...), + - * / % << >> & | ^ ~ ! && || == != < > <= >= ?:,
 * unary - * &, array and pointer indexing, struct members (. and ->), OpenCL vector components
 * (.x .s3 .lo .hi .even .odd, swizzles), and casts to scalar and pointer types.
 *
 * Semantics follow C/OpenCL C: integer promotion to at least 32 bits and the usual arithmetic
 * conversions; operations on a vector and a scalar convert the scalar to the vector's element
 * type; vector comparisons give -1/0 per component. Values are read from the work-item's registers
 * (SSA values) and memory (variables, pointers) without ever faulting: an access outside an
 * allocation is an error message.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

/* ---- syntax tree ------------------------------------------------------------------------------ */

enum { E_INT, E_FLT, E_NAME, E_SPVID, E_CALL, E_UNARY, E_BINARY, E_INDEX, E_MEMBER, E_ARROW, E_CAST, E_COND };

struct dbg_expr {
  int kind;
  char op[4];
  uint64_t ival;
  double fval;
  bool is_unsigned, is_long, is_f32;
  char *name;  /* NAME, CALL, MEMBER, ARROW; SPVID written by name */
  uint32_t id; /* SPVID */
  dbg_expr *a, *b, *c;
  dbg_expr *args[3];
  int nargs;
  /* CAST: the target type */
  dbg_kind ck;
  uint32_t cbits;
  bool csigned, cptr;
  int cspace;
};

void dbg_expr_free(dbg_expr *e) {
  if (!e) return;
  dbg_expr_free(e->a);
  dbg_expr_free(e->b);
  dbg_expr_free(e->c);
  for (int i = 0; i < e->nargs; i++) dbg_expr_free(e->args[i]);
  free(e->name);
  free(e);
}

/* ---- lexer and parser ---------------------------------------------------------------------- */

enum { T_END, T_INT, T_FLT, T_IDENT, T_SPVID, T_OP };

typedef struct parser {
  const char *p;
  int kind;
  char op[4];
  uint64_t ival;
  double fval;
  bool is_unsigned, is_long, is_f32;
  const char *ident; /* IDENT/SPVID name start */
  size_t ilen;
  char *err;
  size_t cap;
  bool failed;
} parser;

static void perr(parser *ps, const char *fmt, const char *arg) {
  if (ps->failed) return;
  ps->failed = true;
  snprintf(ps->err, ps->cap, fmt, arg);
}

static void next(parser *ps) {
  const char *p = ps->p;
  while (isspace((unsigned char)*p)) p++;
  ps->is_unsigned = ps->is_long = ps->is_f32 = false;
  if (!*p) {
    ps->kind = T_END;
    ps->p = p;
    return;
  }
  if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
    char *end;
    bool hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    const char *q = p;
    if (hex) q += 2;
    while (isxdigit((unsigned char)*q)) q++;
    bool is_float = *q == '.' || (!hex && (*q == 'e' || *q == 'E')) || (hex && (*q == 'p' || *q == 'P'));
    if (is_float) {
      ps->fval = strtod(p, &end);
      ps->kind = T_FLT;
      if (*end == 'f' || *end == 'F') {
        ps->is_f32 = true;
        end++;
      }
    } else {
      ps->ival = strtoull(p, &end, 0);
      ps->kind = T_INT;
      for (; *end == 'u' || *end == 'U' || *end == 'l' || *end == 'L'; end++) {
        if (*end == 'u' || *end == 'U') ps->is_unsigned = true;
        else ps->is_long = true;
      }
    }
    if (isalnum((unsigned char)*end) || *end == '_') {
      perr(ps, "Invalid number \"%s\".", p);
      ps->kind = T_END;
    }
    ps->p = end;
    return;
  }
  if (isalpha((unsigned char)*p) || *p == '_' || (*p == '%' && (isalnum((unsigned char)p[1]) || p[1] == '_'))) {
    bool spv = *p == '%';
    const char *s = spv ? p + 1 : p;
    const char *q = s;
    while (isalnum((unsigned char)*q) || *q == '_') q++;
    ps->kind = spv ? T_SPVID : T_IDENT;
    ps->ident = s;
    ps->ilen = (size_t)(q - s);
    ps->p = q;
    return;
  }
  static const char *const ops[] = {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "->"};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (p[0] == ops[i][0] && p[1] == ops[i][1]) {
      ps->kind = T_OP;
      memcpy(ps->op, ops[i], 3);
      ps->p = p + 2;
      return;
    }
  if (strchr("+-*/%<>&|^~!()[].,?:@", *p)) {
    ps->kind = T_OP;
    ps->op[0] = *p;
    ps->op[1] = 0;
    ps->p = p + 1;
    return;
  }
  char c[2] = {*p, 0};
  perr(ps, "Invalid character '%s' in expression.", c);
  ps->kind = T_END;
}

/* A node of `kind` whose first operand is a (may be NULL); NULL when out of memory, after freeing
 * a and failing the parse. */
static dbg_expr *node(parser *ps, int kind, dbg_expr *a) {
  dbg_expr *e = calloc(1, sizeof *e);
  if (!e) {
    dbg_expr_free(a);
    perr(ps, "%s", "Out of memory.");
    return NULL;
  }
  e->kind = kind;
  e->a = a;
  return e;
}

/* A copy of the token's name; NULL when out of memory (the parse fails). */
static char *token_name(parser *ps, const char *s, size_t n) {
  char *d = dbg_strndup(s, n);
  if (!d) perr(ps, "%s", "Out of memory.");
  return d;
}

static bool is_op(const parser *ps, const char *op) { return ps->kind == T_OP && strcmp(ps->op, op) == 0; }
static bool ident_is(const parser *ps, const char *w) {
  return ps->kind == T_IDENT && strlen(w) == ps->ilen && strncmp(ps->ident, w, ps->ilen) == 0;
}

static dbg_expr *p_expr(parser *ps);

/* Type names a cast may use. */
static const struct {
  const char *name;
  dbg_kind kind;
  uint8_t bits;
  bool sgn;
} scalar_names[] = {
  {"bool", DK_BOOL, 8, false},      {"char", DK_INT, 8, true},       {"uchar", DK_INT, 8, false},
  {"short", DK_INT, 16, true},      {"ushort", DK_INT, 16, false},   {"int", DK_INT, 32, true},
  {"uint", DK_INT, 32, false},      {"long", DK_INT, 64, true},      {"ulong", DK_INT, 64, false},
  {"size_t", DK_INT, 64, false},    {"ptrdiff_t", DK_INT, 64, true}, {"intptr_t", DK_INT, 64, true},
  {"uintptr_t", DK_INT, 64, false}, {"half", DK_FLOAT, 16, false},   {"float", DK_FLOAT, 32, false},
  {"double", DK_FLOAT, 64, false},  {"void", DK_VOID, 0, false},
};
static const struct {
  const char *name;
  int space;
} space_names[] = {
  {"global", SPVI_AS_GLOBAL},     {"__global", SPVI_AS_GLOBAL},     {"local", SPVI_AS_LOCAL},
  {"__local", SPVI_AS_LOCAL},     {"private", SPVI_AS_PRIVATE},     {"__private", SPVI_AS_PRIVATE},
  {"constant", SPVI_AS_CONSTANT}, {"__constant", SPVI_AS_CONSTANT}, {"generic", SPVI_AS_GENERIC},
  {"__generic", SPVI_AS_GENERIC},
};

static int type_word(const parser *ps) {
  if (ps->kind != T_IDENT) return 0;
  for (size_t i = 0; i < sizeof scalar_names / sizeof scalar_names[0]; i++)
    if (ident_is(ps, scalar_names[i].name)) return 1;
  for (size_t i = 0; i < sizeof space_names / sizeof space_names[0]; i++)
    if (ident_is(ps, space_names[i].name)) return 2;
  if (ident_is(ps, "unsigned") || ident_is(ps, "signed") || ident_is(ps, "const") || ident_is(ps, "volatile")) return 3;
  return 0;
}

/* After '(' of a cast: [space] [unsigned|signed] TYPE ['*'] ')' */
static dbg_expr *p_cast(parser *ps) {
  dbg_expr *e = node(ps, E_CAST, NULL);
  if (!e) return NULL;
  e->cspace = SPVI_AS_PRIVATE;
  bool have_base = false, is_unsigned = false, is_signed = false;
  while (ps->kind == T_IDENT && type_word(ps)) {
    bool done = false;
    for (size_t i = 0; i < sizeof space_names / sizeof space_names[0] && !done; i++)
      if (ident_is(ps, space_names[i].name)) {
        e->cspace = space_names[i].space;
        done = true;
      }
    if (ident_is(ps, "unsigned")) is_unsigned = done = true;
    if (ident_is(ps, "signed")) is_signed = done = true;
    if (ident_is(ps, "const") || ident_is(ps, "volatile")) done = true;
    for (size_t i = 0; i < sizeof scalar_names / sizeof scalar_names[0] && !done; i++)
      if (ident_is(ps, scalar_names[i].name)) {
        e->ck = scalar_names[i].kind;
        e->cbits = scalar_names[i].bits;
        e->csigned = scalar_names[i].sgn;
        have_base = done = true;
      }
    next(ps);
  }
  if (!have_base && (is_unsigned || is_signed)) {
    e->ck = DK_INT;
    e->cbits = 32;
    have_base = true;
  }
  if (!have_base) {
    perr(ps, "A syntax error in expression, near `%s'.", ps->p);
    return e;
  }
  if (e->ck == DK_INT && is_unsigned) e->csigned = false;
  if (e->ck == DK_INT && is_signed) e->csigned = true;
  if (is_op(ps, "*")) {
    e->cptr = true;
    next(ps);
  }
  if (e->ck == DK_VOID && !e->cptr) perr(ps, "%s", "A cast to void has no value.");
  if (!is_op(ps, ")")) perr(ps, "Expected `)' after the type in a cast, near `%s'.", ps->p);
  next(ps);
  return e;
}

static dbg_expr *p_unary(parser *ps);

static dbg_expr *p_primary(parser *ps) {
  dbg_expr *e = NULL;
  if (ps->kind == T_INT) {
    if (!(e = node(ps, E_INT, NULL))) return NULL;
    e->ival = ps->ival;
    e->is_unsigned = ps->is_unsigned;
    e->is_long = ps->is_long;
    next(ps);
  } else if (ps->kind == T_FLT) {
    if (!(e = node(ps, E_FLT, NULL))) return NULL;
    e->fval = ps->fval;
    e->is_f32 = ps->is_f32;
    next(ps);
  } else if (ps->kind == T_SPVID) {
    if (!(e = node(ps, E_SPVID, NULL))) return NULL;
    bool digits = true;
    for (size_t i = 0; i < ps->ilen; i++) digits = digits && isdigit((unsigned char)ps->ident[i]);
    if (digits) e->id = (uint32_t)strtoul(ps->ident, NULL, 10);
    else e->name = token_name(ps, ps->ident, ps->ilen);
    next(ps);
  } else if (ps->kind == T_IDENT) {
    char *name = token_name(ps, ps->ident, ps->ilen);
    next(ps);
    if (!name || !(e = node(ps, is_op(ps, "(") ? E_CALL : E_NAME, NULL))) {
      free(name);
      return NULL;
    }
    e->name = name;
    if (e->kind == E_CALL) {
      next(ps);
      while (!ps->failed && !is_op(ps, ")")) {
        if (e->nargs == 3) {
          perr(ps, "Too many arguments to %s.", name);
          break;
        }
        e->args[e->nargs++] = p_expr(ps);
        if (is_op(ps, ",")) next(ps);
        else if (!is_op(ps, ")")) perr(ps, "Expected `)' near `%s'.", ps->p);
      }
      next(ps);
    }
  } else if (is_op(ps, "(")) {
    next(ps);
    if (type_word(ps)) {
      if ((e = p_cast(ps))) e->a = p_unary(ps);
      return e;
    }
    e = p_expr(ps);
    if (!is_op(ps, ")")) perr(ps, "Expected `)' near `%s'.", ps->p);
    next(ps);
  } else {
    perr(ps, ps->kind == T_END ? "Expected an expression%s." : "A syntax error in expression, near `%s'.",
         ps->kind == T_END ? "" : ps->p - (ps->kind == T_OP ? strlen(ps->op) : 0));
    return NULL;
  }
  /* postfix: [i] .m ->m */
  while (!ps->failed) {
    if (is_op(ps, "[")) {
      next(ps);
      dbg_expr *x = node(ps, E_INDEX, e);
      if (!x) return NULL;
      x->b = p_expr(ps);
      if (!is_op(ps, "]")) perr(ps, "Expected `]' near `%s'.", ps->p);
      next(ps);
      e = x;
    } else if (is_op(ps, ".") || is_op(ps, "->")) {
      bool arrow = is_op(ps, "->");
      next(ps);
      if (ps->kind != T_IDENT && ps->kind != T_INT) {
        perr(ps, "Expected a member name near `%s'.", ps->p);
        break;
      }
      dbg_expr *x = node(ps, arrow ? E_ARROW : E_MEMBER, e);
      if (!x) return NULL;
      if (ps->kind == T_IDENT) x->name = token_name(ps, ps->ident, ps->ilen);
      else {
        char b[32];
        snprintf(b, sizeof b, "%llu", (unsigned long long)ps->ival);
        x->name = token_name(ps, b, strlen(b));
      }
      next(ps);
      e = x;
    } else {
      break;
    }
  }
  return e;
}

static dbg_expr *p_unary(parser *ps) {
  if (is_op(ps, "-") || is_op(ps, "+") || is_op(ps, "!") || is_op(ps, "~") || is_op(ps, "*") || is_op(ps, "&")) {
    dbg_expr *e = node(ps, E_UNARY, NULL);
    if (!e) return NULL;
    memcpy(e->op, ps->op, sizeof e->op);
    next(ps);
    e->a = p_unary(ps);
    return e;
  }
  return p_primary(ps);
}

/* Binary operators by precedence level, loosest first; gdb's artificial array `*p@n` binds between
 * the shifts and the additive operators, as in gdb's C grammar. */
static const char *const levels[][5] = {
  {"||"},       {"&&"}, {"|"},      {"^"},           {"&"}, {"==", "!="}, {"<", ">", "<=", ">="},
  {"<<", ">>"}, {"@"},  {"+", "-"}, {"*", "/", "%"},
};
#define NLEVELS (sizeof levels / sizeof levels[0])

static dbg_expr *p_binary(parser *ps, unsigned level) {
  if (level == NLEVELS) return p_unary(ps);
  dbg_expr *e = p_binary(ps, level + 1);
  for (;;) {
    bool matched = false;
    for (unsigned i = 0; i < 5 && levels[level][i]; i++)
      if (is_op(ps, levels[level][i])) matched = true;
    if (!matched || ps->failed) return e;
    dbg_expr *x = node(ps, E_BINARY, e);
    if (!x) return NULL;
    memcpy(x->op, ps->op, sizeof x->op);
    next(ps);
    x->b = p_binary(ps, level + 1);
    e = x;
  }
}

static dbg_expr *p_expr(parser *ps) {
  dbg_expr *e = p_binary(ps, 0);
  if (is_op(ps, "?")) {
    next(ps);
    dbg_expr *x = node(ps, E_COND, e);
    if (!x) return NULL;
    x->b = p_expr(ps);
    if (!is_op(ps, ":")) perr(ps, "Expected `:' near `%s'.", ps->p);
    next(ps);
    x->c = p_expr(ps);
    return x;
  }
  return e;
}

dbg_expr *dbg_parse(const char *text, char *err, size_t cap) {
  parser ps;
  memset(&ps, 0, sizeof ps);
  ps.p = text;
  ps.err = err;
  ps.cap = cap;
  next(&ps);
  if (ps.kind == T_END && !ps.failed) {
    snprintf(err, cap, "Expected an expression.");
    return NULL;
  }
  dbg_expr *e = p_expr(&ps);
  if (!ps.failed && ps.kind != T_END)
    perr(&ps, "A syntax error in expression, near `%s'.",
         ps.p - (ps.kind == T_OP                            ? strlen(ps.op)
                 : ps.kind == T_IDENT || ps.kind == T_SPVID ? ps.ilen + (ps.kind == T_SPVID)
                                                            : 0));
  if (ps.failed) {
    dbg_expr_free(e);
    return NULL;
  }
  return e;
}

/* ---- evaluation helpers --------------------------------------------------------------------- */

static bool fail(dbg_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(dbg_ctx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err, c->errcap, fmt, ap);
  va_end(ap);
  return false;
}

/* A new value of type t (zeroed, in the context's arena); false when out of memory (t is NULL
 * when a type could not be made). */
static bool mkval(dbg_ctx *c, const dbg_type *t, dbg_value *v) {
  memset(v, 0, sizeof *v);
  v->t = t;
  v->bytes = t ? dbg_alloc(c->arena, t->size ? t->size : 1) : NULL;
  if (v->bytes) return true;
  c->s->oom = true; /* said after the command even where the error itself is not shown */
  return fail(c, "Out of memory.");
}

static dbg_syms *SY(dbg_ctx *c) { return &c->s->sym; }

/* A scalar as a number: integers in u (sign-extended when signed), floats in f. */
typedef struct num {
  bool is_float, sgn;
  uint32_t bits;
  uint64_t u;
  double f;
} num;

static uint64_t mask_bits(uint64_t v, uint32_t bits) { return bits >= 64 ? v : v & (((uint64_t)1 << bits) - 1); }
static uint64_t sext(uint64_t v, uint32_t bits) {
  if (bits >= 64 || bits == 0) return v;
  uint64_t m = (uint64_t)1 << (bits - 1);
  v = mask_bits(v, bits);
  return (v ^ m) - m;
}

static bool is_scalar(const dbg_type *t) {
  return t->kind == DK_BOOL || t->kind == DK_INT || t->kind == DK_FLOAT || t->kind == DK_POINTER;
}

static num to_num(const dbg_type *t, const uint8_t *b) {
  num n;
  memset(&n, 0, sizeof n);
  if (t->kind == DK_FLOAT) {
    n.is_float = true;
    n.bits = t->bits;
    if (t->bits == 16) {
      uint16_t h;
      memcpy(&h, b, 2);
      n.f = spvi_half_to_double(h);
    } else if (t->bits == 32) {
      float f;
      memcpy(&f, b, 4);
      n.f = f;
    } else memcpy(&n.f, b, 8);
    return n;
  }
  n.bits = t->kind == DK_BOOL ? 8 : t->kind == DK_POINTER ? (uint32_t)t->size * 8 : t->bits;
  memcpy(&n.u, b, n.bits / 8); /* little-endian host */
  n.sgn = t->kind == DK_INT && t->is_signed;
  if (t->kind == DK_BOOL) n.u = n.u != 0;
  if (n.sgn) n.u = sext(n.u, n.bits);
  return n;
}

/* C conversion of a number to scalar type t (float to integer truncates, saturating). */
static void from_num(const dbg_type *t, num n, uint8_t *b) {
  if (t->kind == DK_FLOAT) {
    double d = n.is_float ? n.f : n.sgn ? (double)(int64_t)n.u : (double)n.u;
    if (t->bits == 16) {
      uint16_t h = spvi_half_from_double(d);
      memcpy(b, &h, 2);
    } else if (t->bits == 32) {
      float f = (float)d;
      memcpy(b, &f, 4);
    } else memcpy(b, &d, 8);
    return;
  }
  uint32_t bits = t->kind == DK_POINTER ? (uint32_t)t->size * 8 : t->kind == DK_BOOL ? 8 : t->bits;
  uint64_t v;
  if (t->kind == DK_BOOL) v = n.is_float ? n.f != 0 : n.u != 0;
  else if (n.is_float) {
    double d = trunc(n.f);
    if (isnan(d)) v = 0;
    else if (t->kind == DK_INT && t->is_signed)
      v = d <= -9.2233720368547758e18  ? (uint64_t)INT64_MIN
          : d >= 9.2233720368547758e18 ? (uint64_t)INT64_MAX
                                       : (uint64_t)(int64_t)d;
    else v = d <= 0 ? 0 : d >= 1.8446744073709552e19 ? UINT64_MAX : (uint64_t)d;
  } else v = n.u;
  v = mask_bits(v, bits);
  memcpy(b, &v, bits / 8);
}

/* The scalar of type t with number n; false when out of memory. */
static bool scalar_value(dbg_ctx *c, const dbg_type *t, num n, dbg_value *out) {
  if (!mkval(c, t, out)) return false;
  from_num(t, n, out->bytes);
  return true;
}

static num int_num(int64_t x) {
  num n;
  memset(&n, 0, sizeof n);
  n.sgn = true;
  n.bits = 32;
  n.u = (uint64_t)x;
  return n;
}

/* The type C's usual arithmetic conversions give two scalars (integers promoted to 32 bits). */
static const dbg_type *common_type(dbg_ctx *c, const dbg_type *a, const dbg_type *b) {
  if (a->kind == DK_FLOAT || b->kind == DK_FLOAT) {
    uint32_t bits = 32;
    if ((a->kind == DK_FLOAT && a->bits == 64) || (b->kind == DK_FLOAT && b->bits == 64)) bits = 64;
    return dbg_scalar_type(SY(c), DK_FLOAT, bits, false);
  }
  uint32_t ab = a->kind == DK_INT && a->bits >= 32 ? a->bits : 32,
           bb = b->kind == DK_INT && b->bits >= 32 ? b->bits : 32;
  bool as = a->kind != DK_INT || a->bits < 32 || a->is_signed, bs = b->kind != DK_INT || b->bits < 32 || b->is_signed;
  if (as == bs) return dbg_scalar_type(SY(c), DK_INT, ab > bb ? ab : bb, as);
  uint32_t ub = as ? bb : ab, sb = as ? ab : bb;
  if (ub >= sb) return dbg_scalar_type(SY(c), DK_INT, ub, false);
  return dbg_scalar_type(SY(c), DK_INT, sb, true);
}

static const dbg_type *promoted(dbg_ctx *c, const dbg_type *a) {
  if (a->kind == DK_FLOAT) return a->bits == 16 ? dbg_scalar_type(SY(c), DK_FLOAT, 32, false) : a;
  return common_type(c, a, dbg_scalar_type(SY(c), DK_INT, 32, true));
}

/* One scalar binary operation in type t (the operands converted to it). */
static bool scalar_binop(dbg_ctx *c, const char *op, const dbg_type *t, num x, num y, num *r, bool *is_cmp) {
  memset(r, 0, sizeof *r);
  *is_cmp = strcmp(op, "==") == 0 || strcmp(op, "!=") == 0 || strcmp(op, "<") == 0 || strcmp(op, ">") == 0 ||
            strcmp(op, "<=") == 0 || strcmp(op, ">=") == 0 || strcmp(op, "&&") == 0 || strcmp(op, "||") == 0;
  uint8_t bx[8], by[8];
  from_num(t, x, bx);
  from_num(t, y, by);
  x = to_num(t, bx);
  y = to_num(t, by);
  if (strcmp(op, "&&") == 0 || strcmp(op, "||") == 0) {
    bool a = x.is_float ? x.f != 0 : x.u != 0, b = y.is_float ? y.f != 0 : y.u != 0;
    *r = int_num(op[0] == '&' ? a && b : a || b);
    return true;
  }
  if (t->kind == DK_FLOAT) {
    double a = x.f, b = y.f, v = 0;
    if (*is_cmp) {
      int cmp = strcmp(op, "==") == 0   ? a == b
                : strcmp(op, "!=") == 0 ? a != b
                : strcmp(op, "<") == 0  ? a < b
                : strcmp(op, ">") == 0  ? a > b
                : strcmp(op, "<=") == 0 ? a <= b
                                        : a >= b;
      *r = int_num(cmp);
      return true;
    }
    switch (op[0]) {
    case '+': v = a + b; break;
    case '-': v = a - b; break;
    case '*': v = a * b; break;
    case '/': v = a / b; break;
    default: return fail(c, "Operator %s needs integer operands.", op);
    }
    /* float arithmetic rounds in float, as the kernel would */
    if (t->bits == 32) v = (float)v;
    r->is_float = true;
    r->bits = t->bits;
    r->f = v;
    return true;
  }
  const uint32_t bits = t->bits;
  const bool sgn = t->is_signed;
  uint64_t a = mask_bits(x.u, bits), b = mask_bits(y.u, bits), v = 0;
  int64_t sa = (int64_t)sext(a, bits), sb = (int64_t)sext(b, bits);
  if (*is_cmp) {
    int cmp;
    if (strcmp(op, "==") == 0) cmp = a == b;
    else if (strcmp(op, "!=") == 0) cmp = a != b;
    else if (strcmp(op, "<") == 0) cmp = sgn ? sa < sb : a < b;
    else if (strcmp(op, ">") == 0) cmp = sgn ? sa > sb : a > b;
    else if (strcmp(op, "<=") == 0) cmp = sgn ? sa <= sb : a <= b;
    else cmp = sgn ? sa >= sb : a >= b;
    *r = int_num(cmp);
    return true;
  }
  if (strcmp(op, "<<") == 0) v = b >= bits ? 0 : a << b;
  else if (strcmp(op, ">>") == 0)
    v = b >= bits ? (sgn && sa < 0 ? ~(uint64_t)0 : 0) : sgn ? (uint64_t)(sa >> b) : a >> b;
  else switch (op[0]) {
    case '+': v = a + b; break;
    case '-': v = a - b; break;
    case '*': v = a * b; break;
    case '/':
    case '%':
      if (b == 0) return fail(c, "Division by zero");
      if (sgn) {
        if (sb == -1) v = op[0] == '/' ? (uint64_t)0 - a : 0; /* INT_MIN / -1 wraps */
        else v = op[0] == '/' ? (uint64_t)(sa / sb) : (uint64_t)(sa % sb);
      } else v = op[0] == '/' ? a / b : a % b;
      break;
    case '&': v = a & b; break;
    case '|': v = a | b; break;
    case '^': v = a ^ b; break;
    default: return fail(c, "Unknown operator %s.", op);
    }
  r->bits = bits;
  r->sgn = sgn;
  r->u = sgn ? sext(v, bits) : mask_bits(v, bits);
  return true;
}

/* ---- reading values ------------------------------------------------------------------------- */

/* Value of `size` bytes at kernel pointer p, as type t. */
static bool read_mem(dbg_ctx *c, uint64_t p, const dbg_type *t, dbg_value *out) {
  if (!t || t->kind == DK_VOID) return fail(c, "Attempt to take contents of a non-pointer value.");
  if (t->kind == DK_ARRAY && t->count == 0) return fail(c, "The object has no size (a runtime array); index it.");
  char why[256];
  uint8_t *m = dbg_mem(c->s, c->warp, p, t->size, why, sizeof why);
  if (!m) return fail(c, "%s", why);
  if (!mkval(c, t, out)) return false;
  memcpy(out->bytes, m, t->size);
  out->lval = true;
  out->addr = p;
  return true;
}

/* Copy a register-layout value into memory layout (3-component vectors take 4 slots). */
static bool reg_to_value(dbg_ctx *c, const dbg_type *t, const uint8_t *src, uint32_t reg_size, dbg_value *out) {
  if (!mkval(c, t, out)) return false;
  memcpy(out->bytes, src, reg_size < t->size ? reg_size : t->size);
  return true;
}

/* Whether the context's work-item is running ld function fi (in any of its frames). */
static bool runs_function(dbg_ctx *c, uint32_t fi) {
  const unsigned n = dbg_frame_count(c->s, c->warp);
  for (unsigned k = 0; k < n; k++) {
    uint32_t fn, idx;
    if (dbg_frame_pos(c->s, c->warp, k, &fn, &idx) && fn == fi) return true;
  }
  return false;
}

bool dbg_id_value(dbg_ctx *c, uint32_t id, dbg_value *out) {
  const ld_module *m = c->s->sym.m;
  if (id == 0 || id >= m->bound) return fail(c, "%%%u is not an id of this module.", id);
  const ld_id *e = &m->ids[id];
  const dbg_type *t = dbg_spv_type(SY(c), e->type);
  const ld_type *lt = ld_type_of(m, e->type);
  const uint8_t *reg = ex_insp_reg(c->s->x, c->warp, id);
  char nb[96];
  switch (e->kind) {
  case LD_ID_VALUE:
  case LD_ID_PARAM:
    if (!runs_function(c, e->index))
      return fail(c, "%%%u belongs to function `%s`, which this work-item is not running.", id,
                  dbg_func_name(SY(c), e->index, nb, sizeof nb));
    if (!lt || lt->kind == LD_TY_VOID || !reg) return fail(c, "%%%u has no value.", id);
    return reg_to_value(c, t, reg, lt->reg_size, out);
  case LD_ID_CONST:
    if (!lt) return fail(c, "%%%u has no value.", id);
    return reg_to_value(c, t, reg ? reg : m->consts[e->index].bytes, lt->reg_size, out);
  case LD_ID_GLOBAL:
    if (!reg) return fail(c, "%%%u has no value.", id);
    return reg_to_value(c, t, reg, lt ? lt->reg_size : m->pointer_bytes, out);
  case LD_ID_FUNCTION:
    return fail(c, "%%%u is the function `%s`, not a value.", id, dbg_func_name(SY(c), e->index, nb, sizeof nb));
  case LD_ID_LABEL: return fail(c, "%%%u is a block label, not a value.", id);
  case LD_ID_TYPE: return fail(c, "%%%u is a type, not a value.", id);
  default: return fail(c, "%%%u has no value.", id);
  }
}

/* With no frame to look in (the work-item or the whole kernel finished), a global or constant
 * buffer argument by name or as argN: a pointer to the buffer, which outlives the run. */
static bool finished_arg(dbg_ctx *c, const char *name, dbg_value *out) {
  const dbg_type *t;
  uint64_t p;
  if (!dbg_arg_buffer(c->s, name, &t, &p)) return fail(c, "No symbol \"%s\" in current context.", name);
  num n;
  memset(&n, 0, sizeof n);
  n.u = p;
  return scalar_value(c, t, n, out);
}

/* The frame's function and ld instruction index (where names are looked up). */
static bool frame_where(dbg_ctx *c, uint32_t *fi, uint32_t *insn) {
  uint32_t fn, idx;
  if (!dbg_frame_pos(c->s, c->warp, c->frame, &fn, &idx)) return false;
  *fi = fn;
  *insn = (uint32_t)(dbg_insn_at(SY(c), fn, idx) - SY(c)->m->funcs[fn].insns);
  return true;
}

bool dbg_var_value(dbg_ctx *c, const dbg_var *v, dbg_value *out) {
  if (v->global_id) {
    dbg_value ptr;
    if (!dbg_id_value(c, v->global_id, &ptr)) return false;
    const dbg_type *t = v->type ? v->type : ptr.t->elem;
    return read_mem(c, to_num(ptr.t, ptr.bytes).u, t, out);
  }
  uint32_t fi = LD_NONE, insn = 0;
  if (!frame_where(c, &fi, &insn)) return fail(c, "No frame selected.");
  dbg_loc loc;
  if (!dbg_var_loc(SY(c), v, fi == v->func ? insn : UINT32_MAX, &loc)) return fail(c, "optimized out");
  dbg_value x;
  if (!dbg_id_value(c, loc.id, &x)) return false;
  if (loc.declare) {
    if (x.t->kind != DK_POINTER) return fail(c, "The location of `%s` is not a pointer.", v->name);
    const dbg_type *t = v->type && (!x.t->elem || v->type->size == x.t->elem->size || !x.t->elem->size) ? v->type
                                                                                                        : x.t->elem;
    return read_mem(c, to_num(x.t, x.bytes).u, t, out);
  }
  /* a value: shown as the source type when it has the same size */
  if (v->type && v->type->size >= x.t->size && v->type->kind != DK_VOID) {
    dbg_value y;
    if (!mkval(c, v->type, &y)) return false;
    memcpy(y.bytes, x.bytes, x.t->size);
    *out = y;
  } else {
    *out = x;
  }
  return true;
}

/* ---- formatting ------------------------------------------------------------------------------- */

static void format_scalar(dbg_session *s, const dbg_type *t, const uint8_t *b, char fmt, dbg_buf *out) {
  num n = to_num(t, b);
  switch (t->kind) {
  case DK_BOOL: dbg_bprintf(out, "%s", n.u ? "true" : "false"); return;
  case DK_INT:
    if (fmt == 'x') dbg_bprintf(out, "0x%llx", (unsigned long long)mask_bits(n.u, n.bits));
    else if (t->is_signed && fmt != 'u') dbg_bprintf(out, "%lld", (long long)n.u);
    else dbg_bprintf(out, "%llu", (unsigned long long)mask_bits(n.u, n.bits));
    return;
  case DK_FLOAT:
    if (fmt == 'x') {
      uint64_t u = 0;
      memcpy(&u, b, t->bits / 8);
      dbg_bprintf(out, "0x%llx", (unsigned long long)u);
    } else {
      /* enough digits to read back the same bits, as `spvi run --print` */
      dbg_bprintf(out, t->bits == 16 ? "%.5g" : t->bits == 32 ? "%.9g" : "%.17g", n.f);
    }
    return;
  case DK_POINTER: {
    char d[200];
    if (!n.u) {
      dbg_bprintf(out, "0x0");
      return;
    }
    dbg_describe_ptr(s, n.u, d, sizeof d);
    dbg_bprintf(out, "0x%llx <%s>", (unsigned long long)n.u, d);
    return;
  }
  default: return;
  }
}

static void format_body(dbg_session *s, const dbg_type *t, const uint8_t *b, char fmt, dbg_buf *out, int depth) {
  if (depth > 32) {
    dbg_bprintf(out, "...");
    return;
  }
  switch (t->kind) {
  case DK_VOID: dbg_bprintf(out, "void"); return;
  case DK_VECTOR:
    dbg_bprintf(out, "(");
    for (uint32_t i = 0; i < t->count; i++) {
      if (i) dbg_bprintf(out, ", ");
      format_scalar(s, t->elem, b + (size_t)i * t->elem->size, fmt, out);
    }
    dbg_bprintf(out, ")");
    return;
  case DK_ARRAY:
    dbg_bprintf(out, "{");
    for (uint32_t i = 0; i < t->count; i++) {
      if (i) dbg_bprintf(out, ", ");
      format_body(s, t->elem, b + (size_t)i * t->elem->size, fmt, out, depth + 1);
    }
    dbg_bprintf(out, "}");
    return;
  case DK_STRUCT:
    dbg_bprintf(out, "{");
    for (uint32_t i = 0; i < t->count; i++) {
      dbg_bprintf(out, "%s%s = ", i ? ", " : "", t->mnames[i]);
      format_body(s, t->members[i], b + t->offsets[i], fmt, out, depth + 1);
    }
    dbg_bprintf(out, "}");
    return;
  case DK_OPAQUE: dbg_bprintf(out, "<%s>", t->name ? t->name : "opaque"); return;
  default: format_scalar(s, t, b, fmt, out); return;
  }
}

void dbg_format_value(dbg_session *s, const dbg_value *v, bool with_type, char fmt, dbg_buf *out) {
  if (with_type) {
    char tn[256];
    dbg_type_name(v->t, tn, sizeof tn);
    dbg_bprintf(out, "(%s) ", tn);
  }
  format_body(s, v->t, v->bytes, fmt, out, 0);
}

bool dbg_truth(const dbg_value *v) {
  if (!is_scalar(v->t)) {
    for (uint64_t i = 0; i < v->t->size; i++)
      if (v->bytes[i]) return true;
    return false;
  }
  num n = to_num(v->t, v->bytes);
  return n.is_float ? n.f != 0 : n.u != 0;
}

/* ---- evaluation ------------------------------------------------------------------------------- */

static bool ev(dbg_ctx *c, const dbg_expr *e, dbg_value *out);

static bool need_scalar(dbg_ctx *c, const dbg_value *v, const char *what) {
  if (is_scalar(v->t)) return true;
  char tn[128];
  dbg_type_name(v->t, tn, sizeof tn);
  return fail(c, "%s needs a scalar operand, not %s.", what, tn);
}

/* Component i of a vector (or the scalar itself). */
static dbg_value component(dbg_ctx *c, const dbg_value *v, uint32_t i) {
  if (v->t->kind != DK_VECTOR) return *v;
  dbg_value x;
  memset(&x, 0, sizeof x);
  x.t = v->t->elem;
  x.bytes = v->bytes + (size_t)i * v->t->elem->size;
  if (v->lval) {
    x.lval = true;
    x.addr = v->addr + (uint64_t)i * v->t->elem->size;
  }
  (void)c;
  return x;
}

static bool pointer_arith(dbg_ctx *c, const char *op, const dbg_value *a, const dbg_value *b, dbg_value *out) {
  const dbg_value *p = a->t->kind == DK_POINTER ? a : b, *i = p == a ? b : a;
  uint64_t es = p->t->elem && p->t->elem->size ? p->t->elem->size : 1;
  if (a->t->kind == DK_POINTER && b->t->kind == DK_POINTER) {
    if (op[0] != '-') return fail(c, "Operator %s is not defined on two pointers.", op);
    int64_t d = (int64_t)(to_num(a->t, a->bytes).u - to_num(b->t, b->bytes).u);
    num n = int_num(d / (int64_t)es);
    n.bits = 64;
    return scalar_value(c, dbg_scalar_type(SY(c), DK_INT, 64, true), n, out);
  }
  if (i->t->kind != DK_INT && i->t->kind != DK_BOOL) return fail(c, "Pointer arithmetic needs an integer.");
  if (op[0] != '+' && !(op[0] == '-' && p == a)) return fail(c, "Operator %s is not defined on a pointer.", op);
  num ni = to_num(i->t, i->bytes), np = to_num(p->t, p->bytes);
  np.u += (op[0] == '-' ? (uint64_t)0 - ni.u : ni.u) * es;
  return scalar_value(c, p->t, np, out);
}

static bool binary(dbg_ctx *c, const char *op, const dbg_value *a, const dbg_value *b, dbg_value *out) {
  bool cmp_op = strcmp(op, "==") == 0 || strcmp(op, "!=") == 0 || op[0] == '<' || op[0] == '>';
  if (strcmp(op, "<<") == 0 || strcmp(op, ">>") == 0) cmp_op = false;
  if ((a->t->kind == DK_POINTER || b->t->kind == DK_POINTER) && (op[0] == '+' || op[0] == '-') && !op[1])
    return pointer_arith(c, op, a, b, out);
  if (a->t->kind == DK_VECTOR || b->t->kind == DK_VECTOR) {
    uint32_t n = a->t->kind == DK_VECTOR ? a->t->count : b->t->count;
    if (a->t->kind == DK_VECTOR && b->t->kind == DK_VECTOR && a->t->count != b->t->count)
      return fail(c, "Vectors of %u and %u components.", a->t->count, b->t->count);
    const dbg_type *ea = a->t->kind == DK_VECTOR ? a->t->elem : NULL, *eb = b->t->kind == DK_VECTOR ? b->t->elem : NULL;
    if ((!ea && !is_scalar(a->t)) || (!eb && !is_scalar(b->t)))
      return fail(c, "Operator %s needs scalars or vectors.", op);
    /* a scalar operand takes the vector's element type (OpenCL C 6.3) */
    const dbg_type *et = ea && eb ? common_type(c, ea, eb) : ea ? ea : eb;
    if (ea && eb && ea == eb) et = ea;
    const dbg_type *rt_elem = cmp_op || strcmp(op, "&&") == 0 || strcmp(op, "||") == 0
                                ? dbg_scalar_type(SY(c), DK_INT,
                                                  et->kind == DK_FLOAT ? et->bits
                                                  : et->bits < 8       ? 8
                                                                       : et->bits,
                                                  true)
                                : et;
    dbg_value r;
    if (!mkval(c, dbg_vector_type(SY(c), rt_elem, n), &r)) return false;
    for (uint32_t i = 0; i < n; i++) {
      dbg_value x = component(c, a, i), y = component(c, b, i);
      num rn;
      bool is_cmp;
      if (!scalar_binop(c, op, et, to_num(x.t, x.bytes), to_num(y.t, y.bytes), &rn, &is_cmp)) return false;
      if (is_cmp) rn.u = rn.u ? ~(uint64_t)0 : 0; /* OpenCL vector relational results */
      from_num(rt_elem, rn, r.bytes + (size_t)i * rt_elem->size);
    }
    *out = r;
    return true;
  }
  if (!need_scalar(c, a, op) || !need_scalar(c, b, op)) return false;
  const dbg_type *t = common_type(c, a->t->kind == DK_POINTER ? dbg_scalar_type(SY(c), DK_INT, 64, false) : a->t,
                                  b->t->kind == DK_POINTER ? dbg_scalar_type(SY(c), DK_INT, 64, false) : b->t);
  if (strcmp(op, "<<") == 0 || strcmp(op, ">>") == 0) t = promoted(c, a->t);
  if (t->kind == DK_FLOAT &&
      (op[0] == '%' || op[0] == '&' || op[0] == '|' || op[0] == '^' || strcmp(op, "<<") == 0 ||
       strcmp(op, ">>") == 0) &&
      strcmp(op, "&&") != 0 && strcmp(op, "||") != 0)
    return fail(c, "Operator %s needs integer operands.", op);
  num rn;
  bool is_cmp;
  if (!scalar_binop(c, op, t, to_num(a->t, a->bytes), to_num(b->t, b->bytes), &rn, &is_cmp)) return false;
  return scalar_value(c, is_cmp ? dbg_scalar_type(SY(c), DK_INT, 32, true) : t, rn, out);
}

/* Vector components: .x .y .z .w, .s0 .. .sF (several: .s01), .lo .hi .even .odd, and swizzles. */
static bool swizzle(dbg_ctx *c, const dbg_value *v, const char *name, dbg_value *out) {
  const uint32_t n = v->t->count;
  uint32_t idx[16], k = 0;
  const uint32_t half = (n == 3 ? 4 : n) / 2;
  if (strcmp(name, "lo") == 0 || strcmp(name, "hi") == 0 || strcmp(name, "even") == 0 || strcmp(name, "odd") == 0) {
    for (uint32_t i = 0; i < half; i++)
      idx[k++] = name[0] == 'l' ? i : name[0] == 'h' ? half + i : name[0] == 'e' ? 2 * i : 2 * i + 1;
  } else if ((name[0] == 's' || name[0] == 'S') && name[1]) {
    for (const char *p = name + 1; *p; p++) {
      if (!isxdigit((unsigned char)*p) || k == 16) return fail(c, "Invalid vector component `.%s`.", name);
      idx[k++] = (uint32_t)(isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10);
    }
  } else {
    for (const char *p = name; *p; p++) {
      const char *xyzw = "xyzw", *q = strchr(xyzw, *p);
      if (!q || !*p || k == 16) return fail(c, "There is no member named %s.", name);
      idx[k++] = (uint32_t)(q - xyzw);
    }
  }
  for (uint32_t i = 0; i < k; i++)
    if (idx[i] >= n && !(n == 3 && idx[i] == 3 && strcmp(name, "hi") == 0))
      return fail(c, "Component %u of a %u-component vector.", idx[i], n);
  if (k == 1) {
    *out = component(c, v, idx[0]);
    return true;
  }
  if (k != 2 && k != 3 && k != 4 && k != 8 && k != 16) return fail(c, "A vector of %u components does not exist.", k);
  dbg_value r;
  if (!mkval(c, dbg_vector_type(SY(c), v->t->elem, k), &r)) return false;
  for (uint32_t i = 0; i < k; i++)
    if (idx[i] < n)
      memcpy(r.bytes + (size_t)i * v->t->elem->size, v->bytes + (size_t)idx[i] * v->t->elem->size, v->t->elem->size);
  *out = r;
  return true;
}

static bool member(dbg_ctx *c, const dbg_value *v, const char *name, dbg_value *out) {
  if (v->t->kind == DK_VECTOR) return swizzle(c, v, name, out);
  if (v->t->kind != DK_STRUCT) {
    char tn[128];
    dbg_type_name(v->t, tn, sizeof tn);
    return fail(c, "Attempt to extract a component of a value that is not a structure (%s).", tn);
  }
  for (uint32_t i = 0; i < v->t->count; i++) {
    if (strcmp(v->t->mnames[i], name) != 0) continue;
    dbg_value x;
    memset(&x, 0, sizeof x);
    x.t = v->t->members[i];
    x.bytes = v->bytes + v->t->offsets[i];
    if (v->lval) {
      x.lval = true;
      x.addr = v->addr + v->t->offsets[i];
    }
    *out = x;
    return true;
  }
  return fail(c, "There is no member named %s.", name);
}

static bool deref(dbg_ctx *c, const dbg_value *v, dbg_value *out) {
  if (v->t->kind != DK_POINTER) return fail(c, "Attempt to take contents of a non-pointer value.");
  if (!v->t->elem || v->t->elem->kind == DK_VOID) return fail(c, "Attempt to take contents of a void pointer.");
  return read_mem(c, to_num(v->t, v->bytes).u, v->t->elem, out);
}

/* gdb's artificial array `a@n`: n objects of a's type in memory from a's address on. */
static bool artificial_array(dbg_ctx *c, const dbg_value *a, const dbg_value *n, dbg_value *out) {
  if (n->t->kind != DK_INT) return fail(c, "The repeat count of `@` is not an integer.");
  int64_t k = (int64_t)to_num(n->t, n->bytes).u;
  if (!a->lval) return fail(c, "Only values in memory can be extended with '@'.");
  if (k <= 0 || k > 65536) return fail(c, "Invalid number %lld of repetitions.", (long long)k);
  const dbg_type *t = dbg_array_type(SY(c), a->t, (uint32_t)k);
  if (!t) return fail(c, "Out of memory.");
  return read_mem(c, a->addr, t, out);
}

static bool index_value(dbg_ctx *c, const dbg_value *a, const dbg_value *i, dbg_value *out) {
  if (i->t->kind != DK_INT && i->t->kind != DK_BOOL) return fail(c, "The index is not an integer.");
  num n = to_num(i->t, i->bytes);
  int64_t k = (int64_t)n.u;
  if (a->t->kind == DK_POINTER) {
    dbg_value p;
    if (!pointer_arith(c, "+", a, i, &p)) return false;
    return deref(c, &p, out);
  }
  if (a->t->kind == DK_VECTOR) {
    if (k < 0 || (uint64_t)k >= a->t->count)
      return fail(c, "Index %lld of a %u-component vector.", (long long)k, a->t->count);
    *out = component(c, a, (uint32_t)k);
    return true;
  }
  if (a->t->kind != DK_ARRAY) return fail(c, "Cannot subscript something that is not an array, pointer or vector.");
  const dbg_type *et = a->t->elem;
  if (a->t->count && (k < 0 || (uint64_t)k >= a->t->count)) {
    if (!a->lval) return fail(c, "Index %lld is outside the array of %u elements.", (long long)k, a->t->count);
    return read_mem(c, a->addr + (uint64_t)k * et->size, et, out); /* the memory decides */
  }
  if (!a->t->count) return read_mem(c, a->addr + (uint64_t)k * et->size, et, out);
  dbg_value x;
  memset(&x, 0, sizeof x);
  x.t = et;
  x.bytes = a->bytes + (size_t)k * et->size;
  if (a->lval) {
    x.lval = true;
    x.addr = a->addr + (uint64_t)k * et->size;
  }
  *out = x;
  return true;
}

/* The work-item functions (OpenCL C 6.15.1), for the context's work-item. */
static bool call(dbg_ctx *c, const dbg_expr *e, dbg_value *out) {
  static const char *const names[] = {
    "get_global_id",  "get_local_id",         "get_group_id",        "get_global_size",
    "get_local_size", "get_num_groups",       "get_global_offset",   "get_enqueued_local_size",
    "get_work_dim",   "get_global_linear_id", "get_local_linear_id",
  };
  int k = -1;
  for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
    if (strcmp(e->name, names[i]) == 0) k = i;
  if (k < 0) return fail(c, "`%s` is not a work-item function; expressions cannot call kernel functions.", e->name);
  const ex_insp_range *l = c->s->nd;
  uint64_t gid[3], lid[3], group[3], size[3];
  ex_insp_item_ids(c->s->x, c->warp, gid, lid);
  ex_insp_group(c->s->x, group, size);
  uint64_t r = 0;
  if (k <= 7) {
    if (e->nargs != 1) return fail(c, "%s takes one argument.", e->name);
    dbg_value d;
    if (!ev(c, e->args[0], &d)) return false;
    if (d.t->kind != DK_INT) return fail(c, "The dimension of %s must be an integer.", e->name);
    uint64_t dim = to_num(d.t, d.bytes).u;
    /* out-of-range dimensions give the spec's defaults: 0 for ids and offsets, 1 for sizes */
    bool ok = dim < l->dims;
    switch (k) {
    case 0: r = ok ? gid[dim] : 0; break;
    case 1: r = ok ? lid[dim] : 0; break;
    case 2: r = ok ? group[dim] : 0; break;
    case 3: r = ok ? l->global[dim] : 1; break;
    case 4: r = ok ? size[dim] : 1; break;
    case 5: r = ok ? l->ngroups[dim] : 1; break;
    case 6: r = ok ? l->offset[dim] : 0; break;
    default: r = ok ? l->local[dim] : 1; break;
    }
  } else {
    if (e->nargs != 0) return fail(c, "%s takes no argument.", e->name);
    if (k == 8) r = l->dims;
    else if (k == 9)
      r = ((gid[2] - l->offset[2]) * l->global[1] + (gid[1] - l->offset[1])) * l->global[0] + (gid[0] - l->offset[0]);
    else r = (lid[2] * size[1] + lid[1]) * size[0] + lid[0];
  }
  num n = int_num((int64_t)r);
  n.bits = 64;
  n.sgn = false;
  return scalar_value(c, k == 8 ? dbg_scalar_type(SY(c), DK_INT, 32, false) : dbg_scalar_type(SY(c), DK_INT, 64, false),
                      n, out);
}

static bool ev(dbg_ctx *c, const dbg_expr *e, dbg_value *out) {
  dbg_value a, b;
  switch (e->kind) {
  case E_INT: {
    num n;
    memset(&n, 0, sizeof n);
    n.u = e->ival;
    bool fits32 = e->is_unsigned ? e->ival <= 0xFFFFFFFFu : e->ival <= 0x7FFFFFFFu;
    uint32_t bits = e->is_long || !fits32 ? 64 : 32;
    bool sgn = !e->is_unsigned && (bits == 32 || e->ival <= (uint64_t)INT64_MAX);
    n.bits = bits;
    n.sgn = sgn;
    return scalar_value(c, dbg_scalar_type(SY(c), DK_INT, bits, sgn), n, out);
  }
  case E_FLT: {
    num n;
    memset(&n, 0, sizeof n);
    n.is_float = true;
    n.f = e->fval;
    return scalar_value(c, dbg_scalar_type(SY(c), DK_FLOAT, e->is_f32 ? 32 : 64, false), n, out);
  }
  case E_SPVID: {
    uint32_t id = e->name ? dbg_id_by_name(SY(c), e->name) : e->id;
    if (!id) return fail(c, "No SPIR-V id named %%%s.", e->name);
    return dbg_id_value(c, id, out);
  }
  case E_NAME: {
    uint32_t fi = LD_NONE, insn = 0;
    bool framed = frame_where(c, &fi, &insn);
    const dbg_var *v = dbg_lookup_var(SY(c), fi, insn, e->name);
    if (v) return dbg_var_value(c, v, out);
    if (!framed) return finished_arg(c, e->name, out);
    if (strncmp(e->name, "arg", 3) == 0 && isdigit((unsigned char)e->name[3])) {
      unsigned k = (unsigned)strtoul(e->name + 3, NULL, 10);
      const ld_function *entry = &SY(c)->m->funcs[c->s->nd->entry_fn];
      if (k < entry->nparams) return dbg_id_value(c, entry->params[k], out);
    }
    return fail(c, "No symbol \"%s\" in current context.", e->name);
  }
  case E_CALL: return call(c, e, out);
  case E_UNARY: {
    if (!ev(c, e->a, &a)) return false;
    if (e->op[0] == '*') return deref(c, &a, out);
    if (e->op[0] == '&') {
      if (!a.lval) return fail(c, "Attempt to take address of a value not located in memory.");
      num n;
      memset(&n, 0, sizeof n);
      n.u = a.addr;
      return scalar_value(c, dbg_pointer_type(SY(c), a.t, dbg_ptr_space(c->s, a.addr)), n, out);
    }
    if (e->op[0] == '+') {
      if (!need_scalar(c, &a, "Unary +") && a.t->kind != DK_VECTOR) return false;
      *out = a;
      out->lval = false;
      return true;
    }
    dbg_value zero;
    if (e->op[0] == '-') {
      if (!scalar_value(c, dbg_scalar_type(SY(c), DK_INT, 32, true), int_num(0), &zero)) return false;
      return binary(c, "-", &zero, &a, out);
    }
    if (e->op[0] == '!') {
      if (!scalar_value(c, dbg_scalar_type(SY(c), DK_INT, 32, true), int_num(0), &zero)) return false;
      return binary(c, "==", &a, &zero, out);
    }
    /* ~ */
    if (a.t->kind != DK_INT && !(a.t->kind == DK_VECTOR && a.t->elem->kind == DK_INT) && a.t->kind != DK_BOOL)
      return fail(c, "Operator ~ needs an integer operand.");
    if (!scalar_value(c, dbg_scalar_type(SY(c), DK_INT, 32, true), int_num(-1), &zero)) return false;
    return binary(c, "^", &a, &zero, out);
  }
  case E_BINARY:
    if (strcmp(e->op, "&&") == 0 || strcmp(e->op, "||") == 0) {
      /* short-circuit, as in C: the right side may not be evaluable */
      if (!ev(c, e->a, &a)) return false;
      bool t = dbg_truth(&a);
      if (e->op[0] == '&' ? !t : t) return scalar_value(c, dbg_scalar_type(SY(c), DK_INT, 32, true), int_num(t), out);
      if (!ev(c, e->b, &b)) return false;
      return scalar_value(c, dbg_scalar_type(SY(c), DK_INT, 32, true), int_num(dbg_truth(&b)), out);
    }
    if (!ev(c, e->a, &a) || !ev(c, e->b, &b)) return false;
    if (e->op[0] == '@') return artificial_array(c, &a, &b, out);
    return binary(c, e->op, &a, &b, out);
  case E_INDEX:
    if (!ev(c, e->a, &a) || !ev(c, e->b, &b)) return false;
    return index_value(c, &a, &b, out);
  case E_MEMBER:
    if (!ev(c, e->a, &a)) return false;
    return member(c, &a, e->name, out);
  case E_ARROW:
    if (!ev(c, e->a, &a) || !deref(c, &a, &b)) return false;
    return member(c, &b, e->name, out);
  case E_COND:
    if (!ev(c, e->a, &a)) return false;
    return ev(c, dbg_truth(&a) ? e->b : e->c, out);
  case E_CAST: {
    if (!ev(c, e->a, &a)) return false;
    const dbg_type *t = e->ck == DK_VOID ? NULL : dbg_scalar_type(SY(c), e->ck, e->cbits, e->csigned);
    if (e->cptr) {
      if (!(t = dbg_pointer_type(SY(c), t, e->cspace))) return fail(c, "Out of memory.");
      if (a.t->kind != DK_POINTER && a.t->kind != DK_INT)
        return fail(c, "Only pointers and integers convert to pointers.");
      if (a.t->kind == DK_POINTER) {
        *out = a;
        out->t = t;
        out->lval = false;
        return true;
      }
    } else if (!is_scalar(a.t)) {
      char tn[128];
      dbg_type_name(a.t, tn, sizeof tn);
      return fail(c, "Invalid cast from %s (casts convert scalars).", tn);
    }
    return scalar_value(c, t, to_num(a.t, a.bytes), out);
  }
  default: return fail(c, "Bad expression.");
  }
}

bool dbg_eval(dbg_ctx *c, const dbg_expr *e, dbg_value *out) {
  c->err[0] = 0;
  return ev(c, e, out);
}
