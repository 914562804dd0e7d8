"""Found by `python3 -m tests.fuzz --seed 50000` (program 75811), shrunk.

CPython (6, 23.0)
Kiln    (6, 22.0)
"""
import math
import numpy as np
from kiln import prange

def f(arg0):
    a32 = arg0 * 2
    l36 = [float(np.sum(a32)) // float(np.mean(a32))]
    return (l36,)
JIT = {'f': {}}
ENTRY = 'f'

def ARGS():
    return [((np.array([2.034, 15.245, 20.444, 13.139, 8.267, 15.699, -5.473, -2.191, -9.632, -1.442, 6.274, -0.331, 0.807, -14.737, 5.061, 5.273, -10.746, -10.764, -4.448, -11.129], dtype=np.float64).reshape((4, 5)).T,), {})]


KIND = 'mismatch'
SIG = 'value'
