/*
 * ld_module.c — module-level declarations: capabilities (and which spvi supports), extensions,
 * extended instruction set imports, the memory model, OpString/OpName/OpSource, entry points and
 * execution modes.
 *
 * SPIR-V 2.4 (logical layout) puts these before types and functions; the loader reads them in a
 * first pass wherever they are (pass A in ld_load.c), so that types, constants and functions can
 * rely on the addressing model, strings and names. Entry points refer to functions and execution
 * modes may refer to constants, so both are resolved last (ld_module_finish).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ld_internal.h"

/* Capabilities spvi executes. The OpenCL SPIR-V environment (required_capabilities, "SPIR-V 1.0")
 * requires Addresses, Float16Buffer, Int16, Int8, Kernel, Linkage, Vector16 and, per device
 * feature, Int64, Float64, GenericPointer and Groups; Float16 and Int64Atomics come with
 * cl_khr_fp16 and cl_khr_int64_{base,extended}_atomics. Images: ImageBasic, with ImageReadWrite
 * (read_write images), LiteralSampler (OpConstantSampler), Image1D/Sampled1D and
 * ImageBuffer/SampledBuffer (1D and buffer images) and ImageQuery (size queries). Sub-groups:
 * the GroupNonUniform* family, SubgroupShuffleINTEL and NamedBarrier; SubgroupDispatch is accepted
 * for its execution modes (its device-enqueue queries are refused per instruction). Pipes,
 * DeviceEnqueue and ImageMipmap are device features spvi does not implement, so a module declaring
 * them is refused at load time rather than failing half-way through a run. ExpectAssumeKHR
 * (SPV_KHR_expect_assume, cl_khr_expect_assume): OpExpectKHR and OpAssumeTrueKHR, which
 * ex_prep_comp.c and ex_prep_ctrl.c translate. UniformDecoration (SPIR-V 1.6, 2.16.2): the
 * Uniform/UniformId decorations are hints that a value is the same for the work-items of a scope;
 * spvi's results do not depend on them, so they are kept and not acted upon. */
static const uint32_t supported_caps[] = {
  SpvCapabilityAddresses,
  SpvCapabilityLinkage,
  SpvCapabilityKernel,
  SpvCapabilityVector16,
  SpvCapabilityFloat16Buffer,
  SpvCapabilityFloat16,
  SpvCapabilityFloat64,
  SpvCapabilityInt64,
  SpvCapabilityInt16,
  SpvCapabilityInt8,
  SpvCapabilityGenericPointer,
  SpvCapabilityInt64Atomics,
  SpvCapabilityGroups,
  SpvCapabilitySubgroupDispatch,
  SpvCapabilityNamedBarrier,
  SpvCapabilityGroupNonUniform,
  SpvCapabilityGroupNonUniformVote,
  SpvCapabilityGroupNonUniformArithmetic,
  SpvCapabilityGroupNonUniformBallot,
  SpvCapabilityGroupNonUniformShuffle,
  SpvCapabilityGroupNonUniformShuffleRelative,
  SpvCapabilityGroupNonUniformClustered,
  SpvCapabilitySubgroupShuffleINTEL,
  SpvCapabilityImageBasic,
  SpvCapabilityImageReadWrite,
  SpvCapabilityLiteralSampler,
  SpvCapabilityImage1D,
  SpvCapabilitySampled1D,
  SpvCapabilityImageBuffer,
  SpvCapabilitySampledBuffer,
  SpvCapabilityImageQuery,
  SpvCapabilityExpectAssumeKHR,
  SpvCapabilityUniformDecoration,
};


/* Extended instruction sets (OpExtInstImport). OpenCL.std is the set every OpenCL environment
 * supports (env spec "Extended Instruction Sets"); OpenCL.DebugInfo.100 and NonSemantic.* sets
 * carry no semantics spvi must implement (SPV_KHR_non_semantic_info: instructions of a
 * "NonSemantic." set can be removed without changing the module's meaning; the debug-info set
 * describes source only), so their instructions are kept but not executed. */
static const struct {
  const char *name;
  bool prefix;
  ld_extset set;
} ext_sets[] = {
  {"OpenCL.std", false, LD_EXT_OPENCL_STD},
  {"OpenCL.DebugInfo.100", false, LD_EXT_DEBUGINFO},
  {"NonSemantic.", true, LD_EXT_NONSEMANTIC},
};

ld_extset ld_module_extset(const char *name) {
  for (size_t i = 0; i < sizeof ext_sets / sizeof ext_sets[0]; i++) {
    bool match = ext_sets[i].prefix ? strncmp(name, ext_sets[i].name, strlen(ext_sets[i].name)) == 0
                                    : strcmp(name, ext_sets[i].name) == 0;
    if (match) return ext_sets[i].set;
  }
  return LD_EXT_OTHER;
}

/* The opcodes pass A handles (a switch: the loader asks for every instruction). */
bool ld_module_is_preamble(uint32_t opcode) {
  switch (opcode) {
  case SpvOpCapability:
  case SpvOpExtension:
  case SpvOpExtInstImport:
  case SpvOpMemoryModel:
  case SpvOpEntryPoint:
  case SpvOpExecutionMode:
  case SpvOpExecutionModeId:
  case SpvOpString:
  case SpvOpSource:
  case SpvOpSourceContinued:
  case SpvOpSourceExtension:
  case SpvOpName:
  case SpvOpMemberName:
  case SpvOpModuleProcessed:
  case SpvOpDecorate:
  case SpvOpMemberDecorate:
  case SpvOpDecorationGroup:
  case SpvOpGroupDecorate:
  case SpvOpGroupMemberDecorate:
  case SpvOpDecorateId:
  case SpvOpDecorateString:
  case SpvOpMemberDecorateString: return true;
  default: return false;
  }
}

static bool capability(ld_ctx *c, const ld_raw *r) {
  ld_module *m = c->m;
  uint32_t cap = r->w[1];
  const char *name = spv_capability_name(cap);
  if (!name) return ld_errf(c, r->at, "unknown capability %u", cap);
  bool ok = false;
  for (size_t i = 0; i < sizeof supported_caps / sizeof supported_caps[0]; i++)
    if (supported_caps[i] == cap) ok = true;
  if (!ok) return ld_errf(c, r->at, "capability %s is not supported", name);
  for (uint32_t i = 0; i < m->ncaps; i++)
    if (m->caps[i] == cap) return true; /* declared twice: harmless */
  m->caps[m->ncaps++] = cap;
  return true;
}

static bool ext_inst_import(ld_ctx *c, const ld_raw *r) {
  const char *name;
  if (!ld_string(c, r, 2, &name, NULL)) return false;
  uint32_t id = r->w[1];
  if (!ld_define(c, r, id)) return false;
  ld_extset set = ld_module_extset(name);
  if (set != LD_EXT_OTHER) {
    c->m->ids[id].kind = LD_ID_EXTINST_SET;
    c->m->ids[id].index = set;
    return true;
  }
  char q[80];
  return ld_errf(c, r->at,
                 "extended instruction set \"%s\" (%%%u) is not supported "
                 "(OpenCL.std, OpenCL.DebugInfo.100 and NonSemantic.* are)",
                 ld_quote(name, q, sizeof q), id);
}

/* Env spec "Validation Rules": the addressing model is Physical32 or Physical64 and the memory
 * model OpenCL. Logical addressing has no pointer size, so kernels cannot use it. */
static bool memory_model(ld_ctx *c, const ld_raw *r) {
  ld_module *m = c->m;
  if (m->pointer_bytes) return ld_errf(c, r->at, "second OpMemoryModel (a module has exactly one)");
  uint32_t am = r->w[1], mm = r->w[2];
  const char *an = spv_addressing_model_name(am);
  if (am == SpvAddressingModelPhysical32) m->pointer_bytes = 4;
  else if (am == SpvAddressingModelPhysical64) m->pointer_bytes = 8;
  else if (an)
    return ld_errf(c, r->at, "addressing model %s is not supported (OpenCL kernels use Physical32 or Physical64)", an);
  else return ld_errf(c, r->at, "unknown addressing model %u", am);
  if (mm != SpvMemoryModelOpenCL)
    return ld_errf(c, r->at, "memory model %u is not supported (OpenCL kernels use the OpenCL memory model, %u)", mm,
                   (unsigned)SpvMemoryModelOpenCL);
  m->addressing = am;
  m->memory_model = mm;
  return true;
}

static bool entry_point(ld_ctx *c, const ld_raw *r) {
  ld_module *m = c->m;
  uint32_t model = r->w[1], func = r->w[2], nw;
  const char *name;
  if (!ld_string(c, r, 3, &name, &nw)) return false;
  /* Env spec "Validation Rules": the execution model of OpEntryPoint must be Kernel. */
  if (model != SpvExecutionModelKernel) {
    char q[80];
    return ld_errf(c, r->at,
                   "OpEntryPoint \"%s\": execution model %u is not supported "
                   "(OpenCL kernels use Kernel, %u)",
                   ld_quote(name, q, sizeof q), model, (unsigned)SpvExecutionModelKernel);
  }
  if (!ld_ref(c, r, func, "OpEntryPoint function")) return false;
  ld_entry *e = &m->entries[m->nentries];
  c->entry_at[m->nentries++] = r->at;
  e->func = func;
  e->model = model;
  e->name = name;
  e->interface = r->w + 3 + nw;
  e->ninterface = r->nwords - 3 - nw;
  return true;
}

static bool preamble_string(ld_ctx *c, const ld_raw *r) {
  const char *s;
  if (!ld_string(c, r, 2, &s, NULL)) return false;
  if (!ld_define(c, r, r->w[1])) return false;
  c->m->ids[r->w[1]].kind = LD_ID_STRING;
  c->m->ids[r->w[1]].name = s;
  return true;
}

static bool preamble_name(ld_ctx *c, const ld_raw *r) {
  const char *s;
  if (!ld_ref(c, r, r->w[1], "OpName target")) return false;
  if (!ld_string(c, r, 2, &s, NULL)) return false;
  if (c->m->ids[r->w[1]].kind != LD_ID_STRING) c->m->ids[r->w[1]].name = s;
  return true;
}

static bool extension(ld_ctx *c, const ld_raw *r) {
  const char *s;
  if (!ld_string(c, r, 1, &s, NULL)) return false;
  c->m->extensions[c->m->nextensions++] = s;
  return true;
}

/* OpSource language version [file] [source]: informational (env spec "Source Language
 * Encoding"); the first one is recorded. The optional file operand must be an OpString, but
 * strings may follow in the same section, so it is only range-checked here. */
static bool source(ld_ctx *c, const ld_raw *r) {
  if (r->nwords >= 4 && !ld_ref(c, r, r->w[3], "OpSource file")) return false;
  if (c->m->source_language == 0 && c->m->source_version == 0) {
    c->m->source_language = r->w[1];
    c->m->source_version = r->w[2];
  }
  return true;
}

bool ld_module_preamble(ld_ctx *c, const ld_raw *r) {
  switch (r->opcode) {
  case SpvOpCapability: return capability(c, r);
  case SpvOpExtension: return extension(c, r);
  case SpvOpExtInstImport: return ext_inst_import(c, r);
  case SpvOpMemoryModel: return memory_model(c, r);
  case SpvOpEntryPoint: return entry_point(c, r);
  case SpvOpExecutionMode:
  case SpvOpExecutionModeId:
    c->exec_mode_at[c->nexec_modes++] = r->at;
    return ld_ref(c, r, r->w[1], "OpExecutionMode entry point") != NULL;
  case SpvOpString: return preamble_string(c, r);
  case SpvOpSource: return source(c, r);
  case SpvOpName: return preamble_name(c, r);
  case SpvOpMemberName: return ld_ref(c, r, r->w[1], "OpMemberName target") != NULL;
  case SpvOpSourceContinued:
  case SpvOpSourceExtension:
  case SpvOpModuleProcessed: return true; /* informational only (SPIR-V 3.32.2) */
  default: return ld_decor_collect(c, r);
  }
}

/* ---- after the functions: entry points and execution modes --------------------------------- */

/* The three work-group size operands of LocalSize/LocalSizeHint (literals) or their *Id forms
 * (constant ids, SPIR-V 1.2). OpenCL's reqd_work_group_size and work_group_size_hint need sizes of
 * at least 1. */
static bool mode_sizes(ld_ctx *c, const ld_raw *r, const char *mode, bool ids, uint32_t out[3]) {
  if (r->nwords != 6)
    return ld_errf(c, r->at, "%s %s has %u operand words, expects 3", r->info->name, mode, (unsigned)r->nwords - 3);
  for (int k = 0; k < 3; k++) {
    uint64_t v = r->w[3 + k];
    if (ids) {
      char what[64];
      snprintf(what, sizeof what, "%s %s operand %d", r->info->name, mode, k + 1);
      if (!ld_const_uint(c, r, r->w[3 + k], what, &v)) return false;
    }
    if (v == 0 || v > UINT32_MAX)
      return ld_errf(c, r->at, "%s %s size %d is %llu (must be 1 to %u)", r->info->name, mode, k + 1,
                     (unsigned long long)v, UINT32_MAX);
    out[k] = (uint32_t)v;
  }
  return true;
}

/* Entry indices sorted by function id, for execution mode lookups. */
typedef struct entry_key {
  const char *name;
  uint32_t func, index;
} entry_key;

static int cmp_by_func(const void *a, const void *b) {
  const entry_key *x = a, *y = b;
  if (x->func != y->func) return x->func < y->func ? -1 : 1;
  return x->index < y->index ? -1 : (x->index > y->index);
}

static int cmp_by_name(const void *a, const void *b) {
  const entry_key *x = a, *y = b;
  int d = strcmp(x->name, y->name);
  if (d) return d;
  return x->index < y->index ? -1 : (x->index > y->index);
}

static bool exec_mode(ld_ctx *c, const ld_raw *r, const entry_key *by_func) {
  ld_module *m = c->m;
  uint32_t func = r->w[1], mode = r->w[2];
  bool any = false;
  const char *mname = spv_execution_mode_name(mode);
  if (!mname) return ld_errf(c, r->at, "%s: unknown execution mode %u", r->info->name, mode);
  bool id_form = r->opcode == SpvOpExecutionModeId;
  uint32_t sizes[3] = {0, 0, 0};
  switch (mode) {
  case SpvExecutionModeLocalSize:
  case SpvExecutionModeLocalSizeHint:
    if (id_form) return ld_errf(c, r->at, "%s takes literal operands, not OpExecutionModeId", mname);
    if (!mode_sizes(c, r, mname, false, sizes)) return false;
    break;
  case SpvExecutionModeLocalSizeId:
  case SpvExecutionModeLocalSizeHintId:
    if (!id_form) return ld_errf(c, r->at, "%s takes id operands (OpExecutionModeId)", mname);
    if (!mode_sizes(c, r, mname, true, sizes)) return false;
    break;
  case SpvExecutionModeVecTypeHint:
    if (r->nwords != 4)
      return ld_errf(c, r->at, "VecTypeHint has %u operand words, expects 1", (unsigned)r->nwords - 3);
    break;
  case SpvExecutionModeContractionOff:
    if (r->nwords != 3)
      return ld_errf(c, r->at, "ContractionOff has %u operand words, expects none", (unsigned)r->nwords - 3);
    break;
  case SpvExecutionModeSubgroupSize:
  case SpvExecutionModeSubgroupsPerWorkgroup:
  case SpvExecutionModeSubgroupsPerWorkgroupId: {
    /* SPIR-V 3.6: one literal (or, for SubgroupsPerWorkgroupId, one constant id), at least 1 */
    bool want_id = mode == SpvExecutionModeSubgroupsPerWorkgroupId;
    if (want_id != id_form)
      return ld_errf(c, r->at, "%s takes %s operand (%s)", mname, want_id ? "an id" : "a literal",
                     want_id ? "OpExecutionModeId" : "OpExecutionMode");
    if (r->nwords != 4) return ld_errf(c, r->at, "%s has %u operand words, expects 1", mname, (unsigned)r->nwords - 3);
    uint64_t v = r->w[3];
    if (want_id && !ld_const_uint(c, r, r->w[3], "SubgroupsPerWorkgroupId operand", &v)) return false;
    if (v == 0 || v > UINT32_MAX)
      return ld_errf(c, r->at, "%s is %llu (must be 1 to %u)", mname, (unsigned long long)v, UINT32_MAX);
    sizes[0] = (uint32_t)v;
    break;
  }
  default: break; /* other modes carry nothing spvi uses */
  }
  uint32_t lo = 0, hi = m->nentries;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (by_func[mid].func < func) lo = mid + 1;
    else hi = mid;
  }
  for (uint32_t i = lo; i < m->nentries && by_func[i].func == func; i++) {
    ld_entry *e = &m->entries[by_func[i].index];
    any = true;
    switch (mode) {
    case SpvExecutionModeLocalSize:
    case SpvExecutionModeLocalSizeId: memcpy(e->reqd_local, sizes, sizeof sizes); break;
    case SpvExecutionModeLocalSizeHint:
    case SpvExecutionModeLocalSizeHintId: memcpy(e->local_hint, sizes, sizeof sizes); break;
    case SpvExecutionModeVecTypeHint: e->vec_type_hint = r->w[3]; break;
    case SpvExecutionModeContractionOff: e->contraction_off = true; break;
    case SpvExecutionModeSubgroupSize: e->subgroup_size = sizes[0]; break;
    case SpvExecutionModeSubgroupsPerWorkgroup:
    case SpvExecutionModeSubgroupsPerWorkgroupId: e->subgroups_per_wg = sizes[0]; break;
    default: break;
    }
  }
  if (!any) return ld_errf(c, r->at, "%s %s: %%%u is not the function of an OpEntryPoint", r->info->name, mname, func);
  return true;
}

bool ld_module_finish(ld_ctx *c) {
  ld_module *m = c->m;
  for (uint32_t i = 0; i < m->nentries; i++) {
    ld_entry *e = &m->entries[i];
    ld_raw r = ld_raw_at(c, c->entry_at[i]);
    const ld_id *f = &m->ids[e->func];
    char q[80];
    const char *name = ld_quote(e->name, q, sizeof q);
    if (f->kind != LD_ID_FUNCTION)
      return ld_errf(c, r.at, "OpEntryPoint \"%s\": %%%u is not a function", name, e->func);
    const ld_function *fn = &m->funcs[f->index];
    if (fn->is_import)
      return ld_errf(c, r.at, "OpEntryPoint \"%s\": function %%%u is an import without a body", name, e->func);
    const ld_type *rt = ld_type_of(m, fn->ret_type);
    /* Env spec "Kernel Return Types": the result type of a kernel is OpTypeVoid. */
    if (!rt || rt->kind != LD_TY_VOID)
      return ld_errf(c, r.at, "OpEntryPoint \"%s\": kernel function %%%u does not return void", name, e->func);
    for (uint32_t k = 0; k < e->ninterface; k++) {
      const ld_id *v = ld_ref(c, &r, e->interface[k], "OpEntryPoint interface");
      if (!v) return false;
      if (v->kind != LD_ID_GLOBAL)
        return ld_errf(c, r.at, "OpEntryPoint \"%s\": interface %%%u is not a module-scope OpVariable", name,
                       e->interface[k]);
    }
  }
  entry_key *keys = ld_arena_array(c->tmp, m->nentries, sizeof(entry_key));
  if (!keys) return ld_oom(c);
  for (uint32_t i = 0; i < m->nentries; i++) {
    keys[i].name = m->entries[i].name;
    keys[i].func = m->entries[i].func;
    keys[i].index = i;
  }
  /* Kernels are found by name (spvi_find_kernel): names must be unique. */
  qsort(keys, m->nentries, sizeof keys[0], cmp_by_name);
  for (uint32_t i = 1; i < m->nentries; i++)
    if (strcmp(keys[i - 1].name, keys[i].name) == 0) {
      char q[80];
      return ld_errf(c, c->entry_at[keys[i].index], "second kernel named \"%s\" (the first is at word %u)",
                     ld_quote(keys[i].name, q, sizeof q), c->entry_at[keys[i - 1].index]);
    }
  qsort(keys, m->nentries, sizeof keys[0], cmp_by_func);
  for (uint32_t i = 0; i < c->nexec_modes; i++) {
    ld_raw r = ld_raw_at(c, c->exec_mode_at[i]);
    if (!exec_mode(c, &r, keys)) return false;
  }
  /* OpTypeForwardPointer promises an OpTypePointer with the same id (SPIR-V 3.32.6). */
  for (uint32_t i = 0; i < c->ninsn; i++) {
    ld_raw r = ld_raw_at(c, c->insn_at[i]);
    if (r.opcode == SpvOpTypeForwardPointer && c->def_at[r.w[1]] == 0)
      return ld_errf(c, r.at, "OpTypeForwardPointer %%%u is never declared by an OpTypePointer", r.w[1]);
  }
  if (m->nentries == 0)
    return ld_errf(c, c->nw, "no OpenCL kernel (OpEntryPoint Kernel) in module (end of module reached)");
  return true;
}
