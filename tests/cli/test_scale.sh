#!/bin/sh
# test_scale.sh — `spvi run --shard` and `spvi merge --combine` (docs/scaling.md), and the progress
# line of long runs. Four shards of a histogram kernel (atomics on global memory) and of a plain
# kernel run under GNU parallel; their merge must be byte-identical to one run of the whole
# NDRange. Which bytes a shard writes is worked out by hand from the interleaving rule (group g
# belongs to shard g mod N). The progress line is looked for on a pseudo-terminal (script(1)).
#
# usage: BUILD=build sh tests/cli/test_scale.sh      (prints "N passed, N failed"; exit 1 on failure)
# shellcheck disable=SC2016
set -u
BUILD=${BUILD:-build}
SPVI=${SPVI:-$BUILD/spvi}
case $SPVI in /*) ;; *) SPVI=$PWD/$SPVI ;; esac
HERE=$(dirname "$0")
TMP=$(mktemp -d /tmp/spvi-scale-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT INT TERM
passed=0
failed=0
fail() {
  echo "FAIL: $1" >&2
  failed=$((failed + 1))
}
ok() { passed=$((passed + 1)); }

for tool in parallel script; do
  command -v $tool >/dev/null || { echo "test_scale: $tool is missing (sh tools/setup.sh)" >&2; exit 1; }
done
clang-14 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -finclude-default-header -O0 \
  -cl-ext=+cl_khr_int64_base_atomics -emit-llvm-bc "$HERE/shard.cl" -o "$TMP/shard.bc" &&
  llvm-spirv-14 "$TMP/shard.bc" -o "$TMP/shard.spv" || { echo "test_scale: cannot compile shard.cl" >&2; exit 1; }
M=$TMP/shard.spv

# check NAME STATUS COMMAND...: runs COMMAND (stdout+stderr in $TMP/log), expects exit STATUS.
check() {
  name=$1 want=$2
  shift 2
  "$@" >"$TMP/log" 2>&1
  got=$?
  if [ "$got" -eq "$want" ]; then ok; else fail "$name: exit $got, expected $want: $(cat "$TMP/log")"; fi
}
# has NAME TEXT: the last command's output contains TEXT.
has() {
  if grep -qF -- "$2" "$TMP/log"; then ok; else fail "$1: output lacks \`$2\`: $(cat "$TMP/log")"; fi
}
# same NAME DIR1 DIR2: every argI.npy of DIR1 is in DIR2 with the same bytes.
same() {
  for f in "$2"/arg[0-9].npy; do
    if cmp -s "$f" "$3/$(basename "$f")"; then ok; else fail "$1: $(basename "$f") differs from the single run"; fi
  done
}
# npy_bytes FILE: the data bytes of an .npy file (after its header), one decimal per line.
npy_bytes() {
  python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); h = 10 + d[8] + 256 * d[9]; print("\n".join(str(b) for b in d[h:]))' "$1"
}

HIST="-k hist -g 4096 -l 64 uint[4096]=random(7,0,100000) uint[16] int[1]=fill(2147483647) int[1]=fill(-2147483648)
      uint[1] uint[1]=fill(5) ulong[1]=fill(3)"
COMBINE="--combine add --combine arg2=min --combine arg3=max --combine arg4=or --combine arg5=xor"
# shellcheck disable=SC2086
check "hist single run" 0 "$SPVI" run "$M" $HIST --out "$TMP/full"

# --- four shards under GNU parallel: {#} counts from 1, the shard index from 0 -------------------
# shellcheck disable=SC2086
check "hist under parallel" 0 parallel --will-cite -q -j 4 "$SPVI" run "$M" $HIST --threads 1 \
  --shard '{= $_=seq()-1 =}/4' --out "$TMP/h{#}" ::: a b c d
check "hist merge --combine" 0 "$SPVI" merge $COMBINE "$TMP/hm" "$TMP/h1" "$TMP/h2" "$TMP/h3" "$TMP/h4"
same "hist merge" "$TMP/full" "$TMP/hm"
# without --combine, the atomics' overlap stays an error
check "hist merge without --combine" 2 "$SPVI" merge "$TMP/hx" "$TMP/h1" "$TMP/h2" "$TMP/h3" "$TMP/h4"
has "hist merge without --combine" "byte 0 of arg1 was written by two shards"
# a merge of merges: the initial contents go along
check "merge of merges 1" 0 "$SPVI" merge $COMBINE "$TMP/ha" "$TMP/h1" "$TMP/h3"
check "merge of merges 2" 0 "$SPVI" merge $COMBINE "$TMP/hb" "$TMP/h2" "$TMP/h4"
check "merge of merges" 0 "$SPVI" merge $COMBINE "$TMP/hab" "$TMP/ha" "$TMP/hb"
same "merge of merges" "$TMP/full" "$TMP/hab"

SQ="-k square -g 1000 -l 10 float[1000]=random(3,-10,10) float[1000]"
# shellcheck disable=SC2086
check "square single run" 0 "$SPVI" run "$M" $SQ --out "$TMP/sfull"
# shellcheck disable=SC2086
check "square under parallel" 0 parallel --will-cite -q -j 4 "$SPVI" run "$M" $SQ --threads 1 --shard '{}/4' \
  --out "$TMP/s{}" ::: 0 1 2 3
check "square merge" 0 "$SPVI" merge "$TMP/sm" "$TMP/s0" "$TMP/s1" "$TMP/s2" "$TMP/s3"
same "square merge" "$TMP/sfull" "$TMP/sm"

# --- interleaving: -g 16 -l 2 has groups 0..7; shard 1/4 runs groups 1 and 5, elements 2,3 and
# 10,11 of the float output: bytes 8..15 and 40..47 -----------------------------------------------
SMALL="-k square -g 16 -l 2 float[16]=range(0) float[16]"
# shellcheck disable=SC2086
check "shard 1/4" 0 "$SPVI" run "$M" $SMALL --shard 1/4 --out "$TMP/i1"
want=$(python3 -c 'print("\n".join("1" if 8 <= b < 16 or 40 <= b < 48 else "0" for b in range(64)))')
if [ "$(npy_bytes "$TMP/i1/arg1.written.npy")" = "$want" ]; then ok; else fail "shard 1/4 wrote other bytes"; fi
# no initial file for the input it did not write; one for the output
if [ ! -e "$TMP/i1/arg0.initial.npy" ] && [ -e "$TMP/i1/arg1.initial.npy" ]; then ok; else
  fail "shard 1/4: argI.initial.npy for the wrong arguments: $(ls "$TMP/i1")"; fi
# Slurm array --array=4-7: task 5 is shard 1 of 4
# shellcheck disable=SC2086
check "slurm env" 0 env SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_MIN=4 SLURM_ARRAY_TASK_MAX=7 SLURM_ARRAY_TASK_COUNT=4 \
  SLURM_ARRAY_TASK_STEP=1 "$SPVI" run "$M" $SMALL --shard env --out "$TMP/slurm"
if cmp -s "$TMP/i1/arg1.written.npy" "$TMP/slurm/arg1.written.npy"; then ok; else fail "--shard env (Slurm) is not shard 1/4"; fi
# Slurm array --array=0-6:2: task 2 is shard 1 of 4
# shellcheck disable=SC2086
check "slurm env step" 0 env SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=6 \
  SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_STEP=2 "$SPVI" run "$M" $SMALL --shard env --out "$TMP/slurm2"
if cmp -s "$TMP/i1/arg1.written.npy" "$TMP/slurm2/arg1.written.npy"; then ok; else fail "--shard env (Slurm step) is not shard 1/4"; fi
# Kubernetes Indexed Job: JOB_COMPLETION_INDEX=1 with 4 completions
# shellcheck disable=SC2086
check "k8s env" 0 env JOB_COMPLETION_INDEX=1 "$SPVI" run "$M" $SMALL --shard env/4 --out "$TMP/k8s"
if cmp -s "$TMP/i1/arg1.written.npy" "$TMP/k8s/arg1.written.npy"; then ok; else fail "--shard env/4 (k8s) is not shard 1/4"; fi
# more shards than groups: shard 9 of 10 has none of the 8 groups, writes nothing, still merges
# shellcheck disable=SC2086
check "empty shard" 0 "$SPVI" run "$M" $SMALL --shard 9/10 --out "$TMP/e9"
if npy_bytes "$TMP/e9/arg1.written.npy" | grep -q 1; then fail "shard 9/10 wrote"; else ok; fi

# --- bad input: one message, exit 2 ---------------------------------------------------------------
# shellcheck disable=SC2086
{
  check "shard 4/4" 2 "$SPVI" run "$M" $SMALL --shard 4/4
  has "shard 4/4" "shards are numbered from 0 to 3 (GNU parallel's {#} counts from 1"
  check "shard 0/0" 2 "$SPVI" run "$M" $SMALL --shard 0/0
  has "shard 0/0" "the shard count must be at least 1"
  check "shard x" 2 "$SPVI" run "$M" $SMALL --shard 1
  has "shard x" "expects K/N"
  check "shard env unset" 2 env -u SLURM_ARRAY_TASK_ID -u JOB_COMPLETION_INDEX "$SPVI" run "$M" $SMALL --shard env
  has "shard env unset" "neither SLURM_ARRAY_TASK_ID"
  check "k8s without N" 2 env JOB_COMPLETION_INDEX=1 "$SPVI" run "$M" $SMALL --shard env
  has "k8s without N" "write --shard env/N"
  check "k8s index too big" 2 env JOB_COMPLETION_INDEX=4 "$SPVI" run "$M" $SMALL --shard env/4
  has "k8s index too big" "JOB_COMPLETION_INDEX=4 is not below the shard count 4"
  check "both engines" 2 env JOB_COMPLETION_INDEX=1 SLURM_ARRAY_TASK_ID=1 "$SPVI" run "$M" $SMALL --shard env/4
  has "both engines" "both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set"
  check "slurm list" 2 env SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=10 \
    SLURM_ARRAY_TASK_COUNT=3 "$SPVI" run "$M" $SMALL --shard env
  has "slurm list" "is not an evenly spaced range"
  check "slurm count mismatch" 2 env SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_COUNT=4 \
    "$SPVI" run "$M" $SMALL --shard env/8
  has "slurm count mismatch" "the Slurm array has 4 tasks"
  check "slurm bad number" 2 env SLURM_ARRAY_TASK_ID=x1 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_COUNT=4 \
    "$SPVI" run "$M" $SMALL --shard env
  has "slurm bad number" "SLURM_ARRAY_TASK_ID \`x1\` is not a non-negative integer"
  check "debug shard" 2 "$SPVI" debug "$M" $SMALL --shard 1/4 </dev/null
  has "debug shard" "spvi debug runs a range of work-groups (--groups), not an interleaved shard"
}
check "combine without value" 2 "$SPVI" merge --combine
has "combine without value" "option --combine needs a value"
check "combine unknown option" 2 "$SPVI" merge --combined add "$TMP/c" "$TMP/h1"
has "combine unknown option" "unknown option \`--combined\`"
check "combine bad op" 2 "$SPVI" merge --combine mul "$TMP/c" "$TMP/h1" "$TMP/h2"
has "combine bad op" "the operations are add, min, max, or, and, xor"
check "combine float or" 2 "$SPVI" merge --combine or "$TMP/c" "$TMP/s0" "$TMP/s1"
has "combine float or" "holds floating-point elements"
check "combine missing arg" 2 "$SPVI" merge --combine arg9=add "$TMP/c" "$TMP/h1" "$TMP/h2"
has "combine missing arg" "--combine arg9: the shards have no arg9.npy"
mkdir -p "$TMP/noinit1" "$TMP/noinit2"
cp "$TMP/h1"/arg1.npy "$TMP/h1"/arg1.written.npy "$TMP/noinit1/"
cp "$TMP/h2"/arg1.npy "$TMP/h2"/arg1.written.npy "$TMP/noinit2/"
check "combine without initial" 2 "$SPVI" merge --combine add "$TMP/c" "$TMP/noinit1" "$TMP/noinit2"
has "combine without initial" "no shard has arg1.initial.npy"

# --- progress: on a terminal after two seconds, never in a file or with --quiet -------------------
# The run takes about a second here; SPVI_PROGRESS_DELAY=100 shows the line after 0.1 s instead of
# 2 s, so the checks do not depend on the machine's speed.
export SPVI_PROGRESS_DELAY=100
LONG="$SPVI run $M -k spin -g 2048 -l 32 uint[2048] uint:20000 --threads 1"
script -qec "$LONG" /dev/null >"$TMP/tty" 2>&1
if grep -q 'spvi: [0-9]*/64 work-groups ([0-9]*%), [0-9.]* groups/s, ' "$TMP/tty"; then ok; else
  fail "no progress line on a terminal: $(od -c "$TMP/tty" | head -5)"; fi
# cleared at the end: the last thing written is a carriage return after blanks
if [ "$(tail -c 1 "$TMP/tty" | od -An -c | tr -d ' ')" = '\r' ]; then ok; else fail "progress line not cleared"; fi
script -qec "$LONG --quiet" /dev/null >"$TMP/quiet" 2>&1
if grep -q 'work-groups' "$TMP/quiet"; then fail "progress shown with --quiet"; else ok; fi
script -qec "$LONG 2>$TMP/file" /dev/null >/dev/null 2>&1
if [ -s "$TMP/file" ]; then fail "progress written to a file: $(cat "$TMP/file")"; else ok; fi
SPVI_PROGRESS_DELAY=2s script -qec "$SPVI run $M -k spin -g 64 -l 32 uint[64] uint:1 --threads 1" /dev/null >"$TMP/tty" 2>&1
if grep -q 'SPVI_PROGRESS_DELAY=`2s` is not 0..3600000 milliseconds; 2000 is used' "$TMP/tty"; then ok; else
  fail "bad SPVI_PROGRESS_DELAY: $(cat "$TMP/tty")"; fi
unset SPVI_PROGRESS_DELAY

echo "test_scale: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
