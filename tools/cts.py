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


def cmake_args(a):
    """The cmake command of the SNAPSHOT.md recipe. --opt replaces the -O3 of CMake's Release
    flags (NDEBUG stays): the suites' host code is a small part of a run on spvi, and -O0 compiles
    the CTS with about 2.4 times less CPU (docs/conformance.md "The CTS in CI"). Always given:
    cmake keeps a cached value that a later command does not name."""
    args = ["cmake", "-S", a.cts_src, "-B", a.build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
            "-DCL_INCLUDE_DIR=" + os.path.realpath(a.cl_headers),
            "-DCL_LIB_DIR=/usr/lib/x86_64-linux-gnu", "-DOPENCL_LIBRARIES=OpenCL",
            "-DSPIRV_INCLUDE_DIR=" + os.path.realpath(a.spirv_headers)]
    return args + ["-DCMAKE_%s_FLAGS_RELEASE=%s -DNDEBUG" % (lang, a.opt) for lang in ("C", "CXX")]


def configure(a):
    """cmake once per build directory and set of options (recorded in spvi-cmake.txt there); later
    runs with the same options reuse it, other options configure it again."""
    args = cmake_args(a)
    stamp = os.path.join(a.build_dir, "spvi-cmake.txt")
    if os.path.exists(os.path.join(a.build_dir, "build.ninja")) and os.path.exists(stamp):
        with open(stamp) as f:
            if f.read() == "\n".join(args) + "\n":
                return
    for d in (a.cts_src, a.cl_headers, a.spirv_headers):
        if not os.path.isdir(d):
            sys.exit("cts: %s not found (CTS_SRC=DIR: the CTS snapshot, its headers beside it)" % d)
    for tool in ("cmake", "ninja"):
        if not shutil.which(tool):
            sys.exit("cts: %s not found (apt-get install cmake ninja-build)" % tool)
    r = run(args)
    if r.returncode:
        sys.exit("cts: cmake failed")
    with open(stamp, "w") as f:
        f.write("\n".join(args) + "\n")


def build(a, suites):
    t0 = time.monotonic()
    configure(a)
    t1 = time.monotonic()
    r = run(["ninja", "-C", a.build_dir, "-j", str(a.jobs)] + suites)
    if r.returncode:
        sys.exit("cts: ninja failed")
    print("cts: configure %s, build %s" % (fmt_time(t1 - t0), fmt_time(time.monotonic() - t1)),
          flush=True)


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
    skipped = [t for t in names if suite + ":" + t in a.exclude]
    if skipped:
        print("cts: %s: not run (--exclude): %s" % (suite, ", ".join(skipped)), file=sys.stderr)
        names = [t for t in names if t not in skipped]
    logdir = os.path.join(out, "logs", plat, suite)
    os.makedirs(logdir, exist_ok=True)
    args = ["-w"] if a.wimpy else []
    t0 = time.monotonic()
    rows = []
    # Sub-tests are independent processes: -j runs several at a time (each is single-threaded
    # on spvi's side unless the device uses more threads itself).
    with concurrent.futures.ThreadPoolExecutor(a.run_jobs) as pool:
        futs = {pool.submit(run_one, exe, t, args, env, a.suite_timeout.get(suite, a.timeout),
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


def resumed(a):
    """--resume: {(platform, suite): (rows, wall)} of the suites the results.txt in --out has in
    full (a suite is written once all its sub-tests ran), or {} when there is none yet."""
    path = os.path.join(a.out, "results.txt")
    if not os.path.exists(path):
        return {}
    try:
        return {k: (rows, wall or 0.0) for k, (rows, wall) in read_results(path).items() if rows}
    except (OSError, ValueError) as e:
        sys.exit("cts: --resume: %s" % e)


def parse_suite_timeouts(text):
    """--suite-timeout "c11_atomics=7200,test_images=1800" -> {full suite name: seconds}."""
    out = {}
    for item in (t for t in text.split(",") if t):
        suite, sep, secs = item.partition("=")
        if not sep or not secs.isdigit() or int(secs) <= 0:
            sys.exit("cts: --suite-timeout: %r is not SUITE=SECONDS" % item)
        for full in expand_suites([suite]):
            out[full] = int(secs)
    return out


def write_results(a, results, out, quiet=False):
    md = table(results)
    longer = "".join(" (%s: %d s)" % kv for kv in sorted(a.suite_timeout.items()))
    head = "# OpenCL CTS on spvi\n\nstarted %s, %s, timeout %d s per sub-test%s, %d at a time%s\n\n" % (
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(a.started)), a.icd, a.timeout, longer,
        a.run_jobs, ", wimpy (-w)" if a.wimpy else "")
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write(head + md)
    with open(os.path.join(out, "results.txt"), "w") as f:
        f.write("# platform suite sub-test status seconds (logs: logs/PLATFORM/SUITE/SUB-TEST.log)\n")
        for plat, suite, rows, wall in results:
            # the suite's wall time: with --run-jobs > 1 it is not the sum of its sub-tests' times
            f.write("# wall %s %s %.1f\n" % (plat, suite, wall))
            for t, status, secs in rows:
                f.write("%s %s %s %s %.1f\n" % (plat, suite, t, status, secs))
    if quiet:
        return
    print("\n" + md)
    print("cts: results in %s/results.md, per sub-test in results.txt, logs in logs/" % out)


# ---- combining runs (--table) ----

def parse_time(text):
    """Seconds from fmt_time's "M:SS" or "S.s s"."""
    m = re.fullmatch(r"(\d+):(\d\d)|([\d.]+) s", text.strip())
    if not m:
        raise ValueError("not a wall time: %r" % text)
    return int(m.group(1)) * 60 + int(m.group(2)) if m.group(1) else float(m.group(3))


def read_md_walls(path):
    """{(platform, suite): seconds} from the table of a results.md (the runs whose results.txt has
    no "# wall" lines); {} when there is no such file."""
    walls = {}
    if not os.path.exists(path):
        return walls
    with open(path) as f:
        for n, line in enumerate(f, 1):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 9 and cells[0] not in ("platform", "---"):
                try:
                    walls[(cells[0], cells[1])] = parse_time(cells[8])
                except ValueError as e:
                    raise ValueError("%s:%d: %s" % (path, n, e))
    return walls


def read_results(path):
    """{(platform, suite): [rows, wall]} of one results.txt: rows (sub-test, status, seconds), wall
    the suite's wall time from its "# wall" line (else from the results.md beside it; None when
    neither says). Raises ValueError naming the file and line of anything else."""
    runs, walls = {}, {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            w = line.split()
            try:
                if w and w[0] == "#":
                    if len(w) == 5 and w[1] == "wall":
                        walls[(w[2], w[3])] = float(w[4])
                    continue
                if w and (len(w) != 5 or w[3] not in STATUSES):
                    raise ValueError("expected: platform suite sub-test STATUS seconds")
                if w:
                    runs.setdefault((w[0], w[1]), []).append((w[2], w[3], float(w[4])))
            except ValueError as e:
                raise ValueError("%s:%d: %s" % (path, n, e))
    if not walls:
        walls = read_md_walls(os.path.join(os.path.dirname(path), "results.md"))
    keys = list(runs) + [k for k in walls if k not in runs]
    return {k: [runs.get(k, []), walls.get(k)] for k in keys}


def combine(paths):
    """The runs of several results.txt files in one {(platform, suite): [rows, wall]}. A platform's
    suite in two files is an error: which one the table should show is not ours to guess."""
    out, src = {}, {}
    for p in paths:
        for k, v in read_results(p).items():
            if k in out:
                raise ValueError("%s %s is in both %s and %s" % (k[0], k[1], src[k], p))
            out[k], src[k] = v, p
    return out


def flag(spvi, pocl):
    """Where spvi does worse than PoCL on a suite (the issue's targets): fewer passes, or a wall
    time more than 20 times PoCL's. Times compare only where PoCL passed something: a suite PoCL
    skips whole (no sub-groups, no SPIR-V) takes it no time at all, and where PoCL did not pass
    every sub-test, only the sub-tests both passed compare (PoCL 3.1 fails most of test_c11_atomics
    at its build, in a minute)."""
    if spvi is None or pocl is None:
        return ""
    notes = []
    sp, pp = (sum(1 for r in x[0] if r[1] == "PASS") for x in (spvi, pocl))
    if sp < pp:
        notes.append("%d fewer passes" % (pp - sp))
    if not pp:
        pass
    elif pp < len(pocl[0]):
        both = {r[0] for r in spvi[0] if r[1] == "PASS"} & {r[0] for r in pocl[0] if r[1] == "PASS"}
        ts, tp = (sum(r[2] for r in x[0] if r[0] in both) for x in (spvi, pocl))
        if both and ts > 20 * tp:
            notes.append("%s slower on the %d sub-test%s both pass" % ("%.0fx" % (ts / tp) if tp > 0 else "",
                                                                        len(both), "" if len(both) == 1 else "s"))
    elif spvi[1] is None or pocl[1] is None:
        notes.append("wall time unknown")
    elif spvi[1] > 20 * pocl[1]:
        notes.append("%.0fx slower" % (spvi[1] / pocl[1]) if pocl[1] > 0 else "slower")
    return "; ".join(notes)


def compare_table(runs):
    """Markdown table of combined runs: a row per suite (the issue's order first), per platform
    (spvi, pocl, then others) run/pass/fail/skip/timeout/wall, and the flag column. fail counts
    FAIL and CRASH; "-" marks a suite a platform did not run."""
    plats = list(dict.fromkeys(["spvi", "pocl"] + [p for p, _ in runs]))
    plats = [p for p in plats if any(q == p for q, _ in runs)]
    order = expand_suites(DEFAULT_SUITES)
    suites = sorted(dict.fromkeys(s for _, s in runs),
                    key=lambda s: (order.index(s) if s in order else len(order), s))
    cols = ["run", "pass", "fail", "skip", "timeout", "wall"]
    head = ["suite"] + ["%s %s" % (p, c) for p in plats for c in cols] + ["spvi vs PoCL"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for s in suites:
        cells = [s]
        for p in plats:
            r = runs.get((p, s))
            if r is None:
                cells += ["-"] * len(cols)
                continue
            c = {st: sum(1 for x in r[0] if x[1] == st) for st in STATUSES}
            cells += [str(len(r[0])), str(c["PASS"]), str(c["FAIL"] + c["CRASH"]), str(c["SKIP"]),
                      str(c["TIMEOUT"]), "?" if r[1] is None else fmt_time(r[1])]
        cells.append(flag(runs.get(("spvi", s)), runs.get(("pocl", s))))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


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
    p.add_argument("--exclude", default="",
                   help="comma-separated SUITE:NAME sub-tests not to run (said on stderr)")
    p.add_argument("--wimpy", action="store_true", help="the CTS's reduced mode (-w)")
    p.add_argument("--timeout", type=int, default=600, help="seconds per sub-test")
    p.add_argument("--suite-timeout", default="", metavar="SUITE=SECS,...",
                   help="seconds per sub-test of these suites instead (test_c11_atomics runs "
                        "10^4 iterations of 1024 work-items in every one of its thousands of "
                        "configurations, whatever -w says)")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                   help="ninja jobs (default: the machine's cores)")
    p.add_argument("--run-jobs", type=int, default=1, help="sub-tests run at a time")
    p.add_argument("--pocl", action="store_true", help="also run on PoCL, when installed")
    p.add_argument("--platforms", default="",
                   help="comma-separated platforms to run on: spvi, pocl (default: spvi, and pocl "
                        "with --pocl)")
    p.add_argument("--resume", action="store_true",
                   help="keep the suites that the results.txt in --out already has, run the rest")
    p.add_argument("--no-build", action="store_true", help="use the built suites as they are")
    p.add_argument("--build-only", action="store_true", help="build the suites, run nothing")
    p.add_argument("--opt", default="-O3", help="the CTS's optimisation level (default: -O3, as "
                   "CMake's Release); a change configures the build directory again")
    p.add_argument("--table", nargs="+", metavar="RESULTS_TXT",
                   help="run nothing: print one comparison table of these runs' results.txt")
    a = p.parse_args(argv)
    if a.table:
        try:
            sys.stdout.write(compare_table(combine(a.table)))
        except (OSError, ValueError) as e:
            sys.exit("cts: --table: %s" % e)
        return 0
    a.started = time.time()
    a.exclude = set(t for t in a.exclude.split(",") if t)
    a.suite_timeout = parse_suite_timeouts(a.suite_timeout)
    # absolute: each sub-test runs from its suite's folder (make passes $(BUILD)/cts/build)
    a.build_dir = os.path.abspath(a.build_dir)
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
    if a.build_only:
        return 0
    os.makedirs(a.out, exist_ok=True)
    done = resumed(a) if a.resume else {}
    results = []
    # Suite by suite, each on every platform in turn, so that a suite's figures on spvi and PoCL
    # are taken under the same load; the results are written after each suite, so that a run
    # stopped half-way keeps what it measured and --resume goes on from there.
    for s in suites:
        for plat, lib in platforms:
            if (plat, s) in done:
                rows, wall = done[(plat, s)]
                results.append((plat, s, rows, wall))
                print("cts: %s %s: kept from the earlier run (--resume)" % (plat, s), flush=True)
                continue
            suite, rows, wall = run_suite(a, plat, lib, s, wanted.get(s), a.out)
            results.append((plat, suite, rows, wall))
            write_results(a, results, a.out, quiet=True)
    write_results(a, results, a.out)
    bad = sum(1 for _, _, rows, _ in results for r in rows if r[1] not in ("PASS", "SKIP"))
    # a suite that ran nothing (not built, no sub-test of that name) must not pass as "no failure"
    empty = ["%s %s" % (plat, suite) for plat, suite, rows, _ in results if not rows]
    if empty:
        print("cts: no sub-test ran: %s" % ", ".join(empty), file=sys.stderr)
    return 1 if bad or empty else 0


if __name__ == "__main__":
    sys.exit(main())
