// cflags: -gline-tables-only
// printf formats OpenCL C leaves undefined (tests/unit/test_reports.c): each call is a report at
// its source line, prints nothing and returns -1 (spvi's definition, builtins/bi_printf.c).
#pragma clang diagnostic ignored "-Wformat"
#pragma clang diagnostic ignored "-Wformat-extra-args"

// Report (@pf-no-length): "%v4f" has a vector specifier without its length modifier (C 6.15.14.2:
// "If a vector specifier appears without a length modifier, the behavior is undefined").
kernel void pf_no_length(global int *ret) {
  float4 f = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  ret[get_global_id(0)] = printf("%v4f\n", f);  // @pf-no-length
}

// Correct: the same vector with its length modifier hl (float elements), and an int vector with hh.
kernel void pf_valid(global int *ret) {
  float4 f = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  uchar4 c = (uchar4)(1, 2, 3, 4);
  ret[get_global_id(0)] = printf("%v4hlf %v4hhu\n", f, c);
}
