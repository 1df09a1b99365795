//===- fatomic-gpubench.cpp - Float atomic max benchmark on a Vulkan device ===//
//
//   fatomic-gpubench [--device N] PLAN.json RESULTS.jsonl
//   fatomic-gpubench --list-devices
//
// Runs the tasks of a benchmark plan (written by gpubench.py) on one Vulkan
// device created once: each task is one shader variant on one cell of the
// matrix (width, result used or not, number of addresses, random or rising
// values).  Every run of a task dispatches invocations x iters float atomic
// max operations between two GPU timestamps, after the destination buffer
// has been reset to -inf; the final memory of EVERY run is then compared bit
// for bit with fatomic's reference model (fatomic/Reference.h) before the
// run's time counts.  The data and the addresses are generated here, with
// exactly the arithmetic of the shaders (tools/gpubench/variants.py).
//
// A plan with "record": true (tasks whose result is used) runs, instead,
// each task's module once with the specialization constant RECORD
// (constant_id 0) set, which makes every operation store what it returned
// (binding 3, rets[i * iters + k]): that run's memory is checked as above,
// and the returned values must be linearizable with the operands and that
// memory (MaxHistory.h).  Timed plans leave RECORD false, where the store
// is dead code.  The two kinds of plan are separate so that the host's
// check of 2^26 returned values, a second or more with the GPU idle, does
// not come between the tasks that are timed (an idle GPU lowers its clocks).
//
// Results are appended to RESULTS.jsonl, one JSON object per line and
// flushed at once, so that a caller can restart the plan after a crash or a
// timeout:
//   {"event":"device", ...}               the device and driver
//   {"event":"start", "task":I}           task I begins
//   {"event":"result", "task":I, "status":"ok"|"wrong"|"unsupported"|"error",
//    "ms":[...], "warmup_ms":[...], "median_ms":M, "wrong_runs":R,
//    "wrong_addrs":A, "settle_runs":S, "message":"...", "shader_stats":{...}}
//   {"event":"result", "task":I, "status":..., "returned_checked":N,
//    "returned_wrong_addrs":W, "message":"..."}
//                                         a recording plan's result: N
//                                         operations checked, W addresses
//                                         not linearizable
//                                         shader_stats: the driver's statistics
//                                         of the compiled pipeline (NVIDIA:
//                                         "Register Count", ...), empty where
//                                         the device has no
//                                         VK_KHR_pipeline_executable_properties
//   {"event":"timeout", "task":I, "run":R} a dispatch exceeded timeout_s;
//                                         the tool exits 2 right after it
// Progress goes to stderr.
//
// Exit status: 0 every task ran (whatever its status), 1 usage or plan
// error, 2 no usable device, a Vulkan failure, or a dispatch timeout.
//
//===----------------------------------------------------------------------===//

#include "MaxHistory.h"
#include "Parallel.h"
#include "SpirvInfo.h"
#include "VulkanContext.h"

#include "fatomic/OrderMap.h"
#include "fatomic/Reference.h"

#include <nlohmann/json.hpp>
#include <vulkan/vulkan.h>

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using json = nlohmann::json;

namespace {

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

using fatomic::vk::ExitOk;
using fatomic::vk::ExitUsage;
using fatomic::vk::ExitVulkan;
using fatomic::vk::Failure;
using fatomic::vk::check;
using fatomic::vk::deviceTypeName;
using fatomic::vk::fail;
using Buffer = fatomic::vk::Buffer;

//===----------------------------------------------------------------------===//
// The plan
//===----------------------------------------------------------------------===//

struct Variant {
  std::string Name;
  bool Encoded = false; ///< memory holds U(x) rather than the float bits
  std::map<std::string, std::string> Modules; ///< "f32-used" -> .spv path
};

struct Task {
  unsigned Width = 32;
  bool Used = false;
  bool Rising = false;
  uint32_t Addrs = 1;
  std::string VariantName;
  uint64_t Id = 0; ///< echoed in the results (default: the task's index)
};

struct Plan {
  uint32_t Invocations = 0;
  uint32_t Iters = 0;
  uint32_t LocalSize = 256;
  uint32_t NumVals = 0;
  uint64_t Seed = 1;
  uint32_t Warmup = 1;
  /// Before a task's runs, unchecked runs back to back for this long, so
  /// that every task starts at the clocks of a busy GPU (0: none).
  uint32_t SettleMs = 0;
  uint32_t Repeat = 5;
  uint32_t TimeoutS = 60;
  /// One untimed recording run per task, its returned values checked.
  bool Record = false;
  uint64_t TotalTasks = 0; ///< for progress lines (default: the plan's tasks)
  std::map<std::string, Variant> Variants;
  std::vector<Task> Tasks;
};

std::string moduleKey(unsigned Width, bool Used) {
  return "f" + std::to_string(Width) + (Used ? "-used" : "-unused");
}

Plan loadPlan(const std::string &Path) {
  std::ifstream In(Path);
  if (!In)
    fail(ExitUsage, "cannot open plan '" + Path + "'");
  Plan P;
  try {
    json J = json::parse(In);
    P.Invocations = J.at("invocations").get<uint32_t>();
    P.Iters = J.at("iters").get<uint32_t>();
    P.LocalSize = J.value("local_size", 256u);
    P.NumVals = J.value("vals", P.Invocations);
    P.Seed = J.value("seed", uint64_t{1});
    P.Warmup = J.value("warmup", 1u);
    P.SettleMs = J.value("settle_ms", 0u);
    P.Repeat = J.value("repeat", 5u);
    P.TimeoutS = J.value("timeout_s", 60u);
    P.Record = J.value("record", false);
    for (const auto &[Name, V] : J.at("variants").items()) {
      Variant Var;
      Var.Name = Name;
      const std::string Mem = V.value("memory", std::string("ieee"));
      if (Mem != "ieee" && Mem != "encoded")
        fail(ExitUsage, "variant '" + Name + "': memory must be ieee or encoded");
      Var.Encoded = Mem == "encoded";
      for (const auto &[Key, File] : V.at("spv").items())
        Var.Modules[Key] = File.get<std::string>();
      P.Variants[Name] = Var;
    }
    for (const json &T : J.at("tasks")) {
      Task Tk;
      Tk.Width = T.at("width").get<unsigned>();
      Tk.Used = T.at("used").get<bool>();
      const std::string Values = T.at("values").get<std::string>();
      if (Values != "random" && Values != "rising")
        fail(ExitUsage, "task values must be random or rising, not '" + Values +
                            "'");
      Tk.Rising = Values == "rising";
      Tk.Addrs = T.at("addrs").get<uint32_t>();
      Tk.VariantName = T.at("variant").get<std::string>();
      Tk.Id = T.value("id", uint64_t{P.Tasks.size()});
      if (Tk.Width != 32 && Tk.Width != 64)
        fail(ExitUsage, "task width must be 32 or 64");
      if (Tk.Addrs == 0 || (Tk.Addrs & (Tk.Addrs - 1)) != 0)
        fail(ExitUsage, "task addrs must be a power of two");
      if (!P.Variants.count(Tk.VariantName))
        fail(ExitUsage, "task names unknown variant '" + Tk.VariantName + "'");
      if (P.Record && !Tk.Used)
        fail(ExitUsage, "a recording plan's tasks must use their result");
      P.Tasks.push_back(Tk);
    }
    P.TotalTasks = J.value("total_tasks", uint64_t{P.Tasks.size()});
  } catch (const json::exception &E) {
    fail(ExitUsage, "plan '" + Path + "': " + E.what());
  }
  if (P.LocalSize == 0 || P.Invocations == 0 ||
      P.Invocations % P.LocalSize != 0)
    fail(ExitUsage, "plan: invocations must be a positive multiple of "
                    "local_size");
  if (P.Iters == 0 || P.NumVals == 0 || P.Repeat == 0 || P.TimeoutS == 0)
    fail(ExitUsage, "plan: iters, vals, repeat and timeout_s must be positive");
  // The shaders index the recorded values by the 32-bit i * iters + k.
  if (P.Record && uint64_t{P.Invocations} * P.Iters > (uint64_t{1} << 32))
    fail(ExitUsage, "plan: a recording plan needs invocations x iters <= 2^32");
  return P;
}

//===----------------------------------------------------------------------===//
// Data and the reference
//===----------------------------------------------------------------------===//

uint64_t splitmix64(uint64_t &State) {
  uint64_t Z = (State += 0x9E3779B97F4A7C15ull);
  Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ull;
  Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBull;
  return Z ^ (Z >> 31);
}

/// The values: both signs, magnitudes in [1, 2048) with a random exponent
/// and mantissa.  No zeros, NaNs or subnormals, so every variant (the CAS
/// loops compare floats) has one exact answer; |v| < 2048 keeps the rising
/// pattern (v + 4096 k) strictly increasing in k.
std::vector<uint64_t> makeValues(unsigned Width, uint32_t Count, uint64_t Seed) {
  uint64_t State = Seed * 0x100000001B3ull + Width;
  std::vector<uint64_t> V(Count);
  const unsigned Mant = fatomic::mantissaBits(Width);
  const uint64_t Bias = Width == 32 ? 127 : 1023;
  for (uint64_t &X : V) {
    const uint64_t R = splitmix64(State);
    const uint64_t Sign = R >> 63;
    const uint64_t Exp = Bias + (R >> 40) % 11; // 2^0 .. 2^10
    const uint64_t M = splitmix64(State) & fatomic::widthMask(Mant);
    X = (Sign << (Width - 1)) | (Exp << Mant) | M;
  }
  return V;
}

uint64_t negativeInfinity(unsigned Width) {
  return Width == 32 ? 0xFF800000ull : 0xFFF0000000000000ull;
}

/// The operand of iteration \p K of invocation \p I, as the shaders compute
/// it: vals[(i + k * 977) % n] + (adv ? k * 4096 : 0) in the value's width.
template <typename F, typename B>
uint64_t operandBits(const std::vector<uint64_t> &Vals, uint32_t I, uint32_t K,
                     bool Rising) {
  const uint32_t Index = (I + K * 977u) % static_cast<uint32_t>(Vals.size());
  const B Raw = static_cast<B>(Vals[Index]);
  F X;
  std::memcpy(&X, &Raw, sizeof X);
  const F Add = Rising ? static_cast<F>(K) * static_cast<F>(4096) : F(0);
  const F V = X + Add;
  B Out;
  std::memcpy(&Out, &V, sizeof Out);
  return Out;
}

uint32_t addressOf(uint32_t I, uint32_t K, uint32_t Mask) {
  const uint32_t J = I * 2654435761u + K * 40503u;
  return (J >> 7) & Mask;
}

/// The final memory after every operation of the dispatch, from the
/// reference model.  The result does not depend on the order of the
/// operations (Reference.h), so invocation ranges are reduced in parallel
/// and the partial memories then combined with the same model.
std::vector<uint64_t> referenceMemory(const Plan &P, unsigned Width,
                                      bool Rising, uint32_t Addrs,
                                      const std::vector<uint64_t> &Vals) {
  using fatomic::FloatOp;
  using fatomic::NanPolicy;
  const uint64_t Init = negativeInfinity(Width);
  const unsigned Threads = std::min<unsigned>(gpubench::hostThreads(), P.Invocations);
  std::vector<std::vector<uint64_t>> Part(Threads,
                                          std::vector<uint64_t>(Addrs, Init));
  auto Work = [&](unsigned T, uint64_t Begin, uint64_t End) {
    std::vector<uint64_t> &Mem = Part[T];
    for (uint32_t I = static_cast<uint32_t>(Begin); I < End; ++I)
      for (uint32_t K = 0; K < P.Iters; ++K) {
        const uint64_t V =
            Width == 32 ? operandBits<float, uint32_t>(Vals, I, K, Rising)
                        : operandBits<double, uint64_t>(Vals, I, K, Rising);
        uint64_t &M = Mem[addressOf(I, K, Addrs - 1)];
        M = fatomic::referenceApply(FloatOp::Max, Width, NanPolicy::Number, M,
                                    V)
                .Memory;
      }
  };
  gpubench::parallelParts(Threads, P.Invocations, Work);
  std::vector<uint64_t> Mem = std::move(Part[0]);
  for (unsigned T = 1; T < Threads; ++T)
    for (uint32_t A = 0; A < Addrs; ++A)
      Mem[A] = fatomic::referenceApply(FloatOp::Max, Width, NanPolicy::Number,
                                       Mem[A], Part[T][A])
                   .Memory;
  return Mem;
}

//===----------------------------------------------------------------------===//
// Vulkan
//===----------------------------------------------------------------------===//

/// The device features a module may need; the device is created with each
/// of them that it supports.
struct Features {
  bool Int64 = false, Float64 = false, BufferInt64Atomics = false,
       MemoryModel = false, MemoryModelDeviceScope = false,
       SubgroupExtendedTypes = false;
};

class Gpu : public fatomic::vk::Context {
public:
  Features Supported;
  /// VK_KHR_pipeline_executable_properties: the driver's statistics of each
  /// compiled pipeline (on NVIDIA, its register count among them).
  bool HasStatistics = false;

  /// Picks the device and records which of Features it supports.
  void pickDevice(std::optional<uint32_t> Index) {
    fatomic::vk::Context::pickDevice(Index);
    VkPhysicalDeviceVulkan12Features V12{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 F2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    F2.pNext = &V12;
    vkGetPhysicalDeviceFeatures2(Phys, &F2);
    Supported.Int64 = F2.features.shaderInt64;
    Supported.Float64 = F2.features.shaderFloat64;
    Supported.BufferInt64Atomics = V12.shaderBufferInt64Atomics;
    Supported.MemoryModel = V12.vulkanMemoryModel;
    Supported.MemoryModelDeviceScope = V12.vulkanMemoryModelDeviceScope;
    Supported.SubgroupExtendedTypes = V12.shaderSubgroupExtendedTypes;
    HasStatistics = hasExecutableStatistics();
  }

  /// The device with every supported feature of Features enabled.
  void createDevice() {
    VkPhysicalDeviceVulkan12Features V12{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    V12.shaderBufferInt64Atomics = Supported.BufferInt64Atomics;
    V12.vulkanMemoryModel = Supported.MemoryModel;
    V12.vulkanMemoryModelDeviceScope = Supported.MemoryModelDeviceScope;
    // 64-bit subgroup operations: the aggregated f64 variants.
    V12.shaderSubgroupExtendedTypes = Supported.SubgroupExtendedTypes;
    VkPhysicalDeviceFeatures2 F2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    F2.pNext = &V12;
    F2.features.shaderInt64 = Supported.Int64;
    F2.features.shaderFloat64 = Supported.Float64;
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR Exe{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    std::vector<const char *> Extensions;
    if (HasStatistics) {
      Exe.pipelineExecutableInfo = VK_TRUE;
      V12.pNext = &Exe;
      Extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    }
    fatomic::vk::Context::createDevice(&F2, Extensions);
  }

  /// The statistics of \p Pipeline's first executable, by name; empty where
  /// the device gives none.
  json statistics(VkPipeline Pipeline) const {
    json Stats = json::object();
    if (!HasStatistics)
      return Stats;
    auto GetStats = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
        vkGetDeviceProcAddr(Device, "vkGetPipelineExecutableStatisticsKHR"));
    if (!GetStats)
      return Stats;
    VkPipelineExecutableInfoKHR Info{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    Info.pipeline = Pipeline;
    Info.executableIndex = 0;
    uint32_t Count = 0;
    if (GetStats(Device, &Info, &Count, nullptr) != VK_SUCCESS)
      return Stats;
    std::vector<VkPipelineExecutableStatisticKHR> List(
        Count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    if (GetStats(Device, &Info, &Count, List.data()) != VK_SUCCESS)
      return Stats;
    for (const VkPipelineExecutableStatisticKHR &S : List) {
      switch (S.format) {
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
        Stats[S.name] = S.value.b32 != VK_FALSE;
        break;
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
        Stats[S.name] = S.value.i64;
        break;
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
        Stats[S.name] = S.value.u64;
        break;
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
        Stats[S.name] = S.value.f64;
        break;
      default:
        break;
      }
    }
    return Stats;
  }

private:
  bool hasExecutableStatistics() const {
    uint32_t Count = 0;
    vkEnumerateDeviceExtensionProperties(Phys, nullptr, &Count, nullptr);
    std::vector<VkExtensionProperties> Ext(Count);
    vkEnumerateDeviceExtensionProperties(Phys, nullptr, &Count, Ext.data());
    bool Listed = false;
    for (const VkExtensionProperties &E : Ext)
      Listed |= std::strcmp(E.extensionName,
                            VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME) == 0;
    if (!Listed)
      return false;
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR Exe{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    VkPhysicalDeviceFeatures2 F2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    F2.pNext = &Exe;
    vkGetPhysicalDeviceFeatures2(Phys, &F2);
    return Exe.pipelineExecutableInfo;
  }
};

/// What a module needs that the device does not give; empty when it runs.
std::string missingFeatures(const vkrun::SpirvInfo &Info, const Features &F) {
  std::string Missing;
  auto Need = [&](bool Have, const char *Name) {
    if (!Have)
      Missing += std::string(Missing.empty() ? "" : ", ") + Name;
  };
  auto Has = [&](spv::Capability C) {
    return Info.Capabilities.count(static_cast<uint32_t>(C)) != 0;
  };
  if (Has(spv::Capability::Int64))
    Need(F.Int64, "shaderInt64");
  if (Has(spv::Capability::Float64))
    Need(F.Float64, "shaderFloat64");
  if (Has(spv::Capability::VulkanMemoryModel))
    Need(F.MemoryModel, "vulkanMemoryModel");
  if (Has(spv::Capability::VulkanMemoryModelDeviceScope))
    Need(F.MemoryModelDeviceScope, "vulkanMemoryModelDeviceScope");
  for (const vkrun::AtomicUse &U : Info.Atomics) {
    if (U.Kind != vkrun::AtomicKind::IntAny)
      Need(false, "float atomics (the benchmark enables none: every variant "
                  "must be integer-only)");
    else if (U.Width == 64 && U.Memory == vkrun::AtomicMemory::Buffer)
      Need(F.BufferInt64Atomics, "shaderBufferInt64Atomics");
  }
  return Missing;
}

std::vector<uint32_t> readModule(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    fail(ExitUsage, "cannot open SPIR-V module '" + Path + "'");
  std::vector<char> Bytes((std::istreambuf_iterator<char>(In)),
                          std::istreambuf_iterator<char>());
  if (Bytes.empty() || Bytes.size() % 4 != 0)
    fail(ExitUsage, "'" + Path + "' is not a SPIR-V module");
  std::vector<uint32_t> Words(Bytes.size() / 4);
  std::memcpy(Words.data(), Bytes.data(), Bytes.size());
  return Words;
}

//===----------------------------------------------------------------------===//
// The benchmark
//===----------------------------------------------------------------------===//

class Results {
public:
  explicit Results(const std::string &Path) : Out(std::fopen(Path.c_str(), "a")) {
    if (!Out)
      fail(ExitUsage, "cannot open results file '" + Path + "'");
  }
  ~Results() { std::fclose(Out); }
  void write(const json &J) {
    std::fprintf(Out, "%s\n", J.dump().c_str());
    std::fflush(Out);
  }

private:
  std::FILE *Out;
};

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  const size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

class Bench {
public:
  Bench(Gpu &G, const Plan &P, Results &R) : G(G), P(P), Out(R) {}
  ~Bench();
  void setup();
  void runTask(size_t Index);

private:
  void prepareCell(const Task &T);
  void uploadValues(unsigned Width, uint64_t TaskId);
  void submitAndWait(VkCommandBuffer Cmd, uint64_t TaskId, int Run);
  uint32_t settle(VkCommandBuffer Cmd, uint64_t TaskId);
  void progress(size_t Index, const json &R);
  /// The task's module, checked; false with R's status and message set.
  bool loadTaskModule(const Task &T, const Variant &V, json &R, std::vector<uint32_t> &Words);
  /// The compute pipeline of \p Module; with \p Record, RECORD is true.
  VkPipeline createPipeline(VkShaderModule Module, bool Record);
  /// Records the task's command buffer; with \p Record, it also copies the
  /// returned values out.
  void recordTask(const Task &T, const Variant &V, VkPipeline Pipeline,
                  bool Record = false);
  /// Settles, runs the warm-up and timed runs, checks each run's memory,
  /// and fills R's status and figures.
  void measure(const Task &T, const Variant &V, json &R);
  /// The addresses whose memory after run \p Run differs from the
  /// reference; the first difference of the task goes to \p FirstWrong.
  uint64_t wrongAddresses(const Task &T, const Variant &V, uint32_t Run,
                          std::string &FirstWrong) const;
  /// A used task's recording run with \p Module: its memory and every
  /// returned value checked; R's status and message set.
  void checkReturned(const Task &T, const Variant &V, VkShaderModule Module,
                     json &R);
  /// The operations of the recording run just read back, for MaxHistory.
  void collectHistory(const Task &T);
  /// The bytes of \p T's recorded values.
  VkDeviceSize retsBytes(const Task &T) const {
    return VkDeviceSize{P.Invocations} * P.Iters * (T.Width / 8);
  }

  Gpu &G;
  const Plan &P;
  Results &Out;
  uint32_t MaxAddrs = 1;
  Buffer Vals, Dst, Params, Upload, Readback;
  /// The recording run's returned values, on the device and read back.
  Buffer Rets, RetsReadback;
  std::vector<gpubench::MaxOp> History;
  VkDescriptorSetLayout SetLayout = VK_NULL_HANDLE;
  VkPipelineLayout PipeLayout = VK_NULL_HANDLE;
  VkDescriptorPool Pool = VK_NULL_HANDLE;
  VkDescriptorSet Set = VK_NULL_HANDLE;
  VkCommandPool CmdPool = VK_NULL_HANDLE;
  VkCommandBuffer Cmd = VK_NULL_HANDLE;
  VkQueryPool Queries = VK_NULL_HANDLE;
  VkFence Fence = VK_NULL_HANDLE;

  // The cell whose data are on the device.
  unsigned ValsWidth = 0;
  std::vector<uint64_t> ValsBits;
  bool HaveCell = false;
  unsigned CellWidth = 0;
  bool CellRising = false;
  uint32_t CellAddrs = 0;
  std::vector<uint64_t> Expected;
};

Bench::~Bench() {
  if (!G.Device)
    return;
  if (Fence)
    vkDestroyFence(G.Device, Fence, nullptr);
  if (Queries)
    vkDestroyQueryPool(G.Device, Queries, nullptr);
  if (CmdPool)
    vkDestroyCommandPool(G.Device, CmdPool, nullptr);
  if (Pool)
    vkDestroyDescriptorPool(G.Device, Pool, nullptr);
  if (PipeLayout)
    vkDestroyPipelineLayout(G.Device, PipeLayout, nullptr);
  if (SetLayout)
    vkDestroyDescriptorSetLayout(G.Device, SetLayout, nullptr);
}

void Bench::setup() {
  for (const Task &T : P.Tasks)
    MaxAddrs = std::max(MaxAddrs, T.Addrs);
  const VkBufferUsageFlags Storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  const VkDeviceSize ValsBytes = VkDeviceSize{P.NumVals} * 8;
  const VkDeviceSize DstBytes = VkDeviceSize{MaxAddrs} * 8;
  Vals.create(G, ValsBytes, Storage, false);
  Dst.create(G, DstBytes, Storage, false);
  Params.create(G, 16, Storage, false);
  Upload.create(G, std::max(ValsBytes, DstBytes),
                 VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
  Readback.create(G, DstBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
  // Room for every operation's returned value in a recording plan.
  const VkDeviceSize RetsBytes =
      P.Record ? VkDeviceSize{P.Invocations} * P.Iters * 8 : 8;
  Rets.create(G, RetsBytes, Storage, false);
  RetsReadback.create(G, RetsBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);

  VkDescriptorSetLayoutBinding B[4] = {};
  for (uint32_t I = 0; I < 4; ++I) {
    B[I].binding = I;
    B[I].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    B[I].descriptorCount = 1;
    B[I].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo SL{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  SL.bindingCount = 4;
  SL.pBindings = B;
  VK_CHECK(vkCreateDescriptorSetLayout(G.Device, &SL, nullptr, &SetLayout));
  VkPipelineLayoutCreateInfo PL{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  PL.setLayoutCount = 1;
  PL.pSetLayouts = &SetLayout;
  VK_CHECK(vkCreatePipelineLayout(G.Device, &PL, nullptr, &PipeLayout));
  VkDescriptorPoolSize PS{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4};
  VkDescriptorPoolCreateInfo DP{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  DP.maxSets = 1;
  DP.poolSizeCount = 1;
  DP.pPoolSizes = &PS;
  VK_CHECK(vkCreateDescriptorPool(G.Device, &DP, nullptr, &Pool));
  VkDescriptorSetAllocateInfo DA{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  DA.descriptorPool = Pool;
  DA.descriptorSetCount = 1;
  DA.pSetLayouts = &SetLayout;
  VK_CHECK(vkAllocateDescriptorSets(G.Device, &DA, &Set));

  VkCommandPoolCreateInfo CP{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  CP.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  CP.queueFamilyIndex = G.QueueFamily;
  VK_CHECK(vkCreateCommandPool(G.Device, &CP, nullptr, &CmdPool));
  VkCommandBufferAllocateInfo CA{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  CA.commandPool = CmdPool;
  CA.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  CA.commandBufferCount = 1;
  VK_CHECK(vkAllocateCommandBuffers(G.Device, &CA, &Cmd));
  Queries = G.createTimestampPool();
  VkFenceCreateInfo FI{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VK_CHECK(vkCreateFence(G.Device, &FI, nullptr, &Fence));
}

void Bench::submitAndWait(VkCommandBuffer C, uint64_t TaskId, int Run) {
  VkSubmitInfo SI{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  SI.commandBufferCount = 1;
  SI.pCommandBuffers = &C;
  VK_CHECK(vkQueueSubmit(G.Queue, 1, &SI, Fence));
  VkResult W = vkWaitForFences(G.Device, 1, &Fence, VK_TRUE,
                               uint64_t{P.TimeoutS} * 1000000000ull);
  if (W == VK_TIMEOUT) {
    // The device is still busy: tearing it down could block as well.
    Out.write({{"event", "timeout"}, {"task", TaskId}, {"run", Run},
               {"timeout_s", P.TimeoutS}});
    std::fprintf(stderr,
                 "fatomic-gpubench: error: task %" PRIu64 " run %d did not "
                 "finish within %u s\n",
                 TaskId, Run, P.TimeoutS);
    std::fflush(stderr);
    std::_Exit(ExitVulkan);
  }
  check(W, "vkWaitForFences");
  VK_CHECK(vkResetFences(G.Device, 1, &Fence));
}

// A GPU left idle (while the host compiles a pipeline or computes a cell's
// reference) lowers its clocks, and a task of a few milliseconds is too
// short to raise them: on an H200 the tasks of a cell that ran before its
// first long task took up to 2x longer than the same code after it.  So
// each task first runs its own command buffer, unchecked, until SettleMs
// have passed; the task's checked runs follow at once.
uint32_t Bench::settle(VkCommandBuffer C, uint64_t TaskId) {
  using Clock = std::chrono::steady_clock;
  const auto Start = Clock::now();
  uint32_t Runs = 0;
  while (Clock::now() - Start < std::chrono::milliseconds(P.SettleMs)) {
    submitAndWait(C, TaskId, -1 - static_cast<int>(Runs));
    ++Runs;
  }
  return Runs;
}

void Bench::uploadValues(unsigned Width, uint64_t TaskId) {
  if (ValsWidth == Width)
    return;
  ValsBits = makeValues(Width, P.NumVals, P.Seed);
  const size_t Bytes = Width / 8;
  auto *Dest = static_cast<uint8_t *>(Upload.Mapped);
  for (size_t I = 0; I < ValsBits.size(); ++I)
    std::memcpy(Dest + I * Bytes, &ValsBits[I], Bytes); // little endian
  VkCommandBufferBeginInfo BI{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  BI.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VK_CHECK(vkBeginCommandBuffer(Cmd, &BI));
  VkBufferCopy Cp{0, 0, ValsBits.size() * Bytes};
  vkCmdCopyBuffer(Cmd, Upload.Handle, Vals.Handle, 1, &Cp);
  VK_CHECK(vkEndCommandBuffer(Cmd));
  submitAndWait(Cmd, TaskId, -1);
  ValsWidth = Width;
}

void Bench::prepareCell(const Task &T) {
  uploadValues(T.Width, T.Id);
  if (HaveCell && CellWidth == T.Width && CellRising == T.Rising &&
      CellAddrs == T.Addrs)
    return;
  const auto Start = std::chrono::steady_clock::now();
  Expected = referenceMemory(P, T.Width, T.Rising, T.Addrs, ValsBits);
  const double Secs = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - Start)
                          .count();
  std::fprintf(stderr, "fatomic-gpubench: reference for f%u %s %u addrs: %.2f s\n",
               T.Width, T.Rising ? "rising" : "random", T.Addrs, Secs);
  HaveCell = true;
  CellWidth = T.Width;
  CellRising = T.Rising;
  CellAddrs = T.Addrs;

  const size_t Bytes = T.Width / 8;
  VkDescriptorBufferInfo Infos[4] = {
      {Vals.Handle, 0, VkDeviceSize{P.NumVals} * Bytes},
      {Dst.Handle, 0, VkDeviceSize{T.Addrs} * Bytes},
      {Params.Handle, 0, 16},
      {Rets.Handle, 0, P.Record ? retsBytes(T) : VK_WHOLE_SIZE}};
  VkWriteDescriptorSet W[4] = {};
  for (uint32_t I = 0; I < 4; ++I) {
    W[I].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    W[I].dstSet = Set;
    W[I].dstBinding = I;
    W[I].descriptorCount = 1;
    W[I].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    W[I].pBufferInfo = &Infos[I];
  }
  vkUpdateDescriptorSets(G.Device, 4, W, 0, nullptr);
}

bool Bench::loadTaskModule(const Task &T, const Variant &V, json &R,
                           std::vector<uint32_t> &Words) {
  const std::string Key = moduleKey(T.Width, T.Used);
  const auto It = V.Modules.find(Key);
  if (It == V.Modules.end()) {
    R["status"] = "error";
    R["message"] = "variant '" + V.Name + "' has no " + Key + " module";
    return false;
  }
  Words = readModule(It->second);
  vkrun::SpirvInfo Info;
  std::string Err;
  if (!vkrun::analyzeSpirv(Words, Info, Err)) {
    R["status"] = "error";
    R["message"] = It->second + ": " + Err;
    return false;
  }
  const std::string Missing = missingFeatures(Info, G.Supported);
  if (!Missing.empty()) {
    R["status"] = "unsupported";
    R["message"] = "the device lacks " + Missing;
    return false;
  }
  return true;
}

VkPipeline Bench::createPipeline(VkShaderModule Module, bool Record) {
  VkComputePipelineCreateInfo CI{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  CI.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  CI.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  CI.stage.module = Module;
  CI.stage.pName = "main";
  const VkBool32 RecordValue = VK_TRUE;
  const VkSpecializationMapEntry RecordEntry{0, 0, sizeof RecordValue};
  const VkSpecializationInfo Spec{1, &RecordEntry, sizeof RecordValue, &RecordValue};
  if (Record)
    CI.stage.pSpecializationInfo = &Spec;
  CI.layout = PipeLayout;
  if (G.HasStatistics)
    CI.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  VkPipeline Pipeline;
  VK_CHECK(vkCreateComputePipelines(G.Device, VK_NULL_HANDLE, 1, &CI, nullptr, &Pipeline));
  return Pipeline;
}

// The destination's initial image (-inf, or U(-inf) for encoded memory) is
// copied in before the timed dispatch, and the memory out after it.
void Bench::recordTask(const Task &T, const Variant &V, VkPipeline Pipeline,
                       bool Record) {
  const size_t Bytes = T.Width / 8;
  uint64_t Init = negativeInfinity(T.Width);
  if (V.Encoded)
    Init = fatomic::toOrdered(Init, T.Width);
  auto *Up = static_cast<uint8_t *>(Upload.Mapped);
  for (uint32_t A = 0; A < T.Addrs; ++A)
    std::memcpy(Up + A * Bytes, &Init, Bytes);
  const uint32_t Par[4] = {T.Addrs - 1, P.Iters, T.Rising ? 1u : 0u, 0u};

  VkCommandBufferBeginInfo BI{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  VK_CHECK(vkBeginCommandBuffer(Cmd, &BI));
  if (Queries)
    vkCmdResetQueryPool(Cmd, Queries, 0, 2);
  vkCmdUpdateBuffer(Cmd, Params.Handle, 0, sizeof Par, Par);
  VkBufferCopy In{0, 0, VkDeviceSize{T.Addrs} * Bytes};
  vkCmdCopyBuffer(Cmd, Upload.Handle, Dst.Handle, 1, &In);
  // All ones, a NaN in either width: a returned value that the shader did
  // not store fails the check.
  if (Record)
    vkCmdFillBuffer(Cmd, Rets.Handle, 0, retsBytes(T), 0xFFFFFFFFu);
  // Timed as fatomic-vkrun times.
  fatomic::vk::recordTimedDispatch(Cmd, Pipeline, PipeLayout, Set, Queries,
                                   P.Invocations / P.LocalSize, 1, 1);
  VkBufferCopy OutCp{0, 0, VkDeviceSize{T.Addrs} * Bytes};
  vkCmdCopyBuffer(Cmd, Dst.Handle, Readback.Handle, 1, &OutCp);
  if (Record) {
    VkBufferCopy RetsCp{0, 0, retsBytes(T)};
    vkCmdCopyBuffer(Cmd, Rets.Handle, RetsReadback.Handle, 1, &RetsCp);
  }
  fatomic::vk::recordHostReadBarrier(Cmd);
  VK_CHECK(vkEndCommandBuffer(Cmd));
}

uint64_t Bench::wrongAddresses(const Task &T, const Variant &V, uint32_t Run,
                               std::string &FirstWrong) const {
  const size_t Bytes = T.Width / 8;
  const auto *Got = static_cast<const uint8_t *>(Readback.Mapped);
  uint64_t Wrong = 0;
  for (uint32_t A = 0; A < T.Addrs; ++A) {
    uint64_t Bits = 0;
    std::memcpy(&Bits, Got + A * Bytes, Bytes);
    if (V.Encoded)
      Bits = fatomic::fromOrdered(Bits, T.Width);
    if (Bits == Expected[A])
      continue;
    if (FirstWrong.empty())
      FirstWrong = "run " + std::to_string(Run) + ": address " + std::to_string(A) + " holds " +
                   gpubench::hexBits(Bits, T.Width) + ", reference " +
                   gpubench::hexBits(Expected[A], T.Width);
    ++Wrong;
  }
  return Wrong;
}

void Bench::measure(const Task &T, const Variant &V, json &R) {
  const uint32_t SettleRuns = settle(Cmd, T.Id);
  std::vector<double> Ms, WarmupMs;
  uint32_t WrongRuns = 0;
  uint64_t WrongAddrs = 0;
  std::string FirstWrong;
  const uint32_t Runs = P.Warmup + P.Repeat;
  for (uint32_t Run = 0; Run < Runs; ++Run) {
    std::memset(Readback.Mapped, 0xA5, VkDeviceSize{T.Addrs} * (T.Width / 8));
    submitAndWait(Cmd, T.Id, static_cast<int>(Run));
    if (Queries)
      (Run < P.Warmup ? WarmupMs : Ms).push_back(G.elapsedMs(Queries));
    // Every run's final memory against the reference.
    if (const uint64_t Wrong = wrongAddresses(T, V, Run, FirstWrong)) {
      ++WrongRuns;
      WrongAddrs = std::max(WrongAddrs, Wrong);
    }
  }
  R["status"] = WrongRuns ? "wrong" : "ok";
  R["ms"] = Ms;
  R["warmup_ms"] = WarmupMs;
  R["runs"] = Runs;
  R["wrong_runs"] = WrongRuns;
  R["wrong_addrs"] = WrongAddrs;
  R["settle_runs"] = SettleRuns;
  R["median_ms"] = Ms.empty() ? json(nullptr) : json(median(Ms));
  R["message"] = WrongRuns ? FirstWrong : Ms.empty() ? "no timestamps on this queue" : "";
}

void Bench::collectHistory(const Task &T) {
  History.resize(size_t{P.Invocations} * P.Iters);
  const size_t Bytes = T.Width / 8;
  const auto *Got = static_cast<const uint8_t *>(RetsReadback.Mapped);
  auto Work = [&](unsigned, uint64_t Begin, uint64_t End) {
    for (uint32_t I = static_cast<uint32_t>(Begin); I < End; ++I)
      for (uint32_t K = 0; K < P.Iters; ++K) {
        const size_t Index = size_t{I} * P.Iters + K;
        gpubench::MaxOp &Op = History[Index];
        Op.Addr = addressOf(I, K, T.Addrs - 1);
        Op.Operand = T.Width == 32
                         ? operandBits<float, uint32_t>(ValsBits, I, K, T.Rising)
                         : operandBits<double, uint64_t>(ValsBits, I, K, T.Rising);
        Op.Returned = 0;
        std::memcpy(&Op.Returned, Got + Index * Bytes, Bytes); // little endian
      }
  };
  gpubench::parallelParts(gpubench::hostThreads(), P.Invocations, Work);
}

// The recording run: RECORD set, so every operation stores what it
// returned.  Its memory is checked as the timed runs' is, and the returned
// values must be linearizable with it (MaxHistory.h).
void Bench::checkReturned(const Task &T, const Variant &V, VkShaderModule Module,
                          json &R) {
  using Clock = std::chrono::steady_clock;
  auto Lap = [Last = Clock::now()]() mutable {
    const auto Now = Clock::now();
    const double Ms = std::chrono::duration<double, std::milli>(Now - Last).count();
    Last = Now;
    return std::round(Ms * 10) / 10;
  };
  const VkPipeline Pipeline = createPipeline(Module, true);
  recordTask(T, V, Pipeline, true);
  const double PipelineMs = Lap();
  std::memset(Readback.Mapped, 0xA5, VkDeviceSize{T.Addrs} * (T.Width / 8));
  const uint32_t Run = 0;
  submitAndWait(Cmd, T.Id, static_cast<int>(Run));
  vkDestroyPipeline(G.Device, Pipeline, nullptr);
  const double RunMs = Lap();
  std::string FirstWrong;
  const uint64_t WrongMemory = wrongAddresses(T, V, Run, FirstWrong);
  std::vector<uint64_t> Final(T.Addrs);
  const auto *Got = static_cast<const uint8_t *>(Readback.Mapped);
  for (uint32_t A = 0; A < T.Addrs; ++A) {
    std::memcpy(&Final[A], Got + A * (T.Width / 8), T.Width / 8);
    if (V.Encoded)
      Final[A] = fatomic::fromOrdered(Final[A], T.Width);
  }
  collectHistory(T);
  const double CollectMs = Lap();
  const gpubench::HistoryVerdict H = gpubench::checkMaxHistory(
      T.Width, negativeInfinity(T.Width), Final, History, P.Iters,
      gpubench::hostThreads());
  R["record_ms"] = {{"pipeline", PipelineMs}, {"run", RunMs},
                    {"collect", CollectMs}, {"check", Lap()}};
  R["returned_checked"] = H.Ops;
  R["returned_wrong_addrs"] = H.BadAddrs;
  R["status"] = WrongMemory || H.BadAddrs ? "wrong" : "ok";
  R["message"] = WrongMemory ? FirstWrong + " (the recording run)"
                 : H.BadAddrs ? "returned values not linearizable at " +
                                    std::to_string(H.BadAddrs) + " addresses; " + H.First
                              : "";
}

void Bench::runTask(size_t Index) {
  const Task &T = P.Tasks[Index];
  const Variant &V = P.Variants.at(T.VariantName);
  json R = {{"event", "result"}, {"task", T.Id}};
  Out.write({{"event", "start"}, {"task", T.Id}});
  std::vector<uint32_t> Words;
  if (P.Record && retsBytes(T) > G.Props.limits.maxStorageBufferRange) {
    R["status"] = "error";
    R["message"] = "the recorded values (" + std::to_string(retsBytes(T)) +
                   " bytes) exceed the device's maxStorageBufferRange (" +
                   std::to_string(G.Props.limits.maxStorageBufferRange) + ")";
  } else if (loadTaskModule(T, V, R, Words)) {
    prepareCell(T);
    VkShaderModuleCreateInfo SM{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    SM.codeSize = Words.size() * 4;
    SM.pCode = Words.data();
    VkShaderModule Module;
    VK_CHECK(vkCreateShaderModule(G.Device, &SM, nullptr, &Module));
    if (P.Record) {
      checkReturned(T, V, Module, R);
    } else {
      const VkPipeline Pipeline = createPipeline(Module, false);
      R["shader_stats"] = G.statistics(Pipeline);
      recordTask(T, V, Pipeline);
      measure(T, V, R);
      vkDestroyPipeline(G.Device, Pipeline, nullptr);
    }
    vkDestroyShaderModule(G.Device, Module, nullptr);
  }
  Out.write(R);
  progress(Index, R);
}

void Bench::progress(size_t Index, const json &R) {
  const Task &T = P.Tasks[Index];
  std::string Line = "[" + std::to_string(T.Id + 1) + "/" +
                     std::to_string(P.TotalTasks) + "] f" +
                     std::to_string(T.Width) + (T.Used ? " used" : " unused") +
                     (T.Rising ? " rising" : " random") + " addrs=" +
                     std::to_string(T.Addrs) + " " + T.VariantName + ": " +
                     R.at("status").get<std::string>();
  if (R.contains("median_ms") && R["median_ms"].is_number()) {
    char Buf[64];
    std::snprintf(Buf, sizeof Buf, " median %.4f ms", R["median_ms"].get<double>());
    Line += Buf;
  }
  if (R.contains("returned_checked") && R["returned_wrong_addrs"] == 0)
    Line += ", returned values linearizable";
  if (R.contains("record_ms"))
    Line += " (ms: " + R["record_ms"].dump() + ")";
  if (R.contains("shader_stats") && R["shader_stats"].contains("Register Count"))
    Line += ", " + R["shader_stats"]["Register Count"].dump() + " registers";
  if (R.contains("message") && !R["message"].get<std::string>().empty())
    Line += " (" + R["message"].get<std::string>() + ")";
  std::fprintf(stderr, "%s\n", Line.c_str());
}

const char *Usage =
    "usage: fatomic-gpubench [--device N] PLAN.json RESULTS.jsonl\n"
    "       fatomic-gpubench --list-devices\n"
    "\n"
    "Runs the tasks of a GPU benchmark plan (written by tools/gpubench/\n"
    "gpubench.py) on one Vulkan device, checks the final memory of every run\n"
    "against fatomic's reference model, and appends one JSON line per event\n"
    "to RESULTS.jsonl.  Progress goes to stderr.  A plan with \"record\": true\n"
    "runs each task (result used) once, untimed, with specialization\n"
    "constant 0 (RECORD) true, which stores every returned value at\n"
    "binding 3, and checks that those are linearizable.\n"
    "\n"
    "plan (JSON):\n"
    "  { \"invocations\": 1048576, \"iters\": 64, \"local_size\": 256,\n"
    "    \"vals\": 1048576, \"seed\": 1, \"warmup\": 1, \"repeat\": 5,\n"
    "    \"timeout_s\": 60, \"record\": false,\n"
    "    \"variants\": { \"NAME\": { \"memory\": \"ieee\"|\"encoded\",\n"
    "                  \"spv\": { \"f32-used\": \"x.spv\", \"f32-unused\": .., \n"
    "                           \"f64-used\": .., \"f64-unused\": .. } } },\n"
    "    \"tasks\": [ { \"width\": 32|64, \"used\": bool,\n"
    "                 \"values\": \"random\"|\"rising\", \"addrs\": 2^k,\n"
    "                 \"variant\": \"NAME\" }, .. ] }\n"
    "\n"
    "exit status: 0 every task ran (see each result's status), 1 usage or\n"
    "  plan error, 2 no device, a Vulkan error or a dispatch timeout\n";

} // namespace

int main(int Argc, char **Argv) {
  try {
    std::optional<uint32_t> DeviceIndex;
    bool List = false;
    std::vector<std::string> Files;
    for (int I = 1; I < Argc; ++I) {
      const std::string A = Argv[I];
      if (A == "-h" || A == "--help") {
        std::fputs(Usage, stdout);
        return ExitOk;
      }
      if (A == "--list-devices") {
        List = true;
      } else if (A == "--device") {
        if (I + 1 >= Argc)
          fail(ExitUsage, "--device needs a value");
        try {
          DeviceIndex = static_cast<uint32_t>(std::stoul(Argv[++I]));
        } catch (const std::exception &) {
          fail(ExitUsage, "--device: bad number");
        }
      } else if (!A.empty() && A[0] == '-') {
        fail(ExitUsage, "unknown option '" + A + "' (see --help)");
      } else {
        Files.push_back(A);
      }
    }
    Gpu G;
    if (List) {
      G.createInstance("fatomic-gpubench");
      G.listDevices();
      return ExitOk;
    }
    if (Files.size() != 2)
      fail(ExitUsage, "give a plan and a results file (see --help)");
    const Plan P = loadPlan(Files[0]);
    Results Out(Files[1]);
    G.createInstance("fatomic-gpubench");
    G.pickDevice(DeviceIndex);
    G.createDevice();
    Out.write({{"event", "device"},
               {"device", G.Props.deviceName},
               {"type", deviceTypeName(G.Props.deviceType)},
               {"driver", G.DriverName + " " + G.DriverInfo},
               {"timestamp_bits", G.TimestampBits},
               {"timestamp_period_ns", G.Props.limits.timestampPeriod},
               {"shader_statistics", G.HasStatistics}});
    std::fprintf(stderr, "fatomic-gpubench: device: %s; %zu tasks\n",
                 G.deviceLine().c_str(), P.Tasks.size());
    Bench B(G, P, Out);
    B.setup();
    for (size_t I = 0; I < P.Tasks.size(); ++I)
      B.runTask(I);
    vkDeviceWaitIdle(G.Device);
    return ExitOk;
  } catch (const Failure &F) {
    std::fprintf(stderr, "fatomic-gpubench: error: %s\n", F.what());
    return F.Code;
  } catch (const std::exception &E) {
    std::fprintf(stderr, "fatomic-gpubench: error: %s\n", E.what());
    return ExitUsage;
  }
}
