#!/usr/bin/env python3
"""Build the Khronos OpenCL CTS and run its suites on spvi (and PoCL) through the ICD loader.

`make cts` calls this script (docs/conformance.md "The OpenCL CTS"). Steps:
  1. configure ../shared/opencl-cts with cmake + ninja in a cached build directory (once), against
     the Khronos headers in ../shared and Debian's ICD loader (../shared/opencl-cts/SNAPSHOT.md);
  2. build only the suites asked for (ninja targets), at most -j CORES;
  3. list each suite's sub-tests (`SUITE --list`) and run each one as its own process, from the
     suite's folder, with a timeout, the loader pointed at one platform's library alone;
  4. classify each run from its exit status and the CTS's own log lines (parse_log) and write
     results.md (a table per platform and suite), results.txt (one line per sub-test) and logs/.
Python 3 standard library only.
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import time

# The suites. A name here is a ninja target and executable name, except the aliases below.
DEFAULT_SUITES = [
    "test_basic", "test_api", "test_compiler", "test_spirv_new", "test_computeinfo", "test_buffers",
    "test_images", "test_commonfns", "test_geometrics", "test_relationals", "test_integer_ops",
    "test_conversions", "test_bruteforce", "test_half", "test_printf", "test_atomics",
    "test_c11_atomics", "test_subgroups", "test_workgroups", "test_generic_address_space",
    "test_non_uniform_work_group", "test_select", "test_vectors", "test_events", "test_profiling",
    "test_thread_dimensions", "test_multiple_device_context", "test_allocations",
]

# Names the issue (and the CTS's folders) use for suites whose executables are named otherwise:
# the image tests are seven executables under images/, multiple_device_context builds test_multiples.
ALIASES = {
    "test_images": ["test_cl_copy_images", "test_cl_fill_images", "test_cl_get_info",
                    "test_cl_read_write_images", "test_kernel_image_methods", "test_image_streams",
                    "test_samplerless_reads"],
    "test_multiple_device_context": ["test_multiples"],
    "test_math_brute_force": ["test_bruteforce"],
}

STATUSES = ["PASS", "FAIL", "SKIP", "TIMEOUT", "CRASH"]

# Suites whose one sub-test runs only when no name is given: test_conversions' own argument parser
# takes every name on its command line as a conversion to test ("char_sat_rte_float"), so
# `test_conversions conversions` tests nothing and passes ("Unable to parse function name
# conversions. Skipping...", CTS test_conversions.cpp ParseArgs and REGISTER_TEST(conversions)).
RUN_UNNAMED = {"test_conversions": "conversions"}


# ---- parsing the CTS's output (tests/cts/test_parse.py checks these on captured logs) ----

def parse_log(name, text, rc):
    """Status of one sub-test run: `SUITE NAME` printed `text` and exited with `rc` (None: killed
    by the timeout; negative: killed by that signal). The harness (test_common/harness/
    testHarness.cpp) prints "NAME passed", "NAME FAILED", or one of the skip lines below; it also
    prints "PASSED sub-test." after a skip, so that line says nothing and is not used."""
    if rc is None:
        return "TIMEOUT"
    if rc < 0:
        return "CRASH"
    n = re.escape(name)
    skip = [
        n + r" test not supported$",                 # the test returned TEST_SKIPPED_ITSELF
        n + r" skipped \(requires at least",         # device version below the test's minimum
        r"Subtest " + n + r" tests is not supported",  # not in the offline-compilation path
        n + r" test currently not implemented$",
        r"Test skipped while initialization$",       # the whole suite: device lacks the feature
    ]
    if re.search(r"^" + n + r" FAILED$", text, re.M) or rc != 0:
        return "FAIL"
    # Anchored at the line's start: "x_y test not supported" must not skip a sub-test named "y".
    if any(re.search("^" + s, text, re.M) for s in skip):
        return "SKIP"
    return "PASS"


def parse_list(text):
    """Sub-test names from `SUITE --list`: one per line, indented by a tab."""
    return [ln.strip() for ln in text.splitlines() if ln.startswith("\t") and ln.strip()]


# ---- building ----

def run(cmd, **kw):
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, **kw)


def configure(a):
    """cmake once per build directory (the SNAPSHOT.md recipe); later runs reuse it."""
    if os.path.exists(os.path.join(a.build_dir, "build.ninja")):
        return
    for d in (a.cts_src, a.cl_headers, a.spirv_headers):
        if not os.path.isdir(d):
            sys.exit("cts: %s not found (CTS_SRC=DIR: the CTS snapshot, its headers beside it)" % d)
    for tool in ("cmake", "ninja"):
        if not shutil.which(tool):
            sys.exit("cts: %s not found (apt-get install cmake ninja-build)" % tool)
    r = run(["cmake", "-S", a.cts_src, "-B", a.build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
             "-DCL_INCLUDE_DIR=" + os.path.realpath(a.cl_headers),
             "-DCL_LIB_DIR=/usr/lib/x86_64-linux-gnu", "-DOPENCL_LIBRARIES=OpenCL",
             "-DSPIRV_INCLUDE_DIR=" + os.path.realpath(a.spirv_headers)])
    if r.returncode:
        sys.exit("cts: cmake failed")


def build(a, suites):
    configure(a)
    r = run(["ninja", "-C", a.build_dir, "-j", str(a.jobs)] + suites)
    if r.returncode:
        sys.exit("cts: ninja failed")


def find_exe(build_dir, suite):
    """The suite's executable: test_conformance/<folder...>/<suite> (folders differ from names)."""
    for root, dirs, files in os.walk(os.path.join(build_dir, "test_conformance")):
        dirs[:] = [d for d in dirs if d != "CMakeFiles"]
        if suite in files:
            return os.path.join(root, suite)
    return None


# ---- running ----

def icd_library(icd_file):
    """The library an /etc/OpenCL/vendors/*.icd file names (one line)."""
    with open(icd_file) as f:
        return f.read().strip()


def platform_env(lib):
    """Environment in which the ICD loader sees `lib` alone: ocl-icd reads OCL_ICD_FILENAMES and
    skips /etc/OpenCL/vendors when OCL_ICD_VENDORS names something else (docs/opencl-platform.md)."""
    env = dict(os.environ, OCL_ICD_FILENAMES=lib, OCL_ICD_VENDORS=lib)
    env.pop("CL_CONFORMANCE_RESULTS_FILENAME", None)
    return env


def list_tests(exe, env):
    r = subprocess.run([exe, "--list"], cwd=os.path.dirname(exe), env=env, capture_output=True,
                       text=True, errors="replace", timeout=120)
    return parse_list(r.stdout + r.stderr)


def sub_test_argv(suite, name):
    """The sub-test's name as the suite's command line takes it (RUN_UNNAMED: none)."""
    return [] if RUN_UNNAMED.get(suite) == name else [name]


def run_one(exe, name, args, env, timeout, log_path):
    """Run one sub-test in its own process group (so the timeout also ends its threads/children);
    the log keeps the command line first, then everything it printed."""
    cmd = [exe] + args + sub_test_argv(os.path.basename(exe), name)
    t0 = time.monotonic()
    with open(log_path, "w") as log:
        log.write("# " + " ".join(cmd) + "\n")
        log.flush()
        p = subprocess.Popen(cmd, cwd=os.path.dirname(exe), env=env, stdout=log,
                             stderr=subprocess.STDOUT, start_new_session=True)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            p.wait()
            rc = None
        except BaseException:
            # Ctrl-C: the sub-test is in its own session and would outlive us
            os.killpg(p.pid, 9)
            raise
    secs = time.monotonic() - t0
    with open(log_path, errors="replace") as log:
        text = log.read()
    with open(log_path, "a") as log:
        log.write("# exit: %s, %.1f s\n" % ("timeout" if rc is None else rc, secs))
    return parse_log(name, text, rc), secs


def run_suite(a, plat, lib, suite, tests_wanted, out):
    """Every wanted sub-test of `suite` on one platform: (suite, [(test, status, secs)], wall)."""
    exe = find_exe(a.build_dir, suite)
    if exe is None:
        print("cts: %s: not built in %s" % (suite, a.build_dir), file=sys.stderr)
        return suite, [], 0.0
    env = platform_env(lib)
    names = list_tests(exe, env)
    if tests_wanted:
        missing = [t for t in tests_wanted if t not in names]
        if missing:
            print("cts: %s has no sub-test %s" % (suite, ", ".join(missing)), file=sys.stderr)
        names = [t for t in names if t in tests_wanted]
    logdir = os.path.join(out, "logs", plat, suite)
    os.makedirs(logdir, exist_ok=True)
    args = ["-w"] if a.wimpy else []
    t0 = time.monotonic()
    rows = []
    # Sub-tests are independent processes: -j runs several at a time (each is single-threaded
    # on spvi's side unless the device uses more threads itself).
    with concurrent.futures.ThreadPoolExecutor(a.run_jobs) as pool:
        futs = {pool.submit(run_one, exe, t, args, env, a.timeout,
                            os.path.join(logdir, t + ".log")): t for t in names}
        for f in concurrent.futures.as_completed(futs):
            t = futs[f]
            status, secs = f.result()
            print("%-8s %-7s %s:%s (%.1f s)" % (plat, status, suite, t, secs), flush=True)
            rows.append((t, status, secs))
    rows.sort()
    return suite, rows, time.monotonic() - t0


# ---- results ----

def table(results):
    """Markdown table: one row per (platform, suite)."""
    lines = ["| platform | suite | run | passed | failed | skipped | timeout | crash | wall time |",
             "|---|---|---|---|---|---|---|---|---|"]
    for plat, suite, rows, wall in results:
        c = {s: sum(1 for r in rows if r[1] == s) for s in STATUSES}
        lines.append("| %s | %s | %d | %d | %d | %d | %d | %d | %s |" % (
            plat, suite, len(rows), c["PASS"], c["FAIL"], c["SKIP"], c["TIMEOUT"], c["CRASH"],
            fmt_time(wall)))
    return "\n".join(lines) + "\n"


def fmt_time(s):
    return "%d:%02d" % (s // 60, s % 60) if s >= 60 else "%.1f s" % s


def write_results(a, results, out):
    md = table(results)
    head = "# OpenCL CTS on spvi\n\nstarted %s, %s, timeout %d s per sub-test, %d at a time%s\n\n" % (
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(a.started)), a.icd, a.timeout, a.run_jobs,
        ", wimpy (-w)" if a.wimpy else "")
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write(head + md)
    with open(os.path.join(out, "results.txt"), "w") as f:
        f.write("# platform suite sub-test status seconds (logs: logs/PLATFORM/SUITE/SUB-TEST.log)\n")
        for plat, suite, rows, _ in results:
            for t, status, secs in rows:
                f.write("%s %s %s %s %.1f\n" % (plat, suite, t, status, secs))
    print("\n" + md)
    print("cts: results in %s/results.md, per sub-test in results.txt, logs in logs/" % out)


# ---- command line ----

def expand_suites(names):
    out = []
    for s in names:
        s = s if s.startswith("test_") else "test_" + s
        out += ALIASES.get(s, [s])
    return list(dict.fromkeys(out))


def pocl_library():
    """PoCL's library from its ICD registration, or None when PoCL is not installed."""
    path = "/etc/OpenCL/vendors/pocl.icd"
    return icd_library(path) if os.path.exists(path) else None


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    shared = os.path.join(here, "..", "..", "shared")
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--icd", default="build/libspvi-cl.so", help="spvi's ICD library")
    p.add_argument("--cts-src", default=os.path.join(shared, "opencl-cts"))
    p.add_argument("--cl-headers", help="Khronos OpenCL headers (default: beside --cts-src)")
    p.add_argument("--spirv-headers", help="Khronos SPIR-V headers (default: beside --cts-src)")
    p.add_argument("--build-dir", default="build/cts/build", help="the CTS's cmake build (cached)")
    p.add_argument("--out", default="build/cts", help="results.md, results.txt and logs/")
    p.add_argument("--suites", default=",".join(DEFAULT_SUITES),
                   help="comma-separated suites (test_images: the image executables)")
    p.add_argument("--test", default="",
                   help="comma-separated sub-tests (each NAME or SUITE:NAME); one suite when no SUITE:")
    p.add_argument("--wimpy", action="store_true", help="the CTS's reduced mode (-w)")
    p.add_argument("--timeout", type=int, default=600, help="seconds per sub-test")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                   help="ninja jobs (default: the machine's cores)")
    p.add_argument("--run-jobs", type=int, default=1, help="sub-tests run at a time")
    p.add_argument("--pocl", action="store_true", help="also run on PoCL, when installed")
    p.add_argument("--platforms", default="",
                   help="comma-separated platforms to run on: spvi, pocl (default: spvi, and pocl "
                        "with --pocl)")
    p.add_argument("--no-build", action="store_true", help="use the built suites as they are")
    a = p.parse_args(argv)
    a.started = time.time()
    a.jobs = max(1, min(a.jobs, os.cpu_count() or 1))
    # ../shared holds the CTS snapshot and the headers it was taken with, side by side.
    a.cl_headers = a.cl_headers or os.path.join(os.path.dirname(a.cts_src), "opencl-headers")
    a.spirv_headers = a.spirv_headers or os.path.join(os.path.dirname(a.cts_src), "spirv-headers")

    # TEST=suite:name picks its suite; a bare name applies to the suites given.
    wanted = {}
    suites = expand_suites([s for s in a.suites.split(",") if s])
    if a.test:
        by_suite = [t.split(":", 1) for t in a.test.split(",") if ":" in t]
        bare = [t for t in a.test.split(",") if t and ":" not in t]
        if by_suite:
            suites = expand_suites([s for s, _ in by_suite])
            for s, t in by_suite:
                wanted.setdefault(expand_suites([s])[0], []).append(t)
        if bare:
            if len(suites) > 1 and not by_suite:
                sys.exit("cts: TEST=%s: name its suite (SUITE:TEST) or set SUITES" % a.test)
            for s in suites:
                wanted.setdefault(s, []).extend(bare)

    icd = os.path.realpath(a.icd)
    if not os.path.exists(icd):
        sys.exit("cts: %s not found (make builds it)" % a.icd)
    names = [n for n in a.platforms.split(",") if n] or ["spvi"] + (["pocl"] if a.pocl else [])
    platforms = []
    for n in dict.fromkeys(names):
        if n == "spvi":
            platforms.append(("spvi", icd))
        elif n != "pocl":
            sys.exit("cts: --platforms: unknown platform %r (spvi, pocl)" % n)
        elif pocl_library():
            platforms.append(("pocl", pocl_library()))
        else:
            print("cts: PoCL is not installed (no /etc/OpenCL/vendors/pocl.icd; "
                  "apt-get install pocl-opencl-icd): not run", file=sys.stderr)
    if not platforms:
        sys.exit("cts: no platform to run on")

    if not a.no_build:
        build(a, suites)
    os.makedirs(a.out, exist_ok=True)
    results = []
    for plat, lib in platforms:
        for s in suites:
            suite, rows, wall = run_suite(a, plat, lib, s, wanted.get(s), a.out)
            results.append((plat, suite, rows, wall))
    write_results(a, results, a.out)
    bad = sum(1 for _, _, rows, _ in results for r in rows if r[1] not in ("PASS", "SKIP"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
