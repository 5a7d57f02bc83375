/*
 * test_pack.c — work-groups smaller than a warp (tests/kernels/pack.cl), at -O0 and -O2 and warp
 * widths 1, 7 and 32 (kernel_harness.h; buffers must be identical at every width). Kernels without
 * synchronisation or local memory run packed, several groups' work-items on one warp
 * (interp/ex_sched.c, "Packed work-groups"): their work-item functions, a division report and a
 * fault must name each work-item's own group. Sub-group kernels are in pack_sg.cl: a module using
 * sub-groups runs at a multiple of the sub-group size (32), so widths 1 and 7 apply to pack.cl. Kernels with a barrier and local memory, or with a
 * sub-group collective, run group by group and must be unaffected. Expected values are derived
 * from the NDRange by the OpenCL C 3.0 6.15.1 definitions (group = p / L, local id = p % L, the
 * last group of a dimension holding the remainder; sub-groups of S = 32 consecutive local linear
 * ids, docs/semantics.md "Sub-groups").
 */
#include "kernel_harness.h"

/* ---- pack_ids ------------------------------------------------------------------------------ */
enum { KP_MAX_ITEMS = 128 };

typedef struct kp_ids {
  unsigned dims;
  size_t g[3], l[3];
} kp_ids;

static uint32_t kp_enc(const size_t v[3]) { return (uint32_t)(v[0] + 1000 * v[1] + 100000 * v[2]); }

static void kp_check_ids(const kt_run *r, void *u) {
  const kp_ids *c = u;
  static uint32_t want[KP_MAX_ITEMS * 8];
  const size_t n = c->g[0] * c->g[1] * c->g[2];
  kt_require(r, n <= KP_MAX_ITEMS, "%zu work-items: raise KP_MAX_ITEMS", n);
  for (size_t lin = 0; lin < n; lin++) {
    const size_t p[3] = {lin % c->g[0], lin / c->g[0] % c->g[1], lin / (c->g[0] * c->g[1])};
    size_t grp[3], lid[3], sz[3];
    for (int d = 0; d < 3; d++) {
      grp[d] = p[d] / c->l[d];
      lid[d] = p[d] % c->l[d];
      sz[d] = grp[d] == (c->g[d] - 1) / c->l[d] && c->g[d] % c->l[d] ? c->g[d] % c->l[d] : c->l[d];
    }
    const size_t llin = lid[0] + sz[0] * (lid[1] + sz[1] * lid[2]);
    uint32_t *o = want + lin * 8;
    o[0] = kp_enc(grp);
    o[1] = kp_enc(lid);
    o[2] = kp_enc(sz);
    size_t ng[3];
    for (int d = 0; d < 3; d++) ng[d] = (c->g[d] + c->l[d] - 1) / c->l[d];
    o[3] = (uint32_t)llin;
    o[4] = kp_enc(ng);
    o[5] = (uint32_t)(c->l[0] + 1000 * c->l[1]);
    o[6] = (uint32_t)lin;
    o[7] = kp_enc(p);
  }
  kt_expect_buf(r, 0, want, KT_U32, n * 8);
}

static void kp_ids_case(kp_ids c) {
  for (unsigned d = c.dims; d < 3; d++) c.g[d] = c.l[d] = 1;
  const size_t bytes = c.g[0] * c.g[1] * c.g[2] * 8 * sizeof(uint32_t);
  kt_case k = {.file = "pack",
               .kernel = "pack_ids",
               .args = {KT_BUF_IN(NULL, bytes)},
               .range = {c.dims, {c.g[0], c.g[1], c.g[2]}, {c.l[0], c.l[1], c.l[2]}, {0}},
               .check = kp_check_ids,
               .user = &c};
  kt_run_case(&k);
}

static void test_pack_ids(void **state) {
  (void)state;
  kp_ids_case((kp_ids){3, {5, 3, 4}, {1, 1, 1}}); /* one-item groups: 32 groups per warp at width 32 */
  kp_ids_case((kp_ids){2, {7, 5}, {3, 2}});       /* 6 items, the last group of each dimension smaller */
  kp_ids_case((kp_ids){1, {37}, {5}});            /* the last group holds 2 work-items */
  kp_ids_case((kp_ids){3, {4, 6, 5}, {2, 3, 2}}); /* 12 items: packed at width 32, not at 7 */
  /* groups of 40 along y or z alone (not packed): lane l's ids are lane 0's plus l in that
   * dimension (the executor's whole-warp path), the last group of 1 */
  kp_ids_case((kp_ids){3, {2, 41, 1}, {1, 40, 1}});
  kp_ids_case((kp_ids){3, {2, 1, 41}, {1, 1, 40}});
}

/* ---- pack_sg_ids: sub-group built-ins of packed groups ------------------------------------- */
typedef struct kp_sg {
  size_t g, l;
} kp_sg;

static void kp_check_sg_ids(const kt_run *r, void *u) {
  const kp_sg *c = u;
  static uint32_t want[3 * KP_MAX_ITEMS];
  kt_require(r, c->g <= KP_MAX_ITEMS, "%zu work-items: raise KP_MAX_ITEMS", c->g);
  for (size_t i = 0; i < c->g; i++) {
    /* groups of fewer than S = 32 work-items: one sub-group each, of the group's size */
    const size_t items = i / c->l == (c->g - 1) / c->l && c->g % c->l ? c->g % c->l : c->l;
    want[3 * i] = 0;
    want[3 * i + 1] = (uint32_t)(i % c->l);
    want[3 * i + 2] = (uint32_t)(items + 1000);
  }
  kt_expect_buf(r, 0, want, KT_U32, 3 * c->g);
}

static void test_pack_sg_ids(void **state) {
  (void)state;
  const kp_sg cs[] = {{23, 5}, {23, 1}, {64, 20}};
  for (size_t i = 0; i < KT_COUNT(cs); i++) {
    kp_sg c = cs[i];
    kt_case k = {.file = "pack_sg",
                 .kernel = "pack_sg_ids",
                 .args = {KT_BUF_IN(NULL, 3 * c.g * sizeof(uint32_t))},
                 .range = {1, {c.g}, {c.l}, {0}},
                 .check = kp_check_sg_ids,
                 .user = &c};
    kt_run_case(&k);
  }
}

/* ---- pack_div: the report names the work-item's own group ------------------------------------ */
enum { KP_DG = 24, KP_DL = 3, KP_BAD = 14 };

static void kp_check_div(const kt_run *r, void *u) {
  (void)u;
  int32_t want[KP_DG];
  for (int i = 0; i < KP_DG; i++) want[i] = i == KP_BAD ? -1 : 1000 / (i + 1); /* 0 divisor: all ones */
  kt_expect_buf(r, 0, want, KT_I32, KP_DG);
  kt_require(r, spvi_report_count(r->launch) == 1, "%zu reports, expected 1", spvi_report_count(r->launch));
  const spvi_report *x = spvi_report_get(r->launch, 0);
  kt_require(r, x->kind == SPVI_REPORT_DIV_BY_ZERO && x->count == 1, "report:\n%s", x->message);
  /* global id 14 = group 14 / 3 = 4, local id 14 % 3 = 2 */
  kt_require(r, x->at.global_id[0] == KP_BAD && x->at.group_id[0] == 4 && x->at.local_id[0] == 2, "report:\n%s",
             x->message);
}

static void test_pack_div_report(void **state) {
  (void)state;
  int32_t d[KP_DG];
  for (int i = 0; i < KP_DG; i++) d[i] = i == KP_BAD ? 0 : i + 1;
  kt_case k = {.file = "pack",
               .kernel = "pack_div",
               .args = {KT_BUF_IN(NULL, sizeof d), KT_BUF_IN(d, sizeof d)},
               .range = {1, {KP_DG}, {KP_DL}, {0}},
               .check = kp_check_div,
               .expect_reports = true};
  kt_run_case(&k);
}

/* ---- pack_oob: the fault names the work-item's own group ------------------------------------ */
typedef struct kp_oob {
  size_t local, gid;
} kp_oob;

static void kp_check_oob(const kt_run *r, void *u) {
  const kp_oob *c = u;
  const size_t gid[3] = {c->gid, 0, 0};
  kt_expect_fault(r, SPVI_FAULT_OUT_OF_BOUNDS, gid, true, 0, 4000); /* element 1000 of out */
  kt_require(r, r->fault->group_id[0] == c->gid / c->local && r->fault->local_id[0] == c->gid % c->local,
             "fault in group %zu, local id %zu; expected %zu, %zu", r->fault->group_id[0], r->fault->local_id[0],
             c->gid / c->local, c->gid % c->local);
}

static void test_pack_fault(void **state) {
  (void)state;
  enum { G = 40 };
  int32_t idx[G];
  for (int i = 0; i < G; i++) idx[i] = i;
  idx[37] = 1000;
  const size_t locals[] = {1, 2, 5};
  for (size_t i = 0; i < KT_COUNT(locals); i++) {
    kp_oob c = {locals[i], 37};
    kt_case k = {.file = "pack",
                 .kernel = "pack_oob",
                 .args = {KT_BUF_IN(NULL, G * 4), KT_BUF_IN(idx, sizeof idx)},
                 .range = {1, {G}, {locals[i]}, {0}},
                 .check = kp_check_oob,
                 .user = &c,
                 .expect_fault = true};
    kt_run_case(&k);
  }
}

/* ---- kernels that run group by group --------------------------------------------------------- */
enum { KP_SG = 23 };

static void test_small_local(void **state) {
  (void)state;
  /* groups of 3, the last of 2 (23 = 7 * 3 + 2): work-item l of group k (n items) reads the
   * global id of its mirror n - 1 - l, i.e. 3k + n - 1 - l */
  int32_t want[KP_SG];
  for (int g = 0; g < KP_SG; g++) {
    const int k = g / 3, l = g % 3, n = k == 7 ? 2 : 3;
    want[g] = 3 * k + n - 1 - l + 1000 * k;
  }
  kt_case c = {.file = "pack",
               .kernel = "small_local",
               .args = {KT_BUF_IN(NULL, sizeof want), KT_LOCAL_BYTES(3 * 4)},
               .range = {1, {KP_SG}, {3}, {0}},
               .check = kt_check_i32_n,
               .user = NULL};
  int32_t exp[1 + KP_SG];
  exp[0] = KP_SG;
  memcpy(exp + 1, want, sizeof want);
  c.user = exp;
  kt_run_case(&c);
}

static void kp_check_sg(const kt_run *r, void *u) { kt_expect_buf(r, 0, u, KT_U32, KP_SG); }

static void test_small_subgroup(void **state) {
  (void)state;
  /* groups of 5, the last of 3: one sub-group each (S = 32), its sum of global ids */
  uint32_t want[KP_SG];
  for (uint32_t g = 0; g < KP_SG; g++) {
    const uint32_t first = g / 5 * 5, last = first + 5 < KP_SG ? first + 5 : KP_SG;
    want[g] = 0;
    for (uint32_t i = first; i < last; i++) want[g] += i;
  }
  kt_case c = {.file = "pack_sg",
               .kernel = "small_subgroup",
               .args = {KT_BUF_IN(NULL, sizeof want)},
               .range = {1, {KP_SG}, {5}, {0}},
               .check = kp_check_sg,
               .user = want};
  kt_run_case(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    KT_TEST(test_pack_ids),   KT_TEST(test_pack_sg_ids), KT_TEST(test_pack_div_report),
    KT_TEST(test_pack_fault), KT_TEST(test_small_local), KT_TEST(test_small_subgroup),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
