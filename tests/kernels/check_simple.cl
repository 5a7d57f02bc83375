// cflags: -g
// The always-on checks: integer division by zero and INT_MIN / -1 (reports: the run goes on),
// misaligned loads and stores, and the step limit (faults). The tests pass the bad operand through
// a buffer so exactly the chosen work-items misbehave. The test names the lines it asserts by
// their `@` markers (tests/unit/lib/marker.h).
kernel void div_s(global int *out, global const int *a, global const int *b, global int *rem) {
  size_t g = get_global_id(0);
  out[g] = a[g] / b[g];                        // OpSDiv @div-s
  rem[g] = b[g] == 3 ? 0 : a[g] % b[g];        // OpSRem @rem-s
}

kernel void div_u(global uint *out, global const uint *a, global const uint *b) {
  size_t g = get_global_id(0);
  out[g] = a[g] / b[g];                        // OpUDiv @div-u
}

kernel void div_vec(global int4 *out, global const int4 *a, global const int4 *b) {
  size_t g = get_global_id(0);
  out[g] = a[g] / b[g];                        // OpSDiv on int4 @div-vec
}

// reads an int at byte offset off[g] of `bytes`
kernel void load_at(global int *out, global const char *bytes, global const int *off) {
  size_t g = get_global_id(0);
  out[g] = *(global const int *)(bytes + off[g]);   // OpLoad @load-at
}

// writes a float4 at byte offset off[g] of `bytes`
kernel void store_at(global char *bytes, global const int *off) {
  size_t g = get_global_id(0);
  *(global float4 *)(bytes + off[g]) = (float4)(1.0f, 2.0f, 3.0f, (float)g);   // OpStore @store-at
}

// counts up by 2 from 0 to n[g]: endless for an odd n[g] (volatile: a loop without side effects
// may be assumed to end, C11 6.8.5p6, and -O2 would compute the count in closed form)
kernel void count_to(volatile global int *out, global const int *n) {
  size_t g = get_global_id(0);
  out[g] = 0;
  for (int x = 0; x != n[g]; x += 2)  // @count-loop
    out[g] += 1;  // @count-body
}
