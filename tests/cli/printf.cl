/* printf through the `spvi` command (tests/cli/test_cli.sh): nine arguments, vectors, strings. */
kernel void pf(global const int *in) {
  size_t i = get_global_id(0);
  int v = in[i];
  printf("wi %d: %d %d %d %d %d %d %d %d|%s|%v4hld|%#x|%5.2f\n", (int)i, v, v + 1, v + 2, v + 3, v + 4, v + 5,
         v + 6, v + 7, "str", (int4)(v, -v, 2 * v, 0), v * 16, 0.5f * v);
}
