/*
 * ex_prep_ext.c — the translation of OpExtInst (SPIR-V 3.32.6): OpenCL.std instructions are
 * resolved to a builtin for their operand types once, here (bi_resolve), and run through EX_EXTINST
 * (or the typed EX_FMA_*); debug-information sets have no run-time effect.
 */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ex_prep.h"
#include "gen_spv_tables.h"

/* An OpenCL.std instruction's operands: registers, register bytes and builtin types. */
typedef struct ext_args {
  unsigned n;
  uint32_t lit; /* the trailing literal (vloadn's n, a rounding mode), 0 without */
  uint32_t regs[BI_MAX_OPERANDS], sizes[BI_MAX_OPERANDS];
  bi_type rt, at[BI_MAX_OPERANDS];
} ext_args;

/* The operands of OpenCL.std instruction `inst` (`name`): their count, literal and types. */
static bool ext_operands(prep *s, const ld_insn *in, uint32_t inst, const char *name, ext_args *x) {
  int want = spv_oclstd_operands(inst);
  x->n = in->nops - 2;
  /* vloadn / vload_halfn / vloada_halfn end in a literal n; vstore*_r end in a rounding literal. */
  bool has_lit = inst == OCLSTD_vloadn || inst == OCLSTD_vload_halfn || inst == OCLSTD_vloada_halfn ||
                 inst == OCLSTD_vstore_half_r || inst == OCLSTD_vstore_halfn_r || inst == OCLSTD_vstorea_halfn_r;
  if (want >= 0 && (int)x->n != want)
    return prep_fail(s, "OpenCL.std `%s` takes %d operands, has %u", name, want, x->n);
  if (has_lit) {
    x->lit = in->ops[in->nops - 1];
    x->n--;
  }
  if (x->n > BI_MAX_OPERANDS) return prep_fail(s, "OpenCL.std `%s` with %u operands is not supported", name, x->n);
  const ld_type *rty = prep_type(s, in->type);
  if (!rty) return prep_fail(s, "bad result type");
  if (rty->kind != LD_TY_VOID && !ex_bi_type(s->m, in->type, &x->rt))
    return prep_fail(s, "OpenCL.std `%s`: unsupported result type", name);
  for (unsigned i = 0; i < x->n; i++) {
    uint32_t id = in->ops[2 + i];
    if (!prep_operand(s, id, &x->regs[i])) return false;
    uint32_t tid = s->m->ids[id].type;
    if (!ex_bi_type(s->m, tid, &x->at[i])) return prep_fail(s, "OpenCL.std `%s`: unsupported operand type", name);
    x->sizes[i] = prep_reg_size(s, tid);
  }
  return true;
}

/* Which operands (bit i) and whether the result (bit 31) are float vectors/scalars, for the
 * flush-to-zero mode; data movement is not arithmetic: loads, stores, shuffles and selects keep
 * denormals. */
static uint32_t f32_mask(uint32_t inst, const ext_args *x) {
  static const uint16_t moves[] = {OCLSTD_vloadn,       OCLSTD_vstoren, OCLSTD_vload_half, OCLSTD_vload_halfn,
                                   OCLSTD_vloada_halfn, OCLSTD_shuffle, OCLSTD_shuffle2,   OCLSTD_select,
                                   OCLSTD_bitselect,    OCLSTD_printf,  OCLSTD_prefetch};
  for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
    if (moves[i] == inst) return 0;
  uint32_t mask = x->rt.kind == BI_FLOAT && x->rt.bits == 32 ? 0x80000000u : 0;
  for (unsigned i = 0; i < x->n; i++)
    if (i < 31 && x->at[i].kind == BI_FLOAT && x->at[i].bits == 32) mask |= 1u << i;
  return mask;
}

/* EX_EXTINST of resolved builtin r (ex_ops.h gives its aux words). */
static void emit_extinst(prep *s, const ld_insn *in, uint32_t inst, const bi_resolved *r, const ext_args *x) {
  ex_program *p = s->p;
  const ld_type *rty = prep_type(s, in->type);
  if (s->nbis == s->capbis) {
    s->bis = prep_realloc(s, s->bis, (s->capbis ? s->capbis * 2 : 16) * sizeof *s->bis);
    s->capbis = s->capbis ? s->capbis * 2 : 16;
  }
  s->bis[s->nbis] = *r;
  uint32_t a = prep_aux(s, s->nbis++);
  prep_aux(s, rty->kind == LD_TY_VOID ? 0 : rty->reg_size);
  prep_aux(s, x->n);
  for (unsigned i = 0; i < x->n; i++) {
    prep_aux(s, x->regs[i]);
    prep_aux(s, x->sizes[i]);
  }
  prep_aux(s, f32_mask(inst, x));
  /* the operand types, for builtins that need them at run time (printf) */
  p->bi_types = prep_realloc(s, p->bi_types, (p->nbi_types + x->n + 1) * sizeof *p->bi_types);
  prep_aux(s, p->nbi_types);
  memcpy(p->bi_types + p->nbi_types, x->at, x->n * sizeof *x->at);
  p->nbi_types += x->n;
  prep_emit(s, (ex_insn){.op = EX_EXTINST, .d = rty->kind == LD_TY_VOID ? LD_NONE : prep_dst(s, in), .a = a});
}

_Static_assert(EX_SCLAMP_I64 == EX_SCLAMP_I8 + 3 && EX_UMIN_I64 == EX_UMIN_I8 + 3,
               "EX_ROW_INT_CHOSEN lists the widths in order");
/* OpenCL.std s_/u_ max, min and clamp whose operands all have the result's integer type get
 * typed handlers (clamp-to-edge image indexing calls clamp for every tap; the EX_EXTINST call
 * costs several times the operation, lane by lane); true when emitted. */
static bool int_minmax(prep *s, const ld_insn *in, uint32_t inst, const ext_args *x) {
  static const struct {
    uint16_t inst, nops, i8; /* i8: the I8 handler; I16, I32, I64 follow it in the table */
  } fams[] = {
    {OCLSTD_s_max, 2, EX_SMAX_I8}, {OCLSTD_u_max, 2, EX_UMAX_I8},     {OCLSTD_s_min, 2, EX_SMIN_I8},
    {OCLSTD_u_min, 2, EX_UMIN_I8}, {OCLSTD_s_clamp, 3, EX_SCLAMP_I8}, {OCLSTD_u_clamp, 3, EX_UCLAMP_I8},
  };
  if (x->rt.kind != BI_INT) return false;
  for (size_t k = 0; k < sizeof fams / sizeof fams[0]; k++) {
    if (fams[k].inst != inst) continue;
    if (x->n != fams[k].nops) return false;
    for (unsigned i = 0; i < x->n; i++)
      if (x->at[i].kind != BI_INT || x->at[i].bits != x->rt.bits || x->at[i].ncomp != x->rt.ncomp) return false;
    const unsigned w = x->rt.bits == 8 ? 0 : x->rt.bits == 16 ? 1 : x->rt.bits == 32 ? 2 : 3;
    prep_emit(s, (ex_insn){.op = (uint16_t)(fams[k].i8 + w),
                           .n = x->rt.ncomp,
                           .d = prep_dst(s, in),
                           .a = x->regs[0],
                           .b = x->regs[1],
                           .c = x->n == 3 ? x->regs[2] : 0});
    return true;
  }
  return false;
}

static bool extinst(prep *s, const ld_insn *in) {
  if (in->nops < 2) return prep_fail(s, "OpExtInst without a set and instruction");
  uint32_t set = in->ops[0], inst = in->ops[1];
  if (set >= s->m->bound || s->m->ids[set].kind != LD_ID_EXTINST_SET)
    return prep_fail(s, "OpExtInst set %%%u is not an OpExtInstImport", set);
  uint32_t kind = s->m->ids[set].index;
  if (kind == LD_EXT_DEBUGINFO || kind == LD_EXT_NONSEMANTIC) return true; /* no run-time effect */
  if (kind != LD_EXT_OPENCL_STD) return prep_fail(s, "extended instruction set of %%%u is not supported", set);
  const char *name = spv_oclstd_name(inst);
  if (!name) return prep_fail(s, "OpenCL.std instruction %u does not exist", inst);
  ext_args x;
  memset(&x, 0, sizeof x);
  if (!ext_operands(s, in, inst, name, &x)) return false;
  bi_resolved r;
  char msg[256];
  if (!bi_resolve(inst, &x.rt, x.at, x.n, x.lit, &r, msg, sizeof msg)) return prep_fail(s, "%s", msg);
  /* fma and mad (spvi's mad is fused) on float and double: the hottest builtin of real kernels
   * (clang contracts a*b+c into it), so it gets typed handlers of its own; bi_resolve above still
   * checked the operand types. */
  if ((inst == OCLSTD_fma || inst == OCLSTD_mad) && x.rt.kind == BI_FLOAT && (x.rt.bits == 32 || x.rt.bits == 64) &&
      x.n == 3) {
    prep_emit(s, (ex_insn){.op = x.rt.bits == 32 ? EX_FMA_F32 : EX_FMA_F64,
                           .n = x.rt.ncomp,
                           .d = prep_dst(s, in),
                           .a = x.regs[0],
                           .b = x.regs[1],
                           .c = x.regs[2]});
    return true;
  }
  if (int_minmax(s, in, inst, &x)) return true;
  if (inst == OCLSTD_printf) s->p->uses_printf = true;
  emit_extinst(s, in, inst, &r, &x);
  return true;
}

prep_result prep_extinst(prep *s, const ld_insn *in) {
  return in->opcode == SpvOpExtInst ? prep_done(extinst(s, in)) : PREP_NEXT;
}
