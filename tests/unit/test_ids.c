/*
 * test_ids.c — hostile id operands (issue #17): a module whose function body names an id out of
 * range, undefined, of the wrong kind, from another function or before its definition must fail
 * to load with one message naming the instruction, the operand and its word, never crash; and the
 * forward references SPIR-V allows must still load.
 *
 * The crash cases patch one operand word of a valid module (a tests/spvasm case assembled here, or
 * a tests/kernels module compiled by tests/kernels/build.sh) with a huge id: before the loader's
 * id check (loader/ld_ids.c) each of them crashed the preparation (interp/ex_prep_*.c), which
 * indexed m->ids[] with it. The expected message is built from the patched binary itself: the word
 * offset is the instruction's plus the operand's index, the bound is header word 3 (SPIR-V 2.3).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spvasm.h"
#include "spvi.h"

#define HUGE_ID 0x00FFFFF0u

typedef struct words {
  uint32_t *w;
  size_t n;
} words;

/* The whole file, malloc'd and NUL-terminated; *len: its length. */
static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("%s: cannot open (run from the repository root after tests/kernels/build.sh)", path);
  fseek(f, 0, SEEK_END);
  *len = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = calloc(*len + 4, 1);
  assert_non_null(s);
  assert_int_equal(fread(s, 1, *len, f), *len);
  fclose(f);
  return s;
}

static words read_words(const char *path) {
  size_t len;
  words r = {(uint32_t *)(void *)read_file(path, &len), 0};
  r.n = len / 4;
  return r;
}

/* Assemble SPIR-V text, numeric ids kept. */
static words assemble(const char *text, size_t len) {
  size_t n;
  uint32_t *w = spvasm_assemble(text, len, 4, true, "module text", &n);
  return (words){w, n};
}

static words assemble_file(const char *path) {
  size_t len;
  char *s = read_file(path, &len);
  words r = assemble(s, len);
  free(s);
  return r;
}

/* Word offset of the first instruction with `opcode` inside a function. */
static uint32_t find_insn(const words *m, uint32_t opcode) {
  bool in_fn = false;
  for (uint32_t at = 5; at < m->n; at += m->w[at] >> 16) {
    const uint32_t op = m->w[at] & 0xFFFFu;
    in_fn |= op == SpvOpFunction;
    if (in_fn && op == opcode) return at;
  }
  fail_msg("no instruction %u in the module", opcode);
  return 0;
}

/* Load through the public API (loader + preparation): must fail with a message containing `want`. */
static void expect_load_error(const words *m, const char *want) {
  spvi_error err;
  spvi_module *mod = spvi_load_memory(m->w, m->n * 4, "t.spv", NULL, &err);
  if (mod) {
    spvi_module_free(mod);
    fail_msg("loaded, expected an error containing \"%s\"", want);
  }
  if (!strstr(err.message, want)) fail_msg("error \"%s\" does not contain \"%s\"", err.message, want);
  assert_int_equal(err.status, SPVI_E_MODULE);
}

static void expect_loads(const words *m) {
  spvi_error err;
  spvi_module *mod = spvi_load_memory(m->w, m->n * 4, "t.spv", NULL, &err);
  if (!mod) fail_msg("%s", err.message);
  spvi_module_free(mod);
}

/* ---- one huge id per former crash site ----------------------------------------------------- */

typedef struct site {
  const char *file;   /* .spvasm under tests/spvasm, or a kernel NAME (its $BUILD/kernels/NAME.O2.spv) */
  uint32_t opcode;    /* first such instruction in a function */
  uint32_t operand;   /* word index inside the instruction */
  const char *opname; /* for the message */
  const char *operand_name;
} site;

static const site sites[] = {
  {"oob_ptr_chain.spvasm", SpvOpPtrAccessChain, 4, "OpPtrAccessChain", "Element"},
  {"named_barrier_pairs.spvasm", SpvOpInBoundsPtrAccessChain, 4, "OpInBoundsPtrAccessChain", "Element"},
  {"named_barrier_pairs.spvasm", SpvOpMemoryNamedBarrier, 1, "OpMemoryNamedBarrier", "Named Barrier"},
  {"async_copy", SpvOpGroupAsyncCopy, 4, "OpGroupAsyncCopy", "Destination"},
  {"sg_uniform", SpvOpGroupUMax, 5, "OpGroupUMax", "X"},
  {"sg_intel", SpvOpSubgroupShuffleDownINTEL, 3, "OpSubgroupShuffleDownINTEL", "Current"},
  {"sg_nonuniform", SpvOpGroupNonUniformBallot, 4, "OpGroupNonUniformBallot", "Predicate"},
  {"images", SpvOpImageRead, 3, "OpImageRead", "Image"},
  {"images", SpvOpImageWrite, 1, "OpImageWrite", "Image"},
};

static words site_module(const site *s) {
  char path[512];
  if (strstr(s->file, ".spvasm")) {
    snprintf(path, sizeof path, "tests/spvasm/%s", s->file);
    return assemble_file(path);
  }
  const char *build = getenv("BUILD");
  snprintf(path, sizeof path, "%s/kernels/%s.O2.spv", build && *build ? build : "build", s->file);
  return read_words(path);
}

static void test_huge_id_per_site(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof sites / sizeof sites[0]; i++) {
    const site *s = &sites[i];
    words m = site_module(s);
    expect_loads(&m); /* the module is fine before the patch */
    const uint32_t at = find_insn(&m, s->opcode);
    m.w[at + s->operand] = HUGE_ID;
    char want[256];
    snprintf(want, sizeof want,
             "t.spv: word %u: %s operand '%s' (word %u): %%%u is out of range (the header's bound is %u)", at,
             s->opname, s->operand_name, at + s->operand, HUGE_ID, m.w[3]);
    expect_load_error(&m, want);
    free(m.w);
  }
}

/* ---- kinds, order, scope ------------------------------------------------------------------- */

/* A kernel with a helper function called before its definition, a loop whose OpPhi names a value
 * and a label defined after it, a branch to a later label, and an OpTypeForwardPointer: every
 * forward reference SPIR-V allows (2.4, 2.16.1). The tests vary the kernel's last block (`body`, before
 * its OpReturn) and the helper's body (`helper`). */
#define MODULE_HEAD                                                                  \
  "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"                \
  "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %1 \"k\"\n"                  \
  "OpTypeForwardPointer %pnode CrossWorkgroup\n"                                     \
  "%void = OpTypeVoid\n%uint = OpTypeInt 32 0\n%bool = OpTypeBool\n"                 \
  "%node = OpTypeStruct %uint %pnode\n%pnode = OpTypePointer CrossWorkgroup %node\n" \
  "%puint = OpTypePointer CrossWorkgroup %uint\n"                                    \
  "%fk = OpTypeFunction %void %puint\n%fh = OpTypeFunction %uint %uint\n"            \
  "%c0 = OpConstant %uint 0\n%c1 = OpConstant %uint 1\n%c4 = OpConstant %uint 4\n"   \
  "%1 = OpFunction %void None %fk\n%out = OpFunctionParameter %puint\n"              \
  "%entry = OpLabel\nOpBranch %loop\n"                                               \
  "%loop = OpLabel\n%i = OpPhi %uint %c0 %entry %next %body\n"                       \
  "%more = OpULessThan %bool %i %c4\nOpLoopMerge %exit %body None\n"                 \
  "OpBranchConditional %more %body %exit\n"                                          \
  "%body = OpLabel\n%next = OpIAdd %uint %i %c1\nOpBranch %loop\n"                   \
  "%exit = OpLabel\n"
#define MODULE_MID \
  "OpReturn\nOpFunctionEnd\n%2 = OpFunction %uint None %fh\n%x = OpFunctionParameter %uint\n%hl = OpLabel\n"

#define CALL "%r = OpFunctionCall %uint %2 %i\nOpStore %out %r\n"
#define HELPER_OK "%y = OpIAdd %uint %x %c1\nOpReturnValue %y\n"

/* `tail`: instructions after the functions. */
static words module_tail(const char *body, const char *helper, const char *tail) {
  char text[4096];
  snprintf(text, sizeof text, "%s%s%s%sOpFunctionEnd\n%s", MODULE_HEAD, body, MODULE_MID, helper, tail);
  return assemble(text, strlen(text));
}
static words module(const char *body, const char *helper) { return module_tail(body, helper, ""); }

static void test_legal_forward_references(void **state) {
  (void)state;
  words m = module(CALL, HELPER_OK);
  expect_loads(&m);
  /* and it runs: i counts 0..4, helper(4) = 5 */
  spvi_error err;
  spvi_module *mod = spvi_load_memory(m.w, m.n * 4, "t.spv", NULL, &err);
  assert_non_null(mod);
  spvi_launch *l = spvi_launch_new(mod, 0, &err);
  assert_non_null(l);
  const uint32_t zero = 0;
  assert_int_equal(spvi_set_arg_buffer(l, 0, &zero, sizeof zero, &err), SPVI_OK);
  const size_t g = 1;
  assert_int_equal(spvi_set_ndrange(l, 1, &g, NULL, NULL, &err), SPVI_OK);
  assert_int_equal(spvi_run(l, NULL, NULL, &err), SPVI_OK);
  size_t bytes = 0;
  const uint32_t *res = spvi_arg_buffer(l, 0, &bytes);
  assert_int_equal(bytes, 4);
  assert_int_equal(res[0], 5);
  spvi_launch_free(l);
  spvi_module_free(mod);
  free(m.w);
}

/* The error for `body` (in the kernel's exit block), `helper` or `tail`. */
static void expect_tail_error(const char *body, const char *helper, const char *tail, const char *want) {
  words m = module_tail(body, helper, tail);
  expect_load_error(&m, want);
  free(m.w);
}
static void expect_module_error(const char *body, const char *helper, const char *want) {
  expect_tail_error(body, helper, "", want);
}

static void test_wrong_kinds(void **state) {
  (void)state;
  /* a type, a label, a function where a value is expected */
  expect_module_error("%r = OpIAdd %uint %uint %c1\nOpStore %out %r\n", HELPER_OK, "OpIAdd operand 'Operand 1' (word ");
  expect_module_error("%r = OpIAdd %uint %uint %c1\nOpStore %out %r\n", HELPER_OK, "is not a value (it is a type)");
  expect_module_error("%r = OpIAdd %uint %loop %c1\nOpStore %out %r\n", HELPER_OK, "is not a value (it is a label)");
  expect_module_error("OpStore %out %2\n", HELPER_OK, "OpStore operand 'Object' (word ");
  expect_module_error("OpStore %out %2\n", HELPER_OK, "is not a value (it is a function)");
  /* a value where a label, a function is expected */
  expect_module_error(CALL, "%y = OpIAdd %uint %x %c1\nOpBranch %y\n",
                      "is not a label of this function (it is a value)");
  expect_module_error("%r = OpFunctionCall %uint %i %i\nOpStore %out %r\n", HELPER_OK,
                      "OpFunctionCall operand 'Function' (word ");
  expect_module_error("%r = OpFunctionCall %uint %i %i\nOpStore %out %r\n", HELPER_OK,
                      "is not a function (it is a value)");
  /* an OpPhi's parent must be a label */
  expect_module_error(
    CALL, "%y = OpIAdd %uint %x %c1\nOpReturnValue %c0\n%z = OpLabel\n%w = OpPhi %uint %y %y\nOpReturnValue %w\n",
    "OpPhi operand 'Variable' (word ");
}

static void test_order_and_scope(void **state) {
  (void)state;
  /* a constant declared after the functions (SPIR-V 2.4: module-level declarations come first) */
  expect_tail_error("OpStore %out %late\n", HELPER_OK, "%late = OpConstant %uint 7\n",
                    "OpStore operand 'Object' (word ");
  expect_tail_error("OpStore %out %late\n", HELPER_OK, "%late = OpConstant %uint 7\n",
                    "is used before its definition (word ");
  /* the kernel's value %i in the helper, the helper's parameter in the kernel, a label of the other
   * function */
  expect_module_error(CALL, "%y = OpIAdd %uint %i %c1\nOpReturnValue %y\n", "is defined in another function (word ");
  expect_module_error("OpStore %out %x\n", HELPER_OK, "is defined in another function (word ");
  expect_module_error("OpBranch %hl\n%dead = OpLabel\n", HELPER_OK, "is defined in another function (word ");
  /* an id no instruction defines (within the bound) */
  expect_module_error("OpStore %out %undefined_id\n", HELPER_OK, "is not defined anywhere in the module");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_huge_id_per_site),
    cmocka_unit_test(test_legal_forward_references),
    cmocka_unit_test(test_wrong_kinds),
    cmocka_unit_test(test_order_and_scope),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
