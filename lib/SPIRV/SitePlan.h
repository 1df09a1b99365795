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
// The way back from a pointer to its variable is PointerChain's one walk.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_SITEPLAN_H
#define FATOMIC_SPIRV_SITEPLAN_H

#include "LoweringState.h"
#include "PointerChain.h"

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
  /// Per retyped Workgroup variable, the float widths of its min/max sites
  /// (floatWidthBit): the leaves that retyping turns into integers.  Floats
  /// of another width keep their type, so that a double beside a lowered
  /// f32 needs no 64-bit integers.
  std::map<uint32_t, unsigned> SharedWidths;

  void add(Site S) {
    SiteOf[S.Atomic] = Sites.size();
    Sites.push_back(std::move(S));
  }
};

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
