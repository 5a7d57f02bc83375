/*
 * clc_cache.c — the build cache of clc_cache.h: SHA-256, the entry format, an in-memory LRU level
 * and an on-disk level. docs/compile.md "The build cache" gives the rules and the measurements.
 *
 * An entry (the same bytes in memory and on disk):
 *   "SPVICACHE1" | key (32) | u32 ndeps | ndeps x (u32 path length | path | SHA-256 of the file)
 *   | u64 value length | value | SHA-256 of everything before it
 * (integers little-endian). The trailing checksum makes a truncated or damaged file a miss, never
 * a wrong result; the key inside makes a file renamed or copied to another name a miss too.
 */
#define _GNU_SOURCE /* nftw */
#include "clc_cache.h"

#include "clc_sbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------------------------------ */
/* SHA-256 (FIPS 180-4 §6.2)                                                                    */
/* ------------------------------------------------------------------------------------------ */

static const uint32_t sha_k[64] = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n) { return x >> n | x << (32 - n); }

static void sha_block(clcache_sha256 *s, const uint8_t *p) {
  uint32_t w[64], v[8];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
  for (int i = 16; i < 64; i++) {
    uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ w[i - 15] >> 3;
    uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ w[i - 2] >> 10;
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  memcpy(v, s->h, sizeof v);
  for (int i = 0; i < 64; i++) {
    uint32_t t1 = v[7] + (ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25)) + ((v[4] & v[5]) ^ (~v[4] & v[6])) + sha_k[i] +
                  w[i];
    uint32_t t2 = (ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22)) + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
    memmove(v + 1, v, 7 * sizeof *v);
    v[4] += t1;
    v[0] = t1 + t2;
  }
  for (int i = 0; i < 8; i++) s->h[i] += v[i];
}

void clcache_sha256_init(clcache_sha256 *s) {
  static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  memcpy(s->h, h0, sizeof h0);
  s->len = 0;
}

void clcache_sha256_add(clcache_sha256 *s, const void *data, size_t len) {
  const uint8_t *p = data;
  size_t used = (size_t)(s->len % 64);
  s->len += len;
  if (used) {
    size_t k = 64 - used < len ? 64 - used : len;
    memcpy(s->buf + used, p, k);
    p += k;
    len -= k;
    if (used + k < 64) return;
    sha_block(s, s->buf);
  }
  for (; len >= 64; p += 64, len -= 64) sha_block(s, p);
  memcpy(s->buf, p, len);
}

void clcache_sha256_final(clcache_sha256 *s, uint8_t out[CLCACHE_KEY]) {
  uint64_t bits = s->len * 8;
  uint8_t pad[72] = {0x80};
  size_t used = (size_t)(s->len % 64), n = used < 56 ? 56 - used : 120 - used;
  for (int i = 0; i < 8; i++) pad[n + (size_t)i] = (uint8_t)(bits >> (56 - 8 * i));
  clcache_sha256_add(s, pad, n + 8);
  for (int i = 0; i < 32; i++) out[i] = (uint8_t)(s->h[i / 4] >> (24 - 8 * (i % 4)));
}

void clcache_sha256_item(clcache_sha256 *s, const void *data, size_t len) {
  uint8_t n[9] = {data != NULL};
  for (int i = 0; i < 8; i++) n[1 + i] = (uint8_t)((uint64_t)len >> (8 * i));
  clcache_sha256_add(s, n, sizeof n);
  if (data) clcache_sha256_add(s, data, len);
}

void clcache_sha256_str(clcache_sha256 *s, const char *str) { clcache_sha256_item(s, str, str ? strlen(str) : 0); }

bool clcache_sha256_file_identity(clcache_sha256 *s, const char *path) {
  struct stat st;
  clcache_sha256_str(s, path);
  if (stat(path, &st) != 0) return false;
  int64_t id[4] = {(int64_t)st.st_size, (int64_t)st.st_mtim.tv_sec, (int64_t)st.st_mtim.tv_nsec, (int64_t)st.st_ino};
  clcache_sha256_item(s, id, sizeof id);
  return true;
}

/* The SHA-256 of a file's contents; false when it cannot be read. */
static bool hash_file(const char *path, uint8_t out[CLCACHE_KEY]) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  clcache_sha256 s;
  clcache_sha256_init(&s);
  uint8_t buf[65536];
  for (;;) {
    ssize_t k = read(fd, buf, sizeof buf);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) {
      close(fd);
      return false;
    }
    if (k == 0) break;
    clcache_sha256_add(&s, buf, (size_t)k);
  }
  close(fd);
  clcache_sha256_final(&s, out);
  return true;
}

char *clcache_read_file(const char *path, size_t *len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size < 0) {
    close(fd);
    return NULL;
  }
  size_t cap = (size_t)st.st_size + 1, n = 0;
  char *buf = malloc(cap);
  if (!buf) {
    close(fd);
    return NULL;
  }
  for (;;) {
    if (n + 1 >= cap) { /* the file grew: make room */
      char *nb = realloc(buf, cap * 2);
      if (!nb) {
        free(buf);
        close(fd);
        return NULL;
      }
      buf = nb;
      cap *= 2;
    }
    ssize_t k = read(fd, buf + n, cap - 1 - n);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) {
      free(buf);
      close(fd);
      return NULL;
    }
    if (k == 0) break;
    n += (size_t)k;
  }
  close(fd);
  buf[n] = 0;
  if (len) *len = n;
  return buf;
}

/* ------------------------------------------------------------------------------------------ */
/* Entries                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static const char magic[10] = "SPVICACHE1";

/* An entry is built in a growable string (clc_sbuf.h), which holds any bytes. */
static void put_bytes(sbuf *b, const void *data, size_t len) { sb_addn(b, data, len); }

static void put_uint(sbuf *b, uint64_t v, int bytes) {
  char t[8];
  for (int i = 0; i < bytes; i++) t[i] = (char)(uint8_t)(v >> (8 * i));
  sb_addn(b, t, (size_t)bytes);
}

/* The entry's bytes (malloc'd), NULL when out of memory or a dependency cannot be read (an
 * entry that could never be checked is not worth storing). */
static uint8_t *make_entry(const uint8_t key[CLCACHE_KEY], const void *value, size_t len, const char *const *deps,
                           size_t ndeps, size_t *size) {
  sbuf b = {0};
  put_bytes(&b, magic, sizeof magic);
  put_bytes(&b, key, CLCACHE_KEY);
  put_uint(&b, ndeps, 4);
  for (size_t i = 0; i < ndeps; i++) {
    uint8_t h[CLCACHE_KEY];
    if (!hash_file(deps[i], h)) {
      free(b.p);
      return NULL;
    }
    put_uint(&b, strlen(deps[i]), 4);
    put_bytes(&b, deps[i], strlen(deps[i]));
    put_bytes(&b, h, sizeof h);
  }
  put_uint(&b, len, 8);
  put_bytes(&b, value, len);
  uint8_t sum[CLCACHE_KEY];
  clcache_sha256 s;
  clcache_sha256_init(&s);
  clcache_sha256_add(&s, b.p, b.n);
  clcache_sha256_final(&s, sum);
  put_bytes(&b, sum, sizeof sum);
  if (b.oom) {
    free(b.p);
    return NULL;
  }
  *size = b.n;
  return (uint8_t *)b.p;
}

static uint64_t get_uint(const uint8_t *p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

/* Checks an entry (format, checksum, key, every dependency's current contents) and returns a
 * malloc'd copy of its value, or NULL. */
static void *open_entry(const uint8_t *e, size_t size, const uint8_t key[CLCACHE_KEY], size_t *len) {
  size_t head = sizeof magic + CLCACHE_KEY + 4;
  if (size < head + 8 + CLCACHE_KEY || memcmp(e, magic, sizeof magic) != 0 ||
      memcmp(e + sizeof magic, key, CLCACHE_KEY) != 0)
    return NULL;
  uint8_t sum[CLCACHE_KEY];
  clcache_sha256 s;
  clcache_sha256_init(&s);
  clcache_sha256_add(&s, e, size - CLCACHE_KEY);
  clcache_sha256_final(&s, sum);
  if (memcmp(sum, e + size - CLCACHE_KEY, CLCACHE_KEY) != 0) return NULL;
  size_t end = size - CLCACHE_KEY, at = head;
  uint64_t ndeps = get_uint(e + head - 4, 4);
  for (uint64_t i = 0; i < ndeps; i++) {
    if (end - at < 4) return NULL;
    uint64_t plen = get_uint(e + at, 4);
    at += 4;
    if (plen >= PATH_MAX || end - at < plen + CLCACHE_KEY) return NULL;
    char path[PATH_MAX];
    memcpy(path, e + at, plen);
    path[plen] = 0;
    at += plen;
    uint8_t h[CLCACHE_KEY];
    if (!hash_file(path, h) || memcmp(h, e + at, CLCACHE_KEY) != 0) return NULL; /* changed: stale */
    at += CLCACHE_KEY;
  }
  if (end - at < 8) return NULL;
  uint64_t vlen = get_uint(e + at, 8);
  at += 8;
  if (end - at != vlen) return NULL;
  void *v = malloc(vlen ? vlen : 1);
  if (!v) return NULL;
  memcpy(v, e + at, vlen);
  *len = vlen;
  return v;
}

/* ------------------------------------------------------------------------------------------ */
/* Configuration                                                                                */
/* ------------------------------------------------------------------------------------------ */

enum { USE_MEMORY = 1, USE_DISK = 2 };

static int cache_levels(void) {
  const char *e = getenv("SPVI_CACHE");
  if (!e || !*e || strcmp(e, "1") == 0) return USE_MEMORY | USE_DISK;
  if (strcmp(e, "memory") == 0) return USE_MEMORY;
  if (strcmp(e, "disk") == 0) return USE_DISK;
  return 0; /* "0" and anything else: off (never guess what an unknown value meant) */
}

/* The cache directory into buf; false when there is none. */
static bool cache_dir(char *buf, size_t cap) {
  const char *d = getenv("SPVI_CACHE_DIR");
  if (d && *d) return (size_t)snprintf(buf, cap, "%s", d) < cap;
  d = getenv("XDG_CACHE_HOME");
  if (d && *d == '/') return (size_t)snprintf(buf, cap, "%s/spvi", d) < cap;
  d = getenv("HOME");
  if (d && *d == '/') return (size_t)snprintf(buf, cap, "%s/.cache/spvi", d) < cap;
  return false;
}

static uint64_t disk_bound(void) {
  const char *e = getenv("SPVI_CACHE_SIZE");
  char *end;
  unsigned long long mb = e && *e ? strtoull(e, &end, 10) : 256;
  if (e && *e && (*end || mb == 0)) mb = 256;
  return (uint64_t)mb << 20;
}

/* ------------------------------------------------------------------------------------------ */
/* Memory level: the most recently used entries, at most MEM_ENTRIES and MEM_BYTES.             */
/* ------------------------------------------------------------------------------------------ */

#define MEM_ENTRIES 512
#define MEM_BYTES (64u << 20)

typedef struct {
  uint8_t key[CLCACHE_KEY];
  uint8_t *entry;
  size_t size;
  uint64_t used; /* the clock at the last hit or put */
} mem_slot;

static pthread_mutex_t mem_lock = PTHREAD_MUTEX_INITIALIZER;
static mem_slot mem[MEM_ENTRIES];
static size_t mem_count, mem_bytes;
static uint64_t mem_clock;

static void mem_drop(size_t i) {
  mem_bytes -= mem[i].size;
  free(mem[i].entry);
  mem[i] = mem[--mem_count];
}

/* A copy of the entry under key (malloc'd), or NULL. */
static uint8_t *mem_get(const uint8_t key[CLCACHE_KEY], size_t *size) {
  uint8_t *copy = NULL;
  pthread_mutex_lock(&mem_lock);
  for (size_t i = 0; i < mem_count; i++)
    if (memcmp(mem[i].key, key, CLCACHE_KEY) == 0) {
      mem[i].used = ++mem_clock;
      if ((copy = malloc(mem[i].size))) {
        memcpy(copy, mem[i].entry, mem[i].size);
        *size = mem[i].size;
      }
      break;
    }
  pthread_mutex_unlock(&mem_lock);
  return copy;
}

/* Stores a copy of entry under key, evicting the least recently used. */
static void mem_put(const uint8_t key[CLCACHE_KEY], const uint8_t *entry, size_t size) {
  if (size > MEM_BYTES / 4) return;
  uint8_t *copy = malloc(size);
  if (!copy) return;
  memcpy(copy, entry, size);
  pthread_mutex_lock(&mem_lock);
  for (size_t i = 0; i < mem_count; i++)
    if (memcmp(mem[i].key, key, CLCACHE_KEY) == 0) mem_drop(i--);
  while (mem_count == MEM_ENTRIES || (mem_count && mem_bytes + size > MEM_BYTES)) {
    size_t old = 0;
    for (size_t i = 1; i < mem_count; i++)
      if (mem[i].used < mem[old].used) old = i;
    mem_drop(old);
  }
  mem[mem_count] = (mem_slot){.entry = copy, .size = size, .used = ++mem_clock};
  memcpy(mem[mem_count].key, key, CLCACHE_KEY);
  mem_count++;
  mem_bytes += size;
  pthread_mutex_unlock(&mem_lock);
}

void clcache_forget_memory(void) {
  pthread_mutex_lock(&mem_lock);
  while (mem_count) mem_drop(0);
  pthread_mutex_unlock(&mem_lock);
}

/* ------------------------------------------------------------------------------------------ */
/* Disk level: DIR/ab/abcdef... (the key in hex, two levels so no directory grows too large)    */
/* ------------------------------------------------------------------------------------------ */

static bool entry_path(const uint8_t key[CLCACHE_KEY], char *buf, size_t cap, size_t *dir_len) {
  char dir[PATH_MAX - 80], hex[2 * CLCACHE_KEY + 1];
  if (!cache_dir(dir, sizeof dir)) return false;
  for (int i = 0; i < CLCACHE_KEY; i++) snprintf(hex + 2 * i, 3, "%02x", key[i]);
  int n = snprintf(buf, cap, "%s/%.2s/%s", dir, hex, hex);
  if (n < 0 || (size_t)n >= cap) return false;
  *dir_len = strlen(dir);
  return true;
}


/* Eviction: the entries' total size is kept under SPVI_CACHE_SIZE by removing the least
 * recently used (a hit refreshes an entry's modification time) down to 3/4 of it. Checked at a
 * process's first put and every 32nd after, so a put costs a directory scan only now and then. */
typedef struct {
  char *path;
  time_t when;
  off_t size;
} disk_file;

static disk_file *scan_files;
static size_t scan_n, scan_cap;
static uint64_t scan_total;
static bool scan_oom;

static int scan_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)ftw;
  if (flag != FTW_F) return 0;
  if (strstr(path, ".tmp.")) { /* a writer's temporary file: its writer died if it is old */
    if (time(NULL) - st->st_mtime > 3600) unlink(path);
    return 0;
  }
  if (scan_n == scan_cap) {
    size_t cap = scan_cap ? scan_cap * 2 : 256;
    disk_file *f = realloc(scan_files, cap * sizeof *f);
    if (!f) {
      scan_oom = true;
      return 1;
    }
    scan_files = f;
    scan_cap = cap;
  }
  char *p = strdup(path);
  if (!p) {
    scan_oom = true;
    return 1;
  }
  scan_files[scan_n++] = (disk_file){p, st->st_mtime, st->st_size};
  scan_total += (uint64_t)st->st_size;
  return 0;
}

static int by_age(const void *a, const void *b) {
  time_t x = ((const disk_file *)a)->when, y = ((const disk_file *)b)->when;
  return x < y ? -1 : x > y;
}

static void disk_evict(const char *dir) {
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  static unsigned puts;
  pthread_mutex_lock(&lock);
  if (puts++ % 32 == 0) {
    scan_n = 0;
    scan_total = 0;
    scan_oom = false;
    nftw(dir, scan_entry, 8, FTW_PHYS);
    uint64_t bound = disk_bound();
    if (!scan_oom && scan_total > bound) {
      qsort(scan_files, scan_n, sizeof *scan_files, by_age);
      for (size_t i = 0; i < scan_n && scan_total > bound / 4 * 3; i++)
        if (unlink(scan_files[i].path) == 0 || errno == ENOENT) scan_total -= (uint64_t)scan_files[i].size;
    }
    for (size_t i = 0; i < scan_n; i++) free(scan_files[i].path);
  }
  pthread_mutex_unlock(&lock);
}

static bool make_dirs(char *path) {
  for (char *p = path + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    bool ok = mkdir(path, 0700) == 0 || errno == EEXIST;
    *p = '/';
    if (!ok) return false;
  }
  return true;
}

static void disk_put(const uint8_t key[CLCACHE_KEY], const uint8_t *entry, size_t size) {
  char path[PATH_MAX], tmp[PATH_MAX + 64];
  size_t dir_len;
  if (!entry_path(key, path, sizeof path, &dir_len) || !make_dirs(path)) return;
  static unsigned serial;
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", path, (long)getpid(), __atomic_fetch_add(&serial, 1, __ATOMIC_RELAXED));
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return;
  size_t n = 0;
  while (n < size) {
    ssize_t k = write(fd, entry + n, size - n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    n += (size_t)k;
  }
  /* rename is atomic: readers see the old entry, none, or the whole new one */
  if (close(fd) == 0 && n == size && rename(tmp, path) == 0) {
    path[dir_len] = 0;
    disk_evict(path);
  } else {
    unlink(tmp);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* The interface                                                                                */
/* ------------------------------------------------------------------------------------------ */

void *clcache_get(const uint8_t key[CLCACHE_KEY], size_t *len) {
  int levels = cache_levels();
  size_t size = 0;
  uint8_t *e = (levels & USE_MEMORY) ? mem_get(key, &size) : NULL;
  void *v = e ? open_entry(e, size, key, len) : NULL;
  if (!v && (levels & USE_DISK)) {
    free(e);
    char path[PATH_MAX];
    size_t dir_len;
    e = entry_path(key, path, sizeof path, &dir_len) ? (uint8_t *)clcache_read_file(path, &size) : NULL;
    v = e ? open_entry(e, size, key, len) : NULL;
    if (v) {
      utimensat(AT_FDCWD, path, NULL, 0); /* recently used: evicted last */
      if (levels & USE_MEMORY) mem_put(key, e, size);
    }
  }
  free(e);
  return v;
}

void clcache_put(const uint8_t key[CLCACHE_KEY], const void *value, size_t len, const char *const *deps, size_t ndeps) {
  int levels = cache_levels();
  if (!levels) return;
  size_t size;
  uint8_t *e = make_entry(key, value, len, deps, ndeps, &size);
  if (!e) return;
  if (levels & USE_MEMORY) mem_put(key, e, size);
  if (levels & USE_DISK) disk_put(key, e, size);
  free(e);
}
