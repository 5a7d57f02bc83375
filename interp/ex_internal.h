/*
 * ex_internal.h — executor internals shared by ex_prepare.c, ex_exec.c and ex_sched.c: run-time
 * state of a launch (ex_ctx), warps and call frames, instruction encodings' constants, and the
 * bounds-checked memory translation every access goes through.
 */
#ifndef EX_INTERNAL_H
#define EX_INTERNAL_H

#include <string.h>

#include "ex.h"
#include "ex_check.h"
#include "ex_fault.h"

/* EX_CONVERT: operand kinds in the b (source) and c (destination) fields: (kind << 8) | bits. */
enum { EX_CK_UINT = 0, EX_CK_SINT = 1, EX_CK_FLOAT = 2 };
/* EX_CONVERT flags: saturate; bits 1..3 hold FPRoundingMode + 1 (0 = the default for the kind). */
#define EX_CF_SAT 1u
#define EX_CF_MODE_SHIFT_VAL(v) ((unsigned)(v) << 1)
#define EX_CF_MODE(flags) (((flags) >> 1) & 7u)

/* Largest register of a builtin operand: a 16-component double vector. */
#define EX_FTZ_OPERAND_BYTES 128u
/* --keep-going skips a faulting access of at most this many bytes (ex_fault_access); a larger one
 * ends the run as a fault does without --keep-going. */
#define EX_KG_MAX_ACCESS ((size_t)16 << 20)
/* Steps (SPIR-V instructions, per warp) a warp runs before it lets the other warps of its group run:
 * sub-group forward progress (ex_sched.c start_group). */
#define EX_YIELD_SLICE 4096u

/* EX_ATOMIC kinds (ex_insn.flags). */
enum {
  EX_AT_LOAD,
  EX_AT_STORE,
  EX_AT_XCHG,
  EX_AT_CMPXCHG,
  EX_AT_INC,
  EX_AT_DEC,
  EX_AT_ADD,
  EX_AT_SUB,
  EX_AT_SMIN,
  EX_AT_UMIN,
  EX_AT_SMAX,
  EX_AT_UMAX,
  EX_AT_AND,
  EX_AT_OR,
  EX_AT_XOR,
  EX_AT_FLAG_SET,
  EX_AT_FLAG_CLEAR,
  EX_AT_FADD,
  EX_AT_FMIN,
  EX_AT_FMAX
};

/* EX_GROUP (work-group collectives): ex_insn.flags is the operation, ex_insn.n the group operation
 * (0 reduce, 1 inclusive scan, 2 exclusive scan), c = element kind << 8 | element bytes. */
enum {
  EX_GR_ALL,
  EX_GR_ANY,
  EX_GR_BROADCAST,
  EX_GR_IADD,
  EX_GR_FADD,
  EX_GR_SMIN,
  EX_GR_UMIN,
  EX_GR_FMIN,
  EX_GR_SMAX,
  EX_GR_UMAX,
  EX_GR_FMAX,
  /* only in sub-group (non-uniform) arithmetic */
  EX_GR_IMUL,
  EX_GR_FMUL,
  EX_GR_AND,
  EX_GR_OR,
  EX_GR_XOR,
  EX_GR_LAND,
  EX_GR_LOR,
  EX_GR_LXOR
};
enum { EX_GK_INT = 0, EX_GK_FLOAT = 1, EX_GK_BOOL = 2 };
/* The identity of a group operation for values of `bytes` bytes, and one combining step `a op b`
 * (ex_collective.c): the arithmetic shared by work-group and sub-group collectives. */
/* A float of 2, 4 or 8 bytes (a register value read with ex_rd_bytes) as a double. */
double ex_gr_float(uint64_t v, unsigned bytes);
uint64_t ex_gr_identity(unsigned op, unsigned kind, unsigned bytes);
uint64_t ex_gr_combine(unsigned op, unsigned bytes, uint64_t a, uint64_t b);

/* EX_SUBGROUP (sub-group operations, ex_subgroup.c): ex_insn.flags is the EX_SG_* kind; ex_insn.n
 * holds the group operation (bits 0..1: 0 reduce, 1 inclusive scan, 2 exclusive scan, 3 clustered
 * reduce), EX_SG_UNIFORM (every work-item of the sub-group must be there) and, in bits 3..7, the
 * EX_GR_* arithmetic; d the result, a the value operand; b indexes ex_func.aux: [second operand
 * register, third operand register or cluster size, second operand bytes];
 * c = value register bytes << 16 | element kind << 8 | element bytes. */
enum {
  EX_SG_BARRIER,
  EX_SG_ARITH,
  EX_SG_ALL,
  EX_SG_ANY,
  EX_SG_ALL_EQUAL,
  EX_SG_ELECT,
  EX_SG_BROADCAST,
  EX_SG_BROADCAST_FIRST,
  EX_SG_BALLOT,
  EX_SG_INVERSE_BALLOT,
  EX_SG_BIT_EXTRACT,
  EX_SG_BIT_COUNT,
  EX_SG_FIND_LSB,
  EX_SG_FIND_MSB,
  EX_SG_SHUFFLE,
  EX_SG_SHUFFLE_XOR,
  EX_SG_SHUFFLE_UP,
  EX_SG_SHUFFLE_DOWN,
  EX_SG_INTEL_DOWN,
  EX_SG_INTEL_UP
};
#define EX_SG_UNIFORM 4u
#define EX_SG_GOP(n) ((n)&3u)
#define EX_SG_ARITH_OP(n) ((unsigned)(n) >> 3)

/* A work-group's named barriers (cl_khr_subgroup_named_barrier), one per OpNamedBarrierInitialize
 * of the program: the sub-group count it was initialised with (0: not yet) and how many sub-groups
 * wait at it in the current phase. */
typedef struct ex_named_barrier {
  uint32_t count, waiting;
} ex_named_barrier;

/* EX_ASYNC_COPY: d = the event result, a = Destination, b = aux index of (Source, Num Elements,
 * Stride, Event, num bytes | stride bytes << 8, data bytes of an element), c = element bytes; flags: EX_ASYNC_STRIDE_DST when
 * the stride applies to the destination (a local-to-global copy). EX_WAIT_EVENTS: a = Num Events,
 * n = its bytes, b = Events List, c = bytes of one event in memory. */
#define EX_ASYNC_STRIDE_DST 1u

/* Instructions every work-item of a work-group must reach together; the warps wait there like at a
 * barrier and ex_sched releases them once the whole group is there. */
static inline bool ex_is_collective(unsigned op) {
  return op == EX_GROUP || op == EX_ASYNC_COPY || op == EX_WAIT_EVENTS;
}
/* What a work-item waits at, for messages: "barrier", "work-group collective", ... */
static inline const char *ex_sync_name(unsigned op) {
  return op == EX_GROUP         ? "work-group collective"
         : op == EX_ASYNC_COPY  ? "async work-group copy"
         : op == EX_WAIT_EVENTS ? "wait_group_events"
                                : "barrier";
}
/* EX_IMAGE (ex_image.c): ex_insn.flags is the operation; d the result, a the image (or sampled
 * image) register, b the coordinate register, c an aux index (see ex_image.c). */
enum { EX_IMG_READ, EX_IMG_SAMPLE, EX_IMG_WRITE, EX_IMG_QUERY };
enum { EX_IQ_FORMAT, EX_IQ_ORDER, EX_IQ_SIZE, EX_IQ_LEVELS };

/* Lanes of a frame waiting to run a block; rpo is the block's reverse post-order index. */
typedef struct ex_pending {
  uint32_t rpo;
  int32_t block;
  uint64_t lanes;
} ex_pending;

/* One activation of a function in a warp (static registers: the frame holds only control state). */
typedef struct ex_frame {
  const ex_func *fn;
  uint64_t live; /* lanes in this activation that have not returned */
  /* The blocks the live lanes not running `cur` wait at, each once with its lanes, sorted by
   * decreasing rpo: the next block to run (the first in RPO) is the last entry. The lane sets are
   * disjoint, so there are at most EX_MAX_WARP entries. */
  ex_pending pend[EX_MAX_WARP];
  uint32_t npend;
  uint32_t wait_cost; /* lane recycling: cost of the lanes kept waiting behind a loop
                                    since they last went ahead (ex_exec.c, thin_loop) */
  bool go_behind;     /* lane recycling: runs_next decided that they go ahead now */
  int32_t cur;        /* block being run, -1 when the next one must be picked */
  uint32_t ip;        /* where to resume in fn->code (after a call or a barrier) */
  uint64_t active;    /* lanes running `cur` */
  uint32_t ret_dst;   /* caller's register for the return value, LD_NONE if void */
} ex_frame;

/* EX_W_PAUSED: stopped by a hook client (the debugger's, ex_pause.c) before the instruction at the
 * top frame's ip; ex_exec_warp resumes there. */
enum { EX_W_RUN, EX_W_BARRIER, EX_W_DONE, EX_W_PAUSED };

typedef struct ex_warp {
  unsigned nlanes;       /* work-items in this warp (the last warp of a group may be partial) */
  uint64_t all;          /* mask of those lanes */
  uint32_t first_linear; /* local linear id of lane 0 (lane l runs first_linear + l) */
  bool recycled;         /* lane recycling replaced a lane's work-item: item[] holds each
                                    lane's local linear id instead */
  uint32_t item[EX_MAX_WARP];
  uint32_t pack_n;                  /* packed work-groups (ex_sched.c): the work-items of one group; the
                                    lane's queue index q (first_linear + lane, or item[]) is then
                                    local linear id q % pack_n of group pack_g0 + q / pack_n; 0
                                    when the warp runs one work-group */
  uint64_t pack_g0;                 /* packed: linear id of the first group */
  uint64_t step_limit;              /* steps beyond which the step limit is exceeded */
  uint64_t yield_at;                /* steps beyond which the warp yields to the group's others
                                    (sub-group forward progress, ex_sched.c); UINT64_MAX: never */
  uint64_t check_at;                /* min(step_limit, yield_at): what block entry compares */
  uint64_t lane_start[EX_MAX_WARP]; /* recycled warps: `steps` when each lane's work-item started */
  uint8_t *regs;                    /* W * reg_bytes */
  uint8_t *priv;                    /* W * private_size */
  ex_frame *stack;
  unsigned depth;
  int state;
  const ex_insn *barrier_at; /* the barrier it waits at */
  uint32_t nbar;             /* at an EX_NBAR_WAIT: the named barrier (index + 1) */
  uint64_t steps;            /* SPIR-V instructions of the blocks this warp ran (each block once,
                                    whatever its active lanes): bounds each lane's own count, so
                                    the step limit compares it (exact at warp width 1) */
  uint32_t hk_watch;         /* hook clients (their bits, ex_hooks.h EX_HK_FLAGGED) that see
                                    every instruction of this warp while their bit is set */
} ex_warp;

typedef struct ex_ctx {
  const ex_program *prog;
  const ex_launch *l;
  unsigned W;
  ex_alloc *allocs;
  uint32_t nallocs; /* indexed by allocation id; [0] is the null pointer */
  unsigned shift;   /* pointer = (id << shift) | (offset + bias) */
  uint64_t off_mask, bias, ptr_mask;
  uint8_t *local; /* the current group's local arena */
  uint64_t group[3], group_size[3];
  uint64_t ngroups[3]; /* work-groups per dimension of the launch */
  /* the fault, when one happened */
  bool faulted;
  spvi_fault_kind fkind;
  const ex_warp *fwarp;
  unsigned flane;
  const ex_func *ffn;
  const ex_insn *finsn;
  uint32_t falloc;
  int64_t foff;
  uint64_t fsize;
  char fdetail[256];
  uint64_t fsvm_base, fsvm_size; /* a fault in SVM memory: the allocation (falloc is 0 then) */
  const struct ex_svm_snap *svm; /* the SVM allocations live when the run started (ex_svm.h), NULL
                                    when none (or a Physical32 module, which cannot address them) */
  /* builtins' view of memory and printf sink */
  bi_mem bimem;
  bi_out biout;
  struct ex_text {
    char *text;
    size_t len, cap;
  } * printf_buf; /* per local linear id */
  uint64_t printf_items;
  ex_warp *cur_warp;
  const ex_func *cur_fn;
  const ex_insn *cur_ip;
  uint64_t instructions; /* executed instructions (per warp, not per lane) */
  bool ftz;              /* flush float denormals (inputs and results of float operations) */
  uint8_t **written;     /* per allocation id: a byte mask of what the launch wrote, or NULL
                                    (only buffer arguments, only when a group range runs) */
  uint8_t *ftz_scratch;  /* flushed copies of builtin operands: 6 x W x EX_FTZ_OPERAND_BYTES */
  /* async copies of the current work-group (ex_async.c): event handles are 1, 2, ... in the order
   * the group's copies created them; `open` lists those not yet waited for, with the copy that
   * created each (for the report when the group ends without waiting) */
  struct ex_async {
    uint64_t next; /* the next event handle */
    struct ex_event {
      uint64_t handle;
      const ex_insn *at;
      const ex_func *fn;
    } * open;
    uint32_t nopen, cap;
  } async;
  unsigned sg_size;           /* sub-group size S (warps hold whole sub-groups when the program
                                    uses sub-group operations: W is then a multiple of S) */
  unsigned sg_max;            /* SubgroupMaxSize: min(S, enqueued work-group size) */
  ex_named_barrier *nbar;     /* the current work-group's named barriers (prog->nnamed_barriers) */
  struct ex_reports *reports; /* the launch's non-fatal reports (ex_check.h); NULL: not kept */
  struct ex_hk_worker *hk;    /* this worker's hook clients (ex_hooks.h), NULL before its init */
  struct ex_hk_launch *hkl;   /* the run's clients and their launch-wide state (shared) */
  unsigned checks;            /* SPVI_CHECK_* flags of the run */
  uint64_t max_steps;         /* instructions one work-item may execute (SPVI_FAULT_STEP_LIMIT) */
  bool keep_going;            /* access faults are reports, the access skipped (ex_check.c) */
  uint8_t *kg_scratch;        /* keep_going: what skipped accesses use, 2 x kg_cap bytes (kg_cap <= EX_KG_MAX_ACCESS) */
  size_t kg_cap;              /* (grown on demand) */
  unsigned threads;           /* worker threads of the launch */
  bool locked_atomics;        /* some memory the run reaches needs locked atomics (ex_sched.c,
                                    set_locked_atomics): SVM memory, or an allocation's flag */
  /* Lane recycling (ex_exec.c, "Lane recycling"): a lane whose work-item returned takes the
   * group's next one, local linear ids [queue_next, queue_end) not started yet. */
  bool recycle;
  bool recycle_lanes;     /* lane by lane; false (checks): a warp whose lanes all finished
                                    takes the next work-items in a row, as a new warp would */
  unsigned recycle_depth; /* the kernel's own frame: 1, or 2 under an entry wrapper */
  uint32_t queue_next, queue_end;
  /* Independent forward progress of sub-groups (OpenCL 3.0 API 4.2 CL_DEVICE_SUB_GROUP_INDEPENDENT_
   * FORWARD_PROGRESS, required by cl_khr_subgroups): a warp that ran this many steps since it last
   * did lets the group's other warps run (0: the group has no other, ex_sched.c start_group). */
  uint64_t yield_slice;
  bool lane_init; /* a started lane has bytes to write: built-ins in memory, by-value
                                    copies (ex_lanes.c) */
} ex_ctx;

/* The index of the work-item lane `lane` of warp w runs in the warp's queue of work-items: its
 * local linear id, or under packing (ex_warp.pack_n) the group's place too. */
static inline uint32_t ex_lane_queue(const ex_warp *w, unsigned lane) {
  return w->recycled ? w->item[lane] : w->first_linear + lane;
}
/* The local linear id of the work-item lane `lane` of warp w runs. */
static inline uint32_t ex_lane_item(const ex_warp *w, unsigned lane) {
  const uint32_t q = ex_lane_queue(w, lane);
  return w->pack_n ? q % w->pack_n : q;
}
/* The lane whose work-item started first (lane_start; a finished lane's is UINT64_MAX). */
static inline unsigned ex_oldest_lane(const ex_warp *w) {
  unsigned oldest = 0;
  for (unsigned l = 1; l < w->nlanes; l++)
    if (w->lane_start[l] < w->lane_start[oldest]) oldest = l;
  return oldest;
}
/* What block entry compares the warp's steps with: the nearer of its step limit and its next yield. */
static inline uint64_t ex_step_check_at(const ex_warp *w) {
  return w->step_limit < w->yield_at ? w->step_limit : w->yield_at;
}
/* Start warp w on local linear ids first .. first + nlanes - 1 of the current group, at the
 * kernel's entry (ex_lanes.c). */
void ex_start_warp(ex_ctx *cx, ex_warp *w, uint32_t first, unsigned nlanes);
/* Start the group's next work-items on the lanes of `lanes` whose work-items returned (as many as
 * are left); returns the lanes started (ex_lanes.c). */
uint64_t ex_recycle_lanes(ex_ctx *cx, ex_warp *w, uint64_t lanes);
/* Every lane of w finished: start the group's next work-items in a row on its lanes (as many as
 * are left); returns the lanes started (ex_lanes.c). */
uint64_t ex_restart_warp(ex_ctx *cx, ex_warp *w);


/* Pointers that are no (id, offset) of the launch (ex_svm.c): an SVM address is translated to
 * itself when the access lies in a live SVM allocation; anything else records the fault (null,
 * invalid, or out of bounds of the SVM allocation it is next to) and returns NULL. */
uint8_t *ex_mem_far(ex_ctx *cx, ex_warp *w, unsigned lane, uint64_t p, uint64_t n, bool write)
  __attribute__((noinline));
/* Record fault k of an access of n bytes through pointer p (which ex_mem accepted, e.g. a
 * misaligned one): against the allocation or SVM allocation p points into. Returns NULL. */
void *ex_fault_ptr(ex_ctx *cx, spvi_fault_kind k, ex_warp *w, unsigned lane, uint64_t p, uint64_t n,
                   const char *detail);
/* Whether p points into a live SVM allocation of the run (SVM memory is global memory). */
bool ex_svm_in_global(const ex_ctx *cx, uint64_t p);

/* Record access fault k (out of bounds, null or invalid pointer) of n bytes at offset off of
 * allocation alloc (0: none; off is then the pointer): a fault that stops the run (NULL), or under
 * keep_going a report, and the memory the skipped access uses instead (zeros to read; what is
 * written there is dropped); NULL when even that failed (ex_check.c). */
void *ex_fault_access(ex_ctx *cx, spvi_fault_kind k, ex_warp *w, unsigned lane, uint32_t alloc, int64_t off, uint64_t n,
                      bool write) __attribute__((noinline));
/* Under keep_going: record fault k as a report (note: its own line, e.g. the index) and return true;
 * false when the run must stop instead (the caller records the fault). */
bool ex_fault_kept(ex_ctx *cx, spvi_fault_kind k, ex_warp *w, unsigned lane, uint32_t alloc, int64_t off, uint64_t n,
                   bool write, const char *note);

/* The pointer of `pb` bytes (the module's pointer size: 4 or 8) stored at p. */
static inline uint64_t ex_rd_ptr(const uint8_t *p, unsigned pb) {
  if (pb == 8) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
  }
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

/* The unsigned integer of `bytes` (1 to 8) bytes stored at p: a register value of any width. */
static inline uint64_t ex_rd_bytes(const uint8_t *p, unsigned bytes) {
  uint64_t v = 0;
  memcpy(&v, p, bytes); /* little-endian host: the low bytes */
  return v;
}

static inline uint64_t ex_ptr_of(const ex_ctx *cx, uint32_t alloc) { return ((uint64_t)alloc << cx->shift) | cx->bias; }

/* The integer value of a pointer (OpConvertPtrToU, OpPtrDiff) and back (OpConvertUToPtr), see ex.h
 * "Pointers": in a 64-bit module each allocation's offsets are moved by a distinct multiple of
 * 4 KiB within the offset field, so that distinct allocations differ in the low 32 bits too. The
 * id field is kept; null, SVM and other pointers outside the allocations are their own value. */
enum { EX_PTR_SPREAD_SHIFT = 12, EX_PTR_SPREAD_IDS = 0xFFFFF };
static inline uint64_t ex_ptr_spread(const ex_ctx *cx, uint64_t p) {
  const uint64_t id = (p & cx->ptr_mask) >> cx->shift;
  if (cx->ptr_mask != ~(uint64_t)0 || id == 0 || id >= cx->nallocs) return 0; /* Physical32: ids are low bits */
  return (id & EX_PTR_SPREAD_IDS) << EX_PTR_SPREAD_SHIFT;
}
static inline uint64_t ex_ptr_to_int(const ex_ctx *cx, uint64_t p) {
  return (p & ~cx->off_mask) | ((p + ex_ptr_spread(cx, p)) & cx->off_mask);
}
static inline uint64_t ex_int_to_ptr(const ex_ctx *cx, uint64_t v) {
  return (v & ~cx->off_mask) | ((v - ex_ptr_spread(cx, v)) & cx->off_mask);
}

/* Host address of `n` bytes at kernel pointer p as seen by `lane` of warp w, or NULL after recording
 * the fault (null pointer, pointer into no allocation, out of bounds, write to constant memory). */
/* always_inline: it is the body of every load and store handler; the fault paths are out of line. */
static inline __attribute__((always_inline)) uint8_t *ex_mem(ex_ctx *cx, ex_warp *w, unsigned lane, uint64_t p,
                                                             uint64_t n, bool write) {
  uint64_t id = (p & cx->ptr_mask) >> cx->shift;
  if (id == 0 || id >= cx->nallocs) return ex_mem_far(cx, w, lane, p, n, write);
  const ex_alloc *a = &cx->allocs[id];
  int64_t off = (int64_t)((p & cx->off_mask) - cx->bias);
  if (off < 0 || (uint64_t)off > a->size || n > a->size - (uint64_t)off)
    return ex_fault_access(cx, SPVI_FAULT_OUT_OF_BOUNDS, w, lane, (uint32_t)id, off, n, write);
  if (write && a->read_only) return ex_fault(cx, SPVI_FAULT_READ_ONLY, w, lane, (uint32_t)id, off, n, "write");
  if (write && cx->written && cx->written[id]) memset(cx->written[id] + off, 1, n);
  switch (a->space) {
  case EX_AS_PRIVATE: return w->priv + (size_t)lane * cx->prog->private_size + a->offset + (uint64_t)off;
  case EX_AS_LOCAL: return cx->local + a->offset + (uint64_t)off;
  default: return a->base + off;
  }
}

/* bi_mem.access for builtins: ex_mem for the warp being run. */
void *ex_bi_access(void *ctx, unsigned lane, uint64_t ptr, uint64_t bytes, bool write);

/* The global id of lane `lane` of warp w. */
void ex_lane_global_id(const ex_ctx *cx, const ex_warp *w, unsigned lane, uint64_t gid[3]);

/* Run sub-group operation ip (EX_SUBGROUP) for the active lanes of top frame f of warp w
 * (ex_subgroup.c). False after recording a fault. */
bool ex_subgroup_exec(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip);
/* OpNamedBarrierInitialize (EX_NBAR_INIT) for the active lanes of f. False after a fault. */
bool ex_named_barrier_init(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip);

/* Compute a work-group collective once every warp of the group waits at it (ex_collective.c). */
void ex_group_collective(ex_ctx *cx, ex_warp *warps, unsigned nw, const ex_insn *ip);

/* Perform the async copy or event wait ip that every warp of the group waits at (ex_async.c);
 * false after recording a fault (divergent arguments, out-of-bounds, a bad event). */
bool ex_async_collective(ex_ctx *cx, ex_warp *warps, unsigned nw, const ex_insn *ip);
/* The group finished: forget its events (false after recording a fault when a copy's event was
 * never waited for). ex_async_reset before the next group. */
bool ex_async_group_end(ex_ctx *cx, ex_warp *warps);
void ex_async_reset(ex_ctx *cx);
void ex_async_free(ex_ctx *cx);

/* Run warp w until it finishes, waits at a barrier, faults (cx->faulted) or, under the debugger,
 * pauses (EX_W_PAUSED). */
void ex_exec_warp(ex_ctx *cx, ex_warp *w);

/* ---- a launch driven one step at a time (ex_sched.c; the debugger's scheduler) ---------------
 * One worker, the whole NDRange's allocations, warps for the largest work-group. The caller starts
 * work-groups in order, runs their warps with ex_runner_run and, once none can run, lets
 * ex_runner_sync release a barrier or a collective. */
typedef struct ex_runner ex_runner;
enum { EX_SYNC_RELEASED, EX_SYNC_DONE, EX_SYNC_FAULT };
ex_runner *ex_runner_new(ex_launch *l, unsigned warp_width, spvi_status *st, char *err, size_t errlen);
void ex_runner_free(ex_runner *r);
ex_ctx *ex_runner_ctx(ex_runner *r);
ex_warp *ex_runner_warps(ex_runner *r);
/* Start work-group `linear` (x fastest): zeroes its local memory, starts its warps; returns their number. */
unsigned ex_runner_start_group(ex_runner *r, uint64_t linear);
/* Run warp w (one of ex_runner_warps) until it finishes, waits, faults or pauses, as the run loop
 * does (ex_exec_warp, then the hooks' warp_stop). */
void ex_runner_run(ex_runner *r, ex_warp *w);
/* Every warp of the group is finished or waiting: release the barrier/collective they all wait at
 * (EX_SYNC_RELEASED, warps set running), report that the group is finished (EX_SYNC_DONE), or record
 * barrier divergence (EX_SYNC_FAULT). */
int ex_runner_sync(ex_runner *r, unsigned nwarps);
/* The group is finished: hand its printf output over. */
void ex_runner_end_group(ex_runner *r);
/* The fault report of the fault recorded in the runner's context. */
void ex_runner_report(const ex_runner *r, spvi_fault *f);


/* Run an EX_IMAGE instruction for the given lanes of warp w (ex_image.c); false after a fault. */
bool ex_image_exec(ex_ctx *cx, ex_warp *w, const ex_func *fn, const ex_insn *ip, const uint16_t *lanes, unsigned nl);
/* The value of built-in variable `builtin` (SpvBuiltIn) for lane `lane` of warp w, as up to three
 * 64-bit components (ex_workitem.c). */
void ex_builtin_value(const ex_ctx *cx, const ex_warp *w, unsigned lane, uint32_t builtin, uint64_t v[3]);

/* Global ids, local ids or group ids (builtin) of the lanes 0 .. nlanes - 1 of a packed warp
 * (ex_warp.pack_n) that was not recycled lane by lane: lane l runs queue index first_linear + l,
 * so the ids follow lane 0's by counting, without a division per lane (ex_workitem.c). */
void ex_packed_ids(const ex_ctx *cx, const ex_warp *w, uint32_t builtin, uint64_t (*v)[3]);

/* The builtins' type description of an IR type (false when it has none). */
bool ex_bi_type(const ld_module *m, uint32_t type_id, bi_type *out);
/* Whether the scheduler provides built-in variable `builtin` (SpvBuiltIn). */
bool ex_builtin_supported(uint32_t builtin);

#endif
