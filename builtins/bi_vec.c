/*
 * bi_vec.c — the OpenCL.std instructions that move whole elements or bits regardless of their
 * numeric type: bitselect and select (OpenCL C 3.0 §6.15.6 "Relational Functions") and shuffle,
 * shuffle2 (§6.15.13 "Miscellaneous Vector Functions"). Owns their rows of the table.
 *
 * Implementations depend only on the element width, so one function per width serves integer and
 * floating-point element types alike (BI_SLOTS_W).
 */
#include "bi_impl.h"
#include "gen_spv_tables.h"

#include <stdbool.h>
#include <stdint.h>

/* bitselect: each result bit is b's where c's bit is 1, else a's (§6.15.6), on the bit patterns
 * (so also for floating-point elements). */
#define BITSEL_W(W, T)                                                              \
  static inline T bitsel_s##W(T a, T b, T m) { return (T)((a & (T)~m) | (b & m)); } \
  BI_EW3(bitselect_##W, T, T, bitsel_s##W)
BITSEL_W(8, uint8_t)
BITSEL_W(16, uint16_t)
BITSEL_W(32, uint32_t)
BITSEL_W(64, uint64_t)

/* select(a, b, c) (§6.15.6): for a vector, result[i] = b[i] if the most significant bit of c[i] is
 * set, else a[i]; for a scalar, result = c ? b : a (any non-zero c). SPIR-V has no one-component
 * vectors, so n == 1 identifies the scalar form. */
#define SELECT_W(W, T)                                                                \
  static bool select_##W(const bi_call *c) {                                          \
    const unsigned n = bi_lit_n(c->literal);                                          \
    for (uint32_t i = 0; i < c->nlanes; i++) {                                        \
      const size_t l = c->lanes[i];                                                   \
      const uint8_t *a = bi_src(c, 0, l), *b = bi_src(c, 1, l), *m = bi_src(c, 2, l); \
      uint8_t *d = bi_dst(c, l);                                                      \
      for (unsigned k = 0; k < n; k++) {                                              \
        T cv;                                                                         \
        memcpy(&cv, m + k * sizeof(T), sizeof(T));                                    \
        const bool take_b = n == 1 ? cv != 0 : ((cv >> (W - 1)) & 1) != 0;            \
        memcpy(d + k * sizeof(T), (take_b ? b : a) + k * sizeof(T), sizeof(T));       \
      }                                                                               \
    }                                                                                 \
    return true;                                                                      \
  }
SELECT_W(8, uint8_t)
SELECT_W(16, uint16_t)
SELECT_W(32, uint32_t)
SELECT_W(64, uint64_t)

/* shuffle(x, mask), shuffle2(x, y, mask) (§6.15.13): result[i] is element mask[i] of x (or of the
 * concatenation x, y), where only the ilogb(2m - 1) (shuffle) or ilogb(2m - 1) + 1 (shuffle2) least
 * significant bits of mask[i] count and the other bits are ignored. For m = 2, 4, 8, 16 (the only
 * source widths allowed) that is mask[i] & (m - 1), resp. & (2m - 1), so every index is in range.
 * The result is assembled in a local buffer, so it is correct even if the result register were to
 * overlap an operand's. */
#define SHUFFLE_W(W, T)                                                                        \
  static bool shuffle_##W(const bi_call *c) {                                                  \
    const unsigned n = bi_lit_n(c->literal), m = bi_lit_m(c->literal);                         \
    for (uint32_t i = 0; i < c->nlanes; i++) {                                                 \
      const size_t l = c->lanes[i];                                                            \
      const uint8_t *x = bi_src(c, 0, l), *mask = bi_src(c, 1, l);                             \
      T out[16];                                                                               \
      for (unsigned k = 0; k < n; k++) {                                                       \
        T mv;                                                                                  \
        memcpy(&mv, mask + k * sizeof(T), sizeof(T));                                          \
        memcpy(&out[k], x + (mv & (m - 1)) * sizeof(T), sizeof(T));                            \
      }                                                                                        \
      memcpy(bi_dst(c, l), out, n * sizeof(T));                                                \
    }                                                                                          \
    return true;                                                                               \
  }                                                                                            \
  static bool shuffle2_##W(const bi_call *c) {                                                 \
    const unsigned n = bi_lit_n(c->literal), m = bi_lit_m(c->literal);                         \
    for (uint32_t i = 0; i < c->nlanes; i++) {                                                 \
      const size_t l = c->lanes[i];                                                            \
      const uint8_t *x = bi_src(c, 0, l), *y = bi_src(c, 1, l), *mask = bi_src(c, 2, l);       \
      T out[16];                                                                               \
      for (unsigned k = 0; k < n; k++) {                                                       \
        T mv;                                                                                  \
        memcpy(&mv, mask + k * sizeof(T), sizeof(T));                                          \
        const unsigned idx = (unsigned)(mv & (2 * m - 1));                                     \
        memcpy(&out[k], idx < m ? x + idx * sizeof(T) : y + (idx - m) * sizeof(T), sizeof(T)); \
      }                                                                                        \
      memcpy(bi_dst(c, l), out, n * sizeof(T));                                                \
    }                                                                                          \
    return true;                                                                               \
  }
SHUFFLE_W(8, uint8_t)
SHUFFLE_W(16, uint16_t)
SHUFFLE_W(32, uint32_t)
SHUFFLE_W(64, uint64_t)

static const bi_row rows[] = {
  {OCLSTD_bitselect, BI_SIG_BITSELECT, 0, BI_SLOTS_W(bitselect)},
  {OCLSTD_select, BI_SIG_SELECT, 0, BI_SLOTS_W(select)},
  {OCLSTD_shuffle, BI_SIG_SHUFFLE, 0, BI_SLOTS_W(shuffle)},
  {OCLSTD_shuffle2, BI_SIG_SHUFFLE2, 0, BI_SLOTS_W(shuffle2)},
};

const bi_rowset bi_rows_vec = {rows, sizeof rows / sizeof rows[0]};
