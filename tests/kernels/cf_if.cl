// Nested if/else chains with divergent outcomes inside a work-group, short-circuit && and ||
// with side effects, and the conditional operator.
static int classify(int x) {
  if (x < 0) {
    if (x < -100)
      return 0;
    else if (x < -10)
      return 1;
    else
      return 2;
  } else if (x == 0) {
    return 3;
  } else {
    if (x & 1) {
      if (x > 1000)
        return 4;
      return 5;
    } else {
      if (x % 3 == 0)
        return 6;
      else if (x % 5 == 0)
        return 7;
    }
  }
  return 8;
}
// out[i*4 + 0] = classify(x); +1: short-circuit side-effect count; +2: ternary; +3: the number of
// right-hand sides evaluated
kernel void if_nest(global int *out, global const int *in) {
  size_t i = get_global_id(0);
  int x = in[i];
  int evals = 0;
  int r = 0;
  if (x > 0 && (++evals, x < 50))
    r |= 1;
  if (x < -50 || (++evals, x % 2 == 0))
    r |= 2;
  if (!(x != 7) || (++evals, x == 8) || (++evals, x == 9))
    r |= 4;
  out[i * 4 + 0] = classify(x);
  out[i * 4 + 1] = r;
  out[i * 4 + 2] = x > 10 ? (x > 20 ? 3 : 2) : (x < -10 ? -2 : (x == 0 ? 0 : 1));
  out[i * 4 + 3] = evals;
}
