/*
 * ex_nullarg.c — which kernel argument a null pointer came from, so that the report of a
 * dereference through a null pointer argument names it (clSetKernelArg with a NULL buffer,
 * OpenCL 3.0 section 5.9.2; spvi_set_arg_mem with NULL).
 *
 * A null pointer carries no allocation id (ex.h "Pointers": id 0), so the argument is found from
 * the code: each pointer operand of the faulting instruction is followed back through the
 * instructions that derive a pointer from one pointer (access chains, casts, OpCopyObject),
 * through a function-scope variable that is stored once before it is loaded and otherwise only
 * loaded (how clang -O0 keeps a parameter, `p.addr`), and from a parameter of a function called
 * from one site to that call's argument, up to a parameter of the kernel. A pointer so derived is
 * that parameter plus an offset, whatever the run. Anything else (a phi, a select, a pointer
 * loaded from other memory, an integer cast) ends the walk: the report then names no argument
 * rather than one the pointer may not come from.
 *
 * Called by ex_fault.c when it builds the report; calls only the loader's IR.
 */
#include <spirv/unified1/spirv.h>

#include "ex_internal.h"
#include "ex_nullarg.h"

enum { NA_MAX_DEPTH = 64 }; /* derivation steps followed; longer chains name no argument */

static int na_trace(const ld_module *m, uint32_t entry, uint32_t id, unsigned depth);

/* Whether instruction `in` may mention var without writing it: a load, a lifetime marker, debug
 * information. */
static bool na_harmless_use(const ld_module *m, const ld_insn *in, uint32_t var) {
  switch (in->opcode) {
  case SpvOpLoad: return in->nops >= 1 && in->ops[0] == var;
  case SpvOpLifetimeStart:
  case SpvOpLifetimeStop: return true;
  case SpvOpExtInst: {
    const uint32_t set = in->nops ? in->ops[0] : 0;
    return set < m->bound && m->ids[set].kind == LD_ID_EXTINST_SET &&
           (m->ids[set].index == LD_EXT_DEBUGINFO || m->ids[set].index == LD_EXT_NONSEMANTIC);
  }
  default: return false;
  }
}

/* The value load `at` of function-scope variable var in f reads, when var is stored once (its
 * initialiser or one OpStore) before `at` and otherwise only read; 0 otherwise. */
static uint32_t na_stored_once(const ld_module *m, const ld_function *f, uint32_t var, uint32_t at) {
  if (var >= m->bound || m->ids[var].kind != LD_ID_VALUE || &m->funcs[m->ids[var].index] != f) return 0;
  const ld_insn *def = &f->insns[m->ids[var].insn];
  if (def->opcode != SpvOpVariable) return 0;
  uint32_t value = def->nops >= 2 ? def->ops[1] : 0, stores = value ? 1 : 0, where = m->ids[var].insn;
  for (uint32_t i = 0; i < f->ninsns; i++) {
    const ld_insn *in = &f->insns[i];
    if (in == def) continue;
    if (in->opcode == SpvOpStore && in->nops >= 2 && in->ops[0] == var) {
      stores++;
      value = in->ops[1];
      where = i;
      continue;
    }
    for (uint32_t k = 0; k < in->nops; k++)
      if (in->ops[k] == var && !na_harmless_use(m, in, var)) return 0;
  }
  /* blocks are contiguous in module order, the entry block first: a store in the entry block
   * before the load runs before it (a load elsewhere in the entry block or in a later block) */
  const ld_block *b0 = &f->blocks[0];
  return stores == 1 && where < b0->first + b0->count && where < at ? value : 0;
}

/* The argument that the one call of function `callee` passes for its parameter k; 0 when the
 * function is called from more or fewer than one site. */
static uint32_t na_single_call(const ld_module *m, uint32_t callee, uint32_t k) {
  uint32_t arg = 0, calls = 0;
  for (uint32_t fi = 0; fi < m->nfuncs; fi++)
    for (uint32_t i = 0; i < m->funcs[fi].ninsns; i++) {
      const ld_insn *in = &m->funcs[fi].insns[i];
      if (in->opcode == SpvOpFunctionCall && in->nops > 1 + k && in->ops[0] == callee) {
        calls++;
        arg = in->ops[1 + k];
      }
    }
  return calls == 1 ? arg : 0;
}

/* A parameter: its index when it is the kernel's, else the argument of its function's one call. */
static int na_param(const ld_module *m, uint32_t entry, uint32_t id, unsigned depth) {
  const ld_function *f = &m->funcs[m->ids[id].index];
  for (uint32_t k = 0; k < f->nparams; k++) {
    if (f->params[k] != id) continue;
    if (m->ids[id].index == entry) return (int)k;
    const uint32_t arg = na_single_call(m, f->id, k);
    return arg ? na_trace(m, entry, arg, depth + 1) : -1;
  }
  return -1;
}

/* The kernel parameter (index) that pointer `id` is derived from, or -1. */
static int na_trace(const ld_module *m, uint32_t entry, uint32_t id, unsigned depth) {
  if (depth > NA_MAX_DEPTH || id >= m->bound) return -1;
  if (m->ids[id].kind == LD_ID_PARAM) return na_param(m, entry, id, depth);
  if (m->ids[id].kind != LD_ID_VALUE) return -1;
  const ld_function *f = &m->funcs[m->ids[id].index];
  const ld_insn *in = &f->insns[m->ids[id].insn];
  if (!in->nops) return -1;
  switch (in->opcode) {
  /* SPIR-V 3.32.8 and 3.32.11: the result is the base pointer plus an offset, or the same
   * pointer in another type or storage class */
  case SpvOpAccessChain:
  case SpvOpInBoundsAccessChain:
  case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain:
  case SpvOpBitcast:
  case SpvOpCopyObject:
  case SpvOpPtrCastToGeneric:
  case SpvOpGenericCastToPtr:
  case SpvOpGenericCastToPtrExplicit: return na_trace(m, entry, in->ops[0], depth + 1);
  case SpvOpLoad: {
    const uint32_t v = na_stored_once(m, f, in->ops[0], m->ids[id].insn);
    return v ? na_trace(m, entry, v, depth + 1) : -1;
  }
  default: return -1;
  }
}

/* Whether the launch passes a null pointer for parameter i. */
static bool na_is_null(const ex_launch *l, uint32_t i) {
  const ex_arg *a = &l->args[i];
  if (l->entry->param_byval[i] || a->is_local || a->is_image) return false;
  return a->is_svm ? a->svm_ptr == 0 : a->set && !a->bytes;
}

int ex_null_arg(const ex_ctx *cx) {
  if (!cx->ffn || !cx->finsn) return -1;
  const ld_module *m = cx->prog->ld;
  const ex_launch *l = cx->l;
  const uint32_t entry = (uint32_t)(l->entry->ld - m->funcs);
  const ld_insn *in = &cx->ffn->ld->insns[cx->finsn->src];
  int found = -1;
  for (uint32_t k = 0; k < in->nops; k++) {
    const uint32_t id = in->ops[k];
    if (id >= m->bound || (m->ids[id].kind != LD_ID_VALUE && m->ids[id].kind != LD_ID_PARAM)) continue;
    const ld_type *t = ld_type_of(m, m->ids[id].type);
    if (!t || t->kind != LD_TY_POINTER) continue;
    const int p = na_trace(m, entry, id, 0);
    if (p < 0 || (uint32_t)p >= l->nargs || !na_is_null(l, (uint32_t)p)) continue;
    if (found >= 0 && found != p) return -1; /* two null arguments: which one faulted is unknown */
    found = p;
  }
  return found;
}
