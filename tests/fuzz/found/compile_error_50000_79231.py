"""Found by `python3 -m tests.fuzz --seed 50000` (program 79231), shrunk.

in function 'f' (/tmp/kiln_fuzz_66u7i9j6/prog_4232.py, line 35, col 5):
        h14 -= 5
        ^
unsupported operand types for this operator: never and int64
"""
import math
import numpy as np
from kiln import prange

def helper8(y9, y10):
    raise ZeroDivisionError('generated e12')
    return x13

def f(arg2):
    h14 = helper8(math.exp(float(np.mean(arg2))), float(np.mean(arg2)))
    h14 -= 5
    return ()
JIT = {'helper8': {}, 'f': {}}
ENTRY = 'f'

def ARGS():
    return [((np.array([1, 1, 1, 1, 1, 1, 1, 1, 1, 1], dtype=np.float64).reshape((2, 5)).T,), {})]


KIND = 'compile_error'
SIG = 'TypingError: unsupported operand types for this operator: never and intN'
