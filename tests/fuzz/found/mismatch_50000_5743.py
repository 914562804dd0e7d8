"""Found by `python3 -m tests.fuzz --seed 50000` (program 5743), shrunk.

CPython (-3.5103032185217075e+17+1.152921384606847e+18j)
Kiln    (-2.201436347013033e+17+1.152921384606847e+18j)
"""
import math
import numpy as np
from kiln import prange

def f(arg1):
    x5 = math.cos(float(np.mean(arg1)))
    return x5
JIT = {'f': {'parallel': True}}
ENTRY = 'f'

def ARGS():
    return [((np.asfortranarray(np.array([49, -43, -43, 7, 43, -50, 24, -40, -23, 8, -2147483648, -31, 25, 42, -36, -45, 30, 9223372036854775807, -15, -24, -48, -28, 3037000500, -11, -13, 16, 50, 3037000500, -2147483648, -50, -3, -18, -39, 45, 50, -28], dtype=np.int64).reshape((3, 3, 4))),), {})]


KIND = 'mismatch'
SIG = 'value'
