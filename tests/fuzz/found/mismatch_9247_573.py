"""Found by `python3 -m tests.fuzz --seed 9247` (program 573), shrunk.

argument 0 after the call: CPython array([0], dtype=int8)
Kiln array([10], dtype=int8)
"""
import math
import numpy as np
from kiln import prange

def f(arg0):
    arg0 = arg0[::2]
    arg0 = np.ravel(arg0)
    arg0 *= arg0 == np.clip(np.arange(0, arg0.shape[0], 1, np.uint8), 0, 5)
    return ()
JIT = {'f': {'parallel': True}}
ENTRY = 'f'

def ARGS():
    return [((np.array([10], dtype=np.int8).reshape((1,))[::-1],), {})]


KIND = 'mismatch'
SIG = 'argument'
