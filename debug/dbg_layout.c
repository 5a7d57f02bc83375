/*
 * dbg_layout.c — spvi_param_struct (include/spvi.h, "struct layouts"): the layout of a kernel
 * parameter's struct type as the debugger's symbols see it (dbg_sym.c), without a launch. The
 * member names and integer signedness come from the parameter's OpenCL.DebugInfo.100 type when the
 * module has one whose size is the SPIR-V type's; otherwise from the SPIR-V type, whose members are
 * named by position.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

/* Deeper nesting than this is refused rather than followed (a struct cannot hold itself by value,
 * so only a malformed module gets here). */
#define LAYOUT_MAX_DEPTH 32

static spvi_struct *layout_struct(const dbg_type *t, bool names, unsigned depth);

/* Field f from member type t: arrays become dims (outermost first), their element the field. */
static bool layout_field(spvi_field *f, const dbg_type *t, bool names, unsigned depth) {
  while (t->kind == DK_ARRAY && t->elem && f->ndims < sizeof f->dims / sizeof f->dims[0]) {
    f->dims[f->ndims++] = t->count;
    t = t->elem;
  }
  f->size = (size_t)t->size;
  f->vec_width = 1;
  switch (t->kind) {
  case DK_BOOL: f->kind = SPVI_S_BOOL, f->bits = 8; return true;
  case DK_INT: f->kind = t->is_signed ? SPVI_S_INT : SPVI_S_UINT, f->bits = t->bits; return true;
  case DK_FLOAT: f->kind = SPVI_S_FLOAT, f->bits = t->bits; return true;
  case DK_POINTER: f->kind = SPVI_S_UINT, f->bits = (unsigned)t->size * 8; return true;
  case DK_VECTOR:
    if (t->elem && (t->elem->kind == DK_INT || t->elem->kind == DK_FLOAT || t->elem->kind == DK_BOOL)) {
      f->kind = t->elem->kind == DK_FLOAT  ? SPVI_S_FLOAT
                : t->elem->kind == DK_BOOL ? SPVI_S_BOOL
                : t->elem->is_signed       ? SPVI_S_INT
                                           : SPVI_S_UINT;
      f->bits = t->elem->kind == DK_BOOL ? 8 : t->elem->bits;
      f->vec_width = t->count;
      return true;
    }
    break;
  case DK_STRUCT:
    f->kind = SPVI_S_OTHER, f->vec_width = 0;
    f->sub = layout_struct(t, names, depth + 1);
    return f->sub != NULL;
  default: break;
  }
  f->kind = SPVI_S_OTHER, f->bits = 0, f->vec_width = 0; /* bytes of no numeric type */
  return true;
}

/* One block holds the struct, its fields and their names; sub-structs are blocks of their own. */
static spvi_struct *layout_struct(const dbg_type *t, bool names, unsigned depth) {
  if (depth > LAYOUT_MAX_DEPTH) return NULL;
  const int n = (int)t->count;
  size_t text = strlen(t->name ? t->name : "") + 1;
  for (int i = 0; i < n; i++)
    text += (names && t->mnames[i][0] && strcmp(t->mnames[i], "?") ? strlen(t->mnames[i]) : 12) + 1;
  spvi_struct *s = calloc(1, sizeof *s + (size_t)n * sizeof(spvi_field) + text);
  if (!s) return NULL;
  spvi_field *fields = (spvi_field *)(s + 1);
  char *p = (char *)(fields + n);
  s->name = strcpy(p, t->name ? t->name : "");
  p += strlen(p) + 1;
  s->size = (size_t)t->size;
  s->fields = fields;
  for (int i = 0; i < n; i++) {
    /* unnamed members (DebugInfo without a name) are named by position too */
    if (names && t->mnames[i][0] && strcmp(t->mnames[i], "?")) strcpy(p, t->mnames[i]);
    else snprintf(p, 13, "f%d", i);
    fields[i].name = p;
    p += strlen(p) + 1;
    fields[i].offset = (size_t)t->offsets[i];
    s->nfields = i + 1; /* so that spvi_struct_free frees what is built */
    if (!layout_field(&fields[i], t->members[i], names, depth)) {
      spvi_struct_free(s);
      return NULL;
    }
  }
  return s;
}

void spvi_struct_free(spvi_struct *s) {
  if (!s) return;
  for (int i = 0; i < s->nfields; i++) spvi_struct_free((spvi_struct *)s->fields[i].sub);
  free(s);
}

/* Index in m->funcs of the function kernel `name` enters, or LD_NONE. */
static uint32_t layout_kernel_func(const ld_module *m, const char *name) {
  for (uint32_t e = 0; e < m->nentries; e++) {
    if (strcmp(m->entries[e].name, name) != 0) continue;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++)
      if (m->funcs[fi].id == m->entries[e].func) return fi;
  }
  return LD_NONE;
}

spvi_struct *spvi_param_struct(const spvi_module *mod, int kernel, int index) {
  const ld_module *m = ex_module_ld(mod);
  if (!m || !spvi_kernel_param(mod, kernel, index)) return NULL;
  const uint32_t fi = layout_kernel_func(m, spvi_kernel_name(mod, kernel));
  if (fi == LD_NONE || (uint32_t)index >= m->funcs[fi].nparams) return NULL;
  /* the pointee of a pointer parameter (a by-value struct is a pointer with ByVal too) */
  uint32_t sid = m->ids[m->funcs[fi].params[index]].type;
  const ld_type *pt = ld_type_of(m, sid);
  if (pt && pt->kind == LD_TY_POINTER) sid = pt->elem;
  const ld_type *st = ld_type_of(m, sid);
  if (!st || st->kind != LD_TY_STRUCT) return NULL;
  dbg_syms y;
  spvi_struct *r = NULL;
  if (dbg_syms_build_module(&y, m, NULL)) {
    /* the parameter's DebugLocalVariable: in the entry function, or in the function of the
     * kernel's name it calls (llvm-spirv enters a kernel through a wrapper of the same name) */
    const char *kname = spvi_kernel_name(mod, kernel);
    const dbg_type *t = NULL;
    for (uint32_t i = 0; i < y.nvars && !t; i++) {
      const dbg_var *v = &y.vars[i];
      const bool same = v->func == fi ||
                        (v->func < m->nfuncs && y.funcs[v->func].name && strcmp(y.funcs[v->func].name, kname) == 0);
      if (same && v->argno == (uint32_t)index + 1) t = v->type;
    }
    if (t && t->kind == DK_POINTER) t = t->elem;
    const bool named = t && t->kind == DK_STRUCT && t->size == st->size;
    r = layout_struct(named ? t : dbg_spv_type(&y, sid), named, 0);
  }
  dbg_syms_free(&y);
  return r;
}
