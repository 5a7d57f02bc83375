/*
 * marker.c — marker_line(): see marker.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "marker.h"

static bool marker_namechar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* Where the comment of a line begins: `;` in assembly, `//` or a block comment in OpenCL C. */
static const char *marker_comment(const char *text, bool spvasm) {
  if (spvasm) return strchr(text, ';');
  const char *a = strstr(text, "//"), *b = strstr(text, "/*");
  return !a ? b : !b ? a : a < b ? a : b;
}

/* Does `text` end in a comment holding `@name` as a whole word, after code? (A comment line that
 * mentions the marker names no line.) */
static bool marker_on(const char *text, const char *name, bool spvasm) {
  const char *comment = marker_comment(text, spvasm);
  if (!comment || strspn(text, " \t") >= (size_t)(comment - text)) return false;
  const size_t n = strlen(name);
  for (const char *p = strchr(comment, '@'); p; p = strchr(p + 1, '@'))
    if (strncmp(p + 1, name, n) == 0 && !marker_namechar(p[1 + n])) return true;
  return false;
}

unsigned marker_line(const char *path, const char *name) {
  FILE *f = fopen(path, "r");
  if (!f) fail_msg("%s: cannot open (run the tests from the repository root)", path);
  const size_t len = strlen(path);
  const bool spvasm = len > 7 && strcmp(path + len - 7, ".spvasm") == 0;
  char text[1024];
  unsigned at = 0, found = 0, n = 0;
  while (fgets(text, sizeof text, f)) {
    n++;
    if (!marker_on(text, name, spvasm)) continue;
    if (found) {
      fclose(f);
      fail_msg("%s: marker @%s on lines %u and %u", path, name, found, n);
    }
    found = n;
    /* the marked OpLine's operand: "OpLine %file LINE COLUMN" */
    if (spvasm && sscanf(text, " OpLine %*s %u", &at) != 1) {
      fclose(f);
      fail_msg("%s:%u: marker @%s is not on an OpLine", path, n, name);
    }
  }
  fclose(f);
  if (!found) fail_msg("%s: no marker @%s", path, name);
  return spvasm ? at : found;
}
