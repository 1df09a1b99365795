//===- fatomic-bench-layer.cpp - vkCreateShaderModule with and without the layer
//
//   fatomic-bench-layer [--layer] [--runs N] MODULE.spv...
//
// Creates a Vulkan instance (with VK_LAYER_FATOMIC_float_atomic_minmax
// enabled by --layer; the loader must find it, e.g. VK_ADD_LAYER_PATH), a
// device with every float atomic min/max feature the device reports, then
// times vkCreateShaderModule + vkDestroyShaderModule on each MODULE, N times
// (default 50), and prints the median, minimum and maximum of the create
// call in microseconds.  The layer's settings (FATOMIC_LAYER_FORCE,
// FATOMIC_LAYER_OPTIONS) come from the environment as usual.
// tools/bench-layer/bench-layer.sh makes the modules and runs every
// configuration.
//
//===----------------------------------------------------------------------===//

#include <vulkan/vulkan.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {
struct Bench {
  VkInstance Instance = VK_NULL_HANDLE;
  VkDevice Device = VK_NULL_HANDLE;

  ~Bench() {
    if (Device)
      vkDestroyDevice(Device, nullptr);
    if (Instance)
      vkDestroyInstance(Instance, nullptr);
  }

  bool createInstance(bool Layer) {
    VkApplicationInfo App{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    App.pApplicationName = "fatomic-bench-layer";
    App.apiVersion = VK_API_VERSION_1_2;
    const char *Name = "VK_LAYER_FATOMIC_float_atomic_minmax";
    VkInstanceCreateInfo CI{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    CI.pApplicationInfo = &App;
    CI.enabledLayerCount = Layer ? 1 : 0;
    CI.ppEnabledLayerNames = &Name;
    VkResult R = vkCreateInstance(&CI, nullptr, &Instance);
    if (R != VK_SUCCESS)
      std::fprintf(stderr, "vkCreateInstance: VkResult %d%s\n", R,
                   Layer ? " (is the layer on VK_ADD_LAYER_PATH?)" : "");
    return R == VK_SUCCESS;
  }

  bool createDevice() {
    uint32_t N = 1;
    VkPhysicalDevice Phys;
    if (vkEnumeratePhysicalDevices(Instance, &N, &Phys) < 0 || N == 0)
      return false;
    VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT F2{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT};
    VkPhysicalDeviceFeatures2 F{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &F2};
    vkGetPhysicalDeviceFeatures2(Phys, &F);
    VkPhysicalDeviceFeatures2 Enable{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &F2};
    Enable.features.shaderInt64 = F.features.shaderInt64;
    const char *Exts[] = {VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME,
                          VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME};
    float Priority = 1.0f;
    VkDeviceQueueCreateInfo Q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    Q.queueCount = 1;
    Q.pQueuePriorities = &Priority;
    VkDeviceCreateInfo CI{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &Enable};
    CI.queueCreateInfoCount = 1;
    CI.pQueueCreateInfos = &Q;
    CI.enabledExtensionCount = 2;
    CI.ppEnabledExtensionNames = Exts;
    VkResult R = vkCreateDevice(Phys, &CI, nullptr, &Device);
    if (R != VK_SUCCESS)
      std::fprintf(stderr, "vkCreateDevice: VkResult %d\n", R);
    return R == VK_SUCCESS;
  }

  /// Microseconds of each vkCreateShaderModule call; empty on failure.
  std::vector<double> time(const std::vector<uint32_t> &Words, unsigned Runs) {
    std::vector<double> Us;
    VkShaderModuleCreateInfo CI{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    CI.codeSize = Words.size() * 4;
    CI.pCode = Words.data();
    for (unsigned K = 0; K < Runs; ++K) {
      VkShaderModule M;
      auto T0 = std::chrono::steady_clock::now();
      VkResult R = vkCreateShaderModule(Device, &CI, nullptr, &M);
      auto T1 = std::chrono::steady_clock::now();
      if (R != VK_SUCCESS)
        return {};
      vkDestroyShaderModule(Device, M, nullptr);
      Us.push_back(std::chrono::duration<double, std::micro>(T1 - T0).count());
    }
    return Us;
  }
};

bool readWords(const char *Path, std::vector<uint32_t> &Words) {
  std::ifstream In(Path, std::ios::binary);
  std::string Bytes((std::istreambuf_iterator<char>(In)), {});
  if (!In.good() && !In.eof())
    return false;
  Words.resize(Bytes.size() / 4);
  std::memcpy(Words.data(), Bytes.data(), Words.size() * 4);
  return !Words.empty();
}
} // namespace

int main(int Argc, char **Argv) {
  bool Layer = false;
  unsigned Runs = 50;
  std::vector<const char *> Paths;
  for (int K = 1; K < Argc; ++K) {
    if (!std::strcmp(Argv[K], "--layer"))
      Layer = true;
    else if (!std::strcmp(Argv[K], "--runs") && K + 1 < Argc)
      Runs = static_cast<unsigned>(std::atoi(Argv[++K]));
    else if (Argv[K][0] == '-' || Runs == 0) {
      std::fprintf(stderr, "usage: fatomic-bench-layer [--layer] [--runs N] MODULE.spv...\n");
      return 1;
    } else
      Paths.push_back(Argv[K]);
  }
  Bench B;
  if (!B.createInstance(Layer) || !B.createDevice())
    return 2;
  for (const char *P : Paths) {
    std::vector<uint32_t> Words;
    if (!readWords(P, Words)) {
      std::fprintf(stderr, "%s: cannot read\n", P);
      return 1;
    }
    std::vector<double> Us = B.time(Words, Runs);
    if (Us.empty()) {
      std::printf("%s: vkCreateShaderModule failed\n", P);
      return 1;
    }
    std::sort(Us.begin(), Us.end());
    std::printf("%s: %zu bytes, %s: median %.1f us, min %.1f, max %.1f (%u runs)\n",
                P, Words.size() * 4, Layer ? "layer" : "driver", Us[Us.size() / 2],
                Us.front(), Us.back(), Runs);
  }
  return 0;
}
