/*
 * test_kernels_fault.c — kernels that fault: fault_oob_global.cl, fault_oob_local.cl,
 * fault_oob_private.cl, fault_barrier.cl, fault_unreachable.cl, fault_assume.cl.
 * Exactly one work-item faults in each launch (its bad index comes from a buffer), so the report
 * is the same at every warp width. Expected offsets are derived by hand from the index: element
 * index * element size (see each test).
 */
#include "kernel_harness.h"

typedef struct kt_fault_ctx {
  spvi_fault_kind kind;
  size_t gid[3];
  bool check_gid;
  bool check_mem;
  int arg_index;
  int64_t offset;
  uint64_t access_size, memory_size; /* 0: not checked */
  size_t local_id[3], group_id[3];
  bool check_local;
} kt_fault_ctx;

static void kt_check_fault(const kt_run *r, void *u) {
  const kt_fault_ctx *c = u;
  kt_expect_fault(r, c->kind, c->check_gid ? c->gid : NULL, c->check_mem, c->arg_index, c->offset);
  const spvi_fault *f = r->fault;
  if (c->access_size)
    kt_require(r, f->access_size == c->access_size, "fault.access_size %" PRIu64 ", expected %" PRIu64 "; report:\n%s",
               f->access_size, c->access_size, f->message);
  if (c->memory_size)
    kt_require(r, f->memory_size == c->memory_size, "fault.memory_size %" PRIu64 ", expected %" PRIu64 "; report:\n%s",
               f->memory_size, c->memory_size, f->message);
  if (c->check_local)
    for (int d = 0; d < 3; ++d) {
      kt_require(r, f->local_id[d] == c->local_id[d], "fault.local_id[%d] %zu, expected %zu", d, f->local_id[d],
                 c->local_id[d]);
      kt_require(r, f->group_id[d] == c->group_id[d], "fault.group_id[%d] %zu, expected %zu", d, f->group_id[d],
                 c->group_id[d]);
    }
}

/* ---- fault_oob_global.cl -------------------------------------------------------------------- */
static void test_oob_write(void **state) {
  (void)state;
  enum { G = 16 };
  int32_t idx[G];
  for (int g = 0; g < G; ++g) idx[g] = g;
  idx[9] = 16; /* out has 16 ints: element 16 is at byte 64, one past the end */
  kt_fault_ctx f = {.kind = SPVI_FAULT_OUT_OF_BOUNDS,
                    .gid = {9, 0, 0},
                    .check_gid = true,
                    .check_mem = true,
                    .arg_index = 0,
                    .offset = 64,
                    .access_size = 4,
                    .memory_size = 64};
  kt_case c = {.file = "fault_oob_global",
               .kernel = "oob_write",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(idx, sizeof idx)},
               .range = {1, {G}, {4}, {0}},
               .check = kt_check_fault,
               .user = &f,
               .expect_fault = true};
  kt_run_case(&c);
}

/* The same kernel with every index in range runs to completion: the fault above is the index. */
static void test_oob_write_control(void **state) {
  (void)state;
  enum { G = 16 };
  int32_t idx[G], w[1 + G];
  w[0] = G;
  for (int g = 0; g < G; ++g) {
    idx[g] = G - 1 - g;
    w[1 + G - 1 - g] = g;
  }
  kt_case c = {.file = "fault_oob_global",
               .kernel = "oob_write",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(idx, sizeof idx)},
               .range = {1, {G}, {4}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

static void test_oob_read(void **state) {
  (void)state;
  enum { G = 12 };
  float in[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int32_t idx[G];
  for (int g = 0; g < G; ++g) idx[g] = g % 8;
  idx[5] = 11; /* in has 8 floats (32 bytes): element 11 is at byte 44 */
  kt_fault_ctx f = {.kind = SPVI_FAULT_OUT_OF_BOUNDS,
                    .gid = {5, 0, 0},
                    .check_gid = true,
                    .check_mem = true,
                    .arg_index = 1,
                    .offset = 44,
                    .access_size = 4,
                    .memory_size = 32};
  kt_case c = {.file = "fault_oob_global",
               .kernel = "oob_read",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(in, sizeof in), KT_BUF_IN(idx, sizeof idx)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_fault,
               .user = &f,
               .expect_fault = true};
  kt_run_case(&c);
}

static void test_oob_neg(void **state) {
  (void)state;
  enum { G = 8 };
  int32_t delta[G] = {0};
  delta[3] = -4; /* out + 3 - 4 = out - 1: byte offset -8 (long) */
  kt_fault_ctx f = {.kind = SPVI_FAULT_OUT_OF_BOUNDS,
                    .gid = {3, 0, 0},
                    .check_gid = true,
                    .check_mem = true,
                    .arg_index = 0,
                    .offset = -8,
                    .access_size = 8,
                    .memory_size = 64};
  kt_case c = {.file = "fault_oob_global",
               .kernel = "oob_neg",
               .args = {KT_BUF_IN(NULL, G * 8), KT_BUF_IN(delta, sizeof delta)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_fault,
               .user = &f,
               .expect_fault = true};
  kt_run_case(&c);
}

/* ---- fault_oob_local.cl --------------------------------------------------------------------- */
static void test_oob_local_array(void **state) {
  (void)state;
  enum { G = 32, L = 16 };
  int32_t idx[G];
  for (int g = 0; g < G; ++g) idx[g] = g % L;
  idx[21] = 69; /* tmp has 64 ints (256 bytes): element 69 is at byte 276; 21 = group 1, local 5 */
  /* the index is caught where it steps through the array type, before the access (C99 6.5.6p8) */
  kt_fault_ctx f = {.kind = SPVI_FAULT_ARRAY_INDEX,
                    .gid = {21, 0, 0},
                    .check_gid = true,
                    .check_mem = true,
                    .arg_index = -1,
                    .offset = 276,
                    .memory_size = 256,
                    .local_id = {5, 0, 0},
                    .group_id = {1, 0, 0},
                    .check_local = true};
  kt_case c = {.file = "fault_oob_local",
               .kernel = "oob_local_array",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(idx, sizeof idx)},
               .range = {1, {G}, {L}, {0}},
               .check = kt_check_fault,
               .user = &f,
               .expect_fault = true};
  kt_run_case(&c);
}

static void test_oob_local_arg(void **state) {
  (void)state;
  enum { G = 32, L = 16 };
  int32_t idx[G];
  for (int g = 0; g < G; ++g) idx[g] = g % L;
  idx[6] = 16; /* the __local argument has 16 ints (64 bytes): element 16 is at byte 64 */
  kt_fault_ctx f = {.kind = SPVI_FAULT_OUT_OF_BOUNDS,
                    .gid = {6, 0, 0},
                    .check_gid = true,
                    .check_mem = true,
                    .arg_index = 2,
                    .offset = 64,
                    .access_size = 4,
                    .memory_size = 64};
  kt_case c = {.file = "fault_oob_local",
               .kernel = "oob_local_arg",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(idx, sizeof idx), KT_LOCAL_BYTES(L * 4)},
               .range = {1, {G}, {L}, {0}},
               .check = kt_check_fault,
               .user = &f,
               .expect_fault = true};
  kt_run_case(&c);
}

/* ---- fault_oob_private.cl ------------------------------------------------------------------- */
static void test_oob_private(void **state) {
  (void)state;
  enum { G = 8 };
  int32_t in[32], idx[G];
  for (int k = 0; k < 32; ++k) in[k] = k;
  for (int g = 0; g < G; ++g) idx[g] = g;
  idx[2] = 40; /* arr has 32 ints (128 bytes): element 40 is at byte 160 */
  /* the index is caught where it steps through the array type, before the access (C99 6.5.6p8) */
  kt_fault_ctx f = {.kind = SPVI_FAULT_ARRAY_INDEX,
                    .gid = {2, 0, 0},
                    .check_gid = true,
                    .check_mem = true,
                    .arg_index = -1,
                    .offset = 160,
                    .memory_size = 128};
  kt_case c = {.file = "fault_oob_private",
               .kernel = "oob_private",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(in, sizeof in), KT_BUF_IN(idx, sizeof idx)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_fault,
               .user = &f,
               .expect_fault = true};
  kt_run_case(&c);
}

/* ---- fault_barrier.cl ----------------------------------------------------------------------- */
static void test_barrier_divergent(void **state) {
  (void)state;
  /* which work-item the report names is not specified: only the kind, kernel and message */
  kt_fault_ctx f = {.kind = SPVI_FAULT_BARRIER_DIVERGENCE};
  kt_case c = {.file = "fault_barrier",
               .kernel = "barrier_divergent",
               .args = {KT_BUF_IN(NULL, 8 * 4)},
               .range = {1, {8}, {8}, {0}},
               .check = kt_check_fault,
               .user = &f,
               .expect_fault = true};
  kt_run_case(&c);
}

static void test_barrier_uniform_branch(void **state) {
  (void)state;
  enum { G = 16, L = 8 };
  int32_t w[1 + G];
  w[0] = G;
  for (int g = 0; g < G; ++g) {
    int grp = g / L, l = g % L;
    w[1 + g] = grp % 2 == 0 ? grp * L + (l + 1) % L : -1; /* tmp[(l+1) % 8] holds that item's global id */
  }
  kt_case c = {.file = "fault_barrier",
               .kernel = "barrier_uniform_branch",
               .args = {KT_BUF_IN(NULL, G * 4)},
               .range = {1, {G}, {L}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

/* ---- fault_unreachable.cl ------------------------------------------------------------------- */
static void test_unreachable(void **state) {
  (void)state;
  enum { G = 8 };
  int32_t in[G];
  for (int g = 0; g < G; ++g) in[g] = 3 * g; /* never 7 ... */
  in[4] = 7;                                 /* ... except for work-item 4 */
  kt_fault_ctx f = {.kind = SPVI_FAULT_UNREACHABLE, .gid = {4, 0, 0}, .check_gid = true};
  kt_case c = {.file = "fault_unreachable",
               .kernel = "unreachable_path",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(in, sizeof in)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_fault,
               .user = &f,
               .expect_fault = true};
  kt_run_case(&c);
}

/* ---- fault_assume.cl ------------------------------------------------------------------------ */
static void kt_check_assume(const kt_run *r, void *u) {
  kt_check_fault(r, u);
  /* built with -g: the report names the source line of __builtin_assume */
  kt_require(r, r->fault && strstr(r->fault->message, "fault_assume.cl:8"), "the report does not name line 8:\n%s",
             r->fault ? r->fault->message : "");
}

static void test_assume_false(void **state) {
  (void)state;
  enum { G = 40 };
  int32_t in[G];
  for (int g = 0; g < G; ++g) in[g] = 2 * g; /* even: never 7 ... */
  in[33] = 7;                                /* ... except for work-item 33 */
  kt_fault_ctx f = {.kind = SPVI_FAULT_ASSUME, .gid = {33, 0, 0}, .check_gid = true};
  kt_case c = {.file = "fault_assume",
               .kernel = "assume_not7",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(in, sizeof in)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_assume,
               .user = &f,
               .expect_fault = true};
  kt_run_case(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    KT_TEST(test_oob_write),   KT_TEST(test_oob_write_control), KT_TEST(test_oob_read),
    KT_TEST(test_oob_neg),     KT_TEST(test_oob_local_array),   KT_TEST(test_oob_local_arg),
    KT_TEST(test_oob_private), KT_TEST(test_barrier_divergent), KT_TEST(test_barrier_uniform_branch),
    KT_TEST(test_unreachable), KT_TEST(test_assume_false),
  };
  return cmocka_run_group_tests_name("kernels_fault", tests, NULL, NULL);
}
