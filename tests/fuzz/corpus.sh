#!/bin/sh
# corpus.sh — the fuzzers' seed corpora (make fuzz-corpus, docs/fuzzing.md), rebuilt from the tests
# each time into $FUZZ_BUILD/seeds/NAME/ (libFuzzer reads them; new inputs go to the working
# corpus $FUZZ_BUILD/corpus/NAME/, which is kept):
#   api, run, opencl   the test kernels the test build compiled ($BUILD/kernels/*.spv), every
#                      tests/spvasm*/ and tests/debug, tests/cli .spvasm case assembled, the
#                      debugger harness's module
#   cli, debug         tests/fuzz/seeds/NAME/ (hand-written command lines, .npy files, sessions)
#
#   BUILD=build FUZZ_BUILD=build-fuzz sh tests/fuzz/corpus.sh [NAME ...]
set -eu
BUILD=${BUILD:-build}
FUZZ_BUILD=${FUZZ_BUILD:-build-fuzz}
names=${*:-api run cli debug opencl}
spv=$FUZZ_BUILD/seeds/spv
rm -rf "$spv"
mkdir -p "$spv"
cp "$BUILD"/kernels/*.spv "$spv"/ 2>/dev/null || { echo "corpus.sh: no $BUILD/kernels/*.spv (make check builds them)" >&2; exit 1; }
[ -f "$FUZZ_BUILD/fuzz/debug_kernel.spv" ] && cp "$FUZZ_BUILD/fuzz/debug_kernel.spv" "$spv"/
# each .spvasm for the lowest SPIR-V version (1.0 .. 1.6) that assembles it
for f in tests/spvasm*/*.spvasm tests/debug/*.spvasm tests/cli/*.spvasm; do
  out=$spv/$(echo "$f" | tr / _).spv
  for v in 1.0 1.1 1.2 1.3 1.4 1.5 1.6; do
    spirv-as --target-env "spv$v" "$f" -o "$out" 2>/dev/null && break
  done
done
for h in $names; do
  rm -rf "$FUZZ_BUILD/seeds/$h"
  mkdir -p "$FUZZ_BUILD/seeds/$h" "$FUZZ_BUILD/corpus/$h"
  case $h in
    api | run | opencl) cp "$spv"/*.spv "$FUZZ_BUILD/seeds/$h"/ ;;
    *) cp tests/fuzz/seeds/"$h"/* "$FUZZ_BUILD/seeds/$h"/ ;;
  esac
  echo "corpus.sh: $h: $(ls "$FUZZ_BUILD/seeds/$h" | wc -l) seeds"
done
