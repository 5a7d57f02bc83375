// Kernels of tests/python/test_spvi.py. The tests find the lines they expect in reports by the
// markers in the comments (`line of: ...`), not by numbers written twice.

kernel void saxpy(float a, global const float *x, global float *y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}

typedef struct {
  char c;
  int i;
  float4 v;
  short s[3];
} item;

// every field changed by a rule the test computes with numpy
kernel void bump(global item *it, int k) {
  size_t g = get_global_id(0);
  it[g].c = (char)(it[g].c + 1);
  it[g].i = it[g].i * k;
  it[g].v = it[g].v * 2.0f;
  it[g].s[2] = (short)(it[g].s[0] + it[g].s[1]);
}

kernel void overrun(global int *out, uint n) {
  size_t g = get_global_id(0);
  out[g + n] = 1; // line of: fault
}

kernel void racy(global int *out) {
  out[0] = (int)get_global_id(0); // line of: race
}

// the sum of each work-group's elements, through local memory (a tree reduction)
kernel void group_sum(global const uint *in, global uint *out, local uint *tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = n / 2; s > 0; s /= 2) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}

// vectors: float3 buffers (4 memory slots per element) and a by-value int2
kernel void vec3(global float3 *v, int2 k, ulong big, uchar small) {
  size_t g = get_global_id(0);
  v[g] = v[g] * (float)(k.x + k.y) + (float)(big >> 40) + (float)small;
}

#ifndef VALUE
#define VALUE -1
#endif
kernel void defined(global int *out) {
  out[get_global_id(0)] = VALUE;
}

// images: each pixel read through a sampler at its centre, halved, written
kernel void halve(read_only image2d_t src, sampler_t s, write_only image2d_t dst) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagef(dst, (int2)(x, y), read_imagef(src, s, (float2)(x + 0.5f, y + 0.5f)) * 0.5f);
}

kernel void hello(void) {
  printf("gid %d\n", (int)get_global_id(0));
}
