#!/usr/bin/env python3
"""Checks tools/cts.py's reading of the CTS's output on captured logs (logs/): each sub-test's
status from its log and exit status, and the sub-test names from `SUITE --list`. Fast: no CTS
build needed. Run by tests/run_all.sh (make check); exits 1 on the first mismatch."""

import os
import sys

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
    # test_conversions' sub-test runs unnamed (a name would be read as a conversion to test)
    argv = (cts.sub_test_argv("test_conversions", "conversions"), cts.sub_test_argv("test_basic", "astype"))
    if argv != ([], ["astype"]):
        print("test_parse: sub_test_argv gave %s" % (argv,))
        bad += 1
    print("test_parse: %d of %d checks passed" % (len(CASES) + 3 - bad, len(CASES) + 3))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
