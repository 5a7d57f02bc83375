/*
 * ex_arith_check.c — the always-on reports of integer division (SPVI_REPORT_DIV_BY_ZERO,
 * SPVI_REPORT_DIV_OVERFLOW): a client of the hook interface (ex_hooks.h) and an example of one.
 *
 * SPIR-V leaves OpUDiv, OpSDiv, OpUMod, OpSRem and OpSMod undefined for a divisor of 0, and the
 * signed ones for the minimum value divided by -1 (SPIR-V 3.32.13); spvi goes on with the RISC-V
 * results (ex_exec.c) and reports each occurrence, once per lane, for its first bad component.
 * The executor finds that some lane is bad while it computes the quotients (its DIV_CHECK) and
 * notifies the `arith` event; this file says which lanes and why.
 */
#include <string.h>

#include "ex_hooks.h"

static void arith_div(void *self, ex_ctx *cx, const ex_hk_arith *e) {
  (void)self;
  const unsigned bytes = e->bytes;
  const uint64_t min = (uint64_t)1 << (bytes * 8 - 1);
  const uint64_t all = bytes == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (bytes * 8)) - 1;
  for (unsigned k = 0; k < e->nl; k++) {
    const unsigned l = e->lanes[k];
    for (unsigned i = l * e->n; i < (l + 1u) * e->n; i++) {
      const uint64_t x = ex_rd_bytes(e->a + (size_t)i * bytes, bytes), y = ex_rd_bytes(e->b + (size_t)i * bytes, bytes);
      const bool zero = y == 0, overflow = e->is_signed && y == all && x == min;
      if (!zero && !overflow) continue;
      const ex_check_event r = {
        .kind = zero ? SPVI_REPORT_DIV_BY_ZERO : SPVI_REPORT_DIV_OVERFLOW,
        .at = ex_site_of(cx, e->w, l, e->fn, e->ip),
        .detail = zero ? "the divisor is 0 (spvi goes on with quotient all ones, remainder the dividend)"
                       : "the minimum value divided by -1 overflows (spvi goes on with quotient the minimum value, "
                         "remainder 0)"};
      ex_check_report(cx, &r);
      break;
    }
  }
}

static unsigned arith_wants(const ex_ctx *cx) {
  (void)cx;
  return EX_HK_ON; /* every run: no instruction hook, the executor's DIV_CHECK notifies */
}

const ex_hooks ex_arith_hooks = {
  .name = "arith",
  .wants = arith_wants,
  .arith = arith_div,
};
