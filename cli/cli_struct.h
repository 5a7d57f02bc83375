/*
 * cli_struct.h — struct buffers as NumPy and people see them: the structured dtype of a struct
 * layout (spvi_param_struct) for --out, and one struct element as text for --print.
 */
#ifndef CLI_STRUCT_H
#define CLI_STRUCT_H

#include <stdio.h>

#include "cli_npy.h"
#include "cli_types.h"
#include "spvi.h"

/* The .npy descr of s as numpy.lib.format writes a structured dtype: "[('a', '<i4'), ('', '|V4'),
 * ('b', '<f8')]" — unnamed '|V' entries for padding (numpy reads them back as offsets), nested
 * structs as lists, arrays and vectors (their memory slots: float3 has 4) as a shape. malloc'd;
 * NULL when out of memory. */
char *cli_struct_descr(const spvi_struct *s);

/* The scalar runs of s as cli_npy_parse reads them from the descr cli_struct_descr writes
 * (padding left out, adjacent runs of one type merged); false when there are more than
 * CLI_NPY_MAX_LEAVES. */
bool cli_struct_leaves(const spvi_struct *s, cli_npy_leaf *leaves, unsigned *n);

/* --print of a struct buffer of `count` elements of s: the elements field by field,
 * "{a: 1, b: 2.5, v: (1 2 3), s: {x: 0}, arr: [1 2 3]}", bounded as cli_print_values bounds a
 * buffer (at most max elements). */
void cli_struct_print(FILE *f, int index, const spvi_struct *s, size_t count, const unsigned char *data, size_t max);

#endif
