// Async work-group copies (OpenCL C 6.15.11): async_work_group_copy and
// async_work_group_strided_copy in both directions (global -> local, local -> global), for
// several gentypes including 3-component vectors (16-byte elements) and wide vectors,
// wait_group_events on one and several events, an event shared by two copies, and prefetch.
//
// Each work-group g copies the n elements of its tile: global -> local, every element + 1 in local
// memory (work-items stride over the tile, so a tile of n elements is spread over all of them),
// then local -> global. The strided kernels gather every stride-th element of the group's
// n * stride elements, double it, scatter it back with the same stride into `dst`, and also copy
// it contiguously into `dst2` under the same event.

#define TILE_KERNELS(T)                                                                           \
  kernel void copy_##T(global const T *src, global T *dst, local T *tmp, uint n) {               \
    size_t g = get_group_id(0), l = get_local_id(0), ls = get_local_size(0);                     \
    prefetch(src + g * n, n);                                                                     \
    event_t e = async_work_group_copy(tmp, src + g * n, (size_t)n, 0);                           \
    wait_group_events(1, &e);                                                                     \
    for (size_t i = l; i < n; i += ls) tmp[i] = tmp[i] + (T)1;                                    \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                 \
    e = async_work_group_copy(dst + g * n, tmp, (size_t)n, 0);                                   \
    wait_group_events(1, &e);                                                                     \
  }                                                                                               \
  kernel void strided_##T(global const T *src, global T *dst, global T *dst2, local T *tmp,      \
                          uint n, uint stride) {                                                  \
    size_t g = get_group_id(0), l = get_local_id(0), ls = get_local_size(0);                     \
    event_t e = async_work_group_strided_copy(tmp, src + g * n * stride, (size_t)n,               \
                                              (size_t)stride, 0);                                \
    wait_group_events(1, &e);                                                                     \
    for (size_t i = l; i < n; i += ls) tmp[i] = tmp[i] * (T)2;                                    \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                 \
    e = async_work_group_strided_copy(dst + g * n * stride, tmp, (size_t)n, (size_t)stride, 0);  \
    e = async_work_group_copy(dst2 + g * n, tmp, (size_t)n, e);                                  \
    wait_group_events(1, &e);                                                                     \
  }

TILE_KERNELS(char)
TILE_KERNELS(short)
TILE_KERNELS(int)
TILE_KERNELS(long)
TILE_KERNELS(float)
TILE_KERNELS(double)
TILE_KERNELS(int3)
TILE_KERNELS(float4)
TILE_KERNELS(uchar16)
TILE_KERNELS(ulong2)

// Two copies in flight, waited for together; then a loop of double-buffered tiles: the copy of
// tile t+1 is started before tile t is summed. out[g * tiles + t] = sum of tile t of group g.
kernel void pipeline(global const int *src, global int *out, global int *copy2, local int *buf,
                     uint n, uint tiles) {
  size_t g = get_group_id(0), l = get_local_id(0);
  global const int *base = src + g * n * tiles;
  event_t ev[2];
  ev[0] = async_work_group_copy(buf, base, (size_t)n, 0);
  ev[1] = async_work_group_copy(buf + n, base + n, (size_t)n, 0);
  wait_group_events(2, ev);
  // both tiles arrived: copy them back out in one go (checks the two waits released both)
  event_t e = async_work_group_copy(copy2 + g * 2 * n, buf, (size_t)(2 * n), 0);
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint t = 0; t < tiles; t++) {
    local int *cur = buf + (t % 2) * n, *next = buf + ((t + 1) % 2) * n;
    event_t pre = 0;
    bool more = t + 1 < tiles;
    if (more) pre = async_work_group_copy(next, base + (t + 1) * n, (size_t)n, 0);
    if (l == 0) {
      int s = 0;
      for (uint i = 0; i < n; i++) s += cur[i];
      out[g * tiles + t] = s;
    }
    if (more) wait_group_events(1, &pre);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
