/*
 * ex_prep_comp.c — the translation of copies, composites and vectors (SPIR-V 3.32.12 Composite
 * instructions, OpBitcast, OpCopyObject): registers hold aggregates at their byte offsets, so these
 * become moves of byte ranges.
 */
#include <spirv/unified1/spirv.h>

#include "ex_prep.h"

/* Byte offset and type reached by walking literal composite indexes from `type_id`. */
static bool walk_literal(prep *s, uint32_t type_id, const uint32_t *idx, unsigned n, uint32_t *off,
                         uint32_t *out_type) {
  uint32_t o = 0;
  for (unsigned i = 0; i < n; i++) {
    const ld_type *t = prep_type(s, type_id);
    if (!t) return prep_fail(s, "composite index into a non-type");
    if (t->kind == LD_TY_STRUCT) {
      if (idx[i] >= t->count) return prep_fail(s, "member index %u out of range", idx[i]);
      o += t->offsets[idx[i]];
      type_id = t->members[idx[i]];
    } else if (t->kind == LD_TY_ARRAY || t->kind == LD_TY_VECTOR) {
      if (idx[i] >= t->count) return prep_fail(s, "element index %u out of range (%u elements)", idx[i], t->count);
      const ld_type *e = prep_type(s, t->elem);
      if (!e) return prep_fail(s, "bad element type");
      o += idx[i] * (t->kind == LD_TY_VECTOR ? e->reg_size : e->size);
      type_id = t->elem;
    } else {
      return prep_fail(s, "composite index into a scalar");
    }
  }
  *off = o;
  *out_type = type_id;
  return true;
}

/* OpBitcast, OpCopyObject, OpCopyLogical: the bytes as they are. OpExpectKHR Value ExpectedValue
 * (SPV_KHR_expect_assume): "Result is the value of Value", of Result Type; ExpectedValue is a hint. */
static bool move(prep *s, const ld_insn *in) {
  uint32_t r[1];
  if (!prep_operands(s, in, 1, r)) return false;
  uint32_t dsz = prep_reg_size(s, in->type);
  /* scalar and vector types are declared once (SPIR-V 2.8), so the same type is the same id */
  if (in->opcode == SpvOpExpectKHR &&
      (in->nops != 2 || in->ops[1] >= s->m->bound || s->m->ids[in->ops[0]].type != in->type ||
       s->m->ids[in->ops[1]].type != in->type))
    return prep_fail(s, "OpExpectKHR operands must both have the Result Type");
  if (in->opcode == SpvOpBitcast) {
    uint32_t ssz = prep_reg_size(s, s->m->ids[in->ops[0]].type);
    if (ssz != dsz) return prep_fail(s, "OpBitcast between types of %u and %u bytes", ssz, dsz);
    /* a pointer as an integer or an integer vector (uint2) or back: the pointer's integer value,
     * as OpConvertPtrToU and OpConvertUToPtr give it (ex.h "Pointers"), in little-endian bytes */
    const ld_type *st = prep_type(s, s->m->ids[in->ops[0]].type), *dt = prep_type(s, in->type);
    if (st && dt && (st->kind == LD_TY_POINTER) != (dt->kind == LD_TY_POINTER)) {
      prep_emit(s, (ex_insn){.op = dt->kind == LD_TY_POINTER ? EX_U2PTR : EX_PTR2U,
                             .n = (uint8_t)dsz,
                             .d = prep_dst(s, in),
                             .a = r[0]});
      return true;
    }
  }
  prep_emit(s, (ex_insn){.op = EX_MOVE, .d = prep_dst(s, in), .a = r[0], .c = dsz});
  return true;
}

static bool extract(prep *s, const ld_insn *in) {
  uint32_t r[1], off, rtid;
  if (!prep_operands(s, in, 1, r)) return false;
  const uint32_t ctype = s->m->ids[in->ops[0]].type;
  if (!walk_literal(s, ctype, in->ops + 1, in->nops - 1u, &off, &rtid)) return false;
  uint32_t a = prep_aux(s, off);
  prep_aux(s, prep_reg_size(s, ctype));
  prep_emit(s, (ex_insn){.op = EX_EXTRACT, .d = prep_dst(s, in), .a = r[0], .b = a, .c = prep_reg_size(s, in->type)});
  return true;
}

static bool insert(prep *s, const ld_insn *in) {
  uint32_t r[2], off, rtid;
  if (!prep_operands(s, in, 2, r)) return false;
  if (!walk_literal(s, in->type, in->ops + 2, in->nops - 2u, &off, &rtid)) return false;
  uint32_t a = prep_aux(s, off);
  prep_aux(s, prep_reg_size(s, rtid));
  prep_aux(s, prep_reg_size(s, in->type));
  prep_emit(s, (ex_insn){.op = EX_INSERT, .d = prep_dst(s, in), .a = r[0], .b = r[1], .c = a});
  return true;
}

/* Vectors concatenate their constituents; arrays and structs place each at its offset. */
static bool construct(prep *s, const ld_insn *in) {
  const ld_type *rt = prep_type(s, in->type);
  if (!rt) return prep_fail(s, "bad result type");
  uint32_t a = prep_aux(s, 0);
  uint32_t count = 0;
  for (uint32_t i = 0; i < in->nops; i++) {
    uint32_t reg, off;
    if (!prep_operand(s, in->ops[i], &reg)) return false;
    uint32_t sz = prep_reg_size(s, s->m->ids[in->ops[i]].type);
    if (rt->kind == LD_TY_STRUCT) {
      if (i >= rt->count) return prep_fail(s, "too many constituents");
      off = rt->offsets[i];
    } else if (rt->kind == LD_TY_ARRAY) {
      const ld_type *et = prep_type(s, rt->elem);
      if (!et || i >= rt->count) return prep_fail(s, "too many constituents");
      off = i * et->size;
    } else {
      off = LD_NONE; /* running offset */
    }
    prep_aux(s, reg);
    prep_aux(s, sz);
    prep_aux(s, off);
    count++;
  }
  s->aux[a] = count;
  prep_emit(s, (ex_insn){.op = EX_CONSTRUCT, .d = prep_dst(s, in), .a = a, .c = rt->reg_size});
  return true;
}

static bool vector_extract(prep *s, const ld_insn *in) {
  uint32_t r[2];
  prep_elem ve, ie;
  if (!prep_operands(s, in, 2, r)) return false;
  if (!prep_elem_of(s, s->m->ids[in->ops[0]].type, &ve) || !prep_elem_of(s, s->m->ids[in->ops[1]].type, &ie))
    return false;
  prep_emit(s, (ex_insn){.op = EX_VEXTRACT_DYN,
                         .n = (uint8_t)ve.n,
                         .d = prep_dst(s, in),
                         .a = r[0],
                         .b = r[1],
                         .c = (ve.bits / 8) | ((ie.bits / 8) << 8)});
  return true;
}

static bool vector_insert(prep *s, const ld_insn *in) {
  uint32_t r[3];
  prep_elem ve, ie;
  if (!prep_operands(s, in, 3, r)) return false;
  if (!prep_elem_of(s, in->type, &ve) || !prep_elem_of(s, s->m->ids[in->ops[2]].type, &ie)) return false;
  uint32_t a = prep_aux(s, r[2]);
  prep_aux(s, ve.bits / 8);
  prep_aux(s, ie.bits / 8);
  prep_emit(s, (ex_insn){.op = EX_VINSERT_DYN, .n = (uint8_t)ve.n, .d = prep_dst(s, in), .a = r[0], .b = r[1], .c = a});
  return true;
}

static bool shuffle(prep *s, const ld_insn *in) {
  uint32_t r[2];
  prep_elem v1, v2, re;
  if (!prep_operands(s, in, 2, r)) return false;
  if (!prep_elem_of(s, s->m->ids[in->ops[0]].type, &v1) || !prep_elem_of(s, in->type, &re)) return false;
  if (!prep_elem_of(s, s->m->ids[in->ops[1]].type, &v2)) return false;
  uint32_t a = prep_aux(s, v1.bits / 8);
  prep_aux(s, v1.n);
  prep_aux(s, v2.n);
  for (uint32_t i = 2; i < in->nops; i++) {
    uint32_t c = in->ops[i];
    if (c != 0xFFFFFFFFu && c >= v1.n + v2.n) return prep_fail(s, "OpVectorShuffle component %u out of range", c);
    prep_aux(s, c);
  }
  prep_emit(s, (ex_insn){.op = EX_SHUFFLE, .n = (uint8_t)re.n, .d = prep_dst(s, in), .a = r[0], .b = r[1], .c = a});
  return true;
}

prep_result prep_composite(prep *s, const ld_insn *in) {
  switch (in->opcode) {
  case SpvOpBitcast:
  case SpvOpCopyObject:
  case SpvOpCopyLogical:
  case SpvOpExpectKHR: return prep_done(move(s, in));
  case SpvOpCompositeExtract: return prep_done(extract(s, in));
  case SpvOpCompositeInsert: return prep_done(insert(s, in));
  case SpvOpCompositeConstruct: return prep_done(construct(s, in));
  case SpvOpVectorExtractDynamic: return prep_done(vector_extract(s, in));
  case SpvOpVectorInsertDynamic: return prep_done(vector_insert(s, in));
  case SpvOpVectorShuffle: return prep_done(shuffle(s, in));
  default: return PREP_NEXT;
  }
}
