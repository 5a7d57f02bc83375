/*
 * cli_clopts.c — owns the syntax of the compile options of run, debug and info (cli_clopts.h) and
 * their translation into OpenCL build options (OpenCL API 5.8.6: -D, -I, -cl-std=, -cl-opt-disable;
 * -g as clang takes it). The compile layer checks the values (an unknown -cl-std is its error, with
 * the versions it knows), so nothing is checked twice.
 */
#include "cli_clopts.h"

#include "clc_sbuf.h"

#include <string.h>

void cli_clopts_init(cli_clopts *o) {
  memset(o, 0, sizeof *o);
  o->opt = -1;
}

/* Appends value to a list of argv pointers (room for argc entries, allocated at the first). */
static bool clopts_push(const char ***list, int *n, int argc, const char *value, cli_error *e) {
  if (!*list && !(*list = malloc(sizeof **list * (size_t)argc))) return cli_fail(e, "out of memory");
  (*list)[(*n)++] = value;
  return true;
}

/* The option's value: glued (-DNAME, --cl-std=V: `glued` points at it) or the next word. */
static const char *clopts_value(int argc, char **argv, int i, const char *glued, int *used, cli_error *e) {
  if (glued && *glued) return glued;
  if (glued || i + 1 >= argc) {
    cli_fail(e, "option %s needs a value", argv[i]);
    return NULL;
  }
  *used = 2;
  return argv[i + 1];
}

/* The option names with the part where a glued value starts ("-D" + "NAME", "--cl-std=" + "V"). */
static const struct {
  const char *name, *glue; /* the separate spelling, the glued prefix (NULL: none) */
  char id;                 /* D I s O b */
} clopts_table[] = {
  {"-D", "-D", 'D'},                            /* a macro, NAME or NAME=VALUE */
  {"-I", "-I", 'I'},                            /* an include directory */
  {"--cl-std", "--cl-std=", 's'},               /* the OpenCL C version */
  {"-cl-std", "-cl-std=", 's'},                 /* clang's spelling of it */
  {"--build-options", "--build-options=", 'b'}, /* more OpenCL build options */
  {NULL, "-O", 'O'},                            /* -O0..-O3 */
};

static bool clopts_apply(cli_clopts *o, char id, const char *opt, const char *v, int argc, cli_error *e) {
  switch (id) {
  case 'D': return clopts_push(&o->defs, &o->ndefs, argc, v, e);
  case 'I': return clopts_push(&o->incs, &o->nincs, argc, v, e);
  case 's':
    if (o->cl_std) return cli_fail(e, "option %s given twice", opt);
    o->cl_std = v;
    return true;
  case 'b':
    if (o->build_options) return cli_fail(e, "option %s given twice", opt);
    o->build_options = v;
    return true;
  case 'O':
    if (!(v[0] >= '0' && v[0] <= '3' && !v[1])) return cli_fail(e, "-O%s: the levels are -O0, -O1, -O2 and -O3", v);
    if (o->opt >= 0) return cli_fail(e, "-O given twice");
    o->opt = v[0] - '0';
    return true;
  }
  return false;
}

int cli_clopts_take(cli_clopts *o, int argc, char **argv, int i, cli_error *e) {
  const char *a = argv[i];
  for (size_t k = 0; k < sizeof clopts_table / sizeof clopts_table[0]; k++) {
    size_t gl = strlen(clopts_table[k].glue);
    bool separate = clopts_table[k].name && strcmp(a, clopts_table[k].name) == 0;
    if (!separate && strncmp(a, clopts_table[k].glue, gl) != 0) continue;
    int used = 1;
    const char *v = clopts_value(argc, argv, i, separate ? NULL : a + gl, &used, e);
    if (!v || !clopts_apply(o, clopts_table[k].id, clopts_table[k].name ? clopts_table[k].name : a, v, argc, e))
      return -1;
    if (!o->first) o->first = a;
    return used;
  }
  return 0;
}

/* One word for the compile layer's tokenizer: in single quotes, a quote inside as '\'' (sh). */
static void clopts_word(sbuf *b, const char *prefix, const char *w) {
  sb_addf(b, " %s'", prefix);
  for (const char *q; (q = strchr(w, '\'')); w = q + 1) {
    sb_addn(b, w, (size_t)(q - w));
    sb_add(b, "'\\''");
  }
  sb_add(b, w);
  sb_add(b, "'");
}

char *cli_clopts_string(const cli_clopts *o, bool debug) {
  sbuf b = {0};
  sb_addn(&b, "", 0);
  int opt = o->opt >= 0 ? o->opt : debug ? 0 : 2;
  /* -O1..-O3: the compile layer has one optimising pipeline (docs/compile.md); -O0 none */
  if (opt == 0) sb_add(&b, " -cl-opt-disable");
  if (debug) sb_add(&b, " -g");
  if (o->cl_std) clopts_word(&b, "-cl-std=", o->cl_std);
  for (int i = 0; i < o->ndefs; i++) clopts_word(&b, "-D ", o->defs[i]);
  for (int i = 0; i < o->nincs; i++) clopts_word(&b, "-I ", o->incs[i]);
  if (o->build_options) {
    sb_add(&b, " ");
    sb_add(&b, o->build_options);
  }
  return sb_take(&b);
}

void cli_clopts_free(cli_clopts *o) {
  free(o->defs);
  free(o->incs);
  cli_clopts_init(o);
}
