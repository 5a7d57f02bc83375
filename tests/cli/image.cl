// Images on the command line: halve every pixel through a sampler (tests/cli/test_cli.sh).
kernel void halve(read_only image2d_t src, write_only image2d_t dst, sampler_t s) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagef(dst, (int2)(x, y), read_imagef(src, s, (float2)(x + 0.5f, y + 0.5f)) * 0.5f);
}
