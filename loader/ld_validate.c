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
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* libspirv.h defines (not just declares) `const uint32_t kDefaultMaxIdBound`, which in C is an
 * external definition: two C files including it would not link. Give this file's copy its own
 * name. */
#define kDefaultMaxIdBound ld_validate_kDefaultMaxIdBound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound

#include "ld_internal.h"

static spv_target_env env_for(uint32_t version) {
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

bool ld_validate(ld_ctx *c) {
  spv_context ctx = spvContextCreate(env_for(c->m->version));
  spv_validator_options vopt = spvValidatorOptionsCreate();
  if (!ctx || !vopt) {
    if (ctx) spvContextDestroy(ctx);
    if (vopt) spvValidatorOptionsDestroy(vopt);
    return ld_oom(c);
  }
  spv_const_binary_t bin = {c->w, c->nw};
  spv_diagnostic diag = NULL;
  spv_result_t res = spvValidateWithOptions(ctx, vopt, &bin, &diag);
  char msg[768] = "";
  uint32_t at = LD_NONE;
  if (res != SPV_SUCCESS) {
    if (diag && diag->error) one_line(diag->error, msg, sizeof msg);
    else snprintf(msg, sizeof msg, "the validator failed with code %d", (int)res);
    /* For binary input the diagnostic position's index is the instruction's ordinal, counting the
     * header as instruction 0 (so the first instruction is 1). */
    if (diag && !diag->isTextSource && diag->position.index >= 1 && diag->position.index <= c->ninsn)
      at = c->insn_at[diag->position.index - 1];
  }
  spvDiagnosticDestroy(diag);
  spvValidatorOptionsDestroy(vopt);
  spvContextDestroy(ctx);
  if (res == SPV_SUCCESS) return true;
  if (c->opt && c->opt->strict) {
    if (at != LD_NONE) return ld_errf(c, LD_NONE, "validation: word %u: %s", at, msg);
    return ld_errf(c, LD_NONE, "validation: %s", msg);
  }
  if (at != LD_NONE) ld_warnf(c, "validation: word %u: %s", at, msg);
  else ld_warnf(c, "validation: %s", msg);
  return true;
}
