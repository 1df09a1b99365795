#!/usr/bin/env bash
# Installs fatomic into a temporary prefix and uses it the way other projects
# do: find_package(fatomic) from CMake (also from a project in C alone),
# pkg-config, the add_custom_command recipe, the LLVM plugin from opt-22, and
# tools/fatomic-engine-example built on its own.
#
# usage: install-test.sh package <source-dir> <build-dir> <work-dir>
#            installs <build-dir> (the static libraries, the tools, the plugin)
#        install-test.sh shared <source-dir> <work-dir>
#            configures and builds fatomic with FATOMIC_BUILD_SHARED=ON in
#            <work-dir>, installs it and links the C consumer to libfatomic.so
#
# Every step prints what it does; any failure stops the script (exit 1).
set -euo pipefail

mode=$1
src=$2
if [ "$mode" = package ]; then
  build=$3
  work=$4
else
  work=$3
fi
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
validate() { python3 "$src/test/utils/validate_spv.py" vulkan1.2 "$@"; }
count() { spirv-dis "$2" | grep -c -E "$1" || true; }
step() { echo "== $*"; }

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
launcher=()
command -v ccache >/dev/null &&
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

if [ "$mode" = shared ]; then
  step "configure and build fatomic with FATOMIC_BUILD_SHARED=ON"
  build=$work/build
  cmake -S "$src" -B "$build" "${generator[@]}" "${launcher[@]}" \
    -DCMAKE_BUILD_TYPE=Release -DFATOMIC_BUILD_SHARED=ON \
    -DFATOMIC_ENABLE_LLVM=OFF -DFATOMIC_BUILD_TESTS=OFF \
    -DFATOMIC_BUILD_EXAMPLES=OFF >/dev/null
  cmake --build "$build" >/dev/null
fi

step "cmake --install into $prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$prefix/lib
expect=(bin/fatomic-opt include/fatomic/fatomic.h
        include/fatomic/LowerFloatAtomicMinMax.h include/fatomic/Options.h
        include/fatomic/Target.h lib/libfatomic_spirv.a lib/libfatomic_core.a
        lib/cmake/fatomic/fatomicConfig.cmake
        lib/cmake/fatomic/fatomicConfigVersion.cmake
        lib/pkgconfig/fatomic.pc share/man/man1/fatomic-opt.1)
if [ "$mode" = package ]; then
  expect+=(lib/libFatomicLLVMPlugin.so lib/libfatomic_llvm.a
           include/fatomic/LLVM/LowerFloatAtomicMinMax.h)
else
  expect+=(lib/libfatomic.so lib/libfatomic.so.0)
fi
# The Vulkan layer, as an explicit layer (lib/Layer).
expect+=(lib/libVkLayer_FATOMIC_float_atomic_minmax.so
         share/vulkan/explicit_layer.d/VkLayer_FATOMIC_float_atomic_minmax.json)
for f in "${expect[@]}"; do
  [ -e "$prefix/$f" ] || { echo "missing from the install: $f"; exit 1; }
done
echo "installed: ${#expect[@]} expected files present"

# The shader every consumer lowers.
glslangValidator --quiet --target-env vulkan1.2 -V \
  "$src/test/install/consumer/bounds.comp" -o "$work/bounds.spv"
[ "$(count 'OpAtomicF(Min|Max)EXT' "$work/bounds.spv")" = 2 ]

step "find_package(fatomic CONFIG REQUIRED) in test/install/consumer"
cmake -S "$src/test/install/consumer" -B "$work/consumer" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" | grep 'fatomic '
cmake --build "$work/consumer" >/dev/null
consumer=$work/consumer

# project(... C): the program links with the C compiler, so the static
# targets must bring the C++ runtime themselves (libstdc++, libm).
step "find_package(fatomic) in a C-only project (test/install/consumer-c-only)"
cmake -S "$src/test/install/consumer-c-only" -B "$work/consumer-c-only" \
  "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  >/dev/null
cmake --build "$work/consumer-c-only" >"$work/consumer-c-only.log" 2>&1 ||
  { cat "$work/consumer-c-only.log"; exit 1; }
"$work/consumer-c-only/consumer-c-only" "$work/bounds.spv" "$work/c-only.spv" |
  tee "$work/c-only.log"
grep -q 'lowered 2 float atomic min/max' "$work/c-only.log"
validate "$work/c-only.spv"
[ "$(count 'OpAtomicF(Min|Max)EXT' "$work/c-only.spv")" = 0 ]

if [ "$mode" = package ]; then
  step "run the C++ consumer (fatomic::spirv)"
  "$consumer/consumer" "$work/bounds.spv" "$work/cxx.spv" \
    "$src/test/data/profiles/nvidia-h200.json" | tee "$work/cxx.log"
  grep -q 'lowered 2 float atomic min/max' "$work/cxx.log"
  validate "$work/cxx.spv"
  [ "$(count 'OpAtomicF(Min|Max)EXT' "$work/cxx.spv")" = 0 ]

  step "run the C consumer (fatomic.h, static library)"
  "$consumer/consumer-c" "$work/bounds.spv" "$work/c.spv" | tee "$work/c.log"
  grep -q 'lowered 2 float atomic min/max' "$work/c.log"
  validate "$work/c.spv"

  step "the add_custom_command rule lowered bounds.comp at build time"
  validate "$consumer/bounds.spv"
  [ "$(count 'OpAtomicF(Min|Max)EXT' "$consumer/bounds.spv")" = 0 ]
  [ "$(count 'OpAtomic[SU](Min|Max)' "$consumer/bounds.spv")" -ge 2 ]
  echo "bounds.spv: valid, float min/max lowered"

  step "the installed plugin from opt-22 (\$<TARGET_FILE:fatomic::LLVMPlugin>)"
  plugin=$(cat "$consumer/llvm-plugin.txt")
  [ "$plugin" = "$libdir/libFatomicLLVMPlugin.so" ]
  printf '%s\n' 'define float @f(ptr %p, float %v) {' \
    '  %r = atomicrmw fmin ptr %p, float %v monotonic, align 4' \
    '  ret float %r' '}' > "$work/f.ll"
  opt-22 -load-pass-plugin="$plugin" -passes='lower-float-atomic-minmax' \
    "$work/f.ll" -S -o "$work/f.out.ll"
  if grep -q 'atomicrmw fmin' "$work/f.out.ll"; then exit 1; fi
  grep -q 'atomicrmw min' "$work/f.out.ll"
  echo "opt-22: atomicrmw fmin lowered to atomicrmw min/umax"

  step "pkg-config fatomic: a C program"
  export PKG_CONFIG_PATH=$libdir/pkgconfig
  pkg-config --modversion fatomic
  # shellcheck disable=SC2046
  cc -std=c99 -o "$work/consumer-pc" "$src/test/install/consumer/consumer.c" \
    $(pkg-config --cflags --libs fatomic)
  # With FATOMIC_BUILD_SHARED the .pc file links libfatomic.so.
  LD_LIBRARY_PATH=$libdir "$work/consumer-pc" "$work/bounds.spv" "$work/pc.spv"
  validate "$work/pc.spv"

  step "tools/fatomic-engine-example built on its own against the install"
  cmake -S "$src/tools/fatomic-engine-example" -B "$work/engine" "${generator[@]}" \
    "${launcher[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
    >/dev/null
  cmake --build "$work/engine" >/dev/null
  "$work/engine/fatomic-engine-example" \
    --profile="$src/test/data/profiles/nvidia-h200.json" \
    "$src/test/install/consumer/bounds.comp" "$work/engine.spv"
  validate "$work/engine.spv"
  [ "$(count 'OpAtomicF(Min|Max)EXT' "$work/engine.spv")" = 0 ]

  lvp=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
  if [ -f "$lvp" ] && [ -x "$build/bin/fatomic-layer-probe" ]; then
    step "the installed layer from its manifest (VK_ADD_LAYER_PATH), on lavapipe"
    VK_ICD_FILENAMES=$lvp VK_DRIVER_FILES=$lvp \
      VK_ADD_LAYER_PATH=$prefix/share/vulkan/explicit_layer.d \
      VK_INSTANCE_LAYERS=VK_LAYER_FATOMIC_float_atomic_minmax \
      VK_LOADER_DEBUG=layer "$build/bin/fatomic-layer-probe" >"$work/layer.log" 2>&1
    grep -q "$prefix/share/vulkan/explicit_layer.d/../../../lib/libVkLayer_FATOMIC_float_atomic_minmax.so" \
      "$work/layer.log"
    grep -q 'shaderBufferFloat64AtomicMinMax = 1' "$work/layer.log"
    echo "the loader found the installed layer; f64 min/max reported"
  fi
else
  step "run the C consumer linked to libfatomic.so (fatomic::shared)"
  ldd "$consumer/consumer-c-shared" | grep 'libfatomic.so.0'
  "$consumer/consumer-c-shared" "$work/bounds.spv" "$work/shared.spv"
  validate "$work/shared.spv"
  [ "$(count 'OpAtomicF(Min|Max)EXT' "$work/shared.spv")" = 0 ]

  step "libfatomic.so exports the public C and C++ API and nothing else"
  bash "$src/test/install/check-exports.sh" "$libdir/libfatomic.so" \
    "$src/test/install/libfatomic-exports.txt"

  step "pkg-config fatomic: a C program against libfatomic.so"
  export PKG_CONFIG_PATH=$libdir/pkgconfig
  # shellcheck disable=SC2046
  cc -std=c99 -o "$work/consumer-pc" "$src/test/install/consumer/consumer.c" \
    $(pkg-config --cflags --libs fatomic)
  LD_LIBRARY_PATH=$libdir "$work/consumer-pc" "$work/bounds.spv" "$work/pc.spv"
  validate "$work/pc.spv"
fi
echo "install test ($mode): passed"
