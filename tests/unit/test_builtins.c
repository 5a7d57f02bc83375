/*
 * test_builtins.c — bi_resolve (type checking, exact error messages, the full type sweep), the lane
 * machinery (partial and unordered lane lists, odd strides), the floating-point builtins for half/
 * float/double (hand-derived tables from the spec text; MPFR for sqrt, fma, rounding functions),
 * select/bitselect/shuffle/shuffle2 (hand-derived), and the memory builtins vloadn/vstoren/
 * vload_half(n)/vstore_half(n) and prefetch through a fake bounds-checked bi_mem.
 */
#include "builtins_harness.h"

#include <float.h>
#include <stdlib.h>

/* ==== bi_resolve ================================================================================== */

static void t_resolve_messages(void **state) {
  (void)state;
  const bi_type f4 = tf(32, 4), i4 = ti(32, 4);
  bi_type a[3] = {f4, f4, f4};
  expect_resolve_error(120, f4, a, 1, 0, "OpenCL.std instruction 120 does not exist");
  expect_resolve_error(9999, f4, a, 1, 0, "OpenCL.std instruction 9999 does not exist");
  a[0] = i4; /* a math function on integers */
  expect_resolve_error(OCLSTD_tgamma, i4, a, 1, 0, "OpenCL.std `tgamma` is not implemented for int4");
  a[0] = f4;
  a[0] = a[1] = a[2] = i4;
  expect_resolve_error(OCLSTD_fma, i4, a, 3, 0, "OpenCL.std `fma` is not implemented for int4");
  a[0] = a[1] = tf(32, 5);
  expect_resolve_error(OCLSTD_fmin, tf(32, 5), a, 2, 0, "OpenCL.std `fmin` is not implemented for float5");
  a[0] = a[1] = ti(16, 2);
  expect_resolve_error(OCLSTD_s_mul24, ti(16, 2), a, 2, 0, "OpenCL.std `s_mul24` is not implemented for short2");
  expect_resolve_error(OCLSTD_u_mul24, ti(16, 2), a, 2, 0, "OpenCL.std `u_mul24` is not implemented for ushort2");
  a[0] = a[1] = ti(64, 1);
  expect_resolve_error(OCLSTD_u_upsample, ti(128, 1), a, 2, 0, "OpenCL.std `u_upsample` is not implemented for ulong");
  a[0] = a[1] = ty(BI_BOOL, 8, 1);
  expect_resolve_error(OCLSTD_s_max, ty(BI_BOOL, 8, 1), a, 2, 0, "OpenCL.std `s_max` is not implemented for bool");
  /* operand rules */
  a[0] = a[1] = f4;
  a[2] = tf(32, 1);
  expect_resolve_error(OCLSTD_fma, f4, a, 3, 0, "OpenCL.std `fma`: operand 3 has type float, expected float4");
  a[2] = tf(16, 4);
  expect_resolve_error(OCLSTD_fclamp, f4, a, 3, 0, "OpenCL.std `fclamp`: operand 3 has type half4, expected float4");
  a[2] = f4;
  expect_resolve_error(OCLSTD_select, f4, a, 3, 0, "OpenCL.std `select`: operand 3 has type float4, expected int4");
  a[2] = ti(16, 4);
  expect_resolve_error(OCLSTD_select, f4, a, 3, 0, "OpenCL.std `select`: operand 3 has type short4, expected int4");
  expect_resolve_error(OCLSTD_fmin, f4, a, 3, 0, "OpenCL.std `fmin` takes 2 operands, not 3");
  expect_resolve_error(OCLSTD_fmin, f4, a, 1, 0, "OpenCL.std `fmin` takes 2 operands, not 1");
  a[0] = ti(8, 2);
  a[1] = ti(8, 2);
  expect_resolve_error(OCLSTD_u_upsample, ti(32, 2), a, 2, 0,
                       "OpenCL.std `u_upsample`: the result type is uint2, expected ushort2");
  /* shuffle: 3-component vectors are not allowed, mask width must match */
  a[0] = tf(32, 3);
  a[1] = ti(32, 4);
  expect_resolve_error(OCLSTD_shuffle, f4, a, 2, 0,
                       "OpenCL.std `shuffle`: operand 1 has type float3, expected a vector of 2, 4, 8 or 16 float");
  a[0] = f4;
  expect_resolve_error(OCLSTD_shuffle, tf(32, 3), a, 2, 0, "OpenCL.std `shuffle` is not implemented for float3");
  a[1] = ti(64, 4);
  expect_resolve_error(OCLSTD_shuffle, f4, a, 2, 0, "OpenCL.std `shuffle`: operand 2 has type long4, expected int4");
  a[0] = f4;
  a[1] = tf(32, 8);
  a[2] = ti(32, 4);
  expect_resolve_error(OCLSTD_shuffle2, f4, a, 3, 0,
                       "OpenCL.std `shuffle2`: operand 2 has type float8, expected float4");
  /* memory instructions */
  a[0] = ti(64, 1);
  a[1] = tptr(64, BI_FLOAT, 32);
  expect_resolve_error(OCLSTD_vloadn, f4, a, 2, 3,
                       "OpenCL.std `vloadn`: the literal n is 3 but the result has 4 components");
  expect_resolve_error(OCLSTD_vloadn, tf(32, 1), a, 2, 1, "OpenCL.std `vloadn` is not implemented for float");
  a[1] = tptr(64, BI_INT, 32);
  expect_resolve_error(OCLSTD_vloadn, f4, a, 2, 4,
                       "OpenCL.std `vloadn`: operand 2 has type pointer to int, expected a pointer to float");
  a[1] = tptr(64, BI_VOID, 0);
  must_resolve(OCLSTD_vloadn, f4, a, 2, 4); /* an unknown pointee is accepted */
  a[0] = ti(16, 1);
  expect_resolve_error(
    OCLSTD_vloadn, f4, a, 2, 4,
    "OpenCL.std `vloadn`: operand 1 has type short, expected a 32- or 64-bit integer scalar (size_t)");
  a[0] = tf(32, 1);
  a[1] = ti(64, 1);
  a[2] = tptr(64, BI_FLOAT, 16);
  expect_resolve_error(OCLSTD_vstore_half_r, tvoid(), a, 3, 4,
                       "OpenCL.std `vstore_half_r`: 4 is not an FPRoundingMode");
  must_resolve(OCLSTD_vstore_half_r, tvoid(), a, 3, 3);
  expect_resolve_error(OCLSTD_vstore_half, tf(32, 1), a, 3, 0,
                       "OpenCL.std `vstore_half`: the result type is float, expected void");
  a[2] = tptr(64, BI_FLOAT, 32);
  expect_resolve_error(OCLSTD_vstore_half, tvoid(), a, 3, 0,
                       "OpenCL.std `vstore_half`: operand 3 has type pointer to float, expected a pointer to half");
  a[0] = tf(16, 1);
  a[2] = tptr(64, BI_FLOAT, 16);
  expect_resolve_error(OCLSTD_vstore_half, tvoid(), a, 3, 0, "OpenCL.std `vstore_half` is not implemented for half");
  a[0] = tf(32, 4);
  expect_resolve_error(OCLSTD_vstore_half, tvoid(), a, 3, 0, "OpenCL.std `vstore_half` is not implemented for float4");
  /* a NULL error buffer is allowed */
  bi_resolved r;
  a[0] = i4;
  assert_false(bi_resolve(OCLSTD_tgamma, &i4, a, 1, 0, &r, NULL, 0));
}

/* Every instruction of this stage resolves for every type OpenCL allows, at every vector width. */
static void t_resolve_sweep(void **state) {
  (void)state;
  static const uint32_t f1[] = {OCLSTD_sqrt,  OCLSTD_fabs, OCLSTD_floor, OCLSTD_ceil,
                                OCLSTD_trunc, OCLSTD_rint, OCLSTD_round, OCLSTD_sign};
  static const uint32_t f2[] = {OCLSTD_fmin, OCLSTD_fmax, OCLSTD_copysign, OCLSTD_step};
  static const uint32_t f3[] = {OCLSTD_fma, OCLSTD_mad, OCLSTD_fclamp};
  static const uint32_t i1[] = {OCLSTD_s_abs, OCLSTD_u_abs, OCLSTD_clz, OCLSTD_ctz, OCLSTD_popcount};
  static const uint32_t i2[] = {OCLSTD_s_abs_diff, OCLSTD_u_abs_diff, OCLSTD_s_add_sat, OCLSTD_u_add_sat,
                                OCLSTD_s_sub_sat,  OCLSTD_u_sub_sat,  OCLSTD_s_hadd,    OCLSTD_u_hadd,
                                OCLSTD_s_rhadd,    OCLSTD_u_rhadd,    OCLSTD_s_max,     OCLSTD_u_max,
                                OCLSTD_s_min,      OCLSTD_u_min,      OCLSTD_rotate,    OCLSTD_s_mul_hi,
                                OCLSTD_u_mul_hi};
  static const uint32_t i3[] = {OCLSTD_s_clamp,  OCLSTD_u_clamp,   OCLSTD_s_mad_hi,
                                OCLSTD_u_mad_hi, OCLSTD_s_mad_sat, OCLSTD_u_mad_sat};
  static const unsigned ns[] = {1, 2, 3, 4, 8, 16};
  unsigned count = 0;
  for (int ni = 0; ni < 6; ni++) {
    const unsigned n = ns[ni];
    for (unsigned bits = 16; bits <= 64; bits *= 2) {
      const bi_type t = tf(bits, n), a[3] = {t, t, t};
      for (size_t i = 0; i < sizeof f1 / 4; i++, count++)
        assert_int_equal(must_resolve(f1[i], t, a, 1, 0).literal & 31, n);
      for (size_t i = 0; i < sizeof f2 / 4; i++, count++) must_resolve(f2[i], t, a, 2, 0);
      for (size_t i = 0; i < sizeof f3 / 4; i++, count++) must_resolve(f3[i], t, a, 3, 0);
    }
    for (unsigned bits = 8; bits <= 64; bits *= 2) {
      const bi_type t = ti(bits, n), a[3] = {t, t, t};
      for (size_t i = 0; i < sizeof i1 / 4; i++, count++) must_resolve(i1[i], t, a, 1, 0);
      for (size_t i = 0; i < sizeof i2 / 4; i++, count++) must_resolve(i2[i], t, a, 2, 0);
      for (size_t i = 0; i < sizeof i3 / 4; i++, count++) must_resolve(i3[i], t, a, 3, 0);
      if (bits == 32) {
        must_resolve(OCLSTD_s_mul24, t, a, 2, 0);
        must_resolve(OCLSTD_u_mul24, t, a, 2, 0);
        must_resolve(OCLSTD_s_mad24, t, a, 3, 0);
        must_resolve(OCLSTD_u_mad24, t, a, 3, 0);
        count += 4;
      }
      if (bits < 64) {
        const bi_type h[2] = {t, t};
        must_resolve(OCLSTD_s_upsample, ti(2 * bits, n), h, 2, 0);
        must_resolve(OCLSTD_u_upsample, ti(2 * bits, n), h, 2, 0);
        count += 2;
      }
    }
    for (int k = 0; k < 2; k++)
      for (unsigned bits = 8; bits <= 64; bits *= 2) {
        if (k && bits == 8) continue;
        const bi_type t = k ? tf(bits, n) : ti(bits, n), c = ti(bits, n), a[3] = {t, t, t}, s[3] = {t, t, c};
        must_resolve(OCLSTD_bitselect, t, a, 3, 0);
        must_resolve(OCLSTD_select, t, s, 3, 0);
        count += 2;
        for (unsigned m = 2; m <= 16 && n != 1 && n != 3; m *= 2) {
          const bi_type sh[3] = {k ? tf(bits, m) : ti(bits, m), ti(bits, n)};
          const bi_type sh2[3] = {sh[0], sh[0], ti(bits, n)};
          assert_int_equal((must_resolve(OCLSTD_shuffle, t, sh, 2, 0).literal >> 5) & 31, m);
          must_resolve(OCLSTD_shuffle2, t, sh2, 3, 0);
          count += 2;
        }
        if (n > 1)
          for (unsigned pb = 32; pb <= 64; pb *= 2) {
            const bi_type ld[2] = {ti(pb, 1), tptr(pb, t.kind, bits)};
            const bi_type st[3] = {t, ti(pb, 1), tptr(pb, t.kind, bits)};
            must_resolve(OCLSTD_vloadn, t, ld, 2, n);
            must_resolve(OCLSTD_vstoren, tvoid(), st, 3, 0);
            count += 2;
          }
      }
    for (unsigned bits = 32; bits <= 64; bits *= 2)
      for (unsigned pb = 32; pb <= 64; pb *= 2) {
        const bi_type t = tf(bits, n), ld[2] = {ti(pb, 1), tptr(pb, BI_FLOAT, 16)};
        const bi_type st[3] = {t, ti(pb, 1), tptr(pb, BI_FLOAT, 16)};
        if (n == 1) {
          must_resolve(OCLSTD_vload_half, t, ld, 2, 0);
          must_resolve(OCLSTD_vstore_half, tvoid(), st, 3, 0);
          for (uint32_t mode = 0; mode < 4; mode++) must_resolve(OCLSTD_vstore_half_r, tvoid(), st, 3, mode);
          count += 6;
        } else {
          must_resolve(OCLSTD_vload_halfn, t, ld, 2, n);
          must_resolve(OCLSTD_vloada_halfn, t, ld, 2, n);
          must_resolve(OCLSTD_vstore_halfn, tvoid(), st, 3, 0);
          must_resolve(OCLSTD_vstorea_halfn, tvoid(), st, 3, 0);
          for (uint32_t mode = 0; mode < 4; mode++) {
            must_resolve(OCLSTD_vstore_halfn_r, tvoid(), st, 3, mode);
            must_resolve(OCLSTD_vstorea_halfn_r, tvoid(), st, 3, mode);
          }
          count += 12;
        }
      }
  }
  const bi_type pf[2] = {tptr(64, BI_FLOAT, 32), ti(64, 1)};
  must_resolve(OCLSTD_prefetch, tvoid(), pf, 2, 0);
  print_message("bi_resolve: %u (instruction, type) combinations resolve\n", count + 1);
}

/* ==== lanes and strides ================================================================================= */

/* A partial, unordered lane list: only those lanes' results are written, each at its stride. */
static void t_partial_lanes(void **state) {
  (void)state;
  const bi_type t = tf(32, 3);
  const bi_resolved r = must_resolve(OCLSTD_fabs, t, &t, 1, 0);
  static warp w;
  const unsigned sb[1] = {12};
  warp_init(&w, 12, sb, 1);
  for (unsigned l = 0; l < W_LANES; l++)
    for (unsigned k = 0; k < 3; k++) put_elem(w_src(&w, 0, l) + 4 * k, 4, fbits(-(float)(10 * l + k)));
  const uint16_t lanes[3] = {4, 1, 3};
  memcpy(w.lanes, lanes, sizeof lanes);
  w.nlanes = 3;
  assert_true(warp_call(&r, &w, NULL));
  for (unsigned l = 0; l < W_LANES; l++) {
    const bool active = l == 1 || l == 3 || l == 4;
    for (unsigned b = 0; b < 12; b++)
      if (!active) assert_int_equal(w_dst(&w, l)[b], W_SENTINEL);
    if (active)
      for (unsigned k = 0; k < 3; k++) assert_int_equal(get_elem(w_dst(&w, l) + 4 * k, 4), fbits((float)(10 * l + k)));
  }
  w.nlanes = 0; /* no lanes: nothing happens */
  assert_true(warp_call(&r, &w, NULL));
}

/* ==== floating point ===================================================================================== */

/* The bit pattern of an exactly representable value in the format of `bits`; NAN stands for the
 * canonical quiet NaN. Half patterns are found by searching the ldexp-built values. */
static uint64_t enc(unsigned bits, double v) {
  if (isnan(v)) return bits == 16 ? 0x7e00 : bits == 32 ? 0x7fc00000u : 0x7ff8000000000000ull;
  if (bits == 64) return dbits(v);
  if (bits == 32) {
    const float f = (float)v;
    assert_true((double)f == v);
    return fbits(f);
  }
  for (uint32_t h = 0; h < 65536; h++) {
    const double hv = ref_half_value((uint16_t)h);
    if (hv == v && !signbit(hv) == !signbit(v)) return h;
  }
  fail_msg("%a is not a half", v);
  return 0;
}

/* Rows of `ncols` values: operands in columns 0 .. nargs-1, the expected result in column `col`;
 * checked for half, float and double (rows with a value not representable in a format are given
 * only to the formats that have it: `min_bits`). */
static void fp_table(uint32_t op, unsigned nargs, const double *rows, size_t nrows, unsigned ncols, unsigned col,
                     unsigned min_bits) {
  for (unsigned bits = min_bits; bits <= 64; bits *= 2) {
    uint64_t in[3][64], want[64];
    assert_true(nrows <= 64);
    for (size_t i = 0; i < nrows; i++) {
      for (unsigned j = 0; j < nargs; j++) in[j][i] = enc(bits, rows[i * ncols + j]);
      want[i] = enc(bits, rows[i * ncols + col]);
    }
    const uint64_t *const ins[3] = {in[0], in[1], in[2]};
    run_ew_all_widths(op, BI_FLOAT, bits, nargs, ins, want, nrows, NULL);
  }
}

static void t_fmin_fmax(void **state) {
  (void)state;
  /* x, y, fmin, fmax (§6.15.2; zeros ordered -0 < +0 by spvi's definition) */
  static const double rows[][4] = {
    {1, 2, 1, 2},
    {2, 1, 1, 2},
    {-0.0, 0.0, -0.0, 0.0},
    {0.0, -0.0, -0.0, 0.0},
    {-0.0, -0.0, -0.0, -0.0},
    {NAN, 3, 3, 3},
    {3, NAN, 3, 3},
    {NAN, NAN, NAN, NAN},
    {NAN, -0.0, -0.0, -0.0},
    {-INFINITY, 5, -INFINITY, 5},
    {INFINITY, -INFINITY, -INFINITY, INFINITY},
    {-1.5, -2.5, -2.5, -1.5},
    {0x1p-24, -0x1p-24, -0x1p-24, 0x1p-24},
    {65504, INFINITY, 65504, INFINITY},
  };
  const size_t n = sizeof rows / sizeof rows[0];
  fp_table(OCLSTD_fmin, 2, &rows[0][0], n, 4, 2, 16);
  fp_table(OCLSTD_fmax, 2, &rows[0][0], n, 4, 3, 16);
  /* NaN payloads: one NaN -> the other operand; two -> x quieted */
  uint64_t x[3] = {0x7f800001u, 0x7fc00123u, 0x3f800000u}, y[3] = {0xffc00005u, 0x7f800002u, 0x7f800003u};
  uint64_t wmin[3] = {0x7fc00001u, 0x7fc00123u, 0x3f800000u};
  const uint64_t *const in[2] = {x, y};
  run_ew(OCLSTD_fmin, BI_FLOAT, 32, 3, 2, in, wmin, 3, NULL);
  run_ew(OCLSTD_fmax, BI_FLOAT, 32, 3, 2, in, wmin, 3, NULL);
  uint64_t hx[2] = {0x7d00, 0xfc00}, hy[2] = {0x7e01, 0xfd00}, hw[2] = {0x7f00, 0xfc00};
  const uint64_t *const hin[2] = {hx, hy};
  run_ew(OCLSTD_fmin, BI_FLOAT, 16, 2, 2, hin, hw, 2, NULL);
}

static void t_fclamp_sign_step(void **state) {
  (void)state;
  /* fclamp(x, lo, hi) = fmin(fmax(x, lo), hi) (§6.15.4) */
  static const double clamp_rows[][4] = {
    {5, 0, 1, 1},   {-5, 0, 1, 0},     {0.5, 0, 1, 0.5},     {NAN, 0, 1, 0},         {-0.0, 0.0, 1, 0.0},
    {2, NAN, 1, 1}, {-2, -1, NAN, -1}, {INFINITY, -1, 1, 1}, {-INFINITY, -1, 1, -1},
  };
  fp_table(OCLSTD_fclamp, 3, &clamp_rows[0][0], sizeof clamp_rows / sizeof clamp_rows[0], 4, 3, 16);
  /* sign: 1, -1, ±0 kept, NaN -> +0 */
  static const double sign_rows[][2] = {
    {2.5, 1},      {-0.125, -1},    {0.0, 0.0},   {-0.0, -0.0},   {NAN, 0.0},
    {INFINITY, 1}, {-INFINITY, -1}, {0x1p-24, 1}, {-0x1p-24, -1}, {65504, 1},
  };
  fp_table(OCLSTD_sign, 1, &sign_rows[0][0], sizeof sign_rows / sizeof sign_rows[0], 2, 1, 16);
  static const double sign_tiny[][2] = {{0x1p-149, 1}, {-0x1p-149, -1}};
  fp_table(OCLSTD_sign, 1, &sign_tiny[0][0], 2, 2, 1, 32);
  /* step(edge, x): 0 if x < edge, else 1 (so 1 for NaN operands, and for -0 vs +0) */
  static const double step_rows[][3] = {
    {1, 0.5, 0},          {1, 1, 1},      {1, 2, 1},      {NAN, 1, 1},
    {1, NAN, 1},          {-0.0, 0.0, 1}, {0.0, -0.0, 1}, {-INFINITY, -65504, 1},
    {INFINITY, 65504, 0},
  };
  fp_table(OCLSTD_step, 2, &step_rows[0][0], sizeof step_rows / sizeof step_rows[0], 3, 2, 16);
}

static void t_rounding_hand(void **state) {
  (void)state;
  /* x, floor, ceil, trunc, rint (ties even), round (ties away) — §6.15.2 */
  static const double rows[][6] = {
    {2.5, 2, 3, 2, 2, 3},
    {-2.5, -3, -2, -2, -2, -3},
    {0.5, 0, 1, 0, 0, 1},
    {-0.5, -1, -0.0, -0.0, -0.0, -1},
    {1.5, 1, 2, 1, 2, 2},
    {-1.5, -2, -1, -1, -2, -2},
    {0.25, 0, 1, 0, 0, 0},
    {-0.25, -1, -0.0, -0.0, -0.0, -0.0},
    {-0.0, -0.0, -0.0, -0.0, -0.0, -0.0},
    {1023.5, 1023, 1024, 1023, 1024, 1024},
    {-1022.5, -1023, -1022, -1022, -1022, -1023},
    {65504, 65504, 65504, 65504, 65504, 65504},
    {INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY},
    {-INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY},
    {NAN, NAN, NAN, NAN, NAN, NAN},
    {0x1p-24, 0, 1, 0, 0, 0},
  };
  const size_t n = sizeof rows / sizeof rows[0];
  static const uint32_t ops[5] = {OCLSTD_floor, OCLSTD_ceil, OCLSTD_trunc, OCLSTD_rint, OCLSTD_round};
  for (unsigned i = 0; i < 5; i++) fp_table(ops[i], 1, &rows[0][0], n, 6, i + 1, 16);
  /* float/double only: the largest value below 0.5 (round must not compute floor(x + 0.5)) and
   * values near 2^23 / 2^52 */
  static const double big[][6] = {
    {0x1.fffffep-2, 0, 1, 0, 0, 0},
    {-0x1.fffffep-2, -1, -0.0, -0.0, -0.0, -0.0},
    {8388607.5, 8388607, 8388608, 8388607, 8388608, 8388608},
    {8388609, 8388609, 8388609, 8388609, 8388609, 8388609},
  };
  for (unsigned i = 0; i < 5; i++) fp_table(ops[i], 1, &big[0][0], 4, 6, i + 1, 32);
  static const double dbig[][6] = {
    {0x1.fffffffffffffp-2, 0, 1, 0, 0, 0},
    {4503599627370495.5, 4503599627370495, 4503599627370496, 4503599627370495, 4503599627370496, 4503599627370496},
  };
  for (unsigned i = 0; i < 5; i++) fp_table(ops[i], 1, &dbig[0][0], 2, 6, i + 1, 64);
  /* a NaN operand comes back quieted, payload kept */
  uint64_t x[2] = {0x7f800001u, 0xffa00000u}, w[2] = {0x7fc00001u, 0xffe00000u};
  const uint64_t *const in[1] = {x};
  for (unsigned i = 0; i < 5; i++) run_ew(ops[i], BI_FLOAT, 32, 2, 1, in, w, 2, NULL);
}

static void t_copysign_fabs(void **state) {
  (void)state;
  static const double rows[][4] = {
    /* x, y, copysign, fabs(x) */
    {1, -0.0, -1, 1},
    {-2, 3, 2, 2},
    {-0.0, 1, 0.0, 0.0},
    {INFINITY, -1, -INFINITY, INFINITY},
    {-INFINITY, 0.0, INFINITY, INFINITY},
    {0x1p-24, -2, -0x1p-24, 0x1p-24},
  };
  fp_table(OCLSTD_copysign, 2, &rows[0][0], 6, 4, 2, 16);
  fp_table(OCLSTD_fabs, 1, &rows[0][0], 6, 4, 3, 16);
  /* sign-bit operations: NaNs pass through, signalling ones stay signalling */
  uint64_t x[2] = {0xff800001u, 0x7fc00000u}, y[2] = {0, 0x80000000u}, wc[2] = {0x7f800001u, 0xffc00000u};
  const uint64_t *const in[2] = {x, y};
  run_ew(OCLSTD_copysign, BI_FLOAT, 32, 2, 2, in, wc, 2, NULL);
  run_ew(OCLSTD_fabs, BI_FLOAT, 32, 2, 1, in, wc, 1, NULL);
  uint64_t hx[1] = {0xfd01}, hw[1] = {0x7d01};
  const uint64_t *const hin[1] = {hx};
  run_ew(OCLSTD_fabs, BI_FLOAT, 16, 1, 1, hin, hw, 1, NULL);
}

/* ---- MPFR-checked float/double functions -------------------------------------------------------- */

static mpfr_t RF, RD, XA, XB, XC;

static int fp_setup(void **state) {
  (void)state;
  mpfr_init2(RF, 24);
  mpfr_init2(RD, 53);
  mpfr_inits2(53, XA, XB, XC, (mpfr_ptr)0);
  return 0;
}
static int fp_teardown(void **state) {
  (void)state;
  mpfr_clears(RF, RD, XA, XB, XC, (mpfr_ptr)0);
  mpfr_free_cache();
  return 0;
}

/* Result of an MPFR computation in `r` (already rounded to the format) as float/double bits. */
static uint64_t mpfr_bits(unsigned bits, mpfr_t r) {
  if (mpfr_nan_p(r)) return enc(bits, NAN);
  return bits == 32 ? fbits(mpfr_get_flt(r, MPFR_RNDN)) : dbits(mpfr_get_d(r, MPFR_RNDN));
}

static uint64_t quiet(unsigned bits, uint64_t v) { return v | (bits == 32 ? 0x00400000u : 0x0008000000000000ull); }
static bool is_nan_bits(unsigned bits, uint64_t v) {
  return bits == 32 ? isnan(bfloat((uint32_t)v)) : isnan(bdouble(v));
}
static double val(unsigned bits, uint64_t v) { return bits == 32 ? (double)bfloat((uint32_t)v) : bdouble(v); }

/* Random patterns: a third uniform, the rest with exponents in a band around 1 and in the
 * subnormal/near-overflow ranges. */
static uint64_t rnd_fp(unsigned bits, uint64_t *rng) {
  const uint64_t r = rng_next(rng);
  if (bits == 32) {
    uint32_t b = (uint32_t)(r >> 32);
    switch (r % 3) {
    case 0: break;
    case 1: b = (b & 0x807fffffu) | (uint32_t)(127 - 20 + (r >> 8) % 40) << 23; break;
    default: b = (b & 0x807fffffu) | (uint32_t)((r >> 8) % 2 ? (r >> 16) % 4 : 250 + (r >> 16) % 4) << 23; break;
    }
    return b;
  }
  uint64_t b = r;
  switch ((r >> 3) % 3) {
  case 0: break;
  case 1: b = (b & 0x800fffffffffffffull) | (uint64_t)(1023 - 40 + (r >> 8) % 80) << 52; break;
  default:
    b = (b & 0x800fffffffffffffull) | (uint64_t)((r >> 9) % 2 ? (r >> 16) % 4 : 2042 + (r >> 16) % 4) << 52;
    break;
  }
  return b;
}

static void t_sqrt_vs_mpfr(void **state) {
  (void)state;
  const size_t count = 400000;
  uint64_t *in = malloc(count * 8), *want = malloc(count * 8);
  assert_non_null(in);
  assert_non_null(want);
  for (unsigned bits = 32; bits <= 64; bits *= 2) {
    uint64_t rng = 0x452821e638d01377ull + bits;
    const ref_fmt fmt = bits == 32 ? REF_FLOAT : REF_DOUBLE;
    mpfr_ptr R = bits == 32 ? RF : RD;
    for (size_t i = 0; i < count; i++) {
      in[i] = rnd_fp(bits, &rng);
      const double x = val(bits, in[i]);
      if (is_nan_bits(bits, in[i])) {
        want[i] = quiet(bits, in[i]);
        continue;
      }
      if (x < 0) {
        want[i] = enc(bits, NAN);
        continue;
      }
      ref_begin(fmt);
      mpfr_set_d(XA, x, MPFR_RNDN);
      int inex = mpfr_sqrt(R, XA, MPFR_RNDN);
      mpfr_subnormalize(R, inex, MPFR_RNDN);
      want[i] = mpfr_bits(bits, R);
      ref_end();
    }
    /* specials: -0 -> -0, +inf -> +inf, -inf -> NaN */
    in[0] = enc(bits, -0.0);
    want[0] = enc(bits, -0.0);
    in[1] = enc(bits, INFINITY);
    want[1] = enc(bits, INFINITY);
    in[2] = enc(bits, -INFINITY);
    want[2] = enc(bits, NAN);
    const uint64_t *const ins[1] = {in};
    run_ew(OCLSTD_sqrt, BI_FLOAT, bits, 16, 1, ins, want, count, NULL);
    run_ew_all_widths(OCLSTD_sqrt, BI_FLOAT, bits, 1, ins, want, 1000, NULL);
  }
  free(in);
  free(want);
  print_message("sqrt: %zu float + %zu double inputs match MPFR\n", count, count);
}

static void t_rounding_vs_mpfr(void **state) {
  (void)state;
  const size_t count = 200000;
  uint64_t *in = malloc(count * 8), *want = malloc(count * 8);
  assert_non_null(in);
  assert_non_null(want);
  static const uint32_t ops[5] = {OCLSTD_floor, OCLSTD_ceil, OCLSTD_trunc, OCLSTD_rint, OCLSTD_round};
  for (unsigned bits = 32; bits <= 64; bits *= 2)
    for (int o = 0; o < 5; o++) {
      uint64_t rng = 0xbe5466cf34e90c6cull + bits + (uint64_t)o;
      mpfr_ptr R = bits == 32 ? RF : RD;
      for (size_t i = 0; i < count; i++) {
        in[i] = rnd_fp(bits, &rng);
        if (is_nan_bits(bits, in[i])) {
          want[i] = quiet(bits, in[i]);
          continue;
        }
        mpfr_set_d(XA, val(bits, in[i]), MPFR_RNDN);
        switch (o) {
        case 0: mpfr_floor(R, XA); break;
        case 1: mpfr_ceil(R, XA); break;
        case 2: mpfr_trunc(R, XA); break;
        case 3: mpfr_rint(R, XA, MPFR_RNDN); break;
        default: mpfr_round(R, XA); break;
        }
        want[i] = mpfr_bits(bits, R);
      }
      const uint64_t *const ins[1] = {in};
      run_ew(ops[o], BI_FLOAT, bits, 8, 1, ins, want, count, NULL);
    }
  free(in);
  free(want);
}

/* fma(a, b, c) and mad: a * b + c rounded once (§6.15.2; spvi's mad is fused). */
static uint64_t ref_fma(unsigned bits, uint64_t a, uint64_t b, uint64_t c) {
  if (is_nan_bits(bits, a)) return quiet(bits, a);
  if (is_nan_bits(bits, b)) return quiet(bits, b);
  if (is_nan_bits(bits, c)) return quiet(bits, c);
  mpfr_ptr R = bits == 32 ? RF : RD;
  ref_begin(bits == 32 ? REF_FLOAT : REF_DOUBLE);
  mpfr_set_d(XA, val(bits, a), MPFR_RNDN);
  mpfr_set_d(XB, val(bits, b), MPFR_RNDN);
  mpfr_set_d(XC, val(bits, c), MPFR_RNDN);
  int inex = mpfr_fma(R, XA, XB, XC, MPFR_RNDN);
  mpfr_subnormalize(R, inex, MPFR_RNDN);
  const uint64_t out = mpfr_bits(bits, R);
  ref_end();
  return out;
}

static void t_fma_hand(void **state) {
  (void)state;
  /* 24929 * (673 * 2^-24) = 16777217 * 2^-24 = 1 + 2^-24, the midpoint between 1 and 1 + 2^-23;
   * the sign of a tiny c decides (a double-rounded fma would return 1.0 for both). */
  const float a = 24929.0f, b = 673.0f * 0x1p-24f;
  uint64_t x[8] = {fbits(a), fbits(a), fbits(a), fbits(-a), fbits(1.0f), fbits(INFINITY), fbits(-1.0f), fbits(-1.0f)};
  uint64_t y[8] = {fbits(b), fbits(b), fbits(b), fbits(b), fbits(1.0f), fbits(0.0f), fbits(0.0f), fbits(0.0f)};
  uint64_t z[8] = {fbits(0x1p-149f), fbits(-0x1p-149f), fbits(0.0f), fbits(-0x1p-149f),
                   fbits(-1.0f),     fbits(1.0f),       fbits(0.0f), fbits(-0.0f)};
  uint64_t w[8] = {0x3f800001u, 0x3f800000u, 0x3f800000u, 0xbf800001u,
                   0x00000000u, 0x7fc00000u, 0x00000000u, 0x80000000u};
  const uint64_t *const in[3] = {x, y, z};
  run_ew_all_widths(OCLSTD_fma, BI_FLOAT, 32, 3, in, w, 8, NULL);
  run_ew_all_widths(OCLSTD_mad, BI_FLOAT, 32, 3, in, w, 8, NULL);
  for (int i = 0; i < 8; i++) assert_int_equal(ref_fma(32, x[i], y[i], z[i]), w[i]); /* MPFR agrees */
  /* double: 134217729 * 134217727 = 2^54 - 1; with c = -2^54 the exact result is -1 */
  uint64_t dx[3] = {dbits(134217729.0), dbits(0x1p-1074), dbits(1.0 + 0x1p-52)};
  uint64_t dy[3] = {dbits(134217727.0), dbits(0.5), dbits(1.0 + 0x1p-52)};
  uint64_t dz[3] = {dbits(-0x1p54), dbits(0.0), dbits(-1.0)};
  uint64_t dw[3] = {dbits(-1.0), dbits(0.0), dbits(0x1p-51)}; /* 2^-51 + 2^-104: a tie, even */
  const uint64_t *const din[3] = {dx, dy, dz};
  run_ew_all_widths(OCLSTD_fma, BI_FLOAT, 64, 3, din, dw, 3, NULL);
  run_ew_all_widths(OCLSTD_mad, BI_FLOAT, 64, 3, din, dw, 3, NULL);
  for (int i = 0; i < 3; i++) assert_int_equal(ref_fma(64, dx[i], dy[i], dz[i]), dw[i]);
}

static void t_fma_vs_mpfr(void **state) {
  (void)state;
  const size_t count = 300000;
  uint64_t *in[3], *want = malloc(count * 8);
  for (int i = 0; i < 3; i++) in[i] = malloc(count * 8);
  assert_non_null(want);
  for (unsigned bits = 32; bits <= 64; bits *= 2) {
    uint64_t rng = 0xc0ac29b7c97c50ddull + bits;
    for (size_t i = 0; i < count; i++) {
      const uint64_t a = rnd_fp(bits, &rng), b = rnd_fp(bits, &rng);
      uint64_t c = rnd_fp(bits, &rng);
      const uint64_t r = rng_next(&rng);
      if (r % 3 == 0) {
        /* c close to -(a*b): massive cancellation, the exact result needs the low product bits */
        const double p = val(bits, a) * val(bits, b);
        if (bits == 32) c = (fbits((float)-p) + (r >> 8) % 5 - 2) & 0xffffffffu;
        else c = dbits(-p) + (r >> 8) % 5 - 2;
      }
      in[0][i] = a;
      in[1][i] = b;
      in[2][i] = c;
      want[i] = ref_fma(bits, a, b, c);
    }
    const uint64_t *const ins[3] = {in[0], in[1], in[2]};
    run_ew(OCLSTD_fma, BI_FLOAT, bits, 16, 3, ins, want, count, NULL);
    run_ew(OCLSTD_mad, BI_FLOAT, bits, 4, 3, ins, want, count, NULL);
  }
  for (int i = 0; i < 3; i++) free(in[i]);
  free(want);
  print_message("fma/mad: %zu float + %zu double triples match MPFR\n", count, count);
}

/* ==== select, bitselect, shuffle ============================================================================= */

static void t_select(void **state) {
  (void)state;
  static const unsigned ns[] = {1, 2, 3, 4, 8, 16};
  for (unsigned w = 8; w <= 64; w *= 2)
    for (int fl = 0; fl < 2; fl++) {
      if (fl && w == 8) continue;
      const uint64_t msb = (uint64_t)1 << (w - 1), all = msb | (msb - 1);
      /* c values: 0, 1, MSB only, all ones, all but MSB */
      const uint64_t cs[5] = {0, 1, msb, all, all ^ msb};
      for (int ni = 0; ni < 6; ni++) {
        const unsigned n = ns[ni], es = w / 8;
        const bi_type t = fl ? tf(w, n) : ti(w, n), a[3] = {t, t, ti(w, n)};
        const bi_resolved r = must_resolve(OCLSTD_select, t, a, 3, 0);
        static warp wp;
        const unsigned sb[3] = {n * es, n * es, n * es};
        warp_init(&wp, n * es, sb, 3);
        for (unsigned l = 0; l < W_LANES; l++)
          for (unsigned k = 0; k < n; k++) {
            put_elem(w_src(&wp, 0, l) + k * es, es, 0x1111111111111111ull * (l + 1) + k);
            put_elem(w_src(&wp, 1, l) + k * es, es, 0x2222222222222222ull * (l + 1) + k);
            put_elem(w_src(&wp, 2, l) + k * es, es, cs[(l + k) % 5]);
          }
        assert_true(warp_call(&r, &wp, NULL));
        for (unsigned l = 0; l < W_LANES; l++)
          for (unsigned k = 0; k < n; k++) {
            const uint64_t c = cs[(l + k) % 5];
            /* scalar: any non-zero c picks b; vector: only c's most significant bit counts */
            const bool pick_b = n == 1 ? c != 0 : (c & msb) != 0;
            const uint64_t want = (pick_b ? 0x2222222222222222ull : 0x1111111111111111ull) * (l + 1) + k;
            assert_int_equal(get_elem(w_dst(&wp, l) + k * es, es), want & all);
          }
      }
    }
}

static void t_bitselect(void **state) {
  (void)state;
  uint64_t a[2] = {0x0f0f, 0x1234}, b[2] = {0xf0f0, 0xabcd}, c[2] = {0xff00, 0x0000}, w[2] = {0xf00f, 0x1234};
  const uint64_t *const in[3] = {a, b, c};
  run_ew_all_widths(OCLSTD_bitselect, BI_INT, 16, 3, in, w, 2, NULL);
  /* on floats: take the sign bit from b, the rest from a: bitselect(1.0f, -2.0f, -0.0f) = -1.0f */
  uint64_t fa[1] = {fbits(1.0f)}, fb[1] = {fbits(-2.0f)}, fc[1] = {fbits(-0.0f)}, fw[1] = {fbits(-1.0f)};
  const uint64_t *const fin[3] = {fa, fb, fc};
  run_ew_all_widths(OCLSTD_bitselect, BI_FLOAT, 32, 3, fin, fw, 1, NULL);
  uint64_t da[1] = {0x0123456789abcdefull}, db[1] = {0xfedcba9876543210ull}, dc[1] = {0x00000000ffffffffull},
           dw[1] = {0x0123456776543210ull};
  const uint64_t *const din[3] = {da, db, dc};
  run_ew_all_widths(OCLSTD_bitselect, BI_FLOAT, 64, 3, din, dw, 1, NULL);
  run_ew_all_widths(OCLSTD_bitselect, BI_INT, 64, 3, din, dw, 1, NULL);
  uint64_t ca[1] = {0x5a}, cb[1] = {0xa5}, cc[1] = {0x0f}, cw[1] = {0x55};
  const uint64_t *const cin[3] = {ca, cb, cc};
  run_ew_all_widths(OCLSTD_bitselect, BI_INT, 8, 3, cin, cw, 1, NULL);
}

/* Run shuffle (y == NULL) or shuffle2 on one lane pattern and compare. Element values are
 * 0x40 + index for x and 0x80 + index for y, so the expected index is visible in the result. */
static void shuffle_case(unsigned w, bool fl, unsigned m, unsigned n, bool two, const uint64_t *mask,
                         const uint64_t *want) {
  const unsigned es = w / 8;
  const bi_type src = fl ? tf(w, m) : ti(w, m), res = fl ? tf(w, n) : ti(w, n);
  const bi_type a2[2] = {src, ti(w, n)}, a3[3] = {src, src, ti(w, n)};
  const bi_resolved r = two ? must_resolve(OCLSTD_shuffle2, res, a3, 3, 0)
                            : must_resolve(OCLSTD_shuffle, res, a2, 2, 0);
  static warp wp;
  const unsigned sb[3] = {m * es, two ? m * es : n * es, n * es};
  warp_init(&wp, n * es, sb, two ? 3 : 2);
  const unsigned mi = two ? 2 : 1;
  for (unsigned l = 0; l < W_LANES; l++) {
    for (unsigned k = 0; k < m; k++) {
      put_elem(w_src(&wp, 0, l) + k * es, es, 0x40 + k + 0x100 * l * (w > 8));
      if (two) put_elem(w_src(&wp, 1, l) + k * es, es, 0x80 + k + 0x100 * l * (w > 8));
    }
    for (unsigned k = 0; k < n; k++) put_elem(w_src(&wp, mi, l) + k * es, es, mask[k]);
  }
  assert_true(warp_call(&r, &wp, NULL));
  for (unsigned l = 0; l < W_LANES; l++) {
    for (unsigned k = 0; k < n; k++)
      assert_int_equal(get_elem(w_dst(&wp, l) + k * es, es), want[k] + 0x100 * l * (w > 8));
    assert_int_equal(w_dst(&wp, l)[n * es], W_SENTINEL);
  }
}

static void t_shuffle(void **state) {
  (void)state;
  /* shuffle: only the ilogb(2m-1) = log2(m) low mask bits count */
  const uint64_t m4[4] = {3 | 0xf0, 2 | 0x4, 0x101, 0xfffffffcu}, w4[4] = {0x43, 0x42, 0x41, 0x40};
  shuffle_case(32, true, 4, 4, false, m4, w4); /* float4 reversed: r = a.wzyx */
  shuffle_case(32, false, 4, 4, false, m4, w4);
  const uint64_t m2[2] = {9, 0x80000007u}, w2[2] = {0x41, 0x47};
  shuffle_case(32, true, 8, 2, false, m2, w2); /* float8 -> float2: mask & 7 */
  uint64_t m16[16], w16[16];
  for (unsigned k = 0; k < 16; k++) {
    m16[k] = k | 0xf0;
    w16[k] = 0x40 + (k & 1);
  }
  shuffle_case(8, false, 2, 16, false, m16, w16); /* char2 -> char16: mask & 1 */
  const uint64_t ml[2] = {31, 0xff00000000000010ull}, wl[2] = {0x4f, 0x40};
  shuffle_case(64, false, 16, 2, false, ml, wl); /* long16 -> long2: mask & 15 */
  shuffle_case(64, true, 16, 2, false, ml, wl);
  const uint64_t mh[8] = {1, 0, 3, 2, 0x7, 0xfffe, 0x8001, 4}, wh[8] = {0x41, 0x40, 0x43, 0x42, 0x43, 0x42, 0x41, 0x40};
  shuffle_case(16, true, 4, 8, false, mh, wh); /* half4 -> half8: mask & 3 */
  /* shuffle2: ilogb(2m-1)+1 = log2(2m) bits; indices >= m select from y */
  const uint64_t s8[8] = {7, 8, 15, 4, 0x13, 5, 6, 0xffffffffu},
                 sw8[8] = {0x83, 0x40, 0x83, 0x80, 0x43, 0x81, 0x82, 0x83};
  shuffle_case(32, false, 4, 8, true, s8, sw8);
  shuffle_case(32, true, 4, 8, true, s8, sw8);
  const uint64_t s2[4] = {0, 1, 2, 3 | 0xfc}, sw2[4] = {0x40, 0x41, 0x80, 0x81};
  shuffle_case(8, false, 2, 4, true, s2, sw2); /* char2 x2 -> char4: mask & 3 */
  uint64_t s16[16], sw16[16];
  for (unsigned k = 0; k < 16; k++) {
    s16[k] = 31 - k + 0x40;
    sw16[k] = (31 - k) >= 16 ? 0x80 + 15 - k : 0x40 + 31 - k;
  }
  shuffle_case(16, false, 16, 16, true, s16, sw16); /* short16 x2: mask & 31 */
  shuffle_case(64, true, 16, 16, true, s16, sw16);
}

/* ==== memory ========================================================================================== */

#define MEM_BASE 0x10000ull
#define MEM_SIZE 1024u

static uint8_t membuf[MEM_SIZE];

static void mem_fill(void) {
  for (unsigned i = 0; i < MEM_SIZE; i++) membuf[i] = (uint8_t)(i * 7 + 3);
}

/* Operand registers for (offset, pointer) pairs of each lane: offsets as size_t of `ob` bits and
 * pointers of `pb` bits, starting at operand index `first`. */
static void put_off_ptr(warp *w, unsigned first, unsigned ob, unsigned pb, const uint64_t *off, const uint64_t *ptr) {
  for (unsigned l = 0; l < W_LANES; l++) {
    put_elem(w_src(w, first, l), ob / 8, off[l]);
    put_elem(w_src(w, first + 1, l), pb / 8, ptr[l]);
  }
}

static void t_vloadn_vstoren(void **state) {
  (void)state;
  static const unsigned ns[] = {2, 3, 4, 8, 16};
  unsigned checked = 0;
  for (int kind = 0; kind < 2; kind++)
    for (unsigned w = kind ? 16 : 8; w <= 64; w *= 2)
      for (int ni = 0; ni < 5; ni++)
        for (unsigned pb = 32; pb <= 64; pb *= 2) {
          const unsigned n = ns[ni], es = w / 8;
          const bi_type t = kind ? tf(w, n) : ti(w, n);
          const bi_type ld[2] = {ti(pb, 1), tptr(pb, t.kind, w)};
          const bi_resolved r = must_resolve(OCLSTD_vloadn, t, ld, 2, n);
          fake_mem fm;
          mem_fill();
          fake_mem_init(&fm, membuf, MEM_BASE, MEM_SIZE);
          static warp wp;
          const unsigned sb[2] = {pb / 8, pb / 8};
          warp_init(&wp, n * es, sb, 2);
          /* lane l: p = base + l * es (element-aligned), offset = 3 - l % 3 */
          uint64_t off[W_LANES], ptr[W_LANES];
          for (unsigned l = 0; l < W_LANES; l++) {
            off[l] = 3 - l % 3;
            ptr[l] = MEM_BASE + l * es;
          }
          put_off_ptr(&wp, 0, pb, pb, off, ptr);
          assert_true(warp_call(&r, &wp, &fm.mem));
          assert_int_equal(fm.faults, 0);
          assert_int_equal(fm.calls, W_LANES);
          for (unsigned l = 0; l < W_LANES; l++) {
            /* (p + offset * n) elements: for n = 3 the stride is 3 elements, not 4 */
            const uint8_t *src = membuf + l * es + off[l] * n * es;
            assert_memory_equal(w_dst(&wp, l), src, n * es);
            assert_int_equal(w_dst(&wp, l)[n * es], W_SENTINEL);
          }
          /* vstoren writes the same places back from the data register */
          const bi_type st[3] = {t, ti(pb, 1), tptr(pb, t.kind, w)};
          const bi_resolved s = must_resolve(OCLSTD_vstoren, tvoid(), st, 3, 0);
          const unsigned sb3[3] = {n * es, pb / 8, pb / 8};
          warp_init(&wp, 0, sb3, 3);
          wp.nlanes = 1;
          wp.lanes[0] = 2; /* one active lane: lane 2 */
          for (unsigned k = 0; k < n * es; k++) w_src(&wp, 0, 2)[k] = (uint8_t)(0xc0 + k);
          put_off_ptr(&wp, 1, pb, pb, off, ptr);
          memset(membuf, 0, sizeof membuf);
          assert_true(warp_call(&s, &wp, &fm.mem));
          const unsigned at = 2 * es + (unsigned)off[2] * n * es;
          for (unsigned i = 0; i < MEM_SIZE; i++)
            assert_int_equal(membuf[i], i >= at && i < at + n * es ? (uint8_t)(0xc0 + i - at) : 0);
          checked++;
        }
  print_message("vloadn/vstoren: %u (type, n, pointer width) combinations\n", checked);
}

static void t_vload_vstore_faults(void **state) {
  (void)state;
  const bi_type t = tf(32, 4), ld[2] = {ti(64, 1), tptr(64, BI_FLOAT, 32)};
  const bi_resolved r = must_resolve(OCLSTD_vloadn, t, ld, 2, 4);
  fake_mem fm;
  mem_fill();
  fake_mem_init(&fm, membuf, MEM_BASE, MEM_SIZE);
  static warp wp;
  const unsigned sb[2] = {8, 8};
  warp_init(&wp, 16, sb, 2);
  /* the last valid float4 is at offset MEM_SIZE/16 - 1; lane 2 asks for the one after it */
  const uint64_t off[W_LANES] = {MEM_SIZE / 16 - 1, 0, MEM_SIZE / 16, 1, 2};
  const uint64_t ptr[W_LANES] = {MEM_BASE, MEM_BASE, MEM_BASE, MEM_BASE, MEM_BASE};
  put_off_ptr(&wp, 0, 64, 64, off, ptr);
  assert_false(warp_call(&r, &wp, &fm.mem));
  assert_int_equal(fm.faults, 1);
  assert_int_equal(fm.fault_lane, 2);
  assert_int_equal(fm.calls, 3); /* stopped at the faulting lane */
  assert_memory_equal(w_dst(&wp, 0), membuf + MEM_SIZE - 16, 16);
  /* one byte short: a pointer 4 bytes into the last float4 */
  const uint64_t ptr2[W_LANES] = {MEM_BASE + 4, MEM_BASE, MEM_BASE, MEM_BASE, MEM_BASE};
  put_off_ptr(&wp, 0, 64, 64, off, ptr2);
  fake_mem_init(&fm, membuf, MEM_BASE, MEM_SIZE);
  assert_false(warp_call(&r, &wp, &fm.mem));
  assert_int_equal(fm.fault_lane, 0);
  /* below the base faults; a huge offset whose address wraps modulo 2^64 back to p does not */
  const uint64_t off3[W_LANES] = {0, 0x1000000000000000ull, 0, 0, 0};
  const uint64_t ptr3[W_LANES] = {MEM_BASE - 4, MEM_BASE, MEM_BASE, MEM_BASE, MEM_BASE};
  put_off_ptr(&wp, 0, 64, 64, off3, ptr3);
  fake_mem_init(&fm, membuf, MEM_BASE, MEM_SIZE);
  assert_false(warp_call(&r, &wp, &fm.mem));
  assert_int_equal(fm.last_ptr, MEM_BASE - 4);
  wp.lanes[0] = 1;
  wp.nlanes = 1;
  fake_mem_init(&fm, membuf, MEM_BASE, MEM_SIZE);
  assert_true(warp_call(&r, &wp, &fm.mem));
  assert_int_equal(fm.last_ptr, MEM_BASE); /* 2^60 * 16 bytes = 2^64: wraps */
  assert_int_equal(fm.faults, 0);
  assert_memory_equal(w_dst(&wp, 1), membuf, 16);
  /* stores to read-only memory fail; no bi_mem at all fails too (no crash) */
  const bi_type st[3] = {t, ti(64, 1), tptr(64, BI_FLOAT, 32)};
  const bi_resolved s = must_resolve(OCLSTD_vstoren, tvoid(), st, 3, 0);
  const unsigned sb3[3] = {16, 8, 8};
  warp_init(&wp, 0, sb3, 3);
  put_off_ptr(&wp, 1, 64, 64, off, ptr);
  wp.nlanes = 1;
  fake_mem_init(&fm, membuf, MEM_BASE, MEM_SIZE);
  fm.read_only = true;
  assert_false(warp_call(&s, &wp, &fm.mem));
  assert_false(warp_call(&s, &wp, NULL));
  assert_false(warp_call(&r, &wp, NULL));
}

/* Physical32: pointer and offset are 32-bit and the address arithmetic wraps modulo 2^32. */
static void t_mem_32bit_wrap(void **state) {
  (void)state;
  const bi_type t = tf(32, 2), ld[2] = {ti(32, 1), tptr(32, BI_FLOAT, 32)};
  const bi_resolved r = must_resolve(OCLSTD_vloadn, t, ld, 2, 2);
  fake_mem fm;
  mem_fill();
  fake_mem_init(&fm, membuf, 0x10, MEM_SIZE);
  static warp wp;
  const unsigned sb[2] = {4, 4};
  warp_init(&wp, 8, sb, 2);
  /* 0xfffffff0 + 6 * 2 * 4 = 0x1_0000_0020 -> 0x20, which is 0x10 bytes into the memory */
  const uint64_t off[W_LANES] = {6, 6, 6, 6, 6},
                 ptr[W_LANES] = {0xfffffff0u, 0xfffffff0u, 0xfffffff0u, 0xfffffff0u, 0xfffffff0u};
  put_off_ptr(&wp, 0, 32, 32, off, ptr);
  wp.nlanes = 2;
  assert_true(warp_call(&r, &wp, &fm.mem));
  assert_int_equal(fm.last_ptr, 0x20);
  assert_memory_equal(w_dst(&wp, 0), membuf + 0x10, 8);
  assert_memory_equal(w_dst(&wp, 1), membuf + 0x10, 8);
}

static void put_halves(unsigned at, const uint16_t *h, unsigned n) {
  for (unsigned i = 0; i < n; i++) memcpy(membuf + 2 * (at + i), &h[i], 2);
}

static void t_vload_half_family(void **state) {
  (void)state;
  /* halves 0..11 of memory, with hand-known float values */
  static const uint16_t hv[12] = {0x3c00, 0xc000, 0x0001, 0x7bff, 0xfc00, 0x7e01,
                                  0x3555, 0x8000, 0x0400, 0x03ff, 0x4248, 0xd640};
  static const uint32_t fv[12] = {
    0x3f800000u /* 1 */,     0xc0000000u /* -2 */,           0x33800000u /* 2^-24 */,          0x477fe000u /* 65504 */,
    0xff800000u /* -inf */,  0x7fc02000u /* NaN */,          0x3eaaa000u /* 0.333251953125 */, 0x80000000u /* -0 */,
    0x38800000u /* 2^-14 */, 0x387fc000u /* 1023 * 2^-24 */, 0x40490000u /* 3.140625 */,       0xc2c80000u /* -100 */};
  fake_mem fm;
  memset(membuf, 0xee, sizeof membuf);
  put_halves(0, hv, 12);
  fake_mem_init(&fm, membuf, MEM_BASE, MEM_SIZE);
  static warp wp;
  const unsigned sb[2] = {8, 8};
  /* vload_half: scalar at p + offset halves; float and double results */
  for (unsigned bits = 32; bits <= 64; bits *= 2) {
    const bi_type ld[2] = {ti(64, 1), tptr(64, BI_FLOAT, 16)};
    const bi_resolved r = must_resolve(OCLSTD_vload_half, tf(bits, 1), ld, 2, 0);
    for (unsigned base = 0; base < 12; base += W_LANES) {
      warp_init(&wp, bits / 8, sb, 2);
      uint64_t off[W_LANES], ptr[W_LANES];
      for (unsigned l = 0; l < W_LANES; l++) {
        off[l] = (base + l) % 12;
        ptr[l] = MEM_BASE;
      }
      put_off_ptr(&wp, 0, 64, 64, off, ptr);
      assert_true(warp_call(&r, &wp, &fm.mem));
      for (unsigned l = 0; l < W_LANES; l++) {
        const uint32_t f = fv[off[l]];
        if (bits == 32) {
          assert_int_equal(get_elem(w_dst(&wp, l), 4), f);
        } else {
          const uint64_t want = off[l] == 5 ? 0x7ff8040000000000ull : dbits((double)bfloat(f));
          assert_int_equal(get_elem(w_dst(&wp, l), 8), want);
        }
      }
    }
  }
  /* vload_half3 reads halves 3k..3k+2; vloada_half3 reads 4k..4k+2 and exactly 6 bytes */
  static const struct {
    uint32_t op;
    unsigned n, first;
  } cases[] = {
    {OCLSTD_vload_halfn, 3, 3},  {OCLSTD_vloada_halfn, 3, 4}, {OCLSTD_vload_halfn, 4, 4},
    {OCLSTD_vloada_halfn, 4, 4}, {OCLSTD_vload_halfn, 2, 2},  {OCLSTD_vloada_halfn, 2, 2},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const unsigned n = cases[c].n;
    const bi_type ld[2] = {ti(32, 1), tptr(32, BI_FLOAT, 16)};
    const bi_resolved r = must_resolve(cases[c].op, tf(32, n), ld, 2, n);
    warp_init(&wp, 4 * n, sb, 2);
    const uint64_t off[W_LANES] = {1, 1, 1, 1, 1}, ptr[W_LANES] = {MEM_BASE, MEM_BASE, MEM_BASE, MEM_BASE, MEM_BASE};
    put_off_ptr(&wp, 0, 32, 32, off, ptr);
    wp.nlanes = 1;
    fake_mem_init(&fm, membuf, MEM_BASE, MEM_SIZE);
    assert_true(warp_call(&r, &wp, &fm.mem));
    assert_int_equal(fm.last_ptr, MEM_BASE + 2 * cases[c].first);
    assert_int_equal(fm.last_bytes, 2 * n);
    for (unsigned k = 0; k < n; k++) assert_int_equal(get_elem(w_dst(&wp, 0) + 4 * k, 4), fv[cases[c].first + k]);
    assert_int_equal(w_dst(&wp, 0)[4 * n], W_SENTINEL);
  }
  /* out of bounds: half16 number MEM_SIZE/32 - 1 is the last that fits */
  const bi_type ld[2] = {ti(64, 1), tptr(64, BI_FLOAT, 16)};
  const bi_resolved r = must_resolve(OCLSTD_vload_halfn, tf(32, 16), ld, 2, 16);
  warp_init(&wp, 64, sb, 2);
  const uint64_t off[W_LANES] = {MEM_SIZE / 32 - 1, MEM_SIZE / 32}, ptr[W_LANES] = {MEM_BASE, MEM_BASE};
  put_off_ptr(&wp, 0, 64, 64, off, ptr);
  wp.nlanes = 2;
  fake_mem_init(&fm, membuf, MEM_BASE, MEM_SIZE);
  assert_false(warp_call(&r, &wp, &fm.mem));
  assert_int_equal(fm.fault_lane, 1);
}

static uint16_t mem_half(unsigned i) {
  uint16_t h;
  memcpy(&h, membuf + 2 * i, 2);
  return h;
}

static void t_vstore_half_family(void **state) {
  (void)state;
  fake_mem fm;
  static warp wp;
  /* scalar vstore_half / vstore_half_r of 1 + 2^-11 (a tie) and of its negation, per mode */
  static const uint16_t want_pos[4] = {0x3c00, 0x3c00, 0x3c01, 0x3c00}, want_neg[4] = {0xbc00, 0xbc00, 0xbc00, 0xbc01};
  for (int m = -1; m < 4; m++) {
    const bi_type st[3] = {tf(32, 1), ti(64, 1), tptr(64, BI_FLOAT, 16)};
    const bi_resolved r = m < 0 ? must_resolve(OCLSTD_vstore_half, tvoid(), st, 3, 0)
                                : must_resolve(OCLSTD_vstore_half_r, tvoid(), st, 3, (uint32_t)m);
    const unsigned sb[3] = {4, 8, 8};
    warp_init(&wp, 0, sb, 3);
    uint64_t off[W_LANES], ptr[W_LANES];
    for (unsigned l = 0; l < W_LANES; l++) {
      put_elem(w_src(&wp, 0, l), 4, fbits(l % 2 ? -(1.0f + 0x1p-11f) : 1.0f + 0x1p-11f));
      off[l] = l;
      ptr[l] = MEM_BASE;
    }
    put_off_ptr(&wp, 1, 64, 64, off, ptr);
    memset(membuf, 0, sizeof membuf);
    fake_mem_init(&fm, membuf, MEM_BASE, MEM_SIZE);
    assert_true(warp_call(&r, &wp, &fm.mem));
    const int mi = m < 0 ? 0 : m; /* vstore_half: round to nearest even */
    for (unsigned l = 0; l < W_LANES; l++) assert_int_equal(mem_half(l), l % 2 ? want_neg[mi] : want_pos[mi]);
    assert_int_equal(mem_half(W_LANES), 0);
  }
  /* double data rounds once: 1 + 2^-11 + 2^-40 -> 0x3c01 (through float it would tie to 0x3c00) */
  {
    const bi_type st[3] = {tf(64, 1), ti(32, 1), tptr(32, BI_FLOAT, 16)};
    const bi_resolved r = must_resolve(OCLSTD_vstore_half, tvoid(), st, 3, 0);
    const unsigned sb[3] = {8, 4, 4};
    warp_init(&wp, 0, sb, 3);
    put_elem(w_src(&wp, 0, 0), 8, dbits(1.0 + 0x1p-11 + 0x1p-40));
    const uint64_t off[W_LANES] = {7}, ptr[W_LANES] = {MEM_BASE};
    put_off_ptr(&wp, 1, 32, 32, off, ptr);
    wp.nlanes = 1;
    memset(membuf, 0, sizeof membuf);
    fake_mem_init(&fm, membuf, MEM_BASE, MEM_SIZE);
    assert_true(warp_call(&r, &wp, &fm.mem));
    assert_int_equal(mem_half(7), 0x3c01);
  }
  /* vstore_half3 writes halves 3..5 for offset 1; vstorea_half3 writes 4..6 and leaves the padding
   * half 7 alone; vstorea_half4 writes 4..7; the _r forms use their mode */
  static const struct {
    uint32_t op;
    unsigned n, first;
    uint32_t mode;
  } cases[] = {
    {OCLSTD_vstore_halfn, 3, 3, 0},    {OCLSTD_vstorea_halfn, 3, 4, 0},   {OCLSTD_vstorea_halfn, 4, 4, 0},
    {OCLSTD_vstore_halfn_r, 3, 3, 2},  {OCLSTD_vstorea_halfn_r, 3, 4, 3}, {OCLSTD_vstore_halfn, 16, 16, 0},
    {OCLSTD_vstorea_halfn_r, 8, 8, 1},
  };
  static const float data[16] = {1.0f, -2.0f, 65520.0f, 0x1p-25f, 0.1f, -0.1f, 1e-8f, -65519.0f,
                                 3.0f, 4.0f,  5.0f,     6.0f,     7.0f, 8.0f,  9.0f,  10.0f};
  /* per mode (rte, rtz, rtp, rtn), hand-derived */
  static const uint16_t expect[4][16] = {
    {0x3c00, 0xc000, 0x7c00, 0x0000, 0x2e66, 0xae66, 0x0000, 0xfbff, 0x4200, 0x4400, 0x4500, 0x4600, 0x4700, 0x4800,
     0x4880, 0x4900},
    {0x3c00, 0xc000, 0x7bff, 0x0000, 0x2e66, 0xae66, 0x0000, 0xfbff, 0x4200, 0x4400, 0x4500, 0x4600, 0x4700, 0x4800,
     0x4880, 0x4900},
    {0x3c00, 0xc000, 0x7c00, 0x0001, 0x2e67, 0xae66, 0x0001, 0xfbff, 0x4200, 0x4400, 0x4500, 0x4600, 0x4700, 0x4800,
     0x4880, 0x4900},
    {0x3c00, 0xc000, 0x7bff, 0x0000, 0x2e66, 0xae67, 0x0000, 0xfc00, 0x4200, 0x4400, 0x4500, 0x4600, 0x4700, 0x4800,
     0x4880, 0x4900},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const unsigned n = cases[c].n;
    const bi_type st[3] = {tf(32, n), ti(64, 1), tptr(64, BI_FLOAT, 16)};
    const bi_resolved r = must_resolve(cases[c].op, tvoid(), st, 3, cases[c].mode);
    const unsigned sb[3] = {4 * n, 8, 8};
    warp_init(&wp, 0, sb, 3);
    for (unsigned k = 0; k < n; k++) put_elem(w_src(&wp, 0, 3) + 4 * k, 4, fbits(data[k]));
    const uint64_t off[W_LANES] = {0, 0, 0, 1, 0}, ptr[W_LANES] = {0, 0, 0, MEM_BASE, 0};
    put_off_ptr(&wp, 1, 64, 64, off, ptr);
    wp.nlanes = 1;
    wp.lanes[0] = 3;
    memset(membuf, 0x77, sizeof membuf);
    fake_mem_init(&fm, membuf, MEM_BASE, MEM_SIZE);
    assert_true(warp_call(&r, &wp, &fm.mem));
    for (unsigned i = 0; i < 40; i++) {
      const bool in = i >= cases[c].first && i < cases[c].first + n;
      assert_int_equal(mem_half(i), in ? expect[cases[c].mode][i - cases[c].first] : 0x7777);
    }
  }
  /* a read-only target fails */
  const bi_type st[3] = {tf(32, 2), ti(64, 1), tptr(64, BI_FLOAT, 16)};
  const bi_resolved r = must_resolve(OCLSTD_vstore_halfn, tvoid(), st, 3, 0);
  const unsigned sb[3] = {8, 8, 8};
  warp_init(&wp, 0, sb, 3);
  const uint64_t off[W_LANES] = {0}, ptr[W_LANES] = {MEM_BASE};
  put_off_ptr(&wp, 1, 64, 64, off, ptr);
  wp.nlanes = 1;
  fake_mem_init(&fm, membuf, MEM_BASE, MEM_SIZE);
  fm.read_only = true;
  assert_false(warp_call(&r, &wp, &fm.mem));
}

static void t_prefetch(void **state) {
  (void)state;
  const bi_type a[2] = {tptr(64, BI_FLOAT, 32), ti(64, 1)};
  const bi_resolved r = must_resolve(OCLSTD_prefetch, tvoid(), a, 2, 0);
  fake_mem fm;
  fake_mem_init(&fm, membuf, MEM_BASE, MEM_SIZE);
  static warp wp;
  const unsigned sb[2] = {8, 8};
  warp_init(&wp, 0, sb, 2);
  const uint64_t off[W_LANES] = {0}, ptr[W_LANES] = {0xdead0000u};
  put_off_ptr(&wp, 0, 64, 64, ptr, off);
  assert_true(warp_call(&r, &wp, &fm.mem)); /* a hint: no access, no fault, even for a bad pointer */
  assert_int_equal(fm.calls, 0);
  const bi_type b[2] = {tptr(32, BI_INT, 8), ti(32, 1)};
  must_resolve(OCLSTD_prefetch, tvoid(), b, 2, 0);
}

/* bi_componentwise: the math, integer, common and relational functions act per component (OpenCL C
 * 6.15.2 "The vector versions of the math functions operate component-wise", 6.15.3, 6.15.4,
 * 6.15.6); the geometric functions combine components, shuffles move them, vector loads and stores
 * and printf are no gentype computations. */
static void t_componentwise(void **state) {
  (void)state;
  static const uint32_t yes[] = {OCLSTD_fabs,   OCLSTD_fmax,       OCLSTD_fma,  OCLSTD_sincos, OCLSTD_fract,
                                 OCLSTD_remquo, OCLSTD_ilogb,      OCLSTD_pown, OCLSTD_nan,    OCLSTD_s_abs,
                                 OCLSTD_clz,    OCLSTD_u_upsample, OCLSTD_mix,  OCLSTD_select, OCLSTD_bitselect};
  static const uint32_t no[] = {OCLSTD_length,   OCLSTD_distance, OCLSTD_normalize, OCLSTD_cross,  OCLSTD_shuffle,
                                OCLSTD_shuffle2, OCLSTD_vloadn,   OCLSTD_vstoren,   OCLSTD_printf, OCLSTD_prefetch};
  for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) assert_true(bi_componentwise(yes[i]));
  for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) assert_false(bi_componentwise(no[i]));
  assert_false(bi_componentwise(100000)); /* no such instruction */
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(t_resolve_messages),   cmocka_unit_test(t_resolve_sweep),
    cmocka_unit_test(t_partial_lanes),      cmocka_unit_test(t_fmin_fmax),
    cmocka_unit_test(t_fclamp_sign_step),   cmocka_unit_test(t_rounding_hand),
    cmocka_unit_test(t_copysign_fabs),      cmocka_unit_test(t_sqrt_vs_mpfr),
    cmocka_unit_test(t_rounding_vs_mpfr),   cmocka_unit_test(t_fma_hand),
    cmocka_unit_test(t_fma_vs_mpfr),        cmocka_unit_test(t_select),
    cmocka_unit_test(t_bitselect),          cmocka_unit_test(t_shuffle),
    cmocka_unit_test(t_vloadn_vstoren),     cmocka_unit_test(t_vload_vstore_faults),
    cmocka_unit_test(t_mem_32bit_wrap),     cmocka_unit_test(t_vload_half_family),
    cmocka_unit_test(t_vstore_half_family), cmocka_unit_test(t_prefetch),
    cmocka_unit_test(t_componentwise),
  };
  return cmocka_run_group_tests(tests, fp_setup, fp_teardown);
}
