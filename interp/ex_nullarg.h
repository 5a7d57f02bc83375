/*
 * ex_nullarg.h — the kernel argument a faulting null pointer comes from (ex_nullarg.c), for the
 * fault report.
 */
#ifndef EX_NULLARG_H
#define EX_NULLARG_H

typedef struct ex_ctx ex_ctx;

/* The index of the kernel parameter that the faulting instruction's null pointer is derived from
 * (the launch passes a null pointer for it), or -1 when the code does not show one such
 * parameter. */
int ex_null_arg(const ex_ctx *cx);

#endif
