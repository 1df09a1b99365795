//===- Shaders.cpp - Lowering every module on its way to the driver -------===//
//
// A SPIR-V module reaches the driver through vkCreateShaderModule, through a
// VkShaderModuleCreateInfo chained into a pipeline stage (maintenance5,
// graphics pipeline libraries; compute, graphics and ray tracing pipelines,
// KHR and NV), and through vkCreateShadersEXT.  Each path asks one question
// first: does the module declare a float min/max capability
// (AtomicFloat{16,32,64}MinMaxEXT)?  The capabilities open every module, so
// the answer costs a few words' reads; a module without them goes down the
// chain as the application gave it.  Otherwise the pass lowers what the
// device lacks (its target model), with the layer's options; a pointer the
// pass cannot trace is retried after inlining (fatomic::inlineForRetry, as
// fatomic-opt retries).  A module that still cannot be lowered is not handed
// to the driver: the creation fails with the pass's message
// (stderr, and VK_EXT_debug_utils where the application enabled it).
//
// Each command runs through guarded() (Layer.h).  What allocates (the
// copies, the lowering, the dump's path) comes before the call down, and
// nothing after it does: so where the layer's part throws, nothing has
// been created, every handle the call hands back is null, and the call
// returns VK_ERROR_OUT_OF_HOST_MEMORY for std::bad_alloc (VK_ERROR_UNKNOWN,
// or vkCreateShadersEXT's VK_ERROR_INITIALIZATION_FAILED, for another
// exception) for the whole batch.
//
//===----------------------------------------------------------------------===//

#include "Chain.h"
#include "Layer.h"

#include "fatomic/InlineRetry.h"
#include "fatomic/LowerFloatAtomicMinMax.h"

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>

namespace fatomic::layer {

namespace {
/// The float widths (bits 16, 32, 64 set as 1 << (width / 16)) of the
/// module's float min/max atomic capabilities; 0 when it declares none.
unsigned floatMinMaxWidths(const void *Code, size_t Bytes) {
  const auto *W = static_cast<const uint32_t *>(Code);
  size_t N = Bytes / 4;
  unsigned Widths = 0;
  if (!W || N < 5 || W[0] != spv::MagicNumber)
    return 0;
  for (size_t K = 5; K + 1 < N;) {
    uint32_t Op = W[K] & 0xFFFF, Len = W[K] >> 16;
    if (Len == 0 || Op != uint32_t(spv::Op::OpCapability))
      break;
    auto Cap = spv::Capability(W[K + 1]);
    if (Cap == spv::Capability::AtomicFloat16MinMaxEXT)
      Widths |= 1u << 1;
    else if (Cap == spv::Capability::AtomicFloat32MinMaxEXT)
      Widths |= 1u << 2;
    else if (Cap == spv::Capability::AtomicFloat64MinMaxEXT)
      Widths |= 1u << 4;
    K += Len;
  }
  return Widths;
}

/// True when \p Target runs every float min/max of the widths in \p Widths
/// natively in every kind of memory: the pass would change nothing.
bool allNative(const TargetModel &Target, unsigned Widths) {
  for (unsigned Width : {16u, 32u, 64u}) {
    if (!(Widths & (1u << (Width / 16))))
      continue;
    for (MemoryClass C : {MemoryClass::Buffer, MemoryClass::Shared, MemoryClass::Image})
      if (minMaxFeature(C, Width) && !Target.isNativeMinMax(C, Width))
        return false;
  }
  return true;
}

/// FATOMIC_LAYER_DUMP_DIR: every module handed to the driver, in order.
void dumpModule(const void *Code, size_t Bytes) {
  const std::string &Dir = settings().DumpDir;
  if (Dir.empty())
    return;
  static std::atomic<unsigned> Counter{0};
  std::string Path = Dir + "/module-" + std::to_string(Counter++) + ".spv";
  if (FILE *F = std::fopen(Path.c_str(), "wb")) {
    std::fwrite(Code, 1, Bytes, F);
    std::fclose(F);
  }
}

enum class Outcome { PassThrough, Lowered, Failed };

/// Lowers the module for \p D into \p Words.  \p What names the call for
/// the message of a refusal; none is reported where it is null.
Outcome lowerModule(DeviceData &D, const void *Code, size_t Bytes,
                    const char *What, std::vector<uint32_t> &Words) {
  unsigned Widths = floatMinMaxWidths(Code, Bytes);
  if (!Widths || allNative(D.Target, Widths))
    return Outcome::PassThrough;
  const auto *W = static_cast<const uint32_t *>(Code);
  Words.assign(W, W + Bytes / 4);
  std::string Messages;
  LowerFloatAtomicMinMaxPass Pass(settings().Options, D.Target);
  Pass.SetMessageConsumer([&](spv_message_level_t, const char *,
                              const spv_position_t &, const char *M) {
    Messages += Messages.empty() ? M : std::string("; ") + M;
  });
  PassStatus S = Pass.Process(Words);
  if (S == PassStatus::Failure &&
      Pass.lastFailure() == FailureKind::UntraceablePointer) {
    // The application's module has not been validated: inlineForRetry
    // checks it first and says why it would not take it.
    std::string Refusal;
    if (inlineForRetry(Words, SPV_ENV_VULKAN_1_3,
                       [&](spv_message_level_t, const char *,
                           const spv_position_t &, const char *M) {
                         Refusal += Refusal.empty() ? M : std::string("; ") + M;
                       })) {
      Messages.clear();
      Pass.SetMessageConsumer([&](spv_message_level_t, const char *,
                                  const spv_position_t &, const char *M) {
        Messages += (Messages.empty() ? "" : "; ") + afterInlineRetry(M);
      });
      S = Pass.Process(Words);
    } else if (!Refusal.empty()) {
      Messages += "; not inlined to lower again: " + Refusal;
    }
  }
  if (S == PassStatus::Failure) {
    if (What)
      reportError(D.Instance, std::string(What) +
                                  ": the module's float atomic min/max cannot "
                                  "be lowered for this device: " + Messages);
    return Outcome::Failed;
  }
  return S == PassStatus::SuccessWithChange ? Outcome::Lowered
                                            : Outcome::PassThrough;
}

DeviceData *deviceOf(VkDevice Device) { return findDevice(dispatchKey(Device)); }

/// Sets \p Count handles at \p Handles to null, and answers \p T with
/// \p Other for what is not std::bad_alloc (guarded()'s fallback).
template <typename Handle>
VkResult nullHandles(Handle *Handles, uint32_t Count, Thrown T, VkResult Other) {
  for (uint32_t K = 0; K < Count; ++K)
    Handles[K] = VK_NULL_HANDLE;
  return failedWith(T, Other);
}

VkResult createShaderModule(DeviceData &D, VkDevice Device,
                            const VkShaderModuleCreateInfo *Info,
                            const VkAllocationCallbacks *Alloc, VkShaderModule *Module) {
  std::vector<uint32_t> Words;
  switch (lowerModule(D, Info->pCode, Info->codeSize, "vkCreateShaderModule", Words)) {
  case Outcome::PassThrough:
    dumpModule(Info->pCode, Info->codeSize);
    return D.CreateShaderModule(Device, Info, Alloc, Module);
  case Outcome::Failed:
    *Module = VK_NULL_HANDLE;
    return VK_ERROR_INVALID_SHADER_NV;
  case Outcome::Lowered:
    break;
  }
  VkShaderModuleCreateInfo Copy = *Info;
  Copy.pCode = Words.data();
  Copy.codeSize = Words.size() * 4;
  dumpModule(Copy.pCode, Copy.codeSize);
  return D.CreateShaderModule(Device, &Copy, Alloc, Module);
}
} // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateShaderModule(
    VkDevice Device, const VkShaderModuleCreateInfo *Info,
    const VkAllocationCallbacks *Alloc, VkShaderModule *Module) {
  DeviceData *D = deviceOf(Device);
  if (!D)
    return VK_ERROR_INITIALIZATION_FAILED;
  return guarded(
      "vkCreateShaderModule", D->Instance,
      [&] { return createShaderModule(*D, Device, Info, Alloc, Module); },
      [&](Thrown T) { return nullHandles(Module, 1, T, VK_ERROR_UNKNOWN); });
}

namespace {
/// What a pipeline stage's chain may have changed: its module.
const StructTypes ModuleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};

/// The stages of a pipeline create info.
std::pair<const VkPipelineShaderStageCreateInfo *, uint32_t>
stagesOf(const VkComputePipelineCreateInfo &I) {
  return {&I.stage, 1};
}
template <typename Info>
std::pair<const VkPipelineShaderStageCreateInfo *, uint32_t> stagesOf(const Info &I) {
  return {I.pStages, I.pStages ? I.stageCount : 0};
}

/// Whether changing a stage's module of \p Infos would edit the
/// application's own structures (Chain.h).
template <typename Info> bool stagesNeedInPlace(const Info *Infos, uint32_t Count) {
  for (uint32_t K = 0; K < Count; ++K) {
    auto [Stages, N] = stagesOf(Infos[K]);
    for (uint32_t J = 0; J < N; ++J)
      if (Stages[J].module == VK_NULL_HANDLE && needsInPlace(Stages[J].pNext, ModuleInfo))
        return true;
  }
  return false;
}

/// Pipeline stages whose chained VkShaderModuleCreateInfo is lowered: the
/// copies handed to the driver and the lowered words they point to.
struct StageRewriter {
  DeviceData &D;
  const char *What;
  // Declared before Chains, so destroyed after it: where a chain is edited
  // in place, the application's structure points at a copy until Chains
  // puts its link back.
  std::vector<std::unique_ptr<VkShaderModuleCreateInfo>> Infos;
  std::vector<std::unique_ptr<std::vector<uint32_t>>> Code;
  std::vector<std::unique_ptr<ChainCopy>> Chains;
  std::vector<std::unique_ptr<std::vector<VkPipelineShaderStageCreateInfo>>> Stages;

  /// Rewrites \p Count stages at \p In; returns the array to use, or null
  /// when a module cannot be lowered.  \p Failed is set then.
  const VkPipelineShaderStageCreateInfo *
  rewrite(const VkPipelineShaderStageCreateInfo *In, uint32_t Count, bool &Failed) {
    std::unique_ptr<std::vector<VkPipelineShaderStageCreateInfo>> Out;
    for (uint32_t K = 0; K < Count; ++K) {
      if (In[K].module != VK_NULL_HANDLE)
        continue;
      const VkBaseOutStructure *Node =
          findInChain(&In[K], VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO).second;
      if (!Node)
        continue;
      const auto *M = reinterpret_cast<const VkShaderModuleCreateInfo *>(Node);
      auto Words = std::make_unique<std::vector<uint32_t>>();
      Outcome O = lowerModule(D, M->pCode, M->codeSize, What, *Words);
      if (O == Outcome::Failed) {
        Failed = true;
        return nullptr;
      }
      if (O == Outcome::PassThrough) {
        dumpModule(M->pCode, M->codeSize);
        continue;
      }
      if (!Out)
        Out = std::make_unique<std::vector<VkPipelineShaderStageCreateInfo>>(In, In + Count);
      // Kept here before any chain points at them: where a later step
      // throws, no chain (the application's, edited in place) is left
      // pointing at a copy that is gone.
      Code.push_back(std::move(Words));
      Infos.push_back(std::make_unique<VkShaderModuleCreateInfo>(*M));
      VkShaderModuleCreateInfo *Copy = Infos.back().get();
      Copy->pCode = Code.back()->data();
      Copy->codeSize = Code.back()->size() * 4;
      dumpModule(Copy->pCode, Copy->codeSize);
      // The stage's chain reaches the copy where it reached the
      // application's VkShaderModuleCreateInfo.
      Chains.push_back(std::make_unique<ChainCopy>(In[K].pNext, ModuleInfo));
      Chains.back()->replace(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, Copy);
      (*Out)[K].pNext = Chains.back()->first();
    }
    if (!Out)
      return In;
    Stages.push_back(std::move(Out));
    return Stages.back()->data();
  }
};

/// VkPipelineCreateFlags2CreateInfoKHR (maintenance5), which the 1.3.239
/// headers lack: where a create info chains it, its 64-bit flags are used
/// instead of the create info's own (the bits this file reads, DERIVATIVE
/// and EARLY_RETURN_ON_FAILURE, have the same values in both).
struct PipelineCreateFlags2 {
  VkStructureType sType;
  const void *pNext;
  uint64_t flags;
};
constexpr auto PipelineCreateFlags2Type = VkStructureType(1000470005);

/// The creation flags of \p I, as the driver reads them.
template <typename Info> uint64_t creationFlags(const Info &I) {
  if (const VkBaseOutStructure *Node = findInChain(&I, PipelineCreateFlags2Type).second)
    return reinterpret_cast<const PipelineCreateFlags2 *>(Node)->flags;
  return I.flags;
}

/// The pipelines of a batch that are handed to the driver once some could
/// not be lowered: Vulkan creates the others ("only return VK_NULL_HANDLE
/// values for those that actually failed").  A pipeline is left out when
/// its module could not be lowered, when it comes after a refused one that
/// asked VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT, or when it derives
/// (by basePipelineIndex) from one left out; the kept ones' base indices
/// are renumbered within the smaller batch.
template <typename Info> struct BatchSubset {
  std::vector<Info> Kept;
  std::vector<uint32_t> Index; ///< Kept[J] is pipeline Index[J] of the batch

  BatchSubset(const std::vector<Info> &Copies, const std::vector<bool> &Refused,
              uint32_t End, DeviceData &D, const char *What) {
    std::vector<int32_t> Position(Copies.size(), -1);
    for (uint32_t K = 0; K < End; ++K) {
      if (Refused[K])
        continue;
      Info I = Copies[K];
      if ((creationFlags(I) & VK_PIPELINE_CREATE_DERIVATIVE_BIT) &&
          I.basePipelineHandle == VK_NULL_HANDLE && I.basePipelineIndex >= 0 &&
          uint32_t(I.basePipelineIndex) < K) {
        const int32_t Base = Position[I.basePipelineIndex];
        if (Base < 0) {
          reportError(D.Instance, std::string(What) + ": pipeline " +
                                      std::to_string(K) + " derives from pipeline " +
                                      std::to_string(I.basePipelineIndex) +
                                      ", which is not created");
          continue;
        }
        I.basePipelineIndex = Base;
      }
      Position[K] = int32_t(Kept.size());
      Kept.push_back(I);
      Index.push_back(K);
    }
  }
};

/// Creates \p Count pipelines from \p Infos with their chained modules
/// lowered: \p Rewrite points one copied create info's stages at lowered
/// modules, \p Call creates pipelines below from create infos to use
/// (count, infos, handles, and whether they are the layer's own copies).
/// Where a module cannot be lowered, its handle is null, the pipelines
/// that BatchSubset keeps are created, and the call returns \p Refused
/// (or the driver's error).  Every allocation precedes \p Call, and
/// nothing after it throws: no created pipeline can be lost.
template <typename Info, typename CallFn, typename RewriteFn>
VkResult createPipelinesIn(DeviceData &D, uint32_t Count, const Info *Infos,
                           VkPipeline *Pipelines, const char *What, VkResult Refused,
                           CallFn &Call, RewriteFn &Rewrite) {
  ChainGuard Guard([&] { return stagesNeedInPlace(Infos, Count); });
  StageRewriter R{D, What, {}, {}, {}, {}};
  std::vector<Info> Copies(Infos, Infos + Count);
  std::vector<bool> RefusedAt(Count, false);
  bool AnyRefused = false;
  uint32_t End = Count;
  for (uint32_t K = 0; K < End; ++K) {
    bool Failed = false;
    Rewrite(R, Copies[K], Failed);
    if (!Failed)
      continue;
    RefusedAt[K] = AnyRefused = true;
    if (creationFlags(Copies[K]) & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT)
      End = K + 1;
  }
  if (!AnyRefused)
    return Call(D, Count, Copies.data(), Pipelines, !R.Stages.empty());
  for (uint32_t K = 0; K < Count; ++K)
    Pipelines[K] = VK_NULL_HANDLE;
  BatchSubset<Info> S(Copies, RefusedAt, End, D, What);
  if (S.Kept.empty())
    return Refused;
  std::vector<VkPipeline> Created(S.Kept.size(), VK_NULL_HANDLE);
  const VkResult Res = Call(D, uint32_t(S.Kept.size()), S.Kept.data(), Created.data(),
                            /*Copied=*/true);
  for (size_t J = 0; J < S.Kept.size(); ++J)
    Pipelines[S.Index[J]] = Created[J];
  return Res < 0 ? Res : Refused;
}

/// createPipelinesIn() for \p Device, under guarded(): where the layer's
/// part throws, no pipeline of the batch is created.
template <typename Info, typename CallFn, typename RewriteFn>
VkResult createPipelines(VkDevice Device, uint32_t Count, const Info *Infos,
                         VkPipeline *Pipelines, const char *What, VkResult Refused,
                         CallFn Call, RewriteFn Rewrite) {
  DeviceData *D = deviceOf(Device);
  if (!D)
    return VK_ERROR_INITIALIZATION_FAILED;
  return guarded(
      What, D->Instance,
      [&] {
        return createPipelinesIn(*D, Count, Infos, Pipelines, What, Refused, Call, Rewrite);
      },
      [&](Thrown T) { return nullHandles(Pipelines, Count, T, VK_ERROR_UNKNOWN); });
}

/// Points a copied create info's stage array at the rewritten stages.
template <typename Info>
void rewriteStages(StageRewriter &R, Info &I, bool &Failed) {
  if (I.stageCount && I.pStages)
    I.pStages = R.rewrite(I.pStages, I.stageCount, Failed);
}
} // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(
    VkDevice Device, VkPipelineCache Cache, uint32_t Count,
    const VkComputePipelineCreateInfo *Infos, const VkAllocationCallbacks *Alloc,
    VkPipeline *Pipelines) {
  return createPipelines(
      Device, Count, Infos, Pipelines, "vkCreateComputePipelines",
      VK_ERROR_INVALID_SHADER_NV,
      [&](DeviceData &D, uint32_t N, const VkComputePipelineCreateInfo *Use,
          VkPipeline *Out, bool) {
        return D.CreateComputePipelines(Device, Cache, N, Use, Alloc, Out);
      },
      [](StageRewriter &R, VkComputePipelineCreateInfo &I, bool &Failed) {
        if (const auto *S = R.rewrite(&I.stage, 1, Failed))
          I.stage = *S;
      });
}

VKAPI_ATTR VkResult VKAPI_CALL CreateGraphicsPipelines(
    VkDevice Device, VkPipelineCache Cache, uint32_t Count,
    const VkGraphicsPipelineCreateInfo *Infos, const VkAllocationCallbacks *Alloc,
    VkPipeline *Pipelines) {
  return createPipelines(
      Device, Count, Infos, Pipelines, "vkCreateGraphicsPipelines",
      VK_ERROR_INVALID_SHADER_NV,
      [&](DeviceData &D, uint32_t N, const VkGraphicsPipelineCreateInfo *Use,
          VkPipeline *Out, bool) {
        return D.CreateGraphicsPipelines(Device, Cache, N, Use, Alloc, Out);
      },
      rewriteStages<VkGraphicsPipelineCreateInfo>);
}

// A deferred operation may read the create infos after the call returns,
// and the lowered copies (and the layer's copies of the stages' chains) last
// only for the call.  So where a stage was rewritten, the pipelines are
// created at once, with no deferred operation below, and the call reports
// VK_OPERATION_NOT_DEFERRED_KHR as a driver that chose not to defer does;
// the application's operation then has no command deferred on it.
// Otherwise the call goes down as the application made it.  A module that
// cannot be lowered fails its pipeline, and the call, with VK_ERROR_UNKNOWN,
// the one error this command may return for it (VK_ERROR_INVALID_SHADER_NV
// is not among its codes); the batch's other pipelines are created at once,
// from the layer's copies.
VKAPI_ATTR VkResult VKAPI_CALL CreateRayTracingPipelinesKHR(
    VkDevice Device, VkDeferredOperationKHR Deferred, VkPipelineCache Cache,
    uint32_t Count, const VkRayTracingPipelineCreateInfoKHR *Infos,
    const VkAllocationCallbacks *Alloc, VkPipeline *Pipelines) {
  return createPipelines(
      Device, Count, Infos, Pipelines, "vkCreateRayTracingPipelinesKHR",
      VK_ERROR_UNKNOWN,
      [&](DeviceData &D, uint32_t N, const VkRayTracingPipelineCreateInfoKHR *Use,
          VkPipeline *Out, bool Copied) {
        if (!Copied)
          return D.CreateRayTracingPipelinesKHR(Device, Deferred, Cache, Count,
                                                Infos, Alloc, Pipelines);
        VkResult Res = D.CreateRayTracingPipelinesKHR(
            Device, VK_NULL_HANDLE, Cache, N, Use, Alloc, Out);
        return Deferred != VK_NULL_HANDLE && Res == VK_SUCCESS
                   ? VK_OPERATION_NOT_DEFERRED_KHR
                   : Res;
      },
      rewriteStages<VkRayTracingPipelineCreateInfoKHR>);
}

// VK_NV_ray_tracing's command has no deferred operation, and
// VK_ERROR_INVALID_SHADER_NV among its codes.
VKAPI_ATTR VkResult VKAPI_CALL CreateRayTracingPipelinesNV(
    VkDevice Device, VkPipelineCache Cache, uint32_t Count,
    const VkRayTracingPipelineCreateInfoNV *Infos,
    const VkAllocationCallbacks *Alloc, VkPipeline *Pipelines) {
  return createPipelines(
      Device, Count, Infos, Pipelines, "vkCreateRayTracingPipelinesNV",
      VK_ERROR_INVALID_SHADER_NV,
      [&](DeviceData &D, uint32_t N, const VkRayTracingPipelineCreateInfoNV *Use,
          VkPipeline *Out, bool) {
        return D.CreateRayTracingPipelinesNV(Device, Cache, N, Use, Alloc, Out);
      },
      rewriteStages<VkRayTracingPipelineCreateInfoNV>);
}

namespace {
/// VK_SHADER_CREATE_LINK_STAGE_BIT_EXT (ShaderObjectApi.h declares no flag
/// bits for older headers).
constexpr VkShaderCreateFlagsEXT ShaderLinkStageBit = 0x1;

/// vkCreateShadersEXT where shader \p Failed cannot be lowered: every
/// handle comes back null or valid, and the first null one is the shader
/// the error is about (Vulkan's words), so the shaders before it are
/// created (\p Copies, already lowered) and the others are null.  Linked
/// shaders (LINK_STAGE) are made together or not at all: with any in the
/// call, none is created.
VkResult createShadersBefore(DeviceData &D, VkDevice Device, uint32_t Failed,
                             const std::vector<VkShaderCreateInfoEXT> &Copies,
                             const VkAllocationCallbacks *Alloc, VkShaderEXT *Shaders,
                             uint32_t Count) {
  for (uint32_t J = 0; J < Count; ++J)
    Shaders[J] = VK_NULL_HANDLE;
  const bool Linked = std::any_of(Copies.begin(), Copies.end(), [](const auto &I) {
    return (I.flags & ShaderLinkStageBit) != 0;
  });
  if (Failed == 0 || Linked)
    return VK_ERROR_INITIALIZATION_FAILED;
  const VkResult Res = D.CreateShadersEXT(Device, Failed, Copies.data(), Alloc, Shaders);
  return Res < 0 ? Res : VK_ERROR_INITIALIZATION_FAILED;
}

VkResult createShaders(DeviceData &D, VkDevice Device, uint32_t Count,
                       const VkShaderCreateInfoEXT *Infos, const VkAllocationCallbacks *Alloc,
                       VkShaderEXT *Shaders) {
  std::vector<VkShaderCreateInfoEXT> Copies(Infos, Infos + Count);
  std::vector<std::vector<uint32_t>> Code(Count);
  for (uint32_t K = 0; K < Count; ++K) {
    if (Copies[K].codeType != VK_SHADER_CODE_TYPE_SPIRV_EXT)
      continue;
    Outcome O = lowerModule(D, Copies[K].pCode, Copies[K].codeSize,
                            "vkCreateShadersEXT", Code[K]);
    if (O == Outcome::Failed)
      return createShadersBefore(D, Device, K, Copies, Alloc, Shaders, Count);
    if (O == Outcome::Lowered) {
      Copies[K].pCode = Code[K].data();
      Copies[K].codeSize = Code[K].size() * 4;
    }
    dumpModule(Copies[K].pCode, Copies[K].codeSize);
  }
  return D.CreateShadersEXT(Device, Count, Copies.data(), Alloc, Shaders);
}
} // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateShadersEXT(
    VkDevice Device, uint32_t Count, const VkShaderCreateInfoEXT *Infos,
    const VkAllocationCallbacks *Alloc, VkShaderEXT *Shaders) {
  DeviceData *D = deviceOf(Device);
  if (!D || !D->CreateShadersEXT)
    return VK_ERROR_INITIALIZATION_FAILED;
  return guarded(
      "vkCreateShadersEXT", D->Instance,
      [&] { return createShaders(*D, Device, Count, Infos, Alloc, Shaders); },
      [&](Thrown T) {
        return nullHandles(Shaders, Count, T, VK_ERROR_INITIALIZATION_FAILED);
      });
}

// The identifier of a create info is that of the module the driver would be
// given for it, so that it equals vkGetShaderModuleIdentifierEXT's for the
// module created from the same create info (the driver's caches key
// pipelines by it).  A module that cannot be lowered keeps its own code's
// identifier: no pipeline is ever made from it through the layer.  (Its
// refusal is reported when it is created, not here.)  Where the lowering
// throws (the command has no error to return), the identifier is that of
// the application's own code, which the layer never hands the driver: a
// pipeline created from that identifier alone misses the driver's cache
// (VK_PIPELINE_COMPILE_REQUIRED) rather than getting other code.
VKAPI_ATTR void VKAPI_CALL GetShaderModuleCreateInfoIdentifierEXT(
    VkDevice Device, const VkShaderModuleCreateInfo *Info,
    VkShaderModuleIdentifierEXT *Identifier) {
  DeviceData *D = deviceOf(Device);
  if (!D || !D->GetShaderModuleCreateInfoIdentifierEXT)
    return;
  guarded(
      "vkGetShaderModuleCreateInfoIdentifierEXT", D->Instance,
      [&] {
        std::vector<uint32_t> Words;
        VkShaderModuleCreateInfo Copy = *Info;
        if (lowerModule(*D, Info->pCode, Info->codeSize, nullptr, Words) ==
            Outcome::Lowered) {
          Copy.pCode = Words.data();
          Copy.codeSize = Words.size() * 4;
        }
        D->GetShaderModuleCreateInfoIdentifierEXT(Device, &Copy, Identifier);
      },
      [&](Thrown) { D->GetShaderModuleCreateInfoIdentifierEXT(Device, Info, Identifier); });
}

} // namespace fatomic::layer
