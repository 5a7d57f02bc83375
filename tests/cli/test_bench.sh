#!/bin/sh
# test_bench.sh — the benchmark suite's second set of kernels (issue #18) against their C
# references, at a small NDRange so that `make check` stays quick: for each kernel, spvi runs
# bench/kernels/NAME.cl on the first work-group row(s) with the inputs `bench_tool args` gives
# (random buffers, and the generated CSR matrix and graph as files), and `bench_tool check`
# compares the --out files with the independent C reference (bench/bench_ref2.c; bit-exact, as
# spvi's rsqrt is correctly rounded). Then the checks themselves must catch a wrong answer: one
# computed output element changed (to the next float, or +1) is reported, as is a nonzero element
# beyond the rows that ran.
#
# usage: BUILD=build sh tests/cli/test_bench.sh      (prints "N passed, N failed"; exit 1 on failure)
set -u
BUILD=${BUILD:-build}
SPVI=${SPVI:-$BUILD/spvi}
case $SPVI in /*) ;; *) SPVI=$PWD/$SPVI ;; esac
CC=${CC:-cc}
HERE=$(cd "$(dirname "$0")" && pwd)
BENCH=$HERE/../../bench
TMP=$(mktemp -d /tmp/spvi-bench-test.XXXXXX)
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$TMP"' EXIT INT TERM
passed=0
failed=0
. "$HERE/lib.sh"
PY=python3
"$PY" -c 'import numpy' 2>/dev/null || PY=/usr/bin/python3

if [ ! -x "$SPVI" ]; then
  echo "test_bench: $SPVI is not built (run make first)" >&2
  exit 1
fi
# As bench/run.sh builds it.
TOOL=$TMP/bench_tool
if ! $CC -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -fno-strict-aliasing -O2 -ffp-contract=off \
  "$BENCH/bench_tool.c" "$BENCH/bench_spec.c" "$BENCH/bench_gen.c" "$BENCH/bench_ref.c" "$BENCH/bench_ref2.c" \
  "$BENCH/bench_npy.c" -lmpfr -lgmp -lm -o "$TOOL" 2>"$TMP/cc.log"; then
  echo "test_bench: bench_tool does not build: $(cat "$TMP/cc.log")" >&2
  exit 1
fi

# corrupt FILE.npy INDEX: the element at flat INDEX becomes the next float up (float32) or +1.
corrupt() {
  "$PY" - "$1" "$2" <<'PYEOF'
import sys, numpy as np
a = np.load(sys.argv[1]); i = int(sys.argv[2]); f = a.reshape(-1)
f[i] = np.nextafter(f[i], np.float32(np.inf)) if f.dtype == np.float32 else f[i] + 1
np.save(sys.argv[1], a)
PYEOF
}

# bench KERNEL ROWS OUTARG: runs KERNEL on ROWS rows, checks it, then corrupts argOUTARG.npy's
# first element (computed) and its last one (beyond ROWS in every case below) in turn.
bench() {
  name=$1 rows=$2 arg=$3
  mkdir -p "$TMP/in-$name"
  if ! "$TOOL" args "$name" "$rows" "$TMP/in-$name" >"$TMP/args"; then
    fail "bench_tool args $name $rows failed"
    return
  fi
  # shellcheck disable=SC2046
  run 0 run "$BENCH/kernels/$name.cl" $(cat "$TMP/args") --out "$TMP/out-$name" || return
  if "$TOOL" check "$name" "$rows" "$TMP/out-$name" >"$TMP/out" 2>&1; then ok; else fail "$name: $(cat "$TMP/out")"; fi
  cp "$TMP/out-$name/arg$arg.npy" "$TMP/keep.npy"
  for where in 0 last; do
    cp "$TMP/keep.npy" "$TMP/out-$name/arg$arg.npy"
    n=$("$PY" -c "import numpy as np, sys; print(np.load(sys.argv[1]).size)" "$TMP/keep.npy")
    [ "$where" = last ] && idx=$((n - 1)) || idx=0
    corrupt "$TMP/out-$name/arg$arg.npy" "$idx"
    "$TOOL" check "$name" "$rows" "$TMP/out-$name" >"$TMP/out" 2>&1
    st=$?
    if [ "$st" -eq 1 ] && grep -qF "1 of $n" "$TMP/out" && grep -qF "first at [$idx]" "$TMP/out"; then ok
    elif [ "$name" = nbody ] && [ "$st" -eq 1 ] && grep -qF "1 of $n" "$TMP/out"; then ok
    else fail "$name: corrupted arg${arg}[$idx] not caught (exit $st): $(cat "$TMP/out")"; fi
  done
}

# tool_err TEXT ARGS...: bench_tool ARGS exits 2 with TEXT on stderr.
tool_err() {
  text=$1
  shift
  "$TOOL" "$@" >"$TMP/out" 2>"$TMP/err"
  st=$?
  if [ "$st" -eq 2 ] && grep -qF -- "$text" "$TMP/err"; then ok; else fail "bench_tool $*: exit $st, stderr $(cat "$TMP/err")"; fi
}
# Generated inputs need a directory for their files, one that exists.
tool_err "kernel \`spmv_csr\` has generated inputs: give a DIR for their files" args spmv_csr 256
tool_err "cannot write $TMP/missing/arg0.u32" args bfs 256 "$TMP/missing"

bench sgemm_tiled 16 2
bench conv2d 16 2
bench spmv_csr 256 4
bench scan 256 1
bench bitonic 256 1
bench nbody 64 4
bench bfs 256 3

echo "test_bench: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
