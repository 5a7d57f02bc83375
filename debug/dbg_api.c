/*
 * dbg_api.c — the spvi_debug_* entry points of include/spvi.h: a session (dbg_session.c) driven by
 * command lines (dbg_cmd.c). The top of the debugger: nothing in it calls back here.
 */
#include "dbg.h"

spvi_debug *spvi_debug_new(spvi_launch *l, const spvi_run_options *opts,
                           void (*out)(void *user, const char *text, size_t len), void *user, spvi_error *err) {
  return dbg_session_new(l, opts, out, user, err);
}

void spvi_debug_interrupt(spvi_debug *s) {
  if (s) s->interrupted = 1;
}

bool spvi_debug_command(spvi_debug *s, const char *line) {
  if (!s) return false;
  s->interrupted = 0;
  dbg_command(s, line ? line : "");
  dbg_update_prompt(s);
  if (s->oom || s->sym.oom) {
    /* said once per command, with no memory needed to say it */
    static const char msg[] = "Out of memory: some of this command's output or symbols are missing.\n";
    s->out(s->user, msg, sizeof msg - 1);
    s->oom = s->sym.oom = false;
  }
  return !s->quit;
}

const char *spvi_debug_prompt(const spvi_debug *s) { return s ? s->prompt : "(spvi) "; }

spvi_debug_state spvi_debug_get_state(const spvi_debug *s, spvi_fault *fault) {
  if (!s) return SPVI_DEBUG_STOPPED;
  if (fault && s->state == DS_FAULTED) *fault = s->fault;
  return s->state == DS_FINISHED  ? SPVI_DEBUG_FINISHED
         : s->state == DS_FAULTED ? SPVI_DEBUG_FAULTED
                                  : SPVI_DEBUG_STOPPED;
}

void spvi_debug_free(spvi_debug *s) { dbg_session_free(s); }
