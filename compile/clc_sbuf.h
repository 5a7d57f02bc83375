/*
 * clc_sbuf.h — a growable string (build logs, option lists; the CLI's struct texts). Allocation
 * failures are remembered (oom) and reported once, by sb_take, instead of at every call.
 */
#ifndef CLC_SBUF_H
#define CLC_SBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char *p;
  size_t n, cap;
  bool oom;
} sbuf;

static inline void sb_addn(sbuf *b, const char *s, size_t len) {
  if (b->oom) return;
  if (b->n + len + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + len + 1) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) {
      b->oom = true;
      return;
    }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->n, s, len);
  b->n += len;
  b->p[b->n] = 0;
}

static inline void sb_add(sbuf *b, const char *s) { sb_addn(b, s, strlen(s)); }

static inline void sb_addf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void sb_addf(sbuf *b, const char *fmt, ...) {
  char small[512];
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (len < 0) return;
  if ((size_t)len < sizeof small) {
    sb_addn(b, small, (size_t)len);
    return;
  }
  char *big = malloc((size_t)len + 1);
  if (!big) {
    b->oom = true;
    return;
  }
  va_start(ap, fmt);
  vsnprintf(big, (size_t)len + 1, fmt, ap);
  va_end(ap);
  sb_addn(b, big, (size_t)len);
  free(big);
}

/* The string, owned by the caller; "" when empty; NULL only when out of memory. */
static inline char *sb_take(sbuf *b) {
  if (b->oom) {
    free(b->p);
    *b = (sbuf){0};
    return NULL;
  }
  char *p = b->p ? b->p : strdup("");
  *b = (sbuf){0};
  return p;
}

#endif
