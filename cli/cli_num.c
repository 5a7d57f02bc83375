/*
 * cli_num.c — owns numeric literal parsing and conversion for the `spvi` command: integer range
 * checks, correctly rounded half/float/double literals, binary16 conversion and little-endian
 * byte order.
 */
#include "cli_num.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Literal text in messages is cut to this many characters so one bad argument cannot flood
 * the terminal. */
#define NUM_QUOTE_MAX 64

static int num_hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static int num_quote_len(size_t len) { return len > NUM_QUOTE_MAX ? NUM_QUOTE_MAX : (int)len; }

/* ---- integers -------------------------------------------------------------------------------- */

bool cli_int_parse(const char *s, size_t len, const char *type_name, cli_int *out, cli_error *e) {
  size_t i = 0;
  bool neg = false;
  if (i < len && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  unsigned base = 10;
  if (len - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
    base = 16;
    i += 2;
  }
  if (i == len) return cli_fail(e, "`%.*s` is not an integer", num_quote_len(len), s);
  uint64_t mag = 0;
  bool overflow = false;
  for (; i < len; i++) {
    int d = num_hex_digit(s[i]);
    if (d < 0 || (unsigned)d >= base) return cli_fail(e, "`%.*s` is not an integer", num_quote_len(len), s);
    /* Keep scanning after an overflow so that a syntax error is still reported as such. */
    if (mag > (UINT64_MAX - (uint64_t)d) / base) overflow = true;
    mag = mag * base + (uint64_t)d;
  }
  if (overflow) return cli_fail(e, "`%.*s` is out of range for %s", num_quote_len(len), s, type_name);
  out->neg = neg && mag != 0;
  out->mag = mag;
  return true;
}

cli_int cli_int_min(const cli_scalar *t) {
  if (t->kind == CLI_UINT) return (cli_int){false, 0};
  return (cli_int){true, (uint64_t)1 << (t->bits - 1)};
}

cli_int cli_int_max(const cli_scalar *t) {
  if (t->kind == CLI_UINT) return (cli_int){false, t->bits == 64 ? UINT64_MAX : ((uint64_t)1 << t->bits) - 1};
  return (cli_int){false, ((uint64_t)1 << (t->bits - 1)) - 1};
}

bool cli_int_fits(const cli_scalar *t, cli_int v) {
  cli_int lo = cli_int_min(t), hi = cli_int_max(t);
  if (v.neg) return lo.neg && v.mag <= lo.mag;
  return v.mag <= hi.mag;
}

bool cli_int_add(cli_int a, cli_int b, cli_int *r) {
  if (a.neg == b.neg) {
    if (a.mag > UINT64_MAX - b.mag) return false;
    *r = (cli_int){a.neg, a.mag + b.mag};
  } else if (a.mag >= b.mag) {
    *r = (cli_int){a.neg, a.mag - b.mag};
  } else {
    *r = (cli_int){b.neg, b.mag - a.mag};
  }
  if (r->mag == 0) r->neg = false;
  return true;
}

bool cli_int_mul(uint64_t k, cli_int b, cli_int *r) {
  if (b.mag != 0 && k > UINT64_MAX / b.mag) return false;
  *r = (cli_int){b.neg, k * b.mag};
  if (r->mag == 0) r->neg = false;
  return true;
}

uint64_t cli_int_bits(cli_int v) { return v.neg ? (uint64_t)0 - v.mag : v.mag; }

const char *cli_int_str(cli_int v, char *buf, size_t cap) {
  snprintf(buf, cap, "%s%llu", v.neg ? "-" : "", (unsigned long long)v.mag);
  return buf;
}

const char *cli_int_range_str(const cli_scalar *t, char *buf, size_t cap) {
  char lo[24], hi[24];
  snprintf(buf, cap, "%s (%s..%s)", t->name, cli_int_str(cli_int_min(t), lo, sizeof lo),
           cli_int_str(cli_int_max(t), hi, sizeof hi));
  return buf;
}

/* ---- binary16 -------------------------------------------------------------------------------- */

uint16_t cli_half_from_double(double v) {
  uint16_t sign = signbit(v) ? 0x8000 : 0;
  if (isnan(v)) return sign | 0x7e00;
  double a = fabs(v);
  /* 65520 is halfway between 65504 (largest half) and 65536 (2^16, the next "value"): ties go to
   * the even one, which is infinity, so everything from 65520 up overflows. */
  if (a >= 65520.0) return sign | 0x7c00;
  if (a == 0.0) return sign;
  int e;
  frexp(a, &e);
  int exp = e - 1;                          /* a is in [2^exp, 2^(exp+1)) */
  int quantum = exp < -14 ? -24 : exp - 10; /* weight of the last significand bit */
  double n = ldexp(a, -quantum);            /* exact: scaling by a power of two */
  double whole = floor(n);
  double frac = n - whole; /* exact */
  uint32_t m = (uint32_t)whole;
  if (frac > 0.5 || (frac == 0.5 && (m & 1u))) m++;
  /* For subnormals m is the encoding itself (m == 1024 becomes the smallest normal). For normals
   * m includes the implicit 1024, so adding it to the biased exponent field minus one is right,
   * and a carry to 2048 moves into the next binade by itself. */
  if (exp < -14) return (uint16_t)(sign | m);
  return (uint16_t)(sign | (((uint32_t)(exp + 14) << 10) + m));
}

double cli_half_to_double(uint16_t h) {
  double sign = (h & 0x8000) ? -1.0 : 1.0;
  unsigned exp = (h >> 10) & 31u, man = h & 1023u;
  if (exp == 31) return man ? copysign(NAN, sign) : sign * INFINITY;
  if (exp == 0) return sign * ldexp((double)man, -24);
  return sign * ldexp((double)(man + 1024u), (int)exp - 25);
}

/* ---- floats ---------------------------------------------------------------------------------- */

bool cli_float_from_double(const cli_scalar *t, double v, uint64_t *bits) {
  if (t->bits == 16) {
    uint16_t h = cli_half_from_double(v);
    *bits = h;
    return !(isfinite(v) && (h & 0x7fff) == 0x7c00);
  }
  if (t->bits == 32) {
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    *bits = u;
    return !(isfinite(v) && isinf(f));
  }
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  *bits = u;
  return true;
}

double cli_float_to_double(const cli_scalar *t, uint64_t bits) {
  if (t->bits == 16) return cli_half_to_double((uint16_t)bits);
  if (t->bits == 32) {
    uint32_t u = (uint32_t)bits;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
  }
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

typedef enum { NUM_FINITE, NUM_INF, NUM_NAN } num_special;

static size_t num_digits(const char *s, size_t i, size_t len, unsigned base) {
  size_t n = 0;
  while (i + n < len) {
    int d = num_hex_digit(s[i + n]);
    if (d < 0 || (unsigned)d >= base) break;
    n++;
  }
  return n;
}

/* Checks that s is exactly one float literal (the C grammar, so strtod accepts the same text
 * without skipping blanks or taking a prefix); classifies inf/nan, which are built by hand so
 * that their bits do not depend on the C library (`nan(...)` payloads, `infinity` spelling). */
static bool num_float_syntax(const char *s, size_t len, bool *neg, num_special *special) {
  size_t i = 0;
  *neg = false;
  if (i < len && (s[i] == '+' || s[i] == '-')) *neg = s[i++] == '-';
  if (len - i == 3) {
    char low[4];
    for (int k = 0; k < 3; k++) low[k] = (char)(s[i + k] | 0x20);
    low[3] = 0;
    if (strcmp(low, "inf") == 0) {
      *special = NUM_INF;
      return true;
    }
    if (strcmp(low, "nan") == 0) {
      *special = NUM_NAN;
      return true;
    }
  }
  *special = NUM_FINITE;
  unsigned base = 10;
  char exp_char = 'e';
  if (len - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
    base = 16;
    exp_char = 'p';
    i += 2;
  }
  size_t whole = num_digits(s, i, len, base);
  i += whole;
  size_t fraction = 0;
  if (i < len && s[i] == '.') {
    i++;
    fraction = num_digits(s, i, len, base);
    i += fraction;
  }
  if (whole + fraction == 0) return false;
  if (i < len && (s[i] | 0x20) == exp_char) {
    i++;
    if (i < len && (s[i] == '+' || s[i] == '-')) i++;
    size_t ed = num_digits(s, i, len, 10);
    if (ed == 0) return false;
    i += ed;
  }
  return i == len;
}

/* strtod of `text` under rounding mode `mode`. glibc's strtod honours the current rounding mode,
 * which is what makes the round-to-odd step below exact. */
static double num_strtod_mode(const char *text, int mode) {
  int saved = fegetround();
  fesetround(mode);
  double d = strtod(text, NULL);
  fesetround(saved);
  return d;
}

/* The literal rounded to double with round-to-odd: an inexact result keeps a 1 in its last bit.
 * Rounding that once more to a format with at most 51 significand bits gives the same result as
 * rounding the exact decimal value directly — plain round-to-nearest to double first could land
 * exactly on a half-way point and round the wrong way ("double rounding"). */
static double num_round_to_odd(const char *text) {
  double down = num_strtod_mode(text, FE_DOWNWARD);
  double up = num_strtod_mode(text, FE_UPWARD);
  if (down == up) return down;
  uint64_t d;
  memcpy(&d, &down, sizeof d);
  /* down and up are neighbours, so exactly one of them has an odd significand. */
  if (d & 1u) return down;
  return up;
}

static bool num_float_parse(const cli_scalar *t, const char *s, size_t len, uint64_t *bits, cli_error *e) {
  bool neg;
  num_special special;
  if (!num_float_syntax(s, len, &neg, &special))
    return cli_fail(e, "`%.*s` is not a %s value", num_quote_len(len), s, t->name);
  if (special != NUM_FINITE) {
    double v = special == NUM_INF ? INFINITY : NAN;
    return cli_float_from_double(t, neg ? -v : v, bits);
  }
  char *text = malloc(len + 1);
  if (!text) return cli_fail(e, "out of memory");
  memcpy(text, s, len);
  text[len] = 0;
  bool inf = false;
  if (t->bits == 16) {
    uint16_t h = cli_half_from_double(num_round_to_odd(text));
    *bits = h;
    inf = (h & 0x7fff) == 0x7c00;
  } else if (t->bits == 32) {
    float f = strtof(text, NULL); /* correctly rounded from the decimal, no double step */
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    *bits = u;
    inf = isinf(f);
  } else {
    double d = strtod(text, NULL);
    memcpy(bits, &d, sizeof d);
    inf = isinf(d);
  }
  free(text);
  if (inf)
    return cli_fail(e, "`%.*s` is out of range for %s (beyond its largest finite value)", num_quote_len(len), s,
                    t->name);
  return true;
}

bool cli_scalar_parse(const cli_scalar *t, const char *s, size_t len, uint64_t *bits, cli_error *e) {
  if (len == 0) return cli_fail(e, "empty %s value", t->name);
  if (t->kind == CLI_FLOAT) return num_float_parse(t, s, len, bits, e);
  cli_int v;
  if (!cli_int_parse(s, len, t->name, &v, e)) return false;
  if (!cli_int_fits(t, v)) {
    char range[80];
    return cli_fail(e, "`%.*s` is out of range for %s", num_quote_len(len), s,
                    cli_int_range_str(t, range, sizeof range));
  }
  /* Only the type's own bits: -1 as a char is 0xff, not 0xffffffffffffffff. */
  *bits = cli_int_bits(v) & (t->bits == 64 ? UINT64_MAX : ((uint64_t)1 << t->bits) - 1);
  return true;
}

void cli_store_le(unsigned char *dst, uint64_t bits, unsigned bytes) {
  for (unsigned i = 0; i < bytes; i++) dst[i] = (unsigned char)(bits >> (8 * i));
}

uint64_t cli_load_le(const unsigned char *src, unsigned bytes) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; i++) v |= (uint64_t)src[i] << (8 * i);
  return v;
}
