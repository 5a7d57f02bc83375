/*
 * test_kernels_ptrargs.c — ptr_args.cl: null pointer arguments (clSetKernelArg with a NULL buffer,
 * OpenCL 3.0 section 5.9.2, passed here with spvi_set_arg_mem(l, i, NULL) and
 * spvi_set_arg_svm(l, i, NULL)) and the integer values of pointers into distinct allocations.
 * Expected values are derived by hand from the kernels: a kernel that tests its pointer takes its
 * other path; a dereference faults as a null pointer dereference whose report names the argument,
 * at the element's byte offset from null; pointers into distinct allocations differ in their low
 * 32 bits (docs/semantics.md, "Pointer values").
 */
#include "kernel_harness.h"

/* null_test: out[g] = maybe ? maybe[g] : dflt + g; maybe is null. */
static void test_null_tested(void **state) {
  (void)state;
  enum { G = 16 };
  int32_t dflt = 100, want[1 + G];
  want[0] = G;
  for (int g = 0; g < G; ++g) want[1 + g] = dflt + g;
  kt_case c = {.file = "ptr_args",
               .kernel = "null_test",
               .args = {KT_BUF_IN(NULL, G * 4), KT_NULL_PTR, KT_VALUE(&dflt)},
               .range = {1, {G}, {4}, {0}},
               .check = kt_check_i32_n,
               .user = want};
  kt_run_case(&c);
}

/* The same kernel with a buffer: the pointer tests true (control for the test above). */
static void test_null_tested_control(void **state) {
  (void)state;
  enum { G = 16 };
  int32_t dflt = 100, in[G], want[1 + G];
  want[0] = G;
  for (int g = 0; g < G; ++g) want[1 + g] = in[g] = 3 * g - 7;
  kt_case c = {.file = "ptr_args",
               .kernel = "null_test",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(in, sizeof in), KT_VALUE(&dflt)},
               .range = {1, {G}, {4}, {0}},
               .check = kt_check_i32_n,
               .user = want};
  kt_run_case(&c);
}

typedef struct null_fault {
  size_t gid;
  int arg;
  const char *name;
} null_fault;

/* A null pointer dereference by work-item gid, through argument `arg` at element gid (4 bytes). */
static void check_null_fault(const kt_run *r, void *u) {
  const null_fault *n = u;
  const size_t gid[3] = {n->gid, 0, 0};
  kt_expect_fault(r, SPVI_FAULT_NULL_POINTER, gid, true, n->arg, (int64_t)(n->gid * 4));
  const spvi_fault *f = r->fault;
  char want[96];
  snprintf(want, sizeof want, "argument %d `%s` (null pointer)", n->arg, n->name);
  kt_require(r, strstr(f->message, "null pointer") && strstr(f->message, want), "the report does not name %s:\n%s",
             want, f->message);
  kt_require(r, strcmp(f->memory, want) == 0, "fault.memory `%s`, expected `%s`", f->memory, want);
  kt_require(r, f->access_size == 4, "fault.access_size %" PRIu64 ", expected 4", f->access_size);
}

static void test_null_deref(void **state) {
  (void)state;
  enum { G = 12 };
  int32_t sel[G] = {0};
  sel[9] = 1; /* only work-item 9 stores through the null `bad` */
  null_fault n = {9, 2, "bad"};
  kt_case c = {.file = "ptr_args",
               .kernel = "null_deref",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(sel, sizeof sel), KT_NULL_PTR},
               .range = {1, {G}, {4}, {0}},
               .check = check_null_fault,
               .user = &n,
               .expect_fault = true};
  kt_run_case(&c);
}

/* Through a call: the -O0 module keeps store_through, whose parameter is the kernel's `bad`. */
static void test_null_deref_call(void **state) {
  (void)state;
  enum { G = 8 };
  int32_t sel[G] = {0};
  sel[5] = 1;
  null_fault n = {5, 1, "bad"};
  kt_case c = {.file = "ptr_args",
               .kernel = "null_deref_call",
               .args = {KT_BUF_IN(sel, sizeof sel), KT_NULL_PTR},
               .range = {1, {G}, {0}, {0}},
               .check = check_null_fault,
               .user = &n,
               .expect_fault = true};
  kt_run_case(&c);
}

/* A null pointer not derived from an argument: the report names none, though `unused` is null. */
static void check_null_unnamed(const kt_run *r, void *u) {
  (void)u;
  const size_t gid[3] = {2, 0, 0};
  kt_expect_fault(r, SPVI_FAULT_NULL_POINTER, gid, true, -1, 0);
  kt_require(r, !strstr(r->fault->message, "the pointer is argument"), "the report names an argument:\n%s",
             r->fault->message);
}

static void test_null_not_from_arg(void **state) {
  (void)state;
  enum { G = 4 };
  uint64_t addr[G] = {1, 1, 0, 1}; /* work-item 2 stores through (global int *)0 */
  kt_case c = {.file = "ptr_args",
               .kernel = "null_from_int",
               .args = {KT_BUF_IN(addr, sizeof addr), KT_NULL_PTR},
               .range = {1, {G}, {0}, {0}},
               .check = check_null_unnamed,
               .expect_fault = true};
  kt_run_case(&c);
}

/* ptr_low_bits, per work-item: (uint)(a - b), (uint)((ulong)a - (ulong)b), the same for two local
 * and two private arrays, (ulong)(a + 3) - (ulong)a, and a[2] read through (ulong)a + 8. */
static void check_low_bits(const kt_run *r, void *u) {
  (void)u;
  const uint32_t *o = r->buf[0];
  for (int g = 0; g < 2; ++g) {
    const uint32_t *v = o + 6 * g;
    for (int k = 0; k < 4; ++k)
      kt_require(r, v[k] != 0, "work-item %d: difference %d of distinct allocations is 0 in its low 32 bits", g, k);
    /* a - b counts ints: the byte difference divided by 4, modulo 2^32 */
    kt_require(r, v[1] == v[0] * 4u, "work-item %d: (ulong)a - (ulong)b = %u, 4 * (a - b) = %u", g, v[1], v[0] * 4u);
    kt_require(r, v[4] == 12, "work-item %d: (ulong)(a + 3) - (ulong)a = %u, expected 12", g, v[4]);
    kt_require(r, v[5] == 7, "work-item %d: a[2] through an integer address = %u, expected 7", g, v[5]);
  }
}

static void test_ptr_low_bits(void **state) {
  (void)state;
  int32_t a[4] = {5, 6, 7, 8};
  kt_case c = {.file = "ptr_args",
               .kernel = "ptr_low_bits",
               .args = {KT_BUF_IN(NULL, 2 * 6 * 4), KT_BUF_IN(a, sizeof a), KT_BUF_IN(NULL, 16), KT_LOCAL_BYTES(16),
                        KT_LOCAL_BYTES(16)},
               .range = {1, {2}, {2}, {0}},
               .check = check_low_bits};
  kt_run_case(&c);
}

/* The C API's other null pointer: an SVM argument of NULL (spvi_set_arg_svm). */
static void test_null_svm(void **state) {
  (void)state;
  spvi_error err;
  const char *build = getenv("BUILD");
  char path[512];
  snprintf(path, sizeof path, "%s/kernels/ptr_args.O2.spv", build && *build ? build : "build");
  kt_g.m = spvi_load_file(path, NULL, &err);
  assert_non_null(kt_g.m);
  kt_g.l = spvi_launch_new(kt_g.m, spvi_find_kernel(kt_g.m, "null_test"), &err);
  assert_non_null(kt_g.l);
  int32_t dflt = 40;
  size_t global = 4;
  assert_int_equal(spvi_set_arg_buffer(kt_g.l, 0, NULL, 16, &err), SPVI_OK);
  assert_int_equal(spvi_set_arg_svm(kt_g.l, 1, NULL, &err), SPVI_OK);
  assert_int_equal(spvi_set_arg_value(kt_g.l, 2, &dflt, sizeof dflt, &err), SPVI_OK);
  assert_int_equal(spvi_set_ndrange(kt_g.l, 1, &global, NULL, NULL, &err), SPVI_OK);
  spvi_fault f;
  assert_int_equal(spvi_run(kt_g.l, NULL, &f, &err), SPVI_OK);
  size_t bytes = 0;
  const int32_t *out = spvi_arg_buffer(kt_g.l, 0, &bytes);
  assert_int_equal(bytes, 16);
  for (int g = 0; g < 4; ++g) assert_int_equal(out[g], 40 + g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    KT_TEST(test_null_tested),       KT_TEST(test_null_tested_control), KT_TEST(test_null_deref),
    KT_TEST(test_null_deref_call),   KT_TEST(test_ptr_low_bits),        KT_TEST(test_null_svm),
    KT_TEST(test_null_not_from_arg),
  };
  return cmocka_run_group_tests_name("kernels_ptrargs", tests, NULL, NULL);
}
