/*
 * ex_dump.c — prepared code as text, for debugging spvi itself (`spvi info --prepared`). Every
 * operand is named by its shape in ex_ops.h's table: registers rN (per-lane byte offsets), aux
 * list starts aux[N], blocks bN, functions fN positionally; counts, sizes and other immediates as
 * field=value. Each line ends with the SPIR-V instruction it comes from.
 */
#include <stdlib.h>

#include <spirv/unified1/spirv.h>

#include "ex_cfg.h"
#include "ex_dump.h"
#include "gen_spv_tables.h"

/* An immediate: decimal, or hex for packed fields (kinds << 8 and more). */
static void put_imm(FILE *out, const char *field, char shape, uint32_t v) {
  if (shape == 'k' && v >= 256) fprintf(out, "%s=0x%x", field, v);
  else fprintf(out, "%s=%u", field, v);
}

void ex_dump_insn(const ex_insn *ip, FILE *out) {
  static const char *const fields[EX_SH_FIELDS] = {"d", "a", "b", "c", "n", "flags"};
  if (ip->op >= EX_OP_COUNT) {
    fprintf(out, "?%u", ip->op);
    return;
  }
  const ex_op_info *info = &ex_op_infos[ip->op];
  const uint32_t v[EX_SH_FIELDS] = {ip->d, ip->a, ip->b, ip->c, ip->n, ip->flags};
  if (info->shape[EX_SH_D] == 'd' && ip->d != LD_NONE) fprintf(out, "r%u = ", ip->d);
  fputs(info->name, out);
  const char *sep = " ";
  for (int f = EX_SH_A; f <= EX_SH_C; f++) {
    const char sh = info->shape[f];
    if (sh == 'r' && v[f] == LD_NONE) fprintf(out, "%s-", sep);
    else if (sh == 'r') fprintf(out, "%sr%u", sep, v[f]);
    else if (sh == 'x') fprintf(out, "%saux[%u]", sep, v[f]);
    else if (sh == 'l') fprintf(out, "%sb%u", sep, v[f]);
    else if (sh == 'f') fprintf(out, "%sf%u", sep, v[f]);
    else continue;
    sep = ", ";
  }
  bool keyed = false;
  for (int f = EX_SH_A; f < EX_SH_FIELDS; f++) {
    const char sh = info->shape[f];
    if (sh != 'n' && sh != 'z' && sh != 'k') continue;
    fputs(keyed ? " " : " (", out);
    put_imm(out, fields[f], sh, v[f]);
    keyed = true;
  }
  if (keyed) fputc(')', out);
}

/* "; OpIAdd %12 kernel.cl:5" (OpExtInst with its OpenCL.std name). */
static void dump_source(const ld_module *m, const ld_insn *in, FILE *out) {
  const char *on = spv_op_name(in->opcode);
  fprintf(out, "  ; %s", on ? on : "?");
  const uint32_t set = in->opcode == SpvOpExtInst && in->nops >= 2 ? in->ops[0] : 0;
  if (set && set < m->bound && m->ids[set].kind == LD_ID_EXTINST_SET && m->ids[set].index == LD_EXT_OPENCL_STD &&
      spv_oclstd_name(in->ops[1]))
    fprintf(out, " %s", spv_oclstd_name(in->ops[1]));
  if (in->result) fprintf(out, " %%%u", in->result);
  if (in->line) {
    const char *file = in->file && in->file < m->bound ? m->ids[in->file].name : NULL;
    fprintf(out, " %s:%u", file ? file : "?", in->line);
  }
}

/* The block's successors, after its terminator: " -> b1 b2". */
static void dump_succs(const ex_func *xf, uint32_t b, FILE *out) {
  uint32_t *succ = malloc(ex_cfg_succ_room(xf, b) * sizeof *succ);
  if (!succ) return;
  uint32_t n = ex_cfg_succs(xf, b, succ);
  if (n) fputs(" ->", out);
  for (uint32_t i = 0; i < n; i++) fprintf(out, " b%u", succ[i]);
  free(succ);
}

static void dump_block(const ex_program *p, const ex_func *xf, uint32_t b, FILE *out) {
  const ex_block *xb = &xf->blocks[b];
  fprintf(out, "  block b%u %%%u: rpo %u", b, xb->label, xb->rpo);
  if (xb->loop_header)
    fprintf(out, ", loop header (%u SPIR-V instructions in the loop, %u outside)", xb->loop_body, xb->loop_rest);
  fputc('\n', out);
  for (uint32_t i = xb->first; i < xb->first + xb->count; i++) {
    fprintf(out, "  %5u  ", i);
    ex_dump_insn(&xf->code[i], out);
    if (i + 1 == xb->first + xb->count) dump_succs(xf, b, out);
    if (xf->code[i].src < xf->ld->ninsns) dump_source(p->ld, &xf->ld->insns[xf->code[i].src], out);
    fputc('\n', out);
  }
}

static void dump_func(const ex_program *p, const ex_func *xf, FILE *out) {
  const ld_module *m = p->ld;
  const char *name = m->ids[xf->ld->id].name;
  fprintf(out, "function f%u %%%u%s%s", xf->index, xf->ld->id, name ? " " : "", name ? name : "");
  for (uint32_t e = 0; e < m->nentries; e++)
    if (m->entries[e].func == xf->ld->id) fprintf(out, " (kernel %s)", m->entries[e].name);
  if (xf->ld->is_import) {
    fputs(": imported, no code\n", out);
    return;
  }
  fprintf(out, ": %u parameter%s", xf->nparams, xf->nparams == 1 ? "" : "s");
  for (uint32_t i = 0; i < xf->nparams; i++) fprintf(out, " r%u", xf->param_reg[i]);
  fprintf(out, ", returns %u bytes, registers from r%u%s%s\n", xf->ret_size, xf->reg_base,
          xf->wrapper ? ", wrapper" : "", xf->group_sync ? ", synchronises" : "");
  for (uint32_t b = 0; b < xf->nblocks; b++) dump_block(p, xf, b, out);
}

/* Mark function f and the functions it calls (the call graph is acyclic). */
static void mark_reached(const ex_program *p, uint32_t f, uint8_t *seen) {
  if (seen[f]) return;
  seen[f] = 1;
  const ex_func *xf = &p->funcs[f];
  for (uint32_t i = 0; i < xf->ncode; i++)
    if (xf->code[i].op == EX_CALL && xf->code[i].a < p->nfuncs) mark_reached(p, xf->code[i].a, seen);
}

void ex_dump(const ex_program *p, const ex_func *entry, FILE *out) {
  fprintf(out, "prepared program: %u function%s, %u register bytes per lane (constants r%u .. r%u), ", p->nfuncs,
          p->nfuncs == 1 ? "" : "s", p->reg_bytes, p->const_base, p->const_base + p->const_bytes);
  fprintf(out, "%llu private bytes\n", (unsigned long long)p->private_size);
  uint8_t *seen = calloc(p->nfuncs + 1, 1);
  if (!seen) return;
  if (entry) {
    mark_reached(p, entry->index, seen);
    dump_func(p, entry, out);
  }
  for (uint32_t f = 0; f < p->nfuncs; f++)
    if (!entry || (seen[f] && f != entry->index)) dump_func(p, &p->funcs[f], out);
  free(seen);
}
