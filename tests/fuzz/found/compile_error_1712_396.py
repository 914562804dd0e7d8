"""Found by `python3 -m tests.fuzz --seed 1712` (program 396), shrunk (the helper's raise put back: the shrinker had dropped it, leaving a program
Kiln refuses as ill-typed; it keeps such a statement now).

in function 'f' (/tmp/kiln_fuzz_o2z79aa3/prog_397.py, line 33, col 28):
                h17 = math.cos(h17 % 6.25)
                               ^
unsupported operand types for this operator: none and float64
"""
import math
import numpy as np
from kiln import prange

def helper1(y2=3.0, y3=0.001):
    raise ValueError('generated')

def f(arg0, arg1):
    a14 = np.empty_like(arg1)
    a14.fill(100)
    w15 = 0
    while w15 < 0:
        h17 = helper1(y3=float(np.sum(arg0)))
        h17 = math.cos(h17 % 6.25)
JIT = {'helper1': {}, 'f': {}}
ENTRY = 'f'

def ARGS():
    return [((np.array([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], dtype=np.float32).reshape((5, 5, 3)).T, np.array([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], dtype=np.int8).reshape((3, 5))[::-1]), {})]


KIND = 'compile_error'
SIG = 'TypingError: unsupported operand types for this operator: none and floatN'
