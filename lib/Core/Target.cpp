//===- Target.cpp - Target model and Vulkan profile loader ----------------===//

#include "fatomic/Target.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace fatomic {

namespace {

struct FeatureInfo {
  const char *Name;
  const char *Struct; ///< the Vulkan feature struct that holds it
};

// Indexed by Feature.  The int64 features live in the Vulkan 1.2 struct and
// in VkPhysicalDeviceShaderAtomicInt64Features; both are read.
constexpr FeatureInfo Features[] = {
    {"shaderBufferFloat16Atomics", "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT"},
    {"shaderBufferFloat16AtomicAdd", "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT"},
    {"shaderBufferFloat16AtomicMinMax", "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT"},
    {"shaderBufferFloat32AtomicMinMax", "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT"},
    {"shaderBufferFloat64AtomicMinMax", "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT"},
    {"shaderSharedFloat16Atomics", "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT"},
    {"shaderSharedFloat16AtomicAdd", "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT"},
    {"shaderSharedFloat16AtomicMinMax", "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT"},
    {"shaderSharedFloat32AtomicMinMax", "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT"},
    {"shaderSharedFloat64AtomicMinMax", "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT"},
    {"shaderImageFloat32AtomicMinMax", "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT"},
    {"sparseImageFloat32AtomicMinMax", "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT"},
    {"shaderBufferInt64Atomics", "VkPhysicalDeviceShaderAtomicInt64Features"},
    {"shaderSharedInt64Atomics", "VkPhysicalDeviceShaderAtomicInt64Features"},
};
static_assert(sizeof(Features) / sizeof(Features[0]) == unsigned(Feature::Count),
              "one entry per Feature");

/// What to pass instead of a file that is not a profile.  Debian 12's
/// vulkaninfo (Vulkan SDK 1.3.239) writes nothing to standard output with
/// --json: it writes the profile to a file of its own.
constexpr const char *ProfileHint =
    "pass the file `vulkaninfo --json` writes in the current directory, "
    "VP_VULKANINFO_<device>_<driver>.json (`vulkaninfo --json > file` "
    "leaves that file empty)";

/// The first character of \p Text that is not white space; 0 if none.
char firstNonBlank(std::string_view Text) {
  for (char C : Text)
    if (C != ' ' && C != '\t' && C != '\n' && C != '\r')
      return C;
  return 0;
}

/// The message for a profile file that is not valid JSON: an empty file and
/// text (vulkaninfo's report) say what to pass instead.
std::string notJsonError(std::string_view Text, const char *ParserMessage) {
  const char First = firstNonBlank(Text);
  if (First == 0)
    return std::string("empty file, not a Vulkan profile: ") + ProfileHint;
  // Characters a JSON value can start with.
  if (std::string_view("{[\"-0123456789tfn").find(First) ==
      std::string_view::npos)
    return std::string("not JSON, not a Vulkan profile (vulkaninfo's text "
                       "report?): ") +
           ProfileHint;
  return std::string("not valid JSON: ") + ParserMessage;
}

} // namespace

const char *featureName(Feature F) { return Features[unsigned(F)].Name; }

std::optional<Feature> parseFeature(std::string_view Name) {
  for (unsigned I = 0; I < unsigned(Feature::Count); ++I)
    if (Name == Features[I].Name)
      return Feature(I);
  return std::nullopt;
}

std::optional<Feature> minMaxFeature(MemoryClass Class, unsigned Width) {
  switch (Class) {
  case MemoryClass::Buffer:
    if (Width == 16)
      return Feature::ShaderBufferFloat16AtomicMinMax;
    if (Width == 32)
      return Feature::ShaderBufferFloat32AtomicMinMax;
    if (Width == 64)
      return Feature::ShaderBufferFloat64AtomicMinMax;
    break;
  case MemoryClass::Shared:
    if (Width == 16)
      return Feature::ShaderSharedFloat16AtomicMinMax;
    if (Width == 32)
      return Feature::ShaderSharedFloat32AtomicMinMax;
    if (Width == 64)
      return Feature::ShaderSharedFloat64AtomicMinMax;
    break;
  case MemoryClass::Image:
    if (Width == 32)
      return Feature::ShaderImageFloat32AtomicMinMax;
    break;
  }
  return std::nullopt;
}

bool TargetModel::isNativeMinMax(MemoryClass Class, unsigned Width) const {
  auto F = minMaxFeature(Class, Width);
  return F && has(*F);
}

bool TargetModel::mayUseInt64Atomics(MemoryClass Class) const {
  const Feature F = Class == MemoryClass::Shared
                        ? Feature::ShaderSharedInt64Atomics
                        : Feature::ShaderBufferInt64Atomics;
  return !isKnown(F) || has(F);
}

std::optional<TargetModel> loadProfile(std::string_view JsonText,
                                       std::string &Error) {
  using nlohmann::json;
  json Doc;
  try {
    Doc = json::parse(JsonText.begin(), JsonText.end());
  } catch (const json::exception &E) {
    // parse_error, and out_of_range for a number too large for any type.
    Error = notJsonError(JsonText, E.what());
    return std::nullopt;
  }
  if (!Doc.is_object()) {
    Error = "a Vulkan profile must be a JSON object";
    return std::nullopt;
  }
  auto Caps = Doc.find("capabilities");
  if (Caps == Doc.end() || !Caps->is_object() || Caps->empty()) {
    Error = std::string("no 'capabilities' object: not a Vulkan profile "
                        "(expected `vulkaninfo --json` output): ") +
            ProfileHint;
    return std::nullopt;
  }

  TargetModel Model;
  bool SawFeatures = false;
  for (auto &[CapName, Cap] : Caps->items()) {
    if (!Cap.is_object())
      continue;
    auto Feats = Cap.find("features");
    if (Feats == Cap.end())
      continue;
    if (!Feats->is_object()) {
      Error = "capabilities." + CapName + ".features is not an object";
      return std::nullopt;
    }
    SawFeatures = true;
    for (auto &[StructName, Members] : Feats->items()) {
      if (!Members.is_object())
        continue;
      for (auto &[Member, Value] : Members.items()) {
        auto F = parseFeature(Member);
        if (!F)
          continue;
        if (!Value.is_boolean()) {
          Error = "capabilities." + CapName + ".features." + StructName + "." +
                  Member + " is not a boolean";
          return std::nullopt;
        }
        // A feature true anywhere is native; false anywhere is known.
        Model.set(*F, Model.has(*F) || Value.get<bool>());
      }
    }
  }
  if (!SawFeatures) {
    Error = "the profile's capabilities hold no 'features'";
    return std::nullopt;
  }
  // A missing VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT means none of its
  // features: mark them known-absent so diagnostics can say so.
  for (unsigned I = 0; I < unsigned(Feature::ShaderBufferInt64Atomics); ++I)
    if (!Model.isKnown(Feature(I)))
      Model.set(Feature(I), false);
  return Model;
}

std::optional<TargetModel> loadProfileFile(const std::string &Path,
                                           std::string &Error) {
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    Error = "cannot open profile '" + Path + "'";
    return std::nullopt;
  }
  std::ostringstream SS;
  SS << In.rdbuf();
  auto Model = loadProfile(SS.str(), Error);
  if (!Model) {
    Error = Path + ": " + Error;
    return std::nullopt;
  }
  Model->Source = Path;
  return Model;
}

} // namespace fatomic
