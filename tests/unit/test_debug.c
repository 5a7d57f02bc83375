/*
 * test_debug.c — the debugger's C API (spvi_debug_* in spvi.h) without the command line: a session
 * on tests/debug/twice.spvasm (out[g] = out[g] * 2 + 1 through the function twice_one; no line
 * information, ids numbered by hand), its output text, prompt and states, a fault, and a debugged
 * run against spvi_run. Expected values are worked out from the assembly, not taken from spvi.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "debug_text.h"
#include "spvasm.h"

typedef debug_text text;

/* Run one command; the text it printed must contain `want` (NULL: no check). */
static bool command(spvi_debug *d, text *t, const char *cmd, const char *want) {
  t->len = 0;
  t->buf[0] = 0;
  bool go_on = spvi_debug_command(d, cmd);
  if (want && !strstr(t->buf, want)) fail_msg("`%s` printed:\n%s\nwithout: %s", cmd, t->buf, want);
  return go_on;
}

static spvi_module *load_twice(void) { return spvasm_load("tests/debug/twice.spvasm", 0, true, "twice.spv"); }

static spvi_launch *launch(spvi_module *m, const uint32_t *in, size_t n, size_t global, size_t local) {
  spvi_error err;
  spvi_launch *l = spvi_launch_new(m, 0, &err);
  assert_non_null(l);
  assert_int_equal(spvi_set_arg_buffer(l, 0, in, n * 4, &err), SPVI_OK);
  assert_int_equal(spvi_set_ndrange(l, 1, &global, local ? &local : NULL, NULL, &err), SPVI_OK);
  return l;
}

static void test_session(void **state) {
  (void)state;
  spvi_module *m = load_twice();
  const uint32_t in[4] = {5, 6, 7, 8};
  spvi_launch *l = launch(m, in, 4, 4, 0);
  text t = {.len = 0};
  spvi_error err;
  spvi_debug *d = spvi_debug_new(l, NULL, debug_text_collect, &t, &err);
  if (!d) fail_msg("%s", err.message);
  /* stopped before the first instruction of work-item 0: the OpLoad %32 of block %31 */
  assert_non_null(strstr(t.buf, "Stopped at work-item global (0,0,0) local (0,0,0) group (0,0,0)"));
  assert_string_equal(spvi_debug_prompt(d), "(spvi 0,0,0 twice %31+0) ");
  assert_int_equal(spvi_debug_get_state(d, NULL), SPVI_DEBUG_STOPPED);
  command(d, &t, "break %20", "Breakpoint 1 at `%y = OpIMul %uint %14 %uint_2` in twice_one");
  /* work-item 0 calls twice_one(out[0] = 5) */
  command(d, &t, "continue", "Breakpoint 1, twice_one (%14=5) at %15+0");
  command(d, &t, "p %14 + 100", "%14 + 100 = (int) 105");
  command(d, &t, "finish", "Value returned = (int) 11");
  assert_string_equal(spvi_debug_prompt(d), "(spvi 0,0,0 twice %31+5) ");
  /* the breakpoint stops every work-item: work-item 1 with out[1] = 6 */
  command(d, &t, "c", "[Switching to work-item global (1,0,0) local (1,0,0) group (0,0,0)]");
  assert_non_null(strstr(t.buf, "twice_one (%14=6)"));
  command(d, &t, "info workitems", "* 1 ");
  command(d, &t, "delete", NULL);
  command(d, &t, "continue", "[kernel `twice` finished: 1 work-group]");
  assert_int_equal(spvi_debug_get_state(d, NULL), SPVI_DEBUG_FINISHED);
  assert_string_equal(spvi_debug_prompt(d), "(spvi finished) ");
  assert_false(command(d, &t, "quit", NULL));
  spvi_debug_free(d);
  size_t bytes = 0;
  const uint32_t *out = spvi_arg_buffer(l, 0, &bytes);
  assert_int_equal(bytes, 16);
  const uint32_t want[4] = {11, 13, 15, 17};
  assert_memory_equal(out, want, sizeof want);
  spvi_launch_free(l);
  spvi_module_free(m);
}

/* Four work-items over a 3-element buffer: work-item 3 reads 12 bytes into a 12-byte buffer. */
static void test_fault(void **state) {
  (void)state;
  spvi_module *m = load_twice();
  const uint32_t in[3] = {1, 2, 3};
  spvi_launch *l = launch(m, in, 3, 4, 0);
  text t = {.len = 0};
  spvi_error err;
  spvi_debug *d = spvi_debug_new(l, NULL, debug_text_collect, &t, &err);
  assert_non_null(d);
  command(d, &t, "continue", "[Switching to work-item global (3,0,0) local (3,0,0) group (0,0,0)]");
  assert_non_null(strstr(t.buf, "Fault: out-of-bounds access in kernel `twice`"));
  spvi_fault f;
  memset(&f, 0, sizeof f);
  assert_int_equal(spvi_debug_get_state(d, &f), SPVI_DEBUG_FAULTED);
  assert_int_equal(f.kind, SPVI_FAULT_OUT_OF_BOUNDS);
  assert_int_equal(f.global_id[0], 3);
  assert_int_equal(f.offset, 12);
  /* stopped at the faulting OpLoad %35 (instruction 3 of block %31) */
  assert_string_equal(spvi_debug_prompt(d), "(spvi 3,0,0 twice %31+3 faulted) ");
  command(d, &t, "continue", "The kernel faulted; it cannot run further.");
  command(d, &t, "print %33", "%33 = (long) 3");
  spvi_debug_free(d);
  spvi_launch_free(l);
  spvi_module_free(m);
}

/* A debugged run (`continue` to the end) leaves what spvi_run leaves, non-uniform groups included. */
static void test_same_as_run(void **state) {
  (void)state;
  spvi_module *m = load_twice();
  enum { N = 37 };
  uint32_t in[N];
  for (unsigned i = 0; i < N; i++) in[i] = (i * 2654435761u) >> 7;
  spvi_launch *a = launch(m, in, N, N, 8), *b = launch(m, in, N, N, 8);
  spvi_error err;
  spvi_fault f;
  assert_int_equal(spvi_run(a, NULL, &f, &err), SPVI_OK);
  spvi_debug *d = spvi_debug_new(b, NULL, NULL, NULL, &err);
  assert_non_null(d);
  assert_true(spvi_debug_command(d, "continue"));
  assert_int_equal(spvi_debug_get_state(d, NULL), SPVI_DEBUG_FINISHED);
  spvi_debug_free(d);
  const uint32_t *ra = spvi_arg_buffer(a, 0, NULL), *rb = spvi_arg_buffer(b, 0, NULL);
  for (unsigned i = 0; i < N; i++) assert_int_equal(rb[i], in[i] * 2 + 1);
  assert_memory_equal(ra, rb, sizeof in);
  spvi_launch_free(a);
  spvi_launch_free(b);
  spvi_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_session),
    cmocka_unit_test(test_fault),
    cmocka_unit_test(test_same_as_run),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
