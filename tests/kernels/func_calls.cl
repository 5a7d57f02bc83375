// Function calls kept as calls at every optimisation level (noinline): scalar parameters,
// a struct by value, a struct returned by value, pointer parameters (out-parameters into private
// variables, global and local pointers), a call chain, and a helper shared by two kernels.
typedef struct {
  int a;
  int b;
  float w;
} Pair;

__attribute__((noinline)) static int mix(int x, int y) {
  return (x * 31) ^ (y + 7);
}

__attribute__((noinline)) static int pair_score(Pair p) {
  p.a += 1;                      // modifies the callee's copy only
  return p.a * 3 - p.b;
}

__attribute__((noinline)) static Pair make_pair(int a, int b) {
  Pair p;
  p.a = a + b;
  p.b = a - b;
  p.w = (float)a / 8.0f;
  return p;
}

__attribute__((noinline)) static void divmod(int x, int y, int *q, int *r) {
  *q = x / y;
  *r = x % y;
}

__attribute__((noinline)) static int chain3(int x);
__attribute__((noinline)) static int chain2(int x) { return chain3(x + 1) * 2; }
__attribute__((noinline)) static int chain1(int x) { return chain2(x ^ 5) - 3; }
__attribute__((noinline)) static int chain3(int x) { return mix(x, x >> 1); }

__attribute__((noinline)) static void add_to(global int *dst, int v) { *dst += v; }

__attribute__((noinline)) static int sum_local(local const int *p, int n) {
  int s = 0;
  for (int k = 0; k < n; ++k)
    s += p[k];
  return s;
}

// out[i*8 + k]
kernel void calls(global int *out, global const int *in) {
  size_t i = get_global_id(0);
  int x = in[i * 2], y = in[i * 2 + 1];
  global int *o = out + i * 8;
  o[0] = mix(x, y);
  Pair p = make_pair(x, y);
  o[1] = pair_score(p);
  o[2] = p.a;                    // unchanged by pair_score
  o[3] = as_int(p.w);
  int q, r;
  divmod(x, y, &q, &r);
  o[4] = q;
  o[5] = r;
  o[6] = chain1(x);
  o[7] = 100;
  add_to(&o[7], y);
}

// A second kernel calling the same helpers, with a local pointer argument.
kernel void calls_local(global int *out, global const int *in) {
  local int buf[16];
  size_t l = get_local_id(0);
  buf[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = mix(sum_local(buf, (int)l + 1), (int)l);
}
