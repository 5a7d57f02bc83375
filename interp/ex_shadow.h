/*
 * ex_shadow.h — the optional checks that keep shadow state beside the kernel's memory and registers:
 * `--check races` (ex_race.c) and `--check uninit` (ex_uninit.c), and the entry points the executor
 * and the scheduler call when checks are on (ex_checks.c dispatches them).
 *
 * Nothing here runs when no check is asked for: ex_exec_warp then never selects its checked label
 * table, the scheduler's calls are behind `cx->chk != NULL`, and builtins keep the unchecked
 * bi_mem.access. See spec-notes/checks.md for what is reported and when.
 */
#ifndef EX_SHADOW_H
#define EX_SHADOW_H

#include <stdbool.h>
#include <stdint.h>

#include "ex_internal.h"

/* ---- launch, worker, group life cycle (ex_sched.c) ------------------------------------------ */
/* Launch-wide shared state (site numbering, uninit plans, race shadow of global memory), after the
 * allocations exist. false: out of memory. */
bool ex_chk_launch_begin(ex_ctx *cx);
void ex_chk_launch_end(ex_ctx *cx);
/* Per-worker state: the local arena's shadow, the warps' register and private shadows. */
bool ex_chk_worker_init(ex_ctx *cx, uint64_t local_bytes, ex_warp *warps, unsigned nwarps);
void ex_chk_worker_free(ex_ctx *cx, ex_warp *warps, unsigned nwarps);
/* A work-group's warps were just started (private memory and local memory are fresh). */
void ex_chk_group_start(ex_ctx *cx, ex_warp *warps, unsigned nw);
/* Warp w, whose lanes all finished, was restarted with the group's next work-items (lane
 * recycling under checks, ex_restart_warp): its lanes' private memory and registers are fresh. */
void ex_chk_warp_restart(ex_ctx *cx, ex_warp *w);
/* Every warp of the group waits at barrier `at` (of function fn) and is about to be released. */
void ex_chk_barrier(ex_ctx *cx, const ex_func *fn, const ex_insn *at);
/* A phase of named barrier h (index + 1) completed: the warps (one per sub-group) waiting at it
 * are about to be released. */
void ex_chk_named_barrier(ex_ctx *cx, ex_warp *warps, unsigned nw, uint32_t h);
/* The group finished. */
void ex_chk_group_end(ex_ctx *cx);
/* An async work-group copy of n bytes from src to dst, done for the group by lane 0 of warp w at
 * instruction ip of fn (ex_async.c), after both ranges were checked. */
void ex_chk_group_copy(ex_ctx *cx, ex_warp *w, const ex_func *fn, const ex_insn *ip, uint64_t dst, uint64_t src,
                       uint64_t n);
/* The copies recorded by ex_chk_group_copy since the last call return event ev. */
void ex_chk_copy_event(ex_ctx *cx, uint64_t ev);
/* wait_group_events released `num` events (of `evb` bytes each, at `events`), the whole group there. */
void ex_chk_wait_events(ex_ctx *cx, const void *events, uint64_t num, uint64_t evb);
/* Lane l of w (at instruction ip of fn) read or wrote the n bytes at `off` of image allocation
 * `alloc` (ex_image.c, after the access succeeded). */
void ex_chk_image(ex_ctx *cx, ex_warp *w, unsigned l, const ex_func *fn, const ex_insn *ip, uint32_t alloc,
                  uint64_t off, uint64_t n, bool write);

/* ---- execution (ex_exec.c) ------------------------------------------------------------------ */
/* Before instruction ip of frame f of warp w runs for `lanes`. */
void ex_chk_step(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip, const uint16_t *lanes, unsigned nl);
/* bi_mem.access under checks: the shadow bookkeeping of a builtin's access, then ex_mem. */
void *ex_chk_bi_access(void *ctx, unsigned lane, uint64_t ptr, uint64_t bytes, bool write);

/* ---- shared between the check modules ------------------------------------------------------- */
typedef struct ex_race ex_race;       /* ex_race.c, per worker */
typedef struct ex_uninit ex_uninit;   /* ex_uninit.c, per worker */

/* Launch-wide, shared by the workers (read-only once built, except the race shadow of global
 * memory, which is used only with one worker). */
typedef struct ex_chkl {
  uint32_t *fbase;                    /* per function: site index of its first instruction */
  uint32_t nfuncs, nsites;
  struct ex_race_global *rg;          /* ex_race.c */
  struct ex_uninit_plans *up;         /* ex_uninit.c */
} ex_chkl;

struct ex_chk {
  ex_chkl *L;
  ex_race *race;                      /* NULL unless SPVI_CHECK_RACES */
  ex_uninit *un;                      /* NULL unless SPVI_CHECK_UNINIT */
};

/* A memory access resolved without faulting: the allocation, offset and space, or false when the
 * access is invalid (the instruction itself then faults). */
static inline bool ex_chk_resolve(const ex_ctx *cx, uint64_t p, uint64_t n, uint32_t *id, uint64_t *off) {
  uint64_t a = (p & cx->ptr_mask) >> cx->shift;
  if (a == 0 || a >= cx->nallocs) return false;
  int64_t o = (int64_t)((p & cx->off_mask) - cx->bias);
  if (o < 0 || (uint64_t)o > cx->allocs[a].size || n > cx->allocs[a].size - (uint64_t)o) return false;
  *id = (uint32_t)a;
  *off = (uint64_t)o;
  return true;
}

/* Site numbering: every prepared instruction of the program has an index >= 1 (0: unknown). */
static inline uint32_t ex_chk_site(const ex_ctx *cx, const ex_func *fn, const ex_insn *ip) {
  if (!fn || !ip) return 0;
  return cx->chkl->fbase[fn->index] + (uint32_t)(ip - fn->code);
}
/* The function and instruction of a site index (fn NULL for 0). */
void ex_chk_site_decode(const ex_ctx *cx, uint32_t site, const ex_func **fn, const ex_insn **ip);

/* ex_race.c */
ex_race *ex_race_new(const ex_ctx *cx, uint64_t local_bytes);
void ex_race_free(ex_race *r);
bool ex_race_launch_begin(ex_chkl *L, const ex_ctx *cx);
void ex_race_launch_end(ex_chkl *L, const ex_ctx *cx);
void ex_race_access(ex_ctx *cx, const ex_warp *w, unsigned lane, uint32_t site, uint64_t ptr, uint64_t n, bool write,
                    bool atomic);
/* The accesses of `count` consecutive lanes from `lane` where lane + k accesses n bytes at
 * ptr + k * n (_run) or all access the same n bytes at ptr (_uniform): as ex_race_access for each
 * lane. false (nothing done) when the range is not valid as a whole: then lane by lane. */
bool ex_race_access_run(ex_ctx *cx, const ex_warp *w, unsigned lane, unsigned count, uint32_t site, uint64_t ptr,
                        uint64_t n, bool write, bool atomic);
bool ex_race_access_uniform(ex_ctx *cx, const ex_warp *w, unsigned lane, unsigned count, uint32_t site, uint64_t ptr,
                            uint64_t n, bool write, bool atomic);
/* The accesses of n bytes at pt[k] by lanes[k], k < nl (scattered: a histogram's atomic bins): as
 * ex_race_access for each lane in order, sharing the allocation's lookup between lanes. */
void ex_race_access_lanes(ex_ctx *cx, const ex_warp *w, const uint16_t *lanes, unsigned nl, uint32_t site,
                          const uint64_t *pt, uint64_t n, bool write, bool atomic);
/* A work-group barrier orders the group's accesses to the memory of its fences: local, global
 * (buffers) and image memory (OpenCL C 6.15.8, CLK_IMAGE_MEM_FENCE). */
void ex_race_interval_end(ex_ctx *cx, bool local, bool global, bool image);
void ex_race_group_end(ex_ctx *cx);
/* The sub-groups of the given lanes of w pass a sub-group barrier with these fences. */
void ex_race_subgroup_barrier(ex_ctx *cx, const ex_warp *w, const uint16_t *lanes, unsigned nl, bool local,
                              bool global, bool image);
/* Named-barrier mode: a phase of a named barrier completed for the n sub-groups whose first
 * work-items (local linear ids) are first_linear[k], each waiting with memory semantics sem[k]. */
void ex_race_named_barrier(ex_ctx *cx, const uint32_t *first_linear, const uint32_t *sem, unsigned n);
/* Lane l of w read or wrote n bytes of image allocation `alloc` from byte off (the texels). */
void ex_race_image(ex_ctx *cx, const ex_warp *w, unsigned lane, uint32_t site, uint32_t alloc, uint64_t off,
                   uint64_t n, bool write);
/* An async copy of n bytes from src to dst at instruction `site`, done for the group; then the
 * event the copies recorded since the last call belong to; then a wait_group_events for `num`
 * events of `evb` bytes each at `events`, which completes their copies. */
void ex_race_copy(ex_ctx *cx, uint32_t site, uint64_t dst, uint64_t src, uint64_t n);
void ex_race_copy_event(ex_ctx *cx, uint64_t ev);
void ex_race_wait(ex_ctx *cx, const void *events, uint64_t num, uint64_t evb);

/* ex_uninit.c */
ex_uninit *ex_uninit_new(const ex_ctx *cx, uint64_t local_bytes);
void ex_uninit_free(ex_uninit *u);
bool ex_uninit_launch_begin(ex_chkl *L, const ex_ctx *cx);
void ex_uninit_launch_end(ex_chkl *L);
bool ex_uninit_warp_init(const ex_ctx *cx, ex_warp *w);
void ex_uninit_warp_free(ex_warp *w);
void ex_uninit_group_start(ex_ctx *cx, ex_warp *warps, unsigned nw);
void ex_uninit_warp_start(ex_ctx *cx, ex_warp *w);
void ex_uninit_step(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip, const uint16_t *lanes, unsigned nl);
void ex_uninit_bi_access(ex_ctx *cx, unsigned lane, uint64_t ptr, uint64_t bytes, bool write);
/* A copy of n bytes from src to dst by lane l of warp w: the destination's shadow becomes the
 * source's; undefined bytes copied into global memory are reported. */
void ex_uninit_copy(ex_ctx *cx, ex_warp *w, unsigned l, const ex_func *fn, const ex_insn *ip, uint64_t dst, uint64_t src,
                    uint64_t n);
/* An image access of lane l (after it succeeded): an undefined coordinate is reported like an
 * undefined address, an undefined texel written like an undefined value stored to a buffer. */
void ex_uninit_image(ex_ctx *cx, ex_warp *w, unsigned l, const ex_func *fn, const ex_insn *ip, uint32_t alloc,
                     uint64_t off, uint64_t n, bool write);

#endif
