#!/usr/bin/env python3
"""bench.py — runs spvi's benchmark suite and prints the results table (called by bench/run.sh,
which compiles the kernels and the helper programs first).

For every kernel listed by `bench_tool list`: spvi (`spvi run --stats --out`, median of several
runs, outputs checked by `bench_tool check` against the C reference), PoCL natively and Oclgrind
(both through `ocl_host`, which checks its outputs with the same reference), all pinned to one
core. Oclgrind runs a reduced NDRange (the first rows / items only); its time is scaled to the full
problem by the ratio of SPIR-V instructions spvi executes for the full and the reduced NDRange (by
the work-item ratio when spvi cannot run the kernel). Then the module-loading benchmark (load_s of
a generated >= 1 MiB SPIR-V module), the peak RSS of vadd_sin over 16M items (192 MiB of
buffers), each kernel under --check races/uninit/all, and the end-to-end section: a few kernels
through ocl_host as whole processes under `spvi exec`, on PoCL and under Oclgrind (wall-clock).
Writes the table in markdown to OUTDIR/results.md.

Exit status 1 when spvi faulted or produced a wrong output for any kernel (a fast wrong answer
fails the benchmark); kernels spvi rejects as unsupported are reported and do not fail it.
"""
import argparse
import math
import os
import platform
import re
import shutil
import subprocess
import sys
import time

STATS_RE = re.compile(r"load_s=(\S+) exec_s=(\S+) instructions=(\d+) instr_per_s=(\S+) peak_rss_mb=(\S+)")
UNSUPPORTED_RE = re.compile(r"not supported|not implemented|unsupported", re.I)
MIB = 1024.0 * 1024.0


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def run(cmd, env=None, timeout=3600):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=timeout,
                       universal_newlines=True)
    return p.returncode, p.stdout, p.stderr


def first_line(cmd):
    try:
        rc, out, err = run(cmd, timeout=60)
        text = (out or err).strip().splitlines()
        return text[0].strip() if text else "?"
    except (OSError, subprocess.SubprocessError):
        return "not installed"


class Ctx:
    pass


def pin(ctx):
    return ["taskset", "-c", "0"] if ctx.taskset else []


# spvi's peak_rss_mb is getrusage's ru_maxrss, which Linux carries across execve: a process started
# straight from this (much larger) Python process would report Python's RSS. A small sh forks spvi
# instead, so the child starts with a fresh maximum.
FRESH_RSS = ["sh", "-c", '"$@"; exit $?', "sh"]


def spvi_cmd(ctx, name, rows, outdir, extra=(), threads=1):
    indir = os.path.join(ctx.outdir, "in-" + name)  # generated inputs (CSR, graphs), as files
    os.makedirs(indir, exist_ok=True)
    rc, out, err = run([ctx.tool, "args", name, str(rows), indir])
    if rc != 0:
        raise RuntimeError("bench_tool args failed: " + err)
    cores = pin(ctx) if threads == 1 else (["taskset", "-c", "0-%d" % (threads - 1)] if ctx.taskset else [])
    cmd = cores + FRESH_RSS + [ctx.spvi, "run", os.path.join(ctx.cl_dir, name + ".cl")] + out.splitlines()
    cmd += (ctx.spvi_threads if threads == 1 else ["--threads", str(threads)]) + list(extra) + ["--stats", "--out", outdir]
    return cmd


def spvi_once(ctx, name, rows, extra=(), threads=1):
    """One checked spvi run: dict with status ok/unsupported/FAIL and the --stats figures. extra:
    more spvi options (--check ...); a run with --check that reports something is status
    "reports" (the bench kernels are race-free and initialise what they use)."""
    outdir = os.path.join(ctx.outdir, "out-" + name)
    shutil.rmtree(outdir, ignore_errors=True)
    rc, out, err = run(spvi_cmd(ctx, name, rows, outdir, extra, threads))
    lines = err.strip().splitlines()
    r = {"status": "ok", "msg": ""}
    if rc == 2 and UNSUPPORTED_RE.search(err):
        r.update(status="unsupported", msg=lines[0] if lines else "")
        return r
    m = STATS_RE.search(lines[-1]) if lines else None
    if rc == 1 and m and extra and "spvi: report:" in err:
        r.update(status="reports", msg=lines[0], exec_s=float(m.group(2)), rss_mb=float(m.group(5)))
        return r
    if rc != 0 or not m:
        r.update(status="FAIL", msg="spvi exit %d: %s" % (rc, " / ".join(lines[:3])))
        return r
    r.update(load_s=float(m.group(1)), exec_s=float(m.group(2)), instructions=int(m.group(3)),
             ips=float(m.group(4)), rss_mb=float(m.group(5)))
    crc, cout, cerr = run([ctx.tool, "check", name, str(rows), outdir])
    if crc != 0:
        r.update(status="FAIL", msg="wrong output: " + (cout.strip() or cerr.strip()))
    shutil.rmtree(outdir, ignore_errors=True)
    return r


def bench_spvi(ctx, k, threads=1):
    first = spvi_once(ctx, k["name"], k["rows"], threads=threads)
    if first["status"] != "ok":
        return first
    runs = [first]
    # median of ctx.runs runs; fewer for very slow cases
    n = ctx.runs if first["exec_s"] < 5 else (3 if first["exec_s"] < 20 else 1)
    while len(runs) < n:
        r = spvi_once(ctx, k["name"], k["rows"], threads=threads)
        if r["status"] != "ok":
            return r
        runs.append(r)
    return {"status": "ok", "msg": "", "runs": len(runs), "exec_s": median([r["exec_s"] for r in runs]),
            "load_s": median([r["load_s"] for r in runs]), "instructions": first["instructions"],
            "rss_mb": max(r["rss_mb"] for r in runs)}


def ocl(ctx, k, oclgrind):
    """PoCL (native) or Oclgrind (reduced NDRange) run of ocl_host: dict with status, seconds."""
    cl = os.path.join(ctx.cl_dir, k["name"] + ".cl")
    if oclgrind:
        cmd = pin(ctx) + ["oclgrind", "--num-threads", "1", ctx.ocl_host, "--runs", "1", "--warmup", "0",
                          k["name"], cl, str(k["reduced_rows"])]
        env = None
    else:
        cmd = pin(ctx) + [ctx.ocl_host, "--platform", ctx.pocl_platform, "--runs", str(ctx.runs), k["name"], cl]
        env = dict(os.environ, POCL_MAX_PTHREAD_COUNT="1")
    rc, out, err = run(cmd, env=env)
    m = re.search(r"ocl_s=(\S+)", out)
    if rc == 2 and "no OpenCL platform" in err:
        return {"status": "not installed", "msg": err.strip()}
    if rc != 0 or not m:
        why = (out.strip().splitlines()[1:2] or err.strip().splitlines()[:1] or ["exit %d" % rc])[0]
        return {"status": "WRONG" if rc == 1 else "error", "msg": why}
    d = re.search(r'device="([^"]*)"', out)
    if d and not oclgrind:
        ctx.pocl_device = d.group(1)
    return {"status": "ok", "seconds": float(m.group(1))}


# End to end: these kernels (spmv_csr short, bfs, sgemm_tiled long: chosen so that Oclgrind runs
# each full problem in a minute at most) run through ocl_host as a whole process on each platform:
# program build, buffer creation and transfers, one launch, reads, and the host's own input
# generation and output check (the same C code everywhere).
E2E_KERNELS = ("spmv_csr", "bfs", "sgemm_tiled")
E2E_RUNS = 3


def e2e_platforms(ctx, have_pocl, have_oclgrind):
    """(label, command prefix, environment, has a build cache) per platform: spvi's ICD through
    `spvi exec`, PoCL natively, Oclgrind's simulator; each process pinned to one core, one thread."""
    plats = [("spvi (`spvi exec`)", pin(ctx) + [ctx.spvi, "exec"] + ctx.spvi_threads + ["--"], None, True)]
    if have_pocl:
        plats.append(("PoCL", pin(ctx), dict(os.environ, POCL_MAX_PTHREAD_COUNT="1"), True))
    if have_oclgrind:
        plats.append(("Oclgrind", pin(ctx) + ["oclgrind", "--num-threads", "1"], None, False))
    return plats


# The platform name ocl_host must report under each label (it takes the first platform it sees:
# the only one under `spvi exec` and Oclgrind; PoCL's when nothing else is installed).
E2E_PLATFORM_NAME = {"spvi": "spvi", "PoCL": "Portable Computing Language", "Oclgrind": "Oclgrind"}


def e2e_once(ctx, prefix, env, name, want):
    """Wall-clock seconds of one ocl_host process (one launch, no warm-up launch) and its ocl_s;
    an error unless it ran on a platform whose name contains `want`."""
    cl = os.path.join(ctx.cl_dir, name + ".cl")
    t0 = time.perf_counter()
    rc, out, err = run(prefix + [ctx.ocl_host, "--runs", "1", "--warmup", "0", name, cl], env=env)
    wall = time.perf_counter() - t0
    m = re.search(r"ocl_s=(\S+)", out)
    if rc != 0 or not m:
        why = (out.strip().splitlines()[1:2] or err.strip().splitlines()[:1] or ["exit %d" % rc])[0]
        return {"status": "WRONG" if rc == 1 else "error", "msg": why}
    p = re.search(r'platform="([^"]*)"', out)
    if not p or want not in p.group(1):
        return {"status": "error", "msg": "ran on platform `%s`, not %s" % (p.group(1) if p else "?", want)}
    a = re.search(r"api_s=(\S+)", out)
    return {"status": "ok", "wall": wall, "kernel": float(m.group(1)), "api": float(a.group(1)) if a else None}


def end_to_end(ctx, have_pocl, have_oclgrind):
    """Per kernel and platform: one untimed process first where the platform caches its builds
    (it fills PoCL's kernel cache and spvi's compile cache, as an application's second start would
    find them), then the median wall-clock of E2E_RUNS processes."""
    rows = []
    names = [k for k in E2E_KERNELS if not ctx.only or k in ctx.only.split(",")]
    for name in names:
        row = {"name": name, "plats": []}
        print("bench: %-10s end to end:" % name, end="", flush=True)
        for label, prefix, env, cached in e2e_platforms(ctx, have_pocl, have_oclgrind):
            want = E2E_PLATFORM_NAME[label.split()[0]]
            runs = [e2e_once(ctx, prefix, env, name, want) for _ in range(E2E_RUNS + cached)][cached:]
            bad = [r for r in runs if r["status"] != "ok"]
            r = bad[0] if bad else {"status": "ok", "wall": median([x["wall"] for x in runs]),
                                    "kernel": median([x["kernel"] for x in runs]),
                                    "api": median([x["api"] or 0 for x in runs])}
            row["plats"].append((label, r))
            print(" %s %s" % (label.split()[0], ("%.3f s" % r["wall"]) if r["status"] == "ok" else r["status"]),
                  end="", flush=True)
        print(flush=True)
        rows.append(row)
    return rows


def e2e_section(rows):
    if not rows:
        return ""
    labels = [label for label, _ in rows[0]["plats"]]
    out = ["", "### End to end", "",
           "`bench/ocl_host` (an ordinary OpenCL host program) as a whole process per run: platform and device "
           "query, `clBuildProgram` from source, buffers created from host memory, one launch, outputs read "
           "back and checked, plus its own input generation and check (the same C code on every platform). "
           "Wall-clock seconds, median of %d processes, after one untimed process for spvi and PoCL (which fills "
           "PoCL's kernel cache and spvi's compile cache; Oclgrind has none). In parentheses, as the program "
           "measures them: its OpenCL part (from the platform query to the last read: build, buffers, transfers, "
           "launch) / the launch alone (enqueue + `clFinish`); the rest of the wall time is the program's own "
           "input generation and check and the process start. One core, as above; Oclgrind runs the full "
           "problem here." % E2E_RUNS, "",
           "| kernel | " + " | ".join(labels) + " | spvi/PoCL (wall) | Oclgrind/spvi (wall) |",
           "|---|" + "---:|" * (len(labels) + 2)]
    for row in rows:
        cells, wall = [], {}
        for label, r in row["plats"]:
            if r["status"] == "ok":
                cells.append("%s (%s / %s)" % (fmt_s(r["wall"]), fmt_s(r["api"]), fmt_s(r["kernel"])))
                wall[label.split()[0]] = r["wall"]
            else:
                cells.append("%s: %s" % (r["status"], r["msg"].replace("|", "/")))
        sp, po, og = wall.get("spvi"), wall.get("PoCL"), wall.get("Oclgrind")
        cells.append("%.1f" % (sp / po) if sp and po else "—")
        cells.append("%.1f" % (og / sp) if sp and og else "—")
        out.append("| %s | %s |" % (row["name"], " | ".join(cells)))
    return "\n".join(out) + "\n"


def fmt_s(x):
    if x is None:
        return "—"
    return "%.3g" % x if x < 100 else "%.0f" % x


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[0]
    except (OSError, IndexError):
        return "?"


def machine_info(ctx):
    info = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, val = line.partition(":")
                info.setdefault(key.strip(), val.strip())
    except OSError:
        pass
    cpu = info.get("model name", "?")
    extra = []
    if "cpu family" in info:
        extra.append("family %s model %s" % (info["cpu family"], info.get("model", "?")))
    if "cpu MHz" in info:
        extra.append("%.1f GHz" % (float(info["cpu MHz"]) / 1000))
    flags = info.get("flags", "").split()
    extra.append("AVX-512" if "avx512f" in flags else "AVX2" if "avx2" in flags else "no AVX2")
    if "hypervisor" in flags:
        extra.append("virtual machine")
    cpu += " (" + ", ".join(extra) + ")"
    commit = "?"
    try:
        repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        rc, out, err = run(["git", "-C", repo, "rev-parse", "--short", "HEAD"])
        if rc == 0:
            commit = out.strip()
            rc, out, err = run(["git", "-C", repo, "status", "--porcelain", "--untracked-files=no"])
            if rc == 0 and out.strip():
                commit += " + uncommitted changes"
    except OSError:
        pass
    mem = "?"
    try:
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
            mem = "%.0f GiB" % (kb / MIB)
    except (OSError, ValueError, IndexError):
        pass
    pocl = "?"
    rc, out, err = run(["dpkg-query", "-W", "-f=${Version}", "libpocl2"]) if shutil.which("dpkg-query") else (1, "", "")
    if rc == 0 and out:
        pocl = out
    return [
        ("CPU", "%s, %d cores online (%s)" % (cpu, os.cpu_count() or 0, platform.machine())),
        ("memory", mem),
        ("OS", "%s %s" % (platform.system(), platform.release())),
        ("C compiler (spvi, references)", first_line([ctx.cc, "--version"])),
        ("kernel compiler", first_line(["clang-14", "--version"]) + "; " + first_line(["llvm-spirv-14", "--version"])),
        ("PoCL", pocl + (" (device `%s`)" % ctx.pocl_device if ctx.pocl_device else "")),
        ("Oclgrind", first_line(["oclgrind", "--version"]) if shutil.which("oclgrind") else "not installed"),
        ("spvi", first_line([ctx.spvi, "--version"]) + ", commit " + commit),
        ("load average (1 min) before / after the run", ctx.loadavg),
    ]


def big_module(ctx, pinned=True):
    """load_s (median of ctx.runs) of the generated >= 1 MiB module, run trivially (one work-item); on
    one core when pinned, else on all (the validator then checks the module in parts on as many
    threads: loader/ld_valparts.c)."""
    if not ctx.big_spv or not os.path.exists(ctx.big_spv):
        return None
    size = os.path.getsize(ctx.big_spv)
    loads, warned = [], False
    for _ in range(ctx.runs):
        rc, out, err = run((pin(ctx) if pinned else []) + FRESH_RSS + [ctx.spvi, "run", ctx.big_spv, "-k", "k0", "-g", "1",
                                                                       "int[1]", "float[1]"]
                           + ctx.spvi_threads + ["--stats"])
        lines = err.strip().splitlines()
        m = STATS_RE.search(lines[-1]) if lines else None
        if rc != 0 or not m:
            return {"size": size, "error": " / ".join(lines[:2]) or "exit %d" % rc}
        loads.append(float(m.group(1)))
        warned = warned or any("warning" in l for l in lines[:-1])
    return {"size": size, "load_s": median(loads), "valid": not warned}


def memory_at_scale(ctx, items=1 << 24):
    """Peak RSS of one spvi run of vadd_sin over `items` work-items (three float buffers of 4*items
    bytes, 192 MiB by default): the suite's own buffers are too small to test the memory target."""
    spv = os.path.join(ctx.cl_dir, "vadd_sin.cl")
    if not os.path.exists(spv):
        return None
    cmd = pin(ctx) + FRESH_RSS + [ctx.spvi, "run", spv, "-g", str(items), "-l", "256",
                                  "float[%d]=random(1,-1,1)" % items, "float[%d]=random(2,-10,10)" % items,
                                  "float[%d]" % items] + ctx.spvi_threads + ["--stats"]
    rc, out, err = run(cmd)
    lines = err.strip().splitlines()
    m = STATS_RE.search(lines[-1]) if lines else None
    if rc != 0 or not m:
        return {"error": " / ".join(lines[:2]) or "exit %d" % rc}
    return {"items": items, "buffers_mb": 3 * 4 * items / MIB, "rss_mb": float(m.group(5))}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spvi", required=True)
    ap.add_argument("--tool", required=True, help="bench_tool")
    ap.add_argument("--ocl-host", default="", help="ocl_host (empty: no OpenCL comparison)")
    ap.add_argument("--cl-dir", required=True)
    ap.add_argument("--big-spv", default="")
    ap.add_argument("--outdir", required=True)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", default="", help="comma-separated kernel names")
    ap.add_argument("--no-pocl", action="store_true")
    ap.add_argument("--no-oclgrind", action="store_true")
    ap.add_argument("--no-checks", action="store_true", help="skip the --check overhead runs")
    ap.add_argument("--no-e2e", action="store_true", help="skip the end-to-end runs of ocl_host")
    ap.add_argument("--no-threads", action="store_true", help="skip the --threads 2 runs")
    ctx = ap.parse_args(namespace=Ctx())
    ctx.runs = max(1, ctx.runs)
    os.makedirs(ctx.outdir, exist_ok=True)
    # spvi compiles each kernel's .cl itself, as `spvi run k.cl` and clBuildProgram do (docs/compile.md),
    # once: the build cache of the bench's own directory serves the other runs
    os.environ["SPVI_CACHE_DIR"] = os.path.join(os.path.abspath(ctx.outdir), "spvi-cache")
    ctx.taskset = shutil.which("taskset") is not None
    rc, out, err = run([ctx.spvi, "run", "--help"])
    ctx.spvi_threads = ["--threads", "1"] if "--threads" in out else []
    ctx.pocl_platform = "Portable Computing Language"
    ctx.pocl_device = ""
    have_pocl = bool(ctx.ocl_host) and not ctx.no_pocl
    have_oclgrind = bool(ctx.ocl_host) and not ctx.no_oclgrind and shutil.which("oclgrind") is not None

    rc, out, err = run([ctx.tool, "list"])
    if rc != 0:
        sys.exit("bench: bench_tool list failed: " + err)
    kernels = []
    for line in out.strip().splitlines():
        name, dims, glob, loc, red, nbytes, what = line.split("\t")
        if ctx.only and name not in ctx.only.split(","):
            continue
        g = [int(v) for v in glob.split(",")]
        kernels.append({"name": name, "dims": int(dims), "global": g, "local": loc, "rows": g[int(dims) - 1],
                        "reduced_rows": int(red), "bytes": int(nbytes), "what": what})

    ctx.loadavg = loadavg()
    results = []
    failed = False
    for k in kernels:
        print("bench: %-10s spvi ..." % k["name"], end="", flush=True)
        s = bench_spvi(ctx, k)
        print(" %s" % (("%.4f s" % s["exec_s"]) if s["status"] == "ok" else s["status"]), end="", flush=True)
        if s["status"] == "FAIL":
            failed = True
        p = g = None
        if have_pocl:
            print(", PoCL ...", end="", flush=True)
            p = ocl(ctx, k, oclgrind=False)
            print(" %s" % (("%.4f s" % p["seconds"]) if p["status"] == "ok" else p["status"]), end="", flush=True)
        if have_oclgrind:
            print(", Oclgrind (reduced) ...", end="", flush=True)
            g = ocl(ctx, k, oclgrind=True)
            if g["status"] == "ok":
                full_items = k["rows"]
                scale, how = full_items / k["reduced_rows"], "work-items"
                if s["status"] == "ok":
                    r = spvi_once(ctx, k["name"], k["reduced_rows"])
                    if r["status"] == "ok" and r["instructions"] > 0:
                        scale, how = s["instructions"] / r["instructions"], "instructions"
                    elif r["status"] == "FAIL":
                        failed = True
                        s = r
                g.update(scaled=g["seconds"] * scale, scale=scale, how=how)
                print(" %.4f s x %.1f" % (g["seconds"], scale), end="", flush=True)
            else:
                print(" %s" % g["status"], end="", flush=True)
        print(flush=True)
        results.append((k, s, p, g))

    checks = checks_overhead(ctx, results) if not ctx.no_checks else None
    scaling = threads_scaling(ctx, results) if ctx.spvi_threads and not ctx.no_threads else None
    e2e = end_to_end(ctx, have_pocl, have_oclgrind) if ctx.ocl_host and not ctx.no_e2e else []
    big = big_module(ctx)
    if big and "error" not in big:
        allcores = big_module(ctx, pinned=False)
        if allcores and "error" not in allcores:
            big["load_all_s"] = allcores["load_s"]
    memscale = memory_at_scale(ctx) if not ctx.only or "vadd_sin" in ctx.only.split(",") else None
    after = loadavg()
    busy = max(float(x) for x in (ctx.loadavg, after) if x != "?") if after != "?" else 0
    ctx.loadavg += " / " + after + (" (other processes were running: timings are disturbed)" if busy > 1.5 else "")
    report = make_report(ctx, results, big, memscale, have_pocl, have_oclgrind, checks, scaling)
    if checks:
        report += checks_section(ctx, checks)
    if scaling:
        report += threads_section(scaling)
    report += e2e_section(e2e)
    path = os.path.join(ctx.outdir, "results.md")
    with open(path, "w") as f:
        f.write(report)
    print()
    print(report)
    print("bench: table written to %s" % path)
    if failed:
        print("bench: FAILED — spvi produced a wrong result or faulted (see the table)")
    return 1 if failed else 0


CHECKS = ("races", "uninit", "all")


def checks_overhead(ctx, results):
    """Each kernel once with --check races, uninit, all: exec_s, its ratio to the unchecked median
    exec_s, and peak RSS (the outputs are checked as for the unchecked runs)."""
    rows = []
    for k, s, _, _ in results:
        if s["status"] != "ok":
            continue
        row = {"name": k["name"], "base": s["exec_s"], "base_rss": s["rss_mb"]}
        print("bench: %-10s checks:" % k["name"], end="", flush=True)
        for c in CHECKS:
            r = spvi_once(ctx, k["name"], k["rows"], ["--check", c])
            row[c] = r
            print(" %s %s" % (c, ("%.2fx" % (r["exec_s"] / s["exec_s"])) if "exec_s" in r else r["status"]),
                  end="", flush=True)
        print(flush=True)
        rows.append(row)
    return rows


def groups(k):
    """The number of work-groups of kernel k's NDRange."""
    n = 1
    for g, l in zip(k["global"][:k["dims"]], k["local"].split(",")[:k["dims"]]):
        n *= -(-g // int(l))
    return n


def threads_scaling(ctx, results, threads=2):
    """Kernels with at least 64 work-groups again with --threads N on cores 0..N-1 (median of
    ctx.runs): the speed-up over the single-thread median. Issue #18's goal: >= 1.85x with 2."""
    rows = []
    for k, s, _, _ in results:
        if s["status"] != "ok" or groups(k) < 64:
            continue
        print("bench: %-10s --threads %d ..." % (k["name"], threads), end="", flush=True)
        r = bench_spvi(ctx, k, threads=threads)
        print(" %s" % (("%.4f s" % r["exec_s"]) if r["status"] == "ok" else r["status"]), flush=True)
        rows.append((k, s, r))
    return rows


def threads_section(rows, threads=2):
    out = ["", "### Threads", "",
           "`spvi run --threads %d` on cores 0-%d against `--threads 1` on core 0 (medians), for the kernels with at "
           "least 64 work-groups. Goal: >= 1.85x." % (threads, threads - 1), "",
           "| kernel | work-groups | 1 thread s | %d threads s | speed-up |" % threads, "|---|---:|---:|---:|---:|"]
    for k, s, r in rows:
        cell = "%.2fx" % (s["exec_s"] / r["exec_s"]) if r["status"] == "ok" else r["status"]
        out.append("| %s | %d | %s | %s | %s |" % (k["name"], groups(k), fmt_s(s["exec_s"]),
                                                  fmt_s(r["exec_s"]) if r["status"] == "ok" else "—", cell))
    return "\n".join(out) + "\n"


def checks_section(ctx, rows):
    out = ["", "### Checks overhead", "",
           "`spvi run --check races|uninit|all` (one run each, same inputs and single-core setup), exec time "
           "relative to the unchecked median; peak RSS in MB. Goal (issue #18): `all` at most 2x in geometric mean, 3x on every kernel.", "",
           "| kernel | unchecked s (RSS) | races | uninit | all |", "|---|---:|---:|---:|---:|"]
    for row in rows:
        cells = []
        for c in CHECKS:
            r = row[c]
            if "exec_s" not in r:
                cells.append(r["status"])
                continue
            note = "" if r["status"] == "ok" else " (%s)" % r["status"]
            cells.append("%.2fx (%.1f)%s" % (r["exec_s"] / row["base"], r["rss_mb"], note))
        out.append("| %s | %s (%.1f) | %s |" % (row["name"], fmt_s(row["base"]), row["base_rss"], " | ".join(cells)))
    ratios = [row["all"]["exec_s"] / row["base"] for row in rows if "exec_s" in row["all"]]
    if ratios:
        gm = 1.0
        for x in ratios:
            gm *= x
        gm **= 1.0 / len(ratios)
        out += ["", "**`--check all`: geometric mean %.2fx, worst %.2fx** (goal: <= 2x geometric mean, <= 3x each)." % (gm, max(ratios))]
    return "\n".join(out) + "\n"


def make_report(ctx, results, big, memscale, have_pocl, have_oclgrind, check_rows=None, scaling=None):
    out = []
    w = out.append
    w("# spvi benchmark results\n")
    w("| machine | |")
    w("|---|---|")
    for key, val in machine_info(ctx):
        w("| %s | %s |" % (key, val.replace("|", "/")))
    w("")
    single = []
    if ctx.taskset:
        single.append("every process pinned to CPU 0 with `taskset -c 0`")
    if ctx.spvi_threads:
        single.append("spvi `--threads 1`")
    if have_pocl:
        single.append("PoCL `POCL_MAX_PTHREAD_COUNT=1`")
    if have_oclgrind:
        single.append("Oclgrind `--num-threads 1`")
    w("Single core: %s. Times are kernel execution only: spvi `exec_s` from `--stats`%s; median of %d run%s "
      "unless noted.\n" % (", ".join(single), ", PoCL and Oclgrind enqueue + `clFinish` of the NDRange (after one "
                            "warm-up launch for PoCL)" if have_pocl or have_oclgrind else "",
                            ctx.runs, "s" if ctx.runs > 1 else ""))
    w("| kernel | spvi exec s | instr/s | peak RSS MB (buffers MB) | PoCL s | Oclgrind s | spvi/PoCL | "
      "Oclgrind/spvi | check |")
    w("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    ratios = []
    named = []  # (kernel, spvi/PoCL)
    notes = []
    for k, s, p, g in results:
        bufmb = k["bytes"] / MIB
        if s["status"] == "ok":
            cols = [fmt_s(s["exec_s"]) + ("" if s["runs"] == ctx.runs else " (%d runs)" % s["runs"]),
                    "%.3g" % (s["instructions"] / s["exec_s"]) if s["exec_s"] > 0 else "—",
                    "%.1f (%.1f)" % (s["rss_mb"], bufmb)]
        else:
            cols = ["unsupported by spvi" if s["status"] == "unsupported" else "**FAIL**", "—", "— (%.1f)" % bufmb]
            notes.append("%s: spvi %s — %s" % (k["name"], "unsupported" if s["status"] == "unsupported"
                                              else "FAILED", s["msg"]))
        ps = p["seconds"] if p and p["status"] == "ok" else None
        gs = g["scaled"] if g and g["status"] == "ok" else None
        cols.append(fmt_s(ps) if p is None or ps is not None else p["status"])
        cols.append(("%s*" % fmt_s(gs)) if gs is not None else ("—" if g is None else g["status"]))
        if p and p["status"] != "ok":
            notes.append("%s: PoCL %s — %s" % (k["name"], p["status"], p["msg"]))
        if g and g["status"] != "ok":
            notes.append("%s: Oclgrind %s — %s" % (k["name"], g["status"], g["msg"]))
        sx = s.get("exec_s") if s["status"] == "ok" else None
        if sx and ps:
            ratios.append(sx / ps)
            named.append((k["name"], sx / ps))
            cols.append("%.1f" % (sx / ps))
        else:
            cols.append("—")
        cols.append("%.1f" % (gs / sx) if sx and gs else "—")
        checks = ["spvi " + ("ok" if s["status"] == "ok" else s["status"])]
        if p:
            checks.append("PoCL " + p["status"])
        if g:
            checks.append("Oclgrind " + g["status"])
        cols.append(", ".join(checks))
        w("| %s | %s |" % (k["name"], " | ".join(cols)))
    w("")
    if ratios:
        gm = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        w("**Geometric mean spvi/PoCL: %.1fx** (over %d kernels that both ran).\n" % (gm, len(ratios)))
    else:
        gm = None
    w("Kernels:\n")
    for k, s, p, g in results:
        w("- `%s`: %s; global %s, local %s." % (k["name"], k["what"], ",".join(str(v) for v in k["global"][:k["dims"]]),
                                              k["local"] if k["dims"] == 2 else k["local"].split(",")[0]))
    w("")
    if have_oclgrind:
        w("\\* Oclgrind (one run, no warm-up) executes a reduced NDRange — the first work-items / rows only, "
          "checked against the same reference — and its time is scaled to the full problem:\n")
        for k, s, p, g in results:
            if g and g["status"] == "ok":
                w("- `%s`: %d of %d along the last dimension, %.3f s measured, x%.2f (ratio of %s, full/reduced)." %
                  (k["name"], k["reduced_rows"], k["rows"], g["seconds"], g["scale"],
                   "SPIR-V instructions spvi executes" if g["how"] == "instructions" else "work-items"))
        w("")
    if notes:
        w("Notes:\n")
        for n in notes:
            w("- " + n.replace("|", "/"))
        w("")

    w("## Targets (issue #18)\n")
    w("| target | result | |")
    w("|---|---|---|")
    met = lambda ok: "met" if ok else "**missed**"  # noqa: E731
    if gm is not None:
        worst = max(named, key=lambda t: t[1])
        w("| geometric mean <= 2.5x PoCL's time | %.1fx over %d kernels | %s |" % (gm, len(named), met(gm <= 2.5)))
        w("| no kernel worse than 8x PoCL | worst %.1fx (%s) | %s |" % (worst[1], worst[0], met(worst[1] <= 8)))
    if have_oclgrind:
        sp = [(k["name"], g["scaled"] / s["exec_s"]) for k, s, p, g in results
              if s["status"] == "ok" and g and g["status"] == "ok"]
        if sp:
            worst = min(sp, key=lambda t: t[1])
            allk = len(sp) == len(results)
            w("| every kernel >= 150x faster than Oclgrind | min %.1fx (%s); %d of %d kernels >= 150x%s | %s |" %
              (worst[1], worst[0], sum(1 for _, x in sp if x >= 150), len(sp),
               "" if allk else " (of those both ran)", met(worst[1] >= 150 and allk)))
    if scaling:
        sc = [(k["name"], s["exec_s"] / r["exec_s"]) for k, s, r in scaling if r["status"] == "ok"]
        if sc:
            worst = min(sc, key=lambda t: t[1])
            w("| `--threads 2` >= 1.85x (kernels with >= 64 work-groups) | min %.2fx (%s) over %d kernels | %s |" %
              (worst[1], worst[0], len(sc), met(worst[1] >= 1.85 and len(sc) == len(scaling))))
    if check_rows:
        cr = [(row["name"], row["all"]["exec_s"] / row["base"]) for row in check_rows if "exec_s" in row["all"]]
        if cr:
            cg = math.exp(sum(math.log(x) for _, x in cr) / len(cr))
            worst = max(cr, key=lambda t: t[1])
            w("| `--check all` <= 2x (geometric mean), <= 3x every kernel | %.2fx; worst %.2fx (%s) | %s |" %
              (cg, worst[1], worst[0], met(cg <= 2 and worst[1] <= 3 and len(cr) == len(check_rows))))
    mem = [(k["name"], s["rss_mb"] - k["bytes"] / MIB) for k, s, p, g in results if s["status"] == "ok"]
    if mem:
        worst = max(mem, key=lambda t: t[1])
        w("| peak RSS <= buffers + 32 MB (suite) | worst: buffers + %.1f MB (%s) | %s |" %
          (worst[1], worst[0], "met" if worst[1] <= 32 else "**missed**"))
    if memscale:
        if "error" in memscale:
            w("| peak RSS <= buffers + 32 MB (vadd_sin, 16M items) | %s | **missed** |"
              % memscale["error"].replace("|", "/"))
        else:
            extra = memscale["rss_mb"] - memscale["buffers_mb"]
            w("| peak RSS <= buffers + 32 MB (vadd_sin, %dM items) | %.1f MB for %.0f MB of buffers: buffers + %.1f MB "
              "(%.2fx the buffers) | %s |" % (memscale["items"] >> 20, memscale["rss_mb"], memscale["buffers_mb"], extra,
                                              memscale["rss_mb"] / memscale["buffers_mb"],
                                              "met" if extra <= 32 else "**missed**"))
    if big:
        if "error" in big:
            w("| load a 1 MiB module in <= 50 ms | %s | **missed** |" % big["error"].replace("|", "/"))
        else:
            w("| load a 1 MiB module in <= 50 ms | %.1f ms for %.2f MiB (%.1f ms/MiB) on one core%s | %s |" %
              (big["load_s"] * 1e3, big["size"] / MIB, big["load_s"] * 1e3 / (big["size"] / MIB),
               "; %.1f ms on %d cores" % (big["load_all_s"] * 1e3, os.cpu_count() or 1) if "load_all_s" in big else "",
               "met" if min(big["load_s"], big.get("load_all_s", 1)) <= 0.05 else "**missed**"))
    w("")
    if big and "error" not in big:
        w("Module loading: `spvi run` with `--stats` on a generated module (`bench/gen_big_module.py`: 320 kernels "
          "with loops, switches and arithmetic, clang-14 -O0) of %d bytes, one work-item of `k0`; `load_s` covers "
          "parsing, SPIRV-Tools validation (%s), IR building and preparing every function (median of %d runs).\n"
          % (big["size"], "the module passes it" if big["valid"] else "spvi printed validation warnings",
             ctx.runs))
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main())
