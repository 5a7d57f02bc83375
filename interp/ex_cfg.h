/*
 * ex_cfg.h — control-flow and call-graph analysis of prepared code (ex_cfg.c): the reconvergence
 * order of a function's blocks and its loops, the call depth, and the properties of functions the
 * scheduler reads (ex_func.wrapper, ex_func.group_sync).
 */
#ifndef EX_CFG_H
#define EX_CFG_H

#include "ex.h"

/* The successors of block b of xf, from its terminator, written to out (room for
 * ex_cfg_succ_room of them); returns their count. */
uint32_t ex_cfg_succs(const ex_func *xf, uint32_t b, uint32_t *out);
uint32_t ex_cfg_succ_room(const ex_func *xf, uint32_t b);

/* Set ex_block.rpo and the loop fields (loop_header, loop_body, loop_rest) of xf's blocks, whose
 * code is complete. false: out of memory. */
bool ex_cfg_order(ex_func *xf);

/* The deepest call chain from any function of p, in frames (ex_program.max_depth). EX_CFG_RECURSIVE
 * names the function found calling itself in *fn (OpenCL C 6.9 forbids recursion; static register
 * frames depend on it). */
enum { EX_CFG_OK, EX_CFG_RECURSIVE, EX_CFG_NOMEM };
int ex_cfg_call_depth(const ex_program *p, uint32_t *depth, uint32_t *fn);

/* Set ex_func.wrapper and ex_func.group_sync of every function of p (its call graph is acyclic). */
void ex_cfg_mark_calls(ex_program *p);

#endif
