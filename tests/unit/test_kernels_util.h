/*
 * test_kernels_util.h — the harness behind tests/unit/test_kernels.c.
 *
 * A test describes one launch as a kt_case (kernel file, kernel name, arguments, NDRange, a check
 * callback) and calls kt_run_case(). The harness then, for every variant of the kernel file that
 * tests/kernels/build.sh produced ($BUILD/kernels/NAME.O0.spv, NAME.O2.spv, NAME.O0.spir32.spv):
 *   - loads the module and finds the kernel (through include/spvi.h only),
 *   - for each warp width in KT_WARPS: sets the arguments and the NDRange, runs, and calls the
 *     check callback (which compares against the test's own C reference),
 *   - requires every buffer to be byte-identical across warp widths (not for fault tests).
 * A variant the translator rejected (NAME.<variant>.skip exists) is skipped with its reason; a
 * missing variant without a .skip file is a failure (build.sh was not run, or is broken).
 */
#ifndef TEST_KERNELS_UTIL_H
#define TEST_KERNELS_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spvi.h"

#define KT_MAX_ARGS 16
#define KT_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Warp widths every launch runs at: 1, the default (0 = 32), and 7, which never divides the local
 * sizes used here, so the last warp of a group is partial. */
static const unsigned KT_WARPS[] = {1, 0, 7};

typedef enum kt_kind { KT_END = 0, KT_BUF, KT_VAL, KT_LOCAL, KT_IMG, KT_SMP } kt_kind;

/* KT_IMG: `data` points to one of these; KT_SMP: `data` points to an spvi_sampler. */
typedef struct kt_image {
  spvi_image_desc desc;
  const void *pixels;  /* NULL: zero-filled */
} kt_image;

typedef struct kt_arg {
  kt_kind kind;
  const void *data;   /* BUF: initial contents (NULL: zero-filled); VAL: the value's bytes;
                         IMG: a kt_image; SMP: an spvi_sampler */
  size_t bytes;       /* BUF, VAL: size in bytes; LOCAL: bytes per work-group; IMG: pixel bytes */
} kt_arg;

#define KT_BUF_IN(ptr, n) {KT_BUF, (ptr), (n)}
#define KT_VALUE(ptr) {KT_VAL, (ptr), sizeof *(ptr)}
#define KT_LOCAL_BYTES(n) {KT_LOCAL, NULL, (n)}
#define KT_IMAGE(img, n) {KT_IMG, (img), (n)}
#define KT_SAMPLER(smp) {KT_SMP, (smp), 0}

typedef struct kt_range {
  unsigned dims;
  size_t global[3];
  size_t local[3];    /* all zero: pass NULL (spvi picks) */
  size_t offset[3];   /* all zero: pass NULL */
} kt_range;

/* One run, as the check callback sees it. */
typedef struct kt_run {
  const char *file, *kernel, *variant;
  unsigned warp;
  const char *ctx;               /* "int_arith.O2 arith_char, warp width 7" for messages */
  spvi_status status;
  const spvi_fault *fault;
  const spvi_error *err;
  const spvi_launch *launch;
  size_t local[3];               /* spvi_launch_local_size() */
  const void *buf[KT_MAX_ARGS];  /* spvi_arg_buffer() of each buffer argument, else NULL */
  size_t bytes[KT_MAX_ARGS];
} kt_run;

typedef void (*kt_check_fn)(const kt_run *r, void *user);

typedef struct kt_case {
  const char *file;             /* tests/kernels/<file>.cl */
  const char *kernel;
  kt_arg args[KT_MAX_ARGS];     /* in parameter order; ends at the first KT_END */
  kt_range range;
  kt_check_fn check;
  void *user;
  bool expect_fault;            /* the run may fault: `check` looks at status and fault, and
                                   buffers are not compared across warp widths */
  bool expect_reports;          /* the run may produce check reports (spvi_report_get); otherwise
                                   any report fails the test */
  unsigned checks;              /* spvi_run_options.checks */
  uint64_t max_steps;           /* spvi_run_options.max_steps (0: the default) */
} kt_case;

/* ---- state freed by the teardown even when a check fails ------------------------------------ */
static struct {
  spvi_module *m;
  spvi_launch *l;
  void *saved[KT_MAX_ARGS];
  size_t saved_bytes[KT_MAX_ARGS];
  char ctx[512];
  int variants_run;
  void *owned[8];   /* test allocations, freed by the teardown (see kt_alloc) */
} kt_g;

static void kt_release(void) {
  if (kt_g.l) spvi_launch_free(kt_g.l);
  kt_g.l = NULL;
  if (kt_g.m) spvi_module_free(kt_g.m);
  kt_g.m = NULL;
  for (int i = 0; i < KT_MAX_ARGS; ++i) {
    free(kt_g.saved[i]);
    kt_g.saved[i] = NULL;
    kt_g.saved_bytes[i] = 0;
  }
}

static int kt_teardown(void **state) {
  (void)state;
  kt_release();
  for (size_t i = 0; i < sizeof kt_g.owned / sizeof kt_g.owned[0]; ++i) {
    free(kt_g.owned[i]);
    kt_g.owned[i] = NULL;
  }
  return 0;
}

/* malloc that the teardown frees, so a failing check does not leak it */
static void *kt_alloc(size_t bytes) {
  for (size_t i = 0; i < sizeof kt_g.owned / sizeof kt_g.owned[0]; ++i)
    if (!kt_g.owned[i]) {
      kt_g.owned[i] = malloc(bytes ? bytes : 1);
      assert_non_null(kt_g.owned[i]);
      return kt_g.owned[i];
    }
  fail_msg("kt_alloc: too many allocations in one test");
  return NULL;
}

#define KT_TEST(f) cmocka_unit_test_teardown(f, kt_teardown)

/* ---- failure reporting ------------------------------------------------------------------------ */
#define kt_fail(r, ...) do { print_error("%s: ", (r)->ctx); print_error(__VA_ARGS__); print_error("\n"); fail(); } while (0)
#define kt_require(r, cond, ...) do { if (!(cond)) kt_fail(r, __VA_ARGS__); } while (0)

/* ---- deterministic inputs --------------------------------------------------------------------- */
static uint64_t kt_rng_state = 0x9E3779B97F4A7C15ull;
static void kt_seed(uint64_t s) { kt_rng_state = s ^ 0x9E3779B97F4A7C15ull; }
static uint64_t kt_rand(void) {  /* splitmix64 */
  uint64_t z = (kt_rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
/* uniform in [lo, hi] */
static int64_t kt_rand_range(int64_t lo, int64_t hi) {
  return lo + (int64_t)(kt_rand() % (uint64_t)(hi - lo + 1));
}

/* Interesting bit patterns of a `bits`-wide integer: 0, 1, 2, 3, -1, -2, MAX, MIN, MAX-1, MIN+1,
 * 0x55.., 0xAA.., 100, -100, then random values. Returned truncated to `bits` (zero-extended). */
static uint64_t kt_int_pattern(unsigned bits, size_t i) {
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
  default: v = kt_rand(); if (i % 3 == 0) v >>= (kt_rand() % (bits - 1)); break;
  }
  return v & mask;
}

#define KT_NI 24   /* elements per integer test */

/* Fill a[] and b[] (elements of `bytes` bytes) with patterns, b in a different order. */
static void kt_int_inputs(void *a, void *b, unsigned bytes, uint64_t seed) {
  kt_seed(seed);
  for (size_t i = 0; i < KT_NI; ++i) {
    uint64_t x = kt_int_pattern(bytes * 8, i);
    uint64_t y = kt_int_pattern(bytes * 8, (i * 7 + 3) % KT_NI);
    if (i >= 20) y = x;  /* a few equal pairs */
    memcpy((char *)a + i * bytes, &x, bytes);  /* little-endian host: the low bytes */
    memcpy((char *)b + i * bytes, &y, bytes);
  }
}

static uint32_t kt_f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float kt_u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint64_t kt_d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* ---- comparisons ------------------------------------------------------------------------------ */
typedef enum kt_type { KT_I8, KT_U8, KT_I16, KT_U16, KT_I32, KT_U32, KT_I64, KT_U64, KT_F32, KT_F64 } kt_type;

static size_t kt_type_size(kt_type t) {
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
  case KT_I8: { int8_t v; memcpy(&v, p, 1); snprintf(out, n, "%d", v); break; }
  case KT_U8: { uint8_t v; memcpy(&v, p, 1); snprintf(out, n, "%u (0x%02x)", v, v); break; }
  case KT_I16: { int16_t v; memcpy(&v, p, 2); snprintf(out, n, "%d", v); break; }
  case KT_U16: { uint16_t v; memcpy(&v, p, 2); snprintf(out, n, "%u (0x%04x)", v, v); break; }
  case KT_I32: { int32_t v; memcpy(&v, p, 4); snprintf(out, n, "%" PRId32 " (0x%08" PRIx32 ")", v, (uint32_t)v); break; }
  case KT_U32: { uint32_t v; memcpy(&v, p, 4); snprintf(out, n, "%" PRIu32 " (0x%08" PRIx32 ")", v, v); break; }
  case KT_I64: { int64_t v; memcpy(&v, p, 8); snprintf(out, n, "%" PRId64 " (0x%016" PRIx64 ")", v, (uint64_t)v); break; }
  case KT_U64: { uint64_t v; memcpy(&v, p, 8); snprintf(out, n, "%" PRIu64 " (0x%016" PRIx64 ")", v, v); break; }
  case KT_F32: { float v; memcpy(&v, p, 4); snprintf(out, n, "%.9g (%a, 0x%08" PRIx32 ")", (double)v, (double)v, kt_f2u(v)); break; }
  case KT_F64: { double v; memcpy(&v, p, 8); snprintf(out, n, "%.17g (%a)", v, v); break; }
  }
}

/* Compares `count` elements of buffer argument `arg` with `expected`. Elements whose index modulo
 * `period` is >= `used` are not compared (period 0: compare all), e.g. period 4, used 3 for the
 * padding lane of 3-component vectors. Reports up to 8 mismatches, then fails. */
static void kt_expect_lanes(const kt_run *r, int arg, const void *expected, kt_type t, size_t count,
                            size_t period, size_t used) {
  size_t es = kt_type_size(t);
  kt_require(r, r->buf[arg] != NULL, "argument %d is not a buffer", arg);
  kt_require(r, r->bytes[arg] >= count * es, "argument %d holds %zu bytes, expected at least %zu", arg,
             r->bytes[arg], count * es);
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

static void kt_expect_buf(const kt_run *r, int arg, const void *expected, kt_type t, size_t count) {
  kt_expect_lanes(r, arg, expected, t, count, 0, 0);
}

/* The common case: argument 0 holds int32 results; u points at {count, values...}. */
static void kt_check_i32_n(const kt_run *r, void *u) {
  const int32_t *w = u;
  kt_expect_buf(r, 0, w + 1, KT_I32, (size_t)w[0]);
}


/* ---- files ------------------------------------------------------------------------------------ */
static bool kt_exists(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  fclose(f);
  return true;
}

/* First line of a small text file (the .skip reason), without the newline. */
static void kt_first_line(const char *path, char *out, size_t n) {
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

static const char *kt_build_dir(void) {
  const char *b = getenv("BUILD");
  return b && *b ? b : "build";
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
  unsigned want_bits = strstr(variant, "spir32") ? 32 : 64;   /* -target spir vs spir64 */
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
    snprintf(kt_g.ctx, sizeof kt_g.ctx, "%s.%s %s, warp width %u", c->file, variant, c->kernel, KT_WARPS[w]);
    r.file = c->file;
    r.kernel = c->kernel;
    r.variant = variant;
    r.warp = KT_WARPS[w];
    r.ctx = kt_g.ctx;

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
      kt_fail(&r, "unexpected report (%zu in all):\n%s", spvi_report_count(kt_g.l), spvi_report_get(kt_g.l, 0)->message);
    for (int i = 0; i < nargs; ++i) {
      if (c->args[i].kind != KT_BUF && c->args[i].kind != KT_IMG) continue;
      r.buf[i] = c->args[i].kind == KT_IMG ? spvi_arg_image(kt_g.l, i, NULL, &r.bytes[i])
                                           : spvi_arg_buffer(kt_g.l, i, &r.bytes[i]);
      kt_require(&r, r.buf[i] != NULL, "spvi_arg_buffer(%d) returned NULL", i);
      kt_require(&r, r.bytes[i] == c->args[i].bytes, "spvi_arg_buffer(%d) size %zu, set %zu", i,
                 r.bytes[i], c->args[i].bytes);
    }
    if (c->check) c->check(&r, c->user);

    if (!c->expect_fault) {
      /* every warp width must produce the same bytes in every buffer */
      for (int i = 0; i < nargs; ++i) {
        if (!r.buf[i]) continue;
        if (w == 0) {
          kt_g.saved[i] = malloc(r.bytes[i] ? r.bytes[i] : 1);
          assert_non_null(kt_g.saved[i]);
          memcpy(kt_g.saved[i], r.buf[i], r.bytes[i]);
          kt_g.saved_bytes[i] = r.bytes[i];
          continue;
        }
        const unsigned char *a = kt_g.saved[i], *b = r.buf[i];
        for (size_t j = 0; j < r.bytes[i]; ++j)
          if (a[j] != b[j])
            kt_fail(&r, "argument %d byte %zu differs from warp width %u: 0x%02x vs 0x%02x", i, j,
                    KT_WARPS[0], b[j], a[j]);
      }
    }
    spvi_launch_free(kt_g.l);
    kt_g.l = NULL;
  }
  kt_release();
}

static void kt_run_case(const kt_case *c) {
  static const char *const variants[] = {"O0", "O2", "O0.spir32"};
  const char *build = kt_build_dir();
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
             "from the repository root first", path, skip, build);
  }
  kt_g.variants_run += ran;
  if (ran == 0) {
    print_message("[  SKIP    ] %s: no variant could be built (%d skipped)\n", c->kernel, skipped);
    skip();
  }
}

/* Checks a fault report: kind, kernel name, the faulting work-item's global id (when `gid` is
 * not NULL), the parameter the memory belongs to and the byte offset (for memory faults), and
 * that the message is not empty. */
static void kt_expect_fault(const kt_run *r, spvi_fault_kind kind, const size_t *gid, bool check_mem,
                            int arg_index, int64_t offset) {
  if (r->status != SPVI_FAULT)
    kt_fail(r, "spvi_run returned status %d (%s), expected SPVI_FAULT (%s)", (int)r->status,
            r->status == SPVI_OK ? "ok" : r->err->message, spvi_fault_kind_name(kind));
  const spvi_fault *f = r->fault;
  kt_require(r, f->kind == kind, "fault kind %d (%s), expected %d (%s); report:\n%s", (int)f->kind,
             spvi_fault_kind_name(f->kind), (int)kind, spvi_fault_kind_name(kind), f->message);
  kt_require(r, strcmp(f->kernel, r->kernel) == 0, "fault.kernel is `%s`, expected `%s`", f->kernel, r->kernel);
  if (gid)
    kt_require(r, f->global_id[0] == gid[0] && f->global_id[1] == gid[1] && f->global_id[2] == gid[2],
               "fault.global_id (%zu,%zu,%zu), expected (%zu,%zu,%zu); report:\n%s", f->global_id[0],
               f->global_id[1], f->global_id[2], gid[0], gid[1], gid[2], f->message);
  if (check_mem) {
    kt_require(r, f->arg_index == arg_index, "fault.arg_index %d, expected %d; report:\n%s", f->arg_index,
               arg_index, f->message);
    kt_require(r, f->offset == offset, "fault.offset %" PRId64 ", expected %" PRId64 "; report:\n%s",
               f->offset, offset, f->message);
  }
  kt_require(r, f->message[0] != '\0', "fault.message is empty");
}

#endif
