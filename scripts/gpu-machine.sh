# Shell functions shared by the scripts that make a bundle here and run it
# on the GPU machine (test/exec/run-nvidia.sh, tools/gpubench/run-gpubench.sh).
# Source it; the caller defines say() (a line on stderr).

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

# bundle_vulkan_loader ROOT: downloads Debian's Vulkan loader package into
# ROOT/.gl/ unless it is there (the GPU machine may have no loader).
bundle_vulkan_loader() {
  ls "$1"/.gl/libvulkan1_*.deb >/dev/null 2>&1 && return 0
  say "downloading the Vulkan loader package into .gl/"
  mkdir -p "$1/.gl" /tmp/amd64/partial
  local o=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64)
  if ! { apt-get "${o[@]}" update >/dev/null && (cd "$1/.gl" && apt-get "${o[@]}" download libvulkan1); }; then
    say "warning: could not download libvulkan1; the GPU machine must have a Vulkan loader"
  fi
}

# gpu_environment ROOT LIBDIR TOOL: on the GPU machine, makes TOOL (a
# Vulkan program of the bundle that takes --list-devices) runnable:
# LIBDIR's C++ runtime when the machine's is too old, the loader from
# ROOT/.gl/*.deb when none is installed (as root), and the NVIDIA ICD when
# the loader finds no device by itself.  Exports what it changes.
gpu_environment() {
  local root=$1 libdir=$2 tool=$3
  if [ -d "$libdir" ] && ! "$tool" --help >/dev/null 2>&1 &&
     "$tool" --help 2>&1 | grep -q -e GLIBCXX -e 'not found'; then
    say "using the bundled C++ runtime"
    export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  fi
  if ! ldconfig -p 2>/dev/null | grep -q 'libvulkan\.so\.1'; then
    if ls "$root"/.gl/*.deb >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
      say "installing the carried Vulkan loader from .gl/"
      local f
      for f in "$root"/.gl/*.deb; do dpkg -x "$f" /; done
      ldconfig
    else
      say "warning: no libvulkan.so.1 found and no .gl/*.deb to install (or not root)"
    fi
  fi
  if ! "$tool" --list-devices 2>/dev/null | grep -q '^0: '; then
    local icd
    for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json \
               /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
      if [ -f "$icd" ]; then
        say "no device found by default; using $icd"
        export VK_DRIVER_FILES=$icd
        break
      fi
    done
  fi
}
