# -*- Python -*-
# lit configuration for fatomic.  Paths come from lit.site.cfg.py.

import os
import platform
import shutil
import sys

import lit.formats

config.name = "fatomic"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".spvasm", ".ll", ".test", ".comp", ".task", ".cl"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.fatomic_obj_root, "test")

# `lit --param fatomic_opt=PATH` runs the tests with another fatomic-opt
# (ctest lit-spirv-checked: the one with the module IR's assertions on); its
# outputs go to a tree of their own, so that it can run beside plain lit.
fatomic_opt = os.path.join(config.fatomic_tools_dir, "fatomic-opt")
if lit_config.params.get("fatomic_opt"):
    fatomic_opt = lit_config.params["fatomic_opt"]
    config.test_exec_root = os.path.join(config.fatomic_obj_root, "test-checked")

config.environment["PATH"] = os.pathsep.join(
    [config.fatomic_tools_dir, config.environment.get("PATH", "")])

utils = os.path.join(config.fatomic_src_root, "test", "utils")
python = sys.executable

subs = [
    ("%fatomic-opt", fatomic_opt),
    ("%fatomic-selfcheck", os.path.join(config.fatomic_tools_dir, "fatomic-selfcheck")),
    ("%fatomic-vkrun", os.path.join(config.fatomic_tools_dir, "fatomic-vkrun")),
    ("%fatomic-llvm-exec",
     os.path.join(config.fatomic_tools_dir, "fatomic-llvm-exec")),
    ("%fatomic-llvm-race",
     os.path.join(config.fatomic_tools_dir, "fatomic-llvm-race")),
    ("%fatomic-semantics-table",
     os.path.join(config.fatomic_tools_dir, "fatomic-semantics-table")),
    ("%fatomic-capi-test",
     os.path.join(config.fatomic_tools_dir, "fatomic-capi-test")),
    ("%fatomic-engine-example",
     os.path.join(config.fatomic_tools_dir, "fatomic-engine-example")),
    ("%fatomic_plugin", config.fatomic_plugin),
    ("%spirv-as", config.spirv_as),
    ("%spirv-dis", config.spirv_dis),
    ("%spirv-val", config.spirv_val),
    ("%spirv-opt", config.spirv_opt),
    ("%spirv-link", config.spirv_link),
    ("%glslang", config.glslang),
    ("%opt", config.opt),
    ("%clang", config.clang),
    # Fails when a Logical-addressing module bitcasts a pointer (Debian's
    # spirv-val 2023.1 does not catch it).
    ("%check-no-logical-ptr-bitcast",
     python + " " + os.path.join(utils, "check_no_logical_ptr_bitcast.py")),
    # Lower, validate for the environment, check pointer bitcasts, and print
    # the disassembly: `%lower-and-check --env vulkan1.2 %s <fatomic-opt args>`.
    ("%lower-and-check",
     python + " " + os.path.join(utils, "lower_and_check.py")),
    # spirv-val for an environment plus the pointer-bitcast check, on files:
    # `%validate vulkan1.2 %t.out.spv`.
    ("%validate", python + " " + os.path.join(utils, "validate_spv.py")),
    ("%fatomic-nvptx-expect",
     os.path.join(config.fatomic_tools_dir, "fatomic-nvptx-expect")),
    ("%llc", config.llc),
    # The NVPTX benchmark's bundle/run/selftest script and its report.
    ("%nvptx-bench", python + " " + os.path.join(
        config.fatomic_src_root, "tools", "nvptx", "nvptx-bench.py")),
    ("%nvptx-report", python + " " + os.path.join(
        config.fatomic_src_root, "tools", "nvptx", "nvptx-report.py")),
    # The race test of NVPTX warp aggregation (bundle/run/selftest).
    ("%nvptx-race", python + " " + os.path.join(
        config.fatomic_src_root, "tools", "nvptx", "nvptx-race.py")),
    # Runs fatomic-opt on bad input and checks exit 1, one error, nothing
    # written (see the script); prints the diagnostics for FileCheck.
    ("%expect-bad-input",
     python + " " + os.path.join(utils, "expect_bad_input.py")),
    # Derives a malformed binary from a good one: `%make-bad-spv KIND in out`.
    ("%make-bad-spv", python + " " + os.path.join(utils, "make_bad_spv.py")),
    ("%profiles", os.path.join(config.fatomic_src_root, "test", "data", "profiles")),
    # Prints a command block of a document: `%doc-recipe %docs/x.md NAME`.
    ("%doc-recipe", python + " " + os.path.join(utils, "doc_recipe.py")),
    ("%docs", os.path.join(config.fatomic_src_root, "docs")),
    ("%check-manpage", python + " " + os.path.join(utils, "check_manpage.py")),
    ("%check-doc-references",
     python + " " + os.path.join(utils, "check_doc_references.py")),
    ("%check-pass-flags",
     python + " " + os.path.join(utils, "check_pass_flags.py")),
    ("%check-diagnostics",
     python + " " + os.path.join(utils, "check_diagnostics.py")),
    ("%src-root", config.fatomic_src_root),
    ("%python", python),
]
config.substitutions.extend(subs)
for var, path in [("FATOMIC_OPT", fatomic_opt),
                  ("SPIRV_AS", config.spirv_as), ("SPIRV_DIS", config.spirv_dis),
                  ("SPIRV_VAL", config.spirv_val), ("GLSLANG", config.glslang),
                  ("CLANG", config.clang)]:
    config.environment[var] = path
config.substitutions.append(("FileCheck", config.filecheck))
config.substitutions.append(("not ", config.not_tool + " "))

if config.fatomic_plugin:
    config.available_features.add("llvm-plugin")
    # The documented recipes name the plugin $FATOMIC_PLUGIN.
    config.environment["FATOMIC_PLUGIN"] = config.fatomic_plugin
# vulkaninfo on Mesa's CPU driver, for the --target-profile recipe.
LAVAPIPE_ICD = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
if os.path.exists(LAVAPIPE_ICD) and shutil.which("vulkaninfo"):
    config.available_features.add("lavapipe")
    config.substitutions.append(("%lavapipe-icd", LAVAPIPE_ICD))
# Lowered kernels compiled with clang and run on this machine.
if (config.fatomic_plugin and config.clang and
        platform.machine() in ("x86_64", "AMD64") and
        os.path.exists(os.path.join(config.fatomic_tools_dir, "fatomic-llvm-exec"))):
    config.available_features.add("x86-64-exec")
# Two CPUs for the threads of the race tests (test/llvm/race), which pin
# one thread to each.
if (hasattr(os, "sched_getaffinity") and len(os.sched_getaffinity(0)) >= 2
        and os.path.exists(os.path.join(config.fatomic_tools_dir,
                                        "fatomic-llvm-race"))):
    config.available_features.add("two-cpus")
# Lowered kernels compiled to PTX with llc (no GPU needed).
if config.fatomic_plugin and config.llc and os.path.exists(
        os.path.join(config.fatomic_tools_dir, "fatomic-nvptx-expect")):
    config.available_features.add("nvptx")
if os.path.exists(os.path.join(config.fatomic_tools_dir, "fatomic-opt")):
    config.available_features.add("fatomic-opt")
if os.path.exists(os.path.join(config.fatomic_tools_dir, "fatomic-engine-example")):
    config.available_features.add("engine-example")
# The Vulkan layer (lib/Layer) on lavapipe: `%with-layer CMD` runs CMD with
# the build tree's layer enabled on Mesa's CPU driver.
LAYER_DIR = os.path.join(config.fatomic_obj_root, "layer")
if (os.path.exists(os.path.join(LAYER_DIR, "VkLayer_FATOMIC_float_atomic_minmax.json"))
        and os.path.exists(LAVAPIPE_ICD)):
    config.available_features.add("layer")
    config.substitutions.append(("%with-layer", " ".join([
        "env", "VK_ICD_FILENAMES=" + LAVAPIPE_ICD, "VK_DRIVER_FILES=" + LAVAPIPE_ICD,
        "VK_ADD_LAYER_PATH=" + LAYER_DIR,
        "VK_INSTANCE_LAYERS=VK_LAYER_FATOMIC_float_atomic_minmax"])))
    config.substitutions.append(("%fatomic-layer-probe", os.path.join(
        config.fatomic_tools_dir, "fatomic-layer-probe")))
    # The same with Khronos' validation layer below it (Debian's
    # vulkan-validationlayers), which reports what the fatomic layer calls
    # or hands down that Vulkan does not allow.
    VALIDATION = "/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json"
    if os.path.exists(VALIDATION):
        config.available_features.add("layer-validation")
        config.substitutions.append(("%with-validated-layer", " ".join([
            "env", "VK_ICD_FILENAMES=" + LAVAPIPE_ICD, "VK_DRIVER_FILES=" + LAVAPIPE_ICD,
            "VK_ADD_LAYER_PATH=" + LAYER_DIR,
            "VK_INSTANCE_LAYERS=VK_LAYER_FATOMIC_float_atomic_minmax:"
            "VK_LAYER_KHRONOS_validation"])))
    # The same with the test layer below it that makes lavapipe a driver
    # without VK_EXT_shader_atomic_float2 and a strict one about the int64
    # atomics extension (test/layer/hide-float2).
    TEST_LAYERS = os.path.join(config.fatomic_obj_root, "test-layers")
    if os.path.exists(os.path.join(TEST_LAYERS, "VkLayer_FATOMIC_test_hide_float2.json")):
        config.available_features.add("layer-no-float2")
        config.substitutions.append(("%with-hidden-float2", " ".join([
            "env", "VK_ICD_FILENAMES=" + LAVAPIPE_ICD, "VK_DRIVER_FILES=" + LAVAPIPE_ICD,
            "VK_ADD_LAYER_PATH=" + LAYER_DIR + os.pathsep + TEST_LAYERS,
            "VK_INSTANCE_LAYERS=VK_LAYER_FATOMIC_float_atomic_minmax:"
            "VK_LAYER_FATOMIC_test_hide_float2"])))
# An operator new that throws std::bad_alloc on demand, to preload
# (test/fail-new; not built for sanitizer builds): `%fail-new`.
FAIL_NEW = os.path.join(config.fatomic_obj_root, "test-preload", "libfatomic-fail-new.so")
if os.path.exists(FAIL_NEW):
    config.available_features.add("fail-new")
    config.substitutions.append(("%fail-new", FAIL_NEW))
if shutil.which("man"):
    config.available_features.add("man")
# %unprivileged runs a command as an ordinary user: as root through setpriv
# (user nobody), otherwise as it is.  Tests of what an ordinary user may
# write use it, and never act on the system's own files as root.
if hasattr(os, "geteuid") and os.geteuid() == 0:
    config.available_features.add("root")
    setpriv = shutil.which("setpriv")
    if setpriv:
        config.substitutions.append(
            ("%unprivileged",
             setpriv + " --reuid=65534 --regid=65534 --clear-groups"))
        config.available_features.add("unprivileged")
else:
    config.substitutions.append(("%unprivileged", ""))
    config.available_features.add("unprivileged")
