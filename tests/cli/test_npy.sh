#!/bin/sh
# test_npy.sh — `spvi run` and numpy as numpy users expect (docs/cli.md "Buffer initialisers",
# "Output"): .npy inputs of any C-order shape, TYPE[]=@FILE, --out keeping the input's shape,
# --print[=N] bounded. numpy (Debian python3-numpy, tools/setup.sh) writes the inputs and reads the
# outputs back; every expected value is computed by numpy from the inputs, never taken from spvi.
#
# usage: BUILD=build sh tests/cli/test_npy.sh      (prints "N passed, N failed"; exit 1 on failure)
# shellcheck disable=SC2016
set -u
BUILD=${BUILD:-build}
SPVI=${SPVI:-$BUILD/spvi}
CLANG=${CLANG:-clang-14}
LLVM_SPIRV=${LLVM_SPIRV:-llvm-spirv-14}
PY=${PY:-/usr/bin/python3} # Debian's python3, the one python3-numpy is installed for
HERE=$(dirname "$0")/npy
TMP=$(mktemp -d /tmp/spvi-npy-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT INT TERM
passed=0
failed=0

[ -x "$SPVI" ] || { echo "test_npy: $SPVI is not built (run make first)" >&2; exit 1; }
"$PY" -c 'import numpy' || { echo "test_npy: $PY has no numpy (sh tools/setup.sh installs python3-numpy)" >&2; exit 1; }
for cl in "$HERE"/*.cl; do
  name=$(basename "$cl" .cl)
  if ! "$CLANG" -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -finclude-default-header -O0 \
      -debug-info-kind=limited -dwarf-version=4 -emit-llvm-bc "$cl" -o "$TMP/$name.bc" ||
     ! "$LLVM_SPIRV" "$TMP/$name.bc" -o "$TMP/$name.spv"; then
    echo "test_npy: cannot compile $cl" >&2
    exit 1
  fi
done
M=$TMP/npy.spv

fail() { echo "FAIL: $1" >&2; failed=$((failed + 1)); }
ok() { passed=$((passed + 1)); }
# run EXPECTED_STATUS ARGS...: stdout in $TMP/out, stderr in $TMP/err.
run() {
  want=$1
  shift
  "$SPVI" "$@" >"$TMP/out" 2>"$TMP/err"
  got=$?
  [ "$got" -eq "$want" ] && return 0
  fail "spvi $* exited $got, expected $want; stderr: $(cat "$TMP/err")"
  return 1
}
# refused MESSAGE ARGS...: `spvi run ARGS` exits 2 saying MESSAGE.
refused() {
  msg=$1
  shift
  if run 2 run "$@"; then expect_err "$msg"; fi
}
expect_err() { if grep -qF -- "$1" "$TMP/err"; then ok; else fail "stderr lacks \`$1\`: $(cat "$TMP/err")"; fi; }
# py WHAT CODE: runs numpy code in $TMP (np imported); its failing assert is the test's failure.
py() {
  what=$1
  shift
  if (cd "$TMP" && "$PY" -c "import numpy as np
$1") 2>"$TMP/pyerr"; then ok; else fail "$what: $(tail -3 "$TMP/pyerr")"; fi
}

# --- shapes: a (32, 16) array fills float[512]; the output keeps (32, 16) ------------------------
py "write a (32, 16) input" "np.save('a.npy', np.arange(512, dtype='<f4').reshape(32, 16) / 8)"
if run 0 run "$M" -k twice -g 512 "float[512]=@$TMP/a.npy" 'float[512]' --out "$TMP/o1"; then
  py "(32, 16) in: arg0 keeps the shape, arg1 is flat" "
a = np.load('a.npy'); o0 = np.load('o1/arg0.npy'); o1 = np.load('o1/arg1.npy')
assert o0.shape == (32, 16) and o0.dtype == np.dtype('<f4') and (o0 == a).all(), o0.shape
assert o1.shape == (512,) and (o1 == 2 * a.ravel()).all(), o1.shape"
fi
# T[]=@file: the count from the file; the output of an in-out buffer keeps the shape too
if run 0 run "$M" -k twice -g 512 "float[]=@$TMP/a.npy" "float[]=@$TMP/a.npy" --out "$TMP/o2"; then
  py "float[]=@ (32, 16)" "
a = np.load('a.npy'); o1 = np.load('o2/arg1.npy')
assert o1.shape == (32, 16) and (o1 == 2 * a).all(), o1.shape"
fi
# 3-D shape, int dtype, and a packed (N, 3) float3 file going back as (N, 4)
py "write (2, 4, 3) float3 rows" "np.save('v.npy', np.arange(24, dtype='<f4').reshape(2, 4, 3))"
if run 0 run "$M" -k bump3 -g 8 "float3[]=@$TMP/v.npy" --out "$TMP/o3"; then
  py "float3[]=@ (2, 4, 3) -> (2, 4, 4)" "
v = np.load('v.npy'); o = np.load('o3/arg0.npy')
assert o.shape == (2, 4, 4), o.shape
assert (o[..., :3] == v + np.array([1, 2, 3], dtype='<f4')).all() and (o[..., 3] == 0).all()"
fi
# refused, with a message naming the file and what was expected
py "write mismatching inputs" "
np.save('f64.npy', np.zeros((32, 16)))
np.save('small.npy', np.zeros((31, 16), dtype='<f4'))
np.save('fortran.npy', np.asfortranarray(np.zeros((32, 16), dtype='<f4')))"
refused "small.npy\` has shape (31, 16) (496 items) but float[512] needs 512" "$M" -k twice -g 512 "float[512]=@$TMP/small.npy" 'float[512]'
refused "f64.npy\` has dtype '<f8' but float needs '<f4'" "$M" -k twice -g 512 "float[512]=@$TMP/f64.npy" 'float[512]'
refused "fortran.npy\` is in Fortran order; spvi reads C-order arrays" "$M" -k twice -g 512 "float[]=@$TMP/fortran.npy" 'float[512]'

# --- --print[=N]: bounded, with a summary ----------------------------------------------------------
# 100000 floats k/4 with k = 0 … 99999 and a NaN at 7: --print=6 shows 0 0.25 0.5 and the last three
py "write a long input" "
x = np.arange(100000, dtype='<f4') / 4; x[7] = np.nan; np.save('long.npy', x)"
if run 0 run "$M" -k twice -g 100000 "float[]=@$TMP/long.npy" 'float[100000]' --print=6; then
  printf '%s\n' \
    'arg0 float[100000]: 100000 elements, 6 shown (the first 3 and the last 3); min 0, max 24999.75, 1 NaN' \
    '  [0] 0 0.25 0.5' '  ...' '  [99997] 24999.25 24999.5 24999.75' \
    'arg1 float[100000]: 100000 elements, 6 shown (the first 3 and the last 3); min 0, max 49999.5, 1 NaN' \
    '  [0] 0 0.5 1' '  ...' '  [99997] 49998.5 49999 49999.5' >"$TMP/want"
  if cmp -s "$TMP/want" "$TMP/out"; then ok; else fail "--print=6: $(cat "$TMP/out")"; fi
fi
# the default shows 256 elements per buffer: 2 summary lines, 2 "...", no value line over 100 columns
if run 0 run "$M" -k twice -g 100000 "float[]=@$TMP/long.npy" 'float[100000]' --print; then
  if [ "$(wc -c <"$TMP/out")" -lt 8000 ] && [ "$(grep -c '^  \.\.\.$' "$TMP/out")" -eq 2 ] &&
     [ "$(grep '^  \[' "$TMP/out" | awk 'length > 100' | wc -l)" -eq 0 ]; then ok; else fail "--print: $(head -c 600 "$TMP/out")"; fi
  # 128 + 128 values per buffer in the wrapped lines (the summary and '...' lines aside)
  n=$(grep '^  \[' "$TMP/out" | sed 's/^  \[[0-9]*\]//' | tr ' ' '\n' | grep -c .)
  if [ "$n" -eq 512 ]; then ok; else fail "--print showed $n values, expected 512"; fi
fi
if run 2 run "$M" -k twice -g 4 'float[4]' 'float[4]' --print=x; then
  expect_err '--print=`x`: expects a number of elements'
fi

# --- struct buffers: structured dtypes in and out, --print field by field ------------------------
S=$TMP/structs.spv
# struct P as OpenCL C lays it out: float3 is 16-byte aligned, so numpy needs the offsets and the
# item size spelled out (align=True would give 72 bytes, not 80)
py "write struct inputs" "
inner = np.dtype([('x', '<i2'), ('y', '<f4')], align=True)
P = np.dtype({'names': ['a', 'b', 'v', 'in', 'arr', 'c'],
              'formats': ['<i4', '<f8', ('<f4', (4,)), inner, ('<u4', (2, 3)), 'i1'],
              'offsets': [0, 8, 16, 32, 40, 64], 'itemsize': 80})
p = np.zeros(3, P)
p['a'] = [-5, 0, 7]; p['b'] = [0.25, -1.5, 3]; p['v'] = np.arange(12).reshape(3, 4)
p['in']['x'] = [1, 2, 3]; p['in']['y'] = [0.5, 1, 2]; p['arr'] = np.arange(18).reshape(3, 2, 3); p['c'] = [65, 66, 67]
np.save('p.npy', p)
Q = np.dtype([('c', 'i1'), ('i', '<i4')], align=True)  # 3 padding bytes after c
q = np.zeros(4, Q); q['c'] = [1, -2, 3, 100]; q['i'] = [10, 20, -30, 1000]
np.save('q.npy', q)
np.save('q5.npy', np.zeros(4, [('c', 'i1'), ('i', '<i4')]))  # packed: 5-byte items
np.save('q2.npy', np.zeros(4, np.dtype({'names': ['c', 'i'], 'formats': ['i1', '<i4'], 'offsets': [0, 2], 'itemsize': 8})))"
if run 0 run "$S" -k bump -g 3 "uchar[]=@$TMP/p.npy" --out "$TMP/s1"; then
  py "struct P out: structured dtype from the debug info, values field by field" "
p = np.load('p.npy'); o = np.load('s1/arg0.npy')
assert o.shape == (3,) and o.dtype.itemsize == 80, (o.shape, o.dtype)
assert o.dtype.names == ('a', 'b', 'v', 'in', 'arr', 'c'), o.dtype.names
assert [o.dtype.fields[n][1] for n in o.dtype.names] == [0, 8, 16, 32, 40, 64]
assert o.dtype['arr'].subdtype == (np.dtype('<u4'), (2, 3)) and o.dtype['in'].names == ('x', 'y')
assert (o['a'] == p['a'] + 1).all() and (o['b'] == p['b'] * 2).all()
assert (o['v'][:, :3] == p['v'][:, :3] + [1, 2, 3]).all()
assert (o['in']['x'] == p['in']['x'] - 1).all() and (o['in']['y'] == p['in']['y'] + 0.5).all()
assert (o['arr'] == p['arr'] + 1).all() and (o['c'] == p['c'] + 1).all()"
  # spvi's own output reads back in
  if run 0 run "$S" -k bump -g 3 "uchar[240]=@$TMP/s1/arg0.npy"; then ok; fi
fi
# a (2, 2) array of structs keeps its shape
py "write (2, 2) structs" "
Q = np.dtype([('c', 'i1'), ('i', '<i4')], align=True)
q = np.zeros((2, 2), Q); q['c'] = [[1, 2], [3, 4]]; q['i'] = [[5, 6], [7, 8]]; np.save('q22.npy', q)"
if run 0 run "$S" -k qsum -g 4 "uchar[]=@$TMP/q22.npy" 'int[4]' --out "$TMP/s4"; then
  py "structs keep a (2, 2) shape" "
o = np.load('s4/arg0.npy'); q = np.load('q22.npy')
assert o.shape == (2, 2) and o.dtype == q.dtype and (o == q).all(), (o.shape, o.dtype)
assert (np.load('s4/arg1.npy') == [6, 8, 10, 12]).all()"
fi
if run 0 run "$S" -k qsum -g 4 "uchar[]=@$TMP/q.npy" 'int[4]' --out "$TMP/s2" --print; then
  py "struct Q (padding) in and out" "
q = np.load('q.npy'); o = np.load('s2/arg0.npy'); s = np.load('s2/arg1.npy')
assert o.dtype == q.dtype and (o == q).all(), (o.dtype, q.dtype)
assert (s == q['c'].astype(np.int32) + q['i']).all(), s"
  printf '%s\n' 'arg0 struct Q[4]: {c: 1, i: 10} {c: -2, i: 20} {c: 3, i: -30} {c: 100, i: 1000}' \
    'arg1 int[4]: 11 18 -27 1100' >"$TMP/want"
  if cmp -s "$TMP/want" "$TMP/out"; then ok; else fail "struct --print: $(cat "$TMP/out")"; fi
fi
# without debug info the members are named by position
if ! "$CLANG" -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -finclude-default-header -O0 -emit-llvm-bc \
    "$HERE/structs.cl" -o "$TMP/structs0.bc" || ! "$LLVM_SPIRV" "$TMP/structs0.bc" -o "$TMP/structs0.spv"; then
  fail "cannot compile structs.cl without -g"
elif run 0 run "$TMP/structs0.spv" -k qsum -g 4 "uchar[]=@$TMP/q.npy" 'int[4]' --print=1 --out "$TMP/s3"; then
  printf '%s\n' 'arg0 struct Q[4]: 4 elements, 1 shown (the first 1 and the last 0)' '  [0] {f0: 1, f1: 10}' '  ...' \
    'arg1 int[4]: 4 elements, 1 shown (the first 1 and the last 0); min -27, max 1100' '  [0] 11' '  ...' >"$TMP/want"
  if cmp -s "$TMP/want" "$TMP/out"; then ok; else fail "struct --print without -g: $(cat "$TMP/out")"; fi
  py "struct Q without -g: fields f0, f1" "
o = np.load('s3/arg0.npy'); assert o.dtype.names == ('f0', 'f1') and o.dtype.itemsize == 8, o.dtype"
fi
refused "q5.npy\` has items of 5 bytes but struct Q is 8 bytes" "$S" -k qsum -g 4 "uchar[]=@$TMP/q5.npy" 'int[4]'
refused "q2.npy\`: its fields differ from struct Q's: the file has 1 × '<i4' at byte 2 where the struct has 1 × '<i4' at byte 4" "$S" -k qsum -g 4 "uchar[]=@$TMP/q2.npy" 'int[4]'
refused "q.npy\` holds a structured dtype: only the buffer of a struct pointer takes one" "$S" -k qsum -g 4 "uchar[32]=@$TMP/q.npy" "int[4]=@$TMP/q.npy"
refused "q.npy\` holds 4 structs (32 bytes) but uchar[16] is 16 bytes" "$S" -k qsum -g 4 "uchar[16]=@$TMP/q.npy" 'int[4]'

# --- images: --out writes PNG pictures beside the .npy --------------------------------------------
# Random channel values of each type (numpy's generator, seed 1), the image the kernel leaves as it
# is; png_check.py decodes the PNG with zlib and compares every sample with the documented
# conversion of the .npy values.
py "write image inputs" "
r = np.random.default_rng(1)
def save(name, dt, shape, lo, hi):
    np.save(name, r.integers(lo, hi, size=shape, endpoint=True).astype(dt))
save('u8.npy', '|u1', (3, 5, 4), 0, 255)
save('u16.npy', '<u2', (3, 5, 2), 0, 65535)
save('i8.npy', '|i1', (3, 5, 1), -128, 127)
save('g8.npy', '|u1', (3, 5, 1), 0, 255)
save('i16.npy', '<i2', (3, 5, 1), -32768, 32767)
save('u32.npy', '<u4', (3, 5, 1), 0, 200000)
save('i32.npy', '<i4', (3, 5, 1), -100000, 100000)
save('arr.npy', '|u1', (2, 3, 4, 1), 0, 255)
save('vol.npy', '<u2', (3, 2, 2, 2), 0, 65535)
save('row.npy', '|u1', (7, 4), 0, 255)
save('rows.npy', '|u1', (3, 7, 1), 0, 255)
f = r.uniform(-0.5, 1.5, size=(3, 5, 2)).astype('<f4')
f[0, 0, 0] = np.nan; f[0, 1, 0] = np.inf; f[0, 2, 0] = -np.inf; f[0, 3, 0] = 0.25; f[0, 4, 0] = 0.75
np.save('f32.npy', f)
np.save('f16.npy', f.astype('<f2'))"
# png_case KERNEL IMAGETYPE ORDER CHANNELTYPE DIMS NPY [PNG LAYER]...
png_case() {
  k=$1 it=$2 ord=$3 ct=$4 dims=$5 npy=$6
  shift 6
  rm -rf "$TMP/img"
  if run 0 run "$M" -k "$k" -g 1 "$it:$ord:$ct:$dims=@$TMP/$npy" --out "$TMP/img"; then
    [ $# -eq 0 ] && set -- arg0.png ""
    while [ $# -ge 2 ]; do
      if out=$(cd "$TMP" && "$PY" "$OLDPWD/$HERE/png_check.py" "img/$1" "img/arg0.npy" "$ord" "$ct" $2 2>&1); then ok
      else fail "$it:$ord:$ct $1: $out"; fi
      shift 2
    done
  fi
}
png_case keep2d image2d rgba unorm8 5,3 u8.npy
png_case keep2d image2d bgra unorm8 5,3 u8.npy
png_case keep2d image2d argb uint8 5,3 u8.npy
png_case keep2d image2d abgr uint8 5,3 u8.npy
png_case keep2d image2d r int8 5,3 i8.npy
png_case keep2d image2d sbgra unorm8 5,3 u8.npy
png_case keep2d image2d ra unorm16 5,3 u16.npy
png_case keep2d image2d rg uint16 5,3 u16.npy
png_case keep2d image2d rg float 5,3 f32.npy
png_case keep2d image2d ra half 5,3 f16.npy
png_case keep2d image2d r snorm8 5,3 i8.npy
png_case keep2d image2d luminance snorm16 5,3 i16.npy
png_case keep2d image2d r int16 5,3 i16.npy
png_case keep2d image2d r uint32 5,3 u32.npy
png_case keep2d image2d intensity unorm8 5,3 g8.npy
png_case keep2d image2d a unorm8 5,3 g8.npy
png_case keep2d image2d r int32 5,3 i32.npy
png_case keep2da image2d_array r unorm8 4,3,2 arr.npy arg0.0.png 0 arg0.1.png 1
png_case keep3d image3d rg unorm16 2,2,3 vol.npy arg0.0.png 0 arg0.1.png 1 arg0.2.png 2
png_case keep1d image1d rgba unorm8 7 row.npy
png_case keep1da image1d_array r unorm8 7,3 rows.npy
# the float conversion by hand: NaN and -inf 0, inf 255, 0.25 -> 63.75 -> 64, 0.75 -> 191.25 -> 191
rm -rf "$TMP/img"
if run 0 run "$M" -k keep2d -g 1 "image2d:rg:float:5,3=@$TMP/f32.npy" --out "$TMP/img"; then
  py "float PNG samples by hand" "
import sys; sys.path.insert(0, '$(cd "$HERE" && pwd)'); from png_check import read_png
pix, _, _ = read_png('img/arg0.png')
assert list(pix[0, :5, 0]) == [0, 255, 0, 64, 191], pix[0, :5, 0]"
fi

echo "test_npy: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
