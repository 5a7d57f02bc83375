/*
 * ex_dump.h — prepared code as text, one line per instruction (ex_dump.c; `spvi info --prepared`,
 * for debugging spvi itself).
 */
#ifndef EX_DUMP_H
#define EX_DUMP_H

#include <stdio.h>

#include "ex.h"

/* Write the functions of p to out: those `entry` reaches through calls (itself first), or all
 * when entry is NULL. */
void ex_dump(const ex_program *p, const ex_func *entry, FILE *out);
/* One instruction, without its newline: `r12 = IADD_I32 r3, r4 (n=4)`. */
void ex_dump_insn(const ex_insn *ip, FILE *out);

#endif
