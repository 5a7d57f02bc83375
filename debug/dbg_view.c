/*
 * dbg_view.c — the paused launch as the debugger shows it: frames of a work-item, its ids, memory
 * read without faulting (with the reason when it cannot be), and the names allocations and
 * pointers go by in values and messages (the source's names where the symbols have them).
 *
 * Reads the launch through ex_inspect.h and names through dbg_sym.c; calls nothing above them.
 */
#include <stdio.h>
#include <string.h>

#include "dbg.h"

unsigned dbg_frame_count(dbg_session *s, unsigned w) {
  ex_insp_item it;
  ex_insp_item_get(s->x, w, &it);
  return it.depth;
}

bool dbg_frame_pos(dbg_session *s, unsigned w, unsigned k, uint32_t *fn, uint32_t *idx) {
  return ex_insp_frame(s->x, w, k, fn, idx);
}

static void item_text(const dbg_session *s, unsigned w, dbg_buf *b) {
  uint64_t gid[3], lid[3], group[3], size[3];
  ex_insp_item_ids(s->x, w, gid, lid);
  ex_insp_group(s->x, group, size);
  dbg_bprintf(b, "work-item global (%llu,%llu,%llu) local (%llu,%llu,%llu) group (%llu,%llu,%llu)",
              (unsigned long long)gid[0], (unsigned long long)gid[1], (unsigned long long)gid[2],
              (unsigned long long)lid[0], (unsigned long long)lid[1], (unsigned long long)lid[2],
              (unsigned long long)group[0], (unsigned long long)group[1], (unsigned long long)group[2]);
}

void dbg_print_item(dbg_session *s, const char *before, unsigned w, const char *after) {
  dbg_buf b = {0};
  dbg_bprintf(&b, "%s", before);
  item_text(s, w, &b);
  dbg_bprintf(&b, "%s", after);
  dbg_put_buf(s, &b);
}

uint64_t dbg_group_linear(const dbg_session *s, const uint64_t g[3]) {
  const uint64_t *n = s->nd->ngroups;
  return (g[2] * n[1] + g[1]) * n[0] + g[0];
}

/* ---- names ------------------------------------------------------------------------------------ */

/* The DebugInfo parameter i of the kernel function of the kernel's name (llvm-spirv wraps kernels),
 * NULL when none. */
static const dbg_var *kernel_param(const dbg_session *s, int i) {
  const ld_module *m = s->sym.m;
  const char *kname = m->entries[s->nd->kernel].name;
  for (uint32_t v = 0; v < s->sym.nvars; v++) {
    const dbg_var *x = &s->sym.vars[v];
    if (x->argno == (uint32_t)i + 1 && x->func != LD_NONE && s->sym.funcs[x->func].name &&
        strcmp(s->sym.funcs[x->func].name, kname) == 0)
      return x;
  }
  return NULL;
}

/* Name of kernel argument i: OpName of the entry's parameter, else the DebugInfo parameter of the
 * kernel function, else argI. */
static void arg_name(dbg_session *s, int i, char *buf, size_t cap) {
  const ld_module *m = s->sym.m;
  const ld_function *entry = &m->funcs[s->nd->entry_fn];
  const char *n = (uint32_t)i < entry->nparams ? m->ids[entry->params[i]].name : NULL;
  const dbg_var *x = n ? NULL : kernel_param(s, i);
  if (x) n = x->name;
  if (n && n[0]) snprintf(buf, cap, "%s", n);
  else snprintf(buf, cap, "arg%d", i);
}

bool dbg_arg_buffer(dbg_session *s, const char *name, const dbg_type **type, uint64_t *ptr) {
  const ld_function *entry = &s->sym.m->funcs[s->nd->entry_fn];
  for (uint32_t i = 0; i < entry->nparams; i++) {
    char n[160], argn[24];
    arg_name(s, (int)i, n, sizeof n);
    snprintf(argn, sizeof argn, "arg%u", i);
    if (strcmp(n, name) != 0 && strcmp(argn, name) != 0) continue;
    ex_insp_alloc a;
    for (uint32_t id = 1; ex_insp_alloc_get(s->x, id, &a); id++)
      if (a.arg_index == (int)i && (a.space == SPVI_AS_GLOBAL || a.space == SPVI_AS_CONSTANT)) {
        const dbg_var *x = kernel_param(s, (int)i);
        *type = x && x->type && x->type->kind == DK_POINTER
                  ? x->type
                  : dbg_spv_type(&s->sym, s->sym.m->ids[entry->params[i]].type);
        *ptr = ex_insp_alloc_ptr(s->x, id, 0);
        return true;
      }
    return false;
  }
  return false;
}

/* The name of allocation id: its argument's or variable's name, "arg2", "%66". */
static void alloc_name(dbg_session *s, uint32_t id, char *buf, size_t cap) {
  ex_insp_alloc a;
  if (!ex_insp_alloc_get(s->x, id, &a)) {
    snprintf(buf, cap, "alloc%u", id);
    return;
  }
  if (a.arg_index >= 0) {
    arg_name(s, a.arg_index, buf, cap);
    return;
  }
  if (!a.var_id) {
    snprintf(buf, cap, "alloc%u", id);
    return;
  }
  /* the source's name first: llvm-spirv names a kernel's `local float t[4]` "kernel.t" */
  const char *n = NULL;
  for (uint32_t v = 0; !n && v < s->sym.nvars; v++)
    if (s->sym.vars[v].global_id == a.var_id) n = s->sym.vars[v].name;
  if (!n) n = s->sym.m->ids[a.var_id].name;
  for (uint32_t v = 0; !n && v < s->sym.nvars; v++)
    for (uint32_t k = 0; k < s->sym.vars[v].nlocs && !n; k++)
      if (s->sym.vars[v].locs[k].declare && s->sym.vars[v].locs[k].id == a.var_id) n = s->sym.vars[v].name;
  if (n) snprintf(buf, cap, "%s", n);
  else snprintf(buf, cap, "%%%u", a.var_id);
}

void dbg_describe_ptr(dbg_session *s, uint64_t p, char *buf, size_t cap) {
  uint32_t id;
  int64_t off;
  if (!ex_insp_ptr_alloc(s->x, p, &id, &off)) {
    snprintf(buf, cap, p ? "no memory" : "null");
    return;
  }
  char name[160];
  alloc_name(s, id, name, sizeof name);
  snprintf(buf, cap, "%s%s%lld", name, off < 0 ? "" : "+", (long long)off);
}

/* ---- memory ----------------------------------------------------------------------------------- */

uint8_t *dbg_mem(dbg_session *s, unsigned w, uint64_t p, uint64_t n, char *why, size_t cap) {
  uint8_t *m = ex_insp_mem(s->x, w, p, n, false);
  if (m) return m;
  uint32_t id;
  int64_t off;
  ex_insp_alloc a;
  if (!ex_insp_ptr_alloc(s->x, p, &id, &off) || !ex_insp_alloc_get(s->x, id, &a)) {
    snprintf(why, cap, "Cannot access memory at address 0x%llx (%s).", (unsigned long long)p,
             p ? "it points to no memory" : "a null pointer");
    return NULL;
  }
  char d[200];
  alloc_name(s, id, d, sizeof d);
  snprintf(why, cap, "Cannot access %llu bytes at offset %lld of `%s` (%s memory of %llu bytes).",
           (unsigned long long)n, (long long)off, d, dbg_space_name(a.space), (unsigned long long)a.size);
  return NULL;
}

int dbg_ptr_space(const dbg_session *s, uint64_t p) {
  uint32_t id;
  int64_t off;
  ex_insp_alloc a;
  if (!ex_insp_ptr_alloc(s->x, p, &id, &off) || !ex_insp_alloc_get(s->x, id, &a)) return SPVI_AS_GENERIC;
  return a.space;
}
