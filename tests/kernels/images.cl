// Image and sampler kernels for tests/unit/test_images.c (one work-item per coordinate or pixel).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

kernel void sample2d(read_only image2d_t img, sampler_t s, global const float2 *c, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(img, s, c[i]);
}

kernel void sample2d_int(read_only image2d_t img, sampler_t s, global const int2 *c, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(img, s, c[i]);
}

kernel void sample2d_ui(read_only image2d_t img, sampler_t s, global const float2 *c, global uint4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imageui(img, s, c[i]);
}

kernel void sample2d_h(read_only image2d_t img, sampler_t s, global const float2 *c, global half4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imageh(img, s, c[i]);
}

kernel void sample1d(read_only image1d_t img, sampler_t s, global const float *c, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(img, s, c[i]);
}

kernel void sample1d_array(read_only image1d_array_t img, sampler_t s, global const float2 *c, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(img, s, c[i]);
}

kernel void sample2d_array(read_only image2d_array_t img, sampler_t s, global const float4 *c, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(img, s, c[i]);
}

kernel void sample3d(read_only image3d_t img, sampler_t s, global const float4 *c, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(img, s, c[i]);
}

// A literal sampler (OpConstantSampler).
kernel void const_sampler(read_only image2d_t img, global const float2 *c, global float4 *out) {
  const sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;
  size_t i = get_global_id(0);
  out[i] = read_imagef(img, s, c[i]);
}

// Sampler-less reads of every pixel (2D NDRange).
kernel void read_plain(read_only image2d_t img, global float4 *out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_image_width(img) + x] = read_imagef(img, (int2)(x, y));
}

kernel void read_plain_i(read_only image2d_t img, global int4 *out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_image_width(img) + x] = read_imagei(img, (int2)(x, y));
}

kernel void read_buffer(read_only image1d_buffer_t img, global uint4 *out) {
  int i = get_global_id(0);
  out[i] = read_imageui(img, i);
}

// Writes with format conversion (2D NDRange over the image).
kernel void write_f(global const float4 *in, write_only image2d_t dst) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagef(dst, (int2)(x, y), in[y * get_image_width(dst) + x]);
}

kernel void write_h(global const half4 *in, write_only image2d_t dst) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imageh(dst, (int2)(x, y), in[y * get_image_width(dst) + x]);
}

kernel void write_i(global const int4 *in, write_only image2d_t dst) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagei(dst, (int2)(x, y), in[y * get_image_width(dst) + x]);
}

kernel void write_ui(global const uint4 *in, write_only image2d_t dst) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imageui(dst, (int2)(x, y), in[y * get_image_width(dst) + x]);
}

// Layer-wise writes into arrays and a 3D image, then read back through a read_write image.
kernel void write_2d_array(write_only image2d_array_t dst) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  write_imagef(dst, (int4)(x, y, z, 0), (float4)(x, y, z, 0.5f));
}

kernel void write_1d_array(write_only image1d_array_t dst) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imageui(dst, (int2)(x, y), (uint4)(x, y, 300, 7));
}

kernel void rw3d(read_write image3d_t img) {
  int4 c = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  float4 v = read_imagef(img, c);
  write_imagef(img, c, v * 2.0f + 1.0f);
}

kernel void queries(read_only image2d_array_t a, read_only image3d_t b, read_only image1d_buffer_t c,
                    write_only image1d_array_t d, global int *out) {
  out[0] = get_image_width(a);
  out[1] = get_image_height(a);
  out[2] = get_image_array_size(a);
  out[3] = get_image_channel_order(a);
  out[4] = get_image_channel_data_type(a);
  out[5] = get_image_width(b);
  out[6] = get_image_height(b);
  out[7] = get_image_depth(b);
  int4 dim = get_image_dim(b);
  out[8] = dim.x + 10 * dim.y + 100 * dim.z + 1000 * dim.w;
  out[9] = get_image_channel_order(b);
  out[10] = get_image_channel_data_type(b);
  out[11] = get_image_width(c);
  out[12] = get_image_channel_data_type(c);
  out[13] = get_image_width(d);
  out[14] = get_image_array_size(d);
  out[15] = get_image_channel_order(d);
}
