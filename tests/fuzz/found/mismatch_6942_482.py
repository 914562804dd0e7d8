"""Found by `python3 -m tests.fuzz --seed 6942` (program 482), shrunk.

CPython (True, 0)
Kiln    (False, 0)
"""
import math
import numpy as np
from kiln import prange

def f(arg2):
    l4 = [arg2]
    l12 = l4
    return (arg2 in l12,)
JIT = {'f': {}}
ENTRY = 'f'

def ARGS():
    return [((np.nan,), {})]


KIND = 'mismatch'
SIG = 'value'
