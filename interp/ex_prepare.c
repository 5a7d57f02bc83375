/*
 * ex_prepare.c — translates the loader's IR into executable code (ex_program).
 *
 * Owns: choosing a typed handler for every instruction, laying out the register file (constants,
 * then each function's registers), giving every variable a static allocation (private, local,
 * global, constant), turning OpPhi into per-edge move lists, reverse post-order of blocks (the
 * reconvergence order), the call graph (recursion is rejected: OpenCL C 6.9 forbids it, and static
 * register frames depend on it), and rejecting everything the executor cannot run at load time with
 * the exact opcode and location.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ex.h"
#include "ex_internal.h"
#include "gen_spv_tables.h"

typedef struct prep {
  ex_program *p;
  const ld_module *m;
  uint32_t *reg;          /* per id: absolute per-lane register offset, LD_NONE if not a value */
  char *err; size_t errlen;
  /* growable buffers of the function being built */
  ex_insn *code; uint32_t ncode, capcode;
  uint32_t *aux; uint32_t naux, capaux;
  const ld_function *fn;
  const ld_insn *cur;     /* instruction being translated, for messages */
  /* constant area under construction */
  uint32_t cbase;         /* absolute per-lane offset of the constant area (after function registers) */
  uint8_t *cinit; uint32_t cbytes, ccap;
  uint32_t *cslots; uint32_t ncslots, capcslots;  /* (reg, size) pairs */
  uint32_t scratch_need;
  bi_resolved *bis; uint32_t nbis, capbis;
} prep;

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) abort(); /* out of memory while preparing: nothing sensible to continue with */
  return q;
}

/* Format an error about the current instruction: "<file>: function `f`: <msg> (OpX %id, word N, src:line)". */
static bool fail(prep *s, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  char where[400] = "";
  if (s->cur) {
    const char *on = spv_op_name(s->cur->opcode);
    int k = snprintf(where, sizeof where, " (%s", on ? on : "?");
    if (s->cur->result && k > 0 && (size_t)k < sizeof where)
      k += snprintf(where + k, sizeof where - (size_t)k, " %%%u", s->cur->result);
    if (k > 0 && (size_t)k < sizeof where)
      k += snprintf(where + k, sizeof where - (size_t)k, ", word %u", s->cur->word_offset);
    if (s->cur->line && k > 0 && (size_t)k < sizeof where) {
      const char *file = s->cur->file && s->cur->file < s->m->bound ? s->m->ids[s->cur->file].name : NULL;
      k += snprintf(where + k, sizeof where - (size_t)k, ", %s:%u", file ? file : "?", s->cur->line);
    }
    if (k > 0 && (size_t)k < sizeof where) snprintf(where + k, sizeof where - (size_t)k, ")");
  }
  char fname[128] = "";
  if (s->fn) {
    char nb[96];
    snprintf(fname, sizeof fname, "function `%s`: ", ld_id_name(s->m, s->fn->id, nb, sizeof nb));
  }
  snprintf(s->err, s->errlen, "%s: %s%s%s", s->m->path ? s->m->path : "module", fname, msg, where);
  return false;
}

static uint32_t emit(prep *s, ex_insn in) {
  if (s->ncode == s->capcode) {
    s->capcode = s->capcode ? s->capcode * 2 : 64;
    s->code = xrealloc(s->code, s->capcode * sizeof *s->code);
  }
  in.src = s->cur ? (uint32_t)(s->cur - s->fn->insns) : 0;
  s->code[s->ncode] = in;
  return s->ncode++;
}

static uint32_t aux_push(prep *s, uint32_t v) {
  if (s->naux == s->capaux) {
    s->capaux = s->capaux ? s->capaux * 2 : 64;
    s->aux = xrealloc(s->aux, s->capaux * sizeof *s->aux);
  }
  s->aux[s->naux] = v;
  return s->naux++;
}

/* ---- constants ------------------------------------------------------------------------------ */

static uint32_t const_slot(prep *s, const void *bytes, uint32_t size) {
  uint32_t sz = size ? size : 1;
  uint32_t off = (s->cbytes + 7u) & ~7u;
  if (off + sz > s->ccap) {
    s->ccap = (off + sz) * 2 + 64;
    s->cinit = xrealloc(s->cinit, s->ccap);
  }
  memset(s->cinit + s->cbytes, 0, off + sz - s->cbytes);
  if (bytes) memcpy(s->cinit + off, bytes, size);
  s->cbytes = off + sz;
  if (s->ncslots + 2 > s->capcslots) {
    s->capcslots = s->capcslots ? s->capcslots * 2 : 64;
    s->cslots = xrealloc(s->cslots, s->capcslots * sizeof *s->cslots);
  }
  s->cslots[s->ncslots++] = s->cbase + off;
  s->cslots[s->ncslots++] = sz;
  return s->cbase + off;
}

static const ld_type *ty(prep *s, uint32_t id) { return ld_type_of(s->m, id); }
static void addr_patch(prep *s, uint32_t reg, uint32_t alloc);

/* Register of an operand id; constants are materialised on first use. */
/* The entry of p->builtins for built-in variable `id`, or NULL. */
static struct ex_builtin_var *builtin_var(prep *s, uint32_t id) {
  const ld_id *e = &s->m->ids[id];
  if (e->kind != LD_ID_GLOBAL || s->m->globals[e->index].builtin == LD_NONE) return NULL;
  for (uint32_t b = 0; b < s->p->nbuiltins; b++)
    if (s->p->builtins[b].alloc == s->p->global_alloc[e->index]) return &s->p->builtins[b];
  return NULL;
}

static bool operand(prep *s, uint32_t id, uint32_t *out) {
  if (id == 0 || id >= s->m->bound) return fail(s, "operand %%%u is not a valid id", id);
  /* a built-in variable's address used as a value: its memory must hold the values (whole OpLoads
   * of it do not come here, see SpvOpLoad) */
  if (s->m->ids[id].kind == LD_ID_GLOBAL) {
    struct ex_builtin_var *bv = builtin_var(s, id);
    if (bv) bv->materialize = true;
  }
  if (s->reg[id] != LD_NONE) { *out = s->reg[id]; return true; }
  const ld_id *e = &s->m->ids[id];
  if (e->kind == LD_ID_CONST) {
    const ld_const *c = &s->m->consts[e->index];
    const ld_type *t = ty(s, c->type);
    if (!t) return fail(s, "constant %%%u has no valid type", id);
    uint32_t r = const_slot(s, c->bytes, t->reg_size);
    for (uint32_t i = 0; i < c->nrelocs; i++) {
      uint32_t g = c->relocs[i].global;
      if (g >= s->m->bound || s->m->ids[g].kind != LD_ID_GLOBAL) return fail(s, "constant %%%u points to a non-variable", id);
      addr_patch(s, r + c->relocs[i].offset, s->p->global_alloc[s->m->ids[g].index]);
    }
    s->reg[id] = r;
    *out = r;
    return true;
  }
  return fail(s, "operand %%%u is not a value available here", id);
}

static uint32_t type_reg_size(prep *s, uint32_t type_id) {
  const ld_type *t = ty(s, type_id);
  return t ? t->reg_size : 0;
}

/* log2 of the alignment an OpLoad/OpStore needs: its Aligned memory operand (SPIR-V 3.26: the
 * literal right after the MemoryAccess mask at ops[mask_at]) when present, else the alignment of the
 * accessed type (OpenCL C 6.1.5: scalars and vectors are aligned to their size, 3-vectors as
 * 4-vectors). An access that breaks it is reported as misaligned. */
static uint8_t access_align_log2(prep *s, const ld_insn *in, unsigned mask_at, uint32_t type_id) {
  uint64_t a = 1;
  if (in->nops > mask_at + 1 && (in->ops[mask_at] & SpvMemoryAccessAlignedMask)) a = in->ops[mask_at + 1];
  else if (ty(s, type_id)) a = ty(s, type_id)->align;
  uint8_t k = 0;
  while (k < 31 && ((uint64_t)2 << k) <= a) k++;
  return k;
}

/* Element description of a scalar or vector type: kind 'i' int, 'f' float, 'b' bool, 'p' pointer. */
typedef struct elem { char kind; uint32_t bits, n; } elem;
static bool elem_of(prep *s, uint32_t type_id, elem *e) {
  const ld_type *t = ty(s, type_id);
  if (!t) return fail(s, "type %%%u is not a type", type_id);
  e->n = 1;
  if (t->kind == LD_TY_VECTOR) { e->n = t->count; t = ty(s, t->elem); if (!t) return fail(s, "bad vector type"); }
  switch (t->kind) {
  case LD_TY_INT: e->kind = 'i'; e->bits = t->bits; return true;
  case LD_TY_FLOAT: e->kind = 'f'; e->bits = t->bits; return true;
  case LD_TY_BOOL: e->kind = 'b'; e->bits = 8; return true;
  case LD_TY_POINTER: e->kind = 'p'; e->bits = s->m->pointer_bytes * 8; return true;
  default: return fail(s, "expected a scalar or vector type, got %%%u", type_id);
  }
}

static int int_index(uint32_t bits) { return bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : bits == 64 ? 3 : -1; }
static int flt_index(uint32_t bits) { return bits == 16 ? 0 : bits == 32 ? 1 : bits == 64 ? 2 : -1; }

/* ---- opcode -> handler family tables --------------------------------------------------------- */

typedef struct fam { uint16_t spv; uint16_t base; uint8_t arity; } fam;
/* Integer families: base handler for I8; +1 .. +3 for I16 .. I64 (see EX_INT_TYPES order). */
static const fam int_fams[] = {
  {SpvOpIAdd, EX_IADD_I8, 2}, {SpvOpISub, EX_ISUB_I8, 2}, {SpvOpIMul, EX_IMUL_I8, 2},
  {SpvOpUDiv, EX_UDIV_I8, 2}, {SpvOpSDiv, EX_SDIV_I8, 2}, {SpvOpUMod, EX_UMOD_I8, 2},
  {SpvOpSRem, EX_SREM_I8, 2}, {SpvOpSMod, EX_SMOD_I8, 2},
  {SpvOpShiftLeftLogical, EX_SHL_I8, 2}, {SpvOpShiftRightLogical, EX_SHRL_I8, 2},
  {SpvOpShiftRightArithmetic, EX_SHRA_I8, 2}, {SpvOpBitwiseAnd, EX_AND_I8, 2},
  {SpvOpBitwiseOr, EX_OR_I8, 2}, {SpvOpBitwiseXor, EX_XOR_I8, 2},
  {SpvOpSNegate, EX_SNEG_I8, 1}, {SpvOpNot, EX_NOT_I8, 1},
  {SpvOpIEqual, EX_IEQ_I8, 2}, {SpvOpINotEqual, EX_INE_I8, 2},
  {SpvOpUGreaterThan, EX_UGT_I8, 2}, {SpvOpSGreaterThan, EX_SGT_I8, 2},
  {SpvOpUGreaterThanEqual, EX_UGE_I8, 2}, {SpvOpSGreaterThanEqual, EX_SGE_I8, 2},
  {SpvOpULessThan, EX_ULT_I8, 2}, {SpvOpSLessThan, EX_SLT_I8, 2},
  {SpvOpULessThanEqual, EX_ULE_I8, 2}, {SpvOpSLessThanEqual, EX_SLE_I8, 2},
};
/* Float families: base handler for F16; +1 F32, +2 F64. Arity 1 ops with a bool result are tests. */
static const fam flt_fams[] = {
  {SpvOpFAdd, EX_FADD_F16, 2}, {SpvOpFSub, EX_FSUB_F16, 2}, {SpvOpFMul, EX_FMUL_F16, 2},
  {SpvOpFDiv, EX_FDIV_F16, 2}, {SpvOpFRem, EX_FREM_F16, 2}, {SpvOpFMod, EX_FMOD_F16, 2},
  {SpvOpFNegate, EX_FNEG_F16, 1},
  {SpvOpFOrdEqual, EX_FOEQ_F16, 2}, {SpvOpFUnordEqual, EX_FUEQ_F16, 2},
  {SpvOpFOrdNotEqual, EX_FONE_F16, 2}, {SpvOpFUnordNotEqual, EX_FUNE_F16, 2},
  {SpvOpFOrdLessThan, EX_FOLT_F16, 2}, {SpvOpFUnordLessThan, EX_FULT_F16, 2},
  {SpvOpFOrdGreaterThan, EX_FOGT_F16, 2}, {SpvOpFUnordGreaterThan, EX_FUGT_F16, 2},
  {SpvOpFOrdLessThanEqual, EX_FOLE_F16, 2}, {SpvOpFUnordLessThanEqual, EX_FULE_F16, 2},
  {SpvOpFOrdGreaterThanEqual, EX_FOGE_F16, 2}, {SpvOpFUnordGreaterThanEqual, EX_FUGE_F16, 2},
  {SpvOpOrdered, EX_ORD_F16, 2}, {SpvOpUnordered, EX_UNORD_F16, 2},
  {SpvOpLessOrGreater, EX_FONE_F16, 2},  /* LessOrGreater is ordered-not-equal */
  {SpvOpIsNan, EX_ISNAN_F16, 1}, {SpvOpIsInf, EX_ISINF_F16, 1}, {SpvOpIsFinite, EX_ISFINITE_F16, 1},
  {SpvOpIsNormal, EX_ISNORMAL_F16, 1}, {SpvOpSignBitSet, EX_SIGNBIT_F16, 1},
  {SpvOpVectorTimesScalar, EX_VTIMESS_F16, 2}, {SpvOpDot, EX_DOT_F16, 2},
};
static const fam logic_fams[] = {
  {SpvOpLogicalAnd, EX_LAND, 2}, {SpvOpLogicalOr, EX_LOR, 2}, {SpvOpLogicalNot, EX_LNOT, 1},
  {SpvOpLogicalEqual, EX_LEQ, 2}, {SpvOpLogicalNotEqual, EX_LNE, 2},
  {SpvOpAny, EX_ANY, 1}, {SpvOpAll, EX_ALL, 1},
};

static const fam *find_fam(const fam *t, size_t n, uint32_t op) {
  for (size_t i = 0; i < n; i++)
    if (t[i].spv == op) return &t[i];
  return NULL;
}
#define FIND_FAM(t, op) find_fam(t, sizeof t / sizeof t[0], op)

/* ---- translation of one instruction ---------------------------------------------------------- */

static bool op_regs(prep *s, const ld_insn *in, unsigned n, uint32_t *r) {
  if (in->nops < n) return fail(s, "too few operands");
  for (unsigned i = 0; i < n; i++)
    if (!operand(s, in->ops[i], &r[i])) return false;
  return true;
}

static uint32_t dst_reg(prep *s, const ld_insn *in) { return s->reg[in->result]; }

/* Byte offset and type reached by walking literal composite indexes from `type_id`. */
static bool walk_literal(prep *s, uint32_t type_id, const uint32_t *idx, unsigned n, uint32_t *off,
                         uint32_t *out_type) {
  uint32_t o = 0;
  for (unsigned i = 0; i < n; i++) {
    const ld_type *t = ty(s, type_id);
    if (!t) return fail(s, "composite index into a non-type");
    if (t->kind == LD_TY_STRUCT) {
      if (idx[i] >= t->count) return fail(s, "member index %u out of range", idx[i]);
      o += t->offsets[idx[i]];
      type_id = t->members[idx[i]];
    } else if (t->kind == LD_TY_ARRAY || t->kind == LD_TY_VECTOR) {
      if (idx[i] >= t->count) return fail(s, "element index %u out of range (%u elements)", idx[i], t->count);
      const ld_type *e = ty(s, t->elem);
      if (!e) return fail(s, "bad element type");
      o += idx[i] * (t->kind == LD_TY_VECTOR ? e->reg_size : e->size);
      type_id = t->elem;
    } else {
      return fail(s, "composite index into a scalar");
    }
  }
  *off = o;
  *out_type = type_id;
  return true;
}

/* An OpExtInst of a debug-information set (OpenCL.DebugInfo.100, NonSemantic.*): no run-time effect. */
static bool is_debug_extinst(const ld_module *m, const ld_insn *in) {
  if (in->opcode != SpvOpExtInst || in->nops < 1 || in->ops[0] >= m->bound) return false;
  const ld_id *x = &m->ids[in->ops[0]];
  return x->kind == LD_ID_EXTINST_SET && (x->index == LD_EXT_DEBUGINFO || x->index == LD_EXT_NONSEMANTIC);
}

/* Phi moves of the edge pred -> succ: returns the aux index of the move list. */
static bool edge_moves(prep *s, uint32_t pred_label, uint32_t succ_block, uint32_t *edge) {
  const ld_function *fn = s->fn;
  if (succ_block >= fn->nblocks) return fail(s, "branch to a block outside the function");
  const ld_block *b = &fn->blocks[succ_block];
  uint32_t nmoves = 0;
  uint32_t head = aux_push(s, 0);
  const ld_insn *save = s->cur;
  for (uint32_t i = 0; i < b->count; i++) {
    const ld_insn *ph = &fn->insns[b->first + i];
    /* llvm-spirv-14 -g puts a DebugScope before a block's phis (the validator warns): look past it */
    if (is_debug_extinst(s->m, ph)) continue;
    if (ph->opcode != SpvOpPhi) break;
    s->cur = ph;
    bool found = false;
    for (uint32_t k = 0; k + 1 < ph->nops; k += 2) {
      if (ph->ops[k + 1] != pred_label) continue;
      uint32_t src;
      if (!operand(s, ph->ops[k], &src)) return false;
      aux_push(s, dst_reg(s, ph));
      aux_push(s, src);
      aux_push(s, type_reg_size(s, ph->type));
      nmoves++;
      found = true;
      break;
    }
    if (!found) return fail(s, "OpPhi has no incoming value for predecessor %%%u", pred_label);
  }
  s->cur = save;
  /* Parallel-copy semantics (SPIR-V 2.2.5, OpPhi): a move whose destination is another move's
   * source must go through scratch; flag the list, the executor then copies in two phases. */
  bool conflict = false;
  uint32_t total = 0;
  for (uint32_t i = 0; i < nmoves; i++) {
    total += (s->aux[head + 1 + 3 * i + 2] + 7u) & ~7u;
    for (uint32_t j = 0; j < nmoves; j++)
      if (i != j && s->aux[head + 1 + 3 * i] == s->aux[head + 1 + 3 * j + 1]) conflict = true;
  }
  if (conflict && total > s->scratch_need) s->scratch_need = total;
  s->aux[head] = nmoves | (conflict ? 0x80000000u : 0);
  *edge = head;
  return true;
}

static uint32_t block_index(prep *s, uint32_t label) {
  if (label < s->m->bound && s->m->ids[label].kind == LD_ID_LABEL) return s->m->ids[label].index;
  return LD_NONE;
}

static bool need_block(prep *s, uint32_t label, uint32_t *bi) {
  *bi = block_index(s, label);
  if (*bi == LD_NONE || *bi >= s->fn->nblocks) return fail(s, "branch target %%%u is not a block of this function", label);
  return true;
}

static bool storage_space(uint32_t sc, uint8_t *space) {
  switch (sc) {
  case SpvStorageClassFunction: case SpvStorageClassPrivate: case SpvStorageClassInput:
    *space = EX_AS_PRIVATE; return true;
  case SpvStorageClassWorkgroup: *space = EX_AS_LOCAL; return true;
  case SpvStorageClassCrossWorkgroup: *space = EX_AS_GLOBAL; return true;
  case SpvStorageClassUniformConstant: *space = EX_AS_CONSTANT; return true;
  default: return false;
  }
}

static uint32_t add_static_alloc(prep *s, uint8_t space, uint64_t size, uint32_t var_id) {
  ex_program *p = s->p;
  p->static_allocs = xrealloc(p->static_allocs, (p->nstatic + 2) * sizeof *p->static_allocs);
  ex_alloc *a = &p->static_allocs[p->nstatic + 1];  /* id 0 is null: index by id */
  memset(a, 0, sizeof *a);
  a->space = space;
  a->size = size;
  a->arg_index = -1;
  a->var_id = var_id;
  if (space == EX_AS_PRIVATE) {
    p->private_size = (p->private_size + 15u) & ~(uint64_t)15u;
    a->offset = p->private_size;
    p->private_size += size;
  } else if (space == EX_AS_LOCAL) {
    p->local_static = (p->local_static + 15u) & ~(uint64_t)15u;
    a->offset = p->local_static;
    p->local_static += size;
  }
  return ++p->nstatic;
}

/* Register `reg` of the constant area holds an offset into static allocation `alloc`; the launch
 * adds the allocation's address (the pointer encoding depends on the launch for Physical32). */
static void addr_patch(prep *s, uint32_t reg, uint32_t alloc) {
  ex_program *p = s->p;
  p->addr_reg = xrealloc(p->addr_reg, (p->naddr + 1) * sizeof *p->addr_reg);
  p->addr_alloc = xrealloc(p->addr_alloc, (p->naddr + 1) * sizeof *p->addr_alloc);
  p->addr_reg[p->naddr] = reg;
  p->addr_alloc[p->naddr] = alloc;
  p->naddr++;
}

/* An address constant: a register holding the pointer to static allocation `alloc`. */
static uint32_t addr_const(prep *s, uint32_t alloc) {
  uint32_t r = const_slot(s, NULL, s->p->ptr_bytes);
  addr_patch(s, r, alloc);
  return r;
}

static bool translate_extinst(prep *s, const ld_insn *in) {
  if (in->nops < 2) return fail(s, "OpExtInst without a set and instruction");
  uint32_t set = in->ops[0], inst = in->ops[1];
  if (set >= s->m->bound || s->m->ids[set].kind != LD_ID_EXTINST_SET) return fail(s, "OpExtInst set %%%u is not an OpExtInstImport", set);
  uint32_t kind = s->m->ids[set].index;
  if (kind == LD_EXT_DEBUGINFO || kind == LD_EXT_NONSEMANTIC) return true;  /* no run-time effect */
  if (kind != LD_EXT_OPENCL_STD) return fail(s, "extended instruction set of %%%u is not supported", set);
  const char *name = spv_oclstd_name(inst);
  if (!name) return fail(s, "OpenCL.std instruction %u does not exist", inst);
  int want = spv_oclstd_operands(inst);
  unsigned nargs = in->nops - 2;
  uint32_t lit = 0;
  /* vloadn / vload_halfn / vloada_halfn end in a literal n; vstore*_r end in a rounding literal. */
  bool has_lit = inst == OCLSTD_vloadn || inst == OCLSTD_vload_halfn || inst == OCLSTD_vloada_halfn ||
                 inst == OCLSTD_vstore_half_r || inst == OCLSTD_vstore_halfn_r || inst == OCLSTD_vstorea_halfn_r;
  if (want >= 0 && (int)nargs != want) return fail(s, "OpenCL.std `%s` takes %d operands, has %u", name, want, nargs);
  if (has_lit) { lit = in->ops[in->nops - 1]; nargs--; }
  if (nargs > BI_MAX_OPERANDS) return fail(s, "OpenCL.std `%s` with %u operands is not supported", name, nargs);
  bi_type rt, at[BI_MAX_OPERANDS];
  memset(&rt, 0, sizeof rt);
  memset(at, 0, sizeof at);
  uint32_t regs[BI_MAX_OPERANDS], sizes[BI_MAX_OPERANDS];
  const ld_type *rty = ty(s, in->type);
  if (!rty) return fail(s, "bad result type");
  if (rty->kind != LD_TY_VOID && !ex_bi_type(s->m, in->type, &rt)) return fail(s, "OpenCL.std `%s`: unsupported result type", name);
  for (unsigned i = 0; i < nargs; i++) {
    uint32_t id = in->ops[2 + i];
    if (!operand(s, id, &regs[i])) return false;
    uint32_t tid = s->m->ids[id].type;
    if (!ex_bi_type(s->m, tid, &at[i])) return fail(s, "OpenCL.std `%s`: unsupported operand type", name);
    sizes[i] = type_reg_size(s, tid);
  }
  bi_resolved r;
  char msg[256];
  if (!bi_resolve(inst, &rt, at, nargs, lit, &r, msg, sizeof msg)) return fail(s, "%s", msg);
  /* fma and mad (spvi's mad is fused) on float and double: the hottest builtin of real kernels
   * (clang contracts a*b+c into it), so it gets typed handlers of its own; bi_resolve above still
   * checked the operand types. */
  if ((inst == OCLSTD_fma || inst == OCLSTD_mad) && rt.kind == BI_FLOAT && (rt.bits == 32 || rt.bits == 64) &&
      nargs == 3) {
    emit(s, (ex_insn){.op = rt.bits == 32 ? EX_FMA_F32 : EX_FMA_F64, .n = rt.ncomp, .d = dst_reg(s, in),
                      .a = regs[0], .b = regs[1], .c = regs[2]});
    return true;
  }
  if (inst == OCLSTD_printf) s->p->uses_printf = true;
  if (s->nbis == s->capbis) {
    s->capbis = s->capbis ? s->capbis * 2 : 16;
    s->bis = xrealloc(s->bis, s->capbis * sizeof *s->bis);
  }
  s->bis[s->nbis] = r;
  uint32_t a = aux_push(s, s->nbis++);
  aux_push(s, rty->kind == LD_TY_VOID ? 0 : rty->reg_size);
  aux_push(s, nargs);
  for (unsigned i = 0; i < nargs; i++) { aux_push(s, regs[i]); aux_push(s, sizes[i]); }
  /* which operands (bit i) and whether the result (bit 31) are float vectors/scalars, for the
   * flush-to-zero mode */
  uint32_t f32mask = rt.kind == BI_FLOAT && rt.bits == 32 ? 0x80000000u : 0;
  for (unsigned i = 0; i < nargs; i++)
    if (i < 31 && at[i].kind == BI_FLOAT && at[i].bits == 32) f32mask |= 1u << i;
  /* data movement is not arithmetic: loads, stores, shuffles and selects keep denormals */
  static const uint16_t moves[] = {OCLSTD_vloadn, OCLSTD_vstoren, OCLSTD_vload_half, OCLSTD_vload_halfn,
                                   OCLSTD_vloada_halfn, OCLSTD_shuffle, OCLSTD_shuffle2, OCLSTD_select,
                                   OCLSTD_bitselect, OCLSTD_printf, OCLSTD_prefetch};
  for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
    if (moves[i] == inst) f32mask = 0;
  aux_push(s, f32mask);
  /* the operand types, for builtins that need them at run time (printf) */
  ex_program *p = s->p;
  p->bi_types = xrealloc(p->bi_types, (p->nbi_types + nargs + 1) * sizeof *p->bi_types);
  aux_push(s, p->nbi_types);
  memcpy(p->bi_types + p->nbi_types, at, nargs * sizeof *at);
  p->nbi_types += nargs;
  emit(s, (ex_insn){.op = EX_EXTINST, .d = rty->kind == LD_TY_VOID ? LD_NONE : dst_reg(s, in), .a = a});
  return true;
}

/* A constant scope or memory-semantics operand (SPIR-V 3.27, 3.25), checked for validity. */
static bool atomic_const(prep *s, uint32_t id, bool semantics) {
  const ld_module *m = s->m;
  if (id >= m->bound || m->ids[id].kind != LD_ID_CONST)
    return fail(s, "the %s operand %%%u of an atomic must be a constant", semantics ? "memory semantics" : "scope", id);
  uint32_t v;
  memcpy(&v, m->consts[m->ids[id].index].bytes, 4);
  if (!semantics) {
    if (v > SpvScopeInvocation) return fail(s, "atomic scope %u is not a scope", v);
    return true;
  }
  /* at most one of Acquire, Release, AcquireRelease, SequentiallyConsistent */
  uint32_t order = v & (SpvMemorySemanticsAcquireMask | SpvMemorySemanticsReleaseMask |
                        SpvMemorySemanticsAcquireReleaseMask | SpvMemorySemanticsSequentiallyConsistentMask);
  if (order & (order - 1)) return fail(s, "atomic memory semantics 0x%x name more than one ordering", v);
  return true;
}

/* OpAtomic* (SPIR-V 3.32.18): executed sequentially consistent, lane by lane in lane order. */
static bool translate_atomic(prep *s, const ld_insn *in) {
  const ld_module *m = s->m;
  static const struct { uint16_t op; uint8_t kind, nvalues; } table[] = {
    {SpvOpAtomicLoad, EX_AT_LOAD, 0}, {SpvOpAtomicStore, EX_AT_STORE, 1},
    {SpvOpAtomicExchange, EX_AT_XCHG, 1}, {SpvOpAtomicCompareExchange, EX_AT_CMPXCHG, 2},
    {SpvOpAtomicCompareExchangeWeak, EX_AT_CMPXCHG, 2}, {SpvOpAtomicIIncrement, EX_AT_INC, 0},
    {SpvOpAtomicIDecrement, EX_AT_DEC, 0}, {SpvOpAtomicIAdd, EX_AT_ADD, 1}, {SpvOpAtomicISub, EX_AT_SUB, 1},
    {SpvOpAtomicSMin, EX_AT_SMIN, 1}, {SpvOpAtomicUMin, EX_AT_UMIN, 1}, {SpvOpAtomicSMax, EX_AT_SMAX, 1},
    {SpvOpAtomicUMax, EX_AT_UMAX, 1}, {SpvOpAtomicAnd, EX_AT_AND, 1}, {SpvOpAtomicOr, EX_AT_OR, 1},
    {SpvOpAtomicXor, EX_AT_XOR, 1}, {SpvOpAtomicFlagTestAndSet, EX_AT_FLAG_SET, 0},
    {SpvOpAtomicFlagClear, EX_AT_FLAG_CLEAR, 0}, {SpvOpAtomicFAddEXT, EX_AT_FADD, 1},
    {SpvOpAtomicFMinEXT, EX_AT_FMIN, 1}, {SpvOpAtomicFMaxEXT, EX_AT_FMAX, 1},
  };
  unsigned k = 0;
  while (table[k].op != in->opcode) k++;
  const uint8_t kind = table[k].kind;
  /* operands: pointer, scope, semantics [, unequal semantics for compare-exchange], values */
  const unsigned nsem = kind == EX_AT_CMPXCHG ? 2 : 1;
  const unsigned want = 2 + nsem + table[k].nvalues;
  if (in->nops != want) return fail(s, "atomic with %u operands, expects %u", in->nops, want);
  if (!atomic_const(s, in->ops[1], false)) return false;
  for (unsigned i = 0; i < nsem; i++)
    if (!atomic_const(s, in->ops[2 + i], true)) return false;
  uint32_t ptr, v1 = LD_NONE, v2 = LD_NONE;
  if (!operand(s, in->ops[0], &ptr)) return false;
  if (table[k].nvalues >= 1 && !operand(s, in->ops[2 + nsem], &v1)) return false;
  if (table[k].nvalues >= 2 && !operand(s, in->ops[3 + nsem], &v2)) return false;
  const ld_type *pt = ty(s, m->ids[in->ops[0]].type);
  const ld_type *vt = pt && pt->kind == LD_TY_POINTER ? ty(s, pt->elem) : NULL;
  if (!vt || (vt->kind != LD_TY_INT && vt->kind != LD_TY_FLOAT) || (vt->size != 4 && vt->size != 8))
    return fail(s, "atomics work on 32- and 64-bit integers and floats");
  bool is_float = vt->kind == LD_TY_FLOAT;
  if (is_float && kind != EX_AT_LOAD && kind != EX_AT_STORE && kind != EX_AT_XCHG && kind != EX_AT_FADD &&
      kind != EX_AT_FMIN && kind != EX_AT_FMAX)
    return fail(s, "integer atomic on a float");
  if (!is_float && (kind == EX_AT_FADD || kind == EX_AT_FMIN || kind == EX_AT_FMAX))
    return fail(s, "float atomic on an integer");
  const ld_type *rt = in->type ? ty(s, in->type) : NULL;
  uint32_t d = rt && rt->kind != LD_TY_VOID ? dst_reg(s, in) : LD_NONE;
  emit(s, (ex_insn){.op = EX_ATOMIC, .n = (uint8_t)(is_float ? 1 : 0), .flags = kind, .d = d, .a = ptr, .b = v1,
                    .c = (v2 == LD_NONE ? 0 : v2) | 0u});
  s->code[s->ncode - 1].n |= (uint8_t)(vt->size << 1);  /* bit 0: float; bits 1..4: size */
  return true;
}

/* The value of a constant scope operand (execution or memory scope), or false with a message. */
static bool const_scope(prep *s, uint32_t id, const char *what, uint32_t *out) {
  const ld_module *m = s->m;
  if (id >= m->bound || m->ids[id].kind != LD_ID_CONST) return fail(s, "%s must be a constant", what);
  memcpy(out, m->consts[m->ids[id].index].bytes, 4);
  return true;
}

/* ---- sub-group operations ----------------------------------------------------------------------
 * SPIR-V 3.32.21 Group instructions at Subgroup scope (cl_khr_subgroups), 3.32.24 Non-Uniform
 * instructions (cl_khr_subgroup_{non_uniform_vote,ballot,non_uniform_arithmetic,shuffle,
 * shuffle_relative,clustered_reduce}; the env spec's "Extensions" lists the valid types), and
 * SPV_INTEL_subgroups' shuffles. They run inside a warp (warps hold whole sub-groups, see
 * ex_subgroup.c); here the operands are checked and encoded (ex_internal.h, EX_SUBGROUP). */

/* An integer scalar operand (an id, delta, mask or index): its register and bytes. */
static bool sg_int_operand(prep *s, uint32_t id, const char *what, uint32_t *reg, uint32_t *bytes) {
  elem e;
  if (!operand(s, id, reg)) return false;
  if (!elem_of(s, s->m->ids[id].type, &e)) return false;
  if (e.kind != 'i' || e.n != 1) return fail(s, "%s must be an integer scalar", what);
  *bytes = e.bits / 8;
  return true;
}

/* Is type_id a vector of four 32-bit integers (a ballot, env spec cl_khr_subgroup_ballot)? */
static bool is_uint4(prep *s, uint32_t type_id) {
  elem e;
  const ld_type *t = ty(s, type_id);
  return t && t->kind == LD_TY_VECTOR && elem_of(s, type_id, &e) && e.kind == 'i' && e.bits == 32 && e.n == 4;
}

/* Emit one EX_SUBGROUP. val: the value operand id (0: none); op2/op3: further operand ids (0: none);
 * lit: a literal in aux[1] when op3 is absent (the cluster size). */
static bool sg_emit(prep *s, const ld_insn *in, unsigned kind, unsigned n, uint32_t val, uint32_t op2, uint32_t op3,
                    uint32_t lit) {
  const ld_module *m = s->m;
  uint32_t a = LD_NONE, r2 = LD_NONE, r3 = lit, b2 = 0, c = 0;
  if (val) {
    elem e;
    if (!operand(s, val, &a) || !elem_of(s, m->ids[val].type, &e)) return false;
    const ld_type *vt = ty(s, m->ids[val].type);
    uint32_t k = e.kind == 'f' ? EX_GK_FLOAT : e.kind == 'b' ? EX_GK_BOOL : EX_GK_INT;
    c = (vt->reg_size << 16) | (k << 8) | (e.bits / 8);
  }
  if (op2 && !sg_int_operand(s, op2, "the id, delta, mask or index operand", &r2, &b2)) return false;
  if (op3 && !operand(s, op3, &r3)) return false;
  uint32_t x = aux_push(s, r2);
  aux_push(s, r3);
  aux_push(s, b2);
  const ld_type *rt = in->type ? ty(s, in->type) : NULL;
  uint32_t d = rt && rt->kind != LD_TY_VOID ? dst_reg(s, in) : LD_NONE;
  emit(s, (ex_insn){.op = EX_SUBGROUP, .flags = (uint8_t)kind, .n = (uint8_t)n, .d = d, .a = a, .b = x, .c = c});
  s->p->uses_subgroups = true;
  if (kind == EX_SG_BARRIER) s->p->uses_subgroup_sync = true;
  return true;
}

/* The value of operand `id` must be a scalar of the given kinds ("i", "f", "b" or combinations). */
static bool sg_scalar(prep *s, uint32_t id, const char *kinds, const char *what) {
  elem e;
  if (!elem_of(s, s->m->ids[id].type, &e)) return false;
  if (e.n != 1 || !strchr(kinds, e.kind))
    return fail(s, "%s must be a %s scalar", what,
                !strcmp(kinds, "b") ? "boolean" : !strcmp(kinds, "i") ? "integer" : !strcmp(kinds, "f") ? "floating-point"
                                                                                              : "integer or floating-point");
  return true;
}

/* OpGroupNonUniform* arithmetic and the Subgroup-scope OpGroup{I,F}Add/{S,U,F}{Min,Max}:
 * Operation (Reduce, InclusiveScan, ExclusiveScan, ClusteredReduce with a constant power-of-two
 * ClusterSize, SPIR-V 3.32.24). */
static bool sg_arith(prep *s, const ld_insn *in, unsigned gr, bool uniform, unsigned vi) {
  const ld_module *m = s->m;
  uint32_t gop = in->ops[vi - 1], lit = 0;
  static const char *const kinds[] = {
    [EX_GR_IADD] = "i", [EX_GR_IMUL] = "i", [EX_GR_SMIN] = "i", [EX_GR_UMIN] = "i", [EX_GR_SMAX] = "i",
    [EX_GR_UMAX] = "i", [EX_GR_AND] = "i", [EX_GR_OR] = "i", [EX_GR_XOR] = "i", [EX_GR_FADD] = "f",
    [EX_GR_FMUL] = "f", [EX_GR_FMIN] = "f", [EX_GR_FMAX] = "f", [EX_GR_LAND] = "b", [EX_GR_LOR] = "b",
    [EX_GR_LXOR] = "b",
  };
  if (in->nops <= vi) return fail(s, "group instruction without a value");
  if (!sg_scalar(s, in->ops[vi], kinds[gr], "the value")) return false;
  if (gop == SpvGroupOperationClusteredReduce && !uniform) {
    if (in->nops <= vi + 1) return fail(s, "ClusteredReduce without a ClusterSize");
    uint32_t cid = in->ops[vi + 1];
    uint64_t cs = 0;
    if (cid >= m->bound || m->ids[cid].kind != LD_ID_CONST) return fail(s, "ClusterSize must be a constant (SPIR-V 3.32.24)");
    const ld_type *ct = ty(s, m->consts[m->ids[cid].index].type);
    if (!ct || ct->kind != LD_TY_INT) return fail(s, "ClusterSize must be an integer constant");
    memcpy(&cs, m->consts[m->ids[cid].index].bytes, ct->reg_size < 8 ? ct->reg_size : 8);
    if (cs == 0 || (cs & (cs - 1)) || cs > 0xFFFFFFFFu)
      return fail(s, "ClusterSize %llu is not a power of two (SPIR-V 3.32.24)", (unsigned long long)cs);
    lit = (uint32_t)cs;
    gop = 3;
  } else if (gop > SpvGroupOperationExclusiveScan) {
    return fail(s, "group operation %u is not supported", gop);
  } else if (in->nops > vi + 1) {
    return fail(s, "a ClusterSize operand needs the ClusteredReduce operation");
  }
  return sg_emit(s, in, EX_SG_ARITH, gop | (uniform ? EX_SG_UNIFORM : 0) | (gr << 3), in->ops[vi], 0, 0, lit);
}

static bool translate_nonuniform(prep *s, const ld_insn *in) {
  const uint32_t op = in->opcode;
  static const struct { uint16_t op; uint8_t gr; } arith[] = {
    {SpvOpGroupNonUniformIAdd, EX_GR_IADD}, {SpvOpGroupNonUniformFAdd, EX_GR_FADD},
    {SpvOpGroupNonUniformIMul, EX_GR_IMUL}, {SpvOpGroupNonUniformFMul, EX_GR_FMUL},
    {SpvOpGroupNonUniformSMin, EX_GR_SMIN}, {SpvOpGroupNonUniformUMin, EX_GR_UMIN},
    {SpvOpGroupNonUniformFMin, EX_GR_FMIN}, {SpvOpGroupNonUniformSMax, EX_GR_SMAX},
    {SpvOpGroupNonUniformUMax, EX_GR_UMAX}, {SpvOpGroupNonUniformFMax, EX_GR_FMAX},
    {SpvOpGroupNonUniformBitwiseAnd, EX_GR_AND}, {SpvOpGroupNonUniformBitwiseOr, EX_GR_OR},
    {SpvOpGroupNonUniformBitwiseXor, EX_GR_XOR}, {SpvOpGroupNonUniformLogicalAnd, EX_GR_LAND},
    {SpvOpGroupNonUniformLogicalOr, EX_GR_LOR}, {SpvOpGroupNonUniformLogicalXor, EX_GR_LXOR},
  };
  /* SPV_INTEL_subgroups shuffles have no scope operand */
  switch (op) {
  case SpvOpSubgroupShuffleINTEL:
    if (in->nops < 2) return fail(s, "missing operands");
    return sg_emit(s, in, EX_SG_SHUFFLE, 0, in->ops[0], in->ops[1], 0, 0);
  case SpvOpSubgroupShuffleXorINTEL:
    if (in->nops < 2) return fail(s, "missing operands");
    return sg_emit(s, in, EX_SG_SHUFFLE_XOR, 0, in->ops[0], in->ops[1], 0, 0);
  case SpvOpSubgroupShuffleDownINTEL: case SpvOpSubgroupShuffleUpINTEL: {
    if (in->nops < 3) return fail(s, "missing operands");
    const ld_type *t0 = ty(s, s->m->ids[in->ops[0]].type), *t1 = ty(s, s->m->ids[in->ops[1]].type);
    if (!t0 || t0 != t1) return fail(s, "the two data operands have different types");
    /* Down: (current, next, delta) -> a = current, aux = [delta, next]; Up: (previous, current,
     * delta) -> a = current, aux = [delta, previous] */
    bool down = op == SpvOpSubgroupShuffleDownINTEL;
    return sg_emit(s, in, down ? EX_SG_INTEL_DOWN : EX_SG_INTEL_UP, 0, in->ops[down ? 0 : 1], in->ops[2],
                   in->ops[down ? 1 : 0], 0);
  }
  default: break;
  }
  if (in->nops < 1) return fail(s, "missing operands");
  uint32_t scope;
  if (!const_scope(s, in->ops[0], "the execution scope", &scope)) return false;
  /* env spec: for the cl_khr_subgroup_* capabilities "Scope for Execution may be Subgroup" */
  if (scope != SpvScopeSubgroup) return fail(s, "execution scope %u is not supported (OpenCL allows Subgroup, 3)", scope);
  for (size_t i = 0; i < sizeof arith / sizeof arith[0]; i++)
    if (arith[i].op == op) {
      if (in->nops < 3) return fail(s, "missing operands");
      return sg_arith(s, in, arith[i].gr, false, 2);
    }
  const uint32_t *o = in->ops;
  const unsigned n = in->nops;
  switch (op) {
  case SpvOpGroupNonUniformElect: return sg_emit(s, in, EX_SG_ELECT, 0, 0, 0, 0, 0);
  case SpvOpGroupNonUniformAll: case SpvOpGroupNonUniformAny:
    if (n < 2 || !sg_scalar(s, o[1], "b", "the predicate")) return n < 2 ? fail(s, "missing predicate") : false;
    return sg_emit(s, in, op == SpvOpGroupNonUniformAll ? EX_SG_ALL : EX_SG_ANY, 0, o[1], 0, 0, 0);
  case SpvOpGroupNonUniformAllEqual:
    if (n < 2 || !sg_scalar(s, o[1], "ifb", "the value")) return n < 2 ? fail(s, "missing value") : false;
    return sg_emit(s, in, EX_SG_ALL_EQUAL, 0, o[1], 0, 0, 0);
  case SpvOpGroupNonUniformBroadcast: case SpvOpGroupNonUniformShuffle: case SpvOpGroupNonUniformShuffleXor:
  case SpvOpGroupNonUniformShuffleUp: case SpvOpGroupNonUniformShuffleDown: {
    if (n < 3) return fail(s, "missing operands");
    unsigned k = op == SpvOpGroupNonUniformBroadcast ? EX_SG_BROADCAST : op == SpvOpGroupNonUniformShuffle ? EX_SG_SHUFFLE
               : op == SpvOpGroupNonUniformShuffleXor ? EX_SG_SHUFFLE_XOR : op == SpvOpGroupNonUniformShuffleUp ? EX_SG_SHUFFLE_UP
               : EX_SG_SHUFFLE_DOWN;
    elem e;
    if (!elem_of(s, s->m->ids[o[1]].type, &e)) return false;
    return sg_emit(s, in, k, 0, o[1], o[2], 0, 0);
  }
  case SpvOpGroupNonUniformBroadcastFirst:
    if (n < 2 || !sg_scalar(s, o[1], "ifb", "the value")) return n < 2 ? fail(s, "missing value") : false;
    return sg_emit(s, in, EX_SG_BROADCAST_FIRST, 0, o[1], 0, 0, 0);
  case SpvOpGroupNonUniformBallot:
    if (n < 2 || !sg_scalar(s, o[1], "b", "the predicate")) return n < 2 ? fail(s, "missing predicate") : false;
    if (!is_uint4(s, in->type)) return fail(s, "the result type must be a vector of four 32-bit integers (uint4)");
    return sg_emit(s, in, EX_SG_BALLOT, 0, o[1], 0, 0, 0);
  case SpvOpGroupNonUniformInverseBallot: case SpvOpGroupNonUniformBallotBitExtract:
  case SpvOpGroupNonUniformBallotFindLSB: case SpvOpGroupNonUniformBallotFindMSB:
  case SpvOpGroupNonUniformBallotBitCount: {
    unsigned vi = op == SpvOpGroupNonUniformBallotBitCount ? 2 : 1;
    if (n <= vi) return fail(s, "missing operands");
    if (!is_uint4(s, s->m->ids[o[vi]].type)) return fail(s, "the value must be a vector of four 32-bit integers (uint4)");
    if (op == SpvOpGroupNonUniformBallotBitCount) {
      if (o[1] > SpvGroupOperationExclusiveScan) return fail(s, "group operation %u is not supported", o[1]);
      return sg_emit(s, in, EX_SG_BIT_COUNT, o[1], o[2], 0, 0, 0);
    }
    if (op == SpvOpGroupNonUniformBallotBitExtract) {
      if (n < 3) return fail(s, "missing index");
      return sg_emit(s, in, EX_SG_BIT_EXTRACT, 0, o[1], o[2], 0, 0);
    }
    return sg_emit(s, in, op == SpvOpGroupNonUniformInverseBallot ? EX_SG_INVERSE_BALLOT
                          : op == SpvOpGroupNonUniformBallotFindLSB ? EX_SG_FIND_LSB : EX_SG_FIND_MSB, 0, o[1], 0, 0, 0);
  }
  default: {
    const char *name = spv_op_name(op);
    return fail(s, "%s is not supported (spvi implements the cl_khr_subgroup_* extensions listed by `spvi info`)",
                name ? name : "this instruction");
  }
  }
}

/* OpNamedBarrierInitialize / OpMemoryNamedBarrier (cl_khr_subgroup_named_barrier; SPIR-V 3.32.20):
 * each OpNamedBarrierInitialize names one barrier per work-group (its handle is index + 1). */
static bool translate_named_barrier(prep *s, const ld_insn *in) {
  uint32_t r, bytes;
  s->p->uses_subgroups = s->p->uses_subgroup_sync = true;
  if (in->opcode == SpvOpNamedBarrierInitialize) {
    if (in->nops < 1 || !sg_int_operand(s, in->ops[0], "the Subgroup Count", &r, &bytes)) return in->nops < 1 ? fail(s, "missing Subgroup Count") : false;
    const ld_type *rt = ty(s, in->type);
    if (!rt || rt->kind != LD_TY_OPAQUE || strcmp(rt->opaque, "OpTypeNamedBarrier") != 0 || rt->reg_size < 4)
      return fail(s, "the result type must be OpTypeNamedBarrier");
    emit(s, (ex_insn){.op = EX_NBAR_INIT, .d = dst_reg(s, in), .a = r, .b = s->p->nnamed_barriers++, .c = bytes});
    return true;
  }
  if (in->nops < 3) return fail(s, "missing operands");
  const ld_type *bt = ty(s, s->m->ids[in->ops[0]].type);
  if (!bt || bt->kind != LD_TY_OPAQUE || strcmp(bt->opaque, "OpTypeNamedBarrier") != 0) return fail(s, "the Named Barrier operand is not an OpTypeNamedBarrier");
  uint32_t scope;
  if (!operand(s, in->ops[0], &r) || !const_scope(s, in->ops[1], "the memory scope", &scope)) return false;
  emit(s, (ex_insn){.op = EX_NBAR_WAIT, .a = r});
  return true;
}

/* Work-group collectives (SPIR-V 3.32.21 Group instructions; OpenCL C 6.15.16 work_group_*):
 * every work-item of the group must reach the same instruction, like a barrier; the scheduler then
 * computes the result for all of them in local linear id order. At Subgroup scope (cl_khr_subgroups,
 * OpenCL C 6.15.17 sub_group_*) they become sub-group operations that every work-item of the
 * sub-group must reach. */
static bool translate_group(prep *s, const ld_insn *in) {
  const ld_module *m = s->m;
  static const struct { uint16_t op; uint8_t kind; bool has_groupop; } table[] = {
    {SpvOpGroupAll, EX_GR_ALL, false}, {SpvOpGroupAny, EX_GR_ANY, false},
    {SpvOpGroupBroadcast, EX_GR_BROADCAST, false}, {SpvOpGroupIAdd, EX_GR_IADD, true},
    {SpvOpGroupFAdd, EX_GR_FADD, true}, {SpvOpGroupSMin, EX_GR_SMIN, true}, {SpvOpGroupUMin, EX_GR_UMIN, true},
    {SpvOpGroupFMin, EX_GR_FMIN, true}, {SpvOpGroupSMax, EX_GR_SMAX, true}, {SpvOpGroupUMax, EX_GR_UMAX, true},
    {SpvOpGroupFMax, EX_GR_FMAX, true},
  };
  unsigned k = 0;
  while (table[k].op != in->opcode) k++;
  if (in->nops < 2) return fail(s, "group instruction without operands");
  uint32_t scope = LD_NONE;
  if (in->ops[0] < m->bound && m->ids[in->ops[0]].kind == LD_ID_CONST) memcpy(&scope, m->consts[m->ids[in->ops[0]].index].bytes, 4);
  if (scope == SpvScopeSubgroup) {
    const unsigned kind = table[k].kind;
    if (kind == EX_GR_ALL || kind == EX_GR_ANY) {
      if (!sg_scalar(s, in->ops[1], "b", "the predicate")) return false;
      return sg_emit(s, in, kind == EX_GR_ALL ? EX_SG_ALL : EX_SG_ANY, EX_SG_UNIFORM, in->ops[1], 0, 0, 0);
    }
    if (kind == EX_GR_BROADCAST) {
      /* cl_khr_subgroup_extended_types: scalars and vectors of any integer or float type */
      if (in->nops < 3) return fail(s, "OpGroupBroadcast without a local id");
      return sg_emit(s, in, EX_SG_BROADCAST, EX_SG_UNIFORM, in->ops[1], in->ops[2], 0, 0);
    }
    if (in->nops < 3) return fail(s, "group instruction without a value");
    if (kind == EX_GR_FADD || kind == EX_GR_FMIN || kind == EX_GR_FMAX) {
      if (!sg_scalar(s, in->ops[2], "f", "the value")) return false;
    } else if (!sg_scalar(s, in->ops[2], "i", "the value")) {
      return false;
    }
    return sg_arith(s, in, kind, true, 2);
  }
  if (scope != SpvScopeWorkgroup) return fail(s, "group instruction with execution scope %u is not supported", scope);
  uint32_t gop = 0, vi = 1;
  if (table[k].has_groupop) {
    if (in->nops < 3) return fail(s, "group instruction without a value");
    gop = in->ops[1];
    if (gop > SpvGroupOperationExclusiveScan) return fail(s, "group operation %u is not supported", gop);
    vi = 2;
  }
  uint32_t val, lid = 0;
  if (!operand(s, in->ops[vi], &val)) return false;
  elem e;
  if (!elem_of(s, m->ids[in->ops[vi]].type, &e)) return false;
  if (e.n != 1) return fail(s, "group instructions on vectors are not supported");
  uint32_t lid_bytes = 0, lid_n = 0;
  if (table[k].kind == EX_GR_BROADCAST) {
    if (in->nops < 3 || !operand(s, in->ops[2], &lid)) return fail(s, "OpGroupBroadcast without a local id");
    elem le;
    if (!elem_of(s, m->ids[in->ops[2]].type, &le) || le.kind != 'i') return fail(s, "OpGroupBroadcast local id is not an integer");
    lid_bytes = le.bits / 8;
    lid_n = le.n;
  }
  uint32_t kind = e.kind == 'f' ? EX_GK_FLOAT : e.kind == 'b' ? EX_GK_BOOL : EX_GK_INT;
  uint32_t a = aux_push(s, lid);
  aux_push(s, lid_bytes | (lid_n << 8));
  emit(s, (ex_insn){.op = EX_GROUP, .n = (uint8_t)gop, .flags = table[k].kind, .d = dst_reg(s, in), .a = val, .b = a,
                    .c = (kind << 8) | (e.bits / 8)});
  return true;
}

/* The constant execution scope operand of a group instruction, LD_NONE when it is not a constant. */
static uint32_t scope_of(prep *s, uint32_t id) {
  uint32_t scope = LD_NONE;
  if (id < s->m->bound && s->m->ids[id].kind == LD_ID_CONST) memcpy(&scope, s->m->consts[s->m->ids[id].index].bytes, 4);
  return scope;
}

/* Byte width of an integer operand (size_t: 4 or 8; num_events: 4). */
static bool int_operand(prep *s, uint32_t id, const char *what, uint32_t *reg, uint32_t *bytes) {
  elem e;
  if (!operand(s, id, reg) || !elem_of(s, s->m->ids[id].type, &e)) return false;
  if (e.kind != 'i' || e.n != 1) return fail(s, "%s is not an integer scalar", what);
  *bytes = e.bits / 8;
  return true;
}

/* OpGroupAsyncCopy (SPIR-V 3.32.21; OpenCL C 6.15.11 async_work_group_[strided_]copy) and
 * OpGroupWaitEvents (wait_group_events): work-group collectives like the others (every work-item
 * must reach them, with the same arguments); ex_async.c performs them once the group is there. The
 * SPIR-V environment (validation rules) allows only the Workgroup execution scope for both. Copies
 * go between local memory and global memory: the stride operand applies to the global side
 * (Source when Destination is Workgroup, else Destination). */
static bool translate_async(prep *s, const ld_insn *in) {
  const ld_module *m = s->m;
  const bool copy = in->opcode == SpvOpGroupAsyncCopy;
  const char *name = copy ? "OpGroupAsyncCopy" : "OpGroupWaitEvents";
  if (in->nops < (copy ? 6u : 3u)) return fail(s, "%s with too few operands", name);
  uint32_t scope = scope_of(s, in->ops[0]);
  if (scope != SpvScopeWorkgroup)
    return fail(s, "%s with execution scope %s%u is not supported (the OpenCL environment allows only Workgroup)", name,
                scope == LD_NONE ? "operand %" : "", scope == LD_NONE ? in->ops[0] : scope);
  if (!copy) {
    uint32_t num, nbytes, list;
    if (!int_operand(s, in->ops[1], "OpGroupWaitEvents Num Events", &num, &nbytes) || !operand(s, in->ops[2], &list))
      return false;
    const ld_type *pt = ty(s, m->ids[in->ops[2]].type);
    const ld_type *et = pt && pt->kind == LD_TY_POINTER ? ty(s, pt->elem) : NULL;
    if (!et || et->kind != LD_TY_OPAQUE || !et->opaque || strcmp(et->opaque, "OpTypeEvent") != 0)
      return fail(s, "OpGroupWaitEvents Events List is not a pointer to OpTypeEvent");
    emit(s, (ex_insn){.op = EX_WAIT_EVENTS, .n = (uint8_t)nbytes, .a = num, .b = list, .c = et->size});
    return true;
  }
  const ld_type *dt = ty(s, m->ids[in->ops[1]].type), *st = ty(s, m->ids[in->ops[2]].type);
  if (!dt || dt->kind != LD_TY_POINTER || !st || st->kind != LD_TY_POINTER)
    return fail(s, "OpGroupAsyncCopy Destination and Source must be pointers");
  const ld_type *et = ty(s, dt->elem);
  if (!et || et->size == 0 || et->kind == LD_TY_OPAQUE) return fail(s, "OpGroupAsyncCopy copies elements of a type without a size");
  if (dt->elem != st->elem) {
    const ld_type *se = ty(s, st->elem);
    if (!se || se->size != et->size) return fail(s, "OpGroupAsyncCopy Destination and Source point to different types");
  }
  const bool src_global = st->storage == SpvStorageClassCrossWorkgroup || st->storage == SpvStorageClassUniformConstant;
  bool to_local = dt->storage == SpvStorageClassWorkgroup && src_global;
  bool to_global = dt->storage == SpvStorageClassCrossWorkgroup && st->storage == SpvStorageClassWorkgroup;
  if (!to_local && !to_global)
    return fail(s, "OpGroupAsyncCopy between storage classes %u and %u: only Workgroup <-> CrossWorkgroup copies are supported",
                st->storage, dt->storage);
  uint32_t dst, src, num, nbytes, stride, sbytes, event;
  if (!operand(s, in->ops[1], &dst) || !operand(s, in->ops[2], &src) ||
      !int_operand(s, in->ops[3], "OpGroupAsyncCopy Num Elements", &num, &nbytes) ||
      !int_operand(s, in->ops[4], "OpGroupAsyncCopy Stride", &stride, &sbytes) || !operand(s, in->ops[5], &event))
    return false;
  const ld_type *evt = ty(s, m->ids[in->ops[5]].type);
  if (!evt || evt->kind != LD_TY_OPAQUE || !evt->opaque || strcmp(evt->opaque, "OpTypeEvent") != 0)
    return fail(s, "OpGroupAsyncCopy Event is not an OpTypeEvent value");
  uint32_t x = aux_push(s, src);
  aux_push(s, num);
  aux_push(s, stride);
  aux_push(s, event);
  aux_push(s, nbytes | sbytes << 8);
  /* bytes of an element that hold data: a 3-component vector's fourth slot is padding (the
   * uninitialised-memory check ignores it) */
  const ld_type *ct = et->kind == LD_TY_VECTOR && et->count == 3 ? ty(s, et->elem) : NULL;
  aux_push(s, ct ? 3 * ct->size : et->size);
  emit(s, (ex_insn){.op = EX_ASYNC_COPY, .flags = to_global ? EX_ASYNC_STRIDE_DST : 0, .d = dst_reg(s, in), .a = dst,
                    .b = x, .c = et->size});
  return true;
}

/* ---- images (SPIR-V 3.32.10; OpenCL SPIR-V environment "Image Addressing and Filtering") ------ */

/* The OpTypeImage of an image operand, or of a sampled image's image. */
static const ld_type *image_type_of(prep *s, uint32_t id, bool sampled) {
  const ld_type *t = ty(s, s->m->ids[id].type);
  if (sampled) {
    if (!t || t->kind != LD_TY_OPAQUE || strcmp(t->opaque, "OpTypeSampledImage") != 0) return NULL;
    t = ty(s, t->elem);
  }
  return t && t->kind == LD_TY_OPAQUE && strcmp(t->opaque, "OpTypeImage") == 0 ? t : NULL;
}

/* Coordinate components an image type needs: its dimensions plus the array layer. */
static unsigned image_coords(const ld_type *it) {
  unsigned n = it->img_dim == SpvDim2D ? 2 : it->img_dim == SpvDim3D ? 3 : 1;
  return n + (it->img_arrayed ? 1 : 0);
}

/* aux word 0: a coordinate operand of 32-bit integer or float components, at least `need` of them */
static bool image_coord(prep *s, uint32_t id, unsigned need, bool int_only, uint32_t *reg, uint32_t *desc) {
  elem e;
  if (!operand(s, id, reg) || !elem_of(s, s->m->ids[id].type, &e)) return false;
  if (e.bits != 32 || (e.kind != 'i' && (e.kind != 'f' || int_only)))
    return fail(s, "image coordinates must be 32-bit %s (env spec, \"Coordinate Format for Reading and Writing Images\")",
                int_only ? "integers" : "integers or floats");
  if (e.n < need) return fail(s, "image coordinate has %u components, the image needs %u", e.n, need);
  *desc = (e.kind == 'i' ? 1u : 0u) | (e.n << 8);
  return true;
}

/* A 4-component vector of float, half or 32-bit integers: the result of a read, a written texel. */
static bool image_texel_kind(prep *s, uint32_t type_id, const char *what, uint32_t *kind) {
  elem e;
  if (!elem_of(s, type_id, &e)) return false;
  if (e.n == 4 && e.kind == 'f' && e.bits == 32) *kind = BI_IMG_R_F32;
  else if (e.n == 4 && e.kind == 'f' && e.bits == 16) *kind = BI_IMG_R_F16;
  else if (e.n == 4 && e.kind == 'i' && e.bits == 32) *kind = BI_IMG_R_I32;
  else return fail(s, "%s must be a 4-component vector of float, half or 32-bit integers", what);
  return true;
}

/* Image Operands after `at` (SPIR-V 3.14): SignExtend/ZeroExtend are kept (aux word 2), Lod gives
 * its operand when `lod` is not NULL; anything else (gradients, offsets, samples) is unsupported. */
static bool image_operands(prep *s, const ld_insn *in, unsigned at, uint32_t *extend, uint32_t *lod) {
  *extend = 0;
  if (lod) *lod = LD_NONE;
  if (in->nops <= at) {
    if (lod) return fail(s, "OpImageSampleExplicitLod without a Lod operand");
    return true;
  }
  uint32_t mask = in->ops[at];
  uint32_t allowed = SpvImageOperandsSignExtendMask | SpvImageOperandsZeroExtendMask | (lod ? SpvImageOperandsLodMask : 0);
  if (mask & ~allowed) return fail(s, "image operands 0x%x are not supported (only Lod 0, SignExtend and ZeroExtend)", mask);
  if (lod) {
    if (!(mask & SpvImageOperandsLodMask) || in->nops <= at + 1) return fail(s, "OpImageSampleExplicitLod without a Lod operand");
    *lod = in->ops[at + 1];
  }
  if ((mask & SpvImageOperandsSignExtendMask) && (mask & SpvImageOperandsZeroExtendMask))
    return fail(s, "image operands SignExtend and ZeroExtend together");
  if (mask & SpvImageOperandsSignExtendMask) *extend = 1;
  if (mask & SpvImageOperandsZeroExtendMask) *extend = 2;
  return true;
}

/* A Lod operand (aux words 3, 4): checked to be 0 at run time. */
static bool image_lod(prep *s, uint32_t id, uint32_t *reg, uint32_t *kind) {
  *reg = LD_NONE;
  *kind = 0;
  if (id == LD_NONE) return true;
  elem e;
  if (!operand(s, id, reg) || !elem_of(s, s->m->ids[id].type, &e)) return false;
  if (e.n != 1 || (e.kind == 'f' && e.bits != 32) || (e.kind == 'i' && e.bits != 32 && e.bits != 64) ||
      (e.kind != 'f' && e.kind != 'i'))
    return fail(s, "the Lod operand must be a 32-bit float or a 32/64-bit integer");
  *kind = e.kind == 'f' ? 1 : e.bits == 32 ? 2 : 3;
  return true;
}

static bool translate_image(prep *s, const ld_insn *in) {
  const ld_module *m = s->m;
  const uint32_t op = in->opcode;
  uint32_t r[2];
  if (op == SpvOpSampledImage) {
    /* 16 bytes: the image handle, then the sampler */
    if (!op_regs(s, in, 2, r)) return false;
    if (!image_type_of(s, in->ops[0], false)) return fail(s, "OpSampledImage of a value that is not an image");
    const ld_type *st = ty(s, m->ids[in->ops[1]].type);
    if (!st || st->kind != LD_TY_OPAQUE || strcmp(st->opaque, "OpTypeSampler") != 0)
      return fail(s, "OpSampledImage with a value that is not a sampler");
    uint32_t a = aux_push(s, 2);
    aux_push(s, r[0]); aux_push(s, 8); aux_push(s, 0);
    aux_push(s, r[1]); aux_push(s, 8); aux_push(s, 8);
    emit(s, (ex_insn){.op = EX_CONSTRUCT, .d = dst_reg(s, in), .a = a, .c = 16});
    return true;
  }
  if (op == SpvOpImage) {
    if (!op_regs(s, in, 1, r)) return false;
    if (!image_type_of(s, in->ops[0], true)) return fail(s, "OpImage of a value that is not a sampled image");
    uint32_t a = aux_push(s, 0);
    aux_push(s, 16);
    emit(s, (ex_insn){.op = EX_EXTRACT, .d = dst_reg(s, in), .a = r[0], .b = a, .c = 8});
    return true;
  }
  if (op == SpvOpImageQuerySamples)
    return fail(s, "OpImageQuerySamples: multi-sampled images are not supported");
  const bool sampled = op == SpvOpImageSampleExplicitLod;
  if (in->nops < 1) return fail(s, "image instruction without an image");
  const ld_type *it = image_type_of(s, in->ops[0], sampled);
  if (!it) return fail(s, "the first operand is not %s", sampled ? "a sampled image" : "an image");
  uint32_t img;
  if (!operand(s, in->ops[0], &img)) return false;
  uint32_t cdesc = 0, creg = 0, extend = 0, lod = LD_NONE, lreg = LD_NONE, lkind = 0;
  const unsigned need = image_coords(it);
  switch (op) {
  case SpvOpImageRead: case SpvOpImageSampleExplicitLod: {
    if (it->img_access == SpvAccessQualifierWriteOnly)
      return fail(s, "%s of a write_only image (OpenCL C 6.15.15: write_only images cannot be read)",
                  sampled ? "OpImageSampleExplicitLod" : "OpImageRead");
    if (sampled && it->img_dim == SpvDimBuffer)
      return fail(s, "OpImageSampleExplicitLod of a buffer image (image1d_buffer_t takes no sampler)");
    if (in->nops < 2 || !image_coord(s, in->ops[1], need, false, &creg, &cdesc)) return in->nops >= 2 ? false : fail(s, "image read without a coordinate");
    uint32_t kind;
    if (!image_texel_kind(s, in->type, "the result of an image read", &kind)) return false;
    if (!image_operands(s, in, 2, &extend, sampled ? &lod : NULL)) return false;
    if (extend && kind != BI_IMG_R_I32) return fail(s, "SignExtend/ZeroExtend on a read that is not of integers");
    if (!image_lod(s, lod, &lreg, &lkind)) return false;
    uint32_t a = aux_push(s, cdesc);
    aux_push(s, kind); aux_push(s, extend); aux_push(s, lreg); aux_push(s, lkind);
    emit(s, (ex_insn){.op = EX_IMAGE, .flags = sampled ? EX_IMG_SAMPLE : EX_IMG_READ, .d = dst_reg(s, in), .a = img,
                      .b = creg, .c = a});
    return true;
  }
  case SpvOpImageWrite: {
    if (it->img_access == SpvAccessQualifierReadOnly)
      return fail(s, "OpImageWrite to a read_only image (OpenCL C 6.15.15: read_only images cannot be written)");
    if (in->nops < 3) return fail(s, "OpImageWrite needs an image, a coordinate and a texel");
    if (!image_coord(s, in->ops[1], need, true, &creg, &cdesc)) return false;
    uint32_t kind, treg;
    if (!image_texel_kind(s, m->ids[in->ops[2]].type, "the texel of an image write", &kind)) return false;
    if (!operand(s, in->ops[2], &treg)) return false;
    if (!image_operands(s, in, 3, &extend, NULL)) return false;
    if (extend && kind != BI_IMG_R_I32) return fail(s, "SignExtend/ZeroExtend on a write that is not of integers");
    uint32_t a = aux_push(s, cdesc);
    aux_push(s, kind); aux_push(s, extend); aux_push(s, treg); aux_push(s, 0);
    emit(s, (ex_insn){.op = EX_IMAGE, .flags = EX_IMG_WRITE, .a = img, .b = creg, .c = a});
    return true;
  }
  default: {  /* the queries */
    elem e;
    if (!elem_of(s, in->type, &e) || e.kind != 'i' || (e.bits != 32 && e.bits != 64))
      return fail(s, "image query with a result that is not a 32- or 64-bit integer");
    uint32_t q, want = 1;
    switch (op) {
    case SpvOpImageQueryFormat: q = EX_IQ_FORMAT; break;
    case SpvOpImageQueryOrder: q = EX_IQ_ORDER; break;
    case SpvOpImageQueryLevels:
      if (it->img_dim == SpvDimBuffer) return fail(s, "OpImageQueryLevels of a buffer image");
      q = EX_IQ_LEVELS;
      break;
    case SpvOpImageQuerySizeLod:
      if (it->img_dim == SpvDimBuffer) return fail(s, "OpImageQuerySizeLod of a buffer image (use OpImageQuerySize)");
      if (in->nops < 2) return fail(s, "OpImageQuerySizeLod without a Lod");
      lod = in->ops[1];
      q = EX_IQ_SIZE;
      want = need;
      break;
    default: q = EX_IQ_SIZE; want = need; break;  /* OpImageQuerySize */
    }
    if (e.n != want) return fail(s, "image query result has %u components, the image type gives %u", e.n, want);
    if (!image_lod(s, lod, &lreg, &lkind)) return false;
    uint32_t a = aux_push(s, 0);
    aux_push(s, q); aux_push(s, 0); aux_push(s, lreg); aux_push(s, lkind);
    aux_push(s, e.bits / 8); aux_push(s, e.n);
    emit(s, (ex_insn){.op = EX_IMAGE, .flags = EX_IMG_QUERY, .d = dst_reg(s, in), .a = img, .c = a});
    return true;
  }
  }
}

static bool translate(prep *s, const ld_insn *in, uint32_t block_label) {
  const ld_module *m = s->m;
  uint32_t r[4];
  const fam *f;
  elem e;
  uint32_t op = in->opcode;

  if ((f = FIND_FAM(int_fams, op))) {
    if (!op_regs(s, in, f->arity, r)) return false;
    if (!elem_of(s, m->ids[in->ops[0]].type, &e)) return false;
    if (e.kind != 'i' || int_index(e.bits) < 0) return fail(s, "integer operation on a non-integer operand");
    if (op == SpvOpShiftLeftLogical || op == SpvOpShiftRightLogical || op == SpvOpShiftRightArithmetic) {
      /* Shift may have another width than Base (SPIR-V 3.32.15): bring it to Base's width in a
       * temporary register (the count is taken modulo the width, which truncation preserves). */
      elem se;
      if (!elem_of(s, m->ids[in->ops[1]].type, &se) || se.kind != 'i') return fail(s, "shift count is not an integer");
      if (se.n != e.n) return fail(s, "shift count has %u components, base %u", se.n, e.n);
      if (se.bits != e.bits) {
        uint32_t t = const_slot(s, NULL, e.n * e.bits / 8);
        emit(s, (ex_insn){.op = EX_CONVERT, .n = (uint8_t)e.n, .d = t, .a = r[1],
                          .b = (EX_CK_UINT << 8) | se.bits, .c = (EX_CK_UINT << 8) | e.bits});
        r[1] = t;
      }
    }
    emit(s, (ex_insn){.op = (uint16_t)(f->base + int_index(e.bits)), .n = (uint8_t)e.n, .d = dst_reg(s, in),
                      .a = r[0], .b = f->arity > 1 ? r[1] : 0});
    return true;
  }
  if ((f = FIND_FAM(flt_fams, op))) {
    if (!op_regs(s, in, f->arity, r)) return false;
    if (!elem_of(s, m->ids[in->ops[0]].type, &e)) return false;
    if (e.kind != 'f' || flt_index(e.bits) < 0) return fail(s, "float operation on a non-float operand");
    emit(s, (ex_insn){.op = (uint16_t)(f->base + flt_index(e.bits)), .n = (uint8_t)e.n, .d = dst_reg(s, in),
                      .a = r[0], .b = f->arity > 1 ? r[1] : 0});
    return true;
  }
  if ((f = FIND_FAM(logic_fams, op))) {
    if (!op_regs(s, in, f->arity, r)) return false;
    if (!elem_of(s, m->ids[in->ops[0]].type, &e)) return false;
    emit(s, (ex_insn){.op = f->base, .n = (uint8_t)e.n, .d = dst_reg(s, in), .a = r[0], .b = f->arity > 1 ? r[1] : 0});
    return true;
  }

  switch (op) {
  case SpvOpNop: case SpvOpSelectionMerge: case SpvOpLoopMerge: case SpvOpLifetimeStart:
  case SpvOpLifetimeStop: case SpvOpMemoryBarrier: case SpvOpLine: case SpvOpNoLine:
  case SpvOpPhi: case SpvOpUndef: case SpvOpSource: case SpvOpName: case SpvOpModuleProcessed:
    return true;  /* Phi: edge moves; Undef: a zero constant (see prepare_function) */

  case SpvOpVariable: {
    /* Function-storage variable: its address is a constant set up by prepare_function; an
     * initializer becomes a store. */
    if (in->nops >= 2) {
      uint32_t init, ptr = dst_reg(s, in);
      if (!operand(s, in->ops[1], &init)) return false;
      const ld_type *pt = ty(s, in->type);
      const ld_type *vt = pt ? ty(s, pt->elem) : NULL;
      if (!vt) return fail(s, "variable of unknown type");
      emit(s, (ex_insn){.op = EX_STORE, .a = ptr, .b = init, .c = vt->reg_size});
    }
    return true;
  }

  case SpvOpSelect: {
    if (!op_regs(s, in, 3, r)) return false;
    const ld_type *rt = ty(s, in->type);
    elem ce;
    if (!rt || !elem_of(s, m->ids[in->ops[0]].type, &ce)) return false;
    uint32_t esize, n;
    bool scalar_cond = ce.n == 1;
    if (rt->kind == LD_TY_VECTOR || rt->kind == LD_TY_INT || rt->kind == LD_TY_FLOAT || rt->kind == LD_TY_BOOL ||
        rt->kind == LD_TY_POINTER) {
      if (!elem_of(s, in->type, &e)) return false;
      esize = e.bits / 8; n = e.n;
      if (!scalar_cond && ce.n != n) return fail(s, "OpSelect condition has %u components, result %u", ce.n, n);
    } else {
      if (!scalar_cond) return fail(s, "OpSelect of an aggregate needs a scalar condition");
      esize = 1; n = rt->reg_size;
      if (n > 255) return fail(s, "OpSelect of a %u-byte aggregate is not supported", n);
    }
    uint16_t h = esize == 1 ? EX_SELECT_1 : esize == 2 ? EX_SELECT_2 : esize == 4 ? EX_SELECT_4 : EX_SELECT_8;
    emit(s, (ex_insn){.op = h, .n = (uint8_t)n, .flags = scalar_cond, .d = dst_reg(s, in), .a = r[0], .b = r[1], .c = r[2]});
    return true;
  }

  case SpvOpConvertFToU: case SpvOpConvertFToS: case SpvOpConvertSToF: case SpvOpConvertUToF:
  case SpvOpUConvert: case SpvOpSConvert: case SpvOpFConvert: case SpvOpSatConvertSToU:
  case SpvOpSatConvertUToS: {
    if (!op_regs(s, in, 1, r)) return false;
    elem se, de;
    if (!elem_of(s, m->ids[in->ops[0]].type, &se) || !elem_of(s, in->type, &de)) return false;
    bool src_signed = op == SpvOpConvertSToF || op == SpvOpSConvert || op == SpvOpSatConvertSToU;
    bool dst_signed = op == SpvOpConvertFToS || op == SpvOpSConvert || op == SpvOpSatConvertUToS;
    uint32_t sk = se.kind == 'f' ? EX_CK_FLOAT : src_signed ? EX_CK_SINT : EX_CK_UINT;
    uint32_t dk = de.kind == 'f' ? EX_CK_FLOAT : dst_signed ? EX_CK_SINT : EX_CK_UINT;
    uint8_t flags = 0;
    if (op == SpvOpSatConvertSToU || op == SpvOpSatConvertUToS) flags |= EX_CF_SAT;
    if (ld_find_decoration(m, in->result, SpvDecorationSaturatedConversion)) flags |= EX_CF_SAT;
    const ld_decoration *rm = ld_find_decoration(m, in->result, SpvDecorationFPRoundingMode);
    uint32_t mode = rm && rm->nargs ? rm->args[0] : LD_NONE;
    if (mode != LD_NONE) {
      /* FPRoundingMode (SPIR-V 3.16; OpenCL C 6.4.3 convert_T_rte/rtz/rtp/rtn) */
      if (mode > 3) return fail(s, "FPRoundingMode %u is not a rounding mode", mode);
      flags |= (uint8_t)(EX_CF_MODE_SHIFT_VAL(mode + 1));
    }
    if (se.n != de.n) return fail(s, "conversion between vectors of different sizes");
    /* the index conversions every kernel does (int <-> size_t) get typed handlers */
    if (!(flags & EX_CF_SAT) && sk != EX_CK_FLOAT && dk != EX_CK_FLOAT) {
      uint16_t h = 0;
      if (se.bits == 32 && de.bits == 64) h = sk == EX_CK_SINT ? EX_SEXT_I32_I64 : EX_ZEXT_I32_I64;
      else if (se.bits == 64 && de.bits == 32) h = EX_TRUNC_I64_I32;
      if (h) {
        emit(s, (ex_insn){.op = h, .n = (uint8_t)de.n, .d = dst_reg(s, in), .a = r[0]});
        return true;
      }
    }
    emit(s, (ex_insn){.op = EX_CONVERT, .n = (uint8_t)de.n, .flags = flags, .d = dst_reg(s, in), .a = r[0],
                      .b = (sk << 8) | se.bits, .c = (dk << 8) | de.bits});
    return true;
  }

  case SpvOpBitCount: {
    if (!op_regs(s, in, 1, r)) return false;
    elem re;
    if (!elem_of(s, m->ids[in->ops[0]].type, &e) || !elem_of(s, in->type, &re) || e.kind != 'i' || re.kind != 'i' || e.n != re.n)
      return fail(s, "OpBitCount needs integer operands with as many components as the result");
    emit(s, (ex_insn){.op = EX_BITCOUNT, .n = (uint8_t)e.n, .flags = (uint8_t)(e.bits / 8), .d = dst_reg(s, in), .a = r[0],
                      .c = re.bits / 8});
    return true;
  }
  case SpvOpIAddCarry: case SpvOpISubBorrow: case SpvOpUMulExtended: case SpvOpSMulExtended: {
    /* result: struct { T low; T high-or-carry; } (SPIR-V 3.32.13) */
    if (!op_regs(s, in, 2, r)) return false;
    const ld_type *st = ty(s, in->type);
    if (!st || st->kind != LD_TY_STRUCT || st->count != 2 || !elem_of(s, m->ids[in->ops[0]].type, &e) || e.kind != 'i')
      return fail(s, "expects integer operands and a two-member struct result");
    uint8_t kind = op == SpvOpIAddCarry ? 0 : op == SpvOpISubBorrow ? 1 : op == SpvOpUMulExtended ? 2 : 3;
    emit(s, (ex_insn){.op = EX_CARRY, .n = (uint8_t)e.n, .flags = kind, .d = dst_reg(s, in), .a = r[0], .b = r[1],
                      .c = (e.bits / 8) | (st->offsets[1] << 8) | (st->reg_size << 16)});
    return true;
  }
  case SpvOpBitcast: {
    if (!op_regs(s, in, 1, r)) return false;
    uint32_t ssz = type_reg_size(s, m->ids[in->ops[0]].type), dsz = type_reg_size(s, in->type);
    if (ssz != dsz) return fail(s, "OpBitcast between types of %u and %u bytes", ssz, dsz);
    emit(s, (ex_insn){.op = EX_MOVE, .d = dst_reg(s, in), .a = r[0], .c = dsz});
    return true;
  }
  case SpvOpCopyObject: case SpvOpCopyLogical: {
    if (!op_regs(s, in, 1, r)) return false;
    emit(s, (ex_insn){.op = EX_MOVE, .d = dst_reg(s, in), .a = r[0], .c = type_reg_size(s, in->type)});
    return true;
  }

  case SpvOpCompositeExtract: {
    if (!op_regs(s, in, 1, r)) return false;
    uint32_t off, rtid;
    if (!walk_literal(s, m->ids[in->ops[0]].type, in->ops + 1, in->nops - 1u, &off, &rtid)) return false;
    uint32_t a = aux_push(s, off);
    aux_push(s, type_reg_size(s, m->ids[in->ops[0]].type));
    emit(s, (ex_insn){.op = EX_EXTRACT, .d = dst_reg(s, in), .a = r[0], .b = a, .c = type_reg_size(s, in->type)});
    return true;
  }
  case SpvOpCompositeInsert: {
    if (!op_regs(s, in, 2, r)) return false;
    uint32_t off, rtid;
    if (!walk_literal(s, in->type, in->ops + 2, in->nops - 2u, &off, &rtid)) return false;
    uint32_t a = aux_push(s, off);
    aux_push(s, type_reg_size(s, rtid));
    aux_push(s, type_reg_size(s, in->type));
    emit(s, (ex_insn){.op = EX_INSERT, .d = dst_reg(s, in), .a = r[0], .b = r[1], .c = a});
    return true;
  }
  case SpvOpCompositeConstruct: {
    const ld_type *rt = ty(s, in->type);
    if (!rt) return fail(s, "bad result type");
    uint32_t a = aux_push(s, 0);
    uint32_t count = 0;
    for (uint32_t i = 0; i < in->nops; i++) {
      uint32_t reg, off;
      if (!operand(s, in->ops[i], &reg)) return false;
      uint32_t sz = type_reg_size(s, m->ids[in->ops[i]].type);
      /* vectors concatenate their operands; arrays/structs place each member at its offset */
      if (rt->kind == LD_TY_STRUCT) {
        if (i >= rt->count) return fail(s, "too many constituents");
        off = rt->offsets[i];
      } else if (rt->kind == LD_TY_ARRAY) {
        const ld_type *et = ty(s, rt->elem);
        if (!et || i >= rt->count) return fail(s, "too many constituents");
        off = i * et->size;
      } else {
        off = LD_NONE;  /* running offset */
      }
      aux_push(s, reg); aux_push(s, sz); aux_push(s, off);
      count++;
    }
    s->aux[a] = count;
    emit(s, (ex_insn){.op = EX_CONSTRUCT, .d = dst_reg(s, in), .a = a, .c = rt->reg_size});
    return true;
  }
  case SpvOpVectorExtractDynamic: {
    if (!op_regs(s, in, 2, r)) return false;
    elem ve, ie;
    if (!elem_of(s, m->ids[in->ops[0]].type, &ve) || !elem_of(s, m->ids[in->ops[1]].type, &ie)) return false;
    emit(s, (ex_insn){.op = EX_VEXTRACT_DYN, .n = (uint8_t)ve.n, .d = dst_reg(s, in), .a = r[0], .b = r[1],
                      .c = (ve.bits / 8) | ((ie.bits / 8) << 8)});
    return true;
  }
  case SpvOpVectorInsertDynamic: {
    if (!op_regs(s, in, 3, r)) return false;
    elem ve, ie;
    if (!elem_of(s, in->type, &ve) || !elem_of(s, m->ids[in->ops[2]].type, &ie)) return false;
    uint32_t a = aux_push(s, r[2]);
    aux_push(s, ve.bits / 8);
    aux_push(s, ie.bits / 8);
    emit(s, (ex_insn){.op = EX_VINSERT_DYN, .n = (uint8_t)ve.n, .d = dst_reg(s, in), .a = r[0], .b = r[1], .c = a});
    return true;
  }
  case SpvOpVectorShuffle: {
    if (!op_regs(s, in, 2, r)) return false;
    elem v1, re;
    if (!elem_of(s, m->ids[in->ops[0]].type, &v1) || !elem_of(s, in->type, &re)) return false;
    elem v2;
    if (!elem_of(s, m->ids[in->ops[1]].type, &v2)) return false;
    uint32_t a = aux_push(s, v1.bits / 8);
    aux_push(s, v1.n);
    aux_push(s, v2.n);
    for (uint32_t i = 2; i < in->nops; i++) {
      uint32_t c = in->ops[i];
      if (c != 0xFFFFFFFFu && c >= v1.n + v2.n) return fail(s, "OpVectorShuffle component %u out of range", c);
      aux_push(s, c);
    }
    emit(s, (ex_insn){.op = EX_SHUFFLE, .n = (uint8_t)re.n, .d = dst_reg(s, in), .a = r[0], .b = r[1], .c = a});
    return true;
  }

  case SpvOpLoad: {
    /* a whole built-in variable: computed in registers (EX_BUILTIN; flags unused, a = the builtin) */
    const struct ex_builtin_var *bv = in->nops >= 1 && in->ops[0] < m->bound ? builtin_var(s, in->ops[0]) : NULL;
    if (bv && type_reg_size(s, in->type) == bv->elem_bytes * bv->ncomp) {
      emit(s, (ex_insn){.op = EX_BUILTIN, .n = (uint8_t)bv->ncomp, .d = dst_reg(s, in), .a = bv->builtin, .c = bv->elem_bytes});
      return true;
    }
    if (!op_regs(s, in, 1, r)) return false;
    uint32_t sz = type_reg_size(s, in->type);
    emit(s, (ex_insn){.op = sz == 4 ? EX_LOAD_4 : sz == 8 ? EX_LOAD_8 : EX_LOAD, .flags = access_align_log2(s, in, 1, in->type),
                      .d = dst_reg(s, in), .a = r[0], .c = sz});
    return true;
  }
  case SpvOpStore: {
    if (!op_regs(s, in, 2, r)) return false;
    uint32_t vt = m->ids[in->ops[1]].type;
    uint32_t sz = type_reg_size(s, vt);
    emit(s, (ex_insn){.op = sz == 4 ? EX_STORE_4 : sz == 8 ? EX_STORE_8 : EX_STORE, .flags = access_align_log2(s, in, 2, vt),
                      .a = r[0], .b = r[1], .c = sz});
    return true;
  }
  case SpvOpCopyMemory: {
    if (!op_regs(s, in, 2, r)) return false;
    const ld_type *pt = ty(s, m->ids[in->ops[0]].type);
    const ld_type *vt = pt ? ty(s, pt->elem) : NULL;
    if (!vt || !vt->size) return fail(s, "OpCopyMemory through a pointer to a type without size");
    emit(s, (ex_insn){.op = EX_COPYMEM, .a = r[0], .b = r[1], .c = vt->size});
    return true;
  }
  case SpvOpCopyMemorySized: {
    if (!op_regs(s, in, 3, r)) return false;
    elem se;
    if (!elem_of(s, m->ids[in->ops[2]].type, &se)) return false;
    emit(s, (ex_insn){.op = EX_COPYMEM_SIZED, .flags = (uint8_t)(se.bits / 8), .a = r[0], .b = r[1], .c = r[2]});
    return true;
  }
  case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain: {
    bool ptr_form = op == SpvOpPtrAccessChain || op == SpvOpInBoundsPtrAccessChain;
    if (!op_regs(s, in, 1, r)) return false;
    const ld_type *pt = ty(s, m->ids[in->ops[0]].type);
    if (!pt || pt->kind != LD_TY_POINTER) return fail(s, "access chain base is not a pointer");
    uint32_t cur = pt->elem;
    int64_t coff = 0;
    uint32_t a = aux_push(s, 0);
    aux_push(s, 0);
    aux_push(s, 0);
    uint32_t nterms = 0;
    for (uint32_t i = 1; i < in->nops; i++) {
      uint32_t idx = in->ops[i];
      const ld_type *t = ty(s, cur);
      if (!t) return fail(s, "access chain through an unknown type");
      uint64_t stride;
      uint32_t next;
      bool is_struct = false;
      if (ptr_form && i == 1) {
        stride = t->size; next = cur;  /* Element: steps over whole pointees */
      } else if (t->kind == LD_TY_STRUCT) {
        is_struct = true; stride = 0; next = 0;
      } else if (t->kind == LD_TY_ARRAY || t->kind == LD_TY_RUNTIME_ARRAY || t->kind == LD_TY_VECTOR) {
        const ld_type *et = ty(s, t->elem);
        if (!et) return fail(s, "bad element type");
        stride = t->kind == LD_TY_VECTOR ? et->size : et->size;
        next = t->elem;
      } else {
        return fail(s, "access chain indexes into a scalar");
      }
      bool is_const = idx < m->bound && m->ids[idx].kind == LD_ID_CONST;
      if (is_struct) {
        if (!is_const) return fail(s, "struct member index must be a constant");
        const ld_const *c = &m->consts[m->ids[idx].index];
        uint32_t mi;
        memcpy(&mi, c->bytes, 4);
        if (mi >= t->count) return fail(s, "struct member index %u out of range", mi);
        coff += t->offsets[mi];
        cur = t->members[mi];
        continue;
      }
      elem ie;
      if (!elem_of(s, m->ids[idx].type, &ie) || ie.kind != 'i') return fail(s, "access chain index is not an integer");
      if (is_const) {
        const ld_const *c = &m->consts[m->ids[idx].index];
        int64_t v = 0;
        if (ie.bits == 64) { memcpy(&v, c->bytes, 8); }
        else if (ie.bits == 32) { int32_t x; memcpy(&x, c->bytes, 4); v = x; }
        else if (ie.bits == 16) { int16_t x; memcpy(&x, c->bytes, 2); v = x; }
        else { int8_t x; memcpy(&x, c->bytes, 1); v = x; }
        coff += v * (int64_t)stride;  /* indexes are signed (SPIR-V 3.32.8) */
      } else {
        uint32_t reg;
        if (!operand(s, idx, &reg)) return false;
        aux_push(s, reg);
        aux_push(s, ie.bits / 8);
        aux_push(s, (uint32_t)stride);
        if (stride > 0xFFFFFFFFu) return fail(s, "element of %llu bytes is too large", (unsigned long long)stride);
        nterms++;
      }
      cur = next;
    }
    s->aux[a] = (uint32_t)((uint64_t)coff & 0xFFFFFFFFu);
    s->aux[a + 1] = (uint32_t)((uint64_t)coff >> 32);
    s->aux[a + 2] = nterms;
    if (nterms == 1 && coff == 0 && (s->aux[a + 4] == 4 || s->aux[a + 4] == 8)) {
      /* the common shape p + i (pointer plus one index): base, index register, element size */
      /* flags: log2 of the element size when it is a power of two (a shift vectorises; a 64-bit
       * multiply does not without AVX-512), else 0xFF */
      const uint32_t es = s->aux[a + 5];
      uint8_t sh = 0xFF;
      if (es && !(es & (es - 1))) sh = (uint8_t)__builtin_ctz(es);
      emit(s, (ex_insn){.op = s->aux[a + 4] == 8 ? EX_ACCESS1_I64 : EX_ACCESS1_I32, .flags = sh, .d = dst_reg(s, in),
                        .a = r[0], .b = s->aux[a + 3], .c = es});
      return true;
    }
    emit(s, (ex_insn){.op = EX_ACCESS, .d = dst_reg(s, in), .a = r[0], .b = a});
    return true;
  }
  case SpvOpConvertPtrToU: {
    if (!op_regs(s, in, 1, r)) return false;
    if (!elem_of(s, in->type, &e)) return false;
    emit(s, (ex_insn){.op = EX_PTR2U, .n = (uint8_t)(e.bits / 8), .d = dst_reg(s, in), .a = r[0]});
    return true;
  }
  case SpvOpConvertUToPtr: {
    if (!op_regs(s, in, 1, r)) return false;
    if (!elem_of(s, m->ids[in->ops[0]].type, &e)) return false;
    emit(s, (ex_insn){.op = EX_U2PTR, .n = (uint8_t)(e.bits / 8), .d = dst_reg(s, in), .a = r[0]});
    return true;
  }
  case SpvOpPtrCastToGeneric: case SpvOpGenericCastToPtr: {
    if (!op_regs(s, in, 1, r)) return false;
    emit(s, (ex_insn){.op = EX_MOVE, .d = dst_reg(s, in), .a = r[0], .c = m->pointer_bytes});
    return true;
  }
  case SpvOpGenericCastToPtrExplicit: {
    if (!op_regs(s, in, 1, r)) return false;
    uint8_t space;
    if (in->nops < 2 || !storage_space(in->ops[1], &space)) return fail(s, "unsupported storage class in cast");
    emit(s, (ex_insn){.op = EX_GEN2PTR, .d = dst_reg(s, in), .a = r[0], .b = space});
    return true;
  }
  case SpvOpPtrEqual: case SpvOpPtrNotEqual: {
    if (!op_regs(s, in, 2, r)) return false;
    emit(s, (ex_insn){.op = op == SpvOpPtrEqual ? EX_PTREQ : EX_PTRNE, .d = dst_reg(s, in), .a = r[0], .b = r[1]});
    return true;
  }
  case SpvOpPtrDiff: {
    if (!op_regs(s, in, 2, r)) return false;
    const ld_type *pt = ty(s, m->ids[in->ops[0]].type);
    const ld_type *vt = pt ? ty(s, pt->elem) : NULL;
    if (!vt || !vt->size || !elem_of(s, in->type, &e)) return fail(s, "OpPtrDiff of pointers to a type without size");
    emit(s, (ex_insn){.op = EX_PTRDIFF, .n = (uint8_t)(e.bits / 8), .d = dst_reg(s, in), .a = r[0], .b = r[1], .c = vt->size});
    return true;
  }

  case SpvOpBranch: {
    uint32_t bi, edge;
    if (in->nops < 1 || !need_block(s, in->ops[0], &bi) || !edge_moves(s, block_label, bi, &edge)) return false;
    emit(s, (ex_insn){.op = EX_BR, .a = bi, .b = edge});
    return true;
  }
  case SpvOpBranchConditional: {
    if (!op_regs(s, in, 1, r)) return false;
    uint32_t tb, fb, te, fe;
    if (in->nops < 3 || !need_block(s, in->ops[1], &tb) || !need_block(s, in->ops[2], &fb)) return false;
    if (!edge_moves(s, block_label, tb, &te) || !edge_moves(s, block_label, fb, &fe)) return false;
    uint32_t a = aux_push(s, tb);
    aux_push(s, te); aux_push(s, fb); aux_push(s, fe);
    emit(s, (ex_insn){.op = EX_BRC, .a = r[0], .b = a});
    return true;
  }
  case SpvOpSwitch: {
    if (!op_regs(s, in, 1, r)) return false;
    if (!elem_of(s, m->ids[in->ops[0]].type, &e) || e.kind != 'i') return fail(s, "OpSwitch selector is not an integer");
    uint32_t words = e.bits == 64 ? 2 : 1;
    if (in->nops < 2 || (in->nops - 2) % (words + 1)) return fail(s, "OpSwitch has a malformed target list");
    uint32_t ncases = (in->nops - 2) / (words + 1);
    uint32_t db, de;
    if (!need_block(s, in->ops[1], &db) || !edge_moves(s, block_label, db, &de)) return false;
    /* edges first (they push into aux), then the case table contiguous */
    uint32_t *tmp = xrealloc(NULL, (ncases + 1) * 4 * sizeof *tmp);
    for (uint32_t k = 0; k < ncases; k++) {
      const uint32_t *c = in->ops + 2 + k * (words + 1);
      uint32_t cb, ce;
      if (!need_block(s, c[words], &cb) || !edge_moves(s, block_label, cb, &ce)) { free(tmp); return false; }
      tmp[4 * k] = c[0];
      tmp[4 * k + 1] = words == 2 ? c[1] : 0;
      tmp[4 * k + 2] = cb;
      tmp[4 * k + 3] = ce;
    }
    uint32_t a = aux_push(s, ncases);
    aux_push(s, db); aux_push(s, de);
    for (uint32_t k = 0; k < 4 * ncases; k++) aux_push(s, tmp[k]);
    free(tmp);
    emit(s, (ex_insn){.op = EX_SWITCH, .n = (uint8_t)(e.bits / 8), .a = r[0], .b = a});
    return true;
  }
  case SpvOpReturn:
    emit(s, (ex_insn){.op = EX_RET});
    return true;
  case SpvOpReturnValue:
    if (!op_regs(s, in, 1, r)) return false;
    emit(s, (ex_insn){.op = EX_RETV, .a = r[0], .c = type_reg_size(s, m->ids[in->ops[0]].type)});
    return true;
  case SpvOpUnreachable: case SpvOpKill:
    emit(s, (ex_insn){.op = EX_UNREACHABLE});
    return true;
  case SpvOpFunctionCall: {
    if (in->nops < 1) return fail(s, "OpFunctionCall without a callee");
    uint32_t callee = in->ops[0];
    if (callee >= m->bound || m->ids[callee].kind != LD_ID_FUNCTION) return fail(s, "callee %%%u is not a function", callee);
    const ld_function *cf = &m->funcs[m->ids[callee].index];
    char nb[96];
    if (cf->is_import) return fail(s, "call to `%s`, a function declared but not defined in this module (unresolved import)", ld_id_name(m, callee, nb, sizeof nb));
    if (cf->nparams != in->nops - 1u) return fail(s, "call passes %u arguments to a function of %u parameters", in->nops - 1u, cf->nparams);
    uint32_t a = aux_push(s, 0);
    for (uint32_t i = 1; i < in->nops; i++) {
      uint32_t reg;
      if (!operand(s, in->ops[i], &reg)) return false;
      aux_push(s, reg);
    }
    const ld_type *rt = ty(s, in->type);
    emit(s, (ex_insn){.op = EX_CALL, .d = rt && rt->kind != LD_TY_VOID ? dst_reg(s, in) : LD_NONE,
                      .a = m->ids[callee].index, .b = a});
    return true;
  }
  case SpvOpControlBarrier: {
    /* Execution scope (3.32.20): Workgroup (2) synchronises the group; Subgroup (3) is
     * sub_group_barrier (cl_khr_subgroups): every work-item of the sub-group must reach it, and the
     * sub-group's work-items run in lock-step in one warp, so that is all it needs to check. */
    uint32_t scope = 0;
    if (in->nops < 1) return fail(s, "OpControlBarrier without operands");
    if (!const_scope(s, in->ops[0], "OpControlBarrier scope", &scope)) return false;
    if (scope == SpvScopeSubgroup) return sg_emit(s, in, EX_SG_BARRIER, EX_SG_UNIFORM, 0, 0, 0, 0);
    if (scope != SpvScopeWorkgroup) return fail(s, "OpControlBarrier with execution scope %u is not supported", scope);
    emit(s, (ex_insn){.op = EX_BARRIER});
    return true;
  }
  case SpvOpNamedBarrierInitialize: case SpvOpMemoryNamedBarrier:
    return translate_named_barrier(s, in);
  case SpvOpGroupNonUniformElect: case SpvOpGroupNonUniformAll: case SpvOpGroupNonUniformAny:
  case SpvOpGroupNonUniformAllEqual: case SpvOpGroupNonUniformBroadcast: case SpvOpGroupNonUniformBroadcastFirst:
  case SpvOpGroupNonUniformBallot: case SpvOpGroupNonUniformInverseBallot: case SpvOpGroupNonUniformBallotBitExtract:
  case SpvOpGroupNonUniformBallotBitCount: case SpvOpGroupNonUniformBallotFindLSB:
  case SpvOpGroupNonUniformBallotFindMSB: case SpvOpGroupNonUniformShuffle: case SpvOpGroupNonUniformShuffleXor:
  case SpvOpGroupNonUniformShuffleUp: case SpvOpGroupNonUniformShuffleDown: case SpvOpGroupNonUniformIAdd:
  case SpvOpGroupNonUniformFAdd: case SpvOpGroupNonUniformIMul: case SpvOpGroupNonUniformFMul:
  case SpvOpGroupNonUniformSMin: case SpvOpGroupNonUniformUMin: case SpvOpGroupNonUniformFMin:
  case SpvOpGroupNonUniformSMax: case SpvOpGroupNonUniformUMax: case SpvOpGroupNonUniformFMax:
  case SpvOpGroupNonUniformBitwiseAnd: case SpvOpGroupNonUniformBitwiseOr: case SpvOpGroupNonUniformBitwiseXor:
  case SpvOpGroupNonUniformLogicalAnd: case SpvOpGroupNonUniformLogicalOr: case SpvOpGroupNonUniformLogicalXor:
  case SpvOpGroupNonUniformQuadBroadcast: case SpvOpGroupNonUniformQuadSwap:
  case SpvOpSubgroupShuffleINTEL: case SpvOpSubgroupShuffleDownINTEL: case SpvOpSubgroupShuffleUpINTEL:
  case SpvOpSubgroupShuffleXorINTEL:
    return translate_nonuniform(s, in);
  case SpvOpExtInst:
    return translate_extinst(s, in);
  case SpvOpSampledImage: case SpvOpImage: case SpvOpImageRead: case SpvOpImageWrite:
  case SpvOpImageSampleExplicitLod: case SpvOpImageQueryFormat: case SpvOpImageQueryOrder:
  case SpvOpImageQuerySizeLod: case SpvOpImageQuerySize: case SpvOpImageQueryLevels: case SpvOpImageQuerySamples:
    return translate_image(s, in);
  case SpvOpGroupAll: case SpvOpGroupAny: case SpvOpGroupBroadcast: case SpvOpGroupIAdd: case SpvOpGroupFAdd:
  case SpvOpGroupSMin: case SpvOpGroupUMin: case SpvOpGroupFMin: case SpvOpGroupSMax: case SpvOpGroupUMax:
  case SpvOpGroupFMax:
    return translate_group(s, in);
  case SpvOpGroupAsyncCopy: case SpvOpGroupWaitEvents:
    return translate_async(s, in);
  case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicExchange: case SpvOpAtomicCompareExchange:
  case SpvOpAtomicCompareExchangeWeak: case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement:
  case SpvOpAtomicIAdd: case SpvOpAtomicISub: case SpvOpAtomicSMin: case SpvOpAtomicUMin: case SpvOpAtomicSMax:
  case SpvOpAtomicUMax: case SpvOpAtomicAnd: case SpvOpAtomicOr: case SpvOpAtomicXor:
  case SpvOpAtomicFlagTestAndSet: case SpvOpAtomicFlagClear: case SpvOpAtomicFAddEXT: case SpvOpAtomicFMinEXT:
  case SpvOpAtomicFMaxEXT:
    return translate_atomic(s, in);
  default: {
    const char *name = spv_op_name(op);
    return fail(s, "%s is not supported", name ? name : "unknown opcode");
  }
  }
}

/* ---- functions ------------------------------------------------------------------------------ */

/* Successors of block b (from its terminator) appended to out; returns the count. */
static uint32_t block_succs(const ex_func *xf, uint32_t b, uint32_t *out) {
  const ex_block *xb = &xf->blocks[b];
  const ex_insn *t = &xf->code[xb->first + xb->count - 1];
  if (t->op == EX_BR) { out[0] = t->a; return 1; }
  if (t->op == EX_BRC) { out[0] = xf->aux[t->b]; out[1] = xf->aux[t->b + 2]; return 2; }
  if (t->op == EX_SWITCH) {
    const uint32_t *sw = xf->aux + t->b;
    out[0] = sw[1];
    for (uint32_t k = 0; k < sw[0]; k++) out[1 + k] = sw[3 + 4 * k + 2];
    return sw[0] + 1;
  }
  return 0;
}

/* Reconvergence order (ex_block.rpo). Any topological order of the forward edges puts a join after
 * the arms that reach it, but it may put a loop's exit before some blocks of the loop body, and
 * lanes that left the loop would then run ahead of lanes still iterating (and, say, reach a barrier
 * alone). So the order is a topological sort in which a loop, once its header is placed, is
 * finished before any block outside it: every block of a natural loop precedes all the loop's exit
 * targets. Loops are the natural loops of the retreating edges of a DFS (SPIR-V 2.11 structured
 * control flow gives the same loops; llvm-spirv emits no merge instructions for kernels). */
static bool compute_rpo(prep *s, ex_func *xf) {
  (void)s;
  uint32_t n = xf->nblocks;
  /* CSR successor lists and predecessor lists */
  uint32_t *sstart = calloc(n + 1, sizeof *sstart), *tmp = NULL;
  uint32_t total = 0, cap = 0;
  uint32_t *succ = NULL;
  for (uint32_t b = 0; b < n; b++) {
    const ex_block *xb = &xf->blocks[b];
    const ex_insn *t = &xf->code[xb->first + xb->count - 1];
    uint32_t need = t->op == EX_SWITCH ? xf->aux[t->b] + 1 : 2;
    if (total + need > cap) { cap = (total + need) * 2; succ = xrealloc(succ, cap * sizeof *succ); }
    sstart[b] = total;
    total += block_succs(xf, b, succ + total);
  }
  sstart[n] = total;
  uint32_t *pstart = calloc(n + 1, sizeof *pstart), *pred = malloc((total + 1) * sizeof *pred);
  uint32_t *state = calloc(n, sizeof *state), *stack = malloc((n + 1) * sizeof *stack), *succ_i = calloc(n, sizeof *succ_i);
  uint32_t *post = malloc((n + 1) * sizeof *post);
  if (!sstart || !pstart || !pred || !state || !stack || !succ_i || !post) abort();
  for (uint32_t i = 0; i < total; i++) pstart[succ[i] + 1]++;
  for (uint32_t b = 0; b < n; b++) pstart[b + 1] += pstart[b];
  uint32_t *fill = calloc(n + 1, sizeof *fill);
  if (!fill) abort();
  for (uint32_t b = 0; b < n; b++)
    for (uint32_t i = sstart[b]; i < sstart[b + 1]; i++) pred[pstart[succ[i]] + fill[succ[i]]++] = b;
  free(fill);

  /* DFS 1: retreating edges (target on the DFS stack) and a plain post-order for tie-breaks */
  uint32_t nloops = 0, loopcap = 0, npost = 0;
  uint32_t *loop_head = NULL, *loop_tail = NULL;
  uint8_t *back = calloc(total + 1, 1);
  if (!back) abort();
  uint32_t sp = 0;
  stack[sp++] = 0;
  state[0] = 1;  /* 1 on stack, 2 done */
  while (sp) {
    uint32_t b = stack[sp - 1];
    if (succ_i[b] < sstart[b + 1] - sstart[b]) {
      uint32_t e = sstart[b] + succ_i[b]++;
      uint32_t c = succ[e];
      if (state[c] == 1) {
        back[e] = 1;
        if (nloops == loopcap) {
          loopcap = loopcap ? loopcap * 2 : 8;
          loop_head = xrealloc(loop_head, loopcap * sizeof *loop_head);
          loop_tail = xrealloc(loop_tail, loopcap * sizeof *loop_tail);
        }
        loop_head[nloops] = c;
        loop_tail[nloops++] = b;
      } else if (!state[c]) {
        state[c] = 1;
        stack[sp++] = c;
      }
      continue;
    }
    state[b] = 2;
    post[npost++] = b;
    sp--;
  }
  uint32_t *rpo0 = malloc((n + 1) * sizeof *rpo0);
  if (!rpo0) abort();
  for (uint32_t i = 0; i < n; i++) rpo0[i] = UINT32_MAX;
  for (uint32_t i = 0; i < npost; i++) rpo0[post[npost - 1 - i]] = i;
  /* natural loop bodies as bitsets, one per header (loops sharing a header are merged) */
  size_t words = (n + 63) / 64;
  uint64_t *body = calloc((size_t)nloops * words + 1, sizeof *body);
  int32_t *loop_of_header = malloc((n + 1) * sizeof *loop_of_header);
  if (!body || !loop_of_header) abort();
  for (uint32_t i = 0; i < n; i++) loop_of_header[i] = -1;
  uint32_t nheads = 0;
  for (uint32_t L = 0; L < nloops; L++) {
    uint32_t h = loop_head[L];
    if (loop_of_header[h] < 0) loop_of_header[h] = (int32_t)nheads++;
    uint64_t *bs = body + (size_t)loop_of_header[h] * words;
    bs[h / 64] |= (uint64_t)1 << (h % 64);
    sp = 0;
    uint32_t t = loop_tail[L];
    if (!(bs[t / 64] >> (t % 64) & 1)) {
      bs[t / 64] |= (uint64_t)1 << (t % 64);
      stack[sp++] = t;
    }
    while (sp) {
      uint32_t x = stack[--sp];
      for (uint32_t i = pstart[x]; i < pstart[x + 1]; i++) {
        uint32_t p = pred[i];
        if (!state[p] || (bs[p / 64] >> (p % 64) & 1)) continue;
        bs[p / 64] |= (uint64_t)1 << (p % 64);
        stack[sp++] = p;
      }
    }
  }
#define IN_LOOP(L, x) ((body[(size_t)(L) * words + (x) / 64] >> ((x) % 64)) & 1)
  /* Topological order of the forward edges in which every loop, once its header is placed, is
   * completed before anything outside it: the next block comes from the innermost open loop while
   * it has a ready block; ties follow the plain reverse post-order. */
  uint32_t *indeg = calloc(n + 1, sizeof *indeg), *ready = malloc((n + 1) * sizeof *ready);
  uint32_t *open = malloc((nheads + 1) * sizeof *open);
  if (!indeg || !ready || !open) abort();
  for (uint32_t b = 0; b < n; b++)
    if (state[b])
      for (uint32_t e = sstart[b]; e < sstart[b + 1]; e++)
        if (!back[e]) indeg[succ[e]]++;
  uint32_t nready = 0, nopen = 0, r = 0, fn_count = 0;
  for (uint32_t b = 0; b < n; b++) fn_count += xf->blocks[b].spv_count;
  ready[nready++] = 0;
  while (nready) {
    int64_t pick = -1;
    while (pick < 0) {
      for (uint32_t i = 0; i < nready; i++) {
        uint32_t b = ready[i];
        if (nopen && !IN_LOOP(open[nopen - 1], b)) continue;
        if (pick < 0 || rpo0[b] < rpo0[ready[pick]]) pick = i;
      }
      if (pick < 0) {
        if (!nopen) abort();  /* a ready block exists and no loop filters it: cannot happen */
        nopen--;
      }
    }
    uint32_t b = ready[pick];
    ready[pick] = ready[--nready];
    xf->blocks[b].rpo = r++;
    if (loop_of_header[b] >= 0) {
      open[nopen++] = (uint32_t)loop_of_header[b];
      ex_block *hb = &xf->blocks[b];
      hb->loop_header = true;
      uint32_t in = 0;
      for (uint32_t x = 0; x < n; x++)
        if (IN_LOOP(loop_of_header[b], x)) in += xf->blocks[x].spv_count;
      hb->loop_body = in;
      hb->loop_rest = fn_count - in;
    }
    for (uint32_t e = sstart[b]; e < sstart[b + 1]; e++)
      if (!back[e] && --indeg[succ[e]] == 0) ready[nready++] = succ[e];
  }
#undef IN_LOOP
  for (uint32_t b = 0; b < n; b++)
    if (!state[b]) xf->blocks[b].rpo = r++;  /* unreachable blocks: never run */
  free(back); free(rpo0); free(loop_of_header); free(indeg); free(ready); free(open);
  free(sstart); free(succ); free(pstart); free(pred); free(state); free(stack); free(succ_i); free(post);
  free(body); free(loop_head); free(loop_tail); free(tmp);
  return true;
}

static bool prepare_function(prep *s, uint32_t fi) {
  const ld_module *m = s->m;
  const ld_function *fn = &m->funcs[fi];
  ex_func *xf = &s->p->funcs[fi];
  xf->ld = fn;
  xf->index = fi;
  s->fn = fn;
  s->cur = NULL;
  if (fn->is_import) return true;
  if (fn->nblocks == 0) return fail(s, "function has no body");
  /* Function-storage variables: a private static allocation each; their address is a constant. */
  for (uint32_t i = 0; i < fn->ninsns; i++) {
    const ld_insn *in = &fn->insns[i];
    s->cur = in;
    if (in->opcode == SpvOpVariable) {
      const ld_type *pt = ty(s, in->type);
      const ld_type *vt = pt ? ty(s, pt->elem) : NULL;
      if (!pt || !vt) return fail(s, "variable of unknown type");
      if (in->nops < 1 || in->ops[0] != SpvStorageClassFunction) return fail(s, "function variable not in Function storage");
      if (!vt->size) return fail(s, "variable of a type without size");
      uint32_t alloc = add_static_alloc(s, EX_AS_PRIVATE, vt->size, in->result);
      s->reg[in->result] = addr_const(s, alloc);
    } else if (in->opcode == SpvOpUndef) {
      s->reg[in->result] = const_slot(s, NULL, type_reg_size(s, in->type));
    }
  }
  s->cur = NULL;
  s->ncode = 0; s->naux = 0;
  xf->nblocks = fn->nblocks;
  xf->blocks = calloc(fn->nblocks, sizeof *xf->blocks);
  if (!xf->blocks) abort();
  for (uint32_t b = 0; b < fn->nblocks; b++) {
    const ld_block *lb = &fn->blocks[b];
    xf->blocks[b].first = s->ncode;
    xf->blocks[b].label = lb->label;
    xf->blocks[b].spv_count = lb->count;
    if (lb->count == 0) return fail(s, "block %%%u is empty", lb->label);
    for (uint32_t i = 0; i < lb->count; i++) {
      const ld_insn *in = &fn->insns[lb->first + i];
      s->cur = in;
      const ld_type *rt = in->type ? ty(s, in->type) : NULL;
      if (in->result && rt && rt->kind != LD_TY_VOID && s->reg[in->result] == LD_NONE && in->opcode != SpvOpVariable) {
        /* not yet assigned: a value of this function (set up in ex_prepare) */
        return fail(s, "result %%%u has no register", in->result);
      }
      if (!translate(s, in, lb->label)) return false;
    }
    ex_op last = s->ncode > xf->blocks[b].first ? (ex_op)s->code[s->ncode - 1].op : EX_NOP;
    if (last != EX_BR && last != EX_BRC && last != EX_SWITCH && last != EX_RET && last != EX_RETV && last != EX_UNREACHABLE)
      return fail(s, "block %%%u does not end in a branch or return", lb->label);
    xf->blocks[b].count = s->ncode - xf->blocks[b].first;
  }
  xf->code = s->code; xf->ncode = s->ncode;
  xf->aux = s->aux; xf->naux = s->naux;
  s->code = NULL; s->capcode = 0; s->aux = NULL; s->capaux = 0;
  return compute_rpo(s, xf);
}

/* Depth of the deepest call chain from function fi; fails on recursion. */
static bool call_depth(prep *s, uint32_t fi, uint8_t *mark, uint32_t *depth_memo, uint32_t *out) {
  if (mark[fi] == 1) {
    char nb[96];
    s->fn = NULL; s->cur = NULL;
    return fail(s, "function `%s` is recursive, which OpenCL C forbids (6.9)", ld_id_name(s->m, s->m->funcs[fi].id, nb, sizeof nb));
  }
  if (mark[fi] == 2) { *out = depth_memo[fi]; return true; }
  mark[fi] = 1;
  uint32_t best = 0;
  const ex_func *xf = &s->p->funcs[fi];
  for (uint32_t i = 0; i < xf->ncode; i++) {
    if (xf->code[i].op != EX_CALL) continue;
    uint32_t d;
    if (!call_depth(s, xf->code[i].a, mark, depth_memo, &d)) return false;
    if (d > best) best = d;
  }
  mark[fi] = 2;
  depth_memo[fi] = best + 1;
  *out = best + 1;
  return true;
}

static bool prepare_globals(prep *s) {
  const ld_module *m = s->m;
  s->p->global_alloc = calloc(m->nglobals + 1, sizeof *s->p->global_alloc);
  if (!s->p->global_alloc) abort();
  for (uint32_t g = 0; g < m->nglobals; g++) {
    const ld_global *gv = &m->globals[g];
    uint8_t space;
    if (!storage_space(gv->storage, &space)) {
      const char *nm = spv_storage_class_name(gv->storage);
      char nb[96];
      snprintf(s->err, s->errlen, "%s: module variable `%s` in storage class %s is not supported", m->path,
               ld_id_name(m, gv->id, nb, sizeof nb), nm ? nm : "?");
      return false;
    }
    if (gv->storage == SpvStorageClassInput && gv->builtin == LD_NONE) {
      char nb[96];
      snprintf(s->err, s->errlen, "%s: Input variable `%s` is not a built-in", m->path, ld_id_name(m, gv->id, nb, sizeof nb));
      return false;
    }
    uint32_t alloc = add_static_alloc(s, space, gv->size, gv->id);
    s->p->global_alloc[g] = alloc;
    if (space == EX_AS_CONSTANT) s->p->static_allocs[alloc].read_only = true;
    if (gv->builtin != LD_NONE) {
      const ld_type *pt = ty(s, gv->type);
      elem e;
      s->fn = NULL;
      if (!pt || !elem_of(s, pt->elem, &e)) return false;
      ex_program *p = s->p;
      p->builtins = xrealloc(p->builtins, (p->nbuiltins + 1) * sizeof *p->builtins);
      p->builtins[p->nbuiltins++] = (struct ex_builtin_var){alloc, gv->builtin, e.bits / 8, e.n, false};
      if (!ex_builtin_supported(gv->builtin)) {
        const char *bn = spv_builtin_name(gv->builtin);
        snprintf(s->err, s->errlen, "%s: built-in variable %s is not supported", m->path, bn ? bn : "?");
        return false;
      }
    }
    s->reg[gv->id] = addr_const(s, alloc);
    if (space == EX_AS_PRIVATE && gv->builtin == LD_NONE) s->p->private_builtins_end = UINT64_MAX;
  }
  /* the private arena starts with the built-ins (the only private module variables OpenCL has) */
  s->p->private_builtins_end = s->p->private_builtins_end == UINT64_MAX ? 0 : s->p->private_size;
  return true;
}

/* An instruction by which work-items of a group or sub-group wait for or exchange with others. */
static bool is_group_sync(unsigned op) {
  return op == EX_BARRIER || op == EX_GROUP || op == EX_ASYNC_COPY || op == EX_WAIT_EVENTS || op == EX_SUBGROUP ||
         op == EX_NBAR_INIT || op == EX_NBAR_WAIT;
}

/* ex_func.wrapper: code [CALL, RET] in one block. Its call's arguments can only be its own
 * parameters or constants, the same for every work-item. */
static bool is_wrapper(const ex_program *p, const ex_func *xf) {
  if (xf->nblocks != 1 || xf->ncode != 2 || xf->code[0].op != EX_CALL || xf->code[1].op != EX_RET) return false;
  const ex_func *callee = &p->funcs[xf->code[0].a];
  for (uint32_t i = 0; i < callee->nparams; i++)
    if (callee->param_byval[i]) return false;
  return true;
}

/* ex_func.group_sync: direct, then through calls until nothing changes (the call graph has no
 * cycles, OpenCL C 6.11, so this ends within its depth); and ex_func.wrapper. */
static void mark_group_sync(ex_program *p) {
  for (uint32_t f = 0; f < p->nfuncs; f++) p->funcs[f].wrapper = is_wrapper(p, &p->funcs[f]);
  for (uint32_t f = 0; f < p->nfuncs; f++)
    for (uint32_t i = 0; i < p->funcs[f].ncode && !p->funcs[f].group_sync; i++)
      p->funcs[f].group_sync = is_group_sync(p->funcs[f].code[i].op);
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t f = 0; f < p->nfuncs; f++) {
      ex_func *xf = &p->funcs[f];
      for (uint32_t i = 0; i < xf->ncode && !xf->group_sync; i++)
        if (xf->code[i].op == EX_CALL && p->funcs[xf->code[i].a].group_sync) xf->group_sync = changed = true;
    }
  }
}

ex_program *ex_prepare(const ld_module *m, char *err, size_t errlen) {
  prep s;
  memset(&s, 0, sizeof s);
  s.m = m;
  s.err = err; s.errlen = errlen;
  s.p = calloc(1, sizeof *s.p);
  s.reg = malloc(m->bound * sizeof *s.reg);
  if (!s.p || !s.reg) abort();
  for (uint32_t i = 0; i < m->bound; i++) s.reg[i] = LD_NONE;
  ex_program *p = s.p;
  p->ld = m;
  p->ptr_bytes = m->pointer_bytes;
  p->nfuncs = m->nfuncs;
  p->funcs = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *p->funcs);
  if (!p->funcs) abort();
  /* Register file: [function registers][constants][phi scratch]. Function registers are fixed
   * first, so constants (which grow while translating) and scratch can follow. */
  uint32_t fbase = 0;
  for (uint32_t f = 0; f < m->nfuncs; f++) {
    const ld_function *fn = &m->funcs[f];
    p->funcs[f].reg_base = fbase;
    for (uint32_t i = 0; i < fn->nparams; i++) s.reg[fn->params[i]] = fbase + m->ids[fn->params[i]].reg;
    for (uint32_t i = 0; i < fn->ninsns; i++) {
      const ld_insn *in = &fn->insns[i];
      if (in->result && in->type && in->opcode != SpvOpVariable && in->opcode != SpvOpUndef &&
          in->result < m->bound && m->ids[in->result].kind == LD_ID_VALUE)
        s.reg[in->result] = fbase + m->ids[in->result].reg;
    }
    fbase += (fn->reg_bytes + 7u) & ~7u;
  }
  s.cbase = fbase;
  bool ok = prepare_globals(&s);
  for (uint32_t f = 0; ok && f < m->nfuncs; f++) ok = prepare_function(&s, f);
  if (ok) {
    p->const_base = s.cbase;
    p->const_bytes = (s.cbytes + 7u) & ~7u;
    p->scratch_reg = s.cbase + p->const_bytes;
    p->reg_bytes = p->scratch_reg + ((s.scratch_need + 7u) & ~7u);
    for (uint32_t f = 0; f < m->nfuncs; f++) {
      ex_func *xf = &p->funcs[f];
      const ld_function *fn = &m->funcs[f];
      xf->nparams = fn->nparams;
      xf->param_reg = calloc(fn->nparams + 1, sizeof *xf->param_reg);
      xf->param_size = calloc(fn->nparams + 1, sizeof *xf->param_size);
      if (!xf->param_reg || !xf->param_size) abort();
      xf->param_byval = calloc(fn->nparams + 1, sizeof *xf->param_byval);
      if (!xf->param_byval) abort();
      for (uint32_t i = 0; i < fn->nparams; i++) {
        xf->param_reg[i] = xf->reg_base + m->ids[fn->params[i]].reg;
        xf->param_size[i] = type_reg_size(&s, m->ids[fn->params[i]].type);
        /* A by-value aggregate parameter is a pointer decorated FuncParamAttr ByVal: the callee
         * owns a copy (SPIR-V 3.21 "Pass in as by value"). It gets a private allocation, filled at
         * every call (or, for a kernel, from the argument). */
        const ld_decoration *d = ld_find_decoration(m, fn->params[i], SpvDecorationFuncParamAttr);
        const ld_type *pt = ty(&s, m->ids[fn->params[i]].type);
        if (d && d->nargs && d->args[0] == SpvFunctionParameterAttributeByVal && pt && pt->kind == LD_TY_POINTER) {
          const ld_type *vt = ty(&s, pt->elem);
          if (vt && vt->size) xf->param_byval[i] = add_static_alloc(&s, EX_AS_PRIVATE, vt->size, fn->params[i]);
        }
      }
      const ld_type *rt = ty(&s, fn->ret_type);
      xf->ret_size = rt ? rt->reg_size : 0;
    }
    p->const_init = s.cinit; s.cinit = NULL;
    p->ncslots = s.ncslots / 2; p->cslots = s.cslots; s.cslots = NULL;
    p->bis = s.bis; p->nbis = s.nbis; s.bis = NULL;
    /* call graph */
    uint8_t *mark = calloc(m->nfuncs + 1, 1);
    uint32_t *memo = calloc(m->nfuncs + 1, sizeof *memo);
    if (!mark || !memo) abort();
    for (uint32_t f = 0; ok && f < m->nfuncs; f++) {
      uint32_t d;
      ok = call_depth(&s, f, mark, memo, &d);
      if (ok && d > p->max_depth) p->max_depth = d;
    }
    free(mark); free(memo);
    if (ok) mark_group_sync(p);
    p->id_reg = s.reg;
    s.reg = NULL;
  }
  free(s.reg); free(s.code); free(s.aux); free(s.cinit); free(s.cslots); free(s.bis);
  if (!ok) { ex_program_free(p); return NULL; }
  return p;
}

void ex_program_free(ex_program *p) {
  if (!p) return;
  for (uint32_t f = 0; f < p->nfuncs; f++) {
    free(p->funcs[f].code); free(p->funcs[f].blocks); free(p->funcs[f].aux);
    free(p->funcs[f].param_reg); free(p->funcs[f].param_size); free(p->funcs[f].param_byval);
  }
  free(p->funcs); free(p->static_allocs); free(p->const_init); free(p->addr_reg); free(p->addr_alloc);
  free(p->builtins); free(p->cslots); free(p->bis); free(p->global_alloc); free(p->bi_types);
  free(p->id_reg);
  free(p);
}

const ex_func *ex_find_func(const ex_program *p, uint32_t id) {
  const ld_module *m = p->ld;
  if (id >= m->bound || m->ids[id].kind != LD_ID_FUNCTION) return NULL;
  return &p->funcs[m->ids[id].index];
}
