/*
 * ex_api.c — the public C API (include/spvi.h) over the loader and the executor: module loading
 * and introspection (kernel parameter descriptions in OpenCL C terms), launch set-up with argument
 * and NDRange checking, and running.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <spirv/unified1/spirv.h>

#include "ex.h"
#include "ex_api.h"
#include "ex_check.h"
#include "ex_dump.h"
#include "inspect/ex_inspect.h"
#include "ex_svm.h"
#include "gen_spv_tables.h"
#include "spvi.h"

#define MAX_LOCAL_ITEMS 4096u /* work-items in one group: far above what devices allow (256..1024) */

typedef struct kinfo {
  uint32_t entry; /* index into ld->entries */
  const ex_func *fn;
  int nparams;
  spvi_param_info *params;
  char **strings; /* owned names */
  int nstrings;
  uint64_t local_bytes; /* its Workgroup variables (spvi_kernel_local_bytes) */
} kinfo;

/* A program-scope variable in global or constant memory, as spvi_global_info describes it. */
typedef struct ginfo {
  spvi_global_info info;
  uint32_t alloc;         /* its static allocation id (the bytes are pstate->mem[alloc]) */
  char *name, *type_name; /* owned */
} ginfo;

struct spvi_module {
  ld_module *ld;
  ex_program *prog;
  ex_pstate *pstate; /* program-scope variables: they outlive launches */
  kinfo *kernels;
  int nkernels;
  const char **caps;
  ginfo *globals;
  int nglobals;
};

struct spvi_launch {
  spvi_module *m;
  int kernel;
  ex_launch l;
};

#define set_err(...) ex_set_err(__VA_ARGS__)
#define clear_err(e) ex_clear_err(e)

/* ---- loading ------------------------------------------------------------------------------ */

/* Reads a module file into a malloc'd buffer: a regular file by its size, anything else (a pipe,
 * /dev/stdin, a device) in growing chunks. Either way at most LD_MAX_MODULE_BYTES + 1 bytes (one
 * more to tell "too large"), and a stream stops after its first word when that is not SPIR-V's
 * magic number in either byte order (SPIR-V 2.3), so /dev/zero costs 4 bytes, not the machine. The
 * loader gives the message for a short, bad or too large module. */
static bool read_module(FILE *f, const char *path, uint8_t **out, size_t *len, spvi_error *err) {
  struct stat st;
  if (fstat(fileno(f), &st) != 0) {
    set_err(err, SPVI_E_IO, "cannot read %s: %s", path, strerror(errno));
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    set_err(err, SPVI_E_IO, "cannot read %s: it is a directory, not a SPIR-V module", path);
    return false;
  }
  const size_t limit = LD_MAX_MODULE_BYTES + 1;
  /* a regular file: its size and one byte more, so that its end is seen without growing */
  size_t cap = S_ISREG(st.st_mode) && (uint64_t)st.st_size < limit ? (size_t)st.st_size + 1 : 4;
  if (S_ISREG(st.st_mode) && (uint64_t)st.st_size >= limit) cap = limit;
  size_t n = 0;
  uint8_t *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap || cap == limit || ferror(f)) break;
    if (n == 4) {
      uint32_t magic;
      memcpy(&magic, buf, 4);
      if (magic != SpvMagicNumber && magic != __builtin_bswap32(SpvMagicNumber)) break;
    }
    size_t want = cap < limit / 16 ? cap * 16 : limit;
    uint8_t *nb = realloc(buf, want);
    if (!nb) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = nb;
    cap = want;
  }
  if (!buf) {
    set_err(err, SPVI_E_NOMEM, "out of memory reading %s", path);
    return false;
  }
  if (ferror(f)) {
    set_err(err, SPVI_E_IO, "cannot read %s: %s", path, strerror(errno));
    free(buf);
    return false;
  }
  *out = buf;
  *len = n;
  return true;
}

spvi_module *spvi_load_file(const char *path, const spvi_load_options *opts, spvi_error *err) {
  clear_err(err);
  FILE *f = fopen(path, "rb");
  if (!f) {
    set_err(err, SPVI_E_IO, "cannot open %s: %s", path, strerror(errno));
    return NULL;
  }
  uint8_t *buf = NULL;
  size_t n = 0;
  bool ok = read_module(f, path, &buf, &n, err);
  fclose(f);
  if (!ok) return NULL;
  spvi_module *m = spvi_load_memory(buf, n, path, opts, err);
  free(buf);
  return m;
}

static void warn_bridge(void *user, const char *msg) {
  const spvi_load_options *o = user;
  if (o && o->on_message) o->on_message(o->user, SPVI_WARNING, msg);
}

static void note_bridge(void *user, const char *msg) {
  const spvi_load_options *o = user;
  if (o && o->on_message) o->on_message(o->user, SPVI_NOTE, msg);
}

static char *kstrdup(kinfo *k, const char *s) {
  char *d = malloc(strlen(s) + 1);
  if (!d) abort();
  strcpy(d, s);
  k->strings = realloc(k->strings, (size_t)(k->nstrings + 1) * sizeof *k->strings);
  if (!k->strings) abort();
  k->strings[k->nstrings++] = d;
  return d;
}

/* The spvi_image_type of an OpTypeImage (the loader admits only these dimensionalities). */
static spvi_image_type image_type(const ld_type *t) {
  if (t->img_dim == SpvDimBuffer) return SPVI_IMAGE_1D_BUFFER;
  if (t->img_dim == SpvDim1D) return t->img_arrayed ? SPVI_IMAGE_1D_ARRAY : SPVI_IMAGE_1D;
  if (t->img_dim == SpvDim2D) return t->img_arrayed ? SPVI_IMAGE_2D_ARRAY : SPVI_IMAGE_2D;
  return SPVI_IMAGE_3D;
}

/* OpenCL C spelling of a type (signedness is not in SPIR-V: integers are spelled signed). */
static void type_spelling(const ld_module *m, uint32_t tid, char *buf, size_t len) {
  const ld_type *t = ld_type_of(m, tid);
  if (!t) {
    snprintf(buf, len, "?");
    return;
  }
  switch (t->kind) {
  case LD_TY_INT:
    snprintf(buf, len, "%s", t->bits == 8 ? "char" : t->bits == 16 ? "short" : t->bits == 32 ? "int" : "long");
    return;
  case LD_TY_FLOAT: snprintf(buf, len, "%s", t->bits == 16 ? "half" : t->bits == 32 ? "float" : "double"); return;
  case LD_TY_BOOL: snprintf(buf, len, "bool"); return;
  case LD_TY_VECTOR: {
    char e[32];
    type_spelling(m, t->elem, e, sizeof e);
    snprintf(buf, len, "%s%u", e, t->count);
    return;
  }
  case LD_TY_POINTER: {
    char e[200];
    type_spelling(m, t->elem, e, sizeof e);
    snprintf(buf, len, "%s*", t->elem ? e : "void");
    return;
  }
  case LD_TY_STRUCT: {
    const char *n = m->ids[t->id].name;
    if (n && strncmp(n, "struct.", 7) == 0) snprintf(buf, len, "struct %s", n + 7);
    else if (n) snprintf(buf, len, "%s", n);
    else snprintf(buf, len, "struct");
    return;
  }
  case LD_TY_ARRAY: {
    char e[200];
    type_spelling(m, t->elem, e, sizeof e);
    snprintf(buf, len, "%s[%u]", e, t->count);
    return;
  }
  case LD_TY_OPAQUE:
    if (strcmp(t->opaque, "OpTypeImage") == 0) {
      static const char *const acc[] = {"read_only", "write_only", "read_write"};
      snprintf(buf, len, "%s %s_t", acc[t->img_access <= 2 ? t->img_access : 0], spvi_image_type_name(image_type(t)));
    } else if (strcmp(t->opaque, "OpTypeSampler") == 0) {
      snprintf(buf, len, "sampler_t");
    } else {
      snprintf(buf, len, "%s", t->opaque ? t->opaque : "opaque");
    }
    return;
  default: snprintf(buf, len, "?"); return;
  }
}

static void describe_value_type(const ld_module *m, uint32_t tid, spvi_param_info *pi) {
  const ld_type *t = ld_type_of(m, tid);
  pi->elem_kind = SPVI_S_OTHER;
  pi->elem_bits = 0;
  pi->vec_width = 0;
  if (!t) return;
  pi->size = t->size;
  unsigned width = 1;
  if (t->kind == LD_TY_VECTOR) {
    width = t->count;
    t = ld_type_of(m, t->elem);
    if (!t) return;
  }
  if (t->kind == LD_TY_INT) pi->elem_kind = SPVI_S_INT;
  else if (t->kind == LD_TY_FLOAT) pi->elem_kind = SPVI_S_FLOAT;
  else if (t->kind == LD_TY_BOOL) pi->elem_kind = SPVI_S_BOOL;
  else return;
  pi->elem_bits = t->bits;
  pi->vec_width = width;
}

/* The kernel argument information llvm-spirv keeps in OpStrings (translated with
 * --preserve-ocl-kernel-arg-type-metadata-through-string from a module compiled with
 * -cl-kernel-arg-info): "<prefix><kernel>.<field 0>,<field 1>,...," (prefix "kernel_arg_type." or
 * "kernel_arg_type_qual."). The module's strings are listed once, so that describing every kernel
 * does not scan every id per parameter (a 320-kernel module spent a fifth of its load there). */
typedef struct arg_strings {
  const char **s; /* the OpStrings starting with "kernel_arg_type" */
  uint32_t n;
} arg_strings;

static bool arg_strings_init(const ld_module *m, arg_strings *as) {
  static const char pfx[] = "kernel_arg_type";
  as->n = 0;
  as->s = NULL;
  uint32_t n = 0;
  for (uint32_t id = 1; id < m->bound; id++)
    n += m->ids[id].kind == LD_ID_STRING && m->ids[id].name && strncmp(m->ids[id].name, pfx, sizeof pfx - 1) == 0;
  if (n == 0) return true;
  as->s = malloc(n * sizeof *as->s);
  if (!as->s) return false;
  for (uint32_t id = 1; id < m->bound; id++)
    if (m->ids[id].kind == LD_ID_STRING && m->ids[id].name && strncmp(m->ids[id].name, pfx, sizeof pfx - 1) == 0)
      as->s[as->n++] = m->ids[id].name;
  return true;
}

/* The fields of `kernel` under `prefix` (just after "<prefix><kernel>."), NULL when absent. */
static const char *arg_info_fields(const arg_strings *as, const char *prefix, const char *kernel) {
  const size_t np = strlen(prefix), nk = strlen(kernel);
  for (uint32_t i = 0; i < as->n; i++) {
    const char *s = as->s[i];
    if (strncmp(s, prefix, np) == 0 && strncmp(s + np, kernel, nk) == 0 && s[np + nk] == '.') return s + np + nk + 1;
  }
  return NULL;
}

/* Field `index` of `fields` (arg_info_fields) into buf; false, buf empty, when there is none. */
static bool arg_info_field(const char *fields, uint32_t index, char *buf, size_t len) {
  buf[0] = 0;
  const char *s = fields;
  for (uint32_t f = 0; f < index && s; f++) {
    s = strchr(s, ',');
    if (s) s++;
  }
  if (!s) return false;
  const size_t n = strcspn(s, ",");
  snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), s);
  return true;
}

/* Bytes of the Workgroup variables kernel `e` uses: from SPIR-V 1.4 on, an entry point's interface
 * lists every module-scope variable its call tree references (SPIR-V 2.17 / OpEntryPoint), laid
 * out as ex_prepare does (16-byte aligned each); before 1.4 it lists only Input/Output, and the
 * module-wide figure is the answer. */
static uint64_t kernel_local_bytes(const spvi_module *mod, const ld_entry *e) {
  const ld_module *m = mod->ld;
  if (m->version < 0x00010400u) return mod->prog->local_static;
  uint64_t n = 0;
  for (uint32_t i = 0; i < e->ninterface; i++) {
    const uint32_t id = e->interface[i];
    if (id >= m->bound || m->ids[id].kind != LD_ID_GLOBAL) continue;
    const ld_global *g = &m->globals[m->ids[id].index];
    if (g->storage == SpvStorageClassWorkgroup) n = ((n + 15u) & ~(uint64_t)15u) + g->size;
  }
  return n;
}

static bool describe_kernel(spvi_module *mod, const arg_strings *as, kinfo *k) {
  const ld_module *m = mod->ld;
  const ld_function *fn = k->fn->ld;
  const char *kname = m->entries[k->entry].name;
  k->local_bytes = kernel_local_bytes(mod, &m->entries[k->entry]);
  const char *quals = arg_info_fields(as, "kernel_arg_type_qual.", kname);
  const char *types = arg_info_fields(as, "kernel_arg_type.", kname);
  k->nparams = (int)fn->nparams;
  k->params = calloc(fn->nparams + 1, sizeof *k->params);
  if (!k->params) return false;
  for (uint32_t i = 0; i < fn->nparams; i++) {
    spvi_param_info *pi = &k->params[i];
    uint32_t pid = fn->params[i];
    uint32_t tid = m->ids[pid].type;
    const ld_type *t = ld_type_of(m, tid);
    char tn[256];
    /* without OpName (no -cl-kernel-arg-info), the debug information's name (-g) */
    const char *dname = NULL;
    char dtype[128];
    ld_param_decl(m, m->ids[fn->id].index, i, &dname, dtype, sizeof dtype);
    pi->name = kstrdup(k, m->ids[pid].name ? m->ids[pid].name : dname ? dname : "");
    pi->space = SPVI_AS_NONE;
    bool byval = false, nowrite = false;
    /* decorations are sorted by target (ld_ir.h): the parameter's own start at first_deco - 1 */
    for (uint32_t di = m->ids[pid].first_deco ? m->ids[pid].first_deco - 1 : m->ndecos;
         di < m->ndecos && m->decos[di].target == pid; di++) {
      const ld_decoration *x = &m->decos[di];
      if (x->target == pid && x->decoration == SpvDecorationFuncParamAttr && x->nargs) {
        if (x->args[0] == SpvFunctionParameterAttributeByVal) byval = true;
        if (x->args[0] == SpvFunctionParameterAttributeNoWrite) nowrite = true;
        if (x->args[0] == SpvFunctionParameterAttributeNoAlias) pi->is_restrict = true;
      }
      if (x->target == pid && x->decoration == SpvDecorationVolatile) pi->is_volatile = true;
    }
    char qual[64];
    bool qual_const = false; /* -O0 translations have no NoWrite on `const T *` parameters */
    if (quals && arg_info_field(quals, i, qual, sizeof qual)) {
      pi->is_volatile |= strstr(qual, "volatile") != NULL;
      pi->is_restrict |= strstr(qual, "restrict") != NULL;
      qual_const = strstr(qual, "const") != NULL;
    }
    char src[256] = "";
    if (!(types && arg_info_field(types, i, src, sizeof src)) && dname) /* else from -g */
      snprintf(src, sizeof src, "%s", dtype);
    pi->source_type_name = kstrdup(k, src);
    if (t && t->kind == LD_TY_POINTER && byval) {
      pi->kind = SPVI_PARAM_VALUE;
      describe_value_type(m, t->elem, pi);
      type_spelling(m, t->elem, tn, sizeof tn);
    } else if (t && t->kind == LD_TY_POINTER) {
      const ld_type *pt = ld_type_of(m, t->elem);
      describe_value_type(m, t->elem, pi);
      pi->size = pt ? pt->size : 0;
      type_spelling(m, tid, tn, sizeof tn);
      switch (t->storage) {
      case SpvStorageClassCrossWorkgroup:
        pi->kind = SPVI_PARAM_BUFFER;
        pi->space = SPVI_AS_GLOBAL;
        break;
      case SpvStorageClassUniformConstant:
        pi->kind = SPVI_PARAM_BUFFER;
        pi->space = SPVI_AS_CONSTANT;
        pi->is_const = true;
        break;
      case SpvStorageClassWorkgroup:
        pi->kind = SPVI_PARAM_LOCAL;
        pi->space = SPVI_AS_LOCAL;
        break;
      case SpvStorageClassGeneric:
        pi->kind = SPVI_PARAM_BUFFER;
        pi->space = SPVI_AS_GENERIC;
        break;
      default:
        pi->kind = SPVI_PARAM_OPAQUE;
        pi->space = SPVI_AS_PRIVATE;
        break;
      }
      if (nowrite) pi->is_const = true;
    } else if (t && t->kind == LD_TY_OPAQUE && strcmp(t->opaque, "OpTypeImage") == 0) {
      pi->kind = SPVI_PARAM_IMAGE;
      pi->elem_kind = SPVI_S_OTHER;
      pi->size = t->size;
      pi->image_type = image_type(t);
      pi->access = (spvi_image_access)t->img_access;
      pi->is_const = t->img_access == SpvAccessQualifierReadOnly;
      type_spelling(m, tid, tn, sizeof tn);
    } else if (t && t->kind == LD_TY_OPAQUE && strcmp(t->opaque, "OpTypeSampler") == 0) {
      pi->kind = SPVI_PARAM_SAMPLER;
      pi->elem_kind = SPVI_S_OTHER;
      pi->size = t->size;
      type_spelling(m, tid, tn, sizeof tn);
    } else if (t && (t->kind == LD_TY_OPAQUE)) {
      pi->kind = SPVI_PARAM_OPAQUE;
      type_spelling(m, tid, tn, sizeof tn);
    } else {
      pi->kind = SPVI_PARAM_VALUE;
      describe_value_type(m, tid, pi);
      type_spelling(m, tid, tn, sizeof tn);
    }
    pi->type_name = kstrdup(k, tn);
    if (qual_const && pi->kind == SPVI_PARAM_BUFFER) pi->is_const = true;
  }
  return true;
}

static char *xstrdup(const char *t) {
  char *d = malloc(strlen(t) + 1);
  if (!d) abort();
  return strcpy(d, t);
}

/* The program-scope variables the API shows: those in global and constant memory, in module order. */
static void describe_globals(spvi_module *mod) {
  const ld_module *m = mod->ld;
  mod->globals = calloc(m->nglobals + 1, sizeof *mod->globals);
  if (!mod->globals) abort();
  for (uint32_t g = 0; g < m->nglobals; g++) {
    const uint32_t alloc = mod->prog->global_alloc[g];
    if (!mod->pstate->mem[alloc]) continue;
    const ld_global *gv = &m->globals[g];
    ginfo *gi = &mod->globals[mod->nglobals++];
    char tn[256];
    const ld_type *pt = ld_type_of(m, gv->type);
    type_spelling(m, pt ? pt->elem : 0, tn, sizeof tn);
    gi->alloc = alloc;
    gi->name = xstrdup(m->ids[gv->id].name ? m->ids[gv->id].name : "");
    gi->type_name = xstrdup(tn);
    gi->info.name = gi->name;
    gi->info.type_name = gi->type_name;
    gi->info.space = mod->prog->static_allocs[alloc].space == EX_AS_CONSTANT ? SPVI_AS_CONSTANT : SPVI_AS_GLOBAL;
    gi->info.size = mod->prog->static_allocs[alloc].size;
  }
}

/* Preparing overlaps validation (ld_options.meanwhile): the validator's last part still runs on its
 * threads while the built module is prepared, which a multi-core machine does at once
 * (docs/performance.md, round three). */
struct prep_job {
  ex_program *prog;
  bool ran;
  char msg[1024]; /* ex_prepare's error, empty when it ran out of memory */
};
static void prepare_meanwhile(const ld_module *m, void *user) {
  struct prep_job *pj = user;
  pj->ran = true;
  pj->prog = ex_prepare(m, pj->msg, sizeof pj->msg);
}

spvi_module *spvi_load_memory(const void *data, size_t bytes, const char *name, const spvi_load_options *opts,
                              spvi_error *err) {
  clear_err(err);
  char msg[1024] = "";
  struct prep_job pj = {.prog = NULL, .ran = false, .msg = ""};
  ld_options lo = {.strict = opts && opts->strict,
                   .warn = warn_bridge,
                   .note = note_bridge,
                   .user = (void *)opts,
                   .meanwhile = prepare_meanwhile,
                   .meanwhile_user = &pj};
  ld_spec *specs = NULL;
  if (opts && opts->nspec) {
    specs = calloc(opts->nspec, sizeof *specs);
    if (!specs) abort();
    for (unsigned i = 0; i < opts->nspec; i++)
      specs[i] = (ld_spec){opts->spec[i].id, opts->spec[i].value, opts->spec[i].bytes, opts->spec[i].size};
    lo.specs = specs;
    lo.nspecs = opts->nspec;
  }
  ld_module *ld = ld_load(data, bytes, name ? name : "module", &lo, msg, sizeof msg);
  free(specs);
  if (!ld) {
    ex_program_free(pj.prog); /* the validator refused the module after it was prepared */
    set_err(err, SPVI_E_MODULE, "%s", msg[0] ? msg : "cannot load module");
    return NULL;
  }
  if (!pj.ran) abort(); /* ld_load succeeded, so it called prepare_meanwhile */
  ex_program *prog = pj.prog;
  if (!prog) {
    if (pj.msg[0]) set_err(err, SPVI_E_MODULE, "%s", pj.msg);
    else set_err(err, SPVI_E_NOMEM, "%s: out of memory while preparing the module", ld->path);
    ld_free(ld);
    return NULL;
  }
  spvi_module *m = calloc(1, sizeof *m);
  if (!m) abort();
  m->ld = ld;
  m->prog = prog;
  m->kernels = calloc(ld->nentries + 1, sizeof *m->kernels);
  m->caps = calloc(ld->ncaps + 1, sizeof *m->caps);
  if (!m->kernels || !m->caps) abort();
  for (uint32_t c = 0; c < ld->ncaps; c++) {
    const char *n = spv_capability_name(ld->caps[c]);
    m->caps[c] = n ? n : "?";
  }
  arg_strings as;
  if (!arg_strings_init(ld, &as)) {
    set_err(err, SPVI_E_NOMEM, "%s: out of memory while describing the kernels", ld->path);
    spvi_module_free(m);
    return NULL;
  }
  for (uint32_t e = 0; e < ld->nentries; e++) {
    if (ld->entries[e].model != SpvExecutionModelKernel) continue;
    kinfo *k = &m->kernels[m->nkernels];
    k->entry = e;
    k->fn = ex_find_func(prog, ld->entries[e].func);
    if (!k->fn) continue;
    m->nkernels++;
    if (!describe_kernel(m, &as, k)) abort();
  }
  free(as.s);
  if (m->nkernels == 0) {
    set_err(err, SPVI_E_MODULE, "%s: no OpenCL kernel (OpEntryPoint Kernel) in module", ld->path);
    spvi_module_free(m);
    return NULL;
  }
  msg[0] = 0;
  m->pstate = ex_pstate_new(prog, msg, sizeof msg);
  if (!m->pstate) {
    set_err(err, msg[0] ? SPVI_E_MODULE : SPVI_E_NOMEM, "%s",
            msg[0] ? msg : "out of memory for program-scope variables");
    spvi_module_free(m);
    return NULL;
  }
  describe_globals(m);
  return m;
}

void spvi_module_free(spvi_module *m) {
  if (!m) return;
  for (int i = 0; i < m->nkernels; i++) {
    for (int s = 0; s < m->kernels[i].nstrings; s++) free(m->kernels[i].strings[s]);
    free(m->kernels[i].strings);
    free(m->kernels[i].params);
  }
  free(m->kernels);
  free(m->caps);
  for (int i = 0; i < m->nglobals; i++) {
    free(m->globals[i].name);
    free(m->globals[i].type_name);
  }
  free(m->globals);
  ex_pstate_free(m->pstate);
  ex_program_free(m->prog);
  ld_free(m->ld);
  free(m);
}

int spvi_kernel_count(const spvi_module *m) { return m ? m->nkernels : 0; }
const char *spvi_kernel_name(const spvi_module *m, int k) {
  return m && k >= 0 && k < m->nkernels ? m->ld->entries[m->kernels[k].entry].name : NULL;
}
int spvi_find_kernel(const spvi_module *m, const char *name) {
  for (int k = 0; m && name && k < m->nkernels; k++)
    if (strcmp(spvi_kernel_name(m, k), name) == 0) return k;
  return -1;
}
int spvi_kernel_param_count(const spvi_module *m, int k) {
  return m && k >= 0 && k < m->nkernels ? m->kernels[k].nparams : -1;
}
const struct ld_module *ex_module_ld(const spvi_module *m) { return m ? m->ld : NULL; }

const spvi_param_info *spvi_kernel_param(const spvi_module *m, int k, int i) {
  if (!m || k < 0 || k >= m->nkernels || i < 0 || i >= m->kernels[k].nparams) return NULL;
  return &m->kernels[k].params[i];
}
size_t spvi_kernel_local_bytes(const spvi_module *m, int k) {
  return m && k >= 0 && k < m->nkernels ? (size_t)m->kernels[k].local_bytes : 0;
}
/* One work-item's private arena: the module's function variables and built-ins (ex_prepare lays
 * out every function's variables in one arena, shared by all kernels of the module). */
size_t spvi_kernel_private_bytes(const spvi_module *m, int k) {
  return m && k >= 0 && k < m->nkernels ? (size_t)m->prog->private_size : 0;
}
void spvi_kernel_size_hint(const spvi_module *m, int k, size_t hint[3]) {
  for (int d = 0; d < 3; d++)
    hint[d] = m && k >= 0 && k < m->nkernels ? m->ld->entries[m->kernels[k].entry].local_hint[d] : 0;
}
void spvi_kernel_reqd_local_size(const spvi_module *m, int k, size_t local[3]) {
  for (int d = 0; d < 3; d++)
    local[d] = m && k >= 0 && k < m->nkernels ? m->ld->entries[m->kernels[k].entry].reqd_local[d] : 0;
}
void spvi_kernel_subgroup_modes(const spvi_module *m, int k, unsigned *reqd_size, unsigned *per_workgroup) {
  const ld_entry *e = m && k >= 0 && k < m->nkernels ? &m->ld->entries[m->kernels[k].entry] : NULL;
  if (reqd_size) *reqd_size = e ? e->subgroup_size : 0;
  if (per_workgroup) *per_workgroup = e ? e->subgroups_per_wg : 0;
}
const char *spvi_subgroup_extensions(void) {
  return "cl_khr_subgroups cl_khr_subgroup_extended_types cl_khr_subgroup_non_uniform_vote cl_khr_subgroup_ballot "
         "cl_khr_subgroup_non_uniform_arithmetic cl_khr_subgroup_shuffle cl_khr_subgroup_shuffle_relative "
         "cl_khr_subgroup_clustered_reduce cl_khr_subgroup_named_barrier cl_intel_subgroups (shuffles only)";
}
/* The sub-group extensions behind each capability (the OpenCL SPIR-V Environment spec 2.1 lists the
 * capabilities each extension adds: cl_khr_subgroup_* the GroupNonUniform* ones, Intel's
 * SubgroupShuffleINTEL and its block I/O). */
static const struct {
  const char *cap, *ext;
} subgroup_caps[] = {
  {"GroupNonUniformVote", "cl_khr_subgroup_non_uniform_vote"},
  {"GroupNonUniformBallot", "cl_khr_subgroup_ballot"},
  {"GroupNonUniformArithmetic", "cl_khr_subgroup_non_uniform_arithmetic"},
  {"GroupNonUniformShuffle", "cl_khr_subgroup_shuffle"},
  {"GroupNonUniformShuffleRelative", "cl_khr_subgroup_shuffle_relative"},
  {"GroupNonUniformClustered", "cl_khr_subgroup_clustered_reduce"},
  {"NamedBarrier", "cl_khr_subgroup_named_barrier"},
  {"SubgroupShuffleINTEL", "cl_intel_subgroups"},
  {"SubgroupBufferBlockIOINTEL", "cl_intel_subgroups"},
  {"SubgroupImageBlockIOINTEL", "cl_intel_subgroups"},
};

/* A module-scope variable decorated with a sub-group built-in (get_sub_group_size() and friends,
 * OpenCL SPIR-V Environment 2.9: SubgroupSize, SubgroupMaxSize, NumSubgroups,
 * NumEnqueuedSubgroups, SubgroupId, SubgroupLocalInvocationId). */
static bool reads_subgroup_builtin(const ld_module *m) {
  static const uint32_t builtins[] = {SpvBuiltInSubgroupSize, SpvBuiltInSubgroupMaxSize,
                                      SpvBuiltInNumSubgroups, SpvBuiltInNumEnqueuedSubgroups,
                                      SpvBuiltInSubgroupId,   SpvBuiltInSubgroupLocalInvocationId};
  for (uint32_t g = 0; g < m->nglobals; g++)
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
      if (m->globals[g].builtin == builtins[i]) return true;
  return false;
}

size_t spvi_module_subgroup_extensions(const spvi_module *m, char *buf, size_t cap) {
  size_t n = 0;
  if (cap) buf[0] = 0;
  if (!m) return 0;
  const char *used[1 + sizeof subgroup_caps / sizeof subgroup_caps[0]];
  size_t nused = 0;
  if (m->prog->uses_subgroups || reads_subgroup_builtin(m->ld)) used[nused++] = "cl_khr_subgroups";
  for (size_t i = 0; i < sizeof subgroup_caps / sizeof subgroup_caps[0]; i++) {
    bool has = false, dup = false;
    for (uint32_t c = 0; c < m->ld->ncaps; c++) has |= strcmp(m->caps[c], subgroup_caps[i].cap) == 0;
    for (size_t k = 0; k < nused; k++) dup |= strcmp(used[k], subgroup_caps[i].ext) == 0;
    if (has && !dup) used[nused++] = subgroup_caps[i].ext;
  }
  for (size_t k = 0; k < nused; k++) {
    int w = snprintf(cap > n ? buf + n : NULL, cap > n ? cap - n : 0, "%s%s", k ? " " : "", used[k]);
    n += (size_t)w;
  }
  return n;
}

unsigned spvi_module_pointer_bits(const spvi_module *m) { return m ? m->ld->pointer_bytes * 8 : 0; }
int spvi_module_capability_count(const spvi_module *m) { return m ? (int)m->ld->ncaps : 0; }
const char *spvi_module_capability(const spvi_module *m, int i) {
  return m && i >= 0 && (uint32_t)i < m->ld->ncaps ? m->caps[i] : NULL;
}
uint32_t spvi_module_version(const spvi_module *m) { return m ? m->ld->version : 0; }

spvi_status spvi_dump_prepared(const spvi_module *m, int kernel, FILE *out, spvi_error *err) {
  clear_err(err);
  if (!m || !out) {
    set_err(err, SPVI_E_USAGE, "spvi_dump_prepared: no module or no output");
    return SPVI_E_USAGE;
  }
  if (kernel < -1 || kernel >= m->nkernels) {
    set_err(err, SPVI_E_USAGE, "no kernel with index %d (the module has %d)", kernel, m->nkernels);
    return SPVI_E_USAGE;
  }
  ex_dump(m->prog, kernel < 0 ? NULL : m->kernels[kernel].fn, out);
  if (ferror(out)) {
    set_err(err, SPVI_E_IO, "spvi_dump_prepared: cannot write the prepared code");
    return SPVI_E_IO;
  }
  return SPVI_OK;
}

/* ---- program-scope variables -------------------------------------------------------------- */

int spvi_global_count(const spvi_module *m) { return m ? m->nglobals : 0; }
const spvi_global_info *spvi_global(const spvi_module *m, int i) {
  return m && i >= 0 && i < m->nglobals ? &m->globals[i].info : NULL;
}
int spvi_find_global(const spvi_module *m, const char *name) {
  for (int i = 0; m && name && i < m->nglobals; i++)
    if (strcmp(m->globals[i].name, name) == 0) return i;
  return -1;
}

const void *spvi_global_data(const spvi_module *m, int i, size_t *bytes) {
  if (!m || i < 0 || i >= m->nglobals) return NULL;
  if (bytes) *bytes = m->globals[i].info.size;
  return m->pstate->mem[m->globals[i].alloc];
}

spvi_status spvi_set_global_data(spvi_module *m, int i, const void *data, size_t bytes, spvi_error *err) {
  clear_err(err);
  if (!m || i < 0 || i >= m->nglobals) {
    set_err(err, SPVI_E_USAGE, "no program-scope variable with index %d (the module has %d)", i, m ? m->nglobals : 0);
    return SPVI_E_USAGE;
  }
  const ginfo *g = &m->globals[i];
  if (g->info.space == SPVI_AS_CONSTANT) {
    set_err(err, SPVI_E_USAGE, "program-scope variable `%s` is in constant memory: kernels and the host only read it",
            g->name);
    return SPVI_E_USAGE;
  }
  if (bytes != g->info.size) {
    set_err(err, SPVI_E_USAGE, "program-scope variable `%s` (%s) has %zu bytes, got %zu", g->name, g->type_name,
            g->info.size, bytes);
    return SPVI_E_USAGE;
  }
  if (!ex_pstate_acquire(m->pstate)) {
    set_err(err, SPVI_E_USAGE, "program-scope variable `%s`: a launch of the module is running", g->name);
    return SPVI_E_USAGE;
  }
  if (bytes) memcpy(m->pstate->mem[g->alloc], data, bytes);
  ex_pstate_release(m->pstate);
  return SPVI_OK;
}

/* ---- launches ----------------------------------------------------------------------------- */

spvi_launch *spvi_launch_new(spvi_module *m, int kernel, spvi_error *err) {
  clear_err(err);
  if (!m || kernel < 0 || kernel >= m->nkernels) {
    set_err(err, SPVI_E_USAGE, "no kernel with index %d (the module has %d)", kernel, m ? m->nkernels : 0);
    return NULL;
  }
  spvi_launch *l = calloc(1, sizeof *l);
  if (!l) abort();
  l->m = m;
  l->kernel = kernel;
  l->l.prog = m->prog;
  l->l.pstate = m->pstate;
  l->l.kernel = m->kernels[kernel].entry;
  l->l.entry = m->kernels[kernel].fn;
  l->l.nargs = (uint32_t)m->kernels[kernel].nparams;
  l->l.args = calloc(l->l.nargs + 1, sizeof *l->l.args);
  l->l.reports = ex_reports_new();
  if (!l->l.args || !l->l.reports) abort();
  return l;
}

/* Drop what an argument holds — its bytes, or its reference to a memory object — and unset it. */
static void arg_release(ex_arg *a) {
  if (a->mem) spvi_mem_release(a->mem);
  else free(a->bytes);
  a->mem = NULL;
  a->bytes = NULL;
  a->root = NULL;
  a->size = 0;
  a->set = a->is_svm = a->is_local = a->is_image = false;
  a->svm_ptr = 0;
}

void spvi_launch_free(spvi_launch *l) {
  if (!l) return;
  for (uint32_t i = 0; i < l->l.nargs; i++) {
    arg_release(&l->l.args[i]);
    free(l->l.args[i].written);
    free(l->l.args[i].initial);
  }
  free(l->l.written_all);
  free(l->l.args);
  ex_reports_free(l->l.reports);
  free(l);
}

static const spvi_param_info *param_for(spvi_launch *l, int index, spvi_error *err) {
  const spvi_param_info *p = l ? spvi_kernel_param(l->m, l->kernel, index) : NULL;
  if (!p)
    set_err(err, SPVI_E_USAGE, "kernel `%s` has no parameter %d", l ? spvi_kernel_name(l->m, l->kernel) : "?", index);
  return p;
}

static void describe_param(spvi_launch *l, int index, char *buf, size_t len) {
  const spvi_param_info *p = spvi_kernel_param(l->m, l->kernel, index);
  snprintf(buf, len, "parameter %d%s%s%s (%s)", index, p->name[0] ? " `" : "", p->name, p->name[0] ? "`" : "",
           p->type_name);
}

spvi_status spvi_set_arg_value(spvi_launch *l, int index, const void *data, size_t bytes, spvi_error *err) {
  clear_err(err);
  const spvi_param_info *p = param_for(l, index, err);
  if (!p) return SPVI_E_USAGE;
  char d[300];
  describe_param(l, index, d, sizeof d);
  if (p->kind != SPVI_PARAM_VALUE) {
    set_err(err, SPVI_E_USAGE, "%s of kernel `%s` is not passed by value", d, spvi_kernel_name(l->m, l->kernel));
    return SPVI_E_USAGE;
  }
  if (bytes != p->size) {
    set_err(err, SPVI_E_USAGE, "%s takes %zu bytes, got %zu", d, p->size, bytes);
    return SPVI_E_USAGE;
  }
  ex_arg *a = &l->l.args[index];
  arg_release(a);
  a->bytes = malloc(bytes ? bytes : 1);
  if (!a->bytes) abort();
  if (bytes) memcpy(a->bytes, data, bytes);
  a->size = bytes;
  a->set = true;
  a->is_local = false;
  a->is_image = false;
  return SPVI_OK;
}

spvi_status spvi_set_arg_buffer(spvi_launch *l, int index, const void *data, size_t bytes, spvi_error *err) {
  clear_err(err);
  const spvi_param_info *p = param_for(l, index, err);
  if (!p) return SPVI_E_USAGE;
  char d[300];
  describe_param(l, index, d, sizeof d);
  if (p->kind != SPVI_PARAM_BUFFER) {
    set_err(err, SPVI_E_USAGE, "%s is not a global or constant buffer", d);
    return SPVI_E_USAGE;
  }
  if (!ex_alloc_fits(bytes, d, err)) return SPVI_E_USAGE;
  ex_arg *a = &l->l.args[index];
  arg_release(a);
  a->bytes = calloc(bytes ? bytes : 1, 1);
  if (!a->bytes) {
    set_err(err, SPVI_E_NOMEM, "out of memory for a %zu-byte buffer", bytes);
    return SPVI_E_NOMEM;
  }
  if (data && bytes) memcpy(a->bytes, data, bytes);
  a->size = bytes;
  a->set = true;
  a->is_local = false;
  a->is_image = false;
  return SPVI_OK;
}

spvi_status spvi_set_arg_local(spvi_launch *l, int index, size_t bytes, spvi_error *err) {
  clear_err(err);
  const spvi_param_info *p = param_for(l, index, err);
  if (!p) return SPVI_E_USAGE;
  char d[300];
  describe_param(l, index, d, sizeof d);
  if (p->kind != SPVI_PARAM_LOCAL) {
    set_err(err, SPVI_E_USAGE, "%s is not a __local pointer", d);
    return SPVI_E_USAGE;
  }
  if (bytes == 0) {
    set_err(err, SPVI_E_USAGE, "%s: local memory size must be at least 1 byte", d);
    return SPVI_E_USAGE;
  }
  if (bytes > SPVI_LOCAL_MEM_SIZE) {
    set_err(err, SPVI_E_USAGE, "%s: %zu bytes of __local memory is above the work-group's %llu (SPVI_LOCAL_MEM_SIZE)",
            d, bytes, (unsigned long long)SPVI_LOCAL_MEM_SIZE);
    return SPVI_E_USAGE;
  }
  ex_arg *a = &l->l.args[index];
  arg_release(a);
  a->bytes = NULL;
  a->size = bytes;
  a->set = true;
  a->is_local = true;
  a->is_image = false;
  return SPVI_OK;
}

/* ---- images and samplers ---------------------------------------------------------------------- */


spvi_status spvi_set_arg_image(spvi_launch *l, int index, const spvi_image_desc *desc, const void *data, size_t bytes,
                               spvi_error *err) {
  clear_err(err);
  const spvi_param_info *p = param_for(l, index, err);
  if (!p) return SPVI_E_USAGE;
  char d[300];
  describe_param(l, index, d, sizeof d);
  if (p->kind != SPVI_PARAM_IMAGE) {
    set_err(err, SPVI_E_USAGE, "%s is not an image", d);
    return SPVI_E_USAGE;
  }
  spvi_error e2;
  size_t need = spvi_image_bytes(desc, &e2);
  if (!need) {
    set_err(err, SPVI_E_USAGE, "%s: %s", d, e2.message);
    return SPVI_E_USAGE;
  }
  if (desc->type != p->image_type) {
    set_err(err, SPVI_E_USAGE, "%s takes an %s, got an %s", d, spvi_image_type_name(p->image_type),
            spvi_image_type_name(desc->type));
    return SPVI_E_USAGE;
  }
  if (bytes != need) {
    set_err(err, SPVI_E_USAGE, "%s: the image's pixels take %zu bytes, got %zu", d, need, bytes);
    return SPVI_E_USAGE;
  }
  if (!ex_alloc_fits(bytes, d, err)) return SPVI_E_USAGE;
  ex_arg *a = &l->l.args[index];
  arg_release(a);
  a->bytes = calloc(bytes, 1);
  if (!a->bytes) {
    set_err(err, SPVI_E_NOMEM, "out of memory for a %zu-byte image", bytes);
    return SPVI_E_NOMEM;
  }
  if (data) memcpy(a->bytes, data, bytes);
  a->size = bytes;
  a->set = true;
  a->is_local = false;
  a->is_image = true;
  bi_image_init(&a->image, a->bytes, (unsigned)desc->type, (unsigned)desc->order, (unsigned)desc->channel_type,
                desc->width, desc->height, desc->depth, desc->array_size);
  return SPVI_OK;
}

spvi_status spvi_set_arg_sampler(spvi_launch *l, int index, const spvi_sampler *smp, spvi_error *err) {
  clear_err(err);
  const spvi_param_info *p = param_for(l, index, err);
  if (!p) return SPVI_E_USAGE;
  char d[300];
  describe_param(l, index, d, sizeof d);
  if (p->kind != SPVI_PARAM_SAMPLER) {
    set_err(err, SPVI_E_USAGE, "%s is not a sampler", d);
    return SPVI_E_USAGE;
  }
  if (!smp || (unsigned)smp->addressing > SPVI_ADDRESS_MIRRORED_REPEAT || (unsigned)smp->filter > SPVI_FILTER_LINEAR) {
    set_err(err, SPVI_E_USAGE, "%s: not a valid sampler (addressing mode or filter out of range)", d);
    return SPVI_E_USAGE;
  }
  if (!smp->normalized && (smp->addressing == SPVI_ADDRESS_REPEAT || smp->addressing == SPVI_ADDRESS_MIRRORED_REPEAT)) {
    set_err(err, SPVI_E_USAGE, "%s: %s addressing needs normalized coordinates (OpenCL C 6.15.15.1)", d,
            smp->addressing == SPVI_ADDRESS_REPEAT ? "repeat" : "mirrored_repeat");
    return SPVI_E_USAGE;
  }
  uint64_t bits = ld_sampler_bits((uint32_t)smp->addressing, smp->normalized, smp->filter == SPVI_FILTER_LINEAR);
  ex_arg *a = &l->l.args[index];
  arg_release(a);
  a->bytes = malloc(8);
  if (!a->bytes) abort();
  memcpy(a->bytes, &bits, 8);
  a->size = 8;
  a->set = true;
  a->is_local = false;
  a->is_image = false;
  return SPVI_OK;
}

/* ---- memory objects and SVM pointers as arguments ------------------------------------------ */

/* Whether memory object m (may be NULL) suits parameter p; err names what is wrong otherwise. */
static bool mem_fits(const spvi_param_info *p, const spvi_mem *m, const char *d, spvi_error *err) {
  if (p->kind == SPVI_PARAM_BUFFER) {
    if (m && m->is_image) {
      set_err(err, SPVI_E_USAGE, "%s is a buffer, got an image object", d);
      return false;
    }
    return true;
  }
  if (p->kind != SPVI_PARAM_IMAGE) {
    set_err(err, SPVI_E_USAGE, "%s takes no memory object (only global/constant buffers and images do)", d);
    return false;
  }
  if (!m || !m->is_image) {
    set_err(err, SPVI_E_USAGE, "%s is an image, got %s", d, m ? "a buffer object" : "no object (NULL)");
    return false;
  }
  if (m->desc.type != p->image_type) {
    set_err(err, SPVI_E_USAGE, "%s takes an %s, got an %s object", d, spvi_image_type_name(p->image_type),
            spvi_image_type_name(m->desc.type));
    return false;
  }
  return true;
}

spvi_status spvi_set_arg_mem(spvi_launch *l, int index, spvi_mem *m, spvi_error *err) {
  clear_err(err);
  const spvi_param_info *p = param_for(l, index, err);
  if (!p) return SPVI_E_USAGE;
  char d[300];
  describe_param(l, index, d, sizeof d);
  if (!mem_fits(p, m, d, err)) return SPVI_E_USAGE;
  ex_arg *a = &l->l.args[index];
  spvi_mem_retain(m); /* before the release: m may be the object the argument holds */
  arg_release(a);
  a->set = true;
  a->mem = m; /* NULL: a null pointer (bytes NULL, no allocation reaches the kernel) */
  a->bytes = m ? m->bytes : NULL;
  a->size = m ? m->size : 0;
  a->root = m && m->parent && !m->is_image ? m->parent->bytes : a->bytes; /* a view's parent is its root */
  if (m && m->is_image) {
    const spvi_image_desc *x = &m->desc;
    a->is_image = true;
    bi_image_init(&a->image, a->bytes, (unsigned)x->type, (unsigned)x->order, (unsigned)x->channel_type, x->width,
                  x->height, x->depth, x->array_size);
  }
  return SPVI_OK;
}

spvi_status spvi_set_arg_svm(spvi_launch *l, int index, const void *ptr, spvi_error *err) {
  clear_err(err);
  const spvi_param_info *p = param_for(l, index, err);
  if (!p) return SPVI_E_USAGE;
  char d[300];
  describe_param(l, index, d, sizeof d);
  if (p->kind != SPVI_PARAM_BUFFER) {
    set_err(err, SPVI_E_USAGE, "%s is not a global or constant pointer", d);
    return SPVI_E_USAGE;
  }
  if (l->m->ld->pointer_bytes != 8) {
    set_err(err, SPVI_E_USAGE, "%s: the module is Physical32, whose 32-bit pointers cannot hold SVM (host) addresses",
            d);
    return SPVI_E_USAGE;
  }
  if (ptr && !ex_svm_valid_arg((uint64_t)(uintptr_t)ptr)) {
    set_err(err, SPVI_E_USAGE, "%s: %p is not in a live SVM allocation (spvi_svm_alloc)", d, ptr);
    return SPVI_E_USAGE;
  }
  ex_arg *a = &l->l.args[index];
  arg_release(a);
  a->set = true;
  a->is_svm = true;
  a->svm_ptr = (uint64_t)(uintptr_t)ptr;
  return SPVI_OK;
}

const void *spvi_arg_image(const spvi_launch *l, int index, spvi_image_desc *desc, size_t *bytes) {
  if (!l || index < 0 || (uint32_t)index >= l->l.nargs || !l->l.args[index].is_image) return NULL;
  const ex_arg *a = &l->l.args[index];
  if (desc) {
    const bi_image *im = &a->image;
    memset(desc, 0, sizeof *desc);
    desc->type = (spvi_image_type)im->type;
    desc->order = (spvi_channel_order)im->order;
    desc->channel_type = (spvi_channel_type)im->ctype;
    desc->width = im->size[0];
    switch (desc->type) {
    case SPVI_IMAGE_1D_ARRAY: desc->array_size = im->size[1]; break;
    case SPVI_IMAGE_2D: desc->height = im->size[1]; break;
    case SPVI_IMAGE_2D_ARRAY:
      desc->height = im->size[1];
      desc->array_size = im->size[2];
      break;
    case SPVI_IMAGE_3D:
      desc->height = im->size[1];
      desc->depth = im->size[2];
      break;
    default: break;
    }
  }
  if (bytes) *bytes = a->size;
  return a->bytes;
}

/* Default local size: in each dimension the largest divisor of the global size that keeps the
 * group within 64 work-items (uniform groups, so kernels written for OpenCL 1.2 run unchanged). */
static void pick_local(const uint64_t global[3], uint64_t local[3]) {
  uint64_t budget = 64;
  for (int d = 0; d < 3; d++) {
    uint64_t best = 1;
    for (uint64_t c = 1; c <= budget && c <= global[d]; c++)
      if (global[d] % c == 0) best = c;
    local[d] = best;
    budget /= best;
    if (budget == 0) budget = 1;
  }
}

/* The sizes' products, checked before anything multiplies them (the scheduler, get_global_size,
 * get_num_groups): the work-items of the NDRange fit in the module's size_t — 32 bits for a
 * Physical32 module, where the global ids (offset + size) must fit too (OpenCL 3.0 API 5.9.5: the
 * sizes are the device's size_t) — so the group count, never larger, fits as well; a required
 * local size (not bounded by the global size) must not wrap before the limit check. */
static bool ndrange_fits(const spvi_launch *l, const ex_launch *x, spvi_error *err) {
  const uint64_t lim = l->m->ld->pointer_bytes == 8 ? UINT64_MAX : UINT32_MAX;
  const char *bits = lim == UINT64_MAX ? "64-bit" : "32-bit";
  uint64_t items = 1, group_items = 1;
  for (unsigned d = 0; d < 3; d++) {
    if (x->offset[d] + x->global[d] - 1 > lim) {
      set_err(err, SPVI_E_USAGE, "global offset %llu + size %llu in dimension %u exceeds the module's %s size_t",
              (unsigned long long)x->offset[d], (unsigned long long)x->global[d], d, bits);
      return false;
    }
    if (__builtin_mul_overflow(items, x->global[d], &items) || items > lim) {
      set_err(err, SPVI_E_USAGE, "the global size %llu,%llu,%llu has more work-items than the module's %s size_t holds",
              (unsigned long long)x->global[0], (unsigned long long)x->global[1], (unsigned long long)x->global[2],
              bits);
      return false;
    }
    if (__builtin_mul_overflow(group_items, x->local[d], &group_items)) group_items = UINT64_MAX;
  }
  if (group_items > MAX_LOCAL_ITEMS) {
    set_err(err, SPVI_E_USAGE, "a work-group of %llu,%llu,%llu work-items is larger than spvi's limit of %u",
            (unsigned long long)x->local[0], (unsigned long long)x->local[1], (unsigned long long)x->local[2],
            MAX_LOCAL_ITEMS);
    return false;
  }
  return true;
}

spvi_status spvi_set_ndrange(spvi_launch *l, unsigned dims, const size_t global[], const size_t local[],
                             const size_t offset[], spvi_error *err) {
  clear_err(err);
  if (!l) {
    set_err(err, SPVI_E_USAGE, "no launch");
    return SPVI_E_USAGE;
  }
  if (dims < 1 || dims > 3) {
    set_err(err, SPVI_E_USAGE, "work dimension must be 1, 2 or 3, got %u", dims);
    return SPVI_E_USAGE;
  }
  ex_launch *x = &l->l;
  size_t reqd[3];
  spvi_kernel_reqd_local_size(l->m, l->kernel, reqd);
  for (unsigned d = 0; d < 3; d++) {
    x->global[d] = d < dims ? global[d] : 1;
    x->offset[d] = d < dims && offset ? offset[d] : 0;
    if (x->global[d] == 0) {
      set_err(err, SPVI_E_USAGE, "global size in dimension %u is 0", d);
      return SPVI_E_USAGE;
    }
    if (local) {
      x->local[d] = d < dims ? local[d] : 1;
      if (x->local[d] == 0) {
        set_err(err, SPVI_E_USAGE, "local size in dimension %u is 0", d);
        return SPVI_E_USAGE;
      }
      if (x->local[d] > x->global[d]) {
        set_err(err, SPVI_E_USAGE, "local size %zu exceeds global size %zu in dimension %u", (size_t)x->local[d],
                (size_t)x->global[d], d);
        return SPVI_E_USAGE;
      }
    }
    if (x->offset[d] + x->global[d] < x->offset[d]) {
      set_err(err, SPVI_E_USAGE, "global offset + size overflows in dimension %u", d);
      return SPVI_E_USAGE;
    }
  }
  if (!local) {
    if (reqd[0])
      for (int d = 0; d < 3; d++) x->local[d] = reqd[d];
    else pick_local(x->global, x->local);
  } else if (reqd[0]) {
    for (int d = 0; d < 3; d++)
      if (x->local[d] != reqd[d]) {
        set_err(err, SPVI_E_USAGE, "kernel `%s` requires local size %zu,%zu,%zu (reqd_work_group_size)",
                spvi_kernel_name(l->m, l->kernel), reqd[0], reqd[1], reqd[2]);
        return SPVI_E_USAGE;
      }
  }
  if (!ndrange_fits(l, x, err)) return SPVI_E_USAGE;
  x->dims = dims;
  x->local_given = local != NULL;
  return SPVI_OK;
}

void spvi_launch_local_size(const spvi_launch *l, size_t local[3]) {
  for (int d = 0; d < 3; d++) local[d] = l ? l->l.local[d] : 0;
}

/* The sub-group size of the launch (l->l.subgroup_size): the kernel's SubgroupSize execution mode
 * (reqd_sub_group_size), else the run option, else SPVI_DEFAULT_SUBGROUP_SIZE; with a
 * SubgroupsPerWorkgroup mode, a size that splits the work-group into that many sub-groups. A run
 * option that contradicts the kernel is an error, never overridden. */
static bool choose_subgroup_size(spvi_launch *l, unsigned opt, spvi_error *err) {
  const ld_entry *e = &l->m->ld->entries[l->m->kernels[l->kernel].entry];
  const char *kn = spvi_kernel_name(l->m, l->kernel);
  const uint64_t items = l->l.local[0] * l->l.local[1] * l->l.local[2];
  if (opt > 64) {
    set_err(err, SPVI_E_USAGE, "sub-group size %u is not supported (spvi's sub-groups hold 1 to 64 work-items)", opt);
    return false;
  }
  unsigned S = opt ? opt : SPVI_DEFAULT_SUBGROUP_SIZE;
  if (e->subgroup_size) {
    if (e->subgroup_size > 64) {
      set_err(
        err, SPVI_E_USAGE,
        "kernel `%s` requires sub-group size %u (SubgroupSize execution mode); spvi's sub-groups hold 1 to 64 work-items",
        kn, e->subgroup_size);
      return false;
    }
    if (opt && opt != e->subgroup_size) {
      set_err(err, SPVI_E_USAGE, "kernel `%s` requires sub-group size %u (SubgroupSize execution mode), not %u", kn,
              e->subgroup_size, opt);
      return false;
    }
    S = e->subgroup_size;
  }
  if (e->subgroups_per_wg) {
    const uint64_t n = e->subgroups_per_wg;
    if (!opt && !e->subgroup_size) S = (unsigned)((items + n - 1) / n < 64 ? (items + n - 1) / n : 64);
    if (S == 0 || (items + S - 1) / S != n) {
      set_err(err, SPVI_E_USAGE,
              "kernel `%s` requires %llu sub-groups per work-group (SubgroupsPerWorkgroup execution mode), "
              "but a work-group of %llu work-items has %llu sub-groups of %u",
              kn, (unsigned long long)n, (unsigned long long)items, (unsigned long long)(S ? (items + S - 1) / S : 0),
              S);
      return false;
    }
  }
  l->l.subgroup_size = S;
  return true;
}

/* The available cores, read once: glibc's sysconf reads /sys for it, which would cost an OpenCL
 * application's small launches more than the launch itself (make bench, "OpenCL platform"). */
static unsigned online_cores(void) {
  static _Atomic unsigned cores;
  unsigned n = atomic_load(&cores);
  if (!n) {
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    n = c > 0 ? (unsigned)c : 1;
    atomic_store(&cores, n);
  }
  return n;
}

/* The checks and settings spvi_run and spvi_debug_new share: every argument set, an NDRange, the
 * run options. Returns the warp width, 0 after an error. */
static unsigned prepare_run(spvi_launch *l, const spvi_run_options *opts, spvi_error *err) {
  if (!l) {
    set_err(err, SPVI_E_USAGE, "no launch");
    return 0;
  }
  if (!l->l.dims) {
    set_err(err, SPVI_E_USAGE, "no NDRange set (spvi_set_ndrange)");
    return 0;
  }
  for (uint32_t i = 0; i < l->l.nargs; i++) {
    if (!l->l.args[i].set) {
      char d[300];
      describe_param(l, (int)i, d, sizeof d);
      const spvi_param_info *p = spvi_kernel_param(l->m, l->kernel, (int)i);
      if (p->kind == SPVI_PARAM_OPAQUE)
        set_err(err, SPVI_E_USAGE, "%s of kernel `%s` has a type spvi cannot pass yet", d,
                spvi_kernel_name(l->m, l->kernel));
      else set_err(err, SPVI_E_USAGE, "%s of kernel `%s` is not set", d, spvi_kernel_name(l->m, l->kernel));
      return 0;
    }
  }
  unsigned W = opts && opts->warp_width ? opts->warp_width : EX_DEFAULT_WARP;
  if (W > EX_MAX_WARP) {
    set_err(err, SPVI_E_USAGE, "warp width %u is above the maximum of %u", W, EX_MAX_WARP);
    return 0;
  }
  l->l.on_printf = opts ? opts->on_printf : NULL;
  l->l.printf_user = opts ? opts->printf_user : NULL;
  l->l.ftz = opts && opts->flush_denormals;
  l->l.checks = opts ? opts->checks : 0;
  if (l->l.checks & ~(unsigned)SPVI_CHECK_ALL) {
    set_err(err, SPVI_E_USAGE, "unknown check flags 0x%x", l->l.checks & ~(unsigned)SPVI_CHECK_ALL);
    return 0;
  }
  for (uint32_t i = 0; (l->l.checks & SPVI_CHECK_RACES) && i < l->l.nargs; i++)
    if (l->l.args[i].is_svm) {
      /* the race checker's shadow memory is per allocation of the launch; SVM memory has none */
      char d[300];
      describe_param(l, (int)i, d, sizeof d);
      set_err(err, SPVI_E_USAGE, "--check races does not cover SVM memory, and %s is an SVM pointer", d);
      return 0;
    }
  l->l.max_steps = opts && opts->max_steps ? opts->max_steps : SPVI_DEFAULT_MAX_STEPS;
  l->l.keep_going = opts && opts->keep_going;
  l->l.threads = opts && opts->threads ? opts->threads : online_cores();
  if (l->l.threads > 1024) {
    set_err(err, SPVI_E_USAGE, "%u threads is more than spvi's limit of 1024", l->l.threads);
    return 0;
  }
  l->l.on_trace = opts ? opts->on_trace : NULL;
  l->l.trace_user = opts ? opts->trace_user : NULL;
  l->l.trace_kind = 0;
  if (l->l.on_trace) {
    W = 1; /* each work-item's instructions in program order */
    const char *tf = opts->trace_filter;
    if (tf && *tf && strcmp(tf, "all") != 0) {
      const char *v = !strncmp(tf, "gid=", 4) ? tf + 4 : !strncmp(tf, "group=", 6) ? tf + 6 : NULL;
      unsigned long long x[3] = {0, 0, 0};
      int n = v ? sscanf(v, "%llu,%llu,%llu", &x[0], &x[1], &x[2]) : 0;
      if (n < 1) {
        set_err(err, SPVI_E_USAGE, "trace filter `%s`: expects all, gid=X[,Y[,Z]] or group=X[,Y[,Z]]", tf);
        return 0;
      }
      l->l.trace_kind = tf[0] == 'g' && tf[1] == 'i' ? 1 : 2;
      for (int d = 0; d < 3; d++) l->l.trace_id[d] = x[d];
    }
  }
  l->l.group_begin = opts ? opts->group_begin : 0;
  l->l.group_end = opts ? opts->group_end : 0;
  l->l.shard_index = opts ? opts->shard_index : 0;
  l->l.shard_count = opts ? opts->shard_count : 0;
  if (l->l.shard_count && l->l.shard_index >= l->l.shard_count) {
    set_err(err, SPVI_E_USAGE, "shard %llu of %llu: shards are numbered from 0 to the count - 1",
            (unsigned long long)l->l.shard_index, (unsigned long long)l->l.shard_count);
    return 0;
  }
  for (uint32_t i = 0; i < l->l.nargs; i++) {
    free(l->l.args[i].written);
    free(l->l.args[i].initial);
    l->l.args[i].written = l->l.args[i].initial = NULL;
  }
  if (!choose_subgroup_size(l, opts ? opts->subgroup_size : 0, err)) return 0;
  /* Sub-group operations run inside a warp (ex_subgroup.c): the warp width becomes a multiple of
   * the sub-group size — the largest one within the requested width, or S itself — and exactly S,
   * one sub-group per warp, with named barriers (a sub-group waits as a unit) and with atomics (a
   * sub-group may wait for another one to set an atomic: warps yield to each other, ex_sched.c, but
   * the lanes of one warp run in lock-step; without sub-group operations, a warp then holds at most
   * one sub-group). Results do not depend on it. */
  const unsigned S = l->l.subgroup_size;
  if (l->l.prog->nnamed_barriers || (l->l.prog->uses_subgroups && l->l.prog->uses_atomics)) W = S;
  else if (l->l.prog->uses_subgroups) W = W < S ? S : W / S * S;
  else if (l->l.prog->uses_atomics && W > S) W = S;
  /* the device limits and the memory bound, before ex_run allocates anything (ex_limits.c) */
  if (!ex_launch_local_fits(&l->l, spvi_kernel_name(l->m, l->kernel), spvi_kernel_local_bytes(l->m, l->kernel), err) ||
      !ex_launch_memory_fits(&l->l, W, l->l.threads, opts ? opts->max_memory : 0, err))
    return 0;
  return W;
}

/* A run over part of the NDRange (a group range or a shard) keeps each buffer's and image's contents
 * before it: `spvi merge --combine` needs the initial value of elements several shards updated
 * (docs/scaling.md). False when out of memory. */
static bool keep_initial(spvi_launch *l) {
  if (!l->l.group_end && !l->l.shard_count) return true;
  for (uint32_t i = 0; i < l->l.nargs; i++) {
    ex_arg *a = &l->l.args[i];
    const spvi_param_kind k = spvi_kernel_param(l->m, l->kernel, (int)i)->kind;
    if ((k != SPVI_PARAM_BUFFER && k != SPVI_PARAM_IMAGE) || a->is_svm || !a->bytes || !a->size) continue;
    if (!(a->initial = malloc(a->size))) return false;
    memcpy(a->initial, a->bytes, a->size);
  }
  return true;
}

spvi_status spvi_run(spvi_launch *l, const spvi_run_options *opts, spvi_fault *fault, spvi_error *err) {
  clear_err(err);
  spvi_fault scratch;
  if (!fault) fault = &scratch;
  memset(fault, 0, sizeof *fault);
  unsigned W = prepare_run(l, opts, err);
  if (!W) return SPVI_E_USAGE;
  if (!keep_initial(l)) {
    set_err(err, SPVI_E_NOMEM, "out of memory keeping the buffers' initial contents for the shard's merge");
    return SPVI_E_NOMEM;
  }
  char msg[1024] = "";
  spvi_status s = ex_run(&l->l, W, fault, msg, sizeof msg);
  if (s != SPVI_OK && s != SPVI_FAULT) set_err(err, s, "%s", msg);
  return s;
}

ex_launch *ex_api_debug_launch(spvi_launch *l, const spvi_run_options *opts, spvi_error *err) {
  clear_err(err);
  if (!prepare_run(l, opts, err)) return NULL;
  if (l->l.prog->uses_subgroups) {
    /* the debugger runs one work-item per warp; sub-group operations need a sub-group in lock-step */
    set_err(err, SPVI_E_USAGE,
            "spvi debug cannot run kernel `%s`: its module uses sub-group operations or named barriers, "
            "which need the work-items of a sub-group in lock-step, while the debugger runs one work-item at a time "
            "(use spvi run, or --trace)",
            spvi_kernel_name(l->m, l->kernel));
    return NULL;
  }
  if (l->l.shard_count) {
    /* the debugger walks the work-groups of one range in order (ex_inspect.c) */
    set_err(err, SPVI_E_USAGE, "spvi debug runs a range of work-groups (--groups), not an interleaved shard");
    return NULL;
  }
  l->l.threads = 1;
  return &l->l;
}

const void *spvi_arg_buffer(const spvi_launch *l, int index, size_t *bytes) {
  if (!l || index < 0 || (uint32_t)index >= l->l.nargs || l->l.args[index].is_local) return NULL;
  const spvi_param_info *p = spvi_kernel_param(l->m, l->kernel, index);
  if (!p || p->kind != SPVI_PARAM_BUFFER) return NULL;
  if (bytes) *bytes = l->l.args[index].size;
  return l->l.args[index].bytes;
}

void spvi_launch_stats(const spvi_launch *l, spvi_run_stats *out) {
  memset(out, 0, sizeof *out);
  if (!l) return;
  out->exec_seconds = l->l.exec_seconds;
  out->instructions = l->l.instructions;
}

size_t spvi_report_count(const spvi_launch *l) { return l ? ex_reports_count(l->l.reports) : 0; }
const spvi_report *spvi_report_get(const spvi_launch *l, size_t index) {
  return l ? ex_reports_get(l->l.reports, index) : NULL;
}

uint64_t spvi_launch_group_count(const spvi_launch *l) { return l && l->l.dims ? ex_group_count(&l->l) : 0; }

const void *spvi_arg_initial(const spvi_launch *l, int index, size_t *bytes) {
  if (!l || index < 0 || (uint32_t)index >= l->l.nargs || !l->l.args[index].written || !l->l.args[index].initial)
    return NULL;
  if (bytes) *bytes = l->l.args[index].size;
  return l->l.args[index].initial;
}

uint64_t spvi_launch_progress(const spvi_launch *l, uint64_t *total) {
  if (total) *total = l ? atomic_load_explicit(&l->l.groups_total, memory_order_relaxed) : 0;
  return l ? atomic_load_explicit(&l->l.groups_done, memory_order_relaxed) : 0;
}

const uint8_t *spvi_arg_written(const spvi_launch *l, int index, size_t *bytes) {
  if (!l || index < 0 || (uint32_t)index >= l->l.nargs || !l->l.args[index].written) return NULL;
  if (bytes) *bytes = l->l.args[index].size;
  return l->l.args[index].written;
}
