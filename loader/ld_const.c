/*
 * ld_const.c — module-scope constants (OpConstant*, OpSpecConstant*, OpUndef; SPIR-V 3.32.7) and
 * module-scope variables (OpVariable, SPIR-V 3.32.8).
 *
 * A constant's value is stored in register layout (ld_ir.h): scalars in host byte order, a vector
 * as n packed components, aggregates in their memory layout (struct members at their offsets,
 * array elements at element-size strides, padding zero). OpConstantNull and OpUndef are all zero
 * bytes; a specialization constant holds its default value (there is no specialization API yet),
 * and OpSpecConstantOp is evaluated from those defaults (ld_specop.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ld_internal.h"
#include "spvi.h"

bool ld_const_is_opcode(uint32_t opcode) {
  switch (opcode) {
  case SpvOpConstantTrue:
  case SpvOpConstantFalse:
  case SpvOpConstant:
  case SpvOpConstantComposite:
  case SpvOpConstantSampler:
  case SpvOpConstantNull:
  case SpvOpSpecConstantTrue:
  case SpvOpSpecConstantFalse:
  case SpvOpSpecConstant:
  case SpvOpSpecConstantComposite:
  case SpvOpSpecConstantOp:
  case SpvOpUndef: return true;
  default: return false;
  }
}

/* Allocate a new constant slot for result `id` of type `type` (reg_size zero bytes). */
static ld_const *new_const(ld_ctx *c, const ld_raw *r, uint32_t id, const ld_type *type) {
  ld_module *m = c->m;
  if (!ld_define(c, r, id)) return NULL;
  if (m->nconsts >= c->max_consts) {
    ld_errf(c, r->at, "internal error: constant table full");
    return NULL;
  }
  /* the type's size is known before any byte is allocated: a hostile OpConstantNull of a 4 GB
   * array is refused here, not after the arena has allocated and zeroed it */
  if (type->reg_size > SPVI_MAX_CONSTANT_SIZE) {
    char nb[96];
    ld_errf(c, r->at, "constant `%s` of %u bytes is above spvi's largest constant, %llu bytes (SPVI_MAX_CONSTANT_SIZE)",
            ld_id_name(m, id, nb, sizeof nb), type->reg_size, (unsigned long long)SPVI_MAX_CONSTANT_SIZE);
    return NULL;
  }
  ld_const *k = &m->consts[m->nconsts];
  k->id = id;
  k->type = type->id;
  k->spec_id = LD_NONE;
  k->bytes = ld_arena_alloc(c->arena, ld_type_reg_bytes(type));
  if (!k->bytes) {
    ld_oom(c);
    return NULL;
  }
  m->ids[id].kind = LD_ID_CONST;
  m->ids[id].type = type->id;
  m->ids[id].index = m->nconsts++;
  return k;
}

/* OpConstant / OpSpecConstant: one value word for widths up to 32 bits (smaller types use the
 * low-order bits), two for 64 bits, low-order word first (SPIR-V 2.2.1 "Literal"). */
static bool scalar_value(ld_ctx *c, const ld_raw *r, const ld_type *t, ld_const *k) {
  if (t->kind != LD_TY_INT && t->kind != LD_TY_FLOAT)
    return ld_errf(c, r->at, "%s %%%u: type %%%u is not an integer or floating-point type", r->info->name, k->id,
                   t->id);
  uint32_t want = t->bits == 64 ? 2 : 1, have = r->nwords - 3u;
  if (have != want)
    return ld_errf(c, r->at, "%s %%%u of a %u-bit type has %u value words, expects %u", r->info->name, k->id, t->bits,
                   have, want);
  switch (t->bits) {
  case 8: {
    uint8_t v = (uint8_t)r->w[3];
    memcpy(k->bytes, &v, 1);
    break;
  }
  case 16: {
    uint16_t v = (uint16_t)r->w[3];
    memcpy(k->bytes, &v, 2);
    break;
  }
  case 32: memcpy(k->bytes, &r->w[3], 4); break;
  default: {
    uint64_t v = (uint64_t)r->w[4] << 32 | r->w[3];
    memcpy(k->bytes, &v, 8);
    break;
  }
  }
  return true;
}

/* Append to k->relocs a pointer at byte `offset` of k's value into module-scope variable
 * `global`. */
static bool add_reloc(ld_ctx *c, ld_const *k, uint32_t offset, uint32_t global) {
  ld_reloc *n = ld_arena_array(c->arena, k->nrelocs + 1u, sizeof *n);
  if (!n) return ld_oom(c);
  if (k->nrelocs) memcpy(n, k->relocs, k->nrelocs * sizeof *n);
  n[k->nrelocs].offset = offset;
  n[k->nrelocs].global = global;
  k->relocs = n;
  k->nrelocs++;
  return true;
}

/* Where constituent i of a composite of type t goes, and its type. */
static void constituent_slot(const ld_module *m, const ld_type *t, uint32_t i, uint32_t *offset, uint32_t *type) {
  switch (t->kind) {
  case LD_TY_VECTOR:
    *type = t->elem;
    *offset = i * ld_type_of(m, t->elem)->size;
    break;
  case LD_TY_ARRAY:
    *type = t->elem;
    *offset = i * ld_type_of(m, t->elem)->size;
    break;
  default:
    *type = t->members[i];
    *offset = t->offsets[i];
    break;
  }
}

/* An undefined constituent (OpUndef, or a composite holding one) of composite constant k at byte
 * off of its register value: its bytes are undefined in k too (SPIR-V 3.32.7: OpConstantComposite
 * takes OpUndef constituents; clang -O2 builds partially initialised vectors that way). */
static bool mark_undef(ld_ctx *c, const ld_type *t, ld_const *k, uint32_t off, const ld_const *part, uint32_t bytes) {
  if (!k->undef_mask) {
    uint8_t *mk = ld_arena_alloc(c->arena, ld_type_reg_bytes(t));
    if (!mk) return ld_oom(c);
    memset(mk, 0, ld_type_reg_bytes(t));
    k->undef_mask = mk;
  }
  if (part->is_undef) memset(k->undef_mask + off, 1, bytes);
  else memcpy(k->undef_mask + off, part->undef_mask, bytes);
  return true;
}

static bool composite(ld_ctx *c, const ld_raw *r, const ld_type *t, ld_const *k) {
  const ld_module *m = c->m;
  if (t->kind != LD_TY_VECTOR && t->kind != LD_TY_ARRAY && t->kind != LD_TY_STRUCT)
    return ld_errf(c, r->at, "%s %%%u: type %%%u is not a vector, array or struct type", r->info->name, k->id, t->id);
  uint32_t n = r->nwords - 3u;
  if (n != t->count)
    return ld_errf(c, r->at, "%s %%%u has %u constituents, its type %%%u has %u", r->info->name, k->id, n, t->id,
                   t->count);
  for (uint32_t i = 0; i < n; i++) {
    char what[80];
    snprintf(what, sizeof what, "%s %%%u constituent %u", r->info->name, k->id, i);
    uint32_t pid = r->w[3 + i];
    if (pid < m->bound && m->ids[pid].kind == LD_ID_GLOBAL) {
      /* the address of a variable as a member: a relocation, the bytes hold offset 0 */
      uint32_t off, want;
      constituent_slot(m, t, i, &off, &want);
      if (!ld_type_same(m, m->ids[pid].type, want))
        return ld_errf(c, r->at, "%s %%%u has type %%%u, expects %%%u", what, pid, m->ids[pid].type, want);
      if (!add_reloc(c, k, off, pid)) return false;
      continue;
    }
    const ld_const *part = ld_need_const(c, r, pid, what);
    if (!part) return false;
    uint32_t off, want;
    constituent_slot(m, t, i, &off, &want);
    if (!ld_type_same(m, part->type, want))
      return ld_errf(c, r->at, "%s %%%u has type %%%u, expects %%%u", what, part->id, part->type, want);
    uint32_t bytes = ld_type_of(m, want)->reg_size;
    if ((uint64_t)off + bytes > t->reg_size) abort(); /* layout guarantees the slot fits */
    memcpy(k->bytes + off, part->bytes, bytes);
    if ((part->is_undef || part->undef_mask) && !mark_undef(c, t, k, off, part, bytes)) return false;
    for (uint32_t j = 0; j < part->nrelocs; j++)
      if (!add_reloc(c, k, off + part->relocs[j].offset, part->relocs[j].global)) return false;
  }
  return true;
}

/* Replace a scalar specialization constant's default with the value given in the load options
 * (SPIR-V 2.12 "Specialization"): the text is read according to the constant's type. */
static bool spec_override(ld_ctx *c, const ld_raw *r, const ld_type *t, ld_const *k) {
  const ld_options *o = c->opt;
  if (!o || k->spec_id == LD_NONE) return true;
  const char *text = NULL;
  const ld_spec *given = NULL;
  for (uint32_t i = 0; i < o->nspecs; i++)
    if (o->specs[i].id == k->spec_id) {
      given = &o->specs[i];
      text = given->text;
    }
  if (given && given->bytes) {
    /* clSetProgramSpecializationConstant: the value's bits, exactly the type's size (a bool is 1
     * byte, OpenCL 3.0 API 5.8.4 "spec_size"; any non-zero byte is true) */
    uint32_t want = t->kind == LD_TY_BOOL ? 1u : t->bits / 8u;
    if (given->size != want)
      return ld_errf(c, r->at, "specialization constant %u takes %u bytes, got %zu", k->spec_id, want, given->size);
    if (t->kind == LD_TY_BOOL) k->bytes[0] = ((const uint8_t *)given->bytes)[0] != 0;
    else memcpy(k->bytes, given->bytes, want);
    return true;
  }
  if (!text) return true;
  char *end = NULL;
  errno = 0;
  if (t->kind == LD_TY_BOOL) {
    if (!strcmp(text, "true") || !strcmp(text, "1")) k->bytes[0] = 1;
    else if (!strcmp(text, "false") || !strcmp(text, "0")) k->bytes[0] = 0;
    else
      return ld_errf(c, r->at, "specialization constant %u is a bool: `%s` is not true, false, 1 or 0", k->spec_id,
                     text);
    return true;
  }
  if (t->kind == LD_TY_INT) {
    bool neg = text[0] == '-';
    uint64_t mag = strtoull(neg ? text + 1 : text, &end, 0);
    if (!*text || *end || errno || (neg && (text[1] == '-' || text[1] == '+')))
      return ld_errf(c, r->at, "specialization constant %u (%u-bit integer): `%s` is not an integer", k->spec_id,
                     t->bits, text);
    uint64_t umax = t->bits == 64 ? UINT64_MAX : (((uint64_t)1 << t->bits) - 1);
    uint64_t nmax = (uint64_t)1 << (t->bits - 1); /* magnitude of the most negative value */
    if ((!neg && mag > umax) || (neg && mag > nmax))
      return ld_errf(c, r->at, "specialization constant %u: `%s` does not fit %u bits", k->spec_id, text, t->bits);
    uint64_t v = neg ? (uint64_t)0 - mag : mag;
    memcpy(k->bytes, &v, t->bits / 8); /* little-endian host: the low bytes */
    return true;
  }
  if (t->kind == LD_TY_FLOAT) {
    if (t->bits == 32) {
      float f = strtof(text, &end); /* correctly rounded (C11 7.22.1.3 with glibc) */
      if (!*text || *end)
        return ld_errf(c, r->at, "specialization constant %u (float): `%s` is not a number", k->spec_id, text);
      memcpy(k->bytes, &f, 4);
      return true;
    }
    double d = strtod(text, &end);
    if (!*text || *end)
      return ld_errf(c, r->at, "specialization constant %u (%u-bit float): `%s` is not a number", k->spec_id, t->bits,
                     text);
    if (t->bits == 64) {
      memcpy(k->bytes, &d, 8);
      return true;
    }
    uint16_t h;
    if (!ld_half_exact(d, &h))
      return ld_errf(c, r->at, "specialization constant %u (half): `%s` is not exactly representable as a half",
                     k->spec_id, text);
    memcpy(k->bytes, &h, 2);
    return true;
  }
  return ld_errf(c, r->at, "specialization constant %u has a type that cannot be given a value", k->spec_id);
}

/* OpConstantSampler %type %id AddressingMode Param FilterMode (SPIR-V 3.32.7): a literal sampler
 * (OpenCL C `const sampler_t s = CLK_...`), held as ld_sampler_bits. */
static bool constant_sampler(ld_ctx *c, const ld_raw *r) {
  char what[64];
  snprintf(what, sizeof what, "OpConstantSampler %%%u result type", r->w[2]);
  const ld_type *t = ld_need_type(c, r, r->w[1], what);
  if (!t) return false;
  if (t->kind != LD_TY_OPAQUE || strcmp(t->opaque, "OpTypeSampler") != 0)
    return ld_errf(c, r->at, "%s %%%u is not OpTypeSampler", what, r->w[1]);
  if (r->nwords != 6)
    return ld_errf(c, r->at, "OpConstantSampler %%%u has %u words, expects 6", r->w[2], (unsigned)r->nwords);
  uint32_t mode = r->w[3], norm = r->w[4], filter = r->w[5];
  if (mode > SpvSamplerAddressingModeRepeatMirrored)
    return ld_errf(c, r->at, "OpConstantSampler %%%u: unknown addressing mode %u", r->w[2], mode);
  if (norm > 1) return ld_errf(c, r->at, "OpConstantSampler %%%u: Param %u is not 0 or 1", r->w[2], norm);
  if (filter > SpvSamplerFilterModeLinear)
    return ld_errf(c, r->at, "OpConstantSampler %%%u: unknown filter mode %u", r->w[2], filter);
  ld_const *k = new_const(c, r, r->w[2], t);
  if (!k) return false;
  uint64_t bits = ld_sampler_bits(mode, norm == 1, filter == SpvSamplerFilterModeLinear);
  memcpy(k->bytes, &bits, 8);
  return true;
}

/* OpSpecConstantOp: ld_specop_eval computes the value; an address result (a variable plus an
 * offset) also gets its relocation here, where constants are built. */
static bool spec_op(ld_ctx *c, const ld_raw *r, const ld_type *t, ld_const *k) {
  uint32_t global;
  if (!ld_specop_eval(c, r, t, k, &global)) return false;
  return global == 0 || add_reloc(c, k, 0, global);
}

bool ld_const_insn(ld_ctx *c, const ld_raw *r) {
  ld_module *m = c->m;
  if (r->opcode == SpvOpConstantSampler) return constant_sampler(c, r);
  char what[64];
  snprintf(what, sizeof what, "%s %%%u result type", r->info->name, r->w[2]);
  const ld_type *t = ld_need_type(c, r, r->w[1], what);
  if (!t) return false;
  if (t->kind == LD_TY_VOID || t->kind == LD_TY_FUNCTION || t->kind == LD_TY_RUNTIME_ARRAY)
    return ld_errf(c, r->at, "%s %%%u: type %%%u has no values", r->info->name, r->w[2], t->id);
  ld_const *k = new_const(c, r, r->w[2], t);
  if (!k) return false;
  bool is_bool_op = false, value = false;
  switch (r->opcode) {
  case SpvOpSpecConstantTrue:
  case SpvOpSpecConstantFalse:
  case SpvOpSpecConstant:
  case SpvOpSpecConstantComposite:
  case SpvOpSpecConstantOp: {
    k->is_spec = true;
    const ld_decoration *d = ld_find_decoration(m, k->id, SpvDecorationSpecId);
    if (d) k->spec_id = d->args[0];
    break;
  }
  default: break;
  }
  switch (r->opcode) {
  case SpvOpConstantTrue:
  case SpvOpSpecConstantTrue: is_bool_op = value = true; break;
  case SpvOpConstantFalse:
  case SpvOpSpecConstantFalse: is_bool_op = true; break;
  case SpvOpConstant: return scalar_value(c, r, t, k);
  case SpvOpSpecConstant: return scalar_value(c, r, t, k) && spec_override(c, r, t, k);
  case SpvOpConstantComposite:
  case SpvOpSpecConstantComposite: return composite(c, r, t, k);
  case SpvOpConstantNull: return true; /* all zero: also the null pointer */
  case SpvOpUndef: k->is_undef = true; return true;
  case SpvOpSpecConstantOp: return spec_op(c, r, t, k);
  default: abort(); /* ld_const_is_opcode lists exactly the cases above */
  }
  if (is_bool_op) {
    if (t->kind != LD_TY_BOOL)
      return ld_errf(c, r->at, "%s %%%u: type %%%u is not OpTypeBool", r->info->name, k->id, t->id);
    k->bytes[0] = value;
    if (k->is_spec) return spec_override(c, r, t, k);
  }
  return true;
}

/* A module-scope variable in the Function storage class. SPIR-V 3.32.8 allows Function only inside
 * a function, yet clang-14/15 + llvm-spirv-14/15 emit it for valid OpenCL C (a private aggregate
 * initialiser with a non-constant member, at -O0 and -O2), and `llvm-spirv -r` reads it back as a
 * private variable: it is one, each work-item with its own initialised copy (ex_globals.c). One
 * warning per module, at the first such variable. */
static void function_global_warning(ld_ctx *c, uint32_t id) {
  const ld_module *m = c->m;
  for (uint32_t i = 0; i < m->nglobals; i++)
    if (m->globals[i].storage == SpvStorageClassFunction) return;
  char nb[96];
  const char *name = m->ids[id].name; /* OpName, read in pass A */
  if (name && *name) snprintf(nb, sizeof nb, "`%s`", name);
  else snprintf(nb, sizeof nb, "%%%u", id);
  ld_warnf(c,
           "module-scope OpVariable %s is in the Function storage class, which SPIR-V allows only inside a "
           "function (llvm-spirv emits it for private initialisers): run as a private variable, each work-item "
           "with its own initialised copy",
           nb);
}

/* Module-scope OpVariable (SPIR-V 3.32.8): Result Type is a pointer whose storage class matches
 * the Storage Class operand, which cannot be Function outside a function (but see above); the
 * optional initializer is a constant or another module-scope variable (its address). */
bool ld_global_insn(ld_ctx *c, const ld_raw *r) {
  ld_module *m = c->m;
  uint32_t id = r->w[2], sc = r->w[3];
  char what[64];
  snprintf(what, sizeof what, "OpVariable %%%u result type", id);
  const ld_type *pt = ld_need_type(c, r, r->w[1], what);
  if (!pt) return false;
  if (pt->kind != LD_TY_POINTER) return ld_errf(c, r->at, "%s %%%u is not a pointer type", what, r->w[1]);
  if (sc != pt->storage)
    return ld_errf(c, r->at, "OpVariable %%%u storage class %u differs from its pointer type's %u", id, sc,
                   pt->storage);
  const ld_type *pointee = ld_type_of(m, pt->elem);
  if (!pointee || !ld_type_is_sized(pointee))
    return ld_errf(c, r->at, "module-scope OpVariable %%%u: its pointee type %%%u has no memory size", id, pt->elem);
  if (r->nwords > 5) return ld_errf(c, r->at, "OpVariable %%%u has %u words, expects 4 or 5", id, (unsigned)r->nwords);
  uint32_t init = 0;
  if (r->nwords == 5) {
    init = r->w[4];
    snprintf(what, sizeof what, "OpVariable %%%u initializer", id);
    const ld_id *e = ld_ref(c, r, init, what);
    if (!e) return false;
    uint32_t itype = e->type;
    if (e->kind != LD_ID_CONST && e->kind != LD_ID_GLOBAL)
      return ld_errf(c, r->at, "%s %%%u is not a constant or module-scope variable", what, init);
    if (!ld_type_same(m, itype, pt->elem))
      return ld_errf(c, r->at, "%s %%%u has type %%%u, expects the pointee type %%%u", what, init, itype, pt->elem);
  }
  if (!ld_define(c, r, id)) return false;
  /* after ld_define: the warning names the variable, so its id must be in range (fuzzing found a
   * read past the id table here, tests/fuzz/regress/run/function-global-id-range.bin) */
  if (sc == SpvStorageClassFunction) function_global_warning(c, id);
  if (m->nglobals >= c->max_globals) return ld_errf(c, r->at, "internal error: variable table full");
  ld_global *g = &m->globals[m->nglobals];
  g->id = id;
  g->type = pt->id;
  g->storage = sc;
  g->init = init;
  g->size = pointee->size;
  g->align = pointee->align;
  const ld_decoration *d = ld_find_decoration(m, id, SpvDecorationAlignment);
  if (d) {
    uint32_t a = d->args[0];
    if (a == 0 || (a & (a - 1))) return ld_errf(c, r->at, "OpVariable %%%u: Alignment %u is not a power of two", id, a);
    if (a > g->align) g->align = a;
  }
  d = ld_find_decoration(m, id, SpvDecorationBuiltIn);
  g->builtin = d ? d->args[0] : LD_NONE;
  g->is_const = sc == SpvStorageClassUniformConstant || ld_find_decoration(m, id, SpvDecorationConstant) != NULL;
  m->ids[id].kind = LD_ID_GLOBAL;
  m->ids[id].type = pt->id;
  m->ids[id].index = m->nglobals++;
  return true;
}
