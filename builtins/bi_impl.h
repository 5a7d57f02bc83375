/*
 * bi_impl.h — private to builtins/: the row format of the OpenCL.std table, the signature classes,
 * the packed call literal, and the lane-loop macros that turn a scalar function into a bi_fn.
 *
 * The table is split by subject into row sets (bi_fp.c: floating-point math/common functions,
 * bi_int.c: integer functions, bi_vec.c: select/bitselect/shuffle, bi_mem.c: vector load/store and
 * prefetch); bi_table.c checks operand types against the row's signature class and picks the
 * implementation for the element type. Each row has one function per element type ("slot"); a NULL
 * slot means "not implemented for that type" and is reported at resolve time.
 */
#ifndef BI_IMPL_H
#define BI_IMPL_H

#include "bi.h"

#include <stddef.h>
#include <string.h>

/* Element-type slots of a row. Integer slots serve both signednesses (SPIR-V integers are
 * signless; the s_/u_ instruction says how to interpret them). */
enum { BI_T_I8, BI_T_I16, BI_T_I32, BI_T_I64, BI_T_F16, BI_T_F32, BI_T_F64, BI_NSLOTS };

/* Signature classes: how the result and operand types of an instruction relate (checked by
 * bi_table.c against the descriptors there; the rules follow the OpenCL.std grammar and the
 * SPIR-V OpenCL environment's operand constraints). The "key" type selects the slot. */
typedef enum bi_sig {
  BI_SIG_F1,
  BI_SIG_F2,
  BI_SIG_F3, /* float gentype in, same out (fabs; fmin; fma ...) */
  BI_SIG_I1,
  BI_SIG_I2,
  BI_SIG_I3,           /* integer gentype in, same out (clz; add_sat; mad_hi ...) */
  BI_SIG_UPSAMPLE,     /* (hi, lo) of w bits -> 2w bits; key: hi */
  BI_SIG_BITSELECT,    /* (a, b, c) int or float, all the result type */
  BI_SIG_SELECT,       /* (a, b, c): a, b the result type, c int of equal width/count */
  BI_SIG_SHUFFLE,      /* (x, mask): x m-vector, mask int n-vector -> n-vector */
  BI_SIG_SHUFFLE2,     /* (x, y, mask) */
  BI_SIG_VLOADN,       /* (offset, p) -> n-vector; literal n */
  BI_SIG_VSTOREN,      /* (data, offset, p) -> void; key: data */
  BI_SIG_VLOAD_HALF,   /* (offset, p half*) -> float scalar */
  BI_SIG_VLOAD_HALFN,  /* (offset, p half*) -> float n-vector; literal n */
  BI_SIG_VSTORE_HALF,  /* (data float scalar, offset, p half*) -> void */
  BI_SIG_VSTORE_HALFN, /* (data float n-vector, offset, p half*) -> void */
  BI_SIG_PREFETCH,     /* (p, num elements) -> void; one implementation (slot 0) */
  BI_SIG_F_INTN,       /* (x float gentype, n int32 of x's count) -> x's type (pown) */
  BI_SIG_INTN_F,       /* (x float gentype) -> int32 of x's count (ilogb); key: x */
  BI_SIG_F_PTRF,       /* (x, p pointer to x's type) -> x's type (sincos) */
  BI_SIG_F_PTRINTN,    /* (x, p pointer to int32 of x's count) -> x's type (lgamma_r) */
  BI_SIG_REMQUO,       /* (x, y, p pointer to int32 of x's count) -> x's type */
  BI_SIG_NAN,          /* (nancode int of the result's width and count) -> float */
  BI_SIG_GEOM_LEN,     /* (p float, 1-4 components) -> p's element (length); key: p */
  BI_SIG_GEOM_DIST,    /* (p0, p1 float, 1-4 components) -> p0's element; key: p0 */
  BI_SIG_GEOM_NORM,    /* (p float, 1-4 components) -> p's type (normalize) */
  BI_SIG_CROSS,        /* (p0, p1 float, 3 or 4 components) -> the same type */
  BI_SIG_PRINTF,       /* (format pointer, up to 5 arguments of any type) -> int32 */
  BI_SIG_COUNT
} bi_sig;

/* Row flags. */
#define BI_F_LIT_N 1u  /* the instruction's literal is n; it must equal the key's component count */
#define BI_F_ROUND 2u  /* the instruction's literal is an FPRoundingMode (0..3) */
#define BI_F_ALIGN3 4u /* vloada_half3 / vstorea_half3: a 3-vector takes 4 elements (stride 4) */

typedef struct bi_row {
  uint16_t op;         /* OCLSTD_* */
  uint8_t sig;         /* bi_sig */
  uint8_t flags;       /* BI_F_* */
  bi_fn fn[BI_NSLOTS]; /* per element type; NULL = not implemented */
} bi_row;

typedef struct bi_rowset {
  const bi_row *rows;
  unsigned n;
} bi_rowset;

extern const bi_rowset bi_rows_fp, bi_rows_int, bi_rows_vec, bi_rows_mem;
/* bi_exact.c (fmod ... nan), bi_common.c (mix, smoothstep, degrees, radians), bi_geom.c, bi_printf.c */
extern const bi_rowset bi_rows_exact, bi_rows_common, bi_rows_geom, bi_rows_printf;
/* printf's call literal: the argument types (bi_printf.c; replaces bi_lit_pack for BI_SIG_PRINTF). */
uint32_t bi_printf_literal(const bi_type *args, unsigned nargs);
extern const bi_rowset bi_rows_math; /* bi_math.c: correctly rounded transcendental functions */

/* bi_call.literal as packed by bi_resolve (bi.h: the executor copies bi_resolved.literal into
 * bi_call.literal unchanged, so its encoding is private to the builtins):
 *   bits  0-4   n: components of the key type (1..16)
 *   bits  5-9   m: components of operand 0 (the source width of shuffle/shuffle2)
 *   bits 10-11  FPRoundingMode (vstore_half*_r; 0 = RTE otherwise)
 *   bit  12     the pointer operand is 64-bit (else 32-bit)
 *   bit  13     the offset operand is 64-bit (else 32-bit)
 *   bits 14-15  log2 of the key's element size in bytes
 *   bits 16-20  stride: elements between consecutive offsets (n; 4 for vloada_half3/vstorea_half3) */
static inline uint32_t bi_lit_pack(unsigned n, unsigned m, unsigned round, unsigned ptr64, unsigned off64,
                                   unsigned lg_esize, unsigned stride) {
  return (n & 31u) | (m & 31u) << 5 | (round & 3u) << 10 | (ptr64 & 1u) << 12 | (off64 & 1u) << 13 |
         (lg_esize & 3u) << 14 | (stride & 31u) << 16;
}
static inline unsigned bi_lit_n(uint32_t l) { return l & 31u; }
static inline unsigned bi_lit_m(uint32_t l) { return (l >> 5) & 31u; }
static inline unsigned bi_lit_round(uint32_t l) { return (l >> 10) & 3u; }
static inline unsigned bi_lit_ptr64(uint32_t l) { return (l >> 12) & 1u; }
static inline unsigned bi_lit_off64(uint32_t l) { return (l >> 13) & 1u; }
static inline unsigned bi_lit_esize(uint32_t l) { return 1u << ((l >> 14) & 3u); }
static inline unsigned bi_lit_stride(uint32_t l) { return (l >> 16) & 31u; }

/* Lane-major register access: lane l's copy of operand i is at src[i] + l * src_stride[i]. */
static inline const uint8_t *bi_src(const bi_call *c, unsigned i, size_t lane) {
  return c->src[i] + lane * c->src_stride[i];
}
static inline uint8_t *bi_dst(const bi_call *c, size_t lane) { return c->dst + lane * c->dst_stride; }

/* An unsigned integer element of `bytes` bytes (1, 2, 4, 8), zero-extended; registers carry no
 * alignment guarantee, hence memcpy. */
static inline uint64_t bi_load_uint(const uint8_t *p, unsigned bytes) {
  switch (bytes) {
  case 1: return *p;
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
static inline void bi_store_uint(uint8_t *p, unsigned bytes, uint64_t v) {
  switch (bytes) {
  case 1: *p = (uint8_t)v; break;
  case 2: {
    uint16_t w = (uint16_t)v;
    memcpy(p, &w, 2);
    break;
  }
  case 4: {
    uint32_t w = (uint32_t)v;
    memcpy(p, &w, 4);
    break;
  }
  default: memcpy(p, &v, 8); break;
  }
}

/*
 * Elementwise lane loops. These macros exist because every elementwise builtin has the same body —
 * for each active lane, for each of the n components, load the operands, apply a scalar function,
 * store the result — and only the element types and the scalar function differ. BI_EWk(NAME, TR,
 * TA, F) defines `static bool NAME(const bi_call *)` applying `TR F(TA, ...)` (k operands, all of
 * C type TA; half elements are handled as uint16_t bit patterns). Scalar functions are static inline,
 * so each expansion is a specialised loop with no per-element dispatch.
 */
#define BI_EW_HEAD                              \
  const unsigned n_ = bi_lit_n(c->literal);     \
  for (uint32_t i_ = 0; i_ < c->nlanes; i_++) { \
    const size_t l_ = c->lanes[i_];             \
    uint8_t *d_ = bi_dst(c, l_);

#define BI_EW1(NAME, TR, TA, F)                      \
  static bool NAME(const bi_call *c) {               \
    BI_EW_HEAD                                       \
    const uint8_t *a_ = bi_src(c, 0, l_);            \
    for (unsigned k_ = 0; k_ < n_; k_++) {           \
      TA x_;                                         \
      memcpy(&x_, a_ + k_ * sizeof(TA), sizeof(TA)); \
      const TR r_ = (TR)F(x_);                       \
      memcpy(d_ + k_ * sizeof(TR), &r_, sizeof(TR)); \
    }                                                \
  }                                                  \
  return true;                                       \
  }

#define BI_EW2(NAME, TR, TA, F)                                   \
  static bool NAME(const bi_call *c) {                            \
    BI_EW_HEAD                                                    \
    const uint8_t *a_ = bi_src(c, 0, l_), *b_ = bi_src(c, 1, l_); \
    for (unsigned k_ = 0; k_ < n_; k_++) {                        \
      TA x_, y_;                                                  \
      memcpy(&x_, a_ + k_ * sizeof(TA), sizeof(TA));              \
      memcpy(&y_, b_ + k_ * sizeof(TA), sizeof(TA));              \
      const TR r_ = (TR)F(x_, y_);                                \
      memcpy(d_ + k_ * sizeof(TR), &r_, sizeof(TR));              \
    }                                                             \
  }                                                               \
  return true;                                                    \
  }

#define BI_EW3(NAME, TR, TA, F)                                                           \
  static bool NAME(const bi_call *c) {                                                    \
    BI_EW_HEAD                                                                            \
    const uint8_t *a_ = bi_src(c, 0, l_), *b_ = bi_src(c, 1, l_), *e_ = bi_src(c, 2, l_); \
    for (unsigned k_ = 0; k_ < n_; k_++) {                                                \
      TA x_, y_, z_;                                                                      \
      memcpy(&x_, a_ + k_ * sizeof(TA), sizeof(TA));                                      \
      memcpy(&y_, b_ + k_ * sizeof(TA), sizeof(TA));                                      \
      memcpy(&z_, e_ + k_ * sizeof(TA), sizeof(TA));                                      \
      const TR r_ = (TR)F(x_, y_, z_);                                                    \
      memcpy(d_ + k_ * sizeof(TR), &r_, sizeof(TR));                                      \
    }                                                                                     \
  }                                                                                       \
  return true;                                                                            \
  }

/* Slot initialisers for a row: BI_SLOTS_F(p) = p_h / p_f / p_d for half/float/double,
 * BI_SLOTS_I(p) = p_8 ... p_64 for the integer widths, BI_SLOTS_W(p) = the width-only
 * implementations p_8 ... p_64 for every element type of that width (bit-pattern operations). */
#define BI_SLOTS_F(p) \
  { [BI_T_F16] = p##_h, [BI_T_F32] = p##_f, [BI_T_F64] = p##_d }
#define BI_SLOTS_I(p) \
  { [BI_T_I8] = p##_8, [BI_T_I16] = p##_16, [BI_T_I32] = p##_32, [BI_T_I64] = p##_64 }
#define BI_SLOTS_W(p)                                                                                      \
  {                                                                                                        \
    [BI_T_I8] = p##_8, [BI_T_I16] = p##_16, [BI_T_I32] = p##_32, [BI_T_I64] = p##_64, [BI_T_F16] = p##_16, \
    [BI_T_F32] = p##_32, [BI_T_F64] = p##_64                                                               \
  }

#endif
