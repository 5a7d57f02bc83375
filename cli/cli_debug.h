/*
 * cli_debug.h — the interactive side of `spvi debug`: reads commands (libedit on a terminal,
 * plain lines from a -x script or a non-terminal standard input) and hands them to the library's
 * debugger (spvi_debug_* in spvi.h).
 */
#ifndef CLI_DEBUG_H
#define CLI_DEBUG_H

#include "spvi.h"

/* Remove `-x FILE` from argv (before any `--`); *script receives FILE or NULL. Returns the new argc,
 * -1 when -x has no FILE. */
int cli_debug_take_script(int argc, char **argv, const char **script);

/* Run a session on the launch (arguments and NDRange set) until `quit` or the end of the input.
 * Returns the state the kernel was left in, its fault in *fault (when not NULL) if that state is
 * SPVI_DEBUG_FAULTED; -1 when the session could not start (message printed). */
int cli_debug_session(spvi_launch *l, const spvi_run_options *ro, const char *script, spvi_fault *fault);

#endif
