# spvi — one entry point: `make` (build/spvi, build/libspvi.a), `make check` (the whole test suite),
# `make SAN=1 check` (the same under ASan+UBSan, in build-san), `make example`.
#
# Variables: CC (default cc), BUILD (output directory, default build), SAN=1 (build with
# -fsanitize=address,undefined into build-san).

CC      ?= cc
PYTHON  ?= python3
GRAMMAR ?= /usr/include/spirv/unified1
ifeq ($(SAN),1)
BUILD   ?= build-san
# -fPIC: instrumented code refers to the sanitizer runtime's variables, which a shared library
# (libspvi-cl.so) can only reach through the GOT.
SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -fPIC
OPT     ?= -O1 -g
# No AVX2 copy of the executor here (EX_AVX2 below): the suite's sanitizer run is the baseline
# copy's run, the plain `make check` the AVX2 copy's on a CPU that has it.
else
BUILD   ?= build
SANFLAGS =
OPT     ?= -O2 -g
# The executor's handlers are loops over a warp's lanes: -O3 vectorises them (GCC's -O2 cost model
# does not, W being a run-time value); measured 25-30% faster on SGEMM and Mandelbrot. -O3 keeps
# ISO C floating-point semantics (no contraction with -std=c11), so results do not change.
HOT_OPT ?= -O3 -g
$(BUILD)/obj/interp/ex_exec.o: OPT := $(HOT_OPT)
# The executor a second time for AVX2 (four 64-bit or eight 32-bit lanes per operation against
# SSE2's two or four, and 64-bit compares), chosen at run time by ex_exec_warp (ex_exec.c, which
# says why the results are the same bits); x86-64 compilers only. -ffp-contract=off: Clang would
# otherwise fuse a * b + c within an expression once FMA instructions exist.
EX_AVX2 := $(if $(filter x86_64-%,$(shell $(CC) -dumpmachine)),$(BUILD)/obj/interp/ex_exec_avx2.o)
$(BUILD)/obj/interp/ex_exec_avx2.o: OPT := $(HOT_OPT) -mavx2 -mfma -mbmi -mbmi2 -ffp-contract=off -DEX_EXEC_AVX2
$(BUILD)/obj/interp/ex_exec.o: OPT += $(if $(EX_AVX2),-DEX_HAVE_AVX2)
# The checks' per-access loops (--check races/uninit) too: their share of a checked run is what the
# "checks overhead" goal measures.
$(BUILD)/obj/interp/ex_race.o $(BUILD)/obj/interp/ex_uninit.o $(BUILD)/obj/interp/ex_hooks.o: OPT := $(HOT_OPT)
# The batch kernel of float sin/cos/tan: -O3 vectorises its loop (two elements per SSE2 operation,
# four in its AVX2 copy).
$(BUILD)/obj/builtins/bi_math_trigf.o: OPT := $(HOT_OPT)
endif

CFLAGS_BASE = -std=c11 -D_POSIX_C_SOURCE=200809L -pthread -Wall -Wextra -Werror -fno-strict-aliasing $(OPT) $(SANFLAGS) \
              $(INCLUDES)
CFLAGS  += $(CFLAGS_BASE)
# Include paths per folder: a folder's objects see the headers of the layers below it and its own,
# so the boundaries are the compiler's to enforce. loader/ and builtins/ stand on the public API
# (include/) and the generated tables; interp/ on loader/ and builtins/ too; cli/ on the public API
# alone. Everything else built with CFLAGS (unit tests, bench/ programs, the tables) sees them all.
INCLUDES = -Iinclude -Iloader -Iinterp -Ibuiltins -I$(BUILD)/gen
$(BUILD)/obj/loader/%.o: INCLUDES = -Iinclude -Iloader -I$(BUILD)/gen
$(BUILD)/obj/builtins/%.o: INCLUDES = -Iinclude -Ibuiltins -I$(BUILD)/gen
$(BUILD)/obj/interp/%.o: INCLUDES = -Iinclude -Iloader -Ibuiltins -Iinterp -I$(BUILD)/gen
$(BUILD)/obj/cli/%.o: INCLUDES = -Iinclude -Icompile -Icli
# compile/ (OpenCL C -> SPIR-V through clang-14, opt-14, llvm-spirv-14 as child processes, and its
# build cache) stands on the public API alone; cli/ and opencl/ both compile source through it.
$(BUILD)/obj/compile/%.o: INCLUDES = -Iinclude -Icompile
# -fPIC: it reads `environ` (posix_spawn), a variable of libc that libspvi-cl.so can only reach
# through the GOT; it is not hot.
$(BUILD)/obj/compile/%.o: CFLAGS += -D_DEFAULT_SOURCE -fPIC
# debug/ (the debugger) stands on interp/ through its inspection header alone (interp/inspect/), and
# reads the loader's IR for symbols; never interp/'s internals.
$(BUILD)/obj/debug/%.o: INCLUDES = -Iinclude -Iloader -Iinterp/inspect -Idebug -I$(BUILD)/gen
# The library's objects are position-independent executable code (GCC's default here), which also
# links into libspvi-cl.so: every symbol they reference there is local to it (opencl/exports.map), so
# their PC-relative references need no dynamic relocation (-z text checks). -fPIC would cost 1.6x
# on the executor's dispatch loop (measured on mandelbrot). Only thread-local variables need the
# shared-object TLS model: those files (not hot) are compiled with -fPIC.
PIC_TLS = $(BUILD)/obj/builtins/bi_math_mp.o $(BUILD)/obj/builtins/bi_printf_num.o
$(PIC_TLS): OPT += -fPIC
LDLIBS  = -lSPIRV-Tools -lmpfr -lgmp -lstdc++ -lm -lpthread
LDFLAGS += $(SANFLAGS)

GEN     = $(BUILD)/gen/gen_spv_tables.h $(BUILD)/gen/gen_spv_tables.c
LIB_SRC = $(wildcard loader/*.c interp/*.c builtins/*.c debug/*.c compile/*.c)
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/gen_spv_tables.o $(EX_AVX2)
CLI_SRC = $(wildcard cli/*.c)
CLI_OBJ = $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_SRC = $(wildcard tests/unit/test_*.c)
TEST_BIN = $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TEST_LIB_OBJ = $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard tests/unit/lib/*.c))
TEST_LIB = $(BUILD)/tests/libunit.a

CL_SRC  = $(wildcard opencl/*.c)
CL_OBJ  = $(CL_SRC:%.c=$(BUILD)/obj/%.o)
CLTEST_SRC = $(wildcard tests/opencl/test_*.c)
CLTEST_BIN = $(CLTEST_SRC:tests/opencl/%.c=$(BUILD)/cltests/%)

.PHONY: all check clean example conformance install opencl-check
all: $(BUILD)/spvi $(BUILD)/libspvi.a $(BUILD)/libspvi-cl.so $(BUILD)/libspvi.so

$(GEN): tools/gen_tables.py
	@mkdir -p $(BUILD)/gen
	$(PYTHON) tools/gen_tables.py $(GRAMMAR) $(BUILD)/gen

$(BUILD)/obj/gen/gen_spv_tables.o: $(BUILD)/gen/gen_spv_tables.c $(GEN)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/%.o: %.c $(GEN)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/interp/ex_exec_avx2.o: interp/ex_exec.c $(GEN)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libspvi.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

# -ledit (libedit: line editing and history for `spvi debug` on a terminal), -lcjson (cJSON:
# `spvi compare --json`, `spvi test`'s JSON case files and SARIF), -lyaml (libyaml: YAML case
# files) and -lpng (libpng: the PNG pictures `--out` writes of images, cli/cli_png.c) are the
# command's alone; the library does not need them.
CLI_LDLIBS = -ledit -lcjson -lyaml -lpng
# The command (not the library, which must not change its host's allocator) allocates through
# mimalloc (libmimalloc-dev) when it is installed: a third of SPIRV-Tools' validator, most of the
# time to load a large module, is glibc's malloc and free (1 MiB module: 65 -> 54 ms on 2 cores,
# 116 -> 90 ms on one; docs/performance.md, round three). Listed before the C library so that its
# malloc serves the whole process; --no-as-needed because nothing calls it by name. Not under the
# sanitizers, which bring their own allocator. MIMALLOC=0 keeps glibc's (then cli/cli_heap.c tunes it).
MIMALLOC ?= $(if $(SANFLAGS),0,$(if $(wildcard /usr/include/mimalloc.h),1,0))
ifeq ($(MIMALLOC),1)
CLI_MALLOC = -Wl,--push-state,--no-as-needed -lmimalloc -Wl,--pop-state
$(BUILD)/obj/cli/cli_heap.o: CFLAGS += -DSPVI_MIMALLOC
endif
$(BUILD)/spvi: $(CLI_OBJ) $(BUILD)/libspvi.a
	$(CC) $(LDFLAGS) $(CLI_OBJ) $(CLI_MALLOC) $(BUILD)/libspvi.a $(LDLIBS) $(CLI_LDLIBS) -o $@

# The OpenCL platform (opencl/, docs/opencl-platform.md): an ICD for the ocl-icd/Khronos loaders
# that can also be linked directly. Only the OpenCL entry points are exported (exports.map), and
# -Bsymbolic binds the library's own calls to itself, never to a loader's functions of the same name.
# The layer sees the public API alone: no -Iloader/-Iinterp/-Ibuiltins for its objects. They are
# -fPIC: the exported entry points must be preemptible-safe.
CL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -pthread -Wall -Wextra -Werror -fno-strict-aliasing \
            -fPIC $(OPT) $(SANFLAGS) -Iinclude -Icompile -Iopencl
$(BUILD)/obj/opencl/%.o: CFLAGS = $(CL_CFLAGS)
$(BUILD)/libspvi-cl.so: $(CL_OBJ) $(BUILD)/libspvi.a opencl/exports.map
	$(CC) -shared $(LDFLAGS) -Wl,-z,text -Wl,-Bsymbolic -Wl,--version-script=opencl/exports.map -Wl,-soname,libspvi-cl.so \
	  $(CL_OBJ) $(BUILD)/libspvi.a $(LDLIBS) -o $@

# The library as a shared object, for programs that load it at run time (the Python package,
# python/spvi/, through ctypes: docs/python.md): built from the same objects as libspvi-cl.so (so the
# same -z text / -Bsymbolic reasoning lets their position-independent executable code in), every
# object (not only those an archive member pulls), exporting the public API alone (include/spvi.map).
$(BUILD)/libspvi.so: $(LIB_OBJ) include/spvi.map
	$(CC) -shared $(LDFLAGS) -Wl,-z,text -Wl,-Bsymbolic -Wl,--version-script=include/spvi.map -Wl,-soname,libspvi.so \
	  $(LIB_OBJ) $(LDLIBS) -o $@

# OpenCL host test programs (tests/opencl/test_*.c), linked with the system's ICD loader (-lOpenCL)
# like any application; tests/opencl/run.sh points the loader at $(BUILD)/libspvi-cl.so alone.
$(BUILD)/cltests/%: tests/opencl/%.c tests/opencl/cltest.c $(BUILD)/libspvi-cl.so
	@mkdir -p $(dir $@)
	$(CC) $(CL_CFLAGS) -Itests/opencl -MMD -MP $< $(wildcard tests/opencl/$*_*.c) tests/opencl/cltest.c $(LDFLAGS) -lcmocka -lOpenCL -lm -lpthread -o $@

# test_compile tests the compiler driver (compile/clc_compile.c, its cache clc_cache.c) directly, not
# through the loader; it is also tests/opencl/compile_corpus.py's driver.
# (clc_source.c, spvi_load_source, is the layer's one user of the loader: not part of the driver.)
CLC_OBJ = $(filter-out $(BUILD)/obj/compile/clc_source.o,$(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard compile/*.c)))
$(BUILD)/cltests/test_compile: tests/opencl/test_compile.c $(CLC_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CL_CFLAGS) -MMD -MP $< $(CLC_OBJ) $(LDFLAGS) -lcmocka -lpthread -o $@

opencl-check: all $(CLTEST_BIN)
	@BUILD=$(BUILD) sh tests/opencl/run.sh

# The folders whose files form layers (docs at the top of loader/ld_internal.h): no file calls or
# includes, directly or not, a file that calls or includes it back. tools/layers.py reads the
# objects' symbols (nm) and the sources' #include lines; it names the files of any cycle.
LAYERED_DIRS = loader interp builtins cli debug compile
LAYERED_OBJ = $(patsubst %.c,$(BUILD)/obj/%.o,$(foreach d,$(LAYERED_DIRS),$(wildcard $(d)/*.c)))
.PHONY: layers-check
layers-check: $(LAYERED_OBJ)
	$(PYTHON) tools/layers.py --obj $(BUILD)/obj $(LAYERED_DIRS)

# Formatting: the C sources follow .clang-format (clang-format 14). `make format` rewrites them in
# place; `make format-check` (CI) lists the files that differ from clang-format's output and fails.
CLANG_FORMAT ?= clang-format-14
FORMAT_DIRS   = interp loader builtins cli opencl compile include debug tests bench
FORMAT_SRC    = $(shell find $(wildcard $(FORMAT_DIRS)) -name '*.[ch]' | sort)
.PHONY: format format-check
format:
	$(CLANG_FORMAT) --style=file -i $(FORMAT_SRC)

format-check:
	@command -v $(CLANG_FORMAT) >/dev/null || { echo "format-check: $(CLANG_FORMAT) not found (sh tools/setup.sh)" >&2; exit 1; }
	@bad=$$(for f in $(FORMAT_SRC); do $(CLANG_FORMAT) --style=file --dry-run -Werror "$$f" >/dev/null 2>&1 || echo "$$f"; done); \
	if [ -n "$$bad" ]; then \
	  echo "format-check: these files differ from $(CLANG_FORMAT)'s output (make format fixes them):" >&2; \
	  echo "$$bad" | sed 's/^/  /' >&2; exit 1; \
	fi; echo "format-check: $(words $(FORMAT_SRC)) files formatted"

# make install [PREFIX=/usr/local] [DESTDIR=]: the command, the libraries, the header, and the ICD
# registration /etc/OpenCL/vendors/spvi.icd naming the installed libspvi-cl.so.
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PREFIX)/include $(DESTDIR)/etc/OpenCL/vendors
	install -m 755 $(BUILD)/spvi $(DESTDIR)$(PREFIX)/bin/spvi
	install -m 644 $(BUILD)/libspvi.a $(DESTDIR)$(LIBDIR)/libspvi.a
	install -m 755 $(BUILD)/libspvi-cl.so $(DESTDIR)$(LIBDIR)/libspvi-cl.so
	install -m 755 $(BUILD)/libspvi.so $(DESTDIR)$(LIBDIR)/libspvi.so
	install -m 644 include/spvi.h $(DESTDIR)$(PREFIX)/include/spvi.h
	echo $(LIBDIR)/libspvi-cl.so > $(DESTDIR)/etc/OpenCL/vendors/spvi.icd

# Unit tests: one cmocka program per tests/unit/test_*.c. A test may reach into the library's
# internal headers (it links the static library). Helpers shared by several tests (the kernel and
# checks harnesses, ...) are ordinary .c/.h pairs in tests/unit/lib/: compiled once into
# $(TEST_LIB), which every test links (the linker takes the helpers a test uses).
$(TEST_LIB): $(TEST_LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/tests/%: tests/unit/%.c $(TEST_LIB) $(BUILD)/libspvi.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit/lib -MMD -MP $< $(TEST_LIB) $(BUILD)/libspvi.a $(LDFLAGS) -lcmocka $(LDLIBS) -o $@

# The command's own modules (tests/unit/test_cli_*.c) are tested as the command links them: its
# objects without main.o, in an archive (the linker takes the modules a test uses), headers from cli/.
CLI_LIB = $(BUILD)/tests/libcli.a
$(CLI_LIB): $(filter-out $(BUILD)/obj/cli/main.o,$(CLI_OBJ))
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/tests/test_cli_%: tests/unit/test_cli_%.c $(CLI_LIB) $(TEST_LIB) $(BUILD)/libspvi.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit/lib -Icli -MMD -MP $< $(CLI_LIB) $(TEST_LIB) $(BUILD)/libspvi.a $(LDFLAGS) -lcmocka $(LDLIBS) -lcjson -o $@

# Fuzzing (tests/fuzz/, docs/fuzzing.md). Each harness tests/fuzz/fuzz_NAME.c is built twice: as
# $(BUILD)/fuzz/replay-NAME with this build's compiler and flags (replay.c's main: `make check`
# replays tests/fuzz/regress/NAME/ and tests/fuzz/seeds/NAME/ with it, under the sanitizers with
# SAN=1), and by `make fuzz` as $(FUZZ_BUILD)/fuzz/fuzz-NAME, linked with libFuzzer: the library
# rebuilt with clang-14 and -fsanitize=fuzzer-no-link,address,undefined in $(FUZZ_BUILD).
FUZZ_ALL    = api run cli debug opencl
FUZZ_REPLAY = $(FUZZ_ALL:%=$(BUILD)/fuzz/replay-%)
FUZZ_DEPS   = tests/fuzz/fuzz.h tests/fuzz/fuzz_util.c $(BUILD)/libspvi.a
# what a harness links beyond the library: the command's modules (and cJSON, which they use), the
# OpenCL platform's objects, the debugger harness's module
FUZZ_LIBS_cli    = $(CLI_LIB)
FUZZ_LDLIBS_cli  = -lcjson
FUZZ_LIBS_opencl = $(CL_OBJ)
FUZZ_HDR_debug   = $(BUILD)/fuzz/fuzz_debug_module.h
FUZZ_CFLAGS = $(CFLAGS) -Itests/fuzz -Icli -I$(BUILD)/fuzz

$(BUILD)/fuzz/debug_kernel.spv: tests/fuzz/debug_kernel.cl
	@mkdir -p $(dir $@)
	clang-14 -cl-std=CL2.0 -target spir64 -emit-llvm -c -O0 -g -Xclang -finclude-default-header $< -o $(@:.spv=.bc)
	llvm-spirv-14 $(@:.spv=.bc) -o $@

$(BUILD)/fuzz/fuzz_debug_module.h: $(BUILD)/fuzz/debug_kernel.spv
	$(PYTHON) -c 'import sys; d = open(sys.argv[1], "rb").read(); print("/* generated from tests/fuzz/debug_kernel.cl */\nstatic const unsigned char fuzz_debug_module[] = {%s};" % ",".join(map(str, d)))' $< > $@

.SECONDEXPANSION:
$(BUILD)/fuzz/replay-%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(FUZZ_DEPS) $$(FUZZ_LIBS_$$*) $$(FUZZ_HDR_$$*)
	@mkdir -p $(dir $@)
	$(CC) $(FUZZ_CFLAGS) $< tests/fuzz/fuzz_util.c tests/fuzz/replay.c $(FUZZ_LIBS_$*) $(BUILD)/libspvi.a $(LDFLAGS) $(LDLIBS) $(FUZZ_LDLIBS_$*) -o $@

$(BUILD)/fuzz/fuzz-%: tests/fuzz/fuzz_%.c $(FUZZ_DEPS) $$(FUZZ_LIBS_$$*) $$(FUZZ_HDR_$$*)
	@mkdir -p $(dir $@)
	$(CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< tests/fuzz/fuzz_util.c $(FUZZ_LIBS_$*) $(BUILD)/libspvi.a $(LDFLAGS) $(LDLIBS) $(FUZZ_LDLIBS_$*) -o $@

# make fuzz [FUZZ=api,run] [FUZZ_TIME=60]: builds the fuzzers in $(FUZZ_BUILD), the seed corpus
# and the SPIR-V dictionary (the text harnesses' are tests/fuzz/NAME.dict), then runs each chosen
# harness for FUZZ_TIME seconds, one after the other, one process each, at nice 19. The working
# corpus $(FUZZ_BUILD)/corpus/NAME grows from run to run; crashes are written to
# $(FUZZ_BUILD)/findings/NAME/ and fail the target. FUZZ_ARGS: more libFuzzer options.
# `make fuzz-ci` is CI's short run.
FUZZ       ?= $(subst $(cts_space),$(cts_comma),$(FUZZ_ALL))
FUZZ_TIME  ?= 60
FUZZ_BUILD ?= build-fuzz
FUZZ_CC    ?= clang-14
# -Wno-bitwise-instead-of-logical: clang 14's warning about `&` on comparisons, which the branch-free
# code of the builtins (bi_math_trigf.c) means.
FUZZ_SAN    = -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -fPIC \
              -Wno-bitwise-instead-of-logical
FUZZ_ARGS  ?=
# The fuzz build compiles the executor's dispatch loop at -O0: clang 14 with the sanitizers needs
# more than 4.5 CPU-minutes for it at -O1 (stopped unfinished there), 42 s at -O0.
$(FUZZ_BUILD)/obj/interp/ex_exec.o: override OPT = -O0 -g
FUZZ_LIST   = $(subst $(cts_comma),$(cts_space),$(FUZZ))
.PHONY: fuzz fuzz-ci fuzz-build fuzz-corpus
fuzz-build:
	$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) SAN= SANFLAGS="$(FUZZ_SAN)" OPT="-O1 -g" EX_AVX2= \
	  HOT_OPT="-O1 -g" $(FUZZ_LIST:%=$(FUZZ_BUILD)/fuzz/fuzz-%) $(FUZZ_BUILD)/fuzz/spirv.dict

$(FUZZ_BUILD)/fuzz/spirv.dict: tools/gen_tables.py
	@mkdir -p $(dir $@)
	$(PYTHON) tools/gen_tables.py --dict $(GRAMMAR) $@

# The seed corpus: every test kernel the test build compiles ($(BUILD)/kernels), every
# tests/spvasm*/ case assembled (each for the lowest SPIR-V version it assembles for), the
# debugger harness's kernel, and the hand-written seeds of tests/fuzz/seeds/NAME/.
fuzz-corpus:
	@BUILD=$(BUILD) sh tests/kernels/build.sh >/dev/null
	@BUILD=$(BUILD) FUZZ_BUILD=$(FUZZ_BUILD) sh tests/fuzz/corpus.sh $(FUZZ_LIST)

fuzz: fuzz-build fuzz-corpus
	@for h in $(FUZZ_LIST); do \
	  mkdir -p $(FUZZ_BUILD)/findings/$$h; \
	  dict=$(FUZZ_BUILD)/fuzz/spirv.dict; [ -f tests/fuzz/$$h.dict ] && dict=tests/fuzz/$$h.dict; \
	  echo "== fuzz-$$h: $(FUZZ_TIME) s"; \
	  nice -n 19 $(FUZZ_BUILD)/fuzz/fuzz-$$h -max_total_time=$(FUZZ_TIME) -timeout=10 -rss_limit_mb=2048 \
	    -malloc_limit_mb=2048 -dict=$$dict -artifact_prefix=$(FUZZ_BUILD)/findings/$$h/ -print_final_stats=1 \
	    $(FUZZ_ARGS) $(FUZZ_BUILD)/corpus/$$h $(FUZZ_BUILD)/seeds/$$h || exit 1; \
	done

fuzz-ci:
	$(MAKE) --no-print-directory fuzz FUZZ_TIME=20

check: all layers-check $(TEST_BIN) $(CLTEST_BIN) $(FUZZ_REPLAY)
	@BUILD=$(BUILD) sh tests/run_all.sh

# The bundled example: compile examples/saxpy.cl and run it on a small range, printing the buffers.
example: all
	@mkdir -p $(BUILD)/examples
	clang-14 -cl-std=CL2.0 -target spir64 -emit-llvm -c -O2 -Xclang -finclude-default-header \
	  examples/saxpy.cl -o $(BUILD)/examples/saxpy.bc
	llvm-spirv-14 $(BUILD)/examples/saxpy.bc -o $(BUILD)/examples/saxpy.spv
	$(BUILD)/spvi run $(BUILD)/examples/saxpy.spv -g 8 float:2 'float[8]=range(0)' 'float[8]=fill(1)' 'int[8]' --print

# The piglit OpenCL suite (tests/conformance/run.py): compiles every test program into
# $(BUILD)/conformance (cached by content hash), runs every [test] section with spvi and compares
# the failures with tests/conformance/expected-failures.txt. PIGLIT: the corpus root.
# Then the load test (run.py --load) on every LOAD_SAMPLE-th .cl file of the corpora (CORPUS): each
# compiled by clang-14 + llvm-spirv-14 and clang-15 + llvm-spirv-15 at -O0 and -O2, every module the
# translator writes must load in spvi or fail with a reason listed in tests/conformance/load-known.txt.
# `make corpus-load` runs it on every file (docs/conformance.md "The load test").
CORPUS ?= ../shared/corpus
PIGLIT ?= $(CORPUS)/piglit
LOAD_SAMPLE ?= 16
.PHONY: corpus-load
conformance: $(BUILD)/spvi
	$(PYTHON) tests/conformance/run.py --spvi $(BUILD)/spvi --build $(BUILD)/conformance \
	  --corpus $(PIGLIT) -j 2
	$(PYTHON) tests/conformance/run.py --load --spvi $(BUILD)/spvi --build $(BUILD)/conformance \
	  --load-corpus $(CORPUS) --load-sample $(LOAD_SAMPLE) -j 2

corpus-load: $(BUILD)/spvi
	$(PYTHON) tests/conformance/run.py --load --spvi $(BUILD)/spvi --build $(BUILD)/conformance \
	  --load-corpus $(CORPUS) -j 2

# The Khronos OpenCL CTS on spvi's platform (tools/cts.py, docs/conformance.md "The OpenCL CTS"):
# builds the suites asked for from $(CTS_SRC) in CTS_BUILD (cmake + ninja, cached, at most the
# machine's cores), runs each sub-test as its own process through the ICD loader and writes
# $(BUILD)/cts/results.md (the table), results.txt (per sub-test) and logs/. SUITES: comma-separated
# suites (default: the issue's list), TEST: sub-tests (NAME or SUITE:NAME), WIMPY=1: the CTS's
# reduced mode (-w), CTS_TIMEOUT: seconds per sub-test, CTS_RUN_JOBS: sub-tests at a time, POCL=1:
# also on PoCL, CTS_ARGS: more options of tools/cts.py (-h).
CTS_SRC     ?= ../shared/opencl-cts
CTS_BUILD   ?= $(BUILD)/cts/build
CTS_TIMEOUT ?= 600
CTS_RUN_JOBS ?= 1
.PHONY: cts
cts: $(BUILD)/libspvi-cl.so
	$(PYTHON) tools/cts.py --icd $(BUILD)/libspvi-cl.so --cts-src $(CTS_SRC) --build-dir $(CTS_BUILD) \
	  --out $(BUILD)/cts --timeout $(CTS_TIMEOUT) --run-jobs $(CTS_RUN_JOBS) \
	  $(if $(SUITES),--suites $(SUITES)) $(if $(TEST),--test $(TEST)) $(if $(filter 1,$(WIMPY)),--wimpy) \
	  $(if $(filter 1,$(POCL)),--pocl) $(CTS_ARGS)

# The CTS subset CI runs (docs/conformance.md "The CTS in CI"): the CTS_CI_SUITES, compiled at -O0
# (2.4 times less CPU to build; their host code is not what a run on spvi spends its time on) in
# their own cached build directory, run in the CTS's reduced mode, as many sub-tests at a time as
# the machine has cores, each killed after CTS_CI_TIMEOUT seconds. Fails on any failure, crash or
# timeout, and when a suite runs no sub-test. Results in $(BUILD)/cts-ci. CTS_CI_EXCLUDE: the
# test_basic sub-tests still too slow for CI (imagedim_*: 10^9 work-items over images up to
# 16384^2, 3 and 8 minutes on 2 cores, with host checks that a -O0 build slows) and
# bufferreadwriterect (a CTS bug: it checks overlap with other pitches than it passes), each in
# docs/conformance.md; `make cts` runs them.
CTS_CI_SUITES  ?= test_spirv_new,test_basic,test_api
CTS_CI_EXCLUDE ?= $(addprefix test_basic:,imagedim_pow2 imagedim_non_pow2 bufferreadwriterect)
CTS_CI_TIMEOUT ?= 300
cts_comma := ,
cts_space := $(subst ,, )
CTS_CI_BUILD   ?= $(BUILD)/cts-ci/build
.PHONY: cts-ci
cts-ci: $(BUILD)/libspvi-cl.so
	$(PYTHON) tools/cts.py --icd $(BUILD)/libspvi-cl.so --cts-src $(CTS_SRC) --build-dir $(CTS_CI_BUILD) \
	  --opt=-O0 --out $(BUILD)/cts-ci --suites $(CTS_CI_SUITES) --wimpy --timeout $(CTS_CI_TIMEOUT) \
	  --run-jobs $$(nproc) --exclude $(subst $(cts_space),$(cts_comma),$(strip $(CTS_CI_EXCLUDE))) $(CTS_ARGS)

# Benchmarks: the kernel suite against PoCL and Oclgrind (bench/run.sh; table in
# $(BUILD)/bench/results.md), then the math builtins benchmark when the Makefile has its
# `math-bench` target. `sh tools/setup.sh --bench` installs PoCL, Oclgrind and the OpenCL headers.
.PHONY: bench
bench: all
	BUILD=$(BUILD) CC="$(CC)" sh bench/run.sh
	@if $(MAKE) -n math-bench >/dev/null 2>&1; then $(MAKE) --no-print-directory math-bench; \
	else echo "bench: no math-bench target: math builtins benchmark skipped"; fi

# The correctly rounded math builtins: `math-bench` times them against the host libm (bench/
# math_bench.c; fails if float sin/exp/log/pow cost more than 3x the double libm call); `soak`
# checks them on many more inputs than `make check` against MPFR and validates the error bounds the
# fast paths assume (bench/math_soak.c). SOAK_N: float inputs per function (default 10^8; double
# gets SOAK_N/100), SOAK_JOBS: processes (default 2), SOAK_FUNCS: OpenCL.std names to restrict to.
SOAK_N ?= 100000000
SOAK_JOBS ?= 2
SOAK_FUNCS ?=
.PHONY: math-bench soak
$(BUILD)/bench/math_%: bench/math_%.c $(BUILD)/libspvi.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< $(BUILD)/libspvi.a $(LDFLAGS) $(LDLIBS) -o $@

math-bench: $(BUILD)/bench/math_bench
	$(BUILD)/bench/math_bench

# bench/math_trigf_exhaustive.c (built by the math_% rule, run by hand: `make
# build/bench/math_trigf_exhaustive && build/bench/math_trigf_exhaustive -j 2`, about 2 minutes on
# two cores) checks the float sin/cos/tan batch kernel on every float up to 2^21.
$(BUILD)/bench/half_exhaustive: bench/half_exhaustive.c $(BUILD)/libspvi.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< $(BUILD)/libspvi.a $(LDFLAGS) $(LDLIBS) -o $@

# soak: the math builtins on SOAK_N inputs each, then every float -> half conversion in all four
# rounding modes (2^34 conversions, about 5 minutes on two cores)
soak: $(BUILD)/bench/math_soak $(BUILD)/bench/half_exhaustive
	$(BUILD)/bench/math_soak -n $(SOAK_N) -j $(SOAK_JOBS) $(SOAK_FUNCS)
	$(BUILD)/bench/half_exhaustive -j $(SOAK_JOBS)

clean:
	rm -rf build build-san $(FUZZ_BUILD)

-include $(shell find $(BUILD)/obj $(BUILD)/tests $(BUILD)/cltests -name '*.d' 2>/dev/null)
