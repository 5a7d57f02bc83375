/*
 * ex_cfg.c — control-flow and call-graph analysis of prepared code: reverse post-order with loops
 * kept whole (the reconvergence order, ex_block.rpo), natural loops (lane recycling's cost
 * estimates), call depth and recursion, and the function properties the scheduler reads.
 */
#include <stdlib.h>
#include <string.h>

#include "ex_cfg.h"

uint32_t ex_cfg_succ_room(const ex_func *xf, uint32_t b) {
  const ex_block *xb = &xf->blocks[b];
  const ex_insn *t = &xf->code[xb->first + xb->count - 1];
  return t->op == EX_SWITCH ? xf->aux[t->b] + 1 : 2;
}

uint32_t ex_cfg_succs(const ex_func *xf, uint32_t b, uint32_t *out) {
  const ex_block *xb = &xf->blocks[b];
  const ex_insn *t = &xf->code[xb->first + xb->count - 1];
  if (t->op == EX_BR) {
    out[0] = t->a;
    return 1;
  }
  if (t->op == EX_BRC) {
    out[0] = xf->aux[t->b];
    out[1] = xf->aux[t->b + 2];
    return 2;
  }
  if (t->op == EX_SWITCH) {
    const uint32_t *sw = xf->aux + t->b;
    out[0] = sw[1];
    for (uint32_t k = 0; k < sw[0]; k++) out[1 + k] = sw[3 + 4 * k + 2];
    return sw[0] + 1;
  }
  return 0;
}

/* ---- reconvergence order -----------------------------------------------------------------------
 * Any topological order of the forward edges puts a join after the arms that reach it, but it may
 * put a loop's exit before some blocks of the loop body, and lanes that left the loop would then run
 * ahead of lanes still iterating (and, say, reach a barrier alone). So the order is a topological
 * sort in which a loop, once its header is placed, is finished before any block outside it: every
 * block of a natural loop precedes all the loop's exit targets. Loops are the natural loops of the
 * retreating edges of a DFS (SPIR-V 2.11 structured control flow gives the same loops; llvm-spirv
 * emits no merge instructions for kernels). */

/* The working state of one function's analysis: n blocks, `total` edges. */
typedef struct cfg {
  ex_func *xf;
  uint32_t n, total;
  uint32_t *sstart, *succ; /* successors of b: succ[sstart[b] .. sstart[b + 1]) */
  uint32_t *pstart, *pred; /* predecessors, likewise */
  uint32_t *state;         /* DFS: 0 unseen (unreachable at the end), 1 on the stack, 2 done */
  uint32_t *stack, *succ_i, *post, npost;
  uint8_t *back; /* per edge: retreating */
  uint32_t *loop_head, *loop_tail, nloops;
  uint32_t *rpo0;          /* plain reverse post-order: tie-breaks */
  size_t words;            /* bitset words of one loop body */
  uint64_t *body;          /* loop bodies, one bitset per header */
  int32_t *loop_of_header; /* per block: its loop (body index), -1 when no loop's header */
  uint32_t nheads;
  uint32_t *indeg, *ready, *open;
} cfg;

static void cfg_free(cfg *g) {
  free(g->sstart);
  free(g->succ);
  free(g->pstart);
  free(g->pred);
  free(g->state);
  free(g->stack);
  free(g->succ_i);
  free(g->post);
  free(g->back);
  free(g->loop_head);
  free(g->loop_tail);
  free(g->rpo0);
  free(g->body);
  free(g->loop_of_header);
  free(g->indeg);
  free(g->ready);
  free(g->open);
}

static bool grow(uint32_t **p, uint32_t *cap, uint32_t need) {
  if (need <= *cap) return true;
  uint32_t c = need * 2;
  uint32_t *q = realloc(*p, c * sizeof *q);
  if (!q) return false;
  *p = q;
  *cap = c;
  return true;
}

/* Successor and predecessor lists (compressed rows). */
static bool cfg_edges(cfg *g) {
  const uint32_t n = g->n;
  uint32_t cap = 0;
  g->sstart = calloc(n + 1, sizeof *g->sstart);
  if (!g->sstart) return false;
  for (uint32_t b = 0; b < n; b++) {
    if (!grow(&g->succ, &cap, g->total + ex_cfg_succ_room(g->xf, b))) return false;
    g->sstart[b] = g->total;
    g->total += ex_cfg_succs(g->xf, b, g->succ + g->total);
  }
  g->sstart[n] = g->total;
  g->pstart = calloc(n + 1, sizeof *g->pstart);
  g->pred = malloc((g->total + 1) * sizeof *g->pred);
  uint32_t *fill = calloc(n + 1, sizeof *fill);
  if (!g->pstart || !g->pred || !fill) {
    free(fill);
    return false;
  }
  for (uint32_t i = 0; i < g->total; i++) g->pstart[g->succ[i] + 1]++;
  for (uint32_t b = 0; b < n; b++) g->pstart[b + 1] += g->pstart[b];
  for (uint32_t b = 0; b < n; b++)
    for (uint32_t i = g->sstart[b]; i < g->sstart[b + 1]; i++) g->pred[g->pstart[g->succ[i]] + fill[g->succ[i]]++] = b;
  free(fill);
  return true;
}

/* DFS from the entry: the retreating edges (target on the DFS stack), each a loop (head, tail), and
 * a plain post-order for tie-breaks. */
static bool cfg_dfs(cfg *g) {
  const uint32_t n = g->n;
  uint32_t headcap = 0, tailcap = 0;
  g->state = calloc(n, sizeof *g->state);
  g->stack = malloc((n + 1) * sizeof *g->stack);
  g->succ_i = calloc(n, sizeof *g->succ_i);
  g->post = malloc((n + 1) * sizeof *g->post);
  g->back = calloc(g->total + 1, 1);
  if (!g->state || !g->stack || !g->succ_i || !g->post || !g->back) return false;
  uint32_t sp = 0;
  g->stack[sp++] = 0;
  g->state[0] = 1;
  while (sp) {
    uint32_t b = g->stack[sp - 1];
    if (g->succ_i[b] < g->sstart[b + 1] - g->sstart[b]) {
      uint32_t e = g->sstart[b] + g->succ_i[b]++;
      uint32_t c = g->succ[e];
      if (g->state[c] == 1) {
        g->back[e] = 1;
        if (!grow(&g->loop_head, &headcap, g->nloops + 1) || !grow(&g->loop_tail, &tailcap, g->nloops + 1))
          return false;
        g->loop_head[g->nloops] = c;
        g->loop_tail[g->nloops++] = b;
      } else if (!g->state[c]) {
        g->state[c] = 1;
        g->stack[sp++] = c;
      }
      continue;
    }
    g->state[b] = 2;
    g->post[g->npost++] = b;
    sp--;
  }
  g->rpo0 = malloc((n + 1) * sizeof *g->rpo0);
  if (!g->rpo0) return false;
  for (uint32_t i = 0; i < n; i++) g->rpo0[i] = UINT32_MAX;
  for (uint32_t i = 0; i < g->npost; i++) g->rpo0[g->post[g->npost - 1 - i]] = i;
  return true;
}

static bool in_loop(const cfg *g, uint32_t loop, uint32_t x) {
  return (g->body[(size_t)loop * g->words + x / 64] >> (x % 64)) & 1;
}

/* Natural loop bodies as bitsets, one per header (loops sharing a header are merged): the header
 * and every reachable block that reaches the tail without passing the header. */
static bool cfg_loops(cfg *g) {
  const uint32_t n = g->n;
  g->words = (n + 63) / 64;
  g->body = calloc((size_t)g->nloops * g->words + 1, sizeof *g->body);
  g->loop_of_header = malloc((n + 1) * sizeof *g->loop_of_header);
  if (!g->body || !g->loop_of_header) return false;
  for (uint32_t i = 0; i < n; i++) g->loop_of_header[i] = -1;
  for (uint32_t L = 0; L < g->nloops; L++) {
    uint32_t h = g->loop_head[L];
    if (g->loop_of_header[h] < 0) g->loop_of_header[h] = (int32_t)g->nheads++;
    uint64_t *bs = g->body + (size_t)g->loop_of_header[h] * g->words;
    bs[h / 64] |= (uint64_t)1 << (h % 64);
    uint32_t sp = 0, t = g->loop_tail[L];
    if (!(bs[t / 64] >> (t % 64) & 1)) {
      bs[t / 64] |= (uint64_t)1 << (t % 64);
      g->stack[sp++] = t;
    }
    while (sp) {
      uint32_t x = g->stack[--sp];
      for (uint32_t i = g->pstart[x]; i < g->pstart[x + 1]; i++) {
        uint32_t p = g->pred[i];
        if (!g->state[p] || (bs[p / 64] >> (p % 64) & 1)) continue;
        bs[p / 64] |= (uint64_t)1 << (p % 64);
        g->stack[sp++] = p;
      }
    }
  }
  return true;
}

/* Loop header b is placed: its loop fields (SPIR-V instructions in the loop and outside it). */
static void mark_header(cfg *g, uint32_t b, uint32_t fn_count) {
  ex_block *hb = &g->xf->blocks[b];
  hb->loop_header = true;
  uint32_t in = 0;
  for (uint32_t x = 0; x < g->n; x++)
    if (in_loop(g, (uint32_t)g->loop_of_header[b], x)) in += g->xf->blocks[x].spv_count;
  hb->loop_body = in;
  hb->loop_rest = fn_count - in;
}

/* Topological order of the forward edges in which every loop, once its header is placed, is
 * completed before anything outside it: the next block comes from the innermost open loop while
 * it has a ready block; ties follow the plain reverse post-order. */
static bool cfg_place(cfg *g) {
  const uint32_t n = g->n;
  g->indeg = calloc(n + 1, sizeof *g->indeg);
  g->ready = malloc((n + 1) * sizeof *g->ready);
  g->open = malloc((g->nheads + 1) * sizeof *g->open);
  if (!g->indeg || !g->ready || !g->open) return false;
  for (uint32_t b = 0; b < n; b++)
    if (g->state[b])
      for (uint32_t e = g->sstart[b]; e < g->sstart[b + 1]; e++)
        if (!g->back[e]) g->indeg[g->succ[e]]++;
  uint32_t nready = 0, nopen = 0, r = 0, fn_count = 0;
  for (uint32_t b = 0; b < n; b++) fn_count += g->xf->blocks[b].spv_count;
  g->ready[nready++] = 0;
  while (nready) {
    int64_t pick = -1;
    while (pick < 0) {
      for (uint32_t i = 0; i < nready; i++) {
        uint32_t b = g->ready[i];
        if (nopen && !in_loop(g, g->open[nopen - 1], b)) continue;
        if (pick < 0 || g->rpo0[b] < g->rpo0[g->ready[pick]]) pick = i;
      }
      if (pick < 0) {
        if (!nopen) abort(); /* a ready block exists and no loop filters it: cannot happen */
        nopen--;
      }
    }
    uint32_t b = g->ready[pick];
    g->ready[pick] = g->ready[--nready];
    g->xf->blocks[b].rpo = r++;
    if (g->loop_of_header[b] >= 0) {
      g->open[nopen++] = (uint32_t)g->loop_of_header[b];
      mark_header(g, b, fn_count);
    }
    for (uint32_t e = g->sstart[b]; e < g->sstart[b + 1]; e++)
      if (!g->back[e] && --g->indeg[g->succ[e]] == 0) g->ready[nready++] = g->succ[e];
  }
  for (uint32_t b = 0; b < n; b++)
    if (!g->state[b]) g->xf->blocks[b].rpo = r++; /* unreachable blocks: never run */
  return true;
}

bool ex_cfg_order(ex_func *xf) {
  cfg g;
  memset(&g, 0, sizeof g);
  g.xf = xf;
  g.n = xf->nblocks;
  bool ok = cfg_edges(&g) && cfg_dfs(&g) && cfg_loops(&g) && cfg_place(&g);
  cfg_free(&g);
  return ok;
}

/* ---- call graph --------------------------------------------------------------------------------- */

/* Depth of the deepest call chain from function fi (mark: 1 being visited, 2 done with memo). */
static int call_depth(const ex_program *p, uint32_t fi, uint8_t *mark, uint32_t *memo, uint32_t *out,
                      uint32_t *recursive) {
  if (mark[fi] == 1) {
    *recursive = fi;
    return EX_CFG_RECURSIVE;
  }
  if (mark[fi] == 2) {
    *out = memo[fi];
    return EX_CFG_OK;
  }
  mark[fi] = 1;
  uint32_t best = 0;
  const ex_func *xf = &p->funcs[fi];
  for (uint32_t i = 0; i < xf->ncode; i++) {
    if (xf->code[i].op != EX_CALL) continue;
    uint32_t d;
    int st = call_depth(p, xf->code[i].a, mark, memo, &d, recursive);
    if (st != EX_CFG_OK) return st;
    if (d > best) best = d;
  }
  mark[fi] = 2;
  memo[fi] = best + 1;
  *out = best + 1;
  return EX_CFG_OK;
}

int ex_cfg_call_depth(const ex_program *p, uint32_t *depth, uint32_t *fn) {
  uint8_t *mark = calloc(p->nfuncs + 1, 1);
  uint32_t *memo = calloc(p->nfuncs + 1, sizeof *memo);
  int st = mark && memo ? EX_CFG_OK : EX_CFG_NOMEM;
  *depth = 0;
  for (uint32_t f = 0; st == EX_CFG_OK && f < p->nfuncs; f++) {
    uint32_t d;
    st = call_depth(p, f, mark, memo, &d, fn);
    if (st == EX_CFG_OK && d > *depth) *depth = d;
  }
  free(mark);
  free(memo);
  return st;
}

/* An instruction by which work-items of a group or sub-group wait for or exchange with others. */
static bool is_group_sync(unsigned op) {
  return op == EX_BARRIER || op == EX_GROUP || op == EX_ASYNC_COPY || op == EX_WAIT_EVENTS || op == EX_SUBGROUP ||
         op == EX_NBAR_INIT || op == EX_NBAR_WAIT;
}

/* ex_func.wrapper: code [CALL, RET] in one block. Its call's arguments can only be its own
 * parameters or constants, the same for every work-item. */
static bool is_wrapper(const ex_program *p, const ex_func *xf) {
  if (xf->nblocks != 1 || xf->ncode != 2 || xf->code[0].op != EX_CALL || xf->code[1].op != EX_RET) return false;
  const ex_func *callee = &p->funcs[xf->code[0].a];
  for (uint32_t i = 0; i < callee->nparams; i++)
    if (callee->param_byval[i]) return false;
  return true;
}

/* ex_func.group_sync: direct, then through calls until nothing changes (the call graph has no
 * cycles, OpenCL C 6.11, so this ends within its depth); ex_func.wrapper; ex_program.uses_atomics. */
void ex_cfg_mark_calls(ex_program *p) {
  for (uint32_t f = 0; f < p->nfuncs; f++) p->funcs[f].wrapper = is_wrapper(p, &p->funcs[f]);
  for (uint32_t f = 0; f < p->nfuncs; f++)
    for (uint32_t i = 0; i < p->funcs[f].ncode; i++) {
      p->funcs[f].group_sync |= is_group_sync(p->funcs[f].code[i].op);
      p->uses_atomics |= p->funcs[f].code[i].op == EX_ATOMIC;
    }
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t f = 0; f < p->nfuncs; f++) {
      ex_func *xf = &p->funcs[f];
      for (uint32_t i = 0; i < xf->ncode && !xf->group_sync; i++)
        if (xf->code[i].op == EX_CALL && p->funcs[xf->code[i].a].group_sync) xf->group_sync = changed = true;
    }
  }
}
