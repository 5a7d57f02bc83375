#!/bin/sh
# Runs the whole test suite against $BUILD (default build): the OpenCL C test kernels are compiled
# first, then every cmocka program in $BUILD/tests, then the .spvasm cases, the CLI tests and the
# debugger sessions.
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

note "== compiling test kernels (clang-14 + llvm-spirv-14)"
sh tests/kernels/build.sh
result kernel-build $?

for t in "$BUILD"/tests/test_*; do
  [ -x "$t" ] || continue
  note "== $(basename "$t")"
  "$t"
  result "$(basename "$t")" $?
done

for s in tests/spvasm/run.sh tests/cli/run.sh tests/debug/run.sh tests/opencl/run.sh; do
  [ -f "$s" ] || continue
  note "== $s"
  sh "$s"
  result "$s" $?
done

[ -n "$failures" ] && note "failed:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
