"""Found by `python3 -m tests.fuzz --seed 2026` (program 4), shrunk, then put back in the
generator's guarded form (the shrinker had made CPython concatenate Nones).

np.concatenate takes arrays of one number of dimensions (at least 1) here, got
UniTuple(optional(array(float64, 1d, A)) x 2)
"""
import math
import numpy as np
from kiln import prange


def f(arg0):
    if arg0 is not None:
        return float(np.sum(np.concatenate((arg0, arg0))))
    return -1.0


JIT = {'f': {'signature': '(Optional(float64[:]),)'}}
ENTRY = 'f'


def ARGS():
    return [((np.array([1.0, 2.5, -3.0], dtype=np.float64),), {}), ((None,), {})]


KIND = 'compile_error'
SIG = 'TypingError: np.concatenate takes arrays of one number of dimensions (at least N) here, got UniTuple(optional(array) x N)'
