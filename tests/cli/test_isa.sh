#!/bin/sh
# test_isa.sh — the executor's two compiled copies (interp/ex_exec.c "Instruction sets": the
# baseline and AVX2) give the same bits: the kernels of tests/cli/isa/isa.cl on random bit patterns
# (NaNs with payloads, infinities, subnormals, integer edge cases), at a full warp width (the
# vectorised loops) and at 7 (partial warps: blends and lane-by-lane paths), run once with
# SPVI_EXEC_ISA=baseline and once with the default copy; every output file must be identical. The
# values themselves are asserted by the rest of the suite, which runs the AVX2 copy in `make check`
# and the baseline in `make SAN=1 check` (no AVX2 copy in sanitizer builds).
#
# usage: BUILD=build sh tests/cli/test_isa.sh      (prints "N passed, N failed"; exit 1 on failure)
set -u
BUILD=${BUILD:-build}
SPVI=${SPVI:-$BUILD/spvi}
HERE=$(dirname "$0")/isa
TMP=$(mktemp -d /tmp/spvi-isa-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT INT TERM
passed=0
failed=0

[ -x "$SPVI" ] || { echo "test_isa: $SPVI is not built (run make first)" >&2; exit 1; }
if ! nm "$SPVI" 2>/dev/null | grep -q ' ex_exec_warp_avx2$'; then
  echo "test_isa: $SPVI has no AVX2 copy of the executor (a sanitizer or non-x86-64 build): nothing to compare"
  echo "0 passed, 0 failed"
  exit 0
fi
if ! grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
  echo "test_isa: this CPU has no AVX2: only the baseline copy can run here, nothing to compare"
  echo "0 passed, 0 failed"
  exit 0
fi

N=8192
cases() { # name, then its arguments
  echo "fops -g $N uint[$((12 * N))] uint[$((3 * N))]=random(1)"
  echo "dops -g $N ulong[$((8 * N))] ulong[$((3 * N))]=random(2)"
  echo "iops -g $N ulong[$((10 * N))] ulong[$((2 * N))]=random(3)"
  echo "diverge -g $N -l 64 float4[$N] uint[$N]=random(4) float4[$N]=random(5,-2,2)"
}
set -f # the arguments contain [ ]
cases | while read -r k args; do
  for warp in 64 7; do
    # shellcheck disable=SC2086
    for isa in baseline default; do
      rm -rf "$TMP/$isa"
      if [ "$isa" = baseline ]; then
        SPVI_EXEC_ISA=baseline "$SPVI" run "$HERE/isa.cl" -k "$k" $args --warp "$warp" --out "$TMP/$isa" >"$TMP/out" 2>"$TMP/err"
      else
        "$SPVI" run "$HERE/isa.cl" -k "$k" $args --warp "$warp" --out "$TMP/$isa" >"$TMP/out" 2>"$TMP/err"
      fi || { echo "FAIL: $k --warp $warp ($isa) exited $?: $(cat "$TMP/err")" >&2; echo x >>"$TMP/failed"; continue 2; }
    done
    if diff -r "$TMP/baseline" "$TMP/default" >/dev/null; then
      echo x >>"$TMP/passed"
    else
      echo "FAIL: $k --warp $warp: the baseline and AVX2 copies wrote different outputs" >&2
      echo x >>"$TMP/failed"
    fi
  done
done
passed=$(cat "$TMP/passed" 2>/dev/null | wc -l)
failed=$(cat "$TMP/failed" 2>/dev/null | wc -l)
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
