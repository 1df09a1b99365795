#!/usr/bin/env bash
# Installs the dependencies, builds fatomic, and lowers the bundled example
# shader for a target without float atomic min/max (such as NVIDIA's Vulkan
# driver), then validates and summarizes the result.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build

out=build/example
mkdir -p "$out"
src=examples/luminance_bounds.comp
echo
echo "== glslangValidator: $src -> $out/in.spv"
glslangValidator --target-env vulkan1.2 -V "$src" -o "$out/in.spv" >/dev/null
echo "== fatomic-opt: lower float atomic min/max for a device without them"
build/bin/fatomic-opt "$out/in.spv" \
  --target-profile=test/data/profiles/nvidia-h200.json \
  --lower-float-atomic-minmax -O -o "$out/out.spv"
echo "== spirv-val --target-env vulkan1.2 $out/out.spv"
spirv-val --target-env vulkan1.2 "$out/out.spv"
spirv-dis "$out/out.spv" -o "$out/out.spvasm"
python3 test/utils/check_no_logical_ptr_bitcast.py "$out/out.spvasm"

count() { grep -c -E "$1" "$2" || true; }
spirv-dis "$out/in.spv" -o "$out/in.spvasm"
printf '\n%-40s %8s %8s\n' "" "before" "after"
for pat in "OpAtomicFMinEXT|OpAtomicFMaxEXT" "OpAtomic[SU](Min|Max)" "OpAtomicLoad" \
           "OpAtomicCompareExchange" "AtomicFloat32MinMaxEXT"; do
  printf '%-40s %8s %8s\n' "$pat" "$(count "$pat" "$out/in.spvasm")" "$(count "$pat" "$out/out.spvasm")"
done
echo
echo "valid for vulkan1.2, no float min/max atomics left, no pointer bitcasts: $out/out.spvasm"
