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
 * text must be identical at every warp width and thread count (check_harness.h). Source lines are
 * the OpLine operands, named by the markers on those OpLines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "check_harness.h"

#define NBR "tests/spvasm_checks/named_barrier_races.spvasm"

/* The kernels' launch: local tmp (uint[16]), buffer out (uint[32]); two groups of 16, sub-groups
 * of 4. `want`: the one report expected (count 0: none). */
static void nbar_run(const char *file, const char *kernel, ch_report want) {
  const ch_case c = {.file = file,
                     .kernel = kernel,
                     .checks = SPVI_CHECK_RACES,
                     .subgroup = 4,
                     .global = 32,
                     .local = 16,
                     .args = {CH_LOC(64), CH_BUF(128)},
                     .want = {want}};
  ch_run(&c);
}

static void test_correct(void **state) {
  (void)state;
  const ch_report none = {0};
  /* producers write local memory, the consumers read it after the named barrier they share: three
   * phases of two barriers of two sub-groups each */
  nbar_run("tests/spvasm/named_barrier_pairs.spvasm", "main", none);
  /* a write ordered before a read through two named barriers (sub-group 0 with 1, 1 with 2), and
   * before sub-group 3's read by a work-group barrier */
  nbar_run(NBR, "ok", none);
  /* sub_group_barrier orders the work-items of one sub-group in a module with named barriers */
  nbar_run(NBR, "sgbar_ok", none);
  /* a named barrier with the global fence orders global memory */
  nbar_run(NBR, "global_ok", none);
}

static void test_races(void **state) {
  (void)state;
  /* Each race occurs in both groups, for each of the 4 work-items of the sub-group that accesses
   * second (8 occurrences); the first group's smallest work-item is shown, at byte offset
   * 4 * (its local id - 4 * sub-group distance), 4 bytes. */
  /* the consumer (sub-group 1) reads tmp[lid - 4] before the named barrier: work-item 4 reads
   * bytes 0..3 that work-item 0 wrote */
  nbar_run(NBR, "early",
           (ch_report){.kind = SPVI_REPORT_RACE,
                       .at = {.mark = "early-read", .gid = 4},
                       .other = {.mark = "early-write", .gid = 0, .write = true},
                       .memory = {.arg = 0, .offset = 0, .size = 4},
                       .count = 8});
  /* sub-group 2 takes part only in barrier b (with 3), not in a (0 and 1): its read of what
   * sub-group 0 wrote is not ordered */
  nbar_run(NBR, "outsider",
           (ch_report){.kind = SPVI_REPORT_RACE,
                       .at = {.mark = "outsider-read", .gid = 8},
                       .other = {.mark = "outsider-write", .gid = 0, .write = true},
                       .memory = {.arg = 0, .offset = 0, .size = 4},
                       .count = 8});
  /* sub-groups 0 and 1 write the same tmp[lid & 3] before their barrier: work-item 4's write of
   * bytes 0..3 against work-item 0's */
  nbar_run(NBR, "two_producers",
           (ch_report){.kind = SPVI_REPORT_RACE,
                       .at = {.mark = "two-second", .gid = 4, .write = true},
                       .other = {.mark = "two-first", .gid = 0, .write = true},
                       .memory = {.arg = 0, .offset = 0, .size = 4},
                       .count = 8});
  /* the first phase orders the first write with the read, not the write after it
   * (@phase-second-write): one report, against that one */
  nbar_run(NBR, "phase",
           (ch_report){.kind = SPVI_REPORT_RACE,
                       .at = {.mark = "phase-read", .gid = 4},
                       .other = {.mark = "phase-second-write", .gid = 0, .write = true},
                       .memory = {.arg = 0, .offset = 0, .size = 4},
                       .count = 8});
  /* the work-items of one sub-group: 1, 2 and 3 against 0 (3 per group) */
  nbar_run(NBR, "intra",
           (ch_report){.kind = SPVI_REPORT_RACE,
                       .at = {.mark = "intra-write", .gid = 1, .write = true},
                       .other = {.mark = "intra-write", .gid = 0, .write = true},
                       .memory = {.arg = 0, .offset = 0, .size = 4},
                       .count = 6});
  /* a named barrier with only the local fence does not order global memory: out[0..3] */
  nbar_run(NBR, "global_local_fence",
           (ch_report){.kind = SPVI_REPORT_RACE,
                       .at = {.mark = "glf-read", .gid = 4},
                       .other = {.mark = "glf-write", .gid = 0, .write = true},
                       .memory = {.arg = 1, .offset = 0, .size = 4},
                       .count = 8});
  /* atomics of sub-groups 0 and 1 on tmp[0] do not race with each other; sub-group 2's plain read
   * of tmp[0] races with them: work-item 8 against work-item 0's atomic add (sub-group 0 first),
   * each of the 4 readers in both groups */
  nbar_run(NBR, "atomics",
           (ch_report){.kind = SPVI_REPORT_RACE,
                       .at = {.mark = "atomics-read", .gid = 8},
                       .other = {.mark = "atomics-add0", .gid = 0, .write = true, .atomic = true},
                       .memory = {.arg = 0, .offset = 0, .size = 4},
                       .count = 8});
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_correct), cmocka_unit_test(test_races)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
