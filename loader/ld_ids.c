/*
 * ld_ids.c — the id operands of every function-body instruction, checked once, here, before
 * anything indexes the module's tables with them (ld_ids_check, after pass B has defined every id).
 *
 * The executor's preparation (interp/ex_prepare.c, ex_prep_*.c) reads m->ids[operand] for the
 * operands it translates; the validator's verdict is only a warning by default, so without this
 * check one operand word replaced by a huge id crashes spvi. Each instruction's words are walked
 * by the grammar's operand codes (tools/gen_tables.py: spv_opinfo.operands, the OpenCL.std and
 * OpenCL.DebugInfo.100 codes, the parameters of ImageOperands, MemoryAccess, LoopControl), so
 * every id operand is found, including those inside enum parameters and pairs, and the words
 * must end where the operands do. Each id must be
 *   - in range (SPIR-V 2.3: 0 < id < bound) and defined somewhere (2.16.1: every id used is defined);
 *   - of the kind its operand expects (the roles below): a value (constant, module-scope variable,
 *     parameter or result of an instruction with a type), a label, a function, an extended
 *     instruction set, a type;
 *   - for parameters, results and labels, defined in the same function (2.16.1: a definition
 *     dominates its uses, so it is in their function);
 *   - any other id defined before the instruction: constants, variables, types and sets are
 *     module-level declarations, which precede every function definition (2.4 Logical Layout);
 *     OpFunctionCall's function may come later (2.16.1). Within a function, a result may be used in
 *     an instruction that comes before it: 2.16.1 requires its definition to dominate the use and
 *     blocks to follow their dominators, but llvm-spirv 14 places blocks before their dominators
 *     (ld_validate.c), so module order says nothing here; dominance is the validator's to check
 *     (a warning), and spvi's registers do not depend on it.
 * Operands of a NonSemantic.* or unknown extended instruction set, or of an OpenCL.DebugInfo.100
 * instruction newer than the grammar, have no grammar here: they are not walked (the executor never
 * reads them; prep_extinst rejects an unknown set).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ld_internal.h"

typedef enum id_role { ROLE_VALUE, ROLE_LABEL, ROLE_FUNCTION, ROLE_SET, ROLE_TYPE, ROLE_ANY } id_role;

/* Id operands of body instructions that name something other than a value, by opcode and position
 * in the grammar's operand list (result type and result included). The pairs have theirs in
 * walk_one: OpPhi's (value, parent label), OpSwitch's (literal, target label). */
static const struct role_row {
  uint16_t opcode;
  uint8_t operand;
  uint8_t role;
} role_rows[] = {
  {SpvOpBranch, 0, ROLE_LABEL},                   /* 3.32.17 Target Label */
  {SpvOpBranchConditional, 1, ROLE_LABEL},        /* True Label */
  {SpvOpBranchConditional, 2, ROLE_LABEL},        /* False Label */
  {SpvOpSwitch, 1, ROLE_LABEL},                   /* Default */
  {SpvOpSelectionMerge, 0, ROLE_LABEL},           /* Merge Block */
  {SpvOpLoopMerge, 0, ROLE_LABEL},                /* Merge Block */
  {SpvOpLoopMerge, 1, ROLE_LABEL},                /* Continue Target */
  {SpvOpFunctionCall, 2, ROLE_FUNCTION},          /* 3.32.9 Function */
  {SpvOpExtInst, 2, ROLE_SET},                    /* 3.32.4 Set */
  {SpvOpCooperativeMatrixLengthNV, 2, ROLE_TYPE}, /* Type */
  {SpvOpEnqueueKernel, 8, ROLE_FUNCTION},         /* Invoke (Device-Side Enqueue instructions) */
  {SpvOpGetKernelNDrangeSubGroupCount, 3, ROLE_FUNCTION},
  {SpvOpGetKernelNDrangeMaxSubGroupSize, 3, ROLE_FUNCTION},
  {SpvOpGetKernelWorkGroupSize, 2, ROLE_FUNCTION},
  {SpvOpGetKernelPreferredWorkGroupSizeMultiple, 2, ROLE_FUNCTION},
  {SpvOpGetKernelLocalSizeForSubgroupCount, 3, ROLE_FUNCTION},
  {SpvOpGetKernelMaxNumSubgroups, 2, ROLE_FUNCTION},
};

static id_role role_of(uint32_t opcode, unsigned operand) {
  for (size_t i = 0; i < sizeof role_rows / sizeof role_rows[0]; i++)
    if (role_rows[i].opcode == opcode && role_rows[i].operand == operand) return (id_role)role_rows[i].role;
  return ROLE_VALUE;
}

/* What each kind of id is, for messages. */
static const char *const kind_nouns[] = {
  [LD_ID_NONE] = "not defined",
  [LD_ID_TYPE] = "a type",
  [LD_ID_CONST] = "a constant",
  [LD_ID_GLOBAL] = "a module-scope variable",
  [LD_ID_FUNCTION] = "a function",
  [LD_ID_PARAM] = "a function parameter",
  [LD_ID_VALUE] = "a value",
  [LD_ID_LABEL] = "a label",
  [LD_ID_EXTINST_SET] = "an extended instruction set",
  [LD_ID_STRING] = "an OpString",
  [LD_ID_DEBUG] = "a debug-information instruction",
};
static const char *const role_nouns[] = {
  [ROLE_VALUE] = "a value",       [ROLE_LABEL] = "a label of this function",
  [ROLE_FUNCTION] = "a function", [ROLE_SET] = "an OpExtInstImport",
  [ROLE_TYPE] = "a type",         [ROLE_ANY] = "a defined id",
};

/* The walk over one instruction's words. */
typedef struct walk {
  ld_ctx *c;
  ld_raw r;
  uint32_t fn_at, fn_end; /* word range of the enclosing function */
  uint32_t pos;           /* next word of r */
  const char *names;      /* the grammar's operand names, '|'-separated */
  const char *enum_kind;  /* walking the parameters of this enum's operand ("ImageOperands"), or NULL */
  bool ext;               /* walking an extended instruction's operands */
  id_role ext_role;       /* their role */
} walk;

/* The name of operand k (of the names list, or a parameter of wk->enum_kind) into buf. */
static const char *operand_name(const walk *wk, unsigned k, char *buf, size_t len) {
  if (wk->enum_kind) {
    snprintf(buf, len, "%s parameter", wk->enum_kind);
    return buf;
  }
  const char *s = wk->names ? wk->names : "";
  for (unsigned i = 0; i < k && s; i++)
    if ((s = strchr(s, '|'))) s++;
  const int n = s ? (int)strcspn(s, "|") : 0;
  snprintf(buf, len, "%.*s", n ? n : 7, n ? s : "operand");
  return buf;
}

/* The instruction ends in the middle of an operand. */
static bool incomplete(walk *wk) {
  return ld_errf(wk->c, wk->r.at, "%s has %u words: its last operand is incomplete", wk->r.info->name, wk->r.nwords);
}

/* "<instruction> operand '<name>' (word N): %id <what>", the id at wk->pos. */
static bool id_error(walk *wk, unsigned k, uint32_t id, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 4, 5)))
#endif
  ;
static bool id_error(walk *wk, unsigned k, uint32_t id, const char *fmt, ...) {
  char name[48], what[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return ld_errf(wk->c, wk->r.at, "%s operand '%s' (word %u): %%%u %s", wk->r.info->name,
                 operand_name(wk, k, name, sizeof name), wk->r.at + wk->pos, id, what);
}

static bool kind_fits(ld_id_kind kind, id_role role) {
  switch (role) {
  case ROLE_VALUE: return kind == LD_ID_CONST || kind == LD_ID_GLOBAL || kind == LD_ID_PARAM || kind == LD_ID_VALUE;
  case ROLE_LABEL: return kind == LD_ID_LABEL;
  case ROLE_FUNCTION: return kind == LD_ID_FUNCTION;
  case ROLE_SET: return kind == LD_ID_EXTINST_SET;
  case ROLE_TYPE: return kind == LD_ID_TYPE;
  case ROLE_ANY: return kind != LD_ID_NONE;
  }
  return false;
}

/* The id at wk->pos, operand k, expected in `role`. */
static bool check_id(walk *wk, unsigned k, id_role role) {
  ld_ctx *c = wk->c;
  const uint32_t id = wk->r.w[wk->pos], bound = c->m->bound;
  if (id == 0 || id >= bound) return id_error(wk, k, id, "is out of range (the header's bound is %u)", bound);
  const ld_id_kind kind = c->m->ids[id].kind;
  const uint32_t def = c->def_at[id];
  if (!def && kind == LD_ID_NONE) return id_error(wk, k, id, "is not defined anywhere in the module");
  if (!kind_fits(kind, role)) {
    const char *is = kind != LD_ID_NONE ? kind_nouns[kind] : ld_raw_at(c, def).info->name;
    return id_error(wk, k, id, "is not %s (it is %s)", role_nouns[role], is);
  }
  const bool local = kind == LD_ID_PARAM || kind == LD_ID_VALUE || kind == LD_ID_LABEL;
  if (local && (def < wk->fn_at || def >= wk->fn_end))
    return id_error(wk, k, id, "is defined in another function (word %u)", def);
  if (def > wk->r.at && !local && role != ROLE_FUNCTION && role != ROLE_ANY)
    return id_error(wk, k, id, "is used before its definition (word %u)", def);
  wk->pos++;
  return true;
}

/* Words of OpSwitch's literals: its selector's width (SPIR-V 3.32.17 OpSwitch, 2.2.1 literal). */
static bool switch_literal_words(walk *wk, uint32_t *words) {
  const ld_module *m = wk->c->m;
  const ld_type *t = ld_type_of(m, m->ids[wk->r.w[1]].type); /* the selector, checked first */
  if (!t || t->kind != LD_TY_INT)
    return ld_errf(wk->c, wk->r.at, "OpSwitch selector %%%u is not an integer", wk->r.w[1]);
  *words = t->bits > 32 ? 2 : 1;
  return true;
}

static bool walk_codes(walk *wk, const char *codes);

/* A string operand: up to and including the word holding its nul (SPIR-V 2.2.1). */
static bool skip_string(walk *wk) {
  for (; wk->pos < wk->r.nwords; wk->pos++) {
    const uint32_t w = wk->r.w[wk->pos];
    if (!(w & 0xFFu) || !(w & 0xFF00u) || !(w & 0xFF0000u) || !(w & 0xFF000000u)) {
      wk->pos++;
      return true;
    }
  }
  return ld_errf(wk->c, wk->r.at, "%s: string operand is not nul-terminated within the instruction", wk->r.info->name);
}

/* An enum operand whose enumerants may have parameters ('0'-'9'): the value, then the parameters
 * of the enumerant (value enum) or of each set bit from the lowest (bit enum: Image Operands,
 * Memory Operands and Loop Control say their parameters follow in the order of the bits). */
static bool walk_enum(walk *wk, char code) {
  const uint32_t v = wk->r.w[wk->pos++];
  const bool bits = spv_enum_is_bits(code);
  for (uint32_t b = 0; b < 32; b++) {
    const uint32_t e = bits ? v & (1u << b) : v;
    if (bits && !e) continue;
    const char *params = spv_enum_params(code, e);
    if (!params)
      return ld_errf(wk->c, wk->r.at, "%s: unknown %s %s0x%x (word %u)", wk->r.info->name, spv_enum_kind_name(code),
                     bits ? "bit " : "", e, wk->r.at + wk->pos - 1);
    wk->enum_kind = spv_enum_kind_name(code);
    const bool ok = walk_codes(wk, params);
    wk->enum_kind = NULL;
    if (!ok) return false;
    if (!bits) break;
  }
  return true;
}

/* One operand of code `code`, grammar operand k. */
static bool walk_one(walk *wk, char code, unsigned k) {
  uint32_t words = 0;
  switch (code) {
  case 't':
  case 'r': wk->pos++; return true; /* body_insn checked the result type and defined the result */
  case 'i': return check_id(wk, k, wk->enum_kind ? ROLE_VALUE : wk->ext ? wk->ext_role : role_of(wk->r.opcode, k));
  case 'l': wk->pos++; return true;
  case 's': return skip_string(wk);
  case 'P': /* OpPhi's (variable, parent) */
    if (!check_id(wk, k, ROLE_VALUE)) return false;
    return wk->pos < wk->r.nwords ? check_id(wk, k, ROLE_LABEL) : incomplete(wk);
  case 'W': /* only in OpGroupMemberDecorate, at module scope */
    if (!check_id(wk, k, ROLE_VALUE)) return false;
    return wk->pos++ < wk->r.nwords || incomplete(wk);
  case 'Q': /* OpSwitch's (literal, target) */
    if (!switch_literal_words(wk, &words)) return false;
    wk->pos += words;
    return wk->pos < wk->r.nwords ? check_id(wk, k, ROLE_LABEL) : incomplete(wk);
  case 'n': /* only in module-level constants */
    return ld_errf(wk->c, wk->r.at, "%s: context-dependent literal in a function body", wk->r.info->name);
  default: return walk_enum(wk, code);
  }
}

/* Walk operand codes from wk->pos: each code, then its quantifier ('?' zero or one, '*' any
 * number). A missing operand (or half a pair) is an error. */
static bool walk_codes(walk *wk, const char *codes) {
  for (unsigned k = 0; *codes; k++) {
    const char code = *codes++;
    const char q = (*codes == '?' || *codes == '*') ? *codes++ : 0;
    if (!q && wk->pos >= wk->r.nwords)
      return ld_errf(wk->c, wk->r.at, "%s has %u words: it ends before its operand %u", wk->r.info->name, wk->r.nwords,
                     k + 1);
    for (unsigned n = 0; wk->pos < wk->r.nwords && (q == '*' || n < 1); n++) {
      const uint32_t before = wk->pos;
      if (!walk_one(wk, code, k)) return false;
      if (wk->pos > wk->r.nwords || wk->pos == before) return incomplete(wk);
    }
  }
  return true;
}

/* OpExtInst: the core operands up to the instruction number, then the set's own operands. */
static bool walk_ext_inst(walk *wk) {
  const char *codes = wk->r.info->operands;
  char core[8];
  const char *rest = strchr(codes, '*');
  snprintf(core, sizeof core, "%.*s", (int)(rest ? rest - codes - 1 : (ptrdiff_t)strlen(codes)), codes);
  if (!walk_codes(wk, core)) return false;
  const ld_id *set = &wk->c->m->ids[wk->r.w[3]];
  const uint32_t op = wk->r.w[4];
  if (set->index == LD_EXT_OPENCL_STD) {
    codes = spv_oclstd_operand_codes(op);
    wk->names = spv_oclstd_operand_names(op);
    wk->ext_role = ROLE_VALUE;
  } else if (set->index == LD_EXT_DEBUGINFO) {
    codes = spv_debuginfo_operand_codes(op);
    wk->names = spv_debuginfo_operand_names(op);
    wk->ext_role = ROLE_ANY; /* names types, strings and module-level debug instructions too */
  } else return true;
  /* an OpenCL.DebugInfo.100 instruction newer than the grammar is left alone like a NonSemantic one:
   * the executor never reads debug information, the debugger reads it entry by entry */
  if (!codes && set->index == LD_EXT_DEBUGINFO) return true;
  if (!codes) return ld_errf(wk->c, wk->r.at, "OpExtInst: OpenCL.std has no instruction %u", op);
  wk->ext = true;
  return walk_codes(wk, codes);
}

static bool check_insn(ld_ctx *c, const ld_insn *in, uint32_t fn_at, uint32_t fn_end) {
  walk wk = {.c = c, .r = ld_raw_at(c, in->word_offset), .fn_at = fn_at, .fn_end = fn_end, .pos = 1};
  wk.names = wk.r.info->operand_names;
  if (wk.r.opcode == SpvOpExtInst) {
    if (!walk_ext_inst(&wk)) return false;
    if (!wk.ext) return true; /* a set or an instruction without a grammar here */
  } else if (!walk_codes(&wk, wk.r.info->operands)) return false;
  if (wk.pos != wk.r.nwords)
    return ld_errf(c, wk.r.at, "%s has %u words, its operands end at word %u", wk.r.info->name, wk.r.nwords, wk.pos);
  return true;
}

bool ld_ids_check(ld_ctx *c) {
  const ld_module *m = c->m;
  for (uint32_t f = 0; f < m->nfuncs; f++) {
    const ld_function *fn = &m->funcs[f];
    const uint32_t at = c->def_at[fn->id], end = f + 1 < m->nfuncs ? c->def_at[m->funcs[f + 1].id] : c->nw;
    for (uint32_t i = 0; i < fn->ninsns; i++)
      if (!check_insn(c, &fn->insns[i], at, end)) return false;
  }
  return true;
}
