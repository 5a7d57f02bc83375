# lib.sh — the helpers the `spvi` command's test scripts share (tests/cli/test_*.sh source it). They
# need SPVI (the command), TMP (a scratch directory) and the counters passed=0 failed=0; each script
# prints its own summary.
#
# Messages quote names in backticks, which the expectations spell literally:
# shellcheck disable=SC2016

# numpy_python NAME: sets PY to a python3 that has numpy: Debian's python3-numpy, which a python3
# earlier on the PATH (pyenv, a virtualenv) may not see; false, with a message naming the script
# NAME, when there is none.
numpy_python() {
  PY=python3
  "$PY" -c 'import numpy' 2>/dev/null || PY=/usr/bin/python3
  "$PY" -c 'import numpy' 2>/dev/null && return 0
  echo "$1: numpy is needed (python3-numpy, tools/setup.sh installs it)" >&2
  return 1
}

# run EXPECTED_STATUS ARGS...: runs spvi, keeps stdout in $TMP/out and stderr in $TMP/err.
run() {
  want=$1
  shift
  "$SPVI" "$@" >"$TMP/out" 2>"$TMP/err"
  got=$?
  if [ "$got" -ne "$want" ]; then
    fail "spvi $* exited $got, expected $want; stderr: $(cat "$TMP/err")"
    return 1
  fi
  return 0
}

fail() {
  echo "FAIL: $1" >&2
  failed=$((failed + 1))
}

ok() { passed=$((passed + 1)); }

# expect_out TEXT: stdout is exactly TEXT (plus a final newline).
expect_out() {
  printf '%s\n' "$1" >"$TMP/want"
  if cmp -s "$TMP/want" "$TMP/out"; then ok; else fail "stdout was: $(cat "$TMP/out") / expected: $1"; fi
}

# expect_out_has TEXT: a line of stdout contains TEXT.
expect_out_has() {
  if grep -qF -- "$1" "$TMP/out"; then ok; else fail "stdout lacks \`$1\`: $(cat "$TMP/out")"; fi
}

# expect_err SUBSTRING: stderr contains SUBSTRING.
expect_err() {
  if grep -qF -- "$1" "$TMP/err"; then ok; else fail "stderr lacks \`$1\`: $(cat "$TMP/err")"; fi
}

# expect_no_err SUBSTRING: stderr does not contain SUBSTRING.
expect_no_err() {
  if grep -qF -- "$1" "$TMP/err"; then fail "stderr has \`$1\`: $(cat "$TMP/err")"; else ok; fi
}

# expect_err_lines N: stderr has exactly N lines (one clear message per error).
expect_err_lines() {
  n=$(wc -l <"$TMP/err")
  if [ "$n" -eq "$1" ]; then ok; else fail "stderr has $n lines, expected $1: $(cat "$TMP/err")"; fi
}
