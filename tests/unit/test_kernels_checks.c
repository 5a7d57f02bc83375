/*
 * test_kernels_checks.c — the always-on checks of check_simple.cl: division reports (the run goes
 * on with spvi's defined results), misaligned loads and stores, and the step limit (faults).
 * Bad operands come from buffers, so the reporting work-items, counts and source lines below are
 * derived by hand from the inputs and the kernel; lines are named by their `@` markers in
 * check_simple.cl (marker.h).
 */
#include "kernel_harness.h"
#include "marker.h"

#define KT_SIMPLE "tests/kernels/check_simple.cl"

/* The report of `kind` at source line `line`, or NULL. */
static const spvi_report *kt_find_report(const kt_run *r, spvi_report_kind kind, unsigned line) {
  for (size_t i = 0; i < spvi_report_count(r->launch); i++) {
    const spvi_report *x = spvi_report_get(r->launch, i);
    if (x->kind == kind && x->at.line == line) return x;
  }
  return NULL;
}

typedef struct kt_report_want {
  spvi_report_kind kind;
  const char *mark; /* the marker of its source line */
  const char *opcode;
  size_t gid; /* first work-item (dimension 0) */
  uint64_t count;
} kt_report_want;

/* Exactly the wanted reports, each with its opcode, first work-item, count and the source file. */
static void kt_expect_reports(const kt_run *r, const kt_report_want *want, size_t n) {
  size_t got = spvi_report_count(r->launch);
  kt_require(r, got == n, "%zu reports, expected %zu%s%s", got, n, got ? "; the first:\n" : "",
             got ? spvi_report_get(r->launch, 0)->message : "");
  for (size_t i = 0; i < n; i++) {
    const unsigned line = marker_line(KT_SIMPLE, want[i].mark);
    const spvi_report *x = kt_find_report(r, want[i].kind, line);
    kt_require(r, x != NULL, "no %s report at line %u", spvi_report_kind_name(want[i].kind), line);
    if (!x) continue;
    kt_require(r, strcmp(x->at.opcode, want[i].opcode) == 0, "report at line %u: opcode %s, expected %s", line,
               x->at.opcode, want[i].opcode);
    kt_require(r, x->at.global_id[0] == want[i].gid, "report at line %u: first work-item %zu, expected %zu:\n%s", line,
               x->at.global_id[0], want[i].gid, x->message);
    kt_require(r, x->count == want[i].count, "report at line %u: count %" PRIu64 ", expected %" PRIu64 ":\n%s", line,
               x->count, want[i].count, x->message);
    kt_require(r, strstr(x->at.file, "check_simple.cl") != NULL, "report file `%s`", x->at.file);
    kt_require(r, strcmp(x->kernel, r->kernel) == 0, "report kernel `%s`", x->kernel);
  }
  /* in order of their first work-item */
  for (size_t i = 1; i < got; i++)
    kt_require(r, spvi_report_get(r->launch, i - 1)->at.global_id[0] <= spvi_report_get(r->launch, i)->at.global_id[0],
               "reports are not in work-item order");
}

/* ---- division ------------------------------------------------------------------------------ */
enum { KD_G = 16 };
static int32_t kd_a[KD_G], kd_b[KD_G];

static void kt_check_div_s(const kt_run *r, void *u) {
  (void)u;
  /* b[3] = b[10] = 0; a[5] = INT_MIN with b[5] = -1; b[12] = 3 skips the remainder */
  const kt_report_want want[] = {
    {.kind = SPVI_REPORT_DIV_BY_ZERO, .mark = "div-s", .opcode = "OpSDiv", .gid = 3, .count = 2},
    {.kind = SPVI_REPORT_DIV_OVERFLOW, .mark = "div-s", .opcode = "OpSDiv", .gid = 5, .count = 1},
    {.kind = SPVI_REPORT_DIV_BY_ZERO, .mark = "rem-s", .opcode = "OpSRem", .gid = 3, .count = 2},
    {.kind = SPVI_REPORT_DIV_OVERFLOW, .mark = "rem-s", .opcode = "OpSRem", .gid = 5, .count = 1},
  };
  kt_expect_reports(r, want, KT_COUNT(want));
  const int32_t *q = r->buf[0], *m = r->buf[3];
  for (int g = 0; g < KD_G; g++) {
    /* spvi's defined results (spec-notes/executor.md): x/0 = -1 (all ones), INT_MIN/-1 = INT_MIN,
     * x%0 = x, INT_MIN%-1 = 0 */
    int32_t wq = kd_b[g] == 0 ? -1 : kd_b[g] == -1 && kd_a[g] == INT32_MIN ? INT32_MIN : kd_a[g] / kd_b[g];
    int32_t wm = kd_b[g] == 3 ? 0 : kd_b[g] == 0 ? kd_a[g] : kd_b[g] == -1 ? 0 : kd_a[g] % kd_b[g];
    kt_require(r, q[g] == wq, "out[%d] = %d, expected %d", g, q[g], wq);
    kt_require(r, m[g] == wm, "rem[%d] = %d, expected %d", g, m[g], wm);
  }
}

static void test_check_div_signed(void **state) {
  (void)state;
  for (int g = 0; g < KD_G; g++) {
    kd_a[g] = 100 - 13 * g;
    kd_b[g] = g % 5 + 1;
  }
  kd_b[3] = 0;
  kd_b[10] = 0;
  kd_a[5] = INT32_MIN;
  kd_b[5] = -1;
  kd_b[12] = 3;
  kt_case c = {.file = "check_simple",
               .kernel = "div_s",
               .args = {KT_BUF_IN(NULL, sizeof kd_a), KT_BUF_IN(kd_a, sizeof kd_a), KT_BUF_IN(kd_b, sizeof kd_b),
                        KT_BUF_IN(NULL, sizeof kd_a)},
               .range = {1, {KD_G}, {8}, {0}},
               .check = kt_check_div_s,
               .expect_reports = true};
  kt_run_case(&c);
}

static void kt_check_div_u(const kt_run *r, void *u) {
  (void)u;
  const kt_report_want want[] = {
    {.kind = SPVI_REPORT_DIV_BY_ZERO, .mark = "div-u", .opcode = "OpUDiv", .gid = 0, .count = 2},
  };
  kt_expect_reports(r, want, KT_COUNT(want));
  const uint32_t *q = r->buf[0];
  for (int g = 0; g < KD_G; g++) {
    uint32_t a = (uint32_t)kd_a[g], b = (uint32_t)kd_b[g];
    uint32_t wq = b ? a / b : UINT32_MAX;
    kt_require(r, q[g] == wq, "out[%d] = %u, expected %u", g, q[g], wq);
  }
}

static void test_check_div_unsigned(void **state) {
  (void)state;
  for (int g = 0; g < KD_G; g++) {
    kd_a[g] = 1000 + g;
    kd_b[g] = g;
  } /* b[0] = 0 */
  kd_b[15] = 0;
  kd_a[7] = INT32_MIN; /* 2^31 / 0xFFFFFFFF is no overflow for unsigned division */
  kd_b[7] = -1;
  kt_case c = {.file = "check_simple",
               .kernel = "div_u",
               .args = {KT_BUF_IN(NULL, sizeof kd_a), KT_BUF_IN(kd_a, sizeof kd_a), KT_BUF_IN(kd_b, sizeof kd_b)},
               .range = {1, {KD_G}, {4}, {0}},
               .check = kt_check_div_u,
               .expect_reports = true};
  kt_run_case(&c);
}

/* int4: one report per work-item even when two of its components are bad */
static int32_t kv_a[8 * 4], kv_b[8 * 4];

static void kt_check_div_vec(const kt_run *r, void *u) {
  (void)u;
  const kt_report_want want[] = {
    {.kind = SPVI_REPORT_DIV_BY_ZERO, .mark = "div-vec", .opcode = "OpSDiv", .gid = 4, .count = 2},
    {.kind = SPVI_REPORT_DIV_OVERFLOW, .mark = "div-vec", .opcode = "OpSDiv", .gid = 6, .count = 1},
  };
  kt_expect_reports(r, want, KT_COUNT(want));
}

static void test_check_div_vector(void **state) {
  (void)state;
  for (int i = 0; i < 32; i++) {
    kv_a[i] = i * 3 - 40;
    kv_b[i] = i % 7 + 2;
  }
  kv_b[4 * 4 + 2] = 0;         /* work-item 4, component 2 */
  kv_b[4 * 4 + 3] = 0;         /* and component 3: still one report for work-item 4 */
  kv_b[7 * 4 + 0] = 0;         /* work-item 7 */
  kv_a[6 * 4 + 1] = INT32_MIN; /* work-item 6, component 1 */
  kv_b[6 * 4 + 1] = -1;
  kt_case c = {.file = "check_simple",
               .kernel = "div_vec",
               .args = {KT_BUF_IN(NULL, sizeof kv_a), KT_BUF_IN(kv_a, sizeof kv_a), KT_BUF_IN(kv_b, sizeof kv_b)},
               .range = {1, {8}, {8}, {0}},
               .check = kt_check_div_vec,
               .expect_reports = true};
  kt_run_case(&c);
}

/* ---- alignment ------------------------------------------------------------------------------ */
typedef struct kt_fault_at {
  spvi_fault_kind kind;
  size_t gid;
  int arg_index; /* -1: a fault that names no memory */
  int64_t offset;
  uint64_t access_size;     /* 0: not checked */
  const char *first, *last; /* the markers of the lines the fault may be at, first to last */
} kt_fault_at;

static void kt_check_fault_at(const kt_run *r, void *u) {
  const kt_fault_at *w = u;
  size_t gid[3] = {w->gid, 0, 0};
  kt_expect_fault(r, w->kind, gid, w->arg_index >= 0, w->arg_index, w->offset);
  if (w->access_size)
    kt_require(r, r->fault->access_size == w->access_size, "access size %" PRIu64 ", expected %" PRIu64,
               r->fault->access_size, w->access_size);
  const unsigned lo = marker_line(KT_SIMPLE, w->first), hi = marker_line(KT_SIMPLE, w->last);
  kt_require(r, r->fault->line >= lo && r->fault->line <= hi, "fault at line %u, expected %u..%u:\n%s", r->fault->line,
             lo, hi, r->fault->message);
}

static void test_check_misaligned_load(void **state) {
  (void)state;
  static uint8_t bytes[64];
  static int32_t off[12];
  for (int i = 0; i < 64; i++) bytes[i] = (uint8_t)i;
  for (int g = 0; g < 12; g++) off[g] = 4 * g;
  off[6] = 6; /* int load at byte 6: 4-byte alignment broken */
  kt_fault_at w = {.kind = SPVI_FAULT_MISALIGNED,
                   .gid = 6,
                   .arg_index = 1,
                   .offset = 6,
                   .access_size = 4,
                   .first = "load-at",
                   .last = "load-at"};
  kt_case c = {.file = "check_simple",
               .kernel = "load_at",
               .args = {KT_BUF_IN(NULL, 12 * 4), KT_BUF_IN(bytes, sizeof bytes), KT_BUF_IN(off, sizeof off)},
               .range = {1, {12}, {4}, {0}},
               .check = kt_check_fault_at,
               .user = &w,
               .expect_fault = true};
  kt_run_case(&c);
}

/* The same kernel with aligned offsets reads the little-endian ints at them. */
static void kt_check_load_at(const kt_run *r, void *u) {
  const int32_t *off = u;
  const int32_t *o = r->buf[0];
  for (int g = 0; g < 12; g++) {
    int b = off[g];
    int32_t want = (int32_t)((uint32_t)b | (uint32_t)(b + 1) << 8 | (uint32_t)(b + 2) << 16 | (uint32_t)(b + 3) << 24);
    kt_require(r, o[g] == want, "out[%d] = 0x%x, expected 0x%x", g, (unsigned)o[g], (unsigned)want);
  }
}

static void test_check_aligned_load(void **state) {
  (void)state;
  static uint8_t bytes[64];
  static int32_t off[12];
  for (int i = 0; i < 64; i++) bytes[i] = (uint8_t)i;
  for (int g = 0; g < 12; g++) off[g] = 4 * (11 - g);
  kt_case c = {.file = "check_simple",
               .kernel = "load_at",
               .args = {KT_BUF_IN(NULL, 12 * 4), KT_BUF_IN(bytes, sizeof bytes), KT_BUF_IN(off, sizeof off)},
               .range = {1, {12}, {4}, {0}},
               .check = kt_check_load_at,
               .user = off};
  kt_run_case(&c);
}

static void test_check_misaligned_store(void **state) {
  (void)state;
  static int32_t off[4] = {0, 16, 40, 48}; /* float4 store at byte 40: 16-byte alignment broken */
  kt_fault_at w = {.kind = SPVI_FAULT_MISALIGNED,
                   .gid = 2,
                   .arg_index = 0,
                   .offset = 40,
                   .access_size = 16,
                   .first = "store-at",
                   .last = "store-at"};
  kt_case c = {.file = "check_simple",
               .kernel = "store_at",
               .args = {KT_BUF_IN(NULL, 64), KT_BUF_IN(off, sizeof off)},
               .range = {1, {4}, {4}, {0}},
               .check = kt_check_fault_at,
               .user = &w,
               .expect_fault = true};
  kt_run_case(&c);
}

/* ---- step limit ------------------------------------------------------------------------------ */
static void test_check_step_limit(void **state) {
  (void)state;
  static int32_t n[16];
  for (int g = 0; g < 16; g++) n[g] = 2 * g;
  n[5] = 7; /* never reached counting by 2 */
  kt_fault_at w = {
    .kind = SPVI_FAULT_STEP_LIMIT, .gid = 5, .arg_index = -1, .first = "count-loop", .last = "count-body"};
  kt_case c = {.file = "check_simple",
               .kernel = "count_to",
               .args = {KT_BUF_IN(NULL, sizeof n), KT_BUF_IN(n, sizeof n)},
               .range = {1, {16}, {16}, {0}},
               .check = kt_check_fault_at,
               .user = &w,
               .expect_fault = true,
               .max_steps = 20000};
  kt_run_case(&c);
}

/* Without the endless work-item the same limit is far away: steps[g] = g. */
static void kt_check_count_to(const kt_run *r, void *u) {
  (void)u;
  const int32_t *o = r->buf[0];
  for (int g = 0; g < 16; g++) kt_require(r, o[g] == g, "out[%d] = %d, expected %d", g, o[g], g);
}

static void test_check_step_limit_not_reached(void **state) {
  (void)state;
  static int32_t n[16];
  for (int g = 0; g < 16; g++) n[g] = 2 * g;
  kt_case c = {.file = "check_simple",
               .kernel = "count_to",
               .args = {KT_BUF_IN(NULL, sizeof n), KT_BUF_IN(n, sizeof n)},
               .range = {1, {16}, {16}, {0}},
               .check = kt_check_count_to,
               .max_steps = 20000};
  kt_run_case(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    KT_TEST(test_check_div_signed),   KT_TEST(test_check_div_unsigned),
    KT_TEST(test_check_div_vector),   KT_TEST(test_check_misaligned_load),
    KT_TEST(test_check_aligned_load), KT_TEST(test_check_misaligned_store),
    KT_TEST(test_check_step_limit),   KT_TEST(test_check_step_limit_not_reached),
  };
  return cmocka_run_group_tests_name("kernels_checks", tests, NULL, NULL);
}
