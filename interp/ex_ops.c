/*
 * ex_ops.c — the tables generated from ex_ops.h's EX_OP_TABLE: what each handler is
 * (ex_op_infos), and the lookup of a handler by SPIR-V opcode and type variant.
 */
#include <spirv/unified1/spirv.h>

#include "ex_ops.h"

/* Opcodes of EX_OPS_SELECTED rows are below this: the lookup is one array index. */
#define SPV_LIMIT 256

#define INFO_(U, H, F, VAR, SPV, FROM, SH, HK, SEM) \
  [EX_##H] = {#H, #F, (FROM) + ((SPV) ? 3 : 0), SH, SEM, SPV, VAR}, /* "SpvOpIAdd" + 3: "OpIAdd" */
const ex_op_info ex_op_infos[EX_OP_COUNT] = {EX_OP_TABLE(INFO_, _)};
#undef INFO_

#define HOOK_(U, H, F, VAR, SPV, FROM, SH, HK, SEM) [EX_##H] = HK,
const uint8_t ex_op_hook[EX_OP_COUNT] = {EX_OP_TABLE(HOOK_, _)};
#undef HOOK_

/* Every shape has its six fields; every selecting opcode fits the lookup. */
#define CHECK_(U, H, F, VAR, SPV, FROM, SH, HK, SEM)                                 \
  _Static_assert(sizeof(SH) == EX_SH_FIELDS + 1, #H ": a shape has six characters"); \
  _Static_assert((SPV) < SPV_LIMIT, #H ": opcode beyond the lookup table");
EX_OP_TABLE(CHECK_, _)
#undef CHECK_

/* handler + 1 by [opcode][variant]; 0: none */
#define SELECT_(U, H, F, VAR, SPV, FROM, SH, HK, SEM) [SPV][VAR] = EX_##H + 1,
static const uint16_t by_opcode[SPV_LIMIT][EX_T_COUNT] = {EX_OPS_SELECTED(SELECT_, _)};
#undef SELECT_

/* An alias's opcode: the opcode whose handlers it selects. */
#define ALIAS_(U, SPV, TO) \
  case SPV: return TO;
static uint32_t unalias(uint32_t spv) {
  switch (spv) {
    EX_OPS_ALIASES(ALIAS_, _)
  default: return spv;
  }
}
#undef ALIAS_

ex_op ex_op_select(uint32_t spv, ex_variant v) {
  spv = unalias(spv);
  if (spv >= SPV_LIMIT || (unsigned)v >= EX_T_COUNT || !by_opcode[spv][v]) return EX_OP_COUNT;
  return (ex_op)(by_opcode[spv][v] - 1);
}

unsigned ex_op_variants(uint32_t spv) {
  spv = unalias(spv);
  unsigned mask = 0;
  for (unsigned v = 0; spv < SPV_LIMIT && v < EX_T_COUNT; v++)
    if (by_opcode[spv][v]) mask |= 1u << v;
  return mask;
}

ex_variant ex_variant_int(unsigned bits) {
  return bits == 8 ? EX_T_I8 : bits == 16 ? EX_T_I16 : bits == 32 ? EX_T_I32 : bits == 64 ? EX_T_I64 : EX_T_NONE;
}

ex_variant ex_variant_float(unsigned bits) {
  return bits == 16 ? EX_T_F16 : bits == 32 ? EX_T_F32 : bits == 64 ? EX_T_F64 : EX_T_NONE;
}
