#!/usr/bin/env bash
# Runs the execution suite's original shaders through the Vulkan layer
# VK_LAYER_FATOMIC_float_atomic_minmax on whatever Vulkan device the loader
# finds: the NVIDIA GPU on the GPU machine (exec_suite.py --mode layer: every
# case lowered by the layer, checked bit-exactly against the reference).
#
#   test/layer/run-nvidia-layer.sh bundle
#       On a build machine: builds (build/, or $FATOMIC_BUILD_DIR) the layer,
#       fatomic-vkrun, fatomic-exec-oracle and fatomic-layer-probe, and copies
#       into build/layer-bundle: bin/ (those, glslangValidator, spirv-val,
#       spirv-dis), layer/ (the layer and its manifest), lib-fallback/ (the
#       C++ runtime, used only if the machine's is older) and vulkan-libs/
#       (Debian's Vulkan loader and GL dispatch libraries, extracted from
#       libvulkan1, libglvnd0, libegl1, libgl1, libglx0, libopengl0 and
#       libgles2, which the NVIDIA ICD loads).
#
#   test/layer/run-nvidia-layer.sh run [--log FILE] [--jobs N] [-- EXEC_SUITE_ARGS]
#       On the GPU machine, from the repository root: uses build/layer-bundle,
#       points the loader at the NVIDIA ICD when it finds no device by
#       itself, prints the device's features without and with the layer, then
#       runs the layer suite; where the driver has VK_EXT_shader_object and
#       ray tracing pipelines, it also checks vkCreateShadersEXT and
#       vkCreateRayTracingPipelinesKHR through the layer with
#       fatomic-layer-probe (an f64 module lowered; a batch of it and an
#       f16 module creates all but the f16 one);
#       then it checks that the application's create
#       infos stay untouched (read-only chains, one create info shared by
#       eight threads), that a compute pipeline batch with an f16 module
#       creates the others, and that a create info's module identifier is
#       the lowered module's.  Pass "-- --shader-object" or
#       "-- --ray-tracing" to run the suite's cases as shader objects or ray
#       generation shaders instead.  The log goes to FILE (default
#       $OUT/layer-nvidia.log when $OUT is set, else build/layer-nvidia.log);
#       FILE's name with -detail added holds every command and its output.
#       Exit status: the suite's (0 all passed, 1 failures, 77 skipped).
#
# With the project's device tool, for example:
#   here:   test/layer/run-nvidia-layer.sh bundle
#   there:  carry ["build/layer-bundle"],
#           command "test/layer/run-nvidia-layer.sh run --log $OUT/layer-nvidia.log"
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${FATOMIC_BUILD_DIR:-$ROOT/build}
BUNDLE=$BUILD/layer-bundle
LAYER=VK_LAYER_FATOMIC_float_atomic_minmax

. "$ROOT/scripts/gpu-machine.sh"
gpu_script_messages run-nvidia-layer.sh
DEBS=$(gpu_loader_package_names)

build_tree() {
  gpu_build "$ROOT" "$BUILD" -DCMAKE_BUILD_TYPE=Release -- fatomic_layer \
    fatomic-vkrun fatomic-exec-oracle fatomic-layer-probe
}

# vulkan_libs DIR: Debian's loader and GL dispatch libraries, extracted.
vulkan_libs() {
  local dir=$1 tmp p
  tmp=$(mktemp -d)
  mkdir -p /tmp/amd64/partial
  local o=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64)
  apt-get "${o[@]}" update >/dev/null 2>&1 || true
  (cd "$tmp" && apt-get "${o[@]}" download $DEBS >/dev/null) ||
    die "could not download $DEBS"
  for p in "$tmp"/*.deb; do dpkg -x "$p" "$tmp/root"; done
  mkdir -p "$dir"
  cp -a "$tmp"/root/usr/lib/x86_64-linux-gnu/*.so* "$dir/"
  rm -rf "$tmp"
}

do_bundle() {
  build_tree
  rm -rf "$BUNDLE"
  mkdir -p "$BUNDLE/bin" "$BUNDLE/layer" "$BUNDLE/lib-fallback"
  local t
  for t in fatomic-vkrun fatomic-exec-oracle fatomic-layer-probe; do
    cp "$BUILD/bin/$t" "$BUNDLE/bin/" || die "$BUILD/bin/$t was not built"
  done
  for t in glslangValidator spirv-val spirv-dis; do
    cp "$(command -v $t)" "$BUNDLE/bin/" || die "$t not found"
  done
  cp "$BUILD/layer/VkLayer_FATOMIC_float_atomic_minmax.json" \
     "$BUILD/layer/libVkLayer_FATOMIC_float_atomic_minmax.so" "$BUNDLE/layer/"
  bundle_cxx_runtime "$BUILD/bin/fatomic-vkrun" "$BUNDLE/lib-fallback"
  vulkan_libs "$BUNDLE/vulkan-libs"
  du -sh "$BUNDLE" >&2
  say "bundle ready: $BUNDLE"
  say "on the GPU machine: carry build/layer-bundle; run: test/layer/run-nvidia-layer.sh run --log \$OUT/layer-nvidia.log"
}

# The NVIDIA ICD where the loader finds no device by itself.
find_device() {
  local vkrun=$1 icd
  "$vkrun" --list-devices 2>/dev/null | grep -q '^0: ' && return 0
  if icd=$(gpu_nvidia_icd); then
    say "no device found by default; using $icd"
    export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd
  fi
  return 0
}

# probe_checks KIND DIR PYTHON: a path of the layer other than
# vkCreateShaderModule, driven by fatomic-layer-probe: KIND shader-object
# (vkCreateShadersEXT, compute modules), ray-tracing
# (vkCreateRayTracingPipelinesKHR, ray generation modules chained into the
# stage, with a deferred operation) or ray-tracing-nv
# (vkCreateRayTracingPipelinesNV, the same without the deferred operation,
# modules of GL_NV_ray_tracing).  An f64 atomic (which NVIDIA's driver
# lacks) is lowered: the dumped module validates (test/utils/validate_spv.py)
# and keeps no float atomic; a batch of it and an f16 one (which cannot be
# lowered) fails with the message at the application's messenger, and
# only the f16 one comes back null: pipelines, because Vulkan creates a
# batch's others; shader objects, because the f16 one comes after the f64
# one (the shaders before the first null one are created).  Prints "KIND: N
# failed".
probe_checks() {
  local kind=$1 dir=$2 py=$3 probe=$BUNDLE/bin/fatomic-layer-probe bad=0 out
  local f64 f16 call made fail
  if [ "$kind" = shader-object ]; then
    f64=min-f64.comp f16=min-f16.comp call=vkCreateShadersEXT
    made="shader object" fail=VK_ERROR_INITIALIZATION_FAILED
  elif [ "$kind" = ray-tracing ]; then
    f64=max-f64.rgen f16=min-f16.rgen call=vkCreateRayTracingPipelinesKHR
    made="ray tracing pipeline" fail=VK_ERROR_UNKNOWN
  else
    f64=max-f64-nv.rgen f16=min-f16-nv.rgen call=vkCreateRayTracingPipelinesNV
    made="ray tracing pipeline" fail=VK_ERROR_INVALID_SHADER_NV
  fi
  mkdir -p "$dir/dump-f64" "$dir/dump-batch"
  glslangValidator --target-env vulkan1.2 -V "$ROOT/test/layer/Inputs/$f64" \
    -o "$dir/f64.spv" >/dev/null
  glslangValidator --target-env vulkan1.2 -V "$ROOT/test/layer/Inputs/$f16" \
    -o "$dir/f16.spv" >/dev/null
  local layer=(env VK_ADD_LAYER_PATH="$BUNDLE/layer" VK_INSTANCE_LAYERS=$LAYER)
  out=$("${layer[@]}" FATOMIC_LAYER_DUMP_DIR="$dir/dump-f64" "$probe" "--$kind" \
    "$dir/f64.spv" 2>&1) || bad=$((bad + 1))
  echo "$out"
  grep -q "f64.spv: $made: created" <<<"$out" || bad=$((bad + 1))
  # The layer lowered the module, so it created the pipeline at once for
  # the probe's deferred operation.
  if [ "$kind" = ray-tracing ]; then
    grep -q "^$call: VK_OPERATION_NOT_DEFERRED_KHR$" <<<"$out" || bad=$((bad + 1))
  fi
  if [ -f "$dir/dump-f64/module-0.spv" ]; then
    "$py" "$ROOT/test/utils/validate_spv.py" vulkan1.2 "$dir/dump-f64/module-0.spv" &&
      echo "the module handed the driver: spirv-val passed, no Logical pointer bitcast" ||
      bad=$((bad + 1))
    if spirv-dis "$dir/dump-f64/module-0.spv" | grep -E 'OpAtomicF(Min|Max)EXT'; then
      bad=$((bad + 1))
    else
      echo "the module handed the driver: no float atomic min/max left"
    fi
  else
    echo "the layer handed the driver no module"; bad=$((bad + 1))
  fi
  out=$("${layer[@]}" FATOMIC_LAYER_DUMP_DIR="$dir/dump-batch" "$probe" "--$kind" \
    "$dir/f64.spv" "$dir/f16.spv" 2>&1) && bad=$((bad + 1))
  echo "$out"
  grep -q "^$call: $fail$" <<<"$out" || bad=$((bad + 1))
  grep -q "f16.spv: $made: null" <<<"$out" || bad=$((bad + 1))
  grep -q "f64.spv: $made: created" <<<"$out" || bad=$((bad + 1))
  grep -q "debug-utils: $call: .*cannot be lowered" <<<"$out" || bad=$((bad + 1))
  echo "$kind: $bad failed"
}

# chain_checks DIR: the application's create infos stay untouched: the
# device's feature chain and a pipeline's stage chain in read-only memory,
# and one create info shared by eight threads (with a struct of a type no
# header has before the module, too), each with an f64 module the layer
# lowers (test/layer/read-only-chains.test, shared-create-info-threads.test
# on lavapipe).  Prints "chains: N failed".
chain_checks() {
  local dir=$1 probe=$BUNDLE/bin/fatomic-layer-probe bad=0 out args
  glslangValidator --target-env vulkan1.2 -V "$ROOT/test/layer/Inputs/min-f64.comp" \
    -o "$dir/f64.spv" >/dev/null
  for args in "--read-only" "--threads 8" "--threads 8 --unknown-struct"; do
    # shellcheck disable=SC2086
    out=$(VK_ADD_LAYER_PATH="$BUNDLE/layer" VK_INSTANCE_LAYERS=$LAYER \
      "$probe" $args --pipeline "$dir/f64.spv" 2>&1) || bad=$((bad + 1))
    echo "-- $args:"
    grep "f64.spv: pipeline" <<<"$out" || bad=$((bad + 1))
  done
  echo "chains: $bad failed"
}

# module_checks DIR: a compute pipeline batch with an f16 module among f64
# and f32 ones creates all but the f16 pipeline (test/layer/
# pipeline-batch.test on lavapipe); with the batch's flags in a chained
# VkPipelineCreateFlags2CreateInfoKHR, on a device with maintenance5
# enabled (lavapipe 22.3 has none), an EARLY_RETURN_ON_FAILURE batch stops
# at the refused pipeline and a pipeline deriving from it is not created;
# and the identifier of a create info is
# that of the module created from it, which the layer lowered
# (VK_EXT_shader_module_identifier; lavapipe has none).  Prints "modules: N
# failed".
module_checks() {
  local dir=$1 probe=$BUNDLE/bin/fatomic-layer-probe bad=0 out m
  for m in min-f64 min-f16 min-f32; do
    glslangValidator --target-env vulkan1.2 -V "$ROOT/test/layer/Inputs/$m.comp" \
      -o "$dir/$m.spv" >/dev/null
  done
  out=$(VK_ADD_LAYER_PATH="$BUNDLE/layer" VK_INSTANCE_LAYERS=$LAYER "$probe" \
    --pipeline-batch "$dir/min-f64.spv" "$dir/min-f16.spv" "$dir/min-f32.spv" 2>&1) &&
    bad=$((bad + 1))
  grep -E "^pipeline batch|batch pipeline" <<<"$out"
  grep -q "^pipeline batch: VK_ERROR_INVALID_SHADER_NV$" <<<"$out" || bad=$((bad + 1))
  grep -q "min-f64.spv: batch pipeline 0: created" <<<"$out" || bad=$((bad + 1))
  grep -q "min-f16.spv: batch pipeline 1: null" <<<"$out" || bad=$((bad + 1))
  grep -q "min-f32.spv: batch pipeline 2: created" <<<"$out" || bad=$((bad + 1))
  local early base
  early=$(VK_ADD_LAYER_PATH="$BUNDLE/layer" VK_INSTANCE_LAYERS=$LAYER "$probe" --pipeline-batch \
    --early-return --flags2 "$dir/min-f64.spv" "$dir/min-f16.spv" "$dir/min-f32.spv" 2>&1) &&
    bad=$((bad + 1))
  base=$(VK_ADD_LAYER_PATH="$BUNDLE/layer" VK_INSTANCE_LAYERS=$LAYER "$probe" --pipeline-batch \
    --derive-from 1 --flags2 "$dir/min-f32.spv" "$dir/min-f16.spv" "$dir/min-f64.spv" 2>&1) &&
    bad=$((bad + 1))
  if grep -q "^VK_KHR_maintenance5: listed" <<<"$early"; then
    echo "-- flags2 (maintenance5 enabled), --early-return and --derive-from 1:"
    printf '%s\n%s\n' "$early" "$base" | grep -E "^pipeline batch|batch pipeline"
    grep -q "min-f64.spv: batch pipeline 0: created" <<<"$early" || bad=$((bad + 1))
    grep -q "min-f16.spv: batch pipeline 1: null" <<<"$early" || bad=$((bad + 1))
    grep -q "min-f32.spv: batch pipeline 2: null" <<<"$early" || bad=$((bad + 1))
    grep -q "min-f32.spv: batch pipeline 0: created" <<<"$base" || bad=$((bad + 1))
    grep -q "min-f16.spv: batch pipeline 1: null" <<<"$base" || bad=$((bad + 1))
    grep -q "min-f64.spv: batch pipeline 2: null" <<<"$base" || bad=$((bad + 1))
    grep -q "pipeline 2 derives from pipeline 1, which is not created" <<<"$base" || bad=$((bad + 1))
  else
    echo "no VK_KHR_maintenance5: the flags2 batches not checked"
  fi
  out=$(VK_ADD_LAYER_PATH="$BUNDLE/layer" VK_INSTANCE_LAYERS=$LAYER "$probe" \
    --identifier "$dir/min-f64.spv" "$dir/min-f32.spv" 2>&1)
  case $? in
    0) grep "identifiers" <<<"$out" ;;
    2) echo "no shader module identifiers: not checked" ;;
    *) echo "$out" | tail -3; bad=$((bad + 1)) ;;
  esac
  echo "modules: $bad failed"
}

do_run() {
  gpu_run_args "$@"
  [ -x "$BUNDLE/bin/fatomic-vkrun" ] || die "no bundle in $BUNDLE: run '$0 bundle' first"
  gpu_run_log "$BUILD" layer-nvidia
  local log=$RUN_LOG detail=$RUN_DETAIL extra=("${RUN_EXTRA[@]}")

  export PATH="$BUNDLE/bin:$PATH"
  export LD_LIBRARY_PATH="$BUNDLE/vulkan-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local vkrun=$BUNDLE/bin/fatomic-vkrun
  if ! "$vkrun" --help >/dev/null 2>&1 && "$vkrun" --help 2>&1 | grep -q -e GLIBCXX -e 'not found'; then
    say "using the bundled C++ runtime"
    export LD_LIBRARY_PATH="$BUNDLE/lib-fallback:$LD_LIBRARY_PATH"
  fi
  find_device "$vkrun"
  local py jobs
  py=$(gpu_python)
  jobs=$(gpu_suite_jobs)

  {
    echo "== fatomic layer suite: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
    echo "== VK_ICD_FILENAMES=${VK_ICD_FILENAMES:-} VK_DRIVER_FILES=${VK_DRIVER_FILES:-}"
    command -v nvidia-smi >/dev/null && nvidia-smi -L || true
    echo "== the driver's own features"
    "$vkrun" --features || true
    echo "== through $LAYER"
    VK_ADD_LAYER_PATH=$BUNDLE/layer VK_INSTANCE_LAYERS=$LAYER \
      "$BUNDLE/bin/fatomic-layer-probe" || true
  } 2>&1 | tee "$log"

  set +e
  PYTHONUNBUFFERED=1 "$py" "$ROOT/test/exec/exec_suite.py" --build-dir "$BUNDLE" \
    --mode layer --layer-dir "$BUNDLE/layer" --jobs "$jobs" --log "$detail" \
    "${extra[@]}" 2>&1 | tee -a "$log"
  local rc=${PIPESTATUS[0]}
  set -e
  local features kind feature call
  features=$("$vkrun" --features 2>/dev/null || true)
  # VK_NV_ray_tracing is not among fatomic-vkrun's features: the probe,
  # with the extension enabled where listed, says whether the device gives
  # its command.
  features+=$'\n'$(VK_ADD_LAYER_PATH=$BUNDLE/layer VK_INSTANCE_LAYERS=$LAYER \
    "$BUNDLE/bin/fatomic-layer-probe" --ray-tracing-nv 2>/dev/null |
    sed -n 's/^vkCreateRayTracingPipelinesNV: given$/  rayTracingNV = 1/p')
  for kind in shader-object ray-tracing ray-tracing-nv; do
    if [ "$kind" = shader-object ]; then
      feature=shaderObject call=vkCreateShadersEXT
    elif [ "$kind" = ray-tracing ]; then
      feature=rayTracingPipeline call=vkCreateRayTracingPipelinesKHR
    else
      feature=rayTracingNV call=vkCreateRayTracingPipelinesNV
    fi
    if grep -q "^  $feature = 1$" <<<"$features"; then
      echo "== $call through $LAYER" | tee -a "$log"
      probe_checks "$kind" "$(mktemp -d)" "$py" 2>&1 | tee -a "$log"
      grep -q "^$kind: 0 failed$" "$log" || rc=1
    else
      echo "== no $feature: $call not checked" | tee -a "$log"
    fi
  done
  echo "== the application's chains through $LAYER" | tee -a "$log"
  chain_checks "$(mktemp -d)" 2>&1 | tee -a "$log"
  grep -q "^chains: 0 failed$" "$log" || rc=1
  echo "== pipeline batches and module identifiers through $LAYER" | tee -a "$log"
  module_checks "$(mktemp -d)" 2>&1 | tee -a "$log"
  grep -q "^modules: 0 failed$" "$log" || rc=1
  echo "== exit status $rc; log: $log; commands: $detail" | tee -a "$log"
  return "$rc"
}

case "${1:-}" in
  bundle) shift; do_bundle "$@" ;;
  run) shift; do_run "$@" ;;
  -h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//' ;;
  *) die "usage: $0 bundle | run [--log FILE] [--jobs N] [-- EXEC_SUITE_ARGS]" ;;
esac
