/*
 * bi_mem.c — the OpenCL.std instructions that access memory through a pointer operand: vloadn,
 * vstoren, vload_half, vload_halfn, vloada_halfn, vstore_half[_r], vstore_halfn[_r],
 * vstorea_halfn[_r] (OpenCL C 3.0 §6.15.7 "Vector Data Load and Store Functions") and prefetch
 * (§6.15.11). Owns their rows of the table.
 *
 * Addresses (§6.15.7): vloadn/vstoren and the unaligned half forms access n elements at
 * p + offset * n elements — also for n = 3 (footnote to §6.15.7: "vload3 and vload_half3 read
 * (x,y,z) components from address (p + (offset * 3))", likewise the stores); vloada_half3 and
 * vstorea_half3 use p + offset * 4 halves. Whether those two touch the padding half after the third
 * is implementation-defined: spvi reads and writes exactly the 3 halves. The address arithmetic is
 * modulo 2^64, or 2^32 for 32-bit pointers (Physical32), and every access goes through
 * call->mem->access, which bounds-checks it for the lane (a NULL return has recorded the fault: the
 * builtin returns false at once). Misaligned addresses are "undefined" in §6.15.7; spvi performs the
 * access as written (registers and memory are copied bytewise).
 *
 * Half data (§6.3.1.1): loads widen exactly to the float or double result; stores round the float
 * or double data to half once, in the instruction's FPRoundingMode (vstore_half*_r) or the default
 * round-to-nearest-even. The bi_call literal gives n, the stride, the rounding mode, the element
 * size and the widths of the pointer and offset operands (bi_impl.h).
 */
#include "bi_half.h"
#include "bi_impl.h"
#include "gen_spv_tables.h"

#include <stdbool.h>
#include <stdint.h>

/* Lane l's target address: p + offset * stride * esize, where p and offset are operands pi, oi. */
static uint64_t lane_address(const bi_call *c, unsigned oi, unsigned pi, size_t l, unsigned esize) {
  const uint32_t lit = c->literal;
  const uint64_t offset = bi_load_uint(bi_src(c, oi, l), bi_lit_off64(lit) ? 8 : 4);
  const uint64_t p = bi_load_uint(bi_src(c, pi, l), bi_lit_ptr64(lit) ? 8 : 4);
  const uint64_t addr = p + offset * bi_lit_stride(lit) * esize;
  return bi_lit_ptr64(lit) ? addr : (addr & 0xffffffffu);
}

static void *lane_access(const bi_call *c, size_t l, uint64_t addr, uint64_t bytes, bool write) {
  return c->mem->access(c->mem->ctx, (unsigned)l, addr, bytes, write);
}

/* vloadn(offset, p): n elements of any type; a byte copy of n * esize bytes. */
static bool vloadn_any(const bi_call *c) {
  if (!c->mem) return false;
  const unsigned es = bi_lit_esize(c->literal), bytes = bi_lit_n(c->literal) * es;
  for (uint32_t i = 0; i < c->nlanes; i++) {
    const size_t l = c->lanes[i];
    const void *p = lane_access(c, l, lane_address(c, 0, 1, l, es), bytes, false);
    if (!p) return false;
    memcpy(bi_dst(c, l), p, bytes);
  }
  return true;
}

/* vstoren(data, offset, p). */
static bool vstoren_any(const bi_call *c) {
  if (!c->mem) return false;
  const unsigned es = bi_lit_esize(c->literal), bytes = bi_lit_n(c->literal) * es;
  for (uint32_t i = 0; i < c->nlanes; i++) {
    const size_t l = c->lanes[i];
    void *p = lane_access(c, l, lane_address(c, 1, 2, l, es), bytes, true);
    if (!p) return false;
    memcpy(p, bi_src(c, 0, l), bytes);
  }
  return true;
}

/* vload_half, vload_halfn, vloada_halfn(offset, p) -> float or double components. */
#define VLOAD_HALF(SFX, T, WIDEN)                                                       \
  static bool vload_half_##SFX(const bi_call *c) {                                      \
    if (!c->mem) return false;                                                          \
    const unsigned n = bi_lit_n(c->literal);                                            \
    for (uint32_t i = 0; i < c->nlanes; i++) {                                          \
      const size_t l = c->lanes[i];                                                     \
      const uint8_t *p = lane_access(c, l, lane_address(c, 0, 1, l, 2), 2u * n, false); \
      if (!p) return false;                                                             \
      uint8_t *d = bi_dst(c, l);                                                        \
      for (unsigned k = 0; k < n; k++) {                                                \
        uint16_t h;                                                                     \
        memcpy(&h, p + 2 * k, 2);                                                       \
        const T v = WIDEN(h);                                                           \
        memcpy(d + k * sizeof(T), &v, sizeof(T));                                       \
      }                                                                                 \
    }                                                                                   \
    return true;                                                                        \
  }
VLOAD_HALF(f, float, bi_half_to_float)
VLOAD_HALF(d, double, bi_half_to_double)

/* vstore_half[n][_r], vstorea_halfn[_r](data, offset, p): round each component, then one store. */
#define VSTORE_HALF(SFX, T, NARROW)                                           \
  static bool vstore_half_##SFX(const bi_call *c) {                           \
    if (!c->mem) return false;                                                \
    const unsigned n = bi_lit_n(c->literal);                                  \
    const bi_round r = (bi_round)bi_lit_round(c->literal);                    \
    for (uint32_t i = 0; i < c->nlanes; i++) {                                \
      const size_t l = c->lanes[i];                                           \
      const uint8_t *s = bi_src(c, 0, l);                                     \
      uint16_t h[16];                                                         \
      for (unsigned k = 0; k < n; k++) {                                      \
        T v;                                                                  \
        memcpy(&v, s + k * sizeof(T), sizeof(T));                             \
        h[k] = NARROW(v, r);                                                  \
      }                                                                       \
      void *p = lane_access(c, l, lane_address(c, 1, 2, l, 2), 2u * n, true); \
      if (!p) return false;                                                   \
      memcpy(p, h, 2u * n);                                                   \
    }                                                                         \
    return true;                                                              \
  }
VSTORE_HALF(f, float, bi_half_from_float)
VSTORE_HALF(d, double, bi_half_from_double)

/* prefetch(p, num elements) is a performance hint (§6.15.11): it reads nothing, so it cannot
 * fault, and spvi does nothing. */
static bool prefetch_nop(const bi_call *c) {
  (void)c;
  return true;
}

#define ANY_TYPE(f) \
  { f, f, f, f, f, f, f }
#define LOADH \
  { [BI_T_F32] = vload_half_f, [BI_T_F64] = vload_half_d }
#define STOREH \
  { [BI_T_F32] = vstore_half_f, [BI_T_F64] = vstore_half_d }

static const bi_row rows[] = {
  {OCLSTD_vloadn, BI_SIG_VLOADN, BI_F_LIT_N, ANY_TYPE(vloadn_any)},
  {OCLSTD_vstoren, BI_SIG_VSTOREN, 0, ANY_TYPE(vstoren_any)},
  {OCLSTD_vload_half, BI_SIG_VLOAD_HALF, 0, LOADH},
  {OCLSTD_vload_halfn, BI_SIG_VLOAD_HALFN, BI_F_LIT_N, LOADH},
  {OCLSTD_vloada_halfn, BI_SIG_VLOAD_HALFN, BI_F_LIT_N | BI_F_ALIGN3, LOADH},
  {OCLSTD_vstore_half, BI_SIG_VSTORE_HALF, 0, STOREH},
  {OCLSTD_vstore_half_r, BI_SIG_VSTORE_HALF, BI_F_ROUND, STOREH},
  {OCLSTD_vstore_halfn, BI_SIG_VSTORE_HALFN, 0, STOREH},
  {OCLSTD_vstore_halfn_r, BI_SIG_VSTORE_HALFN, BI_F_ROUND, STOREH},
  {OCLSTD_vstorea_halfn, BI_SIG_VSTORE_HALFN, BI_F_ALIGN3, STOREH},
  {OCLSTD_vstorea_halfn_r, BI_SIG_VSTORE_HALFN, BI_F_ROUND | BI_F_ALIGN3, STOREH},
  {OCLSTD_prefetch, BI_SIG_PREFETCH, 0, {prefetch_nop}},
};

const bi_rowset bi_rows_mem = {rows, sizeof rows / sizeof rows[0]};
