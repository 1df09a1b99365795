#!/usr/bin/env python3
"""Builds the seed corpora of the fuzz targets from the test inputs.

usage: make_corpus.py --src SRC_ROOT --out DIR

  DIR/spirv    every SPIR-V module the tests use: test/**/*.spvasm assembled
               with spirv-as (the environment named on its RUN line, else
               vulkan1.2), test/**/*.comp and examples/*.comp compiled with
               glslangValidator, test/**/*.cl with clang-22 where it is
               installed.  Each module is written four times, with different
               option bytes in the header's generator word (see
               test/fuzz/FuzzSupport.h).
  DIR/options  option strings: valid, invalid and edge cases.
  DIR/profile  the profiles of test/data/profiles cut down to their
               float-atomic and int64 feature structs (whole, they are some
               300 KB and slow every mutation down), and small hand-written
               documents.

Tools come from the environment (SPIRV_AS, GLSLANG, CLANG) or PATH.  A test
input that does not assemble or compile on its own (error tests) is skipped.
"""
import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

OPTION_BYTES = (0x00, 0x05, 0x0A, 0x53, 0x101)

OPTION_STRINGS = [
    "", "nan=number", "nan=propagate", "nan=fast", "strategy=dispatch",
    "strategy=cas", "early-out=on", "early-out=off", "images=retype",
    "native=shaderBufferFloat32AtomicMinMax",
    "native=shaderBufferFloat32AtomicMinMax+shaderSharedFloat64AtomicMinMax",
    "nan=propagate;strategy=cas,early-out=off",
    " nan = fast , strategy = cas ; ",
    "nan=number,nan=fast", "native=", "native=+", "native=shaderBufferFloat32AtomicMinMax+",
    "nan", "=", ",,;;", "nan=maybe", "color=red", "strategy=cas=dispatch",
    "native=shaderBufferFloat128AtomicMinMax", "aggregate=subgroup", "aggregate=warp",
]

PROFILE_STRUCTS = ("VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT",
                   "VkPhysicalDeviceShaderAtomicInt64Features",
                   "VkPhysicalDeviceVulkan12Features")

SMALL_PROFILES = [
    {"capabilities": {"device": {"features": {
        "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT": {
            "shaderBufferFloat32AtomicMinMax": True,
            "shaderSharedFloat32AtomicMinMax": False}}}}},
    {"capabilities": {"device": {"features": {
        "VkPhysicalDeviceShaderAtomicInt64Features": {
            "shaderBufferInt64Atomics": False, "shaderSharedInt64Atomics": True}}}}},
    {"capabilities": {"a": {"features": {}}, "b": {"extensions": {}}}},
    {"capabilities": {}},
    {"capabilities": {"device": {"features": {
        "X": {"shaderBufferFloat32AtomicMinMax": 1}}}}},
    [], {}, "text", None,
]


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def with_option_byte(words, b):
    w = list(words)
    w[2] = (w[2] & ~0x1FF) | b
    return struct.pack("<%dI" % len(w), *w)


def add_module(out, name, data, count):
    if len(data) < 20 or len(data) % 4:
        return count
    words = struct.unpack("<%dI" % (len(data) // 4), data)
    if words[0] != 0x07230203:
        return count
    for b in OPTION_BYTES:
        blob = with_option_byte(words, b)
        h = hashlib.sha1(blob).hexdigest()[:12]
        write(os.path.join(out, "spirv", "%s.%02x.%s.spv" % (name, b, h)), blob)
        count += 1
    return count


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    spirv_as = os.environ.get("SPIRV_AS") or shutil.which("spirv-as")
    glslang = os.environ.get("GLSLANG") or shutil.which("glslangValidator")
    clang = os.environ.get("CLANG") or shutil.which("clang-22")
    if not spirv_as or not glslang:
        sys.exit("make_corpus.py: spirv-as and glslangValidator are needed")
    shutil.rmtree(a.out, ignore_errors=True)
    tmp = tempfile.mkdtemp(prefix="fatomic-corpus-")
    n = 0
    try:
        srcs = sorted(glob.glob(os.path.join(a.src, "test", "**", "*.spvasm"), recursive=True))
        for src in srcs:
            text = open(src).read()
            m = re.search(r"--(?:target-)?env[ =](\S+)", text)
            envs = [m.group(1)] if m else []
            envs += ["vulkan1.2", "spv1.6"]
            spv = os.path.join(tmp, "m.spv")
            for env in envs:
                if run([spirv_as, "--target-env", env, src, "-o", spv]) == 0:
                    n = add_module(a.out, os.path.basename(src), open(spv, "rb").read(), n)
                    break
        comps = sorted(glob.glob(os.path.join(a.src, "test", "**", "*.comp"), recursive=True) +
                       glob.glob(os.path.join(a.src, "examples", "*.comp")))
        for src in comps:
            spv = os.path.join(tmp, "c.spv")
            if run([glslang, "--target-env", "vulkan1.2", "-V", src, "-o", spv]) == 0:
                n = add_module(a.out, os.path.basename(src), open(spv, "rb").read(), n)
        if clang:
            for src in sorted(glob.glob(os.path.join(a.src, "test", "**", "*.cl"), recursive=True)):
                spv = os.path.join(tmp, "k.spv")
                if run([clang, "-cl-std=CL3.0", "--target=spirv64", "-mllvm",
                        "--spirv-ext=+SPV_EXT_shader_atomic_float_min_max", "-c", src,
                        "-o", spv]) == 0:
                    n = add_module(a.out, os.path.basename(src), open(spv, "rb").read(), n)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    for i, s in enumerate(OPTION_STRINGS):
        write(os.path.join(a.out, "options", "opt%02d" % i), s.encode())

    k = 0
    for path in sorted(glob.glob(os.path.join(a.src, "test", "data", "profiles", "*.json"))):
        doc = json.load(open(path, "rb"))
        for cap in doc.get("capabilities", {}).values():
            feats = cap.get("features", {})
            for key in list(feats):
                if key not in PROFILE_STRUCTS:
                    del feats[key]
            for key in list(cap):
                if key != "features":
                    del cap[key]
        write(os.path.join(a.out, "profile", "cut-" + os.path.basename(path)),
              json.dumps(doc).encode())
    for doc in SMALL_PROFILES:
        write(os.path.join(a.out, "profile", "small%02d.json" % k), json.dumps(doc).encode())
        k += 1
    print("make_corpus.py: %d SPIR-V seeds, %d option strings, %d profiles in %s"
          % (n, len(OPTION_STRINGS), len(os.listdir(os.path.join(a.out, "profile"))), a.out))


if __name__ == "__main__":
    main()
