//===- LowerFloatAtomicMinMax.cpp - Float atomic min/max to integer atomics ===//
//
// The LLVM IR emitter of the algorithm in fatomic/LoweringModel.h; see
// fatomic/LLVM/LowerFloatAtomicMinMax.h for what is rewritten and how.
// Under `number` with the dispatch strategy the emitted control flow is
// shorter than the model's, with the same values: a NaN seen by the
// early-out load goes to the dispatched atomic (which replaces it or
// returns it), and the fix-up for a NaN the atomic returned is one
// compare-exchange, after which a failed exchange runs the atomic again
// (see emitDispatchWithFixUp).  The execution tests (test/llvm/exec) check
// the values against the reference model, sequentially and from threads.
//
// Comparisons are written per sign, as the integer atomic that the operand
// dispatches to would make them; for every pair of bit patterns that is the
// same relation as the model's comparison in the order-preserving map U.
// The values computed from the operand alone are made once per block for
// all the atomics that take it (SharedOperand), before the first of them.
// Values and the combination of the compare-exchange loops are integers
// throughout: a NaN never reaches a float compare, so no loop can spin on it.
// New values are left unnamed (naming them took about a third of the pass's
// time in opt); blocks are named fatomic.*.  Instructions are made directly
// at their place (Appender), not through IRBuilder (docs/llvm-compile-time.md).
//
// The pass first collects every float min/max atomic of the function and
// reports the DXIL calls it cannot lower, then rewrites the collected atomics
// in reverse order, so that each block split moves only the instructions that
// follow the atomic up to the previous split.
//
// Shape of the output for one atomic (dispatch strategy, early-out allowed,
// `number` policy; the other variants drop blocks from it):
//
//   entry:   b = bitcast v; op = isnan(b) ? identity : b; neg = op <s 0
//              (shared with the block's other atomics on v)
//            cur = load atomic (monotonic | acquire)
//            br (neg ? op >u cur : op <s cur) | <cur is a NaN the atomic
//               cannot displace>, rmw, done
//              (where the target has no acquire load, NVPTX before sm_70:
//               cur is loaded monotonic and the branch goes to done through
//               a block with `fence acquire`; see emitEarlyExit)
//   rmw:     br neg, neg-block, pos-block
//   pos/neg: old = atomicrmw min|max / umax|umin (the only RMW)
//            br <old is a NaN this atomic cannot displace>, fixup, done
//   fixup:   cmpxchg old -> (isnan(b) ? old : b)          ; unlikely path
//            br stored, done, rmw
//   done:    result = phi(...); bitcast to the FP type
//
//===----------------------------------------------------------------------===//

#include "fatomic/LLVM/LowerFloatAtomicMinMax.h"

#include "BoundCache.h"
#include "WarpAggregate.h"

#include "fatomic/LoweringModel.h"
#include "fatomic/OrderMap.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/ConstantFold.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/EHPersonalities.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <type_traits>

#if __has_include("llvm/Plugins/PassPlugin.h")
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

using namespace llvm;

namespace fatomic::llvmir {

namespace {

//===----------------------------------------------------------------------===//
// DXIL constants (DXC include/dxc/DXIL/DxilConstants.h)
//===----------------------------------------------------------------------===//

constexpr unsigned DxilOpAtomicBinOp = 78;
constexpr unsigned DxilOpAtomicCompareExchange = 79;

// dx.op.atomicBinOp argument positions.
enum DxilBinOpArg : unsigned {
  DxilArgOpcode,
  DxilArgHandle,
  DxilArgAtomicOp,
  DxilArgCoord0,
  DxilArgCoord1,
  DxilArgCoord2,
  DxilArgValue,
  DxilBinOpNumArgs
};

// DXIL::AtomicBinOpCode values for the integer min/max.
constexpr unsigned DxilIMin = 4, DxilIMax = 5, DxilUMin = 6, DxilUMax = 7;

unsigned dxilAtomicCode(IntOp Op) {
  switch (Op) {
  case IntOp::SMin:
    return DxilIMin;
  case IntOp::SMax:
    return DxilIMax;
  case IntOp::UMin:
    return DxilUMin;
  case IntOp::UMax:
    return DxilUMax;
  }
  llvm_unreachable("covered switch");
}

AtomicRMWInst::BinOp llvmAtomicOp(IntOp Op) {
  switch (Op) {
  case IntOp::SMin:
    return AtomicRMWInst::Min;
  case IntOp::SMax:
    return AtomicRMWInst::Max;
  case IntOp::UMin:
    return AtomicRMWInst::UMin;
  case IntOp::UMax:
    return AtomicRMWInst::UMax;
  }
  llvm_unreachable("covered switch");
}

//===----------------------------------------------------------------------===//
// Collection
//===----------------------------------------------------------------------===//

/// A float min/max atomic that the pass rewrites.
struct FloatAtomic {
  Instruction *Inst; ///< an AtomicRMWInst or a dx.op.atomicBinOp call
  FloatOp Op;
  NanPolicy DefaultPolicy;
  unsigned Group = 0; ///< index of its SharedOperand (set by the pass)
  /// Whether every write to its memory is proven to be a lowered float
  /// atomic of its own kind (WriterProof), which allows the forms that are
  /// exact only then.
  bool Exclusive = false;
  /// Where it goes to a helper from a funclet (FuncletColors): the
  /// funclet's EH pad, which the call names in a "funclet" bundle.
  Instruction *Funclet = nullptr;
};

/// The operand number of a collected atomic's value: an atomicrmw's
/// operands are the pointer and the value; a DXIL call's are its arguments.
unsigned valueOperandNo(const Instruction &Inst) {
  return isa<AtomicRMWInst>(Inst) ? 1u : unsigned(DxilArgValue);
}

/// The operand of a collected atomic.
Value *valueOperand(Instruction &Inst) {
  return Inst.getOperand(valueOperandNo(Inst));
}

/// Scalar FP types whose bits the integer atomics order correctly: IEEE-like
/// sign-magnitude formats of an integer-atomic width.
bool isLowerableScalar(const Type *Ty) {
  return Ty->isHalfTy() || Ty->isBFloatTy() || Ty->isFloatTy() ||
         Ty->isDoubleTy();
}

/// Scalars, and fixed vectors of them that fit a 64-bit word.
bool isLowerableType(Type *Ty) {
  if (auto *VTy = dyn_cast<FixedVectorType>(Ty))
    return isLowerableScalar(VTy->getElementType()) &&
           isSupportedWidth(VTy->getPrimitiveSizeInBits().getFixedValue());
  return isLowerableScalar(Ty);
}

/// The operation and NaN policy of a float min/max atomicrmw operation;
/// nothing for any other operation.
std::optional<std::pair<FloatOp, NanPolicy>> floatMinMaxOf(AtomicRMWInst::BinOp O) {
  switch (O) {
  case AtomicRMWInst::FMin:
    return std::pair(FloatOp::Min, NanPolicy::Number);
  case AtomicRMWInst::FMax:
    return std::pair(FloatOp::Max, NanPolicy::Number);
  case AtomicRMWInst::FMinimum:
    return std::pair(FloatOp::Min, NanPolicy::Propagate);
  case AtomicRMWInst::FMaximum:
    return std::pair(FloatOp::Max, NanPolicy::Propagate);
  default:
    return std::nullopt;
  }
}

/// Whether \p RMW is a float min/max, of any type (classifyAtomicRMW says
/// which the pass lowers).
bool isFloatMinMax(const AtomicRMWInst &RMW) {
  return floatMinMaxOf(RMW.getOperation()).has_value();
}

std::optional<FloatAtomic> classifyAtomicRMW(AtomicRMWInst &RMW) {
  const auto Kind = floatMinMaxOf(RMW.getOperation());
  if (!Kind || !isLowerableType(RMW.getType()))
    return std::nullopt;
  return FloatAtomic{&RMW, Kind->first, Kind->second};
}

/// The dx.op.atomicBinOp function that \p CB calls when it is a float
/// overload (the call's or the function's result is FP, scalar or vector),
/// whatever the call's own type; otherwise null.  A definition counts too
/// in a DXIL module: classifyDxilCall reports it.
Function *dxilFloatAtomicBinOpCallee(const CallBase &CB) {
  auto *Callee = dyn_cast<Function>(CB.getCalledOperand());
  if (!Callee || !Callee->getName().starts_with("dx.op.atomicBinOp."))
    return nullptr;
  // A definition is an error in DXIL only; elsewhere (a host emulation of
  // the operation, say) the call is the module's own.
  if (!Callee->isDeclaration() && !Callee->getParent()->getTargetTriple().isDXIL())
    return nullptr;
  if (CB.getType()->isFPOrFPVectorTy() ||
      Callee->getReturnType()->isFPOrFPVectorTy())
    return Callee;
  return nullptr;
}

/// Whether \p C is an i32 constant equal to \p Value (a wider constant
/// never is, whatever its low bits).
bool isI32Constant(const Value *C, unsigned Value) {
  auto *CI = dyn_cast<ConstantInt>(C);
  return CI && CI->getType()->isIntegerTy(32) && CI->getZExtValue() == Value;
}

/// Checks the shape of a float dx.op.atomicBinOp call: returns the float
/// operation, nothing (an op code other than min/max) or an error message.
std::optional<FloatOp> checkDxilCallShape(const CallBase &CB,
                                          const Function &Callee,
                                          std::string &Error) {
  if (!isa<CallInst>(CB)) {
    Error = "an invoke or callbr (DXIL has no exceptions); use a call";
    return std::nullopt;
  }
  if (CB.getFunctionType() != Callee.getFunctionType()) {
    Error = "the call's type does not match the function's declaration";
    return std::nullopt;
  }
  if (CB.arg_size() != DxilBinOpNumArgs) {
    Error = "expected 7 arguments (i32 78, handle, i32 op, 3 x i32 "
            "coordinate, value)";
    return std::nullopt;
  }
  if (!isI32Constant(CB.getArgOperand(DxilArgOpcode), DxilOpAtomicBinOp)) {
    Error = "the first argument must be the DXIL opcode i32 78";
    return std::nullopt;
  }
  auto *Code = dyn_cast<ConstantInt>(CB.getArgOperand(DxilArgAtomicOp));
  if (!Code || !Code->getType()->isIntegerTy(32)) {
    Error = "the atomic op code (third argument) must be an i32 constant";
    return std::nullopt;
  }
  switch (Code->getZExtValue()) {
  case DxilIMin:
  case DxilUMin:
    return FloatOp::Min;
  case DxilIMax:
  case DxilUMax:
    return FloatOp::Max;
  default:
    return std::nullopt; // not a min/max: not ours
  }
}

//===----------------------------------------------------------------------===//
// DXIL resources (DXC include/dxc/DXIL/DxilConstants.h, DxilResourceProperties.h)
//===----------------------------------------------------------------------===//

constexpr unsigned DxilOpCreateHandle = 57, DxilOpCreateHandleForLib = 160,
                   DxilOpAnnotateHandle = 216;
constexpr unsigned DxilClassUAV = 1;
/// DXIL::ResourceKind 1 to 10: the textures and TypedBuffer, whose elements
/// have a format; RawBuffer (11) and StructuredBuffer (12) have none.
constexpr unsigned DxilKindFirstTyped = 1, DxilKindLastTyped = 10;
/// DXIL::ComponentType, by value.
constexpr const char *DxilComponentNames[] = {
    "Invalid",  "I1",        "I16",       "U16",       "I32",
    "U32",      "I64",       "U64",       "F16",       "F32",
    "F64",      "SNormF16",  "UNormF16",  "SNormF32",  "UNormF32",
    "SNormF64", "UNormF64",  "PackedS8x32", "PackedU8x32"};
constexpr unsigned DxilCompI32 = 4, DxilCompU32 = 5, DxilCompI64 = 6,
                   DxilCompU64 = 7;
/// The tag of the element type in a UAV record's extended properties.
constexpr unsigned DxilElementTypeTag = 0;

/// What a handle's origin says of its resource: the kind, and the component
/// type of a typed one (0 where not given).
struct DxilResourceType {
  unsigned Kind = 0;
  unsigned Component = 0;
  const char *Source = "";
};

/// The kind and element type of the UAV record in !dx.resources that
/// \p Matches.
std::optional<DxilResourceType>
dxilUAVRecord(const Module &M, function_ref<bool(const MDNode &)> Matches) {
  const NamedMDNode *Resources = M.getNamedMetadata("dx.resources");
  if (!Resources || Resources->getNumOperands() != 1 ||
      Resources->getOperand(0)->getNumOperands() < 2)
    return std::nullopt;
  auto *UAVs = dyn_cast_or_null<MDNode>(Resources->getOperand(0)->getOperand(1));
  if (!UAVs)
    return std::nullopt;
  for (const MDOperand &Op : UAVs->operands()) {
    auto *Record = dyn_cast_or_null<MDNode>(Op.get());
    if (!Record || Record->getNumOperands() < 7)
      continue;
    auto *Kind = mdconst::dyn_extract_or_null<ConstantInt>(Record->getOperand(6));
    if (!Kind || !Matches(*Record))
      continue;
    DxilResourceType T{unsigned(Kind->getZExtValue()), 0, "!dx.resources"};
    auto *Extra = Record->getNumOperands() > 10
                      ? dyn_cast_or_null<MDNode>(Record->getOperand(10))
                      : nullptr;
    for (unsigned I = 0; Extra && I + 1 < Extra->getNumOperands(); I += 2) {
      auto *Tag = mdconst::dyn_extract_or_null<ConstantInt>(Extra->getOperand(I));
      auto *Value =
          mdconst::dyn_extract_or_null<ConstantInt>(Extra->getOperand(I + 1));
      if (Tag && Value && Tag->getZExtValue() == DxilElementTypeTag)
        T.Component = unsigned(Value->getZExtValue());
    }
    return T;
  }
  return std::nullopt;
}

/// The resource of \p Handle where its origin shows it: the properties of a
/// dx.op.annotateHandle (shader model 6.6: kind in the first word's low
/// byte, component type in the second's), or the !dx.resources record of a
/// UAV that dx.op.createHandle names by constant range id or
/// dx.op.createHandleForLib by a load of its global (library targets), or
/// of an element of it where the global is an array of resources.
/// Nothing for any other origin (a phi, an argument, a heap handle not
/// annotated).
std::optional<DxilResourceType> dxilResourceOf(const Value *Handle) {
  auto *CI = dyn_cast<CallInst>(Handle);
  const Function *F = CI ? CI->getCalledFunction() : nullptr;
  if (!F || CI->arg_size() < 2)
    return std::nullopt;
  if (F->getName().starts_with("dx.op.annotateHandle") && CI->arg_size() == 3 &&
      isI32Constant(CI->getArgOperand(0), DxilOpAnnotateHandle)) {
    auto *Properties = dyn_cast<Constant>(CI->getArgOperand(2));
    if (Properties && !Properties->getType()->isAggregateType() &&
        !Properties->getType()->isVectorTy())
      Properties = nullptr; // a malformed annotation: not read
    auto *Word0 = Properties ? dyn_cast_or_null<ConstantInt>(
                                   Properties->getAggregateElement(0u))
                             : nullptr;
    auto *Word1 = Properties ? dyn_cast_or_null<ConstantInt>(
                                   Properties->getAggregateElement(1u))
                             : nullptr;
    if (!Word0 || !Word1)
      return std::nullopt;
    return DxilResourceType{unsigned(Word0->getZExtValue() & 0xFF),
                            unsigned(Word1->getZExtValue() & 0xFF),
                            "dx.op.annotateHandle"};
  }
  if (F->getName() == "dx.op.createHandle" && CI->arg_size() == 5 &&
      isI32Constant(CI->getArgOperand(0), DxilOpCreateHandle)) {
    auto *Class = dyn_cast<ConstantInt>(CI->getArgOperand(1));
    auto *Range = dyn_cast<ConstantInt>(CI->getArgOperand(2));
    if (Class && Range && Class->getZExtValue() == DxilClassUAV)
      return dxilUAVRecord(*CI->getModule(), [&](const MDNode &Record) {
        auto *Id = mdconst::dyn_extract_or_null<ConstantInt>(Record.getOperand(0));
        return Id && Id->getZExtValue() == Range->getZExtValue();
      });
  }
  if (F->getName().starts_with("dx.op.createHandleForLib") && CI->arg_size() == 2 &&
      isI32Constant(CI->getArgOperand(0), DxilOpCreateHandleForLib)) {
    // An array of resources (RWBuffer<float> bufs[4]) is loaded through a
    // getelementptr of its global, whose record describes every element.
    auto *Load = dyn_cast<LoadInst>(CI->getArgOperand(1));
    auto *Global = Load ? dyn_cast<GlobalVariable>(
                              getUnderlyingObject(Load->getPointerOperand()))
                        : nullptr;
    if (Global)
      return dxilUAVRecord(*CI->getModule(), [&](const MDNode &Record) {
        auto *Named = mdconst::dyn_extract_or_null<Constant>(Record.getOperand(1));
        return Named && Named->stripPointerCasts() == Global;
      });
  }
  return std::nullopt;
}

/// DXIL's integer atomics on a typed resource need integer components of
/// the word's width (D3D12: R32_UINT/R32_SINT, R64_UINT/R64_SINT); the
/// lowering keeps the resource, so a float-typed one cannot take it.
bool checkDxilResource(const CallInst &CI, unsigned WordBits,
                       std::string &Error) {
  std::optional<DxilResourceType> R =
      dxilResourceOf(CI.getArgOperand(DxilArgHandle));
  if (!R || R->Kind < DxilKindFirstTyped || R->Kind > DxilKindLastTyped ||
      R->Component == 0)
    return true;
  const bool Wide = WordBits == 64;
  if (R->Component == (Wide ? DxilCompI64 : DxilCompI32) ||
      R->Component == (Wide ? DxilCompU64 : DxilCompU32))
    return true;
  const std::string Component =
      R->Component < std::size(DxilComponentNames)
          ? DxilComponentNames[R->Component]
          : "component type " + std::to_string(R->Component);
  const std::string Needed = Wide ? "I64 or U64" : "I32 or U32";
  Error = "the handle is a typed resource with " + Component +
          " components (" + R->Source +
          "), and DXIL's integer atomics on a typed resource need " + Needed +
          " components: declare it with an integer format, or use a raw or structured buffer";
  return false;
}

/// The integer overloads that the lowering of one float atomicBinOp call
/// declares or reuses: a declaration of that name must have exactly the
/// type the lowering calls it with.  \p Planned holds the types that the
/// calls checked before this one (in the same function) will declare.
class DxilOverloadCheck {
public:
  explicit DxilOverloadCheck(Module &M) : M(M) {}

  /// Checks dx.op.atomicBinOp.iN and dx.op.atomicCompareExchange.iN for a
  /// call \p CI of word type \p WordTy; the lowering needs the first unless
  /// \p CasOnly, the second unless \p NoCmpXchg.
  bool check(const CallInst &CI, IntegerType *WordTy, bool CasOnly,
             bool NoCmpXchg, std::string &Error) {
    Type *I32 = Type::getInt32Ty(M.getContext());
    Type *Handle = CI.getArgOperand(DxilArgHandle)->getType();
    const std::string Suffix = ".i" + std::to_string(WordTy->getBitWidth());
    if (!CasOnly &&
        !checkOne("dx.op.atomicBinOp" + Suffix,
                  FunctionType::get(WordTy, {I32, Handle, I32, I32, I32, I32,
                                             WordTy}, false),
                  Error))
      return false;
    return NoCmpXchg ||
           checkOne("dx.op.atomicCompareExchange" + Suffix,
                    FunctionType::get(WordTy, {I32, Handle, I32, I32, I32,
                                               WordTy, WordTy}, false),
                    Error);
  }

private:
  bool checkOne(const std::string &Name, FunctionType *Ty,
                std::string &Error) {
    FunctionType *&Want = Planned[Name];
    if (!Want) {
      if (!checkExisting(Name, Ty, Error))
        return false;
      Want = Ty;
    }
    if (Want != Ty) {
      Error = "another call needs " + Name + " with another handle type";
      return false;
    }
    return true;
  }
  /// What the module already has under \p Name must be a declaration of
  /// type \p Ty (the lowering's own, made for an earlier function's calls,
  /// included).
  bool checkExisting(const std::string &Name, FunctionType *Ty,
                     std::string &Error) const {
    GlobalValue *Existing = M.getNamedValue(Name);
    if (!Existing)
      return true;
    auto *F = dyn_cast<Function>(Existing);
    if (!F)
      Error = "the module already has a global named " + Name +
              ", not a declaration of the type the lowering calls (" +
              typeString(Ty) + ")";
    else if (F->getFunctionType() != Ty)
      Error = "the module already has a function named " + Name +
              " of type " + typeString(F->getFunctionType()) +
              ", not the type the lowering calls (" + typeString(Ty) + ")";
    else if (!F->isDeclaration())
      Error = "the module defines " + Name +
              ", and DXIL has no calls to functions it defines";
    else
      return true;
    return false;
  }
  static std::string typeString(Type *Ty) {
    std::string S;
    raw_string_ostream OS(S);
    Ty->print(OS);
    return S;
  }

  Module &M;
  StringMap<FunctionType *> Planned;
};

/// Classifies a float dx.op.atomicBinOp call: the atomic to lower, nothing
/// (an op code other than min/max), or an error message.
std::optional<FloatAtomic> classifyDxilCall(CallBase &CB, Function &Callee,
                                            const LoweringOptions &Options,
                                            DxilOverloadCheck &Overloads,
                                            std::string &Error) {
  std::optional<FloatOp> Op = checkDxilCallShape(CB, Callee, Error);
  if (!Op)
    return std::nullopt;
  if (!Callee.isDeclaration()) {
    Error = "the module defines it, and DXIL has no calls to functions it "
            "defines";
    return std::nullopt;
  }
  Type *Ty = CB.getType();
  if (!Ty->isFloatTy() && !Ty->isDoubleTy()) {
    Error = "DXIL has integer atomics of 32 and 64 bits only; a float "
            "atomicBinOp must be f32 or f64";
    return std::nullopt;
  }
  for (unsigned I = DxilArgCoord0; I <= DxilArgCoord2; ++I)
    if (!CB.getArgOperand(I)->getType()->isIntegerTy(32)) {
      Error = "the coordinates must be i32";
      return std::nullopt;
    }
  if (CB.getArgOperand(DxilArgValue)->getType() != Ty) {
    Error = "the value must have the result type";
    return std::nullopt;
  }
  // DXIL has no atomic load: propagate is the compare-exchange loop.
  const NanPolicy Policy = Options.policyFor(NanPolicy::Number);
  const bool CasOnly = usesCasLoop(Options.Strat, Policy, /*EarlyOut=*/false);
  const bool NoCmpXchg = !CasOnly && Policy == NanPolicy::Fast;
  auto &CI = cast<CallInst>(CB);
  if (!checkDxilResource(CI, Ty->getPrimitiveSizeInBits(), Error))
    return std::nullopt;
  if (!Overloads.check(CI, IntegerType::get(CB.getContext(),
                                            Ty->getPrimitiveSizeInBits()),
                       CasOnly, NoCmpXchg, Error))
    return std::nullopt;
  return FloatAtomic{&CI, *Op, NanPolicy::Number};
}

//===----------------------------------------------------------------------===//
// Proof of exclusive writers
//===----------------------------------------------------------------------===//

/// What makes two float atomics interchangeable writers of one memory: the
/// operation, the type and the effective NaN policy.
struct AtomicKind {
  FloatOp Op;
  Type *Ty;
  NanPolicy Policy;
  bool operator==(const AtomicKind &O) const {
    return Op == O.Op && Ty == O.Ty && Policy == O.Policy;
  }
};

/// The float atomics of a module whose memory only lowered float atomics of
/// their own kind write (the proof that writers=module allows the cheaper
/// forms on).  Conservative: the memory must be a global variable of local
/// linkage whose every use, through getelementptr, bitcast and addrspacecast
/// (instructions or constant expressions), is a load or a float atomic of
/// one kind.  Anything else (a store, another atomic, a call, a pointer
/// stored or compared or converted, a phi or select, an alias) gives no
/// proof for any atomic on that global; so do function arguments, allocas
/// and every other pointer, which are never proven.
class WriterProof {
public:
  WriterProof(Module &M, const LoweringOptions &Options) {
    if (Options.Writers != WriterScope::Module)
      return;
    for (GlobalVariable &GV : M.globals())
      if (GV.hasLocalLinkage())
        proveGlobal(GV, Options);
  }

  bool isExclusive(const AtomicRMWInst &RMW) const {
    return Proven.contains(&RMW);
  }

private:
  void proveGlobal(GlobalVariable &GV, const LoweringOptions &Options);

  SmallPtrSet<const AtomicRMWInst *, 8> Proven;
};

void WriterProof::proveGlobal(GlobalVariable &GV,
                              const LoweringOptions &Options) {
  SmallVector<const Value *, 8> Pointers = {&GV};
  SmallPtrSet<const Value *, 8> Seen = {&GV};
  SmallVector<const AtomicRMWInst *, 4> Writers;
  std::optional<AtomicKind> Kind;
  while (!Pointers.empty()) {
    const Value *Ptr = Pointers.pop_back_val();
    for (const User *U : Ptr->users()) {
      if (isa<GEPOperator>(U) || isa<BitCastOperator>(U) ||
          isa<AddrSpaceCastOperator>(U)) {
        if (Seen.insert(U).second)
          Pointers.push_back(U);
        continue;
      }
      if (auto *Load = dyn_cast<LoadInst>(U);
          Load && Load->getPointerOperand() == Ptr)
        continue;
      auto *RMW = dyn_cast<AtomicRMWInst>(U);
      if (!RMW || RMW->getPointerOperand() != Ptr)
        return; // a write, or the pointer escapes
      std::optional<FloatAtomic> A =
          classifyAtomicRMW(const_cast<AtomicRMWInst &>(*RMW));
      if (!A)
        return; // an integer atomic, an exchange, a float add
      AtomicKind This{A->Op, RMW->getType(), Options.policyFor(A->DefaultPolicy)};
      if (Kind && !(*Kind == This))
        return; // min and max, or two types, or two policies
      Kind = This;
      Writers.push_back(RMW);
    }
  }
  Proven.insert(Writers.begin(), Writers.end());
}

//===----------------------------------------------------------------------===//
// Appending instructions
//===----------------------------------------------------------------------===//

/// Makes instructions at one place (the end of a block, or before an
/// instruction), all with one debug location, folding those whose operands
/// are all constants as IRBuilder's default folder does.  Instructions are
/// made directly rather than through IRBuilder, whose generic path (folder
/// and inserter calls, naming, metadata list) cost about a sixth of the
/// pass's time.
class Appender {
public:
  explicit Appender(DebugLoc DL) : DL(std::move(DL)) {}

  BasicBlock *block() { return At.getBasicBlock(); }
  /// Appends to the end of \p Block from now on.
  void setBlock(BasicBlock *Block) { At = Block; }
  /// Inserts before \p I from now on.
  void setBefore(Instruction &I) { At = I.getIterator(); }

  Value *icmp(CmpInst::Predicate P, Value *L, Value *R) {
    if (auto *CL = dyn_cast<Constant>(L))
      if (auto *CR = dyn_cast<Constant>(R))
        if (Constant *C = ConstantFoldCompareInstruction(P, CL, CR))
          return C;
    return add(new ICmpInst(At, P, L, R));
  }
  Value *select(Value *C, Value *T, Value *F) {
    if (auto *CC = dyn_cast<Constant>(C))
      if (auto *CT = dyn_cast<Constant>(T))
        if (auto *CF = dyn_cast<Constant>(F))
          if (Constant *Folded = ConstantFoldSelectInstruction(CC, CT, CF))
            return Folded;
    return add(SelectInst::Create(C, T, F, "", At));
  }
  Value *binOp(Instruction::BinaryOps Op, Value *L, Value *R) {
    if (auto *CL = dyn_cast<Constant>(L))
      if (auto *CR = dyn_cast<Constant>(R))
        if (Constant *C = ConstantFoldBinaryInstruction(Op, CL, CR))
          return C;
    return add(BinaryOperator::Create(Op, L, R, "", At));
  }
  Value *bitCast(Value *V, Type *Ty) {
    if (V->getType() == Ty)
      return V;
    if (auto *C = dyn_cast<Constant>(V))
      return ConstantExpr::getBitCast(C, Ty);
    return add(new BitCastInst(V, Ty, "", At));
  }
  PHINode *phi(Type *Ty, unsigned Incoming) {
    return add(PHINode::Create(Ty, Incoming, "", At));
  }
  Value *extractValue(Value *Aggregate, unsigned Index) {
    return add(ExtractValueInst::Create(Aggregate, {Index}, "", At));
  }
  BranchInst *br(BasicBlock *Dest) { return add(BranchInst::Create(Dest, At)); }
  BranchInst *condBr(Value *C, BasicBlock *True, BasicBlock *False) {
    return add(BranchInst::Create(True, False, C, At));
  }
  /// Any other instruction, made with InsertPosition at().
  InsertPosition at() const { return At; }
  template <typename T> T *add(T *I) {
    I->setDebugLoc(DL);
    return I;
  }

private:
  InsertPosition At = nullptr;
  DebugLoc DL;
};

//===----------------------------------------------------------------------===//
// The memory the atomic works on
//===----------------------------------------------------------------------===//

/// The integer atomics of one form (LLVM instructions or DXIL calls) on the
/// word that holds the float.
class AtomicWord {
public:
  virtual ~AtomicWord() = default;

  /// The ordering of the early-out's atomic load, or std::nullopt where an
  /// early-out is not allowed.
  virtual std::optional<AtomicOrdering> earlyOutOrdering() const = 0;

  /// An atomic load of the word with \p Ordering (monotonic where
  /// relaxesLoad), or nullptr when the form has no atomic load.
  virtual Value *emitLoad(Appender &A, AtomicOrdering Ordering) = 0;

  /// Whether emitLoad makes a load of \p Ordering monotonic, because the
  /// target cannot select it: a path on which that load's value is the
  /// atomic's result must then have emitLoadFence.
  virtual bool relaxesLoad(AtomicOrdering Ordering) const = 0;

  /// The fence that, after a load that relaxesLoad made monotonic, gives
  /// the synchronisation of a load of \p Ordering.
  virtual void emitLoadFence(Appender &A, AtomicOrdering Ordering) = 0;

  /// One integer min/max; returns the old word.
  virtual Value *emitMinMax(Appender &A, IntOp Op, Value *Operand) = 0;

  /// One strong compare-exchange; returns the old word (null unless
  /// \p WantOld) and whether it stored.
  virtual std::pair<Value *, Value *>
  emitCmpXchg(Appender &A, Value *Expected, Value *Desired,
              bool WantOld) = 0;
};

/// The first NVPTX architecture with atomic loads stronger than monotonic
/// (PTX's ld.acquire); for an older one llc aborts on such a load.
constexpr unsigned FirstNVPTXAcquireLoadArch = 70;

/// The sm_XY of the "target-cpu" \p F is compiled for; none where it names
/// none (then llc's -mcpu, which the pass cannot see, decides).
std::optional<unsigned> smArchOf(const Function &F) {
  return smArch(F.getFnAttribute("target-cpu").getValueAsString());
}

/// Whether the back end of \p F selects atomic loads stronger than
/// monotonic.  NVPTX does from sm_70 on; a function that names no
/// target-cpu is compiled for llc's -mcpu, whose default is older, so it
/// counts as older.
bool selectsAcquireLoads(const Function &F) {
  if (!F.getParent()->getTargetTriple().isNVPTX())
    return true;
  std::optional<unsigned> Arch = smArchOf(F);
  return Arch && *Arch >= FirstNVPTXAcquireLoadArch;
}

/// The syncscope of the atomic loads and fences that lower \p RMW.  NVPTX
/// selects atomicrmw and cmpxchg at every scope, but no atomic load or
/// fence at singlethread scope, nor at cluster scope before sm_90 (llc
/// aborts: "Atomics need scope > Thread"): there they take the system
/// scope, which orders at least what the narrower one would.
SyncScope::ID addedScope(const AtomicRMWInst &RMW) {
  const SyncScope::ID Scope = RMW.getSyncScopeID();
  const Function &F = *RMW.getFunction();
  if (!F.getParent()->getTargetTriple().isNVPTX())
    return Scope;
  if (Scope == SyncScope::SingleThread)
    return SyncScope::System;
  if (RMW.getContext().getSyncScopeName(Scope) == "cluster") {
    std::optional<unsigned> Arch = smArchOf(F);
    if (!Arch || *Arch < 90)
      return SyncScope::System;
  }
  return Scope;
}

/// `atomicrmw` and friends, with the original ordering, syncscope,
/// volatility, alignment and metadata; the loads monotonic where the
/// target has no stronger ones (selectsAcquireLoads), and loads and fences
/// of a scope the target selects (addedScope).
class LLVMAtomicWord final : public AtomicWord {
public:
  LLVMAtomicWord(AtomicRMWInst &RMW, IntegerType *WordTy)
      : RMW(RMW), WordTy(WordTy),
        AcquireLoads(selectsAcquireLoads(*RMW.getFunction())),
        LoadScope(addedScope(RMW)) {}

  std::optional<AtomicOrdering> earlyOutOrdering() const override {
    if (RMW.isVolatile())
      return std::nullopt;
    AtomicOrdering Ordering = RMW.getOrdering();
    if (Ordering == AtomicOrdering::Monotonic ||
        Ordering == AtomicOrdering::Acquire)
      return Ordering;
    return std::nullopt;
  }

  Value *emitLoad(Appender &A, AtomicOrdering Ordering) override {
    if (relaxesLoad(Ordering))
      Ordering = AtomicOrdering::Monotonic;
    return withMetadata(A.add(new LoadInst(
        WordTy, RMW.getPointerOperand(), "", RMW.isVolatile(), RMW.getAlign(),
        Ordering, LoadScope, A.at())));
  }

  bool relaxesLoad(AtomicOrdering Ordering) const override {
    return !AcquireLoads && isStrongerThanMonotonic(Ordering);
  }

  /// A monotonic load and then an acquire fence synchronise with every
  /// release that an acquire load would (the fence rules of C++
  /// [atomics.fences] and LangRef's fence), and more.  The fence has the
  /// load's syncscope.
  void emitLoadFence(Appender &A, AtomicOrdering Ordering) override {
    assert(Ordering == AtomicOrdering::Acquire &&
           "the early-out loads monotonic or acquire");
    A.add(new FenceInst(RMW.getContext(), Ordering, LoadScope, A.at()));
  }

  Value *emitMinMax(Appender &A, IntOp Op, Value *Operand) override {
    auto *New = A.add(new AtomicRMWInst(
        llvmAtomicOp(Op), RMW.getPointerOperand(), Operand, RMW.getAlign(),
        RMW.getOrdering(), RMW.getSyncScopeID(), A.at()));
    New->setVolatile(RMW.isVolatile());
    return withMetadata(New);
  }

  std::pair<Value *, Value *> emitCmpXchg(Appender &A, Value *Expected,
                                          Value *Desired,
                                          bool WantOld) override {
    AtomicOrdering Success = RMW.getOrdering();
    auto *Pair = A.add(new AtomicCmpXchgInst(
        RMW.getPointerOperand(), Expected, Desired, RMW.getAlign(), Success,
        AtomicCmpXchgInst::getStrongestFailureOrdering(Success),
        RMW.getSyncScopeID(), A.at()));
    Pair->setVolatile(RMW.isVolatile());
    withMetadata(Pair);
    Value *Old = WantOld ? A.extractValue(Pair, 0) : nullptr;
    return {Old, A.extractValue(Pair, 1)};
  }

private:
  /// Carries the memory-describing metadata (TBAA, alias scopes, target
  /// hints such as !amdgpu.no.fine.grained.memory) over to \p To.  The debug
  /// location comes from the Appender; !fpmath does not apply to integers.
  Instruction *withMetadata(Instruction *To) const {
    if (!RMW.hasMetadataOtherThanDebugLoc())
      return To;
    SmallVector<std::pair<unsigned, MDNode *>, 4> MDs;
    RMW.getAllMetadataOtherThanDebugLoc(MDs);
    for (const auto &[Kind, MD] : MDs)
      if (Kind != LLVMContext::MD_fpmath)
        To->setMetadata(Kind, MD);
    return To;
  }

  AtomicRMWInst &RMW;
  IntegerType *WordTy;
  const bool AcquireLoads; ///< selectsAcquireLoads of RMW's function
  const SyncScope::ID LoadScope; ///< addedScope of RMW
};

/// dx.op.atomicBinOp / dx.op.atomicCompareExchange on the call's resource
/// and coordinates.
class DxilAtomicWord final : public AtomicWord {
public:
  DxilAtomicWord(CallInst &Call, IntegerType *WordTy)
      : Call(Call), WordTy(WordTy) {}

  std::optional<AtomicOrdering> earlyOutOrdering() const override {
    return std::nullopt;
  }

  Value *emitLoad(Appender &, AtomicOrdering) override { return nullptr; }

  bool relaxesLoad(AtomicOrdering) const override { return false; }

  void emitLoadFence(Appender &, AtomicOrdering) override {
    llvm_unreachable("DXIL has no atomic load to relax");
  }

  Value *emitMinMax(Appender &A, IntOp Op, Value *Operand) override {
    Value *Args[] = {i32(DxilOpAtomicBinOp),
                     Call.getArgOperand(DxilArgHandle),
                     i32(dxilAtomicCode(Op)),
                     Call.getArgOperand(DxilArgCoord0),
                     Call.getArgOperand(DxilArgCoord1),
                     Call.getArgOperand(DxilArgCoord2),
                     Operand};
    return A.add(
        CallInst::Create(declare("dx.op.atomicBinOp", Args), Args, "", A.at()));
  }

  std::pair<Value *, Value *> emitCmpXchg(Appender &A, Value *Expected,
                                          Value *Desired, bool) override {
    Value *Args[] = {i32(DxilOpAtomicCompareExchange),
                     Call.getArgOperand(DxilArgHandle),
                     Call.getArgOperand(DxilArgCoord0),
                     Call.getArgOperand(DxilArgCoord1),
                     Call.getArgOperand(DxilArgCoord2),
                     Expected,
                     Desired};
    Value *Old = A.add(CallInst::Create(
        declare("dx.op.atomicCompareExchange", Args), Args, "", A.at()));
    return {Old, A.icmp(CmpInst::ICMP_EQ, Old, Expected)};
  }

private:
  Constant *i32(unsigned V) const {
    return ConstantInt::get(Type::getInt32Ty(Call.getContext()), V);
  }
  /// Declares (or finds) `<Base>.i32` / `<Base>.i64` returning the word and
  /// taking arguments of the types of \p Args.
  FunctionCallee declare(StringRef Base, ArrayRef<Value *> Args) {
    SmallVector<Type *, 8> Params;
    for (Value *Arg : Args)
      Params.push_back(Arg->getType());
    Module &M = *Call.getModule();
    const std::string Name = (Base + ".i" + Twine(WordTy->getBitWidth())).str();
    auto *Ty = FunctionType::get(WordTy, Params, /*isVarArg=*/false);
    // A declaration of the module's own is used as it is (DxilOverloadCheck
    // has checked its type); only one made here gets nounwind.
    if (Function *Existing = M.getFunction(Name)) {
      assert(Existing->getFunctionType() == Ty && "checked by the collection");
      return FunctionCallee(Ty, Existing);
    }
    Function *F = Function::Create(Ty, GlobalValue::ExternalLinkage, Name, M);
    F->setDoesNotThrow();
    return FunctionCallee(Ty, F);
  }

  CallInst &Call;
  IntegerType *WordTy;
};

//===----------------------------------------------------------------------===//
// Lowering of one atomic
//===----------------------------------------------------------------------===//

/// The constants of one lane type (iN or <K x iN>), each looked up in the
/// context once per function, on first use, rather than for every atomic.
class LaneConstants {
public:
  explicit LaneConstants(Type *FPTy)
      : FPTy(FPTy), LaneTy(FPTy->getWithNewType(Type::getIntNTy(
                        FPTy->getContext(), FPTy->getScalarSizeInBits()))),
        LaneBits(FPTy->getScalarSizeInBits()) {}

  Type *const FPTy;
  Type *const LaneTy;
  const unsigned LaneBits;

  /// Every bit but the sign.
  Constant *magnitudeMask() {
    return get(MagnitudeMask,
               [&] { return APInt::getSignedMaxValue(LaneBits); });
  }
  Constant *posInf() {
    return get(PosInf, [&] { return infBits(); });
  }
  Constant *negInf() {
    return get(NegInf,
               [&] { return infBits() | APInt::getSignMask(LaneBits); });
  }
  Constant *zero() {
    return get(Zero, [&] { return APInt::getZero(LaneBits); });
  }
  Constant *identity(FloatOp Op) {
    return get(Identity[unsigned(Op)], [&] {
      return APInt(LaneBits, identityPattern(Op, LaneBits));
    });
  }
  Constant *sticky(FloatOp Op) {
    return get(Sticky[unsigned(Op)], [&] {
      return APInt(LaneBits, stickyPattern(Op, LaneBits));
    });
  }

private:
  template <typename MakeBits>
  Constant *get(Constant *&Slot, MakeBits &&Bits) {
    if (!Slot)
      Slot = ConstantInt::get(LaneTy, Bits());
    return Slot;
  }
  /// The exponent mask, which is the bit pattern of +inf.
  APInt infBits() const {
    return APFloat::getInf(FPTy->getScalarType()->getFltSemantics())
        .bitcastToAPInt();
  }

  Constant *MagnitudeMask = nullptr, *PosInf = nullptr, *NegInf = nullptr,
           *Zero = nullptr;
  Constant *Identity[2] = {}, *Sticky[2] = {}; ///< by FloatOp
};

/// The values that depend on an operand alone: its bits, their NaN test, the
/// bits with a NaN rewritten to a pattern, and each form's sign test.  They
/// are emitted once for all the atomics of one block that
/// take the same operand (the min and the max of one value, as a bounding box
/// takes them), before the first of those atomics, which dominates the
/// others.  The atomics are rewritten last to first, so that first atomic is
/// still in place, in the same block, when each of the others asks for a
/// value.  Every getter takes the Appender that appender() returns.
class SharedOperand {
public:
  explicit SharedOperand(Instruction &First) : First(&First) {}

  /// Makes instructions before the first atomic, with its debug location.
  Appender appender() const {
    Appender A(First->getDebugLoc());
    A.setBefore(*First);
    return A;
  }

  /// One form of the operand: the bits (Pattern null) or the bits with a
  /// NaN replaced by Pattern.
  struct Form {
    Constant *Pattern = nullptr;
    Value *Lanes = nullptr;
    Value *IsNegative = nullptr;
  };

  Value *bits(Appender &B, LaneConstants &K) {
    if (!Bits)
      Bits = B.bitCast(valueOperand(*First), K.LaneTy);
    return Bits;
  }
  Value *isNaN(Appender &B, LaneConstants &K) {
    if (!IsNaN)
      IsNaN = B.icmp(CmpInst::ICMP_UGT,
                     B.binOp(Instruction::And, bits(B, K), K.magnitudeMask()),
                     K.posInf());
    return IsNaN;
  }
  Value *isNumber(Appender &B, LaneConstants &K) {
    if (!IsNumber)
      IsNumber = B.binOp(Instruction::Xor, isNaN(B, K),
                         Constant::getAllOnesValue(isNaN(B, K)->getType()));
    return IsNumber;
  }
  /// The bits (\p Pattern null) or the bits with a NaN replaced by
  /// \p Pattern, with its sign test.
  const Form &form(Appender &B, LaneConstants &K,
                   Constant *Pattern) {
    Form *F = find(Pattern);
    if (!F) {
      F = &Forms.emplace_back();
      F->Pattern = Pattern;
      F->Lanes = Pattern ? B.select(isNaN(B, K), Pattern, bits(B, K))
                         : bits(B, K);
      F->IsNegative = B.icmp(CmpInst::ICMP_SLT, F->Lanes, K.zero());
    }
    return *F;
  }

private:
  Form *find(Constant *Pattern) {
    for (Form &F : Forms)
      if (F.Pattern == Pattern)
        return &F;
    return nullptr;
  }

  Instruction *First;
  Value *Bits = nullptr, *IsNaN = nullptr, *IsNumber = nullptr;
  SmallVector<Form, 2> Forms; ///< at most the bits and two patterns
};

/// Emits LoweringModel.h's algorithm for one atomic.  Values are integer
/// "lanes": iN for a scalar, <K x iN> for a vector, whose storage is the
/// integer "word" the atomics work on.
class AtomicLowering {
public:
  AtomicLowering(const FloatAtomic &A, AtomicWord &Word, IntegerType *WordTy,
                 LaneConstants &K, SharedOperand &Shared,
                 NanPolicy Policy, Strategy Strat, bool EarlyOutWanted,
                 MDNode *&UnlikelyWeights)
      : Inst(*A.Inst), Op(A.Op), Policy(Policy), Word(Word), WordTy(WordTy),
        K(K), Shared(Shared), UnlikelyWeights(UnlikelyWeights),
        LaneTy(K.LaneTy), LaneBits(K.LaneBits), B(Inst.getDebugLoc()) {
    if (auto Ordering = Word.earlyOutOrdering(); Ordering && EarlyOutWanted)
      EarlyOutOrdering = Ordering;
    UseCasLoop = usesCasLoop(Strat, Policy, EarlyOutOrdering.has_value()) ||
                 LaneTy->isVectorTy() ||
                 (Policy == NanPolicy::Propagate && !A.Exclusive);
  }

  void run();

private:
  //--- Bit-level helpers (lanes) ------------------------------------------
  Value *emitIsNaN(Value *Lanes) {
    return B.icmp(CmpInst::ICMP_UGT,
                  B.binOp(Instruction::And, Lanes, K.magnitudeMask()),
                  K.posInf());
  }
  /// Whether \p Word is a NaN that the dispatched atomic never displaces:
  /// for min a negative NaN (above -inf as unsigned), for max a positive one
  /// (above +inf as signed).  Scalars only.
  Value *emitIsUndisplaceableNaN(Value *Word) {
    return Op == FloatOp::Min ? B.icmp(CmpInst::ICMP_UGT, Word, K.negInf())
                              : B.icmp(CmpInst::ICMP_SGT, Word, K.posInf());
  }
  /// Whether the operand wins over \p Cur: whether the integer atomic that
  /// it dispatches to would change Cur (min: X <s Cur, or X >u Cur for a set
  /// sign bit; max: X >s Cur, or X <u Cur).  This is the relation "U(X)
  /// beats U(Cur)" of the model (OrderMap.h), NaN patterns included (checked
  /// over every pair of binary16 patterns), written with one compare per
  /// sign instead of mapping both values.
  Value *emitWins(Value *Cur) {
    const bool Min = Op == FloatOp::Min;
    auto Positive = [&] {
      return B.icmp(Min ? CmpInst::ICMP_SLT : CmpInst::ICMP_SGT, Operand, Cur);
    };
    auto Negative = [&] {
      return B.icmp(Min ? CmpInst::ICMP_UGT : CmpInst::ICMP_ULT, Operand, Cur);
    };
    if (auto *C = dyn_cast<ConstantInt>(OperandIsNegative))
      return C->isOne() ? Negative() : Positive();
    Value *IfPositive = Positive();
    return B.select(OperandIsNegative, Negative(), IfPositive);
  }
  /// A & B, folding the constant cases (Appender folds only two constants).
  Value *emitAnd(Value *A, Value *B) {
    for (auto [X, Y] : {std::pair(A, B), std::pair(B, A)})
      if (auto *C = dyn_cast<ConstantInt>(X))
        return C->isOne() ? Y : X;
    return this->B.binOp(Instruction::And, A, B);
  }
  Value *toLanes(Value *W) {
    return LaneTy == WordTy ? W : B.bitCast(W, LaneTy);
  }
  Value *toWord(Value *L) {
    return LaneTy == WordTy ? L : B.bitCast(L, WordTy);
  }
  //--- Pieces of the algorithm --------------------------------------------
  void takeOperands();
  Value *emitCombine(Value *CurWord);
  void emitCasLoop(Value *Init, bool SkipUnchanged);
  void emitDispatch(function_ref<void(Value *Old)> Finish);
  void emitDispatchWithFixUp();
  BasicBlock *emitEarlyExit(Value *Cur);
  BasicBlock *newBlock(const Twine &Name) {
    return BasicBlock::Create(Inst.getContext(), Name, Done->getParent(),
                              Done);
  }
  /// Records that the builder's block reaches Done with \p Old as the
  /// atomic's result.
  void addResult(Value *Old) {
    if (WantResult)
      Results.emplace_back(Old, B.block());
  }
  void branchToDone(Value *Old) {
    addResult(Old);
    B.br(Done);
  }
  MDNode *unlikelyWeights() {
    if (!UnlikelyWeights)
      UnlikelyWeights =
          MDBuilder(Inst.getContext()).createUnlikelyBranchWeights();
    return UnlikelyWeights;
  }
  void condBr(Value *Cond, BasicBlock *True, BasicBlock *False,
              bool TrueIsRare) {
    BranchInst *Br = B.condBr(Cond, True, False);
    if (TrueIsRare)
      Br->setMetadata(LLVMContext::MD_prof, unlikelyWeights());
  }

  Instruction &Inst;
  FloatOp Op;
  NanPolicy Policy;
  AtomicWord &Word;
  IntegerType *WordTy;
  LaneConstants &K;
  SharedOperand &Shared;
  MDNode *&UnlikelyWeights; ///< one node per function, made on first use
  Type *LaneTy;
  unsigned LaneBits;
  std::optional<AtomicOrdering> EarlyOutOrdering;
  bool UseCasLoop;
  Appender B;

  Value *Bits = nullptr;           ///< the operand's bits
  Value *BitsIsNaN = nullptr;      ///< number and propagate
  Value *Operand = nullptr;        ///< after the NaN pattern rewrite
  Value *OperandIsNegative = nullptr; ///< picks the dispatched atomic
  Value *BitsIsNumber = nullptr; ///< !BitsIsNaN, number's loop

  BasicBlock *Done = nullptr;
  bool WantResult = false; ///< whether the atomic's result is used
  /// The old word with which each predecessor of Done arrives; one phi
  /// merges them (none when there is only one).
  SmallVector<std::pair<Value *, BasicBlock *>, 6> Results;
};

/// The operand's values, from Shared: emitted before the first atomic of
/// the block that takes the operand, so they must be asked for before this
/// atomic's block is split.  For the compare-exchange loop they are the
/// loop-invariant inputs of emitCombine.
void AtomicLowering::takeOperands() {
  Appender Prep = Shared.appender();
  Bits = Shared.bits(Prep, K);
  if (Policy != NanPolicy::Fast)
    BitsIsNaN = Shared.isNaN(Prep, K);
  Constant *Pattern = nullptr; // fast and number's loop combine the raw bits
  if (UseCasLoop && Policy == NanPolicy::Number)
    BitsIsNumber = Shared.isNumber(Prep, K);
  else if (Policy != NanPolicy::Fast)
    // number: a NaN operand becomes the pattern that leaves memory as it
    // is; propagate: the NaN that no later op displaces.
    Pattern = Policy == NanPolicy::Number ? K.identity(Op)
                                          : K.sticky(Op);
  const SharedOperand::Form &F = Shared.form(Prep, K, Pattern);
  Operand = F.Lanes;
  OperandIsNegative = F.IsNegative;
}

/// The new word a compare-exchange stores over \p CurWord: policyCombine of
/// LoweringModel.h, lane by lane.
Value *AtomicLowering::emitCombine(Value *CurWord) {
  Value *Cur = toLanes(CurWord);
  Value *New = nullptr;
  switch (Policy) {
  case NanPolicy::Number: {
    // NaN operand: keep; NaN in memory or a better operand: take the operand.
    Value *Take = B.binOp(Instruction::Or, emitIsNaN(Cur), emitWins(Cur));
    New = B.select(emitAnd(Take, BitsIsNumber), Bits, Cur);
    break;
  }
  case NanPolicy::Propagate: {
    // NaN in memory: keep; otherwise the operand (a NaN already being the
    // sticky pattern, which beats every number) if it wins.
    Value *Better = B.select(emitWins(Cur), Operand, Cur);
    New = B.select(emitIsNaN(Cur), Cur, Better);
    break;
  }
  case NanPolicy::Fast:
    New = B.select(emitWins(Cur), Bits, Cur);
    break;
  }
  return toWord(New);
}

/// load/combine/cmpxchg loop starting from \p Init, which must be the word's
/// value or a guess.  With \p SkipUnchanged a combination equal to the
/// current word leaves without an exchange (only legal when the current word
/// was read under the early-out rules).  Reaches Done with the word the loop
/// last saw.
void AtomicLowering::emitCasLoop(Value *Init, bool SkipUnchanged) {
  BasicBlock *Preheader = B.block();
  BasicBlock *Loop = newBlock("fatomic.cas.loop");
  B.br(Loop);

  B.setBlock(Loop);
  PHINode *Cur = B.phi(WordTy, 2);
  Cur->addIncoming(Init, Preheader);
  Value *New = emitCombine(Cur);
  if (SkipUnchanged) {
    BasicBlock *Exchange = newBlock("fatomic.cas");
    // Cur is the early-out load's word in the first round (a failed
    // exchange's, which needs no fence but gets it, in the others).
    BasicBlock *Skip = emitEarlyExit(Cur);
    B.condBr(B.icmp(CmpInst::ICMP_EQ, New, Cur), Skip, Exchange);
    B.setBlock(Exchange);
  }
  auto [Seen, Stored] = Word.emitCmpXchg(B, Cur, New, /*WantOld=*/true);
  Cur->addIncoming(Seen, B.block());
  addResult(Cur);
  B.condBr(Stored, Done, Loop);
}

/// The sign-dispatched integer atomic: exactly one executes.  \p Finish is
/// called in each atomic's block with its old word and must end the block.
void AtomicLowering::emitDispatch(function_ref<void(Value *Old)> Finish) {
  // A constant operand needs no branch.
  if (auto *C = dyn_cast<ConstantInt>(OperandIsNegative)) {
    Finish(Word.emitMinMax(B, dispatchOp(Op, C->isOne()), Operand));
    return;
  }
  const IntOp PosOp = dispatchOp(Op, false), NegOp = dispatchOp(Op, true);
  BasicBlock *Pos = newBlock(Twine("fatomic.") + toString(PosOp));
  BasicBlock *Neg = newBlock(Twine("fatomic.") + toString(NegOp));
  B.condBr(OperandIsNegative, Neg, Pos);
  B.setBlock(Pos);
  Finish(Word.emitMinMax(B, PosOp, Operand));
  B.setBlock(Neg);
  Finish(Word.emitMinMax(B, NegOp, Operand));
}

/// Where the early-out leaves for Done with \p Cur, the word its load read,
/// as the atomic's result (the load standing for the read-modify-write):
/// Done itself, or, where the word made that load monotonic
/// (AtomicWord::relaxesLoad), a block that fences first.  The fence is on
/// this path only: on the others an integer atomic of the atomic's own
/// ordering gives the result, and synchronises itself.
BasicBlock *AtomicLowering::emitEarlyExit(Value *Cur) {
  if (!Word.relaxesLoad(*EarlyOutOrdering)) {
    addResult(Cur);
    return Done;
  }
  BasicBlock *From = B.block();
  BasicBlock *Exit = newBlock("fatomic.acquire");
  B.setBlock(Exit);
  Word.emitLoadFence(B, *EarlyOutOrdering);
  branchToDone(Cur);
  B.setBlock(From);
  return Exit;
}

/// The dispatch strategy: the early-out where allowed, then the dispatched
/// atomic, and under `number` the fix-up for a NaN in memory.
///
/// number's fix-up: a NaN found in memory must be replaced by the operand.
/// With the early-out, a NaN seen by the load goes to the dispatched atomic,
/// which replaces it when its integer order lets it (a positive NaN for min,
/// a negative one for max) and otherwise returns it unchanged.  Only that
/// undisplaceable NaN (min: a negative NaN, `old >u -inf`; max: a positive
/// one, `old >s +inf`) takes the fix-up: a compare-exchange from it to the
/// operand, whose result is the NaN it replaced.  Should that exchange fail,
/// memory has changed and the atomic runs again.  A NaN operand leaves a
/// NaN in memory as it is: its identity pattern never changes memory, and
/// its fix-up exchanges the NaN for itself.
void AtomicLowering::emitDispatchWithFixUp() {
  const bool FixUps = Policy == NanPolicy::Number;
  Value *Go = nullptr; // the early-out's decision to run the atomic
  Value *Cur = nullptr; // the word the early-out load read
  if (EarlyOutOrdering) {
    Cur = Word.emitLoad(B, *EarlyOutOrdering);
    // Would the atomic the operand dispatches to change memory?
    Value *Wins = emitWins(Cur);
    switch (Policy) {
    case NanPolicy::Number:
      // A NaN in memory that the operand's atomic would displace wins
      // already; the other kind goes to the atomic too, which returns it to
      // the fix-up.
      Go = B.binOp(Instruction::Or, Wins, emitIsUndisplaceableNaN(Cur));
      break;
    case NanPolicy::Propagate: // a NaN in memory stays, and is the result
      Go = B.select(emitIsNaN(Cur), ConstantInt::getFalse(Inst.getContext()), Wins);
      break;
    case NanPolicy::Fast:
      Go = Wins;
      break;
    }
  }
  // The atomic gets a block of its own when something branches to it: the
  // early-out, or the fix-up's retry.
  BasicBlock *Rmw = nullptr;
  if (Go || FixUps) {
    Rmw = newBlock("fatomic.rmw");
    if (Go) {
      BasicBlock *Skip = emitEarlyExit(Cur);
      B.condBr(Go, Rmw, Skip);
    } else {
      B.br(Rmw);
    }
    B.setBlock(Rmw);
  }
  if (!FixUps) {
    emitDispatch([&](Value *Old) { branchToDone(Old); });
    return;
  }

  BasicBlock *FixUp = newBlock("fatomic.fixup");
  SmallVector<std::pair<Value *, BasicBlock *>, 2> StuckFrom;
  emitDispatch([&](Value *Old) {
    Value *Undisplaced = emitIsUndisplaceableNaN(Old);
    StuckFrom.emplace_back(Old, B.block());
    addResult(Old);
    condBr(Undisplaced, FixUp, Done, /*TrueIsRare=*/true);
  });
  FixUp->moveBefore(Done); // after the atomics

  B.setBlock(FixUp);
  Value *Stuck = StuckFrom.front().first; // the NaN the atomic returned
  if (StuckFrom.size() > 1) {
    PHINode *Phi = B.phi(WordTy, StuckFrom.size());
    for (auto [V, From] : StuckFrom)
      Phi->addIncoming(V, From);
    Stuck = Phi;
  }
  // A NaN operand exchanges the NaN for itself: memory stays as it is.
  Value *Desired = B.select(BitsIsNaN, Stuck, toWord(Bits));
  Value *Stored =
      Word.emitCmpXchg(B, Stuck, Desired, /*WantOld=*/false).second;
  addResult(Stuck);
  B.condBr(Stored, Done, Rmw);
}

void AtomicLowering::run() {
  takeOperands();
  // splitBasicBlock without the branch it would add: the code emitted here
  // ends the block.
  BasicBlock *Entry = Inst.getParent();
  Done = BasicBlock::Create(Inst.getContext(), "fatomic.done",
                            Entry->getParent(), Entry->getNextNode());
  Done->splice(Done->end(), Entry, Inst.getIterator(), Entry->end());
  Done->replaceSuccessorsPhiUsesWith(Entry, Done);
  B.setBlock(Entry);
  WantResult = !Inst.use_empty();

  if (UseCasLoop) {
    Value *Init = Word.emitLoad(
        B, EarlyOutOrdering.value_or(AtomicOrdering::Monotonic));
    if (!Init) // no atomic load: the first exchange reads
      Init = ConstantInt::get(WordTy, 0);
    emitCasLoop(Init, /*SkipUnchanged=*/EarlyOutOrdering.has_value());
  } else {
    emitDispatchWithFixUp();
  }

  if (WantResult) {
    Value *Old = Results.front().first;
    if (Results.size() > 1) {
      PHINode *Phi = PHINode::Create(WordTy, Results.size());
      Phi->insertBefore(Done->begin());
      for (auto [V, From] : Results)
        Phi->addIncoming(V, From);
      Old = Phi;
    }
    auto *Result =
        new BitCastInst(Old, Inst.getType(), "", Done->getFirstNonPHIIt());
    Result->setDebugLoc(Inst.getDebugLoc());
    Inst.replaceAllUsesWith(Result);
  }
  Inst.eraseFromParent();
}

/// The integer word that holds \p Ty.
IntegerType *wordType(Type *Ty) {
  return IntegerType::get(Ty->getContext(),
                          Ty->getPrimitiveSizeInBits().getFixedValue());
}

//===----------------------------------------------------------------------===//
// Outlining
//===----------------------------------------------------------------------===//

/// The helper functions of one run of the module pass: one per kind of
/// atomicrmw (operation, type, ordering, syncscope, address space,
/// volatility, alignment) and target of its callers (targetAttributes),
/// made on first use, appended to the module and lowered in place.  Each
/// helper is `internal alwaysinline nounwind`, has its callers' target
/// attributes, takes the pointer and the operand and returns the old value;
/// the atomic becomes a call to it.  Inliners (every -O level's, and
/// always-inline) write the helper's body back at the atomic.
class Outliner {
public:
  Outliner(Module &M, const LoweringOptions &Options)
      : M(M), Options(Options),
        CallConv(M.getTargetTriple().isSPIROrSPIRV() ? CallingConv::SPIR_FUNC
                                                      : CallingConv::C) {}

  /// Whether \p RMW goes to a helper.  Metadata other than the debug
  /// location (TBAA, alias scopes, target hints) describes this access in
  /// its own function; such an atomic is written out in place, where its
  /// integer atomics keep the metadata.
  static bool canOutline(const AtomicRMWInst &RMW) {
    return !RMW.hasMetadataOtherThanDebugLoc();
  }

  /// Replaces \p RMW by a call of its helper; \p Exclusive and
  /// \p Funclet as in FloatAtomic.
  void replace(AtomicRMWInst &RMW, bool Exclusive, Instruction *Funclet) {
    Function &Helper = helperFor(RMW, Exclusive);
    Value *Args[] = {RMW.getPointerOperand(), RMW.getValOperand()};
    SmallVector<OperandBundleDef, 1> Bundles;
    if (Funclet)
      Bundles.emplace_back("funclet", Funclet);
    CallInst *Call = CallInst::Create(Helper.getFunctionType(), &Helper, Args,
                                      Bundles, "", RMW.getIterator());
    Call->setCallingConv(CallConv);
    Call->setDebugLoc(RMW.getDebugLoc());
    Call->takeName(&RMW);
    RMW.replaceAllUsesWith(Call);
    RMW.eraseFromParent();
  }

private:
  /// What a helper depends on: the type; everything else of the atomic
  /// (all small), packed; its function's target attributes.
  using Key = std::tuple<Type *, uint64_t, AttributeSet>;
  static Key keyOf(const AtomicRMWInst &RMW, bool Exclusive) {
    uint64_t K = uint64_t(RMW.getOperation());                 // < 2^5
    K = K << 1 | uint64_t(Exclusive);
    K = K << 3 | uint64_t(RMW.getOrdering());                  // < 2^3
    K = K << 1 | uint64_t(RMW.isVolatile());
    K = K << 6 | uint64_t(Log2(RMW.getAlign()));               // < 2^6
    K = K << 8 | uint64_t(RMW.getSyncScopeID());               // uint8_t
    K = K << 24 | uint64_t(RMW.getPointerAddressSpace());      // < 2^24
    return {RMW.getType(), K, targetAttributes(*RMW.getFunction())};
  }

  /// The attributes of \p F that choose the target its code is compiled
  /// for, and with it the calling convention (RISC-V passes floats in FP
  /// registers only with +f/+d; "use-soft-float" picks a soft-float ABI).
  /// A helper compiled for another target than its caller would take its
  /// arguments elsewhere, and could not be inlined into it.
  static AttributeSet targetAttributes(const Function &F) {
    static constexpr StringLiteral Kinds[] = {"target-cpu", "target-features",
                                              "tune-cpu", "use-soft-float"};
    AttrBuilder Target(F.getContext());
    for (StringRef Kind : Kinds)
      if (Attribute A = F.getFnAttribute(Kind); A.isValid())
        Target.addAttribute(A);
    return AttributeSet::get(F.getContext(), Target);
  }

  Function &helperFor(AtomicRMWInst &RMW, bool Exclusive) {
    Function *&Helper = Helpers[keyOf(RMW, Exclusive)];
    if (!Helper)
      Helper = makeHelper(RMW, Exclusive);
    return *Helper;
  }

  /// fatomic.<op>.<type>.<ordering>[.volatile][.scope.<name>][.p<AS>]
  /// [.align<N>][.exclusive]; the module appends a number where the name is
  /// taken.
  std::string helperName(const AtomicRMWInst &RMW, bool Exclusive) const {
    std::string Name;
    raw_string_ostream OS(Name);
    OS << "fatomic." << AtomicRMWInst::getOperationName(RMW.getOperation())
       << '.' << typeName(RMW.getType()) << '.'
       << toIRString(RMW.getOrdering());
    if (RMW.isVolatile())
      OS << ".volatile";
    if (RMW.getSyncScopeID() != SyncScope::System) {
      SmallVector<StringRef, 8> Names;
      M.getContext().getSyncScopeNames(Names);
      StringRef Scope = Names[RMW.getSyncScopeID()];
      OS << ".scope." << (Scope.empty() ? "system" : Scope);
    }
    if (unsigned AS = RMW.getPointerAddressSpace())
      OS << ".p" << AS;
    const DataLayout &DL = M.getDataLayout();
    if (RMW.getAlign() != DL.getTypeStoreSize(RMW.getType()).getFixedValue())
      OS << ".align" << RMW.getAlign().value();
    if (Exclusive)
      OS << ".exclusive";
    return Name;
  }

  static std::string typeName(Type *Ty) {
    std::string Name;
    raw_string_ostream OS(Name);
    if (auto *VTy = dyn_cast<FixedVectorType>(Ty)) {
      OS << 'v' << VTy->getNumElements();
      Ty = VTy->getElementType();
    }
    OS << (Ty->isBFloatTy() ? "bf" : "f") << Ty->getPrimitiveSizeInBits();
    return Name;
  }

  Function *makeHelper(AtomicRMWInst &RMW, bool Exclusive);

  Module &M;
  const LoweringOptions &Options;
  const CallingConv::ID CallConv;
  DenseMap<Key, Function *> Helpers;
};

/// The funclets of a function with a scoped EH personality (Windows EH,
/// Wasm EH): a call in a funclet must name the funclet's pad in a
/// "funclet" operand bundle, or WinEHPrepare takes it for unreachable and
/// removes it.  The blocks' funclets are colorEHFunclets', computed on the
/// first question (before any block is split), and only where the function
/// has funclets.
class FuncletColors {
public:
  explicit FuncletColors(Function &F)
      : F(F), HasFunclets(F.hasPersonalityFn() &&
                          isScopedEHPersonality(
                              classifyEHPersonality(F.getPersonalityFn()))) {}

  /// Whether a call in \p BB can name its funclet: \p BB belongs to one
  /// funclet, or to the function's body (a block of several funclets is
  /// cloned apart by WinEHPrepare; its atomics are written out in place).
  bool hasOneFunclet(const BasicBlock &BB) {
    const ColorVector *Colors = colorsOf(BB);
    return !Colors || Colors->size() == 1;
  }

  /// The EH pad of the funclet that \p BB belongs to; null in the
  /// function's body or where the function has no funclets.
  Instruction *padOf(const BasicBlock &BB) {
    const ColorVector *Colors = colorsOf(BB);
    if (!Colors || Colors->size() != 1)
      return nullptr;
    Instruction *Pad = &*Colors->front()->getFirstNonPHIIt();
    return Pad->isEHPad() ? Pad : nullptr;
  }

private:
  const ColorVector *colorsOf(const BasicBlock &BB) {
    if (!HasFunclets)
      return nullptr;
    if (!Colored) {
      Colors = colorEHFunclets(F);
      Colored = true;
    }
    auto It = Colors.find(&BB);
    return It == Colors.end() ? nullptr : &It->second;
  }

  Function &F;
  const bool HasFunclets;
  bool Colored = false;
  DenseMap<BasicBlock *, ColorVector> Colors;
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

/// DXIL has integer atomics of 32 and 64 bits only: in a DXIL module a
/// 16-bit float min/max atomicrmw (half, bfloat) is reported, not lowered.
/// So is one of a type the pass does not lower (<4 x float>, fp128,
/// x86_fp80), which elsewhere it leaves to the back end: DXIL has no float
/// atomicrmw to leave it as.
bool fitsDxilAtomics(AtomicRMWInst &RMW) {
  Function &F = *RMW.getFunction();
  Type *Ty = RMW.getType();
  if (!F.getParent()->getTargetTriple().isDXIL() ||
      (isLowerableType(Ty) &&
       Ty->getPrimitiveSizeInBits().getFixedValue() != 16))
    return true;
  std::string TypeName;
  raw_string_ostream OS(TypeName);
  Ty->print(OS);
  F.getContext().diagnose(DiagnosticInfoUnsupported(
      F, "lower-float-atomic-minmax: cannot lower atomicrmw " +
             AtomicRMWInst::getOperationName(RMW.getOperation()) + " " +
             TypeName + ": DXIL has integer atomics of 32 and 64 bits only",
      RMW.getDebugLoc()));
  return false;
}

/// Logical SPIR-V (the spirv triple without 32 or 64, as for Vulkan) cannot
/// read float memory as integers: no pointer casts, and a variable's type
/// is its memory's type.  There the pass reports the atomic, and points at
/// the SPIR-V pass, which retypes variables instead (docs/memory.md).
bool fitsSpirvAddressing(AtomicRMWInst &RMW) {
  Function &F = *RMW.getFunction();
  if (!F.getParent()->getTargetTriple().isSPIRVLogical())
    return true;
  std::string TypeName;
  raw_string_ostream OS(TypeName);
  RMW.getType()->print(OS);
  F.getContext().diagnose(DiagnosticInfoUnsupported(
      F, "lower-float-atomic-minmax: cannot lower atomicrmw " +
             AtomicRMWInst::getOperationName(RMW.getOperation()) + " " +
             TypeName +
             " in logical SPIR-V (a pointer cannot read float memory as "
             "integers); compile the module to SPIR-V without this pass, "
             "then lower it with fatomic-opt --lower-float-atomic-minmax",
      RMW.getDebugLoc()));
  return false;
}

/// The float min/max atomics of \p F: those that go to a helper
/// (\p ToOutline, where \p Outline is given) and those written out in place
/// (\p Atomics; also one in a block that several EH funclets share).
/// Reports the DXIL calls that cannot be lowered, and adds the float
/// dx.op.atomicBinOp declarations of the others to \p DxilCallees.
/// \p IsExclusive tells the atomics proven to have exclusive writers.
void collectAtomics(Function &F, const LoweringOptions &Options,
                    bool Outline, SmallSetVector<Function *, 2> &DxilCallees,
                    function_ref<bool(const AtomicRMWInst &)> IsExclusive,
                    SmallVectorImpl<FloatAtomic> &Atomics,
                    SmallVectorImpl<FloatAtomic> &ToOutline) {
  DxilOverloadCheck Overloads(*F.getParent());
  FuncletColors Funclets(F);
  for (Instruction &I : instructions(F)) {
    if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      // Checked before the type: in DXIL a float min/max of any type that
      // cannot be lowered is reported (elsewhere it is left alone).
      if (!isFloatMinMax(*RMW) || !fitsDxilAtomics(*RMW) ||
          !fitsSpirvAddressing(*RMW))
        continue;
      std::optional<FloatAtomic> A = classifyAtomicRMW(*RMW);
      if (!A)
        continue;
      // Only propagate has a form that needs the proof; the others are
      // linearizable against any writer in every form.
      A->Exclusive =
          Options.policyFor(A->DefaultPolicy) == NanPolicy::Propagate &&
          IsExclusive(*RMW);
      if (Outline && Outliner::canOutline(*RMW) &&
          Funclets.hasOneFunclet(*RMW->getParent())) {
        A->Funclet = Funclets.padOf(*RMW->getParent());
        ToOutline.push_back(*A);
      } else {
        Atomics.push_back(*A);
      }
      continue;
    }
    auto *CB = dyn_cast<CallBase>(&I);
    Function *Callee = CB ? dxilFloatAtomicBinOpCallee(*CB) : nullptr;
    if (!Callee)
      continue;
    std::string Error;
    if (auto A = classifyDxilCall(*CB, *Callee, Options, Overloads, Error)) {
      Atomics.push_back(*A);
      DxilCallees.insert(Callee);
    } else if (!Error.empty())
      F.getContext().diagnose(DiagnosticInfoUnsupported(
          F, "lower-float-atomic-minmax: cannot lower " + Callee->getName() +
                 ": " + Error,
          CB->getDebugLoc()));
  }
}

/// The bound cache of \p F (BoundCache.h), whose collected float atomics
/// are \p Atomics and \p ToOutline, where cache=on and \p F qualifies.
std::optional<BoundCache> makeBoundCache(Function &F,
                                         const LoweringOptions &Options,
                                         ArrayRef<FloatAtomic> Atomics,
                                         ArrayRef<FloatAtomic> ToOutline) {
  if (!Options.Cache)
    return std::nullopt;
  SmallVector<Instruction *, 8> Sites;
  for (ArrayRef<FloatAtomic> List : {Atomics, ToOutline})
    for (const FloatAtomic &A : List)
      Sites.push_back(A.Inst);
  if (Sites.empty())
    return std::nullopt;
  const FloatAtomic &First = Atomics.empty() ? ToOutline.front()
                                             : Atomics.front();
  return BoundCache::make(F, Sites, First.Op,
                          Options.policyFor(First.DefaultPolicy));
}

/// Aggregates over the warp the collected atomics of \p F that may be
/// (WarpAggregate.h), where its target allows it, and puts \p Cache's test
/// before the others.  Each aggregated atomic stays in its list as the
/// per-lane atomic, and the elected lane's atomic joins the same list just
/// before it, with the same kind and proof.  aggregate=subgroup on a module
/// that is not NVPTX is an error, reported once per function that has
/// float atomics.
void aggregateWarpAtomics(Function &F, const LoweringOptions &Options,
                          BoundCache *Cache,
                          SmallVectorImpl<FloatAtomic> &Atomics,
                          SmallVectorImpl<FloatAtomic> &ToOutline) {
  if (Options.Aggregate == Aggregation::Subgroup &&
      !F.getParent()->getTargetTriple().isNVPTX()) {
    for (const SmallVectorImpl<FloatAtomic> *List : {&Atomics, &ToOutline})
      for (const FloatAtomic &A : *List)
        if (isa<AtomicRMWInst>(A.Inst)) {
          F.getContext().diagnose(DiagnosticInfoUnsupported(
              F, "lower-float-atomic-minmax: aggregate=subgroup needs an "
                 "NVPTX target (module triple '" +
                     F.getParent()->getTargetTriple().str() + "')",
              A.Inst->getDebugLoc()));
          return;
        }
    return;
  }
  const bool Aggregates = targetAggregates(F, Options.Aggregate);
  if (!Aggregates && !Cache)
    return;
  const bool Controlled = Aggregates && usesConvergenceControl(F);
  for (SmallVectorImpl<FloatAtomic> *List : {&Atomics, &ToOutline}) {
    // Last atomic first, as the lowering itself goes: each block split then
    // moves only what follows its atomic up to the next one already split,
    // which keeps a block of many atomics linear.  Built backwards, the
    // list is turned around at the end.
    SmallVector<FloatAtomic, 8> WithElected;
    for (const FloatAtomic &A : reverse(*List)) {
      WithElected.push_back(A);
      auto *RMW = dyn_cast<AtomicRMWInst>(A.Inst);
      if (RMW && Aggregates && isWarpAggregable(*RMW)) {
        // Before the per-lane atomic in the list, as its block comes first.
        FloatAtomic &Elected = WithElected.emplace_back(A);
        Elected.Inst =
            &aggregateOverWarp(*RMW, A.Op, Options.policyFor(A.DefaultPolicy),
                               Cache, Controlled);
      } else if (RMW && Cache) {
        Cache->guard(*RMW);
      }
    }
    std::reverse(WithElected.begin(), WithElected.end());
    *List = std::move(WithElected);
  }
}

void lowerInPlace(Function &F, const LoweringOptions &Options,
                  MutableArrayRef<FloatAtomic> Atomics);

/// The lowering splits a block at each of its atomics (in place, and for
/// the bound cache and warp aggregation also where the atomic goes to a
/// helper).  A convergence.entry must stay in the entry block and a
/// convergence.loop in its loop's header: one that comes after an atomic
/// of its block is moved in front of the block's first collected atomic.
/// Nothing between the two can diverge (one block), so the token means the
/// same threads; a heart whose parent token is made after that atomic in
/// the same block stays (the verifier will say so).
void keepConvergenceHeartsInPlace(ArrayRef<FloatAtomic> Atomics,
                                  ArrayRef<FloatAtomic> ToOutline) {
  SmallDenseMap<BasicBlock *, Instruction *, 8> First;
  for (ArrayRef<FloatAtomic> List : {Atomics, ToOutline})
    for (const FloatAtomic &A : List) {
      Instruction *&F = First[A.Inst->getParent()];
      if (!F || A.Inst->comesBefore(F))
        F = A.Inst;
    }
  for (auto [BB, Atomic] : First)
    for (Instruction &I : make_early_inc_range(
             make_range(std::next(Atomic->getIterator()), BB->end()))) {
      auto *Heart = dyn_cast<ConvergenceControlInst>(&I);
      if (!Heart || Heart->isAnchor())
        continue;
      const bool ParentAfter = llvm::any_of(Heart->operand_values(), [&](Value *V) {
        auto *D = dyn_cast<Instruction>(V);
        return D && D->getParent() == BB && !D->comesBefore(Atomic);
      });
      if (!ParentAfter)
        Heart->moveBefore(Atomic->getIterator());
    }
}

/// The place right after \p Def in its own block, which every use of it
/// follows; none after an invoke or callbr (whose value starts in another
/// block, which may have other predecessors) or a musttail call (which only
/// a ret may follow).
std::optional<BasicBlock::iterator> afterInItsBlock(Instruction &Def) {
  if (auto *Call = dyn_cast<CallInst>(&Def); Call && Call->isMustTailCall())
    return std::nullopt;
  std::optional<BasicBlock::iterator> It = Def.getInsertionPointAfterDef();
  if (!It || (*It)->getParent() != Def.getParent())
    return std::nullopt;
  return It;
}

/// The first place in \p F's entry block, after its convergence.entry.
BasicBlock::iterator topOfFunction(Function &F) {
  BasicBlock::iterator It = F.getEntryBlock().getFirstInsertionPt();
  if (auto *II = dyn_cast<IntrinsicInst>(&*It);
      II && II->getIntrinsicID() == Intrinsic::experimental_convergence_entry)
    ++It;
  return It;
}

/// Where a collected atomic's operand may be undef or poison, makes it a
/// freeze of the operand: its sign test, NaN test, subgroup key and integer
/// atomic each read it, and an undef read several times may be a different
/// value at each read.  One freeze per operand, right after its definition
/// (or at the top of \p F for an argument or a constant), so that the
/// atomics of a block that share an operand still share it; where nothing
/// can follow the definition in its block (afterInItsBlock), a freeze before
/// each atomic.  Helpers take their operand frozen (noundef).
void freezeOperands(Function &F, ArrayRef<FloatAtomic> Atomics,
                    ArrayRef<FloatAtomic> ToOutline) {
  SmallDenseMap<Value *, Value *, 8> Frozen;
  // Fixed before the first freeze, so that those of arguments come in the
  // order of their atomics.
  const BasicBlock::iterator Top = topOfFunction(F);
  auto FreezeAt = [](Value *V, InsertPosition At, DebugLoc DL) {
    auto *FI = new FreezeInst(V, "", At);
    FI->setDebugLoc(std::move(DL));
    return FI;
  };
  for (ArrayRef<FloatAtomic> List : {Atomics, ToOutline})
    for (const FloatAtomic &A : List) {
      Instruction &Inst = *A.Inst;
      const unsigned OpNo = valueOperandNo(Inst);
      Value *V = Inst.getOperand(OpNo);
      if (isGuaranteedNotToBeUndefOrPoison(V))
        continue;
      Value *&FV = Frozen[V];
      if (!FV) {
        std::optional<BasicBlock::iterator> After;
        if (auto *Def = dyn_cast<Instruction>(V))
          After = afterInItsBlock(*Def);
        else
          After = Top;
        if (!After) {
          Inst.setOperand(OpNo, FreezeAt(V, Inst.getIterator(),
                                         Inst.getDebugLoc()));
          continue;
        }
        auto *Def = dyn_cast<Instruction>(V);
        FV = FreezeAt(V, *After, Def ? Def->getDebugLoc() : DebugLoc());
      }
      Inst.setOperand(OpNo, FV);
    }
}

/// Rewrites the float min/max atomics of \p F: through \p Outline's helpers
/// where it is given and the atomic can be outlined, otherwise in place
/// (collectAtomics says which, and reports what cannot be lowered).  With
/// \p AggregateWarps, aggregateWarpAtomics runs on the collected atomics
/// first.  Returns whether \p F changed.
bool lowerFunction(Function &F, const LoweringOptions &Options,
                   Outliner *Outline,
                   SmallSetVector<Function *, 2> &DxilCallees,
                   function_ref<bool(const AtomicRMWInst &)> IsExclusive,
                   bool AggregateWarps) {
  SmallVector<FloatAtomic, 8> Atomics, ToOutline;
  collectAtomics(F, Options, Outline != nullptr, DxilCallees, IsExclusive,
                 Atomics, ToOutline);
  keepConvergenceHeartsInPlace(Atomics, ToOutline);
  freezeOperands(F, Atomics, ToOutline);
  // Helpers (AggregateWarps false) are no kernels, so they have no cache.
  std::optional<BoundCache> Cache =
      AggregateWarps ? makeBoundCache(F, Options, Atomics, ToOutline)
                     : std::nullopt;
  if (AggregateWarps)
    aggregateWarpAtomics(F, Options, Cache ? &*Cache : nullptr, Atomics,
                         ToOutline);
  for (const FloatAtomic &A : ToOutline)
    Outline->replace(*cast<AtomicRMWInst>(A.Inst), A.Exclusive, A.Funclet);
  lowerInPlace(F, Options, Atomics);
  if (Cache)
    Cache->promote();
  return !Atomics.empty() || !ToOutline.empty();
}

/// Writes out the lowering of each of \p Atomics at its place in \p F.
void lowerInPlace(Function &F, const LoweringOptions &Options,
                  MutableArrayRef<FloatAtomic> Atomics) {
  if (Atomics.empty())
    return;

  MDNode *Unlikely = nullptr;
  SmallVector<LaneConstants, 2> Constants; // by FP type
  auto ConstantsFor = [&](Type *FPTy) -> LaneConstants & {
    for (LaneConstants &K : Constants)
      if (K.FPTy == FPTy)
        return K;
    return Constants.emplace_back(FPTy);
  };
  // The atomics of one block with the same operand share its values; the
  // first of them in the block holds them.
  SmallVector<SharedOperand, 4> Shared;
  SmallDenseMap<std::pair<BasicBlock *, Value *>, unsigned, 8> SharedIndex;
  for (FloatAtomic &A : Atomics) {
    auto [It, First] = SharedIndex.try_emplace(
        {A.Inst->getParent(), valueOperand(*A.Inst)}, Shared.size());
    if (First)
      Shared.emplace_back(*A.Inst);
    A.Group = It->second;
  }
  // Reverse order: each split then moves only the tail up to the next atomic,
  // and the first atomic of each group is rewritten after the others.
  for (const FloatAtomic &A : reverse(Atomics)) {
    IntegerType *WordTy = wordType(A.Inst->getType());
    const NanPolicy Policy = Options.policyFor(A.DefaultPolicy);
    auto Lower = [&](AtomicWord &Word) {
      AtomicLowering(A, Word, WordTy, ConstantsFor(A.Inst->getType()),
                     Shared[A.Group], Policy, Options.Strat, Options.EarlyOut,
                     Unlikely)
          .run();
    };
    if (auto *RMW = dyn_cast<AtomicRMWInst>(A.Inst)) {
      LLVMAtomicWord Word(*RMW, WordTy);
      Lower(Word);
    } else {
      DxilAtomicWord Word(*cast<CallInst>(A.Inst), WordTy);
      Lower(Word);
    }
  }
}

Function *Outliner::makeHelper(AtomicRMWInst &RMW, bool Exclusive) {
  LLVMContext &Ctx = M.getContext();
  Type *Ty = RMW.getType();
  Type *PtrTy = RMW.getPointerOperand()->getType();
  Function *Helper = Function::Create(
      FunctionType::get(Ty, {PtrTy, Ty}, /*isVarArg=*/false),
      GlobalValue::InternalLinkage, M.getDataLayout().getProgramAddressSpace(),
      helperName(RMW, Exclusive), &M);
  Helper->setCallingConv(CallConv);
  Helper->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  Helper->addFnAttr(Attribute::AlwaysInline);
  Helper->addFnAttr(Attribute::NoUnwind);
  Helper->addFnAttrs(AttrBuilder(Ctx, targetAttributes(*RMW.getFunction())));
  Argument *Ptr = Helper->getArg(0), *Val = Helper->getArg(1);
  Ptr->setName("p");
  Val->setName("v");
  // The callers pass the operand frozen (freezeOperands).
  Val->addAttr(Attribute::NoUndef);
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", Helper);
  auto *Body = new AtomicRMWInst(RMW.getOperation(), Ptr, Val, RMW.getAlign(),
                                 RMW.getOrdering(), RMW.getSyncScopeID(),
                                 Entry);
  Body->setVolatile(RMW.isVolatile());
  ReturnInst::Create(Ctx, Body, Entry);
  // The helper's one atomic, written out in place.
  SmallSetVector<Function *, 2> NoDxil;
  lowerFunction(*Helper, Options, /*Outline=*/nullptr, NoDxil,
                [Exclusive](const AtomicRMWInst &) { return Exclusive; },
                /*AggregateWarps=*/false);
  return Helper;
}

/// A float overload is not DXIL: drops the declarations in \p Callees that
/// the rewrite left unused (never one that had no calls to begin with), and
/// their cached analyses first.  Only declarations are erased, never a
/// function being visited.
void eraseUnusedDxilCallees(ArrayRef<Function *> Callees,
                            FunctionAnalysisManager &FAM) {
  for (Function *Callee : Callees) {
    if (!Callee->use_empty())
      continue;
    FAM.clear(*Callee, Callee->getName());
    Callee->eraseFromParent();
  }
}

} // namespace

PreservedAnalyses LowerFloatAtomicMinMaxPass::run(Module &M,
                                                  ModuleAnalysisManager &AM) {
  // DXIL allows no calls to functions it defines: written out in place.
  std::optional<Outliner> Outline;
  if (Options.Outline && !M.getTargetTriple().isDXIL())
    Outline.emplace(M, Options);
  // The helpers are appended to the module as the atomics ask for them, and
  // are lowered when they are made: visit only the functions of the input.
  SmallVector<Function *, 16> Functions;
  for (Function &F : M)
    if (!F.isDeclaration())
      Functions.push_back(&F);
  // Proven before anything is rewritten: the proof reads the float atomics.
  const WriterProof Proof(M, Options);
  auto IsExclusive = [&Proof](const AtomicRMWInst &RMW) {
    return Proof.isExclusive(RMW);
  };
  SmallSetVector<Function *, 2> DxilCallees;
  bool Changed = false;
  for (Function *F : Functions)
    Changed |= lowerFunction(*F, Options, Outline ? &*Outline : nullptr,
                             DxilCallees, IsExclusive, /*AggregateWarps=*/true);
  if (!Changed)
    return PreservedAnalyses::all();
  eraseUnusedDxilCallees(
      DxilCallees.getArrayRef(),
      AM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager());
  return PreservedAnalyses::none();
}

PreservedAnalyses LowerFloatAtomicMinMaxPass::run(Function &F,
                                                  FunctionAnalysisManager &AM) {
  // A function pass must not add functions: always written out in place.
  // It sees one function, so nothing is proven about the writers of any
  // memory: every atomic gets the form that is exact against any writer.
  SmallSetVector<Function *, 2> DxilCallees;
  if (!lowerFunction(F, Options, /*Outline=*/nullptr, DxilCallees,
                     [](const AtomicRMWInst &) { return false; },
                     /*AggregateWarps=*/true))
    return PreservedAnalyses::all();
  eraseUnusedDxilCallees(DxilCallees.getArrayRef(), AM);
  return PreservedAnalyses::none();
}

void LowerFloatAtomicMinMaxPass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)>) {
  // The outline item always, since its default differs between the module
  // and the function form; ';' between the items, as ',' ends a pass.
  LoweringOptions Printed = Options;
  Printed.OutlineGiven = true;
  std::string Params = Printed.str();
  std::replace(Params.begin(), Params.end(), ',', ';');
  OS << PipelineName << '<' << Params << '>';
}

Expected<LoweringOptions> parseLLVMPassOptions(StringRef Params) {
  auto Fail = [](const Twine &Message) {
    return make_error<StringError>(
        Twine(LowerFloatAtomicMinMaxPass::PipelineName) + ": " + Message,
        inconvertibleErrorCode());
  };
  std::string Error;
  std::optional<LoweringOptions> Options = parseOptions(Params, Error);
  if (!Options)
    return Fail(Error);
  if (!Options->Native.empty())
    return Fail("option 'native' applies to the SPIR-V pass only");
  if (Options->RetypeImages)
    return Fail("option 'images' applies to the SPIR-V pass only");
  // aggregate= applies to NVPTX (WarpAggregate.h); subgroup on another
  // target is reported when a module is run.
  return std::move(*Options);
}

namespace {

/// Parses `lower-float-atomic-minmax<PARAMS>` for a function pipeline
/// (\p FunctionLevel) or a module pipeline.  A parse callback can only
/// decline a name, so the reason is printed here; the parser then rejects
/// the name.  The parser offers a top-level name to the module callbacks and
/// then to the function callbacks, so the same message would come twice:
/// the function callback leaves out the message that the module callback
/// has just printed (per thread, as pipelines may be parsed in several).
std::optional<LoweringOptions> parseForPipeline(StringRef Name,
                                                bool FunctionLevel) {
  StringRef PassName = LowerFloatAtomicMinMaxPass::PipelineName;
  if (!PassBuilder::checkParametrizedPassName(Name, PassName))
    return std::nullopt;
  Expected<LoweringOptions> Options = PassBuilder::parsePassParameters(
      parseLLVMPassOptions, Name, PassName);
  if (Options && FunctionLevel && Options->OutlineGiven && Options->Outline)
    Options = make_error<StringError>(
        Twine(PassName) +
            ": outline=on needs the module pass (a function pass may not "
            "add functions); leave the pass out of function(...) or use "
            "outline=off",
        inconvertibleErrorCode());
  if (!Options) {
    // What the module callback reported, which the function callback,
    // offered the same name next, does not repeat.
    static thread_local std::string ReportedByModule;
    std::string Message = toString(Options.takeError());
    if (!FunctionLevel || Message != ReportedByModule)
      errs() << "error: " << Message << '\n';
    if (FunctionLevel)
      ReportedByModule.clear();
    else
      ReportedByModule = std::move(Message);
    return std::nullopt;
  }
  if (FunctionLevel) {
    Options->Outline = false;
    Options->OutlineGiven = true;
  }
  return std::move(*Options);
}

/// The pipeline parsing callback for a ModulePassManager or a
/// FunctionPassManager.
template <typename PassManagerT>
bool parseIntoPipeline(StringRef Name, PassManagerT &PM,
                       ArrayRef<PassBuilder::PipelineElement>) {
  std::optional<LoweringOptions> Options = parseForPipeline(
      Name, std::is_same_v<PassManagerT, FunctionPassManager>);
  if (Options)
    PM.addPass(LowerFloatAtomicMinMaxPass(std::move(*Options)));
  return Options.has_value();
}

} // namespace

void registerLowerFloatAtomicMinMax(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(parseIntoPipeline<ModulePassManager>);
  PB.registerPipelineParsingCallback(parseIntoPipeline<FunctionPassManager>);
}

PassPluginLibraryInfo getFatomicPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "FatomicLLVMPlugin", "0.1",
          registerLowerFloatAtomicMinMax};
}

} // namespace fatomic::llvmir
