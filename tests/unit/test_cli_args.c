/*
 * test_cli_args.c — unit tests of the `spvi` command's pure modules: literals and type ranges
 * (cli_num), element types (cli_types), argument grammar and parameter matching (cli_args),
 * the random generator (cli_random), .npy files (cli_npy) and run options (cli_cmdline).
 *
 * It links the command's modules as the command does (the Makefile's test_cli_% rule: cli/'s
 * objects without main.o, and the library for image formats and memory objects). Every
 * expected value below is derived by hand (or, for the random stream, from the published
 * SplitMix64 definition evaluated independently), never taken from the code under test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_types.h"
#include "cli_num.h"
#include "cli_random.h"
#include "cli_npy.h"
#include "cli_args.h"
#include "cli_cmdline.h"

/* ---- helpers ------------------------------------------------------------------------------- */

static const cli_scalar *T(const char *name) {
  const cli_scalar *s = cli_scalar_by_name(name, strlen(name));
  assert_non_null(s);
  return s;
}

/* Parses `text` as a literal of `type` and returns its bits; fails the test on error. */
static uint64_t lit(const char *type, const char *text) {
  uint64_t bits = 0xdeadbeef;
  cli_error e = {""};
  if (!cli_scalar_parse(T(type), text, strlen(text), &bits, &e)) fail_msg("%s:%s: %s", type, text, e.msg);
  return bits;
}

/* Expects `text` to be rejected as a `type` literal with a message containing `needle`. */
static void lit_err(const char *type, const char *text, const char *needle) {
  uint64_t bits;
  cli_error e = {""};
  if (cli_scalar_parse(T(type), text, strlen(text), &bits, &e))
    fail_msg("%s:%s accepted (bits 0x%llx)", type, text, (unsigned long long)bits);
  if (!strstr(e.msg, needle)) fail_msg("%s:%s: message `%s` lacks `%s`", type, text, e.msg, needle);
}

static cli_arg buf_ok(const char *text) {
  cli_arg a;
  cli_error e = {""};
  if (!cli_parse_buffer(text, &a, &e)) fail_msg("%s: %s", text, e.msg);
  return a;
}

/* TYPE=@PATH, e.g. "float[]" and a file: buf_ok / buf_err of that argument. */
static cli_arg file_ok(const char *type, const char *path) {
  char arg[300];
  snprintf(arg, sizeof arg, "%s=@%s", type, path);
  return buf_ok(arg);
}

static void buf_err(const char *text, const char *needle) {
  cli_arg a;
  cli_error e = {""};
  if (cli_parse_buffer(text, &a, &e)) {
    cli_arg_free(&a);
    fail_msg("%s accepted", text);
  }
  if (!strstr(e.msg, needle)) fail_msg("%s: message `%s` lacks `%s`", text, e.msg, needle);
}

static void file_err(const char *type, const char *path, const char *needle) {
  char arg[300];
  snprintf(arg, sizeof arg, "%s=@%s", type, path);
  buf_err(arg, needle);
}

static uint32_t u32_at(const cli_arg *a, size_t i) { return (uint32_t)cli_load_le(a->data + 4 * i, 4); }
static uint16_t u16_at(const cli_arg *a, size_t i) { return (uint16_t)cli_load_le(a->data + 2 * i, 2); }
static uint64_t u64_at(const cli_arg *a, size_t i) { return cli_load_le(a->data + 8 * i, 8); }

static uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static char tmp_dir[64];

static void tmp_path(char *buf, size_t cap, const char *name) { snprintf(buf, cap, "%s/%s", tmp_dir, name); }

static void write_bytes(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(data, 1, n, f), n);
  assert_int_equal(fclose(f), 0);
}

/* ---- element types ----------------------------------------------------------------------------- */

static void test_elem_types(void **state) {
  (void)state;
  cli_elem t;
  assert_true(cli_elem_parse("float4", 6, &t));
  assert_string_equal(t.scalar->name, "float");
  assert_int_equal(t.width, 4);
  assert_int_equal(cli_elem_size(t), 16);
  assert_true(cli_elem_parse("float3", 6, &t));
  assert_int_equal(cli_elem_slots(t), 4);
  assert_int_equal(cli_elem_size(t), 16); /* sizeof(float3) == 16 */
  assert_true(cli_elem_parse("uchar16", 7, &t));
  assert_int_equal(t.width, 16);
  assert_int_equal(cli_elem_size(t), 16);
  assert_true(cli_elem_parse("half3", 5, &t));
  assert_int_equal(cli_elem_size(t), 8);
  assert_true(cli_elem_parse("double", 6, &t));
  assert_int_equal(cli_elem_size(t), 8);
  assert_false(cli_elem_parse("float5", 6, &t));
  assert_false(cli_elem_parse("float1", 6, &t));
  assert_false(cli_elem_parse("bool", 4, &t));
  assert_false(cli_elem_parse("flaot", 5, &t));
  assert_false(cli_elem_parse("", 0, &t));
  /* The dtype column of the table, as the NumPy format names these types. */
  const char *expect[][2] = {{"char", "|i1"}, {"uchar", "|u1"}, {"short", "<i2"}, {"ushort", "<u2"},
                             {"int", "<i4"},  {"uint", "<u4"},  {"long", "<i8"},  {"ulong", "<u8"},
                             {"half", "<f2"}, {"float", "<f4"}, {"double", "<f8"}};
  assert_int_equal(cli_scalar_count, 11);
  for (size_t i = 0; i < 11; i++) assert_string_equal(T(expect[i][0])->npy, expect[i][1]);
  char buf[24];
  assert_true(cli_elem_parse("int3", 4, &t));
  assert_string_equal(cli_elem_name(t, buf, sizeof buf), "int3");
}

/* ---- integer literals ------------------------------------------------------------------------ */

static void test_int_limits(void **state) {
  (void)state;
  assert_int_equal(lit("char", "-128"), 0x80);
  assert_int_equal(lit("char", "127"), 0x7f);
  lit_err("char", "-129", "out of range for char (-128..127)");
  lit_err("char", "128", "out of range for char");
  assert_int_equal(lit("uchar", "255"), 0xff);
  assert_int_equal(lit("uchar", "0"), 0);
  lit_err("uchar", "256", "out of range for uchar (0..255)");
  lit_err("uchar", "-1", "out of range for uchar");
  assert_int_equal(lit("short", "-32768"), 0x8000);
  assert_int_equal(lit("short", "32767"), 0x7fff);
  lit_err("short", "-32769", "out of range for short");
  lit_err("short", "32768", "out of range for short");
  assert_int_equal(lit("ushort", "65535"), 0xffff);
  lit_err("ushort", "65536", "out of range for ushort");
  assert_int_equal(lit("int", "-2147483648"), 0x80000000u);
  assert_int_equal(lit("int", "2147483647"), 0x7fffffffu);
  assert_int_equal(lit("int", "-3") & 0xffffffffu, 0xfffffffdu);
  lit_err("int", "2147483648", "out of range for int");
  lit_err("int", "3000000000", "out of range for int");
  lit_err("int", "-2147483649", "out of range for int");
  assert_int_equal(lit("uint", "4294967295"), 0xffffffffu);
  lit_err("uint", "4294967296", "out of range for uint");
  assert_true(lit("long", "-9223372036854775808") == UINT64_C(0x8000000000000000));
  assert_true(lit("long", "9223372036854775807") == UINT64_C(0x7fffffffffffffff));
  lit_err("long", "9223372036854775808", "out of range for long");
  lit_err("long", "-9223372036854775809", "out of range for long");
  assert_true(lit("ulong", "18446744073709551615") == UINT64_MAX);
  lit_err("ulong", "18446744073709551616", "out of range for ulong");
  lit_err("ulong", "99999999999999999999999", "out of range for ulong");
  assert_int_equal(lit("uint", "-0"), 0);
  assert_int_equal(lit("int", "+7"), 7);
  assert_int_equal(lit("int", "007"), 7); /* leading zeros are decimal, not octal */
}

static void test_int_hex_and_syntax(void **state) {
  (void)state;
  assert_int_equal(lit("uint", "0x10"), 16);
  assert_int_equal(lit("uint", "0XfF"), 255);
  assert_int_equal(lit("int", "-0x80000000"), 0x80000000u);
  lit_err("int", "0x80000000", "out of range for int");
  assert_true(lit("ulong", "0xFFFFFFFFFFFFFFFF") == UINT64_MAX);
  lit_err("ulong", "0x10000000000000000", "out of range for ulong");
  lit_err("int", "1.0", "not an integer");
  lit_err("int", "abc", "not an integer");
  lit_err("int", "0x", "not an integer");
  lit_err("int", "0x1g", "not an integer");
  lit_err("int", " 1", "not an integer");
  lit_err("int", "1 ", "not an integer");
  lit_err("int", "--1", "not an integer");
  lit_err("int", "+", "not an integer");
  lit_err("int", "1e3", "not an integer");
  lit_err("int", "", "empty int value");
}

/* ---- float literals -------------------------------------------------------------------------- */

static void test_float_literals(void **state) {
  (void)state;
  /* 0.1 = 1.6 * 2^-4: exponent field 123 = 0x7b, significand 0.6 * 2^23 = 5033164.8 -> ...cd */
  assert_int_equal(lit("float", "0.1"), 0x3dcccccdu);
  assert_int_equal(lit("float", "0.5"), 0x3f000000u);
  assert_int_equal(lit("float", "0x1.8p-3"), 0x3e400000u); /* 1.5 * 2^-3: field 124 */
  assert_int_equal(lit("float", "-2"), 0xc0000000u);
  assert_int_equal(lit("float", "1e0"), 0x3f800000u);
  assert_int_equal(lit("float", ".5"), 0x3f000000u);
  assert_int_equal(lit("float", "2."), 0x40000000u);
  /* 2^24 + 1 lies halfway between 2^24 and 2^24 + 2: ties go to the even significand. */
  assert_int_equal(lit("float", "16777217"), 0x4b800000u);
  /* 2^24 + 3: halfway between 2^24 + 2 (odd significand 1) and 2^24 + 4 (even, 2). */
  assert_int_equal(lit("float", "16777219"), 0x4b800002u);
  assert_int_equal(lit("float", "3.4028235e38"), 0x7f7fffffu);
  lit_err("float", "3.5e38", "out of range for float");
  lit_err("float", "-1e39", "out of range for float");
  assert_int_equal(lit("float", "1.4e-45"), 0x00000001u); /* smallest subnormal, 2^-149 */
  assert_int_equal(lit("float", "1e-46"), 0x00000000u);   /* below half of it: rounds to 0 */
  assert_int_equal(lit("float", "-0"), 0x80000000u);
  assert_int_equal(lit("float", "inf"), 0x7f800000u);
  assert_int_equal(lit("float", "-inf"), 0xff800000u);
  assert_int_equal(lit("float", "nan"), 0x7fc00000u);
  assert_int_equal(lit("float", "-nan"), 0xffc00000u);
  assert_int_equal(lit("float", "NaN"), 0x7fc00000u);

  assert_true(lit("double", "0.1") == UINT64_C(0x3fb999999999999a));
  assert_true(lit("double", "-2.5") == UINT64_C(0xc004000000000000));
  assert_true(lit("double", "0x1p-1074") == 1);
  assert_true(lit("double", "1.7976931348623157e308") == UINT64_C(0x7fefffffffffffff));
  assert_true(lit("double", "nan") == UINT64_C(0x7ff8000000000000));
  assert_true(lit("double", "-inf") == UINT64_C(0xfff0000000000000));
  lit_err("double", "1e309", "out of range for double");
  /* 1e-300 is normal (> 2^-1022 ~ 2.2e-308): exponent field 1023 + floor(log2(1e-300)) = 1023 - 997 */
  assert_true((lit("double", "1e-300") >> 52) == 1023 - 997);

  lit_err("float", "abc", "not a float value");
  lit_err("float", "1.2.3", "not a float value");
  lit_err("float", "1e", "not a float value");
  lit_err("float", "0x1p", "not a float value");
  lit_err("float", ".", "not a float value");
  lit_err("float", "1f", "not a float value");
  lit_err("float", " 1", "not a float value");
  lit_err("float", "infinity", "not a float value");
  lit_err("float", "nan(1)", "not a float value");
  lit_err("double", "0x", "not a double value");
  lit_err("half", "", "empty half value");
}

static void test_half_rounding(void **state) {
  (void)state;
  /* binary16: 1 sign, 5 exponent (bias 15), 10 significand bits. */
  assert_int_equal(lit("half", "1.5"), 0x3e00); /* 1.1b: field 15 (0x3c00) + 0x200 */
  assert_int_equal(lit("half", "1"), 0x3c00);
  assert_int_equal(lit("half", "-2"), 0xc000);
  /* 0.1 = 1.6 * 2^-4: field 11 (0x2c00); 0.6 * 1024 = 614.4 -> 614 = 0x266 */
  assert_int_equal(lit("half", "0.1"), 0x2e66);
  assert_int_equal(lit("half", "65504"), 0x7bff); /* largest finite */
  assert_int_equal(lit("half", "0x1.ffcp15"), 0x7bff);
  assert_int_equal(lit("half", "65519"), 0x7bff);    /* below the 65520 midpoint */
  lit_err("half", "65520", "out of range for half"); /* the midpoint ties to "even" 2^16 */
  lit_err("half", "1e5", "out of range for half");
  /* 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to the even 0x3c00 ... */
  assert_int_equal(lit("half", "1.00048828125"), 0x3c00);
  /* ... but a hair above the midpoint rounds up. Rounding the decimal to the nearest double
   * first would give exactly the midpoint and then 0x3c00: this checks single rounding. */
  assert_int_equal(lit("half", "1.00048828125000000000001"), 0x3c01);
  assert_int_equal(lit("half", "1.00048828124999999999999"), 0x3c00);
  /* 1 + 3 * 2^-11: halfway between 0x3c01 (odd) and 0x3c02 (even). */
  assert_int_equal(lit("half", "1.00146484375"), 0x3c02);
  assert_int_equal(lit("half", "6.103515625e-05"), 0x0400);        /* 2^-14, smallest normal */
  assert_int_equal(lit("half", "5.9604644775390625e-8"), 0x0001);  /* 2^-24, smallest subnormal */
  assert_int_equal(lit("half", "2.98023223876953125e-8"), 0x0000); /* 2^-25: tie to even 0 */
  assert_int_equal(lit("half", "2.98023223876953125000001e-8"), 0x0001);
  assert_int_equal(lit("half", "-2.98023223876953125e-8"), 0x8000);
  assert_int_equal(lit("half", "8.94069671630859375e-8"), 0x0002); /* 1.5 * 2^-24: tie to 2 */
  assert_int_equal(lit("half", "1e-10"), 0x0000);
  assert_int_equal(lit("half", "-0"), 0x8000);
  assert_int_equal(lit("half", "inf"), 0x7c00);
  assert_int_equal(lit("half", "-inf"), 0xfc00);
  assert_int_equal(lit("half", "nan"), 0x7e00);
  assert_int_equal(lit("half", "-nan"), 0xfe00);
  /* And back: exact values. */
  assert_true(cli_half_to_double(0x3e00) == 1.5);
  assert_true(cli_half_to_double(0x7bff) == 65504.0);
  assert_true(cli_half_to_double(0x0001) == ldexp(1.0, -24));
  assert_true(cli_half_to_double(0x2e66) == 0.0999755859375);
  assert_true(isinf(cli_half_to_double(0xfc00)) && cli_half_to_double(0xfc00) < 0);
  assert_true(isnan(cli_half_to_double(0x7e00)));
}

/* ---- by-value arguments ---------------------------------------------------------------------- */

static void test_value_args(void **state) {
  (void)state;
  cli_arg a;
  cli_error e;
  assert_true(cli_parse_value("float4:1,2,3,4", &a, &e));
  assert_int_equal(a.bytes, 16);
  assert_int_equal(u32_at(&a, 0), 0x3f800000u);
  assert_int_equal(u32_at(&a, 3), 0x40800000u);
  cli_arg_free(&a);
  assert_true(cli_parse_value("float3:1,2,3", &a, &e));
  assert_int_equal(a.bytes, 16); /* a 3-vector occupies 4 slots */
  assert_int_equal(u32_at(&a, 2), 0x40400000u);
  assert_int_equal(u32_at(&a, 3), 0); /* padding */
  cli_arg_free(&a);
  assert_true(cli_parse_value("char:-128", &a, &e));
  assert_int_equal(a.bytes, 1);
  assert_int_equal(a.data[0], 0x80);
  cli_arg_free(&a);
  assert_true(cli_parse_value("short2:-1,0x1234", &a, &e));
  assert_int_equal(a.data[0], 0xff);
  assert_int_equal(a.data[1], 0xff);
  assert_int_equal(a.data[2], 0x34); /* little-endian */
  assert_int_equal(a.data[3], 0x12);
  cli_arg_free(&a);
  assert_true(cli_parse_value("ulong:18446744073709551615", &a, &e));
  assert_true(u64_at(&a, 0) == UINT64_MAX);
  cli_arg_free(&a);

  assert_false(cli_parse_value("uchar4:1,2,3", &a, &e));
  assert_string_equal(e.msg, "4 values expected for uchar4, got 3");
  assert_false(cli_parse_value("int:1,2", &a, &e));
  assert_string_equal(e.msg, "1 value expected for int, got 2");
  assert_false(cli_parse_value("float:abc", &a, &e));
  assert_string_equal(e.msg, "`abc` is not a float value");
  assert_false(cli_parse_value("int:3000000000", &a, &e));
  assert_non_null(strstr(e.msg, "out of range for int"));
  assert_false(cli_parse_value("float2:1,", &a, &e));
  assert_string_equal(e.msg, "value 2: empty float value");
  assert_false(cli_parse_value("bool:1", &a, &e));
  assert_non_null(strstr(e.msg, "`bool` is not a type"));
  assert_false(cli_parse_value("3", &a, &e));
  assert_string_equal(e.msg, "expected TYPE:VALUE");

  assert_true(cli_parse_bytes("bytes:0100000002ff", 64, &a, &e));
  assert_int_equal(a.bytes, 6);
  assert_int_equal(a.data[0], 1);
  assert_int_equal(a.data[4], 2);
  assert_int_equal(a.data[5], 0xff);
  cli_arg_free(&a);
  assert_false(cli_parse_bytes("bytes:123", 64, &a, &e));
  assert_non_null(strstr(e.msg, "odd number of hex digits"));
  assert_false(cli_parse_bytes("bytes:12zz", 64, &a, &e));
  assert_non_null(strstr(e.msg, "`z` at position 3"));
  assert_false(cli_parse_bytes("bytes:", 64, &a, &e));

  assert_true(cli_parse_local("local:256", &a, &e));
  assert_int_equal(a.kind, CLI_ARG_LOCAL);
  assert_int_equal(a.bytes, 256);
  assert_false(cli_parse_local("local:0", &a, &e));
  assert_false(cli_parse_local("local:-4", &a, &e));
  assert_false(cli_parse_local("local:x", &a, &e));
}

/* ---- buffer initialisers --------------------------------------------------------------------- */

static void test_buffer_lists_and_fill(void **state) {
  (void)state;
  cli_arg a = buf_ok("int[3]");
  assert_int_equal(a.kind, CLI_ARG_BUFFER);
  assert_int_equal(a.count, 3);
  assert_int_equal(a.bytes, 12);
  for (size_t i = 0; i < 3; i++) assert_int_equal(u32_at(&a, i), 0);
  cli_arg_free(&a);

  a = buf_ok("uchar[4]=1,2,3,255");
  assert_memory_equal(a.data, "\x01\x02\x03\xff", 4);
  cli_arg_free(&a);
  buf_err("uchar[4]=1,2,3", "4 values expected, got 3");
  buf_err("uchar[1]=1,2", "1 value expected, got 2");
  buf_err("float4[2]=1,2,3,4", "8 values expected (2 × float4), got 4");
  buf_err("uchar[2]=1,256", "value 2: `256` is out of range for uchar");
  buf_err("float[2]=1,x", "value 2: `x` is not a float value");

  a = buf_ok("float3[2]=1,2,3,4,5,6");
  assert_int_equal(a.bytes, 32);
  uint32_t want3[8] = {fbits(1), fbits(2), fbits(3), 0, fbits(4), fbits(5), fbits(6), 0};
  for (size_t i = 0; i < 8; i++) assert_int_equal(u32_at(&a, i), want3[i]);
  cli_arg_free(&a);

  a = buf_ok("short[3]=fill(-7)");
  for (size_t i = 0; i < 3; i++) assert_int_equal(u16_at(&a, i), 0xfff9);
  cli_arg_free(&a);
  a = buf_ok("int2[2]=fill(1,2)");
  assert_int_equal(u32_at(&a, 0), 1);
  assert_int_equal(u32_at(&a, 1), 2);
  assert_int_equal(u32_at(&a, 2), 1);
  assert_int_equal(u32_at(&a, 3), 2);
  cli_arg_free(&a);
  a = buf_ok("half[2]=fill(1.5)");
  assert_int_equal(u16_at(&a, 0), 0x3e00);
  assert_int_equal(u16_at(&a, 1), 0x3e00);
  cli_arg_free(&a);
  buf_err("int2[2]=fill(1,2,3)", "fill takes 1 value or 2 (one per component), got 3");
  buf_err("int[2]=fill()", "fill: empty int value");
  buf_err("int2[2]=fill(1,x)", "fill value 2: `x` is not an integer");
  buf_err("int[2]=fill(1", "must end with one `)`");
  buf_err("int[2]=fill(1))", "must end with one `)`");
  buf_err("int[2]=zeros(1)", "`zeros(` is not an initialiser");

  buf_err("float[0]", "at least 1");
  buf_err("float[-1]", "at least 1");
  buf_err("float[x]", "count: `x` is not an integer");
  buf_err("float[4", "missing `]`");
  buf_err("float[4]x", "unexpected `x` after `]`");
  buf_err("float[4]=", "nothing after `=`");
  buf_err("flaot[4]", "`flaot` is not a type");
  buf_err("[4]", "missing type");
  buf_err("float[99999999999999999999]", "count: `99999999999999999999` is out of range");
  buf_err("double[4611686018427387904]", "too large"); /* 2^62 elements of 8 bytes */
}

static void test_buffer_range(void **state) {
  (void)state;
  cli_arg a = buf_ok("float[4]=range(0)");
  for (size_t i = 0; i < 4; i++) assert_int_equal(u32_at(&a, i), fbits((float)i));
  cli_arg_free(&a);
  a = buf_ok("int[4]=range(10,-3)");
  int32_t want[4] = {10, 7, 4, 1};
  for (size_t i = 0; i < 4; i++) assert_int_equal((int32_t)u32_at(&a, i), want[i]);
  cli_arg_free(&a);
  a = buf_ok("uint[2]=range(1,-1)"); /* negative STEP on an unsigned type: 1, 0 */
  assert_int_equal(u32_at(&a, 0), 1);
  assert_int_equal(u32_at(&a, 1), 0);
  cli_arg_free(&a);
  buf_err("uint[3]=range(1,-1)", "range: element 2 would be -1, out of range for uint (0..4294967295)");
  buf_err("uchar[3]=range(254)", "range: element 2 would be 256, out of range for uchar (0..255)");
  buf_err("char[2]=range(-129,1)", "element 0 would be -129");
  /* Component k of element i is START + (i*width + j)*STEP. */
  a = buf_ok("int2[2]=range(0,2)");
  for (size_t i = 0; i < 4; i++) assert_int_equal(u32_at(&a, i), 2 * i);
  cli_arg_free(&a);
  buf_err("int2[2]=range(0,0x40000000)", "element 1 component 0 would be 2147483648");
  a = buf_ok("float3[2]=range(1)");
  uint32_t want3[8] = {fbits(1), fbits(2), fbits(3), 0, fbits(4), fbits(5), fbits(6), 0};
  for (size_t i = 0; i < 8; i++) assert_int_equal(u32_at(&a, i), want3[i]);
  cli_arg_free(&a);
  /* 64-bit edges need the 65-bit arithmetic: 2^64 - 1, 2^64 - 2 and -2^63 + (2^64 - 1) = 2^63 - 1. */
  a = buf_ok("ulong[2]=range(18446744073709551615,-1)");
  assert_true(u64_at(&a, 0) == UINT64_MAX);
  assert_true(u64_at(&a, 1) == UINT64_MAX - 1);
  cli_arg_free(&a);
  a = buf_ok("long[2]=range(-9223372036854775808,18446744073709551615)");
  assert_true(u64_at(&a, 0) == UINT64_C(0x8000000000000000));
  assert_true(u64_at(&a, 1) == UINT64_C(0x7fffffffffffffff));
  cli_arg_free(&a);
  buf_err("long[3]=range(-9223372036854775808,18446744073709551615)", "element 2 would be beyond 64 bits");
  buf_err("ulong[3]=range(0,0x8000000000000000)", "element 2 would be beyond 64 bits");
  /* Float STEP is a float literal: 0.1f = 0x3dcccccd; 2 * 0.1f is exactly representable as
   * float (exponent + 1), 0x3e4ccccd. */
  a = buf_ok("float[3]=range(0,0.1)");
  assert_int_equal(u32_at(&a, 0), 0);
  assert_int_equal(u32_at(&a, 1), 0x3dcccccdu);
  assert_int_equal(u32_at(&a, 2), 0x3e4ccccdu);
  cli_arg_free(&a);
  a = buf_ok("half[2]=range(65504,1)"); /* 65505 rounds back down to 65504: no overflow */
  assert_int_equal(u16_at(&a, 1), 0x7bff);
  cli_arg_free(&a);
  buf_err("half[2]=range(65504,16)", "range: element 1 would be 65520, out of range for half");
  buf_err("float[2]=range(0,1,2)", "range takes START or START,STEP, got 3 values");
  buf_err("int[2]=range(0.5)", "range START: `0.5` is not an integer");
  a = buf_ok("double[3]=range(-1,0.5)");
  assert_true(u64_at(&a, 0) == UINT64_C(0xbff0000000000000)); /* -1 */
  assert_true(u64_at(&a, 1) == UINT64_C(0xbfe0000000000000)); /* -0.5 */
  assert_true(u64_at(&a, 2) == 0);                            /* +0 */
  cli_arg_free(&a);
}

/* Every initialiser writes straight into the memory object the launch uses in place (issue #17:
 * `float[N]=range(...)` once held two copies): the argument's bytes are the object's, of the
 * buffer's size, so no second buffer of that size remains (cli_parse_buffer allocates none). */
static void test_buffer_in_place(void **state) {
  (void)state;
  static const char *const texts[] = {"float[100000]=range(0)", "float[100000]=fill(2)", "float[100000]=random(1)",
                                      "int[3]=1,2,3", "float3[1000]=range(1,0.5)"};
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    cli_arg a;
    cli_error e = {""};
    if (!cli_parse_buffer(texts[i], &a, &e)) fail_msg("%s: %s", texts[i], e.msg);
    assert_non_null(a.mem);
    size_t n = 0;
    assert_ptr_equal(spvi_mem_data(a.mem, &n), a.data);
    assert_int_equal(n, a.bytes);
    cli_arg_free(&a);
  }
}

static void test_random_stream(void **state) {
  (void)state;
  /* SplitMix64 from seed 0: the widely published first outputs of the reference generator. */
  cli_rng r;
  cli_rng_seed(&r, 0);
  assert_true(cli_rng_next(&r) == UINT64_C(0xe220a8397b1dcdaf));
  assert_true(cli_rng_next(&r) == UINT64_C(0x6e789e6aa1b965f4));
  assert_true(cli_rng_next(&r) == UINT64_C(0x06c45d188009454f));
  /* Unbiased ranges: span 11 rejects draws below 2^64 mod 11 = 5 (2^64 = 16^16, and
   * 16 = 5 (mod 11); 5^2 = 3, 5^4 = 9, 5^8 = 4, 5^16 = 5). */
  assert_int_equal(((uint64_t)0 - 11) % 11, 5);
}

static void test_buffer_random(void **state) {
  (void)state;
  /* ulong's full range: the raw stream. */
  cli_arg a = buf_ok("ulong[3]=random(0)");
  assert_true(u64_at(&a, 0) == UINT64_C(0xe220a8397b1dcdaf));
  assert_true(u64_at(&a, 1) == UINT64_C(0x6e789e6aa1b965f4));
  assert_true(u64_at(&a, 2) == UINT64_C(0x06c45d188009454f));
  cli_arg_free(&a);
  /* Seed 42 draws 0xbdd732262feb6e95 0x28efe333b266f103 0x47526757130f9f52 0x581ce1ff0e4ae394;
   * uchar's span 256 divides 2^64 (nothing rejected), so each value is the low byte. */
  a = buf_ok("uchar[4]=random(42)");
  assert_memory_equal(a.data, "\x95\x03\x52\x94", 4);
  cli_arg_free(&a);
  /* int in [-5,5], seed 7 (evaluated independently with the documented formula). */
  a = buf_ok("int[6]=random(7,-5,5)");
  int32_t want[6] = {-3, -5, -5, -5, 2, 2};
  for (size_t i = 0; i < 6; i++) assert_int_equal((int32_t)u32_at(&a, i), want[i]);
  cli_arg_free(&a);
  a = buf_ok("short[4]=random(3,-100,100)");
  int16_t want16[4] = {-28, -52, -64, -89};
  for (size_t i = 0; i < 4; i++) assert_int_equal((int16_t)u16_at(&a, i), want16[i]);
  cli_arg_free(&a);
  /* Floats in [0,1): the top 24 bits of the seed-1 draws are 0x910a2d 0xbeeb8d 0xf893a2. */
  a = buf_ok("float[3]=random(1)");
  assert_int_equal(u32_at(&a, 0), fbits((float)ldexp(0x910a2d, -24)));
  assert_int_equal(u32_at(&a, 1), fbits((float)ldexp(0xbeeb8d, -24)));
  assert_int_equal(u32_at(&a, 2), fbits((float)ldexp(0xf893a2, -24)));
  cli_arg_free(&a);
  /* The same draws for a float3: three components, padding untouched. */
  a = buf_ok("float3[1]=random(1)");
  assert_int_equal(u32_at(&a, 0), fbits((float)ldexp(0x910a2d, -24)));
  assert_int_equal(u32_at(&a, 2), fbits((float)ldexp(0xf893a2, -24)));
  assert_int_equal(u32_at(&a, 3), 0);
  cli_arg_free(&a);
  /* half: top 11 bits; 0.56640625 = 1.1328125 * 2^-1 = field 14 (0x3800) + 0.1328125*1024 (0x88). */
  a = buf_ok("half[1]=random(1)");
  assert_int_equal(u16_at(&a, 0), 0x3888);
  cli_arg_free(&a);
  /* double: top 53 bits. */
  a = buf_ok("double[2]=random(1)");
  double d;
  uint64_t b = u64_at(&a, 0);
  memcpy(&d, &b, 8);
  assert_true(d == 0.5665615751722809);
  cli_arg_free(&a);
  /* [-2, 2): -2 + u*4 for the seed-5 draws; float bit patterns from an independent evaluation. */
  a = buf_ok("float[3]=random(5,-2,2)");
  assert_int_equal(u32_at(&a, 0), 0xbee7e628u);
  assert_int_equal(u32_at(&a, 1), 0x3f812e62u);
  assert_int_equal(u32_at(&a, 2), 0xbf88da5au);
  cli_arg_free(&a);

  /* Determinism: the same text gives the same bytes; another seed does not. */
  cli_arg x = buf_ok("double[64]=random(9)"), y = buf_ok("double[64]=random(9)"), z = buf_ok("double[64]=random(10)");
  assert_memory_equal(x.data, y.data, x.bytes);
  assert_memory_not_equal(x.data, z.data, x.bytes);
  for (size_t i = 0; i < 64; i++) {
    double v;
    b = u64_at(&x, i);
    memcpy(&v, &b, 8);
    assert_true(v >= 0.0 && v < 1.0);
  }
  cli_arg_free(&x);
  cli_arg_free(&y);
  cli_arg_free(&z);
  /* Bounds are inclusive for integers. */
  a = buf_ok("uchar[200]=random(1,3,4)");
  bool seen3 = false, seen4 = false;
  for (size_t i = 0; i < 200; i++) {
    assert_true(a.data[i] == 3 || a.data[i] == 4);
    seen3 |= a.data[i] == 3;
    seen4 |= a.data[i] == 4;
  }
  assert_true(seen3 && seen4);
  cli_arg_free(&a);

  buf_err("int[2]=random(1,5,4)", "random: LO is greater than HI");
  buf_err("uchar[2]=random(-1)", "random SEED: `-1` is out of range for ulong");
  buf_err("uchar[2]=random(1,0,256)", "random HI: `256` is out of range for uchar");
  buf_err("float[2]=random(1,1,1)", "LO must be less than HI");
  buf_err("float[2]=random(1,0,inf)", "must be finite");
  buf_err("double[2]=random(1,-1e308,1e308)", "HI - LO overflows double");
  buf_err("float[2]=random(1,2)", "random takes SEED or SEED,LO,HI, got 2 values");
}

/* ---- files ----------------------------------------------------------------------------------- */

static void test_npy_header_bytes(void **state) {
  (void)state;
  char h[256];
  size_t shape1[1] = {4};
  size_t n = cli_npy_header(h, sizeof h, "<f4", 1, shape1);
  /* The dict is 57 characters; 10 + 57 + '\n' = 68 rounds up to 128, so HEADER_LEN = 118 and
   * 118 - 57 - 1 = 60 spaces pad it. */
  const char dict[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }";
  assert_int_equal(strlen(dict), 57);
  assert_int_equal(n, 128);
  assert_memory_equal(h, "\x93NUMPY\x01\x00", 8);
  assert_int_equal((unsigned char)h[8], 118);
  assert_int_equal((unsigned char)h[9], 0);
  assert_memory_equal(h + 10, dict, 57);
  for (size_t i = 67; i < 127; i++) assert_int_equal(h[i], ' ');
  assert_int_equal(h[127], '\n');

  size_t shape2[2] = {3, 4};
  n = cli_npy_header(h, sizeof h, "<i4", 2, shape2);
  const char dict2[] = "{'descr': '<i4', 'fortran_order': False, 'shape': (3, 4), }";
  assert_int_equal(n, 128);
  assert_int_equal((unsigned char)h[8], 118);
  assert_memory_equal(h + 10, dict2, strlen(dict2));
  assert_int_equal(h[127], '\n');

  /* A dict of 117 characters fills the first 128 bytes exactly (10 + 117 + '\n'); one more
   * character needs the next 64-byte block. The prefix "{'descr': '<f8', 'fortran_order': False,
   * 'shape': " is 50 characters; "(A, B, C)" adds 1 + A + 2 + B + 2 + C + 1 and ", }" 3 more,
   * so 19 + 19 + 20 digits give 117 and 19 + 20 + 20 give 118. */
  size_t big[3] = {9999999999999999999u, 9999999999999999999u, 10000000000000000000u};
  n = cli_npy_header(h, sizeof h, "<f8", 3, big);
  assert_int_equal(n, 128);
  assert_int_equal((unsigned char)h[8], 118);
  assert_int_equal(h[126], '}'); /* no padding at all */
  assert_int_equal(h[127], '\n');
  big[1] = 10000000000000000000u;
  n = cli_npy_header(h, sizeof h, "<f8", 3, big);
  assert_int_equal(n, 192);
  assert_int_equal((unsigned char)h[8], 182);
  assert_int_equal((unsigned char)h[9], 0);
  assert_int_equal(h[127], '}');
  for (size_t i = 128; i < 191; i++) assert_int_equal(h[i], ' ');
  assert_int_equal(h[191], '\n');
}

/* A hand-made version 1.0 file: dict + padding written out literally. */
static size_t make_npy(unsigned char *out, const char *dict, const void *data, size_t data_bytes) {
  size_t dl = strlen(dict);
  size_t total = (10 + dl + 1 + 63) / 64 * 64;
  memcpy(out, "\x93NUMPY\x01\x00", 8);
  out[8] = (unsigned char)((total - 10) & 0xff);
  out[9] = (unsigned char)((total - 10) >> 8);
  memcpy(out + 10, dict, dl);
  memset(out + 10 + dl, ' ', total - 10 - dl - 1);
  out[total - 1] = '\n';
  memcpy(out + total, data, data_bytes);
  return total + data_bytes;
}

/* Structured descrs as numpy writes them: padding entries ('', '|Vn') are offsets, a nested
 * dtype with a shape repeats its fields, adjacent runs of one type merge. Offsets by hand. */
static void test_npy_structured(void **state) {
  (void)state;
  unsigned char file[512], zeros[64] = {0};
  const char *dict = "{'descr': [('s', [('x', '<i2'), ('', '|V2'), ('y', '<f4')], (2,)), ('z', '|u1'), "
                     "('w', '|u1', 3), ('', '|V4')], 'fortran_order': False, 'shape': (2,), }";
  size_t n = make_npy(file, dict, zeros, 2 * 24);
  cli_npy h;
  cli_error e;
  assert_true(cli_npy_parse(file, n, "s.npy", &h, &e));
  assert_true(h.structured);
  assert_int_equal(h.itemsize, 24); /* 2 x 8 + 1 + 3 + 4 */
  const struct {
    size_t offset, count;
    const char *type;
  } want[] = {{0, 1, "<i2"}, {4, 1, "<f4"}, {8, 1, "<i2"}, {12, 1, "<f4"}, {16, 4, "|u1"}};
  assert_int_equal(h.nleaves, 5);
  for (unsigned i = 0; i < 5; i++) {
    assert_int_equal(h.leaves[i].offset, want[i].offset);
    assert_int_equal(h.leaves[i].count, want[i].count);
    assert_string_equal(h.leaves[i].type, want[i].type);
  }
  /* big-endian fields and titles are refused by name */
  n = make_npy(file, "{'descr': [('a', '>i4')], 'fortran_order': False, 'shape': (1,), }", zeros, 4);
  assert_false(cli_npy_parse(file, n, "b.npy", &h, &e));
  assert_non_null(strstr(e.msg, "not a structured dtype spvi reads"));
  n = make_npy(file, "{'descr': [(('t', 'a'), '<i4')], 'fortran_order': False, 'shape': (1,), }", zeros, 4);
  assert_false(cli_npy_parse(file, n, "t.npy", &h, &e));
}

static void test_npy_read(void **state) {
  (void)state;
  char path[128], arg[200];
  unsigned char file[512];
  /* float32 1.0, 2.0 little-endian. */
  const unsigned char f2[8] = {0, 0, 0x80, 0x3f, 0, 0, 0, 0x40};
  size_t n = make_npy(file, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", f2, 8);
  tmp_path(path, sizeof path, "a.npy");
  write_bytes(path, file, n);
  snprintf(arg, sizeof arg, "float[2]=@%s", path);
  cli_arg a = buf_ok(arg);
  assert_memory_equal(a.data, f2, 8);
  cli_arg_free(&a);
  /* uint[2] takes the same bytes only with a matching dtype. */
  snprintf(arg, sizeof arg, "uint[2]=@%s", path);
  buf_err(arg, "has dtype '<f4' but uint needs '<u4'");
  snprintf(arg, sizeof arg, "float[3]=@%s", path);
  buf_err(arg, "has shape (2,) (2 items) but float[3] needs 3");
  /* A .npy file name is never read as raw bytes, even if the size would fit. */
  snprintf(arg, sizeof arg, "uchar[136]=@%s", path);
  buf_err(arg, "dtype '<f4' but uchar needs '|u1'");

  /* Other spellings: double-quoted keys in any order, no trailing comma, version 2.0. */
  const unsigned char bytes3[3] = {7, 8, 9};
  n = make_npy(file, "{\"shape\": (3,), \"fortran_order\": False, \"descr\": \"|u1\"}", bytes3, 3);
  file[6] = 2; /* version 2.0: 4-byte HEADER_LEN, header starts at 12 */
  memmove(file + 12, file + 10, n - 10);
  file[10] = 0;
  file[11] = 0;
  n += 2;
  tmp_path(path, sizeof path, "b.npy");
  write_bytes(path, file, n);
  snprintf(arg, sizeof arg, "uchar[3]=@%s", path);
  a = buf_ok(arg);
  assert_memory_equal(a.data, bytes3, 3);
  cli_arg_free(&a);

  /* float3 from shape (N, 3): the padding slot is inserted. */
  float xyz[6] = {1, 2, 3, 4, 5, 6};
  n = make_npy(file, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", xyz, sizeof xyz);
  tmp_path(path, sizeof path, "c.npy");
  write_bytes(path, file, n);
  snprintf(arg, sizeof arg, "float3[2]=@%s", path);
  a = buf_ok(arg);
  uint32_t want3[8] = {fbits(1), fbits(2), fbits(3), 0, fbits(4), fbits(5), fbits(6), 0};
  for (size_t i = 0; i < 8; i++) assert_int_equal(u32_at(&a, i), want3[i]);
  cli_arg_free(&a);
  /* Any C-order shape of COUNT x slots items is the buffer's memory image, kept for --out. */
  a = file_ok("float2[3]", path);
  for (size_t i = 0; i < 6; i++) assert_int_equal(u32_at(&a, i), fbits(xyz[i]));
  assert_int_equal(a.ndim, 2);
  assert_int_equal(a.shape[0], 2);
  assert_int_equal(a.shape[1], 3);
  cli_arg_free(&a);
  a = file_ok("float[6]", path);
  assert_int_equal(a.ndim, 2);
  cli_arg_free(&a);
  a = file_ok("float3[2]", path);
  assert_int_equal(a.ndim, 2);
  assert_int_equal(a.shape[1], 4);
  cli_arg_free(&a);
  file_err("float[5]", path, "has shape (2, 3) (6 items) but float[5] needs 5");
  file_err("float4[2]", path, "has shape (2, 3) (6 items) but float4[2] needs 8 (COUNT × slots, any shape)");
  /* TYPE[]: the count from the file (packed float3 rows: 2; float: 6; float2: 3) or the list. */
  a = file_ok("float3[]", path);
  assert_int_equal(a.count, 2);
  for (size_t i = 0; i < 8; i++) assert_int_equal(u32_at(&a, i), want3[i]);
  cli_arg_free(&a);
  a = file_ok("float[]", path);
  assert_int_equal(a.count, 6);
  cli_arg_free(&a);
  a = file_ok("float2[]", path);
  assert_int_equal(a.count, 3);
  cli_arg_free(&a);
  file_err("float4[]", path, "has shape (2, 3) (6 items): no whole number of float4 elements (4 slots each)");
  file_err("int[]", path, "has dtype '<f4' but int needs '<i4'");
  a = buf_ok("int2[]=1,2,3,4");
  assert_int_equal(a.count, 2);
  assert_int_equal(u32_at(&a, 3), 4);
  cli_arg_free(&a);
  buf_err("int2[]=1,2,3", "3 values are no whole number of int2 elements (2 values each)");
  buf_err("int[]", "int[] takes its count from `=V,V,...` or `=@FILE`; give int[COUNT]");
  buf_err("int[]=fill(1)", "give int[COUNT] for fill, range and random");
  buf_err("int[]=@/dev/null", "`/dev/null` is not a regular file: int[] cannot take its count from it");
  tmp_path(path, sizeof path, "raw6");
  write_bytes(path, xyz, 6); /* raw: the count from the size */
  a = file_ok("ushort[]", path);
  assert_int_equal(a.count, 3);
  assert_int_equal(a.ndim, 0); /* no shape to keep */
  cli_arg_free(&a);
  file_err("int[]", path, "has 6 bytes, not a positive multiple of int's 4");
  /* a Fortran-order array would be read transposed: refused, saying how to fix it */
  n = make_npy(file, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", xyz, sizeof xyz);
  tmp_path(path, sizeof path, "f.npy");
  write_bytes(path, file, n);
  file_err("float[]", path, "is in Fortran order; spvi reads C-order arrays (save numpy.ascontiguousarray(a) instead)");

  struct {
    const char *dict;
    size_t data_bytes;
    const char *needle;
  } bad[] = {
    {"{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", 8, "big-endian"},
    {"{'descr': '<f4', 'fortran_order': True, 'shape': (1, 2), }", 8, "Fortran order"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 4, "describes 8 data bytes but 4 follow"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 12, "describes 8 data bytes but 12 follow"},
    {"{'descr': '<f4', 'fortran_order': False}", 8, "needs the keys"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (2), }", 8, "'shape' is not a tuple"},
    {"{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,), }", 8, "neither True nor False"},
    {"{'descr': '<f4', 'descr': '<f4', 'shape': (2,), }", 8, "unexpected or repeated key"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x", 8, "text after the dict"},
  };
  unsigned char zeros[16] = {0};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    n = make_npy(file, bad[i].dict, zeros, bad[i].data_bytes);
    tmp_path(path, sizeof path, "bad.npy");
    write_bytes(path, file, n);
    snprintf(arg, sizeof arg, "float[2]=@%s", path);
    buf_err(arg, bad[i].needle);
  }
  /* Not an .npy at all, but named like one. */
  tmp_path(path, sizeof path, "fake.npy");
  write_bytes(path, "12345678", 8);
  snprintf(arg, sizeof arg, "float[2]=@%s", path);
  buf_err(arg, "is not an .npy file");
  /* Unsupported version. */
  n = make_npy(file, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", f2, 8);
  file[6] = 4;
  tmp_path(path, sizeof path, "v4.npy");
  write_bytes(path, file, n);
  snprintf(arg, sizeof arg, "float[2]=@%s", path);
  buf_err(arg, "unsupported .npy format version 4.0");
}

static void test_raw_files(void **state) {
  (void)state;
  char path[128], arg[200];
  const unsigned char raw[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  tmp_path(path, sizeof path, "r.bin");
  write_bytes(path, raw, sizeof raw);
  snprintf(arg, sizeof arg, "int[4]=@%s", path);
  cli_arg a = buf_ok(arg);
  assert_int_equal((int32_t)u32_at(&a, 3), -1);
  assert_int_equal(u32_at(&a, 1), 2);
  cli_arg_free(&a);
  snprintf(arg, sizeof arg, "int3[1]=@%s", path); /* 16 bytes: a 3-vector with its padding */
  a = buf_ok(arg);
  assert_int_equal(a.bytes, 16);
  cli_arg_free(&a);
  snprintf(arg, sizeof arg, "int[3]=@%s", path);
  buf_err(arg, "has 16 bytes, expected 12 (3 × int of 4 bytes)");
  snprintf(arg, sizeof arg, "double[4]=@%s", path);
  buf_err(arg, "has 16 bytes, expected 32 (4 × double of 8 bytes)");
  tmp_path(path, sizeof path, "missing.bin");
  snprintf(arg, sizeof arg, "int[4]=@%s", path);
  buf_err(arg, "cannot read");
  buf_err("int[4]=@", "missing file name");

  /* bytes:@FILE takes the file whole. */
  tmp_path(path, sizeof path, "r.bin");
  snprintf(arg, sizeof arg, "bytes:@%s", path);
  cli_error e;
  assert_true(cli_parse_bytes(arg, 64, &a, &e));
  assert_int_equal(a.bytes, 16);
  assert_memory_equal(a.data, raw, 16);
  cli_arg_free(&a);
  /* ... up to the parameter's size: one byte more ends the reading (an endless /dev/zero too) */
  assert_true(cli_parse_bytes(arg, 16, &a, &e));
  cli_arg_free(&a);
  assert_false(cli_parse_bytes(arg, 15, &a, &e));
  assert_non_null(strstr(e.msg, "has more than 15 bytes (reading stopped there): the parameter takes 15"));
  assert_false(cli_parse_bytes("bytes:@/dev/zero", 8, &a, &e));
  assert_string_equal(e.msg, "`/dev/zero` has more than 8 bytes (reading stopped there): the parameter takes 8");
  buf_err("int[4]=@/dev/zero", "`/dev/zero` has more than 65561 bytes (reading stopped there): int[4] takes 16 bytes, "
                               "and a .npy header at most 65545 more");
}

static void test_npy_write_roundtrip(void **state) {
  (void)state;
  char path[128], arg[200];
  tmp_path(path, sizeof path, "w.npy");
  int16_t vals[2][4] = {{1, -2, 3, 0}, {4, 5, -6, 0}}; /* short3[2]: 4 slots each */
  size_t shape[2] = {2, 4};
  cli_error e;
  assert_true(cli_npy_write(path, "<i2", 2, shape, vals, sizeof vals, &e));
  unsigned char *data;
  size_t size;
  assert_true(cli_read_file(path, 1024, "test", &data, &size, &e));
  assert_int_equal(size, 128 + 16);
  const char dict[] = "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 4), }";
  assert_memory_equal(data + 10, dict, strlen(dict));
  assert_memory_equal(data + 128, "\x01\x00\xfe\xff\x03\x00\x00\x00\x04\x00\x05\x00\xfa\xff\x00\x00", 16);
  free(data);
  snprintf(arg, sizeof arg, "short3[2]=@%s", path);
  cli_arg a = buf_ok(arg);
  assert_memory_equal(a.data, vals, sizeof vals);
  cli_arg_free(&a);
  assert_false(cli_npy_write("/nonexistent-dir/x.npy", "<i2", 2, shape, vals, sizeof vals, &e));
  assert_non_null(strstr(e.msg, "cannot write `/nonexistent-dir/x.npy`"));
}

/* ---- parameters -------------------------------------------------------------------------------- */

static spvi_param_info param(spvi_param_kind kind, spvi_addr_space space, const char *type, const char *name,
                             spvi_scalar k, unsigned bits, unsigned width, size_t size) {
  spvi_param_info p = {.name = name,
                       .type_name = type,
                       .kind = kind,
                       .space = space,
                       .elem_kind = k,
                       .elem_bits = bits,
                       .vec_width = width,
                       .size = size,
                       .is_const = false};
  return p;
}

static void arg_ok(const char *text, const spvi_param_info *p, size_t bytes) {
  cli_arg a;
  cli_error e = {""};
  if (!cli_arg_for_param(text, p, &a, &e)) fail_msg("%s: %s", text, e.msg);
  assert_int_equal(a.bytes, bytes);
  cli_arg_free(&a);
}

static void arg_err(const char *text, const spvi_param_info *p, const char *msg) {
  cli_arg a;
  cli_error e = {""};
  if (cli_arg_for_param(text, p, &a, &e)) {
    cli_arg_free(&a);
    fail_msg("%s accepted", text);
  }
  if (!strstr(e.msg, msg)) fail_msg("%s: message `%s` lacks `%s`", text, e.msg, msg);
}

static void test_param_matching(void **state) {
  (void)state;
  spvi_param_info n = param(SPVI_PARAM_VALUE, SPVI_AS_NONE, "uint", "n", SPVI_S_UINT, 32, 1, 4);
  arg_ok("uint:7", &n, 4);
  arg_ok("int:-3", &n, 4); /* SPIR-V integers carry no sign */
  arg_err("float:1", &n, "float does not match the parameter's type uint");
  arg_err("uint2:1,2", &n, "uint2 does not match the parameter's type uint");
  arg_err("ushort:1", &n, "ushort does not match");
  arg_err("float:abc", &n, "float does not match the parameter's type uint"); /* type first */
  arg_err("uint[4]", &n, "a by-value parameter takes TYPE:VALUE");
  arg_err("7", &n, "a by-value parameter takes TYPE:VALUE");
  arg_ok("bytes:07000000", &n, 4);
  arg_err("bytes:0700", &n, "2 bytes given, the parameter takes 4");

  spvi_param_info v3 = param(SPVI_PARAM_VALUE, SPVI_AS_NONE, "float3", "v", SPVI_S_FLOAT, 32, 3, 16);
  arg_ok("float3:1,2,3", &v3, 16);
  arg_err("float3:1,2", &v3, "3 values expected for float3, got 2");
  arg_err("float4:1,2,3,4", &v3, "float4 does not match the parameter's type float3");
  spvi_param_info h = param(SPVI_PARAM_VALUE, SPVI_AS_NONE, "half", "h", SPVI_S_FLOAT, 16, 1, 2);
  arg_ok("half:1.5", &h, 2);
  arg_err("float:1.5", &h, "float does not match");

  spvi_param_info s = param(SPVI_PARAM_VALUE, SPVI_AS_NONE, "struct S", "s", SPVI_S_OTHER, 0, 0, 8);
  arg_ok("bytes:0100000002000000", &s, 8);
  arg_err("bytes:01", &s, "1 byte given, the parameter takes 8");
  arg_err("int2:1,2", &s, "struct S is passed as 8 raw bytes: give them as bytes:HEX or bytes:@FILE");

  spvi_param_info f = param(SPVI_PARAM_BUFFER, SPVI_AS_GLOBAL, "float*", "a", SPVI_S_FLOAT, 32, 1, 4);
  arg_ok("float[4]", &f, 16);
  arg_ok("uint[4]=fill(0x3f800000)", &f, 16); /* same element size: bit patterns allowed */
  arg_err("float4[2]", &f, "float4 elements are 16 bytes but the parameter points to float (4 bytes)");
  arg_err("double[2]", &f, "double elements are 8 bytes but the parameter points to float (4 bytes)");
  arg_err("double[2]=@/nonexistent", &f, "double elements are 8 bytes"); /* before the file */
  arg_err("float:1", &f, "a buffer parameter takes TYPE[COUNT], TYPE[COUNT]=INIT or null");
  arg_err("local:16", &f, "a buffer parameter takes");
  {
    /* clSetKernelArg's NULL buffer: no bytes, no memory object */
    cli_arg a;
    cli_error e = {""};
    if (!cli_arg_for_param("null", &f, &a, &e)) fail_msg("null: %s", e.msg);
    assert_int_equal(a.kind, CLI_ARG_NULL);
    assert_null(a.mem);
    assert_null(a.data);
    assert_int_equal(a.bytes, 0);
    cli_arg_free(&a);
  }
  arg_err("null", &n, "a by-value parameter takes");
  arg_err("nullx", &f, "a buffer parameter takes");
  spvi_param_info f3 = param(SPVI_PARAM_BUFFER, SPVI_AS_GLOBAL, "float3*", "p", SPVI_S_FLOAT, 32, 3, 16);
  arg_ok("float3[2]", &f3, 32);
  arg_ok("float4[2]", &f3, 32);
  arg_err("float[2]", &f3, "points to float3 (16 bytes)");
  spvi_param_info c = param(SPVI_PARAM_BUFFER, SPVI_AS_GLOBAL, "char*", "bytes", SPVI_S_INT, 8, 1, 1);
  arg_ok("float4[2]", &c, 32); /* byte buffers take anything */
  arg_err("uchar[4]", &f, "uchar elements are 1 byte but the parameter points to float (4 bytes)");
  spvi_param_info st = param(SPVI_PARAM_BUFFER, SPVI_AS_CONSTANT, "struct S*", "s", SPVI_S_OTHER, 0, 0, 12);
  arg_ok("int[3]", &st, 12);

  spvi_param_info l = param(SPVI_PARAM_LOCAL, SPVI_AS_LOCAL, "float*", "tmp", SPVI_S_FLOAT, 32, 1, 4);
  arg_ok("local:1024", &l, 1024);
  arg_err("float[4]", &l, "a __local pointer parameter takes local:BYTES");

  spvi_param_info q = param(SPVI_PARAM_OPAQUE, SPVI_AS_NONE, "queue_t", "q", SPVI_S_OTHER, 0, 0, 8);
  arg_err("bytes:00", &q, "parameters of type queue_t are not supported");

  /* images and samplers */
  spvi_param_info img = param(SPVI_PARAM_IMAGE, SPVI_AS_NONE, "read_only image2d_t", "img", SPVI_S_OTHER, 0, 0, 8);
  img.image_type = SPVI_IMAGE_2D;
  arg_ok("image2d:rgba:unorm8:4,2", &img, 32);
  arg_ok("image2d:r:float:3,2=range(0)", &img, 24);
  arg_ok("image2d:bgra:uint8:1,1=1,2,3,4", &img, 4);
  arg_err("image3d:rgba:unorm8:4,2,2", &img, "the parameter is read_only image2d_t, the argument an image3d");
  arg_err("image2d:rgba:unorm8:4", &img, "image2d takes 2 sizes (W,H), got `4`");
  arg_err("image2d:rgb:unorm8:4,4", &img, "`rgb` is not a channel order");
  arg_err("image2d:rgba:unorm24:4,4", &img, "`unorm24` is not a channel type");
  arg_err("image2d:bgra:float:4,4", &img, "bgra, argb and abgr take 8-bit channel types");
  arg_err("image2d:srgba:unorm16:4,4", &img, "sRGB images are unorm8");
  arg_err("image2d:rgba:unorm8:0,4", &img, "image size 1: `0` is not at least 1");
  arg_err("image2d:rgba:unorm8:2,1=1,2,3", &img, "8 values expected, got 3");
  arg_err("image2d:rgba:unorm8:2,1=fill(256)", &img, "out of range");
  arg_err("float[4]", &img, "an image parameter (read_only image2d_t) takes IMAGETYPE:ORDER:CHANNELTYPE:DIMS[=INIT]");
  spvi_param_info smp = param(SPVI_PARAM_SAMPLER, SPVI_AS_NONE, "sampler_t", "s", SPVI_S_OTHER, 0, 0, 8);
  cli_arg sa;
  cli_error se;
  assert_true(cli_arg_for_param("sampler:normalized,mirrored_repeat,linear", &smp, &sa, &se));
  assert_int_equal(sa.kind, CLI_ARG_SAMPLER);
  assert_true(sa.sampler.normalized && sa.sampler.addressing == SPVI_ADDRESS_MIRRORED_REPEAT &&
              sa.sampler.filter == SPVI_FILTER_LINEAR);
  arg_err("sampler:unnormalized,repeat,nearest", &smp, "repeat addressing needs normalized coordinates");
  arg_err("sampler:normalized,wrap,nearest", &smp, "`wrap` is not an addressing mode");
  arg_err("sampler:normalized,clamp", &smp, "a sampler takes sampler:NORM,ADDRESS,FILTER");
  arg_err("sampler:normalized,clamp,cubic", &smp, "`cubic` is not a filter mode");

  char desc[128];
  assert_string_equal(cli_param_desc(&f, desc, sizeof desc), "global float* a");
  assert_string_equal(cli_param_desc(&n, desc, sizeof desc), "uint n");
  assert_string_equal(cli_param_desc(&st, desc, sizeof desc), "constant struct S* s");
  spvi_param_info anon = param(SPVI_PARAM_VALUE, SPVI_AS_NONE, "int", "", SPVI_S_INT, 32, 1, 4);
  assert_string_equal(cli_param_desc(&anon, desc, sizeof desc), "int");
}

/* ---- run options ----------------------------------------------------------------------------- */

static bool run_cmd(cli_run_cmd *c, cli_error *e, int argc, ...) {
  char *argv[32];
  va_list ap;
  va_start(ap, argc);
  for (int i = 0; i < argc; i++) argv[i] = va_arg(ap, char *);
  va_end(ap);
  return cli_parse_run(argc, argv, c, e);
}

/* Long echoes are cut with the count of bytes cut (issue #17): an argument quoted by cli_echo keeps
 * its first 64 bytes; a cli_fail message longer than its 1023 characters ends with the count. */
static void test_cut_echoes(void **state) {
  (void)state;
  char big[2001], q[112];
  memset(big, 'x', 2000);
  big[2000] = 0;
  assert_string_equal(cli_echo("int:3", q, sizeof q), "int:3");
  big[128] = 0; /* 128 bytes: not cut */
  assert_ptr_equal(cli_echo(big, q, sizeof q), big);
  big[128] = 'x';
  const char *c = cli_echo(big, q, sizeof q); /* 2000 bytes: 64 kept, 1936 cut */
  assert_int_equal(strncmp(c, big, 64), 0);
  assert_string_equal(c + 64, "... (1936 bytes cut)");
  cli_error e;
  assert_false(cli_fail(&e, "%s", big));
  /* the tail "... (996 bytes cut)" (19 bytes) ends the 1023: 1004 kept of 2000 */
  assert_int_equal(strlen(e.msg), sizeof e.msg - 1);
  assert_string_equal(e.msg + 1004, "... (996 bytes cut)");
}

static void test_cmdline(void **state) {
  (void)state;
  cli_run_cmd c;
  cli_error e;
  assert_true(run_cmd(&c, &e, 9, "k.spv", "-g", "8,4", "-l", "4,2", "float[4]", "--print", "--offset=1,0", "int:3"));
  assert_string_equal(c.module, "k.spv");
  assert_int_equal(c.global.n, 2);
  assert_int_equal(c.global.v[0], 8);
  assert_int_equal(c.global.v[1], 4);
  assert_int_equal(c.local.v[1], 2);
  assert_int_equal(c.offset.v[0], 1);
  assert_true(c.print);
  assert_false(c.strict);
  assert_null(c.kernel);
  assert_int_equal(c.nargs, 2);
  assert_string_equal(c.args[0], "float[4]");
  assert_string_equal(c.args[1], "int:3");
  cli_run_cmd_free(&c);

  assert_true(run_cmd(&c, &e, 9, "-kvadd", "--global=0x10", "--warp", "8", "--strict", "--out", "d", "m.spv",
                      "local:4"));
  assert_string_equal(c.kernel, "vadd");
  assert_int_equal(c.global.n, 1);
  assert_int_equal(c.global.v[0], 16);
  assert_int_equal(c.warp, 8);
  assert_true(c.strict);
  assert_string_equal(c.out_dir, "d");
  assert_int_equal(c.nargs, 1);
  cli_run_cmd_free(&c);

  assert_true(run_cmd(&c, &e, 3, "--kernel", "--print", "-h")); /* help wins */
  assert_true(c.help);
  cli_run_cmd_free(&c);

  struct {
    int argc;
    const char *argv[6];
    const char *msg;
  } bad[] = {
    {2, {"m.spv", "float[4]"}, "missing -g X[,Y[,Z]] (the global size)"},
    {2, {"-g", "4"}, "missing MODULE.spv"},
    {5, {"m.spv", "-g", "4", "-l", "2,2"}, "-l has 2 dimensions but -g has 1"},
    {5, {"m.spv", "-g", "4,4", "--offset", "1"}, "--offset has 1 dimension but -g has 2"},
    {3, {"m.spv", "-g", "4,x"}, "-g `4,x`: `x` is not an integer"},
    {3, {"m.spv", "-g", "0"}, "-g `0`: `0` is not a size of at least 1"},
    {3, {"m.spv", "-g", "1,2,3,4"}, "-g `1,2,3,4`: at most 3 dimensions"},
    {3, {"m.spv", "-g", "4,"}, "-g `4,`: `` is not an integer"},
    {2, {"m.spv", "-g"}, "option -g needs a value"},
    {5, {"m.spv", "-g", "4", "-g", "8"}, "option -g given twice"},
    {5, {"m.spv", "-g", "4", "--warp", "0"}, "--warp `0`: the warp width must be 1..64"},
    {5, {"m.spv", "-g", "4", "--warp", "65"}, "the warp width must be 1..64"},
    {4, {"m.spv", "-g", "4", "--frobnicate"}, "unknown option `--frobnicate`"},
    {4, {"m.spv", "-g", "4", "--kernel="}, "--kernel: empty kernel name"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char *argv[6];
    for (int j = 0; j < bad[i].argc; j++) argv[j] = (char *)bad[i].argv[j];
    bool ok = cli_parse_run(bad[i].argc, argv, &c, &e);
    cli_run_cmd_free(&c);
    if (ok) fail_msg("case %zu accepted", i);
    if (!strstr(e.msg, bad[i].msg)) fail_msg("case %zu: `%s` lacks `%s`", i, e.msg, bad[i].msg);
  }
  /* `--` makes the rest positional. */
  assert_true(run_cmd(&c, &e, 5, "m.spv", "-g", "2", "--", "-x"));
  assert_int_equal(c.nargs, 1);
  assert_string_equal(c.args[0], "-x");
  cli_run_cmd_free(&c);
}

static int setup_tmp(void **state) {
  (void)state;
  snprintf(tmp_dir, sizeof tmp_dir, "/tmp/spvi-test-cli-XXXXXX");
  return mkdtemp(tmp_dir) ? 0 : -1;
}

static int teardown_tmp(void **state) {
  (void)state;
  const char *names[] = {"a.npy", "b.npy", "c.npy", "bad.npy", "fake.npy", "v4.npy", "r.bin", "w.npy", "raw6", "f.npy"};
  char path[128];
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    tmp_path(path, sizeof path, names[i]);
    unlink(path);
  }
  return rmdir(tmp_dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_elem_types),
    cmocka_unit_test(test_int_limits),
    cmocka_unit_test(test_int_hex_and_syntax),
    cmocka_unit_test(test_float_literals),
    cmocka_unit_test(test_half_rounding),
    cmocka_unit_test(test_value_args),
    cmocka_unit_test(test_buffer_lists_and_fill),
    cmocka_unit_test(test_buffer_range),
    cmocka_unit_test(test_buffer_in_place),
    cmocka_unit_test(test_random_stream),
    cmocka_unit_test(test_buffer_random),
    cmocka_unit_test(test_npy_header_bytes),
    cmocka_unit_test(test_npy_structured),
    cmocka_unit_test(test_npy_read),
    cmocka_unit_test(test_raw_files),
    cmocka_unit_test(test_npy_write_roundtrip),
    cmocka_unit_test(test_param_matching),
    cmocka_unit_test(test_cut_echoes),
    cmocka_unit_test(test_cmdline),
  };
  return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}
