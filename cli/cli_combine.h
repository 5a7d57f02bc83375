/*
 * cli_combine.h — `spvi merge --combine`: how the values several shards wrote to one element are
 * combined (docs/scaling.md). Each shard started from the same initial value `init` and applied
 * its work-groups' atomic updates; a shard's element v is init updated by its share. Pure: no
 * spvi library.
 */
#ifndef CLI_COMBINE_H
#define CLI_COMBINE_H

#include "cli_types.h"

typedef enum cli_combine_op {
  CLI_COMBINE_NONE, /* two shards writing one byte is an error (the default) */
  CLI_COMBINE_ADD,  /* init + sum of (v - init): atomic_add, _sub, _inc, _dec */
  CLI_COMBINE_MIN,
  CLI_COMBINE_MAX,
  CLI_COMBINE_OR,
  CLI_COMBINE_AND,
  CLI_COMBINE_XOR /* init ^ xor of (v ^ init) */
} cli_combine_op;

/* The operation named `name` ("add" ...); false when there is none. */
bool cli_combine_op_parse(const char *name, cli_combine_op *op);
const char *cli_combine_op_name(cli_combine_op op);
/* Whether the operation applies to elements of NumPy type `descr` ("<i4"); the message names
 * `what` (the argument) otherwise. Sets *size to the element's bytes. */
bool cli_combine_check(cli_combine_op op, const char *descr, const char *what, size_t *size, cli_error *e);
/* acc = acc (op) v for one element of type descr (checked), init its initial value (add and xor
 * only: NULL for the others). */
void cli_combine_elem(cli_combine_op op, const char *descr, unsigned char *acc, const unsigned char *v,
                      const unsigned char *init);

#endif
