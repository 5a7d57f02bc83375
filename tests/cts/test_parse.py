#!/usr/bin/env python3
"""Checks tools/cts.py's reading of the CTS's output on captured logs (logs/): each sub-test's
status from its log and exit status, and the sub-test names from `SUITE --list`. Fast: no CTS
build needed. Run by tests/run_all.sh (make check); exits 1 on the first mismatch."""

import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))
import cts  # noqa: E402

# (log file, sub-test name, exit status: None = killed by the timeout, <0 = signal, expected)
CASES = [
    ("pass.log", "arraycopy", 0, "PASS"),
    ("fail.log", "work_item_functions_out_of_range", 1, "FAIL"),
    # the harness prints "PASSED sub-test." after a skip too: the skip line decides
    ("not_supported.log", "consistency_missing_compiler", 0, "SKIP"),
    ("version_skip.log", "get_device_info_31", 0, "SKIP"),
    ("init_skip.log", "any_test", 0, "SKIP"),
    # another sub-test's skip line (a prefix or suffix of its name) does not skip this one
    ("not_supported.log", "consistency_missing", 0, "PASS"),
    ("not_supported.log", "missing_compiler", 0, "PASS"),
    # a nonzero exit is a failure whatever was printed; no exit is a timeout, a signal a crash
    ("pass.log", "arraycopy", 1, "FAIL"),
    ("pass.log", "arraycopy", None, "TIMEOUT"),
    ("pass.log", "arraycopy", -11, "CRASH"),
]


def read(name):
    with open(os.path.join(HERE, "logs", name)) as f:
        return f.read()


# --table on the hand-written runs in runs/: spvi's results.txt has "# wall" lines; PoCL's has none
# (written before them), so its wall times come from the results.md beside it. Hand-derived:
# test_basic: spvi 2 PASS, 1 TIMEOUT, 1 CRASH (counted as fail) in 1950 s = 32:30 against PoCL's 4
# passes in 1:05 (30x); test_api: 1 pass against 2, 64 s against 4 s (16x: not flagged).
TABLE = """\
| suite | spvi run | spvi pass | spvi fail | spvi skip | spvi timeout | spvi wall | \
pocl run | pocl pass | pocl fail | pocl skip | pocl timeout | pocl wall | spvi vs PoCL |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
| test_basic | 4 | 2 | 1 | 0 | 1 | 32:30 | 4 | 4 | 0 | 0 | 0 | 1:05 | 2 fewer passes; 30x slower |
| test_api | 3 | 1 | 1 | 1 | 0 | 1:04 | 3 | 2 | 0 | 1 | 0 | 4.0 s | 1 fewer passes |
| test_spirv_new | 1 | 1 | 0 | 0 | 0 | 10.0 s | - | - | - | - | - | - |  |
| test_half | - | - | - | - | - | - | 1 | 1 | 0 | 0 | 0 | 1.0 s |  |
"""


def run_path(*names):
    return os.path.join(HERE, "runs", *names)


def table_errors(paths):
    """--table's error message on these inputs, or None when it made a table."""
    try:
        cts.compare_table(cts.combine([run_path(*p) for p in paths]))
    except ValueError as e:
        return str(e)
    return None


def check_table():
    """Failures among the --table checks (printed)."""
    bad = []
    got = cts.compare_table(cts.combine([run_path("spvi", "results.txt"),
                                         run_path("pocl", "results.txt")]))
    if got != TABLE:
        bad.append("table:\n%sexpected:\n%s" % (got, TABLE))
    # a run without wall times anywhere: "?" and no slowness verdict, not a guess
    got = cts.compare_table(cts.combine([run_path("spvi", "results.txt"),
                                         run_path("nowall", "results.txt")]))
    row = [ln for ln in got.splitlines() if ln.startswith("| test_spirv_new")]
    if row != ["| test_spirv_new | 1 | 1 | 0 | 0 | 0 | 10.0 s | 1 | 1 | 0 | 0 | 0 | ? | "
               "wall time unknown |"]:
        bad.append("no wall time: %s" % row)
    # a suite PoCL skips whole took it no time: no slowness verdict; one it passes, the verdict
    spvi_rows, pocl_skips = ([("a", "PASS", 100.0)], 100.0), ([("a", "SKIP", 0.5)], 0.5)
    pocl_passes = ([("a", "PASS", 0.5)], 0.5)
    if cts.flag(spvi_rows, pocl_skips) != "" or cts.flag(spvi_rows, pocl_passes) != "200x slower":
        bad.append("flag: %r, %r" % (cts.flag(spvi_rows, pocl_skips), cts.flag(spvi_rows, pocl_passes)))
    # PoCL fails some sub-tests (quickly): only the sub-tests both pass compare, by their own times
    spvi2 = ([("a", "PASS", 100.0), ("b", "PASS", 900.0)], 1000.0)
    pocl_a, pocl_b = ([("a", "PASS", 0.5), ("b", "FAIL", 0.1)], 0.6), ([("a", "PASS", 50.0), ("b", "FAIL", 0.1)], 50.1)
    pocl_none = ([("a", "FAIL", 0.1), ("b", "FAIL", 0.1)], 0.2)
    got = (cts.flag(spvi2, pocl_a), cts.flag(spvi2, pocl_b), cts.flag(spvi2, pocl_none))
    if got != ("200x slower on the 1 sub-test both pass", "", ""):
        bad.append("flag, partial passes: %r" % (got,))
    # one platform's suite in two files, a malformed line: errors naming the files
    e = table_errors([("pocl", "results.txt"), ("pocl", "results.txt")])
    if not e or "pocl test_basic is in both" not in e:
        bad.append("duplicate: %s" % e)
    e = table_errors([("bad.txt",)])
    if not e or not e.startswith(run_path("bad.txt") + ":1: "):
        bad.append("malformed line: %s" % e)
    # results.txt as write_results writes it reads back with its wall times
    with tempfile.TemporaryDirectory() as d:
        a = argparse.Namespace(started=0, icd="x.so", timeout=60, run_jobs=2, wimpy=True,
                               suite_timeout={"test_c11_atomics": 7200})
        sys.stdout, out = open(os.devnull, "w"), sys.stdout
        try:
            cts.write_results(a, [("spvi", "test_api", [("a", "PASS", 1.0)], 75.0)], d)
        finally:
            sys.stdout.close()
            sys.stdout = out
        with open(os.path.join(d, "results.md")) as f:
            if "timeout 60 s per sub-test (test_c11_atomics: 7200 s)" not in f.read():
                bad.append("results.md does not state the suite's own timeout")
        back = cts.read_results(os.path.join(d, "results.txt"))
        if back != {("spvi", "test_api"): [[("a", "PASS", 1.0)], 75.0]}:
            bad.append("round trip: %s" % back)
        # --resume keeps the suites written so far and nothing else
        a.out = d
        kept = cts.resumed(a)
        if kept != {("spvi", "test_api"): ([("a", "PASS", 1.0)], 75.0)}:
            bad.append("resume: %s" % kept)
    with tempfile.TemporaryDirectory() as d:
        a.out = d
        if cts.resumed(a) != {}:
            bad.append("resume with no results.txt: %s" % cts.resumed(a))
    for b in bad:
        print("test_parse: --table " + b)
    return len(bad)


def main():
    bad = 0
    for log, name, rc, want in CASES:
        got = cts.parse_log(name, read(log), rc)
        if got != want:
            print("test_parse: %s %s rc=%s: %s, expected %s" % (log, name, rc, got, want))
            bad += 1
    names = cts.parse_list(read("list.txt"))
    if names[:2] != ["binary_create", "binary_get"] or len(names) != 6:
        print("test_parse: --list gave %s" % names)
        bad += 1
    if cts.expand_suites(["basic", "test_images"])[:2] != ["test_basic", "test_cl_copy_images"]:
        print("test_parse: expand_suites")
        bad += 1
    bad += check_table()
    # test_conversions' sub-test runs unnamed (a name would be read as a conversion to test)
    argv = (cts.sub_test_argv("test_conversions", "conversions"), cts.sub_test_argv("test_basic", "astype"))
    if argv != ([], ["astype"]):
        print("test_parse: sub_test_argv gave %s" % (argv,))
        bad += 1
    # --suite-timeout: short names expand like --suites; test_images stands for its executables
    got = cts.parse_suite_timeouts("c11_atomics=7200,test_images=1800")
    if got.get("test_c11_atomics") != 7200 or got.get("test_cl_copy_images") != 1800 or "test_basic" in got:
        print("test_parse: parse_suite_timeouts gave %s" % got)
        bad += 1
    for wrong in ("c11_atomics", "c11_atomics=", "c11_atomics=0", "c11_atomics=-5"):
        try:
            cts.parse_suite_timeouts(wrong)
            print("test_parse: --suite-timeout %r accepted" % wrong)
            bad += 1
        except SystemExit:
            pass
    n = len(CASES) + 2 + 7 + 1 + 1 + 4
    print("test_parse: %d of %d checks passed" % (n - bad, n))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
