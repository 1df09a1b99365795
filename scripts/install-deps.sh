#!/usr/bin/env bash
# Installs fatomic's build and test dependencies from Debian 12 packages.
# Idempotent and non-interactive; run as root (or through sudo).
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config man-db
  spirv-tools spirv-headers
  llvm-22-dev llvm-22-tools clang-22
  libclang-rt-22-dev  # ASan/UBSan and libFuzzer runtimes: the sanitizer stage
  glslang-tools glslang-dev
  libgtest-dev nlohmann-json3-dev
  python3-matplotlib
  mesa-vulkan-drivers libvulkan-dev vulkan-tools
  vulkan-validationlayers  # test/layer: what the layer calls is checked against Vulkan's rules
  python3-numpy
  zstd  # tools/gpubench/nvidia-sass.py and its test
  strace  # test/tools/fatomic-opt/output/interrupt.test stops the tool at a system call
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
