"""Python objects of spvi's reports and errors, and numpy dtypes of kernel parameters."""
import re

import numpy as np

from . import _capi

# spvi_scalar (include/spvi.h)
S_BOOL, S_INT, S_UINT, S_FLOAT, S_OTHER = 1, 2, 3, 4, 5
# spvi_status
OK, FAULT, E_USAGE, E_MODULE, E_IO, E_NOMEM, E_BUILD = range(7)


def _s(b):
    return b.decode("utf-8", "replace") if b else ""


class Error(Exception):
    """An spvi call failed (spvi_error): `status` is the spvi_status, str() the library's message."""

    def __init__(self, message, status=E_USAGE):
        super().__init__(message)
        self.status = status


class UsageError(Error, ValueError):
    """The library refused an argument, the NDRange or an option (SPVI_E_USAGE)."""


class ModuleError(Error):
    """The module is malformed, invalid or uses something spvi does not support (SPVI_E_MODULE)."""


class BuildError(Error):
    """OpenCL C source did not compile. `log` is the compiler's whole log; `file`, `line` and
    `column` locate its first error (None when the log names no place)."""

    def __init__(self, message, log):
        super().__init__(message, E_BUILD)
        self.log = log
        m = re.search(r"^(.+?):(\d+):(?:(\d+):)? (?:fatal )?error:", log, re.M)
        self.file = m.group(1) if m else None
        self.line = int(m.group(2)) if m else None
        self.column = int(m.group(3)) if m and m.group(3) else None


def raise_error(err, log=""):
    msg = _s(err.message)
    cls = {E_USAGE: UsageError, E_MODULE: ModuleError, E_IO: OSError, E_NOMEM: MemoryError}.get(err.status, Error)
    if err.status == E_BUILD:
        raise BuildError(msg, log)
    if cls in (OSError, MemoryError):
        raise cls(msg)
    raise cls(msg, err.status)


class Site:
    """One work-item at one instruction: ids, SPIR-V instruction, function and source place."""

    def __init__(self, c):
        self.global_id = tuple(c.global_id)
        self.local_id = tuple(c.local_id)
        self.group_id = tuple(c.group_id)
        self.result_id = c.result_id
        self.opcode = _s(c.opcode)
        self.function = _s(c.function)
        self.file = _s(c.file) or None
        self.line = c.line or None
        self.column = c.column or None
        self.write = getattr(c, "write", None)
        self.atomic = getattr(c, "atomic", None)

    def __repr__(self):
        where = "%s:%s" % (self.file, self.line) if self.file else self.opcode
        return "Site(global_id=%s, %s)" % (self.global_id, where)


class Report(Site):
    """A check's finding (spvi_report): the run went on. `kind` is the stable id ("race", "uninit",
    "div-by-zero" ...), `name` the readable one, `message` the whole text spvi prints; the
    first occurrence's work-item and place are the attributes of Site (`global_id`, `file`,
    `line` ...), `other` the conflicting access of a race (a Site, or None)."""

    def __init__(self, c):
        super().__init__(c.at)
        self.kind = _s(_capi.lib.spvi_report_kind_id(c.kind))
        self.name = _s(_capi.lib.spvi_report_kind_name(c.kind))
        self.kernel = _s(c.kernel)
        self.other = Site(c.other) if c.has_other else None
        self.arg_index = c.arg_index if c.arg_index >= 0 else None
        self.memory = _s(c.memory) or None
        self.offset, self.access_size, self.memory_size = c.offset, c.access_size, c.memory_size
        self.count = c.count
        self.origin = _s(c.origin) or None
        self.origin_file = _s(c.origin_file) or None
        self.origin_line = c.origin_line or None
        self.message = _s(c.message)

    def __repr__(self):
        return "Report(%r, global_id=%s, %s:%s, count=%d)" % (self.kind, self.global_id, self.file, self.line,
                                                              self.count)

    def __str__(self):
        return self.message


class FaultReport(Site):
    """The fault that stopped a run (spvi_fault), with the attributes of Report that apply."""

    def __init__(self, c):
        super().__init__(c)
        self.kind = _s(_capi.lib.spvi_fault_kind_id(c.kind))
        self.name = _s(_capi.lib.spvi_fault_kind_name(c.kind))
        self.kernel = _s(c.kernel)
        self.arg_index = c.arg_index if c.arg_index >= 0 else None
        self.memory = _s(c.memory) or None
        self.offset, self.access_size, self.memory_size = c.offset, c.access_size, c.memory_size
        self.message = _s(c.message)

    def __repr__(self):
        return "FaultReport(%r, global_id=%s, %s:%s)" % (self.kind, self.global_id, self.file, self.line)


class Fault(Exception):
    """The kernel faulted (out-of-bounds access, barrier divergence ...). `report` is the fault
    (a FaultReport: kind, message, work-item ids, file and line); `reports` the check reports
    found before it; `kind`, `file` and `line` repeat the report's."""

    def __init__(self, report, reports):
        super().__init__(report.message)
        self.report = report
        self.reports = reports
        self.kind, self.file, self.line = report.kind, report.file, report.line


# ---- numpy dtypes of SPIR-V scalars --------------------------------------------------------------

def scalar_dtype(kind, bits):
    """The little-endian numpy dtype of an spvi_scalar of `bits` bits, None when there is none."""
    if kind == S_FLOAT and bits in (16, 32, 64):
        return np.dtype("<f%d" % (bits // 8))
    if kind in (S_INT, S_UINT) and bits in (8, 16, 32, 64):
        return np.dtype("<%s%d" % ("i" if kind == S_INT else "u", bits // 8))
    if kind == S_BOOL:
        return np.dtype("?")
    return None


def struct_dtype(s):
    """The numpy structured dtype of an spvi_struct, as `spvi run --out` writes it: explicit
    offsets and item size (OpenCL C 6.3.5 alignment, which numpy's align=True does not give for
    vectors), vectors as a subarray of their memory slots, arrays as subarrays, nested structs
    as nested dtypes."""
    names, formats, offsets = [], [], []
    for i in range(s.nfields):
        f = s.fields[i]
        dims = tuple(f.dims[d] for d in range(f.ndims))
        if f.sub:
            base = struct_dtype(f.sub.contents)
        else:
            base = scalar_dtype(f.kind, f.bits) if f.bits else None
            if base is None:
                base = np.dtype("V%d" % f.size)
            elif f.vec_width > 1:
                dims += (f.size // base.itemsize,)
        names.append(_s(f.name) or "f%d" % i)
        formats.append((base, dims) if dims else base)
        offsets.append(f.offset)
    return np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": s.size})


def leaves(dt, base=0, out=None):
    """The numbers of a dtype, in offset order: (offset, kind, bytes) per scalar, with 'i' for any
    integer (SPIR-V integers carry no sign, so signedness is not compared) and padding left out."""
    out = [] if out is None else out
    if dt.subdtype:
        sub, shape = dt.subdtype
        step = sub.itemsize
        for k in range(int(np.prod(shape))):
            leaves(sub, base + k * step, out)
    elif dt.names:
        for name in dt.names:
            fdt, off = dt.fields[name][:2]
            leaves(fdt, base + off, out)
    elif dt.kind != "V":
        out.append((base, "i" if dt.kind in "iu" else dt.kind, dt.itemsize))
    return out
