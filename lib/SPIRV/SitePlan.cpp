//===- SitePlan.cpp - The float atomics to lower, and their memory --------===//
//
// Collection of the sites (SitePlan.h): the pointer-chain walk, the pointer
// selects, the checks of each atomic, the memory's roots and the writer
// proof.  Nothing here changes the module but the pointer selects, which
// become access chains before anything else is looked at.
//
//===----------------------------------------------------------------------===//

#include "SitePlan.h"

#include "BarrierOrder.h"
#include "Grammar.h"
#include "ResultUse.h"
#include "Semantics.h"
#include "WriterAnalysis.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

namespace fatomic::spirv {

using spv::StorageClass;

namespace {
/// "TaskPayloadWorkgroupEXT", or the number where the grammar has no name.
std::string storageClassName(StorageClass SC) {
  const char *Name = grammar::enumerantName("StorageClass", uint32_t(SC));
  return *Name ? std::string(Name) : std::to_string(uint32_t(SC));
}
} // namespace

bool SitePlanner::traceRoot(InstRef Atomic, uint32_t Ptr, Site &S) {
  const InstRef PtrType = C.pointerTypeOf(Ptr);
  if (PtrType == Module::NoInst) {
    C.error(FailureKind::InvalidModule,
            "pointer %" + std::to_string(Ptr) + " of " + M.describe(Atomic) +
                " is not a pointer");
    return false;
  }
  ChainWalk W = walkPointerChain(C, Ptr, StorageClass(M.operand(PtrType, 0)));
  S.NonUniform |= W.NonUniform;
  if (W.Stop != ChainWalk::End::Variable) {
    chainError(Atomic, W);
    return false;
  }
  S.Chain = std::move(W.Chain);
  S.Root = W.Id;
  if (S.Kind == MemKind::SharedRetype) {
    // Retyping moves the variable within the globals.
    const auto &Globals = M.section(Section::Global);
    if (std::find(Globals.begin(), Globals.end(), W.Def) == Globals.end()) {
      C.error(FailureKind::InvalidModule,
              M.describe(W.Def) + ": a Workgroup variable inside a function");
      return false;
    }
  }
  return true;
}

void SitePlanner::chainError(InstRef Atomic, const ChainWalk &W) {
  if (W.Stop == ChainWalk::End::NoDefinition) {
    C.error(FailureKind::InvalidModule, "pointer %" + std::to_string(W.Id) + " of " +
                                            M.describe(Atomic) + " has no definition");
    return;
  }
  const std::string From = "the pointer of " + M.describe(Atomic) + " comes from " +
                           M.describe(W.Def);
  if (W.Stop == ChainWalk::End::NotSamePointer) {
    C.error(FailureKind::InvalidModule,
            From + ", which is not a pointer of the same storage "
                   "class (or the chain goes round in a circle)");
    return;
  }
  switch (M.inst(W.Def).Opcode) {
  case Op::OpSelect:
    reportPointerSelect(C, Atomic, W.Def);
    return;
  case Op::OpFunctionParameter:
  case Op::OpPhi:
    C.error(FailureKind::UntraceablePointer,
            From + ", so its variable is not known; " + InlineFirstAdvice);
    return;
  default:
    C.error(FailureKind::Unsupported, From + ", which fatomic cannot trace");
    return;
  }
}

// ---------------------------------------------------------------------------
// One atomic
// ---------------------------------------------------------------------------

/// The output must hold no OpBitcast of a Logical pointer, and the pass
/// copies the input's instructions: one in the input (invalid SPIR-V that
/// spirv-val 2023.1 still accepts) is refused before anything is lowered.
bool SitePlanner::noLogicalPointerBitcast() {
  for (const Function &F : M.functions())
    for (const Block &B : F.Blocks)
      for (InstRef R : B.Body) {
        const Inst &I = M.inst(R);
        if (I.Opcode != Op::OpBitcast || I.Count < 1 ||
            (!C.isLogicalPointer(I.ResultId) && !C.isLogicalPointer(M.operand(R, 0))))
          continue;
        C.error(FailureKind::InvalidModule,
                M.describe(R) + ": OpBitcast of a Logical pointer, which Logical "
                                "addressing does not allow (only PhysicalStorageBuffer "
                                "pointers may be bitcast)");
        return false;
      }
  return true;
}

/// The memory kind of an atomic on a pointer of class \p SC.
bool SitePlanner::classify(InstRef R, StorageClass SC, Site &S) {
  if (SC == StorageClass::Image) {
    S.Kind = MemKind::ImageRetype;
  } else if (!M.isLogical() || SC == StorageClass::PhysicalStorageBuffer) {
    S.Kind = MemKind::PointerCast;
  } else {
    switch (SC) {
    case StorageClass::StorageBuffer:
    case StorageClass::Uniform:
      S.Kind = MemKind::BufferAlias;
      break;
    case StorageClass::Workgroup:
      S.Kind = MemKind::SharedRetype;
      break;
    case StorageClass::Function:
    case StorageClass::Private:
      S.Kind = MemKind::Private;
      break;
    default:
      C.error(FailureKind::Unsupported,
              M.describe(R) + ": float min/max atomics in storage class " +
                  storageClassName(SC) + " are not supported");
      return false;
    }
  }
  return true;
}

bool SitePlanner::checkWidth(InstRef R, Site &S) {
  if (S.Width == 16) {
    C.error(FailureKind::Unsupported,
            M.describe(R) + ": 16-bit float atomic min/max is not supported yet "
                            "(there are no 16-bit integer atomics to lower it "
                            "to); it is left alone only when the target has it "
                            "natively (native=shaderBufferFloat16AtomicMinMax "
                            "for buffer memory, shaderSharedFloat16AtomicMinMax "
                            "for Workgroup memory, both for a Generic pointer)");
    return false;
  }
  if (S.Width != 32 && S.Width != 64) {
    C.error(FailureKind::Unsupported, M.describe(R) + ": unsupported float width " +
                                          std::to_string(S.Width));
    return false;
  }
  return true;
}

bool SitePlanner::analyzeImage(InstRef R, uint32_t Ptr, Site &S) {
  if (!C.Opts.RetypeImages) {
    C.error(FailureKind::Unsupported,
            M.describe(R) + ": float min/max on a storage image has no legal "
                            "integer alias (the view format must match the "
                            "image's sampled type); pass images=retype to "
                            "retype the image to r32ui (the application must "
                            "then create an R32_UINT view)");
    return false;
  }
  if (S.Width != 32) {
    C.error(FailureKind::Unsupported,
            M.describe(R) + ": images=retype handles 32-bit float images only "
                            "(SPIR-V has no 64-bit float image format to "
                            "retype from)");
    return false;
  }
  // The texel pointer, through copies, and the image variable behind it.
  // A valid module defines each id before its use, so a copy chain ends;
  // one that does not is a cycle of copies.
  uint32_t TP = Ptr;
  for (uint32_t Steps = 0; Steps <= M.bound() && M.opOf(TP) == Op::OpCopyObject; ++Steps)
    TP = M.operand(M.def(TP), 0);
  if (M.opOf(TP) == Op::OpCopyObject) {
    C.error(FailureKind::InvalidModule,
            "the Image pointer of " + M.describe(R) + " is copied from itself "
            "(a cycle of OpCopyObject)");
    return false;
  }
  if (M.opOf(TP) != Op::OpImageTexelPointer) {
    C.error(FailureKind::Unsupported,
            "the Image pointer of " + M.describe(R) + " does not come from "
            "OpImageTexelPointer");
    return false;
  }
  if (!traceRoot(R, M.operand(M.def(TP), 0), S))
    return false;
  if (C.pointerClass(C.typeOf(S.Root)) != StorageClass::UniformConstant) {
    C.error(FailureKind::InvalidModule,
            M.describe(R) + ": the image of its texel pointer is not a "
                            "UniformConstant variable");
    return false;
  }
  return true;
}

/// Every index is an integer value (they are passed on, e.g. to a helper);
/// Scope and Semantics are 32-bit integer values (constants, or run-time
/// values in Kernel modules, which an outlined helper takes as parameters).
bool SitePlanner::checkOperands(InstRef R, const Site &S) {
  for (InstRef AC : S.Chain)
    for (uint32_t K = 1; K < M.numOperands(AC); ++K)
      if (!C.isIntegerValue(M.operand(AC, K))) {
        C.error(FailureKind::InvalidModule,
                M.describe(AC) + ": index %" + std::to_string(M.operand(AC, K)) +
                    " is not an integer value");
        return false;
      }
  for (uint32_t K = 1; K <= 2; ++K) {
    const InstRef T = M.def(C.typeOf(M.operand(R, K)));
    if (T == Module::NoInst || M.inst(T).Opcode != Op::OpTypeInt || M.operand(T, 0) != 32) {
      C.error(FailureKind::InvalidModule,
              M.describe(R) + ": Scope or Semantics operand %" +
                  std::to_string(M.operand(R, K)) + " is not a 32-bit integer value");
      return false;
    }
  }
  return true;
}

bool SitePlanner::analyze(InstRef R, Site &S, bool EvenIfNative) {
  const Inst &I = M.inst(R);
  S.Atomic = R;
  S.Op = I.Opcode == Op::OpAtomicFMinEXT ? FloatOp::Min : FloatOp::Max;
  const InstRef TypeDef = M.def(I.TypeId);
  if (TypeDef == Module::NoInst || M.inst(TypeDef).Opcode != Op::OpTypeFloat) {
    C.error(FailureKind::Unsupported,
            M.describe(R) + ": only scalar float results are supported "
                            "(vector f16 atomics are not)");
    return false;
  }
  S.Width = M.operand(TypeDef, 0);
  const uint32_t Ptr = M.operand(R, 0);
  const uint32_t PtrType = C.typeOf(Ptr);
  if (M.opOf(PtrType) != Op::OpTypePointer) {
    C.error(FailureKind::InvalidModule, M.describe(R) + ": pointer operand is not a pointer");
    return false;
  }
  const StorageClass SC = C.pointerClass(PtrType);
  if (C.pointee(PtrType) != I.TypeId || C.typeOf(M.operand(R, 3)) != I.TypeId) {
    C.error(FailureKind::InvalidModule,
            M.describe(R) + ": the pointer's pointee type or the value's type "
                            "is not the result type");
    return false;
  }
  if (!classify(R, SC, S))
    return false;
  // Native on the target: leave it alone.
  if (!EvenIfNative && C.Target.isNativeMinMax(C.memoryClass(S.Kind, SC), S.Width))
    return false;
  if (!checkWidth(R, S))
    return false;
  if (S.Kind == MemKind::ImageRetype && !analyzeImage(R, Ptr, S))
    return false;
  if (S.Width == 64 && !C.Target.mayUseInt64Atomics(C.memoryClass(S.Kind, SC))) {
    C.error(FailureKind::TargetLacksFeature,
            M.describe(R) + ": lowering a 64-bit float atomic needs 64-bit "
                            "integer atomics, which the target (" +
                C.Target.Source + ") does not support");
    return false;
  }
  if (S.Kind == MemKind::BufferAlias || S.Kind == MemKind::SharedRetype)
    if (!traceRoot(R, Ptr, S))
      return false;
  if (!checkOperands(R, S))
    return false;
  // Early-out is legal for constant Relaxed/Acquire semantics on
  // non-volatile accesses.
  uint64_t Sem = 0;
  S.Volatile = volatileMemory(S);
  S.EarlyOutLegal = C.Opts.EarlyOut && C.constantValue(M.operand(R, 2), Sem) &&
                    earlyOutAllowed(Sem) && !S.Volatile;
  return true;
}

bool SitePlanner::volatileMember(uint32_t T, uint64_t Member) const {
  for (InstRef R : M.decorationsOf(T))
    if (M.inst(R).Opcode == Op::OpMemberDecorate && M.numOperands(R) >= 3 &&
        M.operand(R, 1) == Member &&
        M.operand(R, 2) == uint32_t(spv::Decoration::Volatile))
      return true;
  return false;
}

bool SitePlanner::volatileMemory(const Site &S) const {
  // The atomic's pointer and every pointer it is made from: a Volatile
  // kernel argument indexed by OpInBoundsPtrAccessChain has no Root here.
  if (derivesFromVolatile(M, M.operand(S.Atomic, 0)) ||
      (S.Root && M.hasDecoration(S.Root, spv::Decoration::Volatile)))
    return true;
  if (!S.Root)
    return false;
  // A Volatile member on the chain's way (glslang's `volatile` buffer
  // under the GLSL450 memory model decorates the members).
  uint32_t T = C.pointee(C.typeOf(S.Root));
  for (InstRef AC : S.Chain) {
    if (M.hasDecoration(M.inst(AC).ResultId, spv::Decoration::Volatile))
      return true;
    for (uint32_t K = 1; K < M.numOperands(AC); ++K) {
      const InstRef TD = M.def(T);
      if (TD == Module::NoInst)
        return false;
      if (M.inst(TD).Opcode != Op::OpTypeStruct) {
        if (M.numOperands(TD) == 0)
          return false;
        T = M.operand(TD, 0);
        continue;
      }
      uint64_t Member = 0;
      if (!C.constantValue(M.operand(AC, K), Member) || Member >= M.numOperands(TD))
        return false;
      if (volatileMember(T, Member))
        return true;
      T = M.operand(TD, uint32_t(Member));
    }
  }
  return false;
}

// ---------------------------------------------------------------------------
// The plan
// ---------------------------------------------------------------------------

void SitePlanner::collectRoots() {
  for (size_t I = 0; I < Plan.Sites.size(); ++I) {
    const Site &S = Plan.Sites[I];
    if (S.Kind == MemKind::BufferAlias)
      Plan.BufferRoots[S.Root].push_back(I);
    else if (S.Kind == MemKind::SharedRetype) {
      Plan.SharedRoots.insert(S.Root);
      Plan.SharedWidths[S.Root] |= floatWidthBit(S.Width);
    }
    else if (S.Kind == MemKind::ImageRetype)
      Plan.ImageRoots.insert(S.Root);
  }
}

// A native atomic on a Workgroup variable that another atomic's lowering
// retypes would be left on an integer: it is lowered as well.
bool SitePlanner::collectNativeOnRetyped(const std::vector<InstRef> &Native) {
  bool Ok = true;
  std::vector<InstRef> Chain;
  for (InstRef R : Native) {
    if (Plan.SharedRoots.empty())
      break;
    const uint32_t Cur = chainRoot(C, M.operand(R, 0), Chain);
    // A leaf that keeps its float type (f16, or a width with no lowered
    // site) keeps its native atomic.
    if (!Plan.SharedRoots.count(Cur) ||
        !C.hasFloatIn(M.inst(R).TypeId, Plan.SharedWidths[Cur]))
      continue;
    Site S;
    if (analyze(R, S, /*EvenIfNative=*/true))
      Plan.add(std::move(S));
    else
      Ok = false;
  }
  return Ok;
}

bool SitePlanner::collect() {
  for (InstRef R : M.section(Section::ExecutionMode)) {
    const Inst &I = M.inst(R);
    if (I.Opcode == Op::OpExecutionMode && I.Count >= 3 &&
        M.operand(R, 1) == uint32_t(spv::ExecutionMode::DenormFlushToZero))
      Plan.FlushWidths.insert(M.operand(R, 2));
  }
  resolvePointerSelects(C);
  bool Ok = true;
  std::vector<InstRef> Native; // left alone: the target runs them
  for (Function &F : M.functions())
    for (Block &B : F.Blocks)
      for (InstRef R : B.Body) {
        const Op O = M.inst(R).Opcode;
        if (O != Op::OpAtomicFMinEXT && O != Op::OpAtomicFMaxEXT)
          continue;
        Site S;
        const FailureKind Before = C.Failure;
        if (analyze(R, S))
          Plan.add(std::move(S));
        else if (C.Failure != Before)
          Ok = false;
        else
          Native.push_back(R);
      }
  if (!Ok || Plan.Sites.empty())
    return Ok;
  if (!noLogicalPointerBitcast())
    return false;
  // Results that nothing reads, through copies, phis, dead stores and
  // returns (ResultUse).
  M.buildUses();
  ResultUse Reads(M);
  for (Site &S : Plan.Sites)
    S.ResultUnused = !Reads.isRead(M.inst(S.Atomic).ResultId);
  collectRoots();
  return collectNativeOnRetyped(Native) && collectRetypedAdds();
}

// A float add on a Workgroup float that is retyped for a min/max beside
// it (a target with native float add but no float min/max, like NVIDIA's)
// has no integer form: it becomes a compare-exchange loop of float adds on
// the integer view, which, like the native add, returns the value it
// replaced.  Compared as bits, a NaN in memory cannot keep the loop going.
bool SitePlanner::collectRetypedAdds() {
  if (Plan.SharedRoots.empty())
    return true;
  std::vector<InstRef> Chain;
  for (Function &F : M.functions())
    for (Block &B : F.Blocks)
      for (InstRef R : B.Body) {
        if (M.inst(R).Opcode != Op::OpAtomicFAddEXT)
          continue;
        const uint32_t Cur = chainRoot(C, M.operand(R, 0), Chain);
        if (!Plan.SharedRoots.count(Cur) ||
            !C.hasFloatIn(M.inst(R).TypeId, Plan.SharedWidths[Cur]))
          continue; // leaves that keep their type keep their native add
        Site S;
        S.Atomic = R;
        S.Add = true;
        S.Op = FloatOp::Max; // unused; a float add is no min/max writer
        S.Kind = MemKind::SharedRetype;
        S.Width = M.scalarWidth(M.inst(R).TypeId);
        if (S.Width == 64 && !C.Target.mayUseInt64Atomics(MemoryClass::Shared)) {
          C.error(FailureKind::TargetLacksFeature,
                  M.describe(R) + ": lowering a 64-bit float atomic needs 64-bit "
                                  "integer atomics, which the target (" +
                      C.Target.Source + ") does not support");
          return false;
        }
        if (!traceRoot(R, M.operand(R, 0), S))
          return false;
        Plan.add(std::move(S));
      }
  return true;
}

namespace {

/// One root's writes, indexed for the exclusivity test of its sites: where
/// each site's own write is, and, per float op, the writes that are not a
/// lowered atomic of that op (the only ones a site must be apart from).
/// Indexed once per root, so that a root with many sites costs linear time
/// where a search of the writes per site cost quadratic time.
struct RootWrites {
  std::unordered_map<InstRef, size_t> IndexOf; ///< first write of each instruction
  std::vector<const Site *> Lowered;           ///< per write: its lowered site, or null
  /// Per kind of lowered atomic (op and width), made on first use: the
  /// writes of other kinds.  f32 and f64 atomics on one address differ.
  std::map<std::pair<FloatOp, unsigned>, std::vector<size_t>> Foreign;

  const std::vector<size_t> &foreign(const Site &S) {
    auto [It, New] = Foreign.try_emplace({S.Op, S.Width});
    if (New)
      for (size_t K = 0; K < Lowered.size(); ++K)
        if (!Lowered[K] || Lowered[K]->Add || Lowered[K]->Op != S.Op ||
            Lowered[K]->Width != S.Width)
          It->second.push_back(K);
    return It->second;
  }
};

/// Whether constant \p Id holds no NaN in any float it is made of (a
/// scalar, OpConstantNull, or a composite of such); not a spec constant,
/// which specialization may make a NaN.
bool constantWithoutNaN(const Module &M, uint32_t Id, unsigned Depth = 0) {
  const InstRef D = M.def(Id);
  if (D == Module::NoInst || Depth > 64)
    return false;
  switch (M.inst(D).Opcode) {
  case Op::OpConstantNull:
  case Op::OpConstantTrue:
  case Op::OpConstantFalse:
    return true;
  case Op::OpConstant: {
    const uint32_t Type = M.inst(D).TypeId;
    if (M.opOf(Type) != Op::OpTypeFloat)
      return true;
    const unsigned Width = M.scalarWidth(Type);
    const uint64_t Bits =
        Width == 64 ? M.operand(D, 0) | uint64_t(M.operand(D, 1)) << 32 : M.operand(D, 0);
    return isSupportedWidth(Width) && !isNaN(Bits, Width);
  }
  case Op::OpConstantComposite:
    for (uint32_t K = 0; K < M.inst(D).Count; ++K)
      if (!constantWithoutNaN(M, M.operand(D, K), Depth + 1))
        return false;
    return true;
  default:
    return false;
  }
}

/// A write that is no lowered atomic but leaves site \p S its proof: a
/// plain store of a constant without NaNs to Workgroup memory that happens
/// before every execution of the site in every invocation (BarrierOrder.h:
/// the initialisation before a barrier).  It is then not concurrent with the
/// site (the load-decided fix-up), puts no NaN in memory (propagate's
/// single atomic) and comes before all of the site's operations, after
/// which memory only moves up the order (the bound cache).
/// \p Order is made on the first question, so that a module without such a
/// store pays nothing for it.
bool initialisesBefore(const Module &M, std::optional<BarrierOrder> &Order, const Site &S,
                       const Write &W) {
  if (S.Kind != MemKind::SharedRetype || M.inst(W.Inst).Opcode != Op::OpStore ||
      !constantWithoutNaN(M, M.operand(W.Inst, 1)))
    return false;
  if (!Order)
    Order.emplace(M);
  return Order->before(W.Inst, S.Atomic);
}

RootWrites indexWrites(const Writers &W, const SitePlan &Plan) {
  RootWrites R;
  for (size_t K = 0; K < W.Writes.size(); ++K) {
    R.IndexOf.try_emplace(W.Writes[K].Inst, K);
    const auto It = Plan.SiteOf.find(W.Writes[K].Inst);
    R.Lowered.push_back(It == Plan.SiteOf.end() ? nullptr : &Plan.Sites[It->second]);
  }
  return R;
}

} // namespace

void SitePlanner::markExclusiveSites() {
  // writers=any: shaders outside the module may write the memory too; so
  // may the modules a Linkage module is linked with, which the pass does
  // not see.
  if (C.Opts.Writers != WriterScope::Module ||
      M.hasCapability(spv::Capability::Linkage))
    return;
  WriterAnalysis Analysis(M); // the use lists built by collect() are current
  std::optional<BarrierOrder> Order; // made where a store may initialise
  std::unordered_map<uint32_t, RootWrites> ByRoot;
  for (Site &S : Plan.Sites) {
    if (S.Kind != MemKind::BufferAlias && S.Kind != MemKind::SharedRetype)
      continue;
    const Writers &W = Analysis.writersOf(S.Root);
    auto It = ByRoot.find(S.Root);
    if (It == ByRoot.end())
      It = ByRoot.emplace(S.Root, indexWrites(W, Plan)).first;
    RootWrites &R = It->second;
    // Every write that is not a lowered atomic of the same kind must be apart
    // from the site's own (another member, another constant element), or
    // initialise the memory before it.
    const auto Own = R.IndexOf.find(S.Atomic);
    const std::vector<size_t> &Foreign = R.foreign(S);
    S.Exclusive = W.Known && std::all_of(Foreign.begin(), Foreign.end(), [&](size_t K) {
      return Own != R.IndexOf.end() &&
             (Analysis.disjoint(W.Writes[Own->second], W.Writes[K]) ||
              initialisesBefore(M, Order, S, W.Writes[K]));
    });
  }
}

} // namespace fatomic::spirv
