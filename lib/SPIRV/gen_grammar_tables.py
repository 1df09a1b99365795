#!/usr/bin/env python3
"""gen_grammar_tables.py - SPIR-V operand-kind tables from the grammar files.

Owns the build-time translation of the machine-readable SPIR-V grammar
(spirv.core.grammar.json and the extinst.*.grammar.json files that
spirv-headers installs) into C++ tables for lib/SPIRV/Grammar.cpp: per opcode
its name, class, result type / result id, operands (kind and quantifier),
logical-layout section, whether it ends a block and whether it declares a
type; per capability the capabilities it implicitly declares (sorted); per
operand kind its category, the enumerants that take parameters and their
parameter kinds, and the bases of composite kinds; per extended instruction
set the operands of each instruction.

Run by CMake (lib/SPIRV/CMakeLists.txt); the output lives in the build tree
and is never committed.

Usage: gen_grammar_tables.py GRAMMAR_DIR OUTPUT
"""

import json
import os
import sys

# Import names of the extended instruction sets, per grammar file.  The
# grammar files do not carry the name that OpExtInstImport uses; these are
# the names the SPIR-V registry gives each set (SPIRV-Tools maps them the
# same way).  A name ending in '.' is a prefix: the set carries a version
# after it ("NonSemantic.ClspvReflection.5").
EXT_SET_NAMES = {
    'glsl.std.450': 'GLSL.std.450',
    'opencl.std.100': 'OpenCL.std',
    'debuginfo': 'DebugInfo',
    'opencl.debuginfo.100': 'OpenCL.DebugInfo.100',
    'nonsemantic.shader.debuginfo.100': 'NonSemantic.Shader.DebugInfo.100',
    'nonsemantic.debugprintf': 'NonSemantic.DebugPrintf',
    'nonsemantic.clspvreflection': 'NonSemantic.ClspvReflection.',
    'spv-amd-shader-trinary-minmax': 'SPV_AMD_shader_trinary_minmax',
    'spv-amd-gcn-shader': 'SPV_AMD_gcn_shader',
    'spv-amd-shader-ballot': 'SPV_AMD_shader_ballot',
    'spv-amd-shader-explicit-vertex-parameter':
        'SPV_AMD_shader_explicit_vertex_parameter',
}

# The one fact the grammar does not record: which instructions end a block.
# SPIR-V 1.6, section 2.2.4 ("Termination Instruction": a Branch Instruction
# (OpBranch, OpBranchConditional, OpSwitch), OpKill, OpReturn,
# OpReturnValue, OpUnreachable, OpTerminateInvocation) and the extensions
# that add block terminators (SPV_KHR_ray_tracing: OpIgnoreIntersectionKHR,
# OpTerminateRayKHR; SPV_EXT_mesh_shader: OpEmitMeshTasksEXT).  Each name is
# checked against the grammar below: it must exist and have no result.
TERMINATORS = [
    'OpBranch', 'OpBranchConditional', 'OpSwitch', 'OpKill', 'OpReturn',
    'OpReturnValue', 'OpUnreachable', 'OpTerminateInvocation',
    'OpIgnoreIntersectionKHR', 'OpTerminateRayKHR', 'OpEmitMeshTasksEXT',
]

# Module::Section, in logical-layout order (SPIR-V 2.4).
SECTIONS = ['Capability', 'Extension', 'ExtInstImport', 'MemoryModel',
            'EntryPoint', 'ExecutionMode', 'Debug', 'Annotation', 'Global']

# Operand categories (Grammar.h, grammar::Category).
CATEGORY = {
    'Id': 'Id', 'ValueEnum': 'ValueEnum', 'BitEnum': 'BitEnum',
    'Composite': 'Composite',
}
LITERAL_CATEGORY = {
    'LiteralInteger': 'Literal',
    'LiteralFloat': 'Literal',
    'LiteralString': 'LiteralString',
    'LiteralContextDependentNumber': 'LiteralContextNumber',
    'LiteralExtInstInteger': 'LiteralExtInst',
    'LiteralSpecConstantOpInteger': 'LiteralSpecConstantOp',
}


def fail(msg):
    sys.stderr.write('gen_grammar_tables.py: %s\n' % msg)
    sys.exit(1)


class Tables:
    def __init__(self):
        self.kinds = []          # (name, category, enum_first, enum_n, base_first, base_n)
        self.kind_index = {}
        self.enumerants = []     # (value, param_first, param_n)
        self.kind_lists = []     # kind indices: enumerant parameters, composite bases
        self.operands = []       # (kind index, quantifier)

    def add_kinds(self, kinds, prefix):
        """Registers \\p kinds under prefix + name; returns nothing."""
        pending = []
        for k in kinds:
            name = prefix + k['kind']
            if name in self.kind_index:
                fail('operand kind %s defined twice' % name)
            self.kind_index[name] = len(self.kinds)
            self.kinds.append(None)
            pending.append((name, k))
        for name, k in pending:
            self.kinds[self.kind_index[name]] = self.describe(name, k, prefix)

    def kind_ref(self, name, prefix):
        if prefix and prefix + name in self.kind_index:
            return self.kind_index[prefix + name]
        if name not in self.kind_index:
            fail('unknown operand kind %s' % name)
        return self.kind_index[name]

    def describe(self, name, k, prefix):
        cat = k['category']
        if cat == 'Literal':
            if k['kind'] not in LITERAL_CATEGORY:
                fail('unknown literal kind %s' % k['kind'])
            category = LITERAL_CATEGORY[k['kind']]
        elif cat in CATEGORY:
            category = CATEGORY[cat]
        else:
            fail('unknown category %s of %s' % (cat, name))
        enum_first = len(self.enumerants)
        if cat in ('ValueEnum', 'BitEnum'):
            seen = {}
            for e in k.get('enumerants', []):
                params = e.get('parameters', [])
                v = e['value']
                v = int(v, 0) if isinstance(v, str) else v
                if not params:
                    continue
                refs = [self.kind_ref(p['kind'], prefix) for p in params]
                if v in seen:  # an alias of an enumerant already recorded
                    if seen[v] != refs:
                        fail('%s value %d: aliases differ' % (name, v))
                    continue
                seen[v] = refs
            for v in sorted(seen):
                self.enumerants.append((v, len(self.kind_lists), len(seen[v])))
                self.kind_lists.extend(seen[v])
        enum_n = len(self.enumerants) - enum_first
        base_first = len(self.kind_lists)
        for b in k.get('bases', []):
            self.kind_lists.append(self.kind_ref(b, prefix))
        base_n = len(self.kind_lists) - base_first
        return (name, category, enum_first, enum_n, base_first, base_n)

    def add_operands(self, ops, prefix):
        first = len(self.operands)
        for o in ops:
            q = {None: 'One', '?': 'Optional', '*': 'Variadic'}[o.get('quantifier')]
            self.operands.append((self.kind_ref(o['kind'], prefix), q))
        return first, len(self.operands) - first


def section_of(inst, kinds):
    """The logical-layout section (SPIR-V 2.4) of a module-level instruction,
    derived from the grammar's class and operand kinds."""
    cls = inst['class']
    has_result = 'IdResult' in kinds
    has_type = 'IdResultType' in kinds
    if cls == 'Mode-Setting':
        # Each mode-setting instruction is named by the enumeration it sets.
        for kind, section in (('Capability', 'Capability'),
                              ('AddressingModel', 'MemoryModel'),
                              ('ExecutionModel', 'EntryPoint'),
                              ('ExecutionMode', 'ExecutionMode')):
            if kind in kinds:
                return section
        fail('mode-setting %s sets no known enumeration' % inst['opname'])
    if cls == 'Extension':
        if not has_result and not has_type:
            return 'Extension'        # OpExtension
        if has_result and not has_type:
            return 'ExtInstImport'    # OpExtInstImport
        return 'Global'               # OpExtInst (non-semantic, at module level)
    if cls == 'Debug':
        # Strings, sources, names and processes (section 7) carry a string or a
        # source language; OpLine and OpNoLine carry neither and may appear
        # among the globals (section 9) and in functions.
        if 'LiteralString' in kinds or 'SourceLanguage' in kinds:
            return 'Debug'
        return 'Global'
    if cls == 'Annotation':
        return 'Annotation'
    return 'Global'


def is_type_declaration(inst, kinds):
    """Class Type-Declaration; the grammar files some vendor types (ray query,
    acceleration structure, cooperative matrix, AVC) under the 'Reserved' and
    '@exclude' classes instead: those count when they have a result and no
    result type and are named OpType*."""
    if inst['class'] == 'Type-Declaration':
        return True
    return (inst['class'] in ('Reserved', '@exclude') and 'IdResult' in kinds
            and 'IdResultType' not in kinds and inst['opname'].startswith('OpType'))


def main():
    if len(sys.argv) != 3:
        fail('usage: gen_grammar_tables.py GRAMMAR_DIR OUTPUT')
    gdir, out = sys.argv[1], sys.argv[2]
    with open(os.path.join(gdir, 'spirv.core.grammar.json')) as f:
        core = json.load(f)
    t = Tables()
    t.add_kinds(core['operand_kinds'], '')

    opcodes = []
    seen = set()
    for inst in core['instructions']:
        if inst['opcode'] in seen:  # an alias (OpDecorateStringGOOGLE)
            continue
        seen.add(inst['opcode'])
        ops = inst.get('operands', [])
        kinds = [o['kind'] for o in ops]
        lead = 0
        has_type = 'IdResultType' in kinds
        has_result = 'IdResult' in kinds
        if has_type:
            if kinds[0] != 'IdResultType':
                fail('%s: result type is not first' % inst['opname'])
            lead += 1
        if has_result:
            if kinds[lead] != 'IdResult':
                fail('%s: result id is not after the type' % inst['opname'])
            lead += 1
        first, n = t.add_operands(ops[lead:], '')
        term = inst['opname'] in TERMINATORS
        typedecl = is_type_declaration(inst, kinds)
        if typedecl != inst['opname'].startswith('OpType'):
            fail('%s: type declaration rule disagrees with the name' % inst['opname'])
        opcodes.append((inst['opcode'], inst['opname'], inst['class'], has_type,
                        has_result, first, n, section_of(inst, kinds), term, typedecl))
    names = {o[1]: o for o in opcodes}
    for name in TERMINATORS:
        if name not in names:
            fail('terminator %s is not in the grammar' % name)
        if names[name][4]:
            fail('terminator %s has a result' % name)
    opcodes.sort()

    ext_sets = []   # (name, is_prefix, first, n)
    ext_insts = []  # (number, first operand, count)
    for fname in sorted(os.listdir(gdir)):
        if not (fname.startswith('extinst.') and fname.endswith('.grammar.json')):
            continue
        stem = fname[len('extinst.'):-len('.grammar.json')]
        if stem not in EXT_SET_NAMES:
            fail('no import name known for %s' % fname)
        with open(os.path.join(gdir, fname)) as f:
            g = json.load(f)
        prefix = stem + ':'
        t.add_kinds(g.get('operand_kinds', []), prefix)
        first = len(ext_insts)
        for inst in sorted(g['instructions'], key=lambda i: i['opcode']):
            of, on = t.add_operands(inst.get('operands', []), prefix)
            ext_insts.append((inst['opcode'], of, on))
        name = EXT_SET_NAMES[stem]
        ext_sets.append((name, name.endswith('.'), first, len(ext_insts) - first))

    emit(out, core, t, opcodes, ext_sets, ext_insts, implied_capabilities(core),
         value_names(core, t))


def implied_capabilities(core):
    """(capability, implied capability) pairs, sorted: a capability's
    'capabilities' list names those that declaring it declares implicitly
    (SPIR-V 2.1, "implicitly declares")."""
    kind = next(k for k in core['operand_kinds'] if k['kind'] == 'Capability')
    value = {}
    for e in kind['enumerants']:
        v = e['value']
        value[e['enumerant']] = int(v, 0) if isinstance(v, str) else v
    pairs = set()
    for e in kind['enumerants']:
        for c in e.get('capabilities', []):
            if c not in value:
                fail('capability %s implies unknown %s' % (e['enumerant'], c))
            pairs.add((value[e['enumerant']], value[c]))
    return sorted(pairs)


def value_names(core, t):
    """(kind index, value, name) of every enumerant of the core grammar's
    value enums, sorted; an alias keeps the first name the grammar gives."""
    names = {}
    for k in core['operand_kinds']:
        if k['category'] != 'ValueEnum':
            continue
        kind = t.kind_index[k['kind']]
        for e in k['enumerants']:
            v = e['value']
            v = int(v, 0) if isinstance(v, str) else v
            names.setdefault((kind, v), e['enumerant'])
    return sorted((kind, v, n) for (kind, v), n in names.items())


def emit(out, core, t, opcodes, ext_sets, ext_insts, implied, names):
    L = []
    w = L.append
    w('// Generated by lib/SPIRV/gen_grammar_tables.py from SPIR-V grammar %d.%d '
      'revision %d; do not edit.' % (core['major_version'], core['minor_version'],
                                     core['revision']))
    w('// Included by lib/SPIRV/Grammar.cpp only.')
    w('namespace tables {')
    w('constexpr KindInfo Kinds[] = {')
    for (name, cat, ef, en, bf, bn) in t.kinds:
        w('  {"%s", Category::%s, %d, %d, %d, %d},' % (name, cat, ef, en, bf, bn))
    w('};')
    w('constexpr EnumerantInfo Enumerants[] = {')
    for (v, pf, pn) in t.enumerants or [(0, 0, 0)]:
        w('  {%du, %d, %d},' % (v, pf, pn))
    w('};')
    w('constexpr uint16_t KindLists[] = {')
    w('  ' + ', '.join(str(k) for k in (t.kind_lists or [0])) + ',')
    w('};')
    w('constexpr OperandInfo Operands[] = {')
    for (k, q) in t.operands:
        w('  {%d, Quantifier::%s},' % (k, q))
    w('};')
    w('constexpr OpcodeInfo Opcodes[] = {')
    for (op, name, cls, ht, hr, f, n, sec, term, td) in opcodes:
        w('  {%d, "%s", "%s", %s, %s, %d, %d, Section::%s, %s, %s},' % (
            op, name, cls, str(ht).lower(), str(hr).lower(), f, n, sec,
            str(term).lower(), str(td).lower()))
    w('};')
    max_op = opcodes[-1][0]
    index = [0xFFFF] * (max_op + 1)
    for i, o in enumerate(opcodes):
        index[o[0]] = i
    w('constexpr uint32_t MaxOpcode = %d;' % max_op)
    w('constexpr uint16_t OpcodeIndex[] = {')
    for i in range(0, len(index), 16):
        w('  ' + ', '.join(str(x) for x in index[i:i + 16]) + ',')
    w('};')
    w('constexpr ExtInstInfo ExtInsts[] = {')
    for (num, f, n) in ext_insts:
        w('  {%du, %d, %d},' % (num, f, n))
    w('};')
    w('constexpr ExtSetInfo ExtSets[] = {')
    for (name, pre, f, n) in ext_sets:
        w('  {"%s", %s, %d, %d},' % (name, str(pre).lower(), f, n))
    w('};')
    w('constexpr uint32_t ImpliedCapabilities[][2] = {')
    for (c, i) in implied:
        w('  {%du, %du},' % (c, i))
    w('};')
    w('constexpr ValueName ValueNames[] = {')
    for (k, v, n) in names:
        w('  {%d, %du, "%s"},' % (k, v, n))
    w('};')
    idref = t.kind_index['IdRef']
    w('constexpr uint16_t IdRefKind = %d;' % idref)
    w('} // namespace tables')
    text = '\n'.join(L) + '\n'
    try:
        with open(out) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(out, 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()
