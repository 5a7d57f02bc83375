/*
 * ex_checks.c — the optional shadow checks' plumbing: launch/worker/group life cycle, numbering of
 * instructions ("sites") so that shadow memory can name them in 31 bits, and the per-instruction
 * hook of the checked dispatch table, which hands memory accesses to the race detector (ex_race.c)
 * and every instruction to the uninitialized-value tracker (ex_uninit.c).
 *
 * The hook runs BEFORE the instruction, when its operands are in their registers: it recomputes the
 * addresses an access will use (without faulting: an invalid access is left to the handler, which
 * faults) and the shadow of the result from the shadows of the operands.
 */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ex_shadow.h"

static inline uint64_t rd_ptr(const uint8_t *p, unsigned pb) {
  if (pb == 8) { uint64_t v; memcpy(&v, p, 8); return v; }
  uint32_t v; memcpy(&v, p, 4); return v;
}

void ex_chk_site_decode(const ex_ctx *cx, uint32_t site, const ex_func **fn, const ex_insn **ip) {
  *fn = NULL;
  *ip = NULL;
  const ex_chkl *L = cx->chkl;
  if (!site || site >= L->nsites) return;
  uint32_t lo = 0, hi = L->nfuncs;  /* the last function whose base is <= site */
  while (hi - lo > 1) {
    uint32_t mid = (lo + hi) / 2;
    if (L->fbase[mid] <= site) lo = mid; else hi = mid;
  }
  *fn = &cx->prog->funcs[lo];
  *ip = (*fn)->code + (site - L->fbase[lo]);
}

bool ex_chk_launch_begin(ex_ctx *cx) {
  ex_chkl *L = calloc(1, sizeof *L);
  if (!L) return false;
  cx->chkl = L;
  const ex_program *p = cx->prog;
  L->nfuncs = p->nfuncs;
  L->fbase = calloc(p->nfuncs + 1, sizeof *L->fbase);
  if (!L->fbase) return false;
  uint32_t n = 1;  /* site 0 is "unknown" */
  for (uint32_t i = 0; i < p->nfuncs; i++) {
    L->fbase[i] = n;
    n += p->funcs[i].ncode;
  }
  L->nsites = n;
  if ((cx->checks & SPVI_CHECK_RACES) && !ex_race_launch_begin(L, cx)) return false;
  if ((cx->checks & SPVI_CHECK_UNINIT) && !ex_uninit_launch_begin(L, cx)) return false;
  return true;
}

void ex_chk_launch_end(ex_ctx *cx) {
  ex_chkl *L = cx->chkl;
  if (!L) return;
  ex_race_launch_end(L, cx);
  ex_uninit_launch_end(L);
  free(L->fbase);
  free(L);
  cx->chkl = NULL;
}

bool ex_chk_worker_init(ex_ctx *cx, uint64_t local_bytes, ex_warp *warps, unsigned nwarps) {
  struct ex_chk *c = calloc(1, sizeof *c);
  if (!c) return false;
  cx->chk = c;
  c->L = cx->chkl;
  cx->bimem.access = ex_chk_bi_access;
  if ((cx->checks & SPVI_CHECK_RACES) && !(c->race = ex_race_new(cx, local_bytes))) return false;
  if (cx->checks & SPVI_CHECK_UNINIT) {
    if (!(c->un = ex_uninit_new(cx, local_bytes))) return false;
    for (unsigned k = 0; k < nwarps; k++)
      if (!ex_uninit_warp_init(cx, &warps[k])) return false;
  }
  return true;
}

void ex_chk_worker_free(ex_ctx *cx, ex_warp *warps, unsigned nwarps) {
  struct ex_chk *c = cx->chk;
  for (unsigned k = 0; k < nwarps; k++) ex_uninit_warp_free(&warps[k]);
  if (!c) return;
  ex_race_free(c->race);
  ex_uninit_free(c->un);
  free(c);
  cx->chk = NULL;
}

void ex_chk_group_start(ex_ctx *cx, ex_warp *warps, unsigned nw) {
  if (cx->chk->un) ex_uninit_group_start(cx, warps, nw);
}

/* The race checker names work-items by local linear id (first_linear + lane), which a restart
 * moves on: nothing to do for it. */
void ex_chk_warp_restart(ex_ctx *cx, ex_warp *w) {
  if (cx->chk->un) ex_uninit_warp_start(cx, w);
}

/* OpControlBarrier's memory semantics (SPIR-V 3.32.20): WorkgroupMemory (0x100) orders local
 * memory, CrossWorkgroupMemory (0x200) global memory, ImageMemory (0x800) images (OpenCL C 6.15.8:
 * CLK_LOCAL_MEM_FENCE, CLK_GLOBAL_MEM_FENCE, CLK_IMAGE_MEM_FENCE). A barrier whose semantics are
 * not a constant orders all three. */
static uint32_t barrier_semantics(const ex_ctx *cx, const ex_func *fn, const ex_insn *at) {
  const ld_module *m = cx->prog->ld;
  const ld_insn *li = &fn->ld->insns[at->src];
  uint32_t sem = 0x100u | 0x200u | 0x800u;
  if ((li->opcode == SpvOpControlBarrier || li->opcode == SpvOpMemoryNamedBarrier) && li->nops >= 3 && li->ops[2] < m->bound &&
      m->ids[li->ops[2]].kind == LD_ID_CONST)
    memcpy(&sem, m->consts[m->ids[li->ops[2]].index].bytes, 4);
  return sem;
}

void ex_chk_barrier(ex_ctx *cx, const ex_func *fn, const ex_insn *at) {
  if (!cx->chk->race || at->op != EX_BARRIER) return;  /* collectives are not memory fences */
  const uint32_t sem = barrier_semantics(cx, fn, at);
  ex_race_interval_end(cx, (sem & 0x100u) != 0, (sem & 0x200u) != 0, (sem & 0x800u) != 0);
}

/* OpMemoryNamedBarrier (operands: named barrier, memory scope, semantics): each sub-group that
 * arrived takes part for the memories its own instruction's semantics name. */
void ex_chk_named_barrier(ex_ctx *cx, ex_warp *warps, unsigned nw, uint32_t h) {
  if (!cx->chk->race) return;
  uint32_t *fl = malloc(2 * (size_t)nw * sizeof *fl);
  if (!fl) return;
  uint32_t *sem = fl + nw;
  unsigned n = 0;
  for (unsigned k = 0; k < nw; k++) {
    const ex_warp *x = &warps[k];
    if (x->state != EX_W_BARRIER || x->barrier_at->op != EX_NBAR_WAIT || x->nbar != h) continue;
    fl[n] = x->first_linear;
    sem[n++] = barrier_semantics(cx, x->stack[x->depth - 1].fn, x->barrier_at);
  }
  ex_race_named_barrier(cx, fl, sem, n);
  free(fl);
}

/* Async copies (ex_async.c): the destination's definedness follows the source's; for the race
 * detector the copy is the work-group's access, unordered with the work-items' accesses until
 * wait_group_events for its event (ex_race.c, spec-notes/checks.md "Async copies"). */
void ex_chk_group_copy(ex_ctx *cx, ex_warp *w, const ex_func *fn, const ex_insn *ip, uint64_t dst, uint64_t src,
                       uint64_t n) {
  if (cx->chk->race) ex_race_copy(cx, ex_chk_site(cx, fn, ip), dst, src, n);
  if (cx->chk->un) ex_uninit_copy(cx, w, 0, fn, ip, dst, src, n);
}

void ex_chk_copy_event(ex_ctx *cx, uint64_t ev) {
  if (cx->chk->race) ex_race_copy_event(cx, ev);
}

void ex_chk_wait_events(ex_ctx *cx, const void *events, uint64_t num, uint64_t evb) {
  if (cx->chk->race) ex_race_wait(cx, events, num, evb);
}

void ex_chk_image(ex_ctx *cx, ex_warp *w, unsigned l, const ex_func *fn, const ex_insn *ip, uint32_t alloc,
                  uint64_t off, uint64_t n, bool write) {
  if (cx->chk->race) ex_race_image(cx, w, l, ex_chk_site(cx, fn, ip), alloc, off, n, write);
  if (cx->chk->un) ex_uninit_image(cx, w, l, fn, ip, alloc, off, n, write);
}

void ex_chk_group_end(ex_ctx *cx) {
  if (cx->chk->race) ex_race_group_end(cx);
}

void *ex_chk_bi_access(void *ctx, unsigned lane, uint64_t ptr, uint64_t bytes, bool write) {
  ex_ctx *cx = ctx;
  if (cx->chk->race)
    ex_race_access(cx, cx->cur_warp, lane, ex_chk_site(cx, cx->cur_fn, cx->cur_ip), ptr, bytes, write, false);
  if (cx->chk->un) ex_uninit_bi_access(cx, lane, ptr, bytes, write);
  return ex_mem(cx, cx->cur_warp, lane, ptr, bytes, write);
}

/* A load's or store's lanes for the race detector, in segments of consecutive lanes whose pointers
 * are consecutive elements (lane + k at p + k * n: a warp reading a row) or the same (a broadcast):
 * each segment is recorded with one lookup per page instead of one per lane. */
static void race_lanes(ex_ctx *cx, ex_warp *w, const uint8_t *P, const uint16_t *lanes, unsigned nl, uint32_t site,
                       uint64_t n, bool write) {
  uint64_t pt[EX_MAX_WARP];
  const bool full = nl == cx->W;  /* lanes[k] == k */
  if (cx->prog->ptr_bytes == 8) {
    if (full) memcpy(pt, P, 8 * (size_t)nl);
    else for (unsigned k = 0; k < nl; k++) memcpy(&pt[k], P + 8 * (size_t)lanes[k], 8);
  } else {
    for (unsigned k = 0; k < nl; k++) {
      uint32_t v;
      memcpy(&v, P + 4 * (size_t)lanes[k], 4);
      pt[k] = v;
    }
  }
  unsigned k = 0;
  while (k < nl) {
    unsigned e = k + 1;
    uint64_t stride = 0;
    if (e < nl && (full || lanes[e] == lanes[k] + 1)) {
      stride = pt[e] - pt[k];
      if (stride == n || stride == 0) {
        if (full) {
          /* the whole warp, else blocks of 8 lanes, without an early exit (which does not
           * vectorise), then lane by lane in the block where the segment ends (a 2D group's row
           * of 16 in a warp of 32) */
          if (pt[nl - 1] - pt[k] == stride * (nl - 1 - k)) {  /* else the warp is no one segment */
            uint64_t all = 0;
            for (unsigned j = e; j < nl; j++) all |= (pt[j] - pt[j - 1]) ^ stride;
            if (!all) e = nl;
          }
          while (e + 8 <= nl) {
            uint64_t diff = 0;
            for (unsigned j = e; j < e + 8; j++) diff |= (pt[j] - pt[j - 1]) ^ stride;
            if (diff) break;
            e += 8;
          }
          while (e < nl && pt[e] - pt[e - 1] == stride) e++;
        }
        else while (e < nl && lanes[e] == lanes[e - 1] + 1 && pt[e] - pt[e - 1] == stride) e++;
      }
      else
        e = k + 1;
    }
    const unsigned cnt = e - k;
    if (cnt == 1 || !(stride ? ex_race_access_run(cx, w, lanes[k], cnt, site, pt[k], n, write, false)
                             : ex_race_access_uniform(cx, w, lanes[k], cnt, site, pt[k], n, write, false)))
      for (unsigned j = k; j < e; j++) ex_race_access(cx, w, lanes[j], site, pt[j], n, write, false);
    k = e;
  }
}

/* The memory accesses of one instruction, for the race detector. */
static void race_step(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip, const uint16_t *lanes,
                      unsigned nl) {
  const unsigned W = cx->W, pb = cx->prog->ptr_bytes;
  const uint8_t *R = w->regs;
#define RG(r) (R + (size_t)(r) * W)
  uint32_t site;
  switch (ip->op) {
  case EX_LOAD: case EX_LOAD_4: case EX_LOAD_8:
    race_lanes(cx, w, RG(ip->a), lanes, nl, ex_chk_site(cx, f->fn, ip), ip->c, false);
    return;
  case EX_STORE: case EX_STORE_4: case EX_STORE_8:
    race_lanes(cx, w, RG(ip->a), lanes, nl, ex_chk_site(cx, f->fn, ip), ip->c, true);
    return;
  case EX_ATOMIC: {
    const unsigned size = (ip->n >> 1) & 15u, kind = ip->flags;
    const unsigned msize = kind == EX_AT_FLAG_SET || kind == EX_AT_FLAG_CLEAR ? 4 : size;
    uint64_t pt[EX_MAX_WARP];
    for (unsigned k = 0; k < nl; k++) pt[k] = rd_ptr(RG(ip->a) + (size_t)lanes[k] * pb, pb);
    ex_race_access_lanes(cx, w, lanes, nl, ex_chk_site(cx, f->fn, ip), pt, msize, kind != EX_AT_LOAD, true);
    return;
  }
  case EX_COPYMEM: case EX_COPYMEM_SIZED:
    site = ex_chk_site(cx, f->fn, ip);
    for (unsigned k = 0; k < nl; k++) {
      const unsigned l = lanes[k];
      uint64_t n = ip->c;
      if (ip->op == EX_COPYMEM_SIZED) {
        n = 0;
        memcpy(&n, RG(ip->c) + (size_t)l * ip->flags, ip->flags);  /* little-endian host */
      }
      if (!n) continue;
      ex_race_access(cx, w, l, site, rd_ptr(RG(ip->b) + (size_t)l * pb, pb), n, false, false);
      ex_race_access(cx, w, l, site, rd_ptr(RG(ip->a) + (size_t)l * pb, pb), n, true, false);
    }
    return;
  case EX_CALL: {
    /* by-value aggregates are read from the caller's object */
    const ex_func *callee = &cx->prog->funcs[ip->a];
    const uint32_t *x = f->fn->aux + ip->b;
    site = ex_chk_site(cx, f->fn, ip);
    for (uint32_t i = 0; i < callee->nparams; i++) {
      const uint32_t bv = callee->param_byval[i];
      if (!bv) continue;
      for (unsigned k = 0; k < nl; k++)
        ex_race_access(cx, w, lanes[k], site, rd_ptr(RG(x[1 + i]) + (size_t)lanes[k] * pb, pb), cx->allocs[bv].size,
                       false, false);
    }
    return;
  }
  case EX_EXTINST:
    cx->cur_ip = ip;  /* builtins' accesses come through ex_chk_bi_access, which reads it */
    return;
  case EX_SUBGROUP:
    /* sub_group_barrier (OpControlBarrier, Execution Subgroup): orders the accesses of each
     * sub-group that passes it, for the memory of its fences (OpenCL C sub_group_barrier) */
    if (ip->flags == EX_SG_BARRIER) {
      const uint32_t sem = barrier_semantics(cx, f->fn, ip);
      ex_race_subgroup_barrier(cx, w, lanes, nl, (sem & 0x100u) != 0, (sem & 0x200u) != 0, (sem & 0x800u) != 0);
    }
    return;
  default:
    return;
  }
#undef RG
}

void ex_chk_step(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip, const uint16_t *lanes, unsigned nl) {
  struct ex_chk *c = cx->chk;
  if (c->race) race_step(cx, w, f, ip, lanes, nl);
  if (c->un) ex_uninit_step(cx, w, f, ip, lanes, nl);
}
