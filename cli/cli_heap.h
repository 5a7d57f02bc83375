/*
 * cli_heap.h — the spvi command's heap policy (see cli_heap.c).
 */
#ifndef CLI_HEAP_H
#define CLI_HEAP_H

/* Called first thing in main: tunes the C library's allocator for a short-lived process that
 * allocates tens of megabytes in small pieces (module validation) and large buffers. */
void cli_heap_setup(void);

#endif
