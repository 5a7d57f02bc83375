# lib.sh — the helpers the `spvi` command's test scripts share (tests/cli/test_*.sh source it
# after setting SPVI, TMP, passed=0 and failed=0).

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
