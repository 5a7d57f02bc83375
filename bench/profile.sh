#!/bin/sh
# bench/profile.sh KERNEL [ROWS] — profiles one benchmark kernel's spvi run with perf (run
# `make bench` or bench/run.sh first: it builds $BUILD/bench). Prints the hottest symbols and the
# hottest source lines of spvi (work-group set-up, dispatch loop, handlers, builtins), single thread.
# The profile covers the whole process; the CLI's argument set-up (cli_*, args_*) and output
# writing are not part of exec_s.
# Environment: BUILD (default build), SPVI (default $BUILD/spvi), FREQ (perf -F, default 4000).
set -eu
BUILD=${BUILD:-build}
SPVI=${SPVI:-$BUILD/spvi}
FREQ=${FREQ:-4000}
OUT=$BUILD/bench
[ $# -ge 1 ] || { echo "usage: bench/profile.sh KERNEL [ROWS]" >&2; exit 2; }
command -v perf >/dev/null 2>&1 || { echo "profile: perf is not installed" >&2; exit 2; }
[ -x "$OUT/bench_tool" ] || { echo "profile: run bench/run.sh first" >&2; exit 2; }
k=$1
rows=${2:-$("$OUT/bench_tool" list | awk -F '\t' -v k="$k" '$1 == k { split($3, g, ","); print g[$2] }')}
[ -n "$rows" ] || { echo "profile: unknown kernel $k" >&2; exit 2; }
threads=""
"$SPVI" run --help | grep -q -- --threads && threads="--threads 1"
set -f  # the arguments contain [ ] (no globbing)
mkdir -p "$OUT/in-$k"
# shellcheck disable=SC2046,SC2086
set -- $("$OUT/bench_tool" args "$k" "$rows" "$OUT/in-$k")
# the kernel built as the bench builds it, from the bench's build cache
# shellcheck disable=SC2086
SPVI_CACHE_DIR=$OUT/spvi-cache "$SPVI" run "$(dirname "$0")/kernels/$k.cl" "$@" $threads >/dev/null 2>&1 || true
# shellcheck disable=SC2086
SPVI_CACHE_DIR=$OUT/spvi-cache perf record -q -F "$FREQ" -o "$OUT/perf.$k.data" "$SPVI" run "$(dirname "$0")/kernels/$k.cl" "$@" $threads --stats 2>&1 |
  tail -n 1
echo "== hottest symbols ($k)"
perf report -i "$OUT/perf.$k.data" --stdio --no-children --sort sym 2>/dev/null | grep -E '^ +[0-9]' | head -n 15
echo "== hottest source lines ($k)"
perf report -i "$OUT/perf.$k.data" --stdio --no-children --sort sym,srcline 2>/dev/null | grep -E '^ +[0-9]' |
  head -n 25
