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
//    through spvBinaryParse) and that create() takes from the SPIR-V grammar
//    (Grammar.h).
//  - Facts that edits invalidate are guarded: the use lists carry the edit
//    epoch they were built at, and in debug builds uses() asserts that no
//    edit came since; instructions and operand words live in chunks that
//    never move, so an Inst& or operands() pointer survives create().
//  - Types de-duplicated per opcode and constants by a hashed key, for the
//    types and constants a lowering creates.
//  - Ids come from a counter; emit() writes the new bound.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_MODULE_H
#define FATOMIC_SPIRV_MODULE_H

#include "Grammar.h"

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.hpp11>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace fatomic::spirv {

using spv::Op;

/// One instruction.  Operands live in the module's operand arena at Begin
/// (Module::operands()).
struct Inst {
  /// Bit i set: operand word i is an id (only the first 64 words).  IdTail
  /// set: some word from 64 on is an id; Module::isIdWord() knows which.
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

/// Storage that never moves what it holds: elements live in fixed-size
/// chunks, so a reference survives push_back.
template <typename T, unsigned ChunkBits> class ChunkedVector {
public:
  static constexpr size_t ChunkSize = size_t{1} << ChunkBits;
  T &operator[](size_t I) { return Chunks[I >> ChunkBits][I & (ChunkSize - 1)]; }
  const T &operator[](size_t I) const { return Chunks[I >> ChunkBits][I & (ChunkSize - 1)]; }
  size_t size() const { return Size; }
  void push_back(const T &V) {
    if ((Size & (ChunkSize - 1)) == 0)
      Chunks.emplace_back(new T[ChunkSize]);
    (*this)[Size++] = V;
  }
  void reserve(size_t N) { Chunks.reserve((N + ChunkSize - 1) >> ChunkBits); }

private:
  std::vector<std::unique_ptr<T[]>> Chunks;
  size_t Size = 0;
};

/// Operand words in chunks that never move.  One instruction's words are
/// contiguous in one chunk; a location is (chunk << 16) | offset, and an
/// instruction longer than a chunk gets a chunk of its own.
class OperandArena {
public:
  static constexpr uint32_t ChunkWords = 1u << 16;
  uint32_t *at(uint32_t Loc) { return Chunks[Loc >> 16].get() + (Loc & 0xFFFF); }
  const uint32_t *at(uint32_t Loc) const { return Chunks[Loc >> 16].get() + (Loc & 0xFFFF); }
  /// Room for \p N words; returns their location.
  uint32_t allocate(uint32_t N);
  void reserveChunks(size_t Words) { Chunks.reserve(Chunks.size() + Words / ChunkWords + 1); }

private:
  std::vector<std::unique_ptr<uint32_t[]>> Chunks;
  uint32_t Used = ChunkWords; ///< words used in the last chunk
  uint32_t Cap = 0;           ///< words in the last chunk
};

// Debug instructions (OpLine, OpNoLine, non-semantic OpExtInst) may stand
// outside blocks: before OpFunction (the OpLine that gives its position),
// among the parameters, between a terminator and the next OpLabel, after the
// last terminator, and after the last function.  They stay where they stood.

struct Block {
  std::vector<InstRef> Lead;   ///< debug instructions before the OpLabel
  uint32_t Label = 0;          ///< the OpLabel's result id
  InstRef LabelInst = 0;
  std::vector<InstRef> Body;   ///< phis, code, merge, terminator
};

struct Function {
  /// Debug instructions between the previous function (or, for the first,
  /// the last global that is not OpLine/OpNoLine) and OpFunction.
  std::vector<InstRef> Prelude;
  InstRef Def = 0;             ///< OpFunction
  /// OpFunctionParameter, and debug instructions among and after them up
  /// to the first OpLabel, in module order.
  std::vector<InstRef> Header;
  std::vector<Block> Blocks;
  std::vector<InstRef> Trailer; ///< debug instructions after the last block
  InstRef End = 0;             ///< OpFunctionEnd
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
  /// Parses \p Words, whose id bound may be at most \p MaxBound (one above
  /// SPIR-V's limit of 4194303 ids unless the caller raised it).  On failure
  /// returns false and sets \p Error.
  bool parse(const uint32_t *Words, size_t NumWords, std::string &Error,
             uint32_t MaxBound = 0x400000);

  /// Writes the module, with the current id bound.
  std::vector<uint32_t> emit() const;

  /// Makes room for \p NumInsts more instructions with \p NumWords more
  /// operand words, so that a pass that knows roughly how much it will add
  /// spares the tables the copies of repeated growth.
  void reserve(size_t NumInsts, size_t NumWords);

  // ---- instructions -----------------------------------------------------
  // References and operands() pointers stay valid across create().
  const Inst &inst(InstRef R) const { return Insts[R]; }
  Inst &inst(InstRef R) { return Insts[R]; }
  uint32_t operand(InstRef R, uint32_t I) const { return operands(R)[I]; }
  uint32_t numOperands(InstRef R) const { return Insts[R].Count; }
  /// Sets operand word \p I (invalidates the use lists).
  void setOperand(InstRef R, uint32_t I, uint32_t Value) {
    Arena.at(Insts[R].Begin)[I] = Value;
    ++Epoch;
  }
  const uint32_t *operands(InstRef R) const { return Arena.at(Insts[R].Begin); }
  /// Sets the result type (invalidates the use lists; writing
  /// inst(R).TypeId directly does not).
  void setType(InstRef R, uint32_t TypeId) {
    Insts[R].TypeId = TypeId;
    ++Epoch;
  }
  /// Gives \p R the result id \p Id and records it as Id's definition
  /// (invalidates the use lists).
  void setResult(InstRef R, uint32_t Id) {
    Insts[R].ResultId = Id;
    DefOf[Id] = R;
    ++Epoch;
  }
  /// The literal string starting at operand word \p I.
  std::string stringOperand(InstRef R, uint32_t I) const;
  /// Whether operand word \p W of \p R is an id.
  bool isIdWord(InstRef R, uint32_t W) const;

  /// Creates an instruction (not placed anywhere yet); the grammar says
  /// which operand words are ids.  Creating an instruction that names ids
  /// invalidates the use lists.
  InstRef create(Op Opcode, uint32_t TypeId, uint32_t ResultId,
                 std::initializer_list<uint32_t> Operands);
  InstRef create(Op Opcode, uint32_t TypeId, uint32_t ResultId,
                 const std::vector<uint32_t> &Operands);
  /// The operand words of a new \p Opcode instruction with these operands
  /// that are ids, as the grammar has them (OpExtInst's set and OpSwitch's
  /// selector width are looked up in this module).
  grammar::IdWords grammarIdWords(Op Opcode, const uint32_t *Operands, uint32_t N) const;

  // ---- ids and definitions ------------------------------------------------
  uint32_t bound() const { return Bound; }
  uint32_t newId() { DefOf.push_back(NoInst); return Bound++; }
  /// The defining instruction of \p Id, or NoInst.
  InstRef def(uint32_t Id) const { return Id < DefOf.size() ? DefOf[Id] : NoInst; }
  Op opOf(uint32_t Id) const { InstRef D = def(Id); return D == NoInst ? Op::OpNop : Insts[D].Opcode; }
  void setDef(uint32_t Id, InstRef R) { DefOf[Id] = R; }
  static constexpr InstRef NoInst = ~InstRef{0};
  /// Whether \p Id is a scalar constant or spec constant (an id every
  /// function may use and every invocation sees the same), as opposed to a
  /// value computed in a function.
  bool isConstant(uint32_t Id) const {
    switch (opOf(Id)) {
    case Op::OpConstant:
    case Op::OpConstantNull:
    case Op::OpSpecConstant:
    case Op::OpSpecConstantOp:
      return true;
    default:
      return false;
    }
  }

  /// Use lists, built from scratch (invalidated by any edit).
  void buildUses();
  /// The uses of \p Id by placed instructions.  Debug builds assert that
  /// the lists are current (no edit since buildUses()) and that \p Id
  /// existed when they were built.
  UseRange uses(uint32_t Id) const;
  /// Counts edits that invalidate the use lists: setOperand, setType,
  /// setResult, create() of an instruction that names ids, place(),
  /// flattenDecorationGroups(), invalidateUses().
  uint64_t epoch() const { return Epoch; }
  bool usesCurrent() const { return UsesEpoch == Epoch; }
  /// Records an edit made through the layout vectors directly.
  void invalidateUses() { ++Epoch; }

  // ---- layout --------------------------------------------------------------
  /// Appends \p R to section \p S (invalidates the use lists).
  void place(Section S, InstRef R) {
    Sections[unsigned(S)].push_back(R);
    ++Epoch;
  }
  /// Inserts \p R into \p B's body before index \p Index (invalidates the
  /// use lists).
  void place(Block &B, size_t Index, InstRef R) {
    B.Body.insert(B.Body.begin() + Index, R);
    ++Epoch;
  }
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
  uint32_t addType(Op Opcode, const std::vector<uint32_t> &Operands);
  uint32_t addGlobal(Op Opcode, uint32_t TypeId, std::initializer_list<uint32_t> Operands);

  // ---- queries ---------------------------------------------------------------
  /// Whether an OpCapability declares \p C.
  bool hasCapability(spv::Capability C) const;
  /// Whether the module declares \p C, explicitly or implicitly (through
  /// the capabilities that declared ones imply, transitively).
  bool declaresCapability(spv::Capability C) const;
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
  /// SPIR-V 1.4+: adds global \p Added to the interface of every entry point
  /// that lists \p Listed (before 1.4 interfaces hold only inputs and
  /// outputs, and nothing changes).
  void listWhereListed(uint32_t Listed, uint32_t Added);
  /// For OpTypeInt/OpTypeFloat: the width; 0 otherwise.
  uint32_t scalarWidth(uint32_t TypeId) const;
  /// The OpName of \p Id, or "".
  std::string nameOf(uint32_t Id) const;
  /// Whether \p SetId is an OpExtInstImport of a "NonSemantic." set, whose
  /// instructions may be dropped without changing the module's meaning.
  bool isNonSemanticSet(uint32_t SetId) const;
  /// "%12 (\"name\") = OpPhi" style description for diagnostics.
  std::string describe(InstRef R) const;

  /// Calls \p Fn on every placed instruction, in layout order.
  template <typename Fn> void forEachPlaced(Fn &&F) const {
    for (const auto &S : Sections)
      for (InstRef R : S)
        F(R);
    for (const Function &Fun : Functions) {
      for (InstRef D : Fun.Prelude)
        F(D);
      F(Fun.Def);
      for (InstRef P : Fun.Header)
        F(P);
      for (const Block &B : Fun.Blocks) {
        for (InstRef D : B.Lead)
          F(D);
        F(B.LabelInst);
        for (InstRef R : B.Body)
          F(R);
      }
      for (InstRef D : Fun.Trailer)
        F(D);
      F(Fun.End);
    }
    for (InstRef D : Tail)
      F(D);
  }

private:
  /// Stores the instruction; \p Ids are its id words.
  InstRef store(Op Opcode, uint32_t TypeId, uint32_t ResultId,
                const uint32_t *First, const uint32_t *Last,
                const grammar::IdWords &Ids);
  InstRef createFromGrammar(Op Opcode, uint32_t TypeId, uint32_t ResultId,
                            const uint32_t *First, const uint32_t *Last);
  uint64_t keyHash(Op Opcode, uint32_t TypeId, const uint32_t *Ops, uint32_t N) const;
  uint32_t findOrAdd(Op Opcode, uint32_t TypeId, std::initializer_list<uint32_t> Ops) {
    return findOrAdd(Opcode, TypeId, Ops.begin(), uint32_t(Ops.size()));
  }
  uint32_t findOrAdd(Op Opcode, uint32_t TypeId, const uint32_t *Ops, uint32_t N);

  ChunkedVector<Inst, 12> Insts;
  OperandArena Arena;
  /// Id words from 64 on, for the instructions with IdTail set (mask words
  /// for operand words 64, 128, ...).
  std::unordered_map<InstRef, std::vector<uint64_t>> WideIdWords;
  std::vector<InstRef> DefOf;
  std::vector<InstRef> Sections[unsigned(Section::Count)];
  std::vector<Function> Functions;
  /// Debug instructions after the last function.
  std::vector<InstRef> Tail;
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
  uint64_t Epoch = 0;
  uint64_t UsesEpoch = ~uint64_t{0}; ///< Epoch at buildUses()

  friend struct ParseState;
};

} // namespace fatomic::spirv

#endif // FATOMIC_SPIRV_MODULE_H
