#!/usr/bin/env bash
# Builds fatomic (if needed) and runs the whole test suite twice:
#
#  1. the Release build (build/): unit tests, lit (SPIR-V and LLVM),
#     execution and differential tests on lavapipe, the fuzz regression
#     inputs and seeds;
#  2. the sanitizer stage, CMake preset "sanitize" (build-sanitize/, clang-22,
#     ASan+UBSan, docs/robustness.md): the same suite except what needs the
#     LLVM plugin, plus a timed libFuzzer run of each fuzz target.
#
# FATOMIC_SKIP_SANITIZE=1 runs the first stage only.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== stage 1: Release build and tests (build/)"
[ -f build/CMakeCache.txt ] || cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build
(cd build && ctest --output-on-failure -j2)

if [ "${FATOMIC_SKIP_SANITIZE:-0}" = 1 ]; then
  echo "== stage 2 (sanitizers) skipped: FATOMIC_SKIP_SANITIZE=1"
  exit 0
fi
echo "== stage 2: ASan+UBSan build and tests, timed fuzz runs (build-sanitize/)"
[ -f build-sanitize/CMakeCache.txt ] || cmake --preset sanitize >/dev/null
cmake --build --preset sanitize
ctest --preset sanitize
