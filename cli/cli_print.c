/*
 * cli_print.c — owns the text form of buffers for `spvi run --print`. Half values go through the
 * library's spvi_half_to_double so that printed and interpreted halves agree by construction.
 */
#include "cli_print.h"

#include "cli_num.h"
#include "spvi.h"

#include <string.h>

const char *cli_format_component(const cli_scalar *s, uint64_t bits, char *buf, size_t cap) {
  unsigned width = s->bits;
  if (s->kind == CLI_UINT) {
    snprintf(buf, cap, "%llu", (unsigned long long)bits);
  } else if (s->kind == CLI_SINT) {
    /* Sign-extend from the type's width. */
    uint64_t sign = (uint64_t)1 << (width - 1);
    uint64_t v = width == 64 ? bits : ((bits & ((sign << 1) - 1)) ^ sign) - sign;
    snprintf(buf, cap, "%lld", (long long)v);
  } else if (width == 16) {
    snprintf(buf, cap, "%.5g", spvi_half_to_double((uint16_t)bits));
  } else if (width == 32) {
    snprintf(buf, cap, "%.9g", cli_float_to_double(s, bits));
  } else {
    snprintf(buf, cap, "%.17g", cli_float_to_double(s, bits));
  }
  return buf;
}

void cli_print_buffer(FILE *f, int index, cli_elem t, size_t count, const unsigned char *data) {
  char name[24], num[40];
  fprintf(f, "arg%d %s[%zu]:", index, cli_elem_name(t, name, sizeof name), count);
  size_t es = t.scalar->bits / 8, slots = cli_elem_slots(t);
  for (size_t i = 0; i < count; i++) {
    fputs(t.width > 1 ? " (" : " ", f);
    for (unsigned j = 0; j < t.width; j++) {
      uint64_t bits = cli_load_le(data + (i * slots + j) * es, (unsigned)es);
      fprintf(f, "%s%s", j ? " " : "", cli_format_component(t.scalar, bits, num, sizeof num));
    }
    if (t.width > 1) fputc(')', f);
  }
  fputc('\n', f);
}
