#!/bin/sh
# test_valparts.sh — validating a module in parts (loader/ld_valparts.c) gives the whole module's
# verdict on every module of the test suite: each kernel tests/kernels/build.sh compiled and each
# .spvasm case (assembled for the lowest SPIR-V version that takes it), loaded by `spvi info
# --strict` with the validator on the whole module (SPVI_VALIDATE_PARTS=1, the reference: SPIRV-Tools
# itself) and in 2 and 3 parts. The exit status must match and so must every line of stderr, except
# that with several validation errors the parts may report another of them first (counted apart:
# the verdict still matches). Modules with fewer than two kernels are not cut: they pass trivially
# (counted as "whole").
#
# usage: BUILD=build sh tests/cli/test_valparts.sh   (prints "N passed, N failed"; exit 1 on failure)
set -u
BUILD=${BUILD:-build}
SPVI=${SPVI:-$BUILD/spvi}
TMP=$(mktemp -d /tmp/spvi-valparts.XXXXXX)
trap 'rm -rf "$TMP"' EXIT INT TERM
passed=0
failed=0
other_first=0

[ -x "$SPVI" ] || { echo "test_valparts: $SPVI is not built (run make first)" >&2; exit 1; }
BUILD=$BUILD sh tests/kernels/build.sh >/dev/null || { echo "test_valparts: tests/kernels/build.sh failed" >&2; exit 1; }
command -v spirv-as >/dev/null || { echo "test_valparts: spirv-as (spirv-tools) is required" >&2; exit 1; }

mkdir -p "$TMP/spv"
for f in tests/spvasm*/*.spvasm tests/debug/*.spvasm tests/cli/*.spvasm; do
  out=$TMP/spv/$(echo "$f" | tr / _).spv
  for v in 1.0 1.1 1.2 1.3 1.4 1.5 1.6; do
    spirv-as --target-env "spv$v" "$f" -o "$out" 2>/dev/null && break
  done
done

for m in "$BUILD"/kernels/*.spv "$TMP"/spv/*.spv; do
  [ -f "$m" ] || continue
  SPVI_VALIDATE_PARTS=1 "$SPVI" info --strict "$m" >/dev/null 2>"$TMP/whole"
  want=$?
  for n in 2 3; do
    SPVI_VALIDATE_PARTS=$n "$SPVI" info --strict "$m" >/dev/null 2>"$TMP/parts"
    got=$?
    if [ "$got" != "$want" ]; then
      echo "FAIL: $m: exit $got in $n parts, $want whole: $(head -c 300 "$TMP/parts") / $(head -c 300 "$TMP/whole")" >&2
      failed=$((failed + 1))
    elif cmp -s "$TMP/whole" "$TMP/parts"; then
      passed=$((passed + 1))
    elif grep -q "validation:" "$TMP/whole" && grep -q "validation:" "$TMP/parts" &&
         [ "$(grep -vc "validation:" "$TMP/whole")" = "$(grep -vc "validation:" "$TMP/parts")" ]; then
      other_first=$((other_first + 1))
      passed=$((passed + 1))
    else
      echo "FAIL: $m: in $n parts stderr differs: $(head -c 300 "$TMP/parts") / whole: $(head -c 300 "$TMP/whole")" >&2
      failed=$((failed + 1))
    fi
  done
done
[ "$other_first" -gt 0 ] && echo "test_valparts: $other_first comparisons reported another validation error first (same verdict)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
