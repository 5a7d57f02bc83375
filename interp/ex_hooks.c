/*
 * ex_hooks.c — the hook interface's notify points (ex_hooks.h): the registration list of the
 * clients, their resolution per launch and per worker into one subscriber array per event, and
 * the executor's per-instruction hook, which decodes a memory instruction's prepared encoding once
 * into the access event every client receives.
 */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ex_hooks.h"

/* The clients, in notification order. ADDING A CLIENT (a checker, a tracer) touches its own file,
 * which defines `const ex_hooks NAME`, and ONE line here; e.g. the division reports
 * (ex_arith_check.c) are one file and the line X(ex_arith_hooks). The debugger's client comes
 * first: it may pause the warp before the others see the instruction. */
#define EX_HK_CLIENTS(X)                                         \
  X(ex_pause_hooks)  /* ex_pause.c: spvi debug (ex_inspect.c) */ \
  X(ex_trace_hooks)  /* ex_trace.c: --trace */                   \
  X(ex_race_hooks)   /* ex_race.c: --check races */              \
  X(ex_uninit_hooks) /* ex_uninit.c: --check uninit */           \
  X(ex_arith_hooks)  /* ex_arith_check.c: division by zero and overflow reports */

#define DECLARE_(name) extern const ex_hooks name;
EX_HK_CLIENTS(DECLARE_)
#undef DECLARE_
static const ex_hooks *const clients[] = {
#define ENTRY_(name) &name,
  EX_HK_CLIENTS(ENTRY_)
#undef ENTRY_
};
#define NCLIENTS (sizeof clients / sizeof clients[0])
_Static_assert(NCLIENTS <= EX_HK_MAX, "raise EX_HK_MAX (ex_hooks.h) for more clients");

/* ---- launch and worker ---------------------------------------------------------------------- */

static bool number_sites(ex_hk_launch *L, const ex_program *p) {
  L->nfuncs = p->nfuncs;
  L->fbase = calloc(p->nfuncs + 1, sizeof *L->fbase);
  if (!L->fbase) return false;
  uint32_t n = 1; /* site 0 is "unknown" */
  for (uint32_t i = 0; i < p->nfuncs; i++) {
    L->fbase[i] = n;
    n += p->funcs[i].ncode;
  }
  L->nsites = n;
  return true;
}

bool ex_hooks_launch_begin(ex_ctx *cx) {
  ex_hk_launch *L = calloc(1, sizeof *L);
  if (!L) return false;
  cx->hkl = L;
  for (size_t i = 0; i < NCLIENTS; i++) {
    const unsigned want = clients[i]->wants(cx);
    if (!want) continue;
    L->c[L->n] = clients[i];
    L->want[L->n++] = want;
    L->flags |= want;
  }
  if ((L->flags & EX_HK_SITES) && !number_sites(L, cx->prog)) return false;
  for (unsigned i = 0; i < L->n; i++)
    if (L->c[i]->launch_begin && !L->c[i]->launch_begin(cx, &L->state[i])) return false;
  return true;
}

void ex_hooks_launch_end(ex_ctx *cx) {
  ex_hk_launch *L = cx->hkl;
  if (!L) return;
  for (unsigned i = 0; i < L->n; i++)
    if (L->c[i]->launch_end) L->c[i]->launch_end(cx, L->state[i]);
  free(L->fbase);
  free(L);
  cx->hkl = NULL;
}

static void subscribe(ex_hk_worker *h, unsigned ev, const ex_hk_sub *s) { h->sub[ev][h->n[ev]++] = *s; }

/* Every callback a client fills is one subscription. */
static void subscribe_all(ex_hk_worker *h, const ex_hk_sub *s, unsigned want) {
  const ex_hooks *c = s->c;
  if (c->group_begin) subscribe(h, EX_HK_EV_GROUP_BEGIN, s);
  if (c->group_end) subscribe(h, EX_HK_EV_GROUP_END, s);
  if (c->warp_start) subscribe(h, EX_HK_EV_WARP_START, s);
  if (c->warp_stop) subscribe(h, EX_HK_EV_WARP_STOP, s);
  if (c->before && (want & (EX_HK_EVERY | EX_HK_FLAGGED))) {
    ex_hk_sub b = *s;
    if (want & EX_HK_EVERY) b.watch = 0; /* every instruction: no watch bit to test */
    subscribe(h, EX_HK_EV_BEFORE, &b);
  }
  if (c->builtin) subscribe(h, EX_HK_EV_BUILTIN, s);
  if (c->access) subscribe(h, EX_HK_EV_ACCESS, s);
  if (c->cmpxchg) subscribe(h, EX_HK_EV_CMPXCHG, s);
  if (c->barrier) subscribe(h, EX_HK_EV_BARRIER, s);
  if (c->copy_event) subscribe(h, EX_HK_EV_COPY_EVENT, s);
  if (c->wait_events) subscribe(h, EX_HK_EV_WAIT_EVENTS, s);
  if (c->arith) subscribe(h, EX_HK_EV_ARITH, s);
}

static void *bi_access(void *ctx, unsigned lane, uint64_t ptr, uint64_t bytes, bool write);

bool ex_hooks_worker_init(ex_ctx *cx, uint64_t local_bytes, ex_warp *warps, unsigned nwarps) {
  const ex_hk_launch *L = cx->hkl;
  ex_hk_worker *h = calloc(1, sizeof *h);
  if (!h) return false;
  cx->hk = h;
  for (unsigned i = 0; i < L->n; i++) {
    const ex_hk_info info = {local_bytes, warps, nwarps, 1u << i};
    ex_hk_sub *s = &h->all[h->nall++];
    s->c = L->c[i];
    s->watch = info.watch;
    if (s->c->worker_init && !s->c->worker_init(cx, L->state[i], &info, &s->self)) return false;
    subscribe_all(h, s, L->want[i]);
    h->insn |= L->want[i] & (EX_HK_EVERY | EX_HK_MEMORY | EX_HK_FLAGGED);
  }
  for (unsigned i = 0; i < h->n[EX_HK_EV_BEFORE]; i++) {
    h->before_every |= !h->sub[EX_HK_EV_BEFORE][i].watch;
    h->before_watch |= h->sub[EX_HK_EV_BEFORE][i].watch;
  }
  h->decode = h->n[EX_HK_EV_ACCESS] || h->n[EX_HK_EV_BUILTIN] || h->n[EX_HK_EV_BARRIER];
  if (h->n[EX_HK_EV_ACCESS]) cx->bimem.access = bi_access;
  return true;
}

void ex_hooks_worker_free(ex_ctx *cx) {
  ex_hk_worker *h = cx->hk;
  if (!h) return;
  for (unsigned i = 0; i < h->nall; i++)
    if (h->all[i].c->worker_free) h->all[i].c->worker_free(h->all[i].self);
  free(h);
  cx->hk = NULL;
}

/* ---- notify points -------------------------------------------------------------------------- */
/* For each subscriber s of event EV of worker cx: CALL (s->c->cb(s->self, cx, ...)). */
#define EACH(cx, EV, CALL)                              \
  do {                                                  \
    const ex_hk_worker *h_ = (cx)->hk;                  \
    for (unsigned i_ = 0; h_ && i_ < h_->n[EV]; i_++) { \
      const ex_hk_sub *s = &h_->sub[EV][i_];            \
      CALL;                                             \
    }                                                   \
  } while (0)

void ex_hk_fanout_group_begin(ex_ctx *cx, ex_warp *warps, unsigned nw) {
  EACH(cx, EX_HK_EV_GROUP_BEGIN, s->c->group_begin(s->self, cx, warps, nw));
}

void ex_hk_fanout_group_end(ex_ctx *cx) { EACH(cx, EX_HK_EV_GROUP_END, s->c->group_end(s->self, cx)); }

void ex_hk_fanout_warp_start(ex_ctx *cx, ex_warp *w) {
  EACH(cx, EX_HK_EV_WARP_START, s->c->warp_start(s->self, cx, w));
}

void ex_hk_fanout_warp_stop(ex_ctx *cx, ex_warp *w) { EACH(cx, EX_HK_EV_WARP_STOP, s->c->warp_stop(s->self, cx, w)); }

static void notify_access(ex_ctx *cx, const ex_hk_access *a) {
  EACH(cx, EX_HK_EV_ACCESS, s->c->access(s->self, cx, a));
}

static void notify_barrier(ex_ctx *cx, const ex_hk_barrier *b) {
  EACH(cx, EX_HK_EV_BARRIER, s->c->barrier(s->self, cx, b));
}

void ex_hooks_access(ex_ctx *cx, const ex_hk_access *a) { notify_access(cx, a); }

void ex_hooks_copy_event(ex_ctx *cx, uint64_t ev) { EACH(cx, EX_HK_EV_COPY_EVENT, s->c->copy_event(s->self, cx, ev)); }

void ex_hooks_wait_events(ex_ctx *cx, const void *events, uint64_t num, uint64_t evb) {
  EACH(cx, EX_HK_EV_WAIT_EVENTS, s->c->wait_events(s->self, cx, events, num, evb));
}

void ex_hooks_div(ex_ctx *cx, const ex_hk_arith *e) { EACH(cx, EX_HK_EV_ARITH, s->c->arith(s->self, cx, e)); }

/* bi_mem.access while some client takes accesses: the access's event, then ex_mem. The builtin's
 * instruction is the executor's current one (EXTINST sets cx->cur_ip before the call). */
static void *bi_access(void *ctx, unsigned lane, uint64_t ptr, uint64_t bytes, bool write) {
  ex_ctx *cx = ctx;
  const uint16_t l16 = (uint16_t)lane;
  ex_hk_access a = ex_hk_access_one(EX_HK_BUILTIN, cx->cur_warp, cx->cur_fn, cx->cur_ip, &l16, &ptr, bytes, write);
  ex_hooks_access(cx, &a);
  return ex_mem(cx, cx->cur_warp, lane, ptr, bytes, write);
}

/* ---- barriers ------------------------------------------------------------------------------- */

/* The fences of a barrier instruction (OpControlBarrier, OpMemoryNamedBarrier: semantics is the
 * third operand; SPIR-V 3.32.20 WorkgroupMemory 0x100, CrossWorkgroupMemory 0x200, ImageMemory
 * 0x800). All three when the semantics are not a constant. */
static unsigned barrier_fences(const ex_ctx *cx, const ex_func *fn, const ex_insn *at) {
  const ld_module *m = cx->prog->ld;
  const ld_insn *li = &fn->ld->insns[at->src];
  uint32_t sem = 0x100u | 0x200u | 0x800u;
  if ((li->opcode == SpvOpControlBarrier || li->opcode == SpvOpMemoryNamedBarrier) && li->nops >= 3 &&
      li->ops[2] < m->bound && m->ids[li->ops[2]].kind == LD_ID_CONST)
    memcpy(&sem, m->consts[m->ids[li->ops[2]].index].bytes, 4);
  return ((sem & 0x100u) ? EX_HK_FENCE_LOCAL : 0u) | ((sem & 0x200u) ? EX_HK_FENCE_GLOBAL : 0u) |
         ((sem & 0x800u) ? EX_HK_FENCE_IMAGE : 0u);
}

void ex_hk_fanout_group_barrier(ex_ctx *cx, const ex_func *fn, const ex_insn *at) {
  const ex_hk_barrier b = {.scope = EX_HK_BAR_GROUP, .fences = barrier_fences(cx, fn, at)};
  notify_barrier(cx, &b);
}

void ex_hooks_named_barrier(ex_ctx *cx, ex_warp *warps, unsigned nw, uint32_t h) {
  if (!ex_hooks_on(cx, EX_HK_EV_BARRIER)) return;
  uint32_t *fl = malloc((size_t)nw * sizeof *fl);
  unsigned *fences = malloc((size_t)nw * sizeof *fences);
  unsigned n = 0;
  for (unsigned k = 0; fl && fences && k < nw; k++) {
    const ex_warp *x = &warps[k];
    if (x->state != EX_W_BARRIER || x->barrier_at->op != EX_NBAR_WAIT || x->nbar != h) continue;
    fl[n] = x->first_linear;
    fences[n++] = barrier_fences(cx, x->stack[x->depth - 1].fn, x->barrier_at);
  }
  if (fl && fences) { /* out of memory: the phase goes unnoticed (later pairs may be reported) */
    const ex_hk_barrier b = {.scope = EX_HK_BAR_NAMED, .n = n, .first_linear = fl, .member_fences = fences};
    notify_barrier(cx, &b);
  }
  free(fl);
  free(fences);
}

/* ---- the executor's hook -------------------------------------------------------------------- */

/* The pointers in register r of the listed lanes: the register itself when it is that array (every
 * lane, 8-byte pointers; registers are 8-byte aligned), else gathered into buf. */
static inline const uint64_t *lane_ptrs(const ex_ctx *cx, const ex_warp *w, uint32_t r, const uint16_t *lanes,
                                        unsigned nl, uint64_t *buf) {
  const unsigned W = cx->W, pb = cx->prog->ptr_bytes;
  const uint8_t *P = w->regs + (size_t)r * W;
  if (nl == W && pb == 8) return (const uint64_t *)(const void *)P;
  for (unsigned k = 0; k < nl; k++) buf[k] = ex_rd_ptr(P + (size_t)lanes[k] * pb, pb);
  return buf;
}

/* The access of a memory instruction with one pointer operand (built in place: it is the hot path
 * of the checked runs). */
static inline void insn_access(ex_hk_access *a, const ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip,
                               const uint16_t *lanes, unsigned nl, unsigned kind, uint64_t *buf) {
  a->kind = (uint8_t)kind;
  a->write = a->atomic = false;
  a->full = nl == cx->W;
  a->nl = nl;
  a->w = w;
  a->fn = f->fn;
  a->ip = ip;
  a->lanes = lanes;
  a->ptr = lane_ptrs(cx, w, ip->a, lanes, nl, buf);
  a->addr_reg = ip->a;
  a->addr_bytes = cx->prog->ptr_bytes;
}

/* OpLoad, OpStore: c bytes; a the pointer, d the result / b the value. */
static inline __attribute__((always_inline)) void step_load_store(ex_ctx *cx, ex_warp *w, const ex_frame *f,
                                                                  const ex_insn *ip, const uint16_t *lanes, unsigned nl,
                                                                  bool store) {
  uint64_t buf[EX_MAX_WARP];
  ex_hk_access a;
  insn_access(&a, cx, w, f, ip, lanes, nl, store ? EX_HK_STORE : EX_HK_LOAD, buf);
  a.write = store;
  a.size = ip->c;
  a.value_reg = store ? ip->b : ip->d;
  a.value_bytes = ip->c;
  notify_access(cx, &a);
}

/* An atomic's access, pointers in buf; every atomic but a load is a write here: a compare-exchange's
 * outcome per lane is known only after it ran (the `cmpxchg` event). */
static void atomic_access(ex_hk_access *a, ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip,
                          const uint16_t *lanes, unsigned nl, uint64_t *buf) {
  insn_access(a, cx, w, f, ip, lanes, nl, EX_HK_ATOMIC, buf);
  const unsigned size = (ip->n >> 1) & 15u, op = ip->flags;
  /* flag test-and-set returns a bool; the flag itself is a 32-bit integer in memory */
  a->size = op == EX_AT_FLAG_SET || op == EX_AT_FLAG_CLEAR ? 4 : size;
  a->write = op != EX_AT_LOAD;
  a->atomic = true;
  a->atomic_op = op;
  a->value_reg = ip->b;
  a->value_bytes = size;
  a->cmp_reg = op == EX_AT_CMPXCHG ? ip->c : LD_NONE;
  a->result_reg = ip->d;
  a->result_bytes = op == EX_AT_FLAG_SET ? 1 : size;
  a->exchanged = NULL;
}

static void step_atomic(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip, const uint16_t *lanes,
                        unsigned nl) {
  uint64_t buf[EX_MAX_WARP];
  ex_hk_access a;
  atomic_access(&a, cx, w, f, ip, lanes, nl, buf);
  notify_access(cx, &a);
}

/* After the compare-exchange ran: lane l stored iff the old value it returned (the result register)
 * equals its comparator (SPIR-V 3.32.18 OpAtomicCompareExchange: "If the value at Pointer equals
 * Comparator, Value is stored"). Both registers are read before any other instruction runs. */
void ex_hk_fanout_cmpxchg(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip, const uint16_t *lanes,
                          unsigned nl) {
  uint64_t buf[EX_MAX_WARP];
  bool exchanged[EX_MAX_WARP];
  ex_hk_access a;
  atomic_access(&a, cx, w, f, ip, lanes, nl, buf);
  const unsigned W = cx->W, n = a.value_bytes;
  for (unsigned k = 0; k < nl; k++) {
    /* no result register (never for a valid module: the instruction has a result): a store */
    const size_t at = (size_t)lanes[k] * n;
    exchanged[k] = a.result_reg == LD_NONE ||
                   !memcmp(w->regs + (size_t)a.result_reg * W + at, w->regs + (size_t)a.cmp_reg * W + at, n);
  }
  a.exchanged = exchanged;
  EACH(cx, EX_HK_EV_CMPXCHG, s->c->cmpxchg(s->self, cx, &a));
}

/* OpCopyMemory (c bytes) and OpCopyMemorySized (c: the size register, of `flags` bytes). */
static void step_copy(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip, const uint16_t *lanes,
                      unsigned nl) {
  uint64_t dst[EX_MAX_WARP], src[EX_MAX_WARP], sizes[EX_MAX_WARP];
  ex_hk_access a;
  insn_access(&a, cx, w, f, ip, lanes, nl, EX_HK_COPY, dst);
  a.src = lane_ptrs(cx, w, ip->b, lanes, nl, src);
  a.sizes = NULL;
  a.src_reg = ip->b;
  a.size = ip->c;
  if (ip->op == EX_COPYMEM_SIZED) {
    const uint8_t *S = w->regs + (size_t)ip->c * cx->W;
    for (unsigned k = 0; k < nl; k++) {
      sizes[k] = 0;
      memcpy(&sizes[k], S + (size_t)lanes[k] * ip->flags, ip->flags); /* little-endian host */
    }
    a.sizes = sizes;
  }
  notify_access(cx, &a);
}

/* A call's by-value aggregates: each is copied from the caller's object into the callee's private
 * copy (ex_exec.c, EX_CALL). */
static void step_call(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip, const uint16_t *lanes,
                      unsigned nl) {
  const ex_func *callee = &cx->prog->funcs[ip->a];
  const uint32_t *x = f->fn->aux + ip->b;
  for (uint32_t i = 0; i < callee->nparams; i++) {
    const uint32_t bv = callee->param_byval[i];
    if (!bv) continue;
    uint64_t dst[EX_MAX_WARP], src[EX_MAX_WARP];
    const uint64_t np = ex_ptr_of(cx, bv);
    for (unsigned k = 0; k < nl; k++) dst[k] = np;
    ex_hk_access a = {.kind = EX_HK_BYVAL,
                      .full = nl == cx->W,
                      .w = w,
                      .fn = f->fn,
                      .ip = ip,
                      .lanes = lanes,
                      .nl = nl,
                      .ptr = dst,
                      .size = cx->allocs[bv].size,
                      .addr_reg = LD_NONE,
                      .src = lane_ptrs(cx, w, x[1 + i], lanes, nl, src),
                      .src_reg = x[1 + i]};
    notify_access(cx, &a);
  }
}

/* `before` of the clients that see this instruction: always (EX_HK_EVERY) or while their watch bit
 * is set on w (EX_HK_FLAGGED). true: one of them pauses the warp. */
static __attribute__((noinline)) bool notify_before(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip,
                                                    const uint16_t *lanes, unsigned nl) {
  const ex_hk_worker *h = cx->hk;
  const ex_hk_insn e = {w, f, ip, lanes, nl};
  for (unsigned i = 0; i < h->n[EX_HK_EV_BEFORE]; i++) {
    const ex_hk_sub *s = &h->sub[EX_HK_EV_BEFORE][i];
    if ((!s->watch || (w->hk_watch & s->watch)) && s->c->before(s->self, cx, &e)) return true;
  }
  return false;
}

static void step_builtin(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip, const uint16_t *lanes,
                         unsigned nl) {
  const ex_hk_insn e = {w, f, ip, lanes, nl};
  EACH(cx, EX_HK_EV_BUILTIN, s->c->builtin(s->self, cx, &e));
}

/* sub_group_barrier (OpControlBarrier, Execution Subgroup): orders the accesses of each sub-group
 * that passes it, for the memory of its fences (OpenCL C sub_group_barrier). */
static void step_subgroup(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip, const uint16_t *lanes,
                          unsigned nl) {
  if (ip->flags != EX_SG_BARRIER || !cx->hk->n[EX_HK_EV_BARRIER]) return;
  const ex_hk_barrier b = {
    .scope = EX_HK_BAR_SUBGROUP, .fences = barrier_fences(cx, f->fn, ip), .w = w, .lanes = lanes, .nl = nl};
  notify_barrier(cx, &b);
}

/* Each instruction is decoded by the hook class of its row in ex_ops.h (ex_hk_class): a new memory
 * instruction is one row with its class, and no list here. */
bool ex_hooks_step(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip, const uint16_t *lanes, unsigned nl) {
  const ex_hk_worker *h = cx->hk;
  if ((h->before_every || (w->hk_watch & h->before_watch)) && notify_before(cx, w, f, ip, lanes, nl)) return true;
  if (!h->decode) return false;
  switch ((ex_hk_class)ex_op_hook[ip->op]) {
  case EX_HC_LOAD: step_load_store(cx, w, f, ip, lanes, nl, false); break;
  case EX_HC_STORE: step_load_store(cx, w, f, ip, lanes, nl, true); break;
  case EX_HC_ATOMIC: step_atomic(cx, w, f, ip, lanes, nl); break;
  case EX_HC_COPY: step_copy(cx, w, f, ip, lanes, nl); break;
  case EX_HC_CALL: step_call(cx, w, f, ip, lanes, nl); break;
  case EX_HC_BUILTIN: step_builtin(cx, w, f, ip, lanes, nl); break;
  case EX_HC_SUBGROUP: step_subgroup(cx, w, f, ip, lanes, nl); break;
  case EX_HC_NONE:
  case EX_HC_COUNT: break;
  }
  return false;
}
