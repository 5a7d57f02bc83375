/*
 * ex_race.c — `--check races`: conflicting accesses to local memory between two barriers of a
 * work-group, and to global memory between work-items of the launch (spec-notes/checks.md).
 *
 * OpenCL C 6.15.8 / 3.3.6 (memory model): within a work-group, only a barrier (with the fence of
 * the memory's address space) orders the accesses of different work-items; work-groups are never
 * ordered with each other, except through atomics. Two accesses conflict when they touch a common
 * byte, come from different work-items, at least one writes, and they are not both atomic.
 *
 * The result must not depend on the warp width or on the order in which work-items run, so nothing
 * is decided from "the last access" as it happens:
 *  - Within a group, every byte keeps for the current barrier interval a summary that is the same
 *    for every order: for writes and for reads, the two smallest distinct work-items by the key
 *    (atomic, local id) — plain before atomic — each with its smallest instruction. At the end of
 *    the interval (a barrier, the end of the group) the summary says whether a conflicting pair
 *    exists (if any pair conflicts, one among these four entries does; plain-first keys keep a
 *    plain access whenever one exists), and which one is shown.
 *  - Between groups (global memory only): groups run in increasing linear id on one thread when
 *    races are checked, and every byte keeps a summary of the EARLIER groups (smallest writer and
 *    reader by (atomic, group, local id)); it changes only when a group ends, so each access of a
 *    group is compared with a fixed summary, whatever the order within the group.
 * Shadow memory is allocated in pages of 256 bytes on first touch: per touched byte of global
 * memory at most 16 bytes for the launch (earlier groups' pages, kept as a few runs while they
 * can be), plus 48 bytes for bytes the running group touches (recycled).
 * Also: sub-group barriers (sub-group mode: cross-sub-group summaries plus one sub-group's segment
 * per byte, sg_add), image texels (ordered by the image fence) and async copies (the group's
 * access until its wait_group_events, pcopy); spec-notes/checks.md. The speed-ups (ACC bits,
 * earlier groups' runs) apply in every mode; the word-slot shortcut (word_access) does not apply
 * in sub-group mode, whose pages have byte slots.
 *
 * A client of the hook interface (ex_hooks.h, ex_race_hooks at the end): it takes the memory
 * accesses (instructions, builtins, images, async copies), the barriers and the async copies'
 * events, already decoded.
 */
#include <stdlib.h>
#include <string.h>

#include "ex_hooks.h"

#define PG_SHIFT 8u
#define PG_BYTES (1u << PG_SHIFT)
#define ATOMIC_BIT 0x80000000u

/* One access summary: local linear id + 1 (0: none) and site | ATOMIC_BIT when atomic. */
typedef struct ent {
  uint32_t item, site;
} ent;
/* Earlier groups: group + 1 (0: none), then item (12 bits) | atomic (1) | site (19 bits, 0 when the
 * program has more instructions than that). */
typedef struct eent {
  uint32_t group, packed;
} eent;

/* Summaries are kept per slot: a slot is one byte, or (GS_WORD) an aligned 4-byte word whose four
 * bytes have the same summary because every access to the page so far covered whole words. Most
 * kernels access 4-byte or larger aligned elements, so the shadow work and memory are a quarter of
 * per-byte summaries; the first access to a page that covers part of a word splits every slot
 * into four identical bytes, which is exact, so results do not depend on the slot size. */
#define GS_WORD 2u

typedef struct ipage ipage;
struct ipage {                        /* the running group's bytes of one page */
  ent w[PG_BYTES][2], r[PG_BYTES][2]; /* the interval summary, per slot */
  ent gw[PG_BYTES], gr[PG_BYTES];     /* the group's summary so far (global pages) */
  uint32_t alloc;                     /* allocation id; 0: the local arena */
  uint64_t page;                      /* page index in it */
  uint32_t lo, hi;                    /* slots touched in the interval: [lo, hi) */
  uint32_t glo, ghi;                  /* slots of gw/gr filled by earlier intervals: [glo, ghi) */
  unsigned gs;                        /* slot = 1 << gs bytes (0 or GS_WORD) */
  unsigned acc;                       /* ACC_* bits: what the interval recorded on this page */
  bool glob;
  struct sgx *sx;     /* sub-group mode: per byte slot, NULL until needed */
  struct ipage *next; /* the group's pages, or the free list (whose summaries are all
                                        empty: the interval's and group's ends clear what they used) */
};

/* What an interval recorded on a page (ipage.acc), so that its end skips what cannot matter: a
 * conflict needs a plain write, or a write and a read (a page only read, or only written by
 * atomics, has none); a summary half nothing was recorded in is empty and needs no merge or clear. */
#define ACC_R 1u  /* some read */
#define ACC_W 2u  /* some write */
#define ACC_PW 4u /* some plain (non-atomic) write */
static inline unsigned acc_bits(bool write, bool atomic) { return write ? (atomic ? ACC_W : ACC_W | ACC_PW) : ACC_R; }

/* The earlier groups' summary of a page. Most pages are read, or written, by consecutive
 * work-items of one group at consecutive slots (a buffer read or written at get_global_id), so
 * each half (writers, readers) starts as at most EP_RUNS runs: slot i in [lo, hi) holds `first` with
 * the item ((i - lo) >> sh) higher (sh 31: one item). Such a page takes a few dozen bytes instead
 * of 16 per slot (and no page faults for a large input read once); a merge the runs cannot
 * express makes the page full (e[]: per slot w[PG_BYTES >> gs], then r[]), which is exact. */
typedef struct erun {
  uint32_t lo, hi, sh;
  eent first;
} erun;
#define EP_RUNS 4 /* 2D groups: a page of a row is written by up to 4 groups */
typedef struct epage {
  unsigned gs;
  bool written;         /* some writer entry is set: reads can conflict only with those */
  bool full;            /* e[] holds every slot; else run[] describes the page */
  erun run[2][EP_RUNS]; /* [0]: writers, [1]: readers (when !full) */
  eent e[];
} epage;
/* A full page's slot i (writer, reader); pages in runs have no e[]: read them with ep_get. */
#define EP_W(p, i) ((p)->e[(i)])
#define EP_R(p, i) ((p)->e[(PG_BYTES >> (p)->gs) + (i)])

static inline eent run_get_n(const erun *R, unsigned nr, uint32_t i) {
  for (unsigned k = 0; k < nr; k++)
    if (i - R[k].lo < R[k].hi - R[k].lo) {
      const eent x = {R[k].first.group, R[k].first.packed + (((i - R[k].lo) >> R[k].sh) << 20)};
      return x; /* the item field (bits 20..31) counts modulo 4096, as pack() does */
    }
  const eent none = {0, 0};
  return none;
}

static inline eent run_get(const erun *R, uint32_t i) { return run_get_n(R, EP_RUNS, i); }

/* Slot i's writer (half 0) or reader (half 1) of the earlier groups. */
static inline eent ep_get(const epage *p, unsigned half, uint32_t i) {
  return p->full ? p->e[half * (PG_BYTES >> p->gs) + i] : run_get(p->run[half], i);
}

/* Whether an access to bytes [b0, b1) of the page can meet an earlier group's entry: a full
 * page, or a run of writers (or, for a write, of readers) over one of those bytes. Lets accesses
 * to a page shared with other groups' runs (a row of a 2D NDRange) skip the per-slot lookups. */
static inline bool ep_touches(const epage *p, bool write, uint32_t b0, uint32_t b1) {
  if (p->full) return true;
  const uint32_t j0 = b0 >> p->gs, j1 = (b1 + (1u << p->gs) - 1) >> p->gs;
  for (unsigned h = 0; h <= (unsigned)write; h++)
    for (unsigned k = 0; k < EP_RUNS; k++)
      if (p->run[h][k].lo < j1 && j0 < p->run[h][k].hi) return true;
  return false;
}

static epage *ep_new(unsigned gs) {
  epage *p = calloc(1, sizeof *p);
  if (p) p->gs = gs;
  return p;
}

/* The page with every slot in e[] (false: out of memory, the page is unchanged). */
static bool ep_full(epage **slot) {
  epage *o = *slot;
  if (o->full) return true;
  const uint32_t ns = PG_BYTES >> o->gs;
  epage *n = calloc(1, sizeof *n + 2 * ns * sizeof(eent));
  if (!n) return false;
  n->gs = o->gs;
  n->written = o->written;
  n->full = true;
  for (unsigned h = 0; h < 2; h++) /* the runs' slots; every other slot stays empty (calloc) */
    for (unsigned k = 0; k < EP_RUNS; k++) {
      const erun *R = &o->run[h][k];
      for (uint32_t i = R->lo; i < R->hi; i++) n->e[h * ns + i] = run_get_n(R, 1, i);
    }
  free(o);
  *slot = n;
  return true;
}

/* A word-slot page of the earlier groups' summary as byte slots (false: out of memory). A run's
 * word slot i becomes bytes 4i .. 4i + 3: the same runs over 4x the slots, each item 4x longer. */
static bool ep_split(epage **slot) {
  epage *o = *slot;
  if (!o->full) {
    for (unsigned h = 0; h < 2; h++)
      for (unsigned k = 0; k < EP_RUNS; k++) {
        erun *R = &o->run[h][k];
        R->lo <<= GS_WORD;
        R->hi <<= GS_WORD;
        if (R->sh != 31) R->sh += GS_WORD;
      }
    o->gs = 0;
    return true;
  }
  epage *n = calloc(1, sizeof *n + 2 * PG_BYTES * sizeof(eent));
  if (!n) return false;
  n->written = o->written;
  n->full = true;
  for (uint32_t i = 0; i < PG_BYTES; i++) {
    EP_W(n, i) = EP_W(o, i >> GS_WORD);
    EP_R(n, i) = EP_R(o, i >> GS_WORD);
  }
  free(o);
  *slot = n;
  return true;
}

/* A word-slot page of the running group as byte slots: backwards, so no slot is overwritten
 * before it is copied (slot j goes to 4j .. 4j + 3, all >= j). */
static void ip_split(struct ipage *p) {
  for (uint32_t j = PG_BYTES >> GS_WORD; j-- > 0;)
    for (uint32_t k = 0; k < 4; k++) {
      const uint32_t d = 4 * j + 3 - k;
      p->w[d][0] = p->w[j][0];
      p->w[d][1] = p->w[j][1];
      p->r[d][0] = p->r[j][0];
      p->r[d][1] = p->r[j][1];
      p->gw[d] = p->gw[j];
      p->gr[d] = p->gr[j];
    }
  if (p->lo < p->hi) {
    p->lo <<= GS_WORD;
    p->hi <<= GS_WORD;
  }
  if (p->glo < p->ghi) {
    p->glo <<= GS_WORD;
    p->ghi <<= GS_WORD;
  }
  p->gs = 0;
}

struct ex_race_global { /* per allocation: page tables */
  epage ***ep;          /* earlier groups */
  ipage ***ip;          /* the running group */
  uint32_t nallocs;
};

/* Sub-group mode (a module with sub-group barriers, spec-notes/checks.md "Sub-group barriers"):
 * a page's w/r summaries hold the two smallest distinct SUB-GROUPS per category (each with its
 * smallest (atomic, item, site)), which finds every conflict between sub-groups; pairs inside one
 * sub-group are ordered by its sub-group barriers, so they are tracked per byte for the one
 * sub-group that accessed it (a byte accessed by two sub-groups has a cross-sub-group conflict
 * whenever it has an intra-sub-group one, except when the others only read it atomically). */
typedef struct sgx {
  ent w[2], r[2]; /* the sub-group's current segment (between its barriers) */
  ent pat, poth;  /* the first conflict of an earlier segment (pat.item 0: none) */
  uint32_t sg;    /* sub-group + 1 whose accesses are recorded; 0: none */
  uint32_t epoch; /* its barrier count when the segment started */
  bool pow;
} sgx;

/* An async copy's range waiting for wait_group_events (see race_copy). */
typedef struct pcopy {
  uint64_t dst, src, n, ev;
  uint32_t site;
} pcopy;

typedef struct ex_race ex_race;
struct ex_race {            /* per worker */
  struct ex_race_global *g; /* the launch's */
  ipage **lp;               /* the local arena's pages */
  uint64_t nlp;
  ipage *group_pages, *free_pages;
  unsigned sgs;                         /* sub-group mode: the sub-group size S; 0: off */
  uint32_t nsg, *epoch;                 /* per sub-group: sub-group barriers passed, per space (EP_*) */
  pcopy *copies;                        /* the group's async copies not yet waited for */
  uint32_t ncopies, capcopies, unbound; /* unbound: trailing copies whose event is not yet known */
  struct nbstate *nb;                   /* named-barrier mode (a module with named barriers); NULL: off */
};
enum { EP_LOCAL, EP_GLOBAL, EP_IMAGE, EP_N };
/* Named-barrier mode (ex_race.c end; spec-notes/checks.md "Named barriers"). */
struct nbstate;
static bool nb_new(const ex_ctx *cx, ex_race *r);
static void nb_free(ex_race *r);
static void nb_record(ex_ctx *cx, ex_race *r, uint32_t alloc, uint64_t base, uint64_t n, uint32_t item, unsigned count,
                      uint32_t s, bool write, bool atomic);
static void nb_barrier_all(ex_race *r, const bool spaces[]);
static void nb_group_end(ex_race *r);
static void nb_subgroup_barrier(ex_race *r, const ex_warp *w, const uint16_t *lanes, unsigned nl, const bool sp[]);

/* The async copy's accesses are the work-group's, not one work-item's: a pseudo work-item that
 * conflicts with every real one (shown as work-item 0, like the copy's bounds faults). */
#define COPY_ITEM 0xFFFFFFFFu
static inline uint32_t shown_item(uint32_t item) { return item == COPY_ITEM ? 0 : item - 1; }

static inline uint64_t key(const ent *e) { return ((uint64_t)(e->site >> 31) << 32) | e->item; }

/* Add an access to a top-2 summary (distinct items, smallest keys first; per item the smallest
 * site, plain before atomic). */
static inline void top2_add(ent s[2], uint32_t item, uint32_t site) {
  if (!s[0].item) {
    s[0].item = item;
    s[0].site = site;
    return;
  } /* first access in the interval */
  if (s[0].item == item) {
    if (site < s[0].site) s[0].site = site;
    return;
  }
  if (s[1].item == item) {
    if (site < s[1].site) s[1].site = site;
    if (key(&s[1]) < key(&s[0])) {
      ent t = s[0];
      s[0] = s[1];
      s[1] = t;
    }
    return;
  }
  ent x = {item, site};
  if (!s[0].item || key(&x) < key(&s[0])) {
    s[1] = s[0];
    s[0] = x;
  } else if (!s[1].item || key(&x) < key(&s[1])) s[1] = x;
}

/* A one-entry summary: the smallest key, then the smallest site. */
static inline void min_add(ent *s, const ent *x) {
  if (!x->item) return;
  if (!s->item || key(x) < key(s) || (key(x) == key(s) && x->site < s->site)) *s = *x;
}

/* Whether accesses to allocation a are tracked: local and global memory, but not an allocation that
 * cannot be written in this launch (constant memory; a NoWrite parameter's buffer that no writable
 * argument shares, ex_sched.c join_alloc): its reads race with nothing, and a write to it is a
 * read-only fault, not a race. Private memory belongs to one work-item. Leaving such inputs out
 * keeps a gather from a shared input (x[col[j]] of a sparse product, read by every group) from
 * filling the summaries with every group's readers. Images keep their own rules (race_image). */
static inline bool racy(const ex_alloc *a) {
  return a->space == EX_AS_LOCAL || (a->space == EX_AS_GLOBAL && (!a->read_only || a->image));
}

static bool race_launch_begin(ex_ctx *cx, void **launch) {
  struct ex_race_global *g = calloc(1, sizeof *g);
  if (!g) return false;
  *launch = g;
  g->nallocs = cx->nallocs;
  g->ep = calloc(cx->nallocs, sizeof *g->ep);
  g->ip = calloc(cx->nallocs, sizeof *g->ip);
  if (!g->ep || !g->ip) return false;
  for (uint32_t i = 1; i < cx->nallocs; i++) {
    const ex_alloc *a = &cx->allocs[i];
    if (a->space != EX_AS_GLOBAL || !racy(a)) continue; /* constant, read-only: untracked */
    uint64_t np = (a->size + PG_BYTES - 1) >> PG_SHIFT;
    g->ep[i] = calloc(np ? np : 1, sizeof **g->ep);
    g->ip[i] = calloc(np ? np : 1, sizeof **g->ip);
    if (!g->ep[i] || !g->ip[i]) return false;
  }
  return true;
}

static void race_launch_end(ex_ctx *cx, void *launch) {
  struct ex_race_global *g = launch;
  if (!g) return;
  for (uint32_t i = 1; i < g->nallocs; i++) {
    if (g->ep && g->ep[i]) {
      uint64_t np = (cx->allocs[i].size + PG_BYTES - 1) >> PG_SHIFT;
      for (uint64_t k = 0; k < np; k++) free(g->ep[i][k]);
      free(g->ep[i]);
    }
    if (g->ip) free(g->ip[i]); /* the pages themselves belong to the worker */
  }
  free(g->ep);
  free(g->ip);
  free(g);
}

static bool race_worker_init(ex_ctx *cx, void *launch, const ex_hk_info *info, void **self) {
  ex_race *r = calloc(1, sizeof *r);
  if (!r) return false;
  *self = r;
  r->g = launch;
  r->nlp = (info->local_bytes + PG_BYTES - 1) >> PG_SHIFT;
  r->lp = calloc(r->nlp + 1, sizeof *r->lp);
  if (!r->lp) return false;
  if (cx->prog->nnamed_barriers) return nb_new(cx, r);
  if (cx->prog->uses_subgroup_sync) {
    const uint64_t items = cx->l->local[0] * cx->l->local[1] * cx->l->local[2];
    r->sgs = cx->sg_size ? cx->sg_size : 1;
    r->nsg = (uint32_t)((items + r->sgs - 1) / r->sgs) + 1;
    r->epoch = calloc((size_t)r->nsg * EP_N, sizeof *r->epoch);
    if (!r->epoch) return false;
  }
  return true;
}

static void page_free(ipage *p) {
  free(p->sx);
  free(p);
}

static void race_worker_free(void *self) {
  ex_race *r = self;
  if (!r) return;
  for (ipage *p = r->group_pages, *n; p; p = n) {
    n = p->next;
    page_free(p);
  }
  for (ipage *p = r->free_pages, *n; p; p = n) {
    n = p->next;
    page_free(p);
  }
  free(r->lp);
  free(r->epoch);
  free(r->copies);
  nb_free(r);
  free(r);
}

static ipage *page_new(ex_race *r, ipage **slot, uint32_t alloc, uint64_t page, bool glob, const epage *ep) {
  ipage *p = r->free_pages;
  if (p) r->free_pages = p->next;
  else if (!(p = calloc(1, sizeof *p))) return NULL;             /* out of memory: this access goes unchecked */
  if (r->sgs && !p->sx) p->sx = calloc(PG_BYTES, sizeof *p->sx); /* out of memory: no intra-sub-group pairs */
  p->alloc = alloc;
  p->page = page;
  p->glob = glob;
  /* never coarser than the earlier groups' page; byte slots in sub-group mode (sx is per byte) */
  p->gs = (ep && !ep->gs) || r->sgs ? 0 : GS_WORD;
  p->acc = 0;
  p->lo = p->glo = PG_BYTES;
  p->hi = p->ghi = 0;
  p->next = r->group_pages;
  r->group_pages = p;
  *slot = p;
  return p;
}

static inline ipage *page_get(ex_race *r, ipage **slot, uint32_t alloc, uint64_t page, bool glob, const epage *ep) {
  return *slot ? *slot : page_new(r, slot, alloc, page, glob, ep);
}

static uint32_t group_linear(const ex_ctx *cx) {
  return (uint32_t)(cx->group[0] + cx->ngroups[0] * (cx->group[1] + cx->ngroups[1] * cx->group[2]));
}

static ex_site make_site(const ex_ctx *cx, uint64_t group, uint32_t item, uint32_t site, bool write) {
  ex_site s;
  memset(&s, 0, sizeof s);
  s.group = group;
  s.item = item;
  ex_hk_site_decode(cx, site & ~ATOMIC_BIT, &s.fn, &s.insn);
  s.write = write;
  s.atomic = (site & ATOMIC_BIT) != 0;
  return s;
}

/* The local allocation holding arena offset `o` (for the report), 0 when none. */
static uint32_t local_alloc_at(const ex_ctx *cx, uint64_t o, uint64_t *off) {
  for (uint32_t i = 1; i < cx->nallocs; i++) {
    const ex_alloc *a = &cx->allocs[i];
    if (a->space == EX_AS_LOCAL && o >= a->offset && o < a->offset + a->size) {
      *off = o - a->offset;
      return i;
    }
  }
  *off = o;
  return 0;
}

static eent pack(uint32_t group, const ent *e) {
  uint32_t s = e->site & ~ATOMIC_BIT;
  if (s >= (1u << 19)) s = 0;
  eent x = {group + 1,
            ((e->item == COPY_ITEM ? 0 : e->item - 1) & 0xFFFu) << 20 | ((e->site & ATOMIC_BIT) ? 1u << 19 : 0) | s};
  return x;
}
static inline bool e_atomic(eent e) { return (e.packed >> 19) & 1u; }
/* Earlier-group summary order: plain first, then group, then item. */
static inline uint64_t ekey(eent e) {
  return ((uint64_t)e_atomic(e) << 63) | ((uint64_t)e.group << 12) | (e.packed >> 20);
}

/* The earlier groups' access that an access conflicts with, given the byte's earlier writer and
 * reader: a write conflicts with both, a read with the writer, never two atomics. */
static inline bool earlier_conflict(eent ew, eent er, bool write, bool atomic, eent *o, bool *ow) {
  *ow = true;
  if (ew.group && !(atomic && e_atomic(ew))) {
    *o = ew;
    return true;
  }
  if (write && er.group && !(atomic && e_atomic(er))) {
    *o = er;
    *ow = false;
    return true;
  }
  return false;
}

/* An inter-group conflict being collected for one access: its first conflicting byte, and the run
 * of bytes after it that conflict with the same earlier access. */
typedef struct xrun {
  eent other;
  uint64_t start, len;
  bool other_write;
} xrun;

static void __attribute__((cold))
xrun_report(ex_ctx *cx, const xrun *x, uint32_t id, uint32_t item, uint32_t s, bool write) {
  ex_check_event e;
  memset(&e, 0, sizeof e);
  e.kind = SPVI_REPORT_RACE;
  e.at = make_site(cx, group_linear(cx), item - 1, s, write);
  e.has_other = true;
  e.other = make_site(cx, x->other.group - 1, x->other.packed >> 20,
                      (x->other.packed & ((1u << 19) - 1)) | (e_atomic(x->other) ? ATOMIC_BIT : 0), x->other_write);
  e.alloc = id;
  e.offset = (int64_t)x->start;
  e.size = x->len;
  e.detail = "the two work-items are in different work-groups, which no barrier orders (OpenCL C 3.3.6)";
  ex_check_report(cx, &e);
}

/* (atomic, item, site) of an access before entry e: the order of the sub-group summaries. */
static inline bool before(uint32_t item, uint32_t site, const ent *e) {
  const uint64_t k = ((uint64_t)(site >> 31) << 32) | item;
  return k != key(e) ? k < key(e) : site < e->site;
}

/* Add an access to a top-2 summary of distinct sub-groups (of S work-items): per sub-group its
 * smallest access by (atomic, item, site), the two smallest sub-groups by that key. As top2_add
 * for items, the result is a function of the set of accesses. */
static inline void top2_sg_add(ent s[2], uint32_t item, uint32_t site, unsigned S) {
  const uint32_t g = (item - 1) / S;
  const ent x = {item, site};
  if (!s[0].item) {
    s[0] = x;
    return;
  }
  if ((s[0].item - 1) / S == g) {
    if (before(item, site, &s[0])) s[0] = x;
    return;
  }
  if (s[1].item && (s[1].item - 1) / S == g) {
    if (before(item, site, &s[1])) s[1] = x;
    if (before(s[1].item, s[1].site, &s[0])) {
      ent t = s[0];
      s[0] = s[1];
      s[1] = t;
    }
    return;
  }
  if (before(item, site, &s[0])) {
    s[1] = s[0];
    s[0] = x;
  } else if (!s[1].item || before(item, site, &s[1])) s[1] = x;
}

/* Conflicting pair of a top-2 summary (as byte_conflict below) whose two sides are in different
 * sub-groups (S > 0) or are different work-items (S == 0). */
static bool pair_conflict(const ent w[2], const ent r[2], unsigned S, ent *at, ent *other, bool *other_write) {
  const ent *pairs[5][2] = {{&w[1], &w[0]}, {&w[0], &r[0]}, {&w[0], &r[1]}, {&w[1], &r[0]}, {&w[1], &r[1]}};
  for (int k = 0; k < 5; k++) {
    const ent *x = pairs[k][0], *y = pairs[k][1];
    if (!x->item || !y->item || ((x->site & y->site) & ATOMIC_BIT)) continue;
    if (S ? (x->item - 1) / S == (y->item - 1) / S : x->item == y->item) continue;
    *at = *x;
    *other = *y;
    *other_write = k == 0;
    return true;
  }
  return false;
}

/* Sub-group mode: one access of work-item `item` to byte slot j of page p. The byte's segment
 * summary follows the first sub-group that accessed it in the interval; a new barrier count of
 * that sub-group (for the page's memory) starts a new segment, after keeping the old one's first
 * conflict. Another sub-group's accesses are left to the cross-sub-group summary. */
static void sg_add(ex_race *r, ipage *p, uint32_t j, bool write, uint32_t item, uint32_t site, unsigned space) {
  top2_sg_add(write ? p->w[j] : p->r[j], item, site, r->sgs);
  if (!p->sx) return;
  sgx *x = &p->sx[j];
  const uint32_t g = (item - 1) / r->sgs, e = g < r->nsg ? r->epoch[(size_t)g * EP_N + space] : 0;
  if (!x->sg) {
    x->sg = g + 1;
    x->epoch = e;
  } else if (x->sg != g + 1) return;
  else if (x->epoch != e) {
    if (!x->pat.item) pair_conflict(x->w, x->r, 0, &x->pat, &x->poth, &x->pow); /* sets pat when found */
    memset(x->w, 0, sizeof x->w);
    memset(x->r, 0, sizeof x->r);
    x->epoch = e;
  }
  top2_add(write ? x->w : x->r, item, site);
}

/* Sub-group mode: access_items' recording of byte slots [j0, j1) of p, from work-item `it` with
 * `rem` of its n bytes left. Not inlined: access_items stays as small as without sub-group mode,
 * which costs a few percent on kernels that are mostly contiguous accesses. */
static void __attribute__((noinline)) sg_record(ex_race *r, ipage *p, uint32_t j0, uint32_t j1, bool write, uint32_t it,
                                                uint64_t rem, uint64_t n, uint32_t site, unsigned space) {
  for (uint32_t j = j0; j < j1; j++) {
    sg_add(r, p, j, write, it, site, space);
    if (!--rem) {
      it++;
      rem = n;
    }
  }
}

/* The accesses of `count` work-items with consecutive local ids from item (+ 1), each of n bytes,
 * at consecutive places from byte `base` of allocation id (of the local arena for local memory):
 * one lane's access, or a whole warp's contiguous one, handled page by page. */
static void access_items(ex_race *r, ex_ctx *cx, uint32_t id, bool glob, uint64_t base, uint64_t n, uint32_t item,
                         unsigned count, uint32_t site, bool write, bool atomic) {
  struct ex_race_global *g = r->g;
  const uint32_t s = site | (atomic ? ATOMIC_BIT : 0);
  const uint64_t lim = base + n * count;
  /* every work-item's bytes are whole words: word slots stay */
  const bool whole_words = !((base | n) & ((1u << GS_WORD) - 1));
  xrun x = {{0, 0}, 0, 0, false};
  uint32_t xitem = 0; /* the work-item whose access x belongs to */
  if (r->nb) nb_record(cx, r, glob ? id : 0, base, n, item, count, s, write, atomic);
  for (uint64_t b = base; b < lim;) {
    const uint64_t pg = b >> PG_SHIFT, pbase = pg << PG_SHIFT;
    ipage **slot = glob ? &g->ip[id][pg] : &r->lp[pg];
    const epage *ep = glob ? g->ep[id][pg] : NULL;
    ipage *p = page_get(r, slot, glob ? id : 0, pg, glob, ep);
    const uint32_t i0 = (uint32_t)(b - pbase);
    const uint32_t end = lim - pbase < PG_BYTES ? (uint32_t)(lim - pbase) : PG_BYTES;
    /* the work-item of byte b, and how many of its bytes are left from b */
    const uint64_t k0 = b == base ? 0 : (b - base) / n, rem0 = b == base ? n : n - (b - base) % n;
    if (p) {
      if (p->gs && !whole_words) ip_split(p);
      ent(*sum)[2] = write ? p->w : p->r;
      const uint32_t j0 = i0 >> p->gs, j1 = end >> p->gs, ss = 1u << p->gs;
      uint32_t it = item + (uint32_t)k0;
      if (r->sgs) { /* byte slots (page_new) */
        sg_record(r, p, j0, j1, write, it, rem0, n, s, !glob ? EP_LOCAL : cx->allocs[id].image ? EP_IMAGE : EP_GLOBAL);
      } else if (n == ss) { /* one slot per work-item (ints and floats on word pages): no byte count */
        for (uint32_t j = j0; j < j1; j++) top2_add(sum[j], it++, s);
      } else {
        uint64_t rem = rem0;
        for (uint32_t j = j0; j < j1; j++) {
          top2_add(sum[j], it, s);
          if (!(rem -= ss)) {
            it++;
            rem = n;
          }
        }
      }
      p->acc |= acc_bits(write, atomic); /* the same categories in sub-group mode (w/r halves, sx) */
      if (j0 < p->lo) p->lo = j0;
      if (j1 > p->hi) p->hi = j1;
    }
    if (ep && (write || ep->written) && ep_touches(ep, write, i0, end)) {
      /* by word slots when the page has them and the accesses cover whole words, else by byte */
      const unsigned step = ep->gs && whole_words ? 1u << ep->gs : 1u;
      uint32_t it = item + (uint32_t)k0;
      uint64_t rem = rem0;
      for (uint32_t i = i0; i < end; i += step, rem -= step) {
        if (!rem) {
          it++;
          rem = n;
        }
        const eent ew = ep_get(ep, 0, i >> ep->gs), er = ep_get(ep, 1, i >> ep->gs);
        if (!(ew.group | er.group)) continue; /* no earlier group touched this byte */
        eent o;
        bool ow;
        if (!earlier_conflict(ew, er, write, atomic, &o, &ow)) continue;
        const uint64_t at = pbase + i;
        if (x.len && xitem != it) {
          xrun_report(cx, &x, id, xitem, s, write);
          x.len = 0;
        }
        if (!x.len) {
          x.other = o;
          x.other_write = ow;
          x.start = at;
          x.len = step;
          xitem = it;
        } else if (x.start + x.len == at && o.group == x.other.group && o.packed == x.other.packed) x.len += step;
      }
    }
    b = pbase + end;
  }
  if (x.len) xrun_report(cx, &x, id, xitem, s, write);
}

/* One work-item's access of one aligned word of a word-slot page whose earlier groups' page (if
 * any) also has word slots: the case of int/float counters and scattered atomics, recorded without
 * access_items' loops. false when the pages do not allow it (nothing done). */
static inline __attribute__((always_inline)) bool word_access(ex_ctx *cx, ex_race *r, ipage **slot, const epage *ep,
                                                              uint32_t id, bool glob, uint64_t base, uint32_t item,
                                                              uint32_t s, bool write, bool atomic) {
  const uint64_t pg = base >> PG_SHIFT;
  ipage *p = page_get(r, slot, glob ? id : 0, pg, glob, ep);
  if (!p || !p->gs || (ep && !ep->gs)) return false;
  const uint32_t j = (uint32_t)(base & (PG_BYTES - 1)) >> GS_WORD;
  top2_add(write ? p->w[j] : p->r[j], item, s);
  p->acc |= acc_bits(write, atomic);
  if (j < p->lo) p->lo = j;
  if (j + 1 > p->hi) p->hi = j + 1;
  xrun x;
  if (ep && (write || ep->written) &&
      earlier_conflict(ep_get(ep, 0, j), ep_get(ep, 1, j), write, atomic, &x.other, &x.other_write)) {
    x.start = base;
    x.len = 4;
    xrun_report(cx, &x, id, item, s, write);
  }
  return true;
}

/* Lane `lane` of w accesses n bytes at ptr (instruction `site`). */
static void race_access(ex_race *r, ex_ctx *cx, const ex_warp *w, unsigned lane, uint32_t site, uint64_t ptr,
                        uint64_t n, bool write, bool atomic) {
  uint32_t id;
  uint64_t off;
  if (!n || !ex_hk_resolve(cx, ptr, n, &id, &off)) return;
  const ex_alloc *a = &cx->allocs[id];
  if (!racy(a)) return;
  const bool glob = a->space == EX_AS_GLOBAL;
  const uint64_t base = glob ? off : a->offset + off;
  const uint32_t item = w->first_linear + lane + 1;
  /* one word slot (an int or float, e.g. an atomic counter): directly; not in sub-group mode,
   * whose pages have byte slots (sg_add) */
  if (n == 4 && !(base & 3) && !r->sgs && !r->nb) {
    struct ex_race_global *g = r->g;
    const uint64_t pg = base >> PG_SHIFT;
    if (word_access(cx, r, glob ? &g->ip[id][pg] : &r->lp[pg], glob ? g->ep[id][pg] : NULL, id, glob, base, item,
                    site | (atomic ? ATOMIC_BIT : 0), write, atomic))
      return;
  }
  access_items(r, cx, id, glob, base, n, item, 1, site, write, atomic);
}

/* The accesses of n bytes at pt[k] by lanes[k], k < nl (scattered: a histogram's atomic bins): as
 * race_access for each lane in order, sharing the allocation's lookup between lanes. */
static void race_access_lanes(ex_race *r, ex_ctx *cx, const ex_warp *w, const uint16_t *lanes, unsigned nl,
                              uint32_t site, const uint64_t *pt, uint64_t n, bool write, bool atomic) {
  struct ex_race_global *g = r->g;
  const uint32_t s = site | (atomic ? ATOMIC_BIT : 0);
  /* the allocation of the previous lane, looked up again only when a lane leaves it */
  uint64_t cur = 0, size = 0, abase = 0;
  bool ok = false, glob = false;
  ipage **ipv = NULL;
  epage **epv = NULL;
  for (unsigned k = 0; k < nl; k++) {
    const uint64_t p = pt[k], a = (p & cx->ptr_mask) >> cx->shift;
    if (k == 0 || a != cur) {
      cur = a;
      ok = false;
      /* sub-group mode: pages have byte slots (word_access never applies), so lane by lane */
      if (a && a < cx->nallocs && n == 4 && !r->sgs && !r->nb) {
        const ex_alloc *al = &cx->allocs[a];
        if (racy(al) && al->size >= n) {
          ok = true;
          glob = al->space == EX_AS_GLOBAL;
          size = al->size;
          abase = glob ? 0 : al->offset;
          ipv = glob ? g->ip[a] : r->lp;
          epv = glob ? g->ep[a] : NULL;
        }
      }
    }
    /* off is huge when p is below the allocation's start, as in ex_hk_resolve */
    const uint64_t off = (p & cx->off_mask) - cx->bias, base = abase + off;
    if (ok && off <= size - n && !(base & 3)) {
      const uint64_t pg = base >> PG_SHIFT;
      if (word_access(cx, r, &ipv[pg], epv ? epv[pg] : NULL, (uint32_t)a, glob, base, w->first_linear + lanes[k] + 1, s,
                      write, atomic))
        continue;
    }
    race_access(r, cx, w, lanes[k], site, p, n, write, atomic);
  }
}

/* The accesses of `count` consecutive lanes from `lane` where lane + k accesses n bytes at
 * ptr + k * n (_run) or all access the same n bytes at ptr (_uniform): as race_access for each
 * lane. false (nothing done) when the range is not valid as a whole: then lane by lane. */
static bool race_access_run(ex_race *r, ex_ctx *cx, const ex_warp *w, unsigned lane, unsigned count, uint32_t site,
                            uint64_t ptr, uint64_t n, bool write, bool atomic) {
  uint32_t id;
  uint64_t off;
  if (!n || !ex_hk_resolve(cx, ptr, n * count, &id, &off)) return false;
  const ex_alloc *a = &cx->allocs[id];
  if (!racy(a)) return true;
  const bool glob = a->space == EX_AS_GLOBAL;
  access_items(r, cx, id, glob, glob ? off : a->offset + off, n, w->first_linear + lane + 1, count, site, write,
               atomic);
  return true;
}

static bool race_access_uniform(ex_race *r, ex_ctx *cx, const ex_warp *w, unsigned lane, unsigned count, uint32_t site,
                                uint64_t ptr, uint64_t n, bool write, bool atomic) {
  uint32_t id;
  uint64_t off;
  if (r->sgs || r->nb) return false; /* sub-group and named-barrier modes: lane by lane */
  if (!n || !ex_hk_resolve(cx, ptr, n, &id, &off)) return false;
  const ex_alloc *a = &cx->allocs[id];
  if (!racy(a)) return true;
  const bool glob = a->space == EX_AS_GLOBAL;
  const uint64_t base = glob ? off : a->offset + off;
  const uint32_t item0 = w->first_linear + lane + 1, nitems = count, s = site | (atomic ? ATOMIC_BIT : 0);
  struct ex_race_global *g = r->g;
  const bool whole_words = !((base | n) & ((1u << GS_WORD) - 1));
  xrun x = {{0, 0}, 0, 0, false};
  for (uint64_t b = base; b < base + n;) {
    const uint64_t pg = b >> PG_SHIFT, pbase = pg << PG_SHIFT;
    ipage **slot = glob ? &g->ip[id][pg] : &r->lp[pg];
    const epage *ep = glob ? g->ep[id][pg] : NULL;
    ipage *p = page_get(r, slot, glob ? id : 0, pg, glob, ep);
    const uint32_t i0 = (uint32_t)(b - pbase);
    const uint32_t end = base + n - pbase < PG_BYTES ? (uint32_t)(base + n - pbase) : PG_BYTES;
    if (p) {
      if (p->gs && !whole_words) ip_split(p);
      ent(*sum)[2] = write ? p->w : p->r;
      const uint32_t j0 = i0 >> p->gs, j1 = end >> p->gs;
      for (uint32_t j = j0; j < j1; j++) {
        /* The summary is the two smallest keys of the set of accesses, per work-item its smallest
         * site: of the warp's work-items (same site, same atomicity) only the two smallest can be
         * in it, and the ones it already holds (whose site may get smaller). */
        const uint32_t had0 = sum[j][0].item, had1 = sum[j][1].item;
        top2_add(sum[j], item0, s);
        if (nitems > 1) top2_add(sum[j], item0 + 1, s);
        if (had0 >= item0 + 2 && had0 < item0 + nitems) top2_add(sum[j], had0, s);
        if (had1 >= item0 + 2 && had1 < item0 + nitems) top2_add(sum[j], had1, s);
      }
      p->acc |= acc_bits(write, atomic);
      if (j0 < p->lo) p->lo = j0;
      if (j1 > p->hi) p->hi = j1;
    }
    if (ep && (write || ep->written) && ep_touches(ep, write, i0, end)) {
      /* the same bytes for every work-item: compared once, reported for each below */
      const unsigned step = ep->gs && whole_words ? 1u << ep->gs : 1u;
      for (uint32_t i = i0; i < end; i += step) {
        const eent ew = ep_get(ep, 0, i >> ep->gs), er = ep_get(ep, 1, i >> ep->gs);
        if (!(ew.group | er.group)) continue;
        eent o;
        bool ow;
        if (!earlier_conflict(ew, er, write, atomic, &o, &ow)) continue;
        const uint64_t at = pbase + i;
        if (!x.len) {
          x.other = o;
          x.other_write = ow;
          x.start = at;
          x.len = step;
        } else if (x.start + x.len == at && o.group == x.other.group && o.packed == x.other.packed) x.len += step;
      }
    }
    b = pbase + end;
  }
  if (x.len)
    for (uint32_t k = 0; k < nitems; k++) xrun_report(cx, &x, id, item0 + k, s, write);
  return true;
}

/* Conflicting pair of a byte's interval summary: the write shown first (`at`), the access it
 * conflicts with second. false when the accesses of the interval do not conflict. */
static bool byte_conflict(const ent w[2], const ent r[2], ent *at, ent *other, bool *other_write) {
  const ent *pairs[5][2] = {{&w[1], &w[0]}, {&w[0], &r[0]}, {&w[0], &r[1]}, {&w[1], &r[0]}, {&w[1], &r[1]}};
  for (int k = 0; k < 5; k++) {
    const ent *x = pairs[k][0], *y = pairs[k][1];
    if (!x->item || !y->item || x->item == y->item || ((x->site & y->site) & ATOMIC_BIT)) continue;
    *at = *x;
    *other = *y;
    *other_write = k == 0;
    return true;
  }
  return false;
}

/* Why a pair of one group is a race (report texts), by kind of pair and memory. */
enum { RK_ITEMS, RK_CROSS_SG, RK_INTRA_SG, RK_COPY };
static const char *race_detail(int kind, unsigned space) {
  static const char *const t[4][EP_N] = {
    {"no barrier with the local memory fence orders the two accesses (OpenCL C 6.15.8)",
     "no barrier with the global memory fence orders the two accesses (OpenCL C 6.15.8)",
     "no barrier with the image memory fence orders the two accesses (OpenCL C 6.15.8)"},
    {"the work-items are in different sub-groups, which only a work-group barrier with the local memory fence "
     "orders (OpenCL C 6.15.8; sub_group_barrier orders its sub-group only)",
     "the work-items are in different sub-groups, which only a work-group barrier with the global memory fence "
     "orders (OpenCL C 6.15.8; sub_group_barrier orders its sub-group only)",
     "the work-items are in different sub-groups, which only a work-group barrier with the image memory fence "
     "orders (OpenCL C 6.15.8; sub_group_barrier orders its sub-group only)"},
    {"no work-group or sub-group barrier with the local memory fence orders the two accesses of one sub-group "
     "(OpenCL C 6.15.8, sub_group_barrier)",
     "no work-group or sub-group barrier with the global memory fence orders the two accesses of one sub-group "
     "(OpenCL C 6.15.8, sub_group_barrier)",
     "no work-group or sub-group barrier with the image memory fence orders the two accesses of one sub-group "
     "(OpenCL C 6.15.8, sub_group_barrier)"},
    {"the async work-group copy (done by the work-group, shown as work-item 0) is not ordered with this access: "
     "only wait_group_events for its event completes it (OpenCL C 6.15.11)",
     "the async work-group copy (done by the work-group, shown as work-item 0) is not ordered with this access: "
     "only wait_group_events for its event completes it (OpenCL C 6.15.11)",
     "the async work-group copy (done by the work-group, shown as work-item 0) is not ordered with this access: "
     "only wait_group_events for its event completes it (OpenCL C 6.15.11)"}};
  return t[kind][space];
}

static unsigned page_space(const ex_ctx *cx, const ipage *p) {
  return !p->glob ? EP_LOCAL : cx->allocs[p->alloc].image ? EP_IMAGE : EP_GLOBAL;
}

/* A race inside the running group on `len` bytes from `o` of allocation `alloc` (0: the local
 * arena), between access `at` (a write when aw) and the earlier `other` (a write when ow). */
static void report_race(ex_ctx *cx, uint32_t alloc, uint64_t o, uint64_t len, ent at, bool aw, ent other, bool ow,
                        const char *detail) {
  ex_check_event e;
  memset(&e, 0, sizeof e);
  e.kind = SPVI_REPORT_RACE;
  const uint64_t grp = group_linear(cx);
  e.at = make_site(cx, grp, shown_item(at.item), at.site, aw);
  e.has_other = true;
  e.other = make_site(cx, grp, shown_item(other.item), other.site, ow);
  if (alloc) {
    e.alloc = alloc;
    e.offset = (int64_t)o;
  } else {
    uint64_t lo;
    e.alloc = local_alloc_at(cx, o, &lo);
    e.offset = (int64_t)lo;
  }
  e.size = len;
  e.detail = detail;
  ex_check_report(cx, &e);
}

/* The same for a pair of the summaries (the write is the `at` side), of kind RK_*. */
static void report_pair(ex_ctx *cx, bool glob, uint32_t alloc, uint64_t o, uint64_t len, ent at, ent other, bool ow,
                        int kind, unsigned space) {
  report_race(cx, glob ? alloc : 0, o, len, at, true, other, ow, race_detail(kind, space));
}

static void report_run(ex_ctx *cx, const ipage *p, uint32_t start, uint32_t len, ent at, ent other, bool ow, int kind) {
  report_pair(cx, p->glob, p->alloc, (p->page << PG_SHIFT) + start, len, at, other, ow, kind, page_space(cx, p));
}

/* Sub-group mode: the conflicting pair of slot i, and its kind. Two sub-groups in the summary: a
 * pair of different sub-groups (found among the entries if one exists); one sub-group: the first
 * conflicting segment of that sub-group. */
static bool sg_slot_conflict(const ipage *p, uint32_t i, unsigned S, ent *at, ent *other, bool *ow, int *kind) {
  const ent *es[4] = {&p->w[i][0], &p->w[i][1], &p->r[i][0], &p->r[i][1]};
  uint32_t g0 = UINT32_MAX;
  bool multi = false;
  for (int k = 0; k < 4; k++) {
    if (!es[k]->item) continue;
    const uint32_t g = (es[k]->item - 1) / S;
    if (g0 == UINT32_MAX) g0 = g;
    else if (g != g0) multi = true;
  }
  if (multi) {
    *kind = RK_CROSS_SG;
    return pair_conflict(p->w[i], p->r[i], S, at, other, ow);
  }
  *kind = RK_INTRA_SG;
  if (!p->sx) return false;
  const sgx *x = &p->sx[i];
  if (x->pat.item) {
    *at = x->pat;
    *other = x->poth;
    *ow = x->pow;
    return true;
  }
  return pair_conflict(x->w, x->r, 0, at, other, ow);
}

/* The running group's summary of slots [lo, hi) (e[i * stride]: the smallest writer, or reader,
 * of slot i; stride 2 for an interval's top-2 summary, 1 for the group's) joins the earlier groups'
 * entries `es` of the same kind. Returns whether any entry was set. */
static bool merge_half(eent *es, const ent *e, size_t stride, uint32_t lo, uint32_t hi, uint32_t grp) {
  bool any = false;
  for (uint32_t i = lo; i < hi; i++) {
    const ent *x = &e[i * stride];
    if (!x->item) continue;
    any = true;
    const eent y = pack(grp, x);
    if (!es[i].group || ekey(y) < ekey(es[i])) es[i] = y;
  }
  return any;
}

/* merge_half on a page still in runs: the slots whose entry changes must all have been empty and
 * form one run (consecutive slots, one site, items rising by one every 1 << sh slots), which takes
 * a free run. false (nothing changed) when that is not so. Groups join in increasing order, so an
 * existing entry loses only to a plain access replacing an atomic one, which is not a run's
 * change either. */
static bool run_merge(epage *p, unsigned half, const ent *e, size_t stride, uint32_t lo, uint32_t hi, uint32_t grp,
                      bool *any) {
  erun *R = p->run[half];
  uint32_t a = lo;
  while (a < hi && !e[a * stride].item) a++;
  if (a == hi) return true;
  *any = true;
  bool overlap = false;
  for (unsigned k = 0; k < EP_RUNS; k++) overlap |= R[k].lo < R[k].hi && R[k].lo < hi && a < R[k].hi;
  erun n = {0, 0, 31, {0, 0}};
  if (!overlap) {
    /* the usual case: only empty slots, so every entry of the group is a change; a run when its
     * entries are consecutive with one site and items rising by one every 1 << sh slots */
    const ent f = e[a * stride];
    uint32_t i = a + 1;
    while (i < hi && e[i * stride].item == f.item && e[i * stride].site == f.site) i++;
    if (i < hi && e[i * stride].item) {
      const uint32_t d = i - a;
      if (e[i * stride].item != f.item + 1 || (d & (d - 1))) return false;
      n.sh = (uint32_t)__builtin_ctz(d);
      for (; i < hi && e[i * stride].item; i++)
        if (e[i * stride].item != f.item + ((i - a) >> n.sh) || e[i * stride].site != f.site) return false;
    }
    n.lo = a;
    n.hi = i;
    for (; i < hi; i++)
      if (e[i * stride].item) return false;
    n.first = pack(grp, &f);
  } else {
    for (uint32_t i = a; i < hi; i++) {
      const ent *x = &e[i * stride];
      if (!x->item) continue;
      const eent y = pack(grp, x), o = run_get(R, i);
      if (o.group) {
        if (ekey(y) < ekey(o)) return false;
        continue; /* the earlier entry stays */
      }
      if (n.lo == n.hi) {
        n.lo = i;
        n.hi = i + 1;
        n.first = y;
        continue;
      }
      if (i != n.hi || y.group != n.first.group || ((y.packed ^ n.first.packed) & 0xFFFFFu)) return false;
      const uint32_t d = i - n.lo, step = (y.packed - n.first.packed) >> 20;
      if (n.sh == 31 && step) { /* the first change of item fixes the slots per item */
        if (step != 1 || (d & (d - 1))) return false;
        n.sh = (uint32_t)__builtin_ctz(d);
      }
      if (step != (n.sh == 31 ? 0 : (d >> n.sh) & 0xFFFu)) return false;
      n.hi = i + 1;
    }
    if (n.lo == n.hi) return true;
  }
  for (unsigned k = 0; k < EP_RUNS; k++)
    if (R[k].lo == R[k].hi) {
      R[k] = n;
      return true;
    }
  return false;
}

/* The group's summary of slots [lo, hi) of one half joins the earlier groups' page *es (made full
 * when its runs cannot express the result; out of memory: not merged). */
static void merge_into(epage **es, unsigned half, const ent *e, size_t stride, uint32_t lo, uint32_t hi, uint32_t grp) {
  bool any = false;
  if (!(*es)->full && run_merge(*es, half, e, stride, lo, hi, grp, &any)) {
    if (half == 0 && any) (*es)->written = true;
    return;
  }
  if (!ep_full(es)) return;
  if (merge_half(&(*es)->e[half * (PG_BYTES >> (*es)->gs)], e, stride, lo, hi, grp) && half == 0) (*es)->written = true;
}

/* Report the conflicting pairs of the slots [p->lo, p->hi) of a page's interval summary, with
 * consecutive slots of the same pair as one occurrence. */
static inline __attribute__((always_inline)) void scan_conflicts_s(ex_ctx *cx, const ipage *p, const unsigned S) {
  bool open = false;
  uint32_t start = 0, len = 0;
  ent rat = {0, 0}, rother = {0, 0};
  bool row = false;
  int rkind = RK_ITEMS;
  for (uint32_t i = p->lo; i < p->hi; i++) {
    ent at, other;
    bool ow;
    int kind = RK_ITEMS;
    /* a conflict needs a writer and another work-item: a second writer (not both atomic), or a
     * reader with a second writer, a second reader, or other than the writer. Most bytes have
     * none: read only, written by one work-item, or atomic counters. */
    const ent *pw = p->w[i], *pr = p->r[i];
    bool c = S ? pw[0].item && sg_slot_conflict(p, i, S, &at, &other, &ow, &kind)
               : pw[0].item &&
                   ((pw[1].item && !(pw[0].site & pw[1].site & ATOMIC_BIT)) ||
                    (pr[0].item && (pw[1].item || pr[1].item || pr[0].item != pw[0].item))) &&
                   byte_conflict(pw, pr, &at, &other, &ow);
    if (open && (!c || at.item != rat.item || at.site != rat.site || other.item != rother.item ||
                 other.site != rother.site || ow != row || kind != rkind)) {
      report_run(cx, p, start, len, rat, rother, row, rkind);
      open = false;
    }
    if (c) {
      if (!open) {
        open = true;
        start = i << p->gs;
        len = 0;
        rat = at;
        rother = other;
        row = ow;
        rkind = kind;
      }
      len += 1u << p->gs;
    }
  }
  if (open) report_run(cx, p, start, len, rat, rother, row, rkind);
}

/* scan_conflicts_s with S (the sub-group size; 0: not sub-group mode) as a constant when 0, so the
 * usual loop has no sub-group test per slot. */
static void scan_conflicts(ex_race *r, ex_ctx *cx, const ipage *p) {
  const unsigned S = r->sgs;
  if (S) scan_conflicts_s(cx, p, S);
  else scan_conflicts_s(cx, p, 0);
}

/* Evaluate and clear one page's interval summary; global pages keep the group's summary, or with
 * es (the group's end, when no earlier interval of the group filled that summary) merge it into
 * the earlier groups' page at once. Only what the interval recorded (p->acc) is looked at: the
 * other half of the summary is empty. */
static void close_interval(ex_race *r, ex_ctx *cx, ipage *p, epage **es, uint32_t grp) {
  if (p->lo >= p->hi) return;
  const unsigned acc = p->acc;
  /* named-barrier mode: the group's pairs are found at each access (nb_record), the summaries only
   * serve async copies and the later groups */
  if (((acc & ACC_PW) || ((acc & ACC_W) && (acc & ACC_R))) && !r->nb) scan_conflicts(r, cx, p);
  if (es) {
    if (acc & ACC_W) merge_into(es, 0, &p->w[0][0], 2, p->lo, p->hi, grp);
    if (acc & ACC_R) merge_into(es, 1, &p->r[0][0], 2, p->lo, p->hi, grp);
  } else if (p->glob) {
    for (uint32_t i = p->lo; i < p->hi; i++) {
      min_add(&p->gw[i], &p->w[i][0]);
      min_add(&p->gr[i], &p->r[i][0]);
    }
    if (p->lo < p->glo) p->glo = p->lo;
    if (p->hi > p->ghi) p->ghi = p->hi;
  }
  if (acc & ACC_W) memset(&p->w[p->lo], 0, (p->hi - p->lo) * sizeof p->w[0]);
  if (acc & ACC_R) memset(&p->r[p->lo], 0, (p->hi - p->lo) * sizeof p->r[0]);
  if (p->sx) memset(&p->sx[p->lo], 0, (p->hi - p->lo) * sizeof p->sx[0]); /* sub-group segments */
  p->lo = PG_BYTES;
  p->hi = 0;
  p->acc = 0;
}

static void copies_check(ex_race *r, ex_ctx *cx, const bool spaces[EP_N], bool all, const uint64_t *ev, uint64_t nev,
                         uint64_t evb);

/* The memories (EP_*) a barrier's fences order: EX_HK_FENCE_LOCAL, _GLOBAL and _IMAGE are bits
 * EP_LOCAL, EP_GLOBAL and EP_IMAGE. */
static void fence_spaces(unsigned fences, bool sp[EP_N]) {
  for (unsigned k = 0; k < EP_N; k++) sp[k] = (fences >> k) & 1u;
}

/* A work-group barrier orders the group's accesses to the memory of its fences. */
static void race_interval_end(ex_race *r, ex_ctx *cx, unsigned fences) {
  bool sp[EP_N];
  fence_spaces(fences, sp);
  if (r->ncopies) copies_check(r, cx, sp, true, NULL, 0, 0); /* against the closing interval */
  for (ipage *p = r->group_pages; p; p = p->next)
    if (sp[page_space(cx, p)]) close_interval(r, cx, p, NULL, 0);
  if (r->nb) nb_barrier_all(r, sp);
}

static void race_group_end(void *self, ex_ctx *cx) {
  ex_race *r = self;
  if (r->nb) nb_group_end(r);
  r->ncopies = r->unbound = 0; /* a copy never waited for is a fault of the group (ex_async.c) */
  struct ex_race_global *g = r->g;
  const uint32_t grp = group_linear(cx);
  for (ipage *p = r->group_pages; p; p = p->next) {
    if (!p->glob) {
      close_interval(r, cx, p, NULL, 0);
      continue;
    }
    /* the group's summary joins the earlier groups' */
    epage **es = &g->ep[p->alloc][p->page];
    if (!*es) *es = ep_new(p->gs);            /* out of memory: later groups are not compared with it */
    else if ((*es)->gs > p->gs) ep_split(es); /* out of memory: not merged, as above */
    if (*es && (*es)->gs < p->gs) ip_split(p);
    const bool same = *es && (*es)->gs == p->gs;
    /* a page of a single interval (no barrier with the global fence since it was first touched):
     * that interval's summary is the group's */
    const bool direct = same && p->glo >= p->ghi;
    close_interval(r, cx, p, direct ? es : NULL, grp);
    if (same && !direct) {
      merge_into(es, 0, p->gw, 1, p->glo, p->ghi, grp);
      merge_into(es, 1, p->gr, 1, p->glo, p->ghi, grp);
    }
  }
  while (r->group_pages) {
    ipage *p = r->group_pages;
    r->group_pages = p->next;
    if (p->glob) {
      if (p->glo < p->ghi) { /* back to empty for the free list */
        memset(&p->gw[p->glo], 0, (p->ghi - p->glo) * sizeof p->gw[0]);
        memset(&p->gr[p->glo], 0, (p->ghi - p->glo) * sizeof p->gr[0]);
      }
      g->ip[p->alloc][p->page] = NULL;
    } else {
      r->lp[p->page] = NULL;
    }
    p->next = r->free_pages;
    r->free_pages = p;
  }
}

/* ---- sub-group barriers, images, async copies ------------------------------------------------ */

/* The sub-groups of the given lanes of w pass a sub-group barrier with these fences. */
static void race_subgroup_barrier(ex_race *r, const ex_warp *w, const uint16_t *lanes, unsigned nl, unsigned fences) {
  bool sp[EP_N];
  fence_spaces(fences, sp);
  if (r->nb) {
    nb_subgroup_barrier(r, w, lanes, nl, sp);
    return;
  }
  if (!r->sgs) return;
  uint32_t last = UINT32_MAX;
  for (unsigned k = 0; k < nl; k++) { /* lanes ascend: each sub-group once */
    const uint32_t g = (w->first_linear + lanes[k]) / r->sgs;
    if (g == last || g >= r->nsg) continue;
    last = g;
    uint32_t *e = &r->epoch[(size_t)g * EP_N];
    for (unsigned m = 0; m < EP_N; m++) e[m] += sp[m];
  }
}

/* Lane l of w read or wrote n bytes of image allocation `alloc` from byte off (the texels). */
static void race_image(ex_race *r, ex_ctx *cx, const ex_warp *w, unsigned lane, uint32_t site, uint32_t alloc,
                       uint64_t off, uint64_t n, bool write) {
  if (!n || alloc == 0 || alloc >= cx->nallocs || off > cx->allocs[alloc].size || n > cx->allocs[alloc].size - off)
    return;
  access_items(r, cx, alloc, true, off, n, w->first_linear + lane + 1, 1, site, write, false);
}

/* The global side of an async copy against the earlier groups' summary (as access_items does for a
 * work-item's access) and into the group's summary for the later groups. The running interval's
 * summary does not hold it: the copy is checked against that at the wait (copies_check). */
static void copy_global(ex_race *r, ex_ctx *cx, uint32_t id, uint64_t off, uint64_t n, bool write, uint32_t site) {
  struct ex_race_global *g = r->g;
  if (!g->ep[id]) return;
  const ent cp = {COPY_ITEM, site};
  xrun x = {{0, 0}, 0, 0, false};
  for (uint64_t b = off; b < off + n;) {
    const uint64_t pg = b >> PG_SHIFT, pbase = pg << PG_SHIFT;
    const epage *ep = g->ep[id][pg];
    ipage *p = page_get(r, &g->ip[id][pg], id, pg, true, ep);
    const uint32_t i0 = (uint32_t)(b - pbase);
    const uint32_t end = off + n - pbase < PG_BYTES ? (uint32_t)(off + n - pbase) : PG_BYTES;
    if (p) {
      if (p->gs && ((i0 | end) & ((1u << GS_WORD) - 1))) ip_split(p);
      const uint32_t j0 = i0 >> p->gs, j1 = end >> p->gs;
      for (uint32_t j = j0; j < j1; j++) min_add(write ? &p->gw[j] : &p->gr[j], &cp);
      if (j0 < p->glo) p->glo = j0;
      if (j1 > p->ghi) p->ghi = j1;
    }
    if (ep && (write || ep->written) && ep_touches(ep, write, i0, end))
      for (uint32_t i = i0; i < end; i++) {
        const eent ew = ep_get(ep, 0, i >> ep->gs), er = ep_get(ep, 1, i >> ep->gs); /* runs or full */
        eent o;
        bool ow;
        if (!(ew.group | er.group) || !earlier_conflict(ew, er, write, false, &o, &ow)) continue;
        const uint64_t at = pbase + i;
        if (x.len && x.start + x.len == at && o.group == x.other.group && o.packed == x.other.packed) {
          x.len++;
          continue;
        }
        if (x.len) xrun_report(cx, &x, id, 1, site, write);
        x.other = o;
        x.other_write = ow;
        x.start = at;
        x.len = 1;
      }
    b = pbase + end;
  }
  if (x.len) xrun_report(cx, &x, id, 1, site, write);
}

/* An async copy of n bytes from src to dst at instruction `site`, done for the group: the
 * group's access, unordered with the work-items' until wait_group_events for its event (the event
 * comes with race_copy_event). */
static void race_copy(ex_race *r, ex_ctx *cx, uint32_t site, uint64_t dst, uint64_t src, uint64_t n) {
  if (!n) return;
  if (r->ncopies == r->capcopies) {
    uint32_t cap = r->capcopies ? 2 * r->capcopies : 16;
    pcopy *c = realloc(r->copies, cap * sizeof *c);
    if (!c) return; /* out of memory: this range goes unchecked */
    r->copies = c;
    r->capcopies = cap;
  }
  r->copies[r->ncopies++] = (pcopy){dst, src, n, 0, site};
  r->unbound++;
  for (int side = 0; side < 2; side++) {
    uint32_t id;
    uint64_t off;
    if (ex_hk_resolve(cx, side ? src : dst, n, &id, &off) && cx->allocs[id].space == EX_AS_GLOBAL)
      copy_global(r, cx, id, off, n, !side, site);
  }
}

static void race_copy_event(void *self, ex_ctx *cx, uint64_t ev) {
  ex_race *r = self;
  (void)cx;
  for (uint32_t i = r->ncopies - r->unbound; i < r->ncopies; i++) r->copies[i].ev = ev;
  r->unbound = 0;
}

/* One side of a pending copy against the running interval's summaries, when its memory is in
 * `spaces`: the copy's write conflicts with any access of a byte (the smallest writer, else the
 * smallest reader, is shown), its read with any write. */
static void copy_side(ex_race *r, ex_ctx *cx, const pcopy *c, bool write, const bool spaces[EP_N]) {
  struct ex_race_global *g = r->g;
  uint32_t id;
  uint64_t off;
  if (!ex_hk_resolve(cx, write ? c->dst : c->src, c->n, &id, &off)) return;
  const ex_alloc *a = &cx->allocs[id];
  if (!racy(a)) return;
  const bool glob = a->space == EX_AS_GLOBAL;
  const unsigned space = !glob ? EP_LOCAL : a->image ? EP_IMAGE : EP_GLOBAL;
  if (!spaces[space] || (glob && !g->ip[id])) return;
  const uint64_t base = glob ? off : a->offset + off;
  const ent cp = {COPY_ITEM, c->site};
  ent ro = {0, 0};
  bool rw = false;
  uint64_t start = 0, len = 0;
  for (uint64_t b = base; b < base + c->n;) {
    const uint64_t pg = b >> PG_SHIFT, pbase = pg << PG_SHIFT;
    const ipage *p = glob ? g->ip[id][pg] : r->lp[pg];
    const uint32_t i0 = (uint32_t)(b - pbase);
    const uint32_t end = base + c->n - pbase < PG_BYTES ? (uint32_t)(base + c->n - pbase) : PG_BYTES;
    for (uint32_t i = i0; p && i < end; i++) {
      const uint32_t j = i >> p->gs;
      ent o = {0, 0};
      bool ow = false;
      if (p->w[j][0].item) {
        o = p->w[j][0];
        ow = true;
      } else if (write && p->r[j][0].item) o = p->r[j][0];
      const uint64_t at = pbase + i;
      if (len && o.item == ro.item && o.site == ro.site && ow == rw && start + len == at) {
        len++;
        continue;
      }
      if (len)
        report_pair(cx, glob, id, start, len, write ? cp : ro, write ? ro : cp, write ? rw : false, RK_COPY, space);
      len = 0;
      if (o.item) {
        ro = o;
        rw = ow;
        start = at;
        len = 1;
      }
    }
    b = pbase + end;
  }
  if (len) report_pair(cx, glob, id, start, len, write ? cp : ro, write ? ro : cp, write ? rw : false, RK_COPY, space);
}

/* The pending copies (all, or those whose event is in the list) against the running interval. */
static void copies_check(ex_race *r, ex_ctx *cx, const bool spaces[EP_N], bool all, const uint64_t *ev, uint64_t nev,
                         uint64_t evb) {
  for (uint32_t i = 0; i < r->ncopies; i++) {
    const pcopy *c = &r->copies[i];
    bool sel = all;
    for (uint64_t k = 0; k < nev && !sel; k++) {
      uint64_t e;
      memcpy(&e, (const uint8_t *)ev + k * evb, 8);
      sel = e == c->ev;
    }
    if (!sel) continue;
    copy_side(r, cx, c, true, spaces);
    copy_side(r, cx, c, false, spaces);
  }
}

static void race_wait(void *self, ex_ctx *cx, const void *events, uint64_t num, uint64_t evb) {
  ex_race *r = self;
  static const bool every[EP_N] = {true, true, true};
  copies_check(r, cx, every, false, events, num, evb);
  /* the waited copies are complete: ordered before every later access of the group */
  uint32_t k = 0;
  for (uint32_t i = 0; i < r->ncopies; i++) {
    bool done = false;
    for (uint64_t j = 0; j < num && !done; j++) {
      uint64_t e;
      memcpy(&e, (const uint8_t *)events + j * evb, 8);
      done = e == r->copies[i].ev;
    }
    if (!done) r->copies[k++] = r->copies[i];
  }
  r->ncopies = k;
}

/* ---- named barriers ----------------------------------------------------------------------------
 * A module with named barriers (cl_khr_subgroup_named_barrier) runs one warp per sub-group and each
 * work-group on one thread, so the order in which a group's accesses and barriers happen is fixed
 * (spvi_run forces the warp width to S; --check races runs the groups in order on one thread).
 * The group's pairs are then found in that order with vector clocks, one component per sub-group
 * and per memory (local, global, image):
 *  - vc[space][h][g] is what sub-group h knows of g's clock; vc[space][g][g] is g's own clock. A
 *    barrier (work-group barrier: every sub-group; a completed named-barrier phase: the sub-groups
 *    that arrived; a sub-group barrier: one) joins its members' clocks for each memory its fence
 *    covers, then each member's own clock goes up by one.
 *  - An access of sub-group g at own clock c happens before a later access of h != g iff
 *    c <= vc[space][h][g]; before a later access of g iff it is by the same work-item or g's clock
 *    went up since (a barrier of g's sub-group in between).
 *  - Per byte and sub-group, four slots (plain write, atomic write, plain read, atomic read) keep
 *    the clock of the sub-group's latest access of that kind and the two smallest work-items of
 *    that clock. An earlier access of g of that kind unordered with a new access has a clock
 *    >= ... the latest one's is at least as large, so the latest is unordered too; within the
 *    latest clock two distinct work-items are enough to find one other than the new access's.
 *    So each access is reported iff some earlier access of the group conflicts with it and is not
 *    ordered before it, with the first such one by (sub-group, kind).
 * Shadow: per touched byte, 80 bytes per sub-group of the group (pages of 256 bytes, allocated on
 * first touch, recycled at the group's end), and the checks cost O(sub-groups that touched the
 * byte) per byte accessed. */
typedef struct nbslot {
  uint32_t ep;
  ent e[2];
} nbslot;
enum { NB_WP, NB_WA, NB_RP, NB_RA, NB_K };
typedef struct nbpage {
  uint32_t alloc, lo, hi; /* touched bytes [lo, hi) */
  uint64_t page;
  struct nbpage *next;
  uint64_t *mask; /* per byte: the sub-groups with a slot set (mw words) */
  nbslot *s;      /* per byte, per sub-group: NB_K slots */
} nbpage;

typedef struct nbstate {
  unsigned S;       /* sub-group size */
  uint32_t nsg, mw; /* sub-groups per group, mask words per byte */
  uint32_t *vc;     /* [EP_N][nsg][nsg] */
  nbpage ***tab;    /* per allocation (0: the local arena), per page */
  uint64_t *npages;
  uint32_t nallocs;
  nbpage *used, *free;
} nbstate;

static void nb_reset_clocks(nbstate *b) {
  memset(b->vc, 0, (size_t)EP_N * b->nsg * b->nsg * sizeof *b->vc);
  for (unsigned sp = 0; sp < EP_N; sp++)
    for (uint32_t g = 0; g < b->nsg; g++) b->vc[((size_t)sp * b->nsg + g) * b->nsg + g] = 1;
}

static bool nb_new(const ex_ctx *cx, ex_race *r) {
  nbstate *b = calloc(1, sizeof *b);
  if (!b) return false;
  r->nb = b;
  const uint64_t items = cx->l->local[0] * cx->l->local[1] * cx->l->local[2];
  b->S = cx->sg_size ? cx->sg_size : 1;
  b->nsg = (uint32_t)((items + b->S - 1) / b->S);
  if (!b->nsg) b->nsg = 1;
  b->mw = (b->nsg + 63) / 64;
  b->nallocs = cx->nallocs;
  b->vc = malloc((size_t)EP_N * b->nsg * b->nsg * sizeof *b->vc);
  b->tab = calloc(cx->nallocs, sizeof *b->tab);
  b->npages = calloc(cx->nallocs, sizeof *b->npages);
  if (!b->vc || !b->tab || !b->npages) return false; /* race_worker_free frees what exists */
  b->npages[0] = r->nlp;
  for (uint32_t i = 1; i < cx->nallocs; i++)
    if (cx->allocs[i].space == EX_AS_GLOBAL) b->npages[i] = (cx->allocs[i].size + PG_BYTES - 1) >> PG_SHIFT;
  nb_reset_clocks(b);
  return true;
}

static void nbpage_free(nbpage *p) {
  if (!p) return;
  free(p->mask);
  free(p->s);
  free(p);
}

static void nb_free(ex_race *r) {
  nbstate *b = r->nb;
  if (!b) return;
  for (nbpage *p = b->used, *n; p; p = n) {
    n = p->next;
    nbpage_free(p);
  }
  for (nbpage *p = b->free, *n; p; p = n) {
    n = p->next;
    nbpage_free(p);
  }
  for (uint32_t i = 0; b->tab && i < b->nallocs; i++) free(b->tab[i]);
  free(b->tab);
  free(b->npages);
  free(b->vc);
  free(b);
  r->nb = NULL;
}

/* The group's page of allocation `alloc`, NULL when out of memory (the access goes unchecked). */
static nbpage *nb_page(nbstate *b, uint32_t alloc, uint64_t pg) {
  if (alloc >= b->nallocs || pg >= b->npages[alloc]) return NULL;
  if (!b->tab[alloc] && !(b->tab[alloc] = calloc(b->npages[alloc], sizeof **b->tab))) return NULL;
  nbpage *p = b->tab[alloc][pg];
  if (p) return p;
  if ((p = b->free)) b->free = p->next;
  else {
    p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->mask = calloc((size_t)PG_BYTES * b->mw, sizeof *p->mask);
    p->s = calloc((size_t)PG_BYTES * b->nsg * NB_K, sizeof *p->s);
    if (!p->mask || !p->s) {
      nbpage_free(p);
      return NULL;
    }
  }
  p->alloc = alloc;
  p->page = pg;
  p->lo = PG_BYTES;
  p->hi = 0;
  p->next = b->used;
  b->used = p;
  b->tab[alloc][pg] = p;
  return p;
}

static void nb_group_end(ex_race *r) {
  nbstate *b = r->nb;
  while (b->used) {
    nbpage *p = b->used;
    b->used = p->next;
    if (p->lo < p->hi) {
      memset(&p->mask[(size_t)p->lo * b->mw], 0, (size_t)(p->hi - p->lo) * b->mw * sizeof *p->mask);
      memset(&p->s[(size_t)p->lo * b->nsg * NB_K], 0, (size_t)(p->hi - p->lo) * b->nsg * NB_K * sizeof *p->s);
    }
    b->tab[p->alloc][p->page] = NULL;
    p->next = b->free;
    b->free = p;
  }
  nb_reset_clocks(b);
}

/* The members' clocks of one memory: joined, then each member's own clock up by one. */
static void nb_sync(nbstate *b, unsigned sp, const uint32_t *mem, uint32_t nm) {
  if (!nm) return;
  uint32_t *V = &b->vc[(size_t)sp * b->nsg * b->nsg];
  uint32_t *J = &V[(size_t)mem[0] * b->nsg];
  for (uint32_t k = 1; k < nm; k++) {
    const uint32_t *X = &V[(size_t)mem[k] * b->nsg];
    for (uint32_t g = 0; g < b->nsg; g++)
      if (X[g] > J[g]) J[g] = X[g];
  }
  for (uint32_t k = 1; k < nm; k++) memcpy(&V[(size_t)mem[k] * b->nsg], J, b->nsg * sizeof *J);
  for (uint32_t k = 0; k < nm; k++) V[(size_t)mem[k] * b->nsg + mem[k]]++;
}

static void nb_barrier_all(ex_race *r, const bool spaces[]) {
  nbstate *b = r->nb;
  uint32_t *all = malloc(b->nsg * sizeof *all);
  if (!all) return; /* out of memory: later pairs may be reported that the barrier orders */
  for (uint32_t g = 0; g < b->nsg; g++) all[g] = g;
  for (unsigned sp = 0; sp < EP_N; sp++)
    if (spaces[sp]) nb_sync(b, sp, all, b->nsg);
  free(all);
}

static void nb_subgroup_barrier(ex_race *r, const ex_warp *w, const uint16_t *lanes, unsigned nl, const bool sp[]) {
  nbstate *b = r->nb;
  uint32_t last = UINT32_MAX;
  for (unsigned k = 0; k < nl; k++) {
    const uint32_t g = (w->first_linear + lanes[k]) / b->S;
    if (g == last || g >= b->nsg) continue;
    last = g;
    for (unsigned s = 0; s < EP_N; s++)
      if (sp[s]) nb_sync(b, s, &g, 1);
  }
}

/* Named-barrier mode: a phase of a named barrier completed for the n sub-groups whose first
 * work-items (local linear ids) are first_linear[k], each waiting with fences fences[k]. */
static void race_named_barrier(ex_race *r, const uint32_t *first_linear, const unsigned *fences, unsigned n) {
  nbstate *b = r->nb;
  if (!b || !n) return;
  uint32_t *mem = malloc(n * sizeof *mem);
  if (!mem) return;
  static const unsigned bit[EP_N] = {EX_HK_FENCE_LOCAL, EX_HK_FENCE_GLOBAL, EX_HK_FENCE_IMAGE};
  for (unsigned sp = 0; sp < EP_N; sp++) {
    uint32_t nm = 0;
    for (unsigned k = 0; k < n; k++)
      if ((fences[k] & bit[sp]) && first_linear[k] / b->S < b->nsg) mem[nm++] = first_linear[k] / b->S;
    nb_sync(b, sp, mem, nm);
  }
  free(mem);
}

static const char *nb_detail(unsigned space) {
  static const char *const t[EP_N] = {
    "no barrier with the local memory fence orders the two accesses: no work-group barrier, no phase of a named "
    "barrier that both sub-groups took part in (cl_khr_subgroup_named_barrier) and, within one sub-group, no "
    "sub_group_barrier (OpenCL C 6.15.8)",
    "no barrier with the global memory fence orders the two accesses: no work-group barrier, no phase of a named "
    "barrier that both sub-groups took part in (cl_khr_subgroup_named_barrier) and, within one sub-group, no "
    "sub_group_barrier (OpenCL C 6.15.8)",
    "no barrier with the image memory fence orders the two accesses: no work-group barrier, no phase of a named "
    "barrier that both sub-groups took part in (cl_khr_subgroup_named_barrier) and, within one sub-group, no "
    "sub_group_barrier (OpenCL C 6.15.8)"};
  return t[space];
}

static void __attribute__((cold)) nb_report(ex_ctx *cx, uint32_t alloc, uint64_t o, uint64_t len, uint32_t item,
                                            uint32_t s, bool write, ent other, bool ow, unsigned space) {
  report_race(cx, alloc, o, len, (ent){.item = item, .site = s}, write, other, ow, nb_detail(space));
}

/* The accesses of `count` work-items from `item` (+ 1), each of n bytes at consecutive places from
 * byte `base` of allocation `alloc` (0: the local arena): each against the group's earlier
 * accesses of its bytes, then recorded. Consecutive bytes of one work-item's access that conflict
 * with the same earlier access are one report. */
static void nb_record(ex_ctx *cx, ex_race *r, uint32_t alloc, uint64_t base, uint64_t n, uint32_t item, unsigned count,
                      uint32_t s, bool write, bool atomic) {
  nbstate *b = r->nb;
  const unsigned space = !alloc ? EP_LOCAL : cx->allocs[alloc].image ? EP_IMAGE : EP_GLOBAL;
  const unsigned kind = (write ? NB_WP : NB_RP) + (atomic ? 1u : 0u);
  for (unsigned c = 0; c < count; c++, item++) {
    const uint32_t h = (item - 1) / b->S;
    if (h >= b->nsg) continue;
    const uint32_t *V = &b->vc[((size_t)space * b->nsg + h) * b->nsg];
    const uint32_t cur = V[h];
    ent ro = {0, 0};
    bool rw = false;
    uint64_t start = 0, len = 0;
    const uint64_t lo = base + c * n;
    for (uint64_t a = lo; a < lo + n; a++) {
      nbpage *p = nb_page(b, alloc, a >> PG_SHIFT);
      if (!p) continue;
      const uint32_t i = (uint32_t)(a & (PG_BYTES - 1));
      uint64_t *m = &p->mask[(size_t)i * b->mw];
      nbslot *X = &p->s[(size_t)i * b->nsg * NB_K];
      ent o = {0, 0};
      bool ow = false;
      for (uint32_t wd = 0; wd < b->mw && !o.item; wd++)
        for (uint64_t bits = m[wd]; bits && !o.item; bits &= bits - 1) {
          const uint32_t g = wd * 64 + (uint32_t)__builtin_ctzll(bits);
          const nbslot *x = &X[(size_t)g * NB_K];
          for (unsigned k = 0; k < NB_K; k++) {
            const bool kw = k < NB_RP, ka = k & 1u;
            if (!x[k].e[0].item || (!write && !kw) || (atomic && ka)) continue;
            ent y;
            if (g != h) {
              if (x[k].ep <= V[g]) continue; /* ordered before by a barrier chain */
              y = x[k].e[0];
            } else {
              if (x[k].ep != cur) continue; /* a barrier of the sub-group in between */
              y = x[k].e[0].item != item ? x[k].e[0] : x[k].e[1];
              if (!y.item) continue; /* only this work-item: program order */
            }
            o = y;
            ow = kw;
            break;
          }
        }
      nbslot *y = &X[(size_t)h * NB_K + kind];
      if (y->ep != cur) {
        memset(y, 0, sizeof *y);
        y->ep = cur;
      }
      top2_add(y->e, item, s);
      m[h / 64] |= 1ull << (h % 64);
      if (i < p->lo) p->lo = i;
      if (i + 1 > p->hi) p->hi = i + 1;
      if (len && o.item == ro.item && o.site == ro.site && ow == rw && start + len == a) {
        len++;
        continue;
      }
      if (len) nb_report(cx, alloc, start, len, item, s, write, ro, rw, space);
      len = 0;
      if (o.item) {
        ro = o;
        rw = ow;
        start = a;
        len = 1;
      }
    }
    if (len) nb_report(cx, alloc, start, len, item, s, write, ro, rw, space);
  }
}

/* ---- the client (ex_hooks.h) ---------------------------------------------------------------- */

/* A load's or store's lanes, in segments of consecutive lanes whose pointers are consecutive
 * elements (lane + k at p + k * n: a warp reading a row) or the same (a broadcast): each segment
 * is recorded with one lookup per page instead of one per lane. */
static void race_lanes(ex_race *r, ex_ctx *cx, const ex_hk_access *a, uint32_t site) {
  const uint64_t *pt = a->ptr, n = a->size;
  const uint16_t *lanes = a->lanes;
  const unsigned nl = a->nl;
  const bool full = a->full, write = a->write; /* full: lanes[k] == k */
  unsigned k = 0, single = 0;                  /* lanes[single..k) are in no run, not yet recorded */
  while (k < nl) {
    unsigned e = k + 1;
    uint64_t stride = 0;
    if (e < nl && (full || lanes[e] == lanes[k] + 1)) {
      stride = pt[e] - pt[k];
      if (stride == n || stride == 0) {
        if (full) {
          /* the whole warp, else blocks of 8 lanes, without an early exit (which does not
           * vectorise), then lane by lane in the block where the segment ends (a 2D group's row
           * of 16 in a warp of 32) */
          if (pt[nl - 1] - pt[k] == stride * (nl - 1 - k)) { /* else the warp is no one segment */
            uint64_t all = 0;
            for (unsigned j = e; j < nl; j++) all |= (pt[j] - pt[j - 1]) ^ stride;
            if (!all) e = nl;
          }
          while (e + 8 <= nl) {
            uint64_t diff = 0;
            for (unsigned j = e; j < e + 8; j++) diff |= (pt[j] - pt[j - 1]) ^ stride;
            if (diff) break;
            e += 8;
          }
          while (e < nl && pt[e] - pt[e - 1] == stride) e++;
        } else
          while (e < nl && lanes[e] == lanes[e - 1] + 1 && pt[e] - pt[e - 1] == stride) e++;
      } else e = k + 1;
    }
    const unsigned cnt = e - k;
    if (cnt == 1) { /* lanes in no run (a scan's strided tree levels): batched below */
      k = e;
      continue;
    }
    if (single < k) race_access_lanes(r, cx, a->w, lanes + single, k - single, site, pt + single, n, write, false);
    if (!(stride ? race_access_run(r, cx, a->w, lanes[k], cnt, site, pt[k], n, write, false)
                 : race_access_uniform(r, cx, a->w, lanes[k], cnt, site, pt[k], n, write, false)))
      for (unsigned j = k; j < e; j++) race_access(r, cx, a->w, lanes[j], site, pt[j], n, write, false);
    k = single = e;
  }
  /* the lanes in no run, in order, sharing their allocation's lookup */
  if (single < nl) race_access_lanes(r, cx, a->w, lanes + single, nl - single, site, pt + single, n, write, false);
}

static void race_on_access(void *self, ex_ctx *cx, const ex_hk_access *a) {
  ex_race *r = self;
  const uint32_t site = ex_hk_site(cx, a->fn, a->ip);
  switch (a->kind) {
  case EX_HK_LOAD:
  case EX_HK_STORE: race_lanes(r, cx, a, site); return;
  case EX_HK_ATOMIC:
    if (a->atomic_op == EX_AT_CMPXCHG) return; /* recorded once it ran: race_on_cmpxchg */
    race_access_lanes(r, cx, a->w, a->lanes, a->nl, site, a->ptr, a->size, a->write, true);
    return;
  case EX_HK_COPY:
  case EX_HK_BYVAL: /* (a by-value copy's write is to private memory: no race) */
    for (unsigned k = 0; k < a->nl; k++) {
      const uint64_t n = a->sizes ? a->sizes[k] : a->size;
      if (!n) continue;
      race_access(r, cx, a->w, a->lanes[k], site, a->src[k], n, false, false);
      race_access(r, cx, a->w, a->lanes[k], site, a->ptr[k], n, true, false);
    }
    return;
  case EX_HK_BUILTIN: race_access(r, cx, a->w, a->lanes[0], site, a->ptr[0], a->size, a->write, false); return;
  case EX_HK_IMAGE: race_image(r, cx, a->w, a->lanes[0], site, a->alloc, a->off, a->size, a->write); return;
  case EX_HK_GROUP_COPY: race_copy(r, cx, site, a->ptr[0], a->src[0], a->size); return;
  default: return;
  }
}

/* A compare-exchange is an atomic write in the lanes whose comparison held and an atomic load in the
 * others (OpenCL C 6.15.12.7.4: "Otherwise, these operations are atomic load operations"), so a
 * failed one conflicts only with plain writes: a leader election's losers do not race with the
 * winner's plain reads. */
static void race_on_cmpxchg(void *self, ex_ctx *cx, const ex_hk_access *a) {
  ex_race *r = self;
  const uint32_t site = ex_hk_site(cx, a->fn, a->ip);
  uint16_t lanes[2][EX_MAX_WARP];
  uint64_t ptr[2][EX_MAX_WARP];
  unsigned n[2] = {0, 0};
  for (unsigned k = 0; k < a->nl; k++) {
    const unsigned x = a->exchanged[k];
    lanes[x][n[x]] = a->lanes[k];
    ptr[x][n[x]++] = a->ptr[k];
  }
  for (unsigned x = 0; x < 2; x++)
    if (n[x]) race_access_lanes(r, cx, a->w, lanes[x], n[x], site, ptr[x], a->size, x == 1, true);
}

static void race_on_barrier(void *self, ex_ctx *cx, const ex_hk_barrier *b) {
  ex_race *r = self;
  switch (b->scope) {
  case EX_HK_BAR_GROUP: race_interval_end(r, cx, b->fences); return;
  case EX_HK_BAR_SUBGROUP: race_subgroup_barrier(r, b->w, b->lanes, b->nl, b->fences); return;
  default: race_named_barrier(r, b->first_linear, b->member_fences, b->n); return;
  }
}

/* Races between work-groups are found by comparing each group with the groups before it, which
 * must have finished: work-groups run in order on one thread (EX_HK_SERIAL). Work-items are named
 * first_linear + lane (EX_HK_WARPWISE). */
static unsigned race_wants(const ex_ctx *cx) {
  return (cx->checks & SPVI_CHECK_RACES) ? EX_HK_MEMORY | EX_HK_WARPWISE | EX_HK_SERIAL | EX_HK_SITES : 0;
}

const ex_hooks ex_race_hooks = {
  .name = "races",
  .wants = race_wants,
  .launch_begin = race_launch_begin,
  .launch_end = race_launch_end,
  .worker_init = race_worker_init,
  .worker_free = race_worker_free,
  .group_end = race_group_end,
  .access = race_on_access,
  .cmpxchg = race_on_cmpxchg,
  .barrier = race_on_barrier,
  .copy_event = race_copy_event,
  .wait_events = race_wait,
};
