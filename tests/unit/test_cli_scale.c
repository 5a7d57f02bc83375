/*
 * test_cli_scale.c — unit tests of the pieces of `spvi run --shard`, `spvi merge --combine` and the
 * progress line (cli/cli_shard.c, cli_combine.c, cli_progress.c), linked with the command's
 * modules like test_cli_args.c. Expected values are worked out by hand: Slurm's and Kubernetes'
 * variables as their documentation defines them, wrap-around in two's complement, IEEE 754 -0 and
 * NaN ordering, the progress line's rate and time left from fixed counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli_combine.h"
#include "cli_progress.h"
#include "cli_shard.h"

/* ---- --shard ------------------------------------------------------------------------------- */

static const char *const *test_env; /* NAME, VALUE pairs, NULL-terminated */

static char *fake_getenv(const char *name) {
  for (const char *const *p = test_env; p && *p; p += 2)
    if (strcmp(p[0], name) == 0) return (char *)p[1];
  return NULL;
}

/* Parses spec with the environment `env`; returns whether it succeeded. */
static bool shard(const char *spec, const char *const *env, uint64_t *k, uint64_t *n, cli_error *e) {
  test_env = env;
  *k = *n = 99;
  return cli_shard_parse("--shard", spec, fake_getenv, k, n, e);
}

static void test_shard_literal(void **state) {
  (void)state;
  uint64_t k, n;
  cli_error e;
  assert_true(shard("0/1", NULL, &k, &n, &e));
  assert_true(k == 0 && n == 1);
  assert_true(shard("3/4", NULL, &k, &n, &e));
  assert_true(k == 3 && n == 4);
  assert_false(shard("4/4", NULL, &k, &n, &e)); /* GNU parallel's {#} passed unchanged */
  assert_non_null(strstr(e.msg, "shards are numbered from 0 to 3"));
  assert_false(shard("1/0", NULL, &k, &n, &e));
  assert_false(shard("-1/4", NULL, &k, &n, &e));
  assert_false(shard("1/", NULL, &k, &n, &e));
  assert_false(shard("/4", NULL, &k, &n, &e));
  assert_false(shard("2", NULL, &k, &n, &e));
  assert_false(shard("a/b", NULL, &k, &n, &e));
}

static void test_shard_slurm(void **state) {
  (void)state;
  uint64_t k, n;
  cli_error e;
  /* sbatch --array=1-8: tasks 1..8, the 3rd (id 3) is shard 2 of 8 */
  const char *const a18[] = {"SLURM_ARRAY_TASK_ID",
                             "3",
                             "SLURM_ARRAY_TASK_COUNT",
                             "8",
                             "SLURM_ARRAY_TASK_MIN",
                             "1",
                             "SLURM_ARRAY_TASK_MAX",
                             "8",
                             "SLURM_ARRAY_TASK_STEP",
                             "1",
                             NULL};
  assert_true(shard("env", a18, &k, &n, &e));
  assert_true(k == 2 && n == 8);
  assert_true(shard("env/8", a18, &k, &n, &e));
  assert_false(shard("env/4", a18, &k, &n, &e));
  /* --array=10-40:10: ids 10 20 30 40; id 30 is shard 2 of 4 */
  const char *const step[] = {"SLURM_ARRAY_TASK_ID",
                              "30",
                              "SLURM_ARRAY_TASK_COUNT",
                              "4",
                              "SLURM_ARRAY_TASK_MIN",
                              "10",
                              "SLURM_ARRAY_TASK_MAX",
                              "40",
                              "SLURM_ARRAY_TASK_STEP",
                              "10",
                              NULL};
  assert_true(shard("env", step, &k, &n, &e));
  assert_true(k == 2 && n == 4);
  /* --array=1,3,10: 3 tasks that are no range (MAX is not MIN + 2 * STEP) */
  const char *const list[] = {"SLURM_ARRAY_TASK_ID",
                              "3",
                              "SLURM_ARRAY_TASK_COUNT",
                              "3",
                              "SLURM_ARRAY_TASK_MIN",
                              "1",
                              "SLURM_ARRAY_TASK_MAX",
                              "10",
                              NULL};
  assert_false(shard("env", list, &k, &n, &e));
  assert_non_null(strstr(e.msg, "evenly spaced"));
  /* COUNT missing */
  const char *const part[] = {"SLURM_ARRAY_TASK_ID", "3", "SLURM_ARRAY_TASK_MIN", "1", NULL};
  assert_false(shard("env", part, &k, &n, &e));
  assert_non_null(strstr(e.msg, "SLURM_ARRAY_TASK_COUNT is not"));
}

static void test_shard_k8s(void **state) {
  (void)state;
  uint64_t k, n;
  cli_error e;
  const char *const job[] = {"JOB_COMPLETION_INDEX", "5", NULL};
  assert_true(shard("env/6", job, &k, &n, &e));
  assert_true(k == 5 && n == 6);
  assert_false(shard("env/5", job, &k, &n, &e));
  assert_false(shard("env", job, &k, &n, &e));
  assert_non_null(strstr(e.msg, "env/N"));
  assert_false(shard("env/0", job, &k, &n, &e));
  assert_false(shard("env/4", NULL, &k, &n, &e));
  assert_non_null(strstr(e.msg, "neither"));
  const char *const both[] = {"JOB_COMPLETION_INDEX", "1", "SLURM_ARRAY_TASK_ID", "1", NULL};
  assert_false(shard("env/4", both, &k, &n, &e));
}

/* ---- --combine ------------------------------------------------------------------------------ */

/* The combination of one 4-byte element: acc, then v, with initial value init. */
static uint32_t comb32(cli_combine_op op, const char *descr, uint32_t acc, uint32_t v, uint32_t init) {
  unsigned char a[4], x[4], i[4];
  for (int b = 0; b < 4; b++) {
    a[b] = (unsigned char)(acc >> 8 * b);
    x[b] = (unsigned char)(v >> 8 * b);
    i[b] = (unsigned char)(init >> 8 * b);
  }
  cli_combine_elem(op, descr, a, x, i);
  return (uint32_t)a[0] | (uint32_t)a[1] << 8 | (uint32_t)a[2] << 16 | (uint32_t)a[3] << 24;
}

static uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static void test_combine_int(void **state) {
  (void)state;
  /* init 10; shard A added 5 (15), shard B added 7 (17): 10 + 5 + 7 */
  assert_int_equal(comb32(CLI_COMBINE_ADD, "<u4", 15, 17, 10), 22);
  /* wrap-around: init 0xfffffff0, A added 0x20 (0x10), B added 0x20 (0x10): 0x30 */
  assert_int_equal(comb32(CLI_COMBINE_ADD, "<u4", 0x10, 0x10, 0xfffffff0u), 0x30);
  /* atomic_sub: init 0, A subtracted 3 (-3), B added 1 (1): -2 */
  assert_int_equal(comb32(CLI_COMBINE_ADD, "<i4", 0xfffffffdu, 1, 0), 0xfffffffeu);
  /* signed and unsigned order differ: -1 vs 1 */
  assert_int_equal(comb32(CLI_COMBINE_MIN, "<i4", 1, 0xffffffffu, 0), 0xffffffffu);
  assert_int_equal(comb32(CLI_COMBINE_MIN, "<u4", 1, 0xffffffffu, 0), 1);
  assert_int_equal(comb32(CLI_COMBINE_MAX, "<i4", 1, 0xffffffffu, 0), 1);
  assert_int_equal(comb32(CLI_COMBINE_MAX, "<u4", 1, 0xffffffffu, 0), 0xffffffffu);
  assert_int_equal(comb32(CLI_COMBINE_OR, "<u4", 0x0f, 0xf0, 0), 0xff);
  assert_int_equal(comb32(CLI_COMBINE_AND, "<u4", 0x0f, 0x3c, 0xff), 0x0c);
  /* xor: init 0x5; A xored 0x3 (0x6), B xored 0x9 (0xc): 0x5 ^ 0x3 ^ 0x9 */
  assert_int_equal(comb32(CLI_COMBINE_XOR, "<u4", 0x6, 0xc, 0x5), 0x5 ^ 0x3 ^ 0x9);
  /* 1-byte and 8-byte elements */
  unsigned char a = 250, v = 10, i = 0;
  cli_combine_elem(CLI_COMBINE_ADD, "|u1", &a, &v, &i);
  assert_int_equal(a, 4); /* 260 mod 256 */
  unsigned char a8[8], v8[8], i8[8];
  memset(a8, 0xff, 8);
  memset(v8, 0, 8);
  memset(i8, 0, 8);
  v8[0] = 2;
  cli_combine_elem(CLI_COMBINE_ADD, "<i8", a8, v8, i8); /* -1 + 2 */
  assert_int_equal(a8[0], 1);
  assert_int_equal(a8[7], 0);
}

static void test_combine_float(void **state) {
  (void)state;
  /* add: integers within the significand are exact: 1 + (3 - 1) + (4 - 1) */
  assert_int_equal(comb32(CLI_COMBINE_ADD, "<f4", fbits(3), fbits(4), fbits(1)), fbits(6));
  assert_int_equal(comb32(CLI_COMBINE_MIN, "<f4", fbits(2), fbits(-3), 0), fbits(-3));
  assert_int_equal(comb32(CLI_COMBINE_MAX, "<f4", fbits(2), fbits(-3), 0), fbits(2));
  /* -0 is below +0, in either order */
  assert_int_equal(comb32(CLI_COMBINE_MIN, "<f4", fbits(0.0f), fbits(-0.0f), 0), fbits(-0.0f));
  assert_int_equal(comb32(CLI_COMBINE_MIN, "<f4", fbits(-0.0f), fbits(0.0f), 0), fbits(-0.0f));
  assert_int_equal(comb32(CLI_COMBINE_MAX, "<f4", fbits(-0.0f), fbits(0.0f), 0), fbits(0.0f));
  /* a NaN is kept, its bits unchanged (a signalling NaN stays signalling) */
  assert_int_equal(comb32(CLI_COMBINE_MIN, "<f4", fbits(1), 0x7f800001u, 0), 0x7f800001u);
  assert_int_equal(comb32(CLI_COMBINE_MAX, "<f4", 0xffc00005u, fbits(1), 0), 0xffc00005u);
  size_t size;
  cli_error e;
  assert_true(cli_combine_check(CLI_COMBINE_MAX, "<f8", "arg1", &size, &e));
  assert_int_equal(size, 8);
  assert_false(cli_combine_check(CLI_COMBINE_XOR, "<f4", "arg1", &size, &e));
  assert_false(cli_combine_check(CLI_COMBINE_ADD, "<f2", "arg1", &size, &e));
  assert_false(cli_combine_check(CLI_COMBINE_ADD, ">i4", "arg1", &size, &e));
  assert_false(cli_combine_check(CLI_COMBINE_ADD, "|V8", "arg1", &size, &e));
  assert_false(cli_combine_check(CLI_COMBINE_ADD, "<i3", "arg1", &size, &e));
  cli_combine_op op;
  assert_true(cli_combine_op_parse("xor", &op) && op == CLI_COMBINE_XOR);
  assert_false(cli_combine_op_parse("mul", &op));
  assert_false(cli_combine_op_parse("none", &op));
}

/* ---- progress line --------------------------------------------------------------------------- */

static const char *line(uint64_t done, uint64_t total, double elapsed) {
  static char buf[160];
  cli_progress_format(buf, sizeof buf, done, total, elapsed);
  return buf;
}

static void test_progress_format(void **state) {
  (void)state;
  /* 1200 groups in 3 s: 400/s; 3800 left: 9.5 s, shown rounded up */
  assert_string_equal(line(1200, 5000, 3.0), "spvi: 1200/5000 work-groups (24%), 400 groups/s, 0:10 left");
  /* 999 of 1000: 99% (rounded down), 2 s for 1 left at 0.5/s */
  assert_string_equal(line(999, 1000, 1998.0), "spvi: 999/1000 work-groups (99%), 0.50 groups/s, 0:02 left");
  assert_string_equal(line(0, 64, 2.5), "spvi: 0/64 work-groups (0%), 0.00 groups/s, time left unknown");
  /* 10 groups in 4 s: 2.5/s, 7190 left: 2876 s = 47:56 */
  assert_string_equal(line(10, 7200, 4.0), "spvi: 10/7200 work-groups (0%), 2.50 groups/s, 47:56 left");
  /* 15.5/s; hours: 100000 left at 31/2 s^-1 is 6451.6 s, up to 6452 = 1:47:32 */
  assert_string_equal(line(31, 100031, 2.0), "spvi: 31/100031 work-groups (0%), 15.5 groups/s, 1:47:32 left");
  assert_string_equal(line(64, 64, 3.0), "spvi: 64/64 work-groups (100%), 21.3 groups/s, 0:00 left");
  /* a short buffer: cut, still terminated */
  char small[8];
  assert_int_equal(cli_progress_format(small, sizeof small, 1, 2, 1.0), 7);
  assert_string_equal(small, "spvi: 1");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_shard_literal), cmocka_unit_test(test_shard_slurm),   cmocka_unit_test(test_shard_k8s),
    cmocka_unit_test(test_combine_int),   cmocka_unit_test(test_combine_float), cmocka_unit_test(test_progress_format),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
