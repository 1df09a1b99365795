//===- fatomic-vkrun.cpp - Run one SPIR-V compute shader on a Vulkan device ===//
//
//   fatomic-vkrun --features [--no-float-atomics] [--device N]
//   fatomic-vkrun --list-devices
//   fatomic-vkrun [options] JOB.json
//
// The job file names a SPIR-V module, the storage buffers of descriptor set 0
// (single buffers and descriptor arrays, plus buffers reached only through a
// device address) and its 2D storage images (r32f, r32ui or r32i), how to
// fill them, the workgroup counts, and where to write them back.  Every run re-initialises the buffers, dispatches once
// between two GPU timestamps and reads the outputs back.
//
// The device is created with exactly the features the module needs (read off
// its capabilities and atomics), plus every supported float-atomic feature of
// VK_EXT_shader_atomic_float{,2} unless --no-float-atomics leaves those
// extensions out.  A module that needs a feature the device does not give is
// refused (exit 3) unless --force.
//
// --shader-object runs the module as a compute shader object
// (VK_EXT_shader_object: vkCreateShadersEXT, vkCmdBindShadersEXT) instead of
// a compute pipeline, the path a Vulkan layer sees in vkCreateShadersEXT; a
// device without shader objects is refused (exit 3).  --ray-tracing runs
// the module's ray generation entry point in a ray tracing pipeline over a
// launch of "groups" invocations (RayTracing.h); a device without ray
// tracing pipelines is refused (exit 3).
//
// Exit status: 0 ok; 1 usage, job or file error; 2 no usable device or a
// Vulkan call failed; 3 the module needs a feature the device lacks (or that
// --no-float-atomics leaves disabled), or --shader-object / --ray-tracing on
// a device without shader objects / ray tracing pipelines; 4
// --check-identical found runs whose outputs differ.
//
//===----------------------------------------------------------------------===//

#include "RayTracing.h"
#include "ShaderObjectApi.h"
#include "SpirvInfo.h"
#include "VulkanContext.h"

#include <nlohmann/json.hpp>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp11>

namespace fs = std::filesystem;
using json = nlohmann::json;
namespace vk = fatomic::vk;

namespace {

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

using vk::ExitOk;
using vk::ExitUsage;
using vk::ExitVulkan;
using vk::Failure;
using vk::check;
using vk::deviceTypeName;
using vk::fail;
using vk::hasExtension;
using vk::versionString;
/// fatomic-vkrun's own exit codes, after vk::ExitCode's.
enum ExitCode { ExitUnsupported = 3, ExitNotIdentical = 4 };

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

std::vector<uint8_t> readFile(const fs::path &P, const char *What) {
  std::ifstream In(P, std::ios::binary);
  if (!In)
    fail(ExitUsage, std::string("cannot open ") + What + " '" + P.string() +
                        "'");
  std::vector<uint8_t> Data((std::istreambuf_iterator<char>(In)),
                            std::istreambuf_iterator<char>());
  if (In.bad())
    fail(ExitUsage, std::string("cannot read ") + What + " '" + P.string() +
                        "'");
  return Data;
}

void writeFile(const fs::path &P, const uint8_t *Data, size_t Size) {
  std::ofstream Out(P, std::ios::binary | std::ios::trunc);
  if (!Out)
    fail(ExitUsage, "cannot create output file '" + P.string() + "'");
  Out.write(reinterpret_cast<const char *>(Data),
            static_cast<std::streamsize>(Size));
  // The data reaches the file when it is flushed: a full disk shows there.
  Out.close();
  if (Out.fail())
    fail(ExitUsage, "cannot write output file '" + P.string() + "'");
}

//===----------------------------------------------------------------------===//
// Device features: what the device supports, and what we enable
//===----------------------------------------------------------------------===//

struct FeatureChain {
  VkPhysicalDeviceFeatures2 Base{};
  VkPhysicalDeviceVulkan11Features V11{};
  VkPhysicalDeviceVulkan12Features V12{};
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT F1{};
  VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT F2{};

  /// Links the chain; the float-atomic structs only where \p WithF1/F2.
  void link(bool WithF1, bool WithF2) {
    Base.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    V11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    V12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    F1.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
    F2.sType =
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT;
    Base.pNext = &V11;
    V11.pNext = &V12;
    void **Tail = &V12.pNext;
    *Tail = nullptr;
    if (WithF1) {
      *Tail = &F1;
      Tail = &F1.pNext;
      *Tail = nullptr;
    }
    if (WithF2) {
      *Tail = &F2;
      Tail = &F2.pNext;
      *Tail = nullptr;
    }
  }
};

enum class Group { Float1, Float2, Int64, Other };

struct FeatureDesc {
  const char *Name;
  Group G;
  std::function<VkBool32 &(FeatureChain &)> Field;
};

#define FEAT(Group, Member, Name)                                              \
  FeatureDesc{#Name, Group, [](FeatureChain &C) -> VkBool32 & {               \
                return C.Member.Name;                                          \
              }}

const std::vector<FeatureDesc> &featureTable() {
  static const std::vector<FeatureDesc> Table = {
      FEAT(Group::Float1, F1, shaderBufferFloat32Atomics),
      FEAT(Group::Float1, F1, shaderBufferFloat32AtomicAdd),
      FEAT(Group::Float1, F1, shaderBufferFloat64Atomics),
      FEAT(Group::Float1, F1, shaderBufferFloat64AtomicAdd),
      FEAT(Group::Float1, F1, shaderSharedFloat32Atomics),
      FEAT(Group::Float1, F1, shaderSharedFloat32AtomicAdd),
      FEAT(Group::Float1, F1, shaderSharedFloat64Atomics),
      FEAT(Group::Float1, F1, shaderSharedFloat64AtomicAdd),
      FEAT(Group::Float1, F1, shaderImageFloat32Atomics),
      FEAT(Group::Float1, F1, shaderImageFloat32AtomicAdd),
      FEAT(Group::Float1, F1, sparseImageFloat32Atomics),
      FEAT(Group::Float1, F1, sparseImageFloat32AtomicAdd),
      FEAT(Group::Float2, F2, shaderBufferFloat16Atomics),
      FEAT(Group::Float2, F2, shaderBufferFloat16AtomicAdd),
      FEAT(Group::Float2, F2, shaderBufferFloat16AtomicMinMax),
      FEAT(Group::Float2, F2, shaderBufferFloat32AtomicMinMax),
      FEAT(Group::Float2, F2, shaderBufferFloat64AtomicMinMax),
      FEAT(Group::Float2, F2, shaderSharedFloat16Atomics),
      FEAT(Group::Float2, F2, shaderSharedFloat16AtomicAdd),
      FEAT(Group::Float2, F2, shaderSharedFloat16AtomicMinMax),
      FEAT(Group::Float2, F2, shaderSharedFloat32AtomicMinMax),
      FEAT(Group::Float2, F2, shaderSharedFloat64AtomicMinMax),
      FEAT(Group::Float2, F2, shaderImageFloat32AtomicMinMax),
      FEAT(Group::Float2, F2, sparseImageFloat32AtomicMinMax),
      FEAT(Group::Int64, Base.features, shaderInt64),
      FEAT(Group::Int64, V12, shaderBufferInt64Atomics),
      FEAT(Group::Int64, V12, shaderSharedInt64Atomics),
      FEAT(Group::Other, Base.features, shaderFloat64),
      FEAT(Group::Other, Base.features, shaderInt16),
      FEAT(Group::Other, V12, shaderFloat16),
      FEAT(Group::Other, V12, shaderInt8),
      FEAT(Group::Other, V11, storageBuffer16BitAccess),
      FEAT(Group::Other, V11, uniformAndStorageBuffer16BitAccess),
      FEAT(Group::Other, V12, storageBuffer8BitAccess),
      FEAT(Group::Other, V12, uniformAndStorageBuffer8BitAccess),
      FEAT(Group::Other, V12, bufferDeviceAddress),
      FEAT(Group::Other, V12, vulkanMemoryModel),
      FEAT(Group::Other, V12, vulkanMemoryModelDeviceScope),
      // 64-bit subgroup operations (aggregated f64 atomics); enabled where
      // the module uses group operations (createDevice).
      FEAT(Group::Other, V12, shaderSubgroupExtendedTypes),
  };
  return Table;
}
#undef FEAT

const FeatureDesc *findFeature(const std::string &Name) {
  for (const FeatureDesc &D : featureTable())
    if (Name == D.Name)
      return &D;
  return nullptr;
}

/// One feature the module needs, and why.
struct Need {
  std::string Feature;
  std::string Why;
};

std::vector<Need> featuresNeeded(const vkrun::SpirvInfo &Info) {
  std::vector<Need> Needs;
  auto Add = [&](const std::string &F, const std::string &Why) {
    for (const Need &N : Needs)
      if (N.Feature == F)
        return;
    Needs.push_back({F, Why});
  };
  using C = spv::Capability;
  const std::pair<C, const char *> CapMap[] = {
      {C::Float64, "shaderFloat64"},
      {C::Int64, "shaderInt64"},
      {C::Int16, "shaderInt16"},
      {C::Float16, "shaderFloat16"},
      {C::Int8, "shaderInt8"},
      {C::StorageBuffer16BitAccess, "storageBuffer16BitAccess"},
      {C::UniformAndStorageBuffer16BitAccess,
       "uniformAndStorageBuffer16BitAccess"},
      {C::StorageBuffer8BitAccess, "storageBuffer8BitAccess"},
      {C::UniformAndStorageBuffer8BitAccess,
       "uniformAndStorageBuffer8BitAccess"},
      {C::PhysicalStorageBufferAddresses, "bufferDeviceAddress"},
      {C::VulkanMemoryModel, "vulkanMemoryModel"},
      {C::VulkanMemoryModelDeviceScope, "vulkanMemoryModelDeviceScope"},
  };
  for (const auto &[Cap, F] : CapMap)
    if (Info.Capabilities.count(static_cast<uint32_t>(Cap)))
      Add(F, "capability");

  for (const vkrun::AtomicUse &U : Info.Atomics) {
    const std::string Where = U.Memory == vkrun::AtomicMemory::Buffer ? "Buffer"
                              : U.Memory == vkrun::AtomicMemory::Shared
                                  ? "Shared"
                              : U.Memory == vkrun::AtomicMemory::Image
                                  ? "Image"
                                  : "";
    const std::string Why = std::string(vkrun::toString(U.Kind)) + " atomic, " +
                            std::to_string(U.Width) + "-bit, on " +
                            vkrun::toString(U.Memory) + " memory";
    if (Where.empty())
      continue; // Function/Private/...: no device feature
    std::string F;
    switch (U.Kind) {
    case vkrun::AtomicKind::IntAny:
      if (U.Width == 64)
        F = "shader" + Where + "Int64Atomics";
      break;
    case vkrun::AtomicKind::FloatLSX:
      F = "shader" + Where + "Float" + std::to_string(U.Width) + "Atomics";
      break;
    case vkrun::AtomicKind::FloatAdd:
      F = "shader" + Where + "Float" + std::to_string(U.Width) + "AtomicAdd";
      break;
    case vkrun::AtomicKind::FloatMinMax:
      F = "shader" + Where + "Float" + std::to_string(U.Width) +
          "AtomicMinMax";
      break;
    case vkrun::AtomicKind::FloatOther:
      F = "<no Vulkan feature allows this float atomic>";
      break;
    }
    if (!F.empty())
      Add(F, Why);
  }
  return Needs;
}

//===----------------------------------------------------------------------===//
// Job description
//===----------------------------------------------------------------------===//

struct AddressPatch {
  uint64_t Offset = 0;
  std::string Buffer;
  size_t Element = 0;
  uint64_t Add = 0;
};

struct Element {
  std::vector<uint8_t> Init; ///< exactly Size bytes
  std::string Output;        ///< empty: not written back
  bool CompareRuns = true;   ///< part of what --check-identical compares
  std::vector<AddressPatch> Patches;
};

/// A storage image instead of a buffer: 2D, one 32-bit channel, its texels
/// row by row (tightly packed) in the element's bytes.
struct ImageSpec {
  uint32_t Width = 0, Height = 0;
  VkFormat Format = VK_FORMAT_UNDEFINED;
};

struct BufferSpec {
  std::string Name;
  std::optional<uint32_t> Binding;
  bool IsArray = false;
  std::optional<ImageSpec> Image;
  std::vector<Element> Elements;
};

struct Job {
  fs::path Shader;
  std::string Entry;
  uint32_t Groups[3] = {1, 1, 1};
  std::vector<BufferSpec> Buffers;
};

void appendScalars(std::vector<uint8_t> &Out, const json &Array,
                   const std::string &Kind, const std::string &Where) {
  if (!Array.is_array())
    fail(ExitUsage, Where + ": '" + Kind + "' must be an array");
  for (const json &V : Array) {
    uint8_t Bytes[8];
    size_t N = 0;
    if (Kind == "u32" || Kind == "i32") {
      uint32_t X = Kind == "u32" ? V.get<uint32_t>()
                                 : static_cast<uint32_t>(V.get<int32_t>());
      std::memcpy(Bytes, &X, 4);
      N = 4;
    } else if (Kind == "u64" || Kind == "i64") {
      uint64_t X = Kind == "u64" ? V.get<uint64_t>()
                                 : static_cast<uint64_t>(V.get<int64_t>());
      std::memcpy(Bytes, &X, 8);
      N = 8;
    } else if (Kind == "f32") {
      float X = V.get<float>();
      std::memcpy(Bytes, &X, 4);
      N = 4;
    } else {
      double X = V.get<double>();
      std::memcpy(Bytes, &X, 8);
      N = 8;
    }
    Out.insert(Out.end(), Bytes, Bytes + N);
  }
}

std::vector<uint8_t> parseHex(const std::string &Text,
                              const std::string &Where) {
  std::vector<uint8_t> Out;
  int Hi = -1;
  for (char C : Text) {
    if (C == ' ' || C == '\n' || C == '\t' || C == '_' || C == ':')
      continue;
    int D;
    if (C >= '0' && C <= '9')
      D = C - '0';
    else if (C >= 'a' && C <= 'f')
      D = C - 'a' + 10;
    else if (C >= 'A' && C <= 'F')
      D = C - 'A' + 10;
    else
      fail(ExitUsage, Where + ": bad hex digit '" + std::string(1, C) + "'");
    if (Hi < 0) {
      Hi = D;
    } else {
      Out.push_back(static_cast<uint8_t>(Hi * 16 + D));
      Hi = -1;
    }
  }
  if (Hi >= 0)
    fail(ExitUsage, Where + ": odd number of hex digits");
  return Out;
}

/// The bytes of an element's 'init' object (empty without one); a
/// fill_u32 value sets \p Fill instead.
std::vector<uint8_t> parseInit(const json &E, const fs::path &Dir, const std::string &Where,
                               std::optional<uint32_t> &Fill) {
  std::vector<uint8_t> Data;
  if (!E.contains("init"))
    return Data;
  const json &I = E["init"];
  if (!I.is_object() || I.size() != 1)
    fail(ExitUsage, Where + ": 'init' must be an object with one key "
                            "(file, hex, u32, i32, u64, i64, f32, f64, "
                            "fill_u32)");
  const std::string K = I.begin().key();
  const json &V = I.begin().value();
  if (K == "file") {
    fs::path P = V.get<std::string>();
    if (P.is_relative())
      P = Dir / P;
    Data = readFile(P, "buffer init file");
  } else if (K == "hex") {
    Data = parseHex(V.get<std::string>(), Where);
  } else if (K == "u32" || K == "i32" || K == "u64" || K == "i64" || K == "f32" ||
             K == "f64") {
    appendScalars(Data, V, K, Where);
  } else if (K == "fill_u32") {
    Fill = V.get<uint32_t>();
  } else {
    fail(ExitUsage, Where + ": unknown init kind '" + K + "'");
  }
  return Data;
}

/// The 'address_of' list of an element of \p Size bytes.
std::vector<AddressPatch> parsePatches(const json &E, size_t Size, const std::string &Where) {
  std::vector<AddressPatch> Patches;
  for (const json &P : E.value("address_of", json::array())) {
    AddressPatch AP;
    AP.Offset = P.at("offset").get<uint64_t>();
    AP.Buffer = P.at("buffer").get<std::string>();
    AP.Element = P.value("element", size_t{0});
    AP.Add = P.value("add", uint64_t{0});
    if (AP.Offset + 8 > Size)
      fail(ExitUsage, Where + ": address_of offset " + std::to_string(AP.Offset) +
                          " + 8 is past the end");
    Patches.push_back(AP);
  }
  return Patches;
}

Element parseElement(const json &E, const fs::path &Dir,
                     const std::string &Where) {
  if (!E.is_object())
    fail(ExitUsage, Where + ": must be an object");
  for (auto It = E.begin(); It != E.end(); ++It) {
    static const char *Known[] = {"name",       "binding", "elements",
                                  "size",       "init",    "output",
                                  "address_of", "comment", "check_identical",
                                  "image"};
    if (std::none_of(std::begin(Known), std::end(Known),
                     [&](const char *K) { return It.key() == K; }))
      fail(ExitUsage, Where + ": unknown key '" + It.key() + "'");
  }
  std::optional<uint32_t> Fill;
  std::vector<uint8_t> Data = parseInit(E, Dir, Where, Fill);
  size_t Size = Data.size();
  if (E.contains("size")) {
    // A byte count the host can hold (a storage buffer is far smaller).
    const json &S = E["size"];
    if (!S.is_number_unsigned() || S.get<uint64_t>() > (uint64_t{1} << 32))
      fail(ExitUsage, Where + ": size must be a whole number of bytes from 1 to 2^32, not " +
                          S.dump());
    Size = S.get<size_t>();
    if (Data.size() > Size)
      fail(ExitUsage, Where + ": init has " + std::to_string(Data.size()) +
                          " bytes, more than size " + std::to_string(Size));
  }
  if (Size == 0)
    fail(ExitUsage, Where + ": size is zero (give 'size' or a non-empty init)");
  if (Fill) {
    Data.resize(Size);
    for (size_t I = 0; I + 4 <= Size; I += 4)
      std::memcpy(&Data[I], &*Fill, 4);
  }
  Data.resize(Size, 0);
  Element El;
  El.Init = std::move(Data);
  if (E.contains("output"))
    El.Output = E["output"].get<std::string>();
  El.CompareRuns = E.value("check_identical", true);
  El.Patches = parsePatches(E, Size, Where);
  return El;
}

ImageSpec parseImage(const json &I, const std::string &Where) {
  ImageSpec Img;
  Img.Width = I.at("width").get<uint32_t>();
  Img.Height = I.at("height").get<uint32_t>();
  const std::string F = I.at("format").get<std::string>();
  if (F == "r32f")
    Img.Format = VK_FORMAT_R32_SFLOAT;
  else if (F == "r32ui")
    Img.Format = VK_FORMAT_R32_UINT;
  else if (F == "r32i")
    Img.Format = VK_FORMAT_R32_SINT;
  else
    fail(ExitUsage, Where + ": image format '" + F + "' is not one of r32f, r32ui, r32i");
  if (Img.Width == 0 || Img.Height == 0)
    fail(ExitUsage, Where + ": image width and height must be positive");
  return Img;
}

/// One entry of 'buffers': a buffer, a descriptor array ('elements') or an
/// image.  \p Bound names the buffer of each binding so far.
BufferSpec parseBuffer(const json &B, const fs::path &Dir, const std::string &Where,
                       std::map<uint32_t, std::string> &Bound) {
  BufferSpec S;
  if (B.contains("binding")) {
    S.Binding = B["binding"].get<uint32_t>();
    if (Bound.count(*S.Binding))
      fail(ExitUsage, Where + ": binding " + std::to_string(*S.Binding) +
                          " already used by '" + Bound[*S.Binding] + "'");
  }
  if (B.contains("image")) {
    if (!S.Binding || B.contains("elements") || B.contains("address_of"))
      fail(ExitUsage, Where + ": an image needs a binding, and is neither "
                              "a descriptor array nor address_of");
    S.Image = parseImage(B["image"], Where);
  }
  if (!B.contains("elements")) {
    S.Elements.push_back(parseElement(B, Dir, Where));
  } else {
    S.IsArray = true;
    size_t K = 0;
    for (const json &E : B["elements"])
      S.Elements.push_back(parseElement(E, Dir, Where + " element " + std::to_string(K++)));
    if (S.Elements.empty())
      fail(ExitUsage, Where + ": 'elements' is empty");
    for (const char *K2 : {"size", "init", "output", "address_of"})
      if (B.contains(K2))
        fail(ExitUsage, Where + ": '" + K2 + "' belongs in each element of a descriptor array");
  }
  const size_t ImageBytes = S.Image ? size_t(S.Image->Width) * S.Image->Height * 4 : 0;
  if (S.Image && S.Elements[0].Init.size() != ImageBytes)
    fail(ExitUsage, Where + ": an image of " + std::to_string(S.Image->Width) + "x" +
                        std::to_string(S.Image->Height) + " texels holds " +
                        std::to_string(ImageBytes) + " bytes, not " +
                        std::to_string(S.Elements[0].Init.size()));
  return S;
}

Job loadJob(const fs::path &Path) {
  std::vector<uint8_t> Bytes = readFile(Path, "job file");
  const fs::path Dir = Path.parent_path();
  Job Jb;
  try {
    const json J = json::parse(Bytes.begin(), Bytes.end());
    if (J.contains("shader")) {
      Jb.Shader = J["shader"].get<std::string>();
      if (Jb.Shader.is_relative())
        Jb.Shader = Dir / Jb.Shader;
    }
    Jb.Entry = J.value("entry", std::string());
    if (J.contains("groups")) {
      const json &G = J["groups"];
      if (!G.is_array() || G.empty() || G.size() > 3)
        fail(ExitUsage, "job: 'groups' must be an array of 1 to 3 counts");
      for (size_t I = 0; I < G.size(); ++I)
        Jb.Groups[I] = G[I].get<uint32_t>();
    }
    std::map<uint32_t, std::string> Bound;
    for (const json &B : J.value("buffers", json::array())) {
      const size_t Index = Jb.Buffers.size();
      std::string Name = B.value("name", std::string());
      if (Name.empty())
        Name = "buffer" + std::to_string(Index);
      const std::string Where = "job buffer #" + std::to_string(Index);
      if (std::any_of(Jb.Buffers.begin(), Jb.Buffers.end(),
                      [&](const BufferSpec &S) { return S.Name == Name; }))
        fail(ExitUsage, Where + ": duplicate name '" + Name + "'");
      Jb.Buffers.push_back(parseBuffer(B, Dir, Where + " ('" + Name + "')", Bound));
      Jb.Buffers.back().Name = Name;
      if (Jb.Buffers.back().Binding)
        Bound[*Jb.Buffers.back().Binding] = Name;
    }
  } catch (const json::exception &E) {
    fail(ExitUsage, "job file '" + Path.string() + "': " + E.what());
  }
  return Jb;
}

//===----------------------------------------------------------------------===//
// Vulkan context
//===----------------------------------------------------------------------===//

struct Options {
  bool Features = false;
  bool ListDevices = false;
  bool NoFloatAtomics = false;
  bool Force = false;
  bool CheckIdentical = false;
  bool OutputsEachRun = false;
  bool ShaderObject = false;
  bool RayTracing = false;
  bool Quiet = false;
  std::optional<uint32_t> DeviceIndex;
  uint32_t Repeat = 1;
  uint32_t TimeoutS = 600;
  fs::path JobPath;
  std::optional<fs::path> ShaderOverride;
  std::optional<fs::path> OutDir;
  std::optional<std::vector<uint32_t>> GroupsOverride;
};

class Context : public vk::Context {
public:
  bool HasF1 = false, HasF2 = false;
  /// VK_EXT_shader_object listed, and its shaderObject feature.
  bool HasShaderObject = false;
  VkPhysicalDeviceShaderObjectFeaturesEXT ShaderObject{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT};
  vkrun::RayTracingSupport RayTracing;
  FeatureChain Supported;
  FeatureChain Enabled;
  bool FloatAtomicsEnabled = false;
  /// The device's driver (Vulkan 1.2; a zero driverID before 1.2).
  VkPhysicalDeviceDriverProperties Driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  /// The device's subgroup stages and operations (Vulkan 1.1).
  VkPhysicalDeviceSubgroupProperties Subgroup{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};

  /// The float-atomic extensions and the features the device supports.
  void queryFeatures() {
    uint32_t NE = 0;
    VK_CHECK(vkEnumerateDeviceExtensionProperties(Phys, nullptr, &NE, nullptr));
    std::vector<VkExtensionProperties> Exts(NE);
    if (NE)
      VK_CHECK(
          vkEnumerateDeviceExtensionProperties(Phys, nullptr, &NE, Exts.data()));
    Exts.resize(NE);
    HasF1 = hasExtension(Exts, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
    HasF2 = hasExtension(Exts, VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME);
    Supported.link(HasF1, HasF2);
    vkGetPhysicalDeviceFeatures2(Phys, &Supported.Base);
    HasShaderObject = hasExtension(Exts, VK_EXT_SHADER_OBJECT_EXTENSION_NAME);
    if (HasShaderObject) {
      VkPhysicalDeviceFeatures2 F2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &ShaderObject};
      vkGetPhysicalDeviceFeatures2(Phys, &F2);
      ShaderObject.pNext = nullptr;
    }
    RayTracing.query(Phys, Exts);
    if (Props.apiVersion >= VK_API_VERSION_1_2)
      Subgroup.pNext = &Driver;
    VkPhysicalDeviceProperties2 P2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &Subgroup};
    vkGetPhysicalDeviceProperties2(Phys, &P2);
    Subgroup.pNext = nullptr;
  }

  void printFeatures(bool NoFloatAtomics) {
    std::printf("device: %s\n", deviceLine().c_str());
    // The VkDriverId (0 where the device has no Vulkan 1.2): a Vulkan
    // layer's aggregate=auto leaves some atomics to NVIDIA's proprietary
    // driver (4), which combines them itself.
    std::printf("driverID: %u\n", static_cast<unsigned>(Driver.driverID));
    auto Section = [&](Group G, const char *Title) {
      std::printf("%s\n", Title);
      for (const FeatureDesc &D : featureTable())
        if (D.G == G)
          std::printf("  %s = %u\n", D.Name,
                      static_cast<unsigned>(D.Field(Supported) ? 1 : 0));
    };
    std::printf("%s: %s%s\n", VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME,
                HasF1 ? "yes" : "no",
                HasF1 && NoFloatAtomics ? " (not enabled: --no-float-atomics)"
                                        : "");
    Section(Group::Float1, "float atomics (VK_EXT_shader_atomic_float):");
    std::printf("%s: %s%s\n", VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME,
                HasF2 ? "yes" : "no",
                HasF2 && NoFloatAtomics ? " (not enabled: --no-float-atomics)"
                                        : "");
    Section(Group::Float2, "float atomics (VK_EXT_shader_atomic_float2):");
    Section(Group::Int64, "64-bit integer atomics:");
    Section(Group::Other, "other:");
    std::printf("%s: %s\n  shaderObject = %u\n", VK_EXT_SHADER_OBJECT_EXTENSION_NAME,
                HasShaderObject ? "yes" : "no",
                HasShaderObject && ShaderObject.shaderObject ? 1u : 0u);
    // graphicsPipelineLibrary: --ray-tracing chains the module into the stage.
    std::printf("%s: %s\n  rayTracingPipeline = %u\n  graphicsPipelineLibrary = %u\n",
                VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME, RayTracing.Extensions ? "yes" : "no",
                RayTracing.Pipeline ? 1u : 0u, RayTracing.ChainedModules ? 1u : 0u);
    if (TimestampBits)
      std::printf("timestamps: %u valid bits, period %g ns\n", TimestampBits,
                  static_cast<double>(Props.limits.timestampPeriod));
    else
      std::printf("timestamps: not supported on the compute queue\n");
    std::printf("maxComputeSharedMemorySize = %u\n",
                Props.limits.maxComputeSharedMemorySize);
    // What subgroup aggregation needs (a Vulkan layer's aggregate=auto).
    std::printf("subgroup operations in compute shaders:\n");
    const bool Compute = Subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT;
    const std::pair<const char *, VkSubgroupFeatureFlagBits> Ops[] = {
        {"subgroupBasic", VK_SUBGROUP_FEATURE_BASIC_BIT},
        {"subgroupVote", VK_SUBGROUP_FEATURE_VOTE_BIT},
        {"subgroupArithmetic", VK_SUBGROUP_FEATURE_ARITHMETIC_BIT},
        {"subgroupBallot", VK_SUBGROUP_FEATURE_BALLOT_BIT}};
    for (const auto &[Name, Bit] : Ops)
      std::printf("  %s = %u\n", Name,
                  Compute && (Subgroup.supportedOperations & Bit) ? 1u : 0u);
  }

  /// Decides the enabled features for a module needing \p Needs (plus
  /// \p ExtraNeeds), creates the device, and returns the features the module
  /// needs but does not get (empty: all good).
  std::vector<Need> createDevice(const std::vector<Need> &Needs, bool NoFloatAtomics,
                                 bool GroupOps, bool WithShaderObject, bool WithRayTracing) {
    Enabled.link(HasF1 && !NoFloatAtomics, HasF2 && !NoFloatAtomics);
    FloatAtomicsEnabled = !NoFloatAtomics && (HasF1 || HasF2);
    if (FloatAtomicsEnabled)
      for (const FeatureDesc &D : featureTable())
        if ((D.G == Group::Float1 && HasF1) || (D.G == Group::Float2 && HasF2))
          D.Field(Enabled) = D.Field(Supported);
    std::vector<Need> Missing;
    for (const Need &N : Needs) {
      const FeatureDesc *D = findFeature(N.Feature);
      bool IsFloatAtomic =
          D && (D->G == Group::Float1 || D->G == Group::Float2);
      if (!D || !D->Field(Supported) || (IsFloatAtomic && NoFloatAtomics)) {
        Missing.push_back(N);
        continue;
      }
      D->Field(Enabled) = VK_TRUE;
    }
    // A module with group operations may use them on 64-bit operands (an
    // aggregated f64 atomic): as an application would, enable
    // shaderSubgroupExtendedTypes for it where the device has it.
    if (GroupOps)
      Enabled.V12.shaderSubgroupExtendedTypes = Supported.V12.shaderSubgroupExtendedTypes;
    // An atomic on a 64-bit integer also needs the shaderInt64 type feature.
    if (Enabled.V12.shaderBufferInt64Atomics ||
        Enabled.V12.shaderSharedInt64Atomics)
      Enabled.Base.features.shaderInt64 = Supported.Base.features.shaderInt64;

    std::vector<const char *> Exts;
    if (FloatAtomicsEnabled && HasF1)
      Exts.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
    if (FloatAtomicsEnabled && HasF2)
      Exts.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME);
    if (WithShaderObject)
      enableShaderObject(Exts);
    if (WithRayTracing)
      enableRayTracing(Exts);

    vk::Context::createDevice(&Enabled.Base, Exts);
    return Missing;
  }

private:
  VkPhysicalDeviceShaderObjectFeaturesEXT EnabledShaderObject{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT};

  /// --shader-object: the extension and its feature, or exit 3.  The
  /// extension needs dynamic rendering, core in Vulkan 1.3.
  void enableShaderObject(std::vector<const char *> &Exts) {
    if (!HasShaderObject || !ShaderObject.shaderObject)
      fail(ExitUnsupported, std::string("--shader-object: the device has no ") +
                                (HasShaderObject ? "shaderObject feature"
                                                 : VK_EXT_SHADER_OBJECT_EXTENSION_NAME));
    if (Props.apiVersion < VK_API_VERSION_1_3)
      fail(ExitUnsupported, "--shader-object needs a Vulkan 1.3 device");
    EnabledShaderObject.shaderObject = VK_TRUE;
    EnabledShaderObject.pNext = Enabled.Base.pNext;
    Enabled.Base.pNext = &EnabledShaderObject;
    Exts.push_back(VK_EXT_SHADER_OBJECT_EXTENSION_NAME);
  }

  /// --ray-tracing: the extensions and features, and buffer device
  /// addresses for the shader binding table, or exit 3.
  void enableRayTracing(std::vector<const char *> &Exts) {
    RayTracing.enable(Exts, Enabled.Base);
    if (!Supported.V12.bufferDeviceAddress)
      fail(ExitUnsupported, "--ray-tracing: the device has no bufferDeviceAddress");
    Enabled.V12.bufferDeviceAddress = VK_TRUE;
  }
};

//===----------------------------------------------------------------------===//
// Buffers and the run
//===----------------------------------------------------------------------===//

struct GpuImage {
  VkDevice Device = VK_NULL_HANDLE;
  VkImage Image = VK_NULL_HANDLE;
  VkImageView View = VK_NULL_HANDLE;
  VkDeviceMemory Memory = VK_NULL_HANDLE;

  GpuImage() = default;
  GpuImage(const GpuImage &) = delete;
  GpuImage &operator=(const GpuImage &) = delete;
  ~GpuImage() {
    if (View)
      vkDestroyImageView(Device, View, nullptr);
    if (Image)
      vkDestroyImage(Device, Image, nullptr);
    if (Memory)
      vkFreeMemory(Device, Memory, nullptr);
  }

  void create(Context &C, const ImageSpec &S) {
    Device = C.Device;
    VkFormatProperties FP;
    vkGetPhysicalDeviceFormatProperties(C.Phys, S.Format, &FP);
    if (!(FP.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT))
      fail(ExitUnsupported, "the device has no storage images of format " +
                                std::to_string(S.Format));
    VkImageCreateInfo II{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    II.imageType = VK_IMAGE_TYPE_2D;
    II.format = S.Format;
    II.extent = {S.Width, S.Height, 1};
    II.mipLevels = 1;
    II.arrayLayers = 1;
    II.samples = VK_SAMPLE_COUNT_1_BIT;
    II.tiling = VK_IMAGE_TILING_OPTIMAL;
    II.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
               VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    II.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    II.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VK_CHECK(vkCreateImage(Device, &II, nullptr, &Image));
    VkMemoryRequirements Req;
    vkGetImageMemoryRequirements(Device, Image, &Req);
    VkMemoryAllocateInfo AI{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    AI.allocationSize = Req.size;
    AI.memoryTypeIndex =
        C.memoryType(Req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
    VK_CHECK(vkAllocateMemory(Device, &AI, nullptr, &Memory));
    VK_CHECK(vkBindImageMemory(Device, Image, Memory, 0));
    VkImageViewCreateInfo VI{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    VI.image = Image;
    VI.viewType = VK_IMAGE_VIEW_TYPE_2D;
    VI.format = S.Format;
    VI.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VK_CHECK(vkCreateImageView(Device, &VI, nullptr, &View));
  }
};

/// A layout transition of a whole single-level color image.
void imageBarrier(VkCommandBuffer Cmd, VkImage Image, VkImageLayout From,
                  VkImageLayout To, VkAccessFlags SrcAccess,
                  VkAccessFlags DstAccess, VkPipelineStageFlags SrcStage,
                  VkPipelineStageFlags DstStage) {
  VkImageMemoryBarrier B{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  B.srcAccessMask = SrcAccess;
  B.dstAccessMask = DstAccess;
  B.oldLayout = From;
  B.newLayout = To;
  B.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  B.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  B.image = Image;
  B.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(Cmd, SrcStage, DstStage, 0, 0, nullptr, 0, nullptr, 1, &B);
}

VkBufferImageCopy wholeImage(VkDeviceSize Offset, const ImageSpec &S) {
  VkBufferImageCopy R{};
  R.bufferOffset = Offset;
  R.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  R.imageExtent = {S.Width, S.Height, 1};
  return R;
}

/// Storage-buffer sizes are rounded up so that copies and ranges stay simple.
VkDeviceSize roundUp(VkDeviceSize N) { return (N + 15) & ~VkDeviceSize{15}; }

/// The job's module: its words, what it holds, and the entry point to run.
struct ShaderModule {
  std::vector<uint32_t> Words;
  vkrun::SpirvInfo Info;
  std::string Entry;
};

ShaderModule loadShader(const Job &Jb, bool RayTracing) {
  const std::string Name = "'" + Jb.Shader.string() + "'";
  std::vector<uint8_t> Bytes = readFile(Jb.Shader, "SPIR-V module");
  if (Bytes.size() % 4 != 0)
    fail(ExitUsage, Name + " is not a SPIR-V module: size is not a multiple of 4");
  ShaderModule S;
  S.Words.resize(Bytes.size() / 4);
  std::memcpy(S.Words.data(), Bytes.data(), Bytes.size());
  std::string Err;
  if (!vkrun::analyzeSpirv(S.Words, S.Info, Err))
    fail(ExitUsage, Name + ": " + Err);
  const std::vector<std::string> &Entries =
      RayTracing ? S.Info.RayGenerationEntryPoints : S.Info.ComputeEntryPoints;
  const char *Model = RayTracing ? "RayGenerationKHR" : "GLCompute";
  if (Entries.empty())
    fail(ExitUsage, Name + " has no " + Model + " entry point");
  S.Entry = Jb.Entry.empty() ? Entries.front() : Jb.Entry;
  if (std::find(Entries.begin(), Entries.end(), S.Entry) == Entries.end())
    fail(ExitUsage, Name + " has no " + Model + " entry point named '" + S.Entry + "'");
  return S;
}

/// Every descriptor the module's code uses must be in the job: the runner
/// makes set 0 of the job's bindings, and a pipeline whose layout lacks a
/// descriptor its shader uses is invalid.
void checkDescriptors(const Job &Jb, const ShaderModule &S) {
  for (const auto &[SetBinding, Var] : S.Info.Descriptors) {
    const auto [Set, Binding] = SetBinding;
    const std::string What = "'" + Jb.Shader.string() + "' uses " + Var + " at set " +
                             std::to_string(Set) + ", binding " + std::to_string(Binding);
    if (Set != 0)
      fail(ExitUsage, What + "; the runner binds descriptor set 0 only");
    if (std::none_of(Jb.Buffers.begin(), Jb.Buffers.end(),
                     [&](const BufferSpec &B) { return B.Binding == Binding; }))
      fail(ExitUsage, What + ", which the job gives no buffer or image for");
  }
}

/// The features the module needs, and bufferDeviceAddress where the job
/// patches addresses into its buffers.
std::vector<Need> jobNeeds(const Job &Jb, const vkrun::SpirvInfo &Info) {
  bool NeedsAddresses = false;
  for (const BufferSpec &B : Jb.Buffers)
    for (const Element &E : B.Elements)
      NeedsAddresses |= !E.Patches.empty();
  std::vector<Need> Needs = featuresNeeded(Info);
  if (NeedsAddresses &&
      std::none_of(Needs.begin(), Needs.end(),
                   [](const Need &N) { return N.Feature == "bufferDeviceAddress"; }))
    Needs.push_back({"bufferDeviceAddress", "job uses address_of"});
  return Needs;
}

/// Creates the device with what the module needs; refuses (exit 3) a
/// module that needs what the device cannot give, unless --force.
void createDeviceFor(Context &C, const Options &O, const Job &Jb, const ShaderModule &S) {
  const bool GroupOps =
      S.Info.Capabilities.count(static_cast<uint32_t>(spv::Capability::GroupNonUniform)) != 0;
  const std::vector<Need> Missing =
      C.createDevice(jobNeeds(Jb, S.Info), O.NoFloatAtomics, GroupOps, O.ShaderObject,
                     O.RayTracing);
  if (!O.Quiet)
    std::printf("device: %s\n", C.deviceLine().c_str());
  if (!Missing.empty()) {
    std::string Msg;
    for (const Need &N : Missing) {
      const FeatureDesc *D = findFeature(N.Feature);
      bool Disabled = D && D->Field(C.Supported) && O.NoFloatAtomics;
      Msg += "\n  " + N.Feature + " (" + N.Why + "): " +
             (Disabled ? "left disabled by --no-float-atomics"
                       : "not supported by the device");
    }
    if (!O.Force)
      fail(ExitUnsupported,
           "'" + Jb.Shader.string() + "' needs device features it cannot have:" + Msg);
    std::fprintf(stderr, "fatomic-vkrun: warning: running anyway (--force) without:%s\n",
                 Msg.c_str());
  }
  const uint32_t SpirvMinor = (S.Info.Version >> 8) & 0xFF;
  if (SpirvMinor > 5 && C.Props.apiVersion < VK_API_VERSION_1_3)
    fail(ExitUnsupported, "SPIR-V 1." + std::to_string(SpirvMinor) +
                              " needs a Vulkan 1.3 device");
  const VkPhysicalDeviceLimits &L = C.Props.limits;
  for (int I = 0; I < 3; ++I) {
    // A ray tracing launch's size is in invocations.
    const uint64_t Max = uint64_t(L.maxComputeWorkGroupCount[I]) *
                         (O.RayTracing ? L.maxComputeWorkGroupSize[I] : 1);
    if (Jb.Groups[I] == 0 || Jb.Groups[I] > Max)
      fail(ExitUsage, std::string(O.RayTracing ? "launch size " : "workgroup count ") +
                          std::to_string(Jb.Groups[I]) + " in dimension " +
                          std::to_string(I) + " is outside 1.." + std::to_string(Max));
  }
}

/// One element of a buffer (or an image) on the device, and its place in
/// the staging and readback buffers.
struct Slot {
  size_t Buffer, Element;
  VkDeviceSize Offset; ///< in the staging / readback buffers
  std::unique_ptr<vk::Buffer> Gpu;
  std::unique_ptr<GpuImage> Img; ///< instead of Gpu for an image
  VkDeviceSize Size = 0;         ///< bytes copied in and out
};

/// The job's memory: a device buffer (or image) per element, one staging
/// buffer holding every element's initial bytes (device addresses patched
/// in), one readback buffer for every element.
class JobMemory {
public:
  JobMemory(Context &C, Job &Jb) : C(C), Jb(Jb) {
    createSlots();
    stage();
  }

  std::vector<Slot> Slots;
  vk::Buffer Staging, Readback;

  Slot &slotOf(size_t B, size_t E) {
    for (Slot &S : Slots)
      if (S.Buffer == B && S.Element == E)
        return S;
    fail(ExitUsage, "internal: no slot");
  }
  const uint8_t *readback(const Slot &S) const {
    return static_cast<const uint8_t *>(Readback.Mapped) + S.Offset;
  }

private:
  void createSlots();
  void stage();
  uint64_t addressOf(const AddressPatch &P);

  Context &C;
  Job &Jb;
};

void JobMemory::createSlots() {
  const bool BDA = C.Enabled.V12.bufferDeviceAddress == VK_TRUE;
  VkDeviceSize Total = 0;
  for (size_t B = 0; B < Jb.Buffers.size(); ++B)
    for (size_t E = 0; E < Jb.Buffers[B].Elements.size(); ++E) {
      Slot S{B, E, Total, nullptr, nullptr};
      const size_t Bytes = Jb.Buffers[B].Elements[E].Init.size();
      S.Size = roundUp(Bytes);
      if (Jb.Buffers[B].Image) {
        S.Img = std::make_unique<GpuImage>();
        S.Img->create(C, *Jb.Buffers[B].Image);
        Total += S.Size;
        S.Size = Bytes;
      } else {
        S.Gpu = std::make_unique<vk::Buffer>();
        VkBufferUsageFlags Usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT;
        if (BDA)
          Usage |= VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
        S.Gpu->create(C, S.Size, Usage, false, BDA);
        Total += S.Size;
      }
      Slots.push_back(std::move(S));
    }
  if (Total == 0)
    Total = 16;
  Staging.create(C, Total, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true, false);
  Readback.create(C, Total, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true, false);
}

uint64_t JobMemory::addressOf(const AddressPatch &P) {
  const auto It = std::find_if(Jb.Buffers.begin(), Jb.Buffers.end(),
                               [&](const BufferSpec &B) { return B.Name == P.Buffer; });
  if (It == Jb.Buffers.end())
    fail(ExitUsage, "address_of names unknown buffer '" + P.Buffer + "'");
  if (P.Element >= It->Elements.size())
    fail(ExitUsage, "address_of: buffer '" + P.Buffer + "' has no element " +
                        std::to_string(P.Element));
  if (It->Image)
    fail(ExitUsage, "address_of names image '" + P.Buffer + "'");
  VkBufferDeviceAddressInfo AI{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  AI.buffer = slotOf(size_t(It - Jb.Buffers.begin()), P.Element).Gpu->Handle;
  const uint64_t Addr = vkGetBufferDeviceAddress(C.Device, &AI) + P.Add;
  if (Addr == P.Add)
    fail(ExitVulkan, "vkGetBufferDeviceAddress returned 0");
  return Addr;
}

void JobMemory::stage() {
  for (Slot &S : Slots) {
    Element &El = Jb.Buffers[S.Buffer].Elements[S.Element];
    for (const AddressPatch &P : El.Patches) {
      const uint64_t Addr = addressOf(P);
      std::memcpy(&El.Init[P.Offset], &Addr, 8);
    }
    uint8_t *To = static_cast<uint8_t *>(Staging.Mapped) + S.Offset;
    std::memset(To, 0, S.Size);
    std::memcpy(To, El.Init.data(), El.Init.size());
  }
}

/// Descriptor set 0 with every bound buffer and image, and the compute
/// pipeline or, with --shader-object, the compute shader object, or with
/// --ray-tracing the ray tracing pipeline; destroyed with the object.
class JobPipeline {
public:
  JobPipeline(const Context &C, const Options &O, const Job &Jb, JobMemory &Mem,
              const ShaderModule &S)
      : Dev(C.Device) {
    Stages = O.RayTracing ? VK_SHADER_STAGE_RAYGEN_BIT_KHR : VK_SHADER_STAGE_COMPUTE_BIT;
    createLayouts(Jb);
    writeDescriptors(Jb, Mem);
    if (O.RayTracing)
      RayTracing = std::make_unique<vkrun::RayTracingPipeline>(
          C, Layout, S.Words, S.Entry, C.RayTracing.ChainedModules);
    else if (O.ShaderObject)
      createShaderObject(S);
    else
      createPipeline(S);
  }
  JobPipeline(const JobPipeline &) = delete;
  JobPipeline &operator=(const JobPipeline &) = delete;
  ~JobPipeline() {
    RayTracing.reset();
    if (Shader)
      DestroyShader(Dev, Shader, nullptr);
    vkDestroyPipeline(Dev, Pipeline, nullptr);
    vkDestroyShaderModule(Dev, Module, nullptr);
    vkDestroyDescriptorPool(Dev, Pool, nullptr);
    vkDestroyPipelineLayout(Dev, Layout, nullptr);
    vkDestroyDescriptorSetLayout(Dev, SetLayout, nullptr);
  }

  VkPipelineLayout Layout = VK_NULL_HANDLE;
  VkDescriptorSet Set = VK_NULL_HANDLE;
  VkPipeline Pipeline = VK_NULL_HANDLE;
  VkShaderEXT Shader = VK_NULL_HANDLE; ///< instead of Pipeline
  PFN_vkCmdBindShadersEXT BindShaders = nullptr;
  std::unique_ptr<vkrun::RayTracingPipeline> RayTracing; ///< instead of Pipeline
  /// The stages that see the descriptor set.
  VkShaderStageFlags Stages;

private:
  void createLayouts(const Job &Jb);
  void writeDescriptors(const Job &Jb, JobMemory &Mem);
  void createPipeline(const ShaderModule &S);
  void createShaderObject(const ShaderModule &S);

  PFN_vkDestroyShaderEXT DestroyShader = nullptr;

  VkDevice Dev;
  VkDescriptorSetLayout SetLayout = VK_NULL_HANDLE;
  VkDescriptorPool Pool = VK_NULL_HANDLE;
  VkShaderModule Module = VK_NULL_HANDLE;
};

void JobPipeline::createLayouts(const Job &Jb) {
  std::vector<VkDescriptorSetLayoutBinding> LB;
  uint32_t DescCount = 0, ImageCount = 0;
  for (const BufferSpec &B : Jb.Buffers) {
    if (!B.Binding)
      continue;
    VkDescriptorSetLayoutBinding X{};
    X.binding = *B.Binding;
    X.descriptorType = B.Image ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE
                               : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    X.descriptorCount = static_cast<uint32_t>(B.Elements.size());
    X.stageFlags = Stages;
    LB.push_back(X);
    (B.Image ? ImageCount : DescCount) += X.descriptorCount;
  }
  VkDescriptorSetLayoutCreateInfo SLI{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  SLI.bindingCount = static_cast<uint32_t>(LB.size());
  SLI.pBindings = LB.data();
  VK_CHECK(vkCreateDescriptorSetLayout(Dev, &SLI, nullptr, &SetLayout));
  VkPipelineLayoutCreateInfo PLI{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  PLI.setLayoutCount = 1;
  PLI.pSetLayouts = &SetLayout;
  VK_CHECK(vkCreatePipelineLayout(Dev, &PLI, nullptr, &Layout));

  VkDescriptorPoolSize PS[2] = {
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::max<uint32_t>(DescCount, 1)},
      {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, std::max<uint32_t>(ImageCount, 1)}};
  VkDescriptorPoolCreateInfo DPI{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  DPI.maxSets = 1;
  DPI.poolSizeCount = 2;
  DPI.pPoolSizes = PS;
  VK_CHECK(vkCreateDescriptorPool(Dev, &DPI, nullptr, &Pool));
  VkDescriptorSetAllocateInfo DSA{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  DSA.descriptorPool = Pool;
  DSA.descriptorSetCount = 1;
  DSA.pSetLayouts = &SetLayout;
  VK_CHECK(vkAllocateDescriptorSets(Dev, &DSA, &Set));
}

void JobPipeline::writeDescriptors(const Job &Jb, JobMemory &Mem) {
  std::vector<std::vector<VkDescriptorBufferInfo>> Infos;
  std::vector<VkDescriptorImageInfo> ImageInfos;
  std::vector<VkWriteDescriptorSet> Writes;
  // Writes point into these: no reallocation while they are filled.
  Infos.reserve(Jb.Buffers.size());
  ImageInfos.reserve(Jb.Buffers.size());
  for (size_t B = 0; B < Jb.Buffers.size(); ++B) {
    if (!Jb.Buffers[B].Binding)
      continue;
    VkWriteDescriptorSet W{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    W.dstSet = Set;
    W.dstBinding = *Jb.Buffers[B].Binding;
    if (Jb.Buffers[B].Image) {
      ImageInfos.push_back({VK_NULL_HANDLE, Mem.slotOf(B, 0).Img->View, VK_IMAGE_LAYOUT_GENERAL});
      W.descriptorCount = 1;
      W.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
      W.pImageInfo = &ImageInfos.back();
    } else {
      Infos.emplace_back();
      for (size_t E = 0; E < Jb.Buffers[B].Elements.size(); ++E)
        Infos.back().push_back({Mem.slotOf(B, E).Gpu->Handle, 0, VK_WHOLE_SIZE});
      W.descriptorCount = static_cast<uint32_t>(Infos.back().size());
      W.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      W.pBufferInfo = Infos.back().data();
    }
    Writes.push_back(W);
  }
  vkUpdateDescriptorSets(Dev, static_cast<uint32_t>(Writes.size()), Writes.data(), 0, nullptr);
}

void JobPipeline::createPipeline(const ShaderModule &S) {
  VkShaderModuleCreateInfo SMI{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  SMI.codeSize = S.Words.size() * 4;
  SMI.pCode = S.Words.data();
  VK_CHECK(vkCreateShaderModule(Dev, &SMI, nullptr, &Module));
  VkComputePipelineCreateInfo CPI{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  CPI.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  CPI.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  CPI.stage.module = Module;
  CPI.stage.pName = S.Entry.c_str();
  CPI.layout = Layout;
  VK_CHECK(vkCreateComputePipelines(Dev, VK_NULL_HANDLE, 1, &CPI, nullptr, &Pipeline));
}

void JobPipeline::createShaderObject(const ShaderModule &S) {
  auto Create = reinterpret_cast<PFN_vkCreateShadersEXT>(
      vkGetDeviceProcAddr(Dev, "vkCreateShadersEXT"));
  DestroyShader = reinterpret_cast<PFN_vkDestroyShaderEXT>(
      vkGetDeviceProcAddr(Dev, "vkDestroyShaderEXT"));
  BindShaders = reinterpret_cast<PFN_vkCmdBindShadersEXT>(
      vkGetDeviceProcAddr(Dev, "vkCmdBindShadersEXT"));
  if (!Create || !DestroyShader || !BindShaders)
    fail(ExitVulkan, "the device with VK_EXT_shader_object enabled does not give "
                     "vkCreateShadersEXT, vkDestroyShaderEXT and vkCmdBindShadersEXT");
  VkShaderCreateInfoEXT SCI{VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT};
  SCI.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  SCI.codeType = VK_SHADER_CODE_TYPE_SPIRV_EXT;
  SCI.codeSize = S.Words.size() * 4;
  SCI.pCode = S.Words.data();
  SCI.pName = S.Entry.c_str();
  SCI.setLayoutCount = 1;
  SCI.pSetLayouts = &SetLayout;
  VK_CHECK(Create(Dev, 1, &SCI, nullptr, &Shader));
}

/// Copies each element's initial bytes from the staging buffer into its
/// buffer or image (which ends in the GENERAL layout for \p Shader).
void recordUploads(VkCommandBuffer Cmd, const Job &Jb, const JobMemory &Mem,
                   VkPipelineStageFlags Shader) {
  for (const Slot &S : Mem.Slots) {
    if (!S.Img) {
      VkBufferCopy Cp{S.Offset, 0, S.Gpu->Size};
      vkCmdCopyBuffer(Cmd, Mem.Staging.Handle, S.Gpu->Handle, 1, &Cp);
      continue;
    }
    imageBarrier(Cmd, S.Img->Image, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    const VkBufferImageCopy Cp = wholeImage(S.Offset, *Jb.Buffers[S.Buffer].Image);
    vkCmdCopyBufferToImage(Cmd, Mem.Staging.Handle, S.Img->Image,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &Cp);
    imageBarrier(Cmd, S.Img->Image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 VK_IMAGE_LAYOUT_GENERAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                 VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT, Shader);
  }
}

/// Copies every element with an output into the readback buffer, after the
/// writes of \p Shader.
void recordDownloads(VkCommandBuffer Cmd, const Job &Jb, const JobMemory &Mem,
                     VkPipelineStageFlags Shader) {
  for (const Slot &S : Mem.Slots) {
    if (Jb.Buffers[S.Buffer].Elements[S.Element].Output.empty())
      continue;
    if (!S.Img) {
      VkBufferCopy Cp{0, S.Offset, S.Gpu->Size};
      vkCmdCopyBuffer(Cmd, S.Gpu->Handle, Mem.Readback.Handle, 1, &Cp);
      continue;
    }
    imageBarrier(Cmd, S.Img->Image, VK_IMAGE_LAYOUT_GENERAL,
                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_SHADER_WRITE_BIT,
                 VK_ACCESS_TRANSFER_READ_BIT, Shader, VK_PIPELINE_STAGE_TRANSFER_BIT);
    const VkBufferImageCopy Cp = wholeImage(S.Offset, *Jb.Buffers[S.Buffer].Image);
    vkCmdCopyImageToBuffer(Cmd, S.Img->Image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           Mem.Readback.Handle, 1, &Cp);
  }
}

/// One command buffer that re-initialises the memory, times the dispatch
/// and reads the outputs back, submitted once per run.
class Submission {
public:
  Submission(Context &C) : C(C), Dev(C.Device) {
    VkCommandPoolCreateInfo CPCI{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    CPCI.queueFamilyIndex = C.QueueFamily;
    VK_CHECK(vkCreateCommandPool(Dev, &CPCI, nullptr, &CmdPool));
    VkCommandBufferAllocateInfo CBA{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    CBA.commandPool = CmdPool;
    CBA.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    CBA.commandBufferCount = 1;
    VK_CHECK(vkAllocateCommandBuffers(Dev, &CBA, &Cmd));
    Queries = C.createTimestampPool();
    VkFenceCreateInfo FI{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VK_CHECK(vkCreateFence(Dev, &FI, nullptr, &Fence));
  }
  Submission(const Submission &) = delete;
  Submission &operator=(const Submission &) = delete;
  ~Submission() {
    vkDestroyFence(Dev, Fence, nullptr);
    if (Queries)
      vkDestroyQueryPool(Dev, Queries, nullptr);
    vkDestroyCommandPool(Dev, CmdPool, nullptr);
  }

  void record(const Job &Jb, const JobMemory &Mem, const JobPipeline &P) {
    VkCommandBufferBeginInfo BeginI{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VK_CHECK(vkBeginCommandBuffer(Cmd, &BeginI));
    if (Queries)
      vkCmdResetQueryPool(Cmd, Queries, 0, 2);
    const VkPipelineStageFlags Shader = P.RayTracing
                                            ? VK_PIPELINE_STAGE_RAY_TRACING_SHADER_BIT_KHR
                                            : VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    recordUploads(Cmd, Jb, Mem, Shader);
    if (P.Shader) {
      const VkShaderStageFlagBits Stage = VK_SHADER_STAGE_COMPUTE_BIT;
      P.BindShaders(Cmd, 1, &Stage, &P.Shader);
    }
    if (P.RayTracing)
      P.RayTracing->recordTimedTrace(Cmd, P.Layout, P.Set, Queries, Jb.Groups[0],
                                     Jb.Groups[1], Jb.Groups[2]);
    else
      vk::recordTimedDispatch(Cmd, P.Pipeline, P.Layout, P.Set, Queries, Jb.Groups[0],
                              Jb.Groups[1], Jb.Groups[2]);
    recordDownloads(Cmd, Jb, Mem, Shader);
    vk::recordHostReadBarrier(Cmd);
    VK_CHECK(vkEndCommandBuffer(Cmd));
  }

  /// Submits and waits; the dispatch's GPU time when the queue has
  /// timestamps.  A run past \p TimeoutS ends the process (exit 2).
  std::optional<double> run(uint32_t Run, uint32_t TimeoutS) {
    VkSubmitInfo SI{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    SI.commandBufferCount = 1;
    SI.pCommandBuffers = &Cmd;
    VK_CHECK(vkQueueSubmit(C.Queue, 1, &SI, Fence));
    const VkResult W = vkWaitForFences(Dev, 1, &Fence, VK_TRUE, TimeoutS * 1000000000ull);
    if (W == VK_TIMEOUT) {
      // The device is still busy: tearing it down could block as well.
      std::fflush(stdout);
      std::fprintf(stderr,
                   "fatomic-vkrun: error: run %u: the dispatch did not finish within %u s\n",
                   Run, TimeoutS);
      std::_Exit(ExitVulkan);
    }
    check(W, "vkWaitForFences");
    VK_CHECK(vkResetFences(Dev, 1, &Fence));
    if (!Queries)
      return std::nullopt;
    return C.elapsedMs(Queries);
  }

private:
  Context &C;
  VkDevice Dev;
  VkCommandPool CmdPool = VK_NULL_HANDLE;
  VkCommandBuffer Cmd = VK_NULL_HANDLE;
  VkQueryPool Queries = VK_NULL_HANDLE;
  VkFence Fence = VK_NULL_HANDLE;
};

/// --check-identical: each run's outputs against the first run's.  Outputs
/// marked "check_identical": false are only counted.
class IdenticalCheck {
public:
  void compare(uint32_t Run, const Job &Jb, const JobMemory &Mem) {
    std::vector<uint8_t> Now, NowOther;
    for (const Slot &S : Mem.Slots) {
      const Element &El = Jb.Buffers[S.Buffer].Elements[S.Element];
      if (El.Output.empty())
        continue;
      std::vector<uint8_t> &To = El.CompareRuns ? Now : NowOther;
      To.insert(To.end(), Mem.readback(S), Mem.readback(S) + El.Init.size());
    }
    if (Run == 1) {
      First = std::move(Now);
      FirstOther = std::move(NowOther);
      return;
    }
    OtherDiffer += NowOther != FirstOther;
    if (Now != First) {
      size_t At = 0;
      while (At < Now.size() && Now[At] == First[At])
        ++At;
      std::printf("run %u: outputs differ from run 1 (first difference at byte %zu of the "
                  "concatenated outputs)\n",
                  Run, At);
      Status = ExitNotIdentical;
    }
  }

  void print(uint32_t Runs) const {
    std::printf("outputs %s across %u runs\n",
                Status == ExitOk ? "identical" : "NOT identical", Runs);
    if (!FirstOther.empty())
      std::printf("outputs not compared (check_identical false) differed from run 1 in %u of "
                  "%u runs\n",
                  OtherDiffer, Runs - 1);
  }

  int Status = ExitOk;

private:
  std::vector<uint8_t> First, FirstOther;
  unsigned OtherDiffer = 0; ///< runs whose uncompared outputs differ from run 1
};

/// Writes the outputs of the run just made, each at its path with
/// \p Suffix appended (--outputs-each-run: ".run1", ...; the last run's
/// without one); relative paths resolve against --out-dir or the job
/// file's directory.
/// Every output's directory is checked before the first is written, so that
/// a job with an output in a missing directory writes none.
void writeOutputs(const Options &O, const Job &Jb, const JobMemory &Mem,
                  const std::string &Suffix = "") {
  const fs::path OutBase = O.OutDir ? *O.OutDir : O.JobPath.parent_path();
  std::vector<std::pair<fs::path, const Slot *>> Outputs;
  for (const Slot &S : Mem.Slots) {
    const Element &El = Jb.Buffers[S.Buffer].Elements[S.Element];
    if (El.Output.empty())
      continue;
    fs::path P = El.Output;
    if (P.is_relative())
      P = OutBase / P;
    P += Suffix;
    std::error_code EC;
    const fs::path Dir = P.parent_path().empty() ? fs::path(".") : P.parent_path();
    if (!fs::is_directory(Dir, EC))
      fail(ExitUsage, "output file '" + P.string() + "': no directory '" + Dir.string() +
                          "'; no output written");
    if (fs::is_directory(P, EC))
      fail(ExitUsage, "output file '" + P.string() + "' is a directory; no output written");
    Outputs.emplace_back(P, &S);
  }
  for (const auto &[P, S] : Outputs)
    writeFile(P, Mem.readback(*S), Jb.Buffers[S->Buffer].Elements[S->Element].Init.size());
}

void printTimes(std::vector<double> Ms) {
  if (Ms.empty()) {
    std::printf("gpu ms: n/a (no timestamps on this queue)\n");
    return;
  }
  std::sort(Ms.begin(), Ms.end());
  double Sum = 0;
  for (double X : Ms)
    Sum += X;
  if (Ms.size() == 1)
    std::printf("gpu ms: %.4f\n", Ms[0]);
  else
    std::printf("gpu ms over %zu runs: min %.4f median %.4f mean %.4f max %.4f\n", Ms.size(),
                Ms.front(), Ms[Ms.size() / 2], Sum / Ms.size(), Ms.back());
}

int runJob(Context &C, const Options &O) {
  Job Jb = loadJob(O.JobPath);
  if (O.ShaderOverride)
    Jb.Shader = *O.ShaderOverride;
  if (O.GroupsOverride)
    for (size_t I = 0; I < 3; ++I)
      Jb.Groups[I] = I < O.GroupsOverride->size() ? (*O.GroupsOverride)[I] : 1;
  if (Jb.Shader.empty())
    fail(ExitUsage, "no shader: give 'shader' in the job or --shader");

  const ShaderModule Shader = loadShader(Jb, O.RayTracing);
  checkDescriptors(Jb, Shader);
  createDeviceFor(C, O, Jb, Shader);
  JobMemory Mem(C, Jb);
  const JobPipeline Pipeline(C, O, Jb, Mem, Shader);
  if (Pipeline.RayTracing)
    std::printf("ray tracing pipeline: %s\n", Pipeline.RayTracing->How.c_str());
  Submission Sub(C);
  Sub.record(Jb, Mem, Pipeline);

  std::vector<double> GpuMs;
  IdenticalCheck Check;
  for (uint32_t Run = 1; Run <= O.Repeat; ++Run) {
    if (const std::optional<double> Ms = Sub.run(Run, O.TimeoutS)) {
      GpuMs.push_back(*Ms);
      if (O.Repeat > 1 && !O.Quiet)
        std::printf("run %u: gpu %.4f ms\n", Run, *Ms);
    }
    if (O.CheckIdentical)
      Check.compare(Run, Jb, Mem);
    if (O.OutputsEachRun && Run < O.Repeat)
      writeOutputs(O, Jb, Mem, ".run" + std::to_string(Run));
  }
  writeOutputs(O, Jb, Mem);
  printTimes(GpuMs);
  if (O.CheckIdentical)
    Check.print(O.Repeat);
  return Check.Status;
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

const char *Usage =
    "usage: fatomic-vkrun [options] JOB.json\n"
    "       fatomic-vkrun --features [--no-float-atomics] [--device N]\n"
    "       fatomic-vkrun --list-devices\n"
    "\n"
    "options:\n"
    "  --features           print the device and its float-atomic, int64-atomic\n"
    "                       and related features, then exit\n"
    "  --list-devices       list the Vulkan devices, then exit\n"
    "  --device N           use device N (default: the first discrete GPU, else\n"
    "                       integrated, virtual, CPU)\n"
    "  --no-float-atomics   create the device without VK_EXT_shader_atomic_float\n"
    "                       and VK_EXT_shader_atomic_float2\n"
    "  --force              run even if the module needs features the device\n"
    "                       does not give (the driver may then do anything)\n"
    "  --shader FILE        use this module instead of the job's 'shader'\n"
    "  --shader-object      run it as a compute shader object (VK_EXT_shader_object)\n"
    "                       instead of a compute pipeline; exit 3 without one\n"
    "  --ray-tracing        run its ray generation entry point as the one shader of a\n"
    "                       ray tracing pipeline (VK_KHR_ray_tracing_pipeline; the\n"
    "                       module chained into the stage where the device allows\n"
    "                       it, a deferred operation), launched over \"groups\" read\n"
    "                       as invocations; prints how the pipeline was made; exit 3\n"
    "                       without ray tracing pipelines\n"
    "  --groups X[,Y[,Z]]   override the job's workgroup counts\n"
    "  --out-dir DIR        resolve relative output paths against DIR (default:\n"
    "                       the job file's directory)\n"
    "  --repeat N           run N times (buffers re-initialised before each);\n"
    "                       prints the GPU time of each dispatch\n"
    "  --check-identical    with --repeat: exit 4 unless every run's outputs are\n"
    "                       bit-identical to the first run's (outputs marked\n"
    "                       \"check_identical\": false are left out)\n"
    "  --outputs-each-run   with --repeat: also write each run's outputs but the\n"
    "                       last's, at their paths with .run1, .run2, ... appended\n"
    "                       (the last run's at the paths themselves)\n"
    "  --timeout S          give up (exit 2) when one run takes longer than S\n"
    "                       seconds (default 600)\n"
    "  -q, --quiet          do not print the device line\n"
    "\n"
    "job file (JSON):\n"
    "  { \"shader\": \"x.spv\", \"entry\": \"main\", \"groups\": [x, y, z],\n"
    "    \"buffers\": [\n"
    "      { \"name\": \"a\", \"binding\": 0, \"size\": 64,\n"
    "        \"init\": {\"file\": \"a.bin\"} | {\"hex\": \"00ff..\"} | {\"u32\": [..]}\n"
    "                | {\"i32\"|\"u64\"|\"i64\"|\"f32\"|\"f64\": [..]} | {\"fill_u32\": n},\n"
    "        \"output\": \"a.out\",\n"
    "        \"address_of\": [{\"offset\": 0, \"buffer\": \"b\", \"element\": 0}],\n"
    "        \"check_identical\": true },\n"
    "      { \"name\": \"arr\", \"binding\": 1, \"elements\": [ {size, init, output}, .. ] },\n"
    "      { \"name\": \"b\", \"size\": 256, \"output\": \"b.out\" } ] }\n"
    "  Buffers without a binding are reachable only through address_of.\n"
    "  Relative paths are relative to the job file's directory.\n"
    "\n"
    "exit status: 0 ok, 1 usage/job/file error, 2 no device or Vulkan error,\n"
    "  3 module needs a missing feature (or --shader-object / --ray-tracing\n"
    "  without shader objects / ray tracing pipelines), 4 runs not identical\n";

uint32_t parseCount(const std::string &S, const char *Flag) {
  try {
    size_t Pos = 0;
    unsigned long V = std::stoul(S, &Pos, 0);
    if (Pos != S.size() || V > 0xFFFFFFFFul)
      throw std::invalid_argument(S);
    return static_cast<uint32_t>(V);
  } catch (const std::exception &) {
    fail(ExitUsage, std::string(Flag) + ": bad number '" + S + "'");
  }
}

Options parseArgs(int Argc, char **Argv) {
  Options O;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&]() -> std::string {
      if (I + 1 >= Argc)
        fail(ExitUsage, A + " needs a value");
      return Argv[++I];
    };
    if (A == "-h" || A == "--help") {
      std::fputs(Usage, stdout);
      std::exit(0);
    } else if (A == "--features") {
      O.Features = true;
    } else if (A == "--list-devices") {
      O.ListDevices = true;
    } else if (A == "--no-float-atomics") {
      O.NoFloatAtomics = true;
    } else if (A == "--force") {
      O.Force = true;
    } else if (A == "--check-identical") {
      O.CheckIdentical = true;
    } else if (A == "--shader-object") {
      O.ShaderObject = true;
    } else if (A == "--ray-tracing") {
      O.RayTracing = true;
    } else if (A == "--outputs-each-run") {
      O.OutputsEachRun = true;
    } else if (A == "-q" || A == "--quiet") {
      O.Quiet = true;
    } else if (A == "--device") {
      O.DeviceIndex = parseCount(Value(), "--device");
    } else if (A == "--repeat") {
      O.Repeat = parseCount(Value(), "--repeat");
      if (O.Repeat == 0)
        fail(ExitUsage, "--repeat must be at least 1");
    } else if (A == "--timeout") {
      O.TimeoutS = parseCount(Value(), "--timeout");
      if (O.TimeoutS == 0)
        fail(ExitUsage, "--timeout must be at least 1");
    } else if (A == "--shader") {
      O.ShaderOverride = fs::path(Value());
    } else if (A == "--out-dir") {
      O.OutDir = fs::path(Value());
    } else if (A == "--groups") {
      std::vector<uint32_t> G;
      std::stringstream SS(Value());
      std::string Part;
      while (std::getline(SS, Part, ','))
        G.push_back(parseCount(Part, "--groups"));
      if (G.empty() || G.size() > 3)
        fail(ExitUsage, "--groups takes 1 to 3 comma-separated counts");
      O.GroupsOverride = G;
    } else if (!A.empty() && A[0] == '-') {
      fail(ExitUsage, "unknown option '" + A + "' (see --help)");
    } else if (O.JobPath.empty()) {
      O.JobPath = A;
    } else {
      fail(ExitUsage, "more than one job file given");
    }
  }
  if (!O.Features && !O.ListDevices && O.JobPath.empty())
    fail(ExitUsage, "no job file given (see --help)");
  if (O.ShaderObject && O.RayTracing)
    fail(ExitUsage, "--shader-object and --ray-tracing exclude each other");
  if (O.CheckIdentical && O.Repeat < 2)
    fail(ExitUsage, "--check-identical needs --repeat N with N >= 2");
  if (O.OutputsEachRun && O.Repeat < 2)
    fail(ExitUsage, "--outputs-each-run needs --repeat N with N >= 2");
  return O;
}

} // namespace

int main(int Argc, char **Argv) {
  try {
    Options O = parseArgs(Argc, Argv);
    Context C;
    C.createInstance("fatomic-vkrun");
    if (O.ListDevices) {
      C.listDevices();
      return ExitOk;
    }
    C.pickDevice(O.DeviceIndex);
    C.queryFeatures();
    if (O.Features) {
      C.printFeatures(O.NoFloatAtomics);
      return ExitOk;
    }
    return runJob(C, O);
  } catch (const Failure &F) {
    std::fflush(stdout);
    std::fprintf(stderr, "fatomic-vkrun: error: %s\n", F.what());
    return F.Code;
  } catch (const std::exception &E) {
    std::fflush(stdout);
    std::fprintf(stderr, "fatomic-vkrun: error: %s\n", E.what());
    return ExitUsage;
  }
}
