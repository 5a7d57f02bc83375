#!/bin/sh
# Runs the whole test suite against $BUILD (default build): the OpenCL C test kernels are compiled
# first, then the cmocka program of every tests/unit/test_*.c (built in $BUILD/tests; test_spvasm
# runs the .spvasm cases), then the fuzz harnesses' saved inputs, the CLI tests, the debugger
# sessions and the OpenCL platform's tests.
# A program that was not built or a script that is missing is a failure, never a silent skip.
# Ends with one line "N passed, N failed" counting test programs and script cases.
set -u
BUILD=${BUILD:-build}
export BUILD
passed=0
failed=0
failures=""
note() { printf '%s\n' "$*"; }
result() { # name status
  if [ "$2" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); failures="$failures $1"; fi
}
# missing NAME WHAT: a part of the suite is not there: a failure
missing() {
  note "run_all.sh: $1: $2" >&2
  result "$1" 1
}

note "== compiling test kernels (clang-14 + llvm-spirv-14)"
sh tests/kernels/build.sh
result kernel-build $?

for src in tests/unit/test_*.c; do
  name=$(basename "$src" .c)
  note "== $name"
  if [ ! -x "$BUILD/tests/$name" ]; then
    missing "$name" "$BUILD/tests/$name is not built (make BUILD=$BUILD check builds every test)"
    continue
  fi
  "$BUILD/tests/$name"
  result "$name" $?
done

# The fuzz harnesses' saved inputs (tests/fuzz/, docs/fuzzing.md): every crash a campaign found
# and the hand-written seeds, replayed by the plain driver (under the sanitizers in a SAN=1 build).
for h in api run cli debug opencl; do
  note "== fuzz replay $h"
  if [ ! -x "$BUILD/fuzz/replay-$h" ]; then
    missing "fuzz-replay-$h" "$BUILD/fuzz/replay-$h is not built (make BUILD=$BUILD check builds it)"
    continue
  fi
  set -- tests/fuzz/regress/$h
  [ -d tests/fuzz/seeds/$h ] && set -- "$@" tests/fuzz/seeds/$h
  "$BUILD/fuzz/replay-$h" "$@"
  result "fuzz-replay-$h" $?
done

# The CTS runner's parser (tools/cts.py) on captured CTS logs; no CTS build needed.
note "== tests/cts/test_parse.py"
python3 tests/cts/test_parse.py
result tests/cts/test_parse.py $?

for s in tests/cli/run.sh tests/cli/test_compare.sh tests/cli/test_clsrc.sh tests/cli/test_npy.sh tests/cli/test_scale.sh tests/cli/test_isa.sh tests/cli/test_valparts.sh tests/cli/test_bench.sh tests/python/run.sh tests/debug/run.sh tests/opencl/run.sh; do
  note "== $s"
  if [ ! -f "$s" ]; then
    missing "$s" "the script is missing"
    continue
  fi
  sh "$s"
  result "$s" $?
done

[ -n "$failures" ] && note "failed:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
