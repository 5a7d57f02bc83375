/*
 * fuzz_cli.c — harness (c): the `spvi run` command line and the .npy reader (cli/).
 *
 * An input that starts with the .npy magic is a .npy file: written to a temporary file once per
 * input and read as the `@FILE` initialiser of buffers of several element types (the command's own
 * path: header parse, shape and type checks, then the data). Any other input is a command line,
 * one word per line: parsed as `spvi run`'s options (cli_parse_run), then each kernel argument
 * against a table of parameters of every kind, as `spvi run` matches them (cli_arg_for_param).
 *
 * Bounds: arguments naming a file (`@`) are not parsed (the endless-file cases are the CLI part of
 * issue #17's, tested there), nor those whose counts or image sizes multiply to more than 2^20
 * before the `=`: the command allocates what it is asked for, which is not a defect.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_args.h"
#include "cli_cmdline.h"
#include "cli_npy.h"
#include "fuzz.h"

enum { MAX_WORDS = 64, MAX_PRODUCT = 1 << 20 };

static char npy_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  snprintf(npy_path, sizeof npy_path, "/tmp/spvi-fuzz-cli-%ld.npy", (long)getpid());
  return 0;
}

/* The parameters arguments are matched against: one of each kind and a few shapes. */
#define PARAM(KIND, SPACE, TYPE, ELEM, BITS, WIDTH, SIZE)                                                      \
  {                                                                                                            \
    .type_name = TYPE, .kind = KIND, .space = SPACE, .elem_kind = ELEM, .elem_bits = BITS, .vec_width = WIDTH, \
    .size = SIZE                                                                                               \
  }
#define IMAGE(TYPE, IMAGE_TYPE, ACCESS) \
  { .type_name = TYPE, .kind = SPVI_PARAM_IMAGE, .space = SPVI_AS_NONE, .image_type = IMAGE_TYPE, .access = ACCESS }
static const spvi_param_info params[] = {
  PARAM(SPVI_PARAM_VALUE, SPVI_AS_NONE, "int", SPVI_S_INT, 32, 1, 4),
  PARAM(SPVI_PARAM_VALUE, SPVI_AS_NONE, "half", SPVI_S_FLOAT, 16, 1, 2),
  PARAM(SPVI_PARAM_VALUE, SPVI_AS_NONE, "float3", SPVI_S_FLOAT, 32, 3, 16),
  PARAM(SPVI_PARAM_VALUE, SPVI_AS_NONE, "ulong16", SPVI_S_UINT, 64, 16, 128),
  PARAM(SPVI_PARAM_VALUE, SPVI_AS_NONE, "struct S", SPVI_S_OTHER, 0, 0, 12),
  PARAM(SPVI_PARAM_BUFFER, SPVI_AS_GLOBAL, "float*", SPVI_S_FLOAT, 32, 1, 4),
  PARAM(SPVI_PARAM_BUFFER, SPVI_AS_CONSTANT, "uchar3*", SPVI_S_UINT, 8, 3, 4),
  PARAM(SPVI_PARAM_BUFFER, SPVI_AS_GLOBAL, "struct S*", SPVI_S_OTHER, 0, 0, 24),
  PARAM(SPVI_PARAM_LOCAL, SPVI_AS_LOCAL, "float*", SPVI_S_FLOAT, 32, 1, 4),
  IMAGE("read_only image2d_t", SPVI_IMAGE_2D, SPVI_ACCESS_READ_ONLY),
  IMAGE("write_only image1d_buffer_t", SPVI_IMAGE_1D_BUFFER, SPVI_ACCESS_WRITE_ONLY),
  IMAGE("read_write image3d_t", SPVI_IMAGE_3D, SPVI_ACCESS_READ_WRITE),
  {.type_name = "sampler_t", .kind = SPVI_PARAM_SAMPLER, .space = SPVI_AS_NONE},
};

/* Whether the sizes an argument asks for are small: every number before the first `=` (counts,
 * image sizes, local: bytes), in any base, multiplied; a number of more than 7 characters is large. */
static bool small_sizes(const char *text) {
  uint64_t product = 1;
  for (const char *s = text; *s && *s != '='; s++) {
    if (*s < '0' || *s > '9') continue;
    size_t len = strspn(s, "0123456789abcdefABCDEFxX");
    if (len > 7) return false;
    char buf[8];
    memcpy(buf, s, len);
    buf[len] = 0;
    uint64_t v = strtoull(buf, NULL, 0);
    product *= v ? v : 1;
    if (product > MAX_PRODUCT) return false;
    s += len - 1;
  }
  return true;
}

static void parse_arg(const char *text) {
  if (strchr(text, '@') || !small_sizes(text)) return;
  for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
    cli_arg a;
    cli_error e;
    if (cli_arg_for_param(text, &params[i], &a, &e)) cli_arg_free(&a);
  }
}

static void command_line(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1), *words[MAX_WORDS];
  memcpy(text, data, size);
  text[size] = 0;
  int n = 0;
  for (char *save = NULL, *w = strtok_r(text, "\n", &save); w && n < MAX_WORDS; w = strtok_r(NULL, "\n", &save))
    words[n++] = w;
  cli_run_cmd c;
  cli_error e;
  if (cli_parse_run(n, words, &c, &e))
    for (int i = 0; i < c.nargs; i++) parse_arg(c.args[i]);
  else
    for (int i = 0; i < n; i++) parse_arg(words[i]);
  cli_run_cmd_free(&c);
  free(text);
}

/* The file as the initialiser of buffers of each type, with as many elements as its shape says. */
static void npy_file(const uint8_t *data, size_t size) {
  cli_npy h;
  cli_error e;
  if (!cli_npy_parse(data, size, "fuzz.npy", &h, &e)) return;
  size_t count = 1;
  for (unsigned d = 0; d < h.ndim; d++) count = h.shape[d] && count <= MAX_PRODUCT ? count * h.shape[d] : 0;
  if (count == 0 || count > MAX_PRODUCT) return;
  FILE *f = fopen(npy_path, "wb");
  if (!f) return;
  size_t wrote = fwrite(data, 1, size, f);
  if (fclose(f) || wrote != size) return;
  static const char *const types[] = {"float", "uchar", "int", "double", "half", "float3", "long2", "ushort"};
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    char arg[160];
    for (size_t per = 1; per <= 3; per++) { /* elements, and vectors of 2 or 3 of them */
      snprintf(arg, sizeof arg, "%s[%zu]=@%s", types[t], count / per, npy_path);
      cli_arg a;
      if (count % per == 0 && cli_parse_buffer(arg, &a, &e)) cli_arg_free(&a);
    }
  }
  unlink(npy_path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (cli_npy_has_magic(data, size)) npy_file(data, size);
  else command_line(data, size);
  return 0;
}
