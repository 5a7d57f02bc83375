/*
 * ex_workitem.c — built-in variables (SPIR-V BuiltIn decorations, OpenCL SPIR-V environment 2.9):
 * which ones spvi provides (asked while preparing) and the value of each for one work-item (asked
 * while running); and the builtins' type description of an IR type.
 */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ex_internal.h"

static const uint32_t supported_builtins[] = {
  SpvBuiltInGlobalInvocationId,
  SpvBuiltInLocalInvocationId,
  SpvBuiltInWorkgroupId,
  SpvBuiltInNumWorkgroups,
  SpvBuiltInWorkgroupSize,
  SpvBuiltInEnqueuedWorkgroupSize,
  SpvBuiltInGlobalSize,
  SpvBuiltInGlobalOffset,
  SpvBuiltInWorkDim,
  SpvBuiltInGlobalLinearId,
  SpvBuiltInLocalInvocationIndex,
  /* sub-groups (cl_khr_subgroups; masks: cl_khr_subgroup_ballot) */
  SpvBuiltInSubgroupSize,
  SpvBuiltInSubgroupMaxSize,
  SpvBuiltInNumSubgroups,
  SpvBuiltInNumEnqueuedSubgroups,
  SpvBuiltInSubgroupId,
  SpvBuiltInSubgroupLocalInvocationId,
  SpvBuiltInSubgroupEqMask,
  SpvBuiltInSubgroupGeMask,
  SpvBuiltInSubgroupGtMask,
  SpvBuiltInSubgroupLeMask,
  SpvBuiltInSubgroupLtMask,
};

bool ex_builtin_supported(uint32_t builtin) {
  for (size_t i = 0; i < sizeof supported_builtins / sizeof supported_builtins[0]; i++)
    if (supported_builtins[i] == builtin) return true;
  return false;
}

bool ex_bi_type(const ld_module *m, uint32_t type_id, bi_type *out) {
  memset(out, 0, sizeof *out);
  const ld_type *t = ld_type_of(m, type_id);
  if (!t) return false;
  out->ncomp = 1;
  if (t->kind == LD_TY_VECTOR) {
    out->ncomp = (uint8_t)t->count;
    t = ld_type_of(m, t->elem);
    if (!t) return false;
  }
  switch (t->kind) {
  case LD_TY_INT:
    out->kind = BI_INT;
    out->bits = (uint8_t)t->bits;
    return true;
  case LD_TY_FLOAT:
    out->kind = BI_FLOAT;
    out->bits = (uint8_t)t->bits;
    return true;
  case LD_TY_BOOL:
    out->kind = BI_BOOL;
    out->bits = 8;
    return true;
  case LD_TY_POINTER: {
    out->kind = BI_PTR;
    out->bits = (uint8_t)(m->pointer_bytes * 8);
    out->storage = t->storage;
    bi_type pe;
    if (t->elem && ex_bi_type(m, t->elem, &pe) && pe.kind != BI_PTR) {
      out->pointee_kind = pe.kind;
      out->pointee_bits = pe.bits;
      out->pointee_ncomp = pe.ncomp;
    }
    return true;
  }
  default: return false;
  }
}

/* Sub-group built-ins of the work-item with local linear id `lin` (OpenCL C 6.15.1 "Built-in
 * Work-Item Functions for Sub-Groups", cl_khr_subgroup_ballot masks): sub-groups are S consecutive
 * local linear ids, the last one of a work-group holding the remainder. A uint4 mask comes as its
 * low and high 32 bits in v[0] and v[1] (sub-groups have at most 64 work-items). */
static void subgroup_builtin_value(const ex_ctx *cx, uint64_t lin, uint32_t builtin, uint64_t v[3]) {
  const uint64_t S = cx->sg_size;
  const uint64_t items = cx->group_size[0] * cx->group_size[1] * cx->group_size[2];
  const uint64_t enq = cx->l->local[0] * cx->l->local[1] * cx->l->local[2];
  const uint64_t id = lin / S, lid = lin % S;
  switch (builtin) {
  case SpvBuiltInSubgroupSize: v[0] = items - id * S < S ? items - id * S : S; return;
  case SpvBuiltInSubgroupMaxSize: v[0] = cx->sg_max; return;
  case SpvBuiltInNumSubgroups: v[0] = (items + S - 1) / S; return;
  case SpvBuiltInNumEnqueuedSubgroups: v[0] = (enq + S - 1) / S; return;
  case SpvBuiltInSubgroupId: v[0] = id; return;
  case SpvBuiltInSubgroupLocalInvocationId: v[0] = lid; return;
  case SpvBuiltInSubgroupEqMask:
  case SpvBuiltInSubgroupGeMask:
  case SpvBuiltInSubgroupGtMask:
  case SpvBuiltInSubgroupLeMask:
  case SpvBuiltInSubgroupLtMask: {
    /* bit masks over sub-group local ids; Ge/Gt stop below SubgroupMaxSize */
    const uint64_t below_max = cx->sg_max >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << cx->sg_max) - 1);
    const uint64_t eq = (uint64_t)1 << lid, lt = eq - 1, le = lt | eq;
    const uint64_t m = builtin == SpvBuiltInSubgroupEqMask   ? eq
                       : builtin == SpvBuiltInSubgroupLtMask ? lt
                       : builtin == SpvBuiltInSubgroupLeMask ? le
                       : builtin == SpvBuiltInSubgroupGeMask ? ~lt & below_max
                                                             : ~le & below_max;
    v[0] = (uint32_t)m;
    v[1] = m >> 32;
    return;
  }
  default: return;
  }
}

/* Built-in `builtin` of the work-item with local linear id `lin` in work-group g (ex_builtin_value). */
static inline __attribute__((always_inline)) void builtin_value(const ex_ctx *cx, const uint64_t g[3], uint64_t lin,
                                                                uint32_t builtin, uint64_t v[3]) {
  const ex_launch *l = cx->l;
  uint64_t lid[3];
  v[0] = v[1] = v[2] = 0;
  switch (builtin) {
  case SpvBuiltInGlobalInvocationId:
  case SpvBuiltInGlobalLinearId:
    ex_unlinear(lin, cx->group_size, lid);
    for (int d = 0; d < 3; d++) v[d] = g[d] * l->local[d] + lid[d] + l->offset[d];
    if (builtin == SpvBuiltInGlobalLinearId) {
      v[0] = ((v[2] - l->offset[2]) * l->global[1] + (v[1] - l->offset[1])) * l->global[0] + (v[0] - l->offset[0]);
      v[1] = v[2] = 0;
    }
    return;
  case SpvBuiltInLocalInvocationId: ex_unlinear(lin, cx->group_size, v); return;
  case SpvBuiltInWorkgroupId: memcpy(v, g, 3 * sizeof *g); return;
  case SpvBuiltInNumWorkgroups: memcpy(v, cx->ngroups, sizeof cx->ngroups); return;
  case SpvBuiltInWorkgroupSize: memcpy(v, cx->group_size, sizeof cx->group_size); return;
  case SpvBuiltInEnqueuedWorkgroupSize: memcpy(v, l->local, sizeof l->local); return;
  case SpvBuiltInGlobalSize: memcpy(v, l->global, sizeof l->global); return;
  case SpvBuiltInGlobalOffset: memcpy(v, l->offset, sizeof l->offset); return;
  case SpvBuiltInWorkDim: v[0] = l->dims; return;
  case SpvBuiltInLocalInvocationIndex: v[0] = lin; return;
  default: subgroup_builtin_value(cx, lin, builtin, v); return;
  }
}

void ex_builtin_value(const ex_ctx *cx, const ex_warp *w, unsigned lane, uint32_t builtin, uint64_t v[3]) {
  if (!w->pack_n) {
    builtin_value(cx, cx->group, ex_lane_queue(w, lane), builtin, v);
    return;
  }
  uint64_t g[3]; /* packed groups (ex_sched.c): the lane's own */
  ex_lane_group(cx, w, lane, g);
  builtin_value(cx, g, ex_lane_item(w, lane), builtin, v);
}

void ex_packed_ids(const ex_ctx *cx, const ex_warp *w, uint32_t builtin, uint64_t (*v)[3]) {
  const ex_launch *l = cx->l;
  const uint64_t *gs = cx->group_size, *ng = cx->ngroups;
  uint64_t g[3], lid[3];
  ex_unlinear(w->first_linear % w->pack_n, gs, lid);
  ex_unlinear(w->pack_g0 + w->first_linear / w->pack_n, ng, g);
  for (unsigned k = 0; k < w->nlanes; k++) {
    for (int d = 0; d < 3; d++)
      v[k][d] = builtin == SpvBuiltInWorkgroupId         ? g[d]
                : builtin == SpvBuiltInLocalInvocationId ? lid[d]
                                                         : g[d] * l->local[d] + lid[d] + l->offset[d];
    /* the next work-item: local ids with carries, past the group's last one the next group (the
     * packed groups all have the current size) */
    if (++lid[0] < gs[0]) continue;
    lid[0] = 0;
    if (++lid[1] < gs[1]) continue;
    lid[1] = 0;
    if (++lid[2] < gs[2]) continue;
    lid[2] = 0;
    if (++g[0] < ng[0]) continue;
    g[0] = 0;
    if (++g[1] < ng[1]) continue;
    g[1] = 0;
    g[2]++;
  }
}
