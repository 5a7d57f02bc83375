/*
 * ld_internal.h — the loader's private interface, shared by the loader's own source files only
 * (loader/ld_*.c). Nothing outside loader/ includes it: the rest of spvi sees ld_ir.h.
 *
 * Owns: the arena allocator interface, the load context (one per ld_load call: words, instruction
 * offsets, id definition sites, the error buffer) and the functions the loader's passes call
 * across files. Every check that fails goes through ld_errf(), which writes exactly one message
 * "<file>: word <offset>: <what>" and makes the load fail.
 *
 * Layers. The loader's files call each other in one direction only: a file calls the files of the
 * layers below its own, never a file of its own layer or above. `make layers-check` fails on any
 * cycle among them (tools/layers.py, from the objects' symbols; with -v it prints the layers it
 * finds, which are these). The sections below follow the same order.
 *   0  ld_arena.c     memory: the arena every allocation of a module lives in
 *   1  ld_ctx.c       the shared helpers: messages (ld_errf), decoding, ids (ld_define, ld_ref,
 *                     ld_need_type, ld_need_const, ld_id_name)
 *   2  ld_decor.c     decorations: collection, then the lookups everyone else uses
 *   3  ld_types.c     types and layout (array lengths through ld_const_uint, layer 1)
 *      ld_module.c    module-level declarations: capabilities, imports, names, entry points
 *   4  ld_valparts.c  a large module cut into parts for the validator's threads (raw words only)
 *      ld_specop.c    OpSpecConstantOp evaluation (returns the relocation of an address result
 *                     instead of building it, so that it does not call back into ld_const.c)
 *      ld_ids.c       the id operands of function bodies, walked by the grammar's operand codes
 *   5  ld_validate.c  the SPIRV-Tools validator (knows the debug-info sets from ld_module.c)
 *      ld_const.c     constants and module-scope variables
 *   6  ld_func.c      functions
 *   7  ld_load.c      the driver: header, scan, passes (ld_load, ld_free)
 */
#ifndef LD_INTERNAL_H
#define LD_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen_spv_tables.h"
#include "ld_ir.h"

/* ---- layer 0: arena (ld_arena.c) ------------------------------------------------------------ */
typedef struct ld_arena ld_arena;
ld_arena *ld_arena_new(void);
/* Zeroed, 16-byte aligned memory; NULL when out of memory (or the size overflows). */
void *ld_arena_alloc(ld_arena *a, size_t bytes);
void *ld_arena_array(ld_arena *a, size_t count, size_t elem_size);
void ld_arena_free(ld_arena *a);

/* ---- layer 1: the load context and its helpers (ld_ctx.c) ----------------------------------- */

/* One instruction of the binary as the scan found it (word counts already checked). */
typedef struct ld_raw {
  uint32_t at; /* word offset of the instruction */
  uint16_t opcode;
  uint16_t nwords;   /* including the first word */
  const uint32_t *w; /* w[0] is the opcode word */
  const spv_opinfo *info;
} ld_raw;

/* A raw decoration while the module is read (sorted and copied into ld_module.decos later). */
typedef struct ld_raw_deco {
  ld_decoration d;
  uint32_t at;    /* word offset of the decorating instruction */
  uint32_t order; /* collection order, makes the sort stable */
} ld_raw_deco;

typedef struct ld_ctx {
  ld_module *m;
  ld_arena *arena; /* the module's arena (m->arena) */
  ld_arena *tmp;   /* scratch memory freed when ld_load returns */
  const ld_options *opt;
  const char *path;
  const uint32_t *w; /* the module in host byte order (arena copy) */
  uint32_t nw;
  uint32_t *insn_at; /* word offset of every instruction, in module order */
  uint32_t ninsn;
  uint32_t *def_at;             /* per id: word offset of its defining instruction, 0 when undefined */
  uint32_t *deco_at;            /* per m->decos entry: word offset of the decorating instruction */
  struct ld_decor_state *decor; /* decorations while pass A collects them (ld_decor.c) */
  /* upper bounds counted by the scan, used to size the IR arrays */
  uint32_t max_types, max_consts, max_globals, max_funcs, max_entries, max_decos, max_caps, max_exts, max_debug;
  uint32_t *exec_mode_at; /* OpExecutionMode(Id) instructions, handled after the functions */
  uint32_t nexec_modes;
  uint32_t *entry_at; /* word offsets of the OpEntryPoint instructions (parallel to entries) */
  uint32_t module_line_file, module_line, module_column; /* OpLine state at module scope */
  char *err;
  size_t errlen;
  bool failed;
  struct ld_valjob *val; /* the validator's run (ld_validate.c), NULL when not started */
} ld_ctx;

/* Record the load's single error: "<path>: word <at>: <message>" (at == LD_NONE: no word part).
 * Only the first error is kept. Always returns false so callers can `return ld_errf(...)`. */
bool ld_errf(ld_ctx *c, uint32_t at, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 3, 4)))
#endif
  ;
/* Pass "<path>: <message>" to opt->warn when there is one. */
void ld_warnf(ld_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 2, 3)))
#endif
  ;
/* Pass "<path>: <message>" to opt->note when there is one: a remark, not a defect of the module. */
void ld_notef(ld_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 2, 3)))
#endif
  ;
bool ld_oom(ld_ctx *c);

/* Decode the instruction at word offset `at` (the scan has checked it). */
ld_raw ld_raw_at(const ld_ctx *c, uint32_t at);

/* Literal string operand starting at word `first` of instruction r (SPIR-V 2.2.1: UTF-8 octets packed
 * four per word, lowest-order octet first, nul-terminated, padded to a word boundary). Stores a copy
 * in the module arena in *out and the words it occupies in *nwords. Fails with a message when the
 * instruction ends before the terminating nul. */
bool ld_string(ld_ctx *c, const ld_raw *r, uint32_t first, const char **out, uint32_t *nwords);

/* A literal string for a message: printable ASCII as is, other bytes as \xNN, cut to fit `len`.
 * Returns buf. */
const char *ld_quote(const char *s, char *buf, size_t len);

/* Define result id `id` of instruction r: checks 0 < id < bound and that it is not already defined. */
bool ld_define(ld_ctx *c, const ld_raw *r, uint32_t id);

/* Check that operand id `id` of instruction r (described by `what`, e.g. "OpTypeVector %7 component
 * type") is in range, and return its entry; NULL after an error. */
ld_id *ld_ref(ld_ctx *c, const ld_raw *r, uint32_t id, const char *what);
/* Operand id that must name a type: returns it or NULL after an error. */
const ld_type *ld_need_type(ld_ctx *c, const ld_raw *r, uint32_t id, const char *what);
/* Operand id that must name a constant. */
const ld_const *ld_need_const(ld_ctx *c, const ld_raw *r, uint32_t id, const char *what);
/* Integer scalar constant value (zero-extended), for array lengths and LocalSizeId. */
bool ld_const_uint(ld_ctx *c, const ld_raw *r, uint32_t id, const char *what, uint64_t *value);

/* ---- layer 2: decorations (ld_decor.c) ------------------------------------------------------ */
bool ld_decor_collect(ld_ctx *c, const ld_raw *r); /* OpDecorate*, OpMemberDecorate*, groups */
bool ld_decor_finish(ld_ctx *c);                   /* expand groups, sort, index by target */
bool ld_decor_check_targets(ld_ctx *c);            /* after the IR is built */
const ld_decoration *ld_find_member_decoration(const ld_module *m, uint32_t id, uint32_t member, uint32_t deco);
/* LinkageAttributes linkage type of `id` (SpvLinkageType), or LD_NONE when not decorated. */
uint32_t ld_linkage_type(const ld_module *m, uint32_t id);

/* ---- layer 3: types and layout (ld_types.c) ------------------------------------------------- */
bool ld_types_is_type_opcode(uint32_t opcode);
bool ld_type_insn(ld_ctx *c, const ld_raw *r);
/* Same type, or two declarations of the same scalar/vector/pointer type (llvm-spirv sometimes
 * emits duplicates of non-aggregate types). */
bool ld_type_same(const ld_module *m, uint32_t a, uint32_t b);
/* Scalars (bool, int, float) and vectors of them. */
bool ld_type_is_scalar(const ld_type *t);
/* Types with a memory size: scalars, vectors, arrays, structs, pointers. */
bool ld_type_is_sized(const ld_type *t);
/* Register bytes of a value of this type as assigned to results: reg_size, at least 1. */
uint32_t ld_type_reg_bytes(const ld_type *t);

/* ---- layer 3: module-level declarations (ld_module.c) --------------------------------------- */
bool ld_module_preamble(ld_ctx *c, const ld_raw *r); /* capabilities, imports, strings, names ... */
bool ld_module_is_preamble(uint32_t opcode);
/* The extended instruction set an OpExtInstImport name imports, LD_EXT_OTHER when spvi has none. */
ld_extset ld_module_extset(const char *name);
bool ld_module_finish(ld_ctx *c); /* entry points, execution modes, checks */

/* ---- layer 4: OpSpecConstantOp (ld_specop.c) ------------------------------------------------ */
/* Evaluate the OpSpecConstantOp r into k (k->bytes already allocated, type's reg_size). An
 * address result (a module-scope variable plus a byte offset: the offset in k->bytes) sets *reloc
 * to the variable, for the caller to record as k's relocation; *reloc is 0 otherwise. */
bool ld_specop_eval(ld_ctx *c, const ld_raw *r, const ld_type *type, ld_const *k, uint32_t *reloc);
/* The half with exactly the value d (NaN and infinities included); false when there is none. */
bool ld_half_exact(double d, uint16_t *out);

/* ---- layer 4: the module in parts for validation (ld_valparts.c) ---------------------------- */
/* A plan that deals the module's functions into at most nparts parts, each validated alone (see
 * the file for why the verdict is the whole module's). NULL when the module is not cut (fewer than
 * two parts with an entry point, or a shape that does not allow it); *oom when out of memory. */
typedef struct ld_valplan ld_valplan;
ld_valplan *ld_valplan_new(const uint32_t *w, uint32_t nw, const uint32_t *insn_at, uint32_t ninsn, uint32_t nparts,
                           bool *oom);
uint32_t ld_valplan_parts(const ld_valplan *p);                         /* 1 for NULL */
bool ld_valplan_holds(const ld_valplan *p, uint32_t part, uint32_t fn); /* function ordinal fn in part? */
/* Module-scope instruction words `in` (rewritten in place) as part `part` has them: their count, 0
 * when the part leaves the instruction out. */
uint32_t ld_valplan_module_insn(const ld_valplan *p, uint32_t part, uint32_t *in);
void ld_valplan_free(ld_valplan *p);
/* The name an OpExtInstImport at word `at` of w imports, cut to fit buf (raw words). */
void ld_import_name(const uint32_t *w, uint32_t at, char *buf, size_t len);

/* ---- layer 4: id operands (ld_ids.c) ------------------------------------------------------- */
/* Every id operand of every function-body instruction: in range, defined, of the kind the operand
 * expects, defined before its use where SPIR-V requires it, local ids from the same function. After
 * pass B (every id is defined), before anything reads the operands. */
bool ld_ids_check(ld_ctx *c);

/* ---- layer 5: validation (ld_validate.c) ---------------------------------------------------- */
/* The SPIRV-Tools validator runs on its own thread beside the IR construction (it only reads the
 * words): ld_validate_start launches it (or runs it in place when no thread can be created),
 * ld_validate_finish joins it and reports: a failure is an error when opt->strict (it then replaces
 * any other error, as the validator's verdict comes first), else a warning. `ok` is whether the
 * rest of loading succeeded; the result is the load's final verdict. */
bool ld_validate_start(ld_ctx *c);
bool ld_validate_finish(ld_ctx *c, bool ok);

/* ---- layer 5: constants and module-scope variables (ld_const.c) ----------------------------- */
bool ld_const_is_opcode(uint32_t opcode);
bool ld_const_insn(ld_ctx *c, const ld_raw *r);
bool ld_global_insn(ld_ctx *c, const ld_raw *r);

/* ---- layer 6: functions (ld_func.c) --------------------------------------------------------- */
/* Build the function starting at instruction index *i (an OpFunction); on success *i is the index
 * of its OpFunctionEnd. */
bool ld_func_build(ld_ctx *c, uint32_t *i);
bool ld_func_is_terminator(uint32_t opcode);

#endif
