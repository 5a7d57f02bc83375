#!/bin/sh
# run.sh — entry point that tests/run_all.sh calls for the `spvi` command tests; the cases live
# in test_cli.sh (kept under that name so it can also be run on its own).
exec sh "$(dirname "$0")/test_cli.sh" "$@"
