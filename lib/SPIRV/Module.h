//===- Module.h - A compact SPIR-V module for lowering passes -------------===//
//
// The smallest in-memory form of a SPIR-V module that a lowering needs:
//
//  - Every instruction is an `Inst`: opcode, type id, result id, and a slice
//    of one operand arena shared by the whole module (operand words only; the
//    opcode/word-count word and the type/result ids are not in the slice).
//    Parsing makes one pass over the words and allocates nothing per
//    instruction beyond arena growth.
//  - Logical layout sections hold instruction indices; functions hold blocks,
//    blocks hold instruction indices (the label is the block's id, the last
//    index is the terminator).
//  - Per-id definitions; use lists built on demand from the id-operand masks
//    that the parser records (operand kinds come from SPIRV-Tools' grammar
//    through spvBinaryParse).
//  - Types de-duplicated per opcode and constants by a hashed key, for the
//    types and constants a lowering creates.
//  - Ids come from a counter; emit() writes the new bound.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_MODULE_H
#define FATOMIC_SPIRV_MODULE_H

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.hpp11>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <vector>

namespace fatomic::spirv {

using spv::Op;

/// One instruction.  Operands live in Module::Arena[Begin, Begin + Count).
struct Inst {
  /// Bit i set: operand word i is an id (only the first 64 words; longer
  /// instructions set IdTail: every word from 64 on is an id).
  uint64_t IdMask = 0;
  Op Opcode = Op::OpNop;
  uint32_t TypeId = 0;
  uint32_t ResultId = 0;
  uint32_t Begin = 0;
  uint32_t Count : 31;
  uint32_t IdTail : 1;
  Inst() : Count(0), IdTail(0) {}
};
static_assert(sizeof(Inst) == 32, "Inst is meant to stay at 32 bytes");

using InstRef = uint32_t; ///< index into Module::Insts

struct Block {
  uint32_t Label = 0;          ///< the OpLabel's result id
  InstRef LabelInst = 0;
  std::vector<InstRef> Body;   ///< phis, code, merge, terminator
};

struct Function {
  InstRef Def = 0;             ///< OpFunction
  std::vector<InstRef> Params; ///< OpFunctionParameter
  std::vector<Block> Blocks;
  InstRef End = 0;             ///< OpFunctionEnd
};

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

struct Use {
  InstRef User;
  uint32_t Word; ///< operand word index within the user
};

struct UseRange {
  const Use *First = nullptr, *Last = nullptr;
  const Use *begin() const { return First; }
  const Use *end() const { return Last; }
  size_t size() const { return size_t(Last - First); }
};

class Module {
public:
  /// Parses \p Words.  On failure returns false and sets \p Error.
  bool parse(const uint32_t *Words, size_t NumWords, std::string &Error);

  /// Writes the module, with the current id bound.
  std::vector<uint32_t> emit() const;

  /// Makes room for \p NumInsts more instructions with \p NumWords more
  /// operand words, so that a pass that knows roughly how much it will add
  /// spares the tables the copies of repeated growth.
  void reserve(size_t NumInsts, size_t NumWords);

  // ---- instructions -----------------------------------------------------
  const Inst &inst(InstRef R) const { return Insts[R]; }
  Inst &inst(InstRef R) { return Insts[R]; }
  uint32_t operand(InstRef R, uint32_t I) const { return Arena[Insts[R].Begin + I]; }
  uint32_t numOperands(InstRef R) const { return Insts[R].Count; }
  void setOperand(InstRef R, uint32_t I, uint32_t Value) { Arena[Insts[R].Begin + I] = Value; }
  const uint32_t *operands(InstRef R) const { return Arena.data() + Insts[R].Begin; }
  /// The literal string starting at operand word \p I.
  std::string stringOperand(InstRef R, uint32_t I) const;

  /// Creates an instruction (not placed anywhere yet).  \p IdMask marks the
  /// operand words that are ids (bit i = word i).
  InstRef create(Op Opcode, uint32_t TypeId, uint32_t ResultId,
                 std::initializer_list<uint32_t> Operands, uint64_t IdMask);
  InstRef create(Op Opcode, uint32_t TypeId, uint32_t ResultId,
                 const std::vector<uint32_t> &Operands, uint64_t IdMask,
                 bool IdTail = false);

  // ---- ids and definitions ------------------------------------------------
  uint32_t bound() const { return Bound; }
  uint32_t newId() { DefOf.push_back(NoInst); return Bound++; }
  /// The defining instruction of \p Id, or NoInst.
  InstRef def(uint32_t Id) const { return Id < DefOf.size() ? DefOf[Id] : NoInst; }
  Op opOf(uint32_t Id) const { InstRef D = def(Id); return D == NoInst ? Op::OpNop : Insts[D].Opcode; }
  void setDef(uint32_t Id, InstRef R) { DefOf[Id] = R; }
  static constexpr InstRef NoInst = ~InstRef{0};

  /// Use lists, built from scratch (invalidated by any edit).
  void buildUses();
  UseRange uses(uint32_t Id) const;

  // ---- layout --------------------------------------------------------------
  std::vector<InstRef> &section(Section S) { return Sections[unsigned(S)]; }
  const std::vector<InstRef> &section(Section S) const { return Sections[unsigned(S)]; }
  std::vector<Function> &functions() { return Functions; }
  const std::vector<Function> &functions() const { return Functions; }

  uint32_t version() const { return Version; }
  spv::AddressingModel addressing() const { return Addressing; }
  bool isLogical() const {
    return Addressing == spv::AddressingModel::Logical ||
           Addressing == spv::AddressingModel::PhysicalStorageBuffer64;
  }

  // ---- types and constants (de-duplicated) ---------------------------------
  uint32_t typeBool();
  uint32_t typeInt(uint32_t Width, bool Signed);
  uint32_t typeVector(uint32_t Component, uint32_t Count);
  uint32_t typePointer(spv::StorageClass SC, uint32_t Pointee);
  /// OpTypeImage with these operands (sampled type, Dim, Depth, Arrayed, MS,
  /// Sampled, Format[, access qualifier]).
  uint32_t typeImage(const std::vector<uint32_t> &Operands);
  /// OpTypeFunction returning \p Return with these parameter types.
  uint32_t typeFunction(uint32_t Return, const std::vector<uint32_t> &Params);
  uint32_t constantInt(uint32_t IntType, uint64_t Value);
  /// A new, never de-duplicated type (structs and arrays that carry their own
  /// decorations).  Appended to the globals section.
  uint32_t addType(Op Opcode, const std::vector<uint32_t> &Operands, uint64_t IdMask, bool IdTail = false);
  uint32_t addGlobal(Op Opcode, uint32_t TypeId, std::initializer_list<uint32_t> Operands, uint64_t IdMask);

  // ---- queries ---------------------------------------------------------------
  bool hasCapability(spv::Capability C) const;
  void addCapability(spv::Capability C);
  void removeCapability(spv::Capability C);
  bool hasExtension(const std::string &Name) const;
  void removeExtension(const std::string &Name);
  /// Decorations (OpDecorate, OpDecorateId, OpMemberDecorate,
  /// OpDecorateString, OpMemberDecorateString) naming \p Id, in layout order.
  std::vector<InstRef> decorationsOf(uint32_t Id) const;
  bool isDecorated(uint32_t Id) const;
  bool hasDecoration(uint32_t Id, spv::Decoration D) const;
  /// Writes the decorations that OpGroupDecorate/OpGroupMemberDecorate apply
  /// out as OpDecorate/OpMemberDecorate (and the String forms) of each
  /// target, and removes the groups (with their OpDecorate and OpName), so
  /// that decorationsOf() sees every decoration.  The same module.
  void flattenDecorationGroups();
  void addDecoration(uint32_t Id, spv::Decoration D, std::initializer_list<uint32_t> Literals = {});
  /// For OpTypeInt/OpTypeFloat: the width; 0 otherwise.
  uint32_t scalarWidth(uint32_t TypeId) const;
  /// The OpName of \p Id, or "".
  std::string nameOf(uint32_t Id) const;
  /// "%12 (\"name\") = OpPhi" style description for diagnostics.
  std::string describe(InstRef R) const;

  /// Calls \p Fn on every placed instruction, in layout order.
  template <typename Fn> void forEachPlaced(Fn &&F) const {
    for (const auto &S : Sections)
      for (InstRef R : S)
        F(R);
    for (const Function &Fun : Functions) {
      F(Fun.Def);
      for (InstRef P : Fun.Params)
        F(P);
      for (const Block &B : Fun.Blocks) {
        F(B.LabelInst);
        for (InstRef R : B.Body)
          F(R);
      }
      F(Fun.End);
    }
  }

private:
  InstRef create(Op Opcode, uint32_t TypeId, uint32_t ResultId,
                 const uint32_t *First, const uint32_t *Last, uint64_t IdMask,
                 bool IdTail);
  uint64_t keyHash(Op Opcode, uint32_t TypeId, const uint32_t *Ops, uint32_t N) const;
  uint32_t findOrAdd(Op Opcode, uint32_t TypeId, std::initializer_list<uint32_t> Ops, uint64_t IdMask) {
    return findOrAdd(Opcode, TypeId, Ops.begin(), uint32_t(Ops.size()), IdMask);
  }
  uint32_t findOrAdd(Op Opcode, uint32_t TypeId, const uint32_t *Ops, uint32_t N, uint64_t IdMask);

  std::vector<Inst> Insts;
  std::vector<uint32_t> Arena;
  std::vector<InstRef> DefOf;
  std::vector<InstRef> Sections[unsigned(Section::Count)];
  std::vector<Function> Functions;
  uint32_t Version = 0, Generator = 0, Bound = 0, Schema = 0;
  spv::AddressingModel Addressing = spv::AddressingModel::Logical;

  // Hashed key -> candidate type/constant ids, for findOrAdd.
  std::unordered_multimap<uint64_t, uint32_t> TypeConstIndex;
  bool IndexBuilt = false;
  void buildTypeConstIndex();

  // Decorations per id: the annotation section's first DecoIndexed entries,
  // indexed.  Passes only append to that section; the index catches up on
  // the new entries when queried (and is rebuilt if the section shrank).
  mutable std::unordered_map<uint32_t, std::vector<InstRef>> DecoIndex;
  mutable size_t DecoIndexed = 0;
  void indexDecorations() const;

  // Uses in compressed form: UseBegin[id]..UseBegin[id+1] in UseList.
  std::vector<uint32_t> UseBegin;
  std::vector<Use> UseList;

  friend struct ParseState;
};

} // namespace fatomic::spirv

#endif // FATOMIC_SPIRV_MODULE_H
