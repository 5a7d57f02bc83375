/*
 * test_ops.c — the table of prepared instructions (interp/ex_ops.h) and the translation into them
 * (interp/ex_prepare.c):
 *   - the table is whole: every handler has a name, a six-field shape, where it comes from and its
 *     semantics; the handlers the translation looks up by opcode have a row per type variant of
 *     their family, and the lookup finds exactly that row. (That every row has an executor handler
 *     and every handler a row is the compiler's to check: ex_exec.c's label tables come from the
 *     same list, and a missing or unused label does not compile.)
 *   - one instruction as `spvi info --prepared` prints it, operands named by their shape, and the
 *     checks of spvi_dump_prepared's arguments (tests/cli/test_cli.sh checks a whole dump);
 *   - running out of memory at any allocation of ex_prepare fails cleanly: NULL with an empty
 *     message (SPVI_E_NOMEM through the API), nothing leaked.
 * Run from the repository root after `BUILD=<dir> sh tests/kernels/build.sh` (the modules of the
 * memory test are test kernels).
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

#include "ex_dump.h"
#include "ex_internal.h"
#include "spvi.h"

/* ---- the table ----------------------------------------------------------------------------------- */

static const char *const list_names[] = {
#define NAME_(name) #name,
  EX_OP_LIST(NAME_)
#undef NAME_
};

static const char *const variant_suffix[EX_T_COUNT] = {
  [EX_T_I8] = "_I8",   [EX_T_I16] = "_I16", [EX_T_I32] = "_I32", [EX_T_I64] = "_I64",
  [EX_T_F16] = "_F16", [EX_T_F32] = "_F32", [EX_T_F64] = "_F64",
};

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Shape characters each field may hold (ex_ops.h "Shapes"). */
static void check_shape(const char *name, const char *shape) {
  static const char *const allowed[EX_SH_FIELDS] = {"d-", "rxlfnzk-", "rxlfnzk-", "rxlfnzk-", "nzk-", "nzk-"};
  if (strlen(shape) != EX_SH_FIELDS) fail_msg("%s: shape `%s` is not six fields", name, shape);
  for (int f = 0; f < EX_SH_FIELDS; f++)
    if (!strchr(allowed[f], shape[f])) fail_msg("%s: shape `%s`: field %d cannot be `%c`", name, shape, f, shape[f]);
}

static void test_every_row_is_whole(void **state) {
  (void)state;
  assert_int_equal(sizeof list_names / sizeof list_names[0], EX_OP_COUNT);
  for (int i = 0; i < EX_OP_COUNT; i++) {
    const ex_op_info *o = &ex_op_infos[i];
    assert_non_null(o->name);
    assert_string_equal(o->name, list_names[i]); /* the enum, EX_OP_LIST and the info agree */
    assert_true(o->family && o->family[0] && o->from && o->from[0] && o->semantics && o->semantics[0]);
    check_shape(o->name, o->shape);
    assert_true(o->variant < EX_T_COUNT);
    if (o->variant != EX_T_NONE && !ends_with(o->name, variant_suffix[o->variant]))
      fail_msg("%s: variant %u but not named for it", o->name, o->variant);
    for (int j = 0; j < i; j++)
      if (strcmp(o->name, ex_op_infos[j].name) == 0) fail_msg("%s: two rows", o->name);
  }
}

/* Every opcode of EX_OPS_SELECTED: a handler per variant of its family (all four integer widths,
 * all three float ones, or the one untyped handler), each found by the lookup, of one family with
 * one shape and one meaning. */
static void test_selected_families_are_complete(void **state) {
  (void)state;
  unsigned nselected = 0;
  for (int i = 0; i < EX_OP_COUNT; i++) {
    const ex_op_info *o = &ex_op_infos[i];
    if (!o->spv) continue;
    nselected++;
    const unsigned vs = ex_op_variants(o->spv);
    if (vs != EX_VARIANTS_INT && vs != EX_VARIANTS_FLT && vs != 1u << EX_T_NONE)
      fail_msg("%s: opcode %u has handlers for variants 0x%x", o->name, o->spv, vs);
    assert_int_equal(ex_op_select(o->spv, (ex_variant)o->variant), i);
    for (unsigned v = 0; v < EX_T_COUNT; v++) {
      if (!(vs >> v & 1)) continue;
      const ex_op_info *sib = &ex_op_infos[ex_op_select(o->spv, (ex_variant)v)];
      assert_string_equal(sib->family, o->family);
      assert_string_equal(sib->shape, o->shape);
      assert_string_equal(sib->semantics, o->semantics);
    }
  }
  /* 26 integer families (SPIR-V 3.32.13-15) x 4, 28 float x 3, 7 logical */
  assert_int_equal(nselected, 26 * 4 + 28 * 3 + 7);
}

static void test_lookup(void **state) {
  (void)state;
  assert_int_equal(ex_op_select(SpvOpIAdd, EX_T_I32), EX_IADD_I32);
  assert_int_equal(ex_op_select(SpvOpSDiv, EX_T_I8), EX_SDIV_I8);
  assert_int_equal(ex_op_select(SpvOpFOrdLessThan, EX_T_F16), EX_FOLT_F16);
  assert_int_equal(ex_op_select(SpvOpDot, EX_T_F64), EX_DOT_F64);
  assert_int_equal(ex_op_select(SpvOpLogicalNot, EX_T_NONE), EX_LNOT);
  /* OpLessOrGreater is OpFOrdNotEqual (SPIR-V 3.32.15) */
  assert_int_equal(ex_op_select(SpvOpLessOrGreater, EX_T_F64), EX_FONE_F64);
  assert_int_equal(ex_op_variants(SpvOpLessOrGreater), EX_VARIANTS_FLT);
  /* no handler: a variant the family lacks, an opcode the translation handles itself */
  assert_int_equal(ex_op_select(SpvOpIAdd, EX_T_F32), EX_OP_COUNT);
  assert_int_equal(ex_op_select(SpvOpFAdd, EX_T_I64), EX_OP_COUNT);
  assert_int_equal(ex_op_select(SpvOpLogicalAnd, EX_T_I8), EX_OP_COUNT);
  assert_int_equal(ex_op_variants(SpvOpSelect), 0);
  assert_int_equal(ex_op_variants(SpvOpAtomicFAddEXT), 0);
  assert_int_equal(ex_op_select(SpvOpLoad, EX_T_NONE), EX_OP_COUNT);
  assert_int_equal(ex_variant_int(16), EX_T_I16);
  assert_int_equal(ex_variant_int(1), EX_T_NONE);
  assert_int_equal(ex_variant_float(64), EX_T_F64);
  assert_int_equal(ex_variant_float(8), EX_T_NONE);
  /* arity is in the shape: b is a register of the two-operand families */
  assert_int_equal(ex_op_infos[EX_ISUB_I16].shape[EX_SH_B], 'r');
  assert_int_equal(ex_op_infos[EX_FNEG_F32].shape[EX_SH_B], '-');
}

/* The hook classes (ex_ops.h ex_hk_class): exactly the memory instructions, calls, builtins and
 * sub-group operations have one (the instructions ex_hooks_step decodes, hand-listed here from the
 * SPIR-V they come from), and the fields each class's decoder reads have the shape it needs. */
static void test_hook_classes(void **state) {
  (void)state;
  static const struct {
    ex_op op;
    ex_hk_class hc;
    const char *shape; /* per field: the character the decoder needs, '.' any */
  } want[] = {
    {EX_LOAD, EX_HC_LOAD, "dr.z.."},          {EX_LOAD_4, EX_HC_LOAD, "dr.z.."},
    {EX_LOAD_8, EX_HC_LOAD, "dr.z.."},        {EX_STORE, EX_HC_STORE, "-rrz.."},
    {EX_STORE_4, EX_HC_STORE, "-rrz.."},      {EX_STORE_8, EX_HC_STORE, "-rrz.."},
    {EX_ATOMIC, EX_HC_ATOMIC, "drrrkk"},      {EX_COPYMEM, EX_HC_COPY, "-rrz.."},
    {EX_COPYMEM_SIZED, EX_HC_COPY, "-rrr.z"}, {EX_CALL, EX_HC_CALL, "dfx..."},
    {EX_EXTINST, EX_HC_BUILTIN, "dx...."},    {EX_SUBGROUP, EX_HC_SUBGROUP, "drx..k"},
  };
  const size_t nwant = sizeof want / sizeof want[0];
  for (int op = 0; op < EX_OP_COUNT; op++) {
    const ex_op_info *o = &ex_op_infos[op];
    size_t i = 0;
    while (i < nwant && want[i].op != (ex_op)op) i++;
    const ex_hk_class hc = i < nwant ? want[i].hc : EX_HC_NONE;
    if (ex_op_hook[op] != hc) fail_msg("%s: hook class %u, want %u", o->name, ex_op_hook[op], (unsigned)hc);
    for (int fld = 0; i < nwant && fld < EX_SH_FIELDS; fld++)
      if (want[i].shape[fld] != '.' && want[i].shape[fld] != o->shape[fld])
        fail_msg("%s: shape `%s`, its decoder needs `%s`", o->name, o->shape, want[i].shape);
  }
}

/* ---- one instruction as text ------------------------------------------------------------------- */

static void expect_insn(ex_insn in, const char *want) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  assert_non_null(f);
  ex_dump_insn(&in, f);
  fclose(f);
  assert_string_equal(text, want);
  free(text);
}

static void test_insn_text(void **state) {
  (void)state;
  /* registers positionally, the count keyed (ex_ops.h: IADD is "drr-n-") */
  expect_insn((ex_insn){.op = EX_IADD_I32, .n = 4, .d = 12, .a = 3, .b = 4}, "r12 = IADD_I32 r3, r4 (n=4)");
  /* no result register: a store; its size and alignment keyed */
  expect_insn((ex_insn){.op = EX_STORE_8, .flags = 3, .a = 16, .b = 24, .c = 8}, "STORE_8 r16, r24 (c=8 flags=3)");
  /* an absent operand register, packed immediates in hex from 256 on: an atomic load of a float */
  expect_insn((ex_insn){.op = EX_ATOMIC, .n = 1 | 4 << 1, .flags = EX_AT_LOAD, .d = 8, .a = 0, .b = LD_NONE, .c = 0},
              "r8 = ATOMIC r0, -, r0 (n=9 flags=0)");
  expect_insn(
    (ex_insn){.op = EX_CONVERT, .n = 2, .d = 40, .a = 32, .b = EX_CK_FLOAT << 8 | 32, .c = EX_CK_SINT << 8 | 16},
    "r40 = CONVERT r32 (b=0x220 c=0x110 n=2 flags=0)");
  /* a void call: a function and an aux list; a branch: a block */
  expect_insn((ex_insn){.op = EX_CALL, .d = LD_NONE, .a = 2, .b = 5}, "CALL f2, aux[5]");
  expect_insn((ex_insn){.op = EX_BR, .a = 3, .b = 7}, "BR b3, aux[7]");
  expect_insn((ex_insn){.op = EX_RET}, "RET");
}

/* The API's checks of its arguments: a kernel index from -1 (the whole module) to count - 1. */
static void test_dump_api(void **state) {
  (void)state;
  const char *build = getenv("BUILD");
  char path[512];
  snprintf(path, sizeof path, "%s/kernels/cf_switch.O2.spv", build ? build : "build");
  spvi_error err;
  spvi_module *m = spvi_load_file(path, NULL, &err);
  if (!m) fail_msg("%s", err.message);
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  assert_non_null(f);
  const int nk = spvi_kernel_count(m);
  assert_int_equal(spvi_dump_prepared(m, -1, f, &err), SPVI_OK);
  assert_int_equal(spvi_dump_prepared(m, nk - 1, f, &err), SPVI_OK);
  assert_int_equal(spvi_dump_prepared(m, nk, f, &err), SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "no kernel with index"));
  assert_int_equal(spvi_dump_prepared(m, -2, f, &err), SPVI_E_USAGE);
  assert_int_equal(spvi_dump_prepared(m, 0, NULL, &err), SPVI_E_USAGE);
  assert_int_equal(spvi_dump_prepared(NULL, 0, f, &err), SPVI_E_USAGE);
  fclose(f);
  free(text);
  spvi_module_free(m);
}

/* ---- out of memory ----------------------------------------------------------------------------
 * The allocator of this program fails the allocation numbered `fail_at` (from 0) once armed, and
 * counts the blocks allocated minus those freed meanwhile. Under AddressSanitizer, whose allocator
 * cannot be replaced this way, the test is skipped. */
#if defined(__SANITIZE_ADDRESS__)
#define REPLACED_MALLOC 0
#else
#define REPLACED_MALLOC 1
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);
void __libc_free(void *p);

static bool armed;
static long fail_at, seen, live;

static bool fail_now(void) { return armed && seen++ == fail_at; }

void *malloc(size_t n) {
  if (fail_now()) return NULL;
  void *p = __libc_malloc(n);
  if (armed && p) live++;
  return p;
}
void *calloc(size_t n, size_t size) {
  if (fail_now()) return NULL;
  void *p = __libc_calloc(n, size);
  if (armed && p) live++;
  return p;
}
void *realloc(void *p, size_t n) {
  if (fail_now()) return NULL;
  void *q = __libc_realloc(p, n);
  if (armed && q && !p) live++;
  return q;
}
void free(void *p) {
  if (armed && p) live--;
  __libc_free(p);
}

static uint8_t *read_file(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("cannot open %s (run tests/kernels/build.sh first)", path);
  uint8_t *buf = malloc(1 << 22);
  assert_non_null(buf);
  *n = fread(buf, 1, 1 << 22, f);
  fclose(f);
  return buf;
}
#endif

/* Prepare `path`'s module failing each allocation in turn until one run needs no more. */
static void prepare_failing_everywhere(const char *kernel) {
#if REPLACED_MALLOC
  const char *build = getenv("BUILD");
  char path[512];
  snprintf(path, sizeof path, "%s/kernels/%s", build ? build : "build", kernel);
  size_t n;
  uint8_t *bytes = read_file(path, &n);
  char err[1024];
  ld_options lo = {.strict = false};
  ld_module *m = ld_load(bytes, n, path, &lo, err, sizeof err);
  free(bytes);
  if (!m) fail_msg("%s: %s", path, err);
  for (fail_at = 0;; fail_at++) {
    seen = live = 0;
    armed = true;
    ex_program *p = ex_prepare(m, err, sizeof err);
    if (p) ex_program_free(p);
    armed = false;
    if (live) fail_msg("%s: %ld blocks leaked when allocation %ld failed", kernel, live, fail_at);
    if (p) break;
    if (err[0]) fail_msg("%s: allocation %ld failed: a message instead of none: %s", kernel, fail_at, err);
  }
  /* every allocation of a successful run was failed once */
  assert_int_equal(fail_at, seen);
  assert_true(fail_at > 20);
  ld_free(m);
#else
  (void)kernel;
  skip();
#endif
}

/* Modules with every kind of allocation the translation makes: phis and loops (edge moves, loop
 * analysis), switches, calls, builtins (resolved builtins and their operand types), function
 * variables, constants, sub-group and work-group operations, images. */
static void test_nomem_cf(void **state) {
  (void)state;
  prepare_failing_everywhere("cf_switch.O2.spv");
}
static void test_nomem_calls(void **state) {
  (void)state;
  prepare_failing_everywhere("func_calls.O0.spv");
}
static void test_nomem_printf(void **state) {
  (void)state;
  prepare_failing_everywhere("bi_printf.O2.spv");
}
static void test_nomem_groups(void **state) {
  (void)state;
  prepare_failing_everywhere("wg_collectives.O2.spv");
}
static void test_nomem_images(void **state) {
  (void)state;
  prepare_failing_everywhere("images.O0.spv");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_every_row_is_whole),
    cmocka_unit_test(test_selected_families_are_complete),
    cmocka_unit_test(test_lookup),
    cmocka_unit_test(test_hook_classes),
    cmocka_unit_test(test_insn_text),
    cmocka_unit_test(test_dump_api),
    cmocka_unit_test(test_nomem_cf),
    cmocka_unit_test(test_nomem_calls),
    cmocka_unit_test(test_nomem_printf),
    cmocka_unit_test(test_nomem_groups),
    cmocka_unit_test(test_nomem_images),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
