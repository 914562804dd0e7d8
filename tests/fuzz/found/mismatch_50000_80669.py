"""Found by `python3 -m tests.fuzz --seed 50000` (program 80669), shrunk.

Kiln said the loop at line 24 computes nothing used, but CPython differs without it (shown as Kiln's): argument 2 after the call: CPython array([        -26,          34,          11,           0, -1934983136],
      dtype=int32)
Kiln array([        -26,          34,          11,         -32, -1934983136],
      dtype=int32)
"""
import math
import numpy as np
from kiln import prange

def f(arg2):
    for x12 in arg2:
        arg2[3 % arg2.shape[0]] = 0
    return
JIT = {'f': {'parallel': True}}
ENTRY = 'f'

def ARGS():
    return [((np.array([1, 1, 1, 1, 1], dtype=np.int32).reshape((5,)),), {})]


KIND = 'mismatch'
SIG = 'unused loop'
