//===- SpirvInfo.h - What a SPIR-V module needs from a Vulkan device ------===//
//
// A small reader of SPIR-V binaries: the capabilities and extensions a module
// declares, its GLCompute entry points, and which atomics it performs on which
// storage class and type.  The runner turns this into the device features it
// must enable (and refuses to run when one is missing).
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_VKRUN_SPIRVINFO_H
#define FATOMIC_VKRUN_SPIRVINFO_H

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace vkrun {

/// Where an atomic's memory lives, as the Vulkan feature names split it.
enum class AtomicMemory { Buffer, Shared, Image, Other };

/// The kind of an atomic operation, as the Vulkan feature names split it.
enum class AtomicKind {
  IntAny,      ///< any integer atomic
  FloatLSX,    ///< float load / store / exchange (shader*FloatNNAtomics)
  FloatAdd,    ///< OpAtomicFAddEXT
  FloatMinMax, ///< OpAtomicFMinEXT / OpAtomicFMaxEXT
  FloatOther   ///< anything else on a float (invalid SPIR-V; reported)
};

struct AtomicUse {
  AtomicKind Kind;
  AtomicMemory Memory;
  unsigned Width; ///< 8, 16, 32 or 64
  bool operator<(const AtomicUse &O) const {
    if (Kind != O.Kind)
      return Kind < O.Kind;
    if (Memory != O.Memory)
      return Memory < O.Memory;
    return Width < O.Width;
  }
};

struct SpirvInfo {
  uint32_t Version = 0; ///< e.g. 0x00010500
  std::set<uint32_t> Capabilities;
  std::set<std::string> Extensions;
  std::vector<std::string> ComputeEntryPoints;
  std::vector<std::string> RayGenerationEntryPoints;
  std::set<AtomicUse> Atomics;
  unsigned FloatMinMaxCount = 0; ///< number of OpAtomicF{Min,Max}EXT
  /// The descriptors that the module's functions use: (set, binding) ->
  /// the variable's name (or %id).  A pipeline layout must hold each.
  std::map<std::pair<uint32_t, uint32_t>, std::string> Descriptors;
};

/// Parses \p Words.  Returns false and sets \p Error for anything that is not
/// a well-formed SPIR-V binary at the level this reader needs.
bool analyzeSpirv(const std::vector<uint32_t> &Words, SpirvInfo &Info,
                  std::string &Error);

const char *toString(AtomicMemory M);
const char *toString(AtomicKind K);

} // namespace vkrun

#endif // FATOMIC_VKRUN_SPIRVINFO_H
