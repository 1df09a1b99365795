//===- SharedRetype.cpp - The integer view of Workgroup memory: a retype --===//
//
// See SharedRetype.h: one walk per variable checks and records, apply()
// performs the record.
//
//===----------------------------------------------------------------------===//

#include "SharedRetype.h"

#include "Grammar.h"

#include <spirv/unified1/GLSL.std.450.h>

namespace fatomic::spirv {

using spv::StorageClass;

bool SharedRetype::checkVariable(uint32_t Root) {
  const std::string Var = M.describe(M.def(Root));
  const TypeFacts VarFacts = C.facts(C.pointee(C.typeOf(Root)));
  if (!VarFacts.Ok) {
    C.error(FailureKind::InvalidModule,
            Var + ": the Workgroup variable's type is not well formed (an "
                  "undefined or cyclic type, or nesting deeper than " +
                std::to_string(LoweringContext::MaxTypeDepth) + " levels)");
    return false;
  }
  // Matrices have no integer counterpart; one of another width (a dmat2
  // beside f32 atomics) keeps its type.
  if (VarFacts.MatrixWidths & Plan.SharedWidths.at(Root)) {
    C.error(FailureKind::Unsupported,
            Var + ": a Workgroup variable that holds a matrix cannot be "
                  "retyped for its float min/max atomics (a matrix has no "
                  "integer counterpart)");
    return false;
  }
  // Linked with other modules, its type is theirs as well (spirv-link
  // matches the two).
  if (M.hasDecoration(Root, spv::Decoration::LinkageAttributes)) {
    C.error(FailureKind::Unsupported,
            Var + ": a Workgroup variable linked with other modules "
                  "(LinkageAttributes) cannot be retyped for its float "
                  "min/max atomics (the other modules declare it with its "
                  "float type); link the modules first (spirv-link), then "
                  "lower");
    return false;
  }
  const InstRef VarDef = M.def(Root);
  if (M.numOperands(VarDef) > 1 && M.opOf(M.operand(VarDef, 1)) != Op::OpConstantNull) {
    C.error(FailureKind::Unsupported,
            Var + ": a Workgroup variable with an initializer other than "
                  "OpConstantNull cannot be retyped for its float min/max atomics");
    return false;
  }
  return true;
}

bool SharedRetype::plan() {
  bool Ok = true;
  for (uint32_t Root : Plan.SharedRoots) {
    if (!checkVariable(Root)) {
      Ok = false;
      continue;
    }
    Ok &= walk(Root, Changes[Root]);
  }
  return Ok;
}

bool SharedRetype::malformed(InstRef User, const char *What) {
  C.error(FailureKind::InvalidModule, M.describe(User) + ": " + What);
  return false;
}

// Every access is rewritten with value conversions: each must see the types
// the pointer says, and a whole-composite one must stay small.
bool SharedRetype::checkValue(uint32_t Root, InstRef User, uint32_t Type, uint32_t PT) {
  if (Type != PT)
    return malformed(User, "its type is not the pointee type of its pointer");
  const uint64_t Leaves = C.facts(PT).Leaves;
  const Op O = M.opOf(PT);
  if (O != Op::OpTypeFloat && O != Op::OpTypeInt && O != Op::OpTypeVector &&
      Leaves > LoweringContext::MaxConvertedLeaves) {
    C.error(FailureKind::Unsupported,
            M.describe(User) + ": copies a whole value of " + C.idName(Root) +
                " with more than " + std::to_string(LoweringContext::MaxConvertedLeaves) +
                " scalars (or of unknown length), which fatomic does not "
                "convert element by element");
    return false;
  }
  return true;
}

// Walk every pointer derived from the variable.
bool SharedRetype::walk(uint32_t Root, std::vector<Change> &Out) {
  bool Ok = true;
  std::vector<uint32_t> Work{Root};
  std::set<uint32_t> Seen{Root};
  while (!Work.empty()) {
    const uint32_t P = Work.back();
    Work.pop_back();
    const uint32_t PT = C.pointee(C.typeOf(P));
    for (const Use &U : M.uses(P))
      Ok &= visitUse(Root, U, PT, Out, Work, Seen);
  }
  return Ok;
}

// A use that the retype leaves as it is.
bool SharedRetype::keepsUse(uint32_t Root, InstRef User, uint32_t Word, uint32_t PT) {
  const bool Retyped = C.hasFloatIn(PT, Plan.SharedWidths.at(Root));
  switch (M.inst(User).Opcode) {
  case Op::OpAtomicFAddEXT:
    // Lowered as a CAS loop, or native on a leaf that keeps its type.
    return Word == 0 && (Plan.SiteOf.count(User) || !Retyped);
  case Op::OpAtomicFMinEXT:
  case Op::OpAtomicFMaxEXT:
    // Lowered (collection makes every one on a retyped float a site), or
    // native on an f16 leaf that stays.
    return Word == 0;
  case Op::OpName:
  case Op::OpDecorate:
  case Op::OpDecorateId:
  case Op::OpDecorateString:
  case Op::OpEntryPoint:
    return true;
  case Op::OpExtInst:
    // Debug information, or an operand whose pointee holds no float that
    // the retype changes (GLSL.std.450 Frexp's exponent in an integer
    // member): that pointer keeps its type.
    return isDebugOnlyUse(M, User, Word) || (Word >= 2 && !Retyped);
  case Op::OpAtomicIAdd: case Op::OpAtomicISub: case Op::OpAtomicSMin:
  case Op::OpAtomicUMin: case Op::OpAtomicSMax: case Op::OpAtomicUMax:
  case Op::OpAtomicAnd: case Op::OpAtomicOr: case Op::OpAtomicXor:
  case Op::OpAtomicIIncrement: case Op::OpAtomicIDecrement:
  case Op::OpAtomicCompareExchange:
    return !Retyped; // an integer leaf: unchanged by the retype
  default:
    return false;
  }
}

// An access through the pointer (its operand 0, or either side of a copy):
// checked, and its edit recorded.
bool SharedRetype::visitAccess(uint32_t Root, InstRef User, uint32_t PT,
                               std::vector<Change> &Out, std::vector<uint32_t> &Work,
                               std::set<uint32_t> &Seen) {
  const Inst &I = M.inst(User);
  switch (I.Opcode) {
  case Op::OpAccessChain:
  case Op::OpInBoundsAccessChain:
  case Op::OpCopyObject: {
    Out.push_back({User, Edit::Pointer});
    const InstRef RT = C.pointerTypeOf(I.ResultId);
    if (RT == Module::NoInst || StorageClass(M.operand(RT, 0)) != StorageClass::Workgroup ||
        !C.facts(M.operand(RT, 1)).Ok)
      return malformed(User, "its result is not a well-formed Workgroup pointer");
    if (Seen.insert(I.ResultId).second)
      Work.push_back(I.ResultId);
    return true;
  }
  case Op::OpLoad:
  case Op::OpAtomicLoad:
    Out.push_back({User, Edit::Result});
    return checkValue(Root, User, I.TypeId, PT);
  case Op::OpAtomicStore:
  case Op::OpAtomicExchange: {
    Out.push_back({User, I.Opcode == Op::OpAtomicStore ? Edit::Value : Edit::Result});
    bool Ok = checkValue(Root, User, C.typeOf(M.operand(User, 3)), PT);
    if (I.Opcode == Op::OpAtomicExchange && I.TypeId != PT)
      Ok = malformed(User, "its result type is not the pointee type");
    return Ok;
  }
  case Op::OpStore:
    Out.push_back({User, Edit::Value});
    return checkValue(Root, User, C.typeOf(M.operand(User, 1)), PT);
  default: { // OpCopyMemory
    Out.push_back({User, Edit::CopyMemory});
    const InstRef DT = C.pointerTypeOf(M.operand(User, 0));
    const InstRef ST = C.pointerTypeOf(M.operand(User, 1));
    if (DT == Module::NoInst || ST == Module::NoInst || M.operand(DT, 1) != M.operand(ST, 1))
      return malformed(User, "its two sides are not pointers to the same type");
    return checkValue(Root, User, M.operand(DT, 1), PT);
  }
  }
}

bool SharedRetype::visitUse(uint32_t Root, const Use &U, uint32_t PT, std::vector<Change> &Out,
                            std::vector<uint32_t> &Work, std::set<uint32_t> &Seen) {
  const InstRef User = U.User;
  switch (M.inst(User).Opcode) {
  case Op::OpAccessChain:
  case Op::OpInBoundsAccessChain:
  case Op::OpCopyObject:
  case Op::OpLoad:
  case Op::OpAtomicLoad:
  case Op::OpAtomicStore:
  case Op::OpAtomicExchange:
  case Op::OpStore:
    if (U.Word == 0)
      return visitAccess(Root, User, PT, Out, Work, Seen);
    break;
  case Op::OpCopyMemory:
    return visitAccess(Root, User, PT, Out, Work, Seen);
  case Op::OpExtInst:
    if (keepsUse(Root, User, U.Word, PT))
      return true;
    if (!isModfOut(User, U.Word))
      return unsupportedUse(Root, User);
    Out.push_back({User, Edit::Modf});
    return checkValue(Root, User, M.inst(User).TypeId, PT);
  case Op::OpFunctionCall:
    C.error(FailureKind::UntraceablePointer,
            M.describe(User) + ": passes Workgroup variable " + C.idName(Root) +
                " to a function; " + InlineFirstAdvice);
    return false;
  default:
    if (keepsUse(Root, User, U.Word, PT))
      return true;
    break;
  }
  return unsupportedUse(Root, User);
}

bool SharedRetype::unsupportedUse(uint32_t Root, InstRef User) {
  if (!Reported.insert(User).second)
    return false;
  C.error(FailureKind::Unsupported,
          M.describe(User) + ": uses Workgroup variable " + C.idName(Root) +
              ", which is retyped to integers for its float min/max "
              "atomics, in a way fatomic cannot rewrite");
  return false;
}

bool SharedRetype::checkPaths() {
  // The variable's type was checked by plan().
  for (const Site &S : Plan.Sites)
    if (S.Kind == MemKind::SharedRetype &&
        !walkTypePath(C, C.pointee(C.typeOf(S.Root)), S, S.Atomic, nullptr))
      return false;
  return true;
}

// ---------------------------------------------------------------------------
// Apply.  No reference into the instruction table is held across a create().
// ---------------------------------------------------------------------------

void SharedRetype::retypeVariable(uint32_t Root) {
  const InstRef VarDef = M.def(Root);
  const uint32_t NewPointee =
      Types.cloneFloats(C.pointee(C.typeOf(Root)), Plan.SharedWidths.at(Root));
  const uint32_t NewPtrType = M.typePointer(StorageClass::Workgroup, NewPointee);
  M.setType(VarDef, NewPtrType);
  if (M.numOperands(VarDef) > 1) {
    const uint32_t Null = M.addGlobal(Op::OpConstantNull, NewPointee, {});
    M.setOperand(VarDef, 1, Null);
  }
  // The variable moves after its new types.
  moveGlobalToEnd(M, VarDef);
}

void SharedRetype::convertResult(InstRef R, uint32_t NewPT) {
  const uint32_t OldType = M.inst(R).TypeId, OldResult = M.inst(R).ResultId;
  if (OldType == NewPT)
    return;
  const uint32_t Fresh = M.newId();
  M.setType(R, NewPT);
  M.setResult(R, Fresh);
  if (M.inst(R).Opcode == Op::OpAtomicExchange) {
    std::vector<InstRef> Before;
    const uint32_t V = M.operand(R, 3);
    const uint32_t Conv = convertValue(M, Before, V, OldType, NewPT, 0);
    M.setOperand(R, 3, Conv);
    Edits.InsertBefore[R] = std::move(Before);
  }
  std::vector<InstRef> After;
  convertValue(M, After, Fresh, NewPT, OldType, OldResult);
  Edits.InsertAfter[R] = std::move(After);
}

void SharedRetype::convertStored(InstRef R, uint32_t NewPT) {
  const uint32_t ValWord = M.inst(R).Opcode == Op::OpStore ? 1 : 3;
  const uint32_t V = M.operand(R, ValWord);
  const uint32_t VT = C.typeOf(V);
  if (VT == NewPT)
    return;
  std::vector<InstRef> Before;
  const uint32_t Conv = convertValue(M, Before, V, VT, NewPT, 0);
  M.setOperand(R, ValWord, Conv);
  Edits.InsertBefore[R] = std::move(Before);
}

bool SharedRetype::isModfOut(InstRef User, uint32_t Word) const {
  // Operands: the set, the instruction, x, the pointer.
  if (Word != 3 || M.numOperands(User) != 4 || M.operand(User, 1) != GLSLstd450Modf)
    return false;
  const InstRef Set = M.def(M.operand(User, 0));
  return Set != Module::NoInst && M.inst(Set).Opcode == Op::OpExtInstImport &&
         M.stringOperand(Set, 0) == "GLSL.std.450";
}

// Modf writes the whole part through its pointer, now to integers: the same
// through ModfStruct, whose members are the fractional part (the result)
// and the whole part (stored, converted).
void SharedRetype::convertModf(InstRef R) {
  const uint32_t T = M.inst(R).TypeId, Result = M.inst(R).ResultId;
  const uint32_t Set = M.operand(R, 0), X = M.operand(R, 2), Ptr = M.operand(R, 3);
  const uint32_t NewPT = C.pointee(C.typeOf(Ptr));
  uint32_t &Struct = ModfStructOf[T];
  if (!Struct)
    Struct = M.addType(Op::OpTypeStruct, {T, T});
  std::vector<InstRef> Seq;
  const uint32_t Both = M.newId(), Whole = M.newId();
  Seq.push_back(M.create(Op::OpExtInst, Struct, Both, {Set, GLSLstd450ModfStruct, X}));
  Seq.push_back(M.create(Op::OpCompositeExtract, T, Whole, {Both, 1}));
  const uint32_t Stored = convertValue(M, Seq, Whole, T, NewPT, 0);
  Seq.push_back(M.create(Op::OpStore, 0, 0, {Ptr, Stored}));
  Seq.push_back(M.create(Op::OpCompositeExtract, T, Result, {Both, 0}));
  Edits.InsertBefore[R] = std::move(Seq);
  Edits.Dropped.insert(R);
}

void SharedRetype::applyChange(uint32_t Root, const Change &Ch) {
  const InstRef R = Ch.Inst;
  switch (Ch.What) {
  case Edit::Pointer: {
    const uint32_t Retyped =
        Types.cloneFloats(C.pointee(M.inst(R).TypeId), Plan.SharedWidths.at(Root));
    const uint32_t PtrType = M.typePointer(StorageClass::Workgroup, Retyped);
    M.setType(R, PtrType);
    return;
  }
  case Edit::Result:
    return convertResult(R, C.pointee(C.typeOf(M.operand(R, 0))));
  case Edit::Value:
    return convertStored(R, C.pointee(C.typeOf(M.operand(R, 0))));
  case Edit::CopyMemory:
    CopyMemories.insert(R);
    return;
  case Edit::Modf:
    return convertModf(R);
  }
}

void SharedRetype::apply() {
  for (const auto &[Root, List] : Changes) {
    retypeVariable(Root);
    for (const Change &Ch : List)
      applyChange(Root, Ch);
  }
}

namespace {
/// One memory-operand mask, bit by bit in ascending order, each bit with
/// its parameter words.
using MemoryOperandBits = std::vector<std::pair<uint32_t, std::vector<uint32_t>>>;

/// Reads the memory-operand mask at operand word \p At of \p R and the
/// parameters its bits take (in bit order, as many as the grammar gives
/// each); \p At moves past them.
MemoryOperandBits readMemoryOperands(const Module &M, InstRef R, uint32_t &At) {
  MemoryOperandBits Bits;
  const uint32_t N = M.numOperands(R), Mask = M.operand(R, At++);
  for (uint32_t B = 0; B < 32; ++B) {
    const uint32_t Bit = uint32_t{1} << B;
    if (!(Mask & Bit))
      continue;
    std::vector<uint32_t> Params;
    for (unsigned P = grammar::enumerantParameters("MemoryAccess", Bit); P && At < N; --P)
      Params.push_back(M.operand(R, At++));
    Bits.emplace_back(Bit, std::move(Params));
  }
  return Bits;
}

/// \p Bits as operand words (a mask and its parameters), without \p Drop;
/// none for an empty mask.
std::vector<uint32_t> memoryOperandWords(const MemoryOperandBits &Bits, spv::MemoryAccessMask Drop) {
  uint32_t Mask = 0;
  std::vector<uint32_t> Params;
  for (const auto &[Bit, P] : Bits)
    if (Bit != uint32_t(Drop)) {
      Mask |= Bit;
      Params.insert(Params.end(), P.begin(), P.end());
    }
  if (!Mask)
    return {};
  std::vector<uint32_t> Words{Mask};
  Words.insert(Words.end(), Params.begin(), Params.end());
  return Words;
}
} // namespace

// OpCopyMemory whose two sides now differ: load, convert, store.  The
// copy's memory operands go with them: one mask applies to both sides, two
// to the target and the source (SPIR-V, OpCopyMemory); a load cannot make
// its pointer available, nor a store its pointer visible.
void SharedRetype::splitCopies() {
  for (InstRef R : CopyMemories) {
    const uint32_t Dst = M.operand(R, 0), Src = M.operand(R, 1);
    const uint32_t DT = C.pointee(C.typeOf(Dst)), ST = C.pointee(C.typeOf(Src));
    if (DT == ST)
      continue;
    uint32_t At = 2;
    MemoryOperandBits TargetBits, SourceBits;
    if (At < M.numOperands(R))
      TargetBits = readMemoryOperands(M, R, At);
    SourceBits = At < M.numOperands(R) ? readMemoryOperands(M, R, At) : TargetBits;
    std::vector<uint32_t> LoadOps{Src}, StoreOps{Dst};
    for (uint32_t W : memoryOperandWords(SourceBits, spv::MemoryAccessMask::MakePointerAvailable))
      LoadOps.push_back(W);
    std::vector<InstRef> Seq;
    const uint32_t L = M.newId();
    Seq.push_back(M.create(Op::OpLoad, ST, L, LoadOps));
    StoreOps.push_back(convertValue(M, Seq, L, ST, DT, 0));
    for (uint32_t W : memoryOperandWords(TargetBits, spv::MemoryAccessMask::MakePointerVisible))
      StoreOps.push_back(W);
    Seq.push_back(M.create(Op::OpStore, 0, 0, StoreOps));
    Edits.InsertBefore[R] = std::move(Seq);
    Edits.Dropped.insert(R);
  }
}

} // namespace fatomic::spirv
