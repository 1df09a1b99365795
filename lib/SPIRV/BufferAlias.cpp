//===- BufferAlias.cpp - The integer view of a buffer: an alias variable --===//
//
// See BufferAlias.h.  Recorded by plan(), applied by apply(): the clones
// follow the recorded path only.
//
//===----------------------------------------------------------------------===//

#include "BufferAlias.h"

#include <algorithm>

namespace fatomic::spirv {

using spv::StorageClass;

bool BufferAlias::plan() {
  bool Ok = true;
  for (auto &[Root, Indices] : Plan.BufferRoots) {
    // spirv-link matches a linked variable's decorations with the other
    // modules' declarations, which have no Aliased and keep Restrict.
    if (M.hasDecoration(Root, spv::Decoration::LinkageAttributes)) {
      C.error(FailureKind::Unsupported,
              M.describe(M.def(Root)) +
                  ": a buffer variable linked with other modules "
                  "(LinkageAttributes) cannot take the integer alias of its "
                  "float min/max atomics (it would be Aliased, as the other "
                  "modules do not declare it); link the modules first "
                  "(spirv-link), then lower");
      Ok = false;
      continue;
    }
    for (size_t I : Indices) {
      const Site &S = Plan.Sites[I];
      if (!walkTypePath(C, C.pointee(C.typeOf(Root)), S, S.Atomic, &OnPath))
        Ok = false;
    }
  }
  return Ok;
}

uint32_t BufferAlias::cloneOnPath(uint32_t T) {
  if (auto It = PathClones.find(T); It != PathClones.end())
    return It->second;
  const Op O = M.opOf(T);
  const bool OnThePath = O == Op::OpTypeStruct
                             ? OnPath.Members.lower_bound({T, 0}) != OnPath.Members.end() &&
                                   OnPath.Members.lower_bound({T, 0})->first == T
                             : OnPath.Types.count(T) != 0;
  uint32_t New = T;
  if (OnThePath)
    New = Types.cloneAggregate(
        T, [this](uint32_t E) { return cloneOnPath(E); },
        [this](uint32_t S, uint32_t K) { return OnPath.Members.count({S, K}) != 0; });
  PathClones[T] = New;
  return New;
}

// The alias variables make Restrict false on the buffer variables they alias
// and on the struct members their atomics reach: those decorations go.
// (Aliased is added to a variable that has no Aliased.)
void BufferAlias::dropFalseRestrict() {
  auto &Annotations = M.section(Section::Annotation);
  const auto False = [&](InstRef R) {
    if (!isRestrict(M, R))
      return false;
    const uint32_t Target = M.operand(R, 0);
    if (M.inst(R).Opcode == Op::OpMemberDecorate)
      return OnPath.Members.count({Target, M.operand(R, 1)}) != 0;
    return Plan.BufferRoots.count(Target) != 0;
  };
  Annotations.erase(std::remove_if(Annotations.begin(), Annotations.end(), False),
                    Annotations.end());
}

void BufferAlias::copyVariableDecorations(uint32_t Root, uint32_t Alias) {
  for (InstRef R : M.decorationsOf(Root)) {
    const Inst &I = M.inst(R);
    if (I.Opcode != Op::OpDecorate || isRestrict(M, R))
      continue;
    std::vector<uint32_t> Ops(M.operands(R), M.operands(R) + I.Count);
    Ops[0] = Alias;
    M.section(Section::Annotation).push_back(M.create(Op::OpDecorate, 0, 0, Ops));
  }
  if (!M.hasDecoration(Root, spv::Decoration::Aliased)) {
    M.addDecoration(Root, spv::Decoration::Aliased);
    M.addDecoration(Alias, spv::Decoration::Aliased);
  }
}

void BufferAlias::apply() {
  dropFalseRestrict();
  for (auto &[Root, Indices] : Plan.BufferRoots) {
    const uint32_t RootPtrType = C.typeOf(Root);
    const StorageClass SC = C.pointerClass(RootPtrType);
    const uint32_t AliasPointee = cloneOnPath(C.pointee(RootPtrType));
    const uint32_t AliasPtrType = M.typePointer(SC, AliasPointee);
    const uint32_t Alias =
        M.addGlobal(Op::OpVariable, AliasPtrType, {uint32_t(SC)});
    copyVariableDecorations(Root, Alias);
    M.listWhereListed(Root, Alias);
    for (size_t I : Indices)
      Plan.Sites[I].Root = Alias; // the chain is rebuilt on the alias per site
  }
}

} // namespace fatomic::spirv
