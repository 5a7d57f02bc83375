/*
 * kernel_harness.h — the harness of the tests that run OpenCL C kernels (tests/kernels/NAME.cl)
 * through the public API (include/spvi.h) only: test_kernels_*.c, test_kernel_builtins_*.c,
 * test_images.c.
 *
 * A test describes one launch as a kt_case (kernel file, kernel name, arguments, NDRange, a check
 * callback) and calls kt_run_case(). The harness then, for every variant of the kernel file that
 * tests/kernels/build.sh produced ($BUILD/kernels/NAME.O0.spv, NAME.O2.spv, NAME.O0.spir32.spv):
 *   - loads the module and finds the kernel,
 *   - for each warp width in KT_WARPS: sets the arguments and the NDRange, runs, and calls the
 *     check callback (which compares against the test's own C reference),
 *   - requires every buffer to be byte-identical across warp widths (not for fault tests).
 * A variant the translator rejected (NAME.<variant>.skip exists) is skipped with its reason; a
 * missing variant without a .skip file is a failure (build.sh was not run, or is broken).
 *
 * Run from the repository root after `BUILD=<dir> sh tests/kernels/build.sh`; $BUILD (default
 * "build") locates the .spv files. See spec-notes/testing.md.
 */
#ifndef KERNEL_HARNESS_H
#define KERNEL_HARNESS_H

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
extern const unsigned KT_WARPS[3];

/* KT_NULL: a null pointer for a buffer parameter (spvi_set_arg_mem with NULL). */
typedef enum kt_kind { KT_END = 0, KT_BUF, KT_VAL, KT_LOCAL, KT_IMG, KT_SMP, KT_NULL } kt_kind;

/* KT_IMG: `data` points to one of these; KT_SMP: `data` points to an spvi_sampler. */
typedef struct kt_image {
  spvi_image_desc desc;
  const void *pixels; /* NULL: zero-filled */
} kt_image;

typedef struct kt_arg {
  kt_kind kind;
  const void *data; /* BUF: initial contents (NULL: zero-filled); VAL: the value's bytes;
                         IMG: a kt_image; SMP: an spvi_sampler */
  size_t bytes;     /* BUF, VAL: size in bytes; LOCAL: bytes per work-group; IMG: pixel bytes */
} kt_arg;

#define KT_BUF_IN(ptr, n) \
  { KT_BUF, (ptr), (n) }
#define KT_VALUE(ptr) \
  { KT_VAL, (ptr), sizeof *(ptr) }
#define KT_LOCAL_BYTES(n) \
  { KT_LOCAL, NULL, (n) }
#define KT_IMAGE(img, n) \
  { KT_IMG, (img), (n) }
#define KT_SAMPLER(smp) \
  { KT_SMP, (smp), 0 }
#define KT_NULL_PTR \
  { KT_NULL, NULL, 0 }

typedef struct kt_range {
  unsigned dims;
  size_t global[3];
  size_t local[3];  /* all zero: pass NULL (spvi picks) */
  size_t offset[3]; /* all zero: pass NULL */
} kt_range;

/* One run, as the check callback sees it. */
typedef struct kt_run {
  const char *file, *kernel, *variant;
  unsigned warp;
  const char *ctx; /* "int_arith.O2 arith_char, warp width 7" for messages */
  spvi_status status;
  const spvi_fault *fault;
  const spvi_error *err;
  const spvi_launch *launch;
  size_t local[3];              /* spvi_launch_local_size() */
  const void *buf[KT_MAX_ARGS]; /* spvi_arg_buffer() of each buffer argument, else NULL */
  size_t bytes[KT_MAX_ARGS];
} kt_run;

typedef void (*kt_check_fn)(const kt_run *r, void *user);

typedef struct kt_case {
  const char *file; /* tests/kernels/<file>.cl */
  const char *kernel;
  kt_arg args[KT_MAX_ARGS]; /* in parameter order; ends at the first KT_END */
  kt_range range;
  kt_check_fn check;
  void *user;
  bool expect_fault;   /* the run may fault: `check` looks at status and fault, and
                                   buffers are not compared across warp widths */
  bool expect_reports; /* the run may produce check reports (spvi_report_get); otherwise
                                   any report fails the test */
  unsigned checks;     /* spvi_run_options.checks */
  uint64_t max_steps;  /* spvi_run_options.max_steps (0: the default) */
  bool keep_going;     /* spvi_run_options.keep_going */
} kt_case;

/* Runs the case on every variant, as described above. */
void kt_run_case(const kt_case *c);

/* ---- state freed by the teardown even when a check fails ------------------------------------ */
/* The module and launch in use: kt_run_case keeps its own here, and so does a test that loads a
 * kernel by hand; kt_release() (and the teardown) frees them. */
typedef struct kt_held {
  spvi_module *m;
  spvi_launch *l;
} kt_held;
extern kt_held kt_g;

void kt_release(void);
/* The teardown of every test that uses the harness: frees kt_g and the kt_alloc() blocks. */
int kt_teardown(void **state);
/* malloc that the teardown frees, so a failing check does not leak it */
void *kt_alloc(size_t bytes);

#define KT_TEST(f) cmocka_unit_test_teardown(f, kt_teardown)

/* ---- failure reporting ------------------------------------------------------------------------ */
#define kt_fail(r, ...)            \
  do {                             \
    print_error("%s: ", (r)->ctx); \
    print_error(__VA_ARGS__);      \
    print_error("\n");             \
    fail();                        \
  } while (0)
#define kt_require(r, cond, ...)          \
  do {                                    \
    if (!(cond)) kt_fail(r, __VA_ARGS__); \
  } while (0)

/* ---- deterministic inputs --------------------------------------------------------------------- */
void kt_seed(uint64_t s);
uint64_t kt_rand(void);                        /* splitmix64 */
int64_t kt_rand_range(int64_t lo, int64_t hi); /* uniform in [lo, hi] */

/* Interesting bit patterns of a `bits`-wide integer: 0, 1, 2, 3, -1, -2, MAX, MIN, MAX-1, MIN+1,
 * 0x55.., 0xAA.., 100, -100, then random values. Returned truncated to `bits` (zero-extended). */
uint64_t kt_int_pattern(unsigned bits, size_t i);

#define KT_NI 24 /* elements per integer test */

/* Fill a[] and b[] (KT_NI elements of `bytes` bytes) with patterns, b in a different order. */
void kt_int_inputs(void *a, void *b, unsigned bytes, uint64_t seed);

#define KT_NF 24 /* elements per float test */

/* Special floats: zeros, infinities, NaN, extremes, ordinary values. */
extern const float kt_fspecial[KT_NF];
/* Pairs for the comparisons: equal, ordered both ways, NaN on each side and both, signed zeros
 * (equal), infinities. */
extern const float kt_cmp_a[KT_NF], kt_cmp_b[KT_NF];
/* a normal float with a random sign and an exponent in [emin, emax] */
float kt_rand_float(int emin, int emax);

static inline uint32_t kt_f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static inline float kt_u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static inline uint64_t kt_d2u(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

/* ---- comparisons ------------------------------------------------------------------------------ */
typedef enum kt_type { KT_I8, KT_U8, KT_I16, KT_U16, KT_I32, KT_U32, KT_I64, KT_U64, KT_F32, KT_F64 } kt_type;

size_t kt_type_size(kt_type t);

/* Compares `count` elements of buffer argument `arg` with `expected`. Elements whose index modulo
 * `period` is >= `used` are not compared (period 0: compare all), e.g. period 4, used 3 for the
 * padding lane of 3-component vectors. Integers must be bit-exact, floats too except that any NaN
 * equals any NaN (SPIR-V does not define NaN payloads or signs). Reports up to 8 mismatches, then
 * fails. */
void kt_expect_lanes(const kt_run *r, int arg, const void *expected, kt_type t, size_t count, size_t period,
                     size_t used);
void kt_expect_buf(const kt_run *r, int arg, const void *expected, kt_type t, size_t count);

/* The common case: argument 0 holds int32 results; u points at {count, values...}. */
void kt_check_i32_n(const kt_run *r, void *u);

/* Checks a fault report: kind, kernel name, the faulting work-item's global id (when `gid` is
 * not NULL), the parameter the memory belongs to and the byte offset (for memory faults), and
 * that the message is not empty. */
void kt_expect_fault(const kt_run *r, spvi_fault_kind kind, const size_t *gid, bool check_mem, int arg_index,
                     int64_t offset);

/* ---- files ------------------------------------------------------------------------------------ */
bool kt_exists(const char *path);
/* First line of a small text file (the .skip reason), without the newline. */
void kt_first_line(const char *path, char *out, size_t n);

#endif
