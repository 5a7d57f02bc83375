"""Kernel arguments: Python and numpy values checked against the parameter and turned into the
bytes spvi_set_arg_* take. Every refusal names the argument (index, name and OpenCL C type)."""
import ctypes as C
import numbers
import struct

import numpy as np

from . import _capi
from ._types import S_BOOL, S_FLOAT, S_INT, S_OTHER, S_UINT, scalar_dtype, struct_dtype, leaves

# spvi_param_kind
P_VALUE, P_BUFFER, P_LOCAL, P_OPAQUE, P_IMAGE, P_SAMPLER = range(6)


class Local:
    """A __local pointer argument: `nbytes` bytes of local memory per work-group."""

    def __init__(self, nbytes):
        if not isinstance(nbytes, numbers.Integral) or isinstance(nbytes, bool) or nbytes < 1:
            raise ValueError("spvi.Local(%r): the size is a whole number of bytes, at least 1" % (nbytes,))
        self.nbytes = int(nbytes)

    def __repr__(self):
        return "Local(%d)" % self.nbytes


# OpenCL C 6.1.1's integer types by sign, as the source spells them
_SIGNED = {"char", "short", "int", "long", "signed char", "signed short", "signed int", "signed long"}
_UNSIGNED = {"uchar", "ushort", "uint", "ulong", "unsigned char", "unsigned short", "unsigned int",
             "unsigned long", "size_t", "uintptr_t", "bool"}


def _signedness(source_type):
    """True / False when the source type's scalar (vector components, pointee) is a signed /
    unsigned integer type of OpenCL C, None when unknown (a typedef, no arg info)."""
    t = source_type.replace("const", "").replace("volatile", "").replace("*", "").strip()
    t = t.rstrip("0123456789") if t[-2:].isdigit() or t[-1:].isdigit() else t  # uint4 -> uint
    return True if t in _SIGNED else False if t in _UNSIGNED else None


def _names(fn, top=32):
    """name -> value of an spvi enum, by the library's own names (spvi_channel_order_name ...)."""
    return {fn(i).decode(): i for i in range(top) if fn(i)}


ORDERS = _names(_capi.lib.spvi_channel_order_name)
CHANNEL_TYPES = _names(_capi.lib.spvi_channel_type_name)
IMAGE_TYPES = _names(_capi.lib.spvi_image_type_name)
# the numpy dtype of each channel type's stored values (OpenCL API "Image Format Descriptor": CL_UNORM_INT8 ...)
CHANNEL_DTYPES = {"snorm8": "i1", "snorm16": "<i2", "unorm8": "u1", "unorm16": "<u2", "int8": "i1",
                  "int16": "<i2", "int32": "<i4", "uint8": "u1", "uint16": "<u2", "uint32": "<u4",
                  "half": "<f2", "float": "<f4"}
# the array dimensions of each image type before the channels, outermost first, as spvi_image_desc
# fields (spvi run --out writes images in these shapes)
IMAGE_DIMS = {"image1d": ("width",), "image1d_buffer": ("width",), "image1d_array": ("array_size", "width"),
              "image2d": ("height", "width"), "image2d_array": ("array_size", "height", "width"),
              "image3d": ("depth", "height", "width")}
ADDRESSING = {"none": 0, "clamp_to_edge": 1, "clamp": 2, "repeat": 3, "mirrored_repeat": 4}
FILTERS = {"nearest": 0, "linear": 1}


def _pick(table, what, v):
    if v not in table:
        raise ValueError("%s %r: one of %s" % (what, v, ", ".join(table)))
    return table[v]


class Image:
    """An image argument: `pixels` holds the channels of `order` ("rgba", "r", ...) with the dtype
    of `channel_type` ("unorm8": uint8, "float": float32 ...; docs/python.md), shaped (W, C) for a
    1D image or buffer, (N, W, C) 1D array, (H, W, C) 2D, (N, H, W, C) 2D array, (D, H, W, C) 3D,
    C the order's channels. The image type is the parameter's."""

    def __init__(self, pixels, order, channel_type):
        self.order = _pick(ORDERS, "channel order", order)
        self.channel_type = _pick(CHANNEL_TYPES, "channel type", channel_type)
        self.names = (order, channel_type)
        if not isinstance(pixels, np.ndarray):
            raise TypeError("spvi.Image: the pixels are a numpy array, got %s" % type(pixels).__name__)
        if pixels.dtype != np.dtype(CHANNEL_DTYPES[channel_type]):
            raise TypeError("spvi.Image: channel type %s stores %s, the pixels are %s"
                            % (channel_type, np.dtype(CHANNEL_DTYPES[channel_type]), pixels.dtype))
        self.pixels = np.ascontiguousarray(pixels)


class Sampler:
    """A sampler_t argument: normalized coordinates or not, addressing ("none", "clamp_to_edge",
    "clamp", "repeat", "mirrored_repeat") and filter ("nearest", "linear"), as OpenCL C spells
    them (CLK_ADDRESS_REPEAT ...)."""

    def __init__(self, normalized, addressing, filter):
        self.c = _capi.Sampler(bool(normalized), _pick(ADDRESSING, "addressing", addressing),
                               _pick(FILTERS, "filter", filter))


class Param:
    """A kernel parameter as spvi_kernel_param describes it, with the numpy dtype of its
    elements (buffers) or value (by value) and its struct layout when it has one."""

    def __init__(self, module, kernel, index):
        p = _capi.lib.spvi_kernel_param(module, kernel, index).contents
        self.index = index
        self.name = (p.name or b"").decode()
        self.type_name = (p.type_name or b"").decode()
        self.kind, self.elem_kind, self.bits, self.width, self.size = (p.kind, p.elem_kind, p.elem_bits,
                                                                      p.vec_width, p.size)
        self.is_const = p.is_const
        self.image_type = p.image_type
        # the source's spelling ("uchar", "uint*") when the module has it: it gives the sign SPIR-V
        # integers lack (spvi_param_info.source_type_name)
        self.source_type = (p.source_type_name or b"").decode()
        self.signed = _signedness(self.source_type) if self.elem_kind in (S_INT, S_UINT) else None
        self.scalar = scalar_dtype(self.elem_kind, self.bits) if self.bits else None
        s = _capi.lib.spvi_param_struct(module, kernel, index)
        self.struct = struct_dtype(s.contents) if s else None
        if s:
            _capi.lib.spvi_struct_free(s)

    def label(self):
        typ = self.source_type or self.type_name
        return "argument %d%s (%s)" % (self.index, " `%s`" % self.name if self.name else "", typ)

    def slots(self):
        """Memory slots of one element (float3: 4), 1 for scalars."""
        return self.size // self.scalar.itemsize if self.width > 1 else 1


def _type_error(p, what):
    return TypeError("%s: %s" % (p.label(), what))


def _value_error(p, what):
    return ValueError("%s: %s" % (p.label(), what))


# ---- by value ---------------------------------------------------------------------------------

def _int_bits(p, v, name):
    """An integer of p's width: the range of its type when the source type names its sign
    (int: -2^(N-1) .. 2^(N-1)-1, uint: 0 .. 2^N-1), else -2^(N-1) .. 2^N-1 (SPIR-V integers carry
    no sign: the rule of `spvi run`'s values)."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (numbers.Integral, np.integer)):
        raise _type_error(p, "%s must be an integer, got %s %r" % (name, type(v).__name__, v))
    v, n = int(v), p.bits
    lo = 0 if p.signed is False else -(1 << (n - 1))
    hi = (1 << (n - 1)) - 1 if p.signed else (1 << n) - 1
    if not lo <= v <= hi:
        raise _value_error(p, "%s %d is out of range (%d .. %d)" % (name, v, lo, hi))
    return v & ((1 << n) - 1)


def _float_bits(p, v, name):
    """A float, double or half of p's width, rounded to nearest; ints are taken as their value."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (numbers.Real, np.floating, np.integer)):
        raise _type_error(p, "%s must be a number, got %s %r" % (name, type(v).__name__, v))
    d = float(v)
    if p.bits == 16:
        h = _capi.lib.spvi_half_from_double(d)
        if (h & 0x7fff) == 0x7c00 and abs(d) != float("inf"):
            raise _value_error(p, "%s %r overflows half" % (name, v))
        return h
    try:
        return int.from_bytes(struct.pack("<f" if p.bits == 32 else "<d", d), "little")
    except OverflowError:
        raise _value_error(p, "%s %r overflows float" % (name, v)) from None


def _scalar_bytes(p, v, name):
    if p.elem_kind in (S_INT, S_UINT):
        bits = _int_bits(p, v, name)
    elif p.elem_kind == S_FLOAT:
        bits = _float_bits(p, v, name)
    else:
        raise _type_error(p, "spvi cannot make a value of this type from %r" % (v,))
    return bits.to_bytes(p.bits // 8, "little")


def _struct_value(p, v):
    if isinstance(v, (bytes, bytearray)):
        return bytes(v)
    a = np.asarray(v)
    if a.dtype.names is None or a.size != 1:
        raise _type_error(p, "a struct is given as one item of a numpy structured dtype (or bytes), got %r" % (v,))
    _check_struct_dtype(p, a.dtype)
    return a.tobytes()


def value_bytes(p, v):
    """The bytes of a by-value argument (spvi_set_arg_value)."""
    if p.struct is not None or p.elem_kind == S_OTHER:
        data = _struct_value(p, v)
    elif p.width > 1:
        items = list(v) if isinstance(v, (list, tuple, np.ndarray)) else None
        if items is None or len(items) != p.width:
            raise _type_error(p, "a vector of %d values is a sequence of %d numbers, got %r" % (p.width, p.width, v))
        data = b"".join(_scalar_bytes(p, x, "value %d" % (k + 1)) for k, x in enumerate(items))
        data += bytes(p.size - len(data))  # the padding slot of a 3-element vector (OpenCL C 6.1.5)
    else:
        if isinstance(v, (list, tuple, np.ndarray)) and np.ndim(v) != 0:
            raise _type_error(p, "a scalar is one number, got %r" % (v,))
        data = _scalar_bytes(p, v.item() if isinstance(v, np.ndarray) else v, "the value")
    if len(data) != p.size:
        raise _value_error(p, "%d bytes given, the parameter takes %d" % (len(data), p.size))
    return data


# ---- buffers ----------------------------------------------------------------------------------

def _check_struct_dtype(p, dt):
    """A structured dtype is the struct's when its item size and its numbers (offset, kind, size;
    padding and names aside) are the struct's, as `spvi run` checks a structured .npy file."""
    want = p.struct
    if dt.itemsize != want.itemsize:
        raise _type_error(p, "the structured dtype's item size is %d bytes, the struct's %d (dtype the kernel "
                             "expects: spvi.Module(...).dtype(kernel, %d))" % (dt.itemsize, want.itemsize, p.index))
    # bytes of the struct the dtype leaves as padding may be chars: clang makes a struct's padding
    # an explicit char array, which a module without debug information cannot tell from a member
    got = {g[0]: g for g in leaves(dt)}
    for e in leaves(want):
        g = got.pop(e[0], None)
        if g is None and e[1:] != ("i", 1):
            raise _type_error(p, "the structured dtype has no number at byte %d, where the struct has a %s%d "
                                 "(expected dtype %s)" % (e[0], e[1], e[2], want))
        if g is not None and g != e:
            raise _type_error(p, "the structured dtype has a %s%d at byte %d where the struct has a %s%d "
                                 "(expected dtype %s)" % (g[1], g[2], g[0], e[1], e[2], want))
    for g in sorted(got.values()):
        raise _type_error(p, "the structured dtype has a %s%d at byte %d, inside no member of the struct "
                             "(expected dtype %s)" % (g[1], g[2], g[0], want))


def _bytes_any_type(p):
    """char*, uchar*, void* (and structs given as bytes) take any element type, as in `spvi run`."""
    return p.struct is None and (p.scalar is None or (p.bits == 8 and p.width == 1 and p.elem_kind != S_BOOL))


def buffer_array(p, a):
    """The C-ordered array whose bytes are p's buffer, and the (dtype, shape) of the array its
    bytes after the run are returned as (the input's)."""
    if not isinstance(a, np.ndarray):
        raise _type_error(p, "a buffer is a numpy array (numpy.array(..., dtype=%s)), got %s"
                          % (p.scalar if p.scalar is not None else "numpy.uint8", type(a).__name__))
    if a.dtype.hasobject or a.dtype.kind in "OUSM":
        raise _type_error(p, "dtype %s holds no numbers spvi can pass" % a.dtype)
    a = np.ascontiguousarray(a)
    shape, dt = a.shape or (1,), a.dtype
    if a.size == 0:
        raise _value_error(p, "the array is empty (a buffer holds at least one element)")
    if dt.names is not None:
        if p.struct is None:
            raise _type_error(p, "a structured array is given for a parameter that points to no struct")
        _check_struct_dtype(p, dt)
    elif p.struct is not None and dt.itemsize == 1:
        if a.nbytes % p.struct.itemsize == 0:  # bytes of whole structs come back as structs, like --out
            n = a.nbytes // p.struct.itemsize
            return a, (p.struct, (n,))
    elif not _bytes_any_type(p):
        want = p.scalar
        same = dt.itemsize == want.itemsize and (dt.kind == want.kind or (dt.kind in "iu" and want.kind in "iu"))
        if not same:
            raise _type_error(p, "dtype %s does not match the parameter's elements (%s)" % (dt, want))
        slots = p.slots()
        if p.width == 3 and shape[-1] == 3:  # packed float3 data: padded to the 4 memory slots
            a = np.concatenate([a, np.zeros(shape[:-1] + (1,), dt)], axis=-1)
            shape = shape[:-1] + (4,)
        elif a.size % slots:
            raise _value_error(p, "%d elements are not a whole number of %s (%d memory slots each)"
                               % (a.size, p.type_name.rstrip("*"), slots))
    return a, (dt, shape)


def _copy_out(ptr, nbytes, dtype, shape):
    """A new array of the argument's bytes after the run (one copy, straight from spvi's memory)."""
    out = np.empty(shape, dtype)
    if not ptr or nbytes != out.nbytes:  # an internal invariant of spvi_arg_buffer / spvi_arg_image
        raise RuntimeError("spvi: the argument holds %d bytes after the run, %d were given" % (nbytes, out.nbytes))
    C.memmove(out.ctypes.data, ptr, nbytes)
    return out


def set_arg(launch, p, v, keep):
    """Sets argument p from v; returns the function that reads its result back, or None."""
    err = _capi.Error()
    if p.kind == P_LOCAL:
        if not isinstance(v, Local):
            raise _type_error(p, "a __local pointer takes spvi.Local(nbytes), got %r" % (v,))
        st = _capi.lib.spvi_set_arg_local(launch, p.index, v.nbytes, C.byref(err))
        back = None
    elif p.kind == P_BUFFER:
        if v is None:
            st, back = _capi.lib.spvi_set_arg_mem(launch, p.index, None, C.byref(err)), None
        else:
            a, (dt, shape) = buffer_array(p, v)
            keep.append(a)
            st = _capi.lib.spvi_set_arg_buffer(launch, p.index, a.ctypes.data, a.nbytes, C.byref(err))

            def back():
                n = _capi.c_size()
                return _copy_out(_capi.lib.spvi_arg_buffer(launch, p.index, C.byref(n)), n.value, dt, shape)
    elif p.kind == P_VALUE:
        data = value_bytes(p, v)
        st, back = _capi.lib.spvi_set_arg_value(launch, p.index, data, len(data), C.byref(err)), None
    elif p.kind == P_IMAGE:
        st, back = _set_image(launch, p, v, keep, err)
    elif p.kind == P_SAMPLER:
        if not isinstance(v, Sampler):
            raise _type_error(p, "a sampler takes spvi.Sampler(normalized, addressing, filter), got %r" % (v,))
        st, back = _capi.lib.spvi_set_arg_sampler(launch, p.index, C.byref(v.c), C.byref(err)), None
    else:
        raise _type_error(p, "parameters of this kind (queues, pipes, events) cannot be passed")
    if st:
        from ._types import raise_error
        raise_error(err)
    return back


def _set_image(launch, p, v, keep, err):
    """spvi_set_arg_image from an spvi.Image, its description from the pixels' shape."""
    if not isinstance(v, Image):
        raise _type_error(p, "an image takes spvi.Image(pixels, order, channel_type), got %r" % (v,))
    tname = [n for n, i in IMAGE_TYPES.items() if i == p.image_type][0]
    dims, px = IMAGE_DIMS[tname], v.pixels
    chans = _capi.lib.spvi_image_channels(v.order)
    want = "(%s, %d)" % (", ".join(d.upper()[0] if d != "array_size" else "N" for d in dims), chans)
    if px.ndim != len(dims) + 1 or px.shape[-1] != chans:
        raise _value_error(p, "the pixels of a %s of %s have shape %s, got %s" % (tname, v.names[0], want, px.shape))
    desc = _capi.ImageDesc(p.image_type, v.order, v.channel_type, *([0] * 4))
    for name, n in zip(dims, px.shape):
        setattr(desc, name, n)
    keep.append(px)
    st = _capi.lib.spvi_set_arg_image(launch, p.index, C.byref(desc), px.ctypes.data, px.nbytes, C.byref(err))

    def back():
        n = _capi.c_size()
        return _copy_out(_capi.lib.spvi_arg_image(launch, p.index, None, C.byref(n)), n.value, px.dtype, px.shape)
    return st, back
