/*
 * ex_prep_group.c — the translation of synchronisation and group operations: barriers (SPIR-V
 * 3.32.20), named barriers, work-group collectives and async copies (3.32.21 Group instructions)
 * and sub-group operations (3.32.21 at Subgroup scope, 3.32.24 Non-Uniform instructions,
 * SPV_INTEL_subgroups).
 *
 * Sub-group operations follow cl_khr_subgroups and cl_khr_subgroup_{non_uniform_vote,ballot,
 * non_uniform_arithmetic,shuffle,shuffle_relative,clustered_reduce} (the env spec's "Extensions"
 * lists the valid types). They run inside a warp (warps hold whole sub-groups, see
 * ex_subgroup.c); here the operands are checked and encoded (ex_internal.h, EX_SUBGROUP).
 */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ex_prep.h"
#include "gen_spv_tables.h"

/* The value of a constant scope operand (execution or memory scope), or false with a message. */
static bool const_scope(prep *s, uint32_t id, const char *what, uint32_t *out) {
  const ld_module *m = s->m;
  if (id >= m->bound || m->ids[id].kind != LD_ID_CONST) return prep_fail(s, "%s must be a constant", what);
  memcpy(out, m->consts[m->ids[id].index].bytes, 4);
  return true;
}

/* The constant execution scope operand of a group instruction, LD_NONE when it is not a constant. */
static uint32_t scope_of(prep *s, uint32_t id) {
  uint32_t scope = LD_NONE;
  if (id < s->m->bound && s->m->ids[id].kind == LD_ID_CONST) memcpy(&scope, s->m->consts[s->m->ids[id].index].bytes, 4);
  return scope;
}

/* An integer scalar operand (an id, delta, mask, index or count): its register and bytes. */
static bool int_operand(prep *s, uint32_t id, const char *what, uint32_t *reg, uint32_t *bytes) {
  prep_elem e;
  if (!prep_operand(s, id, reg) || !prep_elem_of(s, s->m->ids[id].type, &e)) return false;
  if (e.kind != 'i' || e.n != 1) return prep_fail(s, "%s must be an integer scalar", what);
  *bytes = e.bits / 8;
  return true;
}

/* Is type_id a vector of four 32-bit integers (a ballot, env spec cl_khr_subgroup_ballot)? */
static bool is_uint4(prep *s, uint32_t type_id) {
  prep_elem e;
  const ld_type *t = prep_type(s, type_id);
  return t && t->kind == LD_TY_VECTOR && prep_elem_of(s, type_id, &e) && e.kind == 'i' && e.bits == 32 && e.n == 4;
}

/* The value of operand `id` must be a scalar of the given kinds ("i", "f", "b" or combinations). */
static bool sg_scalar(prep *s, uint32_t id, const char *kinds, const char *what) {
  prep_elem e;
  if (!prep_elem_of(s, s->m->ids[id].type, &e)) return false;
  if (e.n != 1 || !strchr(kinds, e.kind))
    return prep_fail(s, "%s must be a %s scalar", what,
                     !strcmp(kinds, "b")   ? "boolean"
                     : !strcmp(kinds, "i") ? "integer"
                     : !strcmp(kinds, "f") ? "floating-point"
                                           : "integer or floating-point");
  return true;
}

/* ---- sub-group operations ---------------------------------------------------------------------- */

/* Emit one EX_SUBGROUP. val: the value operand id (0: none); op2/op3: further operand ids (0: none);
 * lit: a literal in aux[1] when op3 is absent (the cluster size). */
static bool sg_emit(prep *s, const ld_insn *in, unsigned kind, unsigned n, uint32_t val, uint32_t op2, uint32_t op3,
                    uint32_t lit) {
  const ld_module *m = s->m;
  uint32_t a = LD_NONE, r2 = LD_NONE, r3 = lit, b2 = 0, c = 0;
  if (val) {
    prep_elem e;
    if (!prep_operand(s, val, &a) || !prep_elem_of(s, m->ids[val].type, &e)) return false;
    const ld_type *vt = prep_type(s, m->ids[val].type);
    uint32_t k = e.kind == 'f' ? EX_GK_FLOAT : e.kind == 'b' ? EX_GK_BOOL : EX_GK_INT;
    c = (vt->reg_size << 16) | (k << 8) | (e.bits / 8);
  }
  if (op2 && !int_operand(s, op2, "the id, delta, mask or index operand", &r2, &b2)) return false;
  if (op3 && !prep_operand(s, op3, &r3)) return false;
  uint32_t x = prep_aux(s, r2);
  prep_aux(s, r3);
  prep_aux(s, b2);
  const ld_type *rt = in->type ? prep_type(s, in->type) : NULL;
  uint32_t d = rt && rt->kind != LD_TY_VOID ? prep_dst(s, in) : LD_NONE;
  prep_emit(s, (ex_insn){.op = EX_SUBGROUP, .flags = (uint8_t)kind, .n = (uint8_t)n, .d = d, .a = a, .b = x, .c = c});
  s->p->uses_subgroups = true;
  if (kind == EX_SG_BARRIER) s->p->uses_subgroup_sync = true;
  return true;
}

/* A ClusteredReduce's ClusterSize: a constant power of two (SPIR-V 3.32.24). */
static bool cluster_size(prep *s, uint32_t cid, uint32_t *out) {
  const ld_module *m = s->m;
  uint64_t cs = 0;
  if (cid >= m->bound || m->ids[cid].kind != LD_ID_CONST)
    return prep_fail(s, "ClusterSize must be a constant (SPIR-V 3.32.24)");
  const ld_type *ct = prep_type(s, m->consts[m->ids[cid].index].type);
  if (!ct || ct->kind != LD_TY_INT) return prep_fail(s, "ClusterSize must be an integer constant");
  memcpy(&cs, m->consts[m->ids[cid].index].bytes, ct->reg_size < 8 ? ct->reg_size : 8);
  if (cs == 0 || (cs & (cs - 1)) || cs > 0xFFFFFFFFu)
    return prep_fail(s, "ClusterSize %llu is not a power of two (SPIR-V 3.32.24)", (unsigned long long)cs);
  *out = (uint32_t)cs;
  return true;
}

/* OpGroupNonUniform* arithmetic and the Subgroup-scope OpGroup{I,F}Add/{S,U,F}{Min,Max}:
 * Operation (Reduce, InclusiveScan, ExclusiveScan, ClusteredReduce with a constant power-of-two
 * ClusterSize, SPIR-V 3.32.24) at ops[vi - 1], the value at ops[vi]. */
static bool sg_arith(prep *s, const ld_insn *in, unsigned gr, bool uniform, unsigned vi) {
  uint32_t gop = in->ops[vi - 1], lit = 0;
  static const char *const kinds[] = {
    [EX_GR_IADD] = "i", [EX_GR_IMUL] = "i", [EX_GR_SMIN] = "i", [EX_GR_UMIN] = "i",
    [EX_GR_SMAX] = "i", [EX_GR_UMAX] = "i", [EX_GR_AND] = "i",  [EX_GR_OR] = "i",
    [EX_GR_XOR] = "i",  [EX_GR_FADD] = "f", [EX_GR_FMUL] = "f", [EX_GR_FMIN] = "f",
    [EX_GR_FMAX] = "f", [EX_GR_LAND] = "b", [EX_GR_LOR] = "b",  [EX_GR_LXOR] = "b",
  };
  if (in->nops <= vi) return prep_fail(s, "group instruction without a value");
  if (!sg_scalar(s, in->ops[vi], kinds[gr], "the value")) return false;
  if (gop == SpvGroupOperationClusteredReduce && !uniform) {
    if (in->nops <= vi + 1) return prep_fail(s, "ClusteredReduce without a ClusterSize");
    if (!cluster_size(s, in->ops[vi + 1], &lit)) return false;
    gop = 3;
  } else if (gop > SpvGroupOperationExclusiveScan) {
    return prep_fail(s, "group operation %u is not supported", gop);
  } else if (in->nops > vi + 1) {
    return prep_fail(s, "a ClusterSize operand needs the ClusteredReduce operation");
  }
  return sg_emit(s, in, EX_SG_ARITH, gop | (uniform ? EX_SG_UNIFORM : 0) | (gr << 3), in->ops[vi], 0, 0, lit);
}

/* SPV_INTEL_subgroups shuffles (no scope operand). */
static bool intel_shuffle(prep *s, const ld_insn *in) {
  const uint32_t op = in->opcode;
  if (in->nops < (op == SpvOpSubgroupShuffleINTEL || op == SpvOpSubgroupShuffleXorINTEL ? 2u : 3u))
    return prep_fail(s, "missing operands");
  if (op == SpvOpSubgroupShuffleINTEL) return sg_emit(s, in, EX_SG_SHUFFLE, 0, in->ops[0], in->ops[1], 0, 0);
  if (op == SpvOpSubgroupShuffleXorINTEL) return sg_emit(s, in, EX_SG_SHUFFLE_XOR, 0, in->ops[0], in->ops[1], 0, 0);
  const ld_type *t0 = prep_type(s, s->m->ids[in->ops[0]].type), *t1 = prep_type(s, s->m->ids[in->ops[1]].type);
  if (!t0 || t0 != t1) return prep_fail(s, "the two data operands have different types");
  /* Down: (current, next, delta) -> a = current, aux = [delta, next]; Up: (previous, current,
   * delta) -> a = current, aux = [delta, previous] */
  bool down = op == SpvOpSubgroupShuffleDownINTEL;
  return sg_emit(s, in, down ? EX_SG_INTEL_DOWN : EX_SG_INTEL_UP, 0, in->ops[down ? 0 : 1], in->ops[2],
                 in->ops[down ? 1 : 0], 0);
}

/* The ballot operations: their value is a uint4 ballot. */
static bool ballot_op(prep *s, const ld_insn *in) {
  const uint32_t op = in->opcode, *o = in->ops;
  unsigned vi = op == SpvOpGroupNonUniformBallotBitCount ? 2 : 1;
  if (in->nops <= vi) return prep_fail(s, "missing operands");
  if (!is_uint4(s, s->m->ids[o[vi]].type))
    return prep_fail(s, "the value must be a vector of four 32-bit integers (uint4)");
  if (op == SpvOpGroupNonUniformBallotBitCount) {
    if (o[1] > SpvGroupOperationExclusiveScan) return prep_fail(s, "group operation %u is not supported", o[1]);
    return sg_emit(s, in, EX_SG_BIT_COUNT, o[1], o[2], 0, 0, 0);
  }
  if (op == SpvOpGroupNonUniformBallotBitExtract) {
    if (in->nops < 3) return prep_fail(s, "missing index");
    return sg_emit(s, in, EX_SG_BIT_EXTRACT, 0, o[1], o[2], 0, 0);
  }
  return sg_emit(s, in,
                 op == SpvOpGroupNonUniformInverseBallot   ? EX_SG_INVERSE_BALLOT
                 : op == SpvOpGroupNonUniformBallotFindLSB ? EX_SG_FIND_LSB
                                                           : EX_SG_FIND_MSB,
                 0, o[1], 0, 0, 0);
}

/* An instruction of kind k on one value (ops[1]), a scalar of `kinds`; a ballot's result is a uint4. */
static bool sg_value_op(prep *s, const ld_insn *in, unsigned k, const char *kinds, const char *what) {
  if (in->nops < 2) return prep_fail(s, "missing %s", !strcmp(what, "the predicate") ? "predicate" : "value");
  if (!sg_scalar(s, in->ops[1], kinds, what)) return false;
  if (k == EX_SG_BALLOT && !is_uint4(s, in->type))
    return prep_fail(s, "the result type must be a vector of four 32-bit integers (uint4)");
  return sg_emit(s, in, k, 0, in->ops[1], 0, 0, 0);
}

static const struct {
  uint16_t op;
  uint8_t gr;
} nonuniform_arith[] = {
  {SpvOpGroupNonUniformIAdd, EX_GR_IADD},      {SpvOpGroupNonUniformFAdd, EX_GR_FADD},
  {SpvOpGroupNonUniformIMul, EX_GR_IMUL},      {SpvOpGroupNonUniformFMul, EX_GR_FMUL},
  {SpvOpGroupNonUniformSMin, EX_GR_SMIN},      {SpvOpGroupNonUniformUMin, EX_GR_UMIN},
  {SpvOpGroupNonUniformFMin, EX_GR_FMIN},      {SpvOpGroupNonUniformSMax, EX_GR_SMAX},
  {SpvOpGroupNonUniformUMax, EX_GR_UMAX},      {SpvOpGroupNonUniformFMax, EX_GR_FMAX},
  {SpvOpGroupNonUniformBitwiseAnd, EX_GR_AND}, {SpvOpGroupNonUniformBitwiseOr, EX_GR_OR},
  {SpvOpGroupNonUniformBitwiseXor, EX_GR_XOR}, {SpvOpGroupNonUniformLogicalAnd, EX_GR_LAND},
  {SpvOpGroupNonUniformLogicalOr, EX_GR_LOR},  {SpvOpGroupNonUniformLogicalXor, EX_GR_LXOR},
};

/* OpGroupNonUniform*: the execution scope must be Subgroup. */
static bool nonuniform(prep *s, const ld_insn *in) {
  const uint32_t op = in->opcode;
  if (in->nops < 1) return prep_fail(s, "missing operands");
  uint32_t scope;
  if (!const_scope(s, in->ops[0], "the execution scope", &scope)) return false;
  /* env spec: for the cl_khr_subgroup_* capabilities "Scope for Execution may be Subgroup" */
  if (scope != SpvScopeSubgroup)
    return prep_fail(s, "execution scope %u is not supported (OpenCL allows Subgroup, 3)", scope);
  for (size_t i = 0; i < sizeof nonuniform_arith / sizeof nonuniform_arith[0]; i++)
    if (nonuniform_arith[i].op == op) {
      if (in->nops < 3) return prep_fail(s, "missing operands");
      return sg_arith(s, in, nonuniform_arith[i].gr, false, 2);
    }
  switch (op) {
  case SpvOpGroupNonUniformElect: return sg_emit(s, in, EX_SG_ELECT, 0, 0, 0, 0, 0);
  case SpvOpGroupNonUniformAll: return sg_value_op(s, in, EX_SG_ALL, "b", "the predicate");
  case SpvOpGroupNonUniformAny: return sg_value_op(s, in, EX_SG_ANY, "b", "the predicate");
  case SpvOpGroupNonUniformAllEqual: return sg_value_op(s, in, EX_SG_ALL_EQUAL, "ifb", "the value");
  case SpvOpGroupNonUniformBroadcastFirst: return sg_value_op(s, in, EX_SG_BROADCAST_FIRST, "ifb", "the value");
  case SpvOpGroupNonUniformBroadcast:
  case SpvOpGroupNonUniformShuffle:
  case SpvOpGroupNonUniformShuffleXor:
  case SpvOpGroupNonUniformShuffleUp:
  case SpvOpGroupNonUniformShuffleDown: {
    if (in->nops < 3) return prep_fail(s, "missing operands");
    unsigned k = op == SpvOpGroupNonUniformBroadcast    ? EX_SG_BROADCAST
                 : op == SpvOpGroupNonUniformShuffle    ? EX_SG_SHUFFLE
                 : op == SpvOpGroupNonUniformShuffleXor ? EX_SG_SHUFFLE_XOR
                 : op == SpvOpGroupNonUniformShuffleUp  ? EX_SG_SHUFFLE_UP
                                                        : EX_SG_SHUFFLE_DOWN;
    prep_elem e;
    if (!prep_elem_of(s, s->m->ids[in->ops[1]].type, &e)) return false;
    return sg_emit(s, in, k, 0, in->ops[1], in->ops[2], 0, 0);
  }
  case SpvOpGroupNonUniformBallot: return sg_value_op(s, in, EX_SG_BALLOT, "b", "the predicate");
  case SpvOpGroupNonUniformInverseBallot:
  case SpvOpGroupNonUniformBallotBitExtract:
  case SpvOpGroupNonUniformBallotFindLSB:
  case SpvOpGroupNonUniformBallotFindMSB:
  case SpvOpGroupNonUniformBallotBitCount: return ballot_op(s, in);
  default: {
    const char *name = spv_op_name(op);
    return prep_fail(s, "%s is not supported (spvi implements the cl_khr_subgroup_* extensions listed by `spvi info`)",
                     name ? name : "this instruction");
  }
  }
}

/* ---- barriers ---------------------------------------------------------------------------------- */

/* Execution scope (3.32.20): Workgroup (2) synchronises the group; Subgroup (3) is
 * sub_group_barrier (cl_khr_subgroups): every work-item of the sub-group must reach it, and the
 * sub-group's work-items run in lock-step in one warp, so that is all it needs to check. */
static bool control_barrier(prep *s, const ld_insn *in) {
  uint32_t scope = 0;
  if (in->nops < 1) return prep_fail(s, "OpControlBarrier without operands");
  if (!const_scope(s, in->ops[0], "OpControlBarrier scope", &scope)) return false;
  if (scope == SpvScopeSubgroup) return sg_emit(s, in, EX_SG_BARRIER, EX_SG_UNIFORM, 0, 0, 0, 0);
  if (scope != SpvScopeWorkgroup)
    return prep_fail(s, "OpControlBarrier with execution scope %u is not supported", scope);
  prep_emit(s, (ex_insn){.op = EX_BARRIER});
  return true;
}

/* OpNamedBarrierInitialize / OpMemoryNamedBarrier (cl_khr_subgroup_named_barrier; SPIR-V 3.32.20):
 * each OpNamedBarrierInitialize names one barrier per work-group (its handle is index + 1). */
static bool named_barrier(prep *s, const ld_insn *in) {
  uint32_t r, bytes;
  s->p->uses_subgroups = s->p->uses_subgroup_sync = true;
  if (in->opcode == SpvOpNamedBarrierInitialize) {
    if (in->nops < 1) return prep_fail(s, "missing Subgroup Count");
    if (!int_operand(s, in->ops[0], "the Subgroup Count", &r, &bytes)) return false;
    const ld_type *rt = prep_type(s, in->type);
    if (!rt || rt->kind != LD_TY_OPAQUE || strcmp(rt->opaque, "OpTypeNamedBarrier") != 0 || rt->reg_size < 4)
      return prep_fail(s, "the result type must be OpTypeNamedBarrier");
    prep_emit(s, (ex_insn){.op = EX_NBAR_INIT, .d = prep_dst(s, in), .a = r, .b = s->p->nnamed_barriers++, .c = bytes});
    return true;
  }
  if (in->nops < 3) return prep_fail(s, "missing operands");
  const ld_type *bt = prep_type(s, s->m->ids[in->ops[0]].type);
  if (!bt || bt->kind != LD_TY_OPAQUE || strcmp(bt->opaque, "OpTypeNamedBarrier") != 0)
    return prep_fail(s, "the Named Barrier operand is not an OpTypeNamedBarrier");
  uint32_t scope;
  if (!prep_operand(s, in->ops[0], &r) || !const_scope(s, in->ops[1], "the memory scope", &scope)) return false;
  prep_emit(s, (ex_insn){.op = EX_NBAR_WAIT, .a = r});
  return true;
}

/* ---- work-group collectives ---------------------------------------------------------------------
 * SPIR-V 3.32.21 Group instructions; OpenCL C 6.15.16 work_group_*: every work-item of the group
 * must reach the same instruction, like a barrier; the scheduler then computes the result for all of
 * them in local linear id order. At Subgroup scope (cl_khr_subgroups, OpenCL C 6.15.17 sub_group_*)
 * they become sub-group operations that every work-item of the sub-group must reach. */

static const struct {
  uint16_t op;
  uint8_t kind;
  bool has_groupop;
} group_ops[] = {
  {SpvOpGroupAll, EX_GR_ALL, false},  {SpvOpGroupAny, EX_GR_ANY, false},  {SpvOpGroupBroadcast, EX_GR_BROADCAST, false},
  {SpvOpGroupIAdd, EX_GR_IADD, true}, {SpvOpGroupFAdd, EX_GR_FADD, true}, {SpvOpGroupSMin, EX_GR_SMIN, true},
  {SpvOpGroupUMin, EX_GR_UMIN, true}, {SpvOpGroupFMin, EX_GR_FMIN, true}, {SpvOpGroupSMax, EX_GR_SMAX, true},
  {SpvOpGroupUMax, EX_GR_UMAX, true}, {SpvOpGroupFMax, EX_GR_FMAX, true},
};

/* A Group instruction at Subgroup scope (its operands are checked: in->nops >= 2). */
static bool group_at_subgroup(prep *s, const ld_insn *in, unsigned kind) {
  if (kind == EX_GR_ALL || kind == EX_GR_ANY) {
    if (!sg_scalar(s, in->ops[1], "b", "the predicate")) return false;
    return sg_emit(s, in, kind == EX_GR_ALL ? EX_SG_ALL : EX_SG_ANY, EX_SG_UNIFORM, in->ops[1], 0, 0, 0);
  }
  if (kind == EX_GR_BROADCAST) {
    /* cl_khr_subgroup_extended_types: scalars and vectors of any integer or float type */
    if (in->nops < 3) return prep_fail(s, "OpGroupBroadcast without a local id");
    return sg_emit(s, in, EX_SG_BROADCAST, EX_SG_UNIFORM, in->ops[1], in->ops[2], 0, 0);
  }
  if (in->nops < 3) return prep_fail(s, "group instruction without a value");
  const bool is_float = kind == EX_GR_FADD || kind == EX_GR_FMIN || kind == EX_GR_FMAX;
  if (!sg_scalar(s, in->ops[2], is_float ? "f" : "i", "the value")) return false;
  return sg_arith(s, in, kind, true, 2);
}

/* OpGroupBroadcast's LocalId: its register, and aux's description: bytes | components << 8. */
static bool broadcast_id(prep *s, const ld_insn *in, uint32_t *lid, uint32_t *desc) {
  prep_elem le;
  if (in->nops < 3 || !prep_operand(s, in->ops[2], lid)) return prep_fail(s, "OpGroupBroadcast without a local id");
  if (!prep_elem_of(s, s->m->ids[in->ops[2]].type, &le) || le.kind != 'i')
    return prep_fail(s, "OpGroupBroadcast local id is not an integer");
  *desc = le.bits / 8 | le.n << 8;
  return true;
}

static bool group(prep *s, const ld_insn *in, unsigned k) {
  if (in->nops < 2) return prep_fail(s, "group instruction without operands");
  uint32_t scope = scope_of(s, in->ops[0]);
  if (scope == SpvScopeSubgroup) return group_at_subgroup(s, in, group_ops[k].kind);
  if (scope != SpvScopeWorkgroup)
    return prep_fail(s, "group instruction with execution scope %u is not supported", scope);
  uint32_t gop = 0, vi = 1;
  if (group_ops[k].has_groupop) {
    if (in->nops < 3) return prep_fail(s, "group instruction without a value");
    gop = in->ops[1];
    if (gop > SpvGroupOperationExclusiveScan) return prep_fail(s, "group operation %u is not supported", gop);
    vi = 2;
  }
  uint32_t val, lid = 0, lid_desc = 0;
  prep_elem e;
  if (!prep_operand(s, in->ops[vi], &val)) return false;
  if (!prep_elem_of(s, s->m->ids[in->ops[vi]].type, &e)) return false;
  if (e.n != 1) return prep_fail(s, "group instructions on vectors are not supported");
  if (group_ops[k].kind == EX_GR_BROADCAST && !broadcast_id(s, in, &lid, &lid_desc)) return false;
  uint32_t kind = e.kind == 'f' ? EX_GK_FLOAT : e.kind == 'b' ? EX_GK_BOOL : EX_GK_INT;
  uint32_t a = prep_aux(s, lid);
  prep_aux(s, lid_desc);
  prep_emit(s, (ex_insn){.op = EX_GROUP,
                         .n = (uint8_t)gop,
                         .flags = group_ops[k].kind,
                         .d = prep_dst(s, in),
                         .a = val,
                         .b = a,
                         .c = (kind << 8) | (e.bits / 8)});
  return true;
}

/* ---- async copies -------------------------------------------------------------------------------
 * OpGroupAsyncCopy (SPIR-V 3.32.21; OpenCL C 6.15.11 async_work_group_[strided_]copy) and
 * OpGroupWaitEvents (wait_group_events): work-group collectives like the others (every work-item
 * must reach them, with the same arguments); ex_async.c performs them once the group is there. The
 * SPIR-V environment (validation rules) allows only the Workgroup execution scope for both. Copies
 * go between local memory and global memory: the stride operand applies to the global side
 * (Source when Destination is Workgroup, else Destination). */

/* Is t an OpTypeEvent? */
static bool is_event(const ld_type *t) {
  return t && t->kind == LD_TY_OPAQUE && t->opaque && strcmp(t->opaque, "OpTypeEvent") == 0;
}

static bool wait_events(prep *s, const ld_insn *in) {
  uint32_t num, nbytes, list;
  if (!int_operand(s, in->ops[1], "OpGroupWaitEvents Num Events", &num, &nbytes) || !prep_operand(s, in->ops[2], &list))
    return false;
  const ld_type *pt = prep_type(s, s->m->ids[in->ops[2]].type);
  const ld_type *et = pt && pt->kind == LD_TY_POINTER ? prep_type(s, pt->elem) : NULL;
  if (!is_event(et)) return prep_fail(s, "OpGroupWaitEvents Events List is not a pointer to OpTypeEvent");
  prep_emit(s, (ex_insn){.op = EX_WAIT_EVENTS, .n = (uint8_t)nbytes, .a = num, .b = list, .c = et->size});
  return true;
}

/* The element type of an async copy's Destination and Source (*et) and its direction (*to_global). */
static bool copy_direction(prep *s, const ld_insn *in, const ld_type **et, bool *to_global) {
  const ld_type *dt = prep_type(s, s->m->ids[in->ops[1]].type), *st = prep_type(s, s->m->ids[in->ops[2]].type);
  if (!dt || dt->kind != LD_TY_POINTER || !st || st->kind != LD_TY_POINTER)
    return prep_fail(s, "OpGroupAsyncCopy Destination and Source must be pointers");
  *et = prep_type(s, dt->elem);
  if (!*et || (*et)->size == 0 || (*et)->kind == LD_TY_OPAQUE)
    return prep_fail(s, "OpGroupAsyncCopy copies elements of a type without a size");
  if (dt->elem != st->elem) {
    const ld_type *se = prep_type(s, st->elem);
    if (!se || se->size != (*et)->size)
      return prep_fail(s, "OpGroupAsyncCopy Destination and Source point to different types");
  }
  const bool src_global = st->storage == SpvStorageClassCrossWorkgroup || st->storage == SpvStorageClassUniformConstant;
  bool to_local = dt->storage == SpvStorageClassWorkgroup && src_global;
  *to_global = dt->storage == SpvStorageClassCrossWorkgroup && st->storage == SpvStorageClassWorkgroup;
  if (!to_local && !*to_global)
    return prep_fail(s,
                     "OpGroupAsyncCopy between storage classes %u and %u: only Workgroup <-> CrossWorkgroup "
                     "copies are supported",
                     st->storage, dt->storage);
  return true;
}

static bool async_copy(prep *s, const ld_insn *in) {
  const ld_type *et = NULL;
  bool to_global = false;
  if (!copy_direction(s, in, &et, &to_global)) return false;
  uint32_t dst, src, num, nbytes, stride, sbytes, event;
  if (!prep_operand(s, in->ops[1], &dst) || !prep_operand(s, in->ops[2], &src) ||
      !int_operand(s, in->ops[3], "OpGroupAsyncCopy Num Elements", &num, &nbytes) ||
      !int_operand(s, in->ops[4], "OpGroupAsyncCopy Stride", &stride, &sbytes) || !prep_operand(s, in->ops[5], &event))
    return false;
  if (!is_event(prep_type(s, s->m->ids[in->ops[5]].type)))
    return prep_fail(s, "OpGroupAsyncCopy Event is not an OpTypeEvent value");
  uint32_t x = prep_aux(s, src);
  prep_aux(s, num);
  prep_aux(s, stride);
  prep_aux(s, event);
  prep_aux(s, nbytes | sbytes << 8);
  /* bytes of an element that hold data: a 3-component vector's fourth slot is padding (the
   * uninitialised-memory check ignores it) */
  const ld_type *ct = et->kind == LD_TY_VECTOR && et->count == 3 ? prep_type(s, et->elem) : NULL;
  prep_aux(s, ct ? 3 * ct->size : et->size);
  prep_emit(s, (ex_insn){.op = EX_ASYNC_COPY,
                         .flags = to_global ? EX_ASYNC_STRIDE_DST : 0,
                         .d = prep_dst(s, in),
                         .a = dst,
                         .b = x,
                         .c = et->size});
  return true;
}

static bool async(prep *s, const ld_insn *in) {
  const bool copy = in->opcode == SpvOpGroupAsyncCopy;
  const char *name = copy ? "OpGroupAsyncCopy" : "OpGroupWaitEvents";
  if (in->nops < (copy ? 6u : 3u)) return prep_fail(s, "%s with too few operands", name);
  uint32_t scope = scope_of(s, in->ops[0]);
  if (scope != SpvScopeWorkgroup)
    return prep_fail(s,
                     "%s with execution scope %s%u is not supported (the OpenCL environment allows only "
                     "Workgroup)",
                     name, scope == LD_NONE ? "operand %" : "", scope == LD_NONE ? in->ops[0] : scope);
  return copy ? async_copy(s, in) : wait_events(s, in);
}

prep_result prep_group(prep *s, const ld_insn *in) {
  const uint32_t op = in->opcode;
  switch (op) {
  case SpvOpControlBarrier: return prep_done(control_barrier(s, in));
  case SpvOpNamedBarrierInitialize:
  case SpvOpMemoryNamedBarrier: return prep_done(named_barrier(s, in));
  case SpvOpSubgroupShuffleINTEL:
  case SpvOpSubgroupShuffleDownINTEL:
  case SpvOpSubgroupShuffleUpINTEL:
  case SpvOpSubgroupShuffleXorINTEL: return prep_done(intel_shuffle(s, in));
  case SpvOpGroupAsyncCopy:
  case SpvOpGroupWaitEvents: return prep_done(async(s, in));
  default: break;
  }
  /* the non-uniform instructions of SPIR-V 1.3 are numbered Elect (333) .. QuadSwap (366) */
  if (op >= SpvOpGroupNonUniformElect && op <= SpvOpGroupNonUniformQuadSwap) return prep_done(nonuniform(s, in));
  for (unsigned k = 0; k < sizeof group_ops / sizeof group_ops[0]; k++)
    if (group_ops[k].op == op) return prep_done(group(s, in, k));
  return PREP_NEXT;
}
