// Tiled matrix transpose through a __local tile (padded to avoid bank conflicts), 2D NDRange.
// in is H rows x W columns (row-major), out is W rows x H columns. W and H are multiples of 8;
// local size 8x8.
#define TILE 8
kernel void transpose(global float *out, global const float *in, int W, int H) {
  local float tile[TILE][TILE + 1];
  int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
  int gx = (int)get_group_id(0), gy = (int)get_group_id(1);
  int x = gx * TILE + lx;                  // column in `in`
  int y = gy * TILE + ly;                  // row in `in`
  tile[ly][lx] = in[y * W + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  // write the tile transposed: block (gy, gx) of `in` becomes block (gx, gy) of `out`
  int ox = gy * TILE + lx;                 // column in `out`
  int oy = gx * TILE + ly;                 // row in `out`
  out[oy * H + ox] = tile[lx][ly];
}
