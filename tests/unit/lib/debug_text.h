/*
 * debug_text.h — what a debug session printed (the `out` callback of spvi_debug_new), collected
 * for the debugger tests (test_debug.c, test_debug_checks.c).
 */
#ifndef DEBUG_TEXT_H
#define DEBUG_TEXT_H

#include <stddef.h>

typedef struct debug_text {
  char buf[32768]; /* NUL-terminated; what does not fit is dropped */
  size_t len;
} debug_text;

/* spvi_debug_new's `out`, user a debug_text *: appends the text. */
void debug_text_collect(void *user, const char *s, size_t len);

#endif
