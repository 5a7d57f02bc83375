/*
 * cli_print.h — `--print` output: one line of text per buffer argument, numbers spelled so that
 * reading them back (e.g. as a `V,V,...` initialiser) gives the same bits.
 */
#ifndef CLI_PRINT_H
#define CLI_PRINT_H

#include <stdio.h>

#include "cli_types.h"

/* One component: integers in decimal (char and short signed), half with %.5g, float %.9g,
 * double %.17g — enough digits for each format to round-trip; inf, -inf, nan, -nan as printf
 * spells them. */
const char *cli_format_component(const cli_scalar *s, uint64_t bits, char *buf, size_t cap);

/* "arg2 float[4]: 1 2 3 4\n"; vectors in parentheses: "arg0 float3[2]: (1 2 3) (4 5 6)\n" (the
 * padding slot of 3-element vectors is not shown). */
void cli_print_buffer(FILE *f, int index, cli_elem t, size_t count, const unsigned char *data);

#endif
