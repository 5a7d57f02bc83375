/*
 * ld_arena.c — the loader's arena allocator.
 *
 * Every allocation of a loaded module comes from one arena so that ld_free() is a single walk over
 * a chunk list and no error path can leak: a failed load frees the whole arena. Memory is handed
 * out zeroed and 16-byte aligned (enough for any scalar, including long double) from chunks of at
 * least 64 KiB; larger requests get a chunk of their own. Chunks come from calloc and memory is
 * never reused, so nothing needs clearing: a large table (the id table is sized by the header's
 * bound) costs address space, not memory, until it is written.
 */
#include <stdlib.h>

#include "ld_internal.h"

#define LD_ARENA_ALIGN 16u
#define LD_ARENA_CHUNK (64u * 1024u)

typedef struct ld_chunk {
  struct ld_chunk *next;
  size_t size, used; /* bytes of data[] */
  _Alignas(16) unsigned char data[];
} ld_chunk;

struct ld_arena {
  ld_chunk *head;
};

ld_arena *ld_arena_new(void) { return calloc(1, sizeof(ld_arena)); }

void *ld_arena_alloc(ld_arena *a, size_t bytes) {
  if (bytes == 0) bytes = 1; /* distinct non-NULL pointers for empty arrays */
  if (bytes > SIZE_MAX - 2 * LD_ARENA_ALIGN - sizeof(ld_chunk)) return NULL;
  size_t need = (bytes + LD_ARENA_ALIGN - 1) & ~(size_t)(LD_ARENA_ALIGN - 1);
  ld_chunk *c = a->head;
  if (!c || c->size - c->used < need) {
    size_t size = need > LD_ARENA_CHUNK ? need : LD_ARENA_CHUNK;
    c = calloc(1, sizeof(ld_chunk) + size);
    if (!c) return NULL;
    c->size = size;
    c->used = 0;
    /* A big private chunk goes behind the current one so the current one keeps serving small
     * requests. */
    if (a->head && need > LD_ARENA_CHUNK) {
      c->next = a->head->next;
      a->head->next = c;
    } else {
      c->next = a->head;
      a->head = c;
    }
  }
  void *p = c->data + c->used;
  c->used += need;
  return p;
}

void *ld_arena_array(ld_arena *a, size_t count, size_t elem_size) {
  if (elem_size && count > SIZE_MAX / elem_size) return NULL;
  return ld_arena_alloc(a, count * elem_size);
}

void ld_arena_free(ld_arena *a) {
  if (!a) return;
  ld_chunk *c = a->head;
  while (c) {
    ld_chunk *next = c->next;
    free(c);
    c = next;
  }
  free(a);
}
