// printf (C 6.15.14) (tests/unit/test_kernel_builtins_printf.c): the text of every work-item, in
// work-item order, is compared with hand-written expected text. ret[] receives printf's results.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma clang diagnostic ignored "-Wformat"
#pragma clang diagnostic ignored "-Wformat-extra-args"

// integers, %c, %s, %%, flags, widths, precisions, length modifiers
kernel void pf_int(global int *ret, global const int *a, global const long *l) {
  size_t i = get_global_id(0);
  int x = a[i];
  ret[2 * i] = printf("[%d] d=%d i=%i u=%u x=%x X=%X o=%o #x=%#x #o=%#o c=%c s=%s %%\n", (int)i, x, x, x, x,
                      x, x, x, x, 'A' + (int)i, "str");
  ret[2 * i + 1] = printf("w=%5d|%-5d|%05d|%.3d|%+d|% d|%.0d|hh=%hhd,%hhu h=%hd,%hx l=%ld,%lu,%lx\n", x, x, x, x,
                          x, x, 0, x, x, x, x, l[i], l[i], l[i]);
}

// floating point: f e g a and their upper-case forms, flags, precisions, inf and NaN
kernel void pf_float(global int *ret, global const double *d, global const float *f) {
  size_t i = get_global_id(0);
  double x = d[i];
  float y = f[i];
  ret[i] = printf("f=%f e=%e g=%g a=%a F=%F E=%E G=%G A=%A | y=%.3f %.2e %g\n", x, x, x, x, x, x, x, x, y, y, y);
}

// fixed values: each conversion once, with the text derived by hand in the test
kernel void pf_fixed(global int *ret) {
  ret[0] = printf("%.0f %.0f %.2f %+.1f % .2e %08.3f %#.0f %#g %-8.2f| %10.4g|\n", 2.5, 3.5, 0.125, 2.25,
                  12345.678, -3.14159, 3.0, 1.0, 1.005, 3.14159265);
  ret[1] = printf("%g %g %g %g %G %.3g %g\n", 0.0001, 0.00001, 123456789.0, 100000.0, 1e-10, 1234.5, 1e6);
  ret[2] = printf("%a %a %A %a %.1a %e %f\n", 1.0, 0.5, 255.5, -0.0, 1.96875, 0.0, -0.0);
  ret[3] = printf("%f %F %e %E %g %5.1f|%-6f|%+f\n", INFINITY, -INFINITY, NAN, -NAN, -INFINITY, NAN, INFINITY,
                  INFINITY);
  ret[4] = printf("%.10f %.3f %.1f %.17g\n", 0.1f, 1e-4f, 0.05f, 0.1);
  ret[5] = printf("%.3s|%-5s|%5.1s|%c|%s|\n", "abcdef", "ab", "xyz", 0, "");
  ret[6] = printf("%f %.2e %g\n", 1.5h, -0.25h, 65504.0h);   // half arguments (promoted)
}

// vector specifiers (no promotion of vector arguments)
kernel void pf_vec(global int *ret, global const float4 *f4) {
  size_t i = get_global_id(0);
  float4 f = f4[i];
  uchar4 uc = (uchar4)(0xFA, 0xFB, 0xFC, 0xFD);
  ret[2 * i] = printf("f4 = %2.2v4hlf|%v4hlf|%#v4hhx|%v2hhd|%v3hd|%v2ld\n", f, f, uc, (char2)(-1, (char)i),
                      (short3)(-300, 0, 32767), (long2)(-9223372036854775807L - 1, 7));
  ret[2 * i + 1] = printf("%v8hu|%v2lf|%v2hf|%v16hhx|%.1v4hle|%v2hli|%#v2lo\n", (ushort8)(0, 1, 2, 3, 4, 5, 6, 65535),
                          (double2)(0.5, -2.0), (half2)(1.5h, -0.25h),
                          (uchar16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 255), f,
                          (int2)(-5, (int)i), (long2)(8, 0));
}

// printf in a called function
__attribute__((noinline)) void pf_show(int k, int x) { printf("show(%d)=%+05d\n", k, x); }

// more than 5 arguments, printf in divergent control flow, in a loop and in a called function
kernel void pf_many(global int *ret, global const int *a) {
  size_t i = get_global_id(0);
  int x = a[i];
  ret[i] = printf("%d %d %d %d %d %d %d %d %ld %s %c %u %x %o %.1f %e\n", x, x + 1, x + 2, x + 3, x + 4, x + 5,
                  x + 6, x + 7, (long)x * 1000000000000L, "many", 'a' + x, (uint)x, x, x, (double)x / 4,
                  (float)x);
  if (i % 2)
    printf("odd %d\n", (int)i);
  else
    printf("even %d\n", (int)i);
  for (int k = 0; k < (int)i; ++k) printf("%d%s", k, k + 1 < (int)i ? "," : "\n");
  pf_show((int)i, -x);
}

// an invalid call (a double for %d: undefined in C 6.15.14; spvi prints nothing for the whole
// call and returns -1) between two valid ones
kernel void pf_invalid(global int *ret) {
  ret[0] = printf("before\n");
  ret[1] = printf("bad %d %s\n", 1.5, "x");
  ret[2] = printf("after %d\n", 7);
}

// %p prints the pointer's value (C 6.15.14.2), the integer (ulong)p gives: each "%p" is followed by
// the same pointer's (ulong) in %lx (global, local and private memory), then a null pointer.
kernel void pf_ptr(global int *ret, global int *buf) {
  local int loc[4];
  int priv[2];
  size_t i = get_global_id(0);
  loc[i % 4] = (int)i;
  priv[i % 2] = buf[i];
  global int *g = buf + i;
  local int *l = &loc[i % 4];
  int *p = &priv[1];
  ret[i] = printf("%p %lx|%p %lx|%p %lx|%p\n", g, (ulong)g, l, (ulong)l, p, (ulong)p, (global int *)0);
}
