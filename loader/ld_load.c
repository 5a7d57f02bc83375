/*
 * ld_load.c — the loader's driver: ld_load() / ld_free().
 *
 * Reads the physical layout (SPIR-V 2.3): the five-word header in either byte order, then the
 * instruction stream, checking every instruction's word count against the grammar before anything
 * looks inside it. Then, in order:
 *   1. the SPIRV-Tools validator (ld_validate.c, on a thread beside the passes below),
 *   2. pass A over the module-level declarations that everything else depends on wherever they sit
 *      (capabilities, imports, strings, names, decorations, entry points: ld_module.c, ld_decor.c),
 *   3. pass B in module order over types, constants, module-scope variables, module-level debug
 *      instructions and functions (ld_types.c, ld_const.c, ld_func.c),
 *   4. the id operands of every function body (ld_ids.c),
 *   5. entry points and execution modes (ld_module.c) and the final cross-checks,
 *   6. the caller's `meanwhile` work (spvi_load_memory prepares the module), while the validator
 *      finishes; then the validator's verdict.
 * The helpers every pass uses (messages, decoding, ids) are in ld_ctx.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ld_internal.h"

/* Limits on the id bound (SPIR-V 2.3 word 3). Every id needs an instruction of at least two words,
 * so a bound far beyond the word count is a corrupt header, not a module: refuse before sizing the
 * id table by it. */
#define LD_MAX_BOUND (16u * 1024u * 1024u)
#define LD_BOUND_PER_WORD 64u

/* ---- public lookups ------------------------------------------------------------------------ */

/* The module-level OpenCL.DebugInfo.100 instruction with result `id`, or NULL; its operand k (after
 * the set and instruction words), 0 when absent; an OpString's text. */
static const ld_insn *di_of(const ld_module *m, uint32_t id) {
  if (id == 0 || id >= m->bound || m->ids[id].kind != LD_ID_DEBUG) return NULL;
  const ld_insn *d = &m->debug_insns[m->ids[id].index];
  return d->nops >= 2 ? d : NULL;
}
static uint32_t di_arg(const ld_insn *d, unsigned k) { return 2u + k < d->nops ? d->ops[2 + k] : 0; }
static const char *di_str(const ld_module *m, uint32_t id) {
  return id && id < m->bound && m->ids[id].kind == LD_ID_STRING ? m->ids[id].name : NULL;
}

/* The DebugLocalVariable (through a DebugDeclare, or else a DebugValue of the variable's address,
 * which clang emits at -O0 too, or of the value) in function fi (LD_NONE: any) or DebugGlobalVariable
 * (its Variable operand) of variable `var`; NULL when there is none, or several of the kind found (a
 * constant can be several variables' value; a pointer variable's DebugValue can name a declared
 * array: the DebugDeclare wins). */
static const ld_insn *var_debuginfo(const ld_module *m, uint32_t var, uint32_t fi) {
  for (uint32_t i = 0; i < m->ndebug_insns; i++)
    if (m->debug_insns[i].nops > 9 && m->debug_insns[i].ops[1] == DI_DebugGlobalVariable &&
        di_arg(&m->debug_insns[i], 7) == var)
      return &m->debug_insns[i];
  const ld_insn *found[2] = {NULL, NULL}; /* by DebugDeclare, by DebugValue */
  bool several[2] = {false, false};
  for (uint32_t f = fi == LD_NONE ? 0 : fi; f < m->nfuncs && (fi == LD_NONE || f == fi); f++)
    for (uint32_t i = 0; i < m->funcs[f].ninsns; i++) {
      const ld_insn *in = &m->funcs[f].insns[i];
      if (in->opcode != SpvOpExtInst || in->nops < 4 || in->ops[3] != var) continue;
      if (in->ops[0] >= m->bound || m->ids[in->ops[0]].index != LD_EXT_DEBUGINFO) continue;
      if (in->ops[1] != DI_DebugDeclare && in->ops[1] != DI_DebugValue) continue;
      const ld_insn *d = di_of(m, in->ops[2]);
      if (!d || d->ops[1] != DI_DebugLocalVariable) continue;
      const int k = in->ops[1] == DI_DebugValue;
      several[k] |= found[k] && found[k] != d;
      found[k] = d;
    }
  if (found[0]) return several[0] ? NULL : found[0];
  return several[1] ? NULL : found[1];
}

bool ld_var_decl(const ld_module *m, uint32_t var, uint32_t func, const char **name, const char **file,
                 uint32_t *line) {
  *name = *file = NULL;
  *line = 0;
  const ld_insn *d = m && func != LD_NONE ? var_debuginfo(m, var, func) : NULL;
  if (!d && m) d = var_debuginfo(m, var, LD_NONE);
  if (!d) return false;
  *name = di_str(m, di_arg(d, 0));
  const ld_insn *src = di_of(m, di_arg(d, 2)); /* DebugSource: File */
  *file = src ? di_str(m, di_arg(src, 0)) : NULL;
  *line = di_arg(d, 3);
  return *name != NULL;
}

/* The OpenCL C spelling of a parameter's debug type (OpenCL.DebugInfo.100 4.3): a typedef by its
 * name (`uint`, `float4`), a base type by its OpenCL C name (DebugTypeBasic names the C type:
 * `unsigned int` is `uint`, OpenCL C 6.1.1), a vector as its element and count, a pointer as its
 * pointee and `*`, qualifiers left out (kernel_arg_type leaves them out too; they are
 * kernel_arg_type_qual's). False for anything else (structs, arrays...: no spelling guessed). */
static bool di_spell(const ld_module *m, uint32_t type, char *buf, size_t cap, int depth) {
  static const char *const c_names[][2] = {
    {"unsigned char", "uchar"}, {"unsigned short", "ushort"}, {"unsigned int", "uint"}, {"unsigned long", "ulong"},
    {"_Bool", "bool"},          {"long int", "long"},
  };
  const ld_insn *t = di_of(m, type);
  if (!t || depth > 16) return false;         /* bounded: a malformed module may loop */
  const char *name = di_str(m, di_arg(t, 0)); /* DebugTypedef, DebugTypeBasic: Name */
  const char *suffix = NULL;                  /* after the base's spelling */
  char count[16];
  switch (t->ops[1]) {
  case DI_DebugTypedef: break;
  case DI_DebugTypeBasic:
    for (size_t i = 0; name && i < sizeof c_names / sizeof c_names[0]; i++)
      if (strcmp(name, c_names[i][0]) == 0) name = c_names[i][1];
    break;
  case DI_DebugTypeQualifier: suffix = ""; break;
  case DI_DebugTypePointer: suffix = "*"; break;
  case DI_DebugTypeVector: /* Component Count: operand 1, a literal */
    snprintf(count, sizeof count, "%u", di_arg(t, 1));
    suffix = count;
    break;
  default: return false;
  }
  if (!suffix) return name && name[0] && (size_t)snprintf(buf, cap, "%s", name) < cap;
  if (!di_spell(m, di_arg(t, 0), buf, cap, depth + 1)) return false; /* Base Type: operand 0 */
  size_t n = strlen(buf);
  return (size_t)snprintf(buf + n, cap - n, "%s", suffix) < cap - n;
}

/* The function a kernel's entry point wraps, or func itself. llvm-spirv-14 makes the entry point a
 * wrapper when the kernel function is also called (at -O2 it often is): its body calls the kernel
 * function with its own parameters in order, and the debug information describes that callee. */
static uint32_t wrapped_function(const ld_module *m, uint32_t func) {
  const ld_function *fn = &m->funcs[func];
  for (uint32_t i = 0; i < fn->ninsns; i++) {
    const ld_insn *in = &fn->insns[i]; /* OpFunctionCall: Function, then the arguments */
    if (in->opcode != SpvOpFunctionCall || in->nops != fn->nparams + 1) continue;
    bool same = in->ops[0] < m->bound && m->ids[in->ops[0]].kind == LD_ID_FUNCTION;
    for (uint32_t k = 0; same && k < fn->nparams; k++) same = in->ops[1 + k] == fn->params[k];
    if (same) return m->ids[in->ops[0]].index;
  }
  return func;
}

/* The DebugFunction describing function index func (its Function operand, 9), 0 when none. */
static uint32_t di_function_scope(const ld_module *m, uint32_t func) {
  for (uint32_t i = 0; i < m->ndebug_insns; i++)
    if (m->debug_insns[i].nops >= 2 && m->debug_insns[i].ops[1] == DI_DebugFunction &&
        di_arg(&m->debug_insns[i], 9) == m->funcs[func].id)
      return m->debug_insns[i].result;
  return 0;
}

bool ld_param_decl(const ld_module *m, uint32_t func, uint32_t index, const char **name, char *type, size_t cap) {
  *name = NULL;
  type[0] = 0;
  if (!m || func >= m->nfuncs) return false;
  uint32_t scope = di_function_scope(m, func);
  if (!scope) scope = di_function_scope(m, wrapped_function(m, func)); /* a wrapper has none of its own */
  for (uint32_t i = 0; i < m->ndebug_insns && scope; i++) {
    const ld_insn *d = &m->debug_insns[i]; /* DebugLocalVariable: Parent 5, ArgNumber 7 (from 1) */
    if (d->nops < 2 || d->ops[1] != DI_DebugLocalVariable || di_arg(d, 5) != scope || di_arg(d, 7) != index + 1)
      continue;
    *name = di_str(m, di_arg(d, 0));
    if (!di_spell(m, di_arg(d, 1), type, cap, 0)) type[0] = 0;
    return *name != NULL;
  }
  return false;
}

/* ---- header and scan ----------------------------------------------------------------------- */

static uint32_t swap32(uint32_t v) { return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24); }

/* SPIR-V 2.3: magic, version, generator, bound, schema. */
static bool read_header(ld_ctx *c, const void *bytes, size_t nbytes) {
  if (nbytes > LD_MAX_MODULE_BYTES)
    return ld_errf(c, 0, "the module is larger than spvi's limit of %zu bytes (1 GiB)", LD_MAX_MODULE_BYTES);
  if (nbytes % 4)
    return ld_errf(c, (uint32_t)(nbytes / 4), "truncated: the file has %zu bytes, not a whole number of 32-bit words",
                   nbytes);
  uint32_t nw = (uint32_t)(nbytes / 4);
  if (nw == 0) return ld_errf(c, 0, "truncated: the file is empty (a SPIR-V header has 5 words)");
  uint32_t magic;
  memcpy(&magic, bytes, 4);
  bool swap;
  if (magic == SpvMagicNumber) swap = false;
  else if (magic == swap32(SpvMagicNumber)) swap = true;
  else
    return ld_errf(c, 0, "bad magic number 0x%08x (a SPIR-V module starts with 0x%08x in either byte order)", magic,
                   (unsigned)SpvMagicNumber);
  if (nw < 5) return ld_errf(c, nw, "truncated header: %u words, a SPIR-V header has 5", nw);

  uint32_t *w = ld_arena_array(c->arena, nw, sizeof(uint32_t));
  if (!w) return ld_oom(c);
  memcpy(w, bytes, (size_t)nw * 4);
  if (swap)
    for (uint32_t i = 0; i < nw; i++) w[i] = swap32(w[i]);
  c->w = w;
  c->nw = nw;
  c->m->words = w;
  c->m->nwords = nw;

  ld_module *m = c->m;
  m->version = w[1];
  uint32_t major = (w[1] >> 16) & 0xFFu, minor = (w[1] >> 8) & 0xFFu;
  if ((w[1] & 0xFF0000FFu) != 0 || major != 1 || minor > 6)
    return ld_errf(c, 1, "SPIR-V version 0x%08x (%u.%u) is not supported (1.0 to 1.6 are)", w[1], major, minor);
  m->generator = w[2];
  m->bound = w[3];
  if (w[3] == 0) return ld_errf(c, 3, "id bound is 0 (ids start at 1, so the bound must be at least 1)");
  if (w[3] > LD_MAX_BOUND || (uint64_t)w[3] > (uint64_t)nw * LD_BOUND_PER_WORD)
    return ld_errf(c, 3, "id bound %u is absurd for a module of %u words (at most %u ids per word, %u in all)", w[3],
                   nw, LD_BOUND_PER_WORD, LD_MAX_BOUND);
  if (w[4] != 0) return ld_errf(c, 4, "schema word is %u, SPIR-V reserves it as 0", w[4]);
  return true;
}

/* Walk the instruction stream once: every instruction must have a known opcode and a word count
 * the grammar allows, and must end inside the file. Counts the instructions of each kind so the
 * IR arrays can be sized before they are filled. */
static bool scan(ld_ctx *c) {
  uint32_t n = 0;
  for (uint32_t at = 5; at < c->nw;) {
    uint32_t word = c->w[at], wc = word >> 16, op = word & 0xFFFFu;
    const spv_opinfo *info = spv_op_info(op);
    if (wc == 0)
      return ld_errf(c, at, "instruction word count is 0 (opcode %u%s%s)", op, info ? " " : "", info ? info->name : "");
    if (!info) return ld_errf(c, at, "unknown opcode %u (%u words)", op, wc);
    if (wc > c->nw - at)
      return ld_errf(c, at, "truncated: %s has %u words but only %u remain in the file", info->name, wc, c->nw - at);
    /* The generated table derives min_words/variable from the grammar's operand kinds; the
     * LiteralSpecConstantOpInteger operand of OpSpecConstantOp is followed by the wrapped
     * opcode's operands, so that instruction is variable-length (SPIR-V 3.32.7). */
    bool variable = info->variable || op == SpvOpSpecConstantOp;
    if (wc < info->min_words)
      return ld_errf(c, at, "%s has %u words, expects %s%u", info->name, wc, variable ? "at least " : "",
                     (unsigned)info->min_words);
    if (!variable && wc > info->min_words)
      return ld_errf(c, at, "%s has %u words, expects %u", info->name, wc, (unsigned)info->min_words);
    if (ld_types_is_type_opcode(op)) c->max_types++;
    if (ld_const_is_opcode(op)) c->max_consts++;
    switch (op) {
    case SpvOpVariable: c->max_globals++; break;
    case SpvOpFunction: c->max_funcs++; break;
    case SpvOpEntryPoint: c->max_entries++; break;
    case SpvOpDecorate:
    case SpvOpMemberDecorate:
    case SpvOpDecorateId:
    case SpvOpDecorateString:
    case SpvOpMemberDecorateString: c->max_decos++; break;
    case SpvOpCapability: c->max_caps++; break;
    case SpvOpExtension: c->max_exts++; break;
    case SpvOpExtInst: c->max_debug++; break;
    case SpvOpExecutionMode:
    case SpvOpExecutionModeId: c->nexec_modes++; break;
    default: break;
    }
    n++;
    at += wc;
  }
  c->ninsn = n;
  c->insn_at = ld_arena_array(c->tmp, n, sizeof(uint32_t));
  if (!c->insn_at) return ld_oom(c);
  n = 0;
  for (uint32_t at = 5; at < c->nw; at += c->w[at] >> 16) c->insn_at[n++] = at;
  return true;
}

static bool alloc_tables(ld_ctx *c) {
  ld_module *m = c->m;
  m->ids = ld_arena_array(c->arena, m->bound, sizeof(ld_id));
  c->def_at = ld_arena_array(c->tmp, m->bound, sizeof(uint32_t));
  m->types = ld_arena_array(c->arena, c->max_types, sizeof(ld_type));
  m->consts = ld_arena_array(c->arena, c->max_consts, sizeof(ld_const));
  m->globals = ld_arena_array(c->arena, c->max_globals, sizeof(ld_global));
  m->funcs = ld_arena_array(c->arena, c->max_funcs, sizeof(ld_function));
  m->entries = ld_arena_array(c->arena, c->max_entries, sizeof(ld_entry));
  c->entry_at = ld_arena_array(c->tmp, c->max_entries, sizeof(uint32_t));
  m->caps = ld_arena_array(c->arena, c->max_caps, sizeof(uint32_t));
  m->extensions = ld_arena_array(c->arena, c->max_exts, sizeof(const char *));
  m->debug_insns = ld_arena_array(c->arena, c->max_debug, sizeof(ld_insn));
  c->exec_mode_at = ld_arena_array(c->tmp, c->nexec_modes, sizeof(uint32_t));
  if (!m->ids || !c->def_at || !m->types || !m->consts || !m->globals || !m->funcs || !m->entries || !c->entry_at ||
      !m->caps || !m->extensions || !m->debug_insns || !c->exec_mode_at)
    return ld_oom(c);
  c->nexec_modes = 0; /* refilled by pass A */
  return true;
}

/* ---- pass A: declarations that the rest depends on ----------------------------------------- */

static bool pass_a(ld_ctx *c) {
  for (uint32_t i = 0; i < c->ninsn; i++) {
    ld_raw r = ld_raw_at(c, c->insn_at[i]);
    if (!ld_module_is_preamble(r.opcode)) continue;
    if (!ld_module_preamble(c, &r)) return false;
  }
  /* Pointer sizes come from the addressing model (SPIR-V 2.4: exactly one OpMemoryModel). */
  if (!c->m->pointer_bytes) return ld_errf(c, c->nw, "no OpMemoryModel in module (end of module reached)");
  return ld_decor_finish(c);
}

/* ---- pass B: types, constants, variables, functions in module order ------------------------ */

/* Module-scope OpExtInst: only the non-semantic/debug-info sets may appear outside functions
 * (SPIR-V 2.4 logical layout item 9; OpenCL.DebugInfo.100 section 2). They are kept, uninterpreted,
 * in debug_insns. */
static bool module_ext_inst(ld_ctx *c, const ld_raw *r) {
  ld_module *m = c->m;
  uint32_t type = r->w[1], result = r->w[2], set = r->w[3];
  char what[64];
  snprintf(what, sizeof what, "OpExtInst %%%u instruction set", result);
  ld_id *s = ld_ref(c, r, set, what);
  if (!s) return false;
  if (s->kind != LD_ID_EXTINST_SET) return ld_errf(c, r->at, "%s %%%u is not an OpExtInstImport", what, set);
  if (s->index != LD_EXT_DEBUGINFO && s->index != LD_EXT_NONSEMANTIC)
    return ld_errf(c, r->at,
                   "OpExtInst %%%u of an OpenCL.std instruction at module scope "
                   "(only debug-info and non-semantic instructions may appear outside functions)",
                   result);
  snprintf(what, sizeof what, "OpExtInst %%%u result type", result);
  if (!ld_need_type(c, r, type, what)) return false;
  if (!ld_define(c, r, result)) return false;
  if (m->ndebug_insns >= c->max_debug) abort(); /* the scan counted every OpExtInst */
  ld_insn *d = &m->debug_insns[m->ndebug_insns];
  d->opcode = r->opcode;
  d->type = type;
  d->result = result;
  d->ops = r->w + 3;
  d->nops = (uint16_t)(r->nwords - 3);
  d->file = c->module_line_file;
  d->line = c->module_line;
  d->column = c->module_column;
  d->word_offset = r->at;
  m->ids[result].kind = LD_ID_DEBUG;
  m->ids[result].index = m->ndebug_insns++;
  return true;
}

static bool module_line(ld_ctx *c, const ld_raw *r) {
  if (r->opcode == SpvOpNoLine) {
    c->module_line_file = c->module_line = c->module_column = 0;
    return true;
  }
  ld_id *f = ld_ref(c, r, r->w[1], "OpLine file");
  if (!f) return false;
  if (f->kind != LD_ID_STRING) return ld_errf(c, r->at, "OpLine file %%%u is not an OpString", r->w[1]);
  c->module_line_file = r->w[1];
  c->module_line = r->w[2];
  c->module_column = r->w[3];
  return true;
}

static bool pass_b(ld_ctx *c) {
  for (uint32_t i = 0; i < c->ninsn; i++) {
    ld_raw r = ld_raw_at(c, c->insn_at[i]);
    bool ok;
    if (ld_module_is_preamble(r.opcode)) continue; /* pass A */
    if (ld_types_is_type_opcode(r.opcode)) ok = ld_type_insn(c, &r);
    else if (ld_const_is_opcode(r.opcode)) ok = ld_const_insn(c, &r);
    else switch (r.opcode) {
      case SpvOpVariable: ok = ld_global_insn(c, &r); break;
      case SpvOpFunction: ok = ld_func_build(c, &i); break;
      case SpvOpExtInst: ok = module_ext_inst(c, &r); break;
      case SpvOpLine:
      case SpvOpNoLine: ok = module_line(c, &r); break;
      case SpvOpNop: ok = true; break;
      case SpvOpFunctionEnd:
      case SpvOpFunctionParameter:
      case SpvOpLabel: ok = ld_errf(c, r.at, "%s outside a function", r.info->name); break;
      default:
        ok = ld_errf(c, r.at, "%s is not allowed at module scope%s", r.info->name,
                     r.info->has_result ? " (or is not supported by spvi there)" : "");
        break;
      }
    if (!ok) return false;
  }
  return true;
}

/* Every specialization value given must name a SpecId of the module (a typo must not pass
 * silently). */
static bool check_spec_ids(ld_ctx *c) {
  const ld_options *o = c->opt;
  for (uint32_t i = 0; o && i < o->nspecs; i++) {
    bool found = false;
    for (uint32_t k = 0; k < c->m->nconsts && !found; k++) found = c->m->consts[k].spec_id == o->specs[i].id;
    if (!found) return ld_errf(c, LD_NONE, "no specialization constant has SpecId %u", o->specs[i].id);
  }
  return true;
}

/* ---- entry ------------------------------------------------------------------------------- */

ld_module *ld_load(const void *bytes, size_t nbytes, const char *path, const ld_options *opt, char *err,
                   size_t errlen) {
  ld_ctx c;
  memset(&c, 0, sizeof c);
  c.path = path ? path : "<memory>";
  c.opt = opt;
  c.err = err;
  c.errlen = errlen;
  if (err && errlen) err[0] = '\0';
  if (!bytes && nbytes) {
    ld_errf(&c, LD_NONE, "no module data (NULL with %zu bytes)", nbytes);
    return NULL;
  }
  c.arena = ld_arena_new();
  c.tmp = ld_arena_new();
  if (!c.arena || !c.tmp || !(c.m = ld_arena_alloc(c.arena, sizeof(ld_module)))) {
    ld_oom(&c);
    ld_arena_free(c.arena);
    ld_arena_free(c.tmp);
    return NULL;
  }
  c.m->arena = c.arena;
  size_t plen = strlen(c.path);
  char *p = ld_arena_alloc(c.arena, plen + 1);
  if (p) {
    memcpy(p, c.path, plen + 1);
    c.m->path = p;
  }
  bool ok = p ? true : ld_oom(&c);
  ok = ok && read_header(&c, bytes ? bytes : "", nbytes);
  ok = ok && scan(&c);
  ok = ok && ld_validate_start(&c);
  ok = ok && alloc_tables(&c);
  ok = ok && pass_a(&c);
  ok = ok && pass_b(&c);
  ok = ok && ld_ids_check(&c);
  ok = ok && ld_module_finish(&c);
  ok = ok && ld_decor_check_targets(&c);
  ok = ok && check_spec_ids(&c);
  if (ok && opt && opt->meanwhile) opt->meanwhile(c.m, opt->meanwhile_user);
  ok = ld_validate_finish(&c, ok);
  ld_arena_free(c.tmp);
  if (!ok) {
    if (!c.failed) ld_errf(&c, LD_NONE, "internal error: load failed without a message");
    ld_arena_free(c.arena);
    return NULL;
  }
  return c.m;
}

void ld_free(ld_module *m) {
  if (m) ld_arena_free(m->arena);
}
