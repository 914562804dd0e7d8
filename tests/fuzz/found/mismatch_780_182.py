"""Found by `python3 -m tests.fuzz --seed 780` (program 182), shrunk.

CPython (-3, 0.9839859468739369)
Kiln    (-3, -0.858934493426592)
"""
import math
import numpy as np
from kiln import prange

def f(arg0, arg1):
    x1 = float(np.sum(arg1))
    x1 *= (math.tanh(float(arg0[1 % arg0.shape[0], 0 % arg0.shape[1]])) * 3.0) ** 11
    x10 = x1
    return (math.sin(x10),)
JIT = {'f': {'signature': '(float64[:, :], Optional(int32[:]))'}}
ENTRY = 'f'

def ARGS():
    return [((np.array([1, 1, 1, 1, 1, 1, 1, 1, 1], dtype=np.float64).reshape((3, 3)).T,), {'arg1': np.array([-457899869, 11, 284215770], dtype=np.int32).reshape((3,))})]


KIND = 'mismatch'
SIG = 'value'
