/*
 * ex_uninit.c — `--check uninit`: values computed from private or local memory that no work-item
 * wrote in this launch (or from OpUndef), reported when such a value decides a branch, forms an
 * address, is written to global memory, or is printed (spec-notes/checks.md).
 *
 * Shadow state, one byte per byte, nonzero = "undefined": every private arena (per lane) and the
 * group's local arena start undefined at the start of each work-group (except the built-in variables
 * and by-value kernel arguments, which spvi writes, and the padding bytes of structs, which take
 * unspecified values, C99 6.2.6.1p6), every register starts defined except the bytes of OpUndef
 * values (also as constituents of constant composites). A store copies the stored register's shadow
 * into the memory shadow and a load copies it back, byte for byte, so copying a partly written struct
 * or array is not a use; other instructions mark their result undefined when any operand byte is
 * (composite extract, insert and construct, moves and phi moves keep byte precision, component-wise
 * vector instructions and builtins component precision). Global and constant memory is always
 * defined (the host or the program initialised it).
 *
 * Origins: an undefined shadow byte's value names where it came from (the allocation or the OpUndef
 * value, ex_uninit_plans.org), and every operation passes on the value of its first undefined
 * operand byte, so a report names the variable whose bytes were never written.
 *
 * A client of the hook interface (ex_hooks.h, ex_uninit_hooks at the end): memory accesses
 * (always), builtin calls (always), and every other instruction only while some register of the
 * warp holds an undefined byte (EX_HK_FLAGGED: the warp's watch bit follows uwarp.uflags_set).
 */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "bi.h"
#include "ex_hooks.h"

#define OCL_PRINTF 184u /* OpenCL.std printf */

struct ex_uninit_plans { /* launch-wide */
  uint32_t *plan;        /* per site: index into data of its generic plan, 0 when none */
  uint32_t *data;        /* [out_reg, out_size, flags, nin, (reg, size) x nin] */
  uint32_t ndata, cap;
  uint32_t *undef; /* (reg, size) of OpUndef values */
  uint32_t nundef;
  uint8_t *undef_fill; /* per undef entry (undef_at[i] into it): its register's shadow, one lane */
  uint32_t *undef_at;
  uint8_t *shadowed;   /* per allocation id: 1 for private and local memory (the shadowed spaces) */
  uint8_t *lane_priv;  /* one lane's private shadow at the start of a group */
  uint8_t *local_init; /* the local arena's shadow at the start of a group (local_init_bytes) */
  uint64_t local_init_bytes;
  /* origins: shadow value v (1 .. norg) came from allocation org[v].alloc or, when 0, from the
   * OpUndef (or constant composite holding one) org[v].undef; ORG_UNKNOWN: not recorded */
  struct {
    uint32_t alloc, undef;
  } org[256];
  uint32_t norg;
};
enum { ORG_UNKNOWN = 255 };
/* plan flags: printf; component-wise (the vector result's component c depends on the operands'
 * components c alone: the component count in bits 8 and up) */
enum { PLAN_PRINTF = 1, PLAN_COMPWISE = 2 };
/* an operand's size word: the operand is scalar and applies to every component of a component-wise
 * builtin's result (its pointer operand) */
#define PLAN_WHOLE 0x80000000u

/* A warp's shadow state. */
typedef struct uwarp {
  ex_warp *w;
  uint8_t *ureg;       /* per register byte, 1 = computed from memory never written (regs' layout) */
  uint8_t *upriv;      /* per private byte, 1 = never written */
  uint8_t *uflag;      /* per 8 bytes of a lane's registers, 0 when those bytes' shadow is 0 in
                            every lane (so most instructions skip it) */
  uint32_t uflags_set; /* how many uflag entries are 1; the warp's watch bit is set while > 0 */
  uint32_t watch;      /* this client's bit in ex_warp.hk_watch */
} uwarp;

typedef struct ex_uninit { /* per worker */
  const struct ex_uninit_plans *up;
  uint8_t *ulocal; /* the local arena's shadow */
  uint64_t local_bytes;
  uwarp *warps; /* per warp of the worker, in the order of its array */
  ex_warp *warp0;
  unsigned nwarps;
  /* the running builtin's result register: undefined in a lane where it reads undefined memory */
  ex_warp *pw;
  uint32_t pd, psize;
  uint64_t in_taint;  /* lanes whose builtin operands are undefined (the running EXTINST) */
  uint8_t in_org[64]; /* their origins, per lane */
} ex_uninit;

static inline uwarp *uw(const ex_uninit *u, const ex_warp *w) { return &u->warps[w - u->warp0]; }

static bool push(struct ex_uninit_plans *u, uint32_t v) {
  if (u->ndata == u->cap) {
    uint32_t nc = u->cap ? u->cap * 2 : 1024;
    uint32_t *n = realloc(u->data, nc * sizeof *n);
    if (!n) return false;
    u->data = n;
    u->cap = nc;
  }
  u->data[u->ndata++] = v;
  return true;
}

static uint32_t reg_size_of(const ld_module *m, uint32_t type) {
  const ld_type *t = ld_type_of(m, type);
  return t ? t->reg_size : 0;
}

/* Which operand words of a generic instruction are value ids (the others are literals). */
static void id_operands(const ld_insn *li, uint32_t *first, uint32_t *count) {
  *first = 0;
  *count = li->nops;
  switch (li->opcode) {
  case SpvOpExtInst:
    *first = 2;
    *count = li->nops > 2 ? li->nops - 2u : 0;
    break;
  case SpvOpVectorShuffle: *count = li->nops < 2 ? li->nops : 2; break;
  case SpvOpCompositeExtract: *count = li->nops < 1 ? li->nops : 1; break;
  case SpvOpCompositeInsert: *count = li->nops < 2 ? li->nops : 2; break;
  default: break;
  }
}

/* A new origin for allocation `alloc` or the undefined value `undef`: the next shadow value, or
 * ORG_UNKNOWN once 254 are taken. */
static uint8_t new_origin(struct ex_uninit_plans *u, uint32_t alloc, uint32_t undef) {
  if (u->norg + 1 >= ORG_UNKNOWN) return ORG_UNKNOWN;
  u->norg++;
  u->org[u->norg].alloc = alloc;
  u->org[u->norg].undef = undef;
  return (uint8_t)u->norg;
}

/* mask[off + b] = v for the bytes b of a value of type tid that are not padding (below lim): the
 * gaps between and after struct members (C99 6.2.6.1p6: padding takes unspecified values) and the
 * fourth slot of 3-component vectors are left alone. Registers and memory lay them out alike. */
static void value_bytes(const ld_module *m, uint32_t tid, uint8_t *mask, uint64_t off, uint64_t lim, uint8_t v) {
  const ld_type *t = ld_type_of(m, tid), *e = t ? ld_type_of(m, t->elem) : NULL;
  if (!t || off >= lim) return;
  if (t->kind == LD_TY_STRUCT) {
    for (uint32_t i = 0; i < t->count; i++) value_bytes(m, t->members[i], mask, off + t->offsets[i], lim, v);
    return;
  }
  if (t->kind == LD_TY_ARRAY && e && (e->kind == LD_TY_STRUCT || e->kind == LD_TY_ARRAY || e->kind == LD_TY_VECTOR)) {
    for (uint64_t i = 0; i < t->count; i++) value_bytes(m, t->elem, mask, off + i * e->size, lim, v);
    return;
  }
  const uint64_t n = t->kind == LD_TY_VECTOR ? t->reg_size : t->size;
  memset(mask + off, v, n < lim - off ? n : lim - off);
}

/* Allocation id's shadow at the start of a group, in sh: undefined with its own origin but for the
 * padding of the structs it holds (a variable's type; a local buffer argument: its pointee's, repeated). */
static void alloc_init(const ex_ctx *cx, struct ex_uninit_plans *u, uint32_t id, uint8_t *sh) {
  const ld_module *m = cx->prog->ld;
  const ex_alloc *a = &cx->allocs[id];
  const uint8_t o = new_origin(u, id, 0);
  uint32_t pt = 0;
  if (a->var_id && a->var_id < m->bound) pt = m->ids[a->var_id].type;
  else if (a->arg_index >= 0) pt = m->ids[cx->l->entry->ld->params[a->arg_index]].type;
  const ld_type *p = ld_type_of(m, pt), *t = p && p->kind == LD_TY_POINTER ? ld_type_of(m, p->elem) : NULL;
  if (!t || !t->size) {
    memset(sh, o, a->size);
    return;
  }
  memset(sh, 0, a->size);
  for (uint64_t at = 0; at < a->size; at += t->size) value_bytes(m, t->id, sh, at, a->size, o);
}

/* The shadowed spaces and their shadow at the start of a group: private memory undefined except
 * the built-in variables and by-value kernel arguments, local memory undefined, both except struct
 * padding (alloc_init). */
static bool init_shadows(ex_ctx *cx, struct ex_uninit_plans *u) {
  const ex_program *p = cx->prog;
  u->shadowed = calloc(cx->nallocs + 1, 1);
  u->lane_priv = malloc(p->private_size + 1);
  if (!u->shadowed || !u->lane_priv) return false;
  memset(u->lane_priv, ORG_UNKNOWN, p->private_size);
  for (uint32_t i = 1; i < cx->nallocs; i++) {
    const ex_alloc *a = &cx->allocs[i];
    u->shadowed[i] = a->space == EX_AS_PRIVATE || a->space == EX_AS_LOCAL;
    if (a->space == EX_AS_LOCAL && a->offset + a->size > u->local_init_bytes) u->local_init_bytes = a->offset + a->size;
  }
  u->local_init = malloc(u->local_init_bytes + 1);
  if (!u->local_init) return false;
  memset(u->local_init, ORG_UNKNOWN, u->local_init_bytes);
  for (uint32_t i = 1; i < cx->nallocs; i++) {
    const ex_alloc *a = &cx->allocs[i];
    if (u->shadowed[i]) alloc_init(cx, u, i, (a->space == EX_AS_LOCAL ? u->local_init : u->lane_priv) + a->offset);
  }
  for (uint32_t b = 0; b < p->nbuiltins; b++) {
    const ex_alloc *a = &cx->allocs[p->builtins[b].alloc];
    memset(u->lane_priv + a->offset, 0, a->size);
  }
  const ld_module *m = p->ld;
  for (uint32_t g = 0; g < m->nglobals; g++) { /* initialised private module variables (ex_globals.c) */
    const ex_alloc *a = &cx->allocs[p->global_alloc[g]];
    if (a->space == EX_AS_PRIVATE && m->globals[g].init) memset(u->lane_priv + a->offset, 0, a->size);
  }
  const ex_func *e = cx->l->entry;
  for (uint32_t i = 0; i < e->nparams; i++)
    if (e->param_byval[i])
      memset(u->lane_priv + cx->allocs[e->param_byval[i]].offset, 0, cx->allocs[e->param_byval[i]].size);
  return true;
}

/* OpUndef values (module-scope constants and function-level instructions) and constant composites
 * holding one: their registers' undefined bytes, with their origins, padding excluded. */
static bool init_undef(ex_ctx *cx, struct ex_uninit_plans *u) {
  const ex_program *p = cx->prog;
  const ld_module *m = p->ld;
  uint32_t cap = 0, fill = 0;
  for (uint32_t id = 1; id < m->bound; id++) {
    const ld_id *e = &m->ids[id];
    const ld_const *k = e->kind == LD_ID_CONST ? &m->consts[e->index] : NULL;
    bool undef = (k && (k->is_undef || k->undef_mask)) ||
                 (e->kind == LD_ID_VALUE && m->funcs[e->index].insns[e->insn].opcode == SpvOpUndef);
    const uint32_t size = reg_size_of(m, e->type);
    if (!undef || p->id_reg[id] == LD_NONE || !size) continue;
    if (u->nundef + 1 > cap) {
      cap = cap ? cap * 2 : 16;
      uint32_t *n = realloc(u->undef, 2 * cap * sizeof *n), *at = realloc(u->undef_at, cap * sizeof *at);
      if (n) u->undef = n;
      if (at) u->undef_at = at;
      if (!n || !at) return false;
    }
    uint8_t *f = realloc(u->undef_fill, fill + size);
    if (!f) return false;
    u->undef_fill = f;
    memset(f + fill, 0, size);
    value_bytes(m, e->type, f + fill, 0, size, new_origin(u, 0, id));
    if (k && !k->is_undef && k->undef_mask)
      for (uint32_t b = 0; b < size; b++) f[fill + b] = k->undef_mask[b] ? f[fill + b] : 0;
    u->undef[2 * u->nundef] = p->id_reg[id];
    u->undef[2 * u->nundef + 1] = size;
    u->undef_at[u->nundef++] = fill;
    fill += size;
  }
  return true;
}

static bool uninit_launch_begin(ex_ctx *cx, void **launch) {
  const ex_program *p = cx->prog;
  const ld_module *m = p->ld;
  struct ex_uninit_plans *u = calloc(1, sizeof *u);
  if (!u) return false;
  *launch = u;
  u->plan = calloc(cx->hkl->nsites, sizeof *u->plan);
  if (!u->plan || !push(u, 0)) return false;
  for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
    const ex_func *fn = &p->funcs[fi];
    for (uint32_t k = 0; k < fn->ncode; k++) {
      const ex_insn *ip = &fn->code[k];
      const ld_insn *li = &fn->ld->insns[ip->src];
      u->plan[ex_hk_site(cx, fn, ip)] = u->ndata;
      uint32_t out = li->result && li->result < m->bound ? p->id_reg[li->result] : LD_NONE;
      uint32_t first, count, nin = 0;
      id_operands(li, &first, &count);
      bool pf = li->opcode == SpvOpExtInst && li->nops >= 3 && li->ops[1] == OCL_PRINTF;
      if (!push(u, out) || !push(u, out == LD_NONE ? 0 : reg_size_of(m, li->type)) || !push(u, pf ? PLAN_PRINTF : 0) ||
          !push(u, 0))
        return false;
      uint32_t at = u->ndata - 1;
      /* the core instructions whose operands are all vectors of the result's component count act
       * component by component (SPIR-V 3.32.11, 3.32.13-15), and so do the component-wise builtins
       * (bi_componentwise), whose scalar operands apply to every component: a partly undefined
       * vector (clang -O2's constant composites with OpUndef, a vector with unwritten components)
       * keeps its defined components defined */
      const ld_type *rt = out == LD_NONE ? NULL : ld_type_of(m, li->type);
      const bool bw = li->opcode == SpvOpExtInst && li->nops >= 2 && bi_componentwise(li->ops[1]);
      bool cw = (li->opcode != SpvOpExtInst || bw) && rt && rt->kind == LD_TY_VECTOR;
      for (uint32_t i = first; i < first + count; i++) {
        uint32_t id = li->ops[i];
        if (id == 0 || id >= m->bound || p->id_reg[id] == LD_NONE) continue;
        const ld_id *e = &m->ids[id];
        if (e->kind != LD_ID_VALUE && e->kind != LD_ID_PARAM && e->kind != LD_ID_CONST) continue;
        if (pf && i == 2) continue; /* printf's format string is in constant memory */
        const ld_type *ot = ld_type_of(m, e->type);
        const bool whole = bw && ot && ot->kind != LD_TY_VECTOR;
        if (!push(u, p->id_reg[id]) || !push(u, reg_size_of(m, e->type) | (whole ? PLAN_WHOLE : 0))) return false;
        cw = cw && ot && (whole || (ot->kind == LD_TY_VECTOR && ot->count == rt->count));
        nin++;
      }
      u->data[at] = nin;
      if (cw && nin) u->data[at - 1] |= PLAN_COMPWISE | rt->count << 8;
    }
  }
  return init_shadows(cx, u) && init_undef(cx, u);
}

static void uninit_launch_end(ex_ctx *cx, void *launch) {
  struct ex_uninit_plans *u = launch;
  (void)cx;
  if (!u) return;
  free(u->plan);
  free(u->data);
  free(u->undef);
  free(u->undef_at);
  free(u->undef_fill);
  free(u->shadowed);
  free(u->lane_priv);
  free(u->local_init);
  free(u);
}

static void uninit_worker_free(void *self) {
  ex_uninit *u = self;
  if (!u) return;
  for (unsigned k = 0; u->warps && k < u->nwarps; k++) {
    free(u->warps[k].ureg);
    free(u->warps[k].upriv);
    free(u->warps[k].uflag);
  }
  free(u->warps);
  free(u->ulocal);
  free(u);
}

static bool uninit_worker_init(ex_ctx *cx, void *launch, const ex_hk_info *info, void **self) {
  ex_uninit *u = calloc(1, sizeof *u);
  if (!u) return false;
  *self = u;
  u->up = launch;
  u->local_bytes = info->local_bytes;
  u->ulocal = calloc(info->local_bytes + 8, 1);
  u->warp0 = info->warps;
  u->nwarps = info->nwarps;
  u->warps = calloc(info->nwarps + 1, sizeof *u->warps);
  if (!u->ulocal || !u->warps) return false;
  const ex_program *p = cx->prog;
  for (unsigned k = 0; k < info->nwarps; k++) {
    uwarp *x = &u->warps[k];
    x->w = &info->warps[k];
    x->watch = info->watch;
    x->ureg = calloc((size_t)p->reg_bytes * cx->W + 8, 1);
    x->upriv = calloc((size_t)p->private_size * cx->W + 8, 1);
    x->uflag = calloc(p->reg_bytes / 8 + 1, 1);
    if (!x->ureg || !x->upriv || !x->uflag) return false;
  }
  return true;
}

/* Register flags (uwarp.uflag): flag c covers the lane bytes [8c, 8c + 8) of every lane, which are
 * the shadow bytes ureg[8cW, 8(c+1)W) (registers are 8-byte aligned, so a register's flags are its
 * own). Invariant: a flag of 0 means those shadow bytes are all 0. Nearly every value of a correct
 * kernel is defined, so an instruction whose operands' flags are 0 (and whose result's flag is 0)
 * has nothing to do; only the slow paths look at bytes, and they recompute the flags they touch.
 * The warp's watch bit (ex_hk_watch) is set while some flag is: the other instructions reach the
 * hook only then. */
static inline bool fl_any(const uwarp *x, uint32_t r, uint32_t s) {
  if (!x->uflags_set || !s || r == LD_NONE) return false; /* (usually no flag is set at all) */
  for (uint32_t c = r >> 3, e = (r + s - 1) >> 3; c <= e; c++)
    if (x->uflag[c]) return true;
  return false;
}

/* The first nonzero shadow byte of p[0 .. n) (the origin of the first undefined byte), or 0. */
static inline uint8_t any(const uint8_t *p, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t v;
    memcpy(&v, p + i, 8);
    if (v) break;
  }
  for (; i < n; i++)
    if (p[i]) return p[i];
  return 0;
}

static void fl_refresh(const ex_ctx *cx, uwarp *x, uint32_t r, uint32_t s) {
  if (!s || r == LD_NONE) return;
  const size_t W = cx->W;
  for (uint32_t c = r >> 3, e = (r + s - 1) >> 3; c <= e; c++) {
    const uint8_t v = any(x->ureg + (size_t)c * 8 * W, 8 * W) != 0;
    x->uflags_set += (uint32_t)v - x->uflag[c];
    x->uflag[c] = v;
  }
  ex_hk_watch(x->w, x->watch, x->uflags_set != 0);
}

static inline void fl_set(uwarp *x, uint32_t r, uint32_t s) {
  if (!s || r == LD_NONE) return;
  for (uint32_t c = r >> 3, e = (r + s - 1) >> 3; c <= e; c++) {
    x->uflags_set += 1u - x->uflag[c];
    x->uflag[c] = 1;
  }
  ex_hk_watch(x->w, x->watch, true);
}

/* A warp's shadow as its work-items start: registers defined except OpUndef values, private memory
 * as lane_priv says. */
static void warp_start(const ex_ctx *cx, const ex_uninit *u, uwarp *x) {
  const ex_program *p = cx->prog;
  const struct ex_uninit_plans *up = u->up;
  const unsigned W = cx->W;
  /* only flagged registers can hold nonzero shadow bytes */
  for (uint32_t c = 0; c < p->reg_bytes / 8; c++)
    if (x->uflag[c]) {
      memset(x->ureg + (size_t)c * 8 * W, 0, (size_t)8 * W);
      x->uflag[c] = 0;
    }
  x->uflags_set = 0;
  ex_hk_watch(x->w, x->watch, false);
  for (uint32_t i = 0; i < up->nundef; i++) {
    const uint32_t r = up->undef[2 * i], n = up->undef[2 * i + 1];
    for (unsigned l = 0; l < W; l++)
      memcpy(x->ureg + (size_t)r * W + (size_t)l * n, up->undef_fill + up->undef_at[i], n);
    fl_refresh(cx, x, r, n);
  }
  /* every lane starts as lane_priv: one copy, then doubling what is already there (log2 W
   * copies instead of one call per lane, which dominated short kernels' group starts) */
  const size_t ps = p->private_size, all = ps * W;
  if (ps) {
    memcpy(x->upriv, up->lane_priv, ps);
    for (size_t done = ps; done < all; done *= 2)
      memcpy(x->upriv + done, x->upriv, done < all - done ? done : all - done);
  }
}

static void uninit_warp_start(void *self, ex_ctx *cx, ex_warp *w) {
  ex_uninit *u = self;
  warp_start(cx, u, uw(u, w));
}

static void uninit_group_begin(void *self, ex_ctx *cx, ex_warp *warps, unsigned nw) {
  ex_uninit *u = self;
  const struct ex_uninit_plans *up = u->up;
  memset(u->ulocal, ORG_UNKNOWN, u->local_bytes);
  memcpy(u->ulocal, up->local_init, up->local_init_bytes < u->local_bytes ? up->local_init_bytes : u->local_bytes);
  u->pw = NULL;
  for (unsigned k = 0; k < nw; k++) warp_start(cx, u, uw(u, &warps[k]));
}

/* ---- per instruction ------------------------------------------------------------------------ */

/* Whether an edge's phi moves have anything to copy: a source or a destination flagged. */
static bool edge_dirty(const uwarp *x, const uint32_t *e) {
  const uint32_t nm = e[0] & 0x7FFFFFFFu;
  for (uint32_t i = 0; i < nm; i++) {
    const uint32_t *mv = e + 1 + 3 * i;
    if (fl_any(x, mv[0], mv[2]) || fl_any(x, mv[1], mv[2])) return true;
  }
  return false;
}

static void edge_refresh(const ex_ctx *cx, uwarp *x, const uint32_t *e) {
  const uint32_t nm = e[0] & 0x7FFFFFFFu;
  for (uint32_t i = 0; i < nm; i++) fl_refresh(cx, x, e[1 + 3 * i], e[3 + 3 * i]);
}

/* False when some lane's pointer (pt[k], k < nl) names private or local memory, the only spaces
 * with a shadow (an invalid pointer is the instruction's own fault: no shadow either). */
static bool lanes_unshadowed(const ex_ctx *cx, const ex_uninit *u, const uint64_t *pt, unsigned nl) {
  const uint8_t *sh = u->up->shadowed;
  const uint32_t na = cx->nallocs;
  /* usually every lane points into the same allocation: one lookup */
  uint64_t acc = 0;
  for (unsigned k = 0; k < nl; k++) acc |= pt[k] ^ pt[0];
  if (!((acc & cx->ptr_mask) >> cx->shift)) {
    const uint64_t a = (pt[0] & cx->ptr_mask) >> cx->shift;
    return !(a < na && sh[a]);
  }
  unsigned hit = 0;
  for (unsigned k = 0; k < nl; k++) {
    const uint64_t a = (pt[k] & cx->ptr_mask) >> cx->shift;
    hit |= a < na ? sh[a] : 0u;
  }
  return !hit;
}

/* The local-memory shadow of a full warp's access where lane l accesses n bytes at pt[0] + l * n
 * (the lanes' shadows are then as contiguous as the register's), or NULL. */
static uint8_t *local_run(const ex_ctx *cx, const ex_uninit *u, const uint64_t *pt, uint64_t n) {
  const unsigned W = cx->W;
  uint64_t bad = 0;
  for (unsigned l = 0; l < W; l++) bad |= pt[l] ^ (pt[0] + l * n);
  uint32_t id;
  uint64_t off;
  if (bad || !ex_hk_resolve(cx, pt[0], n * W, &id, &off) || cx->allocs[id].space != EX_AS_LOCAL) return NULL;
  return u->ulocal + cx->allocs[id].offset + off;
}

/* When the nl lanes' pointers (pt[k]) are all in one local allocation, each with n bytes in range:
 * the shadow of that allocation's byte 0 (a lane's shadow is at its offset, lane_offset), else NULL.
 * A tile read at a broadcast or strided index (sgemm_tiled's As[ty][k]) then costs one lookup, not
 * one per lane. */
static inline uint64_t lane_offset(const ex_ctx *cx, uint64_t p) { return (p & cx->off_mask) - cx->bias; }
static uint8_t *local_lanes(const ex_ctx *cx, const ex_uninit *u, const uint64_t *pt, unsigned nl, uint64_t n) {
  uint64_t acc = 0, hi = 0;
  for (unsigned k = 0; k < nl; k++) {
    acc |= pt[k] ^ pt[0];
    const uint64_t o = lane_offset(cx, pt[k]); /* below the allocation: wraps high, out of range */
    hi = o > hi ? o : hi;
  }
  uint32_t id;
  uint64_t off;
  if (((acc & cx->ptr_mask) >> cx->shift) || !ex_hk_resolve(cx, pt[0], n, &id, &off) ||
      cx->allocs[id].space != EX_AS_LOCAL)
    return NULL;
  const uint64_t size = cx->allocs[id].size;
  return hi <= size && n <= size - hi ? u->ulocal + cx->allocs[id].offset : NULL;
}

enum { WHY_BRANCH, WHY_ADDRESS, WHY_WRITE, WHY_PRINTF, WHY_ATOMIC };
static const char *const why_text[] = {
  "the branch condition is computed from memory never written in this launch (or from OpUndef)",
  "the address is computed from memory never written in this launch (or from OpUndef)",
  "the value written is computed from memory never written in this launch (or from OpUndef)",
  "a printf argument is computed from memory never written in this launch (or from OpUndef)",
  "the atomic operation combines with or compares the value in memory, which was never written in this launch",
};

/* One report; org is the shadow value of the undefined byte (its origin). */
static void __attribute__((cold))
report(ex_ctx *cx, const ex_uninit *u, const ex_warp *w, unsigned lane, const ex_func *fn, const ex_insn *ip, int why,
       uint8_t org, uint32_t alloc, uint64_t off, uint64_t size) {
  ex_check_event e;
  memset(&e, 0, sizeof e);
  e.kind = SPVI_REPORT_UNINIT;
  e.at = ex_site_of(cx, w, lane, fn, ip);
  e.at.write = why == WHY_WRITE || why == WHY_ATOMIC;
  e.at.atomic = why == WHY_ATOMIC;
  if (org && org <= u->up->norg) {
    e.origin_alloc = u->up->org[org].alloc;
    e.origin_id = u->up->org[org].undef;
  }
  e.alloc = alloc;
  e.offset = (int64_t)off;
  e.size = size;
  e.detail = why_text[why];
  ex_check_report(cx, &e);
}

/* memcpy of one lane's value: the usual sizes inline (a libc call per lane was a tenth of
 * sgemm_tiled's time under --check uninit). */
static inline void copy_lane(uint8_t *d, const uint8_t *s, uint64_t n) {
  switch (n) {
  case 4: memcpy(d, s, 4); return;
  case 8: memcpy(d, s, 8); return;
  case 2: memcpy(d, s, 2); return;
  case 1: *d = *s; return;
  default: memcpy(d, s, n); return;
  }
}

/* The shadow of `n` bytes at pointer p for lane l, or NULL for defined memory (global, constant,
 * or an invalid access, which the instruction itself reports as a fault). */
static inline uint8_t *mem_shadow(const ex_ctx *cx, const ex_uninit *u, const uwarp *x, unsigned l, uint64_t p,
                                  uint64_t n, uint32_t *id, uint64_t *off) {
  if (!ex_hk_resolve(cx, p, n, id, off)) {
    *id = 0;
    *off = 0;
    return NULL;
  }
  const ex_alloc *a = &cx->allocs[*id];
  if (a->space == EX_AS_PRIVATE) return x->upriv + (size_t)l * cx->prog->private_size + a->offset + *off;
  if (a->space == EX_AS_LOCAL) return u->ulocal + a->offset + *off;
  return NULL;
}

/* A copy of n bytes from src to dst by lane l: the destination's shadow becomes the source's;
 * undefined bytes copied into global memory are reported. */
static void copy_shadow(ex_ctx *cx, const ex_uninit *u, const uwarp *x, unsigned l, const ex_func *fn,
                        const ex_insn *ip, uint64_t dst, uint64_t src, uint64_t n) {
  uint32_t sid, did;
  uint64_t soff, doff;
  const uint8_t *s = mem_shadow(cx, u, x, l, src, n, &sid, &soff);
  uint8_t *d = mem_shadow(cx, u, x, l, dst, n, &did, &doff);
  if (d) {
    if (s) memmove(d, s, n);
    else memset(d, 0, n);
  } else if (did && s && any(s, n)) {
    /* the bytes written undefined: from the first to the last (a copy can be a whole tile) */
    uint64_t lo = 0, hi = n;
    while (!s[lo]) lo++;
    while (!s[hi - 1]) hi--;
    report(cx, u, x->w, l, fn, ip, WHY_WRITE, s[lo], did, doff + lo, hi - lo);
  }
}

/* Phi moves of an edge for one lane: a parallel copy of the registers' shadows. */
static void edge_lane(const ex_ctx *cx, uint8_t *U, const uint32_t *e, unsigned l) {
  const unsigned W = cx->W;
  uint32_t nm = e[0] & 0x7FFFFFFFu;
  if (!nm) return;
  uint8_t tmp[512];
  size_t total = 0;
  for (uint32_t i = 0; i < nm; i++) total += e[1 + 3 * i + 2];
  uint8_t *t = total <= sizeof tmp ? tmp : malloc(total);
  if (!t) return;
  size_t o = 0;
  for (uint32_t i = 0; i < nm; i++) {
    const uint32_t *mv = e + 1 + 3 * i;
    memcpy(t + o, U + (size_t)mv[1] * W + (size_t)l * mv[2], mv[2]);
    o += mv[2];
  }
  o = 0;
  for (uint32_t i = 0; i < nm; i++) {
    const uint32_t *mv = e + 1 + 3 * i;
    memcpy(U + (size_t)mv[0] * W + (size_t)l * mv[2], t + o, mv[2]);
    o += mv[2];
  }
  if (t != tmp) free(t);
}

/* The plan of instruction ip of fn (ex_uninit_plans.data). */
static const uint32_t *plan_of(const ex_ctx *cx, const ex_uninit *u, const ex_func *fn, const ex_insn *ip) {
  return u->up->data + u->up->plan[ex_hk_site(cx, fn, ip)];
}

/* The result's shadow from the operands' (the plan of ip): undefined, with the origin of the first
 * undefined operand byte, in the lanes where one is; those lanes in *tainted_lanes, their origins
 * in org[lane]. */
static void generic(ex_ctx *cx, const ex_uninit *u, uwarp *x, const ex_func *fn, const ex_insn *ip,
                    const uint16_t *lanes, unsigned nl, uint64_t *tainted_lanes, uint8_t *org) {
  const uint32_t *pl = plan_of(cx, u, fn, ip);
  const unsigned W = cx->W;
  uint8_t *U = x->ureg;
  const uint32_t out = pl[0], osz = pl[1], nin = pl[3];
  const uint32_t *in = pl + 4;
  bool dirty = false;
  *tainted_lanes = 0;
  for (uint32_t i = 0; i < nin && !dirty; i++) dirty = fl_any(x, in[2 * i], in[2 * i + 1] & ~PLAN_WHOLE);
  if (!dirty) {
    /* every operand defined: the result's active lanes become defined */
    if (out == LD_NONE || !fl_any(x, out, osz)) return;
    if (nl == W) memset(U + (size_t)out * W, 0, (size_t)osz * W);
    else
      for (unsigned k = 0; k < nl; k++) memset(U + (size_t)out * W + (size_t)lanes[k] * osz, 0, osz);
    fl_refresh(cx, x, out, osz);
    return;
  }
  /* nc parts of each register: the components of a component-wise instruction, else the whole */
  const uint32_t nc = pl[2] & PLAN_COMPWISE ? pl[2] >> 8 : 1;
  for (unsigned k = 0; k < nl; k++) {
    const unsigned l = lanes[k];
    org[l] = 0;
    for (uint32_t c = 0; c < nc; c++) {
      uint8_t t = 0;
      for (uint32_t i = 0; i < nin && !t; i++) {
        const bool whole = in[2 * i + 1] & PLAN_WHOLE;
        const uint32_t n = in[2 * i + 1] & ~PLAN_WHOLE, sz = whole ? n : n / nc;
        t = any(U + (size_t)in[2 * i] * W + (size_t)l * n + (whole ? 0 : (size_t)c * sz), sz);
      }
      if (!org[l]) org[l] = t;
      if (out != LD_NONE) memset(U + (size_t)out * W + (size_t)l * osz + (size_t)c * (osz / nc), t, osz / nc);
    }
    if (org[l]) *tainted_lanes |= (uint64_t)1 << l;
  }
  if (out != LD_NONE) fl_refresh(cx, x, out, osz);
  if ((pl[2] & PLAN_PRINTF) && *tainted_lanes)
    for (unsigned k = 0; k < nl; k++)
      if (*tainted_lanes >> lanes[k] & 1) report(cx, u, x->w, lanes[k], fn, ip, WHY_PRINTF, org[lanes[k]], 0, 0, 0);
}

/* Lanes whose address register (n bytes, LD_NONE: none) holds an undefined byte: reported. */
static inline void check_address(ex_ctx *cx, const ex_uninit *u, const uwarp *x, const ex_hk_access *a, uint32_t reg) {
  if (reg == LD_NONE || !fl_any(x, reg, a->addr_bytes)) return;
  const unsigned W = cx->W;
  for (unsigned k = 0; k < a->nl; k++) {
    const uint8_t o = any(x->ureg + (size_t)reg * W + (size_t)a->lanes[k] * a->addr_bytes, a->addr_bytes);
    if (o) report(cx, u, x->w, a->lanes[k], a->fn, a->ip, WHY_ADDRESS, o, 0, 0, 0);
  }
}

static void on_load(ex_ctx *cx, const ex_uninit *u, uwarp *x, const ex_hk_access *a) {
  const unsigned W = cx->W;
  const uint32_t d = a->value_reg;
  const uint64_t n = a->size;
  uint8_t *U = x->ureg, *run;
  check_address(cx, u, x, a, a->addr_reg);
  if (lanes_unshadowed(cx, u, a->ptr, a->nl)) { /* global or constant memory: defined */
    if (!fl_any(x, d, (uint32_t)n)) return;
    for (unsigned k = 0; k < a->nl; k++) memset(U + (size_t)d * W + (size_t)a->lanes[k] * n, 0, n);
  } else if (a->full && (run = local_run(cx, u, a->ptr, n))) {
    memcpy(U + (size_t)d * W, run, (size_t)n * W);
  } else if ((run = local_lanes(cx, u, a->ptr, a->nl, n))) {
    for (unsigned k = 0; k < a->nl; k++)
      copy_lane(U + (size_t)d * W + (size_t)a->lanes[k] * n, run + lane_offset(cx, a->ptr[k]), n);
  } else {
    for (unsigned k = 0; k < a->nl; k++) {
      const unsigned l = a->lanes[k];
      uint32_t id;
      uint64_t off;
      const uint8_t *s = mem_shadow(cx, u, x, l, a->ptr[k], n, &id, &off);
      if (s) copy_lane(U + (size_t)d * W + (size_t)l * n, s, n);
      else memset(U + (size_t)d * W + (size_t)l * n, 0, n);
    }
  }
  fl_refresh(cx, x, d, (uint32_t)n);
}

static void on_store(ex_ctx *cx, const ex_uninit *u, uwarp *x, const ex_hk_access *a) {
  const unsigned W = cx->W;
  const uint32_t v = a->value_reg;
  const uint64_t n = a->size;
  const uint8_t *V = x->ureg + (size_t)v * W;
  uint8_t *run;
  check_address(cx, u, x, a, a->addr_reg);
  /* a defined value stored to unshadowed memory changes nothing and reports nothing */
  if (!fl_any(x, v, (uint32_t)n) && lanes_unshadowed(cx, u, a->ptr, a->nl)) return;
  if (a->full && (run = local_run(cx, u, a->ptr, n))) {
    if (fl_any(x, v, (uint32_t)n)) memcpy(run, V, (size_t)n * W);
    else memset(run, 0, (size_t)n * W);
    return;
  }
  if ((run = local_lanes(cx, u, a->ptr, a->nl, n))) {
    for (unsigned k = 0; k < a->nl; k++) copy_lane(run + lane_offset(cx, a->ptr[k]), V + (size_t)a->lanes[k] * n, n);
    return;
  }
  for (unsigned k = 0; k < a->nl; k++) {
    const unsigned l = a->lanes[k];
    uint32_t id;
    uint64_t off;
    uint8_t *s = mem_shadow(cx, u, x, l, a->ptr[k], n, &id, &off);
    const uint8_t o = s ? 0 : any(V + (size_t)l * n, n);
    if (s) copy_lane(s, V + (size_t)l * n, n);
    else if (id && o) report(cx, u, x->w, l, a->fn, a->ip, WHY_WRITE, o, id, off, n);
  }
}

static void on_atomic(ex_ctx *cx, const ex_uninit *u, uwarp *x, const ex_hk_access *a) {
  const unsigned W = cx->W, size = a->value_bytes, op = a->atomic_op;
  const unsigned msize = (unsigned)a->size, dsize = a->result_bytes;
  const uint32_t d = a->result_reg;
  uint8_t *U = x->ureg;
#define UT(r, l, s) (U + (size_t)(r)*W + (size_t)(l) * (s))
  check_address(cx, u, x, a, a->addr_reg);
  /* defined operands on unshadowed memory: the old value is defined, nothing else changes */
  if (!fl_any(x, a->value_reg, size) && !fl_any(x, a->cmp_reg, size) && lanes_unshadowed(cx, u, a->ptr, a->nl)) {
    if (d == LD_NONE || !fl_any(x, d, dsize)) return;
    for (unsigned k = 0; k < a->nl; k++) memset(UT(d, a->lanes[k], dsize), 0, dsize);
    fl_refresh(cx, x, d, dsize);
    return;
  }
  /* a plain exchange or store replaces the value; the other operations combine with it or (compare
   * exchange) compare it, which uses it like a branch condition: an undefined old value is reported
   * there (its result stays undefined). A load or an exchange only copies it. */
  const bool replace = op == EX_AT_STORE || op == EX_AT_XCHG || op == EX_AT_FLAG_SET || op == EX_AT_FLAG_CLEAR;
  for (unsigned k = 0; k < a->nl; k++) {
    const unsigned l = a->lanes[k];
    uint8_t vt = a->value_reg != LD_NONE ? any(UT(a->value_reg, l, size), size) : 0;
    if (!vt && a->cmp_reg != LD_NONE) vt = any(UT(a->cmp_reg, l, size), size);
    uint32_t id;
    uint64_t off;
    uint8_t *s = mem_shadow(cx, u, x, l, a->ptr[k], msize, &id, &off);
    const uint8_t old = s ? any(s, msize) : 0;
    if (d != LD_NONE) memset(UT(d, l, dsize), old, dsize);
    if (old && !replace && op != EX_AT_LOAD) report(cx, u, x->w, l, a->fn, a->ip, WHY_ATOMIC, old, id, off, msize);
    if (s && op != EX_AT_LOAD) memset(s, vt ? vt : replace ? 0 : old, msize);
    else if (!s && id && vt && op != EX_AT_LOAD) report(cx, u, x->w, l, a->fn, a->ip, WHY_WRITE, vt, id, off, msize);
  }
  if (d != LD_NONE) fl_refresh(cx, x, d, dsize);
#undef UT
}

/* A builtin's access of lane a->lanes[0]: a write stores the operands' definedness, a read of
 * undefined memory makes the result undefined in that lane. */
static void on_builtin_access(ex_ctx *cx, ex_uninit *u, uwarp *x, const ex_hk_access *a) {
  const unsigned lane = a->lanes[0];
  uint32_t id;
  uint64_t off;
  uint8_t *s = mem_shadow(cx, u, x, lane, a->ptr[0], a->size, &id, &off);
  const uint8_t t = (u->in_taint >> lane) & 1 ? u->in_org[lane] : 0, o = s && !a->write ? any(s, a->size) : 0;
  if (a->write) {
    if (s) memset(s, t, a->size);
    else if (id && t) report(cx, u, x->w, lane, a->fn, a->ip, WHY_WRITE, t, id, off, a->size);
  } else if (o && u->pw == x->w && u->pd != LD_NONE) {
    /* the builtin event (before the builtin) has written the result's shadow already */
    memset(x->ureg + (size_t)u->pd * cx->W + (size_t)lane * u->psize, o, u->psize);
    fl_set(x, u->pd, u->psize);
  }
}

/* An image access of one lane (after it succeeded): an undefined coordinate is reported like an
 * undefined address, an undefined texel written like an undefined value stored to a buffer. */
static void on_image(ex_ctx *cx, const ex_uninit *u, const uwarp *x, const ex_hk_access *a) {
  if (!x->uflags_set) return; /* every register of the warp is defined */
  const unsigned W = cx->W, l = a->lanes[0];
  uint8_t o = any(x->ureg + (size_t)a->addr_reg * W + (size_t)l * a->addr_bytes, a->addr_bytes);
  if (o) {
    report(cx, u, x->w, l, a->fn, a->ip, WHY_ADDRESS, o, 0, 0, 0);
    return;
  }
  /* a texel computed from undefined memory written to the image (global memory): as a store */
  o = a->write ? any(x->ureg + (size_t)a->value_reg * W + (size_t)l * a->value_bytes, a->value_bytes) : 0;
  if (o) report(cx, u, x->w, l, a->fn, a->ip, WHY_WRITE, o, a->alloc, a->off, a->size);
}

static void uninit_access(void *self, ex_ctx *cx, const ex_hk_access *a) {
  ex_uninit *u = self;
  uwarp *x = uw(u, a->w);
  switch (a->kind) {
  case EX_HK_LOAD: on_load(cx, u, x, a); return;
  case EX_HK_STORE: on_store(cx, u, x, a); return;
  case EX_HK_ATOMIC: on_atomic(cx, u, x, a); return;
  case EX_HK_COPY:
  case EX_HK_BYVAL:
  case EX_HK_GROUP_COPY:
    for (unsigned k = 0; k < a->nl; k++) {
      const unsigned l = a->lanes[k];
      const uint64_t n = a->sizes ? a->sizes[k] : a->size;
      const unsigned pb = a->addr_bytes;
      uint8_t o = a->kind == EX_HK_COPY ? any(x->ureg + (size_t)a->addr_reg * cx->W + (size_t)l * pb, pb) : 0;
      if (!o && a->kind == EX_HK_COPY) o = any(x->ureg + (size_t)a->src_reg * cx->W + (size_t)l * pb, pb);
      if (o) report(cx, u, x->w, l, a->fn, a->ip, WHY_ADDRESS, o, 0, 0, 0);
      if (n) copy_shadow(cx, u, x, l, a->fn, a->ip, a->ptr[k], a->src[k], n);
    }
    return;
  case EX_HK_BUILTIN: on_builtin_access(cx, u, x, a); return;
  case EX_HK_IMAGE: on_image(cx, u, x, a); return;
  default: return;
  }
}

/* Before a builtin: the result's shadow from the operands' (generic plan), and the lanes whose
 * operands are undefined, for its memory accesses (on_builtin_access). */
static void uninit_builtin(void *self, ex_ctx *cx, const ex_hk_insn *e) {
  ex_uninit *u = self;
  uwarp *x = uw(u, e->w);
  uint64_t t;
  generic(cx, u, x, e->f->fn, e->ip, e->lanes, e->nl, &t, u->in_org);
  u->in_taint = t;
  const uint32_t *pl = plan_of(cx, u, e->f->fn, e->ip);
  u->pw = e->w;
  u->pd = pl[0];
  u->psize = pl[1];
}

/* A call's arguments: their registers' shadows into the callee's parameters (by-value aggregates:
 * the parameter is a defined pointer; their bytes come as EX_HK_BYVAL accesses). */
static void on_call(ex_ctx *cx, uwarp *x, const ex_frame *f, const ex_insn *ip, const uint16_t *lanes, unsigned nl) {
  const unsigned W = cx->W, pb = cx->prog->ptr_bytes;
  const ex_func *callee = &cx->prog->funcs[ip->a];
  const uint32_t *arg = f->fn->aux + ip->b + 1;
  uint8_t *U = x->ureg;
  for (uint32_t i = 0; i < callee->nparams; i++) {
    const uint32_t bv = callee->param_byval[i], pr = callee->param_reg[i];
    const uint32_t s = bv ? pb : callee->param_size[i];
    if (!fl_any(x, arg[i], s) && !fl_any(x, pr, s)) continue;
    for (unsigned k = 0; k < nl; k++) {
      const size_t l = lanes[k];
      if (bv) memset(U + (size_t)pr * W + l * pb, 0, pb);
      else memcpy(U + (size_t)pr * W + l * s, U + (size_t)arg[i] * W + l * s, s);
    }
    fl_refresh(cx, x, pr, s);
  }
}

/* OpVectorExtractDynamic / OpVectorInsertDynamic (operands as in ex_exec.c): the component's
 * shadow, byte-precise like the constant-index forms (a partly undefined vector, as clang -O2
 * builds from a constant composite with OpUndef constituents, has defined components); an
 * undefined index makes the whole result undefined. */
static void dynamic_component(const ex_ctx *cx, uwarp *x, const ex_insn *ip, const uint32_t *aux, const uint16_t *lanes,
                              unsigned nl) {
  const bool ins = ip->op == EX_VINSERT_DYN;
  const unsigned W = cx->W, n = ip->n, es = ins ? aux[ip->c + 1] : ip->c & 0xFF;
  const unsigned is = ins ? aux[ip->c + 2] : ip->c >> 8, ds = ins ? n * es : es;
  const uint32_t ir = ins ? aux[ip->c] : ip->b;
  uint8_t *U = x->ureg;
  if (!fl_any(x, ip->a, n * es) && !fl_any(x, ir, is) && !fl_any(x, ip->d, ds) && (!ins || !fl_any(x, ip->b, es)))
    return;
  for (unsigned k = 0; k < nl; k++) {
    const unsigned l = lanes[k];
    uint8_t *d = U + (size_t)ip->d * W + (size_t)l * ds, tmp[16 * 8];
    const uint8_t *a = U + (size_t)ip->a * W + (size_t)l * n * es, io = any(U + (size_t)ir * W + (size_t)l * is, is);
    uint64_t i = 0;
    memcpy(&i, x->w->regs + (size_t)ir * W + (size_t)l * is, is); /* little-endian, as ex_exec.c's rd_uint */
    if (ins) {
      memcpy(tmp, a, ds);
      if (i < n) memcpy(tmp + i * es, U + (size_t)ip->b * W + (size_t)l * es, es);
    } else if (i < n) {
      memcpy(tmp, a + i * es, es);
    } else {
      memset(tmp, 0, es); /* out of range: spvi's defined 0 */
    }
    if (io) memset(tmp, io, ds);
    memcpy(d, tmp, ds);
  }
  fl_refresh(cx, x, ip->d, ds);
}

/* Before an instruction of a warp with undefined registers (EX_HK_FLAGGED): the result's shadow
 * from the operands'. Memory instructions and builtins come as their own events. */
static bool uninit_before(void *self, ex_ctx *cx, const ex_hk_insn *e) {
  ex_uninit *u = self;
  uwarp *x = uw(u, e->w);
  const ex_warp *w = e->w;
  const ex_frame *f = e->f;
  const ex_insn *ip = e->ip;
  const uint16_t *lanes = e->lanes;
  const unsigned nl = e->nl, W = cx->W;
  uint8_t *U = x->ureg;
  const uint32_t *aux = f->fn->aux;
  uint64_t t;
#define UT(r, l, s) (U + (size_t)(r)*W + (size_t)(l) * (s))
  switch ((ex_hk_class)ex_op_hook[ip->op]) { /* by the hook class of the instruction's row (ex_ops.h) */
  case EX_HC_LOAD:
  case EX_HC_STORE:
  case EX_HC_ATOMIC:
  case EX_HC_COPY:
  case EX_HC_BUILTIN: return false; /* they come as their own events (uninit_access, uninit_builtin) */
  case EX_HC_CALL: on_call(cx, x, f, ip, lanes, nl); return false;
  case EX_HC_SUBGROUP: /* its result as any operation's (the generic plan) */
  case EX_HC_NONE:
  case EX_HC_COUNT: break;
  }
  switch (ip->op) {
  case EX_BARRIER:
  case EX_NOP:
  case EX_RET:
  case EX_UNREACHABLE: return false;
  case EX_RETV:
    if (w->depth > 1 && f->ret_dst != LD_NONE && (fl_any(x, ip->a, ip->c) || fl_any(x, f->ret_dst, ip->c))) {
      for (unsigned k = 0; k < nl; k++) memcpy(UT(f->ret_dst, lanes[k], ip->c), UT(ip->a, lanes[k], ip->c), ip->c);
      fl_refresh(cx, x, f->ret_dst, ip->c);
    }
    return false;
  case EX_BR:
    if (!edge_dirty(x, aux + ip->b)) return false;
    for (unsigned k = 0; k < nl; k++) edge_lane(cx, U, aux + ip->b, lanes[k]);
    edge_refresh(cx, x, aux + ip->b);
    return false;
  case EX_BRC: {
    const uint32_t *b = aux + ip->b;
    const uint8_t *c = w->regs + (size_t)ip->a * W;
    if (fl_any(x, ip->a, 1))
      for (unsigned k = 0; k < nl; k++)
        if (U[(size_t)ip->a * W + lanes[k]])
          report(cx, u, w, lanes[k], f->fn, ip, WHY_BRANCH, U[(size_t)ip->a * W + lanes[k]], 0, 0, 0);
    if (!edge_dirty(x, aux + b[1]) && !edge_dirty(x, aux + b[3])) return false;
    for (unsigned k = 0; k < nl; k++) edge_lane(cx, U, aux + (c[lanes[k]] ? b[1] : b[3]), lanes[k]);
    edge_refresh(cx, x, aux + b[1]);
    edge_refresh(cx, x, aux + b[3]);
    return false;
  }
  case EX_SWITCH: {
    const uint32_t *b = aux + ip->b;
    const unsigned ss = ip->n;
    for (unsigned k = 0; k < nl; k++) {
      const unsigned l = lanes[k];
      const uint8_t o = any(UT(ip->a, l, ss), ss);
      if (o) report(cx, u, w, l, f->fn, ip, WHY_BRANCH, o, 0, 0, 0);
      uint64_t v = 0;
      memcpy(&v, w->regs + (size_t)ip->a * W + (size_t)l * ss, ss);
      uint32_t edge = b[2];
      for (uint32_t j = 0; j < b[0]; j++) {
        const uint32_t *cs = b + 3 + 4 * j;
        uint64_t cv = (uint64_t)cs[0] | ((uint64_t)cs[1] << 32);
        if (ss < 8) cv &= ((uint64_t)1 << (ss * 8)) - 1;
        if (cv == v) {
          edge = cs[3];
          break;
        }
      }
      edge_lane(cx, U, aux + edge, l);
      edge_refresh(cx, x, aux + edge);
    }
    return false;
  }
  case EX_MOVE:
    if (!fl_any(x, ip->a, ip->c) && !fl_any(x, ip->d, ip->c)) return false;
    for (unsigned k = 0; k < nl; k++) memcpy(UT(ip->d, lanes[k], ip->c), UT(ip->a, lanes[k], ip->c), ip->c);
    fl_refresh(cx, x, ip->d, ip->c);
    return false;
  case EX_EXTRACT: {
    const uint32_t off = aux[ip->b], ssz = aux[ip->b + 1];
    if (!fl_any(x, ip->a, ssz) && !fl_any(x, ip->d, ip->c)) return false;
    for (unsigned k = 0; k < nl; k++) memcpy(UT(ip->d, lanes[k], ip->c), UT(ip->a, lanes[k], ssz) + off, ip->c);
    fl_refresh(cx, x, ip->d, ip->c);
    return false;
  }
  case EX_INSERT: {
    /* a: the inserted object (osz bytes), b: the composite (tsz bytes), as in ex_exec.c */
    const uint32_t off = aux[ip->c], osz = aux[ip->c + 1], tsz = aux[ip->c + 2];
    if (!fl_any(x, ip->a, osz) && !fl_any(x, ip->b, tsz) && !fl_any(x, ip->d, tsz)) return false;
    for (unsigned k = 0; k < nl; k++) {
      const unsigned l = lanes[k];
      memmove(UT(ip->d, l, tsz), UT(ip->b, l, tsz), tsz);
      memmove(UT(ip->d, l, tsz) + off, UT(ip->a, l, osz), osz);
    }
    fl_refresh(cx, x, ip->d, tsz);
    return false;
  }
  case EX_VEXTRACT_DYN:
  case EX_VINSERT_DYN: dynamic_component(cx, x, ip, aux, lanes, nl); return false;
  case EX_SHUFFLE: {
    /* per component: the selected component's shadow; an undefined selector (0xFFFFFFFF) gives
     * spvi's defined 0 (spec-notes/executor.md), which clang uses for the padding slot of 3-vectors
     * widened to 4 -- not a use of undefined memory */
    const uint32_t *b = aux + ip->c;
    const unsigned es = b[0], n1 = b[1], n2 = b[2], n = ip->n;
    if (!fl_any(x, ip->a, n1 * es) && !fl_any(x, ip->b, n2 * es) && !fl_any(x, ip->d, n * es)) return false;
    for (unsigned k = 0; k < nl; k++) {
      const unsigned l = lanes[k];
      uint8_t tmp[16 * 8];
      for (unsigned i = 0; i < n; i++) {
        const uint32_t c = b[3 + i];
        if (c == 0xFFFFFFFFu) memset(tmp + i * es, 0, es);
        else if (c < n1) memcpy(tmp + i * es, UT(ip->a, l, (size_t)n1 * es) + (size_t)c * es, es);
        else memcpy(tmp + i * es, UT(ip->b, l, (size_t)n2 * es) + (size_t)(c - n1) * es, es);
      }
      memcpy(UT(ip->d, l, (size_t)n * es), tmp, (size_t)n * es);
    }
    fl_refresh(cx, x, ip->d, n * es);
    return false;
  }
  case EX_CONSTRUCT: {
    const uint32_t *b = aux + ip->a;
    bool dirty = fl_any(x, ip->d, ip->c);
    for (uint32_t i = 0; i < b[0] && !dirty; i++) dirty = fl_any(x, b[1 + 3 * i], b[2 + 3 * i]);
    if (!dirty) return false;
    for (unsigned k = 0; k < nl; k++) {
      const unsigned l = lanes[k];
      uint8_t *d = UT(ip->d, l, ip->c);
      memset(d, 0, ip->c);
      uint32_t run = 0;
      for (uint32_t i = 0; i < b[0]; i++) {
        const uint32_t reg = b[1 + 3 * i], sz = b[2 + 3 * i], o = b[3 + 3 * i];
        const uint32_t at = o == LD_NONE ? run : o;
        if (at + sz <= ip->c) memcpy(d + at, UT(reg, l, sz), sz);
        run = at + sz;
      }
    }
    fl_refresh(cx, x, ip->d, ip->c);
    return false;
  }
  default: {
    uint8_t org[64];
    generic(cx, u, x, f->fn, ip, lanes, nl, &t, org);
    return false;
  }
  }
#undef UT
}

static unsigned uninit_wants(const ex_ctx *cx) {
  return (cx->checks & SPVI_CHECK_UNINIT) ? EX_HK_MEMORY | EX_HK_FLAGGED | EX_HK_WARPWISE | EX_HK_SITES : 0;
}

const ex_hooks ex_uninit_hooks = {
  .name = "uninit",
  .wants = uninit_wants,
  .launch_begin = uninit_launch_begin,
  .launch_end = uninit_launch_end,
  .worker_init = uninit_worker_init,
  .worker_free = uninit_worker_free,
  .group_begin = uninit_group_begin,
  .warp_start = uninit_warp_start,
  .before = uninit_before,
  .builtin = uninit_builtin,
  .access = uninit_access,
};
