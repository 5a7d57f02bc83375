// cflags: -gline-tables-only
// Kernels for the race and uninit checkers' view of async work-group copies and wait_group_events
// (OpenCL C 6.15.11) and of image reads and writes (6.15.15; barrier with CLK_IMAGE_MEM_FENCE,
// 6.15.8), for tests/unit/test_checks_sync.c. The test names source lines by their `@` markers
// (tests/unit/lib/marker.h).

// Correct: async copy global -> local, wait, barrier, read; write, barrier, copy local -> global,
// wait. Every local byte read was written by the copy (uninit: nothing to report either).
kernel void async_ok(global const int *src, global int *dst, local int *tmp) {
  size_t l = get_local_id(0), g = get_group_id(0), n = get_local_size(0);
  event_t e = async_work_group_copy(tmp, src + g * n, n, 0);
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = tmp[(l + 1) % n];
  barrier(CLK_LOCAL_MEM_FENCE);
  tmp[l] = v * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy(dst + g * n, tmp, n, 0);
  wait_group_events(1, &e);
}

// Race (@early-copy, @early-read): the local destination is read before wait_group_events.
kernel void async_read_early(global const int *src, global int *out, local int *tmp) {
  size_t l = get_local_id(0), g = get_group_id(0), n = get_local_size(0);
  event_t e = async_work_group_copy(tmp, src + g * n, n, 0);  // @early-copy
  int v = tmp[l];  // @early-read
  wait_group_events(1, &e);
  out[get_global_id(0)] = v;
}

// Race (@src-copy, @src-write): the source is written before wait_group_events.
kernel void async_src_write(global int *src, global int *out, local int *tmp) {
  size_t l = get_local_id(0), g = get_group_id(0), n = get_local_size(0);
  event_t e = async_work_group_copy(tmp, src + g * n, n, 0);  // @src-copy
  src[g * n + l] = 0;  // @src-write
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[l];
}

// Uninit (@uninit-copy): the first half of tmp is written, the copy takes all of it to global
// memory, so it writes the never-written second half to the buffer.
kernel void async_uninit(global int *dst, local int *tmp) {
  size_t l = get_local_id(0), g = get_group_id(0), n = get_local_size(0);
  if (l < n / 2) tmp[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(dst + g * n, tmp, n, 0);  // @uninit-copy
  wait_group_events(1, &e);
}

// Race (@img-ww): work-items 2k and 2k + 1 write pixel k.
kernel void img_ww(write_only image2d_t img) {
  int x = (int)get_global_id(0) / 2;
  write_imagef(img, (int2)(x, 0), (float4)(1.0f, 2.0f, 3.0f, 4.0f));  // @img-ww
}

// Race (@img-write, @img-read) without the image fence, none with it (fence != 0): each
// work-item writes its pixel and reads its neighbour's.
kernel void img_rw(read_write image2d_t img, global float *out, int fence) {
  int x = (int)get_global_id(0), n = (int)get_global_size(0);
  write_imagef(img, (int2)(x, 0), (float4)((float)x));  // @img-write
  if (fence) barrier(CLK_IMAGE_MEM_FENCE);
  out[x] = read_imagef(img, (int2)((x + 1) % n, 0)).x;  // @img-read
}

// Uninit (@img-uninit): the pixel value comes from a private array element never written.
kernel void img_uninit(write_only image2d_t img, int k) {
  float a[4];
  int x = (int)get_global_id(0);
  for (int i = 0; i < 2; i++) a[i] = (float)i;
  write_imagef(img, (int2)(x, 0), (float4)(a[k & 3]));  // @img-uninit
}

// Race (@bar-copy, @bar-read): a barrier between the copy and its wait does not complete it.
kernel void async_barrier_early(global const int *src, global int *out, local int *tmp) {
  size_t l = get_local_id(0), g = get_group_id(0), n = get_local_size(0);
  event_t e = async_work_group_copy(tmp, src + g * n, n, 0);  // @bar-copy
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = tmp[(l + 1) % n];  // @bar-read
  wait_group_events(1, &e);
  out[get_global_id(0)] = v;
}

// Race between groups (@same-copy, the copy of every group): each group copies its ints to the same
// dst[0..n); a later group's copy meets the earlier groups' summary of those bytes.
kernel void async_same_dst(global int *dst, local int *tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(dst, tmp, n, 0);  // @same-copy
  wait_group_events(1, &e);
}

// Race between groups: group 0's copy (@ctr-copy) writes buf[0..n), group 1's work-items read it
// (@ctr-read).
kernel void async_copy_then_read(global int *buf, global int *out, local int *tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  if (get_group_id(0) == 0) {
    tmp[l] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t e = async_work_group_copy(buf, tmp, n, 0);  // @ctr-copy
    wait_group_events(1, &e);
  } else {
    out[l] = buf[l];  // @ctr-read
  }
}

// Race between groups: group 0's work-items write buf[0..n) (@wtc-write), group 1's copy reads it
// (@wtc-copy).
kernel void async_write_then_copy(global int *buf, global int *out, local int *tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  if (get_group_id(0) == 0) {
    buf[l] = (int)l;  // @wtc-write
  } else {
    event_t e = async_work_group_copy(tmp, buf, n, 0);  // @wtc-copy
    wait_group_events(1, &e);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[l] = tmp[l];
  }
}
