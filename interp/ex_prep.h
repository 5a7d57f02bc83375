/*
 * ex_prep.h — the translation of the loader's IR into prepared code, shared by its files: the
 * state of one ex_prepare (prep), its helpers (ex_prep_util.c), and the translation passes, one per
 * instruction class (ex_prep_*.c).
 *
 * Layers, bottom up (a file calls only files below it; `make layers-check` enforces it):
 *   ex_prep_util.c   the helpers declared below; calls no other ex_prep*.c file
 *   the passes       ex_prep_{arith,comp,mem,ctrl,group,image,ext}.c: call the helpers, never one
 *                    another nor the driver
 *   ex_prepare.c     the driver: lays out registers and static allocations, runs the passes
 *
 * Passes. As SPIRV-Tools splits its validator into validate_*.cpp passes behind one signature,
 * every pass takes (state, instruction): it translates the instructions of its class into ex_insn
 * (ex_ops.h gives each handler's operand shape) and answers PREP_OK, or PREP_FAIL after writing the
 * message (prep_fail), or PREP_NEXT for an instruction of another class. ex_prepare.c runs them in
 * turn over every instruction.
 *
 * Memory. Running out of memory anywhere in the translation jumps back to ex_prepare (prep_nomem,
 * like Lua's luaD_throw), which frees what it built and fails with an empty message (SPVI_E_NOMEM
 * through the API); a device limit exceeded (prep_limit) jumps back the same way with its message.
 * So every allocation is owned, at every moment, by the prep state or the program.
 */
#ifndef EX_PREP_H
#define EX_PREP_H

#include <setjmp.h>

#include "ex_internal.h"

typedef struct prep {
  ex_program *p;
  const ld_module *m;
  uint32_t *reg; /* per id: absolute per-lane register offset, LD_NONE if not a value */
  char *err;
  size_t errlen;
  /* growable buffers of the function being built */
  ex_insn *code;
  uint32_t ncode, capcode;
  uint32_t *aux;
  uint32_t naux, capaux;
  const ld_function *fn;
  const ld_insn *cur; /* instruction being translated, for messages */
  uint32_t label;     /* the label of its block (the phi moves of the block's out-edges) */
  /* constant area under construction */
  uint32_t cbase; /* absolute per-lane offset of the constant area (after function registers) */
  uint8_t *cinit;
  uint32_t cbytes, ccap;
  uint32_t *cslots;
  uint32_t ncslots, capcslots; /* (reg, size) pairs */
  uint32_t scratch_need;
  bi_resolved *bis;
  uint32_t nbis, capbis;
  uint32_t *tmp;
  size_t captmp;           /* scratch of one instruction's translation (prep_scratch) */
  uint64_t space_bytes[4]; /* variables so far, by address space (EX_AS_*) */
  jmp_buf nomem;           /* prep_nomem and prep_limit jump here */
} prep;

typedef enum prep_result { PREP_NEXT, PREP_OK, PREP_FAIL } prep_result;
typedef prep_result prep_pass(prep *s, const ld_insn *in);
/* PREP_OK or PREP_FAIL from a translation's success. */
static inline prep_result prep_done(bool ok) { return ok ? PREP_OK : PREP_FAIL; }

/* The passes, by instruction class. */
prep_pass prep_arith;     /* arithmetic, logic, comparisons, conversions (ex_prep_arith.c) */
prep_pass prep_composite; /* copies, composites and vectors (ex_prep_comp.c) */
prep_pass prep_memory;    /* variables, loads, stores, pointers, atomics (ex_prep_mem.c) */
prep_pass prep_control;   /* branches, calls, returns, what has no run-time effect (ex_prep_ctrl.c) */
prep_pass prep_group;     /* barriers, work-group and sub-group operations (ex_prep_group.c) */
prep_pass prep_image;     /* images and samplers (ex_prep_image.c) */
prep_pass prep_extinst;   /* OpExtInst: OpenCL.std builtins (ex_prep_ext.c) */

/* ---- helpers (ex_prep_util.c) ----------------------------------------------------------------- */

/* Out of memory: back to ex_prepare, which fails. */
_Noreturn void prep_nomem(prep *s);
/* realloc that never returns NULL (prep_nomem instead). */
void *prep_realloc(prep *s, void *p, size_t n);
/* Room for n words in s->tmp, valid until the next call. */
uint32_t *prep_scratch(prep *s, size_t n);
/* Format an error about the current instruction: "<file>: function `f`: <msg> (OpX %id, word N,
 * src:line)". Returns false. */
bool prep_fail(prep *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A device limit exceeded (spvi.h "device limits"): the message (as prep_fail), then back to
 * ex_prepare, which fails with it. */
_Noreturn void prep_limit(prep *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* prep_limit unless a work-item's private memory, `regs` register bytes plus `priv` bytes of private
 * variables, fits in SPVI_PRIVATE_MEM_SIZE; `what` names what is being added. */
void prep_private_fits(prep *s, uint64_t regs, uint64_t priv, const char *what);
/* Append an instruction (its src is the current instruction) or an aux word; their index. */
uint32_t prep_emit(prep *s, ex_insn in);
uint32_t prep_aux(prep *s, uint32_t v);
/* A slot of `size` bytes in the constant area holding `bytes` (zeros when NULL): its register. */
uint32_t prep_const(prep *s, const void *bytes, uint32_t size);
/* Register `reg` of the constant area holds an offset into static allocation `alloc`. */
void prep_addr_patch(prep *s, uint32_t reg, uint32_t alloc);

static inline const ld_type *prep_type(prep *s, uint32_t id) { return ld_type_of(s->m, id); }
/* Register bytes of a type (0 for none). */
uint32_t prep_reg_size(prep *s, uint32_t type_id);
/* The entry of p->builtins for built-in variable `id`, or NULL. */
struct ex_builtin_var *prep_builtin_var(prep *s, uint32_t id);
/* Register of an operand id; constants are materialised on first use. */
bool prep_operand(prep *s, uint32_t id, uint32_t *out);
/* The registers of the first n operands. */
bool prep_operands(prep *s, const ld_insn *in, unsigned n, uint32_t *r);
/* The register of the instruction's result. */
static inline uint32_t prep_dst(prep *s, const ld_insn *in) { return s->reg[in->result]; }
/* The address space (EX_AS_*) of a storage class; false when spvi has none for it. */
bool prep_storage_space(uint32_t sc, uint8_t *space);

/* Element description of a scalar or vector type: kind 'i' int, 'f' float, 'b' bool, 'p' pointer;
 * n components. */
typedef struct prep_elem {
  char kind;
  uint32_t bits, n;
} prep_elem;
bool prep_elem_of(prep *s, uint32_t type_id, prep_elem *e);

#endif
