/*
 * ex_svm.c — shared virtual memory: spvi_svm_alloc/free/find, the registry of live allocations,
 * and the executor's path for pointers that are not (id, offset) pairs.
 *
 * OpenCL 3.0 API spec 5.6 ("Shared Virtual Memory"): an SVM allocation is one address range shared
 * by the host and kernels, so a pointer stored by one side is dereferenced by the other unchanged
 * (coarse- and fine-grained buffer SVM; spvi runs kernels on the host's memory, so the two are the
 * same thing here, and map/unmap are no-ops for the platform).
 *
 * Address windows. A kernel pointer is (id << 40) | (offset + 2^39) for Physical64 (ex.h
 * "Pointers"); the executor's fast path (ex_mem) takes ids below the launch's allocation count as
 * its own. SVM memory is therefore mmap'ed at fixed addresses in 1 TiB windows whose id field
 * (address >> 40) is high: window 0x7d first (x86-64 user space ends at 2^47, id 0x7f, where the
 * stack and shared libraries live; 0x7e can hold mmap'ed libraries under ASLR), then downwards to
 * 0x20 when a window is full or occupied (MAP_FIXED_NOREPLACE: nothing of the process is ever
 * replaced; sanitizer runtimes reserve 0x60..0x63, for instance). An SVM address's id is thus at or
 * above every launch's allocation count as long as that count stays below the window (spvi_run
 * refuses a launch with SVM arguments otherwise), and ex_mem sends it to ex_mem_far, which looks it
 * up in the run's snapshot of the registry. Allocations never share pages and are EX_SVM_GAP bytes
 * apart (unmapped), so a small overrun faults in kernels and on the host alike.
 *
 * Lifetime: the registry holds one reference to each live block, every run's snapshot one more, so
 * spvi_svm_free during a run that could reach the block (an API misuse) leaves it mapped until the
 * run ends instead of letting the kernel touch unmapped memory.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_FIXED_NOREPLACE */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ex_api.h"
#include "ex_internal.h"
#include "ex_svm.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000 /* Linux 4.17; older kernels take the address as a hint */
#endif

#define WIN_SHIFT 40 /* the Physical64 id field (ex_globals.c) */
#define WIN_FIRST 0x7dull
#define WIN_LAST 0x20ull
#define MAX_BYTES ((uint64_t)1 << 38) /* one allocation: a quarter of a window */
#define MAX_ALIGN ((uint64_t)1 << 30)
#define SKIP ((uint64_t)1 << 32) /* past an occupied range: try 4 GiB further */
#define MAX_TRIES 256            /* mmap attempts per allocation */

static pthread_rwlock_t reg_lock = PTHREAD_RWLOCK_INITIALIZER;
static ex_svm_block **reg; /* live blocks sorted by base */
static uint32_t nreg, capreg;
static uint64_t cur_win, next_addr; /* the window being filled and its first free address */

static void block_unref(ex_svm_block *b) {
  if (atomic_fetch_sub(&b->refs, 1) != 1) return;
  munmap((void *)(uintptr_t)b->base, b->map_len);
  free(b);
}

/* Index of the last block whose base is <= p in a sorted array, or -1. */
static long last_at_or_below(ex_svm_block *const *v, uint32_t n, uint64_t p) {
  long lo = 0, hi = (long)n - 1, best = -1;
  while (lo <= hi) {
    const long mid = lo + (hi - lo) / 2;
    if (v[mid]->base <= p) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/* Map len bytes aligned to al in the SVM windows; 0 when there is no room (the lock is held). */
static uint64_t place(uint64_t len, uint64_t al) {
  if (!cur_win) {
    cur_win = WIN_FIRST;
    next_addr = cur_win << WIN_SHIFT;
  }
  for (int tries = 0; tries < MAX_TRIES; tries++) {
    const uint64_t a = (next_addr + al - 1) & ~(al - 1), win_end = (cur_win + 1) << WIN_SHIFT;
    if (a + len > win_end || a < next_addr) { /* the window is full: the next one down */
      if (cur_win == WIN_LAST) return 0;
      cur_win--;
      next_addr = cur_win << WIN_SHIFT;
      continue;
    }
    void *p = mmap((void *)(uintptr_t)a, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
                   -1, 0);
    if (p == (void *)(uintptr_t)a) {
      next_addr = a + len + EX_SVM_GAP;
      return a;
    }
    if (p == MAP_FAILED && errno != EEXIST) return 0; /* out of memory, not a collision */
    if (p != MAP_FAILED) munmap(p, len);              /* an old kernel moved it: the range is taken */
    next_addr = a + SKIP;
  }
  return 0;
}

static bool reg_insert(ex_svm_block *b) {
  if (nreg == capreg) {
    const uint32_t cap = capreg ? 2 * capreg : 16;
    ex_svm_block **v = realloc(reg, cap * sizeof *v);
    if (!v) return false;
    reg = v;
    capreg = cap;
  }
  const long at = last_at_or_below(reg, nreg, b->base) + 1;
  memmove(reg + at + 1, reg + at, (nreg - (uint32_t)at) * sizeof *reg);
  reg[at] = b;
  nreg++;
  return true;
}

void *spvi_svm_alloc(size_t bytes, size_t alignment, spvi_error *err) {
  ex_clear_err(err);
  if (bytes == 0 || bytes > MAX_BYTES) {
    ex_set_err(err, SPVI_E_USAGE, "SVM allocation of %zu bytes: the size must be 1 .. %llu bytes", bytes,
               (unsigned long long)MAX_BYTES);
    return NULL;
  }
  if (!ex_alloc_fits(bytes, "an SVM allocation", err)) return NULL; /* spvi_max_alloc_size, below MAX_BYTES */
  if (alignment & (alignment - 1) || alignment > MAX_ALIGN) {
    ex_set_err(err, SPVI_E_USAGE, "SVM alignment %zu is not a power of two up to %llu (or 0)", alignment,
               (unsigned long long)MAX_ALIGN);
    return NULL;
  }
  const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
  const uint64_t len = (bytes + page - 1) / page * page, al = alignment > page ? alignment : page;
  ex_svm_block *b = malloc(sizeof *b);
  if (!b) {
    ex_set_err(err, SPVI_E_NOMEM, "out of memory for an SVM allocation");
    return NULL;
  }
  pthread_rwlock_wrlock(&reg_lock);
  const uint64_t a = place(len, al);
  bool ok = a != 0;
  if (ok) {
    *b = (ex_svm_block){.base = a, .size = bytes, .map_len = len};
    atomic_init(&b->refs, 1);
    ok = reg_insert(b);
    if (!ok) munmap((void *)(uintptr_t)a, len);
  }
  pthread_rwlock_unlock(&reg_lock);
  if (!ok) {
    free(b);
    ex_set_err(err, SPVI_E_NOMEM,
               "no room for a %zu-byte SVM allocation (spvi maps SVM memory at fixed addresses "
               "0x%llx..0x%llx: out of memory, or that address range is taken)",
               bytes, (unsigned long long)(WIN_LAST << WIN_SHIFT),
               (unsigned long long)((WIN_FIRST + 1) << WIN_SHIFT) - 1);
    return NULL;
  }
  return (void *)(uintptr_t)a; /* mmap'ed anonymous memory is zero-filled */
}

void spvi_svm_free(void *ptr) {
  if (!ptr) return;
  ex_svm_block *b = NULL;
  pthread_rwlock_wrlock(&reg_lock);
  const long i = last_at_or_below(reg, nreg, (uint64_t)(uintptr_t)ptr);
  if (i >= 0 && reg[i]->base == (uint64_t)(uintptr_t)ptr) {
    b = reg[i];
    memmove(reg + i, reg + i + 1, (nreg - (uint32_t)i - 1) * sizeof *reg);
    nreg--;
  }
  pthread_rwlock_unlock(&reg_lock);
  if (b) block_unref(b); /* a pointer that is not an allocation's start: nothing (void API) */
}

/* The live block containing p (or ending at p when `end_ok`); the lock is held. */
static const ex_svm_block *reg_find(uint64_t p, bool end_ok) {
  const long i = last_at_or_below(reg, nreg, p);
  if (i < 0) return NULL;
  const uint64_t off = p - reg[i]->base;
  return off < reg[i]->size || (end_ok && off == reg[i]->size) ? reg[i] : NULL;
}

bool spvi_svm_find(const void *ptr, void **base, size_t *bytes) {
  pthread_rwlock_rdlock(&reg_lock);
  const ex_svm_block *b = reg_find((uint64_t)(uintptr_t)ptr, false);
  if (b) {
    if (base) *base = (void *)(uintptr_t)b->base;
    if (bytes) *bytes = (size_t)b->size;
  }
  pthread_rwlock_unlock(&reg_lock);
  return b != NULL;
}

bool ex_svm_valid_arg(uint64_t p) {
  pthread_rwlock_rdlock(&reg_lock);
  const bool ok = reg_find(p, true) != NULL;
  pthread_rwlock_unlock(&reg_lock);
  return ok;
}

ex_svm_snap *ex_svm_snapshot(void) {
  pthread_rwlock_rdlock(&reg_lock);
  ex_svm_snap *s = nreg ? malloc(sizeof *s) : NULL;
  ex_svm_block **v = s ? malloc(nreg * sizeof *v) : NULL;
  if (v) {
    s->n = nreg;
    s->blocks = v;
    s->min_window = UINT64_MAX;
    for (uint32_t i = 0; i < nreg; i++) {
      v[i] = reg[i];
      atomic_fetch_add(&reg[i]->refs, 1);
      if (reg[i]->base >> WIN_SHIFT < s->min_window) s->min_window = reg[i]->base >> WIN_SHIFT;
    }
  } else {
    free(s);
    s = NULL;
  }
  pthread_rwlock_unlock(&reg_lock);
  return s;
}

void ex_svm_snap_free(ex_svm_snap *s) {
  if (!s) return;
  for (uint32_t i = 0; i < s->n; i++) block_unref(s->blocks[i]);
  free(s->blocks);
  free(s);
}

const ex_svm_block *ex_svm_lookup(const ex_svm_snap *s, uint64_t p) {
  const long i = last_at_or_below(s->blocks, s->n, p);
  return i >= 0 && p - s->blocks[i]->base < s->blocks[i]->size ? s->blocks[i] : NULL;
}

const ex_svm_block *ex_svm_near(const ex_svm_snap *s, uint64_t p) {
  const long i = last_at_or_below(s->blocks, s->n, p);
  if (i >= 0 && p - s->blocks[i]->base < s->blocks[i]->size + EX_SVM_GAP) return s->blocks[i];
  if ((uint32_t)(i + 1) < s->n && s->blocks[i + 1]->base - p <= EX_SVM_GAP) return s->blocks[i + 1];
  return NULL;
}

/* ---- the executor's side ------------------------------------------------------------------- */

/* Record a fault at SVM block b (offset p - b->base, negative before it). */
static void *svm_fault(ex_ctx *cx, spvi_fault_kind k, ex_warp *w, unsigned lane, const ex_svm_block *b, uint64_t p,
                       uint64_t n, const char *detail) {
  if (cx->faulted) return NULL;
  ex_fault(cx, k, w, lane, 0, (int64_t)(p - b->base), n, detail);
  cx->fsvm_base = b->base;
  cx->fsvm_size = b->size;
  return NULL;
}

uint8_t *ex_mem_far(ex_ctx *cx, ex_warp *w, unsigned lane, uint64_t p, uint64_t n, bool write) {
  const char *what = write ? "write" : "read";
  if (p != 0 && cx->svm) {
    const ex_svm_block *b = ex_svm_lookup(cx->svm, p);
    if (b && n <= b->base + b->size - p) return (uint8_t *)(uintptr_t)p;
    if (!b) b = ex_svm_near(cx->svm, p);
    if (b && !cx->keep_going) return svm_fault(cx, SPVI_FAULT_OUT_OF_BOUNDS, w, lane, b, p, n, what);
    if (b) return ex_fault_access(cx, SPVI_FAULT_OUT_OF_BOUNDS, w, lane, 0, (int64_t)p, n, write);
  }
  /* id 0 is the null pointer's (ex.h "Pointers"): null plus an offset, p[i] through a null p */
  const bool null = (p & cx->ptr_mask) >> cx->shift == 0;
  return ex_fault_access(cx, null ? SPVI_FAULT_NULL_POINTER : SPVI_FAULT_BAD_POINTER, w, lane, 0, (int64_t)p, n, write);
}

void *ex_fault_ptr(ex_ctx *cx, spvi_fault_kind k, ex_warp *w, unsigned lane, uint64_t p, uint64_t n,
                   const char *detail) {
  const uint64_t id = (p & cx->ptr_mask) >> cx->shift;
  if (id < cx->nallocs)
    return ex_fault(cx, k, w, lane, (uint32_t)id, (int64_t)((p & cx->off_mask) - cx->bias), n, detail);
  const ex_svm_block *b = cx->svm ? ex_svm_near(cx->svm, p) : NULL;
  if (b) return svm_fault(cx, k, w, lane, b, p, n, detail);
  return ex_fault(cx, k, w, lane, 0, (int64_t)p, n, detail);
}

bool ex_svm_in_global(const ex_ctx *cx, uint64_t p) { return cx->svm && ex_svm_lookup(cx->svm, p); }
