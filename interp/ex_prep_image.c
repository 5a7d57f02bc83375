/*
 * ex_prep_image.c — the translation of image instructions (SPIR-V 3.32.10; OpenCL SPIR-V
 * environment "Image Addressing and Filtering"): reads, sampling, writes and queries become
 * EX_IMAGE with the aux words ex_image.c describes; OpSampledImage and OpImage pack and unpack the
 * 16-byte (image, sampler) pair.
 */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ex_prep.h"

/* The OpTypeImage of an image operand, or of a sampled image's image. */
static const ld_type *image_type_of(prep *s, uint32_t id, bool sampled) {
  const ld_type *t = prep_type(s, s->m->ids[id].type);
  if (sampled) {
    if (!t || t->kind != LD_TY_OPAQUE || strcmp(t->opaque, "OpTypeSampledImage") != 0) return NULL;
    t = prep_type(s, t->elem);
  }
  return t && t->kind == LD_TY_OPAQUE && strcmp(t->opaque, "OpTypeImage") == 0 ? t : NULL;
}

/* Coordinate components an image type needs: its dimensions plus the array layer. */
static unsigned image_coords(const ld_type *it) {
  unsigned n = it->img_dim == SpvDim2D ? 2 : it->img_dim == SpvDim3D ? 3 : 1;
  return n + (it->img_arrayed ? 1 : 0);
}

/* aux word 0: a coordinate operand of 32-bit integer or float components, at least `need` of them */
static bool image_coord(prep *s, uint32_t id, unsigned need, bool int_only, uint32_t *reg, uint32_t *desc) {
  prep_elem e;
  if (!prep_operand(s, id, reg) || !prep_elem_of(s, s->m->ids[id].type, &e)) return false;
  if (e.bits != 32 || (e.kind != 'i' && (e.kind != 'f' || int_only)))
    return prep_fail(s,
                     "image coordinates must be 32-bit %s (env spec, \"Coordinate Format for Reading and "
                     "Writing Images\")",
                     int_only ? "integers" : "integers or floats");
  if (e.n < need) return prep_fail(s, "image coordinate has %u components, the image needs %u", e.n, need);
  *desc = (e.kind == 'i' ? 1u : 0u) | (e.n << 8);
  return true;
}

/* A 4-component vector of float, half or 32-bit integers: the result of a read, a written texel. */
static bool image_texel_kind(prep *s, uint32_t type_id, const char *what, uint32_t *kind) {
  prep_elem e;
  if (!prep_elem_of(s, type_id, &e)) return false;
  if (e.n == 4 && e.kind == 'f' && e.bits == 32) *kind = BI_IMG_R_F32;
  else if (e.n == 4 && e.kind == 'f' && e.bits == 16) *kind = BI_IMG_R_F16;
  else if (e.n == 4 && e.kind == 'i' && e.bits == 32) *kind = BI_IMG_R_I32;
  else return prep_fail(s, "%s must be a 4-component vector of float, half or 32-bit integers", what);
  return true;
}

/* Image Operands after `at` (SPIR-V 3.14): SignExtend/ZeroExtend are kept (aux word 2), Lod gives
 * its operand when `lod` is not NULL; anything else (gradients, offsets, samples) is unsupported. */
static bool image_operands(prep *s, const ld_insn *in, unsigned at, uint32_t *extend, uint32_t *lod) {
  *extend = 0;
  if (lod) *lod = LD_NONE;
  if (in->nops <= at) {
    if (lod) return prep_fail(s, "OpImageSampleExplicitLod without a Lod operand");
    return true;
  }
  uint32_t mask = in->ops[at];
  /* Nontemporal (SPIR-V 1.6, 3.14) is a caching hint without an operand of its own: accepted and
   * ignored. Its bit is above Lod's, so the Lod operand stays at ops[at + 1]. */
  uint32_t allowed = SpvImageOperandsSignExtendMask | SpvImageOperandsZeroExtendMask | SpvImageOperandsNontemporalMask |
                     (lod ? SpvImageOperandsLodMask : 0);
  if (mask & ~allowed)
    return prep_fail(s, "image operands 0x%x are not supported (only Lod 0, SignExtend, ZeroExtend and Nontemporal)",
                     mask);
  if (lod) {
    if (!(mask & SpvImageOperandsLodMask) || in->nops <= at + 1)
      return prep_fail(s, "OpImageSampleExplicitLod without a Lod operand");
    *lod = in->ops[at + 1];
  }
  if ((mask & SpvImageOperandsSignExtendMask) && (mask & SpvImageOperandsZeroExtendMask))
    return prep_fail(s, "image operands SignExtend and ZeroExtend together");
  if (mask & SpvImageOperandsSignExtendMask) *extend = 1;
  if (mask & SpvImageOperandsZeroExtendMask) *extend = 2;
  return true;
}

/* A Lod operand (aux words 3, 4): checked to be 0 at run time. */
static bool image_lod(prep *s, uint32_t id, uint32_t *reg, uint32_t *kind) {
  *reg = LD_NONE;
  *kind = 0;
  if (id == LD_NONE) return true;
  prep_elem e;
  if (!prep_operand(s, id, reg) || !prep_elem_of(s, s->m->ids[id].type, &e)) return false;
  if (e.n != 1 || (e.kind == 'f' && e.bits != 32) || (e.kind == 'i' && e.bits != 32 && e.bits != 64) ||
      (e.kind != 'f' && e.kind != 'i'))
    return prep_fail(s, "the Lod operand must be a 32-bit float or a 32/64-bit integer");
  *kind = e.kind == 'f' ? 1 : e.bits == 32 ? 2 : 3;
  return true;
}

/* OpSampledImage: 16 bytes, the image handle then the sampler; OpImage: the image of one. */
static bool sampled_image(prep *s, const ld_insn *in) {
  uint32_t r[2];
  if (in->opcode == SpvOpImage) {
    if (!prep_operands(s, in, 1, r)) return false;
    if (!image_type_of(s, in->ops[0], true)) return prep_fail(s, "OpImage of a value that is not a sampled image");
    uint32_t a = prep_aux(s, 0);
    prep_aux(s, 16);
    prep_emit(s, (ex_insn){.op = EX_EXTRACT, .d = prep_dst(s, in), .a = r[0], .b = a, .c = 8});
    return true;
  }
  if (!prep_operands(s, in, 2, r)) return false;
  if (!image_type_of(s, in->ops[0], false)) return prep_fail(s, "OpSampledImage of a value that is not an image");
  const ld_type *st = prep_type(s, s->m->ids[in->ops[1]].type);
  if (!st || st->kind != LD_TY_OPAQUE || strcmp(st->opaque, "OpTypeSampler") != 0)
    return prep_fail(s, "OpSampledImage with a value that is not a sampler");
  uint32_t a = prep_aux(s, 2);
  prep_aux(s, r[0]);
  prep_aux(s, 8);
  prep_aux(s, 0);
  prep_aux(s, r[1]);
  prep_aux(s, 8);
  prep_aux(s, 8);
  prep_emit(s, (ex_insn){.op = EX_CONSTRUCT, .d = prep_dst(s, in), .a = a, .c = 16});
  return true;
}

/* OpImageRead, OpImageSampleExplicitLod of image it (register img). */
static bool image_read(prep *s, const ld_insn *in, const ld_type *it, uint32_t img) {
  const bool sampled = in->opcode == SpvOpImageSampleExplicitLod;
  uint32_t cdesc = 0, creg = 0, extend = 0, lod = LD_NONE, lreg = LD_NONE, lkind = 0, kind;
  if (it->img_access == SpvAccessQualifierWriteOnly)
    return prep_fail(s, "%s of a write_only image (OpenCL C 6.15.15: write_only images cannot be read)",
                     sampled ? "OpImageSampleExplicitLod" : "OpImageRead");
  if (sampled && it->img_dim == SpvDimBuffer)
    return prep_fail(s, "OpImageSampleExplicitLod of a buffer image (image1d_buffer_t takes no sampler)");
  if (in->nops < 2) return prep_fail(s, "image read without a coordinate");
  if (!image_coord(s, in->ops[1], image_coords(it), false, &creg, &cdesc)) return false;
  if (!image_texel_kind(s, in->type, "the result of an image read", &kind)) return false;
  if (!image_operands(s, in, 2, &extend, sampled ? &lod : NULL)) return false;
  if (extend && kind != BI_IMG_R_I32) return prep_fail(s, "SignExtend/ZeroExtend on a read that is not of integers");
  if (!image_lod(s, lod, &lreg, &lkind)) return false;
  uint32_t a = prep_aux(s, cdesc);
  prep_aux(s, kind);
  prep_aux(s, extend);
  prep_aux(s, lreg);
  prep_aux(s, lkind);
  prep_emit(s, (ex_insn){.op = EX_IMAGE,
                         .flags = sampled ? EX_IMG_SAMPLE : EX_IMG_READ,
                         .d = prep_dst(s, in),
                         .a = img,
                         .b = creg,
                         .c = a});
  return true;
}

static bool image_write(prep *s, const ld_insn *in, const ld_type *it, uint32_t img) {
  uint32_t cdesc = 0, creg = 0, extend = 0, kind, treg;
  if (it->img_access == SpvAccessQualifierReadOnly)
    return prep_fail(s, "OpImageWrite to a read_only image (OpenCL C 6.15.15: read_only images cannot be written)");
  if (in->nops < 3) return prep_fail(s, "OpImageWrite needs an image, a coordinate and a texel");
  if (!image_coord(s, in->ops[1], image_coords(it), true, &creg, &cdesc)) return false;
  if (!image_texel_kind(s, s->m->ids[in->ops[2]].type, "the texel of an image write", &kind)) return false;
  if (!prep_operand(s, in->ops[2], &treg)) return false;
  if (!image_operands(s, in, 3, &extend, NULL)) return false;
  if (extend && kind != BI_IMG_R_I32) return prep_fail(s, "SignExtend/ZeroExtend on a write that is not of integers");
  uint32_t a = prep_aux(s, cdesc);
  prep_aux(s, kind);
  prep_aux(s, extend);
  prep_aux(s, treg);
  prep_aux(s, 0);
  prep_emit(s, (ex_insn){.op = EX_IMAGE, .flags = EX_IMG_WRITE, .a = img, .b = creg, .c = a});
  return true;
}

/* The OpImageQuery* instructions: format, order, size (with a Lod), levels. */
static bool image_query(prep *s, const ld_insn *in, const ld_type *it, uint32_t img) {
  prep_elem e;
  if (!prep_elem_of(s, in->type, &e) || e.kind != 'i' || (e.bits != 32 && e.bits != 64))
    return prep_fail(s, "image query with a result that is not a 32- or 64-bit integer");
  uint32_t q, want = 1, lod = LD_NONE, lreg, lkind;
  switch (in->opcode) {
  case SpvOpImageQueryFormat: q = EX_IQ_FORMAT; break;
  case SpvOpImageQueryOrder: q = EX_IQ_ORDER; break;
  case SpvOpImageQueryLevels:
    if (it->img_dim == SpvDimBuffer) return prep_fail(s, "OpImageQueryLevels of a buffer image");
    q = EX_IQ_LEVELS;
    break;
  case SpvOpImageQuerySizeLod:
    if (it->img_dim == SpvDimBuffer)
      return prep_fail(s, "OpImageQuerySizeLod of a buffer image (use OpImageQuerySize)");
    if (in->nops < 2) return prep_fail(s, "OpImageQuerySizeLod without a Lod");
    lod = in->ops[1];
    q = EX_IQ_SIZE;
    want = image_coords(it);
    break;
  default:
    q = EX_IQ_SIZE;
    want = image_coords(it);
    break; /* OpImageQuerySize */
  }
  if (e.n != want) return prep_fail(s, "image query result has %u components, the image type gives %u", e.n, want);
  if (!image_lod(s, lod, &lreg, &lkind)) return false;
  uint32_t a = prep_aux(s, 0);
  prep_aux(s, q);
  prep_aux(s, 0);
  prep_aux(s, lreg);
  prep_aux(s, lkind);
  prep_aux(s, e.bits / 8);
  prep_aux(s, e.n);
  prep_emit(s, (ex_insn){.op = EX_IMAGE, .flags = EX_IMG_QUERY, .d = prep_dst(s, in), .a = img, .c = a});
  return true;
}

/* The instructions on an image (or a sampled image) operand. */
static bool image_op(prep *s, const ld_insn *in) {
  const uint32_t op = in->opcode;
  if (op == SpvOpImageQuerySamples) return prep_fail(s, "OpImageQuerySamples: multi-sampled images are not supported");
  const bool sampled = op == SpvOpImageSampleExplicitLod;
  if (in->nops < 1) return prep_fail(s, "image instruction without an image");
  const ld_type *it = image_type_of(s, in->ops[0], sampled);
  if (!it) return prep_fail(s, "the first operand is not %s", sampled ? "a sampled image" : "an image");
  uint32_t img;
  if (!prep_operand(s, in->ops[0], &img)) return false;
  if (op == SpvOpImageRead || sampled) return image_read(s, in, it, img);
  if (op == SpvOpImageWrite) return image_write(s, in, it, img);
  return image_query(s, in, it, img);
}

prep_result prep_image(prep *s, const ld_insn *in) {
  switch (in->opcode) {
  case SpvOpSampledImage:
  case SpvOpImage: return prep_done(sampled_image(s, in));
  case SpvOpImageRead:
  case SpvOpImageWrite:
  case SpvOpImageSampleExplicitLod:
  case SpvOpImageQueryFormat:
  case SpvOpImageQueryOrder:
  case SpvOpImageQuerySizeLod:
  case SpvOpImageQuerySize:
  case SpvOpImageQueryLevels:
  case SpvOpImageQuerySamples: return prep_done(image_op(s, in));
  default: return PREP_NEXT;
  }
}
