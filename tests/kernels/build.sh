#!/bin/sh
# Compile every tests/kernels/*.cl to SPIR-V for the unit tests that run them (tests/unit/
# test_kernels_*.c, test_kernel_builtins_*.c, test_checks*.c, ...).
#
#   BUILD=build sh tests/kernels/build.sh [NAME.cl ...]     (run from the repository root)
#
# For each kernel file NAME.cl this writes, under $BUILD/kernels/:
#   NAME.O0.spv         clang -O0, target spir64 (Physical64)
#   NAME.O2.spv         clang -O2, target spir64
#   NAME.O0.spir32.spv  clang -O0, target spir (Physical32) -- only for files marked `// also: spir32`
#   NAME.O1.spv         clang -O1, target spir64 -- only for files marked `// also: O1`
# When a variant is not produced, NAME.<variant>.skip holds the one-line reason instead (the
# translator rejected the module, or the file opts out of -O2); the test prints it and skips that
# variant. A variant with neither file is a test failure.
#
# Markers, in the leading `//` comment lines of a .cl file:
#   // cl-std: CL1.2             language version (default CL2.0)
#   // spirv: skip-O2 <reason>   do not build the -O2 variant (the reason goes into NAME.O2.skip)
#   // also: spir32              also build NAME.O0.spir32.spv
#   // also: O1                  also build NAME.O1.spv
#   // cflags: FLAGS             extra clang flags for every variant (e.g. -g: source lines in reports)
#   // llvm-spirv: FLAGS         extra translator flags, e.g. --spirv-ext=+SPV_INTEL_subgroups
#
# Exit status: non-zero when clang fails on any kernel (a kernel that does not compile is a bug in
# the test suite); a translator rejection is reported but is not an error.
# Environment: BUILD (default build), CLANG (clang-14), LLVM_SPIRV (llvm-spirv-14), JOBS (parallel
# compilations, default: number of CPUs), FORCE=1 (rebuild even when up to date).
set -u

BUILD=${BUILD:-build}
CLANG=${CLANG:-clang-14}
LLVM_SPIRV=${LLVM_SPIRV:-llvm-spirv-14}
SRC_DIR=$(dirname "$0")
OUT=$BUILD/kernels

# ---- one file -------------------------------------------------------------------------------
# build_one FILE.cl: builds every variant of one file; exit 1 when clang fails.
build_one() {
  src=$1
  name=$(basename "$src" .cl)
  stamp=$OUT/$name.stamp
  if [ "${FORCE:-0}" != 1 ] && [ -f "$stamp" ] && [ -z "$(find "$src" "$0" -newer "$stamp" 2> /dev/null)" ]; then
    # up to date: repeat the notes about variants that were not built
    for s in "$OUT/$name".*.skip; do
      [ -f "$s" ] || continue
      v=$(basename "$s" .skip)
      echo "build.sh: $v: not built ($(cat "$s"))"
    done
    return 0
  fi
  rm -f "$OUT/$name".*.spv "$OUT/$name".*.skip "$OUT/$name".*.bc "$OUT/$name".*.log "$stamp"

  # leading comment block only
  header=$(sed -n '/^[[:space:]]*\/\//!q; p' "$src")
  std=$(printf '%s\n' "$header" | sed -n 's|^[[:space:]]*//[[:space:]]*cl-std:[[:space:]]*\([A-Za-z0-9.]*\).*|\1|p' | head -n 1)
  [ -n "$std" ] || std=CL2.0
  skip_o2=$(printf '%s\n' "$header" | sed -n 's|^[[:space:]]*//[[:space:]]*spirv:[[:space:]]*skip-O2[[:space:]]*\(.*\)|\1|p' | head -n 1)
  o2_marked=$(printf '%s\n' "$header" | grep -c '^[[:space:]]*//[[:space:]]*spirv:[[:space:]]*skip-O2')
  spir32=$(printf '%s\n' "$header" | grep -c '^[[:space:]]*//[[:space:]]*also:.*spir32')
  o1=$(printf '%s\n' "$header" | grep -c '^[[:space:]]*//[[:space:]]*also:.*O1')
  xflags=$(printf '%s\n' "$header" | sed -n 's|^[[:space:]]*//[[:space:]]*llvm-spirv:[[:space:]]*\(.*\)|\1|p' | head -n 1)
  cflags=$(printf '%s\n' "$header" | sed -n 's|^[[:space:]]*//[[:space:]]*cflags:[[:space:]]*\(.*\)|\1|p' | head -n 1)

  failed=0
  variants="O0 O2"
  [ "$spir32" -gt 0 ] && variants="$variants O0.spir32"
  [ "$o1" -gt 0 ] && variants="$variants O1"
  for v in $variants; do
    case $v in
      O0) opt=-O0; target=spir64 ;;
      O1) opt=-O1; target=spir64 ;;
      O2) opt=-O2; target=spir64 ;;
      O0.spir32) opt=-O0; target=spir ;;
    esac
    base=$OUT/$name.$v
    if [ "$v" = O2 ] && [ "$o2_marked" -gt 0 ]; then
      [ -n "$skip_o2" ] || skip_o2="marked skip-O2 in $name.cl"
      printf '%s\n' "skip-O2 marker in $name.cl: $skip_o2" > "$base.skip"
      echo "build.sh: $name.$v: not built ($(cat "$base.skip"))"
      continue
    fi
    # shellcheck disable=SC2086 # cflags is a list of words
    if ! "$CLANG" -cl-std="$std" -target "$target" -emit-llvm -c "$opt" $cflags -Xclang -finclude-default-header \
         "$src" -o "$base.bc" 2> "$base.log"; then
      echo "build.sh: $name.$v: clang failed:" >&2
      cat "$base.log" >&2
      failed=1
      continue
    fi
    # clang warnings are shown but do not fail the build
    [ -s "$base.log" ] && cat "$base.log" >&2
    # shellcheck disable=SC2086
    if ! "$LLVM_SPIRV" $xflags "$base.bc" -o "$base.spv" 2> "$base.log"; then
      # the first two non-empty lines of the message, joined (llvm-spirv puts names on line 2)
      reason=$(sed -n '/[^[:space:]]/p' "$base.log" | head -n 2 | tr '\n' ' ' | sed 's/[[:space:]]\{1,\}/ /g; s/ $//')
      [ -n "$reason" ] || reason="exit status non-zero, no message"
      rm -f "$base.spv"
      printf '%s\n' "$LLVM_SPIRV rejected the $opt $target module: $reason" > "$base.skip"
      echo "build.sh: $name.$v: $LLVM_SPIRV rejected the module: $reason"
      continue
    fi
    rm -f "$base.log" "$base.bc"
  done
  [ "$failed" = 0 ] || return 1
  : > "$stamp"
  return 0
}

if [ "${1:-}" = --one ]; then
  build_one "$2"
  exit $?
fi

# ---- all files ------------------------------------------------------------------------------
command -v "$CLANG" > /dev/null 2>&1 || { echo "build.sh: $CLANG not found (tools/setup.sh installs it)" >&2; exit 2; }
command -v "$LLVM_SPIRV" > /dev/null 2>&1 || { echo "build.sh: $LLVM_SPIRV not found (tools/setup.sh installs it)" >&2; exit 2; }
mkdir -p "$OUT" || exit 2

if [ $# -gt 0 ]; then
  files="$*"
else
  files=$(ls "$SRC_DIR"/*.cl 2> /dev/null)
fi
[ -n "$files" ] || { echo "build.sh: no .cl files in $SRC_DIR" >&2; exit 2; }

jobs=${JOBS:-$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 1)}
# shellcheck disable=SC2086
printf '%s\n' $files | xargs -n 1 -P "$jobs" sh "$0" --one
status=$?
if [ "$status" != 0 ]; then
  echo "build.sh: some kernels failed to compile (see above)" >&2
  exit 1
fi
exit 0
