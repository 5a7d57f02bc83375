/*
 * ex_limits.c — a launch's memory against the device limits and spvi_run_options.max_memory
 * (spvi.h "device limits"), checked by spvi_run before anything of the launch is allocated.
 *
 * The variables' own limits (private memory, one __local variable, program scope, constants) are
 * checked once, when the module is prepared (ex_prepare.c) or loaded (loader/ld_const.c), and the
 * single allocations when the arguments are set (ex_memobj.c ex_alloc_fits). What depends on the
 * launch is here: the kernel's __local variables plus its __local arguments within
 * SPVI_LOCAL_MEM_SIZE, and the estimate of the whole run's memory within max_memory.
 *
 * The estimate is an upper bound of what ex_run allocates: the arguments' bytes and the module's
 * program-scope variables, and for each work-group running at once (ex_run starts at most one per
 * thread, never more than there are groups) its local arena (ex_sched.c setup_allocs: the module's
 * Workgroup variables, each __local argument at a 128-byte boundary) and its warps' registers and
 * private arenas (setup_warps: the group's work-items rounded up to whole warps), each with the
 * shadow the optional checks keep per byte (the table below). All sums saturate at UINT64_MAX, so
 * no product of hostile sizes wraps below the bound.
 */
#include <stdio.h>

#include "ex.h"
#include "ex_api.h"

/* Shadow bytes the checks keep per byte of memory, beyond the memory itself. */
typedef struct shadow {
  unsigned check;         /* SPVI_CHECK_* */
  unsigned global, local; /* per byte of buffers and program scope; of a group's __local arena */
  unsigned priv;          /* per byte of a work-item's registers and private arena */
} shadow;
static const shadow shadows[] = {
  /* ex_race.c: 16 bytes per byte of global memory for the launch, 48 more per byte the running
   * group touches (recycled), which can be every byte of its __local arena */
  {SPVI_CHECK_RACES, 16, 64, 0},
  /* ex_uninit.c: one origin byte per byte of __local, private memory and registers */
  {SPVI_CHECK_UNINIT, 0, 1, 1},
};

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }
static uint64_t sat_mul(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* The __local arguments' bytes as the kernel declares them (`declared`, what OpenCL's
 * CL_KERNEL_LOCAL_MEM_SIZE counts) and as the local arena lays them out (`arena`). */
static void local_args(const ex_launch *x, uint64_t *declared, uint64_t *arena) {
  *declared = *arena = 0;
  for (uint32_t i = 0; i < x->nargs; i++)
    if (x->args[i].is_local) {
      *declared = sat_add(*declared, x->args[i].size);
      *arena = sat_add((*arena + 127u) & ~(uint64_t)127u, x->args[i].size);
    }
}

bool ex_launch_local_fits(const ex_launch *x, const char *kernel, uint64_t vars, spvi_error *err) {
  uint64_t args, arena;
  local_args(x, &args, &arena);
  if (sat_add(vars, args) <= SPVI_LOCAL_MEM_SIZE) return true;
  ex_set_err(err, SPVI_E_USAGE,
             "kernel `%s` needs %llu bytes of __local memory per work-group (variables %llu, __local arguments "
             "%llu), above the device's %llu bytes (SPVI_LOCAL_MEM_SIZE)",
             kernel, (unsigned long long)sat_add(vars, args), (unsigned long long)vars, (unsigned long long)args,
             (unsigned long long)SPVI_LOCAL_MEM_SIZE);
  return false;
}

/* The parts of the estimate, for the message. */
typedef struct budget {
  uint64_t buffers, program, groups, local, priv, total;
} budget;

static void estimate(const ex_launch *x, unsigned W, unsigned threads, budget *b) {
  const ex_program *p = x->prog;
  b->buffers = b->program = 0;
  for (uint32_t i = 0; i < x->nargs; i++)
    if (!x->args[i].is_local && !x->args[i].is_svm && x->args[i].bytes)
      b->buffers = sat_add(b->buffers, x->args[i].size);
  for (uint32_t i = 1; i <= p->nstatic; i++)
    if (p->static_allocs[i].space == EX_AS_GLOBAL || p->static_allocs[i].space == EX_AS_CONSTANT)
      b->program = sat_add(b->program, p->static_allocs[i].size);
  uint64_t items = 1, args, arena;
  for (int d = 0; d < 3; d++) items = sat_mul(items, x->local[d]);
  const uint64_t lanes = sat_mul(items / W + (items % W != 0), W);
  local_args(x, &args, &arena);
  b->local = sat_add(p->local_static, arena);
  b->priv = sat_mul(lanes, (uint64_t)p->reg_bytes + p->private_size);
  uint64_t global = sat_add(b->buffers, b->program), local = b->local, priv = b->priv;
  for (size_t k = 0; k < sizeof shadows / sizeof shadows[0]; k++) {
    if (!(x->checks & shadows[k].check)) continue;
    global = sat_add(global, sat_mul(sat_add(b->buffers, b->program), shadows[k].global));
    local = sat_add(local, sat_mul(b->local, shadows[k].local));
    priv = sat_add(priv, sat_mul(b->priv, shadows[k].priv));
  }
  const uint64_t groups = ex_group_count(x);
  b->groups = threads < groups ? threads : groups;
  b->total = sat_add(global, sat_mul(b->groups, sat_add(local, priv)));
}

bool ex_launch_memory_fits(const ex_launch *x, unsigned W, unsigned threads, uint64_t max_memory, spvi_error *err) {
  if (!max_memory) return true;
  budget b;
  estimate(x, W, threads, &b);
  if (b.total <= max_memory) return true;
  ex_set_err(err, SPVI_E_USAGE,
             "the run needs up to %llu bytes: buffers %llu + program scope %llu + %llu work-group%s at once x "
             "(__local %llu + private %llu)%s; the memory limit (--max-memory) is %llu bytes",
             (unsigned long long)b.total, (unsigned long long)b.buffers, (unsigned long long)b.program,
             (unsigned long long)b.groups, b.groups == 1 ? "" : "s", (unsigned long long)b.local,
             (unsigned long long)b.priv, x->checks ? ", with the checks' shadow memory" : "",
             (unsigned long long)max_memory);
  return false;
}
