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
 * One rejection is not a defect: module-scope variables in the Function storage class, which
 * clang + llvm-spirv 14/15 emit for private initialisers and spvi runs as private variables
 * (ld_const.c warns). The validator sees a copy in which each is an OpUndef of its pointer type,
 * left out of the OpEntryPoint interface lists (the same ids, types and instruction count, so
 * diagnostics map back), and so still reports any other error, also under opt->strict.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

/* libspirv.h defines (not just declares) `const uint32_t kDefaultMaxIdBound`, which in C is an
 * external definition: two C files including it would not link. Give this file's copy its own
 * name. */
#define kDefaultMaxIdBound ld_validate_kDefaultMaxIdBound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound

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

struct ld_valjob {
  const uint32_t *w;
  uint32_t nw, version;
  pthread_t thread;
  bool threaded;
  bool oom;
  spv_result_t res;
  char msg[768];
  size_t index; /* the diagnostic's instruction ordinal (header = 0), 0 when none */
};

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

/* A copy of the module whose module-scope Function OpVariables are OpUndefs (see the top), or NULL
 * when it has none (or no memory: the original is then validated and reports them). */
static uint32_t *without_function_globals(const uint32_t *w, uint32_t nw, uint32_t *out_nw) {
  const uint32_t bound = nw >= 5 ? w[3] : 0;
  uint8_t *fn_global = NULL;
  uint32_t i = 5, n = 0;
  for (; i < nw; i += w[i] >> 16) {
    const uint32_t wc = w[i] >> 16, op = w[i] & 0xFFFFu;
    if (wc == 0 || wc > nw - i || op == SpvOpFunction) break;
    if (!is_function_global(op, w + i, wc) || w[i + 2] >= bound) continue;
    if (!fn_global && !(fn_global = calloc(bound, 1))) return NULL;
    fn_global[w[i + 2]] = 1;
    n++;
  }
  uint32_t *copy = n ? malloc(nw * sizeof *copy) : NULL;
  if (!copy) {
    free(fn_global);
    return NULL;
  }
  memcpy(copy, w, 5 * sizeof *w);
  uint32_t o = 5;
  for (i = 5; i < nw;) {
    const uint32_t wc = w[i] >> 16;
    if (wc == 0 || wc > nw - i || (w[i] & 0xFFFFu) == SpvOpFunction) break;
    o += patch_insn(w, i, wc, fn_global, bound, copy + o);
    i += wc;
  }
  free(fn_global);
  memcpy(copy + o, w + i, (nw - i) * sizeof *w);
  *out_nw = o + (nw - i);
  return copy;
}

static void *validate_main(void *arg) {
  struct ld_valjob *j = arg;
  spv_context ctx = spvContextCreate((spv_target_env)ld_target_env(j->version));
  spv_validator_options vopt = spvValidatorOptionsCreate();
  if (!ctx || !vopt) {
    if (ctx) spvContextDestroy(ctx);
    if (vopt) spvValidatorOptionsDestroy(vopt);
    j->oom = true;
    return NULL;
  }
  /* Friendly names (OpName-based ids in messages) cost a name map over the whole module — most of
   * the validator's time on large modules; spvi's own messages name ids and opcodes anyway. */
  spvValidatorOptionsSetFriendlyNames(vopt, false);
  uint32_t pnw = 0;
  uint32_t *patched = without_function_globals(j->w, j->nw, &pnw);
  spv_const_binary_t bin = {patched ? patched : j->w, patched ? pnw : j->nw};
  spv_diagnostic diag = NULL;
  j->res = spvValidateWithOptions(ctx, vopt, &bin, &diag);
  free(patched);
  if (j->res != SPV_SUCCESS) {
    if (diag && diag->error) one_line(diag->error, j->msg, sizeof j->msg);
    else snprintf(j->msg, sizeof j->msg, "the validator failed with code %d", (int)j->res);
    /* For binary input the diagnostic position's index is the instruction's ordinal, counting the
     * header as instruction 0 (so the first instruction is 1). */
    if (diag && !diag->isTextSource) j->index = diag->position.index;
  }
  spvDiagnosticDestroy(diag);
  spvValidatorOptionsDestroy(vopt);
  spvContextDestroy(ctx);
  return NULL;
}

bool ld_validate_start(ld_ctx *c) {
  struct ld_valjob *j = ld_arena_alloc(c->tmp, sizeof *j);
  if (!j) return ld_oom(c);
  memset(j, 0, sizeof *j);
  j->w = c->w;
  j->nw = c->nw;
  j->version = c->m->version;
  c->val = j;
  j->threaded = pthread_create(&j->thread, NULL, validate_main, j) == 0;
  if (!j->threaded) validate_main(j);
  return true;
}

bool ld_validate_finish(ld_ctx *c, bool ok) {
  struct ld_valjob *j = c->val;
  if (!j) return ok;
  if (j->threaded) pthread_join(j->thread, NULL);
  c->val = NULL;
  if (j->oom) return ld_oom(c);
  if (j->res == SPV_SUCCESS) return ok;
  uint32_t at = j->index >= 1 && j->index <= c->ninsn ? c->insn_at[j->index - 1] : LD_NONE;
  if (c->opt && c->opt->strict) {
    /* the validator's verdict is the load's error, whatever else went wrong */
    c->failed = false;
    if (c->err && c->errlen) c->err[0] = '\0';
    if (at != LD_NONE) return ld_errf(c, LD_NONE, "validation: word %u: %s", at, j->msg);
    return ld_errf(c, LD_NONE, "validation: %s", j->msg);
  }
  if (at != LD_NONE) ld_warnf(c, "validation: word %u: %s", at, j->msg);
  else ld_warnf(c, "validation: %s", j->msg);
  return ok;
}
