/*
 * ex_svm.h — shared virtual memory (ex_svm.c): the process-wide registry of SVM allocations and
 * the per-run snapshot the executor resolves SVM pointers against.
 *
 * An SVM allocation's host address is also its kernel pointer (OpenCL 3.0 API spec, 5.6 "Shared
 * Virtual Memory"). Kernel pointers are otherwise (id << 40) | (offset + 2^39) (ex.h "Pointers"),
 * so SVM memory is mapped at fixed host addresses whose bits 40..46 — the id field — are high
 * (windows 0x7d downwards): such an address has an id at or above any launch's allocation count,
 * ex_mem sends it to its out-of-line path (ex_mem_far), and only there is it looked up here.
 */
#ifndef EX_SVM_H
#define EX_SVM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* One SVM allocation: [base, base + size) usable, map_len bytes mapped. refs: the registry's
 * reference while it is live plus one per snapshot holding it, so memory a running launch may
 * reach stays mapped even if the host frees it too early. */
typedef struct ex_svm_block {
  uint64_t base, size, map_len;
  _Atomic uint32_t refs;
} ex_svm_block;

/* The live allocations when a run started, sorted by base (read-only, shared by the run's threads). */
typedef struct ex_svm_snap {
  uint32_t n;
  ex_svm_block **blocks;
  uint64_t min_window; /* the smallest address window (id field) of the blocks */
} ex_svm_snap;

/* A snapshot of the registry; NULL when there is no SVM allocation (or no memory for one). */
ex_svm_snap *ex_svm_snapshot(void);
void ex_svm_snap_free(ex_svm_snap *s);
/* The block of s that contains address p, or NULL. */
const ex_svm_block *ex_svm_lookup(const ex_svm_snap *s, uint64_t p);
/* The block that contains p or lies within EX_SVM_GAP bytes of it (for reports of accesses just
 * outside an allocation), or NULL. */
const ex_svm_block *ex_svm_near(const ex_svm_snap *s, uint64_t p);
/* Whether p is in a live allocation or one past its end (what spvi_set_arg_svm accepts). */
bool ex_svm_valid_arg(uint64_t p);

/* Unmapped bytes between two allocations: an access that runs a little past an allocation faults
 * (in kernels: out of bounds of that allocation) instead of reaching the next one. */
#define EX_SVM_GAP ((uint64_t)1 << 20)

#endif
