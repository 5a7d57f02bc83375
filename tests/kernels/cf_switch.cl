// switch: fallthrough, default in the middle, sparse and negative case values, a case that
// breaks from inside an if, a char selector and a 64-bit selector (OpSwitch with 64-bit literals).
kernel void switch_int(global int *out, global const int *in) {
  size_t i = get_global_id(0);
  int x = in[i];
  int r = 0;
  switch (x) {
  case 0:
    r += 1;                  // falls through
  case 1:
    r += 10;
    break;
  case 2:
  case 3:
    r += 100;
    if (x == 3)
      break;
    r += 1000;               // falls through (x == 2)
  default:
    r += 5;                  // falls through
  case -7:
    r += 20000;
    break;
  case 1000000:
    r = -1;
    break;
  case 42:
    for (int k = 0; k < 3; ++k) {
      if (k == 2)
        break;               // breaks the loop, not the switch
      r += 7;
    }
    break;
  }
  out[i] = r;
}
kernel void switch_char(global int *out, global const char *in) {
  size_t i = get_global_id(0);
  int r;
  switch (in[i]) {
  case 'a': r = 1; break;
  case 'z': r = 26; break;
  case -128: r = -128; break;
  case 127: r = 127; break;
  default: r = 0; break;
  }
  out[i] = r;
}
kernel void switch_long(global long *out, global const long *in) {
  size_t i = get_global_id(0);
  long r;
  switch (in[i]) {
  case 0x100000000L: r = 1; break;
  case -1L: r = 2; break;
  case 0x7fffffffffffffffL: r = 3; break;
  case 5: r = 4;             // falls through
  case 0x123456789aL: r = 5; break;
  default: r = in[i] >> 32; break;
  }
  out[i] = r;
}
