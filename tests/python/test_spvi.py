"""Tests of the Python package (python/spvi) over libspvi.so. Expected values come from numpy
computing the same formula, from hand derivation (the comments say how), or from the kernels'
source (the line of a marker comment); never from spvi's own output.

usage: SPVI_LIBRARY=build/libspvi.so PYTHONPATH=python python3 tests/python/test_spvi.py
"""
import os
import shutil
import subprocess
import tempfile
import unittest

import numpy as np

import spvi

# run.sh preloads the sanitizer runtimes into python3 for a SAN=1 library; the compilers the
# library starts (clang-14 ...) are not instrumented and must not inherit them
os.environ.pop("LD_PRELOAD", None)

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "kernels.cl")
BROKEN = os.path.join(HERE, "broken.cl")


def line_of(path, marker):
    """The 1-based line of the source that carries `// line of: marker`."""
    with open(path) as f:
        for n, text in enumerate(f, 1):
            if "// line of: " + marker in text:
                return n
    raise AssertionError("no marker %r in %s" % (marker, path))


# OpenCL C 6.3.5: members aligned to their size, float4 to 16; the struct's size a multiple of 16
ITEM = np.dtype({"names": ["c", "i", "v", "s"], "formats": ["i1", "<i4", ("<f4", (4,)), ("<i2", (3,))],
                 "offsets": [0, 4, 16, 32], "itemsize": 48})


class Saxpy(unittest.TestCase):
    def test_against_numpy(self):
        rng = np.random.default_rng(1)
        x = rng.integers(-1000, 1000, 4096).astype(np.float32) / 8
        y = rng.integers(-1000, 1000, 4096).astype(np.float32) / 8
        # a = 2: a*x is exact, so a contracted (fma) and a separate multiply-add round alike
        r = spvi.run(KERNELS, "saxpy", global_size=(4096,), args=[2.0, x, y])
        np.testing.assert_array_equal(r["y"], np.float32(2) * x + y)
        np.testing.assert_array_equal(r[1], x)  # inputs come back unchanged
        self.assertIsNone(r[0])
        self.assertEqual(r.reports, [])

    def test_shape_and_inputs_kept(self):
        x = np.arange(512, dtype=np.float32).reshape(32, 16)
        y = np.ones((32, 16), np.float32)
        r = spvi.run(KERNELS, "saxpy", global_size=512, args=[np.float32(0.5), x, y], local_size=(64,))
        self.assertEqual(r["y"].shape, (32, 16))
        self.assertEqual(r["y"].dtype, np.float32)
        np.testing.assert_array_equal(r["y"], x * 0.5 + 1)
        np.testing.assert_array_equal(y, np.ones((32, 16), np.float32))  # the caller's array is not written
        self.assertEqual(r.local_size, (64,))

    def test_spirv_module_loads_directly(self):
        if not shutil.which("clang-14") or not shutil.which("llvm-spirv-14"):
            self.skipTest("clang-14 / llvm-spirv-14 not installed")
        with tempfile.TemporaryDirectory() as d:
            bc, spv = os.path.join(d, "k.bc"), os.path.join(d, "k.spv")
            subprocess.check_call(["clang-14", "-cl-std=CL2.0", "-target", "spir64", "-emit-llvm", "-c", "-O0",
                                   "-Xclang", "-finclude-default-header", KERNELS, "-o", bc])
            subprocess.check_call(["llvm-spirv-14", bc, "-o", spv])
            x = np.arange(64, dtype=np.float32)
            r = spvi.run(spv, "saxpy", global_size=(64,), args=[3.0, x, np.zeros(64, np.float32)])
            np.testing.assert_array_equal(r[2], 3 * x)  # no names: llvm-spirv without -g writes no OpName
            with self.assertRaisesRegex(spvi.UsageError, "is a SPIR-V module"):
                spvi.Module(spv, build_options="-g")

    def test_printf(self):
        # work-groups in order, work-items of a group in local id order (spvi_run_options.on_printf)
        r = spvi.run(KERNELS, "hello", global_size=(4,), local_size=(2,), args=[])
        self.assertEqual(r.printf, "gid 0\ngid 1\ngid 2\ngid 3\n")

    def test_spec_constants(self):
        # tests/cli/spec.spvasm: out = [A (SpecId 3), A * 2, B (SpecId 7) ? 1 : 0, bits of F (SpecId 4)]
        with tempfile.TemporaryDirectory() as d:
            spv = os.path.join(d, "spec.spv")
            subprocess.check_call(["spirv-as", os.path.join(HERE, os.pardir, "cli", "spec.spvasm"), "-o", spv])
            r = spvi.run(spv, "spec", global_size=1, args=[np.zeros(4, np.uint32)], spec={3: 21, 7: True, 4: 0.25})
            self.assertEqual(list(r[0]), [21, 42, 1, 0x3e800000])  # 0.25f = 2^-2: exponent 125 << 23

    def test_build_options(self):
        r = spvi.run(KERNELS, "defined", global_size=(8,), args=[np.zeros(8, np.int32)],
                     build_options="-D VALUE=42")
        np.testing.assert_array_equal(r["out"], np.full(8, 42, np.int32))


class Structs(unittest.TestCase):
    def items(self, n):
        a = np.zeros(n, ITEM)
        a["c"] = np.arange(n) - 3
        a["i"] = np.arange(n) * 7
        a["v"] = np.arange(4 * n, dtype=np.float32).reshape(n, 4) / 4
        a["s"][:, 0], a["s"][:, 1] = np.arange(n), 100
        return a

    def test_round_trip(self):
        a = self.items(16)
        r = spvi.run(KERNELS, "bump", global_size=(16,), args=[a, 3], build_options="-g")
        out = r["it"]
        self.assertEqual(out.dtype.itemsize, 48)
        self.assertEqual(out.dtype.names, ("c", "i", "v", "s"))  # the member names (debug info)
        np.testing.assert_array_equal(out["c"], a["c"] + 1)
        np.testing.assert_array_equal(out["i"], a["i"] * 3)
        np.testing.assert_array_equal(out["v"], a["v"] * 2)
        np.testing.assert_array_equal(out["s"][:, 2], a["s"][:, 0] + a["s"][:, 1])
        np.testing.assert_array_equal(out["s"][:, :2], a["s"][:, :2])

    def test_layout_from_module(self):
        with spvi.Module(KERNELS, build_options="-g") as m:
            dt = m.dtype("bump", 0)
        self.assertEqual([dt.fields[n][1] for n in dt.names], [0, 4, 16, 32])
        self.assertEqual(dt.itemsize, 48)

    def test_bytes_come_back_as_structs(self):
        raw = self.items(4).view(np.uint8)
        out = spvi.run(KERNELS, "bump", global_size=(4,), args=[raw, 1])["it"]
        self.assertEqual(out.shape, (4,))
        self.assertEqual(out.dtype.itemsize, 48)

    def test_wrong_layout_refused(self):
        packed = np.dtype([("c", "i1"), ("i", "<i4"), ("v", "<f4", (4,)), ("s", "<i2", (3,))], align=True)
        self.assertNotEqual(packed.itemsize, 48)  # numpy aligns the subarray to 4, not 16
        with self.assertRaisesRegex(TypeError, r"argument 0 `it`.*item size"):
            spvi.run(KERNELS, "bump", global_size=(1,), args=[np.zeros(1, packed), 1])
        shifted = np.dtype({"names": ["c", "i", "v", "s"], "formats": ["i1", "<i4", ("<f4", (4,)), ("<i2", (3,))],
                            "offsets": [0, 8, 16, 32], "itemsize": 48})
        with self.assertRaisesRegex(TypeError, r"argument 0 `it`.*no number at byte 4, where the struct has a i4"):
            spvi.run(KERNELS, "bump", global_size=(1,), args=[np.zeros(1, shifted), 1])


class Vectors(unittest.TestCase):
    def test_float3_and_values(self):
        v = np.arange(30, dtype=np.float32).reshape(10, 3)
        # k = (3, 4): * 7; big >> 40 = 5; small = 250
        r = spvi.run(KERNELS, "vec3", global_size=(10,), args=[v, (3, 4), 5 << 40, np.uint8(250)])
        self.assertEqual(r["v"].shape, (10, 4))  # packed float3 data comes back with its padding slot
        np.testing.assert_array_equal(r["v"][:, :3], v * 7 + 5 + 250)


class LocalMemory(unittest.TestCase):
    def test_group_sum(self):
        x = np.arange(1024, dtype=np.uint32) * 3
        r = spvi.run(KERNELS, "group_sum", global_size=(1024,), local_size=(64,),
                     args=[x, np.zeros(16, np.uint32), spvi.Local(64 * 4)])
        np.testing.assert_array_equal(r["out"], x.reshape(16, 64).sum(axis=1, dtype=np.uint32))


class Images(unittest.TestCase):
    def test_halve(self):
        src = np.arange(4 * 8 * 4, dtype=np.float32).reshape(4, 8, 4)  # (H, W, rgba)
        r = spvi.run(KERNELS, "halve", global_size=(8, 4),
                     args=[spvi.Image(src, "rgba", "float"), spvi.Sampler(False, "none", "nearest"),
                           spvi.Image(np.zeros_like(src), "rgba", "float")])
        self.assertEqual(r["dst"].shape, (4, 8, 4))
        np.testing.assert_array_equal(r["dst"], src * 0.5)  # halving is exact in binary32

    def test_image_errors(self):
        img = np.zeros((4, 8, 4), np.float32)
        s = spvi.Sampler(False, "none", "nearest")
        with self.assertRaisesRegex(ValueError, r"argument 0 `src` .*shape \(H, W, 4\), got \(8, 4\)"):
            spvi.run(KERNELS, "halve", global_size=(8, 4), args=[spvi.Image(img[0], "rgba", "float"), s,
                                                                 spvi.Image(img, "rgba", "float")])
        with self.assertRaisesRegex(TypeError, "unorm8 stores uint8, the pixels are float32"):
            spvi.Image(img, "rgba", "unorm8")
        with self.assertRaisesRegex(ValueError, "channel order 'rgb'"):
            spvi.Image(img, "rgb", "float")
        with self.assertRaisesRegex(TypeError, r"argument 1 `s` .*spvi.Sampler"):
            spvi.run(KERNELS, "halve", global_size=(8, 4), args=[spvi.Image(img, "rgba", "float"), 0,
                                                                 spvi.Image(img, "rgba", "float")])


class FaultsAndReports(unittest.TestCase):
    def test_fault_raises_with_line(self):
        with self.assertRaises(spvi.Fault) as cm:
            spvi.run(KERNELS, "overrun", global_size=(4,), args=[np.zeros(4, np.int32), 4], build_options="-g")
        f = cm.exception
        self.assertEqual(f.kind, "out-of-bounds")
        self.assertEqual(f.line, line_of(KERNELS, "fault"))
        self.assertTrue(f.file.endswith("kernels.cl"), f.file)
        self.assertEqual(f.report.global_id, (0, 0, 0))  # the first work-item already writes out[4]
        self.assertEqual(f.report.arg_index, 0)
        self.assertEqual((f.report.offset, f.report.access_size, f.report.memory_size), (16, 4, 16))
        self.assertIn("out-of-bounds", str(f))

    def test_race_report(self):
        out = np.zeros(1, np.int32)
        r = spvi.run(KERNELS, "racy", global_size=(64,), args=[out], checks="races", build_options="-g")
        self.assertGreaterEqual(len(r.reports), 1)
        rep = r.reports[0]
        self.assertEqual(rep.kind, "race")
        self.assertEqual(rep.line, line_of(KERNELS, "race"))
        self.assertIsNotNone(rep.other)
        self.assertNotEqual(rep.global_id, rep.other.global_id)
        self.assertEqual(spvi.run(KERNELS, "racy", global_size=(64,), args=[out]).reports, [])

    def test_build_error_names_file_and_line(self):
        with self.assertRaises(spvi.BuildError) as cm:
            spvi.Module(BROKEN)
        e = cm.exception
        self.assertEqual(e.file, BROKEN)
        self.assertEqual(e.line, line_of(BROKEN, "error"))
        self.assertIn("did not compile", str(e))
        self.assertIn("undeclared_name", e.log)


class LoadErrors(unittest.TestCase):
    def test_missing_file(self):
        with self.assertRaisesRegex(OSError, "cannot read `/nonexistent/k.cl`"):
            spvi.Module("/nonexistent/k.cl")

    def test_nul_byte(self):
        with tempfile.NamedTemporaryFile(suffix=".cl") as f:
            f.write(b"kernel void k() {}\0")
            f.flush()
            with self.assertRaisesRegex(spvi.ModuleError, "NUL byte at offset 18"):
                spvi.Module(f.name)

    def test_refused_build_option(self):
        with self.assertRaisesRegex(spvi.BuildError, "a build option was refused"):
            spvi.Module(KERNELS, build_options="-cl-std=CL9.9")


class ArgumentErrors(unittest.TestCase):
    def check(self, exc, pattern, kernel, args, **kw):
        with self.assertRaisesRegex(exc, pattern):
            spvi.run(KERNELS, kernel, global_size=(4,), args=args, **kw)

    def test_types(self):
        x, y = np.zeros(4, np.float32), np.zeros(4, np.float32)
        self.check(TypeError, r"argument 1 `x` \(float\*\): dtype float64", "saxpy", [1.0, x.astype(float), y])
        self.check(TypeError, r"argument 0 `a` \(float\): .*number", "saxpy", ["2", x, y])
        self.check(TypeError, r"argument 2 `y` .*numpy array", "saxpy", [1.0, x, [0, 0, 0, 0]])
        self.check(TypeError, r"argument 1 `k` \(int\): .*integer", "bump", [np.zeros(4, ITEM), 1.5])
        self.check(TypeError, r"argument 2 `tmp` .*spvi.Local", "group_sum",
                   [np.zeros(4, np.uint32), np.zeros(4, np.uint32), np.zeros(4, np.uint32)])
        self.check(TypeError, r"argument 1 `k` \(int2\): .*2 values", "vec3", [np.zeros((4, 4), np.float32), (1,), 0, 0])
        self.check(TypeError, r"takes 3 arguments", "saxpy", [1.0, x])

    def test_values(self):
        v = np.zeros((4, 4), np.float32)
        self.check(ValueError, r"argument 3 `small` \(uchar\): .*256 is out of range", "vec3", [v, (1, 1), 0, 256])
        self.check(ValueError, r"argument 3 `small` \(uchar\): .*-1 is out of range \(0 \.\. 255\)", "vec3", [v, (1, 1), 0, -1])
        self.check(ValueError, r"argument 2 `big` \(ulong\): .*out of range", "vec3", [v, (1, 1), 1 << 64, 0])
        self.check(ValueError, r"argument 1 `k` \(int\): .*2147483648 is out of range", "bump", [np.zeros(4, ITEM), 1 << 31])
        self.check(ValueError, r"argument 0 `a` \(float\): .*overflows", "saxpy",
                   [1e39, np.zeros(4, np.float32), np.zeros(4, np.float32)])
        self.check(ValueError, r"argument 0 `v` .*not a whole number", "vec3", [np.zeros(6, np.float32), (1, 1), 0, 0])
        self.check(ValueError, r"checks: unknown check", "racy", [np.zeros(1, np.int32)], checks="race")
        with self.assertRaises(ValueError):
            spvi.Local(0)
        with self.assertRaisesRegex(ValueError, "no kernel `nope`"):
            spvi.run(KERNELS, "nope", global_size=(1,), args=[])


if __name__ == "__main__":
    unittest.main()
