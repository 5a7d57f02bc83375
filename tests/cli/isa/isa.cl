// Kernels whose results test_isa.sh compares between the executor's baseline and AVX2 copies
// (interp/ex_exec.c "Instruction sets"): every operand comes from random bits, so NaN payloads,
// infinities, subnormals, signed zeros and integer edge cases all occur. No a*b+c pattern outside
// fma() (clang may contract it into `mad`).

// Single precision: arithmetic, compares, conversions; 12 results per item.
kernel void fops(global uint *out, global const uint *bits) {
  size_t i = get_global_id(0);
  float a = as_float(bits[3 * i]), b = as_float(bits[3 * i + 1]), c = as_float(bits[3 * i + 2]);
  global uint *o = out + 12 * i;
  o[0] = as_uint(a + b);
  o[1] = as_uint(a - b);
  o[2] = as_uint(a * b);
  o[3] = as_uint(a / b);
  o[4] = as_uint(fma(a, b, c));
  o[5] = as_uint(-a);
  o[6] = (a < b) | (a == b) << 1 | (a != b) << 2 | isnan(a) << 3 | isinf(b) << 4 | (a >= c) << 5;
  o[7] = as_uint(a > b ? a : c);
  o[8] = (uint)convert_int_sat(a);
  o[9] = convert_uint_sat_rte(b);
  o[10] = as_uint(convert_float((int)bits[3 * i + 2]));
  o[11] = as_uint(convert_float_rtz(bits[3 * i]));
}

// Double precision: the same shape on 64-bit lanes; 8 results per item.
kernel void dops(global ulong *out, global const ulong *bits) {
  size_t i = get_global_id(0);
  double a = as_double(bits[3 * i]), b = as_double(bits[3 * i + 1]), c = as_double(bits[3 * i + 2]);
  global ulong *o = out + 8 * i;
  o[0] = as_ulong(a + b);
  o[1] = as_ulong(a * b);
  o[2] = as_ulong(a / b);
  o[3] = as_ulong(fma(a, b, c));
  o[4] = (a < b) | (a == b) << 1 | isnan(a) << 2 | (a <= c) << 3;
  o[5] = (ulong)convert_long_sat(a);
  o[6] = as_ulong(convert_double(bits[3 * i + 2]));
  o[7] = as_uint(convert_float(a));
}

// Integers of every width: wrapping arithmetic, division by non-zero divisors, shifts, compares.
kernel void iops(global ulong *out, global const ulong *bits) {
  size_t i = get_global_id(0);
  ulong x = bits[2 * i], y = bits[2 * i + 1];
  global ulong *o = out + 10 * i;
  uchar x8 = (uchar)x, y8 = (uchar)y | 1;
  short x16 = (short)x, y16 = (short)(y | 1);
  int x32 = (int)x, y32 = (int)(y | 1);
  long x64 = (long)x, y64 = (long)(y | 1);
  o[0] = (uchar)(x8 * y8) | (ulong)(uchar)(x8 / y8) << 8 | (ulong)(uchar)(x8 >> (y8 & 7)) << 16;
  o[1] = (ushort)(x16 * y16) | (ulong)(ushort)(y16 == -1 ? 0 : x16 / y16) << 16 | (ulong)(ushort)(x16 % y16) << 32;
  o[2] = (uint)(x32 + y32) | (ulong)(uint)(y32 == -1 ? 0 : x32 / y32) << 32;
  o[3] = (ulong)(x64 * y64);
  o[4] = (ulong)(y64 == -1 ? 0 : x64 / y64);
  o[5] = x / (y | 1) + x % (y | 1);
  o[6] = x << (y & 63) ^ (ulong)(x64 >> (y & 63));
  o[7] = (x < y) | (x64 < y64) << 1 | (x32 < y32) << 2 | (x16 < y16) << 3 | (x8 <= y8) << 4;
  o[8] = popcount(x) | (ulong)clz(y) << 8 | (ulong)mul_hi(x, y) << 16;
  o[9] = (ulong)rotate(x32, y32) | (ulong)add_sat(x16, y16) << 32;
}

// Divergent control flow and gathers: a data-dependent loop per item (partial warps and blends),
// loads at random indexes, float vectors.
kernel void diverge(global float4 *out, global const uint *bits, global const float4 *v) {
  size_t i = get_global_id(0);
  uint n = bits[i] % 64, x = bits[i];
  float4 acc = v[i];
  for (uint k = 0; k < n; k++) {
    x = x & 1 ? 3 * x + 1 : x / 2;
    float4 w = v[x % get_global_size(0)];
    acc = k & 1 ? acc * w : acc - w.wzyx;
    if (x == 1) break;
  }
  out[i] = isnan(acc.x) ? (float4)(as_float(x)) : acc;
}

// The NaN rule of float arithmetic (interp/ex_exec.c, nan2_*): out[4i..4i+3] = a+b, a-b, a*b, a/b.
kernel void nan_rule(global uint *out, global const uint *a, global const uint *b) {
  size_t i = get_global_id(0);
  float x = as_float(a[i]), y = as_float(b[i]);
  out[4 * i] = as_uint(x + y);
  out[4 * i + 1] = as_uint(x - y);
  out[4 * i + 2] = as_uint(x * y);
  out[4 * i + 3] = as_uint(x / y);
}
kernel void nan_rule_d(global ulong *out, global const ulong *a, global const ulong *b) {
  size_t i = get_global_id(0);
  double x = as_double(a[i]), y = as_double(b[i]);
  out[2 * i] = as_ulong(x + y);
  out[2 * i + 1] = as_ulong(y * x);
}
