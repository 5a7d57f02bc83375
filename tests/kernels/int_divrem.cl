// Signed and unsigned division and remainder for every width (C99 semantics: the quotient
// truncates toward zero, the remainder has the sign of the dividend). Inputs never divide by zero
// and never compute INT_MIN / -1 or LONG_MIN / -1 (undefined); for char and short, MIN / -1 is
// fine (the operands are promoted to int) and is tested.
// divrem_<T>(q, r, a, b): q[i] = a[i] / b[i], r[i] = a[i] % b[i].
#define DIVREM(T)                                                                           \
kernel void divrem_##T(global T *q, global T *r, global const T *a, global const T *b) {   \
  size_t i = get_global_id(0);                                                              \
  q[i] = a[i] / b[i];                                                                       \
  r[i] = a[i] % b[i];                                                                       \
}
DIVREM(char)
DIVREM(uchar)
DIVREM(short)
DIVREM(ushort)
DIVREM(int)
DIVREM(uint)
DIVREM(long)
DIVREM(ulong)
// Vector division: component-wise.
DIVREM(int4)
DIVREM(ushort8)
