/*
 * clc_cache.h — a content-addressed cache of build results, in memory (per process) and on disk
 * (shared by processes), for the OpenCL C compiler driver (clc_compile.c) and whatever else
 * turns inputs into outputs by running external tools. See docs/compile.md "The build cache".
 *
 * The caller computes the key: a SHA-256 (clcache_sha256_*) over everything the output depends on
 * that it knows (source, options, tool identities, clcache_tools_identity). Files the tools read
 * from disk that the caller cannot know beforehand (headers found through -I) are given to
 * clcache_put as a dependency list: the cache stores each file's SHA-256 with the entry and
 * serves the entry only while every file still has that content (ccache's "direct mode").
 *
 * Environment (read at every call): SPVI_CACHE=0 disables the cache, `memory` / `disk` keep one
 * level only (default: both); SPVI_CACHE_DIR is the directory (default $XDG_CACHE_HOME/spvi,
 * else $HOME/.cache/spvi; no disk cache when none is set); SPVI_CACHE_SIZE bounds it in MiB
 * (default 256; the oldest entries are removed beyond it). Entries are written to a temporary
 * file and renamed, so a reader never sees half an entry; an entry that does not verify (its own
 * checksum, its format) is ignored and replaced by the next put. Thread-safe.
 */
#ifndef CLC_CACHE_H
#define CLC_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLCACHE_KEY 32 /* bytes of a key: a SHA-256 */

/* SHA-256 (FIPS 180-4), incremental. */
typedef struct {
  uint32_t h[8];
  uint64_t len; /* bytes hashed so far */
  uint8_t buf[64];
} clcache_sha256;

void clcache_sha256_init(clcache_sha256 *s);
void clcache_sha256_add(clcache_sha256 *s, const void *data, size_t len);
void clcache_sha256_final(clcache_sha256 *s, uint8_t out[CLCACHE_KEY]);
/* Adds a length-prefixed item (so "ab","c" and "a","bc" hash differently); NULL is not "". */
void clcache_sha256_item(clcache_sha256 *s, const void *data, size_t len);
void clcache_sha256_str(clcache_sha256 *s, const char *str);

/* Adds the identity of the executable `path` (its path, size and modification time) to a key, so
 * an upgraded tool never serves the old tool's output; false when it cannot be stat'ed. */
bool clcache_sha256_file_identity(clcache_sha256 *s, const char *path);

/* A whole file in a malloc'd buffer, NUL-terminated for text use (*len, when not NULL, its size
 * without the NUL); NULL when it is missing or unreadable. A file that grows while it is read is
 * read to its end. (The cache's entries and the compiler driver's outputs.) */
char *clcache_read_file(const char *path, size_t *len);

/* The value stored under key, malloc'd (*len its size), or NULL: absent, a dependency changed or
 * is unreadable, the entry is corrupt, or the cache is disabled. */
void *clcache_get(const uint8_t key[CLCACHE_KEY], size_t *len);

/* Stores value under key with the files it depends on (absolute paths; their contents are hashed
 * now). Failures (disk full, no directory) only mean no entry. */
void clcache_put(const uint8_t key[CLCACHE_KEY], const void *value, size_t len, const char *const *deps, size_t ndeps);

/* Empties the in-memory level (tests; the disk level is its directory's to remove). */
void clcache_forget_memory(void);

#endif
