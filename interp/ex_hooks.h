/*
 * ex_hooks.h — the hook interface: what the executor and the scheduler tell the optional clients
 * that watch a run (the race checker, the uninitialized-value checker, the tracer, the division
 * reports, the debugger's pauses), in the manner of Oclgrind's Plugin (src/core/Plugin.h:
 * memoryLoad/Store/Atomic..., workGroupBarrier, workGroupBegin/Complete, kernelBegin/End). The
 * debugger's client (ex_pause.c) is registered first: its `before` may pause the warp.
 *
 * A client is one file that fills an `ex_hooks` table (NULL for the events it does not take) and
 * one line in the registration list of ex_hooks.c. Events arrive ALREADY DECODED: a memory access
 * carries its lanes, their pointers, the size, the write/atomic flags and the registers involved,
 * so no client reads the prepared encoding of a memory instruction (ex_hooks.c decodes it once).
 * Clients keep their own state: one pointer per launch and one per worker (the `self` of every
 * callback below); per-warp state is the client's own table, indexed by the warp's place in the
 * worker's array (ex_hk_info.warps). The core structs carry no client's state, only the interface's
 * (ex_ctx.hk/hkl, ex_warp.hk_watch).
 *
 * Cost. Every client says, per run, which instructions it must see before they run (EX_HK_EVERY,
 * EX_HK_MEMORY, EX_HK_FLAGGED); ex_exec_warp builds its label table from the union, so a run whose
 * clients need no instruction runs the plain table (zero cost), and a memory-only client hooks the
 * memory instructions alone. The active clients are resolved once per launch, and per worker into
 * one array of subscribers per event: a notify point loops over those and nothing else.
 *
 * Order: clients are notified in registration order. A client's callbacks for one worker run on
 * that worker's thread (reports go through ex_check_report, which is thread-safe).
 */
#ifndef EX_HOOKS_H
#define EX_HOOKS_H

#include <stdbool.h>
#include <stdint.h>

#include "ex_internal.h"

/* ---- what a client takes part in (ex_hooks.wants) ------------------------------------------- */
#define EX_HK_ON 1u    /* takes part in the run (events only, no instruction hook) */
#define EX_HK_EVERY 2u /* `before` every instruction */
#define EX_HK_MEMORY \
  4u /* memory instructions, builtin calls and sub-group operations are
                                 hooked (their `access`, `builtin` and `barrier` events) */
#define EX_HK_FLAGGED \
  8u /* `before` every instruction while the warp's watch bit of the
                                 client is set (ex_hk_watch), besides EX_HK_MEMORY's */
#define EX_HK_WARPWISE \
  16u                        /* lanes are recycled only warp by warp: a warp's lanes keep
                                 consecutive work-items (first_linear + lane), restarts come as
                                 warp_start (per-lane state follows the lanes) */
#define EX_HK_NO_RECYCLE 32u /* no lane recycling at all (each warp keeps its work-items) */
#define EX_HK_SERIAL 64u     /* work-groups run in increasing order on one thread */
#define EX_HK_SITES 128u     /* the client names instructions by site number (ex_hk_site) */
#define EX_HK_BUILTIN_MEM \
  256u /* every built-in variable is written to each lane's private memory
                                when its work-item starts, also those EX_BUILTIN computes without
                                reading memory (the debugger shows them from memory) */

/* The instructions EX_HK_MEMORY hooks are those whose row in ex_ops.h names a hook class
 * (ex_hk_class): memory accesses, calls (their by-value copies), builtins (their accesses come as
 * EX_HK_BUILTIN; the uninit checker computes their result's shadow first) and sub-group operations
 * (sub-group barriers). ex_hooks_step decodes each by its class. */

/* ---- events --------------------------------------------------------------------------------- */

/* Before instruction ip of the top frame f of warp w runs for `lanes` (EX_HK_EVERY/FLAGGED). */
typedef struct ex_hk_insn {
  ex_warp *w;
  const ex_frame *f;
  const ex_insn *ip;
  const uint16_t *lanes; /* the active lanes, ascending; nl == W: every lane (lanes[k] == k) */
  unsigned nl;
} ex_hk_insn;

/* Kinds of memory access. The instruction kinds are notified before the instruction runs (the
 * addresses are those it will use; an invalid one is left to it: it faults); the others after the
 * access succeeded. */
enum {
  EX_HK_LOAD,      /* OpLoad: value_reg receives the loaded value */
  EX_HK_STORE,     /* OpStore: value_reg holds the value stored */
  EX_HK_ATOMIC,    /* an atomic: atomic_op EX_AT_*, value_reg/cmp_reg operands, result_reg */
  EX_HK_COPY,      /* OpCopyMemory(Sized): per lane, `size` (or sizes[k]) bytes from src to ptr */
  EX_HK_BYVAL,     /* a call's copy of a by-value aggregate from src into the callee's
                                  private copy at ptr (no address operand of the kernel's own) */
  EX_HK_BUILTIN,   /* one lane of a builtin (OpExtInst) accesses memory (after `builtin`) */
  EX_HK_IMAGE,     /* one lane read or wrote image texels: alloc, off, size; addr_reg
                                  the coordinate, value_reg the texel written */
  EX_HK_GROUP_COPY /* an async work-group copy of `size` bytes, done for the group by
                                  lane 0 of w (ex_async.c) */
};

/* The fields above the union are set for every kind; in the union only those of the access's
 * kind (the others are unspecified): one event is built per hooked instruction. */
typedef struct ex_hk_access {
  uint8_t kind; /* EX_HK_LOAD ... */
  bool write, atomic;
  bool full; /* lanes are every lane of the warp (lanes[k] == k, nl == W) */
  unsigned nl;
  ex_warp *w;
  const ex_func *fn; /* the instruction (its function) the access belongs to: its site
                                  number is ex_hk_site(cx, fn, ip) */
  const ex_insn *ip;
  const uint16_t *lanes;
  const uint64_t *ptr; /* per k < nl: the address lanes[k] accesses (copies: destination) */
  uint64_t size;       /* bytes per lane (OpCopyMemorySized: sizes[k]) */
  /* the register of the address (per-lane register offset; LD_NONE: none) and its bytes, for
   * clients that shadow registers: the pointer operand (COPY: the destination; IMAGE: the
   * coordinate) */
  uint32_t addr_reg;
  unsigned addr_bytes;
  union {
    struct {              /* LOAD, STORE, ATOMIC, IMAGE */
      uint32_t value_reg; /* LOAD: the result; STORE, ATOMIC: the value operand; IMAGE write:
                                  the texel (LD_NONE: none) */
      unsigned value_bytes;
      uint32_t cmp_reg;    /* ATOMIC: the comparator of a compare-exchange (value_bytes), or LD_NONE */
      uint32_t result_reg; /* ATOMIC: the old value's register (LD_NONE: none) */
      unsigned result_bytes;
      unsigned atomic_op; /* ATOMIC: EX_AT_* */
      /* ATOMIC in the `cmpxchg` event: per k, whether lanes[k] stored (its old value equalled the
       * comparator); NULL in `access`, which comes before the outcome is known */
      const bool *exchanged;
      uint32_t alloc; /* IMAGE: the image's allocation and the texels' byte offset in it */
      uint64_t off;
    };
    struct {                 /* COPY, BYVAL, GROUP_COPY */
      const uint64_t *src;   /* per k: the source address */
      const uint64_t *sizes; /* OpCopyMemorySized: per k the byte count; else NULL (size) */
      uint32_t src_reg;      /* COPY: the source pointer's register */
    };
  };
} ex_hk_access;

/* A barrier releases its members. Fences (the memory it orders): OpenCL C 6.15.8's
 * CLK_LOCAL_MEM_FENCE, CLK_GLOBAL_MEM_FENCE, CLK_IMAGE_MEM_FENCE, from the semantics operand
 * (SPIR-V 3.32.20: WorkgroupMemory, CrossWorkgroupMemory, ImageMemory; all three when it is not a
 * constant). */
#define EX_HK_FENCE_LOCAL 1u
#define EX_HK_FENCE_GLOBAL 2u
#define EX_HK_FENCE_IMAGE 4u
enum {
  EX_HK_BAR_GROUP,    /* a work-group barrier: every warp of the group waits at it */
  EX_HK_BAR_SUBGROUP, /* before a sub_group_barrier: the sub-groups of w's lanes pass it */
  EX_HK_BAR_NAMED     /* a phase of a named barrier completed: n sub-groups, the k-th
                                  starting at local linear id first_linear[k], each with its own
                                  instruction's fences member_fences[k] */
};
typedef struct ex_hk_barrier {
  unsigned scope;   /* EX_HK_BAR_* */
  unsigned fences;  /* GROUP, SUBGROUP: EX_HK_FENCE_* */
  const ex_warp *w; /* SUBGROUP */
  const uint16_t *lanes;
  unsigned nl;
  unsigned n; /* NAMED */
  const uint32_t *first_linear;
  const unsigned *member_fences;
} ex_hk_barrier;

/* An integer division or remainder (UDiv, SDiv, UMod, SRem, SMod) whose divisor is 0, or a signed
 * one of the minimum value by -1, in some of `lanes` (the operands are still in their registers: a
 * and b hold lane l's n components of `bytes` bytes at a + l * n * bytes). */
typedef struct ex_hk_arith {
  ex_warp *w;
  const ex_func *fn;
  const ex_insn *ip;
  const uint16_t *lanes;
  unsigned nl;
  const uint8_t *a, *b;
  unsigned n, bytes;
  bool is_signed;
} ex_hk_arith;

/* What a client's worker state is made for. */
typedef struct ex_hk_info {
  uint64_t local_bytes; /* the local arena's size */
  ex_warp *warps;       /* the worker's warps (every warp the worker runs is one of them) */
  unsigned nwarps;
  uint32_t watch; /* the client's bit in ex_warp.hk_watch (EX_HK_FLAGGED) */
} ex_hk_info;

/* ---- a client ------------------------------------------------------------------------------- */
typedef struct ex_hooks {
  const char *name;
  /* EX_HK_* for this run (cx->checks, cx->l ...), 0: the client takes no part. */
  unsigned (*wants)(const ex_ctx *cx);
  /* Launch-wide state, once the allocations exist (*launch stays NULL when none is needed);
   * false: out of memory (launch_end is still called). */
  bool (*launch_begin)(ex_ctx *cx, void **launch);
  void (*launch_end)(ex_ctx *cx, void *launch);
  /* Per-worker state: `self` of the callbacks below (false: out of memory; worker_free is still
   * called, with what *self holds). */
  bool (*worker_init)(ex_ctx *cx, void *launch, const ex_hk_info *info, void **self);
  void (*worker_free)(void *self);
  /* A work-group's warps were just started (fresh private and local memory); the group finished
   * (not after a fault). */
  void (*group_begin)(void *self, ex_ctx *cx, ex_warp *warps, unsigned nw);
  void (*group_end)(void *self, ex_ctx *cx);
  /* Warp w, whose lanes all finished, was restarted with the group's next work-items (lane
   * recycling, EX_HK_WARPWISE): its private memory and registers are fresh. */
  void (*warp_start)(void *self, ex_ctx *cx, ex_warp *w);
  /* Warp w stopped running: finished, waiting at a barrier, faulted or paused (after each
   * ex_exec_warp of the scheduler's run loop and of the debugger's step-by-step one). */
  void (*warp_stop)(void *self, ex_ctx *cx, ex_warp *w);
  /* Before an instruction (EX_HK_EVERY, EX_HK_FLAGGED). Returns true to pause the warp before it
   * (f->ip = ip, EX_W_PAUSED: ex_exec_warp resumes there and the instruction is notified again
   * from the first client: the pausing client lets it run then); the clients after a pausing one
   * are not called. This is the debugger's event (ex_pause.c, registered first, with EX_HK_EVERY);
   * the other clients return false. */
  bool (*before)(void *self, ex_ctx *cx, const ex_hk_insn *e);
  /* Before a builtin (OpExtInst) runs (EX_HK_MEMORY); its memory accesses follow as EX_HK_BUILTIN. */
  void (*builtin)(void *self, ex_ctx *cx, const ex_hk_insn *e);
  void (*access)(void *self, ex_ctx *cx, const ex_hk_access *a);
  /* After a compare-exchange (OpAtomicCompareExchange[Weak]) ran for all its lanes (EX_HK_MEMORY):
   * the access of its `access` event (write set, as for every atomic but a load) with `exchanged`
   * per lane. A lane whose comparison failed only loaded: SPIR-V 3.32.18, OpenCL C 6.15.12.7.4
   * ("otherwise, these operations are atomic load operations"). Not sent when a lane faulted. */
  void (*cmpxchg)(void *self, ex_ctx *cx, const ex_hk_access *a);
  void (*barrier)(void *self, ex_ctx *cx, const ex_hk_barrier *b);
  /* Async copies: the GROUP_COPY accesses since the last call belong to event ev; a
   * wait_group_events (the whole group there) released `num` events, the first 8 bytes of each
   * `evb` bytes at `events`. */
  void (*copy_event)(void *self, ex_ctx *cx, uint64_t ev);
  void (*wait_events)(void *self, ex_ctx *cx, const void *events, uint64_t num, uint64_t evb);
  void (*arith)(void *self, ex_ctx *cx, const ex_hk_arith *e);
} ex_hooks;

/* ---- the run's resolved clients (ex_hooks.c) ------------------------------------------------ */
enum {
  EX_HK_EV_GROUP_BEGIN,
  EX_HK_EV_GROUP_END,
  EX_HK_EV_WARP_START,
  EX_HK_EV_WARP_STOP,
  EX_HK_EV_BEFORE,
  EX_HK_EV_BUILTIN,
  EX_HK_EV_ACCESS,
  EX_HK_EV_CMPXCHG,
  EX_HK_EV_BARRIER,
  EX_HK_EV_COPY_EVENT,
  EX_HK_EV_WAIT_EVENTS,
  EX_HK_EV_ARITH,
  EX_HK_NEV
};
#define EX_HK_MAX 8 /* registered clients at most (ex_hooks.c checks) */

typedef struct ex_hk_sub {
  const ex_hooks *c;
  void *self;
  uint32_t watch; /* `before` of an EX_HK_FLAGGED client: its watch bit; 0: always */
} ex_hk_sub;

/* Per worker (ex_ctx.hk): per event the subscribers, in registration order. */
typedef struct ex_hk_worker {
  unsigned insn;         /* union of the clients' EX_HK_EVERY/MEMORY/FLAGGED */
  bool before_every;     /* some `before` subscriber sees every instruction */
  uint32_t before_watch; /* the watch bits of the other `before` subscribers */
  bool decode;           /* some client takes the decoded events of ex_hooks_step */
  unsigned n[EX_HK_NEV];
  ex_hk_sub sub[EX_HK_NEV][EX_HK_MAX];
  ex_hk_sub all[EX_HK_MAX]; /* every active client, for worker_free */
  unsigned nall;
} ex_hk_worker;

/* Launch-wide (ex_ctx.hkl, shared by the workers). */
typedef struct ex_hk_launch {
  unsigned flags; /* union of the active clients' wants */
  unsigned n;
  const ex_hooks *c[EX_HK_MAX];
  unsigned want[EX_HK_MAX];
  void *state[EX_HK_MAX];
  /* Site numbering: every prepared instruction of the program has an index >= 1 (0: unknown), so
   * shadow memory can name instructions in 31 bits (EX_HK_SITES). */
  uint32_t *fbase; /* per function: the site of its first instruction; NULL: not numbered */
  uint32_t nfuncs, nsites;
} ex_hk_launch;

/* ---- for the core (ex_sched.c, ex_exec.c, ex_async.c, ex_image.c, ex_lanes.c) --------------- */
/* Resolve the clients taking part (once the allocations exist) and start their launch state;
 * false: out of memory. ex_hooks_launch_end in every case. */
bool ex_hooks_launch_begin(ex_ctx *cx);
void ex_hooks_launch_end(ex_ctx *cx);
/* The union of the run's clients' EX_HK_* (0 before ex_hooks_launch_begin). */
static inline unsigned ex_hooks_flags(const ex_ctx *cx) { return cx->hkl ? cx->hkl->flags : 0; }
/* A worker's subscriber arrays and client state (false: out of memory); installs the builtins'
 * memory hook when some client takes accesses. */
bool ex_hooks_worker_init(ex_ctx *cx, uint64_t local_bytes, ex_warp *warps, unsigned nwarps);
void ex_hooks_worker_free(ex_ctx *cx);
/* Whether some client of this worker takes event `ev` (EX_HK_EV_*). */
static inline bool ex_hooks_on(const ex_ctx *cx, unsigned ev) { return cx->hk && cx->hk->n[ev]; }

/* The notify points of the frequent events test for a subscriber inline (a run without clients
 * pays a load and a branch); ex_hk_fanout_* call the subscribers. */
void ex_hk_fanout_group_begin(ex_ctx *cx, ex_warp *warps, unsigned nw);
void ex_hk_fanout_group_end(ex_ctx *cx);
void ex_hk_fanout_warp_start(ex_ctx *cx, ex_warp *w);
void ex_hk_fanout_warp_stop(ex_ctx *cx, ex_warp *w);
void ex_hk_fanout_group_barrier(ex_ctx *cx, const ex_func *fn, const ex_insn *at);
static inline void ex_hooks_group_begin(ex_ctx *cx, ex_warp *warps, unsigned nw) {
  if (ex_hooks_on(cx, EX_HK_EV_GROUP_BEGIN)) ex_hk_fanout_group_begin(cx, warps, nw);
}
static inline void ex_hooks_group_end(ex_ctx *cx) {
  if (ex_hooks_on(cx, EX_HK_EV_GROUP_END)) ex_hk_fanout_group_end(cx);
}
static inline void ex_hooks_warp_start(ex_ctx *cx, ex_warp *w) {
  if (ex_hooks_on(cx, EX_HK_EV_WARP_START)) ex_hk_fanout_warp_start(cx, w);
}
static inline void ex_hooks_warp_stop(ex_ctx *cx, ex_warp *w) {
  if (ex_hooks_on(cx, EX_HK_EV_WARP_STOP)) ex_hk_fanout_warp_stop(cx, w);
}
/* The executor's hook before instruction ip of top frame f of warp w (the label tables send the
 * instructions the clients asked for here): `before` of the clients, then the instruction's
 * decoded events. true: pause the warp there (see ex_hooks.before). */
bool ex_hooks_step(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip, const uint16_t *lanes, unsigned nl);
/* The compare-exchange ip of top frame f of warp w ran for `lanes` (ex_exec.c, EX_ATOMIC). */
void ex_hk_fanout_cmpxchg(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip, const uint16_t *lanes,
                          unsigned nl);
static inline void ex_hooks_cmpxchg(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip, const uint16_t *lanes,
                                    unsigned nl) {
  if (ex_hooks_on(cx, EX_HK_EV_CMPXCHG)) ex_hk_fanout_cmpxchg(cx, w, f, ip, lanes, nl);
}
/* A memory access found outside the executor's hook (images, async copies, builtins). */
void ex_hooks_access(ex_ctx *cx, const ex_hk_access *a);
/* Every warp of the group waits at barrier (or collective) `at` of function fn, about to be
 * released: a work-group barrier event for EX_BARRIER (collectives are no memory fences). */
static inline void ex_hooks_group_barrier(ex_ctx *cx, const ex_func *fn, const ex_insn *at) {
  if (at->op == EX_BARRIER && ex_hooks_on(cx, EX_HK_EV_BARRIER)) ex_hk_fanout_group_barrier(cx, fn, at);
}
/* A phase of named barrier h (index + 1) completed: the warps (one per sub-group) waiting at it
 * are about to be released. */
void ex_hooks_named_barrier(ex_ctx *cx, ex_warp *warps, unsigned nw, uint32_t h);
void ex_hooks_copy_event(ex_ctx *cx, uint64_t ev);
void ex_hooks_wait_events(ex_ctx *cx, const void *events, uint64_t num, uint64_t evb);
/* DIV_CHECK found a bad divisor (cold). */
void ex_hooks_div(ex_ctx *cx, const ex_hk_arith *e) __attribute__((cold));

/* The access of one lane (*lane) of w: n bytes at *ptr, no address register (the fields of its
 * kind are the caller's to set). */
static inline ex_hk_access ex_hk_access_one(unsigned kind, ex_warp *w, const ex_func *fn, const ex_insn *ip,
                                            const uint16_t *lane, const uint64_t *ptr, uint64_t n, bool write) {
  const ex_hk_access a = {.kind = (uint8_t)kind,
                          .write = write,
                          .w = w,
                          .fn = fn,
                          .ip = ip,
                          .lanes = lane,
                          .nl = 1,
                          .ptr = ptr,
                          .size = n,
                          .addr_reg = LD_NONE};
  return a;
}

/* ---- for the clients ------------------------------------------------------------------------ */
/* Set or clear bit `watch` of w's watch set (EX_HK_FLAGGED: `before` reaches the client for every
 * instruction of w while its bit is set). */
static inline void ex_hk_watch(ex_warp *w, uint32_t watch, bool on) {
  w->hk_watch = on ? w->hk_watch | watch : w->hk_watch & ~watch;
}

/* The site of instruction ip of fn (0 when either is NULL). */
static inline uint32_t ex_hk_site(const ex_ctx *cx, const ex_func *fn, const ex_insn *ip) {
  if (!fn || !ip || !cx->hkl->fbase) return 0;
  return cx->hkl->fbase[fn->index] + (uint32_t)(ip - fn->code);
}
/* The function and instruction of a site (NULL, NULL for 0); cold paths (reports) only. */
static inline void ex_hk_site_decode(const ex_ctx *cx, uint32_t site, const ex_func **fn, const ex_insn **ip) {
  const ex_hk_launch *L = cx->hkl;
  *fn = NULL;
  *ip = NULL;
  if (!site || !L->fbase || site >= L->nsites) return;
  uint32_t lo = 0, hi = L->nfuncs; /* the last function whose base is <= site */
  while (hi - lo > 1) {
    const uint32_t mid = (lo + hi) / 2;
    if (L->fbase[mid] <= site) lo = mid;
    else hi = mid;
  }
  *fn = &cx->prog->funcs[lo];
  *ip = (*fn)->code + (site - L->fbase[lo]);
}

/* A memory access resolved without faulting: its allocation and offset, or false when the access
 * is invalid (the instruction itself then faults). */
static inline bool ex_hk_resolve(const ex_ctx *cx, uint64_t p, uint64_t n, uint32_t *id, uint64_t *off) {
  const uint64_t a = (p & cx->ptr_mask) >> cx->shift;
  if (a == 0 || a >= cx->nallocs) return false;
  const int64_t o = (int64_t)((p & cx->off_mask) - cx->bias);
  if (o < 0 || (uint64_t)o > cx->allocs[a].size || n > cx->allocs[a].size - (uint64_t)o) return false;
  *id = (uint32_t)a;
  *off = (uint64_t)o;
  return true;
}

#endif
