/*
 * test_cli_print.c — unit tests of `spvi run --print` formatting (cli/cli_print.c), linked with the
 * command's modules like test_cli_args.c. Expected strings are written out by hand.
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

#include "cli_types.h"
#include "cli_num.h"
#include "cli_print.h"

static const char *fmt(const char *type, uint64_t bits) {
  static char buf[64];
  const cli_scalar *s = cli_scalar_by_name(type, strlen(type));
  assert_non_null(s);
  return cli_format_component(s, bits, buf, sizeof buf);
}

static void test_components(void **state) {
  (void)state;
  assert_string_equal(fmt("char", 0xff), "-1");
  assert_string_equal(fmt("char", 0x80), "-128");
  assert_string_equal(fmt("uchar", 0xff), "255");
  assert_string_equal(fmt("short", 0x8000), "-32768");
  assert_string_equal(fmt("ushort", 0x8000), "32768");
  assert_string_equal(fmt("int", 0xfffffffd), "-3");
  assert_string_equal(fmt("uint", 0xfffffffd), "4294967293");
  assert_string_equal(fmt("long", UINT64_C(0x8000000000000000)), "-9223372036854775808");
  assert_string_equal(fmt("ulong", UINT64_MAX), "18446744073709551615");
  /* float 0x3dcccccd = 0.100000001490116...: 9 significant digits. */
  assert_string_equal(fmt("float", 0x3dcccccd), "0.100000001");
  assert_string_equal(fmt("float", 0x3f800000), "1");
  assert_string_equal(fmt("float", 0x80000000), "-0");
  assert_string_equal(fmt("float", 0x7fc00000), "nan");
  assert_string_equal(fmt("float", 0xff800000), "-inf");
  /* double 0x3fb999999999999a = 0.1000000000000000055511...: 17 significant digits. */
  assert_string_equal(fmt("double", UINT64_C(0x3fb999999999999a)), "0.10000000000000001");
  /* half 0x2e66 = 0.0999755859375 -> 5 significant digits. */
  assert_string_equal(fmt("half", 0x2e66), "0.099976");
  assert_string_equal(fmt("half", 0x7bff), "65504");
  assert_string_equal(fmt("half", 0x3e00), "1.5");
  assert_string_equal(fmt("half", 0xfc00), "-inf");
}

/* The printed digits read back to the same bits: %.9g / %.17g / %.5g are enough for
 * float / double / half. */
static void test_round_trip(void **state) {
  (void)state;
  const cli_scalar *f = cli_scalar_by_name("float", 5), *h = cli_scalar_by_name("half", 4);
  uint32_t fsamples[] = {0x3dcccccd, 0x00000001, 0x7f7fffff, 0x3eaaaaab, 0xc2f6e979};
  for (size_t i = 0; i < sizeof fsamples / sizeof fsamples[0]; i++) {
    char buf[64];
    cli_format_component(f, fsamples[i], buf, sizeof buf);
    uint64_t back;
    cli_error e;
    assert_true(cli_scalar_parse(f, buf, strlen(buf), &back, &e));
    assert_int_equal(back, fsamples[i]);
  }
  for (uint32_t bits = 0; bits < 0x7c00; bits += 7) { /* a spread of finite halves */
    char buf[64];
    cli_format_component(h, bits, buf, sizeof buf);
    uint64_t back;
    cli_error e;
    assert_true(cli_scalar_parse(h, buf, strlen(buf), &back, &e));
    assert_int_equal(back, bits);
  }
}

static char *print_max(int index, const char *type, size_t count, const void *data, size_t max) {
  cli_elem t;
  assert_true(cli_elem_parse(type, strlen(type), &t));
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  assert_non_null(f);
  cli_print_buffer(f, index, t, count, data, max);
  fclose(f);
  return text;
}

static char *print_to_string(int index, const char *type, size_t count, const void *data) {
  return print_max(index, type, count, data, 256);
}

static void test_lines(void **state) {
  (void)state;
  const unsigned char f4[16] = {0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40, 0, 0, 0x80, 0x40};
  char *s = print_to_string(2, "float", 4, f4);
  assert_string_equal(s, "arg2 float[4]: 1 2 3 4\n");
  free(s);
  s = print_to_string(0, "float4", 1, f4);
  assert_string_equal(s, "arg0 float4[1]: (1 2 3 4)\n");
  free(s);
  /* float3: 4 slots per element, the padding slot (here 99.0f = 0x42c60000) is not shown. */
  const unsigned char f3[32] = {0, 0, 0x80, 0x3f, 0, 0, 0,    0x40, 0, 0, 0x40, 0x40, 0, 0, 0xc6, 0x42,
                                0, 0, 0x80, 0x40, 0, 0, 0xa0, 0x40, 0, 0, 0xc0, 0x40, 0, 0, 0,    0};
  s = print_to_string(1, "float3", 2, f3);
  assert_string_equal(s, "arg1 float3[2]: (1 2 3) (4 5 6)\n");
  free(s);
  const unsigned char c[3] = {0xff, 0x00, 0x7f};
  s = print_to_string(5, "char", 3, c);
  assert_string_equal(s, "arg5 char[3]: -1 0 127\n");
  free(s);
  const unsigned char h2[4] = {0x00, 0x3e, 0x00, 0xc0};
  s = print_to_string(3, "half2", 1, h2);
  assert_string_equal(s, "arg3 half2[1]: (1.5 -2)\n");
  free(s);
}

/* --print=N: at most N elements, the first ceil(N/2) and the last floor(N/2), after a summary
 * line whose min/max/NaN count cover every element; lines wrapped before 100 columns. */
static void test_bounded(void **state) {
  (void)state;
  int32_t ints[40];
  for (int i = 0; i < 40; i++) ints[i] = i < 10 ? i : 1000 + i - 10;
  char *s = print_max(0, "int", 10, ints, 4);
  assert_string_equal(s, "arg0 int[10]: 10 elements, 4 shown (the first 2 and the last 2); min 0, max 9\n"
                         "  [0] 0 1\n"
                         "  ...\n"
                         "  [8] 8 9\n");
  free(s);
  s = print_max(0, "int", 10, ints, 3); /* an odd N: one more at the start */
  assert_string_equal(s, "arg0 int[10]: 10 elements, 3 shown (the first 2 and the last 1); min 0, max 9\n"
                         "  [0] 0 1\n"
                         "  ...\n"
                         "  [9] 9\n");
  free(s);
  /* 30 values 1000..1029 do not fit one line (12 + 2 + 30 * 5 > 100): "  [0]" and 19 of " 1000"
   * fill 100 columns, "  [19]" and 18 the next, and the rest. */
  s = print_max(1, "int", 30, ints + 10, 256);
  assert_string_equal(s, "arg1 int[30]: 30 elements; min 1000, max 1029\n"
                         "  [0] 1000 1001 1002 1003 1004 1005 1006 1007 1008 1009 1010 1011 1012 1013 1014 1015 "
                         "1016 1017 1018\n"
                         "  [19] 1019 1020 1021 1022 1023 1024 1025 1026 1027 1028 1029\n");
  free(s);
  /* floats: NaNs counted, not ordered; -inf is the minimum; --print=0 keeps the summary alone */
  const float fl[5] = {NAN, -INFINITY, 2.5f, NAN, -0.5f};
  s = print_max(2, "float", 5, fl, 0);
  assert_string_equal(s, "arg2 float[5]: 5 elements, none shown; min -inf, max 2.5, 2 NaN\n");
  free(s);
  const float nan2[2] = {NAN, NAN};
  s = print_max(3, "float", 2, nan2, 1);
  assert_string_equal(s, "arg3 float[2]: 2 elements, 1 shown (the first 1 and the last 0); 2 NaN\n  [0] nan\n  ...\n");
  free(s);
  /* signed minimum and maximum compare as signed; vectors over every component, not the padding */
  const unsigned char c[3] = {0xff, 0x00, 0x7f};
  s = print_max(5, "char", 3, c, 1);
  assert_string_equal(s, "arg5 char[3]: 3 elements, 1 shown (the first 1 and the last 0); min -1, max 127\n"
                         "  [0] -1\n  ...\n");
  free(s);
  const float f3[8] = {1, -2, 3, -99, 4, 5, 6, 99};
  s = print_max(1, "float3", 2, f3, 1);
  assert_string_equal(s, "arg1 float3[2]: 2 elements, 1 shown (the first 1 and the last 0); min -2, max 6, 0 NaN\n"
                         "  [0] (1 -2 3)\n  ...\n");
  free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_components),
    cmocka_unit_test(test_round_trip),
    cmocka_unit_test(test_lines),
    cmocka_unit_test(test_bounded),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
