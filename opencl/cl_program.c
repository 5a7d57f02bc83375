/*
 * cl_program.c — program objects (OpenCL 3.0 API 5.8): creation from OpenCL C source, from SPIR-V
 * (IL) and from binaries; clBuildProgram, clCompileProgram, clLinkProgram; specialization
 * constants; the program queries.
 *
 * Builds are synchronous: the calling thread compiles (clc_compile.c, child processes), loads the
 * module into spvi and then calls pfn_notify, which API 5.8.3 allows ("clBuildProgram ... may
 * return before the build has completed" is a permission, not a duty). The program's lock is not
 * held while compiling, so queries — also from the notify callback — answer meanwhile; a second
 * build of the same program in that time is CL_INVALID_OPERATION, as the spec says.
 *
 * The program's binary (CL_PROGRAM_BINARIES) is its SPIR-V module, whatever it was made from: the
 * compiled source, the IL, or the linked modules. What SPIR-V cannot say — whether the binary is a
 * compiled object, a library or an executable (CL_PROGRAM_BINARY_TYPE), and the build options the
 * run time needs (-cl-denorms-are-zero, -cl-kernel-arg-info, uniform work-groups, built from
 * source) — travels inside the module as one OpSourceExtension "spvi-binary:<type>:<flags>",
 * which SPIR-V consumers ignore. So a binary given back to clCreateProgramWithBinary keeps its type
 * and options (CTS api/test_binary, compiler/test_compile "program_binary_type"). SPIR-V without
 * that marker (made elsewhere) is taken as a compiled object: clBuildProgram and clLinkProgram
 * accept it.
 *
 * Executables: program->mod is the loaded module. A rebuild (allowed once no kernel object is
 * left, API 5.8.3 CL_INVALID_OPERATION) replaces it, but a launch enqueued before may still run on
 * the old one, so replaced modules are kept until the program is destroyed — commands hold the
 * program while they run (cl_kernel.c).
 */
#include "cl_internal.h"
#include "clc_sbuf.h"
#include "clc_compile.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the program object ------------------------------------------------------------------- */

/* Flags of a build that the run time needs, kept with the binary (the marker's <flags>). */
enum {
  PF_FTZ = 1u,      /* -cl-denorms-are-zero: launches flush float denormals */
  PF_ARG_INFO = 2u, /* -cl-kernel-arg-info, or IL: CL_KERNEL_ARG_NAME/TYPE_NAME may be answered */
  PF_UNIFORM = 4u,  /* -cl-uniform-work-group-size or OpenCL C 1.x: global % local == 0 */
  PF_SOURCE = 8u,   /* built from OpenCL C source (CL_KERNEL_ATTRIBUTES is answered) */
};

typedef struct prog_x {
  struct _cl_program p;  /* first: the cl_program handle points here */
  unsigned flags;        /* PF_*, of the current binary / executable */
  spvi_module **retired; /* executables replaced by a rebuild (see the file comment) */
  size_t nretired;
} prog_x;

static prog_x *X(cl_program p) { return (prog_x *)p; }

bool clx_program_uniform_wg(cl_program p) { return (X(p)->flags & PF_UNIFORM) != 0; }
bool clx_program_from_source(cl_program p) { return (X(p)->flags & PF_SOURCE) != 0; }

static void prog_destroy(void *obj) {
  prog_x *x = obj;
  cl_program p = &x->p;
  free(p->source);
  free(p->il);
  free(p->log);
  free(p->options);
  free(p->spirv);
  free(p->spec);
  free(p->release_cbs);
  free(p->release_users);
  spvi_module_free(p->mod);
  for (size_t i = 0; i < x->nretired; i++) spvi_module_free(x->retired[i]);
  free(x->retired);
  pthread_mutex_destroy(&p->lock);
  pthread_mutex_destroy(&p->run_lock);
  clx_unhold(p->ctx);
  clx_obj_free(x, sizeof *x);
}

static prog_x *prog_new(cl_context ctx) {
  prog_x *x = clx_obj_alloc(sizeof *x);
  if (!x) return NULL;
  pthread_mutex_init(&x->p.lock, NULL);
  pthread_mutex_init(&x->p.run_lock, NULL);
  x->p.ctx = ctx;
  clx_hold(ctx);
  x->p.status = CL_BUILD_NONE;
  x->p.binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
  clx_init(x, CLX_PROGRAM, prog_destroy);
  return x;
}

static void *fail(cl_int *errcode_ret, cl_int e) {
  if (errcode_ret) *errcode_ret = e;
  return NULL;
}

static cl_program ok(cl_int *errcode_ret, prog_x *x) {
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return &x->p;
}

/* Keep the current executable for launches still in flight (file comment). Caller holds p->lock. */
static void retire_module(prog_x *x) {
  if (!x->p.mod) return;
  spvi_module **r = realloc(x->retired, (x->nretired + 1) * sizeof *r);
  if (r) {
    x->retired = r;
    x->retired[x->nretired++] = x->p.mod;
  } /* else: leak it rather than free a module a launch may be running on */
  x->p.mod = NULL;
}


/* ---- SPIR-V: validation, the binary marker, specialization constants ---------------------------
 * Only the module's instruction stream is walked here (SPIR-V 2.3 "Physical Layout"): a header of
 * five words, then instructions whose first word holds the word count (high 16 bits) and opcode. */
#define SPV_MAGIC 0x07230203u
enum {
  OP_SOURCE_EXTENSION = 4,
  OP_EXTENSION = 10,
  OP_EXT_INST_IMPORT = 11,
  OP_MEMORY_MODEL = 14,
  OP_ENTRY_POINT = 15,
  OP_EXECUTION_MODE = 16,
  OP_CAPABILITY = 17,
  OP_TYPE_BOOL = 20,
  OP_TYPE_INT = 21,
  OP_TYPE_FLOAT = 22,
  OP_SPEC_CONSTANT_TRUE = 48,
  OP_SPEC_CONSTANT_FALSE = 49,
  OP_SPEC_CONSTANT = 50,
  OP_DECORATE = 71,
  OP_EXECUTION_MODE_ID = 331,
  DECORATION_SPEC_ID = 1
};
#define MARKER_PREFIX "spvi-binary:"

static uint32_t bswap32(uint32_t v) { return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24); }

/* A copy of a SPIR-V module in the host's byte order (SPIR-V 2.3 allows either), or NULL when the
 * bytes are not a well-formed instruction stream. */
static uint32_t *spv_copy(const void *data, size_t bytes) {
  if (!data || bytes < 20 || bytes % 4) return NULL;
  size_t n = bytes / 4;
  uint32_t *w = malloc(bytes);
  if (!w) return NULL;
  memcpy(w, data, bytes);
  if (w[0] == bswap32(SPV_MAGIC))
    for (size_t i = 0; i < n; i++) w[i] = bswap32(w[i]);
  bool good = w[0] == SPV_MAGIC;
  for (size_t i = 5; good && i < n;) {
    uint32_t wc = w[i] >> 16;
    if (wc == 0 || wc > n - i) good = false;
    i += wc ? wc : 1;
  }
  if (!good) {
    free(w);
    return NULL;
  }
  return w;
}

/* The marker's text when instruction `at` is our OpSourceExtension, else NULL. */
static const char *marker_at(const uint32_t *w, size_t at) {
  uint32_t wc = w[at] >> 16;
  if ((w[at] & 0xffffu) != OP_SOURCE_EXTENSION || wc < 2) return NULL;
  const char *s = (const char *)&w[at + 1];
  size_t max = (size_t)(wc - 1) * 4;
  if (strnlen(s, max) == max || strncmp(s, MARKER_PREFIX, strlen(MARKER_PREFIX)) != 0) return NULL;
  return s + strlen(MARKER_PREFIX);
}

static const struct {
  cl_program_binary_type type;
  const char *name;
} binary_types[] = {
  {CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, "object"},
  {CL_PROGRAM_BINARY_TYPE_LIBRARY, "library"},
  {CL_PROGRAM_BINARY_TYPE_EXECUTABLE, "executable"},
};

/* The binary type and flags the marker records; false when the module has no marker. */
static bool spv_marker(const uint32_t *w, size_t n, cl_program_binary_type *type, unsigned *flags) {
  for (size_t i = 5; i < n; i += w[i] >> 16) {
    const char *m = marker_at(w, i);
    if (!m) continue;
    for (size_t t = 0; t < sizeof binary_types / sizeof *binary_types; t++) {
      size_t len = strlen(binary_types[t].name);
      if (strncmp(m, binary_types[t].name, len) == 0 && m[len] == ':') {
        *type = binary_types[t].type;
        *flags = (unsigned)strtoul(m + len + 1, NULL, 10);
        return true;
      }
    }
  }
  return false;
}

static bool in_preamble(uint32_t opcode) {
  return opcode == OP_CAPABILITY || opcode == OP_EXTENSION || opcode == OP_EXT_INST_IMPORT ||
         opcode == OP_MEMORY_MODEL || opcode == OP_ENTRY_POINT || opcode == OP_EXECUTION_MODE ||
         opcode == OP_EXECUTION_MODE_ID;
}

/* The module without its marker and, when `type` is not NONE, with a new one — placed first in the
 * debug section (after the execution modes: SPIR-V 2.4 "Logical Layout of a Module", 7a). Returns a
 * malloc'd module (its size in *bytes_out) or NULL when out of memory. */
static uint32_t *spv_remark(const uint32_t *w, size_t n, cl_program_binary_type type, unsigned flags,
                            size_t *bytes_out) {
  char text[64] = "";
  const char *tname = NULL;
  for (size_t t = 0; t < sizeof binary_types / sizeof *binary_types; t++)
    if (binary_types[t].type == type) tname = binary_types[t].name;
  if (tname) snprintf(text, sizeof text, MARKER_PREFIX "%s:%u", tname, flags);
  size_t mwords = tname ? 1 + (strlen(text) + 4) / 4 : 0; /* the string, nul-terminated, padded */
  uint32_t *out = calloc(n + mwords, sizeof *out);
  if (!out) return NULL;
  memcpy(out, w, 5 * sizeof *w);
  size_t k = 5;
  bool placed = !tname;
  for (size_t i = 5; i < n; i += w[i] >> 16) {
    uint32_t wc = w[i] >> 16;
    if (marker_at(w, i)) continue;
    if (!placed && !in_preamble(w[i] & 0xffffu)) {
      out[k] = (uint32_t)(mwords << 16) | OP_SOURCE_EXTENSION;
      memcpy(&out[k + 1], text, strlen(text));
      k += mwords;
      placed = true;
    }
    memcpy(&out[k], &w[i], wc * sizeof *w);
    k += wc;
  }
  if (!placed) {
    out[k] = (uint32_t)(mwords << 16) | OP_SOURCE_EXTENSION;
    memcpy(&out[k + 1], text, strlen(text));
    k += mwords;
  }
  *bytes_out = k * 4;
  return out;
}

/* Size in bytes of the specialization constant with SpecId `id` (1 for a boolean, as
 * clSetProgramSpecializationConstant takes it: API 5.8.2), 0 when the module has none. */
static size_t spv_spec_size(const uint32_t *w, size_t n, cl_uint id) {
  uint32_t target = 0;
  for (size_t i = 5; i < n && !target; i += w[i] >> 16)
    if ((w[i] & 0xffffu) == OP_DECORATE && (w[i] >> 16) >= 4 && w[i + 2] == DECORATION_SPEC_ID && w[i + 3] == id)
      target = w[i + 1];
  if (!target) return 0;
  uint32_t rtype = 0;
  for (size_t i = 5; i < n && !rtype; i += w[i] >> 16) {
    uint32_t op = w[i] & 0xffffu;
    if ((op == OP_SPEC_CONSTANT || op == OP_SPEC_CONSTANT_TRUE || op == OP_SPEC_CONSTANT_FALSE) && (w[i] >> 16) >= 3 &&
        w[i + 2] == target)
      rtype = w[i + 1];
  }
  for (size_t i = 5; i < n && rtype; i += w[i] >> 16) {
    uint32_t op = w[i] & 0xffffu;
    if ((w[i] >> 16) < 2 || w[i + 1] != rtype) continue;
    if (op == OP_TYPE_BOOL) return 1;
    if ((op == OP_TYPE_INT || op == OP_TYPE_FLOAT) && (w[i] >> 16) >= 3) return w[i + 2] / 8;
  }
  return 0;
}

/* ---- build options of IL and binary programs -------------------------------------------------
 * Source programs' options are checked by the compiler (clc_compile.c). For SPIR-V there is nothing
 * to compile, but the options are still the build options of API 5.8.6, so unknown ones are
 * CL_INVALID_BUILD_OPTIONS there too; the ones the run time needs are recorded. */
static const char *const il_options_known[] = {
  "-cl-opt-disable",
  "-cl-mad-enable",
  "-cl-no-signed-zeros",
  "-cl-unsafe-math-optimizations",
  "-cl-finite-math-only",
  "-cl-fast-relaxed-math",
  "-cl-single-precision-constant",
  "-cl-fp32-correctly-rounded-divide-sqrt",
  "-cl-strict-aliasing",
  "-cl-no-subgroup-ifp",
  "-cl-denorms-are-zero",
  "-cl-kernel-arg-info",
  "-cl-uniform-work-group-size",
  "-w",
  "-Werror",
  "-g",
};

/* Parses `options`; returns false (with the reason in the log) for an unknown option. */
static bool il_options(const char *options, unsigned *flags, sbuf *log) {
  char *copy = strdup(options ? options : "");
  if (!copy) return false;
  bool good = true;
  char *save = NULL;
  for (char *t = strtok_r(copy, " \t\n\r\v\f", &save); t && good; t = strtok_r(NULL, " \t\n\r\v\f", &save)) {
    bool known = false;
    for (size_t i = 0; i < sizeof il_options_known / sizeof *il_options_known; i++)
      known |= strcmp(t, il_options_known[i]) == 0;
    if (!strcmp(t, "-cl-denorms-are-zero")) *flags |= PF_FTZ;
    if (!strcmp(t, "-cl-uniform-work-group-size")) *flags |= PF_UNIFORM;
    if (!strcmp(t, "-D") || !strcmp(t, "-I")) { /* the macro or directory follows: skip it */
      known = strtok_r(NULL, " \t\n\r\v\f", &save) != NULL;
    } else if (!strncmp(t, "-D", 2) || !strncmp(t, "-I", 2) || !strncmp(t, "-cl-std=CL", 10)) {
      known = true; /* nothing to preprocess in SPIR-V; -cl-std is the source language's */
    }
    if (!known) {
      sb_addf(log, "spvi: error: invalid build option `%s` (unknown option)\n", t);
      good = false;
    }
  }
  free(copy);
  return good;
}

/* ---- loading an executable ---------------------------------------------------------------- */

static void on_load_message(void *user, spvi_severity sev, const char *message) {
  sb_addf(user, "spvi: %s: %s\n", sev == SPVI_WARNING ? "warning" : "note", message);
}

/* Load module `w` as the program's executable, with its specialization constants (taken under the
 * lock by the caller into `spec`). NULL with the reason in the log when spvi cannot run it. */
static spvi_module *load_executable(const uint32_t *w, size_t bytes, const struct clx_spec *spec, size_t nspec,
                                    sbuf *log) {
  spvi_spec_value *sv = calloc(nspec + 1, sizeof *sv);
  if (!sv) {
    sb_addf(log, "spvi: error: out of memory\n");
    return NULL;
  }
  for (size_t i = 0; i < nspec; i++) sv[i] = (spvi_spec_value){spec[i].id, NULL, spec[i].value, spec[i].size};
  spvi_load_options lo = {
    .strict = clx_cfg()->strict, .spec = sv, .nspec = (unsigned)nspec, .on_message = on_load_message, .user = log};
  spvi_error err;
  spvi_module *m = spvi_load_memory(w, bytes, "program", &lo, &err);
  if (!m) sb_addf(log, "spvi: error: %s\n", err.message);
  free(sv);
  return m;
}

/* ---- creation ----------------------------------------------------------------------------- */

CLX_API CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count,
                                                                      const char **strings, const size_t *lengths,
                                                                      cl_int *errcode_ret) {
  if (!clx_valid(context, CLX_CONTEXT)) return fail(errcode_ret, CL_INVALID_CONTEXT);
  if (count == 0 || !strings) return fail(errcode_ret, CL_INVALID_VALUE);
  size_t total = 0;
  for (cl_uint i = 0; i < count; i++) {
    if (!strings[i]) return fail(errcode_ret, CL_INVALID_VALUE);
    /* API 5.8.1: a length of 0 (or no lengths) means the string is nul-terminated */
    total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
  }
  char *src = malloc(total + 1);
  if (!src) return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  size_t at = 0;
  for (cl_uint i = 0; i < count; i++) {
    size_t len = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    memcpy(src + at, strings[i], len);
    at += len;
  }
  src[at] = 0;
  prog_x *x = prog_new(context);
  if (!x) {
    free(src);
    return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  }
  x->p.source = src;
  return ok(errcode_ret, x);
}

CLX_API CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void *il, size_t length,
                                                                  cl_int *errcode_ret) {
  if (!clx_valid(context, CLX_CONTEXT)) return fail(errcode_ret, CL_INVALID_CONTEXT);
  if (!il || length == 0) return fail(errcode_ret, CL_INVALID_VALUE);
  uint32_t *w = spv_copy(il, length);
  if (!w) {
    /* API 5.8.1: "il does not contain well-formed intermediate language" */
    clx_notify(context, "clCreateProgramWithIL: the %zu bytes are not a SPIR-V module", length);
    return fail(errcode_ret, CL_INVALID_VALUE);
  }
  free(w);
  void *copy = malloc(length);
  if (!copy) return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  memcpy(copy, il, length);
  prog_x *x = prog_new(context);
  if (!x) {
    free(copy);
    return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  }
  x->p.il = copy;
  x->p.il_size = length;
  return ok(errcode_ret, x);
}

/* device_list of clCreateProgramWithBinary/clCreateProgramWithBuiltInKernels (API 5.8.1). */
static cl_int check_device_list(cl_uint num_devices, const cl_device_id *device_list) {
  if (!device_list || num_devices == 0) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_devices; i++)
    if (!clx_is_device(device_list[i])) return CL_INVALID_DEVICE;
  return CL_SUCCESS;
}

CLX_API CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                                      const cl_device_id *device_list,
                                                                      const size_t *lengths,
                                                                      const unsigned char **binaries,
                                                                      cl_int *binary_status, cl_int *errcode_ret) {
  if (!clx_valid(context, CLX_CONTEXT)) return fail(errcode_ret, CL_INVALID_CONTEXT);
  cl_int e = check_device_list(num_devices, device_list);
  if (e != CL_SUCCESS) return fail(errcode_ret, e);
  if (!lengths || !binaries) return fail(errcode_ret, CL_INVALID_VALUE);
  /* every entry is checked and gets its status (API 5.8.1 binary_status) */
  uint32_t *w = NULL;
  size_t bytes = 0;
  for (cl_uint i = 0; i < num_devices; i++) {
    cl_int st = CL_SUCCESS;
    if (lengths[i] == 0 || !binaries[i]) {
      st = CL_INVALID_VALUE;
    } else {
      uint32_t *wi = spv_copy(binaries[i], lengths[i]);
      if (!wi) st = CL_INVALID_BINARY;
      else if (w) free(wi); /* one device: a second entry names it again */
      else {
        w = wi;
        bytes = lengths[i];
      }
    }
    if (binary_status) binary_status[i] = st;
    if (st != CL_SUCCESS && e == CL_SUCCESS) e = st;
  }
  if (e != CL_SUCCESS) {
    free(w);
    if (e == CL_INVALID_BINARY) clx_notify(context, "clCreateProgramWithBinary: a binary is not a SPIR-V module");
    return fail(errcode_ret, e);
  }
  prog_x *x = prog_new(context);
  if (!x) {
    free(w);
    return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  }
  x->p.from_binary = true;
  x->p.spirv = w;
  x->p.spirv_size = bytes;
  cl_program_binary_type type;
  unsigned flags;
  if (spv_marker(w, bytes / 4, &type, &flags)) {
    x->p.binary_type = type;
    x->flags = flags;
  } else {
    x->p.binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT; /* file comment */
    x->flags = PF_ARG_INFO;
  }
  x->p.kernel_arg_info = (x->flags & PF_ARG_INFO) != 0;
  x->p.denorms_are_zero = (x->flags & PF_FTZ) != 0;
  return ok(errcode_ret, x);
}

CLX_API CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                                              const cl_device_id *device_list,
                                                                              const char *kernel_names,
                                                                              cl_int *errcode_ret) {
  if (!clx_valid(context, CLX_CONTEXT)) return fail(errcode_ret, CL_INVALID_CONTEXT);
  cl_int e = check_device_list(num_devices, device_list);
  if (e != CL_SUCCESS) return fail(errcode_ret, e);
  /* CL_DEVICE_BUILT_IN_KERNELS is "": every name is one "not supported by any of the devices" */
  (void)kernel_names;
  clx_notify(context, "clCreateProgramWithBuiltInKernels: spvi's device has no built-in kernels");
  return fail(errcode_ret, CL_INVALID_VALUE);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program program) {
  return clx_retain(program, CLX_PROGRAM, CL_INVALID_PROGRAM);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  return clx_release(program, CLX_PROGRAM, CL_INVALID_PROGRAM);
}

/* Program release callbacks exist for program-scope global constructors and destructors (API
 * 5.8.9); CL_PROGRAM_SCOPE_GLOBAL_CTORS/DTORS_PRESENT are false on spvi, and "CL_INVALID_OPERATION
 * if no devices in the context associated with program support destructors or constructors"
 * (what the CTS api/consistency_prog_ctor_dtor expects). */
CLX_API CL_API_ENTRY cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program program,
                                                                    void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                                                    void *user_data) {
  (void)user_data;
  if (!clx_valid(program, CLX_PROGRAM)) return CL_INVALID_PROGRAM;
  if (!pfn_notify) return CL_INVALID_VALUE;
  return CL_INVALID_OPERATION;
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                                                           size_t spec_size, const void *spec_value) {
  if (!clx_valid(program, CLX_PROGRAM)) return CL_INVALID_PROGRAM;
  /* API 5.8.2: CL_INVALID_PROGRAM "if program is not a valid program object created from an
   * intermediate language (e.g. SPIR-V)" */
  if (!program->il) return CL_INVALID_PROGRAM;
  uint32_t *w = spv_copy(program->il, program->il_size);
  if (!w) return CL_OUT_OF_HOST_MEMORY; /* it was checked at creation */
  size_t size = spv_spec_size(w, program->il_size / 4, spec_id);
  free(w);
  if (size == 0) return CL_INVALID_SPEC_ID;
  if (!spec_value || spec_size != size) {
    clx_notify(program->ctx, "clSetProgramSpecializationConstant: specialization constant %u takes %zu bytes%s",
               spec_id, size, spec_value ? "" : " (spec_value is NULL)");
    return CL_INVALID_VALUE;
  }
  pthread_mutex_lock(&program->lock);
  size_t i = 0;
  while (i < program->nspec && program->spec[i].id != spec_id) i++;
  cl_int e = CL_SUCCESS;
  if (i == program->nspec) {
    struct clx_spec *s = realloc(program->spec, (program->nspec + 1) * sizeof *s);
    if (s) {
      program->spec = s;
      program->nspec++;
    } else e = CL_OUT_OF_HOST_MEMORY;
  }
  if (e == CL_SUCCESS) {
    program->spec[i].id = spec_id;
    program->spec[i].size = size;
    memset(program->spec[i].value, 0, sizeof program->spec[i].value);
    memcpy(program->spec[i].value, spec_value, size);
  }
  pthread_mutex_unlock(&program->lock);
  return e;
}

/* ---- build, compile, link ----------------------------------------------------------------- */

/* device_list of clBuildProgram/clCompileProgram/clLinkProgram: may be NULL (then every device of
 * the program), but not together with num_devices > 0, nor a list with num_devices == 0. */
static cl_int check_build_devices(cl_uint num_devices, const cl_device_id *device_list) {
  if ((device_list == NULL) != (num_devices == 0)) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_devices; i++)
    if (!clx_is_device(device_list[i])) return CL_INVALID_DEVICE;
  return CL_SUCCESS;
}

typedef enum { JOB_BUILD, JOB_COMPILE } job_kind;

/* What a build or compile produced, installed under the lock by finish_job. */
typedef struct job {
  job_kind kind;
  /* inputs, copied under the lock */
  char *source;
  uint32_t *words;
  size_t bytes;                   /* IL or binary (host byte order, marker removed) */
  cl_program_binary_type in_type; /* binary programs: the binary's type */
  unsigned in_flags;
  struct clx_spec *spec;
  size_t nspec;
  /* results */
  cl_int status; /* CL_SUCCESS or the entry point's error */
  sbuf log;
  uint32_t *out;
  size_t out_bytes; /* the new binary (with its marker) */
  spvi_module *mod;
  unsigned flags;
} job;

/* Checks that a build or compile may start (API 5.8.3, 5.8.4 CL_INVALID_OPERATION), marks the
 * build in progress and copies its inputs. */
static cl_int begin_job(prog_x *x, job *j) {
  cl_program p = &x->p;
  cl_int e = CL_SUCCESS;
  pthread_mutex_lock(&p->lock);
  if (p->status == CL_BUILD_IN_PROGRESS) e = CL_INVALID_OPERATION;
  else if (atomic_load(&p->nkernels) > 0) e = CL_INVALID_OPERATION;
  else if (!p->source && !p->il && !(p->from_binary && j->kind == JOB_BUILD)) e = CL_INVALID_OPERATION;
  if (e == CL_SUCCESS) {
    if (p->source) {
      j->source = strdup(p->source);
      if (!j->source) e = CL_OUT_OF_HOST_MEMORY;
    } else {
      const void *data = p->il ? p->il : p->spirv;
      size_t bytes = p->il ? p->il_size : p->spirv_size;
      uint32_t *w = spv_copy(data, bytes);
      if (w && p->from_binary && !p->il) {
        j->in_type = p->binary_type;
        j->in_flags = x->flags;
      }
      j->words = w ? spv_remark(w, bytes / 4, CL_PROGRAM_BINARY_TYPE_NONE, 0, &j->bytes) : NULL;
      free(w);
      if (!j->words) e = CL_OUT_OF_HOST_MEMORY;
    }
    if (e == CL_SUCCESS && p->nspec) {
      j->spec = malloc(p->nspec * sizeof *j->spec);
      if (j->spec) {
        memcpy(j->spec, p->spec, p->nspec * sizeof *j->spec);
        j->nspec = p->nspec;
      } else e = CL_OUT_OF_HOST_MEMORY;
    }
  }
  if (e == CL_SUCCESS) {
    p->status = CL_BUILD_IN_PROGRESS;
    /* from now on the program has no executable: no kernel can be made of the one replaced */
    retire_module(x);
  }
  pthread_mutex_unlock(&p->lock);
  return e;
}

/* Flags of a compile of OpenCL C (clc_compile.h: OpenCL C 1.x needs uniform work-groups, API 5.10). */
static unsigned compile_flags(const clc_result *r) {
  return (r->denorms_are_zero ? PF_FTZ : 0) | (r->kernel_arg_info ? PF_ARG_INFO : 0) |
         (r->uniform_work_group_size || r->cl_std < 200 ? PF_UNIFORM : 0) | PF_SOURCE;
}

/* The compiler's module as a checked copy (spv_copy), so that the walks here may trust it. */
static bool take_module(job *j, clc_result *r) {
  j->words = spv_copy(r->spirv, r->bytes);
  j->bytes = r->bytes;
  if (!j->words) sb_addf(&j->log, "spvi: error: the compiler's output is not a SPIR-V module\n");
  return j->words != NULL;
}

/* Compiles the source (with clCompileProgram's headers, included by name), or takes the IL or
 * binary: j->words/bytes become the module, j->flags its flags. `invalid_options` and `failure`
 * are the entry point's error codes. */
static void job_module(job *j, const char *options, const clc_header *headers, unsigned nheaders,
                       cl_int invalid_options, cl_int failure) {
  if (j->source) {
    clc_result r;
    int rc = clc_compile(j->source, options, headers, nheaders, &r);
    if (r.log) sb_add(&j->log, r.log);
    if (rc == CLC_OK && take_module(j, &r)) j->flags = compile_flags(&r);
    else j->status = rc == CLC_INVALID_OPTIONS ? invalid_options : failure;
    clc_result_free(&r);
    return;
  }
  /* IL: names come from OpName (API 5.9.4: arg info "if the program was created with IL") */
  j->flags = j->in_type ? j->in_flags : PF_ARG_INFO;
  if (!il_options(options, &j->flags, &j->log)) j->status = invalid_options;
}

static void run_build(job *j, const char *options) {
  job_module(j, options, NULL, 0, CL_INVALID_BUILD_OPTIONS, CL_BUILD_PROGRAM_FAILURE);
  if (j->status != CL_SUCCESS) return;
  j->mod = load_executable(j->words, j->bytes, j->spec, j->nspec, &j->log);
  if (!j->mod) {
    j->status = CL_BUILD_PROGRAM_FAILURE;
    return;
  }
  j->out = spv_remark(j->words, j->bytes / 4, CL_PROGRAM_BINARY_TYPE_EXECUTABLE, j->flags, &j->out_bytes);
  if (!j->out) {
    spvi_module_free(j->mod);
    j->mod = NULL;
    j->status = CL_OUT_OF_HOST_MEMORY;
  }
}

static void run_compile(job *j, const char *options, const clc_header *headers, unsigned nheaders) {
  job_module(j, options, headers, nheaders, CL_INVALID_COMPILER_OPTIONS, CL_COMPILE_PROGRAM_FAILURE);
  if (j->status != CL_SUCCESS) return;
  j->out = spv_remark(j->words, j->bytes / 4, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, j->flags, &j->out_bytes);
  if (!j->out) j->status = CL_OUT_OF_HOST_MEMORY;
}

static void set_flags(prog_x *x, unsigned flags) {
  x->flags = flags;
  x->p.denorms_are_zero = (flags & PF_FTZ) != 0;
  x->p.kernel_arg_info = (flags & PF_ARG_INFO) != 0;
}

/* Installs a job's results (API 5.8.3/5.8.4: status, log, options, binary) and frees the job. */
static void finish_job(prog_x *x, job *j, const char *options) {
  cl_program p = &x->p;
  char *opts = strdup(options ? options : "");
  char *log = sb_take(&j->log);
  pthread_mutex_lock(&p->lock);
  free(p->options);
  p->options = opts;
  free(p->log);
  p->log = log;
  retire_module(x); /* a build or compile replaces the executable, successful or not */
  if (j->status == CL_SUCCESS) {
    free(p->spirv);
    p->spirv = j->out;
    p->spirv_size = j->out_bytes;
    j->out = NULL;
    p->mod = j->mod;
    p->binary_type = j->kind == JOB_BUILD ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE : CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    p->status = CL_BUILD_SUCCESS;
    set_flags(x, j->flags);
  } else {
    p->status = CL_BUILD_ERROR;
    if (!p->from_binary) { /* a binary program keeps its binary; the others have none now */
      free(p->spirv);
      p->spirv = NULL;
      p->spirv_size = 0;
      p->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
    }
  }
  pthread_mutex_unlock(&p->lock);
  free(j->source);
  free(j->words);
  free(j->out);
  free(j->spec);
}

/* The first line of a log that says "error", for the context's notify callback. */
static void notify_failure(cl_program p, const char *what) {
  char first[512];
  pthread_mutex_lock(&p->lock);
  const char *log = p->log ? p->log : "";
  const char *e = strstr(log, "error");
  const char *line = e ? e : log;
  while (line > log && line[-1] != '\n') line--;
  snprintf(first, sizeof first, "%.*s", (int)strcspn(line, "\n"), line);
  pthread_mutex_unlock(&p->lock);
  /* without the lock: the application's callback may query the program */
  clx_notify(p->ctx, "%s failed: %s (CL_PROGRAM_BUILD_LOG has the whole log)", what, first);
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices,
                                                       const cl_device_id *device_list, const char *options,
                                                       void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                                       void *user_data) {
  if (!clx_valid(program, CLX_PROGRAM)) return CL_INVALID_PROGRAM;
  cl_int e = check_build_devices(num_devices, device_list);
  if (e != CL_SUCCESS) return e;
  if (!pfn_notify && user_data) return CL_INVALID_VALUE;
  job j = {.kind = JOB_BUILD};
  e = begin_job(X(program), &j);
  if (e != CL_SUCCESS) {
    if (e == CL_INVALID_OPERATION)
      clx_notify(program->ctx, "clBuildProgram: the program has kernel objects, is being built, or was made by "
                               "clLinkProgram (API 5.8.3)");
    return e;
  }
  run_build(&j, options);
  e = j.status;
  finish_job(X(program), &j, options);
  if (e != CL_SUCCESS) notify_failure(program, "clBuildProgram");
  /* API 5.8.3: pfn_notify is called when the build has completed, successfully or not */
  if (pfn_notify && e != CL_INVALID_BUILD_OPTIONS) pfn_notify(program, user_data);
  return e;
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices,
                                                         const cl_device_id *device_list, const char *options,
                                                         cl_uint num_input_headers, const cl_program *input_headers,
                                                         const char **header_include_names,
                                                         void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                                         void *user_data) {
  if (!clx_valid(program, CLX_PROGRAM)) return CL_INVALID_PROGRAM;
  cl_int e = check_build_devices(num_devices, device_list);
  if (e != CL_SUCCESS) return e;
  /* API 5.8.4: headers and their names come together, both or neither */
  if ((num_input_headers == 0) != (!input_headers && !header_include_names) ||
      (num_input_headers && (!input_headers || !header_include_names)))
    return CL_INVALID_VALUE;
  if (!pfn_notify && user_data) return CL_INVALID_VALUE;
  clc_header *headers = calloc(num_input_headers + 1, sizeof *headers);
  char **texts = calloc(num_input_headers + 1, sizeof *texts);
  e = headers && texts ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
  for (cl_uint i = 0; i < num_input_headers && e == CL_SUCCESS; i++) {
    cl_program h = input_headers[i];
    if (!header_include_names[i]) e = CL_INVALID_VALUE;
    else if (!clx_valid(h, CLX_PROGRAM)) e = CL_INVALID_PROGRAM;
    else {
      pthread_mutex_lock(&h->lock);
      texts[i] = h->source ? strdup(h->source) : NULL;
      pthread_mutex_unlock(&h->lock);
      if (!texts[i]) e = CL_INVALID_VALUE; /* a header program must have source */
      headers[i] = (clc_header){header_include_names[i], texts[i]};
    }
  }
  job j = {.kind = JOB_COMPILE};
  if (e == CL_SUCCESS) e = begin_job(X(program), &j);
  if (e == CL_SUCCESS) {
    run_compile(&j, options, headers, num_input_headers);
    e = j.status;
    finish_job(X(program), &j, options);
    if (e != CL_SUCCESS) notify_failure(program, "clCompileProgram");
    if (pfn_notify && e != CL_INVALID_COMPILER_OPTIONS) pfn_notify(program, user_data);
  } else if (e == CL_INVALID_OPERATION) {
    clx_notify(program->ctx, "clCompileProgram: the program has kernel objects, is being built, or has no "
                             "source or IL (API 5.8.4)");
  }
  for (cl_uint i = 0; texts && i < num_input_headers; i++) free(texts[i]);
  free(texts);
  free(headers);
  return e;
}

/* True when the whitespace-separated `options` contain `word`. */
static bool has_option(const char *options, const char *word) {
  size_t n = strlen(word);
  for (const char *s = options; s && (s = strstr(s, word)); s += n)
    if ((s == options || s[-1] == ' ' || s[-1] == '\t') && (s[n] == 0 || s[n] == ' ' || s[n] == '\t')) return true;
  return false;
}

/* The inputs of a link: each program's binary (marker removed) and their combined flags. */
typedef struct link_in {
  uint32_t **mods;
  size_t *sizes;
  unsigned flags;
} link_in;

static void link_in_free(link_in *in, cl_uint n) {
  for (cl_uint i = 0; in->mods && i < n; i++) free(in->mods[i]);
  free(in->mods);
  free(in->sizes);
}

/* API 5.8.5: every input must be a valid program with a compiled object or library binary. */
static cl_int link_inputs(cl_uint n, const cl_program *programs, link_in *in) {
  in->mods = calloc(n, sizeof *in->mods);
  in->sizes = calloc(n, sizeof *in->sizes);
  if (!in->mods || !in->sizes) return CL_OUT_OF_HOST_MEMORY;
  in->flags = PF_SOURCE;
  for (cl_uint i = 0; i < n; i++)
    if (!clx_valid(programs[i], CLX_PROGRAM)) return CL_INVALID_PROGRAM;
  for (cl_uint i = 0; i < n; i++) {
    cl_program p = programs[i];
    cl_int e = CL_SUCCESS;
    pthread_mutex_lock(&p->lock);
    if (p->status == CL_BUILD_IN_PROGRESS) e = CL_INVALID_OPERATION;
    else if (!p->spirv || (p->binary_type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
                           p->binary_type != CL_PROGRAM_BINARY_TYPE_LIBRARY))
      e = CL_INVALID_OPERATION;
    else {
      uint32_t *w = spv_copy(p->spirv, p->spirv_size);
      in->mods[i] = w ? spv_remark(w, p->spirv_size / 4, CL_PROGRAM_BINARY_TYPE_NONE, 0, &in->sizes[i]) : NULL;
      free(w);
      if (!in->mods[i]) e = CL_OUT_OF_HOST_MEMORY;
      /* run-time flags of any input apply to the whole program; "from source" only if all are */
      unsigned f = X(p)->flags;
      in->flags |= f & (PF_FTZ | PF_ARG_INFO | PF_UNIFORM);
      if (!(f & PF_SOURCE)) in->flags &= ~(unsigned)PF_SOURCE;
    }
    pthread_mutex_unlock(&p->lock);
    if (e != CL_SUCCESS) return e;
  }
  return CL_SUCCESS;
}

/* Links the inputs into x (a new program): its binary, executable, status and log. */
static cl_int run_link(prog_x *x, const link_in *in, cl_uint n, const char *options) {
  bool library = has_option(options, "-create-library");
  sbuf log = {0};
  clc_result r;
  int rc = clc_link((const void *const *)in->mods, in->sizes, n, options, &r);
  if (r.log) sb_add(&log, r.log);
  cl_int e = rc == CLC_OK                ? CL_SUCCESS
             : rc == CLC_INVALID_OPTIONS ? CL_INVALID_LINKER_OPTIONS
                                         : CL_LINK_PROGRAM_FAILURE;
  unsigned flags = in->flags | (r.denorms_are_zero ? PF_FTZ : 0);
  spvi_module *mod = NULL;
  uint32_t *out = NULL, *w = e == CL_SUCCESS ? spv_copy(r.spirv, r.bytes) : NULL;
  size_t out_bytes = 0;
  if (e == CL_SUCCESS && !w) {
    sb_addf(&log, "spvi: error: the linker's output is not a SPIR-V module\n");
    e = CL_LINK_PROGRAM_FAILURE;
  }
  if (e == CL_SUCCESS && !library) {
    mod = load_executable(w, r.bytes, NULL, 0, &log);
    if (!mod) e = CL_LINK_PROGRAM_FAILURE;
  }
  if (e == CL_SUCCESS) {
    cl_program_binary_type t = library ? CL_PROGRAM_BINARY_TYPE_LIBRARY : CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    out = spv_remark(w, r.bytes / 4, t, flags, &out_bytes);
    if (!out) {
      spvi_module_free(mod);
      mod = NULL;
      e = CL_OUT_OF_HOST_MEMORY;
    }
  }
  free(w);
  clc_result_free(&r);
  cl_program p = &x->p;
  pthread_mutex_lock(&p->lock);
  p->log = sb_take(&log);
  p->options = strdup(options ? options : "");
  p->status = e == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  if (e == CL_SUCCESS) {
    p->spirv = out;
    p->spirv_size = out_bytes;
    p->mod = mod;
    p->binary_type = library ? CL_PROGRAM_BINARY_TYPE_LIBRARY : CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    set_flags(x, flags);
  }
  pthread_mutex_unlock(&p->lock);
  return e;
}

CLX_API CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices,
                                                          const cl_device_id *device_list, const char *options,
                                                          cl_uint num_input_programs, const cl_program *input_programs,
                                                          void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                                          void *user_data, cl_int *errcode_ret) {
  if (!clx_valid(context, CLX_CONTEXT)) return fail(errcode_ret, CL_INVALID_CONTEXT);
  cl_int e = check_build_devices(num_devices, device_list);
  if (e != CL_SUCCESS) return fail(errcode_ret, e);
  if (num_input_programs == 0 || !input_programs) return fail(errcode_ret, CL_INVALID_VALUE);
  if (!pfn_notify && user_data) return fail(errcode_ret, CL_INVALID_VALUE);
  link_in in = {0};
  e = link_inputs(num_input_programs, input_programs, &in);
  if (e != CL_SUCCESS) {
    link_in_free(&in, num_input_programs);
    if (e == CL_INVALID_OPERATION)
      clx_notify(context, "clLinkProgram: every input must be a compiled object or a library (API 5.8.5)");
    return fail(errcode_ret, e);
  }
  prog_x *x = prog_new(context);
  if (!x) {
    link_in_free(&in, num_input_programs);
    return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  }
  e = run_link(x, &in, num_input_programs, options);
  link_in_free(&in, num_input_programs);
  if (e == CL_INVALID_LINKER_OPTIONS || e == CL_OUT_OF_HOST_MEMORY) {
    notify_failure(&x->p, "clLinkProgram");
    clReleaseProgram(&x->p);
    return fail(errcode_ret, e);
  }
  /* API 5.8.5: a link that failed still returns a program, whose log says why */
  if (e != CL_SUCCESS) notify_failure(&x->p, "clLinkProgram");
  if (pfn_notify) pfn_notify(&x->p, user_data);
  if (errcode_ret) *errcode_ret = e;
  return &x->p;
}

/* ---- queries ------------------------------------------------------------------------------ */

/* CL_PROGRAM_KERNEL_NAMES: the names separated by semicolons (API 5.8.9). */
static char *kernel_names(const spvi_module *m) {
  sbuf b = {0};
  for (int k = 0; k < spvi_kernel_count(m); k++) sb_addf(&b, "%s%s", k ? ";" : "", spvi_kernel_name(m, k));
  return sb_take(&b);
}

/* The answer to one clGetProgramInfo query, computed under the program's lock. */
static cl_int program_info(cl_program p, cl_program_info param, size_t size, void *value, size_t *size_ret) {
  union {
    cl_uint u;
    size_t z;
    cl_context c;
    cl_device_id d;
    cl_bool b;
  } v;
  switch (param) {
  case CL_PROGRAM_REFERENCE_COUNT: v.u = clx_refcount(p); return clx_info(size, value, size_ret, &v.u, sizeof v.u);
  case CL_PROGRAM_CONTEXT: v.c = p->ctx; return clx_info(size, value, size_ret, &v.c, sizeof v.c);
  case CL_PROGRAM_NUM_DEVICES: v.u = 1; return clx_info(size, value, size_ret, &v.u, sizeof v.u);
  case CL_PROGRAM_DEVICES: v.d = &clx_device; return clx_info(size, value, size_ret, &v.d, sizeof v.d);
  case CL_PROGRAM_SOURCE: return clx_info_str(size, value, size_ret, p->source ? p->source : "");
  /* "If program is created with clCreateProgramWithSource, ...Binary ... param_value_size_ret will
   * be set to 0" */
  case CL_PROGRAM_IL: return clx_info(size, value, size_ret, p->il, p->il ? p->il_size : 0);
  case CL_PROGRAM_BINARY_SIZES:
    v.z = p->spirv ? p->spirv_size : 0;
    return clx_info(size, value, size_ret, &v.z, sizeof v.z);
  case CL_PROGRAM_BINARIES: {
    /* an array of one pointer, per device: the binary is copied where it points (if not NULL) */
    if (value && size < sizeof(unsigned char *)) return CL_INVALID_VALUE;
    if (value) {
      unsigned char *dst = ((unsigned char **)value)[0];
      if (dst && p->spirv) memcpy(dst, p->spirv, p->spirv_size);
    }
    if (size_ret) *size_ret = sizeof(unsigned char *);
    return CL_SUCCESS;
  }
  case CL_PROGRAM_NUM_KERNELS:
    if (!p->mod) return CL_INVALID_PROGRAM_EXECUTABLE;
    v.z = (size_t)spvi_kernel_count(p->mod);
    return clx_info(size, value, size_ret, &v.z, sizeof v.z);
  case CL_PROGRAM_KERNEL_NAMES: {
    if (!p->mod) return CL_INVALID_PROGRAM_EXECUTABLE;
    char *names = kernel_names(p->mod);
    cl_int e = names ? clx_info_str(size, value, size_ret, names) : CL_OUT_OF_HOST_MEMORY;
    free(names);
    return e;
  }
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
  case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
    if (!p->mod) return CL_INVALID_PROGRAM_EXECUTABLE;
    v.b = CL_FALSE; /* OpenCL C has no constructors; spvi runs no SPIR-V initializer kernels */
    return clx_info(size, value, size_ret, &v.b, sizeof v.b);
  default: return CL_INVALID_VALUE;
  }
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name,
                                                         size_t param_value_size, void *param_value,
                                                         size_t *param_value_size_ret) {
  if (!clx_valid(program, CLX_PROGRAM)) return CL_INVALID_PROGRAM;
  pthread_mutex_lock(&program->lock);
  cl_int e = program_info(program, param_name, param_value_size, param_value, param_value_size_ret);
  pthread_mutex_unlock(&program->lock);
  return e;
}

/* CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: bytes of the program-scope variables in the global
 * address space (constant ones are not "global variables" of API 5.8.9). */
static size_t global_variable_bytes(const spvi_module *m) {
  size_t total = 0;
  for (int i = 0; m && i < spvi_global_count(m); i++) {
    const spvi_global_info *g = spvi_global(m, i);
    if (g && g->space == SPVI_AS_GLOBAL) total += g->size;
  }
  return total;
}

static cl_int build_info(cl_program p, cl_program_build_info param, size_t size, void *value, size_t *size_ret) {
  union {
    cl_build_status s;
    cl_program_binary_type t;
    size_t z;
  } v;
  switch (param) {
  case CL_PROGRAM_BUILD_STATUS: v.s = p->status; return clx_info(size, value, size_ret, &v.s, sizeof v.s);
  case CL_PROGRAM_BUILD_OPTIONS: return clx_info_str(size, value, size_ret, p->options ? p->options : "");
  case CL_PROGRAM_BUILD_LOG: return clx_info_str(size, value, size_ret, p->log ? p->log : "");
  case CL_PROGRAM_BINARY_TYPE: v.t = p->binary_type; return clx_info(size, value, size_ret, &v.t, sizeof v.t);
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
    v.z = global_variable_bytes(p->mod);
    return clx_info(size, value, size_ret, &v.z, sizeof v.z);
  default: return CL_INVALID_VALUE;
  }
}

CLX_API CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                                              cl_program_build_info param_name, size_t param_value_size,
                                                              void *param_value, size_t *param_value_size_ret) {
  if (!clx_valid(program, CLX_PROGRAM)) return CL_INVALID_PROGRAM;
  if (!clx_is_device(device)) return CL_INVALID_DEVICE;
  pthread_mutex_lock(&program->lock);
  cl_int e = build_info(program, param_name, param_value_size, param_value, param_value_size_ret);
  pthread_mutex_unlock(&program->lock);
  return e;
}
