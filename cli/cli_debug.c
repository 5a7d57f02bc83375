/*
 * cli_debug.c — the command loop of `spvi debug`: commands from a script (-x FILE), then from
 * standard input; on a terminal with line editing and history (libedit's readline interface), else
 * read plainly and echoed after the prompt, so a scripted session's transcript reads like an
 * interactive one. Ctrl-C interrupts a running kernel (spvi_debug_interrupt) instead of ending
 * spvi. An empty line on a terminal repeats the previous command, as in gdb.
 */
#include "cli_debug.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <editline/readline.h>

int cli_debug_take_script(int argc, char **argv, const char **script) {
  *script = NULL;
  int out = 0;
  bool options = true;
  for (int i = 0; i < argc; i++) {
    if (options && strcmp(argv[i], "--") == 0) options = false;
    if (options && strcmp(argv[i], "-x") == 0) {
      if (i + 1 >= argc) return -1;
      *script = argv[++i];
      continue;
    }
    argv[out++] = argv[i];
  }
  return out;
}

static void print_text(void *user, const char *text, size_t len) {
  (void)user;
  fwrite(text, 1, len, stdout);
}

static spvi_debug *volatile interrupt_target;

static void on_sigint(int sig) {
  (void)sig;
  if (interrupt_target) spvi_debug_interrupt(interrupt_target);
}

/* One line without its newline, malloc'd; NULL at the end of the input. */
static char *read_plain(FILE *f) {
  char *line = NULL;
  size_t cap = 0;
  ssize_t n = getline(&line, &cap, f);
  if (n < 0) {
    free(line);
    return NULL;
  }
  while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
  return line;
}

/* Commands from f, echoed after the prompt. false once the session ended (`quit`). */
static bool run_plain(spvi_debug *d, FILE *f) {
  for (char *line; (line = read_plain(f));) {
    printf("%s%s\n", spvi_debug_prompt(d), line);
    fflush(stdout);
    bool go_on = spvi_debug_command(d, line);
    free(line);
    fflush(stdout);
    if (!go_on) return false;
  }
  return true;
}

/* Commands typed on a terminal, with line editing and history. */
static void run_terminal(spvi_debug *d) {
  char *last = NULL;
  for (;;) {
    fflush(stdout);
    char *line = readline(spvi_debug_prompt(d));
    if (!line) { /* end of input (Ctrl-D) */
      printf("quit\n");
      break;
    }
    const char *cmd = line;
    if (!line[strspn(line, " \t")]) cmd = last ? last : "";
    else {
      add_history(line);
      free(last);
      last = strdup(line);
    }
    bool go_on = spvi_debug_command(d, cmd);
    free(line);
    if (!go_on) break;
  }
  free(last);
  fflush(stdout);
}

int cli_debug_session(spvi_launch *l, const spvi_run_options *ro, const char *script, spvi_fault *fault) {
  FILE *sf = NULL;
  if (script && !(sf = fopen(script, "r"))) {
    fprintf(stderr, "spvi: error: -x `%s`: cannot open the command file\n", script);
    return -1;
  }
  spvi_error err = {SPVI_OK, ""};
  spvi_debug *d = spvi_debug_new(l, ro, print_text, NULL, &err);
  fflush(stdout);
  if (!d) {
    if (sf) fclose(sf);
    fprintf(stderr, "spvi: error: %s\n", err.message);
    return -1;
  }
  interrupt_target = d;
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old);
  bool go_on = true;
  if (sf) {
    go_on = run_plain(d, sf);
    fclose(sf);
  }
  if (go_on) {
    if (isatty(STDIN_FILENO)) run_terminal(d);
    else run_plain(d, stdin);
  }
  sigaction(SIGINT, &old, NULL);
  interrupt_target = NULL;
  spvi_fault f;
  int state = (int)spvi_debug_get_state(d, fault ? fault : &f);
  spvi_debug_free(d);
  return state;
}
