//===- SitePlan.h - The float atomics to lower, and their memory ----------===//
//
// Collection, before anything changes: every float min/max atomic becomes a
// Site (its memory kind, the variable behind its pointer, the access chains
// on the way, whether its early-out is legal), pointer selects between two
// paths into one variable become one access chain, native atomics and float
// adds on a Workgroup variable that is retyped join the plan, and, once the
// integer views have checked their memory, each site learns whether only
// lowered atomics of its kind write it (Site::Exclusive).
//
// The pointer-chain walk (walkPointerChain) is the one way back from a
// pointer to its variable: the sites, the pointer selects, the native
// atomics and the float adds all take it.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_SITEPLAN_H
#define FATOMIC_SPIRV_SITEPLAN_H

#include "LoweringState.h"

#include <optional>

namespace fatomic::spirv {

/// The sites to lower and the memory that needs an integer view.
struct SitePlan {
  std::vector<Site> Sites;
  std::unordered_map<InstRef, size_t> SiteOf;
  /// Widths whose denormals the module flushes (DenormFlushToZero).
  std::set<unsigned> FlushWidths;
  /// Per kind of integer view, the root variables (buffers: with their sites).
  std::map<uint32_t, std::vector<size_t>> BufferRoots;
  std::set<uint32_t> SharedRoots, ImageRoots;

  void add(Site S) {
    SiteOf[S.Atomic] = Sites.size();
    Sites.push_back(std::move(S));
  }
};

/// Where a walk from a pointer back through access chains and copies ended.
struct ChainWalk {
  enum class End { Variable, NoDefinition, NotSamePointer, Other };
  End Stop = End::Other;
  uint32_t Id = 0;              ///< the id it stopped at (the variable)
  InstRef Def = Module::NoInst; ///< its definition
  std::vector<InstRef> Chain;   ///< access chains, root side first
  bool NonUniform = false;      ///< a NonUniform chain, copy or index (checked)
};

/// Walks from \p Ptr back to its variable.  With \p SC, every pointer on the
/// way must be one of that class (else NotSamePointer) and NonUniform is
/// noted; without, the walk only follows the chain.
ChainWalk walkPointerChain(const LoweringContext &C, uint32_t Ptr,
                           std::optional<spv::StorageClass> SC);

/// The variable \p Ptr points into and the access chains on the way (root
/// side first); 0 when something else is on the way.
uint32_t chainRoot(const LoweringContext &C, uint32_t Ptr, std::vector<InstRef> &Chain);

/// Array indices of \p Chain, with the struct member indices as values
/// (~0u marks them in \p Members' positions); false for a malformed path.
bool flatIndices(const LoweringContext &C, const std::vector<InstRef> &Chain,
                 std::vector<uint32_t> &Ids, std::vector<uint64_t> &Members);

/// Fills a SitePlan from the module (see the file comment).
class SitePlanner {
public:
  SitePlanner(LoweringContext &C, SitePlan &Plan) : C(C), M(C.M), Plan(Plan) {}

  /// The sites, native atomics and float adds on retyped memory; false on
  /// error (reported).  Builds the module's use lists.
  bool collect();
  /// Sets Site::Exclusive from the writers of each site's memory.
  void markExclusiveSites();

private:
  /// \p EvenIfNative: lower it although the target runs it natively.
  bool analyze(InstRef R, Site &S, bool EvenIfNative = false);
  bool classify(InstRef R, spv::StorageClass SC, Site &S);
  bool checkWidth(InstRef R, Site &S);
  bool analyzeImage(InstRef R, uint32_t Ptr, Site &S);
  bool checkOperands(InstRef R, const Site &S);
  bool traceRoot(InstRef Atomic, uint32_t Ptr, Site &S);
  void chainError(InstRef Atomic, const ChainWalk &W);
  /// Whether \p S's memory (root variable or chain) is Volatile.
  bool volatileMemory(const Site &S) const;
  bool volatileMember(uint32_t Struct, uint64_t Member) const;
  /// OpSelects between two access chains of the same shape into one
  /// variable that lead to a float min/max atomic become one access chain
  /// with selected indices.
  void resolvePointerSelects();
  bool resolveSelect(std::vector<InstRef> &Out, InstRef Sel);
  bool selectableIndices(const std::vector<uint32_t> &IA, const std::vector<uint32_t> &IB,
                         const std::vector<uint64_t> &MA) const;
  /// Why the pointer chosen by OpSelect \p Sel cannot be lowered.
  void selectError(InstRef Atomic, InstRef Sel);
  bool noLogicalPointerBitcast();
  void collectRoots();
  /// Native atomics on a retyped Workgroup variable become sites.
  bool collectNativeOnRetyped(const std::vector<InstRef> &Native);
  /// Float adds on retyped Workgroup floats become sites (Site::Add).
  bool collectRetypedAdds();

  LoweringContext &C;
  Module &M;
  SitePlan &Plan;
};

} // namespace fatomic::spirv

#endif // FATOMIC_SPIRV_SITEPLAN_H
