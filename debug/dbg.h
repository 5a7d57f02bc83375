/*
 * dbg.h — the debugger (`spvi debug`, the spvi_debug_* API in spvi.h), shared by its files, each
 * calling only the ones listed before it:
 *   dbg_util.c     text buffers, scratch memory and the session's output;
 *   dbg_sym.c      symbols: types, functions, variables and scopes from OpenCL.DebugInfo.100 and
 *                  OpName, source lines and files, the module's disassembly;
 *   dbg_view.c     the paused launch as the user sees it: work-items, frames, memory, names of
 *                  allocations and pointers;
 *   dbg_expr.c     expressions: parsing, evaluation against a work-item's registers and memory,
 *                  printing values with their types;
 *   dbg_session.c  the session: work-groups and work-items run one at a time, stops (breakpoints,
 *                  steps, watchpoints, faults), focus, frames and displays printed;
 *   dbg_cmd.c      the commands (gdb's names and abbreviations), one table;
 *   dbg_api.c      the spvi_debug_* entry points.
 *
 * The debugger stands on interp/ through ex_inspect.h alone (a launch paused between instructions)
 * and reads the loader's IR (ld_ir.h) for symbols. Prefix dbg_. Everything runs on the thread that
 * calls spvi_debug_command; a work-item is numbered by its local linear id in the current group.
 *
 * Out of memory never ends the process: a session that cannot be built is not returned, an
 * expression that cannot be evaluated says so, and output or symbols lost on the way set the
 * session's `oom`, reported once after the command.
 */
#ifndef DBG_H
#define DBG_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ex_inspect.h"
#include "ld_ir.h"
#include "spvi.h"

/* ---- text buffers and scratch memory (dbg_util.c) --------------------------------------------- */

typedef struct dbg_buf {
  char *s;
  size_t len, cap;
  bool oom; /* some text was lost: no memory to hold it */
} dbg_buf;

void dbg_bprintf(dbg_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dbg_buf_free(dbg_buf *b);

/* Allocations that live until dbg_arena_free (one command's values). */
typedef struct dbg_arena {
  struct dbg_blk *head;
} dbg_arena;
void *dbg_alloc(dbg_arena *a, size_t n); /* zeroed; NULL when out of memory */
void dbg_arena_free(dbg_arena *a);
/* A copy of s (of its first n bytes), NULL when out of memory. */
char *dbg_strndup(const char *s, size_t n);

/* ---- types ------------------------------------------------------------------------------------ */

typedef enum dbg_kind {
  DK_VOID,
  DK_BOOL,
  DK_INT,
  DK_FLOAT,
  DK_VECTOR,
  DK_ARRAY,
  DK_STRUCT,
  DK_POINTER,
  DK_OPAQUE
} dbg_kind;

/* A type as the debugger shows it: from OpenCL.DebugInfo.100 when the module has it (source names,
 * signedness, typedefs, member names), from the SPIR-V type otherwise. Values are kept in memory
 * layout (a 3-component vector has 4 slots). */
typedef struct dbg_type dbg_type;
struct dbg_type {
  dbg_kind kind;
  uint32_t bits;            /* BOOL, INT, FLOAT */
  bool is_signed;           /* INT */
  uint32_t count;           /* VECTOR components, ARRAY elements (0: runtime array), STRUCT members */
  const dbg_type *elem;     /* VECTOR/ARRAY element; POINTER pointee (NULL: void) */
  int space;                /* POINTER: an SPVI_AS_* value (SPVI_AS_GENERIC included) */
  const char *name;         /* a typedef's or struct's name, or NULL: spelled from the structure */
  const char **mnames;      /* STRUCT member names */
  const dbg_type **members; /* STRUCT member types */
  uint64_t *offsets;        /* STRUCT member byte offsets */
  uint64_t size;            /* bytes in memory */
  dbg_type *next;           /* every type of a session, for freeing */
};

/* ---- symbols (dbg_sym.c) ---------------------------------------------------------------------- */

/* Where a DebugInfo variable lives from some instruction on: DebugDeclare (memory at the pointer
 * value `id`) or DebugValue (the value of `id` itself). */
typedef struct dbg_loc {
  uint32_t insn; /* ld instruction index in the variable's function */
  uint32_t id;
  bool declare;
} dbg_loc;

typedef struct dbg_var {
  const char *name;
  const dbg_type *type; /* from DebugInfo; NULL: the SPIR-V type of the value */
  uint32_t scope;       /* id of its DebugLexicalBlock/DebugFunction (DebugInfo), 0 otherwise */
  uint32_t line;
  uint32_t argno;     /* 1.. for a parameter, 0 for a local */
  uint32_t func;      /* ld function index; LD_NONE for program-scope variables */
  uint32_t global_id; /* program scope: the OpVariable */
  dbg_loc *locs;      /* in instruction order; id 0: a DebugValue saying the value is gone */
  uint32_t nlocs, caplocs;
  int32_t *entry; /* DebugValue'd variables: per block of func, the index of the loc that reaches
                     its start on every path, -1 when none does (dbg_var_loc); NULL otherwise */
} dbg_var;

typedef struct dbg_func {
  const char *name;      /* DebugFunction name, OpName, the entry point's name, or NULL */
  bool is_entry_wrapper; /* named only after its OpEntryPoint (llvm-spirv's kernel wrapper) */
  uint32_t scope;        /* its DebugFunction id, 0 when none */
  uint32_t decl_line;    /* DebugFunction line, 0 when none */
  uint32_t body_start;   /* prepared instruction index of the first instruction past the prologue */
  bool has_lines;
} dbg_func;

typedef struct dbg_src {
  uint32_t file; /* OpString id */
  char *text;    /* the file's contents, NULL when it cannot be read */
  char **lines;  /* lines[0] is line 1 (pointers into text) */
  uint32_t nlines;
} dbg_src;

typedef struct dbg_syms {
  const ld_module *m;
  const ex_insp *x;                       /* the prepared code (positions of the launch's functions) */
  dbg_type *types;                        /* every type (list through ->next) */
  const dbg_type **spv_cache, **di_cache; /* by id */
  dbg_func *funcs;                        /* per ld function */
  dbg_var *vars;
  uint32_t nvars, capvars;
  bool any_lines;     /* some instruction has OpLine information */
  bool has_debuginfo; /* the module imports OpenCL.DebugInfo.100 and declares variables */
  bool oom;           /* something could not be built for want of memory */
  dbg_src *srcs;
  uint32_t nsrcs;
  /* disassembly (spvBinaryToText), one line per instruction; built on first use */
  bool dis_tried;
  char *dis_text;
  char **dis_lines;
  uint32_t *dis_at; /* word offset of each line's instruction */
  uint32_t ndis;
} dbg_syms;

/* Build the symbols of the module x runs; false when out of memory (then dbg_syms_free). */
bool dbg_syms_build(dbg_syms *y, const ex_insp *x);
/* The same for module m; x NULL (no launch): the types and variables only, no code positions
 * (body_start 0; dbg_insn_at must not be used). */
bool dbg_syms_build_module(dbg_syms *y, const ld_module *m, const ex_insp *x);
void dbg_syms_free(dbg_syms *y);

/* The type of SPIR-V type id `type_id` (void for anything else). Built with the symbols: never NULL. */
const dbg_type *dbg_spv_type(dbg_syms *y, uint32_t type_id);
/* The scalar types of OpenCL C (void, bool, 8..64-bit integers, half, float, double) exist from
 * dbg_syms_build on: never NULL for them. Vector and pointer types are made on demand: NULL when
 * out of memory (or elem is NULL). */
const dbg_type *dbg_scalar_type(dbg_syms *y, dbg_kind kind, uint32_t bits, bool is_signed);
const dbg_type *dbg_pointer_type(dbg_syms *y, const dbg_type *to, int space);
const dbg_type *dbg_vector_type(dbg_syms *y, const dbg_type *elem, uint32_t n);
const dbg_type *dbg_array_type(dbg_syms *y, const dbg_type *elem, uint32_t n);
/* "global", "local", ... for an SPVI_AS_* value. */
const char *dbg_space_name(int space);
/* "int", "global float *", "float4", "int[2][3]", "S". */
void dbg_type_name(const dbg_type *t, char *buf, size_t cap);
/* The lengths of array type t and of the arrays it is made of, as C spells them ("[2][3]"), in buf;
 * returns their element type (t itself when it is no array). */
const dbg_type *dbg_array_dims(const dbg_type *t, char *buf, size_t cap);

/* The ld instruction prepared instruction idx of function fn comes from (the last one past the end). */
const ld_insn *dbg_insn_at(const dbg_syms *y, uint32_t fn, uint32_t idx);
/* Name of ld function fi for frames and messages (never NULL: "%12" when it has none). */
const char *dbg_func_name(const dbg_syms *y, uint32_t fi, char *buf, size_t cap);
/* An OpString's text, basename only when `base`. */
const char *dbg_file_name(const dbg_syms *y, uint32_t file, bool base);
/* Whether OpString `file` is the file the user wrote (full path, path suffix or basename). */
bool dbg_file_matches(const dbg_syms *y, uint32_t file, const char *spec);
/* A source file's lines (read once); NULL when it cannot be read. */
const dbg_src *dbg_source(dbg_syms *y, uint32_t file);
/* The variable `name` as visible at instruction `insn` of function fi (innermost scope first), or a
 * program-scope one; NULL when none. */
const dbg_var *dbg_lookup_var(const dbg_syms *y, uint32_t fi, uint32_t insn, const char *name);
/* Variables of function fi visible at insn, innermost scope first: parameters (args) or locals. */
uint32_t dbg_visible_vars(const dbg_syms *y, uint32_t fi, uint32_t insn, bool args, const dbg_var **out, uint32_t cap);
/* The location of v at instruction insn of its function: false when it has none there (optimized
 * out: no DebugValue reaches insn on every path, or the one that does says the value is gone). */
bool dbg_var_loc(const dbg_syms *y, const dbg_var *v, uint32_t insn, dbg_loc *out);
/* The disassembly line of the instruction at word offset `at`, -1 when unknown. */
int dbg_dis_line(dbg_syms *y, uint32_t at);
/* The id the disassembly spells %name (spvBinaryToText's friendly names), 0 when none. */
uint32_t dbg_id_by_name(dbg_syms *y, const char *name);
/* The disassembly text of an instruction ("%97 = OpFunctionCall %uint %helper %94 %96"). */
void dbg_insn_text(dbg_syms *y, const ld_insn *in, char *buf, size_t cap);

/* ---- the session ------------------------------------------------------------------------------ */

enum dbg_mode { DM_NONE, DM_START, DM_CONTINUE, DM_STEP, DM_NEXT, DM_STEPI, DM_NEXTI, DM_FINISH, DM_GROUP };
enum dbg_reason {
  DR_NONE,
  DR_BREAK,
  DR_WATCH,
  DR_STEP,
  DR_FAULT,
  DR_ITEM_DONE,
  DR_KERNEL_DONE,
  DR_GROUP_DONE,
  DR_COND_ERROR,
  DR_INTERRUPT,
  DR_REPORT /* a check's report was found (spvi debug --check, and the always-on reports) */
};
enum dbg_state { DS_STOPPED, DS_FINISHED, DS_FAULTED };

typedef struct dbg_expr dbg_expr;

typedef struct dbg_bp {
  int id;
  bool temp, enabled, is_watch;
  char *text; /* the location or the watched expression, as typed */
  char *cond_text;
  dbg_expr *cond;
  uint64_t hits;
  /* breakpoint */
  uint32_t nlocs;
  struct dbg_bploc {
    uint32_t fn, idx;
  } * locs;
  /* watchpoint: a location in kernel memory, or an expression of one work-item */
  dbg_expr *expr;
  bool in_memory;
  uint32_t alloc; /* the memory's allocation and range */
  uint64_t off, size;
  int bound_warp; /* the work-item it belongs to, -1 when any */
  uint64_t bound_group;
  const dbg_type *type;
  uint8_t *old; /* the last value seen (type->size bytes) */
  bool old_valid;
} dbg_bp;

typedef struct dbg_display {
  int id;
  char *text;
  dbg_expr *e;
} dbg_display;

struct spvi_debug {
  ex_insp *x;
  const ex_insp_range *nd; /* the launch's NDRange and work-group range */
  dbg_syms sym;
  void (*out)(void *user, const char *text, size_t len);
  void *user;
  /* work-groups: the one running, its work-items */
  uint64_t group;
  unsigned nw;
  unsigned focus, frame; /* focused work-item and selected frame (0: innermost) */
  int yielded;           /* the work-item that last stopped still runnable (it yielded so that
                            the others make progress, interp/ex_sched.c), or -1 */
  int state;             /* dbg_state */
  spvi_fault fault;
  /* the request being run */
  int mode;
  bool quiet; /* breakpoints and watchpoints off (focus changes, the first stop) */
  int step_warp;
  uint32_t step_depth, step_line, step_file, step_fn;
  /* why it stopped */
  int reason;
  int stop_bp;
  dbg_buf stop_text; /* watchpoint old/new values, condition errors */
  /* breakpoints and watchpoints (one numbering), displays */
  dbg_bp *bps;
  unsigned nbps, capbps;
  int next_bp;
  unsigned nwatch;
  uint8_t **bp_map; /* per function: 1 per prepared instruction with a breakpoint (rows
                               made with the session, so changing breakpoints allocates nothing) */
  dbg_display *displays;
  unsigned ndisplays, capdisplays;
  int next_display;
  /* `list` continues where it stopped */
  uint32_t list_file, list_next;
  int list_dis_next;
  bool list_valid;
  char prompt[256];
  bool quit;
  bool oom;                          /* some output or symbol was lost for want of memory during the command */
  volatile sig_atomic_t interrupted; /* spvi_debug_interrupt (Ctrl-C) */
};
typedef struct spvi_debug dbg_session;

/* Output of a command (dbg_util.c). */
void dbg_printf(dbg_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Output the buffer's text (and note lost text) and free it. */
void dbg_put_buf(dbg_session *s, dbg_buf *b);

/* ---- the paused launch (dbg_view.c) ---------------------------------------------------------- */

/* Frames: the number in work-item w, and frame k's function and prepared instruction (false: not
 * running). */
unsigned dbg_frame_count(dbg_session *s, unsigned w);
bool dbg_frame_pos(dbg_session *s, unsigned w, unsigned k, uint32_t *fn, uint32_t *idx);
/* Host bytes of n bytes at kernel pointer p as work-item w sees them, or NULL with the reason. */
uint8_t *dbg_mem(dbg_session *s, unsigned w, uint64_t p, uint64_t n, char *why, size_t cap);
/* Print `before`, "work-item global (0,0,0) local (0,0,0) group (0,0,0)" for work-item w, `after`. */
void dbg_print_item(dbg_session *s, const char *before, unsigned w, const char *after);
/* The linear id of work-group g. */
uint64_t dbg_group_linear(const dbg_session *s, const uint64_t g[3]);
/* Describe a kernel pointer: "out+8", "tmp+0", "null". */
void dbg_describe_ptr(dbg_session *s, uint64_t p, char *buf, size_t cap);
/* The address space of the memory kernel pointer p points into (SPVI_AS_GENERIC when none). */
int dbg_ptr_space(const dbg_session *s, uint64_t p);
/* Kernel argument `name` (its source name or argN) when it is a global or constant buffer: its
 * type and the pointer to the buffer's start. Buffers outlive the run: readable after the kernel. */
bool dbg_arg_buffer(dbg_session *s, const char *name, const dbg_type **type, uint64_t *ptr);

/* ---- values and expressions (dbg_expr.c) ------------------------------------------------------ */

typedef struct dbg_value {
  const dbg_type *t;
  uint8_t *bytes; /* t->size bytes in memory layout (arena memory) */
  bool lval;      /* lives in kernel memory at `addr` (a kernel pointer) */
  uint64_t addr;
} dbg_value;

/* Parse an expression (C syntax with OpenCL vectors, %ID for SPIR-V ids); NULL with a message. */
dbg_expr *dbg_parse(const char *text, char *err, size_t cap);
void dbg_expr_free(dbg_expr *e);

/* Where an expression is evaluated: a work-item of the current group and one of its frames. */
typedef struct dbg_ctx {
  dbg_session *s;
  unsigned warp;
  unsigned frame;
  dbg_arena *arena;
  char *err;
  size_t errcap;
} dbg_ctx;

bool dbg_eval(dbg_ctx *c, const dbg_expr *e, dbg_value *out);
/* A value as text: "(int) 5", "(float4) (1, 2, 3, 4)"; with_type false leaves the "(type) " out. */
void dbg_format_value(dbg_session *s, const dbg_value *v, bool with_type, char fmt, dbg_buf *out);
/* Whether the value is nonzero (a condition). */
bool dbg_truth(const dbg_value *v);
/* The value of SPIR-V id `id` in the context's work-item. */
bool dbg_id_value(dbg_ctx *c, uint32_t id, dbg_value *out);
/* The value of a variable at the context's frame. */
bool dbg_var_value(dbg_ctx *c, const dbg_var *v, dbg_value *out);

/* ---- running and showing (dbg_session.c) ------------------------------------------------------ */

/* A session on the launch, stopped at the first work-item's first source line; NULL with err. */
dbg_session *dbg_session_new(spvi_launch *l, const spvi_run_options *opts, void (*out)(void *, const char *, size_t),
                             void *user, spvi_error *err);
void dbg_session_free(dbg_session *s);
/* Execution: run the request (mode, from the focused work-item) until something stops it, then
 * print why and where. */
void dbg_resume(dbg_session *s, int mode);
/* Focus another work-item of the current group (starting it up to its first line) or, with
 * group > current, run the groups before it to completion first. False with a message. */
bool dbg_focus(dbg_session *s, uint64_t group, unsigned warp);
/* Print the frame line ("helper (x=1, y=2) at k.cl:4") and the source line of frame k of work-item w. */
void dbg_print_frame(dbg_session *s, unsigned w, unsigned k, bool with_source, bool numbered);
/* Run every display. */
void dbg_do_displays(dbg_session *s);
/* Delete breakpoint or watchpoint i (an index into bps). */
void dbg_delete_bp(dbg_session *s, unsigned i);
/* Breakpoints: rebuild the per-instruction map after a change. */
void dbg_rebuild_bp_map(dbg_session *s);
/* Prompt text for the current state. */
void dbg_update_prompt(dbg_session *s);

/* ---- commands (dbg_cmd.c) --------------------------------------------------------------------- */

/* Run one command line. */
void dbg_command(dbg_session *s, const char *line);

#endif
