/*
 * ld_decor.c — decorations: OpDecorate, OpDecorateId, OpDecorateString, OpMemberDecorate,
 * OpMemberDecorateString and decoration groups (OpDecorationGroup, OpGroupDecorate,
 * OpGroupMemberDecorate, SPIR-V 3.32.3 "Annotation Instructions"), collected into ld_module.decos sorted by target then
 * member, plus the lookups (ld_find_decoration and friends).
 *
 * Group decorations are expanded: each target of OpGroupDecorate receives a copy of every
 * decoration of the group, so later passes never need to know groups existed. The operands of the
 * decorations the loader itself interprets (LinkageAttributes, SpecId, BuiltIn, Offset, Alignment,
 * ArrayStride, CPacked, Constant) are checked for shape here, once, so their users can trust them.
 */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ld_internal.h"

/* Refuse absurd expansions of decoration groups (a hostile module could multiply its targets by
 * its decorations): at most this many decorations per word of the module, plus a margin. */
#define LD_DECOS_PER_WORD 8u
#define LD_DECOS_MARGIN 65536u

/* Operand words of the decorations the loader reads (SPIR-V 3.20 Decoration): -1 = a literal
 * string then one word (LinkageAttributes). */
static const struct {
  uint32_t deco;
  int nargs;
} deco_shapes[] = {
  {SpvDecorationSpecId, 1},      {SpvDecorationBuiltIn, 1},
  {SpvDecorationOffset, 1},      {SpvDecorationAlignment, 1},
  {SpvDecorationArrayStride, 1}, {SpvDecorationCPacked, 0},
  {SpvDecorationConstant, 0},    {SpvDecorationLinkageAttributes, -1},
};

typedef struct ld_decor_state {
  ld_raw_deco *v;
  uint32_t n, cap;
  uint32_t *groups_at; /* OpGroupDecorate / OpGroupMemberDecorate word offsets */
  uint32_t ngroups, groups_cap;
} decor_state;

static bool grow(ld_ctx *c, void **v, uint32_t *cap, size_t elem, uint32_t need) {
  if (need <= *cap) return true;
  uint32_t ncap = *cap ? *cap : 64;
  while (ncap < need) ncap *= 2;
  void *nv = ld_arena_array(c->tmp, ncap, elem);
  if (!nv) return ld_oom(c);
  if (*cap) memcpy(nv, *v, (size_t)*cap * elem);
  *v = nv;
  *cap = ncap;
  return true;
}

static bool push(ld_ctx *c, decor_state *s, const ld_decoration *d, uint32_t at) {
  uint64_t max = (uint64_t)c->nw * LD_DECOS_PER_WORD + LD_DECOS_MARGIN;
  if (s->n >= max)
    return ld_errf(c, at, "more than %llu decorations after expanding decoration groups (%u per word of the module)",
                   (unsigned long long)max, LD_DECOS_PER_WORD);
  void *v = s->v;
  if (!grow(c, &v, &s->cap, sizeof(ld_raw_deco), s->n + 1)) return false;
  s->v = v;
  s->v[s->n].d = *d;
  s->v[s->n].at = at;
  s->v[s->n].order = s->n;
  s->n++;
  return true;
}

/* Check the operand shape of a decoration the loader interprets. */
static bool check_shape(ld_ctx *c, const ld_raw *r, const ld_decoration *d) {
  for (size_t i = 0; i < sizeof deco_shapes / sizeof deco_shapes[0]; i++) {
    if (deco_shapes[i].deco != d->decoration) continue;
    const char *name = spv_decoration_name(d->decoration);
    if (deco_shapes[i].nargs >= 0) {
      if (d->nargs != (uint32_t)deco_shapes[i].nargs)
        return ld_errf(c, r->at, "%s %%%u %s has %u operand words, expects %d", r->info->name, d->target, name,
                       d->nargs, deco_shapes[i].nargs);
      return true;
    }
    /* LinkageAttributes "name" LinkageType */
    uint32_t k = 0;
    bool nul = false;
    for (; k < d->nargs && !nul; k++)
      for (unsigned b = 0; b < 4; b++)
        if (((d->args[k] >> (8 * b)) & 0xFFu) == 0) {
          nul = true;
          break;
        }
    if (!nul || d->nargs != k + 1)
      return ld_errf(c, r->at, "%s %%%u LinkageAttributes: expects a nul-terminated name and a linkage type",
                     r->info->name, d->target);
    if (d->args[k] > SpvLinkageTypeLinkOnceODR)
      return ld_errf(c, r->at, "%s %%%u LinkageAttributes: unknown linkage type %u", r->info->name, d->target,
                     d->args[k]);
    return true;
  }
  return true;
}

bool ld_decor_collect(ld_ctx *c, const ld_raw *r) {
  decor_state *s = c->decor;
  if (!s) {
    s = ld_arena_alloc(c->tmp, sizeof *s); /* scratch: freed with the load */
    if (!s) return ld_oom(c);
    c->decor = s;
  }
  ld_decoration d;
  memset(&d, 0, sizeof d);
  d.member = LD_NONE;
  switch (r->opcode) {
  case SpvOpDecorationGroup: return ld_define(c, r, r->w[1]);
  case SpvOpGroupDecorate:
  case SpvOpGroupMemberDecorate: {
    void *v = s->groups_at;
    if (!grow(c, &v, &s->groups_cap, sizeof(uint32_t), s->ngroups + 1)) return false;
    s->groups_at = v;
    s->groups_at[s->ngroups++] = r->at;
    return true;
  }
  case SpvOpDecorate:
  case SpvOpDecorateId:
  case SpvOpDecorateString:
    d.target = r->w[1];
    d.decoration = r->w[2];
    d.args = r->w + 3;
    d.nargs = r->nwords - 3u;
    break;
  case SpvOpMemberDecorate:
  case SpvOpMemberDecorateString:
    if (r->nwords < 4) return ld_errf(c, r->at, "%s has no decoration operand", r->info->name);
    d.target = r->w[1];
    d.member = r->w[2];
    d.decoration = r->w[3];
    d.args = r->w + 4;
    d.nargs = r->nwords - 4u;
    if (d.member == LD_NONE)
      return ld_errf(c, r->at, "%s %%%u member index %u is out of range", r->info->name, d.target, d.member);
    break;
  default: abort(); /* ld_module_preamble only forwards decoration opcodes */
  }
  if (!ld_ref(c, r, d.target, "decoration target")) return false;
  if (!spv_decoration_name(d.decoration))
    return ld_errf(c, r->at, "%s %%%u: unknown decoration %u", r->info->name, d.target, d.decoration);
  if (!check_shape(c, r, &d)) return false;
  return push(c, s, &d, r->at);
}

static int cmp_deco(const void *a, const void *b) {
  const ld_raw_deco *x = a, *y = b;
  if (x->d.target != y->d.target) return x->d.target < y->d.target ? -1 : 1;
  if (x->d.member != y->d.member) return x->d.member < y->d.member ? -1 : 1;
  return x->order < y->order ? -1 : (x->order > y->order);
}

/* Expand one OpGroupDecorate / OpGroupMemberDecorate against the (sorted) collected list. Only the
 * decorations collected before any expansion are group decorations, so `base` bounds the search. */
static bool expand_group(ld_ctx *c, decor_state *s, uint32_t base, const ld_raw *r) {
  uint32_t group = r->w[1];
  if (!ld_ref(c, r, group, "decoration group")) return false;
  if (!c->def_at[group] || ld_raw_at(c, c->def_at[group]).opcode != SpvOpDecorationGroup)
    return ld_errf(c, r->at, "%s: %%%u is not an OpDecorationGroup", r->info->name, group);
  /* first decoration of the group */
  uint32_t lo = 0, hi = base;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (s->v[mid].d.target < group) lo = mid + 1;
    else hi = mid;
  }
  bool member_form = r->opcode == SpvOpGroupMemberDecorate;
  uint32_t step = member_form ? 2 : 1;
  if ((r->nwords - 2u) % step)
    return ld_errf(c, r->at, "OpGroupMemberDecorate has an odd number of target/member words");
  for (uint32_t k = 2; k + step <= r->nwords; k += step) {
    uint32_t target = r->w[k];
    if (!ld_ref(c, r, target, "decoration group target")) return false;
    if (member_form && r->w[k + 1] == LD_NONE)
      return ld_errf(c, r->at, "OpGroupMemberDecorate %%%u member index %u is out of range", target, r->w[k + 1]);
    for (uint32_t j = lo; j < base && s->v[j].d.target == group; j++) {
      ld_decoration d = s->v[j].d;
      if (d.member != LD_NONE) continue; /* groups carry OpDecorate decorations only */
      d.target = target;
      if (member_form) d.member = r->w[k + 1];
      if (!push(c, s, &d, r->at)) return false;
    }
  }
  return true;
}

bool ld_decor_finish(ld_ctx *c) {
  ld_module *m = c->m;
  decor_state *s = c->decor;
  decor_state empty;
  memset(&empty, 0, sizeof empty);
  if (!s) s = &empty;
  if (s->n) qsort(s->v, s->n, sizeof s->v[0], cmp_deco);
  if (s->ngroups) {
    uint32_t base = s->n;
    for (uint32_t g = 0; g < s->ngroups; g++) {
      ld_raw r = ld_raw_at(c, s->groups_at[g]);
      if (!expand_group(c, s, base, &r)) return false;
    }
    if (s->n) qsort(s->v, s->n, sizeof s->v[0], cmp_deco); /* qsort(NULL, 0) is undefined (C11 7.22.5p1) */
  }
  m->decos = ld_arena_array(c->arena, s->n, sizeof(ld_decoration));
  c->deco_at = ld_arena_array(c->tmp, s->n, sizeof(uint32_t));
  if (!m->decos || !c->deco_at) return ld_oom(c);
  m->ndecos = s->n;
  for (uint32_t i = 0; i < s->n; i++) {
    m->decos[i] = s->v[i].d;
    c->deco_at[i] = s->v[i].at;
    ld_id *t = &m->ids[s->v[i].d.target];
    if (!t->first_deco) t->first_deco = i + 1;
  }
  return true;
}

bool ld_decor_check_targets(ld_ctx *c) {
  const ld_module *m = c->m;
  for (uint32_t i = 0; i < m->ndecos; i++) {
    const ld_decoration *d = &m->decos[i];
    if (!c->def_at[d->target])
      return ld_errf(c, c->deco_at[i], "decoration %s targets %%%u, which is never defined",
                     spv_decoration_name(d->decoration), d->target);
    if (d->member == LD_NONE) continue;
    const ld_type *t = ld_type_of(m, d->target);
    if (!t || t->kind != LD_TY_STRUCT)
      return ld_errf(c, c->deco_at[i], "member decoration %s: %%%u is not a struct type",
                     spv_decoration_name(d->decoration), d->target);
    if (d->member >= t->count)
      return ld_errf(c, c->deco_at[i],
                     "member decoration %s: member %u of struct %%%u does not exist (it has %u members)",
                     spv_decoration_name(d->decoration), d->member, d->target, t->count);
  }
  return true;
}

/* decos is sorted by (target, member): binary search for the first entry of (id, member), so a
 * struct with many members costs O(log n) per lookup. */
const ld_decoration *ld_find_member_decoration(const ld_module *m, uint32_t id, uint32_t member, uint32_t deco) {
  if (!m || id >= m->bound || !m->ids[id].first_deco) return NULL;
  uint32_t lo = m->ids[id].first_deco - 1, hi = m->ndecos;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    const ld_decoration *d = &m->decos[mid];
    if (d->target < id || (d->target == id && d->member < member)) lo = mid + 1;
    else hi = mid;
  }
  for (uint32_t i = lo; i < m->ndecos && m->decos[i].target == id && m->decos[i].member == member; i++)
    if (m->decos[i].decoration == deco) return &m->decos[i];
  return NULL;
}

const ld_decoration *ld_find_decoration(const ld_module *m, uint32_t id, uint32_t deco) {
  return ld_find_member_decoration(m, id, LD_NONE, deco);
}

uint32_t ld_linkage_type(const ld_module *m, uint32_t id) {
  const ld_decoration *d = ld_find_decoration(m, id, SpvDecorationLinkageAttributes);
  /* shape checked at collection: the last operand word is the linkage type */
  return d ? d->args[d->nargs - 1] : LD_NONE;
}
