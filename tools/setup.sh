#!/bin/sh
# Install the Debian packages spvi's build and tests need, when they are missing.
# Safe to run repeatedly; needs root (or sudo) only when something is missing.
# --bench: also the OpenCL implementations `make bench` compares against (PoCL, Oclgrind).
set -e
PKGS="build-essential python3 spirv-headers spirv-tools libcmocka-dev clang-14 llvm-14 llvm-spirv-14 libmpfr-dev libgmp-dev valgrind libedit-dev clang-format-14"
# spvi compare --json and spvi test (case files, SARIF): cJSON; YAML case files: libyaml
PKGS="$PKGS libcjson-dev libyaml-dev"
# libpng: the PNG pictures `spvi run --out` writes of image arguments (docs/building.md)
PKGS="$PKGS libpng-dev"
# mimalloc: the spvi command's allocator (the Makefile's MIMALLOC, docs/building.md)
PKGS="$PKGS libmimalloc-dev"
# the second translator of the corpus load test (make conformance, docs/conformance.md)
PKGS="$PKGS clang-15 llvm-spirv-15"
# the OpenCL platform and its tests: the ICD loader and headers, clinfo, pyopencl with numpy
PKGS="$PKGS ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-headers clinfo python3-pyopencl python3-numpy"
# the Python package (python/, docs/python.md): `pip install --no-build-isolation ./python` builds it
# with setuptools; its tests use python3-numpy (above)
PKGS="$PKGS python3-setuptools"
# the OpenCL CTS (make cts, make cts-ci; docs/conformance.md): cmake and ninja build it with g++
# (build-essential), spirv-as/spirv-val (spirv-tools) and python3 assemble test_spirv_new's modules
PKGS="$PKGS cmake ninja-build"
# the fuzzers (make fuzz, make fuzz-ci; docs/fuzzing.md): clang-14's libFuzzer and sanitizer runtimes
PKGS="$PKGS libclang-rt-14-dev"
# the scaling test (tests/cli/test_scale.sh, docs/scaling.md): four shards run under GNU parallel
PKGS="$PKGS parallel"
for arg in "$@"; do
  case $arg in
  --bench) PKGS="$PKGS pocl-opencl-icd oclgrind" ;;
  *) echo "usage: sh tools/setup.sh [--bench]" >&2; exit 2 ;;
  esac
done
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "setup: installing$missing" >&2
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
