/*
 * cli_combine.c — owns the arithmetic of `spvi merge --combine`. Integers wrap around at their
 * width (OpenCL C 6.15.12.7.5: atomic_fetch_add and _sub wrap, two's complement), so add and xor
 * give exactly what one run would, whatever the order of the shards. Floats: min and max are
 * exact; add is computed in double after each shard and rounded to the element's type, exact when
 * the values are integers (or multiples of one power of two) within the type's significand.
 * Elements are little-endian (the --out files' "<" byte order, the only one spvi writes).
 */
#include "cli_combine.h"

#include "cli_num.h"

#include <math.h>
#include <string.h>

static const char *const combine_names[] = {"none", "add", "min", "max", "or", "and", "xor"};

bool cli_combine_op_parse(const char *name, cli_combine_op *op) {
  for (int i = CLI_COMBINE_ADD; i <= CLI_COMBINE_XOR; i++)
    if (strcmp(name, combine_names[i]) == 0) {
      *op = (cli_combine_op)i;
      return true;
    }
  return false;
}

const char *cli_combine_op_name(cli_combine_op op) { return combine_names[op]; }

bool cli_combine_check(cli_combine_op op, const char *descr, const char *what, size_t *size, cli_error *e) {
  const char kind = descr[0] ? descr[1] : 0, *digits = descr[0] ? descr + 2 : "";
  const bool le = descr[0] == '<' || descr[0] == '|';
  const bool is_int = (kind == 'i' || kind == 'u') &&
                      (!strcmp(digits, "1") || !strcmp(digits, "2") || !strcmp(digits, "4") || !strcmp(digits, "8"));
  const bool is_float = kind == 'f' && (!strcmp(digits, "4") || !strcmp(digits, "8"));
  if (!le || (!is_int && !is_float))
    return cli_fail(e, "--combine %s: %s has elements of type `%s`; combining takes integers and float/double",
                    combine_names[op], what, descr);
  if (is_float && op != CLI_COMBINE_ADD && op != CLI_COMBINE_MIN && op != CLI_COMBINE_MAX)
    return cli_fail(e,
                    "--combine %s: %s holds floating-point elements (`%s`), which bitwise operations do not apply to",
                    combine_names[op], what, descr);
  *size = (size_t)(digits[0] - '0');
  return true;
}

/* Sign-extended value of an n-byte integer, for signed min and max. */
static int64_t sext(uint64_t v, size_t n) {
  const unsigned sh = (unsigned)(64 - 8 * n);
  return (int64_t)(v << sh) >> sh;
}

static uint64_t combine_int(cli_combine_op op, bool sign, size_t n, uint64_t a, uint64_t v, uint64_t init) {
  switch (op) {
  case CLI_COMBINE_ADD: return a + (v - init); /* modulo 2^64, then truncated to n bytes: wraps */
  case CLI_COMBINE_XOR: return a ^ v ^ init;
  case CLI_COMBINE_OR: return a | v;
  case CLI_COMBINE_AND: return a & v;
  case CLI_COMBINE_MIN: return (sign ? sext(v, n) < sext(a, n) : v < a) ? v : a;
  case CLI_COMBINE_MAX: return (sign ? sext(v, n) > sext(a, n) : v > a) ? v : a;
  default: return a;
  }
}

/* A float or double element as a double (exact). */
static double load_fp(const unsigned char *p, size_t n) {
  if (n == 8) {
    double d;
    memcpy(&d, p, 8);
    return d;
  }
  float f;
  memcpy(&f, p, 4);
  return f;
}

/* Whether min/max of a (the element so far) and v is v: a NaN in any shard is the result (its
 * bits, kept by copying rather than converting), and -0 is below +0. */
static bool float_takes(cli_combine_op op, double a, double v) {
  if (isnan(a)) return false;
  if (isnan(v)) return true;
  if (a == v) return op == CLI_COMBINE_MIN ? signbit(v) && !signbit(a) : !signbit(v) && signbit(a);
  return op == CLI_COMBINE_MIN ? v < a : v > a;
}

void cli_combine_elem(cli_combine_op op, const char *descr, unsigned char *acc, const unsigned char *v,
                      const unsigned char *init) {
  const size_t n = (size_t)(descr[2] - '0');
  if (descr[1] != 'f') {
    const unsigned b = (unsigned)n;
    const uint64_t r = combine_int(op, descr[1] == 'i', n, cli_load_le(acc, b), cli_load_le(v, b),
                                   init ? cli_load_le(init, b) : 0);
    cli_store_le(acc, r, b);
  } else if (op != CLI_COMBINE_ADD) {
    if (float_takes(op, load_fp(acc, n), load_fp(v, n))) memcpy(acc, v, n);
  } else if (n == 4) {
    const float r = (float)(load_fp(acc, 4) + (load_fp(v, 4) - load_fp(init, 4)));
    memcpy(acc, &r, 4);
  } else {
    const double r = load_fp(acc, 8) + (load_fp(v, 8) - load_fp(init, 8));
    memcpy(acc, &r, 8);
  }
}
