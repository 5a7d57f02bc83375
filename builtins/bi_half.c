/*
 * bi_half.c — IEEE binary16 conversions (see bi_half.h) and the public spvi_half_from_double /
 * spvi_half_to_double of include/spvi.h.
 *
 * Narrowing decomposes the source into sign * m * 2^e with an integer m, then rounds that exact value
 * once (round_pack); widening rebuilds the wider pattern directly. All of it is integer code, so the
 * host's rounding mode and NaN handling never enter (OpenCL C 3.0 §6.3.1.1: conversions to half are
 * correctly rounded, from half lossless).
 */
#include "bi_half.h"
#include "spvi.h"

#include <stdbool.h>
#include <string.h>

#define H_SIGN 0x8000u
#define H_INF 0x7c00u
#define H_QNAN 0x0200u /* quiet bit: the top fraction bit (IEEE 754-2008 §6.2.1) */
#define H_MAX 0x7bffu  /* 65504 */

/* Index of the most significant set bit of m (m != 0), by halving the search window. */
static int msb64(uint64_t m) {
  int p = 0;
  for (int s = 32; s > 0; s >>= 1)
    if (m >> s) {
      m >>= s;
      p += s;
    }
  return p;
}

/* The overflow result for a value whose magnitude rounds beyond 65504 (IEEE 754-2008 §7.4: the
 * directed modes that round toward zero for this sign give the largest finite number). */
static uint16_t overflow(uint16_t sign, bi_round r) {
  bool to_max = r == BI_RTZ || (r == BI_RTP && sign) || (r == BI_RTN && !sign);
  return (uint16_t)(sign | (to_max ? H_MAX : H_INF));
}

/* Round the exact value (-1)^sign * m * 2^e (m > 0) to binary16 in mode r.
 *
 * With E = floor(log2(value)), the result's quantum is 2^(max(E, -14) - 10): 11 significant bits for
 * normal results, the fixed 2^-24 of the subnormal range below 2^-14. q = value / quantum rounded to
 * an integer; the encoding is then ((qexp + 24) << 10) + q, which for a normal q in [2^10, 2^11)
 * supplies the implicit bit as one extra exponent step, for a subnormal (qexp = -24) is just q, and
 * absorbs a rounding carry (q = 2^11, or a subnormal reaching 2^10) as the next exponent. */
static uint16_t round_pack(uint16_t sign, uint64_t m, int e, bi_round r) {
  const int E = msb64(m) + e;
  if (E > 15) return overflow(sign, r); /* >= 2^16 > 65504 whatever the mode */
  const int qexp = (E < -14 ? -14 : E) - 10;
  const int shift = qexp - e; /* low bits of m below the quantum */
  uint64_t q;
  bool up = false;
  if (shift <= 0) {
    q = m << -shift; /* exact; q < 2^11 so no bits are lost */
  } else {
    /* rem/half compare the discarded part with half a quantum. For shift > 64, m < 2^64 <= half. */
    uint64_t rem, halfq;
    if (shift > 64) {
      q = 0;
      rem = 1;
      halfq = 2; /* nonzero and below half a quantum */
    } else if (shift == 64) {
      q = 0;
      rem = m;
      halfq = (uint64_t)1 << 63;
    } else {
      q = m >> shift;
      rem = m & (((uint64_t)1 << shift) - 1);
      halfq = (uint64_t)1 << (shift - 1);
    }
    if (rem != 0) {
      switch (r) {
      case BI_RTZ: up = false; break;
      case BI_RTP: up = !sign; break;
      case BI_RTN: up = sign != 0; break;
      default: up = rem > halfq || (rem == halfq && (q & 1)); break; /* ties to even */
      }
    }
  }
  q += up;
  const uint64_t bits = ((uint64_t)(qexp + 24) << 10) + q;
  if (bits >= H_INF) return overflow(sign, r);
  return (uint16_t)(sign | bits);
}

uint16_t bi_half_from_f32bits(uint32_t b, bi_round r) {
  const uint16_t sign = (uint16_t)((b >> 16) & H_SIGN);
  const uint32_t exp = (b >> 23) & 0xffu, frac = b & 0x7fffffu;
  if (exp == 0xffu) {
    if (frac == 0) return (uint16_t)(sign | H_INF);
    return (uint16_t)(sign | H_INF | H_QNAN | (frac >> 13)); /* keep the top 9 payload bits */
  }
  if (exp == 0 && frac == 0) return sign;
  if (exp == 0) return round_pack(sign, frac, -149, r); /* float subnormal: frac * 2^-149 */
  return round_pack(sign, frac | 0x800000u, (int)exp - 150, r);
}

uint16_t bi_half_from_f64bits(uint64_t b, bi_round r) {
  const uint16_t sign = (uint16_t)((b >> 48) & H_SIGN);
  const uint32_t exp = (uint32_t)(b >> 52) & 0x7ffu;
  const uint64_t frac = b & 0xfffffffffffffull;
  if (exp == 0x7ffu) {
    if (frac == 0) return (uint16_t)(sign | H_INF);
    return (uint16_t)(sign | H_INF | H_QNAN | (uint16_t)(frac >> 42));
  }
  if (exp == 0 && frac == 0) return sign;
  if (exp == 0) return round_pack(sign, frac, -1074, r);
  return round_pack(sign, frac | 0x10000000000000ull, (int)exp - 1075, r);
}

uint16_t bi_half_from_float(float f, bi_round r) {
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  return bi_half_from_f32bits(b, r);
}

uint16_t bi_half_from_double(double d, bi_round r) {
  uint64_t b;
  memcpy(&b, &d, sizeof b);
  return bi_half_from_f64bits(b, r);
}

/* Widening: a half is (-1)^s * frac * 2^-24 (exp == 0) or (-1)^s * (1024 + frac) * 2^(exp - 25).
 * For subnormals, shift frac up until its leading bit reaches the implicit-bit position (bit 10);
 * each shift lowers the exponent by one. */
static void half_fields(uint16_t h, int *exp, uint32_t *frac) {
  int e = (h >> 10) & 0x1f;
  uint32_t f = h & 0x3ffu;
  if (e == 0 && f != 0) {
    e = 1;
    while (!(f & 0x400u)) {
      f <<= 1;
      e--;
    }
    f &= 0x3ffu;
  }
  *exp = e; /* biased by 15; <= 0 only for normalised subnormals */
  *frac = f;
}

float bi_half_to_float(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & H_SIGN) << 16;
  const uint32_t hexp = (h >> 10) & 0x1fu, hfrac = h & 0x3ffu;
  uint32_t b;
  if (hexp == 0x1fu) {
    b = sign | 0x7f800000u | (hfrac ? 0x400000u | (hfrac << 13) : 0);
  } else if (hexp == 0 && hfrac == 0) {
    b = sign;
  } else {
    int e;
    uint32_t f;
    half_fields(h, &e, &f);
    b = sign | ((uint32_t)(e - 15 + 127) << 23) | (f << 13);
  }
  float out;
  memcpy(&out, &b, sizeof out);
  return out;
}

double bi_half_to_double(uint16_t h) {
  const uint64_t sign = (uint64_t)(h & H_SIGN) << 48;
  const uint32_t hexp = (h >> 10) & 0x1fu, hfrac = h & 0x3ffu;
  uint64_t b;
  if (hexp == 0x1fu) {
    b = sign | 0x7ff0000000000000ull | (hfrac ? 0x8000000000000ull | ((uint64_t)hfrac << 42) : 0);
  } else if (hexp == 0 && hfrac == 0) {
    b = sign;
  } else {
    int e;
    uint32_t f;
    half_fields(h, &e, &f);
    b = sign | ((uint64_t)(e - 15 + 1023) << 52) | ((uint64_t)f << 42);
  }
  double out;
  memcpy(&out, &b, sizeof out);
  return out;
}

/* include/spvi.h: round to nearest even, exact, host-independent. */
uint16_t spvi_half_from_double(double v) { return bi_half_from_double(v, BI_RTE); }
double spvi_half_to_double(uint16_t h) { return bi_half_to_double(h); }
