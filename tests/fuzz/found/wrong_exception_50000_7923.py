"""Found by `python3 -m tests.fuzz --seed 50000` (program 7923), shrunk.

CPython raised ValueError: zero-size array to reduction operation maximum which has no identity; Kiln ZeroDivisionError: integer modulo by zero
"""
import math
import numpy as np
from kiln import prange

def helper1(b2, y4=4611686018427387907, y5=0.001):
    pass

def f(arg0, arg1, arg2):
    a22 = np.clip(arg2, 0, 5)
    h24 = helper1(a22, y5=int(np.max(arg1)), y4=int(arg0[2, 9 % arg0.shape[1]]))
JIT = {'helper1': {}, 'f': {'parallel': True}}
ENTRY = 'f'

def ARGS():
    return [((np.array([], dtype=np.int64).reshape((5, 0))[::-1], np.array([], dtype=np.int8).reshape((0, 5)).T, np.array([1, 1, 1, 1, 1], dtype=np.int64).reshape((5,))), {})]


KIND = 'wrong_exception'
SIG = 'ValueError -> ZeroDivisionError: integer modulo by zero'
