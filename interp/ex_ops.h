/*
 * ex_ops.h — the list of executor handlers (an X-macro table).
 *
 * A handler is an (operation, element type) pair, so the dispatch loop never inspects a type.
 * EX_OP_LIST(X) expands X(NAME) once per handler; ex_op is the enum EX_<NAME>, and the executor's
 * computed-goto table is built from the same list, so the two can never disagree. Typed families
 * are written once with the type suffixes below.
 */
#ifndef EX_OPS_H
#define EX_OPS_H

/* integer families over I8 I16 I32 I64 */
#define EX_INT_TYPES(X, OP) X(OP##_I8) X(OP##_I16) X(OP##_I32) X(OP##_I64)
/* float families over F16 F32 F64 */
#define EX_FLT_TYPES(X, OP) X(OP##_F16) X(OP##_F32) X(OP##_F64)

#define EX_INT_BINARY(X, F) \
  F(X, IADD) F(X, ISUB) F(X, IMUL) F(X, UDIV) F(X, SDIV) F(X, UMOD) F(X, SREM) F(X, SMOD) \
  F(X, SHL) F(X, SHRL) F(X, SHRA) F(X, AND) F(X, OR) F(X, XOR)
#define EX_INT_UNARY(X, F) F(X, SNEG) F(X, NOT)
#define EX_INT_COMPARE(X, F) \
  F(X, IEQ) F(X, INE) F(X, UGT) F(X, SGT) F(X, UGE) F(X, SGE) F(X, ULT) F(X, SLT) F(X, ULE) F(X, SLE)
#define EX_FLT_BINARY(X, F) F(X, FADD) F(X, FSUB) F(X, FMUL) F(X, FDIV) F(X, FREM) F(X, FMOD)
#define EX_FLT_UNARY(X, F) F(X, FNEG)
#define EX_FLT_COMPARE(X, F) \
  F(X, FOEQ) F(X, FUEQ) F(X, FONE) F(X, FUNE) F(X, FOLT) F(X, FULT) F(X, FOGT) F(X, FUGT) \
  F(X, FOLE) F(X, FULE) F(X, FOGE) F(X, FUGE) F(X, ORD) F(X, UNORD)
#define EX_FLT_TEST(X, F) F(X, ISNAN) F(X, ISINF) F(X, ISFINITE) F(X, ISNORMAL) F(X, SIGNBIT)
#define EX_FLT_VEC(X, F) F(X, VTIMESS) F(X, DOT)

#define EX_OP_LIST(X) \
  EX_INT_BINARY(X, EX_INT_TYPES) EX_INT_UNARY(X, EX_INT_TYPES) EX_INT_COMPARE(X, EX_INT_TYPES) \
  EX_FLT_BINARY(X, EX_FLT_TYPES) EX_FLT_UNARY(X, EX_FLT_TYPES) EX_FLT_COMPARE(X, EX_FLT_TYPES) \
  EX_FLT_TEST(X, EX_FLT_TYPES) EX_FLT_VEC(X, EX_FLT_TYPES) \
  X(LAND) X(LOR) X(LNOT) X(LEQ) X(LNE) X(ANY) X(ALL) \
  X(SELECT_1) X(SELECT_2) X(SELECT_4) X(SELECT_8) \
  X(FMA_F32) X(FMA_F64) X(BITCOUNT) X(CARRY) X(CONVERT) X(MOVE) X(EXTRACT) X(INSERT) X(CONSTRUCT) X(VEXTRACT_DYN) X(VINSERT_DYN) X(SHUFFLE) \
  X(LOAD) X(LOAD_4) X(LOAD_8) X(STORE) X(STORE_4) X(STORE_8) X(ACCESS1_I32) X(ACCESS1_I64) \
  X(SEXT_I32_I64) X(ZEXT_I32_I64) X(TRUNC_I64_I32) X(COPYMEM) X(COPYMEM_SIZED) X(ACCESS) X(PTR2U) X(U2PTR) X(GEN2PTR) \
  X(PTREQ) X(PTRNE) X(PTRDIFF) \
  X(ATOMIC) X(GROUP) X(ASYNC_COPY) X(WAIT_EVENTS) X(BUILTIN) X(SUBGROUP) X(NBAR_INIT) X(NBAR_WAIT) X(IMAGE) \
  X(BR) X(BRC) X(SWITCH) X(RET) X(RETV) X(UNREACHABLE) X(CALL) X(BARRIER) X(EXTINST) X(NOP)

typedef enum ex_op {
#define EX_ENUM_(name) EX_##name,
  EX_OP_LIST(EX_ENUM_)
#undef EX_ENUM_
  EX_OP_COUNT
} ex_op;

#endif
