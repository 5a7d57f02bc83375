/*
 * ld_ctx.c — the loader's ground floor: the helpers every pass shares, on the load context.
 *
 * Messages (ld_errf: the load's one error; ld_warnf; ld_oom), decoding (an instruction at a word
 * offset, a literal string operand, a quoted string for messages) and ids: defining a result id,
 * and checking that an operand id is in range (ld_ref), names a type (ld_need_type), a constant
 * (ld_need_const) or an integer constant (ld_const_uint). It calls only the arena (ld_arena.c):
 * every other loader file may call it (layer order: ld_internal.h).
 */
#include <stdio.h>
#include <string.h>

#include "ld_internal.h"

/* ---- messages ------------------------------------------------------------------------------- */

bool ld_errf(ld_ctx *c, uint32_t at, const char *fmt, ...) {
  if (c->failed) return false;
  c->failed = true;
  if (!c->err || c->errlen == 0) return false;
  int n = (at == LD_NONE) ? snprintf(c->err, c->errlen, "%s: ", c->path)
                          : snprintf(c->err, c->errlen, "%s: word %u: ", c->path, at);
  if (n < 0) n = 0;
  if ((size_t)n < c->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return false;
}

/* "<path>: <message>" to fn, when there is one. */
static void message(ld_ctx *c, void (*fn)(void *, const char *), const char *fmt, va_list ap) {
  if (!fn) return;
  char buf[1024];
  int n = snprintf(buf, sizeof buf, "%s: ", c->path);
  if (n < 0) n = 0;
  if ((size_t)n < sizeof buf) vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
  fn(c->opt->user, buf);
}

void ld_warnf(ld_ctx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  message(c, c->opt ? c->opt->warn : NULL, fmt, ap);
  va_end(ap);
}

void ld_notef(ld_ctx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  message(c, c->opt ? c->opt->note : NULL, fmt, ap);
  va_end(ap);
}

bool ld_oom(ld_ctx *c) { return ld_errf(c, LD_NONE, "out of memory while loading the module"); }

/* ---- decoding helpers ----------------------------------------------------------------------- */

ld_raw ld_raw_at(const ld_ctx *c, uint32_t at) {
  ld_raw r;
  r.at = at;
  r.w = c->w + at;
  r.opcode = (uint16_t)(r.w[0] & 0xFFFFu);
  r.nwords = (uint16_t)(r.w[0] >> 16);
  r.info = spv_op_info(r.opcode);
  return r;
}

bool ld_string(ld_ctx *c, const ld_raw *r, uint32_t first, const char **out, uint32_t *nwords) {
  size_t len = 0;
  bool done = false;
  for (uint32_t i = first; i < r->nwords && !done; i++)
    for (unsigned b = 0; b < 4; b++) {
      if (((r->w[i] >> (8 * b)) & 0xFFu) == 0) {
        done = true;
        break;
      }
      len++;
    }
  if (!done) return ld_errf(c, r->at, "%s: string operand is not nul-terminated within the instruction", r->info->name);
  char *s = ld_arena_alloc(c->arena, len + 1);
  if (!s) return ld_oom(c);
  for (size_t k = 0; k < len; k++) {
    uint32_t word = r->w[first + k / 4];
    s[k] = (char)((word >> (8 * (k % 4))) & 0xFFu);
  }
  *out = s;
  if (nwords) *nwords = (uint32_t)(len / 4 + 1);
  return true;
}

const char *ld_quote(const char *s, char *buf, size_t len) {
  size_t o = 0;
  if (len == 0) return buf;
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    size_t need = (ch >= 0x20 && ch < 0x7F && ch != '\\' && ch != '"') ? 1 : 4;
    if (o + need + 4 > len) { /* room for "..." and the nul */
      if (o + 4 <= len) memcpy(buf + o, "...", 3), o += 3;
      break;
    }
    if (need == 1) buf[o++] = (char)ch;
    else o += (size_t)snprintf(buf + o, len - o, "\\x%02x", ch);
  }
  buf[o] = '\0';
  return buf;
}

/* ---- ids ------------------------------------------------------------------------------------ */

bool ld_define(ld_ctx *c, const ld_raw *r, uint32_t id) {
  if (id == 0 || id >= c->m->bound)
    return ld_errf(c, r->at, "%s result id %u is out of range (the header's bound is %u)", r->info->name, id,
                   c->m->bound);
  if (c->def_at[id])
    return ld_errf(c, r->at, "%s defines %%%u, which is already defined at word %u", r->info->name, id, c->def_at[id]);
  /* Only OpTypeForwardPointer declares an id before defining it, and only OpTypePointer may then
   * define it (ld_types.c completes that case itself). */
  if (c->m->ids && c->m->ids[id].kind != LD_ID_NONE)
    return ld_errf(c, r->at, "%s defines %%%u, which an OpTypeForwardPointer declared as a pointer type", r->info->name,
                   id);
  c->def_at[id] = r->at;
  return true;
}

const char *ld_id_name(const ld_module *m, uint32_t id, char *buf, size_t len) {
  if (!buf || len == 0) return buf;
  if (m && id < m->bound && m->ids[id].kind != LD_ID_STRING && m->ids[id].name && m->ids[id].name[0])
    snprintf(buf, len, "%s", m->ids[id].name);
  else snprintf(buf, len, "%%%u", id);
  return buf;
}

ld_id *ld_ref(ld_ctx *c, const ld_raw *r, uint32_t id, const char *what) {
  if (id == 0 || id >= c->m->bound) {
    ld_errf(c, r->at, "%s %%%u is out of range (the header's bound is %u)", what, id, c->m->bound);
    return NULL;
  }
  return &c->m->ids[id];
}

/* ---- operands that must name a type or a constant ------------------------------------------- */

/* Operand id `id` in range and of kind `kind` (`noun`: "a type" ...): its entry, or NULL after an
 * error that says when the id is merely used before its definition. */
static const ld_id *need_kind(ld_ctx *c, const ld_raw *r, uint32_t id, const char *what, ld_id_kind kind,
                              const char *noun) {
  const ld_id *e = ld_ref(c, r, id, what);
  if (!e) return NULL;
  if (e->kind != kind) {
    ld_errf(c, r->at, "%s %%%u is not %s%s", what, id, noun,
            c->def_at[id] ? "" : " (it is not defined before this use)");
    return NULL;
  }
  return e;
}

const ld_type *ld_need_type(ld_ctx *c, const ld_raw *r, uint32_t id, const char *what) {
  const ld_id *e = need_kind(c, r, id, what, LD_ID_TYPE, "a type");
  return e ? &c->m->types[e->index] : NULL;
}

const ld_const *ld_need_const(ld_ctx *c, const ld_raw *r, uint32_t id, const char *what) {
  const ld_id *e = need_kind(c, r, id, what, LD_ID_CONST, "a constant");
  return e ? &c->m->consts[e->index] : NULL;
}

bool ld_const_uint(ld_ctx *c, const ld_raw *r, uint32_t id, const char *what, uint64_t *value) {
  const ld_const *k = ld_need_const(c, r, id, what);
  if (!k) return false;
  const ld_type *t = ld_type_of(c->m, k->type);
  if (!t || t->kind != LD_TY_INT) return ld_errf(c, r->at, "%s %%%u is not an integer constant", what, id);
  if (k->is_undef) return ld_errf(c, r->at, "%s %%%u is undefined (OpUndef)", what, id);
  uint64_t v = 0;
  switch (t->bits) {
  case 8: {
    uint8_t x;
    memcpy(&x, k->bytes, 1);
    v = x;
    break;
  }
  case 16: {
    uint16_t x;
    memcpy(&x, k->bytes, 2);
    v = x;
    break;
  }
  case 32: {
    uint32_t x;
    memcpy(&x, k->bytes, 4);
    v = x;
    break;
  }
  default: memcpy(&v, k->bytes, 8); break;
  }
  *value = v;
  return true;
}
