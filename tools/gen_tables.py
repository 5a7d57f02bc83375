#!/usr/bin/env python3
"""Generate spvi's SPIR-V tables from the SPIRV-Headers grammar JSON.

Writes gen_spv_tables.h / gen_spv_tables.c into the output directory:
  - opcode names and operand shape (result type?, result?, minimum word count, variable length?)
  - capability, storage class, decoration, built-in and execution-mode names
  - the OpenCL.std extended instruction enum (OCLSTD_<opname>) with names and operand counts
  - the OpenCL.DebugInfo.100 instruction enum (DI_<opname>)
  - every instruction's operand codes and names (core, OpenCL.std, OpenCL.DebugInfo.100) and the
    parameters of the enumerants that have some: the loader walks id operands by them (ld_ids.c)
Nothing in spvi types an opcode list by hand: it is all derived here.
usage: gen_tables.py GRAMMAR_DIR OUT_DIR
       gen_tables.py --dict GRAMMAR_DIR OUT_FILE
With --dict it writes instead a libFuzzer dictionary of SPIR-V words (tests/fuzz/, docs/fuzzing.md):
the magic number, every opcode's first word (word count << 16 | opcode, SPIR-V 2.3) at its minimum
word count and one more for variable-length instructions, and the values of the common enums, each
as four little-endian bytes (SPIR-V 2.3: a module is a stream of 32-bit words).
"""
import json, os, sys

dict_mode = len(sys.argv) > 1 and sys.argv[1] == '--dict'
gdir, out = sys.argv[1 + dict_mode], sys.argv[2 + dict_mode]
core = json.load(open(os.path.join(gdir, 'spirv.core.grammar.json')))
ocl = json.load(open(os.path.join(gdir, 'extinst.opencl.std.100.grammar.json')))
dbg = json.load(open(os.path.join(gdir, 'extinst.opencl.debuginfo.100.grammar.json')))

kinds = {k['kind']: k for k in core['operand_kinds']}

def operand_words(op):
    """(minimum words, variable?) contributed by one operand description."""
    kind, q = op['kind'], op.get('quantifier', '')
    if q == '?':
        return 0, True
    if q == '*':
        return 0, True
    if kind == 'LiteralString':
        return 1, True
    if kind == 'LiteralContextDependentNumber':
        return 1, True
    if kind == 'LiteralSpecConstantOpInteger':
        return 1, True  # the wrapped opcode's operands follow
    if kind.startswith('Pair'):
        return 2, False
    k = kinds.get(kind)
    if k and k.get('category') in ('ValueEnum', 'BitEnum'):
        # parameters of enumerants make the instruction longer than this
        has_params = any('parameters' in e for e in k.get('enumerants', []))
        return 1, has_params
    return 1, False

# Operand codes: one character per grammar operand, then '?' or '*' for its quantifier. The loader
# walks an instruction's words by them (loader/ld_ids.c), so every operand kind must have one:
#   t IdResultType   r IdResult   i an id (IdRef, IdScope, IdMemorySemantics)
#   l one literal word (LiteralInteger, LiteralExtInstInteger, LiteralSpecConstantOpInteger, an enum
#     whose enumerants have no parameters)   n LiteralContextDependentNumber (1 or 2 words)
#   s LiteralString   P PairIdRefIdRef   Q PairLiteralIntegerIdRef   W PairIdRefLiteralInteger
#   0-9 an enum whose enumerants may have parameters (PARAM_ENUMS[digit], spv_enum_params)
def enum_has_params(kind):
    return any('parameters' in e for e in kind.get('enumerants', []))

PARAM_ENUMS = [k['kind'] for k in core['operand_kinds'] if enum_has_params(k)]
assert len(PARAM_ENUMS) <= 10, PARAM_ENUMS
FIXED_CODES = {'IdResultType': 't', 'IdResult': 'r', 'IdRef': 'i', 'IdScope': 'i', 'IdMemorySemantics': 'i',
               'LiteralInteger': 'l', 'LiteralExtInstInteger': 'l', 'LiteralSpecConstantOpInteger': 'l',
               'LiteralContextDependentNumber': 'n', 'LiteralString': 's', 'PairIdRefIdRef': 'P',
               'PairLiteralIntegerIdRef': 'Q', 'PairIdRefLiteralInteger': 'W'}

def operand_code(o, grammar_kinds):
    kind = o['kind']
    if kind in FIXED_CODES:
        code = FIXED_CODES[kind]
    elif kind in PARAM_ENUMS and grammar_kinds is kinds:
        code = str(PARAM_ENUMS.index(kind))
    elif grammar_kinds.get(kind, kinds.get(kind, {})).get('category') in ('ValueEnum', 'BitEnum'):
        code = 'l'
    else:
        raise SystemExit('gen_tables.py: operand kind %s has no operand code' % kind)
    return code + o.get('quantifier', '')

def operand_codes(ops, grammar_kinds):
    return ''.join(operand_code(o, grammar_kinds) for o in ops)

def operand_names(ops):
    return '|'.join(o.get('name', o['kind']).split(',')[0].strip().strip("'") for o in ops)

rows = []
seen = set()
for ins in core['instructions']:
    if ins['opcode'] in seen:
        continue
    seen.add(ins['opcode'])
    ops = ins.get('operands', [])
    has_type = any(o['kind'] == 'IdResultType' for o in ops)
    has_res = any(o['kind'] == 'IdResult' for o in ops)
    minw, var = 1, False
    for o in ops:
        w, v = operand_words(o)
        minw += w
        var = var or v
    rows.append((ins['opcode'], ins['opname'], has_type, has_res, minw, var, operand_codes(ops, kinds),
                 operand_names(ops)))
rows.sort()

def enum_names(kind):
    ents = {}
    for e in kinds[kind]['enumerants']:
        v = e['value']
        if isinstance(v, str):
            v = int(v, 0)
        ents.setdefault(v, e['enumerant'])
    return sorted(ents.items())

HEADER_OPERANDS = '''
/* Operand codes of an enumerant's parameters; code is an enum operand code ('0'-'9'). For a value
 * enum, of the enumerant `value`; for a bit enum, of the single bit `value`. "" when it has none,
 * NULL when the grammar has no such enumerant. */
const char *spv_enum_params(char code, uint32_t value);
/* Whether enum operand code `code` is a bit enum (parameters follow in the order of the set bits). */
bool spv_enum_is_bits(char code);
/* The grammar's name of enum operand code `code` ("ImageOperands"), NULL when unknown. */
const char *spv_enum_kind_name(char code);
/* Operand codes and names of an OpenCL.std / OpenCL.DebugInfo.100 instruction (the operands after
 * the set and instruction words), NULL when unknown. */
const char *spv_oclstd_operand_codes(uint32_t op);
const char *spv_oclstd_operand_names(uint32_t op);
const char *spv_debuginfo_operand_codes(uint32_t op);
const char *spv_debuginfo_operand_names(uint32_t op);
'''

PARAM_ENUM_FUNCS = '''};
static int param_enum(char code) {
  int d = code - '0';
  return d >= 0 && d < (int)(sizeof param_enums / sizeof param_enums[0]) ? d : -1;
}
const char *spv_enum_params(char code, uint32_t value) {
  int d = param_enum(code);
  return d < 0 ? NULL : find_named(param_enums[d].t, param_enums[d].n, value);
}
bool spv_enum_is_bits(char code) { return param_enum(code) >= 0 && param_enums[param_enum(code)].bits; }
const char *spv_enum_kind_name(char code) { return param_enum(code) >= 0 ? param_enums[param_enum(code)].name : NULL; }
'''

def write_dict(path):
    words = {'magic': 0x07230203}
    for (op, name, t, r, mw, v, _codes, _names) in rows:
        words['%s_%d' % (name, mw)] = mw << 16 | op
        if v:
            words['%s_%d' % (name, mw + 1)] = (mw + 1) << 16 | op
    for kind in ('Capability', 'StorageClass', 'Decoration', 'BuiltIn', 'ExecutionMode', 'ExecutionModel',
                 'AddressingModel', 'MemoryModel', 'Dim', 'FunctionControl', 'MemoryAccess', 'Scope',
                 'ImageFormat', 'SourceLanguage', 'FunctionParameterAttribute'):
        for v, name in enum_names(kind):
            words.setdefault('%s_%s' % (kind, name), v)
    for i in ocl['instructions']:
        words.setdefault('OpenCL_std_%s' % i['opname'], i['opcode'])
    with open(path, 'w') as f:
        f.write('# Generated by tools/gen_tables.py --dict from the SPIR-V grammar. Do not edit.\n')
        seen = set()
        for name, w in words.items():
            if w in seen:
                continue
            seen.add(w)
            f.write('%s="%s"\n' % (name, ''.join('\\x%02x' % b for b in w.to_bytes(4, 'little'))))
        for s in (b'OpenCL.std\0\0', b'OpenCL.DebugInfo.100'):
            f.write('str_%s="%s"\n' % (s.decode().strip('\0').replace('.', '_'), ''.join('\\x%02x' % b for b in s)))

if dict_mode:
    write_dict(out)
    sys.exit(0)

h = open(os.path.join(out, 'gen_spv_tables.h'), 'w')
c = open(os.path.join(out, 'gen_spv_tables.c'), 'w')
h.write('/* Generated by tools/gen_tables.py from the SPIRV-Headers grammar. Do not edit. */\n')
h.write('#ifndef GEN_SPV_TABLES_H\n#define GEN_SPV_TABLES_H\n#include <stdint.h>\n#include <stdbool.h>\n\n')
h.write('typedef struct spv_opinfo {\n  uint16_t opcode;\n  uint8_t has_type, has_result;\n'
        '  uint16_t min_words; /* including the opcode word */\n  bool variable;      /* may be longer than min_words */\n'
        '  bool is_type;       /* a type declaration (OpType...) */\n'
        '  const char *name;\n'
        '  const char *operands;      /* operand codes (tools/gen_tables.py), e.g. "tri*" */\n'
        '  const char *operand_names; /* the grammar\'s operand names, separated by \'|\' */\n} spv_opinfo;\n\n')
h.write('/* Opcode info, or NULL for an opcode the grammar does not know. */\n')
h.write('const spv_opinfo *spv_op_info(uint32_t opcode);\n')
h.write('/* Name of an opcode ("OpIAdd"), or NULL. */\nconst char *spv_op_name(uint32_t opcode);\n')
for kind, fn in (('Capability', 'capability'), ('StorageClass', 'storage_class'), ('Decoration', 'decoration'),
                 ('BuiltIn', 'builtin'), ('ExecutionMode', 'execution_mode'), ('AddressingModel', 'addressing_model'),
                 ('Dim', 'dim')):
    h.write('const char *spv_%s_name(uint32_t value); /* NULL when unknown */\n' % fn)
h.write(HEADER_OPERANDS)
h.write('\n/* OpenCL.std extended instructions (extinst.opencl.std.100.grammar.json). */\nenum {\n')
for i in ocl['instructions']:
    h.write('  OCLSTD_%s = %d,\n' % (i['opname'], i['opcode']))
maxocl = max(i['opcode'] for i in ocl['instructions'])
h.write('  OCLSTD_COUNT = %d\n};\n' % (maxocl + 1))
h.write('/* Name of an OpenCL.std instruction, or NULL. */\nconst char *spv_oclstd_name(uint32_t op);\n')
h.write('/* Operand count of an OpenCL.std instruction (-1: variable, printf), or -2 when unknown. */\nint spv_oclstd_operands(uint32_t op);\n')
h.write('\n/* OpenCL.DebugInfo.100 extended instructions. */\nenum {\n')
for i in dbg['instructions']:
    h.write('  DI_%s = %d,\n' % (i['opname'], i['opcode']))
h.write('  DI_COUNT_ = %d\n};\nconst char *spv_debuginfo_name(uint32_t op);\n' % (max(i['opcode'] for i in dbg['instructions']) + 1))
h.write('\n#endif\n')

c.write('/* Generated by tools/gen_tables.py from the SPIRV-Headers grammar. Do not edit. */\n')
c.write('#include "gen_spv_tables.h"\n#include <stddef.h>\n\n')
c.write('static const spv_opinfo op_table[] = {\n')
for (op, name, t, r, mw, v, codes, names) in rows:
    c.write('  {%d, %d, %d, %d, %s, %s, "%s", "%s", "%s"},\n' % (op, int(t), int(r), mw, 'true' if v else 'false',
                                                             'true' if name.startswith('OpType') else 'false', name,
                                                             codes, names))
c.write('};\n\n')
# a dense opcode -> row index map: the loader looks every instruction up several times
maxop = max(r[0] for r in rows)
c.write('/* op_index[opcode] = 1 + row in op_table, 0 for an unknown opcode */\n')
c.write('static const uint16_t op_index[%d] = {\n' % (maxop + 1))
idx = {r[0]: i + 1 for i, r in enumerate(rows)}
line = []
for op in range(maxop + 1):
    line.append(str(idx.get(op, 0)))
    if len(line) == 24:
        c.write('  ' + ', '.join(line) + ',\n')
        line = []
if line:
    c.write('  ' + ', '.join(line) + ',\n')
c.write('};\n\n')
c.write('''const spv_opinfo *spv_op_info(uint32_t opcode) {
  if (opcode >= sizeof op_index / sizeof op_index[0] || !op_index[opcode]) return NULL;
  return &op_table[op_index[opcode] - 1];
}
const char *spv_op_name(uint32_t opcode) {
  const spv_opinfo *i = spv_op_info(opcode);
  return i ? i->name : NULL;
}

typedef struct { uint32_t value; const char *name; } named_value;
static const char *find_named(const named_value *t, size_t n, uint32_t v) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (t[mid].value == v) return t[mid].name;
    if (t[mid].value < v) lo = mid + 1; else hi = mid;
  }
  return NULL;
}
''')
for kind, fn in (('Capability', 'capability'), ('StorageClass', 'storage_class'), ('Decoration', 'decoration'),
                 ('BuiltIn', 'builtin'), ('ExecutionMode', 'execution_mode'), ('AddressingModel', 'addressing_model'),
                 ('Dim', 'dim')):
    c.write('static const named_value %s_names[] = {\n' % fn)
    for v, n in enum_names(kind):
        c.write('  {%du, "%s"},\n' % (v, n))
    c.write('};\nconst char *spv_%s_name(uint32_t v) {\n  return find_named(%s_names, sizeof %s_names / sizeof %s_names[0], v);\n}\n\n' % (fn, fn, fn, fn))
c.write('static const char *const oclstd_names[OCLSTD_COUNT] = {\n')
for i in ocl['instructions']:
    c.write('  [%d] = "%s",\n' % (i['opcode'], i['opname']))
c.write('};\nstatic const signed char oclstd_nops[OCLSTD_COUNT] = {\n')
for i in ocl['instructions']:
    ops = i.get('operands', [])
    n = -1 if any(o.get('quantifier') == '*' for o in ops) else len(ops)
    c.write('  [%d] = %d,\n' % (i['opcode'], n))
c.write('''};
const char *spv_oclstd_name(uint32_t op) { return op < OCLSTD_COUNT ? oclstd_names[op] : NULL; }
int spv_oclstd_operands(uint32_t op) { return op < OCLSTD_COUNT && oclstd_names[op] ? oclstd_nops[op] : -2; }
''')
c.write('static const char *const di_names[DI_COUNT_] = {\n')
for i in dbg['instructions']:
    c.write('  [%d] = "%s",\n' % (i['opcode'], i['opname']))
c.write('};\nconst char *spv_debuginfo_name(uint32_t op) { return op < DI_COUNT_ ? di_names[op] : NULL; }\n')

# The parameters of the enumerants of the enums that have some (operand codes '0'-'9').
for d, kind in enumerate(PARAM_ENUMS):
    ents = {}
    for e in kinds[kind]['enumerants']:
        v = e['value']
        ents.setdefault(int(v, 0) if isinstance(v, str) else v,
                        ''.join(operand_code(p, kinds) for p in e.get('parameters', [])))
    c.write('static const named_value enum%d_params[] = { /* %s */\n' % (d, kind))
    for v, codes in sorted(ents.items()):
        c.write('  {%du, "%s"},\n' % (v, codes))
    c.write('};\n')
c.write('static const struct {\n  const named_value *t;\n  size_t n;\n  bool bits;\n  const char *name;\n} param_enums[] = {\n')
for d, kind in enumerate(PARAM_ENUMS):
    c.write('  {enum%d_params, sizeof enum%d_params / sizeof enum%d_params[0], %s, "%s"},\n' %
            (d, d, d, 'true' if kinds[kind]['category'] == 'BitEnum' else 'false', kind))
c.write(PARAM_ENUM_FUNCS)
for grammar, prefix, count in ((ocl, 'oclstd', 'OCLSTD_COUNT'), (dbg, 'debuginfo', 'DI_COUNT_')):
    gk = {k['kind']: k for k in grammar.get('operand_kinds', [])}
    for what in ('codes', 'names'):
        c.write('static const char *const %s_operand_%s[%s] = {\n' % (prefix, what, count))
        for i in grammar['instructions']:
            ops = i.get('operands', [])
            c.write('  [%d] = "%s",\n' % (i['opcode'], operand_codes(ops, gk) if what == 'codes' else operand_names(ops)))
        c.write('};\nconst char *spv_%s_operand_%s(uint32_t op) { return op < %s ? %s_operand_%s[op] : NULL; }\n' %
                (prefix, what, count, prefix, what))
