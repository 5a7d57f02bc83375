/*
 * cli_test.h — `spvi test CASES.json`: runs every case of a case file with `spvi run` (this very
 * executable, one child process per case, several at a time), checks its outputs, faults and
 * reports against the case's expectations, and writes JUnit XML and SARIF 2.1.0 for CI systems.
 * The case format is docs/cli.md's "spvi test".
 */
#ifndef CLI_TEST_H
#define CLI_TEST_H

/* argv holds what follows `test`; returns the exit status (0 all passed, 1 a case failed, 2 bad
 * usage or an unreadable case file). */
int cli_test_main(int argc, char **argv);

#endif
