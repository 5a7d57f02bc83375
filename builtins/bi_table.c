/*
 * bi_table.c — bi_resolve(): finds an OpenCL.std instruction's row in the builtin table (the row sets
 * of bi_fp.c, bi_int.c, bi_vec.c, bi_mem.c), checks the result and operand types against the row's
 * signature class, picks the implementation specialised for the element type and packs the call
 * literal (bi_impl.h). Every failure is reported here, at prepare time, with the instruction's name.
 *
 * Signature classes are data: each says how many operands there are, which type is the "key" (the
 * one whose element type selects the slot — normally the result, the data operand for stores),
 * which key kinds and component counts are allowed, and one rule per operand. The rules transcribe
 * the operand constraints of the OpenCL.std instruction set as enforced by the SPIR-V OpenCL
 * environment (all gentype operands have the result type; select's c and shuffle's mask are
 * integers of the result's element width; offsets are size_t, 32 or 64 bits per addressing model;
 * vector widths are 2, 3, 4, 8 or 16, shuffles' 2, 4, 8 or 16).
 */
#include "bi_impl.h"
#include "gen_spv_tables.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { K_INT = 1, K_FLOAT = 2 };                   /* key kinds */
enum { SH_SCALAR = 1, SH_VEC3 = 2, SH_VECP2 = 4 }; /* component counts: 1; 3; 2, 4, 8, 16 */
#define SH_VEC (SH_VEC3 | SH_VECP2)
#define SH_ANY (SH_SCALAR | SH_VEC)
enum { SH_LE4 = 8, SH_GE3 = 16 }; /* restrictions: at most 4 / at least 3 components (geometric) */

typedef enum rule {
  R_KEY,      /* exactly the key type */
  R_VOID,     /* void (no result) */
  R_WIDE,     /* integer, twice the key's width, same component count (upsample's result) */
  R_INT_LIKE, /* integer with the key's width and component count (select's c, shuffle masks) */
  R_SRCVEC,   /* the key's element type, 2, 4, 8 or 16 components (shuffle sources) */
  R_AS_ARG0,  /* exactly operand 0's type */
  R_SIZE_T,   /* 32- or 64-bit integer scalar */
  R_PTR_ELEM, /* pointer to the key's element type (or to an unknown type) */
  R_PTR_HALF, /* pointer to half (or to an unknown type) */
  R_PTR_ANY,  /* any pointer */
  R_INTN,     /* 32-bit integer with the key's component count (pown's n, ilogb's result) */
  R_PTR_KEY,  /* pointer to exactly the key type (or to an unknown type): sincos's cosval */
  R_PTR_INTN, /* pointer to 32-bit integers of the key's count (or unknown): lgamma_r's signp */
  R_ELEM,     /* a scalar of the key's element type (length's result) */
  R_I32,      /* a 32-bit integer scalar (printf's result) */
  R_VARARG    /* optional trailing operand: integer, float or pointer (printf's arguments) */
} rule;

#define KEY_RESULT (-1)
#define KEY_NONE (-2) /* no key: the row's slot 0 serves every type */

typedef struct sigdesc {
  uint8_t nargs;
  int8_t key;     /* KEY_RESULT, KEY_NONE, or the operand index */
  uint8_t kinds;  /* K_* allowed for the key */
  uint8_t shapes; /* SH_* allowed for the key */
  uint8_t result; /* rule for the result type */
  uint8_t arg[6]; /* rule per operand */
} sigdesc;

static const sigdesc sigs[BI_SIG_COUNT] = {
  [BI_SIG_F1] = {1, KEY_RESULT, K_FLOAT, SH_ANY, R_KEY, {R_KEY}},
  [BI_SIG_F2] = {2, KEY_RESULT, K_FLOAT, SH_ANY, R_KEY, {R_KEY, R_KEY}},
  [BI_SIG_F3] = {3, KEY_RESULT, K_FLOAT, SH_ANY, R_KEY, {R_KEY, R_KEY, R_KEY}},
  [BI_SIG_I1] = {1, KEY_RESULT, K_INT, SH_ANY, R_KEY, {R_KEY}},
  [BI_SIG_I2] = {2, KEY_RESULT, K_INT, SH_ANY, R_KEY, {R_KEY, R_KEY}},
  [BI_SIG_I3] = {3, KEY_RESULT, K_INT, SH_ANY, R_KEY, {R_KEY, R_KEY, R_KEY}},
  [BI_SIG_UPSAMPLE] = {2, 0, K_INT, SH_ANY, R_WIDE, {R_KEY, R_KEY}},
  [BI_SIG_BITSELECT] = {3, KEY_RESULT, K_INT | K_FLOAT, SH_ANY, R_KEY, {R_KEY, R_KEY, R_KEY}},
  [BI_SIG_SELECT] = {3, KEY_RESULT, K_INT | K_FLOAT, SH_ANY, R_KEY, {R_KEY, R_KEY, R_INT_LIKE}},
  [BI_SIG_SHUFFLE] = {2, KEY_RESULT, K_INT | K_FLOAT, SH_VECP2, R_KEY, {R_SRCVEC, R_INT_LIKE}},
  [BI_SIG_SHUFFLE2] = {3, KEY_RESULT, K_INT | K_FLOAT, SH_VECP2, R_KEY, {R_SRCVEC, R_AS_ARG0, R_INT_LIKE}},
  [BI_SIG_VLOADN] = {2, KEY_RESULT, K_INT | K_FLOAT, SH_VEC, R_KEY, {R_SIZE_T, R_PTR_ELEM}},
  [BI_SIG_VSTOREN] = {3, 0, K_INT | K_FLOAT, SH_VEC, R_VOID, {R_KEY, R_SIZE_T, R_PTR_ELEM}},
  [BI_SIG_VLOAD_HALF] = {2, KEY_RESULT, K_FLOAT, SH_SCALAR, R_KEY, {R_SIZE_T, R_PTR_HALF}},
  [BI_SIG_VLOAD_HALFN] = {2, KEY_RESULT, K_FLOAT, SH_VEC, R_KEY, {R_SIZE_T, R_PTR_HALF}},
  [BI_SIG_VSTORE_HALF] = {3, 0, K_FLOAT, SH_SCALAR, R_VOID, {R_KEY, R_SIZE_T, R_PTR_HALF}},
  [BI_SIG_VSTORE_HALFN] = {3, 0, K_FLOAT, SH_VEC, R_VOID, {R_KEY, R_SIZE_T, R_PTR_HALF}},
  [BI_SIG_PREFETCH] = {2, KEY_NONE, 0, 0, R_VOID, {R_PTR_ANY, R_SIZE_T}},
  [BI_SIG_F_INTN] = {2, KEY_RESULT, K_FLOAT, SH_ANY, R_KEY, {R_KEY, R_INTN}},
  [BI_SIG_INTN_F] = {1, 0, K_FLOAT, SH_ANY, R_INTN, {R_KEY}},
  [BI_SIG_F_PTRF] = {2, KEY_RESULT, K_FLOAT, SH_ANY, R_KEY, {R_KEY, R_PTR_KEY}},
  [BI_SIG_F_PTRINTN] = {2, KEY_RESULT, K_FLOAT, SH_ANY, R_KEY, {R_KEY, R_PTR_INTN}},
  [BI_SIG_REMQUO] = {3, KEY_RESULT, K_FLOAT, SH_ANY, R_KEY, {R_KEY, R_KEY, R_PTR_INTN}},
  [BI_SIG_NAN] = {1, KEY_RESULT, K_FLOAT, SH_ANY, R_KEY, {R_INT_LIKE}},
  [BI_SIG_GEOM_LEN] = {1, 0, K_FLOAT, SH_ANY | SH_LE4, R_ELEM, {R_KEY}},
  [BI_SIG_GEOM_DIST] = {2, 0, K_FLOAT, SH_ANY | SH_LE4, R_ELEM, {R_KEY, R_KEY}},
  [BI_SIG_GEOM_NORM] = {1, KEY_RESULT, K_FLOAT, SH_ANY | SH_LE4, R_KEY, {R_KEY}},
  [BI_SIG_CROSS] = {2, KEY_RESULT, K_FLOAT, SH_VEC | SH_LE4 | SH_GE3, R_KEY, {R_KEY, R_KEY}},
  [BI_SIG_PRINTF] = {6, KEY_NONE, 0, 0, R_I32, {R_PTR_ANY, R_VARARG, R_VARARG, R_VARARG, R_VARARG, R_VARARG}},
};

static const bi_rowset *const rowsets[] = {&bi_rows_fp,     &bi_rows_int,  &bi_rows_vec,
                                           &bi_rows_mem,    &bi_rows_math, &bi_rows_exact,
                                           &bi_rows_common, &bi_rows_geom, &bi_rows_printf};

static const bi_row *find_row(uint32_t op) {
  for (size_t s = 0; s < sizeof rowsets / sizeof rowsets[0]; s++)
    for (unsigned i = 0; i < rowsets[s]->n; i++)
      if (rowsets[s]->rows[i].op == op) return &rowsets[s]->rows[i];
  return NULL;
}

/* The signature classes whose instructions act component by component (bi.h, bi_componentwise):
 * every gentype operand has the result's component count (sigs[]: R_KEY, R_INT_LIKE, R_INTN,
 * R_WIDE) and the OpenCL C functions they implement are "component-wise" (OpenCL C 6.15.2 "The
 * vector versions of the math functions operate component-wise", 6.15.3, 6.15.4, 6.15.6). */
bool bi_componentwise(uint32_t op) {
  const bi_row *row = find_row(op);
  if (!row) return false;
  switch ((bi_sig)row->sig) {
  case BI_SIG_F1:
  case BI_SIG_F2:
  case BI_SIG_F3:
  case BI_SIG_I1:
  case BI_SIG_I2:
  case BI_SIG_I3:
  case BI_SIG_UPSAMPLE:
  case BI_SIG_BITSELECT:
  case BI_SIG_SELECT:
  case BI_SIG_F_INTN:
  case BI_SIG_INTN_F:
  case BI_SIG_F_PTRF:
  case BI_SIG_F_PTRINTN:
  case BI_SIG_REMQUO:
  case BI_SIG_NAN: return true;
  default: return false;
  }
}

/* ---- types ---------------------------------------------------------------------------------- */

static unsigned ncomp(const bi_type *t) { return t->ncomp ? t->ncomp : 1; }

static bool same_type(const bi_type *a, const bi_type *b) {
  if (a->kind != b->kind) return false;
  if (a->kind == BI_VOID) return true;
  if (a->bits != b->bits || ncomp(a) != ncomp(b)) return false;
  if (a->kind == BI_PTR)
    return a->pointee_kind == b->pointee_kind && a->pointee_bits == b->pointee_bits &&
           a->pointee_ncomp == b->pointee_ncomp && a->storage == b->storage;
  return true;
}

static int slot_of(bi_kind kind, unsigned bits) {
  if (kind == BI_INT) switch (bits) {
    case 8: return BI_T_I8;
    case 16: return BI_T_I16;
    case 32: return BI_T_I32;
    case 64: return BI_T_I64;
    }
  if (kind == BI_FLOAT) switch (bits) {
    case 16: return BI_T_F16;
    case 32: return BI_T_F32;
    case 64: return BI_T_F64;
    }
  return -1;
}

static bool shape_ok(unsigned n, unsigned shapes) {
  if (((shapes & SH_LE4) && n > 4) || ((shapes & SH_GE3) && n < 3)) return false;
  if (n == 1) return shapes & SH_SCALAR;
  if (n == 3) return shapes & SH_VEC3;
  return (n == 2 || n == 4 || n == 8 || n == 16) && (shapes & SH_VECP2);
}

/* OpenCL C spelling of an element (kind, bits): "float", "uchar"; unusual widths as "int24". */
static void elem_name(bi_kind kind, unsigned bits, bool uns, char *buf, size_t len) {
  const char *s = NULL;
  if (kind == BI_INT) switch (bits) {
    case 8: s = "char"; break;
    case 16: s = "short"; break;
    case 32: s = "int"; break;
    case 64: s = "long"; break;
    }
  else if (kind == BI_FLOAT) switch (bits) {
    case 16: s = "half"; break;
    case 32: s = "float"; break;
    case 64: s = "double"; break;
    }
  else if (kind == BI_BOOL) s = "bool";
  else if (kind == BI_VOID) s = "void";
  if (s) snprintf(buf, len, "%s%s", uns && kind == BI_INT ? "u" : "", s);
  else if (kind == BI_PTR) snprintf(buf, len, "pointer");
  else snprintf(buf, len, "%s%u", kind == BI_FLOAT ? "float" : "int", bits);
}

static void type_name(const bi_type *t, bool uns, char *buf, size_t len) {
  char e[32];
  if (t->kind == BI_PTR) {
    if (t->pointee_kind == BI_VOID) {
      snprintf(buf, len, "pointer");
      return;
    }
    elem_name(t->pointee_kind, t->pointee_bits, uns, e, sizeof e);
    if (t->pointee_ncomp > 1) snprintf(buf, len, "pointer to %s%u", e, (unsigned)t->pointee_ncomp);
    else snprintf(buf, len, "pointer to %s", e);
    return;
  }
  elem_name(t->kind, t->bits, uns, e, sizeof e);
  if (t->kind != BI_VOID && ncomp(t) > 1) snprintf(buf, len, "%s%u", e, ncomp(t));
  else snprintf(buf, len, "%s", e);
}

/* ---- rule checks -------------------------------------------------------------------------------
 * rule_ok: does t satisfy rule r given the key (and operand 0)? rule_text: what r expects, for the
 * error message. */

static bool pointee_ok(const bi_type *t, bi_kind kind, unsigned bits) {
  if (t->kind != BI_PTR) return false;
  if (t->pointee_kind == BI_VOID) return true; /* unknown pointee: the element size is the key's */
  return t->pointee_kind == kind && t->pointee_bits == bits && t->pointee_ncomp <= 1;
}

static bool rule_ok(rule r, const bi_type *t, const bi_type *key, const bi_type *arg0) {
  switch (r) {
  case R_KEY: return same_type(t, key);
  case R_VOID: return t->kind == BI_VOID;
  case R_WIDE: return t->kind == BI_INT && t->bits == 2u * key->bits && ncomp(t) == ncomp(key);
  case R_INT_LIKE: return t->kind == BI_INT && t->bits == key->bits && ncomp(t) == ncomp(key);
  case R_SRCVEC: return t->kind == key->kind && t->bits == key->bits && ncomp(t) != 1 && shape_ok(ncomp(t), SH_VECP2);
  case R_AS_ARG0: return same_type(t, arg0);
  case R_SIZE_T: return t->kind == BI_INT && ncomp(t) == 1 && (t->bits == 32 || t->bits == 64);
  case R_PTR_ELEM: return pointee_ok(t, key->kind, key->bits);
  case R_PTR_HALF: return pointee_ok(t, BI_FLOAT, 16);
  case R_PTR_ANY: return t->kind == BI_PTR && (t->bits == 32 || t->bits == 64);
  case R_INTN: return t->kind == BI_INT && t->bits == 32 && ncomp(t) == ncomp(key);
  case R_PTR_KEY:
    return t->kind == BI_PTR && (t->bits == 32 || t->bits == 64) &&
           (t->pointee_kind == BI_VOID || (t->pointee_kind == key->kind && t->pointee_bits == key->bits &&
                                           (t->pointee_ncomp ? t->pointee_ncomp : 1) == ncomp(key)));
  case R_PTR_INTN:
    return t->kind == BI_PTR && (t->bits == 32 || t->bits == 64) &&
           (t->pointee_kind == BI_VOID || (t->pointee_kind == BI_INT && t->pointee_bits == 32 &&
                                           (t->pointee_ncomp ? t->pointee_ncomp : 1) == ncomp(key)));
  case R_ELEM: return t->kind == key->kind && t->bits == key->bits && ncomp(t) == 1;
  case R_I32: return t->kind == BI_INT && t->bits == 32 && ncomp(t) == 1;
  case R_VARARG:
    if (t->kind == BI_PTR) return t->bits == 32 || t->bits == 64;
    return (t->kind == BI_INT || t->kind == BI_FLOAT) && slot_of(t->kind, t->bits) >= 0 && shape_ok(ncomp(t), SH_ANY);
  }
  return false;
}

static void rule_text(rule r, const bi_type *key, const bi_type *arg0, bool uns, char *buf, size_t len) {
  char e[32];
  switch (r) {
  case R_KEY: type_name(key, uns, buf, len); return;
  case R_VOID: snprintf(buf, len, "void"); return;
  case R_WIDE: {
    const bi_type w = {.kind = BI_INT, .bits = (uint8_t)(2 * key->bits), .ncomp = key->ncomp};
    type_name(&w, uns, buf, len);
    return;
  }
  case R_INT_LIKE: {
    const bi_type w = {.kind = BI_INT, .bits = key->bits, .ncomp = key->ncomp};
    type_name(&w, uns, buf, len);
    return;
  }
  case R_SRCVEC:
    elem_name(key->kind, key->bits, uns, e, sizeof e);
    snprintf(buf, len, "a vector of 2, 4, 8 or 16 %s", e);
    return;
  case R_AS_ARG0: type_name(arg0, uns, buf, len); return;
  case R_SIZE_T: snprintf(buf, len, "a 32- or 64-bit integer scalar (size_t)"); return;
  case R_PTR_ELEM:
    elem_name(key->kind, key->bits, uns, e, sizeof e);
    snprintf(buf, len, "a pointer to %s", e);
    return;
  case R_PTR_HALF: snprintf(buf, len, "a pointer to half"); return;
  case R_PTR_ANY: snprintf(buf, len, "a pointer"); return;
  case R_INTN:
  case R_PTR_INTN: {
    const bi_type w = {.kind = BI_INT, .bits = 32, .ncomp = key->ncomp};
    type_name(&w, uns, e, sizeof e);
    snprintf(buf, len, r == R_INTN ? "%s" : "a pointer to %s", e);
    return;
  }
  case R_PTR_KEY:
    type_name(key, uns, e, sizeof e);
    snprintf(buf, len, "a pointer to %s", e);
    return;
  case R_ELEM: elem_name(key->kind, key->bits, uns, buf, len); return;
  case R_I32: snprintf(buf, len, "int"); return;
  case R_VARARG: snprintf(buf, len, "an integer, floating-point or pointer value"); return;
  }
  snprintf(buf, len, "?");
}

/* ---- resolve ---------------------------------------------------------------------------------- */

static bool fail(char *err, unsigned errlen, const char *fmt, ...) {
  if (err && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return false;
}

bool bi_resolve(uint32_t op, const bi_type *result, const bi_type *args, unsigned nargs, uint32_t lit, bi_resolved *out,
                char *err, unsigned errlen) {
  static const bi_type none = {.kind = BI_VOID};
  const char *name = spv_oclstd_name(op);
  if (!name) return fail(err, errlen, "OpenCL.std instruction %u does not exist", (unsigned)op);
  const bi_row *row = find_row(op);
  if (!row) return fail(err, errlen, "OpenCL.std `%s` is not implemented", name);
  const sigdesc *sd = &sigs[row->sig];
  const bool uns = strncmp(name, "u_", 2) == 0; /* spell types unsigned in u_* messages */
  if (!result) result = &none;                  /* no result type: void */

  /* Trailing R_VARARG operands are optional (printf): min is the count without them. */
  unsigned min = sd->nargs;
  while (min > 0 && sd->arg[min - 1] == R_VARARG) min--;
  /* a trailing R_VARARG repeats up to BI_MAX_OPERANDS operands in all */
  const unsigned max = min < sd->nargs ? BI_MAX_OPERANDS : sd->nargs;
  if (nargs < min || nargs > max || (nargs && !args)) {
    if (min < sd->nargs)
      return fail(err, errlen, "OpenCL.std `%s` takes %u to %u operands, not %u", name, min, max, nargs);
    return fail(err, errlen, "OpenCL.std `%s` takes %u operands, not %u", name, (unsigned)sd->nargs, nargs);
  }

  /* The key type: its kind, width and component count select the implementation. */
  const bi_type *key = sd->key == KEY_RESULT ? result : sd->key >= 0 ? &args[sd->key] : NULL;
  int slot = 0;
  char tn[64], want[96];
  if (key) {
    const bool kind_ok = (key->kind == BI_INT && (sd->kinds & K_INT)) ||
                         (key->kind == BI_FLOAT && (sd->kinds & K_FLOAT));
    slot = slot_of(key->kind, key->bits);
    if (!kind_ok || slot < 0 || !shape_ok(ncomp(key), sd->shapes) || !row->fn[slot]) {
      type_name(key, uns, tn, sizeof tn);
      return fail(err, errlen, "OpenCL.std `%s` is not implemented for %s", name, tn);
    }
  } else if (!row->fn[0]) {
    return fail(err, errlen, "OpenCL.std `%s` is not implemented", name);
  }

  /* Result and operands against the class's rules (the key satisfies R_KEY by construction). */
  const bi_type *k = key ? key : &none;
  const bi_type *a0 = nargs ? &args[0] : &none;
  if (!rule_ok((rule)sd->result, result, k, a0)) {
    type_name(result, uns, tn, sizeof tn);
    rule_text((rule)sd->result, k, a0, uns, want, sizeof want);
    return fail(err, errlen, "OpenCL.std `%s`: the result type is %s, expected %s", name, tn, want);
  }
  unsigned ptr64 = 0, off64 = 0;
  for (unsigned i = 0; i < nargs; i++) {
    const rule r = i < sd->nargs ? (rule)sd->arg[i] : R_VARARG;
    if (!rule_ok(r, &args[i], k, a0)) {
      type_name(&args[i], uns, tn, sizeof tn);
      rule_text(r, k, a0, uns, want, sizeof want);
      return fail(err, errlen, "OpenCL.std `%s`: operand %u has type %s, expected %s", name, i + 1, tn, want);
    }
    if (r == R_PTR_ELEM || r == R_PTR_HALF || r == R_PTR_ANY || r == R_PTR_KEY || r == R_PTR_INTN)
      ptr64 = args[i].bits == 64;
    if (r == R_SIZE_T) off64 = args[i].bits == 64;
  }

  /* The instruction's literal. */
  const unsigned n = key ? ncomp(key) : 1;
  unsigned round = 0;
  if ((row->flags & BI_F_LIT_N) && lit != n)
    return fail(err, errlen, "OpenCL.std `%s`: the literal n is %u but the %s has %u components", name, (unsigned)lit,
                sd->key == KEY_RESULT ? "result" : "data", n);
  if (row->flags & BI_F_ROUND) {
    if (lit > 3) return fail(err, errlen, "OpenCL.std `%s`: %u is not an FPRoundingMode", name, (unsigned)lit);
    round = lit;
  }
  const unsigned bits = key ? key->bits : 8;
  const unsigned lg = bits == 64 ? 3 : bits == 32 ? 2 : bits == 16 ? 1 : 0;
  const unsigned stride = ((row->flags & BI_F_ALIGN3) && n == 3) ? 4 : n;
  const unsigned m = (nargs && args[0].kind != BI_PTR) ? ncomp(&args[0]) : 0;

  if (out) {
    out->fn = row->fn[slot];
    out->literal = bi_lit_pack(n, m, round, ptr64, off64, lg, stride);
    if (row->sig == BI_SIG_PRINTF) out->literal = bi_printf_literal(args, nargs); /* argument types */
  }
  return true;
}
