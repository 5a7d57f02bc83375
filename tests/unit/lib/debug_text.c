/* debug_text.c — see debug_text.h. */
#include "debug_text.h"

#include <string.h>

void debug_text_collect(void *user, const char *s, size_t len) {
  debug_text *t = user;
  if (t->len + len >= sizeof t->buf) len = sizeof t->buf - 1 - t->len;
  memcpy(t->buf + t->len, s, len);
  t->len += len;
  t->buf[t->len] = 0;
}
