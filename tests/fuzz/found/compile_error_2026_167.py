"""Found by `python3 -m tests.fuzz --seed 2026 --avoid-known` (program 167), shrunk, then put back
in the generator's guarded form (the shrinker had made CPython compare with None).

in function 'f':
        return np.sum(arg0 == arg1)
                      ^
np.equal cannot take optional(array(float64, 1d, A))
"""
import math
import numpy as np
from kiln import prange


def f(arg0, arg1):
    if arg0 is not None:
        return np.sum(arg0 == arg1)
    return -1


JIT = {'f': {'signature': '(Optional(float64[:]), float32[:])'}}
ENTRY = 'f'


def ARGS():
    return [((np.array([1.0, 2.0, 3.0], dtype=np.float64), np.array([1.0, 0.0, 3.0], dtype=np.float32)), {}),
            ((None, np.array([1.0], dtype=np.float32)), {})]


KIND = 'compile_error'
SIG = 'TypingError: np.equal cannot take optional(array)'
