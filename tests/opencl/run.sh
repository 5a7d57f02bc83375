#!/bin/sh
# Runs every OpenCL host test program in $BUILD/cltests through the system's ICD loader with spvi's
# platform as the only one (ocl-icd: OCL_ICD_VENDORS naming the library; the Khronos loader:
# OCL_ICD_FILENAMES), then the scripted tests (pyopencl, spvi exec, clinfo). Exit status 0 when all
# pass. Scripts run external programs with LD_PRELOAD="$SPVI_PRELOAD" (see below).
set -u
BUILD=${BUILD:-build}
lib=$(cd "$BUILD" && pwd)/libspvi-cl.so
export OCL_ICD_VENDORS="$lib" OCL_ICD_FILENAMES="$lib" SPVI_BUILD="$(cd "$BUILD" && pwd)"
# The build cache (docs/compile.md "The build cache") in the build directory, not the user's
# ~/.cache/spvi (its keys name the library's file, so a rebuilt spvi never reuses old entries).
export SPVI_CACHE_DIR="$SPVI_BUILD/cache"
# Under `make SAN=1` the library is built with ASan/UBSan: programs that are not (python3, clinfo,
# the apps tests/opencl/exec.sh compiles) need the sanitizer runtime loaded first, and their own
# leaks (Python's) are not spvi's.
if ldd "$lib" 2>/dev/null | grep -q libasan; then
  SPVI_PRELOAD="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)"
  export SPVI_PRELOAD ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
else
  export SPVI_PRELOAD=""
fi
status=0
for t in "$BUILD"/cltests/test_*; do
  [ -x "$t" ] || continue
  case $t in *.d) continue ;; esac
  echo "== $(basename "$t")"
  "$t" || { status=1; echo "FAILED: $(basename "$t")"; }
done
for s in tests/opencl/*.sh tests/opencl/*.py; do
  [ -f "$s" ] || continue
  case $s in */run.sh|*/compile_corpus.py) continue ;; esac
  echo "== $s"
  case $s in
  *.py) LD_PRELOAD="$SPVI_PRELOAD" python3 "$s" || { status=1; echo "FAILED: $s"; } ;;
  *) sh "$s" || { status=1; echo "FAILED: $s"; } ;;
  esac
done
exit $status
