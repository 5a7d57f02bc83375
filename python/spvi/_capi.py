"""ctypes declarations of include/spvi.h: the structs and functions the package uses, field for field.

The library is found in this order: $SPVI_LIBRARY (a path), the build directory of the source tree
this package sits in (python/../build/libspvi.so: used in place with PYTHONPATH=python), then the
dynamic loader's search (`make install` puts libspvi.so in $(PREFIX)/lib; run ldconfig, or set
LD_LIBRARY_PATH, when that directory is not in its cache).
"""
import ctypes as C
import os

c_size = C.c_size_t
ID3 = c_size * 3


class Error(C.Structure):
    _fields_ = [("status", C.c_int), ("message", C.c_char * 1024)]


MESSAGE_FN = C.CFUNCTYPE(None, C.c_void_p, C.c_int, C.c_char_p)
TEXT_FN = C.CFUNCTYPE(None, C.c_void_p, C.POINTER(C.c_char), c_size)


class SpecValue(C.Structure):
    _fields_ = [("id", C.c_uint32), ("value", C.c_char_p), ("bytes", C.c_void_p), ("size", c_size)]


class LoadOptions(C.Structure):
    _fields_ = [("strict", C.c_bool), ("spec", C.POINTER(SpecValue)), ("nspec", C.c_uint),
                ("on_message", MESSAGE_FN), ("user", C.c_void_p)]


class ParamInfo(C.Structure):
    _fields_ = [("name", C.c_char_p), ("type_name", C.c_char_p), ("kind", C.c_int), ("space", C.c_int),
                ("elem_kind", C.c_int), ("elem_bits", C.c_uint), ("vec_width", C.c_uint), ("size", c_size),
                ("is_const", C.c_bool), ("is_volatile", C.c_bool), ("is_restrict", C.c_bool),
                ("source_type_name", C.c_char_p), ("image_type", C.c_int), ("access", C.c_int)]


class Struct(C.Structure):
    pass


class Field(C.Structure):
    _fields_ = [("name", C.c_char_p), ("offset", c_size), ("size", c_size), ("kind", C.c_int), ("bits", C.c_uint),
                ("vec_width", C.c_uint), ("ndims", C.c_uint), ("dims", c_size * 4), ("sub", C.POINTER(Struct))]


Struct._fields_ = [("name", C.c_char_p), ("size", c_size), ("nfields", C.c_int), ("fields", C.POINTER(Field))]


class ImageDesc(C.Structure):
    _fields_ = [("type", C.c_int), ("order", C.c_int), ("channel_type", C.c_int), ("width", c_size),
                ("height", c_size), ("depth", c_size), ("array_size", c_size)]


class Sampler(C.Structure):
    _fields_ = [("normalized", C.c_bool), ("addressing", C.c_int), ("filter", C.c_int)]


class RunOptions(C.Structure):
    _fields_ = [("warp_width", C.c_uint), ("on_printf", TEXT_FN), ("printf_user", C.c_void_p),
                ("flush_denormals", C.c_bool), ("threads", C.c_uint), ("group_begin", C.c_uint64),
                ("group_end", C.c_uint64), ("on_trace", C.c_void_p), ("trace_user", C.c_void_p),
                ("trace_filter", C.c_char_p), ("subgroup_size", C.c_uint), ("checks", C.c_uint),
                ("max_steps", C.c_uint64), ("keep_going", C.c_bool), ("max_memory", C.c_uint64),
                ("shard_index", C.c_uint64), ("shard_count", C.c_uint64)]


_WHERE = [("global_id", ID3), ("local_id", ID3), ("group_id", ID3), ("result_id", C.c_uint32),
          ("opcode", C.c_char * 48), ("function", C.c_char * 96), ("file", C.c_char * 256), ("line", C.c_uint),
          ("column", C.c_uint)]


class Fault(C.Structure):
    _fields_ = [("kind", C.c_int), ("kernel", C.c_char * 128)] + _WHERE + [
        ("arg_index", C.c_int), ("memory", C.c_char * 128), ("offset", C.c_int64), ("access_size", C.c_uint64),
        ("memory_size", C.c_uint64), ("message", C.c_char * 1024)]


class Site(C.Structure):
    _fields_ = _WHERE + [("write", C.c_bool), ("atomic", C.c_bool)]


class Report(C.Structure):
    _fields_ = [("kind", C.c_int), ("kernel", C.c_char * 128), ("at", Site), ("has_other", C.c_bool),
                ("other", Site), ("arg_index", C.c_int), ("memory", C.c_char * 128), ("offset", C.c_int64),
                ("access_size", C.c_uint64), ("memory_size", C.c_uint64), ("count", C.c_uint64),
                ("origin", C.c_char * 160), ("origin_file", C.c_char * 256), ("origin_line", C.c_uint),
                ("message", C.c_char * 2048)]


class RunStats(C.Structure):
    _fields_ = [("exec_seconds", C.c_double), ("instructions", C.c_uint64)]


P = C.c_void_p
PERR = C.POINTER(Error)
# name: (result type, argument types)
_FUNCS = {
    "spvi_load_source": (P, [C.c_char_p, C.c_char_p, C.POINTER(LoadOptions), PERR]),
    "spvi_module_free": (None, [P]),
    "spvi_kernel_count": (C.c_int, [P]),
    "spvi_kernel_name": (C.c_char_p, [P, C.c_int]),
    "spvi_find_kernel": (C.c_int, [P, C.c_char_p]),
    "spvi_kernel_param_count": (C.c_int, [P, C.c_int]),
    "spvi_kernel_param": (C.POINTER(ParamInfo), [P, C.c_int, C.c_int]),
    "spvi_param_struct": (C.POINTER(Struct), [P, C.c_int, C.c_int]),
    "spvi_struct_free": (None, [C.POINTER(Struct)]),
    "spvi_launch_new": (P, [P, C.c_int, PERR]),
    "spvi_launch_free": (None, [P]),
    "spvi_set_arg_value": (C.c_int, [P, C.c_int, C.c_void_p, c_size, PERR]),
    "spvi_set_arg_buffer": (C.c_int, [P, C.c_int, C.c_void_p, c_size, PERR]),
    "spvi_set_arg_local": (C.c_int, [P, C.c_int, c_size, PERR]),
    "spvi_set_arg_mem": (C.c_int, [P, C.c_int, C.c_void_p, PERR]),
    "spvi_set_arg_image": (C.c_int, [P, C.c_int, C.POINTER(ImageDesc), C.c_void_p, c_size, PERR]),
    "spvi_set_arg_sampler": (C.c_int, [P, C.c_int, C.POINTER(Sampler), PERR]),
    "spvi_set_ndrange": (C.c_int, [P, C.c_uint, C.POINTER(c_size), C.POINTER(c_size), C.POINTER(c_size), PERR]),
    "spvi_launch_local_size": (None, [P, C.POINTER(c_size)]),
    "spvi_run": (C.c_int, [P, C.POINTER(RunOptions), C.POINTER(Fault), PERR]),
    "spvi_arg_buffer": (C.c_void_p, [P, C.c_int, C.POINTER(c_size)]),
    "spvi_arg_image": (C.c_void_p, [P, C.c_int, C.POINTER(ImageDesc), C.POINTER(c_size)]),
    "spvi_report_count": (c_size, [P]),
    "spvi_report_get": (C.POINTER(Report), [P, c_size]),
    "spvi_report_kind_id": (C.c_char_p, [C.c_int]),
    "spvi_report_kind_name": (C.c_char_p, [C.c_int]),
    "spvi_fault_kind_id": (C.c_char_p, [C.c_int]),
    "spvi_fault_kind_name": (C.c_char_p, [C.c_int]),
    "spvi_launch_stats": (None, [P, C.POINTER(RunStats)]),
    "spvi_half_from_double": (C.c_uint16, [C.c_double]),
    "spvi_image_channels": (C.c_uint, [C.c_int]),
    "spvi_channel_order_name": (C.c_char_p, [C.c_int]),
    "spvi_channel_type_name": (C.c_char_p, [C.c_int]),
    "spvi_image_type_name": (C.c_char_p, [C.c_int]),
}


def _candidates():
    env = os.environ.get("SPVI_LIBRARY")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    tree = os.path.join(here, os.pardir, os.pardir, "build", "libspvi.so")
    return ([os.path.normpath(tree)] if os.path.exists(tree) else []) + ["libspvi.so"]


def _open():
    tried = []
    for path in _candidates():
        try:
            lib = C.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
            continue
        for name, (res, args) in _FUNCS.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = res, args
        return lib
    raise ImportError("spvi: cannot load libspvi.so (build it with `make`, or set SPVI_LIBRARY to its path); tried: " +
                      "; ".join(tried))


lib = _open()
