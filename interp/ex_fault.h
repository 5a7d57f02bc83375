/*
 * ex_fault.h — the executor's ground floor (ex_fault.c): recording the fault that stops a launch,
 * and describing work-items, allocations, images and instructions for every report and message.
 *
 * Any interp/ file may include this and call these functions; ex_fault.c calls no other executor
 * file, so messages never create a dependency loop between the executor's modules.
 */
#ifndef EX_FAULT_H
#define EX_FAULT_H

#include <stddef.h>
#include <stdint.h>

#include "bi_image.h"
#include "spvi.h"

typedef struct ex_ctx ex_ctx;
typedef struct ex_warp ex_warp;
struct ex_launch;
struct ex_func;
struct ex_insn;
struct ld_module;

/* Record a fault at the context's current instruction (cx->cur_fn/cur_ip), lane `lane` of warp w:
 * the first fault of a launch wins, later ones are ignored. Returns NULL, so a memory translation
 * can `return ex_fault(...)`. */
void *ex_fault(ex_ctx *cx, spvi_fault_kind k, ex_warp *w, unsigned lane, uint32_t alloc, int64_t off, uint64_t size,
               const char *detail);
/* The user's report of the fault recorded in cx: ids, site, memory and the message text. */
void ex_fault_build_report(const ex_ctx *cx, spvi_fault *f);

/* The 3D index of linear index `lin` over dims (x fastest): local ids in a group, group ids in an
 * NDRange. */
static inline void ex_unlinear(uint64_t lin, const uint64_t dims[3], uint64_t out[3]) {
  out[0] = lin % dims[0];
  out[1] = (lin / dims[0]) % dims[1];
  out[2] = lin / (dims[0] * dims[1]);
}
/* The size of work-group g (the last one of a dimension may be smaller than the local size). */
void ex_group_size(const struct ex_launch *l, const uint64_t g[3], uint64_t size[3]);
/* Local id of lane `lane` of warp w in the current group. */
void ex_lane_ids(const ex_ctx *cx, const ex_warp *w, unsigned lane, uint64_t lid[3]);
/* The work-group of lane `lane` of warp w (w may be NULL: the current group): the current group,
 * or under packing (ex_warp.pack_n) the lane's own; as a linear id (x fastest) and as 3D ids. */
uint64_t ex_lane_group_linear(const ex_ctx *cx, const ex_warp *w, unsigned lane);
void ex_lane_group(const ex_ctx *cx, const ex_warp *w, unsigned lane, uint64_t g[3]);

/* "argument 2 `out` (global buffer of 64 bytes)", "private variable `tmp` (16 bytes)" ... */
void ex_describe_alloc(const ex_ctx *cx, uint32_t id, char *buf, size_t len);
/* "image2d of 4 x 4 rgba unorm8" (an image allocation's description for reports). */
void ex_image_describe(const bi_image *img, char *buf, size_t len);
/* Fill o's function, result id, opcode and source position from instruction ip of fn (either may
 * be NULL: those fields are left as they are). */
void ex_site_where(const struct ld_module *m, const struct ex_func *fn, const struct ex_insn *ip, spvi_site *o);
/* How a report or a fault names instruction ip of fn, before " in function `f`": "OpLoad %82" by
 * its result id; one without a result id (OpStore) by its opcode alone when it has a source line
 * (the message shows the line), else also by its place: "OpStore (instruction 3 of block %12)".
 * Never "%0": 0 is no id (SPIR-V 2.6). "?" when ip or fn is NULL. */
void ex_insn_name(const struct ex_func *fn, const struct ex_insn *ip, char *buf, size_t len);

#endif
