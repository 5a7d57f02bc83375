#!/usr/bin/env python3
"""Compile every OpenCL C file of the corpora through spvi's source compiler (compile/clc_compile.c).

For every `.cl` file under the corpus root (default ../shared/corpus) this script

  1. picks the build options: piglit's `build_options:` (and `clc_version_min:`, else CL1.2),
     the `.options` file next to an OpenCL-CTS kernel dump, the `// DEFINITIONS:` line of a
     oneAPI Construction Kit (UnitCL) kernel; otherwise it tries no options (OpenCL C 1.2),
     then -cl-std=CL2.0, then -cl-std=CL3.0;
  2. compiles the file with the driver (`test_compile --compile FILE --options ... -o OUT.spv`,
     i.e. clc_compile: clang-14 with the device's extensions only, opt-14, llvm-spirv-14), with
     the first option set that gets past clang;
  3. when clang refuses every option set, asks plain clang-14 (`-x cl -target spir64
     -emit-llvm -c -O0 -Xclang -finclude-default-header`, all of clang's extensions on) whether
     it accepts the file: if so, the device's extension set is what refuses it;
  4. loads the SPIR-V with `spvi info`.

Outcomes, one per file:
  ok-optimised     the pipeline produced an optimised module and spvi loads it
  ok-unoptimised   built with -cl-opt-disable, or the optimised module was refused by
                   llvm-spirv and the fallback worked (a pipeline weakness to look at, not a
                   failure)
  ok-no-kernels    a library without kernels (spvi info needs one): spirv-val accepts it
  clang-rejects    plain clang-14 rejects the file with every option set tried
  device-rejects   plain clang accepts it but not with the device's extensions (clc_features.h):
                   the kernel uses something spvi does not advertise
  expected-fail    a negative test (piglit `expect_build_fail: true`) that fails to build
  invalid-options  the build options are invalid (CLC_INVALID_OPTIONS)
  unsupported      the pipeline refuses with a clear message: inline assembly, or a vendor
                   built-in that needs a SPIR-V extension spvi does not implement
  pipeline-fails   clang accepts, the pipeline fails after clang (or a negative test builds)
  load-fails       SPIR-V produced, `spvi info` refuses it (reason given: unsupported feature,
                   a library without kernels, an unresolved external function ...)

Usage (from the repository root, after building the driver):
  make build/cltests/test_compile
  python3 tests/opencl/compile_corpus.py --driver build/cltests/test_compile [--spvi build/spvi] [-j N]
         [--corpus DIR] [--filter SUBSTRING] [--report FILE.jsonl]

Prints a table per corpus, the non-ok files grouped by reason, and the totals. Exit status 0
when no file is `pipeline-fails`, 1 otherwise. Only the Python standard library is used.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

CLANG = os.environ.get("CLANG", "clang-14")


def find_files(root, substring):
    out = []
    for d, _, fs in os.walk(root):
        for f in fs:
            if f.endswith(".cl"):
                p = os.path.join(d, f)
                if not substring or substring in p:
                    out.append(p)
    return sorted(out)


def option_sets(path, root):
    """The option strings to try, in order."""
    rel = os.path.relpath(path, root)
    with open(path, errors="replace") as f:
        head = f.read(8000)
    if rel.startswith("piglit"):
        m = re.search(r"^\s*build_options:\s*(.*)$", head, re.M)
        bo = m.group(1).strip() if m else ""
        m = re.search(r"^\s*clc_version_min:\s*(\d+)", head, re.M)
        v = int(m.group(1)) if m else 10
        if "-cl-std" not in bo:
            bo = ("-cl-std=CL%d.%d " % divmod(v, 10) if v > 12 else "-cl-std=CL1.2 ") + bo
        return [bo.strip()]
    opt = path[:-3] + ".options"
    if os.path.exists(opt):
        with open(opt) as f:
            words = f.read().split()
        # the dumps repeat -cl-std=CL3.0 many times; keep one of each
        seen = []
        for w in words:
            if w not in seen:
                seen.append(w)
        return [" ".join(seen)]
    m = re.search(r"^//\s*DEFINITIONS:\s*(.*)$", head, re.M)
    if m:
        defs = " ".join(shlex.quote(d) for d in re.findall(r'"([^"]*)"', m.group(1)))
        return [defs, "-cl-std=CL2.0 " + defs, "-cl-std=CL3.0 " + defs]
    return ["", "-cl-std=CL2.0", "-cl-std=CL3.0"]


def plain_clang(path, options, tmp):
    """Does plain clang-14 accept the file? (returncode, first error line)"""
    words = shlex.split(options)
    if not any(w.startswith("-cl-std=") for w in words):
        words.insert(0, "-cl-std=CL1.2")
    # driver-level spellings of options that clc_compile understands but clang does not need
    words = [w for w in words if w not in ("-cl-kernel-arg-info",)]
    cmd = [CLANG, "-x", "cl", "-target", "spir64", "-emit-llvm", "-c", "-O0", "-Xclang",
           "-finclude-default-header", "-fno-crash-diagnostics", "-w"] + words + \
          [path, "-o", os.path.join(tmp, "plain.bc")]
    r = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                       cwd=os.path.dirname(path))
    return r.returncode, first_error(r.stderr)


def first_error(text):
    for line in text.splitlines():
        if "error:" in line:
            return re.sub(r"^\S*:\d+:\d+: ", "", line.strip())[:200]
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1][:200] if lines else ""


def driver_compile(args, path, options, spv):
    """clc_compile through the driver, in the file's directory so that #include "x.h" next to it
    works (clc_compile resolves -I relative to the working directory)."""
    return subprocess.run([args.driver, "--compile", path, "--options", options + " -I .",
                           "-o", spv], capture_output=True, text=True, errors="replace",
                          cwd=os.path.dirname(path))


def clang_stage_failed(log):
    """Did the driver fail in clang (diagnostics), rather than after it?"""
    return "spvi: error: clang-14 failed" in log or \
        re.search(r"^[^ :]+:\d+:\d+: (fatal )?error:", log, re.M) is not None


def expects_build_failure(path):
    """piglit's negative tests (`expect_build_fail: true`): failing to build is the right result."""
    with open(path, errors="replace") as f:
        return re.search(r"^\s*expect_build_fail:\s*true", f.read(4000), re.M) is not None


def one(args, path):
    res = one_file(args, path)
    if expects_build_failure(path):
        if res["outcome"] in ("clang-rejects", "device-rejects", "pipeline-fails",
                              "invalid-options"):
            res["outcome"] = "expected-fail"
        else:
            res["outcome"] = "pipeline-fails"
            res["reason"] = "a negative test (expect_build_fail) built"
    return res


def one_file(args, path):
    res = {"path": os.path.relpath(path, args.corpus)}
    with tempfile.TemporaryDirectory(prefix="spvi-corpus-") as tmp:
        spv = os.path.join(tmp, "out.spv")
        sets = option_sets(path, args.corpus)
        r = None
        for opts in sets:
            r = driver_compile(args, path, opts, spv)
            if r.returncode == 0 or not clang_stage_failed(r.stderr):
                res["options"] = opts
                break
        log = r.stderr
        if r.returncode != 0 and clang_stage_failed(log):
            # clang (with the device's extensions) refused every option set: does plain clang
            # (all of its extensions) accept one?
            for opts in sets:
                rc, _ = plain_clang(path, opts, tmp)
                if rc == 0:
                    res["outcome"] = "device-rejects"
                    res["options"] = opts
                    res["reason"] = first_error(driver_compile(args, path, opts, spv).stderr)
                    return res
            res["outcome"] = "clang-rejects"
            res["reason"] = first_error(log)
            return res
        if r.returncode == 2:
            res["outcome"] = "invalid-options"
            res["reason"] = first_error(log)
            return res
        if r.returncode != 0:
            lines = [l.strip() for l in log.splitlines() if l.strip() and
                     "cannot be translated to SPIR-V:" not in l and not l.endswith(":")]
            reason = lines[0] if lines else "?"
            if "inline assembly" in log or "RequiresExtension" in log:
                # a clear refusal: the program uses what spvi's SPIR-V cannot express
                res["outcome"] = "unsupported"
                if "RequiresExtension" in log:
                    reason = "needs SPIR-V extension " + log.split("extension:")[1].split()[0]
            else:
                res["outcome"] = "pipeline-fails"
            res["reason"] = reason[:200]
            return res
        m = re.search(r"opt_level: (\d+)", r.stdout)
        res["level"] = int(m.group(1)) if m else -1
        optimised = "optimized: 1" in r.stdout
        if not optimised and "-cl-opt-disable" in res["options"]:
            res["fallback"] = "-cl-opt-disable given"
        elif not optimised:
            m = re.search(r"not optimised:\n(.*)", log, re.S)
            lines = [l.strip() for l in (m.group(1) if m else log).splitlines()]
            lines = [l for l in lines if l and not l.endswith(":") and
                     not l.startswith("spvi: ")] or ["?"]
            res["fallback"] = re.sub(r"\s*\[Src: [^]]*\]", "", lines[0])[:200]
        r = subprocess.run([args.spvi, "info", spv], capture_output=True, text=True,
                           errors="replace")
        if r.returncode != 0 and "no OpenCL kernel" in r.stderr:
            # a library (no kernel): spvi info needs a kernel, so check it with spirv-val
            v = subprocess.run(["spirv-val", "--target-env", "opencl2.2", spv],
                               capture_output=True, text=True, errors="replace")
            if v.returncode == 0:
                res["outcome"] = "ok-no-kernels"
                return res
        if r.returncode != 0:
            res["outcome"] = "load-fails"
            msg = " ".join(l for l in r.stderr.splitlines() if "error" in l) or r.stderr
            res["reason"] = re.sub(r"\S*out\.spv: (word \d+: )?", "", msg.strip())[:200]
            return res
        res["outcome"] = "ok-optimised" if optimised else "ok-unoptimised"
        return res


def normalise(reason):
    """A reason with names and numbers blanked, for grouping."""
    r = re.sub(r"'[^']*'", "'X'", reason or "")
    r = re.sub(r"`[^`]*`", "`X`", r)
    r = re.sub(r"%[\w.]+", "%X", r)
    r = re.sub(r"\b\d+\b", "N", r)
    return r[:140]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--driver", default="/tmp/tc", help="test_compile binary (driver mode)")
    ap.add_argument("--spvi", default=os.path.join(repo, "build", "spvi"))
    ap.add_argument("--corpus", default=os.path.join(os.path.dirname(repo), "shared", "corpus"))
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--filter", default="", help="only paths containing this")
    ap.add_argument("--report", help="write one JSON line per file here")
    args = ap.parse_args()
    args.driver = os.path.abspath(args.driver)
    args.spvi = os.path.abspath(args.spvi)
    args.corpus = os.path.abspath(args.corpus)
    for p in (args.driver, args.spvi):
        if not os.access(p, os.X_OK):
            sys.exit("compile_corpus.py: %s is not executable" % p)
    files = find_files(args.corpus, args.filter)
    results = []
    report = open(args.report, "w") if args.report else None
    with concurrent.futures.ThreadPoolExecutor(args.j) as ex:
        for i, res in enumerate(ex.map(lambda p: one(args, p), files)):
            results.append(res)
            if report:
                report.write(json.dumps(res) + "\n")
                report.flush()
            if (i + 1) % 200 == 0:
                print("... %d/%d" % (i + 1, len(files)), file=sys.stderr)
    if report:
        report.close()

    outcomes = ["ok-optimised", "ok-unoptimised", "ok-no-kernels", "clang-rejects",
                "device-rejects",
                "expected-fail", "invalid-options", "unsupported", "pipeline-fails", "load-fails"]
    by_corpus = collections.OrderedDict()
    for r in results:
        c = r["path"].split(os.sep)[0]
        if c == "opencl-cts":
            c = os.sep.join(r["path"].split(os.sep)[:2])
        by_corpus.setdefault(c, collections.Counter())[r["outcome"]] += 1
    w = max([len(c) for c in by_corpus] + [6])
    print("%-*s %6s %8s %s" % (w, "corpus", "files", "clang-ok",
                               " ".join("%9s" % o[:9] for o in outcomes)))
    total = collections.Counter()
    for c, cnt in by_corpus.items():
        n = sum(cnt.values())
        total.update(cnt)
        print("%-*s %6d %8d %s" % (w, c, n, n - cnt["clang-rejects"] - cnt["expected-fail"],
                                   " ".join("%9d" % cnt[o] for o in outcomes)))
    n = sum(total.values())
    print("%-*s %6d %8d %s" % (w, "total", n, n - total["clang-rejects"] - total["expected-fail"],
                               " ".join("%9d" % total[o] for o in outcomes)))
    for o in outcomes[1:]:
        group = collections.defaultdict(list)
        for r in results:
            if r["outcome"] == o:
                group[normalise(r.get("reason") or r.get("fallback"))].append(r["path"])
        if not group:
            continue
        print("\n%s (%d):" % (o, sum(len(v) for v in group.values())))
        for reason, paths in sorted(group.items(), key=lambda kv: -len(kv[1])):
            print("  %4d  %s" % (len(paths), reason))
            print("        e.g. %s" % ", ".join(paths[:3]))
    accepted = n - total["clang-rejects"] - total["expected-fail"] - total["invalid-options"]
    loaded = total["ok-optimised"] + total["ok-unoptimised"] + total["ok-no-kernels"]
    print("\nclang accepts %d of %d files (not counting %d negative tests that fail as they "
          "should); the pipeline turns %d of them into SPIR-V that spvi loads or, for libraries "
          "without kernels, spirv-val accepts (%d optimised), "
          "%d are refused by the device's extension set, %d use unsupported features, %d fail "
          "in the pipeline, %d do not load." % (accepted, n, total["expected-fail"], loaded,
                                               total["ok-optimised"], total["device-rejects"],
                                               total["unsupported"], total["pipeline-fails"],
                                               total["load-fails"]))
    return 1 if total["pipeline-fails"] else 0


if __name__ == "__main__":
    sys.exit(main())
