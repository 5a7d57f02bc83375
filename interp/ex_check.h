/*
 * ex_check.h — the executor's non-fatal reports (checkers): what a checker hands over when it finds
 * something, and the launch-wide collection that groups, orders and formats them (ex_check.c).
 *
 * A fault stops a launch (ex_fault); a report does not. Checkers call ex_check_report from any
 * worker thread; the collection groups reports of one kind at the same instruction(s) into one with
 * a count and keeps, of each group, the occurrence of the lowest work-item, so what is printed does
 * not depend on threads or warp width.
 */
#ifndef EX_CHECK_H
#define EX_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "spvi.h"

struct ex_ctx;
struct ex_warp;
struct ex_func;
struct ex_insn;

/* One work-item at one instruction, compact enough to keep in shadow memory. */
typedef struct ex_site {
  uint64_t group;           /* linear work-group id (x fastest) */
  uint32_t item;            /* local linear id in that group */
  const struct ex_func *fn; /* function and instruction; NULL when unknown */
  const struct ex_insn *insn;
  bool write, atomic; /* for memory accesses */
} ex_site;


/* The site of lane `lane` of warp w at instruction ip of fn, in the context's current work-group. */
ex_site ex_site_of(const struct ex_ctx *cx, const struct ex_warp *w, unsigned lane, const struct ex_func *fn,
                   const struct ex_insn *ip);

typedef struct ex_check_event {
  spvi_report_kind kind;
  ex_site at; /* where it was found */
  bool has_other;
  ex_site other;  /* races: the earlier conflicting access */
  uint32_t alloc; /* allocation concerned, 0 when none */
  int64_t offset; /* byte range in it */
  uint64_t size;
  const char *detail; /* one line added to the report (static text), or NULL */
  /* uninit: where the undefined bytes came from, an allocation or else an OpUndef value or
   * constant composite holding one (its id); both 0 when unknown */
  uint32_t origin_alloc, origin_id;
  char note[160]; /* one line added before it, built at the occurrence ("" when none) */
} ex_check_event;

/* Record one occurrence (thread-safe; never stops the run). */
void ex_check_report(struct ex_ctx *cx, const ex_check_event *e);

/* ---- the launch's collection (ex_sched.c drives it) -------------------------------------- */
typedef struct ex_reports ex_reports;
ex_reports *ex_reports_new(void);
void ex_reports_free(ex_reports *r);
/* Forget the previous run's reports. */
void ex_reports_clear(ex_reports *r);
/* Build the public reports from the events, while the launch's allocations still exist. */
void ex_reports_finish(ex_reports *r, const struct ex_ctx *cx);
size_t ex_reports_count(const ex_reports *r);
/* The reports found so far (groups of occurrences, in the order their first occurrence came), and
 * the i-th as it stands (the debugger's stops, ex_inspect.c). */
size_t ex_reports_found(const ex_reports *r);
void ex_reports_build_found(ex_reports *r, const struct ex_ctx *cx, size_t i, spvi_report *o);
const spvi_report *ex_reports_get(const ex_reports *r, size_t i);

#endif
