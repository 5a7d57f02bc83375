/*
 * ex_prep_mem.c — the translation of memory instructions (SPIR-V 3.32.8) and atomics (3.32.18):
 * variables' initializers, loads and stores with the alignment they need, copies, access chains
 * folded into a constant offset plus variable terms, pointer conversions and comparisons.
 */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ex_prep.h"

/* log2 of the alignment an OpLoad/OpStore needs: its Aligned memory operand (SPIR-V 3.26: the
 * literal right after the MemoryAccess mask at ops[mask_at]) when present, else the alignment of the
 * accessed type (OpenCL C 6.1.5: scalars and vectors are aligned to their size, 3-vectors as
 * 4-vectors). An access that breaks it is reported as misaligned. */
static uint8_t access_align_log2(prep *s, const ld_insn *in, unsigned mask_at, uint32_t type_id) {
  uint64_t a = 1;
  if (in->nops > mask_at + 1 && (in->ops[mask_at] & SpvMemoryAccessAlignedMask)) a = in->ops[mask_at + 1];
  else if (prep_type(s, type_id)) a = prep_type(s, type_id)->align;
  uint8_t k = 0;
  while (k < 31 && ((uint64_t)2 << k) <= a) k++;
  return k;
}

/* A Function-storage variable's address is a constant set up by ex_prepare; an initializer becomes
 * a store. */
static bool variable(prep *s, const ld_insn *in) {
  if (in->nops < 2) return true;
  uint32_t init, ptr = prep_dst(s, in);
  if (!prep_operand(s, in->ops[1], &init)) return false;
  const ld_type *pt = prep_type(s, in->type);
  const ld_type *vt = pt ? prep_type(s, pt->elem) : NULL;
  if (!vt) return prep_fail(s, "variable of unknown type");
  prep_emit(s, (ex_insn){.op = EX_STORE, .a = ptr, .b = init, .c = vt->reg_size});
  return true;
}

static bool load(prep *s, const ld_insn *in) {
  /* a whole built-in variable: computed in registers (EX_BUILTIN; flags unused, a = the builtin) */
  const struct ex_builtin_var *bv = in->nops >= 1 && in->ops[0] < s->m->bound ? prep_builtin_var(s, in->ops[0]) : NULL;
  if (bv && prep_reg_size(s, in->type) == bv->elem_bytes * bv->ncomp) {
    prep_emit(s, (ex_insn){.op = EX_BUILTIN,
                           .n = (uint8_t)bv->ncomp,
                           .d = prep_dst(s, in),
                           .a = bv->builtin,
                           .c = bv->elem_bytes});
    return true;
  }
  uint32_t r[1];
  if (!prep_operands(s, in, 1, r)) return false;
  uint32_t sz = prep_reg_size(s, in->type);
  prep_emit(s, (ex_insn){.op = sz == 4   ? EX_LOAD_4
                               : sz == 8 ? EX_LOAD_8
                                         : EX_LOAD,
                         .flags = access_align_log2(s, in, 1, in->type),
                         .d = prep_dst(s, in),
                         .a = r[0],
                         .c = sz});
  return true;
}

static bool store(prep *s, const ld_insn *in) {
  uint32_t r[2];
  if (!prep_operands(s, in, 2, r)) return false;
  uint32_t vt = s->m->ids[in->ops[1]].type;
  uint32_t sz = prep_reg_size(s, vt);
  prep_emit(s, (ex_insn){.op = sz == 4   ? EX_STORE_4
                               : sz == 8 ? EX_STORE_8
                                         : EX_STORE,
                         .flags = access_align_log2(s, in, 2, vt),
                         .a = r[0],
                         .b = r[1],
                         .c = sz});
  return true;
}

static bool copy_memory(prep *s, const ld_insn *in) {
  uint32_t r[3];
  if (in->opcode == SpvOpCopyMemorySized) {
    prep_elem se;
    if (!prep_operands(s, in, 3, r) || !prep_elem_of(s, s->m->ids[in->ops[2]].type, &se)) return false;
    prep_emit(s, (ex_insn){.op = EX_COPYMEM_SIZED, .flags = (uint8_t)(se.bits / 8), .a = r[0], .b = r[1], .c = r[2]});
    return true;
  }
  if (!prep_operands(s, in, 2, r)) return false;
  const ld_type *pt = prep_type(s, s->m->ids[in->ops[0]].type);
  const ld_type *vt = pt ? prep_type(s, pt->elem) : NULL;
  if (!vt || !vt->size) return prep_fail(s, "OpCopyMemory through a pointer to a type without size");
  prep_emit(s, (ex_insn){.op = EX_COPYMEM, .a = r[0], .b = r[1], .c = vt->size});
  return true;
}

/* A constant access chain index, sign-extended (indexes are signed, SPIR-V 3.32.8). */
static int64_t const_index(const ld_const *c, uint32_t bits) {
  if (bits == 64) {
    int64_t v;
    memcpy(&v, c->bytes, 8);
    return v;
  }
  if (bits == 32) {
    int32_t x;
    memcpy(&x, c->bytes, 4);
    return x;
  }
  if (bits == 16) {
    int16_t x;
    memcpy(&x, c->bytes, 2);
    return x;
  }
  int8_t x;
  memcpy(&x, c->bytes, 1);
  return x;
}

/* The index checks of an access chain (EX_ACCESS_CHECK): per array step that needs one, the index
 * register, its bytes, the array length and the index's position in the chain. */
#define CHAIN_CHECKS_MAX 32
typedef struct chain_checks {
  int deref;      /* the chain's result is dereferenced in its block: 1, 0, -1 not known yet */
  bool zero_run;  /* every index so far added nothing: the address is still the base pointer */
  uint32_t depth; /* indexes so far into the pointee (the Element of a Ptr form not counted) */
  uint32_t n;
  uint32_t w[CHAIN_CHECKS_MAX][4];
} chain_checks;

static bool dereferenced_here(prep *s, const ld_insn *in);

/* Whether u continues access chain `base` into the same object: a chain on its result that adds
 * no pointer arithmetic (no Element, or the constant 0), so that u's pointer lies in base's. */
static bool continues(prep *s, const ld_insn *u, uint32_t base) {
  const bool ptr_form = u->opcode == SpvOpPtrAccessChain || u->opcode == SpvOpInBoundsPtrAccessChain;
  if (!ptr_form && u->opcode != SpvOpAccessChain && u->opcode != SpvOpInBoundsAccessChain) return false;
  if (u->nops < 1 || u->ops[0] != base) return false;
  if (!ptr_form) return true;
  const uint32_t e = u->nops >= 2 ? u->ops[1] : 0;
  prep_elem ie;
  return e < s->m->bound && s->m->ids[e].kind == LD_ID_CONST && prep_elem_of(s, s->m->ids[e].type, &ie) &&
         ie.kind == 'i' && const_index(&s->m->consts[s->m->ids[e].index], ie.bits) == 0;
}

/* Whether the result of access chain `in` is dereferenced (loaded, stored, copied, atomically
 * accessed), directly or through a chain that continues it, in its own block: then every execution
 * of the chain is followed by that access, as a block has no control flow inside (SPIR-V 2.2.5). */
static bool dereferenced_here(prep *s, const ld_insn *in) {
  const ld_insn *end = s->fn->insns + s->fn->ninsns;
  for (const ld_insn *u = in + 1; u < end; u++) {
    if (continues(s, u, in->result) && dereferenced_here(s, u)) return true;
    switch (u->opcode) {
    case SpvOpLabel:
    case SpvOpBranch:
    case SpvOpBranchConditional:
    case SpvOpSwitch:
    case SpvOpReturn:
    case SpvOpReturnValue:
    case SpvOpUnreachable:
    case SpvOpKill: return false;
    case SpvOpCopyMemory:
      if (u->nops >= 2 && u->ops[1] == in->result) return true;
      /* fall through */
    case SpvOpLoad:
    case SpvOpStore:
      if (u->nops >= 1 && u->ops[0] == in->result) return true;
      break;
    default:
      if (u->opcode >= SpvOpAtomicLoad && u->opcode <= SpvOpAtomicXor && u->nops >= 1 && u->ops[0] == in->result)
        return true;
      break;
    }
  }
  return false;
}

/* A step through an array of `len` elements: C99 6.5.6p8 makes an index outside [0, len) undefined
 * even where the memory is another member of the same object (J.2: "an array subscript is out of
 * range, even if an object is apparently accessible with the given subscript"), and len itself
 * forms the pointer one past the end, which must not be dereferenced. A chain is checked only when
 * its result is dereferenced in its own block (chain_checks.deref, dereferenced_here): forming a
 * pointer is not an access, and producers hoist address computations onto paths where the access
 * does not happen (LLVM: an out-of-range inbounds GEP is poison, not undefined, so computing it
 * early is allowed). Nor is an array reached from the base pointer through zero indexes only
 * (`s, 0, 0, i` into the first member of a struct, `m, 0, 0, i` into the first row): producers
 * write a flat view of an object from its start (`((int *)s)[i]`, `(&m[0][0])[i]`) that way
 * (LLVM's InstCombine turns `gep i32, bitcast s, i` into it), which only the bounds of the whole
 * variable or buffer can judge. A constant index in range needs no run-time check. Arrays of
 * length 0 (a flexible array member as some producers write it) have no bound to check. */
static bool array_check(prep *s, const ld_insn *in, uint32_t pos, uint32_t len, const prep_elem *ie, chain_checks *ck) {
  const uint32_t idx = in->ops[pos];
  if (len == 0 || (ck->zero_run && ck->depth > 0)) return true;
  if (ck->deref < 0) ck->deref = dereferenced_here(s, in); /* (only chains with an array step) */
  if (!ck->deref) return true;
  const ld_module *m = s->m;
  if (idx < m->bound && m->ids[idx].kind == LD_ID_CONST) {
    const int64_t v = const_index(&m->consts[m->ids[idx].index], ie->bits);
    if (v >= 0 && (uint64_t)v < len) return true;
  }
  if (ck->n == CHAIN_CHECKS_MAX) return prep_fail(s, "access chain with more than %u array steps", CHAIN_CHECKS_MAX);
  uint32_t reg;
  if (!prep_operand(s, idx, &reg)) return false;
  uint32_t *w = ck->w[ck->n++];
  w[0] = reg;
  w[1] = ie->bits / 8;
  w[2] = len;
  w[3] = pos;
  return true;
}

/* Add constant index i times `stride` to the chain's constant offset *coff when the sum stays
 * below 2^62 in magnitude, computed exactly. Otherwise the index becomes a run-time term like a
 * variable one, whose exact computation faults when the chain runs (ex_exec.c chain_wrap: the
 * pointer would leave its allocation's range, or wrap, as p[2^62 + 1] of 4-byte elements is p[1]
 * modulo 2^64); a chain that never runs is no error. The bound keeps EX_ACCESS_CHECK's fast path
 * exact (ex_exec.c). */
static bool const_offset(int64_t *coff, int64_t i, uint64_t stride) {
  const int64_t lim = (int64_t)1 << 62;
  int64_t t, sum;
  if (stride > (uint64_t)INT64_MAX || __builtin_mul_overflow(i, (int64_t)stride, &t) ||
      __builtin_add_overflow(*coff, t, &sum) || sum >= lim || sum <= -lim)
    return false;
  *coff = sum;
  return true;
}

/* One index of an access chain into type `cur` (the Element of a Ptr form when `element`): a
 * struct member adds its offset to *coff, a constant index its multiple of the stride (const_offset),
 * and a variable index becomes a term (register, bytes, stride) in aux; *cur becomes the indexed type.
 * An array step adds its index check to ck (array_check). */
static bool chain_index(prep *s, const ld_insn *in, uint32_t pos, bool element, uint32_t *cur, int64_t *coff,
                        uint32_t *nterms, chain_checks *ck) {
  const uint32_t idx = in->ops[pos];
  const ld_module *m = s->m;
  const ld_type *t = prep_type(s, *cur);
  if (!t) return prep_fail(s, "access chain through an unknown type");
  uint64_t stride;
  uint32_t next = *cur;
  bool is_const = idx < m->bound && m->ids[idx].kind == LD_ID_CONST;
  if (element) {
    stride = t->size; /* Element: steps over whole pointees */
  } else if (t->kind == LD_TY_STRUCT) {
    if (!is_const) return prep_fail(s, "struct member index must be a constant");
    uint32_t mi;
    memcpy(&mi, m->consts[m->ids[idx].index].bytes, 4);
    if (mi >= t->count) return prep_fail(s, "struct member index %u out of range", mi);
    *coff += t->offsets[mi];
    *cur = t->members[mi];
    ck->zero_run = ck->zero_run && t->offsets[mi] == 0;
    ck->depth++;
    return true;
  } else if (t->kind == LD_TY_ARRAY || t->kind == LD_TY_RUNTIME_ARRAY || t->kind == LD_TY_VECTOR) {
    const ld_type *et = prep_type(s, t->elem);
    if (!et) return prep_fail(s, "bad element type");
    stride = et->size;
    next = t->elem;
  } else {
    return prep_fail(s, "access chain indexes into a scalar");
  }
  prep_elem ie;
  if (!prep_elem_of(s, m->ids[idx].type, &ie) || ie.kind != 'i')
    return prep_fail(s, "access chain index is not an integer");
  if (!element && t->kind == LD_TY_ARRAY && !array_check(s, in, pos, t->count, &ie, ck)) return false;
  ck->zero_run = ck->zero_run && is_const && const_index(&m->consts[m->ids[idx].index], ie.bits) == 0;
  if (!element) ck->depth++;
  if (!is_const || !const_offset(coff, const_index(&m->consts[m->ids[idx].index], ie.bits), stride)) {
    uint32_t reg;
    if (!prep_operand(s, idx, &reg)) return false;
    prep_aux(s, reg);
    prep_aux(s, ie.bits / 8);
    prep_aux(s, (uint32_t)stride);
    if (stride > 0xFFFFFFFFu) return prep_fail(s, "element of %llu bytes is too large", (unsigned long long)stride);
    (*nterms)++;
  }
  *cur = next;
  return true;
}

/* Op[InBounds][Ptr]AccessChain: EX_ACCESS, or EX_ACCESS1_* for the common p + i. */
static bool access_chain(prep *s, const ld_insn *in) {
  const bool ptr_form = in->opcode == SpvOpPtrAccessChain || in->opcode == SpvOpInBoundsPtrAccessChain;
  uint32_t r[1];
  if (!prep_operands(s, in, 1, r)) return false;
  const ld_type *pt = prep_type(s, s->m->ids[in->ops[0]].type);
  if (!pt || pt->kind != LD_TY_POINTER) return prep_fail(s, "access chain base is not a pointer");
  uint32_t cur = pt->elem, nterms = 0;
  int64_t coff = 0;
  uint32_t a = prep_aux(s, 0);
  prep_aux(s, 0);
  prep_aux(s, 0);
  chain_checks ck = {.deref = -1, .zero_run = true, .depth = 0, .n = 0};
  for (uint32_t i = 1; i < in->nops; i++)
    if (!chain_index(s, in, i, ptr_form && i == 1, &cur, &coff, &nterms, &ck)) return false;
  s->aux[a] = (uint32_t)((uint64_t)coff & 0xFFFFFFFFu);
  s->aux[a + 1] = (uint32_t)((uint64_t)coff >> 32);
  s->aux[a + 2] = nterms;
  if (ck.n) { /* some array step needs its index checked: the checks follow the terms */
    prep_aux(s, ck.n);
    for (uint32_t k = 0; k < ck.n; k++)
      for (unsigned j = 0; j < 4; j++) prep_aux(s, ck.w[k][j]);
    prep_emit(s, (ex_insn){.op = EX_ACCESS_CHECK, .d = prep_dst(s, in), .a = r[0], .b = a});
    return true;
  }
  if (nterms == 1 && coff == 0 && (s->aux[a + 4] == 4 || s->aux[a + 4] == 8)) {
    /* the common shape p + i (pointer plus one index): base, index register, element size;
     * flags: log2 of the element size when it is a power of two (a shift vectorises; a 64-bit
     * multiply does not without AVX-512), else 0xFF */
    const uint32_t es = s->aux[a + 5];
    uint8_t sh = 0xFF;
    if (es && !(es & (es - 1))) sh = (uint8_t)__builtin_ctz(es);
    prep_emit(s, (ex_insn){.op = s->aux[a + 4] == 8 ? EX_ACCESS1_I64 : EX_ACCESS1_I32,
                           .flags = sh,
                           .d = prep_dst(s, in),
                           .a = r[0],
                           .b = s->aux[a + 3],
                           .c = es});
    return true;
  }
  prep_emit(s, (ex_insn){.op = EX_ACCESS, .d = prep_dst(s, in), .a = r[0], .b = a});
  return true;
}

/* Pointer <-> integer conversions, casts, comparisons and differences. */
static bool pointer_op(prep *s, const ld_insn *in) {
  const ld_module *m = s->m;
  const uint32_t op = in->opcode;
  const unsigned arity = op == SpvOpPtrEqual || op == SpvOpPtrNotEqual || op == SpvOpPtrDiff ? 2 : 1;
  uint32_t r[2];
  prep_elem e;
  if (!prep_operands(s, in, arity, r)) return false;
  switch (op) {
  case SpvOpConvertPtrToU:
  case SpvOpConvertUToPtr:
    /* n: the integer's bytes */
    if (!prep_elem_of(s, op == SpvOpConvertPtrToU ? in->type : m->ids[in->ops[0]].type, &e)) return false;
    prep_emit(s, (ex_insn){.op = op == SpvOpConvertPtrToU ? EX_PTR2U : EX_U2PTR,
                           .n = (uint8_t)(e.bits / 8),
                           .d = prep_dst(s, in),
                           .a = r[0]});
    return true;
  case SpvOpPtrCastToGeneric:
  case SpvOpGenericCastToPtr:
    prep_emit(s, (ex_insn){.op = EX_MOVE, .d = prep_dst(s, in), .a = r[0], .c = m->pointer_bytes});
    return true;
  case SpvOpGenericCastToPtrExplicit: {
    uint8_t space;
    if (in->nops < 2 || !prep_storage_space(in->ops[1], &space))
      return prep_fail(s, "unsupported storage class in cast");
    prep_emit(s, (ex_insn){.op = EX_GEN2PTR, .d = prep_dst(s, in), .a = r[0], .b = space});
    return true;
  }
  case SpvOpGenericPtrMemSemantics:
    prep_emit(s, (ex_insn){.op = EX_GENSEM, .d = prep_dst(s, in), .a = r[0]});
    return true;
  case SpvOpPtrEqual:
  case SpvOpPtrNotEqual:
    prep_emit(s,
              (ex_insn){.op = op == SpvOpPtrEqual ? EX_PTREQ : EX_PTRNE, .d = prep_dst(s, in), .a = r[0], .b = r[1]});
    return true;
  default: { /* OpPtrDiff */
    const ld_type *pt = prep_type(s, m->ids[in->ops[0]].type);
    const ld_type *vt = pt ? prep_type(s, pt->elem) : NULL;
    if (!vt || !vt->size || !prep_elem_of(s, in->type, &e))
      return prep_fail(s, "OpPtrDiff of pointers to a type without size");
    prep_emit(s, (ex_insn){.op = EX_PTRDIFF,
                           .n = (uint8_t)(e.bits / 8),
                           .d = prep_dst(s, in),
                           .a = r[0],
                           .b = r[1],
                           .c = vt->size});
    return true;
  }
  }
}

/* ---- atomics ------------------------------------------------------------------------------------ */

/* A constant scope or memory-semantics operand (SPIR-V 3.27, 3.25), checked for validity. */
static bool atomic_const(prep *s, uint32_t id, bool semantics) {
  const ld_module *m = s->m;
  if (id >= m->bound || m->ids[id].kind != LD_ID_CONST)
    return prep_fail(s, "the %s operand %%%u of an atomic must be a constant", semantics ? "memory semantics" : "scope",
                     id);
  uint32_t v;
  memcpy(&v, m->consts[m->ids[id].index].bytes, 4);
  if (!semantics) {
    if (v > SpvScopeInvocation) return prep_fail(s, "atomic scope %u is not a scope", v);
    return true;
  }
  /* at most one of Acquire, Release, AcquireRelease, SequentiallyConsistent */
  uint32_t order = v & (SpvMemorySemanticsAcquireMask | SpvMemorySemanticsReleaseMask |
                        SpvMemorySemanticsAcquireReleaseMask | SpvMemorySemanticsSequentiallyConsistentMask);
  if (order & (order - 1)) return prep_fail(s, "atomic memory semantics 0x%x name more than one ordering", v);
  return true;
}

static const struct {
  uint16_t op;
  uint8_t kind, nvalues;
} atomics[] = {
  {SpvOpAtomicLoad, EX_AT_LOAD, 0},
  {SpvOpAtomicStore, EX_AT_STORE, 1},
  {SpvOpAtomicExchange, EX_AT_XCHG, 1},
  {SpvOpAtomicCompareExchange, EX_AT_CMPXCHG, 2},
  {SpvOpAtomicCompareExchangeWeak, EX_AT_CMPXCHG, 2},
  {SpvOpAtomicIIncrement, EX_AT_INC, 0},
  {SpvOpAtomicIDecrement, EX_AT_DEC, 0},
  {SpvOpAtomicIAdd, EX_AT_ADD, 1},
  {SpvOpAtomicISub, EX_AT_SUB, 1},
  {SpvOpAtomicSMin, EX_AT_SMIN, 1},
  {SpvOpAtomicUMin, EX_AT_UMIN, 1},
  {SpvOpAtomicSMax, EX_AT_SMAX, 1},
  {SpvOpAtomicUMax, EX_AT_UMAX, 1},
  {SpvOpAtomicAnd, EX_AT_AND, 1},
  {SpvOpAtomicOr, EX_AT_OR, 1},
  {SpvOpAtomicXor, EX_AT_XOR, 1},
  {SpvOpAtomicFlagTestAndSet, EX_AT_FLAG_SET, 0},
  {SpvOpAtomicFlagClear, EX_AT_FLAG_CLEAR, 0},
  {SpvOpAtomicFAddEXT, EX_AT_FADD, 1},
  {SpvOpAtomicFMinEXT, EX_AT_FMIN, 1},
  {SpvOpAtomicFMaxEXT, EX_AT_FMAX, 1},
};

/* The element type an atomic works on (*vt): 32- and 64-bit integers and floats, with the kinds of
 * operation each allows. */
static bool atomic_value_type(prep *s, const ld_insn *in, uint8_t kind, const ld_type **vt) {
  const ld_type *pt = prep_type(s, s->m->ids[in->ops[0]].type);
  const ld_type *t = pt && pt->kind == LD_TY_POINTER ? prep_type(s, pt->elem) : NULL;
  if (!t || (t->kind != LD_TY_INT && t->kind != LD_TY_FLOAT) || (t->size != 4 && t->size != 8))
    return prep_fail(s, "atomics work on 32- and 64-bit integers and floats");
  const bool fop = kind == EX_AT_FADD || kind == EX_AT_FMIN || kind == EX_AT_FMAX;
  if (t->kind == LD_TY_FLOAT && !fop && kind != EX_AT_LOAD && kind != EX_AT_STORE && kind != EX_AT_XCHG)
    return prep_fail(s, "integer atomic on a float");
  if (t->kind != LD_TY_FLOAT && fop) return prep_fail(s, "float atomic on an integer");
  *vt = t;
  return true;
}

/* OpAtomic* (SPIR-V 3.32.18): executed sequentially consistent, lane by lane in lane order. */
static bool atomic(prep *s, const ld_insn *in, unsigned k) {
  const uint8_t kind = atomics[k].kind;
  /* operands: pointer, scope, semantics [, unequal semantics for compare-exchange], values */
  const unsigned nsem = kind == EX_AT_CMPXCHG ? 2 : 1;
  const unsigned want = 2 + nsem + atomics[k].nvalues;
  if (in->nops != want) return prep_fail(s, "atomic with %u operands, expects %u", in->nops, want);
  if (!atomic_const(s, in->ops[1], false)) return false;
  for (unsigned i = 0; i < nsem; i++)
    if (!atomic_const(s, in->ops[2 + i], true)) return false;
  uint32_t ptr, v1 = LD_NONE, v2 = LD_NONE;
  if (!prep_operand(s, in->ops[0], &ptr)) return false;
  if (atomics[k].nvalues >= 1 && !prep_operand(s, in->ops[2 + nsem], &v1)) return false;
  if (atomics[k].nvalues >= 2 && !prep_operand(s, in->ops[3 + nsem], &v2)) return false;
  const ld_type *vt = NULL;
  if (!atomic_value_type(s, in, kind, &vt)) return false;
  const ld_type *rt = in->type ? prep_type(s, in->type) : NULL;
  uint32_t d = rt && rt->kind != LD_TY_VOID ? prep_dst(s, in) : LD_NONE;
  /* n: bit 0 float, bits 1..4 the size */
  const uint8_t n = (uint8_t)((vt->kind == LD_TY_FLOAT ? 1 : 0) | vt->size << 1);
  prep_emit(s,
            (ex_insn){.op = EX_ATOMIC, .n = n, .flags = kind, .d = d, .a = ptr, .b = v1, .c = v2 == LD_NONE ? 0 : v2});
  return true;
}

prep_result prep_memory(prep *s, const ld_insn *in) {
  switch (in->opcode) {
  case SpvOpVariable: return prep_done(variable(s, in));
  case SpvOpLoad: return prep_done(load(s, in));
  case SpvOpStore: return prep_done(store(s, in));
  case SpvOpCopyMemory:
  case SpvOpCopyMemorySized: return prep_done(copy_memory(s, in));
  case SpvOpAccessChain:
  case SpvOpInBoundsAccessChain:
  case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain: return prep_done(access_chain(s, in));
  case SpvOpConvertPtrToU:
  case SpvOpConvertUToPtr:
  case SpvOpPtrCastToGeneric:
  case SpvOpGenericCastToPtr:
  case SpvOpGenericCastToPtrExplicit:
  case SpvOpGenericPtrMemSemantics:
  case SpvOpPtrEqual:
  case SpvOpPtrNotEqual:
  case SpvOpPtrDiff: return prep_done(pointer_op(s, in));
  default:
    for (unsigned k = 0; k < sizeof atomics / sizeof atomics[0]; k++)
      if (atomics[k].op == in->opcode) return prep_done(atomic(s, in, k));
    return PREP_NEXT;
  }
}
