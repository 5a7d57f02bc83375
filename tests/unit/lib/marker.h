/*
 * marker.h — source lines named by a marker instead of a number, so that a test never hard-codes
 * a line of a kernel it runs: the kernel can be edited above the line, and the reader of the test
 * sees which statement is meant.
 *
 * A marker is `@name` (letters, digits, `_`, `-`) in the comment that ends the line it names, after
 * the code (a comment line of its own may mention `@name`: it names nothing):
 *   tests/kernels/NAME.cl   `tmp[lid] += tmp[lid + s];   // @race-rw`: the line is the one of the
 *                           marker in the file (what clang -g records in the module's OpLine);
 *   FILE.spvasm             `OpLine %src 23 0   ; @early-read`: hand-written assembly has no source
 *                           file, the marked OpLine's line operand is the line.
 * Tests run from the repository root, so paths are relative to it.
 */
#ifndef MARKER_H
#define MARKER_H

/* The line named by `@name` in the file at `path`. Fails the running cmocka test when the file
 * cannot be read, or the marker is missing or on more than one line. */
unsigned marker_line(const char *path, const char *name);

#endif
