/*
 * test_checks_nbar.c — `--check races` on modules with named barriers (cl_khr_subgroup_named_barrier,
 * SPIR-V OpNamedBarrierInitialize / OpMemoryNamedBarrier; no OpenCL C syntax in clang-14, so the
 * kernels are hand-written assembly: tests/spvasm_checks/named_barrier_races.spvasm, and the
 * correct tests/spvasm/named_barrier_pairs.spvasm), assembled here through the SPIRV-Tools C API.
 *
 * Work-groups of 16 with sub-groups of 4 (the size the named-barrier .spvasm cases use), two
 * groups, warp widths 1, 7 and 32 (a module with named barriers always runs at warp width S) and
 * one and two threads. Every expectation (kind, source line, work-items, read/write, memory, byte
 * range, number of occurrences) is derived by hand from the kernel and the rules of
 * spec-notes/checks.md "Named barriers"; correct kernels must give no report. The reports' whole
 * text must be identical at every warp width and thread count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <spirv-tools/libspirv.h>

#include "spvi.h"

typedef struct expect {
  unsigned line, other_line;      /* 0: no report expected */
  size_t at_gid, other_gid;
  bool at_write, other_write;
  int arg_index;
  int64_t offset;
  uint64_t size, count;
  unsigned atomics;               /* 1: the shown access is atomic, 2: the other one is */
} expect;

static spvi_module *load(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("%s: cannot open (run from the repository root)", path);
  static char src[1 << 16];
  size_t n = fread(src, 1, sizeof src - 1, f);
  fclose(f);
  src[n] = 0;
  spv_context ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_1);
  spv_binary bin = NULL;
  spv_diagnostic diag = NULL;
  spv_result_t r = spvTextToBinary(ctx, src, n, &bin, &diag);
  if (r != SPV_SUCCESS) fail_msg("%s does not assemble: %s", path, diag ? diag->error : "?");
  spvDiagnosticDestroy(diag);
  spvContextDestroy(ctx);
  spvi_error err;
  spvi_module *m = spvi_load_memory(bin->code, bin->wordCount * 4, path, NULL, &err);
  spvBinaryDestroy(bin);
  if (!m) fail_msg("%s: %s", path, err.message);
  return m;
}

/* One run; returns the reports' text (to compare between widths and threads). */
static char *run_one(spvi_module *m, const char *kernel, const expect *e, unsigned warp, unsigned threads) {
  char ctx[160];
  snprintf(ctx, sizeof ctx, "%s warp %u threads %u", kernel, warp, threads);
  spvi_error err;
  int k = spvi_find_kernel(m, kernel);
  if (k < 0) fail_msg("%s: no kernel", ctx);
  spvi_launch *l = spvi_launch_new(m, k, &err);
  assert_non_null(l);
  assert_int_equal(spvi_set_arg_local(l, 0, 64, &err), SPVI_OK);
  assert_int_equal(spvi_set_arg_buffer(l, 1, NULL, 128, &err), SPVI_OK);
  size_t g = 32, lo = 16;
  assert_int_equal(spvi_set_ndrange(l, 1, &g, &lo, NULL, &err), SPVI_OK);
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.warp_width = warp;
  o.threads = threads;
  o.checks = SPVI_CHECK_RACES;
  o.subgroup_size = 4;
  spvi_fault f;
  if (spvi_run(l, &o, &f, &err) != SPVI_OK) fail_msg("%s: %s %s", ctx, err.message, f.message);
  const size_t n = spvi_report_count(l);
  if (!e->line && n) fail_msg("%s: unexpected report:\n%s", ctx, spvi_report_get(l, 0)->message);
  if (e->line && n != 1) fail_msg("%s: %zu reports, expected 1", ctx, n);
  size_t cap = 1;
  for (size_t i = 0; i < n; i++) cap += strlen(spvi_report_get(l, i)->message) + 1;
  char *all = calloc(cap, 1);
  for (size_t i = 0; i < n; i++) { strcat(all, spvi_report_get(l, i)->message); strcat(all, "\n"); }
  if (n) {
    const spvi_report *r = spvi_report_get(l, 0);
    const char *why = NULL;
    if (r->kind != SPVI_REPORT_RACE) why = "kind";
    else if (r->at.line != e->line) why = "line";
    else if (r->at.global_id[0] != e->at_gid) why = "work-item";
    else if (r->at.write != e->at_write || r->at.atomic != ((e->atomics & 1) != 0)) why = "access";
    else if (!r->has_other || r->other.line != e->other_line || r->other.global_id[0] != e->other_gid ||
             r->other.write != e->other_write || r->other.atomic != ((e->atomics & 2) != 0))
      why = "other site";
    else if (r->arg_index != e->arg_index) why = "memory";
    else if (r->offset != e->offset || r->access_size != e->size) why = "byte range";
    else if (r->count != e->count) why = "count";
    if (why) fail_msg("%s: wrong %s (count %llu) in:\n%s", ctx, why, (unsigned long long)r->count, r->message);
  }
  spvi_launch_free(l);
  return all;
}

static void run_case(const char *path, const char *kernel, expect e) {
  static const unsigned warps[] = {1, 7, 32}, threads[] = {1, 2};
  spvi_module *m = load(path);
  char *ref = NULL;
  for (int w = 0; w < 3; w++)
    for (int t = 0; t < 2; t++) {
      char *got = run_one(m, kernel, &e, warps[w], threads[t]);
      if (!ref) { ref = got; continue; }
      if (strcmp(ref, got)) fail_msg("%s: reports differ at warp %u threads %u:\n%s\nvs\n%s", kernel, warps[w],
                                     threads[t], got, ref);
      free(got);
    }
  free(ref);
  spvi_module_free(m);
}

#define NBR "tests/spvasm_checks/named_barrier_races.spvasm"

static void test_correct(void **state) {
  (void)state;
  const expect none = {0};
  /* producers write local memory, the consumers read it after the named barrier they share: three
   * phases of two barriers of two sub-groups each */
  run_case("tests/spvasm/named_barrier_pairs.spvasm", "main", none);
  /* a write ordered before a read through two named barriers (sub-group 0 with 1, 1 with 2), and
   * before sub-group 3's read by a work-group barrier */
  run_case(NBR, "ok", none);
  /* sub_group_barrier orders the work-items of one sub-group in a module with named barriers */
  run_case(NBR, "sgbar_ok", none);
  /* a named barrier with the global fence orders global memory */
  run_case(NBR, "global_ok", none);
}

static void test_races(void **state) {
  (void)state;
  /* Each race occurs in both groups, for each of the 4 work-items of the sub-group that accesses
   * second (8 occurrences); the first group's smallest work-item is shown, at byte offset
   * 4 * (its local id - 4 * sub-group distance), 4 bytes. */
  /* the consumer (sub-group 1) reads tmp[lid - 4] before the named barrier: work-item 4 reads
   * bytes 0..3 that work-item 0 wrote */
  run_case(NBR, "early", (expect){23, 21, 4, 0, false, true, 0, 0, 4, 8, 0});
  /* sub-group 2 takes part only in barrier b (with 3), not in a (0 and 1): its read of what
   * sub-group 0 wrote is not ordered */
  run_case(NBR, "outsider", (expect){36, 31, 8, 0, false, true, 0, 0, 4, 8, 0});
  /* sub-groups 0 and 1 write the same tmp[lid & 3] before their barrier: work-item 4's write of
   * bytes 0..3 against work-item 0's */
  run_case(NBR, "two_producers", (expect){43, 41, 4, 0, true, true, 0, 0, 4, 8, 0});
  /* the first phase orders the first write (line 51) with the read, not the write after it
   * (line 53): one report, against line 53 */
  run_case(NBR, "phase", (expect){56, 53, 4, 0, false, true, 0, 0, 4, 8, 0});
  /* the work-items of one sub-group: 1, 2 and 3 against 0 (3 per group) */
  run_case(NBR, "intra", (expect){61, 61, 1, 0, true, true, 0, 0, 4, 6, 0});
  /* a named barrier with only the local fence does not order global memory: out[0..3] */
  run_case(NBR, "global_local_fence", (expect){94, 91, 4, 0, false, true, 1, 0, 4, 8, 0});
  /* atomics of sub-groups 0 and 1 on tmp[0] do not race with each other; sub-group 2's plain read
   * of tmp[0] races with them: work-item 8 against work-item 0's atomic add (sub-group 0 first),
   * each of the 4 readers in both groups */
  run_case(NBR, "atomics", (expect){103, 101, 8, 0, false, true, 0, 0, 4, 8, 2});
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_correct), cmocka_unit_test(test_races)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
