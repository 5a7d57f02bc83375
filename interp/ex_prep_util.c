/*
 * ex_prep_util.c — the helpers every translation pass shares (ex_prep.h): allocation that never
 * fails (prep_nomem), messages about the current instruction, appending code and aux words, the
 * constant area, and operands. The bottom of the translation: it calls no other ex_prep*.c file, so
 * the passes (ex_prep_*.c) stand on it and the driver (ex_prepare.c) on both, without a loop.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ex_prep.h"
#include "gen_spv_tables.h"

/* ---- memory ------------------------------------------------------------------------------------ */

_Noreturn void prep_nomem(prep *s) { longjmp(s->nomem, 1); }

void *prep_realloc(prep *s, void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) prep_nomem(s);
  return q;
}

uint32_t *prep_scratch(prep *s, size_t n) {
  if (n > s->captmp) {
    s->tmp = prep_realloc(s, s->tmp, n * sizeof *s->tmp);
    s->captmp = n;
  }
  return s->tmp;
}

/* ---- messages and code --------------------------------------------------------------------------- */

bool prep_fail(prep *s, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  char where[400] = "";
  if (s->cur) {
    const char *on = spv_op_name(s->cur->opcode);
    int k = snprintf(where, sizeof where, " (%s", on ? on : "?");
    if (s->cur->result && k > 0 && (size_t)k < sizeof where)
      k += snprintf(where + k, sizeof where - (size_t)k, " %%%u", s->cur->result);
    if (k > 0 && (size_t)k < sizeof where)
      k += snprintf(where + k, sizeof where - (size_t)k, ", word %u", s->cur->word_offset);
    if (s->cur->line && k > 0 && (size_t)k < sizeof where) {
      const char *file = s->cur->file && s->cur->file < s->m->bound ? s->m->ids[s->cur->file].name : NULL;
      k += snprintf(where + k, sizeof where - (size_t)k, ", %s:%u", file ? file : "?", s->cur->line);
    }
    if (k > 0 && (size_t)k < sizeof where) snprintf(where + k, sizeof where - (size_t)k, ")");
  }
  char fname[128] = "";
  if (s->fn) {
    char nb[96];
    snprintf(fname, sizeof fname, "function `%s`: ", ld_id_name(s->m, s->fn->id, nb, sizeof nb));
  }
  snprintf(s->err, s->errlen, "%s: %s%s%s", s->m->path ? s->m->path : "module", fname, msg, where);
  return false;
}

_Noreturn void prep_limit(prep *s, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  prep_fail(s, "%s", msg);
  longjmp(s->nomem, 2);
}

void prep_private_fits(prep *s, uint64_t regs, uint64_t priv, const char *what) {
  if (regs + priv <= SPVI_PRIVATE_MEM_SIZE) return; /* each term is below 2^33: no wrap */
  prep_limit(s,
             "%s brings a work-item's private memory to %llu bytes (registers %llu, private variables %llu), "
             "above its %llu bytes (SPVI_PRIVATE_MEM_SIZE)",
             what, (unsigned long long)(regs + priv), (unsigned long long)regs, (unsigned long long)priv,
             (unsigned long long)SPVI_PRIVATE_MEM_SIZE);
}

uint32_t prep_emit(prep *s, ex_insn in) {
  if (s->ncode == s->capcode) {
    s->code = prep_realloc(s, s->code, (s->capcode ? s->capcode * 2 : 64) * sizeof *s->code);
    s->capcode = s->capcode ? s->capcode * 2 : 64;
  }
  in.src = s->cur ? (uint32_t)(s->cur - s->fn->insns) : 0;
  s->code[s->ncode] = in;
  return s->ncode++;
}

uint32_t prep_aux(prep *s, uint32_t v) {
  if (s->naux == s->capaux) {
    s->aux = prep_realloc(s, s->aux, (s->capaux ? s->capaux * 2 : 64) * sizeof *s->aux);
    s->capaux = s->capaux ? s->capaux * 2 : 64;
  }
  s->aux[s->naux] = v;
  return s->naux++;
}

/* ---- constants and addresses -------------------------------------------------------------------- */

uint32_t prep_const(prep *s, const void *bytes, uint32_t size) {
  uint32_t sz = size ? size : 1;
  uint32_t off = (s->cbytes + 7u) & ~7u;
  /* every register is per work-item: checked before the constant area grows */
  prep_private_fits(s, (uint64_t)s->cbase + off + sz, s->p->private_size, "a constant");
  if (off + sz > s->ccap) {
    s->cinit = prep_realloc(s, s->cinit, (off + sz) * 2 + 64);
    s->ccap = (off + sz) * 2 + 64;
  }
  memset(s->cinit + s->cbytes, 0, off + sz - s->cbytes);
  if (bytes) memcpy(s->cinit + off, bytes, size);
  s->cbytes = off + sz;
  if (s->ncslots + 2 > s->capcslots) {
    s->cslots = prep_realloc(s, s->cslots, (s->capcslots ? s->capcslots * 2 : 64) * sizeof *s->cslots);
    s->capcslots = s->capcslots ? s->capcslots * 2 : 64;
  }
  s->cslots[s->ncslots++] = s->cbase + off;
  s->cslots[s->ncslots++] = sz;
  return s->cbase + off;
}

/* The launch adds the allocation's address to the register (the pointer encoding depends on the
 * launch for Physical32). */
void prep_addr_patch(prep *s, uint32_t reg, uint32_t alloc) {
  ex_program *p = s->p;
  p->addr_reg = prep_realloc(s, p->addr_reg, (p->naddr + 1) * sizeof *p->addr_reg);
  p->addr_alloc = prep_realloc(s, p->addr_alloc, (p->naddr + 1) * sizeof *p->addr_alloc);
  p->addr_reg[p->naddr] = reg;
  p->addr_alloc[p->naddr] = alloc;
  p->naddr++;
}

bool prep_storage_space(uint32_t sc, uint8_t *space) {
  switch (sc) {
  case SpvStorageClassFunction:
  case SpvStorageClassPrivate:
  case SpvStorageClassInput: *space = EX_AS_PRIVATE; return true;
  case SpvStorageClassWorkgroup: *space = EX_AS_LOCAL; return true;
  case SpvStorageClassCrossWorkgroup: *space = EX_AS_GLOBAL; return true;
  case SpvStorageClassUniformConstant: *space = EX_AS_CONSTANT; return true;
  default: return false;
  }
}

/* ---- operands ------------------------------------------------------------------------------------ */

struct ex_builtin_var *prep_builtin_var(prep *s, uint32_t id) {
  const ld_id *e = &s->m->ids[id];
  if (e->kind != LD_ID_GLOBAL || s->m->globals[e->index].builtin == LD_NONE) return NULL;
  for (uint32_t b = 0; b < s->p->nbuiltins; b++)
    if (s->p->builtins[b].alloc == s->p->global_alloc[e->index]) return &s->p->builtins[b];
  return NULL;
}

bool prep_operand(prep *s, uint32_t id, uint32_t *out) {
  if (id == 0 || id >= s->m->bound) return prep_fail(s, "operand %%%u is not a valid id", id);
  /* a built-in variable's address used as a value: its memory must hold the values (whole OpLoads
   * of it do not come here, see ex_prep_mem.c) */
  if (s->m->ids[id].kind == LD_ID_GLOBAL) {
    struct ex_builtin_var *bv = prep_builtin_var(s, id);
    if (bv) bv->materialize = true;
  }
  if (s->reg[id] != LD_NONE) {
    *out = s->reg[id];
    return true;
  }
  const ld_id *e = &s->m->ids[id];
  if (e->kind == LD_ID_CONST) {
    const ld_const *c = &s->m->consts[e->index];
    const ld_type *t = prep_type(s, c->type);
    if (!t) return prep_fail(s, "constant %%%u has no valid type", id);
    uint32_t r = prep_const(s, c->bytes, t->reg_size);
    for (uint32_t i = 0; i < c->nrelocs; i++) {
      uint32_t g = c->relocs[i].global;
      if (g >= s->m->bound || s->m->ids[g].kind != LD_ID_GLOBAL)
        return prep_fail(s, "constant %%%u points to a non-variable", id);
      prep_addr_patch(s, r + c->relocs[i].offset, s->p->global_alloc[s->m->ids[g].index]);
    }
    s->reg[id] = r;
    *out = r;
    return true;
  }
  return prep_fail(s, "operand %%%u is not a value available here", id);
}

bool prep_operands(prep *s, const ld_insn *in, unsigned n, uint32_t *r) {
  if (in->nops < n) return prep_fail(s, "too few operands");
  for (unsigned i = 0; i < n; i++)
    if (!prep_operand(s, in->ops[i], &r[i])) return false;
  return true;
}

uint32_t prep_reg_size(prep *s, uint32_t type_id) {
  const ld_type *t = prep_type(s, type_id);
  return t ? t->reg_size : 0;
}

bool prep_elem_of(prep *s, uint32_t type_id, prep_elem *e) {
  const ld_type *t = prep_type(s, type_id);
  if (!t) return prep_fail(s, "type %%%u is not a type", type_id);
  e->n = 1;
  if (t->kind == LD_TY_VECTOR) {
    e->n = t->count;
    t = prep_type(s, t->elem);
    if (!t) return prep_fail(s, "bad vector type");
  }
  switch (t->kind) {
  case LD_TY_INT:
    e->kind = 'i';
    e->bits = t->bits;
    return true;
  case LD_TY_FLOAT:
    e->kind = 'f';
    e->bits = t->bits;
    return true;
  case LD_TY_BOOL:
    e->kind = 'b';
    e->bits = 8;
    return true;
  case LD_TY_POINTER:
    e->kind = 'p';
    e->bits = s->m->pointer_bytes * 8;
    return true;
  default: return prep_fail(s, "expected a scalar or vector type, got %%%u", type_id);
  }
}
