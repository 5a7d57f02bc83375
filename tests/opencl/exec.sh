#!/bin/sh
# exec.sh — `spvi exec` (cli/cli_exec.c) end to end: real OpenCL applications built here with
# `cc ... -lOpenCL` run with spvi as their only platform.
#  - a correct application (app_ok.c) exits 0, and its own exit status comes through unchanged;
#  - an application whose kernel writes one int past its buffer (app_oob.c) but exits 0 makes the
#    command exit 1, with the out-of-bounds report (kernel, argument, offset) on stderr, and with
#    --report FILE one JSON line describing it;
#  - every option reaches the library as its SPVI_* variable; bad usage exits 2 with one message;
#    a program that cannot run gives 126/127, one killed by signal N gives 128+N;
#  - the library is found next to the binary and in ../lib (the installed layout).
# Run by tests/opencl/run.sh (SPVI_BUILD: the build directory).
set -u
B=${SPVI_BUILD:-$(pwd)/build}
spvi=$B/spvi
lib=$B/libspvi-cl.so
status=0
fail() { echo "exec.sh: FAIL: $*"; status=1; }

[ -x "$spvi" ] && [ -f "$lib" ] || { echo "exec.sh: build $spvi and $lib first"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spvi-exec-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# With a SAN=1 library the applications need the sanitizer runtime linked in first.
san_cflags=""
ldd "$lib" 2>/dev/null | grep -q libasan && san_cflags="-fsanitize=address,undefined -fno-omit-frame-pointer"
for app in app_ok app_oob; do
  cc -std=c11 -O1 -g $san_cflags "tests/opencl/$app.c" -lOpenCL -o "$tmp/$app" || { echo "exec.sh: cannot build $app"; exit 1; }
done

# run ARGS...: the command's exit status in $rc, its stdout and stderr in $tmp/out and $tmp/err
run() {
  "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
}
expect_rc() {  # WHAT EXPECTED
  [ "$rc" -eq "$2" ] || { fail "$1: exit status $rc, expected $2"; sed 's/^/    /' "$tmp/err"; }
}
expect_err() {  # WHAT TEXT: stderr contains TEXT
  grep -qF -- "$2" "$tmp/err" || { fail "$1: stderr lacks \`$2\`"; sed 's/^/    /' "$tmp/err"; }
}

# ---- a correct application --------------------------------------------------------------------
run "$spvi" exec "$tmp/app_ok"
expect_rc "app_ok" 0
grep -q "app_ok: 1000 results correct" "$tmp/out" || fail "app_ok did not compute its results under spvi exec"
run "$spvi" exec -- "$tmp/app_ok" 3
expect_rc "app_ok exiting 3" 3
run "$spvi" exec sh -c 'exit 3'
expect_rc "a program exiting 3" 3

# ---- a kernel that writes out of bounds ----------------------------------------------------------
run "$spvi" exec "$tmp/app_oob"
expect_rc "app_oob" 1
grep -q "app_oob: done" "$tmp/out" || fail "app_oob did not run to its end"
expect_err "app_oob" "out-of-bounds"
expect_err "app_oob" "kernel \`fill\`"
expect_err "app_oob" "argument 0"
expect_err "app_oob" "offset 256"   # out[64] of 64 ints
expect_err "app_oob" "exit status 1"

# the same program run by hand (loader pointed at spvi, no status file): it exits 0, the fault is
# still printed
OCL_ICD_VENDORS="$lib" OCL_ICD_FILENAMES="$lib" "$tmp/app_oob" >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc "app_oob without spvi exec" 0
expect_err "app_oob without spvi exec" "out-of-bounds"

# --report FILE: emptied first, then one JSON line for the fault
echo "stale line" >"$tmp/report.json"
run "$spvi" exec --report "$tmp/report.json" "$tmp/app_oob"
expect_rc "app_oob --report" 1
[ "$(wc -l <"$tmp/report.json")" -eq 1 ] || { fail "--report: expected one line"; cat "$tmp/report.json"; }
for field in '"type":"fault"' '"check":"out-of-bounds"' '"kernel":"fill"' '"arg_index":0' '"offset":256' \
             '"size":4' '"memory_size":256' '"enqueue":1' '"global_id":[63,0,0]'; do
  grep -qF "$field" "$tmp/report.json" || fail "--report: the JSON line lacks $field"
done
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$tmp/report.json" ||
    fail "--report: not valid JSON lines"
fi
# a relative FILE is the caller's, even for a program that changes directory
(cd "$tmp" && "$spvi" exec --report rel.json sh -c "cd / && exec '$tmp/app_oob'" >/dev/null 2>&1)
grep -qF '"kernel":"fill"' "$tmp/rel.json" 2>/dev/null || fail "--report with a relative path"
# --keep-going: the out-of-bounds write is a report, the application's kernel goes on; exit 1
run "$spvi" exec --keep-going --report "$tmp/kg.json" "$tmp/app_oob"
expect_rc "app_oob --keep-going" 1
grep -qF '"type":"report","check":"out-of-bounds"' "$tmp/kg.json" 2>/dev/null ||
  { fail "--keep-going: no out-of-bounds report"; cat "$tmp/kg.json"; }

# --max-memory: app_ok's launch may use more than 16 bytes, so its enqueue fails (issue #17)
run "$spvi" exec --max-memory 16 "$tmp/app_ok"
[ "$rc" -ne 0 ] || fail "app_ok --max-memory 16: exit status 0"
expect_err "app_ok --max-memory 16" "the memory limit (--max-memory) is 16 bytes"

# ---- options become the library's environment ---------------------------------------------------
run "$spvi" exec --check races,uninit --threads 3 --warp=8 --max-steps 0x100 --flush-denormals --strict --stats \
  --keep-going --max-memory 1000000 \
  sh -c 'for v in OCL_ICD_VENDORS OCL_ICD_FILENAMES SPVI_CHECK SPVI_THREADS SPVI_WARP SPVI_MAX_STEPS \
         SPVI_FLUSH_DENORMALS SPVI_STRICT SPVI_STATS SPVI_KEEP_GOING SPVI_STATUS_FILE SPVI_MAX_MEMORY; do eval "echo $v=\${$v-unset}"; done'
expect_rc "options" 0
reallib=$(cd "$B" && pwd -P)/libspvi-cl.so
for line in "OCL_ICD_VENDORS=$reallib" "OCL_ICD_FILENAMES=$reallib" SPVI_CHECK=races,uninit SPVI_THREADS=3 SPVI_WARP=8 \
            SPVI_MAX_STEPS=256 SPVI_FLUSH_DENORMALS=1 SPVI_STRICT=1 SPVI_STATS=1 SPVI_KEEP_GOING=1 \
            SPVI_MAX_MEMORY=1000000; do
  grep -qxF "$line" "$tmp/out" || { fail "options: the program's environment lacks $line"; cat "$tmp/out"; }
done
grep -q '^SPVI_STATUS_FILE=/' "$tmp/out" || fail "options: no SPVI_STATUS_FILE"
statusfile=$(sed -n 's/^SPVI_STATUS_FILE=//p' "$tmp/out")
[ ! -e "$statusfile" ] || fail "the status file $statusfile is left behind"
# a program that marks the status file itself: exit 0 becomes 1, another status stays
run "$spvi" exec sh -c 'echo x >"$SPVI_STATUS_FILE"'
expect_rc "status file marked, exit 0" 1
run "$spvi" exec sh -c 'echo x >"$SPVI_STATUS_FILE"; exit 4'
expect_rc "status file marked, exit 4" 4
# --stats reaches the library: one line per launch
run "$spvi" exec --stats "$tmp/app_ok"
expect_rc "app_ok --stats" 0
expect_err "app_ok --stats" "instructions="

# ---- usage errors: exit 2, one message ------------------------------------------------------------
for args in "" "--warp 0 true" "--warp 65 true" "--warp" "--threads abc true" "--threads 1025 true" \
            "--max-steps -1 true" "--check races,bogus true" "--check= true" "--report= true" "--bogus true" \
            "--stats --stats true" "-x true" "--"; do
  # shellcheck disable=SC2086
  run "$spvi" exec $args
  expect_rc "spvi exec $args" 2
  [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q '^spvi: error: ' "$tmp/err" ||
    { fail "spvi exec $args: expected one error line"; cat "$tmp/err"; }
done
run "$spvi" exec --report /nonexistent-dir/r.json true
expect_rc "--report in a missing directory" 2
expect_err "--report in a missing directory" "/nonexistent-dir/r.json"
run "$spvi" exec --help
expect_rc "spvi exec --help" 0
grep -q '^usage: spvi exec' "$tmp/out" || fail "spvi exec --help prints no usage"
run "$spvi" --help
grep -q 'spvi exec' "$tmp/out" || fail "spvi --help does not mention exec"

# ---- programs that cannot run, or die --------------------------------------------------------------
run "$spvi" exec "$tmp/no-such-program"
expect_rc "a missing program" 127
expect_err "a missing program" "cannot run"
printf 'not a program\n' >"$tmp/notexec"
chmod 644 "$tmp/notexec"
run "$spvi" exec "$tmp/notexec"
expect_rc "a file that is not executable" 126
run "$spvi" exec sh -c 'kill -KILL $$'
expect_rc "a program killed by SIGKILL" 137

# ---- where the library is looked for -------------------------------------------------------------
mkdir -p "$tmp/prefix/bin" "$tmp/prefix/lib" "$tmp/alone"
cp "$spvi" "$tmp/prefix/bin/spvi"
cp "$lib" "$tmp/prefix/lib/libspvi-cl.so"
run "$tmp/prefix/bin/spvi" exec "$tmp/app_ok"
expect_rc "installed layout (bin/ and lib/)" 0
cp "$spvi" "$tmp/alone/spvi"
run "$tmp/alone/spvi" exec "$tmp/app_ok"
expect_rc "no libspvi-cl.so anywhere" 2
expect_err "no libspvi-cl.so anywhere" "cannot find libspvi-cl.so"

[ $status -eq 0 ] && echo "exec.sh: ok"
exit $status
