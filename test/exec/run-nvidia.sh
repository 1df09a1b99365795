#!/usr/bin/env bash
# Runs the execution suite (test/exec/exec_suite.py, all modes, then the race
# suite test/exec/race_suite.py when fatomic-opt is there) on whatever
# Vulkan device the loader finds: the NVIDIA GPU on the GPU machine.  It never
# selects lavapipe itself; VK_ICD_FILENAMES / VK_DRIVER_FILES are used as the
# caller set them.
#
#   test/exec/run-nvidia.sh bundle
#       On a build machine: builds (build/, or $FATOMIC_BUILD_DIR) and copies
#       what the run needs into build/exec-bundle: fatomic-vkrun,
#       fatomic-exec-oracle, fatomic-opt if it is built, glslangValidator,
#       spirv-val, spirv-dis, and fallback copies of libstdc++/libgcc_s.  Also
#       downloads into .gl/ the Debian packages of the Vulkan loader and of
#       libglvnd, which NVIDIA's ICD needs (scripts/gpu-machine.sh), where
#       they are not there yet.
#
#   test/exec/run-nvidia.sh [run] [--log FILE] [--jobs N] [-- EXEC_SUITE_ARGS]
#       On the GPU machine (or anywhere): uses build/exec-bundle if present,
#       else build/bin, else configures and builds; installs the carried
#       packages of .gl/*.deb whose libraries are missing; points the loader at
#       the NVIDIA ICD when it finds no device by itself; stops with a plain
#       "no Vulkan device found" message (exit 1) when there is still none;
#       then runs the suite.  The log
#       (device, features, every case's result) goes to FILE (default
#       $OUT/exec-nvidia.log when $OUT is set, else build/exec-nvidia.log);
#       FILE's name with -detail added holds every command and its output.
#       Exit status: the suite's (0 all passed, 1 failures, 77 skipped).
#       FATOMIC_RACE_FILTER=S runs only the race cases whose name holds S;
#       FATOMIC_EXEC_SKIP=1 leaves the execution suite out (the race suite
#       alone).  A filter that matches no case is an error in both suites.
#
# With the project's device tool, for example:
#   here:   test/exec/run-nvidia.sh bundle
#   there:  carry ["build/exec-bundle", ".gl"],
#           command "test/exec/run-nvidia.sh run --log $OUT/exec-nvidia.log"
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${FATOMIC_BUILD_DIR:-$ROOT/build}
BUNDLE=$BUILD/exec-bundle

. "$ROOT/scripts/gpu-machine.sh"
gpu_script_messages run-nvidia.sh

build_tree() {
  command -v cmake >/dev/null || die "cmake not found: cannot build; run '$0 bundle' on a build machine first"
  gpu_build "$ROOT" "$BUILD" -DFATOMIC_ENABLE_LLVM=OFF
}

do_bundle() {
  build_tree
  rm -rf "$BUNDLE"
  mkdir -p "$BUNDLE/bin" "$BUNDLE/lib-fallback"
  local t
  for t in fatomic-vkrun fatomic-exec-oracle fatomic-opt; do
    if [ -x "$BUILD/bin/$t" ]; then
      cp "$BUILD/bin/$t" "$BUNDLE/bin/"
    elif [ "$t" != fatomic-opt ]; then
      die "$BUILD/bin/$t was not built"
    fi
  done
  [ -x "$BUNDLE/bin/fatomic-opt" ] || say "note: fatomic-opt is not built; the bundle runs the native suite only"
  for t in glslangValidator spirv-val spirv-dis; do
    cp "$(command -v $t)" "$BUNDLE/bin/" || die "$t not found"
  done
  # Fallback C++ runtime, used only if the machine's is too old.
  bundle_cxx_runtime "$BUILD/bin/fatomic-vkrun" "$BUNDLE/lib-fallback"
  bundle_vulkan_loader "$ROOT"
  du -sh "$BUNDLE" "$ROOT/.gl" 2>/dev/null >&2 || true
  say "bundle ready: $BUNDLE"
  say "on the GPU machine: carry build/exec-bundle and .gl; run: test/exec/run-nvidia.sh run --log \$OUT/exec-nvidia.log"
}

do_run() {
  gpu_run_args "$@"
  gpu_run_log "$BUILD" exec-nvidia
  local log=$RUN_LOG detail=$RUN_DETAIL extra=("${RUN_EXTRA[@]}")

  local bin
  if [ -x "$BUNDLE/bin/fatomic-vkrun" ]; then
    bin=$BUNDLE
  elif [ -x "$BUILD/bin/fatomic-vkrun" ] && [ -x "$BUILD/bin/fatomic-exec-oracle" ]; then
    bin=$BUILD
  else
    build_tree
    bin=$BUILD
  fi
  # Tools carried in the bundle come first; the machine's own otherwise.
  [ -d "$bin/bin" ] && export PATH="$bin/bin:$PATH"
  # The bundled C++ runtime if needed, a Vulkan loader, a device.
  gpu_environment "$ROOT" "$BUNDLE/lib-fallback" "$bin/bin/fatomic-vkrun" ||
    die "no Vulkan device: the suite was not run"

  local py=${PYTHON:-} jobs
  [ -n "$py" ] || py=$(gpu_python)
  jobs=$(gpu_suite_jobs)

  {
    echo "== fatomic execution suite: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
    echo "== tools: $bin (fatomic-opt: $([ -x "$bin/bin/fatomic-opt" ] && echo yes || echo no))"
    echo "== VK_ICD_FILENAMES=${VK_ICD_FILENAMES:-} VK_DRIVER_FILES=${VK_DRIVER_FILES:-}"
    command -v nvidia-smi >/dev/null && nvidia-smi -L || true
    "$bin/bin/fatomic-vkrun" --list-devices || true
    "$bin/bin/fatomic-vkrun" --features || true
  } 2>&1 | tee "$log"

  set +e
  local rc=0
  if [ "${FATOMIC_EXEC_SKIP:-}" = 1 ]; then
    echo "== execution suite left out (FATOMIC_EXEC_SKIP=1)" | tee -a "$log"
  else
    PYTHONUNBUFFERED=1 "$py" "$ROOT/test/exec/exec_suite.py" --build-dir "$bin" --mode all \
      --jobs "$jobs" --log "$detail" "${extra[@]}" 2>&1 | tee -a "$log"
    rc=${PIPESTATUS[0]}
  fi
  # Lowered atomics racing other writers: linearizability per address.
  if [ -x "$bin/bin/fatomic-opt" ]; then
    echo "== race suite (test/exec/race_suite.py)" | tee -a "$log"
    PYTHONUNBUFFERED=1 "$py" "$ROOT/test/exec/race_suite.py" --build-dir "$bin" \
      --rounds 4 --filter "${FATOMIC_RACE_FILTER:-}" 2>&1 | tee -a "$log"
    local rrc=${PIPESTATUS[0]}
    [ "$rc" -ne 0 ] || [ "$rrc" -eq 77 ] || rc=$rrc
  fi
  set -e
  echo "== exit status $rc; log: $log; commands: $detail" | tee -a "$log"
  return "$rc"
}

case "${1:-run}" in
  bundle) shift; do_bundle "$@" ;;
  run) [ $# -gt 0 ] && shift; do_run "$@" ;;
  -h|--help) sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//' ;;
  *) do_run "$@" ;;
esac
