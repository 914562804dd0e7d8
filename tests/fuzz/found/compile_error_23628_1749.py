"""Found by `python3 -m tests.fuzz --seed 23628` (program 1749), shrunk (the helper's raise put back and
an index put back in bounds: the shrinker had dropped the one, leaving a program Kiln refuses as
ill-typed, and cut the other's `% a.shape[k]`, leaving a read past the end; it keeps both now).

in function 'f' (/tmp/kiln_fuzz_ik5mq2r0/prog_1750.py, line 35, col 17):
            l24 = [(h19 + h19)]
                    ^
unsupported operand types for this operator: none and none
"""
import math
import numpy as np
from kiln import prange

def helper1(b2, y5, y6):
    raise ValueError('generated')

def f(arg1):
    h19 = helper1(np.ones((2, 3), dtype=np.int32), float(np.max(arg1)), float(arg1[0, 0]))
    x23 = float(np.mean(arg1))
    l24 = [h19 + h19]
    a33 = np.empty_like(arg1)
    a33.fill(x23)
JIT = {'helper1': {}, 'f': {}}
ENTRY = 'f'

def ARGS():
    return [((np.array([1, 1, 1], dtype=np.float64).reshape((3, 1)),), {})]


KIND = 'compile_error'
SIG = 'TypingError: unsupported operand types for this operator: none and none'
