"""Found by `python3 -m tests.fuzz --seed 1` (program 528), shrunk.

CPython raised ValueError: zero-size array to reduction operation maximum which has no identity; Kiln ZeroDivisionError: integer modulo by zero
"""
import math
import numpy as np
from kiln import prange

def helper1(b2, y4=0.5):
    pass

def f(arg0, arg1, arg2, arg3):
    a11 = np.max(arg3, axis=0)
    if arg3.shape[0] < a11.shape[0]:
        pass
    elif arg0[9 % arg0.shape[0]]:
        pass
JIT = {'helper1': {}, 'f': {}}
ENTRY = 'f'

def ARGS():
    return [((np.array([], dtype=np.bool_).reshape((0,))[::-1], np.array([], dtype=np.float64).reshape((0, 0))[::-2], np.array([], dtype=np.float64).reshape((0,))[::-1], np.array([], dtype=np.float32).reshape((0, 0))[::-2]), {})]


KIND = 'wrong_exception'
SIG = 'ValueError -> ZeroDivisionError: integer modulo by zero'
