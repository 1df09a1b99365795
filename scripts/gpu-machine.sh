# Shell functions shared by the scripts that make a bundle here and run it
# on the GPU machine (test/exec/run-nvidia.sh, test/layer/run-nvidia-layer.sh,
# tools/gpubench/run-gpubench.sh).  Source it; the caller defines say() (a
# line on stderr) and die() (an error line, then exit 1), the scripts through
# gpu_script_messages.

# gpu_script_messages NAME: defines say (a line on stderr) and die (the line
# "NAME: error: ...", then exit 1).
gpu_script_messages() {
  GPU_SCRIPT_NAME=$1
  say() { printf '%s\n' "$*" >&2; }
  die() { say "$GPU_SCRIPT_NAME: error: $*"; exit 1; }
}

# bundle_cxx_runtime BINARY DIR: copies the libstdc++/libgcc_s that BINARY
# links against into DIR, a fallback for a machine whose runtime is older.
bundle_cxx_runtime() {
  local lib p
  for lib in libstdc++.so.6 libgcc_s.so.1; do
    p=$(ldd "$1" | awk -v l="$lib" '$1 == l { print $3 }')
    [ -n "$p" ] && cp -L "$p" "$2/"
  done
  return 0
}

# The Debian packages a GPU machine may lack, each with a library it holds:
# the Vulkan loader, and libglvnd's, which NVIDIA's Vulkan ICD
# (libGLX_nvidia.so.0) loads.  With the loader alone, vkCreateInstance fails
# with VK_ERROR_INCOMPATIBLE_DRIVER (-9) on an NVIDIA machine.
GPU_LOADER_PACKAGES=(libvulkan1:libvulkan.so.1 libglvnd0:libGLdispatch.so.0
                     libegl1:libEGL.so.1 libgl1:libGL.so.1 libglx0:libGLX.so.0
                     libopengl0:libOpenGL.so.0 libgles2:libGLESv2.so.2)

# bundle_vulkan_loader ROOT: downloads those of GPU_LOADER_PACKAGES that
# ROOT/.gl/ does not hold yet into it (the GPU machine may have none).
bundle_vulkan_loader() {
  local entry pkg missing=()
  for entry in "${GPU_LOADER_PACKAGES[@]}"; do
    pkg=${entry%%:*}
    ls "$1/.gl/${pkg}"_*.deb >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "downloading ${missing[*]} into .gl/"
  mkdir -p "$1/.gl" /tmp/amd64/partial
  local o=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64)
  if ! { apt-get "${o[@]}" update >/dev/null &&
         (cd "$1/.gl" && apt-get "${o[@]}" download "${missing[@]}"); }; then
    say "warning: could not download ${missing[*]}; the GPU machine must have a Vulkan loader and libglvnd"
  fi
}

# gpu_missing_libraries: the packages of GPU_LOADER_PACKAGES whose library
# the dynamic linker does not know, one a line.
gpu_missing_libraries() {
  local entry cache
  cache=$(ldconfig -p 2>/dev/null | awk 'NR > 1 { print $1 }' || true)
  for entry in "${GPU_LOADER_PACKAGES[@]}"; do
    grep -qxF "${entry#*:}" <<<"$cache" || echo "${entry%%:*}"
  done
}

# gpu_install_carried ROOT: installs the carried packages of ROOT/.gl/ whose
# library is missing (as root); warns about the ones it cannot install.
gpu_install_carried() {
  local pkg deb missing=() left=()
  mapfile -t missing < <(gpu_missing_libraries)
  [ ${#missing[@]} -eq 0 ] && return 0
  for pkg in "${missing[@]}"; do
    deb=$(ls "$1/.gl/${pkg}"_*.deb 2>/dev/null | head -n 1)
    if [ -n "$deb" ] && [ "$(id -u)" = 0 ]; then
      say "installing the carried $pkg from .gl/"
      dpkg -x "$deb" /
    else
      left+=("$pkg")
    fi
  done
  ldconfig 2>/dev/null || true
  [ ${#left[@]} -eq 0 ] ||
    say "warning: missing ${left[*]} and no .gl/*.deb to install them from (or not root)"
}

# gpu_no_device TOOL: says plainly that no Vulkan device was found, what the
# tool reported, and what to check.
gpu_no_device() {
  local report missing
  report=$("$1" --list-devices 2>&1 | head -n 3 || true)
  missing=$(gpu_missing_libraries | tr '\n' ' ')
  say "error: no Vulkan device found"
  say "  $(basename "$1") --list-devices: ${report:-<no output>}"
  say "  VK_DRIVER_FILES=${VK_DRIVER_FILES:-<unset>} VK_ICD_FILENAMES=${VK_ICD_FILENAMES:-<unset>}"
  say "  libraries missing: ${missing:-none}"
  say "  an NVIDIA ICD needs the loader and libglvnd (${GPU_LOADER_PACKAGES[*]%%:*});"
  say "  make the bundle here and carry .gl/ with it, and check nvidia-smi there"
}

# gpu_nvidia_icd: prints the first NVIDIA ICD manifest of the usual places;
# returns 1 when there is none.
gpu_nvidia_icd() {
  local icd
  for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json \
             /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
    if [ -f "$icd" ]; then
      printf '%s\n' "$icd"
      return 0
    fi
  done
  return 1
}

# gpu_environment ROOT LIBDIR TOOL: on the GPU machine, makes TOOL (a
# Vulkan program of the bundle that takes --list-devices) runnable:
# LIBDIR's C++ runtime when the machine's is too old, the carried loader and
# libglvnd packages from ROOT/.gl/*.deb where their libraries are missing
# (as root), and the NVIDIA ICD when the loader finds no device by itself.
# Exports what it changes.  Returns 1, after saying why, when TOOL still
# finds no device.
gpu_environment() {
  local root=$1 libdir=$2 tool=$3
  if [ -d "$libdir" ] && ! "$tool" --help >/dev/null 2>&1 &&
     "$tool" --help 2>&1 | grep -q -e GLIBCXX -e 'not found'; then
    say "using the bundled C++ runtime"
    export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  fi
  gpu_install_carried "$root"
  if ! "$tool" --list-devices 2>/dev/null | grep -q '^0: '; then
    local icd
    if icd=$(gpu_nvidia_icd); then
      say "no device found by default; using $icd"
      export VK_DRIVER_FILES=$icd
    fi
  fi
  if ! "$tool" --list-devices 2>/dev/null | grep -q '^0: '; then
    gpu_no_device "$tool"
    return 1
  fi
}

# gpu_loader_package_names: the names of GPU_LOADER_PACKAGES, on one line.
gpu_loader_package_names() {
  local p names=()
  for p in "${GPU_LOADER_PACKAGES[@]}"; do names+=("${p%%:*}"); done
  printf '%s\n' "${names[*]}"
}

# gpu_build ROOT BUILD [CMAKE_ARG...] [-- TARGET...]: configures BUILD from
# ROOT with the CMAKE_ARGs (Ninja where there is ninja) unless it is
# configured already, then builds the TARGETs (everything when none) with
# $BUILD_JOBS (default 2) jobs.
gpu_build() {
  local root=$1 build=$2 conf=() targets=() gen=()
  shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do conf+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  targets=("$@")
  if [ ! -f "$build/CMakeCache.txt" ]; then
    command -v ninja >/dev/null && gen=(-G Ninja)
    cmake -S "$root" -B "$build" "${gen[@]}" "${conf[@]}"
  fi
  if [ ${#targets[@]} -gt 0 ]; then
    cmake --build "$build" -j "${BUILD_JOBS:-2}" --target "${targets[@]}"
  else
    cmake --build "$build" -j "${BUILD_JOBS:-2}"
  fi
}

# gpu_run_args ARG...: parses a suite run's `[--log FILE] [--jobs N]
# [-- SUITE_ARGS]` into RUN_LOG, RUN_JOBS and the array RUN_EXTRA; dies on
# anything else.
gpu_run_args() {
  RUN_LOG="" RUN_JOBS="" RUN_EXTRA=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --log) RUN_LOG=$2; shift 2 ;;
      --jobs) RUN_JOBS=$2; shift 2 ;;
      --) shift; RUN_EXTRA=("$@"); break ;;
      *) die "unknown argument '$1'" ;;
    esac
  done
}

# gpu_run_log BUILD NAME: RUN_LOG, where gpu_run_args left it empty, becomes
# $OUT/NAME.log when $OUT is set, else BUILD/NAME.log; makes its folder and
# sets RUN_DETAIL, the log of every command, to its name with -detail added.
gpu_run_log() {
  local build=$1 name=$2
  if [ -z "$RUN_LOG" ]; then
    if [ -n "${OUT:-}" ]; then RUN_LOG=$OUT/$name.log; else RUN_LOG=$build/$name.log; fi
  fi
  mkdir -p "$(dirname "$RUN_LOG")"
  RUN_DETAIL=${RUN_LOG%.log}-detail.log
  [ "$RUN_DETAIL" = "$RUN_LOG" ] && RUN_DETAIL=$RUN_LOG.detail
  return 0
}

# gpu_suite_jobs: RUN_JOBS where given, else half the CPUs, from 1 to 8.
gpu_suite_jobs() {
  local jobs=$RUN_JOBS
  [ -n "$jobs" ] || jobs=$(( $(nproc) / 2 )); [ "$jobs" -ge 1 ] || jobs=1; [ "$jobs" -le 8 ] || jobs=8
  printf '%s\n' "$jobs"
}

# gpu_python: the python3 to run the suites with: /usr/bin/python3 where it
# is there (a bundle's PATH may hold another), else the one on PATH.
gpu_python() {
  if [ -x /usr/bin/python3 ]; then echo /usr/bin/python3; else command -v python3; fi
}
