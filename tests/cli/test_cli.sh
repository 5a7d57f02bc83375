#!/bin/sh
# test_cli.sh — end-to-end tests of the `spvi` command: compiles tests/cli/*.cl to SPIR-V with
# clang-14 + llvm-spirv-14 (tools/setup.sh installs both), runs $BUILD/spvi on them and checks
# stdout, stderr, exit statuses and the bytes of the .npy files written by --out. Every expected
# value is worked out by hand from the kernel source.
#
# usage: BUILD=build sh tests/cli/test_cli.sh      (prints "N passed, N failed"; exit 1 on failure)
#
# Messages quote names in backticks, which the expectations spell literally:
# shellcheck disable=SC2016
set -u
BUILD=${BUILD:-build}
SPVI=${SPVI:-$BUILD/spvi}
CLANG=${CLANG:-clang-14}
LLVM_SPIRV=${LLVM_SPIRV:-llvm-spirv-14}
HERE=$(dirname "$0")
TMP=$(mktemp -d /tmp/spvi-cli-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT INT TERM

passed=0
failed=0

if [ ! -x "$SPVI" ]; then
  echo "test_cli: $SPVI is not built (run make first)" >&2
  exit 1
fi

for cl in "$HERE"/*.cl; do
  name=$(basename "$cl" .cl)
  # language version: CL1.2 unless the first line says `// cl-std: CL2.0`
  std=$(sed -n '1s|^// cl-std: *\([A-Za-z0-9.]*\).*|\1|p' "$cl")
  if ! "$CLANG" -cc1 -triple spir64-unknown-unknown -cl-std="${std:-CL1.2}" -finclude-default-header -O0 \
      -emit-llvm-bc "$cl" -o "$TMP/$name.bc" || ! "$LLVM_SPIRV" "$TMP/$name.bc" -o "$TMP/$name.spv"; then
    echo "test_cli: cannot compile $cl" >&2
    exit 1
  fi
done

. "$HERE/lib.sh"

V=$TMP/vadd.spv
S=$TMP/several.spv

# --- vadd: range/fill inputs, --print ------------------------------------------------------------
if run 0 run "$V" -g 4 'float[4]=range(0)' 'float[4]=fill(10)' 'float[4]' --print; then
  expect_out 'arg0 float[4]: 0 1 2 3
arg1 float[4]: 10 10 10 10
arg2 float[4]: 10 11 12 13'
fi
# 0.1f + 0.2f = 0x3e99999a (0.300000012): %.9g prints it so it reads back to the same float.
if run 0 run "$V" -g 1 'float[1]=0.1' 'float[1]=0.2' 'float[1]' --print; then
  expect_out 'arg0 float[1]: 0.100000001
arg1 float[1]: 0.200000003
arg2 float[1]: 0.300000012'
fi
if run 0 run "$V" -l 2 -g 4 'float[4]=range(1,0.5)' 'float[4]=-1,-2,-3,-4' 'float[4]' --print --warp 1; then
  expect_out 'arg0 float[4]: 1 1.5 2 2.5
arg1 float[4]: -1 -2 -3 -4
arg2 float[4]: 0 -0.5 -1 -1.5'
fi

# --- --out: .npy bytes --------------------------------------------------------------------------
if run 0 run "$V" -g 4 'float[4]=range(0)' 'float[4]=fill(10)' 'float[4]' --out "$TMP/o/deep"; then
  # 10, 11, 12, 13 as float: 0x41200000 0x41300000 0x41400000 0x41500000, little-endian.
  { printf '\223NUMPY\001\000\166\000'
    printf "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }"
    printf '%60s\n' ''
    printf '\000\000\040\101\000\000\060\101\000\000\100\101\000\000\120\101'
  } >"$TMP/want.npy"
  if cmp -s "$TMP/want.npy" "$TMP/o/deep/arg2.npy"; then ok; else fail "arg2.npy differs from the hand-made file"; fi
  if [ -f "$TMP/o/deep/arg0.npy" ] && [ -f "$TMP/o/deep/arg1.npy" ]; then ok; else fail "--out wrote no arg0/arg1"; fi
  # An output read back as an input gives the same data.
  if run 0 run "$V" -g 4 "float[4]=@$TMP/o/deep/arg2.npy" 'float[4]' 'float[4]' --print; then
    expect_out 'arg0 float[4]: 10 11 12 13
arg1 float[4]: 0 0 0 0
arg2 float[4]: 10 11 12 13'
  fi
fi

# --- several kernels: -k, by value, float3, local, offsets --------------------------------------
if run 0 run "$S" -k scale -g 3 'int[3]=range(-1)' int:-3 --print; then
  expect_out 'arg0 int[3]: 3 0 -3'
fi
if run 0 run "$S" -k twice3 -g 2 'float3[2]=range(1)' --print --out "$TMP/f3"; then
  expect_out 'arg0 float3[2]: (2 4 6) (8 10 12)'
  # shape (2, 4): the padding slots are part of the memory image (and stay 0 here).
  if grep -qF "'shape': (2, 4), }" "$TMP/f3/arg0.npy"; then ok; else fail "float3 .npy shape is not (2, 4)"; fi
fi
if run 0 run "$S" -k rotate -g 8 -l 4 'int[8]' local:16 --print; then
  expect_out 'arg0 int[8]: 1 2 3 0 1 2 3 0'
fi
if run 0 run "$S" -k ids -g 3,2 'uint[6]' --print; then
  expect_out 'arg0 uint[6]: 0 100 200 1 101 201'
fi
if run 0 run "$S" -k ids -g 2,1 --offset 1,0 'uint[3]' --print; then
  expect_out 'arg0 uint[3]: 0 100 200'
fi

# --- faults: status 1, report on stderr, no outputs ---------------------------------------------
if run 1 run "$S" -k oob -g 4 'int[4]' --print --out "$TMP/fault"; then
  if [ -s "$TMP/err" ]; then ok; else fail "a fault printed nothing on stderr"; fi
  if [ -s "$TMP/out" ] || [ -e "$TMP/fault/arg0.npy" ]; then fail "outputs written after a fault"; else ok; fi
fi

# --- null buffer arguments: tested by the kernel, or a fault naming the argument -----------------
N=$TMP/nullarg.spv
if run 0 run "$N" -k maybe -g 3 'int[3]' null --print; then expect_out 'arg0 int[3]: -1 -1 -1'; fi
if run 0 run "$N" -k maybe -g 3 'int[3]' null --out "$TMP/nullout"; then
  if [ -s "$TMP/nullout/arg0.npy" ] && [ ! -e "$TMP/nullout/arg1.npy" ]; then ok; else fail "--out with a null argument: $(ls "$TMP/nullout")"; fi
fi
if run 0 run "$N" -k maybe -g 3 'int[3]' 'int[3]=4,5,6' --print; then
  expect_out 'arg0 int[3]: 4 5 6
arg1 int[3]: 4 5 6'
fi
if run 1 run "$N" -k deref -g 3 'int[3]' null; then
  expect_err 'spvi: fault: null pointer dereference in kernel `deref`'
  expect_err 'work-item global (0,0,0)'
  expect_err 'the pointer is argument 1 `in` (null pointer) plus 0 bytes'
fi
if run 1 run "$N" -k maybe -g 3 null null; then
  expect_err 'the pointer is argument 0 `out` (null pointer) plus 0 bytes'
fi
# only buffer parameters take null (clSetKernelArg: "If the argument is a buffer object")
if run 2 run "$S" -k scale -g 3 'int[3]' null; then
  expect_err 'arg1 `null` for parameter `int k`: a by-value parameter takes'
fi
if run 2 run "$S" -k rotate -g 3 'int[3]' null; then
  expect_err 'arg1 `null` for parameter `local int* tmp`: a __local pointer parameter takes local:BYTES'
fi

# --- info ---------------------------------------------------------------------------------------
if run 0 info "$S"; then
  for want in 'kernel scale (2 parameters)' 'kernel rotate (2 parameters)' 'Physical64' 'Kernel'; do
    if grep -qF -- "$want" "$TMP/out"; then ok; else fail "info lacks \`$want\`: $(cat "$TMP/out")"; fi
  done
fi

# --- bad usage and bad arguments: status 2, one message naming what and where -------------------
if run 2 run "$V" -g 4 'float[4]' 'float[4]'; then
  expect_err 'kernel `vadd` takes 3 arguments ('
  expect_err 'got 2'
  expect_err_lines 1
fi
if run 2 run "$S" -g 4 'int[4]'; then
  expect_err 'choose one with -k'
fi
if run 2 run "$S" -k nope -g 4; then
  expect_err 'no kernel `nope`'
fi
if run 2 run "$S" -k scale -g 3 'int[3]' int:3000000000; then
  expect_err 'arg1 `int:3000000000`'
  expect_err 'out of range for int'
  expect_err_lines 1
fi
if run 2 run "$S" -k scale -g 3 'int[3]' float:2; then
  expect_err 'float does not match'
fi
if run 2 run "$S" -k scale -g 3 'int[4]=1,2,3' int:1; then
  expect_err '4 values expected, got 3'
fi
if run 2 run "$S" -k scale -g 3 'uchar[4]' int:1; then
  expect_err 'uchar elements are 1 byte but the parameter points to int (4 bytes)'
fi
if run 2 run "$V" -g 4 -l 2,2 'float[4]' 'float[4]' 'float[4]'; then
  expect_err '-l has 2 dimensions but -g has 1'
fi
if run 2 run "$V" 'float[4]' 'float[4]' 'float[4]'; then
  expect_err 'missing -g'
fi
# NDRange sizes whose products or roundings wrap 64 bits are refused (issue 17), not run wrapped
if run 2 run "$V" -g 4294967297,4294967297 -l 1,1 'float[4]' 'float[4]' 'float[4]'; then
  expect_err "the global size 4294967297,4294967297,1 has more work-items than the module's 64-bit size_t holds"
fi
if run 2 run "$V" -g 4294967296,4294967296 -l 1,1 'float[4]' 'float[4]' 'float[4]'; then
  expect_err "has more work-items than the module's 64-bit size_t holds"
fi
# 2^64-1 work-items in one dimension fit: the group count rounds up without wrapping, and the run
# stops at work-item 4, the first past the 4-element buffers
if run 1 run "$V" -g 18446744073709551615 -l 1 'float[4]' 'float[4]' 'float[4]'; then
  expect_err 'out-of-bounds access in kernel `vadd`'
  expect_err "work-item global (4,0,0)"
fi
# the module from a directory, an endless device or the standard input (issue 17): one message, and
# /dev/zero is refused after its first word instead of being read without end
if run 2 info "$TMP"; then
  expect_err "cannot read $TMP: it is a directory, not a SPIR-V module"
fi
if run 2 info /dev/zero; then
  expect_err '/dev/zero: word 0: bad magic number 0x00000000'
fi
if run 0 info - <"$V"; then
  if grep -qF 'kernel vadd (3 parameters)' "$TMP/out"; then ok; else fail "info - lacks vadd: $(cat "$TMP/out")"; fi
fi
if run 2 run "$TMP/missing.spv" -g 1; then
  expect_err 'spvi: error:'
  expect_err_lines 1
fi
if run 2 frobnicate; then expect_err 'unknown command `frobnicate`'; fi
if run 2; then expect_err 'missing command'; fi

# --- help and version ---------------------------------------------------------------------------
if run 0 --help; then
  if grep -qF 'spvi run MODULE.spv' "$TMP/out"; then ok; else fail "--help lacks the run synopsis"; fi
fi
if run 0 run --help; then
  for want in 'random(SEED[,LO,HI])' '0x9E3779B97F4A7C15' 'local:BYTES' '--out DIR' 'exit status'; do
    if grep -qF -- "$want" "$TMP/out"; then ok; else fail "run --help lacks \`$want\`"; fi
  done
fi
if run 0 info --help; then ok; fi
if run 0 --version; then
  if grep -q '^spvi [0-9]' "$TMP/out"; then ok; else fail "--version printed $(cat "$TMP/out")"; fi
fi

# ---- threads, work-group shards and merge, statistics -----------------------------------------
# vadd over 64 items in groups of 8 (8 groups): out[i] = i + 100.
VADD="$TMP/vadd.spv"
VARGS="float[64]=range(0) float[64]=fill(100) float[64]"
# shellcheck disable=SC2086
if run 0 run "$VADD" -g 64 -l 8 --threads 1 --out "$TMP/t1" $VARGS && \
   run 0 run "$VADD" -g 64 -l 8 --threads 2 --out "$TMP/t2" $VARGS; then
  if cmp -s "$TMP/t1/arg2.npy" "$TMP/t2/arg2.npy"; then ok; else fail "--threads 1 and 2 differ"; fi
fi
# shard 1 runs groups 0..2 (items 0..23), shard 2 groups 3..7 (items 24..63)
# shellcheck disable=SC2086
if run 0 run "$VADD" -g 64 -l 8 --groups 0:3 --out "$TMP/s1" $VARGS --print; then
  # out: 100..123, then the initial zeros of the items shard 1 did not run (--print wraps 64
  # values over lines "  [I] V V ...": their values, joined)
  got=$(awk '/^arg2/ { on = 1; next } /^arg/ { on = 0 } on' "$TMP/out" | sed 's/^  \[[0-9]*\]//' | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
  if [ "$got" = "$(seq -s ' ' 100 123) $(yes 0 | head -40 | tr '\n' ' ' | sed 's/ $//')" ]; then ok; else fail "--groups 0:3 arg2: $got"; fi
  # the mask: one uint8 per byte, 1 for the 24 floats written (96 bytes), 0 for the 160 others
  if [ -f "$TMP/s1/arg2.written.npy" ] && [ "$(tail -c 256 "$TMP/s1/arg2.written.npy" | od -An -v -tu1 | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')" = \
       "$(printf '1 %.0s' $(seq 96); printf '0 %.0s' $(seq 159); printf '0')" ]; then ok; else fail "arg2.written.npy of shard 0:3 is wrong"; fi
  if [ ! -f "$TMP/s1/arg0.written.npy" ] || [ "$(tail -c 256 "$TMP/s1/arg0.written.npy" | od -An -v -tu1 | tr -d ' \n' | tr -d 0)" = "" ]; then ok; else fail "arg0 (read only) has written bytes"; fi
fi
# shellcheck disable=SC2086
if run 0 run "$VADD" -g 64 -l 8 --groups 3:8 --out "$TMP/s2" $VARGS && run 0 merge "$TMP/m" "$TMP/s1" "$TMP/s2"; then
  if cmp -s "$TMP/m/arg2.npy" "$TMP/t1/arg2.npy"; then ok; else fail "merged shards differ from the whole run"; fi
fi
if run 2 merge "$TMP/m2" "$TMP/s1" "$TMP/s1"; then
  expect_err "spvi: error: merge: byte 0 of arg2 was written by two shards ($TMP/s1): a race between work-groups"
fi
# shellcheck disable=SC2086
if run 2 run "$VADD" -g 64 -l 8 --groups 8:9 $VARGS; then
  expect_err 'spvi: error: work-group range 8:9 is outside the launch'"'"'s 8 work-groups (or empty)'
fi
# --stats: the last stderr line, 64 work-items x 8 SPIR-V instructions of vadd at -O0 are not
# hand-countable here, so the test checks the fields and that instructions is a positive integer
# shellcheck disable=SC2086
if run 0 run "$VADD" -g 64 --stats $VARGS; then
  last=$(tail -n 1 "$TMP/err")
  if printf '%s\n' "$last" | grep -Eq '^load_s=[0-9.]+ exec_s=[0-9.]+ instructions=[1-9][0-9]* instr_per_s=[0-9]+ peak_rss_mb=[0-9.]+$'; then ok; else fail "--stats line: $last"; fi
fi

# ---- printf: per work-item text in work-item order, whatever the warp width -------------------
# in = 10, 20, 30: "wi I: v v+1 ... v+7|str|(v,-v,2v,0)|0x(16v)|  v/2" with %5.2f
PF_WANT='wi 0: 10 11 12 13 14 15 16 17|str|10,-10,20,0|0xa0| 5.00
wi 1: 20 21 22 23 24 25 26 27|str|20,-20,40,0|0x140|10.00
wi 2: 30 31 32 33 34 35 36 37|str|30,-30,60,0|0x1e0|15.00'
for warp in 1 32; do
  if run 0 run "$TMP/printf.spv" -g 3 --warp "$warp" 'int[3]=10,20,30'; then expect_out "$PF_WANT"; fi
done

# ---- specialization constants (--spec ID=VALUE) ---------------------------------------------
if spirv-as "$HERE/spec.spvasm" -o "$TMP/spec.spv" 2>"$TMP/err"; then
  # defaults: A = 5, A*2 = 10, B = false, F = 1.5f (bits 0x3fc00000 = 1069547520)
  if run 0 run "$TMP/spec.spv" -g 1 'uint[4]' --print; then expect_out 'arg0 uint[4]: 5 10 0 1069547520'; fi
  # A = 21 -> 42; B = true; F = -0.25f (bits 0xbe800000 = 3196059648)
  if run 0 run "$TMP/spec.spv" -g 1 --spec 3=21 --spec 7=true --spec 4=-0.25 'uint[4]' --print; then
    expect_out 'arg0 uint[4]: 21 42 1 3196059648'
  fi
  if run 2 run "$TMP/spec.spv" -g 1 --spec 9=1 'uint[4]'; then expect_err 'no specialization constant has SpecId 9'; fi
  if run 2 run "$TMP/spec.spv" -g 1 --spec 3=4294967296 'uint[4]'; then expect_err 'specialization constant 3: `4294967296` does not fit 32 bits'; fi
  # one rule with by-value arguments (docs/cli.md): the range is the written type's, and a SPIR-V
  # integer has no sign, so -1 is the 32 bits of int:-1 (0xffffffff), A*2 wraps to 0xfffffffe
  if run 0 run "$TMP/spec.spv" -g 1 --spec 3=-1 'uint[4]' --print; then expect_out 'arg0 uint[4]: 4294967295 4294967294 0 1069547520'; fi
  if run 0 run "$TMP/spec.spv" -g 1 --spec 3=4294967295 'uint[4]' --print; then expect_out 'arg0 uint[4]: 4294967295 4294967294 0 1069547520'; fi
  if run 2 run "$TMP/spec.spv" -g 1 --spec 3=-2147483649 'uint[4]'; then expect_err 'specialization constant 3: `-2147483649` does not fit 32 bits'; fi
  if run 2 run "$TMP/spec.spv" -g 1 --spec 7=maybe 'uint[4]'; then expect_err 'specialization constant 7 is a bool: `maybe` is not true, false, 1 or 0'; fi
else
  fail "cannot assemble spec.spvasm: $(cat "$TMP/err")"
fi

# ---- --check races and named barriers -------------------------------------------------------
# The race checker models named barriers (spec-notes/checks.md "Named barriers"): the correct
# producer/consumer exchange gives no report (exit 0, the usual result); a consumer that reads
# before the barrier (kernel `early` of tests/spvasm_checks) is reported (exit 1) with both sides.
if spirv-as "$HERE/../spvasm/named_barrier_pairs.spvasm" -o "$TMP/nbar.spv" 2>"$TMP/err"; then
  if run 0 run "$TMP/nbar.spv" -g 32 -l 16 --subgroup-size 4 local:64 'uint[32]' --check races --threads 2; then
    if [ -s "$TMP/err" ]; then fail "named_barrier_pairs under --check races printed: $(cat "$TMP/err")"; else ok; fi
  fi
else
  fail "cannot assemble named_barrier_pairs.spvasm: $(cat "$TMP/err")"
fi
if spirv-as --target-env spv1.1 "$HERE/../spvasm_checks/named_barrier_races.spvasm" -o "$TMP/nbr.spv" 2>"$TMP/err"; then
  if run 1 run "$TMP/nbr.spv" -k early -g 32 -l 16 --subgroup-size 4 local:64 'uint[32]' --check races; then
    expect_err 'conflicts with the write by work-item global (0,0,0) local (0,0,0) group (0,0,0)'
    expect_err '(nbar.cl:23)'
    expect_err 'no phase of a named barrier that both sub-groups took part in'
  fi
else
  fail "cannot assemble named_barrier_races.spvasm: $(cat "$TMP/err")"
fi

# ---- --trace: every executed instruction of the selected work-items with its value ------------
# Work-item 1: the built-in vector (1,0,0); component 0 = 1; 1 * 3 = 3; the pointer to out[1]:
# allocation 2 (1 is the built-in variable) << 40 | (2^39 bias + 4 bytes) = 0x28000000004.
if spirv-as --preserve-numeric-ids "$HERE/trace.spvasm" -o "$TMP/trace.spv" 2>"$TMP/err"; then
  if run 0 run "$TMP/trace.spv" -g 2 'uint[2]' --trace=gid=1 --print; then
    expect_out 'arg0 uint[2]: 0 3'
    printf '%s\n' 'gid=(1,0,0) %23 = OpLoad (1,0,0)' 'gid=(1,0,0) %24 = OpCompositeExtract 1' \
      'gid=(1,0,0) %25 = OpUConvert 1' 'gid=(1,0,0) %26 = OpIMul 3' \
      'gid=(1,0,0) %27 = OpInBoundsPtrAccessChain 0x28000000004' 'gid=(1,0,0) OpStore' \
      'gid=(1,0,0) OpReturn' >"$TMP/want_err"
    if cmp -s "$TMP/want_err" "$TMP/err"; then ok; else fail "--trace=gid=1 printed: $(cat "$TMP/err")"; fi
  fi
  # both work-items, one after the other (warp width 1): 14 lines, work-item 0 first
  if run 0 run "$TMP/trace.spv" -g 2 'uint[2]' --trace; then
    if [ "$(wc -l <"$TMP/err")" -eq 14 ] && [ "$(head -n 1 "$TMP/err")" = 'gid=(0,0,0) %23 = OpLoad (0,0,0)' ]; then ok
    else fail "--trace of two work-items: $(cat "$TMP/err")"; fi
  fi
  if run 2 run "$TMP/trace.spv" -g 2 'uint[2]' --trace=lane=3; then
    expect_err 'trace filter `lane=3`: expects all, gid=X[,Y[,Z]] or group=X[,Y[,Z]]'
  fi
else
  fail "cannot assemble trace.spvasm: $(cat "$TMP/err")"
fi

# ---- info --prepared: the prepared code, by hand from prepared.spvasm --------------------------
# Registers (ld_func.c, ex.h "Registers"): each parameter and result an 8-aligned slot of its
# register size in order: %21 ptr r0, %22 uint4 r8 (16 bytes), %23 r24, %24 r32, %31 uint4 r40,
# %32 r56, %33 r64, %34 r72, %35 bool r80: 88 bytes. Constants follow from r88, each on first use:
# %9 = 5 at r88 (4 bytes), then the 8-byte temporary that brings the 32-bit shift count %23 to the
# 64-bit base's width at r96; 16 constant bytes, no phi scratch: 104. OpLessOrGreater is
# FOrdNotEqual (SPIR-V 3.32.15; the validator's warning about it goes to stderr). Aux: the branch's
# two edges (no phis) are aux[0], aux[1], then its (true block, edge, false block, edge) from aux[2];
# OpBranch's edge is aux[6]. Store: 16-byte value, Aligned 16 = 2^4.
if spirv-as --preserve-numeric-ids "$HERE/prepared.spvasm" -o "$TMP/prepared.spv" 2>"$TMP/err"; then
  for k in '' '-k pk'; do
    # shellcheck disable=SC2086
    if run 0 info --prepared "$TMP/prepared.spv" $k; then
      expect_out 'prepared program: 1 function, 104 register bytes per lane (constants r88 .. r104), 0 private bytes
function f0 %20 pk (kernel pk): 4 parameters r0 r8 r24 r32, returns 0 bytes, registers from r0
  block b0 %30: rpo 0
      0  r40 = IADD_I32 r8, r8 (n=4)  ; OpIAdd %31
      1  r56 = IMUL_I32 r24, r88 (n=1)  ; OpIMul %32
      2  r64 = SEXT_I32_I64 r56 (n=1)  ; OpSConvert %33
      3  r96 = CONVERT r24 (b=32 c=64 n=1 flags=0)  ; OpShiftLeftLogical %34
      4  r72 = SHL_I64 r64, r96 (n=1)  ; OpShiftLeftLogical %34
      5  r80 = FONE_F32 r32, r32 (n=1)  ; OpLessOrGreater %35
      6  BRC r80, aux[2] -> b1 b2  ; OpBranchConditional
  block b1 %40: rpo 1
      7  STORE r0, r40 (c=16 flags=4)  ; OpStore
      8  BR b2, aux[6] -> b2  ; OpBranch
  block b2 %50: rpo 2
      9  RET  ; OpReturn'
    fi
  done
  if run 2 info --prepared "$TMP/prepared.spv" -k nope; then
    expect_err '-k: no kernel `nope` in'
  fi
  if run 2 info "$TMP/prepared.spv" -k pk; then
    expect_err '-k goes with --prepared'
  fi
else
  fail "cannot assemble prepared.spvasm: $(cat "$TMP/err")"
fi

# ---- sub-groups: --subgroup-size, spvi info, the debugger's refusal ----------------------------
# Sub-groups of 4 consecutive work-items over inputs 1..10: sums 1+2+3+4 = 10, 5+..+8 = 26 and the
# partial last sub-group 9+10 = 19; out = 100*sum + sub-group local id.
G=$TMP/subgroups.spv
for w in 1 3 64; do
  if run 0 run "$G" -g 10 -l 10 --subgroup-size 4 --warp $w 'int[10]=range(1)' 'int[10]' --print; then
    expect_out 'arg0 int[10]: 1 2 3 4 5 6 7 8 9 10
arg1 int[10]: 1000 1001 1002 1003 2600 2601 2602 2603 1900 1901'
  fi
done
for bad in 0 65 x; do
  if run 2 run "$G" -g 10 --subgroup-size $bad 'int[10]' 'int[10]'; then
    expect_err "--subgroup-size \`$bad\`: the sub-group size must be 1..64"
    expect_err_lines 1
  fi
done
# sgsum uses sub_group_reduce_add and get_sub_group_local_id: cl_khr_subgroups alone (no
# GroupNonUniform* capability), not every extension spvi implements
if run 0 info "$G"; then
  if grep -qx 'sub-groups:   cl_khr_subgroups' "$TMP/out"; then ok
  else fail "spvi info does not list the sub-group extension the module uses: $(cat "$TMP/out")"; fi
fi
if run 2 debug "$G" -g 10 'int[10]' 'int[10]'; then
  expect_err 'spvi debug cannot run kernel `sgsum`: its module uses sub-group operations'
fi
# --trace runs the sub-group in lock-step: work-item 9 still sees its partner's value
if run 0 run "$G" -g 10 -l 10 --subgroup-size 4 'int[10]=range(1)' 'int[10]' --trace=gid=9; then
  if grep -q '^gid=(9,0,0) %[0-9]* = OpGroupIAdd 19$' "$TMP/err" && ! grep -qv '^gid=(9,0,0)' "$TMP/err"; then ok
  else fail "--trace of a sub-group kernel: $(cat "$TMP/err")"; fi
fi
# --- images and samplers ------------------------------------------------------------------------
# src r unorm8 2x2 = 10 20 30 200; dst = round(255 * (v / 255 * 0.5)) = 5 10 15 100 (by hand)
IM=$TMP/image.spv
if run 0 run "$IM" -g 2,2 'image2d:r:unorm8:2,2=10,20,30,200' 'image2d:r:unorm8:2,2' 'sampler:unnormalized,clamp_to_edge,nearest' --print --out "$TMP/img"; then
  expect_out 'arg0 image2d r unorm8 (2, 2, 1): 10 20 30 200
arg1 image2d r unorm8 (2, 2, 1): 5 10 15 100'
  if head -c 80 "$TMP/img/arg1.npy" | grep -qF "'descr': '|u1', 'fortran_order': False, 'shape': (2, 2, 1)"; then ok; else fail "arg1.npy header: $(head -c 80 "$TMP/img/arg1.npy")"; fi
  # the output as the next input (.npy of the image's shape): 5 10 15 100 halved; (float)(5/255) and
  # (float)(15/255) lie above 5/255 and 15/255, so 255 * v / 2 is just above 2.5 and 7.5: 3 and 8
  if run 0 run "$IM" -g 2,2 "image2d:r:unorm8:2,2=@$TMP/img/arg1.npy" 'image2d:r:unorm8:2,2' 'sampler:unnormalized,clamp,nearest' --print; then
    expect_out 'arg0 image2d r unorm8 (2, 2, 1): 5 10 15 100
arg1 image2d r unorm8 (2, 2, 1): 3 5 8 50'
  fi
fi
if run 0 info "$IM"; then
  if grep -qF 'arg0   read_only image2d_t' "$TMP/out" && grep -qF 'arg2   sampler_t' "$TMP/out"; then ok; else fail "info: $(cat "$TMP/out")"; fi
fi
# addressing mode none outside the image: an out-of-bounds fault naming the argument
if run 1 run "$IM" -g 3,2 'image2d:r:unorm8:2,2' 'image2d:r:unorm8:3,2' 'sampler:unnormalized,none,nearest'; then
  expect_err 'coordinate x = 2.5 is outside the image (0 <= x < 2) with addressing mode none'
  expect_err 'image: argument 0 `src` (image2d of 2 x 2 r unorm8)'
fi
if run 2 run "$IM" -g 2,2 'image2d:rgb:unorm8:2,2' 'image2d:r:unorm8:2,2' 'sampler:normalized,repeat,linear'; then
  expect_err '`rgb` is not a channel order'
  expect_err_lines 1
fi
if run 2 run "$IM" -g 2,2 'image2d:r:unorm8:2,2' 'image2d:r:unorm8:2,2' 'sampler:unnormalized,repeat,linear'; then
  expect_err 'repeat addressing needs normalized coordinates'
fi
if run 2 run "$IM" -g 2,2 'image2d:r:unorm8:2,2' 'float[4]' 'sampler:normalized,repeat,linear'; then
  expect_err 'an image parameter (write_only image2d_t) takes IMAGETYPE:ORDER:CHANNELTYPE:DIMS[=INIT]'
fi

# ---- checks and reports: --report JSON lines, --check, --max-steps ----------------------------
C=$TMP/checks.spv
# 9/0 and 11/0: two division-by-zero occurrences at one instruction, one grouped report; the run
# goes on (x/0 = -1) and the outputs are printed; exit status 1.
if run 1 run "$C" -k divide -g 4 'int[4]=8,9,10,11' 'int[4]=2,0,5,0' 'int[4]' --print --report "$TMP/r.json"; then
  expect_out 'arg0 int[4]: 8 9 10 11
arg1 int[4]: 2 0 5 0
arg2 int[4]: 4 -1 2 -1'
  expect_err 'spvi: report: integer division by zero in kernel `divide`'
  expect_err 'work-item global (1,0,0) local (1,0,0) group (0,0,0)'
  expect_err '(2 occurrences at the same instruction; the first work-item is shown)'
  if python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, lines
r = json.loads(lines[0])
assert r["type"] == "report" and r["check"] == "div-by-zero" and r["count"] == 2, r
assert r["kernel"] == "divide" and r["at"]["global_id"] == [1, 0, 0] and r["at"]["instruction"] == "OpSDiv", r
assert r["other"] is None and r["memory"] is None and r["message"].startswith("integer division by zero"), r
' "$TMP/r.json" 2>"$TMP/py"; then ok; else fail "--report JSON: $(cat "$TMP/py")"; fi
fi
# --check uninit: the four atomic_inc of a never-written local counter, one grouped report that
# names the counter as the origin (no debug information: no declaration line), also in the JSON line
if run 1 run "$C" -k uninit_counter -g 4 -l 4 'int[4]' --check uninit --report "$TMP/r4.json"; then
  expect_err 'spvi: report: use of uninitialized memory in kernel `uninit_counter`'
  expect_err 'the undefined bytes come from local program-scope variable `uninit_counter.counter` (4 bytes)'
  expect_err '(4 occurrences at the same instruction; the first work-item is shown)'
  if python3 -c '
import json, sys
r = json.loads(open(sys.argv[1]).read())
assert r["check"] == "uninit" and r["count"] == 4 and r["at"]["access"] == "atomic write", r
assert r["origin"] == {"name": "local program-scope variable `uninit_counter.counter` (4 bytes)", "file": "", "line": 0}, r
' "$TMP/r4.json" 2>"$TMP/py"; then ok; else fail "--report uninit origin JSON: $(cat "$TMP/py")"; fi
fi
# spvi debug stops at each report as at a fault: 9/0 in work-item 1 (the session stops right after
# the division, work-item 1 in focus; 11/0 in work-item 3 is the same report, counted, no stop);
# with --check races a race found when the work-group ends is shown before the kernel's end; a
# report makes the exit status 1
printf 'continue\ncontinue\nquit\n' >"$TMP/dbg.cmds"
if run 1 debug "$C" -k divide -g 4 'int[4]=8,9,10,11' 'int[4]=2,0,5,0' 'int[4]' --check races -x "$TMP/dbg.cmds" \
  --report "$TMP/dr.json"; then
  if grep -qF 'Report: integer division by zero in kernel `divide`' "$TMP/out" &&
    python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, lines
r = json.loads(lines[0])
assert r["type"] == "report" and r["check"] == "div-by-zero" and r["count"] == 2, r
' "$TMP/dr.json" &&
    grep -qF '[Switching to work-item global (1,0,0) local (1,0,0) group (0,0,0)]' "$TMP/out" &&
    [ "$(grep -c '^Report:' "$TMP/out")" -eq 1 ] && grep -qF '[kernel `divide` finished: 1 work-group]' "$TMP/out"; then
    ok
  else fail "debug divide: $(cat "$TMP/out")"; fi
fi
if run 1 debug "$C" -k last_writer -g 4 'int[1]' --check races -x "$TMP/dbg.cmds"; then
  if grep -qF 'Report: data race in kernel `last_writer`' "$TMP/out" &&
    grep -qF 'conflicts with the write by work-item global (0,0,0)' "$TMP/out" &&
    grep -qF '[kernel `last_writer` finished: 1 work-group]' "$TMP/out"; then
    ok
  else fail "debug last_writer: $(cat "$TMP/out")"; fi
fi
# a clean run with every check on: exit 0, an empty report file
if run 0 run "$V" -g 4 'float[4]=range(0)' 'float[4]=fill(10)' 'float[4]' --check all --report "$TMP/r2.json"; then
  if [ -f "$TMP/r2.json" ] && [ ! -s "$TMP/r2.json" ]; then ok; else fail "--report of a clean run is not an empty file"; fi
fi
# an endless work-item ends in a step-limit fault, also in the JSON lines
if run 1 run "$C" -k count_to -g 1 'int[1]' int:7 --max-steps 5000 --report "$TMP/r3.json"; then
  expect_err 'spvi: fault: step limit exceeded in kernel `count_to`'
  expect_err 'this work-item executed more than 5000 SPIR-V instructions (--max-steps)'
  if grep -qF '"type":"fault","check":"step-limit"' "$TMP/r3.json"; then ok; else fail "step-limit JSON: $(cat "$TMP/r3.json")"; fi
fi
if run 0 run "$C" -k count_to -g 1 'int[1]' int:8 --max-steps 5000 --print; then
  expect_out 'arg0 int[1]: 4'
fi
# --keep-going: both faulting sites of two_faults are reported, grouped per instruction, in order of
# their first work-item (the write by 1, the read by 2); skipped reads give zero, so out[3] = a[2] + 1
# (work-item 0) is the only write that happened; exit status 1. Without it the first fault stops the run.
if run 1 run "$C" -k two_faults -g 4 -l 4 'int[4]=1,2,3,4' 'int[4]' --keep-going --print --report "$TMP/kg.json"; then
  expect_out 'arg0 int[4]: 1 2 3 4
arg1 int[4]: 0 0 0 4'
  expect_err 'spvi: report: out-of-bounds access in kernel `two_faults`'
  expect_err 'write of 4 bytes at offset 16 of argument 1 `out` (global buffer of 16 bytes)'
  expect_err '(3 occurrences at the same instruction; the first work-item is shown)'
  expect_err 'read of 4 bytes at offset 16 of argument 0 `a` (global buffer of 16 bytes)'
  expect_err '(2 occurrences at the same instruction; the first work-item is shown)'
  if python3 -c '
import json, sys
rs = [json.loads(x) for x in open(sys.argv[1]).read().splitlines()]
assert [(r["type"], r["check"], r["count"], r["at"]["global_id"][0], r["at"]["instruction"]) for r in rs] == [
    ("report", "out-of-bounds", 3, 1, "OpStore"), ("report", "out-of-bounds", 2, 2, "OpLoad")], rs
' "$TMP/kg.json" 2>"$TMP/py"; then ok; else fail "--keep-going JSON: $(cat "$TMP/py")"; fi
fi
if run 1 run "$C" -k two_faults -g 4 -l 4 'int[4]=1,2,3,4' 'int[4]' --print; then
  expect_err 'spvi: fault: out-of-bounds access in kernel `two_faults`'
  if grep -q 'spvi: report' "$TMP/err"; then fail "a fault without --keep-going gave reports"; else ok; fi
fi
if run 2 debug "$C" -k two_faults -g 4 'int[4]' 'int[4]' --keep-going </dev/null; then
  expect_err '--keep-going does not apply to `spvi debug`, which stops at every fault'
  expect_err_lines 1
fi
if run 2 run "$V" -g 4 'float[4]' 'float[4]' 'float[4]' --check races,bogus; then
  expect_err '--check `races,bogus`: unknown check `bogus` (races, uninit or all)'
  expect_err_lines 1
fi
if run 2 run "$V" -g 4 'float[4]' 'float[4]' 'float[4]' --max-steps 0; then
  expect_err '--max-steps `0`: expects a positive number of instructions'
fi
# ---- device limits and --max-memory (issue #17) -------------------------------------------------
# 262144 floats = 1048576 bytes: the first buffer alone is above 1000000 bytes, refused before the
# second is made.
if run 2 run "$V" -g 4 'float[262144]' 'float[262144]' 'float[262144]' --max-memory 1000000; then
  expect_err 'arg0 `float[262144]`: the buffers and images up to it take 1048576 bytes, above --max-memory 1000000'
  expect_err_lines 1
fi
# 3 x 16 bytes of buffers within 16 KiB, and the run too (a few hundred bytes of registers and
# private memory for each of the 32 lanes of the one warp): accepted, the results unchanged.
if run 0 run "$V" -g 4 'float[4]=range(0)' 'float[4]=fill(10)' 'float[4]' --max-memory 16K --print; then
  expect_out 'arg0 float[4]: 0 1 2 3
arg1 float[4]: 10 10 10 10
arg2 float[4]: 10 11 12 13'
fi
# the buffers' 48 bytes fit in 48, the run's registers do not: refused by spvi_run before it starts
if run 2 run "$V" -g 4 'float[4]' 'float[4]' 'float[4]' --max-memory 48; then
  expect_err 'buffers 48 + program scope 0 + 1 work-group at once'
  expect_err 'the memory limit (--max-memory) is 48 bytes'
fi
for bad in 0 -1 1Q K 17179869184G; do
  if run 2 run "$V" -g 4 'float[4]' 'float[4]' 'float[4]' --max-memory "$bad"; then
    expect_err "--max-memory \`$bad\`: expects a positive number of bytes (suffix K, M or G: KiB, MiB, GiB)"
  fi
done
# 300000000 floats = 1200000000 bytes, above the largest allocation (at most 1 GiB on any machine)
if run 2 run "$V" -g 4 'float[300000000]' 'float[4]' 'float[4]'; then
  expect_err 'a buffer of 1200000000 bytes is above the largest allocation'
  expect_err_lines 1
fi
# __local: 65536 bytes (SPVI_LOCAL_MEM_SIZE) for one argument is the most a work-group has
if run 2 run "$S" -k rotate -g 8 -l 4 'int[8]' local:65537; then
  expect_err '65537 bytes of __local memory is above the work-group'"'"'s 65536 (SPVI_LOCAL_MEM_SIZE)'
fi
if run 0 run "$S" -k rotate -g 8 -l 4 'int[8]' local:65536; then ok; fi
# kernel-scope __local variables count too: 40000 + 25537 = 65537 bytes is one too many
if run 2 run "$TMP/limits.spv" -g 2 'int[2]' local:25537; then
  expect_err 'kernel `big_local` needs 65537 bytes of __local memory per work-group (variables 40000, __local arguments 25537), above the device'"'"'s 65536 bytes (SPVI_LOCAL_MEM_SIZE)'
  expect_err_lines 1
fi
if run 0 run "$TMP/limits.spv" -g 2 'int[2]' local:25536 --print; then expect_out 'arg0 int[2]: 3 3'; fi
if run 2 run "$V" -g 4 'float[4]' 'float[4]' 'float[4]' --report "$TMP/no/such/dir/r.json"; then
  expect_err "--report $TMP/no/such/dir/r.json: No such file or directory"
fi

# ---- --then: launches in sequence on one module; program-scope variables carry over ----------
# total starts at 100 (its initializer); add adds 1+2+3+4 = 10 per launch; get reads total + gid.
GL=$TMP/globals.spv
if run 0 run "$GL" -k add -g 4 'int[4]=range(1)' --then -k add -g 4 'int[4]=range(1)' \
    --then -k get -g 2 'int[2]' --print; then
  expect_out 'arg0 int[2]: 120 121'
fi
# each launch prints its own buffers, when it has --print, right after it runs
if run 0 run "$GL" -k get -g 1 'int[1]' --print --then -k add -g 2 'int[2]=fill(5)' --then -k get -g 1 'int[1]' --print; then
  expect_out 'arg0 int[1]: 100
arg0 int[1]: 110'
fi
# without --then every command starts from the initializer again (a new module each time)
if run 0 run "$GL" -k get -g 1 'int[1]' --print; then expect_out 'arg0 int[1]: 100'; fi
# a faulting launch ends the command: the later ones do not run
if run 1 run "$GL" -k add -g 8 'int[4]=range(1)' --then -k get -g 1 'int[1]' --print; then
  if [ -s "$TMP/out" ]; then fail "a launch after the fault ran: $(cat "$TMP/out")"; else ok; fi
  expect_err 'launch 1 of 2 (kernel `add`) did not succeed; the launches after it did not run'
  # the fault names its launch (issue #17): add reads in[4] of 4 ints
  expect_err 'spvi: fault: launch 1 of 2: out-of-bounds access in kernel `add`'
fi
# a later launch's fault too, and a --out of a launch that never ran or faulted is not created
rm -rf "$TMP/then_out1" "$TMP/then_out2"
if run 1 run "$GL" -k get -g 1 'int[1]' --out "$TMP/then_out1" --then -k add -g 8 'int[4]' --then -k get -g 1 'int[1]' --out "$TMP/then_out2"; then
  expect_err 'spvi: fault: launch 2 of 3: out-of-bounds access in kernel `add`'
  expect_err 'launch 2 of 3 (kernel `add`) did not succeed'
  if [ -f "$TMP/then_out1/arg0.npy" ] && [ ! -e "$TMP/then_out2" ]; then ok; else fail "--then --out: $(ls -d "$TMP"/then_out* 2>&1)"; fi
fi
if run 2 run "$GL" -k add -g 4 'int[4]' --then --spec 1=2 -k get -g 1 'int[1]'; then
  expect_err 'launch 2 of 2: --spec applies to loading the module: give it before the first --then'
  expect_err_lines 1
fi
if run 2 run "$GL" -k add -g 4 'int[4]' --then -k get 'int[1]'; then
  expect_err 'launch 2 of 2: missing -g X[,Y[,Z]] (the global size)'
fi
if run 2 run "$GL" -k add -g 4 'int[4]' --then -g 1 'int[1]'; then
  expect_err 'launch 2 of 2: `'"$GL"'` has 2 kernels: choose one with -k'
fi
if run 2 run "$GL" -k add -g 4 'int[4]' --then -k get -g 1; then
  expect_err 'launch 2 of 2: kernel `get` takes 1 argument'
fi
if run 2 debug "$GL" -k add -g 4 'int[4]' --then -k get -g 1 'int[1]'; then
  expect_err '--then runs several launches: it is for spvi run, not spvi debug'
fi
if run 0 info "$GL"; then
  if grep -q '^  global int total  *(4 bytes)$' "$TMP/out"; then ok; else fail "info lacks the variable: $(cat "$TMP/out")"; fi
fi

# ---- debug information: one note, --strict applies to the rest of the module ---------------------
# debuginfo.cl with -g (its header lists what SPIRV-Tools rejects in it): only the debug information
# fails validation, so a run prints one note and no warning, --strict runs it too, and the values
# are the kernel's, out[i] = 3i + 1, at -O0 and -O2 and warp widths 1, 7 and 32.
for o in -O0 -O2; do
  if ! "$CLANG" -cl-std=CL2.0 -target spir64 -emit-llvm -c $o -g -Xclang -finclude-default-header \
      "$HERE/debuginfo.cl" -o "$TMP/dbg.bc" 2>"$TMP/err" || ! "$LLVM_SPIRV" "$TMP/dbg.bc" -o "$TMP/dbg$o.spv" 2>>"$TMP/err"; then
    fail "cannot compile debuginfo.cl $o -g: $(cat "$TMP/err")"
    continue
  fi
  for strict in '' --strict; do
    for w in 1 7 32; do
      # shellcheck disable=SC2086
      if run 0 run $strict "$TMP/dbg$o.spv" -g 8 -l 8 'int[8]' 'int[8]=range(0)' local:32 --warp $w --print; then
        expect_out 'arg0 int[8]: 1 4 7 10 13 16 19 22
arg1 int[8]: 0 1 2 3 4 5 6 7'
        expect_err_lines 1
        expect_err "spvi: note: $TMP/dbg$o.spv: the validator rejects the debug information (word "
        expect_err "), a known defect of llvm-spirv's output; it is read leniently, and the rest of the module validates"
      fi
    done
  done
done
# A real error behind the debug information's (debug_real_error.spvasm: the double without Float64
# at word 40): a warning naming it, no note, and --strict refuses the module (exit 2).
if spirv-as "$HERE/debug_real_error.spvasm" -o "$TMP/realerr.spv" 2>"$TMP/err"; then
  RE_MSG="validation: word 40: Using a 64-bit floating point type requires the Float64 capability.; %double = OpTypeFloat 64"
  if run 0 run "$TMP/realerr.spv" -g 1 'int[1]' --print; then
    expect_out 'arg0 int[1]: 7'
    expect_err_lines 1
    expect_err "spvi: warning: $TMP/realerr.spv: $RE_MSG"
  fi
  if run 2 run --strict "$TMP/realerr.spv" -g 1 'int[1]'; then
    expect_err_lines 1
    expect_err "spvi: error: $TMP/realerr.spv: $RE_MSG"
  fi
  # spvi info --strict: the same rule as run's (issue #17): without it a warning, with it the error
  if run 0 info "$TMP/realerr.spv"; then expect_err "spvi: warning: $TMP/realerr.spv: $RE_MSG"; fi
  if run 2 info --strict "$TMP/realerr.spv"; then
    expect_err_lines 1
    expect_err "spvi: error: $TMP/realerr.spv: $RE_MSG"
  fi
  if run 2 info --prepared --strict "$TMP/realerr.spv"; then expect_err "spvi: error: $TMP/realerr.spv: $RE_MSG"; fi
else
  fail "cannot assemble debug_real_error.spvasm: $(cat "$TMP/err")"
fi

# ---- hostile arguments (issue #17) -------------------------------------------------------------
# an endless file stops being read after what the argument can take, with a message
run_t() { # run under a time limit: an unbounded read would otherwise run until memory ran out
  want=$1
  shift
  timeout 20 "$SPVI" "$@" >"$TMP/out" 2>"$TMP/err"
  got=$?
  if [ "$got" -ne "$want" ]; then
    fail "spvi $* exited $got, expected $want; stderr: $(head -c 2000 "$TMP/err")"
    return 1
  fi
}
if run_t 2 run "$V" -g 4 'float[4]=@/dev/zero' 'float[4]' 'float[4]'; then
  expect_err '`/dev/zero` has more than 65561 bytes (reading stopped there): float[4] takes 16 bytes, and a .npy header at most 65545 more'
fi
if run_t 2 run "$S" -k scale -g 4 'int[4]' 'bytes:@/dev/zero'; then
  expect_err '`/dev/zero` has more than 4 bytes (reading stopped there): the parameter takes 4'
fi
# spvi merge reads the shards' files as regular files of their size: /dev/zero in place of one is
# refused, not read without end
mkdir -p "$TMP/s3"
cp "$TMP/s2/"* "$TMP/s3/"
ln -sf /dev/zero "$TMP/s3/arg2.npy"
if run_t 2 merge "$TMP/m3" "$TMP/s1" "$TMP/s3"; then
  expect_err "spvi: error: merge: $TMP/s3/arg2.npy is not a regular file (spvi merge reads the files of --out directories)"
fi
# an access chain that wraps (2^62 + 1 elements of 4 bytes) under --keep-going: reported at the
# chain, and the pointer it makes lies out of every allocation (2^39 - 4096 bytes into the offset
# field, docs/semantics.md), so the load through it is reported and reads zeros
if spirv-as "$HERE/../spvasm/chain_wrap_dyn_2p62.spvasm" -o "$TMP/wrap.spv" 2>"$TMP/err"; then
  if run 1 run "$TMP/wrap.spv" -g 4 'uint[4]=1,2,3,4' 'uint[4]' ulong:4611686018427387905 --keep-going --print; then
    expect_out 'arg0 uint[4]: 1 2 3 4
arg1 uint[4]: 0 0 0 0'
    expect_err "the access chain's byte offset (an index times its stride) overflows 64 bits, from the pointer, at offset 0 of argument 0 (global buffer of 16 bytes)"
    expect_err 'read of 4 bytes at offset 549755809792 of argument 0 (global buffer of 16 bytes)'
  fi
else
  fail "cannot assemble chain_wrap_dyn_2p62.spvasm: $(cat "$TMP/err")"
fi
# --out is all or nothing: a file that cannot be written (here larger than the file size limit)
# leaves no directory and no temporary files behind
rm -rf "$TMP/outp"
mkdir "$TMP/outp"
(
  trap '' XFSZ
  ulimit -f 64
  "$SPVI" run "$V" -g 4 'float[4]' 'float[4]' 'float[65536]' --out "$TMP/outp/d/e" >"$TMP/out" 2>"$TMP/err"
  echo $? >"$TMP/status"
)
if [ "$(cat "$TMP/status")" = 2 ]; then ok; else fail "--out over the file size limit exited $(cat "$TMP/status"): $(cat "$TMP/err")"; fi
expect_err "spvi: error: --out \`$TMP/outp/d/e\`: cannot write"
if [ ! -e "$TMP/outp/d/e" ] && [ -z "$(ls -A "$TMP/outp/d" 2>/dev/null)" ]; then ok; else fail "--out left: $(ls -AR "$TMP/outp")"; fi
# ... and into an existing directory: its files stay as they were
mkdir -p "$TMP/outx"
echo old >"$TMP/outx/arg0.npy"
(
  trap '' XFSZ
  ulimit -f 64
  "$SPVI" run "$V" -g 4 'float[4]' 'float[4]' 'float[65536]' --out "$TMP/outx" >"$TMP/out" 2>"$TMP/err"
  echo $? >"$TMP/status"
)
if [ "$(cat "$TMP/status")" = 2 ] && [ "$(cat "$TMP/outx/arg0.npy")" = old ] && [ "$(ls -A "$TMP/outx")" = arg0.npy ]; then ok
else fail "--out into an existing directory: status $(cat "$TMP/status"), left $(ls -A "$TMP/outx")"; fi
# a long argument is quoted cut, with the count of bytes cut (60 KB would be echoed in full)
LONG=$(awk 'BEGIN { printf "float[4]="; for (i = 0; i < 15000; i++) printf "1.0,"; printf "1" }')
if run 2 run "$V" -g 4 "$LONG" 'float[4]' 'float[4]'; then
  # 9 + 15000 * 4 + 1 = 60010 bytes; the first 64 are kept (`float[4]=` and 14 values), 59946 cut
  expect_err 'arg0 `float[4]=1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0... (59946 bytes cut)` for parameter'
  n=$(wc -c <"$TMP/err")
  if [ "$n" -lt 1200 ]; then ok; else fail "the message of a 60 KB argument has $n bytes"; fi
fi
# a local: size far above the device's local memory (2^39 bytes, which would also exceed the 64-bit
# module's pointer offset field) is refused by the local memory limit, before anything is allocated
if run 2 run "$S" -k rotate -g 4 -l 4 'int[4]' local:549755813888; then
  expect_err "549755813888 bytes of __local memory is above the work-group's 65536 (SPVI_LOCAL_MEM_SIZE)"
fi

echo "test_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
