/*
 * cli_print.c — owns the text form of buffers for `spvi run --print`. Half values go through the
 * library's spvi_half_to_double so that printed and interpreted halves agree by construction.
 */
#include "cli_print.h"

#include "cli_num.h"
#include "spvi.h"

#include <math.h>
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

/* Component j of element i, as raw bits. */
static uint64_t print_bits(cli_elem t, const unsigned char *data, size_t i, unsigned j) {
  const size_t es = t.scalar->bits / 8;
  return cli_load_le(data + (i * cli_elem_slots(t) + j) * es, (unsigned)es);
}

/* Element i as text: "1.5" or "(1 2 3)". */
static const char *print_elem(cli_elem t, const unsigned char *data, size_t i, char *buf, size_t cap) {
  char num[40];
  size_t len = (size_t)snprintf(buf, cap, "%s", t.width > 1 ? "(" : "");
  for (unsigned j = 0; j < t.width && len < cap; j++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%s", j ? " " : "",
                            cli_format_component(t.scalar, print_bits(t, data, i, j), num, sizeof num));
  if (t.width > 1 && len < cap) snprintf(buf + len, cap - len, ")");
  return buf;
}

/* A component's value for ordering: integers exactly (sign-extended or not), floats as double. */
static bool print_less(const cli_scalar *s, uint64_t a, uint64_t b) {
  if (s->kind == CLI_FLOAT) return cli_float_to_double(s, a) < cli_float_to_double(s, b);
  if (s->kind == CLI_UINT) return a < b;
  const unsigned shift = 64 - s->bits; /* sign-extend from the type's width */
  return (int64_t)(a << shift) < (int64_t)(b << shift);
}

/* The summary's "; min X, max Y, N NaN" over every component. */
static void print_summary(FILE *f, cli_elem t, size_t count, const unsigned char *data) {
  const cli_scalar *s = t.scalar;
  size_t nan = 0;
  bool any = false;
  uint64_t lo = 0, hi = 0;
  for (size_t i = 0; i < count; i++)
    for (unsigned j = 0; j < t.width; j++) {
      const uint64_t v = print_bits(t, data, i, j);
      if (s->kind == CLI_FLOAT && isnan(cli_float_to_double(s, v))) {
        nan++;
        continue;
      }
      if (!any || print_less(s, v, lo)) lo = v;
      if (!any || print_less(s, hi, v)) hi = v;
      any = true;
    }
  char a[40], b[40];
  if (any)
    fprintf(f, "; min %s, max %s", cli_format_component(s, lo, a, sizeof a), cli_format_component(s, hi, b, sizeof b));
  if (s->kind == CLI_FLOAT) fprintf(f, "%s%zu NaN", any ? ", " : "; ", nan);
}

/* Elements [begin, end) on wrapped lines "  [I] V V ..." (an element longer than a line gets one
 * of its own). */
static void print_lines(FILE *f, const cli_print_list *l, size_t begin, size_t end) {
  char line[CLI_PRINT_WIDTH + CLI_PRINT_ITEM], item[CLI_PRINT_ITEM];
  size_t len = 0;
  for (size_t i = begin; i < end; i++) {
    l->elem(l->ctx, i, item, sizeof item);
    if (len && len + 1 + strlen(item) > CLI_PRINT_WIDTH) {
      fprintf(f, "%s\n", line);
      len = 0;
    }
    if (!len) len = (size_t)snprintf(line, sizeof line, "  [%zu]", i);
    len += (size_t)snprintf(line + len, sizeof line - len, " %s", item);
    if (len >= sizeof line) len = sizeof line - 1;
  }
  if (len) fprintf(f, "%s\n", line);
}

void cli_print_list_out(FILE *f, const cli_print_list *l, size_t max) {
  char item[CLI_PRINT_ITEM];
  const size_t count = l->count;
  if (count <= max) { /* one line when it fits */
    size_t len = strlen(l->head) + 1;
    for (size_t i = 0; i < count && len <= CLI_PRINT_WIDTH; i++)
      len += 1 + strlen(l->elem(l->ctx, i, item, sizeof item));
    if (len <= CLI_PRINT_WIDTH) {
      fprintf(f, "%s:", l->head);
      for (size_t i = 0; i < count; i++) fprintf(f, " %s", l->elem(l->ctx, i, item, sizeof item));
      fputc('\n', f);
      return;
    }
  }
  const size_t first = count <= max ? count : max - max / 2, last = count <= max ? 0 : max / 2;
  fprintf(f, "%s: %zu element%s", l->head, count, count == 1 ? "" : "s");
  if (count > max && max == 0) fputs(", none shown", f);
  else if (count > max) fprintf(f, ", %zu shown (the first %zu and the last %zu)", max, first, last);
  if (l->summary) l->summary(f, l->ctx);
  fputc('\n', f);
  print_lines(f, l, 0, first);
  if (count > max && max > 0) fputs("  ...\n", f);
  print_lines(f, l, count - last, count);
}

/* A buffer of scalars or vectors as a cli_print_list. */
typedef struct print_buf {
  cli_elem t;
  size_t count;
  const unsigned char *data;
} print_buf;

static const char *print_buf_elem(const void *ctx, size_t i, char *buf, size_t cap) {
  const print_buf *b = ctx;
  return print_elem(b->t, b->data, i, buf, cap);
}

static void print_buf_summary(FILE *f, const void *ctx) {
  const print_buf *b = ctx;
  print_summary(f, b->t, b->count, b->data);
}

void cli_print_values(FILE *f, const char *head, cli_elem t, size_t count, const unsigned char *data, size_t max) {
  const print_buf b = {t, count, data};
  const cli_print_list l = {head, count, print_buf_elem, print_buf_summary, &b};
  cli_print_list_out(f, &l, max);
}

void cli_print_buffer(FILE *f, int index, cli_elem t, size_t count, const unsigned char *data, size_t max) {
  char name[24], head[80];
  snprintf(head, sizeof head, "arg%d %s[%zu]", index, cli_elem_name(t, name, sizeof name), count);
  cli_print_values(f, head, t, count, data, max);
}
