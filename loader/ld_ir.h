/*
 * ld_ir.h — the in-memory IR the loader builds from a SPIR-V binary.
 *
 * Everything after the loader works from this IR and never looks at SPIR-V words. The IR is a plain
 * data structure: an id table (one entry per SPIR-V result id, saying what the id is) plus arrays of
 * types, constants, module-scope variables, functions (with blocks and pre-decoded instructions),
 * decorations, entry points and debug line information. Opcode numbers are SPIR-V's own (`SpvOp*`
 * from <spirv/unified1/spirv.h>); names come from the generated tables (gen_spv_tables.h).
 *
 * Memory layout rules (OpenCL C 6.3.5 / SPIR-V env 2.x): scalars are aligned to their size, a vector
 * of n elements has the size and alignment of n rounded up to a power of two (3 -> 4) elements,
 * arrays are element-size * count, structs use C layout unless decorated CPacked (then alignment 1),
 * pointers are 4 or 8 bytes per the addressing model. In a register, a vector holds exactly n
 * elements (reg_size = n * element bytes); aggregates hold their memory layout.
 */
#ifndef LD_IR_H
#define LD_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LD_NONE 0xFFFFFFFFu /* "absent" for optional u32 fields (builtin, spec id, member ...) */

typedef enum ld_type_kind {
  LD_TY_VOID,
  LD_TY_BOOL,
  LD_TY_INT,
  LD_TY_FLOAT,
  LD_TY_VECTOR,
  LD_TY_ARRAY,
  LD_TY_RUNTIME_ARRAY,
  LD_TY_STRUCT,
  LD_TY_POINTER,
  LD_TY_FUNCTION,
  LD_TY_OPAQUE
} ld_type_kind;

typedef struct ld_type {
  ld_type_kind kind;
  uint32_t id;
  uint32_t bits;      /* INT, FLOAT: width in bits. BOOL: 8 (one byte each, in registers and memory) */
  uint32_t count;     /* VECTOR: components; ARRAY: length; STRUCT/FUNCTION: members/parameters */
  uint32_t elem;      /* VECTOR/ARRAY/RUNTIME_ARRAY: element type id; POINTER: pointee type id
                         (0 for an untyped/opaque pointee); FUNCTION: return type id;
                         OPAQUE OpTypeSampledImage: the image type id */
  uint32_t storage;   /* POINTER: SpvStorageClass */
  uint32_t *members;  /* STRUCT: member type ids; FUNCTION: parameter type ids (count entries) */
  uint32_t *offsets;  /* STRUCT: member byte offsets (Offset decoration, else C layout) */
  uint32_t size;      /* bytes in memory (0 for VOID, FUNCTION, RUNTIME_ARRAY; 8 for OPAQUE handles) */
  uint32_t align;     /* alignment in memory */
  uint32_t reg_size;  /* bytes in a register (vectors: n * element bytes) */
  bool packed;        /* STRUCT decorated CPacked */
  const char *opaque; /* OPAQUE: the declaring opcode's name, e.g. "OpTypeEvent", "OpTypeImage" */
  /* OPAQUE OpTypeImage: SpvDim (1D, 2D, 3D or Buffer), Arrayed (0/1) and SpvAccessQualifier */
  uint32_t img_dim, img_arrayed, img_access;
} ld_type;

/* A sampler value, in a register or in memory (OpConstantSampler, sampler_t arguments): bits 0-2
 * SamplerAddressingMode, bit 3 normalized coordinates, bit 4 linear filtering, bits 8-15
 * LD_SAMPLER_TAG, so that a zero (OpConstantNull) or stray value is recognised as no sampler. */
#define LD_SAMPLER_TAG 0xA5u
static inline uint64_t ld_sampler_bits(uint32_t addressing, bool normalized, bool linear) {
  return (uint64_t)(addressing & 7u) | (normalized ? 8u : 0u) | (linear ? 16u : 0u) | (LD_SAMPLER_TAG << 8);
}

/* A pointer to a module-scope variable inside a constant's value (address constants: llvm-spirv
 * writes `global int *p = &x[2];` as OpSpecConstantOp over the variable): the pointer-sized bytes
 * at `offset` hold a byte offset that is added to the address of variable `global` (its id). */
typedef struct ld_reloc {
  uint32_t offset;
  uint32_t global;
} ld_reloc;

typedef struct ld_const {
  uint32_t id;
  uint32_t type;          /* type id */
  uint8_t *bytes;         /* the value in register layout, type's reg_size bytes (all zero for Null/Undef) */
  bool is_spec;           /* OpSpecConstant*: `bytes` holds the default value */
  bool is_undef;          /* OpUndef at module scope */
  uint8_t *undef_mask;    /* composites: 1 per register byte of an undefined constituent (an OpUndef,
                             also inside a constituent composite), NULL when there is none */
  uint32_t spec_id;       /* SpecId decoration, LD_NONE when absent */
  const ld_reloc *relocs; /* addresses of module-scope variables in the value */
  uint32_t nrelocs;
} ld_const;

typedef struct ld_global { /* a module-scope OpVariable */
  uint32_t id;
  uint32_t type;    /* the variable's pointer type id */
  uint32_t storage; /* SpvStorageClass */
  uint32_t init;    /* initializer: a constant id or a module-scope variable id (its address), 0 when none */
  uint32_t builtin; /* SpvBuiltIn when decorated BuiltIn, else LD_NONE */
  uint32_t size;    /* bytes of the pointee */
  uint32_t align;
  bool is_const; /* decorated Constant or in UniformConstant storage */
} ld_global;

/* One pre-decoded instruction inside a function body. Operand words are the raw words that follow
 * the result type and result id (ids or literals as the grammar says); ops points into module-owned
 * storage. OpLine/OpNoLine are folded into the line fields; OpFunction*, OpLabel are structure. */
typedef struct ld_insn {
  uint16_t opcode; /* SpvOp */
  uint16_t nops;   /* operand words in ops */
  uint32_t type;   /* result type id, 0 if none */
  uint32_t result; /* result id, 0 if none */
  const uint32_t *ops;
  uint32_t file; /* OpString id of the source file from OpLine, 0 when unknown */
  uint32_t line, column;
  uint32_t word_offset; /* word index of the instruction in the binary, for messages */
} ld_insn;

typedef struct ld_block {
  uint32_t label; /* the OpLabel id */
  uint32_t first; /* index of its first instruction in ld_function.insns (OpPhi first) */
  uint32_t count; /* instructions in the block, the terminator last */
} ld_block;

typedef struct ld_function {
  uint32_t id;
  uint32_t type;     /* OpTypeFunction id */
  uint32_t ret_type; /* return type id */
  uint32_t control;  /* FunctionControl mask */
  uint32_t nparams;
  uint32_t *params; /* OpFunctionParameter result ids */
  ld_insn *insns;   /* every instruction of the body, blocks contiguous, in module order */
  uint32_t ninsns;
  ld_block *blocks; /* in module order; blocks[0] is the entry block */
  uint32_t nblocks;
  bool is_import;     /* declaration only (LinkageAttributes Import): no body */
  uint32_t reg_bytes; /* per-lane bytes of register space for its parameters and results */
} ld_function;

typedef struct ld_decoration {
  uint32_t target;     /* decorated id */
  uint32_t member;     /* member index for OpMemberDecorate, LD_NONE otherwise */
  uint32_t decoration; /* SpvDecoration */
  uint32_t nargs;
  const uint32_t *args; /* literal/id operands after the decoration (strings stay as words) */
} ld_decoration;

typedef struct ld_entry {
  uint32_t func;  /* function id */
  uint32_t model; /* SpvExecutionModel (spvi runs Kernel only) */
  const char *name;
  uint32_t ninterface;
  const uint32_t *interface;
  uint32_t reqd_local[3];    /* LocalSize execution mode, zero when absent */
  uint32_t local_hint[3];    /* LocalSizeHint, zero when absent */
  uint32_t vec_type_hint;    /* VecTypeHint literal, 0 when absent */
  bool contraction_off;      /* ContractionOff execution mode */
  uint32_t subgroup_size;    /* SubgroupSize execution mode (reqd_sub_group_size), 0 when absent */
  uint32_t subgroups_per_wg; /* SubgroupsPerWorkgroup[Id] execution mode, 0 when absent */
} ld_entry;

typedef enum ld_id_kind {
  LD_ID_NONE = 0,
  LD_ID_TYPE,
  LD_ID_CONST,
  LD_ID_GLOBAL,
  LD_ID_FUNCTION,
  LD_ID_PARAM,
  LD_ID_VALUE,
  LD_ID_LABEL,
  LD_ID_EXTINST_SET,
  LD_ID_STRING,
  LD_ID_DEBUG /* DEBUG: a module-level DebugInfo result */
} ld_id_kind;

typedef enum ld_extset { LD_EXT_OTHER = 0, LD_EXT_OPENCL_STD, LD_EXT_DEBUGINFO, LD_EXT_NONSEMANTIC } ld_extset;

typedef struct ld_id {
  ld_id_kind kind;
  uint32_t type;       /* type id of CONST, GLOBAL (pointer type), PARAM, VALUE; 0 otherwise */
  uint32_t index;      /* TYPE: into types; CONST: consts; GLOBAL: globals; FUNCTION: funcs;
                         PARAM/VALUE: function index; LABEL: block index; EXTINST_SET: ld_extset */
  uint32_t insn;       /* VALUE: index of the defining instruction in its function's insns */
  uint32_t reg;        /* PARAM/VALUE: per-lane byte offset in its function's register space (8-aligned) */
  const char *name;    /* OpName, or NULL. STRING: the string */
  uint32_t first_deco; /* index of its first decoration in ld_module.decos + 1, 0 when none */
} ld_id;

typedef struct ld_module {
  const char *path; /* file name used in messages */
  uint32_t version; /* 0x00010400 for SPIR-V 1.4 */
  uint32_t generator;
  uint32_t bound;         /* ids are 1 .. bound-1 */
  uint32_t addressing;    /* SpvAddressingModel */
  uint32_t pointer_bytes; /* 4 (Physical32) or 8 (Physical64) */
  uint32_t memory_model;

  ld_id *ids; /* bound entries */
  ld_type *types;
  uint32_t ntypes;
  ld_const *consts;
  uint32_t nconsts;
  ld_global *globals;
  uint32_t nglobals;
  ld_function *funcs;
  uint32_t nfuncs;
  ld_entry *entries;
  uint32_t nentries;
  ld_decoration *decos;
  uint32_t ndecos; /* sorted by target, then member */
  uint32_t *caps;
  uint32_t ncaps; /* declared SpvCapability values */
  const char **extensions;
  uint32_t nextensions;
  ld_insn *debug_insns;
  uint32_t ndebug_insns; /* module-level OpExtInst of OpenCL.DebugInfo.100 */
  uint32_t source_language, source_version;
  const uint32_t *words; /* the whole module in host byte order (disassembly for the debugger) */
  uint32_t nwords;

  void *arena; /* owner of every allocation above (ld_free releases it) */
} ld_module;

/* A specialization constant's value given at load time (OpenCL clSetProgramSpecializationConstant):
 * the text is read according to the constant's type (bool: true/false/1/0; integers: decimal or
 * 0x hex, in range for the width; floats: decimal or hex-float, exactly representable for half). */
typedef struct ld_spec {
  uint32_t id; /* SpecId */
  const char *text;
  const void *bytes; /* when not NULL: the value's bits, `size` bytes (text unused) */
  size_t size;
} ld_spec;

/* Loader options and result. */
typedef struct ld_options {
  bool strict;                                   /* validation failure is an error */
  void (*warn)(void *user, const char *message); /* validator messages when not strict */
  void (*note)(void *user, const char *message); /* remarks that are not defects (may be NULL) */
  void *user;
  const ld_spec *specs; /* specialization constant values; every SpecId must exist */
  uint32_t nspecs;
  /* Work to overlap with validation (may be NULL): called once, on the calling thread, when the
   * module is built and has passed the loader's own checks, while the SPIRV-Tools validator may
   * still be running on its threads (ld_validate.c). ld_load still fails afterwards when the
   * validator's verdict is an error (strict); the caller then discards what it computed. */
  void (*meanwhile)(const ld_module *m, void *user);
  void *meanwhile_user;
} ld_options;

/* Load a module from words (host byte order fixed up by the loader: both endiannesses accepted).
 * On failure returns NULL and writes one message naming `path` and the word offset to `err`. */
/* The largest module spvi loads: 1 GiB, far above real ones (the largest of the corpus is a few MB),
 * so that a hostile or endless input (a pipe, /dev/zero) cannot take the machine's memory. */
#define LD_MAX_MODULE_BYTES ((size_t)1 << 30)

ld_module *ld_load(const void *bytes, size_t nbytes, const char *path, const ld_options *opt, char *err, size_t errlen);
void ld_free(ld_module *m);
/* The SPIRV-Tools target environment (an spv_target_env) for a module's SPIR-V version word:
 * SPV_ENV_UNIVERSAL_1_x (ld_validate.c). */
int ld_target_env(uint32_t version);

/* Lookups. */
static inline const ld_type *ld_type_of(const ld_module *m, uint32_t type_id) {
  return (type_id < m->bound && m->ids[type_id].kind == LD_ID_TYPE) ? &m->types[m->ids[type_id].index] : NULL;
}
/* First decoration `deco` on `id` (member LD_NONE) or NULL. */
const ld_decoration *ld_find_decoration(const ld_module *m, uint32_t id, uint32_t deco);
/* Name of an id for messages: OpName or "%<id>". Returns buf. */
const char *ld_id_name(const ld_module *m, uint32_t id, char *buf, size_t len);
/* The source declaration of variable `var` (a module-scope or function OpVariable, or a value a
 * DebugValue gives to a variable) from its OpenCL.DebugInfo.100 DebugGlobalVariable /
 * DebugLocalVariable: name, file (NULL when unknown) and line (0 when unknown); a value several
 * variables take is named by the one of function index `func` (LD_NONE: none is preferred). False,
 * with *name NULL, when the module has no debug information for it or it is ambiguous. */
bool ld_var_decl(const ld_module *m, uint32_t var, uint32_t func, const char **name, const char **file, uint32_t *line);
/* Parameter `index` (from 0) of function index `func` in the debug information: the name of its
 * OpenCL.DebugInfo.100 DebugLocalVariable (the one whose ArgNumber is index + 1 in the function's
 * DebugFunction) and its type's OpenCL C spelling in type (cap bytes; "" when it has none: a
 * struct, an array). False, with *name NULL, when the module has no such variable. */
bool ld_param_decl(const ld_module *m, uint32_t func, uint32_t index, const char **name, char *type, size_t cap);

#endif
