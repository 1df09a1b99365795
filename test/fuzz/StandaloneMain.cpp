//===- StandaloneMain.cpp - Runs a fuzz target over files, without libFuzzer ===//
//
//   fuzz-<target> FILE|DIR...
//
// Builds without libFuzzer link the fuzz targets with this main, so that the
// regression inputs (test/fuzz/regressions) run in every build: each file,
// and each file directly inside a directory, goes once through
// LLVMFuzzerTestOneInput.  A broken invariant aborts; exit 0 otherwise.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);

int main(int Argc, char **Argv) {
  namespace fs = std::filesystem;
  if (Argc < 2) {
    std::fprintf(stderr, "usage: %s FILE|DIR...\n", Argv[0]);
    return 1;
  }
  std::vector<fs::path> Files;
  for (int I = 1; I < Argc; ++I) {
    const fs::path P(Argv[I]);
    std::error_code EC;
    if (fs::is_directory(P, EC)) {
      for (const fs::directory_entry &E : fs::directory_iterator(P))
        if (E.is_regular_file())
          Files.push_back(E.path());
    } else if (fs::is_regular_file(P, EC)) {
      Files.push_back(P);
    } else {
      std::fprintf(stderr, "%s: no such file or directory\n", Argv[I]);
      return 1;
    }
  }
  std::sort(Files.begin(), Files.end());
  for (const fs::path &F : Files) {
    std::ifstream In(F, std::ios::binary);
    if (!In) {
      std::fprintf(stderr, "%s: cannot open\n", F.c_str());
      return 1;
    }
    const std::vector<char> Data((std::istreambuf_iterator<char>(In)),
                                 std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(Data.data()),
                           Data.size());
  }
  std::printf("%zu input(s) ran without a finding\n", Files.size());
  return 0;
}
