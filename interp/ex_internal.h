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

/* EX_CONVERT: operand kinds in the b (source) and c (destination) fields: (kind << 8) | bits. */
enum { EX_CK_UINT = 0, EX_CK_SINT = 1, EX_CK_FLOAT = 2 };
/* EX_CONVERT flags: saturate; bits 1..3 hold FPRoundingMode + 1 (0 = the default for the kind). */
#define EX_CF_SAT 1u
#define EX_CF_MODE_SHIFT_VAL(v) ((unsigned)(v) << 1)
#define EX_CF_MODE(flags) (((flags) >> 1) & 7u)

/* Largest register of a builtin operand: a 16-component double vector. */
#define EX_FTZ_OPERAND_BYTES 128u

/* EX_ATOMIC kinds (ex_insn.flags). */
enum {
  EX_AT_LOAD, EX_AT_STORE, EX_AT_XCHG, EX_AT_CMPXCHG, EX_AT_INC, EX_AT_DEC, EX_AT_ADD, EX_AT_SUB,
  EX_AT_SMIN, EX_AT_UMIN, EX_AT_SMAX, EX_AT_UMAX, EX_AT_AND, EX_AT_OR, EX_AT_XOR, EX_AT_FLAG_SET,
  EX_AT_FLAG_CLEAR, EX_AT_FADD, EX_AT_FMIN, EX_AT_FMAX
};

/* EX_GROUP (work-group collectives): ex_insn.flags is the operation, ex_insn.n the group operation
 * (0 reduce, 1 inclusive scan, 2 exclusive scan), c = element kind << 8 | element bytes. */
enum {
  EX_GR_ALL, EX_GR_ANY, EX_GR_BROADCAST, EX_GR_IADD, EX_GR_FADD, EX_GR_SMIN, EX_GR_UMIN, EX_GR_FMIN,
  EX_GR_SMAX, EX_GR_UMAX, EX_GR_FMAX
};
enum { EX_GK_INT = 0, EX_GK_FLOAT = 1, EX_GK_BOOL = 2 };

/* One activation of a function in a warp (static registers: the frame holds only control state). */
typedef struct ex_frame {
  const ex_func *fn;
  uint64_t live;                 /* lanes in this activation that have not returned */
  int32_t next[EX_MAX_WARP];     /* per lane: next block to run, -1 once returned */
  int32_t cur;                   /* block being run, -1 when the next one must be picked */
  uint32_t ip;                   /* where to resume in fn->code (after a call or a barrier) */
  uint64_t active;               /* lanes running `cur` */
  uint32_t ret_dst;              /* caller's register for the return value, LD_NONE if void */
} ex_frame;

/* EX_W_PAUSED: stopped by the debugger before the instruction at the top frame's ip (debug runs
 * only); ex_exec_warp resumes there. */
enum { EX_W_RUN, EX_W_BARRIER, EX_W_DONE, EX_W_PAUSED };

typedef struct ex_warp {
  unsigned nlanes;               /* work-items in this warp (the last warp of a group may be partial) */
  uint64_t all;                  /* mask of those lanes */
  uint32_t first_linear;         /* local linear id of lane 0 */
  uint8_t *regs;                 /* W * reg_bytes */
  uint8_t *priv;                 /* W * private_size */
  ex_frame *stack;
  unsigned depth;
  int state;
  const ex_insn *barrier_at;     /* the barrier it waits at */
  uint64_t steps;                /* SPIR-V instructions of the blocks this warp ran (each block once,
                                    whatever its active lanes): bounds each lane's own count, so
                                    the step limit compares it (exact at warp width 1) */
  const ex_insn *trace_ip;       /* tracing: the instruction run last (reported at the next one) */
  const ex_func *trace_fn;
  uint8_t *ureg;                 /* --check uninit: per register byte, 1 = computed from memory
                                    never written (same layout as regs), or NULL */
  uint8_t *upriv;                /* --check uninit: per private byte, 1 = never written, or NULL */
  uint8_t *uflag;                /* --check uninit: per 8 bytes of a lane's registers, 0 when those
                                    bytes' shadow is 0 in every lane (so most instructions skip it) */
  uint32_t uflags_set;           /* --check uninit: how many uflag entries are 1 */
  bool dbg_resume;               /* debug runs: resuming at the instruction it paused before, which
                                    the debugger must not stop at again */
} ex_warp;

struct spvi_debug;

typedef struct ex_ctx {
  const ex_program *prog;
  const ex_launch *l;
  unsigned W;
  ex_alloc *allocs; uint32_t nallocs;  /* indexed by allocation id; [0] is the null pointer */
  unsigned shift;                /* pointer = (id << shift) | (offset + bias) */
  uint64_t off_mask, bias, ptr_mask;
  uint8_t *local;                /* the current group's local arena */
  uint64_t group[3], group_size[3];
  uint64_t ngroups[3];           /* work-groups per dimension of the launch */
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
  /* builtins' view of memory and printf sink */
  bi_mem bimem;
  bi_out biout;
  struct ex_text { char *text; size_t len, cap; } *printf_buf;  /* per local linear id */
  uint64_t printf_items;
  ex_warp *cur_warp;
  const ex_func *cur_fn;
  const ex_insn *cur_ip;
  uint64_t instructions;         /* executed instructions (per warp, not per lane) */
  bool ftz;                      /* flush float denormals (inputs and results of float operations) */
  uint8_t **written;             /* per allocation id: a byte mask of what the launch wrote, or NULL
                                    (only buffer arguments, only when a group range runs) */
  uint8_t *ftz_scratch;          /* flushed copies of builtin operands: 6 x W x EX_FTZ_OPERAND_BYTES */
  struct spvi_debug *dbg;        /* the debugger, NULL except under `spvi debug`: then every
                                    instruction is dispatched through ex_dbg_stop first */
  struct ex_reports *reports;    /* the launch's non-fatal reports (ex_check.h); NULL: not kept */
  struct ex_chk *chk;            /* shadow checks of this worker (ex_shadow.h), NULL when off: then
                                    no checked code path is ever taken */
  struct ex_chkl *chkl;          /* their launch-wide state (shared by the workers) */
  unsigned checks;               /* SPVI_CHECK_* flags of the run */
  uint64_t max_steps;            /* instructions one work-item may execute (SPVI_FAULT_STEP_LIMIT) */
} ex_ctx;

/* Record a fault at instruction ip of fn, lane `lane` of warp w. Returns NULL for convenience. */
void *ex_fault(ex_ctx *cx, spvi_fault_kind k, ex_warp *w, unsigned lane, uint32_t alloc, int64_t off,
               uint64_t size, const char *detail);

static inline uint64_t ex_ptr_of(const ex_ctx *cx, uint32_t alloc) {
  return ((uint64_t)alloc << cx->shift) | cx->bias;
}

/* Host address of `n` bytes at kernel pointer p as seen by `lane` of warp w, or NULL after recording
 * the fault (null pointer, pointer into no allocation, out of bounds, write to constant memory). */
/* always_inline: it is the body of every load and store handler; the fault paths are out of line. */
static inline __attribute__((always_inline)) uint8_t *ex_mem(ex_ctx *cx, ex_warp *w, unsigned lane, uint64_t p,
                                                            uint64_t n, bool write) {
  uint64_t id = (p & cx->ptr_mask) >> cx->shift;
  if (id == 0 || id >= cx->nallocs)
    return ex_fault(cx, p == 0 ? SPVI_FAULT_NULL_POINTER : SPVI_FAULT_BAD_POINTER, w, lane, 0, (int64_t)p, n,
                    write ? "write" : "read");
  const ex_alloc *a = &cx->allocs[id];
  int64_t off = (int64_t)((p & cx->off_mask) - cx->bias);
  if (off < 0 || (uint64_t)off > a->size || n > a->size - (uint64_t)off)
    return ex_fault(cx, SPVI_FAULT_OUT_OF_BOUNDS, w, lane, (uint32_t)id, off, n, write ? "write" : "read");
  if (write && a->read_only) return ex_fault(cx, SPVI_FAULT_READ_ONLY, w, lane, (uint32_t)id, off, n, "write");
  if (write && cx->written && cx->written[id]) memset(cx->written[id] + off, 1, n);
  switch (a->space) {
  case EX_AS_PRIVATE: return w->priv + (size_t)lane * cx->prog->private_size + a->offset + (uint64_t)off;
  case EX_AS_LOCAL: return cx->local + a->offset + (uint64_t)off;
  default: return a->base + off;
  }
}

/* "argument 2 `out` (global buffer of 64 bytes)", "private variable `tmp` (16 bytes)" ... */
void ex_describe_alloc(const ex_ctx *cx, uint32_t id, char *buf, size_t len);

/* bi_mem.access for builtins: ex_mem for the warp being run. */
void *ex_bi_access(void *ctx, unsigned lane, uint64_t ptr, uint64_t bytes, bool write);

/* Tracing (ex_trace.c): called before every instruction when cx->l->on_trace is set; reports the
 * instruction executed just before by this warp (with its result), then remembers ip. */
void ex_trace_step(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip);
/* Report the warp's last instruction (at a pause, barrier or the end of the warp's run). */
void ex_trace_flush(ex_ctx *cx, ex_warp *w);
/* The global id of lane `lane` of warp w. */
void ex_lane_global_id(const ex_ctx *cx, const ex_warp *w, unsigned lane, uint64_t gid[3]);

/* Compute a work-group collective once every warp of the group waits at it (ex_sched.c). */
void ex_group_collective(ex_ctx *cx, ex_warp *warps, unsigned nw, const ex_insn *ip);

/* Run warp w until it finishes, waits at a barrier, faults (cx->faulted) or, under the debugger,
 * pauses (EX_W_PAUSED). */
void ex_exec_warp(ex_ctx *cx, ex_warp *w);

/* The debugger's check before instruction ip of the top frame f of warp w (ex_debug.c): true when
 * the warp must pause there. Called only when cx->dbg is set. */
bool ex_dbg_stop(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip);

/* ---- a launch driven one step at a time (ex_sched.c; the debugger's scheduler) ---------------
 * One worker, the whole NDRange's allocations, warps for the largest work-group. The caller starts
 * work-groups in order, runs their warps with ex_exec_warp and, once none can run, lets
 * ex_runner_sync release a barrier or a collective. */
typedef struct ex_runner ex_runner;
enum { EX_SYNC_RELEASED, EX_SYNC_DONE, EX_SYNC_FAULT };
ex_runner *ex_runner_new(ex_launch *l, unsigned warp_width, spvi_status *st, char *err, size_t errlen);
void ex_runner_free(ex_runner *r);
ex_ctx *ex_runner_ctx(ex_runner *r);
ex_warp *ex_runner_warps(ex_runner *r);
/* Start work-group `linear` (x fastest): zeroes its local memory, starts its warps; returns their number. */
unsigned ex_runner_start_group(ex_runner *r, uint64_t linear);
/* Every warp of the group is finished or waiting: release the barrier/collective they all wait at
 * (EX_SYNC_RELEASED, warps set running), report that the group is finished (EX_SYNC_DONE), or record
 * barrier divergence (EX_SYNC_FAULT). */
int ex_runner_sync(ex_runner *r, unsigned nwarps);
/* The group is finished: hand its printf output over. */
void ex_runner_end_group(ex_runner *r);
/* The fault report of the fault recorded in the runner's context. */
void ex_runner_report(const ex_runner *r, spvi_fault *f);
/* Local id of lane `lane` of warp w in the current group. */
void ex_lane_ids(const ex_ctx *cx, const ex_warp *w, unsigned lane, uint64_t lid[3]);


/* The value of built-in variable `builtin` (SpvBuiltIn) for lane `lane` of warp w, as up to three
 * 64-bit components (ex_sched.c). */
void ex_builtin_value(const ex_ctx *cx, const ex_warp *w, unsigned lane, uint32_t builtin, uint64_t v[3]);

/* The builtins' type description of an IR type (false when it has none). */
bool ex_bi_type(const ld_module *m, uint32_t type_id, bi_type *out);
/* Whether the scheduler provides built-in variable `builtin` (SpvBuiltIn). */
bool ex_builtin_supported(uint32_t builtin);

#endif
