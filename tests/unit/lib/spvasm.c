/*
 * spvasm.c — spvasm_load(): see spvasm.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
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

spvi_module *spvasm_load(const char *path, unsigned minor, bool keep_ids, const char *name) {
  static const spv_target_env envs[] = {SPV_ENV_UNIVERSAL_1_0, SPV_ENV_UNIVERSAL_1_1, SPV_ENV_UNIVERSAL_1_2,
                                        SPV_ENV_UNIVERSAL_1_3, SPV_ENV_UNIVERSAL_1_4, SPV_ENV_UNIVERSAL_1_5,
                                        SPV_ENV_UNIVERSAL_1_6};
  if (minor >= sizeof envs / sizeof envs[0]) fail_msg("%s: SPIR-V 1.%u is not supported here", path, minor);
  const uint32_t options = keep_ids ? SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS : SPV_TEXT_TO_BINARY_OPTION_NONE;
  size_t n;
  char *text = spvasm_read(path, &n);
  spv_context ctx = spvContextCreate(envs[minor]);
  spv_binary bin = NULL;
  spv_diagnostic diag = NULL;
  const spv_result_t r = spvTextToBinaryWithOptions(ctx, text, n, options, &bin, &diag);
  free(text);
  if (r != SPV_SUCCESS) {
    print_error("%s:%zu: %s\n", path, diag ? diag->position.line + 1 : 0, diag ? diag->error : "?");
    spvDiagnosticDestroy(diag);
    spvContextDestroy(ctx);
    fail_msg("%s does not assemble", path);
  }
  spvDiagnosticDestroy(diag);
  spvContextDestroy(ctx);
  spvi_error err;
  spvi_module *m = spvi_load_memory(bin->code, bin->wordCount * 4, name, NULL, &err);
  spvBinaryDestroy(bin);
  if (!m) fail_msg("%s: %s", path, err.message);
  return m;
}
