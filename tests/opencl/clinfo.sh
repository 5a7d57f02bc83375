#!/bin/sh
# clinfo.sh — libspvi-cl.so as an ICD and as a plain library (cl_khr_icd, OpenCL 3.0 API 4.1-4.2):
#  1. every entry point of the dispatch table is defined inside the library: no weak undefined cl*
#     symbol is left (cl_icd.c references other files' entry points weakly so that the library
#     links while they are written; at the end none may be missing);
#  2. clinfo (Debian's clinfo) through the ICD loader lists the spvi platform and its device and
#     reports no failed query (clinfo prints failures as "<...: error N>", "<error: ...>", or
#     names like CL_INVALID_VALUE);
#  3. test_platform built against libspvi-cl.so directly, with no ICD loader, passes too.
# Run by tests/opencl/run.sh (SPVI_BUILD: the build directory; OCL_ICD_VENDORS set to the library).
set -u
B=${SPVI_BUILD:-$(pwd)/build}
lib=$B/libspvi-cl.so
status=0
fail() { echo "clinfo.sh: FAIL: $*"; status=1; }

[ -f "$lib" ] || { echo "clinfo.sh: no $lib (build it first)"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spvi-clinfo.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# A library built with SAN=1 needs the sanitizer runtime first in programs that are not built with it.
san_cflags=""
asan_rt=$(ldd "$lib" 2>/dev/null | awk '/libasan/ {print $3}')
[ -n "$asan_rt" ] && san_cflags="-fsanitize=address,undefined -fno-omit-frame-pointer"

# 1. nothing left undefined
weak=$(nm -D --undefined-only "$lib" | awk '$1 == "w" && $2 ~ /^cl/ {printf "%s ", $2}')
[ -z "$weak" ] || fail "entry points no file of libspvi-cl.so defines (weak undefined): $weak"
undef=$(nm -D --undefined-only "$lib" | awk '$1 == "U" && $2 ~ /^(clx_|cl[A-Z])/ {printf "%s ", $2}')
[ -z "$undef" ] || fail "undefined library symbols: $undef"

# 2. clinfo through the loader, spvi the only platform
if command -v clinfo >/dev/null 2>&1; then
  if [ -n "$asan_rt" ]; then
    run_clinfo() { LD_PRELOAD="$asan_rt" ASAN_OPTIONS=detect_leaks=0 OCL_ICD_VENDORS="$lib" OCL_ICD_FILENAMES="$lib" \
      timeout 300 clinfo "$@"; }
  else
    run_clinfo() { OCL_ICD_VENDORS="$lib" OCL_ICD_FILENAMES="$lib" timeout 300 clinfo "$@"; }
  fi
  run_clinfo >"$tmp/clinfo.out" 2>&1
  rc=$?
  [ $rc -eq 0 ] || fail "clinfo exited with $rc"
  grep -Eq '^Number of platforms +1$' "$tmp/clinfo.out" || fail "clinfo does not see exactly one platform"
  grep -Eq '^ +Platform Name +spvi$' "$tmp/clinfo.out" || fail "clinfo does not list the spvi platform"
  grep -Eq '^ +Device Name +spvi SPIR-V interpreter$' "$tmp/clinfo.out" || fail "clinfo does not list spvi's device"
  grep -Eq '^ +Platform Version +OpenCL 3\.0 spvi ' "$tmp/clinfo.out" || fail "platform version is not OpenCL 3.0"
  if grep -En '<error|error -?[0-9]+|: error|Invalid|CL_INVALID|CL_OUT_OF' "$tmp/clinfo.out" >"$tmp/errors"; then
    fail "clinfo reports failed queries:"
    cat "$tmp/errors"
  fi
  run_clinfo -l >"$tmp/clinfo-l.out" 2>&1 || fail "clinfo -l failed"
  grep -q 'Platform #0: spvi' "$tmp/clinfo-l.out" || fail "clinfo -l does not list spvi"
  grep -q 'Device #0: spvi SPIR-V interpreter' "$tmp/clinfo-l.out" || fail "clinfo -l does not list the device"
else
  fail "clinfo is not installed (apt-get install clinfo)"
fi

# 3. linked directly (no loader): the application's clGetPlatformIDs is spvi's
if cc -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -pthread $san_cflags -Iinclude -Icompile -Iopencl \
     tests/opencl/test_platform.c tests/opencl/cltest.c -L"$B" -l:libspvi-cl.so -Wl,-rpath,"$B" -lcmocka -lm -lpthread \
     -o "$tmp/test_platform_direct" 2>"$tmp/cc.err"; then
  if ldd "$tmp/test_platform_direct" | grep -q libOpenCL; then
    fail "the direct build links the ICD loader"
  fi
  env -u OCL_ICD_VENDORS -u OCL_ICD_FILENAMES "$tmp/test_platform_direct" >"$tmp/direct.out" 2>&1 || {
    fail "test_platform linked directly to libspvi-cl.so:"
    cat "$tmp/direct.out"
  }
else
  fail "cannot build test_platform against libspvi-cl.so:"
  cat "$tmp/cc.err"
fi

[ $status -eq 0 ] && echo "clinfo.sh: ok"
exit $status
