/*
 * spvasm.h — modules from SPIR-V assembly files (hand-written kernels: tests/spvasm_checks,
 * tests/debug), assembled at test time with the SPIRV-Tools C API and loaded through the public
 * API.
 */
#ifndef SPVASM_H
#define SPVASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spvi.h"

/* The module of the assembly file at `path` (from the repository root), assembled for SPIR-V
 * 1.`minor` (0 to 6), keeping the file's numeric ids when `keep_ids`, and loaded under the name
 * `name`. Fails the running cmocka test when the file cannot be read, does not assemble or does
 * not load. (<spirv-tools/libspirv.h> stays out of this header: in C it defines a variable, which
 * two objects of one program cannot both include.) */
spvi_module *spvasm_load(const char *path, unsigned minor, bool keep_ids, const char *name);

/* SPIR-V assembly text[0..len) assembled for SPIR-V 1.`minor`, numeric ids kept when `keep_ids`: the
 * words (malloc'd) and their count in *nwords. `what` names the text in the failure message (the
 * running cmocka test fails when it does not assemble). */
uint32_t *spvasm_assemble(const char *text, size_t len, unsigned minor, bool keep_ids, const char *what,
                          size_t *nwords);

#endif
