/*
 * kernel_harness.c — the kernel test harness: see kernel_harness.h.
 */
#include "kernel_harness.h"
#include "load.h"

#include <float.h>

const unsigned KT_WARPS[3] = {1, 0, 7};

kt_held kt_g;

/* What the teardown frees besides kt_g: the buffers of the first warp width (compared with the
 * others), the message context, the test's kt_alloc() blocks. */
static struct {
  void *saved[KT_MAX_ARGS];
  size_t saved_bytes[KT_MAX_ARGS];
  char ctx[512];
  void *owned[8];
} kt_state;

void kt_release(void) {
  if (kt_g.l) spvi_launch_free(kt_g.l);
  kt_g.l = NULL;
  if (kt_g.m) spvi_module_free(kt_g.m);
  kt_g.m = NULL;
  for (int i = 0; i < KT_MAX_ARGS; ++i) {
    free(kt_state.saved[i]);
    kt_state.saved[i] = NULL;
    kt_state.saved_bytes[i] = 0;
  }
}

int kt_teardown(void **state) {
  (void)state;
  kt_release();
  for (size_t i = 0; i < KT_COUNT(kt_state.owned); ++i) {
    free(kt_state.owned[i]);
    kt_state.owned[i] = NULL;
  }
  return 0;
}

void *kt_alloc(size_t bytes) {
  for (size_t i = 0; i < KT_COUNT(kt_state.owned); ++i)
    if (!kt_state.owned[i]) {
      kt_state.owned[i] = malloc(bytes ? bytes : 1);
      assert_non_null(kt_state.owned[i]);
      return kt_state.owned[i];
    }
  fail_msg("kt_alloc: too many allocations in one test");
  return NULL;
}

/* ---- deterministic inputs --------------------------------------------------------------------- */
static uint64_t kt_rng_state = 0x9E3779B97F4A7C15ull;
void kt_seed(uint64_t s) { kt_rng_state = s ^ 0x9E3779B97F4A7C15ull; }
uint64_t kt_rand(void) {
  uint64_t z = (kt_rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
int64_t kt_rand_range(int64_t lo, int64_t hi) { return lo + (int64_t)(kt_rand() % (uint64_t)(hi - lo + 1)); }

uint64_t kt_int_pattern(unsigned bits, size_t i) {
  uint64_t mask = bits == 64 ? ~0ull : ((1ull << bits) - 1);
  uint64_t smin = 1ull << (bits - 1), smax = smin - 1;
  uint64_t v;
  switch (i) {
  case 0: v = 0; break;
  case 1: v = 1; break;
  case 2: v = 2; break;
  case 3: v = 3; break;
  case 4: v = ~0ull; break;
  case 5: v = ~1ull; break;
  case 6: v = smax; break;
  case 7: v = smin; break;
  case 8: v = smax - 1; break;
  case 9: v = smin + 1; break;
  case 10: v = 0x5555555555555555ull; break;
  case 11: v = 0xAAAAAAAAAAAAAAAAull; break;
  case 12: v = 100; break;
  case 13: v = (uint64_t)-100; break;
  default:
    v = kt_rand();
    if (i % 3 == 0) v >>= (kt_rand() % (bits - 1));
    break;
  }
  return v & mask;
}

void kt_int_inputs(void *a, void *b, unsigned bytes, uint64_t seed) {
  kt_seed(seed);
  for (size_t i = 0; i < KT_NI; ++i) {
    uint64_t x = kt_int_pattern(bytes * 8, i);
    uint64_t y = kt_int_pattern(bytes * 8, (i * 7 + 3) % KT_NI);
    if (i >= 20) y = x;                       /* a few equal pairs */
    memcpy((char *)a + i * bytes, &x, bytes); /* little-endian host: the low bytes */
    memcpy((char *)b + i * bytes, &y, bytes);
  }
}

const float kt_fspecial[KT_NF] = {0.0f,   -0.0f,    1.0f,        -1.0f, 0.1f,        3.0f,        1e30f,   -1e30f,
                                  1e-30f, INFINITY, -INFINITY,   NAN,   0.33333334f, 16777216.0f, 3.4e38f, FLT_MIN,
                                  2.5f,   -7.75f,   123456.789f, 0.5f,  65504.0f,    -3.0e-5f,    1e10f,   7.0f};

float kt_rand_float(int emin, int emax) {
  uint32_t mant = (uint32_t)kt_rand() & 0x7FFFFF;
  uint32_t e = (uint32_t)kt_rand_range(emin, emax) + 127;
  uint32_t s = (uint32_t)(kt_rand() & 1) << 31;
  return kt_u2f(s | e << 23 | mant);
}

const float kt_cmp_a[KT_NF] = {1.0f,     1.0f,      2.0f,     NAN,     1.0f,     NAN,   0.0f,   -0.0f,
                               INFINITY, -INFINITY, INFINITY, -1.0f,   3.5f,     -3.5f, 1e-30f, NAN,
                               7.0f,     -INFINITY, 0.5f,     FLT_MAX, -FLT_MAX, 2.0f,  100.0f, -0.0f};
const float kt_cmp_b[KT_NF] = {1.0f,     2.0f,      1.0f,  1.0f,     NAN,       NAN,        -0.0f,     0.0f,
                               INFINITY, INFINITY,  NAN,   -1.0f,    -3.5f,     3.5f,       0.0f,      -INFINITY,
                               7.0f,     -INFINITY, 0.25f, INFINITY, -INFINITY, 2.0000002f, 99.99999f, -1e-30f};

/* ---- comparisons ------------------------------------------------------------------------------ */
size_t kt_type_size(kt_type t) {
  static const size_t s[] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};
  return s[t];
}

/* Equal for the purpose of a test: integers bit-exact; floats bit-exact, except that any NaN
 * equals any NaN (SPIR-V does not define NaN payloads or signs). */
static bool kt_elem_equal(kt_type t, const void *a, const void *b) {
  if (t == KT_F32) {
    float x, y;
    memcpy(&x, a, 4);
    memcpy(&y, b, 4);
    if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
  } else if (t == KT_F64) {
    double x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
  }
  return memcmp(a, b, kt_type_size(t)) == 0;
}

static void kt_elem_format(kt_type t, const void *p, char *out, size_t n) {
  switch (t) {
  case KT_I8: {
    int8_t v;
    memcpy(&v, p, 1);
    snprintf(out, n, "%d", v);
    break;
  }
  case KT_U8: {
    uint8_t v;
    memcpy(&v, p, 1);
    snprintf(out, n, "%u (0x%02x)", v, v);
    break;
  }
  case KT_I16: {
    int16_t v;
    memcpy(&v, p, 2);
    snprintf(out, n, "%d", v);
    break;
  }
  case KT_U16: {
    uint16_t v;
    memcpy(&v, p, 2);
    snprintf(out, n, "%u (0x%04x)", v, v);
    break;
  }
  case KT_I32: {
    int32_t v;
    memcpy(&v, p, 4);
    snprintf(out, n, "%" PRId32 " (0x%08" PRIx32 ")", v, (uint32_t)v);
    break;
  }
  case KT_U32: {
    uint32_t v;
    memcpy(&v, p, 4);
    snprintf(out, n, "%" PRIu32 " (0x%08" PRIx32 ")", v, v);
    break;
  }
  case KT_I64: {
    int64_t v;
    memcpy(&v, p, 8);
    snprintf(out, n, "%" PRId64 " (0x%016" PRIx64 ")", v, (uint64_t)v);
    break;
  }
  case KT_U64: {
    uint64_t v;
    memcpy(&v, p, 8);
    snprintf(out, n, "%" PRIu64 " (0x%016" PRIx64 ")", v, v);
    break;
  }
  case KT_F32: {
    float v;
    memcpy(&v, p, 4);
    snprintf(out, n, "%.9g (%a, 0x%08" PRIx32 ")", (double)v, (double)v, kt_f2u(v));
    break;
  }
  case KT_F64: {
    double v;
    memcpy(&v, p, 8);
    snprintf(out, n, "%.17g (%a)", v, v);
    break;
  }
  }
}

/* Compares `count` elements of buffer argument `arg` with `expected`. Elements whose index modulo
 * `period` is >= `used` are not compared (period 0: compare all), e.g. period 4, used 3 for the
 * padding lane of 3-component vectors. Reports up to 8 mismatches, then fails. */
void kt_expect_lanes(const kt_run *r, int arg, const void *expected, kt_type t, size_t count, size_t period,
                     size_t used) {
  size_t es = kt_type_size(t);
  kt_require(r, r->buf[arg] != NULL, "argument %d is not a buffer", arg);
  kt_require(r, r->bytes[arg] >= count * es, "argument %d holds %zu bytes, expected at least %zu", arg, r->bytes[arg],
             count * es);
  const unsigned char *got = r->buf[arg], *want = expected;
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < count; ++i) {
    if (period && i % period >= used) continue;
    if (kt_elem_equal(t, got + i * es, want + i * es)) continue;
    if (bad == 0) first = i;
    if (bad < 8) {
      char g[96], w[96];
      kt_elem_format(t, got + i * es, g, sizeof g);
      kt_elem_format(t, want + i * es, w, sizeof w);
      print_error("%s: argument %d element %zu: got %s, expected %s\n", r->ctx, arg, i, g, w);
    }
    ++bad;
  }
  if (bad) kt_fail(r, "argument %d: %zu of %zu elements differ (first at %zu)", arg, bad, count, first);
}

void kt_expect_buf(const kt_run *r, int arg, const void *expected, kt_type t, size_t count) {
  kt_expect_lanes(r, arg, expected, t, count, 0, 0);
}

void kt_check_i32_n(const kt_run *r, void *u) {
  const int32_t *w = u;
  kt_expect_buf(r, 0, w + 1, KT_I32, (size_t)w[0]);
}

/* ---- files ------------------------------------------------------------------------------------ */
bool kt_exists(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  fclose(f);
  return true;
}

void kt_first_line(const char *path, char *out, size_t n) {
  out[0] = '\0';
  FILE *f = fopen(path, "r");
  if (!f) return;
  if (fgets(out, (int)n, f)) out[strcspn(out, "\r\n")] = '\0';
  fclose(f);
}

/* Does tests/kernels/<file>.cl carry the `// also: spir32` marker in its leading comments? */
static bool kt_marked_spir32(const char *file) {
  char path[512], line[512];
  snprintf(path, sizeof path, "tests/kernels/%s.cl", file);
  FILE *f = fopen(path, "r");
  if (!f) fail_msg("%s: cannot open (run the tests from the repository root)", path);
  bool marked = false;
  while (fgets(line, sizeof line, f)) {
    const char *p = line + strspn(line, " \t");
    if (strncmp(p, "//", 2) != 0) break;
    if (strstr(p, "also:") && strstr(p, "spir32")) marked = true;
  }
  fclose(f);
  return marked;
}

/* ---- running ---------------------------------------------------------------------------------- */
static void kt_set_args(const kt_case *c, const kt_run *r, int nargs) {
  spvi_error err;
  for (int i = 0; i < nargs; ++i) {
    const kt_arg *a = &c->args[i];
    spvi_status s = SPVI_E_USAGE;
    memset(&err, 0, sizeof err);
    switch (a->kind) {
    case KT_BUF: s = spvi_set_arg_buffer(kt_g.l, i, a->data, a->bytes, &err); break;
    case KT_VAL: s = spvi_set_arg_value(kt_g.l, i, a->data, a->bytes, &err); break;
    case KT_LOCAL: s = spvi_set_arg_local(kt_g.l, i, a->bytes, &err); break;
    case KT_IMG: {
      const kt_image *im = a->data;
      s = spvi_set_arg_image(kt_g.l, i, &im->desc, im->pixels, a->bytes, &err);
      break;
    }
    case KT_SMP: s = spvi_set_arg_sampler(kt_g.l, i, a->data, &err); break;
    case KT_NULL: s = spvi_set_arg_mem(kt_g.l, i, NULL, &err); break;
    case KT_END: break;
    }
    kt_require(r, s == SPVI_OK, "setting argument %d failed (status %d): %s", i, (int)s, err.message);
  }
}

static int kt_nargs(const kt_case *c) {
  int n = 0;
  while (n < KT_MAX_ARGS && c->args[n].kind != KT_END) ++n;
  return n;
}

/* Runs one variant (a .spv file) at every warp width. */
static void kt_run_variant(const kt_case *c, const char *variant, const char *path) {
  spvi_error err;
  memset(&err, 0, sizeof err);
  spvi_load_options lo;
  memset(&lo, 0, sizeof lo);
  kt_g.m = spvi_load_file(path, &lo, &err);
  if (!kt_g.m) fail_msg("%s: spvi_load_file failed (status %d): %s", path, (int)err.status, err.message);
  unsigned want_bits = strstr(variant, "spir32") ? 32 : 64; /* -target spir vs spir64 */
  if (spvi_module_pointer_bits(kt_g.m) != want_bits)
    fail_msg("%s: spvi_module_pointer_bits() = %u, expected %u", path, spvi_module_pointer_bits(kt_g.m), want_bits);
  int k = spvi_find_kernel(kt_g.m, c->kernel);
  if (k < 0) fail_msg("%s: kernel `%s` not found", path, c->kernel);
  int nargs = kt_nargs(c);
  if (spvi_kernel_param_count(kt_g.m, k) != nargs)
    fail_msg("%s: kernel `%s` has %d parameters, the test passes %d", path, c->kernel,
             spvi_kernel_param_count(kt_g.m, k), nargs);

  for (size_t w = 0; w < KT_COUNT(KT_WARPS); ++w) {
    kt_run r;
    memset(&r, 0, sizeof r);
    snprintf(kt_state.ctx, sizeof kt_state.ctx, "%s.%s %s, warp width %u", c->file, variant, c->kernel, KT_WARPS[w]);
    r.file = c->file;
    r.kernel = c->kernel;
    r.variant = variant;
    r.warp = KT_WARPS[w];
    r.ctx = kt_state.ctx;

    memset(&err, 0, sizeof err);
    kt_g.l = spvi_launch_new(kt_g.m, k, &err);
    kt_require(&r, kt_g.l != NULL, "spvi_launch_new failed: %s", err.message);
    kt_set_args(c, &r, nargs);
    const kt_range *rg = &c->range;
    bool has_local = rg->local[0] || rg->local[1] || rg->local[2];
    bool has_offset = rg->offset[0] || rg->offset[1] || rg->offset[2];
    memset(&err, 0, sizeof err);
    spvi_status s = spvi_set_ndrange(kt_g.l, rg->dims, rg->global, has_local ? rg->local : NULL,
                                     has_offset ? rg->offset : NULL, &err);
    kt_require(&r, s == SPVI_OK, "spvi_set_ndrange failed (status %d): %s", (int)s, err.message);
    spvi_launch_local_size(kt_g.l, r.local);

    spvi_run_options ro;
    memset(&ro, 0, sizeof ro);
    ro.warp_width = KT_WARPS[w];
    ro.checks = c->checks;
    ro.max_steps = c->max_steps;
    ro.keep_going = c->keep_going;
    spvi_fault fault;
    memset(&fault, 0, sizeof fault);
    memset(&err, 0, sizeof err);
    r.status = spvi_run(kt_g.l, &ro, &fault, &err);
    r.fault = &fault;
    r.err = &err;
    r.launch = kt_g.l;
    if (!c->expect_fault) {
      if (r.status == SPVI_FAULT) kt_fail(&r, "spvi_run faulted:\n%s", fault.message);
      kt_require(&r, r.status == SPVI_OK, "spvi_run returned status %d: %s", (int)r.status, err.message);
    }
    if (!c->expect_reports && spvi_report_count(kt_g.l))
      kt_fail(&r, "unexpected report (%zu in all):\n%s", spvi_report_count(kt_g.l),
              spvi_report_get(kt_g.l, 0)->message);
    for (int i = 0; i < nargs; ++i) {
      if (c->args[i].kind != KT_BUF && c->args[i].kind != KT_IMG) continue;
      r.buf[i] = c->args[i].kind == KT_IMG ? spvi_arg_image(kt_g.l, i, NULL, &r.bytes[i])
                                           : spvi_arg_buffer(kt_g.l, i, &r.bytes[i]);
      kt_require(&r, r.buf[i] != NULL, "spvi_arg_buffer(%d) returned NULL", i);
      kt_require(&r, r.bytes[i] == c->args[i].bytes, "spvi_arg_buffer(%d) size %zu, set %zu", i, r.bytes[i],
                 c->args[i].bytes);
    }
    if (c->check) c->check(&r, c->user);

    if (!c->expect_fault) {
      /* every warp width must produce the same bytes in every buffer */
      for (int i = 0; i < nargs; ++i) {
        if (!r.buf[i]) continue;
        if (w == 0) {
          kt_state.saved[i] = malloc(r.bytes[i] ? r.bytes[i] : 1);
          assert_non_null(kt_state.saved[i]);
          memcpy(kt_state.saved[i], r.buf[i], r.bytes[i]);
          kt_state.saved_bytes[i] = r.bytes[i];
          continue;
        }
        const unsigned char *a = kt_state.saved[i], *b = r.buf[i];
        for (size_t j = 0; j < r.bytes[i]; ++j)
          if (a[j] != b[j])
            kt_fail(&r, "argument %d byte %zu differs from warp width %u: 0x%02x vs 0x%02x", i, j, KT_WARPS[0], b[j],
                    a[j]);
      }
    }
    spvi_launch_free(kt_g.l);
    kt_g.l = NULL;
  }
  kt_release();
}

void kt_run_case(const kt_case *c) {
  static const char *const variants[] = {"O0", "O2", "O0.spir32"};
  const char *build = tl_build_dir();
  int ran = 0, skipped = 0;
  for (size_t v = 0; v < KT_COUNT(variants); ++v) {
    char path[512], skip[512], reason[512];
    snprintf(path, sizeof path, "%s/kernels/%s.%s.spv", build, c->file, variants[v]);
    if (kt_exists(path)) {
      kt_run_variant(c, variants[v], path);
      ++ran;
      continue;
    }
    snprintf(skip, sizeof skip, "%s/kernels/%s.%s.skip", build, c->file, variants[v]);
    if (kt_exists(skip)) {
      kt_first_line(skip, reason, sizeof reason);
      print_message("[  SKIP    ] %s.%s %s: %s\n", c->file, variants[v], c->kernel, reason);
      ++skipped;
      continue;
    }
    if (strcmp(variants[v], "O0.spir32") == 0 && !kt_marked_spir32(c->file)) continue;
    fail_msg("%s is missing and there is no %s explaining why: run `BUILD=%s sh tests/kernels/build.sh` "
             "from the repository root first",
             path, skip, build);
  }
  if (ran == 0) {
    print_message("[  SKIP    ] %s: no variant could be built (%d skipped)\n", c->kernel, skipped);
    skip();
  }
}

void kt_expect_fault(const kt_run *r, spvi_fault_kind kind, const size_t *gid, bool check_mem, int arg_index,
                     int64_t offset) {
  if (r->status != SPVI_FAULT)
    kt_fail(r, "spvi_run returned status %d (%s), expected SPVI_FAULT (%s)", (int)r->status,
            r->status == SPVI_OK ? "ok" : r->err->message, spvi_fault_kind_name(kind));
  const spvi_fault *f = r->fault;
  kt_require(r, f->kind == kind, "fault kind %d (%s), expected %d (%s); report:\n%s", (int)f->kind,
             spvi_fault_kind_name(f->kind), (int)kind, spvi_fault_kind_name(kind), f->message);
  kt_require(r, strcmp(f->kernel, r->kernel) == 0, "fault.kernel is `%s`, expected `%s`", f->kernel, r->kernel);
  if (gid)
    kt_require(r, f->global_id[0] == gid[0] && f->global_id[1] == gid[1] && f->global_id[2] == gid[2],
               "fault.global_id (%zu,%zu,%zu), expected (%zu,%zu,%zu); report:\n%s", f->global_id[0], f->global_id[1],
               f->global_id[2], gid[0], gid[1], gid[2], f->message);
  if (check_mem) {
    kt_require(r, f->arg_index == arg_index, "fault.arg_index %d, expected %d; report:\n%s", f->arg_index, arg_index,
               f->message);
    kt_require(r, f->offset == offset, "fault.offset %" PRId64 ", expected %" PRId64 "; report:\n%s", f->offset, offset,
               f->message);
  }
  kt_require(r, f->message[0] != '\0', "fault.message is empty");
}
