#!/usr/bin/env python3
"""Piglit OpenCL conformance runner for spvi (`make conformance`).

For every piglit test file under the corpus' execute/ and generated/ directories (`*.cl` files
with a `/*! ... !*/` header, and `*.program_test` files naming a program_source_file), this script

  1. parses the [config] section and every [test] section: kernel_name, dimensions,
     global_size, local_size, global_offset, arg_in/arg_out (scalars `I TYPE V...`, buffers
     `I buffer TYPE[N] V...|repeat V...|NULL [tolerance T [ulp]]`, images/samplers);
  2. compiles the program with clang-14 (-x cl -target spir64 -emit-llvm -O2, the default
     OpenCL C header, -cl-std from build_options or else CL1.2 -- the OpenCL 1.x default --
     raised to clc_version_min, plus the file's build options) and llvm-spirv-14; the SPIR-V is
     cached in BUILD/cache under a hash of the tool versions, the options and the source. When
     llvm-spirv rejects the -O2 module (llvm.vector.reduce.* from the vectorizers) the program
     is compiled once more with -fno-vectorize -fno-slp-vectorize;
  3. asks `spvi info` for the kernel parameters: a `__local` pointer gets `local:BYTES`, a
     global/constant pointer a buffer read from a raw file (BUILD/inputs, content-addressed), a
     by-value parameter an exact literal (`float:0x1.8p+0`, `int4:1,2,3,4`);
  4. runs `spvi run MODULE -k KERNEL -g ... -l ... --out DIR` once per [test] section and
     compares every arg_out buffer with the expected values. When this spvi has the options
     (probed with `spvi run --help`), every run gets `--threads 1` (the runner runs `-j` spvi
     processes at once) and programs built with -cl-denorms-are-zero get `--flush-denormals`
     (the option allows flushing; the tests expect a device that does).

Piglit semantics kept here: without global_size the global size is 1; without local_size the
work-group size is 1 in every dimension (`local_size: NULL` lets spvi choose); 3-element vectors
take 3 values per element and occupy 4 slots in memory; `repeat V...` cycles the values over the
buffer; `NULL` is a buffer without contents (for a __local parameter: its size in local memory);
a buffer that is both arg_in and arg_out starts with the arg_in values.

Comparison: integers exactly, or within `tolerance T` (absolute); floats (half, float, double)
exactly on the bit pattern (except that +0 and -0 are equal, as in piglit), within `tolerance N
ulp` (distance between the IEEE bit patterns, counted across zero), or within `tolerance T`
(absolute). An expected NaN needs a NaN (any payload), an expected infinity the same infinity. A
tolerance of 2^p ulp or more (p = 11, 24, 53: the precision of half, float, double) accepts any
value, as piglit documents.

Skips, each with its reason: images/samplers, tests restricted to another device (device_regex),
OpenCL C versions beyond 3.0, work-group sizes beyond spvi's 4096 work-items, and programs that
llvm-spirv rejects.

expected-failures.txt: one entry per line, `PATH :: SECTION :: REASON`, PATH relative to the
corpus root, SECTION the [test] section's name or `*` for every section of the file; `#` starts a
comment line. The run fails when a failure is not listed, a listed section passes, or an entry
matches no run section. `--update-expected` rewrites the file from the current results, keeping
the reasons of the entries that still fail.

Output: a pass/fail/known/skip table per directory, the known failures grouped by reason, each
unexpected failure with its one-line reason and the spvi command that reproduces it, the share
of the sections whose kernels compile that pass, and last the line `N passed, N failed,
N skipped` (failed = unexpected failures). BUILD/results.txt lists every section.

Only the Python standard library is used (no numpy): .npy files are read by hand.
Exit status: 0 when the failures are exactly the expected ones, 1 otherwise, 2 on usage errors.
"""

import argparse
import concurrent.futures
import fractions
import hashlib
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import threading
import time

CLANG = os.environ.get("CLANG", "clang-14")
LLVM_SPIRV = os.environ.get("LLVM_SPIRV", "llvm-spirv-14")
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
MAX_GROUP_ITEMS = 4096          # spvi's limit on work-items per work-group (docs/semantics.md)
MAX_CL_VERSION = 30             # OpenCL C 3.0


class ParseError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# Scalar types and value encoding
# ---------------------------------------------------------------------------------------------

# name -> (kind, bytes); kind: 'i' signed, 'u' unsigned, 'f' float
SCALARS = {
    "char": ("i", 1), "uchar": ("u", 1), "short": ("i", 2), "ushort": ("u", 2),
    "int": ("i", 4), "uint": ("u", 4), "long": ("i", 8), "ulong": ("u", 8),
    "half": ("f", 2), "float": ("f", 4), "double": ("f", 8),
}
TYPE_RE = re.compile(r"^(u?char|u?short|u?int|u?long|half|float|double)(2|3|4|8|16)?$")
# binary formats: bytes -> (precision incl. hidden bit, exponent bits)
FLOAT_FORMATS = {2: (11, 5), 4: (24, 8), 8: (53, 11)}


class CLType:
    """A piglit element type: a scalar or vector of a scalar (3-vectors occupy 4 slots)."""

    def __init__(self, text):
        m = TYPE_RE.match(text)
        if not m:
            raise ParseError("unknown type `%s`" % text)
        self.name = text
        self.scalar = m.group(1)
        self.width = int(m.group(2) or 1)
        self.kind, self.size = SCALARS[self.scalar]
        self.slots = 4 if self.width == 3 else self.width
        self.elem_bytes = self.slots * self.size


def round_to_float(q, size):
    """Exact rational q (Fraction) -> IEEE bit pattern of the given byte size, nearest-even."""
    prec, ebits = FLOAT_FORMATS[size]
    bias = (1 << (ebits - 1)) - 1
    emin, emax = 1 - bias, bias
    sign = 0
    if q < 0:
        sign, q = 1, -q
    sbit = sign << (size * 8 - 1)
    if q == 0:
        return sbit
    # e = floor(log2(q))
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if fractions.Fraction(2) ** e > q:
        e -= 1
    e = max(e, emin)
    scaled = q / (fractions.Fraction(2) ** (e - prec + 1))
    m = scaled.numerator // scaled.denominator
    rem = scaled - m
    if rem > fractions.Fraction(1, 2) or (rem == fractions.Fraction(1, 2) and m & 1):
        m += 1
    if m == 1 << prec:
        m >>= 1
        e += 1
    if e > emax:
        return sbit | (((1 << ebits) - 1) << (prec - 1))          # infinity
    if m < 1 << (prec - 1):                                        # subnormal
        return sbit | m
    return sbit | ((e + bias) << (prec - 1)) | (m - (1 << (prec - 1)))


def float_nan(size, negative):
    prec, ebits = FLOAT_FORMATS[size]
    bits = (((1 << ebits) - 1) << (prec - 1)) | (1 << (prec - 2))
    return bits | (1 << (size * 8 - 1)) if negative else bits


def float_inf(size, negative):
    prec, ebits = FLOAT_FORMATS[size]
    bits = ((1 << ebits) - 1) << (prec - 1)
    return bits | (1 << (size * 8 - 1)) if negative else bits


HEX_INT_RE = re.compile(r"^[-+]?0[xX][0-9a-fA-F]+$")
DEC_INT_RE = re.compile(r"^[-+]?[0-9]+$")
HEX_FLOAT_RE = re.compile(r"^[-+]?0[xX]([0-9a-fA-F]*\.?[0-9a-fA-F]*)(p[-+]?[0-9]+)?$")


def encode_value(tok, t):
    """A piglit value token -> the bit pattern (unsigned int) of one component of type t."""
    low = tok.lower()
    if t.kind == "f":
        if low in ("nan", "+nan", "-nan"):
            return float_nan(t.size, low.startswith("-"))
        if low in ("inf", "+inf", "-inf", "infinity", "-infinity"):
            return float_inf(t.size, low.startswith("-"))
        try:
            if HEX_FLOAT_RE.match(tok):
                q = fractions.Fraction(float.fromhex(tok))
            else:
                q = fractions.Fraction(tok)
        except (ValueError, ZeroDivisionError):
            raise ParseError("bad %s value `%s`" % (t.scalar, tok))
        bits = round_to_float(q, t.size)
        if q == 0 and tok.lstrip().startswith("-"):
            bits |= 1 << (8 * t.size - 1)              # -0.0
        return bits
    if HEX_INT_RE.match(tok):
        v = int(tok, 16)
    elif DEC_INT_RE.match(tok):
        v = int(tok, 10)
    else:
        raise ParseError("bad %s value `%s`" % (t.scalar, tok))
    return v & ((1 << (8 * t.size)) - 1)


def bits_to_float(bits, size):
    if size == 2:
        return struct.unpack("<e", struct.pack("<H", bits))[0]
    if size == 4:
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def bits_to_int(bits, t):
    if t.kind == "i" and bits >> (8 * t.size - 1):
        return bits - (1 << (8 * t.size))
    return bits


def show(bits, t):
    """Human-readable component value, with the bit pattern for floats."""
    if t.kind == "f":
        f = bits_to_float(bits, t.size)
        digits = {2: 5, 4: 9, 8: 17}[t.size]
        return "%.*g (0x%0*x)" % (digits, f, t.size * 2, bits)
    return str(bits_to_int(bits, t))


def literal(bits, t):
    """A spvi by-value literal for one component (exact)."""
    if t.kind != "f":
        return str(bits_to_int(bits, t))
    f = bits_to_float(bits, t.size)
    if f != f:
        return "-nan" if bits >> (8 * t.size - 1) else "nan"
    if f in (float("inf"), float("-inf")):
        return "inf" if f > 0 else "-inf"
    return f.hex()


def is_nan(bits, size):
    prec, ebits = FLOAT_FORMATS[size]
    emask = ((1 << ebits) - 1) << (prec - 1)
    return (bits & emask) == emask and (bits & ((1 << (prec - 1)) - 1)) != 0


def is_inf(bits, size):
    prec, ebits = FLOAT_FORMATS[size]
    return (bits & ~(1 << (8 * size - 1))) == ((1 << ebits) - 1) << (prec - 1)


def ordered(bits, size):
    """Map a float bit pattern to an integer line where adjacent floats differ by 1 (±0 -> 0)."""
    sign = 1 << (8 * size - 1)
    return -(bits & (sign - 1)) if bits & sign else bits


# ---------------------------------------------------------------------------------------------
# The piglit file format
# ---------------------------------------------------------------------------------------------

class Arg:
    """One arg_in/arg_out line."""

    def __init__(self, direction, text):
        toks = text.split()
        if len(toks) < 2:
            raise ParseError("bad %s `%s`" % (direction, text))
        self.direction = direction
        try:
            self.index = int(toks[0])
        except ValueError:
            raise ParseError("bad argument index in `%s`" % text)
        self.tolerance = None           # None, ('ulp', n) or ('abs', x)
        self.null = False
        if toks[1] in ("image", "sampler"):
            self.kind = toks[1]
            return
        if toks[1] == "buffer":
            self.kind = "buffer"
            m = re.match(r"^(\w+)\[(\d+)\]$", toks[2] if len(toks) > 2 else "")
            if not m:
                raise ParseError("bad buffer type in `%s`" % text)
            self.type = CLType(m.group(1))
            self.count = int(m.group(2))
            rest = toks[3:]
        else:
            self.kind = "scalar"
            self.type = CLType(toks[1])
            self.count = 1
            rest = toks[2:]
        if "tolerance" in rest:
            i = rest.index("tolerance")
            tol = rest[i + 1:]
            rest = rest[:i]
            try:
                if len(tol) == 2 and tol[1] == "ulp":
                    self.tolerance = ("ulp", int(tol[0], 0))
                elif len(tol) == 1:
                    self.tolerance = ("abs", float(tol[0]))
                else:
                    raise ValueError
            except ValueError:
                raise ParseError("bad tolerance `%s`" % " ".join(tol))
        ncomp = self.count * self.type.width
        if rest == ["NULL"] and self.kind == "buffer":
            self.null = True
            self.values = None
            return
        if rest and rest[0] == "repeat":
            pattern = rest[1:]
            if not pattern:
                raise ParseError("`repeat` without values in `%s`" % text)
            rest = [pattern[k % len(pattern)] for k in range(ncomp)]
        elif rest and rest[0] == "random":
            raise ParseError("`random` buffer values are not supported by this runner")
        if len(rest) != ncomp:
            raise ParseError("arg %d: %d values for %s[%d] (expected %d)"
                             % (self.index, len(rest), self.type.name, self.count, ncomp))
        self.values = [encode_value(v, self.type) for v in rest]

    @property
    def nbytes(self):
        return self.count * self.type.elem_bytes

    def raw(self):
        """Memory image of the buffer (zeros for NULL / output-only)."""
        t = self.type
        out = bytearray(self.nbytes)
        if self.values is None:
            return bytes(out)
        for k, bits in enumerate(self.values):
            elem, comp = divmod(k, t.width)
            off = (elem * t.slots + comp) * t.size
            out[off:off + t.size] = bits.to_bytes(t.size, "little")
        return bytes(out)


def read_header(path):
    """The piglit ini text of a file: the /*! ... !*/ comment of a .cl, or a whole .program_test."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if path.endswith(".program_test"):
        return text
    m = re.search(r"/\*!(.*?)!\*/", text, re.S)
    if not m:
        return None
    return m.group(1)


def parse_ini(text):
    """-> [(section, {key: value}, [(key, value)])] with comments and continuations handled."""
    lines = []
    pending = ""
    for raw in text.split("\n"):
        line = re.sub(r"(^|\s)#.*$", "", raw).rstrip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        lines.append(pending + line)
        pending = ""
    if pending:
        lines.append(pending)
    sections = []
    for line in lines:
        s = line.strip()
        if not s or s.startswith(";"):
            continue
        if s.startswith("[") and s.endswith("]"):
            sections.append((s[1:-1].strip(), {}, []))
            continue
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*)$", s)
        if not m:
            raise ParseError("cannot parse line `%s`" % s)
        if not sections:
            raise ParseError("`%s` outside a section" % s)
        key, value = m.group(1), m.group(2).strip()
        sections[-1][1][key] = value
        sections[-1][2].append((key, value))
    return sections


class Section:
    def __init__(self, pfile, name, keys, items):
        self.file = pfile
        self.name = name
        cfg = pfile.config

        def get(k):
            return keys.get(k, cfg.get(k))
        self.kernel = get("kernel_name")
        if self.kernel in ("NULL", "null"):
            self.kernel = None
        self.dims = int(get("dimensions") or 1)
        if not 1 <= self.dims <= 3:
            raise ParseError("bad dimensions `%s`" % get("dimensions"))

        def sizes(k):
            v = get(k)
            if v is None or v in ("NULL", "null"):
                return None
            nums = [int(x, 0) for x in v.split()]
            if len(nums) < self.dims:
                raise ParseError("%s `%s` has fewer than %d sizes" % (k, v, self.dims))
            return nums[:self.dims]
        # piglit's defaults: global size 1, local size 1 in every dimension (a work-group per
        # work-item); `local_size: NULL` lets the implementation (spvi) choose.
        self.global_size = sizes("global_size") or [1] * self.dims
        self.local_size = sizes("local_size")
        if self.local_size is None and get("local_size") is None:
            self.local_size = [1] * self.dims
        self.offset = sizes("global_offset")
        if not self.kernel:
            raise ParseError("no kernel_name")
        self.args_in, self.args_out = {}, {}
        for k, v in items:
            if k in ("arg_in", "arg_out"):
                a = Arg(k, v)
                d = self.args_in if k == "arg_in" else self.args_out
                if a.index in d:
                    raise ParseError("two %s lines for argument %d" % (k, a.index))
                d[a.index] = a


class PiglitFile:
    def __init__(self, corpus, rel):
        self.rel = rel
        self.path = os.path.join(corpus, rel)
        self.dir = os.path.dirname(rel) or "."
        self.sections = []          # Section objects
        self.section_names = []     # every [test] name, even when the section failed to parse
        self.section_errors = {}    # name -> parse error
        self.skip_reason = None
        self.error = None           # file-level parse error
        self.config = {}
        try:
            self._parse()
        except ParseError as e:
            self.error = str(e)

    def _parse(self):
        text = read_header(self.path)
        if text is None:
            raise ParseError("no /*! ... !*/ piglit header")
        secs = parse_ini(text)
        for name, keys, _ in secs:
            if name == "config":
                self.config = keys
        cfg = self.config
        if "program_source_file" in cfg:
            self.source = os.path.join(os.path.dirname(self.path), cfg["program_source_file"])
        elif self.path.endswith(".program_test"):
            raise ParseError("no program_source_file")
        else:
            self.source = self.path
        self.build_options = cfg.get("build_options", "")
        seen = {}
        for name, keys, items in secs:
            if name != "test":
                continue
            tname = keys.get("name", "(unnamed)")
            if tname in seen:                      # keep keys unique within a file
                seen[tname] += 1
                tname = "%s (%d)" % (tname, seen[tname])
            else:
                seen[tname] = 1
            self.section_names.append(tname)
            try:
                self.sections.append(Section(self, tname, keys, items))
            except (ParseError, ValueError) as e:
                self.section_errors[tname] = str(e)
        self.skip_reason = self._skip_reason()

    def _skip_reason(self):
        cfg = self.config
        if cfg.get("need_image_support", "").lower() in ("1", "true", "yes"):
            return "needs image support (spvi does not claim images)"
        for s in self.sections:
            for a in list(s.args_in.values()) + list(s.args_out.values()):
                if a.kind in ("image", "sampler"):
                    return "uses image/sampler arguments (spvi does not claim images)"
        if "device_regex" in cfg:
            return "restricted to devices matching `%s` (device_regex)" % cfg["device_regex"]
        if "expect_build_fail" in cfg:
            return "build-failure test, nothing to run"
        v = cfg.get("clc_version_min")
        if v and int(v) > MAX_CL_VERSION:
            return "needs OpenCL C %d.%d, beyond 3.0" % divmod(int(v), 10)
        if not self.section_names:
            return "no [test] section"
        return None

    def cl_std(self):
        """-cl-std for this program: the file's own option, else CL1.2 (the OpenCL 1.x default),
        raised to clc_version_min when that is above 1.2 and capped by clc_version_max."""
        lo = int(self.config.get("clc_version_min") or 10)
        hi = int(self.config.get("clc_version_max") or MAX_CL_VERSION)
        v = min(max(lo, 12), hi)
        return "-cl-std=CL%d.%d" % divmod(v, 10)


def discover(corpus, filt):
    files = []
    for top in ("execute", "generated"):
        for root, dirs, names in os.walk(os.path.join(corpus, top)):
            dirs.sort()
            for n in sorted(names):
                if n.endswith(".cl") or n.endswith(".program_test"):
                    rel = os.path.relpath(os.path.join(root, n), corpus)
                    if not filt or any(f in rel for f in filt):
                        files.append(rel)
    return files


# ---------------------------------------------------------------------------------------------
# Compilation (clang-14 + llvm-spirv-14), cached by content hash
# ---------------------------------------------------------------------------------------------

def tool_versions(tools=(CLANG, LLVM_SPIRV)):
    out = []
    for tool in tools:
        try:
            r = subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=60)
            out.append(r.stdout.strip())
        except OSError as e:
            sys.exit("conformance: cannot run %s: %s" % (tool, e))
    return "\n".join(out)


def first_error(text, default):
    for line in text.splitlines():
        if "error" in line.lower():
            return line.strip()
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[0] if lines else default


class Compiled:
    def __init__(self, status, message="", spv=None):
        self.status = status        # 'ok', 'clang' (compile error), 'translator'
        self.message = message
        self.spv = spv
        self.cached = False


def compile_file(pf, cache_dir, versions):
    opts = shlex.split(pf.build_options)
    if not any(o.startswith("-cl-std=") for o in opts):
        opts.insert(0, pf.cl_std())
    args = ["-x", "cl", "-target", "spir64", "-emit-llvm", "-c", "-O2", "-Xclang",
            "-finclude-default-header", "-I", os.path.dirname(pf.source)] + opts
    # When llvm-spirv-14 rejects the -O2 module (it does not know the llvm.vector.reduce.*
    # intrinsics that the loop and SLP vectorizers create), compile again without them.
    return cached_compile(pf.source, args, cache_dir, versions,
                          ([], ["-fno-vectorize", "-fno-slp-vectorize"]))


def cached_compile(source, args, cache_dir, versions, retries=([],), clang=None, llvm_spirv=None):
    """clang ARGS SOURCE + llvm-spirv, cached in cache_dir by a hash of the tool versions, the
    arguments and the source; each of `retries` (extra clang arguments) is tried in turn while
    llvm-spirv rejects the module. -> Compiled."""
    clang, llvm_spirv = clang or CLANG, llvm_spirv or LLVM_SPIRV
    with open(source, "rb") as f:
        src = f.read()
    h = hashlib.sha256()
    for part in (versions.encode(), "\0".join(args).encode(), src):
        h.update(part)
        h.update(b"\0\1")
    key = h.hexdigest()[:24]
    spv = os.path.join(cache_dir, key + ".spv")
    status_file = os.path.join(cache_dir, key + ".status")
    if os.path.exists(status_file):
        with open(status_file) as f:
            status, _, message = f.read().partition("\n")
        c = Compiled(status, message.strip(), spv if status == "ok" else None)
        c.cached = True
        return c
    bc = os.path.join(cache_dir, key + ".bc")
    tmp = spv + ".tmp"
    for extra in retries:
        r = subprocess.run([clang] + args + extra + [source, "-o", bc],
                           capture_output=True, text=True, errors="replace")
        if r.returncode != 0 or not os.path.exists(bc):
            msg = first_error(r.stderr, "clang failed").replace(os.path.dirname(source) + "/", "")
            c = Compiled("clang", "compile error: " + msg)
            break
        r = subprocess.run([llvm_spirv, bc, "-o", tmp], capture_output=True, text=True,
                           errors="replace")
        os.remove(bc)
        if r.returncode == 0:
            os.replace(tmp, spv)
            c = Compiled("ok", "", spv)
            break
        msg = " ".join(r.stderr.split()) or "llvm-spirv failed"
        msg = re.sub(r"\s*\[Src: [^]]*\]", "", msg)
        c = Compiled("translator", "llvm-spirv rejects the module: " + msg)
    with open(status_file + ".tmp", "w") as f:
        f.write("%s\n%s\n" % (c.status, c.message))
    os.replace(status_file + ".tmp", status_file)
    return c


# ---------------------------------------------------------------------------------------------
# spvi info / spvi run
# ---------------------------------------------------------------------------------------------

def spvi_error_line(stderr, default, spv=None):
    """The spvi message on stderr as one line: without warnings, the `spvi: error: ` prefix,
    the module's cache path and the work-item line of a fault report."""
    lines = [l.strip() for l in stderr.splitlines()]
    lines = [l for l in lines if l and not l.startswith("spvi: warning:")
             and not l.startswith("work-item")]
    if not lines:
        return default
    text = "; ".join(lines)
    for prefix in ("spvi: error: ", "spvi: fault: ", "spvi: "):
        if text.startswith(prefix):
            text = text[len(prefix):]
            break
    if spv and text.startswith(spv + ": "):
        text = text[len(spv) + 2:]
    return text


_SPVI_OPTIONS = []


def spvi_options(spvi=None):
    """The options `spvi run --help` lists (probed once), so that the runner can use options
    that this spvi has and older ones lack."""
    if spvi is not None:
        r = subprocess.run([spvi, "run", "--help"], capture_output=True, text=True, timeout=60)
        _SPVI_OPTIONS[:] = sorted(set(re.findall(r"--[a-z][a-z-]*", r.stdout + r.stderr)))
    return _SPVI_OPTIONS


class Param:
    def __init__(self, type_name, desc):
        self.type_name = type_name
        if "local memory" in desc:
            self.kind = "local"
        elif desc.startswith("buffer"):
            self.kind = "buffer"
        elif "by value" in desc:
            self.kind = "value"
        else:
            self.kind = "other"
        m = re.search(r"(\d+)-byte", desc) or re.search(r"(\d+) bytes?", desc)
        self.elem_size = int(m.group(1)) if m else None
        pointee = type_name.replace("*", " ").split()
        pointee = [w for w in pointee if w not in ("global", "constant", "local", "private",
                                                    "generic", "const", "volatile", "restrict",
                                                    "__global", "__constant", "__local")]
        self.pointee = " ".join(pointee)


def spvi_info(spvi, spv):
    """-> (kernels {name: [Param]}, None) or (None, error message)."""
    r = subprocess.run([spvi, "info", spv], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        return None, "load error: " + spvi_error_line(r.stderr, "spvi info exited %d" % r.returncode,
                                                      spv)
    kernels, cur = {}, None
    for line in r.stdout.splitlines():
        m = re.match(r"^kernel (\S+) \(", line)
        if m:
            cur = kernels.setdefault(m.group(1), [])
            continue
        m = re.match(r"^\s+arg(\d+)\s+(.*?)\s+\((.*)\)\s*$", line)
        if m and cur is not None:
            cur.append(Param(m.group(2).strip(), m.group(3)))
    return kernels, None


def read_npy(path):
    """-> (raw little-endian data bytes, dtype descr) of a NumPy .npy file (v1/v2/v3)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError("%s: not a .npy file" % os.path.basename(path))
    major = data[6]
    if major == 1:
        hlen = struct.unpack("<H", data[8:10])[0]
        start = 10
    else:
        hlen = struct.unpack("<I", data[8:12])[0]
        start = 12
    header = data[start:start + hlen].decode("latin-1")
    m = re.search(r"'descr'\s*:\s*'([^']*)'", header)
    shape = re.search(r"'shape'\s*:\s*\(([^)]*)\)", header)
    if not m or not shape:
        raise ValueError("%s: bad .npy header" % os.path.basename(path))
    descr = m.group(1)
    if descr.startswith(">") and descr[2:] != "1":
        raise ValueError("%s: big-endian .npy data" % os.path.basename(path))
    if re.search(r"'fortran_order'\s*:\s*True", header):
        raise ValueError("%s: Fortran-order .npy data" % os.path.basename(path))
    n = 1
    for d in shape.group(1).split(","):
        if d.strip():
            n *= int(d)
    item = int(re.sub(r"^\D+", "", descr) or 0)
    body = data[start + hlen:]
    if len(body) != n * item:
        raise ValueError("%s: %d data bytes for %d items of %d bytes"
                         % (os.path.basename(path), len(body), n, item))
    return body, descr


def buffer_type_for(arg, param):
    """spvi buffer TYPE[COUNT] for a piglit buffer passed to a pointer parameter, or None when
    the buffer is not a whole number of the parameter's elements."""
    own = "%s[%d]" % (arg.type.name, arg.count)
    if param.elem_size in (None, arg.type.elem_bytes):
        return own
    if not TYPE_RE.match(param.pointee) or param.pointee in ("char", "uchar"):
        return own                    # char, void and struct pointees take any buffer type
    if arg.nbytes % param.elem_size == 0:
        return "%s[%d]" % (param.pointee, arg.nbytes // param.elem_size)
    return None


def compare(arg, body):
    """-> None when the output matches arg's expectation, else a one-line reason."""
    t = arg.type
    if len(body) < arg.nbytes:
        return "arg%d: output has %d bytes, expected %d" % (arg.index, len(body), arg.nbytes)
    bad, first = 0, None
    for k, exp in enumerate(arg.values):
        elem, comp = divmod(k, t.width)
        off = (elem * t.slots + comp) * t.size
        got = int.from_bytes(body[off:off + t.size], "little")
        why = mismatch(exp, got, t, arg.tolerance)
        if why is not None:
            bad += 1
            if first is None:
                first = "arg%d[%d]: expected %s, got %s%s" % (arg.index, k, show(exp, t),
                                                              show(got, t), why)
    if bad:
        return first + ("; %d of %d values differ" % (bad, len(arg.values)) if bad > 1 else "")
    return None


def mismatch(exp, got, t, tol):
    """None if got is acceptable for exp, else a short explanation suffix ('' is fine too)."""
    if t.kind != "f":
        if exp == got:
            return None
        if tol is not None and tol[1] > 0 and abs(bits_to_int(exp, t) - bits_to_int(got, t)) <= tol[1]:
            return None
        return "" if tol is None or tol[1] == 0 else " (tolerance %s)" % tol[1]
    size = t.size
    if tol is not None and tol[0] == "ulp" and tol[1] >= 1 << FLOAT_FORMATS[size][0]:
        return None                       # piglit: 2^precision ulp or more means any value
    if is_nan(exp, size):
        return None if is_nan(got, size) else ""
    if is_nan(got, size):
        return ""
    if is_inf(exp, size) or is_inf(got, size):
        return None if exp == got else ""
    if tol is None or tol[1] == 0:
        return None if ordered(exp, size) == ordered(got, size) else ""
    if tol[0] == "ulp":
        d = abs(ordered(exp, size) - ordered(got, size))
        return None if d <= tol[1] else " (%d ulp, tolerance %d ulp)" % (d, tol[1])
    d = abs(bits_to_float(exp, size) - bits_to_float(got, size))
    return None if d <= tol[1] else " (difference %g, tolerance %g)" % (d, tol[1])


class Result:
    def __init__(self, pfile, name, status, reason="", category=""):
        self.file = pfile          # relative path
        self.name = name
        self.status = status       # 'pass', 'fail', 'skip'
        self.reason = reason
        self.category = category   # parse, compile, load, fault, error, mismatch, crash, ...
        self.compiles = False      # the program compiled and translated
        self.known = None          # the expected-failures reason, when listed
        self.cmd = []              # the spvi command that reproduces the run


def run_section(sec, kernels, spvi, work, inputs, timeout, repro, extra=()):
    """Runs one [test] section; -> (status, reason, category). Buffer contents go to
    content-addressed files in `inputs` (kept, so that a printed command can be rerun); `repro`
    receives the spvi command with --print in place of --out."""
    params = kernels.get(sec.kernel)
    if params is None:
        return "fail", "kernel `%s` not in module (has %s)" % (
            sec.kernel, ", ".join(sorted(kernels)) or "none"), "runner"
    if sec.local_size is not None:
        items = 1
        for v in sec.local_size:
            items *= v
        if items > MAX_GROUP_ITEMS:
            return "skip", "local size %s exceeds spvi's %d work-items per group" % (
                "x".join(map(str, sec.local_size)), MAX_GROUP_ITEMS), "limit"
    out_dir = os.path.join(work, "out")
    shutil.rmtree(out_dir, ignore_errors=True)
    cmd = [spvi, "run", sec.file.spv, "-k", sec.kernel,
           "-g", ",".join(map(str, sec.global_size)), "--out", out_dir]
    if sec.local_size is not None:
        cmd += ["-l", ",".join(map(str, sec.local_size))]
    if sec.offset is not None:
        cmd += ["--offset", ",".join(map(str, sec.offset))]
    if "-cl-denorms-are-zero" in sec.file.build_options and "--flush-denormals" in spvi_options():
        cmd.append("--flush-denormals")   # the program allows flushing: emulate a device that does
    if "--threads" in spvi_options():
        cmd += ["--threads", "1"]         # the runner already runs one spvi per job
    cmd += list(extra) + ["--"]
    nargs = max([len(params) - 1] + list(sec.args_in) + list(sec.args_out)) + 1
    for i in range(nargs):
        a_in, a_out = sec.args_in.get(i), sec.args_out.get(i)
        a = a_in or a_out
        if a is None:
            return "fail", "no arg_in/arg_out for kernel parameter %d" % i, "runner"
        p = params[i] if i < len(params) else None
        if a_in and a_out and a_in.kind == "buffer" and a_in.nbytes != a_out.nbytes:
            return "fail", "arg %d: arg_in and arg_out sizes differ" % i, "runner"
        if a.kind == "scalar":
            if a_out is not None:
                return "fail", "arg_out %d is not a buffer" % i, "runner"
            lits = [literal(b, a.type) for b in a.values]
            cmd.append("%s:%s" % (a.type.name, ",".join(lits)))
        elif p is not None and p.kind == "local":
            cmd.append("local:%d" % a.nbytes)
        else:
            data = a_in.raw() if a_in is not None else bytes(a.nbytes)
            path = os.path.join(inputs, hashlib.sha1(data).hexdigest()[:20] + ".bin")
            if any(data) and not os.path.exists(path):
                with open(path + ".%d" % threading.get_ident(), "wb") as f:
                    f.write(data)
                os.replace(path + ".%d" % threading.get_ident(), path)
            btype = buffer_type_for(a, p) if p is not None else "%s[%d]" % (a.type.name, a.count)
            if btype is None:
                return "fail", "arg %d: buffer %s[%d] (%d bytes) is not a whole number of `%s` " \
                    "elements (%d bytes)" % (i, a.type.name, a.count, a.nbytes, p.type_name,
                                             p.elem_size), "runner"
            cmd.append("%s=@%s" % (btype, path) if any(data) else btype)
    k = cmd.index("--out")
    repro.extend(cmd[:k] + ["--print"] + cmd[k + 2:])
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "fail", "timeout: spvi ran longer than %d s" % timeout, "timeout"
    if r.returncode == 1:
        return "fail", "fault: " + spvi_error_line(r.stderr, "kernel faulted"), "fault"
    if r.returncode == 2:
        return "fail", "spvi error: " + spvi_error_line(r.stderr, "exit status 2",
                                                        sec.file.spv), "error"
    if r.returncode != 0:
        sig = " (signal %d)" % -r.returncode if r.returncode < 0 else ""
        return "fail", "spvi crashed: exit status %d%s: %s" % (
            r.returncode, sig, spvi_error_line(r.stderr, "")), "crash"
    for i in sorted(sec.args_out):
        a = sec.args_out[i]
        if a.kind != "buffer" or a.values is None:
            continue
        try:
            body, _ = read_npy(os.path.join(out_dir, "arg%d.npy" % i))
        except (OSError, ValueError) as e:
            return "fail", "output arg%d: %s" % (i, e), "output"
        why = compare(a, body)
        if why:
            return "fail", why, "mismatch"
    return "pass", "", ""


# ---------------------------------------------------------------------------------------------
# Expected failures
# ---------------------------------------------------------------------------------------------

def load_expected(path):
    """-> {(file, section or '*'): reason}"""
    exp = {}
    if not os.path.exists(path):
        return exp
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            s = line.rstrip("\n")
            if not s.strip() or s.lstrip().startswith("#"):
                continue
            parts = s.split(" :: ")
            if len(parts) < 3:
                sys.exit("%s:%d: expected `PATH :: SECTION :: REASON`" % (path, n))
            exp[(parts[0].strip(), " :: ".join(parts[1:-1]).strip())] = parts[-1].strip()
    return exp


def known_reason(expected, r):
    return expected.get((r.file, r.name), expected.get((r.file, "*")))


EXPECTED_HEADER = """\
# Piglit sections that are known to fail on spvi (tests/conformance/run.py, `make conformance`).
# One entry per line: PATH :: SECTION :: REASON
#   PATH     relative to the piglit corpus root
#   SECTION  the [test] section's name, or * for every section of the file
#   REASON   one line: the cause (missing builtin, executor bug, test bug ...)
# `make conformance` fails when a failure is not listed here or a listed section passes.
# Regenerate with `python3 tests/conformance/run.py --update-expected` (keeps the reasons of the
# entries that still fail; new entries get the runner's failure message as a first reason).
"""


def first_reason(r):
    """The reason a new expected-failure entry starts with: the cause when the message names one
    (a missing instruction or builtin), else the failure message itself."""
    m = re.search(r"(Op\w+) is not supported", r.reason)
    if m:
        return "spvi does not run %s yet (atomics)" % m.group(1) if "Atomic" in m.group(1) \
            else "spvi does not run %s yet" % m.group(1)
    m = re.search(r"OpenCL\.std `(\w+)` is not implemented", r.reason)
    if m:
        return "OpenCL.std `%s` is not implemented yet" % m.group(1)
    return r.reason


def write_expected(path, results, old, selected_files, corpus):
    """Rewrites the list from the results (entries of other existing files are kept)."""
    by_file = {}
    for r in results:
        by_file.setdefault(r.file, []).append(r)
    lines = []
    for (f, s), reason in sorted(old.items()):
        if f not in selected_files and os.path.exists(os.path.join(corpus, f)):
            lines.append("%s :: %s :: %s" % (f, s, reason))
    for f in sorted(by_file):
        rs = by_file[f]
        fails = [r for r in rs if r.status == "fail"]
        if not fails:
            continue
        runnable = [r for r in rs if r.status != "skip"]
        if len(fails) == len(runnable) and len(fails) > 1:
            reason = old.get((f, "*"))
            if reason is None:
                reasons = {known_reason(old, r) or first_reason(r) for r in fails}
                if len(reasons) == 1:
                    reason = reasons.pop()
            if reason is not None:
                lines.append("%s :: * :: %s" % (f, reason))
                continue
        for r in fails:
            lines.append("%s :: %s :: %s" % (f, r.name, known_reason(old, r) or first_reason(r)))
    with open(path + ".tmp", "w", encoding="utf-8") as out:
        out.write(EXPECTED_HEADER)
        for l in lines:
            out.write(l + "\n")
    os.replace(path + ".tmp", path)


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------------------
# The load test (--load): every kernel of the corpora, each translator, -O0 and -O2
# ---------------------------------------------------------------------------------------------

TOOLCHAINS = {"14": ("clang-14", "llvm-spirv-14"), "15": ("clang-15", "llvm-spirv-15")}
LEVELS = ("-O0", "-O2")


def load_discover(root, filt, sample):
    """Every .cl file under root (sorted), or every sample-th one of them."""
    files = []
    for d, dirs, names in os.walk(root):
        dirs.sort()
        for n in sorted(names):
            rel = os.path.relpath(os.path.join(d, n), root)
            if n.endswith(".cl") and (not filt or any(f in rel for f in filt)):
                files.append(rel)
    return files[::sample] if sample > 1 else files


def load_option_sets(root, rel):
    """The clang options to try on a corpus file, in order (the first that clang accepts is
    used): piglit's build_options and OpenCL C version, an OpenCL-CTS dump's .options file, else
    OpenCL C 2.0, 1.2, 3.0."""
    path = os.path.join(root, rel)
    if rel.startswith("piglit" + os.sep):
        text = read_header(path)
        if text is not None:
            cfg = {}
            for name, keys, _ in parse_ini(text):
                if name == "config":
                    cfg = keys
            opts = cfg.get("build_options", "")
            if "-cl-std" not in opts:
                lo = int(cfg.get("clc_version_min") or 10)
                hi = int(cfg.get("clc_version_max") or MAX_CL_VERSION)
                opts = ("-cl-std=CL%d.%d " % divmod(min(max(lo, 12), hi), 10)) + opts
            return [opts.strip()]
    if os.path.exists(path[:-3] + ".options"):
        with open(path[:-3] + ".options") as f:
            words = []
            for w in f.read().split():
                if w not in words:
                    words.append(w)
        return [" ".join(words)]
    return ["-cl-std=CL2.0", "-cl-std=CL1.2", "-cl-std=CL3.0"]


def load_known(path):
    """load-known.txt: `TEXT :: REASON` per line, TEXT a part of spvi's load error."""
    known = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                text, sep, reason = line.partition(" :: ")
                if not sep or not reason.strip():
                    sys.exit("conformance: %s: `%s` is not TEXT :: REASON" % (path, line))
                known.append((text.strip(), reason.strip()))
    return known


def load_one(root, rel, tc, level, cache, versions, spvi, known):
    """One file with one translator at one level -> (status, message): 'load', 'known',
    'fail' (unexpected), 'translator' or 'clang' (skipped: the toolchain refuses the file)."""
    clang, llvm_spirv = TOOLCHAINS[tc]
    src = os.path.join(root, rel)
    c = None
    for opts in load_option_sets(root, rel):
        args = ["-x", "cl", "-target", "spir64", "-emit-llvm", "-c", level, "-w", "-Xclang",
                "-finclude-default-header", "-I", os.path.dirname(src)] + shlex.split(opts)
        c = cached_compile(src, args, cache, versions[tc], clang=clang, llvm_spirv=llvm_spirv)
        if c.status != "clang":
            break
    if c.status != "ok":
        return c.status, c.message
    try:
        r = subprocess.run([spvi, "info", c.spv], capture_output=True, text=True,
                           errors="replace", timeout=120)
    except (OSError, subprocess.SubprocessError) as e:
        return "fail", "runner error: %s" % e
    if r.returncode == 0:
        return "load", ""
    msg = spvi_error_line(r.stderr, "spvi info exited %d" % r.returncode, c.spv)
    for text, reason in known:
        if text in msg:
            return "known", reason
    return "fail", msg


def load_main(opt):
    """--load: every translated module must load, or fail with a reason listed in --load-known."""
    t0 = time.time()
    root = os.path.normpath(opt.load_corpus)
    if not os.path.isdir(root):
        print("conformance: no corpus at %s" % root, file=sys.stderr)
        return 2
    spvi = os.path.abspath(opt.spvi)
    tcs = [t for t in opt.toolchains.split(",") if t]
    for t in tcs:
        if t not in TOOLCHAINS or not all(shutil.which(x) for x in TOOLCHAINS[t]):
            print("conformance: toolchain %s: %s not found (sh tools/setup.sh)"
                  % (t, " and ".join(TOOLCHAINS.get(t, ("?",)))), file=sys.stderr)
            return 2
    known = load_known(opt.load_known)
    versions = {t: tool_versions(TOOLCHAINS[t]) for t in tcs}
    cache = os.path.join(opt.build, "cache")
    os.makedirs(cache, exist_ok=True)
    files = load_discover(root, opt.filter, opt.load_sample)
    jobs = [(rel, t, lv) for rel in files for t in tcs for lv in LEVELS]
    print("== load test: %d files of %s%s, llvm-spirv %s at %s: %d modules"
          % (len(files), root, " (every %dth)" % opt.load_sample if opt.load_sample > 1 else "",
             "/".join(tcs), "/".join(LEVELS), len(jobs)))
    with concurrent.futures.ThreadPoolExecutor(max(1, opt.jobs)) as pool:
        res = list(pool.map(lambda j: load_one(root, j[0], j[1], j[2], cache, versions, spvi,
                                               known), jobs))
    kinds = ("load", "known", "fail", "translator", "clang")
    table = {}
    for (rel, _, _), (st, _) in zip(jobs, res):
        top = rel.split(os.sep)[0]
        table.setdefault(top, dict.fromkeys(kinds, 0))[st] += 1
    print("%-34s %7s %7s %7s %10s %7s" % ("corpus", "load", "known", "FAIL", "translator", "clang"))
    for top in sorted(table) + [None]:
        rows = table.values() if top is None else [table[top]]
        print("%-34s %7d %7d %7d %10d %7d" % ("total" if top is None else top,
                                              *(sum(t[k] for t in rows) for k in kinds)))
    groups = {}
    for (rel, t, lv), (st, msg) in zip(jobs, res):
        if st == "known":
            groups.setdefault(msg, []).append("%s (%s %s)" % (rel, t, lv))
    if groups:
        print("\nrefused for a known reason (%s):" % shown(opt.load_known))
        for reason, items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            print("  %5d  %s\n         e.g. %s" % (len(items), reason, items[0]))
    bad = [(j, m) for j, (st, m) in zip(jobs, res) if st == "fail"]
    if bad:
        print("\nMODULES THAT DO NOT LOAD (%d) -- fix the loader or list the reason in %s:"
              % (len(bad), shown(opt.load_known)))
        for (rel, t, lv), m in bad:
            print("  FAIL %s (clang-%s %s): %s" % (rel, t, lv, m))
    n = sum(st == "load" for st, _ in res)
    print("load test: %d modules load, %d refused for a known reason, %d fail, %d not translated"
          " (%.1f s)" % (n, sum(st == "known" for st, _ in res), len(bad),
                         sum(st in ("translator", "clang") for st, _ in res), time.time() - t0))
    return 1 if bad else 0


def shown(path):
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def parse_args():
    ap = argparse.ArgumentParser(description="Run the piglit OpenCL tests against spvi.")
    ap.add_argument("--spvi", default=os.path.join(REPO, "build", "spvi"), help="the spvi command")
    ap.add_argument("--corpus", default=os.environ.get("PIGLIT") or
                    os.path.join(REPO, "..", "shared", "corpus", "piglit"),
                    help="piglit corpus root (default ../shared/corpus/piglit from the repository)")
    ap.add_argument("--build", default=os.path.join(REPO, "build", "conformance"),
                    help="output directory (SPIR-V cache, input files, results.txt)")
    ap.add_argument("--expected", default=os.path.join(HERE, "expected-failures.txt"),
                    help="the known failures (default tests/conformance/expected-failures.txt)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="parallel jobs (default 2)")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per spvi run")
    ap.add_argument("--spvi-arg", action="append", default=[], metavar="ARG",
                    help="extra option for every `spvi run` (e.g. --spvi-arg=--warp=1)")
    ap.add_argument("--update-expected", action="store_true",
                    help="rewrite the expected-failures file from this run")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every known failure")
    ap.add_argument("--load", action="store_true",
                    help="the load test instead: compile every .cl of --load-corpus with each "
                         "toolchain at -O0 and -O2, and require that every module loads")
    ap.add_argument("--load-corpus", default=os.path.join(REPO, "..", "shared", "corpus"),
                    help="the load test's corpus root (default ../shared/corpus)")
    ap.add_argument("--load-known", default=os.path.join(HERE, "load-known.txt"),
                    help="the load errors with a known reason (default "
                         "tests/conformance/load-known.txt)")
    ap.add_argument("--load-sample", type=int, default=1, metavar="N",
                    help="the load test takes every N-th file (default 1: all)")
    ap.add_argument("--toolchains", default="14,15",
                    help="the load test's clang + llvm-spirv versions (default 14,15)")
    ap.add_argument("filter", nargs="*", help="only files whose path contains one of these")
    return ap.parse_args()


def run_all(files, opt, spvi, pool):
    """Compiles the programs, loads them with `spvi info` and runs every section.
    -> (results in file and section order, seconds spent compiling)."""
    t0 = time.time()
    cache = os.path.join(opt.build, "cache")
    inputs = os.path.join(opt.build, "inputs")
    os.makedirs(cache, exist_ok=True)
    os.makedirs(inputs, exist_ok=True)
    versions = tool_versions()
    to_build = [pf for pf in files if pf.error is None and pf.skip_reason is None]
    comp = dict(zip([pf.rel for pf in to_build],
                    pool.map(lambda pf: compile_file(pf, cache, versions), to_build)))
    print("compiled %d programs (%d from the cache) in %.1f s"
          % (len(comp), sum(c.cached for c in comp.values()), time.time() - t0))
    t_compile = time.time() - t0
    ok = [pf for pf in to_build if comp[pf.rel].status == "ok"]
    infos = dict(zip([pf.rel for pf in ok],
                     pool.map(lambda pf: spvi_info(spvi, comp[pf.rel].spv), ok)))

    results, jobs = [], []
    for pf in files:
        if pf.error is not None:
            for n in pf.section_names or ["*"]:
                results.append(Result(pf.rel, n, "fail", "parse error: " + pf.error, "parse"))
            continue
        if pf.skip_reason is not None:
            for n in pf.section_names or ["*"]:
                results.append(Result(pf.rel, n, "skip", pf.skip_reason, "skip"))
            continue
        c = comp[pf.rel]
        pf.spv = c.spv
        kernels, info_err = infos.get(pf.rel, (None, None))
        for n in pf.section_names:
            if n in pf.section_errors:
                r = Result(pf.rel, n, "fail", "parse error: " + pf.section_errors[n], "parse")
            elif c.status == "translator":
                r = Result(pf.rel, n, "skip", c.message, "translator")
            elif c.status != "ok":
                r = Result(pf.rel, n, "fail", c.message, "compile")
            elif info_err is not None:
                r = Result(pf.rel, n, "fail", info_err, "load")
                r.compiles = True
            else:
                r = Result(pf.rel, n, "pending")
                r.compiles = True
                jobs.append((r, next(s for s in pf.sections if s.name == n), kernels))
            results.append(r)

    local = threading.local()

    def work(job):
        r, sec, kernels = job
        if not hasattr(local, "dir"):
            local.dir = os.path.join(opt.build, "work", "w%d" % threading.get_ident())
            os.makedirs(local.dir, exist_ok=True)
        try:
            r.status, r.reason, r.category = run_section(sec, kernels, spvi, local.dir, inputs,
                                                         opt.timeout, r.cmd, opt.spvi_arg)
        except (OSError, ValueError, ParseError, subprocess.SubprocessError) as e:
            r.status, r.reason, r.category = "fail", "runner error: %s" % e, "runner"
        if r.status == "skip":
            r.compiles = False
    list(pool.map(work, jobs))
    shutil.rmtree(os.path.join(opt.build, "work"), ignore_errors=True)
    return results, t_compile


def report(results, opt, unexpected, known_fail, now_pass, stale):
    """Prints the tables and lists (everything but the final summary line)."""
    with open(os.path.join(opt.build, "results.txt"), "w", encoding="utf-8") as out:
        for r in results:
            tag = {"pass": "PASS", "skip": "SKIP"}.get(r.status, "XFAIL" if r.known else "FAIL")
            out.write("%s %s :: %s%s\n" % (tag, r.file, r.name,
                                           " :: " + r.reason if r.reason else ""))
    print()
    print("%-34s %7s %7s %7s %7s" % ("directory", "pass", "fail", "known", "skip"))
    for d in sorted({os.path.dirname(r.file) for r in results}) + [None]:
        rs = [r for r in results if d is None or os.path.dirname(r.file) == d]
        print("%-34s %7d %7d %7d %7d" % (
            "total" if d is None else d, sum(r.status == "pass" for r in rs),
            sum(r.status == "fail" and r.known is None for r in rs),
            sum(r.status == "fail" and r.known is not None for r in rs),
            sum(r.status == "skip" for r in rs)))
    if known_fail:
        print()
        if opt.verbose:
            print("known failures (%d):" % len(known_fail))
            for r in known_fail:
                print("  XFAIL %s :: %s :: %s" % (r.file, r.name, r.reason))
        else:
            groups = {}
            for r in known_fail:
                groups.setdefault(r.known, []).append(r)
            print("known failures by listed reason (%d sections; -v lists each):" % len(known_fail))
            for reason, rs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
                print("  %5d  %s" % (len(rs), reason))
    if unexpected:
        print()
        print("UNEXPECTED FAILURES (%d) -- fix them or list them in %s:"
              % (len(unexpected), shown(opt.expected)))
        for r in unexpected:
            print("  FAIL %s :: %s :: %s" % (r.file, r.name, r.reason))
            if r.cmd:
                print("       $ %s" % " ".join(shlex.quote(a) for a in r.cmd))
    if now_pass:
        print()
        print("KNOWN FAILURES THAT NOW PASS (%d) -- remove them from %s:"
              % (len(now_pass), shown(opt.expected)))
        for r in now_pass:
            print("  PASS %s :: %s   (listed: %s)" % (r.file, r.name, r.known))
    if stale:
        print()
        print("expected-failure entries that match no run section (%d) -- remove them:"
              % len(stale))
        for f, s in stale:
            print("  %s :: %s" % (f, s))
    compiling = [r for r in results if r.compiles]
    cpass = sum(r.status == "pass" for r in compiling)
    print()
    print("sections whose kernels compile: %d, passing: %d (%.1f%%)"
          % (len(compiling), cpass, 100.0 * cpass / len(compiling) if compiling else 0.0))


def main():
    opt = parse_args()
    if opt.load:
        return load_main(opt)
    t0 = time.time()
    corpus = os.path.normpath(opt.corpus)
    if not os.path.isdir(os.path.join(corpus, "execute")):
        print("conformance: no piglit corpus at %s" % corpus, file=sys.stderr)
        return 2
    spvi = os.path.abspath(opt.spvi)
    if not os.access(spvi, os.X_OK):
        print("conformance: %s is not an executable (build spvi first)" % spvi, file=sys.stderr)
        return 2
    spvi_options(spvi)
    print("== piglit conformance: corpus %s, spvi %s, %d jobs" % (corpus, opt.spvi, opt.jobs))

    files = [PiglitFile(corpus, rel) for rel in discover(corpus, opt.filter)]
    with concurrent.futures.ThreadPoolExecutor(max(1, opt.jobs)) as pool:
        results, t_compile = run_all(files, opt, spvi, pool)

    expected = load_expected(opt.expected)
    selected = {pf.rel for pf in files}
    for r in results:
        r.known = known_reason(expected, r)
    unexpected = [r for r in results if r.status == "fail" and r.known is None]
    known_fail = [r for r in results if r.status == "fail" and r.known is not None]
    now_pass = [r for r in results if r.status == "pass" and r.known is not None]
    status = {(r.file, r.name): r.status for r in results}
    stale = sorted(k for k in expected
                   if not os.path.exists(os.path.join(corpus, k[0]))
                   or k[0] in selected and k[1] != "*" and status.get(k) in (None, "skip"))

    report(results, opt, unexpected, known_fail, now_pass, stale)
    print("%d known failures; every section's result: %s; %.1f s (compiling %.1f s)"
          % (len(known_fail), os.path.join(opt.build, "results.txt"), time.time() - t0,
             t_compile))
    ok = not unexpected and not now_pass and not stale
    if opt.update_expected:
        write_expected(opt.expected, results, expected, selected, corpus)
        print("conformance: rewrote %s from this run (run again to check)" % opt.expected)
    elif ok:
        print("conformance: the failures are exactly the known ones")
    else:
        print("conformance: FAILED (%s)" % ", ".join(
            s for s in ("%d unexpected failures" % len(unexpected) if unexpected else "",
                        "%d known failures now pass" % len(now_pass) if now_pass else "",
                        "%d stale entries" % len(stale) if stale else "") if s))
    print("%d passed, %d failed, %d skipped" % (sum(r.status == "pass" for r in results),
                                                len(unexpected),
                                                sum(r.status == "skip" for r in results)))
    return 0 if ok or opt.update_expected else 1


if __name__ == "__main__":
    sys.exit(main())
