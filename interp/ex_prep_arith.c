/*
 * ex_prep_arith.c — the translation of arithmetic, logic, comparisons and conversions (SPIR-V
 * 3.32.11 - 3.32.15): the typed families of ex_ops.h's EX_OPS_SELECTED, OpSelect, the conversions,
 * OpBitCount and the wide arithmetic into structs.
 */
#include <spirv/unified1/spirv.h>

#include "ex_prep.h"

/* Shift may have another width than Base (SPIR-V 3.32.15): bring it to Base's width in a temporary
 * register (the count is taken modulo the width, which truncation preserves). */
static bool shift_count(prep *s, const ld_insn *in, const prep_elem *e, uint32_t *count) {
  prep_elem se;
  if (!prep_elem_of(s, s->m->ids[in->ops[1]].type, &se) || se.kind != 'i')
    return prep_fail(s, "shift count is not an integer");
  if (se.n != e->n) return prep_fail(s, "shift count has %u components, base %u", se.n, e->n);
  if (se.bits != e->bits) {
    uint32_t t = prep_const(s, NULL, e->n * e->bits / 8);
    prep_emit(s, (ex_insn){.op = EX_CONVERT,
                           .n = (uint8_t)e->n,
                           .d = t,
                           .a = *count,
                           .b = (EX_CK_UINT << 8) | se.bits,
                           .c = (EX_CK_UINT << 8) | e->bits});
    *count = t;
  }
  return true;
}

/* An opcode of EX_OPS_SELECTED: the handler its table row gives for the first operand's element
 * type; integer and float families need an element of their kind and a width they have. */
static bool selected(prep *s, const ld_insn *in, unsigned variants) {
  const uint32_t op = in->opcode;
  /* every variant has the same operands: b is a register for the two-operand ones */
  ex_op h = ex_op_select(op, (ex_variant)__builtin_ctz(variants));
  const unsigned arity = ex_op_infos[h].shape[EX_SH_B] == 'r' ? 2 : 1;
  uint32_t r[2];
  prep_elem e;
  if (!prep_operands(s, in, arity, r)) return false;
  if (!prep_elem_of(s, s->m->ids[in->ops[0]].type, &e)) return false;
  if (variants & EX_VARIANTS_INT) {
    h = e.kind == 'i' ? ex_op_select(op, ex_variant_int(e.bits)) : EX_OP_COUNT;
    if (h == EX_OP_COUNT) return prep_fail(s, "integer operation on a non-integer operand");
    if ((op == SpvOpShiftLeftLogical || op == SpvOpShiftRightLogical || op == SpvOpShiftRightArithmetic) &&
        !shift_count(s, in, &e, &r[1]))
      return false;
  } else if (variants & EX_VARIANTS_FLT) {
    h = e.kind == 'f' ? ex_op_select(op, ex_variant_float(e.bits)) : EX_OP_COUNT;
    if (h == EX_OP_COUNT) return prep_fail(s, "float operation on a non-float operand");
  }
  prep_emit(s, (ex_insn){
                 .op = (uint16_t)h, .n = (uint8_t)e.n, .d = prep_dst(s, in), .a = r[0], .b = arity > 1 ? r[1] : 0});
  return true;
}

static bool select_(prep *s, const ld_insn *in) {
  uint32_t r[3];
  if (!prep_operands(s, in, 3, r)) return false;
  const ld_type *rt = prep_type(s, in->type);
  prep_elem ce, e;
  if (!rt || !prep_elem_of(s, s->m->ids[in->ops[0]].type, &ce)) return false;
  uint32_t esize, n;
  bool scalar_cond = ce.n == 1;
  if (rt->kind == LD_TY_VECTOR || rt->kind == LD_TY_INT || rt->kind == LD_TY_FLOAT || rt->kind == LD_TY_BOOL ||
      rt->kind == LD_TY_POINTER) {
    if (!prep_elem_of(s, in->type, &e)) return false;
    esize = e.bits / 8;
    n = e.n;
    if (!scalar_cond && ce.n != n) return prep_fail(s, "OpSelect condition has %u components, result %u", ce.n, n);
  } else {
    if (!scalar_cond) return prep_fail(s, "OpSelect of an aggregate needs a scalar condition");
    esize = 1;
    n = rt->reg_size;
    if (n > 255) return prep_fail(s, "OpSelect of a %u-byte aggregate is not supported", n);
  }
  uint16_t h = esize == 1 ? EX_SELECT_1 : esize == 2 ? EX_SELECT_2 : esize == 4 ? EX_SELECT_4 : EX_SELECT_8;
  prep_emit(s,
            (ex_insn){
              .op = h, .n = (uint8_t)n, .flags = scalar_cond, .d = prep_dst(s, in), .a = r[0], .b = r[1], .c = r[2]});
  return true;
}

/* EX_CONVERT's flags: saturation (the Sat opcodes, SaturatedConversion) and FPRoundingMode
 * (SPIR-V 3.16; OpenCL C 6.4.3 convert_T_rte/rtz/rtp/rtn). */
static bool convert_flags(prep *s, const ld_insn *in, uint8_t *flags) {
  const ld_module *m = s->m;
  *flags = 0;
  if (in->opcode == SpvOpSatConvertSToU || in->opcode == SpvOpSatConvertUToS) *flags |= EX_CF_SAT;
  if (ld_find_decoration(m, in->result, SpvDecorationSaturatedConversion)) *flags |= EX_CF_SAT;
  const ld_decoration *rm = ld_find_decoration(m, in->result, SpvDecorationFPRoundingMode);
  uint32_t mode = rm && rm->nargs ? rm->args[0] : LD_NONE;
  if (mode != LD_NONE) {
    if (mode > 3) return prep_fail(s, "FPRoundingMode %u is not a rounding mode", mode);
    *flags |= (uint8_t)(EX_CF_MODE_SHIFT_VAL(mode + 1));
  }
  return true;
}

static bool convert(prep *s, const ld_insn *in) {
  const uint32_t op = in->opcode;
  uint32_t r[1];
  if (!prep_operands(s, in, 1, r)) return false;
  prep_elem se, de;
  if (!prep_elem_of(s, s->m->ids[in->ops[0]].type, &se) || !prep_elem_of(s, in->type, &de)) return false;
  bool src_signed = op == SpvOpConvertSToF || op == SpvOpSConvert || op == SpvOpSatConvertSToU;
  bool dst_signed = op == SpvOpConvertFToS || op == SpvOpSConvert || op == SpvOpSatConvertUToS;
  uint32_t sk = se.kind == 'f' ? EX_CK_FLOAT : src_signed ? EX_CK_SINT : EX_CK_UINT;
  uint32_t dk = de.kind == 'f' ? EX_CK_FLOAT : dst_signed ? EX_CK_SINT : EX_CK_UINT;
  uint8_t flags;
  if (!convert_flags(s, in, &flags)) return false;
  if (se.n != de.n) return prep_fail(s, "conversion between vectors of different sizes");
  /* the index conversions every kernel does (int <-> size_t) get typed handlers */
  if (!(flags & EX_CF_SAT) && sk != EX_CK_FLOAT && dk != EX_CK_FLOAT) {
    uint16_t h = 0;
    if (se.bits == 32 && de.bits == 64) h = sk == EX_CK_SINT ? EX_SEXT_I32_I64 : EX_ZEXT_I32_I64;
    else if (se.bits == 64 && de.bits == 32) h = EX_TRUNC_I64_I32;
    if (h) {
      prep_emit(s, (ex_insn){.op = h, .n = (uint8_t)de.n, .d = prep_dst(s, in), .a = r[0]});
      return true;
    }
  }
  prep_emit(s, (ex_insn){.op = EX_CONVERT,
                         .n = (uint8_t)de.n,
                         .flags = flags,
                         .d = prep_dst(s, in),
                         .a = r[0],
                         .b = (sk << 8) | se.bits,
                         .c = (dk << 8) | de.bits});
  return true;
}

static bool bit_count(prep *s, const ld_insn *in) {
  uint32_t r[1];
  if (!prep_operands(s, in, 1, r)) return false;
  prep_elem e, re;
  if (!prep_elem_of(s, s->m->ids[in->ops[0]].type, &e) || !prep_elem_of(s, in->type, &re) || e.kind != 'i' ||
      re.kind != 'i' || e.n != re.n)
    return prep_fail(s, "OpBitCount needs integer operands with as many components as the result");
  prep_emit(s, (ex_insn){.op = EX_BITCOUNT,
                         .n = (uint8_t)e.n,
                         .flags = (uint8_t)(e.bits / 8),
                         .d = prep_dst(s, in),
                         .a = r[0],
                         .c = re.bits / 8});
  return true;
}

/* OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended: the result is struct { T low; T
 * high-or-carry; } (SPIR-V 3.32.13). */
static bool carry(prep *s, const ld_insn *in) {
  const uint32_t op = in->opcode;
  uint32_t r[2];
  prep_elem e;
  if (!prep_operands(s, in, 2, r)) return false;
  const ld_type *st = prep_type(s, in->type);
  if (!st || st->kind != LD_TY_STRUCT || st->count != 2 || !prep_elem_of(s, s->m->ids[in->ops[0]].type, &e) ||
      e.kind != 'i')
    return prep_fail(s, "expects integer operands and a two-member struct result");
  uint8_t kind = op == SpvOpIAddCarry ? 0 : op == SpvOpISubBorrow ? 1 : op == SpvOpUMulExtended ? 2 : 3;
  prep_emit(s, (ex_insn){.op = EX_CARRY,
                         .n = (uint8_t)e.n,
                         .flags = kind,
                         .d = prep_dst(s, in),
                         .a = r[0],
                         .b = r[1],
                         .c = (e.bits / 8) | (st->offsets[1] << 8) | (st->reg_size << 16)});
  return true;
}

prep_result prep_arith(prep *s, const ld_insn *in) {
  const unsigned variants = ex_op_variants(in->opcode);
  if (variants) return prep_done(selected(s, in, variants));
  switch (in->opcode) {
  case SpvOpSelect: return prep_done(select_(s, in));
  case SpvOpConvertFToU:
  case SpvOpConvertFToS:
  case SpvOpConvertSToF:
  case SpvOpConvertUToF:
  case SpvOpUConvert:
  case SpvOpSConvert:
  case SpvOpFConvert:
  case SpvOpSatConvertSToU:
  case SpvOpSatConvertUToS: return prep_done(convert(s, in));
  case SpvOpBitCount: return prep_done(bit_count(s, in));
  case SpvOpIAddCarry:
  case SpvOpISubBorrow:
  case SpvOpUMulExtended:
  case SpvOpSMulExtended: return prep_done(carry(s, in));
  default: return PREP_NEXT;
  }
}
