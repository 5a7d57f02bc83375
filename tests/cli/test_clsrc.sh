#!/bin/sh
# test_clsrc.sh — `spvi run|debug|info KERNEL.cl`: OpenCL C compiled by spvi itself through the
# compile layer (docs/cli.md "OpenCL C input"), and what spvi says about files that are neither
# SPIR-V nor OpenCL C. The kernels are tests/cli/clsrc/*.cl; every expected value is worked out by
# hand from their source.
#
# usage: BUILD=build sh tests/cli/test_clsrc.sh      (prints "N passed, N failed"; exit 1 on failure)
#
# Messages quote names in backticks, which the expectations spell literally:
# shellcheck disable=SC2016
set -u
BUILD=${BUILD:-build}
SPVI=${SPVI:-$BUILD/spvi}
SPVI=$(cd "$(dirname "$SPVI")" && pwd)/$(basename "$SPVI")
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d /tmp/spvi-clsrc-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT INT TERM
# The build cache in a directory of the test's own, so that its entries are observable.
export SPVI_CACHE_DIR="$TMP/cache"
unset SPVI_CACHE

passed=0
failed=0
. "$HERE/lib.sh"

cp -R "$HERE/clsrc" "$TMP/k"
cd "$TMP/k" || exit 1

# --- run: #include "scale.h" from the file's directory, -D; out = in * k * FACTOR + BIAS ----------
# in = 0 1 2 3, k = 2, FACTOR = 3 (scale.h), BIAS = 1: 6i + 1.
if run 0 run scale.cl -D BIAS=1 -g 4 'int[4]=range(0)' 'int[4]' int:2 --print; then
  expect_out 'arg0 int[4]: 0 1 2 3
arg1 int[4]: 1 7 13 19'
fi
# from another directory, the glued spellings -DNAME=V and -O0: the include is still found next to
# the file, not in the working directory
cd "$TMP" || exit 1
if run 0 run k/scale.cl -DBIAS=-1 -O0 -g 2 'int[2]=5,6' 'int[2]' int:1 --print; then
  expect_out 'arg0 int[2]: 5 6
arg1 int[2]: 14 17'
fi
# -I DIR for #include <incdir.h>: 40 + 2
if run 0 run k/useinc.cl -I k/inc -g 2 'int[2]' --print; then
  expect_out 'arg0 int[2]: 42 42'
fi
if run 2 run k/useinc.cl -g 2 'int[2]'; then
  expect_err "k/useinc.cl:1:10: fatal error: 'incdir.h' file not found"
fi
cd "$TMP/k" || exit 1

# --- compiler diagnostics: the user's file and line, exit status 2 ----------------------------------
# bad.cl line 3 is `  p[0] = a + missing_name;`: 2 blanks and `p[0] = a + ` (11 characters) before
# the name, which starts in column 14
if run 2 run bad.cl -g 1 'int[1]'; then
  expect_err "bad.cl:3:14: error: use of undeclared identifier 'missing_name'"
  expect_err 'spvi: error: `bad.cl` did not compile'
  expect_no_err 'input.cl'
fi
# without -D BIAS, scale.cl line 5 `  out[i] = v + BIAS;` fails at column 16 (2 + 13 characters before)
if run 2 info scale.cl; then
  expect_err "scale.cl:5:16: error: use of undeclared identifier 'BIAS'"
fi
# a file name with a blank and a quote: diagnostics and includes still work
mkdir -p "$TMP/a b" && cp scale.cl scale.h "$TMP/a b/" && cp bad.cl "$TMP/a b/it's.cl"
if run 0 run "$TMP/a b/scale.cl" -D 'BIAS=(1 + 1)' -g 1 'int[1]=1' 'int[1]' int:1 --print; then
  expect_out 'arg0 int[1]: 1
arg1 int[1]: 5'
fi
if run 2 run "$TMP/a b/it's.cl" -g 1 'int[1]'; then
  expect_err "$TMP/a b/it's.cl:3:14: error: use of undeclared identifier 'missing_name'"
fi
# bad options: named, status 2
if run 2 run scale.cl --cl-std=CL9.9 -g 1 'int[1]' 'int[1]' int:1; then
  expect_err 'invalid build option `-cl-std=CL9.9`: the versions are CL1.0, CL1.1, CL1.2, CL2.0 and CL3.0'
fi
if run 2 run scale.cl -O4 -g 1 'int[1]' 'int[1]' int:1; then
  expect_err '-O4: the levels are -O0, -O1, -O2 and -O3'
fi
if run 2 run scale.cl --build-options '-cl-no-such-thing' -g 1 'int[1]' 'int[1]' int:1; then
  expect_err 'invalid build option `-cl-no-such-thing`: unknown option'
fi

# --- --cl-std, --build-options: a CL2.0-only kernel (a generic pointer) --------------------------
cat >gen.cl <<'K'
int first(int *p) { return p[0]; }
kernel void gen(global int *p) { p[1] = first(p) + 1; }
K
if run 0 run gen.cl --cl-std=CL2.0 -g 1 'int[2]=41,0' --print; then
  expect_out 'arg0 int[2]: 41 42'
fi
if run 0 run gen.cl --build-options '-cl-std=CL3.0 -cl-mad-enable' -g 1 'int[2]=1,0' --print; then
  expect_out 'arg0 int[2]: 1 2'
fi

# --- the build cache: an entry appears; the second run spawns no compiler; an edited header is a miss
mkdir -p "$TMP/bin"
printf '#!/bin/sh\necho clang >>"%s/tools.log"\nexec /usr/lib/llvm-14/bin/clang "$@"\n' "$TMP" >"$TMP/bin/clang"
chmod +x "$TMP/bin/clang"
cp -R "$HERE/clsrc" "$TMP/c"
clangs() { if [ -f "$TMP/tools.log" ]; then grep -c clang "$TMP/tools.log"; else echo 0; fi; }
entries() { find "$TMP/cache" -type f ! -name '*.tmp.*' 2>/dev/null | wc -l; }
before=$(entries)
if SPVI_LLVM_BIN="$TMP/bin" run 0 run "$TMP/c/scale.cl" -D BIAS=0 -g 1 'int[1]=1' 'int[1]' int:1 --print; then
  expect_out 'arg0 int[1]: 1
arg1 int[1]: 3'
  if [ "$(clangs)" -eq 1 ]; then ok; else fail "the first build ran clang $(clangs) times, expected 1"; fi
  if [ "$(entries)" -gt "$before" ]; then ok; else fail "no cache entry appeared in $TMP/cache"; fi
fi
if SPVI_LLVM_BIN="$TMP/bin" run 0 run "$TMP/c/scale.cl" -D BIAS=0 -g 1 'int[1]=1' 'int[1]' int:1 --print; then
  expect_out 'arg0 int[1]: 1
arg1 int[1]: 3'
  if [ "$(clangs)" -eq 1 ]; then ok; else fail "the second build ran clang (cache miss): $(clangs) runs"; fi
fi
# the included header changes: a miss, and the new FACTOR (5) is used
sleep 1
echo '#define FACTOR 5' >"$TMP/c/scale.h"
if SPVI_LLVM_BIN="$TMP/bin" run 0 run "$TMP/c/scale.cl" -D BIAS=0 -g 1 'int[1]=1' 'int[1]' int:1 --print; then
  expect_out 'arg0 int[1]: 1
arg1 int[1]: 5'
  if [ "$(clangs)" -eq 2 ]; then ok; else fail "an edited header did not rebuild: $(clangs) clang runs"; fi
fi
# SPVI_CACHE=0: always built
if SPVI_CACHE=0 SPVI_LLVM_BIN="$TMP/bin" run 0 run "$TMP/c/scale.cl" -D BIAS=0 -g 1 'int[1]=1' 'int[1]' int:1; then
  if [ "$(clangs)" -eq 3 ]; then ok; else fail "SPVI_CACHE=0 served a cached build: $(clangs) clang runs"; fi
fi

# --- debug: -O0 -g by default, breakpoints on the .cl file's lines ---------------------------------
# scale.cl line 4 computes v = in[i] * k * FACTOR: for i = 2, in = 0 1 2 3 and k = 2, v = 12
printf 'break scale.cl:5 if i == 2\ncontinue\nprint v\nquit\n' >cmds
if run 0 debug scale.cl -x cmds -D BIAS=1 -g 4 'int[4]=range(0)' 'int[4]' int:2; then
  expect_out_has 'Breakpoint 1 at scale.cl:5'
  expect_out_has 'v = (int) 12'
fi
printf 'break 4\ncontinue\nlist 4,4\nquit\n' >cmds
if run 0 debug scale.cl -x cmds -D BIAS=1 -g 1 'int[1]' 'int[1]' int:2; then
  expect_out_has 'Breakpoint 1 at scale.cl:4'
  expect_out_has '4	  int v = in[i] * k * FACTOR;'
fi

# --- what a file looks like, when it is neither SPIR-V nor OpenCL C --------------------------------
accepts='spvi takes a SPIR-V module (MODULE.spv, either byte order) or OpenCL C source (KERNEL.cl)'
: >empty.cl
if run 2 info empty.cl; then expect_err "\`empty.cl\` is an empty file; $accepts"; fi
cp "$SPVI" prog
if run 2 run prog -g 1; then expect_err '`prog` is an ELF '; fi
printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\001\000\076\000' >obj.o
if run 2 info obj.o; then expect_err '`obj.o` is an ELF relocatable object (.o); '; fi
clang-14 -x cl -cl-std=CL2.0 -target spir64 -emit-llvm -c -Xclang -finclude-default-header gen.cl -o gen.bc
if run 2 info gen.bc; then expect_err '`gen.bc` is LLVM bitcode (translate it to SPIR-V with llvm-spirv-14); '; fi
printf '; SPIR-V\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n' >k.spvasm
if run 2 info k.spvasm; then expect_err '`k.spvasm` is SPIR-V assembly text (assemble it with spirv-as); '; fi
echo 'hello world' >notes.txt
if run 2 debug notes.txt -g 1; then
  expect_err '`notes.txt` is text without an OpenCL C kernel (no `kernel` or `__kernel` function); '
fi
printf '\001\002\003\004\005' >blob.dat
if run 2 info blob.dat; then expect_err "\`blob.dat\` is binary data; $accepts"; fi
# OpenCL C without the .cl name is recognised by its `__kernel`
cp gen.cl noext
sed -i 's/^kernel/__kernel/' noext
if run 0 run noext --cl-std=CL2.0 -g 1 'int[2]=1,0' --print; then expect_out 'arg0 int[2]: 1 2'; fi

# --- modules: unchanged, from a file or `-`; compile options are refused with one -----------------
"$SPVI" run scale.cl -D BIAS=0 -g 1 'int[1]' 'int[1]' int:1 >/dev/null 2>&1
/usr/lib/llvm-14/bin/clang -x cl -target spir64 -emit-llvm -c -Xclang -finclude-default-header gen.cl \
  -cl-std=CL2.0 -o gen2.bc && llvm-spirv-14 gen2.bc -o gen.spv
if run 0 run - -g 1 'int[2]=1,0' --print <gen.spv; then expect_out 'arg0 int[2]: 1 2'; fi
# a named pipe is read as a module, as `-` is: looking at its first bytes would consume them
mkfifo pipe.spv
cat gen.spv >pipe.spv &
if run 0 run pipe.spv -g 1 'int[2]=1,0' --print; then expect_out 'arg0 int[2]: 1 2'; fi
wait
if run 2 run gen.spv -D X=1 -g 1 'int[2]'; then
  expect_err '-D compiles OpenCL C source, but `gen.spv` is a SPIR-V module'
fi
if run 2 run gen.spv -g 1 'int[2]' --then -O2 -g 1 'int[2]'; then
  expect_err '-O2 applies to loading the module: give it before the first --then'
fi

# --- spvi info: names and signedness from the debug information, the sub-group extensions used --
cat >names.cl <<'K'
kernel void f(global uint *counts, global const char *text, int n, uchar flag, local float4 *tmp) {
  counts[0] = n + text[0] + flag + (int)tmp[0].x;
}
K
# clang without -cl-kernel-arg-info: no OpName on the parameters; with -g, DebugLocalVariables
for g in '' -g; do
  /usr/lib/llvm-14/bin/clang -x cl -cl-std=CL2.0 -target spir64 -emit-llvm -c -O2 $g \
    -Xclang -finclude-default-header names.cl -o names.bc && llvm-spirv-14 names.bc -o "names$g.spv"
done
# the parameters as the source declares them (uint, uchar: SPIR-V only knows 32- and 8-bit integers)
if run 0 info names-g.spv; then
  expect_out_has '  arg0   global uint* counts                      (buffer of 4-byte elements)'
  expect_out_has '  arg1   global char* text                        (buffer of 1-byte elements, read-only)'
  expect_out_has '  arg2   int n                                    (by value, 4 bytes)'
  expect_out_has '  arg3   uchar flag                               (by value, 1 bytes)'
  expect_out_has '  arg4   local float4* tmp                        (local memory, give local:BYTES)'
  if grep -qF 'names:' "$TMP/out"; then fail "a module with debug information got the names: hint"; else ok; fi
fi
if run 0 info names.spv; then
  expect_out_has 'names:        the module has no parameter names: compile with -g or -cl-kernel-arg-info,'
  expect_out_has '  arg0   global int*                              (buffer of 4-byte elements)'
fi
# the source itself: names from -cl-kernel-arg-info, which spvi's compile always gives
if run 0 info names.cl --cl-std=CL2.0; then
  expect_out_has '  arg3   uchar flag                               (by value, 1 bytes)'
fi
# sub-groups: only the extensions the module uses (OpenCL SPIR-V environment: the capabilities each
# adds); work_group_reduce_add needs the Groups capability too, but is no sub-group function
cat >sg.cl <<'K'
kernel void v(global int *o) {
  o[get_global_id(0)] = (int)sub_group_ballot_bit_count(sub_group_ballot(1)) + sub_group_shuffle_xor(1, 1);
}
kernel void w(global int *o) { o[get_global_id(0)] = work_group_reduce_add(1); }
K
if run 0 info sg.cl --cl-std=CL3.0; then
  expect_out_has 'sub-groups:   cl_khr_subgroups cl_khr_subgroup_ballot cl_khr_subgroup_shuffle'
fi
sed -i '/^kernel void v/,/^}/d' sg.cl
if run 0 info sg.cl --cl-std=CL2.0; then expect_out_has 'sub-groups:   none used'; fi

echo "test_clsrc: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
