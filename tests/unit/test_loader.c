/*
 * test_loader.c — unit tests of the loader (loader/ld_*.c): hand-built SPIR-V word arrays in both
 * byte orders, every truncation of a small module, malformed headers and instructions, in-process
 * assembled .spvasm texts (through the SPIRV-Tools C API) for layouts, constants, OpSpecConstantOp,
 * decorations, functions and validation, and a load of the whole oneAPI construction kit corpus.
 *
 * Every expected value is derived by hand in the comments next to it (layout rules: OpenCL C 6.3.5
 * and the env spec "Alignment of Types"; IEEE-754 encodings worked out bit by bit).
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <spirv/unified1/spirv.h>
/* libspirv.h defines `const uint32_t kDefaultMaxIdBound` in every C file including it; rename this
 * file's copy so it cannot clash with the library's. */
#define kDefaultMaxIdBound test_loader_kDefaultMaxIdBound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound

#include "ld_ir.h"

/* ---- a tiny module builder ------------------------------------------------------------------ */

typedef struct mod {
  uint32_t w[1024];
  uint32_t n;
} mod;

static void header(mod *m, uint32_t version, uint32_t bound) {
  m->n = 0;
  m->w[m->n++] = SpvMagicNumber;
  m->w[m->n++] = version;
  m->w[m->n++] = 0; /* generator */
  m->w[m->n++] = bound;
  m->w[m->n++] = 0; /* schema */
}

static void ins_v(mod *m, uint32_t op, const uint32_t *ops, uint32_t nops) {
  m->w[m->n++] = (nops + 1) << 16 | op;
  for (uint32_t i = 0; i < nops; i++) m->w[m->n++] = ops[i];
}
#define I(m, op, ...) \
  ins_v((m), (op), (const uint32_t[]){__VA_ARGS__}, sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))
#define I0(m, op) ins_v((m), (op), NULL, 0)

/* Instruction with `npre` operand words, a literal string, then `npost` words. */
static void ins_s(mod *m, uint32_t op, uint32_t npre, const uint32_t *pre, const char *s, uint32_t npost,
                  const uint32_t *post) {
  uint32_t len = (uint32_t)strlen(s), sw = len / 4 + 1;
  m->w[m->n++] = (1 + npre + sw + npost) << 16 | op;
  for (uint32_t i = 0; i < npre; i++) m->w[m->n++] = pre[i];
  for (uint32_t i = 0; i < sw; i++) {
    uint32_t word = 0;
    for (uint32_t b = 0; b < 4; b++) {
      uint32_t k = i * 4 + b;
      if (k < len) word |= (uint32_t)(unsigned char)s[k] << (8 * b);
    }
    m->w[m->n++] = word;
  }
  for (uint32_t i = 0; i < npost; i++) m->w[m->n++] = post[i];
}

static uint32_t swap32(uint32_t v) { return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24); }

/* Ids of the minimal module. */
enum {
  ID_VOID = 1,
  ID_CHAR,
  ID_INT,
  ID_FLOAT,
  ID_FLOAT3,
  ID_S,
  ID_PS,
  ID_FNTY,
  ID_C42,
  ID_ARR,
  ID_BOOL,
  ID_FILE = 15,
  ID_K = 20,
  ID_P0,
  ID_P1,
  ID_L,
  ID_SUM,
  ID_CMP,
  ID_BOUND = 31
};

/* A kernel `k(global struct {char; int; float3} *p, int n)` computing n + 42:
 *   word  5: OpCapability Addresses       (2 words)
 *   word  7: OpCapability Kernel          (2)
 *   word  9: OpCapability Int8            (2)
 *   word 11: OpMemoryModel Physical64 OpenCL (3)
 *   word 14: OpEntryPoint Kernel %20 "k"  (4)
 *   word 18: OpExecutionMode %20 LocalSize 8 4 1 (6)
 *   ... */
static void minimal_module(mod *m) {
  header(m, 0x00010000, ID_BOUND);
  I(m, SpvOpCapability, SpvCapabilityAddresses);
  I(m, SpvOpCapability, SpvCapabilityKernel);
  I(m, SpvOpCapability, SpvCapabilityInt8);
  I(m, SpvOpMemoryModel, SpvAddressingModelPhysical64, SpvMemoryModelOpenCL);
  ins_s(m, SpvOpEntryPoint, 2, (const uint32_t[]){SpvExecutionModelKernel, ID_K}, "k", 0, NULL);
  I(m, SpvOpExecutionMode, ID_K, SpvExecutionModeLocalSize, 8, 4, 1);
  ins_s(m, SpvOpString, 1, (const uint32_t[]){ID_FILE}, "k.cl", 0, NULL);
  ins_s(m, SpvOpName, 1, (const uint32_t[]){ID_P1}, "n", 0, NULL);
  I(m, SpvOpDecorate, ID_P0, SpvDecorationFuncParamAttr, SpvFunctionParameterAttributeNoAlias);
  I(m, SpvOpTypeVoid, ID_VOID);
  I(m, SpvOpTypeInt, ID_CHAR, 8, 0);
  I(m, SpvOpTypeInt, ID_INT, 32, 0);
  I(m, SpvOpTypeFloat, ID_FLOAT, 32);
  I(m, SpvOpTypeVector, ID_FLOAT3, ID_FLOAT, 3);
  I(m, SpvOpTypeStruct, ID_S, ID_CHAR, ID_INT, ID_FLOAT3);
  I(m, SpvOpTypePointer, ID_PS, SpvStorageClassCrossWorkgroup, ID_S);
  I(m, SpvOpTypeFunction, ID_FNTY, ID_VOID, ID_PS, ID_INT);
  I(m, SpvOpConstant, ID_INT, ID_C42, 42);
  I(m, SpvOpTypeArray, ID_ARR, ID_FLOAT3, ID_C42);
  I(m, SpvOpTypeBool, ID_BOOL);
  I(m, SpvOpFunction, ID_VOID, ID_K, SpvFunctionControlMaskNone, ID_FNTY);
  I(m, SpvOpFunctionParameter, ID_PS, ID_P0);
  I(m, SpvOpFunctionParameter, ID_INT, ID_P1);
  I(m, SpvOpLabel, ID_L);
  I(m, SpvOpLine, ID_FILE, 7, 3);
  I(m, SpvOpIAdd, ID_INT, ID_SUM, ID_P1, ID_C42);
  I0(m, SpvOpNoLine);
  I(m, SpvOpSLessThan, ID_BOOL, ID_CMP, ID_SUM, ID_C42);
  I0(m, SpvOpReturn);
  I0(m, SpvOpFunctionEnd);
}

/* ---- helpers --------------------------------------------------------------------------------- */

static char g_err[1024];
static char g_warn[4096];
static int g_nwarn;

static void on_warn(void *user, const char *msg) {
  (void)user;
  g_nwarn++;
  snprintf(g_warn, sizeof g_warn, "%s", msg);
}

static char g_note[4096];
static int g_nnote;

static void on_note(void *user, const char *msg) {
  (void)user;
  g_nnote++;
  snprintf(g_note, sizeof g_note, "%s", msg);
}

static ld_module *load_opts(const void *w, size_t bytes, bool strict) {
  ld_options o = {.strict = strict, .warn = on_warn, .note = on_note};
  g_err[0] = '\0';
  g_warn[0] = '\0';
  g_nwarn = 0;
  g_note[0] = '\0';
  g_nnote = 0;
  return ld_load(w, bytes, "t.spv", &o, g_err, sizeof g_err);
}

static ld_module *load(const mod *m) { return load_opts(m->w, m->n * 4u, false); }

/* The load must fail with a message containing `want`. */
static void expect_fail(const mod *m, const char *want) {
  ld_module *mod_ = load(m);
  if (mod_) {
    ld_free(mod_);
    fail_msg("loaded, expected an error containing \"%s\"", want);
  }
  if (!strstr(g_err, want)) fail_msg("error \"%s\" does not contain \"%s\"", g_err, want);
  assert_true(strncmp(g_err, "t.spv: ", 7) == 0);
}

static uint32_t u32_at(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
static uint64_t u64_at(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}
static uint16_t u16_at(const uint8_t *p) {
  uint16_t v;
  memcpy(&v, p, 2);
  return v;
}

static const ld_type *ty(const ld_module *m, uint32_t id) {
  const ld_type *t = ld_type_of(m, id);
  assert_non_null(t);
  return t;
}

static const ld_const *konst(const ld_module *m, uint32_t id) {
  assert_true(id < m->bound);
  assert_int_equal(m->ids[id].kind, LD_ID_CONST);
  return &m->consts[m->ids[id].index];
}

/* Assemble SPIR-V text in-process, numeric ids (%40) kept as written and %names numbered into the
 * gaps. Returns malloc'd words or NULL. */
static uint32_t *assemble(const char *text, spv_target_env env, size_t *nwords) {
  spv_context ctx = spvContextCreate(env);
  spv_binary bin = NULL;
  spv_diagnostic diag = NULL;
  uint32_t *out = NULL;
  if (spvTextToBinaryWithOptions(ctx, text, strlen(text), SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS, &bin,
                                 &diag) == SPV_SUCCESS) {
    out = malloc(bin->wordCount * 4);
    memcpy(out, bin->code, bin->wordCount * 4);
    *nwords = bin->wordCount;
  } else if (diag) {
    print_error("assembly failed: line %zu: %s\n", diag->position.line, diag->error);
  }
  spvBinaryDestroy(bin);
  spvDiagnosticDestroy(diag);
  spvContextDestroy(ctx);
  return out;
}

/* Assemble and load (non-strict); the caller frees the module. */
static ld_module *load_text_env(const char *text, spv_target_env env) {
  size_t n = 0;
  uint32_t *w = assemble(text, env, &n);
  assert_non_null(w);
  ld_module *m = load_opts(w, n * 4, false);
  free(w);
  return m;
}
static ld_module *load_text(const char *text) { return load_text_env(text, SPV_ENV_UNIVERSAL_1_0); }

static void expect_text_fail(const char *text, const char *want) {
  ld_module *m = load_text(text);
  if (m) {
    ld_free(m);
    fail_msg("loaded, expected an error containing \"%s\"", want);
  }
  if (!strstr(g_err, want)) fail_msg("error \"%s\" does not contain \"%s\"", g_err, want);
}

#define PRELUDE                                                                       \
  "OpCapability Addresses\nOpCapability Kernel\nOpCapability Linkage\n"               \
  "OpCapability Int8\nOpCapability Int16\nOpCapability Int64\nOpCapability Float16\n" \
  "OpCapability Float64\nOpCapability Vector16\n"
#define KERNEL_TAIL                                     \
  "%kvoid = OpTypeVoid\n%kfn = OpTypeFunction %kvoid\n" \
  "%kern = OpFunction %kvoid None %kfn\n%kl = OpLabel\nOpReturn\nOpFunctionEnd\n"

/* ---- the minimal module ----------------------------------------------------------------------- */

static void check_minimal(const ld_module *m) {
  assert_int_equal(m->version, 0x00010000);
  assert_int_equal(m->bound, ID_BOUND);
  assert_int_equal(m->addressing, SpvAddressingModelPhysical64);
  assert_int_equal(m->pointer_bytes, 8);
  assert_int_equal(m->memory_model, SpvMemoryModelOpenCL);
  assert_int_equal(m->ncaps, 3);
  assert_int_equal(m->caps[0], SpvCapabilityAddresses);
  assert_int_equal(m->caps[2], SpvCapabilityInt8);

  /* char: 1/1/1; int: 4/4/4 */
  assert_int_equal(ty(m, ID_CHAR)->kind, LD_TY_INT);
  assert_int_equal(ty(m, ID_CHAR)->bits, 8);
  assert_int_equal(ty(m, ID_CHAR)->size, 1);
  assert_int_equal(ty(m, ID_INT)->size, 4);
  assert_int_equal(ty(m, ID_INT)->align, 4);
  /* float3: 3 components, memory as 4 floats (16 bytes, 16-aligned), register 3 * 4 = 12 */
  const ld_type *f3 = ty(m, ID_FLOAT3);
  assert_int_equal(f3->kind, LD_TY_VECTOR);
  assert_int_equal(f3->count, 3);
  assert_int_equal(f3->elem, ID_FLOAT);
  assert_int_equal(f3->size, 16);
  assert_int_equal(f3->align, 16);
  assert_int_equal(f3->reg_size, 12);
  /* struct {char c; int i; float3 f;}: c at 0, i at 4 (next multiple of 4 after 1), f at 16 (next
   * multiple of 16 after 8); size 16 + 16 = 32, a multiple of the alignment 16 */
  const ld_type *s = ty(m, ID_S);
  assert_int_equal(s->kind, LD_TY_STRUCT);
  assert_int_equal(s->count, 3);
  assert_int_equal(s->offsets[0], 0);
  assert_int_equal(s->offsets[1], 4);
  assert_int_equal(s->offsets[2], 16);
  assert_int_equal(s->members[2], ID_FLOAT3);
  assert_int_equal(s->size, 32);
  assert_int_equal(s->align, 16);
  assert_int_equal(s->reg_size, 32);
  assert_false(s->packed);
  /* pointer under Physical64: 8 bytes */
  const ld_type *p = ty(m, ID_PS);
  assert_int_equal(p->kind, LD_TY_POINTER);
  assert_int_equal(p->storage, SpvStorageClassCrossWorkgroup);
  assert_int_equal(p->elem, ID_S);
  assert_int_equal(p->size, 8);
  /* float3[42]: 42 * 16 = 672 bytes, aligned like float3 */
  const ld_type *a = ty(m, ID_ARR);
  assert_int_equal(a->kind, LD_TY_ARRAY);
  assert_int_equal(a->count, 42);
  assert_int_equal(a->size, 672);
  assert_int_equal(a->align, 16);
  assert_int_equal(a->reg_size, 672);
  assert_int_equal(ty(m, ID_BOOL)->size, 1);
  const ld_type *fn = ty(m, ID_FNTY);
  assert_int_equal(fn->kind, LD_TY_FUNCTION);
  assert_int_equal(fn->count, 2);
  assert_int_equal(fn->elem, ID_VOID);
  assert_int_equal(fn->members[1], ID_INT);

  const ld_const *c42 = konst(m, ID_C42);
  assert_int_equal(c42->type, ID_INT);
  assert_int_equal(u32_at(c42->bytes), 42);
  assert_false(c42->is_spec);
  assert_int_equal(c42->spec_id, LD_NONE);

  assert_int_equal(m->nentries, 1);
  assert_string_equal(m->entries[0].name, "k");
  assert_int_equal(m->entries[0].func, ID_K);
  assert_int_equal(m->entries[0].model, SpvExecutionModelKernel);
  assert_int_equal(m->entries[0].reqd_local[0], 8);
  assert_int_equal(m->entries[0].reqd_local[1], 4);
  assert_int_equal(m->entries[0].reqd_local[2], 1);
  assert_int_equal(m->entries[0].local_hint[0], 0);

  assert_int_equal(m->nfuncs, 1);
  const ld_function *f = &m->funcs[0];
  assert_int_equal(f->id, ID_K);
  assert_int_equal(f->nparams, 2);
  assert_int_equal(f->params[0], ID_P0);
  assert_int_equal(f->nblocks, 1);
  assert_int_equal(f->blocks[0].label, ID_L);
  assert_int_equal(f->blocks[0].first, 0);
  assert_int_equal(f->blocks[0].count, 3); /* IAdd, SLessThan, Return */
  assert_int_equal(f->ninsns, 3);
  assert_false(f->is_import);
  /* OpIAdd: one operand-word pair after type and result; OpLine k.cl:7:3 applies to it only */
  assert_int_equal(f->insns[0].opcode, SpvOpIAdd);
  assert_int_equal(f->insns[0].type, ID_INT);
  assert_int_equal(f->insns[0].result, ID_SUM);
  assert_int_equal(f->insns[0].nops, 2);
  assert_int_equal(f->insns[0].ops[0], ID_P1);
  assert_int_equal(f->insns[0].ops[1], ID_C42);
  assert_int_equal(f->insns[0].file, ID_FILE);
  assert_int_equal(f->insns[0].line, 7);
  assert_int_equal(f->insns[0].column, 3);
  assert_int_equal(f->insns[1].file, 0); /* after OpNoLine */
  assert_int_equal(f->insns[1].line, 0);
  assert_int_equal(f->insns[2].opcode, SpvOpReturn);
  /* Registers: p0 (pointer, 8) at 0, p1 (int, 4 -> 8) at 8, sum (int) at 16, cmp (bool, 1 -> 8)
   * at 24: 32 bytes. */
  assert_int_equal(m->ids[ID_P0].kind, LD_ID_PARAM);
  assert_int_equal(m->ids[ID_P0].reg, 0);
  assert_int_equal(m->ids[ID_P1].reg, 8);
  assert_int_equal(m->ids[ID_SUM].kind, LD_ID_VALUE);
  assert_int_equal(m->ids[ID_SUM].type, ID_INT);
  assert_int_equal(m->ids[ID_SUM].insn, 0);
  assert_int_equal(m->ids[ID_SUM].reg, 16);
  assert_int_equal(m->ids[ID_CMP].reg, 24);
  assert_int_equal(m->ids[ID_CMP].insn, 1);
  assert_int_equal(f->reg_bytes, 32);
  assert_int_equal(m->ids[ID_L].kind, LD_ID_LABEL);
  assert_int_equal(m->ids[ID_K].kind, LD_ID_FUNCTION);
  assert_int_equal(m->ids[ID_FILE].kind, LD_ID_STRING);
  assert_string_equal(m->ids[ID_FILE].name, "k.cl");

  char buf[32];
  assert_string_equal(ld_id_name(m, ID_P1, buf, sizeof buf), "n");
  assert_string_equal(ld_id_name(m, ID_SUM, buf, sizeof buf), "%24");
  const ld_decoration *d = ld_find_decoration(m, ID_P0, SpvDecorationFuncParamAttr);
  assert_non_null(d);
  assert_int_equal(d->nargs, 1);
  assert_int_equal(d->args[0], SpvFunctionParameterAttributeNoAlias);
  assert_null(ld_find_decoration(m, ID_P0, SpvDecorationAlignment));
  assert_null(ld_find_decoration(m, ID_P1, SpvDecorationFuncParamAttr));
}

static void test_minimal_little_endian(void **state) {
  (void)state;
  mod m;
  minimal_module(&m);
  ld_module *lm = load(&m);
  if (!lm) fail_msg("%s", g_err);
  check_minimal(lm);
  ld_free(lm);
}

static void test_minimal_byte_swapped(void **state) {
  (void)state;
  mod m;
  minimal_module(&m);
  for (uint32_t i = 0; i < m.n; i++) m.w[i] = swap32(m.w[i]);
  ld_module *lm = load(&m);
  if (!lm) fail_msg("%s", g_err);
  check_minimal(lm);
  ld_free(lm);
}

/* Every proper prefix of the module, at every byte length, fails with a word offset. */
static void test_truncated_everywhere(void **state) {
  (void)state;
  mod m;
  minimal_module(&m);
  size_t bytes = m.n * 4u;
  for (size_t len = 0; len < bytes; len++) {
    ld_module *lm = load_opts(m.w, len, false);
    if (lm) {
      ld_free(lm);
      fail_msg("a prefix of %zu bytes loaded", len);
    }
    if (strncmp(g_err, "t.spv: word ", 12) != 0) fail_msg("prefix of %zu bytes: \"%s\"", len, g_err);
  }
  /* the partial-word, header and mid-instruction cases say what happened */
  load_opts(m.w, 37, false);
  assert_string_equal(g_err, "t.spv: word 9: truncated: the file has 37 bytes, not a whole number of 32-bit words");
  load_opts(m.w, 12, false);
  assert_string_equal(g_err, "t.spv: word 3: truncated header: 3 words, a SPIR-V header has 5");
  load_opts(m.w, 4 * 12, false); /* OpMemoryModel at word 11 has 3 words, 1 remains */
  assert_string_equal(g_err, "t.spv: word 11: truncated: OpMemoryModel has 3 words but only 1 remain in the file");
  load_opts(m.w, 0, false);
  assert_string_equal(g_err, "t.spv: word 0: truncated: the file is empty (a SPIR-V header has 5 words)");
  /* ends after OpExecutionMode (word 24): no OpString, so no kernel function either */
  load_opts(m.w, 4 * 14, false);
  assert_string_equal(g_err,
                      "t.spv: word 14: no OpenCL kernel (OpEntryPoint Kernel) in module (end of module reached)");
}

static void test_bad_header(void **state) {
  (void)state;
  mod m;
  minimal_module(&m);
  m.w[0] = 0x12345678;
  expect_fail(&m, "word 0: bad magic number 0x12345678");
  minimal_module(&m);
  m.w[1] = 0x00010700;
  expect_fail(&m, "word 1: SPIR-V version 0x00010700 (1.7) is not supported");
  m.w[1] = 0x00020000;
  expect_fail(&m, "word 1: SPIR-V version 0x00020000 (2.0) is not supported");
  m.w[1] = 0x00010001;
  expect_fail(&m, "word 1: SPIR-V version 0x00010001");
  minimal_module(&m);
  m.w[3] = 0x7FFFFFFF;
  expect_fail(&m, "word 3: id bound 2147483647 is absurd");
  /* 71 words may have at most 64 * 71 = 4544 ids */
  m.w[3] = 64 * m.n + 1;
  expect_fail(&m, "is absurd for a module of");
  m.w[3] = 0;
  expect_fail(&m, "word 3: id bound is 0");
  minimal_module(&m);
  m.w[4] = 1;
  expect_fail(&m, "word 4: schema word is 1");
  /* versions 1.0 to 1.6 are read (the validator runs with the matching environment) */
  for (uint32_t v = 0; v <= 6; v++) {
    minimal_module(&m);
    m.w[1] = 0x00010000 | v << 8;
    ld_module *lm = load(&m);
    if (!lm) fail_msg("version 1.%u: %s", v, g_err);
    assert_int_equal(lm->version, 0x00010000 | v << 8);
    ld_free(lm);
  }
}

static void test_bad_instructions(void **state) {
  (void)state;
  mod m;
  minimal_module(&m);
  m.w[7] = 0 << 16 | SpvOpCapability; /* word count 0 */
  expect_fail(&m, "word 7: instruction word count is 0 (opcode 17 OpCapability)");
  minimal_module(&m);
  m.w[7] = 2u << 16 | 0xFFFEu;
  expect_fail(&m, "word 7: unknown opcode 65534");
  /* OpIAdd with one operand (4 words instead of 5) */
  header(&m, 0x00010000, 10);
  I(&m, SpvOpCapability, SpvCapabilityKernel);
  I(&m, SpvOpIAdd, 1, 2, 3);
  expect_fail(&m, "word 7: OpIAdd has 4 words, expects 5");
  header(&m, 0x00010000, 10);
  I(&m, SpvOpTypeInt, 1, 32, 0, 0);
  expect_fail(&m, "word 5: OpTypeInt has 5 words, expects 4");
  header(&m, 0x00010000, 10);
  I(&m, SpvOpEntryPoint, SpvExecutionModelKernel);
  expect_fail(&m, "word 5: OpEntryPoint has 2 words, expects at least 4");
}

/* Module with the usual preamble and a kernel, with `types` spliced in before the kernel's types. */
static void module_with(mod *m, void (*types)(mod *)) {
  header(m, 0x00010000, 100);
  I(m, SpvOpCapability, SpvCapabilityAddresses);
  I(m, SpvOpCapability, SpvCapabilityKernel);
  I(m, SpvOpMemoryModel, SpvAddressingModelPhysical32, SpvMemoryModelOpenCL);
  ins_s(m, SpvOpEntryPoint, 2, (const uint32_t[]){SpvExecutionModelKernel, 90}, "k", 0, NULL);
  I(m, SpvOpTypeVoid, 80);
  I(m, SpvOpTypeFunction, 81, 80);
  types(m);
  I(m, SpvOpFunction, 80, 90, 0, 81);
  I(m, SpvOpLabel, 91);
  I0(m, SpvOpReturn);
  I0(m, SpvOpFunctionEnd);
}

static void t_id_out_of_range(mod *m) {
  I(m, SpvOpTypeFloat, 3, 32);
  I(m, SpvOpTypeVector, 7, 150, 4);
}
static void t_vector_of_constant(mod *m) {
  I(m, SpvOpTypeInt, 2, 32, 0);
  I(m, SpvOpConstant, 2, 3, 1);
  I(m, SpvOpTypeVector, 7, 3, 4);
}
static void t_vector_of_struct(mod *m) {
  I(m, SpvOpTypeInt, 2, 32, 0);
  I(m, SpvOpTypeStruct, 3, 2);
  I(m, SpvOpTypeVector, 7, 3, 4);
}
static void t_vector_of_5(mod *m) {
  I(m, SpvOpTypeFloat, 3, 32);
  I(m, SpvOpTypeVector, 7, 3, 5);
}
static void t_forward_use(mod *m) {
  I(m, SpvOpTypeVector, 7, 3, 4);
  I(m, SpvOpTypeFloat, 3, 32);
}
static void t_dup_id(mod *m) {
  I(m, SpvOpTypeFloat, 3, 32);
  I(m, SpvOpTypeInt, 3, 32, 0);
}
static void t_int_width(mod *m) { I(m, SpvOpTypeInt, 3, 24, 0); }
static void t_const_64_short(mod *m) {
  I(m, SpvOpTypeInt, 2, 64, 0);
  I(m, SpvOpConstant, 2, 3, 1);
}
static void t_forward_then_int(mod *m) {
  I(m, SpvOpTypeForwardPointer, 5, SpvStorageClassCrossWorkgroup);
  I(m, SpvOpTypeStruct, 6, 5);
  I(m, SpvOpTypeInt, 5, 32, 0);
}
static void t_forward_twice(mod *m) {
  I(m, SpvOpTypeForwardPointer, 5, SpvStorageClassCrossWorkgroup);
  I(m, SpvOpTypeForwardPointer, 5, SpvStorageClassCrossWorkgroup);
}
static void t_forward_never(mod *m) { I(m, SpvOpTypeForwardPointer, 5, SpvStorageClassCrossWorkgroup); }
static void t_array_len_type(mod *m) {
  I(m, SpvOpTypeFloat, 2, 32);
  I(m, SpvOpTypeArray, 3, 2, 2);
}

static void test_bad_references(void **state) {
  (void)state;
  mod m;
  module_with(&m, t_id_out_of_range);
  expect_fail(&m, "OpTypeVector %7 component type %150 is out of range (the header's bound is 100)");
  module_with(&m, t_vector_of_constant);
  expect_fail(&m, "OpTypeVector %7 component type %3 is not a type");
  module_with(&m, t_vector_of_struct);
  expect_fail(&m, "OpTypeVector %7 component type %3 is not a scalar type");
  module_with(&m, t_vector_of_5);
  expect_fail(&m, "OpTypeVector %7 has 5 components (2, 3, 4, 8 or 16 are supported)");
  module_with(&m, t_forward_use);
  expect_fail(&m, "OpTypeVector %7 component type %3 is not a type (it is not defined before this use)");
  module_with(&m, t_dup_id);
  expect_fail(&m, "OpTypeInt defines %3, which is already defined at word");
  module_with(&m, t_int_width);
  expect_fail(&m, "OpTypeInt %3 width 24 is not supported");
  module_with(&m, t_const_64_short);
  expect_fail(&m, "OpConstant %3 of a 64-bit type has 1 value words, expects 2");
  module_with(&m, t_array_len_type);
  expect_fail(&m, "OpTypeArray %3 length %2 is not a constant");
  module_with(&m, t_forward_then_int);
  expect_fail(&m, "OpTypeInt defines %5, which an OpTypeForwardPointer declared as a pointer type");
  module_with(&m, t_forward_twice);
  expect_fail(&m, "OpTypeForwardPointer %5: the id is already forward-declared");
  module_with(&m, t_forward_never);
  expect_fail(&m, "OpTypeForwardPointer %5 is never declared by an OpTypePointer");
}

/* Random corruption of a valid module never crashes the loader (the sanitizer build is the real
 * check) and every failure is one message naming the file. Deterministic: a fixed xorshift seed. */
static void test_mutations(void **state) {
  (void)state;
  mod orig, m;
  minimal_module(&orig);
  uint64_t st = 0x9E3779B97F4A7C15ull;
  int loaded = 0, failed = 0;
  for (int it = 0; it < 20000; it++) {
    m = orig;
    int k = 1 + (int)(st % 3);
    for (int j = 0; j < k; j++) {
      st ^= st << 13;
      st ^= st >> 7;
      st ^= st << 17;
      uint32_t pos = 5 + (uint32_t)(st % (orig.n - 5)), r = (uint32_t)(st >> 32);
      switch ((st >> 20) % 5) {
      case 0: m.w[pos] ^= 1u << (r % 32); break;
      case 1: m.w[pos] = r % 40; break;                                 /* small ids, literals */
      case 2: m.w[pos] = (m.w[pos] & 0xFFFF0000u) | (r % 340); break;   /* another opcode */
      case 3: m.w[pos] = ((r % 8) << 16) | (m.w[pos] & 0xFFFFu); break; /* another length */
      default: m.w[pos] = m.w[5 + r % (orig.n - 5)]; break;
      }
    }
    ld_module *lm = load(&m);
    if (lm) {
      loaded++;
      ld_free(lm);
    } else {
      failed++;
      if (strncmp(g_err, "t.spv: ", 7) != 0 || strchr(g_err, '\n')) fail_msg("bad message \"%s\"", g_err);
    }
  }
  assert_int_equal(loaded + failed, 20000);
  assert_true(failed > 0);
}

static void test_unsupported_module_features(void **state) {
  (void)state;
  mod m;
  minimal_module(&m);
  m.w[10] = SpvCapabilityImageMipmap; /* the Int8 capability's operand */
  expect_fail(&m, "t.spv: word 9: capability ImageMipmap is not supported");
  minimal_module(&m);
  m.w[10] = SpvCapabilityPipes;
  expect_fail(&m, "capability Pipes is not supported");
  minimal_module(&m);
  m.w[12] = SpvAddressingModelLogical;
  expect_fail(&m, "word 11: addressing model Logical is not supported");
  minimal_module(&m);
  m.w[15] = SpvExecutionModelGLCompute;
  expect_fail(&m, "word 14: OpEntryPoint \"k\": execution model 5 is not supported");

  expect_text_fail(PRELUDE "%1 = OpExtInstImport \"GLSL.std.450\"\nOpMemoryModel Physical64 OpenCL\n"
                           "OpEntryPoint Kernel %kern \"k\"\n" KERNEL_TAIL,
                   "extended instruction set \"GLSL.std.450\" (%1) is not supported");
  expect_text_fail(PRELUDE "OpMemoryModel Physical64 OpenCL\n" KERNEL_TAIL,
                   "no OpenCL kernel (OpEntryPoint Kernel) in module");
  expect_text_fail(PRELUDE "OpEntryPoint Kernel %kern \"k\"\n" KERNEL_TAIL, "no OpMemoryModel in module");
}

/* ---- assembled modules ------------------------------------------------------------------------ */

/* The n-th type declared (the assembler numbers %names itself, so tests find types by order). */
static const ld_type *nth_type(const ld_module *m, uint32_t n) {
  assert_true(n < m->ntypes);
  return &m->types[n];
}

static void test_layout_values(void **state) {
  (void)state;
  /* types in declaration order: indices noted on the right */
  ld_module *m = load_text(PRELUDE "OpMemoryModel Physical32 OpenCL\nOpEntryPoint Kernel %kern \"k\"\n"
                                   "OpDecorate %packed CPacked\n"
                                   "OpMemberDecorate %offs 0 Offset 8\nOpMemberDecorate %offs 1 Offset 32\n"
                                   "%bool = OpTypeBool\n"                         /* 0 */
                                   "%char = OpTypeInt 8 0\n"                      /* 1 */
                                   "%short = OpTypeInt 16 0\n"                    /* 2 */
                                   "%int = OpTypeInt 32 0\n"                      /* 3 */
                                   "%long = OpTypeInt 64 0\n"                     /* 4 */
                                   "%half = OpTypeFloat 16\n"                     /* 5 */
                                   "%double = OpTypeFloat 64\n"                   /* 6 */
                                   "%char3 = OpTypeVector %char 3\n"              /* 7 */
                                   "%half8 = OpTypeVector %half 8\n"              /* 8 */
                                   "%double16 = OpTypeVector %double 16\n"        /* 9 */
                                   "%bool4 = OpTypeVector %bool 4\n"              /* 10 */
                                   "%long3 = OpTypeVector %long 3\n"              /* 11 */
                                   "%packed = OpTypeStruct %char %int %short\n"   /* 12 */
                                   "%plain = OpTypeStruct %char %int %short\n"    /* 13 */
                                   "%offs = OpTypeStruct %char %long\n"           /* 14 */
                                   "%nested = OpTypeStruct %char %plain %long3\n" /* 15 */
                                   "%int_5 = OpConstant %int 5\n"
                                   "%arr = OpTypeArray %char3 %int_5\n"        /* 16 */
                                   "%rt = OpTypeRuntimeArray %int\n"           /* 17 */
                                   "%pg = OpTypePointer CrossWorkgroup %int\n" /* 18 */
                                   "%ev = OpTypeEvent\n"                       /* 19 */
                                   "%opq = OpTypeOpaque \"thing\"\n"           /* 20 */
                                   "%pev = OpTypePointer Function %ev\n"       /* 21 */
                                   "%empty = OpTypeStruct\n"                   /* 22 */
                           KERNEL_TAIL);
  if (!m) fail_msg("%s", g_err);
  assert_int_equal(m->pointer_bytes, 4);
  const ld_type *t;
  t = nth_type(m, 0); /* bool: one byte */
  assert_int_equal(t->kind, LD_TY_BOOL);
  assert_int_equal(t->bits, 8);
  assert_int_equal(t->size, 1);
  assert_int_equal(t->reg_size, 1);
  t = nth_type(m, 4); /* long */
  assert_int_equal(t->size, 8);
  assert_int_equal(t->align, 8);
  t = nth_type(m, 5); /* half */
  assert_int_equal(t->kind, LD_TY_FLOAT);
  assert_int_equal(t->bits, 16);
  assert_int_equal(t->size, 2);
  t = nth_type(m, 7); /* char3: memory 4, register 3 */
  assert_int_equal(t->size, 4);
  assert_int_equal(t->align, 4);
  assert_int_equal(t->reg_size, 3);
  t = nth_type(m, 8); /* half8: 16 bytes both ways */
  assert_int_equal(t->size, 16);
  assert_int_equal(t->reg_size, 16);
  t = nth_type(m, 9); /* double16: 128 bytes, 128-aligned */
  assert_int_equal(t->size, 128);
  assert_int_equal(t->align, 128);
  t = nth_type(m, 10); /* bool4: 4 one-byte components */
  assert_int_equal(t->size, 4);
  assert_int_equal(t->reg_size, 4);
  t = nth_type(m, 11); /* long3: memory 32, register 24 */
  assert_int_equal(t->size, 32);
  assert_int_equal(t->align, 32);
  assert_int_equal(t->reg_size, 24);
  t = nth_type(m, 12); /* packed {char; int; short}: 0, 1, 5; size 7, align 1 */
  assert_true(t->packed);
  assert_int_equal(t->offsets[1], 1);
  assert_int_equal(t->offsets[2], 5);
  assert_int_equal(t->size, 7);
  assert_int_equal(t->align, 1);
  t = nth_type(m, 13); /* {char; int; short}: 0, 4, 8; end 10 -> size 12, align 4 */
  assert_false(t->packed);
  assert_int_equal(t->offsets[1], 4);
  assert_int_equal(t->offsets[2], 8);
  assert_int_equal(t->size, 12);
  assert_int_equal(t->align, 4);
  t = nth_type(m, 14); /* Offset 8 and 32: end 40, align 8 -> size 40 */
  assert_int_equal(t->offsets[0], 8);
  assert_int_equal(t->offsets[1], 32);
  assert_int_equal(t->size, 40);
  assert_int_equal(t->align, 8);
  t = nth_type(m, 15); /* {char; plain (12, align 4); long3 (32, align 32)}: 0, 4, 32; size 64 */
  assert_int_equal(t->offsets[1], 4);
  assert_int_equal(t->offsets[2], 32);
  assert_int_equal(t->size, 64);
  assert_int_equal(t->align, 32);
  t = nth_type(m, 16); /* char3[5]: 5 * 4 = 20, align 4 */
  assert_int_equal(t->kind, LD_TY_ARRAY);
  assert_int_equal(t->count, 5);
  assert_int_equal(t->size, 20);
  assert_int_equal(t->align, 4);
  t = nth_type(m, 17); /* runtime array: no size */
  assert_int_equal(t->kind, LD_TY_RUNTIME_ARRAY);
  assert_int_equal(t->size, 0);
  assert_int_equal(t->align, 4);
  t = nth_type(m, 18); /* Physical32 pointer */
  assert_int_equal(t->size, 4);
  assert_int_equal(t->reg_size, 4);
  t = nth_type(m, 19);
  assert_int_equal(t->kind, LD_TY_OPAQUE);
  assert_string_equal(t->opaque, "OpTypeEvent");
  assert_int_equal(t->size, 8); /* an opaque handle: 8 bytes in memory as in a register */
  assert_int_equal(t->reg_size, 8);
  t = nth_type(m, 20);
  assert_string_equal(t->opaque, "OpTypeOpaque");
  t = nth_type(m, 21);
  assert_int_equal(t->storage, SpvStorageClassFunction);
  t = nth_type(m, 22); /* empty struct */
  assert_int_equal(t->count, 0);
  assert_int_equal(t->size, 0);
  assert_int_equal(t->align, 1);
  ld_free(m);
}

static void test_bad_layouts(void **state) {
  (void)state;
  const char *pre = PRELUDE "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %kern \"k\"\n";
  char buf[2048];
  snprintf(buf, sizeof buf, "%s%s%s", pre,
           "OpMemberDecorate %s 0 Offset 0\n%int = OpTypeInt 32 0\n%s = OpTypeStruct %int %int\n", KERNEL_TAIL);
  expect_text_fail(buf, "OpTypeStruct %");
  assert_non_null(strstr(g_err, "1 of its 2 members have an Offset decoration"));
  snprintf(buf, sizeof buf, "%s%s%s", pre,
           "OpMemberDecorate %s 0 Offset 4\nOpMemberDecorate %s 1 Offset 6\n"
           "%int = OpTypeInt 32 0\n%s = OpTypeStruct %int %int\n",
           KERNEL_TAIL);
  expect_text_fail(buf, "member 1: Offset 6 overlaps the previous member (which ends at 8)");
  snprintf(buf, sizeof buf, "%s%s%s", pre, "%int = OpTypeInt 32 0\n%z = OpConstant %int 0\n%a = OpTypeArray %int %z\n",
           KERNEL_TAIL);
  expect_text_fail(buf, "has length 0");
}

static void test_constants(void **state) {
  (void)state;
  ld_module *m =
    load_text(PRELUDE
              "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %kern \"k\"\n"
              "OpDecorate %spec SpecId 7\nOpDecorate %specb SpecId 9\n"
              "%bool = OpTypeBool\n%char = OpTypeInt 8 0\n%short = OpTypeInt 16 0\n%int = OpTypeInt 32 0\n"
              "%long = OpTypeInt 64 0\n%half = OpTypeFloat 16\n%float = OpTypeFloat 32\n%double = OpTypeFloat 64\n"
              "%int3 = OpTypeVector %int 3\n%int2 = OpTypeVector %int 2\n"
              "%s = OpTypeStruct %char %int3 %short\n"
              "%u2 = OpConstant %int 2\n%arr = OpTypeArray %short %u2\n"
              "%ptr = OpTypePointer CrossWorkgroup %int\n"
              "%c_long = OpConstant %long 0x123456789abcdef0\n"
              "%c_short = OpConstant %short 0xfffe\n"
              "%c_char = OpConstant %char 200\n"
              "%c_half = OpConstant %half 1.5\n"     /* 1.5 = 1.1b x 2^0: 0x3E00 */
              "%c_float = OpConstant %float -2.0\n"  /* 0xC0000000 */
              "%c_double = OpConstant %double 0.5\n" /* 0x3FE0000000000000 */
              "%t = OpConstantTrue %bool\n%f = OpConstantFalse %bool\n"
              "%i1 = OpConstant %int 1\n%i7 = OpConstant %int 7\n%i9 = OpConstant %int 9\n"
              "%v = OpConstantComposite %int3 %i1 %i7 %i9\n"
              "%st = OpConstantComposite %s %c_char %v %c_short\n"
              "%ar = OpConstantComposite %arr %c_short %c_short\n"
              "%nul = OpConstantNull %s\n%nulp = OpConstantNull %ptr\n"
              "%und = OpUndef %int3\n"
              "%spec = OpSpecConstant %int 53\n%specb = OpSpecConstantTrue %bool\n"
              "%specv = OpSpecConstantComposite %int2 %spec %i7\n" KERNEL_TAIL);
  if (!m) fail_msg("%s", g_err);
  /* ids follow textual order: the assembler numbers %names as they appear; look them up by type */
  uint32_t found = 0;
  for (uint32_t i = 0; i < m->nconsts; i++) {
    const ld_const *k = &m->consts[i];
    const ld_type *t = ty(m, k->type);
    if (t->kind == LD_TY_INT && t->bits == 64) {
      assert_true(u64_at(k->bytes) == 0x123456789abcdef0ull);
      found |= 1;
    } else if (t->kind == LD_TY_INT && t->bits == 16) {
      assert_int_equal(u16_at(k->bytes), 0xfffe);
      found |= 2;
    } else if (t->kind == LD_TY_INT && t->bits == 8) {
      assert_int_equal(k->bytes[0], 200);
      found |= 4;
    } else if (t->kind == LD_TY_FLOAT && t->bits == 16) {
      assert_int_equal(u16_at(k->bytes), 0x3E00);
      found |= 8;
    } else if (t->kind == LD_TY_FLOAT && t->bits == 32) {
      assert_int_equal(u32_at(k->bytes), 0xC0000000u);
      found |= 16;
    } else if (t->kind == LD_TY_FLOAT && t->bits == 64) {
      assert_true(u64_at(k->bytes) == 0x3FE0000000000000ull);
      found |= 32;
    } else if (t->kind == LD_TY_BOOL && !k->is_spec) {
      found |= k->bytes[0] ? 64 : 128;
    } else if (t->kind == LD_TY_BOOL) {
      assert_int_equal(k->bytes[0], 1);
      assert_int_equal(k->spec_id, 9);
      found |= 256;
    } else if (t->kind == LD_TY_VECTOR && t->count == 3 && !k->is_undef) {
      /* int3 (1, 7, 9): packed in the register */
      assert_int_equal(u32_at(k->bytes + 0), 1);
      assert_int_equal(u32_at(k->bytes + 4), 7);
      assert_int_equal(u32_at(k->bytes + 8), 9);
      found |= 512;
    } else if (t->kind == LD_TY_VECTOR && t->count == 3) {
      assert_int_equal(u32_at(k->bytes + 8), 0);
      found |= 1024;
    } else if (t->kind == LD_TY_STRUCT) {
      /* struct {char; int3; short}: char at 0, int3 at 16 (align 16), short at 32; size 48 */
      assert_int_equal(t->size, 48);
      uint8_t want[48] = {0};
      if (u32_at(k->bytes + 16) == 0) { /* the OpConstantNull */
        assert_memory_equal(k->bytes, want, 48);
        found |= 2048;
        continue;
      }
      want[0] = 200;
      uint32_t v[3] = {1, 7, 9};
      memcpy(want + 16, v, 12);
      uint16_t sh = 0xfffe;
      memcpy(want + 32, &sh, 2);
      assert_memory_equal(k->bytes, want, 48);
      found |= 4096;
    } else if (t->kind == LD_TY_ARRAY) {
      assert_int_equal(u16_at(k->bytes), 0xfffe);
      assert_int_equal(u16_at(k->bytes + 2), 0xfffe);
      found |= 8192;
    } else if (t->kind == LD_TY_POINTER) {
      assert_true(u64_at(k->bytes) == 0);
      found |= 16384;
    } else if (t->kind == LD_TY_INT && k->is_spec) {
      assert_int_equal(u32_at(k->bytes), 53);
      assert_int_equal(k->spec_id, 7);
      found |= 32768;
    } else if (t->kind == LD_TY_VECTOR && t->count == 2) {
      assert_true(k->is_spec);
      assert_int_equal(k->spec_id, LD_NONE);
      assert_int_equal(u32_at(k->bytes), 53);
      assert_int_equal(u32_at(k->bytes + 4), 7);
      found |= 65536;
    }
  }
  assert_int_equal(found, 131071);
  ld_free(m);
}

/* One OpSpecConstantOp per line; returns the module. Values are checked by result id, which the
 * assembler assigns in order of first appearance: the names below are given numbers explicitly. */
static void test_spec_constant_ops(void **state) {
  (void)state;
  ld_module *m = load_text(PRELUDE
                           "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %kern \"k\"\n"
                           "%1 = OpTypeBool\n%2 = OpTypeInt 8 0\n%3 = OpTypeInt 32 0\n%4 = OpTypeInt 64 0\n"
                           "%5 = OpTypeFloat 16\n%6 = OpTypeFloat 32\n%7 = OpTypeFloat 64\n%8 = OpTypeVector %3 2\n"
                           "%10 = OpSpecConstant %3 53\n"
                           "%11 = OpConstant %3 0xfffffffc\n" /* -4 */
                           "%12 = OpConstant %3 0xffffffcb\n" /* -53 */
                           "%13 = OpConstant %3 4\n"
                           "%14 = OpConstant %3 32\n"
                           "%15 = OpConstantTrue %1\n%16 = OpConstantFalse %1\n"
                           "%17 = OpConstant %5 0x1p+0\n"     /* half 1.0: 0x3C00 */
                           "%18 = OpConstant %5 0x1p-11\n"    /* 0x1000 */
                           "%19 = OpConstant %5 0x1.004p+0\n" /* 1 + 2^-10: 0x3C01 */
                           "%20 = OpConstant %6 -2.75\n"
                           "%21 = OpConstant %6 3e9\n"
                           "%22 = OpConstant %6 1.0\n"
                           "%23 = OpConstant %7 65520.0\n"
                           "%24 = OpConstant %7 65519.99\n"
                           "%25 = OpConstant %3 1\n%26 = OpConstant %3 2\n%27 = OpConstant %3 3\n"
                           "%28 = OpConstantComposite %8 %25 %26\n%29 = OpConstantComposite %8 %27 %13\n"
                           "%30 = OpConstant %3 0xffffffff\n"
                           "%31 = OpConstant %7 0x1p-24\n%32 = OpConstant %7 0x1p-25\n%33 = OpConstant %7 0x1.8p-25\n"
                           "%34 = OpConstant %7 0x1.ffcp-15\n"
                           "%40 = OpSpecConstantOp %3 IAdd %10 %11\n" /* 53 - 4 = 49 */
                           "%41 = OpSpecConstantOp %3 ISub %10 %11\n" /* 57 */
                           "%42 = OpSpecConstantOp %3 IMul %10 %11\n" /* -212 = 0xffffff2c */
                           "%43 = OpSpecConstantOp %3 SDiv %12 %13\n" /* -53 / 4 = -13 (toward zero) = 0xfffffff3 */
                           "%44 = OpSpecConstantOp %3 SRem %12 %13\n" /* -1 (sign of dividend) */
                           "%45 = OpSpecConstantOp %3 SMod %12 %13\n" /* 3 (sign of divisor) */
                           "%46 = OpSpecConstantOp %3 UMod %10 %13\n" /* 1 */
                           "%47 = OpSpecConstantOp %3 UDiv %11 %13\n" /* 0xfffffffc / 4 = 0x3fffffff */
                           "%48 = OpSpecConstantOp %3 ShiftRightArithmetic %11 %25\n" /* 0xfffffffe */
                           "%49 = OpSpecConstantOp %3 ShiftRightLogical %11 %25\n"    /* 0x7ffffffe */
                           "%50 = OpSpecConstantOp %3 ShiftLeftLogical %10 %13\n"     /* 53 * 16 = 848 */
                           "%51 = OpSpecConstantOp %3 Not %10\n"                      /* ~53 = 0xffffffca */
                           "%52 = OpSpecConstantOp %3 SNegate %10\n"                  /* 0xffffffcb */
                           "%53 = OpSpecConstantOp %2 SConvert %11\n"                 /* 0xfc */
                           "%54 = OpSpecConstantOp %4 SConvert %11\n"                 /* 0xfffffffffffffffc */
                           "%55 = OpSpecConstantOp %4 UConvert %11\n"                 /* 0x00000000fffffffc */
                           "%56 = OpSpecConstantOp %1 SLessThan %11 %10\n"            /* -4 < 53: true */
                           "%57 = OpSpecConstantOp %1 ULessThan %11 %10\n"            /* 0xfffffffc < 53: false */
                           "%58 = OpSpecConstantOp %3 Select %15 %10 %11\n"           /* 53 */
                           "%59 = OpSpecConstantOp %8 VectorShuffle %28 %29 3 0\n"    /* (1,2),(3,4) -> (4, 1) */
                           "%60 = OpSpecConstantOp %3 CompositeExtract %29 1\n"       /* 4 */
                           "%61 = OpSpecConstantOp %8 CompositeInsert %10 %28 1\n"    /* (1, 53) */
                           "%62 = OpSpecConstantOp %5 FAdd %17 %18\n"             /* 1 + 2^-11: tie -> even 0x3C00 */
                           "%63 = OpSpecConstantOp %5 FAdd %19 %18\n"             /* 1 + 3*2^-11: tie -> 0x3C02 */
                           "%64 = OpSpecConstantOp %3 ConvertFToS %20\n"          /* -2 = 0xfffffffe */
                           "%65 = OpSpecConstantOp %3 ConvertFToU %21\n"          /* 3000000000 */
                           "%66 = OpSpecConstantOp %3 ConvertFToS %21\n"          /* 3e9 > INT_MAX: undefined */
                           "%67 = OpSpecConstantOp %6 ConvertUToF %30\n"          /* 2^32 - 1 -> 2^32 = 0x4F800000 */
                           "%68 = OpSpecConstantOp %6 ConvertSToF %30\n"          /* -1.0 = 0xBF800000 */
                           "%69 = OpSpecConstantOp %3 Bitcast %22\n"              /* 0x3F800000 */
                           "%70 = OpSpecConstantOp %5 FConvert %23\n"             /* 65520 rounds to inf: 0x7C00 */
                           "%71 = OpSpecConstantOp %5 FConvert %24\n"             /* 65504 = 0x7BFF */
                           "%72 = OpSpecConstantOp %1 LogicalAnd %15 %16\n"       /* false */
                           "%73 = OpSpecConstantOp %1 LogicalNotEqual %15 %16\n"  /* true */
                           "%74 = OpSpecConstantOp %3 ShiftLeftLogical %10 %14\n" /* shift by 32: undefined */
                           "%75 = OpSpecConstantOp %6 FNegate %22\n"              /* 0xBF800000 */
                           "%76 = OpSpecConstantOp %6 FMod %20 %22\n"             /* -2.75 mod 1 = 0.25 (sign of 1) */
                           "%77 = OpSpecConstantOp %6 FRem %20 %22\n"             /* -0.75 */
                           "%78 = OpSpecConstantOp %8 IAdd %28 %29\n"             /* (4, 6) */
                           "%79 = OpSpecConstantOp %5 FConvert %31\n" /* 2^-24: smallest subnormal, 0x0001 */
                           "%80 = OpSpecConstantOp %5 FConvert %32\n" /* half of it: tie -> even 0x0000 */
                           "%81 = OpSpecConstantOp %5 FConvert %33\n" /* 0.75 ulp -> 0x0001 */
                           "%82 = OpSpecConstantOp %5 FConvert %34\n" /* 1023.5 ulps: tie -> 1024 = 2^-14, 0x0400 */
                           KERNEL_TAIL);
  if (!m) fail_msg("%s", g_err);
  static const struct {
    uint32_t id;
    uint32_t bytes;
    uint64_t value;
  } want[] = {
    {40, 4, 49},
    {41, 4, 57},
    {42, 4, 0xffffff2c},
    {43, 4, 0xfffffff3},
    {44, 4, 0xffffffff},
    {45, 4, 3},
    {46, 4, 1},
    {47, 4, 0x3fffffff},
    {48, 4, 0xfffffffe},
    {49, 4, 0x7ffffffe},
    {50, 4, 848},
    {51, 4, 0xffffffca},
    {52, 4, 0xffffffcb},
    {53, 1, 0xfc},
    {54, 8, 0xfffffffffffffffcull},
    {55, 8, 0xfffffffcull},
    {56, 1, 1},
    {57, 1, 0},
    {58, 4, 53},
    {59, 8, 0x0000000100000004ull},
    {60, 4, 4},
    {61, 8, 0x0000003500000001ull},
    {62, 2, 0x3C00},
    {63, 2, 0x3C02},
    {64, 4, 0xfffffffe},
    {65, 4, 3000000000u},
    {66, 4, 0},
    {67, 4, 0x4F800000},
    {68, 4, 0xBF800000},
    {69, 4, 0x3F800000},
    {70, 2, 0x7C00},
    {71, 2, 0x7BFF},
    {72, 1, 0},
    {73, 1, 1},
    {74, 4, 0},
    {75, 4, 0xBF800000},
    {76, 4, 0x3E800000},
    {77, 4, 0xBF400000},
    {78, 8, 0x0000000600000004ull},
    {79, 2, 0x0001},
    {80, 2, 0x0000},
    {81, 2, 0x0001},
    {82, 2, 0x0400},
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const ld_const *k = konst(m, want[i].id);
    uint64_t v = 0;
    memcpy(&v, k->bytes, want[i].bytes); /* little-endian host */
    if (v != want[i].value)
      fail_msg("%%%u = 0x%llx, expected 0x%llx", want[i].id, (unsigned long long)v, (unsigned long long)want[i].value);
    assert_true(k->is_spec);
  }
  /* the undefined results are flagged, the others not */
  assert_true(konst(m, 66)->is_undef);
  assert_true(konst(m, 74)->is_undef);
  assert_false(konst(m, 40)->is_undef);
  assert_non_null(strstr(g_warn, "OpSpecConstantOp %74 (OpShiftLeftLogical): shift by at least the bit width"));
  assert_int_equal(g_nwarn, 2);
  ld_free(m);

  /* an address computation over something that is not a variable's address has no load-time value */
  expect_text_fail(PRELUDE "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %kern \"k\"\n"
                           "%int = OpTypeInt 32 0\n%p = OpTypePointer CrossWorkgroup %int\n"
                           "%n = OpConstantNull %p\n%z = OpConstant %int 0\n"
                           "%x = OpSpecConstantOp %p InBoundsPtrAccessChain %n %z\n" KERNEL_TAIL,
                   "OpSpecConstantOp %");
  assert_non_null(strstr(g_err, "is not the address of a module-scope variable"));
  /* `global int *p = &x[2];` and `global char *q = (global char *)&x;` as llvm-spirv writes them:
   * address constants, kept as a relocation against the variable plus a byte offset. */
  m = load_text(PRELUDE "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %1 \"k\"\n"
                        "%2 = OpTypeInt 32 0\n%3 = OpTypeInt 8 0\n%4 = OpConstant %2 4\n%5 = OpTypeArray %2 %4\n"
                        "%6 = OpTypePointer CrossWorkgroup %5\n%7 = OpTypePointer CrossWorkgroup %2\n"
                        "%8 = OpTypePointer CrossWorkgroup %3\n%9 = OpVariable %6 CrossWorkgroup\n"
                        "%10 = OpTypeInt 64 0\n%11 = OpConstant %10 0\n%12 = OpConstant %10 2\n"
                        "%13 = OpSpecConstantOp %7 InBoundsPtrAccessChain %9 %11 %12\n"
                        "%14 = OpSpecConstantOp %8 Bitcast %9\n"
                        "%15 = OpSpecConstantOp %8 InBoundsPtrAccessChain %14 %12\n"
                        "%16 = OpTypeVoid\n%17 = OpTypeFunction %16\n"
                        "%1 = OpFunction %16 None %17\n%18 = OpLabel\nOpReturn\nOpFunctionEnd\n");
  assert_non_null(m);
  const ld_const *k = konst(m, 13);
  uint64_t v;
  assert_int_equal(k->nrelocs, 1);
  assert_int_equal(k->relocs[0].global, 9);
  assert_int_equal(k->relocs[0].offset, 0);
  memcpy(&v, k->bytes, 8);
  assert_int_equal(v, 8); /* element 0 of the array, then int 2: 2 * 4 bytes */
  k = konst(m, 14);
  assert_int_equal(k->nrelocs, 1);
  assert_int_equal(k->relocs[0].global, 9);
  memcpy(&v, k->bytes, 8);
  assert_int_equal(v, 0); /* a cast keeps the address */
  k = konst(m, 15);
  assert_int_equal(k->relocs[0].global, 9);
  memcpy(&v, k->bytes, 8);
  assert_int_equal(v, 2); /* char pointer + 2: 2 bytes */
  ld_free(m);
  /* an index whose byte offset leaves int64 is an error, not a wrapped offset: (2^62 + 1) * 4 is
   * 2^64 + 4, which would be int 1 of the array modulo 2^64; -2^63 * 4 likewise 0 */
  static const char *const huge[] = {"4611686018427387905", "9223372036854775808"};
  for (size_t i = 0; i < 2; i++) {
    char text[1024];
    snprintf(text, sizeof text,
             PRELUDE "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %%1 \"k\"\n"
                     "%%2 = OpTypeInt 32 0\n%%4 = OpConstant %%2 4\n%%5 = OpTypeArray %%2 %%4\n"
                     "%%6 = OpTypePointer CrossWorkgroup %%5\n%%7 = OpTypePointer CrossWorkgroup %%2\n"
                     "%%9 = OpVariable %%6 CrossWorkgroup\n%%10 = OpTypeInt 64 0\n%%11 = OpConstant %%10 0\n"
                     "%%12 = OpConstant %%10 %s\n%%13 = OpSpecConstantOp %%7 InBoundsPtrAccessChain %%9 %%11 %%12\n"
                     "%%16 = OpTypeVoid\n%%17 = OpTypeFunction %%16\n"
                     "%%1 = OpFunction %%16 None %%17\n%%18 = OpLabel\nOpReturn\nOpFunctionEnd\n",
             huge[i]);
    expect_text_fail(text, "OpSpecConstantOp %13 (OpInBoundsPtrAccessChain) index 1: ");
    assert_non_null(strstr(g_err, "elements of 4 bytes overflow the 64-bit byte offset"));
  }
  /* a cast of the null pointer is null (llvm-spirv's OpenCL C 2.0 block literals:
   * `OpSpecConstantOp %generic PtrCastToGeneric %null_function_ptr`) */
  m = load_text(PRELUDE
                "OpCapability GenericPointer\nOpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %kern \"k\"\n"
                "%uchar = OpTypeInt 8 0\n%pf = OpTypePointer Function %uchar\n"
                "%pg = OpTypePointer Generic %uchar\n%n = OpConstantNull %pf\n"
                "%40 = OpSpecConstantOp %pg PtrCastToGeneric %n\n" KERNEL_TAIL);
  if (!m) fail_msg("%s", g_err);
  k = konst(m, 40);
  assert_int_equal(k->nrelocs, 0);
  memcpy(&v, k->bytes, 8);
  assert_int_equal(v, 0);
  ld_free(m);
}

static void test_globals_decorations_functions(void **state) {
  (void)state;
  ld_module *m = load_text(PRELUDE
                           "OpMemoryModel Physical64 OpenCL\n"
                           "OpEntryPoint Kernel %10 \"first\" %30\nOpEntryPoint Kernel %11 \"second\"\n"
                           "OpExecutionMode %10 LocalSizeHint 4 2 1\nOpExecutionMode %10 ContractionOff\n"
                           "OpExecutionMode %11 VecTypeHint 3\n"
                           "%50 = OpString \"a.cl\"\n"
                           "OpName %30 \"gid\"\n"
                           "OpDecorate %30 BuiltIn GlobalInvocationId\nOpDecorate %30 Constant\n"
                           "OpDecorate %12 LinkageAttributes \"ext\" Import\n"
                           "OpDecorate %40 Alignment 16\n"
                           "%60 = OpDecorationGroup\nOpDecorate %60 Restrict\nOpGroupDecorate %60 %31 %32\n"
                           "%1 = OpTypeVoid\n%2 = OpTypeInt 64 0\n%3 = OpTypeVector %2 3\n%4 = OpTypePointer Input %3\n"
                           "%5 = OpTypeInt 32 0\n%6 = OpTypePointer CrossWorkgroup %5\n%7 = OpTypeFunction %1 %6 %6\n"
                           "%8 = OpTypeFunction %5 %5\n%9 = OpTypePointer UniformConstant %5\n"
                           "%20 = OpConstant %5 77\n"
                           "%30 = OpVariable %4 Input\n"
                           "%40 = OpVariable %9 UniformConstant %20\n"
                           "%41 = OpVariable %6 CrossWorkgroup\n"
                           "%12 = OpFunction %5 None %8\n%13 = OpFunctionParameter %5\nOpFunctionEnd\n"
                           "%10 = OpFunction %1 None %7\n%31 = OpFunctionParameter %6\n%32 = OpFunctionParameter %6\n"
                           "%33 = OpLabel\n"
                           "OpLine %50 10 2\n%34 = OpLoad %3 %30\n%35 = OpCompositeExtract %2 %34 0\n"
                           "%36 = OpFunctionCall %5 %12 %20\nOpBranch %37\n"
                           "%37 = OpLabel\n%38 = OpLoad %5 %31\nOpStore %32 %38\nOpReturn\nOpFunctionEnd\n"
                           "%11 = OpFunction %1 None %7\n%21 = OpFunctionParameter %6\n%22 = OpFunctionParameter %6\n"
                           "%23 = OpLabel\nOpReturn\nOpFunctionEnd\n");
  if (!m) fail_msg("%s", g_err);
  /* globals */
  assert_int_equal(m->nglobals, 3);
  const ld_global *g = &m->globals[m->ids[30].index];
  assert_int_equal(m->ids[30].kind, LD_ID_GLOBAL);
  assert_int_equal(g->storage, SpvStorageClassInput);
  assert_int_equal(g->builtin, SpvBuiltInGlobalInvocationId);
  assert_true(g->is_const);
  assert_int_equal(g->size, 32); /* ulong3: 4 * 8 */
  assert_int_equal(g->align, 32);
  assert_int_equal(g->init, 0);
  g = &m->globals[m->ids[40].index];
  assert_int_equal(g->init, 20);
  assert_true(g->is_const);       /* UniformConstant */
  assert_int_equal(g->align, 16); /* Alignment 16 over int's 4 */
  assert_int_equal(g->builtin, LD_NONE);
  g = &m->globals[m->ids[41].index];
  assert_false(g->is_const);
  assert_int_equal(g->size, 4);
  /* decorations: sorted by target; the group's Restrict copied to %31 and %32 */
  for (uint32_t i = 1; i < m->ndecos; i++) assert_true(m->decos[i - 1].target <= m->decos[i].target);
  assert_non_null(ld_find_decoration(m, 31, SpvDecorationRestrict));
  assert_non_null(ld_find_decoration(m, 32, SpvDecorationRestrict));
  assert_null(ld_find_decoration(m, 21, SpvDecorationRestrict));
  assert_non_null(ld_find_decoration(m, 30, SpvDecorationConstant));
  /* functions */
  assert_int_equal(m->nfuncs, 3);
  const ld_function *imp = &m->funcs[m->ids[12].index];
  assert_true(imp->is_import);
  assert_int_equal(imp->nblocks, 0);
  assert_int_equal(imp->nparams, 1);
  const ld_function *f = &m->funcs[m->ids[10].index];
  assert_false(f->is_import);
  assert_int_equal(f->nblocks, 2);
  assert_int_equal(f->blocks[0].first, 0);
  assert_int_equal(f->blocks[0].count, 4); /* Load, CompositeExtract, FunctionCall, Branch */
  assert_int_equal(f->blocks[1].first, 4);
  assert_int_equal(f->blocks[1].count, 3); /* Load, Store, Return */
  assert_int_equal(m->ids[37].kind, LD_ID_LABEL);
  assert_int_equal(m->ids[37].index, 1);
  /* OpLine a.cl:10:2 covers the first block only */
  assert_int_equal(f->insns[0].file, 50);
  assert_int_equal(f->insns[2].line, 10);
  assert_int_equal(f->insns[3].line, 10); /* the OpBranch */
  assert_int_equal(f->insns[4].line, 0);  /* next block */
  /* registers: params 0, 8; %34 ulong3 (24) at 16; %35 ulong at 40; %36 uint at 48; %38 at 56 */
  assert_int_equal(m->ids[31].reg, 0);
  assert_int_equal(m->ids[32].reg, 8);
  assert_int_equal(m->ids[34].reg, 16);
  assert_int_equal(m->ids[35].reg, 40);
  assert_int_equal(m->ids[36].reg, 48);
  assert_int_equal(m->ids[38].reg, 56);
  assert_int_equal(f->reg_bytes, 64);
  /* entry points and modes */
  assert_int_equal(m->nentries, 2);
  assert_string_equal(m->entries[0].name, "first");
  assert_int_equal(m->entries[0].ninterface, 1);
  assert_int_equal(m->entries[0].interface[0], 30);
  assert_int_equal(m->entries[0].local_hint[0], 4);
  assert_int_equal(m->entries[0].local_hint[1], 2);
  assert_int_equal(m->entries[0].reqd_local[0], 0);
  assert_true(m->entries[0].contraction_off);
  assert_int_equal(m->entries[1].vec_type_hint, 3);
  assert_false(m->entries[1].contraction_off);
  char buf[16];
  assert_string_equal(ld_id_name(m, 30, buf, sizeof buf), "gid");
  ld_free(m);
}

static void test_spirv_1_2_features(void **state) {
  (void)state;
  /* OpExecutionModeId LocalSizeId (SPIR-V 1.2) with a spec-constant operand, and a forward pointer */
  ld_module *m =
    load_text_env(PRELUDE "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %kern \"k\"\n"
                          "OpExecutionModeId %kern LocalSizeId %c64 %c1 %sc\n"
                          "OpTypeForwardPointer %pnode CrossWorkgroup\n"
                          "%int = OpTypeInt 32 0\n%c64 = OpConstant %int 64\n%c1 = OpConstant %int 1\n"
                          "%sc = OpSpecConstantOp %int UDiv %c64 %c64\n"
                          "%node = OpTypeStruct %int %pnode\n%pnode = OpTypePointer CrossWorkgroup %node\n" KERNEL_TAIL,
                  SPV_ENV_UNIVERSAL_1_2);
  if (!m) fail_msg("%s", g_err);
  assert_int_equal(m->version, 0x00010200);
  assert_int_equal(m->entries[0].reqd_local[0], 64);
  assert_int_equal(m->entries[0].reqd_local[1], 1);
  assert_int_equal(m->entries[0].reqd_local[2], 1);
  /* struct {int; node*}: pointer 8 bytes at 8, size 16 */
  const ld_type *node = NULL, *p = NULL;
  for (uint32_t i = 0; i < m->ntypes; i++) {
    if (m->types[i].kind == LD_TY_STRUCT) node = &m->types[i];
    if (m->types[i].kind == LD_TY_POINTER) p = &m->types[i];
  }
  assert_non_null(node);
  assert_non_null(p);
  assert_int_equal(node->offsets[1], 8);
  assert_int_equal(node->size, 16);
  assert_int_equal(p->elem, node->id);
  assert_int_equal(node->members[1], p->id);
  ld_free(m);
}

/* A decoration group that decorates nothing, in a module with no other decoration: no decoration
 * at all after expansion (issue 17: this sorted a NULL array, which UBSan reports; make SAN=1). */
static void test_empty_decoration_group(void **state) {
  (void)state;
  ld_module *m = load_text(PRELUDE "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %kern \"k\"\n"
                                   "%g = OpDecorationGroup\nOpGroupDecorate %g\n" KERNEL_TAIL);
  if (!m) fail_msg("%s", g_err);
  assert_int_equal(m->ndecos, 0);
  ld_free(m);
}

static void test_debug_info(void **state) {
  (void)state;
  ld_module *m = load_text(PRELUDE
                           "%1 = OpExtInstImport \"OpenCL.std\"\n%2 = OpExtInstImport \"OpenCL.DebugInfo.100\"\n"
                           "%3 = OpExtInstImport \"NonSemantic.Foo\"\n"
                           "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %kern \"k\"\n"
                           "%s = OpString \"k.cl\"\n%t = OpString \"\"\nOpSource OpenCL_C 120000\n"
                           "%void = OpTypeVoid\n"
                           "%src = OpExtInst %void %2 DebugSource %s %t\n"
                           "%kfn = OpTypeFunction %void\n"
                           "%kern = OpFunction %void None %kfn\n%kl = OpLabel\nOpReturn\nOpFunctionEnd\n");
  if (!m) fail_msg("%s", g_err);
  assert_int_equal(m->ids[1].kind, LD_ID_EXTINST_SET);
  assert_int_equal(m->ids[1].index, LD_EXT_OPENCL_STD);
  assert_int_equal(m->ids[2].index, LD_EXT_DEBUGINFO);
  assert_int_equal(m->ids[3].index, LD_EXT_NONSEMANTIC);
  assert_int_equal(m->ndebug_insns, 1);
  assert_int_equal(m->debug_insns[0].opcode, SpvOpExtInst);
  assert_int_equal(m->debug_insns[0].ops[0], 2);  /* the set */
  assert_int_equal(m->debug_insns[0].ops[1], 35); /* DebugSource */
  assert_int_equal(m->debug_insns[0].nops, 4);
  assert_int_equal(m->ids[m->debug_insns[0].result].kind, LD_ID_DEBUG);
  assert_int_equal(m->source_language, SpvSourceLanguageOpenCL_C);
  assert_int_equal(m->source_version, 120000);
  ld_free(m);
}

static void test_validation_modes(void **state) {
  (void)state;
  /* double without the Float64 capability: the validator objects, the loader can still use it */
  const char *text = "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n"
                     "OpEntryPoint Kernel %kern \"k\"\n%double = OpTypeFloat 64\n" KERNEL_TAIL;
  size_t n = 0;
  uint32_t *w = assemble(text, SPV_ENV_UNIVERSAL_1_0, &n);
  assert_non_null(w);
  ld_module *m = load_opts(w, n * 4, false);
  if (!m) fail_msg("%s", g_err);
  ld_free(m);
  assert_int_equal(g_nwarn, 1);
  /* the OpTypeFloat is instruction 5, at word 5 + 2 + 2 + 3 + 4 = 16 */
  assert_string_equal(
    g_warn,
    "t.spv: validation: word 16: Using a 64-bit floating point type requires the Float64 capability.; %double = OpTypeFloat 64");
  m = load_opts(w, n * 4, true);
  assert_null(m);
  assert_string_equal(
    g_err,
    "t.spv: validation: word 16: Using a 64-bit floating point type requires the Float64 capability.; %double = OpTypeFloat 64");
  free(w);
}

/* A kernel whose only validation error is in its OpenCL.DebugInfo.100: DebugTypeFunction with a
 * DebugInfoNone return type, as llvm-spirv 14 writes for a void function (SPIRV-Tools wants a debug
 * type). REAL, when given, is a line with a real error placed after the debug instructions. Words:
 * header 0-4, OpCapability 5 and 7, OpExtInstImport 9 (2 + 6 words of "OpenCL.DebugInfo.100\0"),
 * OpMemoryModel 17, OpEntryPoint 20 (4 words), OpTypeVoid 24, DebugInfoNone 26 (5 words),
 * DebugTypeFunction 31 (7 words), then the line REAL at 38. */
#define DEBUG_ERROR_MODULE(REAL)                                                                                  \
  "OpCapability Addresses\nOpCapability Kernel\n%dbg = OpExtInstImport \"OpenCL.DebugInfo.100\"\n"                \
  "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %kern \"k\"\n%kvoid = OpTypeVoid\n"                       \
  "%none = OpExtInst %kvoid %dbg DebugInfoNone\n%fty = OpExtInst %kvoid %dbg DebugTypeFunction None %none\n" REAL \
  "%kfn = OpTypeFunction %kvoid\n%kern = OpFunction %kvoid None %kfn\n%kl = OpLabel\nOpReturn\nOpFunctionEnd\n"

static void test_validation_debug_info(void **state) {
  (void)state;
  size_t n = 0;
  uint32_t *w = assemble(DEBUG_ERROR_MODULE(""), SPV_ENV_UNIVERSAL_1_0, &n);
  assert_non_null(w);
  /* only the debug information fails: one note, no warning, and --strict loads it too */
  const char *note = "t.spv: the validator rejects the debug information (word 31: OpenCL.DebugInfo.100 "
                     "DebugTypeFunction: expected operand Return Type is not a valid debug type); it is read "
                     "leniently, and the rest of the module validates";
  for (int strict = 0; strict < 2; strict++) {
    ld_module *m = load_opts(w, n * 4, strict);
    if (!m) fail_msg("%s", g_err);
    assert_int_equal(m->ndebug_insns, 2); /* kept for the debugger */
    ld_free(m);
    assert_int_equal(g_nwarn, 0);
    assert_int_equal(g_nnote, 1);
    assert_string_equal(g_note, note);
  }
  /* the producer is named only when the header says it is llvm-spirv (generator 6, spir-v.xml) */
  w[2] = 6u << 16;
  ld_module *m = load_opts(w, n * 4, true);
  assert_non_null(m);
  ld_free(m);
  assert_non_null(strstr(g_note, "debug type), a known defect of llvm-spirv's output; it is read leniently"));
  free(w);

  /* a real error after the debug instructions still fails --strict and warns otherwise, at its
   * word in the module as loaded (38), and with no note */
  w = assemble(DEBUG_ERROR_MODULE("%double = OpTypeFloat 64\n"), SPV_ENV_UNIVERSAL_1_0, &n);
  assert_non_null(w);
  const char *real = "t.spv: validation: word 38: Using a 64-bit floating point type requires the Float64 "
                     "capability.; %double = OpTypeFloat 64";
  m = load_opts(w, n * 4, false);
  assert_non_null(m);
  ld_free(m);
  assert_int_equal(g_nwarn, 1);
  assert_string_equal(g_warn, real);
  assert_int_equal(g_nnote, 0);
  assert_null(load_opts(w, n * 4, true));
  assert_string_equal(g_err, real);
  assert_int_equal(g_nnote, 0);
  free(w);
}

/* A module-scope Function variable (what clang + llvm-spirv 14/15 emit for private initialisers):
 * the validator rejects it, spvi loads it, also with --strict, with one warning naming it as a
 * private variable (also when the entry point lists them in its interface, SPIR-V 1.4); another
 * validation error in the same module is still found. */
/* SPIRV-Tools 2023.1's validator crashes (a null dereference in GetBitWidth, from ValidateExtInst) on
 * the vstore_half family when Data is not a number: a pointer, a struct, an array, a label. Each such
 * module is a load error naming the instruction, before the validator runs; a half pointer where it
 * belongs (operand p) and a float vector Data still load. The ids the messages name are numeric. */
#define VSTORE_HEAD                                                                                               \
  "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\nOpCapability Float16Buffer\n"                 \
  "%std = OpExtInstImport \"OpenCL.std\"\nOpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %k \"k\"\n"        \
  "%void = OpTypeVoid\n%float = OpTypeFloat 32\n%half = OpTypeFloat 16\n%ulong = OpTypeInt 64 0\n"                \
  "%v2f = OpTypeVector %float 2\n%ph = OpTypePointer CrossWorkgroup %half\n%st = OpTypeStruct %float\n"           \
  "%c2 = OpConstant %ulong 2\n%arr = OpTypeArray %float %c2\n%fn = OpTypeFunction %void %ph %st\n"                \
  "%c0 = OpConstant %ulong 0\n%cf = OpConstant %float 1\n%v = OpConstantComposite %v2f %cf %cf\n"                 \
  "%52 = OpConstantComposite %arr %cf %cf\n"                                                                      \
  "%k = OpFunction %void None %fn\n%50 = OpFunctionParameter %ph\n%51 = OpFunctionParameter %st\n%53 = OpLabel\n" \
  "%54 = OpExtInst %void %std "
#define VSTORE_TAIL "\nOpReturn\nOpFunctionEnd\n"

static void test_validator_crash_shapes(void **state) {
  (void)state;
  static const char *const insts[] = {"vstore_half",    "vstore_half_r", "vstore_halfn",
                                      "vstore_halfn_r", "vstorea_halfn", "vstorea_halfn_r"};
  static const unsigned data[] = {50, 51, 52, 53}; /* a pointer, a struct, an array, a label */
  for (size_t i = 0; i < sizeof insts / sizeof insts[0]; i++)
    for (size_t d = 0; d < sizeof data / sizeof data[0]; d++) {
      const bool rounding = strstr(insts[i], "_r") != NULL;
      char line[128], text[2048], want[256];
      snprintf(line, sizeof line, "%s %%%u %%c0 %%50%s", insts[i], data[d], rounding ? " RTE" : "");
      snprintf(text, sizeof text, "%s%s%s", VSTORE_HEAD, line, VSTORE_TAIL);
      ld_module *m = load_text(text);
      if (m) {
        ld_free(m);
        fail_msg("%s: loaded", line);
      }
      /* a label is also not a value: the id check's message comes first (the validator's verdict is
       * read last), and the validator never ran on it; the OpExtInst is at word 94, its data operand
       * at 94 + 5 (opcode, result type, result, set, instruction) */
      if (data[d] == 53)
        snprintf(want, sizeof want, "OpExtInst operand 'data' (word 99): %%53 is not a value (it is a label)");
      else
        snprintf(want, sizeof want,
                 "OpExtInst %%54 %s: operand 'data' %%%u is not a number (an int, float or bool scalar or vector): "
                 "refused before validation, as SPIRV-Tools 2023.1's validator crashes on it",
                 insts[i], data[d]);
      if (!strstr(g_err, want)) fail_msg("%s: error \"%s\" does not contain \"%s\"", line, g_err, want);
    }
  /* the same instructions with a number as Data load */
  ld_module *m = load_text(VSTORE_HEAD "vstore_halfn %v %c0 %50" VSTORE_TAIL);
  if (!m) fail_msg("%s", g_err);
  ld_free(m);
  m = load_text(VSTORE_HEAD "vstore_half_r %cf %c0 %50 RTE" VSTORE_TAIL);
  if (!m) fail_msg("%s", g_err);
  ld_free(m);
}

static void test_function_storage_global(void **state) {
  (void)state;
  const char *head = "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n"
                     "OpEntryPoint Kernel %kern \"k\" %pv %pw\nOpName %pv \"pv\"\n%uint = OpTypeInt 32 0\n"
                     "%c7 = OpConstant %uint 7\n%pf = OpTypePointer Function %uint\n"
                     "%pv = OpVariable %pf Function %c7\n%pw = OpVariable %pf Function %c7\n";
  char text[1024];
  for (int bad = 0; bad < 2; bad++) {
    /* bad: also a double without the Float64 capability, after the variables */
    snprintf(text, sizeof text, "%s%s%s", head, bad ? "%double = OpTypeFloat 64\n" : "", KERNEL_TAIL);
    size_t n = 0;
    uint32_t *w = assemble(text, SPV_ENV_UNIVERSAL_1_4, &n); /* 1.4: the interface lists them */
    assert_non_null(w);
    for (int strict = 0; strict < 2; strict++) {
      ld_module *m = load_opts(w, n * 4, strict);
      if (bad && strict) {
        assert_null(m);
        assert_non_null(strstr(g_err, "requires the Float64 capability"));
        continue;
      }
      if (!m) fail_msg("%s", g_err);
      assert_int_equal(m->nglobals, 2);
      assert_int_equal(m->globals[0].storage, SpvStorageClassFunction);
      ld_free(m);
      assert_int_equal(g_nwarn, bad ? 2 : 1); /* one for both variables (+ the validator's) */
      if (!bad)
        assert_string_equal(g_warn,
                            "t.spv: module-scope OpVariable `pv` is in the Function storage class, which SPIR-V "
                            "allows only inside a function (llvm-spirv emits it for private initialisers): run "
                            "as a private variable, each work-item with its own initialised copy");
    }
    free(w);
  }
  /* the first variable's result id far past the bound: the out-of-range error, and no read of the id
   * table to name it in the warning (fuzzing found that read, tests/fuzz/regress/run/) */
  snprintf(text, sizeof text, "%s%s", head, KERNEL_TAIL);
  size_t nw = 0;
  uint32_t *vw = assemble(text, SPV_ENV_UNIVERSAL_1_4, &nw);
  assert_non_null(vw);
  bool patched = false;
  for (size_t i = 5; i < nw && !patched; i += vw[i] >> 16 ? vw[i] >> 16 : nw) {
    if ((vw[i] & 0xffffu) == SpvOpVariable && vw[i + 3] == SpvStorageClassFunction) {
      vw[i + 2] = 0xFFFFFF00u;
      patched = true;
    }
  }
  assert_true(patched);
  for (int strict = 0; strict < 2; strict++) {
    assert_null(load_opts(vw, nw * 4, strict));
    /* --strict: the validator's verdict is the error (ld_validate_finish) */
    const char *want = strict ? "Result <id> '4294967040' must be less than the ID bound"
                              : "OpVariable result id 4294967040 is out of range";
    if (!strstr(g_err, want)) fail_msg("\"%s\" does not contain \"%s\"", g_err, want);
    assert_null(strstr(g_warn, "Function storage class")); /* (the validator may warn) */
  }
  free(vw);
  /* with debug information the validator rejects too: that error alone is the one note, the
   * variables still the one warning, and --strict loads it (ld_validate.c patches and strips both) */
  snprintf(text, sizeof text,
           "OpCapability Addresses\nOpCapability Kernel\n%%dbg = OpExtInstImport \"OpenCL.DebugInfo.100\"\n%s%s",
           strstr(head, "OpMemoryModel"),
           "%kvoid = OpTypeVoid\n%none = OpExtInst %kvoid %dbg DebugInfoNone\n"
           "%fty = OpExtInst %kvoid %dbg DebugTypeFunction None %none\n%kfn = OpTypeFunction %kvoid\n"
           "%kern = OpFunction %kvoid None %kfn\n%kl = OpLabel\nOpReturn\nOpFunctionEnd\n");
  size_t n = 0;
  uint32_t *w = assemble(text, SPV_ENV_UNIVERSAL_1_4, &n);
  assert_non_null(w);
  for (int strict = 0; strict < 2; strict++) {
    ld_module *m = load_opts(w, n * 4, strict);
    if (!m) fail_msg("%s", g_err);
    ld_free(m);
    assert_int_equal(g_nwarn, 1);
    assert_non_null(strstr(g_warn, "module-scope OpVariable `pv` is in the Function storage class"));
    assert_int_equal(g_nnote, 1);
    assert_non_null(strstr(g_note, "the validator rejects the debug information"));
  }
  free(w);
}

static void test_function_structure_errors(void **state) {
  (void)state;
  const char *pre = PRELUDE "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %kern \"k\"\n"
                            "%kvoid = OpTypeVoid\n%kfn = OpTypeFunction %kvoid\n%int = OpTypeInt 32 0\n";
  char buf[2048];
  snprintf(buf, sizeof buf, "%s%s", pre,
           "%kern = OpFunction %kvoid None %kfn\n%kl = OpLabel\n"
           "%x = OpUndef %int\n%k2 = OpLabel\nOpReturn\nOpFunctionEnd\n");
  expect_text_fail(buf, "block %");
  assert_non_null(strstr(g_err, "does not end in a terminator"));
  snprintf(buf, sizeof buf, "%s%s", pre, "%kern = OpFunction %kvoid None %kfn\nOpFunctionEnd\n");
  expect_text_fail(buf, "has no body and is not declared LinkageAttributes Import");
  snprintf(buf, sizeof buf, "%s%s", pre, "%kern = OpFunction %kvoid None %kfn\n%kl = OpLabel\nOpReturn\n");
  expect_text_fail(buf, "has no OpFunctionEnd (end of module reached)");
  snprintf(buf, sizeof buf, "%s%s", pre,
           "%kern = OpFunction %kvoid None %kfn\n%kl = OpLabel\n"
           "%c = OpConstant %int 1\nOpReturn\nOpFunctionEnd\n");
  expect_text_fail(buf, "OpConstant inside function %");
  snprintf(buf, sizeof buf, "%s%s", pre, "%kern = OpFunction %int None %kfn\n%kl = OpLabel\nOpReturn\nOpFunctionEnd\n");
  expect_text_fail(buf, "but its function type %");
}

/* ---- corpus -------------------------------------------------------------------------------- */

#define CORPUS "/work/shared/corpus/oneapi-construction-kit-unitcl"

typedef struct reason {
  char text[160];
  int count;
} reason;

/* Group messages by their text with file names and numbers removed. */
static void tally(reason *r, int *nr, int max, const char *msg) {
  char key[160];
  size_t k = 0;
  const char *p = strstr(msg, ": ");
  p = p ? p + 2 : msg;
  for (; *p && k + 1 < sizeof key; p++) {
    if (*p >= '0' && *p <= '9') {
      if (k == 0 || key[k - 1] != 'N') key[k++] = 'N';
      continue;
    }
    key[k++] = *p;
  }
  key[k] = '\0';
  for (int i = 0; i < *nr; i++)
    if (strcmp(r[i].text, key) == 0) {
      r[i].count++;
      return;
    }
  if (*nr < max) {
    snprintf(r[*nr].text, sizeof r[*nr].text, "%s", key);
    r[(*nr)++].count = 1;
  }
}

static void test_corpus(void **state) {
  (void)state;
  DIR *d = opendir(CORPUS);
  if (!d) {
    print_message("corpus " CORPUS " not found: skipped\n");
    skip();
  }
  int loaded = 0, rejected = 0, unassembled = 0, warned = 0;
  reason reasons[64];
  int nreasons = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len < 9 || (strcmp(e->d_name + len - 9, ".spvasm64") && strcmp(e->d_name + len - 9, ".spvasm32"))) continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", CORPUS, e->d_name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    rewind(f);
    char *text = malloc((size_t)sz + 1);
    assert_int_equal(fread(text, 1, (size_t)sz, f), (size_t)sz);
    text[sz] = '\0';
    fclose(f);
    size_t n = 0;
    uint32_t *w = NULL;
    /* the texts come from llvm-spirv 14 (SPIR-V 1.0, a few 1.1+); assemble with the oldest
     * environment that accepts them */
    static const spv_target_env envs[] = {SPV_ENV_UNIVERSAL_1_0, SPV_ENV_UNIVERSAL_1_1, SPV_ENV_UNIVERSAL_1_4};
    for (size_t k = 0; k < 3 && !w; k++) {
      spv_context ctx = spvContextCreate(envs[k]);
      spv_binary bin = NULL;
      spv_diagnostic diag = NULL;
      if (spvTextToBinary(ctx, text, (size_t)sz, &bin, &diag) == SPV_SUCCESS) {
        w = malloc(bin->wordCount * 4);
        memcpy(w, bin->code, bin->wordCount * 4);
        n = bin->wordCount;
      }
      spvBinaryDestroy(bin);
      spvDiagnosticDestroy(diag);
      spvContextDestroy(ctx);
    }
    free(text);
    if (!w) {
      unassembled++;
      continue;
    }
    ld_options o = {.strict = false, .warn = on_warn};
    char err[1024] = "";
    g_nwarn = 0;
    ld_module *m = ld_load(w, n * 4, e->d_name, &o, err, sizeof err);
    free(w);
    if (g_nwarn) warned++;
    if (m) {
      loaded++;
      ld_free(m);
      continue;
    }
    rejected++;
    if (strncmp(err, e->d_name, strlen(e->d_name)) != 0 || err[strlen(e->d_name)] != ':')
      fail_msg("%s: message does not name the file: \"%s\"", e->d_name, err);
    tally(reasons, &nreasons, 64, err);
  }
  closedir(d);
  print_message("corpus %s: %d loaded (%d with validator warnings), %d rejected, %d not assembled\n", CORPUS, loaded,
                warned, rejected, unassembled);
  for (int i = 0; i < nreasons; i++) print_message("  %4d x %s\n", reasons[i].count, reasons[i].text);
  assert_true(loaded > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_minimal_little_endian),
    cmocka_unit_test(test_minimal_byte_swapped),
    cmocka_unit_test(test_truncated_everywhere),
    cmocka_unit_test(test_bad_header),
    cmocka_unit_test(test_empty_decoration_group),
    cmocka_unit_test(test_bad_instructions),
    cmocka_unit_test(test_bad_references),
    cmocka_unit_test(test_mutations),
    cmocka_unit_test(test_unsupported_module_features),
    cmocka_unit_test(test_layout_values),
    cmocka_unit_test(test_bad_layouts),
    cmocka_unit_test(test_constants),
    cmocka_unit_test(test_spec_constant_ops),
    cmocka_unit_test(test_globals_decorations_functions),
    cmocka_unit_test(test_spirv_1_2_features),
    cmocka_unit_test(test_debug_info),
    cmocka_unit_test(test_validation_modes),
    cmocka_unit_test(test_validation_debug_info),
    cmocka_unit_test(test_validator_crash_shapes),
    cmocka_unit_test(test_function_storage_global),
    cmocka_unit_test(test_function_structure_errors),
    cmocka_unit_test(test_corpus),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
