/*
 * cli_npy.h — NumPy .npy files (format spec: numpy.lib.format): writing version 1.0 for --out,
 * reading versions 1.0, 2.0 and 3.0 for `@FILE.npy` buffer initialisers. Pure: no spvi library.
 */
#ifndef CLI_NPY_H
#define CLI_NPY_H

#include "cli_types.h"

#define CLI_NPY_MAX_DIMS 8

/* Scalar fields a structured dtype may have (nested and array fields counted as expanded). */
#define CLI_NPY_MAX_LEAVES 256

/* A run of `count` scalars of one type at `offset` in a structured dtype's item: a field (its
 * subarray shape flattened), or several adjacent ones of the same type merged. */
typedef struct cli_npy_leaf {
  size_t offset, count;
  char type[8]; /* "<f4", "|b1", "|V16" */
} cli_npy_leaf;

/* What an .npy header says. */
typedef struct cli_npy {
  char descr[32]; /* "<f4"; a structured dtype: "|V<itemsize>" (the fields are in leaves) */
  bool structured;
  size_t itemsize;  /* bytes per item */
  unsigned nleaves; /* structured: the fields without their padding */
  cli_npy_leaf leaves[CLI_NPY_MAX_LEAVES];
  bool fortran_order;
  unsigned ndim;
  size_t shape[CLI_NPY_MAX_DIMS];
  size_t data_offset; /* where the array data starts in the file */
} cli_npy;

/* True when the bytes start with the .npy magic "\x93NUMPY". */
bool cli_npy_has_magic(const unsigned char *data, size_t size);

/* Writes the complete version 1.0 header (magic, version, length, dict padded with spaces and a
 * final '\n' so that the data starts at a multiple of 64 bytes) into buf. Returns its length, or
 * 0 when cap is too small. ndim 1..CLI_NPY_MAX_DIMS. */
size_t cli_npy_header(char *buf, size_t cap, const char *descr, unsigned ndim, const size_t shape[]);

/* Writes header + `bytes` bytes of C-order data to path. */
bool cli_npy_write(const char *path, const char *descr, unsigned ndim, const size_t shape[], const void *data,
                   size_t bytes, cli_error *e);

/* Parses the header of an in-memory .npy file and checks that exactly the data it describes
 * follows it (`name` is used in messages). */
bool cli_npy_parse(const unsigned char *file, size_t size, const char *name, cli_npy *out, cli_error *e);

/* Bytes per item of a simple descr like "<f4" or "|u1" (0 when it has no trailing size). */
size_t cli_npy_itemsize(const char *descr);

/* Appends `count` scalars of `type` at `offset` to leaves, merged with the last one when they
 * continue it; false when there are CLI_NPY_MAX_LEAVES already. */
bool cli_npy_add_leaf(cli_npy_leaf *leaves, unsigned *n, size_t offset, const char *type, size_t count);

#endif
