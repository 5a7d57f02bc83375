/*
 * bi_printf_num.c — the field conversions of printf (OpenCL C 3.0 §6.15.14.2 "printf Format
 * String", which follows C99 7.19.6.1): integers in decimal, octal and hexadecimal, floating-point
 * values in the f/F, e/E, g/G and a/A styles, and padded text, with the flags - + space # 0, field
 * width and precision.
 *
 * Host independence: nothing here calls the C library's formatted output. Decimal conversions are
 * exact: a finite double m * 2^e is written out in full with a small base-10^9 big integer (m * 2^e,
 * or m * 5^-e shifted e decimal places, at most 767 significant digits), and then rounded to the
 * requested digit position with ties to even — the IEEE 754-2008 §5.12.2 correctly rounded
 * conversion in round-to-nearest-even, which is also what glibc prints. %a writes the binary
 * significand directly and rounds it (ties to even) when a precision is given, as §6.15.14.2
 * requires ("the value is correctly rounded to a hexadecimal floating number with the given
 * precision").
 *
 * Implementation-defined choices (§6.15.14.2 leaves them open; spvi follows glibc's spellings so that
 * output looks familiar): infinity is "inf"/"INF", NaN is "nan"/"NAN", with a '-' when the sign bit is
 * set (also for NaNs) and '+'/' ' per the flags; the 0 flag does not pad them. %a normalises the
 * leading hex digit to 1 for normal doubles (it becomes 2 when rounding to a precision carries) and
 * writes subnormal doubles as 0x0.<hex>p-1022; zero is 0x0p+0.
 */
#include "bi_printf.h"
#include "bi_common_mp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- buffer ------------------------------------------------------------------------------------- */

static bool reserve(bi_pf_buf *b, size_t more) {
  if (b->failed) return false;
  if (b->len + more <= b->cap) return true;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + more) cap *= 2;
  char *p = realloc(b->p, cap);
  if (!p) {
    b->failed = true;
    return false;
  }
  b->p = p;
  b->cap = cap;
  return true;
}

void bi_pf_put(bi_pf_buf *b, const char *s, size_t n) {
  if (!n || !reserve(b, n)) return;
  memcpy(b->p + b->len, s, n);
  b->len += n;
}

void bi_pf_fill(bi_pf_buf *b, char c, size_t count) {
  if (!count || !reserve(b, count)) return;
  memset(b->p + b->len, c, count);
  b->len += count;
}

/* A field: [spaces] sign prefix [zeros] body [spaces]. `zeros` are leading zeros that belong to
 * the value (integer precision); the 0 flag adds padding zeros after sign and prefix when
 * `zero_ok` (C99 7.19.6.1: not for inf/NaN, not for integers with a precision), else the field is
 * padded with spaces on the left, or on the right with the - flag (which overrides 0). */
static void emit(bi_pf_buf *b, const bi_pf_spec *s, char sign, const char *prefix, size_t zeros, const char *body,
                 size_t n, bool zero_ok) {
  const size_t plen = strlen(prefix);
  const size_t total = (sign ? 1u : 0u) + plen + zeros + n;
  const size_t pad = (size_t)s->width > total ? (size_t)s->width - total : 0;
  const bool zpad = s->zero && zero_ok && !s->minus;
  if (!s->minus && !zpad) bi_pf_fill(b, ' ', pad);
  if (sign) bi_pf_put(b, &sign, 1);
  bi_pf_put(b, prefix, plen);
  bi_pf_fill(b, '0', zeros + (zpad ? pad : 0));
  bi_pf_put(b, body, n);
  if (s->minus) bi_pf_fill(b, ' ', pad);
}

void bi_pf_text(bi_pf_buf *b, const bi_pf_spec *s, const char *text, size_t n) { emit(b, s, 0, "", 0, text, n, false); }

/* ---- integers ------------------------------------------------------------------------------------
 * C99 7.19.6.1: the precision is the minimum number of digits (default 1), and 0 with precision 0
 * is no digits; # with o forces a leading 0 digit, # with x/X prefixes 0x/0X to non-zero values;
 * + and space give signed conversions a sign position; the 0 flag is ignored when a precision is
 * given. */
void bi_pf_int(bi_pf_buf *b, const bi_pf_spec *s, bool neg, uint64_t mag) {
  const char conv = s->conv;
  const unsigned base = conv == 'o' ? 8 : (conv == 'x' || conv == 'X') ? 16 : 10;
  const char *dig = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
  char tmp[24];
  size_t nd = 0;
  for (uint64_t v = mag; v; v /= base) tmp[sizeof tmp - 1 - nd++] = dig[v % base];
  const size_t prec = s->prec < 0 ? 1 : (size_t)s->prec;
  if (mag == 0 && prec > 0) tmp[sizeof tmp - 1 - nd++] = '0'; /* one "0" digit (precision >= 1) */
  size_t zeros = prec > nd ? prec - nd : 0;
  if (conv == 'o' && s->hash && zeros == 0 && (nd == 0 || tmp[sizeof tmp - nd] != '0')) zeros = 1;
  const bool is_signed = conv == 'd' || conv == 'i';
  const char sign = !is_signed ? 0 : neg ? '-' : s->plus ? '+' : s->space ? ' ' : 0;
  const char *prefix = (s->hash && mag != 0 && base == 16) ? (conv == 'X' ? "0X" : "0x") : "";
  emit(b, s, sign, prefix, zeros, tmp + sizeof tmp - nd, nd, s->prec < 0);
}

/* ---- exact decimal expansion ----------------------------------------------------------------------
 * N = m * 2^e (e >= 0) or m * 5^-e (e < 0, the value being N * 10^e) as base-10^9 limbs: m < 2^53
 * and e >= -1074 give N < 2^2547 < 10^767, 86 limbs. */
enum { LIMBS = 90, MAXDIG = LIMBS * 9 };

typedef struct big {
  uint32_t l[LIMBS];
  int n;
} big;

static void big_mul(big *x, uint32_t f) {
  uint64_t carry = 0;
  for (int i = 0; i < x->n; i++) {
    const uint64_t t = (uint64_t)x->l[i] * f + carry;
    x->l[i] = (uint32_t)(t % 1000000000u);
    carry = t / 1000000000u;
  }
  while (carry) {
    x->l[x->n++] = (uint32_t)(carry % 1000000000u);
    carry /= 1000000000u;
  }
}

/* The significant digits of |v| (finite, non-zero) without trailing zeros: d[0] != '0' and
 * |v| = 0.d[0]d[1]... * 10^pt. Returns the digit count. */
static int exact_digits(double v, char *d, int *pt) {
  uint64_t m;
  int e;
  bi_decompose(v, &m, &e);
  big x = {.n = 0};
  for (; m; m /= 1000000000u) x.l[x.n++] = (uint32_t)(m % 1000000000u);
  if (e >= 0) {
    int k = e;
    for (; k >= 29; k -= 29) big_mul(&x, 1u << 29);
    if (k) big_mul(&x, 1u << k);
  } else {
    int k = -e;
    for (; k >= 13; k -= 13) big_mul(&x, 1220703125u); /* 5^13 */
    uint32_t f = 1;
    for (; k; k--) f *= 5;
    big_mul(&x, f);
  }
  char tmp[10];
  int nd = 0;
  for (int i = x.n - 1; i >= 0; i--) {
    uint32_t limb = x.l[i];
    for (int j = 8; j >= 0; j--) {
      tmp[j] = (char)('0' + limb % 10);
      limb /= 10;
    }
    int j = 0;
    if (nd == 0)
      while (j < 8 && tmp[j] == '0') j++; /* no leading zeros */
    memcpy(d + nd, tmp + j, (size_t)(9 - j));
    nd += 9 - j;
  }
  *pt = e >= 0 ? nd : nd + e;
  while (nd > 1 && d[nd - 1] == '0') nd--;
  return nd;
}

/* r = round(0.d * 10^k) as a decimal integer without leading zeros (empty for 0), ties to even;
 * returns its length (k, k + 1 after a carry out of the top digit, or 0). r has room for
 * max(k, nd) + 1 characters. */
static int round_digits(const char *d, int nd, int k, char *r) {
  if (k < 0) return 0; /* below 0.1 units: rounds to 0 */
  if (k >= nd) {
    memcpy(r, d, (size_t)nd);
    memset(r + nd, '0', (size_t)(k - nd));
    return k;
  }
  memcpy(r, d, (size_t)k);
  bool rest = false;
  for (int i = k + 1; i < nd; i++) rest = rest || d[i] != '0';
  const bool odd = k > 0 && ((d[k - 1] - '0') & 1);
  if (!(d[k] > '5' || (d[k] == '5' && (rest || odd)))) return k;
  int i = k - 1;
  for (; i >= 0 && r[i] == '9'; i--) r[i] = '0';
  if (i >= 0) {
    r[i]++;
    return k;
  }
  memmove(r + 1, r, (size_t)k);
  r[0] = '1';
  return k + 1;
}

/* Buffers: widths and precisions are at most 4095 (bi_printf.c), a double has at most 309 integer
 * digits and 767 significant digits. */
enum { RBUF = MAXDIG + 4096 + 400, BODY = RBUF + 32 };

/* f style: round(|v| * 10^p) split at p digits from the right. */
static size_t fmt_f(char *out, const char *d, int nd, int pt, bool zero, int p, bool hash) {
  static _Thread_local char r[RBUF];
  const int len = zero ? 0 : round_digits(d, nd, pt + p, r);
  size_t o = 0;
  const int intlen = len - p;
  if (intlen > 0) {
    memcpy(out, r, (size_t)intlen);
    o = (size_t)intlen;
  } else {
    out[o++] = '0';
  }
  if (p > 0 || hash) out[o++] = '.';
  if (intlen >= 0) {
    memcpy(out + o, r + intlen, (size_t)p);
  } else {
    memset(out + o, '0', (size_t)-intlen);
    memcpy(out + o - intlen, r, (size_t)len);
  }
  return o + (size_t)p;
}

/* e style: p + 1 significant digits; *x receives the decimal exponent after rounding. */
static size_t fmt_e(char *out, const char *d, int nd, int pt, bool zero, int p, bool hash, char echar) {
  static _Thread_local char r[RBUF];
  int x = 0;
  if (zero) {
    memset(r, '0', (size_t)p + 1);
  } else {
    const int len = round_digits(d, nd, p + 1, r);
    x = len == p + 2 ? pt : pt - 1; /* a carry made it 10^pt */
  }
  size_t o = 0;
  out[o++] = r[0];
  if (p > 0 || hash) out[o++] = '.';
  memcpy(out + o, r + 1, (size_t)p);
  o += (size_t)p;
  out[o++] = echar;
  out[o++] = x < 0 ? '-' : '+';
  const int ax = x < 0 ? -x : x;
  if (ax >= 100) out[o++] = (char)('0' + ax / 100);
  out[o++] = (char)('0' + ax / 10 % 10);
  out[o++] = (char)('0' + ax % 10);
  return o;
}

/* The decimal exponent of |v| in e style with p + 1 significant digits (0 for zero). */
static int e_exponent(const char *d, int nd, int pt, bool zero, int p) {
  static _Thread_local char r[RBUF];
  if (zero) return 0;
  return round_digits(d, nd, p + 1, r) == p + 2 ? pt : pt - 1;
}

/* a style without the 0x prefix: 1.hhhp+d (normal), 0.hhhp-1022 (subnormal), 0p+0 (zero). */
static size_t fmt_a(char *out, double v, int prec, bool hash, bool upper) {
  const char *dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  const uint64_t bits = bi_dbits(v) & 0x7fffffffffffffffull;
  const int be = (int)(bits >> 52);
  uint64_t frac = bits & 0xfffffffffffffull;
  unsigned lead = be ? 1u : 0u;
  int exp = bits == 0 ? 0 : be ? be - 1023 : -1022;
  int nh; /* hex digits after the point */
  if (prec < 0) {
    nh = 13;
    while (nh > 0 && !(frac & 0xf)) {
      frac >>= 4;
      nh--;
    }
    frac <<= 4 * (13 - nh); /* back to 52-bit alignment */
  } else if (prec < 13) {
    const int drop = 52 - 4 * prec;
    const uint64_t keep = frac >> drop, rem = frac & ((1ull << drop) - 1), half = 1ull << (drop - 1);
    const uint64_t lsb = prec ? (keep & 1) : (lead & 1);
    uint64_t k = keep;
    if (rem > half || (rem == half && lsb)) k++;
    if (k >> (4 * prec)) { /* carry into the leading digit */
      lead++;
      k = 0;
    }
    frac = prec ? k << drop : 0;
    nh = prec;
  } else {
    nh = prec;
  }
  size_t o = 0;
  out[o++] = dig[lead];
  if (nh > 0 || hash) out[o++] = '.';
  for (int i = 0; i < nh; i++) out[o++] = i < 13 ? dig[(frac >> (48 - 4 * i)) & 0xf] : '0';
  out[o++] = upper ? 'P' : 'p';
  out[o++] = exp < 0 ? '-' : '+';
  char tmp[8];
  int n = 0;
  for (int ax = exp < 0 ? -exp : exp; n == 0 || ax; ax /= 10) tmp[n++] = (char)('0' + ax % 10);
  while (n) out[o++] = tmp[--n];
  return o;
}

/* Remove trailing zeros of the fraction (and a bare point) from a g-style body, before any
 * exponent (C99 7.19.6.1 g: "unless the # flag is used, any trailing zeros are removed"). */
static size_t strip_zeros(char *s, size_t n) {
  size_t dot = n, end = n;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '.') dot = i;
    if (s[i] == 'e' || s[i] == 'E') {
      end = i;
      break;
    }
  }
  if (dot == n) return n;
  size_t cut = end;
  while (cut > dot + 1 && s[cut - 1] == '0') cut--;
  if (cut == dot + 1) cut = dot;
  memmove(s + cut, s + end, n - end);
  return cut + (n - end);
}

void bi_pf_float(bi_pf_buf *b, const bi_pf_spec *s, double v) {
  static _Thread_local char body[BODY];
  static _Thread_local char d[MAXDIG];
  const char conv = s->conv;
  const bool upper = conv == 'F' || conv == 'E' || conv == 'G' || conv == 'A';
  const char sign = signbit(v) ? '-' : s->plus ? '+' : s->space ? ' ' : 0;
  if (!isfinite(v)) {
    const char *t = isnan(v) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
    emit(b, s, sign, "", 0, t, 3, false);
    return;
  }
  const double a = fabs(v);
  const bool zero = a == 0;
  if (conv == 'a' || conv == 'A') {
    const size_t n = fmt_a(body, a, s->prec, s->hash, upper);
    emit(b, s, sign, upper ? "0X" : "0x", 0, body, n, true); /* 0 flag: zeros after the 0x */
    return;
  }
  int nd = 1, pt = 1;
  if (!zero) nd = exact_digits(a, d, &pt);
  const int p = s->prec < 0 ? 6 : s->prec;
  size_t n;
  if (conv == 'f' || conv == 'F') {
    n = fmt_f(body, d, nd, pt, zero, p, s->hash);
  } else if (conv == 'e' || conv == 'E') {
    n = fmt_e(body, d, nd, pt, zero, p, s->hash, upper ? 'E' : 'e');
  } else {
    /* g: P significant digits; X the exponent e style would have; f style when P > X >= -4 */
    const int P = s->prec < 0 ? 6 : s->prec == 0 ? 1 : s->prec;
    const int X = e_exponent(d, nd, pt, zero, P - 1);
    if (P > X && X >= -4) n = fmt_f(body, d, nd, pt, zero, P - 1 - X, s->hash);
    else n = fmt_e(body, d, nd, pt, zero, P - 1, s->hash, upper ? 'E' : 'e');
    if (!s->hash) n = strip_zeros(body, n);
  }
  emit(b, s, sign, "", 0, body, n, true);
}
