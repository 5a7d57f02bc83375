/*
 * test_kernels_async.c — async work-group copies (tests/kernels/async_copy.cl) and their misuse
 * (async_copy_fault.cl). Expected values come from a plain C model of OpenCL C 6.15.11: a copy of
 * n elements from src + base to dst + base, strided on the global side; the per-element operation
 * the kernels apply in local memory (+1 or *2, modulo 2^bits for integers) is done here on each
 * component of the element type.
 */

#include "kernel_harness.h"

/* The gentypes of async_copy.cl: component type, components, memory slots (3-vectors take 4). */
typedef struct kt_async_type {
  const char *name;
  kt_type comp;
  unsigned ncomp, slots;
} kt_async_type;
static const kt_async_type kt_async_types[] = {
  {"char", KT_I8, 1, 1},      {"short", KT_I16, 1, 1},  {"int", KT_I32, 1, 1},  {"long", KT_I64, 1, 1},
  {"float", KT_F32, 1, 1},    {"double", KT_F64, 1, 1}, {"int3", KT_I32, 3, 4}, {"float4", KT_F32, 4, 4},
  {"uchar16", KT_U8, 16, 16}, {"ulong2", KT_U64, 2, 2},
};

enum { KT_AS_LOCAL = 8, KT_AS_GLOBAL = 20, KT_AS_GROUPS = 3, KT_AS_N = 11, KT_AS_STRIDE = 3 };
/* largest buffer: 3 groups x 11 elements x stride 3 x 16 bytes */
#define KT_AS_MAX_BYTES (KT_AS_GROUPS * KT_AS_N * KT_AS_STRIDE * 16)

/* Every check on: no report may come (3-component vectors included: at -O0 their stores are
 * shuffles with an undefined fourth selector, the padding slot, which is not a use of undefined
 * memory). */
#define KT_AS_CHECKS(ty) ((void)(ty), SPVI_CHECK_ALL)

/* One component: op 0 adds 1, op 1 doubles (integers modulo 2^bits, floats in their type). */
static void kt_async_apply(kt_type t, const unsigned char *in, unsigned char *out, int op) {
  if (t == KT_F32) {
    float v;
    memcpy(&v, in, 4);
    v = op ? v * 2.0f : v + 1.0f;
    memcpy(out, &v, 4);
  } else if (t == KT_F64) {
    double v;
    memcpy(&v, in, 8);
    v = op ? v * 2.0 : v + 1.0;
    memcpy(out, &v, 8);
  } else {
    size_t b = kt_type_size(t);
    uint64_t u = 0;
    memcpy(&u, in, b);
    u = op ? u * 2 : u + 1;
    memcpy(out, &u, b); /* the low bytes: modulo 2^bits */
  }
}

/* Random components: integers of any bits, floats small integers (their +1 and *2 are exact). */
static void kt_async_fill(const kt_async_type *ty, unsigned char *buf, size_t elems) {
  size_t cs = kt_type_size(ty->comp);
  for (size_t i = 0; i < elems * ty->slots; i++) {
    unsigned char *p = buf + i * cs;
    if (ty->comp == KT_F32) {
      float f = (float)kt_rand_range(-1000, 1000);
      memcpy(p, &f, 4);
    } else if (ty->comp == KT_F64) {
      double d = (double)kt_rand_range(-100000, 100000) / 4;
      memcpy(p, &d, 8);
    } else {
      uint64_t u = kt_rand();
      memcpy(p, &u, cs);
    }
  }
}

/* Element e of buffer `in` with op applied to every component into element e of `out`. */
static void kt_async_elem(const kt_async_type *ty, const unsigned char *in, unsigned char *out, size_t e, int op) {
  size_t cs = kt_type_size(ty->comp), es = cs * ty->slots;
  for (unsigned c = 0; c < ty->slots; c++) kt_async_apply(ty->comp, in + e * es + c * cs, out + e * es + c * cs, op);
}

typedef struct kt_async_ctx {
  const kt_async_type *ty;
  unsigned char want[2][KT_AS_MAX_BYTES];
  size_t elems[2];
  int arg[2];
} kt_async_ctx;

static void kt_check_async(const kt_run *r, void *u) {
  const kt_async_ctx *c = u;
  const size_t period = c->ty->ncomp == c->ty->slots ? 0 : c->ty->slots;
  for (int k = 0; k < 2; k++)
    if (c->elems[k])
      kt_expect_lanes(r, c->arg[k], c->want[k], c->ty->comp, c->elems[k] * c->ty->slots, period, c->ty->ncomp);
}

/* copy_T: each group's tile of n elements, global -> local, + 1, local -> global. Three groups of
 * 8, 8 and 4 work-items (non-uniform), n = 11 > the group size. */
static void test_async_copy_tiles(void **state) {
  (void)state;
  static unsigned char src[KT_AS_MAX_BYTES];
  static kt_async_ctx w;
  const uint32_t n = KT_AS_N;
  for (size_t t = 0; t < KT_COUNT(kt_async_types); t++) {
    const kt_async_type *ty = &kt_async_types[t];
    const size_t es = kt_type_size(ty->comp) * ty->slots, elems = KT_AS_GROUPS * n;
    kt_seed(0xA5C0 + t);
    kt_async_fill(ty, src, elems);
    memset(&w, 0, sizeof w);
    w.ty = ty;
    for (size_t e = 0; e < elems; e++) kt_async_elem(ty, src, w.want[0], e, 0);
    w.elems[0] = elems;
    w.arg[0] = 1;
    char kernel[64];
    snprintf(kernel, sizeof kernel, "copy_%s", ty->name);
    kt_case c = {.file = "async_copy",
                 .kernel = kernel,
                 .args = {KT_BUF_IN(src, elems * es), KT_BUF_IN(NULL, elems * es), KT_LOCAL_BYTES(n * es),
                          KT_VALUE(&n)},
                 .range = {1, {KT_AS_GLOBAL}, {KT_AS_LOCAL}, {0}},
                 .check = kt_check_async,
                 .user = &w,
                 .checks = KT_AS_CHECKS(ty)};
    kt_run_case(&c);
  }
}

/* strided_T: gather every 3rd element of the group's 33, * 2, scatter back with stride 3 into dst
 * (the other elements stay 0) and contiguously into dst2, under one shared event. */
static void test_async_strided(void **state) {
  (void)state;
  static unsigned char src[KT_AS_MAX_BYTES];
  static kt_async_ctx w;
  const uint32_t n = KT_AS_N, stride = KT_AS_STRIDE;
  for (size_t t = 0; t < KT_COUNT(kt_async_types); t++) {
    const kt_async_type *ty = &kt_async_types[t];
    const size_t es = kt_type_size(ty->comp) * ty->slots, elems = KT_AS_GROUPS * n * stride;
    kt_seed(0x5A7D + t);
    kt_async_fill(ty, src, elems);
    memset(&w, 0, sizeof w);
    w.ty = ty;
    for (size_t g = 0; g < KT_AS_GROUPS; g++)
      for (size_t i = 0; i < n; i++) {
        size_t from = g * n * stride + i * stride;
        kt_async_elem(ty, src, w.want[0], from, 1);
        memcpy(w.want[1] + (g * n + i) * es, w.want[0] + from * es, es);
      }
    w.elems[0] = elems;
    w.arg[0] = 1;
    w.elems[1] = KT_AS_GROUPS * n;
    w.arg[1] = 2;
    char kernel[64];
    snprintf(kernel, sizeof kernel, "strided_%s", ty->name);
    kt_case c = {.file = "async_copy",
                 .kernel = kernel,
                 .args = {KT_BUF_IN(src, elems * es), KT_BUF_IN(NULL, elems * es),
                          KT_BUF_IN(NULL, KT_AS_GROUPS * n * es), KT_LOCAL_BYTES(n * es), KT_VALUE(&n),
                          KT_VALUE(&stride)},
                 .range = {1, {KT_AS_GLOBAL}, {KT_AS_LOCAL}, {0}},
                 .check = kt_check_async,
                 .user = &w,
                 .checks = KT_AS_CHECKS(ty)};
    kt_run_case(&c);
  }
}

/* pipeline: two copies waited for together, then double-buffered tiles (a copy in flight while
 * the previous tile is summed). */
typedef struct kt_pipe_ctx {
  int32_t sums[KT_AS_GROUPS * 4];
  int32_t copy2[KT_AS_GROUPS * 2 * 5];
} kt_pipe_ctx;
static void kt_check_pipeline(const kt_run *r, void *u) {
  const kt_pipe_ctx *c = u;
  kt_expect_buf(r, 1, c->sums, KT_I32, KT_COUNT(c->sums));
  kt_expect_buf(r, 2, c->copy2, KT_I32, KT_COUNT(c->copy2));
}

static void test_async_pipeline(void **state) {
  (void)state;
  enum { N = 5, TILES = 4 };
  const uint32_t n = N, tiles = TILES;
  int32_t src[KT_AS_GROUPS * N * TILES];
  static kt_pipe_ctx w;
  kt_seed(0x919E);
  for (size_t i = 0; i < KT_COUNT(src); i++) src[i] = (int32_t)kt_rand_range(-100000, 100000);
  for (size_t g = 0; g < KT_AS_GROUPS; g++) {
    for (size_t t = 0; t < TILES; t++) {
      int32_t s = 0;
      for (size_t i = 0; i < N; i++) s += src[(g * TILES + t) * N + i];
      w.sums[g * TILES + t] = s;
    }
    for (size_t i = 0; i < 2 * N; i++) w.copy2[g * 2 * N + i] = src[g * N * TILES + i];
  }
  kt_case c = {.file = "async_copy",
               .kernel = "pipeline",
               .args = {KT_BUF_IN(src, sizeof src), KT_BUF_IN(NULL, sizeof w.sums), KT_BUF_IN(NULL, sizeof w.copy2),
                        KT_LOCAL_BYTES(2 * N * 4), KT_VALUE(&n), KT_VALUE(&tiles)},
               .range = {1, {KT_AS_GLOBAL}, {KT_AS_LOCAL}, {0}},
               .check = kt_check_pipeline,
               .user = &w,
               .checks = SPVI_CHECK_ALL};
  kt_run_case(&c);
}

/* ---- misuse: async_copy_fault.cl ---------------------------------------------------------- */
typedef struct kt_async_fault {
  spvi_fault_kind kind;
  bool check_gid;
  size_t gid[3];
  bool check_mem;
  int arg;
  int64_t offset;
  uint64_t access_size;
  const char *text; /* a phrase the report must contain */
} kt_async_fault;

static void kt_check_async_fault(const kt_run *r, void *u) {
  const kt_async_fault *x = u;
  kt_expect_fault(r, x->kind, x->check_gid ? x->gid : NULL, x->check_mem, x->arg, x->offset);
  if (x->check_mem)
    kt_require(r, r->fault->access_size == x->access_size, "fault.access_size %" PRIu64 ", expected %" PRIu64,
               r->fault->access_size, x->access_size);
  kt_require(r, strstr(r->fault->message, x->text) != NULL, "the report does not say `%s`:\n%s", x->text,
             r->fault->message);
  kt_require(r, strstr(r->fault->message, "OpGroup") != NULL, "the report does not name the instruction:\n%s",
             r->fault->message);
}

static void test_async_fault_divergent(void **state) {
  (void)state;
  /* which work-item is reported depends on the warp width (the first that did not arrive, or the
   * first waiting when the others finished) */
  kt_async_fault x = {SPVI_FAULT_BARRIER_DIVERGENCE, false, {0}, false, -1, 0, 0, "async work-group copy"};
  kt_case c = {.file = "async_copy_fault",
               .kernel = "divergent_copy",
               .args = {KT_BUF_IN(NULL, 16), KT_LOCAL_BYTES(16), KT_BUF_IN(NULL, 32)},
               .range = {1, {8}, {8}, {0}},
               .check = kt_check_async_fault,
               .user = &x,
               .expect_fault = true};
  kt_run_case(&c);
}

static void test_async_fault_mismatch(void **state) {
  (void)state;
  /* work-item 1 is the first whose src differs from work-item 0's */
  kt_async_fault x = {SPVI_FAULT_BARRIER_DIVERGENCE, true, {1, 0, 0}, false, -1, 0, 0, "different arguments: src"};
  kt_case c = {.file = "async_copy_fault",
               .kernel = "mismatched_copy",
               .args = {KT_BUF_IN(NULL, 64), KT_LOCAL_BYTES(16), KT_BUF_IN(NULL, 32)},
               .range = {1, {8}, {8}, {0}},
               .check = kt_check_async_fault,
               .user = &x,
               .expect_fault = true};
  kt_run_case(&c);
}

static void test_async_fault_oob(void **state) {
  (void)state;
  const uint32_t n = 4, n5 = 5, stride = 3;
  /* group 1 reads n + 1 = 5 ints from src + 4 of an 8-int buffer: 20 bytes at offset 16, reported
   * at the group's first work-item, global id 4 */
  kt_async_fault a = {SPVI_FAULT_OUT_OF_BOUNDS, true, {4, 0, 0}, true, 0, 16, 20, "read"};
  kt_case ca = {.file = "async_copy_fault",
                .kernel = "oob_source",
                .args = {KT_BUF_IN(NULL, 32), KT_LOCAL_BYTES(20), KT_BUF_IN(NULL, 32), KT_VALUE(&n)},
                .range = {1, {8}, {4}, {0}},
                .check = kt_check_async_fault,
                .user = &a,
                .expect_fault = true};
  kt_run_case(&ca);
  /* elements 0, 3, 6, 9 of a 9-int buffer: element 9 (offset 36) is outside */
  kt_async_fault b = {SPVI_FAULT_OUT_OF_BOUNDS, true, {0, 0, 0}, true, 0, 36, 4, "write"};
  kt_case cb = {.file = "async_copy_fault",
                .kernel = "oob_strided_dest",
                .args = {KT_BUF_IN(NULL, 36), KT_LOCAL_BYTES(16), KT_VALUE(&n), KT_VALUE(&stride)},
                .range = {1, {4}, {4}, {0}},
                .check = kt_check_async_fault,
                .user = &b,
                .expect_fault = true};
  kt_run_case(&cb);
  /* 5 ints into a 16-byte local buffer */
  kt_async_fault d = {SPVI_FAULT_OUT_OF_BOUNDS, true, {0, 0, 0}, true, 1, 0, 20, "local buffer"};
  kt_case cd = {.file = "async_copy_fault",
                .kernel = "oob_local",
                .args = {KT_BUF_IN(NULL, 40), KT_LOCAL_BYTES(16), KT_VALUE(&n5)},
                .range = {1, {4}, {4}, {0}},
                .check = kt_check_async_fault,
                .user = &d,
                .expect_fault = true};
  kt_run_case(&cd);
}

static void test_async_fault_events(void **state) {
  (void)state;
  const uint32_t zero = 0;
  kt_async_fault a = {SPVI_FAULT_ASYNC_COPY, true, {0, 0, 0}, false, -1, 0, 0, "stride 0"};
  kt_case ca = {.file = "async_copy_fault",
                .kernel = "zero_stride",
                .args = {KT_BUF_IN(NULL, 40), KT_LOCAL_BYTES(16), KT_VALUE(&zero)},
                .range = {1, {4}, {4}, {0}},
                .check = kt_check_async_fault,
                .user = &a,
                .expect_fault = true};
  kt_run_case(&ca);
  kt_async_fault b = {SPVI_FAULT_ASYNC_COPY, true, {0, 0, 0}, false, -1, 0, 0, "without waiting"};
  kt_case cb = {.file = "async_copy_fault",
                .kernel = "never_waited",
                .args = {KT_BUF_IN(NULL, 40), KT_LOCAL_BYTES(16), KT_BUF_IN(NULL, 16)},
                .range = {1, {4}, {4}, {0}},
                .check = kt_check_async_fault,
                .user = &b,
                .expect_fault = true};
  kt_run_case(&cb);
  kt_async_fault d = {SPVI_FAULT_ASYNC_COPY, true, {0, 0, 0}, false, -1, 0, 0, "already released"};
  kt_case cd = {.file = "async_copy_fault",
                .kernel = "waited_twice",
                .args = {KT_BUF_IN(NULL, 40), KT_LOCAL_BYTES(16)},
                .range = {1, {4}, {4}, {0}},
                .check = kt_check_async_fault,
                .user = &d,
                .expect_fault = true};
  kt_run_case(&cd);
}

/* --check uninit follows the copy: local ints 2 and 3 were never written, and the copy puts them
 * into `out` (the report names the undefined bytes written: 8 bytes at offset 8 of argument 0).
 * The two written ones arrive. */
static void kt_check_uninit_copy(const kt_run *r, void *u) {
  (void)u;
  kt_require(r, r->status == SPVI_OK, "status %d", (int)r->status);
  kt_require(r, spvi_report_count(r->launch) == 1, "%zu reports, expected 1", spvi_report_count(r->launch));
  const spvi_report *rep = spvi_report_get(r->launch, 0);
  kt_require(r, rep->kind == SPVI_REPORT_UNINIT && rep->arg_index == 0 && rep->offset == 8 && rep->access_size == 8,
             "report:\n%s", rep->message);
  kt_require(r, strstr(rep->message, "OpGroupAsyncCopy") != NULL, "report:\n%s", rep->message);
  const int32_t want[2] = {1, 1};
  kt_expect_buf(r, 0, want, KT_I32, 2);
}

static void test_async_uninit(void **state) {
  (void)state;
  kt_case c = {.file = "async_copy_fault",
               .kernel = "uninit_copy",
               .args = {KT_BUF_IN(NULL, 16), KT_LOCAL_BYTES(16)},
               .range = {1, {4}, {4}, {0}},
               .check = kt_check_uninit_copy,
               .checks = SPVI_CHECK_UNINIT,
               .expect_reports = true};
  kt_run_case(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    KT_TEST(test_async_copy_tiles),      KT_TEST(test_async_strided),        KT_TEST(test_async_pipeline),
    KT_TEST(test_async_fault_divergent), KT_TEST(test_async_fault_mismatch), KT_TEST(test_async_fault_oob),
    KT_TEST(test_async_fault_events),    KT_TEST(test_async_uninit),
  };
  return cmocka_run_group_tests_name("kernels_async", tests, NULL, NULL);
}
