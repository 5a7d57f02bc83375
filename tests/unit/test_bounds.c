/*
 * test_bounds.c — array indexes outside a fixed-size array inside a larger object (faults, on by
 * default) and --keep-going (access faults as grouped reports), on tests/kernels/check_bounds.cl at
 * -O0 and -O2, warp widths 1, 7 and 32 (kernel_harness.h, check_harness.h).
 *
 * Exactly one work-item has a bad index in each fault case (it comes from a buffer), so the fault
 * is the same at every warp width. Offsets are derived by hand: the element the index designates,
 * element index * 4 bytes from the start of the object. Correct kernels must not fault.
 */
#include "check_harness.h"
#include "kernel_harness.h"
#include "marker.h"

#define KB_SRC "tests/kernels/check_bounds.cl"

/* The expected array-index fault: work-item, memory, offset, the index and length in the text. */
typedef struct kb_fault {
  size_t gid;
  int arg_index;
  int64_t offset;
  uint64_t memory_size;
  const char *index_text; /* "index 4 is outside the array of 4 elements" */
  const char *mark;       /* the source line */
} kb_fault;

static void kb_check_fault(const kt_run *r, void *u) {
  const kb_fault *w = u;
  const size_t gid[3] = {w->gid, 0, 0};
  kt_expect_fault(r, SPVI_FAULT_ARRAY_INDEX, gid, true, w->arg_index, w->offset);
  const spvi_fault *f = r->fault;
  kt_require(r, f->access_size == 0, "access size %" PRIu64 ", expected 0 (no access yet)", f->access_size);
  kt_require(r, f->memory_size == w->memory_size, "memory size %" PRIu64 ", expected %" PRIu64 ":\n%s", f->memory_size,
             w->memory_size, f->message);
  kt_require(r, strstr(f->message, w->index_text) != NULL, "the fault does not say `%s`:\n%s", w->index_text,
             f->message);
  const unsigned line = marker_line(KB_SRC, w->mark);
  kt_require(r, f->line == line, "fault at line %u, expected %u:\n%s", f->line, line, f->message);
  kt_require(r, strcmp(spvi_fault_kind_id(f->kind), "array-index") == 0, "fault id `%s`", spvi_fault_kind_id(f->kind));
}

/* s = {a = {1, 2, 3, 4}, b = {5, 6, 7, 8}, c = {9, 10, 11, 12}} */
static const int32_t kb_rec[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};

/* s->b[4] is s->c[0], inside the buffer: only the array step shows the error (C99 6.5.6p8). */
static void test_struct_member(void **state) {
  (void)state;
  enum { G = 8 };
  int32_t idx[G];
  for (int g = 0; g < G; g++) idx[g] = g % 4;
  idx[5] = 4; /* one past the end of b, dereferenced: b starts at byte 16, element 4 at byte 32 */
  kb_fault w = {.gid = 5,
                .arg_index = 2,
                .offset = 32,
                .memory_size = 48,
                .index_text = "index 4 is outside the array of 4 elements",
                .mark = "struct-member"};
  kt_case c = {.file = "check_bounds",
               .kernel = "struct_member",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(idx, sizeof idx), KT_BUF_IN(kb_rec, sizeof kb_rec)},
               .range = {1, {G}, {0}, {0}},
               .check = kb_check_fault,
               .user = &w,
               .expect_fault = true};
  kt_run_case(&c);
}

/* The same kernel with every index in [0, 4): out[g] = b[idx] = idx + 5. */
static void test_struct_member_in_range(void **state) {
  (void)state;
  enum { G = 8 };
  int32_t idx[G], want[1 + G] = {G};
  for (int g = 0; g < G; g++) {
    idx[g] = 3 - g % 4;
    want[1 + g] = idx[g] + 5;
  }
  kt_case c = {.file = "check_bounds",
               .kernel = "struct_member",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(idx, sizeof idx), KT_BUF_IN(kb_rec, sizeof kb_rec)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_i32_n,
               .user = want};
  kt_run_case(&c);
}

/* inner_dim with idx[g] = g except idx[bad] = index: tile[1][index] of a local int[4][8] designates
 * element 8 + index, at byte 4 (8 + index) of the 128. */
static void kb_inner_dim(size_t bad, int32_t index, const char *text) {
  enum { G = 8 };
  int32_t idx[G];
  for (int g = 0; g < G; g++) idx[g] = g;
  idx[bad] = index;
  kb_fault w = {.gid = bad,
                .arg_index = -1,
                .offset = 4 * (8 + index),
                .memory_size = 128,
                .index_text = text,
                .mark = "inner-dim"};
  kt_case c = {.file = "check_bounds",
               .kernel = "inner_dim",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(idx, sizeof idx)},
               .range = {1, {G}, {G}, {0}},
               .check = kb_check_fault,
               .user = &w,
               .expect_fault = true};
  kt_run_case(&c);
}

/* tile[1][8] is tile[2][0], byte 64; tile[1][-1] is tile[0][7], byte 28. */
static void test_inner_dim(void **state) {
  (void)state;
  kb_inner_dim(3, 8, "index 8 is outside the array of 8 elements");
}

static void test_inner_dim_negative(void **state) {
  (void)state;
  kb_inner_dim(6, -1, "index -1 is outside the array of 8 elements");
}

/* arr[8] of a private int[8] declared before another array: byte 32, the end of arr. */
static void test_priv_array(void **state) {
  (void)state;
  enum { G = 8 };
  int32_t idx[G], in[16];
  for (int g = 0; g < G; g++) idx[g] = g;
  for (int k = 0; k < 16; k++) in[k] = k;
  idx[6] = 8;
  kb_fault w = {.gid = 6,
                .arg_index = -1,
                .offset = 32,
                .memory_size = 32,
                .index_text = "index 8 is outside the array of 8 elements",
                .mark = "priv-array"};
  kt_case c = {.file = "check_bounds",
               .kernel = "priv_array",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(idx, sizeof idx), KT_BUF_IN(in, sizeof in)},
               .range = {1, {G}, {0}, {0}},
               .check = kb_check_fault,
               .user = &w,
               .expect_fault = true};
  kt_run_case(&c);
}

/* Correct code with array steps: the end pointer &s->a[4] (never dereferenced), s->b[i] and
 * m[i % 3][(i + g) % 4] in range. With s = kb_rec and n = {100, 4, 99}: the first loop sees no 99
 * and gives ((1 * 3 + 2) * 3 + 3) * 3 + 4 = 58; the second adds b[0..3] = 26 and, over i = 0..3,
 * m[i % 3][(i + g) % 4] = (i % 3) * 4 + (i + g) % 4 + 100, whose sum is 12 + (0+1+2+3) + 400 = 418
 * for every g: 502. */
static void test_valid(void **state) {
  (void)state;
  enum { G = 8 };
  static const int32_t n[3] = {100, 4, 99};
  int32_t want[1 + G] = {G};
  for (int g = 0; g < G; g++) want[1 + g] = 502;
  kt_case c = {.file = "check_bounds",
               .kernel = "valid",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(kb_rec, sizeof kb_rec), KT_BUF_IN(n, sizeof n)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_i32_n,
               .user = want};
  kt_run_case(&c);
}

/* Indexes tested before the access: out[g] = b[i] for i in [0, 4), else -1; no fault for the
 * others (4, -1, 100), whatever address the optimiser computes before the test. */
static void test_guarded(void **state) {
  (void)state;
  enum { G = 8 };
  static const int32_t idx[G] = {0, 4, 3, -1, 100, 1, 4, 2};
  int32_t want[1 + G] = {G};
  for (int g = 0; g < G; g++) want[1 + g] = idx[g] >= 0 && idx[g] < 4 ? kb_rec[4 + idx[g]] : -1;
  kt_case c = {.file = "check_bounds",
               .kernel = "guarded",
               .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(kb_rec, sizeof kb_rec), KT_BUF_IN(idx, sizeof idx)},
               .range = {1, {G}, {0}, {0}},
               .check = kt_check_i32_n,
               .user = want};
  kt_run_case(&c);
}

/* ---- --keep-going ------------------------------------------------------------------------------ */

/* kg_two over 16 work-items with 16-int buffers: in[g + 4] is past the end for g = 12..15 (4
 * occurrences, the first at byte 64), out[g + 2] for g = 14, 15 (2, the first at byte 64). */
static void test_keep_going_reports(void **state) {
  (void)state;
  const ch_case c = {.file = "check_bounds",
                     .kernel = "kg_two",
                     .keep_going = true,
                     .global = 16,
                     .local = 8,
                     .args = {CH_BUF(64), CH_BUF(64)},
                     .want = {{.kind = SPVI_REPORT_OUT_OF_BOUNDS,
                               .at = {.mark = "kg-read", .gid = 12},
                               .memory = {.arg = 1, .offset = 64, .size = 4},
                               .count = 4},
                              {.kind = SPVI_REPORT_OUT_OF_BOUNDS,
                               .at = {.mark = "kg-write", .gid = 14, .write = true},
                               .memory = {.arg = 0, .offset = 64, .size = 4},
                               .count = 2}}};
  ch_run(&c);
}

/* s->b[g % 6]: g % 6 is 4 or 5 for g = 4, 5, 10, 11; the first, g = 4, designates byte 16 + 16. */
static void test_keep_going_array_index(void **state) {
  (void)state;
  const ch_case c = {.file = "check_bounds",
                     .kernel = "kg_member",
                     .keep_going = true,
                     .global = 16,
                     .local = 8,
                     .args = {CH_BUF(64), CH_BUF(48)},
                     .want = {{.kind = SPVI_REPORT_ARRAY_INDEX,
                               .at = {.mark = "kg-member", .gid = 4},
                               .memory = {.arg = 1, .offset = 32, .size = 0},
                               .count = 4}}};
  ch_run(&c);
}

/* The values of a kept-going run: skipped reads give zero, skipped writes change nothing, and the
 * rest runs as written. in[k] = 10 k: out[j] = 10 (j + 2) + 1 for j = 2..13, out[14], out[15] = 0 +
 * 1 (their reads were skipped), out[0], out[1] never written (0). */
static void kb_check_kg_two(const kt_run *r, void *u) {
  (void)u;
  kt_require(r, r->status == SPVI_OK, "status %d: %s", (int)r->status, r->fault->message);
  kt_require(r, spvi_report_count(r->launch) == 2, "%zu reports, expected 2", spvi_report_count(r->launch));
  const int32_t *out = r->buf[0];
  for (int j = 0; j < 16; j++) {
    const int32_t want = j < 2 ? 0 : j < 14 ? 10 * (j + 2) + 1 : 1;
    kt_require(r, out[j] == want, "out[%d] = %d, expected %d", j, out[j], want);
  }
}

static void test_keep_going_values(void **state) {
  (void)state;
  int32_t in[16];
  for (int k = 0; k < 16; k++) in[k] = 10 * k;
  kt_case c = {.file = "check_bounds",
               .kernel = "kg_two",
               .args = {KT_BUF_IN(NULL, 64), KT_BUF_IN(in, sizeof in)},
               .range = {1, {16}, {8}, {0}},
               .check = kb_check_kg_two,
               .expect_reports = true,
               .keep_going = true};
  kt_run_case(&c);
}

/* The array step kept going past reads the memory the pointer designates: b[4], b[5] are c[0] = 9,
 * c[1] = 10, so out[g] = s->b[g % 6] + 1 = g % 6 + 6 for every g. */
static void kb_check_kg_member(const kt_run *r, void *u) {
  (void)u;
  kt_require(r, r->status == SPVI_OK, "status %d: %s", (int)r->status, r->fault->message);
  kt_require(r, spvi_report_count(r->launch) == 1, "%zu reports, expected 1", spvi_report_count(r->launch));
  const int32_t *out = r->buf[0];
  for (int g = 0; g < 16; g++) kt_require(r, out[g] == g % 6 + 6, "out[%d] = %d, expected %d", g, out[g], g % 6 + 6);
}

static void test_keep_going_member_values(void **state) {
  (void)state;
  kt_case c = {.file = "check_bounds",
               .kernel = "kg_member",
               .args = {KT_BUF_IN(NULL, 64), KT_BUF_IN(kb_rec, sizeof kb_rec)},
               .range = {1, {16}, {8}, {0}},
               .check = kb_check_kg_member,
               .expect_reports = true,
               .keep_going = true};
  kt_run_case(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    KT_TEST(test_struct_member),
    KT_TEST(test_struct_member_in_range),
    KT_TEST(test_inner_dim),
    KT_TEST(test_inner_dim_negative),
    KT_TEST(test_priv_array),
    KT_TEST(test_valid),
    KT_TEST(test_guarded),
    KT_TEST(test_keep_going_reports),
    KT_TEST(test_keep_going_array_index),
    KT_TEST(test_keep_going_values),
    KT_TEST(test_keep_going_member_values),
  };
  return cmocka_run_group_tests_name("bounds", tests, NULL, NULL);
}
