/*
 * cli_struct.c — owns the NumPy and text forms of struct buffers (cli_struct.h), from the layout
 * the library gives (spvi_param_struct: offsets, sizes, member names from the debug info).
 */
#include "cli_struct.h"

#include "cli_num.h"
#include "cli_print.h"
#include "clc_sbuf.h"

#include <stdlib.h>
#include <string.h>

/* The OpenCL C scalar type of a field's elements (its vector components), for printing; NULL for
 * bytes of no numeric type. */
static const cli_scalar *st_scalar(const spvi_field *f) {
  static const struct {
    spvi_scalar kind;
    unsigned bits;
    const char *name;
  } map[] = {
    {SPVI_S_INT, 8, "char"},    {SPVI_S_INT, 16, "short"},   {SPVI_S_INT, 32, "int"},      {SPVI_S_INT, 64, "long"},
    {SPVI_S_UINT, 8, "uchar"},  {SPVI_S_UINT, 16, "ushort"}, {SPVI_S_UINT, 32, "uint"},    {SPVI_S_UINT, 64, "ulong"},
    {SPVI_S_FLOAT, 16, "half"}, {SPVI_S_FLOAT, 32, "float"}, {SPVI_S_FLOAT, 64, "double"}, {SPVI_S_BOOL, 8, "uchar"},
  };
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (map[i].kind == f->kind && map[i].bits == f->bits) return cli_scalar_by_name(map[i].name, strlen(map[i].name));
  return NULL;
}

/* Elements of a field's arrays (1 when it has none). */
static size_t st_elems(const spvi_field *f) {
  size_t n = 1;
  for (unsigned d = 0; d < f->ndims; d++) n *= f->dims[d];
  return n;
}

/* Memory slots of a field's vector (float3: 4), 1 for scalars. */
static size_t st_slots(const spvi_field *f) {
  const cli_scalar *s = st_scalar(f);
  return f->vec_width > 1 && s ? f->size / (s->bits / 8) : 1;
}

static void st_descr(sbuf *t, const spvi_struct *s) {
  size_t pos = 0;
  sb_addf(t, "[");
  for (int i = 0; i < s->nfields; i++) {
    const spvi_field *f = &s->fields[i];
    if (f->offset > pos) sb_addf(t, "('', '|V%zu'), ", f->offset - pos); /* padding (numpy: an offset) */
    sb_addf(t, "('%s', ", f->name);
    const cli_scalar *sc = st_scalar(f);
    if (f->sub) st_descr(t, f->sub);
    else if (f->kind == SPVI_S_BOOL) sb_addf(t, "'|b1'");
    else if (sc) sb_addf(t, "'%s'", sc->npy);
    else sb_addf(t, "'|V%zu'", f->size);
    /* the shape: array dimensions, then a vector's memory slots */
    const size_t slots = f->sub ? 1 : st_slots(f);
    const unsigned nd = f->ndims + (slots > 1);
    if (nd) {
      sb_addf(t, ", (");
      for (unsigned d = 0; d < f->ndims; d++) sb_addf(t, "%s%zu", d ? ", " : "", f->dims[d]);
      if (slots > 1) sb_addf(t, "%s%zu", f->ndims ? ", " : "", slots);
      sb_addf(t, nd == 1 ? ",)" : ")");
    }
    sb_addf(t, ")%s", i + 1 < s->nfields ? ", " : "");
    pos = f->offset + f->size * st_elems(f);
  }
  if (s->size > pos) sb_addf(t, "%s('', '|V%zu')", s->nfields ? ", " : "", s->size - pos);
  sb_addf(t, "]");
}

char *cli_struct_descr(const spvi_struct *s) {
  sbuf t = {0};
  st_descr(&t, s);
  return sb_take(&t);
}

static bool st_leaves(const spvi_struct *s, size_t base, cli_npy_leaf *leaves, unsigned *n) {
  for (int i = 0; i < s->nfields; i++) {
    const spvi_field *f = &s->fields[i];
    const size_t elems = st_elems(f), at = base + f->offset;
    if (f->sub) {
      for (size_t k = 0; k < elems; k++)
        if (!st_leaves(f->sub, at + k * f->size, leaves, n)) return false;
      continue;
    }
    const cli_scalar *sc = st_scalar(f);
    char type[16];
    if (f->kind == SPVI_S_BOOL) snprintf(type, sizeof type, "|b1");
    else if (sc) snprintf(type, sizeof type, "%s", sc->npy);
    else snprintf(type, sizeof type, "|V%zu", f->size);
    if (!cli_npy_add_leaf(leaves, n, at, type, elems * (sc ? st_slots(f) : 1))) return false;
  }
  return true;
}

bool cli_struct_leaves(const spvi_struct *s, cli_npy_leaf *leaves, unsigned *n) {
  *n = 0;
  return st_leaves(s, 0, leaves, n);
}

/* ---- --print ----------------------------------------------------------------------------------- */

static void st_value(sbuf *t, const spvi_struct *s, const unsigned char *p);

/* One element of a field (a scalar, a vector "(1 2 3)", a struct "{...}"). */
static void st_field_elem(sbuf *t, const spvi_field *f, const unsigned char *p) {
  const cli_scalar *sc = st_scalar(f);
  if (f->sub) {
    st_value(t, f->sub, p);
  } else if (!sc) {
    sb_addf(t, "<%zu bytes>", f->size);
  } else {
    char num[40];
    if (f->vec_width > 1) sb_addf(t, "(");
    for (unsigned j = 0; j < (f->vec_width ? f->vec_width : 1); j++)
      sb_addf(t, "%s%s", j ? " " : "",
              cli_format_component(sc, cli_load_le(p + j * (sc->bits / 8), sc->bits / 8), num, sizeof num));
    if (f->vec_width > 1) sb_addf(t, ")");
  }
}

static void st_value(sbuf *t, const spvi_struct *s, const unsigned char *p) {
  sb_addf(t, "{");
  for (int i = 0; i < s->nfields; i++) {
    const spvi_field *f = &s->fields[i];
    const size_t n = st_elems(f);
    sb_addf(t, "%s%s: %s", i ? ", " : "", f->name, f->ndims ? "[" : "");
    for (size_t k = 0; k < n; k++) {
      if (k) sb_addf(t, " ");
      st_field_elem(t, f, p + f->offset + k * f->size);
    }
    if (f->ndims) sb_addf(t, "]");
  }
  sb_addf(t, "}");
}

typedef struct st_buf {
  const spvi_struct *s;
  const unsigned char *data;
} st_buf;

static const char *st_elem(const void *ctx, size_t i, char *buf, size_t cap) {
  const st_buf *b = ctx;
  sbuf t = {0};
  st_value(&t, b->s, b->data + i * b->s->size);
  char *v = sb_take(&t);
  snprintf(buf, cap, "%s", v ? v : "<out of memory>");
  free(v);
  return buf;
}

void cli_struct_print(FILE *f, int index, const spvi_struct *s, size_t count, const unsigned char *data, size_t max) {
  char head[160];
  snprintf(head, sizeof head, "arg%d struct %s[%zu]", index, s->name[0] ? s->name : "?", count);
  const st_buf b = {s, data};
  const cli_print_list l = {head, count, st_elem, NULL, &b};
  cli_print_list_out(f, &l, max);
}
