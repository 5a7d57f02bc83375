/*
 * ex_image.c — the image instructions at run time: OpImageRead, OpImageSampleExplicitLod,
 * OpImageWrite and the OpImageQuery* family, lane by lane, over the formats and sampling of
 * builtins/bi_image.c.
 *
 * Values. An image in a register (8 bytes) is the pointer to its argument's allocation, whose
 * ex_alloc.image describes the pixels: an image reaches every report as "argument 2 `img`", and a
 * value that is not such a pointer (OpConstantNull, OpUndef) is recognised. A sampler (8 bytes) is
 * ld_sampler_bits; a sampled image (16 bytes) is the image followed by the sampler.
 *
 * EX_IMAGE operands (ex_prep_image.c builds them): flags = EX_IMG_*, d = result register, a = image or
 * sampled image, b = coordinate, c = aux index of:
 *   [0] coordinate: bit 0 integer components (else float), bits 8..15 components
 *   [1] READ/SAMPLE/WRITE: result or texel kind (BI_IMG_R_*); QUERY: EX_IQ_*
 *   [2] SignExtend (1) / ZeroExtend (2) image operand, 0 without
 *   [3] WRITE: texel register; SAMPLE/QUERY: Lod register, LD_NONE without
 *   [4] SAMPLE/QUERY: Lod operand kind (0 none, 1 float, 2 32-bit integer, 3 64-bit integer)
 *   [5] QUERY: result component bytes (4 or 8); [6] result components
 * Faults: a location outside the image is an out-of-bounds access of the image argument; what the
 * specs leave undefined (see spec-notes/images.md) is SPVI_FAULT_IMAGE.
 */
#include <stdio.h>
#include <string.h>

#include "ex_hooks.h"

/* The image a handle designates, or NULL after recording the fault. */
static const bi_image *image_of(ex_ctx *cx, ex_warp *w, unsigned lane, const uint8_t *reg, uint32_t *alloc) {
  uint64_t h;
  memcpy(&h, reg, 8);
  uint64_t id = (h & cx->ptr_mask) >> cx->shift;
  if (h == 0 || id == 0 || id >= cx->nallocs || !cx->allocs[id].image || (h & cx->off_mask) != cx->bias) {
    ex_fault(cx, SPVI_FAULT_IMAGE, w, lane, 0, 0, 0,
             h == 0 ? "the image operand is a null image (OpConstantNull or an undefined value)"
                    : "the image operand is not an image argument");
    return NULL;
  }
  *alloc = (uint32_t)id;
  return cx->allocs[id].image;
}

/* Coordinate components of one lane. */
static void coord_of(const uint8_t *reg, uint32_t desc, bi_img_coord *c) {
  c->is_int = desc & 1u;
  c->n = (desc >> 8) & 0xffu;
  memset(c->f, 0, sizeof c->f);
  memset(c->i, 0, sizeof c->i);
  for (unsigned k = 0; k < c->n && k < 4; k++) {
    if (c->is_int) memcpy(&c->i[k], reg + 4 * k, 4);
    else memcpy(&c->f[k], reg + 4 * k, 4);
  }
}

static unsigned kind_bytes(uint32_t rk) { return rk == BI_IMG_R_F16 ? 8 : 16; } /* 4 components */

/* Lod operand of one lane: must select level 0, the only one spvi images have. */
static bool lod_zero(const uint8_t *R, unsigned W, uint32_t reg, uint32_t kind, unsigned lane, char *why, size_t n) {
  if (reg == LD_NONE || kind == 0) return true;
  const uint8_t *p = R + (size_t)reg * W;
  if (kind == 1) {
    float v;
    memcpy(&v, p + 4 * (size_t)lane, 4);
    if (v == 0.0f) return true;
    snprintf(why, n, "level of detail %g: spvi images have one mip level (mipmaps are not supported)", (double)v);
    return false;
  }
  uint64_t v = 0;
  if (kind == 2) {
    uint32_t x;
    memcpy(&x, p + 4 * (size_t)lane, 4);
    v = x;
  } else memcpy(&v, p + 8 * (size_t)lane, 8);
  if (v == 0) return true;
  snprintf(why, n, "level of detail %llu: spvi images have one mip level (mipmaps are not supported)",
           (unsigned long long)v);
  return false;
}

/* Lane l's access of n bytes at `off` of image allocation `alloc` (after it succeeded), for the
 * hook clients: the coordinate is its address, the texel written its value. */
static void hook_image(ex_ctx *cx, ex_warp *w, unsigned l, const ex_func *fn, const ex_insn *ip, uint32_t alloc,
                       uint64_t off, uint64_t n, bool write) {
  const uint32_t *x = fn->aux + ip->c;
  const uint16_t l16 = (uint16_t)l;
  const uint64_t p = ex_ptr_of(cx, alloc) + off;
  ex_hk_access a = ex_hk_access_one(EX_HK_IMAGE, w, fn, ip, &l16, &p, n, write);
  a.alloc = alloc;
  a.off = off;
  a.addr_reg = ip->b;
  a.addr_bytes = 4 * ((x[0] >> 8) & 0xffu); /* coordinate: 32-bit components */
  a.value_reg = write ? x[3] : LD_NONE;
  a.value_bytes = write ? kind_bytes(x[1]) : 0;
  ex_hooks_access(cx, &a);
}

static bool image_fault(ex_ctx *cx, ex_warp *w, unsigned lane, uint32_t alloc, int st, const char *why) {
  ex_fault(cx, st == BI_IMG_OUT_OF_RANGE ? SPVI_FAULT_OUT_OF_BOUNDS : SPVI_FAULT_IMAGE, w, lane, alloc, 0, 0, why);
  return false;
}

bool ex_image_exec(ex_ctx *cx, ex_warp *w, const ex_func *fn, const ex_insn *ip, const uint16_t *lanes, unsigned nl) {
  const unsigned W = cx->W;
  const bool hooked = ex_hooks_on(cx, EX_HK_EV_ACCESS);
  uint8_t *const R = w->regs;
  const uint32_t *x = fn->aux + ip->c;
  char why[200];
  for (unsigned k = 0; k < nl; k++) {
    const unsigned l = lanes[k];
    uint32_t alloc = 0;
    switch (ip->flags) {
    case EX_IMG_READ:
    case EX_IMG_SAMPLE: {
      const bool sampled = ip->flags == EX_IMG_SAMPLE;
      const size_t hs = sampled ? 16 : 8;
      const uint8_t *h = R + (size_t)ip->a * W + hs * l;
      const bi_image *img = image_of(cx, w, l, h, &alloc);
      if (!img) return false;
      uint64_t smp = 0;
      if (sampled) memcpy(&smp, h + 8, 8);
      bi_img_coord c;
      coord_of(R + (size_t)ip->b * W + 4 * (size_t)((x[0] >> 8) & 0xffu) * l, x[0], &c);
      if (sampled && !lod_zero(R, W, x[3], x[4], l, why, sizeof why))
        return image_fault(cx, w, l, alloc, BI_IMG_UNDEFINED, why);
      const unsigned rb = kind_bytes(x[1]);
      bi_img_footprint fp;
      fp.n = 0;
      int st = bi_image_read_fp(img, sampled, smp, &c, (int)x[1], (int)x[2], R + (size_t)ip->d * W + (size_t)rb * l,
                                why, sizeof why, hooked ? &fp : NULL);
      if (st != BI_IMG_OK) return image_fault(cx, w, l, alloc, st, why);
      if (hooked) /* the texels read (no hook before the instruction could know them) */
        for (unsigned i = 0; i < fp.n; i++)
          hook_image(cx, w, l, fn, ip, alloc, fp.off[i], (uint64_t)img->nchan * img->csize, false);
      break;
    }
    case EX_IMG_WRITE: {
      const bi_image *img = image_of(cx, w, l, R + (size_t)ip->a * W + 8 * (size_t)l, &alloc);
      if (!img) return false;
      const int cls = bi_image_class(img->ctype);
      if ((x[2] == 1 && cls != BI_IMG_SINT) || (x[2] == 2 && cls != BI_IMG_UINT)) {
        snprintf(why, sizeof why, "a %s write (%s) to an image with %s channels", x[2] == 1 ? "signed" : "unsigned",
                 x[2] == 1 ? "write_imagei" : "write_imageui", bi_image_ctype_name(img->ctype));
        return image_fault(cx, w, l, alloc, BI_IMG_UNDEFINED, why);
      }
      bi_img_coord c;
      coord_of(R + (size_t)ip->b * W + 4 * (size_t)((x[0] >> 8) & 0xffu) * l, x[0], &c);
      const unsigned tb = kind_bytes(x[1]);
      uint64_t off = 0, n = 0;
      int st = bi_image_write(img, &c, (int)x[1], R + (size_t)x[3] * W + (size_t)tb * l, &off, &n, why, sizeof why);
      if (st != BI_IMG_OK) return image_fault(cx, w, l, alloc, st, why);
      if (cx->written && cx->written[alloc]) memset(cx->written[alloc] + off, 1, n);
      if (hooked) hook_image(cx, w, l, fn, ip, alloc, off, n, true);
      break;
    }
    default: { /* EX_IMG_QUERY */
      const bi_image *img = image_of(cx, w, l, R + (size_t)ip->a * W + 8 * (size_t)l, &alloc);
      if (!img) return false;
      if (!lod_zero(R, W, x[3], x[4], l, why, sizeof why)) return image_fault(cx, w, l, alloc, BI_IMG_UNDEFINED, why);
      const unsigned eb = x[5], nc = x[6];
      uint8_t *d = R + (size_t)ip->d * W + (size_t)eb * nc * l;
      for (unsigned i = 0; i < nc; i++) {
        uint64_t v;
        switch (x[1]) {
        case EX_IQ_FORMAT: v = img->ctype; break; /* SPIR-V ImageChannelDataType */
        case EX_IQ_ORDER: v = img->order; break;  /* SPIR-V ImageChannelOrder */
        case EX_IQ_LEVELS: v = 1; break;          /* one mip level */
        default: v = img->size[i]; break;         /* width, height or layers, depth or layers */
        }
        if (eb == 8) memcpy(d + 8 * i, &v, 8);
        else {
          uint32_t v32 = (uint32_t)v;
          memcpy(d + 4 * i, &v32, 4);
        }
      }
      break;
    }
    }
  }
  return true;
}
