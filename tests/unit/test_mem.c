/*
 * test_mem.c — memory objects (buffers, views, images, images over buffers), asynchronous runs,
 * shared virtual memory and the kernel information functions, on the kernels of
 * tests/kernels/mem_objects.cl (and mem_many_vars.cl).
 *
 * Expected values are computed here in C from the inputs, following each kernel's source: never
 * from spvi's output. Memory-object tests run the -O0 and -O2 translations.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "spvi.h"
#include "load.h"

static const char *const variants[] = {"O0", "O2"};
enum { NV = 2 };


static void ndrange(spvi_launch *l, unsigned dims, size_t gx, size_t gy, size_t lx) {
  const size_t g[2] = {gx, gy}, loc[2] = {lx, 1};
  spvi_error err;
  if (spvi_set_ndrange(l, dims, g, lx ? loc : NULL, NULL, &err) != SPVI_OK) fail_msg("%s", err.message);
}

static void set_mem(spvi_launch *l, int i, spvi_mem *m) {
  spvi_error err;
  if (spvi_set_arg_mem(l, i, m, &err) != SPVI_OK) fail_msg("spvi_set_arg_mem %d: %s", i, err.message);
}
static void set_svm(spvi_launch *l, int i, const void *p) {
  spvi_error err;
  if (spvi_set_arg_svm(l, i, p, &err) != SPVI_OK) fail_msg("spvi_set_arg_svm %d: %s", i, err.message);
}
static void set_int(spvi_launch *l, int i, int32_t v) {
  spvi_error err;
  if (spvi_set_arg_value(l, i, &v, 4, &err) != SPVI_OK) fail_msg("spvi_set_arg_value %d: %s", i, err.message);
}

static spvi_status run_opts(spvi_launch *l, const spvi_run_options *o, spvi_fault *f) {
  spvi_error err;
  const spvi_status s = spvi_run(l, o, f, &err);
  if (s != SPVI_OK && s != SPVI_FAULT) fail_msg("spvi_run: %s", err.message);
  return s;
}
static spvi_status run_threads(spvi_launch *l, unsigned threads, spvi_fault *f) {
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.threads = threads;
  return run_opts(l, &o, f);
}
static void run_ok(spvi_launch *l) {
  spvi_fault f;
  if (run_threads(l, 1, &f) != SPVI_OK) fail_msg("fault: %s", f.message);
}

static spvi_mem *buffer(size_t bytes, void *host) {
  spvi_error err;
  spvi_mem *m = spvi_buffer_new(bytes, host, &err);
  if (!m) fail_msg("spvi_buffer_new: %s", err.message);
  return m;
}
static int32_t *ints(spvi_mem *m) { return spvi_mem_data(m, NULL); }

static void *svm(size_t bytes) {
  spvi_error err;
  void *p = spvi_svm_alloc(bytes, 0, &err);
  if (!p) fail_msg("spvi_svm_alloc: %s", err.message);
  return p;
}

/* ---- buffers, views, host memory ------------------------------------------------------------- */

/* Two launches share one buffer object: the second sees the first's results, the host sees both
 * through spvi_mem_data, and no launch copies the bytes. */
static void test_shared_buffer(void **state) {
  (void)state;
  enum { N = 40 };
  for (int v = 0; v < NV; v++) {
    spvi_module *m = tl_load("mem_objects", variants[v]);
    spvi_mem *b = buffer(N * 4, NULL);
    size_t bytes = 0;
    int32_t *a = spvi_mem_data(b, &bytes);
    assert_int_equal(bytes, N * 4);
    assert_int_equal((uintptr_t)a % 128, 0);
    for (int i = 0; i < N; i++) assert_int_equal(a[i], 0); /* zero-filled */
    for (int i = 0; i < N; i++) a[i] = i - 7;
    spvi_launch *l1 = tl_launch(m, "scale_add"), *l2 = tl_launch(m, "scale_add");
    set_mem(l1, 0, b);
    set_int(l1, 1, 1);
    set_mem(l2, 0, b);
    set_int(l2, 1, 3);
    ndrange(l1, 1, N, 0, 0);
    ndrange(l2, 1, N, 0, 0);
    run_ok(l1);
    run_ok(l2);
    for (int i = 0; i < N; i++) assert_int_equal(a[i], 2 * (2 * (i - 7) + 1) + 3);
    size_t ab = 0;
    assert_ptr_equal(spvi_arg_buffer(l1, 0, &ab), a); /* in place: the object's bytes */
    assert_int_equal(ab, N * 4);
    spvi_launch_free(l1);
    spvi_launch_free(l2);
    spvi_mem_release(b);
    spvi_module_free(m);
  }
}

/* A view: kernel writes land at its offset in the parent; a view of a view is one of the root;
 * out-of-bounds accesses are reported against the view, with offsets within it. */
static void test_view(void **state) {
  (void)state;
  enum { N = 64, OFF = 16, VN = 16 };
  for (int v = 0; v < NV; v++) {
    spvi_module *m = tl_load("mem_objects", variants[v]);
    spvi_mem *p = buffer(N * 4, NULL);
    spvi_error err;
    spvi_mem *view = spvi_buffer_view(p, OFF * 4, VN * 4, &err);
    assert_non_null(view);
    spvi_mem *inner = spvi_buffer_view(view, 8 * 4, 4 * 4, &err); /* ints 24..27 of the root */
    assert_non_null(inner);
    size_t vb = 0;
    assert_ptr_equal(spvi_mem_data(view, &vb), ints(p) + OFF);
    assert_int_equal(vb, VN * 4);
    assert_ptr_equal(spvi_mem_data(inner, NULL), ints(p) + OFF + 8);

    spvi_launch *l = tl_launch(m, "fill_idx");
    set_mem(l, 0, view);
    ndrange(l, 1, VN, 0, 0);
    run_ok(l);
    set_mem(l, 0, inner);
    ndrange(l, 1, 4, 0, 0);
    run_ok(l);
    const int32_t *a = ints(p);
    for (int i = 0; i < N; i++) {
      int32_t want = i >= OFF + 8 && i < OFF + 12 ? 100 + (i - OFF - 8)
                     : i >= OFF && i < OFF + VN   ? 100 + (i - OFF)
                                                  : 0;
      assert_int_equal(a[i], want);
    }

    spvi_launch *k = tl_launch(m, "poke");
    set_mem(k, 0, view);
    ndrange(k, 1, 1, 0, 0);
    const int32_t idx[2] = {VN, -1};
    for (int t = 0; t < 2; t++) {
      set_int(k, 1, idx[t]);
      spvi_fault f;
      assert_int_equal(run_threads(k, 1, &f), SPVI_FAULT);
      assert_int_equal(f.kind, SPVI_FAULT_OUT_OF_BOUNDS);
      assert_int_equal(f.arg_index, 0);
      assert_int_equal(f.offset, idx[t] * 4);
      assert_int_equal(f.memory_size, VN * 4);
      assert_int_equal(f.access_size, 4);
    }
    assert_int_equal(a[OFF + VN], 0); /* the parent's next byte is untouched */
    assert_int_equal(a[OFF - 1], 0);
    spvi_launch_free(k);
    spvi_launch_free(l);
    spvi_mem_release(inner);
    spvi_mem_release(view);
    spvi_mem_release(p);
    spvi_module_free(m);
  }
}

/* One memory object bound to two arguments, and two views of one buffer, are one object to the
 * kernel (OpenCL C 6.3 pointer comparison, SPIR-V 3.32.8 OpPtrEqual/OpPtrDiff): a == b and b - a
 * as the host computes them, and the race checker sees the work-items' accesses to the shared
 * bytes as one object's (same_object, mem_objects.cl); two distinct buffers stay apart and race
 * free. At warp widths 1, 7 and 32, and with b `const` (same_object_const: at -O2 b is NoWrite, so
 * its buffer is read-only and untracked unless a writable argument shares it, as in cases 0, 1). */
static void test_same_object(void **state) {
  (void)state;
  enum { G = 8, K = 4 };
  static const unsigned warps[] = {1, 7, 32};
  for (int v = 0; v < 2 * NV; v++) {
    spvi_module *m = tl_load("mem_objects", variants[v % NV]);
    spvi_launch *l = tl_launch(m, v < NV ? "same_object" : "same_object_const");
    ndrange(l, 1, G, 0, G);
    for (int c = 0; c < 3; c++)
      for (size_t w = 0; w < sizeof warps / sizeof warps[0]; w++) {
        spvi_error err;
        /* c 0: one buffer twice; 1: views at ints 0 and K of one buffer; 2: two buffers */
        spvi_mem *p = buffer((G + 1 + K) * 4, NULL), *q = c == 2 ? buffer((G + 1) * 4, NULL) : NULL;
        spvi_mem *a = c == 1 ? spvi_buffer_view(p, 0, (G + 1) * 4, &err) : p;
        spvi_mem *b = c == 0 ? p : c == 1 ? spvi_buffer_view(p, K * 4, (G + 1) * 4, &err) : q;
        spvi_mem *out = buffer(2 * 8, NULL);
        assert_non_null(a);
        assert_non_null(b);
        for (int i = 0; i < G + 1; i++) ints(b)[i] = 10 * i;
        set_mem(l, 0, a);
        set_mem(l, 1, b);
        set_mem(l, 2, out);
        spvi_run_options o = {.warp_width = warps[w], .threads = 1, .checks = SPVI_CHECK_RACES};
        spvi_fault f;
        assert_int_equal(run_opts(l, &o, &f), SPVI_OK);
        const int64_t *r = spvi_mem_data(out, NULL);
        assert_int_equal(r[0], c == 0);
        if (c < 2) assert_int_equal(r[1], c == 0 ? 0 : K);
        size_t races = 0;
        for (size_t i = 0; i < spvi_report_count(l); i++) races += spvi_report_get(l, i)->kind == SPVI_REPORT_RACE;
        assert_true(c < 2 ? races > 0 : races == 0);
        if (c == 2)
          for (int g = 0; g < G; g++) assert_int_equal(ints(a)[g], 10 * (g + 1) + 1);
        set_mem(l, 0, NULL);
        set_mem(l, 1, NULL);
        set_mem(l, 2, NULL);
        if (a != p) spvi_mem_release(a);
        if (b != p) spvi_mem_release(b);
        spvi_mem_release(p);
        spvi_mem_release(out);
      }
    spvi_launch_free(l);
    spvi_module_free(m);
  }
}

/* A run over part of the NDRange gives each argument its own written-byte mask even when two
 * arguments are views of one buffer (one allocation): a = ints K.. of the buffer, b = ints 0..;
 * group 0 (work-items 0..3) writes a[0..3], i.e. b[K..K+3]. */
static void test_same_object_written(void **state) {
  (void)state;
  enum { G = 8, K = 4, L = 4 };
  spvi_module *m = tl_load("mem_objects", "O2");
  spvi_launch *l = tl_launch(m, "same_object");
  ndrange(l, 1, G, 0, L);
  spvi_error err;
  spvi_mem *p = buffer((G + 1 + K) * 4, NULL), *out = buffer(2 * 8, NULL);
  spvi_mem *a = spvi_buffer_view(p, K * 4, (G + 1) * 4, &err), *b = spvi_buffer_view(p, 0, (G + 1 + K) * 4, &err);
  set_mem(l, 0, a);
  set_mem(l, 1, b);
  set_mem(l, 2, out);
  spvi_run_options o = {.threads = 1, .group_begin = 0, .group_end = 1};
  spvi_fault f;
  assert_int_equal(run_opts(l, &o, &f), SPVI_OK);
  assert_int_equal(((const int64_t *)spvi_mem_data(out, NULL))[1], -K);
  size_t na = 0, nb = 0;
  const uint8_t *wa = spvi_arg_written(l, 0, &na), *wb = spvi_arg_written(l, 1, &nb);
  assert_non_null(wa);
  assert_non_null(wb);
  assert_int_equal(na, (G + 1) * 4);
  assert_int_equal(nb, (G + 1 + K) * 4);
  for (size_t i = 0; i < na; i++) assert_int_equal(wa[i], i < L * 4);
  for (size_t i = 0; i < nb; i++) assert_int_equal(wb[i], i >= K * 4 && i < (K + L) * 4);
  spvi_launch_free(l);
  spvi_mem_release(a);
  spvi_mem_release(b);
  spvi_mem_release(p);
  spvi_mem_release(out);
  spvi_module_free(m);
}

/* CL_MEM_USE_HOST_PTR: the kernel works on the caller's memory. */
static void test_host_memory(void **state) {
  (void)state;
  enum { N = 33 };
  spvi_module *m = tl_load("mem_objects", "O2");
  int32_t host[N];
  for (int i = 0; i < N; i++) host[i] = 3 * i;
  spvi_mem *b = buffer(sizeof host, host);
  assert_ptr_equal(spvi_mem_data(b, NULL), host);
  spvi_launch *l = tl_launch(m, "scale_add");
  set_mem(l, 0, b);
  set_int(l, 1, 5);
  ndrange(l, 1, N, 0, 0);
  run_ok(l);
  for (int i = 0; i < N; i++) assert_int_equal(host[i], 6 * i + 5);
  spvi_mem_release(b); /* the launch still holds it: host memory stays the caller's */
  spvi_launch_free(l);
  spvi_module_free(m);
}

/* A NULL buffer object gives the kernel a null pointer: fine when not dereferenced, a null-pointer
 * fault when it is. */
static void test_null_buffer(void **state) {
  (void)state;
  for (int v = 0; v < NV; v++) {
    spvi_module *m = tl_load("mem_objects", variants[v]);
    spvi_mem *out = buffer(4, NULL);
    spvi_launch *l = tl_launch(m, "maybe_null");
    set_mem(l, 0, NULL);
    set_mem(l, 1, out);
    set_int(l, 2, 0);
    ndrange(l, 1, 1, 0, 0);
    run_ok(l);
    assert_int_equal(ints(out)[0], 1);
    size_t bytes = 99;
    assert_null(spvi_arg_buffer(l, 0, &bytes));
    assert_int_equal(bytes, 0);
    set_int(l, 2, 1);
    spvi_fault f;
    assert_int_equal(run_threads(l, 1, &f), SPVI_FAULT);
    assert_int_equal(f.kind, SPVI_FAULT_NULL_POINTER);
    /* an object of one byte is not a null pointer */
    spvi_mem *one = buffer(1, NULL);
    set_mem(l, 0, one);
    set_int(l, 2, 0);
    run_ok(l);
    assert_int_equal(ints(out)[0], 2);
    spvi_launch_free(l);
    spvi_mem_release(one);
    spvi_mem_release(out);
    spvi_module_free(m);
  }
}

/* A group range over a memory object: spvi_arg_written marks the bytes of the groups run. */
static void test_written_mask(void **state) {
  (void)state;
  enum { N = 64, L = 16 };
  spvi_module *m = tl_load("mem_objects", "O2");
  spvi_mem *b = buffer(N * 4, NULL);
  spvi_launch *l = tl_launch(m, "fill_idx");
  set_mem(l, 0, b);
  ndrange(l, 1, N, 0, L);
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.group_begin = 1;
  o.group_end = 2;
  spvi_fault f;
  assert_int_equal(run_opts(l, &o, &f), SPVI_OK);
  size_t n = 0;
  const uint8_t *w = spvi_arg_written(l, 0, &n);
  assert_non_null(w);
  assert_int_equal(n, N * 4);
  for (int i = 0; i < N * 4; i++) assert_int_equal(w[i], i >= L * 4 && i < 2 * L * 4);
  for (int i = 0; i < N; i++) assert_int_equal(ints(b)[i], i >= L && i < 2 * L ? 100 + i : 0);
  spvi_launch_free(l);
  spvi_mem_release(b);
  spvi_module_free(m);
}

/* Interleaved shards (spvi_run_options.shard_*): shard K of N runs the groups g with g % N == K,
 * within the group range; spvi_arg_initial keeps the contents before the run and
 * spvi_launch_progress counts the shard's groups. 16 groups of 8: shard 2 of 5 is groups 2, 7, 12;
 * with the range 3..16, groups 7 and 12. */
static void test_shard_mask(void **state) {
  (void)state;
  enum { N = 128, L = 8 };
  static const struct {
    uint64_t begin, end;
    int groups[3], ngroups;
  } cases[] = {{0, 0, {2, 7, 12}, 3}, {3, 16, {7, 12, 0}, 2}};
  spvi_module *m = tl_load("mem_objects", "O2");
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    int32_t init[N];
    for (int i = 0; i < N; i++) init[i] = -i;
    spvi_mem *b = buffer(N * 4, NULL);
    memcpy(ints(b), init, sizeof init);
    spvi_launch *l = tl_launch(m, "fill_idx");
    set_mem(l, 0, b);
    ndrange(l, 1, N, 0, L);
    uint64_t total = 9;
    assert_int_equal(spvi_launch_progress(l, &total), 0); /* before any run */
    assert_int_equal(total, 0);
    spvi_run_options o;
    memset(&o, 0, sizeof o);
    o.threads = 2;
    o.shard_index = 2;
    o.shard_count = 5;
    o.group_begin = cases[c].begin;
    o.group_end = cases[c].end;
    spvi_fault f;
    assert_int_equal(run_opts(l, &o, &f), SPVI_OK);
    bool ran[N / L] = {false};
    for (int k = 0; k < cases[c].ngroups; k++) ran[cases[c].groups[k]] = true;
    size_t n = 0;
    const uint8_t *w = spvi_arg_written(l, 0, &n);
    assert_non_null(w);
    assert_int_equal(n, N * 4);
    for (int i = 0; i < N * 4; i++) assert_int_equal(w[i], ran[i / 4 / L]);
    for (int i = 0; i < N; i++) assert_int_equal(ints(b)[i], ran[i / L] ? 100 + i : -i);
    const int32_t *before = spvi_arg_initial(l, 0, &n);
    assert_non_null(before);
    assert_int_equal(n, N * 4);
    assert_memory_equal(before, init, sizeof init);
    assert_int_equal(spvi_launch_progress(l, &total), cases[c].ngroups);
    assert_int_equal(total, cases[c].ngroups);
    /* an index outside 0..N-1 is refused */
    o.shard_index = 5;
    spvi_error err;
    assert_int_equal(spvi_run(l, &o, &f, &err), SPVI_E_USAGE);
    assert_non_null(strstr(err.message, "shard 5 of 5"));
    spvi_launch_free(l);
    spvi_mem_release(b);
  }
  spvi_module_free(m);
}

/* ---- images ------------------------------------------------------------------------------- */

static spvi_image_desc desc2d(size_t w, size_t h) {
  spvi_image_desc d;
  memset(&d, 0, sizeof d);
  d.type = SPVI_IMAGE_2D;
  d.order = SPVI_ORDER_RGBA;
  d.channel_type = SPVI_FLOAT;
  d.width = w;
  d.height = h;
  return d;
}

/* An image object written by one launch is read by the next. */
static void test_image_object(void **state) {
  (void)state;
  enum { W = 5, H = 3 };
  for (int v = 0; v < NV; v++) {
    spvi_module *m = tl_load("mem_objects", variants[v]);
    spvi_error err;
    const spvi_image_desc d = desc2d(W, H);
    spvi_mem *im = spvi_image_new(&d, NULL, &err);
    if (!im) fail_msg("%s", err.message);
    spvi_mem *out = buffer(W * H * 16, NULL);
    spvi_launch *wr = tl_launch(m, "img_write"), *rd = tl_launch(m, "img_read");
    set_mem(wr, 0, im);
    set_mem(rd, 0, im);
    set_mem(rd, 1, out);
    ndrange(wr, 2, W, H, 1);
    ndrange(rd, 2, W, H, 1);
    run_ok(wr);
    run_ok(rd);
    const float *px = spvi_mem_data(im, NULL), *o = spvi_mem_data(out, NULL);
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        const float want[4] = {(float)x, (float)y, (float)(x + y), 1.0f};
        for (int c = 0; c < 4; c++) {
          assert_true(px[(y * W + x) * 4 + c] == want[c]);
          assert_true(o[(y * W + x) * 4 + c] == 2.0f * want[c]);
        }
      }
    spvi_image_desc got;
    size_t bytes = 0;
    assert_ptr_equal(spvi_arg_image(rd, 0, &got, &bytes), px);
    assert_int_equal(bytes, W * H * 16);
    assert_int_equal(got.width, W);
    assert_int_equal(got.height, H);
    assert_true(spvi_mem_image_desc(im, &got));
    assert_int_equal(got.type, SPVI_IMAGE_2D);
    /* type checks: a 1D image, a buffer, and an image on a buffer parameter */
    spvi_image_desc d1 = d;
    d1.type = SPVI_IMAGE_1D;
    d1.height = 0;
    spvi_mem *im1 = spvi_image_new(&d1, NULL, &err);
    assert_non_null(im1);
    assert_int_equal(spvi_set_arg_mem(rd, 0, im1, &err), SPVI_E_USAGE);
    assert_non_null(strstr(err.message, "image2d"));
    assert_int_equal(spvi_set_arg_mem(rd, 0, out, &err), SPVI_E_USAGE);
    assert_int_equal(spvi_set_arg_mem(rd, 0, NULL, &err), SPVI_E_USAGE);
    assert_int_equal(spvi_set_arg_mem(rd, 1, im, &err), SPVI_E_USAGE);
    assert_false(spvi_mem_image_desc(out, &got));
    spvi_mem_release(im1);
    spvi_launch_free(wr);
    spvi_launch_free(rd);
    spvi_mem_release(im);
    spvi_mem_release(out);
    spvi_module_free(m);
  }
}

/* image1d_buffer_t over a buffer object's bytes (which the image keeps alive). */
static void test_image_from_buffer(void **state) {
  (void)state;
  enum { N = 8 };
  spvi_module *m = tl_load("mem_objects", "O2");
  spvi_mem *b = buffer(N * 16 + 20, NULL);
  uint32_t *px = spvi_mem_data(b, NULL);
  for (int i = 0; i < N * 4; i++) px[i] = (uint32_t)(i * 1000 + 17);
  spvi_image_desc d;
  memset(&d, 0, sizeof d);
  d.type = SPVI_IMAGE_1D_BUFFER;
  d.order = SPVI_ORDER_RGBA;
  d.channel_type = SPVI_UNSIGNED_INT32;
  d.width = N;
  spvi_error err;
  spvi_mem *im = spvi_image_from_buffer(&d, b, &err);
  if (!im) fail_msg("%s", err.message);
  assert_ptr_equal(spvi_mem_data(im, NULL), px);
  spvi_mem_release(b); /* the image holds the buffer */
  spvi_mem *out = buffer(N * 16, NULL);
  spvi_launch *l = tl_launch(m, "img1d_read");
  set_mem(l, 0, im);
  set_mem(l, 1, out);
  ndrange(l, 1, N, 0, 0);
  run_ok(l);
  const uint32_t *o = spvi_mem_data(out, NULL);
  for (int i = 0; i < N * 4; i++) assert_int_equal(o[i], (uint32_t)(i * 1000 + 17) + (uint32_t)(i % 4 + 1));
  d.width = N + 2; /* 160 bytes: more than the buffer's 148 */
  assert_null(spvi_image_from_buffer(&d, im, &err));
  assert_int_equal(err.status, SPVI_E_USAGE);
  assert_null(spvi_image_from_buffer(&d, out, &err));
  assert_int_equal(err.status, SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "160"));
  spvi_launch_free(l);
  spvi_mem_release(out);
  spvi_mem_release(im);
  spvi_module_free(m);
}

/* ---- reference counts and bad input ------------------------------------------------------- */

/* Parent, view and launch released in every order (ASan/valgrind find leaks and bad frees). */
static void test_refcounts(void **state) {
  (void)state;
  enum { N = 16 };
  spvi_module *m = tl_load("mem_objects", "O2");
  for (int order = 0; order < 3; order++) {
    spvi_mem *p = buffer(N * 8, NULL);
    spvi_error err;
    spvi_mem *v = spvi_buffer_view(p, N * 4, N * 4, &err);
    assert_non_null(v);
    spvi_launch *l = tl_launch(m, "fill_idx");
    set_mem(l, 0, v);
    set_mem(l, 0, v); /* setting the object it already holds */
    ndrange(l, 1, N, 0, 0);
    if (order == 0) {
      spvi_mem_release(p);
      spvi_mem_release(v);
    }
    if (order == 1) {
      spvi_mem_retain(v);
      spvi_mem_release(v);
      spvi_mem_release(v);
      spvi_mem_release(p);
    }
    run_ok(l);
    const int32_t *a = spvi_arg_buffer(l, 0, NULL);
    for (int i = 0; i < N; i++) assert_int_equal(a[i], 100 + i);
    if (order == 2) {
      spvi_mem_release(p);
      spvi_launch_free(l);
      spvi_mem_release(v);
    } else spvi_launch_free(l);
  }
  spvi_module_free(m);
}

static void test_bad_input(void **state) {
  (void)state;
  spvi_error err;
  assert_null(spvi_buffer_new(0, NULL, &err));
  assert_int_equal(err.status, SPVI_E_USAGE);
  assert_null(spvi_buffer_view(NULL, 0, 4, &err));
  assert_int_equal(err.status, SPVI_E_USAGE);
  spvi_mem *b = buffer(64, NULL);
  assert_null(spvi_buffer_view(b, 60, 8, &err));
  assert_int_equal(err.status, SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "64-byte parent"));
  assert_null(spvi_buffer_view(b, 0, 0, &err));
  assert_null(spvi_buffer_view(b, SIZE_MAX, 2, &err));
  assert_int_equal(err.status, SPVI_E_USAGE);
  spvi_image_desc d = desc2d(0, 4);
  assert_null(spvi_image_new(&d, NULL, &err));
  assert_int_equal(err.status, SPVI_E_USAGE);
  assert_null(spvi_image_new(NULL, NULL, &err));
  assert_null(spvi_image_from_buffer(NULL, b, &err));
  d = desc2d(2, 2);
  assert_null(spvi_image_from_buffer(&d, NULL, &err));
  spvi_mem *im = spvi_image_new(&d, NULL, &err);
  assert_null(spvi_buffer_view(im, 0, 4, &err));
  assert_int_equal(err.status, SPVI_E_USAGE);
  spvi_mem_retain(NULL);
  spvi_mem_release(NULL);
  size_t n = 7;
  assert_null(spvi_mem_data(NULL, &n));
  assert_int_equal(n, 0);
  assert_false(spvi_mem_image_desc(NULL, &d));

  assert_null(spvi_svm_alloc(0, 0, &err));
  assert_int_equal(err.status, SPVI_E_USAGE);
  assert_null(spvi_svm_alloc(16, 3, &err));
  assert_int_equal(err.status, SPVI_E_USAGE);
  /* above the largest allocation: refused before anything is mapped (issue #17) */
  assert_null(spvi_svm_alloc((size_t)spvi_max_alloc_size() + 1, 0, &err));
  assert_int_equal(err.status, SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "an SVM allocation of"));
  spvi_svm_free(NULL);
  int local_var = 0;
  spvi_svm_free(&local_var); /* not an SVM allocation: nothing happens */
  assert_false(spvi_svm_find(&local_var, NULL, NULL));
  assert_false(spvi_svm_find(NULL, NULL, NULL));

  spvi_module *m = tl_load("mem_objects", "O2");
  spvi_launch *l = tl_launch(m, "scale_add");
  assert_int_equal(spvi_set_arg_mem(l, 1, b, &err), SPVI_E_USAGE); /* a by-value int */
  assert_int_equal(spvi_set_arg_mem(l, 5, b, &err), SPVI_E_USAGE);
  assert_int_equal(spvi_set_arg_mem(NULL, 0, b, &err), SPVI_E_USAGE);
  assert_int_equal(spvi_set_arg_svm(l, 0, &local_var, &err), SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "SVM"));
  assert_int_equal(spvi_set_arg_svm(l, 1, NULL, &err), SPVI_E_USAGE);
  assert_null(spvi_run_async(NULL, NULL, NULL, NULL, &err));
  assert_int_equal(err.status, SPVI_E_USAGE);
  assert_int_equal(spvi_job_wait(NULL, NULL, &err), SPVI_E_USAGE);
  assert_false(spvi_job_done(NULL));
  spvi_launch_free(l);
  spvi_module_free(m);
  spvi_mem_release(im);
  spvi_mem_release(b);
}

/* ---- asynchronous runs ------------------------------------------------------------------- */

static atomic_int g_done_calls;
static void on_done(void *user) {
  atomic_fetch_add(&g_done_calls, 1);
  atomic_store((atomic_int *)user, 1);
}

static void wait_done(const spvi_job *j) {
  const struct timespec ms = {0, 1000000};
  for (int i = 0; i < 60000 && !spvi_job_done(j); i++) nanosleep(&ms, NULL);
  assert_true(spvi_job_done(j));
}

/* Two jobs on two launches at once; on_done runs before done is true; a faulting job. */
static void test_async(void **state) {
  (void)state;
  enum { N = 5000 };
  spvi_module *m = tl_load("mem_objects", "O0");
  spvi_mem *b[2] = {buffer(N * 4, NULL), buffer(N * 4, NULL)};
  spvi_launch *l[2];
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < N; i++) ints(b[k])[i] = i + k;
    l[k] = tl_launch(m, "scale_add");
    set_mem(l[k], 0, b[k]);
    set_int(l[k], 1, 10 * (k + 1));
    ndrange(l[k], 1, N, 0, 0);
  }
  atomic_store(&g_done_calls, 0);
  atomic_int flag[2] = {0, 0};
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.threads = 2;
  spvi_error err;
  spvi_job *j[2];
  for (int k = 0; k < 2; k++) {
    j[k] = spvi_run_async(l[k], &o, on_done, &flag[k], &err);
    if (!j[k]) fail_msg("%s", err.message);
  }
  o.threads = 99; /* the jobs copied the options */
  for (int k = 0; k < 2; k++) {
    wait_done(j[k]);
    assert_int_equal(atomic_load(&flag[k]), 1); /* on_done ran before done became true */
    spvi_fault f;
    assert_int_equal(spvi_job_wait(j[k], &f, &err), SPVI_OK);
    assert_int_equal(err.status, SPVI_OK);
    for (int i = 0; i < N; i++) assert_int_equal(ints(b[k])[i], 2 * (i + k) + 10 * (k + 1));
  }
  assert_int_equal(atomic_load(&g_done_calls), 2);
  /* a fault comes back through spvi_job_wait */
  spvi_launch *p = tl_launch(m, "poke");
  set_mem(p, 0, b[0]);
  set_int(p, 1, N);
  ndrange(p, 1, 1, 0, 0);
  spvi_job *jf = spvi_run_async(p, NULL, NULL, NULL, &err);
  assert_non_null(jf);
  spvi_fault f;
  assert_int_equal(spvi_job_wait(jf, &f, &err), SPVI_FAULT);
  assert_int_equal(f.kind, SPVI_FAULT_OUT_OF_BOUNDS);
  assert_int_equal(f.offset, N * 4);
  /* an error (no NDRange) too */
  spvi_launch *q = tl_launch(m, "poke");
  spvi_job *je = spvi_run_async(q, NULL, NULL, NULL, &err);
  assert_non_null(je);
  assert_int_equal(spvi_job_wait(je, NULL, &err), SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "NDRange"));
  spvi_launch_free(q);
  spvi_launch_free(p);
  for (int k = 0; k < 2; k++) {
    spvi_launch_free(l[k]);
    spvi_mem_release(b[k]);
  }
  spvi_module_free(m);
}

/* ---- shared virtual memory ---------------------------------------------------------------- */

/* The kernel's `node` on Physical64: an int, padding, a pointer. */
typedef struct hnode {
  int32_t value;
  struct hnode *next;
} hnode;

/* A list the host links in SVM memory (two allocations) is followed by a kernel. */
static void test_svm_list(void **state) {
  (void)state;
  enum { N = 9 };
  for (int v = 0; v < NV; v++) {
    spvi_module *m = tl_load("mem_objects", variants[v]);
    hnode *nodes = svm(N * sizeof(hnode)), *tail = svm(sizeof(hnode));
    void *base = NULL;
    size_t bytes = 0;
    assert_true(spvi_svm_find(&nodes[3].next, &base, &bytes));
    assert_ptr_equal(base, nodes);
    assert_int_equal(bytes, N * sizeof(hnode));
    assert_int_equal((uintptr_t)nodes % 128, 0);
    int32_t sum = 0;
    for (int i = 0; i < N; i++) { /* a scrambled order: 0, 5, 1, 6, 2, 7 ... then the tail */
      const int at = (i % 2) ? (i / 2 + 5) : i / 2;
      nodes[at].value = 11 * at + 1;
      sum += nodes[at].value;
      const int nx = i + 1 < N ? (((i + 1) % 2) ? ((i + 1) / 2 + 5) : (i + 1) / 2) : -1;
      nodes[at].next = nx >= 0 ? &nodes[nx] : tail;
    }
    tail->value = 1000;
    tail->next = NULL;
    sum += 1000;
    int32_t *out = svm(8);
    spvi_launch *l = tl_launch(m, "list_sum");
    set_svm(l, 0, nodes);
    set_svm(l, 1, out);
    ndrange(l, 1, 1, 0, 0);
    run_ok(l);
    assert_int_equal(out[0], sum);
    assert_int_equal(out[1], N + 1);
    assert_null(spvi_arg_buffer(l, 0, NULL));
    spvi_launch_free(l);
    spvi_svm_free(out);
    spvi_svm_free(tail);
    spvi_svm_free(nodes);
    assert_false(spvi_svm_find(nodes, NULL, NULL));
    spvi_module_free(m);
  }
}

/* Pointers a kernel stores into SVM memory are followed by the host. */
static void test_svm_kernel_pointers(void **state) {
  (void)state;
  enum { N = 37 };
  spvi_module *m = tl_load("mem_objects", "O2");
  hnode *nodes = svm(N * sizeof(hnode));
  spvi_launch *l = tl_launch(m, "list_build");
  set_svm(l, 0, nodes);
  set_int(l, 1, N);
  ndrange(l, 1, N, 0, 0);
  spvi_fault f;
  assert_int_equal(run_threads(l, 2, &f), SPVI_OK);
  int n = 0;
  for (const hnode *p = nodes; p; p = p->next, n++) {
    assert_ptr_equal(p, &nodes[n]);
    assert_int_equal(p->value, n * n);
  }
  assert_int_equal(n, N);
  spvi_launch_free(l);
  spvi_svm_free(nodes);
  spvi_module_free(m);
}

/* Accesses past an SVM allocation fault against it; far from any, as invalid pointers. */
static void test_svm_bounds(void **state) {
  (void)state;
  enum { N = 16 };
  spvi_module *m = tl_load("mem_objects", "O0");
  int32_t *a = svm(N * 4);
  spvi_launch *l = tl_launch(m, "poke");
  set_svm(l, 0, a);
  ndrange(l, 1, 1, 0, 0);
  const int32_t idx[2] = {N, -1};
  char want[64];
  snprintf(want, sizeof want, "SVM allocation at %p", (void *)a);
  for (int t = 0; t < 2; t++) {
    set_int(l, 1, idx[t]);
    spvi_fault f;
    assert_int_equal(run_threads(l, 1, &f), SPVI_FAULT);
    assert_int_equal(f.kind, SPVI_FAULT_OUT_OF_BOUNDS);
    assert_int_equal(f.offset, idx[t] * 4);
    assert_int_equal(f.memory_size, N * 4);
    assert_non_null(strstr(f.memory, want));
    assert_non_null(strstr(f.message, "offset"));
  }
  set_int(l, 1, 1 << 28); /* 1 GiB further: no allocation near */
  spvi_fault f;
  assert_int_equal(run_threads(l, 1, &f), SPVI_FAULT);
  assert_int_equal(f.kind, SPVI_FAULT_BAD_POINTER);
  set_int(l, 1, N - 1);
  run_ok(l);
  assert_int_equal(a[N - 1], 7);
  /* freed memory: an invalid pointer, not a crash */
  spvi_svm_free(a);
  assert_int_equal(run_threads(l, 1, &f), SPVI_FAULT);
  assert_int_equal(f.kind, SPVI_FAULT_BAD_POINTER);
  spvi_launch_free(l);
  spvi_module_free(m);
}

/* Atomics on SVM memory from several threads. */
static void test_svm_atomics(void **state) {
  (void)state;
  enum { N = 4096 };
  spvi_module *m = tl_load("mem_objects", "O2");
  int32_t *c = svm(8);
  c[0] = 5;
  spvi_launch *l = tl_launch(m, "count");
  set_svm(l, 0, c);
  ndrange(l, 1, N, 0, 64);
  spvi_fault f;
  assert_int_equal(run_threads(l, 4, &f), SPVI_OK);
  assert_int_equal(c[0], N + 5);
  assert_int_equal(c[1], N * (N - 1) / 2);
  spvi_launch_free(l);
  spvi_svm_free(c);
  spvi_module_free(m);
}

static void capture(void *user, const char *text, size_t len) {
  char *buf = user;
  strncat(buf, text, len < 255 - strlen(buf) ? len : 255 - strlen(buf));
}

/* vload/vstore, async copies, printf("%s") and pointer arithmetic on SVM pointers. */
static void test_svm_builtins(void **state) {
  (void)state;
  enum { N = 64, L = 16 };
  for (int v = 0; v < NV; v++) {
    spvi_module *m = tl_load("mem_objects", variants[v]);
    float *src = svm(N * 4), *dst = svm(N * 4);
    for (int i = 0; i < N; i++) src[i] = (float)i * 0.5f - 3.0f;
    spvi_launch *l = tl_launch(m, "vcopy");
    set_svm(l, 0, src);
    set_svm(l, 1, dst);
    ndrange(l, 1, N / 4, 0, 0);
    run_ok(l);
    for (int i = 0; i < N; i++) assert_true(dst[i] == 2.0f * ((float)i * 0.5f - 3.0f));
    spvi_launch_free(l);

    int32_t *is = svm(N * 4), *id = svm(N * 4);
    for (int i = 0; i < N; i++) is[i] = i * i;
    l = tl_launch(m, "async_inc");
    set_svm(l, 0, is);
    set_svm(l, 1, id);
    spvi_error err;
    assert_int_equal(spvi_set_arg_local(l, 2, L * 4, &err), SPVI_OK);
    ndrange(l, 1, N, 0, L);
    run_ok(l);
    for (int i = 0; i < N; i++) assert_int_equal(id[i], i * i + 1);
    spvi_launch_free(l);

    char *s = svm(32);
    strcpy(s, "svm text");
    char out[256] = "";
    l = tl_launch(m, "print_str");
    set_svm(l, 0, s);
    ndrange(l, 1, 1, 0, 0);
    spvi_run_options o;
    memset(&o, 0, sizeof o);
    o.on_printf = capture;
    o.printf_user = out;
    spvi_fault f;
    assert_int_equal(run_opts(l, &o, &f), SPVI_OK);
    assert_string_equal(out, "<svm text>\n");
    spvi_launch_free(l);

    int64_t *r = svm(4 * 8);
    l = tl_launch(m, "ptr_math");
    set_svm(l, 0, is);
    set_svm(l, 1, is + 5);
    set_svm(l, 2, r);
    ndrange(l, 1, 1, 0, 0);
    run_ok(l);
    assert_int_equal(r[0], 5);
    assert_int_equal(r[1], 1);
    assert_int_equal(r[2], (int64_t)(intptr_t)is);
    assert_int_equal(r[3], 1);
    set_svm(l, 1, id); /* two allocations: the host's integer difference */
    run_ok(l);
    assert_int_equal(r[0], ((intptr_t)id - (intptr_t)is) / 4);
    assert_int_equal(r[1], (uintptr_t)is < (uintptr_t)id);
    spvi_launch_free(l);
    spvi_svm_free(r);
    spvi_svm_free(s);
    spvi_svm_free(is);
    spvi_svm_free(id);
    spvi_svm_free(src);
    spvi_svm_free(dst);
    spvi_module_free(m);
  }
}

/* A 100 GiB __local argument, which once made the launch's set-up run out of memory (and its
 * cleanup free one worker past the array, issue 17), is refused when it is set: a work-group has
 * SPVI_LOCAL_MEM_SIZE (65536) bytes of __local memory, so 65537 is refused and 65536 is not; the
 * kernel's own __local variables count at launch (tests/cli/test_cli.sh, limits.cl). */
static void test_local_argument_limit(void **state) {
  (void)state;
  spvi_module *m = tl_load("mem_objects", "O0");
  spvi_launch *l = tl_launch(m, "async_inc");
  spvi_error err;
  assert_int_equal(spvi_set_arg_local(l, 2, (size_t)100 << 30, &err), SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "107374182400 bytes of __local memory is above the work-group's 65536"));
  assert_int_equal(spvi_set_arg_local(l, 2, 65537, &err), SPVI_E_USAGE);
  assert_int_equal(spvi_set_arg_local(l, 2, 65536, &err), SPVI_OK);
  spvi_launch_free(l);
  spvi_module_free(m);
}

/* What spvi refuses: SVM pointers for Physical32 modules, --check races with SVM arguments, SVM
 * arguments of a launch with more allocations than the address windows tell apart. Uninit checks
 * (private and local memory only) run. */
static void test_svm_refusals(void **state) {
  (void)state;
  int32_t *a = svm(64);
  spvi_error err;
  spvi_module *m32 = tl_load("mem_objects", "O0.spir32");
  spvi_launch *l = tl_launch(m32, "poke");
  assert_int_equal(spvi_set_arg_svm(l, 0, a, &err), SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "Physical32"));
  spvi_launch_free(l);
  spvi_module_free(m32);

  spvi_module *m = tl_load("mem_objects", "O0");
  l = tl_launch(m, "poke");
  set_svm(l, 0, a);
  set_int(l, 1, 3);
  ndrange(l, 1, 1, 0, 0);
  spvi_run_options o;
  memset(&o, 0, sizeof o);
  o.checks = SPVI_CHECK_RACES;
  spvi_fault f;
  assert_int_equal(spvi_run(l, &o, &f, &err), SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "races"));
  o.checks = SPVI_CHECK_UNINIT;
  assert_int_equal(spvi_run(l, &o, &f, &err), SPVI_OK);
  assert_int_equal(a[3], 7);
  assert_int_equal(spvi_report_count(l), 0);
  spvi_launch_free(l);
  spvi_module_free(m);

  spvi_module *big = tl_load("mem_many_vars", "O0");
  l = tl_launch(big, "many");
  set_svm(l, 0, a);
  ndrange(l, 1, 1, 0, 0);
  assert_int_equal(spvi_run(l, NULL, &f, &err), SPVI_E_USAGE);
  assert_non_null(strstr(err.message, "SVM arguments"));
  spvi_launch_free(l);
  spvi_module_free(big);
  spvi_svm_free(a);
}

/* ---- kernel information -------------------------------------------------------------------- */

static void test_kernel_info(void **state) {
  (void)state;
  for (int v = 0; v < NV; v++) {
    spvi_module *m = tl_load("mem_objects", variants[v]);
    const int a = spvi_find_kernel(m, "info_a"), b = spvi_find_kernel(m, "info_b");
    assert_int_equal(spvi_kernel_local_bytes(m, a), 16 * 4); /* local int tmp[16] */
    assert_int_equal(spvi_kernel_local_bytes(m, b), 4 * 8);  /* local double d[4] */
    assert_int_equal(spvi_kernel_local_bytes(m, spvi_find_kernel(m, "scale_add")), 0);
    size_t h[3];
    spvi_kernel_size_hint(m, a, h);
    assert_int_equal(h[0], 8);
    assert_int_equal(h[1], 4);
    assert_int_equal(h[2], 1);
    spvi_kernel_size_hint(m, b, h);
    assert_int_equal(h[0] | h[1] | h[2], 0);
    assert_int_equal(spvi_kernel_private_bytes(m, a), spvi_kernel_private_bytes(m, b)); /* module-wide */
    static const char *const src[] = {"mytype_t*", "int*", "uint*", "int", "float*"};
    for (int i = 0; i < 5; i++) {
      const spvi_param_info *p = spvi_kernel_param(m, a, i);
      assert_string_equal(p->source_type_name, src[i]);
      assert_int_equal(p->is_volatile, i == 1);
      assert_int_equal(p->is_restrict, i == 1);
    }
    assert_true(spvi_kernel_param(m, a, 2)->is_const);
    assert_int_equal(spvi_kernel_local_bytes(m, 99), 0);
    spvi_kernel_size_hint(NULL, 0, h);
    assert_int_equal(h[0], 0);
    spvi_module_free(m);
  }
  /* -O0: one work-item's private arena holds at least the 140 `volatile int` variables */
  spvi_module *m = tl_load("mem_many_vars", "O0");
  assert_true(spvi_kernel_private_bytes(m, 0) >= 140 * 4);
  assert_string_equal(spvi_kernel_param(m, 0, 0)->source_type_name, ""); /* no -cl-kernel-arg-info */
  spvi_module_free(m);
}

/* Under ASan an allocation the machine cannot give returns NULL, as it does without (the test of a
 * failed set-up needs that); ASan calls this when it is linked in, and nothing else does. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_shared_buffer),
    cmocka_unit_test(test_view),
    cmocka_unit_test(test_same_object),
    cmocka_unit_test(test_same_object_written),
    cmocka_unit_test(test_host_memory),
    cmocka_unit_test(test_null_buffer),
    cmocka_unit_test(test_written_mask),
    cmocka_unit_test(test_image_object),
    cmocka_unit_test(test_image_from_buffer),
    cmocka_unit_test(test_refcounts),
    cmocka_unit_test(test_bad_input),
    cmocka_unit_test(test_async),
    cmocka_unit_test(test_svm_list),
    cmocka_unit_test(test_svm_kernel_pointers),
    cmocka_unit_test(test_svm_bounds),
    cmocka_unit_test(test_svm_atomics),
    cmocka_unit_test(test_svm_builtins),
    cmocka_unit_test(test_svm_refusals),
    cmocka_unit_test(test_local_argument_limit),
    cmocka_unit_test(test_kernel_info),
    cmocka_unit_test(test_shard_mask),
  };
  return cmocka_run_group_tests_name("mem", tests, NULL, NULL);
}
