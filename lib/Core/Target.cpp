//===- Target.cpp - Target model and Vulkan profile loader ----------------===//
//
// Owns the feature names, the native-feature questions of TargetModel and
// the reading of a Vulkan profile: its feature structs and, for subgroup
// aggregation, its subgroup properties and its driver's identity.
//
//===----------------------------------------------------------------------===//

#include "fatomic/Target.h"

#include "Shown.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

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

const char *featureName(Feature F) {
  return unsigned(F) < unsigned(Feature::Count) ? Features[unsigned(F)].Name : "?";
}

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

namespace {

using detail::shown;
using nlohmann::json;

/// Reads the members of one feature struct of capability \p CapName: the
/// float and int64 atomic features, and shaderSubgroupExtendedTypes.
bool readFeatureStruct(const std::string &Where, const json &Members,
                       TargetModel &Model, std::string &Error) {
  for (auto &[Member, Value] : Members.items()) {
    auto F = parseFeature(Member);
    const bool Extended = Member == "shaderSubgroupExtendedTypes";
    if (!F && !Extended)
      continue;
    if (!Value.is_boolean()) {
      Error = Where + "." + shown(Member) + " is not a boolean";
      return false;
    }
    // A feature true anywhere is available; false anywhere is known.
    if (Extended)
      Model.Subgroups.ExtendedTypes |= Value.get<bool>();
    else
      Model.set(*F, Model.has(*F) || Value.get<bool>());
  }
  return true;
}

/// The names of a flags array ("supportedStages": ["VK_..._BIT", ...]).
bool readFlagNames(const std::string &Where, const json &Value,
                   std::vector<std::string> &Names, std::string &Error) {
  if (!Value.is_array()) {
    Error = Where + " is not an array of flag names";
    return false;
  }
  for (const json &N : Value) {
    if (!N.is_string()) {
      Error = Where + " holds a value that is not a flag name";
      return false;
    }
    Names.push_back(N.get<std::string>());
  }
  return true;
}

/// Reads the stages and operations of one properties struct that holds
/// them: VkPhysicalDeviceSubgroupProperties (supportedStages,
/// supportedOperations) or VkPhysicalDeviceVulkan11Properties
/// (subgroupSupportedStages, subgroupSupportedOperations).
bool readSubgroupStruct(const std::string &Where, const json &Members,
                        const char *StagesKey, const char *OpsKey,
                        SubgroupSupport &S, std::string &Error) {
  auto Stages = Members.find(StagesKey), Ops = Members.find(OpsKey);
  if (Stages == Members.end() || Ops == Members.end())
    return true;
  std::vector<std::string> StageNames, OpNames;
  if (!readFlagNames(Where + "." + StagesKey, *Stages, StageNames, Error) ||
      !readFlagNames(Where + "." + OpsKey, *Ops, OpNames, Error))
    return false;
  auto Has = [](const std::vector<std::string> &V, const char *Name) {
    return std::find(V.begin(), V.end(), Name) != V.end();
  };
  S.Known = true;
  S.Compute |= Has(StageNames, "VK_SHADER_STAGE_COMPUTE_BIT");
  S.Basic |= Has(OpNames, "VK_SUBGROUP_FEATURE_BASIC_BIT");
  S.Vote |= Has(OpNames, "VK_SUBGROUP_FEATURE_VOTE_BIT");
  S.Arithmetic |= Has(OpNames, "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT");
  S.Ballot |= Has(OpNames, "VK_SUBGROUP_FEATURE_BALLOT_BIT");
  return true;
}

/// Reads the driverID of a properties struct that holds one
/// (VkPhysicalDeviceDriverProperties, VkPhysicalDeviceVulkan12Properties):
/// the driver that combines unused 32-bit atomics itself
/// (SubgroupSupport::DriverCombinesUnused32).
bool readDriverId(const std::string &Where, const json &Members, SubgroupSupport &S,
                  std::string &Error) {
  auto Id = Members.find("driverID");
  if (Id == Members.end())
    return true;
  if (!Id->is_string()) {
    Error = Where + ".driverID is not a VkDriverId name";
    return false;
  }
  S.DriverCombinesUnused32 |= Id->get<std::string>() == "VK_DRIVER_ID_NVIDIA_PROPRIETARY";
  return true;
}

/// Reads the subgroup properties and the driver of capability \p Where.
bool readProperties(const std::string &Where, const json &Props,
                    SubgroupSupport &S, std::string &Error) {
  if (!Props.is_object()) {
    Error = Where + ".properties is not an object";
    return false;
  }
  for (auto &[StructName, Members] : Props.items()) {
    if (!Members.is_object())
      continue;
    const std::string At = Where + ".properties." + shown(StructName);
    if (StructName == "VkPhysicalDeviceSubgroupProperties" &&
        !readSubgroupStruct(At, Members, "supportedStages", "supportedOperations", S, Error))
      return false;
    if (StructName == "VkPhysicalDeviceVulkan11Properties" &&
        !readSubgroupStruct(At, Members, "subgroupSupportedStages",
                            "subgroupSupportedOperations", S, Error))
      return false;
    if ((StructName == "VkPhysicalDeviceDriverProperties" ||
         StructName == "VkPhysicalDeviceDriverPropertiesKHR" ||
         StructName == "VkPhysicalDeviceVulkan12Properties") &&
        !readDriverId(At, Members, S, Error))
      return false;
  }
  return true;
}

/// Reads one capability's features and properties; \p SawFeatures is set
/// where it has a features object.
bool readCapability(const std::string &CapName, const json &Cap, TargetModel &Model,
                    bool &SawFeatures, std::string &Error) {
  const std::string Where = "capabilities." + shown(CapName);
  if (auto Props = Cap.find("properties");
      Props != Cap.end() && !readProperties(Where, *Props, Model.Subgroups, Error))
    return false;
  auto Feats = Cap.find("features");
  if (Feats == Cap.end())
    return true;
  if (!Feats->is_object()) {
    Error = Where + ".features is not an object";
    return false;
  }
  SawFeatures = true;
  for (auto &[StructName, Members] : Feats->items())
    if (Members.is_object() &&
        !readFeatureStruct(Where + ".features." + shown(StructName), Members, Model, Error))
      return false;
  return true;
}

/// "a number", "an array": a JSON value by its type alone, so that a
/// deeply nested one costs nothing to name.
std::string kindOf(const json &V) {
  const std::string T = V.type_name();
  return (std::strchr("aeiou", T[0]) ? "an " : "a ") + T;
}

/// A list of alternative capability names as the message shows it
/// (["fast","slow"]; after eight names, "..."), or by its type where it
/// holds something else.
std::string alternatives(const json &List) {
  std::string Out = "[";
  size_t Listed = 0;
  for (const json &E : List) {
    if (!E.is_string())
      return "an array holding " + kindOf(E);
    if (Listed++ == 8) {
      Out += ",...";
      break;
    }
    Out += (Listed > 1 ? ",\"" : "\"") + shown(E.get<std::string>()) + "\"";
  }
  return Out + "]";
}

/// The names of the capability blocks of the one device that \p Doc
/// describes: those its one profile lists (`vulkaninfo --json` writes one
/// profile of one block), or, in a file without profiles, its one block.
/// A file of several profiles or devices, or a profile with alternatives
/// (an array in its list), describes no one device: its features are not
/// all available together, so it is refused rather than merged.
bool deviceBlocks(const json &Doc, const json &Caps, std::vector<std::string> &Names,
                  std::string &Error) {
  auto Profiles = Doc.find("profiles");
  if (Profiles == Doc.end()) {
    if (Caps.size() != 1) {
      Error = std::to_string(Caps.size()) +
              " capability blocks and no 'profiles' to say which one device they describe: " +
              ProfileHint;
      return false;
    }
    Names.push_back(Caps.begin().key());
    return true;
  }
  if (!Profiles->is_object() || Profiles->size() != 1) {
    Error = std::string("'profiles' must hold exactly one profile, the device's: ") + ProfileHint;
    return false;
  }
  const std::string Where = "profiles." + shown(Profiles->begin().key());
  auto List = Profiles->begin()->find("capabilities");
  if (List == Profiles->begin()->end() || !List->is_array()) {
    Error = Where + ".capabilities is not a list of capability names";
    return false;
  }
  for (const json &Name : *List) {
    if (Name.is_array()) {
      Error = Where + ".capabilities lists alternatives (" + alternatives(Name) +
              "): fatomic needs the features of one device, which a profile of alternatives does not give";
      return false;
    }
    if (!Name.is_string()) {
      Error = Where + ".capabilities holds " + kindOf(Name) + ", not a capability name";
      return false;
    }
    if (!Caps.contains(Name.get<std::string>())) {
      Error = Where + " names capability '" + shown(Name.get<std::string>()) +
              "', which 'capabilities' does not hold";
      return false;
    }
    Names.push_back(Name.get<std::string>());
  }
  return true;
}

} // namespace

std::optional<TargetModel> loadProfile(std::string_view JsonText,
                                       std::string &Error) {
  // The parser takes a NUL for the end of its input: text after one would
  // be ignored, though the caller counted it in.  NULs alone at the end (a
  // C string's terminator counted into the size) end the text.
  if (const size_t Nul = JsonText.find('\0'); Nul != std::string_view::npos) {
    if (JsonText.find_first_not_of('\0', Nul) != std::string_view::npos) {
      Error = "not valid JSON: text after a NUL byte at offset " +
              std::to_string(Nul) + " of " + std::to_string(JsonText.size()) +
              " bytes";
      return std::nullopt;
    }
    JsonText = JsonText.substr(0, Nul);
  }
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

  std::vector<std::string> Blocks;
  if (!deviceBlocks(Doc, *Caps, Blocks, Error))
    return std::nullopt;
  TargetModel Model;
  bool SawFeatures = false;
  for (const std::string &Name : Blocks) {
    const json &Cap = (*Caps)[Name];
    if (Cap.is_object() && !readCapability(Name, Cap, Model, SawFeatures, Error))
      return std::nullopt;
  }
  if (!SawFeatures) {
    Error = "the profile's capabilities hold no 'features'";
    return std::nullopt;
  }
  // A feature the profile does not list is missing (a device without
  // VK_EXT_shader_atomic_float2, or without 64-bit integer atomics, lists no
  // struct that holds it): known-absent, so that diagnostics can say so.
  for (unsigned I = 0; I < unsigned(Feature::Count); ++I)
    if (!Model.isKnown(Feature(I)))
      Model.set(Feature(I), false);
  return Model;
}

std::optional<TargetModel> loadProfileFile(const std::string &Path,
                                           std::string &Error) {
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    Error = "cannot open profile '" + Path + "': " + std::strerror(errno);
    return std::nullopt;
  }
  // A directory opens, and reads as nothing.
  std::error_code EC;
  if (std::filesystem::is_directory(Path, EC)) {
    Error = "cannot read profile '" + Path + "': " + std::strerror(EISDIR);
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
