/*
 * ex_collective.c — the arithmetic of group operations shared by work-group and sub-group
 * collectives (identity and one combining step per EX_GR_* operation), and the work-group
 * collective the scheduler computes once every warp of a group waits at it.
 */
#include <math.h>
#include <string.h>

#include "bi_half.h"
#include "ex_internal.h"

/* ---- work-group collectives ------------------------------------------------------------------
 * Every work-item's value is read from its warp's register, the reduction or scan is computed in
 * local linear id order (float operations rounded after each step, so the result is the same at
 * every warp width), and each work-item's result is written back. */
double ex_gr_float(uint64_t v, unsigned bytes) {
  if (bytes == 8) {
    double d;
    memcpy(&d, &v, 8);
    return d;
  }
  if (bytes == 4) {
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
  }
  return bi_half_to_double((uint16_t)v);
}
static uint64_t gr_from_float(double d, unsigned bytes) {
  if (bytes == 8) {
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
  }
  if (bytes == 4) {
    float f = (float)d;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
  }
  return bi_half_from_double(d, BI_RTE);
}
static int64_t gr_signed(uint64_t v, unsigned bytes) {
  return bytes == 8   ? (int64_t)v
         : bytes == 4 ? (int64_t)(int32_t)(uint32_t)v
         : bytes == 2 ? (int64_t)(int16_t)v
                      : (int64_t)(int8_t)v;
}

/* The identity of each operation (OpenCL C 6.15.16: exclusive scans start from it). */
uint64_t ex_gr_identity(unsigned op, unsigned kind, unsigned bytes) {
  const unsigned bits = bytes * 8;
  const uint64_t mask = bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
  switch (op) {
  case EX_GR_SMIN: return mask >> 1;                   /* the largest signed value */
  case EX_GR_SMAX: return ((uint64_t)1 << (bits - 1)); /* the smallest signed value */
  case EX_GR_UMIN: return mask;
  case EX_GR_FMIN: return gr_from_float(INFINITY, bytes);
  case EX_GR_FMAX: return gr_from_float(-INFINITY, bytes);
  case EX_GR_IMUL:
  case EX_GR_LAND: return 1;
  case EX_GR_FMUL: return gr_from_float(1.0, bytes);
  case EX_GR_AND: return mask; /* ~0 (OpenCL C non-uniform and-scan) */
  default: return kind == EX_GK_FLOAT ? gr_from_float(0.0, bytes) : 0;
  }
}

uint64_t ex_gr_combine(unsigned op, unsigned bytes, uint64_t a, uint64_t b) {
  const unsigned bits = bytes * 8;
  const uint64_t mask = bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
  switch (op) {
  case EX_GR_IADD: return (a + b) & mask;
  case EX_GR_SMIN: return gr_signed(b, bytes) < gr_signed(a, bytes) ? b : a;
  case EX_GR_SMAX: return gr_signed(b, bytes) > gr_signed(a, bytes) ? b : a;
  case EX_GR_UMIN: return b < a ? b : a;
  case EX_GR_UMAX: return b > a ? b : a;
  case EX_GR_FADD: {
    /* one rounding per addition in the element type */
    if (bytes == 4) {
      float x = (float)ex_gr_float(a, 4) + (float)ex_gr_float(b, 4);
      return gr_from_float(x, 4);
    }
    return gr_from_float(ex_gr_float(a, bytes) + ex_gr_float(b, bytes), bytes);
  }
  case EX_GR_IMUL: return (a * b) & mask;
  case EX_GR_FMUL: {
    /* one rounding per product; half: the float product of two halves is exact, then one rounding */
    if (bytes == 4) {
      float x = (float)ex_gr_float(a, 4) * (float)ex_gr_float(b, 4);
      return gr_from_float(x, 4);
    }
    return gr_from_float(ex_gr_float(a, bytes) * ex_gr_float(b, bytes), bytes);
  }
  case EX_GR_AND:
  case EX_GR_LAND: return a & b;
  case EX_GR_OR:
  case EX_GR_LOR: return a | b;
  case EX_GR_XOR:
  case EX_GR_LXOR: return a ^ b;
  case EX_GR_FMIN:
  case EX_GR_FMAX: {
    double x = ex_gr_float(a, bytes), y = ex_gr_float(b, bytes);
    if (isnan(x)) return b; /* fmin/fmax: a NaN operand is ignored */
    if (isnan(y)) return a;
    if (x == y) return (op == EX_GR_FMIN) == (signbit(y) != 0) ? b : a; /* -0 < +0 */
    return (op == EX_GR_FMIN) == (y < x) ? b : a;
  }
  default: return b;
  }
}

void ex_group_collective(ex_ctx *cx, ex_warp *warps, unsigned nw, const ex_insn *ip) {
  const unsigned W = cx->W, bytes = ip->c & 0xFF, kind = ip->c >> 8, op = ip->flags, gop = ip->n;
  const uint32_t *x = warps[0].stack[warps[0].depth - 1].fn->aux + ip->b;
  uint64_t acc = ex_gr_identity(op, kind, bytes);
  if (op == EX_GR_ALL || op == EX_GR_ANY || op == EX_GR_BROADCAST) {
    uint64_t res = op == EX_GR_ALL ? 1 : 0;
    if (op == EX_GR_BROADCAST) {
      /* the local id of the source work-item, from work-item 0 (all must pass the same one) */
      const unsigned lb = x[1] & 0xFF, ln = x[1] >> 8;
      uint64_t id[3] = {0, 0, 0};
      for (unsigned i = 0; i < ln && i < 3; i++) id[i] = ex_rd_bytes(warps[0].regs + (size_t)x[0] * W + i * lb, lb);
      uint64_t lin = (id[2] * cx->group_size[1] + id[1]) * cx->group_size[0] + id[0];
      uint64_t items = cx->group_size[0] * cx->group_size[1] * cx->group_size[2];
      if (lin >= items) lin = 0; /* out of range: undefined in OpenCL; spvi takes work-item 0 */
      const ex_warp *src = &warps[lin / W];
      res = ex_rd_bytes(src->regs + (size_t)ip->a * W + (lin % W) * bytes, bytes);
    } else {
      for (unsigned k = 0; k < nw; k++)
        for (unsigned l = 0; l < warps[k].nlanes; l++) {
          bool v = warps[k].regs[(size_t)ip->a * W + l] != 0;
          if (op == EX_GR_ALL) res &= v;
          else res |= v;
        }
    }
    for (unsigned k = 0; k < nw; k++)
      for (unsigned l = 0; l < warps[k].nlanes; l++)
        memcpy(warps[k].regs + (size_t)ip->d * W + (size_t)l * bytes, &res, bytes);
    return;
  }
  if (gop == 0) { /* reduce */
    for (unsigned k = 0; k < nw; k++)
      for (unsigned l = 0; l < warps[k].nlanes; l++)
        acc = ex_gr_combine(op, bytes, acc, ex_rd_bytes(warps[k].regs + (size_t)ip->a * W + (size_t)l * bytes, bytes));
    for (unsigned k = 0; k < nw; k++)
      for (unsigned l = 0; l < warps[k].nlanes; l++)
        memcpy(warps[k].regs + (size_t)ip->d * W + (size_t)l * bytes, &acc, bytes);
    return;
  }
  for (unsigned k = 0; k < nw; k++) /* scans, in local linear id order */
    for (unsigned l = 0; l < warps[k].nlanes; l++) {
      uint64_t v = ex_rd_bytes(warps[k].regs + (size_t)ip->a * W + (size_t)l * bytes, bytes);
      uint64_t next = ex_gr_combine(op, bytes, acc, v);
      uint64_t out = gop == 1 ? next : acc;
      memcpy(warps[k].regs + (size_t)ip->d * W + (size_t)l * bytes, &out, bytes);
      acc = next;
    }
}
