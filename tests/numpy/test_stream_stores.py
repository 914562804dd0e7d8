"""A new array from an array expression that touches at least half the
largest cache is written with streaming stores (jit/lower/stream_stores.h): the
same numbers, only the way they reach memory differs. Small arrays never
take that path, so a child process sets KILN_STREAM_MIN_BYTES=0 to send
every size, dtype and layout through it and compares with NumPy; in this
process the real threshold is checked, and an array above it."""
import os

import numpy as np

import _kiln
import kiln
from kiln import sysinfo

EXPRESSIONS = '''
import numpy as np

def fma3(a, b, c):
    return a * b + c

def norm(a, b):
    return np.sqrt(a * a + b * b)

def leaky(a, b):
    return np.where(a > 0, a, b * a)

def positive(a, b):
    return (a > 0) & (b < a)

def wrapping(a, b):
    return a * b - a
'''

CHECK = r'''
import json
import numpy as np
import _kiln, kiln
import expressions as m

rng = np.random.default_rng(7)
sizes = [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 4097, (3, 5), (64, 33)]
plans = {"fma3": 3, "norm": 2, "leaky": 2, "positive": 2, "wrapping": 2}
dtypes = {"fma3": ["float64", "float32", "int64", "int8", "complex128"], "norm": ["float64", "float32"],
          "leaky": ["float64", "float32", "int32"], "positive": ["float64", "uint8"],
          "wrapping": ["int64", "int32", "uint8", "int16"]}
mismatches, checked, streaming_asm = [], 0, False
before = _kiln.nrt_stats()
for name, nargs in plans.items():
    f = kiln.jit(getattr(m, name))
    for dtype in dtypes[name]:
        for size in sizes:
            raw = [rng.standard_normal(size) * 1e3 for _ in range(nargs)]
            if dtype == "complex128":
                raw = [r + 1j * rng.standard_normal(size) for r in raw]
            for layout in ("C", "reversed"):
                args = [r.astype(dtype) for r in raw]
                if layout == "reversed":
                    args = [a[::-1] for a in args]
                with np.errstate(all="ignore"):
                    want = getattr(m, name)(*args)
                got = f(*args)
                checked += 1
                # NumPy's complex multiply differs between its SIMD loop and its
                # strided one in the last bit (a[::-1] * b[::-1] against copies)
                same = (np.allclose(got, want, rtol=1e-15, atol=0) if dtype == "complex128"
                        else np.array_equal(got, want, equal_nan=True))
                if got.dtype != want.dtype or got.shape != want.shape or not same:
                    mismatches.append([name, dtype, str(size), layout])
                del got
    asm = "\n".join(f.inspect_asm().values())
    streaming_asm = streaming_asm or "movnt" in asm
after = _kiln.nrt_stats()
print(json.dumps({"mismatches": mismatches, "checked": checked, "movnt": streaming_asm,
                  "threshold": _kiln.stream_min_bytes(),
                  "live": after["live_bytes"] - before["live_bytes"],
                  "unfreed": (after["alloc"] - before["alloc"]) - (after["free"] - before["free"])}))
'''


def test_every_size_dtype_and_layout_streamed_gives_numpys_result(run_streaming_child):
    report = run_streaming_child("expressions", EXPRESSIONS, CHECK)
    assert report["threshold"] == 0
    assert report["checked"] == 15 * 2 * 16   # sizes, layouts, (function, dtype) pairs
    assert report["mismatches"] == [], report["mismatches"]
    assert report["movnt"], "no streaming store in the compiled code"
    assert report["live"] == 0 and report["unfreed"] == 0


def largest_cache_bytes():
    sizes, index = [], 0
    while os.path.exists(f"/sys/devices/system/cpu/cpu0/cache/index{index}/size"):
        text = open(f"/sys/devices/system/cpu/cpu0/cache/index{index}/size").read().strip()
        scale = {"K": 2**10, "M": 2**20, "G": 2**30}.get(text[-1], 1)
        sizes.append(int(text.rstrip("KMG")) * scale)
        index += 1
    return max(sizes, default=0)


def test_the_threshold_is_half_the_largest_cache_and_sysinfo_says_so():
    cache = largest_cache_bytes()
    threshold = _kiln.stream_min_bytes()
    if "KILN_STREAM_MIN_BYTES" in os.environ:
        assert threshold == int(os.environ["KILN_STREAM_MIN_BYTES"])
        return
    assert threshold == (cache // 2 if cache else 2**63 - 1)
    rows = dict(dict(sysinfo.report())["Kiln"])
    if cache:
        assert f"{threshold / 2**20:.1f} MiB or more" in rows["Streaming stores"]
    else:
        assert rows["Streaming stores"].startswith("never")


def test_an_array_past_the_threshold_and_one_below_it():
    @kiln.njit
    def fma3(a, b, c):
        return a * b + c

    threshold = _kiln.stream_min_bytes()
    rng = np.random.default_rng(3)
    small = 1000
    sizes = [small] if threshold >= 2**40 else [small, threshold // 32 + 1001]   # 4 float64 arrays per element
    for n in sizes:
        a, b, c = (rng.standard_normal(n) for _ in range(3))
        assert np.array_equal(fma3(a, b, c), a * b + c)
