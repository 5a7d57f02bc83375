// Integer and selection builtins: min, max, clamp (signed and unsigned, scalar and vector), abs
// (returns the unsigned type: abs(INT_MIN) == 0x80000000), select (scalar: condition != 0 picks
// b; vector: the most significant bit of each condition component picks b), bitselect (per bit:
// c ? b : a) on int and float.
// imisc(out, a, b): out[i*8 + k] (int; abs stored as uint bits)
kernel void imisc(global int *out, global const int *a, global const int *b) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  global int *o = out + i * 8;
  o[0] = min(x, y);
  o[1] = max(x, y);
  o[2] = clamp(x, -1000, 1000);
  o[3] = (int)abs(x);
  o[4] = (int)min((uint)x, (uint)y);
  o[5] = (int)clamp((uint)x, 10u, 0x80000000u);
  o[6] = select(x, y, x & 4);            // scalar: nonzero condition picks y
  o[7] = bitselect(x, y, 0x0ff0f00f);
}
kernel void vmisc(global char4 *oc, global uint4 *ou, global long2 *ol, global float4 *of,
                  global const char4 *c, global const int4 *a, global const long2 *l,
                  global const float4 *f) {
  size_t i = get_global_id(0);
  oc[i * 3 + 0] = max(c[i], (char4)(-3, 0, 3, 100));
  oc[i * 3 + 1] = clamp(c[i], (char)-50, (char)50);
  oc[i * 3 + 2] = as_char4(abs(c[i]));                    // abs(-128) == 128 (uchar)
  ou[i * 2 + 0] = abs(a[i]);
  ou[i * 2 + 1] = as_uint4(select(a[i], (int4)(7), a[i]));  // MSB set (negative) -> 7
  ol[i] = select(l[i], -l[i], l[i] < (long2)(0));            // per-component |l|
  of[i * 2 + 0] = bitselect(f[i], -f[i], as_float4((uint4)(0x80000000u)));  // flips the sign
  of[i * 2 + 1] = select(f[i], (float4)(0.0f), isnan(f[i]));               // NaN -> 0
}
