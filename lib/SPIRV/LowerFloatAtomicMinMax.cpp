//===- LowerFloatAtomicMinMax.cpp - The SPIR-V pass ------------------------===//
//
// Contract: include/fatomic/LowerFloatAtomicMinMax.h.  The emitted algorithm
// is fatomic::emulateLowered (LoweringModel.h), written out in SPIR-V.
//
// The pass driver: it runs the rooms in order.  Collect first (SitePlan:
// every float min/max atomic, its memory kind; the integer views check their
// memory and record their edits; every error), then mutate: the integer
// views (BufferAlias, SharedRetype, ImageRetype apply what they recorded),
// then each atomic in turn (BlockSplit, AtomicEmitter, Outline), then the
// capabilities and extensions the module no longer needs.
//
//===----------------------------------------------------------------------===//

#include "fatomic/LowerFloatAtomicMinMax.h"

#include "BlockSplit.h"
#include "BufferAlias.h"
#include "ImageRetype.h"
#include "IntegerTypes.h"
#include "LoweringState.h"
#include "Module.h"
#include "Outline.h"
#include "SharedRetype.h"
#include "SitePlan.h"
#include "SubgroupAggregate.h"

#include <algorithm>

namespace fatomic {

using namespace spirv;

namespace {

constexpr const char *ExtName = "SPV_EXT_shader_atomic_float_min_max";

/// The rooms of one run of the pass over one module.
class Lowering {
public:
  Lowering(Module &M, const LoweringOptions &Opts, const TargetModel &Target,
           const spvtools::MessageConsumer &Consumer)
      : C(M, Opts, Target, Consumer), M(M), Planner(C, Plan), Types(C),
        Buffers(C, Plan, Types), Shared(C, Plan, Types, Edits),
        Images(C, Plan, Types, Edits), Helpers(C, Plan) {}

  /// Returns false on error (already reported; failure() says which).
  bool collect();
  void mutate();

  FailureKind failure() const { return C.Failure; }
  unsigned lowered() const { return unsigned(Plan.Sites.size()); }

private:
  void reserve();
  void lowerAtomics();
  void lowerInPlace(std::vector<Block> &Blocks, InstRef R);
  void removeUnusedMinMaxCapabilities();
  /// After lowering float adds: their 32/64-bit capabilities where no
  /// float add of that width is left, the extension where none is.
  void removeUnusedAddCapabilities();

  LoweringContext C;
  Module &M;
  SitePlan Plan;
  SitePlanner Planner;
  IntegerTypes Types;
  BodyEdits Edits;
  BufferAlias Buffers;
  SharedRetype Shared;
  ImageRetype Images;
  Outline Helpers;
};

bool Lowering::collect() {
  if (!Planner.collect())
    return false;
  // Paths into each buffer block; errors (matrices...) surface here.
  bool Ok = Buffers.plan();
  // The use lists built by the planner are still current.
  if (Ok && (!Plan.SharedRoots.empty() || !Plan.ImageRoots.empty())) {
    Ok = Shared.plan();
    Ok &= Images.plan();
  }
  // The chains into retyped Workgroup variables must lead to the float too
  // (their variable's type was checked above).
  Ok = Ok && Shared.checkPaths();
  if (Ok)
    Planner.markExclusiveSites();
  return Ok;
}

// A lowered atomic takes some 20 to 80 instructions of about 2 operand
// words each.  Reserved capacity is address space until it is written, so
// a generous guess costs little and spares the tables the copying (and the
// doubled peak) of growing step by step.
void Lowering::reserve() {
  const size_t Inline = size_t(std::count_if(Plan.Sites.begin(), Plan.Sites.end(),
                                             [&](const Site &S) { return !Helpers.outlined(S); }));
  M.reserve(Inline * 96 + Plan.Sites.size(), Inline * 256 + Plan.Sites.size() * 8);
}

void Lowering::mutate() {
  reserve();
  Buffers.apply();
  Shared.apply();
  Images.apply();
  Shared.splitCopies();
  Edits.apply(M);
  lowerAtomics();
  removeUnusedMinMaxCapabilities();
  if (std::any_of(Plan.Sites.begin(), Plan.Sites.end(), [](const Site &S) { return S.Add; }))
    removeUnusedAddCapabilities();
  if (std::any_of(Plan.Sites.begin(), Plan.Sites.end(),
                  [](const Site &S) { return S.Width == 64; })) {
    M.addCapability(spv::Capability::Int64);
    M.addCapability(spv::Capability::Int64Atomics);
  }
}

void Lowering::lowerInPlace(std::vector<Block> &Blocks, InstRef R) {
  const Site &S = Plan.Sites[Plan.SiteOf.at(R)];
  Operands X;
  X.Ptr = M.operand(R, 0);
  X.Value = M.operand(R, 3);
  X.ResultId = M.inst(R).ResultId;
  for (InstRef AC : S.Chain)
    for (uint32_t K = 1; K < M.numOperands(AC); ++K)
      X.Indices.push_back(M.operand(AC, K));
  emitLoweredAtomic(C, Plan.FlushWidths, Blocks, S, X);
}

// Each atomic, in layout order; then the helper functions.
void Lowering::lowerAtomics() {
  BlockSplit::Hooks H;
  H.IsSite = [this](InstRef R) { return Plan.SiteOf.count(R) != 0; };
  H.Outline = [this](InstRef R) {
    const Site &S = Plan.Sites[Plan.SiteOf.at(R)];
    return Helpers.outlined(S) ? Helpers.callHelper(S) : Module::NoInst;
  };
  H.Lower = [this](std::vector<Block> &Blocks, InstRef R) { lowerInPlace(Blocks, R); };
  BlockSplit Split(M, std::move(H));
  for (Function &F : M.functions())
    Split.run(F);
  Helpers.appendHelpers();
}

// A width's capability goes when no atomic of that width is left.  An
// atomic left (native) whose own width's capability the input does not
// declare leans on another width's (older validators accept any of the
// three): then every declared one stays, as valid as the input was.
void Lowering::removeUnusedMinMaxCapabilities() {
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

/// The largest input id bound the reader takes: 4194304 (one above SPIR-V's
/// limit of ids), or the raised \p MaxIdBound up to 16777216.  The reader's
/// tables have an entry per id, so a corrupt header under a limit raised to
/// 2^32 would otherwise cost gigabytes before anything is read.
uint32_t readerBound(uint32_t MaxIdBound) {
  return std::clamp<uint32_t>(MaxIdBound, 0x400000, 0x1000000);
}

/// SPIR-V's limits (2.17, Universal Limits): an id bound of at most
/// \p MaxIdBound (4194303 unless the caller raised it; parse() accepts input
/// bounds up to readerBound()), and at most 65535 words per instruction (an entry
/// point's interface list or a block type can grow by one).  Returns the
/// message for the first limit passed.
std::string limitPassed(const Module &M, const std::vector<uint32_t> &Words,
                        uint32_t MaxIdBound) {
  std::string Limit;
  const std::string Needed = std::to_string(M.bound());
  const std::string Input = std::to_string(Words.size() > 3 ? Words[3] : 0);
  if (M.bound() > MaxIdBound)
    Limit = MaxIdBound == 0x3FFFFF
                ? "lowering would need an id bound of " + Needed +
                      ", above the SPIR-V limit of 4194303 (the input's "
                      "bound is " + Input + ")"
                : "lowering would need an id bound of " + Needed +
                      ", above the maximum id bound of " +
                      std::to_string(MaxIdBound) + " (the input's bound is " +
                      Input + ")";
  M.forEachPlaced([&](InstRef R) {
    const Inst &I = M.inst(R);
    const uint64_t N = 1 + (I.TypeId ? 1 : 0) + (I.ResultId ? 1 : 0) + uint64_t(I.Count);
    if (N > 0xFFFF && Limit.empty())
      Limit = M.describe(R) + ": lowering would make it " + std::to_string(N) +
              " words long, above the SPIR-V limit of 65535";
  });
  return Limit;
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
  if (!M.parse(Words.data(), Words.size(), Error, readerBound(MaxIdBound))) {
    Failure = FailureKind::InvalidModule;
    if (Consumer)
      Consumer(SPV_MSG_ERROR, nullptr, {0, 0, 0}, Error.c_str());
    return PassStatus::Failure;
  }
  // Decorations that groups apply become plain ones, which the lowering
  // copies to the integer views (the output is only written if it lowers).
  M.flattenDecorationGroups();
  Lowering L(M, Options, Target, Consumer);
  bool Collected = false;
  try {
    Collected = L.collect();
  } catch (...) {
    // A consumer that throws at an error: the failure is still the error's.
    Failure = L.failure();
    throw;
  }
  if (!Collected) {
    Failure = L.failure();
    return PassStatus::Failure;
  }
  if (L.lowered() == 0)
    return PassStatus::SuccessWithoutChange;
  L.mutate();
  const std::string Limit = limitPassed(M, Words, MaxIdBound);
  if (!Limit.empty()) {
    Failure = FailureKind::Unsupported;
    if (Consumer)
      Consumer(SPV_MSG_ERROR, nullptr, {0, 0, 0}, Limit.c_str());
    return PassStatus::Failure;
  }
  Lowered = L.lowered();
  // The input is no longer needed: free it before the output is built (so
  // std::bad_alloc from emit() leaves Words empty; the header says so).
  std::vector<uint32_t>().swap(Words);
  Words = M.emit();
  return PassStatus::SuccessWithChange;
}

} // namespace fatomic
