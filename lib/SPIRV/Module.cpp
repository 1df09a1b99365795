//===- Module.cpp - A compact SPIR-V module for lowering passes -----------===//
//
// Owns the module IR's storage and edits: the operand arena, create() with
// the grammar's id words, emit(), the use lists and their edit epoch,
// de-duplicated types and constants, and the queries on capabilities,
// extensions and decorations.  Parsing is in
// ModuleParse.cpp.
//
//===----------------------------------------------------------------------===//

#include "Module.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>

namespace fatomic::spirv {

std::string Module::stringOperand(InstRef R, uint32_t I) const {
  std::string Out;
  const Inst &In = Insts[R];
  const uint32_t *Ops = operands(R);
  for (uint32_t W = I; W < In.Count; ++W) {
    uint32_t V = Ops[W];
    for (int B = 0; B < 4; ++B) {
      char C = char((V >> (8 * B)) & 0xFF);
      if (!C)
        return Out;
      Out.push_back(C);
    }
  }
  return Out;
}

uint32_t OperandArena::allocate(uint32_t N) {
  if (Chunks.empty() || Used >= ChunkWords || Cap - Used < N) {
    Cap = std::max(ChunkWords, N);
    Chunks.emplace_back(new uint32_t[Cap]);
    Used = 0;
  }
  const uint32_t Loc = (uint32_t(Chunks.size() - 1) << 16) | Used;
  Used += N;
  return Loc;
}

bool Module::isIdWord(InstRef R, uint32_t W) const {
  const Inst &I = Insts[R];
  if (W >= I.Count)
    return false;
  if (W < 64)
    return (I.IdMask >> W) & 1;
  if (!I.IdTail)
    return false;
  const auto It = WideIdWords.find(R);
  const uint32_t K = (W - 64) / 64;
  return It != WideIdWords.end() && K < It->second.size() &&
         ((It->second[K] >> ((W - 64) % 64)) & 1);
}

grammar::IdWords Module::grammarIdWords(Op Opcode, const uint32_t *Ops,
                                        uint32_t N) const {
  grammar::OperandContext C;
  const InstRef D = N > 0 ? def(Ops[0]) : NoInst;
  if (Opcode == Op::OpExtInst && D != NoInst &&
      Insts[D].Opcode == Op::OpExtInstImport)
    C.ExtSet = grammar::extInstSet(stringOperand(D, 0));
  else if (Opcode == Op::OpSwitch && D != NoInst &&
           scalarWidth(Insts[D].TypeId) == 64)
    C.SwitchLiteralWords = 2;
  return grammar::idWords(Opcode, Ops, N, C);
}

InstRef Module::store(Op Opcode, uint32_t TypeId, uint32_t ResultId,
                      const uint32_t *First, const uint32_t *Last,
                      const grammar::IdWords &Ids) {
  Inst I;
  I.Opcode = Opcode;
  I.TypeId = TypeId;
  I.ResultId = ResultId;
  I.Count = uint32_t(Last - First);
  I.Begin = Arena.allocate(I.Count);
  std::copy(First, Last, Arena.at(I.Begin));
  I.IdMask = Ids.low();
  const InstRef R = InstRef(Insts.size());
  if (Ids.anyHigh()) {
    I.IdTail = true;
    WideIdWords[R] = Ids.high();
  }
  Insts.push_back(I);
  if (ResultId)
    DefOf[ResultId] = R;
  // A new instruction that names ids adds uses (once placed).
  if (TypeId || I.IdMask || I.IdTail)
    ++Epoch;
  return R;
}

InstRef Module::createFromGrammar(Op Opcode, uint32_t TypeId, uint32_t ResultId,
                                  const uint32_t *First, const uint32_t *Last) {
  return store(Opcode, TypeId, ResultId, First, Last,
               grammarIdWords(Opcode, First, uint32_t(Last - First)));
}

InstRef Module::create(Op Opcode, uint32_t TypeId, uint32_t ResultId,
                       std::initializer_list<uint32_t> Operands) {
  return createFromGrammar(Opcode, TypeId, ResultId, Operands.begin(), Operands.end());
}

InstRef Module::create(Op Opcode, uint32_t TypeId, uint32_t ResultId,
                       const std::vector<uint32_t> &Operands) {
  return createFromGrammar(Opcode, TypeId, ResultId, Operands.data(),
                           Operands.data() + Operands.size());
}

std::vector<uint32_t> Module::emit() const {
  size_t Size = 5;
  auto Count = [&](InstRef R) {
    const Inst &I = Insts[R];
    Size += 1 + (I.TypeId ? 1 : 0) + (I.ResultId ? 1 : 0) + I.Count;
  };
  forEachPlaced(Count);
  std::vector<uint32_t> Out(Size);
  uint32_t *P = Out.data();
  for (uint32_t W : {spv::MagicNumber, Version, Generator, Bound, Schema})
    *P++ = W;
  auto Put = [&](InstRef R) {
    const Inst &I = Insts[R];
    const uint32_t N = 1 + (I.TypeId ? 1 : 0) + (I.ResultId ? 1 : 0) + I.Count;
    *P++ = (N << 16) | uint32_t(I.Opcode);
    if (I.TypeId)
      *P++ = I.TypeId;
    if (I.ResultId)
      *P++ = I.ResultId;
    P = std::copy_n(Arena.at(I.Begin), I.Count, P);
  };
  forEachPlaced(Put);
  return Out;
}

void Module::reserve(size_t NumInsts, size_t NumWords) {
  Insts.reserve(Insts.size() + NumInsts);
  Arena.reserveChunks(NumWords);
}

// ---- uses ------------------------------------------------------------------

void Module::buildUses() {
  UseBegin.assign(size_t(Bound) + 1, 0);
  auto ForEachId = [this](InstRef R, auto &&Fn) {
    const Inst &I = Insts[R];
    if (I.TypeId)
      Fn(I.TypeId, ~0u);
    const uint32_t *Ops = Arena.at(I.Begin);
    for (uint64_t Mask = I.IdMask; Mask; Mask &= Mask - 1) {
      const uint32_t W = uint32_t(__builtin_ctzll(Mask));
      if (W < I.Count)
        Fn(Ops[W], W);
    }
    if (I.IdTail)
      for (uint32_t W = 64; W < I.Count; ++W)
        if (isIdWord(R, W))
          Fn(Ops[W], W);
  };
  // Only placed instructions count.
  forEachPlaced([&](InstRef R) {
    ForEachId(R, [&](uint32_t Id, uint32_t) {
      if (Id < Bound)
        ++UseBegin[Id + 1];
    });
  });
  for (size_t I = 1; I < UseBegin.size(); ++I)
    UseBegin[I] += UseBegin[I - 1];
  UseList.assign(UseBegin.back(), Use{});
  std::vector<uint32_t> Fill(UseBegin.begin(), UseBegin.end() - 1);
  forEachPlaced([&](InstRef R) {
    ForEachId(R, [&](uint32_t Id, uint32_t W) {
      if (Id < Bound)
        UseList[Fill[Id]++] = Use{R, W};
    });
  });
  UsesEpoch = Epoch;
}

UseRange Module::uses(uint32_t Id) const {
  assert(UsesEpoch == Epoch &&
         "use lists are stale: an edit came after buildUses()");
  assert(Id + 1 < UseBegin.size() &&
         "uses() of an id created after buildUses()");
  if (Id + 1 >= UseBegin.size())
    return {};
  return {UseList.data() + UseBegin[Id], UseList.data() + UseBegin[Id + 1]};
}

// ---- types and constants ---------------------------------------------------

uint64_t Module::keyHash(Op Opcode, uint32_t TypeId, const uint32_t *Ops,
                         uint32_t N) const {
  uint64_t H = 1469598103934665603ull ^ uint64_t(Opcode);
  auto Mix = [&H](uint64_t V) { H = (H ^ V) * 1099511628211ull; };
  Mix(TypeId);
  for (uint32_t I = 0; I < N; ++I)
    Mix(Ops[I]);
  return H;
}

void Module::buildTypeConstIndex() {
  for (InstRef R : section(Section::Global)) {
    const Inst &I = Insts[R];
    switch (I.Opcode) {
    case Op::OpTypeBool:
    case Op::OpTypeInt:
    case Op::OpTypeVector:
    case Op::OpTypePointer:
    case Op::OpTypeImage:
    case Op::OpTypeFunction:
    case Op::OpConstant:
    case Op::OpConstantTrue:
    case Op::OpConstantFalse:
      // Candidates for sharing; findOrAdd passes over decorated pointers
      // and constants.
      TypeConstIndex.emplace(keyHash(I.Opcode, I.TypeId, Arena.at(I.Begin), I.Count),
                             I.ResultId);
      break;
    default:
      break;
    }
  }
  IndexBuilt = true;
}

uint32_t Module::findOrAdd(Op Opcode, uint32_t TypeId, const uint32_t *Ops,
                           uint32_t N) {
  if (!IndexBuilt)
    buildTypeConstIndex();
  const uint64_t H = keyHash(Opcode, TypeId, Ops, N);
  auto [Lo, Hi] = TypeConstIndex.equal_range(H);
  for (auto It = Lo; It != Hi; ++It) {
    const InstRef R = def(It->second);
    const Inst &I = Insts[R];
    // A decorated pointer or constant has a meaning of its own (ArrayStride,
    // SpecId...); bool, integer and vector types must be unique in a module,
    // decorated or not.
    const bool MustBeUnique = Opcode == Op::OpTypeBool ||
                              Opcode == Op::OpTypeInt ||
                              Opcode == Op::OpTypeVector;
    if (I.Opcode == Opcode && I.TypeId == TypeId && I.Count == N &&
        std::equal(Ops, Ops + N, Arena.at(I.Begin)) &&
        (MustBeUnique || !isDecorated(I.ResultId)))
      return I.ResultId;
  }
  const uint32_t Id = newId();
  section(Section::Global).push_back(createFromGrammar(Opcode, TypeId, Id, Ops, Ops + N));
  TypeConstIndex.emplace(H, Id);
  return Id;
}

uint32_t Module::typeBool() { return findOrAdd(Op::OpTypeBool, 0, {}); }

uint32_t Module::typeInt(uint32_t Width, bool Signed) {
  return findOrAdd(Op::OpTypeInt, 0, {Width, Signed ? 1u : 0u});
}

uint32_t Module::typeVector(uint32_t Component, uint32_t Count) {
  return findOrAdd(Op::OpTypeVector, 0, {Component, Count});
}

uint32_t Module::typePointer(spv::StorageClass SC, uint32_t Pointee) {
  return findOrAdd(Op::OpTypePointer, 0, {uint32_t(SC), Pointee});
}

uint32_t Module::typeImage(const std::vector<uint32_t> &Operands) {
  return findOrAdd(Op::OpTypeImage, 0, Operands.data(), uint32_t(Operands.size()));
}

uint32_t Module::typeFunction(uint32_t Return, const std::vector<uint32_t> &Params) {
  std::vector<uint32_t> Ops{Return};
  Ops.insert(Ops.end(), Params.begin(), Params.end());
  return findOrAdd(Op::OpTypeFunction, 0, Ops.data(), uint32_t(Ops.size()));
}

uint32_t Module::constantInt(uint32_t IntType, uint64_t Value) {
  if (scalarWidth(IntType) == 64)
    return findOrAdd(Op::OpConstant, IntType,
                     {uint32_t(Value), uint32_t(Value >> 32)});
  return findOrAdd(Op::OpConstant, IntType, {uint32_t(Value)});
}

uint32_t Module::addType(Op Opcode, const std::vector<uint32_t> &Operands) {
  const uint32_t Id = newId();
  section(Section::Global).push_back(create(Opcode, 0, Id, Operands));
  return Id;
}

uint32_t Module::addGlobal(Op Opcode, uint32_t TypeId,
                           std::initializer_list<uint32_t> Operands) {
  const uint32_t Id = newId();
  section(Section::Global).push_back(create(Opcode, TypeId, Id, Operands));
  return Id;
}

// ---- queries -----------------------------------------------------------------

bool Module::hasCapability(spv::Capability C) const {
  for (InstRef R : section(Section::Capability))
    if (operand(R, 0) == uint32_t(C))
      return true;
  return false;
}

bool Module::declaresCapability(spv::Capability C) const {
  std::vector<spv::Capability> Work;
  for (InstRef R : section(Section::Capability))
    Work.push_back(spv::Capability(operand(R, 0)));
  std::set<spv::Capability> Seen;
  while (!Work.empty()) {
    const spv::Capability D = Work.back();
    Work.pop_back();
    if (D == C)
      return true;
    if (!Seen.insert(D).second)
      continue;
    for (spv::Capability I : grammar::impliedCapabilities(D))
      Work.push_back(I);
  }
  return false;
}

void Module::addCapability(spv::Capability C) {
  if (!hasCapability(C))
    section(Section::Capability).push_back(create(Op::OpCapability, 0, 0, {uint32_t(C)}));
}

void Module::removeCapability(spv::Capability C) {
  auto &S = section(Section::Capability);
  S.erase(std::remove_if(S.begin(), S.end(),
                         [&](InstRef R) { return operand(R, 0) == uint32_t(C); }),
          S.end());
}

bool Module::hasExtension(const std::string &Name) const {
  for (InstRef R : section(Section::Extension))
    if (stringOperand(R, 0) == Name)
      return true;
  return false;
}

void Module::removeExtension(const std::string &Name) {
  auto &S = section(Section::Extension);
  S.erase(std::remove_if(S.begin(), S.end(),
                         [&](InstRef R) { return stringOperand(R, 0) == Name; }),
          S.end());
}

void Module::indexDecorations() const {
  const std::vector<InstRef> &Annotations = section(Section::Annotation);
  if (Annotations.size() < DecoIndexed) {
    DecoIndex.clear();
    DecoIndexed = 0;
  }
  for (; DecoIndexed < Annotations.size(); ++DecoIndexed) {
    const InstRef R = Annotations[DecoIndexed];
    const Inst &I = Insts[R];
    if ((I.Opcode == Op::OpDecorate || I.Opcode == Op::OpDecorateId ||
         I.Opcode == Op::OpMemberDecorate || I.Opcode == Op::OpDecorateString ||
         I.Opcode == Op::OpMemberDecorateString) &&
        I.Count > 0)
      DecoIndex[operand(R, 0)].push_back(R);
  }
}

std::vector<InstRef> Module::decorationsOf(uint32_t Id) const {
  indexDecorations();
  const auto It = DecoIndex.find(Id);
  return It == DecoIndex.end() ? std::vector<InstRef>{} : It->second;
}

bool Module::isDecorated(uint32_t Id) const {
  indexDecorations();
  return DecoIndex.count(Id) != 0;
}

bool Module::hasDecoration(uint32_t Id, spv::Decoration D) const {
  indexDecorations();
  const auto It = DecoIndex.find(Id);
  if (It == DecoIndex.end())
    return false;
  for (InstRef R : It->second) {
    const Inst &I = Insts[R];
    if (I.Opcode == Op::OpDecorate && I.Count >= 2 && operand(R, 1) == uint32_t(D))
      return true;
  }
  return false;
}

namespace {

bool isDecorateOp(Op O) {
  return O == Op::OpDecorate || O == Op::OpDecorateId || O == Op::OpDecorateString ||
         O == Op::OpMemberDecorate || O == Op::OpMemberDecorateString;
}

} // namespace

void Module::flattenDecorationGroups() {
  std::vector<InstRef> &Annotations = section(Section::Annotation);
  std::unordered_map<uint32_t, std::vector<InstRef>> Group; // id -> decorations
  for (InstRef R : Annotations)
    if (Insts[R].Opcode == Op::OpDecorationGroup)
      Group[Insts[R].ResultId];
  if (Group.empty())
    return;
  for (InstRef R : Annotations)
    if (isDecorateOp(Insts[R].Opcode) && Insts[R].Count > 0)
      if (auto It = Group.find(operand(R, 0)); It != Group.end())
        It->second.push_back(R);
  std::vector<InstRef> Out;
  std::vector<uint32_t> Ops;
  // What the groups write out, once each: a group may carry one decoration
  // twice, or be applied to one target twice, and a target must not get a
  // decoration twice.
  std::set<std::pair<Op, std::vector<uint32_t>>> Written;
  for (InstRef R : Annotations) {
    const Op O = Insts[R].Opcode;
    const uint32_t N = Insts[R].Count;
    if (O == Op::OpDecorationGroup || (isDecorateOp(O) && N > 0 && Group.count(operand(R, 0))))
      continue;
    if ((O != Op::OpGroupDecorate && O != Op::OpGroupMemberDecorate) || N == 0) {
      Out.push_back(R);
      continue;
    }
    const bool Member = O == Op::OpGroupMemberDecorate;
    for (uint32_t K = 1; K + (Member ? 1 : 0) < N; K += Member ? 2 : 1)
      for (InstRef D : Group[operand(R, 0)]) {
        const Inst &I = Insts[D];
        Ops.assign(operands(D), operands(D) + I.Count);
        Ops[0] = operand(R, K);
        Op NewOp = I.Opcode;
        if (Member) {
          if (I.Opcode != Op::OpDecorate && I.Opcode != Op::OpDecorateString)
            continue; // OpDecorateId has no member form
          NewOp = I.Opcode == Op::OpDecorate ? Op::OpMemberDecorate : Op::OpMemberDecorateString;
          Ops.insert(Ops.begin() + 1, operand(R, K + 1));
        }
        if (Written.insert({NewOp, Ops}).second)
          Out.push_back(create(NewOp, 0, 0, Ops));
      }
  }
  Annotations = std::move(Out);
  ++Epoch;
  DecoIndex.clear();
  DecoIndexed = 0;
  std::vector<InstRef> &Debug = section(Section::Debug);
  Debug.erase(std::remove_if(Debug.begin(), Debug.end(),
                             [&](InstRef R) {
                               const Op O = Insts[R].Opcode;
                               return (O == Op::OpName || O == Op::OpMemberName) &&
                                      Insts[R].Count > 0 && Group.count(operand(R, 0));
                             }),
              Debug.end());
}

void Module::addDecoration(uint32_t Id, spv::Decoration D,
                           std::initializer_list<uint32_t> Literals) {
  std::vector<uint32_t> Ops{Id, uint32_t(D)};
  Ops.insert(Ops.end(), Literals.begin(), Literals.end());
  section(Section::Annotation).push_back(create(Op::OpDecorate, 0, 0, Ops));
}

void Module::listWhereListed(uint32_t Listed, uint32_t Added) {
  // SPIR-V 1.4+ lists every global an entry point uses.
  if (version() < 0x00010400)
    return;
  for (InstRef &R : section(Section::EntryPoint)) {
    const Inst &I = inst(R);
    const std::string Name = stringOperand(R, 2);
    const uint32_t First = 2 + uint32_t(Name.size() / 4 + 1);
    bool Found = false;
    for (uint32_t K = First; K < I.Count; ++K)
      Found |= operand(R, K) == Listed;
    if (!Found)
      continue;
    std::vector<uint32_t> Ops(operands(R), operands(R) + I.Count);
    Ops.push_back(Added);
    R = create(Op::OpEntryPoint, 0, 0, Ops);
  }
}

uint32_t Module::scalarWidth(uint32_t TypeId) const {
  const InstRef R = def(TypeId);
  if (R == NoInst)
    return 0;
  const Inst &I = Insts[R];
  if (I.Opcode == Op::OpTypeInt || I.Opcode == Op::OpTypeFloat)
    return operand(R, 0);
  return 0;
}

std::string Module::nameOf(uint32_t Id) const {
  for (InstRef R : section(Section::Debug))
    if (Insts[R].Opcode == Op::OpName && operand(R, 0) == Id)
      return stringOperand(R, 1);
  return {};
}

bool Module::isNonSemanticSet(uint32_t SetId) const {
  const InstRef D = def(SetId);
  return D != NoInst && Insts[D].Opcode == Op::OpExtInstImport &&
         stringOperand(D, 0).rfind("NonSemantic.", 0) == 0;
}

std::string Module::describe(InstRef R) const {
  const Inst &I = Insts[R];
  std::string S;
  if (I.ResultId) {
    S += "%" + std::to_string(I.ResultId);
    const std::string N = nameOf(I.ResultId);
    if (!N.empty())
      S += " (\"" + N + "\")";
    S += " = ";
  }
  S += "Op";
  S += spvOpcodeString(uint32_t(I.Opcode));
  return S;
}

} // namespace fatomic::spirv
