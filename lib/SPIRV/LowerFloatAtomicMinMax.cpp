//===- LowerFloatAtomicMinMax.cpp - The SPIR-V pass ------------------------===//
//
// Contract: include/fatomic/LowerFloatAtomicMinMax.h.  The emitted algorithm
// is fatomic::emulateLowered (LoweringModel.h), written out in SPIR-V.
//
// The pass collects first (every float min/max atomic, its memory kind and
// integer view; every error), then mutates: integer views (alias variables,
// retyped Workgroup variables), then each atomic in turn, splitting its block.
//
//===----------------------------------------------------------------------===//

#include "fatomic/LowerFloatAtomicMinMax.h"

#include "Module.h"
#include "ResultUse.h"
#include "WriterAnalysis.h"
#include "fatomic/LoweringModel.h"
#include "fatomic/OrderMap.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace fatomic {

using namespace spirv;
using spv::StorageClass;

namespace {

constexpr const char *ExtName = "SPV_EXT_shader_atomic_float_min_max";

enum class MemKind {
  BufferAlias,   ///< StorageBuffer / Uniform+BufferBlock: alias variable
  SharedRetype,  ///< Workgroup: retype the variable
  PointerCast,   ///< PhysicalStorageBuffer, physical addressing: OpBitcast
  ImageRetype,   ///< OpImageTexelPointer on an r32f image (opt-in)
  Private,       ///< Function / Private: plain load, combine, store
};

/// One float min/max atomic to lower.
struct Site {
  InstRef Atomic;
  FloatOp Op;
  unsigned Width;
  MemKind Kind;
  uint32_t Root = 0;            ///< root OpVariable (alias/retype kinds)
  std::vector<InstRef> Chain;   ///< access chains, outermost (root side) first
  bool NonUniform = false;
  bool EarlyOutLegal = false;
  bool ResultUnused = false;    ///< nothing reads the atomic's result (ResultUse)
  /// An OpAtomicFAddEXT on a float that a retype turns into an integer:
  /// lowered as a compare-exchange loop of float adds (Op is unused).
  bool Add = false;
  /// Every write to the memory is a lowered float atomic of the same kind
  /// (WriterAnalysis): the cheaper, proof-dependent forms are allowed.
  bool Exclusive = false;
};

// Memory-semantics bits (SPIR-V 3.25).
constexpr uint32_t SemAcquire = 0x2, SemRelease = 0x4, SemAcqRel = 0x8,
                   SemSeqCst = 0x10, SemMakeAvailable = 0x2000,
                   SemMakeVisible = 0x4000, SemVolatile = 0x8000;
// UniformMemory through OutputMemory.
constexpr uint32_t SemStorageClasses = 0x1FC0;

/// The storage-class semantics bit that covers memory of class \p SC.
uint32_t storageClassSemantics(StorageClass SC) {
  switch (SC) {
  case StorageClass::StorageBuffer:
  case StorageClass::Uniform:
  case StorageClass::PhysicalStorageBuffer:
    return 0x40; // UniformMemory
  case StorageClass::Workgroup:
    return 0x100; // WorkgroupMemory
  case StorageClass::CrossWorkgroup:
    return 0x200; // CrossWorkgroupMemory
  case StorageClass::Generic:
    return 0x300; // WorkgroupMemory | CrossWorkgroupMemory
  case StorageClass::Image:
    return 0x800; // ImageMemory
  default:
    return 0;
  }
}

class Lowering {
public:
  Lowering(Module &M, const LoweringOptions &Opts, const TargetModel &Target,
           const spvtools::MessageConsumer &Consumer)
      : M(M), Opts(Opts), Target(Target), Consumer(Consumer) {}

  /// Returns false on error (already reported; Failure set).
  bool collect();
  void mutate();

  FailureKind Failure = FailureKind::None;
  unsigned lowered() const { return unsigned(Sites.size()); }

private:
  // ---- diagnostics ----
  void error(FailureKind K, const std::string &Msg) {
    if (Failure == FailureKind::None)
      Failure = K;
    if (Consumer)
      Consumer(SPV_MSG_ERROR, nullptr, {0, 0, 0}, Msg.c_str());
  }

  // ---- helpers over the module ----
  uint32_t typeOf(uint32_t Id) const {
    InstRef D = M.def(Id);
    return D == Module::NoInst ? 0 : M.inst(D).TypeId;
  }
  /// Whether \p Id is defined with an OpTypeInt type (malformed input may
  /// use an undefined id, or a value of another type, as an index).
  bool isIntegerValue(uint32_t Id) const { return M.opOf(typeOf(Id)) == Op::OpTypeInt; }
  StorageClass pointerClass(uint32_t PtrType) const {
    return StorageClass(M.operand(M.def(PtrType), 0));
  }
  uint32_t pointee(uint32_t PtrType) const { return M.operand(M.def(PtrType), 1); }
  bool constantValue(uint32_t Id, uint64_t &Value) const;
  /// M.constantInt, remembered: each lowered atomic asks for the same few.
  uint32_t constantInt(uint32_t IntType, uint64_t Value) {
    auto [It, New] = Constants.try_emplace({IntType, Value}, 0);
    if (New)
      It->second = M.constantInt(IntType, Value);
    return It->second;
  }

  /// \p EvenIfNative: lower it although the target runs it natively.
  bool analyze(InstRef R, Site &S, bool EvenIfNative = false);
  bool traceRoot(InstRef Atomic, uint32_t Ptr, Site &S);
  /// Whether \p S's memory (root variable or chain) is Volatile.
  bool volatileMemory(const Site &S) const;
  /// Sets Site::Exclusive from the writers of each site's memory.
  void markExclusiveSites();
  /// The variable \p Ptr points into and the access chains on the way
  /// (root side first), through chains and copies; 0 when something else
  /// is on the way.
  uint32_t chainRoot(uint32_t Ptr, std::vector<InstRef> &Chain) const;
  /// Array indices of \p Chain, with the struct member indices as values
  /// (~0u marks them in \p Members' positions); false for a malformed path.
  bool flatIndices(const std::vector<InstRef> &Chain, std::vector<uint32_t> &Ids,
                   std::vector<uint64_t> &Members) const;
  /// OpSelects between two access chains of the same shape into one
  /// variable that lead to a float min/max atomic become one access chain
  /// with selected indices.
  void resolvePointerSelects();
  bool resolveSelect(std::vector<InstRef> &Out, InstRef Sel);
  /// Why the pointer chosen by OpSelect \p Sel cannot be lowered.
  void selectError(InstRef Atomic, InstRef Sel);
  /// The OpTypePointer that \p Id's type is, or NoInst.
  InstRef pointerTypeOf(uint32_t Id) const;
  bool isLogicalPointer(uint32_t Id) const;
  bool noLogicalPointerBitcast();

  /// What the retyping and element-wise conversions need to know of a type.
  struct TypeFacts {
    bool Ok = false;     ///< defined, a type, acyclic, not too deep
    /// A 32- or 64-bit float leaf, which retyping turns into an integer.
    /// 16-bit floats stay: none of their atomics is lowered, and a native
    /// one on a retyped variable keeps working on them.
    bool HasFloat = false;
    bool HasMatrix = false;
    uint64_t Leaves = 0; ///< scalars in a whole value; ~0 when unbounded
  };
  /// Facts of \p Type, memoized; not Ok for an id that is no type, a cycle
  /// of types (malformed input), or nesting deeper than MaxTypeDepth.
  TypeFacts facts(uint32_t Type, unsigned Depth = 0);
  static constexpr unsigned MaxTypeDepth = 256;
  /// An element-wise copy of a composite converts at most this many scalars.
  static constexpr uint64_t MaxConvertedLeaves = 1 << 16;
  MemoryClass memoryClass(MemKind K, StorageClass SC) const;

  // ---- integer views ----
  void buildBufferAliases();
  /// Checks that \p S's access chains lead from \p RootPointee to its float
  /// type; with \p Record, notes the types and members on the way (the
  /// buffer block's path, which gets integer counterparts).
  bool markPath(uint32_t RootPointee, const Site &S, InstRef Where, bool Record = true);
  uint32_t cloneOnPath(uint32_t Type);
  uint32_t cloneAllFloats(uint32_t Type);
  uint32_t cloneAggregate(uint32_t Type, const std::function<uint32_t(uint32_t)> &Elem,
                          const std::function<bool(uint32_t, uint32_t)> &Convert);
  void copyDecorations(uint32_t From, uint32_t To);
  bool planSharedRetypes();
  void addToInterfaces(uint32_t Original, uint32_t Alias);
  /// \p User only describes a variable for a debugger: an argument of a
  /// debug-info or other non-semantic extended instruction.
  bool isDebugOnlyUse(InstRef User, uint32_t Word) const;
  /// Moves a retyped global after its new types, and the module-level
  /// non-semantic instructions that followed it after it.
  void moveGlobalToEnd(InstRef VarDef);

  // ---- emission ----
  /// What the lowered code of one site works on: at the atomic itself
  /// (inline) or in a helper function, where they are its parameters.
  struct Operands {
    uint32_t Ptr = 0;              ///< the float pointer (inline; pointer casts)
    uint32_t Value = 0;            ///< the float operand
    uint32_t ResultId = 0;         ///< id of the float result
    std::vector<uint32_t> Indices; ///< access-chain indices from the root
    bool Rebuild = false;          ///< make the chain on S.Root from Indices
    uint32_t Scope = 0;            ///< helper parameter for a run-time scope
    uint32_t Semantics = 0;        ///< helper parameter for run-time semantics
  };
  bool outlined(const Site &S) const {
    return Opts.Outline && !S.Add && (S.Kind == MemKind::BufferAlias ||
                            S.Kind == MemKind::SharedRetype ||
                            S.Kind == MemKind::PointerCast);
  }
  void lowerBlocks(Function &F);
  bool isRestrict(InstRef R) const;
  void dropFalseRestrict();
  void splitOffContinue(std::vector<Block> &Out, InstRef Merge);
  void lowerAtomic(std::vector<Block> &Blocks, Site &S, const Operands &X);
  /// Float adds on retyped Workgroup floats become sites (Site::Add).
  bool collectRetypedAdds();
  void lowerAdd(std::vector<Block> &Blocks, const Site &S, const Operands &X);
  /// After lowering float adds: their 32/64-bit capabilities where no
  /// float add of that width is left, the extension where none is.
  void removeUnusedAddCapabilities();
  InstRef callHelper(Site &S);

  // Helper functions, one per kind of outlined atomic (keyed by everything
  // its code depends on), appended to the module after the lowering.
  std::map<std::vector<uint32_t>, uint32_t> HelperOf;
  std::vector<Function> Helpers;
  struct {
    std::vector<uint32_t> Key, Args, ParamTypes, Pattern;
  } Scratch;

  Module &M;
  const LoweringOptions &Opts;
  const TargetModel &Target;
  const spvtools::MessageConsumer &Consumer;

  std::vector<Site> Sites;
  std::unordered_map<InstRef, size_t> SiteOf;
  std::set<unsigned> FlushWidths;
  std::map<std::pair<uint32_t, uint64_t>, uint32_t> Constants;

  // Buffer alias: per root variable.
  std::map<uint32_t, std::vector<size_t>> BufferRoots;
  std::set<uint32_t> OnPathTypes;                    ///< arrays/vectors/scalars
  std::set<std::pair<uint32_t, uint32_t>> OnPathMembers; ///< (struct, member)
  std::unordered_map<uint32_t, uint32_t> PathClones, AllClones;

  // Workgroup retype: per root variable; edits collected then applied.
  std::set<uint32_t> SharedRoots;
  std::unordered_map<InstRef, std::vector<InstRef>> InsertBefore, InsertAfter;
  std::set<InstRef> CopyMemories;
  bool hasFloat(uint32_t Type) { return facts(Type).HasFloat; }

  std::unordered_map<uint32_t, TypeFacts> Facts;
  std::set<uint32_t> FactsInProgress;

  // Image retype (images=retype): per root variable, checked during
  // collection and applied in mutate() by the same walk.
  std::set<uint32_t> ImageRoots;
  std::unordered_map<uint32_t, uint32_t> ImageClones;
  bool walkImage(uint32_t Root, bool Apply);
  uint32_t retypedImage(uint32_t Type);
  /// Whether \p Type is an image or (runtime) arrays of one, which
  /// retypedImage can rewrite.
  bool isImageType(uint32_t Type) const;
};

bool Lowering::constantValue(uint32_t Id, uint64_t &Value) const {
  const InstRef D = M.def(Id);
  if (D == Module::NoInst)
    return false;
  const Inst &I = M.inst(D);
  if (I.Opcode == Op::OpConstantNull) {
    Value = 0;
    return true;
  }
  if (I.Opcode != Op::OpConstant || I.Count == 0)
    return false;
  Value = M.operand(D, 0);
  if (I.Count > 1)
    Value |= uint64_t(M.operand(D, 1)) << 32;
  return true;
}

MemoryClass Lowering::memoryClass(MemKind K, StorageClass SC) const {
  if (K == MemKind::ImageRetype)
    return MemoryClass::Image;
  if (SC == StorageClass::Workgroup)
    return MemoryClass::Shared;
  return MemoryClass::Buffer;
}

// ---------------------------------------------------------------------------
// Collection
// ---------------------------------------------------------------------------

InstRef Lowering::pointerTypeOf(uint32_t Id) const {
  const InstRef T = M.def(typeOf(Id));
  return T != Module::NoInst && M.inst(T).Opcode == Op::OpTypePointer
             ? T
             : Module::NoInst;
}

/// A value whose type is a pointer that Logical addressing governs: any
/// pointer but a PhysicalStorageBuffer one, in a module that is not
/// Physical32/Physical64.
bool Lowering::isLogicalPointer(uint32_t Id) const {
  const InstRef T = pointerTypeOf(Id);
  return M.isLogical() && T != Module::NoInst && M.inst(T).Count >= 1 &&
         pointerClass(M.inst(T).ResultId) != StorageClass::PhysicalStorageBuffer;
}

/// The output must hold no OpBitcast of a Logical pointer, and the pass
/// copies the input's instructions: one in the input (invalid SPIR-V that
/// spirv-val 2023.1 still accepts) is refused before anything is lowered.
bool Lowering::noLogicalPointerBitcast() {
  for (const Function &F : M.functions())
    for (const Block &B : F.Blocks)
      for (InstRef R : B.Body) {
        const Inst &I = M.inst(R);
        if (I.Opcode != Op::OpBitcast || I.Count < 1 ||
            (!isLogicalPointer(I.ResultId) && !isLogicalPointer(M.operand(R, 0))))
          continue;
        error(FailureKind::InvalidModule,
              M.describe(R) + ": OpBitcast of a Logical pointer, which Logical "
                              "addressing does not allow (only PhysicalStorageBuffer "
                              "pointers may be bitcast)");
        return false;
      }
  return true;
}

bool Lowering::traceRoot(InstRef Atomic, uint32_t Ptr, Site &S) {
  const InstRef PtrType = pointerTypeOf(Ptr);
  if (PtrType == Module::NoInst) {
    error(FailureKind::InvalidModule,
          "pointer %" + std::to_string(Ptr) + " of " + M.describe(Atomic) +
              " is not a pointer");
    return false;
  }
  const StorageClass SC = StorageClass(M.operand(PtrType, 0));
  uint32_t Cur = Ptr;
  // Each step moves to an earlier definition in a valid module; a chain
  // longer than the id bound goes round in a circle.
  for (uint32_t Steps = 0;; ++Steps) {
    const InstRef D = M.def(Cur);
    if (D == Module::NoInst) {
      error(FailureKind::InvalidModule, "pointer %" + std::to_string(Cur) +
                                            " of " + M.describe(Atomic) +
                                            " has no definition");
      return false;
    }
    const InstRef PT = pointerTypeOf(Cur);
    if (PT == Module::NoInst || StorageClass(M.operand(PT, 0)) != SC ||
        Steps > M.bound()) {
      error(FailureKind::InvalidModule,
            "the pointer of " + M.describe(Atomic) + " comes from " +
                M.describe(D) + ", which is not a pointer of the same storage "
                "class (or the chain goes round in a circle)");
      return false;
    }
    const Inst &I = M.inst(D);
    switch (I.Opcode) {
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
      S.Chain.push_back(D);
      if (M.hasDecoration(I.ResultId, spv::Decoration::NonUniform))
        S.NonUniform = true;
      // A NonUniform index makes the rebuilt chain NonUniform too (in a
      // helper the index is a parameter, which carries no decoration).
      for (uint32_t K = 1; K < I.Count; ++K)
        if (M.hasDecoration(M.operand(D, K), spv::Decoration::NonUniform))
          S.NonUniform = true;
      Cur = M.operand(D, 0);
      continue;
    case Op::OpCopyObject:
      if (M.hasDecoration(I.ResultId, spv::Decoration::NonUniform))
        S.NonUniform = true;
      Cur = M.operand(D, 0);
      continue;
    case Op::OpVariable:
      S.Root = Cur;
      std::reverse(S.Chain.begin(), S.Chain.end());
      if (S.Kind == MemKind::SharedRetype) {
        // Retyping moves the variable within the globals.
        const auto &Globals = M.section(Section::Global);
        if (std::find(Globals.begin(), Globals.end(), D) == Globals.end()) {
          error(FailureKind::InvalidModule,
                M.describe(D) + ": a Workgroup variable inside a function");
          return false;
        }
      }
      return true;
    case Op::OpSelect:
      selectError(Atomic, D);
      return false;
    case Op::OpFunctionParameter:
    case Op::OpPhi:
      error(FailureKind::UntraceablePointer,
            "the pointer of " + M.describe(Atomic) + " comes from " +
                M.describe(D) +
                ", so its variable is not known; inline the entry points "
                "first (DontInline cleared, then spirv-opt --merge-return "
                "--inline-entry-points-exhaustive; fatomic-opt tries that once "
                "by itself)");
      return false;
    default:
      error(FailureKind::Unsupported, "the pointer of " + M.describe(Atomic) +
                                          " comes from " + M.describe(D) +
                                          ", which fatomic cannot trace");
      return false;
    }
  }
}

uint32_t Lowering::chainRoot(uint32_t Ptr, std::vector<InstRef> &Chain) const {
  Chain.clear();
  uint32_t Cur = Ptr;
  for (uint32_t Steps = 0; Steps <= M.bound(); ++Steps) {
    const InstRef D = M.def(Cur);
    if (D == Module::NoInst)
      return 0;
    switch (M.inst(D).Opcode) {
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
      Chain.push_back(D);
      [[fallthrough]];
    case Op::OpCopyObject:
      Cur = M.operand(D, 0);
      continue;
    case Op::OpVariable:
      std::reverse(Chain.begin(), Chain.end());
      return Cur;
    default:
      return 0;
    }
  }
  return 0;
}

bool Lowering::flatIndices(const std::vector<InstRef> &Chain, std::vector<uint32_t> &Ids,
                           std::vector<uint64_t> &Members) const {
  if (Chain.empty())
    return true;
  const InstRef BaseType = pointerTypeOf(M.operand(Chain.front(), 0));
  if (BaseType == Module::NoInst)
    return false;
  uint32_t T = M.operand(BaseType, 1);
  for (InstRef AC : Chain)
    for (uint32_t K = 1; K < M.numOperands(AC); ++K) {
      const uint32_t Idx = M.operand(AC, K);
      const InstRef TD = M.def(T);
      if (TD == Module::NoInst || Ids.size() > MaxTypeDepth)
        return false;
      uint64_t Member = ~uint64_t{0};
      switch (M.inst(TD).Opcode) {
      case Op::OpTypeStruct:
        if (!constantValue(Idx, Member) || Member >= M.numOperands(TD))
          return false;
        T = M.operand(TD, uint32_t(Member));
        break;
      case Op::OpTypeArray:
      case Op::OpTypeRuntimeArray:
      case Op::OpTypeVector:
      case Op::OpTypeMatrix:
        T = M.operand(TD, 0);
        break;
      default:
        return false;
      }
      Ids.push_back(Idx);
      Members.push_back(Member);
    }
  return true;
}

// A pointer chosen by OpSelect between &v.a[i] and &v.a[j] is &v.a[c ? i :
// j]: the integer view then needs no variable pointer.  The select is
// replaced in place (its result id names the new access chain), before
// collection, in this pass's own copy of the module.
bool Lowering::resolveSelect(std::vector<InstRef> &Out, InstRef Sel) {
  const Inst I = M.inst(Sel);
  const InstRef PT = pointerTypeOf(I.ResultId);
  if (PT == Module::NoInst || I.Count != 3)
    return false;
  std::vector<InstRef> CA, CB;
  const uint32_t RootA = chainRoot(M.operand(Sel, 1), CA);
  if (RootA == 0 || RootA != chainRoot(M.operand(Sel, 2), CB))
    return false;
  std::vector<uint32_t> IA, IB;
  std::vector<uint64_t> MA, MB;
  if (!flatIndices(CA, IA, MA) || !flatIndices(CB, IB, MB) || MA != MB)
    return false;
  // Indices of one width but either signedness: B's is bitcast to A's type.
  // A selected index must be an integer value: its type is the select's.
  for (size_t K = 0; K < IA.size(); ++K)
    if (MA[K] == ~uint64_t{0} && IA[K] != IB[K] &&
        (!isIntegerValue(IA[K]) || !isIntegerValue(IB[K]) ||
         (typeOf(IA[K]) != typeOf(IB[K]) &&
          M.scalarWidth(typeOf(IA[K])) != M.scalarWidth(typeOf(IB[K])))))
      return false;
  bool NonUniform = M.hasDecoration(I.ResultId, spv::Decoration::NonUniform);
  for (InstRef AC : CA)
    NonUniform |= M.hasDecoration(M.inst(AC).ResultId, spv::Decoration::NonUniform);
  for (InstRef AC : CB)
    NonUniform |= M.hasDecoration(M.inst(AC).ResultId, spv::Decoration::NonUniform);
  std::vector<uint32_t> Ops{RootA};
  for (size_t K = 0; K < IA.size(); ++K) {
    if (IA[K] == IB[K] || MA[K] != ~uint64_t{0}) {
      Ops.push_back(IA[K]);
      continue;
    }
    uint32_t B = IB[K];
    if (typeOf(B) != typeOf(IA[K])) {
      B = M.newId();
      Out.push_back(M.create(Op::OpBitcast, typeOf(IA[K]), B, {IB[K]}, 0b1));
    }
    const uint32_t Id = M.newId();
    Out.push_back(M.create(Op::OpSelect, typeOf(IA[K]), Id,
                           {M.operand(Sel, 0), IA[K], B}, 0b111));
    if (M.hasDecoration(IA[K], spv::Decoration::NonUniform) ||
        M.hasDecoration(IB[K], spv::Decoration::NonUniform))
      M.addDecoration(Id, spv::Decoration::NonUniform);
    Ops.push_back(Id);
  }
  Out.push_back(M.create(Op::OpAccessChain, I.TypeId, I.ResultId, Ops, ~uint64_t{0}, true));
  if (NonUniform && !M.hasDecoration(I.ResultId, spv::Decoration::NonUniform))
    M.addDecoration(I.ResultId, spv::Decoration::NonUniform);
  return true;
}

void Lowering::resolvePointerSelects() {
  // The selects on the way from a float min/max atomic to its variable.
  std::set<InstRef> Wanted;
  for (Function &F : M.functions())
    for (Block &B : F.Blocks)
      for (InstRef R : B.Body) {
        const Op O = M.inst(R).Opcode;
        if (O != Op::OpAtomicFMinEXT && O != Op::OpAtomicFMaxEXT)
          continue;
        uint32_t Cur = M.operand(R, 0);
        for (uint32_t Steps = 0; Steps <= M.bound(); ++Steps) {
          const Op P = M.opOf(Cur);
          if (P == Op::OpSelect)
            Wanted.insert(M.def(Cur));
          if (P != Op::OpAccessChain && P != Op::OpInBoundsAccessChain &&
              P != Op::OpCopyObject)
            break;
          Cur = M.operand(M.def(Cur), 0);
        }
      }
  if (Wanted.empty() || !M.isLogical())
    return;
  for (Function &F : M.functions())
    for (Block &B : F.Blocks) {
      if (std::none_of(B.Body.begin(), B.Body.end(),
                       [&](InstRef R) { return Wanted.count(R) != 0; }))
        continue;
      std::vector<InstRef> Body;
      for (InstRef R : B.Body)
        if (!Wanted.count(R) || !resolveSelect(Body, R))
          Body.push_back(R);
      B.Body = std::move(Body);
    }
}

void Lowering::selectError(InstRef Atomic, InstRef Sel) {
  std::vector<InstRef> CA, CB;
  const uint32_t RootA = chainRoot(M.operand(Sel, 1), CA);
  const uint32_t RootB = chainRoot(M.operand(Sel, 2), CB);
  auto Name = [&](uint32_t V) {
    return "%" + std::to_string(V) + (M.nameOf(V).empty() ? "" : " (\"" + M.nameOf(V) + "\")");
  };
  for (const std::vector<InstRef> *Chain : {&CA, &CB})
    for (InstRef AC : *Chain)
      for (uint32_t K = 1; K < M.numOperands(AC); ++K)
        if (!isIntegerValue(M.operand(AC, K))) {
          error(FailureKind::InvalidModule,
                M.describe(AC) + ": index %" + std::to_string(M.operand(AC, K)) +
                    " is not an integer value");
          return;
        }
  if (RootA == 0 || RootB == 0) {
    error(FailureKind::UntraceablePointer,
          "the pointer of " + M.describe(Atomic) + " comes from " + M.describe(Sel) +
              ", which chooses a pointer that does not come from a variable "
              "through access chains, so its variable is not known");
  } else if (RootA != RootB) {
    error(FailureKind::Unsupported,
          "the pointer of " + M.describe(Atomic) + " comes from " + M.describe(Sel) +
              ", which chooses between two variables, " + Name(RootA) + " and " +
              Name(RootB) + ", each with its own integer view; write one atomic "
              "per variable (for example one atomic in each branch)");
  } else {
    error(FailureKind::Unsupported,
          "the pointer of " + M.describe(Atomic) + " comes from " + M.describe(Sel) +
              ", which chooses between two paths into variable " + Name(RootA) +
              " that differ in a struct member, in their depth or in the "
              "width of an index; fatomic lowers a choice between paths that "
              "differ in array indices only; write one atomic per path (for "
              "example one atomic in each branch)");
  }
}

bool Lowering::analyze(InstRef R, Site &S, bool EvenIfNative) {
  const Inst &I = M.inst(R);
  S.Atomic = R;
  S.Op = I.Opcode == Op::OpAtomicFMinEXT ? FloatOp::Min : FloatOp::Max;
  const InstRef TypeDef = M.def(I.TypeId);
  if (TypeDef == Module::NoInst || M.inst(TypeDef).Opcode != Op::OpTypeFloat) {
    error(FailureKind::Unsupported,
          M.describe(R) + ": only scalar float results are supported "
                          "(vector f16 atomics are not)");
    return false;
  }
  S.Width = M.operand(TypeDef, 0);
  const uint32_t Ptr = M.operand(R, 0);
  const uint32_t PtrType = typeOf(Ptr);
  if (M.opOf(PtrType) != Op::OpTypePointer) {
    error(FailureKind::InvalidModule, M.describe(R) + ": pointer operand is not a pointer");
    return false;
  }
  const StorageClass SC = pointerClass(PtrType);
  if (pointee(PtrType) != I.TypeId || typeOf(M.operand(R, 3)) != I.TypeId) {
    error(FailureKind::InvalidModule,
          M.describe(R) + ": the pointer's pointee type or the value's type "
                          "is not the result type");
    return false;
  }

  // Memory kind.
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
      error(FailureKind::Unsupported,
            M.describe(R) + ": float min/max atomics in storage class " +
                std::to_string(uint32_t(SC)) + " are not supported");
      return false;
    }
  }

  // Native on the target: leave it alone.
  if (!EvenIfNative && Target.isNativeMinMax(memoryClass(S.Kind, SC), S.Width))
    return false;

  if (S.Width == 16) {
    error(FailureKind::Unsupported,
          M.describe(R) + ": 16-bit float atomic min/max is not supported yet "
                          "(Vulkan has no 16-bit integer atomics); it is left "
                          "alone only when the target has it natively "
                          "(native=shaderBufferFloat16AtomicMinMax / "
                          "shaderSharedFloat16AtomicMinMax)");
    return false;
  }
  if (S.Width != 32 && S.Width != 64) {
    error(FailureKind::Unsupported, M.describe(R) + ": unsupported float width " +
                                        std::to_string(S.Width));
    return false;
  }
  if (S.Kind == MemKind::ImageRetype) {
    if (!Opts.RetypeImages) {
      error(FailureKind::Unsupported,
            M.describe(R) + ": float min/max on a storage image has no legal "
                            "integer alias (the view format must match the "
                            "image's sampled type); pass images=retype to "
                            "retype the image to r32ui (the application must "
                            "then create an R32_UINT view)");
      return false;
    }
    if (S.Width != 32) {
      error(FailureKind::Unsupported,
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
      error(FailureKind::InvalidModule,
            "the Image pointer of " + M.describe(R) + " is copied from itself "
            "(a cycle of OpCopyObject)");
      return false;
    }
    if (M.opOf(TP) != Op::OpImageTexelPointer) {
      error(FailureKind::Unsupported,
            "the Image pointer of " + M.describe(R) + " does not come from "
            "OpImageTexelPointer");
      return false;
    }
    if (!traceRoot(R, M.operand(M.def(TP), 0), S))
      return false;
    if (pointerClass(typeOf(S.Root)) != StorageClass::UniformConstant) {
      error(FailureKind::InvalidModule,
            M.describe(R) + ": the image of its texel pointer is not a "
                            "UniformConstant variable");
      return false;
    }
  }
  if (S.Width == 64 && !Target.mayUseInt64Atomics(memoryClass(S.Kind, SC))) {
    error(FailureKind::TargetLacksFeature,
          M.describe(R) + ": lowering a 64-bit float atomic needs 64-bit "
                          "integer atomics, which the target (" +
              Target.Source + ") does not support");
    return false;
  }
  if (S.Kind == MemKind::BufferAlias || S.Kind == MemKind::SharedRetype)
    if (!traceRoot(R, Ptr, S))
      return false;
  // Every index is an integer value (they are passed on, e.g. to a helper).
  for (InstRef AC : S.Chain)
    for (uint32_t K = 1; K < M.numOperands(AC); ++K)
      if (!isIntegerValue(M.operand(AC, K))) {
        error(FailureKind::InvalidModule,
              M.describe(AC) + ": index %" + std::to_string(M.operand(AC, K)) +
                  " is not an integer value");
        return false;
      }

  // Scope and Semantics are 32-bit integer values (constants, or run-time
  // values in Kernel modules, which an outlined helper takes as parameters).
  for (uint32_t K = 1; K <= 2; ++K) {
    const InstRef T = M.def(typeOf(M.operand(R, K)));
    if (T == Module::NoInst || M.inst(T).Opcode != Op::OpTypeInt || M.operand(T, 0) != 32) {
      error(FailureKind::InvalidModule,
            M.describe(R) + ": Scope or Semantics operand %" +
                std::to_string(M.operand(R, K)) + " is not a 32-bit integer value");
      return false;
    }
  }

  // Early-out is legal for constant Relaxed/Acquire semantics on
  // non-volatile accesses.
  uint64_t Sem = 0;
  const uint32_t SemId = M.operand(R, 2);
  S.EarlyOutLegal =
      Opts.EarlyOut && constantValue(SemId, Sem) &&
      (Sem & (SemRelease | SemAcqRel | SemSeqCst | SemVolatile)) == 0 &&
      !volatileMemory(S);
  return true;
}

bool Lowering::collect() {
  for (InstRef R : M.section(Section::ExecutionMode)) {
    const Inst &I = M.inst(R);
    if (I.Opcode == Op::OpExecutionMode && I.Count >= 3 &&
        M.operand(R, 1) == uint32_t(spv::ExecutionMode::DenormFlushToZero))
      FlushWidths.insert(M.operand(R, 2));
  }
  resolvePointerSelects();
  bool Ok = true;
  std::vector<InstRef> Native; // left alone: the target runs them
  for (Function &F : M.functions())
    for (Block &B : F.Blocks)
      for (InstRef R : B.Body) {
        const Op O = M.inst(R).Opcode;
        if (O != Op::OpAtomicFMinEXT && O != Op::OpAtomicFMaxEXT)
          continue;
        Site S;
        const FailureKind Before = Failure;
        if (analyze(R, S)) {
          SiteOf[R] = Sites.size();
          Sites.push_back(std::move(S));
        } else if (Failure != Before) {
          Ok = false;
        } else {
          Native.push_back(R);
        }
      }
  if (!Ok || Sites.empty())
    return Ok;
  if (!noLogicalPointerBitcast())
    return false;

  // Results that nothing reads, through copies, phis, dead stores and
  // returns (ResultUse).
  M.buildUses();
  ResultUse Reads(M);
  for (Site &S : Sites)
    S.ResultUnused = !Reads.isRead(M.inst(S.Atomic).ResultId);

  for (size_t I = 0; I < Sites.size(); ++I) {
    if (Sites[I].Kind == MemKind::BufferAlias)
      BufferRoots[Sites[I].Root].push_back(I);
    else if (Sites[I].Kind == MemKind::SharedRetype)
      SharedRoots.insert(Sites[I].Root);
    else if (Sites[I].Kind == MemKind::ImageRetype)
      ImageRoots.insert(Sites[I].Root);
  }
  // A native atomic on a Workgroup variable that another atomic's lowering
  // retypes would be left on an integer: it is lowered as well.
  std::vector<InstRef> Chain;
  for (InstRef R : Native) {
    if (SharedRoots.empty())
      break;
    const uint32_t Cur = chainRoot(M.operand(R, 0), Chain);
    // A leaf that keeps its float type (f16) keeps its native atomic.
    if (!SharedRoots.count(Cur) || !hasFloat(M.inst(R).TypeId))
      continue;
    Site S;
    if (analyze(R, S, /*EvenIfNative=*/true)) {
      SiteOf[R] = Sites.size();
      Sites.push_back(std::move(S));
    } else {
      Ok = false;
    }
  }
  if (!Ok || !collectRetypedAdds())
    return false;
  // Paths into each buffer block; errors (matrices...) surface here.
  for (auto &[Root, Indices] : BufferRoots)
    for (size_t I : Indices)
      if (!markPath(pointee(typeOf(Root)), Sites[I], Sites[I].Atomic))
        Ok = false;
  // The use lists built above are still current.
  if (Ok && (!SharedRoots.empty() || !ImageRoots.empty())) {
    Ok = planSharedRetypes();
    for (uint32_t Root : ImageRoots)
      Ok &= walkImage(Root, /*Apply=*/false);
  }
  // The chains into retyped Workgroup variables must lead to the float too
  // (their variable's type was checked above).
  for (const Site &S : Sites)
    if (Ok && S.Kind == MemKind::SharedRetype)
      Ok = markPath(pointee(typeOf(S.Root)), S, S.Atomic, /*Record=*/false);
  if (Ok)
    markExclusiveSites();
  return Ok;
}

bool Lowering::volatileMemory(const Site &S) const {
  const uint32_t Ptr = M.operand(S.Atomic, 0);
  if (M.hasDecoration(Ptr, spv::Decoration::Volatile) ||
      (S.Root && M.hasDecoration(S.Root, spv::Decoration::Volatile)))
    return true;
  if (!S.Root)
    return false;
  // A Volatile member on the chain's way (glslang's `volatile` buffer
  // under the GLSL450 memory model decorates the members).
  uint32_t T = pointee(typeOf(S.Root));
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
      if (!constantValue(M.operand(AC, K), Member) || Member >= M.numOperands(TD))
        return false;
      for (InstRef R : M.decorationsOf(T))
        if (M.inst(R).Opcode == Op::OpMemberDecorate && M.numOperands(R) >= 3 &&
            M.operand(R, 1) == Member &&
            M.operand(R, 2) == uint32_t(spv::Decoration::Volatile))
          return true;
      T = M.operand(TD, uint32_t(Member));
    }
  }
  return false;
}

void Lowering::markExclusiveSites() {
  // writers=any: shaders outside the module may write the memory too.
  if (Opts.Writers != WriterScope::Module)
    return;
  WriterAnalysis Analysis(M); // the use lists built by collect() are current
  for (Site &S : Sites) {
    if (S.Kind != MemKind::BufferAlias && S.Kind != MemKind::SharedRetype)
      continue;
    const Writers &W = Analysis.writersOf(S.Root);
    // The site's own write, for the paths of the others (memory apart from
    // the site's: another member, another constant element).
    const auto Own = std::find_if(W.Writes.begin(), W.Writes.end(),
                                  [&](const Write &Wr) { return Wr.Inst == S.Atomic; });
    S.Exclusive = W.Known && std::all_of(W.Writes.begin(), W.Writes.end(), [&](const Write &Wr) {
      if (Own != W.Writes.end() && Analysis.disjoint(*Own, Wr))
        return true;
      const auto It = SiteOf.find(Wr.Inst);
      return It != SiteOf.end() && !Sites[It->second].Add && Sites[It->second].Op == S.Op;
    });
  }
}

// ---------------------------------------------------------------------------
// Integer views
// ---------------------------------------------------------------------------

bool Lowering::markPath(uint32_t T, const Site &S, InstRef Where, bool Record) {
  uint32_t Depth = 0;
  // The composites passed so far: one met again contains itself (only an
  // invalid module has such a type), and cloning it would never end.
  std::vector<uint32_t> Seen;
  for (InstRef AC : S.Chain) {
    const uint32_t N = M.numOperands(AC);
    for (uint32_t K = 1; K < N; ++K) {
      const uint32_t Idx = M.operand(AC, K);
      const InstRef TD = M.def(T);
      if (TD == Module::NoInst || ++Depth > MaxTypeDepth) {
        error(FailureKind::InvalidModule,
              M.describe(AC) + ": an index goes into %" + std::to_string(T) +
                  ", which is not a type (or the path is deeper than " +
                  std::to_string(MaxTypeDepth) + " levels)");
        return false;
      }
      if (std::find(Seen.begin(), Seen.end(), T) != Seen.end()) {
        error(FailureKind::InvalidModule,
              M.describe(AC) + ": the access chain goes through type %" +
                  std::to_string(T) + " twice (a type that contains itself)");
        return false;
      }
      Seen.push_back(T);
      const Inst &TI = M.inst(TD);
      switch (TI.Opcode) {
      case Op::OpTypeStruct: {
        uint64_t Member;
        if (!constantValue(Idx, Member) || Member >= TI.Count) {
          error(FailureKind::InvalidModule,
                M.describe(AC) + ": struct index is not a valid constant");
          return false;
        }
        if (Record)
          OnPathMembers.insert({T, uint32_t(Member)});
        T = M.operand(TD, uint32_t(Member));
        break;
      }
      case Op::OpTypeArray:
      case Op::OpTypeRuntimeArray:
        if (Record)
          OnPathTypes.insert(T);
        T = M.operand(TD, 0);
        break;
      case Op::OpTypeVector:
        if (Record)
          OnPathTypes.insert(T);
        T = M.operand(TD, 0);
        break;
      default:
        error(FailureKind::Unsupported,
              M.describe(Where) + ": the atomic's path goes through " +
                  M.describe(TD) +
                  ", which has no integer counterpart in SPIR-V");
        return false;
      }
    }
  }
  if (T != M.inst(S.Atomic).TypeId) {
    error(FailureKind::InvalidModule,
          M.describe(Where) + ": the access chains do not lead to the "
                              "atomic's float type");
    return false;
  }
  if (Record)
    OnPathTypes.insert(T);
  return true;
}

void Lowering::copyDecorations(uint32_t From, uint32_t To) {
  for (InstRef R : M.decorationsOf(From)) {
    if (isRestrict(R))
      continue; // a clone is an alias of the original: never restrict
    const Inst &I = M.inst(R);
    std::vector<uint32_t> Ops(M.operands(R), M.operands(R) + I.Count);
    Ops[0] = To;
    M.section(Section::Annotation)
        .push_back(M.create(I.Opcode, 0, 0, Ops, I.IdMask, I.IdTail));
  }
}

uint32_t Lowering::cloneAggregate(
    uint32_t T, const std::function<uint32_t(uint32_t)> &Elem,
    const std::function<bool(uint32_t, uint32_t)> &Convert) {
  const InstRef D = M.def(T);
  const Inst &I = M.inst(D);
  uint32_t New = T;
  switch (I.Opcode) {
  case Op::OpTypeFloat:
    return M.typeInt(M.operand(D, 0), /*Signed=*/false);
  case Op::OpTypeVector:
    return M.typeVector(Elem(M.operand(D, 0)), M.operand(D, 1));
  case Op::OpTypeArray:
    New = M.addType(Op::OpTypeArray, {Elem(M.operand(D, 0)), M.operand(D, 1)}, 0b11);
    break;
  case Op::OpTypeRuntimeArray:
    New = M.addType(Op::OpTypeRuntimeArray, {Elem(M.operand(D, 0))}, 0b1);
    break;
  case Op::OpTypeStruct: {
    std::vector<uint32_t> Members(M.operands(D), M.operands(D) + I.Count);
    for (uint32_t K = 0; K < Members.size(); ++K)
      if (Convert(T, K))
        Members[K] = Elem(Members[K]);
    New = M.addType(Op::OpTypeStruct, Members, ~uint64_t{0}, true);
    break;
  }
  default:
    return T;
  }
  copyDecorations(T, New);
  return New;
}

uint32_t Lowering::cloneOnPath(uint32_t T) {
  if (auto It = PathClones.find(T); It != PathClones.end())
    return It->second;
  const Op O = M.opOf(T);
  const bool OnPath = O == Op::OpTypeStruct
                          ? OnPathMembers.lower_bound({T, 0}) != OnPathMembers.end() &&
                                OnPathMembers.lower_bound({T, 0})->first == T
                          : OnPathTypes.count(T) != 0;
  uint32_t New = T;
  if (OnPath)
    New = cloneAggregate(
        T, [this](uint32_t E) { return cloneOnPath(E); },
        [this](uint32_t S, uint32_t K) { return OnPathMembers.count({S, K}) != 0; });
  PathClones[T] = New;
  return New;
}

Lowering::TypeFacts Lowering::facts(uint32_t T, unsigned Depth) {
  if (auto It = Facts.find(T); It != Facts.end())
    return It->second;
  TypeFacts F;
  if (Depth > MaxTypeDepth || !FactsInProgress.insert(T).second)
    return F; // too deep, or a type that contains itself
  auto Mul = [](uint64_t A, uint64_t B) {
    return A && B > ~uint64_t{0} / A ? ~uint64_t{0} : A * B;
  };
  const InstRef D = M.def(T);
  const Op O = D == Module::NoInst ? Op::OpNop : M.inst(D).Opcode;
  switch (O) {
  case Op::OpNop:
    break;
  case Op::OpTypeFloat:
    F = {true, M.operand(D, 0) != 16, false, 1};
    break;
  case Op::OpTypeVector:
  case Op::OpTypeMatrix:
  case Op::OpTypeArray:
  case Op::OpTypeRuntimeArray: {
    const TypeFacts E = facts(M.operand(D, 0), Depth + 1);
    F.Ok = E.Ok;
    F.HasFloat = E.HasFloat;
    F.HasMatrix = E.HasMatrix || O == Op::OpTypeMatrix;
    uint64_t N = ~uint64_t{0};
    if (O == Op::OpTypeVector || O == Op::OpTypeMatrix) {
      N = M.operand(D, 1);
    } else if (O == Op::OpTypeArray) {
      // Element-wise copies need the length as a literal: OpConstant only.
      const InstRef L = M.def(M.operand(D, 1));
      F.Ok &= L != Module::NoInst;
      uint64_t Len;
      if (L != Module::NoInst && M.inst(L).Opcode == Op::OpConstant &&
          constantValue(M.operand(D, 1), Len))
        N = Len;
    }
    F.Leaves = Mul(E.Leaves, N);
    break;
  }
  case Op::OpTypeStruct:
    F.Ok = true;
    for (uint32_t K = 0; K < M.numOperands(D); ++K) {
      const TypeFacts E = facts(M.operand(D, K), Depth + 1);
      F.Ok &= E.Ok;
      F.HasFloat |= E.HasFloat;
      F.HasMatrix |= E.HasMatrix;
      F.Leaves = F.Leaves + E.Leaves < F.Leaves ? ~uint64_t{0} : F.Leaves + E.Leaves;
    }
    break;
  default:
    // Any other type is a leaf (pointers are not followed); anything that
    // is not a type is malformed here.
    F.Ok = std::strncmp(spvOpcodeString(uint32_t(O)), "Type", 4) == 0;
    F.Leaves = 1;
    break;
  }
  FactsInProgress.erase(T);
  Facts[T] = F;
  return F;
}

uint32_t Lowering::cloneAllFloats(uint32_t T) {
  if (auto It = AllClones.find(T); It != AllClones.end())
    return It->second;
  uint32_t New = T;
  if (hasFloat(T))
    New = cloneAggregate(
        T, [this](uint32_t E) { return cloneAllFloats(E); },
        [this](uint32_t S, uint32_t K) { return hasFloat(M.operand(M.def(S), K)); });
  AllClones[T] = New;
  return New;
}

void Lowering::addToInterfaces(uint32_t Original, uint32_t Alias) {
  // SPIR-V 1.4+ lists every global an entry point uses.
  if (M.version() < 0x00010400)
    return;
  for (InstRef &R : M.section(Section::EntryPoint)) {
    const Inst &I = M.inst(R);
    const std::string Name = M.stringOperand(R, 2);
    const uint32_t First = 2 + uint32_t(Name.size() / 4 + 1);
    bool Listed = false;
    for (uint32_t K = First; K < I.Count; ++K)
      Listed |= M.operand(R, K) == Original;
    if (!Listed)
      continue;
    std::vector<uint32_t> Ops(M.operands(R), M.operands(R) + I.Count);
    Ops.push_back(Alias);
    uint64_t Mask = 0b10;
    bool Tail = false;
    for (uint32_t K = First; K < Ops.size(); ++K) {
      if (K < 64)
        Mask |= uint64_t{1} << K;
      else
        Tail = true;
    }
    R = M.create(Op::OpEntryPoint, 0, 0, Ops, Mask, Tail);
  }
}

bool Lowering::isRestrict(InstRef R) const {
  const Inst &I = M.inst(R);
  const uint32_t Restrict = uint32_t(spv::Decoration::Restrict);
  return (I.Opcode == Op::OpDecorate && I.Count >= 2 && M.operand(R, 1) == Restrict) ||
         (I.Opcode == Op::OpMemberDecorate && I.Count >= 3 && M.operand(R, 2) == Restrict);
}

// The alias variables make Restrict false on the buffer variables they alias
// and on the struct members their atomics reach: those decorations go.
// (Aliased is added to a variable that has no Aliased.)
void Lowering::dropFalseRestrict() {
  auto &Annotations = M.section(Section::Annotation);
  const auto False = [&](InstRef R) {
    if (!isRestrict(R))
      return false;
    const uint32_t Target = M.operand(R, 0);
    if (M.inst(R).Opcode == Op::OpMemberDecorate)
      return OnPathMembers.count({Target, M.operand(R, 1)}) != 0;
    return BufferRoots.count(Target) != 0;
  };
  Annotations.erase(std::remove_if(Annotations.begin(), Annotations.end(), False),
                    Annotations.end());
}

void Lowering::buildBufferAliases() {
  dropFalseRestrict();
  for (auto &[Root, Indices] : BufferRoots) {
    const uint32_t RootPtrType = typeOf(Root);
    const StorageClass SC = pointerClass(RootPtrType);
    const uint32_t AliasPointee = cloneOnPath(pointee(RootPtrType));
    const uint32_t AliasPtrType = M.typePointer(SC, AliasPointee);
    const uint32_t Alias =
        M.addGlobal(Op::OpVariable, AliasPtrType, {uint32_t(SC)}, 0);
    for (InstRef R : M.decorationsOf(Root)) {
      const Inst &I = M.inst(R);
      if (I.Opcode != Op::OpDecorate || isRestrict(R))
        continue;
      std::vector<uint32_t> Ops(M.operands(R), M.operands(R) + I.Count);
      Ops[0] = Alias;
      M.section(Section::Annotation).push_back(M.create(Op::OpDecorate, 0, 0, Ops, 0b1));
    }
    if (!M.hasDecoration(Root, spv::Decoration::Aliased)) {
      M.addDecoration(Root, spv::Decoration::Aliased);
      M.addDecoration(Alias, spv::Decoration::Aliased);
    }
    addToInterfaces(Root, Alias);
    for (size_t I : Indices)
      Sites[I].Root = Alias; // the chain is rebuilt on the alias per site
  }
}

// Workgroup: retype the variable, rewrite every access.  Planned during
// collection (so that errors stop the pass before anything changes) and
// applied in mutate().

namespace {

/// Emits a conversion of \p Value from type \p From to type \p To, where one
/// is the other with float leaves turned into same-width integers.  The last
/// instruction gets \p ResultId when non-zero.
uint32_t convertValue(Module &M, std::vector<InstRef> &Out, uint32_t Value,
                      uint32_t From, uint32_t To, uint32_t ResultId) {
  auto Emit = [&](Op O, uint32_t Type, const std::vector<uint32_t> &Ops,
                  uint64_t Mask, bool Tail) {
    const uint32_t Id = ResultId ? ResultId : M.newId();
    Out.push_back(M.create(O, Type, Id, Ops, Mask, Tail));
    return Id;
  };
  if (From == To) {
    if (!ResultId)
      return Value;
    return Emit(Op::OpCopyObject, To, {Value}, 0b1, false);
  }
  const InstRef D = M.def(From);
  const Inst I = M.inst(D); // a copy: the instructions below may move it
  if (I.Opcode == Op::OpTypeFloat || I.Opcode == Op::OpTypeInt ||
      I.Opcode == Op::OpTypeVector)
    return Emit(Op::OpBitcast, To, {Value}, 0b1, false);
  // Arrays and structs: element-wise.
  const InstRef ToD = M.def(To);
  uint32_t N = 0;
  if (I.Opcode == Op::OpTypeStruct) {
    N = I.Count;
  } else {
    uint64_t Len = 0;
    const InstRef LD = M.def(M.operand(D, 1));
    Len = M.operand(LD, 0);
    N = uint32_t(Len);
  }
  std::vector<uint32_t> Parts;
  Parts.reserve(N);
  for (uint32_t K = 0; K < N; ++K) {
    const uint32_t FE = I.Opcode == Op::OpTypeStruct ? M.operand(D, K) : M.operand(D, 0);
    const uint32_t TE = I.Opcode == Op::OpTypeStruct ? M.operand(ToD, K) : M.operand(ToD, 0);
    const uint32_t X = M.newId();
    Out.push_back(M.create(Op::OpCompositeExtract, FE, X, {Value, K}, 0b1));
    Parts.push_back(convertValue(M, Out, X, FE, TE, 0));
  }
  return Emit(Op::OpCompositeConstruct, To, Parts, ~uint64_t{0}, true);
}

} // namespace

bool Lowering::isDebugOnlyUse(InstRef User, uint32_t Word) const {
  const Inst &I = M.inst(User);
  if (I.Opcode != Op::OpExtInst || Word < 2)
    return false;
  const InstRef Set = M.def(M.operand(User, 0));
  if (Set == Module::NoInst || M.inst(Set).Opcode != Op::OpExtInstImport)
    return false;
  // Non-semantic sets may be dropped without changing the module's meaning;
  // OpenCL.DebugInfo.100 is debug information only.  Their instructions keep
  // naming the variable, whose memory still holds the float bits that their
  // debug types describe.
  const std::string Name = M.stringOperand(Set, 0);
  return Name.rfind("NonSemantic.", 0) == 0 || Name == "OpenCL.DebugInfo.100";
}

void Lowering::moveGlobalToEnd(InstRef VarDef) {
  // Module-level OpExtInsts (debug information) may name the variable; the
  // ones after it move with it, in order.  No type, constant or variable
  // names an OpExtInst, so what stays behind loses no definition.
  auto &Globals = M.section(Section::Global);
  const auto Pos = std::find(Globals.begin(), Globals.end(), VarDef);
  std::vector<InstRef> Stay, Follow;
  for (auto It = std::next(Pos); It != Globals.end(); ++It)
    (M.inst(*It).Opcode == Op::OpExtInst ? Follow : Stay).push_back(*It);
  Globals.erase(Pos, Globals.end());
  Globals.insert(Globals.end(), Stay.begin(), Stay.end());
  Globals.push_back(VarDef);
  Globals.insert(Globals.end(), Follow.begin(), Follow.end());
}

bool Lowering::planSharedRetypes() {
  bool Ok = true;
  for (uint32_t Root : SharedRoots) {
    const std::string Var = M.describe(M.def(Root));
    std::string VarName = "%" + std::to_string(Root);
    if (!M.nameOf(Root).empty())
      VarName += " (\"" + M.nameOf(Root) + "\")";
    const uint32_t Old = pointee(typeOf(Root));
    const TypeFacts VarFacts = facts(Old);
    if (!VarFacts.Ok) {
      error(FailureKind::InvalidModule,
            Var + ": the Workgroup variable's type is not well formed (an "
                  "undefined or cyclic type, or nesting deeper than " +
                std::to_string(MaxTypeDepth) + " levels)");
      Ok = false;
      continue;
    }
    // Matrices have no integer counterpart.
    if (VarFacts.HasMatrix) {
      error(FailureKind::Unsupported,
            Var + ": a Workgroup variable that holds a matrix cannot be "
                  "retyped for its float min/max atomics (a matrix has no "
                  "integer counterpart)");
      Ok = false;
      continue;
    }
    const InstRef VarDef = M.def(Root);
    if (M.numOperands(VarDef) > 1 &&
        M.opOf(M.operand(VarDef, 1)) != Op::OpConstantNull) {
      error(FailureKind::Unsupported,
            Var + ": a Workgroup variable with an initializer other than "
                  "OpConstantNull cannot be retyped for its float min/max atomics");
      Ok = false;
      continue;
    }

    // Every access is rewritten with value conversions: each must see the
    // types the pointer says, and a whole-composite one must stay small.
    auto Malformed = [&](InstRef User, const char *What) {
      error(FailureKind::InvalidModule, M.describe(User) + ": " + What);
      Ok = false;
    };
    auto CheckValue = [&](InstRef User, uint32_t Type, uint32_t PT) {
      if (Type != PT)
        return Malformed(User, "its type is not the pointee type of its pointer");
      const uint64_t Leaves = facts(PT).Leaves;
      const Op O = M.opOf(PT);
      if (O != Op::OpTypeFloat && O != Op::OpTypeInt && O != Op::OpTypeVector &&
          Leaves > MaxConvertedLeaves) {
        error(FailureKind::Unsupported,
              M.describe(User) + ": copies a whole value of " + VarName +
                  " with more than " + std::to_string(MaxConvertedLeaves) +
                  " scalars (or of unknown length), which fatomic does not "
                  "convert element by element");
        Ok = false;
      }
    };

    // Walk every pointer derived from the variable.
    std::vector<uint32_t> Work{Root};
    std::set<uint32_t> Seen{Root};
    while (!Work.empty()) {
      const uint32_t P = Work.back();
      Work.pop_back();
      const uint32_t PT = pointee(typeOf(P));
      for (const Use &U : M.uses(P)) {
        const InstRef User = U.User;
        const Inst &I = M.inst(User);
        switch (I.Opcode) {
        case Op::OpAccessChain:
        case Op::OpInBoundsAccessChain:
        case Op::OpCopyObject:
          if (U.Word == 0) {
            const InstRef RT = pointerTypeOf(I.ResultId);
            if (RT == Module::NoInst ||
                StorageClass(M.operand(RT, 0)) != StorageClass::Workgroup ||
                !facts(M.operand(RT, 1)).Ok)
              Malformed(User, "its result is not a well-formed Workgroup pointer");
            else if (Seen.insert(I.ResultId).second)
              Work.push_back(I.ResultId);
            continue;
          }
          break;
        case Op::OpLoad:
        case Op::OpAtomicLoad:
          if (U.Word == 0) {
            CheckValue(User, I.TypeId, PT);
            continue;
          }
          break;
        case Op::OpAtomicStore:
        case Op::OpAtomicExchange:
          if (U.Word == 0) {
            CheckValue(User, typeOf(M.operand(User, 3)), PT);
            if (I.Opcode == Op::OpAtomicExchange && I.TypeId != PT)
              Malformed(User, "its result type is not the pointee type");
            continue;
          }
          break;
        case Op::OpAtomicFAddEXT:
          if (U.Word == 0 && (SiteOf.count(User) || !hasFloat(PT)))
            continue; // lowered as a CAS loop, or native on an f16 leaf
          break;
        case Op::OpAtomicFMinEXT:
        case Op::OpAtomicFMaxEXT:
          if (U.Word == 0)
            continue; // lowered (collect() makes every one on a retyped
                      // float a site), or native on an f16 leaf that stays
          break;
        case Op::OpStore:
          if (U.Word == 0) {
            CheckValue(User, typeOf(M.operand(User, 1)), PT);
            continue;
          }
          break;
        case Op::OpCopyMemory: {
          const InstRef DT = pointerTypeOf(M.operand(User, 0));
          const InstRef ST = pointerTypeOf(M.operand(User, 1));
          if (DT == Module::NoInst || ST == Module::NoInst ||
              M.operand(DT, 1) != M.operand(ST, 1))
            Malformed(User, "its two sides are not pointers to the same type");
          else
            CheckValue(User, M.operand(DT, 1), PT);
          continue;
        }
        case Op::OpName:
        case Op::OpDecorate:
        case Op::OpEntryPoint:
          continue;
        case Op::OpExtInst:
          if (isDebugOnlyUse(User, U.Word))
            continue;
          break;
        case Op::OpAtomicIAdd: case Op::OpAtomicISub: case Op::OpAtomicSMin:
        case Op::OpAtomicUMin: case Op::OpAtomicSMax: case Op::OpAtomicUMax:
        case Op::OpAtomicAnd: case Op::OpAtomicOr: case Op::OpAtomicXor:
        case Op::OpAtomicIIncrement: case Op::OpAtomicIDecrement:
        case Op::OpAtomicCompareExchange:
          if (!hasFloat(PT))
            continue; // an integer leaf: unchanged by the retype
          break;
        case Op::OpFunctionCall:
          error(FailureKind::UntraceablePointer,
                M.describe(User) + ": passes Workgroup variable " + VarName +
                    " to a function; inline the entry points first (DontInline "
                    "cleared, then spirv-opt --merge-return "
                    "--inline-entry-points-exhaustive; fatomic-opt tries that "
                    "once by itself)");
          Ok = false;
          continue;
        default:
          break;
        }
        error(FailureKind::Unsupported,
              M.describe(User) + ": uses Workgroup variable " + VarName +
                  ", which is retyped to integers for its float min/max "
                  "atomics, in a way fatomic cannot rewrite");
        Ok = false;
      }
    }
  }
  return Ok;
}

// Image retype (images=retype): the image variable's type becomes the same
// image with a uint sampled type and the R32ui format, a new type used by
// that variable only (other variables of the old type keep it; descriptor
// arrays get a new array type).  Loads of it, and copies, take the new type;
// OpImageRead results and OpImageWrite texels are bitcast between the float
// and uint vectors; texel pointers become Image uint pointers, on which the
// float min/max atomics are lowered like any other memory and float atomic
// loads, stores and exchanges are bitcast.  Any other use is an error
// (sampling an R32ui view, float atomic add, passing it to a function).

uint32_t Lowering::retypedImage(uint32_t T) {
  if (auto It = ImageClones.find(T); It != ImageClones.end())
    return It->second;
  const InstRef D = M.def(T);
  const Inst &I = M.inst(D);
  uint32_t New = T;
  switch (I.Opcode) {
  case Op::OpTypeImage: {
    std::vector<uint32_t> Ops(M.operands(D), M.operands(D) + I.Count);
    Ops[0] = M.typeInt(32, /*Signed=*/false);
    Ops[6] = uint32_t(spv::ImageFormat::R32ui);
    New = M.typeImage(Ops);
    break;
  }
  case Op::OpTypeArray: {
    const uint32_t Elem = retypedImage(M.operand(D, 0)), Len = M.operand(D, 1);
    New = M.addType(Op::OpTypeArray, {Elem, Len}, 0b11);
    copyDecorations(T, New);
    break;
  }
  case Op::OpTypeRuntimeArray: {
    const uint32_t Elem = retypedImage(M.operand(D, 0));
    New = M.addType(Op::OpTypeRuntimeArray, {Elem}, 0b1);
    copyDecorations(T, New);
    break;
  }
  default:
    break;
  }
  ImageClones[T] = New;
  return New;
}

bool Lowering::isImageType(uint32_t T) const {
  for (uint32_t Depth = 0; Depth <= MaxTypeDepth; ++Depth) {
    switch (M.opOf(T)) {
    case Op::OpTypeImage:
      return true;
    case Op::OpTypeArray:
    case Op::OpTypeRuntimeArray:
      T = M.operand(M.def(T), 0);
      break;
    default:
      return false;
    }
  }
  return false;
}

bool Lowering::walkImage(uint32_t Root, bool Apply) {
  const std::string Var = "image variable %" + std::to_string(Root) +
                          (M.nameOf(Root).empty() ? "" : " (\"" + M.nameOf(Root) + "\")");
  if (!Apply) {
    const auto &Globals = M.section(Section::Global);
    if (M.opOf(Root) != Op::OpVariable ||
        std::find(Globals.begin(), Globals.end(), M.def(Root)) == Globals.end()) {
      error(FailureKind::InvalidModule, Var + " is not a module-scope OpVariable");
      return false;
    }
    uint32_t T = pointee(typeOf(Root));
    for (uint32_t Depth = 0; Depth <= MaxTypeDepth &&
                             (M.opOf(T) == Op::OpTypeArray || M.opOf(T) == Op::OpTypeRuntimeArray);
         ++Depth)
      T = M.operand(M.def(T), 0);
    if (M.opOf(T) != Op::OpTypeImage) {
      error(FailureKind::InvalidModule, Var + " does not hold an image");
      return false;
    }
    const InstRef D = M.def(T);
    const uint32_t Sampled = M.operand(D, 5), Format = M.operand(D, 6);
    if (M.opOf(M.operand(D, 0)) != Op::OpTypeFloat || M.scalarWidth(M.operand(D, 0)) != 32 ||
        Format != uint32_t(spv::ImageFormat::R32f)) {
      error(FailureKind::Unsupported,
            Var + ": images=retype needs an R32f image with a 32-bit float "
                  "sampled type (image format " + std::to_string(Format) + ")");
      return false;
    }
    if (Sampled == 1) {
      error(FailureKind::Unsupported,
            Var + ": images=retype handles storage images (Sampled 0 or 2), "
                  "not sampled ones");
      return false;
    }
  } else {
    const InstRef VarDef = M.def(Root);
    const uint32_t NewPointee = retypedImage(pointee(typeOf(Root)));
    M.inst(VarDef).TypeId = M.typePointer(StorageClass::UniformConstant, NewPointee);
    // The variable moves after its new types.
    moveGlobalToEnd(VarDef);
  }

  bool Ok = true;
  auto Reject = [&](InstRef User, const std::string &Why) {
    if (Apply)
      return;
    error(FailureKind::Unsupported, Var + " is retyped to R32ui for its float "
                                          "min/max atomics, but " +
                                        M.describe(User) + " " + Why);
    Ok = false;
  };
  const uint32_t UT = Apply ? M.typeInt(32, false) : 0;
  const uint32_t TexelPtrType = Apply ? M.typePointer(StorageClass::Image, UT) : 0;
  // Ids to follow: pointers to the image (or its array), image values, and
  // texel pointers.
  enum class Kind { ImagePtr, Image, TexelPtr };
  std::vector<std::pair<uint32_t, Kind>> Work{{Root, Kind::ImagePtr}};
  while (!Work.empty()) {
    const auto [Id, K] = Work.back();
    Work.pop_back();
    for (const Use &U : M.uses(Id)) {
      const InstRef R = U.User;
      const Op O = M.inst(R).Opcode;
      switch (O) {
      case Op::OpName:
      case Op::OpDecorate:
      case Op::OpDecorateId:
      case Op::OpEntryPoint:
        continue;
      case Op::OpExtInst:
        if (isDebugOnlyUse(R, U.Word))
          continue;
        break;
      default:
        break;
      }
      if (O == Op::OpCopyObject) {
        if (Apply)
          M.inst(R).TypeId = K == Kind::TexelPtr ? TexelPtrType
                             : K == Kind::Image ? retypedImage(M.inst(R).TypeId)
                                                : M.typePointer(StorageClass::UniformConstant,
                                                                retypedImage(pointee(M.inst(R).TypeId)));
        Work.push_back({M.inst(R).ResultId, K});
        continue;
      }
      if (O == Op::OpFunctionCall) {
        if (!Apply) {
          error(FailureKind::UntraceablePointer,
                Var + " is passed to a function by " + M.describe(R) +
                    "; inline the entry points first (DontInline cleared, then "
                    "spirv-opt --merge-return --inline-entry-points-exhaustive; "
                    "fatomic-opt tries that once by itself)");
          Ok = false;
        }
        continue;
      }
      switch (K) {
      case Kind::ImagePtr:
        if (!Apply && (O == Op::OpAccessChain || O == Op::OpInBoundsAccessChain ||
                       O == Op::OpLoad) &&
            U.Word == 0 &&
            !isImageType(O == Op::OpLoad ? M.inst(R).TypeId : pointee(M.inst(R).TypeId))) {
          Reject(R, "has a type that is not an image (or array of images)");
        } else if ((O == Op::OpAccessChain || O == Op::OpInBoundsAccessChain) && U.Word == 0) {
          if (Apply)
            M.inst(R).TypeId = M.typePointer(StorageClass::UniformConstant,
                                             retypedImage(pointee(M.inst(R).TypeId)));
          Work.push_back({M.inst(R).ResultId, Kind::ImagePtr});
        } else if (O == Op::OpLoad && U.Word == 0) {
          if (Apply)
            M.inst(R).TypeId = retypedImage(M.inst(R).TypeId);
          Work.push_back({M.inst(R).ResultId, Kind::Image});
        } else if (O == Op::OpImageTexelPointer && U.Word == 0) {
          if (Apply)
            M.inst(R).TypeId = TexelPtrType;
          Work.push_back({M.inst(R).ResultId, Kind::TexelPtr});
        } else {
          Reject(R, "uses it in a way fatomic cannot rewrite");
        }
        break;
      case Kind::Image:
        switch (O) {
        case Op::OpImageRead:
        case Op::OpImageSparseRead: {
          if (!Apply)
            break;
          const uint32_t OldType = M.inst(R).TypeId, OldResult = M.inst(R).ResultId;
          const uint32_t NewType = cloneAllFloats(OldType);
          const uint32_t Fresh = M.newId();
          M.inst(R).TypeId = NewType;
          M.inst(R).ResultId = Fresh;
          M.setDef(Fresh, R);
          std::vector<InstRef> After;
          convertValue(M, After, Fresh, NewType, OldType, OldResult);
          InsertAfter[R] = std::move(After);
          break;
        }
        case Op::OpImageWrite: {
          if (!Apply)
            break;
          const uint32_t V = M.operand(R, 2), VT = typeOf(V);
          std::vector<InstRef> Before;
          M.setOperand(R, 2, convertValue(M, Before, V, VT, cloneAllFloats(VT), 0));
          InsertBefore[R] = std::move(Before);
          break;
        }
        case Op::OpImageQuerySize:
        case Op::OpImageQuerySizeLod:
        case Op::OpImageQueryLevels:
        case Op::OpImageQuerySamples:
        case Op::OpImageQueryFormat:
        case Op::OpImageQueryOrder:
          break;
        case Op::OpSampledImage:
          Reject(R, "samples it; an R32ui view returns integers, so a sampled "
                    "use cannot be retyped");
          break;
        default:
          Reject(R, "uses it in a way fatomic cannot rewrite");
          break;
        }
        break;
      case Kind::TexelPtr:
        switch (O) {
        case Op::OpAtomicFMinEXT:
        case Op::OpAtomicFMaxEXT:
          if (U.Word == 0 && SiteOf.count(R))
            break;
          Reject(R, "uses a texel pointer of it in a way fatomic cannot rewrite");
          break;
        case Op::OpAtomicLoad:
        case Op::OpAtomicExchange: {
          if (U.Word != 0) {
            Reject(R, "uses a texel pointer of it as a value");
            break;
          }
          if (!Apply)
            break;
          const uint32_t OldType = M.inst(R).TypeId, OldResult = M.inst(R).ResultId;
          const uint32_t Fresh = M.newId();
          M.inst(R).TypeId = UT;
          M.inst(R).ResultId = Fresh;
          M.setDef(Fresh, R);
          if (O == Op::OpAtomicExchange) {
            std::vector<InstRef> Before;
            const uint32_t V = M.operand(R, 3);
            M.setOperand(R, 3, convertValue(M, Before, V, OldType, UT, 0));
            InsertBefore[R] = std::move(Before);
          }
          std::vector<InstRef> After;
          convertValue(M, After, Fresh, UT, OldType, OldResult);
          InsertAfter[R] = std::move(After);
          break;
        }
        case Op::OpAtomicStore: {
          if (U.Word != 0) {
            Reject(R, "uses a texel pointer of it as a value");
            break;
          }
          if (!Apply)
            break;
          const uint32_t V = M.operand(R, 3);
          std::vector<InstRef> Before;
          M.setOperand(R, 3, convertValue(M, Before, V, typeOf(V), UT, 0));
          InsertBefore[R] = std::move(Before);
          break;
        }
        default:
          Reject(R, "uses a texel pointer of it in a way fatomic cannot "
                    "rewrite (only float min/max, atomic load, store and "
                    "exchange have integer forms here)");
          break;
        }
        break;
      }
    }
  }
  return Ok;
}

// ---------------------------------------------------------------------------
// Mutation
// ---------------------------------------------------------------------------

void Lowering::mutate() {
  // A lowered atomic takes some 20 to 80 instructions of about 2 operand
  // words each.  Reserved capacity is address space until it is written, so
  // a generous guess costs little and spares the tables the copying (and the
  // doubled peak) of growing step by step.
  const size_t Inline = size_t(std::count_if(Sites.begin(), Sites.end(),
                                             [&](const Site &S) { return !outlined(S); }));
  M.reserve(Inline * 96 + Sites.size(), Inline * 256 + Sites.size() * 8);
  buildBufferAliases();

  // Workgroup retypes: the variable's type, then every access.  No
  // reference into the instruction table is held across a create().
  for (uint32_t Root : SharedRoots) {
    const InstRef VarDef = M.def(Root);
    const uint32_t NewPointee = cloneAllFloats(pointee(typeOf(Root)));
    const uint32_t NewPtrType = M.typePointer(StorageClass::Workgroup, NewPointee);
    M.inst(VarDef).TypeId = NewPtrType;
    if (M.numOperands(VarDef) > 1) {
      const uint32_t Null = M.addGlobal(Op::OpConstantNull, NewPointee, {}, 0);
      M.setOperand(VarDef, 1, Null);
    }
    // The variable moves after its new types.
    moveGlobalToEnd(VarDef);
    std::vector<uint32_t> Work{Root};
    std::set<uint32_t> Seen{Root};
    while (!Work.empty()) {
      const uint32_t P = Work.back();
      Work.pop_back();
      const uint32_t NewPT = pointee(typeOf(P));
      for (const Use &U : M.uses(P)) {
        const InstRef R = U.User;
        const Op O = M.inst(R).Opcode;
        if (U.Word != 0 && O != Op::OpCopyMemory)
          continue;
        switch (O) {
        case Op::OpAccessChain:
        case Op::OpInBoundsAccessChain:
        case Op::OpCopyObject: {
          const uint32_t Retyped = cloneAllFloats(pointee(M.inst(R).TypeId));
          const uint32_t PtrType = M.typePointer(StorageClass::Workgroup, Retyped);
          M.inst(R).TypeId = PtrType;
          if (Seen.insert(M.inst(R).ResultId).second)
            Work.push_back(M.inst(R).ResultId);
          break;
        }
        case Op::OpLoad:
        case Op::OpAtomicLoad:
        case Op::OpAtomicExchange: {
          const uint32_t OldType = M.inst(R).TypeId, OldResult = M.inst(R).ResultId;
          if (OldType == NewPT)
            break;
          const uint32_t Fresh = M.newId();
          M.inst(R).TypeId = NewPT;
          M.inst(R).ResultId = Fresh;
          M.setDef(Fresh, R);
          if (O == Op::OpAtomicExchange) {
            std::vector<InstRef> Before;
            const uint32_t V = M.operand(R, 3);
            const uint32_t Conv = convertValue(M, Before, V, OldType, NewPT, 0);
            M.setOperand(R, 3, Conv);
            InsertBefore[R] = std::move(Before);
          }
          std::vector<InstRef> After;
          convertValue(M, After, Fresh, NewPT, OldType, OldResult);
          InsertAfter[R] = std::move(After);
          break;
        }
        case Op::OpStore:
        case Op::OpAtomicStore: {
          const uint32_t ValWord = O == Op::OpStore ? 1 : 3;
          const uint32_t V = M.operand(R, ValWord);
          const uint32_t VT = typeOf(V);
          if (VT == NewPT)
            break;
          std::vector<InstRef> Before;
          const uint32_t Conv = convertValue(M, Before, V, VT, NewPT, 0);
          M.setOperand(R, ValWord, Conv);
          InsertBefore[R] = std::move(Before);
          break;
        }
        case Op::OpCopyMemory:
          CopyMemories.insert(R);
          break;
        default:
          break; // float min/max atomics, integer atomics, names, interfaces
        }
      }
    }
  }
  for (uint32_t Root : ImageRoots)
    walkImage(Root, /*Apply=*/true);

  // OpCopyMemory whose two sides now differ: load, convert, store.
  std::set<InstRef> Dropped;
  for (InstRef R : CopyMemories) {
    const uint32_t Dst = M.operand(R, 0), Src = M.operand(R, 1);
    const uint32_t DT = pointee(typeOf(Dst)), ST = pointee(typeOf(Src));
    if (DT == ST)
      continue;
    std::vector<InstRef> Seq;
    const uint32_t L = M.newId();
    Seq.push_back(M.create(Op::OpLoad, ST, L, {Src}, 0b1));
    const uint32_t Conv = convertValue(M, Seq, L, ST, DT, 0);
    Seq.push_back(M.create(Op::OpStore, 0, 0, {Dst, Conv}, 0b11));
    InsertBefore[R] = std::move(Seq);
    Dropped.insert(R);
  }
  if (!InsertBefore.empty() || !InsertAfter.empty()) {
    for (Function &F : M.functions())
      for (Block &B : F.Blocks) {
        std::vector<InstRef> Body;
        Body.reserve(B.Body.size());
        for (InstRef R : B.Body) {
          if (auto It = InsertBefore.find(R); It != InsertBefore.end())
            Body.insert(Body.end(), It->second.begin(), It->second.end());
          if (!Dropped.count(R))
            Body.push_back(R);
          if (auto It = InsertAfter.find(R); It != InsertAfter.end())
            Body.insert(Body.end(), It->second.begin(), It->second.end());
        }
        B.Body = std::move(Body);
      }
  }

  // Each atomic, in layout order; then the helper functions.
  for (Function &F : M.functions())
    lowerBlocks(F);
  for (Function &F : Helpers)
    M.functions().push_back(std::move(F));

  // Capabilities and the extension.
  bool Remaining[65] = {};
  for (const Function &F : M.functions())
    for (const Block &B : F.Blocks)
      for (InstRef R : B.Body) {
        const Inst &I = M.inst(R);
        if (I.Opcode == Op::OpAtomicFMinEXT || I.Opcode == Op::OpAtomicFMaxEXT) {
          const uint32_t W = M.scalarWidth(I.TypeId);
          Remaining[W <= 64 ? W : 0] = true;
        }
      }
  // A width's capability goes when no atomic of that width is left.  An
  // atomic left (native) whose own width's capability the input does not
  // declare leans on another width's (older validators accept any of the
  // three): then every declared one stays, as valid as the input was.
  const std::pair<uint32_t, spv::Capability> MinMaxCaps[] = {
      {16, spv::Capability::AtomicFloat16MinMaxEXT},
      {32, spv::Capability::AtomicFloat32MinMaxEXT},
      {64, spv::Capability::AtomicFloat64MinMaxEXT}};
  bool Leaning = Remaining[0];
  for (const auto &[W, Cap] : MinMaxCaps)
    Leaning |= Remaining[W] && !M.hasCapability(Cap);
  for (const auto &[W, Cap] : MinMaxCaps)
    if (!Remaining[W] && !Leaning)
      M.removeCapability(Cap);
  if (!M.hasCapability(spv::Capability::AtomicFloat16MinMaxEXT) &&
      !M.hasCapability(spv::Capability::AtomicFloat32MinMaxEXT) &&
      !M.hasCapability(spv::Capability::AtomicFloat64MinMaxEXT))
    M.removeExtension(ExtName);
  if (std::any_of(Sites.begin(), Sites.end(), [](const Site &S) { return S.Add; }))
    removeUnusedAddCapabilities();
  if (std::any_of(Sites.begin(), Sites.end(), [](const Site &S) { return S.Width == 64; })) {
    M.addCapability(spv::Capability::Int64);
    M.addCapability(spv::Capability::Int64Atomics);
  }
}

// ---------------------------------------------------------------------------
// Emission of one atomic
// ---------------------------------------------------------------------------

namespace {

/// Successor labels of a terminator.
std::vector<uint32_t> successors(const Module &M, InstRef T) {
  const Inst &I = M.inst(T);
  switch (I.Opcode) {
  case Op::OpBranch:
    return {M.operand(T, 0)};
  case Op::OpBranchConditional:
    return {M.operand(T, 1), M.operand(T, 2)};
  case Op::OpSwitch: {
    std::vector<uint32_t> Out{M.operand(T, 1)};
    // Literal width follows the selector's type.
    const InstRef Sel = M.def(M.operand(T, 0));
    const uint32_t SelType = Sel == Module::NoInst ? 0 : M.inst(Sel).TypeId;
    const uint32_t LitWords = M.scalarWidth(SelType) == 64 ? 2 : 1;
    for (uint32_t K = 2 + LitWords; K < I.Count; K += LitWords + 1)
      Out.push_back(M.operand(T, K));
    return Out;
  }
  default:
    return {};
  }
}

/// Whether \p Id is a constant or spec constant (an id any function may
/// use), as opposed to a value computed in a function.
bool isConstantId(const Module &M, uint32_t Id) {
  switch (M.opOf(Id)) {
  case Op::OpConstant:
  case Op::OpConstantNull:
  case Op::OpSpecConstant:
  case Op::OpSpecConstantOp:
    return true;
  default:
    return false;
  }
}

bool isLineInst(const Module &M, InstRef R) {
  const Op O = M.inst(R).Opcode;
  return O == Op::OpLine || O == Op::OpNoLine;
}

/// How many of the first \p Limit instructions of \p Body are the block's
/// phis, with the OpLine/OpNoLine that may stand among them: up to and
/// including the last phi of that leading run.
size_t leadingPhis(const Module &M, const std::vector<InstRef> &Body, size_t Limit) {
  size_t N = 0;
  for (size_t K = 0; K < Limit; ++K) {
    if (M.inst(Body[K]).Opcode == Op::OpPhi)
      N = K + 1;
    else if (!isLineInst(M, Body[K]))
      break;
  }
  return N;
}

} // namespace

void Lowering::lowerBlocks(Function &F) {
  // The function's blocks are rebuilt into Out in one pass: a block with
  // atomics is split at each of them, the code between two atomics going to
  // the last block that the previous lowering left.
  std::vector<Block> Out;
  Out.reserve(F.Blocks.size());
  struct Renamed {
    uint32_t OrigLabel, Tail;
    InstRef Terminator;
  };
  std::vector<Renamed> Moved;
  const auto IsLoopMerge = [&](InstRef R) { return M.inst(R).Opcode == Op::OpLoopMerge; };
  for (Block &B : F.Blocks) {
    // Outlined atomics become calls in place; the others split the block.
    bool Inline = false;
    for (InstRef &R : B.Body)
      if (auto It = SiteOf.find(R); It != SiteOf.end()) {
        if (outlined(Sites[It->second]))
          R = callHelper(Sites[It->second]);
        else
          Inline = true;
      }
    if (!Inline) {
      Out.push_back(std::move(B));
      continue;
    }
    const auto IsSite = [&](InstRef R) { return SiteOf.count(R) != 0; };
    const auto First = std::find_if(B.Body.begin(), B.Body.end(), IsSite);
    if (First == B.Body.end()) {
      Out.push_back(std::move(B));
      continue;
    }
    const uint32_t OrigLabel = B.Label;
    std::vector<InstRef> Body = std::move(B.Body);
    const size_t Pos = size_t(First - Body.begin());
    size_t Next = Pos; // first instruction not yet placed
    InstRef MovedMerge = Module::NoInst;

    // A loop header keeps only its phis, merge and a branch: the code after
    // the phis moves to a new block so that the back edge still reaches the
    // header.
    const auto LM = std::find_if(Body.begin() + Pos + 1, Body.end(), IsLoopMerge);
    if (LM != Body.end()) {
      Block Header;
      Header.Label = OrigLabel;
      Header.LabelInst = B.LabelInst;
      const size_t NPhi = leadingPhis(M, Body, Pos);
      Header.Body.assign(Body.begin(), Body.begin() + NPhi);
      MovedMerge = *LM;
      Header.Body.push_back(MovedMerge);
      const uint32_t NextLabel = M.newId();
      Header.Body.push_back(M.create(Op::OpBranch, 0, 0, {NextLabel}, 0b1));
      Out.push_back(std::move(Header));
      Block Rest;
      Rest.Label = NextLabel;
      Rest.LabelInst = M.create(Op::OpLabel, 0, NextLabel, {}, 0);
      Rest.Body.assign(Body.begin() + NPhi, Body.begin() + Pos);
      Out.push_back(std::move(Rest));
    } else {
      Block Start;
      Start.Label = OrigLabel;
      Start.LabelInst = B.LabelInst;
      Start.Body.assign(Body.begin(), Body.begin() + Pos);
      Out.push_back(std::move(Start));
    }
    for (; Next < Body.size(); ++Next) {
      const InstRef R = Body[Next];
      if (R == MovedMerge)
        continue;
      if (auto It = SiteOf.find(R); It != SiteOf.end()) {
        Site &S = Sites[It->second];
        Operands X;
        X.Ptr = M.operand(R, 0);
        X.Value = M.operand(R, 3);
        X.ResultId = M.inst(R).ResultId;
        for (InstRef AC : S.Chain)
          for (uint32_t K = 1; K < M.numOperands(AC); ++K)
            X.Indices.push_back(M.operand(AC, K));
        lowerAtomic(Out, S, X);
      } else
        Out.back().Body.push_back(R);
    }
    if (MovedMerge != Module::NoInst && M.operand(MovedMerge, 1) == OrigLabel)
      splitOffContinue(Out, MovedMerge);
    if (Out.back().Label != OrigLabel && !Out.back().Body.empty())
      Moved.push_back({OrigLabel, Out.back().Label, Out.back().Body.back()});
  }
  F.Blocks = std::move(Out);
  if (Moved.empty())
    return;

  // Phis of the successors: the edge from the original block now leaves
  // from its last piece.  A successor's phis stay in its first piece, which
  // keeps the original label.
  std::unordered_map<uint32_t, size_t> BlockOf;
  BlockOf.reserve(F.Blocks.size());
  for (size_t I = 0; I < F.Blocks.size(); ++I)
    BlockOf.emplace(F.Blocks[I].Label, I);
  for (const Renamed &Mv : Moved)
    for (uint32_t Succ : successors(M, Mv.Terminator)) {
      const auto It = BlockOf.find(Succ);
      if (It == BlockOf.end())
        continue;
      for (InstRef R : F.Blocks[It->second].Body) {
        if (isLineInst(M, R))
          continue; // OpLine/OpNoLine may come before a block's phis
        if (M.inst(R).Opcode != Op::OpPhi)
          break;
        for (uint32_t K = 1; K < M.numOperands(R); K += 2)
          if (M.operand(R, K) == Mv.OrigLabel)
            M.setOperand(R, K, Mv.Tail);
      }
    }
}

// A loop that was one block (header, continue target and back-edge block)
// and is now split: the header's OpLoopMerge named the header as continue
// target, which the back edge, now leaving from the last piece, no longer
// post-dominates.  The back-edge branch moves to a new block that becomes
// the continue target; the last piece branches to it.
void Lowering::splitOffContinue(std::vector<Block> &Out, InstRef Merge) {
  Block Cont;
  Cont.Label = M.newId();
  Cont.LabelInst = M.create(Op::OpLabel, 0, Cont.Label, {}, 0);
  std::vector<InstRef> &Last = Out.back().Body;
  Cont.Body.push_back(Last.back());
  Last.back() = M.create(Op::OpBranch, 0, 0, {Cont.Label}, 0b1);
  M.setOperand(Merge, 1, Cont.Label);
  Out.push_back(std::move(Cont));
}

// An outlined atomic: a call of the helper function for its kind, made on
// first use.  The helper takes the access chain's array indices (struct
// member indices are constants and part of the kind), or the pointer for a
// pointer cast, and the operand; it returns the result.  Its code is what
// the atomic would have inline; drivers inline such functions (it is marked
// Inline), so the dispatched code is the same.
InstRef Lowering::callHelper(Site &S) {
  const Inst A = M.inst(S.Atomic);
  const uint32_t Ptr = M.operand(S.Atomic, 0), Value = M.operand(S.Atomic, 3);
  // The kind: everything the helper's code depends on.
  // (Scratch vectors kept across calls: one lowering makes many calls.)
  std::vector<uint32_t> &Key = Scratch.Key, &Args = Scratch.Args,
                        &ParamTypes = Scratch.ParamTypes, &Pattern = Scratch.Pattern;
  Key.assign({uint32_t(S.Kind), uint32_t(S.Op), A.TypeId, M.operand(S.Atomic, 1),
              M.operand(S.Atomic, 2), S.EarlyOutLegal, S.NonUniform, S.ResultUnused,
              S.Root, S.Exclusive});
  Args.assign(1, 0); // the callee, filled in below
  ParamTypes.clear();
  Pattern.clear(); // per index: 0 = parameter, else the constant
  if (S.Kind == MemKind::PointerCast) {
    Key.push_back(typeOf(Ptr));
    Args.push_back(Ptr);
    ParamTypes.push_back(typeOf(Ptr));
  } else {
    uint32_t T = pointee(typeOf(S.Root));
    for (InstRef AC : S.Chain)
      for (uint32_t K = 1; K < M.numOperands(AC); ++K) {
        const uint32_t Idx = M.operand(AC, K);
        const InstRef TD = M.def(T);
        if (M.inst(TD).Opcode == Op::OpTypeStruct) {
          uint64_t Member = 0;
          constantValue(Idx, Member);
          Key.push_back(Idx);
          Pattern.push_back(Idx);
          T = M.operand(TD, uint32_t(Member));
        } else {
          Key.push_back(0);
          Key.push_back(typeOf(Idx));
          Pattern.push_back(0);
          Args.push_back(Idx);
          ParamTypes.push_back(typeOf(Idx));
          T = M.operand(TD, 0);
        }
      }
  }
  // A scope or semantics given by a run-time value (Kernel modules may do
  // this) is a parameter too: the helper cannot use the caller's ids.
  bool RunTime[2] = {false, false};
  for (uint32_t K = 0; K < 2; ++K) {
    const uint32_t Id = M.operand(S.Atomic, 1 + K);
    if (isConstantId(M, Id))
      continue;
    RunTime[K] = true;
    Key[3 + K] = 0;
    Key.push_back(typeOf(Id));
    Args.push_back(Id);
    ParamTypes.push_back(typeOf(Id));
  }
  Args.push_back(Value);
  ParamTypes.push_back(A.TypeId);

  auto It = HelperOf.find(Key);
  if (It == HelperOf.end()) {
    const uint32_t FnId = M.newId();
    It = HelperOf.emplace(Key, FnId).first;
    Function F;
    F.Def = M.create(Op::OpFunction, A.TypeId, FnId,
                     {uint32_t(spv::FunctionControlMask::Inline),
                      M.typeFunction(A.TypeId, ParamTypes)},
                     0b10);
    std::vector<uint32_t> Params;
    for (uint32_t T : ParamTypes) {
      Params.push_back(M.newId());
      F.Params.push_back(M.create(Op::OpFunctionParameter, T, Params.back(), {}, 0));
    }
    // A PhysicalStorageBuffer pointer parameter must say whether it aliases.
    if (S.Kind == MemKind::PointerCast && M.opOf(ParamTypes[0]) == Op::OpTypePointer &&
        pointerClass(ParamTypes[0]) == StorageClass::PhysicalStorageBuffer)
      M.addDecoration(Params[0], spv::Decoration::Aliased);
    Operands X;
    X.Value = Params.back();
    X.ResultId = M.newId();
    X.Rebuild = true;
    size_t P = 0;
    if (S.Kind == MemKind::PointerCast) {
      X.Ptr = Params[P++];
    } else {
      for (uint32_t C : Pattern)
        X.Indices.push_back(C ? C : Params[P++]);
    }
    X.Scope = RunTime[0] ? Params[P++] : 0;
    X.Semantics = RunTime[1] ? Params[P++] : 0;
    Block Entry;
    Entry.Label = M.newId();
    Entry.LabelInst = M.create(Op::OpLabel, 0, Entry.Label, {}, 0);
    F.Blocks.push_back(std::move(Entry));
    lowerAtomic(F.Blocks, S, X);
    F.Blocks.back().Body.push_back(M.create(Op::OpReturnValue, 0, 0, {X.ResultId}, 0b1));
    F.End = M.create(Op::OpFunctionEnd, 0, 0, {}, 0);
    Helpers.push_back(std::move(F));
  }
  Args[0] = It->second;
  return M.create(Op::OpFunctionCall, A.TypeId, A.ResultId, Args, ~uint64_t{0}, true);
}

// A float add on a Workgroup float that is retyped for a min/max beside
// it (a target with native float add but no float min/max, like NVIDIA's)
// has no integer form: it becomes a compare-exchange loop of float adds on
// the integer view, which, like the native add, returns the value it
// replaced.  Compared as bits, a NaN in memory cannot keep the loop going.
bool Lowering::collectRetypedAdds() {
  if (SharedRoots.empty())
    return true;
  std::vector<InstRef> Chain;
  for (Function &F : M.functions())
    for (Block &B : F.Blocks)
      for (InstRef R : B.Body) {
        if (M.inst(R).Opcode != Op::OpAtomicFAddEXT)
          continue;
        const uint32_t Cur = chainRoot(M.operand(R, 0), Chain);
        if (!SharedRoots.count(Cur) || !hasFloat(M.inst(R).TypeId))
          continue; // f16 leaves keep their type, and their native add
        Site S;
        S.Atomic = R;
        S.Add = true;
        S.Op = FloatOp::Max; // unused; a float add is no min/max writer
        S.Kind = MemKind::SharedRetype;
        S.Width = M.scalarWidth(M.inst(R).TypeId);
        if (S.Width == 64 && !Target.mayUseInt64Atomics(MemoryClass::Shared)) {
          error(FailureKind::TargetLacksFeature,
                M.describe(R) + ": lowering a 64-bit float atomic needs 64-bit "
                                "integer atomics, which the target (" +
                    Target.Source + ") does not support");
          return false;
        }
        if (!traceRoot(R, M.operand(R, 0), S))
          return false;
        SiteOf[R] = Sites.size();
        Sites.push_back(std::move(S));
      }
  return true;
}

void Lowering::removeUnusedAddCapabilities() {
  bool Left32 = false, Left64 = false, LeftAny = false;
  for (const Function &F : M.functions())
    for (const Block &B : F.Blocks)
      for (InstRef R : B.Body)
        if (M.inst(R).Opcode == Op::OpAtomicFAddEXT) {
          const uint32_t W = M.scalarWidth(M.inst(R).TypeId);
          Left32 |= W == 32;
          Left64 |= W == 64;
          LeftAny = true;
        }
  if (!Left32)
    M.removeCapability(spv::Capability::AtomicFloat32AddEXT);
  if (!Left64)
    M.removeCapability(spv::Capability::AtomicFloat64AddEXT);
  // The extension defines the instruction for the f16 add as well.
  if (!LeftAny)
    M.removeExtension("SPV_EXT_shader_atomic_float_add");
}

void Lowering::lowerAdd(std::vector<Block> &Blocks, const Site &S, const Operands &X) {
  const Inst A = M.inst(S.Atomic);
  const uint32_t UT = M.typeInt(S.Width, false), BT = M.typeBool();
  const uint32_t U32 = M.typeInt(32, false);
  const uint32_t Scope = M.operand(S.Atomic, 1), SemId = M.operand(S.Atomic, 2);
  // Semantics as in lowerAtomic's CAS loop: ordered ones move to barriers
  // around a Relaxed loop (what lavapipe runs exactly); otherwise the loop
  // uses the atomic's own, and Relaxed loads where they are unknown.
  uint32_t LoadSem = SemId, EqualSem = SemId, Before = 0, After = 0;
  uint64_t Sem = 0;
  if (!constantValue(SemId, Sem)) {
    LoadSem = constantInt(U32, 0);
  } else if (Sem & (SemAcquire | SemRelease | SemAcqRel | SemSeqCst)) {
    const uint64_t Classes = (Sem & SemStorageClasses) |
                             storageClassSemantics(StorageClass::Workgroup);
    LoadSem = EqualSem = constantInt(U32, Sem & SemVolatile);
    if (Sem & (SemRelease | SemAcqRel | SemSeqCst))
      Before = constantInt(U32, SemRelease | Classes | (Sem & SemMakeAvailable));
    if (Sem & (SemAcquire | SemAcqRel | SemSeqCst))
      After = constantInt(U32, SemAcquire | Classes | (Sem & SemMakeVisible));
  }
  auto Body = [&]() -> std::vector<InstRef> & { return Blocks.back().Body; };
  auto NewBlock = [&](uint32_t Label) {
    Block B;
    B.Label = Label;
    B.LabelInst = M.create(Op::OpLabel, 0, Label, {}, 0);
    Blocks.push_back(std::move(B));
  };
  auto Emit = [&](Op O, uint32_t T, std::initializer_list<uint32_t> Ops, uint32_t Id = 0) {
    Id = Id ? Id : M.newId();
    Body().push_back(M.create(O, T, Id, Ops, ~uint64_t{0}));
    return Id;
  };
  if (Before)
    Body().push_back(M.create(Op::OpMemoryBarrier, 0, 0, {Scope, Before}, 0b11));
  const uint32_t First = Emit(Op::OpAtomicLoad, UT, {X.Ptr, Scope, LoadSem});
  const uint32_t Pre = Blocks.back().Label, Header = M.newId(), Loop = M.newId(),
                 Continue = M.newId(), Merge = M.newId();
  const uint32_t Cur = M.newId(), Got = M.newId();
  Body().push_back(M.create(Op::OpBranch, 0, 0, {Header}, 0b1));
  NewBlock(Header);
  Emit(Op::OpPhi, UT, {First, Pre, Got, Continue}, Cur);
  Body().push_back(M.create(Op::OpLoopMerge, 0, 0, {Merge, Continue, 0}, 0b11));
  Body().push_back(M.create(Op::OpBranch, 0, 0, {Loop}, 0b1));
  NewBlock(Loop);
  const uint32_t Sum = Emit(Op::OpFAdd, A.TypeId,
                            {Emit(Op::OpBitcast, A.TypeId, {Cur}), X.Value});
  Emit(Op::OpAtomicCompareExchange, UT,
       {X.Ptr, Scope, EqualSem, LoadSem, Emit(Op::OpBitcast, UT, {Sum}), Cur}, Got);
  const uint32_t Done = Emit(Op::OpIEqual, BT, {Got, Cur});
  Body().push_back(M.create(Op::OpBranchConditional, 0, 0, {Done, Merge, Continue}, 0b111));
  NewBlock(Continue);
  Body().push_back(M.create(Op::OpBranch, 0, 0, {Header}, 0b1));
  NewBlock(Merge);
  if (After)
    Body().push_back(M.create(Op::OpMemoryBarrier, 0, 0, {Scope, After}, 0b11));
  Emit(Op::OpBitcast, A.TypeId, {Cur}, X.ResultId);
}

void Lowering::lowerAtomic(std::vector<Block> &Blocks, Site &S, const Operands &X) {
  if (S.Add)
    return lowerAdd(Blocks, S, X);
  // Appends the lowered atomic to Blocks.back(), and the blocks it needs
  // after it.
  auto NewBlock = [&](uint32_t Label) {
    Block B;
    B.Label = Label;
    B.LabelInst = M.create(Op::OpLabel, 0, Label, {}, 0);
    B.Body.reserve(8); // most blocks of a lowering hold a few instructions
    Blocks.push_back(std::move(B));
  };
  auto Cur = [&]() -> std::vector<InstRef> & { return Blocks.back().Body; };
  auto CurLabel = [&]() { return Blocks.back().Label; };

  const Inst A = M.inst(S.Atomic);
  const uint32_t W = S.Width;
  const uint32_t ResultId = X.ResultId, FloatType = A.TypeId;
  const uint32_t Scope = X.Scope ? X.Scope : M.operand(S.Atomic, 1);
  const uint32_t SemId = X.Semantics ? X.Semantics : M.operand(S.Atomic, 2);
  const uint32_t Value = X.Value;
  const NanPolicy Policy = Opts.policyFor(NanPolicy::Number);

  const uint32_t UT = M.typeInt(W, false), BT = M.typeBool();
  const uint32_t U32 = M.typeInt(32, false);
  auto C = [&](uint64_t V) { return constantInt(UT, V); };
  // Created on first use, so that a policy without NaN tests adds no NaN
  // constants.
  auto CZero = [&] { return C(0); };
  auto CSign = [&] { return C(signBit(W)); };
  auto CAbs = [&] { return C(widthMask(W) >> 1); };
  auto CExp = [&] { return C(exponentMask(W)); };

  auto op = [&](Op O, uint32_t T, std::initializer_list<uint32_t> Ops, uint64_t Mask = ~uint64_t{0}) {
    const uint32_t Id = M.newId();
    Cur().push_back(M.create(O, T, Id, Ops, Mask));
    return Id;
  };
  auto stmt = [&](Op O, std::initializer_list<uint32_t> Ops, uint64_t Mask) {
    Cur().push_back(M.create(O, 0, 0, Ops, Mask));
  };

  // Semantics of a CAS loop's atomics, and the barriers around it: made on
  // the first CAS loop, so that an atomic without one adds no constants.
  //
  // With constant semantics that order (Acquire, Release, AcquireRelease),
  // the loop's atomics are Relaxed and the ordering moves to barriers of the
  // same scope: a release barrier before the loop and an acquire barrier
  // after it.  Lavapipe (Mesa 22.3.6) returns values that no interleaving
  // gives from a compare-exchange that carries either ordering inside a
  // loop, and runs this form exactly.
  //
  // It is the same ordering under the Vulkan memory model (appendix "Memory
  // Model", Synchronizes-With).  A release barrier A synchronizes-with an
  // acquire B when A is program-ordered before an atomic write X of any
  // semantics and B reads X's value (or one of the release sequence X heads),
  // X and B being mutually-ordered: X is the loop's successful CAS.  An
  // atomic release A synchronizes-with an acquire barrier B when an atomic
  // read X of any semantics, program-ordered before B, reads A's value (or
  // one of A's release sequence): X is the loop's last load or CAS.  The
  // barrier-to-barrier rule pairs the two the same way.  Each rule also asks
  // that the two sides be in the instance of each other's scope (the
  // barrier has the atomic's scope) and that X's storage class be in the
  // barrier's semantics (the barrier has the atomic's storage-class bits,
  // plus the class of the atomic's own memory).  MakeAvailable goes with the
  // release barrier, MakeVisible with the acquire one.  No memory access of
  // the invocation lies between a barrier and the loop.  C11 and OpenCL 2.0
  // have the same fence rules.
  //
  // Otherwise the loop's loads and the compare-exchange's Unequal case take
  // the semantics without their release part, and its Equal case the
  // atomic's own: for Relaxed ones, for SequentiallyConsistent in a Kernel
  // module (its total order has no barrier form; Vulkan does not allow it),
  // and for semantics given by a spec constant (unknown: loads Relaxed).
  struct LoopOrder {
    uint32_t Load = 0, Equal = 0, Before = 0, After = 0;
  };
  std::optional<LoopOrder> Order;
  auto LoopOrdering = [&]() -> const LoopOrder & {
    if (Order)
      return *Order;
    LoopOrder L;
    L.Equal = SemId;
    uint64_t Sem = 0;
    if (!constantValue(SemId, Sem)) {
      L.Load = constantInt(U32, 0);
    } else if ((Sem & (SemAcquire | SemRelease | SemAcqRel | SemSeqCst)) &&
               !((Sem & SemSeqCst) && M.hasCapability(spv::Capability::Kernel))) {
      const uint64_t Classes =
          (Sem & SemStorageClasses) |
          storageClassSemantics(pointerClass(typeOf(M.operand(S.Atomic, 0))));
      L.Load = L.Equal = constantInt(U32, Sem & SemVolatile);
      if (Sem & (SemRelease | SemAcqRel | SemSeqCst))
        L.Before = constantInt(U32, SemRelease | Classes | (Sem & SemMakeAvailable));
      if (Sem & (SemAcquire | SemAcqRel | SemSeqCst))
        L.After = constantInt(U32, SemAcquire | Classes | (Sem & SemMakeVisible));
    } else if (!(Sem & (SemRelease | SemAcqRel | SemSeqCst))) {
      L.Load = SemId;
    } else {
      // MakeAvailable needs a release; MakeVisible needs an acquire.
      uint64_t R = Sem & ~uint64_t(SemRelease | SemAcqRel | SemSeqCst | SemMakeAvailable);
      if (Sem & (SemAcqRel | SemSeqCst))
        R |= SemAcquire;
      if (!(R & SemAcquire))
        R &= ~uint64_t(SemMakeVisible);
      L.Load = constantInt(U32, R);
    }
    Order = L;
    return *Order;
  };

  // ---- the integer pointer ----
  const uint32_t Ptr = X.Ptr;
  uint32_t IntPtr = Ptr;
  const StorageClass SC = pointerClass(typeOf(M.operand(S.Atomic, 0)));
  switch (S.Kind) {
  case MemKind::PointerCast:
    IntPtr = op(Op::OpBitcast, M.typePointer(SC, UT), {Ptr}, 0b1);
    break;
  case MemKind::BufferAlias:
  case MemKind::SharedRetype: {
    if (S.Kind == MemKind::SharedRetype && !X.Rebuild)
      break; // the pointer is an integer pointer now
    std::vector<uint32_t> Ops{S.Root};
    Ops.insert(Ops.end(), X.Indices.begin(), X.Indices.end());
    IntPtr = M.newId();
    Cur().push_back(M.create(Op::OpAccessChain, M.typePointer(SC, UT), IntPtr, Ops,
                             ~uint64_t{0}, true));
    if (S.NonUniform)
      M.addDecoration(IntPtr, spv::Decoration::NonUniform);
    break;
  }
  case MemKind::Private:
  case MemKind::ImageRetype:
    break;
  }

  // ---- operand bits ----
  uint32_t VB = op(Op::OpBitcast, UT, {Value}, 0b1);
  if (FlushWidths.count(W)) {
    const uint32_t Mag = op(Op::OpBitwiseAnd, UT, {VB, CAbs()});
    const uint32_t M1 = op(Op::OpISub, UT, {Mag, C(1)});
    const uint32_t IsSub = op(Op::OpULessThan, BT, {M1, C(widthMask(mantissaBits(W)))});
    const uint32_t Sgn = op(Op::OpBitwiseAnd, UT, {VB, CSign()});
    VB = op(Op::OpSelect, UT, {IsSub, Sgn, VB});
  }
  auto IsNaN = [&](uint32_t X) {
    return op(Op::OpUGreaterThan, BT, {op(Op::OpBitwiseAnd, UT, {X, CAbs()}), CExp()});
  };
  auto Ordered = [&](uint32_t X) { // U(x) = x ^ ((x >>s (W-1)) | sign)
    const uint32_t Sh = op(Op::OpShiftRightArithmetic, UT, {X, C(W - 1)});
    return op(Op::OpBitwiseXor, UT, {X, op(Op::OpBitwiseOr, UT, {Sh, CSign()})});
  };
  const bool NeedNaN = Policy != NanPolicy::Fast;
  const uint32_t VNaN = NeedNaN ? IsNaN(VB) : 0;
  // U(v), computed once here (dominating every use) when a combine will need
  // it: the CAS loop, the number fix-up, or the Function/Private path.
  // propagate: the single-RMW form (sticky NaN pattern after the early-out)
  // is linearizable only when every writer is a lowered atomic of the same
  // kind (a NaN that another writer stores is not sticky; min's sticky
  // pattern is not sticky for max); elsewhere the CAS loop, which skips its
  // exchange when nothing changes (the early-out), combines under every
  // interleaving.
  const bool CasPath = usesCasLoop(
      Opts.Strat, Policy,
      S.EarlyOutLegal && (Policy != NanPolicy::Propagate || S.Exclusive));
  const uint32_t UVB = (CasPath || Policy == NanPolicy::Number || S.Kind == MemKind::Private)
                           ? Ordered(VB)
                           : 0;
  // U-order "v wins against cur".
  auto Wins = [&](uint32_t Cur) {
    return op(S.Op == FloatOp::Min ? Op::OpULessThan : Op::OpUGreaterThan, BT,
              {UVB, Ordered(Cur)});
  };

  // combine(cur, v) per policy: LoweringModel.cpp's policyCombine.
  // NumberOperand: the caller has established that v is not a NaN.
  auto Combine = [&](uint32_t Cur, bool NumberOperand) {
    const uint32_t Wn = Wins(Cur);
    switch (Policy) {
    case NanPolicy::Number: {
      uint32_t Take = op(Op::OpLogicalOr, BT, {IsNaN(Cur), Wn});
      if (!NumberOperand)
        Take = op(Op::OpLogicalAnd, BT, {op(Op::OpLogicalNot, BT, {VNaN}), Take});
      return op(Op::OpSelect, UT, {Take, VB, Cur});
    }
    case NanPolicy::Propagate: {
      const uint32_t T1 = op(Op::OpSelect, UT, {Wn, VB, Cur});
      const uint32_t T2 = op(Op::OpSelect, UT, {VNaN, C(stickyPattern(S.Op, W)), T1});
      return op(Op::OpSelect, UT, {IsNaN(Cur), Cur, T2});
    }
    case NanPolicy::Fast:
      return op(Op::OpSelect, UT, {Wn, VB, Cur});
    }
    return Cur;
  };

  // CAS loop from the current block; returns the value memory held before
  // the op.  SkipSame: leave without writing when nothing would change.
  auto CasLoop = [&](bool SkipSame, bool NumberOperand) {
    const LoopOrder &Ord = LoopOrdering();
    if (Ord.Before)
      stmt(Op::OpMemoryBarrier, {Scope, Ord.Before}, 0b11);
    const uint32_t C0 = op(Op::OpAtomicLoad, UT, {IntPtr, Scope, Ord.Load});
    const uint32_t Pre = CurLabel();
    const uint32_t Hdr = M.newId(), Body = M.newId(), Try = M.newId(),
                   Cont = M.newId(), Merge = M.newId();
    stmt(Op::OpBranch, {Hdr}, 0b1);
    NewBlock(Hdr);
    const uint32_t Cx = M.newId();
    const uint32_t Cc = M.newId();
    Cur().push_back(M.create(Op::OpPhi, UT, Cc, {C0, Pre, Cx, Cont}, 0b1111));
    stmt(Op::OpLoopMerge, {Merge, Cont, 0}, 0b11);
    stmt(Op::OpBranch, {Body}, 0b1);
    NewBlock(Body);
    const uint32_t New = Combine(Cc, NumberOperand);
    if (SkipSame) {
      const uint32_t Same = op(Op::OpIEqual, BT, {New, Cc});
      stmt(Op::OpBranchConditional, {Same, Merge, Try}, 0b111);
    } else {
      stmt(Op::OpBranch, {Try}, 0b1);
    }
    NewBlock(Try);
    Cur().push_back(M.create(Op::OpAtomicCompareExchange, UT, Cx,
                             {IntPtr, Scope, Ord.Equal, Ord.Load, New, Cc}, 0b111111));
    const uint32_t Done = op(Op::OpIEqual, BT, {Cx, Cc});
    stmt(Op::OpBranchConditional, {Done, Merge, Cont}, 0b111);
    NewBlock(Cont);
    stmt(Op::OpBranch, {Hdr}, 0b1);
    NewBlock(Merge);
    if (Ord.After)
      stmt(Op::OpMemoryBarrier, {Scope, Ord.After}, 0b11);
    return Cc; // defined in the header, which dominates the merge
  };

  // One sign-dispatched integer atomic; returns its result (0 when
  // \p WantResult is false: no phi joins the two results).
  auto Dispatch = [&](uint32_t Operand, bool WantResult = true) {
    const uint32_t Neg = op(Op::OpINotEqual, BT, {op(Op::OpBitwiseAnd, UT, {Operand, CSign()}), CZero()});
    const uint32_t PosL = M.newId(), NegL = M.newId(), Join = M.newId();
    stmt(Op::OpSelectionMerge, {Join, 0}, 0b1);
    stmt(Op::OpBranchConditional, {Neg, NegL, PosL}, 0b111);
    NewBlock(PosL);
    const uint32_t R1 = op(S.Op == FloatOp::Min ? Op::OpAtomicSMin : Op::OpAtomicSMax, UT,
                           {IntPtr, Scope, SemId, Operand});
    stmt(Op::OpBranch, {Join}, 0b1);
    NewBlock(NegL);
    const uint32_t R2 = op(S.Op == FloatOp::Min ? Op::OpAtomicUMax : Op::OpAtomicUMin, UT,
                           {IntPtr, Scope, SemId, Operand});
    stmt(Op::OpBranch, {Join}, 0b1);
    NewBlock(Join);
    return WantResult ? op(Op::OpPhi, UT, {R1, PosL, R2, NegL}) : 0u;
  };

  // A NaN in \p X that the dispatched atomic would leave in place.
  auto StickyNaN = [&](uint32_t X) {
    const uint32_t XSign = op(Op::OpBitwiseAnd, UT, {X, CSign()});
    const uint32_t Stays = op(S.Op == FloatOp::Min ? Op::OpINotEqual : Op::OpIEqual, BT,
                              {XSign, CZero()});
    return op(Op::OpLogicalAnd, BT, {IsNaN(X), Stays});
  };
  // number: a NaN in memory must give way to the operand.  The dispatched
  // atomic displaces a NaN of one sign (positive for min, negative for max)
  // by itself; a NaN of the other sign stays, and then the operation takes
  // effect at a CAS fix-up, whose observed value is the operation's result
  // (so that results stay linearizable).  Returns the result bits.
  auto FixUp = [&](uint32_t Old) {
    if (Policy != NanPolicy::Number)
      return Old;
    const uint32_t Need = op(Op::OpLogicalAnd, BT,
                             {StickyNaN(Old), op(Op::OpLogicalNot, BT, {VNaN})});
    const uint32_t From = CurLabel();
    const uint32_t Fix = M.newId(), Join = M.newId();
    stmt(Op::OpSelectionMerge, {Join, 0}, 0b1);
    stmt(Op::OpBranchConditional, {Need, Fix, Join}, 0b111);
    NewBlock(Fix);
    const uint32_t Seen = CasLoop(/*SkipSame=*/true, /*NumberOperand=*/true);
    const uint32_t FixLast = CurLabel();
    stmt(Op::OpBranch, {Join}, 0b1);
    NewBlock(Join);
    return op(Op::OpPhi, UT, {Seen, FixLast, Old, From});
  };

  uint32_t ResultBits = 0;
  if (S.Kind == MemKind::Private) {
    // No other invocation sees it: load, combine, store.
    Cur().push_back(M.create(Op::OpLoad, FloatType, ResultId, {Ptr}, 0b1));
    const uint32_t CurBits = op(Op::OpBitcast, UT, {ResultId}, 0b1);
    const uint32_t New = Combine(CurBits, /*NumberOperand=*/false);
    stmt(Op::OpStore, {Ptr, op(Op::OpBitcast, FloatType, {New}, 0b1)}, 0b11);
  } else if (CasPath) {
    ResultBits = CasLoop(S.EarlyOutLegal, /*NumberOperand=*/false);
  } else {
    uint32_t Operand = VB;
    if (Policy == NanPolicy::Number)
      Operand = op(Op::OpSelect, UT, {VNaN, C(identityPattern(S.Op, W)), VB});
    else if (Policy == NanPolicy::Propagate)
      Operand = op(Op::OpSelect, UT, {VNaN, C(stickyPattern(S.Op, W)), VB});
    // number, result unused, early-out, and every writer of the memory a
    // lowered atomic of the same kind (Site::Exclusive): the fix-up is
    // decided from the early-out's atomic load instead of from the integer
    // atomic's result,
    // which then stays unused (drivers emit a reduction: on an H200 up to
    // 1.6x faster in docs/gpu-performance.md).  A sticky NaN seen by the
    // load goes straight to the CAS loop.  A NaN written by a non-min/max
    // store after the load and left in place by the integer atomic is
    // equivalent to this operation taking effect just before that store:
    // the final memory is the same and no value of this operation is
    // observed.  Without early-out the same scheme would need a load of its
    // own, which costs more than it saves except on a single hot address
    // (measured: docs/gpu-performance.md, "early-out=off"), so there the
    // fix-up reads the atomic's result.  Not so against other writers: a
    // value-returning one (an exchange, a compare-exchange or an integer
    // atomic on an integer view) that puts a NaN between the load and the
    // integer atomic returns the value it replaced, and no order of the two
    // leaves that NaN in place; there the fix-up reads the atomic's result.
    const bool LoadDecides = Policy == NanPolicy::Number && S.ResultUnused &&
                             S.EarlyOutLegal && S.Exclusive;
    auto FixOrDispatch = [&](uint32_t Loaded) {
      const uint32_t Need = StickyNaN(Loaded);
      const uint32_t Fix = M.newId(), Plain = M.newId(), Join = M.newId();
      stmt(Op::OpSelectionMerge, {Join, 0}, 0b1);
      stmt(Op::OpBranchConditional, {Need, Fix, Plain}, 0b111);
      NewBlock(Fix);
      CasLoop(/*SkipSame=*/true, /*NumberOperand=*/true);
      stmt(Op::OpBranch, {Join}, 0b1);
      NewBlock(Plain);
      Dispatch(Operand, /*WantResult=*/false);
      stmt(Op::OpBranch, {Join}, 0b1);
      NewBlock(Join);
    };
    if (S.EarlyOutLegal) {
      const uint32_t Loaded = op(Op::OpAtomicLoad, UT, {IntPtr, Scope, SemId});
      const uint32_t UL = Ordered(Loaded);
      // Under number, U(v) serves for the operand: the two differ only for
      // a NaN v, which skips anyway.
      const uint32_t UV =
          UVB && (Operand == VB || Policy == NanPolicy::Number) ? UVB : Ordered(Operand);
      uint32_t Skip = op(S.Op == FloatOp::Min ? Op::OpUGreaterThanEqual : Op::OpULessThanEqual,
                         BT, {UV, UL});
      if (Policy == NanPolicy::Number) {
        // NaN operand: no-op.  NaN in memory: take the RMW path (fix-up).
        const uint32_t LNaN = IsNaN(Loaded);
        Skip = op(Op::OpLogicalOr, BT,
                  {VNaN, op(Op::OpLogicalAnd, BT, {op(Op::OpLogicalNot, BT, {LNaN}), Skip})});
      } else if (Policy == NanPolicy::Propagate) {
        Skip = op(Op::OpLogicalOr, BT, {IsNaN(Loaded), Skip});
      }
      const uint32_t From = CurLabel();
      const uint32_t Rmw = M.newId(), Join = M.newId();
      stmt(Op::OpSelectionMerge, {Join, 0}, 0b1);
      stmt(Op::OpBranchConditional, {Skip, Join, Rmw}, 0b111);
      NewBlock(Rmw);
      if (LoadDecides) {
        // The operand is not a NaN here (that case was skipped).
        FixOrDispatch(Loaded);
        stmt(Op::OpBranch, {Join}, 0b1);
        NewBlock(Join);
        ResultBits = Loaded; // the result has no uses; any defined value
      } else {
        const uint32_t Old = FixUp(Dispatch(Operand));
        const uint32_t Last = CurLabel();
        stmt(Op::OpBranch, {Join}, 0b1);
        NewBlock(Join);
        ResultBits = op(Op::OpPhi, UT, {Loaded, From, Old, Last});
      }
    } else {
      ResultBits = FixUp(Dispatch(Operand));
    }
  }
  if (ResultBits)
    Cur().push_back(M.create(Op::OpBitcast, FloatType, ResultId, {ResultBits}, 0b1));
}

} // namespace

LowerFloatAtomicMinMaxPass::LowerFloatAtomicMinMaxPass(LoweringOptions Options,
                                                       TargetModel Target)
    : Options(std::move(Options)), Target(std::move(Target)) {
  for (Feature F : this->Options.Native)
    this->Target.set(F, true);
}

void LowerFloatAtomicMinMaxPass::SetMessageConsumer(spvtools::MessageConsumer C) {
  Consumer = std::move(C);
}

PassStatus LowerFloatAtomicMinMaxPass::Process(std::vector<uint32_t> &Words) {
  Failure = FailureKind::None;
  Lowered = 0;
  Module M;
  std::string Error;
  if (!M.parse(Words.data(), Words.size(), Error)) {
    Failure = FailureKind::InvalidModule;
    if (Consumer)
      Consumer(SPV_MSG_ERROR, nullptr, {0, 0, 0}, Error.c_str());
    return PassStatus::Failure;
  }
  // Decorations that groups apply become plain ones, which the lowering
  // copies to the integer views (the output is only written if it lowers).
  M.flattenDecorationGroups();
  Lowering L(M, Options, Target, Consumer);
  if (!L.collect()) {
    Failure = L.Failure;
    return PassStatus::Failure;
  }
  if (L.lowered() == 0)
    return PassStatus::SuccessWithoutChange;
  L.mutate();
  // SPIR-V's limits (2.17, Universal Limits): an id bound of at most
  // 4194303 (parse() accepts up to 4194304 for --max-id-bound), and at most
  // 65535 words per instruction (an entry point's interface list or a block
  // type can grow by one).
  std::string Limit;
  if (M.bound() > 0x3FFFFF)
    Limit = "lowering would need an id bound of " + std::to_string(M.bound()) +
            ", above the SPIR-V limit of 4194303 (the input's bound is " +
            std::to_string(Words.size() > 3 ? Words[3] : 0) + ")";
  M.forEachPlaced([&](InstRef R) {
    const Inst &I = M.inst(R);
    const uint64_t N = 1 + (I.TypeId ? 1 : 0) + (I.ResultId ? 1 : 0) + uint64_t(I.Count);
    if (N > 0xFFFF && Limit.empty())
      Limit = M.describe(R) + ": lowering would make it " + std::to_string(N) +
              " words long, above the SPIR-V limit of 65535";
  });
  if (!Limit.empty()) {
    Failure = FailureKind::Unsupported;
    if (Consumer)
      Consumer(SPV_MSG_ERROR, nullptr, {0, 0, 0}, Limit.c_str());
    return PassStatus::Failure;
  }
  Lowered = L.lowered();
  // The input is no longer needed: free it before the output is built.
  std::vector<uint32_t>().swap(Words);
  Words = M.emit();
  return PassStatus::SuccessWithChange;
}

} // namespace fatomic
