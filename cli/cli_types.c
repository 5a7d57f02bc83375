/*
 * cli_types.c — owns the scalar type table (name, kind, bits, NumPy dtype), the parsing and
 * spelling of element type names such as `float4`, and the shared error helper.
 */
#include "cli_types.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const cli_scalar cli_scalars[] = {
  {"char", CLI_SINT, 8, "|i1"},    {"uchar", CLI_UINT, 8, "|u1"},    {"short", CLI_SINT, 16, "<i2"},
  {"ushort", CLI_UINT, 16, "<u2"}, {"int", CLI_SINT, 32, "<i4"},     {"uint", CLI_UINT, 32, "<u4"},
  {"long", CLI_SINT, 64, "<i8"},   {"ulong", CLI_UINT, 64, "<u8"},   {"half", CLI_FLOAT, 16, "<f2"},
  {"float", CLI_FLOAT, 32, "<f4"}, {"double", CLI_FLOAT, 64, "<f8"},
};
const size_t cli_scalar_count = sizeof cli_scalars / sizeof cli_scalars[0];

/* OpenCL's vector widths; anything else after a scalar name is not a type. */
static const unsigned vector_widths[] = {2, 3, 4, 8, 16};

bool cli_fail(cli_error *e, const char *fmt, ...) {
  if (e) {
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    /* a message too long for the buffer (it echoes a huge argument) says how much was cut: the
     * tail replaces the last bytes kept (twice: the count's digits may change its length) */
    const size_t room = sizeof e->msg - 1;
    if (n > 0 && (size_t)n > room) {
      char tail[48];
      size_t len = 0;
      for (int pass = 0; pass < 2; pass++)
        len = (size_t)snprintf(tail, sizeof tail, "... (%zu bytes cut)", (size_t)n - (room - len));
      memcpy(e->msg + room - len, tail, len + 1);
    }
  }
  return false;
}

const char *cli_echo(const char *text, char *buf, size_t cap) {
  const size_t n = strlen(text), keep = 64;
  if (n <= 2 * keep || cap < keep + 48) return text;
  snprintf(buf, cap, "%.*s... (%zu bytes cut)", (int)keep, text, n - keep);
  return buf;
}

const cli_scalar *cli_scalar_by_name(const char *name, size_t len) {
  for (size_t i = 0; i < cli_scalar_count; i++)
    if (strlen(cli_scalars[i].name) == len && memcmp(cli_scalars[i].name, name, len) == 0) return &cli_scalars[i];
  return NULL;
}

bool cli_elem_parse(const char *text, size_t len, cli_elem *out) {
  /* The longest scalar name that prefixes the text wins; the rest must be a vector width.
   * (No scalar name is a prefix of another, but taking the longest keeps that from mattering.) */
  const cli_scalar *best = NULL;
  size_t best_len = 0;
  for (size_t i = 0; i < cli_scalar_count; i++) {
    size_t n = strlen(cli_scalars[i].name);
    if (n <= len && n > best_len && memcmp(cli_scalars[i].name, text, n) == 0) {
      best = &cli_scalars[i];
      best_len = n;
    }
  }
  if (!best) return false;
  const char *rest = text + best_len;
  size_t rest_len = len - best_len;
  if (rest_len == 0) {
    *out = (cli_elem){best, 1};
    return true;
  }
  for (size_t i = 0; i < sizeof vector_widths / sizeof vector_widths[0]; i++) {
    char digits[4];
    int n = snprintf(digits, sizeof digits, "%u", vector_widths[i]);
    if ((size_t)n == rest_len && memcmp(digits, rest, rest_len) == 0) {
      *out = (cli_elem){best, vector_widths[i]};
      return true;
    }
  }
  return false;
}

unsigned cli_elem_slots(cli_elem t) { return t.width == 3 ? 4 : t.width; }

size_t cli_elem_size(cli_elem t) { return (size_t)cli_elem_slots(t) * (t.scalar->bits / 8); }

const char *cli_elem_name(cli_elem t, char *buf, size_t cap) {
  if (t.width == 1) snprintf(buf, cap, "%s", t.scalar->name);
  else snprintf(buf, cap, "%s%u", t.scalar->name, t.width);
  return buf;
}

void cli_say_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("spvi: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}
