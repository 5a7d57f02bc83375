"""spvi — run OpenCL C kernels and SPIR-V modules on spvi, the reference interpreter, from Python.

    import numpy as np, spvi
    x = np.arange(1024, dtype=np.float32); y = np.ones(1024, np.float32)
    out = spvi.run("saxpy.cl", "saxpy", global_size=(1024,), args=[2.0, x, y])
    out["y"]          # or out[2]: the buffer after the run, shape and dtype of y

A .cl file is compiled the way `spvi run k.cl` compiles it (spvi_load_source); a SPIR-V module is
loaded as it is. Faults raise spvi.Fault; check reports come back in Result.reports. See
docs/python.md.
"""
import ctypes as C

from . import _capi
from ._args import Image, Local, Param, Sampler, set_arg
from ._types import (BuildError, Error, Fault, FaultReport, ModuleError, Report, Site, UsageError, raise_error)

__all__ = ["run", "Module", "Result", "Local", "Image", "Sampler", "Fault", "FaultReport", "Report", "Site", "Error", "BuildError",
           "ModuleError", "UsageError"]
__version__ = "0.1.0"

# --check's names (SPVI_CHECK_*)
CHECKS = {"races": 1, "uninit": 2, "all": 3}


def _checks(checks):
    if checks is None:
        return 0
    names = checks.split(",") if isinstance(checks, str) else list(checks)
    flags = 0
    for n in names:
        if n not in CHECKS:
            raise ValueError("checks: unknown check %r (the checks are %s)" % (n, ", ".join(sorted(CHECKS))))
        flags |= CHECKS[n]
    return flags


def _count(name, v, lo, hi=None):
    if v is None:
        return 0
    if not isinstance(v, int) or isinstance(v, bool) or v < lo or (hi is not None and v > hi):
        raise ValueError("%s must be an integer %s, got %r" % (name, "in %d .. %d" % (lo, hi) if hi else
                                                               "of at least %d" % lo, v))
    return v


def _sizes(name, v, dims=None):
    if v is None:
        return None
    t = tuple(v) if isinstance(v, (tuple, list)) else (v,)
    if not 1 <= len(t) <= 3 or any(not isinstance(x, int) or isinstance(x, bool) or x < 0 for x in t):
        raise ValueError("%s must be 1 to 3 non-negative integers, got %r" % (name, v))
    if dims is not None and len(t) != dims:
        raise ValueError("%s has %d dimensions, global_size %d" % (name, len(t), dims))
    return t


class Result:
    """What a run gives: `outputs` (one entry per kernel parameter: the buffer's contents after
    the run as a numpy array, None for other parameters), indexable by position or parameter
    name (result[2], result["y"]); `reports` (spvi.Report, the checks' findings); `printf` (the
    kernel's printf output); `local_size` (the work-group size used); `instructions`."""

    def __init__(self, params, outputs, reports, printf, local_size, instructions):
        self.params, self.outputs, self.reports = params, outputs, reports
        self.printf, self.local_size, self.instructions = printf, local_size, instructions

    def __getitem__(self, key):
        if isinstance(key, str):
            for p in self.params:
                if p.name == key:
                    return self.outputs[p.index]
            raise KeyError("no parameter named %r (parameters: %s)" % (key, ", ".join(p.name for p in self.params)))
        return self.outputs[key]

    def __len__(self):
        return len(self.outputs)

    def __repr__(self):
        return "Result(%d outputs, %d reports)" % (sum(o is not None for o in self.outputs), len(self.reports))


class Module:
    """A loaded module: `path` is OpenCL C source (compiled with `build_options`, OpenCL build
    options such as "-D N=4 -cl-std=CL2.0 -g") or a SPIR-V module. `spec` maps SpecIds to values.
    `log` holds the compiler's log and the loader's warnings."""

    def __init__(self, path, build_options=None, strict=False, spec=None):
        self.log = ""
        self._m = None

        def on_message(user, severity, text):
            self.log += text.decode("utf-8", "replace") + ("" if text.endswith(b"\n") else "\n")

        self._cb = _capi.MESSAGE_FN(on_message)
        specs = [(int(k), ("true" if v is True else "false" if v is False else str(v)).encode())
                 for k, v in (spec or {}).items()]
        arr = (_capi.SpecValue * max(1, len(specs)))(*[_capi.SpecValue(k, v, None, 0) for k, v in specs])
        opts = _capi.LoadOptions(bool(strict), arr, len(specs), self._cb, None)
        err = _capi.Error()
        m = _capi.lib.spvi_load_source(str(path).encode(), (build_options or "").encode(), C.byref(opts),
                                       C.byref(err))
        if not m:
            raise_error(err, self.log)
        self._m = m

    def close(self):
        if self._m:
            _capi.lib.spvi_module_free(self._m)
            self._m = None

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def kernels(self):
        return [_capi.lib.spvi_kernel_name(self._m, k).decode() for k in range(_capi.lib.spvi_kernel_count(self._m))]

    def _kernel(self, name):
        k = _capi.lib.spvi_find_kernel(self._m, name.encode())
        if k < 0:
            raise ValueError("no kernel `%s` in the module (kernels: %s)" % (name, ", ".join(self.kernels)))
        return k

    def params(self, kernel):
        k = self._kernel(kernel)
        return [Param(self._m, k, i) for i in range(_capi.lib.spvi_kernel_param_count(self._m, k))]

    def dtype(self, kernel, index):
        """The numpy dtype of a buffer parameter's elements: the structured dtype of a struct."""
        p = self.params(kernel)[index]
        return p.struct if p.struct is not None else p.scalar

    def run(self, kernel, global_size, args, local_size=None, global_offset=None, warp=None, threads=None,
            checks=None, max_steps=None, subgroup_size=None, keep_going=False, flush_denormals=False):
        """Runs `kernel` over the NDRange; see spvi.run."""
        params = self.params(kernel)
        if len(args) != len(params):
            raise TypeError("kernel `%s` takes %d arguments (%s), %d given" % (
                kernel, len(params), ", ".join(p.type_name + (" " + p.name if p.name else "") for p in params),
                len(args)))
        g = _sizes("global_size", global_size)
        ls, off = _sizes("local_size", local_size, len(g)), _sizes("global_offset", global_offset, len(g))
        opts = _capi.RunOptions()
        opts.warp_width = _count("warp", warp, 1, 64)
        opts.threads = _count("threads", threads, 1)
        opts.subgroup_size = _count("subgroup_size", subgroup_size, 1, 64)
        opts.max_steps = _count("max_steps", max_steps, 1)
        opts.checks, opts.keep_going, opts.flush_denormals = _checks(checks), bool(keep_going), bool(flush_denormals)
        printed = []
        opts.on_printf = _capi.TEXT_FN(lambda u, t, n: printed.append(C.string_at(t, n)))
        err = _capi.Error()
        launch = _capi.lib.spvi_launch_new(self._m, self._kernel(kernel), C.byref(err))
        if not launch:
            raise_error(err)
        try:
            return self._launch(launch, params, args, g, ls, off, opts, printed)
        finally:
            _capi.lib.spvi_launch_free(launch)

    def _launch(self, launch, params, args, g, ls, off, opts, printed):
        keep = []  # the arrays whose bytes spvi_set_arg_buffer copies, alive until it has
        backs = [set_arg(launch, p, a, keep) for p, a in zip(params, args)]
        err = _capi.Error()
        arr = lambda t: (_capi.c_size * len(t))(*t) if t else None  # noqa: E731
        if _capi.lib.spvi_set_ndrange(launch, len(g), arr(g), arr(ls), arr(off), C.byref(err)):
            raise_error(err)
        fault = _capi.Fault()
        st = _capi.lib.spvi_run(launch, C.byref(opts), C.byref(fault), C.byref(err))
        reports = [Report(_capi.lib.spvi_report_get(launch, i).contents)
                   for i in range(_capi.lib.spvi_report_count(launch))]
        if st == 1:
            raise Fault(FaultReport(fault), reports)
        if st:
            raise_error(err)
        local = (_capi.c_size * 3)()
        _capi.lib.spvi_launch_local_size(launch, local)
        stats = _capi.RunStats()
        _capi.lib.spvi_launch_stats(launch, C.byref(stats))
        outputs = [b() if b else None for b in backs]
        return Result(params, outputs, reports, b"".join(printed).decode("utf-8", "replace"), tuple(local[:len(g)]),
                      stats.instructions)


def run(path, kernel, global_size, args, local_size=None, build_options=None, strict=False, spec=None, **options):
    """Loads `path` (OpenCL C source or a SPIR-V module) and runs `kernel` over global_size
    (1 to 3 sizes) with `args`, one per kernel parameter:

      numpy array          a __global or __constant buffer (dtype checked against the parameter's
                           element type; a structured dtype for a struct; copied, never changed)
      None                 a null buffer pointer
      int, float, numpy    a by-value scalar, typed by the parameter (range-checked, never clamped)
      scalar, sequence     a by-value vector (one number per component)
      structured item      a by-value struct (or its bytes)
      spvi.Local(nbytes)   a __local pointer
      spvi.Image(pixels, order, channel_type)   an image (the parameter's image type)
      spvi.Sampler(normalized, addressing, filter)   a sampler_t

    Options: local_size (None: spvi picks), global_offset, warp (lanes, 1..64), threads,
    checks ("races", "uninit", "all", or a list), max_steps, subgroup_size, keep_going,
    flush_denormals; build_options (OpenCL build options for a .cl file), strict, spec.

    Returns a Result (result[i] / result["name"]: the buffers after the run). Raises spvi.Fault
    when the kernel faults, spvi.BuildError when the source does not compile, TypeError or
    ValueError naming the parameter for a wrong argument."""
    with Module(path, build_options=build_options, strict=strict, spec=spec) as m:
        return m.run(kernel, global_size, args, local_size=local_size, **options)
