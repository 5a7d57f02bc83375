/*
 * dbg_util.c — the debugger's ground floor: growable text buffers, the scratch arena a command's
 * values live in, and the session's output. Calls no other debugger file.
 *
 * None of them ends the process when memory runs out: a buffer keeps what it has and notes the
 * loss (dbg_put_buf reports it through the session), an arena allocation returns NULL.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

static void bvprintf(dbg_buf *b, const char *fmt, va_list ap) {
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  if (n < 0 || b->oom) return;
  if (b->len + (size_t)n + 1 > b->cap) {
    size_t cap = (b->len + (size_t)n + 1) * 2;
    char *s = realloc(b->s, cap);
    if (!s) {
      b->oom = true;
      return;
    }
    b->s = s;
    b->cap = cap;
  }
  vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
  b->len += (size_t)n;
}

void dbg_bprintf(dbg_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  bvprintf(b, fmt, ap);
  va_end(ap);
}

void dbg_buf_free(dbg_buf *b) {
  free(b->s);
  memset(b, 0, sizeof *b);
}

struct dbg_blk {
  struct dbg_blk *next;
  max_align_t data[];
};

void *dbg_alloc(dbg_arena *a, size_t n) {
  struct dbg_blk *b = calloc(1, sizeof *b + n);
  if (!b) return NULL;
  b->next = a->head;
  a->head = b;
  return b->data;
}

void dbg_arena_free(dbg_arena *a) {
  for (struct dbg_blk *b = a->head, *n; b; b = n) {
    n = b->next;
    free(b);
  }
  a->head = NULL;
}

char *dbg_strndup(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (!d) return NULL;
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

void dbg_put_buf(dbg_session *s, dbg_buf *b) {
  if (b->len) s->out(s->user, b->s, b->len);
  s->oom |= b->oom;
  dbg_buf_free(b);
}

void dbg_printf(dbg_session *s, const char *fmt, ...) {
  dbg_buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  bvprintf(&b, fmt, ap);
  va_end(ap);
  dbg_put_buf(s, &b);
}
