/*
 * cli_types.h — the element types the `spvi` command understands (char … double and their
 * vectors), the table that describes them, and the error buffer every CLI module reports into.
 * Pure: nothing here needs the spvi library.
 */
#ifndef CLI_TYPES_H
#define CLI_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum cli_kind { CLI_SINT, CLI_UINT, CLI_FLOAT } cli_kind;

/* One OpenCL C scalar type: its spelling, arithmetic kind, width and NumPy dtype descriptor. */
typedef struct cli_scalar {
  const char *name; /* "uchar" */
  cli_kind kind;
  unsigned bits;   /* 8, 16, 32 or 64 */
  const char *npy; /* "|u1" */
} cli_scalar;

/* A scalar or vector element type: `float4` is {float, 4}. A 3-element vector occupies 4 slots
 * in memory (OpenCL: sizeof(float3) == sizeof(float4)); the 4th slot is padding. */
typedef struct cli_elem {
  const cli_scalar *scalar;
  unsigned width; /* 1, 2, 3, 4, 8 or 16 */
} cli_elem;

/* Every failing CLI function fills one of these with a one-line message (no "spvi: error:"
 * prefix, no newline) and returns false; the caller adds where the text came from. */
typedef struct cli_error {
  char msg[1024];
} cli_error;

bool cli_fail(cli_error *e, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 2, 3)))
#endif
  ;

/* Table of the 11 scalar types, in the order char uchar short ushort int uint long ulong half
 * float double. */
extern const cli_scalar cli_scalars[];
extern const size_t cli_scalar_count;

/* Exact lookup of a scalar name ("float"); NULL when unknown. `len` bytes of `name` are used. */
/* An argument as messages quote it: itself, or when longer than 128 bytes its first 64 bytes and
 * how many were cut ("int[4]=1,1,1... (59936 bytes cut)"); buf (cap >= 112) holds the cut form. A
 * cli_fail message longer than cli_error.msg ends the same way. */
const char *cli_echo(const char *text, char *buf, size_t cap);

/* One "spvi: error: ..." line on stderr (the command's messages for bad usage and failures). */
void cli_say_error(const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 1, 2)))
#endif
  ;

const cli_scalar *cli_scalar_by_name(const char *name, size_t len);
/* Parses "float", "uint4", "half16" (exactly `len` bytes) into *out; false when it is not one. */
bool cli_elem_parse(const char *text, size_t len, cli_elem *out);
/* Slots an element occupies in memory (3 → 4), and its size in bytes. */
unsigned cli_elem_slots(cli_elem t);
size_t cli_elem_size(cli_elem t);
/* "float4", "uint": writes the spelling into buf (at least 16 bytes). */
const char *cli_elem_name(cli_elem t, char *buf, size_t cap);

#endif
