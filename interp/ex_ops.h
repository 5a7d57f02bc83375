/*
 * ex_ops.h — the prepared instructions: one table, the single source of truth for them.
 *
 * A handler is an (operation, element type) pair, so the dispatch loop never inspects a type. Every
 * row of EX_OP_TABLE describes handlers on one line, as Lua's lopcodes.h does: the name (ex_op is
 * EX_<NAME>), its type variant, the SPIR-V instruction it comes from, its operand shape (what the
 * fields of ex_insn mean for it, see "Shapes") and its semantics. Generated from it: the ex_op enum
 * and EX_OP_LIST (the executor's computed-goto tables, ex_exec.c), the opcode -> handler lookup of
 * the translation (ex_op_select), and the names and shapes of ex_op_infos (spvi info --prepared,
 * ex_dump.c). A new handler is one row here, its label in ex_exec.c and its translation.
 *
 * Rows. EX_ROW_INT and EX_ROW_FLT write a typed family once: one handler per variant, I8 I16 I32
 * I64 or F16 F32 F64, named NAME_I32 and so on. The rows of EX_OPS_SELECTED carry the SpvOp that
 * selects them: the translation looks the handler up by (opcode, variant of the first operand's
 * element type); the rows of EX_OPS_CHOSEN are chosen by their translation's own logic (by sizes,
 * by an OpenCL.std instruction ...), and say from which instructions in words.
 *
 * Shapes. Six characters, for the fields d a b c n flags of ex_insn in that order:
 *   d  the result register (a per-lane register offset, ex.h "Registers"); LD_NONE: no result
 *   r  an operand register; LD_NONE: the operand is absent
 *   x  an index into ex_func.aux, where a list the semantics describe starts
 *   l  a block index (ex_func.blocks)           f  a function index (ex_program.funcs)
 *   n  a count of components                    z  a size in bytes
 *   k  another immediate: a kind, an enum value or packed fields, which the semantics name
 *   -  unused (0)
 * Elementwise handlers work on n components per lane; a bool is one byte, 0 or 1.
 */
#ifndef EX_OPS_H
#define EX_OPS_H

/* clang-format off */
#include <stdint.h>

/* Type variants of handlers: which element type a typed handler works on. */
typedef enum ex_variant {
  EX_T_NONE, EX_T_I8, EX_T_I16, EX_T_I32, EX_T_I64, EX_T_F16, EX_T_F32, EX_T_F64, EX_T_COUNT
} ex_variant;

/* What a handler gives the hook clients that see memory (EX_HK_MEMORY, ex_hooks.h): ex_hooks_step
 * decodes the instruction into the event of its class, from the fields its shape names. */
typedef enum ex_hk_class {
  EX_HC_NONE,     /* no event: the instruction touches no memory */
  EX_HC_LOAD,     /* an access: c bytes loaded from pointer a into d */
  EX_HC_STORE,    /* an access: c bytes of b stored to pointer a */
  EX_HC_ATOMIC,   /* an access: an atomic operation on pointer a, value b, comparator c, result d */
  EX_HC_COPY,     /* an access: a copy from pointer b to pointer a, of c bytes or of register c's */
  EX_HC_CALL,     /* a by-value access per aggregate argument of callee a (args at aux[b+1..]) */
  EX_HC_BUILTIN,  /* the builtin event (its accesses come from the builtin as it runs) */
  EX_HC_SUBGROUP, /* a sub-group barrier event, when the operation is one */
  EX_HC_COUNT
} ex_hk_class;

/* Row forms. M(U, HANDLER, FAMILY, VARIANT, SPVOP, FROM, SHAPE, HOOK, SEMANTICS) is called once per
 * handler; U is passed through (X-macro user data). */
#define EX_ROW_INT(M, U, F, SPV, SH, SEM)                                                          \
  M(U, F##_I8, F, EX_T_I8, SPV, #SPV, SH, EX_HC_NONE, SEM)                                         \
  M(U, F##_I16, F, EX_T_I16, SPV, #SPV, SH, EX_HC_NONE, SEM)                                       \
  M(U, F##_I32, F, EX_T_I32, SPV, #SPV, SH, EX_HC_NONE, SEM)                                       \
  M(U, F##_I64, F, EX_T_I64, SPV, #SPV, SH, EX_HC_NONE, SEM)
#define EX_ROW_FLT(M, U, F, SPV, SH, SEM)                                                          \
  M(U, F##_F16, F, EX_T_F16, SPV, #SPV, SH, EX_HC_NONE, SEM)                                       \
  M(U, F##_F32, F, EX_T_F32, SPV, #SPV, SH, EX_HC_NONE, SEM)                                       \
  M(U, F##_F64, F, EX_T_F64, SPV, #SPV, SH, EX_HC_NONE, SEM)
#define EX_ROW_ONE(M, U, F, SPV, SH, SEM) M(U, F, F, EX_T_NONE, SPV, #SPV, SH, EX_HC_NONE, SEM)
/* A chosen handler: FROM in words, SpvOp 0; EX_ROW_VAR gives it a family and a variant, EX_ROW_HK
 * the event it gives the hook clients (ex_hk_class). */
#define EX_ROW(M, U, F, FROM, SH, SEM) M(U, F, F, EX_T_NONE, 0, FROM, SH, EX_HC_NONE, SEM)
#define EX_ROW_VAR(M, U, H, F, VAR, FROM, SH, SEM) M(U, H, F, VAR, 0, FROM, SH, EX_HC_NONE, SEM)
#define EX_ROW_HK(M, U, F, FROM, SH, HK, SEM) M(U, F, F, EX_T_NONE, 0, FROM, SH, HK, SEM)
/* A chosen family of integer handlers, one per width (I8 .. I64), FROM in words. */
#define EX_ROW_INT_CHOSEN(M, U, F, FROM, SH, SEM)                                                  \
  M(U, F##_I8, F, EX_T_I8, 0, FROM, SH, EX_HC_NONE, SEM)                                           \
  M(U, F##_I16, F, EX_T_I16, 0, FROM, SH, EX_HC_NONE, SEM)                                         \
  M(U, F##_I32, F, EX_T_I32, 0, FROM, SH, EX_HC_NONE, SEM)                                         \
  M(U, F##_I64, F, EX_T_I64, 0, FROM, SH, EX_HC_NONE, SEM)

/* Handlers the translation looks up by SPIR-V opcode and the variant of the first operand's element
 * type (ex_op_select); b is an operand register exactly for the two-operand ones. */
#define EX_OPS_SELECTED(M, U)                                                                      \
  /* integer arithmetic (SPIR-V 3.32.13), modulo 2^bits; by zero and INT_MIN / -1: ex_exec.c DEF_DIV, reported */ \
  EX_ROW_INT(M, U, IADD, SpvOpIAdd, "drr-n-", "d = a + b")                                        \
  EX_ROW_INT(M, U, ISUB, SpvOpISub, "drr-n-", "d = a - b")                                        \
  EX_ROW_INT(M, U, IMUL, SpvOpIMul, "drr-n-", "d = a * b")                                        \
  EX_ROW_INT(M, U, UDIV, SpvOpUDiv, "drr-n-", "d = a / b, unsigned")                              \
  EX_ROW_INT(M, U, SDIV, SpvOpSDiv, "drr-n-", "d = a / b, signed, rounded toward zero")           \
  EX_ROW_INT(M, U, UMOD, SpvOpUMod, "drr-n-", "d = a % b, unsigned")                              \
  EX_ROW_INT(M, U, SREM, SpvOpSRem, "drr-n-", "d = a rem b, signed: the sign of a")               \
  EX_ROW_INT(M, U, SMOD, SpvOpSMod, "drr-n-", "d = a mod b, signed: the sign of b")               \
  /* bits 3.32.14: the count is taken modulo the width (ex_prepare converts it to a's width) */    \
  EX_ROW_INT(M, U, SHL, SpvOpShiftLeftLogical, "drr-n-", "d = a << b")                            \
  EX_ROW_INT(M, U, SHRL, SpvOpShiftRightLogical, "drr-n-", "d = a >> b, zeros shifted in")        \
  EX_ROW_INT(M, U, SHRA, SpvOpShiftRightArithmetic, "drr-n-", "d = a >> b, sign bits shifted in") \
  EX_ROW_INT(M, U, AND, SpvOpBitwiseAnd, "drr-n-", "d = a & b")                                   \
  EX_ROW_INT(M, U, OR, SpvOpBitwiseOr, "drr-n-", "d = a | b")                                     \
  EX_ROW_INT(M, U, XOR, SpvOpBitwiseXor, "drr-n-", "d = a ^ b")                                   \
  EX_ROW_INT(M, U, SNEG, SpvOpSNegate, "dr--n-", "d = -a")                                        \
  EX_ROW_INT(M, U, NOT, SpvOpNot, "dr--n-", "d = ~a")                                             \
  /* integer comparisons (3.32.15): d is n bools */                                                \
  EX_ROW_INT(M, U, IEQ, SpvOpIEqual, "drr-n-", "d = a == b")                                      \
  EX_ROW_INT(M, U, INE, SpvOpINotEqual, "drr-n-", "d = a != b")                                   \
  EX_ROW_INT(M, U, UGT, SpvOpUGreaterThan, "drr-n-", "d = a > b, unsigned")                       \
  EX_ROW_INT(M, U, SGT, SpvOpSGreaterThan, "drr-n-", "d = a > b, signed")                         \
  EX_ROW_INT(M, U, UGE, SpvOpUGreaterThanEqual, "drr-n-", "d = a >= b, unsigned")                 \
  EX_ROW_INT(M, U, SGE, SpvOpSGreaterThanEqual, "drr-n-", "d = a >= b, signed")                   \
  EX_ROW_INT(M, U, ULT, SpvOpULessThan, "drr-n-", "d = a < b, unsigned")                          \
  EX_ROW_INT(M, U, SLT, SpvOpSLessThan, "drr-n-", "d = a < b, signed")                            \
  EX_ROW_INT(M, U, ULE, SpvOpULessThanEqual, "drr-n-", "d = a <= b, unsigned")                    \
  EX_ROW_INT(M, U, SLE, SpvOpSLessThanEqual, "drr-n-", "d = a <= b, signed")                      \
  /* float arithmetic, rounded to nearest in the type (F16 computes in float and rounds once) */   \
  EX_ROW_FLT(M, U, FADD, SpvOpFAdd, "drr-n-", "d = a + b")                                        \
  EX_ROW_FLT(M, U, FSUB, SpvOpFSub, "drr-n-", "d = a - b")                                        \
  EX_ROW_FLT(M, U, FMUL, SpvOpFMul, "drr-n-", "d = a * b")                                        \
  EX_ROW_FLT(M, U, FDIV, SpvOpFDiv, "drr-n-", "d = a / b")                                        \
  EX_ROW_FLT(M, U, FREM, SpvOpFRem, "drr-n-", "d = fmod(a, b): the sign of a")                    \
  EX_ROW_FLT(M, U, FMOD, SpvOpFMod, "drr-n-", "d = a mod b: the sign of b")                       \
  EX_ROW_FLT(M, U, FNEG, SpvOpFNegate, "dr--n-", "d = -a")                                        \
  /* float comparisons (3.32.15): ordered ones are false, unordered ones true, when a or b is NaN */ \
  EX_ROW_FLT(M, U, FOEQ, SpvOpFOrdEqual, "drr-n-", "d = a == b, ordered")                         \
  EX_ROW_FLT(M, U, FUEQ, SpvOpFUnordEqual, "drr-n-", "d = a == b, unordered")                     \
  EX_ROW_FLT(M, U, FONE, SpvOpFOrdNotEqual, "drr-n-", "d = a != b, ordered (also OpLessOrGreater)") \
  EX_ROW_FLT(M, U, FUNE, SpvOpFUnordNotEqual, "drr-n-", "d = a != b, unordered")                  \
  EX_ROW_FLT(M, U, FOLT, SpvOpFOrdLessThan, "drr-n-", "d = a < b, ordered")                       \
  EX_ROW_FLT(M, U, FULT, SpvOpFUnordLessThan, "drr-n-", "d = a < b, unordered")                   \
  EX_ROW_FLT(M, U, FOGT, SpvOpFOrdGreaterThan, "drr-n-", "d = a > b, ordered")                    \
  EX_ROW_FLT(M, U, FUGT, SpvOpFUnordGreaterThan, "drr-n-", "d = a > b, unordered")                \
  EX_ROW_FLT(M, U, FOLE, SpvOpFOrdLessThanEqual, "drr-n-", "d = a <= b, ordered")                 \
  EX_ROW_FLT(M, U, FULE, SpvOpFUnordLessThanEqual, "drr-n-", "d = a <= b, unordered")             \
  EX_ROW_FLT(M, U, FOGE, SpvOpFOrdGreaterThanEqual, "drr-n-", "d = a >= b, ordered")              \
  EX_ROW_FLT(M, U, FUGE, SpvOpFUnordGreaterThanEqual, "drr-n-", "d = a >= b, unordered")          \
  EX_ROW_FLT(M, U, ORD, SpvOpOrdered, "drr-n-", "d = neither a nor b is NaN")                     \
  EX_ROW_FLT(M, U, UNORD, SpvOpUnordered, "drr-n-", "d = a or b is NaN")                          \
  EX_ROW_FLT(M, U, ISNAN, SpvOpIsNan, "dr--n-", "d = a is NaN")                                   \
  EX_ROW_FLT(M, U, ISINF, SpvOpIsInf, "dr--n-", "d = a is an infinity")                           \
  EX_ROW_FLT(M, U, ISFINITE, SpvOpIsFinite, "dr--n-", "d = a is finite")                          \
  EX_ROW_FLT(M, U, ISNORMAL, SpvOpIsNormal, "dr--n-", "d = a is normal")                          \
  EX_ROW_FLT(M, U, SIGNBIT, SpvOpSignBitSet, "dr--n-", "d = a's sign bit")                        \
  EX_ROW_FLT(M, U, VTIMESS, SpvOpVectorTimesScalar, "drr-n-", "d[i] = a[i] * b (b one scalar)")   \
  EX_ROW_FLT(M, U, DOT, SpvOpDot, "drr-n-", "d = a[0]*b[0] + ... + a[n-1]*b[n-1], rounded per step") \
  /* logical (3.32.15): bools */                                                                   \
  EX_ROW_ONE(M, U, LAND, SpvOpLogicalAnd, "drr-n-", "d = a && b")                                 \
  EX_ROW_ONE(M, U, LOR, SpvOpLogicalOr, "drr-n-", "d = a || b")                                   \
  EX_ROW_ONE(M, U, LNOT, SpvOpLogicalNot, "dr--n-", "d = !a")                                     \
  EX_ROW_ONE(M, U, LEQ, SpvOpLogicalEqual, "drr-n-", "d = a == b")                                \
  EX_ROW_ONE(M, U, LNE, SpvOpLogicalNotEqual, "drr-n-", "d = a != b")                             \
  EX_ROW_ONE(M, U, ANY, SpvOpAny, "dr--n-", "d = one of a's n components is true (d one bool)")   \
  EX_ROW_ONE(M, U, ALL, SpvOpAll, "dr--n-", "d = all of a's n components are true (d one bool)")

/* Opcodes that select the handlers of another row's opcode: (alias, opcode). */
#define EX_OPS_ALIASES(A, U) A(U, SpvOpLessOrGreater, SpvOpFOrdNotEqual) /* SPIR-V 3.32.15: deprecated FOrdNotEqual */

/* Handlers chosen by the translation's own logic. */
#define EX_OPS_CHOSEN(M, U)                                                                        \
  /* data movement and conversion */                                                               \
  EX_ROW_VAR(M, U, SELECT_1, SELECT, EX_T_NONE, "OpSelect of 1-byte elements or of an aggregate", \
             "drrrnk", "d = a ? b : c per element; n elements (an aggregate: bytes); flags 1: a is one scalar") \
  EX_ROW_VAR(M, U, SELECT_2, SELECT, EX_T_NONE, "OpSelect of 2-byte elements", "drrrnk", "as SELECT_1") \
  EX_ROW_VAR(M, U, SELECT_4, SELECT, EX_T_NONE, "OpSelect of 4-byte elements", "drrrnk", "as SELECT_1") \
  EX_ROW_VAR(M, U, SELECT_8, SELECT, EX_T_NONE, "OpSelect of 8-byte elements", "drrrnk", "as SELECT_1") \
  EX_ROW_VAR(M, U, FMA_F32, FMA, EX_T_F32, "OpenCL.std fma, mad", "drrrn-", "d = a * b + c, rounded once") \
  EX_ROW_VAR(M, U, FMA_F64, FMA, EX_T_F64, "OpenCL.std fma, mad", "drrrn-", "d = a * b + c, rounded once") \
  /* OpenCL.std integer max, min and clamp (clamp-to-edge indexing calls them per tap), operands of the \
   * result's type; their builtins (builtins/bi_int.c) define the same values */                 \
  EX_ROW_INT_CHOSEN(M, U, SMAX, "OpenCL.std s_max", "drr-n-", "d = a < b ? b : a, signed")        \
  EX_ROW_INT_CHOSEN(M, U, UMAX, "OpenCL.std u_max", "drr-n-", "d = a < b ? b : a")                \
  EX_ROW_INT_CHOSEN(M, U, SMIN, "OpenCL.std s_min", "drr-n-", "d = b < a ? b : a, signed")        \
  EX_ROW_INT_CHOSEN(M, U, UMIN, "OpenCL.std u_min", "drr-n-", "d = b < a ? b : a")                \
  EX_ROW_INT_CHOSEN(M, U, SCLAMP, "OpenCL.std s_clamp", "drrrn-",                                 \
                    "d = min(max(a, b), c), signed (as written also when b > c)")                  \
  EX_ROW_INT_CHOSEN(M, U, UCLAMP, "OpenCL.std u_clamp", "drrrn-", "d = min(max(a, b), c)")         \
  EX_ROW(M, U, BITCOUNT, "OpBitCount", "dr-znz", "d = ones in a; flags: bytes of a component of a, c: of d") \
  EX_ROW(M, U, CARRY, "OpIAddCarry OpISubBorrow OpUMulExtended OpSMulExtended", "drrknk",            \
         "d = struct {low, high} of a op b; flags: op 0..3 in that order; "                       \
         "c = component bytes | offset of high << 8 | bytes of d << 16")                            \
  EX_ROW(M, U, CONVERT, "OpConvert*, OpUConvert, OpSConvert, OpFConvert, OpSatConvert*", "drkknk",   \
         "d = a converted; b, c: kind of a, d (EX_CK_*) << 8 | bits; flags: EX_CF_SAT, rounding mode + 1 << 1") \
  EX_ROW(M, U, MOVE, "OpBitcast OpCopyObject OpCopyLogical OpPtrCastToGeneric OpGenericCastToPtr OpExpectKHR", "dr-z--", \
         "d = a, c bytes")                                                                         \
  EX_ROW(M, U, EXTRACT, "OpCompositeExtract OpImage", "drxz--",                                    \
         "d = c bytes of a at offset aux[b]; a's register has aux[b+1] bytes")                     \
  EX_ROW(M, U, INSERT, "OpCompositeInsert", "drrx--",                                              \
         "d = b with a (aux[c+1] bytes) at offset aux[c]; d has aux[c+2] bytes")                    \
  EX_ROW(M, U, CONSTRUCT, "OpCompositeConstruct OpSampledImage", "dx-z--",                         \
         "d (c bytes) = aux[a] parts aux[a+1..]: register, bytes, offset (LD_NONE: after the previous)") \
  EX_ROW(M, U, VEXTRACT_DYN, "OpVectorExtractDynamic", "drrkn-",                                   \
         "d = a[b] of n components, 0 out of range; c = component bytes | bytes of b << 8")        \
  EX_ROW(M, U, VINSERT_DYN, "OpVectorInsertDynamic", "drrxn-",                                     \
         "d = a with component [aux[c]] = b (none out of range); aux[c+1] component bytes, aux[c+2] index bytes") \
  EX_ROW(M, U, SHUFFLE, "OpVectorShuffle", "drrxn-",                                               \
         "d[i] = (a ++ b)[aux[c+3+i]] (0xFFFFFFFF: 0); aux[c] component bytes, aux[c+1..2] components of a, b") \
  /* memory: pointers are (allocation id, offset), every access bounds-checked (ex.h "Pointers") */ \
  EX_ROW_HK(M, U, LOAD, "OpLoad of other sizes", "dr-z-k", EX_HC_LOAD,                                           \
         "d = c bytes at pointer a; flags: log2 of the alignment required")                         \
  EX_ROW_HK(M, U, LOAD_4, "OpLoad of 4 bytes", "dr-z-k", EX_HC_LOAD, "as LOAD")                                   \
  EX_ROW_HK(M, U, LOAD_8, "OpLoad of 8 bytes", "dr-z-k", EX_HC_LOAD, "as LOAD")                                   \
  EX_ROW_HK(M, U, STORE, "OpStore of other sizes, OpVariable's initializer", "-rrz-k", EX_HC_STORE,                \
         "c bytes of b to pointer a; flags: log2 of the alignment required")                       \
  EX_ROW_HK(M, U, STORE_4, "OpStore of 4 bytes", "-rrz-k", EX_HC_STORE, "as STORE")                                \
  EX_ROW_HK(M, U, STORE_8, "OpStore of 8 bytes", "-rrz-k", EX_HC_STORE, "as STORE")                                \
  EX_ROW_VAR(M, U, ACCESS1_I32, ACCESS1, EX_T_I32, "Op*AccessChain with one 32-bit index", "drrz-k", \
             "d = a + b * c (b signed); flags: log2 c when c is a power of two, else 0xFF")        \
  EX_ROW_VAR(M, U, ACCESS1_I64, ACCESS1, EX_T_I64, "Op*AccessChain with one 64-bit index", "drrz-k", "as ACCESS1_I32") \
  EX_ROW(M, U, SEXT_I32_I64, "OpSConvert of 32 to 64 bits", "dr--n-", "d = a sign-extended")       \
  EX_ROW(M, U, ZEXT_I32_I64, "OpUConvert of 32 to 64 bits", "dr--n-", "d = a zero-extended")       \
  EX_ROW(M, U, TRUNC_I64_I32, "OpUConvert OpSConvert of 64 to 32 bits", "dr--n-", "d = a's low 32 bits") \
  EX_ROW_HK(M, U, COPYMEM, "OpCopyMemory", "-rrz--", EX_HC_COPY, "copy c bytes from pointer b to pointer a")      \
  EX_ROW_HK(M, U, COPYMEM_SIZED, "OpCopyMemorySized", "-rrr-z", EX_HC_COPY,                                       \
         "copy c bytes from pointer b to pointer a; flags: bytes of c")                            \
  EX_ROW(M, U, ACCESS, "Op*AccessChain", "drx---",                                                 \
         "d = a + aux[b] | aux[b+1] << 32 + sum of the aux[b+2] terms (register, bytes, stride) from aux[b+3]") \
  EX_ROW(M, U, ACCESS_CHECK, "Op*AccessChain with an array step to check", "drx---",              \
         "as ACCESS, then aux[b+3+3*terms] index checks, 4 words each: index register, its bytes, "  \
         "array length, position in the chain: fault when the index is outside [0, length)")              \
  EX_ROW(M, U, PTR2U, "OpConvertPtrToU", "dr--z-", "d (n bytes) = pointer a as an integer")        \
  EX_ROW(M, U, U2PTR, "OpConvertUToPtr", "dr--z-", "d = integer a (n bytes) as a pointer")         \
  EX_ROW(M, U, GEN2PTR, "OpGenericCastToPtrExplicit", "drk---",                                    \
         "d = a when it points into address space b (EX_AS_*), else null")                         \
  EX_ROW(M, U, GENSEM, "OpGenericPtrMemSemantics", "dr----",                                     \
         "d (4 bytes) = the memory-semantics bit of pointer a's storage class: 0x200 global, "     \
         "0x100 local, 0 private or null")                                                          \
  EX_ROW(M, U, PTREQ, "OpPtrEqual", "drr---", "d = a == b")                                        \
  EX_ROW(M, U, PTRNE, "OpPtrNotEqual", "drr---", "d = a != b")                                     \
  EX_ROW(M, U, PTRDIFF, "OpPtrDiff", "drrzz-", "d (n bytes) = (a - b) / c")                        \
  EX_ROW_HK(M, U, ATOMIC, "OpAtomic*", "drrrkk", EX_HC_ATOMIC,                                                      \
         "d = old value at pointer a (LD_NONE: unused), op flags (EX_AT_*) with value b and "     \
         "comparator c; n: float bit 0 | bytes << 1")                                               \
  /* work-group and sub-group operations, built-ins, images */                                     \
  EX_ROW(M, U, GROUP, "OpGroup* at Workgroup scope", "drxkkk",                                     \
         "d = collective flags (EX_GR_*) of a, n: reduce/inclusive/exclusive; c = kind << 8 | "   \
         "bytes; aux[b] = local id register, its bytes | components << 8")                          \
  EX_ROW(M, U, ASYNC_COPY, "OpGroupAsyncCopy", "drxz-k",                                           \
         "d = event of copying to a from aux[b] (count, stride, event, their bytes, data bytes "   \
         "follow); c = element bytes; flags: EX_ASYNC_STRIDE_DST")                                  \
  EX_ROW(M, U, WAIT_EVENTS, "OpGroupWaitEvents", "-rrzz-",                                        \
         "wait for the a (n bytes) events at b; c = bytes of an event")                             \
  EX_ROW(M, U, BUILTIN, "OpLoad of a whole built-in variable", "dk-zn-",                           \
         "d = built-in variable a (SpvBuiltIn): n components of c bytes")                          \
  EX_ROW_HK(M, U, SUBGROUP, "OpGroupNonUniform*, OpGroup* and OpControlBarrier at Subgroup scope, OpSubgroup*INTEL", \
         "drxkkk", EX_HC_SUBGROUP,                                                                                 \
         "d = op flags (EX_SG_*) on a; aux[b] = second, third register or cluster size, bytes of " \
         "the second; n, c: ex_internal.h EX_SUBGROUP")                                             \
  EX_ROW(M, U, NBAR_INIT, "OpNamedBarrierInitialize", "drkz--",                                    \
         "d = handle of named barrier b (b + 1) for a sub-groups (c bytes)")                       \
  EX_ROW(M, U, NBAR_WAIT, "OpMemoryNamedBarrier", "-r----", "wait at named barrier a")             \
  EX_ROW(M, U, IMAGE, "OpImageRead OpImageWrite OpImageSampleExplicitLod OpImageQuery*", "drrx-k", \
         "image operation flags (EX_IMG_*) on image a at coordinate b; aux[c]: ex_image.c")         \
  /* control */                                                                                    \
  EX_ROW(M, U, BR, "OpBranch", "-lx---", "go to block a; aux[b]: the edge's phi moves")            \
  EX_ROW(M, U, BRC, "OpBranchConditional", "-rx---",                                               \
         "if a: block aux[b], moves aux[b+1]; else block aux[b+2], moves aux[b+3]")                 \
  EX_ROW(M, U, SWITCH, "OpSwitch", "-rx-z-",                                                       \
         "on a (n bytes): aux[b] cases, default block aux[b+1], moves aux[b+2], then (low, high, " \
         "block, moves) per case")                                                                  \
  EX_ROW(M, U, RET, "OpReturn", "------", "return")                                                \
  EX_ROW(M, U, RETV, "OpReturnValue", "-r-z--", "return a (c bytes)")                              \
  EX_ROW(M, U, UNREACHABLE, "OpUnreachable OpKill", "------", "fault: unreachable code was executed") \
  EX_ROW(M, U, ASSUME, "OpAssumeTrueKHR", "-r----", "fault: bool a is false in an active lane")     \
  EX_ROW_HK(M, U, CALL, "OpFunctionCall", "dfx---", EX_HC_CALL,                                                  \
         "d = function a called with the registers aux[b+1..] (LD_NONE: void)")                     \
  EX_ROW(M, U, BARRIER, "OpControlBarrier at Workgroup scope", "------", "wait for the work-group") \
  EX_ROW_HK(M, U, EXTINST, "OpExtInst OpenCL.std", "dx----", EX_HC_BUILTIN,                                          \
         "d = builtin: aux[a] = index in ex_program.bis, bytes of d, count N, N (register, bytes), " \
         "float mask, types index")                                                                 \
  EX_ROW(M, U, NOP, "(none)", "------", "nothing (the translation never emits it)")

#define EX_OP_TABLE(M, U) EX_OPS_SELECTED(M, U) EX_OPS_CHOSEN(M, U)

/* EX_OP_LIST(X) expands X(NAME) once per handler, in enum order (ex_exec.c's label tables). */
#define EX_OP_NAME_(X, H, ...) X(H)
#define EX_OP_LIST(X) EX_OP_TABLE(EX_OP_NAME_, X)

typedef enum ex_op {
#define EX_ENUM_(name) EX_##name,
  EX_OP_LIST(EX_ENUM_)
#undef EX_ENUM_
  EX_OP_COUNT
} ex_op;

/* EX_HC_OF_<NAME>: the hook class of handler EX_<NAME>, a constant expression (ex_exec.c's label
 * tables); ex_op_hook[op] is the same at run time. */
enum {
#define EX_HC_OF_(U, H, F, VAR, SPV, FROM, SH, HK, SEM) EX_HC_OF_##H = HK,
  EX_OP_TABLE(EX_HC_OF_, _)
#undef EX_HC_OF_
};

/* What the table says about one handler (ex_ops.c). */
typedef struct ex_op_info {
  const char *name;       /* "IADD_I32" */
  const char *family;     /* "IADD" */
  const char *from;       /* the SPIR-V instruction(s) it comes from */
  const char *shape;      /* six shape characters: d a b c n flags */
  const char *semantics;
  uint16_t spv;           /* the SpvOp selecting it (EX_OPS_SELECTED), 0 for chosen handlers */
  uint8_t variant;        /* ex_variant */
} ex_op_info;
extern const ex_op_info ex_op_infos[EX_OP_COUNT];
/* The hook class of each handler (ex_hk_class), a small array for the checked runs' hot path
 * (ex_hooks_step). */
extern const uint8_t ex_op_hook[EX_OP_COUNT];

/* The shape field indexes. */
enum { EX_SH_D, EX_SH_A, EX_SH_B, EX_SH_C, EX_SH_N, EX_SH_FLAGS, EX_SH_FIELDS };

/* The handler SPIR-V opcode `spv` selects for variant v, or EX_OP_COUNT. */
ex_op ex_op_select(uint32_t spv, ex_variant v);
/* The variants opcode `spv` has handlers for, as a mask of 1 << ex_variant (0: none, the opcode
 * is not in EX_OPS_SELECTED). */
unsigned ex_op_variants(uint32_t spv);
/* The integer variant of `bits`-bit elements, EX_T_NONE for other widths; ex_variant_float the
 * float one. */
ex_variant ex_variant_int(unsigned bits);
ex_variant ex_variant_float(unsigned bits);

#define EX_VARIANTS_INT ((1u << EX_T_I8) | (1u << EX_T_I16) | (1u << EX_T_I32) | (1u << EX_T_I64))
#define EX_VARIANTS_FLT ((1u << EX_T_F16) | (1u << EX_T_F32) | (1u << EX_T_F64))
/* clang-format on */

#endif
