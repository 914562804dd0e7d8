"""Found by `python3 -m tests.fuzz --seed 1` (program 141), shrunk.

CPython -1.632002668928557
Kiln    -1.631998550211648
"""
import math
import numpy as np
from kiln import prange

def helper1(b2, y4, y5):
    pass

def f(arg0, arg1, arg2, arg3):
    return 10000000000.0 % np.sum(arg0)
JIT = {'helper1': {}, 'f': {}}
ENTRY = 'f'

def ARGS():
    return [((np.asfortranarray(np.array([-11.535, 0.479, 10.406, -18.758], dtype=np.float64).reshape((2, 2))), np.array([False, False, True], dtype=np.bool_).reshape((3,)), np.array([255, 3, 255, 255, 9, 3, 1, 255, 255, 77, 255, 255], dtype=np.uint8).reshape((6, 2))[::2], np.asfortranarray(np.array([-1.809, 12.748, 21.007, -10.798, 11.409, -12.341], dtype=np.float64).reshape((3, 2)))), {})]


KIND = 'mismatch'
SIG = 'value'
