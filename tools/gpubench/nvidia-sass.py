#!/usr/bin/env python3
"""The machine code that NVIDIA's Vulkan driver makes of benchmark pipelines.

A diagnostic, not a benchmark: docs/gpu-performance.md ("What the machine
code shows") reads its output.  The driver keeps each pipeline it compiles
in its shader disk cache (__GL_SHADER_DISK_CACHE_PATH).  A cache file
(.bin) holds zstd frames; the frame that decompresses to a blob beginning
"NVDANVVMNVuc" holds the pipeline's code, whose size and offset are the
blob's 20th and 21st little-endian 32-bit words, the instructions starting
8 bytes past that offset.  The format is undocumented: this reads what
driver 580.159.04 wrote on an H200, and stops with a message where a file
does not look like that.

  nvidia-sass.py run --bundle BUILD/gpubench-bundle --variants V,... --out DIR
                     [--width 32] [--result unused]
      On the GPU machine: runs one small task of each variant
      (run-gpubench.sh, which also sets up the Vulkan loader), each with a
      fresh cache directory, and writes DIR/V.sass.
  nvidia-sass.py extract FILE... --out OUT [--raw]
      The code of every pipeline in the cache files FILE, disassembled into
      OUT, or with --raw the instruction bytes.

Tools: zstd (--zstd; else on PATH, else the bundle's bin/zstd, which the
bundle step copies) and, unless --raw, nvdisasm (--nvdisasm; else on PATH,
else /usr/local/cuda/bin).  --arch names nvdisasm's architecture (SM90).
Exit status 0, or 1 with a message; on failure nothing is written.
"""

import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
CODE_BLOB = b"NVDANVVMNVuc"
CODE_WORD = 19   # the code's size, then its offset
CODE_SKIP = 8    # bytes before the first instruction
INSTRUCTION = 16


class Failure(Exception):
    pass


def find_tool(given, name, fallbacks):
    for path in ([given] if given else [shutil.which(name)] + fallbacks):
        if path and os.access(path, os.X_OK):
            return path
    raise Failure(f"cannot find {name}" + (f" at {given}" if given else "")
                  + f" (--{name} names it)")


def frames(data):
    """The zstd frames of a cache file, each up to the next frame's magic."""
    starts = []
    at = data.find(ZSTD_MAGIC)
    while at >= 0:
        starts.append(at)
        at = data.find(ZSTD_MAGIC, at + len(ZSTD_MAGIC))
    return [data[s:e] for s, e in zip(starts, starts[1:] + [len(data)])]


def pipeline_codes(path, zstd):
    """The instruction bytes of every pipeline in cache file \\p path."""
    with open(path, "rb") as f:
        data = f.read()
    codes = []
    for frame in frames(data):
        blob = subprocess.run([zstd, "-dcq"], input=frame, capture_output=True).stdout
        if not blob.startswith(CODE_BLOB) or len(blob) < 4 * (CODE_WORD + 2):
            continue
        size, offset = struct.unpack_from("<II", blob, 4 * CODE_WORD)
        length = (size - CODE_SKIP) // INSTRUCTION * INSTRUCTION
        if size <= CODE_SKIP or offset + CODE_SKIP + length > len(blob):
            raise Failure(f"{path}: a code blob whose size {size} at {offset} does not fit")
        codes.append(blob[offset + CODE_SKIP:offset + CODE_SKIP + length])
    if not codes:
        raise Failure(f"{path}: no pipeline code (not a shader cache file of NVIDIA's driver?)")
    return codes


def disassemble(code, nvdisasm, arch):
    with tempfile.NamedTemporaryFile(suffix=".bin") as f:
        f.write(code)
        f.flush()
        r = subprocess.run([nvdisasm, "-b", arch, f.name], capture_output=True, text=True)
    if r.returncode != 0:
        raise Failure(f"nvdisasm failed: {r.stderr.strip()}")
    return r.stdout


def read_codes(paths, raw, zstd, nvdisasm, arch):
    """Every file's pipelines, as instruction bytes or disassembled."""
    parts = []
    for path in paths:
        for code in pipeline_codes(path, zstd):
            parts.append(code if raw else
                         f"// {path}\n{disassemble(code, nvdisasm, arch)}".encode())
    return b"".join(parts)


def write(path, data):
    with open(path, "wb") as f:   # through a symlink or FIFO, as asked
        f.write(data)


def run(args):
    bundle = os.path.abspath(args.bundle)
    if os.path.basename(bundle) != "gpubench-bundle" or not os.path.isdir(bundle):
        raise Failure(f"--bundle: {args.bundle} is not a BUILD/gpubench-bundle directory")
    zstd = find_tool(args.zstd, "zstd", [os.path.join(bundle, "bin", "zstd")])
    nvdisasm = find_tool(args.nvdisasm, "nvdisasm", ["/usr/local/cuda/bin/nvdisasm"])
    outputs = {}
    for variant in args.variants.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            cache = os.path.join(tmp, "cache")
            os.makedirs(cache)  # the driver makes none
            env = dict(os.environ, FATOMIC_BUILD_DIR=os.path.dirname(bundle),
                       OUT=os.path.join(tmp, "run"), __GL_SHADER_DISK_CACHE="1",
                       __GL_SHADER_DISK_CACHE_PATH=cache, __GL_SHADER_DISK_CACHE_SKIP_CLEANUP="1")
            print(f"nvidia-sass: {variant} f{args.width} {args.result}", file=sys.stderr)
            r = subprocess.run(
                [os.path.join(ROOT, "tools", "gpubench", "run-gpubench.sh"), "run",
                 "--variants", variant, "--widths", str(args.width), "--results", args.result,
                 "--values", "rising", "--addrs", "1024", "--repeat", "1", "--warmup", "0",
                 "--settle-ms", "0"], env=env, capture_output=True, text=True)
            if r.returncode != 0:
                raise Failure(f"{variant}: the benchmark run failed:\n{r.stderr[-2000:]}")
            bins = sorted(os.path.join(d, f) for d, _, fs in os.walk(cache)
                          for f in fs if f.endswith(".bin"))
            if not bins:
                raise Failure(f"{variant}: the driver wrote no shader cache (not NVIDIA's driver?)")
            outputs[variant] = read_codes(bins, False, zstd, nvdisasm, args.arch)
    # Written only once every variant has its code.
    os.makedirs(args.out, exist_ok=True)
    for variant, text in outputs.items():
        write(os.path.join(args.out, f"{variant}.sass"), text)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run variants and disassemble their pipelines")
    r.add_argument("--bundle", required=True)
    r.add_argument("--variants", required=True, help="comma-separated")
    r.add_argument("--out", required=True, help="directory for VARIANT.sass")
    r.add_argument("--width", type=int, choices=(32, 64), default=32)
    r.add_argument("--result", choices=("unused", "used"), default="unused")
    e = sub.add_parser("extract", help="the code in cache files")
    e.add_argument("files", nargs="+")
    e.add_argument("--out", required=True)
    e.add_argument("--raw", action="store_true", help="the instruction bytes, not disassembled")
    for s in (r, e):
        s.add_argument("--zstd")
        s.add_argument("--nvdisasm")
        s.add_argument("--arch", default="SM90")
    args = p.parse_args()
    try:
        if args.cmd == "run":
            run(args)
        else:
            zstd = find_tool(args.zstd, "zstd", [])
            nvdisasm = None if args.raw else find_tool(args.nvdisasm, "nvdisasm",
                                                       ["/usr/local/cuda/bin/nvdisasm"])
            write(args.out, read_codes(args.files, args.raw, zstd, nvdisasm, args.arch))
    except (Failure, OSError) as err:
        print(f"nvidia-sass: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
