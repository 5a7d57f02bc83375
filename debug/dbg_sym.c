/*
 * dbg_sym.c — the debugger's symbols: what it knows about the source behind a module.
 *
 * Owns: debugger types (from OpenCL.DebugInfo.100 when present: source names, signedness, typedefs,
 * struct member names; from the SPIR-V types otherwise), function names and prologues, variables
 * (DebugLocalVariable with DebugDeclare/DebugValue, DebugGlobalVariable, or OpName on values and
 * variables), lexical scopes (DebugScope inside function bodies), source files read for `list`,
 * and the module's disassembly (SPIRV-Tools' spvBinaryToText, one line per instruction).
 *
 * OpenCL.DebugInfo.100 operands, as the ld instruction sees them: ops[0] is the set, ops[1] the
 * instruction, ops[2..] the operands in the order of the extended instruction set's grammar.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libspirv.h defines (not just declares) `const uint32_t kDefaultMaxIdBound`, an external definition
 * in C that would clash with every other file including it: rename ours, as ld_validate.c does. */
#define kDefaultMaxIdBound dbg_sym_kDefaultMaxIdBound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound
#include <spirv/unified1/spirv.h>

#include "dbg.h"
#include "gen_spv_tables.h"

/* Zeroed memory, or NULL with y->oom set: the symbols are then incomplete (dbg_syms_build fails;
 * later, a file or the disassembly is missing and the command says so). */
static void *ycalloc(dbg_syms *y, size_t n, size_t s) {
  void *p = calloc(n ? n : 1, s ? s : 1);
  if (!p) y->oom = true;
  return p;
}

/* ---- types ------------------------------------------------------------------------------------ */

/* A new type in the session's list, NULL when out of memory. */
static dbg_type *new_type(dbg_syms *y, dbg_kind kind) {
  dbg_type *t = ycalloc(y, 1, sizeof *t);
  if (!t) return NULL;
  t->kind = kind;
  t->next = y->types;
  y->types = t;
  return t;
}

static uint64_t pow2_at_least(uint64_t n) {
  uint64_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

const dbg_type *dbg_scalar_type(dbg_syms *y, dbg_kind kind, uint32_t bits, bool is_signed) {
  for (const dbg_type *t = y->types; t; t = t->next)
    if (t->kind == kind && !t->name && t->bits == bits && t->is_signed == is_signed) return t;
  dbg_type *t = new_type(y, kind);
  if (!t) return NULL;
  t->bits = bits;
  t->is_signed = is_signed;
  t->size = bits / 8;
  return t;
}

/* The scalar types expressions may ask for at any time, made first so that asking never fails. */
static bool make_scalars(dbg_syms *y) {
  static const uint8_t ints[] = {8, 16, 32, 64}, floats[] = {16, 32, 64};
  bool ok = dbg_scalar_type(y, DK_VOID, 0, false) && dbg_scalar_type(y, DK_BOOL, 8, false);
  for (int i = 0; i < 4; i++)
    ok = ok && dbg_scalar_type(y, DK_INT, ints[i], true) && dbg_scalar_type(y, DK_INT, ints[i], false);
  for (int i = 0; i < 3; i++) ok = ok && dbg_scalar_type(y, DK_FLOAT, floats[i], false);
  return ok;
}

/* A pointer type (not shared: the pointee may be set later); NULL when out of memory. */
static dbg_type *new_pointer(dbg_syms *y, int space) {
  dbg_type *t = new_type(y, DK_POINTER);
  if (!t) return NULL;
  t->space = space;
  t->size = y->m->pointer_bytes;
  t->bits = y->m->pointer_bytes * 8;
  return t;
}

const dbg_type *dbg_pointer_type(dbg_syms *y, const dbg_type *to, int space) {
  for (const dbg_type *t = y->types; t; t = t->next)
    if (t->kind == DK_POINTER && !t->name && t->elem == to && t->space == space) return t;
  dbg_type *t = new_pointer(y, space);
  if (t) t->elem = to;
  return t;
}

/* The unnamed vector or array (kind) of n elem taking `size` bytes, made on first use; NULL when out
 * of memory. */
static const dbg_type *sequence_type(dbg_syms *y, dbg_kind kind, const dbg_type *elem, uint32_t n, uint64_t size) {
  for (const dbg_type *t = y->types; t; t = t->next)
    if (t->kind == kind && !t->name && t->elem == elem && t->count == n) return t;
  dbg_type *t = new_type(y, kind);
  if (!t) return NULL;
  t->elem = elem;
  t->count = n;
  t->size = size;
  return t;
}

const dbg_type *dbg_vector_type(dbg_syms *y, const dbg_type *elem, uint32_t n) {
  /* OpenCL: 3 components take 4 slots */
  return elem ? sequence_type(y, DK_VECTOR, elem, n, pow2_at_least(n) * elem->size) : NULL;
}

const dbg_type *dbg_array_type(dbg_syms *y, const dbg_type *elem, uint32_t n) {
  return sequence_type(y, DK_ARRAY, elem, n, (uint64_t)n * elem->size);
}

static int space_of_storage(uint32_t sc) {
  switch (sc) {
  case SpvStorageClassCrossWorkgroup: return SPVI_AS_GLOBAL;
  case SpvStorageClassUniformConstant: return SPVI_AS_CONSTANT;
  case SpvStorageClassWorkgroup: return SPVI_AS_LOCAL;
  case SpvStorageClassGeneric: return SPVI_AS_GENERIC;
  default: return SPVI_AS_PRIVATE;
  }
}

/* The members of a struct type (arrays of n), false when out of memory. */
static bool alloc_members(dbg_syms *y, dbg_type *t, uint32_t n) {
  t->mnames = ycalloc(y, n, sizeof *t->mnames);
  t->members = ycalloc(y, n, sizeof *t->members);
  t->offsets = ycalloc(y, n, sizeof *t->offsets);
  return t->mnames && t->members && t->offsets;
}

static const dbg_type *spv_type(dbg_syms *y, uint32_t id);

static const dbg_type *spv_struct(dbg_syms *y, uint32_t id, const ld_type *lt) {
  dbg_type *t = new_type(y, DK_STRUCT);
  y->spv_cache[id] = t; /* first: a member may point to the struct */
  if (!t || !alloc_members(y, t, lt->count)) return NULL;
  const char *n = y->m->ids[id].name;
  /* llvm-spirv names struct types "struct.S" */
  t->name = n ? (strncmp(n, "struct.", 7) == 0 ? n + 7 : n) : "struct";
  for (uint32_t i = 0; i < lt->count; i++) {
    static const char *const names[] = {"m0", "m1", "m2",  "m3",  "m4",  "m5",  "m6",  "m7",
                                        "m8", "m9", "m10", "m11", "m12", "m13", "m14", "m15"};
    t->mnames[i] = i < 16 ? names[i] : "m";
    t->members[i] = spv_type(y, lt->members[i]);
    if (!t->members[i]) return NULL;
    t->offsets[i] = lt->offsets[i];
    t->count = i + 1;
  }
  t->size = lt->size;
  return t;
}

/* The type of SPIR-V type `id`, cached; NULL when out of memory. SPIR-V integers carry no sign in
 * what llvm-spirv emits: they are shown signed, as in `spvi info`. */
static const dbg_type *spv_type(dbg_syms *y, uint32_t id) {
  const ld_type *lt = ld_type_of(y->m, id);
  if (!lt) return dbg_scalar_type(y, DK_VOID, 0, false);
  if (y->spv_cache[id]) return y->spv_cache[id];
  const dbg_type *e;
  dbg_type *t;
  switch (lt->kind) {
  case LD_TY_VOID: return y->spv_cache[id] = dbg_scalar_type(y, DK_VOID, 0, false);
  case LD_TY_BOOL: return y->spv_cache[id] = dbg_scalar_type(y, DK_BOOL, 8, false);
  case LD_TY_INT: return y->spv_cache[id] = dbg_scalar_type(y, DK_INT, lt->bits, true);
  case LD_TY_FLOAT: return y->spv_cache[id] = dbg_scalar_type(y, DK_FLOAT, lt->bits, false);
  case LD_TY_VECTOR: return y->spv_cache[id] = dbg_vector_type(y, spv_type(y, lt->elem), lt->count);
  case LD_TY_POINTER: {
    t = new_pointer(y, space_of_storage(lt->storage));
    y->spv_cache[id] = t; /* first: a struct may point to itself */
    const ld_type *pt = lt->elem ? ld_type_of(y->m, lt->elem) : NULL;
    if (t && pt && pt->kind != LD_TY_VOID && !(t->elem = spv_type(y, lt->elem))) return NULL;
    return t;
  }
  case LD_TY_ARRAY:
  case LD_TY_RUNTIME_ARRAY:
    t = new_type(y, DK_ARRAY);
    y->spv_cache[id] = t;
    if (!t || !(e = spv_type(y, lt->elem))) return NULL;
    t->elem = e;
    t->count = lt->kind == LD_TY_ARRAY ? lt->count : 0;
    t->size = (uint64_t)t->count * e->size;
    return t;
  case LD_TY_STRUCT: return spv_struct(y, id, lt);
  default:
    t = new_type(y, DK_OPAQUE);
    y->spv_cache[id] = t;
    if (!t) return NULL;
    t->name = lt->kind == LD_TY_OPAQUE && lt->opaque ? lt->opaque : "function";
    t->size = lt->size;
    return t;
  }
}

const dbg_type *dbg_spv_type(dbg_syms *y, uint32_t id) {
  const dbg_type *t = spv_type(y, id);
  return t ? t : dbg_scalar_type(y, DK_VOID, 0, false);
}

const char *dbg_space_name(int space) {
  static const char *const spaces[] = {"private", "global", "constant", "local", "generic"};
  return space >= 0 && space <= SPVI_AS_GENERIC ? spaces[space] : "?";
}

const dbg_type *dbg_array_dims(const dbg_type *t, char *buf, size_t cap) {
  size_t n = 0;
  buf[0] = 0;
  /* C spells the outermost length first: int[2][3] is 2 arrays of int[3] */
  for (; t && t->kind == DK_ARRAY && !t->name && n + 16 < cap; t = t->elem)
    n += (size_t)snprintf(buf + n, cap - n, "[%u]", t->count);
  return t;
}

void dbg_type_name(const dbg_type *t, char *buf, size_t cap) {
  char e[200];
  if (!t) {
    snprintf(buf, cap, "void");
    return;
  }
  if (t->name) {
    snprintf(buf, cap, "%s", t->name);
    return;
  }
  switch (t->kind) {
  case DK_VOID: snprintf(buf, cap, "void"); return;
  case DK_BOOL: snprintf(buf, cap, "bool"); return;
  case DK_INT: {
    const char *n = t->bits == 8 ? "char" : t->bits == 16 ? "short" : t->bits == 32 ? "int" : "long";
    snprintf(buf, cap, "%s%s", t->is_signed ? "" : "u", n);
    return;
  }
  case DK_FLOAT: snprintf(buf, cap, "%s", t->bits == 16 ? "half" : t->bits == 32 ? "float" : "double"); return;
  case DK_VECTOR:
    dbg_type_name(t->elem, e, sizeof e);
    snprintf(buf, cap, "%s%u", e, t->count);
    return;
  case DK_ARRAY: {
    char dims[96];
    dbg_type_name(dbg_array_dims(t, dims, sizeof dims), e, sizeof e);
    snprintf(buf, cap, "%s%s", e, dims);
    return;
  }
  case DK_POINTER:
    dbg_type_name(t->elem, e, sizeof e);
    snprintf(buf, cap, "%s %s *", dbg_space_name(t->space), e);
    return;
  case DK_STRUCT: snprintf(buf, cap, "struct"); return;
  default: snprintf(buf, cap, "?"); return;
  }
}

/* ---- OpenCL.DebugInfo.100 --------------------------------------------------------------------- */

/* The module-level DebugInfo instruction with result `id`, or NULL. */
static const ld_insn *di_insn(const dbg_syms *y, uint32_t id) {
  const ld_module *m = y->m;
  if (id == 0 || id >= m->bound || m->ids[id].kind != LD_ID_DEBUG) return NULL;
  const ld_insn *d = &m->debug_insns[m->ids[id].index];
  if (d->nops < 2 || d->ops[0] >= m->bound || m->ids[d->ops[0]].index != LD_EXT_DEBUGINFO) return NULL;
  return d;
}
static uint32_t di_op(const ld_insn *d) { return d->ops[1]; }
/* Operand k (0-based after the instruction number), 0 when absent. */
static uint32_t di_arg(const ld_insn *d, unsigned k) { return 2u + k < d->nops ? d->ops[2 + k] : 0; }
static const char *di_string(const dbg_syms *y, uint32_t id) {
  return id && id < y->m->bound && y->m->ids[id].kind == LD_ID_STRING ? y->m->ids[id].name : NULL;
}
/* A size/offset/count operand: the id of an integer constant (llvm-spirv), else a literal. */
static uint64_t di_number(const dbg_syms *y, uint32_t v) {
  const ld_module *m = y->m;
  if (v && v < m->bound && m->ids[v].kind == LD_ID_CONST) {
    const ld_const *c = &m->consts[m->ids[v].index];
    const ld_type *t = ld_type_of(m, c->type);
    uint64_t x = 0;
    if (t && t->kind == LD_TY_INT) memcpy(&x, c->bytes, t->bits / 8 < 8 ? t->bits / 8 : 8);
    return x;
  }
  return v;
}

/* DebugTypeBasic encodings (OpenCL.DebugInfo.100 3.4). */
enum { DI_ENC_BOOLEAN = 2, DI_ENC_FLOAT = 3, DI_ENC_SIGNED = 4, DI_ENC_SIGNED_CHAR = 5 };

static const dbg_type *di_type(dbg_syms *y, uint32_t id);

/* A copy to rename (typedefs, enums); never of a struct, which owns its member arrays. NULL when
 * out of memory. */
static dbg_type *copy_type(dbg_syms *y, const dbg_type *base) {
  dbg_type *t = new_type(y, base->kind);
  if (!t) return NULL;
  dbg_type *keep = t->next;
  *t = *base;
  t->next = keep;
  return t;
}

/* The type of a member whose own type cannot be read: opaque, of the member's size, so that the
 * struct's other members still show (and this one as <unreadable debug type>). */
static const dbg_type *unreadable_type(dbg_syms *y, uint64_t size) {
  dbg_type *t = new_type(y, DK_OPAQUE);
  if (!t) return NULL;
  t->name = "unreadable debug type";
  t->size = size;
  return t;
}

static const dbg_type *di_composite(dbg_syms *y, uint32_t id, const ld_insn *d) {
  dbg_type *t = new_type(y, DK_STRUCT);
  y->di_cache[id] = t;
  uint32_t nm = d->nops > 11 ? d->nops - 11u : 0;
  if (!t || !alloc_members(y, t, nm)) return NULL;
  const char *n = di_string(y, di_arg(d, 0));
  t->name = n && n[0] ? n : NULL;
  t->size = di_number(y, di_arg(d, 7)) / 8;
  for (uint32_t i = 0; i < nm; i++) {
    const ld_insn *mb = di_insn(y, d->ops[11 + i]);
    if (!mb || di_op(mb) != DI_DebugTypeMember) continue; /* member functions, inheritance: not data */
    const char *mn = di_string(y, di_arg(mb, 0));
    t->mnames[t->count] = mn ? mn : "?";
    t->members[t->count] = di_type(y, di_arg(mb, 1));
    if (!t->members[t->count]) t->members[t->count] = unreadable_type(y, di_number(y, di_arg(mb, 7)) / 8);
    if (!t->members[t->count]) continue; /* out of memory: y->oom says so */
    t->offsets[t->count] = di_number(y, di_arg(mb, 6)) / 8;
    t->count++;
  }
  return t;
}

/* The mark of a type being read (di_cache), so that a type whose operands lead back to itself other
 * than through a struct or pointer (which are cached before their operands are read) is unreadable
 * instead of an endless recursion. */
static const dbg_type di_reading;

/* Whether DebugInfo operand v is an OpConstant 0 or DebugInfoNone: a C array's lower bound. */
static bool di_zero_bound(const dbg_syms *y, uint32_t v) {
  const ld_insn *b = di_insn(y, v);
  if (b) return di_op(b) == DI_DebugInfoNone;
  return v && v < y->m->bound && y->m->ids[v].kind == LD_ID_CONST && di_number(y, v) == 0;
}

/* DebugTypeArray (OpenCL.DebugInfo.100, "Type instructions"): Base Type, then one Component Count per dimension,
 * outermost first (int a[2][3]: 2, 3), each the <id> of an integer OpConstant. llvm-spirv 14/15
 * write a lower bound after the counts for every dimension (counts c1..cN, then bounds l1..lN,
 * DebugInfoNone for C's 0): an even number of operands after the base whose second half are all
 * zero bounds is that layout. A count that is no constant (a variable-length bound) gives no type:
 * the variable is then shown with its SPIR-V type, never with a guessed length. */
static const dbg_type *di_array(dbg_syms *y, const ld_insn *d) {
  const dbg_type *e = di_type(y, di_arg(d, 0));
  uint32_t n = d->nops > 3 ? d->nops - 3u : 0;
  bool bounds = n >= 2 && n % 2 == 0;
  for (uint32_t k = n / 2; bounds && k < n; k++) bounds = di_zero_bound(y, d->ops[3 + k]);
  if (bounds) n /= 2;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t c = d->ops[3 + k];
    if (di_insn(y, c) || !(c < y->m->bound && y->m->ids[c].kind == LD_ID_CONST)) return NULL;
  }
  for (uint32_t k = n; e && k > 0; k--) e = dbg_array_type(y, e, (uint32_t)di_number(y, d->ops[3 + k - 1]));
  return n ? e : NULL;
}

static const dbg_type *di_type(dbg_syms *y, uint32_t id) {
  const ld_insn *d = di_insn(y, id);
  if (!d) return NULL;
  if (y->di_cache[id]) return y->di_cache[id] == &di_reading ? NULL : y->di_cache[id];
  y->di_cache[id] = &di_reading;
  const dbg_type *r = NULL;
  dbg_type *t;
  switch (di_op(d)) {
  case DI_DebugTypeBasic: {
    uint32_t bits = (uint32_t)di_number(y, di_arg(d, 1)), enc = di_arg(d, 2);
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64) break;
    dbg_kind k = enc == DI_ENC_FLOAT ? DK_FLOAT : enc == DI_ENC_BOOLEAN ? DK_BOOL : DK_INT;
    bool sgn = enc == DI_ENC_SIGNED || enc == DI_ENC_SIGNED_CHAR;
    /* spelled the OpenCL way (uint, ulong, uchar), not with the C names clang records */
    r = dbg_scalar_type(y, k, bits, k == DK_INT && sgn);
    break;
  }
  case DI_DebugTypePointer: {
    /* llvm-spirv writes 0xFFFFFFFF, no storage class, for a pointer without an address space in the
     * LLVM debug info (event_t's): its space is unknown, so the type is unreadable */
    if (!spv_storage_class_name(di_arg(d, 1))) break;
    t = new_pointer(y, space_of_storage(di_arg(d, 1)));
    y->di_cache[id] = t;
    if (!t) return NULL;
    const ld_insn *b = di_insn(y, di_arg(d, 0));
    t->elem = b && di_op(b) != DI_DebugInfoNone ? di_type(y, di_arg(d, 0)) : NULL;
    return t;
  }
  case DI_DebugTypeQualifier: r = di_type(y, di_arg(d, 0)); break;
  case DI_DebugTypeVector: {
    const dbg_type *e = di_type(y, di_arg(d, 0));
    uint32_t n = di_arg(d, 1);
    /* OpenCL C 6.1.2: 2, 3, 4, 8 or 16 components */
    if (e && (n == 2 || n == 3 || n == 4 || n == 8 || n == 16)) r = dbg_vector_type(y, e, n);
    break;
  }
  case DI_DebugTypeArray: r = di_array(y, d); break;
  case DI_DebugTypedef: {
    const dbg_type *b = di_type(y, di_arg(d, 1));
    if (!b) break;
    if (b->kind == DK_STRUCT) {
      /* `typedef struct {...} S`: the struct takes the name; it is shared, not copied (it may
       * still be under construction when it contains a pointer to itself) */
      if (!b->name) ((dbg_type *)b)->name = di_string(y, di_arg(d, 0));
      r = b;
      break;
    }
    if ((t = copy_type(y, b))) t->name = di_string(y, di_arg(d, 0));
    r = t;
    break;
  }
  case DI_DebugTypeComposite: return di_composite(y, id, d);
  case DI_DebugTypeEnum: {
    const dbg_type *b = di_type(y, di_arg(d, 1));
    if (!b) b = dbg_scalar_type(y, DK_INT, 32, true);
    if ((t = copy_type(y, b))) t->name = di_string(y, di_arg(d, 0));
    r = t;
    break;
  }
  default: break;
  }
  y->di_cache[id] = r;
  return r;
}

/* Is `id` an in-function OpExtInst of OpenCL.DebugInfo.100? Returns its instruction or -1. */
static int fn_di_op(const ld_module *m, const ld_insn *in) {
  if (in->opcode != SpvOpExtInst || in->nops < 2 || in->ops[0] >= m->bound) return -1;
  if (m->ids[in->ops[0]].kind != LD_ID_EXTINST_SET || m->ids[in->ops[0]].index != LD_EXT_DEBUGINFO) return -1;
  return (int)in->ops[1];
}

/* The ld function a DebugInfo scope belongs to (walking parents to its DebugFunction). */
static uint32_t scope_function(const dbg_syms *y, uint32_t scope, const uint32_t *di_fn_of) {
  for (int guard = 0; guard < 1000; guard++) {
    const ld_insn *d = di_insn(y, scope);
    if (!d) return LD_NONE;
    switch (di_op(d)) {
    case DI_DebugFunction: return di_fn_of[scope];
    case DI_DebugLexicalBlock: scope = di_arg(d, 3); break;
    case DI_DebugLexicalBlockDiscriminator: scope = di_arg(d, 2); break;
    default: return LD_NONE;
    }
  }
  return LD_NONE;
}

/* A new variable, NULL when out of memory. */
static dbg_var *add_var(dbg_syms *y) {
  if (y->nvars == y->capvars) {
    uint32_t cap = y->capvars ? y->capvars * 2 : 16;
    dbg_var *vars = realloc(y->vars, cap * sizeof *vars);
    if (!vars) {
      y->oom = true;
      return NULL;
    }
    y->vars = vars;
    y->capvars = cap;
  }
  dbg_var *v = &y->vars[y->nvars++];
  memset(v, 0, sizeof *v);
  v->func = LD_NONE;
  return v;
}

static void add_loc(dbg_syms *y, dbg_var *v, uint32_t insn, uint32_t id, bool declare) {
  if (v->nlocs == v->caplocs) {
    uint32_t cap = v->caplocs ? v->caplocs * 2 : 4;
    dbg_loc *locs = realloc(v->locs, cap * sizeof *locs);
    if (!locs) {
      y->oom = true;
      return;
    }
    v->locs = locs;
    v->caplocs = cap;
  }
  v->locs[v->nlocs++] = (dbg_loc){insn, id, declare};
}

/* DebugOperation OpCodes (OpenCL.DebugInfo.100, "Debug Operations"). */
enum { DI_OP_SWAP = 5, DI_OP_XDEREF = 6, DI_OP_STACK_VALUE = 7, DI_OP_CONSTU = 8 };

static bool di_operation_is(const dbg_syms *y, uint32_t id, uint32_t code) {
  const ld_insn *o = di_insn(y, id);
  return o && di_op(o) == DI_DebugOperation && di_arg(o, 0) == code;
}

/* Whether a DebugValue's DebugExpression ("Local Variables") leaves the value as it is: no operations, StackValue,
 * or clang's OpenCL address-space marker (Constu N, Swap, Xderef), which llvm-spirv writes on every
 * DebugValue. Anything else (a fragment of the variable, arithmetic on the value) describes
 * something other than the variable's whole value: it is shown as optimized out, never guessed. */
static bool di_plain_expression(const dbg_syms *y, uint32_t expr) {
  const ld_insn *e = di_insn(y, expr);
  if (!e || di_op(e) != DI_DebugExpression) return false;
  for (uint32_t k = 2; k < e->nops; k++) {
    if (di_operation_is(y, e->ops[k], DI_OP_STACK_VALUE)) continue;
    if (k + 2 < e->nops && di_operation_is(y, e->ops[k], DI_OP_CONSTU) &&
        di_operation_is(y, e->ops[k + 1], DI_OP_SWAP) && di_operation_is(y, e->ops[k + 2], DI_OP_XDEREF)) {
      k += 2;
      continue;
    }
    return false;
  }
  return true;
}

/* Whether DebugValue's Value `id` holds the variable's value: not OpUndef, not DebugInfoNone (the
 * compiler's ways of saying the value is gone). */
static bool di_value_known(const dbg_syms *y, uint32_t id) {
  const ld_module *m = y->m;
  const ld_id *e = &m->ids[id];
  switch (e->kind) {
  case LD_ID_CONST: return !m->consts[e->index].is_undef;
  case LD_ID_VALUE: return m->funcs[e->index].insns[e->insn].opcode != SpvOpUndef;
  case LD_ID_PARAM:
  case LD_ID_GLOBAL: return true;
  default: return false;
  }
}

/* The blocks block b of fn branches to (SPIR-V 3.32.17: OpBranch, OpBranchConditional, OpSwitch
 * whose case literals take one word per 32 bits of the selector), at most cap; the count. */
static uint32_t block_succs(const ld_module *m, const ld_function *fn, uint32_t b, uint32_t *out, uint32_t cap) {
  const ld_insn *t = &fn->insns[fn->blocks[b].first + fn->blocks[b].count - 1];
  uint32_t labels[2], nl = 0, n = 0;
  switch (t->opcode) {
  case SpvOpBranch: labels[nl++] = t->nops > 0 ? t->ops[0] : 0; break;
  case SpvOpBranchConditional:
    labels[nl++] = t->nops > 1 ? t->ops[1] : 0;
    labels[nl++] = t->nops > 2 ? t->ops[2] : 0;
    break;
  case SpvOpSwitch: {
    const ld_type *st = t->nops ? ld_type_of(m, m->ids[t->ops[0]].type) : NULL;
    const uint32_t words = st && st->bits > 32 ? 2 : 1;
    labels[nl++] = t->nops > 1 ? t->ops[1] : 0; /* the default */
    for (uint32_t k = 2 + words; k < t->nops && n < cap; k += words + 1)
      if (t->ops[k] < m->bound && m->ids[t->ops[k]].kind == LD_ID_LABEL) out[n++] = m->ids[t->ops[k]].index;
    break;
  }
  default: break;
  }
  for (uint32_t k = 0; k < nl && n < cap; k++)
    if (labels[k] && labels[k] < m->bound && m->ids[labels[k]].kind == LD_ID_LABEL) out[n++] = m->ids[labels[k]].index;
  return n;
}

enum { REACH_UNSEEN = -2, REACH_NONE = -1 };

/* The DebugValue of v that last sets it in block b of fn, or `in` when none does. */
static int32_t reach_out(const dbg_var *v, const ld_block *b, int32_t in) {
  for (uint32_t i = v->nlocs; i-- > 0;)
    if (v->locs[i].insn >= b->first && v->locs[i].insn < b->first + b->count) return (int32_t)i;
  return in;
}

/* The DebugValue reaching a block from two sides: the same value, or none known. */
static int32_t reach_meet(const dbg_var *v, int32_t a, int32_t b) {
  if (a == REACH_UNSEEN) return b;
  if (b == REACH_UNSEEN || a == b) return a;
  if (a >= 0 && b >= 0 && v->locs[a].id == v->locs[b].id) return a;
  return REACH_NONE;
}

/* Where each DebugValue'd variable of function fi stands at the start of each block: the DebugValue
 * that reaches it on every path from the entry (forward data flow to a fixed point), REACH_NONE when
 * the paths disagree or none sets it. A DebugValue holds until the next one on the path: a value
 * set on one branch only is never shown where the other branch may have been taken. */
static void reach_function(dbg_syms *y, uint32_t fi) {
  const ld_module *m = y->m;
  const ld_function *fn = &m->funcs[fi];
  if (!fn->nblocks) return;
  uint32_t *succ = NULL;
  for (uint32_t vi = 0; vi < y->nvars && !y->oom; vi++) {
    dbg_var *v = &y->vars[vi];
    bool values = false;
    for (uint32_t i = 0; i < v->nlocs && v->func == fi; i++) values |= !v->locs[i].declare;
    if (!values) continue;
    if (!succ && !(succ = ycalloc(y, fn->ninsns + 1, sizeof *succ))) return;
    if (!(v->entry = ycalloc(y, fn->nblocks, sizeof *v->entry))) break;
    for (uint32_t b = 0; b < fn->nblocks; b++) v->entry[b] = b ? REACH_UNSEEN : REACH_NONE;
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t b = 0; b < fn->nblocks; b++) {
        if (v->entry[b] == REACH_UNSEEN) continue;
        int32_t out = reach_out(v, &fn->blocks[b], v->entry[b]);
        uint32_t n = block_succs(m, fn, b, succ, fn->ninsns + 1);
        for (uint32_t k = 0; k < n; k++) {
          int32_t met = reach_meet(v, v->entry[succ[k]], out);
          if (met != v->entry[succ[k]]) {
            v->entry[succ[k]] = met;
            changed = true;
          }
        }
      }
    }
  }
  free(succ);
}

static void build_debuginfo(dbg_syms *y) {
  const ld_module *m = y->m;
  uint32_t *di_fn_of = ycalloc(y, m->bound, sizeof *di_fn_of); /* DebugFunction id -> ld function */
  uint32_t *var_of = ycalloc(y, m->bound, sizeof *var_of);     /* DebugLocalVariable id -> var index + 1 */
  if (!di_fn_of || !var_of) {
    free(di_fn_of);
    free(var_of);
    return;
  }
  for (uint32_t i = 0; i < m->bound; i++) di_fn_of[i] = LD_NONE;
  for (uint32_t i = 0; i < m->ndebug_insns; i++) {
    const ld_insn *d = &m->debug_insns[i];
    if (!di_insn(y, d->result) || di_op(d) != DI_DebugFunction) continue;
    uint32_t fid = di_arg(d, 9);
    if (fid >= m->bound || m->ids[fid].kind != LD_ID_FUNCTION) continue;
    uint32_t fi = m->ids[fid].index;
    di_fn_of[d->result] = fi;
    y->funcs[fi].scope = d->result;
    y->funcs[fi].decl_line = di_arg(d, 3);
    const char *n = di_string(y, di_arg(d, 0));
    if (n && n[0]) y->funcs[fi].name = n;
    y->funcs[fi].is_entry_wrapper = false;
  }
  for (uint32_t i = 0; i < m->ndebug_insns; i++) {
    const ld_insn *d = &m->debug_insns[i];
    if (!di_insn(y, d->result)) continue;
    if (di_op(d) == DI_DebugLocalVariable) {
      dbg_var *v = add_var(y);
      if (!v) break;
      v->name = di_string(y, di_arg(d, 0));
      v->type = di_type(y, di_arg(d, 1));
      v->line = di_arg(d, 3);
      v->scope = di_arg(d, 5);
      v->argno = d->nops > 9 ? d->ops[9] : 0;
      v->func = scope_function(y, v->scope, di_fn_of);
      if (!v->name || v->func == LD_NONE) {
        y->nvars--;
        continue;
      }
      var_of[d->result] = y->nvars;
      y->has_debuginfo = true;
    } else if (di_op(d) == DI_DebugGlobalVariable) {
      uint32_t var = di_arg(d, 7);
      const char *n = di_string(y, di_arg(d, 0));
      if (!n || var >= m->bound || m->ids[var].kind != LD_ID_GLOBAL) continue;
      dbg_var *v = add_var(y);
      if (!v) break;
      v->name = n;
      v->type = di_type(y, di_arg(d, 1));
      v->line = di_arg(d, 3);
      v->global_id = var;
      /* a `local` variable declared in a kernel (OpenCL C, "Usage for Declaration Scopes and
       * Variable Types") is a module-scope OpVariable whose Parent is the kernel's DebugFunction:
       * it is one of that function's locals */
      uint32_t fi = scope_function(y, di_arg(d, 5), di_fn_of);
      if (fi != LD_NONE) {
        v->func = fi;
        v->scope = di_arg(d, 5);
      }
      y->has_debuginfo = true;
    }
  }
  /* where each variable lives: DebugDeclare / DebugValue in the function bodies */
  for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
    const ld_function *fn = &m->funcs[fi];
    for (uint32_t i = 0; i < fn->ninsns; i++) {
      const ld_insn *in = &fn->insns[i];
      int op = fn_di_op(m, in);
      if ((op != DI_DebugDeclare && op != DI_DebugValue) || in->nops < 4) continue;
      uint32_t vid = in->ops[2], id = in->ops[3];
      if (vid >= m->bound || !var_of[vid] || id >= m->bound) continue;
      dbg_var *v = &y->vars[var_of[vid] - 1];
      /* at -O2 an inlined callee's variables are described in the caller's body: not this frame's */
      if (v->func != fi) continue;
      /* a DebugValue of a variable's address is a declaration (clang at -O0 emits either) */
      bool declare = op == DI_DebugDeclare;
      if (!declare && m->ids[id].kind == LD_ID_VALUE) {
        const ld_insn *def = &fn->insns[m->ids[id].insn];
        const ld_type *pt = ld_type_of(m, def->type);
        if (def->opcode == SpvOpVariable && pt && v->type && v->type->kind != DK_POINTER) declare = true;
      }
      /* id 0: from here on the variable's value is not known (optimized out) */
      if (!declare && (!di_value_known(y, id) || in->nops > 5 || !di_plain_expression(y, in->ops[4]))) id = 0;
      add_loc(y, v, i, id, declare);
    }
  }
  for (uint32_t fi = 0; fi < m->nfuncs && !y->oom; fi++) reach_function(y, fi);
  free(di_fn_of);
  free(var_of);
}

/* Without DebugInfo: OpName'd parameters, values and function variables are the variables. */
static void build_opnames(dbg_syms *y) {
  const ld_module *m = y->m;
  for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
    const ld_function *fn = &m->funcs[fi];
    for (uint32_t i = 0; i < fn->nparams; i++) {
      const char *n = m->ids[fn->params[i]].name;
      if (!n || !n[0]) continue;
      dbg_var *v = add_var(y);
      if (!v) return;
      v->name = n;
      v->func = fi;
      v->argno = i + 1;
      add_loc(y, v, 0, fn->params[i], false);
    }
    for (uint32_t i = 0; i < fn->ninsns; i++) {
      const ld_insn *in = &fn->insns[i];
      const char *n = in->result ? m->ids[in->result].name : NULL;
      if (!n || !n[0] || !in->type || in->opcode == SpvOpLabel) continue;
      const ld_type *rt = ld_type_of(m, in->type);
      if (!rt || rt->kind == LD_TY_VOID) continue;
      dbg_var *v = add_var(y);
      if (!v) return;
      v->name = n;
      v->func = fi;
      /* a variable's name names the object; a value's name names the value */
      add_loc(y, v, in->opcode == SpvOpVariable ? 0 : i, in->result, in->opcode == SpvOpVariable);
    }
  }
  for (uint32_t g = 0; g < m->nglobals; g++) {
    const char *n = m->ids[m->globals[g].id].name;
    if (!n || !n[0] || m->globals[g].builtin != LD_NONE) continue;
    bool dup = false;
    for (uint32_t i = 0; i < y->nvars && !dup; i++) dup = y->vars[i].func == LD_NONE && strcmp(y->vars[i].name, n) == 0;
    if (dup) continue;
    dbg_var *v = add_var(y);
    if (!v) return;
    v->name = n;
    v->global_id = m->globals[g].id;
  }
}

/* The prologue of function fi: the instructions before the first one with a line other than the
 * function's own (clang puts the parameters' stores on the declaration line). */
static uint32_t body_start(const dbg_syms *y, uint32_t fi) {
  const dbg_func *df = &y->funcs[fi];
  if (!df->has_lines) return 0;
  const uint32_t n = ex_insp_code_count(y->x, fi);
  uint32_t first_line = LD_NONE;
  for (uint32_t i = 0; i < n; i++) {
    const ld_insn *in = dbg_insn_at(y, fi, i);
    if (!in->line) continue;
    if (in->line != df->decl_line) return i;
    if (first_line == LD_NONE) first_line = i;
  }
  return first_line != LD_NONE ? first_line : 0;
}

bool dbg_syms_build(dbg_syms *y, const ex_insp *x) { return dbg_syms_build_module(y, ex_insp_module(x), x); }

bool dbg_syms_build_module(dbg_syms *y, const ld_module *m, const ex_insp *x) {
  memset(y, 0, sizeof *y);
  y->m = m;
  y->x = x;
  y->spv_cache = ycalloc(y, m->bound, sizeof *y->spv_cache);
  y->di_cache = ycalloc(y, m->bound, sizeof *y->di_cache);
  y->funcs = ycalloc(y, m->nfuncs, sizeof *y->funcs);
  if (y->oom || !make_scalars(y)) return false;
  for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
    const ld_function *fn = &m->funcs[fi];
    y->funcs[fi].name = m->ids[fn->id].name;
    for (uint32_t e = 0; e < m->nentries && !y->funcs[fi].name; e++)
      if (m->entries[e].func == fn->id) {
        y->funcs[fi].name = m->entries[e].name;
        y->funcs[fi].is_entry_wrapper = true;
      }
    for (uint32_t i = 0; i < fn->ninsns; i++)
      if (fn->insns[i].line) y->funcs[fi].has_lines = y->any_lines = true;
  }
  /* every SPIR-V type now, so that looking one up later never allocates */
  for (uint32_t id = 1; id < m->bound && !y->oom; id++)
    if (m->ids[id].kind == LD_ID_TYPE) spv_type(y, id);
  build_debuginfo(y);
  build_opnames(y);
  for (uint32_t fi = 0; fi < m->nfuncs && x; fi++) y->funcs[fi].body_start = body_start(y, fi);
  return !y->oom;
}

void dbg_syms_free(dbg_syms *y) {
  for (dbg_type *t = y->types, *n; t; t = n) {
    n = t->next;
    if (t->kind == DK_STRUCT) {
      free(t->mnames);
      free(t->members);
      free(t->offsets);
    }
    free(t);
  }
  free(y->spv_cache);
  free(y->di_cache);
  free(y->funcs);
  for (uint32_t i = 0; i < y->nvars; i++) {
    free(y->vars[i].locs);
    free(y->vars[i].entry);
  }
  free(y->vars);
  for (uint32_t i = 0; i < y->nsrcs; i++) {
    free(y->srcs[i].text);
    free(y->srcs[i].lines);
  }
  free(y->srcs);
  free(y->dis_text);
  free(y->dis_lines);
  free(y->dis_at);
  memset(y, 0, sizeof *y);
}

/* ---- names, files, scopes ------------------------------------------------------------------- */

const ld_insn *dbg_insn_at(const dbg_syms *y, uint32_t fn, uint32_t idx) {
  const uint32_t n = ex_insp_code_count(y->x, fn);
  return &y->m->funcs[fn].insns[ex_insp_code_src(y->x, fn, idx < n ? idx : n - 1)];
}

const char *dbg_func_name(const dbg_syms *y, uint32_t fi, char *buf, size_t cap) {
  if (fi < y->m->nfuncs && y->funcs[fi].name) return y->funcs[fi].name;
  snprintf(buf, cap, "%%%u", fi < y->m->nfuncs ? y->m->funcs[fi].id : 0);
  return buf;
}

const char *dbg_file_name(const dbg_syms *y, uint32_t file, bool base) {
  const char *n = file && file < y->m->bound ? y->m->ids[file].name : NULL;
  if (!n) return "?";
  const char *sl = base ? strrchr(n, '/') : NULL;
  return sl ? sl + 1 : n;
}

bool dbg_file_matches(const dbg_syms *y, uint32_t file, const char *spec) {
  const char *full = dbg_file_name(y, file, false);
  size_t lf = strlen(full), ls = strlen(spec);
  if (strcmp(full, spec) == 0) return true;
  return ls < lf && strcmp(full + lf - ls, spec) == 0 && full[lf - ls - 1] == '/';
}

/* The contents of file `path` (NUL-terminated, *len bytes); NULL when it cannot be read, or with
 * *oom set when there is no memory for it. */
static char *read_file(const char *path, size_t *len, bool *oom) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *t = malloc(cap);
  for (size_t got; t && (got = fread(t + n, 1, cap - 1 - n, f)) > 0;) {
    n += got;
    if (n + 1 == cap) {
      char *g = realloc(t, cap * 2);
      if (!g) {
        free(t);
        t = NULL;
        break;
      }
      t = g;
      cap *= 2;
    }
  }
  fclose(f);
  if (!t) {
    *oom = true;
    return NULL;
  }
  t[n] = 0;
  *len = n;
  return t;
}

const dbg_src *dbg_source(dbg_syms *y, uint32_t file) {
  for (uint32_t i = 0; i < y->nsrcs; i++)
    if (y->srcs[i].file == file) return y->srcs[i].text ? &y->srcs[i] : NULL;
  dbg_src *srcs = realloc(y->srcs, (y->nsrcs + 1) * sizeof *srcs);
  if (!srcs) {
    y->oom = true;
    return NULL;
  }
  y->srcs = srcs;
  dbg_src *s = &y->srcs[y->nsrcs++];
  memset(s, 0, sizeof *s);
  s->file = file;
  size_t n = 0;
  bool oom = false;
  char *t = read_file(dbg_file_name(y, file, false), &n, &oom);
  uint32_t nl = 1;
  for (size_t i = 0; t && i < n; i++) nl += t[i] == '\n';
  if (t && !(s->lines = calloc(nl, sizeof *s->lines))) {
    free(t);
    t = NULL;
    oom = true;
  }
  if (oom) {
    y->oom = true;
    y->nsrcs--;
  } /* out of memory, not unreadable: tried again next time */
  if (!t) return NULL;
  s->text = t;
  char *p = t;
  while (*p || p == t) {
    s->lines[s->nlines++] = p;
    char *e = strchr(p, '\n');
    if (!e) break;
    *e = 0;
    if (e > p && e[-1] == '\r') e[-1] = 0;
    p = e + 1;
    if (!*p) break;
  }
  return s;
}

/* The DebugInfo scope in effect at instruction `insn` of ld function fi (0 without DebugInfo). */
static uint32_t scope_at(const dbg_syms *y, uint32_t fi, uint32_t insn) {
  const ld_module *m = y->m;
  const ld_function *fn = &m->funcs[fi];
  uint32_t first = 0;
  for (uint32_t b = 0; b < fn->nblocks; b++)
    if (fn->blocks[b].first <= insn) first = fn->blocks[b].first;
  /* a DebugScope holds until the next DebugScope/DebugNoScope or the end of its block */
  for (uint32_t i = insn + 1; i-- > first;) {
    int op = fn_di_op(m, &fn->insns[i]);
    if (op == DI_DebugScope && fn->insns[i].nops > 2) return fn->insns[i].ops[2];
    if (op == DI_DebugNoScope) break;
  }
  return y->funcs[fi].scope;
}

/* The parent of a lexical scope, 0 at the top. */
static uint32_t scope_parent(const dbg_syms *y, uint32_t scope) {
  const ld_insn *d = di_insn(y, scope);
  if (!d) return 0;
  switch (di_op(d)) {
  case DI_DebugLexicalBlock: return di_arg(d, 3);
  case DI_DebugLexicalBlockDiscriminator: return di_arg(d, 2);
  default: return 0;
  }
}

const dbg_var *dbg_lookup_var(const dbg_syms *y, uint32_t fi, uint32_t insn, const char *name) {
  uint32_t scope = fi != LD_NONE ? scope_at(y, fi, insn) : 0;
  for (int guard = 0; scope && guard < 1000; guard++, scope = scope_parent(y, scope))
    for (uint32_t i = 0; i < y->nvars; i++)
      if (y->vars[i].func == fi && y->vars[i].scope == scope && strcmp(y->vars[i].name, name) == 0) return &y->vars[i];
  /* OpName'd values have no scope; DebugInfo variables of another block of this function come last */
  for (uint32_t i = 0; fi != LD_NONE && i < y->nvars; i++)
    if (y->vars[i].func == fi && !y->vars[i].scope && strcmp(y->vars[i].name, name) == 0) return &y->vars[i];
  for (uint32_t i = 0; i < y->nvars; i++)
    if (y->vars[i].func == LD_NONE && strcmp(y->vars[i].name, name) == 0) return &y->vars[i];
  for (uint32_t i = 0; fi != LD_NONE && i < y->nvars; i++)
    if (y->vars[i].func == fi && strcmp(y->vars[i].name, name) == 0) return &y->vars[i];
  return NULL;
}

uint32_t dbg_visible_vars(const dbg_syms *y, uint32_t fi, uint32_t insn, bool args, const dbg_var **out, uint32_t cap) {
  uint32_t n = 0;
  if (args) {
    /* parameters in parameter order */
    for (uint32_t a = 1; a < 256 && n < cap; a++)
      for (uint32_t i = 0; i < y->nvars; i++)
        if (y->vars[i].func == fi && y->vars[i].argno == a) {
          out[n++] = &y->vars[i];
          break;
        }
    return n;
  }
  uint32_t scope = scope_at(y, fi, insn);
  for (int guard = 0; scope && guard < 1000; guard++, scope = scope_parent(y, scope))
    for (uint32_t i = 0; i < y->nvars && n < cap; i++)
      if (y->vars[i].func == fi && y->vars[i].scope == scope && !y->vars[i].argno) out[n++] = &y->vars[i];
  for (uint32_t i = 0; i < y->nvars && n < cap; i++)
    if (y->vars[i].func == fi && !y->vars[i].scope && !y->vars[i].argno) out[n++] = &y->vars[i];
  return n;
}

bool dbg_var_loc(const dbg_syms *y, const dbg_var *v, uint32_t insn, dbg_loc *out) {
  const dbg_loc *best = NULL;
  for (uint32_t i = 0; i < v->nlocs; i++)
    if (v->locs[i].declare) {
      *out = v->locs[i];
      return true;
    }
  if (v->entry) {
    /* DebugValue: the one reaching insn's block, then those of the block before insn */
    const ld_function *fn = &y->m->funcs[v->func];
    for (uint32_t b = 0; b < fn->nblocks; b++) {
      const ld_block *bl = &fn->blocks[b];
      if (insn < bl->first || insn >= bl->first + bl->count) continue;
      int32_t at = v->entry[b];
      for (uint32_t i = 0; i < v->nlocs; i++)
        if (v->locs[i].insn >= bl->first && v->locs[i].insn <= insn) at = (int32_t)i;
      if (at < 0 || !v->locs[at].id) return false;
      *out = v->locs[at];
      return true;
    }
    return false;
  }
  /* the value that was set last before this instruction in module order */
  for (uint32_t i = 0; i < v->nlocs; i++)
    if (v->locs[i].insn <= insn && (!best || v->locs[i].insn > best->insn)) best = &v->locs[i];
  if (!best) return false;
  *out = *best;
  return true;
}

/* ---- disassembly ------------------------------------------------------------------------------ */

/* SPIRV-Tools' disassembler stops at the first operand it cannot decode, so one such debug-info
 * instruction (llvm-spirv 14's DebugTypePointer with storage class 0xFFFFFFFF) would leave the whole
 * module without disassembly. Those instructions are left out, one at a time (at most
 * DBG_MAX_UNDECODABLE), and listed as this line. */
static char undecodable[] = "OpExtInst (debug information the disassembler cannot decode)";
#define DBG_MAX_UNDECODABLE 64

/* Is the instruction at word `at` of w an OpExtInst of a debug-info or non-semantic set? */
static bool is_debug_ext(const ld_module *m, const uint32_t *w, uint32_t at) {
  if ((w[at] & 0xFFFFu) != SpvOpExtInst || (w[at] >> 16) < 5 || w[at + 3] >= m->bound) return false;
  const ld_id *s = &m->ids[w[at + 3]];
  return s->kind == LD_ID_EXTINST_SET && (s->index == LD_EXT_DEBUGINFO || s->index == LD_EXT_NONSEMANTIC);
}

/* The disassembly of m (no header, friendly names) without the debug-info instructions it cannot
 * decode, whose word offsets in m go to drop[] (*ndrop of them, in order); NULL when it fails
 * otherwise. */
static spv_text disassemble(const ld_module *m, uint32_t *drop, uint32_t *ndrop) {
  *ndrop = 0;
  spv_context ctx = spvContextCreate((spv_target_env)ld_target_env(m->version));
  uint32_t *w = malloc((size_t)m->nwords * sizeof *w);
  spv_text text = NULL;
  if (!ctx || !w) goto done;
  memcpy(w, m->words, (size_t)m->nwords * sizeof *w);
  for (uint32_t nw = m->nwords, shift = 0;;) {
    spv_diagnostic diag = NULL;
    spv_result_t r = spvBinaryToText(ctx, w, nw,
                                     SPV_BINARY_TO_TEXT_OPTION_NO_HEADER | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES,
                                     &text, &diag);
    /* for binary input the position's index is the failing instruction's ordinal, the header 0 */
    size_t index = diag && !diag->isTextSource ? diag->position.index : 0;
    spvDiagnosticDestroy(diag);
    if (r == SPV_SUCCESS && text) break;
    spvTextDestroy(text);
    text = NULL;
    uint32_t at = 5;
    for (size_t k = 1; at < nw && k < index; k++) at += w[at] >> 16;
    if (index == 0 || at >= nw || *ndrop == DBG_MAX_UNDECODABLE || !is_debug_ext(m, w, at)) break;
    uint32_t wc = w[at] >> 16;
    drop[(*ndrop)++] = at + shift;
    memmove(w + at, w + at + wc, (size_t)(nw - at - wc) * sizeof *w);
    nw -= wc;
    shift += wc;
  }
done:
  free(w);
  if (ctx) spvContextDestroy(ctx);
  return text;
}

static bool build_disasm(dbg_syms *y) {
  if (y->dis_tried) return y->dis_lines != NULL;
  y->dis_tried = true;
  const ld_module *m = y->m;
  if (!m->words || m->nwords < 5) return false;
  uint32_t drop[DBG_MAX_UNDECODABLE], ndrop = 0;
  spv_text text = disassemble(m, drop, &ndrop);
  if (!text) return false;
  y->dis_text = ycalloc(y, text->length + 1, 1);
  if (!y->dis_text) {
    spvTextDestroy(text);
    return false;
  }
  memcpy(y->dis_text, text->str, text->length);
  y->dis_text[text->length] = 0;
  spvTextDestroy(text);
  /* one line per instruction, in binary order */
  uint32_t ninsn = 0;
  for (uint32_t at = 5; at < m->nwords && (m->words[at] >> 16); at += m->words[at] >> 16) ninsn++;
  y->dis_lines = ycalloc(y, ninsn, sizeof *y->dis_lines);
  y->dis_at = ycalloc(y, ninsn, sizeof *y->dis_at);
  if (!y->dis_lines || !y->dis_at) {
    free(y->dis_lines);
    y->dis_lines = NULL; /* no disassembly: dbg_dis_line answers -1 */
    return false;
  }
  char *p = y->dis_text;
  uint32_t at = 5, k = 0;
  while (y->ndis < ninsn) {
    if (k < ndrop && drop[k] == at) {
      k++;
      y->dis_lines[y->ndis] = undecodable;
      y->dis_at[y->ndis++] = at;
      at += m->words[at] >> 16;
      continue;
    }
    if (!*p) break;
    char *e = strchr(p, '\n');
    if (e) *e = 0;
    while (*p == ' ') p++;
    y->dis_lines[y->ndis] = p;
    y->dis_at[y->ndis++] = at;
    at += m->words[at] >> 16;
    p = e ? e + 1 : p + strlen(p);
  }
  return true;
}

int dbg_dis_line(dbg_syms *y, uint32_t at) {
  if (!build_disasm(y)) return -1;
  uint32_t lo = 0, hi = y->ndis;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (y->dis_at[mid] < at) lo = mid + 1;
    else hi = mid;
  }
  return lo < y->ndis && y->dis_at[lo] == at ? (int)lo : -1;
}

void dbg_insn_text(dbg_syms *y, const ld_insn *in, char *buf, size_t cap) {
  int k = dbg_dis_line(y, in->word_offset);
  if (k >= 0) {
    snprintf(buf, cap, "%s", y->dis_lines[k]);
    return;
  }
  const char *on = spv_op_name(in->opcode);
  if (in->result) snprintf(buf, cap, "%%%u = %s", in->result, on ? on : "?");
  else snprintf(buf, cap, "%s", on ? on : "?");
}

uint32_t dbg_id_by_name(dbg_syms *y, const char *name) {
  const ld_module *m = y->m;
  if (!build_disasm(y)) return 0;
  size_t n = strlen(name);
  for (uint32_t i = 0; i < y->ndis; i++) {
    const char *l = y->dis_lines[i];
    if (l[0] != '%' || strncmp(l + 1, name, n) != 0 || strncmp(l + 1 + n, " = ", 3) != 0) continue;
    const spv_opinfo *info = spv_op_info(m->words[y->dis_at[i]] & 0xFFFFu);
    /* the result id follows the result type, when there is one (SPIR-V 2.3) */
    if (info && info->has_result) return m->words[y->dis_at[i] + 1 + info->has_type];
  }
  return 0;
}
