/*
 * test_kernels_ndrange.c — work-item functions and multi-dimensional launches: ndrange_ids.cl,
 * ndrange_stencil3d.cl. The expected work-item function values are derived from the OpenCL 2.0
 * definitions (API s3.2 / C s6.13.1), for global size G, enqueued local size L and offset O in
 * each dimension, and position p = global id - O:
 *   local id = p % L, group id = p / L, num groups = ceil(G / L),
 *   local size = G % L in the last group when L does not divide G (non-uniform), else L,
 *   global linear id = p0 + G0 * (p1 + G1 * p2),
 *   local linear id = l0 + S0 * (l1 + S1 * l2) with S the actual local sizes,
 *   and for dimensions >= work_dim: ids 0, sizes 1, offset 0.
 */
#include "kernel_harness.h"
#include "load.h"

#define KT_REC 28

/* Expected ids records for the given launch (enqueued local size L). */
static void kt_ids_expect(unsigned dims, const size_t *g, const size_t *l, const size_t *o, uint32_t *rec) {
  size_t G[3], L[3], O[3];
  for (unsigned d = 0; d < 3; ++d) {
    G[d] = d < dims ? g[d] : 1;
    L[d] = d < dims ? l[d] : 1;
    O[d] = d < dims && o ? o[d] : 0;
  }
  for (size_t p2 = 0; p2 < G[2]; ++p2)
    for (size_t p1 = 0; p1 < G[1]; ++p1)
      for (size_t p0 = 0; p0 < G[0]; ++p0) {
        size_t p[3] = {p0, p1, p2}, lid[3], lsz[3];
        size_t lin = p0 + G[0] * (p1 + G[1] * p2);
        uint32_t *r = rec + lin * KT_REC;
        r[0] = dims;
        for (unsigned d = 0; d < 3; ++d) {
          size_t grp = p[d] / L[d], ngroups = (G[d] + L[d] - 1) / L[d];
          lid[d] = p[d] % L[d];
          lsz[d] = (grp == ngroups - 1 && G[d] % L[d]) ? G[d] % L[d] : L[d];
          uint32_t *q = r + 1 + d * 8;
          q[0] = (uint32_t)(p[d] + O[d]);
          q[1] = (uint32_t)lid[d];
          q[2] = (uint32_t)grp;
          q[3] = (uint32_t)lsz[d];
          q[4] = (uint32_t)L[d];
          q[5] = (uint32_t)ngroups;
          q[6] = (uint32_t)O[d];
          q[7] = (uint32_t)G[d];
        }
        r[25] = (uint32_t)lin;
        r[26] = (uint32_t)(lid[0] + lsz[0] * (lid[1] + lsz[1] * lid[2]));
        r[27] = 0xC0FFEEu;
      }
}

typedef struct kt_ids_ctx {
  unsigned dims;
  size_t global[3], local[3], offset[3], total;
} kt_ids_ctx;

static void kt_check_ids(const kt_run *r, void *u) {
  const kt_ids_ctx *c = u;
  size_t L[3];
  bool picked = !(c->local[0] || c->local[1] || c->local[2]);
  for (unsigned d = 0; d < 3; ++d) {
    L[d] = picked ? r->local[d] : c->local[d];
    if (d >= c->dims) continue;
    kt_require(r, r->local[d] >= 1 && r->local[d] <= c->global[d], "spvi_launch_local_size()[%u] = %zu", d,
               r->local[d]);
    if (!picked)
      kt_require(r, r->local[d] == c->local[d], "spvi_launch_local_size()[%u] = %zu, set %zu", d, r->local[d],
                 c->local[d]);
  }
  uint32_t *want = malloc(c->total * KT_REC * sizeof(uint32_t));
  kt_require(r, want != NULL, "out of memory");
  kt_ids_expect(c->dims, c->global, L, c->offset, want);
  /* compare record by record, naming the field on a mismatch */
  const uint32_t *got = r->buf[0];
  static const char *const field[8] = {"global_id",           "local_id",   "group_id",      "local_size",
                                       "enqueued_local_size", "num_groups", "global_offset", "global_size"};
  for (size_t i = 0; i < c->total; ++i)
    for (size_t k = 0; k < KT_REC; ++k) {
      uint32_t gv = got[i * KT_REC + k], wv = want[i * KT_REC + k];
      if (gv == wv) continue;
      char what[64];
      if (k == 0) snprintf(what, sizeof what, "work_dim");
      else if (k < 25) snprintf(what, sizeof what, "%s(%zu)", field[(k - 1) % 8], (k - 1) / 8);
      else
        snprintf(what, sizeof what, "%s",
                 k == 25   ? "global_linear_id"
                 : k == 26 ? "local_linear_id"
                           : "end marker (record never written?)");
      uint32_t g0 = want[i * KT_REC + 1], g1 = want[i * KT_REC + 9], g2 = want[i * KT_REC + 17];
      free(want);
      kt_fail(r, "work-item (%u,%u,%u): %s = %u, expected %u", g0, g1, g2, what, gv, wv);
    }
  free(want);
}

static void kt_ids_case(unsigned dims, const size_t *global, const size_t *local, const size_t *offset) {
  kt_ids_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.dims = dims;
  ctx.total = 1;
  for (unsigned d = 0; d < dims; ++d) {
    ctx.global[d] = global[d];
    ctx.local[d] = local ? local[d] : 0;
    ctx.offset[d] = offset ? offset[d] : 0;
    ctx.total *= global[d];
  }
  size_t bytes = ctx.total * KT_REC * sizeof(uint32_t);
  void *init = kt_alloc(bytes);
  memset(init, 0xFF, bytes); /* a record never written shows up as 0xFFFFFFFF */
  kt_case c = {.file = "ndrange_ids",
               .kernel = "ids",
               .args = {KT_BUF_IN(init, bytes)},
               .range = {dims, {0}, {0}, {0}},
               .check = kt_check_ids,
               .user = &ctx};
  for (unsigned d = 0; d < dims; ++d) {
    c.range.global[d] = ctx.global[d];
    c.range.local[d] = ctx.local[d];
    c.range.offset[d] = ctx.offset[d];
  }
  kt_run_case(&c);
}

static void test_ids_hand(void **state) {
  (void)state;
  /* hand derivation for 1D, G = 37, L = 8, O = 5, work-item with global id 40 (p = 35):
   * local id 35 % 8 = 3, group 4, num groups 5, last group so local size 37 % 8 = 5, linear id 35,
   * local linear id 3 */
  size_t g = 37, l = 8, o = 5;
  uint32_t *rec = malloc(37 * KT_REC * sizeof(uint32_t));
  assert_non_null(rec);
  kt_ids_expect(1, &g, &l, &o, rec);
  const uint32_t *r = rec + 35 * KT_REC;
  assert_true(r[0] == 1 && r[1] == 40 && r[2] == 3 && r[3] == 4 && r[4] == 5 && r[5] == 8 && r[6] == 5 && r[7] == 5 &&
              r[8] == 37);
  assert_true(r[9] == 0 && r[12] == 1 && r[13] == 1 && r[14] == 1 && r[16] == 1 && r[25] == 35 && r[26] == 3);
  free(rec);
}

static void test_ids_1d(void **state) {
  (void)state;
  const size_t g[1] = {37}, l[1] = {8}, o[1] = {5};
  kt_ids_case(1, g, l, o);
}

static void test_ids_2d(void **state) {
  (void)state;
  const size_t g[2] = {13, 7}, l[2] = {4, 3}, o[2] = {2, 100};
  kt_ids_case(2, g, l, o);
}

static void test_ids_3d(void **state) {
  (void)state;
  const size_t g[3] = {5, 4, 3}, l[3] = {2, 3, 2}, o[3] = {1, 2, 3};
  kt_ids_case(3, g, l, o);
}

static void test_ids_3d_uniform(void **state) {
  (void)state;
  const size_t g[3] = {4, 4, 2}, l[3] = {2, 2, 2};
  kt_ids_case(3, g, l, NULL);
}

static void test_ids_local_null(void **state) {
  (void)state;
  /* spvi picks the local size: the records must agree with spvi_launch_local_size() */
  const size_t g[2] = {50, 3};
  kt_ids_case(2, g, NULL, NULL);
}

/* spvi_set_ndrange refuses sizes whose products wrap (issue 17) and, for a Physical32 module,
 * global ids or work-item counts past its 32-bit size_t (OpenCL 3.0 API 5.9.5); the largest that
 * fit are accepted (set only, not run). */
static void ndrange_expect(spvi_launch *l, unsigned dims, const size_t *g, const size_t *lo, const size_t *off,
                           const char *msg) {
  spvi_error err;
  spvi_status st = spvi_set_ndrange(l, dims, g, lo, off, &err);
  if (!msg) {
    if (st != SPVI_OK) fail_msg("refused: %s", err.message);
    return;
  }
  assert_int_equal(st, SPVI_E_USAGE);
  if (!strstr(err.message, msg)) fail_msg("\"%s\" lacks \"%s\"", err.message, msg);
}

static void test_ndrange_limits(void **state) {
  (void)state;
  const size_t ones[3] = {1, 1, 1}, big[2] = {(size_t)1 << 32, (size_t)1 << 32},
               big1[2] = {((size_t)1 << 32) + 1, ((size_t)1 << 32) + 1}, top[1] = {SIZE_MAX},
               half[2] = {(size_t)1 << 32, (size_t)1 << 31}, u32[1] = {UINT32_MAX}, two[1] = {2},
               off32[1] = {UINT32_MAX - 1}, over32[1] = {(size_t)UINT32_MAX + 1};
  spvi_module *m = tl_load("ndrange_ids", "O0");
  spvi_launch *l = tl_launch(m, "ids");
  ndrange_expect(l, 2, big, ones, NULL, "more work-items than the module's 64-bit size_t holds");
  ndrange_expect(l, 2, big1, ones, NULL, "more work-items than the module's 64-bit size_t holds");
  ndrange_expect(l, 2, half, ones, NULL, NULL); /* 2^63 work-items */
  ndrange_expect(l, 1, top, NULL, NULL, NULL);  /* 2^64 - 1: rounding up the group count must not wrap */
  size_t picked[3];
  spvi_launch_local_size(l, picked); /* 2^64 - 1 = 3 * 5 * 17 * 257 * 641 * 65537 * 6700417: 51 */
  assert_int_equal(picked[0], 51);
  assert_int_equal(spvi_launch_group_count(l), SIZE_MAX / 51);
  ndrange_expect(l, 1, top, ones, two, "global offset + size overflows in dimension 0");
  spvi_launch_free(l);
  spvi_module_free(m);

  m = tl_load("ndrange_ids", "O0.spir32");
  l = tl_launch(m, "ids");
  ndrange_expect(l, 1, u32, ones, NULL, NULL);
  ndrange_expect(l, 1, over32, ones, NULL, "more work-items than the module's 32-bit size_t holds");
  ndrange_expect(l, 1, two, ones, off32, NULL); /* ids up to 2^32 - 1 */
  ndrange_expect(l, 1, u32, ones, two, "exceeds the module's 32-bit size_t");
  ndrange_expect(l, 2, (size_t[]){65536, 65536}, ones, NULL, "than the module's 32-bit size_t holds");
  spvi_launch_free(l);
  spvi_module_free(m);
}

static void kt_check_ids_const(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_U32, 9 * 6 * 8); }

static void test_ids_const(void **state) {
  (void)state;
  /* 2D, G = (9, 6), L = (4, 4): non-uniform in both dimensions */
  uint32_t want[9 * 6 * 8];
  for (uint32_t g1 = 0; g1 < 6; ++g1)
    for (uint32_t g0 = 0; g0 < 9; ++g0) {
      uint32_t *r = want + (g0 + 9 * g1) * 8;
      r[0] = g0;
      r[1] = g1;
      r[2] = g0 % 4;
      r[3] = g1 % 4;
      r[4] = g1 / 4;
      r[5] = 6;
      r[6] = 1;
      r[7] = 0;
    }
  kt_case c = {.file = "ndrange_ids",
               .kernel = "ids_const",
               .args = {KT_BUF_IN(NULL, sizeof want)},
               .range = {2, {9, 6}, {4, 4}, {0}},
               .check = kt_check_ids_const,
               .user = want};
  kt_run_case(&c);
}

/* ---- ndrange_stencil3d.cl ------------------------------------------------------------------- */
#define KT_SX 6
#define KT_SY 5
#define KT_SZ 4
#define KT_SCELLS ((KT_SX + 2) * (KT_SY + 2) * (KT_SZ + 2))
static void kt_check_stencil(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_I32, KT_SCELLS); }

static void test_stencil3d(void **state) {
  (void)state;
  static int32_t in[KT_SCELLS], want[KT_SCELLS];
  int32_t X = KT_SX, Y = KT_SY;
  const int sx = KT_SX + 2, sy = KT_SY + 2;
  kt_seed(0xC100);
  for (size_t i = 0; i < KT_SCELLS; ++i) in[i] = (int32_t)kt_rand_range(-1000, 1000);
  memset(want, 0, sizeof want); /* the halo is not written */
  for (int z = 1; z <= KT_SZ; ++z)
    for (int y = 1; y <= KT_SY; ++y)
      for (int x = 1; x <= KT_SX; ++x) {
#define KT_AT(i, j, k) in[((k)*sy + (j)) * sx + (i)]
        want[(z * sy + y) * sx + x] = 6 * KT_AT(x, y, z) - KT_AT(x - 1, y, z) - KT_AT(x + 1, y, z) -
                                      KT_AT(x, y - 1, z) - KT_AT(x, y + 1, z) - KT_AT(x, y, z - 1) - KT_AT(x, y, z + 1);
#undef KT_AT
      }
  kt_case c = {.file = "ndrange_stencil3d",
               .kernel = "stencil3d",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_BUF_IN(in, sizeof in), KT_VALUE(&X), KT_VALUE(&Y)},
               .range = {3, {KT_SX, KT_SY, KT_SZ}, {4, 2, 3}, {1, 1, 1}},
               .check = kt_check_stencil,
               .user = want};
  kt_run_case(&c);
}

static void test_matmul2d(void **state) {
  (void)state;
  enum { M = 7, K = 5, N = 9 };
  int32_t A[M * K], B[K * N], w[1 + M * N], k = K, n = N;
  kt_seed(0xC200);
  for (size_t i = 0; i < M * K; ++i) A[i] = (int32_t)kt_rand_range(-50, 50);
  for (size_t i = 0; i < K * N; ++i) B[i] = (int32_t)kt_rand_range(-50, 50);
  w[0] = M * N;
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      int s = 0;
      for (int j = 0; j < K; ++j) s += A[r * K + j] * B[j * N + c];
      w[1 + r * N + c] = s;
    }
  kt_case c = {.file = "ndrange_stencil3d",
               .kernel = "matmul2d",
               .args = {KT_BUF_IN(NULL, M * N * 4), KT_BUF_IN(A, sizeof A), KT_BUF_IN(B, sizeof B), KT_VALUE(&k),
                        KT_VALUE(&n)},
               .range = {2, {N, M}, {4, 2}, {0}},
               .check = kt_check_i32_n,
               .user = w};
  kt_run_case(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    KT_TEST(test_ids_hand),       KT_TEST(test_ids_1d),         KT_TEST(test_ids_2d),    KT_TEST(test_ids_3d),
    KT_TEST(test_ids_3d_uniform), KT_TEST(test_ids_local_null), KT_TEST(test_ids_const), KT_TEST(test_stencil3d),
    KT_TEST(test_matmul2d),       KT_TEST(test_ndrange_limits),
  };
  return cmocka_run_group_tests_name("kernels_ndrange", tests, NULL, NULL);
}
