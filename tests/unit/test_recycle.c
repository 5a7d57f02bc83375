/*
 * test_recycle.c — lane recycling (tests/kernels/recycle.cl) at -O0 and -O2, warp widths 1 (no
 * recycling), 7, 32 and 64, on 1 and 2 threads, with work-groups that are not multiples of the
 * warp width and a last, non-uniform work-group. Expected values come from the plain C models
 * below. Also: the instruction count of --stats is the same at every warp width (each work-item
 * counts its own instructions, wherever its lane was), printf output comes in work-item order, and
 * the step limit names the work-item that ran too long.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "spvi.h"
#include "load.h"

static const char *const variants[] = {"O0", "O2"};
static const unsigned warps[] = {1, 7, 32, 64};
static const unsigned threads[] = {1, 2};
#define COUNT(a) (sizeof(a) / sizeof(a)[0])


static void set_buf(spvi_launch *l, int i, const void *data, size_t bytes) {
  spvi_error err;
  if (spvi_set_arg_buffer(l, i, data, bytes, &err) != SPVI_OK) fail_msg("argument %d: %s", i, err.message);
}

static void set_range(spvi_launch *l, unsigned dims, const size_t *global, const size_t *local) {
  spvi_error err;
  if (spvi_set_ndrange(l, dims, global, local, NULL, &err) != SPVI_OK) fail_msg("%s", err.message);
}

/* Runs and returns the instruction count; fails on anything but SPVI_OK. */
static uint64_t run(spvi_launch *l, unsigned warp, unsigned nthreads, const char *what,
                    void (*on_printf)(void *, const char *, size_t), void *user) {
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.warp_width = warp;
  o.threads = nthreads;
  o.on_printf = on_printf;
  o.printf_user = user;
  spvi_error err;
  spvi_fault f;
  memset(&err, 0, sizeof err);
  memset(&f, 0, sizeof f);
  if (spvi_run(l, &o, &f, &err) != SPVI_OK)
    fail_msg("%s warp %u threads %u: %s %s", what, warp, nthreads, err.message, f.message);
  spvi_run_stats st;
  spvi_launch_stats(l, &st);
  return st.instructions;
}

/* Start values with very different Collatz step counts (1 .. 10^5, a few 1s and 2s). */
static uint32_t start_value(size_t i) {
  if (i % 29 == 3) return 1;
  if (i % 31 == 5) return 2;
  return (uint32_t)(1 + (i * 2654435761u) % 100000u);
}

static uint32_t collatz_steps(uint64_t v) {
  uint32_t n = 0;
  while (v > 1) {
    v = (v & 1) ? 3 * v + 1 : v >> 1;
    n++;
  }
  return n;
}

/* ---- ids_loop: 2D, groups of 8x5 (40: not a multiple of 7, 32 or 64), 37x11 items ------------ */
static void test_ids_loop(void **state) {
  (void)state;
  enum { GX = 37, GY = 11, LX = 8, LY = 5, N = GX * GY };
  uint32_t in[N];
  for (size_t i = 0; i < N; i++) in[i] = start_value(i);
  for (size_t v = 0; v < COUNT(variants); v++) {
    spvi_module *m = tl_load("recycle", variants[v]);
    uint64_t count0 = 0;
    for (size_t w = 0; w < COUNT(warps); w++)
      for (size_t t = 0; t < COUNT(threads); t++) {
        spvi_launch *l = tl_launch(m, "ids_loop");
        set_buf(l, 0, in, sizeof in);
        set_buf(l, 1, NULL, N * 4);
        set_buf(l, 2, NULL, N * 9 * 4);
        const size_t global[2] = {GX, GY}, local[2] = {LX, LY};
        set_range(l, 2, global, local);
        uint64_t count = run(l, warps[w], threads[t], "ids_loop", NULL, NULL);
        if (w == 0 && t == 0) count0 = count;
        else if (count != count0)
          fail_msg("%s warp %u threads %u: %llu instructions, %llu at warp width 1", variants[v], warps[w], threads[t],
                   (unsigned long long)count, (unsigned long long)count0);
        const uint32_t *steps = spvi_arg_buffer(l, 1, NULL), *ids = spvi_arg_buffer(l, 2, NULL);
        for (size_t y = 0; y < GY; y++)
          for (size_t x = 0; x < GX; x++) {
            const size_t i = y * GX + x;
            /* the last group of each dimension holds the remainder (37 = 4*8 + 5, 11 = 2*5 + 1) */
            const uint32_t lsx = x / LX == GX / LX ? GX % LX : LX, lsy = y / LY == GY / LY ? GY % LY : LY;
            const uint32_t want[9] = {(uint32_t)x,
                                      (uint32_t)y,
                                      (uint32_t)(x % LX),
                                      (uint32_t)(y % LY),
                                      (uint32_t)(x / LX),
                                      (uint32_t)(y / LY),
                                      (uint32_t)((y % LY) * lsx + x % LX),
                                      lsx * 100 + lsy,
                                      (uint32_t)i};
            if (steps[i] != collatz_steps(in[i]))
              fail_msg("%s warp %u threads %u: steps[%zu] = %u, expected %u", variants[v], warps[w], threads[t], i,
                       steps[i], collatz_steps(in[i]));
            for (int k = 0; k < 9; k++)
              if (ids[9 * i + k] != want[k])
                fail_msg("%s warp %u threads %u: item (%zu,%zu) id %d = %u, expected %u", variants[v], warps[w],
                         threads[t], x, y, k, ids[9 * i + k], want[k]);
          }
        spvi_launch_free(l);
      }
    spvi_module_free(m);
  }
}

/* ---- priv_loop: private arrays of data-dependent length ------------------------------------- */
static uint32_t priv_model(uint32_t x) {
  uint32_t a[16], n = x % 16 + 1, s = 0;
  for (uint32_t k = 0; k < n; k++) a[k] = (x * (k + 1)) ^ k;
  for (uint32_t k = n; k-- > 0;) s = s * 31 + a[k];
  return s;
}

static void test_priv_loop(void **state) {
  (void)state;
  enum { N = 1000 };
  uint32_t in[N];
  for (size_t i = 0; i < N; i++) in[i] = (uint32_t)(i * 2246822519u + 7);
  for (size_t v = 0; v < COUNT(variants); v++) {
    spvi_module *m = tl_load("recycle", variants[v]);
    for (size_t w = 0; w < COUNT(warps); w++) {
      spvi_launch *l = tl_launch(m, "priv_loop");
      set_buf(l, 0, in, sizeof in);
      set_buf(l, 1, NULL, sizeof in);
      const size_t global = N, local = 100;
      set_range(l, 1, &global, &local);
      run(l, warps[w], 1, "priv_loop", NULL, NULL);
      const uint32_t *out = spvi_arg_buffer(l, 1, NULL);
      for (size_t i = 0; i < N; i++)
        if (out[i] != priv_model(in[i]))
          fail_msg("%s warp %u: out[%zu] = %u, expected %u", variants[v], warps[w], i, out[i], priv_model(in[i]));
      spvi_launch_free(l);
    }
    spvi_module_free(m);
  }
}

/* ---- byval_loop: a by-value struct argument ------------------------------------------------- */
static void test_byval_loop(void **state) {
  (void)state;
  enum { N = 300 };
  const uint32_t p[3] = {3, 7, 1000000}; /* mul, add, limit */
  uint32_t in[N];
  for (size_t i = 0; i < N; i++) in[i] = (uint32_t)((i * 7919) % 200000);
  for (size_t v = 0; v < COUNT(variants); v++) {
    spvi_module *m = tl_load("recycle", variants[v]);
    for (size_t w = 0; w < COUNT(warps); w++) {
      spvi_launch *l = tl_launch(m, "byval_loop");
      spvi_error err;
      if (spvi_set_arg_value(l, 0, p, sizeof p, &err) != SPVI_OK) fail_msg("%s", err.message);
      set_buf(l, 1, in, sizeof in);
      set_buf(l, 2, NULL, sizeof in);
      const size_t global = N, local = 50;
      set_range(l, 1, &global, &local);
      run(l, warps[w], 1, "byval_loop", NULL, NULL);
      const uint32_t *out = spvi_arg_buffer(l, 2, NULL);
      for (size_t i = 0; i < N; i++) {
        uint32_t x = in[i], n = 0;
        while (x < p[2]) {
          x = x * p[0] + p[1];
          n++;
        }
        if (out[i] != n * 1000 + x % 1000)
          fail_msg("%s warp %u: out[%zu] = %u, expected %u", variants[v], warps[w], i, out[i], n * 1000 + x % 1000);
      }
      spvi_launch_free(l);
    }
    spvi_module_free(m);
  }
}

/* ---- printf_loop: output in work-item order ------------------------------------------------- */
typedef struct text {
  char *s;
  size_t len, cap;
} text;
static void collect(void *user, const char *s, size_t len) {
  text *t = user;
  if (t->len + len + 1 > t->cap) {
    t->cap = (t->len + len + 1) * 2;
    t->s = realloc(t->s, t->cap);
    assert_non_null(t->s);
  }
  memcpy(t->s + t->len, s, len);
  t->len += len;
  t->s[t->len] = 0;
}

static void test_printf_loop(void **state) {
  (void)state;
  enum { N = 150 };
  uint32_t in[N];
  for (size_t i = 0; i < N; i++) in[i] = start_value(i * 3 + 1);
  text want = {0};
  for (size_t i = 0; i < N; i++) {
    char line[64];
    snprintf(line, sizeof line, "%zu:%u\n", i, collatz_steps(in[i]));
    collect(&want, line, strlen(line));
  }
  for (size_t v = 0; v < COUNT(variants); v++) {
    spvi_module *m = tl_load("recycle", variants[v]);
    for (size_t w = 0; w < COUNT(warps); w++) {
      spvi_launch *l = tl_launch(m, "printf_loop");
      set_buf(l, 0, in, sizeof in);
      const size_t global = N, local = 75;
      set_range(l, 1, &global, &local);
      text got = {0};
      run(l, warps[w], 1, "printf_loop", collect, &got);
      if (!got.s || strcmp(got.s, want.s) != 0) {
        char *g = got.s ? got.s : "";
        fail_msg("%s warp %u: printf output differs (%zu bytes, expected %zu):\n%.200s", variants[v], warps[w],
                 strlen(g), want.len, g);
      }
      free(got.s);
      spvi_launch_free(l);
    }
    spvi_module_free(m);
  }
  free(want.s);
}

/* ---- long_loop: the step limit names the long-running work-item ---------------------------- */
static void test_step_limit(void **state) {
  (void)state;
  enum { N = 200, LONG = 77 };
  uint32_t in[N];
  for (size_t i = 0; i < N; i++) in[i] = (uint32_t)(i % 13) * 5; /* at most 60 iterations */
  in[LONG] = 10000000;
  for (size_t v = 0; v < COUNT(variants); v++) {
    spvi_module *m = tl_load("recycle", variants[v]);
    for (size_t w = 0; w < COUNT(warps); w++) {
      spvi_launch *l = tl_launch(m, "long_loop");
      set_buf(l, 0, in, sizeof in);
      set_buf(l, 1, NULL, sizeof in);
      const size_t global = N, local = 100;
      set_range(l, 1, &global, &local);
      spvi_run_options o;
      memset(&o, 0, sizeof o);
      o.warp_width = warps[w];
      o.threads = 1;
      o.max_steps = 100000; /* a few thousand instructions for the others, 10^8 for item 77 */
      spvi_error err;
      spvi_fault f;
      memset(&f, 0, sizeof f);
      spvi_status s = spvi_run(l, &o, &f, &err);
      if (s != SPVI_FAULT || f.kind != SPVI_FAULT_STEP_LIMIT)
        fail_msg("%s warp %u: status %d, fault %s, expected the step limit", variants[v], warps[w], (int)s,
                 spvi_fault_kind_name(f.kind));
      if (f.global_id[0] != LONG)
        fail_msg("%s warp %u: the step limit names work-item %zu, expected %d:\n%s", variants[v], warps[w],
                 f.global_id[0], LONG, f.message);
      spvi_launch_free(l);
    }
    spvi_module_free(m);
  }
}

/* ---- sg_ids_loop: sub-group built-ins (sub-groups of 32 consecutive local linear ids) ------ */
static void test_sg_ids_loop(void **state) {
  (void)state;
  enum { N = 150, L = 70, S = 32 }; /* groups of 70, 70, 10: sub-groups of 32, 32, 6 and 10 */
  uint32_t in[N];
  for (size_t i = 0; i < N; i++) in[i] = start_value(i * 5 + 2);
  for (size_t v = 0; v < COUNT(variants); v++) {
    spvi_module *m = tl_load("recycle", variants[v]);
    for (size_t w = 0; w < COUNT(warps); w++) {
      spvi_launch *l = tl_launch(m, "sg_ids_loop");
      set_buf(l, 0, in, sizeof in);
      set_buf(l, 1, NULL, N * 5 * 4);
      const size_t global = N, local = L;
      set_range(l, 1, &global, &local);
      run(l, warps[w], 1, "sg_ids_loop", NULL, NULL);
      const uint32_t *out = spvi_arg_buffer(l, 1, NULL);
      for (size_t i = 0; i < N; i++) {
        const uint32_t n = (uint32_t)(N - i / L * L < L ? N - i / L * L : L), lin = (uint32_t)(i % L);
        const uint32_t id = lin / S, size = n - id * S < S ? n - id * S : S;
        const uint32_t want[5] = {collatz_steps(in[i]), id, lin % S, size, (n + S - 1) / S};
        for (int k = 0; k < 5; k++)
          if (out[5 * i + k] != want[k])
            fail_msg("%s warp %u: item %zu value %d = %u, expected %u", variants[v], warps[w], i, k, out[5 * i + k],
                     want[k]);
      }
      spvi_launch_free(l);
    }
    spvi_module_free(m);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_ids_loop),    cmocka_unit_test(test_priv_loop),  cmocka_unit_test(test_byval_loop),
    cmocka_unit_test(test_printf_loop), cmocka_unit_test(test_step_limit), cmocka_unit_test(test_sg_ids_loop),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
