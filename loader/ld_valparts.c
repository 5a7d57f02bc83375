/*
 * ld_valparts.c — a large module cut into parts that the SPIRV-Tools validator checks on several
 * threads at once (issue #18: loading a 1 MiB module in 50 ms; the validator is 80% of a load and
 * its time grows with the module's size).
 *
 * A part is the module's header and module-scope section and a subset of its functions, in their
 * order. The functions are grouped so that every rule the validator checks on an instruction sees
 * the same definitions in the part as in the whole module:
 *   - a function and every function it names go to the same part: an id operand of its body (found
 *     by the grammar's operand codes, as ld_ids.c walks them) that is another function or defined
 *     in one (OpFunctionCall's callee, OpEnqueueKernel's Invoke, ...) joins the two (union-find).
 *     So call graphs are whole (SPIR-V 2.16.1: no recursion; the validator's interface checks
 *     follow an entry point's calls) and no body refers to a dropped id. Words the walk cannot
 *     decode (an unknown enumerant, a set without a grammar here) all count as ids: joining too
 *     much costs balance, never the verdict;
 *   - module-scope instructions that name a function or an id defined in one (OpName, OpDecorate
 *     and the other annotations, OpEntryPoint, OpExecutionMode) stay in the parts that hold it,
 *     OpGroupDecorate keeps the targets the part holds. Every other module-scope instruction stays
 *     in every part; if one of them names an id defined in a function (a debug-info
 *     DebugFunction, a SPV_INTEL_function_pointers constant), the module is not cut;
 *   - every part has an entry point (the validator refuses a module without one unless it
 *     declares Linkage), and two entry points with the same name and execution model (2.16.1,
 *     which the validator checks across the module) leave the module whole.
 * Every instruction is thus validated in at least one part, with every definition it names. The
 * verdict is the whole module's; with several errors, the one reported is the first by word offset
 * over the parts' first errors (the whole module's validator reports its first in its own order).
 * Duplicate result ids across parts are not the validator's to see here: the loader refuses them
 * itself (ld_define).
 */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ld_internal.h"

struct ld_valplan {
  uint32_t nparts;
  uint32_t first_fn; /* instruction index of the first OpFunction */
  uint32_t bound;
  uint32_t *owner;   /* per id: 0 at module scope, else the defining function's ordinal + 1 */
  uint32_t *part_of; /* per function ordinal */
  uint8_t *set;      /* per id: the ld_extset of an OpExtInstImport + 1, 0 for other ids */
};

/* Module-scope instructions whose first operand (OpEntryPoint: second) is the id they are about. */
static bool annotation(uint32_t op) {
  switch (op) {
  case SpvOpName:
  case SpvOpMemberName:
  case SpvOpDecorate:
  case SpvOpMemberDecorate:
  case SpvOpDecorateId:
  case SpvOpDecorateString:
  case SpvOpMemberDecorateString:
  case SpvOpExecutionMode:
  case SpvOpExecutionModeId:
  case SpvOpEntryPoint: return true;
  default: return false;
  }
}

static uint32_t uf_find(uint32_t *parent, uint32_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

static const uint32_t *insn(const uint32_t *w, const uint32_t *insn_at, uint32_t i) { return w + insn_at[i]; }

/* The function ordinal + 1 owning id, 0 for module scope or out of range. */
static uint32_t owner_of(const ld_valplan *p, uint32_t id) { return id < p->bound ? p->owner[id] : 0; }

/* The walk over one instruction's id operands (see the top): visit(p, arg, id) for each. */
typedef void visit_fn(const ld_valplan *p, void *arg, uint32_t id);
typedef struct walk {
  const ld_valplan *p;
  const uint32_t *in;
  uint32_t wc, pos;
  visit_fn *visit;
  void *arg;
} walk;

static void walk_codes(walk *wk, const char *codes);

/* Every word from wk->pos on, as ids (words the walk cannot decode). */
static void rest_as_ids(walk *wk) {
  for (; wk->pos < wk->wc; wk->pos++) wk->visit(wk->p, wk->arg, wk->in[wk->pos]);
}

static void skip_string(walk *wk) {
  while (wk->pos < wk->wc) {
    const uint32_t w = wk->in[wk->pos++];
    if (!(w & 0xFFu) || !(w & 0xFF00u) || !(w & 0xFF0000u) || !(w & 0xFF000000u)) return;
  }
}

/* An enum with parameters: the value, then the parameters of the enumerant or of each set bit. */
static void walk_enum(walk *wk, char code) {
  const uint32_t v = wk->in[wk->pos++];
  const bool bits = spv_enum_is_bits(code);
  for (uint32_t b = 0; b < 32 && wk->pos <= wk->wc; b++) {
    const uint32_t e = bits ? v & (1u << b) : v;
    if (bits && !e) continue;
    const char *params = spv_enum_params(code, e);
    if (!params) return rest_as_ids(wk);
    walk_codes(wk, params);
    if (!bits) return;
  }
}

static void walk_codes(walk *wk, const char *codes) {
  while (*codes && wk->pos < wk->wc) {
    const char code = *codes++;
    const char q = (*codes == '?' || *codes == '*') ? *codes++ : 0;
    for (unsigned n = 0; wk->pos < wk->wc && (q == '*' || n < 1); n++) {
      switch (code) {
      case 't':
      case 'r':
      case 'l': wk->pos++; break;
      case 'i': wk->visit(wk->p, wk->arg, wk->in[wk->pos++]); break;
      case 's': skip_string(wk); break;
      case 'P': /* (id, id) */
        wk->visit(wk->p, wk->arg, wk->in[wk->pos++]);
        if (wk->pos < wk->wc) wk->visit(wk->p, wk->arg, wk->in[wk->pos++]);
        break;
      case 'W': /* (id, literal) */
        wk->visit(wk->p, wk->arg, wk->in[wk->pos]);
        wk->pos += 2;
        break;
      /* A context-dependent literal ends its instruction's operands (OpConstant); OpSwitch's
       * (literal, label) pairs name only labels, which are in the instruction's own function. */
      case 'n':
      case 'Q': wk->pos = wk->wc; return;
      default: walk_enum(wk, code); break;
      }
    }
  }
}

static void walk_insn(const ld_valplan *p, const uint32_t *in, visit_fn *visit, void *arg) {
  walk wk = {.p = p, .in = in, .wc = in[0] >> 16, .pos = 1, .visit = visit, .arg = arg};
  const uint32_t op = in[0] & 0xFFFFu;
  const spv_opinfo *info = spv_op_info(op);
  if (!info) return rest_as_ids(&wk);
  if (op != SpvOpExtInst || wk.wc < 5) {
    walk_codes(&wk, info->operands);
    return rest_as_ids(&wk); /* words past the grammar's operands (OpSpecConstantOp's) */
  }
  visit(p, arg, in[3]); /* the set */
  const uint32_t set = in[3] < p->bound ? p->set[in[3]] : 0;
  const char *codes = set == LD_EXT_OPENCL_STD + 1  ? spv_oclstd_operand_codes(in[4])
                      : set == LD_EXT_DEBUGINFO + 1 ? spv_debuginfo_operand_codes(in[4])
                                                    : NULL;
  wk.pos = 5;
  if (codes) walk_codes(&wk, codes);
  rest_as_ids(&wk);
}

/* An entry point's (execution model, name) for the duplicate check. */
typedef struct entry_key {
  const uint32_t *in;
} entry_key;

static int entry_cmp(const void *a, const void *b) {
  const uint32_t *x = ((const entry_key *)a)->in, *y = ((const entry_key *)b)->in;
  if (x[1] != y[1]) return x[1] < y[1] ? -1 : 1;
  uint32_t nx = x[0] >> 16, ny = y[0] >> 16;
  for (uint32_t k = 3; k < nx && k < ny; k++) {
    if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
    if ((x[k] >> 24) == 0) return 0; /* the name's last word (nul-terminated) */
  }
  return nx == ny ? 0 : (nx < ny ? -1 : 1);
}

/* Two entry points with the same execution model and name? (Cut modules would hide it.) */
static bool duplicate_entries(const uint32_t *w, const uint32_t *insn_at, uint32_t nmod, bool *oom) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < nmod; i++)
    if ((insn(w, insn_at, i)[0] & 0xFFFFu) == SpvOpEntryPoint) n++;
  entry_key *keys = malloc((size_t)(n ? n : 1) * sizeof *keys);
  if (!keys) return *oom = true;
  n = 0;
  for (uint32_t i = 0; i < nmod; i++) {
    const uint32_t *in = insn(w, insn_at, i);
    if ((in[0] & 0xFFFFu) == SpvOpEntryPoint && (in[0] >> 16) >= 4) keys[n++].in = in;
  }
  qsort(keys, n, sizeof *keys, entry_cmp);
  bool dup = false;
  for (uint32_t i = 1; i < n && !dup; i++) dup = entry_cmp(&keys[i - 1], &keys[i]) == 0;
  free(keys);
  return dup;
}

/* Owners of every id defined in a function, and the number of functions; false when the module
 * has no function or a malformed one (the scan checked word counts; structure is the loader's). */
static bool owners(ld_valplan *p, const uint32_t *w, const uint32_t *insn_at, uint32_t ninsn, uint32_t *nfn) {
  uint32_t f = 0;
  bool in_fn = false;
  for (uint32_t i = p->first_fn; i < ninsn; i++) {
    const uint32_t *in = insn(w, insn_at, i), op = in[0] & 0xFFFFu;
    const spv_opinfo *info = spv_op_info(op);
    if (op == SpvOpFunction) {
      if (in_fn) return false;
      in_fn = true;
      f++;
    } else if (!in_fn) return false;
    if (info && info->has_result) {
      uint32_t id = in[1u + info->has_type];
      if (id < p->bound && !p->owner[id]) p->owner[id] = f;
    }
    if (op == SpvOpFunctionEnd) in_fn = false;
  }
  *nfn = f;
  return f > 0 && !in_fn;
}

/* Join every function with the functions whose ids its body names (see the top). */
typedef struct join_arg {
  uint32_t *parent;
  uint32_t fn; /* the function being walked, ordinal + 1 */
} join_arg;

static void join_visit(const ld_valplan *p, void *arg, uint32_t id) {
  join_arg *ja = arg;
  const uint32_t o = owner_of(p, id);
  if (!o || o == ja->fn) return;
  uint32_t a = uf_find(ja->parent, ja->fn - 1), b = uf_find(ja->parent, o - 1);
  if (a != b) ja->parent[a < b ? b : a] = a < b ? a : b;
}

static void join_functions(const ld_valplan *p, const uint32_t *w, const uint32_t *insn_at, uint32_t ninsn,
                           uint32_t *parent) {
  join_arg ja = {parent, 0};
  for (uint32_t i = p->first_fn; i < ninsn; i++) {
    const uint32_t *in = insn(w, insn_at, i);
    if ((in[0] & 0xFFFFu) == SpvOpFunction) ja.fn++;
    walk_insn(p, in, join_visit, &ja);
  }
}

/* Does a module-scope instruction that stays in every part name an id defined in a function? */
static void module_visit(const ld_valplan *p, void *arg, uint32_t id) {
  if (owner_of(p, id)) *(bool *)arg = true;
}

static bool module_scope_names_function_ids(const ld_valplan *p, const uint32_t *w, const uint32_t *insn_at) {
  bool named = false;
  for (uint32_t i = 0; i < p->first_fn && !named; i++) {
    const uint32_t *in = insn(w, insn_at, i), op = in[0] & 0xFFFFu;
    if (!annotation(op) && op != SpvOpGroupDecorate) walk_insn(p, in, module_visit, &named);
  }
  return named;
}

/* The extended instruction sets the module imports, by id (for OpExtInst's operand codes). */
static void import_sets(ld_valplan *p, const uint32_t *w, const uint32_t *insn_at) {
  for (uint32_t i = 0; i < p->first_fn; i++) {
    const uint32_t *in = insn(w, insn_at, i);
    if ((in[0] & 0xFFFFu) != SpvOpExtInstImport || (in[0] >> 16) < 3 || in[1] >= p->bound) continue;
    char name[64];
    ld_import_name(w, (uint32_t)(in - w), name, sizeof name);
    p->set[in[1]] = (uint8_t)(ld_module_extset(name) + 1);
  }
}

/* The name an OpExtInstImport at word `at` imports (SPIR-V 2.2.1 literal string, lowest-order octet
 * first), cut to fit buf. The loader checks the string itself (ld_module.c). */
void ld_import_name(const uint32_t *w, uint32_t at, char *buf, size_t len) {
  size_t o = 0;
  for (uint32_t k = 2; k < (w[at] >> 16) && o + 1 < len; k++)
    for (unsigned b = 0; b < 4 && o + 1 < len; b++) {
      char ch = (char)((w[at + k] >> (8 * b)) & 0xFFu);
      if (!ch) {
        buf[o] = '\0';
        return;
      }
      buf[o++] = ch;
    }
  buf[o] = '\0';
}

typedef struct comp {
  uint32_t root, words;
  bool entry;
} comp;

static int comp_cmp(const void *a, const void *b) {
  const comp *x = a, *y = b;
  if (x->entry != y->entry) return x->entry ? -1 : 1; /* entry points first: one per part */
  if (x->words != y->words) return x->words > y->words ? -1 : 1;
  return x->root < y->root ? -1 : (x->root > y->root);
}

/* Deal the components (largest first, each to the lightest part); the number of parts used. */
static uint32_t deal(ld_valplan *p, comp *cs, uint32_t ncomp, uint32_t *parent, uint32_t nfn, uint32_t *part_of_root) {
  uint32_t nentry = 0;
  for (uint32_t c = 0; c < ncomp; c++) nentry += cs[c].entry;
  uint32_t nparts = p->nparts < nentry ? p->nparts : nentry;
  if (nparts < 2) return nparts;
  qsort(cs, ncomp, sizeof *cs, comp_cmp);
  uint64_t load[64] = {0};
  for (uint32_t c = 0; c < ncomp; c++) {
    uint32_t best = 0;
    if (c < nparts) best = c; /* the first nparts components have entry points (sorted first) */
    else
      for (uint32_t q = 1; q < nparts; q++)
        if (load[q] < load[best]) best = q;
    load[best] += cs[c].words;
    part_of_root[cs[c].root] = best;
  }
  for (uint32_t f = 0; f < nfn; f++) p->part_of[f] = part_of_root[uf_find(parent, f)];
  return nparts;
}

ld_valplan *ld_valplan_new(const uint32_t *w, uint32_t nw, const uint32_t *insn_at, uint32_t ninsn, uint32_t nparts,
                           bool *oom) {
  *oom = false;
  if (nparts < 2 || nw < 5) return NULL;
  if (nparts > 64) nparts = 64;
  ld_valplan *p = calloc(1, sizeof *p);
  if (!p) return *oom = true, NULL;
  p->nparts = nparts;
  p->bound = w[3];
  p->first_fn = ninsn;
  for (uint32_t i = 0; i < ninsn; i++)
    if ((insn(w, insn_at, i)[0] & 0xFFFFu) == SpvOpFunction) {
      p->first_fn = i;
      break;
    }
  uint32_t nfn = 0, *parent = NULL, *part_of_root = NULL;
  comp *cs = NULL;
  bool cut = false;
  if (!(p->owner = calloc(p->bound ? p->bound : 1, sizeof *p->owner))) goto fail;
  if (!(p->set = calloc(p->bound ? p->bound : 1, 1))) goto fail;
  import_sets(p, w, insn_at);
  if (!owners(p, w, insn_at, ninsn, &nfn) || nfn < 2) goto done;
  if (module_scope_names_function_ids(p, w, insn_at)) goto done;
  if (duplicate_entries(w, insn_at, p->first_fn, oom) || *oom) goto done;
  p->part_of = malloc(nfn * sizeof *p->part_of);
  parent = malloc(nfn * sizeof *parent);
  part_of_root = malloc(nfn * sizeof *part_of_root);
  cs = calloc(nfn, sizeof *cs);
  if (!p->part_of || !parent || !part_of_root || !cs) goto fail;
  for (uint32_t f = 0; f < nfn; f++) parent[f] = f;
  join_functions(p, w, insn_at, ninsn, parent);
  /* component sizes (words of their functions) and entry points */
  uint32_t f = 0;
  for (uint32_t i = p->first_fn; i < ninsn; i++) {
    const uint32_t *in = insn(w, insn_at, i);
    if ((in[0] & 0xFFFFu) == SpvOpFunction) f++;
    cs[uf_find(parent, f - 1)].words += in[0] >> 16;
  }
  for (uint32_t i = 0; i < p->first_fn; i++) {
    const uint32_t *in = insn(w, insn_at, i);
    if ((in[0] & 0xFFFFu) != SpvOpEntryPoint || (in[0] >> 16) < 3) continue;
    uint32_t o = owner_of(p, in[2]);
    if (o) cs[uf_find(parent, o - 1)].entry = true;
  }
  uint32_t ncomp = 0;
  for (uint32_t r = 0; r < nfn; r++)
    if (uf_find(parent, r) == r) {
      cs[ncomp] = cs[r];
      cs[ncomp++].root = r;
    }
  p->nparts = deal(p, cs, ncomp, parent, nfn, part_of_root);
  cut = p->nparts >= 2;
  goto done;
fail:
  *oom = true;
done:
  free(parent);
  free(part_of_root);
  free(cs);
  if (!cut) {
    ld_valplan_free(p);
    return NULL;
  }
  return p;
}

uint32_t ld_valplan_parts(const ld_valplan *p) { return p ? p->nparts : 1; }

bool ld_valplan_holds(const ld_valplan *p, uint32_t part, uint32_t fn) { return p->part_of[fn] == part; }

uint32_t ld_valplan_module_insn(const ld_valplan *p, uint32_t part, uint32_t *in) {
  const uint32_t op = in[0] & 0xFFFFu, wc = in[0] >> 16;
  if (annotation(op) && wc >= 2) {
    uint32_t o = owner_of(p, in[op == SpvOpEntryPoint && wc >= 3 ? 2 : 1]);
    if (o && p->part_of[o - 1] != part) return 0;
  }
  if (op != SpvOpGroupDecorate || wc < 2) return wc;
  uint32_t n = 2; /* OpGroupDecorate Decoration-Group Targets...: the targets this part holds */
  for (uint32_t k = 2; k < wc; k++) {
    uint32_t o = owner_of(p, in[k]);
    if (!o || p->part_of[o - 1] == part) in[n++] = in[k];
  }
  in[0] = n << 16 | op;
  return n;
}

void ld_valplan_free(ld_valplan *p) {
  if (!p) return;
  free(p->owner);
  free(p->part_of);
  free(p->set);
  free(p);
}
