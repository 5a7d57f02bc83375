/*
 * fuzz_debug.c — harness (d): the debugger's command line and expression parser (debug/), on a
 * fixed module (debug_kernel.cl, compiled with -g and embedded at build time: fuzz_debug_module.h).
 * The input's first byte chooses the kernel and the checks; every following line is one command
 * (break, print EXPR, x/NFU, watch, step, continue ...), at most MAX_COMMANDS of them. The kernel
 * has no unbounded loop, so running commands end whatever the input says.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_debug_module.h"

enum { MAX_COMMANDS = 48 };

static spvi_module *module;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  module = fuzz_load(fuzz_debug_module, sizeof fuzz_debug_module, false);
  if (!module) abort(); /* the embedded module is the harness's own: an invariant */
  return 0;
}

static void discard(void *user, const char *text, size_t len) { (void)user, (void)text, (void)len; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!size) return 0;
  spvi_launch *l = fuzz_launch(module, data[0] % spvi_kernel_count(module));
  if (!l) abort(); /* the harness's arguments suit its module */
  spvi_run_options o = {.checks = (data[0] >> 4) & SPVI_CHECK_ALL, .max_steps = FUZZ_MAX_STEPS};
  spvi_error err;
  spvi_debug *d = spvi_debug_new(l, &o, discard, NULL, &err);
  if (!d) abort();
  char *text = malloc(size);
  memcpy(text, data + 1, size - 1);
  text[size - 1] = 0;
  int n = 0;
  for (char *save = NULL, *line = strtok_r(text, "\n", &save); line && n < MAX_COMMANDS;
       line = strtok_r(NULL, "\n", &save), n++) {
    spvi_debug_prompt(d);
    if (!spvi_debug_command(d, line)) break;
  }
  spvi_fault fault;
  spvi_debug_get_state(d, &fault);
  spvi_debug_free(d);
  spvi_launch_free(l);
  free(text);
  return 0;
}
