#!/bin/sh
# bench/run.sh — spvi's benchmark suite (`make bench`): compiles the kernels in bench/kernels/ with
# clang-14 + llvm-spirv-14, the checking helper (bench_tool) and, when the OpenCL headers and
# library are present, the OpenCL host program (ocl_host) for PoCL and Oclgrind, generates the
# >= 1 MiB module of the loading benchmark, then runs bench/bench.py, which prints the table and
# writes it in markdown to $BUILD/bench/results.md.
#
# Environment: BUILD (default build), SPVI (default $BUILD/spvi), CC (default cc).
# Arguments are passed to bench.py: --runs N, --only k1,k2, --no-pocl, --no-oclgrind, --no-checks
# (skip the "checks overhead" section: each kernel once with --check races, uninit and all),
# --no-e2e (skip the "end to end" section: ocl_host as whole processes on each platform), --no-threads
# (skip the `--threads 2` runs of the kernels with at least 64 work-groups).
set -eu
BUILD=${BUILD:-build}
SPVI=${SPVI:-$BUILD/spvi}
CC=${CC:-cc}
HERE=$(dirname "$0")
OUT=$BUILD/bench
mkdir -p "$OUT"

[ -x "$SPVI" ] || { echo "bench: $SPVI not found (run make first)" >&2; exit 2; }
for t in clang-14 llvm-spirv-14 python3; do
  command -v "$t" >/dev/null 2>&1 || { echo "bench: $t is required (sh tools/setup.sh)" >&2; exit 2; }
done

compile_cl() { # source.cl out.spv [optimisation level, default -O2]
  clang-14 -cl-std=CL2.0 -target spir64 -emit-llvm -c "${3:--O2}" -Xclang -finclude-default-header "$1" -o "$2.bc"
  llvm-spirv-14 "$2.bc" -o "$2"
  rm -f "$2.bc"
}

# -ffp-contract=off: the references round every float operation once, as the kernels do.
CFLAGS_BENCH="-std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -fno-strict-aliasing -O2 -ffp-contract=off"
COMMON="$HERE/bench_spec.c $HERE/bench_gen.c $HERE/bench_ref.c $HERE/bench_ref2.c $HERE/bench_npy.c"
# MPFR: nbody's reference decides rsqrt's rare near-midpoint cases exactly (bench_ref2.c).
LIBS_REF="-lmpfr -lgmp -lm"
echo "bench: compiling bench_tool" >&2
# shellcheck disable=SC2086
$CC $CFLAGS_BENCH "$HERE/bench_tool.c" $COMMON $LIBS_REF -o "$OUT/bench_tool"

OCL_HOST=""
# shellcheck disable=SC2086
if $CC $CFLAGS_BENCH "$HERE/ocl_host.c" $COMMON -lOpenCL $LIBS_REF -o "$OUT/ocl_host" 2>"$OUT/ocl_host.log"; then
  OCL_HOST=$OUT/ocl_host
else
  echo "bench: no OpenCL development files (ocl-icd-opencl-dev, opencl-headers): PoCL and Oclgrind skipped" \
       "(sh tools/setup.sh --bench installs them); see $OUT/ocl_host.log" >&2
fi

# The module-loading benchmark: 320 generated kernels at -O0 give about 1.03 MiB of SPIR-V that
# passes SPIRV-Tools validation (see gen_big_module.py for why -O0).
echo "bench: generating the >= 1 MiB module" >&2
python3 "$HERE/gen_big_module.py" 320 "$OUT/big.cl"
compile_cl "$OUT/big.cl" "$OUT/big.spv" -O0

python3 "$HERE/bench.py" --spvi "$SPVI" --tool "$OUT/bench_tool" --ocl-host "$OCL_HOST" \
  --cl-dir "$HERE/kernels" --big-spv "$OUT/big.spv" --outdir "$OUT" --cc "$CC" "$@"

# The OpenCL platform (libspvi-cl.so): enqueue overhead of an empty kernel and buffer transfer
# bandwidth, through the ICD loader, beside PoCL's figures from the same run (targets: <= 20 us per
# enqueue + finish, transfers within 2x of memcpy).
[ -n "$OCL_HOST" ] || exit 0
# shellcheck disable=SC2086
$CC $CFLAGS_BENCH "$HERE/cl_platform.c" -lOpenCL -o "$OUT/cl_platform"
LIB=$(cd "$BUILD" && pwd)/libspvi-cl.so
{
  echo
  echo "## OpenCL platform (one process each, medians of 7 batches)"
  echo
  echo "| platform | enqueue + finish, empty kernel (us) | write (GB/s) | read (GB/s) | memcpy (GB/s) |"
  echo "|---|---:|---:|---:|---:|"
  for icd in "$LIB" /etc/OpenCL/vendors/pocl.icd; do
    [ -e "$icd" ] || continue
    line=$(OCL_ICD_VENDORS=$icd OCL_ICD_FILENAMES=$icd "$OUT/cl_platform") || { echo "bench: cl_platform failed with $icd" >&2; continue; }
    echo "$line" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      printf "| %s | %s | %s | %s | %s |\n", v["name"], v["enqueue_us"], v["write_gbs"], v["read_gbs"], v["memcpy_gbs"] }'
  done
} | tee -a "$OUT/results.md"
