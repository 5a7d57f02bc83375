#!/bin/sh
# run.sh — the Python package's tests (tests/python/test_spvi.py) against $BUILD/libspvi.so, with
# the package used in place (PYTHONPATH=python), and a check that the library exports exactly the
# functions include/spvi.h declares (include/spvi.map).
#
# usage: BUILD=build sh tests/python/run.sh
set -u
BUILD=${BUILD:-build}
LIB=$BUILD/libspvi.so
case $LIB in /*) ;; *) LIB=$PWD/$LIB ;; esac
. tests/cli/lib.sh
numpy_python tests/python || exit 1
if [ ! -f "$LIB" ]; then
  echo "tests/python: $LIB is not built (run make first)" >&2
  exit 1
fi
status=0

# the exported symbols are the public API, no more and no less
exported=$(nm -D --defined-only "$LIB" | awk '{print $3}' | sort)
declared=$(grep -o '\bspvi_[a-z0-9_]* *(' include/spvi.h | sed 's/ *(//' | sort -u)
if [ "$exported" != "$declared" ]; then
  echo "FAIL: $LIB exports other names than the functions of include/spvi.h:" >&2
  printf '%s\n' "$exported" >"$BUILD/exported.txt"
  printf '%s\n' "$declared" | diff - "$BUILD/exported.txt" >&2
  status=1
else
  echo "libspvi.so exports the $(printf '%s\n' "$declared" | wc -l) functions of spvi.h"
fi

# A sanitizer build's library needs the sanitizer runtimes loaded before the interpreter starts
# (python3 itself is not instrumented); leaks of the interpreter are not ours to report.
if nm -D "$LIB" | grep -q '__asan_init'; then
  LD_PRELOAD="$(${CC:-cc} -print-file-name=libasan.so) $(${CC:-cc} -print-file-name=libubsan.so)"
  ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}
  export LD_PRELOAD ASAN_OPTIONS
fi
SPVI_LIBRARY=$LIB PYTHONPATH=python${PYTHONPATH:+:$PYTHONPATH} "$PY" tests/python/test_spvi.py || status=1
exit $status
