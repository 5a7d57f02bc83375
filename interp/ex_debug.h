/*
 * ex_debug.h — the debugger's internals (`spvi debug`, the spvi_debug_* API), shared by
 *   ex_debug.c       the session: work-groups and work-items run one at a time, stops (breakpoints,
 *                    steps, watchpoints, faults), focus, the instruction hook and the public API;
 *   ex_debug_sym.c   symbols: types, functions, variables and scopes from OpenCL.DebugInfo.100 and
 *                    OpName, source lines and files, the module's disassembly;
 *   ex_debug_expr.c  expressions: parsing, evaluation against a work-item's registers and memory,
 *                    printing values with their types;
 *   ex_debug_cmd.c   the commands (gdb's names and abbreviations), one table.
 *
 * Prefix dbg_. Everything runs on the thread that calls spvi_debug_command; the kernel runs with
 * warp width 1, so a warp is one work-item and warp index = local linear id.
 */
#ifndef EX_DEBUG_H
#define EX_DEBUG_H

#include <signal.h>
#include <stdarg.h>

#include "ex_internal.h"
#include "spvi.h"

/* ---- text buffers and scratch memory -------------------------------------------------------- */

typedef struct dbg_buf {
  char *s;
  size_t len, cap;
} dbg_buf;

void dbg_bprintf(dbg_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dbg_bvprintf(dbg_buf *b, const char *fmt, va_list ap);
void dbg_buf_free(dbg_buf *b);

/* Allocations that live until dbg_arena_free (one command's values). */
typedef struct dbg_arena {
  struct dbg_blk *head;
} dbg_arena;
void *dbg_alloc(dbg_arena *a, size_t n);  /* zeroed; aborts when out of memory */
void dbg_arena_free(dbg_arena *a);

/* ---- types ------------------------------------------------------------------------------------ */

typedef enum dbg_kind {
  DK_VOID, DK_BOOL, DK_INT, DK_FLOAT, DK_VECTOR, DK_ARRAY, DK_STRUCT, DK_POINTER, DK_OPAQUE
} dbg_kind;

#define DBG_AS_GENERIC 4  /* dbg_type.space of a generic pointer (the EX_AS_* values otherwise) */

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
  int space;                /* POINTER: EX_AS_* or DBG_AS_GENERIC */
  const char *name;         /* a typedef's or struct's name, or NULL: spelled from the structure */
  const char **mnames;      /* STRUCT member names */
  const dbg_type **members; /* STRUCT member types */
  uint64_t *offsets;        /* STRUCT member byte offsets */
  uint64_t size;            /* bytes in memory */
  dbg_type *next;           /* every type of a session, for freeing */
};

/* ---- symbols ---------------------------------------------------------------------------------- */

/* Where a DebugInfo variable lives from some instruction on: DebugDeclare (memory at the pointer
 * value `id`) or DebugValue (the value of `id` itself). */
typedef struct dbg_loc {
  uint32_t insn;            /* ld instruction index in the variable's function */
  uint32_t id;
  bool declare;
} dbg_loc;

typedef struct dbg_var {
  const char *name;
  const dbg_type *type;     /* from DebugInfo; NULL: the SPIR-V type of the value */
  uint32_t scope;           /* id of its DebugLexicalBlock/DebugFunction (DebugInfo), 0 otherwise */
  uint32_t line;
  uint32_t argno;           /* 1.. for a parameter, 0 for a local */
  uint32_t func;            /* ld function index; LD_NONE for program-scope variables */
  uint32_t global_id;       /* program scope: the OpVariable */
  dbg_loc *locs;
  uint32_t nlocs, caplocs;
} dbg_var;

typedef struct dbg_func {
  const char *name;         /* DebugFunction name, OpName, the entry point's name, or NULL */
  bool is_entry_wrapper;    /* named only after its OpEntryPoint (llvm-spirv's kernel wrapper) */
  uint32_t scope;           /* its DebugFunction id, 0 when none */
  uint32_t decl_line;       /* DebugFunction line, 0 when none */
  uint32_t body_start;      /* ex code index of the first instruction past the prologue */
  bool has_lines;
} dbg_func;

typedef struct dbg_src {
  uint32_t file;            /* OpString id */
  char *text;               /* the file's contents, NULL when it cannot be read */
  char **lines;             /* lines[0] is line 1 (pointers into text) */
  uint32_t nlines;
} dbg_src;

typedef struct dbg_syms {
  const ld_module *m;
  const ex_program *p;
  dbg_type *types;          /* every type (list through ->next) */
  const dbg_type **spv_cache, **di_cache;  /* by id */
  dbg_func *funcs;          /* per ld function */
  dbg_var *vars;
  uint32_t nvars, capvars;
  bool any_lines;           /* some instruction has OpLine information */
  bool has_debuginfo;       /* the module imports OpenCL.DebugInfo.100 and declares variables */
  dbg_src *srcs;
  uint32_t nsrcs;
  /* disassembly (spvBinaryToText), one line per instruction; built on first use */
  bool dis_tried;
  char *dis_text;
  char **dis_lines;
  uint32_t *dis_at;         /* word offset of each line's instruction */
  uint32_t ndis;
} dbg_syms;

bool dbg_syms_build(dbg_syms *y, const ex_program *p);
void dbg_syms_free(dbg_syms *y);

const dbg_type *dbg_spv_type(dbg_syms *y, uint32_t type_id);
const dbg_type *dbg_scalar_type(dbg_syms *y, dbg_kind kind, uint32_t bits, bool is_signed);
const dbg_type *dbg_pointer_type(dbg_syms *y, const dbg_type *to, int space);
const dbg_type *dbg_vector_type(dbg_syms *y, const dbg_type *elem, uint32_t n);
/* "int", "global float *", "float4", "int[4]", "S". */
void dbg_type_name(const dbg_type *t, char *buf, size_t cap);

/* Name of ld function fi for frames and messages (never NULL: "%12" when it has none). */
const char *dbg_func_name(const dbg_syms *y, uint32_t fi, char *buf, size_t cap);
/* An OpString's text, basename only when `base`. */
const char *dbg_file_name(const dbg_syms *y, uint32_t file, bool base);
/* Whether OpString `file` is the file the user wrote (full path, path suffix or basename). */
bool dbg_file_matches(const dbg_syms *y, uint32_t file, const char *spec);
/* A source file's lines (read once); NULL when it cannot be read. */
const dbg_src *dbg_source(dbg_syms *y, uint32_t file);
/* The DebugInfo scope in effect at instruction `insn` of ld function fi (0 without DebugInfo). */
uint32_t dbg_scope_at(const dbg_syms *y, uint32_t fi, uint32_t insn);
/* The variable `name` as visible at instruction `insn` of function fi (innermost scope first), or a
 * program-scope one; NULL when none. */
const dbg_var *dbg_lookup_var(const dbg_syms *y, uint32_t fi, uint32_t insn, const char *name);
/* Variables of function fi visible at insn, innermost scope first: parameters (args) or locals. */
uint32_t dbg_visible_vars(const dbg_syms *y, uint32_t fi, uint32_t insn, bool args, const dbg_var **out,
                          uint32_t cap);
/* The location of v at instruction insn: false when it has none there (optimized out). */
bool dbg_var_loc(const dbg_var *v, uint32_t insn, dbg_loc *out);
/* The disassembly line of the instruction at word offset `at`, -1 when unknown. */
int dbg_dis_line(dbg_syms *y, uint32_t at);
/* The id the disassembly spells %name (spvBinaryToText's friendly names), 0 when none. */
uint32_t dbg_id_by_name(dbg_syms *y, const char *name);
/* The disassembly text of an instruction ("%97 = OpFunctionCall %uint %helper %94 %96"). */
void dbg_insn_text(dbg_syms *y, const ld_insn *in, char *buf, size_t cap);

/* ---- values and expressions ------------------------------------------------------------------- */

typedef struct dbg_value {
  const dbg_type *t;
  uint8_t *bytes;           /* t->size bytes in memory layout (arena memory) */
  bool lval;                /* lives in kernel memory at `addr` (a kernel pointer) */
  uint64_t addr;
} dbg_value;

typedef struct dbg_expr dbg_expr;
/* Parse an expression (C syntax with OpenCL vectors, %ID for SPIR-V ids); NULL with a message. */
dbg_expr *dbg_parse(const char *text, char *err, size_t cap);
void dbg_expr_free(dbg_expr *e);

struct spvi_debug;
/* Where an expression is evaluated: a work-item (warp) of the current group and one of its frames. */
typedef struct dbg_ctx {
  struct spvi_debug *s;
  unsigned warp;
  unsigned frame;
  dbg_arena *arena;
  char *err;
  size_t errcap;
} dbg_ctx;

bool dbg_eval(dbg_ctx *c, const dbg_expr *e, dbg_value *out);
/* A value as text: "(int) 5", "(float4) (1, 2, 3, 4)"; with_type false leaves the "(type) " out. */
void dbg_format_value(struct spvi_debug *s, unsigned warp, const dbg_value *v, bool with_type, char fmt,
                      dbg_buf *out);
/* Whether the value is nonzero (a condition). */
bool dbg_truth(const dbg_value *v);
/* The value of SPIR-V id `id` in the context's work-item. */
bool dbg_id_value(dbg_ctx *c, uint32_t id, dbg_value *out);
/* The value of a variable at the context's frame. */
bool dbg_var_value(dbg_ctx *c, const dbg_var *v, dbg_value *out);
/* The name of allocation id: its argument's or variable's name, "arg2", "%66". */
void dbg_alloc_name(struct spvi_debug *s, uint32_t id, char *buf, size_t cap);
/* Describe a kernel pointer: "out+8", "tmp+0", "null". */
void dbg_describe_ptr(struct spvi_debug *s, uint64_t p, char *buf, size_t cap);

/* ---- the session ------------------------------------------------------------------------------ */

enum dbg_mode { DM_NONE, DM_START, DM_CONTINUE, DM_STEP, DM_NEXT, DM_STEPI, DM_NEXTI, DM_FINISH, DM_GROUP };
enum dbg_reason { DR_NONE, DR_BREAK, DR_WATCH, DR_STEP, DR_FAULT, DR_ITEM_DONE, DR_KERNEL_DONE, DR_GROUP_DONE,
                  DR_COND_ERROR, DR_INTERRUPT };
enum dbg_state { DS_STOPPED, DS_FINISHED, DS_FAULTED };

typedef struct dbg_bp {
  int id;
  bool temp, enabled, is_watch;
  char *text;               /* the location or the watched expression, as typed */
  char *cond_text;
  dbg_expr *cond;
  uint64_t hits;
  /* breakpoint */
  uint32_t nlocs;
  struct dbg_bploc { uint32_t fn, idx; } *locs;
  /* watchpoint: a location in kernel memory, or an expression of one work-item */
  dbg_expr *expr;
  bool in_memory;
  uint32_t alloc;           /* the memory's allocation and range */
  uint64_t off, size;
  int bound_warp;           /* the work-item (warp) it belongs to, -1 when any */
  uint64_t bound_group;
  const dbg_type *type;
  uint8_t *old;             /* the last value seen (type->size bytes) */
  bool old_valid;
} dbg_bp;

typedef struct dbg_display {
  int id;
  char *text;
  dbg_expr *e;
} dbg_display;

struct spvi_debug {
  ex_launch *l;
  ex_runner *run;
  ex_ctx *cx;
  ex_warp *warps;
  dbg_syms sym;
  void (*out)(void *user, const char *text, size_t len);
  void *user;
  /* work-groups: the one running, its work-items */
  uint64_t ngroups[3], group_first, group_end, group;
  unsigned nw;
  unsigned focus, frame;    /* focused work-item (warp index) and selected frame (0: innermost) */
  int state;                /* dbg_state */
  spvi_fault fault;
  /* the request being run */
  int mode;
  bool quiet;               /* breakpoints and watchpoints off (focus changes, the first stop) */
  int step_warp;
  uint32_t step_depth, step_line, step_file;
  const ex_func *step_fn;
  /* the instruction the hook is looking at (the top frame's ip is written only when it pauses) */
  int live_warp;
  uint32_t live_idx;
  /* why it stopped */
  int reason;
  int stop_bp;
  dbg_buf stop_text;        /* watchpoint old/new values, condition errors */
  /* breakpoints and watchpoints (one numbering), displays */
  dbg_bp *bps;
  unsigned nbps, capbps;
  int next_bp;
  unsigned nwatch;
  uint8_t **bp_map;         /* per function: breakpoint locations per ex instruction (NULL: none) */
  dbg_display *displays;
  unsigned ndisplays, capdisplays;
  int next_display;
  /* `list` continues where it stopped */
  uint32_t list_file, list_next;
  int list_dis_next;
  bool list_valid;
  char prompt[256];
  bool quit;
  volatile sig_atomic_t interrupted;  /* spvi_debug_interrupt (Ctrl-C) */
};
typedef struct spvi_debug dbg_session;

/* Output of a command. */
void dbg_printf(dbg_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Frames: the number in warp w, and frame k's function and ex code index (false: not running). */
unsigned dbg_frame_count(dbg_session *s, unsigned w);
bool dbg_frame_pos(dbg_session *s, unsigned w, unsigned k, const ex_func **fn, uint32_t *idx);
/* The ld instruction at ex code index idx of fn. */
const ld_insn *dbg_insn_at(const ex_func *fn, uint32_t idx);

/* Host bytes of n bytes at kernel pointer p as work-item w sees them, or NULL with the reason. */
uint8_t *dbg_mem(dbg_session *s, unsigned w, uint64_t p, uint64_t n, char *why, size_t cap);
/* Allocation id and offset of pointer p (false for null or no allocation). */
bool dbg_ptr_alloc(const dbg_session *s, uint64_t p, uint32_t *alloc, int64_t *off);

/* Ids of work-item w of the current group. */
void dbg_item_ids(const dbg_session *s, unsigned w, uint64_t gid[3], uint64_t lid[3]);
/* Local linear id of the work-item with global id gid, in the current group; -1 when it is in another
 * group (*group receives that group's linear id) or outside the NDRange (-2). */
int dbg_find_item(const dbg_session *s, const uint64_t gid[3], uint64_t *group);

/* Execution: run the request (mode, from the focused work-item) until something stops it, then
 * print why and where. */
void dbg_resume(dbg_session *s, int mode);
/* Focus another work-item of the current group (starting it up to its first line) or, with
 * group > current, run the groups before it to completion first. False with a message. */
bool dbg_focus(dbg_session *s, uint64_t group, unsigned warp);
/* Print the frame line ("helper (x=1, y=2) at k.cl:4") and the source line of frame k of warp w. */
void dbg_print_frame(dbg_session *s, unsigned w, unsigned k, bool with_source, bool numbered);
void dbg_print_source_line(dbg_session *s, const ld_insn *in);
/* Run every display. */
void dbg_do_displays(dbg_session *s);
/* Delete breakpoint or watchpoint i (an index into bps). */
void dbg_delete_bp(dbg_session *s, unsigned i);
/* Breakpoints: rebuild the per-instruction map after a change. */
void dbg_rebuild_bp_map(dbg_session *s);
/* The watchpoint's current value (false: cannot be evaluated now). */
bool dbg_watch_read(dbg_session *s, dbg_bp *b, unsigned warp, uint8_t *out, dbg_arena *arena);
/* Prompt text for the current state. */
void dbg_update_prompt(dbg_session *s);

/* A session on launch l (arguments and NDRange set), stopped at the first work-item's first source
 * line; NULL with *st and err on failure. */
spvi_debug *ex_debug_new(ex_launch *l, void (*out)(void *, const char *, size_t), void *user, spvi_status *st,
                         char *err, size_t errlen);

/* Run one command line (ex_debug_cmd.c). */
void dbg_command(dbg_session *s, const char *line);

#endif
