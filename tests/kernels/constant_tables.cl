// Program-scope __constant tables (arrays, a 2D array, an array of structs) read with runtime
// indices, and a __constant kernel argument.
// CRC-32 (reflected polynomial 0xEDB88320), 4 bits at a time: entry k is the CRC register after
// shifting the nibble k through 4 rounds.
__constant uint crc_nibble[16] = {
  0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u,
  0x4DB26158u, 0x5005713Cu, 0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
  0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu};

typedef struct {
  short lo;
  short hi;
  float scale;
} Band;

__constant Band bands[4] = {{-100, -1, 0.5f}, {0, 9, 1.0f}, {10, 99, 2.0f}, {100, 1000, -1.0f}};

__constant char grid[3][5] = {{1, 2, 3, 4, 5}, {-1, -2, -3, -4, -5}, {9, 8, 7, 6, 5}};

// crc32 of 16 bytes per work-item
kernel void crc32_16(global uint *out, global const uchar *data) {
  size_t g = get_global_id(0);
  uint crc = 0xFFFFFFFFu;
  for (int k = 0; k < 16; ++k) {
    crc ^= data[g * 16 + k];
    crc = (crc >> 4) ^ crc_nibble[crc & 15];
    crc = (crc >> 4) ^ crc_nibble[crc & 15];
  }
  out[g] = ~crc;
}
// band lookup (first band containing x, -1 if none) and scaled value; grid lookup
kernel void lookup(global float *out, global int *which, global int *cell, global const int *in) {
  size_t g = get_global_id(0);
  int x = in[g];
  int b = -1;
  for (int k = 0; k < 4; ++k)
    if (x >= bands[k].lo && x <= bands[k].hi) {
      b = k;
      break;
    }
  which[g] = b;
  out[g] = b >= 0 ? (float)x * bands[b].scale : 0.0f;
  cell[g] = grid[(uint)x % 3][(uint)x % 5];
}
// a __constant pointer argument (a buffer)
kernel void const_arg(global int *out, __constant int *coef, int n) {
  size_t g = get_global_id(0);
  int s = 0;
  for (int k = 0; k < n; ++k)
    s += coef[k] * (int)(g + k);
  out[g] = s;
}
