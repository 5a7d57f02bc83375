#!/bin/sh
# test_compare.sh — end-to-end tests of `spvi compare`, `spvi run --expect` and `spvi test`. The
# .npy files are written here with numpy from hand-chosen bit patterns, and every expected count,
# index, ULP distance and exit status below is worked out by hand from those patterns (IEEE 754
# binary16/32/64: adjacent values differ by one in the sign-magnitude bit pattern).
#
# usage: BUILD=build sh tests/cli/test_compare.sh      (prints "N passed, N failed"; exit 1 on failure)
#
# shellcheck disable=SC2016
set -u
BUILD=${BUILD:-build}
SPVI=${SPVI:-$BUILD/spvi}
case $SPVI in /*) ;; *) SPVI=$PWD/$SPVI ;; esac
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d /tmp/spvi-compare-test.XXXXXX)
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$TMP"' EXIT INT TERM
passed=0
failed=0
# numpy writes the files
. "$HERE/lib.sh"
numpy_python test_compare || exit 1

if [ ! -x "$SPVI" ]; then
  echo "test_compare: $SPVI is not built (run make first)" >&2
  exit 1
fi

# run EXPECTED_STATUS ARGS..., fail MESSAGE, ok (lib.sh); runok: run, counted as a pass when it exits as expected
runok() { run "$@" && ok; }

# has FILE TEXT: FILE ($TMP/out or $TMP/err) contains the line fragment TEXT.
has() {
  if grep -qF -- "$2" "$1"; then ok; else fail "$(basename "$1") lacks \`$2\`: $(cat "$1")"; fi
}

# npy NAME DTYPE SHAPE BITS...: writes $TMP/NAME.npy, the array of dtype DTYPE (an unsigned integer
# dtype of the same size gives the bit patterns) and shape SHAPE, from the hex or decimal BITS.
npy() {
  "$PY" - "$TMP/$1.npy" "$2" "$3" "$@" <<'EOF'
import sys, numpy as np
path, dt, shape = sys.argv[1], np.dtype(sys.argv[2]), tuple(int(x) for x in sys.argv[3].split(",") if x)
vals = [int(v, 0) for v in sys.argv[7:]]
if dt.kind == "f":
    a = np.array(vals, dtype="<u%d" % dt.itemsize).view(dt)
else:
    a = np.array(vals, dtype=dt)
np.save(path, a.reshape(shape))
EOF
}

# ---- floats: ULP borders, subnormals, zeros, NaN ---------------------------------------------------
# 1.0f = 0x3f800000; 0x3f800002 is 2 ULP above it.
npy one f4 1 0x3f800000
npy one2 f4 1 0x3f800002
runok 0 compare "$TMP/one.npy" "$TMP/one.npy" && has "$TMP/out" "one: equal (1 elements)"
runok 1 compare "$TMP/one.npy" "$TMP/one2.npy" && has "$TMP/out" "one: 1 of 1 elements differ (max ulp 2,"
has "$TMP/out" "first [0]: expected 1, got 1.00000024 (2 ulp, abs diff 2.38e-07)"
runok 1 compare --ulp 1 "$TMP/one.npy" "$TMP/one2.npy"
runok 0 compare --ulp 2 "$TMP/one.npy" "$TMP/one2.npy" &&
  has "$TMP/out" "one: equal within the tolerance (1 elements, 1 differ by at most 2 ulp, abs 2.38e-07)"
# the smallest subnormal 0x00000001 and its negative 0x80000001: 2 ULP apart, across both zeros
npy sub f4 2 0x00000001 0x00000001
npy negsub f4 2 0x80000001 0x00000000
runok 1 compare --ulp 1 "$TMP/sub.npy" "$TMP/negsub.npy" && has "$TMP/out" "sub: 1 of 2 elements differ (max ulp 2,"
runok 0 compare --ulp 2 "$TMP/sub.npy" "$TMP/negsub.npy"
# -0.0 (0x80000000) and +0.0: equal unless --signed-zero
npy pz f4 1 0x00000000
npy nz f4 1 0x80000000
runok 0 compare "$TMP/pz.npy" "$TMP/nz.npy"
runok 1 compare --signed-zero "$TMP/pz.npy" "$TMP/nz.npy" && has "$TMP/out" "expected 0, got -0 (signed zero)"
# two NaNs with other payloads: equal unless --nan-exact; a NaN never equals a number
npy nan1 f4 2 0x7fc00000 0x3f800000
npy nan2 f4 2 0x7fc00001 0x3f800000
npy nan3 f4 2 0x7fc00000 0x7fc00000
runok 0 compare "$TMP/nan1.npy" "$TMP/nan2.npy"
runok 1 compare --nan-exact "$TMP/nan1.npy" "$TMP/nan2.npy" && has "$TMP/out" "expected nan (0x7fc00000), got nan (0x7fc00001) (NaN)"
runok 1 compare --abs 1e30 --ulp 4000000000 "$TMP/nan1.npy" "$TMP/nan3.npy" && has "$TMP/out" "first [1]: expected 1, got nan (NaN)"
# abs border: |1.5 - 1.0| = 0.5 exactly
npy a1 f4 1 0x3f800000
npy a15 f4 1 0x3fc00000
runok 0 compare --abs 0.5 "$TMP/a1.npy" "$TMP/a15.npy"
runok 1 compare --abs 0.4999 "$TMP/a1.npy" "$TMP/a15.npy"
# rel border: |5 - 4| = 1 = 0.25 * |4|; ANY of the tolerances passes it
npy r4 f4 1 0x40800000
npy r5 f4 1 0x40a00000
runok 0 compare --rel 0.25 "$TMP/r4.npy" "$TMP/r5.npy"
runok 1 compare --rel 0.2 "$TMP/r4.npy" "$TMP/r5.npy"
runok 0 compare --abs 0.1 --rel 0.25 "$TMP/r4.npy" "$TMP/r5.npy"
runok 1 compare --abs 0.1 --ulp 1 "$TMP/r4.npy" "$TMP/r5.npy"
# half: 1.0 = 0x3c00, 0x3c01 one ULP above (2^-10 = 0.000977); double: 1.0 and the next double
npy h1 f2 1 0x3c00
npy h2 f2 1 0x3c01
runok 1 compare "$TMP/h1.npy" "$TMP/h2.npy" && has "$TMP/out" "expected 1, got 1.001 (1 ulp, abs diff 0.000977)"
runok 0 compare --ulp 1 "$TMP/h1.npy" "$TMP/h2.npy"
npy d1 f8 1 0x3ff0000000000000
npy d2 f8 1 0x3ff0000000000003
runok 1 compare --ulp 2 "$TMP/d1.npy" "$TMP/d2.npy" && has "$TMP/out" "(3 ulp, abs diff 6.66e-16)"

# ---- integers ----------------------------------------------------------------------------------
npy i1 i4 3 5 -3 100
npy i2 i4 3 5 -1 100
runok 1 compare "$TMP/i1.npy" "$TMP/i2.npy" && has "$TMP/out" "i1: 1 of 3 elements differ (max diff 2,"
has "$TMP/out" "first [1]: expected -3, got -1 (diff 2)"
runok 0 compare --ulp 2 "$TMP/i1.npy" "$TMP/i2.npy" &&
  has "$TMP/out" "i1: equal within the tolerance (3 elements, 1 differ by at most 2)"
runok 1 compare --abs 1 "$TMP/i1.npy" "$TMP/i2.npy"
# bool (numpy's |b1) is compared as uint8
"$PY" -c "import numpy as np; np.save('$TMP/b1.npy', np.array([True, False])); np.save('$TMP/b2.npy', np.array([True, True]))"
runok 1 compare "$TMP/b1.npy" "$TMP/b2.npy" && has "$TMP/out" "first [1]: expected 0, got 1 (diff 1)"
# long: INT64_MIN against INT64_MAX, 2^64 - 1 apart, exactly
npy l1 i8 1 -9223372036854775808
npy l2 i8 1 9223372036854775807
runok 1 compare --ulp 18446744073709551614 "$TMP/l1.npy" "$TMP/l2.npy"
runok 0 compare --ulp 18446744073709551615 "$TMP/l1.npy" "$TMP/l2.npy"
npy u1 u1 4 0 255 7 7
npy u2 u1 4 0 0 7 9
runok 1 compare --json "$TMP/u1.npy" "$TMP/u2.npy"
if "$PY" - "$TMP/out" <<'EOF'; then ok; else fail "--json of two uint8 arrays: $(cat "$TMP/out")"; fi
import json, sys
d = json.load(open(sys.argv[1]))
f = d["files"][0]
assert d["status"] == "differ" and d["compared"] == 1 and d["differ"] == 1, d
assert f["name"] == "u1" and f["dtype"] == "|u1" and f["shape"] == [4], f
assert f["mismatches"] == 2 and f["elements"] == 4 and f["max_ulp"] == 255, f
assert f["first"]["index"] == [1] and f["first"]["expected"] == "255" and f["first"]["actual"] == "0", f
assert f["worst"]["index"] == [1] and f["worst"]["ulp"] == 255, f  # |255-0| > |7-9|
EOF

# ---- shapes: multi-dimensional indices; first and worst ----------------------------------------
# a (3,4) float array; [1,2] is 1 ULP off, [2,3] 5 ULP (C order: flat 6 and 11)
"$PY" - "$TMP" <<'EOF'
import sys, numpy as np
e = np.arange(12, dtype=np.float32).reshape(3, 4) + 1
o = e.copy()
o.view(np.uint32)[1, 2] += 1
o.view(np.uint32)[2, 3] += 5
np.save(sys.argv[1] + "/m34.npy", e)
np.save(sys.argv[1] + "/m34b.npy", o)
EOF
runok 1 compare "$TMP/m34.npy" "$TMP/m34b.npy" && has "$TMP/out" "m34: 2 of 12 elements differ (max ulp 5,"
has "$TMP/out" "first [1,2]: expected 7, got 7.00000048 (1 ulp"
has "$TMP/out" "worst [2,3]: expected 12, got 12.0000048 (5 ulp"
runok 1 compare --json "$TMP/m34.npy" "$TMP/m34b.npy"
if "$PY" - "$TMP/out" <<'EOF'; then ok; else fail "--json of the (3,4) arrays: $(cat "$TMP/out")"; fi
import json, sys
f = json.load(open(sys.argv[1]))["files"][0]
assert f["shape"] == [3, 4] and f["mismatches"] == 2 and f["max_ulp"] == 5, f
assert f["first"]["index"] == [1, 2] and f["first"]["ulp"] == 1 and f["first"]["at"] == "[1,2]", f
assert f["worst"]["index"] == [2, 3] and f["worst"]["ulp"] == 5, f
assert f["first"]["field"] is None
EOF

# Fortran order: the same arrays stored first index fastest; indices still name [row,column]
"$PY" - "$TMP" <<'EOF'
import sys, numpy as np
for n in ("m34", "m34b"):
    np.save(sys.argv[1] + "/" + n + "f.npy", np.asfortranarray(np.load(sys.argv[1] + "/" + n + ".npy")))
EOF
runok 1 compare "$TMP/m34f.npy" "$TMP/m34bf.npy" && has "$TMP/out" "first [1,2]: expected 7, got 7.00000048 (1 ulp"
has "$TMP/out" "worst [2,3]: expected 12, got 12.0000048 (5 ulp"
# a C-order file against a Fortran-order one: compared index by index, not byte by byte
runok 0 compare "$TMP/m34.npy" "$TMP/m34f.npy"
runok 1 compare "$TMP/m34.npy" "$TMP/m34bf.npy" && has "$TMP/out" "first [1,2]: expected 7, got 7.00000048 (1 ulp"
has "$TMP/out" "worst [2,3]: expected 12, got 12.0000048 (5 ulp"
runok 1 compare "$TMP/m34.npy" "$TMP/l1.npy" 2>/dev/null
runok 1 compare "$TMP/sub.npy" "$TMP/i1.npy" && has "$TMP/out" "the dtypes differ"
npy s4 f4 4 0 0 0 0
runok 1 compare "$TMP/m34.npy" "$TMP/s4.npy" 2>/dev/null
npy s22 f4 2,2 0 0 0 0
runok 1 compare "$TMP/s4.npy" "$TMP/s22.npy" && has "$TMP/out" "the shapes differ: expected (4,), output (2, 2)"

# ---- structured dtypes: field by field ---------------------------------------------------------
"$PY" - "$TMP" <<'EOF'
import sys, numpy as np
# 4 bytes of padding after pos: numpy's descr lists them as ('', '|V4'), which is not compared
dt = np.dtype({"names": ["id", "pos"], "formats": ["<i4", ("<f4", (2,))], "offsets": [0, 4], "itemsize": 16})
e = np.zeros(3, dtype=dt)
e["id"] = [1, 2, 3]
e["pos"] = [[0.5, 1.5], [2.5, 3.5], [4.5, 5.5]]
o = e.copy()
o["pos"][1, 1] = 3.75
np.save(sys.argv[1] + "/st.npy", e)
np.save(sys.argv[1] + "/st2.npy", o)
np.save(sys.argv[1] + "/st4.npy", np.zeros(2, dtype=[("id", "<i4"), ("raw", "V4")]))
np.save(sys.argv[1] + "/st3.npy", np.zeros(3, dtype=[("id", "<i4"), ("pos", "<f8", (2,))]))
EOF
runok 1 compare "$TMP/st.npy" "$TMP/st2.npy" && has "$TMP/out" "st: 1 of 9 elements differ"
has "$TMP/out" "first [1].pos[1]: expected 3.5, got 3.75"
runok 0 compare --abs 0.25 "$TMP/st.npy" "$TMP/st2.npy"
runok 1 compare "$TMP/st.npy" "$TMP/st3.npy" && has "$TMP/out" "st: the dtypes differ"
runok 2 compare "$TMP/st4.npy" "$TMP/st4.npy" && has "$TMP/out" "field \`raw\`: a void dtype (spvi compares numbers)"

# ---- files and directories ---------------------------------------------------------------------
npy f8a f8 2 0 0
runok 1 compare "$TMP/one.npy" "$TMP/f8a.npy" && has "$TMP/out" "the dtypes differ: expected <f4, output <f8"
runok 1 compare "$TMP/m34.npy" "$TMP/one.npy" 2>/dev/null
mkdir -p "$TMP/E" "$TMP/O"
cp "$TMP/one.npy" "$TMP/E/arg0.npy"
cp "$TMP/one2.npy" "$TMP/O/arg0.npy"
cp "$TMP/i1.npy" "$TMP/E/arg1.npy"
cp "$TMP/i1.npy" "$TMP/O/arg2.npy"
cp "$TMP/u1.npy" "$TMP/O/arg0.written.npy" # --groups masks are not compared
runok 1 compare "$TMP/E" "$TMP/O" && has "$TMP/out" "arg1: missing: \`$TMP/O\` has no arg1.npy"
has "$TMP/out" "arg2: missing: \`$TMP/E\` has no arg2.npy"
has "$TMP/out" "compare: 3 of 3 files differ"
cp "$TMP/i1.npy" "$TMP/O/arg1.npy"
cp "$TMP/i1.npy" "$TMP/E/arg2.npy"
cp "$TMP/one2.npy" "$TMP/E/arg2.npy" && cp "$TMP/one.npy" "$TMP/O/arg2.npy"
# per-file tolerances: arg0 and arg2 are each 2 ULP off; only arg0 gets ulp=2
runok 1 compare --tol arg0:ulp=2 "$TMP/E" "$TMP/O" && has "$TMP/out" "arg2: 1 of 1 elements differ"
has "$TMP/out" "arg0: equal within the tolerance"
runok 0 compare --tol arg0:ulp=2 --tol arg2:abs=1e-6,rel=0 "$TMP/E" "$TMP/O"
runok 2 compare --tol arg9:ulp=2 "$TMP/E" "$TMP/O" && has "$TMP/err" "--tol \`arg9\`: no file \`arg9.npy\` was compared"
# unreadable and bad usage: exit 2
runok 2 compare "$TMP/none.npy" "$TMP/one.npy" && has "$TMP/err" "cannot read"
printf 'not numpy' >"$TMP/bad.npy"
runok 2 compare "$TMP/bad.npy" "$TMP/one.npy" && has "$TMP/out" "is not an .npy file"
runok 2 compare "$TMP/E" "$TMP/one.npy" && has "$TMP/err" "is a directory but"
runok 2 compare --ulp -1 "$TMP/one.npy" "$TMP/one.npy" && has "$TMP/err" "--ulp"
runok 2 compare --abs nan "$TMP/one.npy" "$TMP/one.npy"
runok 2 compare --tol arg0 "$TMP/one.npy" "$TMP/one.npy" && has "$TMP/err" "expects NAME:KEY=V"
runok 2 compare --tol arg0:ulps=1 "$TMP/one.npy" "$TMP/one.npy" && has "$TMP/err" "is not ulp=N, abs=X or rel=X"
runok 2 compare "$TMP/one.npy" && has "$TMP/err" "compare needs EXPECTED and OUTPUT"
runok 2 compare --bogus "$TMP/one.npy" "$TMP/one.npy" && has "$TMP/err" "unknown option \`--bogus\`"
"$PY" -c "import numpy as np; np.save('$TMP/big.npy', np.zeros(2, dtype='>f4'))"
runok 2 compare "$TMP/big.npy" "$TMP/big.npy" && has "$TMP/out" "big-endian"

# ---- spvi run --expect -------------------------------------------------------------------------
CLANG=${CLANG:-clang-14}
LLVM_SPIRV=${LLVM_SPIRV:-llvm-spirv-14}
if ! "$CLANG" -cl-std=CL2.0 -target spir64 -emit-llvm -c -O0 -g -Xclang -finclude-default-header \
    "$HERE/compare/kernels.cl" -o "$TMP/k.bc" || ! "$LLVM_SPIRV" "$TMP/k.bc" -o "$TMP/k.spv"; then
  echo "test_compare: cannot compile $HERE/compare/kernels.cl" >&2
  exit 1
fi
K=$TMP/k.spv
mkdir -p "$TMP/ref" "$TMP/bad"
"$PY" -c "
import numpy as np
np.save('$TMP/ref/arg1.npy', np.array([2, 4, 6, 8], dtype=np.float32))   # 2 * (1, 2, 3, 4)
np.save('$TMP/bad/arg1.npy', np.array([2, 4, 6, 9], dtype=np.float32))
np.save('$TMP/in.npy', np.array([1, 2, 3, 4], dtype=np.float32))"
runok 0 run "$K" -k scale -g 4 'float[4]=range(1)' 'float[4]' float:2 --expect "$TMP/ref" 2>/dev/null &&
  has "$TMP/err" "arg1: equal (4 elements)"
runok 1 run "$K" -k scale -g 4 'float[4]=range(1)' 'float[4]' float:2 --expect "$TMP/bad" &&
  has "$TMP/err" "arg1: 1 of 4 elements differ"
has "$TMP/err" "first [3]: expected 9, got 8"
runok 0 run "$K" -k scale -g 4 'float[4]=range(1)' 'float[4]' float:2 --expect "$TMP/bad" --abs 1
runok 0 run "$K" -k scale -g 4 'float[4]=range(1)' 'float[4]' float:2 --expect "$TMP/bad" --tol arg1:rel=0.112
runok 1 run "$K" -k scale -g 4 'float[4]=range(1)' 'float[4]' float:2 --expect "$TMP/bad" --tol arg1:rel=0.11
# (|8 - 9| = 1 <= rel * 9 for rel >= 1/9 = 0.111...)
# with --out the outputs stay there as well
runok 0 run "$K" -k scale -g 4 'float[4]=range(1)' 'float[4]' float:2 --expect "$TMP/ref" --out "$TMP/kept" &&
  if [ -f "$TMP/kept/arg1.npy" ]; then ok; else fail "--expect with --out: no $TMP/kept/arg1.npy"; fi
runok 2 run "$K" -k scale -g 4 'float[4]=range(1)' 'float[4]' float:2 --expect "$TMP/nodir" &&
  has "$TMP/err" "--expect \`$TMP/nodir\`: not a directory"
runok 2 run "$K" -k scale -g 4 'float[4]=range(1)' 'float[4]' float:2 --ulp 1 && has "$TMP/err" "go with --expect DIR"
runok 2 run "$K" -k scale -g 4 'float[4]=range(1)' 'float[4]' float:2 --expect "$TMP/ref" --tol arg7:ulp=1 &&
  has "$TMP/err" "no file \`arg7.npy\` was compared"

# ---- spvi test ---------------------------------------------------------------------------------
mkdir -p "$TMP/suite/ref"
cp "$K" "$TMP/suite/k.spv"
cp "$TMP/ref/arg1.npy" "$TMP/suite/ref/scaled.npy"
cp "$TMP/bad/arg1.npy" "$TMP/suite/ref/wrong.npy"
cp "$TMP/in.npy" "$TMP/suite/in.npy"
cat >"$TMP/suite/cases.json" <<'EOF'
{"cases": [
  {"name": "scale", "module": "k.spv", "kernel": "scale", "global": [4],
   "args": ["float[4]=@in.npy", "float[4]", "float:2"], "expect": {"arg1": "ref/scaled.npy"}},
  {"name": "scale wrong", "module": "k.spv", "kernel": "scale", "global": "4", "local": [2],
   "args": ["float[4]=range(1)", "float[4]", "float:2"], "expect": {"arg1": "ref/wrong.npy"}},
  {"name": "scale within", "module": "k.spv", "kernel": "scale", "global": 4,
   "args": ["float[4]=range(1)", "float[4]", "float:2"], "tolerance": {"abs": 1},
   "expect": {"arg1": "ref/wrong.npy"}},
  {"name": "race", "module": "k.spv", "kernel": "last_writer", "global": [4], "local": [4],
   "options": ["--check", "races"], "args": ["int[1]"], "reports": [{"check": "race", "line": 8}]},
  {"name": "race unexpected", "module": "k.spv", "kernel": "last_writer", "global": [4], "local": [4],
   "options": ["--check", "races"], "args": ["int[1]"]},
  {"name": "fault", "module": "k.spv", "kernel": "past_end", "global": [4],
   "args": ["int[4]"], "fault": {"check": "out-of-bounds", "line": 12, "file": "kernels.cl"}},
  {"name": "division", "module": "k.spv", "kernel": "divide", "global": [2],
   "args": ["int[2]=6,7", "int[2]=3,0", "int[2]"], "expect": {"arg2": "ref/scaled.npy"}},
  {"name": "bad args", "module": "k.spv", "kernel": "scale", "global": [4], "args": ["float[4]"]}
]}
EOF
runok 1 test -j 2 --junit "$TMP/junit.xml" --sarif "$TMP/out.sarif" "$TMP/suite/cases.json" &&
  has "$TMP/out" "4 passed, 4 failed"
has "$TMP/out" "PASS  scale ("
has "$TMP/out" "FAIL  scale wrong ("
has "$TMP/out" "arg1: 1 of 4 elements differ"
has "$TMP/out" "PASS  scale within ("
has "$TMP/out" "PASS  race ("
has "$TMP/out" "FAIL  race unexpected ("
has "$TMP/out" "unexpected report race at"
has "$TMP/out" "PASS  fault ("
has "$TMP/out" "FAIL  division ("
has "$TMP/out" "unexpected report div-by-zero at"
has "$TMP/out" "the dtypes differ: expected <f4, output <i4"
has "$TMP/out" "ERROR bad args ("
has "$TMP/out" "kernel \`scale\` takes 3 arguments"
# the verdicts come in the file's order whatever order the runs end in
if [ "$(grep -E '^(PASS|FAIL|ERROR)' "$TMP/out" | sed 's/ (.*//;s/^[A-Z]* *//' | tr '\n' '|')" = \
  "scale|scale wrong|scale within|race|race unexpected|fault|division|bad args|" ]; then ok; else
  fail "spvi test's order: $(cat "$TMP/out")"
fi
if "$PY" - "$TMP/junit.xml" <<'EOF'; then ok; else fail "JUnit XML: $(cat "$TMP/junit.xml")"; fi
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites" and root.get("tests") == "8", root.attrib
suite = root.find("testsuite")
assert suite.get("tests") == "8" and suite.get("failures") == "3" and suite.get("errors") == "1", suite.attrib
cases = suite.findall("testcase")
assert [c.get("name") for c in cases] == ["scale", "scale wrong", "scale within", "race", "race unexpected", "fault",
                                          "division", "bad args"]
for c in cases:
    assert c.get("classname") and float(c.get("time")) >= 0
status = {c.get("name"): (c.find("failure") is not None, c.find("error") is not None) for c in cases}
assert status["scale"] == (False, False) and status["scale wrong"] == (True, False), status
assert status["bad args"] == (False, True) and status["race unexpected"] == (True, False), status
assert "1 of 4 elements differ" in cases[1].find("failure").get("message") + cases[1].find("failure").text
assert "takes 3 arguments" in cases[7].find("error").get("message")
EOF
if "$PY" - "$TMP/out.sarif" <<'EOF'; then ok; else fail "SARIF: $(cat "$TMP/out.sarif")"; fi
import json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == "2.1.0" and d["$schema"].endswith("sarif-2.1.0.json")
run = d["runs"][0]
assert run["tool"]["driver"]["name"] == "spvi"
res = run["results"]
got = sorted((r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in res)
# race (expected in "race", not in "race unexpected"), the expected fault, the division by zero
assert got == [("div-by-zero", "error", 16), ("out-of-bounds", "note", 12), ("race", "error", 8), ("race", "note", 8)], got
for r in res:
    uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri.endswith("kernels.cl"), uri
    assert r["ruleId"] in [x["id"] for x in run["tool"]["driver"]["rules"]]
EOF
# the case file's own mistakes: exit 2 with the case named. bad_case FILE TEXT MESSAGE
bad_case() {
  printf '%b' "$2" >"$TMP/suite/$1"
  runok 2 test "$TMP/suite/$1" && has "$TMP/err" "$3"
}
bad_case bad.json '{"cases": [{"name": "x", "module": "k.spv", "global": 4, "args": [], "colour": 1}]}' \
  "case 1 (\`x\`): unknown key \`colour\`"
bad_case bad.json '{"cases": [{"module": "k.spv", "global": 4,\n "args": [}]}' "bad.json\`:2: not valid JSON"
bad_case bad.json '{"cases": [{"module": "k.spv", "global": 4, "args": [], "options": ["--out", "x"]}]}' \
  "is spvi test's own"
bad_case bad.json '[{"module": "k.spv", "global": 4, "args": [], "tolerance": {"file": "x.npy"}}]' \
  "tolerance key \`file\`: expected"
bad_case bad.json '[{"module": "k.spv", "global": 4, "args": [], "expect": {"arg0": {"file": "x.npy", "ulp": 0.5}}}]' \
  "tolerance key \`ulp\`: expected \"ulp\" (a whole number >= 0)"
runok 2 test "$TMP/suite/none.json" && has "$TMP/err" "cannot read"
printf '{"cases": [{"module": "k.spv", "kernel": "scale", "global": 4, "args": ["float[4]=range(1)", "float[4]", "float:2"], "expect": {"arg1": {"file": "ref/scaled.npy", "ulp": 0}}}]}' >"$TMP/suite/one.json"
runok 0 test -j 1 "$TMP/suite/one.json" && has "$TMP/out" "1 passed, 0 failed"
has "$TMP/out" "PASS  case 1 ("

# YAML case files (.yaml, .yml): the same keys; plain scalars typed as JSON types them
cat >"$TMP/suite/cases.yaml" <<'EOF'
cases:
  - name: scale yaml
    module: k.spv
    kernel: scale
    global: 4
    args: ["float[4]=range(1)", "float[4]", "float:2"]
    expect:
      arg1: {file: ref/wrong.npy, abs: 1}    # |8 - 9| = 1
  - name: race yaml
    module: k.spv
    kernel: last_writer
    global: [4]
    local: "4"
    options: [--check, races]
    args: ["int[1]"]
    reports:
      - {check: race, line: 8}
EOF
runok 0 test --junit "$TMP/junit2.xml" "$TMP/suite/cases.yaml" && has "$TMP/out" "2 passed, 0 failed"
has "$TMP/out" "PASS  race yaml ("
bad_case dup.yml 'cases:\n  - name: x\n    name: y\n' \
  "dup.yml\`: not a YAML case file: line 3: key \`name\` appears twice"
bad_case bad.yaml 'cases: [\n  {name: x\n' "bad.yaml\`: not a YAML case file: line 3:"
bad_case frac.yaml 'cases:\n  - {module: k.spv, global: 4.5, args: []}\n' "\"global\" is not sizes"

echo "test_compare: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
