/*
 * test_valparts.c — a large module validated in parts on several threads (loader/ld_valparts.c,
 * issue #18): the plan keeps every function with the functions it names, gives every part an entry
 * point, leaves the module whole where a part could not stand alone, and the verdict through the
 * public API is the whole module's (the SPIRV-Tools validator on the whole module is the reference:
 * SPVI_VALIDATE_PARTS=1), errors in any part included, with the same message when there is one.
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

#include "ld_internal.h"
#include "spvasm.h"
#include "spvi.h"

typedef struct words {
  uint32_t *w, n;
  uint32_t *at, ninsn; /* word offset of every instruction */
} words;

/* Assemble SPIR-V text (numeric ids kept, so that a test can make a literal equal an id). */
static words assemble(const char *text) {
  size_t n;
  words r = {spvasm_assemble(text, strlen(text), 2, true, "module text", &n), 0, NULL, 0};
  r.n = (uint32_t)n;
  r.at = malloc(r.n * sizeof *r.at);
  for (uint32_t at = 5; at < r.n; at += r.w[at] >> 16) r.at[r.ninsn++] = at;
  return r;
}

static void words_free(words *m) {
  free(m->w);
  free(m->at);
}

/* The word offset of the first instruction `opcode` whose word k is `v`. */
static uint32_t find(const words *m, uint32_t opcode, uint32_t k, uint32_t v) {
  for (uint32_t i = 0; i < m->ninsn; i++)
    if ((m->w[m->at[i]] & 0xFFFFu) == opcode && m->w[m->at[i] + k] == v) return m->at[i];
  fail_msg("no instruction %u with word %u = %u", opcode, k, v);
  return 0;
}

/* The part function ordinal fn is in (ordinals count OpFunction instructions from 0). */
static uint32_t part_of(const ld_valplan *p, uint32_t fn) {
  for (uint32_t part = 0; part < ld_valplan_parts(p); part++)
    if (ld_valplan_holds(p, part, fn)) return part;
  fail_msg("function %u is in no part", fn);
  return 0;
}

static ld_valplan *plan(const words *m, uint32_t nparts) {
  bool oom = false;
  ld_valplan *p = ld_valplan_new(m->w, m->n, m->at, m->ninsn, nparts, &oom);
  assert_false(oom);
  return p;
}

/* Two kernels, %10 "ka" calling the helper %30, and %20 "kb"; ids are fixed so that tests can name
 * them. The helper loads with alignment 20, a literal equal to kb's id (the walk must not take it
 * for an id). TAIL is appended (more functions). */
#define HEAD                                                          \
  "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n" \
  "OpMemoryModel Physical64 OpenCL\n"
#define ENTRIES "OpEntryPoint Kernel %10 \"ka\"\nOpEntryPoint Kernel %20 \"kb\"\n"
#define TYPES                                                                                             \
  "OpName %12 \"xa\"\nOpName %22 \"xb\"\nOpDecorate %40 FuncParamAttr NoAlias\n%40 = OpDecorationGroup\n" \
  "OpGroupDecorate %40 %31 %23\n"                                                                         \
  "%1 = OpTypeVoid\n%2 = OpTypeInt 32 0\n%3 = OpTypeFunction %1\n%4 = OpConstant %2 1\n"                  \
  "%5 = OpTypePointer CrossWorkgroup %2\n%6 = OpTypeFunction %2 %5\n%7 = OpTypeFunction %1 %5\n"
#define HELPER                                                                 \
  "%30 = OpFunction %2 None %6\n%31 = OpFunctionParameter %5\n%32 = OpLabel\n" \
  "%33 = OpLoad %2 %31 Aligned 20\nOpReturnValue %33\nOpFunctionEnd\n"
#define KA                                                                     \
  "%10 = OpFunction %1 None %7\n%13 = OpFunctionParameter %5\n%11 = OpLabel\n" \
  "%12 = OpFunctionCall %2 %30 %13\nOpReturn\nOpFunctionEnd\n"
#define KB                                                                     \
  "%20 = OpFunction %1 None %7\n%23 = OpFunctionParameter %5\n%21 = OpLabel\n" \
  "%22 = OpIAdd %2 %4 %4\nOpStore %23 %22 Aligned 4\nOpReturn\nOpFunctionEnd\n"

static void test_plan_keeps_calls_together(void **state) {
  (void)state;
  words m = assemble(HEAD ENTRIES TYPES HELPER KA KB);
  ld_valplan *p = plan(&m, 2);
  assert_non_null(p);
  assert_int_equal(ld_valplan_parts(p), 2);
  /* functions in module order: helper 0, ka 1, kb 2 */
  assert_int_equal(part_of(p, 0), part_of(p, 1));
  assert_int_not_equal(part_of(p, 1), part_of(p, 2));
  const uint32_t ka = part_of(p, 1), kb = part_of(p, 2);
  /* OpName of a value of kb: only in kb's part; OpGroupDecorate keeps the targets each part holds */
  uint32_t buf[16];
  const uint32_t name_at = find(&m, SpvOpName, 1, 22);
  memcpy(buf, m.w + name_at, 4 * (m.w[name_at] >> 16));
  assert_int_equal(ld_valplan_module_insn(p, ka, buf), 0);
  assert_int_equal(ld_valplan_module_insn(p, kb, buf), m.w[name_at] >> 16);
  const uint32_t group_at = find(&m, SpvOpGroupDecorate, 1, 40);
  memcpy(buf, m.w + group_at, 16);
  assert_int_equal(ld_valplan_module_insn(p, ka, buf), 3);
  assert_int_equal(buf[2], 31);
  memcpy(buf, m.w + group_at, 16);
  assert_int_equal(ld_valplan_module_insn(p, kb, buf), 3);
  assert_int_equal(buf[2], 23);
  /* an OpEntryPoint goes with its function; a type stays everywhere */
  const uint32_t entry_at = find(&m, SpvOpEntryPoint, 2, 20);
  memcpy(buf, m.w + entry_at, 4 * (m.w[entry_at] >> 16));
  assert_int_equal(ld_valplan_module_insn(p, ka, buf), 0);
  const uint32_t type_at = find(&m, SpvOpTypeInt, 1, 2);
  memcpy(buf, m.w + type_at, 16);
  assert_int_equal(ld_valplan_module_insn(p, ka, buf), 4);
  ld_valplan_free(p);
  words_free(&m);
}

static void test_plan_leaves_module_whole(void **state) {
  (void)state;
  /* one part wanted, or one entry point's component: nothing to cut */
  words m = assemble(HEAD ENTRIES TYPES HELPER KA KB);
  assert_null(plan(&m, 1));
  words_free(&m);
  m = assemble(HEAD "OpEntryPoint Kernel %10 \"ka\"\n" TYPES HELPER KA KB);
  assert_null(plan(&m, 2));
  words_free(&m);
  /* kb calls ka's helper: one component */
  m = assemble(HEAD ENTRIES TYPES HELPER KA "%20 = OpFunction %1 None %7\n%23 = OpFunctionParameter %5\n%21 = OpLabel\n"
                                            "%22 = OpFunctionCall %2 %30 %23\nOpReturn\nOpFunctionEnd\n");
  assert_null(plan(&m, 2));
  words_free(&m);
  /* two entry points named alike (2.16.1): the validator must see both */
  m = assemble(HEAD "OpEntryPoint Kernel %10 \"k\"\nOpEntryPoint Kernel %20 \"k\"\n" TYPES HELPER KA KB);
  assert_null(plan(&m, 2));
  words_free(&m);
  /* a module-scope non-semantic instruction naming a function */
  m = assemble("OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
               "OpExtension \"SPV_KHR_non_semantic_info\"\n%50 = OpExtInstImport \"NonSemantic.Test\"\n"
               "OpMemoryModel Physical64 OpenCL\n" ENTRIES TYPES "%51 = OpExtInst %1 %50 1 %20\n" HELPER KA KB);
  assert_null(plan(&m, 2));
  words_free(&m);
}

static void test_plan_gives_every_part_an_entry(void **state) {
  (void)state;
  /* an uncalled function (a component without an entry point) and three parts wanted: two parts,
   * each with a kernel (a part without one would fail validation: no OpEntryPoint) */
  words m = assemble(HEAD ENTRIES TYPES HELPER KA KB
                     "%60 = OpFunction %1 None %3\n%61 = OpLabel\nOpReturn\nOpFunctionEnd\n");
  ld_valplan *p = plan(&m, 3);
  assert_non_null(p);
  assert_int_equal(ld_valplan_parts(p), 2);
  assert_int_not_equal(part_of(p, 1), part_of(p, 2));
  ld_valplan_free(p);
  words_free(&m);
}

/* Load m strictly with the validator in `parts` parts: NULL and the message when it fails. */
static bool load_strict(const words *m, const char *parts, char *msg, size_t len) {
  setenv("SPVI_VALIDATE_PARTS", parts, 1);
  spvi_load_options o = {.strict = true};
  spvi_error err;
  spvi_module *mod = spvi_load_memory(m->w, m->n * 4, "t.spv", &o, &err);
  unsetenv("SPVI_VALIDATE_PARTS");
  snprintf(msg, len, "%s", mod ? "" : err.message);
  spvi_module_free(mod);
  return mod != NULL;
}

static void expect_same_verdict(const char *text, bool valid) {
  words m = assemble(text);
  char whole[1024], parts[1024];
  const bool ok1 = load_strict(&m, "1", whole, sizeof whole), ok2 = load_strict(&m, "2", parts, sizeof parts);
  if (ok1 != valid) fail_msg("whole-module verdict: %s", ok1 ? "valid" : whole);
  if (ok2 != valid) fail_msg("in parts: %s", ok2 ? "valid" : parts);
  assert_string_equal(whole, parts);
  words_free(&m);
}

static void test_verdict_is_the_whole_modules(void **state) {
  (void)state;
  expect_same_verdict(HEAD ENTRIES TYPES HELPER KA KB, true);
  /* an error in either kernel's part, in the helper, at module scope */
  expect_same_verdict(HEAD ENTRIES TYPES HELPER KA
                      "%20 = OpFunction %1 None %7\n%23 = OpFunctionParameter %5\n%21 = OpLabel\n"
                      "%22 = OpIAdd %2 %4 %23\nOpReturn\nOpFunctionEnd\n",
                      false);
  expect_same_verdict(HEAD ENTRIES TYPES "%30 = OpFunction %2 None %6\n%31 = OpFunctionParameter %5\n%32 = OpLabel\n"
                                         "%33 = OpLoad %2 %31 Aligned 20\nOpReturnValue %31\nOpFunctionEnd\n" KA KB,
                      false);
  expect_same_verdict(HEAD ENTRIES TYPES "%8 = OpTypeVector %2 5\n" HELPER KA KB, false);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_plan_keeps_calls_together),
    cmocka_unit_test(test_plan_leaves_module_whole),
    cmocka_unit_test(test_plan_gives_every_part_an_entry),
    cmocka_unit_test(test_verdict_is_the_whole_modules),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
