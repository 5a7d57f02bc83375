// cl-std: CL1.2
// Vector component access: .xyzw, .s0-.sf (and .sA-.sF), .lo/.hi/.even/.odd (nested), swizzles
// with repetition, swizzles as lvalues, and 3-component vectors (.xyz, .lo, .even).
// access(out, in): in holds 16 ints per work-item; out gets 49 ints per work-item.
kernel void access(global int *out, global const int16 *in) {
  size_t i = get_global_id(0);
  int16 v = in[i];
  global int *o = out + i * 49;
  // single components
  o[0] = v.s0; o[1] = v.s7; o[2] = v.sa; o[3] = v.sF;
  // lo / hi / even / odd, nested
  int8 lo = v.lo, hi = v.hi;
  o[4] = lo.s3; o[5] = hi.s0;
  int8 ev = v.even, od = v.odd;
  o[6] = ev.s7; o[7] = od.s1;
  int4 nested = v.hi.odd.lo.xyxy + (int4)(0, 0, 0, 0);   // (v9, v11, v9, v11)
  vstore4(nested, 0, o + 8);
  int2 deep = v.lo.hi.even;                               // (v4, v6)
  o[12] = deep.x; o[13] = deep.y;
  // swizzles with repetition and reordering
  int4 q = v.s0123;
  int4 r = q.wzyx;                                        // (v3, v2, v1, v0)
  vstore4(r, 0, o + 14);
  int8 rep = v.s00ff11ee;                                  // (v0 v0 v15 v15 v1 v1 v14 v14)
  vstore8(rep, 0, o + 18);
  int16 rev = v.sfedcba9876543210;
  o[26] = rev.s0; o[27] = rev.s5; o[28] = rev.sf;
  // lvalue swizzles
  int4 w = (int4)(100, 200, 300, 400);
  w.yx = v.s45;                                           // w = (v5, v4, 300, 400)
  w.s3 = v.s9;                                            // w = (v5, v4, 300, v9)
  w.odd = w.even;                                         // w = (v5, v5, 300, 300)
  vstore4(w, 0, o + 29);
  int16 z = (int16)(0);
  z.hi.lo = v.lo.lo;                                      // z.s8..sb = v0..v3
  z.even.hi = v.hi.hi.wzyx;                               // z.s8,sa,sc,se = v15,v14,v13,v12
  vstore16(z, 0, o + 33);
  // 3-component vectors: z.s8=v15 z.s9=v1 z.sa=v14 z.sb=v3 z.sc=v13 z.se=v12 (rest 0)
}
kernel void access3(global int *out, global const int4 *in) {
  size_t i = get_global_id(0);
  int3 t = in[i].zyx;                                     // (c, b, a)
  global int *o = out + i * 8;
  o[0] = t.x; o[1] = t.y; o[2] = t.z;
  int2 l = t.lo;                                          // (c, b)
  int2 e = t.even;                                        // (c, a)
  o[3] = l.y; o[4] = e.y;
  t.xz = t.zx;                                            // (a, b, c)
  o[5] = t.s0; o[6] = t.s1; o[7] = t.s2;
}
