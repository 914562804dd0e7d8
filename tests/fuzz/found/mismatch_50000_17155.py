"""Found by `python3 -m tests.fuzz --seed 50000` (program 17155), shrunk.

CPython ((0.6-0.8j), {6000000007: 2.066666666666667}, [array([0., 0.])])
Kiln    ((0.6-0.8j), {6000000007: -1.6}, [array([0., 0.])])
"""
import math
import numpy as np
from kiln import prange

def f(arg0):
    arg0[:-1] -= arg0[1:]
    a1 = np.sort(arg0)
    a2 = np.empty((arg0.shape[0], arg0.shape[1]), dtype=np.int32)
    a2.fill(7)
    try:
        return ({6000000007: float(np.mean(a1))},)
    except (IndexError, ZeroDivisionError):
        pass
JIT = {'f': {}}
ENTRY = 'f'

def ARGS():
    return [((np.asfortranarray(np.array([-1, -33, -3, -12, 3037000500, -12, -7, -37, 0, 1, 34, -17, 4611686018427387904, 15, -39], dtype=np.int64).reshape((5, 3, 1))),), {})]


KIND = 'mismatch'
SIG = 'value'
