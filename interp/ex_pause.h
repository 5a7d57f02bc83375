/*
 * ex_pause.h — the debugger's client of the hook interface (ex_pause.c, ex_hooks.h): before every
 * instruction of a debug run it asks the debug session (ex_inspect.c) whether the work-item pauses
 * there. The session owns an ex_pause and points its launch at it (ex_launch.debug), which makes
 * the run a debug run from the moment the hooks are resolved.
 */
#ifndef EX_PAUSE_H
#define EX_PAUSE_H

#include "ex_internal.h"
#include "inspect/ex_inspect.h"

typedef struct ex_pause {
  ex_insp_pause_fn ask; /* the session's question: pause at *at? */
  void *user;
  /* the work-item being asked about: its top frame's ip is written only when it pauses, so its
   * position is the one `ask` was given (-1: none) */
  int live_item;
  uint32_t live_idx;
} ex_pause;

#endif
