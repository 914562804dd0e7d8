"""A kiln.vectorize ufunc with a cheap kernel writes a contiguous output too
large for the last-level cache with streaming stores (jit/dispatch/ufunc_loop.c):
the plain loop reaches the first output element on a 64-byte boundary and
a streaming copy of it runs the rest. Small calls never take that path, so
a child process sets KILN_STREAM_MIN_BYTES=0 to send every call through it
and compares with NumPy's own ufuncs: every element size, outputs starting
at every offset within a cache line, an output not aligned to its element
size, in place, accumulate and reduce, both targets, and sizes across the
loop's poll chunks. A kernel calling cos gets no streaming copy."""
import numpy as np

import kiln

KERNELS = '''
import math

def larger(a, b):
    return max(a, b)

def fma(a, b):
    return a * b + a

def below(a, b):
    return a < b

def wave(a, b):
    return math.cos(a) * b
'''

CHECK = r'''
import json
import numpy as np
import _kiln, kiln
from kiln import ufunc as U
import kernels as m

rng = np.random.default_rng(11)
mismatches, checked = [], 0

def sample(dtype, n):
    if np.dtype(dtype).kind == "c":
        return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)
    if np.dtype(dtype).kind == "f":
        return (rng.standard_normal(n) * 100).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)

def check(label, got, want):
    global checked
    checked += 1
    if got.dtype != want.dtype or got.shape != want.shape or not np.array_equal(got, want, equal_nan=True):
        mismatches.append(label)

signatures = {
    "larger": ["float32(float32, float32)", "float64(float64, float64)", "int8(int8, int8)",
               "uint16(uint16, uint16)", "int64(int64, int64)"],
    "fma": ["complex128(complex128, complex128)", "int32(int32, int32)", "float32(float32, float32)"],
    "below": ["boolean(float64, float64)"],
}
references = {"larger": lambda a, b: np.where(b > a, b, a), "fma": lambda a, b: a * b + a,
              "below": np.less}
for target in ("cpu", "parallel"):
    for name, sigs in signatures.items():
        f = kiln.vectorize(sigs, target=target)(getattr(m, name))
        ref = references[name]
        for sig in sigs:
            dtype = sig.split("(")[1].split(",")[0]
            for n in (0, 1, 3, 16, 17, 63, 64, 65, 1000, 65536 + 37, 3 * 65536 + 5):
                a, b = sample(dtype, n), sample(dtype, n)
                with np.errstate(all="ignore"):
                    want = ref(a, b)
                check((target, name, dtype, n, "new"), f(a, b), want)
                if n > 200:
                    continue
                for offset in range(17):
                    buf = np.full(n + 40, 7, dtype=want.dtype)
                    out = buf[offset:offset + n]
                    f(a, b, out=out)
                    check((target, name, dtype, n, "offset", offset), out, want)
                    # the elements around the output stay untouched
                    check((target, name, dtype, n, "around", offset),
                          np.concatenate([buf[:offset], buf[offset + n:]]),
                          np.full(40, 7, dtype=want.dtype))
        if name != "larger":
            continue
        for dtype in ("float64", "int64"):
            x, y = sample(dtype, 5000), sample(dtype, 5000)
            with np.errstate(all="ignore"):
                want = ref(x, y)
            f(x, y, out=x)
            check((target, name, dtype, "in place"), x, want)
            z = sample(dtype, 70000)
            check((target, name, dtype, "accumulate"), f.accumulate(z), np.maximum.accumulate(z))
            check((target, name, dtype, "reduce"), np.asarray(f.reduce(z)), np.asarray(z.max()))
            grid = sample(dtype, 300 * 70).reshape(300, 70)
            check((target, name, dtype, "accumulate axis 0"), f.accumulate(grid, axis=0),
                  np.maximum.accumulate(grid, axis=0))

    # a float32 output at an odd byte offset is never aligned to its elements
    f = kiln.vectorize(["float32(float32, float32)"], target=target)(m.larger)
    raw = np.zeros(4 * 1000 + 1, dtype=np.uint8)
    odd = np.frombuffer(raw.data, dtype=np.float32, count=1000, offset=1)
    a, b = sample("float32", 1000), sample("float32", 1000)
    f(a, b, out=odd)
    check((target, "odd byte offset"), odd.copy(), np.where(b > a, b, a))

def loop_asm(kernel, sig):
    k = U._kernel(kernel, ("vectorize",), {})
    spec, _ = U._vectorize_loop(k, [t.spec for t in sig.args], sig.return_type.spec)
    return spec.asm

sig = kiln.float64(kiln.float64, kiln.float64)
print(json.dumps({"mismatches": [list(map(str, x)) for x in mismatches], "checked": checked,
                  "threshold": _kiln.stream_min_bytes(),
                  "cheap_streams": "movnt" in loop_asm(m.larger, sig),
                  "cos_streams": "movnt" in loop_asm(m.wave, sig)}))
'''


def test_streamed_ufunc_calls_give_numpys_results(run_streaming_child):
    report = run_streaming_child("kernels", KERNELS, CHECK)
    assert report["threshold"] == 0
    assert report["mismatches"] == [], report["mismatches"][:20]
    # 2 targets x 9 signatures x (11 sizes + 8 small sizes x 17 offsets x 2), + 2 x 2 x 4, + 2
    assert report["checked"] == 2 * 9 * (11 + 8 * 17 * 2) + 2 * 2 * 4 + 2
    assert report["cheap_streams"], "no streaming store in a cheap kernel's loop"
    assert not report["cos_streams"], "a kernel calling cos got a streaming loop"


def test_a_large_call_past_the_real_threshold():
    @kiln.vectorize(["float32(float32, float32)"])
    def larger(a, b):
        return max(a, b)

    rng = np.random.default_rng(5)
    n = 3 * 2**20 + 7     # 36 MiB touched: past half of this machine's 32 MiB cache
    a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    assert np.array_equal(larger(a, b), np.maximum(a, b))
    out = np.empty(n + 1, np.float32)[1:]
    larger(a, b, out=out)
    assert np.array_equal(out, np.maximum(a, b))
