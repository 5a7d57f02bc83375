/*
 * ex_prep_ctrl.c — the translation of control flow (SPIR-V 3.32.17) and function calls (3.32.9):
 * branches carry the phi moves of their edges (OpPhi itself disappears, ex.h), and the instructions
 * with no run-time effect (merges, lifetimes, debug lines) translate to nothing.
 */
#include <spirv/unified1/spirv.h>

#include "ex_prep.h"

/* An OpExtInst of a debug-information set (OpenCL.DebugInfo.100, NonSemantic.*): no run-time effect. */
static bool is_debug_extinst(const ld_module *m, const ld_insn *in) {
  if (in->opcode != SpvOpExtInst || in->nops < 1 || in->ops[0] >= m->bound) return false;
  const ld_id *x = &m->ids[in->ops[0]];
  return x->kind == LD_ID_EXTINST_SET && (x->index == LD_EXT_DEBUGINFO || x->index == LD_EXT_NONSEMANTIC);
}

/* The move of phi ph for the edge from block pred_label (dst, src, bytes), pushed to aux. */
static bool phi_move(prep *s, const ld_insn *ph, uint32_t pred_label) {
  for (uint32_t k = 0; k + 1 < ph->nops; k += 2) {
    if (ph->ops[k + 1] != pred_label) continue;
    uint32_t src;
    if (!prep_operand(s, ph->ops[k], &src)) return false;
    prep_aux(s, prep_dst(s, ph));
    prep_aux(s, src);
    prep_aux(s, prep_reg_size(s, ph->type));
    return true;
  }
  return prep_fail(s, "OpPhi has no incoming value for predecessor %%%u", pred_label);
}

/* Phi moves of the edge from the current block to block succ_block: *edge is the aux index of the
 * move list [count | 0x80000000 when it needs scratch, (dst, src, bytes) ...]. */
static bool edge_moves(prep *s, uint32_t succ_block, uint32_t *edge) {
  const ld_function *fn = s->fn;
  if (succ_block >= fn->nblocks) return prep_fail(s, "branch to a block outside the function");
  const ld_block *b = &fn->blocks[succ_block];
  uint32_t nmoves = 0;
  uint32_t head = prep_aux(s, 0);
  const ld_insn *save = s->cur;
  for (uint32_t i = 0; i < b->count; i++) {
    const ld_insn *ph = &fn->insns[b->first + i];
    /* llvm-spirv-14 -g puts a DebugScope before a block's phis (the validator warns): look past it */
    if (is_debug_extinst(s->m, ph)) continue;
    if (ph->opcode != SpvOpPhi) break;
    s->cur = ph;
    if (!phi_move(s, ph, s->label)) return false;
    nmoves++;
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

/* The block index of branch target `label`, and the phi moves of the edge to it. */
static bool target(prep *s, uint32_t label, uint32_t *block, uint32_t *edge) {
  const ld_module *m = s->m;
  *block = label < m->bound && m->ids[label].kind == LD_ID_LABEL ? m->ids[label].index : LD_NONE;
  if (*block == LD_NONE || *block >= s->fn->nblocks)
    return prep_fail(s, "branch target %%%u is not a block of this function", label);
  return edge_moves(s, *block, edge);
}

static bool branch(prep *s, const ld_insn *in) {
  uint32_t bi, edge;
  if (in->nops < 1) return prep_fail(s, "OpBranch without a target");
  if (!target(s, in->ops[0], &bi, &edge)) return false;
  prep_emit(s, (ex_insn){.op = EX_BR, .a = bi, .b = edge});
  return true;
}

static bool branch_conditional(prep *s, const ld_insn *in) {
  uint32_t r[1], tb, fb, te, fe;
  if (!prep_operands(s, in, 1, r)) return false;
  if (in->nops < 3) return prep_fail(s, "OpBranchConditional without two targets");
  if (!target(s, in->ops[1], &tb, &te) || !target(s, in->ops[2], &fb, &fe)) return false;
  uint32_t a = prep_aux(s, tb);
  prep_aux(s, te);
  prep_aux(s, fb);
  prep_aux(s, fe);
  prep_emit(s, (ex_insn){.op = EX_BRC, .a = r[0], .b = a});
  return true;
}

/* aux: [cases, default block, its moves, (value low, value high, block, moves) per case]. */
static bool switch_(prep *s, const ld_insn *in) {
  uint32_t r[1];
  prep_elem e;
  if (!prep_operands(s, in, 1, r)) return false;
  if (!prep_elem_of(s, s->m->ids[in->ops[0]].type, &e) || e.kind != 'i')
    return prep_fail(s, "OpSwitch selector is not an integer");
  uint32_t words = e.bits == 64 ? 2 : 1;
  if (in->nops < 2 || (in->nops - 2) % (words + 1)) return prep_fail(s, "OpSwitch has a malformed target list");
  uint32_t ncases = (in->nops - 2) / (words + 1);
  uint32_t db, de;
  if (!target(s, in->ops[1], &db, &de)) return false;
  /* edges first (they push into aux), then the case table contiguous */
  uint32_t *tmp = prep_scratch(s, (ncases + 1) * 4);
  for (uint32_t k = 0; k < ncases; k++) {
    const uint32_t *c = in->ops + 2 + k * (words + 1);
    uint32_t cb, ce;
    if (!target(s, c[words], &cb, &ce)) return false;
    tmp[4 * k] = c[0];
    tmp[4 * k + 1] = words == 2 ? c[1] : 0;
    tmp[4 * k + 2] = cb;
    tmp[4 * k + 3] = ce;
  }
  uint32_t a = prep_aux(s, ncases);
  prep_aux(s, db);
  prep_aux(s, de);
  for (uint32_t k = 0; k < 4 * ncases; k++) prep_aux(s, tmp[k]);
  prep_emit(s, (ex_insn){.op = EX_SWITCH, .n = (uint8_t)(e.bits / 8), .a = r[0], .b = a});
  return true;
}

/* OpAssumeTrueKHR Condition (SPV_KHR_expect_assume): Condition is a bool scalar; the executor
 * faults where it is false (undefined behaviour). */
static bool assume_true(prep *s, const ld_insn *in) {
  uint32_t r[1];
  if (!prep_operands(s, in, 1, r)) return false;
  const ld_type *t = prep_type(s, s->m->ids[in->ops[0]].type);
  if (!t || t->kind != LD_TY_BOOL) return prep_fail(s, "OpAssumeTrueKHR condition is not a bool scalar");
  prep_emit(s, (ex_insn){.op = EX_ASSUME, .a = r[0]});
  return true;
}

static bool return_value(prep *s, const ld_insn *in) {
  uint32_t r[1];
  if (!prep_operands(s, in, 1, r)) return false;
  prep_emit(s, (ex_insn){.op = EX_RETV, .a = r[0], .c = prep_reg_size(s, s->m->ids[in->ops[0]].type)});
  return true;
}

/* aux: [0, argument registers ...]. */
static bool call(prep *s, const ld_insn *in) {
  const ld_module *m = s->m;
  if (in->nops < 1) return prep_fail(s, "OpFunctionCall without a callee");
  uint32_t callee = in->ops[0];
  if (callee >= m->bound || m->ids[callee].kind != LD_ID_FUNCTION)
    return prep_fail(s, "callee %%%u is not a function", callee);
  const ld_function *cf = &m->funcs[m->ids[callee].index];
  char nb[96];
  if (cf->is_import)
    return prep_fail(s, "call to `%s`, a function declared but not defined in this module (unresolved import)",
                     ld_id_name(m, callee, nb, sizeof nb));
  if (cf->nparams != in->nops - 1u)
    return prep_fail(s, "call passes %u arguments to a function of %u parameters", in->nops - 1u, cf->nparams);
  uint32_t a = prep_aux(s, 0);
  for (uint32_t i = 1; i < in->nops; i++) {
    uint32_t reg;
    if (!prep_operand(s, in->ops[i], &reg)) return false;
    prep_aux(s, reg);
  }
  const ld_type *rt = prep_type(s, in->type);
  prep_emit(s, (ex_insn){.op = EX_CALL,
                         .d = rt && rt->kind != LD_TY_VOID ? prep_dst(s, in) : LD_NONE,
                         .a = m->ids[callee].index,
                         .b = a});
  return true;
}

prep_result prep_control(prep *s, const ld_insn *in) {
  switch (in->opcode) {
  case SpvOpNop:
  case SpvOpSelectionMerge:
  case SpvOpLoopMerge:
  case SpvOpLifetimeStart:
  case SpvOpLifetimeStop:
  case SpvOpMemoryBarrier:
  case SpvOpLine:
  case SpvOpNoLine:
  case SpvOpPhi:
  case SpvOpUndef:
  case SpvOpSource:
  case SpvOpName:
  case SpvOpModuleProcessed: return PREP_OK; /* Phi: edge moves; Undef: a zero constant (see ex_prepare.c) */
  case SpvOpBranch: return prep_done(branch(s, in));
  case SpvOpBranchConditional: return prep_done(branch_conditional(s, in));
  case SpvOpSwitch: return prep_done(switch_(s, in));
  case SpvOpReturn: prep_emit(s, (ex_insn){.op = EX_RET}); return PREP_OK;
  case SpvOpReturnValue: return prep_done(return_value(s, in));
  case SpvOpUnreachable:
  case SpvOpKill: prep_emit(s, (ex_insn){.op = EX_UNREACHABLE}); return PREP_OK;
  case SpvOpFunctionCall: return prep_done(call(s, in));
  case SpvOpAssumeTrueKHR: return prep_done(assume_true(s, in));
  default: return PREP_NEXT;
  }
}
