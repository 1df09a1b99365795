#!/usr/bin/env bash
# The GPU benchmark of float atomic max (tools/gpubench/README.md), in two
# steps: a bundle made on a build machine, and a run on the GPU machine, which
# needs nothing but python3, the bundle and a Vulkan loader.
#
#   tools/gpubench/run-gpubench.sh bundle
#       On a build machine: builds fatomic-opt and fatomic-gpubench (build/,
#       or $FATOMIC_BUILD_DIR), then fills build/gpubench-bundle: every
#       variant generated, compiled with glslangValidator, lowered with
#       fatomic-opt and validated with spirv-val (gpubench.py prepare),
#       bin/fatomic-gpubench, and fallback copies of libstdc++/libgcc_s.
#       Downloads into .gl/ the Debian packages of the Vulkan loader and of
#       libglvnd, which NVIDIA's ICD needs, where they are not there yet.
#
#   tools/gpubench/run-gpubench.sh run [--quick] [gpubench.py run options]
#       On the GPU machine (or anywhere): installs the carried packages of
#       .gl/*.deb whose libraries are missing (as root), points the loader at
#       the NVIDIA ICD when it finds no device by itself, stops with a plain
#       "no Vulkan device found" message (exit 1) when there is still none,
#       and runs the whole matrix from the bundle (gpubench.py run).  Results go to
#       $OUT (else build/gpubench-out): gpubench-results.json, gpubench.log
#       (device, every task, a summary); progress goes to stderr.  --quick
#       runs small dispatches; `gpubench.py run --help` lists the size and
#       matrix options.  Exit status: gpubench.py's (0 every task ok).
#
# With the project's device tool, for example:
#   here:   tools/gpubench/run-gpubench.sh bundle
#   there:  carry ["build/gpubench-bundle", ".gl"],
#           command "tools/gpubench/run-gpubench.sh run"
# Then, here: python3 tools/gpubench/report.py RESULTS.json (docs/).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${FATOMIC_BUILD_DIR:-$ROOT/build}
BUNDLE=$BUILD/gpubench-bundle

. "$ROOT/scripts/gpu-machine.sh"
gpu_script_messages run-gpubench.sh

python() { "$(gpu_python)" "$@"; }

do_bundle() {
  command -v cmake >/dev/null || die "cmake not found: the bundle is made on a build machine"
  gpu_build "$ROOT" "$BUILD" -DCMAKE_BUILD_TYPE=Release -DFATOMIC_ENABLE_LLVM=OFF \
    -- fatomic-opt fatomic-gpubench
  rm -rf "$BUNDLE"
  mkdir -p "$BUNDLE/bin" "$BUNDLE/lib-fallback"
  python "$ROOT/tools/gpubench/gpubench.py" prepare --out "$BUNDLE" --build-dir "$BUILD"
  cp "$BUILD/bin/fatomic-gpubench" "$BUNDLE/bin/"
  # Fallback C++ runtime, used only if the GPU machine's is too old.
  bundle_cxx_runtime "$BUILD/bin/fatomic-gpubench" "$BUNDLE/lib-fallback"
  # zstd for nvidia-sass.py, which the GPU machine may lack.
  if command -v zstd >/dev/null; then cp "$(command -v zstd)" "$BUNDLE/bin/"; fi
  bundle_vulkan_loader "$ROOT"
  du -sh "$BUNDLE" "$ROOT/.gl" 2>/dev/null >&2 || true
  say "bundle ready: $BUNDLE"
  say "on the GPU machine: carry build/gpubench-bundle and .gl; run: tools/gpubench/run-gpubench.sh run"
}

do_run() {
  local out=${OUT:-$BUILD/gpubench-out}
  local bench=$BUNDLE/bin/fatomic-gpubench
  [ -x "$bench" ] || die "$bench not found: run '$0 bundle' on a build machine and carry build/gpubench-bundle"
  mkdir -p "$out"
  # The bundled C++ runtime if needed, a Vulkan loader, a device.
  gpu_environment "$ROOT" "$BUNDLE/lib-fallback" "$bench" ||
    die "no Vulkan device: nothing was measured"
  {
    echo "== VK_ICD_FILENAMES=${VK_ICD_FILENAMES:-} VK_DRIVER_FILES=${VK_DRIVER_FILES:-}"
    command -v nvidia-smi >/dev/null && nvidia-smi -L || true
    "$bench" --list-devices || true
  } 2>&1 | tee "$out/devices.txt" >&2
  PYTHONUNBUFFERED=1 python "$ROOT/tools/gpubench/gpubench.py" run --bundle "$BUNDLE" --out "$out" "$@"
}

case "${1:-}" in
  bundle) shift; do_bundle "$@" ;;
  run) shift; do_run "$@" ;;
  -h|--help|"") sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; [ -n "${1:-}" ] ;;
  *) die "unknown command '$1' (bundle or run; see --help)" ;;
esac
