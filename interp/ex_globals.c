/*
 * ex_globals.c — the program state of a prepared module (ex_pstate): the storage of its
 * program-scope variables in global and constant memory, which outlives launches, and the pointer
 * encoding that every launch of the module uses.
 *
 * Lifetime (OpenCL C 3.0, Address Space Qualifiers, `global`: "These variables in the global
 * address space have the same lifetime as the program, and their values persist between calls to
 * any of the kernels in the program"): a CrossWorkgroup or UniformConstant module-scope OpVariable
 * gets its bytes once, when the module is loaded, initialised from its initializer (SPIR-V 3.32.8:
 * a constant, or the address of another variable) or zero (ibid., "Initialization": "Program scope
 * and static variables in the global address space are zero initialized by default"). Every launch
 * uses these bytes as they are, so a launch sees what earlier launches of the same module left.
 *
 * Pointers. A pointer stored in such a variable must mean the same in the next launch, so the
 * encoding (ex.h) cannot depend on the launch: allocation ids of module variables are fixed at
 * prepare time (1 + index), and for Physical32 the id field is sized here for the largest launch
 * of the module (its variables plus the most pointer parameters any kernel has). Pointers into a
 * launch's buffer arguments stay meaningful only during that launch (OpenCL C 3.0, "Restrictions":
 * such pointers "should work as expected as long as they are shared virtual memory pointers":
 * SVM pointers are host addresses, valid in every launch, ex_svm.c).
 *
 * Private module variables (Private storage, or the module-scope Function variables llvm-spirv
 * emits for private initialisers, see loader/ld_const.c) are per work-item: their initialisers are
 * written once here into an image of the private arena (priv_init), which every work-item's arena
 * gets when it starts (ex_lanes.c), so each one sees its own initialised copy.
 *
 * Launches of one module that has CrossWorkgroup variables run one at a time: ex_pstate_acquire
 * fails while another holds the state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex.h"

static int bits_for(uint64_t n) {
  int b = 0;
  while (((uint64_t)1 << b) < n) b++;
  return b;
}

static uint64_t encode(const ex_pstate *ps, uint32_t alloc) { return ((uint64_t)alloc << ps->shift) | ps->bias; }

/* Add the address of allocation `alloc` to the pointer-sized offset stored at dst. */
static void relocate(const ex_pstate *ps, uint8_t *dst, uint32_t alloc) {
  const unsigned pb = ps->prog->ptr_bytes;
  uint64_t v = 0;
  memcpy(&v, dst, pb); /* little-endian host: the low bytes */
  v += encode(ps, alloc);
  memcpy(dst, &v, pb);
}

/* The bytes a module variable's initializer goes to: its own (global, constant), or its place in
 * the private image; NULL for the others (local memory, built-ins). */
static uint8_t *var_bytes(const ex_pstate *ps, const ld_global *g, uint32_t id) {
  const ex_alloc *a = &ps->prog->static_allocs[id];
  if (a->space != EX_AS_PRIVATE) return ps->mem[id];
  if (!ps->priv_init || g->builtin != LD_NONE || a->offset < ps->priv_lo) return NULL;
  return ps->priv_init + (a->offset - ps->priv_lo);
}

/* The private image: the span of the private variables that have an initializer. */
static bool private_image(ex_pstate *ps) {
  const ex_program *p = ps->prog;
  const ld_module *m = p->ld;
  uint64_t lo = UINT64_MAX, hi = 0;
  for (uint32_t gi = 0; gi < m->nglobals; gi++) {
    const ex_alloc *a = &p->static_allocs[p->global_alloc[gi]];
    if (a->space != EX_AS_PRIVATE || !m->globals[gi].init || m->globals[gi].builtin != LD_NONE) continue;
    if (a->offset < lo) lo = a->offset;
    if (a->offset + a->size > hi) hi = a->offset + a->size;
  }
  if (hi <= lo) return true;
  ps->priv_init = calloc(hi - lo, 1);
  ps->priv_lo = lo;
  ps->priv_len = hi - lo;
  return ps->priv_init != NULL;
}

/* Whether the pointer-sized offset at `at`, to be relocated against allocation `alloc`, keeps the
 * pointer in that allocation's offset field (ex.h "Pointers"): an address constant such as
 * `&x[2^38]` (OpSpecConstantOp, ld_specop.c) would otherwise name the next allocation and its
 * accesses land there silently. False with a message naming the variable. */
static bool reloc_fits(const ex_pstate *ps, const uint8_t *at, uint32_t alloc, char *err, size_t errlen) {
  const ex_program *p = ps->prog;
  uint64_t v = 0;
  memcpy(&v, at, p->ptr_bytes); /* little-endian host: the low bytes */
  const int64_t off = p->ptr_bytes == 8 ? (int64_t)v : (int64_t)(int32_t)(uint32_t)v;
  if (off >= -(int64_t)ps->bias && off < (int64_t)ps->bias) return true;
  char nb[96];
  const uint32_t var = p->static_allocs[alloc].var_id;
  snprintf(err, errlen,
           "%s: an address constant points %lld bytes from the start of variable `%s`, beyond the %llu bytes "
           "spvi's %u-bit pointers can address on either side of it",
           p->ld->path, (long long)off, ld_id_name(p->ld, var, nb, sizeof nb), (unsigned long long)ps->bias,
           p->ptr_bytes * 8);
  return false;
}

/* Every relocated offset of the module (register constants, variable initializers) fits. */
static bool relocs_fit(const ex_pstate *ps, char *err, size_t errlen) {
  const ex_program *p = ps->prog;
  const ld_module *m = p->ld;
  for (uint32_t i = 0; i < p->naddr; i++)
    if (!reloc_fits(ps, p->const_init + (p->addr_reg[i] - p->const_base), p->addr_alloc[i], err, errlen)) return false;
  for (uint32_t gi = 0; gi < m->nglobals; gi++) {
    const uint32_t init = m->globals[gi].init;
    if (!init || init >= m->bound || m->ids[init].kind != LD_ID_CONST) continue;
    const ld_const *c = &m->consts[m->ids[init].index];
    const ld_type *ct = ld_type_of(m, c->type);
    for (uint32_t k = 0; ct && k < c->nrelocs; k++) {
      const ld_reloc *rl = &c->relocs[k];
      if (rl->global < m->bound && m->ids[rl->global].kind == LD_ID_GLOBAL &&
          rl->offset + p->ptr_bytes <= ct->reg_size &&
          !reloc_fits(ps, c->bytes + rl->offset, p->global_alloc[m->ids[rl->global].index], err, errlen))
        return false;
    }
  }
  return true;
}

/* Initializers (SPIR-V 3.32.8 OpVariable): a constant, whose pointers to other variables are
 * relocated, or the address of another module-scope variable. */
static void init_globals(ex_pstate *ps) {
  const ex_program *p = ps->prog;
  const ld_module *m = p->ld;
  for (uint32_t gi = 0; gi < m->nglobals; gi++) {
    const ld_global *g = &m->globals[gi];
    const uint32_t id = p->global_alloc[gi];
    uint8_t *base = var_bytes(ps, g, id);
    const uint64_t size = p->static_allocs[id].size;
    if (!g->init || !base || g->init >= m->bound) continue;
    const ld_id *e = &m->ids[g->init];
    if (e->kind == LD_ID_GLOBAL) {
      if (size >= p->ptr_bytes) relocate(ps, base, p->global_alloc[e->index]);
      continue;
    }
    if (e->kind != LD_ID_CONST) continue;
    const ld_const *c = &m->consts[e->index];
    const ld_type *ct = ld_type_of(m, c->type);
    if (!ct) continue;
    memcpy(base, c->bytes, ct->reg_size < size ? ct->reg_size : size);
    for (uint32_t k = 0; k < c->nrelocs; k++) {
      const ld_reloc *rl = &c->relocs[k];
      if (rl->global < m->bound && m->ids[rl->global].kind == LD_ID_GLOBAL && rl->offset + p->ptr_bytes <= size)
        relocate(ps, base + rl->offset, p->global_alloc[m->ids[rl->global].index]);
    }
  }
}

ex_pstate *ex_pstate_new(const ex_program *p, char *err, size_t errlen) {
  const ld_module *m = p->ld;
  ex_pstate *ps = calloc(1, sizeof *ps);
  if (!ps) return NULL;
  ps->prog = p;
  atomic_init(&ps->busy, false);
  ps->mem = calloc(p->nstatic + 1, sizeof *ps->mem);
  if (!ps->mem) {
    free(ps);
    return NULL;
  }
  /* the largest allocation table of any launch: null, module and function variables, and one
   * allocation per parameter of the kernel with the most */
  uint64_t max_params = 0;
  for (uint32_t e = 0; e < m->nentries; e++) {
    const ex_func *f = ex_find_func(p, m->entries[e].func);
    if (f && f->nparams > max_params) max_params = f->nparams;
  }
  const uint64_t nallocs = 1 + (uint64_t)p->nstatic + max_params;
  if (p->ptr_bytes == 8) {
    ps->shift = 40;
    ps->ptr_mask = ~(uint64_t)0;
  } else {
    int idbits = bits_for(nallocs);
    if (idbits < 1) idbits = 1;
    ps->shift = 32u - (unsigned)idbits;
    ps->ptr_mask = 0xFFFFFFFFu;
  }
  ps->off_mask = ((uint64_t)1 << ps->shift) - 1;
  ps->bias = (uint64_t)1 << (ps->shift - 1);
  for (uint32_t i = 1; i <= p->nstatic; i++) {
    const ex_alloc *a = &p->static_allocs[i];
    if (a->size >= ps->bias) {
      char nb[96];
      snprintf(err, errlen, "%s: variable `%s` of %llu bytes does not fit the %u-bit address space of this module",
               m->path, ld_id_name(m, a->var_id, nb, sizeof nb), (unsigned long long)a->size, p->ptr_bytes * 8);
      ex_pstate_free(ps);
      return NULL;
    }
    if (a->space != EX_AS_GLOBAL && a->space != EX_AS_CONSTANT) continue;
    ps->mem[i] = calloc(a->size ? a->size : 1, 1);
    if (!ps->mem[i]) {
      ex_pstate_free(ps);
      return NULL;
    }
    if (a->space == EX_AS_GLOBAL) ps->writable = true;
  }
  if (!private_image(ps) || !relocs_fit(ps, err, errlen)) {
    ex_pstate_free(ps);
    return NULL;
  }
  init_globals(ps);
  return ps;
}

void ex_pstate_free(ex_pstate *ps) {
  if (!ps) return;
  for (uint32_t i = 0; ps->mem && i <= ps->prog->nstatic; i++) free(ps->mem[i]);
  free(ps->mem);
  free(ps->priv_init);
  free(ps);
}

bool ex_pstate_acquire(ex_pstate *ps) {
  if (!ps->writable) return true;
  return !atomic_exchange(&ps->busy, true);
}

void ex_pstate_release(ex_pstate *ps) {
  if (ps->writable) atomic_store(&ps->busy, false);
}
