/*
 * ex_uninit.c — `--check uninit`: values computed from private or local memory that no work-item
 * wrote in this launch (or from OpUndef), reported when such a value decides a branch, forms an
 * address, is written to global memory, or is printed (spec-notes/checks.md).
 *
 * Shadow state, one byte per byte, 1 = "undefined": every private arena (per lane) and the group's
 * local arena start undefined at the start of each work-group (except the built-in variables and
 * by-value kernel arguments, which spvi writes), every register starts defined except those of
 * OpUndef values. A store copies the stored register's shadow into the memory shadow and a load
 * copies it back, byte for byte, so copying a partly written struct or array is not a use; other
 * instructions mark their result undefined when any operand byte is (composite extract, insert and
 * construct, moves and phi moves keep byte precision). Global and constant memory is always defined
 * (the host or the program initialised it).
 */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ex_shadow.h"

#define OCL_PRINTF 184u  /* OpenCL.std printf */

struct ex_uninit_plans {
  uint32_t *plan;        /* per site: index into data of its generic plan, 0 when none */
  uint32_t *data;        /* [out_reg, out_size, flags, nin, (reg, size) x nin] */
  uint32_t ndata, cap;
  uint32_t *undef;       /* (reg, size) of OpUndef values */
  uint32_t nundef;
  uint8_t *shadowed;     /* per allocation id: 1 for private and local memory (the shadowed spaces) */
  uint8_t *lane_priv;    /* one lane's private shadow at the start of a group */
};
enum { PLAN_PRINTF = 1 };

struct ex_uninit {
  uint8_t *ulocal;       /* the local arena's shadow */
  uint64_t local_bytes;
  /* the running builtin's result register: undefined in a lane where it reads undefined memory */
  ex_warp *pw;
  uint32_t pd, psize;
  uint64_t in_taint;     /* lanes whose builtin operands are undefined (the running EXTINST) */
};

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
  case SpvOpExtInst: *first = 2; *count = li->nops > 2 ? li->nops - 2u : 0; break;
  case SpvOpVectorShuffle: *count = li->nops < 2 ? li->nops : 2; break;
  case SpvOpCompositeExtract: *count = li->nops < 1 ? li->nops : 1; break;
  case SpvOpCompositeInsert: *count = li->nops < 2 ? li->nops : 2; break;
  default: break;
  }
}

bool ex_uninit_launch_begin(ex_chkl *L, const ex_ctx *cx) {
  const ex_program *p = cx->prog;
  const ld_module *m = p->ld;
  struct ex_uninit_plans *u = calloc(1, sizeof *u);
  if (!u) return false;
  L->up = u;
  u->plan = calloc(L->nsites, sizeof *u->plan);
  if (!u->plan || !push(u, 0)) return false;
  for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
    const ex_func *fn = &p->funcs[fi];
    for (uint32_t k = 0; k < fn->ncode; k++) {
      const ex_insn *ip = &fn->code[k];
      const ld_insn *li = &fn->ld->insns[ip->src];
      u->plan[L->fbase[fi] + k] = u->ndata;
      uint32_t out = li->result && li->result < m->bound ? p->id_reg[li->result] : LD_NONE;
      uint32_t first, count, nin = 0;
      id_operands(li, &first, &count);
      bool pf = li->opcode == SpvOpExtInst && li->nops >= 3 && li->ops[1] == OCL_PRINTF;
      if (!push(u, out) || !push(u, out == LD_NONE ? 0 : reg_size_of(m, li->type)) || !push(u, pf ? PLAN_PRINTF : 0) ||
          !push(u, 0))
        return false;
      uint32_t at = u->ndata - 1;
      for (uint32_t i = first; i < first + count; i++) {
        uint32_t id = li->ops[i];
        if (id == 0 || id >= m->bound || p->id_reg[id] == LD_NONE) continue;
        const ld_id *e = &m->ids[id];
        if (e->kind != LD_ID_VALUE && e->kind != LD_ID_PARAM && e->kind != LD_ID_CONST) continue;
        if (pf && i == 2) continue;  /* printf's format string is in constant memory */
        if (!push(u, p->id_reg[id]) || !push(u, reg_size_of(m, e->type))) return false;
        nin++;
      }
      u->data[at] = nin;
    }
  }
  u->shadowed = calloc(cx->nallocs + 1, 1);
  u->lane_priv = malloc(p->private_size + 1);
  if (!u->shadowed || !u->lane_priv) return false;
  for (uint32_t i = 1; i < cx->nallocs; i++)
    u->shadowed[i] = cx->allocs[i].space == EX_AS_PRIVATE || cx->allocs[i].space == EX_AS_LOCAL;
  /* private memory starts undefined except the built-in variables and by-value kernel arguments */
  memset(u->lane_priv, 1, p->private_size);
  for (uint32_t b = 0; b < p->nbuiltins; b++) {
    const ex_alloc *a = &cx->allocs[p->builtins[b].alloc];
    memset(u->lane_priv + a->offset, 0, a->size);
  }
  const ex_func *e = cx->l->entry;
  for (uint32_t i = 0; i < e->nparams; i++)
    if (e->param_byval[i]) memset(u->lane_priv + cx->allocs[e->param_byval[i]].offset, 0, cx->allocs[e->param_byval[i]].size);
  /* OpUndef values: module-scope constants and function-level instructions */
  uint32_t cap = 0;
  for (uint32_t id = 1; id < m->bound; id++) {
    const ld_id *e = &m->ids[id];
    bool undef = (e->kind == LD_ID_CONST && m->consts[e->index].is_undef) ||
                 (e->kind == LD_ID_VALUE && m->funcs[e->index].insns[e->insn].opcode == SpvOpUndef);
    if (!undef || p->id_reg[id] == LD_NONE) continue;
    if (u->nundef + 1 > cap) {
      cap = cap ? cap * 2 : 16;
      uint32_t *n = realloc(u->undef, 2 * cap * sizeof *n);
      if (!n) return false;
      u->undef = n;
    }
    u->undef[2 * u->nundef] = p->id_reg[id];
    u->undef[2 * u->nundef + 1] = reg_size_of(m, e->type);
    u->nundef++;
  }
  return true;
}

void ex_uninit_launch_end(ex_chkl *L) {
  struct ex_uninit_plans *u = L->up;
  if (!u) return;
  free(u->plan);
  free(u->data);
  free(u->undef);
  free(u->shadowed);
  free(u->lane_priv);
  free(u);
  L->up = NULL;
}

ex_uninit *ex_uninit_new(const ex_ctx *cx, uint64_t local_bytes) {
  (void)cx;
  ex_uninit *u = calloc(1, sizeof *u);
  if (!u) return NULL;
  u->local_bytes = local_bytes;
  u->ulocal = calloc(local_bytes + 8, 1);
  if (!u->ulocal) { free(u); return NULL; }
  return u;
}

void ex_uninit_free(ex_uninit *u) {
  if (!u) return;
  free(u->ulocal);
  free(u);
}

bool ex_uninit_warp_init(const ex_ctx *cx, ex_warp *w) {
  w->ureg = calloc((size_t)cx->prog->reg_bytes * cx->W + 8, 1);
  w->upriv = calloc((size_t)cx->prog->private_size * cx->W + 8, 1);
  w->uflag = calloc(cx->prog->reg_bytes / 8 + 1, 1);
  return w->ureg && w->upriv && w->uflag;
}

void ex_uninit_warp_free(ex_warp *w) {
  free(w->ureg);
  free(w->upriv);
  free(w->uflag);
  w->ureg = w->upriv = w->uflag = NULL;
}

static inline void fl_set(ex_warp *w, uint32_t r, uint32_t s);

/* A warp's shadow as its work-items start: registers defined except OpUndef values, private memory
 * as lane_priv says. */
void ex_uninit_warp_start(ex_ctx *cx, ex_warp *w) {
  const ex_program *p = cx->prog;
  const struct ex_uninit_plans *up = cx->chkl->up;
  const unsigned W = cx->W;
  /* only flagged registers can hold nonzero shadow bytes */
  for (uint32_t c = 0; c < p->reg_bytes / 8; c++)
    if (w->uflag[c]) { memset(w->ureg + (size_t)c * 8 * W, 0, (size_t)8 * W); w->uflag[c] = 0; }
  w->uflags_set = 0;
  for (uint32_t i = 0; i < up->nundef; i++) {
    memset(w->ureg + (size_t)up->undef[2 * i] * W, 1, (size_t)up->undef[2 * i + 1] * W);
    fl_set(w, up->undef[2 * i], up->undef[2 * i + 1]);
  }
  /* every lane starts as lane_priv: one copy, then doubling what is already there (log2 W
   * copies instead of one call per lane, which dominated short kernels' group starts) */
  const size_t ps = p->private_size, all = ps * W;
  if (ps) {
    memcpy(w->upriv, up->lane_priv, ps);
    for (size_t done = ps; done < all; done *= 2) memcpy(w->upriv + done, w->upriv, done < all - done ? done : all - done);
  }
}

void ex_uninit_group_start(ex_ctx *cx, ex_warp *warps, unsigned nw) {
  ex_uninit *u = cx->chk->un;
  memset(u->ulocal, 1, u->local_bytes);
  u->pw = NULL;
  for (unsigned k = 0; k < nw; k++) ex_uninit_warp_start(cx, &warps[k]);
}

/* ---- per instruction ------------------------------------------------------------------------ */

static inline bool any(const uint8_t *p, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t v;
    memcpy(&v, p + i, 8);
    if (v) return true;
  }
  for (; i < n; i++)
    if (p[i]) return true;
  return false;
}

static inline uint64_t rd_ptr(const uint8_t *p, unsigned pb) {
  if (pb == 8) { uint64_t v; memcpy(&v, p, 8); return v; }
  uint32_t v; memcpy(&v, p, 4); return v;
}

/* Register flags (w->uflag): flag c covers the lane bytes [8c, 8c + 8) of every lane, which are the
 * shadow bytes ureg[8cW, 8(c+1)W) (registers are 8-byte aligned, so a register's flags are its
 * own). Invariant: a flag of 0 means those shadow bytes are all 0. Nearly every value of a correct
 * kernel is defined, so an instruction whose operands' flags are 0 (and whose result's flag is 0)
 * has nothing to do; only the slow paths look at bytes, and they recompute the flags they touch. */
static inline bool fl_any(const ex_warp *w, uint32_t r, uint32_t s) {
  if (!s || r == LD_NONE) return false;
  for (uint32_t c = r >> 3, e = (r + s - 1) >> 3; c <= e; c++)
    if (w->uflag[c]) return true;
  return false;
}

static void fl_refresh(const ex_ctx *cx, ex_warp *w, uint32_t r, uint32_t s) {
  if (!s || r == LD_NONE) return;
  const size_t W = cx->W;
  for (uint32_t c = r >> 3, e = (r + s - 1) >> 3; c <= e; c++) {
    const uint8_t v = any(w->ureg + (size_t)c * 8 * W, 8 * W);
    w->uflags_set += (uint32_t)v - w->uflag[c];
    w->uflag[c] = v;
  }
}

static inline void fl_set(ex_warp *w, uint32_t r, uint32_t s) {
  if (!s || r == LD_NONE) return;
  for (uint32_t c = r >> 3, e = (r + s - 1) >> 3; c <= e; c++) {
    w->uflags_set += 1u - w->uflag[c];
    w->uflag[c] = 1;
  }
}

/* Whether an edge's phi moves have anything to copy: a source or a destination flagged. */
static bool edge_dirty(const ex_warp *w, const uint32_t *e) {
  const uint32_t nm = e[0] & 0x7FFFFFFFu;
  for (uint32_t i = 0; i < nm; i++) {
    const uint32_t *mv = e + 1 + 3 * i;
    if (fl_any(w, mv[0], mv[2]) || fl_any(w, mv[1], mv[2])) return true;
  }
  return false;
}

static void edge_refresh(const ex_ctx *cx, ex_warp *w, const uint32_t *e) {
  const uint32_t nm = e[0] & 0x7FFFFFFFu;
  for (uint32_t i = 0; i < nm; i++) fl_refresh(cx, w, e[1 + 3 * i], e[3 + 3 * i]);
}

/* False when some active lane's pointer in register r names private or local memory, the only
 * spaces with a shadow (an invalid pointer is the instruction's own fault: no shadow either). */
static bool lanes_unshadowed(const ex_ctx *cx, const ex_warp *w, uint32_t r, const uint16_t *lanes, unsigned nl) {
  const uint8_t *sh = cx->chkl->up->shadowed;
  const unsigned W = cx->W, pb = cx->prog->ptr_bytes;
  const uint32_t na = cx->nallocs;
  const uint8_t *P = w->regs + (size_t)r * W;
  if (nl == W && pb == 8) {
    /* usually every lane points into the same allocation: one lookup */
    uint64_t p0, acc = 0;
    memcpy(&p0, P, 8);
    for (unsigned l = 0; l < W; l++) {
      uint64_t v;
      memcpy(&v, P + 8 * (size_t)l, 8);
      acc |= v ^ p0;
    }
    if (!((acc & cx->ptr_mask) >> cx->shift)) {
      const uint64_t a = (p0 & cx->ptr_mask) >> cx->shift;
      return !(a < na && sh[a]);
    }
  }
  unsigned hit = 0;
  for (unsigned k = 0; k < nl; k++) {
    const uint64_t a = (rd_ptr(P + (size_t)lanes[k] * pb, pb) & cx->ptr_mask) >> cx->shift;
    hit |= a < na ? sh[a] : 0u;
  }
  return !hit;
}

/* The local-memory shadow of a full warp's access where lane l accesses n bytes at p0 + l * n (the
 * lanes' shadows are then as contiguous as the register's), or NULL. */
static uint8_t *local_run(ex_ctx *cx, const ex_warp *w, uint32_t r, uint64_t n) {
  const unsigned W = cx->W, pb = cx->prog->ptr_bytes;
  if (pb != 8) return NULL;
  const uint8_t *P = w->regs + (size_t)r * W;
  uint64_t p0, bad = 0;
  memcpy(&p0, P, 8);
  for (unsigned l = 0; l < W; l++) {
    uint64_t v;
    memcpy(&v, P + 8 * (size_t)l, 8);
    bad |= v ^ (p0 + l * n);
  }
  uint32_t id;
  uint64_t off;
  if (bad || !ex_chk_resolve(cx, p0, n * W, &id, &off) || cx->allocs[id].space != EX_AS_LOCAL) return NULL;
  return cx->chk->un->ulocal + cx->allocs[id].offset + off;
}

enum { WHY_BRANCH, WHY_ADDRESS, WHY_WRITE, WHY_PRINTF };
static const char *const why_text[] = {
    "the branch condition is computed from memory never written in this launch (or from OpUndef)",
    "the address is computed from memory never written in this launch (or from OpUndef)",
    "the value written is computed from memory never written in this launch (or from OpUndef)",
    "a printf argument is computed from memory never written in this launch (or from OpUndef)",
};

static void __attribute__((cold)) report(ex_ctx *cx, const ex_warp *w, unsigned lane, const ex_func *fn,
                                         const ex_insn *ip, int why, uint32_t alloc, uint64_t off, uint64_t size) {
  ex_check_event e;
  memset(&e, 0, sizeof e);
  e.kind = SPVI_REPORT_UNINIT;
  e.at = ex_site_of(cx, w, lane, fn, ip);
  e.at.write = why == WHY_WRITE;
  e.alloc = alloc;
  e.offset = (int64_t)off;
  e.size = size;
  e.detail = why_text[why];
  ex_check_report(cx, &e);
}

/* The shadow of `n` bytes at pointer p for lane l, or NULL for defined memory (global, constant,
 * or an invalid access, which the instruction itself reports as a fault). */
static uint8_t *mem_shadow(ex_ctx *cx, ex_warp *w, unsigned l, uint64_t p, uint64_t n, uint32_t *id, uint64_t *off) {
  if (!ex_chk_resolve(cx, p, n, id, off)) { *id = 0; return NULL; }
  const ex_alloc *a = &cx->allocs[*id];
  if (a->space == EX_AS_PRIVATE) return w->upriv + (size_t)l * cx->prog->private_size + a->offset + *off;
  if (a->space == EX_AS_LOCAL) return cx->chk->un->ulocal + a->offset + *off;
  return NULL;
}

void ex_uninit_copy(ex_ctx *cx, ex_warp *w, unsigned l, const ex_func *fn, const ex_insn *ip, uint64_t dst, uint64_t src,
                    uint64_t n) {
  uint32_t sid, did;
  uint64_t soff, doff;
  const uint8_t *s = mem_shadow(cx, w, l, src, n, &sid, &soff);
  uint8_t *d = mem_shadow(cx, w, l, dst, n, &did, &doff);
  if (d) { if (s) memmove(d, s, n); else memset(d, 0, n); }
  else if (did && s && any(s, n)) {
    /* the bytes written undefined: from the first to the last (a copy can be a whole tile) */
    uint64_t lo = 0, hi = n;
    while (!s[lo]) lo++;
    while (!s[hi - 1]) hi--;
    report(cx, w, l, fn, ip, WHY_WRITE, did, doff + lo, hi - lo);
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

static void generic(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip, const uint16_t *lanes, unsigned nl,
                    uint64_t *tainted_lanes) {
  const struct ex_uninit_plans *up = cx->chkl->up;
  const uint32_t *pl = up->data + up->plan[ex_chk_site(cx, f->fn, ip)];
  const unsigned W = cx->W;
  uint8_t *U = w->ureg;
  const uint32_t out = pl[0], osz = pl[1], nin = pl[3];
  const uint32_t *in = pl + 4;
  bool dirty = false;
  *tainted_lanes = 0;
  for (uint32_t i = 0; i < nin && !dirty; i++) dirty = fl_any(w, in[2 * i], in[2 * i + 1]);
  if (!dirty) {
    /* every operand defined: the result's active lanes become defined */
    if (out == LD_NONE || !fl_any(w, out, osz)) return;
    if (nl == W) memset(U + (size_t)out * W, 0, (size_t)osz * W);
    else for (unsigned k = 0; k < nl; k++) memset(U + (size_t)out * W + (size_t)lanes[k] * osz, 0, osz);
    fl_refresh(cx, w, out, osz);
    return;
  }
  for (unsigned k = 0; k < nl; k++) {
    const unsigned l = lanes[k];
    bool t = false;
    for (uint32_t i = 0; i < nin && !t; i++) t = any(U + (size_t)in[2 * i] * W + (size_t)l * in[2 * i + 1], in[2 * i + 1]);
    if (t) *tainted_lanes |= (uint64_t)1 << l;
    if (out != LD_NONE) memset(U + (size_t)out * W + (size_t)l * osz, t, osz);
  }
  if (out != LD_NONE) fl_refresh(cx, w, out, osz);
  if ((pl[2] & PLAN_PRINTF) && *tainted_lanes)
    for (unsigned k = 0; k < nl; k++)
      if (*tainted_lanes >> lanes[k] & 1) report(cx, w, lanes[k], f->fn, ip, WHY_PRINTF, 0, 0, 0);
}

void ex_uninit_step(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip, const uint16_t *lanes, unsigned nl) {
  ex_uninit *u = cx->chk->un;
  const unsigned W = cx->W, pb = cx->prog->ptr_bytes;
  uint8_t *U = w->ureg;
  const uint32_t *aux = f->fn->aux;
#define UT(r, l, s) (U + (size_t)(r) * W + (size_t)(l) * (s))
#define PTR(r, l) rd_ptr(w->regs + (size_t)(r) * W + (size_t)(l) * pb, pb)
  switch (ip->op) {
  case EX_LOAD: case EX_LOAD_4: case EX_LOAD_8:
    if (fl_any(w, ip->a, pb))
      for (unsigned k = 0; k < nl; k++)
        if (any(UT(ip->a, lanes[k], pb), pb)) report(cx, w, lanes[k], f->fn, ip, WHY_ADDRESS, 0, 0, 0);
    uint8_t *run;
    if (lanes_unshadowed(cx, w, ip->a, lanes, nl)) {  /* global or constant memory: defined */
      if (!fl_any(w, ip->d, ip->c)) return;
      for (unsigned k = 0; k < nl; k++) memset(UT(ip->d, lanes[k], ip->c), 0, ip->c);
    } else if (nl == W && (run = local_run(cx, w, ip->a, ip->c))) {
      memcpy(UT(ip->d, 0, ip->c), run, (size_t)ip->c * W);
    } else {
      for (unsigned k = 0; k < nl; k++) {
        const unsigned l = lanes[k];
        uint32_t id;
        uint64_t off;
        const uint8_t *s = mem_shadow(cx, w, l, PTR(ip->a, l), ip->c, &id, &off);
        if (s) memcpy(UT(ip->d, l, ip->c), s, ip->c);
        else memset(UT(ip->d, l, ip->c), 0, ip->c);
      }
    }
    fl_refresh(cx, w, ip->d, ip->c);
    return;
  case EX_STORE: case EX_STORE_4: case EX_STORE_8:
    if (fl_any(w, ip->a, pb))
      for (unsigned k = 0; k < nl; k++)
        if (any(UT(ip->a, lanes[k], pb), pb)) report(cx, w, lanes[k], f->fn, ip, WHY_ADDRESS, 0, 0, 0);
    /* a defined value stored to unshadowed memory changes nothing and reports nothing */
    if (!fl_any(w, ip->b, ip->c) && lanes_unshadowed(cx, w, ip->a, lanes, nl)) return;
    uint8_t *srun;
    if (nl == W && (srun = local_run(cx, w, ip->a, ip->c))) {
      if (fl_any(w, ip->b, ip->c)) memcpy(srun, UT(ip->b, 0, ip->c), (size_t)ip->c * W);
      else memset(srun, 0, (size_t)ip->c * W);
      return;
    }
    for (unsigned k = 0; k < nl; k++) {
      const unsigned l = lanes[k];
      uint32_t id;
      uint64_t off;
      uint8_t *s = mem_shadow(cx, w, l, PTR(ip->a, l), ip->c, &id, &off);
      if (s) memcpy(s, UT(ip->b, l, ip->c), ip->c);
      else if (id && any(UT(ip->b, l, ip->c), ip->c)) report(cx, w, l, f->fn, ip, WHY_WRITE, id, off, ip->c);
    }
    return;
  case EX_ATOMIC: {
    const unsigned size = (ip->n >> 1) & 15u, kind = ip->flags;
    const unsigned msize = kind == EX_AT_FLAG_SET || kind == EX_AT_FLAG_CLEAR ? 4 : size;
    const unsigned dsize = kind == EX_AT_FLAG_SET ? 1 : size;
    if (fl_any(w, ip->a, pb))
      for (unsigned k = 0; k < nl; k++)
        if (any(UT(ip->a, lanes[k], pb), pb)) report(cx, w, lanes[k], f->fn, ip, WHY_ADDRESS, 0, 0, 0);
    /* defined operands on unshadowed memory: the old value is defined, nothing else changes */
    if (!fl_any(w, ip->b, size) && !(kind == EX_AT_CMPXCHG && fl_any(w, ip->c, size)) &&
        lanes_unshadowed(cx, w, ip->a, lanes, nl)) {
      if (ip->d == LD_NONE || !fl_any(w, ip->d, dsize)) return;
      for (unsigned k = 0; k < nl; k++) memset(UT(ip->d, lanes[k], dsize), 0, dsize);
      fl_refresh(cx, w, ip->d, dsize);
      return;
    }
    for (unsigned k = 0; k < nl; k++) {
      const unsigned l = lanes[k];
      bool vt = (ip->b != LD_NONE && any(UT(ip->b, l, size), size)) ||
                (kind == EX_AT_CMPXCHG && any(UT(ip->c, l, size), size));
      uint32_t id;
      uint64_t off;
      uint8_t *s = mem_shadow(cx, w, l, PTR(ip->a, l), msize, &id, &off);
      bool old = s && any(s, msize);
      if (ip->d != LD_NONE) memset(UT(ip->d, l, dsize), old, dsize);
      if (s && kind != EX_AT_LOAD) {
        /* a plain exchange or store replaces the value; the other operations combine with it */
        bool replace = kind == EX_AT_STORE || kind == EX_AT_XCHG || kind == EX_AT_FLAG_SET || kind == EX_AT_FLAG_CLEAR;
        memset(s, vt || (!replace && old), msize);
      } else if (!s && id && vt && kind != EX_AT_LOAD) {
        report(cx, w, l, f->fn, ip, WHY_WRITE, id, off, msize);
      }
    }
    if (ip->d != LD_NONE) fl_refresh(cx, w, ip->d, dsize);
    return;
  }
  case EX_COPYMEM: case EX_COPYMEM_SIZED:
    for (unsigned k = 0; k < nl; k++) {
      const unsigned l = lanes[k];
      uint64_t n = ip->c;
      if (ip->op == EX_COPYMEM_SIZED) {
        n = 0;
        memcpy(&n, w->regs + (size_t)ip->c * W + (size_t)l * ip->flags, ip->flags);
      }
      if (any(UT(ip->a, l, pb), pb) || any(UT(ip->b, l, pb), pb)) report(cx, w, l, f->fn, ip, WHY_ADDRESS, 0, 0, 0);
      if (n) ex_uninit_copy(cx, w, l, f->fn, ip, PTR(ip->a, l), PTR(ip->b, l), n);
    }
    return;
  case EX_CALL: {
    const ex_func *callee = &cx->prog->funcs[ip->a];
    const uint32_t *x = aux + ip->b;
    for (uint32_t i = 0; i < callee->nparams; i++) {
      const uint32_t bv = callee->param_byval[i];
      const size_t s = callee->param_size[i];
      if (!bv && !fl_any(w, x[1 + i], (uint32_t)s) && !fl_any(w, callee->param_reg[i], (uint32_t)s)) continue;
      for (unsigned k = 0; k < nl; k++) {
        const unsigned l = lanes[k];
        if (bv) {
          const ex_alloc *a = &cx->allocs[bv];
          uint8_t *d = w->upriv + (size_t)l * cx->prog->private_size + a->offset;
          uint32_t id;
          uint64_t off;
          const uint8_t *src = mem_shadow(cx, w, l, PTR(x[1 + i], l), a->size, &id, &off);
          if (src) memmove(d, src, a->size); else memset(d, 0, a->size);
          memset(UT(callee->param_reg[i], l, pb), 0, pb);
        } else {
          memcpy(UT(callee->param_reg[i], l, s), UT(x[1 + i], l, s), s);
        }
      }
      fl_refresh(cx, w, callee->param_reg[i], bv ? pb : (uint32_t)s);
    }
    return;
  }
  case EX_RETV:
    if (w->depth > 1 && f->ret_dst != LD_NONE && (fl_any(w, ip->a, ip->c) || fl_any(w, f->ret_dst, ip->c))) {
      for (unsigned k = 0; k < nl; k++) memcpy(UT(f->ret_dst, lanes[k], ip->c), UT(ip->a, lanes[k], ip->c), ip->c);
      fl_refresh(cx, w, f->ret_dst, ip->c);
    }
    return;
  case EX_BR:
    if (!edge_dirty(w, aux + ip->b)) return;
    for (unsigned k = 0; k < nl; k++) edge_lane(cx, U, aux + ip->b, lanes[k]);
    edge_refresh(cx, w, aux + ip->b);
    return;
  case EX_BRC: {
    const uint32_t *x = aux + ip->b;
    const uint8_t *c = w->regs + (size_t)ip->a * W;
    if (fl_any(w, ip->a, 1))
      for (unsigned k = 0; k < nl; k++)
        if (U[(size_t)ip->a * W + lanes[k]]) report(cx, w, lanes[k], f->fn, ip, WHY_BRANCH, 0, 0, 0);
    if (!edge_dirty(w, aux + x[1]) && !edge_dirty(w, aux + x[3])) return;
    for (unsigned k = 0; k < nl; k++) edge_lane(cx, U, aux + (c[lanes[k]] ? x[1] : x[3]), lanes[k]);
    edge_refresh(cx, w, aux + x[1]);
    edge_refresh(cx, w, aux + x[3]);
    return;
  }
  case EX_SWITCH: {
    const uint32_t *x = aux + ip->b;
    const unsigned ss = ip->n;
    for (unsigned k = 0; k < nl; k++) {
      const unsigned l = lanes[k];
      if (any(UT(ip->a, l, ss), ss)) report(cx, w, l, f->fn, ip, WHY_BRANCH, 0, 0, 0);
      uint64_t v = 0;
      memcpy(&v, w->regs + (size_t)ip->a * W + (size_t)l * ss, ss);
      uint32_t edge = x[2];
      for (uint32_t j = 0; j < x[0]; j++) {
        const uint32_t *cs = x + 3 + 4 * j;
        uint64_t cv = (uint64_t)cs[0] | ((uint64_t)cs[1] << 32);
        if (ss < 8) cv &= ((uint64_t)1 << (ss * 8)) - 1;
        if (cv == v) { edge = cs[3]; break; }
      }
      edge_lane(cx, U, aux + edge, l);
      edge_refresh(cx, w, aux + edge);
    }
    return;
  }
  case EX_MOVE:
    if (!fl_any(w, ip->a, ip->c) && !fl_any(w, ip->d, ip->c)) return;
    for (unsigned k = 0; k < nl; k++) memcpy(UT(ip->d, lanes[k], ip->c), UT(ip->a, lanes[k], ip->c), ip->c);
    fl_refresh(cx, w, ip->d, ip->c);
    return;
  case EX_EXTRACT: {
    const uint32_t off = aux[ip->b], ssz = aux[ip->b + 1];
    if (!fl_any(w, ip->a, ssz) && !fl_any(w, ip->d, ip->c)) return;
    for (unsigned k = 0; k < nl; k++) memcpy(UT(ip->d, lanes[k], ip->c), UT(ip->a, lanes[k], ssz) + off, ip->c);
    fl_refresh(cx, w, ip->d, ip->c);
    return;
  }
  case EX_INSERT: {
    /* a: the inserted object (osz bytes), b: the composite (tsz bytes), as in ex_exec.c */
    const uint32_t off = aux[ip->c], osz = aux[ip->c + 1], tsz = aux[ip->c + 2];
    if (!fl_any(w, ip->a, osz) && !fl_any(w, ip->b, tsz) && !fl_any(w, ip->d, tsz)) return;
    for (unsigned k = 0; k < nl; k++) {
      const unsigned l = lanes[k];
      memmove(UT(ip->d, l, tsz), UT(ip->b, l, tsz), tsz);
      memmove(UT(ip->d, l, tsz) + off, UT(ip->a, l, osz), osz);
    }
    fl_refresh(cx, w, ip->d, tsz);
    return;
  }
  case EX_SHUFFLE: {
    /* per component: the selected component's shadow; an undefined selector (0xFFFFFFFF) gives
     * spvi's defined 0 (spec-notes/executor.md), which clang uses for the padding slot of 3-vectors
     * widened to 4 -- not a use of undefined memory */
    const uint32_t *x = aux + ip->c;
    const unsigned es = x[0], n1 = x[1], n2 = x[2], n = ip->n;
    if (!fl_any(w, ip->a, n1 * es) && !fl_any(w, ip->b, n2 * es) && !fl_any(w, ip->d, n * es)) return;
    for (unsigned k = 0; k < nl; k++) {
      const unsigned l = lanes[k];
      uint8_t tmp[16 * 8];
      for (unsigned i = 0; i < n; i++) {
        const uint32_t c = x[3 + i];
        if (c == 0xFFFFFFFFu) memset(tmp + i * es, 0, es);
        else if (c < n1) memcpy(tmp + i * es, UT(ip->a, l, (size_t)n1 * es) + (size_t)c * es, es);
        else memcpy(tmp + i * es, UT(ip->b, l, (size_t)n2 * es) + (size_t)(c - n1) * es, es);
      }
      memcpy(UT(ip->d, l, (size_t)n * es), tmp, (size_t)n * es);
    }
    fl_refresh(cx, w, ip->d, n * es);
    return;
  }
  case EX_CONSTRUCT: {
    const uint32_t *x = aux + ip->a;
    bool dirty = fl_any(w, ip->d, ip->c);
    for (uint32_t i = 0; i < x[0] && !dirty; i++) dirty = fl_any(w, x[1 + 3 * i], x[2 + 3 * i]);
    if (!dirty) return;
    for (unsigned k = 0; k < nl; k++) {
      const unsigned l = lanes[k];
      uint8_t *d = UT(ip->d, l, ip->c);
      memset(d, 0, ip->c);
      uint32_t run = 0;
      for (uint32_t i = 0; i < x[0]; i++) {
        const uint32_t reg = x[1 + 3 * i], sz = x[2 + 3 * i], o = x[3 + 3 * i];
        const uint32_t at = o == LD_NONE ? run : o;
        if (at + sz <= ip->c) memcpy(d + at, UT(reg, l, sz), sz);
        run = at + sz;
      }
    }
    fl_refresh(cx, w, ip->d, ip->c);
    return;
  }
  case EX_EXTINST: {
    uint64_t t;
    generic(cx, w, f, ip, lanes, nl, &t);
    u->in_taint = t;
    const struct ex_uninit_plans *up = cx->chkl->up;
    const uint32_t *pl = up->data + up->plan[ex_chk_site(cx, f->fn, ip)];
    u->pw = w;
    u->pd = pl[0];
    u->psize = pl[1];
    return;
  }
  case EX_BARRIER: case EX_NOP: case EX_RET: case EX_UNREACHABLE:
    return;
  default: {
    uint64_t t;
    generic(cx, w, f, ip, lanes, nl, &t);
    return;
  }
  }
#undef UT
#undef PTR
}

void ex_uninit_bi_access(ex_ctx *cx, unsigned lane, uint64_t ptr, uint64_t bytes, bool write) {
  ex_uninit *u = cx->chk->un;
  ex_warp *w = cx->cur_warp;
  uint32_t id;
  uint64_t off;
  uint8_t *s = mem_shadow(cx, w, lane, ptr, bytes, &id, &off);
  const bool t = (u->in_taint >> lane) & 1;
  if (write) {
    if (s) memset(s, t, bytes);
    else if (id && t) report(cx, w, lane, cx->cur_fn, cx->cur_ip, WHY_WRITE, id, off, bytes);
  } else if (s && any(s, bytes) && u->pw == w && u->pd != LD_NONE) {
    /* the hook (before the builtin) has written the result's shadow already */
    memset(w->ureg + (size_t)u->pd * cx->W + (size_t)lane * u->psize, 1, u->psize);
    fl_set(w, u->pd, u->psize);
  }
}

void ex_uninit_image(ex_ctx *cx, ex_warp *w, unsigned l, const ex_func *fn, const ex_insn *ip, uint32_t alloc,
                     uint64_t off, uint64_t n, bool write) {
  if (!w->uflags_set) return;  /* every register of the warp is defined */
  const unsigned W = cx->W;
  const uint32_t *x = fn->aux + ip->c;
  const unsigned cb = 4 * ((x[0] >> 8) & 0xffu);  /* coordinate: 32-bit components */
  if (any(w->ureg + (size_t)ip->b * W + (size_t)l * cb, cb)) {
    report(cx, w, l, fn, ip, WHY_ADDRESS, 0, 0, 0);
    return;
  }
  /* a texel computed from undefined memory written to the image (global memory): as a store */
  const unsigned tb = x[1] == BI_IMG_R_F16 ? 8 : 16;
  if (write && any(w->ureg + (size_t)x[3] * W + (size_t)l * tb, tb)) report(cx, w, l, fn, ip, WHY_WRITE, alloc, off, n);
}
