"""Found by `python3 -m tests.fuzz --seed 50000` (program 53764), shrunk.

CPython (-0.001+1.3835058055282164e+19j)
Kiln    (nan+1.3835058055282164e+19j)
"""
import math
import numpy as np
from kiln import prange

def f(arg2):

    def g18(p19, p20):
        return min(p20, min(float(np.mean(arg2)), p20))
    return g18(2.25, 0.001)
JIT = {'f': {}}
ENTRY = 'f'

def ARGS():
    return [((np.array([], dtype=np.int32).reshape((2, 3, 0))[::-1],), {})]


KIND = 'mismatch'
SIG = 'value'
