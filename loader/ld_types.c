/*
 * ld_types.c — type declarations (OpType*) and their memory/register layout.
 *
 * Layout rules (the ld_ir.h header states them; sources):
 *   - scalars: OpTypeInt widths 8/16/32/64, OpTypeFloat widths 16/32/64 (env spec "Basic Scalar and
 *     Vector Types"), aligned to their size (env spec "Alignment of Types", OpenCL C 6.3.5).
 *     OpTypeBool has no memory representation in SPIR-V; spvi gives it one byte everywhere.
 *   - vectors of 2, 3, 4, 8 or 16 scalars (env spec, ibid.): size and alignment of n rounded up to
 *     a power of two elements (a 3-vector is four elements in memory, env spec "Alignment of
 *     Types"; OpenCL C 6.3.5 "Alignment of Types"); in a register exactly n elements.
 *   - arrays: element size * length, alignment of the element; length from a constant
 *     (SPIR-V 3.32.6 OpTypeArray). The element size is already a multiple of its alignment.
 *   - structs: C layout (each member at the next multiple of its alignment, size rounded up to
 *     the largest member alignment) unless the members carry Offset decorations; CPacked (SPIR-V
 *     3.20: "the structure is packed, no padding") makes the alignment 1 and removes padding.
 *   - pointers: 4 or 8 bytes per the addressing model (env spec "Validation Rules").
 *   - opaque types (events, queues, pipes, images, samplers ...): an 8-byte handle in memory and
 *     in a register; a sampled image (OpTypeSampledImage) holds two, the image's and the sampler's.
 *   - images: the OpenCL environment's image types only (env spec "Validation Rules": Sampled Type
 *     OpTypeVoid, Sampled 0, Image Format Unknown, an Access Qualifier; "Image Addressing and
 *     Filtering", coordinate table: Dim 1D, 2D, 3D or Buffer, Arrayed only for 1D and 2D). Depth
 *     and multi-sampled images (cl_khr_depth_images, cl_khr_gl_msaa_sharing) are not supported.
 */
#include <stdio.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ld_internal.h"

/* Register bytes of an opaque handle. */
#define LD_OPAQUE_REG_BYTES 8u
/* Memory bytes of an opaque value: an 8-byte handle, like the register form, so that -O0 kernels
 * can keep an event_t in a Function variable and declare arrays of events. */
#define LD_OPAQUE_MEM_BYTES 8u

/* The opaque type declarations spvi accepts (env spec "Supported Types": image-related and
 * "Other Data Types"; SPIR-V 3.32.6 for the rest). Operations on them are the executor's concern. */
static const uint16_t opaque_ops[] = {
  SpvOpTypeEvent,  SpvOpTypeDeviceEvent,  SpvOpTypeReserveId,   SpvOpTypeQueue,
  SpvOpTypePipe,   SpvOpTypeImage,        SpvOpTypeSampler,     SpvOpTypeSampledImage,
  SpvOpTypeOpaque, SpvOpTypeNamedBarrier, SpvOpTypePipeStorage,
};

bool ld_types_is_type_opcode(uint32_t opcode) {
  const spv_opinfo *i = spv_op_info(opcode);
  return i && i->is_type;
}

bool ld_type_is_scalar(const ld_type *t) {
  return t && (t->kind == LD_TY_BOOL || t->kind == LD_TY_INT || t->kind == LD_TY_FLOAT);
}

bool ld_type_is_sized(const ld_type *t) {
  switch (t->kind) {
  case LD_TY_BOOL:
  case LD_TY_INT:
  case LD_TY_FLOAT:
  case LD_TY_VECTOR:
  case LD_TY_ARRAY:
  case LD_TY_STRUCT:
  case LD_TY_POINTER: return true;
  case LD_TY_OPAQUE: return t->size > 0;
  default: return false;
  }
}

uint32_t ld_type_reg_bytes(const ld_type *t) { return t->reg_size ? t->reg_size : 1; }

static bool same_depth(const ld_module *m, uint32_t a, uint32_t b, int depth) {
  if (a == b) return true;
  const ld_type *x = ld_type_of(m, a), *y = ld_type_of(m, b);
  if (!x || !y || x->kind != y->kind || depth > 8) return false;
  switch (x->kind) {
  case LD_TY_VOID:
  case LD_TY_BOOL: return true;
  case LD_TY_INT:
  case LD_TY_FLOAT: return x->bits == y->bits;
  case LD_TY_VECTOR: return x->count == y->count && same_depth(m, x->elem, y->elem, depth + 1);
  case LD_TY_POINTER: return x->storage == y->storage && same_depth(m, x->elem, y->elem, depth + 1);
  default: return false; /* aggregates and opaque types are distinct per declaration */
  }
}

bool ld_type_same(const ld_module *m, uint32_t a, uint32_t b) { return same_depth(m, a, b, 0); }

static uint64_t round_up(uint64_t v, uint64_t align) { return (v + align - 1) / align * align; }

/* A component, element or member type must have a memory size. */
static const ld_type *need_sized(ld_ctx *c, const ld_raw *r, uint32_t id, const char *what) {
  const ld_type *t = ld_need_type(c, r, id, what);
  if (!t) return NULL;
  if (!ld_type_is_sized(t)) {
    ld_errf(c, r->at, "%s %%%u (%s) has no memory size", what, id,
            t->kind == LD_TY_OPAQUE     ? t->opaque
            : t->kind == LD_TY_VOID     ? "void"
            : t->kind == LD_TY_FUNCTION ? "a function type"
                                        : "a runtime array");
    return NULL;
  }
  return t;
}

static bool type_int(ld_ctx *c, const ld_raw *r, ld_type *t) {
  uint32_t width = r->w[2], sign = r->w[3];
  if (width != 8 && width != 16 && width != 32 && width != 64)
    return ld_errf(c, r->at, "OpTypeInt %%%u width %u is not supported (8, 16, 32 or 64)", t->id, width);
  if (sign > 1) return ld_errf(c, r->at, "OpTypeInt %%%u signedness %u is not 0 or 1", t->id, sign);
  t->kind = LD_TY_INT;
  t->bits = width;
  t->size = t->align = t->reg_size = width / 8;
  return true;
}

static bool type_float(ld_ctx *c, const ld_raw *r, ld_type *t) {
  uint32_t width = r->w[2];
  if (width != 16 && width != 32 && width != 64)
    return ld_errf(c, r->at, "OpTypeFloat %%%u width %u is not supported (16, 32 or 64)", t->id, width);
  t->kind = LD_TY_FLOAT;
  t->bits = width;
  t->size = t->align = t->reg_size = width / 8;
  return true;
}

static bool type_vector(ld_ctx *c, const ld_raw *r, ld_type *t) {
  char what[64];
  snprintf(what, sizeof what, "OpTypeVector %%%u component type", t->id);
  const ld_type *e = ld_need_type(c, r, r->w[2], what);
  if (!e) return false;
  if (!ld_type_is_scalar(e)) return ld_errf(c, r->at, "%s %%%u is not a scalar type", what, r->w[2]);
  uint32_t n = r->w[3];
  if (n != 2 && n != 3 && n != 4 && n != 8 && n != 16)
    return ld_errf(c, r->at, "OpTypeVector %%%u has %u components (2, 3, 4, 8 or 16 are supported)", t->id, n);
  t->kind = LD_TY_VECTOR;
  t->elem = r->w[2];
  t->count = n;
  t->size = t->align = e->size * (n == 3 ? 4 : n);
  t->reg_size = e->size * n;
  return true;
}

static bool type_array(ld_ctx *c, const ld_raw *r, ld_type *t) {
  char what[64];
  snprintf(what, sizeof what, "OpTypeArray %%%u element type", t->id);
  const ld_type *e = need_sized(c, r, r->w[2], what);
  if (!e) return false;
  uint64_t len;
  snprintf(what, sizeof what, "OpTypeArray %%%u length", t->id);
  if (!ld_const_uint(c, r, r->w[3], what, &len)) return false;
  if (len == 0) return ld_errf(c, r->at, "OpTypeArray %%%u has length 0 (must be at least 1)", t->id);
  uint64_t size = (uint64_t)e->size * len;
  if (len > UINT32_MAX || size > UINT32_MAX)
    return ld_errf(c, r->at, "OpTypeArray %%%u is too large (%llu elements of %u bytes)", t->id,
                   (unsigned long long)len, e->size);
  const ld_decoration *st = ld_find_decoration(c->m, t->id, SpvDecorationArrayStride);
  if (st && st->args[0] != e->size)
    return ld_errf(c, r->at,
                   "OpTypeArray %%%u: ArrayStride %u differs from the element size %u, which spvi does not support",
                   t->id, st->args[0], e->size);
  t->kind = LD_TY_ARRAY;
  t->elem = r->w[2];
  t->count = (uint32_t)len;
  t->size = t->reg_size = (uint32_t)size;
  t->align = e->align;
  return true;
}

static bool type_runtime_array(ld_ctx *c, const ld_raw *r, ld_type *t) {
  char what[64];
  snprintf(what, sizeof what, "OpTypeRuntimeArray %%%u element type", t->id);
  const ld_type *e = need_sized(c, r, r->w[2], what);
  if (!e) return false;
  t->kind = LD_TY_RUNTIME_ARRAY;
  t->elem = r->w[2];
  t->align = e->align;
  return true;
}

static bool type_struct(ld_ctx *c, const ld_raw *r, ld_type *t) {
  ld_module *m = c->m;
  uint32_t n = r->nwords - 2u;
  t->kind = LD_TY_STRUCT;
  t->count = n;
  t->members = ld_arena_array(c->arena, n, sizeof(uint32_t));
  t->offsets = ld_arena_array(c->arena, n, sizeof(uint32_t));
  if (!t->members || !t->offsets) return ld_oom(c);
  t->packed = ld_find_decoration(m, t->id, SpvDecorationCPacked) != NULL;
  uint32_t ndecorated = 0;
  for (uint32_t i = 0; i < n; i++)
    if (ld_find_member_decoration(m, t->id, i, SpvDecorationOffset)) ndecorated++;
  if (ndecorated && ndecorated != n)
    return ld_errf(c, r->at, "OpTypeStruct %%%u: %u of its %u members have an Offset decoration (all or none must)",
                   t->id, ndecorated, n);
  uint64_t off = 0, end = 0, align = 1;
  for (uint32_t i = 0; i < n; i++) {
    char what[64];
    snprintf(what, sizeof what, "OpTypeStruct %%%u member %u type", t->id, i);
    const ld_type *e = need_sized(c, r, r->w[2 + i], what);
    if (!e) return false;
    t->members[i] = r->w[2 + i];
    if (!t->packed && e->align > align) align = e->align;
    if (ndecorated) {
      uint64_t want = ld_find_member_decoration(m, t->id, i, SpvDecorationOffset)->args[0];
      /* Members in declaration order must not overlap: constants and loads copy member by member. */
      if (want < end)
        return ld_errf(c, r->at,
                       "OpTypeStruct %%%u member %u: Offset %llu overlaps the previous member (which ends at %llu)",
                       t->id, i, (unsigned long long)want, (unsigned long long)end);
      off = want;
    } else if (!t->packed) {
      off = round_up(off, e->align);
    }
    t->offsets[i] = (uint32_t)off;
    off += e->size;
    end = off;
    if (end > UINT32_MAX)
      return ld_errf(c, r->at, "OpTypeStruct %%%u is too large (more than %u bytes)", t->id, UINT32_MAX);
  }
  uint64_t size = round_up(end, align);
  if (size > UINT32_MAX)
    return ld_errf(c, r->at, "OpTypeStruct %%%u is too large (more than %u bytes)", t->id, UINT32_MAX);
  t->size = t->reg_size = (uint32_t)size;
  t->align = (uint32_t)align;
  return true;
}

static bool type_pointer(ld_ctx *c, const ld_raw *r, ld_type *t) {
  uint32_t sc = r->w[2];
  if (!spv_storage_class_name(sc)) return ld_errf(c, r->at, "OpTypePointer %%%u: unknown storage class %u", t->id, sc);
  char what[64];
  snprintf(what, sizeof what, "OpTypePointer %%%u pointee type", t->id);
  if (!ld_need_type(c, r, r->w[3], what)) return false;
  t->kind = LD_TY_POINTER;
  t->storage = sc;
  t->elem = r->w[3];
  t->size = t->align = t->reg_size = c->m->pointer_bytes;
  return true;
}

static bool type_function(ld_ctx *c, const ld_raw *r, ld_type *t) {
  char what[64];
  snprintf(what, sizeof what, "OpTypeFunction %%%u return type", t->id);
  const ld_type *rt = ld_need_type(c, r, r->w[2], what);
  if (!rt) return false;
  if (rt->kind == LD_TY_FUNCTION || rt->kind == LD_TY_RUNTIME_ARRAY)
    return ld_errf(c, r->at, "%s %%%u cannot be returned", what, r->w[2]);
  uint32_t n = r->nwords - 3u;
  t->kind = LD_TY_FUNCTION;
  t->elem = r->w[2];
  t->count = n;
  t->members = ld_arena_array(c->arena, n, sizeof(uint32_t));
  if (!t->members) return ld_oom(c);
  for (uint32_t i = 0; i < n; i++) {
    snprintf(what, sizeof what, "OpTypeFunction %%%u parameter %u type", t->id, i);
    const ld_type *p = ld_need_type(c, r, r->w[3 + i], what);
    if (!p) return false;
    if (p->kind == LD_TY_VOID || p->kind == LD_TY_FUNCTION || p->kind == LD_TY_RUNTIME_ARRAY)
      return ld_errf(c, r->at, "%s %%%u cannot be a parameter", what, r->w[3 + i]);
    t->members[i] = r->w[3 + i];
  }
  return true;
}

/* OpTypeImage %id SampledType Dim Depth Arrayed MS Sampled Format [Access] (SPIR-V 3.32.6). */
static bool type_image(ld_ctx *c, const ld_raw *r, ld_type *t) {
  char what[64];
  snprintf(what, sizeof what, "OpTypeImage %%%u sampled type", t->id);
  const ld_type *st = ld_need_type(c, r, r->w[2], what);
  if (!st) return false;
  if (r->nwords < 9)
    return ld_errf(c, r->at, "OpTypeImage %%%u has %u words, expects 9 or 10", t->id, (unsigned)r->nwords);
  uint32_t dim = r->w[3], depth = r->w[4], arrayed = r->w[5], ms = r->w[6], sampled = r->w[7], format = r->w[8];
  const char *dn = spv_dim_name(dim);
  if (st->kind != LD_TY_VOID)
    return ld_errf(c, r->at,
                   "OpTypeImage %%%u: sampled type %%%u is not OpTypeVoid (the OpenCL environment requires void)",
                   t->id, r->w[2]);
  if (dim != SpvDim1D && dim != SpvDim2D && dim != SpvDim3D && dim != SpvDimBuffer)
    return ld_errf(c, r->at, "OpTypeImage %%%u: Dim %s is not supported (1D, 2D, 3D and Buffer are)", t->id,
                   dn ? dn : "?");
  if (arrayed > 1 || (arrayed && dim != SpvDim1D && dim != SpvDim2D))
    return ld_errf(c, r->at, "OpTypeImage %%%u: Arrayed %u with Dim %s is not supported (1D and 2D arrays are)", t->id,
                   arrayed, dn);
  if (depth == 1)
    return ld_errf(c, r->at, "OpTypeImage %%%u: depth images (image2d_depth_t, cl_khr_depth_images) are not supported",
                   t->id);
  if (depth != 0)
    return ld_errf(c, r->at, "OpTypeImage %%%u: Depth %u is not supported (0: not a depth image)", t->id, depth);
  if (ms != 0) return ld_errf(c, r->at, "OpTypeImage %%%u: multi-sampled images (MS %u) are not supported", t->id, ms);
  if (sampled != 0)
    return ld_errf(c, r->at, "OpTypeImage %%%u: Sampled %u is not supported (the OpenCL environment uses 0)", t->id,
                   sampled);
  if (format != SpvImageFormatUnknown)
    return ld_errf(c, r->at, "OpTypeImage %%%u: Image Format %u is not supported (the OpenCL environment uses Unknown)",
                   t->id, format);
  if (r->nwords < 10)
    return ld_errf(c, r->at, "OpTypeImage %%%u has no Access Qualifier (OpenCL kernels need one)", t->id);
  if (r->w[9] > SpvAccessQualifierReadWrite)
    return ld_errf(c, r->at, "OpTypeImage %%%u: unknown Access Qualifier %u", t->id, r->w[9]);
  t->img_dim = dim;
  t->img_arrayed = arrayed;
  t->img_access = r->w[9];
  return true;
}

static bool type_opaque(ld_ctx *c, const ld_raw *r, ld_type *t) {
  char what[64];
  if (r->opcode == SpvOpTypeImage) {
    if (!type_image(c, r, t)) return false;
  } else if (r->opcode == SpvOpTypeSampledImage) {
    snprintf(what, sizeof what, "OpTypeSampledImage %%%u image type", t->id);
    const ld_type *img = ld_need_type(c, r, r->w[2], what);
    if (!img) return false;
    if (img->kind != LD_TY_OPAQUE || strcmp(img->opaque, "OpTypeImage") != 0)
      return ld_errf(c, r->at, "%s %%%u is not an OpTypeImage", what, r->w[2]);
    t->elem = r->w[2];
  } else if (r->opcode == SpvOpTypeOpaque) {
    const char *name;
    if (!ld_string(c, r, 2, &name, NULL)) return false;
  }
  t->kind = LD_TY_OPAQUE;
  t->opaque = r->info->name; /* static string from the generated table */
  t->size = LD_OPAQUE_MEM_BYTES;
  t->align = LD_OPAQUE_MEM_BYTES ? LD_OPAQUE_MEM_BYTES : 1;
  t->reg_size = LD_OPAQUE_REG_BYTES;
  if (r->opcode == SpvOpTypeSampledImage) t->size = t->reg_size = 2 * LD_OPAQUE_REG_BYTES; /* image, sampler */
  return true;
}

/* OpTypeForwardPointer %p StorageClass (SPIR-V 3.32.6): declares the pointer type before its
 * pointee exists, so structs can contain pointers to themselves. The type entry is created here
 * (a pointer's size does not depend on its pointee) and completed by the OpTypePointer. */
static bool forward_pointer(ld_ctx *c, const ld_raw *r) {
  ld_module *m = c->m;
  uint32_t id = r->w[1], sc = r->w[2];
  ld_id *e = ld_ref(c, r, id, "OpTypeForwardPointer pointer type");
  if (!e) return false;
  if (e->kind != LD_ID_NONE || c->def_at[id])
    return ld_errf(c, r->at, "OpTypeForwardPointer %%%u: the id is already %s", id,
                   c->def_at[id] ? "defined" : "forward-declared");
  if (!spv_storage_class_name(sc))
    return ld_errf(c, r->at, "OpTypeForwardPointer %%%u: unknown storage class %u", id, sc);
  if (m->ntypes >= c->max_types) return ld_errf(c, r->at, "internal error: type table full");
  ld_type *t = &m->types[m->ntypes];
  t->id = id;
  t->kind = LD_TY_POINTER;
  t->storage = sc;
  t->size = t->align = t->reg_size = m->pointer_bytes;
  e->kind = LD_ID_TYPE;
  e->index = m->ntypes++;
  return true;
}

bool ld_type_insn(ld_ctx *c, const ld_raw *r) {
  ld_module *m = c->m;
  if (r->opcode == SpvOpTypeForwardPointer) return forward_pointer(c, r);
  uint32_t id = r->w[1];
  char what[64];
  snprintf(what, sizeof what, "%s result id", r->info->name);
  if (!ld_ref(c, r, id, what)) return false;
  /* A forward-declared pointer gets its pointee now. */
  if (r->opcode == SpvOpTypePointer && m->ids[id].kind == LD_ID_TYPE && !c->def_at[id]) {
    ld_type *t = &m->types[m->ids[id].index];
    if (t->storage != r->w[2])
      return ld_errf(c, r->at, "OpTypePointer %%%u: storage class %u differs from its OpTypeForwardPointer's %u", id,
                     r->w[2], t->storage);
    c->def_at[id] = r->at; /* the forward declaration is now defined */
    return type_pointer(c, r, t);
  }
  if (!ld_define(c, r, id)) return false;
  if (m->ntypes >= c->max_types) return ld_errf(c, r->at, "internal error: type table full");
  ld_type *t = &m->types[m->ntypes];
  memset(t, 0, sizeof *t);
  t->id = id;
  t->align = 1;
  bool ok;
  switch (r->opcode) {
  case SpvOpTypeVoid:
    t->kind = LD_TY_VOID;
    ok = true;
    break;
  case SpvOpTypeBool:
    t->kind = LD_TY_BOOL;
    t->bits = 8;
    t->size = t->align = t->reg_size = 1;
    ok = true;
    break;
  case SpvOpTypeInt: ok = type_int(c, r, t); break;
  case SpvOpTypeFloat: ok = type_float(c, r, t); break;
  case SpvOpTypeVector: ok = type_vector(c, r, t); break;
  case SpvOpTypeArray: ok = type_array(c, r, t); break;
  case SpvOpTypeRuntimeArray: ok = type_runtime_array(c, r, t); break;
  case SpvOpTypeStruct: ok = type_struct(c, r, t); break;
  case SpvOpTypePointer: ok = type_pointer(c, r, t); break;
  case SpvOpTypeFunction: ok = type_function(c, r, t); break;
  default: {
    bool opaque = false;
    for (size_t i = 0; i < sizeof opaque_ops / sizeof opaque_ops[0]; i++)
      if (opaque_ops[i] == r->opcode) opaque = true;
    ok = opaque ? type_opaque(c, r, t)
                : ld_errf(c, r->at, "type declaration %s %%%u is not supported by spvi", r->info->name, id);
    break;
  }
  }
  if (!ok) return false;
  m->ids[id].kind = LD_ID_TYPE;
  m->ids[id].index = m->ntypes++;
  return true;
}
