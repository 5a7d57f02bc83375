/*
 * cli_num.h — numeric literals of the `spvi` command: integers checked against each type's range,
 * floats rounded once to nearest-even in half/float/double, inf/nan, little-endian storage, and the
 * exact 65-bit integer arithmetic that range() needs. Pure: nothing here needs the spvi library.
 */
#ifndef CLI_NUM_H
#define CLI_NUM_H

#include "cli_types.h"

/* An integer in [-(2^64-1), 2^64-1] as sign and magnitude: wide enough for every value of
 * long and ulong and for the differences between them. Zero is never negative. */
typedef struct cli_int {
  bool neg;
  uint64_t mag;
} cli_int;

/* Parses `len` bytes as [+-](DIGITS | 0xHEXDIGITS). False with a message on bad syntax or a
 * magnitude above 2^64-1 (`type_name` names the type in that message). */
bool cli_int_parse(const char *s, size_t len, const char *type_name, cli_int *out, cli_error *e);
bool cli_int_fits(const cli_scalar *t, cli_int v);
cli_int cli_int_min(const cli_scalar *t);
cli_int cli_int_max(const cli_scalar *t);
/* a + b and k * b; false when the magnitude of the result would reach 2^64. */
bool cli_int_add(cli_int a, cli_int b, cli_int *r);
bool cli_int_mul(uint64_t k, cli_int b, cli_int *r);
/* The value modulo 2^64 (two's complement bits). */
uint64_t cli_int_bits(cli_int v);
/* Decimal spelling, e.g. "-128". buf needs 22 bytes. */
const char *cli_int_str(cli_int v, char *buf, size_t cap);
/* "out of range for char (-128..127)"-style suffix for type t. */
const char *cli_int_range_str(const cli_scalar *t, char *buf, size_t cap);

/* IEEE binary16 <-> double. From double: round to nearest, ties to even; magnitudes that round
 * past 65504 give infinity. Both exact and host-independent. */
uint16_t cli_half_from_double(double v);
double cli_half_to_double(uint16_t h);

/* Rounds a double to type t (half/float/double, nearest-even) and returns its bit pattern in
 * *bits; false when finite v overflows to infinity in t. */
bool cli_float_from_double(const cli_scalar *t, double v, uint64_t *bits);
/* The value of a half/float/double bit pattern. */
double cli_float_to_double(const cli_scalar *t, uint64_t bits);

/* Parses one literal of scalar type t from `len` bytes of s into its bit pattern, in the low
 * t->bits bits of *bits (the rest are 0). Integers: [+-](DIGITS|0xHEX) within the type's range.
 * Floats: decimal or C99 hex-float literal, rounded once to nearest-even in t (a finite literal
 * that rounds past the largest finite value is an error), or [+-]inf, [+-]nan (quiet NaN,
 * payload 0). */
bool cli_scalar_parse(const cli_scalar *t, const char *s, size_t len, uint64_t *bits, cli_error *e);

/* Little-endian store/load of the low `bytes` bytes (1..8). */
void cli_store_le(unsigned char *dst, uint64_t bits, unsigned bytes);
uint64_t cli_load_le(const unsigned char *src, unsigned bytes);

#endif
