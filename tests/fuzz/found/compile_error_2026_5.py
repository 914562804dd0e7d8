"""Found by `python3 -m tests.fuzz --seed 2026 --avoid-known` (program 5), shrunk, then put back
in the generator's guarded form (the shrinker had dropped the `is not None` test).

in function 'f':
        arg0[0, 0] = 5.0
        ^
optional(array(float64, 2d, A)) does not support item assignment
"""
import math
import numpy as np
from kiln import prange


def f(arg0, arg1):
    if arg0 is not None:
        arg0[0, 0] = 5.0
    return arg1


JIT = {'f': {'signature': '(Optional(float64[:, :]), int64)'}}
ENTRY = 'f'


def ARGS():
    return [((np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float64).reshape((2, 2)).T, 4), {}), ((None, 3), {})]


KIND = 'compile_error'
SIG = 'TypingError: optional(array) does not support item assignment'
