/*
 * bench_npy.c — a minimal reader of the .npy files spvi writes with --out (format version 1.0,
 * 2.0 or 3.0, little-endian 4-byte dtypes, C order): checks the dtype and the element count and
 * returns the data. Written here so the benchmark needs no NumPy.
 */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *bench_npy_descr(bench_elem e) { return e == BE_FLOAT ? "<f4" : e == BE_INT ? "<i4" : "<u4"; }

/* The product of the integers in the header's 'shape': (...) tuple; 0 on a malformed header. */
static size_t shape_count(const char *hdr) {
  const char *p = strstr(hdr, "'shape':");
  if (!p || !(p = strchr(p, '('))) return 0;
  size_t total = 1;
  p++;
  for (;;) {
    while (*p == ' ' || *p == ',') p++;
    if (*p == ')') return total;
    if (*p < '0' || *p > '9') return 0;
    total *= (size_t)strtoull(p, (char **)&p, 10);
  }
}

void *bench_npy_read(const char *path, const char *descr, size_t count, char *msg, size_t msglen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(msg, msglen, "%s: cannot open", path);
    return NULL;
  }
  unsigned char pre[12];
  void *data = NULL;
  char *hdr = NULL;
  if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6) != 0) {
    snprintf(msg, msglen, "%s: not a .npy file", path);
    goto done;
  }
  size_t hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
  if (pre[6] >= 2) { /* versions 2.0 and 3.0: 4-byte header length */
    if (fread(pre + 10, 1, 2, f) != 2) goto short_read;
    hlen |= (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
  }
  hdr = malloc(hlen + 1);
  if (!hdr || fread(hdr, 1, hlen, f) != hlen) goto short_read;
  hdr[hlen] = 0;
  char want[32];
  snprintf(want, sizeof want, "'descr': '%s'", descr);
  if (!strstr(hdr, want) || strstr(hdr, "'fortran_order': True")) {
    snprintf(msg, msglen, "%s: header `%s` is not a C-order array of %s", path, hdr, descr);
    goto done;
  }
  if (shape_count(hdr) != count) {
    snprintf(msg, msglen, "%s: header `%s` does not hold %zu elements", path, hdr, count);
    goto done;
  }
  data = malloc(count * 4 + 1);
  if (!data || fread(data, 4, count, f) != count) {
    free(data);
    data = NULL;
    goto short_read;
  }
  goto done;
short_read:
  snprintf(msg, msglen, "%s: truncated", path);
done:
  free(hdr);
  fclose(f);
  return data;
}
