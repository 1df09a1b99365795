//===- fatomic/Target.h - Which float atomics a target runs natively ------===//
//
// A target is the set of native features, named exactly like the members of
// VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT, plus the two 64-bit integer
// atomic features that a 64-bit lowering needs.  A feature that is absent is
// not native.  The default target has nothing native: every float min/max is
// lowered, and 64-bit integer atomics are assumed available (not known to be
// missing).
//
// A target can be read from a Vulkan Profiles JSON document as written by
// `vulkaninfo --json` (capabilities.<name>.features.<FeatureStruct>.<member>):
// the capability blocks of its one profile (or its one block), never a merge
// of several devices or of alternatives.  A feature the profile does not list
// is missing, the 64-bit integer atomics too (a Vulkan 1.2 device lists them
// in VkPhysicalDeviceVulkan12Features, an older one with the extension in
// VkPhysicalDeviceShaderAtomicInt64Features).
//
// The target also says which subgroup operations its compute shaders have
// (SubgroupSupport), for subgroup aggregation (aggregate=): read from the
// profile's VkPhysicalDeviceSubgroupProperties or
// VkPhysicalDeviceVulkan11Properties and shaderSubgroupExtendedTypes, or
// filled in by the Vulkan layer from the device.  The default target knows
// nothing of them.  From the driver's identity (driverID) it also knows
// whether the driver combines unused 32-bit atomics across a subgroup
// itself, which aggregate=auto leaves to it.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_TARGET_H
#define FATOMIC_TARGET_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fatomic {

enum class Feature : unsigned {
  ShaderBufferFloat16Atomics,
  ShaderBufferFloat16AtomicAdd,
  ShaderBufferFloat16AtomicMinMax,
  ShaderBufferFloat32AtomicMinMax,
  ShaderBufferFloat64AtomicMinMax,
  ShaderSharedFloat16Atomics,
  ShaderSharedFloat16AtomicAdd,
  ShaderSharedFloat16AtomicMinMax,
  ShaderSharedFloat32AtomicMinMax,
  ShaderSharedFloat64AtomicMinMax,
  ShaderImageFloat32AtomicMinMax,
  SparseImageFloat32AtomicMinMax,
  ShaderBufferInt64Atomics,
  ShaderSharedInt64Atomics,
  Count
};

/// The Vulkan member name, e.g. "shaderBufferFloat32AtomicMinMax"; "?" for
/// a value that names no feature (Feature::Count).
const char *featureName(Feature F);
/// Inverse of featureName (exact, case-sensitive).
std::optional<Feature> parseFeature(std::string_view Name);

/// Where an atomic's memory lives, as far as the native features care.
enum class MemoryClass : unsigned char { Buffer, Shared, Image };

/// The feature that makes a float min/max of \p Width bits on \p Class native,
/// or std::nullopt when Vulkan has no such feature (e.g. f64 images).
std::optional<Feature> minMaxFeature(MemoryClass Class, unsigned Width);

/// The subgroup operations a target's compute shaders have, as far as
/// subgroup aggregation needs them (VkSubgroupFeatureFlagBits and
/// shaderSubgroupExtendedTypes).
struct SubgroupSupport {
  /// False: nothing is known (the default target, or a profile without
  /// subgroup properties); the other members then mean nothing.
  bool Known = false;
  /// VK_SHADER_STAGE_COMPUTE_BIT in supportedStages.
  bool Compute = false;
  /// VK_SUBGROUP_FEATURE_{BASIC,VOTE,ARITHMETIC,BALLOT}_BIT.
  bool Basic = false, Vote = false, Arithmetic = false, Ballot = false;
  /// shaderSubgroupExtendedTypes: 64-bit (and 8/16-bit) integer operands.
  bool ExtendedTypes = false;
  /// The driver's compiler combines a subgroup's 32-bit integer atomics on
  /// buffer memory whose result is unused into one atomic by itself
  /// (NVIDIA's proprietary driver, driverID
  /// VK_DRIVER_ID_NVIDIA_PROPRIETARY: its machine code for such an atomic
  /// is a match, a reduction and one reduction atomic per address;
  /// docs/gpu-performance.md, "What the machine code shows").  Known even
  /// where the subgroup operations are not.
  bool DriverCombinesUnused32 = false;

  /// Whether compute shaders have what an aggregated atomic on \p Width-bit
  /// keys needs: basic and arithmetic, ballot where \p Ballot (used
  /// results), extended types where \p Width or an index is not 32-bit.
  /// (Vote is recorded but not needed.)  Meaningful only where Known.
  bool allows(unsigned Width, bool NeedsBallot, bool WideIndex) const {
    return Compute && Basic && Arithmetic && (Ballot || !NeedsBallot) &&
           ((Width == 32 && !WideIndex) || ExtendedTypes);
  }
};

class TargetModel {
public:
  TargetModel() = default;

  bool has(Feature F) const { return Native & bit(F); }
  void set(Feature F, bool On = true) {
    Native = On ? (Native | bit(F)) : (Native & ~bit(F));
    Known |= bit(F);
  }
  /// True when a profile or an explicit flag said something about \p F.
  bool isKnown(Feature F) const { return Known & bit(F); }

  /// True when a float min/max of \p Width on \p Class runs natively.
  bool isNativeMinMax(MemoryClass Class, unsigned Width) const;

  /// False only when the target is known to lack 64-bit integer atomics on
  /// \p Class (buffer-like or shared).
  bool mayUseInt64Atomics(MemoryClass Class) const;

  /// Where the model came from, for diagnostics ("default", a file name...).
  std::string Source = "default";

  /// The subgroup operations of its compute shaders.
  SubgroupSupport Subgroups;

private:
  static uint32_t bit(Feature F) { return uint32_t{1} << unsigned(F); }
  uint32_t Native = 0;
  uint32_t Known = 0;
};

/// Reads a Vulkan Profiles JSON document (`vulkaninfo --json` output).
/// On failure returns std::nullopt and sets \p Error to a message that says
/// what is wrong and where.
std::optional<TargetModel> loadProfile(std::string_view JsonText,
                                       std::string &Error);
std::optional<TargetModel> loadProfileFile(const std::string &Path,
                                           std::string &Error);

} // namespace fatomic

#endif // FATOMIC_TARGET_H
