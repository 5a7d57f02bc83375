"""png_check.py — reads a PNG written by `spvi run --out` with zlib alone (PNG spec, ISO/IEC
15948: chunks, IHDR, IDAT, the five scanline filters of section 9) and compares it pixel by pixel
with the conversion docs/cli.md ("Images") states, computed here from the image's .npy values.

usage: png_check.py PNG NPY ORDER CHANNELTYPE [LAYER]
"""
import struct
import sys
import zlib

import numpy as np


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "no PNG signature"
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + n]
        assert zlib.crc32(kind + body) == struct.unpack(">I", data[pos + 8 + n : pos + 12 + n])[0], "bad CRC"
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = ihdr
    assert interlace == 0
    nch = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    bpp = nch * depth // 8
    raw = zlib.decompress(idat)
    stride = w * bpp
    out, prev = [], bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
            else:
                assert f == 0, "filter %d" % f
        out.append(bytes(line))
        prev = line
    dt = ">u2" if depth == 16 else "u1"
    pix = np.frombuffer(b"".join(out), dtype=dt).reshape(h, w, nch).astype(np.int64)
    return pix, depth, ctype


def expected(vals, ctype_name):
    """The documented conversion of channel values to PNG samples, and the sample depth."""
    v = vals.astype(np.float64)
    if ctype_name in ("unorm8", "uint8"):
        return vals.astype(np.int64), 8
    if ctype_name in ("unorm16", "uint16"):
        return vals.astype(np.int64), 16
    if ctype_name == "int8":
        return np.clip(vals.astype(np.int64), 0, 127), 8
    if ctype_name == "int16":
        return np.clip(vals.astype(np.int64), 0, 32767), 16
    if ctype_name in ("int32", "uint32"):
        return np.clip(vals.astype(np.int64), 0, 65535), 16
    if ctype_name in ("snorm8", "snorm16"):
        top, full = (127, 255) if ctype_name == "snorm8" else (32767, 65535)
        x = np.clip(v / top, 0, 1) * full  # negative: black; rounding half up
        return np.floor(x + 0.5).astype(np.int64), 8 if top == 127 else 16
    x = np.where(np.isnan(v), 0, np.clip(v, 0, 1))  # half, float
    return np.floor(x * 255 + 0.5).astype(np.int64), 8


# PNG channels from the image's channels, per order (None: 0), and the PNG colour type.
LAYOUT = {
    "r": ([0], 0), "a": ([0], 0), "intensity": ([0], 0), "luminance": ([0], 0),
    "rg": ([0, 1, None], 2), "ra": ([0, 1], 4),
    "rgba": ([0, 1, 2, 3], 6), "srgba": ([0, 1, 2, 3], 6),
    "bgra": ([2, 1, 0, 3], 6), "sbgra": ([2, 1, 0, 3], 6),
    "argb": ([1, 2, 3, 0], 6), "abgr": ([3, 2, 1, 0], 6),
}


def main():
    png, npy, order, ctype_name = sys.argv[1:5]
    vals = np.load(npy)
    if len(sys.argv) > 5:
        vals = vals[int(sys.argv[5])]
    if vals.ndim == 2:  # (W, C): one row
        vals = vals[np.newaxis]
    conv, depth = expected(vals, ctype_name)
    src, ctype = LAYOUT[order]
    want = np.stack([conv[..., s] if s is not None else np.zeros(conv.shape[:2], np.int64) for s in src], axis=-1)
    pix, got_depth, got_ctype = read_png(png)
    assert (got_depth, got_ctype) == (depth, ctype), "depth/colour type %s, expected %s" % ((got_depth, got_ctype), (depth, ctype))
    assert pix.shape == want.shape, "shape %s, expected %s" % (pix.shape, want.shape)
    bad = np.argwhere(pix != want)
    assert len(bad) == 0, "%d samples differ, first at %s: %d, expected %d" % (
        len(bad), tuple(bad[0]), pix[tuple(bad[0])], want[tuple(bad[0])])


if __name__ == "__main__":
    main()
