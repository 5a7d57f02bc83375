/*
 * bi_printf.h — private to builtins/: the interface between bi_printf.c (the OpenCL.std printf
 * instruction: format parsing, arguments, output) and bi_printf_num.c (host-independent conversion
 * of one integer, floating-point or text field under a conversion specification).
 */
#ifndef BI_PRINTF_H
#define BI_PRINTF_H

#include "bi.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A growable output buffer; `failed` is set (and further output dropped) when memory runs out. */
typedef struct bi_pf_buf {
  char *p;
  size_t len, cap;
  bool failed;
} bi_pf_buf;

void bi_pf_put(bi_pf_buf *b, const char *s, size_t n);
void bi_pf_fill(bi_pf_buf *b, char c, size_t count);

/* One conversion specification (OpenCL C 3.0 §6.15.14.2): flags, field width (0: none),
 * precision (-1: none) and the conversion specifier character. */
typedef struct bi_pf_spec {
  bool minus, plus, space, hash, zero;
  int width, prec;
  char conv;
} bi_pf_spec;

/* d i o u x X: the value is -mag when neg (d, i only), else mag. */
void bi_pf_int(bi_pf_buf *b, const bi_pf_spec *s, bool neg, uint64_t mag);

/* f F e E g G a A: any double, exactly converted (see bi_printf_num.c). */
void bi_pf_float(bi_pf_buf *b, const bi_pf_spec *s, double v);

/* c s p: `text` padded with spaces to the field width (left or right per the - flag). */
void bi_pf_text(bi_pf_buf *b, const bi_pf_spec *s, const char *text, size_t n);

#endif
