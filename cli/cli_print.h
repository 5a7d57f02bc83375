/*
 * cli_print.h — `--print[=N]` output: per buffer argument one line of text, or a summary line and
 * wrapped lines of at most N elements; numbers spelled so that reading them back (e.g. as a
 * `V,V,...` initialiser) gives the same bits.
 */
#ifndef CLI_PRINT_H
#define CLI_PRINT_H

#include <stdio.h>

#include "cli_types.h"

/* One component: integers in decimal (char and short signed), half with %.5g, float %.9g,
 * double %.17g — enough digits for each format to round-trip; inf, -inf, nan, -nan as printf
 * spells them. */
const char *cli_format_component(const cli_scalar *s, uint64_t bits, char *buf, size_t cap);

/* Lines of --print output are wrapped before this many columns. */
#define CLI_PRINT_WIDTH 100

/* One buffer's --print block: "HEAD: 1 2 3 4\n" when it has at most max elements and fits on one
 * line of CLI_PRINT_WIDTH; otherwise a summary line "HEAD: COUNT elements, ...; min X, max Y[, N
 * NaN]" (min and max over every component, NaNs left out and counted) followed by lines "  [I] V V
 * ..." of at most CLI_PRINT_WIDTH columns, I the index of the line's first element: every element
 * when there are at most max, else the first ceil(max/2) and the last floor(max/2) with a line
 * "  ..." between. Vectors are shown in parentheses, "(1 2 3)" (the padding slot of 3-element
 * vectors is not shown). */
void cli_print_values(FILE *f, const char *head, cli_elem t, size_t count, const unsigned char *data, size_t max);

/* Bytes an element's text may take (longer text is cut). */
#define CLI_PRINT_ITEM 1024

/* What cli_print_list_out prints: `count` elements after `head`, element i's text from elem, and
 * the summary's text after the count from summary (NULL: none). */
typedef struct cli_print_list {
  const char *head;
  size_t count;
  const char *(*elem)(const void *ctx, size_t i, char *buf, size_t cap);
  void (*summary)(FILE *f, const void *ctx);
  const void *ctx;
} cli_print_list;

/* The output cli_print_values describes, for any list of elements. */
void cli_print_list_out(FILE *f, const cli_print_list *l, size_t max);

/* cli_print_values with the head "argI TYPE[COUNT]": "arg2 float[4]: 1 2 3 4\n". */
void cli_print_buffer(FILE *f, int index, cli_elem t, size_t count, const unsigned char *data, size_t max);

#endif
