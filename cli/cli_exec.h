/*
 * cli_exec.h — `spvi exec [options] [--] PROGRAM [ARGS...]`: runs an OpenCL application with spvi
 * (libspvi-cl.so, found next to the spvi binary) as its only OpenCL platform, passing the options
 * to the library through the environment (SPVI_CHECK, SPVI_REPORT, ...; docs/opencl-platform.md).
 */
#ifndef CLI_EXEC_H
#define CLI_EXEC_H

/* argv holds what follows `exec`. Returns the command's exit status: PROGRAM's (128 + N when a
 * signal N killed it), 1 when PROGRAM exited 0 but a kernel faulted or a check reported an error,
 * 2 for bad usage or a missing library, 126/127 when PROGRAM could not be run. */
int cli_exec_main(int argc, char **argv);

#endif
