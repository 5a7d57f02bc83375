/*
 * ex_subgroup.c — sub-group operations inside a warp: Subgroup-scope group instructions
 * (cl_khr_subgroups), the non-uniform vote/ballot/broadcast/shuffle/arithmetic instructions
 * (cl_khr_subgroup_* extensions, SPIR-V 3.32.24), SPV_INTEL_subgroups shuffles, the sub-group
 * barrier, and OpNamedBarrierInitialize.
 *
 * Sub-groups and warps. A sub-group is S consecutive local linear ids (the last one of a work-group
 * may be partial). When a program uses sub-group operations, the launch's warp width is a multiple
 * of S (ex_api.c), and warps start at multiples of their width, so every warp holds whole
 * sub-groups and the work-items of a sub-group always execute in lock-step. The lanes of a
 * sub-group that are active at an instruction are the work-items executing it together — the
 * "active" work-items of the OpenCL C non-uniform functions. Which lanes of a sub-group are active
 * together does not depend on the other sub-groups of the warp: the warp always runs the pending
 * block that comes first in reverse post-order, which is also the first of the sub-group's own
 * pending blocks, so the sub-group evolves as if it were alone in its warp. Results are therefore
 * the same at every warp width.
 *
 * Functions that must be reached by every work-item of the sub-group (sub_group_barrier, the
 * cl_khr_subgroups collectives) report barrier divergence when some lane of an involved sub-group
 * is not active.
 *
 * Where OpenCL leaves a value undefined, spvi defines it (spec-notes/subgroups.md): a broadcast or
 * shuffle from a work-item that is inactive or outside the sub-group gives 0; FindLSB/FindMSB of a
 * ballot without a set bit give 0xFFFFFFFF; float reductions and scans combine in increasing
 * sub-group local id order with one rounding per step.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ex_internal.h"


/* The low 64 bits of a ballot (uint4) limited to the sub-group ids below SubgroupMaxSize: the
 * bits "required to represent all of the group's invocations" (SPIR-V 3.32.24, OpenCL C
 * sub_group_ballot_bit_count). Sub-groups have at most 64 work-items. */
static uint64_t ballot_bits(const uint8_t *p, unsigned max) {
  uint64_t v = ex_rd_bytes(p, 8);
  return max >= 64 ? v : v & (((uint64_t)1 << max) - 1);
}

static bool divergence(ex_ctx *cx, ex_warp *w, uint64_t missing, const char *what) {
  char msg[160];
  snprintf(msg, sizeof msg, "this work-item did not reach the %s that others of its sub-group are at", what);
  ex_fault(cx, SPVI_FAULT_BARRIER_DIVERGENCE, w, (unsigned)__builtin_ctzll(missing), 0, 0, 0, msg);
  return false;
}

/* One sub-group's part of an operation: lanes first..first+size-1 of the warp, `act` the active ones
 * among them (a non-empty mask in warp lane numbering). */
static bool sg_run(ex_ctx *cx, ex_warp *w, const ex_func *fn, const ex_insn *ip, unsigned first, unsigned size,
                   uint64_t act) {
  const unsigned W = cx->W, kind = ip->flags, n = ip->n;
  uint8_t *R = w->regs;
  const uint32_t *x = fn->aux + ip->b;
  const unsigned vb = ip->c >> 16, eb = ip->c & 0xFF, ek = (ip->c >> 8) & 0xFF;
  const uint8_t *val = ip->a != LD_NONE ? R + (size_t)ip->a * W : NULL;
  uint8_t *dst = ip->d != LD_NONE ? R + (size_t)ip->d * W : NULL;
  const uint8_t *op2 = x[0] != LD_NONE ? R + (size_t)x[0] * W : NULL;
  const unsigned b2 = x[2];
  const unsigned lo = (unsigned)__builtin_ctzll(act); /* lowest active lane */
#define FOR_ACTIVE(l)                       \
  for (uint64_t m_ = act; m_; m_ &= m_ - 1) \
    for (unsigned l = (unsigned)__builtin_ctzll(m_), o_ = 1; o_; o_ = 0)
  switch (kind) {
  case EX_SG_BARRIER: return true;
  case EX_SG_ELECT: FOR_ACTIVE(l) dst[l] = l == lo; return true;
  case EX_SG_ALL:
  case EX_SG_ANY: {
    uint8_t r = kind == EX_SG_ALL;
    FOR_ACTIVE(l) {
      if (kind == EX_SG_ALL) r &= val[l] != 0;
      else r |= val[l] != 0;
    }
    FOR_ACTIVE(l) dst[l] = r;
    return true;
  }
  case EX_SG_ALL_EQUAL: {
    /* integers bitwise, floats by ordered equality (OpenCL C sub_group_non_uniform_all_equal) */
    const uint64_t first_v = ex_rd_bytes(val + (size_t)lo * vb, eb);
    uint8_t r = 1;
    FOR_ACTIVE(l) {
      uint64_t v = ex_rd_bytes(val + (size_t)l * vb, eb);
      if (ek == EX_GK_FLOAT) r &= ex_gr_float(v, eb) == ex_gr_float(first_v, eb);
      else r &= v == first_v;
    }
    FOR_ACTIVE(l) dst[l] = r;
    return true;
  }
  case EX_SG_BROADCAST_FIRST: FOR_ACTIVE(l) memmove(dst + (size_t)l * vb, val + (size_t)lo * vb, vb); return true;
  case EX_SG_BALLOT: {
    uint32_t bits[4] = {0, 0, 0, 0};
    FOR_ACTIVE(l) if (val[l]) bits[(l - first) / 32] |= (uint32_t)1 << ((l - first) % 32);
    FOR_ACTIVE(l) memcpy(dst + (size_t)l * 16, bits, 16);
    return true;
  }
  case EX_SG_INVERSE_BALLOT:
    FOR_ACTIVE(l) dst[l] = (ballot_bits(val + (size_t)l * 16, 64) >> (l - first)) & 1;
    return true;
  case EX_SG_BIT_EXTRACT:
    FOR_ACTIVE(l) {
      uint64_t i = ex_rd_bytes(op2 + (size_t)l * b2, b2);
      uint32_t word = 0;
      if (i < 128) memcpy(&word, val + (size_t)l * 16 + (i / 32) * 4, 4);
      dst[l] = i < 128 && ((word >> (i % 32)) & 1);
    }
    return true;
  case EX_SG_BIT_COUNT:
  case EX_SG_FIND_LSB:
  case EX_SG_FIND_MSB:
    FOR_ACTIVE(l) {
      uint64_t bits = ballot_bits(val + (size_t)l * 16, cx->sg_max);
      uint32_t r;
      const unsigned id = l - first;
      if (kind == EX_SG_FIND_LSB) r = bits ? (uint32_t)__builtin_ctzll(bits) : 0xFFFFFFFFu;
      else if (kind == EX_SG_FIND_MSB) r = bits ? 63u - (uint32_t)__builtin_clzll(bits) : 0xFFFFFFFFu;
      else {
        if (EX_SG_GOP(n) == 1) bits &= id >= 63 ? ~(uint64_t)0 : (((uint64_t)2 << id) - 1); /* ids <= own */
        else if (EX_SG_GOP(n) == 2) bits &= ((uint64_t)1 << id) - 1;                        /* ids < own */
        r = (uint32_t)__builtin_popcountll(bits);
      }
      memcpy(dst + (size_t)l * 4, &r, 4);
    }
    return true;
  case EX_SG_BROADCAST:
  case EX_SG_SHUFFLE:
  case EX_SG_SHUFFLE_XOR:
  case EX_SG_SHUFFLE_UP:
  case EX_SG_SHUFFLE_DOWN:
  case EX_SG_INTEL_DOWN:
  case EX_SG_INTEL_UP: {
    /* Read every source before writing: in a scan-free data exchange a lane's result may be the
     * value another lane still has to read only when dst aliases val, which SSA excludes; the
     * staging buffer keeps this correct regardless. */
    uint8_t tmp[EX_MAX_WARP * 128];
    const uint8_t *other = x[1] != LD_NONE && (kind == EX_SG_INTEL_DOWN || kind == EX_SG_INTEL_UP)
                             ? R + (size_t)x[1] * W
                             : NULL;
    FOR_ACTIVE(l) {
      const int64_t id = (int64_t)(l - first);
      const uint64_t q = ex_rd_bytes(op2 + (size_t)l * b2, b2);
      int64_t src = -1;
      const uint8_t *from = val;
      switch (kind) {
      case EX_SG_BROADCAST:
      case EX_SG_SHUFFLE: src = q < size ? (int64_t)q : -1; break;
      case EX_SG_SHUFFLE_XOR:
        src = (uint64_t)id ^ q;
        src = (uint64_t)src < size ? src : -1;
        break;
      case EX_SG_SHUFFLE_UP: src = q <= (uint64_t)id ? id - (int64_t)q : -1; break;
      case EX_SG_SHUFFLE_DOWN: src = q < size && (uint64_t)id + q < size ? id + (int64_t)q : -1; break;
      case EX_SG_INTEL_DOWN: {
        /* cl_intel_subgroups: index = own id + delta; below the maximum sub-group size it reads
         * `current`, above it `next` of index - max */
        uint64_t j = (uint64_t)id + q;
        if (q >= 2 * (uint64_t)cx->sg_max) src = -1;
        else if (j < cx->sg_max) src = j < size ? (int64_t)j : -1;
        else {
          j -= cx->sg_max;
          from = other;
          src = j < size ? (int64_t)j : -1;
        }
        break;
      }
      case EX_SG_INTEL_UP: {
        /* index = own id - delta; when negative it reads `previous` of index + max */
        if (q > (uint64_t)id + cx->sg_max) src = -1;
        else if (q <= (uint64_t)id) src = id - (int64_t)q;
        else {
          uint64_t j = (uint64_t)id + cx->sg_max - q;
          from = other;
          src = j < size ? (int64_t)j : -1;
        }
        break;
      }
      default: break;
      }
      const unsigned sl = (unsigned)(first + (unsigned)src);
      if (src >= 0 && ((act >> sl) & 1)) memcpy(tmp + (size_t)l * vb, from + (size_t)sl * vb, vb);
      else memset(tmp + (size_t)l * vb, 0, vb); /* inactive or outside the sub-group: 0 */
    }
    FOR_ACTIVE(l) memcpy(dst + (size_t)l * vb, tmp + (size_t)l * vb, vb);
    return true;
  }
  case EX_SG_ARITH: {
    const unsigned op = EX_SG_ARITH_OP(n), gop = EX_SG_GOP(n);
    const uint64_t ident = ex_gr_identity(op, ek, eb);
    if (gop == 3) { /* clustered reduce: clusters of x[1] consecutive ids (a power of two) */
      const unsigned cs = x[1];
      if (cs > cx->sg_max) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "ClusterSize %u is larger than the sub-group size %u (undefined behaviour, SPIR-V 3.32.24)", cs,
                 cx->sg_max);
        ex_fault(cx, SPVI_FAULT_UNSUPPORTED, w, lo, 0, 0, 0, msg);
        return false;
      }
      for (unsigned c0 = 0; c0 < size; c0 += cs) {
        uint64_t acc = ident;
        const unsigned c1 = c0 + cs < size ? c0 + cs : size;
        for (unsigned i = c0; i < c1; i++)
          if ((act >> (first + i)) & 1)
            acc = ex_gr_combine(op, eb, acc, ex_rd_bytes(val + (size_t)(first + i) * eb, eb));
        for (unsigned i = c0; i < c1; i++)
          if ((act >> (first + i)) & 1) memcpy(dst + (size_t)(first + i) * eb, &acc, eb);
      }
      return true;
    }
    uint64_t acc = ident;
    if (gop == 0) {
      FOR_ACTIVE(l) acc = ex_gr_combine(op, eb, acc, ex_rd_bytes(val + (size_t)l * eb, eb));
      FOR_ACTIVE(l) memcpy(dst + (size_t)l * eb, &acc, eb);
      return true;
    }
    FOR_ACTIVE(l) { /* scans in increasing sub-group local id order */
      uint64_t next = ex_gr_combine(op, eb, acc, ex_rd_bytes(val + (size_t)l * eb, eb));
      uint64_t out = gop == 1 ? next : acc;
      memcpy(dst + (size_t)l * eb, &out, eb);
      acc = next;
    }
    return true;
  }
  default: break;
  }
#undef FOR_ACTIVE
  ex_fault(cx, SPVI_FAULT_UNSUPPORTED, w, lo, 0, 0, 0, "unknown sub-group operation");
  return false;
}

bool ex_subgroup_exec(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip) {
  const unsigned S = cx->sg_size;
  const bool uniform = (ip->n & EX_SG_UNIFORM) != 0;
  /* warps start at multiples of S (ex_api.c), so lane j*S starts a sub-group */
  for (unsigned first = 0; first < w->nlanes; first += S) {
    const unsigned size = w->nlanes - first < S ? w->nlanes - first : S;
    const uint64_t sgm = (size == 64 ? ~(uint64_t)0 : (((uint64_t)1 << size) - 1)) << first;
    const uint64_t act = f->active & sgm;
    if (!act) continue; /* this sub-group is elsewhere */
    if (uniform && act != sgm)
      return divergence(cx, w, sgm & ~act, ip->flags == EX_SG_BARRIER ? "sub-group barrier" : "sub-group collective");
    if (!sg_run(cx, w, f->fn, ip, first, size, act)) return false;
  }
  return true;
}

bool ex_named_barrier_init(ex_ctx *cx, ex_warp *w, const ex_frame *f, const ex_insn *ip) {
  /* cl_khr_subgroup_named_barrier: initialising is a work-group operation with a uniform count;
   * every OpNamedBarrierInitialize names one barrier of the work-group, re-initialising it
   * ("named barrier objects can be reconstructed ... or reused") keeps its phase. */
  const unsigned W = cx->W;
  ex_named_barrier *nb = &cx->nbar[ip->b];
  for (uint64_t m = f->active; m; m &= m - 1) {
    const unsigned l = (unsigned)__builtin_ctzll(m);
    const uint64_t cnt = ex_rd_bytes(w->regs + (size_t)ip->a * W + (size_t)l * ip->c, ip->c);
    const char *bad = NULL;
    char msg[200];
    if (cnt == 0 || cnt > 0xFFFFFFFFu) bad = "is not a valid sub-group count";
    else if (nb->count && nb->count != cnt)
      bad = "differs from the count this named barrier was initialised with in this work-group";
    if (bad) {
      snprintf(msg, sizeof msg, "OpNamedBarrierInitialize: Subgroup Count %llu %s", (unsigned long long)cnt, bad);
      ex_fault(cx, SPVI_FAULT_BARRIER_DIVERGENCE, w, l, 0, 0, 0, msg);
      return false;
    }
    nb->count = (uint32_t)cnt;
    const uint64_t h = ip->b + 1;
    memcpy(w->regs + (size_t)ip->d * W + (size_t)l * 8, &h, 8);
  }
  return true;
}
