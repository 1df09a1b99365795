"""A stand-in for CuPy that runs the NVPTX benchmark's and race test's
kernels on the host.

Only for exercising `nvptx-bench.py run` and `nvptx-race.py run` (their
bookkeeping, checks, result files and exit status) on a machine without a
GPU.  It does not read the PTX:
each kernel is emulated from its name (the module's file name gives the type,
the operation and whether the result is used), sequentially, with NaN
handling of the `number` policy (`propagate` for special_ieee).  The device it reports is named
"EMULATED" so that nothing it produces passes for a measurement
(nvptx-report.py refuses it).  With FAKE_CUPY_CORRUPT=1 it flips a bit of
the memory after each of fatomic's kernels (written out and calls), so
that the checks must fail; after the aggregated race kernels, a bit of the
last address's final memory.  The race kernel runs its racer at a different
place among the lanes' operations at each address (a serial order the
oracle must accept).
"""

import json
import os
import re
import time

import numpy

__version__ = "emulated"

DEVICE_NAME = "EMULATED on the host (not a GPU)"


def asarray(a):
    return numpy.array(a, copy=True)


def asnumpy(a):
    return numpy.array(a, copy=True)


def zeros(n, dtype):
    return numpy.zeros(n, dtype=dtype)


def empty(n, dtype):
    return numpy.empty(n, dtype=dtype)


class _Runtime:
    @staticmethod
    def getDeviceCount():
        return 1

    @staticmethod
    def getDeviceProperties(index):
        return {"name": DEVICE_NAME, "major": 9, "minor": 0,
                "multiProcessorCount": 1}

    @staticmethod
    def driverGetVersion():
        return 0

    @staticmethod
    def runtimeGetVersion():
        return 0


class _Device:
    def synchronize(self):
        pass


class _Event:
    def __init__(self):
        self.t = None

    def record(self):
        self.t = time.perf_counter()

    def synchronize(self):
        pass


def _elapsed(start, end):
    return (end.t - start.t) * 1000.0


class _Cuda:
    runtime = _Runtime
    Device = _Device
    Event = _Event
    get_elapsed_time = staticmethod(_elapsed)


cuda = _Cuda


def _key(bits, width):
    sign = bits >> (width - 1)
    return bits ^ (((1 << width) - 1) if sign else (1 << (width - 1)))


def _is_nan(bits, width):
    mant = 23 if width == 32 else 52
    exp = ((1 << (width - 1 - mant)) - 1) << mant
    return (bits & exp) == exp and (bits & ((1 << mant) - 1)) != 0


class _Function:
    def __init__(self, module, name):
        self.m, self.name = module, name

    def __call__(self, grid, block, args):
        threads = grid[0] * block[0]
        if self.name == "race":
            self._race(*args)
            return
        if self.name == "bench":
            self._bench(threads, *args)
        elif self.name == "sparse":  # the lanes below args[7] of each warp
            self._bench(threads, *args[:7], lanes=int(args[7]))
        elif self.name == "floor":  # no atomic, nothing to emulate
            return
        elif self.name.startswith("cached"):
            self._special(*args, per_thread=8)
        else:
            self._special(*args)
        if self.m.variant != "expand" and os.environ.get("FAKE_CUPY_CORRUPT"):
            dst = args[1] if self.name == "bench" else args[2]
            dst.view(numpy.uint8)[0] ^= 1

    def _bench(self, threads, vals, dst, sink, vmask, mask, iters, rising, lanes=32):
        u32 = numpy.uint32
        i = numpy.arange(threads, dtype=u32)[:, None]
        k = numpy.arange(int(iters), dtype=u32)[None, :]
        a = (((i * u32(2654435761) + k * u32(40503)) >> u32(7)) & u32(mask)).ravel()
        v = vals[((i + k * u32(977)) & u32(vmask)).ravel()]
        if rising:
            step = numpy.broadcast_to(k << u32(12), (threads, int(iters))).ravel()
            step = step.astype(vals.dtype)
            v = v + step if self.m.op == "fmax" else v - step
        took = numpy.repeat(numpy.arange(threads) % 32 < lanes, int(iters))
        a, v = a[took], v[took]
        mem = dst.view(vals.dtype)
        (numpy.maximum if self.m.op == "fmax" else numpy.minimum).at(mem, a, v)

    def _apply(self, m, v, width, ieee):
        """Memory after the atomic with operand v on memory m (bits)."""
        if ieee:  # propagate: NaNs stay, sticky
            if _is_nan(m, width):
                return m
            if _is_nan(v, width):
                top = 1 << (width - 1)
                return (2 * top - 1) if self.m.op == "fmin" else top - 1
        elif _is_nan(v, width):
            return m
        elif _is_nan(m, width):
            return v
        wins = _key(v, width) > _key(m, width) if self.m.op == "fmax" \
            else _key(v, width) < _key(m, width)
        return v if wins else m

    def _special(self, vals, addr, dst, ret, n, per_thread=1):
        """The special-value kernels (one atomic per thread) and the cached
        ones (per_thread atomics, operands and results at t * per_thread
        + k), thread after thread."""
        width = vals.dtype.itemsize * 8
        ubits = vals.view(numpy.uint32 if width == 32 else numpy.uint64)
        mem = dst.view(ubits.dtype)
        out = ret.view(ubits.dtype)
        ieee = self.name.endswith("_ieee")
        for t in range(int(n)):
            a = int(addr[t])
            if a == 0xFFFFFFFF:  # an idle thread
                continue
            for x in range(t * per_thread, (t + 1) * per_thread):
                m = int(mem[a])
                if self.m.used:
                    out[x] = m
                mem[a] = self._apply(m, int(ubits[x]), width, ieee)

    def _race(self, vals, dst, ret, sync, took, lret, n, rv):
        """nvptx-race.py's kernel, serially: at address a the racer runs
        after a % (k + 1) of the k lanes' operations."""
        import race_agg  # beside run.py, which put it on the path
        from race_model import canon, minmax
        case = self.m.case
        pol, slots, w = case["policy"], race_agg.SLOTS, case["width"]
        rv = int(numpy.array([rv]).view(numpy.uint32 if w == 32 else numpy.uint64)[0])
        for a in range(int(n)):
            lanes = sorted(race_agg.expected_lanes(case, a, 32).items())
            racer_at = a % (len(lanes) + 1)
            for pos in range(len(lanes) + 1):
                m = int(dst[a])
                if pos == racer_at:
                    if case["racer"] in ("xchg", "cas"):
                        ret[a] = m
                    if case["racer"] == "xchg" or (case["racer"] == "cas"
                                                   and m == case["init"]):
                        dst[a] = rv
                    elif case["racer"] not in ("xchg", "cas"):
                        dst[a] = canon(pol, minmax(case["racer"], pol, m, rv, w), w)
                    m = int(dst[a])
                if pos == len(lanes):
                    break
                lane, idx = lanes[pos]
                took[a * slots + lane] = idx + 1
                if case["used"]:
                    lret[a * slots + lane] = m
                dst[a] = canon(pol, minmax(case["kind"], pol, m, int(vals[idx]), w), w)
        if os.environ.get("FAKE_CUPY_CORRUPT") and self.m.variant != "perlane":
            dst[int(n) - 1] ^= dst.dtype.type(1)


class RawModule:
    def __init__(self, path):
        race = re.match(r"(agg-.*)\.(fatomic|perlane)\.ptx$", os.path.basename(path))
        if race and ".entry race(" in open(path).read():
            # The case from the bundle's manifest, beside the PTX file.
            with open(os.path.join(os.path.dirname(path), "manifest.json")) as f:
                self.case = next(c["case"] for c in json.load(f)["cases"]
                                 if c["name"] == race.group(1))
            self.variant = race.group(2)
            return
        m = re.match(r"(f32|f64)_(fmax|fmin)_(used|unused)\.(fatomic|calls|perlane|expand|reconverge)\.ptx$",
                     os.path.basename(path))
        if not m or ".entry bench(" not in open(path).read():
            raise ValueError(f"fake cupy: not a benchmark PTX file: {path}")
        self.type, self.op = m.group(1), m.group(2)
        self.used, self.variant = m.group(3) == "used", m.group(4)

    def get_function(self, name):
        return _Function(self, name)
