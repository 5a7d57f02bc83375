/*
 * bi_printf.c — the OpenCL.std printf instruction (OpenCL C 3.0 §6.15.14 "printf", the OpenCL SPIR-V
 * environment's "Printf Operands" table): reads the format string through the format pointer,
 * converts the arguments, and hands each work-item's text to call->out. Owns the printf row; the
 * field conversions themselves are in bi_printf_num.c.
 *
 * Operands (checked at resolve time, bi_table.c BI_SIG_PRINTF): a pointer to the format (a
 * UniformConstant char array), then up to BI_MAX_OPERANDS - 1 arguments of integer, floating-point
 * or pointer type, scalars or vectors of 2, 3, 4, 8 or 16 components. The argument types come with
 * the call (bi_call.types); bi_printf_literal() packs only the format pointer's width (bit 30).
 *
 * What the compiler passes (clang-14 + llvm-spirv-14, checked): scalar float and half arguments
 * promoted to double (OpFConvert), char/short promoted to 32-bit int, long as 64-bit, vectors
 * unpromoted (v4float for %v4hlf, v4uchar for %v4hhx, v2half for %v2hf), %s a UniformConstant
 * pointer to the string's first char, %c a 32-bit int, %p the pointer itself, and `*` widths and
 * precisions as 32-bit ints.
 *
 * Semantics (§6.15.14.2; C99 7.19.6.1 where OpenCL C defers to it):
 *  - Ordinary characters are copied; %% writes '%' (only the exact "%%").
 *  - A specification is: flags [-+ #0], width (digits or *), precision (. digits or .*), vector
 *    specifier vN (N = 2, 3, 4, 8, 16), length modifier (hh h hl l z t), conversion
 *    (d i o u x X f F e E g G a A c s p). Vector components are converted one by one with the same
 *    flags, width and precision and separated by ','.
 *  - Scalar d/i/o/u/x/X: the value is converted to the modifier's width (hh: char, h: short, none:
 *    int, l: long, z/t: the argument's own 32 or 64 bits — size_t/ptrdiff_t per addressing model)
 *    and read as signed (d, i) or unsigned. The argument must be an integer of at most 32 bits
 *    (none, hh, h), exactly 64 (l), or 32/64 (z, t). With vN the modifier gives the element width
 *    (hh 8, h 16, hl 32, l 64) and the argument must be exactly that vector.
 *  - f/F/e/E/g/G/a/A: a scalar argument may be half, float or double (no modifier; spvi also accepts
 *    l, which C99 defines as having no effect); with vN, h/hl/l select half/float/double elements.
 *  - c: an integer argument of at most 32 bits converted to unsigned char. s: a pointer; bytes are
 *    read through call->mem up to the NUL or the precision (never beyond it). p: a pointer, printed
 *    as 0x followed by its integer value ((uintptr_t)p, call->mem's ptr_value) in lowercase hex,
 *    without leading zeros (0x0 for null).
 *
 * spvi's definitions of what the spec leaves undefined or implementation-defined:
 *  - The call is INVALID — nothing is printed for the whole call and printf returns -1 (§6.15.14.1:
 *    "returns 0 if it was executed successfully and -1 otherwise") — for: an unknown or reserved
 *    conversion (n, any other character), a reserved or misplaced length modifier (ll, j, L, hl
 *    without vN, h/hh/z/t with a floating conversion, any modifier with c/s/p), a vector size other
 *    than 2, 3, 4, 8, 16 or a vector with c/s/p, an argument whose type does not match the
 *    specification (rules above, including a vector of another size), too few arguments, a
 *    specification cut off by the end of the format, %% written with flags or a width, and a field
 *    width or a precision above 4095 (C99 7.19.6.1's environmental limit on one conversion; a %s
 *    precision may be larger since it only bounds the bytes read). Excess arguments are ignored
 *    (§6.15.14.1).
 *  - Flags without meaning for a conversion are ignored: # with d i u c s p, 0 with c s p, + and
 *    space with unsigned conversions; a precision with c or p is ignored.
 *  - `*` (width or precision from an int argument; "not supported" by OpenCL C, undefined in the
 *    environment, but accepted by clang): C99 semantics — a negative width means the - flag and its
 *    absolute value, a negative precision means none.
 *  - Floating-point text: exact decimal conversion, "inf"/"nan" spellings, see bi_printf_num.c.
 *  - A fault while reading the format or a %s string (no NUL before the end of its buffer, a bad
 *    pointer) is a memory fault of the kernel: the builtin returns false after the access recorded
 *    it; lanes before it keep their output.
 * Each lane's text goes to call->out->write in one piece (the executor keeps work-items apart), only
 * when the call is valid and produced text; the int result register gets 0 or -1 per lane.
 */
#include "bi_half.h"
#include "bi_impl.h"
#include "bi_printf.h"
#include "gen_spv_tables.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum { FIELD_MAX = 4095 };
enum { PF_OK = 0, PF_INVALID = -1, PF_FAULT = -2 };

/* ---- argument types in the literal ------------------------------------------------------------------
 * code = 1 + class * 6 + width index, class in the table below, width index into {1, 2, 3, 4, 8, 16};
 * 0 = no argument. */
typedef struct argty {
  bi_kind kind;
  unsigned bits, n;
} argty;

uint32_t bi_printf_literal(const bi_type *args, unsigned nargs) {
  return (nargs && args[0].bits == 64) ? 1u << 30 : 0; /* the format pointer's width */
}

/* ---- memory ------------------------------------------------------------------------------------------ */

typedef struct pf {
  const bi_call *c;
  size_t lane;
  bool p64;        /* pointers are 64-bit */
  unsigned next;   /* the next argument operand (1-based) */
  const char *why; /* PF_INVALID for a format or argument error: what is wrong (static text) */
} pf;

/* The call is invalid because of its format or its arguments: says why (the report's text). */
/* A report's detail line: the reason, the rule and what spvi did. */
#define WHY(reason) reason " (OpenCL C 6.15.14.2): the call printed nothing and returned -1"
static int invalid(pf *s, const char *why) {
  s->why = why;
  return PF_INVALID;
}

/* Appends the NUL-terminated string at addr (at most max bytes when max >= 0) to buf; false when an
 * access faulted. Bytes are read one at a time so that the read never passes the terminator (or
 * the precision) and faults exactly where the string leaves its allocation. */
static bool read_string(const pf *s, uint64_t addr, int64_t max, bi_pf_buf *buf) {
  for (int64_t i = 0; max < 0 || i < max; i++) {
    uint64_t a = addr + (uint64_t)i;
    if (!s->p64) a &= 0xffffffffu;
    const uint8_t *p = s->c->mem->access(s->c->mem->ctx, (unsigned)s->lane, a, 1, false);
    if (!p) return false;
    if (!*p) break;
    bi_pf_put(buf, (const char *)p, 1);
  }
  return true;
}

/* ---- arguments ------------------------------------------------------------------------------------------ */

static bool take(pf *s, argty *t, const uint8_t **src) {
  if (s->next >= s->c->nsrc) return false; /* too few arguments */
  const bi_type *bt = &s->c->types[s->next];
  t->kind = bt->kind;
  t->bits = bt->bits;
  t->n = bt->kind == BI_PTR || !bt->ncomp ? 1 : bt->ncomp;
  if (t->kind == BI_VOID || t->kind == BI_BOOL) return false;
  *src = bi_src(s->c, s->next, s->lane);
  s->next++;
  return true;
}

/* The w low bits of raw as a signed or unsigned value: sign and magnitude. */
static void int_value(uint64_t raw, unsigned w, bool is_signed, bool *neg, uint64_t *mag) {
  const uint64_t mask = w >= 64 ? ~0ull : (1ull << w) - 1;
  raw &= mask;
  *neg = is_signed && ((raw >> (w - 1)) & 1);
  *mag = *neg ? (~raw + 1) & mask : raw;
}

/* A `*` width or precision: an int argument of at most 32 bits, signed. */
static bool take_int(pf *s, int64_t *v) {
  argty t;
  const uint8_t *src;
  if (!take(s, &t, &src) || t.kind != BI_INT || t.n != 1 || t.bits > 32) {
    s->why = WHY("a `*` field width or precision without its int argument");
    return false;
  }
  bool neg;
  uint64_t mag;
  int_value(bi_load_uint(src, t.bits / 8), t.bits, true, &neg, &mag);
  *v = neg ? -(int64_t)mag : (int64_t)mag;
  return true;
}

static double float_value(const uint8_t *p, unsigned bits) {
  if (bits == 16) return bi_half_to_double((uint16_t)bi_load_uint(p, 2));
  if (bits == 32) {
    float f;
    memcpy(&f, p, 4);
    return f;
  }
  double d;
  memcpy(&d, p, 8);
  return d;
}

/* ---- one conversion ----------------------------------------------------------------------------------- */

typedef enum lenmod { L_NONE, L_HH, L_H, L_HL, L_L, L_Z, L_T } lenmod;

#define BAD_ARG WHY("an argument is missing, or its type does not match its conversion specification")
#define NO_VECTOR_LENGTH WHY("a vector specifier vN without its length modifier (hh, h, hl or l)")

static int conv_int(pf *s, const bi_pf_spec *sp, unsigned vn, lenmod len, bi_pf_buf *out) {
  static const unsigned vec_bits[] = {[L_HH] = 8, [L_H] = 16, [L_HL] = 32, [L_L] = 64, [L_Z] = 0, [L_T] = 0};
  static const unsigned scalar_bits[] = {[L_NONE] = 32, [L_HH] = 8, [L_H] = 16, [L_HL] = 0, [L_L] = 64};
  argty t;
  const uint8_t *src;
  if (vn && len == L_NONE) return invalid(s, NO_VECTOR_LENGTH);
  if (vn && !vec_bits[len]) return invalid(s, WHY("a vector specifier vN with the length modifier z or t"));
  if (!take(s, &t, &src) || t.kind != BI_INT) return invalid(s, BAD_ARG);
  unsigned target;
  if (vn) {
    target = vec_bits[len];
    if (t.n != vn || t.bits != target) return invalid(s, BAD_ARG);
  } else if (len == L_Z || len == L_T) {
    if (t.n != 1 || (t.bits != 32 && t.bits != 64)) return invalid(s, BAD_ARG);
    target = t.bits;
  } else {
    target = scalar_bits[len];
    if (!target || t.n != 1 || (len == L_L ? t.bits != 64 : t.bits > 32)) return invalid(s, BAD_ARG);
  }
  const bool is_signed = sp->conv == 'd' || sp->conv == 'i';
  const unsigned w = t.bits < target ? t.bits : target; /* a narrower argument: its own width */
  for (unsigned k = 0; k < t.n; k++) {
    if (k) bi_pf_put(out, ",", 1);
    bool neg;
    uint64_t mag;
    int_value(bi_load_uint(src + k * (t.bits / 8), t.bits / 8), w, is_signed, &neg, &mag);
    bi_pf_int(out, sp, neg, mag);
  }
  return PF_OK;
}

static int conv_float(pf *s, const bi_pf_spec *sp, unsigned vn, lenmod len, bi_pf_buf *out) {
  argty t;
  const uint8_t *src;
  const unsigned want = len == L_H ? 16 : len == L_HL ? 32 : len == L_L ? 64 : 0;
  if (vn && len == L_NONE) return invalid(s, NO_VECTOR_LENGTH);
  if (vn && !want)
    return invalid(s, WHY("a vector floating-point conversion with a length modifier other than h, hl or l"));
  if (!vn && len != L_NONE && len != L_L)
    return invalid(s, WHY("a scalar floating-point conversion with the length modifier hh, h, hl, z or t"));
  if (!take(s, &t, &src) || t.kind != BI_FLOAT) return invalid(s, BAD_ARG);
  if (vn ? t.n != vn || t.bits != want : t.n != 1) return invalid(s, BAD_ARG);
  for (unsigned k = 0; k < t.n; k++) {
    if (k) bi_pf_put(out, ",", 1);
    bi_pf_float(out, sp, float_value(src + k * (t.bits / 8), t.bits));
  }
  return PF_OK;
}

/* c, s, p: scalar only, no length modifier. */
static int conv_text(pf *s, const bi_pf_spec *sp, bi_pf_buf *out) {
  argty t;
  const uint8_t *src;
  if (!take(s, &t, &src) || t.n != 1) return invalid(s, BAD_ARG);
  if (sp->conv == 'c') {
    if (t.kind != BI_INT || t.bits > 32) return invalid(s, BAD_ARG);
    const char ch = (char)(uint8_t)bi_load_uint(src, t.bits / 8);
    bi_pf_text(out, sp, &ch, 1);
    return PF_OK;
  }
  if (t.kind != BI_PTR) return invalid(s, BAD_ARG);
  const uint64_t ptr = bi_load_uint(src, t.bits / 8);
  if (sp->conv == 'p') {
    /* §6.15.14.2: "the value of the pointer" — the integer a cast to intptr_t gives, so that the
     * text and the kernel's own (intptr_t)p agree */
    const uint64_t v = s->c->mem && s->c->mem->ptr_value ? s->c->mem->ptr_value(s->c->mem->ctx, ptr) : ptr;
    char tmp[20] = "0x";
    size_t n = 2;
    int top = 60;
    while (top > 0 && !((v >> top) & 0xf)) top -= 4;
    for (; top >= 0; top -= 4) tmp[n++] = "0123456789abcdef"[(v >> top) & 0xf];
    bi_pf_text(out, sp, tmp, n);
    return PF_OK;
  }
  bi_pf_buf str = {0};
  const bool ok = read_string(s, ptr, sp->prec, &str);
  if (ok) bi_pf_text(out, sp, str.p ? str.p : "", str.len);
  const bool failed = str.failed;
  free(str.p);
  if (!ok) return PF_FAULT;
  return failed ? PF_INVALID : PF_OK;
}

/* ---- the format ----------------------------------------------------------------------------------------- */

/* A decimal number, saturating above INT_MAX (which every limit check then rejects). */
static int64_t number(const char *f, size_t *i) {
  int64_t v = 0;
  for (; f[*i] >= '0' && f[*i] <= '9'; (*i)++)
    if (v <= INT_MAX) v = v * 10 + (f[*i] - '0');
  return v;
}

static int run(pf *s, const char *f, bi_pf_buf *out) {
  size_t i = 0;
  while (f[i]) {
    if (f[i] != '%') {
      size_t j = i;
      while (f[j] && f[j] != '%') j++;
      bi_pf_put(out, f + i, j - i);
      i = j;
      continue;
    }
    i++;
    if (f[i] == '%') {
      bi_pf_put(out, "%", 1);
      i++;
      continue;
    }
    bi_pf_spec sp = {.prec = -1};
    for (;; i++) {
      if (f[i] == '-') sp.minus = true;
      else if (f[i] == '+') sp.plus = true;
      else if (f[i] == ' ') sp.space = true;
      else if (f[i] == '#') sp.hash = true;
      else if (f[i] == '0') sp.zero = true;
      else break;
    }
    int64_t width = 0, prec = -1;
    if (f[i] == '*') {
      i++;
      if (!take_int(s, &width)) return PF_INVALID;
      if (width < 0) {
        sp.minus = true;
        width = -width;
      }
    } else {
      width = number(f, &i);
    }
    if (f[i] == '.') {
      i++;
      if (f[i] == '*') {
        i++;
        if (!take_int(s, &prec)) return PF_INVALID;
        if (prec < 0) prec = -1;
      } else {
        prec = number(f, &i);
      }
    }
    unsigned vn = 0;
    if (f[i] == 'v') {
      i++;
      const int64_t n = number(f, &i);
      if (n != 2 && n != 3 && n != 4 && n != 8 && n != 16)
        return invalid(s, WHY("a vector specifier other than v2, v3, v4, v8 or v16"));
      vn = (unsigned)n;
    }
    lenmod len = L_NONE;
    if (f[i] == 'h') {
      len = f[i + 1] == 'h' ? L_HH : f[i + 1] == 'l' ? L_HL : L_H;
      i += len == L_H ? 1 : 2;
    } else if (f[i] == 'l') {
      if (f[i + 1] == 'l') return invalid(s, WHY("the reserved length modifier ll"));
      len = L_L;
      i++;
    } else if (f[i] == 'z' || f[i] == 't') {
      len = f[i] == 'z' ? L_Z : L_T;
      i++;
    }
    sp.conv = f[i];
    if (!sp.conv) return invalid(s, WHY("a conversion specification cut off by the end of the format"));
    i++;
    if (width > FIELD_MAX || (prec > FIELD_MAX && sp.conv != 's'))
      return invalid(s, WHY("a field width or precision above 4095"));
    sp.width = (int)width;
    sp.prec = prec > INT_MAX ? INT_MAX : (int)prec;
    int st;
    if (strchr("diouxX", sp.conv)) {
      if (!vn && len == L_HL) return invalid(s, WHY("the length modifier hl without a vector specifier"));
      st = conv_int(s, &sp, vn, len, out);
    } else if (strchr("fFeEgGaA", sp.conv)) {
      st = conv_float(s, &sp, vn, len, out);
    } else if (strchr("csp", sp.conv)) {
      if (vn || len != L_NONE) return invalid(s, WHY("a vector specifier or length modifier with c, s or p"));
      st = conv_text(s, &sp, out);
    } else {
      return invalid(s, WHY("an unknown or unsupported conversion specifier")); /* n, %, j, L, ... */
    }
    if (st != PF_OK) return st;
  }
  return PF_OK;
}

static int format_lane(const bi_call *c, size_t lane, bi_pf_buf *out, const char **why) {
  pf s = {c, lane, (c->literal >> 30) & 1u, 1, NULL};
  bi_pf_buf fmt = {0};
  const uint64_t fptr = bi_load_uint(bi_src(c, 0, lane), s.p64 ? 8 : 4);
  int st = PF_FAULT;
  if (read_string(&s, fptr, -1, &fmt)) {
    bi_pf_put(&fmt, "", 1); /* the terminator */
    st = fmt.failed ? PF_INVALID : run(&s, fmt.p, out);
  }
  free(fmt.p);
  *why = s.why;
  return st;
}

static bool printf_fn(const bi_call *c) {
  if (!c->mem) return false;
  for (uint32_t i = 0; i < c->nlanes; i++) {
    const size_t l = c->lanes[i];
    bi_pf_buf out = {0};
    const char *why = NULL;
    int st = format_lane(c, l, &out, &why);
    if (st == PF_OK && out.failed) st = PF_INVALID;
    /* a format the spec leaves undefined is the kernel's bug: a report (not for out of memory) */
    if (st == PF_INVALID && why && c->out && c->out->invalid) c->out->invalid(c->out->ctx, (unsigned)l, why);
    if (st == PF_OK && out.len && c->out) c->out->write(c->out->ctx, (unsigned)l, out.p, out.len);
    free(out.p);
    if (st == PF_FAULT) return false;
    if (c->dst) {
      const int32_t r = st == PF_OK ? 0 : -1;
      memcpy(bi_dst(c, l), &r, 4);
    }
  }
  return true;
}

static const bi_row rows[] = {
  {OCLSTD_printf, BI_SIG_PRINTF, 0, {printf_fn}},
};

const bi_rowset bi_rows_printf = {rows, sizeof rows / sizeof rows[0]};
