/*
 * ex_inspect.h — the executor as a debugger sees it (ex_inspect.c): a launch run one work-item at a
 * time, paused between instructions, and read without side effects. It is the only interp/ header
 * debug/ sees (its include path has interp/inspect/, not interp/); the rest of the executor stays
 * behind it.
 *
 * A launch under inspection runs at warp width 1 on the calling thread, one work-group at a time
 * in increasing linear order. An `item` is a work-item of the current work-group, numbered by its
 * local linear id. A code position is (fn, idx): fn indexes ld_module.funcs, idx the function's
 * prepared instructions, which ex_insp_code_src maps back to ld instructions (one ld instruction may
 * become several prepared ones, or none).
 */
#ifndef EX_INSPECT_H
#define EX_INSPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spvi.h"

struct ld_module;
typedef struct ex_insp ex_insp;

/* ---- the session's launch ------------------------------------------------------------------- */

/* Where a work-item is about to run an instruction: the pause hook's argument. */
typedef struct ex_insp_at {
  unsigned item;
  uint32_t fn, idx;
  unsigned depth; /* frames on its call stack (1: in the kernel's entry function) */
} ex_insp_at;

/* Called before every instruction a work-item runs in ex_insp_run; true pauses the work-item
 * there. It resumes at that instruction, which is not offered to the hook a second time. */
typedef bool (*ex_insp_pause_fn)(void *user, const ex_insp_at *at);

/* Inspect a run of launch l with options opts (spvi_run's checks; warp width and threads ignored):
 * allocations made, no work-group started. NULL with err filled (SPVI_E_USAGE for a module with
 * sub-group operations, which need a sub-group in lock-step). */
ex_insp *ex_insp_new(spvi_launch *l, const spvi_run_options *opts, ex_insp_pause_fn pause, void *user, spvi_error *err);
void ex_insp_free(ex_insp *x);
const struct ld_module *ex_insp_module(const ex_insp *x);
/* The loaded module behind m, for symbols read without a launch (spvi_param_struct). */
const struct ld_module *ex_module_ld(const spvi_module *m);

/* The launch's shape, fixed for its life. */
typedef struct ex_insp_range {
  uint32_t kernel;   /* index in ld_module.entries */
  uint32_t entry_fn; /* the entry point's function (index in ld_module.funcs) */
  unsigned dims;
  uint64_t global[3], local[3], offset[3];
  uint64_t ngroups[3];             /* work-groups per dimension */
  uint64_t group_first, group_end; /* the linear work-group ids that run: [first, end) */
} ex_insp_range;
const ex_insp_range *ex_insp_range_of(const ex_insp *x);
/* The size of work-group g (the last one of a dimension may be smaller than the local size). */
void ex_insp_group_size(const ex_insp *x, const uint64_t g[3], uint64_t size[3]);

/* ---- running ------------------------------------------------------------------------------- */

/* Start work-group `linear` (x fastest): its local memory zeroed, its work-items at the kernel's
 * entry, not started. Returns the number of its work-items. */
unsigned ex_insp_start_group(ex_insp *x, uint64_t linear);
/* Run work-item `item` until it finishes, waits at a barrier or collective, faults or pauses. */
void ex_insp_run(ex_insp *x, unsigned item);
enum { EX_INSP_RELEASED, EX_INSP_GROUP_DONE, EX_INSP_FAULT };
/* When no work-item of the group can run: release the barrier or collective they all wait at
 * (EX_INSP_RELEASED), say that the group finished (EX_INSP_GROUP_DONE) or record the fault of work-items
 * that wait at different places (EX_INSP_FAULT). */
int ex_insp_sync(ex_insp *x);
/* The group finished or faulted: its printf output goes to the launch's on_printf. */
void ex_insp_end_group(ex_insp *x);
/* Whether the launch faulted; then its report in *f and its work-item in *item (-1: none), either
 * pointer may be NULL. */
bool ex_insp_fault(const ex_insp *x, spvi_fault *f, int *item);
/* Reports (of opts->checks and the always-on ones): whether one was found that ex_insp_next_report
 * has not returned yet (cheap: asked before every instruction), and the next such one, in the
 * order found, into *r (its text shows the first occurrence so far; false: none). A report is
 * found when its first occurrence is: later occurrences at the same instruction(s) are counted
 * into it, not found again. When the session ends (ex_insp_free) the launch's reports are those of
 * spvi_run (spvi_report_count). */
bool ex_insp_report_pending(const ex_insp *x);
bool ex_insp_next_report(ex_insp *x, spvi_report *r);

/* ---- work-items ------------------------------------------------------------------------------ */

typedef enum ex_insp_state {
  EX_INSP_NOT_STARTED, /* at the kernel's entry, no instruction run */
  EX_INSP_READY,       /* can run */
  EX_INSP_PAUSED,      /* the pause hook stopped it */
  EX_INSP_WAITING,     /* at a barrier or work-group collective */
  EX_INSP_DONE         /* returned from the kernel */
} ex_insp_state;

typedef struct ex_insp_item {
  ex_insp_state state;
  unsigned depth;       /* frames on its call stack, 0 when done */
  const char *waits_at; /* WAITING: "barrier", "work-group collective", ... */
  bool collective;      /* WAITING at a collective (not a barrier) */
} ex_insp_item;
void ex_insp_item_get(const ex_insp *x, unsigned item, ex_insp_item *out);
/* Global and local id of work-item `item`; the current work-group's id and size. */
void ex_insp_item_ids(const ex_insp *x, unsigned item, uint64_t gid[3], uint64_t lid[3]);
void ex_insp_group(const ex_insp *x, uint64_t id[3], uint64_t size[3]);
/* Frame k (0: innermost) of work-item `item`: its function and position — for the innermost frame
 * the instruction it runs next (or faulted at, or waits at), for a caller its call. False when there
 * is no such frame. */
bool ex_insp_frame(const ex_insp *x, unsigned item, unsigned k, uint32_t *fn, uint32_t *idx);
/* The bytes of SPIR-V id `id`'s register in work-item `item` (a value, parameter, module variable's
 * address or constant, in register layout), NULL when the id has no register. */
const uint8_t *ex_insp_reg(const ex_insp *x, unsigned item, uint32_t id);

/* ---- prepared code --------------------------------------------------------------------------- */

/* Prepared instructions of function fn (0: it has no body). */
uint32_t ex_insp_code_count(const ex_insp *x, uint32_t fn);
/* The ld instruction (index in ld_function.insns) prepared instruction idx of fn comes from. */
uint32_t ex_insp_code_src(const ex_insp *x, uint32_t fn, uint32_t idx);
/* The prepared instructions of block b (index in ld_function.blocks) of fn: [*first, *first + *count). */
void ex_insp_block_code(const ex_insp *x, uint32_t fn, uint32_t b, uint32_t *first, uint32_t *count);

/* ---- memory ----------------------------------------------------------------------------------- */

/* An allocation of the launch (ids 1 .. ; 0 is the null pointer): space is an SPVI_AS_* value. */
typedef struct ex_insp_alloc {
  spvi_addr_space space;
  uint64_t size;
  int arg_index;   /* the kernel argument it holds, -1 otherwise */
  uint32_t var_id; /* the SPIR-V variable it holds, 0 otherwise */
} ex_insp_alloc;
/* Allocation `alloc`; false when there is no such allocation. */
bool ex_insp_alloc_get(const ex_insp *x, uint32_t alloc, ex_insp_alloc *out);
/* Allocation and byte offset kernel pointer p points into (false: null, or no allocation). */
bool ex_insp_ptr_alloc(const ex_insp *x, uint64_t p, uint32_t *alloc, int64_t *off);
/* The kernel pointer to byte `off` of allocation `alloc`. */
uint64_t ex_insp_alloc_ptr(const ex_insp *x, uint32_t alloc, uint64_t off);
/* Host address of n bytes at kernel pointer p as work-item `item` sees them (private memory is its
 * own, local memory its group's; SVM memory is its own address), to read or, with `write`, to
 * change: NULL when they are not all inside one allocation, or are read-only for a write. Nothing is
 * recorded as a fault. */
uint8_t *ex_insp_mem(ex_insp *x, unsigned item, uint64_t p, uint64_t n, bool write);

#endif
