//===- Grammar.h - SPIR-V operand kinds and layout facts from the grammar -===//
//
// What the SPIR-V grammar says about an instruction, for the module IR and
// its builders: which operand words are ids, whether an opcode declares a
// type or ends a block, and which logical-layout section a module-level
// instruction belongs to.  The tables are generated at build time by
// gen_grammar_tables.py from the grammar files that spirv-headers installs
// (spirv.core.grammar.json and extinst.*.grammar.json); nothing here is
// written by hand except the spec's list of block terminators, which the
// grammar does not record (see the generator).
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_GRAMMAR_H
#define FATOMIC_SPIRV_GRAMMAR_H

#include <spirv/unified1/spirv.hpp11>

#include <cstdint>
#include <string>
#include <vector>

namespace fatomic::spirv {

/// Sections in the order of the logical layout (SPIR-V 2.4).
enum class Section : unsigned {
  Capability,
  Extension,
  ExtInstImport,
  MemoryModel,
  EntryPoint,
  ExecutionMode,
  Debug,        ///< OpString, OpSource*, OpName, OpMemberName, OpModuleProcessed
  Annotation,   ///< decorations
  Global,       ///< types, constants, global variables, OpUndef, OpLine...
  Count
};

namespace grammar {

/// The set of operand words of one instruction that are ids.  Words 0..63
/// live inline; longer instructions (OpTypeFunction with many parameters,
/// OpSwitch with many cases, long composites) keep the rest in a vector.
class IdWords {
public:
  bool test(uint32_t W) const {
    if (W < 64)
      return (Low >> W) & 1;
    const uint32_t I = (W - 64) / 64;
    return I < High.size() && ((High[I] >> ((W - 64) % 64)) & 1);
  }
  void set(uint32_t W) {
    if (W < 64) {
      Low |= uint64_t{1} << W;
      return;
    }
    const uint32_t I = (W - 64) / 64;
    if (I >= High.size())
      High.resize(I + 1, 0);
    High[I] |= uint64_t{1} << ((W - 64) % 64);
  }
  uint64_t low() const { return Low; }
  /// Whether any word from 64 on is an id.
  bool anyHigh() const {
    for (uint64_t H : High)
      if (H)
        return true;
    return false;
  }
  /// Mask words for operand words 64, 128, ... (may be shorter than the
  /// instruction: missing words have no ids).
  const std::vector<uint64_t> &high() const { return High; }
  bool operator==(const IdWords &O) const;
  bool operator!=(const IdWords &O) const { return !(*this == O); }

private:
  uint64_t Low = 0;
  std::vector<uint64_t> High;
};

/// What an instruction's own operand words cannot tell.
struct OperandContext {
  /// For OpExtInst: the set (extInstSet() of the import's name); UnknownSet
  /// makes every operand after the instruction number an id, as for
  /// NonSemantic sets without a grammar.
  int ExtSet = UnknownSet;
  /// For OpSwitch: words per case literal (the selector's width / 32).
  uint32_t SwitchLiteralWords = 1;
  static constexpr int UnknownSet = -1;
};

/// The extended instruction set that OpExtInstImport \p ImportName imports,
/// or OperandContext::UnknownSet.
int extInstSet(const std::string &ImportName);

/// The operand words of \p Opcode (words after the result type and result
/// id) that are ids: optional and variadic operands, literal strings,
/// enumerants with parameters, composites and OpSpecConstantOp are
/// followed as the grammar describes them.  An unknown opcode has none.
IdWords idWords(spv::Op Opcode, const uint32_t *Operands, uint32_t NumOperands,
                const OperandContext &Context = {});

/// The number of parameter operands that enumerant \p Value of the operand
/// kind named \p Kind takes ("MemoryAccess", 0x2: Aligned's one literal);
/// 0 for an enumerant without parameters, or an unknown kind or value.
unsigned enumerantParameters(const char *Kind, uint32_t Value);

/// The name of enumerant \p Value of the core grammar's value enum \p Kind
/// ("StorageClass", 5349: "PhysicalStorageBuffer"); "" when unknown.
const char *enumerantName(const char *Kind, uint32_t Value);

bool isKnown(spv::Op Opcode);
/// "OpIAdd"; "" for an unknown opcode.
const char *name(spv::Op Opcode);
/// The grammar's class ("Arithmetic", "Type-Declaration"...); "".
const char *className(spv::Op Opcode);
bool hasResultType(spv::Op Opcode);
bool hasResult(spv::Op Opcode);
/// Class Type-Declaration (and the vendor types that the grammar files
/// under other classes).
bool isTypeDeclaration(spv::Op Opcode);
/// Ends a block (SPIR-V 2.2.4 "Termination Instruction").
bool isBlockTerminator(spv::Op Opcode);
/// The logical-layout section of a module-level \p Opcode (Global for
/// instructions the layout places among the types, constants and globals,
/// and for those that only appear in functions).
Section section(spv::Op Opcode);
/// The capabilities that declaring \p C declares implicitly (the grammar's
/// "capabilities" of the enumerant; one step, not the closure).
std::vector<spv::Capability> impliedCapabilities(spv::Capability C);

} // namespace grammar
} // namespace fatomic::spirv

#endif // FATOMIC_SPIRV_GRAMMAR_H
