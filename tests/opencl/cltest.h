/*
 * cltest.h — the setup the OpenCL host tests (tests/opencl/test_*.c) share: spvi's platform and
 * device through the ICD loader, a context and an in-order queue, programs built from OpenCL C
 * source with their build log printed on failure, kernels, and whole files read into memory.
 * The Makefile links tests/opencl/cltest.c into every test program but test_compile.
 *
 * Include it first: it brings <CL/cl.h> (define CL_TARGET_OPENCL_VERSION and CL_USE_DEPRECATED_*
 * before it when a test needs other than 3.0's API), the C headers the tests use and cmocka.
 */
#ifndef CLTEST_H
#define CLTEST_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

/* Asserts that an OpenCL call returned CL_SUCCESS. */
#define CHECK(x) assert_int_equal((x), CL_SUCCESS)
#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* What a test group works with (context and queue are NULL after cltest_device alone). */
typedef struct {
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
} cltest_env;

/* The group's objects of cltest_group_setup (tests name them with #defines of their own). */
extern cltest_env cltest;

/* cmocka group fixtures: cltest_setup(&cltest) and cltest_teardown(&cltest). */
int cltest_group_setup(void **state);
int cltest_group_teardown(void **state);

/* The first platform and its first device into env: 0, or -1 when there is none. */
int cltest_device(cltest_env *env);

/* cltest_device, then a context on the device and a queue without properties: 0, or -1 on any
 * failure. For cmocka group setups. */
int cltest_setup(cltest_env *env);

/* Releases what cltest_setup created (queue, then context); returns 0, for cmocka group teardowns. */
int cltest_teardown(cltest_env *env);

/* A program built for dev from OpenCL C source with options (NULL: none); the build log goes to
 * stderr when the build fails, and the program is released and NULL returned (the error in *err
 * when err is not NULL). Does not assert: usable in group setups. */
cl_program cltest_try_build(cl_context ctx, cl_device_id dev, const char *src, const char *options, cl_int *err);

/* cltest_try_build that asserts that the build succeeded. */
cl_program cltest_build(cl_context ctx, cl_device_id dev, const char *src, const char *options);

/* Kernel `name` of p; asserts that it exists. */
cl_kernel cltest_kernel(cl_program p, const char *name);

/* The whole of file `path`, malloc'd with a NUL after the end (length in *len when len is not
 * NULL); NULL when it cannot be read. */
void *cltest_read_file(const char *path, size_t *len);

#endif
