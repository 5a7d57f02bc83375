/*
 * ld_func.c — functions: OpFunction ... OpFunctionEnd into ld_function (parameters, blocks,
 * pre-decoded instructions with their source positions) and the per-function register space.
 *
 * Structure (SPIR-V 2.4 logical layout items 10 and 11, 2.2.5 "Control Flow"): OpFunction, its
 * OpFunctionParameters, then either OpFunctionEnd (a declaration, which must be a LinkageAttributes
 * Import) or blocks, each an OpLabel, instructions, and exactly one terminator at the end.
 * OpLine/OpNoLine are not kept as instructions: an OpLine sets the file/line/column of the
 * instructions that follow it until an OpNoLine, another OpLine or the end of the block (SPIR-V
 * 3.32.2 OpLine: "...the end of a block").
 *
 * Registers: every parameter and every instruction with a non-void result type gets a per-lane
 * slot (ld_id.reg) of its type's register size (at least one byte), each 8-byte aligned so any
 * scalar can be accessed in place; ld_function.reg_bytes is the total. Results without a register
 * (void or typeless) have reg = LD_NONE.
 */
#include <stdio.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ld_internal.h"

/* Block terminators (SPIR-V 2.2.5 "Control Flow": a block ends in one termination instruction;
 * 3.32.17). */
static const uint16_t terminators[] = {
  SpvOpBranch,      SpvOpBranchConditional,   SpvOpSwitch, SpvOpReturn, SpvOpReturnValue, SpvOpKill,
  SpvOpUnreachable, SpvOpTerminateInvocation,
};

bool ld_func_is_terminator(uint32_t opcode) {
  for (size_t i = 0; i < sizeof terminators / sizeof terminators[0]; i++)
    if (terminators[i] == opcode) return true;
  return false;
}

/* Instructions that belong to the module-level sections and cannot appear in a body. */
static bool module_only(uint32_t opcode) {
  if (ld_module_is_preamble(opcode) || ld_types_is_type_opcode(opcode)) return true;
  return opcode != SpvOpUndef && ld_const_is_opcode(opcode);
}

typedef struct line_state {
  uint32_t file, line, column;
} line_state;

static bool set_line(ld_ctx *c, const ld_raw *r, line_state *ls) {
  if (r->opcode == SpvOpNoLine) {
    memset(ls, 0, sizeof *ls);
    return true;
  }
  const ld_id *f = ld_ref(c, r, r->w[1], "OpLine file");
  if (!f) return false;
  if (f->kind != LD_ID_STRING) return ld_errf(c, r->at, "OpLine file %%%u is not an OpString", r->w[1]);
  ls->file = r->w[1];
  ls->line = r->w[2];
  ls->column = r->w[3];
  return true;
}

static bool assign_regs(ld_ctx *c, ld_function *fn) {
  ld_module *m = c->m;
  uint64_t next = 0;
  for (uint32_t i = 0; i < fn->nparams; i++) {
    ld_id *e = &m->ids[fn->params[i]];
    e->reg = (uint32_t)next;
    next += (ld_type_reg_bytes(ld_type_of(m, e->type)) + 7u) & ~7ull;
  }
  for (uint32_t i = 0; i < fn->ninsns; i++) {
    const ld_insn *in = &fn->insns[i];
    if (!in->result) continue;
    ld_id *e = &m->ids[in->result];
    const ld_type *t = in->type ? ld_type_of(m, in->type) : NULL;
    if (!t || t->kind == LD_TY_VOID) {
      e->reg = LD_NONE;
      continue;
    }
    e->reg = (uint32_t)next;
    next += (ld_type_reg_bytes(t) + 7u) & ~7ull;
    if (next > UINT32_MAX)
      return ld_errf(c, in->word_offset, "function %%%u needs more than %u bytes of registers per work-item", fn->id,
                     UINT32_MAX);
  }
  fn->reg_bytes = (uint32_t)next;
  return true;
}

/* First walk: find OpFunctionEnd and count what to allocate. */
static bool measure(ld_ctx *c, uint32_t first, uint32_t fid, uint32_t *end, uint32_t *nparams, uint32_t *nblocks,
                    uint32_t *ninsns) {
  *nparams = *nblocks = *ninsns = 0;
  for (uint32_t i = first + 1; i < c->ninsn; i++) {
    ld_raw r = ld_raw_at(c, c->insn_at[i]);
    switch (r.opcode) {
    case SpvOpFunctionEnd: *end = i; return true;
    case SpvOpFunction: return ld_errf(c, r.at, "OpFunction inside function %%%u (its OpFunctionEnd is missing)", fid);
    case SpvOpFunctionParameter: (*nparams)++; break;
    case SpvOpLabel: (*nblocks)++; break;
    case SpvOpLine:
    case SpvOpNoLine: break;
    default: (*ninsns)++; break;
    }
  }
  return ld_errf(c, c->nw, "function %%%u (word %u) has no OpFunctionEnd (end of module reached)", fid,
                 c->insn_at[first]);
}

static bool parameter(ld_ctx *c, const ld_raw *r, ld_function *fn, const ld_type *ft) {
  ld_module *m = c->m;
  uint32_t type = r->w[1], id = r->w[2], k = fn->nparams;
  char what[64];
  snprintf(what, sizeof what, "OpFunctionParameter %%%u type", id);
  if (!ld_need_type(c, r, type, what)) return false;
  if (k >= ft->count)
    return ld_errf(c, r->at, "function %%%u has more OpFunctionParameters than its type %%%u's %u parameters", fn->id,
                   ft->id, ft->count);
  if (!ld_type_same(m, type, ft->members[k]))
    return ld_errf(
      c, r->at, "OpFunctionParameter %%%u (parameter %u of function %%%u) has type %%%u, its function type says %%%u",
      id, k, fn->id, type, ft->members[k]);
  if (!ld_define(c, r, id)) return false;
  m->ids[id].kind = LD_ID_PARAM;
  m->ids[id].type = type;
  m->ids[id].index = (uint32_t)(fn - m->funcs);
  fn->params[fn->nparams++] = id;
  return true;
}

/* One body instruction: decode it and define its result. */
static bool body_insn(ld_ctx *c, const ld_raw *r, ld_function *fn, const line_state *ls) {
  ld_module *m = c->m;
  ld_insn *in = &fn->insns[fn->ninsns];
  uint32_t pos = 1;
  memset(in, 0, sizeof *in);
  in->opcode = r->opcode;
  if (r->info->has_type) in->type = r->w[pos++];
  if (r->info->has_result) in->result = r->w[pos++];
  in->ops = r->w + pos;
  in->nops = (uint16_t)(r->nwords - pos);
  in->file = ls->file;
  in->line = ls->line;
  in->column = ls->column;
  in->word_offset = r->at;
  /* the message is only built when the check fails: this runs for every instruction */
  if (in->type && !(in->type < m->bound && m->ids[in->type].kind == LD_ID_TYPE)) {
    char what[64];
    snprintf(what, sizeof what, "%s %%%u result type", r->info->name, in->result);
    if (!ld_need_type(c, r, in->type, what)) return false;
  }
  if (in->result) {
    if (!ld_define(c, r, in->result)) return false;
    ld_id *e = &m->ids[in->result];
    e->kind = LD_ID_VALUE;
    e->type = in->type;
    e->index = (uint32_t)(fn - m->funcs);
    e->insn = fn->ninsns;
  }
  fn->ninsns++;
  return true;
}

bool ld_func_build(ld_ctx *c, uint32_t *index) {
  ld_module *m = c->m;
  ld_raw r = ld_raw_at(c, c->insn_at[*index]);
  uint32_t ret = r.w[1], id = r.w[2], control = r.w[3], ftype = r.w[4];
  char what[64];
  snprintf(what, sizeof what, "OpFunction %%%u result type", id);
  if (!ld_need_type(c, &r, ret, what)) return false;
  snprintf(what, sizeof what, "OpFunction %%%u function type", id);
  const ld_type *ft = ld_need_type(c, &r, ftype, what);
  if (!ft) return false;
  if (ft->kind != LD_TY_FUNCTION) return ld_errf(c, r.at, "%s %%%u is not an OpTypeFunction", what, ftype);
  if (!ld_type_same(m, ret, ft->elem))
    return ld_errf(c, r.at, "OpFunction %%%u returns %%%u but its function type %%%u returns %%%u", id, ret, ftype,
                   ft->elem);
  uint32_t end = 0, nparams, nblocks, ninsns;
  if (!measure(c, *index, id, &end, &nparams, &nblocks, &ninsns)) return false;
  if (!ld_define(c, &r, id)) return false;
  if (m->nfuncs >= c->max_funcs) return ld_errf(c, r.at, "internal error: function table full");
  ld_function *fn = &m->funcs[m->nfuncs];
  fn->id = id;
  fn->type = ftype;
  fn->ret_type = ret;
  fn->control = control;
  fn->params = ld_arena_array(c->arena, nparams, sizeof(uint32_t));
  fn->insns = ld_arena_array(c->arena, ninsns, sizeof(ld_insn));
  fn->blocks = ld_arena_array(c->arena, nblocks, sizeof(ld_block));
  if (!fn->params || !fn->insns || !fn->blocks) return ld_oom(c);
  m->ids[id].kind = LD_ID_FUNCTION;
  m->ids[id].index = m->nfuncs++;

  line_state ls = {0, 0, 0};
  bool in_block = false;
  for (uint32_t i = *index + 1; i < end; i++) {
    ld_raw b = ld_raw_at(c, c->insn_at[i]);
    if (b.opcode == SpvOpLine || b.opcode == SpvOpNoLine) {
      if (!set_line(c, &b, &ls)) return false;
      continue;
    }
    if (b.opcode == SpvOpFunctionParameter) {
      if (fn->nblocks) return ld_errf(c, b.at, "OpFunctionParameter after the first block of function %%%u", id);
      if (!parameter(c, &b, fn, ft)) return false;
      continue;
    }
    if (module_only(b.opcode))
      return ld_errf(c, b.at, "%s inside function %%%u (it belongs at module scope)", b.info->name, id);
    if (b.opcode == SpvOpLabel) {
      if (in_block)
        return ld_errf(c, b.at, "OpLabel %%%u: block %%%u of function %%%u does not end in a terminator", b.w[1],
                       fn->blocks[fn->nblocks - 1].label, id);
      if (!ld_define(c, &b, b.w[1])) return false;
      ld_block *blk = &fn->blocks[fn->nblocks];
      blk->label = b.w[1];
      blk->first = fn->ninsns;
      m->ids[b.w[1]].kind = LD_ID_LABEL;
      m->ids[b.w[1]].index = fn->nblocks++;
      in_block = true;
      continue;
    }
    if (!in_block)
      return ld_errf(c, b.at, "%s in function %%%u is not inside a block (%s)", b.info->name, id,
                     fn->nblocks ? "it follows a terminator" : "it precedes the first OpLabel");
    if (!body_insn(c, &b, fn, &ls)) return false;
    fn->blocks[fn->nblocks - 1].count++;
    if (ld_func_is_terminator(b.opcode)) {
      in_block = false;
      memset(&ls, 0, sizeof ls); /* OpLine scope ends with the block */
    }
  }
  ld_raw e = ld_raw_at(c, c->insn_at[end]);
  if (in_block)
    return ld_errf(c, e.at, "block %%%u of function %%%u does not end in a terminator",
                   fn->blocks[fn->nblocks - 1].label, id);
  if (fn->nparams != ft->count)
    return ld_errf(c, e.at, "function %%%u has %u OpFunctionParameters, its type %%%u has %u parameters", id,
                   fn->nparams, ftype, ft->count);
  if (fn->nblocks == 0) {
    /* A declaration: SPIR-V 2.4 item 10 requires it to be imported (LinkageAttributes Import). */
    if (ld_linkage_type(m, id) != SpvLinkageTypeImport)
      return ld_errf(c, r.at, "function %%%u has no body and is not declared LinkageAttributes Import", id);
    fn->is_import = true;
  }
  if (!assign_regs(c, fn)) return false;
  *index = end;
  return true;
}
