/*
 * cli_progress.h — the progress line of `spvi run` on a terminal: after about two seconds, a line
 * on stderr rewritten with \r (work-groups done/total, rate, time left), cleared when the run ends.
 * A thread polls spvi_launch_progress(); the workers only count finished groups.
 */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include "spvi.h"

#include <stddef.h>
#include <stdint.h>

/* The line for `done` of `total` work-groups after `elapsed` seconds (no \r, no newline), e.g.
 * "spvi: 1200/5000 work-groups (24%), 400 groups/s, 0:10 left"; returns its length (< cap). */
size_t cli_progress_format(char *buf, size_t cap, uint64_t done, uint64_t total, double elapsed);

typedef struct cli_progress cli_progress;

/* Starts watching launch l (whose spvi_run is about to start) on a thread; NULL when no display
 * is wanted (`show` false) or the thread cannot start, which every function below accepts. */
cli_progress *cli_progress_start(const spvi_launch *l, bool show);
/* Clears the line (if shown) and keeps it away until cli_progress_resume: kernel printf output goes
 * to the terminal in between. */
void cli_progress_pause(cli_progress *p);
void cli_progress_resume(cli_progress *p);
/* Clears the line, stops the thread and frees p. */
void cli_progress_stop(cli_progress *p);

#endif
