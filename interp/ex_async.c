/*
 * ex_async.c — async work-group copies and their events: OpGroupAsyncCopy and OpGroupWaitEvents
 * (SPIR-V 3.32.21), i.e. OpenCL C 6.15.11 async_work_group_copy, async_work_group_strided_copy and
 * wait_group_events. Owns the per-work-group event table of ex_ctx.
 *
 * When the copy happens. Both instructions are work-group collectives ("performed by all
 * work-items in a work-group and therefore must be encountered by all work-items ... with the same
 * argument values"), so the warps wait at them like at a barrier (ex_exec.c) and ex_sched calls
 * ex_async_collective once the whole group is there. spvi then checks that every work-item passed
 * the same arguments and performs the whole copy at once, for the group, before any work-item
 * continues. wait_group_events therefore has nothing left to wait for; it checks its events and
 * releases them. A kernel that follows the rules (no access to the destination before the wait, no
 * write to the source before it) sees the same results as with any later completion point.
 *
 * Memory. Every element is read and written through ex_mem, with work-item (0,0,0) of the group
 * as the accessor, so an out-of-bounds copy is reported like any access, against the buffer or
 * variable it overran. A contiguous copy checks each side as one range; a strided one checks and
 * copies element by element (source and destination are in different address spaces, so they
 * cannot overlap). A fault leaves the elements before the faulting one copied. The hook clients
 * (ex_hooks.h) see each range copied as an EX_HK_GROUP_COPY access (the padding slot of
 * 3-component vectors is not part of it), then the copies' event and the waits (copy_event,
 * wait_events): under --check uninit the copy carries definedness from source to destination; under
 * --check races it is the group's access, unordered with the work-items' until the wait for its
 * event (spec-notes/checks.md).
 *
 * Events. An event is an 8-byte handle (ld_types.c gives OpTypeEvent 8 bytes). A copy with a zero
 * Event operand returns a new handle 1, 2, ... (per work-group, in the order of the group's copies);
 * a copy with a non-zero one shares it and returns it (6.15.11), which requires that event to be
 * open (returned by a copy of this group and not yet waited for). wait_group_events releases the
 * events it is given ("The event objects specified in event_list will be released after the wait
 * is performed"); an event listed twice in one call is fine (it may stand for several copies).
 * Undefined uses are faults (SPVI_FAULT_ASYNC_COPY), never guessed around: a zero stride
 * ("undefined if src_stride or dst_stride is 0"), waiting for a handle that is not open (zero, never
 * returned, or already released), a negative num_events, and a work-group that ends with open
 * events ("The kernel must wait for the completion of all async copies using the
 * wait_group_events built-in function before exiting; otherwise the behavior is undefined").
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex_hooks.h"

/* Lane l of warp w's value of a `bytes`-byte register. */
static const uint8_t *reg_at(const ex_ctx *cx, const ex_warp *w, uint32_t reg, unsigned l, unsigned bytes) {
  return w->regs + (size_t)reg * cx->W + (size_t)l * bytes;
}

/* Record a fault at the collective ip, as seen by lane l of warp w. */
static bool async_fault(ex_ctx *cx, spvi_fault_kind k, ex_warp *w, unsigned l, const ex_insn *ip, const ex_func *fn,
                        const char *fmt, ...) __attribute__((format(printf, 7, 8)));
static bool async_fault(ex_ctx *cx, spvi_fault_kind k, ex_warp *w, unsigned l, const ex_insn *ip, const ex_func *fn,
                        const char *fmt, ...) {
  char detail[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  cx->cur_ip = ip;
  cx->cur_fn = fn;
  ex_fault(cx, k, w, l, 0, 0, 0, detail);
  return false;
}

static void local_id_text(const ex_ctx *cx, const ex_warp *w, unsigned l, char *buf, size_t len) {
  uint64_t lid[3];
  ex_lane_ids(cx, w, l, lid);
  snprintf(buf, len, "(%llu,%llu,%llu)", (unsigned long long)lid[0], (unsigned long long)lid[1],
           (unsigned long long)lid[2]);
}

/* Every work-item's value of register `reg` (`bytes` bytes) must equal work-item 0's; otherwise a
 * divergence fault naming the operand. */
static bool same_everywhere(ex_ctx *cx, ex_warp *warps, unsigned nw, uint32_t reg, unsigned bytes, const char *what,
                            const ex_insn *ip, const ex_func *fn) {
  const uint64_t v0 = ex_rd_bytes(reg_at(cx, &warps[0], reg, 0, bytes), bytes);
  for (unsigned k = 0; k < nw; k++)
    for (unsigned l = 0; l < warps[k].nlanes; l++) {
      const uint64_t v = ex_rd_bytes(reg_at(cx, &warps[k], reg, l, bytes), bytes);
      if (v == v0) continue;
      char id[80];
      local_id_text(cx, &warps[k], l, id, sizeof id);
      return async_fault(cx, SPVI_FAULT_BARRIER_DIVERGENCE, &warps[k], l, ip, fn,
                         "work-items of one work-group reach this %s with different arguments: %s is 0x%llx for "
                         "work-item %s, 0x%llx for work-item (0,0,0)",
                         ex_sync_name(ip->op), what, (unsigned long long)v, id, (unsigned long long)v0);
    }
  return true;
}

static int find_open(const struct ex_async *as, uint64_t h) {
  for (uint32_t i = 0; i < as->nopen; i++)
    if (as->open[i].handle == h) return (int)i;
  return -1;
}

/* Why handle h is not an event this wait may release. */
static const char *not_open_reason(const struct ex_async *as, uint64_t h) {
  if (h == 0) return "event 0 stands for no async copy";
  if (h < as->next) return "an earlier wait_group_events of the work-group already released it";
  return "no async copy of this work-group returned it";
}

/* n bytes copied from src to dst for the group (by lane 0 of w0), for the hook clients. */
static void hook_copy(ex_ctx *cx, ex_warp *w0, const ex_insn *ip, const ex_func *fn, uint64_t dst, uint64_t src,
                      uint64_t n) {
  static const uint16_t lane0 = 0;
  ex_hk_access a = ex_hk_access_one(EX_HK_GROUP_COPY, w0, fn, ip, &lane0, &dst, n, true);
  a.src = &src;
  a.sizes = NULL;
  a.src_reg = LD_NONE;
  ex_hooks_access(cx, &a);
}

static bool do_copy(ex_ctx *cx, ex_warp *w0, const ex_insn *ip, const ex_func *fn) {
  const unsigned pb = cx->prog->ptr_bytes;
  const uint32_t *x = fn->aux + ip->b;
  const unsigned nbytes = x[4] & 0xFF, sbytes = x[4] >> 8;
  const uint64_t es = ip->c, pmask = pb == 8 ? ~(uint64_t)0 : 0xFFFFFFFFu;
  const uint64_t dst = ex_rd_bytes(reg_at(cx, w0, ip->a, 0, pb), pb),
                 src = ex_rd_bytes(reg_at(cx, w0, x[0], 0, pb), pb);
  const uint64_t num = ex_rd_bytes(reg_at(cx, w0, x[1], 0, nbytes), nbytes);
  const uint64_t stride = ex_rd_bytes(reg_at(cx, w0, x[2], 0, sbytes), sbytes);
  if (num == 0) return true;
  if (stride == 0)
    return async_fault(cx, SPVI_FAULT_ASYNC_COPY, w0, 0, ip, fn,
                       "async_work_group_strided_copy with stride 0 (undefined, OpenCL C 6.15.11)");
  const uint64_t sstride = ip->flags & EX_ASYNC_STRIDE_DST ? 1 : stride;
  const uint64_t dstride = ip->flags & EX_ASYNC_STRIDE_DST ? stride : 1;
  cx->cur_ip = ip;
  cx->cur_fn = fn;
  cx->cur_warp = w0;
  const bool hooked = ex_hooks_on(cx, EX_HK_EV_ACCESS);
  if (sstride == 1 && dstride == 1) {
    /* one range per side; a byte count that does not fit 64 bits is out of bounds of anything */
    const uint64_t bytes = num > UINT64_MAX / es ? UINT64_MAX : num * es;
    const uint8_t *s = ex_mem(cx, w0, 0, src, bytes, false);
    uint8_t *d = s ? ex_mem(cx, w0, 0, dst, bytes, true) : NULL;
    if (!d) {
      cx->finsn = ip;
      cx->ffn = fn;
      return false;
    }
    if (hooked && x[5] == es) hook_copy(cx, w0, ip, fn, dst, src, bytes);
    else if (hooked)
      for (uint64_t i = 0; i < num; i++) hook_copy(cx, w0, ip, fn, dst + i * es, src + i * es, x[5]);
    memmove(d, s, bytes);
    return true;
  }
  for (uint64_t i = 0; i < num; i++) {
    const uint64_t sp = (src + i * sstride * es) & pmask, dp = (dst + i * dstride * es) & pmask;
    const uint8_t *s = ex_mem(cx, w0, 0, sp, es, false);
    uint8_t *d = s ? ex_mem(cx, w0, 0, dp, es, true) : NULL;
    if (!d) {
      cx->finsn = ip;
      cx->ffn = fn;
      return false;
    }
    if (hooked) hook_copy(cx, w0, ip, fn, dp, sp, x[5]);
    memmove(d, s, es);
  }
  return true;
}

static bool async_copy(ex_ctx *cx, ex_warp *warps, unsigned nw, const ex_insn *ip, const ex_func *fn) {
  const unsigned pb = cx->prog->ptr_bytes;
  const uint32_t *x = fn->aux + ip->b;
  const unsigned nbytes = x[4] & 0xFF, sbytes = x[4] >> 8;
  const char *stride_name = ip->flags & EX_ASYNC_STRIDE_DST ? "dst_stride" : "src_stride";
  if (!same_everywhere(cx, warps, nw, ip->a, pb, "dst", ip, fn) ||
      !same_everywhere(cx, warps, nw, x[0], pb, "src", ip, fn) ||
      !same_everywhere(cx, warps, nw, x[1], nbytes, "num_gentypes", ip, fn) ||
      !same_everywhere(cx, warps, nw, x[2], sbytes, stride_name, ip, fn) ||
      !same_everywhere(cx, warps, nw, x[3], 8, "event", ip, fn))
    return false;
  struct ex_async *as = &cx->async;
  uint64_t ev = ex_rd_bytes(reg_at(cx, &warps[0], x[3], 0, 8), 8);
  if (ev != 0 && find_open(as, ev) < 0)
    return async_fault(cx, SPVI_FAULT_ASYNC_COPY, &warps[0], 0, ip, fn, "async copy given event %llu to share, but %s",
                       (unsigned long long)ev, not_open_reason(as, ev));
  if (!do_copy(cx, &warps[0], ip, fn)) return false;
  if (ev == 0) {
    if (as->nopen == as->cap) {
      uint32_t cap = as->cap ? as->cap * 2 : 8;
      struct ex_event *n = realloc(as->open, cap * sizeof *n);
      if (!n) abort(); /* out of memory for the event table */
      as->open = n;
      as->cap = cap;
    }
    ev = as->next++;
    as->open[as->nopen++] = (struct ex_event){ev, ip, fn};
  }
  ex_hooks_copy_event(cx, ev);
  for (unsigned k = 0; k < nw; k++)
    for (unsigned l = 0; l < warps[k].nlanes; l++)
      memcpy(warps[k].regs + (size_t)ip->d * cx->W + (size_t)l * 8, &ev, 8);
  return true;
}

static bool wait_events(ex_ctx *cx, ex_warp *warps, unsigned nw, const ex_insn *ip, const ex_func *fn) {
  const unsigned pb = cx->prog->ptr_bytes, nb = ip->n;
  const uint64_t evb = ip->c;
  if (!same_everywhere(cx, warps, nw, ip->a, nb, "num_events", ip, fn)) return false;
  uint64_t num = ex_rd_bytes(reg_at(cx, &warps[0], ip->a, 0, nb), nb);
  if (nb < 8 && (num >> (nb * 8 - 1)) & 1)
    return async_fault(cx, SPVI_FAULT_ASYNC_COPY, &warps[0], 0, ip, fn, "wait_group_events with a negative num_events");
  if (num == 0) return true;
  /* each work-item's list (typically its own private array): the events must be the same */
  cx->cur_ip = ip;
  cx->cur_fn = fn;
  const uint64_t bytes = num > UINT64_MAX / evb ? UINT64_MAX : num * evb;
  const uint8_t *list0 = NULL;
  for (unsigned k = 0; k < nw; k++) {
    cx->cur_warp = &warps[k];
    for (unsigned l = 0; l < warps[k].nlanes; l++) {
      const uint8_t *list = ex_mem(cx, &warps[k], l, ex_rd_bytes(reg_at(cx, &warps[k], ip->b, l, pb), pb), bytes,
                                   false);
      if (!list) {
        cx->finsn = ip;
        cx->ffn = fn;
        return false;
      }
      if (!list0) {
        list0 = list;
        continue;
      }
      for (uint64_t i = 0; i < num; i++) {
        const uint64_t a = ex_rd_bytes(list0 + i * evb, 8), b = ex_rd_bytes(list + i * evb, 8);
        if (a == b) continue;
        char id[80];
        local_id_text(cx, &warps[k], l, id, sizeof id);
        return async_fault(cx, SPVI_FAULT_BARRIER_DIVERGENCE, &warps[k], l, ip, fn,
                           "work-items of one work-group wait for different events: event_list[%llu] is %llu for "
                           "work-item %s, %llu for work-item (0,0,0)",
                           (unsigned long long)i, (unsigned long long)b, id, (unsigned long long)a);
      }
    }
  }
  struct ex_async *as = &cx->async;
  for (uint64_t i = 0; i < num; i++) { /* all must be open before any is released */
    const uint64_t h = ex_rd_bytes(list0 + i * evb, 8);
    if (find_open(as, h) < 0)
      return async_fault(cx, SPVI_FAULT_ASYNC_COPY, &warps[0], 0, ip, fn,
                         "wait_group_events: event_list[%llu] is event %llu, but %s", (unsigned long long)i,
                         (unsigned long long)h, not_open_reason(as, h));
  }
  for (uint64_t i = 0; i < num; i++) {
    int j = find_open(as, ex_rd_bytes(list0 + i * evb, 8));
    if (j >= 0) as->open[j] = as->open[--as->nopen]; /* order does not matter until the report */
  }
  ex_hooks_wait_events(cx, list0, num, evb); /* the copies are complete for the whole group */
  return true;
}

bool ex_async_collective(ex_ctx *cx, ex_warp *warps, unsigned nw, const ex_insn *ip) {
  const ex_func *fn = warps[0].stack[warps[0].depth - 1].fn;
  return ip->op == EX_ASYNC_COPY ? async_copy(cx, warps, nw, ip, fn) : wait_events(cx, warps, nw, ip, fn);
}

bool ex_async_group_end(ex_ctx *cx, ex_warp *warps) {
  struct ex_async *as = &cx->async;
  if (!as->nopen) return true;
  /* report the earliest copy still open */
  uint32_t first = 0;
  for (uint32_t i = 1; i < as->nopen; i++)
    if (as->open[i].handle < as->open[first].handle) first = i;
  return async_fault(cx, SPVI_FAULT_ASYNC_COPY, &warps[0], 0, as->open[first].at, as->open[first].fn,
                     "the work-group finished without waiting for this async copy's event %llu (wait_group_events); "
                     "OpenCL C 6.15.11 leaves that undefined",
                     (unsigned long long)as->open[first].handle);
}

void ex_async_reset(ex_ctx *cx) {
  cx->async.next = 1;
  cx->async.nopen = 0;
}

void ex_async_free(ex_ctx *cx) {
  free(cx->async.open);
  memset(&cx->async, 0, sizeof cx->async);
}
