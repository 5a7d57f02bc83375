/*
 * ex_sched.c — runs a launch: builds the allocation table and pointer encoding, creates warps,
 * walks the NDRange work-group by work-group, fills built-in variables, synchronises barriers, and
 * turns a fault into the report users read.
 *
 * Work-groups (OpenCL 2.0 3.2.2 / SPIR-V env 2.9): the NDRange is split into ceil(global/local)
 * groups per dimension; the last group of a dimension is smaller when global is not a multiple of
 * local (non-uniform work-groups). A group's work-items are numbered by local linear id (x fastest)
 * and cut into warps of W lanes. Groups run one after the other in linear order; inside a group
 * each warp runs until it finishes or reaches a barrier, and the barrier releases once every warp is
 * waiting at the same barrier instruction.
 *
 * Determinism: private and local memory start zeroed for every work-item and group, so a kernel
 * that reads memory it never wrote still gets the same bits on every run and host.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include <spirv/unified1/spirv.h>

#include "bi_half.h"
#include "ex_internal.h"
#include "ex_shadow.h"
#include "ex_svm.h"
#include "gen_spv_tables.h"

static const uint32_t supported_builtins[] = {
  SpvBuiltInGlobalInvocationId, SpvBuiltInLocalInvocationId, SpvBuiltInWorkgroupId,
  SpvBuiltInNumWorkgroups, SpvBuiltInWorkgroupSize, SpvBuiltInEnqueuedWorkgroupSize,
  SpvBuiltInGlobalSize, SpvBuiltInGlobalOffset, SpvBuiltInWorkDim, SpvBuiltInGlobalLinearId,
  SpvBuiltInLocalInvocationIndex,
  /* sub-groups (cl_khr_subgroups; masks: cl_khr_subgroup_ballot) */
  SpvBuiltInSubgroupSize, SpvBuiltInSubgroupMaxSize, SpvBuiltInNumSubgroups, SpvBuiltInNumEnqueuedSubgroups,
  SpvBuiltInSubgroupId, SpvBuiltInSubgroupLocalInvocationId, SpvBuiltInSubgroupEqMask, SpvBuiltInSubgroupGeMask,
  SpvBuiltInSubgroupGtMask, SpvBuiltInSubgroupLeMask, SpvBuiltInSubgroupLtMask,
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
  case LD_TY_INT: out->kind = BI_INT; out->bits = (uint8_t)t->bits; return true;
  case LD_TY_FLOAT: out->kind = BI_FLOAT; out->bits = (uint8_t)t->bits; return true;
  case LD_TY_BOOL: out->kind = BI_BOOL; out->bits = 8; return true;
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

/* ---- faults ------------------------------------------------------------------------------- */

void *ex_fault(ex_ctx *cx, spvi_fault_kind k, ex_warp *w, unsigned lane, uint32_t alloc, int64_t off,
               uint64_t size, const char *detail) {
  if (cx->faulted) return NULL;
  cx->faulted = true;
  cx->fkind = k;
  cx->fwarp = w;
  cx->flane = lane;
  cx->falloc = alloc;
  cx->foff = off;
  cx->fsize = size;
  cx->fsvm_base = cx->fsvm_size = 0;  /* ex_svm.c sets them after this for SVM memory */
  cx->finsn = cx->cur_ip;
  cx->ffn = cx->cur_fn;
  snprintf(cx->fdetail, sizeof cx->fdetail, "%s", detail ? detail : "");
  return NULL;
}

/* Each fault kind's name in reports and its identifier in JSON lines (--report). */
static const struct { const char *name, *id; } fault_kinds[] = {
  [SPVI_FAULT_NONE] = {"no fault", "none"},
  [SPVI_FAULT_OUT_OF_BOUNDS] = {"out-of-bounds access", "out-of-bounds"},
  [SPVI_FAULT_NULL_POINTER] = {"null pointer dereference", "null-pointer"},
  [SPVI_FAULT_BAD_POINTER] = {"invalid pointer dereference", "bad-pointer"},
  [SPVI_FAULT_READ_ONLY] = {"write to read-only memory", "read-only-write"},
  [SPVI_FAULT_BARRIER_DIVERGENCE] = {"barrier divergence", "divergence"},
  [SPVI_FAULT_UNREACHABLE] = {"unreachable code reached", "unreachable"},
  [SPVI_FAULT_UNSUPPORTED] = {"unsupported operation", "unsupported"},
  [SPVI_FAULT_MISALIGNED] = {"misaligned access", "misaligned"},
  [SPVI_FAULT_STEP_LIMIT] = {"step limit exceeded", "step-limit"},
  [SPVI_FAULT_ASYNC_COPY] = {"async copy misuse", "async-copy"},
  [SPVI_FAULT_IMAGE] = {"undefined image operation", "image"},
};

const char *spvi_fault_kind_name(spvi_fault_kind k) {
  return (unsigned)k < sizeof fault_kinds / sizeof fault_kinds[0] && fault_kinds[k].name ? fault_kinds[k].name : "fault";
}

const char *spvi_fault_kind_id(spvi_fault_kind k) {
  return (unsigned)k < sizeof fault_kinds / sizeof fault_kinds[0] && fault_kinds[k].id ? fault_kinds[k].id : "fault";
}

void ex_unlinear(uint64_t lin, const uint64_t dims[3], uint64_t out[3]) {
  out[0] = lin % dims[0];
  out[1] = (lin / dims[0]) % dims[1];
  out[2] = lin / (dims[0] * dims[1]);
}

void ex_group_size(const ex_launch *l, const uint64_t g[3], uint64_t size[3]) {
  for (int d = 0; d < 3; d++) {
    uint64_t rest = l->global[d] - g[d] * l->local[d];
    size[d] = rest < l->local[d] ? rest : l->local[d];
  }
}

void ex_lane_ids(const ex_ctx *cx, const ex_warp *w, unsigned lane, uint64_t lid[3]) {
  ex_unlinear(ex_lane_item(w, lane), cx->group_size, lid);
}

void ex_describe_alloc(const ex_ctx *cx, uint32_t id, char *buf, size_t len) {
  const ld_module *m = cx->prog->ld;
  const ex_alloc *a = &cx->allocs[id];
  char nb[96];
  static const char *const space_names[] = {"private", "global", "constant", "local"};
  const char *sp = a->space < 4 ? space_names[a->space] : "?";
  if (a->arg_index >= 0 && a->image) {
    uint32_t pid = cx->l->entry->ld->params[a->arg_index];
    const char *nm = m->ids[pid].name;
    char d[160];
    ex_image_describe(a->image, d, sizeof d);
    /* cut at len on purpose (the report's field is fixed-size) */
    if (snprintf(buf, len, "argument %d%s%s%s (%s)", a->arg_index, nm ? " `" : "", nm ? nm : "", nm ? "`" : "", d) < 0)
      buf[0] = 0;
  } else if (a->arg_index >= 0) {
    uint32_t pid = cx->l->entry->ld->params[a->arg_index];
    const char *nm = m->ids[pid].name;
    snprintf(buf, len, "argument %d%s%s%s (%s buffer of %llu bytes)", a->arg_index, nm ? " `" : "", nm ? nm : "",
             nm ? "`" : "", sp, (unsigned long long)a->size);
  } else if (a->var_id) {
    bool module_scope = a->var_id < m->bound && m->ids[a->var_id].kind == LD_ID_GLOBAL;
    snprintf(buf, len, "%s %s `%s` (%llu bytes)", sp, module_scope ? "program-scope variable" : "variable",
             ld_id_name(m, a->var_id, nb, sizeof nb), (unsigned long long)a->size);
  } else {
    snprintf(buf, len, "%s memory (%llu bytes)", sp, (unsigned long long)a->size);
  }
}

/* vsnprintf into a fixed buffer: a report longer than the buffer is cut, on purpose. */
static void format_into(char *buf, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, cap, fmt, ap);
  va_end(ap);
}

static void build_report(const ex_ctx *cx, spvi_fault *f) {
  const ld_module *m = cx->prog->ld;
  memset(f, 0, sizeof *f);
  f->kind = cx->fkind;
  f->arg_index = -1;
  snprintf(f->kernel, sizeof f->kernel, "%s", m->entries[cx->l->kernel].name);
  uint64_t lid[3] = {0, 0, 0};
  if (cx->fwarp) ex_lane_ids(cx, cx->fwarp, cx->flane, lid);
  for (int d = 0; d < 3; d++) {
    f->local_id[d] = lid[d];
    f->group_id[d] = cx->group[d];
    f->global_id[d] = cx->group[d] * cx->l->local[d] + lid[d] + cx->l->offset[d];
  }
  spvi_site at;
  memset(&at, 0, sizeof at);
  ex_site_where(m, cx->ffn, cx->finsn, &at);
  f->result_id = at.result_id;
  memcpy(f->opcode, at.opcode, sizeof f->opcode);
  memcpy(f->function, at.function, sizeof f->function);
  memcpy(f->file, at.file, sizeof f->file);
  f->line = at.line;
  f->column = at.column;
  char where[512] = "";
  if (cx->falloc || cx->fsvm_size) {
    /* an allocation of the launch, or the SVM allocation the pointer fell in (ex_svm.c) */
    const ex_alloc *a = cx->falloc ? &cx->allocs[cx->falloc] : NULL;
    if (a) {
      f->arg_index = a->arg_index;
      ex_describe_alloc(cx, cx->falloc, f->memory, sizeof f->memory);
      f->memory_size = a->size;
    } else {
      snprintf(f->memory, sizeof f->memory, "SVM allocation at 0x%llx (%llu bytes)", (unsigned long long)cx->fsvm_base,
               (unsigned long long)cx->fsvm_size);
      f->memory_size = cx->fsvm_size;
    }
    f->offset = cx->foff;
    f->access_size = cx->fsize;
    if (a && a->image)  /* image accesses say where in pixel coordinates */
      snprintf(where, sizeof where, "\n  %s\n  image: %s", cx->fdetail, f->memory);
    else
      snprintf(where, sizeof where, "\n  %s of %llu bytes at offset %lld of %s", cx->fdetail[0] ? cx->fdetail : "access",
               (unsigned long long)cx->fsize, (long long)cx->foff, f->memory);
  } else if (cx->fkind == SPVI_FAULT_NULL_POINTER || cx->fkind == SPVI_FAULT_BAD_POINTER) {
    snprintf(where, sizeof where, "\n  %s of %llu bytes through pointer 0x%llx, which points to no memory",
             cx->fdetail[0] ? cx->fdetail : "access", (unsigned long long)cx->fsize, (unsigned long long)cx->foff);
  } else if (cx->fdetail[0]) {
    snprintf(where, sizeof where, "\n  %s", cx->fdetail);
  }
  char src[300];
  if (f->line) snprintf(src, sizeof src, "%s:%u%s", f->file[0] ? f->file : "?", f->line, "");
  else snprintf(src, sizeof src, "no source line information");
  const char *fnn = f->function[0] ? f->function : "?";
  /* the report may be cut at sizeof f->message; the fields above keep every detail */
  format_into(f->message, sizeof f->message,
           "%s in kernel `%s`\n  work-item global (%zu,%zu,%zu) local (%zu,%zu,%zu) group (%zu,%zu,%zu)\n"
           "  at %s %%%u in function `%s` (%s)%s",
           spvi_fault_kind_name(f->kind), f->kernel, f->global_id[0], f->global_id[1], f->global_id[2],
           f->local_id[0], f->local_id[1], f->local_id[2], f->group_id[0], f->group_id[1], f->group_id[2],
           f->opcode[0] ? f->opcode : "?", f->result_id, fnn, src, where);
}

/* ---- the launch ----------------------------------------------------------------------------- */

typedef struct run {
  ex_ctx cx;
  ex_warp *warps;
  unsigned nwarps;
  bool holds_pstate;         /* launch_begin acquired the module's program state */
  bool lane_init;            /* init_lane has something to write (built-ins in memory, by-value copies) */
  uint64_t local_bytes;
} run;

/* Whether kernel parameter `pid` carries FuncParamAttr NoWrite (OpenCL C `const` pointers): the
 * kernel promises not to write through it (SPIR-V 3.21), so its buffer is read-only memory. */
static bool param_nowrite(const ld_module *m, uint32_t pid) {
  for (uint32_t i = 0; i < m->ndecos; i++) {
    const ld_decoration *d = &m->decos[i];
    if (d->target == pid && d->decoration == SpvDecorationFuncParamAttr && d->nargs &&
        d->args[0] == SpvFunctionParameterAttributeNoWrite)
      return true;
  }
  return false;
}

/* The run's view of SVM memory (ex_svm.h): a snapshot of the live allocations, which SVM pointers
 * reach only if their address window's id is not one of the launch's allocation ids. A launch with
 * SVM arguments whose allocation table reaches that far is refused; one without keeps the snapshot
 * for the windows it can still tell apart (an SVM pointer it finds in memory and cannot, faults). */
static bool setup_svm(ex_ctx *cx, char *err, size_t errlen) {
  if (cx->prog->ptr_bytes != 8) return true;  /* Physical32: kernels cannot hold SVM addresses */
  ex_svm_snap *s = ex_svm_snapshot();
  cx->svm = s;
  if (!s || cx->nallocs <= s->min_window) return true;
  for (uint32_t i = 0; i < cx->l->nargs; i++) {
    if (!cx->l->args[i].is_svm) continue;
    snprintf(err, errlen, "kernel `%s`: SVM arguments need fewer than %llu memory allocations in the launch, it has %u "
             "(the module's %u variables and the kernel's pointer arguments): spvi tells SVM addresses apart from its "
             "own pointers by their top bits (compiling with optimisation leaves fewer variables)",
             cx->prog->ld->entries[cx->l->kernel].name, (unsigned long long)s->min_window, cx->nallocs - 1,
             cx->prog->nstatic);
    return false;
  }
  return true;
}

static spvi_status setup_allocs(run *r, char *err, size_t errlen) {
  ex_ctx *cx = &r->cx;
  const ex_program *p = cx->prog;
  const ld_module *m = p->ld;
  const ex_launch *l = cx->l;
  const ex_pstate *ps = l->pstate;
  uint32_t n = 1 + p->nstatic + l->nargs;
  cx->allocs = calloc(n, sizeof *cx->allocs);
  if (!cx->allocs) return SPVI_E_NOMEM;
  cx->nallocs = 1 + p->nstatic;
  for (uint32_t i = 1; i <= p->nstatic; i++) {
    ex_alloc *a = &cx->allocs[i];
    *a = p->static_allocs[i];
    /* program-scope variables in global and constant memory live with the module (ex_globals.c) */
    if (a->space == EX_AS_GLOBAL || a->space == EX_AS_CONSTANT) a->base = ps->mem[i];
  }
  r->local_bytes = p->local_static;
  for (uint32_t i = 0; i < l->nargs; i++) {
    const ld_type *pt = ld_type_of(m, m->ids[l->entry->ld->params[i]].type);
    if (l->args[i].is_image) {
      /* an image: global memory holding its pixels, which image instructions alone access */
      ex_alloc *a = &cx->allocs[cx->nallocs++];
      memset(a, 0, sizeof *a);
      a->arg_index = (int)i;
      a->size = l->args[i].size;
      a->space = EX_AS_GLOBAL;
      a->base = l->args[i].bytes;
      a->image = &l->args[i].image;
      a->locked_atomics = l->args[i].mem != NULL;
      continue;
    }
    if (l->entry->param_byval[i] || !pt || pt->kind != LD_TY_POINTER || l->args[i].is_svm) continue;
    ex_alloc *a = &cx->allocs[cx->nallocs];
    memset(a, 0, sizeof *a);
    a->arg_index = (int)i;
    a->size = l->args[i].size;
    a->locked_atomics = l->args[i].mem != NULL;
    if (pt->storage == SpvStorageClassWorkgroup) {
      a->space = EX_AS_LOCAL;
      r->local_bytes = (r->local_bytes + 127u) & ~(uint64_t)127u;  /* generous alignment: any type */
      a->offset = r->local_bytes;
      r->local_bytes += a->size;
    } else {
      a->space = pt->storage == SpvStorageClassUniformConstant ? EX_AS_CONSTANT : EX_AS_GLOBAL;
      a->read_only = a->space == EX_AS_CONSTANT || param_nowrite(m, l->entry->ld->params[i]);
      a->base = l->args[i].bytes;
    }
    cx->nallocs++;
  }
  /* the module's pointer encoding (see ex.h), the same for all its launches */
  cx->shift = ps->shift;
  cx->ptr_mask = ps->ptr_mask;
  cx->off_mask = ps->off_mask;
  cx->bias = ps->bias;
  for (uint32_t i = 1; i < cx->nallocs; i++) {
    if (cx->allocs[i].size >= cx->bias) {
      snprintf(err, errlen, "%s: %llu-byte memory does not fit the 32-bit address space of this module with %u allocations",
               m->path, (unsigned long long)cx->allocs[i].size, cx->nallocs - 1);
      return SPVI_E_USAGE;
    }
  }
  if (!setup_svm(cx, err, errlen)) return SPVI_E_USAGE;
  if (cx->checks && !ex_chk_launch_begin(cx)) return SPVI_E_NOMEM;
  return SPVI_OK;
}

/* Add the address of allocation `alloc` to the pointer stored at dst. */
static void relocate(const ex_ctx *cx, uint8_t *dst, uint32_t alloc) {
  uint64_t v = 0;
  memcpy(&v, dst, cx->prog->ptr_bytes);  /* little-endian host: the low bytes */
  v += ex_ptr_of(cx, alloc);
  memcpy(dst, &v, cx->prog->ptr_bytes);
}

static uint32_t arg_alloc_id(const run *r, uint32_t index) {
  for (uint32_t i = 1; i < r->cx.nallocs; i++)
    if (r->cx.allocs[i].arg_index == (int)index) return i;
  return 0;
}

static bool setup_warps(run *r, uint64_t max_group) {
  ex_ctx *cx = &r->cx;
  const ex_program *p = cx->prog;
  const ex_launch *l = cx->l;
  const unsigned W = cx->W;
  r->nwarps = (unsigned)((max_group + W - 1) / W);
  r->warps = calloc(r->nwarps, sizeof *r->warps);
  if (!r->warps) return false;
  /* one lane's constant area with the launch's addresses patched in */
  uint8_t *cinit = malloc(p->const_bytes + 8);
  if (!cinit) return false;
  if (p->const_bytes) memcpy(cinit, p->const_init, p->const_bytes);
  for (uint32_t i = 0; i < p->naddr; i++) relocate(cx, cinit + (p->addr_reg[i] - p->const_base), p->addr_alloc[i]);
  bool ok = true;
  for (unsigned k = 0; k < r->nwarps && ok; k++) {
    ex_warp *w = &r->warps[k];
    w->regs = calloc((size_t)p->reg_bytes * W + 8, 1);
    w->priv = calloc((size_t)p->private_size * W + 8, 1);
    w->stack = calloc(p->max_depth + 1, sizeof *w->stack);
    if (!w->regs || !w->priv || !w->stack) { ok = false; break; }
    uint8_t *R = w->regs;
    for (uint32_t s = 0; s < p->ncslots; s++) {
      uint32_t reg = p->cslots[2 * s], size = p->cslots[2 * s + 1];
      for (unsigned lane = 0; lane < W; lane++)
        memcpy(R + (size_t)reg * W + (size_t)lane * size, cinit + (reg - p->const_base), size);
    }
    /* kernel arguments into the entry function's parameter registers */
    const ex_func *e = l->entry;
    for (uint32_t i = 0; i < e->nparams; i++) {
      uint8_t val[128];
      memset(val, 0, sizeof val);
      uint32_t size = e->param_size[i];
      if (e->param_byval[i]) {
        uint64_t v = ex_ptr_of(cx, e->param_byval[i]);
        memcpy(val, &v, p->ptr_bytes);
      } else if (l->args[i].is_svm) {
        memcpy(val, &l->args[i].svm_ptr, p->ptr_bytes);  /* the host address itself (ex_svm.c) */
      } else if (l->args[i].is_local || (l->args[i].bytes && arg_alloc_id(r, i))) {
        uint64_t v = ex_ptr_of(cx, arg_alloc_id(r, i));
        memcpy(val, &v, p->ptr_bytes);
      } else if (l->args[i].bytes) {
        if (size > sizeof val) { ok = false; break; }
        memcpy(val, l->args[i].bytes, l->args[i].size < size ? l->args[i].size : size);
      }
      for (unsigned lane = 0; lane < W; lane++)
        memcpy(R + (size_t)e->param_reg[i] * W + (size_t)lane * size, val, size);
    }
  }
  free(cinit);
  return ok;
}

static void write_vec(uint8_t *dst, uint32_t elem_bytes, uint32_t ncomp, const uint64_t v[3]) {
  for (uint32_t i = 0; i < ncomp && i < 3; i++) {
    if (elem_bytes == 8) memcpy(dst + 8 * i, &v[i], 8);
    else { uint32_t x = (uint32_t)v[i]; memcpy(dst + 4 * i, &x, 4); }
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
  case SpvBuiltInSubgroupEqMask: case SpvBuiltInSubgroupGeMask: case SpvBuiltInSubgroupGtMask:
  case SpvBuiltInSubgroupLeMask: case SpvBuiltInSubgroupLtMask: {
    /* bit masks over sub-group local ids; Ge/Gt stop below SubgroupMaxSize */
    const uint64_t below_max = cx->sg_max >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << cx->sg_max) - 1);
    const uint64_t eq = (uint64_t)1 << lid, lt = eq - 1, le = lt | eq;
    const uint64_t m = builtin == SpvBuiltInSubgroupEqMask ? eq : builtin == SpvBuiltInSubgroupLtMask ? lt
                     : builtin == SpvBuiltInSubgroupLeMask ? le : builtin == SpvBuiltInSubgroupGeMask ? ~lt & below_max
                     : ~le & below_max;
    v[0] = (uint32_t)m;
    v[1] = m >> 32;
    return;
  }
  default: return;
  }
}

void ex_builtin_value(const ex_ctx *cx, const ex_warp *w, unsigned lane, uint32_t builtin, uint64_t v[3]) {
  const ex_launch *l = cx->l;
  uint64_t lid[3];
  v[0] = v[1] = v[2] = 0;
  switch (builtin) {
  case SpvBuiltInGlobalInvocationId:
  case SpvBuiltInGlobalLinearId:
    ex_lane_ids(cx, w, lane, lid);
    for (int d = 0; d < 3; d++) v[d] = cx->group[d] * l->local[d] + lid[d] + l->offset[d];
    if (builtin == SpvBuiltInGlobalLinearId) {
      v[0] = ((v[2] - l->offset[2]) * l->global[1] + (v[1] - l->offset[1])) * l->global[0] + (v[0] - l->offset[0]);
      v[1] = v[2] = 0;
    }
    return;
  case SpvBuiltInLocalInvocationId: ex_lane_ids(cx, w, lane, v); return;
  case SpvBuiltInWorkgroupId: memcpy(v, cx->group, sizeof cx->group); return;
  case SpvBuiltInNumWorkgroups: memcpy(v, cx->ngroups, sizeof cx->ngroups); return;
  case SpvBuiltInWorkgroupSize: memcpy(v, cx->group_size, sizeof cx->group_size); return;
  case SpvBuiltInEnqueuedWorkgroupSize: memcpy(v, l->local, sizeof l->local); return;
  case SpvBuiltInGlobalSize: memcpy(v, l->global, sizeof l->global); return;
  case SpvBuiltInGlobalOffset: memcpy(v, l->offset, sizeof l->offset); return;
  case SpvBuiltInWorkDim: v[0] = l->dims; return;
  case SpvBuiltInLocalInvocationIndex: v[0] = ex_lane_item(w, lane); return;
  default: subgroup_builtin_value(cx, ex_lane_item(w, lane), builtin, v); return;
  }
}

/* Fill a lane's built-ins and by-value argument copies (its private arena is zeroed). Built-ins
 * only ever loaded whole are computed by EX_BUILTIN instead (ex.h, ex_builtin_var), except under
 * the debugger, which shows them from memory. */
static void init_lane(run *r, ex_warp *w, unsigned lane) {
  ex_ctx *cx = &r->cx;
  const ex_program *p = cx->prog;
  const ex_launch *l = cx->l;
  uint8_t *priv = w->priv + (size_t)lane * p->private_size;
  for (uint32_t b = 0; b < p->nbuiltins; b++) {
    const struct ex_builtin_var *bv = &p->builtins[b];
    if (!bv->materialize && !cx->dbg) continue;
    uint64_t v[3];
    ex_builtin_value(cx, w, lane, bv->builtin, v);
    write_vec(priv + cx->allocs[bv->alloc].offset, bv->elem_bytes, bv->ncomp, v);
  }
  const ex_func *e = l->entry;
  for (uint32_t i = 0; i < e->nparams; i++) {
    if (!e->param_byval[i] || !l->args[i].bytes) continue;
    const ex_alloc *a = &cx->allocs[e->param_byval[i]];
    memcpy(priv + a->offset, l->args[i].bytes, l->args[i].size < a->size ? l->args[i].size : a->size);
  }
}

/* The step count past which a work-item started at step `start` exceeds the step limit. */
static uint64_t step_limit_from(const ex_ctx *cx, uint64_t start) {
  return start > UINT64_MAX - cx->max_steps ? UINT64_MAX : start + cx->max_steps;
}

/* Lanes 0..n-1 of w start work-items first .. first + n - 1 at the warp's current step: zeroed
 * private memory (built-ins computed in registers, !lane_init, need no bytes in memory), built-ins
 * and by-value copies written where needed. */
static void start_lanes(run *r, ex_warp *w, uint32_t first, unsigned n) {
  ex_ctx *cx = &r->cx;
  w->first_linear = first;
  w->nlanes = n;
  w->all = n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
  w->recycled = false;
  for (unsigned l = 0; l < n; l++) w->lane_start[l] = w->steps;
  w->step_limit = step_limit_from(cx, w->steps);
  const uint64_t P = cx->prog->private_size, skip = r->lane_init ? 0 : cx->prog->private_builtins_end;
  if (!skip) memset(w->priv, 0, (size_t)n * P);
  else if (P > skip)
    for (unsigned lane = 0; lane < n; lane++) memset(w->priv + (size_t)lane * P + skip, 0, P - skip);
  if (r->lane_init)
    for (unsigned lane = 0; lane < n; lane++) init_lane(r, w, lane);
}

static void start_warp(run *r, ex_warp *w, uint32_t first, unsigned nlanes) {
  ex_ctx *cx = &r->cx;
  w->depth = 1;
  w->state = EX_W_RUN;
  w->barrier_at = NULL;
  w->steps = 0;
  start_lanes(r, w, first, nlanes);
  ex_frame *f = &w->stack[0];
  f->fn = cx->l->entry;
  f->live = w->all;
  f->cur = -1;
  f->active = 0;
  f->ret_dst = LD_NONE;
  f->pend[0] = (ex_pending){.rpo = f->fn->blocks[0].rpo, .block = 0, .lanes = w->all};
  f->npend = 1;
  f->wait_cost = 0;
  f->go_behind = false;
}

/* --stats: a work-item started in the entry wrapper's callee still counts the wrapper's block. */
static void count_wrapper(ex_ctx *cx, unsigned items) {
  if (cx->recycle_depth == 2) cx->instructions += (uint64_t)cx->l->entry->blocks[0].spv_count * items;
}

uint64_t ex_restart_warp(ex_ctx *cx, ex_warp *w) {
  if (cx->queue_next >= cx->queue_end) return 0;
  const unsigned left = cx->queue_end - cx->queue_next, n = left < cx->W ? left : cx->W;
  start_lanes((run *)(void *)cx, w, cx->queue_next, n);  /* cx is the first member of its run */
  cx->queue_next += n;
  count_wrapper(cx, n);
  if (cx->chk) ex_chk_warp_restart(cx, w);
  return w->all;
}

uint64_t ex_recycle_lanes(ex_ctx *cx, ex_warp *w, uint64_t lanes) {
  run *r = (run *)(void *)cx;
  const uint64_t P = cx->prog->private_size, skip = r->lane_init ? 0 : cx->prog->private_builtins_end;
  if (cx->queue_next >= cx->queue_end && !w->recycled) return 0;  /* nothing left, and no lane_start */
  /* every lane finished at once (code without divergent exits): the next work-items in a row, as
   * if a new warp started (consecutive items keep the built-ins' whole-warp paths) */
  if (lanes == w->all && cx->queue_end - cx->queue_next >= w->nlanes) return ex_restart_warp(cx, w);
  if (!w->recycled) {
    for (unsigned l = 0; l < w->nlanes; l++) w->item[l] = w->first_linear + l;
    w->recycled = true;
  }
  uint64_t started = 0;
  for (uint64_t m = lanes; m; m &= m - 1) {
    const unsigned l = (unsigned)__builtin_ctzll(m);
    if (cx->queue_next >= cx->queue_end) { w->lane_start[l] = UINT64_MAX; continue; }  /* done for good */
    w->item[l] = cx->queue_next++;
    if (P > skip) memset(w->priv + (size_t)l * P + skip, 0, P - skip);
    if (r->lane_init) init_lane(r, w, l);
    w->lane_start[l] = w->steps;
    started |= (uint64_t)1 << l;
  }
  count_wrapper(cx, (unsigned)__builtin_popcountll(started));
  /* the step limit follows the oldest work-item still running (a finished lane counts as never) */
  w->step_limit = step_limit_from(cx, w->lane_start[ex_oldest_lane(w)]);
  return started;
}

static void group_fault(ex_ctx *cx, ex_warp *w, const char *detail) {
  cx->cur_ip = w->barrier_at;
  cx->cur_fn = w->stack[w->depth - 1].fn;
  ex_fault(cx, SPVI_FAULT_BARRIER_DIVERGENCE, w, 0, 0, 0, 0, detail);
}

/* printf sink: each work-item's text is kept apart and emitted in local linear id order when its
 * work-group ends, so the output is the same at every warp width. */
static void printf_write(void *ctx, unsigned lane, const char *text, size_t len) {
  ex_ctx *cx = ctx;
  if (!cx->l->on_printf || !cx->printf_buf) return;
  uint64_t item = ex_lane_item(cx->cur_warp, lane);
  if (item >= cx->printf_items) return;
  struct ex_text *t = &cx->printf_buf[item];
  if (t->len + len + 1 > t->cap) {
    size_t cap = (t->len + len + 1) * 2;
    char *n = realloc(t->text, cap);
    if (!n) abort();  /* out of memory for printf output */
    t->text = n;
    t->cap = cap;
  }
  memcpy(t->text + t->len, text, len);
  t->len += len;
}

static void printf_flush(ex_ctx *cx) {
  if (!cx->l->on_printf || !cx->printf_buf) return;
  for (uint64_t i = 0; i < cx->printf_items; i++) {
    struct ex_text *t = &cx->printf_buf[i];
    if (t->len) cx->l->on_printf(cx->l->printf_user, t->text, t->len);
    t->len = 0;
  }
}

/* Zero the group's local memory and start its warps; returns their number. */
static unsigned start_group(run *r) {
  ex_ctx *cx = &r->cx;
  const unsigned W = cx->W;
  uint64_t items = cx->group_size[0] * cx->group_size[1] * cx->group_size[2];
  unsigned nw = (unsigned)((items + W - 1) / W);
  if (r->local_bytes) memset(cx->local, 0, r->local_bytes);
  ex_async_reset(cx);
  if (cx->prog->nnamed_barriers) memset(cx->nbar, 0, cx->prog->nnamed_barriers * sizeof *cx->nbar);
  /* whether init_lane has anything to write (decided per group: the debugger attaches after setup) */
  const ex_program *p = cx->prog;
  r->lane_init = false;
  for (uint32_t b = 0; b < p->nbuiltins; b++) r->lane_init |= p->builtins[b].materialize || cx->dbg;
  for (uint32_t i = 0; i < cx->l->entry->nparams; i++) r->lane_init |= cx->l->entry->param_byval[i] != 0;
  /* Lane recycling (see ex_exec.c) needs work-items that never wait for each other, and is off
   * under the debugger, tracing and at warp width 1. One warp then starts with the group's first
   * work-items and its lanes take the others as they finish; with checks, whose shadow state
   * follows lanes, only a warp whose lanes all finished takes the next ones, in a row. */
  cx->recycle = W > 1 && nw > 1 && !cx->l->entry->group_sync && !cx->dbg && !cx->l->on_trace;
  cx->recycle_lanes = cx->recycle && !cx->chk;
  if (cx->recycle) {
    /* under llvm-spirv's entry wrapper the kernel's own function is the one recycled: the wrapper
     * frame's lanes stay at the call, whose arguments are the same for every work-item */
    cx->recycle_depth = cx->l->entry->wrapper ? 2 : 1;
    nw = 1;
    cx->queue_next = W;
    cx->queue_end = (uint32_t)items;
  }
  for (unsigned k = 0; k < nw; k++) {
    uint64_t first = (uint64_t)k * W;
    start_warp(r, &r->warps[k], (uint32_t)first, (unsigned)(items - first < W ? items - first : W));
  }
  if (cx->chk) ex_chk_group_start(cx, r->warps, nw);
  return nw;
}

/* Every warp of the group has stopped: finished, or waiting at a barrier or collective. Either the
 * group is done, or all wait at the same instruction, which is then released (a collective's
 * results computed first), or that is barrier divergence. */
static int group_sync(run *r, unsigned nw) {
  ex_ctx *cx = &r->cx;
  unsigned done = 0, waiting = 0;
  const ex_insn *at = NULL;
  ex_warp *first_wait = NULL;
  for (unsigned k = 0; k < nw; k++) {
    ex_warp *w = &r->warps[k];
    if (w->state == EX_W_BARRIER && w->barrier_at->op == EX_NBAR_WAIT) {
      /* nothing can run and this phase of the named barrier is still short of sub-groups */
      const ex_named_barrier *nb = &cx->nbar[w->nbar - 1];
      char msg[200];
      snprintf(msg, sizeof msg, "this sub-group waits at a named barrier for %u sub-groups, but only %u arrived and "
               "the others finished or wait elsewhere", nb->count, nb->waiting);
      group_fault(cx, w, msg);
      return EX_SYNC_FAULT;
    }
  }
  for (unsigned k = 0; k < nw; k++) {
    ex_warp *w = &r->warps[k];
    if (w->state == EX_W_DONE) done++;
    else if (w->state == EX_W_BARRIER) {
      waiting++;
      if (!at) { at = w->barrier_at; first_wait = w; }
      else if (w->barrier_at != at) {
        group_fault(cx, w, "work-items of one work-group wait at different barriers or collectives");
        return EX_SYNC_FAULT;
      }
    }
  }
  if (done == nw) return ex_async_group_end(cx, r->warps) ? EX_SYNC_DONE : EX_SYNC_FAULT;
  if (done) {
    char detail[160];
    snprintf(detail, sizeof detail, "some work-items of the work-group finished the kernel while others wait at this %s",
             ex_sync_name(at->op));
    group_fault(cx, first_wait, detail);
    return EX_SYNC_FAULT;
  }
  if (cx->chk) ex_chk_barrier(cx, first_wait->stack[first_wait->depth - 1].fn, at);
  if (at->op == EX_GROUP) ex_group_collective(cx, r->warps, nw, at);
  else if ((at->op == EX_ASYNC_COPY || at->op == EX_WAIT_EVENTS) && !ex_async_collective(cx, r->warps, nw, at))
    return EX_SYNC_FAULT;
  for (unsigned k = 0; k < nw; k++) r->warps[k].state = EX_W_RUN;
  return EX_SYNC_RELEASED;
}

/* Warp w (one sub-group) arrived at a named barrier (cl_khr_subgroup_named_barrier): once the
 * barrier's sub-group count has arrived, every sub-group waiting at it is released and its wait
 * count starts again from 0 (the next phase). */
static bool named_barrier_arrive(run *r, unsigned nw, ex_warp *w) {
  ex_named_barrier *nb = &r->cx.nbar[w->nbar - 1];
  if (++nb->waiting < nb->count) return false;
  nb->waiting = 0;
  const uint32_t h = w->nbar;
  if (r->cx.chk) ex_chk_named_barrier(&r->cx, r->warps, nw, h);
  for (unsigned k = 0; k < nw; k++) {
    ex_warp *x = &r->warps[k];
    if (x->state == EX_W_BARRIER && x->barrier_at->op == EX_NBAR_WAIT && x->nbar == h) x->state = EX_W_RUN;
  }
  return true;
}

static void run_group_warps(run *r, unsigned nw) {
  ex_ctx *cx = &r->cx;
  for (;;) {
    bool again = true;
    while (again && !cx->faulted) {  /* until every warp finished or waits */
      again = false;
      for (unsigned k = 0; k < nw && !cx->faulted; k++)
        if (r->warps[k].state == EX_W_RUN) {
          ex_warp *w = &r->warps[k];
          ex_exec_warp(cx, w);
          ex_trace_flush(cx, w);  /* the instruction it stopped after (tracing only) */
          if (w->state == EX_W_BARRIER && w->barrier_at->op == EX_NBAR_WAIT && named_barrier_arrive(r, nw, w))
            again = true;
        }
    }
    if (cx->faulted || group_sync(r, nw) != EX_SYNC_RELEASED) return;
  }
}

/* Run one work-group to completion. */
static void run_group(run *r) {
  run_group_warps(r, start_group(r));
  if (r->cx.chk && !r->cx.faulted) ex_chk_group_end(&r->cx);
  printf_flush(&r->cx);
}

/* ---- work distribution --------------------------------------------------------------------
 * Work-groups are independent between barriers-free synchronisation points (OpenCL has no
 * inter-group synchronisation besides atomics), so several threads take groups from a shared
 * counter in increasing linear order. A fault at group g stops new groups above g from starting;
 * groups below g still finish, and the fault of the smallest group is reported — the same one a
 * single thread would report first. */
typedef struct job {
  ex_launch *l;
  uint64_t ngroups[3];
  uint64_t begin, end;         /* linear group ids to run: [begin, end) */
  _Atomic uint64_t next;       /* next linear group id to take */
  _Atomic uint64_t stop;       /* no group >= stop is started (a fault happened there) */
} job;

typedef struct worker {
  run r;
  job *j;
  uint64_t fault_group;        /* linear id of the faulting group, UINT64_MAX when none */
  pthread_t thread;
  bool started;
} worker;

/* Make work-group `lin` the context's current group (the last one of a dimension may be smaller). */
static void set_group(ex_ctx *cx, const job *j, uint64_t lin) {
  ex_unlinear(lin, j->ngroups, cx->group);
  ex_group_size(j->l, cx->group, cx->group_size);
}

static void *worker_main(void *arg) {
  worker *wk = arg;
  job *j = wk->j;
  ex_ctx *cx = &wk->r.cx;
  for (;;) {
    uint64_t lin = atomic_fetch_add(&j->next, 1);
    if (lin >= j->end || lin >= atomic_load(&j->stop)) break;
    set_group(cx, j, lin);
    run_group(&wk->r);
    if (cx->faulted) {
      wk->fault_group = lin;
      uint64_t cur = atomic_load(&j->stop);
      while (lin < cur && !atomic_compare_exchange_weak(&j->stop, &cur, lin)) {}
      break;
    }
  }
  return NULL;
}

/* Per-thread state: warps, local arena, printf buffers, scratch; shares `base`'s allocations. */
static bool worker_init(worker *wk, const run *base, uint64_t max_group) {
  wk->r = *base;
  ex_ctx *cx = &wk->r.cx;
  cx->bimem.ctx = cx;
  cx->biout.ctx = cx;
  wk->r.warps = NULL;
  wk->r.nwarps = 0;
  cx->local = NULL;
  cx->printf_buf = NULL;
  cx->ftz_scratch = NULL;
  memset(&cx->async, 0, sizeof cx->async);
  cx->nbar = NULL;
  wk->fault_group = UINT64_MAX;
  if (!setup_warps(&wk->r, max_group)) return false;
  cx->local = calloc(wk->r.local_bytes + 8, 1);
  if (!cx->local) return false;
  if (cx->checks && !ex_chk_worker_init(cx, wk->r.local_bytes, wk->r.warps, wk->r.nwarps)) return false;
  if (cx->l->on_printf && cx->prog->uses_printf) {
    cx->printf_items = max_group;
    cx->printf_buf = calloc(max_group, sizeof *cx->printf_buf);
    if (!cx->printf_buf) return false;
  }
  if (cx->ftz) {
    cx->ftz_scratch = malloc((size_t)6 * EX_MAX_WARP * EX_FTZ_OPERAND_BYTES);
    if (!cx->ftz_scratch) return false;
  }
  cx->nbar = calloc(cx->prog->nnamed_barriers + 1, sizeof *cx->nbar);
  if (!cx->nbar) return false;
  return true;
}

static void worker_free(worker *wk) {
  run *r = &wk->r;
  ex_chk_worker_free(&r->cx, r->warps, r->nwarps);
  for (unsigned k = 0; k < r->nwarps; k++) { free(r->warps[k].regs); free(r->warps[k].priv); free(r->warps[k].stack); }
  free(r->warps);
  free(r->cx.local);
  for (uint64_t i = 0; r->cx.printf_buf && i < r->cx.printf_items; i++) free(r->cx.printf_buf[i].text);
  free(r->cx.printf_buf);
  free(r->cx.ftz_scratch);
  ex_async_free(&r->cx);
  free(r->cx.nbar);
}

uint64_t ex_group_count(const ex_launch *l) {
  uint64_t n = 1;
  for (int d = 0; d < 3; d++) n *= (l->global[d] + l->local[d] - 1) / l->local[d];
  return n;
}

/* The launch-wide part of a run: context, group range, allocations, written-byte masks. */
static spvi_status launch_begin(run *base, job *j, ex_launch *l, unsigned warp_width, char *err, size_t errlen) {
  memset(base, 0, sizeof *base);
  ex_ctx *cx = &base->cx;
  cx->prog = l->prog;
  cx->l = l;
  cx->W = warp_width;
  cx->bimem.access = ex_bi_access;
  cx->biout.write = printf_write;
  cx->ftz = l->ftz;
  cx->sg_size = l->subgroup_size ? l->subgroup_size : SPVI_DEFAULT_SUBGROUP_SIZE;
  const uint64_t enq = l->local[0] * l->local[1] * l->local[2];
  cx->sg_max = (unsigned)(enq < cx->sg_size ? enq : cx->sg_size);
  cx->checks = l->checks;
  cx->max_steps = l->max_steps;
  ex_reports_clear(l->reports);
  cx->reports = l->reports;
  memset(j, 0, sizeof *j);
  j->l = l;
  for (int d = 0; d < 3; d++) cx->ngroups[d] = j->ngroups[d] = (l->global[d] + l->local[d] - 1) / l->local[d];
  uint64_t total = j->ngroups[0] * j->ngroups[1] * j->ngroups[2];
  j->begin = l->group_begin;
  j->end = l->group_end ? l->group_end : total;
  if (j->end > total || j->begin >= j->end) {
    snprintf(err, errlen, "work-group range %llu:%llu is outside the launch's %llu work-groups (or empty)",
             (unsigned long long)l->group_begin, (unsigned long long)l->group_end, (unsigned long long)total);
    return SPVI_E_USAGE;
  }
  atomic_init(&j->next, j->begin);
  atomic_init(&j->stop, UINT64_MAX);
  if (!ex_pstate_acquire(l->pstate)) {
    snprintf(err, errlen, "%s: another launch of this module is running (or a debug session of one is open); launches of a "
             "module with program-scope variables in global memory run one at a time", l->prog->ld->path);
    return SPVI_E_USAGE;
  }
  base->holds_pstate = true;
  spvi_status st = setup_allocs(base, err, errlen);
  /* written-byte masks of the buffer arguments when only part of the NDRange runs */
  free(l->written_all);
  l->written_all = NULL;
  if (st == SPVI_OK && (j->begin != 0 || j->end != total)) {
    cx->written = calloc(cx->nallocs, sizeof *cx->written);
    if (!cx->written) st = SPVI_E_NOMEM;
    for (uint32_t i = 1; st == SPVI_OK && i < cx->nallocs; i++) {
      ex_alloc *a = &cx->allocs[i];
      if (a->arg_index < 0 || a->space == EX_AS_LOCAL) continue;
      l->args[a->arg_index].written = calloc(a->size + 1, 1);
      if (!l->args[a->arg_index].written) { st = SPVI_E_NOMEM; break; }
      cx->written[i] = l->args[a->arg_index].written;
    }
    l->written_all = (uint8_t *)cx->written;  /* freed with the launch's masks */
  }
  return st;
}

static void launch_end(run *base) {
  ex_chk_launch_end(&base->cx);
  free(base->cx.allocs);
  ex_svm_snap_free((ex_svm_snap *)base->cx.svm);
  base->cx.svm = NULL;
  if (base->holds_pstate) ex_pstate_release(base->cx.l->pstate);
  base->holds_pstate = false;
}

/* Which memory atomics must update with locked instructions (ex_alloc.locked_atomics): global
 * memory when several threads run the launch; memory objects (setup_allocs), which other launches
 * may use at the same time; SVM memory, which the host may. cx->locked_atomics: any of them, so a
 * plain single-threaded run pays one test per atomic. Before the workers copy the context. */
static void set_locked_atomics(ex_ctx *cx) {
  cx->locked_atomics = cx->threads > 1 || cx->svm;
  for (uint32_t i = 1; i < cx->nallocs; i++) {
    ex_alloc *a = &cx->allocs[i];
    a->locked_atomics |= cx->threads > 1 && (a->space == EX_AS_GLOBAL || a->space == EX_AS_CONSTANT);
    cx->locked_atomics |= a->locked_atomics;
  }
}

spvi_status ex_run(ex_launch *l, unsigned warp_width, spvi_fault *fault, char *err, size_t errlen) {
  run base;
  job j;
  spvi_status st = launch_begin(&base, &j, l, warp_width, err, errlen);
  uint64_t max_group = l->local[0] * l->local[1] * l->local[2];
  unsigned nthreads = l->on_trace ? 1 : l->threads ? l->threads : 1;  /* a trace keeps program order */
  if (nthreads > j.end - j.begin) nthreads = (unsigned)(j.end - j.begin);
  /* printf output is emitted group by group in order: one thread keeps that order */
  if (l->on_printf && l->prog->uses_printf) nthreads = 1;
  /* races between work-groups are found by comparing each group with the groups before it, which
   * must have finished: work-groups run in order on one thread (spec-notes/checks.md) */
  if (l->checks & SPVI_CHECK_RACES) nthreads = 1;
  worker *wk = calloc(nthreads, sizeof *wk);
  if (!wk) st = SPVI_E_NOMEM;
  unsigned ninit = 0;
  base.cx.threads = nthreads;
  set_locked_atomics(&base.cx);
  for (; st == SPVI_OK && ninit < nthreads; ninit++) {
    wk[ninit].j = &j;
    if (!worker_init(&wk[ninit], &base, max_group)) { ninit++; st = SPVI_E_NOMEM; }
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (st == SPVI_OK) {
    for (unsigned t = 1; t < nthreads; t++)
      wk[t].started = pthread_create(&wk[t].thread, NULL, worker_main, &wk[t]) == 0;
    worker_main(&wk[0]);
    for (unsigned t = 1; t < nthreads; t++)
      if (wk[t].started) pthread_join(wk[t].thread, NULL);
      else worker_main(&wk[t]);  /* a thread could not start: do its share here */
    clock_gettime(CLOCK_MONOTONIC, &t1);
    l->exec_seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    l->instructions = 0;
    int fw = -1;
    for (unsigned t = 0; t < nthreads; t++) {
      l->instructions += wk[t].r.cx.instructions;
      if (wk[t].fault_group != UINT64_MAX && (fw < 0 || wk[t].fault_group < wk[fw].fault_group)) fw = (int)t;
    }
    if (fw >= 0) {
      build_report(&wk[fw].r.cx, fault);
      st = SPVI_FAULT;
    }
  } else if (st == SPVI_E_NOMEM && err && !err[0]) {
    snprintf(err, errlen, "out of memory setting up the launch");
  }
  ex_reports_finish(l->reports, &base.cx);
  for (unsigned t = 0; t < ninit; t++) worker_free(&wk[t]);
  free(wk);
  launch_end(&base);
  return st;
}

/* ---- a launch driven step by step (the debugger) ------------------------------------------ */
struct ex_runner {
  run base;
  job j;
  worker wk;
  bool wk_ready;
};

ex_runner *ex_runner_new(ex_launch *l, unsigned warp_width, spvi_status *st, char *err, size_t errlen) {
  ex_runner *r = calloc(1, sizeof *r);
  if (!r) { *st = SPVI_E_NOMEM; snprintf(err, errlen, "out of memory setting up the launch"); return NULL; }
  *st = launch_begin(&r->base, &r->j, l, warp_width, err, errlen);
  r->base.cx.threads = 1;
  set_locked_atomics(&r->base.cx);
  if (*st == SPVI_OK) {
    r->wk.j = &r->j;
    r->wk_ready = true;
    if (!worker_init(&r->wk, &r->base, l->local[0] * l->local[1] * l->local[2])) *st = SPVI_E_NOMEM;
  }
  if (*st != SPVI_OK) {
    if (*st == SPVI_E_NOMEM && !err[0]) snprintf(err, errlen, "out of memory setting up the launch");
    ex_runner_free(r);
    return NULL;
  }
  return r;
}

void ex_runner_free(ex_runner *r) {
  if (!r) return;
  if (r->wk_ready) {
    r->j.l->instructions = r->wk.r.cx.instructions;
    worker_free(&r->wk);
  }
  launch_end(&r->base);
  free(r);
}

ex_ctx *ex_runner_ctx(ex_runner *r) { return &r->wk.r.cx; }
ex_warp *ex_runner_warps(ex_runner *r) { return r->wk.r.warps; }

unsigned ex_runner_start_group(ex_runner *r, uint64_t linear) {
  set_group(&r->wk.r.cx, &r->j, linear);
  return start_group(&r->wk.r);
}

int ex_runner_sync(ex_runner *r, unsigned nwarps) { return group_sync(&r->wk.r, nwarps); }
void ex_runner_end_group(ex_runner *r) {
  if (r->wk.r.cx.chk && !r->wk.r.cx.faulted) ex_chk_group_end(&r->wk.r.cx);
  printf_flush(&r->wk.r.cx);
}
void ex_runner_report(const ex_runner *r, spvi_fault *f) { build_report(&r->wk.r.cx, f); }

/* ---- work-group collectives ------------------------------------------------------------------
 * Every work-item's value is read from its warp's register, the reduction or scan is computed in
 * local linear id order (float operations rounded after each step, so the result is the same at
 * every warp width), and each work-item's result is written back. */
uint64_t ex_gr_read(const uint8_t *p, unsigned bytes) {
  uint64_t v = 0;
  memcpy(&v, p, bytes);  /* little-endian host */
  return v;
}
double ex_gr_float(uint64_t v, unsigned bytes) {
  if (bytes == 8) { double d; memcpy(&d, &v, 8); return d; }
  if (bytes == 4) { uint32_t u = (uint32_t)v; float f; memcpy(&f, &u, 4); return f; }
  return bi_half_to_double((uint16_t)v);
}
static uint64_t gr_from_float(double d, unsigned bytes) {
  if (bytes == 8) { uint64_t u; memcpy(&u, &d, 8); return u; }
  if (bytes == 4) { float f = (float)d; uint32_t u; memcpy(&u, &f, 4); return u; }
  return bi_half_from_double(d, BI_RTE);
}
static int64_t gr_signed(uint64_t v, unsigned bytes) {
  return bytes == 8 ? (int64_t)v : bytes == 4 ? (int64_t)(int32_t)(uint32_t)v : bytes == 2 ? (int64_t)(int16_t)v : (int64_t)(int8_t)v;
}

/* The identity of each operation (OpenCL C 6.15.16: exclusive scans start from it). */
uint64_t ex_gr_identity(unsigned op, unsigned kind, unsigned bytes) {
  const unsigned bits = bytes * 8;
  const uint64_t mask = bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
  switch (op) {
  case EX_GR_SMIN: return mask >> 1;                        /* the largest signed value */
  case EX_GR_SMAX: return ((uint64_t)1 << (bits - 1));      /* the smallest signed value */
  case EX_GR_UMIN: return mask;
  case EX_GR_FMIN: return gr_from_float(INFINITY, bytes);
  case EX_GR_FMAX: return gr_from_float(-INFINITY, bytes);
  case EX_GR_IMUL: case EX_GR_LAND: return 1;
  case EX_GR_FMUL: return gr_from_float(1.0, bytes);
  case EX_GR_AND: return mask;                              /* ~0 (OpenCL C non-uniform and-scan) */
  default: return kind == EX_GK_FLOAT ? gr_from_float(0.0, bytes) : 0;
  }
}

uint64_t ex_gr_combine(unsigned op, unsigned bytes, uint64_t a, uint64_t b) {
  const unsigned bits = bytes * 8;
  const uint64_t mask = bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
  switch (op) {
  case EX_GR_IADD: return (a + b) & mask;
  case EX_GR_SMIN: return gr_signed(b, bytes) < gr_signed(a, bytes) ? b : a;
  case EX_GR_SMAX: return gr_signed(b, bytes) > gr_signed(a, bytes) ? b : a;
  case EX_GR_UMIN: return b < a ? b : a;
  case EX_GR_UMAX: return b > a ? b : a;
  case EX_GR_FADD: {
    /* one rounding per addition in the element type */
    if (bytes == 4) { float x = (float)ex_gr_float(a, 4) + (float)ex_gr_float(b, 4); return gr_from_float(x, 4); }
    return gr_from_float(ex_gr_float(a, bytes) + ex_gr_float(b, bytes), bytes);
  }
  case EX_GR_IMUL: return (a * b) & mask;
  case EX_GR_FMUL: {
    /* one rounding per product; half: the float product of two halves is exact, then one rounding */
    if (bytes == 4) { float x = (float)ex_gr_float(a, 4) * (float)ex_gr_float(b, 4); return gr_from_float(x, 4); }
    return gr_from_float(ex_gr_float(a, bytes) * ex_gr_float(b, bytes), bytes);
  }
  case EX_GR_AND: case EX_GR_LAND: return a & b;
  case EX_GR_OR: case EX_GR_LOR: return a | b;
  case EX_GR_XOR: case EX_GR_LXOR: return a ^ b;
  case EX_GR_FMIN: case EX_GR_FMAX: {
    double x = ex_gr_float(a, bytes), y = ex_gr_float(b, bytes);
    if (isnan(x)) return b;   /* fmin/fmax: a NaN operand is ignored */
    if (isnan(y)) return a;
    if (x == y) return (op == EX_GR_FMIN) == (signbit(y) != 0) ? b : a;  /* -0 < +0 */
    return (op == EX_GR_FMIN) == (y < x) ? b : a;
  }
  default: return b;
  }
}

void ex_group_collective(ex_ctx *cx, ex_warp *warps, unsigned nw, const ex_insn *ip) {
  const unsigned W = cx->W, bytes = ip->c & 0xFF, kind = ip->c >> 8, op = ip->flags, gop = ip->n;
  const uint32_t *x = warps[0].stack[warps[0].depth - 1].fn->aux + ip->b;
  uint64_t acc = ex_gr_identity(op, kind, bytes);
  if (op == EX_GR_ALL || op == EX_GR_ANY || op == EX_GR_BROADCAST) {
    uint64_t res = op == EX_GR_ALL ? 1 : 0;
    if (op == EX_GR_BROADCAST) {
      /* the local id of the source work-item, from work-item 0 (all must pass the same one) */
      const unsigned lb = x[1] & 0xFF, ln = x[1] >> 8;
      uint64_t id[3] = {0, 0, 0};
      for (unsigned i = 0; i < ln && i < 3; i++) id[i] = ex_gr_read(warps[0].regs + (size_t)x[0] * W + i * lb, lb);
      uint64_t lin = (id[2] * cx->group_size[1] + id[1]) * cx->group_size[0] + id[0];
      uint64_t items = cx->group_size[0] * cx->group_size[1] * cx->group_size[2];
      if (lin >= items) lin = 0;  /* out of range: undefined in OpenCL; spvi takes work-item 0 */
      const ex_warp *src = &warps[lin / W];
      res = ex_gr_read(src->regs + (size_t)ip->a * W + (lin % W) * bytes, bytes);
    } else {
      for (unsigned k = 0; k < nw; k++)
        for (unsigned l = 0; l < warps[k].nlanes; l++) {
          bool v = warps[k].regs[(size_t)ip->a * W + l] != 0;
          if (op == EX_GR_ALL) res &= v; else res |= v;
        }
    }
    for (unsigned k = 0; k < nw; k++)
      for (unsigned l = 0; l < warps[k].nlanes; l++) memcpy(warps[k].regs + (size_t)ip->d * W + (size_t)l * bytes, &res, bytes);
    return;
  }
  if (gop == 0) {  /* reduce */
    for (unsigned k = 0; k < nw; k++)
      for (unsigned l = 0; l < warps[k].nlanes; l++)
        acc = ex_gr_combine(op, bytes, acc, ex_gr_read(warps[k].regs + (size_t)ip->a * W + (size_t)l * bytes, bytes));
    for (unsigned k = 0; k < nw; k++)
      for (unsigned l = 0; l < warps[k].nlanes; l++) memcpy(warps[k].regs + (size_t)ip->d * W + (size_t)l * bytes, &acc, bytes);
    return;
  }
  for (unsigned k = 0; k < nw; k++)  /* scans, in local linear id order */
    for (unsigned l = 0; l < warps[k].nlanes; l++) {
      uint64_t v = ex_gr_read(warps[k].regs + (size_t)ip->a * W + (size_t)l * bytes, bytes);
      uint64_t next = ex_gr_combine(op, bytes, acc, v);
      uint64_t out = gop == 1 ? next : acc;
      memcpy(warps[k].regs + (size_t)ip->d * W + (size_t)l * bytes, &out, bytes);
      acc = next;
    }
}
