/*
 * main.c — the `spvi` command: dispatches `run`, `debug`, `info`, `merge`, `compare`, `test`, `exec`, --help and --version, drives the public
 * API (include/spvi.h, nothing else) and maps outcomes to exit statuses: 0 success, 1 the kernel
 * faulted, 2 bad usage, bad argument or unusable module.
 */
#include "cli_heap.h"
#include "cli_args.h"
#include "cli_cmdline.h"
#include "cli_compare.h"
#include "cli_debug.h"
#include "cli_exec.h"
#include "cli_merge.h"
#include "cli_npy.h"
#include "cli_out.h"
#include "cli_png.h"
#include "cli_struct.h"
#include "cli_print.h"
#include "cli_test.h"
#include "cli_source.h"
#include "cli_progress.h"
#include "cli_num.h"
#include "spvi.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

enum { EXIT_OK = 0, EXIT_FAULT = 1, EXIT_BAD = 2 };

_Static_assert((unsigned)CLI_CHECK_RACES == (unsigned)SPVI_CHECK_RACES &&
                 (unsigned)CLI_CHECK_UNINIT == (unsigned)SPVI_CHECK_UNINIT &&
                 (unsigned)CLI_CHECK_ALL == (unsigned)SPVI_CHECK_ALL,
               "cli_cmdline.h's check flags must be spvi.h's");

static const char usage_main[] =
  "usage: spvi run MODULE.spv|KERNEL.cl [-k KERNEL] -g X[,Y[,Z]] [-l X[,Y[,Z]]] [--offset X[,Y[,Z]]]\n"
  "                [--out DIR] [--print[=N]] [--warp N] [--strict] [--flush-denormals] [--stats]\n"
  "                [--threads N] [--groups START:END] [--spec ID=VALUE]... [--trace[=FILTER]]\n"
  "                [--check LIST] [--report FILE] [--max-steps N] [--max-memory SIZE] [--keep-going]\n"
  "                [--subgroup-size N] [--expect DIR [tolerances]] [--shard K/N|env[/N]] [--quiet] ARG...\n"
  "                [--then [-k KERNEL] -g X[,Y[,Z]] [options] ARG...]...\n"
  "       spvi debug MODULE.spv [-x FILE] [the options and ARGs of run]\n"
  "       spvi info [--strict] MODULE.spv | spvi info --prepared MODULE.spv [-k KERNEL]\n"
  "       spvi merge [--combine [argI=]OP]... OUT_DIR SHARD_DIR...\n"
  "       spvi compare [--ulp N] [--abs X] [--rel X] [--tol NAME:KEY=V]... [--json] EXPECTED OUTPUT\n"
  "       spvi test [-j N] [--junit FILE] [--sarif FILE] [--keep] CASES.json|CASES.yaml\n"
  "       spvi exec [--check LIST] [--report FILE] [options] [--] PROGRAM [ARGS...]\n"
  "       spvi --help | spvi run --help | spvi debug --help | spvi info --help |\n"
  "       spvi exec --help | spvi --version\n"
  "\n"
  "spvi interprets OpenCL compute kernels compiled to SPIR-V (Kernel execution model).\n"
  "\n"
  "commands:\n"
  "  run    run one kernel over an NDRange; print its buffers or save them as .npy files\n"
  "         (spvi run --help describes the arguments)\n"
  "  debug  run it under a gdb-like debugger: breakpoints, stepping, watchpoints, variables,\n"
  "         work-item focus (spvi debug --help)\n"
  "  info   list the module's kernels with their parameters (index, address space, type,\n"
  "         name), its capabilities, addressing model and SPIR-V version\n"
  "  merge  combine the --out directories of `spvi run --shard` (or --groups) shards of one\n"
  "         launch: every byte comes from the shard that wrote it, or is the initial value;\n"
  "         --combine adds up atomic updates (spvi merge --help)\n"
  "  compare  compare .npy files or --out directories element by element, within tolerances\n"
  "           (spvi compare --help)\n"
  "  test   run the cases of a case file and check their outputs, faults and reports;\n"
  "         JUnit XML and SARIF for CI (spvi test --help)\n"
  "  exec   run an OpenCL application with spvi as its only OpenCL platform: its kernels\n"
  "         run checked, faults and reports go to stderr (spvi exec --help)\n"
  "\n"
  "exit status: 0 success, 1 the kernel faulted or a check reported an error (reports go to\n"
  "             stderr),\n"
  "             2 bad usage, bad argument or unusable module (one message on stderr)\n";

static const char usage_info[] =
  "usage: spvi info [--strict] MODULE.spv|KERNEL.cl\n"
  "       spvi info --prepared [--strict] MODULE.spv|KERNEL.cl [-k KERNEL]\n"
  "\n"
  "Prints the module's SPIR-V version, addressing model (pointer size), declared capabilities,\n"
  "program-scope variables in global and constant memory (type, name, size) and, for every\n"
  "kernel, its parameters as argI (I from 0, the order `spvi run` takes ARGs in), address\n"
  "space, type and name, plus reqd_work_group_size and the sub-group execution modes when the\n"
  "kernel declares them, and the sub-group extensions the module uses. Parameter names and\n"
  "source types come from -cl-kernel-arg-info, else from the debug information (-g).\n"
  "\n"
  "  --prepared         print instead the prepared code the interpreter runs, for debugging\n"
  "                     spvi itself: per function and block, one instruction a line, e.g.\n"
  "                     `12  r40 = IADD_I32 r16, r24 (n=1)  ; OpIAdd %20 k.cl:3` (rN: register\n"
  "                     at byte offset N, aux[N]: an operand list, bN: a block, fN: a function;\n"
  "                     interp/ex_ops.h gives each instruction's operands and meaning)\n"
  "  -k, --kernel NAME  with --prepared: only this kernel's code and the functions it calls\n"
  "  --strict           a SPIR-V validation failure is an error, not a warning (as for run)\n"
  "  -D, -I, --cl-std, -O0..-O3, --build-options   how KERNEL.cl is compiled (see spvi run --help)\n"
  "Validation warnings go to stderr as `spvi: warning: ...`.\n"
  "exit status: 0 success, 2 bad usage or unusable module\n";

static const char usage_run[] =
  "usage: spvi run MODULE.spv|KERNEL.cl [-k KERNEL] -g X[,Y[,Z]] [-l X[,Y[,Z]]] [--offset X[,Y[,Z]]]\n"
  "                [--out DIR] [--print[=N]] [--warp N] [--strict] [--flush-denormals] [--stats]\n"
  "                [--threads N] [--groups START:END] [--spec ID=VALUE]... [--trace[=FILTER]]\n"
  "                [--check LIST] [--report FILE] [--max-steps N] [--max-memory SIZE] [--keep-going]\n"
  "                [--subgroup-size N] [--expect DIR [tolerances]] [--shard K/N|env[/N]] [--quiet] ARG...\n"
  "                [--then [-k KERNEL] -g X[,Y[,Z]] [options] ARG...]...\n"
  "\n"
  "options (anywhere on the line; `--` ends them):\n"
  "  -D NAME[=V], -I DIR, --cl-std=CLx.y, -O0..-O3, --build-options \"...\"\n"
  "                      compile KERNEL.cl given instead of MODULE.spv (OpenCL C: by its\n"
  "                      content or the .cl name) as clBuildProgram does, cached; default -O2\n"
  "                      (debug: -O0 -g)\n"
  "  -k, --kernel NAME   the kernel to run; may be left out when the module has only one\n"
  "  -g, --global SIZES  global work size; 1 to 3 comma-separated sizes set work_dim\n"
  "  -l, --local SIZES   work-group size, as many sizes as -g (default: spvi picks one)\n"
  "  --offset SIZES      global work offset, as many sizes as -g (default 0)\n"
  "  --out DIR           after the run write every buffer argument to DIR/argI.npy\n"
  "                      (I = parameter index from 0); DIR is created when missing\n"
  "  --print[=N]         after the run print every buffer argument, one line each:\n"
  "                      `arg2 float[4]: 1 2 3 4`, vectors as `(1 2 3 4)` (3-element\n"
  "                      vectors without their padding slot); floats with enough digits\n"
  "                      to read back exactly. Longer buffers: a summary line (count,\n"
  "                      min, max, NaNs) and wrapped lines of at most N elements (256)\n"
  "  --warp N            lanes per simulated warp, 1..64 (results never depend on it; kernels\n"
  "                      with sub-group operations use a multiple of the sub-group size)\n"
  "  --subgroup-size N   work-items per sub-group, 1..64 (default 32; a kernel's\n"
  "                      reqd_sub_group_size decides, and a different N is an error)\n"
  "  --strict            a SPIR-V validation failure is an error, not a warning\n"
  "  --flush-denormals   emulate a device that flushes float denormals to zero (inputs and\n"
  "                      results of float arithmetic, conversions and math builtins)\n"
  "  --threads N         run work-groups on N threads (default: the available cores)\n"
  "  --groups START:END  run only work-groups with linear id START <= id < END (x fastest);\n"
  "                      --out then also writes DIR/argI.written.npy (1 per byte written),\n"
  "                      and `spvi merge` combines the outputs of several such runs\n"
  "  --shard K/N         run only the work-groups whose linear id g has g % N == K (K from\n"
  "                      0); env or env/N: K and N from Slurm's SLURM_ARRAY_TASK_* or\n"
  "                      Kubernetes' JOB_COMPLETION_INDEX; --out as for --groups, plus\n"
  "                      DIR/argI.initial.npy for `spvi merge --combine` (docs/scaling.md)\n"
  "  -q, --quiet         no progress line (shown on a terminal for runs over 2 seconds)\n"
  "  --spec ID=VALUE     the value of the specialization constant with SpecId ID (bool:\n"
  "                      true/false, integers, floats; read per the constant's type)\n"
  "  --trace[=FILTER]    print every executed instruction with its value on stderr, for\n"
  "                      FILTER = all (default), gid=X[,Y[,Z]] or group=X[,Y[,Z]]; runs at\n"
  "                      warp width 1 on one thread, each work-item in program order\n"
  "  --stats             print, as the last line on stderr: load_s=... exec_s=...\n"
  "                      instructions=... instr_per_s=... peak_rss_mb=...\n"
  "  --then              start another launch of the same module, run after this one: its own\n"
  "                      -k, -g, -l, --offset, ARGs and run options (--print, --out, --warp,\n"
  "                      ...); --strict and --spec only before the first --then. Program-scope\n"
  "                      variables keep their values from one launch to the next; buffers do not\n"
  "                      (each launch has its own ARGs). The first launch that faults or fails\n"
  "                      ends the command with its exit status\n"
  "  --check LIST        also run these checks (comma-separated): races (data races on\n"
  "                      local and global memory), uninit (uses of never-written private\n"
  "                      or local memory), all. Bounds, alignment, read-only, divergence\n"
  "                      and integer-division checks are always on\n"
  "  --report FILE       also write every report and fault to FILE as JSON lines\n"
  "  --expect DIR        compare the outputs (the files --out writes) with DIR's .npy files\n"
  "                      of the same names; exit status 1 on a difference. With --ulp N,\n"
  "                      --abs X, --rel X, --tol NAME:KEY=V, --nan-exact, --signed-zero as\n"
  "                      for spvi compare (spvi compare --help)\n"
  "  --max-steps N       a work-item executing more than N SPIR-V instructions is a fault\n"
  "                      (default 1000000000), so an infinite loop ends in a report\n"
  "  --max-memory SIZE   refuse a run that may use more than SIZE bytes (suffix K, M, G): its\n"
  "                      buffers, program-scope variables, and local and private memory of\n"
  "                      the work-groups running at once, with the checks' shadow memory\n"
  "  --keep-going        after an out-of-bounds, null or invalid pointer access or an array\n"
  "                      index out of bounds, report it, skip the access (a read gives\n"
  "                      zeros) and go on: one run lists every faulting site (exit status 1)\n"
  "\n"
  "ARG: one per kernel parameter, in order (`spvi info` lists them)\n"
  "  by value      TYPE:V[,V...]    exactly one V per vector component: int:-3 uint:0x10\n"
  "                                 float:0.5 float:0x1.8p-3 float4:1,2,3,4 half:1.5 double:nan\n"
  "                bytes:HEX        raw bytes in memory order (a struct), e.g. bytes:0100000002000000\n"
  "                bytes:@FILE      raw bytes from FILE; either way exactly the parameter's size\n"
  "  buffer        TYPE[COUNT]      COUNT zero-filled elements\n"
  "                TYPE[COUNT]=INIT with INIT one of\n"
  "                  V,V,...              exactly COUNT x width values\n"
  "                  fill(V)              every component V; fill(V1,..,Vw): each vector (V1..Vw)\n"
  "                  range(START[,STEP])  component k (memory order) = START + k*STEP, STEP 1 by\n"
  "                                       default; for vectors k = element*width + component\n"
  "                  random(SEED[,LO,HI]) deterministic pseudo-random values, see below\n"
  "                  @PATH                a C-order .npy file of the dtype holding COUNT elements\n"
  "                                       (any shape) or a raw little-endian file of exactly\n"
  "                                       COUNT x sizeof(TYPE) bytes\n"
  "                TYPE[]=@PATH | TYPE[]=V,V,...   COUNT from the file or the list\n"
  "                null             a null pointer (the kernel may test it; a dereference faults)\n"
  "  __local       local:BYTES      bytes of local memory per work-group\n"
  "  image         IMAGETYPE:ORDER:CHANNELTYPE:DIMS[=INIT]   e.g. image2d:rgba:unorm8:64,32\n"
  "                  IMAGETYPE image1d image1d_buffer image1d_array image2d image2d_array image3d\n"
  "                  ORDER r a rg ra rgba bgra argb abgr intensity luminance srgba sbgra\n"
  "                  CHANNELTYPE unorm8 unorm16 snorm8 snorm16 uint8 uint16 uint32 int8 int16\n"
  "                  int32 half float; DIMS W | W,N | W,H | W,H,N | W,H,D; INIT as for buffers,\n"
  "                  over the raw channel values in memory order (.npy: the --out shape)\n"
  "  sampler       sampler:NORM,ADDRESS,FILTER   NORM normalized|unnormalized, ADDRESS none|\n"
  "                  clamp_to_edge|clamp|repeat|mirrored_repeat, FILTER nearest|linear\n"
  "\n"
  "TYPE: char uchar short ushort int uint long ulong half float double, optionally with a\n"
  "  vector width 2 3 4 8 16 (float4, int3, ...). 3-element vectors take 4 slots in memory\n"
  "  (sizeof(float3) == 16); the 4th slot is 0. A by-value TYPE must match the parameter's\n"
  "  element kind, size and vector width (int and uint are interchangeable: SPIR-V integers\n"
  "  carry no sign). A buffer TYPE must have the pointee's element size unless the parameter\n"
  "  points to char, uchar, void or a struct.\n"
  "V: integers in decimal or 0x hex with an optional sign, within the type's range\n"
  "  (char:-129 is an error); floats in decimal or C hex-float form (0x1.8p-3), rounded once\n"
  "  to the nearest value of the type (ties to even), or inf, -inf, nan, -nan; a finite\n"
  "  value beyond the type's largest finite value is an error. fill/range/random bounds are\n"
  "  V of the buffer's type (range STEP may be negative for unsigned types). A range element\n"
  "  outside the type is an error; float range() evaluates START + k*STEP in double and\n"
  "  rounds that to the type.\n"
  "\n"
  "random(SEED[,LO,HI]) fills components in memory order (3-vector padding is skipped and\n"
  "  stays 0) from one SplitMix64 stream: state = SEED; for each draw\n"
  "    state += 0x9E3779B97F4A7C15; z = state;\n"
  "    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) * 0x94D049BB133111EB;\n"
  "    x = z ^ (z >> 31)                                  (all modulo 2^64)\n"
  "  integers: uniform in [LO,HI] (default: the type's whole range): with span = HI-LO+1,\n"
  "    draws x < 2^64 mod span are discarded, then the value is LO + x mod span.\n"
  "  floats: uniform in [LO,HI) (default [0,1)): with p = 11 (half), 24 (float), 53 (double),\n"
  "    u = (x >> (64-p)) * 2^-p, value = LO + u*(HI-LO) in double, rounded to the type; a\n"
  "    value that rounds to HI is discarded and drawn again.\n"
  "\n"
  "--out writes NumPy .npy version 1.0 files: dtype |i1 |u1 <i2 <u2 <i4 <u4 <i8 <u8 <f2 <f4\n"
  "  <f8; vector elements are a trailing dimension holding the memory slots (float4[N] and\n"
  "  float3[N] both have shape (N, 4)); a buffer read from a .npy file keeps its shape.\n"
  "  @PATH.npy accepts any shape of N*slots items, and (..., 3) of N*3 items for 3-element\n"
  "  vectors. Images: dtype of the channel type, shape (W, C), (N, W, C),\n"
  "  (H, W, C), (N, H, W, C) or (D, H, W, C) (N layers, C channels).\n"
  "  A struct buffer (pointer-to-struct parameter) is written as a structured dtype of the\n"
  "  struct's layout (member names from -g debug info), takes a structured .npy of the same\n"
  "  item size and field offsets, and --print shows it field by field. Each image is also\n"
  "  written as PNG: DIR/argI.png, DIR/argI.K.png per layer or slice (docs/cli.md).\n"
  "  Outputs are written only when the kernel did not fault.\n"
  "\n"
  "example: spvi run vadd.spv -g 4 'float[4]=range(0)' 'float[4]=fill(10)' 'float[4]' --print\n"
  "exit status: 0 success, 1 the kernel faulted or a check reported an error (reports on\n"
  "             stderr; the outputs are still written when it did not fault), 2 bad usage,\n"
  "             bad argument or unusable module\n";

static const char usage_debug[] =
  "usage: spvi debug MODULE.spv [-x FILE] [-k KERNEL] -g X[,Y[,Z]] [-l X[,Y[,Z]]] [--offset X[,Y[,Z]]]\n"
  "                  [--out DIR] [--print] [--strict] [--flush-denormals] [--groups START:END]\n"
  "                  [--spec ID=VALUE]... ARG...\n"
  "\n"
  "Runs the kernel like `spvi run` (same options and ARGs; see spvi run --help) under a debugger\n"
  "with gdb's commands, stopped at the first source line of work-item 0 (the first instruction\n"
  "without line information). Work-items run one at a time (warp width 1, one thread: --warp and\n"
  "--threads are ignored), so the results are those of `spvi run`; --print and --out write them\n"
  "when the kernel has finished.\n"
  "\n"
  "  -x FILE   read commands from FILE first, then from standard input\n"
  "\n"
  "Commands come from a terminal with line editing and history, or line by line from a file or a\n"
  "pipe (echoed after the prompt). `help` lists them: break tbreak delete disable enable watch\n"
  "continue step next stepi nexti finish print display undisplay x backtrace frame up down list\n"
  "disassemble info workitem workgroup help quit. Compile kernels with -g for source lines and\n"
  "variables; without, everything works on SPIR-V instructions and %ID values.\n"
  "\n"
  "exit status: 0 the kernel finished or the session ended before it did, 1 the kernel faulted,\n"
  "             2 bad usage, bad argument or unusable module\n";


/* Validation messages from the loader, as they arrive. */
static void on_message(void *user, spvi_severity severity, const char *message) {
  (void)user;
  fprintf(stderr, "spvi: %s: %s\n", severity == SPVI_WARNING ? "warning" : "note", message);
}

/* The module of a command: a SPIR-V file, or OpenCL C compiled with the options `cl` (NULL: none)
 * and spvi debug's defaults when `debug` (cli_source.h). */
static spvi_module *load_module(const char *path, bool strict, const cli_run_cmd *c, const cli_clopts *cl, bool debug) {
  void *spirv = NULL;
  size_t bytes = 0;
  if (strcmp(path, "-") != 0 && cli_source_prepare(path, cl, debug, &spirv, &bytes) == CLI_IN_OTHER) return NULL;
  spvi_load_options opts;
  memset(&opts, 0, sizeof opts);
  opts.strict = strict;
  opts.on_message = on_message;
  spvi_spec_value *spec = NULL;
  if (c && c->nspecs) {
    spec = calloc((size_t)c->nspecs, sizeof *spec);
    if (!spec) {
      cli_say_error("out of memory");
      return NULL;
    }
    for (int i = 0; i < c->nspecs; i++) spec[i] = (spvi_spec_value){c->spec_ids[i], c->spec_values[i], NULL, 0};
    opts.spec = spec;
    opts.nspec = (unsigned)c->nspecs;
  }
  spvi_error err = {SPVI_OK, ""};
  /* `-`: the module comes from the standard input (spvi_load_file reads pipes in bounded chunks) */
  spvi_module *m = spirv                    ? spvi_load_memory(spirv, bytes, path, &opts, &err)
                   : strcmp(path, "-") == 0 ? spvi_load_file("/dev/stdin", &opts, &err)
                                            : spvi_load_file(path, &opts, &err);
  free(spirv);
  free(spec);
  if (!m) cli_say_error("%s", err.message[0] ? err.message : "cannot load the module");
  return m;
}

/* ---- info ---------------------------------------------------------------------------------- */

static const char *param_kind_note(const spvi_param_info *p, char *buf, size_t cap) {
  switch (p->kind) {
  case SPVI_PARAM_VALUE: snprintf(buf, cap, "by value, %zu bytes", p->size); break;
  case SPVI_PARAM_BUFFER:
    snprintf(buf, cap, "buffer of %zu-byte elements%s", p->size, p->is_const ? ", read-only" : "");
    break;
  case SPVI_PARAM_LOCAL: snprintf(buf, cap, "local memory, give local:BYTES"); break;
  case SPVI_PARAM_IMAGE:
    snprintf(buf, cap, "image, give %s:ORDER:CHANNELTYPE:DIMS[=INIT]", spvi_image_type_name(p->image_type));
    break;
  case SPVI_PARAM_SAMPLER: snprintf(buf, cap, "sampler, give sampler:NORM,ADDRESS,FILTER"); break;
  case SPVI_PARAM_OPAQUE: snprintf(buf, cap, "not supported by spvi run"); break;
  }
  return buf;
}

static int choose_kernel(const spvi_module *m, const char *module, const char *name);

/* spvi info --prepared: the prepared code of the module or of one kernel. */
static int info_prepared(const char *path, const char *kernel, bool strict, const cli_clopts *cl) {
  spvi_module *m = load_module(path, strict, NULL, cl, false);
  if (!m) return EXIT_BAD;
  int k = kernel ? choose_kernel(m, path, kernel) : -1; /* choose_kernel reports a bad name */
  int status = EXIT_BAD;
  spvi_error err;
  if (!kernel || k >= 0) {
    if (spvi_dump_prepared(m, k, stdout, &err) == SPVI_OK) status = EXIT_OK;
    else cli_say_error("%s", err.message);
  }
  spvi_module_free(m);
  return status;
}

static int info_module(const char *path, bool strict, const cli_clopts *cl);

static int cmd_info(int argc, char **argv) {
  const char *path = NULL, *kernel = NULL;
  bool prepared = false, strict = false;
  cli_clopts cl;
  cli_clopts_init(&cl);
  int status = EXIT_BAD;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(usage_info, stdout);
      return EXIT_OK;
    }
  }
  for (int i = 0; i < argc; i++) {
    cli_error e;
    int used = cli_clopts_take(&cl, argc, argv, i, &e); /* how KERNEL.cl is compiled */
    if (used < 0) {
      cli_say_error("%s", e.msg);
      goto done;
    }
    if (used) {
      i += used - 1;
      continue;
    }
    if (strcmp(argv[i], "--prepared") == 0) {
      prepared = true;
      continue;
    }
    if (strcmp(argv[i], "--strict") == 0) { /* as for run: loading and validation only */
      strict = true;
      continue;
    }
    if (strcmp(argv[i], "-k") == 0 || strcmp(argv[i], "--kernel") == 0) {
      if (i + 1 == argc) {
        cli_say_error("%s needs a kernel name (see spvi info --help)", argv[i]);
        goto done;
      }
      kernel = argv[++i];
      continue;
    }
    if (argv[i][0] == '-' && argv[i][1] != 0) {
      char q[112];
      cli_say_error("unknown option `%s` for info (see spvi info --help)", cli_echo(argv[i], q, sizeof q));
      goto done;
    }
    if (path) {
      char q[112];
      cli_say_error("info takes one MODULE.spv or KERNEL.cl, got `%s` as well", cli_echo(argv[i], q, sizeof q));
      goto done;
    }
    path = argv[i];
  }
  if (!path) cli_say_error("missing MODULE.spv or KERNEL.cl (see spvi info --help)");
  else if (kernel && !prepared) cli_say_error("-k goes with --prepared (spvi info lists every kernel)");
  else if (prepared) status = info_prepared(path, kernel, strict, &cl);
  else status = info_module(path, strict, &cl);
done:
  cli_clopts_free(&cl);
  return status;
}

/* A parameter as spvi info shows it: with the type as the source spelled it when the module says
 * (kernel-arg-info or -g: `uint*`, where SPIR-V knows only a 32-bit integer, so the signedness
 * shows), for values and pointers; images keep spvi's spelling with their access qualifier. */
static const char *info_param_desc(const spvi_param_info *p, char *buf, size_t cap) {
  spvi_param_info q = *p;
  bool plain = p->kind == SPVI_PARAM_VALUE || p->kind == SPVI_PARAM_BUFFER || p->kind == SPVI_PARAM_LOCAL;
  if (plain && p->source_type_name && p->source_type_name[0]) q.type_name = p->source_type_name;
  return cli_param_desc(&q, buf, cap);
}

/* Some parameter has no name: neither OpName (-cl-kernel-arg-info) nor debug information (-g). */
static bool info_names_missing(const spvi_module *m) {
  for (int k = 0; k < spvi_kernel_count(m); k++)
    for (int i = 0; i < spvi_kernel_param_count(m, k); i++)
      if (!spvi_kernel_param(m, k, i)->name[0]) return true;
  return false;
}

/* spvi info: the module, its kernels and their parameters. */
static int info_module(const char *path, bool strict, const cli_clopts *cl) {
  spvi_module *m = load_module(path, strict, NULL, cl, false);
  if (!m) return EXIT_BAD;
  uint32_t v = spvi_module_version(m);
  unsigned bits = spvi_module_pointer_bits(m);
  printf("module:       %s\n", path);
  printf("SPIR-V:       %u.%u\n", (unsigned)(v >> 16) & 0xff, (unsigned)(v >> 8) & 0xff);
  printf("addressing:   Physical%u (%u-bit pointers)\n", bits, bits);
  printf("capabilities:");
  for (int i = 0; i < spvi_module_capability_count(m); i++) printf(" %s", spvi_module_capability(m, i));
  printf("\n");
  char sg[512];
  spvi_module_subgroup_extensions(m, sg, sizeof sg); /* only those the module uses */
  printf("sub-groups:   %s\n", sg[0] ? sg : "none used");
  if (sg[0])
    printf("              (size: spvi run --subgroup-size N, 1..64, default %u)\n", SPVI_DEFAULT_SUBGROUP_SIZE);
  /* program-scope variables: the module's state between the launches of one `spvi run --then` */
  int ng = spvi_global_count(m);
  if (ng) printf("program-scope variables:\n");
  for (int i = 0; i < ng; i++) {
    const spvi_global_info *g = spvi_global(m, i);
    char decl[320];
    snprintf(decl, sizeof decl, "%s %s %s", g->space == SPVI_AS_CONSTANT ? "constant" : "global", g->type_name,
             g->name[0] ? g->name : "(unnamed)");
    printf("  %-46s (%zu bytes)\n", decl, g->size);
  }
  int nk = spvi_kernel_count(m);
  printf("kernels:      %d\n", nk);
  if (info_names_missing(m))
    printf("names:        the module has no parameter names: compile with -g or -cl-kernel-arg-info,\n"
           "              or give spvi the .cl file (spvi info KERNEL.cl)\n");
  for (int k = 0; k < nk; k++) {
    int np = spvi_kernel_param_count(m, k);
    printf("\nkernel %s (%d parameter%s)\n", spvi_kernel_name(m, k), np, np == 1 ? "" : "s");
    size_t reqd[3];
    spvi_kernel_reqd_local_size(m, k, reqd);
    if (reqd[0] || reqd[1] || reqd[2]) printf("  reqd_work_group_size: %zu,%zu,%zu\n", reqd[0], reqd[1], reqd[2]);
    unsigned sgs, sgn;
    spvi_kernel_subgroup_modes(m, k, &sgs, &sgn);
    if (sgs) printf("  reqd_sub_group_size: %u\n", sgs);
    if (sgn) printf("  sub-groups per work-group: %u\n", sgn);
    for (int i = 0; i < np; i++) {
      const spvi_param_info *p = spvi_kernel_param(m, k, i);
      char desc[256], note[96];
      printf("  arg%-3d %-40s (%s)\n", i, info_param_desc(p, desc, sizeof desc), param_kind_note(p, note, sizeof note));
    }
  }
  spvi_module_free(m);
  return EXIT_OK;
}

/* ---- run ----------------------------------------------------------------------------------- */

static int choose_kernel(const spvi_module *m, const char *module, const char *name) {
  int n = spvi_kernel_count(m);
  int k = name ? spvi_find_kernel(m, name) : n == 1 ? 0 : -1;
  if (k >= 0) return k;
  if (n == 0) {
    cli_say_error("`%s` has no kernels", module);
    return -1;
  }
  char list[1024] = "";
  size_t len = 0;
  for (int i = 0; i < n && len < sizeof list; i++)
    len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", spvi_kernel_name(m, i));
  if (name) cli_say_error("-k: no kernel `%s` in `%s` (kernels: %s)", name, module, list);
  else cli_say_error("`%s` has %d kernels (%s): choose one with -k", module, n, list);
  return -1;
}

static bool check_arg_count(const spvi_module *m, int k, int nargs, const char *label) {
  int np = spvi_kernel_param_count(m, k);
  if (np == nargs) return true;
  char list[2048] = "";
  size_t len = 0;
  for (int i = 0; i < np && len < sizeof list; i++) {
    char desc[256];
    len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "",
                            cli_param_desc(spvi_kernel_param(m, k, i), desc, sizeof desc));
  }
  cli_say_error("%skernel `%s` takes %d argument%s (%s), got %d", label, spvi_kernel_name(m, k), np, np == 1 ? "" : "s",
                list, nargs);
  return false;
}

static bool write_buffers(const cli_run_cmd *c, spvi_launch *l, const cli_arg *args, cli_out *out);

/* --print and --out after a successful launch: the --out files appear all together or not at all
 * (cli_out.c). */
static bool write_outputs(const cli_run_cmd *c, spvi_launch *l, const cli_arg *args) {
  cli_out out;
  if (c->out_dir && !cli_out_begin(&out, c->out_dir)) return false;
  if (!write_buffers(c, l, args, c->out_dir ? &out : NULL)) {
    if (c->out_dir) cli_out_abort(&out);
    return false;
  }
  return !c->out_dir || cli_out_commit(&out);
}

/* write_outputs, then with --expect DIR the comparison of the files --out writes (in --out DIR, or
 * in a temporary directory) with DIR's; returns the exit status. */
static int finish_outputs(const cli_run_cmd *c, spvi_launch *l, const cli_arg *args) {
  if (!c->expect) return write_outputs(c, l, args) ? EXIT_OK : EXIT_BAD;
  cli_run_cmd w = *c;
  char *tmp = c->out_dir ? NULL : cli_expect_tmpdir();
  if (!c->out_dir && !tmp) return EXIT_BAD;
  if (tmp) w.out_dir = tmp;
  fflush(stdout);
  int status = write_outputs(&w, l, args) ? cli_expect_check(c->expect, w.out_dir, &w.cmp, stderr) : EXIT_BAD;
  if (tmp) cli_expect_cleanup(tmp);
  return status;
}

static bool write_buffers(const cli_run_cmd *c, spvi_launch *l, const cli_arg *args, cli_out *out) {
  for (int i = 0; i < c->nargs; i++) {
    if (args[i].kind != CLI_ARG_BUFFER && args[i].kind != CLI_ARG_IMAGE) continue;
    const bool image = args[i].kind == CLI_ARG_IMAGE;
    size_t bytes = 0;
    const unsigned char *data = image ? spvi_arg_image(l, i, NULL, &bytes) : spvi_arg_buffer(l, i, &bytes);
    if (!data || bytes != args[i].bytes) {
      cli_say_error("arg%d: the library returned %zu bytes for a buffer of %zu", i, data ? bytes : 0, args[i].bytes);
      return false;
    }
    if (c->print && image) {
      /* the channel values in memory order, after a head naming the image and its --out shape */
      const spvi_image_desc *d = &args[i].image;
      size_t shape[4];
      unsigned nd = cli_image_shape(d, shape);
      char head[160];
      size_t len = (size_t)snprintf(head, sizeof head, "arg%d %s %s %s (", i, spvi_image_type_name(d->type),
                                    spvi_channel_order_name(d->order), spvi_channel_type_name(d->channel_type));
      for (unsigned k = 0; k < nd && len < sizeof head; k++)
        len += (size_t)snprintf(head + len, sizeof head - len, "%s%zu", k ? ", " : "", shape[k]);
      if (len < sizeof head) snprintf(head + len, sizeof head - len, ")");
      cli_print_values(stdout, head, args[i].elem, args[i].count, data, c->print_max);
    } else if (c->print && args[i].layout && bytes % args[i].layout->size == 0) {
      cli_struct_print(stdout, i, args[i].layout, bytes / args[i].layout->size, data, c->print_max);
    } else if (c->print) {
      cli_print_buffer(stdout, i, args[i].elem, args[i].count, data, c->print_max);
    }
    if (out) {
      size_t shape[4] = {args[i].count, cli_elem_slots(args[i].elem), 0, 0};
      unsigned ndim = args[i].elem.width == 1 ? 1 : 2;
      if (image) ndim = cli_image_shape(&args[i].image, shape);
      const bool file_shape = args[i].ndim && !args[i].shape_in_structs; /* a .npy input's own shape */
      const size_t *out_shape = file_shape ? args[i].shape : shape;
      if (file_shape) ndim = args[i].ndim;
      char name[40];
      snprintf(name, sizeof name, "arg%d.npy", i);
      char *path = cli_out_path(out, name);
      if (!path) return false;
      cli_error e;
      /* a struct buffer: a structured dtype of the struct's layout, one item per struct */
      char *descr = args[i].layout && bytes % args[i].layout->size == 0 ? cli_struct_descr(args[i].layout) : NULL;
      size_t items[1] = {descr ? bytes / args[i].layout->size : 0};
      const bool in_structs = descr && args[i].shape_in_structs; /* a structured input's shape */
      bool ok = descr ? cli_npy_write(path, descr, in_structs ? args[i].ndim : 1, in_structs ? args[i].shape : items,
                                      data, bytes, &e)
                      : cli_npy_write(path, args[i].elem.scalar->npy, ndim, out_shape, data, bytes, &e);
      free(descr);
      free(path);
      if (ok && image) ok = cli_png_write_image(out, i, &args[i].image, data, &e); /* to look at */
      size_t wbytes = 0;
      const uint8_t *written = spvi_arg_written(l, i, &wbytes);
      if (ok && written) {
        /* which bytes this run (a --groups shard) wrote: one uint8 per buffer byte */
        snprintf(name, sizeof name, "arg%d.written.npy", i);
        if (!(path = cli_out_path(out, name))) return false;
        size_t wshape[1] = {wbytes};
        ok = cli_npy_write(path, "|u1", 1, wshape, written, wbytes, &e);
        free(path);
        /* the contents before the run, where it wrote: what merge --combine adds deltas to */
        const void *initial = spvi_arg_initial(l, i, NULL);
        if (ok && initial && memchr(written, 1, wbytes)) {
          snprintf(name, sizeof name, "arg%d.initial.npy", i);
          if (!(path = cli_out_path(out, name))) return false;
          ok = cli_npy_write(path, args[i].elem.scalar->npy, ndim, shape, initial, bytes, &e);
          free(path);
        }
      }
      if (!ok) {
        cli_say_error("--out `%s`: %s", c->out_dir, e.msg);
        return false;
      }
    }
  }
  if (c->print && fflush(stdout) != 0) {
    cli_say_error("--print: cannot write to standard output: %s", strerror(errno));
    return false;
  }
  return true;
}

/* Sets the arguments, the NDRange and runs; returns the exit status. */
/* --trace lines go to standard error, so standard output keeps --print and printf output. */
static void print_trace_line(void *user, const char *line) {
  (void)user;
  fprintf(stderr, "%s\n", line);
}

/* Kernel printf output goes to standard output as the kernel produces it (work-item order). */
static void print_kernel_output(void *user, const char *text, size_t len) {
  cli_progress_pause(user); /* the progress line (if any) gives way to the kernel's text */
  fwrite(text, 1, len, stdout);
  if (user) fflush(stdout);
  cli_progress_resume(user);
}

static double load_seconds; /* time spvi_load_file took, for --stats */

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Peak resident memory of this process in MB: VmHWM from /proc/self/status (getrusage's ru_maxrss
 * is inherited across execve on Linux, so a large parent would show through); ru_maxrss elsewhere. */
static double peak_rss_mb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  if (f) {
    char line[256];
    while (fgets(line, sizeof line, f)) {
      unsigned long kb;
      if (sscanf(line, "VmHWM: %lu kB", &kb) == 1) {
        fclose(f);
        return (double)kb / 1024.0;
      }
    }
    fclose(f);
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss / 1024.0;
}

/* --stats: one machine-readable line, the last on stderr. ru_maxrss is in KiB on Linux. */
static void print_stats(const spvi_launch *l) {
  spvi_run_stats st;
  spvi_launch_stats(l, &st);
  double ips = st.exec_seconds > 0 ? (double)st.instructions / st.exec_seconds : 0;
  fprintf(stderr, "load_s=%.6f exec_s=%.6f instructions=%llu instr_per_s=%.0f peak_rss_mb=%.1f\n", load_seconds,
          st.exec_seconds, (unsigned long long)st.instructions, ips, peak_rss_mb());
}

/* Sets the arguments and the NDRange, then runs the kernel, or debugs it when `debug` (commands
 * from `script`, then standard input); returns the exit status. `label` starts its messages, faults
 * and reports ("launch 2 of 3: " under --then, else ""). */
static int launch(const cli_run_cmd *c, spvi_module *m, int k, cli_arg *args, bool debug, const char *script,
                  const char *label) {
  spvi_error err = {SPVI_OK, ""};
  spvi_launch *l = spvi_launch_new(m, k, &err);
  if (!l) {
    cli_say_error("%s%s", label, err.message);
    return EXIT_BAD;
  }
  int status = EXIT_BAD;
  fflush(stdout);
  for (int i = 0; i < c->nargs; i++) {
    cli_arg *a = &args[i];
    spvi_status s;
    switch (a->kind) {
    case CLI_ARG_VALUE: s = spvi_set_arg_value(l, i, a->data, a->bytes, &err); break;
    /* memory objects (cli_args.c) that the launch uses in place: no copy */
    case CLI_ARG_BUFFER:
    case CLI_ARG_IMAGE: s = spvi_set_arg_mem(l, i, a->mem, &err); break;
    case CLI_ARG_NULL: s = spvi_set_arg_mem(l, i, NULL, &err); break; /* spvi.h: a null pointer */
    case CLI_ARG_SAMPLER: s = spvi_set_arg_sampler(l, i, &a->sampler, &err); break;
    default: s = spvi_set_arg_local(l, i, a->bytes, &err); break;
    }
    if (s != SPVI_OK) {
      char q[112];
      cli_say_error("%sarg%d `%s`: %s", label, i, cli_echo(c->args[i], q, sizeof q), err.message);
      goto done;
    }
    /* the launch holds the value's copy or its own reference to the object now: drop the
     * command's, so that the launch's buffers go with spvi_launch_free */
    if (a->kind != CLI_ARG_LOCAL) cli_arg_free(a);
  }
  if (spvi_set_ndrange(l, c->global.n, c->global.v, c->local.n ? c->local.v : NULL, c->offset.n ? c->offset.v : NULL,
                       &err) != SPVI_OK) {
    cli_say_error("%s%s", label, err.message);
    goto done;
  }
  spvi_run_options ro;
  memset(&ro, 0, sizeof ro);
  ro.warp_width = c->warp;
  ro.on_printf = print_kernel_output;
  ro.flush_denormals = c->flush_denormals;
  ro.on_trace = c->trace ? print_trace_line : NULL;
  ro.trace_filter = c->trace;
  ro.threads = c->threads;
  ro.group_begin = c->group_begin;
  ro.group_end = c->group_end;
  ro.checks = c->checks;
  ro.max_steps = c->max_steps;
  ro.max_memory = c->max_memory;
  ro.keep_going = c->keep_going;
  ro.subgroup_size = c->subgroup_size;
  ro.shard_index = c->shard_index;
  ro.shard_count = c->shard_count;
  if (debug && c->keep_going) {
    cli_say_error("--keep-going does not apply to `spvi debug`, which stops at every fault");
    goto done;
  }
  FILE *report = NULL;
  if (c->report && !(report = fopen(c->report, "w"))) {
    cli_say_error("--report %s: %s", c->report, strerror(errno));
    goto done;
  }
  spvi_fault fault;
  memset(&fault, 0, sizeof fault);
  if (debug) {
    /* the debugger always runs one work-item at a time on one thread: say so rather than ignore */
    if (c->warp > 1 || c->threads > 1 || c->trace || c->stats)
      fprintf(stderr, "spvi: note: under the debugger the kernel runs with warp width 1 on one thread; "
                      "--warp, --threads, --trace and --stats do not apply\n");
    ro.on_trace = NULL;
    int st = cli_debug_session(l, &ro, script, &fault);
    fflush(stdout);
    if (st < 0) status = EXIT_BAD;
    else if (st == SPVI_DEBUG_FAULTED) status = EXIT_FAULT;
    else if (st == SPVI_DEBUG_FINISHED) status = finish_outputs(c, l, args);
    else status = EXIT_OK;
    /* the reports the session stopped at (--check and the always-on ones) are findings, as in run;
     * the session showed them, --report also writes them */
    const size_t n = st < 0 ? 0 : spvi_report_count(l);
    for (size_t i = 0; report && i < n; i++) spvi_report_write_json(report, spvi_report_get(l, i), NULL);
    if (report && st == SPVI_DEBUG_FAULTED) spvi_fault_write_json(report, &fault, NULL);
    if (status == EXIT_OK && n) status = EXIT_FAULT;
    if (c->stats && st >= 0) print_stats(l);
    goto close_report;
  }
  /* progress on a terminal alone (not in logs), and not among --trace's lines */
  cli_progress *progress = cli_progress_start(l, !c->quiet && !c->trace && isatty(STDERR_FILENO));
  ro.printf_user = progress;
  spvi_status s = spvi_run(l, &ro, &fault, &err);
  cli_progress_stop(progress);
  size_t nreports = s == SPVI_OK || s == SPVI_FAULT ? spvi_report_count(l) : 0;
  fflush(stdout);
  for (size_t i = 0; i < nreports; i++) {
    const spvi_report *r = spvi_report_get(l, i);
    fprintf(stderr, "spvi: report: %s%s\n", label, r->message);
    if (report) spvi_report_write_json(report, r, NULL);
  }
  if (s == SPVI_FAULT) {
    size_t n = strlen(fault.message);
    fprintf(stderr, "spvi: fault: %s%s%s", label, fault.message[0] ? fault.message : spvi_fault_kind_name(fault.kind),
            n && fault.message[n - 1] == '\n' ? "" : "\n");
    if (report) spvi_fault_write_json(report, &fault, NULL);
    status = EXIT_FAULT;
  } else if (s != SPVI_OK) {
    cli_say_error("%s%s", label, err.message);
  } else if ((status = finish_outputs(c, l, args)) == EXIT_OK) {
    /* the outputs are written either way: they are what the kernel computed */
    status = nreports ? EXIT_FAULT : EXIT_OK;
  }
  if (c->stats && (s == SPVI_OK || s == SPVI_FAULT)) {
    fflush(stdout);
    print_stats(l);
  }
close_report:
  if (report && fclose(report) != 0) {
    cli_say_error("--report %s: %s", c->report, strerror(errno));
    status = EXIT_BAD;
  }
done:
  spvi_launch_free(l);
  return status;
}

/* One launch of `spvi run`: its options and ARGs (the part of the command line before, between or
 * after `--then` separators), the kernel they name and the parsed arguments. */
typedef struct run_seg {
  cli_run_cmd c;
  bool parsed_ok;
  int kernel;
  cli_arg *args;
  int nparsed;
} run_seg;

/* Message prefix naming the launch when there are several. */
static const char *seg_label(int i, int n, char *buf, size_t cap) {
  if (n == 1) return "";
  snprintf(buf, cap, "launch %d of %d: ", i + 1, n);
  return buf;
}

/* Parses launch i's options (argv of `run` after splitting at --then; the module is named once,
 * before the first --then, and put in front of the later launches' words) and checks the options
 * that belong to the whole command. */
static bool parse_segment(run_seg *sg, int i, int n, int argc, char **argv, const char *module, bool *help) {
  cli_error e;
  char lb[48];
  const char *label = seg_label(i, n, lb, sizeof lb);
  char **v = argv;
  char **owned = NULL;
  if (i > 0) {
    owned = malloc(sizeof *owned * (size_t)(argc + 1));
    if (!owned) {
      cli_say_error("out of memory");
      return false;
    }
    owned[0] = (char *)module;
    memcpy(owned + 1, argv, sizeof *owned * (size_t)argc);
    v = owned;
    argc++;
  }
  bool ok = cli_parse_run(argc, v, &sg->c, &e);
  if (ok && sg->c.help) *help = true;
  if (!ok) cli_say_error("%s%s", label, e.msg);
  else if (i > 0 && (sg->c.strict || sg->c.nspecs || sg->c.cl.first)) {
    cli_say_error("%s%s applies to loading the module: give it before the first --then", label,
                  sg->c.strict   ? "--strict"
                  : sg->c.nspecs ? "--spec"
                                 : sg->c.cl.first);
    ok = false;
  }
  free(owned);
  sg->parsed_ok = ok;
  return ok;
}

/* The kernel and the ARGs of one launch, checked against the module. */
static bool prepare_segment(run_seg *sg, int i, int n, spvi_module *m) {
  char lb[48];
  const char *label = seg_label(i, n, lb, sizeof lb);
  if (n > 1 && !sg->c.kernel && spvi_kernel_count(m) != 1) {
    cli_say_error("%s`%s` has %d kernels: choose one with -k", label, sg->c.module, spvi_kernel_count(m));
    return false;
  }
  sg->kernel = choose_kernel(m, sg->c.module, sg->c.kernel);
  if (sg->kernel < 0 || !check_arg_count(m, sg->kernel, sg->c.nargs, label)) return false;
  sg->args = calloc((size_t)sg->c.nargs + 1, sizeof *sg->args);
  if (!sg->args) {
    cli_say_error("out of memory");
    return false;
  }
  cli_error e;
  uint64_t held = 0; /* bytes of the buffers and images so far: within --max-memory before the next */
  for (; sg->nparsed < sg->c.nargs; sg->nparsed++) {
    const spvi_param_info *p = spvi_kernel_param(m, sg->kernel, sg->nparsed);
    /* a struct buffer takes structured .npy files and is shown field by field */
    spvi_struct *layout = p->kind == SPVI_PARAM_BUFFER ? spvi_param_struct(m, sg->kernel, sg->nparsed) : NULL;
    if (!cli_arg_for_struct_param(sg->c.args[sg->nparsed], p, layout, &sg->args[sg->nparsed], &e)) {
      spvi_struct_free(layout);
      char desc[256], q[112];
      cli_say_error("%sarg%d `%s` for parameter `%s`: %s", label, sg->nparsed,
                    cli_echo(sg->c.args[sg->nparsed], q, sizeof q), cli_param_desc(p, desc, sizeof desc), e.msg);
      return false;
    }
    if (sg->args[sg->nparsed].kind == CLI_ARG_BUFFER) sg->args[sg->nparsed].layout = layout;
    else spvi_struct_free(layout);
    if (sg->args[sg->nparsed].mem) held += sg->args[sg->nparsed].bytes; /* each below 2^30: no wrap */
    if (sg->c.max_memory && held > sg->c.max_memory) {
      cli_say_error("%sarg%d `%s`: the buffers and images up to it take %llu bytes, above --max-memory %llu", label,
                    sg->nparsed, sg->c.args[sg->nparsed], (unsigned long long)held,
                    (unsigned long long)sg->c.max_memory);
      sg->nparsed++; /* freed with the others */
      return false;
    }
  }
  return true;
}

static int run_or_debug(int argc, char **argv, bool debug) {
  const char *script = NULL;
  if (debug && (argc = cli_debug_take_script(argc, argv, &script)) < 0) {
    cli_say_error("-x needs a FILE of debugger commands");
    return EXIT_BAD;
  }
  /* `--then` separates launches run one after the other on the same module (spvi run only) */
  int nseg = 1;
  for (int i = 0; i < argc; i++) nseg += strcmp(argv[i], "--then") == 0;
  if (debug && nseg > 1) {
    cli_say_error("--then runs several launches: it is for spvi run, not spvi debug");
    return EXIT_BAD;
  }
  run_seg *segs = calloc((size_t)nseg, sizeof *segs);
  if (!segs) {
    cli_say_error("out of memory");
    return EXIT_BAD;
  }
  int status = EXIT_BAD;
  spvi_module *m = NULL;
  bool help = false, ok = true;
  for (int i = 0, start = 0, k = 0; i <= argc && ok; i++) {
    if (i < argc && strcmp(argv[i], "--then") != 0) continue;
    ok = parse_segment(&segs[k], k, nseg, i - start, argv + start, segs[0].c.module, &help);
    if (ok && k == 0 && help) break;
    k++;
    start = i + 1;
  }
  if (help) {
    fputs(debug ? usage_debug : usage_run, stdout);
    status = EXIT_OK;
    goto done;
  }
  if (!ok) goto done;
  /* Check every DIR first, so a bad --out is reported before a long run; none is created before
   * its launch succeeded (cli_out.c). */
  for (int k = 0; k < nseg; k++) {
    struct stat st;
    if (segs[k].c.out_dir && !cli_out_check(segs[k].c.out_dir)) goto done;
    if (segs[k].c.expect && (stat(segs[k].c.expect, &st) != 0 || !S_ISDIR(st.st_mode))) {
      cli_say_error("--expect `%s`: not a directory of expected .npy files", segs[k].c.expect);
      goto done;
    }
  }
  double t_load = now_seconds();
  m = load_module(segs[0].c.module, segs[0].c.strict, &segs[0].c, &segs[0].c.cl, debug);
  load_seconds = now_seconds() - t_load;
  if (!m) goto done;
  for (int k = 0; k < nseg; k++)
    if (!prepare_segment(&segs[k], k, nseg, m)) goto done;
  /* the launches in order; the first that does not succeed ends the command with its status */
  for (int k = 0; k < nseg; k++) {
    char lb[48];
    status = launch(&segs[k].c, m, segs[k].kernel, segs[k].args, debug, script, seg_label(k, nseg, lb, sizeof lb));
    if (status != EXIT_OK) {
      if (nseg > 1 && k + 1 < nseg)
        fprintf(stderr,
                "spvi: note: launch %d of %d (kernel `%s`) did not succeed; the launches after it did not run\n", k + 1,
                nseg, spvi_kernel_name(m, segs[k].kernel));
      break;
    }
  }
done:
  for (int k = 0; k < nseg; k++) {
    for (int i = 0; i < segs[k].nparsed; i++) {
      cli_arg_free(&segs[k].args[i]);
      spvi_struct_free(segs[k].args[i].layout);
    }
    free(segs[k].args);
    cli_run_cmd_free(&segs[k].c);
  }
  free(segs);
  if (m) spvi_module_free(m);
  return status;
}

static int cmd_run(int argc, char **argv) { return run_or_debug(argc, argv, false); }
static int cmd_debug(int argc, char **argv) { return run_or_debug(argc, argv, true); }

/* ---- entry ----------------------------------------------------------------------------------- */

static const struct {
  const char *name;
  int (*fn)(int argc, char **argv);
} commands[] = {
  {"run", cmd_run},        {"debug", cmd_debug},          {"info", cmd_info},      {"merge", cli_merge_main},
  {"exec", cli_exec_main}, {"compare", cli_compare_main}, {"test", cli_test_main},
};

int main(int argc, char **argv) {
  cli_heap_setup();
  if (argc < 2) {
    cli_say_error("missing command: run, debug, info, merge, compare, test or exec (see spvi --help)");
    return EXIT_BAD;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    fputs(usage_main, stdout);
    return EXIT_OK;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("spvi %s\n", SPVI_VERSION_STRING);
    return EXIT_OK;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp(cmd, commands[i].name) == 0) return commands[i].fn(argc - 2, argv + 2);
  char q[112];
  cli_say_error("unknown command `%s`: expected run, debug, info, merge, compare, test or exec (see spvi --help)",
                cli_echo(cmd, q, sizeof q));
  return EXIT_BAD;
}
