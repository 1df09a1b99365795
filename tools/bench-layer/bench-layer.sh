#!/usr/bin/env bash
# Times vkCreateShaderModule with and without VK_LAYER_FATOMIC_float_atomic_minmax
# on two modules of tools/bench-compile/gen_atomics.py's shader with N atomics
# (default 20000): the benchmark shader itself (f32 float atomic min/max on
# a storage buffer and a Workgroup array) and the same shader with every
# min/max made an OpAtomicExchange and the float min/max capability and
# extension removed (no float atomic min/max), and a small module (two
# atomics, made an exchange likewise).  Configurations: the driver
# alone; through the layer; through the layer with FATOMIC_LAYER_FORCE=1
# (every min/max lowered even where the driver has it).
#
#   tools/bench-layer/bench-layer.sh [BUILD] [N] [RUNS]
#
# Uses whatever Vulkan device the loader gives (VK_ICD_FILENAMES to choose).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
N=${2:-20000}
RUNS=${3:-50}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

python3 "$ROOT/tools/bench-compile/gen_atomics.py" "$N" > "$WORK/minmax.spvasm"
python3 "$ROOT/tools/bench-compile/gen_atomics.py" 2 > "$WORK/tiny.spvasm"
for m in plain small; do
  src=minmax; [ $m = small ] && src=tiny
  sed -e 's/OpAtomicF\(Min\|Max\)EXT/OpAtomicExchange/' \
      -e '/AtomicFloat32MinMaxEXT/d' -e '/SPV_EXT_shader_atomic_float_min_max/d' \
      "$WORK/$src.spvasm" > "$WORK/$m.spvasm"
done
for m in minmax plain small; do
  spirv-as --target-env vulkan1.2 "$WORK/$m.spvasm" -o "$WORK/$m.spv"
  spirv-val --target-env vulkan1.2 "$WORK/$m.spv"
done
cd "$WORK"
BENCH=$BUILD/bin/fatomic-bench-layer
export VK_ADD_LAYER_PATH=$BUILD/layer
echo "== $N atomics; $("$BUILD/bin/fatomic-vkrun" --list-devices 2>&1 | head -1)"
"$BENCH" --runs "$RUNS" small.spv plain.spv minmax.spv
"$BENCH" --layer --runs "$RUNS" small.spv plain.spv minmax.spv
echo "== FATOMIC_LAYER_FORCE=1"
FATOMIC_LAYER_FORCE=1 "$BENCH" --layer --runs "$RUNS" small.spv plain.spv minmax.spv
