/*
 * ex_fault.c — the ground floor of the executor: recording a fault, and the descriptions every
 * report is made of (work-item ids, allocations, images, source sites, the fault's final text).
 *
 * Every other interp/ file may call these; they call nothing of interp/ (only the loader's names
 * and the builtins' image names), so a message can be built from anywhere without a dependency loop.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ex_api.h"
#include "ex_internal.h"
#include "ex_nullarg.h"
#include "gen_spv_tables.h"

void *ex_fault(ex_ctx *cx, spvi_fault_kind k, ex_warp *w, unsigned lane, uint32_t alloc, int64_t off, uint64_t size,
               const char *detail) {
  if (cx->faulted) return NULL;
  cx->faulted = true;
  cx->fkind = k;
  cx->fwarp = w;
  cx->flane = lane;
  cx->falloc = alloc;
  cx->foff = off;
  cx->fsize = size;
  cx->fsvm_base = cx->fsvm_size = 0; /* ex_svm.c sets them after this for SVM memory */
  cx->finsn = cx->cur_ip;
  cx->ffn = cx->cur_fn;
  snprintf(cx->fdetail, sizeof cx->fdetail, "%s", detail ? detail : "");
  return NULL;
}

/* Each fault kind's name in reports and its identifier in JSON lines (--report). */
static const struct {
  const char *name, *id;
} fault_kinds[] = {
  [SPVI_FAULT_NONE] = {"no fault", "none"},
  [SPVI_FAULT_OUT_OF_BOUNDS] = {"out-of-bounds access", "out-of-bounds"},
  [SPVI_FAULT_NULL_POINTER] = {"null pointer dereference", "null-pointer"},
  [SPVI_FAULT_BAD_POINTER] = {"invalid pointer dereference", "bad-pointer"},
  [SPVI_FAULT_READ_ONLY] = {"write to read-only memory", "read-only-write"},
  [SPVI_FAULT_BARRIER_DIVERGENCE] = {"barrier divergence", "divergence"},
  [SPVI_FAULT_UNREACHABLE] = {"unreachable code reached", "unreachable"},
  [SPVI_FAULT_UNSUPPORTED] = {"unsupported operation", "unsupported"},
  [SPVI_FAULT_MISALIGNED] = {"misaligned access", "misaligned"},
  [SPVI_FAULT_STEP_LIMIT] = {"step limit exceeded", "step-limit"},
  [SPVI_FAULT_ASYNC_COPY] = {"async copy misuse", "async-copy"},
  [SPVI_FAULT_IMAGE] = {"undefined image operation", "image"},
  [SPVI_FAULT_ARRAY_INDEX] = {"array index out of bounds", "array-index"},
  [SPVI_FAULT_ASSUME] = {"false assumption", "assume"},
};

const char *spvi_fault_kind_name(spvi_fault_kind k) {
  return (unsigned)k < sizeof fault_kinds / sizeof fault_kinds[0] && fault_kinds[k].name ? fault_kinds[k].name
                                                                                         : "fault";
}

const char *spvi_fault_kind_id(spvi_fault_kind k) {
  return (unsigned)k < sizeof fault_kinds / sizeof fault_kinds[0] && fault_kinds[k].id ? fault_kinds[k].id : "fault";
}

void ex_group_size(const ex_launch *l, const uint64_t g[3], uint64_t size[3]) {
  for (int d = 0; d < 3; d++) {
    uint64_t rest = l->global[d] - g[d] * l->local[d];
    size[d] = rest < l->local[d] ? rest : l->local[d];
  }
}

void ex_lane_ids(const ex_ctx *cx, const ex_warp *w, unsigned lane, uint64_t lid[3]) {
  ex_unlinear(ex_lane_item(w, lane), cx->group_size, lid);
}

uint64_t ex_lane_group_linear(const ex_ctx *cx, const ex_warp *w, unsigned lane) {
  if (w && w->pack_n) return w->pack_g0 + ex_lane_queue(w, lane) / w->pack_n;
  return cx->group[0] + cx->ngroups[0] * (cx->group[1] + cx->ngroups[1] * cx->group[2]);
}

void ex_lane_group(const ex_ctx *cx, const ex_warp *w, unsigned lane, uint64_t g[3]) {
  if (w && w->pack_n) ex_unlinear(ex_lane_group_linear(cx, w, lane), cx->ngroups, g);
  else memcpy(g, cx->group, sizeof cx->group);
}

void ex_describe_alloc(const ex_ctx *cx, uint32_t id, char *buf, size_t len) {
  const ld_module *m = cx->prog->ld;
  const ex_alloc *a = &cx->allocs[id];
  char nb[96];
  static const char *const space_names[] = {"private", "global", "constant", "local"};
  const char *sp = a->space < 4 ? space_names[a->space] : "?";
  if (a->arg_index >= 0 && a->image) {
    uint32_t pid = cx->l->entry->ld->params[a->arg_index];
    const char *nm = m->ids[pid].name;
    char d[160];
    ex_image_describe(a->image, d, sizeof d);
    /* cut at len on purpose (the report's field is fixed-size) */
    if (snprintf(buf, len, "argument %d%s%s%s (%s)", a->arg_index, nm ? " `" : "", nm ? nm : "", nm ? "`" : "", d) < 0)
      buf[0] = 0;
  } else if (a->arg_index >= 0) {
    uint32_t pid = cx->l->entry->ld->params[a->arg_index];
    const char *nm = m->ids[pid].name;
    snprintf(buf, len, "argument %d%s%s%s (%s buffer of %llu bytes)", a->arg_index, nm ? " `" : "", nm ? nm : "",
             nm ? "`" : "", sp, (unsigned long long)a->size);
  } else if (a->var_id) {
    bool module_scope = a->var_id < m->bound && m->ids[a->var_id].kind == LD_ID_GLOBAL;
    /* the source name from the debug information before the OpName (clang drops local names and
     * calls a kernel's local variable `kernel.name`) */
    const char *dn, *df;
    uint32_t dl;
    ld_var_decl(m, a->var_id, LD_NONE, &dn, &df, &dl);
    snprintf(buf, len, "%s %s `%s` (%llu bytes)", sp, module_scope ? "program-scope variable" : "variable",
             dn ? dn : ld_id_name(m, a->var_id, nb, sizeof nb), (unsigned long long)a->size);
  } else {
    snprintf(buf, len, "%s memory (%llu bytes)", sp, (unsigned long long)a->size);
  }
}

/* vsnprintf into a fixed buffer: a report longer than the buffer is cut, on purpose. */
static void format_into(char *buf, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, cap, fmt, ap);
  va_end(ap);
}

/* A null pointer derived from a null pointer argument (ex_nullarg.c): name the argument. */
static void null_arg_note(const ex_ctx *cx, spvi_fault *f, char *where, size_t cap) {
  const int arg = ex_null_arg(cx);
  if (arg < 0) return;
  const char *nm = cx->prog->ld->ids[cx->l->entry->ld->params[arg]].name;
  f->arg_index = arg;
  f->offset = cx->foff; /* the pointer: null plus this many bytes */
  f->access_size = cx->fsize;
  snprintf(f->memory, sizeof f->memory, "argument %d%s%s%s (null pointer)", arg, nm ? " `" : "", nm ? nm : "",
           nm ? "`" : "");
  const size_t n = strlen(where);
  snprintf(where + n, cap - n, "\n  the pointer is %s plus %llu bytes", f->memory, (unsigned long long)cx->foff);
}

void ex_fault_build_report(const ex_ctx *cx, spvi_fault *f) {
  const ld_module *m = cx->prog->ld;
  memset(f, 0, sizeof *f);
  f->kind = cx->fkind;
  f->arg_index = -1;
  snprintf(f->kernel, sizeof f->kernel, "%s", m->entries[cx->l->kernel].name);
  uint64_t lid[3] = {0, 0, 0}, g[3];
  if (cx->fwarp) ex_lane_ids(cx, cx->fwarp, cx->flane, lid);
  ex_lane_group(cx, cx->fwarp, cx->flane, g);
  for (int d = 0; d < 3; d++) {
    f->local_id[d] = lid[d];
    f->group_id[d] = g[d];
    f->global_id[d] = g[d] * cx->l->local[d] + lid[d] + cx->l->offset[d];
  }
  spvi_site at;
  memset(&at, 0, sizeof at);
  ex_site_where(m, cx->ffn, cx->finsn, &at);
  f->result_id = at.result_id;
  memcpy(f->opcode, at.opcode, sizeof f->opcode);
  memcpy(f->function, at.function, sizeof f->function);
  memcpy(f->file, at.file, sizeof f->file);
  f->line = at.line;
  f->column = at.column;
  char where[512] = "";
  if (cx->falloc || cx->fsvm_size) {
    /* an allocation of the launch, or the SVM allocation the pointer fell in (ex_svm.c) */
    const ex_alloc *a = cx->falloc ? &cx->allocs[cx->falloc] : NULL;
    if (a) {
      f->arg_index = a->arg_index;
      ex_describe_alloc(cx, cx->falloc, f->memory, sizeof f->memory);
      f->memory_size = a->size;
    } else {
      snprintf(f->memory, sizeof f->memory, "SVM allocation at 0x%llx (%llu bytes)", (unsigned long long)cx->fsvm_base,
               (unsigned long long)cx->fsvm_size);
      f->memory_size = cx->fsvm_size;
    }
    f->offset = cx->foff;
    f->access_size = cx->fsize;
    if (a && a->image) /* image accesses say where in pixel coordinates */
      snprintf(where, sizeof where, "\n  %s\n  image: %s", cx->fdetail, f->memory);
    else if (cx->fkind == SPVI_FAULT_ARRAY_INDEX || (cx->fkind == SPVI_FAULT_OUT_OF_BOUNDS && !cx->fsize))
      /* no access yet (an index, or an access chain out of the pointer's range): what the pointer is into */
      snprintf(where, sizeof where, "\n  %s, at offset %lld of %s", cx->fdetail, (long long)cx->foff, f->memory);
    else
      snprintf(where, sizeof where, "\n  %s of %llu bytes at offset %lld of %s",
               cx->fdetail[0] ? cx->fdetail : "access", (unsigned long long)cx->fsize, (long long)cx->foff, f->memory);
  } else if (cx->fkind == SPVI_FAULT_NULL_POINTER || cx->fkind == SPVI_FAULT_BAD_POINTER) {
    snprintf(where, sizeof where, "\n  %s of %llu bytes through pointer 0x%llx, which points to no memory",
             cx->fdetail[0] ? cx->fdetail : "access", (unsigned long long)cx->fsize, (unsigned long long)cx->foff);
    if (cx->fkind == SPVI_FAULT_NULL_POINTER) null_arg_note(cx, f, where, sizeof where);
  } else if (cx->fdetail[0]) {
    snprintf(where, sizeof where, "\n  %s", cx->fdetail);
  }
  char src[300];
  if (f->line) snprintf(src, sizeof src, "%s:%u%s", f->file[0] ? f->file : "?", f->line, "");
  else snprintf(src, sizeof src, "no source line information");
  const char *fnn = f->function[0] ? f->function : "?";
  char insn[96];
  ex_insn_name(cx->ffn, cx->finsn, insn, sizeof insn);
  /* the report may be cut at sizeof f->message; the fields above keep every detail */
  format_into(f->message, sizeof f->message,
              "%s in kernel `%s`\n  work-item global (%zu,%zu,%zu) local (%zu,%zu,%zu) group (%zu,%zu,%zu)\n"
              "  at %s in function `%s` (%s)%s",
              spvi_fault_kind_name(f->kind), f->kernel, f->global_id[0], f->global_id[1], f->global_id[2],
              f->local_id[0], f->local_id[1], f->local_id[2], f->group_id[0], f->group_id[1], f->group_id[2], insn, fnn,
              src, where);
}

/* ---- descriptions of images and sites ---------------------------------------------------- */

void ex_image_describe(const bi_image *img, char *buf, size_t len) {
  const char *tn = bi_image_type_name(img->type) ? bi_image_type_name(img->type) : "image";
  const char *on = bi_image_order_name(img->order), *cn = bi_image_ctype_name(img->ctype);
  switch (img->type) {
  case 0:
  case 1: snprintf(buf, len, "%s of %llu %s %s", tn, (unsigned long long)img->size[0], on, cn); break;
  case 2:
    snprintf(buf, len, "%s of %llu x %llu layers %s %s", tn, (unsigned long long)img->size[0],
             (unsigned long long)img->size[1], on, cn);
    break;
  case 3:
    snprintf(buf, len, "%s of %llu x %llu %s %s", tn, (unsigned long long)img->size[0],
             (unsigned long long)img->size[1], on, cn);
    break;
  default:
    snprintf(buf, len, "%s of %llu x %llu x %llu%s %s %s", tn, (unsigned long long)img->size[0],
             (unsigned long long)img->size[1], (unsigned long long)img->size[2], img->type == 4 ? " layers" : "", on,
             cn);
    break;
  }
}

void ex_site_where(const ld_module *m, const ex_func *fn, const ex_insn *ip, spvi_site *o) {
  if (!fn) return;
  ld_id_name(m, fn->ld->id, o->function, sizeof o->function);
  if (!ip) return;
  const ld_insn *li = &fn->ld->insns[ip->src];
  o->result_id = li->result;
  const char *on = spv_op_name(li->opcode);
  snprintf(o->opcode, sizeof o->opcode, "%s", on ? on : "?");
  if (li->line) {
    const char *file = li->file < m->bound ? m->ids[li->file].name : NULL;
    snprintf(o->file, sizeof o->file, "%s", file ? file : "");
    o->line = li->line;
    o->column = li->column;
  }
}

void ex_insn_name(const ex_func *fn, const ex_insn *ip, char *buf, size_t len) {
  if (!fn || !ip) {
    snprintf(buf, len, "?");
    return;
  }
  const ld_function *lf = fn->ld;
  const ld_insn *li = &lf->insns[ip->src];
  const char *on = spv_op_name(li->opcode);
  on = on ? on : "?";
  if (li->result) {
    snprintf(buf, len, "%s %%%u", on, li->result);
    return;
  }
  snprintf(buf, len, "%s", on);
  if (li->line) return;
  for (uint32_t i = 0; i < lf->nblocks; i++) {
    const ld_block *b = &lf->blocks[i];
    if (ip->src - b->first < b->count) {
      snprintf(buf, len, "%s (instruction %u of block %%%u)", on, ip->src - b->first + 1, b->label);
      return;
    }
  }
}

/* ---- API error messages ------------------------------------------------------------------ */

void ex_set_err(spvi_error *e, spvi_status s, const char *fmt, ...) {
  if (!e) return;
  e->status = s;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->message, sizeof e->message, fmt, ap);
  va_end(ap);
}
void ex_clear_err(spvi_error *e) {
  if (e) {
    e->status = SPVI_OK;
    e->message[0] = 0;
  }
}
