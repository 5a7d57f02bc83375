/*
 * builtins_harness.c — helpers shared by the test_builtins*.c and test_printf.c programs: see
 * builtins_harness.h.
 */
#include "builtins_harness.h"

const ref_fmt REF_HALF = {11, -23, 16};
const ref_fmt REF_FLOAT = {24, -148, 128};
const ref_fmt REF_DOUBLE = {53, -1073, 1024};

bi_resolved must_resolve(uint32_t op, bi_type res, const bi_type *args, unsigned nargs, uint32_t lit) {
  char err[256] = "";
  bi_resolved r = {0};
  if (!bi_resolve(op, &res, args, nargs, lit, &r, err, sizeof err))
    fail_msg("bi_resolve(%s) failed: %s", spv_oclstd_name(op), err);
  assert_non_null(r.fn);
  return r;
}

void expect_resolve_error(uint32_t op, bi_type res, const bi_type *args, unsigned nargs, uint32_t lit,
                          const char *msg) {
  char err[256] = "";
  bi_resolved r = {0};
  assert_false(bi_resolve(op, &res, args, nargs, lit, &r, err, sizeof err));
  assert_string_equal(err, msg);
}

void warp_init(warp *w, unsigned dst_bytes, const unsigned *src_bytes, unsigned nsrc) {
  memset(w, W_SENTINEL, sizeof *w);
  w->dst_stride = dst_bytes + 3;
  for (unsigned i = 0; i < 6; i++) w->src_stride[i] = (i < nsrc ? src_bytes[i] : 8) + 5 + 2 * i;
  w->nlanes = W_LANES;
  for (unsigned l = 0; l < W_LANES; l++) w->lanes[l] = (uint16_t)l;
}

bool warp_call(const bi_resolved *r, warp *w, const bi_mem *mem) {
  bi_call c;
  memset(&c, 0, sizeof c);
  c.dst = w->dst;
  for (unsigned i = 0; i < 6; i++) {
    c.src[i] = w->src[i];
    c.src_stride[i] = w->src_stride[i];
  }
  c.dst_stride = w->dst_stride;
  c.lanes = w->lanes;
  c.nlanes = w->nlanes;
  c.mem = mem;
  c.literal = r->literal;
  return r->fn(&c);
}

void put_elem(uint8_t *p, unsigned bytes, uint64_t v) {
  switch (bytes) {
  case 1: {
    uint8_t x = (uint8_t)v;
    memcpy(p, &x, 1);
    break;
  }
  case 2: {
    uint16_t x = (uint16_t)v;
    memcpy(p, &x, 2);
    break;
  }
  case 4: {
    uint32_t x = (uint32_t)v;
    memcpy(p, &x, 4);
    break;
  }
  default: memcpy(p, &v, 8); break;
  }
}

uint64_t get_elem(const uint8_t *p, unsigned bytes) {
  switch (bytes) {
  case 1: {
    uint8_t x;
    memcpy(&x, p, 1);
    return x;
  }
  case 2: {
    uint16_t x;
    memcpy(&x, p, 2);
    return x;
  }
  case 4: {
    uint32_t x;
    memcpy(&x, p, 4);
    return x;
  }
  default: {
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
  }
  }
}

uint64_t rng_next(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1Dull;
}

void run_ew(uint32_t op, bi_kind kind, unsigned bits, unsigned n, unsigned nargs, const uint64_t *const *in,
            const uint64_t *want, size_t count, elem_eq eq) {
  const unsigned es = bits / 8;
  bi_type res = ty(kind, bits, n), args[3];
  for (unsigned i = 0; i < nargs; i++) args[i] = res;
  const bi_resolved r = must_resolve(op, res, args, nargs, 0);
  const unsigned sb[3] = {n * es, n * es, n * es};
  static warp w;
  for (size_t base = 0; base < count; base += (size_t)n * W_LANES) {
    warp_init(&w, n * es, sb, nargs);
    for (unsigned l = 0; l < W_LANES; l++)
      for (unsigned k = 0; k < n; k++) {
        const size_t cs = (base + (size_t)l * n + k) % count; /* wrap: fill every component */
        for (unsigned i = 0; i < nargs; i++) put_elem(w_src(&w, i, l) + k * es, es, in[i][cs]);
      }
    assert_true(warp_call(&r, &w, NULL));
    for (unsigned l = 0; l < W_LANES; l++) {
      for (unsigned k = 0; k < n; k++) {
        const size_t cs = (base + (size_t)l * n + k) % count;
        const uint64_t got = get_elem(w_dst(&w, l) + k * es, es);
        if (eq ? !eq(got, want[cs]) : got != want[cs]) {
          char a[128] = "";
          for (unsigned i = 0; i < nargs; i++)
            snprintf(a + strlen(a), sizeof a - strlen(a), " %#llx", (unsigned long long)in[i][cs]);
          fail_msg("%s %s%u x%u case %zu (args%s): got %#llx, want %#llx", spv_oclstd_name(op),
                   kind == BI_FLOAT ? "f" : "i", bits, n, cs, a, (unsigned long long)got, (unsigned long long)want[cs]);
        }
      }
      assert_int_equal(w_dst(&w, l)[n * es], W_SENTINEL); /* no write past the result */
    }
  }
}

void run_ew_all_widths(uint32_t op, bi_kind kind, unsigned bits, unsigned nargs, const uint64_t *const *in,
                       const uint64_t *want, size_t count, elem_eq eq) {
  static const unsigned widths[] = {1, 2, 3, 4, 8, 16};
  for (unsigned i = 0; i < 6; i++) run_ew(op, kind, bits, widths[i], nargs, in, want, count, eq);
}

static void *fake_access(void *ctx, unsigned lane, uint64_t ptr, uint64_t bytes, bool write) {
  fake_mem *f = ctx;
  f->calls++;
  f->last_ptr = ptr;
  f->last_bytes = bytes;
  if (ptr < f->base || bytes > f->size || ptr - f->base > f->size - bytes || (write && f->read_only)) {
    f->faults++;
    f->fault_lane = lane;
    return NULL;
  }
  return f->buf + (ptr - f->base);
}

void fake_mem_init(fake_mem *f, uint8_t *buf, uint64_t base, uint64_t size) {
  memset(f, 0, sizeof *f);
  f->mem.ctx = f;
  f->mem.access = fake_access;
  f->buf = buf;
  f->base = base;
  f->size = size;
}

void ref_begin(ref_fmt f) {
  mpfr_set_emin(f.emin);
  mpfr_set_emax(f.emax);
}

void ref_end(void) {
  mpfr_set_emin(mpfr_get_emin_min());
  mpfr_set_emax(mpfr_get_emax_max());
}

mpfr_rnd_t ref_rnd(bi_round r) {
  switch (r) {
  case BI_RTZ: return MPFR_RNDZ;
  case BI_RTP: return MPFR_RNDU;
  case BI_RTN: return MPFR_RNDD;
  default: return MPFR_RNDN;
  }
}

double ref_half_value(uint16_t h) {
  const int e = (h >> 10) & 0x1f, f = h & 0x3ff;
  double v;
  if (e == 0x1f) v = f ? NAN : INFINITY;
  else if (e == 0) v = ldexp(f, -24);
  else v = ldexp(1024 + f, e - 25);
  return (h & 0x8000) ? -v : v;
}

uint16_t ref_encode_half(const mpfr_t x) {
  const uint16_t sign = mpfr_signbit(x) ? 0x8000 : 0;
  if (mpfr_inf_p(x)) return (uint16_t)(sign | 0x7c00);
  if (mpfr_zero_p(x)) return sign;
  const double a = fabs(mpfr_get_d(x, MPFR_RNDN)); /* exact: 11 bits */
  if (a < 0x1p-14) return (uint16_t)(sign | (uint16_t)(a * 0x1p24));
  int e;
  const double f = frexp(a, &e);
  return (uint16_t)(sign | (uint16_t)((e + 14) << 10) | (uint16_t)((f * 2 - 1) * 1024));
}
