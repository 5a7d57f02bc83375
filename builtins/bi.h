/*
 * bi.h — the interface between the executor and the OpenCL.std builtin library.
 *
 * At prepare time (module load) the executor asks bi_resolve() for the implementation of one
 * OpenCL.std instruction given the result and operand types; an unimplemented instruction or type
 * combination is reported then, with its name, never at run time. At run time the executor calls the
 * returned function once per instruction for all active lanes of a warp (see bi_call): the builtin
 * loops over lanes and components itself, so dispatch cost is paid once per warp.
 *
 * Registers are laid out lane-major per value: lane l's copy of an operand lives at
 * src[i] + l * src_stride[i]; a vector's components are contiguous within it. The result register
 * never overlaps an operand register (SSA: every value has its own register).
 */
#ifndef BI_H
#define BI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum bi_kind { BI_VOID = 0, BI_INT, BI_FLOAT, BI_BOOL, BI_PTR } bi_kind;

/* The type of a result or operand as the builtin sees it. */
typedef struct bi_type {
  bi_kind kind;
  uint8_t bits;  /* element width: 8/16/32/64 (BOOL: 8; PTR: 32 or 64, the pointer itself) */
  uint8_t ncomp; /* 1 for scalars, else vector components */
  /* PTR only: the pointee's element description and the address space (SpvStorageClass) */
  bi_kind pointee_kind;
  uint8_t pointee_bits, pointee_ncomp;
  uint32_t storage;
} bi_type;

/* Memory access for builtins that take pointers (vloadn, vstoren, frexp, modf, sincos, remquo,
 * fract, lgamma_r, vload_half ...). Returns a host pointer to `bytes` bytes at the kernel pointer
 * `ptr` as seen by `lane`, bounds-checked; NULL after recording a fault (the builtin must then
 * return false at once). */
typedef struct bi_mem {
  void *ctx;
  void *(*access)(void *ctx, unsigned lane, uint64_t ptr, uint64_t bytes, bool write);
  /* The integer value of kernel pointer `ptr` (what OpConvertPtrToU gives: printf's %p shows it);
   * NULL: the pointer's bits are its value. */
  uint64_t (*ptr_value)(void *ctx, uint64_t ptr);
} bi_mem;

/* Output of printf: text written by one lane (the executor keeps each work-item's output apart and
 * emits it in work-item order, so the output does not depend on the warp width). */
typedef struct bi_out {
  void *ctx;
  void (*write)(void *ctx, unsigned lane, const char *text, size_t len);
  /* lane's call is invalid (a format or argument the spec leaves undefined; printf returns -1):
   * `why` is static text saying what is wrong. NULL: not said. */
  void (*invalid)(void *ctx, unsigned lane, const char *why);
} bi_out;

/* Most operands of one call: printf's format and up to 63 arguments. */
#define BI_MAX_OPERANDS 64

typedef struct bi_call {
  uint8_t *dst;                        /* result register of lane 0 (NULL when the result is void) */
  const uint8_t *src[BI_MAX_OPERANDS]; /* operand registers of lane 0 (nsrc of them) */
  uint32_t dst_stride;                 /* bytes between lanes' copies of the result */
  uint32_t src_stride[BI_MAX_OPERANDS];
  const bi_type *types; /* the operands' types, as given to bi_resolve */
  uint32_t nsrc;
  const uint16_t *lanes; /* the active lanes */
  uint32_t nlanes;
  const bi_mem *mem;
  const bi_out *out;    /* printf only */
  uint32_t literal;     /* bi_resolved.literal, copied unchanged: whatever the library packed
                                 at resolve time (component count, rounding mode, widths ...) */
  bool flush_denormals; /* emulate a device that flushes float denormals (reserved, issue 3) */
} bi_call;

typedef bool (*bi_fn)(const bi_call *call);

typedef struct bi_resolved {
  bi_fn fn;
  uint32_t literal; /* copied into bi_call.literal */
} bi_resolved;

/* Resolve OpenCL.std instruction `op` (OCLSTD_*) for the given types. `lit` holds the trailing
 * literal operand when the instruction has one (vloadn/vstoren n, rounding mode), else 0.
 * On failure returns false and writes e.g. "OpenCL.std `tgamma` is not implemented" or
 * "OpenCL.std `fma` is not implemented for double3" to err. */
bool bi_resolve(uint32_t op, const bi_type *result, const bi_type *args, unsigned nargs, uint32_t lit, bi_resolved *out,
                char *err, unsigned errlen);

/* Does OpenCL.std instruction `op` act component by component: for the types bi_resolve accepts,
 * its vector operands have the result's component count, and component i of the result depends on
 * component i of those and on the scalar (pointer) operands alone? True for the math, integer,
 * common and relational functions (OpenCL C 6.15.2-6.15.4, 6.15.6), false for the geometric ones,
 * shuffles, vector loads and stores, prefetch, printf and unknown instructions. */
bool bi_componentwise(uint32_t op);

#endif
