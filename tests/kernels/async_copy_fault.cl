// Async copies used wrongly: each kernel is a fault spvi must report (OpenCL C 6.15.11).

// reached by only part of the work-group (barrier divergence)
kernel void divergent_copy(global const int *src, local int *tmp, global int *out) {
  size_t l = get_local_id(0);
  if (l < 3) {
    event_t e = async_work_group_copy(tmp, src, 4, 0);
    wait_group_events(1, &e);
  }
  out[l] = tmp[0];
}

// every work-item passes a different source
kernel void mismatched_copy(global const int *src, local int *tmp, global int *out) {
  size_t l = get_local_id(0);
  event_t e = async_work_group_copy(tmp, src + l, 4, 0);
  wait_group_events(1, &e);
  out[l] = tmp[0];
}

// the source tile of the last group runs past the end of `src`
kernel void oob_source(global const int *src, local int *tmp, global int *out, uint n) {
  size_t g = get_group_id(0);
  event_t e = async_work_group_copy(tmp, src + g * n, (size_t)(n + 1), 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[0];
}

// strided scatter past the end of `dst`
kernel void oob_strided_dest(global int *dst, local int *tmp, uint n, uint stride) {
  tmp[get_local_id(0)] = (int)get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_strided_copy(dst, tmp, (size_t)n, (size_t)stride, 0);
  wait_group_events(1, &e);
}

// into a local buffer too small for the tile
kernel void oob_local(global const int *src, local int *tmp, uint n) {
  event_t e = async_work_group_copy(tmp, src, (size_t)n, 0);
  wait_group_events(1, &e);
}

kernel void zero_stride(global const int *src, local int *tmp, uint stride) {
  event_t e = async_work_group_strided_copy(tmp, src, 4, (size_t)stride, 0);
  wait_group_events(1, &e);
}

// the kernel ends without wait_group_events
kernel void never_waited(global const int *src, local int *tmp, global int *out) {
  event_t e = async_work_group_copy(tmp, src, 4, 0);
  out[get_global_id(0)] = (int)get_local_id(0);
}

// waits twice for one event (the first wait released it)
kernel void waited_twice(global const int *src, local int *tmp) {
  event_t e = async_work_group_copy(tmp, src, 4, 0);
  wait_group_events(1, &e);
  wait_group_events(1, &e);
}

// not a fault: copies two never-written local ints to global memory, which --check uninit reports
kernel void uninit_copy(global int *out, local int *tmp) {
  if (get_local_id(0) < 2) tmp[get_local_id(0)] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out, tmp, 4, 0);
  wait_group_events(1, &e);
}
