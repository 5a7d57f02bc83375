/*
 * test_printf.c — the OpenCL.std printf builtin (builtins/bi_printf.c, bi_printf_num.c): bi_call
 * built by hand with a fake bounds-checked memory holding the format and %s strings and a fake output
 * sink collecting each lane's text. Expected text is hand-written from OpenCL C 3.0 §6.15.14 and
 * C99 7.19.6.1 (and the spec's own examples); a random sweep additionally compares floating-point
 * conversions with the host C library's snprintf (glibc converts exactly, ties to even — a
 * differently written reference).
 */
#include "builtins_harness.h"
#include "bi_impl.h"

#include <float.h>
#include <limits.h>
#include <stdlib.h>

/* ---- fake memory and output -------------------------------------------------------------------------- */

#define MEM_BASE 0x10000ull
#define MEM_SIZE 8192
static uint8_t membuf[MEM_SIZE];
static size_t memused;
static fake_mem fm;

/* Place a string (with its NUL unless `nul` is false) in memory; returns its address. */
static uint64_t put_bytes(const char *s, size_t n, bool nul) {
  assert_true(memused + n + (nul ? 1 : 0) <= MEM_SIZE);
  const uint64_t a = MEM_BASE + memused;
  memcpy(membuf + memused, s, n);
  memused += n;
  if (nul) membuf[memused++] = 0;
  return a;
}
static uint64_t put_str(const char *s) { return put_bytes(s, strlen(s), true); }

#define LANES 4
typedef struct sink {
  bi_out out;
  char text[LANES][8192];
  size_t len[LANES];
  unsigned writes;
} sink;

static void sink_write(void *ctx, unsigned lane, const char *text, size_t len) {
  sink *s = ctx;
  assert_true(lane < LANES);
  assert_true(s->len[lane] + len < sizeof s->text[lane]);
  memcpy(s->text[lane] + s->len[lane], text, len);
  s->len[lane] += len;
  s->writes++;
}

static void sink_init(sink *s) {
  memset(s, 0, sizeof *s);
  s->out.ctx = s;
  s->out.write = sink_write;
}

/* ---- arguments ---------------------------------------------------------------------------------------- */

typedef struct arg {
  bi_type t;
  uint8_t b[128];
} arg;

static arg A_int(unsigned bits, int64_t v) {
  arg a = {.t = ti(bits, 1)};
  put_elem(a.b, bits / 8, (uint64_t)v);
  return a;
}
static arg A_i32(int32_t v) { return A_int(32, v); }
static arg A_i64(int64_t v) { return A_int(64, v); }
static arg A_f64(double v) {
  arg a = {.t = tf(64, 1)};
  memcpy(a.b, &v, 8);
  return a;
}
static arg A_f32(float v) {
  arg a = {.t = tf(32, 1)};
  memcpy(a.b, &v, 4);
  return a;
}
static arg A_h(double v) {
  arg a = {.t = tf(16, 1)};
  put_elem(a.b, 2, bi_half_from_double(v, BI_RTE));
  return a;
}
static arg A_ptr(unsigned bits, uint64_t v) {
  arg a = {.t = tptr(bits, BI_INT, 8)};
  a.t.storage = 0; /* UniformConstant */
  put_elem(a.b, bits / 8, v);
  return a;
}
static arg A_str(const char *s) { return A_ptr(64, put_str(s)); }
static arg A_ivec(unsigned bits, unsigned n, const int64_t *v) {
  arg a = {.t = ti(bits, n)};
  for (unsigned k = 0; k < n; k++) put_elem(a.b + k * bits / 8, bits / 8, (uint64_t)v[k]);
  return a;
}
static arg A_fvec(unsigned bits, unsigned n, const double *v) {
  arg a = {.t = tf(bits, n)};
  for (unsigned k = 0; k < n; k++) {
    if (bits == 16) put_elem(a.b + 2 * k, 2, bi_half_from_double(v[k], BI_RTE));
    else if (bits == 32) {
      const float f = (float)v[k];
      memcpy(a.b + 4 * k, &f, 4);
    } else memcpy(a.b + 8 * k, &v[k], 8);
  }
  return a;
}

/* ---- running printf ------------------------------------------------------------------------------------
 * One call for `nl` lanes (lane l gets format fmt[l] and arguments args[l][]); registers are laid out
 * lane-major with odd strides. Returns the builtin's bool; ret[l] the int results. */
static bool call_printf(unsigned nl, const uint64_t *fmt_addr, unsigned ptrbits, const arg (*args)[5], unsigned nargs,
                        const uint16_t *lanes, unsigned nlanes, sink *out, int32_t *ret, bool with_mem) {
  bi_type types[6];
  types[0] = A_ptr(ptrbits, 0).t;
  for (unsigned i = 0; i < nargs; i++) types[i + 1] = args[0][i].t;
  const bi_resolved r = must_resolve(OCLSTD_printf, ti(32, 1), types, nargs + 1, 0);
  static uint8_t regs[6][LANES * 200], dst[LANES * 8];
  bi_call c;
  memset(&c, 0, sizeof c);
  memset(dst, 0xA5, sizeof dst);
  c.dst = dst;
  c.dst_stride = 7;
  for (unsigned i = 0; i <= nargs; i++) {
    c.src[i] = regs[i];
    c.src_stride[i] = 197 - i;
    for (unsigned l = 0; l < nl; l++) {
      if (i == 0) put_elem(regs[0] + l * c.src_stride[0], ptrbits / 8, fmt_addr[l]);
      else memcpy(regs[i] + l * c.src_stride[i], args[l][i - 1].b, sizeof args[l][i - 1].b);
    }
  }
  c.lanes = lanes;
  c.nlanes = nlanes;
  c.mem = with_mem ? &fm.mem : NULL;
  c.out = &out->out;
  c.literal = r.literal;
  c.types = types;
  c.nsrc = nargs + 1;
  const bool ok = r.fn(&c);
  for (unsigned l = 0; l < nl; l++) ret[l] = (int32_t)get_elem(dst + l * 7, 4);
  return ok;
}

static int setup(void **state) {
  (void)state;
  memused = 0;
  memset(membuf, 0, sizeof membuf);
  fake_mem_init(&fm, membuf, MEM_BASE, MEM_SIZE);
  return 0;
}

/* printf(fmt, args...) on one lane: the text must be `want` (NULL: the call is invalid — nothing
 * printed, result -1). */
static void check_n(const char *fmt, const arg *args, unsigned nargs, const char *want, size_t want_len) {
  const uint64_t f = put_str(fmt);
  arg a[1][5];
  if (nargs) memcpy(a[0], args, nargs * sizeof *args);
  sink s;
  sink_init(&s);
  int32_t ret[1];
  const uint16_t lane0[1] = {0};
  assert_true(call_printf(1, &f, 64, (const arg(*)[5])a, nargs, lane0, 1, &s, ret, true));
  if (!want) {
    if (ret[0] != -1 || s.len[0])
      fail_msg("printf(\"%s\"): expected an invalid call, got %d \"%.*s\"", fmt, ret[0], (int)s.len[0], s.text[0]);
    return;
  }
  if (ret[0] != 0 || s.len[0] != want_len || memcmp(s.text[0], want, want_len))
    fail_msg("printf(\"%s\"): got %d \"%.*s\", want \"%s\"", fmt, ret[0], (int)s.len[0], s.text[0], want);
  assert_true(s.writes <= 1);
}
static void check(const char *fmt, const arg *args, unsigned nargs, const char *want) {
  check_n(fmt, args, nargs, want, want ? strlen(want) : 0);
}
#define CHECK(fmt, want, ...)                       \
  do {                                              \
    const arg a_[] = {__VA_ARGS__};                 \
    check(fmt, a_, sizeof a_ / sizeof a_[0], want); \
  } while (0)
#define CHECK0(fmt, want) check(fmt, NULL, 0, want)

/* ---- conversions ---------------------------------------------------------------------------------------- */

static void t_text(void **state) {
  (void)state;
  CHECK0("hello world\n", "hello world\n");
  CHECK0("100%%", "100%");
  CHECK0("%%%%", "%%");
  CHECK0("", "");
  CHECK("%d\n", "7\n", A_i32(7), A_i32(8)); /* excess arguments are ignored */
}

static void t_integers(void **state) {
  (void)state;
  CHECK("%d", "-2147483648", A_i32(INT32_MIN));
  CHECK("%i|%d", "0|-1", A_i32(0), A_i32(-1));
  CHECK("%u", "4294967295", A_i32(-1));
  CHECK("%x %X %o", "ff FF 377", A_i32(255), A_i32(255), A_i32(255));
  CHECK("%#x", "0xff", A_i32(255));
  CHECK("%#X", "0XABC", A_i32(0xabc));
  CHECK("%#x", "0", A_i32(0)); /* no prefix for 0 */
  CHECK("%#o|%#o|%#.0o", "010|0|0", A_i32(8), A_i32(0), A_i32(0));
  CHECK("%.0d|%.0x|", "||", A_i32(0), A_i32(0));
  CHECK("%5.3d|%-5.3d|%05.3d", "  007|007  |  007", A_i32(7), A_i32(7), A_i32(7)); /* 0 ignored with a precision */
  CHECK("%05d|%-05d|", "-0042|-42  |", A_i32(-42), A_i32(-42));
  CHECK("%+d|% d|%+ d|% d", "+5| 5|+5|-5", A_i32(5), A_i32(5), A_i32(5), A_i32(-5));
  CHECK("%+u|% x", "5|5", A_i32(5), A_i32(5)); /* + and space only for signed conversions */
  CHECK("%-5d|", "42   |", A_i32(42));
  CHECK("%5d|", "   42|", A_i32(42));
  CHECK("%#08x", "0x0000ff", A_i32(255));
  CHECK("%hhd|%hhu|%hhx", "44|255|ff", A_i32(300), A_i32(-1), A_i32(-1)); /* converted to char */
  CHECK("%hd|%hu|%hx", "4464|65535|ffff", A_i32(70000), A_i32(-1), A_i32(-1));
  CHECK("%ld", "-9223372036854775808", A_i64(INT64_MIN));
  CHECK("%lu|%lx|%lo", "18446744073709551615|ffffffffffffffff|1777777777777777777777", A_i64(-1), A_i64(-1), A_i64(-1));
  CHECK("%zu|%zd|%tx", "4294967295|-1|ffffffff", A_i32(-1), A_i32(-1), A_i32(-1)); /* size_t of Physical32 */
  CHECK("%zu|%td", "18446744073709551615|-1", A_i64(-1), A_i64(-1));
  CHECK("%d|%u|%hhd", "-1|255|-1", A_int(8, -1), A_int(8, -1), A_int(8, -1)); /* narrow (hand-written SPIR-V) */
  CHECK("%d|%x", "-2|fffe", A_int(16, -2), A_int(16, -2));
}

static void t_floats(void **state) {
  (void)state;
  CHECK("%f", "1.500000", A_f64(1.5));
  CHECK("%5.2f|", " 3.14|", A_f64(3.14159));
  CHECK("%-8.3f|%08.3f", "-3.142  |-003.142", A_f64(-3.14159), A_f64(-3.14159));
  CHECK("%.0f %.0f %.0f %.0f", "0 2 2 -4", A_f64(0.5), A_f64(1.5), A_f64(2.5), A_f64(-3.5)); /* ties to even */
  CHECK("%#.0f|%.1f|%.1f", "3.|0.1|0.1", A_f64(3.0), A_f64(0.05),
        A_f64(0.15)); /* 0.05 is 0.05000...0277, 0.15 is 0.1499...944 */
  CHECK("%.3f", "0.000", A_f64(1e-10));
  CHECK("%.3f", "-0.000", A_f64(-1e-10));
  CHECK("%.20f", "0.10000000000000000555", A_f64(0.1));
  CHECK("%.0f|%.0f", "18446744073709551616|1267650600228229401496703205376", A_f64(0x1p64), A_f64(0x1p100));
  CHECK("%f", "100000000000000000000.000000", A_f64(1e20));
  CHECK("%e|%E", "1.234568e+04|1.234568E+04", A_f64(12345.678), A_f64(12345.678));
  CHECK("%.0e|%#.0e|%.2e|%.2e", "2e+10|3.e+00|9.99e-01|1.00e+00", A_f64(2.5e10), A_f64(3.0), A_f64(0.999),
        A_f64(0.9999));
  CHECK("%e|%e", "0.000000e+00|-0.000000e+00", A_f64(0.0), A_f64(-0.0));
  CHECK("%.3e|%e", "4.941e-324|1.797693e+308", A_f64(0x1p-1074), A_f64(DBL_MAX));
  CHECK("%g|%g|%g|%g", "100000|1e+06|0.0001|1e-05", A_f64(100000.0), A_f64(1e6), A_f64(0.0001), A_f64(0.00001));
  CHECK("%g|%#g|%G|%.3g", "1|1.00000|1E-05|0.000123", A_f64(1.0), A_f64(1.0), A_f64(0.00001), A_f64(0.0001234));
  CHECK("%.0g|%#.0g|%g|%.17g", "0|0.|0|0.10000000000000001", A_f64(0.0), A_f64(0.0), A_f64(0.0), A_f64(0.1));
  CHECK("%g|%g", "123457|1.23457e+06", A_f64(123456.7), A_f64(1234567.0));
  CHECK("%g|%g", "100|1e+06", A_f64(99.9999999), A_f64(999999.5)); /* rounding carries change X */
  CHECK("%a|%A|%a", "0x1p+0|0X1P+0|-0x1.8p+1", A_f64(1.0), A_f64(1.0), A_f64(-3.0));
  CHECK("%a|%.1a|%.1a|%.0a", "0x1.99999ap-4|0x1.0p+0|0x1.2p+0|0x2p+0", A_f64((double)0.1f), A_f64(0x1.08p0),
        A_f64(0x1.18p0), A_f64(1.5)); /* hex rounding: ties to even */
  CHECK("%a|%a|%#.0a", "0x0p+0|0x0.0000000000001p-1022|0x1.p+0", A_f64(0.0), A_f64(0x1p-1074), A_f64(1.0));
  CHECK("%010a|%-10a|", "0x001.8p+0|0x1.8p+0  |", A_f64(1.5), A_f64(1.5));
  CHECK("%f|%F|%e|%g|%a", "inf|INF|-inf|inf|-inf", A_f64(INFINITY), A_f64(INFINITY), A_f64(-INFINITY), A_f64(INFINITY),
        A_f64(-INFINITY));
  CHECK("%f|%F|%+f|% e|%f", "nan|NAN|+nan| nan|-nan", A_f64(NAN), A_f64(NAN), A_f64(NAN), A_f64(NAN), A_f64(-NAN));
  CHECK("%010f|%-6f|%06F", "       inf|inf   |   INF", A_f64(INFINITY), A_f64(INFINITY), A_f64(INFINITY));
  /* scalar float and half arguments (accepted unpromoted), %lf (C99: no effect) */
  CHECK("%f|%.10f|%lf", "0.100000|0.1000000015|2.500000", A_f32(0.1f), A_f32(0.1f), A_f64(2.5));
  CHECK("%f|%a", "0.099976|0x1.998p-4", A_h(0.1), A_h(0.1));
}

static void t_vectors(void **state) {
  (void)state;
  const double f4[4] = {1, 2, 3, 4};
  CHECK("%v4hlf", "1.000000,2.000000,3.000000,4.000000", A_fvec(32, 4, f4));
  CHECK("f4 = %2.2v4hlf\n", "f4 = 1.00,2.00,3.00,4.00\n", A_fvec(32, 4, f4)); /* the spec's example */
  const int64_t uc[4] = {0xFA, 0xFB, 0xFC, 0xFD};
  CHECK("uc = %#v4hhx\n", "uc = 0xfa,0xfb,0xfc,0xfd\n", A_ivec(8, 4, uc)); /* the spec's example */
  const int64_t c2[2] = {-1, 127};
  CHECK("%v2hhd|%v2hhu", "-1,127|255,127", A_ivec(8, 2, c2), A_ivec(8, 2, c2));
  const int64_t s3[3] = {-2, 0, 32767};
  CHECK("%v3hd|%5v3hx|", "-2,0,32767| fffe,    0, 7fff|", A_ivec(16, 3, s3), A_ivec(16, 3, s3));
  const int64_t i8[8] = {1, -2, 3, -4, 5, -6, 7, -8};
  CHECK("%v8hli", "1,-2,3,-4,5,-6,7,-8", A_ivec(32, 8, i8));
  const int64_t l2[2] = {INT64_MIN, -1};
  CHECK("%v2ld|%v2lu", "-9223372036854775808,-1|9223372036854775808,18446744073709551615", A_ivec(64, 2, l2),
        A_ivec(64, 2, l2));
  int64_t u16[16];
  for (int k = 0; k < 16; k++) u16[k] = k;
  CHECK("%v16hhx", "0,1,2,3,4,5,6,7,8,9,a,b,c,d,e,f", A_ivec(8, 16, u16));
  const double h2[2] = {1.5, -0.25};
  CHECK("%v2hf|%v2ha|%v2hg", "1.500000,-0.250000|0x1.8p+0,-0x1p-2|1.5,-0.25", A_fvec(16, 2, h2), A_fvec(16, 2, h2),
        A_fvec(16, 2, h2));
  const double d2[2] = {0.1, 1e300};
  CHECK(
    "%v2le|%.1v2lf",
    "1.000000e-01,1.000000e+300|0.1,1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540160.0",
    A_fvec(64, 2, d2), A_fvec(64, 2, d2));
}

static void t_text_convs(void **state) {
  (void)state;
  CHECK("%s|%10s|%-10s|%.3s|%.0s|", "hello|     hello|hello     |hel||", A_str("hello"), A_str("hello"), A_str("hello"),
        A_str("hello"), A_str("hello"));
  CHECK("[%s]", "[]", A_str(""));
  CHECK("%c%c%3c|%-3c|", "Ab  c|d  |", A_i32('A'), A_i32('b'), A_i32('c'), A_i32('d'));
  CHECK("%c", "A", A_i32(0x141)); /* converted to unsigned char */
  {
    const arg a[] = {A_i32('x'), A_i32(0), A_i32('y')};
    check_n("%c%c%c", a, 3, "x\0y", 3); /* a NUL character is written */
  }
  CHECK("%p|%p|%p", "0x18000000010|0x80000004|0x0", A_ptr(64, 0x18000000010ull), A_ptr(32, 0x80000004u), A_ptr(64, 0));
  CHECK("%16p|%-8p|", "   0x18000000010|0x1     |", A_ptr(64, 0x18000000010ull), A_ptr(64, 1));
  /* %.3s reads at most 3 bytes: a string without a terminator at the very end of memory is fine */
  memused = MEM_SIZE - 3;
  const uint64_t tail = put_bytes("xyz", 3, false);
  memused = 0;
  CHECK("%.3s|%.2s", "xyz|xy", A_ptr(64, tail), A_ptr(64, tail));
}

static void t_star(void **state) {
  (void)state;
  CHECK("%*d|", "   42|", A_i32(5), A_i32(42));
  CHECK("%-*d|", "42   |", A_i32(5), A_i32(42));
  CHECK("%*d|", "42   |", A_i32(-5), A_i32(42));                                        /* negative width: - flag */
  CHECK("%.*f|%.*f", "3.14|1.500000", A_i32(2), A_f64(3.14159), A_i32(-1), A_f64(1.5)); /* negative: none */
  CHECK("%*.*f|", "  3.1|", A_i32(5), A_i32(1), A_f64(3.14159));
  CHECK("%*d", NULL, A_f64(5), A_i32(1)); /* the width must be an int */
}

static void t_invalid(void **state) {
  (void)state;
  const double f4[4] = {1, 2, 3, 4};
  CHECK("abc %n", NULL, A_i32(1)); /* reserved conversion; nothing printed */
  CHECK("%q", NULL, A_i32(1));
  CHECK("%lld", NULL, A_i64(1));
  CHECK("%jd|%Lf", NULL, A_i64(1), A_f64(1));
  CHECK("%v3hlf", NULL, A_fvec(32, 4, f4)); /* size mismatch */
  CHECK("%v4f", NULL, A_fvec(32, 4, f4));   /* vector without length modifier */
  CHECK("%v5hld", NULL, A_fvec(32, 4, f4));
  CHECK("%v4lf", NULL, A_fvec(32, 4, f4));  /* element type mismatch */
  CHECK("%v4hld", NULL, A_fvec(32, 4, f4)); /* int conversion, float vector */
  CHECK("%hlf", NULL, A_f64(1));            /* hl only with vectors */
  CHECK("%hld", NULL, A_i32(1));
  CHECK("%hf|%hhf", NULL, A_f64(1), A_f64(1));
  CHECK("%d %d", NULL, A_i32(1)); /* too few arguments */
  CHECK("%d", NULL, A_i64(1));    /* 64-bit argument without l */
  CHECK("%ld", NULL, A_i32(1));
  CHECK("%f", NULL, A_i32(1));
  CHECK("%d", NULL, A_f64(1));
  CHECK("%s", NULL, A_i32(1));
  CHECK("%p", NULL, A_i64(1));
  CHECK("%c", NULL, A_i64(65));
  CHECK("%lc|%ls", NULL, A_i32(65), A_str("x"));
  CHECK("%v2c", NULL, A_i32(65));
  CHECK("%5%", NULL, A_i32(1));    /* only the complete "%%" */
  CHECK0("abc%", NULL);            /* cut off */
  CHECK("%4096d", NULL, A_i32(1)); /* above the 4095 limit */
  CHECK("%.4096f", NULL, A_f64(1));
  CHECK("%4095d", NULL, A_i64(1)); /* (mismatch, not the limit) */
  const int64_t i2[2] = {1, 2};
  CHECK("%v2hd", NULL, A_ivec(32, 2, i2)); /* the spec's invalid example: uint2 as short2 */
}

static void t_limits_ok(void **state) {
  (void)state;
  /* the largest allowed width and precision */
  static char want[4200];
  memset(want, ' ', 4094);
  want[4094] = '7';
  want[4095] = 0;
  CHECK("%4095d", want, A_i32(7));
  memset(want, '0', 4097);
  want[0] = '1';
  want[1] = '.';
  want[4097] = 0;
  CHECK("%.4095f", want, A_f64(1.0));
  CHECK("%.100000s", "hi", A_str("hi")); /* %s precision only bounds the read */
}

/* ---- lanes, pointers, faults --------------------------------------------------------------------------- */

static void t_lanes(void **state) {
  (void)state;
  const uint64_t f[LANES] = {put_str("a=%d\n"), put_str("a=%d\n"), put_str("[%x]"), put_str("%n")};
  arg a[LANES][5];
  for (unsigned l = 0; l < LANES; l++) a[l][0] = A_i32((int32_t)(10 * l + 1));
  sink s;
  sink_init(&s);
  int32_t ret[LANES];
  const uint16_t lanes[3] = {3, 0, 2}; /* lane 1 inactive */
  assert_true(call_printf(LANES, f, 64, (const arg(*)[5])a, 1, lanes, 3, &s, ret, true));
  assert_int_equal(s.len[0], 4);
  assert_memory_equal(s.text[0], "a=1\n", 4);
  assert_int_equal(s.len[1], 0);
  assert_int_equal(s.len[2], 4);
  assert_memory_equal(s.text[2], "[15]", 4);
  assert_int_equal(s.len[3], 0); /* invalid on lane 3 only */
  assert_int_equal(ret[0], 0);
  assert_int_equal(ret[2], 0);
  assert_int_equal(ret[3], -1);
  assert_int_equal((uint32_t)ret[1], 0xA5A5A5A5u); /* inactive lane untouched */
  assert_int_equal(s.writes, 2);
}

static void t_ptr32_and_faults(void **state) {
  (void)state;
  sink s;
  int32_t ret[LANES];
  const uint16_t lanes[2] = {0, 1};
  arg a[LANES][5];
  /* a 32-bit format pointer */
  const uint64_t f32[2] = {put_str("32:%s"), put_str("32:%s")};
  a[0][0] = A_ptr(32, put_str("ok"));
  a[1][0] = a[0][0];
  sink_init(&s);
  assert_true(call_printf(2, f32, 32, (const arg(*)[5])a, 1, lanes, 2, &s, ret, true));
  assert_int_equal(s.len[1], 5);
  assert_memory_equal(s.text[1], "32:ok", 5);
  /* lane 1's format pointer is out of bounds: lane 0 printed, then the fault */
  const uint64_t fbad[2] = {put_str("first"), MEM_BASE + MEM_SIZE + 16};
  sink_init(&s);
  fm.faults = 0;
  assert_false(call_printf(2, fbad, 64, (const arg(*)[5])a, 0, lanes, 2, &s, ret, true));
  assert_int_equal(fm.faults, 1);
  assert_int_equal(fm.fault_lane, 1);
  assert_int_equal(s.len[0], 5);
  assert_int_equal(s.len[1], 0);
  /* a format without its terminator before the end of memory faults at the end */
  memused = MEM_SIZE - 4;
  const uint64_t unterminated[1] = {put_bytes("abcd", 4, false)};
  memused = 64;
  sink_init(&s);
  fm.faults = 0;
  assert_false(call_printf(1, unterminated, 64, (const arg(*)[5])a, 0, lanes, 1, &s, ret, true));
  assert_int_equal(fm.faults, 1);
  assert_int_equal(fm.last_ptr, MEM_BASE + MEM_SIZE);
  assert_int_equal(s.len[0], 0);
  /* a %s pointer out of bounds: fault, nothing printed for the lane */
  const uint64_t fs[1] = {put_str("x%sy")};
  a[0][0] = A_ptr(64, 0x5);
  sink_init(&s);
  fm.faults = 0;
  assert_false(call_printf(1, fs, 64, (const arg(*)[5])a, 1, lanes, 1, &s, ret, true));
  assert_int_equal(fm.faults, 1);
  assert_int_equal(s.len[0], 0);
  /* no memory interface: false */
  assert_false(call_printf(1, fs, 64, (const arg(*)[5])a, 1, lanes, 1, &s, ret, false));
}

static void t_resolve(void **state) {
  (void)state;
  bi_type t[BI_MAX_OPERANDS + 1];
  t[0] = A_ptr(64, 0).t;
  for (unsigned i = 1; i <= BI_MAX_OPERANDS; i++) t[i] = ti(32, 1);
  must_resolve(OCLSTD_printf, ti(32, 1), t, 1, 0);
  must_resolve(OCLSTD_printf, ti(32, 1), t, 6, 0);
  must_resolve(OCLSTD_printf, ti(32, 1), t, BI_MAX_OPERANDS, 0); /* a format and 63 arguments */
  expect_resolve_error(OCLSTD_printf, ti(32, 1), t, 0, 0, "OpenCL.std `printf` takes 1 to 64 operands, not 0");
  expect_resolve_error(OCLSTD_printf, ti(32, 1), t, 65, 0, "OpenCL.std `printf` takes 1 to 64 operands, not 65");
  expect_resolve_error(OCLSTD_printf, tf(32, 1), t, 1, 0,
                       "OpenCL.std `printf`: the result type is float, expected int");
  t[1] = ty(BI_BOOL, 8, 1);
  expect_resolve_error(
    OCLSTD_printf, ti(32, 1), t, 2, 0,
    "OpenCL.std `printf`: operand 2 has type bool, expected an integer, floating-point or pointer value");
  t[1] = ti(32, 1);
  t[0] = ti(64, 1);
  expect_resolve_error(OCLSTD_printf, ti(32, 1), t, 1, 0,
                       "OpenCL.std `printf`: operand 1 has type long, expected a pointer");
  /* every argument shape resolves: integer/float elements, all widths; pointers */
  t[0] = A_ptr(32, 0).t;
  static const unsigned w[6] = {1, 2, 3, 4, 8, 16};
  for (unsigned k = 0; k < 6; k++) {
    t[1] = ti(8, w[k]);
    t[2] = ti(64, w[k]);
    t[3] = tf(16, w[k]);
    t[4] = tf(64, w[k]);
    t[5] = A_ptr(32, 0).t;
    must_resolve(OCLSTD_printf, ti(32, 1), t, 6, 0);
  }
}

/* ---- random floating-point conversions against the host's snprintf ---------------------------------------- */

static void t_random_vs_libc(void **state) {
  (void)state;
  static const char convs[] = "fFeEgGaA";
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  char fmt[64], want[4096];
  for (int it = 0; it < 20000; it++) {
    memused = 0;
    double v;
    const uint64_t r = rng_next(&seed);
    if (r % 3 == 0) v = bdouble(rng_next(&seed));
    else if (r % 3 == 1) v = (double)bfloat((uint32_t)rng_next(&seed));
    else v = (double)(int64_t)(rng_next(&seed) % 2000001 - 1000000) / (double)(1u << (rng_next(&seed) % 24));
    if (isnan(v)) continue;
    const char conv = convs[rng_next(&seed) % 8];
    int prec = (int)(rng_next(&seed) % 22) - 2;
    if ((conv == 'f' || conv == 'F') && fabs(v) > 1e40) prec = prec > 3 ? 3 : prec;
    char flags[8];
    int nf = 0;
    if (rng_next(&seed) % 4 == 0) flags[nf++] = '-';
    if (rng_next(&seed) % 4 == 0) flags[nf++] = '+';
    if (rng_next(&seed) % 4 == 0) flags[nf++] = ' ';
    if (rng_next(&seed) % 4 == 0) flags[nf++] = '#';
    if (rng_next(&seed) % 4 == 0) flags[nf++] = '0';
    flags[nf] = 0;
    const int width = (int)(rng_next(&seed) % 30);
    if (prec >= 0) snprintf(fmt, sizeof fmt, "%%%s%d.%d%c", flags, width, prec, conv);
    else snprintf(fmt, sizeof fmt, "%%%s%d%c", flags, width, conv);
    snprintf(want, sizeof want, fmt, v);
    CHECK(fmt, want, A_f64(v));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup(t_text, setup),       cmocka_unit_test_setup(t_integers, setup),
    cmocka_unit_test_setup(t_floats, setup),     cmocka_unit_test_setup(t_vectors, setup),
    cmocka_unit_test_setup(t_text_convs, setup), cmocka_unit_test_setup(t_star, setup),
    cmocka_unit_test_setup(t_invalid, setup),    cmocka_unit_test_setup(t_limits_ok, setup),
    cmocka_unit_test_setup(t_lanes, setup),      cmocka_unit_test_setup(t_ptr32_and_faults, setup),
    cmocka_unit_test_setup(t_resolve, setup),    cmocka_unit_test_setup(t_random_vs_libc, setup),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
