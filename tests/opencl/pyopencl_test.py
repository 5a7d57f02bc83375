#!/usr/bin/env python3
"""pyopencl_test.py — spvi's OpenCL platform under PyOpenCL (Debian python3-pyopencl).

Builds OpenCL C from source, runs a vector addition, a work-group reduction with __local memory
and barriers, and a 2D kernel with a non-uniform NDRange, and compares every result with numpy.
Exits non-zero on a mismatch. tests/opencl/run.sh runs it with the ICD loader pointed at
libspvi-cl.so alone (OCL_ICD_VENDORS); it takes the first platform, so PYOPENCL_CTX is not needed.
"""
import os
import sys

try:
    import numpy as np
    import pyopencl as cl
except ImportError:
    # pyopencl is a Debian package: the system interpreter has it, a pyenv/venv python may not
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    print("pyopencl_test: python3-pyopencl and python3-numpy are needed", file=sys.stderr)
    sys.exit(1)

SOURCE = r"""
kernel void vadd(global const float *a, global const float *b, global float *c, uint n) {
    size_t i = get_global_id(0);
    if (i < n) c[i] = a[i] + b[i];
}

/* one partial sum per work-group: tree reduction in __local memory */
kernel void group_sum(global const int *in, global int *out, local int *scratch) {
    size_t l = get_local_id(0), n = get_local_size(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s >>= 1) {
        if (l < s) scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) out[get_group_id(0)] = scratch[0];
}

/* 2D: out[y][x] = in[y][x] * scale + x - y, and the work-group's linear id */
kernel void grid(global const float *in, global float *out, global int *group, float scale) {
    size_t x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
    out[y * w + x] = in[y * w + x] * scale + (float)x - (float)y;
    group[y * w + x] = (int)(get_group_id(1) * get_num_groups(0) + get_group_id(0));
}
"""


def fail(what):
    print("pyopencl_test: FAILED: " + what, file=sys.stderr)
    sys.exit(1)


def main():
    platforms = cl.get_platforms()
    if not platforms:
        fail("no OpenCL platform")
    platform = platforms[0]
    device = platform.get_devices()[0]
    print("platform: %s / device: %s" % (platform.name, device.name))
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, SOURCE).build(options=["-cl-std=CL2.0"])
    mf = cl.mem_flags
    rng = np.random.default_rng(1234)

    # vector addition, with a global size that is not a multiple of the local size
    n = 10007
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    da = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    db = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
    dc = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
    prog.vadd(queue, (n,), (64,), da, db, dc, np.uint32(n))
    c = np.empty_like(a)
    cl.enqueue_copy(queue, c, dc)
    if not np.array_equal(c, a + b):  # float addition is exact to compare: same rounding
        fail("vadd differs from numpy at %d places" % int(np.sum(c != a + b)))

    # reduction with __local memory and barriers
    groups, local = 37, 128
    data = rng.integers(-1000, 1000, groups * local, dtype=np.int32)
    din = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=data)
    dout = cl.Buffer(ctx, mf.WRITE_ONLY, groups * 4)
    prog.group_sum(queue, (groups * local,), (local,), din, dout, cl.LocalMemory(local * 4))
    sums = np.empty(groups, dtype=np.int32)
    cl.enqueue_copy(queue, sums, dout)
    want = data.reshape(groups, local).sum(axis=1, dtype=np.int64).astype(np.int32)
    if not np.array_equal(sums, want):
        fail("group_sum differs from numpy: %s vs %s" % (sums[:4], want[:4]))

    # 2D kernel over 45 x 29 items in 8 x 4 work-groups (the last row and column are partial)
    w, h, lw, lh = 45, 29, 8, 4
    img = rng.standard_normal((h, w)).astype(np.float32)
    din2 = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=img)
    dout2 = cl.Buffer(ctx, mf.WRITE_ONLY, img.nbytes)
    dgrp = cl.Buffer(ctx, mf.WRITE_ONLY, img.size * 4)
    prog.grid(queue, (w, h), (lw, lh), din2, dout2, dgrp, np.float32(0.5))
    out = np.empty_like(img)
    grp = np.empty((h, w), dtype=np.int32)
    cl.enqueue_copy(queue, out, dout2)
    cl.enqueue_copy(queue, grp, dgrp)
    ys, xs = np.mgrid[0:h, 0:w]
    want2 = (img * np.float32(0.5) + xs.astype(np.float32) - ys.astype(np.float32)).astype(np.float32)
    if not np.array_equal(out, want2):
        fail("grid differs from numpy at %d places" % int(np.sum(out != want2)))
    ngx = (w + lw - 1) // lw
    want_grp = (ys // lh) * ngx + xs // lw
    if not np.array_equal(grp, want_grp):
        fail("grid's work-group ids differ from the NDRange's")
    queue.finish()
    print("pyopencl_test: vadd, group_sum and grid agree with numpy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
