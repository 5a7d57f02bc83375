/*
 * ld_validate.c — runs the SPIRV-Tools validator on the module (through its C API).
 *
 * Target environment: SPV_ENV_UNIVERSAL_1_x for the module's version 1.x. The OpenCL
 * environments of SPIRV-Tools reject capabilities llvm-spirv-14 routinely declares (e.g.
 * Int64Atomics, GenericPointer under OpenCL 1.2), while the universal environments check the core
 * rules (SPIR-V 2.16 "Validation Rules") the loader and executor depend on; the OpenCL-specific
 * rules spvi needs (env spec "Validation Rules": Kernel execution model, Physical addressing,
 * OpenCL memory model, supported capabilities) are checked by the loader itself.
 *
 * Real compilers emit modules the validator rejects for harmless reasons (llvm-spirv-14 places
 * blocks before their dominators and uses double without the Float64 capability), so by default a
 * validation failure is a warning, "<file>: validation: word N: <message>", and the load goes on:
 * the loader's own structural checks decide whether the module is usable. With opt->strict it is
 * the load error.
 *
 * Debug information. llvm-spirv 14 writes OpenCL.DebugInfo.100 that SPIRV-Tools rejects in every
 * module built with -g (DebugTypeFunction with a DebugInfoNone return type, a DebugTypeMember
 * naming its parent before the parent is defined, DebugTypePointer with storage class 0xFFFFFFFF).
 * Debug-info and NonSemantic.* instructions carry no semantics (SPV_KHR_non_semantic_info: they can
 * be removed without changing the module's meaning; nothing but other such instructions may use
 * their results), so when the module fails, it is validated again without them: if that passes,
 * every error was in the debug information, which the debugger reads entry by entry and drops where
 * it cannot (debug/dbg_sym.c), and the load gives one note instead of a warning (and --strict does
 * not refuse it); if that fails too, its error is a real one and is reported as any other.
 *
 * One rejection is not a defect: module-scope variables in the Function storage class, which
 * clang + llvm-spirv 14/15 emit for private initialisers and spvi runs as private variables
 * (ld_const.c warns). The validator sees a copy in which each is an OpUndef of its pointer type,
 * left out of the OpEntryPoint interface lists (the same ids, types and instruction count, so
 * diagnostics map back), and so still reports any other error, also under opt->strict.
 *
 * Shapes that crash the validator. SPIRV-Tools 2023.1 dereferences a null definition on some
 * invalid modules instead of reporting them: the OpenCL.std vstore_half family asks for the bit width
 * of its Data operand's type before checking that it is a number (ValidateExtInst ->
 * ValidationState_t::GetBitWidth -> GetComponentType, which finds no component type for a pointer,
 * struct or array, nor any type for a label). spvi always validates, so such a module would kill the
 * process. crash_shape() looks for exactly those shapes, on the raw words, before the validator runs
 * (on its thread), and makes each a load error naming the instruction; anything else goes to the
 * validator. Checking first rather than isolating the validator in a child process: the shapes are
 * few and known (every OpenCL.std instruction was tried with pointer, struct, array and label
 * operands, see spec-notes/loader.md), and a process per load would cost every load (the OpenCL
 * platform loads a module per clBuildProgram) and fit badly with a library that may run threads.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <ctype.h>
#include <sched.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* libspirv.h defines (not just declares) `const uint32_t kDefaultMaxIdBound`, which in C is an
 * external definition: two C files including it would not link. Give this file's copy its own
 * name. */
#define kDefaultMaxIdBound ld_validate_kDefaultMaxIdBound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound

#include <spirv/unified1/spirv.h>

#include "ld_internal.h"

int ld_target_env(uint32_t version) {
  switch ((version >> 8) & 0xFFu) {
  case 0: return SPV_ENV_UNIVERSAL_1_0;
  case 1: return SPV_ENV_UNIVERSAL_1_1;
  case 2: return SPV_ENV_UNIVERSAL_1_2;
  case 3: return SPV_ENV_UNIVERSAL_1_3;
  case 4: return SPV_ENV_UNIVERSAL_1_4;
  case 5: return SPV_ENV_UNIVERSAL_1_5;
  default: return SPV_ENV_UNIVERSAL_1_6;
  }
}

/* The validator's text spans several lines (message, then the offending instruction
 * disassembled): fold it into one line, runs of white space around line breaks becoming "; ". */
static void one_line(const char *in, char *out, size_t len) {
  size_t o = 0;
  bool pending = false;
  for (const char *p = in; *p && o + 1 < len; p++) {
    if (*p == '\n' || *p == '\r') {
      pending = o > 0;
      while (o > 0 && out[o - 1] == ' ') o--;
      while (p[1] && isspace((unsigned char)p[1])) p++;
      continue;
    }
    if (pending) {
      if (o + 3 >= len) break;
      out[o++] = ';';
      out[o++] = ' ';
      pending = false;
    }
    out[o++] = *p;
  }
  out[o] = '\0';
}

/* One validator verdict: on the whole module, or on one part of it (ld_valparts.c). */
struct ld_valres {
  bool oom;
  spv_result_t res;
  char msg[768];
  uint32_t at; /* word offset of the diagnostic's instruction, LD_NONE when it names none */
  /* the module failed only in its debug information: the first such error, for the note */
  bool lenient;
  char debug_msg[160];
  uint32_t debug_at;
};

struct ld_valjob {
  bool refused; /* a shape the validator crashes on (crash_shape): r.msg and r.at say which; not run */
  const uint32_t *w;
  uint32_t nw, version;
  const uint32_t *insn_at; /* word offset of every instruction (the scan's) */
  uint32_t ninsn;
  uint32_t nparts; /* parts wanted (ld_valparts.c): 1 validates the module whole */
  pthread_t thread;
  bool threaded;
  const uint8_t *fn_global; /* module-scope Function variables (see the top), NULL when none */
  const ld_valplan *plan;   /* the parts, NULL when whole */
  struct ld_valres r;       /* the verdict */
};

/* One part's validation on its own thread. */
struct ld_valpart {
  struct ld_valjob *j;
  uint32_t part;
  pthread_t thread;
  bool threaded;
  struct ld_valres r;
};

/* Validate words w[0..nw). On failure: the message in msg (one line) and, in *at, the word offset
 * in the loaded module of the instruction it names: at_of[k] for the instruction of ordinal k + 1
 * (for binary input the diagnostic position's index is the instruction's ordinal, counting the
 * header as instruction 0). `first` gets the message's first line alone, when not NULL. */
static spv_result_t run(spv_const_context ctx, spv_validator_options vopt, const uint32_t *w, uint32_t nw,
                        const uint32_t *at_of, uint32_t nat, char *msg, size_t len, uint32_t *at, char *first,
                        size_t flen) {
  spv_const_binary_t bin = {w, nw};
  spv_diagnostic diag = NULL;
  spv_result_t res = spvValidateWithOptions(ctx, vopt, &bin, &diag);
  *at = LD_NONE;
  if (res != SPV_SUCCESS) {
    if (diag && diag->error) one_line(diag->error, msg, len);
    else snprintf(msg, len, "the validator failed with code %d", (int)res);
    const char *text = diag && diag->error ? diag->error : msg;
    if (first) snprintf(first, flen, "%.*s", (int)strcspn(text, "\r\n"), text);
    if (diag && !diag->isTextSource && diag->position.index >= 1 && diag->position.index <= nat)
      *at = at_of[diag->position.index - 1];
  }
  spvDiagnosticDestroy(diag);
  return res;
}

/* Is the instruction at word `at` an OpExtInst of one of the nsets sets in `sets`? */
static bool in_sets(const uint32_t *w, uint32_t at, const uint32_t *sets, uint32_t nsets) {
  if ((w[at] & 0xFFFFu) != SpvOpExtInst || (w[at] >> 16) < 5) return false;
  for (uint32_t i = 0; i < nsets; i++)
    if (w[at + 3] == sets[i]) return true;
  return false;
}

static bool is_function_global(uint32_t op, const uint32_t *insn, uint32_t wc) {
  return op == SpvOpVariable && wc >= 4 && insn[3] == SpvStorageClassFunction;
}

/* The words of the module-scope instruction at w[i] as the validator sees them (see the top): a
 * Function variable becomes an OpUndef, an OpEntryPoint loses them from its interface. */
static uint32_t patch_insn(const uint32_t *w, uint32_t i, uint32_t wc, const uint8_t *fn_global, uint32_t bound,
                           uint32_t *out) {
  const uint32_t op = w[i] & 0xFFFFu;
  if (is_function_global(op, w + i, wc)) {
    out[0] = 3u << 16 | SpvOpUndef; /* OpUndef Result-Type Result-id */
    out[1] = w[i + 1];
    out[2] = w[i + 2];
    return 3;
  }
  if (op != SpvOpEntryPoint || wc < 4) {
    memcpy(out, w + i, wc * sizeof *w);
    return wc;
  }
  uint32_t k = 3; /* the name: a nul-terminated string of words */
  while (k < wc && (w[i + k] >> 24) != 0) k++;
  k = k < wc ? k + 1 : wc;
  memcpy(out, w + i, k * sizeof *w);
  uint32_t o = k;
  for (; k < wc; k++)
    if (w[i + k] >= bound || !fn_global[w[i + k]]) out[o++] = w[i + k];
  out[0] = o << 16 | op;
  return o;
}

/* The ids of the module-scope Function OpVariables (see the top): a map of the id bound in *map,
 * NULL when there are none. False when out of memory. */
static bool function_globals(const struct ld_valjob *j, uint8_t **map) {
  const uint32_t bound = j->nw >= 5 ? j->w[3] : 0;
  *map = NULL;
  for (uint32_t i = 0; i < j->ninsn; i++) {
    const uint32_t *in = j->w + j->insn_at[i], wc = in[0] >> 16, op = in[0] & 0xFFFFu;
    if (op == SpvOpFunction) break;
    if (!is_function_global(op, in, wc) || in[2] >= bound) continue;
    if (!*map && !(*map = calloc(bound, 1))) return false;
    (*map)[in[2]] = 1;
  }
  return true;
}

/* The module (or part `part` of j->plan) as the validator sees it: its module-scope Function
 * variables (j->fn_global) patched (patch_insn) and, when `strip`, without its OpExtInst of
 * debug-info and non-semantic sets: a malloc'd copy in *out (*nout words; NULL when that changes
 * nothing), in *at_of the word offset in the original of each instruction kept, in *nstrip the
 * number of instructions `strip` left out. False when out of memory. */
static bool validator_copy(const struct ld_valjob *j, uint32_t part, bool strip, uint32_t **out, uint32_t *nout,
                           uint32_t **at_of, uint32_t *nat, uint32_t *nstrip) {
  *out = *at_of = NULL;
  *nout = *nat = *nstrip = 0;
  uint32_t nsets = 0, nkeep = 0;
  uint32_t *sets = malloc((j->ninsn + 1) * sizeof *sets);
  if (!sets) return false;
  for (uint32_t i = 0; i < j->ninsn; i++) {
    uint32_t at = j->insn_at[i];
    if (!strip || (j->w[at] & 0xFFFFu) != SpvOpExtInstImport || (j->w[at] >> 16) < 3) continue;
    char name[64];
    ld_import_name(j->w, at, name, sizeof name);
    ld_extset set = ld_module_extset(name);
    if (set == LD_EXT_DEBUGINFO || set == LD_EXT_NONSEMANTIC) sets[nsets++] = j->w[at + 1];
  }
  for (uint32_t i = 0; i < j->ninsn; i++) nkeep += !in_sets(j->w, j->insn_at[i], sets, nsets);
  bool ok = true;
  if (nkeep < j->ninsn || j->fn_global || j->plan) {
    *out = malloc((size_t)j->nw * sizeof **out); /* a copy is never longer than the module */
    *at_of = malloc((nkeep + 1) * sizeof **at_of);
    ok = *out && *at_of;
  }
  if (ok && *out) {
    memcpy(*out, j->w, 5 * sizeof **out);
    uint32_t n = 5, fn = 0;
    bool module_scope = true;
    for (uint32_t i = 0; i < j->ninsn; i++) {
      uint32_t at = j->insn_at[i], wc = j->w[at] >> 16;
      if ((j->w[at] & 0xFFFFu) == SpvOpFunction) {
        module_scope = false;
        fn++;
      }
      if (!module_scope && j->plan && !ld_valplan_holds(j->plan, part, fn - 1)) continue;
      if (in_sets(j->w, at, sets, nsets)) {
        ++*nstrip;
        continue;
      }
      if (!module_scope) {
        memcpy(*out + n, j->w + at, wc * sizeof **out);
      } else {
        if (j->fn_global) wc = patch_insn(j->w, at, wc, j->fn_global, j->w[3], *out + n);
        else memcpy(*out + n, j->w + at, wc * sizeof **out);
        if (j->plan && !(wc = ld_valplan_module_insn(j->plan, part, *out + n))) continue;
      }
      n += wc;
      (*at_of)[(*nat)++] = at;
    }
    *nout = n;
  } else if (ok) {
    *nstrip = j->ninsn - nkeep;
  }
  free(sets);
  if (!ok) {
    free(*out);
    free(*at_of);
    *out = *at_of = NULL;
  }
  return ok;
}

/* The module (or part) again without its debug information, after it failed (see the top of the
 * file). */
static void validate_without_debug(const struct ld_valjob *j, uint32_t part, spv_const_context ctx,
                                   spv_validator_options vopt, const char *first, struct ld_valres *r) {
  uint32_t *w, *at_of, nw, nat, nstrip;
  if (!validator_copy(j, part, true, &w, &nw, &at_of, &nat, &nstrip)) {
    r->oom = true;
    return;
  }
  if (!w || !nstrip) { /* no debug information: the error stands */
    free(w);
    free(at_of);
    return;
  }
  uint32_t debug_at = r->at;
  spv_result_t res = run(ctx, vopt, w, nw, at_of, nat, r->msg, sizeof r->msg, &r->at, NULL, 0);
  if (res == SPV_SUCCESS) {
    r->lenient = true;
    r->debug_at = debug_at;
    snprintf(r->debug_msg, sizeof r->debug_msg, "%s", first);
  }
  r->res = res;
  free(w);
  free(at_of);
}

/* The OpenCL.std operands SPIRV-Tools 2023.1's ValidateExtInst takes the bit width of before checking
 * their type (validate_extensions.cpp: `data_type_bit_width = _.GetBitWidth(data_type)` for the
 * vstore_half family), by instruction and operand (after the set and instruction words). */
static const struct crash_row {
  uint16_t inst;
  uint8_t operand;
} crash_rows[] = {
  {OCLSTD_vstore_half, 0},    {OCLSTD_vstore_half_r, 0}, {OCLSTD_vstore_halfn, 0},
  {OCLSTD_vstore_halfn_r, 0}, {OCLSTD_vstorea_halfn, 0}, {OCLSTD_vstorea_halfn_r, 0},
};

/* The defining instruction's word offset of every id (0: none), for crash_shape; malloc'd. */
static uint32_t *definitions(const struct ld_valjob *j) {
  const uint32_t bound = j->w[3];
  uint32_t *def = calloc(bound, sizeof *def);
  for (uint32_t i = 0; def && i < j->ninsn; i++) {
    const uint32_t at = j->insn_at[i];
    const spv_opinfo *info = spv_op_info(j->w[at] & 0xFFFFu);
    const uint32_t pos = 1u + info->has_type; /* the scan checked the word count */
    if (info->has_result && j->w[at + pos] < bound && !def[j->w[at + pos]]) def[j->w[at + pos]] = at;
  }
  return def;
}

/* Does operand `id` of the OpExtInst at `at` have a type whose bit width the validator can take
 * (an int, float or bool scalar, vector or matrix)? Ids the validator rejects before it gets there
 * (undefined, a type, a function: its id checks run first) count as fine: it reports them. */
static bool has_bit_width(const struct ld_valjob *j, const uint32_t *def, uint32_t id) {
  const uint32_t d = id < j->w[3] ? def[id] : 0;
  if (!d) return true;
  const spv_opinfo *info = spv_op_info(j->w[d] & 0xFFFFu);
  if (info->is_type || info->opcode == SpvOpFunction) return true;
  const uint32_t type = info->has_type ? j->w[d + 1] : 0, td = type < j->w[3] ? def[type] : 0;
  switch (td ? j->w[td] & 0xFFFFu : 0) {
  case SpvOpTypeInt:
  case SpvOpTypeFloat:
  case SpvOpTypeBool:
  case SpvOpTypeVector:
  case SpvOpTypeMatrix: return true;
  default: return false;
  }
}

/* Look for a shape of crash_rows; on finding one, fill j->r.msg and j->r.at and return true. False
 * with j->r.oom when out of memory. */
static bool crash_shape(struct ld_valjob *j) {
  uint32_t *def = NULL;
  bool found = false;
  for (uint32_t i = 0; i < j->ninsn && !found && !j->r.oom; i++) {
    const uint32_t at = j->insn_at[i], wc = j->w[at] >> 16;
    if ((j->w[at] & 0xFFFFu) != SpvOpExtInst || wc < 5) continue;
    for (size_t k = 0; k < sizeof crash_rows / sizeof crash_rows[0] && !found; k++) {
      if (j->w[at + 4] != crash_rows[k].inst || wc <= 5u + crash_rows[k].operand) continue;
      if (!def && !(def = definitions(j))) {
        j->r.oom = true;
        break;
      }
      const uint32_t set = j->w[at + 3], sd = set < j->w[3] ? def[set] : 0;
      char name[64] = "";
      if (sd && (j->w[sd] & 0xFFFFu) == SpvOpExtInstImport) ld_import_name(j->w, sd, name, sizeof name);
      const uint32_t id = j->w[at + 5 + crash_rows[k].operand];
      if (ld_module_extset(name) != LD_EXT_OPENCL_STD || has_bit_width(j, def, id)) continue;
      const char *names = spv_oclstd_operand_names(crash_rows[k].inst);
      snprintf(j->r.msg, sizeof j->r.msg,
               "OpExtInst %%%u %s: operand '%.*s' %%%u is not a number (an int, float or bool scalar or vector): "
               "refused before validation, as SPIRV-Tools 2023.1's validator crashes on it",
               j->w[at + 2], spv_oclstd_name(crash_rows[k].inst), (int)strcspn(names, "|"), names, id);
      j->r.at = at;
      found = true;
    }
  }
  free(def);
  return found;
}

/* Validate part `part` of the module (the whole module when j->plan is NULL) into *r. */
static void validate_one(const struct ld_valjob *j, uint32_t part, struct ld_valres *r) {
  spv_context ctx = spvContextCreate((spv_target_env)ld_target_env(j->version));
  spv_validator_options vopt = spvValidatorOptionsCreate();
  if (!ctx || !vopt) {
    if (ctx) spvContextDestroy(ctx);
    if (vopt) spvValidatorOptionsDestroy(vopt);
    r->oom = true;
    return;
  }
  /* Friendly names (OpName-based ids in messages) cost a name map over the whole module — most of
   * the validator's time on large modules; spvi's own messages name ids and opcodes anyway. */
  spvValidatorOptionsSetFriendlyNames(vopt, false);
  char first[160];
  uint32_t *w = NULL, *at_of = NULL, nw = 0, nat = 0, nstrip;
  if (!validator_copy(j, part, false, &w, &nw, &at_of, &nat, &nstrip)) {
    r->oom = true;
  } else {
    r->res = w ? run(ctx, vopt, w, nw, at_of, nat, r->msg, sizeof r->msg, &r->at, first, sizeof first)
               : run(ctx, vopt, j->w, j->nw, j->insn_at, j->ninsn, r->msg, sizeof r->msg, &r->at, first, sizeof first);
    if (r->res != SPV_SUCCESS) validate_without_debug(j, part, ctx, vopt, first, r);
  }
  free(w);
  free(at_of);
  spvValidatorOptionsDestroy(vopt);
  spvContextDestroy(ctx);
}

static void *part_main(void *arg) {
  struct ld_valpart *p = arg;
  validate_one(p->j, p->part, &p->r);
  return NULL;
}

/* The parts' verdicts as one: the first error by word offset (the parts run in any order: the
 * choice must not depend on it); else the first debug-information error by word offset. */
static void combine(struct ld_valjob *j, const struct ld_valpart *ps, uint32_t n) {
  const struct ld_valres *err = NULL, *lenient = NULL;
  for (uint32_t k = 0; k < n; k++) {
    const struct ld_valres *r = &ps[k].r;
    if (r->oom) {
      j->r.oom = true;
      return;
    }
    if (r->res != SPV_SUCCESS && (!err || r->at < err->at)) err = r;
    if (r->res == SPV_SUCCESS && r->lenient && (!lenient || r->debug_at < lenient->debug_at)) lenient = r;
  }
  j->r = err ? *err : lenient ? *lenient : ps[0].r;
}

/* Validate the module in j->plan's parts, one thread each (the last on this one). */
static void validate_parts(struct ld_valjob *j) {
  const uint32_t n = ld_valplan_parts(j->plan);
  struct ld_valpart *ps = calloc(n, sizeof *ps);
  if (!ps) {
    j->r.oom = true;
    return;
  }
  for (uint32_t k = 0; k < n; k++) {
    ps[k].j = j;
    ps[k].part = k;
    ps[k].threaded = k + 1 < n && pthread_create(&ps[k].thread, NULL, part_main, &ps[k]) == 0;
  }
  for (uint32_t k = 0; k < n; k++)
    if (!ps[k].threaded) part_main(&ps[k]);
  for (uint32_t k = 0; k < n; k++)
    if (ps[k].threaded) pthread_join(ps[k].thread, NULL);
  combine(j, ps, n);
  free(ps);
}

static void *validate_main(void *arg) {
  struct ld_valjob *j = arg;
  if ((j->refused = crash_shape(j)) || j->r.oom) return NULL;
  uint8_t *fn_global = NULL;
  ld_valplan *plan = NULL;
  bool oom = !function_globals(j, &fn_global);
  if (!oom) plan = ld_valplan_new(j->w, j->nw, j->insn_at, j->ninsn, j->nparts, &oom);
  j->fn_global = fn_global;
  j->plan = plan;
  if (oom) j->r.oom = true;
  else if (plan) validate_parts(j);
  else validate_one(j, 0, &j->r);
  ld_valplan_free(plan);
  free(fn_global);
  j->plan = NULL;
  j->fn_global = NULL;
  return NULL;
}

/* The cores this process may run on (its affinity mask: `taskset -c 0` means one), at least 1. */
static uint32_t ld_usable_cores(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return (uint32_t)CPU_COUNT(&set);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 1 ? (uint32_t)n : 1;
}

/* How many parts to validate in (ld_valparts.c): SPVI_VALIDATE_PARTS when set (1 to 64: tests and
 * measurements), else one per core the process may use (at most 8) for modules of at least
 * 128 KiB, below which a thread costs more than it saves. */
static uint32_t parts_wanted(const ld_ctx *c) {
  const char *e = getenv("SPVI_VALIDATE_PARTS");
  if (e && *e) {
    char *end;
    long v = strtol(e, &end, 10);
    if (!*end && v >= 1 && v <= 64) return (uint32_t)v;
  }
  if (c->nw < (128u << 10) / 4) return 1;
  const uint32_t cores = ld_usable_cores();
  return cores > 8 ? 8 : cores;
}

bool ld_validate_start(ld_ctx *c) {
  struct ld_valjob *j = ld_arena_alloc(c->tmp, sizeof *j);
  if (!j) return ld_oom(c);
  memset(j, 0, sizeof *j);
  j->w = c->w;
  j->nw = c->nw;
  j->version = c->m->version;
  j->insn_at = c->insn_at;
  j->ninsn = c->ninsn;
  j->nparts = parts_wanted(c);
  c->val = j;
  j->threaded = pthread_create(&j->thread, NULL, validate_main, j) == 0;
  if (!j->threaded) validate_main(j);
  return true;
}

/* The generator magic number of the Khronos LLVM/SPIR-V Translator (llvm-spirv), in the high half of
 * header word 2 (SPIR-V 2.3; the registry is spir-v.xml). */
#define LD_GENERATOR_LLVM_SPIRV 6u

bool ld_validate_finish(ld_ctx *c, bool ok) {
  struct ld_valjob *j = c->val;
  if (!j) return ok;
  if (j->threaded) pthread_join(j->thread, NULL);
  c->val = NULL;
  if (j->r.oom) return ld_oom(c);
  if (j->refused) return ld_errf(c, j->r.at, "%s", j->r.msg);
  if (j->r.res == SPV_SUCCESS) {
    if (j->r.lenient && ok) {
      char where[32] = "";
      if (j->r.debug_at != LD_NONE) snprintf(where, sizeof where, "word %u: ", j->r.debug_at);
      ld_notef(c,
               "the validator rejects the debug information (%s%s)%s; it is read leniently, and the rest of the "
               "module validates",
               where, j->r.debug_msg,
               c->m->generator >> 16 == LD_GENERATOR_LLVM_SPIRV ? ", a known defect of llvm-spirv's output" : "");
    }
    return ok;
  }
  uint32_t at = j->r.at;
  if (c->opt && c->opt->strict) {
    /* the validator's verdict is the load's error, whatever else went wrong */
    c->failed = false;
    if (c->err && c->errlen) c->err[0] = '\0';
    if (at != LD_NONE) return ld_errf(c, LD_NONE, "validation: word %u: %s", at, j->r.msg);
    return ld_errf(c, LD_NONE, "validation: %s", j->r.msg);
  }
  if (at != LD_NONE) ld_warnf(c, "validation: word %u: %s", at, j->r.msg);
  else ld_warnf(c, "validation: %s", j->r.msg);
  return ok;
}
