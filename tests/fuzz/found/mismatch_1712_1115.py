"""Found by `python3 -m tests.fuzz --seed 1712` (program 1115), shrunk.

argument 0 after the call: CPython array([[-25.957531]], dtype=float32)
Kiln array([[-inf]], dtype=float32)
"""
import math
import numpy as np
from kiln import prange

def f(arg0):
    a10 = np.tanh(arg0)
    arg0 += np.log1p(a10)
JIT = {'f': {}}
ENTRY = 'f'

def ARGS():
    return [((np.array([-9.322], dtype=np.float32).reshape((1, 1)).T,), {})]


KIND = 'mismatch'
SIG = 'argument'
