/*
 * ex.h — the executor's data structures: prepared code, memory model, warps and launches.
 *
 * Prepared code. Every function of the IR is translated once (ex_prepare) into an array of
 * fixed-size ex_insn whose operands are register offsets; a block is a range of that array. The
 * handler (ex_insn.op) is chosen by opcode AND type (EX_IADD_I32, EX_FADD_F64 ...), so no handler
 * looks at a type at run time. OpPhi disappears: each CFG edge carries a list of moves that the
 * branch performs for the lanes that take it.
 *
 * Registers. OpenCL forbids recursion, so every function's registers can live at a fixed place: a
 * warp's register file is [function 0][function 1]...[constants][phi scratch] and a value at per-lane offset R
 * with size S keeps lane l's copy at regs + R*W + l*S (W = warp width). One value's lanes are
 * contiguous, so a uniform operation over a full warp is a straight loop. Constants are copied into
 * every lane once, when the warp is created.
 *
 * Pointers. A pointer value is (allocation id << shift) | (offset + bias): the id indexes the
 * launch's allocation table (which says address space, size, where its bytes are, and what it is for
 * reports), so every access is bounds-checked without hashing. Physical64 uses shift 40 and bias
 * 2^39 (offsets within ±512 GiB of the allocation's start keep their id, so p[-1] is reported as
 * "offset -4 of argument 0" rather than as some other allocation). Physical32 picks the smallest id
 * field that holds the launch's allocations. Id 0 is the null pointer. Private and local
 * allocations are relative: the same id means "this variable" in whichever work-item or group
 * dereferences it, which is what OpenCL's address spaces mean. A pointer's integer value
 * (OpConvertPtrToU, OpPtrDiff) differs from the encoding in Physical64: each allocation's offsets
 * are moved by a distinct multiple of 4 KiB (ex_ptr_to_int, ex_internal.h), so distinct
 * allocations differ in their low 32 bits, as distinct addresses do on a device.
 * Shared virtual memory is the exception: an SVM pointer is the host address itself, mapped where
 * its id field is above every launch's allocation ids (ex_svm.c), so ex_mem's id check sends it to
 * an out-of-line lookup and the fast path is unchanged.
 */
#ifndef EX_H
#define EX_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ld_ir.h"
#include "bi.h"
#include "bi_image.h"
#include "spvi.h"

#define EX_MAX_WARP 64 /* lane masks are uint64_t */
#define EX_DEFAULT_WARP 32

/* ---- handlers ----------------------------------------------------------------------------- */
#include "ex_ops.h"

/* What d, a, b, c, n and flags mean for each handler: its shape and semantics in ex_ops.h. */
typedef struct ex_insn {
  uint16_t op;      /* ex_op */
  uint8_t n;        /* components (elementwise ops), or a small op-specific count */
  uint8_t flags;    /* op-specific */
  uint32_t d;       /* result register (per-lane offset), or op-specific */
  uint32_t a, b, c; /* operand registers, block indexes, or indexes into ex_func.aux */
  uint32_t src;     /* index of the ld_insn it came from, in its ld_function */
} ex_insn;

typedef struct ex_block {
  uint32_t first, count; /* range in ex_func.code; the terminator is last */
  uint32_t rpo;          /* reverse post-order index; reconvergence runs the smallest first */
  uint32_t label;        /* SPIR-V id */
  uint32_t spv_count;    /* SPIR-V instructions in the block (statistics: counted per lane) */
  bool loop_header;      /* the target of a loop's back edge (lane recycling, ex_exec.c) */
  uint32_t loop_body;    /* loop headers: SPIR-V instructions in the loop (all its blocks once), */
  uint32_t loop_rest;    /* and in the rest of the function (lane recycling's cost estimates) */
} ex_block;

typedef struct ex_func {
  const ld_function *ld;
  uint32_t index; /* in ex_program.funcs */
  ex_insn *code;
  uint32_t ncode;
  ex_block *blocks;
  uint32_t nblocks;
  uint32_t *aux;
  uint32_t naux;     /* variable-length operand lists */
  uint32_t reg_base; /* per-lane offset of this function's registers in the register file */
  uint32_t nparams;
  uint32_t *param_reg; /* absolute per-lane register offsets of the parameters */
  uint32_t *param_size;
  uint32_t *param_byval; /* per parameter: static private allocation holding a ByVal aggregate
                             (kernel entry points only), 0 otherwise */
  uint32_t ret_size;
  bool wrapper;    /* one block calling another function and returning, nothing else
                             (llvm-spirv's kernel entry points); its callee takes no ByVal copy */
  bool group_sync; /* it or a function it calls synchronises work-items: a barrier, a
                             work-group or sub-group operation, an async copy or wait, a named
                             barrier (without, its work-items are independent of each other) */
} ex_func;

/* Address spaces of allocations (values of ex_alloc.space). */
enum { EX_AS_PRIVATE = 0, EX_AS_GLOBAL = 1, EX_AS_CONSTANT = 2, EX_AS_LOCAL = 3 };

typedef struct ex_alloc {
  uint8_t space; /* EX_AS_* */
  bool read_only;
  bool locked_atomics; /* atomics on it use locked instructions: global memory of a run on
                             several threads, and a memory object's bytes, which launches running
                             at the same time may share (ex_run sets it) */
  uint64_t size;
  uint8_t *base;         /* GLOBAL/CONSTANT: host memory */
  uint64_t offset;       /* PRIVATE: offset in a lane's private arena; LOCAL: in the group's arena */
  int arg_index;         /* kernel parameter it came from, -1 otherwise */
  uint32_t var_id;       /* SPIR-V id of the variable it came from, 0 otherwise */
  const bi_image *image; /* an image argument's pixels (base) and format; NULL for other memory.
                             An image value in a register is the pointer to this allocation. */
} ex_alloc;

/* A module-scope variable's allocation (global and constant ones live in the ex_pstate). */
typedef struct ex_global_var {
  uint32_t id;        /* SPIR-V id */
  uint32_t alloc;     /* allocation id (fixed at prepare: 1 + index) */
  uint32_t const_reg; /* where its address lives in the constant area */
  uint32_t builtin;   /* SpvBuiltIn for Input built-ins, LD_NONE otherwise */
} ex_global_var;

/* A prepared module: loader IR plus executable code; shared read-only by all launches. */
typedef struct ex_program {
  const ld_module *ld;
  ex_func *funcs;
  uint32_t nfuncs;
  uint32_t ptr_bytes;
  /* static allocations: ids 1..nstatic are module variables and function variables */
  ex_alloc *static_allocs;
  uint32_t nstatic;
  uint64_t private_size;         /* bytes of one lane's private arena (function variables + built-ins) */
  uint64_t private_builtins_end; /* the arena's first bytes, [0, this), hold only built-in
                                     variables (0 when other module variables are private) */
  uint64_t local_static;         /* bytes of Workgroup module variables in a group's arena */
  /* constants area: per-lane offset and bytes, its contents for one lane (indexed from const_base),
   * and the (register, size) slots to replicate into every lane */
  uint32_t const_base, const_bytes;
  uint8_t *const_init;
  uint32_t *cslots;
  uint32_t ncslots;
  /* resolved OpenCL.std builtins, indexed from EXTINST instructions */
  bi_resolved *bis;
  uint32_t nbis;
  bi_type *bi_types;
  uint32_t nbi_types; /* operand types of EXTINST instructions */
  /* allocation id of each module-scope variable, by index in ld->globals */
  uint32_t *global_alloc;
  /* pointer-valued constants patched per launch: the register at addr_reg[i] holds a byte offset
   * to which the address of allocation addr_alloc[i] is added */
  uint32_t *addr_reg;
  uint32_t *addr_alloc;
  uint32_t naddr;
  uint32_t reg_bytes;       /* per-lane bytes of the whole register file */
  uint32_t max_depth;       /* deepest call chain from any kernel, in frames */
  bool uses_printf;         /* some function calls OpenCL.std printf */
  bool uses_subgroups;      /* some function has a sub-group operation: warps then hold whole
                             sub-groups (launch warp width a multiple of the sub-group size) */
  bool uses_subgroup_sync;  /* a sub-group barrier or a named barrier: synchronisation the race
                             checker does not model (spvi_run refuses --check races then) */
  bool uses_atomics;        /* some function has an atomic instruction: with sub-group operations,
                             one warp per sub-group (forward progress between sub-groups, ex_api.c) */
  uint32_t nnamed_barriers; /* OpNamedBarrierInitialize instructions; when non-zero, one warp per
                                sub-group (the warp waits at OpMemoryNamedBarrier as a unit) */
  uint32_t scratch_reg;     /* per-lane scratch for parallel phi moves */
  /* built-in input variables: alloc id, SpvBuiltIn, element bytes (4/8), components */
  /* materialize: some instruction other than a whole OpLoad uses the variable (an access chain
   * into it, a pointer passed on), so its private memory must hold the values; otherwise every
   * OpLoad of it is an EX_BUILTIN instruction computing them in registers */
  struct ex_builtin_var {
    uint32_t alloc, builtin, elem_bytes, ncomp;
    bool materialize;
  } * builtins;
  uint32_t nbuiltins;
  /* per SPIR-V id (ld->bound entries): the absolute per-lane register offset of its value, LD_NONE
   * when it has none (types, labels, constants never used as operands); the debugger reads values
   * through it */
  uint32_t *id_reg;
} ex_program;

/* Build the program; on failure writes a message naming the function, instruction and source line,
 * or leaves err empty when it ran out of memory. */
ex_program *ex_prepare(const ld_module *m, char *err, size_t errlen);
void ex_program_free(ex_program *p);
/* Find the ex_func of a SPIR-V function id (NULL if absent). */
const ex_func *ex_find_func(const ex_program *p, uint32_t id);

/* ---- program state ------------------------------------------------------------------------- */
/* What a module keeps between launches (ex_globals.c): the bytes of its program-scope variables in
 * global and constant memory, and the pointer encoding of all its launches. */
typedef struct ex_pstate {
  const ex_program *prog;
  uint8_t **mem;  /* per static allocation id: host bytes of a GLOBAL/CONSTANT module
                             variable, NULL for the others */
  unsigned shift; /* pointer = (id << shift) | (offset + bias), see "Pointers" above */
  uint64_t off_mask, bias, ptr_mask;
  uint8_t *priv_init; /* the initial bytes [priv_lo, priv_lo + priv_len) of every work-item's
                               private arena: initialised private module variables, NULL if none */
  uint64_t priv_lo, priv_len;
  bool writable;     /* some variable is in global (writable) memory */
  _Atomic bool busy; /* a launch holds the state (only tracked when writable) */
} ex_pstate;

/* Allocate and initialise the variables; NULL with a message in err (or err empty: no memory). */
ex_pstate *ex_pstate_new(const ex_program *p, char *err, size_t errlen);
void ex_pstate_free(ex_pstate *ps);
/* A launch takes the state for its run; false while another launch holds it. */
bool ex_pstate_acquire(ex_pstate *ps);
void ex_pstate_release(ex_pstate *ps);

/* ---- launches ------------------------------------------------------------------------------ */
typedef struct ex_arg {
  bool set;
  uint8_t *bytes; /* by-value bytes or buffer contents */
  uint64_t size;
  bool is_local; /* size-only local allocation */
  bool is_image; /* an image: `bytes` holds its pixels, `image` describes them */
  bi_image image;
  uint8_t *written; /* after a run over a group range: 1 for every byte the run wrote */
  uint8_t *initial; /* after such a run: the contents before it (spvi_arg_initial), or NULL */
  spvi_mem *mem;    /* set from a memory object (spvi_set_arg_mem): `bytes` are the object's,
                             used in place, and the launch holds this reference instead of owning
                             them; NULL otherwise (also for a NULL buffer: bytes NULL, size 0) */
  bool is_svm;      /* an SVM pointer (spvi_set_arg_svm): the kernel receives svm_ptr itself */
  uint64_t svm_ptr;

  uint8_t *root; /* a memory object: the first byte of the buffer it is or is a view of; the
                    arguments with one root are one allocation (ex_sched.c shared_alloc) */
} ex_arg;

typedef struct ex_launch {
  const ex_program *prog;
  ex_pstate *pstate; /* the module's program state (program-scope variables) */
  uint32_t kernel;   /* index into ld->entries */
  const ex_func *entry;
  ex_arg *args;
  uint32_t nargs;
  unsigned dims;
  uint64_t global[3], local[3], offset[3];
  bool local_given;
  /* printf output, per work-item text in work-item order (spvi_run_options.on_printf) */
  void (*on_printf)(void *user, const char *text, size_t len);
  void *printf_user;
  bool ftz;                                       /* spvi_run_options.flush_denormals */
  unsigned subgroup_size;                         /* sub-group size S (1..64) chosen for the launch */
  unsigned threads;                               /* worker threads (>= 1) */
  void (*on_trace)(void *user, const char *line); /* spvi_run_options.on_trace (ex_trace.c) */
  void *trace_user;
  int trace_kind; /* 0 all work-items, 1 one global id, 2 one work-group */
  uint64_t trace_id[3];
  uint64_t group_begin, group_end; /* linear work-group ids to run, [begin, end); end 0: all */
  struct ex_pause *debug;          /* a debug session drives the run (ex_inspect.c): its pause client's
                             state (ex_pause.h); NULL for every other run */
  uint8_t *written_all;            /* the per-allocation mask table of the last run (owned) */
  unsigned checks;                 /* spvi_run_options.checks */
  uint64_t max_steps;              /* spvi_run_options.max_steps (never 0 here) */
  bool keep_going;                 /* spvi_run_options.keep_going */
  struct ex_reports *reports;      /* reports of the last run (owned; ex_check.h) */
  /* statistics of the last run */
  uint64_t instructions; /* SPIR-V instructions executed, summed over work-items */
  double exec_seconds;
  /* of the group range, the ids g with g % shard_count == shard_index; count 0: all */
  uint64_t shard_index, shard_count;
  /* progress of the run under way (spvi_launch_progress, read from other threads): groups
   * finished, and the groups it runs; each finished group (or packed batch) adds one relaxed
   * atomic increment, nothing else on the workers' path */
  _Atomic uint64_t groups_done, groups_total;
} ex_launch;

/* Work-groups in dimension d: the global size over the local size rounded up, without the
 * g + l - 1 that wraps for sizes near 2^64. */
static inline uint64_t ex_round_groups(const ex_launch *l, int d) {
  return l->global[d] / l->local[d] + (l->global[d] % l->local[d] != 0);
}
/* Work-groups in the launch's NDRange. */
uint64_t ex_group_count(const ex_launch *l);
/* Run the launch. Returns SPVI_OK, SPVI_FAULT (fault filled) or an error (err filled). */
spvi_status ex_run(ex_launch *l, unsigned warp_width, spvi_fault *fault, char *err, size_t errlen);

#endif
