"""Found by `python3 -m tests.fuzz --seed 3107` (program 959), shrunk.

CPython raised ZeroDivisionError: integer modulo by zero; Kiln IndexError: pop from empty list
"""
import math
import numpy as np
from kiln import prange

def f(arg1, arg2):
    l1 = [0.5 for c2 in range(3) if float(np.mean(arg1)) < float(np.mean(arg2))]
    x5 = l1.pop(int(arg1[2 % arg1.shape[0], 1 % arg1.shape[1]]))
    return ()
JIT = {'f': {'parallel': True}}
ENTRY = 'f'

def ARGS():
    return [((np.array([], dtype=np.int64).reshape((0, 5)), np.array([], dtype=np.int64).reshape((0,))), {})]


KIND = 'wrong_exception'
SIG = 'ZeroDivisionError -> IndexError: pop from empty list'
