#!/usr/bin/env bash
# Builds fatomic (if needed) and runs the whole test suite: unit tests, lit
# (SPIR-V and LLVM), and execution tests on lavapipe.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/CMakeCache.txt ] || cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build
cd build
ctest --output-on-failure -j2
