// Lowers a SPIR-V file with the installed C++ library and validates it.
// usage: consumer <in.spv> <out.spv> [<vulkan-profile.json>]
#include <fatomic/LowerFloatAtomicMinMax.h>

#include <spirv-tools/libspirv.hpp>

#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4) {
    std::cerr << "usage: consumer <in.spv> <out.spv> [<profile.json>]\n";
    return 1;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
  std::vector<uint32_t> words(bytes.size() / 4);
  std::copy(bytes.begin(), bytes.begin() + words.size() * 4,
            reinterpret_cast<char *>(words.data()));

  fatomic::TargetModel target;
  if (argc == 4) {
    std::string error;
    auto profile = fatomic::loadProfileFile(argv[3], error);
    if (!profile) {
      std::cerr << "error: " << error << '\n';
      return 1;
    }
    target = *profile;
  }
  fatomic::LowerFloatAtomicMinMaxPass pass({}, target);
  pass.SetMessageConsumer([](spv_message_level_t, const char *,
                             const spv_position_t &, const char *text) {
    std::cerr << "error: " << text << '\n';
  });
  if (pass.Process(words) == fatomic::PassStatus::Failure)
    return 1;

  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  if (!tools.Validate(words)) {
    std::cerr << "error: the lowered module does not validate\n";
    return 1;
  }
  std::ofstream out(argv[2], std::ios::binary);
  out.write(reinterpret_cast<const char *>(words.data()),
            std::streamsize(words.size() * 4));
  std::cout << "consumer: lowered " << pass.loweredCount()
            << " float atomic min/max\n";
  return out ? 0 : 1;
}
