/*
 * test_kernel_builtins_printf.c — printf (C 6.15.14) from OpenCL C (tests/kernels/bi_printf.cl).
 *
 * The output is captured with spvi_run_options.on_printf (each work-item's text, work-groups in
 * order, work-items in local id order) for every variant (-O0, -O2) at warp widths 1, 0 and 7, and
 * compared byte for byte with expected text written here by hand from C99 7.19.6.1 / C 6.15.14
 * (derivations in the comments: ties of %f/%e round to even on the exact binary value, %a is the
 * exact hexadecimal significand, inf/nan spellings as C99 allows). printf's return values go to a
 * buffer that starts with a sentinel: 0 for every valid call, -1 for the invalid one (spvi's
 * definition of the undefined case: nothing printed).
 */
#include "kernel_builtins_harness.h"
#include "load.h"

typedef struct kb_text {
  char *p;
  size_t len, cap;
} kb_text;

static void kb_on_printf(void *user, const char *text, size_t len) {
  kb_text *t = user;
  if (t->len + len + 1 > t->cap) {
    size_t cap = (t->len + len + 1) * 2;
    char *q = realloc(t->p, cap);
    if (!q) return; /* the comparison then fails */
    t->p = q;
    t->cap = cap;
  }
  memcpy(t->p + t->len, text, len);
  t->len += len;
  t->p[t->len] = '\0';
}

static kb_text kb_pf_text; /* freed by the test (and by kb_pf_teardown after a failure) */

static int kb_pf_teardown(void **state) {
  free(kb_pf_text.p);
  memset(&kb_pf_text, 0, sizeof kb_pf_text);
  return kb_teardown(state);
}

/* show the first difference of two texts */
static void kb_text_diff(const char *ctx, const char *got, size_t glen, const char *want, size_t wlen) {
  size_t i = 0;
  while (i < glen && i < wlen && got[i] == want[i]) ++i;
  print_error(
    "%s: printf output differs at byte %zu (got %zu bytes, expected %zu)\n--- got:\n%.*s\n--- expected:\n%.*s\n", ctx,
    i, glen, wlen, (int)glen, got, (int)wlen, want);
}

/* pf_ptr's text: per line, pairs "0xP V|" where P (%p) must equal V ((ulong)p in %lx), the last
 * field a null pointer's "0x0". */
static void kb_check_ptr_text(const char *ctx, const char *text, size_t lines) {
  size_t n = 0;
  for (const char *at = text; *at; n++) {
    for (int k = 0; k < 3; k++) {
      unsigned long long pv, iv;
      int used = 0;
      if (sscanf(at, "0x%llx %llx|%n", &pv, &iv, &used) != 2 || !used) fail_msg("%s: bad line: %s", ctx, at);
      if (pv != iv) fail_msg("%s: %%p printed 0x%llx, (ulong)p is 0x%llx: %s", ctx, pv, iv, at);
      at += used;
    }
    if (strncmp(at, "0x0\n", 4) != 0) fail_msg("%s: a null pointer's %%p is not 0x0: %s", ctx, at);
    at += 4;
  }
  assert_int_equal(n, lines);
}

/* Runs `kernel` of tests/kernels/bi_printf.cl: arg 0 is the int return-value buffer (count ints,
 * filled with a sentinel before the run), then `extra` argument buffers; G work-items in groups of
 * L; the captured text must equal `want` (NULL: pass kb_check_ptr_text), ret[] must equal want_ret. */
static void kb_printf_case(const char *kernel, size_t G, size_t L, const kt_arg *extra, int nextra, size_t count,
                           const int32_t *want_ret, const char *want, size_t wlen) {
  static const char *const variants[] = {"O0", "O2"};
  const char *build = tl_build_dir();
  int32_t *init = kb_alloc(count * 4);
  for (size_t i = 0; i < count; ++i) init[i] = 0x5a5a5a5a;
  int ran = 0;
  for (size_t v = 0; v < 2; ++v) {
    char path[512], skip[512], reason[512];
    snprintf(path, sizeof path, "%s/kernels/bi_printf.%s.spv", build, variants[v]);
    if (!kt_exists(path)) {
      snprintf(skip, sizeof skip, "%s/kernels/bi_printf.%s.skip", build, variants[v]);
      if (!kt_exists(skip)) fail_msg("%s is missing: run `BUILD=%s sh tests/kernels/build.sh` first", path, build);
      kt_first_line(skip, reason, sizeof reason);
      print_message("[  SKIP    ] bi_printf.%s %s: %s\n", variants[v], kernel, reason);
      continue;
    }
    ++ran;
    spvi_error err;
    memset(&err, 0, sizeof err);
    kt_g.m = spvi_load_file(path, NULL, &err);
    if (!kt_g.m) fail_msg("%s: %s", path, err.message);
    int k = spvi_find_kernel(kt_g.m, kernel);
    if (k < 0) fail_msg("%s: kernel %s not found", path, kernel);
    assert_int_equal(spvi_kernel_param_count(kt_g.m, k), 1 + nextra);
    for (size_t w = 0; w < KT_COUNT(KT_WARPS); ++w) {
      char ctx[256];
      snprintf(ctx, sizeof ctx, "bi_printf.%s %s, warp width %u", variants[v], kernel, KT_WARPS[w]);
      kt_g.l = spvi_launch_new(kt_g.m, k, &err);
      if (!kt_g.l) fail_msg("%s: spvi_launch_new: %s", ctx, err.message);
      if (spvi_set_arg_buffer(kt_g.l, 0, init, count * 4, &err) != SPVI_OK) fail_msg("%s: %s", ctx, err.message);
      for (int a = 0; a < nextra; ++a)
        if (spvi_set_arg_buffer(kt_g.l, 1 + a, extra[a].data, extra[a].bytes, &err) != SPVI_OK)
          fail_msg("%s: argument %d: %s", ctx, 1 + a, err.message);
      size_t g[1] = {G}, l[1] = {L};
      if (spvi_set_ndrange(kt_g.l, 1, g, l, NULL, &err) != SPVI_OK) fail_msg("%s: %s", ctx, err.message);
      spvi_run_options ro;
      memset(&ro, 0, sizeof ro);
      ro.warp_width = KT_WARPS[w];
      ro.on_printf = kb_on_printf;
      ro.printf_user = &kb_pf_text;
      kb_pf_text.len = 0;
      if (kb_pf_text.p) kb_pf_text.p[0] = '\0';
      spvi_fault fault;
      memset(&fault, 0, sizeof fault);
      spvi_status s = spvi_run(kt_g.l, &ro, &fault, &err);
      if (s != SPVI_OK)
        fail_msg("%s: spvi_run status %d: %s%s", ctx, (int)s, err.message, s == SPVI_FAULT ? fault.message : "");
      if (!want) kb_check_ptr_text(ctx, kb_pf_text.p ? kb_pf_text.p : "", G);
      else if (kb_pf_text.len != wlen || memcmp(kb_pf_text.p ? kb_pf_text.p : "", want, wlen) != 0) {
        kb_text_diff(ctx, kb_pf_text.p ? kb_pf_text.p : "", kb_pf_text.len, want, wlen);
        fail();
      }
      size_t bytes = 0;
      const int32_t *ret = spvi_arg_buffer(kt_g.l, 0, &bytes);
      assert_int_equal(bytes, count * 4);
      for (size_t i = 0; i < count; ++i)
        if (ret[i] != want_ret[i])
          fail_msg("%s: printf call %zu returned %d, expected %d", ctx, i, ret[i], want_ret[i]);
      spvi_launch_free(kt_g.l);
      kt_g.l = NULL;
    }
    spvi_module_free(kt_g.m);
    kt_g.m = NULL;
  }
  if (!ran) skip();
}

static const int32_t kb_zeros[16];

static void test_printf_int(void **state) {
  (void)state;
  static const int32_t a[4] = {-1, 300, 0, INT32_MIN};
  static const int64_t l[4] = {INT64_MIN, 70000, 0, -1};
  kt_arg ex[2] = {KT_BUF_IN(a, sizeof a), KT_BUF_IN(l, sizeof l)};
  /* -1: u = 2^32 - 1 = 4294967295, octal 37777777777 (32 bits = 2 + 10 * 3 bits), %#o adds a 0;
   *     %05d pads after the sign; %.3d -> -001; %.0d of 0 prints nothing; %hhu(-1) = 255,
   *     %hx(-1) = ffff; LONG_MIN: %lu = 2^63, %lx = 8 followed by 15 zeros.
   * 300: %hhd/%hhu -> 300 mod 256 = 44; 0x12c; octal 454 (4*64 + 5*8 + 4); 70000 = 0x11170.
   * 0: %#x and %#o of 0 print "0"; %+d -> +0, % d -> " 0".
   * INT_MIN: u = 2^31 = 2147483648, 0x80000000, octal 2^31 = 2 * 8^10 = 20000000000; the low byte
   *     and the low half are 0; -1 as long: %lu = 2^64 - 1 = 18446744073709551615.
   * %c: 'A' + i. */
  const char *want =
    "[0] d=-1 i=-1 u=4294967295 x=ffffffff X=FFFFFFFF o=37777777777 #x=0xffffffff #o=037777777777 c=A s=str %\n"
    "w=   -1|-1   |-0001|-001|-1|-1||hh=-1,255 h=-1,ffff l=-9223372036854775808,9223372036854775808,8000000000000000\n"
    "[1] d=300 i=300 u=300 x=12c X=12C o=454 #x=0x12c #o=0454 c=B s=str %\n"
    "w=  300|300  |00300|300|+300| 300||hh=44,44 h=300,12c l=70000,70000,11170\n"
    "[2] d=0 i=0 u=0 x=0 X=0 o=0 #x=0 #o=0 c=C s=str %\n"
    "w=    0|0    |00000|000|+0| 0||hh=0,0 h=0,0 l=0,0,0\n"
    "[3] d=-2147483648 i=-2147483648 u=2147483648 x=80000000 X=80000000 o=20000000000 #x=0x80000000 "
    "#o=020000000000 c=D s=str %\n"
    "w=-2147483648|-2147483648|-2147483648|-2147483648|-2147483648|-2147483648||hh=0,0 h=0,0 "
    "l=-1,18446744073709551615,ffffffffffffffff\n";
  kb_printf_case("pf_int", 4, 2, ex, 2, 8, kb_zeros, want, strlen(want));
}

static void test_printf_float(void **state) {
  (void)state;
  /* d: 1.5 = 0x1.8p+0; -0.125 = -0x1p-3; 1e10 = 0x2540be400 = 0x1.2a05f2p+33; 0; 2^-1074 =
   * 4.9406564584124654e-324 (%e 6 digits: 4.940656, %g 6 significant: 4.94066), %a of a
   * subnormal double: 0x0.0000000000001p-1022; -inf.
   * f (promoted to double): 0.5; -2; 100; 0.001f = 0.00100000004749745130538940429688 (%.3f ->
   * 0.001, %g -> 0.001); 65504; NaN. */
  static const double d[6] = {1.5, -0.125, 1e10, 0.0, 0x1p-1074, -INFINITY};
  static const float f[6] = {0.5f, -2.0f, 100.0f, 1e-3f, 65504.0f, NAN};
  kt_arg ex[2] = {KT_BUF_IN(d, sizeof d), KT_BUF_IN(f, sizeof f)};
  const char *want =
    "f=1.500000 e=1.500000e+00 g=1.5 a=0x1.8p+0 F=1.500000 E=1.500000E+00 G=1.5 A=0X1.8P+0 | y=0.500 5.00e-01 0.5\n"
    "f=-0.125000 e=-1.250000e-01 g=-0.125 a=-0x1p-3 F=-0.125000 E=-1.250000E-01 G=-0.125 A=-0X1P-3 | y=-2.000 -2.00e+00 -2\n"
    "f=10000000000.000000 e=1.000000e+10 g=1e+10 a=0x1.2a05f2p+33 F=10000000000.000000 E=1.000000E+10 G=1E+10 "
    "A=0X1.2A05F2P+33 | y=100.000 1.00e+02 100\n"
    "f=0.000000 e=0.000000e+00 g=0 a=0x0p+0 F=0.000000 E=0.000000E+00 G=0 A=0X0P+0 | y=0.001 1.00e-03 0.001\n"
    "f=0.000000 e=4.940656e-324 g=4.94066e-324 a=0x0.0000000000001p-1022 F=0.000000 E=4.940656E-324 "
    "G=4.94066E-324 A=0X0.0000000000001P-1022 | y=65504.000 6.55e+04 65504\n"
    "f=-inf e=-inf g=-inf a=-inf F=-INF E=-INF G=-INF A=-INF | y=nan nan nan\n";
  kb_printf_case("pf_float", 6, 3, ex, 2, 6, kb_zeros, want, strlen(want));
}

static void test_printf_fixed(void **state) {
  (void)state;
  /* line 1: 2.5 and 3.5 are ties: %.0f -> 2 and 4 (even); 0.125 -> 0.12 (tie, even); 2.25 ->
   * +2.2; % .2e of 12345.678 -> " 1.23e+04"; %08.3f of -3.14159 -> -003.142 (8 wide, zeros after
   * the sign); %#.0f keeps the point: "3."; %#g keeps the zeros: 1.00000; 1.005 is
   * 1.00499999999999989... -> 1.00, left-justified in 8; %10.4g of 3.14159265 -> "     3.142".
   * line 2: %g: 0.0001 (exponent -4 >= -4: style f), 1e-05 (exponent -5: style e), 1.23457e+08,
   * 100000 (exponent 5 < 6), %G 1E-10, %.3g of 1234.5 -> 1.23e+03 (exponent 3 >= P = 3), 1e+06.
   * line 3: %a 1 -> 0x1p+0, 0.5 -> 0x1p-1, %A 255.5 = 0x1.ffp+7 -> 0X1.FFP+7, -0 -> -0x0p+0;
   * %.1a of 1.96875 = 0x1.f8p+0: the tie between 0x1.fp+0 and 0x2.0p+0 goes to the even digit ->
   * 0x2.0p+0; %e of 0 -> 0.000000e+00; %f of -0 -> -0.000000.
   * line 4: inf, -INF, nan, -NAN (sign bit set), -inf, %5.1f of NaN -> "  nan" (spaces, never
   * zeros), %-6f of inf -> "inf   ", %+f -> +inf.
   * line 5: 0.1f = 0.100000001490116119384765625 -> %.10f 0.1000000015; 1e-4f = 0.0000999999974...
   * -> %.3f 0.000; 0.05f = 0.0500000007450580596923828125 -> %.1f 0.1; %.17g of 0.1 ->
   * 0.10000000000000001.
   * line 6: %.3s -> abc, %-5s of ab -> "ab   ", %5.1s of xyz -> "    x", %c of 0 writes a NUL byte,
   * %s of "" -> nothing.
   * line 7: half arguments promoted to double: 1.5 -> 1.500000, -0.25 -> -2.50e-01, 65504 -> 65504. */
  static const char want[] = "2 4 0.12 +2.2  1.23e+04 -003.142 3. 1.00000 1.00    |      3.142|\n"
                             "0.0001 1e-05 1.23457e+08 100000 1E-10 1.23e+03 1e+06\n"
                             "0x1p+0 0x1p-1 0X1.FFP+7 -0x0p+0 0x2.0p+0 0.000000e+00 -0.000000\n"
                             "inf -INF nan -NAN -inf   nan|inf   |+inf\n"
                             "0.1000000015 0.000 0.1 0.10000000000000001\n"
                             "abc|ab   |    x|\0||\n"
                             "1.500000 -2.50e-01 65504\n";
  kb_printf_case("pf_fixed", 1, 1, NULL, 0, 7, kb_zeros, want, sizeof want - 1);
}

static void test_printf_vec(void **state) {
  (void)state;
  /* f4: (1, 2, 3, 4) and (-0.5, 0.25, 1e10, -1e-3f); -1e-3f = -0.00100000004749745... -> %.2f -0.00,
   * %f -0.001000, %.1e -1.0e-03. %#v2lo of (8, 0) -> 010,0 (no prefix for 0). */
  static const float f4[8] = {1, 2, 3, 4, -0.5f, 0.25f, 1e10f, -1e-3f};
  kt_arg ex[1] = {KT_BUF_IN(f4, sizeof f4)};
  const char *want =
    "f4 = 1.00,2.00,3.00,4.00|1.000000,2.000000,3.000000,4.000000|0xfa,0xfb,0xfc,0xfd|-1,0|-300,0,32767|"
    "-9223372036854775808,7\n"
    "0,1,2,3,4,5,6,65535|0.500000,-2.000000|1.500000,-0.250000|0,1,2,3,4,5,6,7,8,9,a,b,c,d,e,ff|"
    "1.0e+00,2.0e+00,3.0e+00,4.0e+00|-5,0|010,0\n"
    "f4 = -0.50,0.25,10000000000.00,-0.00|-0.500000,0.250000,10000000000.000000,-0.001000|0xfa,0xfb,0xfc,0xfd|"
    "-1,1|-300,0,32767|-9223372036854775808,7\n"
    "0,1,2,3,4,5,6,65535|0.500000,-2.000000|1.500000,-0.250000|0,1,2,3,4,5,6,7,8,9,a,b,c,d,e,ff|"
    "-5.0e-01,2.5e-01,1.0e+10,-1.0e-03|-5,1|010,0\n";
  kb_printf_case("pf_vec", 2, 1, ex, 1, 4, kb_zeros, want, strlen(want));
}

static void test_printf_many(void **state) {
  (void)state;
  /* 16 arguments; x / 4: 0.0, 1.25 -> 1.2 (tie, even), -0.75 -> -0.8 (tie, even), 25.0;
   * 'a' + x: a, f, '^' (97 - 3 = 94), byte 197 (0xc5: %c writes the unsigned char);
   * -3: %u 4294967293, %x fffffffd, %o 37777777775; 100: 0x64, octal 144.
   * Then "even"/"odd" by the item's parity, for item i the numbers 0 .. i-1, and from the called
   * function show(i)=%+05d of -x: sign, then zeros to 5 characters (+0000, -0005, +0003, -0100). */
  static const int32_t a[4] = {0, 5, -3, 100};
  kt_arg ex[1] = {KT_BUF_IN(a, sizeof a)};
  const char *want = "0 1 2 3 4 5 6 7 0 many a 0 0 0 0.0 0.000000e+00\n"
                     "even 0\n"
                     "show(0)=+0000\n"
                     "5 6 7 8 9 10 11 12 5000000000000 many f 5 5 5 1.2 5.000000e+00\n"
                     "odd 1\n"
                     "0\n"
                     "show(1)=-0005\n"
                     "-3 -2 -1 0 1 2 3 4 -3000000000000 many ^ 4294967293 fffffffd 37777777775 -0.8 -3.000000e+00\n"
                     "even 2\n"
                     "0,1\n"
                     "show(2)=+0003\n"
                     "100 101 102 103 104 105 106 107 100000000000000 many \xc5 100 64 144 25.0 1.000000e+02\n"
                     "odd 3\n"
                     "0,1,2\n"
                     "show(3)=-0100\n";
  kb_printf_case("pf_many", 4, 2, ex, 1, 4, kb_zeros, want, strlen(want));
}

static void test_printf_invalid(void **state) {
  (void)state;
  static const int32_t ret[3] = {0, -1, 0};
  kb_printf_case("pf_invalid", 1, 1, NULL, 0, 3, ret, "before\nafter 7\n", 15);
}

/* %p shows the integer value of the pointer, the one (ulong)p gives (a global, a local and a
 * private pointer), and 0x0 for null */
static void test_printf_ptr(void **state) {
  (void)state;
  static const int32_t buf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  kt_arg ex[1] = {KT_BUF_IN(buf, sizeof buf)};
  kb_printf_case("pf_ptr", 8, 4, ex, 1, 8, kb_zeros, NULL, 0);
}

#define KB_PF_TEST(f) cmocka_unit_test_teardown(f, kb_pf_teardown)
int main(void) {
  const struct CMUnitTest tests[] = {
    KB_PF_TEST(test_printf_int), KB_PF_TEST(test_printf_float), KB_PF_TEST(test_printf_fixed),
    KB_PF_TEST(test_printf_vec), KB_PF_TEST(test_printf_many),  KB_PF_TEST(test_printf_invalid),
    KB_PF_TEST(test_printf_ptr),
  };
  return cmocka_run_group_tests_name("kernel_builtins_printf", tests, NULL, NULL);
}
