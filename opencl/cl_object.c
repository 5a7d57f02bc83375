/*
 * cl_object.c — the handle registry and reference counts behind every cl_* object.
 *
 * The OpenCL API gives applications raw pointers; a wrong one (NULL, released, of another kind,
 * garbage) must give CL_INVALID_<OBJECT>, not a crash (OpenCL 3.0 API, every entry point's error
 * list). So no entry point dereferences a handle before clx_valid() found it in this registry: an
 * open-addressing hash set of live objects' addresses under one mutex. Lookups are short (a few
 * probes), and the lock is held only for them.
 *
 * Two counts: `refs` is the application's (clRetain/clRelease, CL_*_REFERENCE_COUNT); `holds` is
 * spvi's own (a command in flight holds its memory objects and event, a kernel its program, every
 * object its context). When refs reaches 0 the object leaves the registry — the application can no
 * longer name it — and it is destroyed once holds is 0 too, as the spec requires ("the memory
 * object is deleted once ... commands queued ... that use it have finished", 5.5.1).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cl_internal.h"

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t *reg_slots; /* 0 empty, 1 deleted, else an object's address */
static size_t reg_cap, reg_used, reg_live;

#define SLOT_EMPTY ((uintptr_t)0)
#define SLOT_DELETED ((uintptr_t)1)

static size_t slot_hash(uintptr_t p) {
  uint64_t x = (uint64_t)p; /* objects are malloc'd: the low bits are mostly zero */
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x;
}

/* Index of p's slot, or of the first free slot of its probe sequence when p is absent. */
static size_t slot_find(uintptr_t p, bool *found) {
  size_t mask = reg_cap - 1, i = slot_hash(p) & mask, first_free = SIZE_MAX;
  for (;;) {
    uintptr_t s = reg_slots[i];
    if (s == p) {
      *found = true;
      return i;
    }
    if (s == SLOT_DELETED && first_free == SIZE_MAX) first_free = i;
    if (s == SLOT_EMPTY) {
      *found = false;
      return first_free != SIZE_MAX ? first_free : i;
    }
    i = (i + 1) & mask;
  }
}

static void reg_grow(void) {
  size_t old_cap = reg_cap;
  uintptr_t *old = reg_slots;
  reg_cap = reg_cap ? reg_cap * 2 : 1024;
  while (reg_live * 2 >= reg_cap) reg_cap *= 2;
  reg_slots = calloc(reg_cap, sizeof *reg_slots);
  if (!reg_slots) abort(); /* a few KiB: running out here means the process is lost anyway */
  reg_used = 0;
  for (size_t i = 0; i < old_cap; i++)
    if (old[i] > SLOT_DELETED) {
      bool f;
      reg_slots[slot_find(old[i], &f)] = old[i];
      reg_used++;
    }
  free(old);
}

static void reg_add(const void *obj) {
  pthread_mutex_lock(&reg_lock);
  if ((reg_used + 1) * 4 >= reg_cap * 3) reg_grow();
  bool found;
  size_t i = slot_find((uintptr_t)obj, &found);
  if (!found) {
    if (reg_slots[i] == SLOT_EMPTY) reg_used++;
    reg_slots[i] = (uintptr_t)obj;
    reg_live++;
  }
  pthread_mutex_unlock(&reg_lock);
}

static void reg_remove(const void *obj) {
  pthread_mutex_lock(&reg_lock);
  bool found = false;
  size_t i = reg_cap ? slot_find((uintptr_t)obj, &found) : 0;
  if (found) {
    reg_slots[i] = SLOT_DELETED;
    reg_live--;
  }
  pthread_mutex_unlock(&reg_lock);
}

static bool reg_has(const void *obj) {
  pthread_mutex_lock(&reg_lock);
  bool found = false;
  if (reg_cap) slot_find((uintptr_t)obj, &found);
  pthread_mutex_unlock(&reg_lock);
  return found;
}

/* ---- object memory ----------------------------------------------------------------------------
 * An application that uses a released handle through the ICD loader makes the loader read the
 * handle's dispatch pointer before spvi sees the call (cl_khr_icd). So the memory of a destroyed
 * object is never returned to malloc: it keeps a valid dispatch pointer (and kind 0, which no
 * registry lookup accepts) and goes on a free list for the next object of the same size. The
 * loader then calls spvi, which answers CL_INVALID_<OBJECT>. Memory stays bounded by the peak
 * number of live objects. */
typedef struct free_obj {
  clx_head h;
  struct free_obj *next;
} free_obj;
/* One list per object size (there are as many sizes as kinds of object); under reg_lock. */
static struct {
  size_t size;
  free_obj *head;
} free_lists[32];

static free_obj **free_list(size_t size) {
  for (size_t i = 0; i < sizeof free_lists / sizeof free_lists[0]; i++) {
    if (free_lists[i].size == 0) free_lists[i].size = size;
    if (free_lists[i].size == size) return &free_lists[i].head;
  }
  return NULL; /* more sizes than kinds of object: cannot happen */
}

void *clx_obj_alloc(size_t size) {
  if (size < sizeof(free_obj)) size = sizeof(free_obj);
  pthread_mutex_lock(&reg_lock);
  free_obj **list = free_list(size), *f = list ? *list : NULL;
  if (f) *list = f->next;
  pthread_mutex_unlock(&reg_lock);
  void *obj = f ? (void *)f : malloc(size);
  if (obj) memset(obj, 0, size);
  return obj;
}

void clx_obj_free(void *obj, size_t size) {
  if (!obj) return;
  if (size < sizeof(free_obj)) size = sizeof(free_obj);
  free_obj *f = obj;
  memset(f, 0, size);
  f->h.dispatch = &clx_dispatch;
  pthread_mutex_lock(&reg_lock);
  free_obj **list = free_list(size);
  if (list) {
    f->next = *list;
    *list = f;
  }
  pthread_mutex_unlock(&reg_lock);
  if (!list) free(obj);
}

void clx_init(void *obj, clx_kind kind, void (*destroy)(void *obj)) {
  clx_head *h = obj;
  h->dispatch = &clx_dispatch;
  h->kind = kind;
  atomic_init(&h->refs, 1);
  atomic_init(&h->holds, 1); /* the application's references, as one hold */
  h->destroy = destroy;
  reg_add(obj);
}

bool clx_valid(const void *obj, clx_kind kind) {
  if (!obj) return false;
  /* the singletons are not in the registry: they can never be released */
  if (obj == &clx_platform) return kind == CLX_PLATFORM;
  if (obj == &clx_device) return kind == CLX_DEVICE;
  if (!reg_has(obj)) return false;
  const clx_head *h = obj;
  return h->kind == kind && atomic_load(&h->refs) > 0;
}

/* The object is destroyed by the one thread whose decrement takes `holds` to 0. The application's
 * references count as one hold while there are any (clx_init starts holds at 1), so that neither a
 * last unhold nor a last release can see "both counts 0" at the same time as the other. */
static void drop_hold(clx_head *h) {
  if (atomic_fetch_sub(&h->holds, 1) == 1 && h->destroy) h->destroy(h);
}

cl_int clx_retain(void *obj, clx_kind kind, cl_int invalid) {
  if (!clx_valid(obj, kind)) return invalid;
  if (obj == &clx_platform || obj == &clx_device) return CL_SUCCESS;
  atomic_fetch_add(&((clx_head *)obj)->refs, 1);
  return CL_SUCCESS;
}

cl_int clx_release(void *obj, clx_kind kind, cl_int invalid) {
  if (!clx_valid(obj, kind)) return invalid;
  if (obj == &clx_platform || obj == &clx_device) return CL_SUCCESS;
  clx_head *h = obj;
  /* never below 0: of two racing releases of the last reference, one is CL_INVALID_* */
  cl_uint before = atomic_load(&h->refs);
  while (before > 0 && !atomic_compare_exchange_weak(&h->refs, &before, before - 1)) {}
  if (before == 0) return invalid;
  if (before == 1) {
    reg_remove(obj);
    drop_hold(h); /* the references' hold */
  }
  return CL_SUCCESS;
}

void clx_hold(void *obj) {
  if (!obj || obj == &clx_platform || obj == &clx_device) return;
  atomic_fetch_add(&((clx_head *)obj)->holds, 1);
}

void clx_unhold(void *obj) {
  if (!obj || obj == &clx_platform || obj == &clx_device) return;
  drop_hold(obj);
}

cl_uint clx_refcount(const void *obj) {
  if (obj == &clx_platform || obj == &clx_device) return 1;
  return atomic_load(&((const clx_head *)obj)->refs);
}

cl_int clx_info(size_t out_size, void *out, size_t *size_ret, const void *value, size_t size) {
  if (out) {
    if (out_size < size) return CL_INVALID_VALUE;
    if (size) memcpy(out, value, size);
  }
  if (size_ret) *size_ret = size;
  return CL_SUCCESS;
}

cl_ulong clx_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (cl_ulong)ts.tv_sec * 1000000000u + (cl_ulong)ts.tv_nsec;
}
