"""Generated inputs for the NumPy corpus: dtypes, shapes, layouts (C, F,
strided and reversed views), empty arrays, NaN and inf, broadcasting
pairs. Seeded, so a failure reproduces."""
import numpy as np

rng = np.random.default_rng(2024)


def floats(shape, dtype=np.float64, special=False):
    a = (rng.standard_normal(shape) * 10).astype(dtype)
    if special and a.size >= 3:
        flat = a.reshape(-1)
        flat[0], flat[1], flat[-1] = np.nan, np.inf, -np.inf
    return a


def ints(shape, dtype=np.int64, lo=-50, hi=50):
    if np.dtype(dtype).kind == "u":
        lo = 0
    return rng.integers(lo, hi, size=shape).astype(dtype)


def positive(shape, dtype=np.float64):
    return (rng.random(shape) * 10 + 0.1).astype(dtype)


def bools(shape):
    return rng.random(shape) < 0.5


_m = floats((6, 8))
# one-dimensional
V = [(floats(7),), (floats(0),), (floats(11)[::-2],), (floats(6, np.float32),), (floats(9, special=True),)]
VI = [(ints(9),), (ints(7, np.int32),), (ints(8, np.int8, -10, 10),), (ints(6, np.uint8),), (ints(0),)]
VP = [(positive(7),), (positive(5, np.float32),), (positive(12)[1::3],)]
# two-dimensional, every layout
M = [(floats((3, 4)),), (np.asfortranarray(floats((4, 3))),), (_m[::2, ::-3],), (floats((5, 2)).T,),
     (floats((0, 3)),), (floats((3, 5), np.float32),)]
MI = [(ints((3, 4)),), (ints((2, 5), np.int32).T,), (ints((4, 4), np.int16)[:, ::2],)]
# pairs that broadcast, and one that does not
PAIRS = [(floats((3, 4)), floats(4)), (floats((3, 1)), floats(5)), (floats(6), floats(6)[::-1]),
         (floats((2, 3)).T, floats((3, 2))), (ints((2, 3)), floats(3)), (ints(5, np.int32), ints(5, np.int8)),
         (floats(0), floats(1)), (floats(3), floats(4))]
SIZES = [(0,), (1,), (5,), (17,)]
