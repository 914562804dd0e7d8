"""Found by `python3 -m tests.fuzz --seed 50000` (program 18307), shrunk.

CPython raised ZeroDivisionError: generated e10; Kiln returned [2]
"""
import math
import numpy as np
from kiln import prange

def helper1(y2=-9223372036854775807, y3=1.0):
    l4 = [y2]
    t6 = (math.exp(y3), y2 > 0.0 + sum(l4), 1)
    u7, u8, u9 = t6
    if (1 if u8 else y2) > y2:
        raise ZeroDivisionError('generated e10')
    return math.hypot(y3, y3)

def f(arg2):
    o13 = np.zeros(arg2.shape[0], dtype=np.float64)
    for i12 in prange(arg2.shape[0]):
        o13[i12] = helper1(y3=i12)
JIT = {'helper1': {}, 'f': {'parallel': True}}
ENTRY = 'f'

def ARGS():
    return [((), {'arg2': np.array([26], dtype=np.int32).reshape((1,))})]


KIND = 'mismatch'
SIG = 'no ZeroDivisionError'
