/*
 * ex_prepare.c — translates the loader's IR into executable code (ex_program): the driver of the
 * translation passes (ex_prep_*.c), the top of the translation's layers (ex_prep.h); the helpers the
 * passes share are in ex_prep_util.c.
 *
 * Owns: laying out the register file (constants, then each function's registers), giving every
 * variable a static allocation (private, local, global, constant), running the passes over every
 * instruction (each chooses the typed handlers of its class, ex_ops.h, and rejects what the executor
 * cannot run with the exact opcode and location), and the analyses of ex_cfg.c: reverse post-order
 * of blocks (the reconvergence order) and the call graph (recursion is rejected: OpenCL C 6.9
 * forbids it, and static register frames depend on it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ex_cfg.h"
#include "ex_prep.h"
#include "gen_spv_tables.h"

/* ---- memory and static allocations -------------------------------------------------------------- */

static void *prep_zalloc(prep *s, size_t n) {
  void *q = calloc(1, n ? n : 1);
  if (!q) prep_nomem(s);
  return q;
}

/* An address constant: a register holding the pointer to static allocation `alloc`. */
static uint32_t addr_const(prep *s, uint32_t alloc) {
  uint32_t r = prep_const(s, NULL, s->p->ptr_bytes);
  prep_addr_patch(s, r, alloc);
  return r;
}

/* The device limits of spvi.h per address space (private memory: prep_private_fits): one
 * variable's size, and the total of the space's variables (0: no such limit). */
static const struct space_limit {
  uint8_t space;
  const char *kind; /* how a message calls the variable */
  uint64_t one;
  const char *one_what, *one_name;
  uint64_t total;
  const char *total_what, *total_name;
} space_limits[] = {
  {EX_AS_LOCAL, "__local variable", SPVI_LOCAL_MEM_SIZE, "a work-group's local memory", "SPVI_LOCAL_MEM_SIZE", 0, NULL,
   NULL},
  {EX_AS_GLOBAL, "program-scope variable", SPVI_MAX_GLOBAL_VARIABLE_SIZE, "the largest global variable",
   "SPVI_MAX_GLOBAL_VARIABLE_SIZE", SPVI_GLOBAL_VARIABLE_TOTAL_SIZE, "global variables",
   "SPVI_GLOBAL_VARIABLE_TOTAL_SIZE"},
  {EX_AS_CONSTANT, "program-scope constant", 0, NULL, NULL, SPVI_MAX_CONSTANT_SIZE, "constant variables",
   "SPVI_MAX_CONSTANT_SIZE"},
};

/* The limits on a variable of `size` bytes in `space`, checked before any of its memory exists
 * (the private arena, local arena and program-scope storage are allocated later, at load and
 * launch). Each size is below 2^32 and each sum is checked as it grows: no wrap. */
static void static_fits(prep *s, uint8_t space, uint64_t size, uint32_t var_id) {
  char nb[96], what[160];
  const char *name = ld_id_name(s->m, var_id, nb, sizeof nb);
  const unsigned long long n = size;
  if (space == EX_AS_PRIVATE) {
    snprintf(what, sizeof what, "private variable `%s` (%llu bytes)", name, n);
    prep_private_fits(s, (uint64_t)s->cbase + s->cbytes, ((s->p->private_size + 15u) & ~(uint64_t)15u) + size, what);
  }
  for (size_t i = 0; i < sizeof space_limits / sizeof space_limits[0]; i++) {
    const struct space_limit *l = &space_limits[i];
    if (l->space != space) continue;
    if (l->one && size > l->one)
      prep_limit(s, "%s `%s` of %llu bytes is above %s, %llu bytes (%s)", l->kind, name, n, l->one_what,
                 (unsigned long long)l->one, l->one_name);
    if (l->total && (s->space_bytes[space] += size) > l->total)
      prep_limit(s, "%s `%s` (%llu bytes) brings the %s to %llu bytes, above their total of %llu bytes (%s)", l->kind,
                 name, n, l->total_what, (unsigned long long)s->space_bytes[space], (unsigned long long)l->total,
                 l->total_name);
  }
}

static uint32_t static_alloc(prep *s, uint8_t space, uint64_t size, uint32_t var_id) {
  ex_program *p = s->p;
  static_fits(s, space, size, var_id);
  p->static_allocs = prep_realloc(s, p->static_allocs, (p->nstatic + 2) * sizeof *p->static_allocs);
  ex_alloc *a = &p->static_allocs[p->nstatic + 1]; /* id 0 is null: index by id */
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

/* ---- functions ------------------------------------------------------------------------------------ */

/* The passes, in the order they are asked (the classes do not overlap). */
static prep_pass *const passes[] = {prep_arith, prep_composite, prep_memory, prep_control,
                                    prep_group, prep_image,     prep_extinst};

static bool translate(prep *s, const ld_insn *in) {
  for (size_t i = 0; i < sizeof passes / sizeof passes[0]; i++) {
    prep_result r = passes[i](s, in);
    if (r != PREP_NEXT) return r == PREP_OK;
  }
  const char *name = spv_op_name(in->opcode);
  return prep_fail(s, "%s is not supported", name ? name : "unknown opcode");
}

/* Function-storage variables: a private static allocation each, whose address is a constant; an
 * OpUndef: a zero constant. */
static bool function_variables(prep *s, const ld_function *fn) {
  for (uint32_t i = 0; i < fn->ninsns; i++) {
    const ld_insn *in = &fn->insns[i];
    s->cur = in;
    if (in->opcode == SpvOpVariable) {
      const ld_type *pt = prep_type(s, in->type);
      const ld_type *vt = pt ? prep_type(s, pt->elem) : NULL;
      if (!pt || !vt) return prep_fail(s, "variable of unknown type");
      if (in->nops < 1 || in->ops[0] != SpvStorageClassFunction)
        return prep_fail(s, "function variable not in Function storage");
      if (!vt->size) return prep_fail(s, "variable of a type without size");
      uint32_t alloc = static_alloc(s, EX_AS_PRIVATE, vt->size, in->result);
      s->reg[in->result] = addr_const(s, alloc);
    } else if (in->opcode == SpvOpUndef) {
      s->reg[in->result] = prep_const(s, NULL, prep_reg_size(s, in->type));
    }
  }
  s->cur = NULL;
  return true;
}

/* Block b of the function: its instructions translated, ending in a terminator. */
static bool prepare_block(prep *s, ex_func *xf, uint32_t b) {
  const ld_block *lb = &s->fn->blocks[b];
  xf->blocks[b].first = s->ncode;
  xf->blocks[b].label = lb->label;
  xf->blocks[b].spv_count = lb->count;
  if (lb->count == 0) return prep_fail(s, "block %%%u is empty", lb->label);
  s->label = lb->label;
  for (uint32_t i = 0; i < lb->count; i++) {
    const ld_insn *in = &s->fn->insns[lb->first + i];
    s->cur = in;
    const ld_type *rt = in->type ? prep_type(s, in->type) : NULL;
    if (in->result && rt && rt->kind != LD_TY_VOID && s->reg[in->result] == LD_NONE && in->opcode != SpvOpVariable) {
      /* not yet assigned: a value of this function (set up in ex_prepare) */
      return prep_fail(s, "result %%%u has no register", in->result);
    }
    if (!translate(s, in)) return false;
  }
  ex_op last = s->ncode > xf->blocks[b].first ? (ex_op)s->code[s->ncode - 1].op : EX_NOP;
  if (last != EX_BR && last != EX_BRC && last != EX_SWITCH && last != EX_RET && last != EX_RETV &&
      last != EX_UNREACHABLE)
    return prep_fail(s, "block %%%u does not end in a branch or return", lb->label);
  xf->blocks[b].count = s->ncode - xf->blocks[b].first;
  return true;
}

static bool prepare_function(prep *s, uint32_t fi) {
  const ld_function *fn = &s->m->funcs[fi];
  ex_func *xf = &s->p->funcs[fi];
  xf->ld = fn;
  xf->index = fi;
  s->fn = fn;
  s->cur = NULL;
  if (fn->is_import) return true;
  if (fn->nblocks == 0) return prep_fail(s, "function has no body");
  if (!function_variables(s, fn)) return false;
  s->ncode = 0;
  s->naux = 0;
  xf->blocks = prep_zalloc(s, fn->nblocks * sizeof *xf->blocks);
  xf->nblocks = fn->nblocks;
  for (uint32_t b = 0; b < fn->nblocks; b++)
    if (!prepare_block(s, xf, b)) return false;
  xf->code = s->code;
  xf->ncode = s->ncode;
  xf->aux = s->aux;
  xf->naux = s->naux;
  s->code = NULL;
  s->capcode = 0;
  s->aux = NULL;
  s->capaux = 0;
  if (!ex_cfg_order(xf)) prep_nomem(s);
  return true;
}

/* A module variable that is a built-in (an Input variable): its entry in p->builtins. */
static bool builtin_global(prep *s, const ld_global *gv, uint32_t alloc) {
  const ld_type *pt = prep_type(s, gv->type);
  prep_elem e;
  s->fn = NULL;
  if (!pt) return prep_fail(s, "built-in variable of unknown type");
  if (!prep_elem_of(s, pt->elem, &e)) return false;
  ex_program *p = s->p;
  p->builtins = prep_realloc(s, p->builtins, (p->nbuiltins + 1) * sizeof *p->builtins);
  p->builtins[p->nbuiltins++] = (struct ex_builtin_var){alloc, gv->builtin, e.bits / 8, e.n, false};
  if (!ex_builtin_supported(gv->builtin)) {
    const char *bn = spv_builtin_name(gv->builtin);
    snprintf(s->err, s->errlen, "%s: built-in variable %s is not supported", s->m->path, bn ? bn : "?");
    return false;
  }
  return true;
}

static bool prepare_globals(prep *s) {
  const ld_module *m = s->m;
  s->p->global_alloc = prep_zalloc(s, (m->nglobals + 1) * sizeof *s->p->global_alloc);
  for (uint32_t g = 0; g < m->nglobals; g++) {
    const ld_global *gv = &m->globals[g];
    uint8_t space;
    char nb[96];
    if (!prep_storage_space(gv->storage, &space)) {
      const char *nm = spv_storage_class_name(gv->storage);
      snprintf(s->err, s->errlen, "%s: module variable `%s` in storage class %s is not supported", m->path,
               ld_id_name(m, gv->id, nb, sizeof nb), nm ? nm : "?");
      return false;
    }
    if (gv->storage == SpvStorageClassInput && gv->builtin == LD_NONE) {
      snprintf(s->err, s->errlen, "%s: Input variable `%s` is not a built-in", m->path,
               ld_id_name(m, gv->id, nb, sizeof nb));
      return false;
    }
    uint32_t alloc = static_alloc(s, space, gv->size, gv->id);
    s->p->global_alloc[g] = alloc;
    if (space == EX_AS_CONSTANT) s->p->static_allocs[alloc].read_only = true;
    if (gv->builtin != LD_NONE && !builtin_global(s, gv, alloc)) return false;
    s->reg[gv->id] = addr_const(s, alloc);
    if (space == EX_AS_PRIVATE && gv->builtin == LD_NONE) s->p->private_builtins_end = UINT64_MAX;
  }
  /* the private arena starts with the built-ins (the only private module variables OpenCL has) */
  s->p->private_builtins_end = s->p->private_builtins_end == UINT64_MAX ? 0 : s->p->private_size;
  return true;
}

/* Register file: [function registers][constants][phi scratch]. Function registers are fixed first,
 * so constants (which grow while translating) and scratch can follow. */
static void layout_registers(prep *s) {
  const ld_module *m = s->m;
  uint64_t fbase = 0;
  for (uint32_t f = 0; f < m->nfuncs; f++) {
    const ld_function *fn = &m->funcs[f];
    s->p->funcs[f].reg_base = fbase;
    for (uint32_t i = 0; i < fn->nparams; i++) s->reg[fn->params[i]] = fbase + m->ids[fn->params[i]].reg;
    for (uint32_t i = 0; i < fn->ninsns; i++) {
      const ld_insn *in = &fn->insns[i];
      if (in->result && in->type && in->opcode != SpvOpVariable && in->opcode != SpvOpUndef && in->result < m->bound &&
          m->ids[in->result].kind == LD_ID_VALUE)
        s->reg[in->result] = fbase + m->ids[in->result].reg;
    }
    fbase += ((uint64_t)fn->reg_bytes + 7u) & ~(uint64_t)7u;
    char nb[96], what[160];
    snprintf(what, sizeof what, "the registers of function `%s` (%u bytes)", ld_id_name(m, fn->id, nb, sizeof nb),
             fn->reg_bytes);
    prep_private_fits(s, fbase, 0, what);
  }
  s->cbase = (uint32_t)fbase;
}

/* The parameters of function f: registers, sizes and by-value copies; its return size. */
static void prepare_params(prep *s, uint32_t f) {
  const ld_module *m = s->m;
  ex_func *xf = &s->p->funcs[f];
  const ld_function *fn = &m->funcs[f];
  xf->param_reg = prep_zalloc(s, (fn->nparams + 1) * sizeof *xf->param_reg);
  xf->param_size = prep_zalloc(s, (fn->nparams + 1) * sizeof *xf->param_size);
  xf->param_byval = prep_zalloc(s, (fn->nparams + 1) * sizeof *xf->param_byval);
  xf->nparams = fn->nparams;
  for (uint32_t i = 0; i < fn->nparams; i++) {
    xf->param_reg[i] = xf->reg_base + m->ids[fn->params[i]].reg;
    xf->param_size[i] = prep_reg_size(s, m->ids[fn->params[i]].type);
    /* A by-value aggregate parameter is a pointer decorated FuncParamAttr ByVal: the callee owns a
     * copy (SPIR-V 3.21 "Pass in as by value"). It gets a private allocation, filled at every call
     * (or, for a kernel, from the argument). */
    const ld_decoration *d = ld_find_decoration(m, fn->params[i], SpvDecorationFuncParamAttr);
    const ld_type *pt = prep_type(s, m->ids[fn->params[i]].type);
    if (d && d->nargs && d->args[0] == SpvFunctionParameterAttributeByVal && pt && pt->kind == LD_TY_POINTER) {
      const ld_type *vt = prep_type(s, pt->elem);
      if (vt && vt->size) xf->param_byval[i] = static_alloc(s, EX_AS_PRIVATE, vt->size, fn->params[i]);
    }
  }
  const ld_type *rt = prep_type(s, fn->ret_type);
  xf->ret_size = rt ? rt->reg_size : 0;
}

/* The program's register file and constants once every function is translated. */
static void finish_program(prep *s) {
  ex_program *p = s->p;
  p->const_base = s->cbase;
  p->const_bytes = (s->cbytes + 7u) & ~7u;
  p->scratch_reg = s->cbase + p->const_bytes;
  const uint64_t scratch = ((uint64_t)s->scratch_need + 7u) & ~(uint64_t)7u;
  prep_private_fits(s, (uint64_t)p->scratch_reg + scratch, p->private_size, "the registers of phi moves");
  p->reg_bytes = p->scratch_reg + (uint32_t)scratch;
  for (uint32_t f = 0; f < s->m->nfuncs; f++) prepare_params(s, f);
  if (p->const_bytes > s->cbytes) memset(s->cinit + s->cbytes, 0, p->const_bytes - s->cbytes); /* padding */
  p->const_init = s->cinit;
  s->cinit = NULL;
  p->ncslots = s->ncslots / 2;
  p->cslots = s->cslots;
  s->cslots = NULL;
  p->bis = s->bis;
  p->nbis = s->nbis;
  s->bis = NULL;
}

static bool check_calls(prep *s) {
  uint32_t fn;
  int st = ex_cfg_call_depth(s->p, &s->p->max_depth, &fn);
  if (st == EX_CFG_NOMEM) prep_nomem(s);
  if (st == EX_CFG_RECURSIVE) {
    char nb[96];
    s->fn = NULL;
    s->cur = NULL;
    return prep_fail(s, "function `%s` is recursive, which OpenCL C forbids (6.9)",
                     ld_id_name(s->m, s->m->funcs[fn].id, nb, sizeof nb));
  }
  ex_cfg_mark_calls(s->p);
  return true;
}

/* The end of ex_prepare: frees the translation state, and the program unless ok. */
static ex_program *prep_end(prep *s, bool ok) {
  ex_program *p = s->p;
  free(s->reg);
  free(s->code);
  free(s->aux);
  free(s->cinit);
  free(s->cslots);
  free(s->bis);
  free(s->tmp);
  free(s);
  if (ok) return p;
  ex_program_free(p);
  return NULL;
}

/* The whole translation; false after a message. */
static bool prepare_program(prep *s) {
  const ld_module *m = s->m;
  s->p = prep_zalloc(s, sizeof *s->p);
  s->reg = prep_realloc(s, NULL, m->bound * sizeof *s->reg);
  for (uint32_t i = 0; i < m->bound; i++) s->reg[i] = LD_NONE;
  ex_program *p = s->p;
  p->ld = m;
  p->ptr_bytes = m->pointer_bytes;
  p->funcs = prep_zalloc(s, m->nfuncs * sizeof *p->funcs);
  p->nfuncs = m->nfuncs;
  layout_registers(s);
  if (!prepare_globals(s)) return false;
  for (uint32_t f = 0; f < m->nfuncs; f++)
    if (!prepare_function(s, f)) return false;
  finish_program(s);
  p->id_reg = s->reg;
  s->reg = NULL;
  return check_calls(s);
}

ex_program *ex_prepare(const ld_module *m, char *err, size_t errlen) {
  if (errlen) err[0] = 0;
  prep *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->m = m;
  s->err = err;
  s->errlen = errlen;
  switch (setjmp(s->nomem)) {
  case 0: break;
  case 1:                   /* prep_nomem */
    if (errlen) err[0] = 0; /* out of memory: no message (ex.h) */
    return prep_end(s, false);
  default: return prep_end(s, false); /* prep_limit: its message */
  }
  bool ok = prepare_program(s);
  /* an empty message means out of memory: a failure always says what failed */
  if (!ok && errlen && !err[0])
    snprintf(err, errlen, "%s: the module cannot be prepared", m->path ? m->path : "module");
  return prep_end(s, ok);
}

void ex_program_free(ex_program *p) {
  if (!p) return;
  for (uint32_t f = 0; f < p->nfuncs; f++) {
    free(p->funcs[f].code);
    free(p->funcs[f].blocks);
    free(p->funcs[f].aux);
    free(p->funcs[f].param_reg);
    free(p->funcs[f].param_size);
    free(p->funcs[f].param_byval);
  }
  free(p->funcs);
  free(p->static_allocs);
  free(p->const_init);
  free(p->addr_reg);
  free(p->addr_alloc);
  free(p->builtins);
  free(p->cslots);
  free(p->bis);
  free(p->global_alloc);
  free(p->bi_types);
  free(p->id_reg);
  free(p);
}

const ex_func *ex_find_func(const ex_program *p, uint32_t id) {
  const ld_module *m = p->ld;
  if (id >= m->bound || m->ids[id].kind != LD_ID_FUNCTION) return NULL;
  return &p->funcs[m->ids[id].index];
}
