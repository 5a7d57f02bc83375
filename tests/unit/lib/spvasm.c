/*
 * spvasm.c — spvasm_load(): see spvasm.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <spirv-tools/libspirv.h>

#include "spvasm.h"

/* The whole text of the file (malloc'd, NUL-terminated); *n: its length. */
static char *spvasm_read(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("%s: cannot open (run from the repository root)", path);
  char *text = NULL;
  size_t cap = 0;
  *n = 0;
  for (;;) {
    if (cap - *n < 4096) {
      cap = cap ? 2 * cap : 65536;
      text = realloc(text, cap);
      assert_non_null(text);
    }
    const size_t got = fread(text + *n, 1, cap - *n - 1, f);
    *n += got;
    if (got == 0) break;
  }
  fclose(f);
  text[*n] = 0;
  return text;
}

uint32_t *spvasm_assemble(const char *text, size_t len, unsigned minor, bool keep_ids, const char *what,
                          size_t *nwords) {
  static const spv_target_env envs[] = {SPV_ENV_UNIVERSAL_1_0, SPV_ENV_UNIVERSAL_1_1, SPV_ENV_UNIVERSAL_1_2,
                                        SPV_ENV_UNIVERSAL_1_3, SPV_ENV_UNIVERSAL_1_4, SPV_ENV_UNIVERSAL_1_5,
                                        SPV_ENV_UNIVERSAL_1_6};
  if (minor >= sizeof envs / sizeof envs[0]) fail_msg("%s: SPIR-V 1.%u is not supported here", what, minor);
  const uint32_t options = keep_ids ? SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS : SPV_TEXT_TO_BINARY_OPTION_NONE;
  spv_context ctx = spvContextCreate(envs[minor]);
  spv_binary bin = NULL;
  spv_diagnostic diag = NULL;
  const spv_result_t r = spvTextToBinaryWithOptions(ctx, text, len, options, &bin, &diag);
  if (r != SPV_SUCCESS) {
    print_error("%s:%zu: %s\n", what, diag ? diag->position.line + 1 : 0, diag ? diag->error : "?");
    spvDiagnosticDestroy(diag);
    spvContextDestroy(ctx);
    fail_msg("%s does not assemble", what);
  }
  spvDiagnosticDestroy(diag);
  spvContextDestroy(ctx);
  uint32_t *w = malloc(bin->wordCount * 4);
  assert_non_null(w);
  memcpy(w, bin->code, bin->wordCount * 4);
  *nwords = bin->wordCount;
  spvBinaryDestroy(bin);
  return w;
}

spvi_module *spvasm_load(const char *path, unsigned minor, bool keep_ids, const char *name) {
  size_t n, nw;
  char *text = spvasm_read(path, &n);
  uint32_t *w = spvasm_assemble(text, n, minor, keep_ids, path, &nw);
  free(text);
  spvi_error err;
  spvi_module *m = spvi_load_memory(w, nw * 4, name, NULL, &err);
  free(w);
  if (!m) fail_msg("%s: %s", path, err.message);
  return m;
}
