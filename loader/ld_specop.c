/*
 * ld_specop.c — load-time evaluation of OpSpecConstantOp (SPIR-V 3.32.7) from the default values
 * of the specialization constants it uses.
 *
 * Evaluated: the integer, logical, comparison, select, conversion, bitcast, floating-point
 * arithmetic, composite extract/insert and vector shuffle operations of the list SPIR-V allows in
 * OpSpecConstantOp (Shader-independent entries plus the Kernel-capability additions; env spec
 * "Validation Rules" adds nothing). Of the pointer operations of that list, the access chains,
 * OpGenericCastToPtr, OpPtrCastToGeneric and a pointer OpBitcast are evaluated over the address
 * of a module-scope variable: the result is that variable plus a byte offset. The variable goes
 * back to the caller (ld_const.c), which records it as the constant's relocation, so this file
 * computes values only and calls nothing above types (ld_internal.h). OpConvertPtrToU/UToPtr
 * need numeric addresses, which do not exist at load time: they are reported by name, as is
 * anything else.
 *
 * Semantics follow the instructions' own definitions (SPIR-V 3.32.13 arithmetic, 3.32.14 bit,
 * 3.32.15 relational and logical, 3.32.11 conversion, 3.32.12 composite). Where the result is
 * undefined (division by zero, SDiv of the most negative value by -1, shift by at least the
 * width, float-to-integer conversion out of range or of NaN) the component is zero, a warning
 * names the instruction, and a wholly undefined result is marked is_undef like an OpUndef.
 *
 * Floating point: binary16 and binary32 operations are computed in binary64 and rounded once to
 * the result width; since 53 >= 2p + 2 for p = 11 and 24, that double rounding gives the correctly
 * rounded result for +, -, *, / (Figueroa, "When is double rounding innocuous?"). Integer to
 * binary32 converts directly so that only one rounding happens.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ld_internal.h"

typedef enum op_class {
  C_IUN,
  C_IBIN,
  C_SHIFT,
  C_ICMP,
  C_LUN,
  C_LBIN,
  C_SELECT,
  C_ICONV,
  C_FCONV,
  C_F2I,
  C_I2F,
  C_BITCAST,
  C_FUN,
  C_FBIN,
  C_EXTRACT,
  C_INSERT,
  C_SHUFFLE
} op_class;

static const struct {
  uint16_t op;
  uint8_t cls;
} op_table[] = {
  {SpvOpSNegate, C_IUN},
  {SpvOpNot, C_IUN},
  {SpvOpIAdd, C_IBIN},
  {SpvOpISub, C_IBIN},
  {SpvOpIMul, C_IBIN},
  {SpvOpUDiv, C_IBIN},
  {SpvOpSDiv, C_IBIN},
  {SpvOpUMod, C_IBIN},
  {SpvOpSRem, C_IBIN},
  {SpvOpSMod, C_IBIN},
  {SpvOpBitwiseOr, C_IBIN},
  {SpvOpBitwiseXor, C_IBIN},
  {SpvOpBitwiseAnd, C_IBIN},
  {SpvOpShiftRightLogical, C_SHIFT},
  {SpvOpShiftRightArithmetic, C_SHIFT},
  {SpvOpShiftLeftLogical, C_SHIFT},
  {SpvOpIEqual, C_ICMP},
  {SpvOpINotEqual, C_ICMP},
  {SpvOpULessThan, C_ICMP},
  {SpvOpSLessThan, C_ICMP},
  {SpvOpUGreaterThan, C_ICMP},
  {SpvOpSGreaterThan, C_ICMP},
  {SpvOpULessThanEqual, C_ICMP},
  {SpvOpSLessThanEqual, C_ICMP},
  {SpvOpUGreaterThanEqual, C_ICMP},
  {SpvOpSGreaterThanEqual, C_ICMP},
  {SpvOpLogicalNot, C_LUN},
  {SpvOpLogicalOr, C_LBIN},
  {SpvOpLogicalAnd, C_LBIN},
  {SpvOpLogicalEqual, C_LBIN},
  {SpvOpLogicalNotEqual, C_LBIN},
  {SpvOpSelect, C_SELECT},
  {SpvOpSConvert, C_ICONV},
  {SpvOpUConvert, C_ICONV},
  {SpvOpFConvert, C_FCONV},
  {SpvOpConvertFToS, C_F2I},
  {SpvOpConvertFToU, C_F2I},
  {SpvOpConvertSToF, C_I2F},
  {SpvOpConvertUToF, C_I2F},
  {SpvOpBitcast, C_BITCAST},
  {SpvOpFNegate, C_FUN},
  {SpvOpFAdd, C_FBIN},
  {SpvOpFSub, C_FBIN},
  {SpvOpFMul, C_FBIN},
  {SpvOpFDiv, C_FBIN},
  {SpvOpFRem, C_FBIN},
  {SpvOpFMod, C_FBIN},
  {SpvOpCompositeExtract, C_EXTRACT},
  {SpvOpCompositeInsert, C_INSERT},
  {SpvOpVectorShuffle, C_SHUFFLE},
};

/* Operand ids each class takes (after the wrapped opcode); -1: at least that many, checked per class. */
static const int class_nops[] = {
  [C_IUN] = 1,    [C_IBIN] = 2,  [C_SHIFT] = 2,    [C_ICMP] = 2,    [C_LUN] = 1,      [C_LBIN] = 2,
  [C_SELECT] = 3, [C_ICONV] = 1, [C_FCONV] = 1,    [C_F2I] = 1,     [C_I2F] = 1,      [C_BITCAST] = 1,
  [C_FUN] = 1,    [C_FBIN] = 2,  [C_EXTRACT] = -1, [C_INSERT] = -1, [C_SHUFFLE] = -1,
};

typedef struct eval {
  ld_ctx *c;
  const ld_raw *r;
  uint32_t result;
  const char *opname; /* the wrapped opcode's name */
  uint32_t undefined; /* components whose value is undefined */
  const char *why;    /* reason of the first undefined component */
  uint32_t *reloc;    /* out: the variable an address result points into (ld_specop_eval) */
} eval;

/* ---- scalar access --------------------------------------------------------------------------- */

static uint64_t get_bits(const uint8_t *p, uint32_t bytes) {
  switch (bytes) {
  case 1: {
    uint8_t v;
    memcpy(&v, p, 1);
    return v;
  }
  case 2: {
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
  }
  case 4: {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
  }
  default: {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
  }
  }
}

static void put_bits(uint8_t *p, uint32_t bytes, uint64_t v) {
  switch (bytes) {
  case 1: {
    uint8_t x = (uint8_t)v;
    memcpy(p, &x, 1);
    break;
  }
  case 2: {
    uint16_t x = (uint16_t)v;
    memcpy(p, &x, 2);
    break;
  }
  case 4: {
    uint32_t x = (uint32_t)v;
    memcpy(p, &x, 4);
    break;
  }
  default: memcpy(p, &v, 8); break;
  }
}

static uint64_t mask_of(uint32_t bits) { return bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1; }

/* Two's complement value of the low `bits` bits, without relying on out-of-range conversions. */
static int64_t sext(uint64_t v, uint32_t bits) {
  uint64_t m = mask_of(bits);
  v &= m;
  if (!(v >> (bits - 1))) return (int64_t)v;
  return -(int64_t)(~v & m >> 1 & m) - 1;
}

/* IEEE binary16 <-> binary64 (exact one way, round-to-nearest-even the other). */
static double half_to_double(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 0x3FF;
  double v;
  if (e == 0) v = ldexp(m, -24);
  else if (e < 31) v = ldexp(m + 1024, e - 25);
  else if (m == 0) v = INFINITY;
  else {
    uint64_t b = (uint64_t)0x7FF << 52 | (uint64_t)m << 42; /* NaN, payload kept */
    memcpy(&v, &b, 8);
  }
  return (h & 0x8000) ? -v : v;
}

static uint16_t half_from_double(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  uint16_t sign = (uint16_t)((b >> 48) & 0x8000);
  int exp = (int)((b >> 52) & 0x7FF);
  uint64_t man = b & (((uint64_t)1 << 52) - 1);
  if (exp == 0x7FF) return sign | 0x7C00 | (man ? (uint16_t)(0x200 | (man >> 42)) : 0);
  if (exp == 0) return sign; /* binary64 subnormals are far below half the smallest binary16 */
  int e = exp - 1023;
  if (e > 15) return sign | 0x7C00;
  uint64_t sig = ((uint64_t)1 << 52) | man;
  int ulp_e = e >= -14 ? e - 10 : -24; /* exponent of one unit in the last place of the result */
  int shift = 52 - e + ulp_e;          /* low bits of sig below that unit */
  if (shift >= 64) return sign;        /* < 2^-11 ulp: rounds to zero */
  uint64_t q = sig >> shift, rem = sig & (((uint64_t)1 << shift) - 1), half = (uint64_t)1 << (shift - 1);
  if (rem > half || (rem == half && (q & 1))) q++;
  /* a carry out of the significand moves into the exponent field (up to infinity) by itself */
  uint64_t bits = e >= -14 ? ((uint64_t)(e + 14) << 10) + q : q;
  return sign | (uint16_t)bits;
}

bool ld_half_exact(double d, uint16_t *out) {
  uint16_t h = half_from_double(d);
  double back = half_to_double(h);
  if (!(back == d || (isnan(back) && isnan(d))) || (d == 0 && signbit(d) != signbit(back))) return false;
  *out = h;
  return true;
}

static double get_float(const uint8_t *p, uint32_t bits) {
  if (bits == 16) return half_to_double((uint16_t)get_bits(p, 2));
  if (bits == 32) {
    float f;
    memcpy(&f, p, 4);
    return f;
  }
  double d;
  memcpy(&d, p, 8);
  return d;
}

static void put_float(uint8_t *p, uint32_t bits, double v) {
  if (bits == 16) put_bits(p, 2, half_from_double(v));
  else if (bits == 32) {
    float f = (float)v;
    memcpy(p, &f, 4);
  } else memcpy(p, &v, 8);
}

/* ---- operands ------------------------------------------------------------------------------ */

typedef struct operand {
  const ld_const *k;
  const ld_type *t;    /* its type */
  const ld_type *comp; /* component type (the type itself for scalars) */
  uint32_t n;          /* components (1 for scalars) */
} operand;

static void shape(const ld_module *m, const ld_type *t, const ld_type **comp, uint32_t *n) {
  if (t->kind == LD_TY_VECTOR) {
    *comp = ld_type_of(m, t->elem);
    *n = t->count;
  } else {
    *comp = t;
    *n = 1;
  }
}

static bool get_operand(eval *ev, uint32_t idx, operand *o) {
  ld_ctx *c = ev->c;
  uint32_t id = ev->r->w[4 + idx];
  char what[96];
  snprintf(what, sizeof what, "OpSpecConstantOp %%%u (%s) operand %u", ev->result, ev->opname, idx);
  if (id == ev->result) return ld_errf(c, ev->r->at, "%s is the instruction's own result", what);
  if (id < c->m->bound && c->m->ids[id].kind == LD_ID_GLOBAL)
    return ld_errf(c, ev->r->at,
                   "%s %%%u is the address of a module-scope variable, which spvi does not "
                   "evaluate at load time (the IR has no address constants)",
                   what, id);
  o->k = ld_need_const(c, ev->r, id, what);
  if (!o->k) return false;
  o->t = ld_type_of(c->m, o->k->type);
  shape(c->m, o->t, &o->comp, &o->n);
  return true;
}

static bool fail_types(eval *ev, const char *expect) {
  return ld_errf(ev->c, ev->r->at, "OpSpecConstantOp %%%u (%s): %s", ev->result, ev->opname, expect);
}

static void undefined(eval *ev, uint8_t *dst, uint32_t bytes, const char *why) {
  memset(dst, 0, bytes);
  if (!ev->undefined) ev->why = why;
  ev->undefined++;
}

/* ---- integer and logical classes --------------------------------------------------------- */

static uint64_t int_binary(eval *ev, uint32_t op, uint64_t a, uint64_t b, uint32_t bits, bool *undef) {
  int64_t sa = sext(a, bits), sb = sext(b, bits);
  int64_t smin = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
  (void)ev;
  switch (op) {
  case SpvOpIAdd: return a + b;
  case SpvOpISub: return a - b;
  case SpvOpIMul: return a * b;
  case SpvOpBitwiseOr: return a | b;
  case SpvOpBitwiseXor: return a ^ b;
  case SpvOpBitwiseAnd: return a & b;
  case SpvOpUDiv:
  case SpvOpUMod:
    if (b == 0) {
      *undef = true;
      return 0;
    }
    return op == SpvOpUDiv ? a / b : a % b;
  case SpvOpSDiv:
    if (sb == 0 || (sa == smin && sb == -1)) {
      *undef = true;
      return 0;
    }
    return (uint64_t)(sa / sb);
  case SpvOpSRem:
  case SpvOpSMod: {
    if (sb == 0) {
      *undef = true;
      return 0;
    }
    int64_t rem = sb == -1 ? 0 : sa % sb; /* C's % has the sign of the dividend (SRem) */
    if (op == SpvOpSMod && rem != 0 && ((rem < 0) != (sb < 0))) rem += sb; /* sign of the divisor */
    return (uint64_t)rem;
  }
  default: return 0;
  }
}

static bool int_classes(eval *ev, op_class cls, uint32_t op, const ld_type *rt, uint8_t *dst) {
  const ld_module *m = ev->c->m;
  const ld_type *rc;
  uint32_t n;
  shape(m, rt, &rc, &n);
  operand a = {NULL, NULL, NULL, 0}, b = a;
  if (!get_operand(ev, 0, &a)) return false;
  if (cls != C_IUN && cls != C_LUN && !get_operand(ev, 1, &b)) return false;
  bool logical = cls == C_LUN || cls == C_LBIN;
  bool cmp = cls == C_ICMP || (cls == C_LBIN && (op == SpvOpLogicalEqual || op == SpvOpLogicalNotEqual));
  ld_type_kind want_res = (cmp || logical) ? LD_TY_BOOL : LD_TY_INT;
  ld_type_kind want_op = logical ? LD_TY_BOOL : LD_TY_INT;
  if (rc->kind != want_res || a.comp->kind != want_op || a.n != n ||
      (cls != C_IUN && cls != C_LUN && (b.comp->kind != want_op || b.n != n)))
    return fail_types(ev, "operand and result types do not fit the operation (component kinds or counts differ)");
  uint32_t bits = a.comp->bits;
  if ((cls == C_IUN || cls == C_IBIN || cls == C_SHIFT) && rc->bits != bits)
    return fail_types(ev, "operand and result widths differ");
  if ((cls == C_IBIN || cls == C_ICMP) && b.comp->bits != bits)
    return fail_types(ev, "the two operands have different widths");
  uint32_t ab = a.comp->size, bb = (cls == C_IUN || cls == C_LUN) ? 0 : b.comp->size, rb = rc->size;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t x = get_bits(a.k->bytes + i * ab, ab), y = bb ? get_bits(b.k->bytes + i * bb, bb) : 0, v = 0;
    bool undef = false;
    switch (cls) {
    case C_IUN: v = op == SpvOpNot ? ~x : (uint64_t)0 - x; break;
    case C_IBIN: v = int_binary(ev, op, x, y, bits, &undef); break;
    case C_SHIFT:
      if (y >= bits) {
        undef = true;
        break;
      }
      if (op == SpvOpShiftLeftLogical) v = x << y;
      else if (op == SpvOpShiftRightLogical) v = (x & mask_of(bits)) >> y;
      else {
        int64_t s = sext(x, bits);
        v = (uint64_t)(s < 0 ? ~(~s >> y) : s >> y);
      }
      break;
    case C_ICMP: {
      int64_t sx = sext(x, bits), sy = sext(y, bits);
      x &= mask_of(bits);
      y &= mask_of(bits);
      switch (op) {
      case SpvOpIEqual: v = x == y; break;
      case SpvOpINotEqual: v = x != y; break;
      case SpvOpULessThan: v = x < y; break;
      case SpvOpSLessThan: v = sx < sy; break;
      case SpvOpUGreaterThan: v = x > y; break;
      case SpvOpSGreaterThan: v = sx > sy; break;
      case SpvOpULessThanEqual: v = x <= y; break;
      case SpvOpSLessThanEqual: v = sx <= sy; break;
      case SpvOpUGreaterThanEqual: v = x >= y; break;
      default: v = sx >= sy; break;
      }
      break;
    }
    case C_LUN: v = !x; break;
    default: /* C_LBIN */
      switch (op) {
      case SpvOpLogicalOr: v = (x != 0) || (y != 0); break;
      case SpvOpLogicalAnd: v = (x != 0) && (y != 0); break;
      case SpvOpLogicalEqual: v = (x != 0) == (y != 0); break;
      default: v = (x != 0) != (y != 0); break;
      }
      break;
    }
    if (undef)
      undefined(ev, dst + i * rb, rb,
                cls == C_SHIFT ? "shift by at least the bit width" : "division by zero or overflow");
    else put_bits(dst + i * rb, rb, v & mask_of(rc->bits));
  }
  return true;
}

/* ---- conversions and floating point -------------------------------------------------------- */

static bool convert(eval *ev, op_class cls, uint32_t op, const ld_type *rt, uint8_t *dst) {
  const ld_module *m = ev->c->m;
  const ld_type *rc;
  uint32_t n;
  shape(m, rt, &rc, &n);
  operand a = {NULL, NULL, NULL, 0};
  if (!get_operand(ev, 0, &a)) return false;
  ld_type_kind from = (cls == C_ICONV || cls == C_I2F) ? LD_TY_INT : LD_TY_FLOAT;
  ld_type_kind to = (cls == C_ICONV || cls == C_F2I) ? LD_TY_INT : LD_TY_FLOAT;
  if (a.comp->kind != from || rc->kind != to || a.n != n)
    return fail_types(ev, "operand or result type does not fit the conversion");
  uint32_t ab = a.comp->size, rb = rc->size, fb = a.comp->bits, tb = rc->bits;
  bool sgn = op == SpvOpSConvert || op == SpvOpConvertFToS || op == SpvOpConvertSToF;
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *src = a.k->bytes + i * ab;
    uint8_t *out = dst + i * rb;
    switch (cls) {
    case C_ICONV: {
      uint64_t x = get_bits(src, ab);
      put_bits(out, rb, sgn ? (uint64_t)sext(x, fb) : x);
      break;
    }
    case C_FCONV: {
      double d = get_float(src, fb);
      if (tb == 32 && fb == 64) {
        float f = (float)d;
        memcpy(out, &f, 4);
      } /* one rounding */
      else
        put_float(out, tb, d);
      break;
    }
    case C_F2I: {
      /* rounds toward zero (SPIR-V 3.32.11); out-of-range and NaN are undefined */
      double t = trunc(get_float(src, fb));
      double lo = sgn ? -ldexp(1, (int)tb - 1) : 0, hi = sgn ? ldexp(1, (int)tb - 1) : ldexp(1, (int)tb);
      if (!(t >= lo && t < hi)) {
        undefined(ev, out, rb, "float-to-integer conversion out of range");
        break;
      }
      put_bits(out, rb, sgn ? (uint64_t)(int64_t)t : (uint64_t)t);
      break;
    }
    default: { /* C_I2F */
      uint64_t x = get_bits(src, ab);
      if (tb == 32) {
        float f = sgn ? (float)sext(x, fb) : (float)x;
        memcpy(out, &f, 4);
      } else {
        /* binary64: one rounding; binary16: exact below 2^53, and anything larger overflows */
        put_float(out, tb, sgn ? (double)sext(x, fb) : (double)x);
      }
      break;
    }
    }
  }
  return true;
}

static bool float_ops(eval *ev, op_class cls, uint32_t op, const ld_type *rt, uint8_t *dst) {
  const ld_module *m = ev->c->m;
  const ld_type *rc;
  uint32_t n;
  shape(m, rt, &rc, &n);
  operand a = {NULL, NULL, NULL, 0}, b = a;
  if (!get_operand(ev, 0, &a)) return false;
  if (cls == C_FBIN && !get_operand(ev, 1, &b)) return false;
  if (rc->kind != LD_TY_FLOAT || a.comp->kind != LD_TY_FLOAT || a.n != n || a.comp->bits != rc->bits ||
      (cls == C_FBIN && (b.comp->kind != LD_TY_FLOAT || b.n != n || b.comp->bits != rc->bits)))
    return fail_types(ev, "operands and result must be floating-point of the same width and component count");
  uint32_t sz = rc->size, bits = rc->bits;
  for (uint32_t i = 0; i < n; i++) {
    uint8_t *out = dst + i * sz;
    if (cls == C_FUN) { /* flips the sign bit, NaNs included */
      uint64_t x = get_bits(a.k->bytes + i * sz, sz);
      put_bits(out, sz, x ^ ((uint64_t)1 << (bits - 1)));
      continue;
    }
    double x = get_float(a.k->bytes + i * sz, bits), y = get_float(b.k->bytes + i * sz, bits), v;
    switch (op) {
    case SpvOpFAdd: v = x + y; break;
    case SpvOpFSub: v = x - y; break;
    case SpvOpFMul: v = x * y; break;
    case SpvOpFDiv: v = x / y; break;
    case SpvOpFRem: v = fmod(x, y); break; /* sign of operand 1 */
    default:                               /* FMod: sign of operand 2 */
      v = fmod(x, y);
      if (v != 0 && ((v < 0) != (y < 0))) v += y;
      break;
    }
    put_float(out, bits, v);
  }
  return true;
}

/* ---- select, bitcast, composites ----------------------------------------------------------- */

static bool select_op(eval *ev, const ld_type *rt, uint8_t *dst) {
  const ld_module *m = ev->c->m;
  operand cond = {NULL, NULL, NULL, 0}, x = cond, y = cond;
  if (!get_operand(ev, 0, &cond) || !get_operand(ev, 1, &x) || !get_operand(ev, 2, &y)) return false;
  if (cond.comp->kind != LD_TY_BOOL || !ld_type_same(m, x.t->id, rt->id) || !ld_type_same(m, y.t->id, rt->id))
    return fail_types(ev, "expects a bool condition and two objects of the result type");
  if (cond.n == 1) {
    memcpy(dst, (cond.k->bytes[0] ? x : y).k->bytes, rt->reg_size);
    return true;
  }
  const ld_type *rc;
  uint32_t n;
  shape(m, rt, &rc, &n);
  if (rt->kind != LD_TY_VECTOR || n != cond.n)
    return fail_types(ev, "a vector condition needs a vector result with as many components");
  for (uint32_t i = 0; i < n; i++)
    memcpy(dst + i * rc->size, (cond.k->bytes[i] ? x : y).k->bytes + i * rc->size, rc->size);
  return true;
}

static bool bitcast(eval *ev, const ld_type *rt, uint8_t *dst) {
  operand a = {NULL, NULL, NULL, 0};
  if (!get_operand(ev, 0, &a)) return false;
  if (rt->kind == LD_TY_POINTER || a.t->kind == LD_TY_POINTER)
    return fail_types(ev, "a Bitcast involving pointers has no value at load time");
  if (!ld_type_is_scalar(a.comp) ||
      !ld_type_is_scalar(ld_type_of(ev->c->m, rt->kind == LD_TY_VECTOR ? rt->elem : rt->id)) ||
      a.t->reg_size != rt->reg_size)
    return fail_types(ev, "Bitcast needs scalar or vector types of the same total width");
  memcpy(dst, a.k->bytes, rt->reg_size);
  return true;
}

/* Walk literal indices words[0..n) into type t: byte offset (register layout) and final type. */
static bool walk(eval *ev, const ld_type *t, const uint32_t *idx, uint32_t n, uint32_t *off, const ld_type **out) {
  const ld_module *m = ev->c->m;
  uint32_t o = 0;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = idx[k];
    if ((t->kind != LD_TY_VECTOR && t->kind != LD_TY_ARRAY && t->kind != LD_TY_STRUCT) || i >= t->count)
      return ld_errf(ev->c, ev->r->at,
                     "OpSpecConstantOp %%%u (%s): index %u (position %u) does not select a member of type %%%u",
                     ev->result, ev->opname, i, k, t->id);
    if (t->kind == LD_TY_STRUCT) {
      o += t->offsets[i];
      t = ld_type_of(m, t->members[i]);
    } else {
      t = ld_type_of(m, t->elem);
      o += i * t->size;
    }
  }
  *off = o;
  *out = t;
  return true;
}

static bool composite_op(eval *ev, op_class cls, const ld_type *rt, uint8_t *dst) {
  const ld_module *m = ev->c->m;
  uint32_t nops = ev->r->nwords - 4u;
  operand obj = {NULL, NULL, NULL, 0}, comp = obj;
  uint32_t off;
  const ld_type *leaf;
  if (cls == C_EXTRACT) {
    if (nops < 2) return fail_types(ev, "expects a composite and at least one index");
    if (!get_operand(ev, 0, &comp)) return false;
    if (!walk(ev, comp.t, ev->r->w + 5, nops - 1, &off, &leaf)) return false;
    if (!ld_type_same(m, leaf->id, rt->id))
      return fail_types(ev, "the selected member's type differs from the result type");
    memcpy(dst, comp.k->bytes + off, rt->reg_size);
    return true;
  }
  if (nops < 3) return fail_types(ev, "expects an object, a composite and at least one index");
  if (!get_operand(ev, 0, &obj) || !get_operand(ev, 1, &comp)) return false;
  if (!ld_type_same(m, comp.t->id, rt->id)) return fail_types(ev, "the composite's type differs from the result type");
  if (!walk(ev, comp.t, ev->r->w + 6, nops - 2, &off, &leaf)) return false;
  if (!ld_type_same(m, leaf->id, obj.t->id))
    return fail_types(ev, "the object's type differs from the selected member's");
  memcpy(dst, comp.k->bytes, rt->reg_size);
  memcpy(dst + off, obj.k->bytes, leaf->reg_size);
  return true;
}

static bool shuffle(eval *ev, const ld_type *rt, uint8_t *dst) {
  const ld_module *m = ev->c->m;
  uint32_t nops = ev->r->nwords - 4u;
  operand a = {NULL, NULL, NULL, 0}, b = a;
  if (nops < 2) return fail_types(ev, "expects two vectors and the component selectors");
  if (!get_operand(ev, 0, &a) || !get_operand(ev, 1, &b)) return false;
  if (rt->kind != LD_TY_VECTOR || a.t->kind != LD_TY_VECTOR || b.t->kind != LD_TY_VECTOR ||
      !ld_type_same(m, a.t->elem, rt->elem) || !ld_type_same(m, b.t->elem, rt->elem))
    return fail_types(ev, "expects vectors with the result's component type");
  if (nops - 2 != rt->count) return fail_types(ev, "the number of selectors differs from the result's component count");
  uint32_t cs = ld_type_of(m, rt->elem)->size;
  for (uint32_t i = 0; i < rt->count; i++) {
    uint32_t s = ev->r->w[6 + i];
    if (s == 0xFFFFFFFFu) {
      memset(dst + i * cs, 0, cs);
      continue;
    } /* "no source": undefined component */
    if (s >= a.n + b.n) return fail_types(ev, "a component selector is out of range");
    const uint8_t *src = s < a.n ? a.k->bytes + s * cs : b.k->bytes + (s - a.n) * cs;
    memcpy(dst + i * cs, src, cs);
  }
  return true;
}

/* Address constants: operand `id` as "module-scope variable + byte offset". */
static bool address_operand(eval *ev, uint32_t id, uint32_t *global, int64_t *off, const ld_type **ptype) {
  ld_ctx *c = ev->c;
  const ld_module *m = c->m;
  char what[96];
  snprintf(what, sizeof what, "OpSpecConstantOp %%%u (%s) pointer operand", ev->result, ev->opname);
  if (id < m->bound && m->ids[id].kind == LD_ID_GLOBAL) {
    *global = id;
    *off = 0;
    *ptype = ld_type_of(m, m->ids[id].type);
    return *ptype != NULL;
  }
  const ld_const *k = ld_need_const(c, ev->r, id, what);
  if (!k) return false;
  const ld_type *t = ld_type_of(m, k->type);
  if (!t || t->kind != LD_TY_POINTER || k->nrelocs != 1 || k->relocs[0].offset != 0)
    return ld_errf(c, ev->r->at, "%s %%%u is not the address of a module-scope variable", what, id);
  *global = k->relocs[0].global;
  *off = m->pointer_bytes == 8 ? (int64_t)get_bits(k->bytes, 8) : sext(get_bits(k->bytes, 4), 32);
  *ptype = t;
  return true;
}

/* Is `id` a null pointer constant (OpConstantNull of a pointer type: no variable, value 0)? */
static bool null_pointer(const ld_module *m, uint32_t id) {
  if (id >= m->bound || m->ids[id].kind != LD_ID_CONST) return false;
  const ld_const *k = &m->consts[m->ids[id].index];
  const ld_type *t = ld_type_of(m, k->type);
  return t && t->kind == LD_TY_POINTER && k->nrelocs == 0 && get_bits(k->bytes, m->pointer_bytes) == 0;
}

/* *off += idx * size for an access-chain index, computed exactly: an offset that leaves int64 is a
 * load error naming the index (`what`), never a wrapped one that lands inside the variable
 * (2^62 + 1 elements of 4 bytes would be element 1 modulo 2^64). */
static bool chain_add(eval *ev, int64_t *off, int64_t idx, uint64_t size, const char *what) {
  int64_t t;
  if (size <= (uint64_t)INT64_MAX && !__builtin_mul_overflow(idx, (int64_t)size, &t) &&
      !__builtin_add_overflow(*off, t, off))
    return true;
  return ld_errf(ev->c, ev->r->at, "%s: %lld elements of %llu bytes overflow the 64-bit byte offset", what,
                 (long long)idx, (unsigned long long)size);
}

/* Bitcast / generic casts / access chains over the address of a variable (SPIR-V 3.32.8 index
 * rules: Ptr forms step over whole pointees first; struct members by constant index; indexes are
 * signed). The result keeps the variable as a relocation and the byte offset as its value. */
static bool address_op(eval *ev, uint32_t op, const ld_type *rt, ld_const *k) {
  ld_ctx *c = ev->c;
  const ld_module *m = c->m;
  uint32_t nops = ev->r->nwords - 4u;
  if (rt->kind != LD_TY_POINTER) return fail_types(ev, "an address operation needs a pointer result");
  if (nops < 1) return fail_types(ev, "expects a pointer operand");
  uint32_t global = 0;
  int64_t off = 0;
  const ld_type *pt = NULL;
  bool chain = op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain || op == SpvOpPtrAccessChain ||
               op == SpvOpInBoundsPtrAccessChain;
  if (!chain && nops != 1) return fail_types(ev, "expects one pointer operand");
  /* a cast of the null pointer is the result type's null pointer (all zero): llvm-spirv writes
   * PtrCastToGeneric of a null Function pointer into OpenCL C 2.0 block literals */
  if (!chain && null_pointer(m, ev->r->w[4])) {
    put_bits(k->bytes, m->pointer_bytes, 0);
    return true;
  }
  if (!address_operand(ev, ev->r->w[4], &global, &off, &pt)) return false;
  if (chain) {
    bool ptr_form = op == SpvOpPtrAccessChain || op == SpvOpInBoundsPtrAccessChain;
    const ld_type *cur = ld_type_of(m, pt->elem);
    for (uint32_t i = 1; i < nops; i++) {
      char what[96];
      snprintf(what, sizeof what, "OpSpecConstantOp %%%u (%s) index %u", ev->result, ev->opname, i - 1);
      const ld_const *ik = ld_need_const(c, ev->r, ev->r->w[4 + i], what);
      if (!ik) return false;
      const ld_type *it = ld_type_of(m, ik->type);
      if (!it || it->kind != LD_TY_INT) return fail_types(ev, "an access-chain index is not an integer constant");
      int64_t idx = sext(get_bits(ik->bytes, it->bits / 8), it->bits);
      if (!cur) return fail_types(ev, "an access chain walks through an unknown type");
      if (ptr_form && i == 1) {
        if (!chain_add(ev, &off, idx, cur->size, what)) return false;
      } else if (cur->kind == LD_TY_STRUCT) {
        if (idx < 0 || (uint64_t)idx >= cur->count) return fail_types(ev, "a struct member index is out of range");
        off += cur->offsets[idx];
        cur = ld_type_of(m, cur->members[idx]);
      } else if (cur->kind == LD_TY_ARRAY || cur->kind == LD_TY_RUNTIME_ARRAY || cur->kind == LD_TY_VECTOR) {
        const ld_type *et = ld_type_of(m, cur->elem);
        if (!et) return fail_types(ev, "an access chain walks through an unknown type");
        if (!chain_add(ev, &off, idx, et->size, what)) return false;
        cur = et;
      } else {
        return fail_types(ev, "an access chain indexes into a scalar");
      }
    }
  }
  if (m->pointer_bytes == 4 && (off < INT32_MIN || off > INT32_MAX))
    return ld_errf(c, ev->r->at,
                   "OpSpecConstantOp %%%u (%s): byte offset %lld does not fit the module's 32-bit pointers", ev->result,
                   ev->opname, (long long)off);
  put_bits(k->bytes, m->pointer_bytes, (uint64_t)off);
  *ev->reloc = global;
  return true;
}

bool ld_specop_eval(ld_ctx *c, const ld_raw *r, const ld_type *type, ld_const *k, uint32_t *reloc) {
  uint32_t op = r->w[3];
  const char *name = spv_op_name(op);
  eval ev = {c, r, k->id, name ? name : "an unknown opcode", 0, NULL, reloc};
  *reloc = 0;
  int cls = -1;
  for (size_t i = 0; i < sizeof op_table / sizeof op_table[0]; i++)
    if (op_table[i].op == op) cls = op_table[i].cls;
  if (cls == C_BITCAST && type->kind == LD_TY_POINTER) return address_op(&ev, op, type, k);
  if (cls < 0) {
    static const uint16_t address_ops[] = {
      SpvOpAccessChain,      SpvOpInBoundsAccessChain, SpvOpPtrAccessChain, SpvOpInBoundsPtrAccessChain,
      SpvOpGenericCastToPtr, SpvOpPtrCastToGeneric,
    };
    for (size_t i = 0; i < sizeof address_ops / sizeof address_ops[0]; i++)
      if (address_ops[i] == op) return address_op(&ev, op, type, k);
    if (name) return ld_errf(c, r->at, "OpSpecConstantOp %%%u: %s is not evaluated by spvi at load time", k->id, name);
    return ld_errf(c, r->at, "OpSpecConstantOp %%%u: unknown opcode %u", k->id, op);
  }
  if (class_nops[cls] >= 0 && r->nwords - 4u != (uint32_t)class_nops[cls])
    return ld_errf(c, r->at, "OpSpecConstantOp %%%u (%s) has %u operands, expects %d", k->id, name, r->nwords - 4u,
                   class_nops[cls]);
  bool ok;
  switch (cls) {
  case C_IUN:
  case C_IBIN:
  case C_SHIFT:
  case C_ICMP:
  case C_LUN:
  case C_LBIN: ok = int_classes(&ev, (op_class)cls, op, type, k->bytes); break;
  case C_ICONV:
  case C_FCONV:
  case C_F2I:
  case C_I2F: ok = convert(&ev, (op_class)cls, op, type, k->bytes); break;
  case C_FUN:
  case C_FBIN: ok = float_ops(&ev, (op_class)cls, op, type, k->bytes); break;
  case C_SELECT: ok = select_op(&ev, type, k->bytes); break;
  case C_BITCAST: ok = bitcast(&ev, type, k->bytes); break;
  case C_SHUFFLE: ok = shuffle(&ev, type, k->bytes); break;
  default: ok = composite_op(&ev, (op_class)cls, type, k->bytes); break;
  }
  if (!ok) return false;
  if (ev.undefined) {
    uint32_t n = type->kind == LD_TY_VECTOR ? type->count : 1;
    k->is_undef = ev.undefined == n;
    ld_warnf(c, "word %u: OpSpecConstantOp %%%u (%s): %s: the value of %u of %u component(s) is undefined, spvi uses 0",
             r->at, k->id, name, ev.why, ev.undefined, n);
  }
  return true;
}
