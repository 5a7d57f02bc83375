/*
 * cli_heap.c — the spvi command's heap policy. Loading a large module spends most of its time in
 * SPIRV-Tools' validator, which allocates tens of megabytes in small pieces and frees them again:
 * with glibc's defaults that is one page fault per 4 KiB page touched (a fifth of the load time of
 * a 1 MiB module) plus trimming and re-growing the heap. So the command (not the library, which
 * must not change its host's allocator) grows the heap in 64 MiB steps, never gives it back before
 * exit (the process is short-lived and its peak is what counts), maps blocks of 8 MiB or more
 * apart, and asks the kernel for transparent huge pages in the heap (Linux `madvise` mode), which
 * turns those faults into a few 2 MiB ones. Measured on bench/gen_big_module.py's 1 MiB module,
 * one core: 0.12 s -> 0.065 s (docs/performance.md). Elsewhere (another C library or kernel) it
 * is a no-op or a plain hint.
 *
 * When the command is linked with mimalloc (the Makefile's MIMALLOC, the default where
 * libmimalloc-dev is installed) none of this applies: mimalloc's per-thread heaps and its own
 * reuse of freed memory serve the validator's threads, and the same load takes a sixth less time
 * on two cores, a quarter less on one (docs/performance.md, round three).
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT; mallopt */
#include "cli_heap.h"

#include <stdint.h>
#include <stdlib.h>

#if defined(__GLIBC__) && defined(__linux__) && !defined(SPVI_MIMALLOC)
#include <malloc.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#define HEAP_STEP ((size_t)64 << 20)
/* Blocks from this size on get their own mapping (when the heap's top cannot hold them), returned
 * at once when freed: the memory objects spvi allocates for buffer and image arguments (glibc maps
 * a posix_memalign'ed block apart as it does a malloc'ed one) and an input read whole from a pipe
 * would otherwise stay in the heap after their launch and add to the peak. */
#define MMAP_FROM ((size_t)8 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)

void cli_heap_setup(void) {
  /* Arenas: the validator runs on threads of its own beside the loader, one per part of a large
   * module (loader/ld_valparts.c), and allocates as much as it computes. One arena for all made them
   * queue on its lock (two parts took as long as one); one per core, plus the main thread's, lets
   * them run apart (1 MiB module, 2 cores: 0.094 s -> 0.067 s, docs/performance.md), though the
   * other arenas' pages are not advised for huge pages as the main heap's are below. */
  cpu_set_t set; /* the cores this process may use (`taskset -c 0`: one, and one part) */
  long cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
  if (cores < 1) cores = 1;
  if (!mallopt(M_ARENA_MAX, (int)(1 + (cores > 8 ? 8 : cores))) || !mallopt(M_TOP_PAD, (int)HEAP_STEP) ||
      !mallopt(M_TRIM_THRESHOLD, (int)(4 * HEAP_STEP)) || !mallopt(M_MMAP_THRESHOLD, (int)MMAP_FROM))
    return;
  /* grow the heap now (one allocation larger than what is left at its top), so that its first
   * HEAP_STEP bytes exist to be advised; they stay part of the heap after the free */
  const uintptr_t before = (uintptr_t)sbrk(0);
  void *p = malloc((size_t)1 << 20);
  const uintptr_t after = (uintptr_t)sbrk(0);
  free(p);
  const uintptr_t start = (before + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  if (p && after > start)
    (void)madvise((void *)start, after - start, MADV_HUGEPAGE); /* a hint: errors change nothing */
}
#else
void cli_heap_setup(void) {}
#endif
